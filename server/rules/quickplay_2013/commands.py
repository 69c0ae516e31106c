"""Quick Play 2013's commands (with the fields each may carry), the steps of its procedures (tasks) and the answers
to its decisions: the tables the kernel's engine dispatches through (kernel/edition.py)."""

from __future__ import annotations

from typing import Any

from ..kernel.core import Ctx
from ..kernel.edition import CommandHandler, DecisionHandler, TaskHandler
from ..kernel.errors import IllegalCommand, MalformedCommand
from ..kernel.game import check_fields
from ..kernel.procedures import end_phase_command, offer_defenders, start_game
from ..kernel.scenario import Scenario
from ..kernel.setup import parse_place, place_secretly, secret_placement
from ..kernel.state import PHASE_COMBAT, STATUS_MAP, Phase
from . import (
    artillery,
    cavalry,
    combat,
    counterattack,
    movement,
    phases,
    recovery,
    results,
    retreat,
    squares,
)
from .leaders import involved_leaders, leader_casualty_checks


def start(ctx: Ctx) -> None:
    """3.2: the set-up of 'within' placements, or at once the first player's movement phase (3.3)."""
    start_game(ctx, lambda: phases.enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT))


# --- tasks -----------------------------------------------------------------------------------------
def _task_combat_defenders(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    options = combat.defender_options(ctx, c)
    combat.defender_option_previews(ctx, c, options)
    offer_defenders(ctx, c, task, options, "7.1", f"{c['target']} is attacked: choose the defending units (one "
                    "artillery plus one other, 5.0), the primary unit and any leader")


def _decide_defenders(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    assert ctx.st.combat is not None
    combat.set_defenders(ctx, ctx.st.combat, option)


def _task_combat_resolve(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    if not ctx.combat_units_at(c["target"], c["defender"]) or not any(ctx.u(u).status == STATUS_MAP for u in c["attackers"]):
        ctx.emit("combat_void", "7.1: nothing is left to fight; the combat lapses", rule="7.1")
        ctx.st.tasks.append({"t": "combat_end"})
        return
    combat.resolve(ctx, c)


def _task_leader_checks(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    if c is not None:
        leader_casualty_checks(ctx, involved_leaders(c))


def _task_combat_end(ctx: Ctx, task: dict[str, Any]) -> None:
    ctx.st.combat = None


def _task_combat_phase_end(ctx: Ctx, task: dict[str, Any]) -> None:
    ctx.st.ca_stage = False
    phases.end_phase(ctx)


TASKS: dict[str, TaskHandler] = {
    "combat_defenders": _task_combat_defenders,
    "combat_resolve": _task_combat_resolve,
    "leader_checks": _task_leader_checks,
    "combat_end": _task_combat_end,
    "retreat": retreat.run_retreat,
    "advance": retreat.run_advance,
    "advance_unit": retreat.run_advance_unit,
    "bombard_unit": artillery.run_bombard_unit,
    "counterattacks": counterattack.run_counterattacks,
    "combat_phase_end": _task_combat_phase_end,
    **cavalry.TASKS,
}

DECISIONS: dict[str, DecisionHandler] = {
    "defenders": _decide_defenders,
    "retreat": retreat.apply_retreat,
    "advance": retreat.apply_advance,
    "retreat_or_disrupt": results.decide_retreat_or_disrupt,
    "loss_or_retreat": results.decide_loss_or_retreat,
    "counterattack": counterattack.apply_counterattack_choice,
    **cavalry.DECISIONS,
}


# --- commands ------------------------------------------------------------------------------------------
def cmd_end_phase(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    # 7.2: a combat phase ends with the defenders' counterattacks; 9.2: not before the declared charges
    chargers = cavalry.unresolved(ctx, side) if ctx.st.phase == PHASE_COMBAT else []
    end_phase_command(ctx, side, phases.finish_setup_side, chargers, phases.end_phase)


def cmd_place(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    uid, hex_ = parse_place(ctx, side, cmd)
    place_secretly(ctx, side, uid, hex_, "3.2")


def _ids(cmd: dict[str, Any], name: str) -> list[str]:
    value = cmd.get(name)
    if not isinstance(value, list) or not all(isinstance(u, str) for u in value):
        raise MalformedCommand(f"'{name}' must be a list of unit ids")
    return list(value)


def cmd_move(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    movement.movement_phase_open(ctx, side)
    uids = _ids(cmd, "units")
    path = cmd.get("path")
    if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
        raise MalformedCommand("'path' must be a list of hex ids like \"0504\"")
    group = movement.build_group(ctx, side, uids)
    charge = cmd.get("charge")
    if charge is not None:
        if not isinstance(charge, str):
            raise MalformedCommand("'charge' must be the target hex id")
        cavalry.parse_charge_move(ctx, side, uids, path, charge)
    cost, march = movement.path_cost(ctx, group, path)
    movement.apply_move(ctx, group, path, cost, march)
    if charge is not None:
        cavalry.apply_charge_move(ctx, uids, charge)
    if group.mode == "square":
        squares.after_square_move(ctx, path)


def cmd_roll_ma(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    movement.roll_movement(ctx, side, _ids(cmd, "units"))


def cmd_form_square(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    squares.form_square(ctx, side, cmd.get("hex"), cmd.get("unit"))


def cmd_remove_square(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    squares.remove_square(ctx, side, cmd.get("hex"))


def _combat_open(ctx: Ctx, side: str) -> None:
    st = ctx.st
    ctx.require(st.phase == PHASE_COMBAT and st.active == side, "7.1", "attacks are made only in your own combat phase")
    ctx.require(not st.ca_stage, "7.2", "the combat phase is ending: the counterattacks are being made")


def cmd_attack(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"target": "hex", "attackers": "ids"}, {"primary": "id", "leaders": "ids", "support": "ids"})
    _combat_open(ctx, side)
    combat.start_combat(ctx, combat.parse_attack(ctx, side, cmd))


def cmd_bombard(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"target": "hex", "artillery": "ids"}, {})
    _combat_open(ctx, side)
    artillery.start_bombardment(ctx, artillery.parse_bombard(ctx, side, cmd))


def cmd_charge(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"target": "hex", "chargers": "ids"}, {"leaders": "ids"})
    _combat_open(ctx, side)
    cavalry.start_charge(ctx, cavalry.parse_charge(ctx, side, cmd))


def cmd_recover(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    """11.2: step recovery, during the owning player's movement phase."""
    movement.movement_phase_open(ctx, side)
    uid = cmd.get("unit")
    ctx.require(isinstance(uid, str), "11.2", "name the unit in 'unit'")
    assert isinstance(uid, str)
    problem = recovery.recover_problem(ctx, side, uid)
    if problem is not None:
        raise IllegalCommand(*problem)
    recovery.recover_step(ctx, side, uid)


# Every field each command type may carry besides "type" (docs/commands.md).
COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "end_phase": frozenset(),
    "place": frozenset({"unit", "hex"}),
    "move": frozenset({"units", "path", "charge"}),
    "roll_ma": frozenset({"units"}),
    "form_square": frozenset({"hex", "unit"}),
    "remove_square": frozenset({"hex"}),
    "recover": frozenset({"unit"}),
    "attack": frozenset({"target", "attackers", "primary", "leaders", "support"}),
    "bombard": frozenset({"target", "artillery"}),
    "charge": frozenset({"target", "chargers", "leaders"}),
}

COMMANDS: dict[str, CommandHandler] = {
    "end_phase": cmd_end_phase,
    "place": cmd_place,
    "move": cmd_move,
    "roll_ma": cmd_roll_ma,
    "form_square": cmd_form_square,
    "remove_square": cmd_remove_square,
    "attack": cmd_attack,
    "bombard": cmd_bombard,
    "charge": cmd_charge,
    "recover": cmd_recover,
}


def secret_command(sc: Scenario, side: str, cmd: dict[str, Any]) -> tuple[str, str | None] | None:
    """A set-up placement is the side's secret until both have set up (3.2): so is its undo."""
    return secret_placement(sc, side, cmd)
