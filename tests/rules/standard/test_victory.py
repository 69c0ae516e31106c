"""Victory in the Standard rules (seed 002 3.1, 18.1-18.3; rulings S19, S68, S69): the scenario's decisive conditions,
its instant conditions at the end of each turn, and 18.3's victory points with the threshold draw."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, ScenarioError
from server.rules.kernel import victory as kernel_victory
from server.rules.standard.context import StdCtx
from server.rules.standard.scenario import parse_standard_scenario

from .builder import standard_data, unit
from .fight import ARTILLERY, LEADER
from .play import end, new_game, submit

PTS = {"destroyed": 1, "leader_casualty": 1, "captured": 2, "hq_captured": 4, "threshold": 10}
LAST_PHASES = 16  # 4 turns of four phases: the game is over after the last


def ground(**victory: Any) -> dict[str, Any]:
    data = standard_data()
    data["victory"] = {"description": "18.0", **victory}
    return data


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    return e.value.problems


def status(game: Game, uid: str, what: str) -> None:
    s = game.state.units[uid]
    s.status, s.hex = what, None


def result(game: Game) -> dict[str, Any]:
    assert game.is_over
    assert game.result is not None
    return game.result


# --- 18.3 victory points ---------------------------------------------------------------------------------------------
def losses_game() -> Game:
    data = ground(casualty_points=PTS)
    for i in range(2, 6):
        unit(data, f"r-{i}", f"090{i}", side="red", kind="infantry", formation="7",
             full={"cf": 5, "mr": 4, "ma": 4}, reduced={"cf": 3, "mr": 3, "ma": 4})
    unit(data, "r-ldr", "0704", side="red", formation="7", **LEADER)
    unit(data, "r-ldr2", "0704", side="red", formation="7", **LEADER)
    return new_game(data)


def test_18_3_points_for_destroyed_units_leader_casualties_captures_and_the_hq() -> None:
    game = losses_game()
    status(game, "r-1", "dead")  # 11.2: failed the extra check: destroyed (1)
    status(game, "r-2", "captured")  # 7.9 (2)
    status(game, "r-ldr", "dead")  # 10.3 (1)
    status(game, "r-ldr2", "captured")  # 10.1 (2)
    status(game, "r-hq", "captured")  # 12.1 (4)
    status(game, "r-tr", "captured")  # 12.2: a unit captured (2)
    ctx = StdCtx.of(game)
    assert game.ruleset.points(ctx) == {"blue": 12, "red": 0}
    lines = game.view("blue")["standard"]["victory"]["breakdown"]["blue"]
    assert lines["destroyed"] == {"count": 1, "points": 1}
    assert lines["leader_casualty"] == {"count": 1, "points": 1}
    assert lines["captured"] == {"count": 1, "points": 2}
    assert lines["leader_captured"] == {"count": 1, "points": 2}
    assert lines["hq_captured"] == {"count": 1, "points": 4}
    assert lines["trains_captured"] == {"count": 1, "points": 2}


def test_18_3_eliminated_steps_eliminated_units_and_the_trt_score_nothing() -> None:
    game = losses_game()
    game.state.units["r-1"].reduced = True  # a step lost on the map
    status(game, "r-2", "eliminated")  # may still recover (11.2)
    status(game, "r-3", "returning")  # routed to the TRT (7.10) or replaced
    game.state.units["r-3"].entry_turn = 3
    status(game, "r-4", "removed")  # set aside off the map (S18)
    assert game.ruleset.points(StdCtx.of(game)) == {"blue": 0, "red": 0}


def test_18_3_the_greater_total_wins_at_or_over_the_threshold() -> None:
    game = losses_game()
    status(game, "r-hq", "captured")
    status(game, "r-2", "captured")
    status(game, "r-3", "captured")
    status(game, "r-4", "captured")  # 4 + 2 + 2 + 2 = 10
    end(game, LAST_PHASES)
    r = result(game)
    assert (r["winner"], r["points"], r["decided_by"]) == ("blue", {"blue": 10, "red": 0}, "points")
    assert r["breakdown"]["blue"]["captured"] == {"count": 3, "points": 6}


def test_18_3_a_winner_under_the_threshold_draws() -> None:
    game = losses_game()
    status(game, "r-hq", "captured")
    status(game, "r-2", "captured")
    status(game, "r-3", "captured")  # 8: the lead, but under 10
    end(game, LAST_PHASES)
    r = result(game)
    assert r["winner"] is None
    assert "fewer than 10" in r["reason"]
    assert r["reason"].startswith("18.3")


def test_s19_without_casualty_points_the_kernel_schedule_counts() -> None:
    data = standard_data()
    game = new_game(data)
    game.state.units["r-1"].reduced = True
    ctx = StdCtx.of(game)
    assert game.ruleset.points(ctx) == kernel_victory.points(ctx, returning_lost=False)
    assert "victory" not in game.view("blue")["standard"]
    assert "entered" not in game.state.extra


# --- 18.1, 18.2 conditions ------------------------------------------------------------------------------------------
BLUE_ENTERS = {"side": "blue", "rule": "18.1", "when": {"last_to_enter": {"hex": "0504"}}}


def test_18_1_last_to_enter_follows_the_units_that_enter_the_hex_moving_through_it_included() -> None:
    game = new_game(ground(conditions=[BLUE_ENTERS]))
    assert game.state.extra["entered"] == {}
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504"]})
    assert game.state.extra["entered"] == {"0504": "blue"}
    view = game.view("red")["standard"]["victory"]["conditions"][0]
    assert view["held"] and view["tests"][0]["text"] == "Last to enter 0504: Blue"
    end(game, 4)  # turn 2: blue leaves, red enters
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0504", "0404"]})
    end(game, 2)
    submit(game, "red", {"type": "move", "units": ["r-1"], "path": ["0704", "0604", "0504"]})
    assert game.state.extra["entered"] == {"0504": "red"}
    view = game.view("blue")["standard"]["victory"]["conditions"][0]
    assert not view["held"] and view["tests"][0]["text"] == "Last to enter 0504: Red"


def test_18_1_a_hex_moved_through_counts_as_entered() -> None:
    data = ground(conditions=[{"side": "red", "when": {"last_to_enter": {"hex": "0504"}}}])
    game = new_game(data)
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504", "0503"]})
    assert game.state.extra["entered"] == {"0504": "blue"}
    end(game, LAST_PHASES)
    r = result(game)
    assert (r["winner"], r["decided_by"]) == (None, "points")  # blue was the last to enter: red's 18.1 fails


def test_18_1_a_unit_set_up_in_the_hex_entered_it() -> None:
    data = ground(conditions=[{"side": "red", "when": {"last_to_enter": {"hex": "0704"}}}])
    assert new_game(data).state.extra["entered"] == {"0704": "red"}


def test_18_1_artillery_in_range_ignores_darkness() -> None:
    data = ground(conditions=[{"side": "blue", "when": {"artillery_in_range": {"hex": "0804"}}}])
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)  # range 3: 0804 is three hexes away
    game = new_game(data)
    assert game.view("blue")["standard"]["victory"]["conditions"][0]["held"]
    end(game, LAST_PHASES)  # the last turn is a night turn (14.2: no line of sight), 18.1 ignores it
    assert result(game)["winner"] == "blue"


def test_18_1_artillery_out_of_range_or_ineffective_with_a_shorter_range() -> None:
    data = ground(conditions=[{"side": "blue", "when": {"artillery_in_range": {"hex": "0804"}}}])
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    data["setup"] = [dict(s, ineffective=True) if s["unit"] == "b-art" else s for s in data["setup"]]  # range 2
    game = new_game(data)
    held = game.view("blue")["standard"]["victory"]["conditions"][0]
    assert not held["held"]
    assert held["tests"][0]["text"].endswith("none")


def test_18_1_artillery_in_range_with_los_needs_a_clear_line() -> None:
    data = ground(conditions=[{"side": "blue", "when": {"artillery_in_range": {"hex": "0804", "los": True}}}])
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    data["map"]["hexes"]["0704"] = "woods"
    data["setup"] = [dict(s, hex="0703") if s["unit"] == "r-1" else s for s in data["setup"]]
    game = new_game(data)
    assert not game.view("blue")["standard"]["victory"]["conditions"][0]["held"]


RED_HOLDS = {"side": "red", "rule": "18.2",
             "when": {"all": [{"enemy_not_won": {}}, {"trains_unmoved": {}}, {"no_enemy_in": {"hexes": ["0604"]}}]}}


def test_18_2_the_trains_unmoved_and_no_enemy_in_the_hexes() -> None:
    game = new_game(ground(conditions=[RED_HOLDS]))
    texts = [t["text"] for t in game.view("red")["standard"]["victory"]["conditions"][0]["tests"]]
    assert texts == ["Blue has not won", "Red trains unmoved and unattacked: yes", "No Blue unit in 0604: yes"]
    end(game, LAST_PHASES)
    r = result(game)
    assert r["winner"] == "red"
    assert r["reason"] == ("18.2: Red wins at the end of the battle: (the other side has not won and trains never "
                           "moved nor attacked and no enemy unit in 0604)")


def test_18_2_an_enemy_unit_in_the_hexes_denies_it() -> None:
    game = new_game(ground(conditions=[RED_HOLDS]))
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504", "0604"]})
    test = game.view("red")["standard"]["victory"]["conditions"][0]["tests"][2]
    assert test == {"test": "no_enemy_in", "held": False, "text": "No Blue unit in 0604: no (0604)"}


def test_18_2_no_enemy_in_a_terrain_or_beside_a_hexside_feature() -> None:
    data = ground(conditions=[{"side": "red", "when": {"any": [{"no_enemy_in": {"terrain": ["hill"]}}]}},
                              {"side": "red", "when": {"no_enemy_in": {"hexside": ["stream"]}}}])
    data["map"]["hexes"]["0404"] = "hill"
    data["map"]["hexsides"].append({"hexes": ["0404", "0504"], "features": ["stream"]})
    game = new_game(data)
    judged = game.view("red")["standard"]["victory"]["conditions"]
    assert [j["held"] for j in judged] == [False, False]
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403", "0303"]})
    judged = game.view("red")["standard"]["victory"]["conditions"]
    assert [j["held"] for j in judged] == [True, True]


def test_18_2_trains_that_moved_are_not_unmoved() -> None:
    data = ground(conditions=[{"side": "blue", "when": {"trains_unmoved": {}}}])
    game = new_game(data)
    submit(game, "blue", {"type": "flip", "unit": "b-tr"})
    assert game.state.extra["trains_disturbed"] == []  # flipped, not yet moved
    submit(game, "blue", {"type": "move", "units": ["b-tr"], "path": ["0104", "0103"]})
    assert game.state.extra["trains_disturbed"] == ["b-tr"]
    assert not game.view("blue")["standard"]["victory"]["conditions"][0]["held"]


def test_18_2_trains_that_were_attacked_are_not_unmoved() -> None:
    data = ground(conditions=[{"side": "red", "when": {"trains_unmoved": {}}}])
    where = {"b-1": "1005", "r-1": "0703", "r-hq": "0903"}  # the red trains alone at 1004, next to b-1
    data["setup"] = [dict(s, hex=where.get(s["unit"], s["hex"])) for s in data["setup"]]
    game = new_game(data, dice=[3] * 40)
    assert game.state.extra["trains_disturbed"] == []
    end(game)  # blue's combat phase
    game.submit("blue", {"type": "attack", "target": "1004", "attackers": ["b-1"], "primary": "b-1"})
    assert "r-tr" in game.state.extra["trains_disturbed"]


def test_18_2_the_other_side_has_not_won_comes_first() -> None:
    red = {"side": "red", "when": {"all": [{"enemy_not_won": {}}, {"trains_unmoved": {}}]}}
    blue = {"side": "blue", "when": {"trains_unmoved": {}}}
    game = new_game(ground(conditions=[red, blue]))  # listed first, red still waits on blue
    judged = game.view("red")["standard"]["victory"]["conditions"]
    assert [j["held"] for j in judged] == [False, True]
    end(game, LAST_PHASES)
    assert result(game)["winner"] == "blue"
    assert [c["held"] for c in result(game)["conditions"]] == [False, True]


def test_18_0_a_decisive_condition_beats_points() -> None:
    data = ground(casualty_points=PTS, conditions=[{"side": "red", "when": {"trains_unmoved": {}}}])
    game = new_game(data)
    status(game, "r-hq", "captured")
    status(game, "r-1", "captured")
    assert game.ruleset.points(StdCtx.of(game)) == {"blue": 6, "red": 0}
    end(game, LAST_PHASES)
    r = result(game)
    assert (r["winner"], r["decided_by"]) == ("red", "condition")
    assert r["points"] == {"blue": 6, "red": 0}
    assert r["breakdown"]["blue"]["hq_captured"] == {"count": 1, "points": 4}


def test_3_2_an_instant_condition_wins_at_the_end_of_the_turn() -> None:
    data = ground(instant=[{"side": "blue", "rule": "18.1", "text": "Blue holds the crossroads",
                            "when": {"last_to_enter": {"hex": "0504"}}}])
    game = new_game(data)
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504"]})
    end(game, 3)
    assert not game.is_over  # red's combat phase: the turn has not ended
    end(game)
    r = result(game)
    assert (r["winner"], r["turn"]) == ("blue", 1)
    assert r["reason"] == "18.1: Blue wins at the end of turn 1: Blue holds the crossroads"
    assert r["conditions"][0]["held"]


def test_3_2_an_instant_condition_not_met_lets_the_game_go_on() -> None:
    game = new_game(ground(instant=[{"side": "blue", "when": {"last_to_enter": {"hex": "0504"}}}]))
    end(game, 4)
    assert not game.is_over and game.state.turn == 2


# --- the scenario's data -----------------------------------------------------------------------------------------------
def test_18_0_a_misspelt_field_is_named_by_its_path() -> None:
    data = ground(conditions=[{"side": "red", "when": {"all": [{"enemy_not_won": {}}, {"trains_unmovd": {}}]}}])
    assert problems(data) == [("victory.conditions[0].when.all[1].trains_unmovd",
                               "'trains_unmovd' is not a victory test; did you mean 'trains_unmoved'?")]
    data = ground(conditons=[])
    assert problems(data)[0][0] == "victory.conditons"
    assert "did you mean 'conditions'" in problems(data)[0][1]
    data = ground(casualty_points={"destroy": 1})
    assert problems(data)[0][0] == "victory.casualty_points.destroy"
    data = ground(instant=[{"side": "blue", "when": {"last_to_enter": {"hexx": "0504"}}}])
    assert problems(data)[0][0] == "victory.instant[0].when.last_to_enter.hexx"


def test_18_0_a_hex_side_terrain_or_army_the_scenario_lacks_is_named() -> None:
    data = ground(conditions=[
        {"side": "green", "when": {"last_to_enter": {"hex": "0504"}}},
        {"side": "blue", "when": {"any": [{"artillery_in_range": {"hex": "9999"}},
                                          {"no_enemy_in": {"terrain": ["fieldworks"]}}]}},
        {"side": "blue", "when": {"trains_unmoved": {"army": "prussia"}}},
    ])
    got = dict(problems(data))
    assert "victory.conditions[0].side" in got
    assert "victory.conditions[1].when.any[0].artillery_in_range.hex" in got
    assert got["victory.conditions[1].when.any[1].no_enemy_in.terrain[0]"] == "'fieldworks' is not in tec.terrain"
    assert "victory.conditions[2].when.trains_unmoved.army" in got


def test_18_0_both_sides_waiting_on_each_other_and_two_point_schedules_are_refused() -> None:
    wait = {"all": [{"enemy_not_won": {}}, {"trains_unmoved": {}}]}
    data = ground(conditions=[{"side": "red", "when": wait}, {"side": "blue", "when": wait}])
    assert problems(data)[0][0] == "victory.conditions"
    data = ground(casualty_points=PTS, points={"step_eliminated": 1})
    assert problems(data)[0][0] == "victory.points"


def test_18_3_captured_leaders_and_trains_default_to_the_unit_value() -> None:
    sc = parse_standard_scenario(ground(casualty_points={"captured": 3}), "t")
    pts = sc.victory_rules.points
    assert pts is not None
    assert (pts.captured, pts.leader_captured, pts.trains_captured, pts.hq_captured, pts.threshold) == (3, 3, 3, 4, 10)


# --- the bots read the scenario's victory (server/bots/evaluate.py through the edition's hooks) -----------------------
def test_18_0_the_bots_play_toward_the_conditions_hexes_and_count_18_3_points() -> None:
    from server.bots.evaluate import evaluate, loss_points

    data = ground(casualty_points=PTS, conditions=[BLUE_ENTERS, RED_HOLDS])
    game = new_game(data)
    objectives = {(o.hex, o.scorer) for o in game.ruleset.bot_objectives(game.scenario)}
    assert objectives == {("0504", "blue"), ("0604", "blue")}  # 0604: red's denial, blue scores it
    before = evaluate(game, "blue")
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504"]})
    assert game.ruleset.bot_control(game)["0504"] == "blue"
    assert evaluate(game, "blue") > before
    status(game, "r-hq", "captured")
    assert loss_points(game) == {"blue": 4, "red": 0}
