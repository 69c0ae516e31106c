"""Salem Church, 3-4 May 1863: Sedgwick's VI Corps against Lee's rear guard west of Fredericksburg.

Sketch coordinates are metres, x east and y north, with Salem Church at (0, 0).
Distances were estimated from period maps and the modern road net (the church,
Banks's Ford, the Downman house "Idlewild", Fredericksburg); they are
approximate, and the road junction and woods are simplified.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from mapkit import (
    MapBuilder,
    artillery,
    cf_from_guns,
    cf_from_men,
    infantry,
    leader,
)

HEX_YARDS = 250
HEX_M = 228.6  # 250 yards flat to flat
COLS, ROWS = 26, 28
ORIGIN = "0716"  # Salem Church

MEN_PER_CF = 400
GUNS_PER_CF = 4

RIVER = [(-1400, 2950), (-600, 2880), (200, 2780), (800, 2720), (1400, 2820), (2200, 2930), (2900, 2850),
         (3500, 2650), (4000, 2500)]
HAZEL_RUN = [(-1400, -1650), (-300, -1550), (600, -1700), (1500, -1500), (2300, -1350), (3000, -1250),
             (4000, -1400)]
PLANK_EAST = [(3900, -350), (3000, -150), (2000, 50), (1200, 80), (500, 30), (0, 0), (-450, -20)]
TURNPIKE_WEST = [(-450, -20), (-1300, 320)]
PLANK_WEST = [(-450, -20), (-1300, -520)]
RIVER_ROAD = [(3900, 2330), (3000, 2440), (2000, 2450), (800, 2450), (0, 2350), (-1300, 2280)]
BANKS_FORD_ROAD = [(650, 30), (700, 800), (800, 1700), (800, 2450), (800, 2720), (800, 3500)]
DOWNMAN_HEIGHTS = [(1500, 620), (2200, 480), (2900, 620), (3500, 950), (3950, 1080)]


def build_map() -> tuple[MapBuilder, dict[str, str]]:
    mb = MapBuilder(COLS, ROWS, HEX_M, ORIGIN)
    key: dict[str, str] = {}
    north_bank = [h for h in mb.hexes() if mb.center(h)[1] > 2700 and _north_of_river(mb.center(h))]

    # Woods.
    mb.rect(-1300, -1450, -150, 1750, "woods")  # behind the Salem Church ridge
    mb.rect(300, -1100, 650, 950, "woods")  # the thickets east of the church
    mb.rect(-1300, 1750, 3900, 2700, "woods")  # the river bluffs
    mb.rect(1250, 950, 1950, 1900, "woods")
    mb.rect(2600, 1300, 3900, 2700, "woods")
    mb.rect(-1300, -3000, 1800, -1450, "woods")  # Hazel Run bottoms
    mb.rect(1800, -3000, 2600, -1950, "woods")  # farmland beyond, toward the Telegraph Road
    mb.rect(1150, -850, 1600, -400, "woods")
    # North bank (Stafford side): open bluffs above Banks's Ford, farmland elsewhere.
    for h in north_bank:
        mb.set(h, "clear")
    bluffs = [h for h in north_bank if 250 <= mb.center(h)[0] <= 1450]
    mb.set(bluffs, "ridge")

    # Ridges.
    church_ridge = [h for h in mb.hexes()
                    if abs(mb.center(h)[0]) < 60 and -1500 <= mb.center(h)[1] <= 1500]
    for h in church_ridge:  # wooded except for the clearing round the church
        mb.set(h, "ridge" if abs(mb.center(h)[1]) < 470 else "woodridge")
    downman = mb.near_line(DOWNMAN_HEIGHTS, 0.55 * HEX_M, "ridge", over=["clear"])
    downman += mb.near_line(DOWNMAN_HEIGHTS, 0.55 * HEX_M, "woodridge", over=["woods"])
    mb.boundary(church_ridge, "slope", toward="east", exclude_outside=church_ridge)
    mb.boundary(downman, "slope", toward="south", exclude_outside=downman)

    # Buildings.
    church = mb.at(0, 0)
    mb.set(church, "church")
    school = mb.at(200, -40)
    mb.set(school, "farm")
    downman_house = mb.at(2100, 420)
    mb.set(downman_house, "farm")
    guest = mb.at(1250, 300)
    mb.set(guest, "farm")

    # Water.
    mb.line_feature(RIVER, "river")
    mb.line_feature(HAZEL_RUN, "stream")

    # Roads.
    plank = mb.road("Orange Plank Road and Turnpike (to Fredericksburg)", "pike", PLANK_EAST)
    tpk = mb.road("Orange Turnpike (to Chancellorsville)", "pike", TURNPIKE_WEST)
    pkw = mb.road("Orange Plank Road (to Chancellorsville)", "pike", PLANK_WEST)
    river_road = mb.road("River Road", "road", RIVER_ROAD)
    bford = mb.road("Banks's Ford road", "road", BANKS_FORD_ROAD)
    mb.road("Downman lane", "trail", [(2000, 50), (2100, 420), (2300, 1500), (2500, 2450)])
    early_lane = mb.road("Lane from the Telegraph Road", "trail",
                         [(3200, -2950), (2900, -1600), (2500, -700), (2300, 20)])
    mb.road("Lane south from the church", "trail", [(0, 0), (150, -1200), (500, -2000), (800, -2950)])

    # Where a road crosses water: Banks's Ford (pontoons) on the river, bridges on the run.
    ford_south = None
    for a, b in mb.road_links():
        fs = mb.hexsides.get(tuple(sorted((a, b))))  # type: ignore[arg-type]
        if not fs:
            continue
        if "river" in fs:
            mb.remove_side(a, b, "river")
            mb.add_side(a, b, "ford")
            ford_south = a if mb.center(a)[1] < mb.center(b)[1] else b
        elif "stream" in fs:
            mb.add_side(a, b, "bridge")
    assert ford_south is not None
    key.update(church=church, school=school, downman=downman_house, guest=guest, ford=ford_south,
               plank_east=plank[0], tpk_west=tpk[-1], pk_west=pkw[-1], river_east=river_road[0],
               river_west=river_road[-1], bford_north=bford[-1], early_south=early_lane[0])

    mb.label(church, "Salem Church")
    mb.label(school, "Schoolhouse")
    mb.label(downman_house, "Downman house")
    mb.label(guest, "Guest house")
    mb.label(ford_south, "Banks's Ford")
    mb.label(mb.at(850, 80), "Toll gate")
    mb.label(mb.at(2400, 3050), "Rappahannock River")
    mb.label(mb.at(1000, -1500), "Hazel Run")
    mb.label(plank[0], "to Fredericksburg")
    mb.label(tpk[-1], "to Chancellorsville")
    mb.label(pkw[-1], "Plank Road west")
    mb.label(mb.at(3500, -2600), "to Telegraph Road")
    mb.label(mb.at(800, 3300), "Stafford side")
    return mb, key


def _north_of_river(p: tuple[float, float]) -> bool:
    x, y = p
    for (x1, y1), (x2, y2) in pairwise(RIVER):
        if x1 <= x <= x2:
            return y > y1 + (x - x1) * (y2 - y1) / (x2 - x1)
    return False


TEC: dict[str, Any] = {
    "road_mp": 0.5,
    "terrain": {
        "clear": {
            "name": "Open fields", "color": "#e8e2c4",
            "move": {"infantry": 1, "cavalry": 1, "artillery": 1}, "open": True,
        },
        "woods": {
            "name": "Woods (second growth)", "color": "#7fa36b", "pattern": "trees",
            "move": {"infantry": 2, "cavalry": 3, "artillery": 3},
            "defense": 1, "attack_halved_into": ["cavalry"], "attack_halved_out_of": ["cavalry"],
            "bombard_modifier": 1, "blocks_los": True, "no_advance_from": ["cavalry"],
        },
        "ridge": {
            "name": "Ridge (clear hill)", "color": "#d8bf8a", "pattern": "hill",
            "move": {"infantry": 1, "cavalry": 1, "artillery": 2},
            "hill": True, "open": True, "blocks_los": True, "bombard_modifier": 1,
        },
        "woodridge": {
            "name": "Wooded ridge", "color": "#6f915c", "pattern": "trees",
            "move": {"infantry": 2, "cavalry": 3, "artillery": 3},
            "hill": True, "defense": 1, "attack_halved_into": ["cavalry"], "attack_halved_out_of": ["cavalry"],
            "bombard_modifier": 1, "blocks_los": True, "no_advance_from": ["cavalry"],
        },
        "church": {
            "name": "Salem Church (brick)", "color": "#a8754f", "pattern": "buildings",
            "move": {"infantry": 1, "cavalry": 2, "artillery": 2},
            "defense": 2, "attack_halved_into": ["cavalry"], "bombard_modifier": 2, "blocks_los": True,
            "notes": "The brick church and its yard, loopholed and packed with riflemen.",
        },
        "farm": {
            "name": "Farm or house", "color": "#c9a27e", "pattern": "buildings",
            "move": {"infantry": 1, "cavalry": 2, "artillery": 2},
            "defense": 1, "attack_halved_into": ["cavalry"], "bombard_modifier": 1, "blocks_los": True,
        },
    },
    "hexsides": {
        "river": {
            "name": "Rappahannock River", "color": "#2f6fc2",
            "prohibited": ["infantry", "cavalry", "artillery"], "blocks_zoc": True,
            "notes": "Impassable except at Banks's Ford.",
        },
        "ford": {
            "name": "Banks's Ford (pontoon bridges)", "color": "#7a5c3c",
            "move_add": {"infantry": 1, "cavalry": 1, "artillery": 2},
            "attack_halved_across": ["infantry", "cavalry", "artillery"],
            "no_advance_across": ["infantry", "cavalry"], "road_crossing": True,
        },
        "stream": {
            "name": "Hazel Run", "color": "#3b7dd8",
            "move_add": {"infantry": 1, "cavalry": 1, "artillery": 2},
            "attack_halved_across": ["infantry", "cavalry", "artillery"],
        },
        "bridge": {
            "name": "Bridge", "color": "#6b5a45", "road_crossing": True,
        },
        "slope": {
            "name": "Slope (ridge face)", "color": "#8b5a2b",
            "move_add": {"artillery": 1}, "defense_across": 1,
        },
    },
}


def units() -> list[dict[str, Any]]:
    U, C = "union", "confederate"

    def cf(men: int) -> int:
        return cf_from_men(men, MEN_PER_CF)

    def guns(n: int) -> int:
        return cf_from_guns(n, GUNS_PER_CF)

    u: list[dict[str, Any]] = []
    # ---------------- Union: VI Corps (Sedgwick) ----------------
    u.append(leader("sedgwick", U, "Sedgwick", "A", combat=1, morale=1, movement=1,
                    historical="Maj-Gen. John Sedgwick, VI Corps."))
    u.append(leader("brooks", U, "Brooks", "1", combat=1, morale=1, movement=1,
                    historical="Brig-Gen. William T. H. Brooks, 1st Division."))
    u.append(leader("howe", U, "Howe", "2", combat=1, morale=1, movement=1,
                    historical="Brig-Gen. Albion P. Howe, 2nd Division."))
    u.append(leader("newton", U, "Newton", "3", combat=1, morale=1, movement=1,
                    historical="Maj-Gen. John Newton, 3rd Division."))
    inf_u = [
        ("brown", "Brown's New Jersey brigade", "1", 2500, 4, "1st-4th, 15th and 23rd New Jersey (c. 2,500)."),
        ("bartlett", "Bartlett's brigade", "1", 2600, 4,
         "5th Maine, 16th, 27th and 121st New York, 96th Pennsylvania (c. 2,600); reached the schoolhouse on 3 May."),
        ("russell", "Russell's brigade", "1", 2300, 4, "18th, 32nd, 49th New York, 95th, 119th Pennsylvania (c. 2,300)."),
        ("grant", "Grant's Vermont brigade", "2", 2900, 5, "2nd-6th Vermont and 26th New Jersey (c. 2,900)."),
        ("neill", "Neill's brigade", "2", 2600, 4,
         "7th Maine, 21st New Jersey, 20th, 33rd, 49th and 77th New York (c. 2,600)."),
        ("shaler", "Shaler's brigade", "3", 2500, 4, "65th, 67th, 122nd New York, 23rd, 82nd Pennsylvania (c. 2,500)."),
        ("browne", "Browne's brigade", "3", 2200, 4,
         "7th, 10th, 37th Massachusetts, 36th New York, 2nd Rhode Island (c. 2,200)."),
        ("wheaton", "Wheaton's brigade", "3", 1900, 4, "62nd New York, 93rd, 98th, 102nd, 139th Pennsylvania (c. 1,900)."),
        ("burnham", "Burnham's Light Division", "L", 2100, 5,
         "6th Maine, 31st and 43rd New York, 61st Pennsylvania, 5th Wisconsin (c. 2,100); stormed Marye's Heights."),
    ]
    for uid, name, form, men, mr, hist in inf_u:
        u.append(infantry(uid, U, name, form, attack=cf(men), defense=cf(men), mr=mr, ma=5, historical=hist))
    u.append(artillery("art1", U, "1st Div. artillery", "1", attack=guns(18), defense=2, mr=4, ma=4, range_=4,
                       historical="Hexamer's, Rigby's and Williston's batteries (c. 18 guns)."))
    u.append(artillery("art2", U, "2nd Div. artillery", "2", attack=guns(12), defense=1, mr=4, ma=4, range_=4,
                       historical="Cowan's and Martin's batteries (c. 12 guns)."))
    u.append(artillery("art3", U, "3rd Div. artillery", "3", attack=guns(12), defense=1, mr=4, ma=4, range_=4,
                       historical="The 3rd Division's batteries (c. 12 guns)."))
    u.append(artillery("artR", U, "VI Corps reserve batteries", "R", attack=guns(12), defense=1, mr=4, ma=4,
                       range_=5, historical="Corps reserve and Light Division rifled batteries (c. 12 guns)."))
    u.append(artillery("artBF", U, "Guns at Banks's Ford", "R", attack=guns(20), defense=2, mr=4, ma=3, range_=5,
                       historical="Army Artillery Reserve rifles on the Stafford bluffs covering the ford "
                                  "(c. 20 guns)."))
    # ---------------- Confederate ----------------
    u.append(leader("lee", C, "Lee", "A", combat=1, morale=2, movement=1,
                    historical="Gen. Robert E. Lee, who came to Salem Church on 4 May."))
    u.append(leader("mclaws", C, "McLaws", "M", combat=1, morale=1, movement=0,
                    historical="Maj-Gen. Lafayette McLaws, commanding at Salem Church on 3 May."))
    u.append(leader("early", C, "Early", "E", combat=1, morale=1, movement=1,
                    historical="Maj-Gen. Jubal A. Early, who retook Marye's Heights on the morning of 4 May."))
    u.append(leader("anderson", C, "Anderson", "N", combat=1, morale=1, movement=1,
                    historical="Maj-Gen. Richard H. Anderson, whose division marched from Chancellorsville on 4 May."))
    inf_c = [
        ("wilcox", "Wilcox's brigade", "M", 1900,
         "8th-11th and 14th Alabama (c. 1,900); delayed Sedgwick and held the church and schoolhouse."),
        ("semmes", "Semmes's brigade", "M", 2000, "10th, 50th, 51st and 53rd Georgia (c. 2,000)."),
        ("kershaw", "Kershaw's brigade", "M", 2000, "2nd, 3rd, 7th, 8th, 15th South Carolina, 3rd SC Bn (c. 2,000)."),
        ("wofford", "Wofford's brigade", "M", 2100, "16th, 18th, 24th Georgia, Cobb's and Phillips Legions (c. 2,100)."),
        ("mahone", "Mahone's brigade", "M", 1900, "6th, 12th, 16th, 41st and 61st Virginia (c. 1,900)."),
        ("gordon", "Gordon's brigade", "E", 2300, "13th, 26th, 31st, 38th, 60th and 61st Georgia (c. 2,300)."),
        ("hoke", "Hoke's brigade", "E", 1700, "6th, 21st, 54th, 57th North Carolina, 1st NC Bn (c. 1,700)."),
        ("hays", "Hays's brigade", "E", 1500, "5th-9th Louisiana (c. 1,500)."),
        ("smith", "Smith's brigade", "E", 1000, "13th, 49th, 52nd and 58th Virginia (c. 1,000)."),
        ("barksdale", "Barksdale's brigade", "E", 1500, "13th, 17th, 18th and 21st Mississippi (c. 1,500)."),
        ("posey", "Posey's brigade", "N", 1900, "12th, 16th, 19th and 48th Mississippi (c. 1,900)."),
        ("wright", "Wright's brigade", "N", 1600, "3rd, 22nd, 48th Georgia, 2nd Georgia Bn (c. 1,600)."),
        ("perry", "Perry's brigade", "N", 700, "2nd, 5th and 8th Florida (c. 700)."),
    ]
    for uid, name, form, men, hist in inf_c:
        u.append(infantry(uid, C, name, form, attack=cf(men), defense=cf(men), mr=5, ma=5, historical=hist))
    u.append(artillery("artW", C, "Wilcox's guns", "M", attack=guns(6), defense=1, mr=4, ma=4, range_=3,
                       historical="The battery sections that retired with Wilcox from Banks's Ford (c. 6 guns)."))
    u.append(artillery("cabell", C, "Cabell's battalion", "M", attack=guns(16), defense=1, mr=4, ma=4, range_=4,
                       historical="McLaws's divisional artillery (c. 16 guns)."))
    u.append(artillery("andrews", C, "Andrews's battalion", "E", attack=guns(16), defense=1, mr=4, ma=4, range_=4,
                       historical="Early's divisional artillery (c. 16 guns)."))
    u.append(artillery("alexander", C, "Alexander's battalion", "AR", attack=guns(20), defense=2, mr=5, ma=4,
                       range_=4, historical="E. P. Alexander's reserve battalion, brought over on 4 May (c. 20 guns)."))
    return u


FORMATIONS = {
    "1": {"side": "union", "name": "1st Division, VI Corps (Brooks)"},
    "2": {"side": "union", "name": "2nd Division, VI Corps (Howe)"},
    "3": {"side": "union", "name": "3rd Division, VI Corps (Newton)"},
    "L": {"side": "union", "name": "Light Division (Burnham)"},
    "R": {"side": "union", "name": "Artillery reserve"},
    "M": {"side": "confederate", "name": "McLaws's command at Salem Church"},
    "E": {"side": "confederate", "name": "Early's command"},
    "N": {"side": "confederate", "name": "Anderson's division"},
    "AR": {"side": "confederate", "name": "Reserve artillery (Alexander)"},
}

TURN_LABELS = [
    "3 May 15:00", "3 May 16:30", "3 May 18:00", "Night 3-4 May",
    "4 May 06:00", "4 May 07:30", "4 May 09:00", "4 May 10:30", "4 May 12:00", "4 May 13:30",
    "4 May 15:00", "4 May 16:30", "4 May 18:00", "4 May 19:30",
]

DESIGNER_NOTES = """\
Scale: one hex is 250 yards (about 230 m) across; a daylight turn is 90 minutes, and one turn covers the night \
of 3-4 May. The map runs from the Rappahannock and the Stafford bluffs above Banks's Ford in the north to the \
woods along Hazel Run in the south, and from just west of Salem Church (where the Turnpike and the Plank Road \
part for Chancellorsville) to about a mile and a half short of Marye's Heights in the east.

