"""Recovery (11.0): at the end of a later movement phase a disrupted or ineffective unit recovers automatically when
eligible for march movement, otherwise on a morale check out of an EZOC (11.1, 11.3); step recovery with a
replacement step, no morale check (11.2); an eliminated unit returning as a reinforcement the same turn."""

from __future__ import annotations

from .conftest import Position2013
from .play import dice_left, end_phase, move, of_type, refused


def test_11_1_a_unit_eligible_for_march_movement_recovers_automatically(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204", disrupted=True)
    pos.unit("a1", "blue", "artillery", hex="0206", ineffective=True, disrupted=True)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    events = end_phase(game)
    assert len(of_type(events, "recovered")) == 2 and dice_left(game) == 0
    assert not any(game.state.units[u].disrupted or game.state.units[u].ineffective for u in ("b1", "a1"))


def test_11_1_otherwise_a_morale_check_out_of_an_ezoc_and_none_in_one(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0304", disrupted=True, mr=4)  # two hexes from r1: not eligible to march
    pos.unit("b2", "blue", hex="0404", disrupted=True, mr=4)  # next to r1: in its ZOC, no check
    pos.unit("r1", "red", hex="0504")
    game = pos.game(dice=[2])  # 2 against 4 - 2 passes
    events = end_phase(game)
    assert [e["unit"] for e in of_type(events, "recovered")] == ["b1"]
    assert game.state.units["b2"].disrupted


def test_11_1_a_unit_disrupted_this_phase_waits_for_a_subsequent_one(pos: Position2013) -> None:
    for uid in ("b1", "b2", "b3", "b4"):
        pos.unit(uid, "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    end_phase(game)  # 5.0 disrupts them at the end of this movement phase
    assert all(game.state.units[u].disrupted for u in ("b1", "b2", "b3", "b4"))


def test_11_2_a_reduced_unit_recovers_its_step_with_a_replacement_and_no_check(pos: Position2013) -> None:
    pos.replacements("blue", 1)
    pos.unit("b1", "blue", hex="0204", reduced=True, disrupted=True)
    pos.unit("b2", "blue", hex="0404", reduced=True)
    pos.unit("r1", "red", hex="0504")
    game = pos.game()
    refused(game, "blue", {"type": "recover", "unit": "b2"}, "11.2")  # next to the enemy: no march
    game.submit("blue", {"type": "recover", "unit": "b1"})
    b1 = game.state.units["b1"]
    assert not b1.reduced and not b1.disrupted and dice_left(game) == 0 and game.state.replacements["blue"] == 0
    # T18: having recovered, it keeps two hexes from the enemy if it moves
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0204", "0304", "0404"]}, "11.2")


def test_11_2_an_eliminated_unit_returns_this_turn_as_a_reinforcement(pos: Position2013) -> None:
    pos.replacements("blue", 1, return_hexes=["0104"])
    pos.unit("b1", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    game.state.units["b1"].status, game.state.units["b1"].hex = "eliminated", None
    game.submit("blue", {"type": "recover", "unit": "b1"})
    b1 = game.state.units["b1"]
    assert (b1.status, b1.entry_turn, b1.entry_hex, b1.reduced) == ("returning", 1, "0104", True)
    move(game, ["b1"], ["0104", "0204"])
    assert game.state.units["b1"].hex == "0204"


def test_11_2_a_captured_unit_never_returns(pos: Position2013) -> None:
    pos.replacements("blue", 1)
    pos.unit("b1", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    game.state.units["b1"].status, game.state.units["b1"].hex = "captured", None
    refused(game, "blue", {"type": "recover", "unit": "b1"}, "11.2")
