"""Königgrätz, 3 July 1866: the counters of seed 002 21.0's orders of battle (docs/scenarios.md, "Königgrätz").

Every factor is computed here from the strengths 21.0 prints beside the formation, by the rules below; nothing is
copied from a published counter sheet (the seed prints none).

* Men per battalion: a corps' men divided by its battalions (21.0's corps totals, after the June losses).
* Infantry: one combat factor per 650 men (the Swiepwald's scale), a Prussian counter's men counted 1.25 times for
  the needle gun (19.9: "accounted for in generally higher combat factors"); Jägers +1 for their rifles.
  An Austrian regiment (three battalions) is one two-step counter (20.1); a corps' Jäger battalions are one
  two-step corps counter (20.1: "combined into corps-level assets"), its full step a red dot (11.2: picked
  riflemen are not replaced).  A Prussian division's battalions are cut into groups of about four (20.1), its
  regiments' battalions taken in order; each group is a two-step counter.  A Prussian Jäger battalion is a
  one-step battalion counter with a red dot.
* Morale: 4; 3 for a corps whose battalions average under 750 men (worn down in June: VI, VIII, X) and for
  fortress troops (Prochaska's Grenzer and fourth battalions); +1 for Guards, Jägers and heavy cavalry.
* Cavalry: one factor per 300 sabres (a squadron 150 men where 21.0 gives no men); charge factor +2 (cuirassiers
  +3); MA 8.  Cavalry divisions and army reserves are counters of a brigade (two or three regiments).
* Artillery: one attack factor per three guns, in counters of at most 27 guns (three Austrian batteries); rifled
  range 3, smoothbore 2 (a Prussian division's two-thirds rifled guns give it 3); defence 1; MA 3, horse 5.
* Leaders: corps, division and army commanders, 1 combat, 1 morale, movement 2, command span their formation
  (army commanders: their army's formations; Benedek: all).  HQs MA 6, trains MA 4.
"""

from __future__ import annotations

import math
from typing import Any

from mapkit import cf_from_guns, cf_from_men

MEN_PER_CF = 650
NEEDLE_GUN = 1.25
RIFLES = 1
SABRES_PER_CF = 300
SQUADRON = 150
GUNS_PER_AF = 3
MAX_GUNS = 27
WORN = 750  # men per battalion under which a corps' morale drops (June's losses)

A, P = "austria", "prussia"

# --- Austria (21.0) --------------------------------------------------------------------------------------------
# (formation, name, men, battalions, guns, cavalry regiment and squadrons, [(brigade, regiments, Jäger bn)])
AUSTRIAN_CORPS: list[tuple[str, str, int, int, int, tuple[str, int], list[tuple[str, list[str], str | None]]]] = [
    ("I", "I Corps", 22_500, 28, 80, ("2 Hu", 4), [
        ("Poschacher", ["30", "34"], "18"), ("Leiningen", ["33", "38"], "32"), ("Piret", ["18", "45"], "29"),
        ("Ringelsheim", ["42", "73"], "26")]),
    ("II", "II Corps", 25_500, 28, 80, ("6 Uh", 4), [
        ("Thom", ["40", "69"], "2"), ("Henriquez", ["14", "27"], "9"), ("Saffran", ["64", "80"], "11"),
        ("Wurttemberg", ["47", "57"], "20")]),
    ("III", "III Corps", 28_000, 28, 80, ("9 Uh", 2), [
        ("Kalik", ["35", "72"], "22"), ("Appiano", ["46", "62"], "4"), ("Benedek", ["52", "78"], "1"),
        ("Kirschberg", ["44", "49"], "3")]),
    ("IV", "IV Corps", 24_000, 28, 80, ("7 Hu", 4), [
        ("Brandenstein", ["12", "26"], "27"), ("Fleishhacker", ["6", "61"], "13"), ("Poeckh", ["37", "51"], "8"),
        ("Joseph", ["67", "68"], "30")]),
    ("VI", "VI Corps", 19_500, 28, 72, ("10 Uh", 4), [
        ("Waldstaetten", ["9", "79"], "6"), ("Hertwegh", ["41", "56"], "25"), ("Rosenweig", ["4", "55"], "17"),
        ("Jonak", ["20", "60"], "14")]),
    ("VIII", "VIII Corps", 19_000, 27, 72, ("3 Uh", 5), [
        ("Fragnern", ["15", "77"], "5"), ("Schulz", ["8", "74"], "31"), ("Kreyssern", ["21", "32"], "24"),
        ("Rothkirch", ["25", "71"], None)]),
    ("X", "X Corps", 15_500, 27, 64, ("9 Uh", 3), [
        ("Mondel", ["10", "24"], "12"), ("Grivicics", ["2", "23"], "16"), ("Knebel", ["1", "3"], "28"),
        ("Wimpffen", ["13", "58"], None)]),
]
# 17.2's formation numbers are the corps' Roman numerals (S80).
CORPS_LEADERS = {"I": "Gondrecourt", "II": "Thun", "III": "Archduke Ernst", "IV": "Mollinary", "VI": "Ramming",
                 "VIII": "Weber", "X": "Gablenz"}

