"""Charges (4.1, R16.13): declaration and test in step one, then, when the step ends, each charge resolved in
declaration order with the defender's decision (fire, countercharge or hold) asked of its side in the middle of the
charger's turn, defensive fire, the charger's retirement, contact."""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand
from . import command, deck
from . import geometry as geo
from .context import HMCtx
from .firing import fire
from .losses import place
from .movement import charge_walk
from .retreat import fall_back
from .scenario import RIVERS, TOWN, WOODS
from .tables import COLD_STEEL, FORCED_MARCH, NONE, STEADY_LADS, Kind, charge_need, fires_in

FIRE, COUNTER, HOLD = "fire", "countercharge", "hold"


def charge_problem(ctx: HMCtx, uid: str, target: str) -> tuple[str, str] | None:
    """What forbids `uid` charging `target` whatever the path (4.1.6-4.1.8, 6.2, SR.2-SR.4): (rule, why) or None."""
    me, them = ctx.d(uid), ctx.d(target)
    if me.kind in (Kind.ARTILLERY, Kind.WAGONS):
        return "6.2", f"{me.name} never charges"
    if them.kind is Kind.GENERAL or them.side == me.side or not ctx.on_map(target):
        return "4.1", "a charge's target is an enemy unit on the map"
    there = ctx.hex_of(target)
    co_target = ctx.defends_as_co(target)
    if me.kind is Kind.LI:
        front = geo.face_toward(ctx.sc.grid, there, ctx.facing(target), ctx.hex_of(uid),
                                ctx.all_round(target)) == geo.FRONT
        if them.kind.cavalry or (co_target and front):
            return "4.1.6", "light infantry cannot charge cavalry, or close order infantry frontally"
    if them.kind is Kind.ARTILLERY and any(
            (u := ctx.unit_at(n)) is not None and ctx.side_of(u) == them.side and ctx.kind(u) is Kind.CO
            for n in ctx.sc.grid.neighbors(there)):
        return "4.1.7", "a battery with close order infantry next to it cannot be charged"
    if me.kind is Kind.CO:
        if them.kind is Kind.LC or (them.kind is Kind.HC and not them.dragoon):
            return "4.1.8.1", "close order infantry never charges heavy or light cavalry"
        if co_target and ctx.strength(uid) < ctx.strength(target):
            return "4.1.8.2", (f"{me.name} ({ctx.strength(uid)} hits from rout) is weaker than {them.name} "
                               f"({ctx.strength(target)})")
    if me.kind.cavalry and (ctx.sc.terrain_at(there) in (WOODS, TOWN) or there in ctx.sc.fieldworks):
        return "SR.2", "cavalry may not charge units in woods, towns or fieldworks (SR.2-SR.4)"
    if charge_need(me.kind, me.grade, ctx.staggered(uid)) is None:
        return "4.1.1", f"{me.name} is staggered levy infantry and may not charge"
    return None


def judge(ctx: HMCtx, side: str, uid: str, target: str, path: list[str]) -> str:
    """Every check of a charge declaration but the card and the allowance; the target's face it charges."""
    if ctx.step != "charges":
        raise IllegalCommand("4.1", "charges are declared in step one of movement")
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid) or ctx.is_general(uid):
        raise IllegalCommand("4.1", "charge with one of your units on the map")
    if target not in ctx.sc.units:
        raise IllegalCommand("4.1", f"there is no unit '{target}'")
    if uid in ctx.x.get("acted", []):
        raise IllegalCommand("4.1", f"{ctx.says(uid)} has already declared a charge this turn")
    problem = charge_problem(ctx, uid, target)
    if problem is not None:
        raise IllegalCommand(*problem)
    w = charge_walk(ctx, uid, path, target)
    face = geo.face_toward(ctx.sc.grid, ctx.hex_of(target), ctx.facing(target), w.hex, ctx.all_round(target))
    for c in ctx.x.get("charges", []):
        if c["target"] == target and c["face"] == face and c["passed"]:
            raise IllegalCommand("4.1.2a", f"{ctx.says(c['unit'])} already charges {ctx.says(target)}'s {face}")
    return face


