"""17.1-17.3 the set-up phase: areas of every kind (17.2), leaders with their command span, the count limit of a
hex, the shortcut 'as printed', stacking at the end (5.2), secrecy until the side has finished, and the free set-up
chosen when the game is created (17.3); the scenario format of areas (setupground.py's scenario)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.rules import Game, IllegalCommand, parse_scenario, verify_record
from server.rules.kernel.randomplayer import SimulationReport, play_random_game
from server.rules.kernel.scenario import ScenarioError
from server.rules.kernel.visibility import filter_events

from .play import refused
from .setupground import setup_data

SEED = "standard-setup-seed-0000"


def new(data: dict[str, Any] | None = None, **options: Any) -> Game:
    return Game.new(parse_scenario(data or setup_data(), "test"), SEED, options=options or None)


def entry(data: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(s for s in data["setup"] if s["unit"] == uid)


def place(game: Game, uid: str, hex_: str) -> list[dict[str, Any]]:
    return game.submit("red", {"type": "place", "unit": uid, "hex": hex_})


def placed_all(game: Game) -> None:
    game.submit("red", {"type": "place_printed"})


# --- 17.1 the set-up phase ------------------------------------------------------------------------------------------------
def test_17_1_the_game_starts_with_the_set_up_of_the_side_with_areas():
    game = new()
    assert (game.state.phase, game.state.active) == ("setup", "red")
    assert game.state.units["r-1"].hex is None and game.state.units["r-1"].status == "unplaced"
    assert game.state.units["b-1"].hex == "0404"  # blue sets up as printed
    assert game.view("blue")["prompt"]["rule"] == "17.1"
    assert refused(game, "blue", {"type": "end_phase"}).rule == "3.3"  # not blue's turn to act


def test_17_1_after_the_set_up_the_first_player_moves():
    game = new()
    placed_all(game)
    game.submit("red", {"type": "end_phase"})
    assert (game.state.phase, game.state.active, game.state.turn) == ("movement", "blue", 1)


def test_17_1_a_scenario_without_areas_starts_with_movement():
    data = setup_data()
    data["setup"] = [{k: v for k, v in s.items() if k != "area"} for s in data["setup"]]
    del data["setup_areas"], data["free_setup"]
    assert new(data).state.phase == "movement"


# --- 17.2 each area kind ------------------------------------------------------------------------------------------------
def test_17_2_within_n_hexes_of_a_hex():
    game = new()
    place(game, "r-cav", "0904")
    e = refused(game, "red", {"type": "place", "unit": "r-cav", "hex": "0705"})
    assert e.rule == "17.2"
    assert e.message == "VIII Corps sets up within 1 hex of 0905 (17.2); 0705 is 2 away"


def test_17_2_an_explicit_list_of_hexes():
    game = new()
    place(game, "r-art", "1003")
    e = refused(game, "red", {"type": "place", "unit": "r-art", "hex": "0904"})
    assert "in 0902, 0903 or 1003 (17.2); 0904 is not one of" in e.message


def test_17_2_columns_rows_and_a_side_of_a_line():
    game = new()
    place(game, "r-sq", "1008")
    assert "0806 is in column 08xx" in refused(game, "red", {"type": "place", "unit": "r-sq", "hex": "0806"}).message
    assert "0905 is in row xx05" in refused(game, "red", {"type": "place", "unit": "r-sq", "hex": "0905"}).message


def test_17_2_side_of_a_hexside_line_is_a_flood_fill_bounded_by_it():
    data = setup_data()
    entry(data, "r-sq")["area"] = {"side_of": {"from": "0904", "features": ["river"]}}
    game = new(data)
    place(game, "r-sq", "0701")
    e = refused(game, "red", {"type": "place", "unit": "r-sq", "hex": "0604"})
    assert e.message.endswith("0604 is across the River")


def test_17_2_on_or_adjacent_to_a_hexside_feature():
    game = new()
    place(game, "r-bn", "0907")  # next to 0807, which has the stream hexside
    place(game, "r-bn", "0808")  # on it
    e = refused(game, "red", {"type": "place", "unit": "r-bn", "hex": "0904"})
    assert "on or adjacent to a hex with a Stream hexside (17.2); 0904 is neither on nor adjacent to one" in e.message


def test_17_2_a_terrain_area():
    data = setup_data()
    entry(data, "r-art")["area"] = {"terrain": ["village"]}
    entry(data, "r-art")["hex"] = "0902"
    game = new(data)
    place(game, "r-art", "0902")
    assert "on Village (17.2); 0903 is Clear" in refused(game, "red", {"type": "place", "unit": "r-art",
                                                                       "hex": "0903"}).message


def test_17_2_any_two_infantry_units_in_a_hex_is_a_count_limit_by_kind():
    game = new()
    place(game, "r-1", "1002")
    e = refused(game, "red", {"type": "place", "unit": "r-2", "hex": "1002"})
    assert e.message == ("VII Corps may set up only in 1002 (infantry only, at most 1 unit) (17.2); 7th Brigade "
                         "already is there")
    e = refused(game, "red", {"type": "place", "unit": "r-art", "hex": "1002"})
    assert "1002 is not one of" in e.message  # r-art has its own area
    place(game, "r-1", "0805")  # r-1 leaves 1002: r-2 may take it
    place(game, "r-2", "1002")


def test_17_2_the_count_limit_admits_only_its_kinds():
    data = setup_data()
    entry(data, "r-art")["area"] = "f7"
    entry(data, "r-art")["hex"] = "0804"
    game = new(data)
    e = refused(game, "red", {"type": "place", "unit": "r-art", "hex": "1002"})
    assert "1002 takes only infantry units" in e.message


def test_17_2_prohibited_terrain_still_applies():
    data = setup_data()
    data["map"]["hexes"]["1005"] = "marsh"
    game = new(data)
    e = refused(game, "red", {"type": "place", "unit": "r-cav", "hex": "1005"})
    assert e.rule == "4.5" and "prohibited" in e.message


def test_17_2_leaders_set_up_stacked_with_a_unit_in_their_command_span():
    game = new()
    e = refused(game, "red", {"type": "place", "unit": "r-ldr", "hex": "0805"})
    assert e.message == "General Rot sets up stacked with a unit in his command span (17.2); 0805 holds none"
    place(game, "r-cav", "0905")  # VIII Corps: not in his span
    assert "holds none" in refused(game, "red", {"type": "place", "unit": "r-ldr", "hex": "0905"}).message
    place(game, "r-1", "0805")
    place(game, "r-ldr", "0805")
    place(game, "r-1", "0804")  # the leader is left alone: the set-up may not end so
    placed_all(game)
    e = refused(game, "red", {"type": "end_phase"})
    assert e.rule == "17.2" and "General Rot must be stacked with a unit in his command span" in e.message
    place(game, "r-ldr", "0804")
    game.submit("red", {"type": "end_phase"})


def test_17_2_a_unit_is_placed_again_until_the_side_ends_its_set_up():
    game = new()
    place(game, "r-1", "0805")
    place(game, "r-1", "0806")
    assert game.state.units["r-1"].hex == "0806"
    assert "already in 0806" in refused(game, "red", {"type": "place", "unit": "r-1", "hex": "0806"}).message
    assert refused(game, "red", {"type": "place", "unit": "b-1", "hex": "0806"}).rule == "17.2"


def test_17_2_place_the_rest_as_printed():
    game = new()
    place(game, "r-1", "0804")
    placed_all(game)
    u = game.state.units
    assert (u["r-1"].hex, u["r-2"].hex, u["r-art"].hex, u["r-cav"].hex) == ("0804", "0806", "0903", "0905")
    assert u["r-ldr"].status == "unplaced"  # his printed 0805 holds no unit of his span now (r-1 left it)
    place(game, "r-ldr", "0804")
    assert refused(game, "red", {"type": "place_printed"}).rule == "17.2"  # nothing left to place


def test_17_2_every_unit_must_be_placed_before_the_set_up_ends():
    game = new()
    place(game, "r-1", "0805")
    e = refused(game, "red", {"type": "end_phase"})
    assert e.rule == "17.2" and "not placed yet" in e.message


def test_5_2_stacking_limits_apply_at_the_end_of_the_set_up():
    game = new()
    placed_all(game)
    for uid in ("r-1", "r-2", "r-cav"):
        place(game, uid, "0904")  # three units count (5.2): red's HQ there does not
    place(game, "r-ldr", "0904")
    game.submit("red", {"type": "end_phase"})
    assert game.state.phase == "movement"


def test_5_2_an_overstacked_hex_refuses_the_end_of_the_set_up():
    data = setup_data()
    for s in data["setup"]:
        if s["unit"] in ("r-cav", "r-art"):
            s["area"] = "f7"
            s["hex"] = "0806"
    game = new(data)
    placed_all(game)
    for uid in ("r-1", "r-2", "r-cav", "r-art"):  # four that count (5.2: battalions would not)
        place(game, uid, "0804")
    e = refused(game, "red", {"type": "end_phase"})
    assert e.rule == "5.2" and "0804" in e.message


# --- secrecy until the side has finished ---------------------------------------------------------------------------
def test_17_2_placements_are_secret_until_the_side_has_set_up():
    game = new()
    events = place(game, "r-1", "0804")
    assert all(e.get("visible_to") == "red" for e in events if e["type"] == "place")
    assert not [e for e in filter_events(events, "blue") if e["type"] == "place"]
    seen = game.view("blue")["units"]["r-1"]
    assert seen["hex"] is None and seen["status"] == "unplaced" and seen["placement_hidden"]
    assert game.view("red")["units"]["r-1"]["hex"] == "0804"
    undo = game.undo("red")
    assert not any("0804" in e.get("text", "") for e in filter_events(undo, "blue"))
    placed_all(game)
    assert game.view("blue")["units"]["r-1"]["hex"] is None
    out = game.submit("red", {"type": "end_phase"})
    reveal = next(e for e in out if e["type"] == "reveal")
    assert "visible_to" not in reveal and "r-1" not in reveal["text"] and "0805" in reveal["text"]
    assert game.view("blue")["units"]["r-1"]["hex"] == "0805"


# --- 17.3 the free set-up -------------------------------------------------------------------------------------------------
def test_17_3_free_set_up_is_a_game_option_the_scenario_offers():
    sc = parse_scenario(setup_data(), "test")
    assert set(Game.new(sc, SEED).ruleset.game_options(sc)) == {"free_setup"}
    data = setup_data()
    del data["free_setup"]
    with pytest.raises(ValueError, match="offers no game option 'free_setup'"):
        new(data, free_setup=True)
    with pytest.raises(ValueError, match="yes/no"):
        new(free_setup="yes")


def test_17_3_every_unit_of_the_side_sets_up_in_the_free_area_except_the_pinned():
    game = new(free_setup=True)
    u = game.state.units
    assert u["r-hq"].status == "unplaced" and u["r-1"].status == "unplaced"
    assert (u["r-tr"].hex, u["r-tr"].status) == ("1004", "map")  # pinned like the trains in 2722
    assert game.view("red")["options"] == {"free_setup": True}
    place(game, "r-1", "0701")  # far from its 17.2 area
    place(game, "r-ldr", "0708")  # a leader anywhere: 17.2's span does not bind the free set-up
    e = refused(game, "red", {"type": "place", "unit": "r-2", "hex": "0707"})
    assert e.rule == "17.3" and e.message.startswith("r-2 sets up on 0904's side")  # the unit, not its formation
    assert "(17.3); 0707 is excluded (on Woods)" in e.message
    assert "0604 is across the River" in refused(game, "red", {"type": "place", "unit": "r-2", "hex": "0604"}).message
    assert "1002 is excluded" in refused(game, "red", {"type": "place", "unit": "r-2", "hex": "1002"}).message
    assert "not in an area" in refused(game, "red", {"type": "place", "unit": "r-tr", "hex": "0905"}).message


def test_17_3_the_rest_as_printed_places_those_whose_printed_hex_is_allowed():
    game = new(free_setup=True)
    placed_all(game)
    assert game.state.units["r-hq"].hex == "0904"  # a fixed 17.2 hex is its printed hex
    game.submit("red", {"type": "end_phase"})
    assert game.state.phase == "movement"


def test_17_3_the_option_is_in_the_record_and_replays():
    game = new(free_setup=True)
    placed_all(game)
    place(game, "r-1", "0701")  # only the free set-up allows it
    game.submit("red", {"type": "end_phase"})
    game.submit("blue", {"type": "resign"})
    rec = game.record()
    assert rec["options"] == {"free_setup": True}
    assert verify_record(rec, game.scenario) == []
    rec["options"] = {}
    assert verify_record(rec, game.scenario)  # without the option the placements are illegal


# --- bots and the simulator -------------------------------------------------------------------------------------------------
def test_17_2_bots_are_offered_placements_and_the_shortcut():
    game = new()
    cmds = list(game.legal_commands("red"))
    assert {"type": "place_printed"} in cmds
    assert any(c["type"] == "place" and c["unit"] == "r-1" for c in cmds)
    assert {"type": "end_phase"} not in cmds  # not before every unit is placed
    opts = game.options("red", [])
    assert opts["placements"]["r-cav"]["hexes"] == ["0804", "0805", "0904", "0905", "0906", "1004", "1005"]
    assert opts["setup"]["end"]["rule"] == "17.2"


@pytest.mark.parametrize("free", [False, True])
def test_17_2_the_random_player_plays_through_the_set_up(free):
    report = SimulationReport()
    game = play_random_game(parse_scenario(setup_data(), "test"), seed=3, max_commands=3000, report=report,
                            options={"free_setup": True} if free else None)
    assert game.state.setup_done == ["red"]
    assert report.violations == 0, report.examples[:3]


# --- the scenario format -----------------------------------------------------------------------------------------------------
def _problems(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "test")
    return str(e.value)


def test_17_2_a_misspelt_area_condition_is_named_with_its_path():
    data = setup_data()
    data["setup_areas"]["f7"]["any_of"][0]["witin"] = 2
    assert "setup_areas.f7.any_of[0].witin: 'witin' is not an area condition; did you mean 'within'?" in _problems(data)
    data = setup_data()
    entry(data, "r-art")["area"]["hexs"] = ["0902"]
    assert ".area.hexs: 'hexs' is not an area condition; did you mean 'hexes'?" in _problems(data)
    data = setup_data()
    data["free_setup"]["red"]["pined"] = {}
    assert "free_setup.red.pined: 'pined' is not a free set-up field; did you mean 'pinned'?" in _problems(data)
    data = setup_data()
    entry(data, "r-1")["aera"] = "f7"
    assert "'aera' is not a placement field; did you mean 'area'?" in _problems(data)


def test_17_2_the_printed_hex_must_be_in_the_area():
    data = setup_data()
    entry(data, "r-cav")["hex"] = "0705"
    assert "setup[8].hex: the printed hex 0705 is not in the area (within 1 hex of 0905): 0705 is 2 away" in _problems(data)


def test_17_2_area_references_kinds_and_lines_are_checked():
    data = setup_data()
    entry(data, "r-1")["area"] = "f8"
    assert "setup[5].area: area 'f8' is not in setup_areas" in _problems(data)
    data = setup_data()
    entry(data, "r-cav")["area"] = {"with_span": True}
    assert "'with_span' is for leaders" in _problems(data)
    data = setup_data()
    entry(data, "r-sq")["area"]["side_of"]["features"] = ["stream"]
    assert "the line does not divide the map" in _problems(data)
    data = setup_data()
    entry(data, "r-sq")["area"]["side_of"]["features"] = ["rivre"]
    assert "hexside feature 'rivre' is not in tec.hexsides" in _problems(data)
    data = setup_data()
    data["free_setup"]["red"]["pinned"] = {"b-1": "0404"}
    assert "free_setup.red.pinned.b-1: 'b-1' is not a unit of red" in _problems(data)
    data = setup_data()
    data["setup"].append({"unit": "r-x"})
    assert "setup[" in _problems(data)


def test_17_2_a_placement_needs_a_hex_or_an_area():
    data = setup_data()
    del entry(data, "r-1")["hex"], entry(data, "r-1")["area"]
    assert "setup[5]" in _problems(data)
    data = setup_data()
    del entry(data, "r-1")["hex"]
    sc = parse_scenario(data, "test")
    assert sc.areas["r-1"].printed is None
    game = Game.new(sc, SEED)
    game.submit("red", {"type": "place_printed"})
    assert game.state.units["r-1"].status == "unplaced"


def test_17_2_illegal_commands_leave_the_state_and_are_refused_outside_the_set_up():
    game = new()
    with pytest.raises(IllegalCommand):
        game.submit("red", {"type": "place", "unit": "r-1", "hex": "9999"})
    placed_all(game)
    game.submit("red", {"type": "end_phase"})
    assert refused(game, "blue", {"type": "place", "unit": "b-1", "hex": "0405"}).rule == "17.1"


@pytest.mark.parametrize("free", [False, True])
def test_17_2_the_greedy_bot_sets_up(free):
    from server.bots.greedy import GreedyBot

    game = new(**({"free_setup": True} if free else {}))
    bot, rng = GreedyBot(), random.Random(1)
    for _ in range(60):
        if game.state.phase != "setup":
            break
        side = game.awaiting
        assert side is not None
        game.submit(side, bot.choose(game, side, rng, 0.3))
    assert game.state.phase == "movement"


def test_18_1_a_unit_set_up_in_a_tracked_hex_entered_it_once_its_set_up_is_revealed():
    """17.2 with 18.1 (S68): standard-1866's guns set up in the Maslowed battery position, whose last entrant 18.1's
    condition tracks: the entry counts when Austria ends its set-up, and not before (a secret placement)."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[3] / "scenarios/standard/standard-1866.json").read_text())
    game = Game.new(parse_scenario(data), "known-answer-seed-18-1-setup-0001")
    battery = next(s["hex"] for s in data["setup"] if s["unit"] == "a-art")
    assert game.state.phase == "setup" and game.awaiting == "austria"
    game.submit("austria", {"type": "place_printed"})
    assert game.state.extra["entered"].get(battery) is None  # the placement is Austria's secret until revealed
    prussian_view = json.dumps(game.view("prussia")["standard"]["victory"])
    assert "Austria" not in prussian_view.split("Last to enter")[1][:40]
    game.submit("austria", {"type": "end_phase"})
    assert game.state.extra["entered"][battery] == "austria"


@pytest.mark.parametrize("free", [False, True])
def test_17_2_17_3_area_of_is_the_area_in_play_of_each_unit(free: bool) -> None:
    """17.2, 17.3: the one-unit look-up the placement checks use (a whole battle asks it per hex) gives the same area
    as the whole map of areas in play, for units in areas, units set up on a hex and the pinned trains."""
    from server.rules.standard.setup import area_of, areas_in_play

    game = new(**({"free_setup": True} if free else {}))
    sc, options = game.scenario, game.state.options
    whole = areas_in_play(sc, options)
    assert any(u not in whole for u in sc.units) and whole
    for uid in sc.units:
        assert area_of(sc, options, uid) is whole.get(uid), uid