# (formation, sub-formation, division, commander, men, guns, [(brigade, regiments, heavy)])
AUSTRIAN_CAVALRY: list[tuple[str, str | None, str, str, int, int, list[tuple[str, str, bool]]]] = [
    ("1L", None, "1st Light Cavalry Division", "Edelsheim", 4_500, 12, [
        ("Appel", "2 Dr, 9 Hu", False), ("Wallis", "1 Dr, 10 Hu", False), ("Fratricevics", "5 Hu, 8 Hu", False)]),
    ("2L", None, "2nd Light Cavalry Division", "Taxis", 3_000, 8, [
        ("Bellegarde", "4 Hu, 12 Hu", False), ("Westphalen", "6 Hu, 14 Hu", False)]),
    ("C", "1R", "1st Reserve Cavalry Division", "Schleswig-Holstein", 4_000, 8, [
        ("Solms", "4 Cu, 6 Cu, 8 Uh", True), ("Schindloecker", "9 Cu, 11 Cu, 4 Uh", True)]),
    ("C", "2R", "2nd Reserve Cavalry Division", "Egbell", 4_000, 8, [
        ("Boxberg", "3 Cu, 7 Cu, 2 Uh", True), ("Soltyk", "1 Cu, 5 Cu, 5 Uh", True)]),
    ("C", "3R", "3rd Reserve Cavalry Division", "Coudenhove", 4_000, 8, [
        ("Windischgraetz", "2 Cu, 8 Cu, 7 Uh", True), ("Mengen", "10 Cu, 12 Cu, 11 Uh", True)]),
]

