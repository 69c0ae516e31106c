"""Movement (4.2, R16.11, R16.12): a unit's move, leg by leg, judged before anything is applied.

A move is one or two legs (two only for a column marching all through the step, 4.2.10); a leg is at most one free
pivot of one hexside at its start (`pivot`) or end (`end_pivot`), then steps straight ahead across `f`, or straight
back across `f+3` (`back`, retrograde, 4.2.4). A leg of no steps may instead turn two or three hexsides (4.2.2a.2-.3),
or any amount for deployed artillery (4.2.3). A formation change (4.2.5) or the 4.2.9 deployment comes at the start
or the end (`formation_at`, `deploy_at`). `walk` returns where the unit ends and every hex it enters, or raises
IllegalCommand citing the rule; `charge_walk` is the same judge for a charge's path (R16.13).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..kernel.errors import IllegalCommand, MalformedCommand
from ..kernel.facing import Direction, direction_between_ids
from . import geometry as geo
from .context import HMCtx
from .scenario import RIVER
from .tables import (
    COLUMN,
    DEPLOYED,
    FORMATIONS,
    LIMBERED,
    LINE,
    RANKS,
    WIDE,
    Kind,
    level_down,
    march_bonus,
    rate,
)

LEG_FIELDS = frozenset({"pivot", "steps", "back", "end_pivot"})
START, END, BOTH = "start", "end", "both"


@dataclass(frozen=True, slots=True)
class Leg:
    pivot: str | None = None
    steps: int = 0
    back: bool = False
    end_pivot: str | None = None


@dataclass(slots=True)
class Walk:
    """A judged move: where the unit ends, facing and formation, the hexes it entered (in order), whether it
    "moved" (4.2.6, 5.1.7: anything but the 4.2.9 deployment alone) and whether a path entered a river hex."""

    hex: str
    facing: str
    formation: str
    entered: list[str] = field(default_factory=list)
    moved: bool = False
    river: bool = False


def parse_legs(raw: Any) -> list[Leg]:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > 2:
        raise MalformedCommand("'legs' must be a list of at most two legs")
    legs = []
    for item in raw:
        if not isinstance(item, dict) or not set(item) <= LEG_FIELDS:
            raise MalformedCommand(f"a leg is an object with some of: {', '.join(sorted(LEG_FIELDS))}")
        steps = item.get("steps", 0)
        if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= 20:
            raise MalformedCommand("a leg's 'steps' is a whole number from 0")
        for key in ("pivot", "end_pivot"):
            v = item.get(key)
            if v is not None and v not in Direction.__members__:
                raise MalformedCommand(f"a leg's '{key}' is a hexside: {', '.join(Direction.__members__)}")
        if not isinstance(item.get("back", False), bool):
            raise MalformedCommand("a leg's 'back' is true or false")
        legs.append(Leg(item.get("pivot"), steps, bool(item.get("back", False)), item.get("end_pivot")))
    return legs


def changes_formation(kind: Kind, old: str, new: str) -> str | None:
    """4.2.5: what is wrong with a change from `old` to `new` (None: allowed)."""
    allowed = FORMATIONS[kind]
    if new not in allowed:
        return f"a {kind.value} unit has no {new} formation (R16.5: {', '.join(allowed)})"
    if new == old:
        return f"it is already in {new}"
    return None


def level_drop(ctx: HMCtx, uid: str) -> bool:
    """4.2.5.2: a formation change costs one level of the move's limit, except for Prussian foot (AL.P.1)."""
    return not (ctx.sc.sides[ctx.side_of(uid)].discipline and ctx.kind(uid).infantry)


