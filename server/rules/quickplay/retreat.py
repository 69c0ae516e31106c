"""Retreats and routs after combat (7.6-7.9, R7), squares retreating (9.3(c)), the advance's procedure (7.9). Step
losses, removal, the way off the map and the advance's hexes are the kernel's (kernel/aftercombat.py)."""

from __future__ import annotations

from typing import Any

from ..kernel.aftercombat import (
    advance_hexes,
    advance_unit,
    after_hex_loses_units,
    exit_path,
    has_line_of_retreat,
    remove_unit,
    step_loss,
    unsafe_hex_finder,
)
from ..kernel.core import Ctx
from ..kernel.lone_leaders import check_lone_leaders
from ..kernel.procedures import advance_next, offer_advance, queue_advances
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP, Status

__all__ = ["advance_hexes", "advance_unit", "after_hex_loses_units", "exit_path", "has_line_of_retreat", "remove_unit",
           "step_loss"]

ONE_STEP_INEFFECTIVE_ON_RETREAT = (UnitKind.BATTALION, UnitKind.ARTILLERY, UnitKind.CAVALRY, UnitKind.LEADER)


# --- queuing retreats --------------------------------------------------------------------
def queue_group_retreats(
    ctx: Ctx, c: dict[str, Any] | None, side: str, groups: dict[str, list[str]], only: set[str] | None,
    minimum: int, rout: bool, impaired: dict[str, bool] | None = None, rule: str = "7.7",
) -> None:
    """Each losing hex retreats as its own group; cavalry splits off to retreat exactly three (R7, 9.1(4))."""
    tasks: list[dict[str, Any]] = []
    for hex_ in sorted(groups):
        units = [u for u in groups[hex_] if ctx.u(u).status == STATUS_MAP and ctx.u(u).hex == hex_]
        combat = [u for u in units if not ctx.is_leader(u)]
        movers = [u for u in combat if only is None or u in only]
        if not movers:
            continue
        leaders = [u for u in units if ctx.is_leader(u)] if len(movers) == len(combat) else []
        cavalry = [u for u in movers if ctx.kind(u) is UnitKind.CAVALRY]
        others = [u for u in movers if ctx.kind(u) is not UnitKind.CAVALRY]
        parts: list[tuple[list[str], int, int]] = []
        group_min = minimum
        if impaired is not None and any(impaired.get(u) for u in movers):
            group_min = max(group_min, 2)
        if rout:
            group_min = 3
        if others:
            parts.append((others + leaders, group_min, 3))
        if cavalry:
            parts.append((cavalry + ([] if others else leaders), 3, 3))
        for units_, mn, mx in parts:
            tasks.append({"t": "retreat", "side": side, "units": units_, "from": hex_, "min": mn, "max": mx,
                          "rout": rout, "rule": rule, "origin": hex_})
    ctx.st.tasks.extend(reversed(tasks))


# --- paths ------------------------------------------------------------------------
def _entry_distance(ctx: Ctx, side: str, hex_: str) -> int:
    targets = ctx.sc.all_entry_hexes[side] or frozenset(ctx.sc.grid.edge(ctx.sc.sides[side].edge))
    grid = ctx.sc.grid
    return min(grid.distance(hex_, t) for t in targets)


