"""The turn (R17.20-R17.29, R17.92-R17.94): the Command Phase with initiative and Orders Change (5.7), the Activation
Phase with the chooser's activation, the opponent's Preemption (4.4) and the owner's Continuation (4.3), each a
decision to the side that decides with its odds in the option data, and the End Phase with collapse and victory."""

from __future__ import annotations

from typing import Any

from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_RECOVERY, STATUS_MAP
from ..kernel.victory import game_over
from .context import MPCtx
from .tables import (
    CONTINUATION,
    ORDERS_CHANGE,
    PREEMPTION,
    Kind,
    Morale,
    Order,
    chance_at_most,
)


def _mods(ctx: MPCtx, wid: str) -> list[dict[str, Any]]:
    """The lines 4.3, 4.4 and 5.7 share (R17.24, R17.28): the WC's rating, the AC's if stacked with or adjacent to the
    WC, +1 the WC adjacent to an enemy unit (not broken)."""
    w = ctx.sc.wings[wid]
    out: list[dict[str, Any]] = []
    wc = ctx.commander(wid)
    if wc is None:
        return out
    if ctx.rating(wc):
        out.append({"label": f"WC {ctx.says(wc)}'s rating", "value": ctx.rating(wc), "rule": "R17.5"})
    ac = ctx.army_commander(w.side)
    if ac is not None and ctx.near(ctx.hex_of(ac), ctx.hex_of(wc)) and ctx.rating(ac):
        out.append({"label": f"AC {ctx.says(ac)}'s rating (with the WC)", "value": ctx.rating(ac), "rule": "R17.5"})
    if ctx.adjacent_enemy(ctx.hex_of(wc), w.side):
        out.append({"label": "WC adjacent to an enemy unit", "value": 1, "rule": "R17.28"})
    return out


def activation_mods(ctx: MPCtx, wid: str, preempt: bool) -> list[dict[str, Any]]:
    """4.3 / 4.4's modifiers (R17.28)."""
    out = _mods(ctx, wid)
    if ctx.sc.wings[wid].cavalry:
        out.append({"label": "Cavalry Wing", "value": -1, "rule": "4.3"})
    w = ctx.wing(wid)
    if preempt:
        if w.get("no_continue"):
            out.append({"label": "WC marked No Continue", "value": 1, "rule": "4.4"})
    else:
        if int(w.get("continuations", 0)) >= 1:
            out.append({"label": "Second Attempt", "value": 1, "rule": "4.3"})
        if ctx.sc.battle == "landskrona":
            out.append({"label": "NGBG: All rolls during Landskrona", "value": 1, "rule": "R17.9"})
    return out


def change_mods(ctx: MPCtx, wid: str, desired: Order) -> list[dict[str, Any]]:
    """5.7's modifiers (R17.24)."""
    out = _mods(ctx, wid)
    if ctx.sc.wings[wid].cavalry and desired is Order.CHARGE:
        out.append({"label": "Cavalry Wing changing to Charge", "value": -1, "rule": "5.7"})
    if ctx.sc.wings[wid].cavalry and desired is Order.RECEIVE_CHARGE:
        out.append({"label": "Cavalry Wing changing to Receive Charge", "value": 1, "rule": "5.7"})
    if desired is Order.RALLY:
        units = ctx.sc.wing_units[wid]
        bad = sum(1 for u in units if not ctx.on_map(u) or ctx.morale(u) is not Morale.NORMAL)
        if 2 * bad > len(units):
            out.append({"label": "more than half the wing Shaken, Broken or eliminated", "value": -2, "rule": "5.7"})
    return out


def _total(mods: list[dict[str, Any]]) -> int:
    return sum(int(m["value"]) for m in mods)


