"""19.10 Prussian open order as a special rule a scenario switches on (seed 002, special.py, S52).

`open_order {unit, on?}`: at the beginning of its movement phase (before any unit of the side moves, as 12.1's flip
is judged) the side named by `special_rules.open_order` places the marker on an undisrupted, unstacked infantry
unit of its own; terrain and EZOC do not matter.  `on: false` removes it voluntarily in the side's movement phase
when the unit is not in an EZOC; the unit's move is then over (S52: "at the end of any movement phase" is the end of
that unit's movement).  The marker goes automatically when the unit stacks with another unit, retreats or routs
(`drop`, from retreating.py), is eliminated or disrupted (`sweep`, after each command).

The markers are `GameState.extra.open_order` (a sorted list of unit ids), present only when the rule is on.  Their
effects: the unit's CF is parenthesised (strength.py, 2.4), it chooses only skirmish or disengage (tactics.py), and
enemy artillery bombarding it is halved (bombard.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from . import markers
from .context import StdCtx
from .special import OPEN_ORDER_KINDS

RULE = "19.10"
KEY = "open_order"


def marked(ctx: StdCtx) -> frozenset[str]:
    """19.10: the units in open order (empty when the scenario does not use the rule)."""
    return frozenset(ctx.x.get(KEY, ()))


def place_problem(ctx: StdCtx, side: str, uid: str) -> str | None:
    """19.10 A: why `side` may not place the marker on `uid` now (None: it may); terrain and EZOC do not matter."""
    oo = ctx.sc.special.open_order
    owner = oo.side if oo is not None and KEY in ctx.x else None
    return markers.place_problem(ctx, RULE, "open order", owner, OPEN_ORDER_KINDS, uid in ctx.x.get(KEY, ()), side,
                                 uid)


def remove_problem(ctx: StdCtx, side: str, uid: str) -> str | None:
    """19.10 A (S52): why `side` may not remove the marker from `uid` now (None: it may)."""
    return markers.remove_problem(ctx, RULE, "open order", uid in ctx.x.get(KEY, ()), side, uid)


def cmd_open_order(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {})
    on = cmd.get("on", True)
    if not isinstance(on, bool):
        raise IllegalCommand(RULE, "'on' is true or false")
    uid = cmd["unit"]
    problem = place_problem(ctx, side, uid) if on else remove_problem(ctx, side, uid)
    if problem is not None:
        raise IllegalCommand(RULE, problem)
    if on:
        ctx.x[KEY] = sorted([*ctx.x[KEY], uid])
        ctx.emit("open_order", f"19.10: {ctx.name(uid)} adopts open order", unit=uid, on=True, rule=RULE)
        return
    ctx.x[KEY] = [u for u in ctx.x[KEY] if u != uid]
    ctx.st.units[uid].moved = True  # S52: removed at the end of its movement
    ctx.emit("open_order", f"19.10: {ctx.name(uid)} leaves open order; its move is over", unit=uid, on=False,
             rule=RULE)


def drop(ctx: StdCtx, units: Iterable[str], why: str) -> None:
    """19.10 A: the markers of these units are removed automatically (`why`: they retreat, rout, ...)."""
    have = ctx.x.get(KEY)
    if not have:
        return
    for u in units:
        if u in have:
            have = [x for x in have if x != u]
            ctx.emit("open_order", f"19.10: {ctx.name(u)} {why}: its open order marker is removed", unit=u, on=False,
                     rule=RULE)
    ctx.x[KEY] = have


def sweep(ctx: StdCtx) -> None:
    """19.10 A: a marked unit eliminated (off the map), disrupted or stacked with another unit loses its marker."""
    for u, why in markers.lost(ctx, ctx.x.get(KEY, ())):
        drop(ctx, [u], why)


def open_order_commands(ctx: StdCtx, side: str, uid: str) -> list[dict[str, Any]]:
    """The open-order commands of one unit now (for the random player and the page)."""
    if KEY not in ctx.x:
        return []
    if uid in ctx.x[KEY]:
        return [{"type": KEY, "unit": uid, "on": False}] if remove_problem(ctx, side, uid) is None else []
    return [{"type": KEY, "unit": uid}] if place_problem(ctx, side, uid) is None else []
