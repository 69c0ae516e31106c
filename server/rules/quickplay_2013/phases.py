"""The turn (3.3): set-up (3.2, the kernel's 'w/N' placements), then five phases: the first player's movement and
combat phases, the second player's, and the turn marker phase (victory, 3.4).  A movement phase ends with
recovery (11.1, 11.3) and both movement and combat phases with the stacking check (5.0); a combat phase ends with
the counterattacks (7.2, counterattack.py)."""

from __future__ import annotations

from ..kernel.core import Ctx
from ..kernel.procedures import finish_game, reset_combat_phase, reset_movement_phase
from ..kernel.setup import end_setup_side
from ..kernel.state import Phase
from . import cavalry
from .movement import ROLLED_MA
from .recovery import end_of_movement_recovery, note_phase_start
from .stacking import overstacking_check
from .triggers import counterattack_eligible
from .victory import final_result, sudden_death, update_control

__all__ = ["finish_game"]  # the kernel's (kernel/procedures.py)


def finish_setup_side(ctx: Ctx, side: str) -> None:
    end_setup_side(ctx, side, lambda: enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT))


def phase_order(ctx: Ctx) -> list[tuple[str, Phase]]:
    """3.3: the phases of a turn before the turn marker phase."""
    a, b = ctx.sc.first_player, ctx.sc.second_player
    return [(a, Phase.MOVEMENT), (a, Phase.COMBAT), (b, Phase.MOVEMENT), (b, Phase.COMBAT)]


def end_phase(ctx: Ctx) -> None:
    st = ctx.st
    phase = Phase(st.phase)
    if phase is Phase.MOVEMENT:
        end_of_movement_recovery(ctx, st.active)  # 11.1: before the stacking check, which may disrupt anew
        overstacking_check(ctx)
        st.extra.pop(ROLLED_MA, None)
    elif phase is Phase.COMBAT:
        cavalry.end_of_combat_phase(ctx)
        overstacking_check(ctx)
    order = phase_order(ctx)
    i = order.index((st.active, phase))
    if i == len(order) - 1:
        if turn_marker_phase(ctx):
            return
        enter_phase(ctx, *order[0])
    else:
        enter_phase(ctx, *order[i + 1])


def enter_phase(ctx: Ctx, side: str, phase: Phase) -> None:
    st = ctx.st
    st.phase = phase.value
    st.active = side
    label = f"{ctx.sc.sides[side].name} {phase.value} phase, turn {st.turn} ({ctx.sc.turn_label(st.turn)})"
    ctx.emit("phase", f"3.3: {label}", phase=phase.value, side=side, turn=st.turn)
    if phase is Phase.MOVEMENT:
        reset_movement_phase(ctx, side)
        note_phase_start(ctx, side)
    elif phase is Phase.COMBAT:
        reset_combat_phase(ctx, counterattack_eligible(ctx, side))


def turn_marker_phase(ctx: Ctx) -> bool:
    """3.3: after the last turn, determine the winner (3.4); else advance the turn marker. True when it is over."""
    st = ctx.st
    update_control(ctx)
    sd = sudden_death(ctx)
    if sd is not None:
        finish_game(ctx, sd)
        return True
    if st.turn >= ctx.sc.turns:
        finish_game(ctx, final_result(ctx))
        return True
    st.turn += 1
    return False