# --- Prussia (21.0) --------------------------------------------------------------------------------------------
# (formation, sub-formation, name, army, commander, corps men, corps battalions, regiments, Jäger bn, cavalry)
PRUSSIAN_DIVISIONS: list[tuple[str, str | None, str, str, str, int, int, list[str], str | None, list[str]]] = [
    ("14", None, "14th Division", "elbe", "Münster", 12_500, 13, ["17", "56", "16", "57"], "7", ["7 Dr"]),
    ("15", None, "15th Division", "elbe", "Canstein", 23_000, 25, ["40F", "65", "28", "68"], "8", ["7 Hu"]),
    ("16", None, "16th Division", "elbe", "Etzel", 23_000, 25, ["33F", "34F", "29", "69"], None, []),
    ("3", None, "3rd Division", "first", "Werder", 22_500, 25, ["2", "42", "14", "54"], "2", ["5 Hu"]),
    ("4", None, "4th Division", "first", "Herwarth (4th Div.)", 22_500, 25, ["9", "49", "21", "61"], None, ["4 Uh"]),
    ("5", None, "5th Division", "first", "Tümpling", 22_000, 25, ["8", "48", "12", "18"], "3", ["3 Uh"]),
    ("6", None, "6th Division", "first", "Manstein", 22_000, 25, ["35F", "60", "24", "64"], None, ["2 Dr"]),
    ("7", None, "7th Division", "first", "Fransecky", 21_000, 22, ["26", "66", "27", "67"], "4", ["10 Hu"]),
    ("8", None, "8th Division", "first", "Horn", 21_000, 22, ["31", "71", "72"], None, ["6 Uh"]),
    ("G", "1G", "1st Guard Division", "second", "Hiller", 24_500, 26, ["1Gd", "2Gd", "3Gd", "GdF"], "Gd",
     ["Gd Hu"]),
    ("G", "2G", "2nd Guard Division", "second", "Plonski", 24_500, 26, ["1Gr", "2Gr", "3Gr", "4Gr"], "GdS",
     ["3 Gd Uh", "Garde du Corps, Gd Cu"]),
    ("1", None, "1st Division", "second", "Grossmann", 24_000, 25, ["1", "41", "3", "43"], "1", ["1 Dr"]),
    ("2", None, "2nd Division", "second", "Clausewitz", 24_000, 25, ["4", "44", "5", "45"], None,
     ["1 Hu", "3 Cu, 8 Uh, 12 Uh"]),
    ("9", None, "9th Division", "second", "Löwenfeld", 17_500, 22, ["37F", "58", "7"], "5", ["4 Dr"]),
    ("10", None, "10th Division", "second", "Kirchbach", 17_500, 22, ["6", "46", "52", "47"], None, ["1 Uh"]),
    ("11", None, "11th Division", "second", "Zastrow", 18_500, 19, ["10", "50", "38F", "51"], "6", ["8 Dr"]),
    ("12", None, "12th Division", "second", "Prondzynski", 18_500, 19, ["22", "23"], None, ["4 Hu"]),
]
ARMIES = {"elbe": ("Elbe Army", "Herwarth", "E"), "first": ("First Army", "Frederick Charles", "F"),
          "second": ("Second Army", "Crown Prince Frederick William", "S")}
DIVISION_GUNS = 24  # 21.0: "4 btys with each division" of six guns


def _reg_name(reg: str) -> str:
    if reg.endswith("Gd"):
        return f"{reg[:-2]} Gd"
    if reg.endswith("Gr"):
        return f"{reg[:-2]} Gd Gren"
    if reg == "GdF":
        return "Gd Fus"
    if reg.endswith("F"):
        return f"{reg[:-1]} Fus"
    return f"Rgt {reg}"  # not "IR": the Austrian regiments are "IR n", and many numbers are on both sides


def battalion_groups(regiments: list[str]) -> list[list[tuple[str, str]]]:
    """20.1: a division's battalions (three a regiment, in the order listed) cut into groups of about four."""
    bns = [(reg, bn) for reg in regiments for bn in ("I", "II", "F")]
    n = max(1, round(len(bns) / 4))
    size, extra = divmod(len(bns), n)
    out, i = [], 0
    for k in range(n):
        take = size + (1 if k < extra else 0)
        out.append(bns[i:i + take])
        i += take
    return out


def group_name(group: list[tuple[str, str]]) -> str:
    """'Rgt 26 + I/66': whole regiments by name, parts by their battalions."""
    parts: list[str] = []
    for reg in dict.fromkeys(r for r, _ in group):
        bns = [b for r, b in group if r == reg]
        name = _reg_name(reg)
        parts.append(name if len(bns) == 3 else f"{','.join(bns)}/{name.split(' ', 1)[-1] if name.startswith('Rgt') else name}")
    return " + ".join(parts)