def _roll(ctx: MPCtx, wid: str, what: str, rule: str, need: int, mods: list[dict[str, Any]], table: str) -> bool:
    (die,) = ctx.roll(1, what, [f"{what} die"], rule, wing=wid)
    total = die + _total(mods)
    ok = total <= need
    ctx.emit("command_roll", f"{rule}: {ctx.sc.wings[wid].name} {what}: die {die}"
                             + "".join(f" {m['value']:+d} ({m['label']})" for m in mods)
                             + f" = {total}, needs 0-{need}: {'success' if ok else 'failure'}",
             wing=wid, what=what, die=die, modifiers=mods, total=total, need=need, success=ok, table=table, rule=rule)
    return ok


# --- the Command Phase (R17.21) --------------------------------------------------------------------------
def task_turn(ctx: MPCtx, task: dict[str, Any]) -> None:
    """R17.21 (a): initiative, then (b) the orders changes, initiative side first."""
    st = ctx.st
    ctx.x["step"], ctx.x["segment"], ctx.x["wing"] = "command", None, None
    st.phase = PHASE_RECOVERY
    for wid in ctx.sc.wings:
        w = ctx.wing(wid)
        w["activated"], w["no_continue"], w["continuations"] = False, False, 0
    a, b = ctx.sc.side_order
    totals = {}
    dice = ctx.roll(2, "initiative", [f"{ctx.sc.sides[a].name} die", f"{ctx.sc.sides[b].name} die"], "R17.21")
    for side, die in zip((a, b), dice):
        ac = ctx.army_commander(side)
        totals[side] = die + (ctx.rating(ac) if ac else 0)
    last = ctx.x.get("initiative")
    if totals[a] != totals[b]:
        first = a if totals[a] < totals[b] else b
    else:
        first = ctx.sc.first_player if last is None else ctx.enemy(last)
    ctx.x["initiative"] = first
    ctx.x["chooser"] = first
    st.active = first
    ctx.emit("initiative", f"R17.21: initiative rolls {totals[a]} ({ctx.sc.sides[a].name}) and {totals[b]} "
                           f"({ctx.sc.sides[b].name}), with the Army Commanders' ratings: "
                           f"{ctx.sc.sides[first].name} {'has' if totals[a] != totals[b] else 'take (tie)'} the "
                           "initiative", totals=totals, side=first, rule="R17.21")
    queue = [[s, wid] for s in (first, ctx.enemy(first)) for wid in ctx.sc.side_wings(s)]
    st.tasks.append({"t": "mp_activation"})
    st.tasks.append({"t": "mp_orders", "queue": queue})


def order_options(ctx: MPCtx, wid: str) -> list[dict[str, Any]]:
    cur = ctx.order(wid)
    out: list[dict[str, Any]] = [{"id": "keep", "label": f"Keep {cur.label}", "order": cur.value}]
    for desired, need in ORDERS_CHANGE[cur].items():
        mods = change_mods(ctx, wid, desired)
        p = chance_at_most(need, _total(mods))
        out.append({"id": desired.value, "label": f"Try {desired.label} (0-{need}, {round(p * 100)}%)",
                    "order": desired.value, "need": need, "modifiers": mods, "odds": p})
    return out


def task_orders(ctx: MPCtx, task: dict[str, Any]) -> None:
    queue = list(task["queue"])
    while queue:
        side, wid = queue.pop(0)
        if ctx.wing(wid).get("collapsed"):
            continue
        ctx.st.tasks.append({"t": "mp_orders", "queue": queue})
        ctx.st.decision = {
            "kind": "orders_change", "side": side, "rule": "5.7",
            "text": f"{ctx.sc.wings[wid].name} is under {ctx.order(wid).label}: keep it or try another order "
                    "(rules 5.7, R17.24)",
            "options": order_options(ctx, wid), "task": {"wing": wid}, "wing": wid,
            "units": list(ctx.wing_units_on_map(wid)),
        }
        return


