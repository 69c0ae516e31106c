"""Build scenarios/horse-and-musket/hm-hochdorf.json: R16.22's designed learning battle for the Horse and Musket
rules (seed 003 on hexes, ruleset `horse-and-musket`), a 1758-style action of the Seven Years War.

Everything comes from R16.22 (map, terrain, orders of battle, generals, objectives); `build` also checks what R16.22
says it checked on the kernel's grid, so a slip in a hex id fails here rather than in play.
"""

from __future__ import annotations

from typing import Any

from server.rules.kernel.hexes import HexGrid

COLUMNS, ROWS, SHIFTED = 24, 16, "even"
PRUSSIA, AUSTRIA = "prussian", "austrian"

HILLS = ("1104", "1105", "1204", "1205", "1304", "1305")
TOWNS = {"1407": "Hochdorf", "1508": "Kleindorf"}
WOODS = ("0509", "0510", "0609", "0610", "0709")
CROPS = ("1610", "1710", "1711")
RIVER = tuple(f"20{r:02d}" for r in range(1, ROWS + 1))
BRIDGE, FORD = "2007", "2012"
FIELDWORK = "1205"
HEDGES = (("1006", "1007"), ("0907", "1006"), ("1006", "1107"))
OBJECTIVES = (("1104", "the Galgenberg"), ("1407", "Hochdorf"), ("1508", "Kleindorf"))

# (id, name, type, grade, extra fields, hex, formation)
PRUSSIAN_UNITS = (
    ("p-gren", "Grenadier battalion von Kleist", "co", "elite", {}, "1012", "line"),
    ("p-musk1", "Musketeers, Regiment Itzenplitz", "co", "average", {}, "1212", "line"),
    ("p-musk2", "Musketeers, Regiment Markgraf Karl", "co", "average", {}, "1412", "line"),
    ("p-fus", "Fusiliers, Regiment Prinz Heinrich", "co", "average", {}, "1214", "column"),
    ("p-jaeg", "Feldjäger zu Fuß", "li", "average", {"weapon": "rifle"}, "0712", "skirmish"),
    ("p-art", "12-pounder foot battery", "artillery", "average", {}, "1112", "deployed"),
    ("p-cuir", "Cuirassiers, Regiment Seydlitz", "hc", "elite", {}, "1713", "ranks"),
    ("p-drag", "Dragoons, Regiment Bayreuth", "hc", "average", {"dragoon": True}, "1613", "ranks"),
    ("p-huss", "Hussars, Regiment Zieten", "lc", "average", {"weapon": "carbine"}, "2213", "ranks"),
)
AUSTRIAN_UNITS = (
    ("a-gren", "Grenadier battalion Plunkett", "co", "elite", {}, "1205", "line"),
    ("a-fus1", "Fusiliers, Regiment Kaiser", "co", "average", {}, "1407", "line"),
    ("a-fus2", "Fusiliers, Regiment Harrach", "co", "average", {}, "1006", "line"),
    ("a-fus3", "Fusiliers, Regiment Wied", "co", "average", {}, "1203", "column"),
    ("a-grenz", "Grenzers, Karlstadt regiment", "li", "average", {}, "0807", "skirmish"),
    ("a-art", "12-pounder foot battery", "artillery", "average", {}, "1304", "deployed"),
    ("a-cuir", "Cuirassiers, Regiment Anhalt-Zerbst", "hc", "average", {}, "1704", "ranks"),
    ("a-drag", "Dragoons, Regiment Löwenstein", "hc", "average", {"dragoon": True}, "1804", "ranks"),
    ("a-huss", "Hussars, Regiment Nádasdy", "lc", "average", {"weapon": "carbine"}, "2204", "ranks"),
)
# (id, name, role, quality, hex, the units of his brigade)
PRUSSIAN_GENERALS = (
    ("p-cinc", "Lieutenant-General von Wedel", "c-in-c", "gifted", "1214", ()),
    ("p-inf", "Major-General von Manteuffel", "brigade", "competent", "1212",
     ("p-gren", "p-musk1", "p-musk2", "p-fus", "p-jaeg", "p-art")),
    ("p-cav", "Major-General von Driesen", "brigade", "competent", "1713", ("p-cuir", "p-drag", "p-huss")),
)
AUSTRIAN_GENERALS = (
    ("a-cinc", "Feldmarschall-Leutnant Graf Sincère", "c-in-c", "competent", "1203", ()),
    ("a-inf", "General-Major von Wolfersdorff", "brigade", "competent", "1205",
     ("a-gren", "a-fus1", "a-fus2", "a-fus3", "a-grenz", "a-art")),
    ("a-cav", "General-Major Graf Esterházy", "brigade", "incompetent", "1704", ("a-cuir", "a-drag", "a-huss")),
)


