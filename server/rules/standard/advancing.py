"""Advance after combat as the engine plays it (seed 002 7.12, with 7.13(1)-(3), 8.3, 10.1, 10.3, 12.1-12.2,
14.2(4)).

When the defenders' hex is vacated by retreat or rout (`advance_check`; leaders left alone there are moved first,
10.1), each attacker still on the map in turn may advance (decision `advance`) to the hexes advance.py allows: one
hex, two after a rout unless the routed units were captured.  A bombardment gives no advance (8.3, 8.5);
skirmishers never advance (7.13(1)); press forward and an infantry charge pressed home must (7.13(2), 7.13(3)); at
night only into the vacated hex (14.2(4)).  An advance captures an enemy HQ or trains alone in the hexes it enters
(12.1, 12.2), and a participating leader goes with the unit he joined (10.3).

The victorious player may be the defender (7.12): when the attackers retreat or rout and the defenders held their
hex, each participating defender in turn may advance one hex (the same decision `advance`, the defender's) into a
vacated attacking hex or a vacant hex next to one; never artillery (8.3) nor from terrain the TEC bars (R13), and not
at night (14.2(4)).
"""

from __future__ import annotations

from typing import Any

from ..kernel.state import STATUS_CAPTURED, Status
from .advance import advance_hexes
from .context import StdCtx
from .hidden import halt_index, marker_block
from .leaders import lone_leaders
from .line import advance_allowed, enemy_entered
from .scenario import Kind
from .tactics import CHARGE, PRESS, SKIRMISH, TACTIC_LABEL, TACTIC_RULE

_ARMY_UNITS = (Kind.HQ, Kind.TRAINS)


def _advancers(ctx: StdCtx, c: dict[str, Any]) -> list[str]:
    return [u for u in c["attackers"] if ctx.on_map(u)]


