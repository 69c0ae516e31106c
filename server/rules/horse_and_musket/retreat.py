"""Retreats and retirements (6.8, 6.9, 4.1.5, 4.2.8, RC.3b, RC.4, R16.17): no choices, so the server makes them.

A retreat first turns the loser to face the winner, then runs straight back across `f+3`; a retirement (a charger
staggered by defensive fire) runs straight back keeping its facing. The length is a full move (R16.20(43)); friends
in the way are passed through at a hit each (4.2.8, 6.9, R16.20(42)); an enemy, the map edge or forbidden terrain
destroys the unit (RC.4); a river or fieldwork hex stops it before.
"""

from __future__ import annotations

from ..kernel.state import STATUS_ELIMINATED
from . import geometry as geo
from .context import HMCtx
from .losses import apply_hits, entered, remove
from .scenario import RIVER
from .tables import rate

DESTROYED = "destroyed"


def full_move(ctx: HMCtx, uid: str, back: int) -> int:
    """R16.17: the good rate, or the difficult rate if any hex or hexside within the good rate's length behind the
    unit is difficult going; no retrograde penalty, no level lost (RC.1b, RC.4)."""
    sc = ctx.sc
    kind, formation = ctx.kind(uid), ctx.formation(uid)
    good = rate(kind, formation, False)
    here = ctx.hex_of(uid)
    difficult = sc.difficult_hex(here)
    for _ in range(good):
        nxt = sc.neighbour(here, back)
        if nxt is None:
            break
        difficult = difficult or sc.difficult_hex(nxt) or sc.hedge_between(here, nxt)
        here = nxt
    return rate(kind, formation, difficult)


def fall_back(ctx: HMCtx, uid: str, winner_hex: str | None, rule: str) -> str | None:
    """Retreat from `winner_hex` (turning to face it first), or retire (None: keeping the facing). Where the unit
    ends, or None when it was destroyed or routed on the way."""
    sc = ctx.sc
    grid = sc.grid
    if winner_hex is not None:
        k = geo.toward(grid, ctx.hex_of(uid), ctx.facing(uid), winner_hex)
        ctx.set_facing(uid, geo.name(k))
    back = (geo.index(ctx.facing(uid)) + 3) % 6
    length = full_move(ctx, uid, back)
    side = ctx.side_of(uid)
    here = ctx.hex_of(uid)
    passed: list[str] = []
    taken = 0
    while True:
        nxt = sc.neighbour(here, back)
        beyond = taken >= length
        if beyond and ctx.unit_at(here) in (None, uid):
            break
        if nxt is None:
            return _destroyed(ctx, uid, rule, "retreats off the map")
        other = ctx.unit_at(nxt)
        if other is not None and ctx.side_of(other) != side:
            return _destroyed(ctx, uid, rule, f"runs into the enemy at {nxt}")
        if not sc.may_enter(ctx.kind(uid), nxt):
            return _destroyed(ctx, uid, rule, f"meets terrain it may not enter at {nxt}")
        if sc.terrain_at(nxt) == RIVER or nxt in sc.fieldworks:
            holder = ctx.unit_at(here)
            if holder not in (None, uid):
                return _destroyed(ctx, uid, rule, f"is stopped at {here} by the river or fieldwork, on a friend")
            break
        here = nxt
        taken += 1
        passed.append(nxt)
        entered(ctx, uid, nxt)
        if other is not None:
            apply_hits(ctx, other, 1, "4.2.8")
            if apply_hits(ctx, uid, 1, "4.2.8") == "routed":
                return None
    riders = ctx.attached(uid)
    ctx.move_unit(uid, here)
    for g in riders:
        ctx.move_unit(g, here)
    what = "retreats" if winner_hex is not None else "retires"
    ctx.emit("retreat", f"{rule}: {ctx.says(uid)} {what} to {here}", unit=uid, path=passed, hex=here, rule=rule)
    return here


def _destroyed(ctx: HMCtx, uid: str, rule: str, why: str) -> str | None:
    """RC.4, 6.9: the unit is destroyed on its line of retreat (None: it ends nowhere)."""
    remove(ctx, uid, STATUS_ELIMINATED, "RC.4", f"destroyed: it {why} ({rule})")
    return None