def _army(side: str, units: tuple[Any, ...], generals: tuple[Any, ...], facing: str
          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    brigade = {u: g[0] for g in generals for u in g[5]}
    out, setup = [], []
    for gid, name, role, quality, hex_, _ in generals:
        out.append({"id": gid, "side": side, "name": name, "type": "general", "quality": quality, "role": role})
        setup.append({"unit": gid, "hex": hex_})
    for uid, name, kind, grade, extra, hex_, formation in units:
        out.append({"id": uid, "side": side, "name": name, "type": kind, "grade": grade, **extra,
                    "brigade": brigade[uid]})
        setup.append({"unit": uid, "hex": hex_, "facing": facing, "formation": formation})
    return out, setup


def _check(grid: HexGrid) -> None:
    """What R16.22 says was checked on the kernel grid."""
    for a, b in HEDGES:
        assert grid.is_adjacent(a, b), (a, b)
    for units, generals in ((PRUSSIAN_UNITS, PRUSSIAN_GENERALS), (AUSTRIAN_UNITS, AUSTRIAN_GENERALS)):
        where = {u[0]: u[5] for u in units}
        chief = generals[0][4]
        for gid, _, role, _, ghex, members in generals:
            for u in members:
                assert grid.distance(ghex, where[u]) <= 5, (gid, u)
        assert [grid.distance(chief, g[4]) for g in generals[1:]] == [2, 5], generals
        art = next(u for u in units if u[2] == "artillery")
        assert any(grid.is_adjacent(art[5], u[5]) for u in units if u[2] == "co"), art
    gaps = [grid.distance(p[5], a[5]) for p in PRUSSIAN_UNITS for a in AUSTRIAN_UNITS]
    assert min(gaps) == 5 and max(gaps) == 15, (min(gaps), max(gaps))


def build() -> dict[str, Any]:
    grid = HexGrid(COLUMNS, ROWS, SHIFTED)
    _check(grid)
    hexes: dict[str, str] = {}
    for h in HILLS:
        hexes[h] = "hill"
    for h in TOWNS:
        hexes[h] = "town"
    for h in WOODS:
        hexes[h] = "woods"
    for h in CROPS:
        hexes[h] = "crops"
    for h in RIVER:
        hexes[h] = "river"
    hexes[BRIDGE], hexes[FORD] = "bridge", "ford"
    p_units, p_setup = _army(PRUSSIA, PRUSSIAN_UNITS, PRUSSIAN_GENERALS, "N")
    a_units, a_setup = _army(AUSTRIA, AUSTRIAN_UNITS, AUSTRIAN_GENERALS, "S")
    return {
        "id": "hm-hochdorf",
        "title": "Hochdorf, 1758",
        "subtitle": "A learning battle for the Horse and Musket rules",
        "ruleset": "horse-and-musket",
        "provenance": ("A fictional action in the manner of the Seven Years War, designed for Vedette by ruling R16.22 "
                       "to teach the Horse and Musket rules on hexes; not a published scenario."),
        "briefing": {
            "general": ("An Austrian corps holds the Galgenberg, its grenadiers behind a fieldwork and a battery on "
                        "the hill, with the villages of Hochdorf and Kleindorf on its right. A Prussian column comes "
                        "up from the south to throw it off before nightfall. The Steinbach, fordable at one place "
                        "and bridged at another, covers the eastern flank."),
            PRUSSIA: ("Take the Galgenberg (1104), Hochdorf (1407) and Kleindorf (1508), or break the Austrian army: "
                      "5 units lost breaks an army. Your foot changes formation without losing pace (AL.P.1) and you "
                      "add 1 to every initiative roll (AL.P.2)."),
            AUSTRIA: ("Hold the hill and the two villages for 8 rounds. Your cavalry brigadier is incompetent: keep "
                      "the C-in-C's eye on him, or let the horse sit still."),
        },
        "map": {
            "columns": COLUMNS, "rows": ROWS, "shifted": SHIFTED, "default_terrain": "clear",
            "hexes": dict(sorted(hexes.items())),
            "secondary": {FIELDWORK: ["fieldwork"]},
            "elevation": {h: 1 for h in HILLS},
            "hexsides": [{"hexes": [a, b], "features": ["hedge"]} for a, b in HEDGES],
        },
        "tec": {
            "terrain": {
                "clear": {"name": "Clear", "color": "#e6e0c0"},
                "hill": {"name": "Hill (elevation 1)", "color": "#d2b48c", "hill": True},
                "crops": {"name": "Crops (difficult)", "color": "#e3d27a", "pattern": "crops"},
                "woods": {"name": "Woods (difficult, cover, blocks fire)", "color": "#7fa069", "pattern": "woods"},
                "town": {"name": "Town (infantry only, cover, all-round front)", "color": "#b9a89a",
                         "pattern": "town"},
                "river": {"name": "River (entering is a whole move)", "color": "#8fb8de", "pattern": "water"},
                "ford": {"name": "Ford (difficult)", "color": "#a9c9e3"},
                "bridge": {"name": "Bridge", "color": "#c8b89a"},
            },
            "secondary": {"fieldwork": {"name": "Fieldwork section (infantry only, +2d6 to defend)",
                                        "color": "#8b6b4a"}},
            "hexsides": {"hedge": {"name": "Hedge (difficult to cross, cover)", "color": "#3f6b2a"}},
        },
        "sides": {
            PRUSSIA: {"name": "Prussians", "adjective": "Prussian", "color": "#1f3a68", "text_color": "#ffffff",
                      "edge": "south", "initiative": 1, "discipline": True},
            AUSTRIA: {"name": "Austrians", "adjective": "Austrian", "color": "#f2f2ea", "text_color": "#1a1a1a",
                      "edge": "north", "initiative": 0},
        },
        "units": p_units + a_units,
        "setup": p_setup + a_setup,
        "turns": 8,
        "victory": {
            "description": ("R16.18: an army that has lost 5 of its 9 units at the end of a player turn breaks and "
                            "loses. Otherwise, after round 8, the side with more victory points wins (equal is a "
                            "draw): 1 per enemy unit lost, +1 per enemy gun captured, 2 per enemy colour held, and "
                            "2 for each of the Galgenberg, Hochdorf and Kleindorf to the side that last had a unit "
                            "in it (all Austrian at the start)."),
            "objectives": [{"hex": h, "name": n, "points": 2, "owner": AUSTRIA} for h, n in OBJECTIVES],
        },
    }
