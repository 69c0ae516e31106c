"""Leaders (10.0): lone leaders fleeing or captured (R9), and the casualty check after combat."""

from __future__ import annotations

from collections import deque

from ..kernel.core import Ctx
from ..kernel.state import STATUS_MAP, Status


def is_lone(ctx: Ctx, hex_: str, side: str) -> bool:
    units = ctx.units_at(hex_)
    return any(ctx.is_leader(u) and ctx.side_of(u) == side for u in units) and not ctx.combat_units_at(hex_, side)


def _adjacent_enemy_combat(ctx: Ctx, hex_: str, side: str) -> bool:
    return any(ctx.combat_units_at(n, ctx.enemy(side)) for n in ctx.sc.grid.neighbors(hex_))


def flee(ctx: Ctx, hex_: str, side: str, rule: str = "10.0") -> None:
    """R9: lone leaders move at once up to 12 hexes to the nearest friendly combat unit, or are captured."""
    leaders = [u for u in ctx.units_at(hex_) if ctx.is_leader(u) and ctx.side_of(u) == side]
    if not leaders:
        return
    grid = ctx.sc.grid
    limit = ctx.rs.leader_move_hexes
    seen = {hex_: 0}
    queue: deque[str] = deque([hex_])
    target: str | None = None
    while queue:
        h = queue.popleft()
        if h != hex_ and ctx.friendly_combat_at(h, side):
            target = h
            break
        if seen[h] >= limit:
            continue
        for n in sorted(grid.neighbors(h)):
            if n in seen or ctx.enemy_occupied(n, side) or not ctx.can_enter_terrain("leader", h, n):
                continue
            if ctx.in_ezoc(n, side) and not ctx.friendly_combat_at(n, side):
                continue
            seen[n] = seen[h] + 1
            queue.append(n)
    for ldr in leaders:
        if target is None:
            ctx.set_status(ldr, Status.CAPTURED)
            ctx.emit("captured", f"{rule}: {ctx.name(ldr)}, alone and unable to reach a friendly unit, is captured",
                     unit=ldr, rule=rule)
        else:
            ctx.move_unit(ldr, target)
            ctx.u(ldr).ineffective = True
            ctx.emit("leader_flees", f"{rule}: {ctx.name(ldr)}, left alone beside the enemy, rides to {target} and becomes ineffective",
                     unit=ldr, to=target, path=[hex_, target], rule=rule)  # path: where from, for the page's trail


def check_lone_leaders(ctx: Ctx, watch: set[str]) -> None:
    """Any lone leader in or next to a watched hex that now has an enemy combat unit beside it flees (R9)."""
    grid = ctx.sc.grid
    candidates: set[str] = set()
    for h in watch:
        candidates.add(h)
        candidates.update(grid.neighbors(h))
    # Only a hex that holds a leader can hold a lone one: most hexes around a move hold none. A leader
    # that flees goes to a hex that already holds a friendly combat unit (or is captured), so no hex
    # left out here gains a leader during the loop.
    occupied = ctx.occupancy()
    for h in sorted(h for h in candidates if h in occupied):
        if not any(ctx.is_leader(u) for u in ctx.units_at(h)):
            continue
        for side in ctx.sc.side_order:
            if is_lone(ctx, h, side) and _adjacent_enemy_combat(ctx, h, side):
                flee(ctx, h, side)


def check_lone_leaders_after_move(ctx: Ctx, mover: str, path: list[str], start: str | None) -> None:
    watch = set(path[1:] if start is not None else path)
    if start is not None:
        watch.add(start)
    check_lone_leaders(ctx, watch)


def leader_casualty_checks(ctx: Ctx, leaders: list[str]) -> None:
    """10.0: every leader that added its combat factor rolls two dice; 2 or 12 eliminates it."""
    for ldr in leaders:
        if ctx.u(ldr).status != STATUS_MAP:
            continue
        a, b = ctx.roll(2, f"leader check for {ctx.name(ldr)}", ["die", "die"], "10.0", unit=ldr)
        if ctx.rs.leader_lost(a + b):
            ctx.set_status(ldr, Status.DEAD)
            ctx.emit("leader_killed", f"10.0: {ctx.name(ldr)} falls ({a + b})", unit=ldr, rule="10.0")
        else:
            ctx.emit("leader_safe", f"10.0: {ctx.name(ldr)} comes through unhurt ({a + b}; only 2 or 12 is fatal)",
                     unit=ldr, total=a + b, rule="10.0")
