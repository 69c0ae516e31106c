"""Close combat (11.0, R17.80-R17.89): who may attack whom, the modifiers above and below the line with the +4/-4
cap, the Close Combat Table, retreats (R17.85) and the unable-to-retreat roll (11.4.5), advances (R17.87), Cavalry
Pursuit (11.7.2) and the Formation Hits after the combat (R17.89). The combat in progress is `extra["cc"]`; each
step is a task, and each choice (the defender's pistol, a retreat path, a MAY advance, a facing) a decision."""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.facing import Arc, Direction, direction_between_ids
from .context import MPCtx
from .losses import eliminate, formation_hit, leader_casualty, remove_leader, worsen_morale
from .movement import stacking_ok, step_cost
from .tables import (
    BREAK_OFF,
    CC_CAP,
    CLASS_LABELS,
    HEDGEHOG,
    PURSUE,
    TABLE_CC,
    UNABLE_ELIMINATED_AT,
    Condition,
    Kind,
    Mode,
    Morale,
    Order,
    cc_result,
    matrix,
    pursuit_result,
)


def attackable(ctx: MPCtx, defender: str) -> str | None:
    """Why `defender` cannot be attacked now (None: it can): once per activation, TEC "NA" (R17.80, R17.83)."""
    if not ctx.on_map(defender) or ctx.is_leader(defender):
        return "the defender is an enemy unit on the map"
    if defender in ctx.act_list("defended"):
        return f"{ctx.says(defender)} has already been attacked this activation"
    there = ctx.hex_of(defender)
    if ctx.sc.terrain(there).cc is None:
        return f"a unit in {ctx.sc.terrain(there).name} cannot be attacked (TEC: NA)"
    if ctx.kind(defender) is Kind.ARTILLERY and any(ctx.kind(u) is not Kind.ARTILLERY
                                                     for u in ctx.units_in(there)):
        return "artillery is ignored in close combat (11.5): attack the unit stacked with it"
    return None


def attacker_problem(ctx: MPCtx, uid: str, defender: str, intercept: bool = False) -> str | None:
    """R17.80: why `uid` may not attack `defender` (None: it may)."""
    if not ctx.on_map(uid) or ctx.is_leader(uid) or ctx.side_of(uid) == ctx.side_of(defender):
        return "attackers are units of the side attacking"
    if not intercept:
        if ctx.unit_wing(uid) != ctx.active_wing:
            return f"{ctx.says(uid)} is not of the active wing"
        if ctx.order(ctx.unit_wing(uid)) is not Order.CHARGE:
            return "only units of a wing under Charge declare close combat (R17.35)"
        if uid in ctx.act_list("attacked"):
            return f"{ctx.says(uid)} has already attacked this activation"
    if ctx.morale(uid) is not Morale.NORMAL:
        return f"{ctx.says(uid)} is Morale {ctx.morale(uid).value.title()}"
    if ctx.mode(uid) in (Mode.COLUMN, Mode.HEDGEHOG):
        return f"{ctx.says(uid)} is in {ctx.mode(uid).value.title()}"
    if ctx.kind(uid) is Kind.ARTILLERY:
        return "artillery never attacks (11.5)"
    if ctx.kind(uid) is Kind.LI and ctx.kind(defender) is not Kind.LI:
        return "Light Infantry attacks only Light Infantry (11.6)"
    if not ctx.sc.grid.is_adjacent(ctx.hex_of(uid), ctx.hex_of(defender)):
        return f"{ctx.says(uid)} is not next to {ctx.says(defender)}"
    if ctx.arc(uid, ctx.hex_of(defender)) is not Arc.FRONT:
        return f"{ctx.says(defender)} is not in {ctx.says(uid)}'s front arc"
    return None


