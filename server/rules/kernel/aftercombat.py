"""What both Quick Play editions do after a combat result (seed 000 7.6-7.9 with R7; seed 001 7.6-7.9): a step loss
from the primary unit, an eliminated or captured unit (captured when it has no line of retreat), a square or a lone
leader left behind, the way off the map when no other retreat exists, whether a retreat path is safe, and an
advancing unit's hexes and move.  The two seeds word these alike; where they differ (the retreat's direction, what an
unsafe line costs, the rout) the edition's own retreat module decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .core import Ctx
from .lone_leaders import check_lone_leaders
from .scenario import UnitKind
from .state import STATUS_MAP, Status


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


def _friendly_zoc_excluding(ctx: Ctx, side: str, excluded: set[str]) -> set[str]:
    out: set[str] = set()
    targets = ctx.sc.zoc_targets
    for hex_, uids in ctx.occupancy().items():
        if any(ctx.side_of(u) == side and ctx.exerts_zoc(u) and u not in excluded for u in uids):
            out.update(targets[hex_])
    return out


def unsafe_hex_finder(ctx: Ctx, side: str, group: set[str]) -> Callable[[list[str]], int | None]:
    """7.6 (R7): for a retreat path of `group`, the index of its first hex that makes the line unsafe, or None for a
    safe line.  An enemy ZOC is negated by another friendly combat unit in the hex or by friendly ZOC (the retreating
    units' own excepted); the final hex may hold no enemy ZOC, negated or not."""
    enemy_zoc = ctx.zoc_of(ctx.enemy(side))
    friendly_zoc = _friendly_zoc_excluding(ctx, side, group)

    def first_unsafe(path: list[str]) -> int | None:
        for i, h in enumerate(path):
            if h in enemy_zoc:
                negated = h in friendly_zoc or any(u not in group for u in ctx.units_at(h)
                                                   if ctx.side_of(u) == side and not ctx.is_leader(u))
                if not negated or i == len(path) - 1:
                    return i
        return None

    return first_unsafe


# --- advance after combat (7.9) -------------------------------------------------------------
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
