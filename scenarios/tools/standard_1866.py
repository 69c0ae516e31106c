"""The Swiepwald, 3 July 1866: Fransecky's 7th Division against the Austrian IV Corps at Königgrätz.

A small Standard rules scenario (issue 37's proving ground for Königgrätz's exclusive rules, seed 002 16-21).
Sketch coordinates are metres, x east and y north, with the middle of the Swiepwald (the Maslowed wood) at
(0, 0).  The ground is drawn from the sketch maps of the general histories of the battle; distances are
approximate and compressed where the map must hold Benatek, the Bistritz, Cistowes, the Maslowed heights and
Horenowes on 20 x 15 hexes (docs/scenarios.md, "The Swiepwald").

The counters are computed from the strengths written beside them (seed 002 21.0's corps totals divided by
their battalions) by the rules in the designer's notes below, so each derivation can be read here.
"""

from __future__ import annotations

from typing import Any

from mapkit import MapBuilder, cf_from_guns, cf_from_men

COLS, ROWS = 20, 15
HEX_M = 322.0  # 352 yards flat to flat (seed 002 1.2)
ORIGIN = "1006"  # the middle of the Swiepwald

# Strengths: seed 002 21.0's corps totals divided by their battalions (3 July, after the June losses).
AUSTRIAN_BN = 24_000 // 28  # IV Corps: 24,000 men in 28 battalions -> 857 a battalion
PRUSSIAN_BN = 21_000 // 22  # 4th Corps: 21,000 men in 22 battalions -> 954 a battalion
MEN_PER_CF = 650  # infantry men per combat factor (both armies)
NEEDLE_GUN = 1.25  # 19.9: "a higher rate of fire (accounted for in generally higher combat factors)"
RIFLES = 1  # a Jäger battalion's rifles and skirmishing: +1 CF
SABRES_PER_CF = 300  # cavalry: a sabre counts twice a musket (the tutorial's scale)
GUNS_PER_AF = 3  # artillery: one attack factor per three guns

# --- the ground ----------------------------------------------------------------------------------
BISTRITZ = [(-1950, 1900), (-2000, 900), (-2150, -300), (-2050, -1500), (-2250, -3100)]
SWIEPWALD = [(-900, 450), (-300, 700), (400, 650), (950, 250), (850, -350), (200, -650), (-500, -550), (-950, -150)]
SWIEPWALD_EDGE = [(-1200, 700), (-300, 1000), (500, 950), (1150, 450), (1100, -550), (300, -900), (-600, -800),
                  (-1250, -300)]
MASLOWED_HEIGHTS = [(1150, 900), (2200, 900), (2300, -1700), (1250, -1700)]
HORENOWES_HILL = [(1700, 1000), (2300, 1700), (2900, 1700), (2900, 900)]
LIPA_WOOD = [(-400, -1900), (500, -1800), (700, -2300), (-300, -2400)]
RIDGE = [(1250, 1250), (1250, 300), (1250, -600), (1250, -1800)]  # 19.2: the west face of the Maslowed heights
BENATEK_ROAD = [(-2650, 850), (-1300, 900), (-400, 1150), (800, 1150), (2300, 1350), (2900, 1300)]
CHAUSSEE = [(-2650, -1800), (-1500, -1950), (-400, -2300), (400, -2650), (1400, -2900)]
MASLOWED_ROAD = [(-900, -1000), (300, -1100), (1500, -750), (2900, -800)]
CISTOWES_LANE = [(-1300, 900), (-1250, 0), (-900, -1000), (-400, -2300)]
HORENOWES_LANE = [(1500, -750), (1800, 300), (2300, 1350)]
WOOD_TRACK = [(-1300, 250), (-300, 150), (700, 0), (1500, -750)]

TURN_LABELS = ["0800", "0830", "0900", "0930", "1000", "1030", "1100", "1130"]


