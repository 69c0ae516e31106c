"""Recovery as the engine plays it (seed 002 11.1, 11.3, with 4.7, 14.2(1) and R13): whether a unit is still
eligible for march movement this turn, how it may recover now, and the recovery itself.

recovery.py holds the rules these apply.  The `recover` command (moving.py), the automatic recovery at the end of
the movement phase (phases.py) and a fortune of war's recovery check (12.4, fortune.py) all recover a unit here.
"""

from __future__ import annotations

from .context import StdCtx
from .movement import Move, march_problem
from .recovery import recovery_mode


def march_eligible(ctx: StdCtx, uid: str) -> bool:
    """11.1: eligible for march movement throughout the turn: not in or next to an EZOC (R13) when the phase began,
    on any path it moved along, or now."""
    s = ctx.st.units[uid]
    if uid in ctx.x.get("no_march", []) or s.hex is None:
        return False
    return march_problem(ctx.sc, ctx.st.units, Move((uid,), (s.hex,), 0), ctx.zoc_of(ctx.enemy(ctx.side_of(uid)))) is None


def recovery_mode_of(ctx: StdCtx, uid: str) -> str | None:
    """11.1, 11.3, 14.2(1): how the unit may recover now ('automatic', 'check' or None)."""
    s = ctx.st.units[uid]
    if s.hex is None:
        return None
    in_ezoc = ctx.in_ezoc(s.hex, ctx.side_of(uid))
    return recovery_mode(ctx.sc, s, in_ezoc=in_ezoc, march_eligible=march_eligible(ctx, uid),
                         night=ctx.light() == "night", attacking=False)


def recover(ctx: StdCtx, uid: str, rule: str) -> None:
    """11.1, 11.3: the unit recovers from disruption and ineffectiveness alike."""
    s = ctx.st.units[uid]
    was = [w for w, on in (("disruption", s.disrupted), ("ineffectiveness", s.ineffective)) if on]
    s.disrupted = False
    s.ineffective = False
    ctx.dirty()
    ctx.emit("recovered", f"{rule}: {ctx.name(uid)} recovers from {' and '.join(was)}", unit=uid, rule=rule)
