"""Firing (5, R16.14): who may fire at whom, the firing path, small arms and artillery, cover, enfilade, First Fire
and Volley, breaching (SR.4) and generals hit (5.6). Defensive fire at a charger (4.1.3) is the same fire read at long
range, with no range, arc, path or target choice and no moved penalty (R16.13)."""

from __future__ import annotations

from dataclasses import dataclass

from ..kernel.errors import IllegalCommand
from ..kernel.los import line_of_sight
from . import geometry as geo
from .context import HMCtx
from .losses import apply_hits, general_casualties
from .scenario import WOODS
from .tables import (
    A_LINE,
    ARTILLERY_STICK,
    FIRE_NEED,
    GUN,
    HIT_ON,
    NONE,
    SMALL_ARMS_DICE,
    Kind,
    fires_in,
    is_long,
    long_range,
)


def can_fire(ctx: HMCtx, uid: str) -> bool:
    """R16.14: a weapon, a firing formation (R16.5), not engaged (RC.2a)."""
    d = ctx.d(uid)
    return (ctx.on_map(uid) and d.weapon != NONE and fires_in(d.kind, ctx.formation(uid))
            and uid not in ctx.engaged())


def clear_path(ctx: HMCtx, a: str, b: str, overhead: bool = False) -> bool:
    """5.2.7, R16.14: R2's line from `a` to `b`; an intervening hex blocks if it holds a unit (not a general), is woods
    or a town, or is higher than both ends; hedges never block. `overhead` (5.4, artillery at long range): units lower
    than either end do not block."""
    sc = ctx.sc
    ea, eb = sc.elevation_at(a), sc.elevation_at(b)

    def hex_blocks(h: str) -> bool:
        if sc.blocks_fire(h):
            return True
        eh = sc.elevation_at(h)
        if eh > ea and eh > eb:
            return True
        if ctx.unit_at(h) is None:
            return False
        return not (overhead and (eh < ea or eh < eb))

    return line_of_sight(sc.grid, a, b, hex_blocks, _no_hexside)


def _no_hexside(x: str, y: str) -> bool:
    return False


def woods_allow(ctx: HMCtx, a: str, b: str) -> bool:
    """SR.2, R16.12: into or out of woods only from a wood hex touching a non-wood hex; within woods, range 1."""
    sc = ctx.sc
    wa, wb = sc.terrain_at(a) == WOODS, sc.terrain_at(b) == WOODS
    if wa and wb:
        return sc.grid.distance(a, b) <= 1
    for h, inside in ((a, wa), (b, wb)):
        if inside and all(sc.terrain_at(n) == WOODS for n in sc.grid.neighbors(h)):
            return False
    return True


def within_reach(ctx: HMCtx, firer: str, target: str, arc: bool) -> bool:
    """In range (R16.14's table), through a clear firing path, and (`arc`, firing for real) by SR.2 in the fire arc
    (R16.4; all round in a town, SR.3). Without `arc` (R16.8's "out of range of enemy fire") range and path alone."""
    grid = ctx.sc.grid
    a, b = ctx.hex_of(firer), ctx.hex_of(target)
    weapon = ctx.d(firer).weapon
    dist = grid.distance(a, b)
    if dist > long_range(weapon):
        return False
    if arc and not ctx.all_round(firer) and not geo.in_fire_arc(grid, a, ctx.facing(firer), b):
        return False
    if arc and not woods_allow(ctx, a, b):
        return False
    return clear_path(ctx, a, b, overhead=weapon == GUN and is_long(weapon, dist))


def targets(ctx: HMCtx, uid: str) -> list[str]:
    """R16.14, RC.2b: the enemy units the unit may fire at now: not engaged, in its arc and range with a clear path,
    and the nearest such (the firer picks among equally near ones)."""
    if not can_fire(ctx, uid):
        return []
    grid = ctx.sc.grid
    here = ctx.hex_of(uid)
    engaged = ctx.engaged()
    found = [(grid.distance(here, ctx.hex_of(e)), e) for e in ctx.units_of(ctx.enemy(ctx.side_of(uid)))
             if e not in engaged and within_reach(ctx, uid, e, arc=True)]
    if not found:
        return []
    near = min(d for d, _ in found)
    return sorted(e for d, e in found if d == near)


def under_fire(ctx: HMCtx, uid: str) -> bool:
    """2.1, R16.8, R16.20(20): some enemy unit with a weapon, in any formation, has the unit within its long range
    with a clear firing path (arcs ignored)."""
    for e in ctx.units_of(ctx.enemy(ctx.side_of(uid))):
        if ctx.d(e).weapon != NONE and within_reach(ctx, e, uid, arc=False):
            return True
    return False


@dataclass(slots=True)
class FireResult:
    dice: int
    need: int
    hits: int
    saved: int
    enfilade: bool
    long: bool


def first_fire_applies(ctx: HMCtx, uid: str) -> bool:
    """5.1.10: a non-levy CO infantry unit's first fire of the game."""
    d = ctx.d(uid)
    return d.kind is Kind.CO and d.grade != "levy" and uid not in ctx.x.get("first_fire", [])


def enfilade_of(ctx: HMCtx, firer: str, target: str) -> bool:
    if ctx.kind(target) in (Kind.ARTILLERY, Kind.WAGONS) or ctx.all_round(target):
        return False
    formation = ctx.formation(target)
    return geo.enfilades(ctx.sc.grid, ctx.hex_of(firer), ctx.hex_of(target), ctx.facing(target),
                         formation in A_LINE, ctx.in_column(target))