def build_map() -> tuple[MapBuilder, dict[str, Any]]:
    mb = MapBuilder(COLS, ROWS, HEX_M, ORIGIN)
    key: dict[str, Any] = {}
    # Woods: the Swiepwald's thick core, its thinner fringe (19.7's light woods), the copse by Lipa.
    mb.polygon(SWIEPWALD_EDGE, "light_woods")
    mb.polygon(SWIEPWALD, "woods")
    mb.polygon(LIPA_WOOD, "light_woods")
    # Heights: Maslowed (the Austrian gun line) and Horenowes.
    mb.polygon(MASLOWED_HEIGHTS, "hill", over=["clear"])
    mb.polygon(HORENOWES_HILL, "hill", over=["clear"])
    # 19.2: ridge hexsides along the heights' west face.
    mb.line_feature(RIDGE, "ridge")
    # 19.6: the battery position on the Maslowed heights, its protected hexsides facing the wood.
    battery = [mb.at(1400, 100), mb.at(1400, -250)]
    works: list[tuple[str, str]] = []
    for h in battery:
        for n in mb.neighbors(h):
            if mb.center(n)[0] < mb.center(h)[0] - 1:  # the west-facing sides
                mb.remove_side(h, n, "ridge")
                mb.add_side(h, n, "fieldworks")
                works.append((h, n))
    key.update(battery=battery, works=works)
    # The Bistritz: a stream, swollen by the night's rain.
    mb.line_feature(BISTRITZ, "stream")
    # Roads and lanes (a road over the stream is its bridge: 4.6 moves along the path).
    benatek_road = mb.road("Benatek road (from Sowetitz to Horenowes)", "road", BENATEK_ROAD)
    chaussee = mb.road("Sadowa-Königgrätz chaussée", "road", CHAUSSEE)
    maslowed_road = mb.road("Cistowes-Maslowed-Nedelist road", "road", MASLOWED_ROAD)
    mb.road("Benatek-Cistowes-Lipa lane", "trail", CISTOWES_LANE)
    mb.road("Maslowed-Horenowes lane", "trail", HORENOWES_LANE)
    mb.road("Forest track through the Swiepwald", "trail", WOOD_TRACK)
    villages = {
        "benatek": mb.at(-1300, 900), "cistowes": mb.at(-900, -1000), "maslowed": mb.at(1500, -750),
        "horenowes": mb.at(2300, 1350), "lipa": mb.at(-400, -2300),
    }
    key.update(villages)
    key.update(entry_north=benatek_road[0], entry_south=chaussee[0], austrian_east=maslowed_road[-1],
               austrian_chaussee=chaussee[-1], austrian_north=benatek_road[-1], swiepwald=mb.at(0, 0))
    mb.label(villages["benatek"], "Benatek")
    mb.label(villages["cistowes"], "Cistowes")
    mb.label(villages["maslowed"], "Maslowed")
    mb.label(villages["horenowes"], "Horenowes")
    mb.label(villages["lipa"], "Lipa")
    mb.label(mb.at(0, 0), "Swiepwald")
    mb.label(mb.at(-2450, 300), "Bistritz")
    mb.label(battery[0], "Battery position")
    mb.label(benatek_road[0], "to Sowetitz")
    mb.label(chaussee[0], "to Sadowa")
    mb.label(chaussee[-1], "to Königgrätz")
    mb.label(maslowed_road[-1], "to Nedelist")
    return mb, key


def standard_map(mb: MapBuilder, key: dict[str, Any]) -> dict[str, Any]:
    """mapkit's map in the Standard format: roads and trails apart (4.6), villages and the battery position as
    secondary terrain (2.2)."""
    m = mb.to_json()
    roads = m.pop("roads")
    m["roads"] = [{"name": r["name"], "path": r["path"]} for r in roads if r["kind"] == "road"]
    m["trails"] = [{"name": r["name"], "path": r["path"]} for r in roads if r["kind"] == "trail"]
    secondary: dict[str, list[str]] = {}
    for name in ("benatek", "cistowes", "maslowed", "horenowes", "lipa"):
        secondary.setdefault(key[name], []).append("village")
    for h in key["battery"]:
        secondary.setdefault(h, []).append("battery_position")
    m["secondary"] = dict(sorted(secondary.items()))
    labels = m.pop("labels")
    m["labels"] = labels
    return m


