"""A combat's result carried out (seed 002 7.8, 7.11, with 7.13(2)-(5), 8.3, 9.3(5)-(7), 12.1-12.2, 12.4, 14.2(4)).

`apply_outcome` plays one of the choices results.py reads from the CRT (the owner picks among several: decision
`result`): no effect, the primary unit disrupted, a step lost (7.11), the side's units retreating or routing (queued
as `retreat` and `rout` tasks, retreating.py), or the exchange's step on each side; an HQ or trains is unaffected by
results (12.1, 12.2).  Defenders giving way to a charge or after a last stand lose their artillery (7.13(3),
7.13(5), 8.3); routed by charging cavalry, the defending primary unit also loses a step, or is captured if it is
artillery (9.3(5)).  The defenders' rout owes the attacker a fortune of war; their retreat or rout may let the
attackers advance, and the attackers' retreat or rout the defenders (7.12, advancing.py).

7.11: a step loss falls on the primary unit or on a stacked battalion or squadron that absorbs it (decision
`absorb`); a unit losing its last step is eliminated, or captured without a line of retreat.

After the result (`task_after`): the chargers turn ineffective unless they charge again after a rout (9.3(6)-(7),
S40); a night charge that did not rout the defender retreats disrupted (14.2(4)); press forward and last stand cost
a second step unless the other side retreated (7.13(2), 7.13(5); decision `second_step`; with no unit to lose it,
a fortune of war to the other player, 7.11).

`owe_fow` records each fortune of war a combat owes (12.4: DF, the defenders' rout, an attacked HQ or trains, a
missing second step); fortune.py plays them when the combat ends.

19.9 (S51): a scenario's needle gun spares its side's infantry the exchange's step when the other side attacked
(`exchange_spared`, also for a bombardment's exchange, bombard.py).
"""

from __future__ import annotations

from typing import Any

from ..kernel.state import Status
from .advance import absorbers
from .context import StdCtx
from .results import DISRUPT, DISRUPT_RETREAT, EXCHANGE, NONE, RETREAT, ROUT, STEP_LOSS, Outcome
from .retreat import NONE as NO_LINE
from .retreating import retreat_task
from .scenario import Kind
from .special import needle_gun_spares
from .tactics import CHARGE, COUNTERCHARGE, DISENGAGE, LAST_STAND, PRESS, TACTIC_LABEL

_ARMY_UNITS = (Kind.HQ, Kind.TRAINS)


def owe_fow(ctx: StdCtx, side: str, rule: str, why: str) -> None:
    """12.4: a fortune of war owed: recorded (`extra.fow_owed`, with `index`) and played by its receiver as soon as
    the combat ends (`fow_play`)."""
    owed = ctx.x.setdefault("fow_owed", [])
    owed.append({"side": side, "rule": rule, "why": why, "turn": ctx.st.turn, "index": len(owed)})
    ctx.x.setdefault("fow_queue", []).append(len(owed) - 1)
    ctx.emit("fow", f"{rule}: {ctx.sc.sides[side].name} receives a fortune of war ({why}; 12.4)", side=side, rule=rule)


def exchange_spared(ctx: StdCtx, uid: str, attacker: str) -> bool:
    """19.9 (S51): the primary unit takes no step loss from the exchange `attacker`'s attack inflicted: the needle
    gun's infantry (special.py); logged."""
    if not needle_gun_spares(ctx.sc.special, ctx.kind(uid).value, ctx.side_of(uid), attacker):
        return False
    ctx.emit("needle_gun", f"19.9: {ctx.name(uid)} takes no loss from the exchange (needle gun)", unit=uid,
             rule="19.9")
    return True


