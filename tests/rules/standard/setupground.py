"""A small scenario with set-up areas (17.2) and a free set-up (17.3) over builder.py's ground.

Red (the second player) places its units in areas; blue sets up as printed. A river runs between columns 06 and
07 from edge to edge (red's side is east of it), a stream between 0807 and 0808, a village in 0902, woods in 0707.

    data = setup_data()
    game = Game.new(parse_scenario(data, "test"), seed)                       # red's set-up (17.1)
    game = Game.new(..., options={"free_setup": True})                        # 17.3
"""

from __future__ import annotations

from typing import Any

from server.rules.kernel.hexes import HexGrid

from .builder import standard_data, unit


def river_line() -> list[dict[str, Any]]:
    """The river hexsides between every hex of column 06 and its neighbours in column 07."""
    grid = HexGrid(10, 8)
    out = []
    for row in range(1, 9):
        a = f"06{row:02d}"
        for b in grid.neighbors(a):
            if b.startswith("07"):
                out.append({"hexes": [a, b], "features": ["river"]})
    return out


def setup_data() -> dict[str, Any]:
    data = standard_data()
    data["formations"]["8"] = {"side": "red", "name": "VIII Corps"}
    m = data["map"]
    m["hexsides"] = river_line() + [{"hexes": ["0807", "0808"], "features": ["stream"]}]
    m["secondary"] = {"0902": ["village"]}
    m["hexes"] = {"0707": "woods"}
    for uid, kind, extra in (
        ("r-2", "infantry", {"full": {"cf": 5, "mr": 4, "ma": 4}, "reduced": {"cf": 3, "mr": 3, "ma": 4}}),
        ("r-art", "artillery", {"full": {"attack": 3, "defense": 2, "range": 3, "ma": 4},
                                "ineffective": {"attack": 1, "defense": 1, "range": 2, "ma": 4}}),
        ("r-cav", "cavalry", {"full": {"cf": 4, "mr": 4, "ma": 6, "charge": 2}, "ineffective": {"cf": 0, "mr": 2, "ma": 6}}),
        ("r-bn", "battalion", {"full": {"cf": 2, "mr": 4, "ma": 4}, "ineffective": {"cf": 0, "mr": 2, "ma": 4}}),
        ("r-sq", "squadron", {"full": {"cf": 1, "mr": 4, "ma": 6, "charge": 1}, "ineffective": {"cf": 0, "mr": 2, "ma": 6}}),
    ):
        unit(data, uid, None, side="red", kind=kind, formation="8" if uid == "r-cav" else "7", **extra)
    unit(data, "r-ldr", None, side="red", kind="leader", name="General Rot", formation="7",
         leader={"combat": 1, "morale": 1, "movement": 2}, span=["7"])
    data["setup_areas"] = {
        # 17.2 "w/2 0805; any one infantry unit in 1002" (as Formation 3's "any two infantry units in 4610")
        "f7": {"any_of": [{"within": 2, "of": "0805"}, {"hexes": ["1002"], "kinds": ["infantry"], "max_units": 1}]},
    }
    data["setup"] = [s for s in data["setup"] if s["unit"] != "r-1"] + [
        {"unit": "r-1", "hex": "0805", "area": "f7"},
        {"unit": "r-2", "hex": "0806", "area": "f7"},
        {"unit": "r-art", "hex": "0903", "area": {"hexes": ["0902", "0903", "1003"]}},
        {"unit": "r-cav", "hex": "0905", "area": {"within": 1, "of": "0905"}},
        {"unit": "r-bn", "hex": "0808", "area": {"near": {"hexside": ["stream"]}}},
        {"unit": "r-sq", "hex": "0907", "area": {"columns": [9, 10], "rows": [6, 8],
                                                 "side_of": {"from": "0904", "features": ["river"]}}},
        {"unit": "r-ldr", "hex": "0805", "area": {"with_span": True}},
    ]
    data["free_setup"] = {"red": {
        "area": {"side_of": {"from": "0904", "features": ["river"]},
                 "except": [{"terrain": ["woods"]}, {"columns": [10, 10], "rows": [1, 2]}]},
        "pinned": {"r-tr": "1004"},
    }}
    return data
