"""Squares (9.3): formed at the beginning of the movement phase, by a disrupted unit too (R14.1); one hex a phase,
with a morale check on other than clear terrain; +2 against non-cavalry attackers, -2 attacking out of it; only
the infantry forming it takes part."""

from __future__ import annotations

from .conftest import Position2013
from .play import attack, move, refused


def test_9_3_a_disrupted_unit_may_form_square_before_any_unit_moves(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0304", disrupted=True)
    pos.unit("b2", "blue", hex="0306")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    game.submit("blue", {"type": "form_square", "hex": "0304"})
    assert game.state.squares == {"0304": "b1"}
    move(game, ["b2"], ["0306", "0406"])
    refused(game, "blue", {"type": "remove_square", "hex": "0304"}, "9.3")


def test_9_3_a_square_moves_one_hex_and_checks_morale_entering_woods(pos: Position2013) -> None:
    pos.terrain("0404", "woods")
    pos.unit("b1", "blue", hex="0304", square=True, mr=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game(dice=[5])
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0304", "0404", "0504"]}, "9.3")
    move(game, ["b1"], ["0304", "0404"])
    assert game.state.squares == {"0404": "b1"} and game.state.units["b1"].disrupted


def test_9_3_a_square_adds_two_to_a_non_cavalry_attacker_and_subtracts_two_from_its_own_attack(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=4)
    pos.unit("r1", "red", hex="0504", square=True)
    pos.unit("b2", "blue", hex="0606", attack=4, square=True)
    pos.unit("r2", "red", hex="0607")
    game = pos.game("combat", dice=[3, 3, 3, 3])
    first = attack(game, "0504", ["b1"])
    assert next(e for e in first if e["type"] == "combat_result")["attack"] == 6
    second = attack(game, "0607", ["b2"])
    assert next(e for e in second if e["type"] == "combat_result")["attack"] == 2


def test_9_3_only_the_infantry_forming_the_square_takes_part(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", square=True)
    pos.unit("a1", "blue", "artillery", hex="0404")
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[3, 3])
    refused(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b1", "a1"], "primary": "b1"}, "9.3")
