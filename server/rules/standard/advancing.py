"""Advance after combat as the engine plays it (seed 002 7.12, with 7.13(1)-(3), 8.3, 10.1, 10.3, 12.1-12.2,
14.2(4)).

When the defenders' hex is vacated by retreat or rout (`advance_check`; leaders left alone there are moved first,
10.1), each attacker still on the map in turn may advance (decision `advance`) to the hexes advance.py allows: one
hex, two after a rout unless the routed units were captured.  A bombardment gives no advance (8.3, 8.5);
skirmishers never advance (7.13(1)); press forward and an infantry charge pressed home must (7.13(2), 7.13(3)); at
night only into the vacated hex (14.2(4)).  An advance captures an enemy HQ or trains alone in the hexes it enters
(12.1, 12.2), and a participating leader goes with the unit he joined (10.3).
"""

from __future__ import annotations

from typing import Any

from ..kernel.state import STATUS_CAPTURED, Status
from .advance import advance_hexes
from .context import StdCtx
from .leaders import lone_leaders
from .scenario import Kind
from .tactics import CHARGE, PRESS, SKIRMISH, TACTIC_RULE

_ARMY_UNITS = (Kind.HQ, Kind.TRAINS)


def _advancers(ctx: StdCtx, c: dict[str, Any]) -> list[str]:
    return [u for u in c["attackers"] if ctx.on_map(u)]


def task_advance_check(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    target = c["target"]
    if c.get("kind") == "bombard":
        return  # 8.3, 8.5: artillery never advances, and a bombardment gives no advance
    if ctx.combat_units_at(target, c["defender"]):
        return  # 7.12: only a vacated hex gives an advance
    if any(ctx.side_of(u) == c["defender"] and ctx.kind(u) is Kind.LEADER for u in ctx.units_at(target)):
        lone_leaders(ctx)
    captured = any(ctx.st.units[u].status == STATUS_CAPTURED
                   for u in c.get("defenders", []) + c.get("routed_units", []))
    ctx.st.tasks.append({"t": "advance", "units": _advancers(ctx, c), "vacated": target,
                         "rout": bool(c.get("routed") or c.get("prerouted")) and not captured})


def advance_options(ctx: StdCtx, uid: str, vacated: str, rout: bool) -> list[str]:
    units = ctx.st.units
    side = ctx.side_of(uid)
    board = {u: s for u, s in units.items()
             if not (s.hex == vacated and ctx.side_of(u) != side and ctx.kind(u) in _ARMY_UNITS)}
    return advance_hexes(ctx.sc, board, uid, vacated, rout=rout)


def task_advance(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat or {}
    if c.get("tactic") == SKIRMISH:
        return  # 7.13(1): skirmishers never advance
    must = c.get("tactic") == PRESS or (c.get("tactic") == CHARGE and c.get("pressed", True)
                                        and not c.get("cavalry"))  # 7.13(2), 7.13(3)
    units = [u for u in task["units"] if ctx.on_map(u)]
    while units:
        uid = units.pop(0)
        hexes = advance_options(ctx, uid, task["vacated"], task["rout"])
        if c.get("night"):
            hexes = [h for h in hexes if h == task["vacated"]]  # 14.2(4): into the vacated hex only
        if not hexes:
            continue
        rest = {**task, "units": units}
        ctx.st.tasks.append(rest)
        options = [] if must else [{"id": "stay", "hex": None, "label": "do not advance"}]
        options += [{"id": h, "hex": h, "label": f"advance to {h}"} for h in hexes]
        why = f"{TACTIC_RULE[c['tactic']]}: must advance" if must else "7.12"
        ctx.st.decision = {"kind": "advance", "side": ctx.side_of(uid), "rule": "7.12", "options": options,
                           "task": {**task, "unit": uid}, "hexes": hexes,
                           "text": f"{ctx.name(uid)} may advance ({why}"
                                   f"{', two hexes after a rout' if task['rout'] else ''})"}
        return


def decide_advance(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    h = option.get("hex")
    if h is None:
        return
    side = ctx.side_of(uid)
    vacated = task["vacated"]
    start = ctx.st.units[uid].hex or ""
    path = [h] if ctx.sc.grid.is_adjacent(start, h) else [vacated, h]
    for step in path:
        for u in ctx.units_at(step):
            if ctx.side_of(u) != side and ctx.kind(u) in _ARMY_UNITS:
                ctx.set_status(u, Status.CAPTURED)
                rule = "12.1" if ctx.kind(u) is Kind.HQ else "12.2"
                ctx.emit("captured", f"{rule}: {ctx.name(u)} is captured", unit=u, rule=rule)
    ctx.move_unit(uid, h)
    ctx.emit("advance", f"7.12: {ctx.name(uid)} advances to {h}", unit=uid, hex=h, rule="7.12")
    c = ctx.st.combat or {}
    for ldr, joined in sorted(c.get("leaders", {}).items()):  # 10.3: the participating leader goes with his unit
        if joined == uid and ctx.on_map(ldr) and ctx.st.units[ldr].hex == start:
            ctx.move_unit(ldr, h)
            ctx.emit("advance", f"10.3: {ctx.name(ldr)} advances with {ctx.name(uid)}", unit=ldr, hex=h, rule="10.3")