# --- 7.8 the result -------------------------------------------------------------------------------------------------
def decide_result(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    apply_outcome(ctx, Outcome(option["side"], option["effect"], option["advance"], option["fow_attacker"]))


def _side_units(ctx: StdCtx, c: dict[str, Any], which: str) -> list[list[str]]:
    """7.8: every unit of the affected side in the participating hexes (stacked non-participants included), one
    group per hex; an HQ or trains is unaffected by results (12.1, 12.2).  A bombardment affects its target unit
    alone (8.4, S31)."""
    if which == "defender" and c.get("only"):
        return [[u] for u in c["only"] if ctx.on_map(u)]
    if which == "defender":
        hexes = [c["target"]]
        side = c["defender"]
    else:
        hexes = c["hexes"]
        side = c["attacker"]
    out = []
    for h in hexes:
        g = sorted(u for u in ctx.units_at(h) if ctx.side_of(u) == side and ctx.kind(u) not in _ARMY_UNITS)
        if g:
            out.append(g)
    return out


def apply_outcome(ctx: StdCtx, o: Outcome) -> None:
    c = ctx.st.combat
    assert c is not None
    st = ctx.st
    effect = o.effect
    tasks: list[dict[str, Any]] = []
    if effect == NONE:
        ctx.emit("result", "7.8: no effect", rule="7.8")
    elif effect == EXCHANGE:
        ctx.emit("result", "7.8: exchange: each primary unit loses a step", rule="7.8")
        if not exchange_spared(ctx, c["att_primary_now"], c["attacker"]):
            tasks.append({"t": "step_loss", "unit": c["att_primary_now"], "participants": c["attackers"]})
        if c.get("def_primary_now") and not exchange_spared(ctx, c["def_primary_now"], c["attacker"]):
            tasks.append({"t": "step_loss", "unit": c["def_primary_now"], "participants": c.get("defenders", [])})
    else:
        which = o.side or "defender"
        primary = c["att_primary_now"] if which == "attacker" else c["def_primary_now"]
        participants = c["attackers"] if which == "attacker" else c.get("defenders", [])
        groups = _side_units(ctx, c, which)
        disengaging = (c.get("tactic") if which == "attacker" else c.get("def_tactic")) == DISENGAGE
        if effect in (RETREAT, DISRUPT_RETREAT, ROUT):
            c.setdefault("retreated", []).append(which)
            if which == "defender" and (c.get("def_tactic") == LAST_STAND
                                        or (c.get("tactic") == CHARGE and c.get("pressed", True))):
                for u in c.get("defenders", []):  # 7.13(3), 7.13(5), 8.3: defending artillery is captured
                    if ctx.on_map(u) and ctx.kind(u) is Kind.ARTILLERY:
                        rule = "7.13(5)" if c.get("def_tactic") == LAST_STAND else "7.13(3)"
                        ctx.set_status(u, Status.CAPTURED)
                        ctx.emit("captured", f"{rule}, 8.3: {ctx.name(u)} is captured as the defenders give way",
                                 unit=u, rule=rule)
                groups = [[u for u in g if ctx.on_map(u)] for g in groups]
                groups = [g for g in groups if g]
        if effect == DISRUPT:
            ctx.disrupt(primary, "7.8")
        elif effect == STEP_LOSS:
            tasks.append({"t": "step_loss", "unit": primary, "participants": participants})
        elif effect in (RETREAT, DISRUPT_RETREAT):
            if effect == DISRUPT_RETREAT:
                for g in groups:
                    for u in g:
                        ctx.disrupt(u, "7.8")
            cavalry = which == "defender" and any(ctx.kind(u) in (Kind.CAVALRY, Kind.SQUADRON) and ctx.on_map(u)
                                                  for u in c["attackers"])
            for g in groups:
                tasks.append({**retreat_task(ctx, g), "disengage": disengaging, "cavalry": cavalry})
        elif effect == ROUT:
            ctx.emit("rout", f"7.8, 7.10: {ctx.names([u for g in groups for u in g])} rout", rule="7.10")
            if which == "defender":
                owe_fow(ctx, c["attacker"], "7.8", f"Dm: {ctx.names([u for g in groups for u in g])} routed")
                c["routed"] = True
                if c.get("cavalry") and c.get("def_tactic") != COUNTERCHARGE and primary is not None \
                        and ctx.on_map(primary):  # 9.3(5): and a step lost (not in a countercharge, S36)
                    if ctx.kind(primary) is Kind.ARTILLERY:
                        ctx.set_status(primary, Status.CAPTURED)
                        ctx.emit("captured", f"9.3(5): {ctx.name(primary)} is captured by the charge", unit=primary,
                                 rule="9.3(5)")
                    else:
                        lose_step(ctx, primary, "9.3(5)")
                    groups = [[u for u in g if ctx.on_map(u)] for g in groups]
                    groups = [g for g in groups if g]
        if o.advance:
            c["advance"] = True
        if effect == ROUT:
            for g in groups:
                tasks.append({"t": "rout", "units": g, "rule": "7.10"})
    # 7.12: the attackers' advance, or the defenders' when the attackers give way (advancing.py)
    gave_way = o.side == "attacker" and effect in (RETREAT, DISRUPT_RETREAT, ROUT)
    if c.get("advance") or c.get("routed") or gave_way:
        st.tasks.append({"t": "advance_check"})
    st.tasks.extend(reversed(tasks))


# --- 7.13(2), 7.13(5) the second step loss; 9.3(6)-(7) the chargers; 14.2(4) a night charge that fails --------------
def task_after(ctx: StdCtx, task: dict[str, Any]) -> None:
    """After the result: press forward costs the attacker a step unless the defender retreated (7.13(2)); a last
    stand costs the defender a step unless the attacker retreated (7.13(5)); each second step comes from any
    participating unit, the owner's choice, or gives the other player a fortune of war (7.11).  At night a charge
    that does not rout the defender retreats, disrupted (14.2(4))."""
    c = ctx.st.combat
    if c is None or "result" not in c:
        return
    retreated = c.get("retreated", [])
    routed = bool(c.get("routed"))
    if c.get("cavalry"):
        chargers = c["attackers"] + (c.get("defenders", []) if c.get("def_tactic") == COUNTERCHARGE else [])
        going_on = [u for u in c["attackers"] if ctx.on_map(u)]
        if routed and going_on and c.get("def_tactic") != COUNTERCHARGE and not c.get("countercharged") and all(
                not ctx.st.units[u].ineffective and not ctx.st.units[u].disrupted for u in going_on):
            # 9.3(6): the cavalry may charge again once this combat has ended (S40)
            chargers = [u for u in chargers if u not in going_on]
            i = max(i for i, t in enumerate(ctx.st.tasks) if t["t"] == "combat_end")
            ctx.st.tasks.insert(i, {"t": "follow_up", "units": going_on, "side": c["attacker"]})
        for u in chargers:
            if ctx.on_map(u):
                ctx.make_ineffective(u, "9.3(7)")  # 9.3(7), 9.4: ineffective at the end of the charge
    if c.get("night") and not routed and "attacker" not in retreated:  # a charge already retreating goes once
        group = [u for u in c["attackers"] if ctx.on_map(u)]
        for u in group:
            ctx.disrupt(u, "14.2(4)")
        by_hex: dict[str, list[str]] = {}
        for u in group:
            by_hex.setdefault(ctx.st.units[u].hex or "", []).append(u)
        for g in by_hex.values():
            ctx.st.tasks.append({**retreat_task(ctx, g, "14.2(4)"), "disengage": False})
        ctx.emit("charge", "14.2(4): the night charge did not rout the defender: the chargers retreat, disrupted",
                 rule="14.2(4)")
    if c.get("def_tactic") == LAST_STAND and "attacker" not in retreated:
        ctx.st.tasks.append({"t": "second_step", "side": c["defender"], "units": c.get("defenders", []),
                             "rule": "7.13(5)", "other": c["attacker"]})
    if c.get("tactic") == PRESS and "defender" not in retreated and not c.get("prerouted"):
        ctx.st.tasks.append({"t": "second_step", "side": c["attacker"], "units": c["attackers"], "rule": "7.13(2)",
                             "other": c["defender"]})


def task_second_step(ctx: StdCtx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.on_map(u) and ctx.kind(u).is_combat]
    if not units:
        owe_fow(ctx, task["other"], "7.11", f"the {TACTIC_LABEL[PRESS if task['rule'] == '7.13(2)' else LAST_STAND]} "
                                            f"left no second step to lose, {task['rule']}")
        return
    ctx.emit("tactic", f"{task['rule']}: the {TACTIC_LABEL[PRESS if task['rule'] == '7.13(2)' else LAST_STAND]} costs "
                       "a step", rule=task["rule"])
    if len(units) == 1:
        lose_step(ctx, units[0], task["rule"])
        return
    ctx.st.decision = {"kind": "second_step", "side": task["side"], "rule": "7.11", "task": task,
                       "text": f"The {TACTIC_LABEL[PRESS if task['rule'] == '7.13(2)' else LAST_STAND]} costs a second "
                               f"step: choose which of {ctx.names(units)} loses it (rules {task['rule']}, 7.11)",
                       "options": [{"id": u, "unit": u, "label": ctx.name(u)} for u in units],
                       "hexes": sorted({h for u in units if (h := ctx.st.units[u].hex)})}


def decide_second_step(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    lose_step(ctx, option["unit"], task["rule"])


# --- 7.11 step losses -----------------------------------------------------------------------------------------------
def task_step_loss(ctx: StdCtx, task: dict[str, Any]) -> None:
    uid = task["unit"]
    if uid is None or not ctx.on_map(uid):
        return
    others = absorbers(ctx.sc, ctx.st.units, uid, task.get("participants", []))
    if not others:
        lose_step(ctx, uid, "7.11")
        return
    options = [{"id": u, "unit": u, "label": ctx.name(u)} for u in [uid] + others]
    ctx.st.decision = {"kind": "absorb", "side": ctx.side_of(uid), "rule": "7.11", "task": task, "options": options,
                       "text": f"{ctx.name(uid)} loses a step: choose the unit that takes it, {ctx.name(uid)} itself or "
                               "a unit stacked with it that may absorb it (rule 7.11)"}


def decide_absorb(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    lose_step(ctx, option["unit"], "7.11")


def lose_step(ctx: StdCtx, uid: str, rule: str) -> None:
    """7.11: a two-step unit flips to its reduced side; a unit losing its last step is eliminated (set aside, 11.2)
    with a line of retreat, captured without one."""
    s = ctx.st.units[uid]
    if ctx.d(uid).steps == 2 and not s.reduced:
        s.reduced = True
        ctx.dirty()
        ctx.emit("step_loss", f"{rule}: {ctx.name(uid)} loses a step", unit=uid, rule=rule)
        return
    if ctx.line_of(uid) == NO_LINE:
        ctx.set_status(uid, Status.CAPTURED)
        ctx.emit("captured", f"{rule}: {ctx.name(uid)} loses its last step with no line of retreat and is captured",
                 unit=uid, rule=rule)
    else:
        ctx.set_status(uid, Status.ELIMINATED)
        ctx.emit("eliminated", f"{rule}: {ctx.name(uid)} is eliminated", unit=uid, rule=rule)
    s.disrupted = False
    s.ineffective = False
    s.reduced = False
