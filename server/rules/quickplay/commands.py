"""Quick Play's commands (with the fields each may carry), the steps of its procedures (tasks) and the
answers to its decisions: the tables the kernel's engine dispatches through (kernel/edition.py). The
options the page asks for are in `options.py`.
"""

from __future__ import annotations

from typing import Any

from ..kernel.core import Ctx
from ..kernel.edition import CommandHandler, DecisionHandler, TaskHandler
from ..kernel.errors import IllegalCommand, MalformedCommand
from ..kernel.game import check_fields
from ..kernel.procedures import end_phase_command, offer_defenders, start_game
from ..kernel.scenario import Scenario, UnitKind
from ..kernel.setup import place_secretly, secret_placement
from ..kernel.state import PHASE_COMBAT, PHASE_RECOVERY, STATUS_MAP, Phase
from . import artillery, cavalry, combat, leaders, movement, phases, retreat


def start(ctx: Ctx) -> None:
    """A new game begins with the set-up of 'within' placements (3.2) or the first player's movement phase (3.3)."""
    start_game(ctx, lambda: phases.enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT))




def _task_combat_defenders(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    options = combat.defender_options(ctx, c)
    combat.defender_option_previews(ctx, c, options)
    offer_defenders(ctx, c, task, options, "7.2(1)",
                    f"{ctx.names(c['attackers'])} attack{'s' if len(c['attackers']) == 1 else ''} your units at "
                    f"{c['target']}: choose the units that defend, "
                    "the primary unit (its morale decides a lost combat) and any leader (rule 7.2(1))")


def _decide_defenders(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    assert ctx.st.combat is not None
    combat.set_defenders(ctx, ctx.st.combat, option)


def _task_combat_resolve(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    if not ctx.combat_units_at(c["target"], c["defender"]) or not any(
        ctx.u(u).status == STATUS_MAP for u in c["attackers"]
    ):
        ctx.emit("combat_void", "7.2: nothing is left to fight; the combat lapses", rule="7.2")
        ctx.st.tasks.append({"t": "combat_end"})
        return
    combat.resolve(ctx, c)


def _task_leader_checks(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    if c is not None:
        leaders.leader_casualty_checks(ctx, combat.combat_leaders_used(c))


def _task_combat_end(ctx: Ctx, task: dict[str, Any]) -> None:
    ctx.st.combat = None


def _task_counterattacks(ctx: Ctx, task: dict[str, Any]) -> None:
    phases.run_counterattacks(ctx, task)


def _task_combat_phase_end(ctx: Ctx, task: dict[str, Any]) -> None:
    ctx.st.ca_stage = False
    phases.end_phase(ctx)


TASKS: dict[str, TaskHandler] = {
    "combat_defenders": _task_combat_defenders,
    "combat_resolve": _task_combat_resolve,
    "leader_checks": _task_leader_checks,
    "combat_end": _task_combat_end,
    "retreat": retreat.run_retreat,
    "group_loss": retreat.run_group_loss,
    "advance": retreat.run_advance,
    "advance_unit": retreat.run_advance_unit,
    "bombard_unit": artillery.run_bombard_unit,
    "counterattacks": _task_counterattacks,
    "combat_phase_end": _task_combat_phase_end,
}

DECISIONS: dict[str, DecisionHandler] = {
    "defenders": _decide_defenders,
    "retreat": retreat.apply_retreat,
    "loss": retreat.apply_group_loss,
    "advance": retreat.apply_advance,
    "counterattack": phases.apply_counterattack_choice,
}
TASKS.update(cavalry.TASKS)
DECISIONS.update(cavalry.DECISIONS)


# --- commands ---------------------------------------------------------------------------
def cmd_end_phase(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    # 7.3: a combat phase ends with the defenders' counterattacks
    chargers = cavalry.unresolved(ctx, side) if ctx.st.phase == PHASE_COMBAT else []
    end_phase_command(ctx, side, phases.finish_setup_side, chargers, phases.end_phase)

def cmd_place(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    uid, hex_ = phases.parse_place(ctx, side, cmd)
    place_secretly(ctx, side, uid, hex_, "3.2")

def cmd_move(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    movement.movement_phase_open(ctx, side)
    uids = cmd.get("units")
    path = cmd.get("path")
    if not isinstance(uids, list) or not all(isinstance(u, str) for u in uids):
        raise MalformedCommand("'units' must be a list of unit ids")
    if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
        raise MalformedCommand("'path' must be a list of hex ids like \"0504\"")
    group = movement.build_group(ctx, side, uids)
    charge = cmd.get("charge")
    if charge is not None:
        if not isinstance(charge, str):
            raise MalformedCommand("'charge' must be the target hex id")
        cavalry.parse_charge_move(ctx, side, uids, path, charge)
    cost = movement.path_cost(ctx, group, path)
    movement.apply_move(ctx, group, path, cost)
    if charge is not None:
        cavalry.apply_charge_move(ctx, uids, charge)
    if group.mode == "square" and movement.is_square_group_bad_terrain(ctx, path[0], path[1]):
        sq = ctx.st.squares.get(path[-1])
        if sq is not None:
            (die,) = ctx.roll(1, "square crossing broken ground", ["morale die"], "9.3(1)", unit=sq)
            passed = ctx.rs.morale_passes(die, ctx.mr(sq))
            ctx.emit("morale", f"9.3(1): {ctx.name(sq)} checks morale crossing broken ground in square: die {die} "
                     f"against {ctx.mr(sq)}: {'passes' if passed else 'fails'}", unit=sq, die=die, rating=ctx.mr(sq),
                     passed=passed, rule="9.3(1)")
            if not passed:
                ctx.disrupt_or_ineffective(sq, "9.3(1)")

def cmd_form_square(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    movement.movement_phase_open(ctx, side)
    hex_ = cmd.get("hex")
    st = ctx.st
    ctx.require(isinstance(hex_, str) and hex_ in ctx.sc.grid, "9.3", f"'{hex_}' is not a hex on the map")
    assert isinstance(hex_, str)
    ctx.require(not st.any_moved, "9.3", "squares are formed at the start of the movement phase, before any unit moves")
    ctx.require(hex_ not in st.squares, "9.3", f"{hex_} is already in square")
    infantry = [u for u in ctx.combat_units_at(hex_, side)
                if ctx.kind(u) in (UnitKind.INFANTRY, UnitKind.BATTALION)
                and not ctx.u(u).disrupted and not ctx.u(u).ineffective]
    ctx.require(bool(infantry), "9.3", f"no undisrupted, effective infantry of yours is in {hex_}")
    unit = cmd.get("unit") or max(infantry, key=lambda u: (ctx.factors(u).defense, u))
    ctx.require(unit in infantry, "9.3", f"{unit} cannot form the square")
    st.squares[hex_] = unit
    ctx.emit("square_formed", f"9.3: {ctx.name(unit)} forms square at {hex_}", hex=hex_, unit=unit, rule="9.3")

def cmd_remove_square(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    movement.movement_phase_open(ctx, side)
    hex_ = cmd.get("hex")
    st = ctx.st
    ctx.require(isinstance(hex_, str) and hex_ in st.squares and ctx.side_at(hex_) == side, "9.3",
                f"you have no square at {hex_}")
    assert isinstance(hex_, str)
    ctx.require(not st.any_moved, "9.3", "squares are removed at the start of the movement phase, before any unit moves")
    del st.squares[hex_]
    ctx.emit("square_removed", f"9.3: the square at {hex_} is removed", hex=hex_, rule="9.3")

def cmd_attack(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"target": "hex", "attackers": "ids"}, {"primary": "id", "leaders": "ids", "support": "ids"})
    _combat_open(ctx, side)
    c = combat.parse_attack(ctx, side, cmd)
    combat.start_combat(ctx, c)

def cmd_bombard(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"target": "hex", "artillery": "ids"}, {})
    _combat_open(ctx, side)
    b = artillery.parse_bombard(ctx, side, cmd)
    artillery.start_bombardment(ctx, b)

def cmd_charge(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    _combat_open(ctx, side)
    spec = cavalry.parse_charge(ctx, side, cmd)
    cavalry.start_charge(ctx, spec)

def _combat_open(ctx: Ctx, side: str) -> None:
    st = ctx.st
    ctx.require(st.phase == PHASE_COMBAT and st.active == side, "7.1", "attacks are made only in your own combat phase")
    ctx.require(not st.ca_stage, "7.3", "the combat phase is ending: counterattacks are being made")

def cmd_recover(ctx: Ctx, side: str, cmd: dict[str, Any]) -> None:
    st = ctx.st
    ctx.require(st.phase == PHASE_RECOVERY and st.active == side, "11.4", "step recovery happens in your recovery phase")
    uid = cmd.get("unit")
    ctx.require(isinstance(uid, str), "11.4", "name the unit in 'unit'")
    assert isinstance(uid, str)
    problem = phases.recover_problem(ctx, side, uid)
    if problem is not None:
        raise IllegalCommand(*problem)
    leader = cmd.get("leader")
    if leader is not None:
        ctx.require(phases.supporting_leader(ctx, uid, set(), leader) == leader, "10.0(5)",
                    f"{leader} cannot support {ctx.name(uid)}'s recovery")
    phases.recover_step(ctx, side, uid, leader)
    if not phases.recovery_possible(ctx, side):
        phases.end_phase(ctx)


# Every field each command type may carry besides "type" (docs/commands.md); the kernel refuses any
# other field as malformed, so nothing unknown is ever judged or kept in a game's log.
COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "end_phase": frozenset(),
    "place": frozenset({"unit", "hex"}),
    "move": frozenset({"units", "path", "charge"}),
    "form_square": frozenset({"hex", "unit"}),
    "remove_square": frozenset({"hex"}),
    "recover": frozenset({"unit", "leader"}),
    "attack": frozenset({"target", "attackers", "primary", "leaders", "support"}),
    "bombard": frozenset({"target", "artillery"}),
    "charge": frozenset({"target", "chargers", "leaders"}),
}


def secret_command(sc: Scenario, side: str, cmd: dict[str, Any]) -> tuple[str, str | None] | None:
    """A set-up placement is the side's secret until both have set up (3.2): so is its undo."""
    return secret_placement(sc, side, cmd)


COMMANDS: dict[str, CommandHandler] = {
    "end_phase": cmd_end_phase,
    "place": cmd_place,
    "move": cmd_move,
    "form_square": cmd_form_square,
    "remove_square": cmd_remove_square,
    "attack": cmd_attack,
    "bombard": cmd_bombard,
    "charge": cmd_charge,
    "recover": cmd_recover,
}