Ground. Positions were estimated from period maps and the modern road net and rounded to the grid. The \
church ridge is a one-hex north-south rise whose east face is a slope hexside; the Downman house stands on \
higher ground whose south face is a slope, the direction of Early's attack on 4 May. Woods are simplified to \
large blocks: the second-growth belt east of the church, the woods behind it, the river bluffs and the Hazel \
Run bottoms; the Guest and Downman farms are open. The roads from Fredericksburg are drawn as one road as \
far as the church, parting just west of it (the real junction lay a little further west). The Rappahannock \
is impassable except at Banks's Ford, where the pontoon bridges of the night of 4-5 May are assumed.

Factors. Infantry: one combat factor per 400 men, rounded; attack and defence are equal (rifle-musket \
firefights favoured neither column nor line). Morale: 5 for the Confederate brigades (veterans fresh from \
their victory at Chancellorsville), the Vermont brigade and Burnham's picked Light Division; 4 for the rest of \
the VI Corps. Artillery: one point per four guns; range 4 for mixed batteries, 5 for all-rifled ones, 3 for the \
few guns with Wilcox. Movement: infantry 5, artillery 4 (3 for the heavy reserve rifles). Reduced brigades are \
at half strength, rounded up, with morale one lower. No cavalry fought here and none is included. Strengths \
are round figures from the usual secondary accounts and are approximations.