def _counter(uid: str, side: str, kind: str, name: str, formation: str, unit_id: str, sub: str | None,
             historical: str, **faces: dict[str, Any]) -> dict[str, Any]:
    """A combat counter: its faces (2.4: full, reduced or ineffective) and its sub-formation (19.1) if any."""
    u: dict[str, Any] = {"id": uid, "side": side, "kind": kind, "name": name, "unit_id": unit_id,
                         "formation": formation, **faces, "historical": historical}
    if sub is not None:
        u["sub_formation"] = sub
    return u


def _two_step(uid: str, side: str, name: str, formation: str, cf: int, mr: int, *, sub: str | None,
              unit_id: str, historical: str, red_dot: bool = False) -> dict[str, Any]:
    """A regiment or group (2.5): the reduced side half the CF (rounded up), one less morale."""
    full: dict[str, Any] = {"cf": cf, "mr": mr, "ma": 4}
    if red_dot:
        full["red_dot"] = True
    return _counter(uid, side, "infantry", name, formation, unit_id, sub, historical, full=full,
                    reduced={"cf": (cf + 1) // 2, "mr": mr - 1, "ma": 4})


def _one_step(uid: str, side: str, name: str, formation: str, cf: int, mr: int, *, sub: str | None,
              unit_id: str, historical: str, jager: bool = True) -> dict[str, Any]:
    """A battalion (2.7): its ineffective side fights with nothing, two morale lower."""
    full: dict[str, Any] = {"cf": cf, "mr": mr, "ma": 5}
    if jager:
        full["red_dot"] = True  # 11.2: picked riflemen are not replaced
    return _counter(uid, side, "battalion", name, formation, unit_id, sub, historical, full=full,
                    ineffective={"cf": 0, "mr": max(mr - 2, 1), "ma": 5})


def horse(uid: str, side: str, name: str, formation: str, sabres: int, *, heavy: bool, sub: str | None,
          historical: str) -> dict[str, Any]:
    cf = cf_from_men(sabres, SABRES_PER_CF)
    mr = 5 if heavy else 4
    return _counter(uid, side, "cavalry", name, formation, uid.upper(), sub, historical,
                    full={"cf": cf, "mr": mr, "ma": 8, "charge": cf + (3 if heavy else 2)},
                    ineffective={"cf": 1, "mr": mr - 2, "ma": 8})


def guns(uid: str, side: str, name: str, formation: str, n: int, *, rifled: bool = True, horse_art: bool = False,
         sub: str | None = None, historical: str) -> dict[str, Any]:
    rng = 3 if rifled else 2
    ma = 5 if horse_art else 3
    return _counter(uid, side, "artillery", name, formation, uid.upper(), sub, historical,
                    full={"attack": cf_from_guns(n, GUNS_PER_AF), "defense": 1, "range": rng, "ma": ma},
                    ineffective={"attack": 1, "defense": 0, "range": rng - 1, "ma": ma})


def batteries(prefix: str, side: str, label: str, formation: str, total: int, *, sub: str | None = None,
              horse_art: bool = False, historical: str) -> list[dict[str, Any]]:
    """`total` guns in counters of at most MAX_GUNS, shared out evenly."""
    n = math.ceil(total / MAX_GUNS)
    base, extra = divmod(total, n)
    out = []
    for k in range(n):
        g = base + (1 if k < extra else 0)
        suffix = f" {chr(65 + k)}" if n > 1 else ""
        out.append(guns(f"{prefix}{k + 1}", side, f"{label}{suffix} ({g})", formation, g, horse_art=horse_art,
                        sub=sub, historical=historical))
    return out


def leader(uid: str, side: str, name: str, formation: str, span: list[str], historical: str) -> dict[str, Any]:
    return {"id": uid, "side": side, "kind": "leader", "name": name, "formation": formation,
            "leader": {"combat": 1, "morale": 1, "movement": 2},
            "leader_ineffective": {"combat": 0, "morale": 0, "movement": 1}, "span": span,
            "historical": historical}


def _slug(text: str) -> str:
    return "".join(c for c in text.lower().replace(" ", "-") if c.isalnum() or c == "-")


# --- the Austrian North Army ---------------------------------------------------------------------------------
def austrian_units() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"id": "a-hq", "side": A, "kind": "hq", "name": "North Army HQ", "ma": 6,
         "historical": "Benedek's headquarters on the Chlum heights (17.2); 19.5's lethargy rolls whether it is active."},
        {"id": "a-trains", "side": A, "kind": "trains", "name": "North Army trains", "ma": 4,
         "historical": "The army's trains at Wschestar on the road to Königgrätz (17.2)."},
        leader("benedek", A, "Benedek", "A", ["A"], "FZM Ludwig von Benedek, commanding the North Army."),
    ]
    for fid, name, men, bns, n_guns, (cav, sqs), brigades in AUSTRIAN_CORPS:
        per_bn = men // bns
        mr = 3 if per_bn < WORN else 4
        low = fid.lower()
        out.append(leader(f"a-{low}-cdr", A, CORPS_LEADERS[fid], fid, [fid],
                          f"The commander of the {name} ({name}: {men:,} men, {n_guns} guns in {bns} battalions, 21.0)."))
        jager_bns = 0
        for k, (bde, regiments, jg) in enumerate(brigades, start=1):
            for reg in regiments:
                out.append(_two_step(f"a-ir{reg}", A, f"IR {reg}", fid, cf_from_men(3 * per_bn, MEN_PER_CF), mr,
                                     sub=f"{fid}.{k}", unit_id=f"IR{reg}",
                                     historical=f"Infantry Regiment {reg}, three battalions of Brigade {bde} "
                                                f"({name}; {per_bn} men a battalion)."))
            jager_bns += 1 if jg else 0
        jgs = [jg for _, _, jg in brigades if jg]
        out.append(_two_step(f"a-{low}-jg", A, f"{fid} Corps Jäger", fid,
                             cf_from_men(jager_bns * per_bn, MEN_PER_CF) + RIFLES, mr + 1, sub=None,
                             unit_id=f"{fid}JG", red_dot=True,
                             historical=f"The {name}'s Feldjäger battalions {', '.join(jgs)} as one corps counter (20.1)."))
        out += batteries(f"a-{low}-art", A, f"{fid} Corps guns", fid, n_guns,
                         historical=f"The {name}'s artillery: {n_guns} guns, mostly rifled 4-pounders (21.0).")
        out.append(horse(f"a-{low}-cav", A, f"{cav} ({fid})", fid, sqs * SQUADRON, heavy=False, sub=None,
                         historical=f"The {name}'s cavalry: {cav}, {sqs} squadrons (21.0)."))
    # [P] Prochaska's brigade from the fortress.
    per_bn = 5_750 // 7
    out += [
        leader("a-p-cdr", A, "Prochaska", "P", ["P"], "GM Prochaska's brigade, fielded from Fortress Königgrätz."),
        _two_step("a-gr13", A, "13 Grenzer", "P", cf_from_men(4 * per_bn, MEN_PER_CF), 3, sub=None, unit_id="GR13",
                  historical="The 13th Grenz Infantry Regiment, four battalions (5,750 men in 7 battalions, 21.0)."),
        _one_step("a-iv55", A, "IV/55", "P", cf_from_men(per_bn, MEN_PER_CF), 3, sub=None, unit_id="IV55", jager=False,
                  historical="The fourth battalion of Infantry Regiment 55."),
        _one_step("a-iv56", A, "IV/56", "P", cf_from_men(per_bn, MEN_PER_CF), 3, sub=None, unit_id="IV56", jager=False,
                  historical="The fourth battalion of Infantry Regiment 56."),
        _one_step("a-jg3334", A, "33+34 Jg", "P", cf_from_men(per_bn, MEN_PER_CF) + RIFLES, 5, sub=None,
                  unit_id="JG33", historical="Feldjäger Battalions 33 and 34 combined."),
        guns("a-p-art", A, "Prochaska's battery (8)", "P", 8,
             historical="One 4-pounder battery borrowed from X Corps' artillery."),
    ]
    for fid, sub, div, cdr, men, n_guns, brigades in AUSTRIAN_CAVALRY:
        key = (sub or fid).lower()
        span = [fid]
        out.append(leader(f"a-{key}-cdr", A, cdr, fid, span, f"The commander of the {div} (21.0)."))
        sabres = (men - 25 * n_guns) // len(brigades)  # about 25 gunners a gun
        for bde, regiments, heavy in brigades:
            out.append(horse(f"a-{key}-{_slug(bde)}", A, f"Bde {bde}", fid, sabres, heavy=heavy, sub=sub,
                             historical=f"Brigade {bde} of the {div}: {regiments} (21.0)."))
        out.append(guns(f"a-{key}-art", A, f"{div.split(' ', 1)[0]} {'Res.' if heavy else 'Lt.'} Cav. guns ({n_guns})",
                        fid, n_guns, horse_art=True, sub=sub,
                        historical=f"The {div}'s horse batteries, {n_guns} 4-pounders (21.0)."))
    out += batteries("a-r-art", A, "Army Reserve guns", "R", 128,
                     historical="The Artillery Reserve: 128 guns in 16 batteries of XI and XII Artillery (21.0).")
    out += saxon_units()
    return out