def walk(ctx: HMCtx, uid: str, legs: list[Leg], formation: str | None = None, formation_at: str = END,
         deploy_facing: str | None = None, deploy_at: str = END) -> Walk:
    """Judge a move of `uid` by 4.2 and R16.11-R16.12 (the command allowance apart: commands.py)."""
    kind = ctx.kind(uid)
    w = Walk(ctx.hex_of(uid), ctx.facing(uid), ctx.formation(uid))
    if kind is Kind.ARTILLERY and formation is not None and not ctx.d(uid).horse and legs:
        raise IllegalCommand("4.2.5.1", "limbering or deploying foot artillery is its whole move")
    if formation is not None and deploy_facing is not None:
        raise IllegalCommand("4.2.9", "the 4.2.9 deployment is the unit's formation change for the step")
    if formation_at == BOTH and not (kind is Kind.ARTILLERY and ctx.d(uid).horse and w.formation == DEPLOYED
                                      and formation == DEPLOYED):
        raise IllegalCommand("4.2.5.1", "only deployed horse artillery may limber and deploy again in one move")
    drops = 0
    if formation is not None:
        if formation_at != BOTH:
            problem = changes_formation(kind, w.formation, formation)
            if problem:
                raise IllegalCommand("4.2.5", problem)
        drops = (2 if formation_at == BOTH else 1) if level_drop(ctx, uid) else 0
    if deploy_facing is not None:
        _check_deploy(ctx, uid, w, deploy_facing)
    marching = (march_bonus(kind) and w.formation == COLUMN and formation is None and deploy_facing is None)
    if len(legs) > (2 if marching else 1):
        raise IllegalCommand("4.2.10", "only a column marching all through the step gets a second move")
    if formation is not None and formation_at in (START, BOTH):
        w.formation = LIMBERED if formation_at == BOTH else formation
    if deploy_facing is not None and deploy_at == START:
        _deploy(ctx, uid, w, deploy_facing)
    for i, leg in enumerate(legs):
        _leg(ctx, uid, w, leg, drops, only=len(legs) == 1, last_hex_may_touch=None)
        if i == 0 and w.river and len(legs) > 1:
            raise IllegalCommand("4.2.7.2", "entering a river is the unit's whole move")
    if formation is not None and formation_at in (END, BOTH):
        w.formation = formation
    if deploy_facing is not None and deploy_at == END:
        _deploy(ctx, uid, w, deploy_facing)
    w.moved = w.moved or formation is not None
    return w


def _check_deploy(ctx: HMCtx, uid: str, w: Walk, facing: str) -> None:
    """4.2.9: only a column of CO infantry or cavalry deploys (its new facing is judged when it deploys)."""
    kind = ctx.kind(uid)
    if w.formation != COLUMN or kind not in (Kind.CO, Kind.HC, Kind.LC, Kind.TC):
        raise IllegalCommand("4.2.9", "only a column of infantry or cavalry deploys into line or ranks")


def _deploy(ctx: HMCtx, uid: str, w: Walk, facing: str) -> None:
    if geo.turn_steps(w.facing, facing) not in (1, 2):
        raise IllegalCommand("4.2.9", "a column deploys facing one or two hexsides to its right or left (R16.20(56))")
    w.formation = LINE if ctx.kind(uid) is Kind.CO else RANKS
    w.facing = facing


def _leg(ctx: HMCtx, uid: str, w: Walk, leg: Leg, drops: int, only: bool, last_hex_may_touch: str | None) -> None:
    """One leg: its pivot or turn, its steps, its end pivot (4.2.1, 4.2.2a, 4.2.3, 4.2.4, R16.11)."""
    kind = ctx.kind(uid)
    deployed = kind is Kind.ARTILLERY and w.formation == DEPLOYED
    if leg.pivot is not None and leg.end_pivot is not None:
        raise IllegalCommand("4.2.2a.1", "only one turn is permitted per move")
    if leg.pivot is not None:
        n = geo.turn_steps(w.facing, leg.pivot)
        if leg.steps and n > 1:
            raise IllegalCommand("4.2.2a.2", "a turn of more than one hexside is the whole move: no steps with it")
        w.moved = w.moved or n > 0
        w.facing = leg.pivot
    if deployed and leg.steps:
        raise IllegalCommand("4.2.2", "deployed artillery does not move; it may only pivot (4.2.3)")
    if leg.steps:
        _steps(ctx, uid, w, leg, drops, only, last_hex_may_touch)
    if leg.end_pivot is not None:
        n = geo.turn_steps(w.facing, leg.end_pivot)
        if n > 1 and (leg.steps or not deployed):
            raise IllegalCommand("4.2.2a.1", "the free pivot at a move's end is of one hexside")
        w.moved = w.moved or n > 0
        w.facing = leg.end_pivot
    if leg.pivot is None and leg.end_pivot is None and not leg.steps:
        raise IllegalCommand("4.2.1", "a leg pivots, turns or steps")


