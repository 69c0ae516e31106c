"""Recovery as the engine plays it (seed 002 11.1, 11.3, with 4.7, 10.3, 14.2(1), R13 and S14, S41): whether a unit
is still eligible for march movement this turn, how it may recover now, why a `recover` command is refused, the
recovery check (a leader's too) and the recovery itself.

recovery.py holds the rules these apply.  The `recover` command (moving.py), the automatic recovery at the end of
the movement phase (phases.py) and a fortune of war's recovery check (12.4, fortune.py) all recover a unit here.
"""

from __future__ import annotations

from typing import Any

from ..kernel import hidden as kh
from ..kernel.state import STATUS_HIDDEN
from .context import StdCtx
from .morale import morale_passes
from .movement import Move, march_problem
from .recovery import recovery_mode, recovery_rating
from .scenario import Kind
from .tactics import in_span


def in_box(ctx: StdCtx, uid: str) -> bool:
    """19.8 C: the unit is in a hidden movement box."""
    return ctx.st.units[uid].status == STATUS_HIDDEN


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
    if in_box(ctx, uid):  # 19.8 C: treated as not moving (and a marker is never in an EZOC)
        return recovery_mode(ctx.sc, s, in_ezoc=False, march_eligible=True, night=ctx.light() == "night",
                             attacking=False)
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


def recover_problem(ctx: StdCtx, side: str, uid: str) -> tuple[str, str] | None:
    """11.1, 11.3: why the unit may not try to recover now ((rule, sentence); None: it may)."""
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not (ctx.on_map(uid) or in_box(ctx, uid)):
        return "11.1", "only your own units on the map (or in a hidden movement box, 19.8 C) recover"
    s = ctx.st.units[uid]
    if ctx.kind(uid) in (Kind.HQ, Kind.TRAINS):
        return "12.1", "an HQ or trains turns active at the end of the movement phase (12.1, 12.2), it does not recover"
    if not (s.disrupted or s.ineffective):
        return "11.1", f"{ctx.name(uid)} is neither disrupted nor ineffective"
    if uid in ctx.x.get("recovered", []):
        return "11.1", f"{ctx.name(uid)} has tried to recover this phase"
    if recovery_mode_of(ctx, uid) is None:
        return "11.1", f"{ctx.name(uid)} is in an enemy zone of control and may not recover this phase"
    return None


def recovery_assist_problem(ctx: StdCtx, side: str, uid: str, leader: Any) -> str | None:
    """10.3 (S41): why `leader` may not add his morale to this unit's recovery check (None: he may)."""
    if not isinstance(leader, str) or leader not in ctx.sc.units or ctx.kind(leader) is not Kind.LEADER \
            or ctx.side_of(leader) != side or not (ctx.on_map(leader) or in_box(ctx, leader)):
        return "10.3: name one of your leaders on the map"
    if in_box(ctx, uid) or in_box(ctx, leader):
        if kh.box_holding(ctx.st, uid) != kh.box_holding(ctx.st, leader):
            return f"19.8 C: {ctx.name(leader)} is not in {ctx.name(uid)}'s hidden movement box"
    elif ctx.st.units[leader].hex != ctx.st.units[uid].hex:
        return f"10.3: {ctx.name(leader)} is not stacked with {ctx.name(uid)}"
    if ctx.st.units[leader].ineffective:
        return f"10.1: {ctx.name(leader)} is ineffective and has no game effects"
    if ctx.x.get("assisted", {}).get(leader) == ctx.st.turn:
        return f"10.3: {ctx.name(leader)} has assisted a unit this turn"
    if not in_span(ctx.sc, leader, uid):
        return f"10.3: {ctx.name(uid)} is not within {ctx.name(leader)}'s command span"
    return None


def recovery_check(ctx: StdCtx, uid: str, rule: str, leader_morale: int = 0) -> bool:
    """11.1 (R13), 11.3: the recovery morale check, without the -2 of disruption; an assisting leader adds his
    morale rating (10.3, S41).  S14: a leader checks against his own morale rating (recovery.recovery_rating)."""
    if ctx.kind(uid) is not Kind.LEADER:
        return ctx.morale_check(uid, rule, "recovery", recovery=True, leader_morale=leader_morale)
    rating = recovery_rating(ctx.sc, ctx.st.units[uid])
    (die,) = ctx.roll(1, "recovery", ["morale die"], rule, unit=uid)
    passed = morale_passes(die, rating, recovery=True, light=ctx.light(), leader_morale=leader_morale)
    ctx.emit("morale", f"{rule}: {ctx.name(uid)} {'passes' if passed else 'fails'} his recovery check (die {die}, "
                       f"morale rating {rating}{f' +{leader_morale} leader, 10.3' if leader_morale else ''}"
                       f"{', ' + ctx.light() if ctx.light() != 'day' else ''}; S14)",
             unit=uid, rule=rule, passed=passed, die=die)
    return passed