def saxon_units() -> list[dict[str, Any]]:
    """The Saxon Army (21.0): one formation (SX, 17.2's 'S') with the divisions as sub-formations (19.1)."""
    out = [leader("a-sx-cdr", A, "Crown Prince Albert", "SX", ["SX"], "Crown Prince Albert of Saxony.")]
    for k, (div, men, cdr, bdes, cav) in enumerate([
            ("1st Division", 8_000, "Schimpff", [("2nd Bde", "2", "5-8"), ("3rd Bde", "3", "9-12")], "IV/2 + IV/3 Cav"),
            ("2nd Division", 7_500, "Stieglitz", [("1st Bde", "1", "1-4"), ("4th (Leib) Bde", "4", "13-16")],
             "IV/Gd + IV/1 Cav")], start=1):
        per_bn = men // 10
        sub = f"SX.{k}"
        out.append(leader(f"a-sx{k}-cdr", A, cdr, "SX", ["SX"], f"The commander of the Saxon {div}."))
        for bde, jg, line_bns in bdes:
            short = bde.split(" ")[0].rstrip("stndrh")
            out.append(_two_step(f"a-sx-b{short}", A, f"Saxon {bde}", "SX", cf_from_men(4 * per_bn, MEN_PER_CF), 4,
                                 sub=sub, unit_id=f"SX{short}",
                                 historical=f"The Saxon {bde}: infantry battalions {line_bns} (21.0)."))
            out.append(_one_step(f"a-sx-jg{jg}", A, f"Saxon Jg {jg}", "SX", cf_from_men(per_bn, MEN_PER_CF) + RIFLES,
                                 5, sub=sub, unit_id=f"SX{short}", historical=f"Saxon Jäger Battalion {jg}."))
        out.append(guns(f"a-sx{k}-art", A, f"Saxon {div[:3]} Div. guns (12)", "SX", 12, sub=sub,
                        historical=f"The {div}'s batteries: one 12-pdr smoothbore, one 6-pdr rifled."))
        out.append(horse(f"a-sx{k}-cav", A, f"Saxon {cav}", "SX", 2 * SQUADRON, heavy=False, sub=sub,
                         historical=f"The {div}'s two squadrons ({cav})."))
    for k, regs in enumerate(["Gd & 1 Cav", "2 & 3 Cav"], start=1):
        out.append(horse(f"a-sx-cb{k}", A, f"Saxon Cav Bde {k}", "SX", 1_000, heavy=False, sub="SX.C",
                         historical=f"Saxon Cavalry Division, {k}st Bde: {regs}, three squadrons each (2,000 sabres)."
                         .replace("2st", "2nd")))
    out.append(guns("a-sx-r1", A, "Saxon Res. rifled (12)", "SX", 12, sub="SX.R",
                    historical="Saxon artillery reserve: two 6-pdr rifled batteries."))
    out.append(guns("a-sx-r2", A, "Saxon Res. 12-pdr (18)", "SX", 18, rifled=False, sub="SX.R",
                    historical="Saxon artillery reserve: three 12-pdr batteries (one horse)."))
    return out