def _steps(ctx: HMCtx, uid: str, w: Walk, leg: Leg, drops: int, only: bool, last_hex_may_touch: str | None) -> None:
    sc = ctx.sc
    kind = ctx.kind(uid)
    f = geo.index(w.facing)
    g = (f + 3) % 6 if leg.back else f
    start = w.hex
    difficult = leg.back or sc.difficult_hex(start)
    hexes: list[str] = []
    here = start
    for i in range(leg.steps):
        nxt = sc.neighbour(here, g)
        if nxt is None:
            raise IllegalCommand("4.2.1", "the move runs off the map")
        last = i == leg.steps - 1
        _may_enter(ctx, uid, here, nxt, g, w.formation, last and last_hex_may_touch is not None)
        t = sc.terrain_at(nxt)
        if t == RIVER or nxt in sc.fieldworks or here in sc.fieldworks:
            rule = "4.2.7.2" if t == RIVER else "SR.4"
            what = "entering a river hex" if t == RIVER else "entering or leaving a fieldwork section"
            if leg.steps != 1 or leg.back or not only:
                raise IllegalCommand(rule, f"{what} is the unit's whole move: one step straight ahead (R16.12)")
            w.river = w.river or t == RIVER
        difficult = difficult or sc.difficult_hex(nxt) or sc.hedge_between(here, nxt)
        hexes.append(nxt)
        here = nxt
    limit = rate(kind, w.formation, difficult)
    for _ in range(drops):
        limit = level_down(limit)
    if limit == 0:
        raise IllegalCommand("4.2.5.2", f"{ctx.says(uid)} cannot move after changing formation")
    if leg.steps > limit:
        going = "difficult" if difficult else "good"
        raise IllegalCommand("4.2.2", f"{ctx.says(uid)} moves at most {limit} hex{'es' if limit != 1 else ''} "
                                      f"here ({going} going{', retrograde' if leg.back else ''}"
                                      f"{', a formation change' if drops else ''}: R16.11)")
    w.entered.extend(hexes)
    w.hex = here
    w.moved = True


def _may_enter(ctx: HMCtx, uid: str, here: str, nxt: str, g: int, formation: str, last_of_charge: bool) -> None:
    """R16.11's entering rules: an empty hex the type may enter, not next to an enemy (except a charge's last hex),
    and no gap narrower than a wide unit (RC.1c)."""
    sc = ctx.sc
    side = ctx.side_of(uid)
    if ctx.unit_at(nxt) is not None:
        raise IllegalCommand("4.2.8", f"{nxt} holds a unit: units pass through each other only in a retreat")
    if not sc.may_enter(ctx.kind(uid), nxt):
        raise IllegalCommand("4.2.7", f"a {ctx.kind(uid).value} unit may not enter {sc.terrain_at(nxt)} at {nxt} "
                                      "(R16.12)")
    if not last_of_charge and ctx.enemy_adjacent(nxt, side):
        raise IllegalCommand("4.1.9", f"{nxt} is next to an enemy unit: contact comes only by charging")
    if formation in WIDE:
        left, right = geo.beside(g)
        occupied = [any(_unit_across(ctx, nxt, k, uid) for k in ks) for ks in (left, right)]
        if all(occupied):
            raise IllegalCommand("RC.1c", f"the gap at {nxt} is narrower than the unit's frontage")


def _unit_across(ctx: HMCtx, hex_: str, k: int, mover: str) -> bool:
    n = ctx.sc.neighbour(hex_, k)
    if n is None:
        return False
    u = ctx.unit_at(n)
    return u is not None and u != mover


