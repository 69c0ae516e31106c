"""Leaders (10.0): the casualty check after combat (2 or 12 on two dice); lone leaders fleeing or captured (R9) are
the kernel's (kernel/lone_leaders.py), which both Quick Play editions share."""

from __future__ import annotations

from ..kernel.core import Ctx
from ..kernel.lone_leaders import (
    LEADER_MOVE_HEXES,
    check_lone_leaders,
    check_lone_leaders_after_move,
    flee,
    is_lone,
)
from ..kernel.state import STATUS_MAP, Status

__all__ = ["LEADER_MOVE_HEXES", "check_lone_leaders", "check_lone_leaders_after_move", "flee", "is_lone",
           "leader_casualty_checks"]


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