def in_cover_from(ctx: HMCtx, target: str, from_hex: str) -> bool:
    """5.3, R16.14: woods, a town, a fieldwork section, or a hedge on the target's hexside toward the firer."""
    sc = ctx.sc
    here = ctx.hex_of(target)
    if sc.cover_hex(here):
        return True
    k = geo.toward(sc.grid, here, ctx.facing(target), from_hex)
    n = sc.neighbour(here, k)
    return n is not None and sc.hedge_between(here, n)


def _hits(ctx: HMCtx, n: int, need: int, rerolls: int, what: str, rule: str, unit: str) -> int:
    """Roll `n` dice needing `need`; misses re-rolled `rerolls` times (First Fire, Volley)."""
    if n <= 0:
        return 0
    dice = ctx.roll(n, what, [f"need {need}"] * n, rule, unit=unit, need=need)
    hits = sum(1 for v in dice if v >= need)
    misses = n - hits
    for _ in range(rerolls):
        if misses and need <= 6:
            again = ctx.roll(misses, f"{what}: misses re-rolled", [f"need {need}"] * misses, rule, unit=unit, need=need)
            got = sum(1 for v in again if v >= need)
            hits += got
            misses -= got
    return hits


def fire(ctx: HMCtx, firer: str, target: str, *, defensive: bool = False, volley: bool = False) -> FireResult:
    """One unit's fire at one target (5.1, 5.2, 5.3, 5.5, R16.14); hits applied, generals checked (5.6)."""
    grid = ctx.sc.grid
    d = ctx.d(firer)
    dist = grid.distance(ctx.hex_of(firer), ctx.hex_of(target))
    weapon = d.weapon
    long = defensive or is_long(weapon, min(dist, ARTILLERY_STICK))
    enfilade = enfilade_of(ctx, firer, target)
    rule = "4.1.3" if defensive else "5"
    rerolls = 0
    if first_fire_applies(ctx, firer):
        ctx.listed("first_fire").append(firer)
        rerolls = 1
        ctx.emit("first_fire", f"5.1.10: {ctx.says(firer)}'s first fire: its misses are re-rolled", unit=firer,
                 rule="5.1.10")
    elif volley:
        rerolls = 1
    if weapon == GUN:
        (n_dice, rule_n) = (1, "5.2.3") if long else (2, "5.2.3")
        raw = ctx.roll(n_dice, f"{ctx.says(firer)}'s shots", ["d6"] * n_dice, rule_n, unit=firer)
        shots = (sum(raw) + 1) // 2 * (2 if enfilade else 1)
        need = HIT_ON
        hits = _hits(ctx, shots, need, rerolls, f"{ctx.says(firer)} fires {shots} shot{'s' if shots != 1 else ''} "
                     f"at {ctx.says(target)}", "5.2.4", firer)
        n = shots
    else:
        need = FIRE_NEED[d.kind] + int(long) + int(not defensive and ctx.st.units[firer].moved)
        need += int(d.kind is Kind.CO and ctx.staggered(firer))
        n = SMALL_ARMS_DICE * (2 if enfilade else 1)
        hits = _hits(ctx, n, need, rerolls, f"{ctx.says(firer)} fires at {ctx.says(target)}", "5.1.4", firer)
    saved = 0
    if hits and (ctx.kind(target) is Kind.ARTILLERY or in_cover_from(ctx, target, ctx.hex_of(firer))):
        rolls = ctx.roll(hits, "saving rolls", ["save"] * hits, "5.3" if ctx.kind(target) is not Kind.ARTILLERY
                         else "5.2.6", unit=target)
        saved = sum(1 for v in rolls if v >= HIT_ON)
    ctx.emit("fire", f"{rule}: {ctx.says(firer)} fires at {ctx.says(target)}"
                     f"{' (enfilade, 5.5)' if enfilade else ''}{' at long range' if long else ''}: "
                     f"{hits} hit{'s' if hits != 1 else ''}{f', {saved} saved' if saved else ''}",
             unit=firer, target=target, hits=hits - saved, raw_hits=hits, saved=saved, need=need, dice_count=n,
             enfilade=enfilade, long=long, rule=rule)
    thex = ctx.hex_of(target)
    if weapon == GUN and hits and thex in ctx.sc.fieldworks and thex not in ctx.x.get("breached", []):
        (die,) = ctx.roll(1, f"breach of the fieldwork at {thex}", ["d6"], "SR.4", hex=thex)
        if die == 6:
            ctx.listed("breached").append(thex)
            ctx.emit("breached", f"SR.4: the fieldwork section at {thex} is breached", hex=thex, rule="SR.4")
    riders = ctx.attached(target)
    apply_hits(ctx, target, hits - saved, rule)
    general_casualties(ctx, riders, hits - saved, "5.6")
    return FireResult(n, need, hits - saved, saved, enfilade, long)


def judge_fire(ctx: HMCtx, uid: str, target: str, volley: bool) -> None:
    """R16.14's `fire` command judged (the step, the side and the card's holding checked by the caller)."""
    if uid in ctx.x.get("fired", []):
        raise IllegalCommand("5", f"{ctx.says(uid)} has fired this turn")
    if not can_fire(ctx, uid):
        raise IllegalCommand("5.1.2", f"{ctx.says(uid)} cannot fire: no weapon, not in its firing formation, or "
                                      "engaged (R16.5, RC.2a)")
    if target not in targets(ctx, uid):
        raise IllegalCommand("RC.2b", f"{ctx.says(uid)} may fire only at the nearest enemy in its arc and range with "
                                      f"a clear path ({', '.join(ctx.says(t) for t in targets(ctx, uid)) or 'none'})")
    if volley and first_fire_applies(ctx, uid):
        raise IllegalCommand("R16.10", "Volley is not played together with First Fire (5.1.10)")
