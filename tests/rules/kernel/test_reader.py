"""kernel/reader.py: a hand-read scenario file reports every problem at once, each at its JSON path."""

from __future__ import annotations

from server.rules.kernel.hexes import HexGrid
from server.rules.kernel.reader import DataReader


def test_every_wrong_value_is_recorded_with_its_path_and_a_stand_in_returned() -> None:
    r = DataReader("t.json")
    d = {"n": "x", "flag": 1, "kind": "pike", "name": ""}
    assert r.integer(d, "n", "units[0]", 1, 40) == 1
    assert r.flag(d, "flag", "units[0]") is False
    assert r.choice(d, "kind", "units[0]", ("hi", "li")) == "hi"
    assert r.text(d, "name", "units[0]") == ""
    assert r.obj([], "map") == {} and r.lst({}, "setup") == []
    assert r.problems == [
        ("units[0].n", "must be a whole number from 1 to 40"),
        ("units[0].flag", "must be true or false"),
        ("units[0].kind", "must be one of hi, li, not 'pike'"),
        ("units[0].name", "must be a non-empty string"),
        ("map", "must be an object"),
        ("setup", "must be a list"),
    ]


def test_integer_bounds_and_defaults() -> None:
    r = DataReader("t.json")
    assert r.integer({}, "turns", "", low=1, default=12) == 12
    assert r.integer({"turns": True}, "turns", "", low=1) == 1  # a bool is not a whole number
    assert r.integer({"points": 0}, "points", "victory.objectives[0]", low=1) == 1
    assert r.problems == [(".turns", "must be a whole number of at least 1"),
                          ("victory.objectives[0].points", "must be a whole number of at least 1")]


def test_hexes_must_be_on_the_map_and_a_hexside_needs_two_adjacent_hexes() -> None:
    grid = HexGrid(4, 4)
    r = DataReader("t.json")
    assert r.hex_(grid, "0101", "setup[0].hex") == "0101"
    assert r.hex_(grid, "0909", "setup[1].hex") is None
    assert r.pair(grid, ["0101", "0102"], "map.roads[0]") is not None
    assert r.pair(grid, ["0101", "0303"], "map.roads[1]") is None
    assert r.problems == [("setup[1].hex", "hex '0909' is not on the 4x4 map"),
                          ("map.roads[1]", "0101 and 0303 are not adjacent, so they share no hexside")]


def test_a_bad_map_size_is_a_problem_not_an_exception() -> None:
    r = DataReader("t.json")
    assert r.grid({"columns": "wide", "rows": 3}) is not None
    assert [p for p, _ in r.problems] == ["map"]


def test_objectives_victory_checks_owner_and_points() -> None:
    grid = HexGrid(4, 4)
    r = DataReader("t.json")
    v = r.objectives_victory({"description": "hold it", "objectives": [
        {"hex": "0202", "name": "Mill", "points": 3, "owner": "red"},
        {"hex": "0203", "points": 2, "owner": "green", "colour": "x"}]}, grid, ["red", "blue"],
        step_eliminated=1, unit_captured=1)
    assert [(o.hex, o.name, o.points, o.owner) for o in v.objectives] == [
        ("0202", "Mill", 3, "red"), ("0203", "0203", 2, "green")]
    assert (v.step_eliminated, v.unit_captured) == (1, 1)
    paths = [p for p, _ in r.problems]
    assert "victory.objectives[1].owner" in paths and any("colour" in why for _, why in r.problems)
