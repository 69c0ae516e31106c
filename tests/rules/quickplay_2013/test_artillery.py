"""Artillery (8.0): bombardment's conditions (8.2), line of sight along a hexside (8.3, R14.1), range strictly less
than the range factor (8.4), the differential without terrain modifiers, doubled against cavalry (8.2), and the
guns never affected by the result (8.2)."""

from __future__ import annotations

import pytest

from server.rules.kernel.core import Ctx
from server.rules.quickplay.artillery import has_los as revised_has_los
from server.rules.quickplay_2013.artillery import has_los

from .conftest import Position2013
from .play import attack, decision, of_type, refused


def bombard(target: str, guns: list[str]) -> dict:
    return {"type": "bombard", "target": target, "artillery": guns}


def test_8_4_the_target_must_be_less_than_the_range_factor_away(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0104", range=3)
    pos.unit("r1", "red", hex="0404")
    pos.unit("r2", "red", hex="0304")
    game = pos.game("combat", dice=[1, 1])
    e = refused(game, "blue", bombard("0404", ["a1"]), "8.4")  # three hexes: not less than 3
    assert "less than" in e.message
    game.submit("blue", bombard("0304", ["a1"]))


@pytest.mark.parametrize(("woods", "wall", "sees"), [
    (["0504"], False, True), (["0504", "0505"], False, False), ([], True, True)])
def test_8_3_a_line_along_a_hexside_is_blocked_only_if_both_hexes_block(woods: list[str], wall: bool, sees: bool) -> None:
    pos = Position2013()
    pos.terrain(woods, "woods") if woods else None
    if wall:
        pos.hexside("0504", "0505", "wall")
    pos.unit("a1", "blue", "artillery", hex="0404")
    pos.unit("r1", "red", hex="0604")
    game = pos.game("combat")
    ctx = Ctx.of(game)
    assert has_los(ctx, "0404", "0604") is sees
    if wall:  # the revised edition's R2 reads a blocking hexside along the line as blocking
        assert not revised_has_los(ctx, "0404", "0604")


def test_8_2_a_disrupted_battery_or_one_in_an_ezoc_may_not_bombard(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0204", disrupted=True)
    pos.unit("a2", "blue", "artillery", hex="0206")
    pos.unit("r1", "red", hex="0404")
    pos.unit("r2", "red", hex="0306")
    game = pos.game("combat")
    refused(game, "blue", bombard("0404", ["a1"]), "8.2(3)")
    refused(game, "blue", bombard("0404", ["a2"]), "8.2(1)")


def test_8_2_the_artillery_factor_is_the_differential_with_no_terrain_modifier_doubled_against_cavalry(
        pos: Position2013) -> None:
    pos.terrain("0404", "woods")
    pos.unit("a1", "blue", "artillery", hex="0204", attack=3)
    pos.unit("r1", "red", hex="0404")
    pos.unit("rc", "red", "cavalry", hex="0404")
    game = pos.game("combat", dice=[3, 1, 3, 1])
    events = game.submit("blue", bombard("0404", ["a1"]))
    diffs = {e["unit"]: e["differential"] for e in of_type(events, "bombard_result")}
    assert diffs == {"r1": 3, "rc": 6}


def test_8_2_bombarding_artillery_is_not_affected_by_an_attacker_result(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0204", attack=1)
    pos.unit("r1", "red", hex="0404")
    game = pos.game("combat", dice=[1, 6])  # +1: die 1 is Ac(NE)
    events = game.submit("blue", bombard("0404", ["a1"]))
    assert of_type(events, "no_effect") and decision(game) is None
    assert not game.state.units["a1"].disrupted


def test_t13_a_bombarded_hex_is_not_attacked_again_that_phase(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0204", attack=1)
    pos.unit("b1", "blue", hex="0304")
    pos.unit("r1", "red", hex="0404")
    game = pos.game("combat", dice=[3, 3])
    game.submit("blue", bombard("0404", ["a1"]))
    refused(game, "blue", {"type": "attack", "target": "0404", "attackers": ["b1"]}, "7.3")


def test_8_2_a_battery_adds_its_attack_factor_to_an_adjacent_attack(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0204", attack=3)
    pos.unit("b1", "blue", hex="0304", attack=4)
    pos.unit("r1", "red", hex="0404")
    game = pos.game("combat", dice=[3, 3])
    events = attack(game, "0404", ["b1"], support=["a1"])
    assert next(e for e in events if e["type"] == "combat_result")["attack"] == 7
