"""Scenario validation: a broken scenario raises ScenarioError naming the file, the JSON path and the reason."""

from __future__ import annotations

import json

import pytest
from position import Position

from server.rules import ScenarioError, parse_scenario, scenario_from_json_text

SOURCE = "scenarios/broken.json"


def base() -> dict:
    pos = Position()
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0804")
    pos.road(["0104", "0204", "0304"])
    return pos.data()


def problem(data: dict) -> tuple[ScenarioError, str]:
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(data, SOURCE)
    err = exc.value
    assert err.source == SOURCE and str(err).startswith(SOURCE + ": ")
    return err, str(err)


def test_a_valid_position_and_the_shipped_scenarios_parse(tutorial) -> None:
    assert parse_scenario(base(), SOURCE).id == "test-position"
    assert tutorial.id == "tutorial"


def test_a_typo_in_a_terrain_name() -> None:
    data = base()
    data["map"]["hexes"]["0504"] = "woodz"
    err, text = problem(data)
    assert err.problems == [("map.hexes.0504", "terrain 'woodz' is not in tec.terrain")]
    assert "broken.json: map.hexes.0504: terrain 'woodz'" in text


def test_a_hex_off_the_map() -> None:
    data = base()
    data["map"]["hexes"]["1109"] = "woods"
    err, _ = problem(data)
    assert err.problems[0][0] == "map.hexes.1109" and "not on the 10x8 map" in err.problems[0][1]


def test_a_set_up_hex_off_the_map() -> None:
    data = base()
    assert data["setup"][0]["unit"] == "b1"
    data["setup"][0]["hex"] = "0909"
    err, _ = problem(data)
    assert err.problems == [("setup[0].hex", "hex 0909 is not on the 10x8 map")]


def test_a_unit_set_up_in_prohibited_terrain() -> None:
    data = base()
    data["map"]["hexes"]["0404"] = "lake"
    err, _ = problem(data)
    assert err.problems[0][0] == "setup[0].hex" and "prohibited" in err.problems[0][1]


def test_an_unknown_unit_in_the_set_up() -> None:
    data = base()
    data["setup"].append({"unit": "b99", "hex": "0505"})
    err, _ = problem(data)
    assert ("setup[2].unit", "unit 'b99' is not in units") in err.problems


def test_a_road_step_between_hexes_that_are_not_adjacent() -> None:
    data = base()
    data["map"]["roads"][0]["path"] = ["0104", "0204", "0404"]
    err, _ = problem(data)
    assert err.problems[0][0] == "map.roads[0].path[2]"
    assert "not between adjacent hexes" in err.problems[0][1]


def test_a_hexside_between_hexes_that_are_not_adjacent() -> None:
    data = base()
    data["map"]["hexsides"] = [{"hexes": ["0104", "0304"], "features": ["stream"]}]
    err, _ = problem(data)
    assert err.problems[0][0] == "map.hexsides[0].hexes"


def test_an_unknown_hexside_feature() -> None:
    data = base()
    data["map"]["hexsides"] = [{"hexes": ["0104", "0204"], "features": ["streem"]}]
    err, _ = problem(data)
    assert err.problems[0] == ("map.hexsides[0].features", "hexside feature 'streem' is not in tec.hexsides")


def test_a_schema_error_names_its_path() -> None:
    data = base()
    data["units"][0]["full"]["attack"] = "five"
    err, _ = problem(data)
    assert err.problems[0][0] == "units[0].full.attack"


def test_a_missing_required_section() -> None:
    data = base()
    del data["victory"]
    _err, text = problem(data)
    assert "victory" in text


def test_a_unit_neither_set_up_nor_arriving() -> None:
    data = base()
    data["setup"] = [s for s in data["setup"] if s["unit"] != "r1"]
    err, _ = problem(data)
    assert ("units", "unit 'r1' is neither set up nor a reinforcement") in err.problems


def test_an_entry_hex_not_on_a_map_edge() -> None:
    data = base()
    data["sides"]["blue"]["entry_hexes"] = ["0404"]
    err, _ = problem(data)
    assert err.problems[0][0] == "sides.blue.entry_hexes[0]"


def test_every_problem_is_reported_at_once() -> None:
    data = base()
    data["map"]["hexes"]["0504"] = "woodz"
    data["setup"].append({"unit": "b99", "hex": "0505"})
    err, _ = problem(data)
    assert len(err.problems) == 2


def test_bad_json_names_the_file_line_and_column() -> None:
    text = json.dumps(base(), indent=1).replace('"turns": 8', '"turns": 8,,', 1)
    with pytest.raises(ScenarioError) as exc:
        scenario_from_json_text(text, SOURCE)
    msg = str(exc.value)
    assert msg.startswith(SOURCE + ": ") and "not valid JSON" in msg and "line" in msg and "column" in msg


def test_a_scenario_that_is_not_an_object() -> None:
    with pytest.raises(ScenarioError):
        parse_scenario([1, 2, 3], SOURCE)
    with pytest.raises(ScenarioError):
        scenario_from_json_text("[]", SOURCE)
