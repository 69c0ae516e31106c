"""Step two of movement (moves.py): R16.11's one command per unit per step, R16.9's allowance ("half" refuses the
(n/2+1)th unit), R16.10's Forced March, R16.13's chargers (no second move), R16.11's generals (5 hexes, any path,
never into an enemy unit's hex) and R16.3 (attached generals move with the unit; a lone enemy general escapes)."""

from __future__ import annotations

import pytest

from server.rules import IllegalCommand
from server.rules.horse_and_musket.tables import FORCED_MARCH

from .builder import Board, ctx_of, events_of, step

A, B, C = "0408", "0608", "0808"


def _three() -> Board:
    return Board().unit("a", "blue", "co", A).unit("b", "blue", "co", B).unit("c", "blue", "co", C)


def test_r16_9_half_lets_two_of_three_units_act_and_refuses_the_third() -> None:
    g = _three().game(allow="half")
    g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}]})
    g.submit("blue", {"type": "move", "unit": "b", "formation": "column"})  # a formation change is acting too
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "move", "unit": "c", "legs": [{"pivot": "NE"}]})
    assert err.value.rule == "R16.9"


def test_r16_9_none_forbids_every_move_but_r16_10_forced_march_frees_one_unit() -> None:
    g = _three().game(allow="none", hands={"blue": [FORCED_MARCH]})
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}]})
    events = g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}], "card": FORCED_MARCH})
    assert [e["card"] for e in events_of(events, "card_played")] == [FORCED_MARCH]
    assert "card_played" in [e["type"] for e in events if "visible_to" not in e]  # a played card is public
    assert g.state.units["a"].hex == step(A, "N")
    with pytest.raises(IllegalCommand):  # one card frees one unit
        g.submit("blue", {"type": "move", "unit": "b", "legs": [{"steps": 1}]})


def test_r16_10_forced_march_is_refused_for_a_unit_that_may_move_anyway() -> None:
    g = _three().game(allow="all", hands={"blue": [FORCED_MARCH]})
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}], "card": FORCED_MARCH})
    assert err.value.rule == "R16.10"


def test_r16_10_a_card_you_do_not_hold_is_refused() -> None:
    g = _three().game(allow="none")
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}], "card": FORCED_MARCH})
    assert err.value.rule == "R16.10" and "hold no" in err.value.message


def test_r16_11_a_units_step_two_movement_is_one_command() -> None:
    g = _three().game()
    g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}]})
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}]})
    assert err.value.rule == "R16.11"


def test_4_2_moves_come_in_step_two_only() -> None:
    g = _three().game(step="charges")
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}]})
    assert err.value.rule == "4.2"


def test_r16_3_an_attached_general_moves_with_his_unit() -> None:
    g = _three().general("b-bde", "blue", A).game()
    g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 2}]})
    assert g.state.units["b-bde"].hex == step(A, "N", "N")


def test_r16_3_a_lone_enemy_general_escapes_to_the_nearest_friendly_unit() -> None:
    lone = step(B, "N", "N")
    friend = step(lone, "N", "N", "N")
    b = _three().general("r-bde", "red", lone).unit("r", "red", "co", friend, facing="S")
    g = b.game()
    events = g.submit("blue", {"type": "move", "unit": "b", "legs": [{"steps": 2}]})
    assert g.state.units["r-bde"].hex == friend
    assert events_of(events, "general_flees")
    far = Board().unit("b", "blue", "hc", B).general("r-bde", "red", step(B, "N", "N"))
    g = far.game()
    g.submit("blue", {"type": "move", "unit": "b", "legs": [{"steps": 2}]})
    assert g.state.units["r-bde"].status == "dead"  # no friendly unit within 5 hexes


def test_r16_11_r16_20_12_a_general_rides_5_hexes_once_never_into_an_enemy() -> None:
    path = [B, step(B, "N"), step(B, "N", "N"), step(B, "N", "N", "N"), step(B, "N", "N", "N", "N"),
            step(B, "N", "N", "N", "N", "N"), step(B, "N", "N", "N", "N", "N", "N")]
    g = Board().general("b-bde", "blue", B).game()
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "general", "general": "b-bde", "path": path})  # six hexes
    g.submit("blue", {"type": "general", "general": "b-bde", "path": path[:6]})
    assert g.state.units["b-bde"].hex == path[5]
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "general", "general": "b-bde", "path": [path[5], path[4]]})  # once a step
    g = Board().general("b-bde", "blue", B).unit("r", "red", "co", path[2], facing="S").game()
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "general", "general": "b-bde", "path": path[:4]})
    assert ctx_of(g).hex_of("b-bde") == B


def test_undo_takes_back_a_step_two_move() -> None:
    g = _three().game()
    g.submit("blue", {"type": "move", "unit": "a", "legs": [{"steps": 1}]})
    events = g.submit("blue", {"type": "undo"})
    assert g.state.units["a"].hex == A and "a" not in ctx_of(g).x["acted"]
    assert events[0]["text"] == "Blue takes back: move a"
