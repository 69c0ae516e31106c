"""Undo: a side may take back its own commands of the current phase, but never across a die roll, a reveal,
an opponent's action or a phase change."""

from __future__ import annotations

import pytest
from position import Position, attack

from server.rules import Game, IllegalCommand


def movement_game(dice=None, phase="movement"):
    pos = Position()
    pos.unit("b1", "blue", hex="0304")
    pos.unit("b2", "blue", hex="0305")
    pos.unit("r1", "red", hex="0604", attack=1, defense=1)
    return pos.game(phase=phase, dice=dice)


def move(game, uid, path, side="blue"):
    return game.submit(side, {"type": "move", "units": [uid], "path": path})


def undo(game, side="blue"):
    return game.submit(side, {"type": "undo"})


def test_undo_takes_back_an_own_move_in_the_current_phase() -> None:
    game = movement_game()
    before = game.state.to_json()
    assert not game.can_undo("blue")
    move(game, "b1", ["0304", "0404"])
    assert game.can_undo("blue") and not game.can_undo("red")
    events = undo(game)
    assert events[0]["type"] == "undo"
    assert game.state.to_json() == before
    assert game.version == 2  # the undo is itself a recorded command
    move(game, "b1", ["0304", "0305"])  # and the unit may move again
    assert game.state.units["b1"].hex == "0305"


def test_undo_steps_back_one_command_at_a_time() -> None:
    game = movement_game()
    move(game, "b1", ["0304", "0404"])
    after_first = game.state.to_json()
    move(game, "b2", ["0305", "0405"])
    undo(game)
    assert game.state.to_json() == after_first
    undo(game)
    assert game.state.units["b1"].hex == "0304" and not game.state.units["b1"].moved
    with pytest.raises(IllegalCommand) as exc:
        undo(game)
    assert exc.value.rule == "undo"


def test_undo_is_refused_with_nothing_to_take_back() -> None:
    game = movement_game()
    with pytest.raises(IllegalCommand):
        undo(game)


def test_undo_is_refused_after_a_die_roll() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=1)
    pos.unit("r1", "red", hex="0604", defense=1)
    game = pos.game(phase="combat", dice=[4, 1])
    attack(game, "0604", ["b1"])  # 0: die 4 is "-"
    assert not game.can_undo("blue")
    with pytest.raises(IllegalCommand) as exc:
        undo(game)
    assert "dice" in exc.value.message


def test_undo_is_refused_after_a_phase_change() -> None:
    game = movement_game()
    move(game, "b1", ["0304", "0404"])
    game.submit("blue", {"type": "end_phase"})  # movement -> recovery -> combat
    assert game.state.phase == "combat"
    with pytest.raises(IllegalCommand):
        undo(game)


def test_undo_is_refused_after_an_opponent_action() -> None:
    game = movement_game()
    move(game, "b1", ["0304", "0404"])
    game.submit("blue", {"type": "end_phase"})
    game.submit("blue", {"type": "end_phase"})  # combat -> red movement
    move(game, "r1", ["0604", "0704"], side="red")
    assert not game.can_undo("blue") and game.can_undo("red")
    with pytest.raises(IllegalCommand) as exc:
        undo(game, "blue")
    assert "opponent" in exc.value.message


def test_undo_is_refused_after_the_set_up_reveal() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0404", within=1)
    pos.unit("r1", "red", hex="0804", within=1)
    game = Game.new(pos.scenario(), "undo-test-seed-0123456789")
    game.submit("blue", {"type": "place", "unit": "b1", "hex": "0405"})
    assert game.can_undo("blue")
    undo(game)  # a placement may be taken back
    assert game.state.units["b1"].hex == "0404"
    game.submit("blue", {"type": "place", "unit": "b1", "hex": "0405"})
    game.submit("blue", {"type": "end_phase"})
    game.submit("red", {"type": "place", "unit": "r1", "hex": "0805"})
    game.submit("red", {"type": "end_phase"})  # both set up: reveal
    assert not game.can_undo("red")
    with pytest.raises(IllegalCommand):
        undo(game, "red")


def test_undo_survives_a_save_and_load() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0304")
    pos.unit("r1", "red", hex="0804")
    sc = pos.scenario()
    game = Game.new(sc, "undo-save-seed-0123456789")
    move(game, "b1", ["0304", "0404"])
    loaded = Game.from_json(sc, game.to_json())
    undo(loaded)
    assert loaded.state.units["b1"].hex == "0304"


def at_red_movement():
    """Blue's whole turn ended: red's movement phase has just begun (a phase change sets a checkpoint)."""
    game = movement_game()
    game.submit("blue", {"type": "end_phase"})
    game.submit("blue", {"type": "end_phase"})  # combat -> red movement
    return game, game.state.to_json()


def test_undo_goes_back_to_the_state_a_phase_change_left() -> None:
    # The checkpoint a phase change sets is the state it left, serialised only when the next command
    # (or a save) needs it (Game._checkpoint_is_state): the same position either way.
    game, at_phase_change = at_red_movement()
    assert game.to_json()["checkpoint"] == at_phase_change
    move(game, "r1", ["0604", "0704"], side="red")
    assert game.to_json()["checkpoint"] == at_phase_change
    undo(game, "red")
    assert game.state.to_json() == at_phase_change


def test_a_game_saved_at_a_phase_change_keeps_its_checkpoint() -> None:
    game, at_phase_change = at_red_movement()
    loaded = Game.from_json(game.scenario, game.to_json())
    move(loaded, "r1", ["0604", "0704"], side="red")
    undo(loaded, "red")
    assert loaded.state.to_json() == at_phase_change


def test_a_refused_command_after_a_phase_change_leaves_the_checkpoint() -> None:
    game, at_phase_change = at_red_movement()
    with pytest.raises(IllegalCommand):
        move(game, "r1", ["0604", "0904"], side="red")  # not adjacent steps: refused, state untouched
    assert game.state.to_json() == at_phase_change
    move(game, "r1", ["0604", "0704"], side="red")
    undo(game, "red")
    assert game.state.to_json() == at_phase_change


def test_a_referee_result_after_a_phase_change_keeps_the_checkpoint_before_it() -> None:
    game, at_phase_change = at_red_movement()
    game.end_by_referee("blue", "a claimed win on an expired deadline")
    assert game.is_over
    assert game.to_json()["checkpoint"] == at_phase_change