Counters: 18 Union and 21 Confederate, leaders included. Sedgwick's column arrives from Fredericksburg in \
order of march; McLaws's brigades come down the Turnpike from Chancellorsville on 3 May; Early's division \
re-enters from the south and east on the morning of 4 May after retaking Marye's Heights, and Lee brings \
Anderson's division and Alexander's guns at noon.

Not modelled: Gibbon's division in Fredericksburg, the darkness and confusion of the evening attack on 4 \
May, and Hooker's army beyond the west edge.
"""


def build() -> dict[str, Any]:
    mb, k = build_map()
    at = mb.at
    union_entry = [k["plank_east"], k["river_east"], k["bford_north"]]
    csa_entry = [k["tpk_west"], k["pk_west"], k["early_south"], at(3800, -1700)]
    for h in union_entry + csa_entry:
        assert mb.grid.is_edge(h), h
    setup = [
        # Union, strung out on the Plank Road at 15.00
        {"unit": "sedgwick", "hex": at(2500, 0)},
        {"unit": "brooks", "hex": at(2000, 50)},
        {"unit": "bartlett", "hex": at(2000, 50)},
        {"unit": "brown", "hex": at(2100, -250), "within": 1},
        {"unit": "russell", "hex": at(2350, 300), "within": 1},
        {"unit": "art1", "hex": at(2500, 0)},
        {"unit": "newton", "hex": at(3200, -150)},
        {"unit": "shaler", "hex": at(3200, -150)},
        {"unit": "browne", "hex": at(3400, 150), "within": 1},
        {"unit": "wheaton", "hex": at(3600, -350), "within": 1},
        {"unit": "art3", "hex": at(3550, -200)},
        # Confederate: Wilcox falling back on the church
        {"unit": "wilcox", "hex": at(600, 30), "within": 1},
        {"unit": "artW", "hex": k["school"]},
    ]
    reinforcements = [
        {"unit": "mclaws", "turn": 1, "hex": k["tpk_west"]},
        {"unit": "semmes", "turn": 1, "hex": k["tpk_west"]},
        {"unit": "mahone", "turn": 1, "hex": k["pk_west"]},
        {"unit": "kershaw", "turn": 2, "hex": k["tpk_west"]},
        {"unit": "wofford", "turn": 2, "hex": k["tpk_west"]},
        {"unit": "cabell", "turn": 2, "hex": k["pk_west"]},
        {"unit": "burnham", "turn": 2, "hex": k["plank_east"]},
        {"unit": "artR", "turn": 2, "hex": k["plank_east"]},
        {"unit": "howe", "turn": 3, "hex": k["plank_east"]},
        {"unit": "grant", "turn": 3, "hex": k["plank_east"]},
        {"unit": "neill", "turn": 3, "hex": k["river_east"]},
        {"unit": "art2", "turn": 3, "hex": k["river_east"]},
        {"unit": "artBF", "turn": 5, "hex": k["bford_north"]},
        {"unit": "early", "turn": 5, "hex": k["early_south"]},
        {"unit": "gordon", "turn": 5, "hex": csa_entry[3]},
        {"unit": "hoke", "turn": 5, "hex": k["early_south"]},
        {"unit": "hays", "turn": 5, "hex": k["early_south"]},
        {"unit": "smith", "turn": 5, "hex": csa_entry[3]},
        {"unit": "andrews", "turn": 5, "hex": csa_entry[3]},
        {"unit": "barksdale", "turn": 6, "hex": csa_entry[3]},
        {"unit": "lee", "turn": 9, "hex": k["pk_west"]},
        {"unit": "anderson", "turn": 9, "hex": k["pk_west"]},
        {"unit": "posey", "turn": 9, "hex": k["pk_west"]},
        {"unit": "wright", "turn": 9, "hex": k["pk_west"]},
        {"unit": "perry", "turn": 9, "hex": k["tpk_west"]},
        {"unit": "alexander", "turn": 9, "hex": k["tpk_west"]},
    ]
    objectives = [
        {"hex": k["church"], "name": "Salem Church", "points": 5, "owner": "confederate", "for": "union"},
        {"hex": k["tpk_west"], "name": "Turnpike to Chancellorsville", "points": 2, "owner": "confederate",
         "for": "union"},
        {"hex": k["pk_west"], "name": "Plank Road to Chancellorsville", "points": 1, "owner": "confederate",
         "for": "union"},
        {"hex": k["ford"], "name": "Banks's Ford", "points": 4, "owner": "union", "for": "confederate"},
        {"hex": k["downman"], "name": "Downman house", "points": 2, "owner": "union", "for": "confederate"},
        {"hex": k["plank_east"], "name": "Road to Fredericksburg", "points": 2, "owner": "union",
         "for": "confederate"},
    ]
    victory = {
        "description": (
            "At the end of turn 14 (4 May, 19.30) each side scores the enemy objectives it has taken (an "
            "objective is controlled by the last side to have a combat unit in it): the Union scores Salem "
            "Church (5), the Turnpike exit to Chancellorsville (2) and the Plank Road exit (1); the "
            "Confederates score Banks's Ford (4), the Downman house (2) and the road to Fredericksburg (2). "
            "Each side also scores enemy losses: 1 per "
            "step eliminated (a reduced brigade counts one), 2 per unit captured, 2 per leader killed, 3 per "
            "leader captured. The higher score wins; a lead of less than 2 is a draw. The Union wins at once by "
            "controlling Salem Church and both exits to Chancellorsville together at the end of a turn (the "
            "road to Hooker is open). The Confederates win at once by controlling Banks's Ford, the Downman house and the road "
            "to Fredericksburg together at the end of a turn (the VI Corps is cut off)."
        ),
        "objectives": objectives,
        "points": {"step_eliminated": 1, "unit_captured": 2, "leader_eliminated": 2, "leader_captured": 3},
        "draw_margin": 2,
        "sudden_death": [
            {"side": "union", "hexes": [k["church"], k["tpk_west"], k["pk_west"]]},
            {"side": "confederate", "hexes": [k["ford"], k["downman"], k["plank_east"]]},
        ],
    }
    briefing = {
        "general": (
            "Chancellorsville campaign, 3 May 1863, mid-afternoon. Sedgwick's VI Corps has stormed Marye's "
            "Heights and is marching west on the Plank Road to fall on the rear of Lee's army at Chancellorsville, "
            "ten miles from Fredericksburg. Wilcox's Alabamians fall back before it, and McLaws is hurrying east with four "
            "brigades to stop it at a small brick church on a wooded ridge. Tomorrow Lee will turn on Sedgwick "
            "with Early's and Anderson's divisions and try to pin him against the Rappahannock."
        ),
        "union": (
            "You command the VI Corps. Brooks's division leads, Newton's follows, the Light Division and Howe's "
            "division come up from Fredericksburg. Break through at Salem Church and open the roads to "
            "Chancellorsville: holding the church and both road exits to the west together wins at once. On "
            "4 May Early comes back from the south and east and Anderson from the west at noon; keep Banks's Ford, your "
            "line of retreat, and the road to Fredericksburg, and do not let the corps be trapped."
        ),
        "confederate": (
            "Wilcox's brigade and a few guns stand between Sedgwick and the army's rear. McLaws arrives down "
            "the Turnpike with Semmes and Mahone, then Kershaw, Wofford and Cabell's guns: hold Salem Church "
            "through the evening of 3 May. At dawn on 4 May Early's division enters from the south and east, "
            "and at noon Lee brings Anderson's division and Alexander's guns. Take Banks's Ford, the Downman "
            "house and the road to Fredericksburg together and the VI Corps is cut off: you win at once."
        ),
    }
    return {
        "id": "salem-church",
        "title": "Salem Church",
        "subtitle": "Chancellorsville campaign, 3-4 May 1863: Sedgwick's VI Corps against McLaws, Early and Anderson",
        "ruleset": "quickplay",
        "also_rulesets": ["quickplay-2013"],
        "provenance": (
            "Designed for Vedette from the historical record, as told in the general published histories of "
            "the Chancellorsville campaign; the map, counters, factors and victory conditions are our own and "
            "are not taken from any published game."
        ),
        "designer_notes": DESIGNER_NOTES,
        "briefing": briefing,
        "map": mb.to_json(),
        "tec": TEC,
        "sides": {
            "union": {
                "name": "Army of the Potomac (VI Corps)", "adjective": "Union", "color": "#2b4f9e",
                "text_color": "#ffffff", "entry_hexes": union_entry, "edge": "east", "replacement_steps": 2,
            },
            "confederate": {
                "name": "Army of Northern Virginia", "adjective": "Confederate", "color": "#7d7d7d",
                "text_color": "#ffffff", "entry_hexes": csa_entry, "edge": "west", "replacement_steps": 2,
            },
        },
        "formations": FORMATIONS,
        "units": units(),
        "setup": setup,
        "reinforcements": reinforcements,
        "turns": len(TURN_LABELS),
        "turn_labels": TURN_LABELS,
        "hidden": {"enemy_reinforcements": True},
        "first_player": "union",
        "victory": victory,
    }
