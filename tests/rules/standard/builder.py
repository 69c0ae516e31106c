"""A small Standard rules scenario (ruleset `standard`, seed 002) for the per-rule tests.

    data = standard_data()          # 10x8 clear map, blue (west) and red (east), each with an HQ, trains, a LOC hex
    unit(data, "b-sq", kind="squadron", ...)   # add or replace a counter
    sc = parse_standard_scenario(data)

Geometry as in tests/rules/position.py (R1, shifted even): row 04 read west to east is a line of adjacent hexes.
"""

from __future__ import annotations

import copy
from typing import Any

TEC: dict[str, Any] = {
    "terrain": {
        "clear": {"name": "Clear", "move": {"infantry": 1, "cavalry": 1, "artillery": 1}, "clear": True, "trains": True},
        "woods": {"name": "Woods", "move": {"infantry": 2, "cavalry": 3, "artillery": 3}, "no_march": True,
                  "halves_attack_into": ["cavalry"], "blocks_los": True, "no_advance_from": ["cavalry"]},
        "hill": {"name": "Hill", "move": {"infantry": 2, "cavalry": 2, "artillery": 3}, "hill": True},
        "marsh": {"name": "Marsh", "move": {"infantry": 3}, "prohibited": ["artillery", "cavalry"], "no_march": True},
    },
    "secondary": {
        "village": {"name": "Village", "move_add": {"cavalry": 1, "artillery": 1}, "halves_attack_into": ["cavalry"],
                    "blocks_los": True},
        "crest": {"name": "Crest", "halves_attack_into": ["infantry", "cavalry"]},
    },
    "hexsides": {
        "stream": {"name": "Stream", "move_add": {"infantry": 1, "cavalry": 1, "artillery": 2},
                   "halves_attack_across": ["infantry", "cavalry"]},
        "ford": {"name": "Ford", "trains": True},
        "river": {"name": "River", "prohibited": ["infantry", "cavalry", "artillery", "trains"], "blocks_zoc": True},
    },
}


def _base() -> dict[str, Any]:
    return {
        "id": "standard-test",
        "title": "Standard rules test ground",
        "ruleset": "standard",
        "map": {"columns": 10, "rows": 8, "default_terrain": "clear", "hexes": {}, "secondary": {}, "hexsides": [],
                "roads": [], "trails": []},
        "tec": copy.deepcopy(TEC),
        "sides": {
            "blue": {"name": "Blue", "color": "#2040a0", "edge": "west", "entry_hexes": ["0104"], "loc": ["0104"]},
            "red": {"name": "Red", "color": "#a02020", "edge": "east", "entry_hexes": ["1004"], "loc": ["1004"]},
        },
        "formations": {
            "1": {"side": "blue", "name": "I Corps", "sub_formations": ["a", "b"]},
            "2": {"side": "blue", "name": "II Corps"},
            "7": {"side": "red", "name": "VII Corps"},
        },
        "units": [
            {"id": "b-hq", "side": "blue", "kind": "hq", "name": "Blue HQ", "ma": 6},
            {"id": "b-tr", "side": "blue", "kind": "trains", "name": "Blue trains", "ma": 4},
            {"id": "r-hq", "side": "red", "kind": "hq", "name": "Red HQ", "ma": 6},
            {"id": "r-tr", "side": "red", "kind": "trains", "name": "Red trains", "ma": 4},
            {"id": "b-1", "side": "blue", "kind": "infantry", "name": "1st Brigade", "formation": "1",
             "full": {"cf": 6, "mr": 4, "ma": 4}, "reduced": {"cf": 3, "mr": 3, "ma": 4}},
            {"id": "r-1", "side": "red", "kind": "infantry", "name": "7th Brigade", "formation": "7",
             "full": {"cf": 5, "mr": 4, "ma": 4}, "reduced": {"cf": 3, "mr": 3, "ma": 4}},
        ],
        "setup": [
            {"unit": "b-hq", "hex": "0204"}, {"unit": "b-tr", "hex": "0104"},
            {"unit": "r-hq", "hex": "0904"}, {"unit": "r-tr", "hex": "1004"},
            {"unit": "b-1", "hex": "0404"}, {"unit": "r-1", "hex": "0704"},
        ],
        "reinforcements": [],
        "turns": 4,
        "trt": [{"label": "1700", "light": "day", "replacements": {"blue": 1}}, {"label": "1800", "light": "day"},
                {"label": "1900", "light": "twilight"}, {"label": "2000", "light": "night"}],
        "first_player": "blue",
        "victory": {"description": "Hold the crossroads", "objectives": [{"hex": "0504", "points": 2}]},
    }


def standard_data() -> dict[str, Any]:
    return _base()


def unit(data: dict[str, Any], uid: str, hex: str | None = "0303", **fields: Any) -> dict[str, Any]:
    """Add (or replace) a counter and place it at `hex` (None: leave it unplaced)."""
    side = fields.pop("side", "blue")
    u = {"id": uid, "side": side, "name": fields.pop("name", uid), **fields}
    data["units"] = [x for x in data["units"] if x["id"] != uid] + [u]
    data["setup"] = [s for s in data["setup"] if s["unit"] != uid]
    if hex is not None:
        data["setup"].append({"unit": uid, "hex": hex})
    return u


def find(data: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["id"] == uid)
