"""Build scenarios/musket-and-pike/mp-lindau.json: R17.97's designed learning battle for Musket & Pike (seed 004 + R17,
ruleset `musket-and-pike`), "The Bridge at Lindau".

Everything comes from R17.97 (map, terrain, hexsides, wings, counters, leaders, objectives); the water line, the hill's
steep slopes and the ridge's gentle slopes are worked out on the kernel's grid here, so a slip in a hex id fails
here rather than in play. Run: python -m scenarios.tools.mp_lindau
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from server.rules.kernel.hexes import HexGrid, hexside_key

COLUMNS, ROWS, SHIFTED = 14, 14, "even"
IMP, SWE = "imperial", "swedish"
VILLAGES = ("0705", "0805")
WOODS = ("0203", "0303", "0210", "0211", "0310")
MARSH = ("1307", "1407")
VINEYARD = ("0504", "0604")
POND = ("0112", "0113")
ROAD = tuple(f"07{r:02d}" for r in range(1, 15))
BRIDGE = ("0707", "0708")
HILL = ("0902", "0903", "1002")
RIDGE = ("0612", "0712", "0812")


def _unit(uid: str, side: str, name: str, type_: str, wing: str, **values: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "name": name, "type": type_, "wing": wing, **values}


def _leader(uid: str, side: str, name: str, role: str, rating: int, wing: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "side": side, "name": name, "type": "leader", "role": role, "rating": rating}
    if wing:
        out["wing"] = wing
    return out


# (unit, hex, facing or None for a leader)
UNITS: tuple[tuple[dict[str, Any], str, str | None], ...] = (
    (_leader("imp-holk", IMP, "Holk", "ac", 0), "0804", None),
    (_leader("imp-aldringen", IMP, "Aldringen", "wc", 0, "imp-foot"), "0605", None),
    (_unit("imp-tercio", IMP, "Tercio", "hi", "imp-foot", sp=12, morale=7, ma=3, pikes=True, large=True), "0605", "S"),
    (_unit("imp-regiment", IMP, "Regiment", "hi", "imp-foot", sp=6, morale=6, ma=4, pikes=True), "0905", "S"),
    (_unit("imp-dragoons", IMP, "Dragoons", "li", "imp-foot", **{"class": "dragoons"}, sp=2, morale=6, ma=6), "0705",
     "S"),
    (_unit("imp-culverins", IMP, "Culverins", "artillery", "imp-foot", calibre="12-24lb", double=False, sp=2, morale=6,
           ma=2), "0903", "S"),
    (_leader("imp-piccolomini", IMP, "Piccolomini", "wc", -1, "imp-horse"), "1204", None),
    (_unit("imp-cuir1", IMP, "Cuirassiers (1)", "cavalry", "imp-horse", **{"class": "cuirassier"}, sp=4, morale=8,
           ma=7, pistols=2), "1104", "S"),
    (_unit("imp-cuir2", IMP, "Cuirassiers (2)", "cavalry", "imp-horse", **{"class": "cuirassier"}, sp=4, morale=8,
           ma=7, pistols=2), "1204", "S"),
    (_unit("imp-arq", IMP, "Arquebusiers", "cavalry", "imp-horse", **{"class": "arquebusier"}, sp=3, morale=6, ma=8,
           pistols=1), "1304", "S"),
    (_leader("swe-horn", SWE, "Horn", "ac", -1), "0711", None),
    (_leader("swe-baner", SWE, "Banér", "wc", 0, "swe-foot"), "0810", None),
    (_unit("swe-yellow", SWE, "Yellow Brigade", "hi", "swe-foot", sp=6, morale=8, ma=4, pikes=True,
           regimental_artillery=True), "0610", "N"),
    (_unit("swe-blue", SWE, "Blue Brigade", "hi", "swe-foot", sp=6, morale=7, ma=4, pikes=True,
           regimental_artillery=True), "0810", "N"),
    (_unit("swe-muskets", SWE, "Commanded Muskets", "li", "swe-foot", **{"class": "commanded_muskets"}, sp=2,
           morale=7, ma=6), "0709", "N"),
    (_unit("swe-sakers", SWE, "Sakers", "artillery", "swe-foot", calibre="4-8lb", double=True, sp=2, morale=7, ma=3),
     "0712", "N"),
    (_leader("swe-stalhandske", SWE, "Stålhandske", "wc", -1, "swe-horse"), "1111", None),
    (_unit("swe-cuir", SWE, "Cuirassiers", "cavalry", "swe-horse", **{"class": "cuirassier"}, sp=3, morale=7, ma=7,
           pistols=2), "1111", "N"),
    (_unit("swe-finn1", SWE, "Finnish Horse (1)", "cavalry", "swe-horse", **{"class": "arquebusier"}, sp=3, morale=7,
           ma=8, pistols=1), "1011", "N"),
    (_unit("swe-finn2", SWE, "Finnish Horse (2)", "cavalry", "swe-horse", **{"class": "arquebusier"}, sp=3, morale=7,
           ma=8, pistols=1), "1211", "N"),
)
WINGS = (
    {"id": "imp-foot", "side": IMP, "name": "Imperial Foot Wing", "commander": "imp-aldringen",
     "order": "receive_charge", "cavalry": False},
    {"id": "imp-horse", "side": IMP, "name": "Imperial Horse Wing", "commander": "imp-piccolomini",
     "order": "make_ready", "cavalry": True},
    {"id": "swe-foot", "side": SWE, "name": "Swedish Foot Wing", "commander": "swe-baner", "order": "make_ready",
     "cavalry": False},
    {"id": "swe-horse", "side": SWE, "name": "Swedish Horse Wing", "commander": "swe-stalhandske",
     "order": "make_ready", "cavalry": True},
)


def hexsides(grid: HexGrid) -> list[dict[str, Any]]:
    """R17.97's hexsides: the water line between rows 01-07 and 08-14 (the bridge, the marshy stream in columns
    01-04, the stream elsewhere), the hill's steep slopes and the ridge's gentle slopes."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for h in grid.all_hexes():
        col, row = int(h[:2]), int(h[2:])
        for n in grid.neighbors(h):
            ncol, nrow = int(n[:2]), int(n[2:])
            key = hexside_key(h, n)
            if key in out:
                continue
            if row <= 7 < nrow:
                if key == hexside_key(*BRIDGE):
                    feature = "bridge"
                elif col <= 4 and ncol <= 4:
                    feature = "marshy_stream"
                else:
                    feature = "stream"
                out[key] = {"hexes": list(key), "feature": feature}
            elif (h in HILL) != (n in HILL):
                out[key] = {"hexes": list(key), "feature": "steep_slope", "high": h if h in HILL else n}
            elif (h in RIDGE) != (n in RIDGE):
                out[key] = {"hexes": list(key), "feature": "gentle_slope"}
    assert hexside_key(*BRIDGE) in out, "the bridge must be on the water line"
    return [out[k] for k in sorted(out)]