TEC: dict[str, Any] = {
    "terrain": {
        "clear": {"name": "Clear", "color": "#e3dcb8", "move": {"infantry": 1, "cavalry": 1, "artillery": 1},
                  "clear": True, "trains": True, "no_charge": []},
        "light_woods": {
            "name": "Light woods", "color": "#a9c48c", "pattern": "trees",
            "move": {"infantry": 1, "cavalry": 2, "artillery": 2},
            "halves_attack_into": ["cavalry"], "blocks_los": True, "no_charge": ["cavalry"],
            "line": True,  # 19.7 A: a line may form here (S64)
        },
        "woods": {
            "name": "Woods", "color": "#6f9a5c", "pattern": "trees",
            "move": {"infantry": 2, "cavalry": 3, "artillery": 3}, "no_march": True,
            "halves_attack_into": ["cavalry"], "halves_attack_out_of": ["cavalry"], "blocks_los": True,
            "no_advance_from": ["cavalry"], "no_charge": ["infantry", "cavalry"],
        },
        "hill": {
            "name": "Hill", "color": "#d2b48c", "pattern": "hill",
            "move": {"infantry": 2, "cavalry": 2, "artillery": 3}, "hill": True,
            "halves_attack_into": ["cavalry"], "no_charge": ["cavalry"],
        },
    },
    "secondary": {
        "village": {
            "name": "Village", "color": "#b98a62", "pattern": "buildings", "move_add": {"cavalry": 1, "artillery": 1},
            "halves_attack_into": ["cavalry", "infantry"], "blocks_los": True, "no_charge": ["cavalry"],
        },
        "battery_position": {
            "name": "Battery position (19.6)", "color": "#5a3d1e", "pattern": "dots", "no_charge": [],
            "battery_position": True,  # 19.6: the Battery Position icon
        },
    },
    "hexsides": {
        "stream": {
            "name": "Stream (the Bistritz)", "color": "#3b7dd8", "move_add": {"infantry": 1, "cavalry": 1, "artillery": 2},
            "halves_attack_across": ["infantry", "cavalry", "artillery"], "no_charge": ["infantry", "cavalry"],
        },
        "ridge": {"name": "Ridge (19.2)", "color": "#8b5a2b", "ridge": True},
        "fieldworks": {
            "name": "Fieldworks (protected hexside, 19.6)", "color": "#5a3d1e",
            "move_add": {"infantry": 1, "cavalry": 1, "artillery": 1},
            "halves_attack_across": ["infantry", "cavalry"], "no_charge": ["cavalry"],
            "protected": True,  # 19.6: a protected hexside
        },
    },
    "clear_hexsides": {
        "woods_edge": {"name": "Edge of the woods", "beside": ["woods"], "no_charge": ["cavalry"]},
    },
}

FORMATIONS: dict[str, Any] = {
    "4": {"side": "austria", "name": "IV Corps (Mollinary)", "sub_formations": ["1", "2", "3"]},
    "7": {"side": "prussia", "name": "7th Division (Fransecky)"},
    "8": {"side": "prussia", "name": "8th Division (Horn)"},
}