# --- the Prussian armies ---------------------------------------------------------------------------------------
def prussian_units() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for army, (aname, cdr, _) in ARMIES.items():
        out.append({"id": f"p-hq-{army}", "side": P, "kind": "hq", "name": f"{aname} HQ", "army": army, "ma": 6,
                    "historical": f"{cdr}'s headquarters; 17.4: it commands only the {aname}'s formations."})
    for fid, sub, name, army, cdr, men, bns, regiments, jg, cavalry in PRUSSIAN_DIVISIONS:
        per_bn = men // bns
        mr = 5 if fid == "G" else 4
        key = (sub or fid).lower()
        out.append(leader(f"p-{key}-cdr", P, cdr, fid, [fid], f"The commander of the {name} (21.0)."))
        for k, group in enumerate(battalion_groups(regiments), start=1):
            gname = group_name(group)
            uid = f"p-{key}-g{k}"
            label = gname
            if (fid, k) == ("14", 1):
                label = f"AG/14: {gname}"
            out.append(_two_step(uid, P, label, fid, cf_from_men(int(len(group) * per_bn * NEEDLE_GUN), MEN_PER_CF),
                                 mr, sub=sub, unit_id=f"{key.upper()}G{k}",
                                 historical=f"{name}: {len(group)} battalions ({gname}) fighting as one group (20.1), "
                                            f"{per_bn} men a battalion."))
        if jg is not None:
            jname = {"Gd": "Gd Jäger", "GdS": "Gd Schützen"}.get(jg, f"Jäger Bn {jg}")
            out.append(_one_step(f"p-jg{jg.lower()}", P, jname, fid,
                                 cf_from_men(int(per_bn * NEEDLE_GUN), MEN_PER_CF) + RIFLES, 5, sub=sub,
                                 unit_id=f"{key.upper()}G1", historical=f"{jname} with the {name} (corps troops, 21.0)."))
        out.append(guns(f"p-{key}-art", P, f"{name.replace('Division', 'Div.')} guns ({DIVISION_GUNS})", fid, DIVISION_GUNS,
                        sub=sub, historical=f"The {name}'s four batteries, about two-thirds rifled 6-pounders."))
        for j, cav in enumerate(cavalry, start=1):
            regs = cav.split(", ")
            out.append(horse(f"p-{key}-cav{j}", P, cav, fid, 4 * SQUADRON * len(regs), heavy="Cu" in cav, sub=sub,
                             historical=f"{cav} with the {name} (21.0)."))
    # The army reserves (21.0): F First Army, E the Elbe Army's (21.0's second "[F]", S81), S Second Army.
    out.append(leader("p-f-cav-cdr", P, "Prince Albrecht", "F", ["F"], "Commander of First Army's cavalry corps."))
    for k, regs in enumerate(["2 Cu, 7 Cu", "6 Cu, 1 Gd Dr", "3 Dr, 2 Gd Dr", "9 Uh, 11 Uh", "1 Gd Uh, 2 Gd Uh",
                              "3 Hu, 12 Hu"], start=1):
        out.append(horse(f"p-f-cav{k}", P, regs, "F", 8_000 // 6, heavy="Cu" in regs, sub=None,
                         historical=f"First Army Reserve cavalry: {regs} (eight squadrons)."))
    out += batteries("p-f-horse", P, "F horse guns", "F", 30, horse_art=True,
                     historical="First Army Reserve cavalry's five horse batteries (21.0).")
    out += batteries("p-f-art", P, "First Army Res. guns", "F", 84,
                     historical="First Army Reserve artillery: 84 guns in 14 batteries (21.0).")
    for k, (regs, sq) in enumerate([("8 Cu, 7 Uh", 8), ("5 Uh, Lw Cav", 8), ("11 Hu", 4)], start=1):
        out.append(horse(f"p-e-cav{k}", P, regs + (" (AG Lt Cav)" if k == 3 else ""), "E", 3_250 * sq // 20,
                         heavy="Cu" in regs, sub=None, historical=f"Elbe Army Reserve cavalry: {regs} (21.0)."))
    out.append(guns("p-e-horse", P, "E horse guns (6)", "E", 6, horse_art=True,
                    historical="The Elbe Army Reserve cavalry's horse battery, with the advance guard."))
    out += batteries("p-e-art", P, "Elbe Army Res. guns", "E", 48,
                     historical="Elbe Army Reserve artillery: 48 guns in 8 batteries (21.0).")
    out.append(leader("p-s-cav-cdr", P, "Hartmann", "S", ["S"], "Commander of Second Army's cavalry reserve."))
    for k, (regs, sq) in enumerate([("1 Cu, 5 Cu", 8), ("2 Hu, 10 Uh", 8), ("2 Lw Hu, 1 Lw Uh", 4)], start=1):
        out.append(horse(f"p-s-cav{k}", P, regs, "S", 3_250 * sq // 20, heavy="Cu" in regs, sub=None,
                         historical=f"Second Army Reserve cavalry: {regs} (21.0)."))
    out.append(guns("p-s-horse", P, "S horse guns (12)", "S", 12, horse_art=True,
                    historical="Second Army Reserve cavalry's two horse batteries (21.0)."))
    out += batteries("p-s-art", P, "Second Army Res. guns", "S", 84,
                     historical="Second Army's reserve artillery, assembled during the battle from the corps' reserves "
                                "(21.0); 84 guns, as First Army's reserve (S81).")
    for army, (aname, cdr, reserve) in ARMIES.items():
        forms = [d[0] for d in PRUSSIAN_DIVISIONS if d[3] == army]
        out.append(leader(f"p-{army}-cdr", P, cdr, reserve, list(dict.fromkeys(forms + [reserve])),
                          f"{cdr}, commanding the {aname}; 17.4: he affects only its formations."))
    return out


