"""Reactions to an active unit's move (9.3, R17.50, R17.51): the other side's interception by cavalry, then each
adjacent unit's Reaction Fire, Hedgehog, Withdraw or Retreating Fire, chosen one unit at a time by their owner."""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.facing import Arc, direction_between_ids
from .combat import attackable, attacker_problem, declare
from .context import MPCtx
from .fire import REACTION, RETREATING, fire, judge
from .losses import formation_hit
from .movement import allowance, reachable, stacking_ok, step_cost, walk
from .tables import INTERCEPTION, Condition, Kind, Mode, Morale, Order, chance_at_most, matrix


def intercept_mods(ctx: MPCtx, uid: str) -> list[dict[str, Any]]:
    """9.3's modifiers (R17.50)."""
    d = ctx.d(uid)
    out: list[dict[str, Any]] = []
    if d.morale == 8:
        out.append({"label": "Original Morale of 8", "value": -1, "rule": "9.3"})
    if d.morale <= 6:
        out.append({"label": "Original Morale of 6 or less", "value": 1, "rule": "9.3"})
    for lid in ctx.leaders_in(ctx.hex_of(uid)):
        if ctx.side_of(lid) == d.side and ctx.rating(lid):
            out.append({"label": f"{ctx.says(lid)}'s rating", "value": ctx.rating(lid), "rule": "9.3"})
    if ctx.sc.battle == "halmstad":
        out.append({"label": "NGBG: Interceptions at Halmstad", "value": 1, "rule": "R17.9"})
    return out


def interceptors(ctx: MPCtx, mover: str) -> list[tuple[str, list[str]]]:
    """R17.50: the cavalry that may try to intercept the mover, each with its path to a hex next to it."""
    side = ctx.enemy(ctx.side_of(mover))
    there = ctx.hex_of(mover)
    if attackable(ctx, mover) is not None and ctx.kind(mover) is not Kind.ARTILLERY:
        return []
    out = []
    for u in ctx.units_of(side):
        if ctx.kind(u) is not Kind.CAVALRY or INTERCEPTION[ctx.order(ctx.unit_wing(u))] is None:
            continue
        if ctx.morale(u) is not Morale.NORMAL or ctx.cond(u) is Condition.BROKEN or \
                ctx.mode(u) in (Mode.COLUMN, Mode.HEDGEHOG):
            continue
        if ctx.adjacent_enemy(ctx.hex_of(u), side) or ctx.arc(u, there) is not Arc.FRONT:
            continue
        if ctx.kind(mover) is not Kind.ARTILLERY and matrix(ctx.d(u).cc_class, ctx.d(mover).cc_class
                                                              if ctx.mode(mover) is not Mode.HEDGEHOG
                                                              else "hedgehog") is None:
            continue
        ends = reachable(ctx, u, intercept=True)
        paths = [p for h, p in sorted(ends.items()) if ctx.sc.grid.is_adjacent(h, there)]
        if paths:
            out.append((u, min(paths, key=len)))
    return out


def task_intercept(ctx: MPCtx, task: dict[str, Any]) -> None:
    mover = task["mover"]
    if not ctx.on_map(mover) or ctx.broken(mover):
        return
    cands = interceptors(ctx, mover)
    if not cands:
        return
    options: list[dict[str, Any]] = [{"id": "none", "label": "No interception"}]
    for u, path in cands:
        need = INTERCEPTION[ctx.order(ctx.unit_wing(u))]
        mods = intercept_mods(ctx, u)
        p = chance_at_most(need, sum(int(m["value"]) for m in mods))
        base = {"unit": u, "path": path, "hex": path[-1], "need": need, "modifiers": mods, "odds": p}
        options.append({"id": u, "label": f"Intercept with {ctx.says(u)} from {path[-1]} (0-{need}, "
                                          f"{round(p * 100)}%)", **base, "pistol": False})
        if int(ctx.info(u).get("pistols", 0)) > 0:
            options.append({"id": f"{u}+pistol", "label": f"Intercept with {ctx.says(u)}, spending a pistol shot "
                                                          f"(0-{need}, {round(p * 100)}%)", **base, "pistol": True})
    ctx.st.decision = {
        "kind": "intercept", "side": ctx.enemy(ctx.side_of(mover)), "rule": "9.3",
        "text": f"{ctx.says(mover)} has moved to {ctx.hex_of(mover)}: intercept it with cavalry? (rules 9.3, R17.50)",
        "options": options, "task": {"mover": mover}, "hexes": [ctx.hex_of(mover)],
        "units": [mover, *[u for u, _ in cands]],
    }


