"""Retreat and rout as the engine plays them (seed 002 7.9, 7.10, with 2.8(6), 7.13(4), 9.2(3), 12.2, S13).

A `retreat` task asks the owner for the group's path (decision `retreat`) among those retreat.py finds: safe ones
first, unsafe ones with a morale check in each EZOC hex (failing, the unit routs); a disrupted group retreats at
least two hexes (2.8(6)).  Retreating units with an ineffective side flip to it unless they disengaged (7.9,
7.13(4)); units retreat disrupted through their own trains (12.2), when routing (7.10) and from attacking cavalry
(9.2(3)).  A retreat ending in an EZOC goes on to the nearest hex free of one within the printed MA, or routs (7.9,
S13).  With no path the units rout off the map when a line of enterable hexes reaches a map edge, and are captured
otherwise (7.9).

A `rout` task (7.10): with a safe line the units retreat three hexes, disrupted; with an unsafe line they leave the
map for the TRT two turns ahead (moving.leave_map); with none they are captured.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from ..kernel.state import Status
from .context import StdCtx
from .hidden import halt_index, marker_block
from .line import drop as drop_line
from .line import enemy_entered
from .movement import printed_side
from .moving import leave_map
from .open_order import drop as drop_open_order
from .retreat import NONE as NO_LINE
from .retreat import SAFE, retreat_paths
from .scenario import Kind

_FLIP_ON_RETREAT = (Kind.LEADER, Kind.CAVALRY, Kind.ARTILLERY, Kind.BATTALION, Kind.SQUADRON)  # 7.9


# --- 7.9 retreat ----------------------------------------------------------------------------------------------------
def retreat_task(ctx: StdCtx, group: Sequence[str], rule: str = "7.9", length: int = 1) -> dict[str, Any]:
    minimum = max(length, 2 if any(ctx.st.units[u].disrupted for u in group) else 1)  # 2.8(6)
    return {"t": "retreat", "units": list(group), "min": minimum, "rule": rule}


def _group_army(ctx: StdCtx, group: Sequence[str]) -> str:
    combat = [u for u in group if ctx.kind(u).is_combat]
    return ctx.army(combat[0] if combat else group[0])


def task_retreat(ctx: StdCtx, task: dict[str, Any]) -> None:
    group = [u for u in task["units"] if ctx.on_map(u)]
    if not group:
        return
    start = ctx.st.units[group[0]].hex
    assert start is not None  # on the map
    group = [u for u in group if ctx.st.units[u].hex == start]
    paths = retreat_paths(ctx.sc, ctx.st.units, group, _group_army(ctx, group), min_length=task["min"],
                          inactive=ctx.inactive())
    done = int(task.get("done", 0))
    spots = marker_block(ctx, ctx.side_of(group[0]))  # 19.8 C: never into the side's own marker's hex
    paths = [p for p in paths if not spots.intersection(p.path)]
    if "origin" in task:  # 19.8 D (S74): the rest of a halted retreat, each hex still farther from where it began
        paths = [p for p in paths if len(p.path) <= 3 - done
                 and all(ctx.sc.grid.distance(task["origin"], h) == done + i + 1 for i, h in enumerate(p.path))]
    if task.get("rout"):
        paths = [p for p in paths if p.safe and len(p.path) == 3 - done]
    if not paths and task.get("owed", 1) <= 0:  # S74: a halted retreat already long enough may end where it is
        _after_retreat(ctx, task, group, group, list(task.get("walked", [])), safe=True,
                       start=task.get("origin", start))
        return
    if not paths:
        if task.get("rout"):
            for u in group:
                leave_map(ctx, u, "7.10")
            return
        edge = _edge_line(ctx, group)
        for u in group:
            if edge:
                ctx.emit("rout", f"7.9: {ctx.name(u)} has a line of retreat only to a map edge: it routs", unit=u,
                         rule="7.9")
                leave_map(ctx, u, "7.9")
            else:
                ctx.set_status(u, Status.CAPTURED)
                ctx.emit("captured", f"7.9: {ctx.name(u)} has no line of retreat and is captured", unit=u, rule="7.9")
        return
    options: list[dict[str, Any]] = []
    for p in paths:
        label = " → ".join([start, *p.path]) + ("" if p.safe else f" (unsafe: {len(p.checks)} morale check(s))")
        options.append({"id": "-".join(p.path), "path": list(p.path), "safe": p.safe, "ezoc": list(p.checks),
                        "on": p.must_continue, "label": label})
    task = {**task, "units": group}
    ctx.st.decision = {"kind": "retreat", "side": ctx.side_of(group[0]), "rule": task.get("rule", "7.9"),
                       "task": task, "from": start, "options": options,
                       "hexes": sorted({o["path"][-1] for o in options}),
                       "text": f"{ctx.names(group)} must {'rout' if task.get('rout') else 'retreat'} from {start}: choose "
                               f"where they go, and the path when several lead there "
                               f"(rule {task.get('rule', '7.9')})"}


def _edge_line(ctx: StdCtx, group: Sequence[str]) -> bool:
    """7.9: whether a path of enterable hexes, free of enemy units, leads from the group to a map edge."""
    start = ctx.st.units[group[0]].hex
    assert start is not None
    side = ctx.side_of(group[0])
    classes = {ctx.kind(u).tec_class for u in group}
    seen = {start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if ctx.sc.grid.is_edge(h) and h != start:
            return True
        for n in ctx.sc.grid.neighbors(h):
            if n in seen or ctx.enemy_occupied(n, side):
                continue
            if all(ctx.sc.could_move(c, h, n) for c in classes):
                seen.add(n)
                queue.append(n)
    return ctx.sc.grid.is_edge(start)


def decide_retreat(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    group = list(task["units"])
    side = ctx.side_of(group[0])
    path = list(option["path"])
    start = ctx.st.units[group[0]].hex
    halt = halt_index(ctx, side, path, 0)  # 19.8 D: a marker comes into sight on the way: the retreat halts there
    cut = halt is not None and halt < len(path) - 1
    walked = path[:halt + 1] if halt is not None and cut else path
    own_trains = {ctx.st.units[t].hex for t in ctx.sc.trains.values() if ctx.side_of(t) == side and ctx.on_map(t)}
    ezoc_hexes = set(option.get("ezoc", []))
    through = bool(task.get("through_trains")) or any(h in own_trains for h in walked)
    moving = list(group)
    for h in walked:
        for u in list(moving):
            ctx.move_unit(u, h)
        if h in ezoc_hexes and not option["safe"]:
            for u in list(moving):
                if ctx.kind(u).is_combat and not ctx.morale_check(u, "7.9", f"retreat through an enemy zone of control at {h}"):
                    moving.remove(u)
                    ctx.st.tasks.append({"t": "rout", "units": [u], "rule": "7.9"})
    whole = [*task.get("walked", []), *walked]
    if cut:  # S74: the box deploys (the driver reveals it first), then the retreat goes on from here
        done = int(task.get("done", 0)) + len(walked)
        ctx.emit("retreat", f"19.8 D: {ctx.names(group)} halt at {walked[-1]}: a hidden movement marker comes into "
                            "sight", units=group, path=walked, start=start, rule="19.8 D")
        if moving:
            ctx.st.tasks.append({
                **task, "units": moving, "origin": task.get("origin", start), "done": done, "walked": whole,
                "through_trains": through, "min": max(int(task["min"]) - len(walked), 1),
                "owed": int(task.get("owed", task["min"])) - len(walked)})
        return
    _after_retreat(ctx, task, group, moving, whole, safe=bool(option["safe"]), through=through,
                   start=task.get("origin", start))


def _after_retreat(ctx: StdCtx, task: dict[str, Any], group: list[str], moving: list[str], path: list[str], *,
                   safe: bool, through: bool | None = None, start: str | None = None) -> None:
    """7.9's consequences of a retreat made (`path`: every hex entered, a halted one's too, S74; `start`: the hex
    the retreat began in, which the event names so that the page can draw the whole retreat)."""
    side = ctx.side_of(group[0])
    rule = task.get("rule", "7.9")
    through_trains = bool(task.get("through_trains")) if through is None else through
    here = ctx.st.units[group[0]].hex
    ctx.emit("retreat", f"{rule}: {ctx.names(group)} retreat to {here}", units=group, path=path, start=start, rule=rule)
    drop_open_order(ctx, group, "routs" if task.get("rout") else "retreats")  # 19.10 A
    drop_line(ctx, group, "routs" if task.get("rout") else "retreats")  # 19.7 A
    if any(ctx.kind(u).is_combat for u in group):
        enemy_entered(ctx, side, path)  # 19.7 B: a retreat into an enemy line's flank or rear
    for u in group:
        if ctx.kind(u) in _FLIP_ON_RETREAT and not task.get("disengage"):  # 7.13(4): disengaging units do not flip
            ctx.make_ineffective(u, "7.9")
        if through_trains:
            ctx.disrupt(u, "12.2")
        if task.get("rout"):
            ctx.disrupt(u, "7.10")
        if task.get("cavalry"):
            ctx.disrupt(u, "9.2(3)")  # 9.2(3): retreating from attacking cavalry
    # 7.9: a retreat ending in an EZOC goes on to a hex free of EZOC within the printed MA, or routs (S13)
    if path and not safe and path[-1] in ctx.zoc_of(ctx.enemy(side)) and moving:
        go_on(ctx, moving, path)


def go_on(ctx: StdCtx, group: list[str], path: list[str], spent: int = 0) -> None:
    side = ctx.side_of(group[0])
    ezoc = ctx.zoc_of(ctx.enemy(side))
    start = path[-1]
    combat = [u for u in group if ctx.kind(u).is_combat]
    mas = [ma for u in combat if (ma := _printed_ma(ctx, u)) is not None]
    limit = (min(mas) if mas else 6) - spent
    classes = {ctx.kind(u).tec_class for u in group}
    spots = marker_block(ctx, side)
    prev = {start: ""}
    queue = deque([(start, 0)])
    goal = None
    while queue:
        h, n = queue.popleft()
        if h != start and h not in ezoc:
            goal = h
            break
        if n >= limit:
            continue
        for nb in sorted(ctx.sc.grid.neighbors(h)):
            if nb in prev or nb in path or ctx.enemy_occupied(nb, side) or nb in spots:  # 19.8 C
                continue
            if all(ctx.sc.could_move(c, h, nb) for c in classes):
                prev[nb] = h
                queue.append((nb, n + 1))
    if goal is None:
        ctx.emit("rout", f"7.9: {ctx.names(group)} cannot get clear of the enemy zone of control: they rout", units=group,
                 rule="7.9")
        ctx.st.tasks.append({"t": "rout", "units": group, "rule": "7.9"})
        return
    steps = []
    h = goal
    while h != start:
        steps.append(h)
        h = prev[h]
    steps.reverse()
    halt = halt_index(ctx, side, steps, 0)  # 19.8 D (S74): halted on the way, it goes on once the box has deployed
    if halt is not None and halt < len(steps) - 1:
        steps = steps[:halt + 1]
        ctx.st.tasks.append({"t": "retreat_go_on", "units": group, "path": [*path, *steps],
                             "spent": spent + len(steps)})
    for h in steps:
        for u in list(group):
            ctx.move_unit(u, h)
        if h in ezoc:
            for u in list(group):
                if ctx.kind(u).is_combat and not ctx.morale_check(u, "7.9", f"retreat through an enemy zone of control at {h}"):
                    group.remove(u)
                    ctx.st.tasks.append({"t": "rout", "units": [u], "rule": "7.9"})
    ctx.emit("retreat", f"7.9: {ctx.names(group)} go on retreating to {steps[-1]}", units=group, path=steps, start=start,
             rule="7.9")
    if any(ctx.kind(u).is_combat for u in group):
        enemy_entered(ctx, side, steps)  # 19.7 B


def task_go_on(ctx: StdCtx, task: dict[str, Any]) -> None:
    """S74: a retreat going on out of an EZOC, halted by a reveal, completes from where it stands (if still in one)."""
    group = [u for u in task["units"] if ctx.on_map(u)]
    here = ctx.st.units[group[0]].hex if group else None
    group = [u for u in group if ctx.st.units[u].hex == here]
    if group and here is not None and here in ctx.zoc_of(ctx.enemy(ctx.side_of(group[0]))):
        go_on(ctx, group, list(task["path"]), int(task.get("spent", 0)))


def _printed_ma(ctx: StdCtx, uid: str) -> int | None:
    ma = printed_side(ctx.sc, ctx.st.units[uid]).ma
    return 6 if ma is None else ma


# --- 7.10 rout ------------------------------------------------------------------------------------------------------
def queue_rout(ctx: StdCtx, units: Sequence[str], rule: str) -> None:
    by_hex: dict[str, list[str]] = {}
    for u in units:
        h = ctx.st.units[u].hex
        if h is not None:
            by_hex.setdefault(h, []).append(u)
    for h in sorted(by_hex, reverse=True):
        ctx.st.tasks.append({"t": "rout", "units": by_hex[h], "rule": rule})


def task_rout(ctx: StdCtx, task: dict[str, Any]) -> None:
    """7.10: with an SLR the units retreat three hexes and are disrupted; with an unsafe line they go to the TRT two
    turns ahead; with none they are captured.  Leaders go with their units (alone, 10.1 moves them later)."""
    group = [u for u in task["units"] if ctx.on_map(u)]
    if not group:
        return
    rule = task.get("rule", "7.10")
    combat = [u for u in group if ctx.kind(u).is_combat]
    if not combat:
        return
    excluding = tuple(sorted(group))
    side = ctx.side_of(combat[0])
    start = ctx.st.units[combat[0]].hex
    assert start is not None
    lines = {ctx.lines(side, _group_army(ctx, group), ctx.kind(u).tec_class, excluding).line(start) for u in combat}
    if NO_LINE in lines:
        for u in group:
            ctx.set_status(u, Status.CAPTURED)
            ctx.emit("captured", f"7.10: {ctx.name(u)} routs with no line of retreat and is captured", unit=u, rule="7.10")
        return
    if lines == {SAFE}:
        ctx.st.tasks.append({**retreat_task(ctx, group, "7.10", 3), "rout": True})
        return
    for u in group:
        if ctx.kind(u).is_combat:
            leave_map(ctx, u, rule)