def formations() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for fid, name, *_rest in AUSTRIAN_CORPS:
        out[fid] = {"side": A, "name": name, "sub_formations": [f"{fid}.{k}" for k in range(1, 5)]}
    out["P"] = {"side": A, "name": "Brigade Prochaska"}
    out["1L"] = {"side": A, "name": "1st Light Cavalry Division (17.2's E)"}
    out["2L"] = {"side": A, "name": "2nd Light Cavalry Division (17.2's T)"}
    out["C"] = {"side": A, "name": "Reserve (Heavy) Cavalry", "sub_formations": ["1R", "2R", "3R"]}
    out["R"] = {"side": A, "name": "Artillery Reserve"}
    out["SX"] = {"side": A, "name": "Saxon Army (17.2's S)", "sub_formations": ["SX.1", "SX.2", "SX.C", "SX.R"]}
    for fid, sub, name, army, *_ in PRUSSIAN_DIVISIONS:
        if fid == "G":
            out["G"] = {"side": P, "name": "Guard Corps", "army": army, "sub_formations": ["1G", "2G"]}
        else:
            out[fid] = {"side": P, "name": name, "army": army}
    out["E"] = {"side": P, "name": "Elbe Army Reserve", "army": "elbe"}
    out["F"] = {"side": P, "name": "First Army Reserve", "army": "first"}
    out["S"] = {"side": P, "name": "Second Army Reserve", "army": "second"}
    return out


def units() -> list[dict[str, Any]]:
    return austrian_units() + prussian_units()
