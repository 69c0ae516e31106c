"""Winning the game (3.4): the scenario's victory conditions (its objectives and sudden death, the kernel's
mechanism: kernel/victory.py), scored after the last turn.  Unless the scenario specifies otherwise (its
`victory.points`, T2), each player scores one VP for each enemy unit or leader eliminated and two for each one
captured; a unit that returns through step recovery (11.2) or left the map (7.6) is neither (T2)."""

from __future__ import annotations

from typing import Any

from ..kernel.core import Context
from ..kernel.state import STATUS_CAPTURED, STATUS_DEAD, STATUS_ELIMINATED
from ..kernel.victory import final_result as kernel_final_result
from ..kernel.victory import objective_points
from ..kernel.victory import points as scenario_points
from ..kernel.victory import sudden_death as kernel_sudden_death
from ..kernel.victory import update_control as kernel_update_control

__all__ = ["final_result", "points", "sudden_death", "update_control"]

ELIMINATED_VP = 1  # 3.4
CAPTURED_VP = 2  # 3.4


def update_control(ctx: Context) -> None:
    """The last side to occupy an objective with a combat unit controls it: the scenario's victory conditions, which
    seed 001 places under 3.4 (it has no 14.0)."""
    kernel_update_control(ctx, "3.4")


def points(ctx: Context) -> dict[str, int]:
    if "points" in ctx.sc.raw.get("victory", {}):
        return scenario_points(ctx, returning_lost=False)
    out = objective_points(ctx)
    for uid, s in ctx.st.units.items():
        if s.status in (STATUS_ELIMINATED, STATUS_DEAD):
            out[ctx.enemy(ctx.side_of(uid))] += ELIMINATED_VP
        elif s.status == STATUS_CAPTURED:
            out[ctx.enemy(ctx.side_of(uid))] += CAPTURED_VP
    return out


def sudden_death(ctx: Context) -> dict[str, Any] | None:
    return kernel_sudden_death(ctx, scored=points(ctx))


def final_result(ctx: Context) -> dict[str, Any]:
    return kernel_final_result(ctx, scored=points(ctx))
