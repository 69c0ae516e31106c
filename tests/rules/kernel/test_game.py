"""The game facade: refusals leave the game exactly as it was; malformed commands raise MalformedCommand;
only the side whose decision it is may act; every command legal_commands offers is accepted."""

from __future__ import annotations

import random

import pytest
from position import Position, attack

from server.rules import Game, IllegalCommand, MalformedCommand, NotYourDecision


def sample_game(phase="movement", dice=None) -> Game:
    pos = Position()
    pos.terrain("0704", "marsh")
    pos.unit("b1", "blue", hex="0504", attack=6)
    pos.unit("a1", "blue", "artillery", hex="0304", attack=3)
    pos.unit("bx", "blue", hex=None, turn=3, entry="0104")
    pos.leader("bl", "blue", hex="0504")
    pos.unit("r1", "red", hex="0604", defense=6)
    pos.unit("r2", "red", hex="0905")
    return pos.game(phase=phase, dice=dice)


ILLEGAL_MOVES = [
    {"type": "move", "units": ["b1"], "path": ["0504", "0404", "0304"]},  # starts in EZOC: one hex (6.2)
    {"type": "move", "units": ["b1"], "path": ["0504", "0604"]},  # enemy hex
    {"type": "move", "units": ["b1"], "path": ["0504", "0506"]},  # not adjacent
    {"type": "move", "units": ["r1"], "path": ["0604", "0605"]},  # not blue's unit
    {"type": "move", "units": ["bx"], "path": ["0104"]},  # not arrived yet
    {"type": "move", "units": ["b1", "a1"], "path": ["0504", "0404"]},  # not in one hex
    {"type": "move", "units": ["nobody"], "path": ["0504", "0404"]},
    {"type": "move", "units": ["b1"], "path": ["0504", "9999"]},  # off the map
    {"type": "attack", "target": "0604", "attackers": ["b1"]},  # not the combat phase
    {"type": "bombard", "target": "0604", "artillery": ["a1"]},
    {"type": "recover", "unit": "b1"},
    {"type": "choose", "option": "x"},  # nothing to choose
    {"type": "place", "unit": "b1", "hex": "0404"},
    {"type": "form_square", "hex": "0604"},
]

ILLEGAL_ATTACKS = [
    {"type": "attack", "target": "0905", "attackers": ["b1"]},  # not adjacent
    {"type": "attack", "target": "0404", "attackers": ["b1"]},  # nobody there
    {"type": "attack", "target": "0604", "attackers": ["b1"], "primary": "a1"},
    {"type": "attack", "target": "0604", "attackers": ["b1", "b1"]},
    {"type": "attack", "target": "0604", "attackers": ["bl"]},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "leaders": ["r1"]},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "support": ["b1"]},
    {"type": "bombard", "target": "0604", "artillery": ["b1"]},
    {"type": "bombard", "target": "0905", "artillery": ["a1"]},  # out of range
    {"type": "move", "units": ["b1"], "path": ["0504", "0404"]},  # not the movement phase
]


@pytest.mark.parametrize("cmd", ILLEGAL_MOVES, ids=lambda c: c["type"])
def test_an_illegal_command_leaves_the_game_exactly_unchanged_movement(cmd) -> None:
    game = sample_game()
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", cmd)
    assert exc.value.rule and exc.value.message
    assert game.to_json() == before


@pytest.mark.parametrize("cmd", ILLEGAL_ATTACKS, ids=lambda c: c["type"])
def test_an_illegal_command_leaves_the_game_exactly_unchanged_combat(cmd) -> None:
    game = sample_game(phase="combat")
    before = game.to_json()
    with pytest.raises(IllegalCommand):
        game.submit("blue", cmd)
    assert game.to_json() == before


def test_an_illegal_answer_to_a_decision_leaves_the_game_unchanged() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9)
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, 6])
    attack(game, "0604", ["b1"])
    assert game.state.decision["kind"] == "retreat"
    before = game.to_json()
    with pytest.raises(NotYourDecision):
        game.submit("blue", {"type": "choose", "option": "0704"})
    for cmd in ({"type": "choose", "option": "0504"}, {"type": "end_phase"}, {"type": "choose"},
                {"type": "move", "units": ["r1"], "path": ["0604", "0704"]}):
        with pytest.raises(IllegalCommand):
            game.submit("red", cmd)
    assert game.to_json() == before


def test_only_the_side_whose_decision_it_is_may_act() -> None:
    game = sample_game()
    with pytest.raises(NotYourDecision):
        game.submit("red", {"type": "end_phase"})
    assert game.awaiting == "blue"


MALFORMED = [
    None, 5, "end_phase", ["end_phase"], {}, {"type": 5}, {"type": None}, {"type": ["move"]},
    {"type": "fly"}, {"type": "teleport", "units": ["b1"]}, {"type": "__init__"}, {"type": "_dispatch"},
    {"type": "move", "units": "b1", "path": ["0504", "0404"]},
    {"type": "move", "units": ["b1"], "path": "0504 0404"},
    {"type": "move", "units": [1], "path": ["0504", "0404"]},
    {"type": "move", "units": ["b1"], "path": [504, 404]},
    {"type": "move", "units": None, "path": None},
    {"type": "move", "units": ["b1"], "path": ["0504", "0404"], "charge": 604},
    {"type": "end_phase", **{f"k{i}": i for i in range(20)}},
]


