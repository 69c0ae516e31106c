"""Hougoumont, 18 June 1815: Reille's II Corps against the Allied right at Waterloo.

Sketch coordinates are metres, x east and y north, with the château buildings
at (0, 0).  Distances were estimated from the modern battlefield (the Lion's
Mound, La Haye Sainte and the Nivelles road) and contemporary plans; they are
approximate, and the ground is simplified to what mattered at this scale.
"""

from __future__ import annotations

from typing import Any

from mapkit import (
    MapBuilder,
    artillery,
    battalion,
    cavalry,
    cf_from_guns,
    cf_from_men,
    infantry,
    leader,
)

HEX_YARDS = 176
HEX_M = 160.9  # 176 yards flat to flat
COLS, ROWS = 24, 28
ORIGIN = "1615"  # the château buildings

# Combat factors: one point per 400 infantry or cavalry (rounded half up).
MEN_PER_CF = 400

# --- the ground ------------------------------------------------------------------
ALLIED_CREST = [(1300, 840), (700, 800), (300, 740), (-100, 700), (-450, 720), (-900, 860),
                (-1400, 1000), (-2200, 1120)]
FRENCH_CREST = [(1300, -720), (900, -900), (400, -1040), (0, -1110), (-500, -1100), (-900, -1020),
                (-1400, -930), (-2200, -860)]
NIVELLES_ROAD = [(800, 2450), (350, 1800), (-100, 1250), (-330, 800), (-450, 150), (-560, -500),
                 (-700, -1200), (-860, -2300)]
OHAIN_ROAD = [(1250, 900), (700, 930), (250, 960), (-150, 1070), (-700, 1250), (-1300, 1450), (-2200, 1620)]


def build_map() -> tuple[MapBuilder, dict[str, str]]:
    mb = MapBuilder(COLS, ROWS, HEX_M, ORIGIN)
    key: dict[str, str] = {}

    allied_crest = mb.crest_by_column(ALLIED_CREST, "ridge")
    french_crest = mb.crest_by_column(FRENCH_CREST, "ridge")

    # The Hougoumont enclosure (placed hex by hex around the buildings).
    chateau = "1615"
    garden = "1716"
    orchard = ["1815", "1816"]
    wood = ["1616", "1617", "1618", "1717", "1718", "1817"]
    mb.set(chateau, "chateau")
    mb.set(garden, "garden")
    mb.set(orchard, "orchard")
    mb.set(wood, "woods")
    key.update(chateau=chateau, garden=garden, orchard=orchard[0], orchard_s=orchard[1], wood=wood[1])

    # Villages and farms.
    merbe = [mb.at(-880, 1760), mb.at(-1020, 1640)]
    mb.set(merbe, "village")
    mon_plaisir = mb.at(-780, -1350)
    mb.set(mon_plaisir, "village")
    key.update(merbe=merbe[0], mon_plaisir=mon_plaisir)

    # Slopes: the forward (south) face of the Allied ridge, the north face of the French one.
    crest_a = set(allied_crest)
    mb.boundary(crest_a, "slope", toward="south", exclude_outside=crest_a)
    crest_f = set(french_crest)
    mb.boundary(crest_f, "slope", toward="north", exclude_outside=crest_f)

    # Hedges and ditches round the wood and the orchard (the hollow way on the orchard's north side).
    enclosure = set(wood) | set(orchard) | {chateau, garden}
    mb.boundary(set(wood) | set(orchard), "hedge", exclude_outside=enclosure)

    # Roads.
    niv = mb.road("Nivelles road (chaussée)", "pike", NIVELLES_ROAD)
    ohain = mb.road("Ohain road", "road", OHAIN_ROAD)
    # The lanes stop at the gates: a road step ignores terrain, and nothing but infantry may enter the
    # château or the garden.
    mb.road("Hougoumont avenue", "trail", [(-450, 120), (-139, 80)])
    mb.road("Lane from the north gate to the ridge", "trail", [(0, 161), (60, 400), (150, 720), (250, 960)])
    mb.road("Lane south through the wood", "trail", [(0, -161), (0, -480), (60, -1100), (120, -2250)])
    mb.road("Lane along the French ridge", "trail", [(-620, -1000), (-200, -1230), (400, -1200), (900, -1000),
                                                     (1250, -820)])
    mb.road("Merbe-Braine lane", "trail", [(-2200, 2000), (-1000, 1700), (-500, 1450), (-200, 1280)])

    # The Ohain road runs sunken east of the lane from Hougoumont: a bank on its south side.
    ohain_set = set(ohain)
    for h in ohain:
        x, y = mb.center(h)
        if x < 200:
            continue
        for n in mb.neighbors(h):
            if n in ohain_set:
                continue
            if mb.center(n)[1] < y - 1:
                mb.add_side(h, n, "sunken")

    key.update(niv_north=niv[0], niv_south=niv[-1], ohain_west=ohain[-1], ohain_east=ohain[0])
    # Named crest hexes for objectives.
    key["crest_above"] = min(allied_crest, key=lambda h: abs(mb.center(h)[0] - 140))
    key["crest_niv"] = next(h for h in allied_crest if h in set(niv)) if set(allied_crest) & set(niv) else \
        min(allied_crest, key=lambda h: abs(mb.center(h)[0] + 330))

    key["gun_line"] = min(french_crest, key=lambda h: abs(mb.center(h)[0] - 250))
    mb.label(chateau, "Hougoumont")
    mb.label(garden, "Garden")
    mb.label(orchard[0], "Great Orchard")
    mb.label(wood[2], "Wood")
    mb.label(merbe[0], "Merbe-Braine")
    mb.label(mon_plaisir, "Mon Plaisir")
    mb.label(mb.at(700, 800), "Allied ridge")
    mb.label(mb.at(300, -1100), "French ridge")
    mb.label(mb.at(900, 1050), "Ohain road")
    mb.label(mb.at(560, 2180), "to Mont-St-Jean")
    mb.label(mb.at(-900, -1900), "to Nivelles")
    mb.label(mb.at(1100, -1200), "to La Belle Alliance")
    mb.label(mb.at(-2000, 1500), "to Braine-l'Alleud")
    return mb, key