def cmd_charge(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    uid, target, path, card = cmd.get("unit"), cmd.get("target"), cmd.get("path"), cmd.get("card")
    if not isinstance(uid, str) or not isinstance(target, str) or not isinstance(path, list):
        raise IllegalCommand("4.1", "a charge names its unit, its target and its path")
    face = judge(ctx, side, uid, target, [str(h) for h in path])
    if card is not None:
        card = deck.check(ctx, side, card, uid, (COLD_STEEL, FORCED_MARCH))
    command.act(ctx, side, uid, card if card == FORCED_MARCH else None)
    if card == COLD_STEEL:
        deck.spend(ctx, side, card, uid)
    d = ctx.d(uid)
    need = charge_need(d.kind, d.grade, ctx.staggered(uid))
    assert need is not None
    entry = {"unit": uid, "target": target, "path": [str(h) for h in path], "face": face, "need": need,
             "card": card == COLD_STEEL, "passed": False}
    ctx.listed("charges").append(entry)
    _test(ctx, entry, "4.1.1")


def _test(ctx: HMCtx, entry: dict[str, Any], rule: str) -> None:
    uid = entry["unit"]
    (die,) = ctx.roll(1, f"charge test of {ctx.says(uid)} (needs {entry['need']})", ["d6"], rule, unit=uid)
    entry["passed"] = die >= entry["need"]
    if entry["passed"]:
        ctx.emit("charge", f"{rule}: {ctx.says(uid)} charges {ctx.says(entry['target'])}'s {entry['face']}",
                 unit=uid, target=entry["target"], path=entry["path"], rule=rule)
        ctx.x["steady_for"] = None
    else:
        ctx.emit("charge_failed", f"{rule}: {ctx.says(uid)} fails its charge test and will not charge this turn",
                 unit=uid, target=entry["target"], rule=rule)
        ctx.x["steady_for"] = uid


def steady_lads(ctx: HMCtx, side: str, uid: str) -> None:
    """R16.10: right after one of your charge tests fails, before any other command: re-roll it."""
    if ctx.x.get("steady_for") != uid:
        raise IllegalCommand("R16.10", "Steady Lads is played right after that unit's charge test fails")
    entry = next(c for c in reversed(ctx.x["charges"]) if c["unit"] == uid)
    for c in ctx.x["charges"]:
        if c is not entry and c["passed"] and c["target"] == entry["target"] and c["face"] == entry["face"]:
            raise IllegalCommand("4.1.2a", f"{ctx.says(c['unit'])} already charges that face")
    card = deck.check(ctx, side, STEADY_LADS, uid, (STEADY_LADS,))
    deck.spend(ctx, side, card, uid)
    _test(ctx, entry, "R16.10")


# --- resolution (R16.13's numbered steps) ----------------------------------------------------------------
def reactions(ctx: HMCtx, target: str, charger_hex: str) -> list[str]:
    """R16.13 step 2: fire (charged on a front face, able to fire), countercharge (cavalry, not staggered, not
    engaged, charged on a front face), hold."""
    front = geo.face_toward(ctx.sc.grid, ctx.hex_of(target), ctx.facing(target), charger_hex,
                            ctx.all_round(target)) == geo.FRONT
    out = []
    engaged = target in ctx.engaged()
    d = ctx.d(target)
    if front and not engaged and d.weapon != NONE and fires_in(d.kind, ctx.formation(target)):
        out.append(FIRE)
    if front and not engaged and d.kind.cavalry and not ctx.staggered(target):
        out.append(COUNTER)
    return out + [HOLD]


def task_charge(ctx: HMCtx, task: dict[str, Any]) -> None:
    """Resolve the next passed charge from `task["i"]` (R16.13 steps 1-2); its answer continues in `decide`."""
    charges = ctx.x.get("charges", [])
    i = task["i"]
    while i < len(charges) and not charges[i]["passed"]:
        i += 1
    if i >= len(charges):
        return
    ctx.st.tasks.append({"t": "hm_charge", "i": i + 1})
    c = charges[i]
    uid, target = c["unit"], c["target"]
    if not ctx.on_map(uid):
        return
    try:
        if not ctx.on_map(target):
            raise IllegalCommand("4.1.2", "its target is gone")
        w = charge_walk(ctx, uid, c["path"], target)
    except IllegalCommand as e:
        ctx.emit("charge_blocked", f"R16.13: {ctx.says(uid)}'s charge does not take place ({e.message}); its move is "
                                   "spent", unit=uid, rule="R16.13")
        return
    side = ctx.side_of(target)
    options = [{"id": o, "label": {FIRE: "Fire at the charger (4.1.3)", COUNTER: "Countercharge (4.1.4)",
                                  HOLD: "Hold"}[o]} for o in reactions(ctx, target, w.hex)]
    ctx.st.decision = {
        "kind": "charge_reaction", "side": side, "rule": "4.1.3",
        "text": f"{ctx.says(uid)} charges {ctx.says(target)} from {w.hex}: fire, countercharge or hold?",
        "options": options, "task": {"i": i}, "hexes": [ctx.hex_of(uid), w.hex, ctx.hex_of(target)],
        "units": [uid, target],
    }


def decide(ctx: HMCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    """R16.13 steps 3-5: defensive fire and its effect on the charger, then contact."""
    c = ctx.x["charges"][task["i"]]
    uid, target = c["unit"], c["target"]
    choice = option["id"]
    ctx.emit("charge_reaction", f"4.1.3: {ctx.says(target)} answers the charge: {choice}", unit=target, target=uid,
             choice=choice, rule="4.1.4" if choice == COUNTER else "4.1.3")
    if choice == FIRE:
        was = ctx.staggered(uid)
        fire(ctx, target, uid, defensive=True)
        if not ctx.on_map(uid):
            return  # routed by the fire: removed (R16.13 step 4)
        if ctx.staggered(uid) and not was:
            ctx.st.units[uid].moved = True
            fall_back(ctx, uid, None, "4.1.5")
            return
    w = charge_walk(ctx, uid, c["path"], target)
    river = any(ctx.sc.terrain_at(h) in RIVERS for h in [c["path"][0], *w.entered])
    if w.hex != ctx.hex_of(uid):
        place(ctx, uid, w.hex)
    ctx.set_facing(uid, w.facing)
    ctx.st.units[uid].moved = True
    ctx.st.units[uid].charging = target
    ctx.listed("contacts").append({"charger": uid, "target": target, "counter": choice == COUNTER, "river": river,
                                   "card": bool(c.get("card"))})
    ctx.emit("contact", f"4.1.9: {ctx.says(uid)} makes contact with {ctx.says(target)} at {w.hex}", unit=uid,
             target=target, hex=w.hex, rule="4.1.9")



def paths_to(ctx: HMCtx, uid: str, target: str) -> list[list[str]]:
    """Every charge path `uid` may take to `target` now (R16.13's path rules; the allowance and card apart): straight
    rows out through `f-1`, `f`, `f+1`, each stopping next to the target."""
    sc = ctx.sc
    start = ctx.hex_of(uid)
    there = ctx.hex_of(target)
    f = geo.index(ctx.facing(uid))
    reach = 5
    if sc.grid.distance(start, there) > reach + 1:
        return []
    out: list[list[str]] = []
    candidates = [[start]] if sc.grid.is_adjacent(start, there) else []
    for g in (f, f + 1, f - 1):
        path = [start]
        for _ in range(reach):
            nxt = sc.neighbour(path[-1], g)
            if nxt is None:
                break
            path = [*path, nxt]
            if sc.grid.is_adjacent(nxt, there):
                candidates.append(path)
    for path in candidates:
        try:
            charge_walk(ctx, uid, path, target)
        except IllegalCommand:
            continue
        out.append(path)
    return out


def possible(ctx: HMCtx, side: str, acted_ok: bool = False) -> list[dict[str, Any]]:
    """Every charge the side could declare now, the command allowance and cards apart (R16.13)."""
    out: list[dict[str, Any]] = []
    acted = set(ctx.x.get("acted", []))
    enemies = ctx.units_of(ctx.enemy(side))
    for uid in ctx.units_of(side):
        if not ctx.kind(uid).fights or (uid in acted and not acted_ok):
            continue
        here = ctx.hex_of(uid)
        for t in enemies:
            if ctx.sc.grid.distance(here, ctx.hex_of(t)) > 6 or charge_problem(ctx, uid, t) is not None:
                continue
            for path in paths_to(ctx, uid, t):
                face = geo.face_toward(ctx.sc.grid, ctx.hex_of(t), ctx.facing(t), path[-1], ctx.all_round(t))
                if any(c["target"] == t and c["face"] == face and c["passed"] for c in ctx.x.get("charges", [])):
                    continue
                out.append({"type": "charge", "unit": uid, "target": t, "path": path})
    return out
