"""Retreats, routs and advances after combat (7.6, 7.8, 7.9), with the rules that lengthen a retreat (9.1(4),
11.1(7)) and what a retreat does to artillery, cavalry and leaders (8.1(2), 9.1(1), 10.0).

A retreat is one to three hexes the owner chooses, in any direction: no hex twice, no enemy-occupied hex, no
prohibited terrain.  A safe line (7.6) must be taken when one exists; on an unsafe line the units go to its last
hex and rout from there; a routing unit routed again loses a step and starts a new rout (7.8).  With no line at all
they are captured; with no option but the map edge they are removed from play (7.6).  Step losses, capture, the
way off the map, the safety test and the advance's hexes are the kernel's (kernel/aftercombat.py).
"""

from __future__ import annotations

from typing import Any

from ..kernel.aftercombat import (
    advance_hexes,
    advance_unit,
    after_hex_loses_units,
    exit_path,
    step_loss,
    unsafe_hex_finder,
)
from ..kernel.core import Ctx
from ..kernel.lone_leaders import check_lone_leaders
from ..kernel.procedures import advance_next, offer_advance, queue_advances
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP, Status
from .status import disrupt, impaired, make_ineffective

ROUT_HEXES = 3  # 7.8
MOST_HEXES = 3  # 7.6


def queue_group_retreats(ctx: Ctx, side: str, groups: dict[str, list[str]], rout: bool, rule: str) -> None:
    """Each hex of the losing side retreats (or routs) as its own group, the non-participants with it (5.0)."""
    tasks = []
    for hex_ in sorted(groups):
        units = [u for u in groups[hex_] if ctx.u(u).status == STATUS_MAP and ctx.u(u).hex == hex_]
        if any(ctx.is_combat(u) for u in units):
            tasks.append({"t": "retreat", "side": side, "units": units, "from": hex_, "rout": rout, "rule": rule})
    ctx.st.tasks.extend(reversed(tasks))


def minimum_hexes(ctx: Ctx, units: list[str], rout: bool) -> int:
    """7.8: a rout goes three hexes; 9.1(4): cavalry retreats three, and a group with cavalry goes with it (T10);
    11.1(7), 11.3: a disrupted or ineffective unit at least two."""
    combat = [u for u in units if ctx.is_combat(u)]
    if rout or any(ctx.kind(u) is UnitKind.CAVALRY for u in combat):
        return ROUT_HEXES
    if any(impaired(ctx, u) for u in combat):
        return 2
    return 1


def retreat_paths(ctx: Ctx, side: str, start: str, units: list[str], mn: int, mx: int) -> list[list[str]]:
    """Every path of mn..mx hexes the group may take (7.6), or when none is that long, the longest it can (T11)."""
    grid = ctx.sc.grid
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        here = path[-1] if path else start
        if path:
            found.append(list(path))
        if len(path) >= mx:
            return
        for n in grid.neighbors(here):
            if n != start and n not in path and not ctx.enemy_occupied(n, side) and ctx.group_can_enter(units, here, n):
                walk(path + [n])

    walk([])
    paths = [p for p in found if mn <= len(p) <= mx]
    if paths or not found:
        return paths
    longest = max(len(p) for p in found)
    return [p for p in found if len(p) == longest]


def retreat_options(ctx: Ctx, side: str, start: str, units: list[str], mn: int, mx: int) -> list[dict[str, Any]]:
    """The paths with their safety (7.6): each safe one, or when there is none, each unsafe one."""
    first_unsafe = unsafe_hex_finder(ctx, side, set(units))
    out: list[dict[str, Any]] = []
    for p in retreat_paths(ctx, side, start, units, mn, mx):
        safe = len(p) >= mn and first_unsafe(p) is None
        out.append({"id": ">".join(p), "path": p, "hex": p[-1], "safe": safe,
                    "label": f"retreat to {p[-1]} via {' > '.join(p)}" + ("" if safe else " (unsafe: routs from there)")})
    safe_lines = [o for o in out if o["safe"]]
    return sorted(safe_lines or out, key=lambda o: str(o["id"]))