def retreat_options(ctx: Ctx, side: str, start: str, units: list[str], mn: int, mx: int) -> list[dict[str, Any]]:
    """Every legal retreat path for the group with its safety (7.7, R7)."""
    grid = ctx.sc.grid
    group = set(units)

    def can_step(a: str, b: str, path: list[str]) -> bool:
        if b == start or b in path:
            return False
        if ctx.enemy_occupied(b, side):
            return False
        return ctx.group_can_enter(units, a, b)

    dist = {h: _entry_distance(ctx, side, h) for h in grid.within(start, mx)}
    all_paths: list[list[str]] = []

    def walk(path: list[str], closer_only: bool, length: int | None) -> None:
        here = path[-1] if path else start
        if path and (length is None or len(path) == length):
            all_paths.append(list(path))
        if len(path) >= (length or mx):
            return
        nexts = [n for n in grid.neighbors(here) if can_step(here, n, path)]
        if closer_only:
            nexts = [n for n in nexts if dist[n] < dist[here]]
        elif length is not None:
            closer = [n for n in nexts if dist[n] < dist[here]]
            nexts = closer or nexts
        for n in nexts:
            walk(path + [n], closer_only, length)

    walk([], True, None)
    paths = [p for p in all_paths if mn <= len(p) <= mx]
    if not paths:
        all_paths.clear()
        walk([], False, max(1, mn))
        paths = all_paths
    first_unsafe = unsafe_hex_finder(ctx, side, group)
    out = []
    for p in paths:
        unsafe_at = first_unsafe(p)
        out.append({"id": ">".join(p), "path": p, "hex": p[-1], "safe": unsafe_at is None, "unsafe_at": unsafe_at,
                    "label": f"retreat to {p[-1]} via {' > '.join(p)}" + ("" if unsafe_at is None else " (unsafe)")})
    out.sort(key=lambda o: (not o["safe"], o["id"]))
    return out


# --- the retreat task and decision ----------------------------------------------------
def run_retreat(ctx: Ctx, task: dict[str, Any]) -> None:
    side = task["side"]
    start = task["from"]
    units = [u for u in task["units"] if ctx.u(u).status == STATUS_MAP and ctx.u(u).hex == start]
    if not any(not ctx.is_leader(u) for u in units):
        if units:
            after_hex_loses_units(ctx, start, side)
        return
    task = dict(task, units=units)
    options = retreat_options(ctx, side, start, units, task["min"], task["max"])
    if not options:
        out = exit_path(ctx, side, start, units, task["max"])
        c = ctx.st.combat
        if out is not None:
            for u in units:
                ctx.set_status(u, Status.REMOVED)
            ctx.emit("retreat_off_map", f"7.7: {ctx.names(units)} can retreat only off the map and are removed from play",
                     units=units, rule="7.7")
            if c is not None and side == c.get("defender"):
                c["def_retreated"] = True
            after_hex_loses_units(ctx, start, side)
        else:
            for u in units:
                ctx.set_status(u, Status.CAPTURED)
            ctx.emit("captured", f"7.7: {ctx.names(units)} have no line of retreat and are captured", units=units, rule="7.7")
            if c is not None and side == c.get("defender"):
                c["def_eliminated"] = True
            after_hex_loses_units(ctx, start, side)
        return
    safe = [o for o in options if o["safe"]]
    choices = safe or options
    kind = "rout" if task["rout"] else "retreat"
    length = f"{task['min']}" if task["min"] == task["max"] else f"{task['min']}-{task['max']}"
    ctx.st.decision = {
        "kind": "retreat",
        "side": side,
        "rule": "7.8" if task["rout"] else "7.7",
        "text": f"{ctx.names(units)} must {kind} {length} hexes from {start}: choose where they go"
                + ("" if safe else " (no safe line exists: the group loses a step and routs)")
                + f" (rule {'7.8' if task['rout'] else '7.7'})",
        "task": task,
        "options": choices,
        "hexes": [start],
        "from": start,
    }