TEC: dict[str, Any] = {
    "road_mp": 0.5,
    "terrain": {
        "clear": {
            "name": "Open fields", "color": "#e9e4c3", "pattern": "crops",
            "move": {"infantry": 1, "cavalry": 1, "artillery": 1}, "open": True,
            "notes": "Standing rye and trampled fields, soaked by the night's rain.",
        },
        "ridge": {
            "name": "Ridge crest (clear hill)", "color": "#d9c189", "pattern": "hill",
            "move": {"infantry": 1, "cavalry": 1, "artillery": 2},
            "hill": True, "open": True, "blocks_los": True, "bombard_modifier": 1,
            "notes": "The crest line of a ridge: blocks line of sight across it (the reverse slope) and "
                     "shelters troops from bombardment; artillery pays 2 MP in the mud.",
        },
        "woods": {
            "name": "Hougoumont wood", "color": "#86a86e", "pattern": "trees",
            "move": {"infantry": 2, "cavalry": 3, "artillery": 3},
            "defense": 1, "attack_halved_into": ["cavalry"], "attack_halved_out_of": ["cavalry"],
            "bombard_modifier": 1, "blocks_los": True, "no_advance_from": ["cavalry"],
        },
        "orchard": {
            "name": "Orchard", "color": "#b5cf8a", "pattern": "dots",
            "move": {"infantry": 1, "cavalry": 2, "artillery": 2},
            "defense": 1, "attack_halved_into": ["cavalry"], "bombard_modifier": 1, "blocks_los": True,
        },
        "garden": {
            "name": "Walled garden", "color": "#c7b07a", "pattern": "buildings",
            "move": {"infantry": 2}, "prohibited": ["cavalry", "artillery"],
            "defense": 1, "attack_halved_into": ["infantry", "artillery"], "bombard_modifier": 1, "blocks_los": True,
            "notes": "Brick walls loopholed along the south and east sides; infantry attacks and supporting "
                     "fire against it are halved.",
        },
        "chateau": {
            "name": "Château and farm (walled)", "color": "#a8754f", "pattern": "buildings",
            "move": {"infantry": 2}, "prohibited": ["cavalry", "artillery"],
            "defense": 3, "attack_halved_into": ["infantry", "artillery"], "bombard_modifier": 2, "blocks_los": True,
            "notes": "House, barns, chapel and courtyards inside continuous walls and gates; infantry attacks "
                     "and supporting fire against it are halved (bombardment alone is not).",
        },
        "village": {
            "name": "Village or farm", "color": "#c9a27e", "pattern": "buildings",
            "move": {"infantry": 1, "cavalry": 2, "artillery": 2},
            "defense": 1, "attack_halved_into": ["cavalry"], "bombard_modifier": 1, "blocks_los": True,
        },
    },
    "hexsides": {
        "slope": {
            "name": "Slope (forward face of a ridge)", "color": "#8b5a2b",
            "move_add": {"artillery": 1}, "defense_across": 1,
            "notes": "+1 to the defender when every attack comes up the slope.",
        },
        "hedge": {
            "name": "Hedge and ditch", "color": "#2f6b2a",
            "move_add": {"cavalry": 1, "artillery": 1}, "defense_across": 1,
            "no_advance_across": ["cavalry"],
        },
        "sunken": {
            "name": "Sunken road bank", "color": "#5b4a3a",
            "move_add": {"infantry": 1, "cavalry": 2, "artillery": 2}, "defense_across": 1,
            "no_advance_across": ["cavalry"],
        },
    },
}


