"""Lone leaders (10.0 of both Quick Play seeds, R9): a leader left alone beside the enemy rides at once up to 12 hexes to
the nearest friendly combat unit and becomes ineffective, or is captured.  Both editions' 10.0 say the same, so the
procedure is the kernel's; each edition calls it after moves, retreats, advances and losses."""

from __future__ import annotations

from collections import deque

from .core import Ctx
from .state import Status

# 10.0 (both Quick Play seeds): a leader moves alone up to 12 hexes, one MP a hex.
LEADER_MOVE_HEXES = 12


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
    limit = LEADER_MOVE_HEXES
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
