"""A small Standard scenario with 19.8 hidden movement (builder.py's ground): blue owns box A (b-2, b-3 of
formation 2; HM-A2 real) and box B (b-4, the dummy-looking HM-B1 real); a screen of woods (column 05,
blocking the line of sight) hides the west from red's units at 07xx."""

from __future__ import annotations

from typing import Any

from .builder import standard_data, unit

WOODS = [f"{c:02d}{r:02d}" for c in (5,) for r in range(1, 9)]


def hidden_data(real_a: int = 2, real_b: int = 1) -> dict[str, Any]:
    d = standard_data()
    d["map"]["hexes"] = {h: "woods" for h in WOODS}
    next(p for p in d["setup"] if p["unit"] == "b-1")["hex"] = "0101"
    for uid in ("b-2", "b-3", "b-4"):
        unit(d, uid, hex=None, side="blue", kind="infantry", formation="2", name=f"Hidden {uid}",
             full={"cf": 5, "mr": 4, "ma": 4}, reduced={"cf": 3, "mr": 3, "ma": 4})
    d["hidden_movement"] = {
        "side": "blue", "formations": ["2"], "ma": 4,
        "boxes": [{"name": "A", "units": ["b-2", "b-3"], "markers": ["0202", "0206"], "real": real_a},
                  {"name": "B", "units": ["b-4"], "markers": ["0302", "0307"], "real": real_b}],
    }
    return d


BOXED = ("b-2", "b-3", "b-4")
