"""19.8 Austrian hidden movement (seed 002) on hidden_ground.py's ground: blue's boxes A (b-2, b-3; HM-A2 real at
0206, HM-A1 at 0202) and B (b-4; HM-B1 real at 0302, HM-B2 at 0307), a woods screen in column 05 between them and
red's units at 07xx-10xx."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.bots import GreedyBot, belief_game
from server.bots.belief import belief_state_json
from server.rules import Game, filter_events
from server.rules.kernel.state import STATUS_HIDDEN, STATUS_MAP
from server.rules.standard.context import StdCtx
from server.rules.standard.hidden import exposed, sees
from server.rules.standard.hidden_moves import reachable

from .hidden_ground import hidden_data
from .play import end, new_game, refused


def _place(data: dict[str, Any], uid: str, hex_: str) -> None:
    next(p for p in data["setup"] if p["unit"] == uid)["hex"] = hex_


def _deploy_all(game: Game, where: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Answer every 19.8 E placement (at `where[unit]`, else the first hex offered)."""
    events: list[dict[str, Any]] = []
    while game.state.decision is not None and game.state.decision["kind"] == "hm_deploy":
        d = game.state.decision
        uid = d["task"]["unit"]
        hex_ = (where or {}).get(uid, d["options"][0]["id"])
        events += game.submit(d["side"], {"type": "choose", "option": hex_})
    return events


# --- 19.8 A markers and boxes --------------------------------------------------------------------------------------
def test_19_8_A_the_markers_of_a_box_look_alike_to_the_opponent_and_a_spectator() -> None:
    game = new_game(hidden_data())
    for viewer in ("red", "spectator"):
        view = game.view(viewer)
        ms = {m["id"]: m for m in view["hidden"]["markers"]}
        assert sorted(ms) == ["HM-A1", "HM-A2", "HM-B1", "HM-B2"]
        for a, b in (("HM-A1", "HM-A2"), ("HM-B1", "HM-B2")):
            assert {k: v for k, v in ms[a].items() if k not in ("id", "hex")} == \
                   {k: v for k, v in ms[b].items() if k not in ("id", "hex")}
        assert "real" not in json.dumps(view["hidden"])
        assert not {"b-2", "b-3", "b-4"} & set(view["units"])
    mine = {m["id"]: m for m in game.view("blue")["hidden"]["markers"]}
    assert mine["HM-A2"]["real"] and not mine["HM-A1"]["real"] and mine["HM-A1"]["units"] == ["b-2", "b-3"]
    assert game.view("blue")["units"]["b-2"]["status"] == STATUS_HIDDEN


def test_19_8_A_the_scenario_file_keeps_the_boxes_from_the_opponent() -> None:
    from server.rules import scenario_json_for

    game = new_game(hidden_data())
    for viewer in ("red", "spectator"):
        text = json.dumps(scenario_json_for(game.scenario, viewer))
        assert "b-2" not in text and "Hidden" not in text and '"real"' not in text
    assert "b-2" in json.dumps(scenario_json_for(game.scenario, "blue"))


def test_19_8_A_a_scenario_unit_boxed_and_set_up_is_refused() -> None:
    from server.rules import ScenarioError, parse_scenario

    data = hidden_data()
    data["hidden_movement"]["boxes"][0]["units"].append("b-1")
    with pytest.raises(ScenarioError, match="also set up"):
        parse_scenario(data, "t")
    data = hidden_data()
    data["hidden_movement"]["boxes"][0]["real"] = 3
    with pytest.raises(ScenarioError, match="real"):
        parse_scenario(data, "t")


# --- 19.8 C movement --------------------------------------------------------------------------------------------------
def test_19_8_C_a_marker_moves_with_the_infantry_ma() -> None:
    game = new_game(hidden_data())
    ctx = StdCtx.of(game)
    dests = reachable(ctx, "blue", "HM-A2", 4, False)
    assert dests and all(len(p) <= 5 for p in dests.values())
    game.submit("blue", {"type": "hm_move", "marker": "HM-A2", "path": ["0206", "0207", "0208"]})
    assert game.view("red")["hidden"]["markers"][1]["hex"] == "0208"
    e = refused(game, "blue", {"type": "hm_move", "marker": "HM-A2", "path": ["0208", "0207"]})
    assert e.rule == "4.2"  # it has moved this phase
    e = refused(game, "blue", {"type": "hm_move", "marker": "HM-A1",
                               "path": ["0202", "0203", "0303", "0403", "0404", "0405"]})
    assert e.rule == "4.3"


