"""Königgrätz, 3 July 1866: the whole battle of seed 002's exclusive rules (16.0-21.0, issue 40).

The map is the seed's: 55 columns by 30 rows, every hex it names where it names it (Chlum 3416, Sadowa 3604, ...).
17.2's compass words fix the grid (S79): the rows run west to east ("west of xx13" is rows 01-12) and the columns
south to north (Hradek 0608 is south of Benatek 4610), so the page's top is west, its right north.  The ground is
sketched here in grid units: ``pt(c, r)`` is column c (south to north) and row r (west to east), an even column's
hex centre standing at r + 0.5 (R1's shifted even columns); mapkit lays the sketch onto the hexes.  Where the
seed names no hex, places are put by the general histories' sketch maps, fitted between the named hexes
(docs/scenarios.md, "Königgrätz, 3 July 1866", has the table).

The counters are koniggratz_oob's; the set-up (17.2, 17.3), arrivals (17.4), hidden movement boxes (19.8),
special rules (19.x) and victory (18.x) are here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import koniggratz_oob as oob
import standard_1866
from mapkit import MapBuilder, Point

COLS, ROWS = 55, 30
HEX_M = 322.0  # 352 yards flat to flat (seed 002 1.2)
SIZE = HEX_M / math.sqrt(3.0)


def pt(c: float, r: float) -> Point:
    """Column c, row r (an even column's centres at r + 0.5) in mapkit's metres, 0101's centre at (0, 0)."""
    return (c - 1) * 1.5 * SIZE, -(r - 1) * HEX_M


def poly(*cr: tuple[float, float]) -> list[Point]:
    """A sketch line or outline; its corners nudged off the hex centres' lines, so that a line crossing between two
    centres never does so exactly at a corner (mapkit counts only proper crossings)."""
    return [pt(c + 0.011, r + 0.013) for c, r in cr]


# --- the places the seed names (17.2, 17.4, 18.1, 19.6) and those fitted between them -------------------------
TOWNS: dict[str, list[str]] = {
    "Chlum": ["3416"], "Rosnitz": ["2420"], "Nedelist": ["3624", "3724", "3725"], "Benatek": ["4610"],
    "Sweti": ["2824"], "Wschestar": ["2721", "2722"], "Hradek": ["0608"], "Sadowa": ["3604", "3704", "3705"],
    # fitted: Lipa by 17.2's 3709 (III Corps' centre), the Saxon villages in their area (cols 10-23, rows 03-13)
    "Lipa": ["3710"], "Problus": ["2210"], "Prim": ["1707"], "Nieder-Prim": ["1505"], "Langenhof": ["3212"],
    "Stresetitz": ["2913"], "Cistowes": ["4212"], "Maslowed": ["4216"], "Horenowes": ["4918"],
    "Lochenitz": ["3829"], "Racitz": ["5224"],
    # west of the Bistritz (17.3: the only hexes there Austria may use)
    "Nechanitz": ["0706"], "Mokrowous": ["2903"], "Dohalitz": ["3303"], "Sowetitz": ["4903"],
}
CHLUM, LOC_N, TRAINS_HEX = "3416", "2030", "2722"

# 17.4's entry hexes: A-D the Elbe Army (the west edge of the south, where 17.3 keeps columns 01-10 clear west of
# xx03), E-H First Army (the west edge, on the roads to the Bistritz crossings), I-M Second Army (the north edge,
# which 17.3 keeps clear: columns 53-55), N the Austrian LOC (18.1's 2030, on the east edge toward Königgrätz).
ENTRY = {"A": "0201", "B": "0401", "C": "0701", "D": "1001", "E": "2801", "F": "3601", "G": "4201", "H": "5001",
         "I": "5506", "J": "5514", "K": "5518", "L": "5522", "M": "5527"}

BISTRITZ = poly((56, 2.6), (51, 2.9), (47, 3.5), (43, 3.5), (39, 3.3), (35, 3.3), (31, 3.2), (27, 3.0),
                (23, 2.6), (17, 2.6), (12, 2.7), (9, 4.5), (7, 6.6), (5, 7.3), (3, 7.6), (0, 7.8))
FORDS = [(44, 3.5), (28, 3.05), (15, 2.6)]  # the Bistritz fords by Sowetitz, Mokrowous and Lubno
TROTINA = poly((56, 22.6), (52, 24.2), (48, 26.2), (44, 28.6), (41, 31))

SWIEPWALD = poly((44.6, 11.6), (44.6, 13.6), (43, 14.6), (41.6, 14.2), (41.6, 12.2), (43, 11.2))
SWIEPWALD_EDGE = poly((45.6, 10.8), (45.6, 14.4), (43, 15.4), (40.8, 14.8), (40.8, 11.6), (43, 10.4))
HOLAWALD = poly((37.6, 5.6), (37.6, 7.6), (35.6, 8.2), (34.4, 6.6), (35.6, 5.2))
HOLAWALD_EDGE = poly((38.6, 5), (38.6, 8.4), (35.6, 9), (33.6, 6.6), (35.6, 4.6))
PRIM_WOOD = poly((17.6, 4), (17.6, 6.2), (15, 6.6), (13.6, 4.6))
PRIM_WOOD_EDGE = poly((18.6, 3.4), (18.6, 6.6), (15, 7.4), (12.6, 4.6), (15, 3.4))
LIPA_WOOD = poly((39.4, 10.2), (39.4, 12.2), (38.2, 12.2), (38.2, 10.2))
BOR_WOOD = poly((26.4, 12.4), (26.4, 14.4), (24.2, 14.4), (24.2, 12.4))
HILLS = {
    "Chlum heights": poly((37, 13), (37.5, 17.2), (35, 19.6), (32, 18), (31.4, 14), (33.4, 12.4)),
    "Lipa heights": poly((38.6, 8.4), (38.6, 11), (35.4, 11.6), (35, 9)),
    "Maslowed heights": poly((43.6, 15), (43.6, 18.2), (40, 18.6), (39.4, 15.4)),
    "Horenowes hill": poly((51, 16.4), (51, 19.6), (48, 19.6), (48, 16.4)),
    "Problus heights": poly((24, 8), (24.6, 11.6), (20.4, 11.6), (20, 8.4)),
}
RIDGES = [  # 19.2: the heights' faces toward the Prussians
    poly((39.6, 8.3), (35.6, 8.3), (34.2, 9.6)),
    poly((33.6, 12.2), (31, 13.3), (28.6, 15.6)),
    poly((44.2, 14.6), (39.4, 14.8)),
    poly((51.6, 16), (51.6, 20)),
    poly((24.6, 7.6), (19.6, 8.2)),
]
# 19.6: the fieldworks run from 2712 to 3723 through 3514 and 3718 (Formation 4's part); S84 draws the line between.
WORKS_WAYPOINTS = ["2712", "3013", "3314", "3514", "3616", "3718", "3723"]

ROADS = [
    ("Sadowa-Königgrätz chaussée", [(36, 1), (36, 4.5), (37, 9), (33, 13), (29, 17), (24, 20.2), (22, 25.5),
                                    (20, 30.5)]),
    ("Nechanitz-Problus-Rosnitz road", [(7, 1), (7, 6), (6, 8.5), (14, 9.5), (22, 10.5), (24, 16), (24, 20.5)]),
    ("Benatek-Cistowes-Lipa road", [(50, 1), (46, 10.5), (42, 12.5), (37, 10)]),
    ("Horenowes-Chlum-Rosnitz road", [(55, 14), (49, 18), (42, 16.5), (34, 16.5), (28, 18.5), (24, 20.5)]),
    ("Nedelist-Sweti road", [(55, 22), (52, 24.5), (37, 24), (28, 24.5), (22, 25.5)]),
]
TRAILS = [
    ("Lubno lane", [(4, 1), (6, 8.5)]),
    ("Prim lane", [(2, 1), (10, 6), (17, 7), (22, 10.5)]),
    ("Kuklena track", [(10, 1), (15, 5.5), (17, 7)]),
    ("Mokrowous-Problus lane", [(28, 1), (29, 3), (25, 7), (22, 10.5)]),
    ("Dohalitz-Langenhof lane", [(42, 1), (33, 3), (33, 8), (32, 12.5)]),
    ("Sowetitz-Maslowed lane", [(55, 6), (49, 3), (46, 10.5)]),
    ("Benatek-Horenowes lane", [(46, 10.5), (49, 18)]),
    ("Maslowed-Nedelist lane", [(55, 18), (47, 20), (42, 16.5), (37, 24)]),
    ("Lochenitz lane", [(55, 27), (46, 27.5), (38, 29), (37, 24.5)]),
    ("Wschestar-Sweti lane", [(27, 21), (28, 24.5)]),
]


def _hex_chain(mb: MapBuilder, waypoints: Sequence[str]) -> list[str]:
    """The contiguous hexes from each waypoint to the next (a line draw, R1)."""
    chain: list[str] = [waypoints[0]]
    for a, b in pairwise(waypoints):
        for h in mb.grid.line(a, b, 1e-6)[1:]:
            assert h is not None
            if h != chain[-1]:
                chain.append(h)
    for a, b in pairwise(chain):
        assert mb.grid.is_adjacent(a, b), (a, b)
    return chain


def _real_offset(mb: MapBuilder, a: str, b: str) -> tuple[float, float]:
    """(north, east) from a to b in metres (mapkit's x is north, its -y east on this map)."""
    (ax, ay), (bx, by) = mb.center(a), mb.center(b)
    return bx - ax, ay - by


def build_map() -> tuple[MapBuilder, dict[str, Any]]:
    mb = MapBuilder(COLS, ROWS, HEX_M, "0101")
    key: dict[str, Any] = {}
    for edge, core in ((SWIEPWALD_EDGE, SWIEPWALD), (HOLAWALD_EDGE, HOLAWALD), (PRIM_WOOD_EDGE, PRIM_WOOD)):
        mb.polygon(edge, "light_woods")
        mb.polygon(core, "woods")
    mb.polygon(LIPA_WOOD, "light_woods")
    mb.polygon(BOR_WOOD, "light_woods")
    for outline in HILLS.values():
        mb.polygon(outline, "hill", over=["clear"])
    towns = {h for hexes in TOWNS.values() for h in hexes}
    mb.set(TRAINS_HEX, "clear")  # 12.2: the trains stand (and may move) on clear ground
    for line in RIDGES:
        mb.line_feature(line, "ridge")
    mb.line_feature(BISTRITZ, "bistritz")
    mb.line_feature(TROTINA, "stream")
    fords = []
    river = [k for k, fs in mb.hexsides.items() if "bistritz" in fs]
    for c, r in FORDS:
        x, y = pt(c, r)
        side = min(river, key=lambda k: sum((p - q) ** 2 for p, q in zip(
            ((mb.center(k[0])[0] + mb.center(k[1])[0]) / 2, (mb.center(k[0])[1] + mb.center(k[1])[1]) / 2), (x, y))))
        mb.remove_side(*side, "bistritz")
        mb.add_side(*side, "ford")
        fords.append(side)
    key["fords"] = fords
    # 19.6: the fieldworks line, its protected hexsides facing west and north (toward the Bistritz and Second
    # Army: each line hex's west, north-west and north-east hexsides not shared with the line), the ridge giving
    # way to the works where both fall on one hexside.
    works = _hex_chain(mb, WORKS_WAYPOINTS)
    protected: list[tuple[str, str]] = []
    for h in works:
        for n in mb.neighbors(h):
            north, east = _real_offset(mb, h, n)
            if n not in works and north - east > 0.3 * HEX_M:
                mb.remove_side(h, n, "ridge")
                mb.add_side(h, n, "fieldworks")
                protected.append((h, n))
    step = (len(works) - 1) / 6
    batteries = sorted({works[round(i * step)] for i in range(7)})  # seven battery positions (the earthworks I-VII)
    key.update(works=works, protected=protected, batteries=batteries, towns=towns)
    roads = {name: mb.road(name, "road", poly(*pts)) for name, pts in ROADS}
    for name, pts in TRAILS:
        mb.road(name, "trail", poly(*pts))
    key["roads"] = roads
    for name, hexes in TOWNS.items():
        mb.label(hexes[0], name)
    for name, where in (("Swiepwald", (43, 13)), ("Holawald", (36, 6.5)), ("Prim wood", (16, 5)),
                        ("Bistritz", (20, 2)), ("Trotina", (50, 25))):
        mb.label(mb.at(*pt(*where)), name)
    for letter, h in ENTRY.items():
        mb.label(h, f"Entry {letter}")
    mb.label(LOC_N, "Entry N: to Königgrätz")
    return mb, key


def standard_map(mb: MapBuilder, key: dict[str, Any]) -> dict[str, Any]:
    m = mb.to_json()
    roads = m.pop("roads")
    m["roads"] = [{"name": r["name"], "path": r["path"]} for r in roads if r["kind"] == "road"]
    m["trails"] = [{"name": r["name"], "path": r["path"]} for r in roads if r["kind"] == "trail"]
    secondary: dict[str, list[str]] = {h: ["town"] for h in key["towns"]}
    for h in key["batteries"]:
        secondary.setdefault(h, []).append("battery_position")
    m["secondary"] = dict(sorted(secondary.items()))
    m["labels"] = m.pop("labels")
    return m


_T = standard_1866.TEC
TEC: dict[str, Any] = {
    "terrain": {k: _T["terrain"][k] for k in ("clear", "light_woods", "woods", "hill")},
    "secondary": {
        "town": {
            "name": "Town", "color": "#b98a62", "pattern": "buildings", "move_add": {"cavalry": 1, "artillery": 1},
            "halves_attack_into": ["cavalry", "infantry"], "blocks_los": True, "no_charge": ["cavalry"],
        },
        "battery_position": _T["secondary"]["battery_position"],
    },
    "hexsides": {
        "bistritz": dict(_T["hexsides"]["stream"], name="The Bistritz (swollen by the rain)"),
        "ford": {
            "name": "Ford", "color": "#7fb2ee", "move_add": {"infantry": 1, "cavalry": 1, "artillery": 1},
            "halves_attack_across": ["infantry", "cavalry"], "no_charge": ["infantry", "cavalry"], "trains": True,
        },
        "stream": dict(_T["hexsides"]["stream"], name="Stream (the Trotina)"),
        "ridge": _T["hexsides"]["ridge"],
        "fieldworks": _T["hexsides"]["fieldworks"],
    },
    "clear_hexsides": _T["clear_hexsides"],
}


# --- 17.2: the Austrian set-up -----------------------------------------------------------------------------------
NEDELIST = TOWNS["Nedelist"]
ANCHORS = {"I": "2420", "II": "3723", "III": "3709", "IV": "3416", "VI": "2824", "VIII": "1614", "X": "3011",
           "SX": "2210", "C": "2721", "R": "2721", "1L": "0608", "2L": "3725", "P": "3604"}


def setup_areas(key: dict[str, Any]) -> dict[str, Any]:
    works: list[str] = key["works"]
    a, b = works.index("3514"), works.index("3718")

    def w(n: int, of: str, text: str) -> dict[str, Any]:
        return {"within": n, "of": of, "text": text, "rule": "17.2"}

    return {
        "I": w(3, "2420", "Formation 1 (I Corps): within 3 hexes of 2420 (Rosnitz)"),
        "II": {"any_of": [{"near": {"hexes": works[b + 1:]}}, {"hexes": NEDELIST}],
               "text": "Formation 2 (II Corps): on or adjacent to the fieldworks beyond 3718 and/or 3624, 3724, 3725 "
                       "(Nedelist) (S83)", "rule": "17.2"},
        "III": {"any_of": [{"within": 5, "of": "3709"},
                           {"hexes": ["4610"], "kinds": ["infantry", "battalion"], "max_units": 2}],
                "text": "Formation 3 (III Corps): within 5 hexes of 3709; any two infantry units in 4610 (Benatek)",
                "rule": "17.2"},
        "IV": {"near": {"hexes": works[a:b + 1]},
               "text": "Formation 4 (IV Corps): on or adjacent to the fieldworks from 3514 through 3718", "rule": "17.2"},
        "VI": w(3, "2824", "Formation 6 (VI Corps): within 3 hexes of 2824 (Sweti)"),
        "VIII": w(2, "1614", "Formation 8 (VIII Corps): within 2 hexes of 1614"),
        "X": {"columns": [24, 32], "rows": [1, 12], "side_of": {"from": "3011", "features": ["bistritz", "ford"]},
              "text": "Formation 10 (X Corps): columns 24xx-32xx east of the Bistritz and west of xx13", "rule": "17.2"},
        "SX": {"columns": [10, 23], "rows": [3, 13],
               "text": "Formation S (the Saxons): columns 10xx-23xx east of xx02 and west of xx14", "rule": "17.2"},
        "C": w(3, "2721", "Formation C (the reserve cavalry): within 3 hexes of 2721 (Wschestar)"),
        "R": w(3, "2721", "Formation R (the artillery reserve): within 3 hexes of 2721 (Wschestar)"),
        "1L": w(5, "0608", "Formation E [1/L] (1st Light Cavalry Division): within 5 hexes of 0608 (Hradek)"),
        "2L": w(3, "3725", "Formation T [2/L] (2nd Light Cavalry Division): within 3 hexes of 3725 (Nedelist)"),
        "P": {"hexes": TOWNS["Sadowa"], "text": "Formation P (Prochaska): 3604, 3704, 3705 (Sadowa)", "rule": "17.2"},
        "leaders": {"with_span": True, "text": "stacked with any unit in the leader's command span", "rule": "17.2"},
    }


FIXED = {"a-hq": CHLUM, "benedek": CHLUM, "a-trains": TRAINS_HEX}
COUNTS = ("infantry", "cavalry", "artillery", "trains")  # 5.2: the units that count for stacking


def printed_hexes(units: list[dict[str, Any]], area_hexes: dict[str, list[frozenset[str]]], grid: Any,
                  batteries: list[str]) -> dict[str, str]:
    """17.2's historical set-up: each unit on a hex of its area, nearest its formation's place (ANCHORS), one
    counter a hex before two, never three counting units (5.2), guns first on the battery positions (19.6), two
    of III Corps' regiments in Benatek (17.2)."""
    counting: dict[str, int] = {TRAINS_HEX: 1}
    total: dict[str, int] = {TRAINS_HEX: 1, CHLUM: 1}
    out: dict[str, str] = {}
    benatek = 2
    for u in units:
        uid, form, kind = u["id"], u.get("formation"), u["kind"]
        if uid in FIXED or kind == "leader" or u["side"] != "austria":
            continue
        parts = area_hexes[uid]
        if form == "III" and kind == "infantry" and benatek:
            out[uid] = "4610"
            benatek -= 1
            counting["4610"] = counting.get("4610", 0) + 1
            continue
        anchor = ANCHORS[str(form)]
        cands = sorted(parts[0], key=lambda h: (kind != "artillery" or h not in batteries, grid.distance(anchor, h), h))
        counts = kind in COUNTS
        best = min((h for h in cands if (not counts or counting.get(h, 0) < 2) and total.get(h, 0) < 3),
                   key=lambda h: (total.get(h, 0), cands.index(h)))
        out[uid] = best
        total[best] = total.get(best, 0) + 1
        if counts:
            counting[best] = counting.get(best, 0) + 1
    for u in units:  # 17.2: leaders with a unit of their command span, the one nearest the formation's place
        if u["kind"] == "leader" and u["side"] == "austria" and u["id"] not in FIXED:
            anchor = ANCHORS[u["formation"]]
            out[u["id"]] = min((out[v["id"]] for v in units if v.get("formation") in u["span"]
                                and v["kind"] != "leader" and v["id"] in out),
                               key=lambda h: (grid.distance(anchor, h), h))
    return out


def setup_entries(units: list[dict[str, Any]], printed: dict[str, str] | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for u in units:
        if u["side"] != "austria":
            continue
        uid = u["id"]
        if uid in FIXED:
            out.append({"unit": uid, "hex": FIXED[uid]})
            continue
        entry: dict[str, Any] = {"unit": uid, "area": "leaders" if u["kind"] == "leader" else u["formation"]}
        if printed is not None:
            entry["hex"] = printed[uid]
        out.append(entry)
    return out


# --- 17.4: the Prussian arrivals ---------------------------------------------------------------------------------
def reinforcements(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by: dict[str, list[str]] = {}
    for u in units:
        if u["side"] == "prussia" and u["kind"] not in ("leader", "hq"):
            by.setdefault(u.get("sub_formation") or u["formation"], []).append(u["id"])
    ag = ["p-14-g1", "p-16-g1", "p-e-cav3", "p-e-horse"]  # AG/14, 33 Fus/16, Lt Cav, Horse Art
    f_cav = [u for u in by["F"] if "cav" in u or "horse" in u]
    s_cav = [u for u in by["S"] if "cav" in u or "horse" in u]
    AD, BC, FG = ["A", "B", "C", "D"], ["B", "C"], ["F", "G"]

    def g(uids: list[str], turn: int, entry: list[str], **kw: Any) -> dict[str, Any]:
        return {"units": uids, "turn": turn, "entry": entry, **kw}

    def lead(uids: list[str], turn: int, entry: list[str]) -> dict[str, Any]:
        return {"units": uids, "turn": turn, "entry": entry, "with_span": True}

    return [
        # Elbe Army
        g(["p-hq-elbe"], 3, BC, arrival={"roll": [1, 2], "repeat": True}),
        g(ag, 1, BC),
        lead(["p-elbe-cdr"], 1, BC),
        g([u for u in by["14"] if u not in ag], 2, BC), lead(["p-14-cdr"], 1, BC),
        g(by["15"], 3, AD), lead(["p-15-cdr"], 3, AD),
        g([u for u in by["16"] if u not in ag], 4, AD), lead(["p-16-cdr"], 1, BC),
        g([u for u in by["E"] if u not in ag], 5, AD),
        # First Army
        g(["p-hq-first"], 1, ["G"]), lead(["p-first-cdr"], 1, ["E", "F", "G", "H"]),
        g(by["3"], 1, ["E"]), lead(["p-3-cdr"], 1, ["E"]),
        g(by["4"], 1, ["F"]), lead(["p-4-cdr"], 1, ["F"]),
        g(by["5"] + by["6"], 3, FG), lead(["p-5-cdr", "p-6-cdr"], 3, FG),
        g(by["7"], 1, ["H"]), lead(["p-7-cdr"], 1, ["H"]),
        g(by["8"], 1, ["G"]), lead(["p-8-cdr"], 1, ["G"]),
        g(f_cav, 4, ["E"]), lead(["p-f-cav-cdr"], 4, ["E"]),
        g([u for u in by["F"] if u not in f_cav], 4, FG),
        # Second Army
        g(["p-hq-second"], 5, ["J"]), lead(["p-second-cdr"], 4, ["I", "J", "K", "L", "M"]),
        g(by["1G"], 4, ["J"]), lead(["p-1g-cdr"], 4, ["J"]),
        g(by["2G"], 5, ["J"]), lead(["p-2g-cdr"], 5, ["J"]),
        g(by["1"] + by["2"], 6, ["I", "J"], entry_mode="one", arrival={"roll": [1, 2, 3], "else_turn": 7}),
        lead(["p-1-cdr", "p-2-cdr"], 6, ["I", "J"]),
        g(by["9"] + by["10"], 7, ["K", "L"]), lead(["p-9-cdr", "p-10-cdr"], 7, ["K", "L"]),
        g(by["11"], 5, ["L"]), lead(["p-11-cdr"], 5, ["L"]),
        g(by["12"], 5, ["M"], arrival={"roll": [1, 2, 3], "else_turn": 6}), lead(["p-12-cdr"], 5, ["M"]),
        g(s_cav, 5, ["J"], arrival={"roll": [1, 2], "repeat": True}), lead(["p-s-cav-cdr"], 5, ["J"]),
        g([u for u in by["S"] if u not in s_cav], 6, ["J"]),
    ]


# --- 18.x, 19.x and the rest -------------------------------------------------------------------------------------
TURN_LABELS = ["0700", "0830", "1000", "1130", "1300", "1430", "1600", "1730", "1900", "2030"]
RAIN_TABLE = {"clear": ["clear", "clear", "light", "light", "light", "heavy"],  # S50's table, printed "on the map"
              "light": ["clear", "light", "light", "light", "heavy", "heavy"],
              "heavy": ["light", "light", "light", "heavy", "heavy", "heavy"]}
HIDEABLE = ["I", "VI", "VIII", "C", "R"]  # 19.8 B: "Formations 1, 6, 8, C, and/or R" (S80)


def victory(key: dict[str, Any]) -> dict[str, Any]:
    return {
        "description": (
            "18.1: Prussia wins if a Prussian unit was the last to enter 2030 (Entry Hex N, the road to Königgrätz) "
            "or a Prussian artillery unit has 2030 within its range at the end of turn 10 (whatever the rain or "
            "the light). 18.2: otherwise Austria wins if its trains never moved nor were attacked and no Prussian "
            "unit stands in a fieldworks hex (the line of hexes from 2712 to 3723, 19.6). 18.3: otherwise victory "
            "points: 1 for each enemy unit destroyed (11.2), 1 for each leader casualty, 2 for each unit or leader "
            "captured, 4 for a captured HQ; the greater total wins, but a winner with fewer than 10 draws."),
        "casualty_points": {"destroyed": 1, "leader_casualty": 1, "captured": 2, "hq_captured": 4, "threshold": 10},
        "conditions": [
            {"side": "prussia", "rule": "18.1", "text": "a Prussian unit was the last to enter 2030 (Entry Hex N), or "
             "Prussian artillery has 2030 in range",
             "when": {"any": [{"last_to_enter": {"hex": LOC_N}}, {"artillery_in_range": {"hex": LOC_N}}]}},
            {"side": "austria", "rule": "18.2", "text": "Prussia has not won, the Austrian trains never moved nor were "
             "attacked, and no Prussian unit occupies a fieldworks hex (19.6)",
             "when": {"all": [{"enemy_not_won": {}}, {"trains_unmoved": {}},
                              {"no_enemy_in": {"hexes": key["works"]}}]}},
        ],
    }


BRIEFING = {
    "general": (
        "Königgrätz, 3 July 1866. The Austrian North Army and the Saxons hold the heights between the Bistritz and "
        "the Elbe, the Chlum-Nedelist line dug in with batteries. Three Prussian armies converge on them: the Elbe "
        "Army from the south-west over the Bistritz at Nechanitz, First Army from the west at Sadowa and Benatek, "
        "and, from about noon, Second Army from the north. Rain falls all day. Ten turns of 90 minutes, 07.00 to "
        "dusk."),
    "prussia": (
        "No Prussian unit begins on the map: First Army and the Elbe Army's advance guard arrive on turn 1, the "
        "rest as 17.4 says, some on a die. Each army's HQ and commander command only its own formations, and "
        "units of different armies never coordinate an attack. You win by being the last to enter 2030, the road "
        "to Königgrätz behind the Austrian centre, or by having artillery within range of it at the end. The "
        "needle gun spares your infantry the exchange's losses when Austria attacks (19.9); open order (19.10) "
        "halves the Austrian guns. Some Austrian markers may be dummies."),
    "austria": (
        "You set up first, in 17.2's areas (or anywhere, if the game was created with 17.3's free set-up), and "
        "may hide whole formations in the four hidden movement boxes (19.8): I, VI and VIII Corps, the reserve "
        "cavalry and the artillery reserve. Benedek's orders come slowly (19.5): each movement phase a die says "
        "whether the HQ is active. Your guns in the battery positions fire across the works with +2 range and "
        "attack (19.6); your infantry may form line (19.7). Hold: keep the trains at Wschestar unmoved and "
        "unattacked and every fieldworks hex free of Prussians, and keep the Prussians off 2030."),
}

DESIGNER_NOTES = (
    "Scale: a hex is 352 yards (seed 002 1.2), a turn 90 minutes (17.1: ten turns, 07.00 to 20.30, the last at "
    "dusk). The map is the seed's grid (55 x 30, rows west to east, columns south to north, S79), fitted to every "
    "hex it names; the rest of the ground is from the general histories' maps. Counters are computed from 21.0's "
    "strengths: 650 men a combat factor, the needle gun's fire 1.25 times, Jägers +1, 300 sabres a cavalry factor, "
    "three guns an artillery factor; an Austrian regiment or a Prussian group of about four battalions is a "
    "two-step counter (20.1). Every special rule of 19.0 is on, with S50's Rain Table and turn 1 in heavy rain."
)


def build() -> dict[str, Any]:
    from server.rules.standard.scenario import (
        parse_standard_scenario,  # the engine reads the areas (17.2)
    )

    mb, key = build_map()
    units = oob.units()
    data = _scenario(mb, key, units, None)
    sc = parse_standard_scenario(data, "koniggratz (areas)")
    area_hexes = {uid: [p.hexes for p in ap.area.parts] for uid, ap in sc.areas.items()}
    printed = printed_hexes(units, area_hexes, mb.grid, key["batteries"])
    return _scenario(mb, key, units, printed)


def _scenario(mb: MapBuilder, key: dict[str, Any], units: list[dict[str, Any]],
              printed: dict[str, str] | None) -> dict[str, Any]:
    trt: list[dict[str, Any]] = [{"label": label, "light": "day"} for label in TURN_LABELS]
    trt[-1]["light"] = "twilight"  # 16.2: "through dusk"
    return {
        "id": "koniggratz",
        "title": "Königgrätz, 1866",
        "subtitle": "3 July 1866: the North Army and the Saxons against three Prussian armies",
        "ruleset": "standard",
        "provenance": (
            "Designed for Vedette from seed 002's Königgrätz exclusive rules (16.0-21.0: set-up, arrivals, victory, "
            "special rules and orders of battle) and the general published histories of the 1866 war; the map's "
            "ground between the seed's named hexes, the TEC, the Rain Table and every counter value are our own "
            "and are not taken from any published game."),
        "designer_notes": DESIGNER_NOTES,
        "briefing": BRIEFING,
        "map": standard_map(mb, key),
        "tec": TEC,
        "sides": {
            "prussia": {
                "name": "Prussian Elbe, First and Second Armies", "adjective": "Prussian", "color": "#1f2f4f",
                "text_color": "#ffffff", "edge": "north", "entry_points": dict(ENTRY),
                "replacements": {"per_formation": 1},  # 17.4
                "loc": [ENTRY[x] for x in ("B", "C", "F", "G", "J", "K", "L")],
            },
            "austria": {
                "name": "Austrian North Army and the Saxon Army", "adjective": "Austrian", "color": "#e8e4d8",
                "text_color": "#1a1a1a", "edge": "south", "entry_points": {"N": LOC_N},
                "replacements": {"per_formation": 1},  # 17.2
                "loc": [LOC_N],
            },
        },
        "formations": oob.formations(),
        "units": units,
        "setup_areas": setup_areas(key),
        "setup": setup_entries(units, printed),
        "free_setup": {"austria": {
            "area": {"except": [
                {"side_of": {"from": "0101", "features": ["bistritz", "ford"]}, "except": [{"terrain": ["town"]}]},
                {"hexside": ["bistritz", "ford"], "except": [{"terrain": ["town"]}]},
                {"columns": [53, 55]},
                {"columns": [1, 10], "rows": [1, 2]},
            ], "text": "anywhere but west of or on the Bistritz (towns excepted), columns 53-55, and west of xx03 in "
                       "columns 01-10", "rule": "17.3"},
            "pinned": {"a-trains": TRAINS_HEX},
        }},
        "reinforcements": reinforcements(units),
        "hidden_movement": {
            "side": "austria", "formations": HIDEABLE, "shared": [["C", "R"]], "ma": 4, "march_ma": 9,
            "boxes": [{"name": name, "units": []} for name in ("A", "B", "C", "D")],
        },
        "turns": len(TURN_LABELS),
        "trt": trt,
        "first_player": "prussia",
        "victory": victory(key),
        "weather": {"start": "heavy", "table": RAIN_TABLE},
        "special_rules": {
            "needle_gun": {"side": "prussia"},
            "lethargy": {"side": "austria", "active": [1, 2, 3]},
            "open_order": {"side": "prussia"},
            "line": {"side": "austria", "ma": 2, "cf": 2},
            "modified_squares": {"charged": "austria", "attacked": "prussia"},
            "battery_positions": {"side": "austria", "exclude_formations": ["SX"]},
        },
    }
