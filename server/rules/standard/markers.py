"""Formation markers placed on one infantry unit at the beginning of its side's movement phase (seed 002 19.7 A line,
19.10 A open order; S52, S64): the conditions both rules share, so that each module states only its own.

* placing (`place_problem`): the scenario's rule names the side; the side's own movement phase before any of its units
  moves (as 12.1's flip and 9.5's square); one of its infantry units on the map, not marked already, undisrupted and
  alone in its hex (every other unit counts, leaders, HQs and trains too, S52);
* removing voluntarily (`remove_problem`): in the side's own movement phase, the unit not in an enemy ZOC (S52: "at
  the end of any movement phase" is the end of that unit's move, which the removal then ends);
* removing automatically (`lost`): the unit off the map (eliminated, captured, routed off), disrupted, or sharing its
  hex with another unit; a retreat or rout is reported where it happens (retreating.py).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator

from ..kernel.state import PHASE_MOVEMENT
from .context import StdCtx


def alone(ctx: StdCtx, uid: str) -> bool:
    """S52: no other unit (leaders, HQs and trains included) shares the unit's hex."""
    h = ctx.st.units[uid].hex
    return h is not None and ctx.units_at(h) == [uid]


def place_problem(ctx: StdCtx, rule: str, what: str, owner: str | None, kinds: Collection[str], marked: bool,
                  side: str, uid: str) -> str | None:
    """19.7 A, 19.10 A: why `side` may not put the marker (`what`) of `rule` on `uid` now (None: it may); `owner`: the
    side the scenario gives the rule to (None: the rule is off); `marked`: the unit carries the marker already."""
    st = ctx.st
    if owner is None:
        return f"{rule}: this scenario does not use {what}"
    if owner != side:
        return f"{rule}: only {ctx.sc.sides[owner].name}'s infantry adopts {what}"
    if st.phase != PHASE_MOVEMENT or st.active != side:
        return f"{rule}: {what} is adopted in your own movement phase"
    if st.any_moved:
        return f"{rule}: {what} is adopted at the beginning of the movement phase, before any unit moves"
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid):
        return f"{rule}: name one of your infantry units on the map"
    if ctx.kind(uid).value not in kinds:
        return f"{rule}: {ctx.name(uid)} is not infantry"
    if marked:
        return f"{rule}: {ctx.name(uid)} is in {what} already"
    if st.units[uid].disrupted:
        return f"{rule}: {ctx.name(uid)} is disrupted"
    if not alone(ctx, uid):
        return f"{rule}: {ctx.name(uid)} is stacked with another unit"
    return None


def remove_problem(ctx: StdCtx, rule: str, what: str, marked: bool, side: str, uid: str) -> str | None:
    """19.7 A, 19.10 A (S52): why `side` may not take the marker off `uid` now (None: it may)."""
    st = ctx.st
    if not marked or uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return f"{rule}: name one of your units in {what}"
    if st.phase != PHASE_MOVEMENT or st.active != side:
        return f"{rule}: {what} is left in your own movement phase (S52)"
    h = st.units[uid].hex
    if h is not None and h in ctx.zoc_of(ctx.enemy(side)):
        return f"{rule}: {ctx.name(uid)} is in an enemy zone of control: its {what} stays"
    return None


def lost(ctx: StdCtx, units: Iterable[str]) -> Iterator[tuple[str, str]]:
    """19.7 A, 19.10 A: each marked unit that loses its marker now, with why: off the map, disrupted, or stacked."""
    for u in list(units):
        if not ctx.on_map(u):
            yield u, "is off the map"
        elif ctx.st.units[u].disrupted:
            yield u, "is disrupted"
        elif not alone(ctx, u):
            yield u, "is stacked with another unit"
