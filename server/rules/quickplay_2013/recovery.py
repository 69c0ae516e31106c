"""Recovery (11.0): from disruption and ineffectiveness at the end of the owner's movement phase (11.1, 11.3), and
step recovery with the scenario's replacement steps during it (11.2).

A unit recovers at the end of a movement phase after the one it was disrupted in ("subsequent", 11.1): the units
impaired when the phase began are the candidates.  Eligible for march movement that phase (4.3: it started and
stayed two hexes from every enemy unit, whether it marched or not), it recovers automatically; otherwise, out of
an EZOC, it recovers on a passed morale check (its morale reduced by two, 11.1(6), a leader of its formation
lending its morale, 10.0(2)).  A leader has no morale rating: it recovers only when eligible for march movement
(T17).  One recovery clears disruption and ineffectiveness together (T3).
"""

from __future__ import annotations

from ..kernel.core import Ctx
from ..kernel.state import STATUS_ELIMINATED, STATUS_MAP, STATUS_RETURNING
from .crt import morale_passes
from .movement import MARCH_OK, STEP_RECOVERED, near_enemy
from .status import effective_leader, impaired, morale, recover

IMPAIRED_AT_START = "impaired_at_start"  # state.extra: the side's units impaired as its movement phase began


def note_phase_start(ctx: Ctx, side: str) -> None:
    ctx.st.extra[IMPAIRED_AT_START] = sorted(u for u in ctx.side_units_on_map(side) if impaired(ctx, u))
    ctx.st.extra.pop(MARCH_OK, None)
    ctx.st.extra.pop(STEP_RECOVERED, None)


def march_eligible(ctx: Ctx, uid: str) -> bool:
    """4.3 for this phase: a unit that moved kept its distance along its path; one that did not stands two hexes
    from every enemy unit."""
    s = ctx.u(uid)
    if s.moved:
        return bool(ctx.st.extra.get(MARCH_OK, {}).get(uid, False))
    return s.hex is not None and s.hex not in near_enemy(ctx, ctx.side_of(uid))


def end_of_movement_recovery(ctx: Ctx, side: str) -> None:
    used: set[str] = set()
    for uid in ctx.st.extra.get(IMPAIRED_AT_START, []):
        s = ctx.u(uid)
        if s.status != STATUS_MAP or s.hex is None or not impaired(ctx, uid):
            continue
        name = ctx.name(uid)
        if march_eligible(ctx, uid):
            recover(ctx, uid)
            ctx.emit("recovered", f"11.1: {name} was eligible for march movement and recovers", unit=uid, rule="11.1")
            continue
        if ctx.is_leader(uid) or ctx.in_ezoc(s.hex, side):
            continue
        helper = next((ldr for ldr in sorted(ctx.units_at(s.hex), key=lambda l: (-ctx.leader_factors(l).morale, l))
                       if ldr not in used and effective_leader(ctx, ldr, uid)), None)
        rating = morale(ctx, uid) + (ctx.leader_factors(helper).morale if helper else 0)
        if helper:
            used.add(helper)
        (die,) = ctx.roll(1, f"recovery of {name}", ["morale die"], "11.1", unit=uid)
        if morale_passes(die, rating):
            recover(ctx, uid)
            ctx.emit("recovered", f"11.1: {name} recovers (morale {die} against {rating})", unit=uid, rule="11.1")
        else:
            ctx.emit("recovery_failed", f"11.1: {name} does not recover (morale {die} against {rating})", unit=uid,
                     rule="11.1")


# --- step recovery (11.2) --------------------------------------------------------------------------
def recover_problem(ctx: Ctx, side: str, uid: str) -> tuple[str, str] | None:
    st = ctx.st
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or ctx.is_leader(uid):
        return "11.2", f"{uid} is not one of your combat units"
    if st.replacements.get(side, 0) <= 0:
        return "11.2", "you have no replacement steps left"
    s = st.units[uid]
    name = ctx.name(uid)
    if s.status == STATUS_ELIMINATED:
        return None
    if s.status != STATUS_MAP:
        return "11.2", f"{name} is neither on the map nor eliminated (a captured unit or one gone off the map never returns)"
    if not (ctx.d(uid).steps == 2 and s.reduced):
        return "11.2", f"{name} has no lost step to recover"
    if not march_eligible(ctx, uid):
        return "11.2", f"{name} is not eligible for march movement (two hexes from every enemy unit, 4.3)"
    return None


def recover_step(ctx: Ctx, side: str, uid: str) -> None:
    st = ctx.st
    st.replacements[side] -= 1
    s = st.units[uid]
    name = ctx.name(uid)
    if s.status == STATUS_ELIMINATED:
        s.status = STATUS_RETURNING
        s.entry_turn = st.turn
        s.entry_hex = ctx.sc.sides[side].return_hexes[0]
        s.reduced = ctx.d(uid).steps == 2  # T19: one replacement step brings back one step
        s.disrupted = s.ineffective = False
        ctx.emit("returns", f"11.2: {name} returns: it enters this turn at {s.entry_hex} as a reinforcement", unit=uid,
                 hex=s.entry_hex, rule="11.2")
        return
    s.reduced = False
    recover(ctx, uid)
    st.extra.setdefault(STEP_RECOVERED, []).append(uid)
    ctx.emit("recovered_step", f"11.2: {name} recovers its lost step (and any disruption)", unit=uid, rule="11.2")


def step_recovery_candidates(ctx: Ctx, side: str) -> list[str]:
    units = ctx.st.units
    return [uid for uid in ctx.sc.side_units[side]
            if not ctx.is_leader(uid) and (units[uid].status == STATUS_ELIMINATED
                                           or (units[uid].status == STATUS_MAP and units[uid].reduced))
            and recover_problem(ctx, side, uid) is None]