def charge_walk(ctx: HMCtx, uid: str, path: list[str], target: str) -> Walk:
    """R16.13: a charge's path is a legal move of one leg (one pivot, straight ahead, within the limit, no retrograde,
    no formation change), none of its hexes but the last next to an enemy, the last next to the target with the
    charger facing it."""
    grid = ctx.sc.grid
    start = ctx.hex_of(uid)
    if not path or path[0] != start:
        raise MalformedCommand("a charge's path starts at the charger's hex")
    if any(h not in grid for h in path):
        raise MalformedCommand("a charge's path names a hex that is not on the map")
    thex = ctx.hex_of(target)
    last = path[-1]
    if not grid.is_adjacent(last, thex):
        raise IllegalCommand("4.1.2", f"the path does not end next to {ctx.says(target)}")
    face = int(direction_between_ids(grid, last, thex))
    f = geo.index(ctx.facing(uid))
    steps = len(path) - 1
    if steps:
        if not all(grid.is_adjacent(a, b) for a, b in pairwise(path)):
            raise MalformedCommand("a charge's path runs through adjacent hexes")
        g = int(direction_between_ids(grid, path[0], path[1]))
        if any(int(direction_between_ids(grid, a, b)) != g for a, b in pairwise(path)):
            raise IllegalCommand("4.2.1", "a charge runs straight ahead along one hex row")
    else:
        g = f
    pivot = geo.name(g) if g != f else None
    end = geo.name(face) if face != g else None
    if pivot is not None and end is not None:
        raise IllegalCommand("4.2.2a.1", "a charge has only one free pivot: it must end facing its target")
    if (pivot and geo.turn_steps(geo.name(f), pivot) > 1) or (end and geo.turn_steps(geo.name(g), end) > 1):
        raise IllegalCommand("4.2.2a.1", "a charge pivots one hexside at most (R16.13)")
    w = Walk(start, ctx.facing(uid), ctx.formation(uid))
    if steps:
        w.facing = geo.name(g)
        _steps(ctx, uid, w, Leg(None, steps), 0, True, last_hex_may_touch=target)
    w.moved = bool(steps) or face != f
    w.facing = geo.name(face)
    return w


def general_path_problem(ctx: HMCtx, gid: str, path: list[str], limit: int) -> str | None:
    """2.1, R16.11, R16.20(12): a general moves up to 5 hexes by any path, terrain ignored, never into a hex with an
    enemy unit. The problem, or None."""
    grid = ctx.sc.grid
    if not path or path[0] != ctx.hex_of(gid) or any(h not in grid for h in path):
        return "a general's path starts at his hex and stays on the map"
    if len(path) - 1 > limit:
        return f"a general moves at most {limit} hexes"
    side = ctx.side_of(gid)
    for a, b in pairwise(path):
        if not grid.is_adjacent(a, b):
            return "a general's path runs through adjacent hexes"
        if ctx.enemy_unit_at(b, side):
            return f"{b} holds an enemy unit"
        if any(ctx.side_of(g) != side for g in ctx.generals_at(b)):
            return f"{b} holds an enemy general (H1)"
    return None


def general_path(ctx: HMCtx, gid: str, dest: str, limit: int) -> list[str] | None:
    """The shortest path a general may take to `dest` (`general_path_problem`'s rules), None beyond `limit`."""
    grid = ctx.sc.grid
    side = ctx.side_of(gid)
    start = ctx.hex_of(gid)
    if start == dest:
        return [start]
    came: dict[str, str] = {start: start}
    frontier = [start]
    for _ in range(limit):
        nxt: list[str] = []
        for h in frontier:
            for n in grid.neighbors(h):
                if n in came or _barred(ctx, n, side):
                    continue
                came[n] = h
                if n == dest:
                    path = [n]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return path[::-1]
                nxt.append(n)
        frontier = nxt
    return None


def general_reach(ctx: HMCtx, gid: str, limit: int) -> dict[str, int]:
    """Every hex a general may reach (R16.11's generals' row), with its distance."""
    grid = ctx.sc.grid
    side = ctx.side_of(gid)
    start = ctx.hex_of(gid)
    seen = {start: 0}
    frontier = [start]
    for step in range(1, limit + 1):
        nxt = []
        for h in frontier:
            for n in grid.neighbors(h):
                if n not in seen and not _barred(ctx, n, side):
                    seen[n] = step
                    nxt.append(n)
        frontier = nxt
    return seen


def _barred(ctx: HMCtx, hex_: str, side: str) -> bool:
    """R16.8, H1: a general never enters a hex holding an enemy unit or an enemy general."""
    return ctx.enemy_unit_at(hex_, side) or any(ctx.side_of(g) != side for g in ctx.generals_at(hex_))
