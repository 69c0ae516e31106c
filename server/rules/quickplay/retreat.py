"""Losses, retreats, routs and advances after combat (7.6-7.9, R7), squares retreating (9.3(c))."""

from __future__ import annotations

from typing import Any

from ..kernel.core import Ctx
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP, Status
from .leaders import check_lone_leaders

ONE_STEP_INEFFECTIVE_ON_RETREAT = (UnitKind.BATTALION, UnitKind.ARTILLERY, UnitKind.CAVALRY, UnitKind.LEADER)


# --- step losses (7.6) -------------------------------------------------------------
def has_line_of_retreat(ctx: Ctx, uid: str) -> bool:
    """7.6: some hex to retreat into exists (safe or unsafe), or the map edge to leave by."""
    hex_ = ctx.u(uid).hex
    if hex_ is None:
        return False
    side = ctx.side_of(uid)
    if ctx.sc.grid.is_edge(hex_):
        return True
    cls = ctx.d(uid).tec_class
    return any(
        not ctx.enemy_occupied(n, side) and ctx.can_enter_terrain(cls, hex_, n)
        for n in ctx.sc.grid.neighbors(hex_)
    )


def step_loss(ctx: Ctx, c: dict[str, Any] | None, uid: str, rule: str) -> None:
    d = ctx.d(uid)
    s = ctx.u(uid)
    if s.status != STATUS_MAP:
        return
    if d.steps == 2 and not s.reduced:
        s.reduced = True
        ctx.emit("step_loss", f"{rule}: {d.name} loses a step and is reduced", unit=uid, rule=rule)
        return
    remove_unit(ctx, c, uid, rule, captured=not has_line_of_retreat(ctx, uid))


def remove_unit(ctx: Ctx, c: dict[str, Any] | None, uid: str, rule: str, captured: bool) -> None:
    s = ctx.u(uid)
    hex_ = s.hex
    side = ctx.side_of(uid)
    if captured:
        ctx.set_status(uid, Status.CAPTURED)
        ctx.emit("captured", f"{rule}: {ctx.name(uid)} has no line of retreat and is captured", unit=uid, rule=rule)
    else:
        status = Status.DEAD if ctx.is_leader(uid) else Status.ELIMINATED
        ctx.set_status(uid, status)
        ctx.emit("eliminated", f"{rule}: {ctx.name(uid)} is eliminated", unit=uid, rule=rule)
    if c is not None and side == c.get("defender"):
        c["def_eliminated"] = True
    if hex_ is not None:
        after_hex_loses_units(ctx, hex_, side)


def after_hex_loses_units(ctx: Ctx, hex_: str, side: str) -> None:
    """A square with no infantry left goes (R9); a leader left alone beside the enemy flees (R9)."""
    sq = ctx.st.squares.get(hex_)
    if sq is not None and (ctx.u(sq).hex != hex_ or ctx.u(sq).status != STATUS_MAP):
        infantry = [u for u in ctx.combat_units_at(hex_) if ctx.kind(u) in (UnitKind.INFANTRY, UnitKind.BATTALION)]
        if infantry:
            ctx.st.squares[hex_] = infantry[0]
        else:
            del ctx.st.squares[hex_]
            ctx.emit("square_removed", f"9.3: the square at {hex_} is gone", hex=hex_, rule="9.3")
    check_lone_leaders(ctx, {hex_})


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


def _friendly_zoc_excluding(ctx: Ctx, side: str, excluded: set[str]) -> set[str]:
    out: set[str] = set()
    targets = ctx.sc.zoc_targets
    for hex_, uids in ctx.occupancy().items():
        if any(ctx.side_of(u) == side and ctx.exerts_zoc(u) and u not in excluded for u in uids):
            out.update(targets[hex_])
    return out


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
    enemy_zoc = ctx.zoc_of(ctx.enemy(side))
    friendly_zoc = _friendly_zoc_excluding(ctx, side, group)
    out = []
    for p in paths:
        unsafe_at = None
        for i, h in enumerate(p):
            if h in enemy_zoc:
                negated = h in friendly_zoc or any(u not in group for u in ctx.units_at(h) if ctx.side_of(u) == side and not ctx.is_leader(u))
                if not negated or i == len(p) - 1:
                    unsafe_at = i
                    break
        out.append({"id": ">".join(p), "path": p, "hex": p[-1], "safe": unsafe_at is None, "unsafe_at": unsafe_at,
                    "label": f"retreat to {p[-1]} via {' > '.join(p)}" + ("" if unsafe_at is None else " (unsafe)")})
    out.sort(key=lambda o: (not o["safe"], o["id"]))
    return out


