"""Leaders (10.0): casualties.  Only a combat result with the Leader notation endangers a leader: one die for each
leader involved in that combat, killed on a 5 or 6 (T9: involved = lending its combat or morale factor to either
side).  A lone leader's flight is the kernel's (kernel/lone_leaders.py, the same in both Quick Play seeds)."""

from __future__ import annotations

from typing import Any

from ..kernel.core import Ctx
from ..kernel.state import STATUS_MAP, Status

KILLED_ON = (5, 6)  # 10.0


def involved_leaders(c: dict[str, Any]) -> list[str]:
    return sorted(set(c.get("leader_to", {})) | set(c.get("morale_from", {})))


def leader_casualty_checks(ctx: Ctx, leaders: list[str]) -> None:
    for ldr in leaders:
        if ctx.u(ldr).status != STATUS_MAP:
            continue
        (die,) = ctx.roll(1, f"leader casualty check for {ctx.name(ldr)}", ["die"], "10.0", unit=ldr)
        if die in KILLED_ON:
            ctx.set_status(ldr, Status.DEAD)
            ctx.emit("leader_killed", f"10.0: {ctx.name(ldr)} is killed ({die})", unit=ldr, rule="10.0")
        else:
            ctx.emit("leader_safe", f"10.0: {ctx.name(ldr)} comes through unhurt ({die}; 5 or 6 is fatal)",
                     unit=ldr, die=die, rule="10.0")
