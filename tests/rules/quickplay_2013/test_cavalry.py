"""Cavalry charges (9.2): the charge move (step 1), the charger's and the target's checks (step 2), the charge
factor doubled against a disrupted target (step 3), D results read as Dm with a step lost on the rout and every
other result as Am(Ar) (step 4), the pursuit (step 5), ineffective at the end (step 6)."""

from __future__ import annotations

from server.rules import Game

from .conftest import Position2013
from .play import choose, decision, end_phase, move, of_type, options, refused


def charged(pos: Position2013, dice: list[int], charge: int = 8, **red: object) -> Game:
    pos.unit("c1", "blue", "cavalry", hex="0204", charge=charge, mr=4)
    pos.unit("r1", "red", hex="0504", **red)  # type: ignore[arg-type]
    game = pos.game(dice=dice)
    move(game, ["c1"], ["0204", "0304", "0404"], charge="0504")
    end_phase(game)
    return game


def charge(game: Game) -> list[dict]:
    return game.submit("blue", {"type": "charge", "target": "0504", "chargers": ["c1"]})


def test_9_2_step_1_a_charge_moves_one_or_two_hexes_through_clear_terrain_only(pos: Position2013) -> None:
    pos.terrain("0304", "hill")
    pos.unit("c1", "blue", "cavalry", hex="0204")
    pos.unit("r1", "red", hex="0504")
    game = pos.game()
    e = refused(game, "blue", {"type": "move", "units": ["c1"], "path": ["0204", "0304", "0404"], "charge": "0504"},
                "9.2 step 1")
    assert "clear" in e.message
    refused(game, "blue", {"type": "move", "units": ["c1"], "path": ["0204", "0203", "0303", "0403"], "charge": "0504"},
            "9.2 step 1")


def test_9_2_step_2_a_charger_failing_its_check_is_disrupted_and_makes_no_charge(pos: Position2013) -> None:
    game = charged(pos, [6])
    events = charge(game)
    c1 = game.state.units["c1"]
    assert of_type(events, "charge_failed") and not of_type(events, "combat_result")
    assert c1.disrupted and c1.ineffective and c1.hex == "0404"  # T16: step 6 flips it all the same


def test_9_2_steps_3_4_a_d_result_is_a_dm_and_a_rout_costs_the_target_a_step(pos: Position2013) -> None:
    # 1: the charger passes; 6: the target fails and is disrupted; 4: 16 - 4 = +12, Dm(Dx); 6: it routs
    game = charged(pos, [1, 6, 4, 6])
    charge(game)
    assert decision(game) == "charge_square"
    events = choose(game, "no_square")
    assert next(e for e in events if e["type"] == "combat_result")["attack"] == 16  # doubled: disrupted target
    assert game.state.units["r1"].reduced and of_type(events, "rout")
    choose(game, options(game)[0])  # red's rout path
    assert decision(game) == "charge_advance"  # step 5: the cavalry pursues


def test_9_2_step_4_any_other_result_is_am_ar_for_the_charger(pos: Position2013) -> None:
    # 1, 1: both pass; 4: 2 - 4 = -2, NE; 3: the charger's Am check passes: Ar, its owner's choice
    game = charged(pos, [1, 1, 4, 3], charge=2)
    charge(game)
    choose(game, "no_square")
    assert decision(game) == "retreat_or_disrupt" and game.state.decision["side"] == "blue"
    choose(game, "disrupt")
    assert game.state.units["c1"].disrupted and game.state.units["c1"].ineffective  # step 6


def test_9_2_no_other_attack_on_a_charged_hex(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0503")
    game = charged(pos, [6])
    refused(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b1"]}, "9.2")
    refused(game, "blue", {"type": "end_phase"}, "9.2")  # the charge move must be followed by the charge
    charge(game)
    refused(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b1"]}, "9.2")


def test_9_3_infantry_in_square_makes_no_check_against_a_charge(pos: Position2013) -> None:
    pos.unit("c1", "blue", "cavalry", hex="0204", charge=8)
    pos.unit("r1", "red", hex="0504", square=True)
    game = pos.game(dice=[1, 3, 3])
    move(game, ["c1"], ["0204", "0304", "0404"], charge="0504")
    end_phase(game)
    events = charge(game)
    assert of_type(events, "no_check")
    result = next(e for e in events if e["type"] == "combat_result")
    assert result["defense"] == 6  # +2 in square against cavalry (9.3)