def judge(ctx: MPCtx, side: str, defender: str, attackers: list[str], lead: str, pistols: list[str]) -> None:
    if ctx.segment != "close_combat":
        raise IllegalCommand("R17.80", "close combats are declared in the Close Combat Segment")
    if defender not in ctx.sc.units or ctx.side_of(defender) == side:
        raise IllegalCommand("R17.80", "the defender is an enemy unit")
    why = attackable(ctx, defender)
    if why:
        raise IllegalCommand("R17.80", why)
    if not attackers or len(set(attackers)) != len(attackers):
        raise IllegalCommand("R17.80", "name each attacker once")
    if lead not in attackers:
        raise IllegalCommand("R17.80", "the lead attacker is one of the attackers")
    for a in attackers:
        if a not in ctx.sc.units:
            raise IllegalCommand("R17.80", f"unknown unit {a}")
        why = attacker_problem(ctx, a, defender)
        if why:
            raise IllegalCommand("R17.80", why)
    if ctx.kind(defender) is not Kind.ARTILLERY and matrix(ctx.d(lead).cc_class, defender_class(ctx, defender)) is None:
        raise IllegalCommand("11.6", "Light Infantry attacks only Light Infantry (11.3.8: NA)")
    for p in pistols:
        if p not in attackers or ctx.kind(p) is not Kind.CAVALRY or int(ctx.info(p).get("pistols", 0)) <= 0:
            raise IllegalCommand("R17.81", f"{ctx.says(p) if p in ctx.sc.units else p} has no pistol shot to spend")


def defender_class(ctx: MPCtx, defender: str) -> str:
    return HEDGEHOG if ctx.mode(defender) is Mode.HEDGEHOG else ctx.d(defender).cc_class


def declare(ctx: MPCtx, side: str, defender: str, attackers: list[str], lead: str, pistols: list[str],
            intercept: bool = False) -> None:
    """Start a close combat: the attackers are marked, the defender's pistol asked (R17.81), then the roll."""
    ctx.act_list("defended").append(defender)
    if not intercept:
        ctx.act_list("attacked").extend(attackers)
    cc = {"defender": defender, "attackers": list(attackers), "lead": lead, "pistols": list(pistols),
          "def_pistol": False, "intercept": intercept, "side": side,
          "def_hex": ctx.hex_of(defender), "lead_hex": ctx.hex_of(lead)}
    ctx.x["cc"] = cc
    ctx.emit("close_combat_declared", f"R17.80: {ctx.names(attackers)} attack{'s' if len(attackers) == 1 else ''} "
                                      f"{ctx.says(defender)} at {cc['def_hex']} (lead: {ctx.says(lead)})",
             defender=defender, attackers=attackers, lead=lead, pistols=pistols, rule="R17.80",
             hexes=[cc["def_hex"], *{ctx.hex_of(a) for a in attackers}])
    for p in pistols:
        ctx.info(p)["pistols"] = int(ctx.info(p)["pistols"]) - 1
    ctx.st.tasks.append({"t": "mp_cc_resolve"})
    if ctx.kind(defender) is Kind.CAVALRY and int(ctx.info(defender).get("pistols", 0)) > 0 \
            and not ctx.broken(defender):
        ctx.st.decision = {
            "kind": "pistol", "side": ctx.side_of(defender), "rule": "R17.81",
            "text": f"{ctx.says(defender)} is attacked: spend a pistol shot for -1 to the attacker's roll? "
                    "(rules 11.0, R17.81)",
            "options": [{"id": "spend", "label": "Spend a pistol shot (-1)"}, {"id": "keep", "label": "Keep it"}],
            "task": {}, "hexes": [cc["def_hex"]], "units": [defender],
        }