def units() -> list[dict[str, Any]]:
    A, F = "allied", "french"

    def cf(men: int) -> int:
        return cf_from_men(men, MEN_PER_CF)

    def guns(n: float) -> int:  # weighted guns (12-pdr 1.5, 9-pdr and howitzers 1.25, 6-pdr 1) per point
        return cf_from_guns(n, 3)

    u: list[dict[str, Any]] = []
    # ---------------- French: II Corps (Reille) ----------------
    u.append(leader("reille", F, "Reille", "A", combat=1, morale=1, movement=1,
                    historical="Lt-Gen. Honoré Reille, commanding II Corps."))
    u.append(leader("jerome", F, "Jérôme", "6", combat=1, morale=1, movement=0,
                    historical="Prince Jérôme Bonaparte, 6th Division; kept feeding brigades into the wood."))
    u.append(leader("foy", F, "Foy", "9", combat=1, morale=2, movement=1,
                    historical="Lt-Gen. Maximilien Foy, 9th Division (wounded late in the day)."))
    u.append(leader("bachelu", F, "Bachelu", "5", combat=1, morale=1, movement=1,
                    historical="Lt-Gen. Gilbert Bachelu, 5th Division."))
    u.append(leader("pire", F, "Piré", "P", combat=1, morale=1, movement=1,
                    historical="Lt-Gen. Hippolyte Piré, 2nd Cavalry Division."))
    # 6th Division (Jérôme): Bauduin's and Soye's brigades by regiment.
    u.append(battalion("1leger1", F, "1/1er Léger", "6", attack=cf(600) + 1, defense=cf(600), mr=4, ma=6,
                       historical="The battalion of the 1st Light that worked round to the north gate "
                                  "(c. 600; Legros broke the gate with an axe)."))
    u.append(infantry("1leger", F, "1er Léger", "6", attack=cf(1300) + 1, defense=cf(1300), mr=4, ma=5,
                      historical="1st Light Infantry, Bauduin's brigade (c. 1,300 besides the detached battalion)."))
    u.append(infantry("3ligne", F, "3e Ligne", "6", attack=cf(1300), defense=cf(1300), mr=4, ma=5,
                      historical="3rd Line, Bauduin's brigade (c. 1,300)."))
    u.append(infantry("1ligne", F, "1er Ligne", "6", attack=cf(1700), defense=cf(1700), mr=4, ma=5,
                      historical="1st Line, Soye's brigade (c. 1,700)."))
    u.append(infantry("2ligne", F, "2e Ligne", "6", attack=cf(2000), defense=cf(2000), mr=4, ma=5,
                      historical="2nd Line, Soye's brigade (c. 2,000)."))
    # 9th Division (Foy) and 5th Division (Bachelu) by brigade.
    u.append(infantry("gauthier", F, "Gauthier's brigade", "9", attack=cf(2300), defense=cf(2300), mr=4, ma=5,
                      historical="92e and 93e Ligne (c. 2,300)."))
    u.append(infantry("jamin", F, "Jamin's brigade", "9", attack=cf(2500), defense=cf(2500), mr=4, ma=5,
                      historical="4e Léger and 100e Ligne (c. 2,500)."))
    u.append(infantry("husson", F, "Husson's brigade", "5", attack=cf(2100), defense=cf(2100), mr=4, ma=5,
                      historical="2e Léger and 61e Ligne (c. 2,100)."))
    u.append(infantry("campi", F, "Campi's brigade", "5", attack=cf(2000), defense=cf(2000), mr=4, ma=5,
                      historical="72e and 108e Ligne (c. 2,000)."))
    # Artillery.
    u.append(artillery("art6", F, "6th Div. foot battery", "6", attack=guns(8), defense=1, mr=4, ma=3, range_=4,
                       historical="Six 6-pdrs and two howitzers."))
    u.append(artillery("art9", F, "9th Div. foot battery", "9", attack=guns(8), defense=1, mr=4, ma=3, range_=4,
                       historical="Six 6-pdrs and two howitzers."))
    u.append(artillery("art5", F, "5th Div. foot battery", "5", attack=guns(8), defense=1, mr=4, ma=3, range_=4,
                       historical="Six 6-pdrs and two howitzers."))
    u.append(artillery("art12", F, "II Corps 12-pdr battery", "CR", attack=guns(8 * 1.5), defense=2, mr=4, ma=3,
                       range_=5,
                       historical="The corps reserve battery; with the howitzers turned on the château in the "
                                  "afternoon it set the buildings ablaze."))
    u.append(artillery("artP", F, "Piré's horse battery", "P", attack=guns(6), defense=1, mr=4, ma=5, range_=3,
                       historical="Four 6-pdrs and two howitzers."))
    # Cavalry: light cavalry CF per 400 men, charge CF+2 (lancers +3); heavy charge CF+3.
    u.append(cavalry("hubert", F, "Hubert's chasseurs", "P", attack=cf(1000), defense=cf(1000) - 1,
                     charge=cf(1000) + 2, mr=4, ma=8, historical="1st and 6th Chasseurs à cheval (c. 1,000)."))
    u.append(cavalry("wathiez", F, "Wathiez's lancers", "P", attack=cf(900), defense=cf(900) - 1,
                     charge=cf(900) + 3, mr=4, ma=8, historical="5th and 6th Lancers (c. 900)."))
    u.append(cavalry("cuir", F, "Kellermann's cuirassiers", "K", attack=cf(1600), defense=cf(1600) - 1,
                     charge=cf(1600) + 3, mr=5, ma=7,
                     historical="Part of Kellermann's III Cavalry Corps, which swept past Hougoumont in the "
                                "great cavalry attacks of the late afternoon (c. 1,600 here)."))

    # ---------------- Allied: the Anglo-Allied right ----------------
    u.append(leader("wellington", A, "Wellington", "A", combat=1, morale=2, movement=1,
                    historical="The Duke of Wellington, who watched Hougoumont closely and fed it reinforcements."))
    u.append(leader("cooke", A, "Cooke", "G", combat=1, morale=1, movement=1,
                    historical="Maj-Gen. George Cooke, 1st (Guards) Division (lost an arm in the afternoon)."))
    u.append(leader("macdonell", A, "Macdonell", "G", combat=1, morale=2, movement=0,
                    historical="Lt-Col. James Macdonell, Coldstream Guards, commanding in the château; "
                               "closed the north gate."))
    u.append(leader("clinton", A, "Clinton", "2", combat=1, morale=1, movement=1,
                    historical="Lt-Gen. Sir Henry Clinton, 2nd Division."))
    # The garrison at 11.30: light companies and the German detachments.
    u.append(battalion("gdlt2", A, "Guards light coys (2nd Bde)", "G", attack=cf(200), defense=cf(200) + 1, mr=5,
                       ma=6, historical="Light companies of 2/Coldstream and 2/3rd Guards (c. 200), Macdonell."))
    u.append(battalion("gdlt1", A, "Guards light coys (1st Bde)", "G", attack=cf(200), defense=cf(200) + 1, mr=5,
                       ma=6, historical="Light companies of 2/1st and 3/1st Guards under Lord Saltoun (c. 200)."))
    u.append(battalion("nassau", A, "1/2nd Nassau", "N", attack=cf(800), defense=cf(800), mr=4, ma=5,
                       historical="1st Battalion, 2nd Nassau Regiment (c. 800), in the wood and garden."))
    u.append(battalion("hanjg", A, "Hanoverian jäger", "N", attack=cf(300), defense=cf(300) + 1, mr=4, ma=6,
                       historical="Feldjäger company and light detachments of Kielmansegge's brigade "
                                  "(c. 300)."))
    # Byng's 2nd Guards Brigade battalions, Maitland's 1st Guards Brigade.
    # Byng's battalions were as large as many French regiments: they are two-step units here.
    u.append(infantry("cold2", A, "2/Coldstream Guards", "G", attack=cf(900), defense=cf(900) + 1, mr=5, ma=5,
                      historical="Byng's brigade (c. 900 besides its light company); into the château early "
                                 "in the afternoon."))
    u.append(infantry("gds3", A, "2/3rd Foot Guards", "G", attack=cf(1000), defense=cf(1000) + 1, mr=5, ma=5,
                      historical="Byng's brigade (c. 1,000); into the orchard and grounds in the afternoon."))
    u.append(infantry("maitland", A, "Maitland's Guards", "G", attack=cf(1900), defense=cf(1900) + 1, mr=5, ma=5,
                      historical="2/1st and 3/1st Foot Guards (c. 1,900), on the ridge."))
    # 2nd Division (Clinton) and Mitchell's brigade of the 4th Division.
    u.append(infantry("duplat", A, "Du Plat's KGL", "2", attack=cf(1700), defense=cf(1700) + 1, mr=5, ma=5,
                      historical="1st-4th Line Battalions, King's German Legion (c. 1,700)."))
    u.append(infantry("adam", A, "Adam's brigade", "2", attack=cf(2600), defense=cf(2600) + 1, mr=5, ma=5,
                      historical="52nd, 71st, 2/95th and 3/95th (c. 2,600)."))
    u.append(infantry("hhalkett", A, "H. Halkett's Hanoverians", "2", attack=cf(2400) - 1, defense=cf(2400),
                      mr=3, ma=5, historical="3rd Hanoverian Brigade, four Landwehr battalions (c. 2,400)."))
    u.append(infantry("mitchell", A, "Mitchell's brigade", "4", attack=cf(1700), defense=cf(1700) + 1, mr=4, ma=5,
                      historical="3/14th, 1/23rd and 51st (c. 1,700), on the far side of the Nivelles road."))
    # Artillery.
    u.append(artillery("artG", A, "Guards Div. artillery", "G", attack=guns(12 * 1.25), defense=2, mr=4, ma=3,
                       range_=4, historical="Sandham's foot battery and Kühlmann's KGL horse troop (c. 12 guns)."))
    u.append(artillery("bull", A, "Bull's troop RHA", "R", attack=guns(6 * 1.25), defense=1, mr=5, ma=5, range_=4,
                       historical="Six 5.5-inch howitzers; shelled the French out of the wood."))
    u.append(artillery("mercer", A, "Mercer's troop RHA", "R", attack=guns(6 * 1.25), defense=1, mr=5, ma=5,
                       range_=4, historical="G Troop, six 9-pdrs, on the ridge from mid-afternoon."))
    u.append(artillery("art2", A, "2nd Div. artillery", "2", attack=guns(12 * 1.25), defense=2, mr=4, ma=3,
                       range_=4, historical="Bolton's foot battery and Sympher's KGL horse troop (c. 12 guns)."))
    u.append(cavalry("grant", A, "Grant's hussars", "C", attack=cf(1000), defense=cf(1000) - 1,
                     charge=cf(1000) + 2, mr=4, ma=8,
                     historical="5th Cavalry Brigade, 7th and 15th Hussars (c. 1,000), watching Piré."))
    return u


