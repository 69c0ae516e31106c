"""Retreat and rout (7.6, 7.8): one to three hexes in any direction, a safe line when there is one, an unsafe line
routing from its last hex without a step loss, a rout routed again losing a step; cavalry three hexes (9.1(4));
artillery, cavalry and leaders ineffective after a retreat (8.1(2), 9.1(1), 10.0); capture without a line."""

from __future__ import annotations

from .conftest import Position2013
from .play import attack, choose, decision, of_type


def test_7_6_any_direction_no_entry_hex_needed(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[6, 3])
    attack(game, "0504", ["b1"])
    choose(game, "retreat")
    paths = [o["path"] for o in game.state.decision["options"]]
    # red enters from the east (1004), yet a path away from it, westward, is offered (no direction rule)
    assert ["0503", "0402", "0302"] in paths
    assert {len(p) for p in paths} == {1, 2, 3}


def test_7_6_an_unsafe_line_routs_from_its_last_hex_without_a_step_loss(pos: Position2013) -> None:
    pos.unit("r1", "red", hex="0504")
    for i, h in enumerate(("0404", "0505", "0503", "0603", "0604")):  # 0403 left open, in their ZOC
        pos.unit(f"b{i}", "blue", hex=h)
    game = pos.game("combat", dice=[6, 3])
    attack(game, "0504", ["b0"])
    choose(game, "retreat")
    assert not any(o["safe"] for o in game.state.decision["options"])
    events = choose(game, game.state.decision["options"][0]["id"])
    assert of_type(events, "unsafe_retreat") and not game.state.units["r1"].reduced
    assert game.state.decision["rule"] == "7.8"  # now the rout: three hexes


def test_7_8_a_rout_routed_again_loses_a_step(pos: Position2013) -> None:
    pos.unit("r1", "red", hex="0504")
    for i, h in enumerate(("0404", "0505", "0503", "0603", "0604")):
        pos.unit(f"b{i}", "blue", hex=h, attack=8)
    game = pos.game("combat", dice=[6, 6])  # +4: Dm(Dr); morale 6 fails: a rout
    attack(game, "0504", ["b0"])
    assert game.state.decision["rule"] == "7.8" and not any(o["safe"] for o in game.state.decision["options"])
    events = choose(game, game.state.decision["options"][0]["id"])
    assert of_type(events, "routed_again") and game.state.units["r1"].reduced


def test_9_1_4_cavalry_retreats_three_and_goes_ineffective(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("rc", "red", "cavalry", hex="0504")
    game = pos.game("combat", dice=[6, 3])
    attack(game, "0504", ["b1"])
    choose(game, "retreat")
    assert {len(o["path"]) for o in game.state.decision["options"]} == {3}
    choose(game, game.state.decision["options"][0]["id"])
    assert game.state.units["rc"].ineffective


def test_7_6_no_line_of_retreat_is_capture(pos: Position2013) -> None:
    pos.unit("r1", "red", hex="0504")
    for i, h in enumerate(("0404", "0505", "0503", "0603", "0604", "0403")):
        pos.unit(f"b{i}", "blue", hex=h)
    game = pos.game("combat", dice=[6, 3])
    events = attack(game, "0504", ["b0"])
    events += choose(game, "retreat")
    assert of_type(events, "captured") and game.state.units["r1"].status == "captured"
    assert decision(game) == "advance"
