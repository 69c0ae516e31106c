"""Stacking (5.0): no limit on entering, leaving or passing through; more than three units in a hex at the end of
a movement or combat phase disrupts every unit there; in combat one artillery unit plus any one other unit take
part from a hex, and a square only its infantry (9.3).  Leaders never count (10.0)."""

from __future__ import annotations

import itertools

from ..kernel.core import Ctx
from ..kernel.scenario import UnitKind
from .status import disrupt

MOST_UNITS = 3  # 5.0


def overstacked(ctx: Ctx, hex_: str, side: str) -> bool:
    return len(ctx.combat_units_at(hex_, side)) > MOST_UNITS


def overstacking_check(ctx: Ctx) -> None:
    """5.0, at the end of every movement and combat phase, for both sides."""
    for hex_ in sorted(h for h, us in ctx.occupancy().items() if len(us) > MOST_UNITS):
        for side in ctx.sc.side_order:
            if not overstacked(ctx, hex_, side):
                continue
            ctx.emit("overstacked", f"5.0: {hex_} holds more than three units: all of them are disrupted", hex=hex_,
                     rule="5.0")
            for u in ctx.combat_units_at(hex_, side):
                disrupt(ctx, u, "5.0")


def participation_problem(ctx: Ctx, hex_: str, uids: list[str]) -> str | None:
    """None when these combat units may take part together from one hex (5.0, 9.3), else why not."""
    square = ctx.st.squares.get(hex_)
    if square is not None:
        if uids != [square]:
            return "only the infantry unit forming the square takes part in combat from it (9.3)"
        return None
    artillery = [u for u in uids if ctx.kind(u) is UnitKind.ARTILLERY]
    others = [u for u in uids if ctx.kind(u) is not UnitKind.ARTILLERY]
    if len(artillery) > 1 or len(others) > 1:
        return "only one artillery unit plus one other unit attack from or defend a hex (5.0)"
    return None


def participant_sets(ctx: Ctx, hex_: str, candidates: list[str]) -> list[list[str]]:
    """Every largest legal set of participants from one hex (5.0, 9.3)."""
    square = ctx.st.squares.get(hex_)
    if square is not None:
        return [[square]] if square in candidates else []
    out: list[list[str]] = []
    for size in (2, 1):
        for combo in itertools.combinations(sorted(candidates), size):
            if participation_problem(ctx, hex_, list(combo)) is None:
                out.append(list(combo))
        if out:
            break
    return out
