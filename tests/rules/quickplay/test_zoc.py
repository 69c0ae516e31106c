"""Zones of control (6.0, R5): exerting, entering, leaving, disrupted/ineffective units, terrain that blocks ZOC."""

from __future__ import annotations

import pytest
from position import Position, ctx_of

from server.rules import IllegalCommand


def move(game, units, path, side="blue"):
    return game.submit(side, {"type": "move", "units": list(units), "path": list(path)})


def refused(game, units, path, rule: str, side="blue") -> None:
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        move(game, units, path, side)
    assert exc.value.rule == rule, exc.value
    assert game.to_json() == before


def reach(game, units, side="blue"):
    return game.options(side, list(units))["reachable"]


# --- 6.1 exerting ------------------------------------------------------------------------------
def test_6_1_a_combat_unit_exerts_zoc_into_its_six_neighbours(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0101")
    game = pos.game()
    assert ctx_of(game).zoc_of("red") == frozenset({"0705", "0704", "0603", "0504", "0505", "0605"})


@pytest.mark.parametrize("status", ["disrupted", "ineffective"])
def test_r5_disrupted_and_ineffective_units_exert_no_zoc(pos: Position, status: str) -> None:
    pos.unit("r1", "red", "infantry" if status == "disrupted" else "battalion", hex="0604", **{status: True})
    pos.unit("b1", "blue", hex="0304", ma=4)
    game = pos.game()
    assert ctx_of(game).zoc_of("red") == frozenset()
    move(game, ["b1"], ["0304", "0404", "0504", "0505", "0506"])  # passes right by r1
    assert game.state.units["b1"].hex == "0506"


def test_r5_leaders_exert_no_zoc(pos: Position) -> None:
    pos.leader("rl", "red", hex="0604")
    pos.unit("r1", "red", hex="1008")
    pos.unit("b1", "blue", hex="0304", ma=4)
    game = pos.game()
    assert "0504" not in ctx_of(game).zoc_of("red")


# --- 6.2 entering and leaving --------------------------------------------------------------------
def test_6_2_entering_an_ezoc_ends_the_move(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0304", ma=6)
    game = pos.game()
    r = reach(game, ["b1"])
    assert r["0504"]["ends_move"] is True
    assert "0503" not in [h for h, x in r.items() if x["path"][:4] == ["0304", "0404", "0504", "0503"]]
    refused(game, ["b1"], ["0304", "0404", "0504", "0503"], "6.2")
    move(game, ["b1"], ["0304", "0404", "0504"])
    assert game.state.units["b1"].hex == "0504"


def test_6_2_one_ezoc_is_no_worse_than_several(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("r2", "red", hex="0605")
    pos.unit("b1", "blue", hex="0305", ma=6)
    game = pos.game()
    move(game, ["b1"], ["0305", "0405", "0505"])  # 0505 is in both ZOCs: the move just ends there
    assert game.state.units["b1"].hex == "0505"


def test_6_2_a_unit_starting_in_ezoc_moves_only_one_hex(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0504", ma=6)
    game = pos.game()
    assert set(reach(game, ["b1"])) == {"0403", "0404", "0503"}  # 0505 and 0603 are in r1's ZOC too
    refused(game, ["b1"], ["0504", "0404", "0304"], "6.2")
    move(game, ["b1"], ["0504", "0404"])
    assert game.state.units["b1"].hex == "0404"


def test_6_2_a_unit_starting_in_ezoc_may_not_move_directly_into_another_ezoc(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0504", ma=6)
    game = pos.game()
    refused(game, ["b1"], ["0504", "0505"], "6.2")
    refused(game, ["b1"], ["0504", "0603"], "6.2")


def test_6_2_leaving_an_ezoc_into_the_zoc_of_a_different_enemy_unit_is_refused(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("r2", "red", hex="0303")  # its ZOC covers 0403
    pos.unit("b1", "blue", hex="0504", ma=6)
    game = pos.game()
    refused(game, ["b1"], ["0504", "0403"], "6.2")
    assert set(reach(game, ["b1"])) == {"0404", "0503"}


def test_6_2_the_one_hex_from_ezoc_is_allowed_even_without_the_mp(pos: Position) -> None:
    pos.terrain("0404", "marsh")
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0504", ma=1)
    game = pos.game()
    move(game, ["b1"], ["0504", "0404"])
    assert game.state.units["b1"].hex == "0404"


def test_r5_a_disrupted_unit_may_not_enter_an_ezoc_alone(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0404", disrupted=True)
    game = pos.game()
    assert "0504" not in reach(game, ["b1"])
    refused(game, ["b1"], ["0404", "0504"], "11.1")


def test_r5_a_disrupted_unit_may_enter_an_ezoc_with_a_leader_of_its_formation(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0404", disrupted=True, formation="1")
    pos.leader("bl", "blue", hex="0404", formation="1")
    game = pos.game()
    move(game, ["b1", "bl"], ["0404", "0504"])
    assert game.state.units["b1"].hex == "0504"


@pytest.mark.parametrize("leader_formation,leader_ineffective", [("2", False), ("1", True)])
def test_r5_a_disrupted_unit_needs_an_effective_leader_of_its_own_formation(
    pos: Position, leader_formation: str, leader_ineffective: bool,
) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0404", disrupted=True, formation="1")
    pos.leader("bl", "blue", hex="0404", formation=leader_formation, ineffective=leader_ineffective)
    game = pos.game()
    refused(game, ["b1", "bl"], ["0404", "0504"], "11.1")


def test_r5_a_disrupted_unit_with_a_leader_that_stays_behind_may_not_enter(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0404", disrupted=True)
    pos.leader("bl", "blue", hex="0404")
    game = pos.game()
    refused(game, ["b1"], ["0404", "0504"], "11.1")


def test_r5_an_ineffective_unit_never_enters_an_ezoc_even_with_a_leader(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("bn", "blue", "battalion", hex="0404", ineffective=True)
    pos.leader("bl", "blue", hex="0404")
    game = pos.game()
    refused(game, ["bn", "bl"], ["0404", "0504"], "11.2")
    refused(game, ["bn"], ["0404", "0504"], "11.2")


# --- 6.3 terrain that blocks ZOC -------------------------------------------------------------------
def test_6_3_terrain_blocking_zoc_into_a_hex(pos: Position) -> None:
    pos.terrain("0505", "fort")  # blocks ZOC into it
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0405", ma=6)
    game = pos.game()
    zoc = ctx_of(game).zoc_of("red")
    assert "0505" not in zoc and "0504" in zoc
    move(game, ["b1"], ["0405", "0505", "0506"])  # through the fort without stopping
    assert game.state.units["b1"].hex == "0506"


def test_6_3_terrain_blocking_zoc_out_of_a_hex(pos: Position) -> None:
    pos.terrain("0604", "marsh")  # blocks ZOC out of it
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0304", ma=6)
    game = pos.game()
    assert ctx_of(game).zoc_of("red") == frozenset()
    move(game, ["b1"], ["0304", "0404", "0504", "0505"])
    assert game.state.units["b1"].hex == "0505"


def test_6_3_a_hexside_blocking_zoc(pos: Position) -> None:
    pos.hexside("0504", "0604", "wall")
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0404", ma=6)
    game = pos.game()
    zoc = ctx_of(game).zoc_of("red")
    assert "0504" not in zoc and "0505" in zoc
    move(game, ["b1"], ["0404", "0504", "0503"])
    assert game.state.units["b1"].hex == "0503"
