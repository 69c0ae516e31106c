"""The `koniggratz` scenario (issue 40, docs/scenarios.md "Königgrätz, 3 July 1866"): seed 002's whole battle is
generated, validates, and has every hex the seed names where it names it (17.2, 17.4, 18.1, 19.6), 17.2's set-up
areas and 17.3's free set-up, 17.4's arrivals with their dice, 19.8's boxes, 18.x's victory and 21.0's counters by
the stated method (rulings S79-S89)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from server.rules import Game, parse_scenario
from server.rules.kernel.hexes import hexside_key
from server.rules.kernel.state import STATUS_HIDDEN, STATUS_MAP
from server.rules.standard.scenario import Kind, StandardScenario
from server.rules.standard.setup import areas_in_play

from .play import refused
from .shipped import generated, scenario_fixtures

ROOT = Path(__file__).resolve().parents[3]
PATH = ROOT / "scenarios" / "standard" / "koniggratz.json"
SEED = "koniggratz-test-seed-0000"
# 17.2's formation names and the ids the scenario gives them (S80)
FORMATION_OF_17_2 = {"1": "I", "2": "II", "3": "III", "4": "IV", "6": "VI", "8": "VIII", "10": "X", "S": "SX",
                     "C": "C", "R": "R", "E": "1L", "T": "2L", "P": "P"}
NAMED_TOWNS = {"3416": "Chlum", "2420": "Rosnitz", "3624": "Nedelist", "3724": "Nedelist", "3725": "Nedelist",
               "4610": "Benatek", "2824": "Sweti", "2721": "Wschestar", "2722": "Wschestar", "0608": "Hradek",
               "3604": "Sadowa", "3704": "Sadowa", "3705": "Sadowa"}


data, sc = scenario_fixtures(PATH)


def _west_of_bistritz(sc: StandardScenario) -> set[str]:
    """The hexes reached from 0101 without crossing the Bistritz (its fords included)."""
    seen, todo = {"0101"}, ["0101"]
    while todo:
        h = todo.pop()
        for n in sc.grid.neighbors(h):
            if n not in seen and not sc.hexsides.get(hexside_key(h, n), frozenset()) & {"bistritz", "ford"}:
                seen.add(n)
                todo.append(n)
    return seen


def _new(sc: StandardScenario, **options: Any) -> Game:
    return Game.new(sc, SEED, options=options or None)


def test_the_file_is_the_generators_output(data: dict[str, Any]) -> None:
    assert generated("koniggratz") == data, "stale: run scenarios/tools/build_scenarios.py"


def test_17_1_it_parses_by_the_standard_rules_ten_turns_on_the_seeds_grid(data: dict[str, Any],
                                                                          sc: StandardScenario) -> None:
    assert isinstance(parse_scenario(data, str(PATH)), StandardScenario)
    assert (sc.grid.columns, sc.grid.rows) == (55, 30)  # "columns up to 55"; 2030 is on the last row (S79)
    assert sc.turns == 10 and sc.first_player == "prussia"
    assert [b.light for b in sc.trt] == ["day"] * 9 + ["twilight"]  # 16.2: dawn through dusk (S88)


# --- the map: every hex the seed names (S79, S84, S85) -------------------------------------------------------------
def test_17_2_the_named_towns_stand_on_the_seeds_hexes(sc: StandardScenario) -> None:
    for h, name in NAMED_TOWNS.items():
        assert "town" in sc.hex_secondary.get(h, ()), (h, name)
    raw = json.loads(PATH.read_text("utf-8"))["map"]["labels"]
    named = {lab["text"]: lab["hex"] for lab in raw}
    for h, name in NAMED_TOWNS.items():
        assert named[name] in [k for k, v in NAMED_TOWNS.items() if v == name], name
    for name in ("Lipa", "Problus", "Prim", "Swiepwald", "Holawald", "Bistritz"):
        assert name in named, name


def test_s79_the_compass_the_bistritz_divides_the_map_west_to_east(sc: StandardScenario) -> None:
    """17.2/17.3's "west of xx03", "east of the Bistritz": rows run west to east, so the river lies across the rows
    near the top, Sadowa and Benatek just east of it, Nechanitz and Dohalitz towns west of it (17.3)."""
    west = _west_of_bistritz(sc)
    assert 0 < len(west) < len(sc.grid.all_hexes()) // 4
    for h in ("3604", "3704", "3705", "4610", "0608", "3416", "2030"):
        assert h not in west, h
    assert {"0706", "3303"} <= west and all("town" in sc.hex_secondary.get(h, ()) for h in ("0706", "3303"))
    assert all(f"{c:02d}{r:02d}" in west for c in range(1, 11) for r in (1, 2))  # 17.3: west of xx03
    fords = [k for k, fs in sc.hexsides.items() if "ford" in fs]
    assert len(fords) == 3 and sc.hexside_features["ford"].trains


def test_s85_entry_hexes_a_to_n_sit_on_the_edges_their_armies_came_from(sc: StandardScenario) -> None:
    points = sc.sides["prussia"].entry_points
    assert sorted(points) == list("ABCDEFGHIJKLM")
    for letter, h in points.items():
        c, r = int(h[:2]), int(h[2:])
        if letter <= "D":  # the Elbe Army: west edge, columns 01-10 (17.3 keeps them clear)
            assert r == 1 and 1 <= c <= 10, letter
        elif letter <= "H":  # First Army: west edge, by the Bistritz crossings
            assert r == 1 and 25 <= c <= 52, letter
        else:  # Second Army: north edge, columns 53-55 kept clear by 17.3
            assert c == 55, letter
    assert sc.sides["austria"].entry_points == {"N": "2030"} and sc.sides["austria"].loc == ("2030",)  # 17.2, 18.1
    assert set(sc.sides["prussia"].loc) == {points[x] for x in "BCFGJKL"}  # 17.4's LOC


def test_19_6_s84_the_fieldworks_run_from_2712_to_3723_with_battery_positions(data: dict[str, Any],
                                                                             sc: StandardScenario) -> None:
    works = data["victory"]["conditions"][1]["when"]["all"][2]["no_enemy_in"]["hexes"]
    assert works[0] == "2712" and works[-1] == "3723" and {"3514", "3718"} <= set(works)
    assert all(sc.grid.is_adjacent(a, b) for a, b in itertools.pairwise(works))  # "the contiguous line of hexes"
    protected = {k for k, fs in sc.hexsides.items() if "fieldworks" in fs}
    assert all(any(set(k) & {h} for k in protected) for h in works)  # "with at least one protected hexside"
    assert all(set(k) & set(works) for k in protected) and sc.hexside_features["fieldworks"].protected
    battery = sorted(h for h, ts in sc.hex_secondary.items() if "battery_position" in ts)
    assert len(battery) == 7 and set(battery) <= set(works)
    assert sc.special.battery_positions is not None and sc.special.battery_positions.side == "austria"
    assert sc.special.battery_positions.exclude_formations == frozenset({"SX"})  # "Austrian (not Saxon)"


def test_2_2_19_2_woods_hills_ridges_roads_and_streams(sc: StandardScenario) -> None:
    terrain = Counter(sc.hex_terrain.values())
    assert terrain["woods"] >= 15 and terrain["light_woods"] >= 20 and terrain["hill"] >= 40
    for h in ("4312", "3606"):  # the Swiepwald, the Holawald
        assert sc.hex_terrain.get(h) in ("woods", "light_woods"), h
    assert len(sc.ridges) >= 10 and sc.hexside_features["ridge"].ridge
    assert {k for k, fs in sc.hexsides.items() if "stream" in fs}  # the Trotina
    chaussee = json.loads(PATH.read_text("utf-8"))["map"]["roads"][0]
    assert chaussee["path"][0] == "3601" and "3604" in chaussee["path"] and chaussee["path"][-1] == "2030"
    assert sc.trail_links and sc.road_links


# --- 17.2 and 17.3: the Austrian set-up -----------------------------------------------------------------------------
def test_17_2_every_austrian_unit_sets_up_in_its_formations_area(sc: StandardScenario) -> None:
    fixed = {p.unit: p.hex for p in sc.setup}
    assert fixed == {"a-hq": "3416", "benedek": "3416", "a-trains": "2722"}  # Benedek, the HQ, the trains
    austrian = [u for u in sc.units.values() if u.side == "austria"]
    assert len(austrian) == len(fixed) + len(sc.areas)
    for u in austrian:
        if u.id in fixed:
            continue
        ap = sc.areas[u.id]
        assert ap.printed in ap.area.hexes, u.id
        if u.kind is Kind.LEADER:
            assert ap.area.with_span, u.id
        else:
            assert ap.area.name == u.formation, u.id


@pytest.mark.parametrize(("formation", "of", "n"), [("I", "2420", 3), ("VI", "2824", 3), ("VIII", "1614", 2),
                                                    ("C", "2721", 3), ("R", "2721", 3), ("1L", "0608", 5),
                                                    ("2L", "3725", 3)])
def test_17_2_s58_within_n_hexes(sc: StandardScenario, formation: str, of: str, n: int) -> None:
    area = next(ap.area for ap in sc.areas.values() if ap.area.name == formation)
    assert area.hexes == {h for h in sc.grid.all_hexes() if sc.grid.distance(of, h) <= n}


def test_17_2_the_regional_areas(data: dict[str, Any], sc: StandardScenario) -> None:
    area = {ap.area.name: ap.area for ap in sc.areas.values()}
    west = _west_of_bistritz(sc)
    works = data["victory"]["conditions"][1]["when"]["all"][2]["no_enemy_in"]["hexes"]
    assert area["X"].hexes == {h for h in sc.grid.all_hexes()
                               if 24 <= int(h[:2]) <= 32 and int(h[2:]) <= 12 and h not in west}
    assert area["SX"].hexes == {h for h in sc.grid.all_hexes() if 10 <= int(h[:2]) <= 23 and 3 <= int(h[2:]) <= 13}
    assert area["P"].hexes == {"3604", "3704", "3705"}
    four = works[works.index("3514"):works.index("3718") + 1]
    assert area["IV"].hexes == set(four) | {n for h in four for n in sc.grid.neighbors(h)}
    beyond = works[works.index("3718") + 1:]  # S83: Formation 2's works go on from 3718 to 3723, and Nedelist
    assert area["II"].hexes == set(beyond) | {n for h in beyond for n in sc.grid.neighbors(h)} | {"3624", "3724",
                                                                                                   "3725"}
    three = area["III"]
    assert three.hexes == {h for h in sc.grid.all_hexes() if sc.grid.distance("3709", h) <= 5} | {"4610"}
    benatek = next(p for p in three.parts if p.hexes == {"4610"})
    assert benatek.max_units == 2 and benatek.kinds == {"infantry", "battalion"}
    assert sorted(u for u, ap in sc.areas.items() if ap.printed == "4610") == ["a-ir35", "a-ir72"]


def test_17_2_the_historical_set_up_places_every_unit_and_leader_legally(sc: StandardScenario) -> None:
    game = _new(sc)
    assert (game.state.phase, game.state.active) == ("setup", "austria")  # S57: Austria sets up first
    game.submit("austria", {"type": "place_printed"})
    game.submit("austria", {"type": "end_phase"})  # S58: stacking (5.2) and the leaders' span judged here
    assert (game.state.turn, game.state.phase, game.state.active) == (1, "movement", "prussia")
    placed = [u for u, s in game.state.units.items() if s.status == STATUS_MAP]
    assert sorted(placed) == sorted(u for u in sc.units if sc.units[u].side == "austria")
    assert not [u for u in sc.units if sc.units[u].side == "prussia" and game.state.units[u].on_map]  # 17.4


def test_17_3_s59_the_free_set_up(sc: StandardScenario) -> None:
    fs = sc.free_setup["austria"]
    assert dict(fs.pinned) == {"a-trains": "2722"}
    west = _west_of_bistritz(sc)
    towns = {h for h, ts in sc.hex_secondary.items() if "town" in ts}
    banks = {h for k, fs_ in sc.hexsides.items() if fs_ & {"bistritz", "ford"} for h in k}
    allowed = fs.area.hexes
    assert not {h for h in allowed if int(h[:2]) >= 53}  # columns 53-55
    assert not {h for h in allowed if int(h[:2]) <= 10 and int(h[2:]) <= 2}  # west of xx03 in columns 01-10
    assert (west | banks) & allowed == (west | banks) & towns - {h for h in towns if int(h[:2]) >= 53
                                                                 or (int(h[:2]) <= 10 and int(h[2:]) <= 2)}
    assert "0706" in allowed and "3416" in allowed
    game = _new(sc, free_setup=True)
    in_play = areas_in_play(sc, game.state.options)
    assert "a-trains" not in in_play and in_play["a-ir30"] is fs.area


# --- 17.4: the Prussian arrivals -------------------------------------------------------------------------------------
def _arrival(sc: StandardScenario, uid: str) -> tuple[int, tuple[str, ...], str, frozenset[int], bool, int | None]:
    a = sc.arrivals[uid]
    letters = {h: x for x, h in sc.sides["prussia"].entry_points.items()}
    return a.turn, tuple(letters[h] for h in a.hexes), a.mode, a.roll, a.repeat, a.else_turn


@pytest.mark.parametrize(("unit", "expected"), [
    ("p-hq-elbe", (3, ("B", "C"), "any", frozenset({1, 2}), True, None)),  # roll each turn from T3: 1-2
    ("p-14-g1", (1, ("B", "C"), "any", frozenset(), False, None)),  # the advance guard: AG/14
    ("p-16-g1", (1, ("B", "C"), "any", frozenset(), False, None)),  # 33 Fu/16
    ("p-e-cav3", (1, ("B", "C"), "any", frozenset(), False, None)),  # Lt Cav
    ("p-e-horse", (1, ("B", "C"), "any", frozenset(), False, None)),  # Horse Art
    ("p-14-g2", (2, ("B", "C"), "any", frozenset(), False, None)),
    ("p-15-g1", (3, ("A", "B", "C", "D"), "any", frozenset(), False, None)),
    ("p-16-g2", (4, ("A", "B", "C", "D"), "any", frozenset(), False, None)),
    ("p-e-art1", (5, ("A", "B", "C", "D"), "any", frozenset(), False, None)),
    ("p-hq-first", (1, ("G",), "any", frozenset(), False, None)),
    ("p-3-g1", (1, ("E",), "any", frozenset(), False, None)),
    ("p-4-g1", (1, ("F",), "any", frozenset(), False, None)),
    ("p-5-g1", (3, ("F", "G"), "any", frozenset(), False, None)),
    ("p-6-art", (3, ("F", "G"), "any", frozenset(), False, None)),
    ("p-7-g1", (1, ("H",), "any", frozenset(), False, None)),
    ("p-8-g1", (1, ("G",), "any", frozenset(), False, None)),
    ("p-f-cav1", (4, ("E",), "any", frozenset(), False, None)),
    ("p-f-art1", (4, ("F", "G"), "any", frozenset(), False, None)),
    ("p-hq-second", (5, ("J",), "any", frozenset(), False, None)),
    ("p-1g-g1", (4, ("J",), "any", frozenset(), False, None)),
    ("p-2g-g1", (5, ("J",), "any", frozenset(), False, None)),
    ("p-1-g1", (6, ("I", "J"), "one", frozenset({1, 2, 3}), False, 7)),  # I OR (not and/or) J
    ("p-2-art", (6, ("I", "J"), "one", frozenset({1, 2, 3}), False, 7)),
    ("p-9-g1", (7, ("K", "L"), "any", frozenset(), False, None)),
    ("p-10-g1", (7, ("K", "L"), "any", frozenset(), False, None)),
    ("p-11-g1", (5, ("L",), "any", frozenset(), False, None)),
    ("p-12-g1", (5, ("M",), "any", frozenset({1, 2, 3}), False, 6)),
    ("p-s-cav1", (5, ("J",), "any", frozenset({1, 2}), True, None)),
    ("p-s-art1", (6, ("J",), "any", frozenset(), False, None)),
])
def test_17_4_each_formation_arrives_when_and_where_17_4_says(sc: StandardScenario, unit: str,
                                                              expected: tuple[Any, ...]) -> None:
    assert _arrival(sc, unit) == expected


def test_17_4_every_prussian_unit_arrives_and_formations_keep_together(sc: StandardScenario) -> None:
    prussian = {u for u in sc.units if sc.units[u].side == "prussia"}
    assert set(sc.arrivals) == prussian and not [p for p in sc.setup if p.unit in prussian]
    assert sc.arrivals["p-1-g1"].group == sc.arrivals["p-2-g1"].group  # "Formations 1-2 ... OR": one group
    for uid, u in sc.units.items():
        if u.side == "prussia" and u.kind is Kind.LEADER:
            assert sc.arrivals[uid].with_span, uid  # "All Prussian leaders arrive with any one unit in the span"


def test_17_4_s63_three_armies_each_with_its_hq_and_no_trains(sc: StandardScenario) -> None:
    armies = Counter(f.army for f in sc.formations.values() if f.side == "prussia")
    assert armies == {"elbe": 4, "first": 7, "second": 8}  # 14, 15, 16, E; 3-8, F; G, 1, 2, 9-12, S
    hqs = {u.army for u in sc.units.values() if u.side == "prussia" and u.kind is Kind.HQ}
    assert hqs == {"elbe", "first", "second"}
    assert not [u for u in sc.units.values() if u.side == "prussia" and u.kind is Kind.TRAINS]
    for cdr, army in (("p-elbe-cdr", "elbe"), ("p-first-cdr", "first"), ("p-second-cdr", "second")):
        span = sc.units[cdr].span
        assert span and {sc.formations[f].army for f in span} == {army}, cdr
    assert sc.sides["prussia"].per_formation == 1 and sc.sides["austria"].per_formation == 1  # replacements


def test_17_4_s61_the_elbe_hq_is_rolled_for_from_turn_3(sc: StandardScenario) -> None:
    game = _new(sc)
    game.submit("austria", {"type": "place_printed"})
    events: list[dict[str, Any]] = game.submit("austria", {"type": "end_phase"})
    while game.state.turn < 4 and not game.is_over:
        events += game.submit(game.awaiting, {"type": "end_phase"})
    rolls = [e for e in events if e["type"] == "arrival" and "p-hq-elbe" in e.get("units", [e.get("unit")])]
    assert rolls and {e["turn"] for e in rolls} == {3}, rolls


# --- 19.x ------------------------------------------------------------------------------------------------------------
def test_19_8_s80_s86_four_boxes_for_formations_1_6_8_c_r(sc: StandardScenario) -> None:
    hm = sc.hidden_movement
    assert hm is not None and hm.owner == "austria"
    assert set(hm.formations) == {FORMATION_OF_17_2[f] for f in ("1", "6", "8", "C", "R")}
    assert [set(g) for g in hm.shared] == [{"C", "R"}]  # "C and R units may be in the same one"
    assert set(hm.names) == {"A", "B", "C", "D"} and not hm.boxes  # filled at the set-up (19.8 B, S76)
    assert (hm.ma, hm.march_ma) == (4, 9)


def test_19_8_B_the_set_up_fills_a_box_with_a_hideable_formation_only(sc: StandardScenario) -> None:
    game = _new(sc)
    game.submit("austria", {"type": "place_printed"})
    first = sorted(u for u, d in sc.units.items() if d.formation == "I")  # I Corps, its leader too
    game.submit("austria", {"type": "hm_box", "box": "A", "units": first})
    assert all(game.state.units[u].status == STATUS_HIDDEN for u in first)
    two = next(u for u, d in sc.units.items() if d.formation == "II" and d.kind is Kind.INFANTRY)
    assert "19.8" in str(refused(game, "austria", {"type": "hm_box", "box": "B", "units": [two]}))
    mixed = sorted(u for u, d in sc.units.items() if d.formation in ("C", "R"))
    game.submit("austria", {"type": "hm_box", "box": "D", "units": mixed})  # C and R share a box
    taken = {s.hex for s in game.state.units.values() if s.status == STATUS_MAP}
    free = sorted(h for h in sc.grid.all_hexes() if h not in taken)
    a = [h for h in free if sc.grid.distance("2420", h) <= 2][:2]
    d = [h for h in free if sc.grid.distance("2721", h) <= 2 and sc.grid.distance("2420", h) > 3][:2]
    game.submit("austria", {"type": "hm_markers", "box": "A", "hexes": a, "real": 2})
    game.submit("austria", {"type": "hm_markers", "box": "D", "hexes": d, "real": 1})
    game.submit("austria", {"type": "end_phase"})
    markers = game.view("prussia")["hidden"]["markers"]
    assert sorted(m["hex"] for m in markers) == sorted(a + d)
    assert all("real" not in m for m in markers)
    assert not [u for u in first + mixed if u in game.view("prussia")["units"]]  # 19.8 A


def test_19_x_every_special_rule_is_on_with_turn_1_in_heavy_rain(sc: StandardScenario) -> None:
    assert sc.weather is not None and sc.weather.start == "heavy"  # 17.1
    assert sc.weather.table["heavy"][0] == "light" and len(sc.weather.table) == 3  # S50's Rain Table
    sp = sc.special
    assert sp.needle_gun is not None and sp.needle_gun.side == "prussia"
    assert sp.open_order is not None and sp.open_order.side == "prussia"
    assert sp.lethargy is not None and sp.lethargy.side == "austria" and sp.lethargy.active == frozenset({1, 2, 3})
    assert sp.line is not None and sp.line.side == "austria"
    assert sp.modified_squares is not None
    assert (sp.modified_squares.charged, sp.modified_squares.attacked) == ("austria", "prussia")


# --- 18.x ------------------------------------------------------------------------------------------------------------
def test_18_victory_2030_trains_and_fieldworks_then_points_with_the_under_10_draw(data: dict[str, Any],
                                                                                  sc: StandardScenario) -> None:
    v = data["victory"]
    prussia, austria = v["conditions"]
    assert (prussia["side"], prussia["rule"]) == ("prussia", "18.1")
    assert prussia["when"] == {"any": [{"last_to_enter": {"hex": "2030"}}, {"artillery_in_range": {"hex": "2030"}}]}
    assert (austria["side"], austria["rule"]) == ("austria", "18.2")
    tests = austria["when"]["all"]
    assert tests[:2] == [{"enemy_not_won": {}}, {"trains_unmoved": {}}]
    assert v["casualty_points"] == {"destroyed": 1, "leader_casualty": 1, "captured": 2, "hq_captured": 4,
                                    "threshold": 10}
    assert not v.get("objectives") and not v.get("sudden_death")


def test_18_2_an_austrian_win_when_nothing_happens(sc: StandardScenario) -> None:
    game = _new(sc)
    game.submit("austria", {"type": "place_printed"})
    game.submit("austria", {"type": "end_phase"})
    while not game.is_over:
        game.submit(game.awaiting, {"type": "end_phase"})
    assert game.result is not None and game.result["winner"] == "austria"
    assert game.result["decided_by"] == "condition"


# --- 21.0: the counters by the stated method (koniggratz_oob) -------------------------------------------------------
def test_21_0_every_austrian_regiment_and_corps(sc: StandardScenario) -> None:
    regiments = sorted(int(u.name.split()[1]) for u in sc.units.values()
                       if u.side == "austria" and u.name.startswith("IR "))
    assert len(regiments) == 56 and len(set(regiments)) == 56 and 38 in regiments  # S87: Leiningen's 33 & 38
    for corps in ("I", "II", "III", "IV", "VI", "VIII", "X"):
        kinds = Counter(u.kind for u in sc.units.values() if u.formation == corps)
        assert kinds[Kind.INFANTRY] == 9 and kinds[Kind.ARTILLERY] == 3 and kinds[Kind.CAVALRY] == 1, corps
        assert kinds[Kind.LEADER] == 1, corps
        assert set(sc.formations[corps].sub_formations) == {f"{corps}.{k}" for k in range(1, 5)}  # 19.1
    saxon = Counter(u.kind for u in sc.units.values() if u.formation == "SX")
    assert saxon[Kind.INFANTRY] == 4 and saxon[Kind.BATTALION] == 4  # four brigades, their Jäger battalions


def test_21_0_the_stated_method_gives_the_swiepwalds_values(sc: StandardScenario) -> None:
    """IV Corps 24,000 men in 28 battalions: 857 a battalion, a regiment 2,571 men / 650 = CF 4 (as the Swiepwald);
    4th Corps' 7th Division: 954 a battalion, a group of four x 1.25 / 650 = CF 7; worn corps MR 3 (VI, VIII, X)."""
    u = sc.units
    full = u["a-ir12"].full
    assert full is not None and (full.cf, full.mr, full.ma) == (4, 4, 4)
    p7 = u["p-7-g1"].full
    assert p7 is not None and (p7.cf, p7.mr) == (7, 4)
    v9 = u["a-ir9"].full
    assert v9 is not None and v9.mr == 3
    gd = u["p-1g-g1"].full
    assert gd is not None and gd.mr == 5
    assert u["a-r-art1"].full is not None and u["a-r-art1"].full.attack == 9  # 128 guns in five counters
    infantry = [d for d in u.values() if d.kind is Kind.INFANTRY and d.full is not None]
    assert min(d.full.cf for d in infantry if d.side == "prussia" and d.formation not in ("9", "12")) \
        > max(d.full.cf for d in infantry if d.side == "austria" and not d.name.endswith("Jäger"))  # 19.9


def test_the_service_offers_it_in_the_lobby() -> None:
    from server.scenarios import load_scenarios

    registry = load_scenarios(ROOT / "scenarios")
    entry = registry.get("koniggratz")
    assert entry is not None and entry.summary["ruleset"] == "standard"