def build() -> dict[str, Any]:
    grid = HexGrid(COLUMNS, ROWS, SHIFTED)
    for h in (*VILLAGES, *WOODS, *MARSH, *VINEYARD, *POND, *ROAD, *HILL, *RIDGE):
        assert h in grid, h
    roads = [[a, b] for a, b in itertools.pairwise(ROAD)]
    for a, b in roads:
        assert grid.is_adjacent(a, b), (a, b)
    terrain = {**{h: "village" for h in VILLAGES}, **{h: "woods" for h in WOODS}, **{h: "marsh" for h in MARSH},
               **{h: "thicket" for h in VINEYARD}, **{h: "river" for h in POND}}
    return {
        "id": "mp-lindau",
        "title": "The Bridge at Lindau",
        "subtitle": "A learning battle for Musket & Pike",
        "ruleset": "musket-and-pike",
        "provenance": "Designed for Vedette (R17.97): not a historical battle, though its names are of the Thirty "
                      "Years War.",
        "description": "An Imperial army holds the village of Lindau and the stream north of it; a Swedish army "
                       "comes up from the south to take the bridge and the village. Two wings a side, eight turns: "
                       "orders, activations, preemption and continuation, fire and close combat from the Musket & "
                       "Pike player aid card.",
        "series": "other",
        "map": {"columns": COLUMNS, "rows": ROWS, "shifted": SHIFTED, "default_terrain": "clear", "hexes": terrain,
                "roads": roads, "hexsides": hexsides(grid)},
        "sides": {IMP: {"name": "Imperials", "adjective": "Imperial", "color": "#f2f2f2", "text_color": "#1a1a1a",
                        "edge": "north"},
                  SWE: {"name": "Swedes", "adjective": "Swedish", "color": "#2b5fb3", "text_color": "#ffd84a",
                        "edge": "south"}},
        "wings": list(WINGS),
        "units": [u for u, _, _ in UNITS],
        "setup": [{"unit": u["id"], "hex": h, **({"facing": f} if f else {})} for u, h, f in UNITS],
        "turns": 8,
        "first_side": IMP,
        "victory": {"description": "After turn 8 each side scores the Original Strength of every enemy unit "
                                   "eliminated or off the map, and 4 points for each of Lindau's two village hexes "
                                   "it holds; a side with more than half its wings collapsed loses at once (R17.92-"
                                   "R17.94).",
                    "objectives": [{"hex": "0705", "name": "Lindau church", "points": 4, "owner": IMP},
                                   {"hex": "0805", "name": "Lindau market", "points": 4, "owner": IMP}]},
    }


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "musket-and-pike" / "mp-lindau.json"
    out.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