def apply_retreat(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    side = task["side"]
    units = [u for u in task["units"] if ctx.u(u).status == STATUS_MAP]
    start = task["from"]
    path: list[str] = option["path"]
    c = ctx.st.combat
    if c is not None and side == c.get("defender"):
        c["def_retreated"] = True
    unsafe_at = option.get("unsafe_at")
    stop = path if unsafe_at is None else path[: unsafe_at + 1]
    dest = stop[-1]
    for u in units:
        ctx.move_unit(u, dest)
    verb = "routs" if task["rout"] else "retreats"
    ctx.emit("retreat", f"{task['rule']}: {ctx.names(units)} {verb} {' > '.join([start] + stop)}",
             units=units, path=[start] + stop, rout=task["rout"], rule=task["rule"])
    _square_after_retreat(ctx, start, dest, len(stop), task["rout"] or unsafe_at is not None)
    after_hex_loses_units(ctx, start, side)
    check_lone_leaders(ctx, {dest})
    if unsafe_at is not None:
        # R7: an unsafe line costs the group a step, then it routs three hexes from the unsafe hex.
        ctx.emit("unsafe_retreat", f"7.7: {dest} is in an enemy zone of control: the group loses a step and routs",
                 hex=dest, rule="7.7")
        ctx.st.tasks.append({"t": "retreat", "side": side, "units": units, "from": dest, "min": 3, "max": 3,
                             "rout": True, "rule": "7.8", "origin": task.get("origin", start)})
        ctx.st.tasks.append({"t": "group_loss", "side": side, "units": units, "hex": dest})
        return
    _after_retreat_status(ctx, units, task["rout"])


def _after_retreat_status(ctx: Ctx, units: list[str], rout: bool) -> None:
    for u in units:
        if ctx.u(u).status != STATUS_MAP:
            continue
        kind = ctx.kind(u)
        if kind in ONE_STEP_INEFFECTIVE_ON_RETREAT:
            if kind is UnitKind.LEADER:
                if not ctx.u(u).ineffective:
                    ctx.u(u).ineffective = True
                    ctx.emit("ineffective", f"10.0: {ctx.name(u)} becomes ineffective after retreating", unit=u, rule="10.0")
            else:
                ctx.disrupt_or_ineffective(u, "7.7")
        elif rout:
            ctx.disrupt_or_ineffective(u, "7.8")


def _square_after_retreat(ctx: Ctx, start: str, dest: str, length: int, broken: bool) -> None:
    sq = ctx.st.squares.get(start)
    if sq is None or ctx.u(sq).hex != dest:
        return
    del ctx.st.squares[start]
    if length == 1 and not broken:
        ctx.st.squares[dest] = sq
        ctx.emit("square_holds", f"9.3(c): the square retreats one hex to {dest} and stays in square", hex=dest, rule="9.3(c)")
    else:
        ctx.disrupt_or_ineffective(sq, "9.3(c)")
        ctx.emit("square_broken", "9.3(c): the square retreated more than one hex: it is disrupted and loses its square",
                 hex=dest, rule="9.3(c)")


def run_group_loss(ctx: Ctx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.u(u).status == STATUS_MAP and not ctx.is_leader(u)]
    if not units:
        return
    if len(units) == 1:
        step_loss(ctx, ctx.st.combat, units[0], "7.7")
        return
    ctx.st.decision = {
        "kind": "loss",
        "side": task["side"],
        "rule": "7.7",
        "text": f"{ctx.names(sorted(units))} at {task['hex']} lose one step between them: choose the unit that "
                "loses it (rule 7.7)",
        "task": task,
        "options": [{"id": u, "label": f"{ctx.name(u)} loses a step", "unit": u} for u in sorted(units)],
        "hexes": [task["hex"]],
    }


def apply_group_loss(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    step_loss(ctx, ctx.st.combat, option["unit"], "7.7")


# --- advance after combat (7.9) ------------------------------------------------------------
def run_advance(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    if c is None or not c.get("advance") or not c.get("def_retreated") or c.get("def_eliminated"):
        return
    if c.get("kind") == "charge":
        return  # 9.2 step 6 has its own advance
    queue_advances(ctx, c)


def run_advance_unit(ctx: Ctx, task: dict[str, Any]) -> None:
    u = task["unit"]
    if ctx.u(u).status != STATUS_MAP:
        return
    hexes = advance_hexes(ctx, task)
    if hexes:
        offer_advance(ctx, task, hexes, "advance", "7.9", f"{ctx.name(u)} may advance after combat"
                      + (" a second hex, after a rout" if task["step"] == 2 else "")
                      + ": choose a hex, or stay (rule 7.9)")


def apply_advance(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    advance_next(ctx, task, advance_unit(ctx, task["unit"], option.get("hex"), "7.9"))