def test_19_8_C_a_marker_never_stacks_with_combat_units_or_markers_but_may_with_an_hq() -> None:
    game = new_game(hidden_data())
    assert refused(game, "blue", {"type": "hm_move", "marker": "HM-A1", "path": ["0202", "0201", "0101"]}).rule == "19.8 C"
    assert refused(game, "blue", {"type": "hm_move", "marker": "HM-A1", "path": ["0202", "0302"]}).rule == "19.8 C"
    game.submit("blue", {"type": "hm_move", "marker": "HM-A1", "path": ["0202", "0203", "0204"]})  # the HQ's hex


def test_19_8_C_own_combat_units_never_enter_a_markers_hex() -> None:
    game = new_game(hidden_data())
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0101", "0201", "0202"]}).rule == "19.8 C"
    assert "0202" not in game.options("blue", ["b-1"]).get("normal", {})


def test_19_8_C_a_marker_never_enters_a_hex_an_enemy_unit_sees() -> None:
    data = hidden_data()
    data["hidden_movement"]["ma"] = 6
    _place(data, "r-1", "0604")
    game = new_game(data)
    ctx = StdCtx.of(game)
    assert exposed(ctx, "0504", "blue") == "0604" and exposed(ctx, "0404", "blue") is None
    e = refused(game, "blue", {"type": "hm_move", "marker": "HM-A1", "path": ["0202", "0303", "0403", "0504"]})
    assert e.rule == "19.8 C" and "sight" in e.message
    assert "0504" not in reachable(ctx, "blue", "HM-A1", 6, False)


def test_19_8_C_with_the_hq_inactive_a_marker_rolls_for_its_ma_and_is_not_revealed_at_will() -> None:
    data = hidden_data()
    next(p for p in data["setup"] if p["unit"] == "b-hq")["inactive"] = True
    game = new_game(data, dice=[3])
    assert refused(game, "blue", {"type": "hm_move", "marker": "HM-A2", "path": ["0206", "0207"]}).rule == "4.4"
    assert refused(game, "blue", {"type": "hm_reveal", "marker": "HM-A2"}).rule == "19.8 C"
    game.submit("blue", {"type": "hm_declare", "marker": "HM-A2"})
    assert game.state.extra["hm_declared"] == {"marker": "HM-A2", "ma": 3, "march": False}
    assert refused(game, "blue", {"type": "hm_move", "marker": "HM-A2",
                                  "path": ["0206", "0207", "0208", "0308", "0408"]}).rule == "4.3"
    game.submit("blue", {"type": "hm_move", "marker": "HM-A2", "path": ["0206", "0207", "0208"]})


def test_19_8_C_the_owner_reveals_at_the_beginning_of_the_phase_with_the_hq_active() -> None:
    game = new_game(hidden_data())
    game.submit("blue", {"type": "hm_reveal", "marker": "HM-A1"})  # the dummy: the box deploys at the real one
    assert game.state.decision is not None and game.state.decision["kind"] == "hm_deploy"
    assert "0206" in game.state.decision["hexes"] and "0202" not in game.state.decision["hexes"]
    _deploy_all(game)
    assert game.state.units["b-2"].status == STATUS_MAP
    assert {game.state.units[u].hex for u in ("b-2", "b-3")} <= {"0106", "0107", "0205", "0206", "0207", "0306"}
    assert [m["id"] for m in game.view("red")["hidden"]["markers"]] == ["HM-B1", "HM-B2"]
    game.submit("blue", {"type": "hm_move", "marker": "HM-B2", "path": ["0307", "0308"]})
    assert refused(game, "blue", {"type": "hm_reveal", "marker": "HM-B1"}).rule == "19.8 C"  # not the beginning


def test_19_8_C_units_recover_and_take_replacements_while_hidden_in_secret() -> None:
    state = new_game(hidden_data()).state
    state.units["b-2"].reduced = True
    state.units["b-3"].disrupted = True
    game = Game.for_test(new_game(hidden_data()).scenario, state)
    events = game.submit("blue", {"type": "replace", "unit": "b-2"})
    assert not game.state.units["b-2"].reduced
    assert filter_events(events, "red") == [] and filter_events(events, "blue")
    undo = game.submit("blue", {"type": "undo"})
    assert game.state.units["b-2"].reduced
    assert "b-2" not in json.dumps(filter_events(undo, "red"))
    events = game.submit("blue", {"type": "recover", "unit": "b-3"})
    assert not game.state.units["b-3"].disrupted
    assert "b-3" not in json.dumps(filter_events(events, "red"))


