"""Victory (3.4 and the scenario's victory rules): objective control, points, draw margin, sudden death, resign."""

from __future__ import annotations

import pytest
from position import Position, unit

from server.rules import IllegalCommand


def end(game, side):
    return game.submit(side, {"type": "end_phase"})


def test_3_4_an_objective_belongs_to_the_last_side_to_occupy_it() -> None:
    pos = Position()
    pos.objective("0605", 3, owner="red")
    pos.unit("b1", "blue", hex="0405")
    pos.unit("r1", "red", hex="0908")
    game = pos.game()
    assert game.state.control["0605"] == "red"
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0405", "0505", "0605"]})
    assert game.state.control["0605"] == "blue"
    game.state.units["b1"].moved = False
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0605", "0705"]})
    assert game.state.control["0605"] == "blue"  # still blue after leaving


def test_3_4_a_leader_alone_does_not_take_an_objective() -> None:
    pos = Position()
    pos.objective("0605", 3, owner="red")
    pos.leader("bl", "blue", hex="0405")
    pos.unit("b1", "blue", hex="0101")
    pos.unit("r1", "red", hex="0908")
    game = pos.game()
    game.submit("blue", {"type": "move", "units": ["bl"], "path": ["0405", "0505", "0605"]})
    assert game.state.control["0605"] == "red"


def test_3_4_points_for_objectives_steps_captures_and_leaders() -> None:
    pos = Position()
    pos.objective("0605", 3, owner="blue")
    pos.objective("0205", 2, owner="blue", scorer="red")  # only red scores it
    pos.objective("0805", 4, owner="red", scorer="red")
    pos.unit("b1", "blue", hex="0101")
    pos.unit("b2", "blue", hex="0102")
    pos.unit("b3", "blue", hex="0103", reduced=True)
    pos.unit("bn", "blue", "battalion", hex="0104")
    pos.leader("bl", "blue", hex="0101")
    pos.leader("bl2", "blue", hex="0101")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    st = game.state.units
    st["b1"].status, st["b1"].hex = "eliminated", None  # 2 steps
    st["b2"].status, st["b2"].hex = "captured", None    # unit captured: 2
    st["bn"].status, st["bn"].hex = "dead", None        # 1 step
    st["bl"].status, st["bl"].hex = "dead", None        # leader eliminated: 2
    st["bl2"].status, st["bl2"].hex = "captured", None  # leader captured: 3
    pts = game.view("red")["points"]
    # blue: objective 0605 (3); 0205 scores only for red, so nothing.  red: 4 + 2 + 2 + 1 + 1 (b3 reduced) + 2 + 3
    assert pts == {"blue": 3, "red": 15}


def test_3_4_the_scenario_point_values_are_used() -> None:
    pos = Position()
    pos.victory_points = {"step_eliminated": 3, "unit_captured": 5, "leader_eliminated": 7, "leader_captured": 11}
    pos.unit("bn", "blue", "battalion", hex="0101")
    pos.unit("b2", "blue", hex="0102")
    pos.leader("bl", "blue", hex="0101")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    st = game.state.units
    st["bn"].status = "eliminated"
    st["b2"].status = "captured"
    st["bl"].status = "captured"
    assert game.view("red")["points"]["red"] == 3 + 5 + 11


def last_turn_game(draw_margin=1, blue_points=0, red_points=0):
    pos = Position(turns=1)
    pos.draw_margin = draw_margin
    if blue_points:
        pos.objective("0505", blue_points, owner="blue")
    if red_points:
        pos.objective("0805", red_points, owner="red")
    pos.unit("b1", "blue", hex="0101")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="combat", active="red")
    return game


@pytest.mark.parametrize("margin,blue,red,winner", [
    (1, 3, 2, "blue"), (1, 2, 2, None), (2, 3, 2, None), (2, 4, 2, "blue"), (3, 0, 3, "red"), (4, 0, 3, None),
])
def test_3_4_the_draw_margin(margin, blue, red, winner) -> None:
    game = last_turn_game(margin, blue, red)
    end(game, "red")
    assert game.is_over and game.state.phase == "over"
    assert game.result["winner"] == winner
    assert game.result["points"] == {"blue": blue, "red": red}
    assert game.awaiting is None


def test_3_4_the_game_ends_only_after_the_last_turn() -> None:
    pos = Position(turns=2)
    pos.unit("b1", "blue", hex="0101")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="combat", active="red")
    end(game, "red")
    assert not game.is_over and game.state.turn == 2
    assert (game.state.phase, game.state.active) == ("movement", "blue")


def test_3_4_sudden_death_at_the_end_of_a_turn() -> None:
    pos = Position(turns=5)
    pos.objective("0505", 1, owner="red")
    pos.objective("0506", 1, owner="red")
    pos.sudden_death = [{"side": "blue", "hexes": ["0505", "0506"]}]
    pos.unit("b1", "blue", hex="0505")
    pos.unit("b2", "blue", hex="0506")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="combat", active="red")
    # control updates when the engine next runs: any command will do
    end(game, "red")
    assert game.is_over and game.result["winner"] == "blue" and game.result["turn"] == 1


def test_3_4_no_sudden_death_without_every_hex() -> None:
    pos = Position(turns=5)
    pos.objective("0505", 1, owner="red")
    pos.objective("0506", 1, owner="red")
    pos.sudden_death = [{"side": "blue", "hexes": ["0505", "0506"]}]
    pos.unit("b1", "blue", hex="0505")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="combat", active="red")
    end(game, "red")
    assert not game.is_over


def test_3_4_resigning_gives_the_opponent_the_win() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0101")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    game.submit("red", {"type": "resign"})  # either side may resign at any time
    assert game.is_over and game.result["winner"] == "blue" and game.result["resigned"] == "red"
    with pytest.raises(IllegalCommand):
        game.submit("blue", {"type": "end_phase"})
    with pytest.raises(IllegalCommand):
        game.submit("blue", {"type": "resign"})
    assert game.view("red")["seed"] == "test-seed-not-secret"


def test_3_4_an_objective_taken_by_the_last_advance_of_the_game_counts() -> None:
    # last turn, red's combat phase: blue counterattacks r1 off the objective and advances into it;
    # that same command ends the turn and the game
    pos = Position(turns=1)
    pos.objective("0604", 5, owner="red")
    pos.unit("b1", "blue", hex="0504", attack=5, mr=4)
    pos.unit("r1", "red", hex="0604", defense=4, mr=4)
    game = pos.game(phase="combat", active="red", dice=[4, 6])
    end(game, "red")
    game.submit("blue", {"type": "choose", "option": "0504>0604|b1"})  # 10 vs 4: Dr, red fails
    game.submit("red", {"type": "choose", "option": "0704"})
    game.submit("blue", {"type": "choose", "option": "0604"})
    assert unit(game, "b1").hex == "0604"
    assert game.is_over
    assert game.result["points"] == {"blue": 5, "red": 0} and game.result["winner"] == "blue"