def decide_intercept(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option["id"] == "none":
        return
    mover, u, path = task["mover"], option["unit"], option["path"]
    need = INTERCEPTION[ctx.order(ctx.unit_wing(u))]
    mods = option["modifiers"]
    (die,) = ctx.roll(1, "interception", ["interception die"], "9.3", unit=u)
    total = die + sum(int(m["value"]) for m in mods)
    ok = need is not None and total <= need
    ctx.emit("interception", f"9.3: {ctx.says(u)} tries to intercept {ctx.says(mover)}: die {die}"
                             + "".join(f" {m['value']:+d} ({m['label']})" for m in mods)
                             + f" = {total}, needs 0-{need}: {'success' if ok else 'failure'}",
             unit=u, mover=mover, die=die, modifiers=mods, total=total, need=need, success=ok,
             table="Interception Table (9.3)", rule="9.3")
    if not ok:
        return
    try:
        w = walk(ctx, u, path, intercept=True)
    except IllegalCommand:
        return
    _go(ctx, u, path, w.hits)
    if not ctx.on_map(u) or ctx.cond(u) is Condition.BROKEN:
        return
    ctx.set_facing(u, direction_between_ids(ctx.sc.grid, ctx.hex_of(u), ctx.hex_of(mover)).name)
    if attacker_problem(ctx, u, mover, intercept=True) is None:
        declare(ctx, ctx.side_of(u), mover, [u], u, [u] if option.get("pistol") else [], intercept=True)


def _go(ctx: MPCtx, uid: str, path: list[str], hits: list[str]) -> None:
    start = ctx.hex_of(uid)
    ctx.st.units[uid].hex = path[-1]
    ctx.dirty()
    ctx.emit("move", f"R17.40: {ctx.says(uid)} moves {start} → {path[-1]}", unit=uid, path=path[1:], rule="R17.40",
             hexes=path)
    for h in hits:
        formation_hit(ctx, uid, "R17.42", terrain=True)
        _ = h


# --- adjacent reactions (R17.51) ----------------------------------------------------------------------------
def withdraw_paths(ctx: MPCtx, uid: str, mover: str) -> list[list[str]]:
    """Withdraw: up to 2 hexes within its MA, each hex farther from the mover, may Pass (+1 MP, R17.18)."""
    side = ctx.side_of(uid)
    there = ctx.hex_of(mover)
    ma = allowance(ctx, uid)
    out = []

    def go(path: list[str], spent: int) -> None:
        if len(path) > 1 and stacking_ok(ctx, uid, path[-1]):
            out.append(path)
        if len(path) > 2:
            return
        for n in ctx.sc.grid.neighbors(path[-1]):
            if n in path or ctx.enemy_in(n, side):
                continue
            if ctx.dist(n, there) <= ctx.dist(path[-1], there):
                continue
            got = step_cost(ctx, uid, path[-1], n)
            if got is None:
                continue
            cost = got[0] + (1 if ctx.units_in(n) else 0)
            if spent + cost > ma:
                continue
            go([*path, n], spent + cost)

    go([ctx.hex_of(uid)], 0)
    return out


def reactions_of(ctx: MPCtx, uid: str, mover: str) -> list[dict[str, Any]]:
    """The reactions `uid` may take to the mover now (R17.51), as decision options."""
    out: list[dict[str, Any]] = []
    name = ctx.says(uid)
    charge = ctx.order(ctx.unit_wing(uid)) is Order.CHARGE
    try:
        judge(ctx, uid, mover, REACTION)
        out.append({"id": f"{uid}|fire", "label": f"{name}: Reaction Fire", "unit": uid, "reaction": "fire"})
    except IllegalCommand:
        pass
    if ctx.kind(uid) is Kind.HI and ctx.d(uid).pikes and ctx.kind(mover) is Kind.CAVALRY and \
            ctx.cond(uid) is not Condition.BROKEN and ctx.mode(uid) is not Mode.HEDGEHOG:
        out.append({"id": f"{uid}|hedgehog", "label": f"{name}: form Hedgehog", "unit": uid, "reaction": "hedgehog"})
    if ctx.kind(uid) in (Kind.LI, Kind.CAVALRY) and ctx.cond(uid) is not Condition.BROKEN and not charge:
        paths = withdraw_paths(ctx, uid, mover)
        try:
            judge(ctx, uid, mover, RETREATING)
            can_fire = True
        except IllegalCommand:
            can_fire = False
        for p in paths:
            out.append({"id": f"{uid}|withdraw|{'-'.join(p[1:])}", "label": f"{name}: Withdraw to {p[-1]}",
                        "unit": uid, "reaction": "withdraw", "path": p, "hex": p[-1]})
            if can_fire:
                out.append({"id": f"{uid}|rfire|{'-'.join(p[1:])}",
                            "label": f"{name}: Retreating Fire, then Withdraw to {p[-1]}", "unit": uid,
                            "reaction": "retreating_fire", "path": p, "hex": p[-1]})
    return out


def task_react(ctx: MPCtx, task: dict[str, Any]) -> None:
    mover = task["mover"]
    if not ctx.on_map(mover):
        return
    side = ctx.enemy(ctx.side_of(mover))
    there = ctx.hex_of(mover)
    options: list[dict[str, Any]] = []
    for u in ctx.units_of(side):
        if u in ctx.act_list("reacted") or ctx.broken(u) or not ctx.sc.grid.is_adjacent(ctx.hex_of(u), there):
            continue
        options += reactions_of(ctx, u, mover)
    if not options:
        return
    ctx.st.decision = {
        "kind": "react", "side": side, "rule": "R17.51",
        "text": f"{ctx.says(mover)} has moved next to your units at {there}: each may react once, in the order "
                "you choose (rule R17.51)",
        "options": [{"id": "done", "label": "No (further) reactions"}, *options], "task": {"mover": mover},
        "hexes": [there], "units": sorted({o["unit"] for o in options}),
    }


def decide_react(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option["id"] == "done":
        return
    mover, uid, what = task["mover"], option["unit"], option["reaction"]
    ctx.act_list("reacted").append(uid)
    ctx.st.tasks.append({"t": "mp_react", "mover": mover})
    if what == "fire":
        fire(ctx, uid, mover, REACTION)
    elif what == "hedgehog":
        ctx.info(uid)["mode"] = Mode.HEDGEHOG.value
        ctx.emit("formation", f"R17.51: {ctx.says(uid)} forms Hedgehog", unit=uid, mode="hedgehog", rule="R17.51")
    else:
        if what == "retreating_fire":
            fire(ctx, uid, mover, RETREATING)
        if ctx.on_map(uid) and ctx.cond(uid) is not Condition.BROKEN and not ctx.broken(uid):
            path = option["path"]
            if all(not ctx.enemy_in(h, ctx.side_of(uid)) for h in path[1:]) and stacking_ok(ctx, uid, path[-1]):
                ctx.st.units[uid].hex = path[-1]
                ctx.dirty()
                ctx.emit("withdraw", f"R17.51: {ctx.says(uid)} withdraws to {path[-1]}", unit=uid, path=path[1:],
                         rule="R17.51", hexes=path)
                ctx.st.tasks.append({"t": "mp_face", "unit": uid, "why": "withdrawn"})