def task_advance_check(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    target = c["target"]
    if c.get("kind") == "bombard":
        return  # 8.3, 8.5: artillery never advances, and a bombardment gives no advance
    retreated = c.get("retreated", [])
    if "attacker" in retreated:
        if "defender" not in retreated:  # 7.13(4), 9.4: when both sides gave way nobody advances
            _defender_advance_check(ctx, c)
        return
    if ctx.combat_units_at(target, c["defender"]):
        return  # 7.12: only a vacated hex gives an advance
    if any(ctx.side_of(u) == c["defender"] and ctx.kind(u) is Kind.LEADER for u in ctx.units_at(target)):
        lone_leaders(ctx)
    captured = any(ctx.st.units[u].status == STATUS_CAPTURED
                   for u in c.get("defenders", []) + c.get("routed_units", []))
    ctx.st.tasks.append({"t": "advance", "units": _advancers(ctx, c), "vacated": target,
                         "rout": bool(c.get("routed") or c.get("prerouted")) and not captured})


def _defender_advance_check(ctx: StdCtx, c: dict[str, Any]) -> None:
    """7.12: the attackers retreated or routed and the defenders held: the participating defenders still in the
    target hex may advance into the attacking hexes left empty (or next to them); 14.2(4): not at night."""
    if c.get("night"):
        return  # 14.2(4): at night the defender may not advance
    vacated = [h for h in c["hexes"] if not ctx.combat_units_at(h, c["attacker"])]
    if not vacated:
        return  # 7.12: only a vacated hex gives an advance
    if any(ctx.side_of(u) == c["attacker"] and ctx.kind(u) is Kind.LEADER for h in vacated for u in ctx.units_at(h)):
        lone_leaders(ctx)
    units = [u for u in c.get("defenders", []) if ctx.on_map(u) and ctx.st.units[u].hex == c["target"]]
    ctx.st.tasks.append({"t": "advance", "units": units, "vacated": vacated[0], "vacated_hexes": vacated,
                         "rout": False, "defender": True})


def advance_options(ctx: StdCtx, uid: str, vacated: str | list[str], rout: bool) -> list[str]:
    """7.12: where this unit may advance, into (or next to) the vacated hex or, for a defender, any of the
    attacking hexes left empty (an enemy HQ or trains alone there is captured by the advance, 12.1, 12.2)."""
    units = ctx.st.units
    side = ctx.side_of(uid)
    hexes = [vacated] if isinstance(vacated, str) else vacated
    board = {u: s for u, s in units.items()
             if not (s.hex in hexes and ctx.side_of(u) != side and ctx.kind(u) in _ARMY_UNITS)}
    start = units[uid].hex or ""
    spots = marker_block(ctx, side)  # 19.8 C: never into the side's own marker's hex
    return sorted({h for v in hexes for h in advance_hexes(ctx.sc, board, uid, v, rout=rout)
                   if h not in spots and advance_allowed(ctx, uid, start, [h] if ctx.sc.grid.is_adjacent(start, h) else [v, h])})  # 19.7


def task_advance(ctx: StdCtx, task: dict[str, Any]) -> None:
    c = ctx.st.combat or {}
    defender = bool(task.get("defender"))
    if c.get("tactic") == SKIRMISH and not defender:
        return  # 7.13(1): skirmishers never advance
    must = not defender and (c.get("tactic") == PRESS or (c.get("tactic") == CHARGE and c.get("pressed", True)
                                                          and not c.get("cavalry")))  # 7.13(2), 7.13(3)
    units = [u for u in task["units"] if ctx.on_map(u)]
    while units:
        uid = units.pop(0)
        hexes = advance_options(ctx, uid, task.get("vacated_hexes") or task["vacated"], task["rout"])
        if c.get("night"):
            hexes = [h for h in hexes if h == task["vacated"]]  # 14.2(4): into the vacated hex only
        if not hexes:
            continue
        rest = {**task, "units": units}
        ctx.st.tasks.append(rest)
        options = [] if must else [{"id": "stay", "hex": None, "label": "do not advance"}]
        options += [{"id": h, "hex": h, "label": f"advance to {h}"} for h in hexes]
        rules = f"{TACTIC_RULE[c['tactic']]}, 7.12" if must else "7.12"
        why = ("must advance after its " + TACTIC_LABEL[c["tactic"]] if must
               else "may advance: the attackers gave way" if defender else "may advance into the ground won")
        ctx.st.decision = {"kind": "advance", "side": ctx.side_of(uid), "rule": "7.12", "options": options,
                           "task": {**task, "unit": uid}, "hexes": hexes,
                           "text": f"{ctx.name(uid)} {why}{', up to two hexes after a rout' if task['rout'] else ''}: "
                                   f"choose a hex{'' if must else ', or stay'} (rule{'s' if must else ''} {rules})"}
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
    if len(path) == 2 and halt_index(ctx, side, path, 0) == 0:  # 19.8 D: halted in the vacated hex by a reveal
        _advance(ctx, uid, start, [vacated])
        ctx.emit("advance", f"19.8 D: {ctx.name(uid)} halts at {vacated}: a hidden movement marker comes into sight",
                 unit=uid, hex=vacated, rule="19.8 D")
        ctx.st.tasks.append({"t": "advance_on", "unit": uid, "hex": h, "vacated": vacated})
        return
    _advance(ctx, uid, start, path)


def task_advance_on(ctx: StdCtx, task: dict[str, Any]) -> None:
    """S74: the box deployed, a halted advance completes into the hex chosen if the unit still may enter it (7.12:
    vacant, enterable, not overstacked; EZOC ignored as ever), else it ends where it halted."""
    uid, h, vacated = task["unit"], task["hex"], task["vacated"]
    if not ctx.on_map(uid) or ctx.st.units[uid].hex != vacated:
        return
    if h in advance_options(ctx, uid, vacated, False):
        _advance(ctx, uid, vacated, [h])
    else:
        ctx.emit("advance", f"19.8 D (S74): {ctx.name(uid)} may no longer enter {h}: the advance ends at {vacated}",
                 unit=uid, hex=vacated, rule="19.8 D")


def _advance(ctx: StdCtx, uid: str, start: str, path: list[str]) -> None:
    """7.12: the unit advances along `path` (one or two hexes), capturing a lone enemy HQ or trains (12.1, 12.2); a
    participating leader goes with it (10.3)."""
    side = ctx.side_of(uid)
    h = path[-1]
    for step in path:
        for u in ctx.units_at(step):
            if ctx.side_of(u) != side and ctx.kind(u) in _ARMY_UNITS:
                ctx.set_status(u, Status.CAPTURED)
                rule = "12.1" if ctx.kind(u) is Kind.HQ else "12.2"
                ctx.emit("captured", f"{rule}: {ctx.name(u)} is captured", unit=u, rule=rule)
    ctx.passing([uid], path)  # 18.1 (S68)
    ctx.move_unit(uid, h)
    # path: every hex the advance went through from its start (the page draws it, as it draws a move)
    ctx.emit("advance", f"7.12: {ctx.name(uid)} advances to {h}", unit=uid, hex=h, path=[start, *path], rule="7.12")
    enemy_entered(ctx, side, path)  # 19.7 B: an advance into an enemy line's flank or rear
    c = ctx.st.combat or {}
    joins = c.get("leaders", {}) if side == c.get("attacker") else c.get("def_leaders", {})
    for ldr, joined in sorted(joins.items()):  # 10.3: the participating leader goes with his unit
        if joined == uid and ctx.on_map(ldr) and ctx.st.units[ldr].hex == start:
            ctx.move_unit(ldr, h)
            ctx.emit("advance", f"10.3: {ctx.name(ldr)} advances with {ctx.name(uid)}", unit=ldr, hex=h,
                     path=[start, *path], rule="10.3")