@pytest.mark.parametrize("cmd", MALFORMED, ids=lambda c: repr(c)[:40])
def test_a_malformed_command_raises_malformed_command(cmd) -> None:
    game = sample_game()
    before = game.to_json()
    with pytest.raises(MalformedCommand):
        game.submit("blue", cmd)
    assert game.to_json() == before


MALFORMED_FIELDS = [
    {"type": "attack", "target": 604, "attackers": ["b1"]},
    {"type": "attack", "target": "0604", "attackers": "b1"},
    {"type": "attack", "target": "0604", "attackers": [["b1"]]},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "primary": ["b1"]},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "leaders": "bl"},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "leaders": [{"id": "bl"}]},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "support": "a1"},
    {"type": "attack", "target": "0604", "attackers": ["b1"], "support": [3]},
    {"type": "bombard", "target": ["0604"], "artillery": ["a1"]},
    {"type": "bombard", "target": "0604", "artillery": "a1"},
]


@pytest.mark.parametrize("cmd", MALFORMED_FIELDS, ids=lambda c: repr(c)[:60])
def test_wrong_field_types_in_combat_commands_never_crash(cmd) -> None:
    game = sample_game(phase="combat")
    before = game.to_json()
    with pytest.raises(IllegalCommand):
        game.submit("blue", cmd)
    assert game.to_json() == before


@pytest.mark.parametrize("cmd", MALFORMED_FIELDS, ids=lambda c: repr(c)[:60])
def test_wrong_field_types_in_combat_commands_are_malformed(cmd) -> None:
    game = sample_game(phase="combat")
    with pytest.raises(MalformedCommand):
        game.submit("blue", cmd)


@pytest.mark.parametrize("cmd", [
    {"type": "choose", "option": {"id": "x"}}, {"type": "choose", "option": ["x"]},
    {"type": "recover", "unit": ["b1"]}, {"type": "place", "unit": {"x": 1}, "hex": "0404"},
    {"type": "form_square", "hex": ["0504"]}, {"type": "form_square", "hex": "0504", "unit": ["b1"]},
    {"type": "remove_square", "hex": {"h": 1}},
], ids=lambda c: repr(c)[:50])
def test_odd_field_values_are_refused_without_crashing(cmd) -> None:
    game = sample_game()
    before = game.to_json()
    with pytest.raises(IllegalCommand):
        game.submit("blue", cmd)
    assert game.to_json() == before


def test_an_unknown_side_is_malformed() -> None:
    with pytest.raises(MalformedCommand):
        sample_game().submit("green", {"type": "end_phase"})


def test_refusals_carry_a_rule_and_a_plain_message() -> None:
    game = sample_game()
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0504", "0404", "0304"]})
    assert exc.value.to_json() == {"error": "illegal_command", "rule": "6.2", "message": exc.value.message}


def test_every_command_legal_commands_offers_is_accepted(tutorial) -> None:
    game = Game.new(tutorial, "legal-commands-seed-0123456789")
    rng = random.Random(5)
    checked = 0
    for _ in range(80):
        if game.is_over:
            break
        side = game.awaiting
        cmds = list(game.legal_commands(side, random.Random(rng.random())))
        assert cmds, "a side that must act always has a legal command"
        for cmd in rng.sample(cmds, min(4, len(cmds))):
            trial = Game.from_json(tutorial, game.to_json())
            trial.submit(side, cmd)
            checked += 1
        cmd = {"type": "end_phase"} if game.state.decision is None and rng.random() < 0.3 else rng.choice(cmds)
        game.submit(side, cmd)
    assert checked > 100


def test_a_saved_game_loads_to_the_same_state(tutorial) -> None:
    game = Game.new(tutorial, "save-load-seed-0123456789")
    rng = random.Random(9)
    for _ in range(40):
        side = game.awaiting
        cmds = list(game.legal_commands(side, random.Random(rng.random())))
        game.submit(side, rng.choice(cmds))
    loaded = Game.from_json(tutorial, game.to_json())
    assert loaded.to_json() == game.to_json()
    side = game.awaiting
    cmd = next(iter(game.legal_commands(side)))
    assert loaded.submit(side, cmd) == game.submit(side, cmd)


@pytest.mark.parametrize("command", [
    {"type": "end_phase", "extra": 1},  # a Quick Play command: its fields come from the edition (command_fields)
    {"type": "move", "units": ["b1"], "path": ["0504", "0505"], "speed": "fast"},
    {"type": "undo", "steps": 2},  # the kernel's own commands carry their own fields only
    {"type": "choose", "option": "x", "why": "y"},
])
def test_a_field_the_command_does_not_have_is_malformed(command) -> None:
    game = sample_game()
    before = game.to_json()
    with pytest.raises(MalformedCommand, match="unknown field"):
        game.submit("blue", command)
    assert game.to_json() == before


def test_the_kernel_takes_command_fields_and_previews_from_the_edition() -> None:
    from server.rules import Edition, QuickPlay

    assert set(QuickPlay().command_fields()) >= {"end_phase", "place", "move", "attack", "bombard", "charge"}
    with pytest.raises(NotImplementedError):
        Edition().command_fields()
    with pytest.raises(NotImplementedError):
        Edition().preview(sample_game(), "blue", {"type": "attack"})