FORMATIONS = {
    "6": {"side": "french", "name": "6th Infantry Division (Jérôme)"},
    "9": {"side": "french", "name": "9th Infantry Division (Foy)"},
    "5": {"side": "french", "name": "5th Infantry Division (Bachelu)"},
    "P": {"side": "french", "name": "2nd Cavalry Division (Piré)"},
    "K": {"side": "french", "name": "III Cavalry Corps detachment (Kellermann)"},
    "CR": {"side": "french", "name": "II Corps reserve artillery"},
    "G": {"side": "allied", "name": "1st (Guards) Division (Cooke)"},
    "N": {"side": "allied", "name": "Nassau and Hanoverian detachments"},
    "2": {"side": "allied", "name": "2nd Division (Clinton)"},
    "4": {"side": "allied", "name": "Mitchell's brigade, 4th Division"},
    "R": {"side": "allied", "name": "Royal Horse Artillery reserve"},
    "C": {"side": "allied", "name": "Cavalry (Grant)"},
}

TURN_LABELS = ["11:30", "12:30", "13:30", "14:30", "15:30", "16:30", "17:30", "18:30", "19:30", "20:30"]

DESIGNER_NOTES = """\
Scale: one hex is 176 yards (about 160 m) across; a turn is one hour. The map runs from the Allied reserve \
ground at Merbe-Braine and the Nivelles road in the north to the ridge of the French II Corps in the south, and \
from beyond the Nivelles road (Piré's cavalry) in the west to just short of La Haye Sainte in the east.

Ground. Positions were estimated from the modern battlefield and period plans and rounded to the grid. The \
château and farm buildings (one hex), the walled garden and the Great Orchard east of it, and the wood to the \
south are placed hex by hex; the orchard and wood are ringed by hedges and ditches, the orchard's north side \
standing for the hollow way. Ridge crests are one hex wide and block line of sight (Wellington's reverse slope); \
their forward faces are slope hexsides. East of the lane from Hougoumont the Ohain road runs sunken just behind \
the Allied crest. Mon Plaisir is placed approximately on the French side of the Nivelles road.

Factors. Infantry and cavalry: one combat factor per 400 men, rounded. British, KGL and Guards units add 1 to \
defence (line firepower); French light infantry add 1 to attack (skirmishers); the Hanoverian Landwehr lose 1 \
from attack. Cavalry defend at one less than they attack; light cavalry charge at factor + 2, lancers and \
cuirassiers at + 3. Artillery: one point per three gun-equivalents, a 6-pdr counting 1, a 9-pdr or howitzer \
1.25, a 12-pdr 1.5; range 3 for French horse guns, 4 for field guns and howitzers, 5 for 12-pdrs. Morale: 5 for the \
Guards, the KGL, Adam's light brigade and the RHA; 4 for French line and light infantry, British line and \
Nassau; 3 for Landwehr. Movement: infantry 5, light battalions 6, light cavalry 8, cuirassiers 7, foot \
artillery 3 (the ground was deep mud), horse artillery 5. Reduced brigades and regiments are at half strength, \
rounded up, with morale one lower. Strengths are round figures from the usual secondary accounts; at this \
scale they are approximations.

Counters: 22 French and 20 Allied, leaders included. The garrison (Guards light companies, Nassau, Hanoverian \
jäger) starts in the enclosure; Byng's two Guards battalions start on the ridge and were fed in historically \
from about 13.00; at about 1,000 men each they are two-step units, like the French regiments. The 2nd \
Division is held back as reinforcements for the turns it was committed.

Not modelled: the fire that gutted the château (fold it into bombardment), the Imperial Guard attack on \
Maitland (outside the sector and the scope), weather, and the Prussians.
"""