def _two_step(uid: str, side: str, name: str, unit_id: str, formation: str, men: int, *, mr: int, ma: int,
              sub: str | None = None, needle: bool = False, historical: str) -> dict[str, Any]:
    """An Austrian regiment (3 battalions) or a Prussian 4-battalion group: two steps; the reduced side has half
    the CF (rounded up) and one less morale."""
    cf = cf_from_men(int(men * (NEEDLE_GUN if needle else 1.0)), MEN_PER_CF)
    u: dict[str, Any] = {
        "id": uid, "side": side, "kind": "infantry", "name": name, "unit_id": unit_id, "formation": formation,
        "full": {"cf": cf, "mr": mr, "ma": ma}, "reduced": {"cf": (cf + 1) // 2, "mr": mr - 1, "ma": ma},
        "historical": historical,
    }
    if sub is not None:
        u["sub_formation"] = sub
    return u


def _jager(uid: str, side: str, name: str, unit_id: str, formation: str, men: int, *, sub: str | None = None,
           needle: bool = False, historical: str) -> dict[str, Any]:
    cf = cf_from_men(int(men * (NEEDLE_GUN if needle else 1.0)), MEN_PER_CF) + RIFLES
    u: dict[str, Any] = {
        "id": uid, "side": side, "kind": "battalion", "name": name, "unit_id": unit_id, "formation": formation,
        "full": {"cf": cf, "mr": 5, "ma": 5, "red_dot": True}, "ineffective": {"cf": 0, "mr": 3, "ma": 5},
        "historical": historical,
    }
    if sub is not None:
        u["sub_formation"] = sub
    return u


def _battery(uid: str, side: str, name: str, formation: str, guns: int, *, rifled: bool, sub: str | None = None,
             historical: str) -> dict[str, Any]:
    """Rifled guns reach three hexes (1,050 yards), smoothbores two (8.1); the ineffective side one less."""
    attack = cf_from_guns(guns, GUNS_PER_AF)
    rng = 3 if rifled else 2
    u: dict[str, Any] = {
        "id": uid, "side": side, "kind": "artillery", "name": name, "unit_id": uid.upper(), "formation": formation,
        "full": {"attack": attack, "defense": 1, "range": rng, "ma": 3},
        "ineffective": {"attack": 1, "defense": 0, "range": rng - 1, "ma": 3},
        "historical": historical,
    }
    if sub is not None:
        u["sub_formation"] = sub
    return u


def _cavalry(uid: str, side: str, name: str, formation: str, sabres: int, *, historical: str) -> dict[str, Any]:
    cf = cf_from_men(sabres, SABRES_PER_CF)
    return {
        "id": uid, "side": side, "kind": "cavalry", "name": name, "unit_id": uid.upper(), "formation": formation,
        "full": {"cf": cf, "mr": 4, "ma": 8, "charge": cf + 2}, "ineffective": {"cf": 1, "mr": 2, "ma": 8},
        "historical": historical,
    }


def _leader(uid: str, side: str, name: str, formation: str, span: list[str], *, combat: int, morale: int,
            movement: int, historical: str) -> dict[str, Any]:
    return {
        "id": uid, "side": side, "kind": "leader", "name": name, "formation": formation,
        "leader": {"combat": combat, "morale": morale, "movement": movement},
        "leader_ineffective": {"combat": 0, "morale": max(morale - 1, 0), "movement": 1},
        "span": span, "historical": historical,
    }


def units() -> list[dict[str, Any]]:
    a, p = "austria", "prussia"
    reg = 3 * AUSTRIAN_BN  # an Austrian regiment: three battalions
    grp = 4 * PRUSSIAN_BN  # a Prussian group: four battalions
    return [
        {"id": "a-hq", "side": a, "kind": "hq", "name": "North Army HQ (Benedek)", "ma": 6,
         "historical": "Benedek watched from the Chlum heights; 19.5's lethargy rolls whether his orders move."},
        {"id": "a-tr", "side": a, "kind": "trains", "name": "IV Corps trains", "ma": 4},
        _leader("mollinary", a, "Mollinary", "4", ["4"], combat=1, morale=1, movement=2,
                historical="FML Anton von Mollinary, IV Corps' senior divisional general, led it after Festetics fell."),
        _leader("brandenstein", a, "Brandenstein", "4", ["4"], combat=1, morale=1, movement=1,
                historical="GM Brandenstein's brigade of IV Corps."),
        _leader("fleischhacker", a, "Fleischhacker", "4", ["4"], combat=1, morale=1, movement=1,
                historical="GM Fleischhacker's brigade of IV Corps."),
        # Brigade Brandenstein (sub-formation 1): on the field at 08.00.
        _two_step("a-ir12", a, "IR 12", "12", "4", reg, mr=4, ma=4, sub="1",
                  historical="Infantry Regiment 12, three battalions (seed 21.0, Bde Brandenstein)."),
        _two_step("a-ir26", a, "IR 26", "26", "4", reg, mr=4, ma=4, sub="1",
                  historical="Infantry Regiment 26, three battalions (Bde Brandenstein)."),
        _jager("a-fj27", a, "FJB 27", "12", "4", AUSTRIAN_BN, sub="1",
               historical="Feldjäger Battalion 27, the brigade's seventh battalion (Bde Brandenstein)."),
        # Brigade Fleischhacker (sub-formation 2): the reserve behind the Maslowed heights (19.8 box, to come).
        _two_step("a-ir6", a, "IR 6", "6", "4", reg, mr=4, ma=4, sub="2",
                  historical="Infantry Regiment 6, three battalions (Bde Fleischhacker)."),
        _two_step("a-ir61", a, "IR 61", "61", "4", reg, mr=4, ma=4, sub="2",
                  historical="Infantry Regiment 61, three battalions (Bde Fleischhacker)."),
        _jager("a-fj13", a, "FJB 13", "6", "4", AUSTRIAN_BN, sub="2",
               historical="Feldjäger Battalion 13 (Bde Fleischhacker)."),
        # Brigade Poeckh (sub-formation 3): sent up from Nedelist at 09.00.
        _two_step("a-ir37", a, "IR 37", "37", "4", reg, mr=4, ma=4, sub="3",
                  historical="Infantry Regiment 37, three battalions (Bde Poeckh)."),
        _two_step("a-ir51", a, "IR 51", "51", "4", reg, mr=4, ma=4, sub="3",
                  historical="Infantry Regiment 51, three battalions (Bde Poeckh)."),
        _jager("a-fj8", a, "FJB 8", "37", "4", AUSTRIAN_BN, sub="3",
               historical="Feldjäger Battalion 8 (Bde Poeckh)."),
        _battery("a-art", a, "IV Corps guns (16)", "4", 16, rifled=True,
                 historical="Two 8-gun batteries of rifled 4-pounders of IV Corps' artillery reserve in the "
                            "Maslowed battery position."),
        _battery("a-bbty", a, "Bde battery (8)", "4", 8, rifled=True, sub="1",
                 historical="Brigade Brandenstein's 8-gun battery of rifled 4-pounders."),
        _cavalry("a-hu7", a, "7th Hussars", "4", 600,
                 historical="IV Corps' cavalry: four squadrons of the 7th Hussars (seed 21.0)."),
        # Prussia: First Army's 7th and 8th Divisions (4th Corps).
        {"id": "p-hq", "side": p, "kind": "hq", "name": "First Army HQ (Frederick Charles)", "ma": 6},
        _leader("fransecky", p, "Fransecky", "7", ["7", "8"], combat=1, morale=2, movement=2,
                historical="Generalleutnant Eduard von Fransecky, 7th Division: 'Here we stand and here we die.'"),
        _leader("gordon", p, "Gordon", "7", ["7"], combat=1, morale=1, movement=1,
                historical="GM von Gordon, 14th Brigade, 7th Division."),
        _leader("horn", p, "Horn", "8", ["8"], combat=1, morale=1, movement=2,
                historical="Generalleutnant von Horn, 8th Division."),
        _two_step("p-g27", p, "IR 27 + F/67", "G27", "7", grp, mr=4, ma=4, needle=True,
                  historical="14th Brigade: Infantry Regiment 27 and the fusilier battalion of the 67th, in "
                             "the 4-battalion group the seed's article describes (20.1)."),
        _two_step("p-g26", p, "IR 26 + I/66", "G26", "7", grp, mr=4, ma=4, needle=True,
                  historical="13th Brigade: Infantry Regiment 26 and the first battalion of the 66th."),
        _two_step("p-g66", p, "II,F/66 + I,II/67", "G66", "7", grp, mr=4, ma=4, needle=True,
                  historical="The rest of the 66th and 67th, grouped as four battalions."),
        _jager("p-jg4", p, "Jäger Bn 4", "G27", "7", PRUSSIAN_BN, needle=True,
               historical="The Magdeburg Jäger Battalion No. 4 (4th Corps troops, seed 21.0), with the 7th Division."),
        _battery("p-art7r", p, "7th Div. rifled (12)", "7", 12, rifled=True,
                 historical="Two 6-gun batteries of rifled 6-pounders of the 7th Division."),
        _battery("p-art7s", p, "7th Div. 12-pdr (12)", "7", 12, rifled=False,
                 historical="Two 6-gun batteries of smoothbore 12-pounders of the 7th Division."),
        _cavalry("p-hu10", p, "10th Hussars", "7", 600,
                 historical="The Magdeburg Hussars, four squadrons, with the 7th Division (seed 21.0)."),
        _two_step("p-g31", p, "IR 31 + I/71", "G31", "8", grp, mr=4, ma=4, needle=True,
                  historical="8th Division, 15th Brigade: Infantry Regiment 31 and a battalion of the 71st."),
        _two_step("p-g72", p, "IR 72 + II/71", "G72", "8", grp, mr=4, ma=4, needle=True,
                  historical="8th Division: Infantry Regiment 72 and a battalion of the 71st (the 16th "
                             "Brigade's 32nd served in the west, seed 21.0)."),
        _battery("p-art8", p, "8th Div. rifled (12)", "8", 12, rifled=True,
                 historical="Two 6-gun batteries of rifled 6-pounders of the 8th Division."),
    ]


def build() -> dict[str, Any]:
    mb, k = build_map()
    at = mb.at
    battery = k["battery"]
    # 17.2: Austria sets up in areas (its printed hexes are the historical ones; "place the rest as printed").
    setup_areas = {
        "brandenstein": {"within": 2, "of": at(560, -640), "text": "Brigade Brandenstein: within 2 hexes of the "
                         "Swiepwald's south-east fringe", "rule": "17.2"},
        "guns": {"hexes": list(battery), "text": "IV Corps guns: in the Maslowed battery position", "rule": "17.2"},
        "hussars": {"within": 2, "of": at(2400, 700), "text": "7th Hussars: within 2 hexes of Horenowes road",
                    "rule": "17.2"},
        "leaders": {"with_span": True, "text": "stacked with any unit of the leader's command span", "rule": "17.2"},
    }
    setup = [
        # Austria: Benedek's HQ toward Chlum, the trains on the chaussée, Brandenstein in and by the wood,
        # the guns in the battery position, Fleischhacker behind the heights, the hussars by Horenowes.
        {"unit": "a-hq", "hex": at(2500, -2200)},
        {"unit": "a-tr", "hex": at(2600, -2700)},
        {"unit": "mollinary", "hex": battery[0], "area": "leaders"},
        {"unit": "a-art", "hex": battery[0], "area": "guns"},
        {"unit": "a-bbty", "hex": battery[1], "area": "guns"},
        # the wood's light south-east fringe (19.7: may form line)
        {"unit": "brandenstein", "hex": at(560, -640), "area": "leaders"},
        {"unit": "a-ir26", "hex": at(560, -640), "area": "brandenstein"},
        {"unit": "a-fj27", "hex": at(-550, 200)},
        {"unit": "a-ir12", "hex": k["cistowes"]},
        {"unit": "a-hu7", "hex": at(2400, 700), "area": "hussars"},
        # Prussia: the 7th Division's advance over the Bistritz has taken Benatek.
        {"unit": "p-hq", "hex": at(-2400, -400)},
        {"unit": "fransecky", "hex": k["benatek"]},
        {"unit": "gordon", "hex": k["benatek"]},
        {"unit": "p-g27", "hex": k["benatek"]},
        {"unit": "p-jg4", "hex": at(-1400, 300)},
        {"unit": "p-art7r", "hex": at(-1650, 1200)},
    ]
    reinforcements = [
        # 17.4: the rest of the 7th Division at entry hex A and/or B (each unit its own choice).
        {"units": ["p-g26", "p-g66", "p-art7s"], "turn": 1, "entry": ["A", "B"]},
        {"units": ["p-hu10"], "turn": 2, "entry": ["A", "B"]},
        # The 8th Division: a die decides (1-3 on turn 4, else turn 5); the whole division by A OR B.
        {"units": ["p-g31", "p-g72", "p-art8"], "turn": 4, "entry": ["A", "B"], "entry_mode": "one",
         "arrival": {"roll": [1, 2, 3], "else_turn": 5}},
        {"units": ["horn"], "turn": 4, "entry": ["A", "B"], "with_span": True},
        # Brigade Poeckh up the road from Nedelist.
        {"unit": "a-ir37", "turn": 3, "hex": k["austrian_east"]},
        {"unit": "a-ir51", "turn": 3, "hex": k["austrian_east"]},
        {"unit": "a-fj8", "turn": 3, "hex": k["austrian_east"]},
    ]
    objectives = [
        {"hex": k["swiepwald"], "name": "Swiepwald", "points": 3, "owner": "austria", "for": "prussia"},
        {"hex": k["cistowes"], "name": "Cistowes", "points": 2, "owner": "austria", "for": "prussia"},
        {"hex": battery[0], "name": "Maslowed battery position", "points": 4, "owner": "austria", "for": "prussia"},
        {"hex": k["benatek"], "name": "Benatek", "points": 3, "owner": "prussia", "for": "austria"},
    ]
    victory = {
        "description": (
            "At the end of turn 8 (11.30) each side scores the enemy objectives it has taken (the last side with a "
            "combat unit in the hex controls it): Prussia the Swiepwald (3), Cistowes (2) and the Maslowed battery "
            "position (4); Austria Benatek (3). Each side also scores enemy losses: 1 per step eliminated (a "
            "reduced unit counts one), 2 per unit captured, 2 per leader killed, 3 per leader captured. The higher "
            "score wins; a lead of less than 2 is a draw. Prussia wins at once by holding the Swiepwald and the "
            "battery position together at the end of a turn; Austria by retaking Benatek and holding the "
            "Swiepwald. (Königgrätz's 18.x conditions will replace this scheme when the format has them.)"
        ),
        "objectives": objectives,
        "casualty_points": {"destroyed": 1, "leader_casualty": 1, "captured": 2, "hq_captured": 4, "threshold": 6},
        "conditions": [
            {"side": "prussia", "rule": "18.1", "text": "a Prussian unit was the last to enter the Maslowed battery "
             "position, or Prussian artillery has the Austrian LOC hex on the chaussée in range",
             "when": {"any": [{"last_to_enter": {"hex": battery[0]}},
                              {"artillery_in_range": {"hex": k["austrian_chaussee"]}}]}},
            {"side": "austria", "rule": "18.2", "text": "Prussia has not won, the Austrian trains never moved nor were "
             "attacked, no Prussian unit is in a fieldworks hex and none in the Swiepwald's heart",
             "when": {"all": [{"enemy_not_won": {}}, {"trains_unmoved": {}},
                              {"no_enemy_in": {"hexside": ["fieldworks"]}},
                              {"no_enemy_in": {"hexes": [k["swiepwald"]]}}]}},
        ],
        "sudden_death": [
            {"side": "prussia", "hexes": [k["swiepwald"], battery[0]]},
            {"side": "austria", "hexes": [k["benatek"], k["swiepwald"]]},
        ],
    }
    trt: list[dict[str, Any]] = [{"label": label, "light": "day"} for label in TURN_LABELS]
    briefing = {
        "general": (
            "Königgrätz, 3 July 1866, eight in the morning, in pouring rain. Fransecky's 7th Division has crossed "
            "the Bistritz at Benatek on the left of Prince Frederick Charles's First Army and is climbing into "
            "the Swiepwald, the wood that covers the Austrian right. Across it Brandenstein's brigade holds the "
            "wood and Cistowes, the IV Corps guns stand dug in on the Maslowed heights, and two more brigades are "
            "at hand. The wood will swallow brigade after brigade until noon."
        ),
        "prussia": (
            "You command the 7th Division, with the 8th Division (Horn) following from turn 4. Take the Swiepwald "
            "and Cistowes; hold the wood and the Maslowed battery position together and you win at once. Your "
            "needle guns spare your infantry the exchange's losses from Austrian attacks (19.9); open order "
            "(19.10) halves the Austrian guns. Keep Benatek: it is your bridgehead."
        ),
        "austria": (
            "You command IV Corps' right: Brandenstein in the wood and Cistowes, the guns in the Maslowed "
            "battery position, a brigade moving hidden behind the heights (19.8), Poeckh coming up from Nedelist "
            "on turn 3. "
            "Benedek's orders come slowly (19.5): each movement phase a die says whether his HQ is active. "
            "Throw the Prussians back over the Bistritz: retake Benatek while holding the wood and you win at once."
        ),
    }
    return {
        "id": "standard-1866",
        "title": "The Swiepwald, 1866",
        "subtitle": "Königgrätz, 3 July 1866: Fransecky's 7th Division against the Austrian IV Corps",
        "ruleset": "standard",
        "provenance": (
            "Designed for Vedette from the historical record, as told in the general published histories of the "
            "1866 war; the map, counters, factors and victory conditions are our own and are not taken from any "
            "published game. Scale and the special rules follow the Standard rules' Königgrätz (seed 002)."
        ),
        "designer_notes": DESIGNER_NOTES,
        "briefing": briefing,
        "map": standard_map(mb, k),
        "tec": TEC,
        "sides": {
            "prussia": {
                "name": "Prussian First Army (7th and 8th Divisions)", "adjective": "Prussian", "color": "#1f2f4f",
                "text_color": "#ffffff", "edge": "west", "entry_hexes": [k["entry_north"], k["entry_south"]],
                "entry_points": {"A": k["entry_north"], "B": k["entry_south"]},  # 17.4's lettered entry hexes
                "replacements": {"per_formation": 1},  # 17.4: one per formation per turn, not transferable
                "loc": [k["entry_north"], k["entry_south"]],
            },
            "austria": {
                "name": "Austrian North Army (IV Corps)", "adjective": "Austrian", "color": "#e8e4d8",
                "text_color": "#1a1a1a", "edge": "east",
                "entry_hexes": [k["austrian_east"], k["austrian_north"], k["austrian_chaussee"]],
                "replacements": {"per_formation": 1},  # 17.2: one per formation (not sub-formation) per turn
                "loc": [k["austrian_east"], k["austrian_chaussee"]],
            },
        },
        "formations": FORMATIONS,
        "units": units(),
        "setup_areas": setup_areas,
        "setup": setup,
        "free_setup": {  # 17.3: chosen when the game is created
            "austria": {
                "area": {"side_of": {"from": battery[0], "features": ["stream"]},
                         "text": "anywhere east of the Bistritz", "rule": "17.3"},
                "pinned": {"a-tr": at(2600, -2700)},
            },
        },
        "reinforcements": reinforcements,
        # 19.8: Fleischhacker's brigade waits behind the Maslowed heights in box A, with a dummy.
        "hidden_movement": {
            "side": "austria", "formations": ["4"], "ma": 4, "march_ma": 9,
            "boxes": [{"name": "A", "units": ["fleischhacker", "a-ir6", "a-ir61", "a-fj13"],
                       "markers": [at(2600, 100), at(2650, -500)], "real": 1}],
        },
        "turns": len(TURN_LABELS),
        "trt": trt,
        "first_player": "prussia",
        "victory": victory,
        "weather": {"start": "heavy"},  # 19.4; the fieldworks' +2 in Light Rain comes from the protected hexsides
        "special_rules": {
            "needle_gun": {"side": "prussia"},
            "lethargy": {"side": "austria", "active": [1, 2, 3]},
            "open_order": {"side": "prussia"},
            "line": {"side": "austria", "ma": 2, "cf": 2},  # 19.7
            "modified_squares": {"charged": "austria", "attacked": "prussia"},  # 19.3
            "battery_positions": {"side": "austria"},  # 19.6
        },
    }


DESIGNER_NOTES = (
    "Scale: a hex is 352 yards (seed 002 1.2); a turn is half an hour, so the action's four hours (08.00-11.30) "
    "fill eight turns, all in daylight. Counters: an Austrian infantry regiment is three battalions of 857 men "
    "(IV Corps' 24,000 in 28 battalions, seed 21.0) and a Prussian group four of 954 (4th Corps' 21,000 in 22); "
    "one combat factor per 650 men, the needle gun's fire counted 1.25 times (19.9's 'higher combat factors'), "
    "a Jäger battalion +1 for its rifles; cavalry one factor per 300 sabres, artillery one attack factor per "
    "three guns, rifled guns range 3 and smoothbores 2. Special rules on: 19.4 heavy rain on turn 1, 19.5 "
    "Austrian lethargy, 19.9 needle gun, 19.10 open order, 19.2 ridge hexsides on the Maslowed heights; the "
    "fieldworks and battery position are map data whose 19.6 bonus, the line (19.7), the hidden reserve (19.8), "
    "the entry choices and die-rolled arrivals (17.4) and 18.x victory come with the format."
)
