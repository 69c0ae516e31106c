"""Musket & Pike's edition object (seed 004 + R17, ruleset `musket-and-pike`): the hooks the kernel's engine calls
(kernel/edition.py) and the tables of the edition's commands, tasks and decisions (R17.95).

Commands: `move`, `face`, `fire`, `reform`, `formation`, `rally`, `close_combat`, `end_segment` (and `end_phase`,
the same). Decisions, each to the side that decides: `orders_change` (5.7), `activate` (R17.25), `preempt` (4.4),
`continue` (4.3), `intercept` (9.3), `react` (R17.51), `pistol` (R17.81), `retreat` (R17.85), `advance` (R17.87),
`set_facing` (R17.16), `place_leader` (R17.37), `lone_leader` (R17.38).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..kernel.dice import Dice
from ..kernel.edition import (
    CommandFamily,
    CommandHandler,
    DecisionHandler,
    Edition,
    TaskHandler,
    register,
)
from ..kernel.game import setup_units
from ..kernel.model import ScenarioModel
from ..kernel.state import PHASE_OVER, PHASE_RECOVERY, GameState, UnitState
from ..kernel.victory import game_over
from . import actions, combat, command, heuristics, legal, losses, reactions
from . import invariants as _invariants
from . import options as _options
from .context import MPCtx
from .scenario import MPScenario, parse_mp_scenario
from .tables import Condition, Kind, Mode, Morale

if TYPE_CHECKING:
    from ..kernel.game import Game

EDITION_KEY = "musket-and-pike"

COMMANDS: dict[str, CommandHandler] = {
    "move": actions.cmd_move,
    "face": actions.cmd_face,
    "fire": actions.cmd_fire,
    "reform": actions.cmd_reform,
    "formation": actions.cmd_formation,
    "rally": actions.cmd_rally,
    "close_combat": actions.cmd_close_combat,
    "end_segment": actions.cmd_end_segment,
    "end_phase": actions.cmd_end_segment,
}

COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "move": frozenset({"unit", "path", "facing"}),
    "face": frozenset({"unit", "facing"}),
    "fire": frozenset({"unit", "target", "salvo"}),
    "reform": frozenset({"unit"}),
    "formation": frozenset({"unit", "mode"}),
    "rally": frozenset({"unit"}),
    "close_combat": frozenset({"defender", "attackers", "lead", "pistols"}),
    "end_segment": frozenset(),
    "end_phase": frozenset(),
}

TASKS: dict[str, TaskHandler] = {
    "mp_turn": command.task_turn,
    "mp_orders": command.task_orders,
    "mp_activation": command.task_activation,
    "mp_after_activation": command.task_after_activation,
    "mp_continuation": command.task_continuation,
    "mp_end_phase": command.task_end_phase,
    "mp_end_rest": command.task_end_rest,
    "mp_intercept": reactions.task_intercept,
    "mp_react": reactions.task_react,
    "mp_cc_resolve": combat.task_resolve,
    "mp_retreat": combat.task_retreat,
    "mp_unable": combat.task_unable,
    "mp_cc_advance": combat.task_advance,
    "mp_cc_pursuit": combat.task_pursuit,
    "mp_cc_finish": combat.task_finish,
    "mp_face": combat.task_face,
    "mp_place_leader": losses.task_place_leader,
    "mp_lone_leader": losses.task_lone_leader,
}

DECISIONS: dict[str, DecisionHandler] = {
    "orders_change": command.decide_orders,
    "activate": command.decide_activate,
    "preempt": command.decide_preempt,
    "continue": command.decide_continue,
    "intercept": reactions.decide_intercept,
    "react": reactions.decide_react,
    "pistol": combat.decide_pistol,
    "retreat": combat.decide_retreat,
    "advance": combat.decide_advance,
    "set_facing": combat.decide_facing,
    "place_leader": losses.decide_place_leader,
    "lone_leader": losses.decide_lone_leader,
}


class MusketAndPike(Edition):
    """Musket & Pike (seed 004) as R17 frames it."""

    name: ClassVar[str] = "musket-and-pike"
    title: ClassVar[str] = "Musket & Pike"
    die_faces: ClassVar[int] = 10  # R17.1
    # the bots weigh a roll over every face of the d10 (one imagined roll misjudges a fire or a close combat), and
    # play on the decisions that finish a close combat (a heuristic, never a rule)
    bot_expectation: ClassVar[bool] = True
    bot_follow_up: ClassVar[frozenset[str]] = frozenset({"pistol", "retreat", "advance", "set_facing", "place_leader",
                                                         "lone_leader"})
    bot_reactions: ClassVar[frozenset[str]] = frozenset({"intercept", "react"})  # 9.3, R17.51: options[0] is "none"

    def parse_scenario(self, data: dict[str, Any], source: str) -> MPScenario:
        return parse_mp_scenario(data, source)

    def initial_state(self, scenario: ScenarioModel) -> GameState:
        """R17.15, R17.20: every unit fresh (no CP, Normal, Line, its printed pistols), the set-up's facings, each
        wing's order from the scenario, each leader's printed rating; the objectives' first holders (R17.94)."""
        sc = _mp(scenario)
        units = setup_units(sc)
        info: dict[str, Any] = {}
        for p in sc.setup:
            d = sc.units[p.unit]
            if d.kind is Kind.LEADER:
                continue
            units[p.unit].facing = p.facing
            info[p.unit] = {"cp": 0, "morale": Morale.NORMAL.value, "cond": Condition.NORMAL.value,
                            "mode": Mode.LINE.value, "salvo": False, "pistols": d.pistols}
        leaders = {uid: {"rating": d.rating, "replacement": False, "returns": None}
                   for uid, d in sc.units.items() if d.kind is Kind.LEADER}
        wings = {wid: {"order": w.order.value, "activated": False, "no_continue": False, "continuations": 0,
                       "collapsed": False} for wid, w in sc.wings.items()}
        return GameState(
            scenario=sc.id, ruleset=self.name, turn=1, phase=PHASE_RECOVERY, active=sc.first_player, units=units,
            control={o.hex: o.owner for o in sc.victory.objectives},
            extra={"units": info, "leaders": leaders, "wings": wings, "step": "start", "segment": None,
                   "wing": None, "chooser": sc.first_player, "initiative": None, "act": {}, "cc": None},
        )

    def context(self, scenario: ScenarioModel, state: GameState, dice: Dice) -> MPCtx:
        return MPCtx(_mp(scenario), state, self, dice)

    def view_extra(self, game: Game, viewer: str) -> dict[str, Any]:
        return {EDITION_KEY: _options.view(MPCtx.of(game))}

    def start(self, ctx: MPCtx) -> None:
        """M19: the battle waits, in the step `start`, for the first side's `end_segment`: no die is rolled before both
        seats' dice contributions are in (R11), so the first initiative follows a command."""
        ctx.x["step"] = "start"

    def commands(self) -> Mapping[str, CommandHandler]:
        return COMMANDS

    def command_fields(self) -> Mapping[str, frozenset[str]]:
        return COMMAND_FIELDS

    def tasks(self) -> Mapping[str, TaskHandler]:
        return TASKS

    def decisions(self) -> Mapping[str, DecisionHandler]:
        return DECISIONS

    def interrupt(self, ctx: MPCtx) -> bool:
        """R17.38: a leader left alone beside the enemy moves at once (when no decision is pending)."""
        if ctx.st.decision is not None or any(t["t"] == "mp_lone_leader" for t in ctx.st.tasks):
            return False
        lid = losses.lone_leader(ctx)
        if lid is None:
            return False
        ctx.st.tasks.append({"t": "mp_lone_leader", "leader": lid})
        return True

    def after_command(self, ctx: MPCtx) -> None:
        if ctx.st.phase != PHASE_OVER:
            command.update_control(ctx)

    def finish_game(self, ctx: MPCtx, result: dict[str, Any]) -> None:
        game_over(ctx, result, f"The game ends: {result.get('reason', '')}", winner=result.get("winner"))

    def points(self, ctx: MPCtx) -> dict[str, int]:
        return command.points(ctx)

    def stacking_ok(self, kinds: list[Any]) -> bool:
        units = [k for k in kinds if k is not Kind.LEADER]
        return len(units) <= 1 or (len(units) == 2 and (units[0] is Kind.ARTILLERY) != (units[1] is Kind.ARTILLERY))

    # --- what the bots weigh (heuristics, never rules) -------------------------------------------
    def bot_factors(self, scenario: ScenarioModel, unit: UnitState) -> tuple[int, int, int]:
        d = _mp(scenario).units[unit.id]
        if d.kind is Kind.LEADER:
            return 0, 0, 8
        weight = d.sp + d.morale - 4
        if d.kind is Kind.ARTILLERY:
            return 4, 1, d.ma
        return weight, weight, d.ma

    def bot_terrain_defence(self, scenario: ScenarioModel, hex_: str) -> int:
        t = _mp(scenario).terrain(hex_)
        return max(0, -int(t.fire or 0)) + max(0, -int(t.cc or 0))

    def bot_loss_points(self, game: Game) -> dict[str, float]:
        """R17.94's points from losses, and each Casualty Point, Morale Shaken or Broken state on a living unit as a
        share of its Original Strength, and the positional terms of `heuristics` (tempo, orders, advance) (heuristics,
        never rules)."""
        ctx = MPCtx.of(game)
        pts = command.points(ctx)
        out = {s: float(pts[s]) for s in ctx.sc.side_order}
        for s, v in heuristics.bonus(ctx, pts).items():
            out[s] += v
        for o in ctx.sc.victory.objectives:
            holder = ctx.st.control.get(o.hex)
            if holder is not None:
                out[holder] -= o.points
        for s in ctx.sc.side_order:
            for u in ctx.units_of(s):
                d = ctx.d(u)
                share = ctx.cp(u) + {"normal": 0, "shaken": 0.3, "broken": 0.7}[ctx.morale(u).value] * d.sp
                share += {"normal": 0, "shaken": 0.1, "broken": 0.2}[ctx.cond(u).value] * d.sp
                out[ctx.enemy(s)] += min(float(d.sp), share)
        return out

    # --- options, bots, invariants, the page ----------------------------------------------------
    def options(self, game: Game, side: str, units: list[str]) -> dict[str, Any]:
        return _options.unit_options(game, side, units)

    def preview(self, game: Game, side: str, command_: Any) -> dict[str, Any]:
        return _options.preview(game, side, command_)

    def legal_commands(self, game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
        return legal.legal_commands(game, side, rng, limit)

    def command_families(self, game: Game, side: str, rng: random.Random) -> list[CommandFamily]:
        return legal.command_families(game, side, rng)

    def can_end_phase(self, game: Game, side: str) -> bool:
        return legal.can_end(MPCtx.of(game), side)

    def invariants(self, game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
        return _invariants.check(game, events)

    def phase_prompt(self, phase: str) -> tuple[str, str]:
        verbs = {"recovery": "open the battle (the first initiative is rolled), then the Command Phase: initiative "
                             "and orders changes",
                 "movement": "move the active wing's units and leaders, then end the Movement Segment",
                 "combat": "fire, reform or rally, then declare close combats, then end the segment"}
        return "R17.22", verbs.get(phase, "")


def _mp(scenario: ScenarioModel) -> MPScenario:
    if not isinstance(scenario, MPScenario):
        raise ValueError(f"a Musket & Pike game needs a Musket & Pike scenario, not {type(scenario).__name__}")  # noqa: TRY004
    return scenario


register(MusketAndPike)