def decide_orders(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    wid = task["wing"]
    if option["id"] == "keep":
        ctx.emit("orders_kept", f"5.7: {ctx.sc.wings[wid].name} keeps {ctx.order(wid).label}", wing=wid, rule="5.7")
        return
    desired = Order(option["id"])
    cur = ctx.order(wid)
    if _roll(ctx, wid, f"orders change to {desired.label}", "5.7", ORDERS_CHANGE[cur][desired],
             change_mods(ctx, wid, desired), "Orders Change Table (5.7)"):
        ctx.wing(wid)["order"] = desired.value
        ctx.emit("orders", f"5.7: {ctx.sc.wings[wid].name} is now under {desired.label}", wing=wid,
                 order=desired.value, rule="5.7")


# --- the Activation Phase (R17.25-R17.29) -----------------------------------------------------------------
def open_wings(ctx: MPCtx, side: str) -> list[str]:
    return [w for w in ctx.sc.side_wings(side) if not ctx.wing(w)["activated"]]


def task_activation(ctx: MPCtx, task: dict[str, Any]) -> None:
    """R17.25: the chooser must activate one of its wings not yet Activated; with none, the other side chooses;
    with none either, the End Phase."""
    chooser = str(ctx.x.get("chooser") or ctx.sc.first_player)
    wings = open_wings(ctx, chooser)
    if not wings:
        chooser = ctx.enemy(chooser)
        wings = open_wings(ctx, chooser)
    if not wings:
        ctx.st.tasks.append({"t": "mp_end_phase"})
        return
    ctx.x["chooser"] = chooser
    ctx.st.active = chooser
    ctx.st.decision = {
        "kind": "activate", "side": chooser, "rule": "R17.25",
        "text": f"{ctx.sc.sides[chooser].name}: choose the wing to activate (rule R17.25)",
        "options": [{"id": w, "label": f"{ctx.sc.wings[w].name} ({ctx.order(w).label})", "wing": w,
                     "order": ctx.order(w).value} for w in wings],
        "task": {}, "units": [u for w in wings for u in ctx.wing_units_on_map(w)],
    }


def decide_activate(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    begin(ctx, option["id"], "R17.25")


def begin(ctx: MPCtx, wid: str, rule: str) -> None:
    """An activation: the Movement Segment (R17.40), then the Action (R17.60) and Close Combat (R17.80) Segments."""
    side = ctx.sc.wings[wid].side
    ctx.wing(wid)["activated"] = True
    ctx.x["step"], ctx.x["segment"], ctx.x["wing"] = "activation", "movement", wid
    ctx.st.phase = PHASE_MOVEMENT
    ctx.st.active = side
    start_adjacent = {}
    for u in ctx.wing_units_on_map(wid):
        start_adjacent[u] = [e for e in ctx.units_of(ctx.enemy(side))
                             if ctx.sc.grid.is_adjacent(ctx.hex_of(u), ctx.hex_of(e))]
    ctx.x["act"] = {"start_adjacent": start_adjacent}
    for s in ctx.st.units.values():
        s.moved = False
    ctx.emit("activation", f"{rule}: {ctx.sc.wings[wid].name} activates under {ctx.order(wid).label}", wing=wid,
             order=ctx.order(wid).value, side=side, rule=rule)


def end_segment(ctx: MPCtx) -> None:
    seg = ctx.segment
    wid = ctx.active_wing
    assert wid is not None
    if seg == "movement":
        ctx.x["segment"] = "action"
        ctx.st.phase = PHASE_COMBAT
        ctx.emit("segment", f"R17.60: {ctx.sc.wings[wid].name}'s Action Segment", wing=wid, segment="action",
                 rule="R17.60")
    elif seg == "action":
        ctx.x["segment"] = "close_combat"
        ctx.emit("segment", f"R17.80: {ctx.sc.wings[wid].name}'s Close Combat Segment", wing=wid,
                 segment="close_combat", rule="R17.80")
    else:
        ctx.x["segment"] = None
        ctx.emit("activation_ended", f"R17.25: {ctx.sc.wings[wid].name}'s activation ends", wing=wid, rule="R17.25")
        ctx.st.tasks.append({"t": "mp_after_activation", "wing": wid})


def preempt_options(ctx: MPCtx, side: str) -> list[dict[str, Any]]:
    out = []
    for w in open_wings(ctx, side):
        need = PREEMPTION[ctx.order(w)]
        if need is None:
            continue  # Rally: NA
        mods = activation_mods(ctx, w, preempt=True)
        p = chance_at_most(need, _total(mods))
        out.append({"id": w, "label": f"Preempt with {ctx.sc.wings[w].name} (0-{need}, {round(p * 100)}%)",
                    "wing": w, "need": need, "modifiers": mods, "odds": p})
    return out


def task_after_activation(ctx: MPCtx, task: dict[str, Any]) -> None:
    """R17.26: the opponent may try one preemption; then R17.27's continuation."""
    wid = task["wing"]
    owner = ctx.sc.wings[wid].side
    opp = ctx.enemy(owner)
    options = preempt_options(ctx, opp)
    ctx.st.tasks.append({"t": "mp_continuation", "wing": wid})
    if not options:
        return
    ctx.st.decision = {
        "kind": "preempt", "side": opp, "rule": "4.4",
        "text": f"{ctx.sc.wings[wid].name}'s activation has ended: try to preempt with one of your wings? "
                "(rules 4.4, R17.26)",
        "options": [{"id": "none", "label": "No preemption"}, *options], "task": {"wing": wid},
        "units": [u for o in options for u in ctx.wing_units_on_map(o["id"])],
    }


def decide_preempt(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option["id"] == "none":
        return
    w = option["id"]
    ok = _roll(ctx, w, "preemption", "4.4", int(PREEMPTION[ctx.order(w)] or 0), activation_mods(ctx, w, True),
               "Continuation and Preemption Table (4.3, 4.4)")
    if ok:
        done = task["wing"]
        # the wing that just acted is finished (no continuation): drop its pending continuation
        ctx.st.tasks = [t for t in ctx.st.tasks if not (t["t"] == "mp_continuation" and t.get("wing") == done)]
        begin(ctx, w, "4.4")
    else:
        ctx.wing(w)["no_continue"] = True
        ctx.emit("no_continue", f"R17.26: {ctx.sc.wings[w].name}'s commander is marked No Continue", wing=w,
                 rule="R17.26")


def task_continuation(ctx: MPCtx, task: dict[str, Any]) -> None:
    wid = task["wing"]
    w = ctx.wing(wid)
    need = CONTINUATION[ctx.order(wid)]
    if need is None or w.get("no_continue") or int(w.get("continuations", 0)) >= 2 or w.get("collapsed"):
        finished(ctx, wid)
        return
    mods = activation_mods(ctx, wid, preempt=False)
    p = chance_at_most(need, _total(mods))
    owner = ctx.sc.wings[wid].side
    ctx.st.active = owner
    ctx.st.decision = {
        "kind": "continue", "side": owner, "rule": "4.3",
        "text": f"Try a Continuation for {ctx.sc.wings[wid].name}? (0-{need}, {round(p * 100)}%; rules 4.3, R17.27)",
        "options": [{"id": "continue", "label": f"Try a Continuation (0-{need}, {round(p * 100)}%)", "need": need,
                     "modifiers": mods, "odds": p},
                    {"id": "finish", "label": "Finish the wing"}],
        "task": {"wing": wid}, "wing": wid, "units": list(ctx.wing_units_on_map(wid)),
    }


def decide_continue(ctx: MPCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    wid = task["wing"]
    if option["id"] == "continue":
        w = ctx.wing(wid)
        ok = _roll(ctx, wid, "continuation", "4.3", int(CONTINUATION[ctx.order(wid)] or 0),
                   activation_mods(ctx, wid, False), "Continuation and Preemption Table (4.3, 4.4)")
        w["continuations"] = int(w.get("continuations", 0)) + 1
        if ok:
            begin(ctx, wid, "4.3")
            return
    finished(ctx, wid)


def finished(ctx: MPCtx, wid: str) -> None:
    """R17.29: the opponent of the finished wing's owner becomes the chooser."""
    ctx.x["chooser"] = ctx.enemy(ctx.sc.wings[wid].side)
    ctx.x["wing"] = None
    ctx.st.tasks.append({"t": "mp_activation"})


# --- the End Phase (R17.23, R17.92-R17.94) ----------------------------------------------------------------
def task_end_phase(ctx: MPCtx, task: dict[str, Any]) -> None:
    """R17.23: returning leaders arrive (5.3.3 result 1: placed by their owner), then the markers, the collapses and,
    after the last turn, victory (`task_end_rest`)."""
    st = ctx.st
    ctx.x["step"], ctx.x["segment"], ctx.x["wing"], ctx.x["act"] = "end", None, None, {}
    st.tasks.append({"t": "mp_end_rest"})
    for lid, info in ctx.x["leaders"].items():
        if info.get("returns") == st.turn:
            info["returns"], info["replacement"], info["rating"] = None, False, ctx.d(lid).rating
            ctx.emit("leader_returns", f"5.3.3: {ctx.says(lid)} returns; his Replacement leaves", unit=lid,
                     rule="5.3.3")
            if st.units[lid].status != STATUS_MAP:
                st.tasks.append({"t": "mp_place_leader", "leader": lid})


def task_end_rest(ctx: MPCtx, task: dict[str, Any]) -> None:
    end_rest(ctx)


def end_rest(ctx: MPCtx) -> None:
    st = ctx.st
    for wid in ctx.sc.wings:
        w = ctx.wing(wid)
        w["activated"], w["no_continue"] = False, False
        if w.get("collapsed"):
            continue
        units = ctx.sc.wing_units[wid]
        out = sum(1 for u in units if not ctx.on_map(u) or ctx.broken(u))
        if 2 * out > len(units):
            w["collapsed"], w["order"] = True, Order.RALLY.value
            ctx.emit("wing_collapse", f"R17.92: {ctx.sc.wings[wid].name} has collapsed: Rally for good", wing=wid,
                     rule="R17.92")
    lost = [s for s in ctx.sc.side_order
            if 2 * sum(1 for w in ctx.sc.side_wings(s) if ctx.wing(w).get("collapsed")) > len(ctx.sc.side_wings(s))]
    if lost:
        winner = None if len(lost) == 2 else ctx.enemy(lost[0])
        reason = "both armies collapse: a draw" if winner is None else \
            f"the {ctx.sc.sides[lost[0]].name} army collapses"
        game_over(ctx, {"winner": winner, "reason": reason, "points": points(ctx), "turn": st.turn},
                  f"R17.93: {reason}", rule="R17.93", winner=winner)
        return
    if st.turn >= ctx.sc.turns:
        pts = points(ctx)
        a, b = ctx.sc.side_order
        winner = a if pts[a] > pts[b] else b if pts[b] > pts[a] else None
        reason = f"{pts[a]} to {pts[b]} points" + ("" if winner else ": a draw")
        game_over(ctx, {"winner": winner, "reason": reason, "points": pts, "turn": st.turn},
                  f"R17.94: after turn {st.turn}, {reason}", rule="R17.94", winner=winner, points=pts)
        return
    st.turn += 1
    st.tasks.append({"t": "mp_turn"})


def points(ctx: MPCtx) -> dict[str, int]:
    """R17.94: the Original Strength of every enemy unit eliminated or off the map, plus the objectives held."""
    out = {s: 0 for s in ctx.sc.side_order}
    for uid, d in ctx.sc.units.items():
        if d.kind is Kind.LEADER:
            continue
        if ctx.st.units[uid].status != STATUS_MAP:
            out[ctx.enemy(d.side)] += d.sp
    for o in ctx.sc.victory.objectives:
        holder = ctx.st.control.get(o.hex)
        if holder is not None:
            out[holder] += o.points
    return out


def update_control(ctx: MPCtx) -> None:
    """R17.94: an objective is controlled by the side whose unit (not Morale Broken) last entered it."""
    for o in ctx.sc.victory.objectives:
        here = [u for u in ctx.units_in(o.hex) if not ctx.broken(u)]
        if here:
            ctx.st.control[o.hex] = ctx.side_of(here[0])