def run_retreat(ctx: Ctx, task: dict[str, Any]) -> None:
    side = task["side"]
    start = task["from"]
    units = [u for u in task["units"] if ctx.u(u).status == STATUS_MAP and ctx.u(u).hex == start]
    if not any(ctx.is_combat(u) for u in units):
        if units:
            after_hex_loses_units(ctx, start, side)
        return
    mn = minimum_hexes(ctx, units, task["rout"])
    options = retreat_options(ctx, side, start, units, mn, MOST_HEXES)
    c = ctx.st.combat
    if not options:
        gone = exit_path(ctx, side, start, units, MOST_HEXES) is not None
        for u in units:
            ctx.set_status(u, Status.REMOVED if gone else Status.CAPTURED)
        if gone:
            ctx.emit("retreat_off_map", f"7.6: {ctx.names(units)} can only retreat off the map and are removed from play",
                     units=units, rule="7.6")
        else:
            ctx.emit("captured", f"7.6: {ctx.names(units)} have no line of retreat and are captured", units=units,
                     rule="7.6")
        if c is not None and side == c.get("defender"):
            c["def_retreated"] = True
        after_hex_loses_units(ctx, start, side)
        return
    kind = "rout" if task["rout"] else "retreat"
    safe = options[0]["safe"]
    ctx.st.decision = {
        "kind": "retreat", "side": side, "rule": "7.8" if task["rout"] else "7.6",
        "text": f"Choose a {kind} path of {mn}-{MOST_HEXES} hexes for {ctx.names(units)} from {start}"
                + ("" if safe else " (no safe line of retreat: the units rout from its last hex)"),
        "task": dict(task, units=units), "options": options, "hexes": [start],
    }


def apply_retreat(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    side = task["side"]
    start = task["from"]
    units = [u for u in task["units"] if ctx.u(u).status == STATUS_MAP]
    path: list[str] = option["path"]
    dest = path[-1]
    c = ctx.st.combat
    if c is not None and side == c.get("defender"):
        c["def_retreated"] = True
    for u in units:
        ctx.move_unit(u, dest)
    verb = "rout" if task["rout"] else "retreat"
    ctx.emit("retreat", f"{task['rule']}: {ctx.names(units)} {verb} {' > '.join([start] + path)}", units=units,
             path=[start] + path, rout=task["rout"], rule=task["rule"])
    if ctx.st.squares.get(start) in units:  # T12: a square that retreats is broken up
        del ctx.st.squares[start]
        ctx.emit("square_removed", f"9.3: the square that stood at {start} is broken up by the retreat", hex=start,
                 rule="9.3")
    after_hex_loses_units(ctx, start, side)
    check_lone_leaders(ctx, {dest})
    if not option["safe"]:
        # 7.6: an unsafe line: rout from its last hex; 7.8: a routing unit routed again loses a step first.
        again = {"t": "retreat", "side": side, "units": units, "from": dest, "rout": True, "rule": "7.8"}
        ctx.st.tasks.append(again)
        if task["rout"]:
            ctx.emit("routed_again", f"7.8: {ctx.names(units)} are routed again: a step lost and a new rout",
                     units=units, rule="7.8")
            for u in units:
                if ctx.is_combat(u):
                    step_loss(ctx, c, u, "7.8")
        else:
            ctx.emit("unsafe_retreat", f"7.6: the line of retreat is unsafe: {ctx.names(units)} rout from {dest}",
                     units=units, hex=dest, rule="7.6")
        return
    after_retreat_status(ctx, units, task["rout"])


def after_retreat_status(ctx: Ctx, units: list[str], rout: bool) -> None:
    """7.8: disrupted at the end of a rout; 8.1(2), 9.1(1): artillery and cavalry ineffective after any retreat;
    10.0: leaders ineffective after a retreat."""
    for u in units:
        if ctx.u(u).status != STATUS_MAP:
            continue
        if rout:
            disrupt(ctx, u, "7.8")
        make_ineffective(ctx, u, "10.0" if ctx.is_leader(u) else ("8.1(2)" if ctx.kind(u) is UnitKind.ARTILLERY else "9.1(1)"),
                         " after retreating")


# --- advance after combat (7.9) ------------------------------------------------------------
def run_advance(ctx: Ctx, task: dict[str, Any]) -> None:
    """7.9: when a defender retreated, participating attackers that are not disrupted or ineffective, not artillery
    and not in terrain the TEC keeps them in may advance (two hexes after a rout; R14.1: an eliminated defender
    does not stop it)."""
    c = ctx.st.combat
    if c is None or not c.get("advance") or not c.get("def_retreated") or c.get("kind") in ("charge", "bombard"):
        return
    queue_advances(ctx, c)


def run_advance_unit(ctx: Ctx, task: dict[str, Any]) -> None:
    u = task["unit"]
    if ctx.u(u).status != STATUS_MAP:
        return
    hexes = advance_hexes(ctx, task)
    if hexes:
        offer_advance(ctx, task, hexes, "advance", "7.9", f"Advance after combat: {ctx.name(u)} may advance"
                      + (" a second hex (after a rout)" if task["step"] == 2 else ""))


def apply_advance(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    advance_next(ctx, task, advance_unit(ctx, task["unit"], option.get("hex"), "7.9"))
