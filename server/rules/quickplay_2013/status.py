"""Disruption and ineffectiveness in the 2013 edition (2.3, 8.1(2), 9.1(1), 11.1, 11.3).

Every unit is subject to disruption (2.3): infantry, artillery and cavalry alike are marked disrupted, and a
battalion of a scenario written for the revised edition reads as one-step (red band) infantry (T1).  Artillery,
cavalry and leaders also go ineffective, which flips the counter to its reverse side (8.1(2), 9.1(1), 10.0); an
ineffective unit operates as a disrupted one (11.3).  A unit may be both: 11.1's exceptions then apply once (T3).
"""

from __future__ import annotations

from ..kernel.core import Ctx
from ..kernel.scenario import UnitKind

# 8.1(2), 9.1(1), 10.0: the kinds whose reverse side is their ineffective state.
FLIPS_INEFFECTIVE = (UnitKind.ARTILLERY, UnitKind.CAVALRY, UnitKind.LEADER)
INFANTRY = (UnitKind.INFANTRY, UnitKind.BATTALION)  # T1: a battalion is one-step infantry


def impaired(ctx: Ctx, uid: str) -> bool:
    """11.1, 11.3: disrupted, or ineffective (which operates as disrupted)."""
    s = ctx.st.units[uid]
    return s.disrupted or s.ineffective


def morale(ctx: Ctx, uid: str) -> int:
    """The unit's morale rating now: its side showing (reverse side when ineffective), less two when
    impaired (11.1(6), 11.3)."""
    value = ctx.factors(uid).mr
    return value - 2 if impaired(ctx, uid) else value


def disrupt(ctx: Ctx, uid: str, rule: str) -> bool:
    """Mark a combat unit disrupted (11.1); False when it already was (no further effect)."""
    s = ctx.st.units[uid]
    if ctx.is_leader(uid) or s.disrupted:
        return False
    s.disrupted = True
    ctx.dirty()
    ctx.emit("disrupted", f"{rule}: {ctx.name(uid)} is disrupted", unit=uid, rule=rule)
    return True


def make_ineffective(ctx: Ctx, uid: str, rule: str, why: str = "") -> bool:
    """Flip an artillery or cavalry unit or a leader to its ineffective side (8.1(2), 9.1(1), 10.0); infantry never
    goes ineffective.  False when nothing changed."""
    s = ctx.st.units[uid]
    if ctx.kind(uid) not in FLIPS_INEFFECTIVE or s.ineffective:
        return False
    s.ineffective = True
    ctx.dirty()
    ctx.emit("ineffective", f"{rule}: {ctx.name(uid)} becomes ineffective{why}", unit=uid, rule=rule)
    return True


def recover(ctx: Ctx, uid: str) -> None:
    """11.1, 11.3: disruption and ineffectiveness go together (T3)."""
    s = ctx.st.units[uid]
    s.disrupted = False
    s.ineffective = False
    ctx.dirty()


def effective_leader(ctx: Ctx, leader: str, uid: str) -> bool:
    """10.0: an effective leader of the unit's formation ('A': all) in its hex."""
    s = ctx.st.units[leader]
    return (ctx.is_leader(leader) and not s.ineffective and s.hex is not None and s.hex == ctx.st.units[uid].hex
            and ctx.side_of(leader) == ctx.side_of(uid) and ctx.helps(leader, uid))


def accompanied(ctx: Ctx, uid: str, leaders: list[str] | None = None) -> bool:
    """10.0(1), 10.0(3): an effective leader of its formation is with the unit (among `leaders` when given)."""
    hex_ = ctx.st.units[uid].hex
    if hex_ is None:
        return False
    pool = leaders if leaders is not None else ctx.units_at(hex_)
    return any(effective_leader(ctx, ldr, uid) for ldr in pool)