def test_19_8_C_a_leader_assists_a_recovery_only_from_the_same_box() -> None:
    data = hidden_data()
    data["units"].append({"id": "b-ldr", "side": "blue", "kind": "leader", "name": "Hidden general", "formation": "2",
                          "leader": {"combat": 1, "morale": 2, "movement": 2}})
    data["hidden_movement"]["boxes"][1]["units"].append("b-ldr")
    game = new_game(data)
    game.state.units["b-3"].disrupted = True
    game.state.units["b-4"].disrupted = True
    e = refused(game, "blue", {"type": "recover", "unit": "b-3", "assist": "b-ldr"})
    assert "box" in e.message


# --- 19.8 D involuntary reveal ----------------------------------------------------------------------------------------
def test_19_8_D_an_enemy_move_halts_in_sight_the_box_deploys_then_the_move_goes_on() -> None:
    game = new_game(hidden_data())
    end(game, 2)
    events = game.submit("red", {"type": "move", "units": ["r-1"], "path": ["0704", "0604", "0504", "0404"]})
    assert game.state.units["r-1"].hex == "0504"  # halted where the markers came into sight
    reveal = next(e for e in events if e["type"] == "hm_reveal")
    assert reveal["box"] == "A" and reveal["marker"] == "HM-A2" and reveal["hex"] == "0206"
    assert game.awaiting == "blue" and game.state.decision["kind"] == "hm_deploy"
    _deploy_all(game, {"b-2": "0106", "b-3": "0106", "b-4": "0201"})
    assert game.state.extra["hidden"]["markers"] == {}
    assert game.awaiting == "red" and game.state.extra["declared"]["ma"] == 1
    game.submit("red", {"type": "move", "units": ["r-1"], "path": ["0504", "0404"]})  # the MP left
    assert game.state.units["r-1"].hex == "0404"


def test_19_8_D_a_marker_is_revealed_when_the_rain_clears() -> None:
    data = hidden_data()
    data["map"]["hexes"] = {}
    for uid, h in (("r-1", "1003"), ("r-hq", "1005")):
        _place(data, uid, h)
    data["weather"] = {"start": "heavy", "forced": {"2": "clear"}}
    game = new_game(data)
    assert len(game.state.extra["hidden"]["markers"]) == 4  # beyond Heavy Rain's 4 hexes
    end(game, 4)  # blue's movement and combat, red's movement and combat: the Game Turn marker phase clears it
    assert game.state.turn == 2
    assert game.state.extra["hidden"]["revealed"] == ["A"] and game.state.decision["kind"] == "hm_deploy"


def test_19_8_D_an_adjacent_hex_is_always_in_sight_S55() -> None:
    data = hidden_data()
    data["trt"][0]["light"] = "night"
    game = new_game(data)
    ctx = StdCtx.of(game)
    assert sees(ctx, "0504", "0404") and not sees(ctx, "0604", "0404")


# --- 19.8 E deployment -------------------------------------------------------------------------------------------------
def test_19_8_E_a_unit_deployed_in_or_beside_an_ezoc_checks_morale_and_a_failure_disrupts() -> None:
    game = new_game(hidden_data())
    end(game, 2)
    game.submit("red", {"type": "move", "units": ["r-1"], "path": ["0704", "0604", "0504"]})
    from .play import load

    load(game, [6])  # b-4's morale check fails (MR 4)
    events = _deploy_all(game, {"b-2": "0106", "b-3": "0106", "b-4": "0402"})
    assert game.state.units["b-4"].hex == "0402" and game.state.units["b-4"].disrupted
    assert not game.state.units["b-2"].disrupted
    assert [e["unit"] for e in events if e["type"] == "morale"] == ["b-4"]


# --- bots: the opponent's choices do not depend on which marker is real ------------------------------------------------
def test_19_8_A_the_opponents_bot_cannot_tell_the_real_marker() -> None:
    games = [new_game(hidden_data(real_a=r, real_b=3 - r)) for r in (1, 2)]
    for g in games:
        end(g, 2)
    beliefs = [belief_state_json(g, "red")[0] for g in games]
    assert beliefs[0] == beliefs[1]
    picks = [GreedyBot().choose(belief_game(g, "red", random.Random(5)), "red", random.Random(5), 0.5) for g in games]
    assert picks[0] == picks[1]
