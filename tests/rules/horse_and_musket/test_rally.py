"""Rally (rally.py): 2, 2.1 and R16.8: a general rides up to 5 hexes into the unit's hex and takes a d3 of hits off
it, never below 1 and never its staggered flag; only a unit with 2 or more hits out of range of enemy fire; once per
general; the brigade commander's -1 follows in the command step (test_command.py)."""

from __future__ import annotations

import pytest

from server.rules import Game, IllegalCommand

from .builder import Board, ctx_of, step

U = "0610"


def _board(enemy_at: str | None = None) -> Board:
    b = Board().unit("u", "blue", "co", U).general("b-1", "blue", step(U, "S"))
    if enemy_at:
        b.unit("r", "red", "co", enemy_at, facing="S")
    return b


def _rally(hits: int, dice: list[int], staggered: tuple[str, ...] = ()) -> tuple[Game, int]:
    g = _board().game(step="rally", dice=dice, hits={"u": hits}, staggered=staggered)
    g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": [step(U, "S"), U]})
    return g, ctx_of(g).hits("u")


@pytest.mark.parametrize(("hits", "die", "left"), [(5, 6, 2), (5, 3, 3), (2, 6, 1), (4, 1, 3)])
def test_2_1_r16_8_a_d3_of_hits_off_never_below_one(hits: int, die: int, left: int) -> None:
    _, after = _rally(hits, [die, 1, 1])
    assert after == left


def test_2_1_the_general_ends_in_the_units_hex_and_rallies_once() -> None:
    g, _ = _rally(5, [6, 1, 1])
    assert ctx_of(g).hex_of("b-1") == U
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": [U]})


def test_2_1_a_staggered_flag_is_never_rallied_off() -> None:
    g, after = _rally(4, [6, 1, 1], staggered=("u",))
    assert after == 1 and g.state.units["u"].reduced


def test_2_1_r16_8_a_unit_with_fewer_than_2_hits_or_under_fire_is_not_rallied() -> None:
    g = _board().game(step="rally", hits={"u": 1})
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": [step(U, "S"), U]})
    # R16.20(20): a musket 3 hexes off with a clear path, facing away (arcs ignored)
    g = _board(enemy_at=step(U, "N", "N", "N")).game(step="rally", hits={"u": 4})
    ctx_of(g).set_facing("r", "N")
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": [step(U, "S"), U]})
    assert "range of enemy fire" in err.value.message
    # four hexes off is out of a musket's range
    g = _board(enemy_at=step(U, "N", "N", "N", "N")).game(step="rally", hits={"u": 4}, dice=[6, 1, 1])
    g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": [step(U, "S"), U]})


def test_2_1_r16_8_the_general_rides_at_most_5_hexes_never_through_an_enemy() -> None:
    start = step(U, "N", "N", "N", "N", "N", "N")
    path = [step(U, *["N"] * i) for i in range(6, -1, -1)]  # six hexes south to the unit
    g = Board().unit("u", "blue", "co", U).general("b-1", "blue", start).game(step="rally", hits={"u": 4})
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": path})
    blocked = Board().unit("u", "blue", "co", U).general("b-1", "blue", path[2])
    blocked.unit("r", "red", "lc", path[3], facing="N")  # carbines, 3 hexes from the unit: out of range
    g = blocked.game(step="rally", hits={"u": 4}, dice=[6])
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": path[2:]})
    around = [path[2], step(path[2], "SE"), step(path[2], "SE", "S"), path[4], path[5], path[6]]  # 5 hexes
    g.submit("blue", {"type": "rally", "general": "b-1", "unit": "u", "path": around})
    assert ctx_of(g).hex_of("b-1") == U