def exit_path(ctx: Ctx, side: str, start: str, units: list[str], mx: int) -> list[str] | None:
    """R7: the shortest way to a map edge, used only when no retreat on the map exists."""
    if ctx.sc.grid.is_edge(start):
        return []
    grid = ctx.sc.grid
    frontier = [[start]]
    for _ in range(mx - 1):
        nxt = []
        for p in frontier:
            for n in grid.neighbors(p[-1]):
                if n in p or ctx.enemy_occupied(n, side) or not ctx.group_can_enter(units, p[-1], n):
                    continue
                if grid.is_edge(n):
                    return p[1:] + [n]
                nxt.append(p + [n])
        frontier = nxt
    return None


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
    tasks = []
    for u in c["attackers"]:
        s = ctx.u(u)
        if s.status != STATUS_MAP or s.disrupted or s.ineffective or ctx.kind(u) is UnitKind.ARTILLERY:
            continue
        assert s.hex is not None
        if ctx.d(u).tec_class in ctx.sc.terrain_at(s.hex).no_advance_from:
            continue
        tasks.append({"t": "advance_unit", "unit": u, "step": 1, "steps": c["advance"], "target": c["target"]})
    ctx.st.tasks.extend(reversed(tasks))


def advance_hexes(ctx: Ctx, task: dict[str, Any]) -> list[str]:
    u = task["unit"]
    s = ctx.u(u)
    side = ctx.side_of(u)
    here = s.hex
    assert here is not None
    grid = ctx.sc.grid
    cls = ctx.d(u).tec_class
    out = []
    for n in grid.neighbors(here):
        if ctx.enemy_occupied(n, side) or not ctx.can_enter_terrain(cls, here, n):
            continue
        if any(cls in f.no_advance_across for f in ctx.sc.hexside_defs(here, n)):
            continue
        if task["step"] == 1:
            target = task["target"]
            if n != target and not (grid.is_adjacent(n, target) and not ctx.units_at(n)):
                continue
        out.append(n)
    return sorted(out)


def run_advance_unit(ctx: Ctx, task: dict[str, Any]) -> None:
    u = task["unit"]
    if ctx.u(u).status != STATUS_MAP:
        return
    hexes = advance_hexes(ctx, task)
    if not hexes:
        return
    options = [{"id": "stay", "label": f"{ctx.name(u)} stays in {ctx.u(u).hex}", "hex": None}]
    options += [{"id": h, "label": f"{ctx.name(u)} advances to {h}", "hex": h} for h in hexes]
    ctx.st.decision = {
        "kind": "advance",
        "side": ctx.side_of(u),
        "rule": "7.9",
        "text": f"{ctx.name(u)} may advance after combat"
                + (" a second hex, after a rout" if task["step"] == 2 else "")
                + ": choose a hex, or stay (rule 7.9)",
        "task": task,
        "options": options,
        "hexes": hexes,
        "units": [u],
    }


def advance_unit(ctx: Ctx, u: str, dest: str | None, rule: str) -> bool:
    """Move an advancing unit (7.9, and 9.2 step 6) with the leaders that added their CF to it; False if it holds."""
    if dest is None:
        ctx.emit("no_advance", f"{rule}: {ctx.name(u)} holds its ground", unit=u, rule=rule)
        return False
    start = ctx.u(u).hex
    assert start is not None
    c = ctx.st.combat or {}
    movers = [u] + [ldr for ldr, rec in c.get("leader_to", {}).items() if rec == u and ctx.u(ldr).hex == start]
    for m in movers:
        ctx.move_unit(m, dest)
    ctx.emit("advance", f"{rule}: {ctx.names(movers)} advance{'s' if len(movers) == 1 else ''} to {dest}",
             units=movers, path=[start, dest], rule=rule)
    after_hex_loses_units(ctx, start, ctx.side_of(u))
    check_lone_leaders(ctx, {dest})
    return True


def apply_advance(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if advance_unit(ctx, task["unit"], option.get("hex"), "7.9") and task["step"] == 1 and task["steps"] >= 2:
        ctx.st.tasks.append(dict(task, step=2))