def build() -> dict[str, Any]:
    mb, k = build_map()
    us = units()
    at = mb.at
    allied_entry = [k["niv_north"], at(-600, 2330), k["ohain_west"]]
    french_entry = [k["niv_south"], at(120, -2250), at(1160, -860)]
    for h in allied_entry + french_entry:
        assert mb.grid.is_edge(h), h
    setup = [
        # Allied
        {"unit": "macdonell", "hex": k["chateau"]},
        {"unit": "gdlt2", "hex": k["chateau"]},
        {"unit": "nassau", "hex": k["wood"], "within": 1},
        {"unit": "hanjg", "hex": "1717", "within": 1},
        {"unit": "gdlt1", "hex": k["orchard"]},
        {"unit": "cooke", "hex": k["crest_above"]},
        {"unit": "cold2", "hex": k["crest_above"], "within": 1},
        {"unit": "gds3", "hex": at(300, 760), "within": 1},
        {"unit": "bull", "hex": at(0, 700)},
        {"unit": "artG", "hex": at(480, 780)},
        {"unit": "wellington", "hex": at(650, 800)},
        {"unit": "maitland", "hex": at(650, 800), "within": 1},
        {"unit": "mitchell", "hex": at(-850, 880), "within": 1},
        {"unit": "grant", "hex": at(-600, 1350), "within": 1},
        # French
        {"unit": "jerome", "hex": at(-150, -820)},
        {"unit": "1leger", "hex": at(-150, -820)},
        {"unit": "1leger1", "hex": at(-300, -750), "within": 1},
        {"unit": "3ligne", "hex": at(100, -850), "within": 1},
        {"unit": "1ligne", "hex": at(-250, -1100), "within": 1},
        {"unit": "2ligne", "hex": at(100, -1150), "within": 1},
        {"unit": "art6", "hex": at(-420, -1080)},
        {"unit": "reille", "hex": at(250, -1250)},
        {"unit": "art12", "hex": at(250, -1100)},
        {"unit": "foy", "hex": at(560, -950)},
        {"unit": "gauthier", "hex": at(560, -950)},
        {"unit": "jamin", "hex": at(700, -1150), "within": 1},
        {"unit": "art9", "hex": at(700, -980)},
        {"unit": "bachelu", "hex": at(980, -900)},
        {"unit": "husson", "hex": at(980, -900)},
        {"unit": "campi", "hex": at(1050, -1150), "within": 1},
        {"unit": "art5", "hex": at(850, -850)},
        {"unit": "pire", "hex": at(-1300, -850)},
        {"unit": "hubert", "hex": at(-1300, -850)},
        {"unit": "wathiez", "hex": at(-1550, -1100), "within": 1},
        {"unit": "artP", "hex": at(-1100, -1000)},
    ]
    reinforcements = [
        {"unit": "mercer", "turn": 4, "hex": k["niv_north"]},
        {"unit": "clinton", "turn": 5, "hex": k["niv_north"]},
        {"unit": "adam", "turn": 5, "hex": k["niv_north"]},
        {"unit": "art2", "turn": 5, "hex": allied_entry[1]},
        {"unit": "duplat", "turn": 5, "hex": k["ohain_west"]},
        {"unit": "hhalkett", "turn": 6, "hex": k["ohain_west"]},
        {"unit": "cuir", "turn": 6, "hex": french_entry[2]},
    ]
    objectives = [
        {"hex": k["chateau"], "name": "Hougoumont château", "points": 6, "owner": "allied", "for": "french"},
        {"hex": k["garden"], "name": "Walled garden", "points": 2, "owner": "allied", "for": "french"},
        {"hex": k["orchard"], "name": "Great Orchard", "points": 2, "owner": "allied", "for": "french"},
        {"hex": k["crest_above"], "name": "Ridge above Hougoumont", "points": 3, "owner": "allied", "for": "french"},
        {"hex": k["crest_niv"], "name": "Nivelles road crest", "points": 2, "owner": "allied", "for": "french"},
        {"hex": k["gun_line"], "name": "II Corps gun line", "points": 3, "owner": "french", "for": "allied"},
        {"hex": k["mon_plaisir"], "name": "Mon Plaisir", "points": 2, "owner": "french", "for": "allied"},
    ]
    victory = {
        "description": (
            "At the end of turn 10 (20.30) each side scores the enemy objectives it has taken (an objective is "
            "controlled by the last side to have a combat unit in it): the French score the château (6), the "
            "walled garden (2), the Great Orchard (2), the ridge above Hougoumont (3) and the Nivelles road "
            "crest (2); the Allies score the II Corps gun line (3) and Mon Plaisir (2). Each side also scores "
            "enemy losses: 1 per step eliminated (a reduced unit counts one), 2 per unit captured, 2 per leader "
            "killed, 3 per leader captured. The higher score wins; a lead of less than 2 is a draw. The French "
            "win at once if at the end of any turn they control the château, the garden and the Great Orchard "
            "together: Hougoumont has fallen and the Allied right is open."
        ),
        "objectives": objectives,
        "points": {"step_eliminated": 1, "unit_captured": 2, "leader_eliminated": 2, "leader_captured": 3},
        "draw_margin": 2,
        "sudden_death": [{"side": "french", "hexes": [k["chateau"], k["garden"], k["orchard"]]}],
    }
    briefing = {
        "general": (
            "Waterloo, 18 June 1815, half past eleven. Napoleon opens the battle on his left: Reille's II Corps "
            "is to drive the Allied garrison out of the walled farm of Hougoumont, which juts out from "
            "Wellington's right like a bastion, and draw the Duke's reserves away from the centre. The wood, the "
            "orchard and the château will swallow brigade after brigade for the rest of the day."
        ),
        "french": (
            "You command Reille's II Corps. Jérôme's division starts before the wood; Foy's and Bachelu's stand "
            "on the ridge to its right and Piré's cavalry watches the far left beyond the Nivelles road. Clear "
            "the wood, then break into the garden, the orchard and the château: holding all three at the end of "
            "a turn wins at once. The walls halve infantry attacks and supporting fire, but not a "
            "bombardment on its own, so batter the garrison with the guns first. Kellermann's cuirassiers come up on your right at 16.30 for a blow at the ridge."
        ),
        "allied": (
            "You hold the right of Wellington's line. The château is garrisoned by Guards light companies under "
            "Macdonell, with Nassauers and Hanoverian jäger in the wood and the Great Orchard; Byng's Guards "
            "battalions, Maitland's brigade and the guns stand on the ridge behind, Mitchell's brigade beyond "
            "the Nivelles road. Clinton's 2nd Division (Adam, Du Plat, then Hugh Halkett's Hanoverians) is "
            "released from 15.30. Keep Hougoumont and the ridge, and make the French pay for every attack."
        ),
    }
    return {
        "id": "hougoumont",
        "title": "Hougoumont",
        "subtitle": "Waterloo, 18 June 1815: Reille's II Corps against the Allied right",
        "ruleset": "quickplay",
        "provenance": (
            "Designed for Vedette from the historical record, as told in the general published histories of "
            "Waterloo; the map, counters, factors and victory conditions are our own and are not taken from any "
            "published game."
        ),
        "designer_notes": DESIGNER_NOTES,
        "briefing": briefing,
        "map": mb.to_json(),
        "tec": TEC,
        "sides": {
            "french": {
                "name": "French Army of the North (II Corps)", "adjective": "French", "color": "#2b4fa3",
                "text_color": "#ffffff", "entry_hexes": french_entry, "edge": "south", "replacement_steps": 2,
            },
            "allied": {
                "name": "Anglo-Allied Army (right wing)", "adjective": "Allied", "color": "#b3322c",
                "text_color": "#ffffff", "entry_hexes": allied_entry, "edge": "north", "replacement_steps": 2,
            },
        },
        "formations": FORMATIONS,
        "units": us,
        "setup": setup,
        "reinforcements": reinforcements,
        "turns": len(TURN_LABELS),
        "turn_labels": TURN_LABELS,
        "hidden": {"enemy_reinforcements": True},
        "first_player": "french",
        "victory": victory,
    }