def decide_pistol(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    cc = ctx.x["cc"]
    if option["id"] == "spend":
        cc["def_pistol"] = True
        d = cc["defender"]
        ctx.info(d)["pistols"] = int(ctx.info(d)["pistols"]) - 1
        ctx.emit("pistol", f"R17.81: {ctx.says(d)} spends a pistol shot", unit=d, rule="R17.81")


def _leader_with(ctx: MPCtx, units: list[str]) -> str | None:
    side = ctx.side_of(units[0])
    cands = [lid for u in units if ctx.on_map(u) for lid in ctx.leaders_in(ctx.hex_of(u)) if ctx.side_of(lid) == side]
    return min(cands, key=lambda lid: (ctx.rating(lid), lid)) if cands else None


def modifiers(ctx: MPCtx, cc: dict[str, Any]) -> tuple[list[dict[str, Any]], int, dict[str, Any]]:
    """R17.82-R17.84: every modifier (label, value, rule), the capped total, and what pursuit reads later."""
    dfn, lead, atts = cc["defender"], cc["lead"], [a for a in cc["attackers"] if ctx.on_map(a)]
    mods: list[dict[str, Any]] = []

    def add(label: str, value: int, rule: str) -> None:
        if value:
            mods.append({"label": label, "value": value, "rule": rule})

    a_leader = _leader_with(ctx, atts)
    d_leader = _leader_with(ctx, [dfn])
    add(f"attacking leader {ctx.says(a_leader)}" if a_leader else "", 1 if a_leader else 0, "11.3.2")
    add(f"defending leader {ctx.says(d_leader)}" if d_leader else "", -1 if d_leader else 0, "11.3.2")
    am = ctx.d(lead).morale - (1 if ctx.morale(lead) is Morale.SHAKEN else 0)
    dm = ctx.d(dfn).morale - (1 if ctx.morale(dfn) is Morale.SHAKEN else 0)
    add(f"morale differential {am} - {dm}", am - dm, "11.3.3")
    a_sp = sum(ctx.sp_now(a) for a in atts if ctx.kind(a) is not Kind.ARTILLERY)
    d_sp = max(1, ctx.sp_now(dfn))
    ratio = 2 if a_sp >= 4 * d_sp else 1 if a_sp >= 2 * d_sp else -2 if 4 * a_sp <= d_sp else -1 if 2 * a_sp <= d_sp \
        else 0
    add(f"strength {a_sp}:{d_sp}", ratio, "11.3.4")
    col = defender_class(ctx, dfn)
    mx = matrix(ctx.d(lead).cc_class, col) or 0
    add(f"matrix {CLASS_LABELS[ctx.d(lead).cc_class]} vs {CLASS_LABELS[col]}", mx, "11.3.8")
    add("defending cavalry expends a pistol shot", -1 if cc.get("def_pistol") else 0, "11.0")
    add(f"{len(cc['pistols'])} attacking cavalry expend a pistol shot", len(cc["pistols"]), "11.0")
    flank = sum(1 for h in {ctx.hex_of(a) for a in atts} if ctx.arc(dfn, h) is not Arc.FRONT)
    add("attacked from flank/rear hexes", flank, "11.3.7")
    # below the line: once per combat, the worst formation modifier per side
    worst = 0
    for a in atts:
        c, m = ctx.cond(a), ctx.mode(a)
        v = -2 if c is Condition.BROKEN else -1 if (c is Condition.SHAKEN or m is Mode.OPEN_ORDER) else 0
        worst = min(worst, v)
    add("attacker Formation Shaken/Open Order" if worst == -1 else "attacker Formation Broken", worst, "11.0")
    add("fired Salvo just prior", 1 if ctx.act.get("salvo_at", {}).get(lead) == dfn else 0, "11.0")
    momentum = 0
    if not cc.get("intercept") and has_momentum(ctx, lead, dfn):
        momentum = 1 if ctx.kind(lead) is Kind.HI else (1 if ctx.sc.battle == "halmstad" else 2)
    add("Heavy Infantry Momentum" if ctx.kind(lead) is Kind.HI else "Cavalry Momentum", momentum, "11.3.6")
    dc, dmode = ctx.cond(dfn), ctx.mode(dfn)
    dv = 2 if dc is Condition.BROKEN else 1 if (dc is Condition.SHAKEN or dmode is Mode.OPEN_ORDER) else 0
    add("defender Formation Shaken/Open Order" if dv == 1 else "defender Formation Broken", dv, "11.0")
    there = ctx.hex_of(dfn)
    t = ctx.sc.terrain(there)
    add(f"TEC: {t.name.replace('_', ' ')}", int(t.cc or 0), "TEC")
    if there in ctx.sc.wagons:
        add("TEC: wagon in hex", -1, "TEC")
    st = ctx.sc.side_terrain(ctx.hex_of(lead), there)
    if st is not None:
        add(f"TEC: {st.name.replace('_', ' ')} hexside", int(st.cc or 0), "TEC")
    raw = sum(int(m["value"]) for m in mods)
    total = max(-CC_CAP, min(CC_CAP, raw))
    return mods, total, {"a_leader": a_leader, "d_leader": d_leader, "momentum": momentum, "raw": raw}


def has_momentum(ctx: MPCtx, lead: str, dfn: str) -> bool:
    """11.3.6 (R17.83): under Charge, in Line and Formation Normal, not adjacent to the defender when the activation
    began, and moved into its attack hex this activation."""
    if ctx.kind(lead) not in (Kind.HI, Kind.CAVALRY):
        return False
    if ctx.order(ctx.unit_wing(lead)) is not Order.CHARGE or ctx.mode(lead) is not Mode.LINE:
        return False
    if ctx.cond(lead) is not Condition.NORMAL or not ctx.st.units[lead].moved:
        return False
    if dfn in ctx.act.get("start_adjacent", {}).get(lead, []):
        return False
    return bool(ctx.act.get("entered", {}).get(lead) == ctx.hex_of(lead))


def task_resolve(ctx: MPCtx, task: dict[str, Any]) -> None:
    cc = ctx.x.get("cc")
    if not cc:
        return
    dfn, lead = cc["defender"], cc["lead"]
    if not ctx.on_map(dfn) or not ctx.on_map(lead):
        ctx.x["cc"] = None
        return
    if ctx.broken(dfn):
        ctx.emit("close_combat", f"R17.74: {ctx.says(dfn)} is Morale Broken: eliminated without a roll",
                 defender=dfn, lead=lead, rule="R17.74", table=TABLE_CC, result="DE")
        _defender_gone(ctx, cc, "R17.74")
        cc["outcome"] = {"advance": "attacker_may"}
        ctx.st.tasks.append({"t": "mp_cc_finish"})
        ctx.st.tasks.append({"t": "mp_cc_advance"})
        return
    if ctx.kind(dfn) is Kind.ARTILLERY:
        ctx.emit("close_combat", f"R17.80: {ctx.says(dfn)} is overrun", defender=dfn, lead=lead, rule="11.5",
                 table=TABLE_CC, result="overrun")
        _defender_gone(ctx, cc, "11.5")
        cc["outcome"] = {"advance": "must"}
        ctx.st.tasks.append({"t": "mp_cc_finish"})
        ctx.st.tasks.append({"t": "mp_cc_advance"})
        return
    mods, total, info = modifiers(ctx, cc)
    (die,) = ctx.roll(1, "close combat", ["combat die"], "11.0", defender=dfn, lead=lead)
    result, row = cc_result(die + total)
    capped = f" (capped from {info['raw']:+d})" if info["raw"] != total else ""
    ctx.emit("close_combat", f"11.0: {ctx.says(lead)} leads against {ctx.says(dfn)}: die {die}"
                             + "".join(f" {m['value']:+d} ({m['label']})" for m in mods)
                             + f"{capped}: total modifier {total:+d}, {die + total}: {result.text}",
             defender=dfn, lead=lead, attackers=cc["attackers"], die=die, modifiers=mods, raw=info["raw"],
             total_modifier=total, total=die + total, row=row, result=result.code, result_text=result.text,
             table=TABLE_CC, rule="11.0", hexes=[ctx.hex_of(dfn), ctx.hex_of(lead)])
    cc["outcome"] = {"code": result.code, "loser": result.loser, "advance": result.advance, "pursuit": result.pursuit,
                     "momentum": info["momentum"], "leader": info["a_leader"] if result.loser == "defender"
                     else info["d_leader"]}
    for lid in (info["a_leader"], info["d_leader"]):
        if lid:
            leader_casualty(ctx, lid, "11.3.2")
    loser = dfn if result.loser == "defender" else lead
    cc["loser"] = loser
    cc["vacated"] = ctx.hex_of(loser) if ctx.on_map(loser) else None
    ctx.st.tasks.append({"t": "mp_cc_finish"})
    if result.pursuit:
        ctx.st.tasks.append({"t": "mp_cc_pursuit"})
    ctx.st.tasks.append({"t": "mp_cc_advance"})
    if result.morale == "eliminated":
        if loser == dfn:
            _defender_gone(ctx, cc, "11.0")
        else:
            eliminate(ctx, loser, "11.0")
        return
    worsen_morale(ctx, loser, "11.0", Morale.BROKEN if result.morale == "broken" else Morale.SHAKEN)
    if ctx.on_map(loser):
        enemies = [a for a in cc["attackers"] if ctx.on_map(a)] if loser == dfn else [dfn]
        ctx.st.tasks.append({"t": "mp_retreat", "unit": loser, "n": result.retreat, "enemies": enemies,
                             "defender": loser == dfn})
    elif loser == dfn:
        _artillery_with(ctx, cc["def_hex"], dfn)


def _defender_gone(ctx: MPCtx, cc: dict[str, Any], rule: str) -> None:
    dfn = cc["defender"]
    cc["vacated"] = ctx.hex_of(dfn)
    cc["loser"] = dfn
    eliminate(ctx, dfn, rule)
    _artillery_with(ctx, cc["vacated"], dfn)


def _artillery_with(ctx: MPCtx, hex_: str, dfn: str) -> None:
    """R17.87: artillery stacked with a defender that retreats or is eliminated is eliminated."""
    for u in list(ctx.units_in(hex_)):
        if u != dfn and ctx.kind(u) is Kind.ARTILLERY and ctx.side_of(u) == ctx.side_of(dfn):
            eliminate(ctx, u, "R17.87")


# --- retreat (R17.85, R17.86, 11.4.5) -----------------------------------------------------------------------
def retreat_paths(ctx: MPCtx, uid: str, n: int, enemies: list[str]) -> list[list[str]]:
    """Every retreat path of up to n hexes: each hex farther from every enemy unit of the combat, no NA terrain, no
    enemy-occupied hex (friends may be passed), ending within stacking. The longest ones only."""
    side = ctx.side_of(uid)
    ehexes = [ctx.hex_of(e) for e in enemies if ctx.on_map(e)]
    start = ctx.hex_of(uid)
    found: list[list[str]] = []

    def far(a: str, b: str) -> bool:
        return all(ctx.dist(b, e) > ctx.dist(a, e) for e in ehexes)

    def go(path: list[str]) -> None:
        if len(path) > 1 and stacking_ok(ctx, uid, path[-1]):
            found.append(path)
        if len(path) - 1 >= n:
            return
        for nb in ctx.sc.grid.neighbors(path[-1]):
            if nb in path or ctx.enemy_in(nb, side) or not far(path[-1], nb):
                continue
            if step_cost(ctx, uid, path[-1], nb) is None and ctx.kind(uid) is not Kind.LEADER:
                # NA terrain (R17.85); a `#` without a road is a movement rule, not a retreat one: allow it
                t = ctx.sc.terrain(nb)
                col = ctx.d(uid).column
                side_t = ctx.sc.side_terrain(path[-1], nb)
                if {"hi": t.hi, "cav": t.cav, "li": t.li}[col] is None or (
                        side_t is not None and {"hi": side_t.hi, "cav": side_t.cav, "li": side_t.li}[col] is None):
                    continue
            go([*path, nb])

    go([start])
    if not found:
        return []
    longest = max(len(p) for p in found)
    return [p for p in found if len(p) == longest]


def task_retreat(ctx: MPCtx, task: dict[str, Any]) -> None:
    uid = task["unit"]
    if not ctx.on_map(uid):
        return
    n = int(task["n"])
    paths = retreat_paths(ctx, uid, n, task["enemies"])
    if not paths or len(paths[0]) - 1 < n:
        ctx.st.tasks.append({"t": "mp_unable", "unit": uid, "defender": task["defender"]})
    if not paths:
        return
    ctx.st.decision = {
        "kind": "retreat", "side": ctx.side_of(uid), "rule": "R17.85",
        "text": f"{ctx.says(uid)} retreats {n} hex{'es' if n > 1 else ''} from {ctx.hex_of(uid)}: choose the path "
                "(rules 11.0, R17.85)",
        "options": [{"id": "-".join(p[1:]), "label": " → ".join(p[1:]), "path": p[1:], "hex": p[-1]} for p in paths],
        "task": {"unit": uid, "defender": task["defender"]}, "hexes": sorted({p[-1] for p in paths}),
        "from": ctx.hex_of(uid), "units": [uid],
    }


def decide_retreat(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    start = ctx.hex_of(uid)
    path = list(option["path"])
    leaders = [lid for lid in ctx.leaders_in(start) if ctx.side_of(lid) == ctx.side_of(uid)]
    for h in path[:-1]:
        for u in ctx.units_in(h):
            if ctx.side_of(u) == ctx.side_of(uid):
                formation_hit(ctx, u, "R17.18")  # a unit retreated through takes a Formation Hit
    ctx.st.units[uid].hex = path[-1]
    for lid in leaders:
        ctx.st.units[lid].hex = path[-1]  # R17.38: a leader retreats with the unit it is stacked with
    ctx.dirty()
    ctx.emit("retreat", f"R17.85: {ctx.says(uid)} retreats to {path[-1]}", unit=uid, path=path, rule="R17.85",
             hexes=[start, *path])
    if task.get("defender"):
        _artillery_with(ctx, start, uid)


def task_unable(ctx: MPCtx, task: dict[str, Any]) -> None:
    """R17.86: a Morale Broken unit that could not retreat its full distance rolls 11.4.5; a Morale Shaken one
    becomes Morale Broken where it stops."""
    uid = task["unit"]
    if not ctx.on_map(uid):
        return
    if ctx.morale(uid) is Morale.SHAKEN:
        worsen_morale(ctx, uid, "R17.86", Morale.BROKEN)
        return
    d = ctx.d(uid)
    mods = (-2 if d.morale <= 6 else 0) + (1 if d.morale == 8 else 0)
    (die,) = ctx.roll(1, "unable to retreat", ["unable die"], "11.4.5", unit=uid)
    stands = die + mods > UNABLE_ELIMINATED_AT
    ctx.emit("unable_to_retreat", f"11.4.5: {ctx.says(uid)} cannot retreat: die {die} {mods:+d} = {die + mods}: "
                                  f"{'stands (Morale Shaken)' if stands else 'eliminated'}",
             unit=uid, die=die, modifiers=[{"label": "Base Morale", "value": mods, "rule": "11.4.5"}] if mods else [],
             total=die + mods, stands=stands, table="Unable to Retreat Table (11.4.5)", rule="11.4.5")
    if stands:
        ctx.info(uid)["morale"] = Morale.SHAKEN.value
        ctx.dirty()
        ctx.info(uid)["cond"] = Condition.BROKEN.value
    else:
        eliminate(ctx, uid, "11.4.5")


# --- advance (R17.87) ----------------------------------------------------------------------------------
def _may_enter(ctx: MPCtx, uid: str, hex_: str) -> bool:
    if not ctx.on_map(uid) or ctx.kind(uid) is Kind.ARTILLERY or ctx.mode(uid) is Mode.HEDGEHOG:
        return False
    if ctx.broken(uid) or ctx.units_in(hex_) and not stacking_ok(ctx, uid, hex_):
        return False
    if ctx.enemy_in(hex_, ctx.side_of(uid)):
        return False
    t = ctx.sc.terrain(hex_)
    return {"hi": t.hi, "cav": t.cav, "li": t.li}[ctx.d(uid).column] is not None


def task_advance(ctx: MPCtx, task: dict[str, Any]) -> None:
    cc = ctx.x.get("cc") or {}
    out = cc.get("outcome") or {}
    vac = cc.get("vacated")
    if not vac:
        return
    mode = out.get("advance")
    lead, dfn = cc["lead"], cc["defender"]
    if mode == "must":
        if _may_enter(ctx, lead, vac) and ctx.hex_of(lead) != vac:
            _advance(ctx, lead, vac)
        return
    who = lead if mode == "attacker_may" else dfn if mode == "may" else None
    if who is None or not _may_enter(ctx, who, vac) or ctx.hex_of(who) == vac:
        return
    ctx.st.decision = {
        "kind": "advance", "side": ctx.side_of(who), "rule": "R17.87",
        "text": f"{ctx.says(who)} MAY advance into {vac} (rules 11.0, R17.87)",
        "options": [{"id": "advance", "label": f"Advance into {vac}", "hex": vac},
                    {"id": "stay", "label": "Stay"}],
        "task": {"unit": who, "hex": vac}, "hexes": [vac], "units": [who],
    }


def decide_advance(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option["id"] == "advance":
        _advance(ctx, task["unit"], task["hex"])


def _advance(ctx: MPCtx, uid: str, hex_: str) -> None:
    start = ctx.hex_of(uid)
    leaders = [lid for lid in ctx.leaders_in(start) if ctx.side_of(lid) == ctx.side_of(uid)]
    ctx.st.units[uid].hex = hex_
    for lid in leaders:
        ctx.st.units[lid].hex = hex_
    ctx.dirty()
    ctx.emit("advance", f"R17.87: {ctx.says(uid)} advances into {hex_}", unit=uid, hex=hex_, rule="R17.87",
             hexes=[start, hex_])
    ctx.st.tasks.append({"t": "mp_face", "unit": uid, "why": "advanced"})  # R17.16: then any facing


def ask_facing(ctx: MPCtx, uid: str, rule: str, text: str) -> None:
    here = ctx.hex_of(uid)
    toward = {}
    for d in Direction:
        n = ctx.sc.grid.id_of(ctx.sc.grid.cube(here) + d.vector)
        toward[d.name] = n
    ctx.st.decision = {
        "kind": "set_facing", "side": ctx.side_of(uid), "rule": rule, "text": f"{text} (rule {rule})",
        "options": [{"id": d.name, "label": f"Face {d.name}" + (f" (toward {toward[d.name]})" if toward[d.name] else ""),
                     "facing": d.name} for d in Direction],
        "task": {"unit": uid}, "hexes": [here], "units": [uid],
    }


def task_face(ctx: MPCtx, task: dict[str, Any]) -> None:
    uid = task["unit"]
    if ctx.on_map(uid):
        ask_facing(ctx, uid, "R17.16", f"{ctx.says(uid)} has {task.get('why', 'moved')}: set its facing")


def decide_facing(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    if ctx.on_map(uid):
        ctx.set_facing(uid, option["id"])
        ctx.emit("facing", f"R17.16: {ctx.says(uid)} faces {option['id']}", unit=uid, facing=option["id"],
                 rule="R17.16")


# --- pursuit (11.7.2, R17.88) and the end of the combat (R17.89) --------------------------------------
def task_pursuit(ctx: MPCtx, task: dict[str, Any]) -> None:
    cc = ctx.x.get("cc") or {}
    out = cc.get("outcome") or {}
    loser = cc.get("loser")
    winners = [cc["defender"]] if out.get("loser") == "attacker" else list(cc["attackers"])
    for w in winners:
        if not ctx.on_map(w) or ctx.kind(w) is not Kind.CAVALRY or ctx.broken(w):
            continue
        mods: list[dict[str, Any]] = []
        if ctx.order(ctx.unit_wing(w)) is Order.CHARGE:
            mods.append({"label": "pursuing cavalry under a Charge order", "value": 1, "rule": "11.7.2"})
        if out.get("momentum") and w == cc["lead"] and out.get("loser") == "defender":
            mods.append({"label": "used Momentum in Close Combat", "value": 1, "rule": "11.7.2"})
        lid = out.get("leader")
        if ctx.sc.series != "tacw" and lid and ctx.rating(lid):
            mods.append({"label": f"leader {ctx.says(lid)}", "value": ctx.rating(lid), "rule": "11.7.2"})
        if ctx.sc.series == "tacw" and any(ctx.d(x).cromwell and ctx.near(ctx.hex_of(x), ctx.hex_of(w))
                                           for x in ctx.leaders_of(ctx.side_of(w))):
            mods.append({"label": "TACW: Cromwell", "value": -2, "rule": "11.7.2"})
        (die,) = ctx.roll(1, "cavalry pursuit", ["pursuit die"], "11.7.2", unit=w)
        total = die + sum(int(m["value"]) for m in mods)
        res = pursuit_result(ctx.sc.series, total)
        ctx.emit("pursuit", f"11.7.2: {ctx.says(w)} pursuit roll {die}"
                            + "".join(f" {m['value']:+d} ({m['label']})" for m in mods)
                            + f" = {total}: {res.replace('_', ' ')}",
                 unit=w, die=die, modifiers=mods, total=total, result=res, column=ctx.sc.series,
                 table="Cavalry Pursuit Table (11.7.2)", rule="11.7.2")
        if res == BREAK_OFF:
            continue
        if loser and ctx.on_map(loser):
            eliminate(ctx, loser, "11.7.2")
        if res == PURSUE:
            ctx.info(w)["cond"] = Condition.BROKEN.value
            ctx.emit("formation", f"11.7.2: {ctx.says(w)} is Formation Broken after the pursuit", unit=w,
                     rule="11.7.2")
        else:
            here = ctx.hex_of(w)
            for lid in [x for x in ctx.leaders_in(here) if ctx.side_of(x) == ctx.side_of(w)]:
                ctx.st.units[lid].hex = None
                ctx.st.units[lid].status = "removed"
                ctx.dirty()
                remove_leader(ctx, lid, "R17.88")
            eliminate(ctx, w, "R17.88", off_map=True)


def task_finish(ctx: MPCtx, task: dict[str, Any]) -> None:
    """R17.89: every participating unit still on the map takes a Formation Hit."""
    cc = ctx.x.get("cc") or {}
    for u in [*cc.get("attackers", []), cc.get("defender")]:
        if u and ctx.on_map(u) and not ctx.broken(u):
            formation_hit(ctx, u, "R17.89")
    ctx.x["cc"] = None


def must_attack(ctx: MPCtx, side: str) -> list[str]:
    """R17.80: Charge units that moved next to an enemy unit (not broken) in their front arc this activation and may
    still attack one: the Close Combat Segment may not end before they do."""
    wid = ctx.active_wing
    if wid is None or ctx.order(wid) is not Order.CHARGE:
        return []
    out = []
    for u in ctx.wing_units_on_map(wid):
        if not ctx.st.units[u].moved or u in ctx.act_list("attacked"):
            continue
        for e in ctx.live_enemies(side):
            if attackable(ctx, e) is None and attacker_problem(ctx, u, e) is None and \
                    (ctx.kind(e) is Kind.ARTILLERY or matrix(ctx.d(u).cc_class, defender_class(ctx, e)) is not None):
                out.append(u)
                break
    return out


def defenders_for(ctx: MPCtx, side: str) -> dict[str, list[str]]:
    """Each enemy unit the active wing may attack now, with the units that may attack it."""
    out: dict[str, list[str]] = {}
    wid = ctx.active_wing
    if wid is None:
        return out
    for e in ctx.units_of(ctx.enemy(side)):
        if attackable(ctx, e) is not None:
            continue
        atts = [u for u in ctx.wing_units_on_map(wid) if attacker_problem(ctx, u, e) is None]
        atts = [u for u in atts if ctx.kind(e) is Kind.ARTILLERY or ctx.broken(e)
                or matrix(ctx.d(u).cc_class, defender_class(ctx, e)) is not None]
        if atts:
            out[e] = atts
    return out


def direction_to(ctx: MPCtx, a: str, b: str) -> str:
    return direction_between_ids(ctx.sc.grid, a, b).name
