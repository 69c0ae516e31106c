"""The Standard rules' edition object (seed 002, ruleset `standard`): the hooks the kernel's engine calls
(kernel/edition.py) and the tables of the edition's commands, tasks and decisions.

Commands (with the fields each may carry): the movement phase's in `moving.py`, the combat phase's `attack` in
`attacks.py`, and `end_phase` (3.2).  Decisions: `defenders` (7.4), `result` (7.8), `absorb` (7.11), `retreat`
(7.9, 7.10), `advance` (7.12), `fow` (7.2), `tactic` (7.13, the defender's answer), `second_step` (7.11, 7.13(2),
7.13(5)), `ammo` (8.5).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..kernel import hidden as _kh
from ..kernel import victory as _victory
from ..kernel.crt import COLUMN_LABELS, column_of
from ..kernel.dice import Dice
from ..kernel.edition import (
    CommandFamily,
    CommandHandler,
    DecisionHandler,
    Edition,
    TaskHandler,
    register,
)
from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields, setup_units
from ..kernel.model import BotPlan, Objective, ScenarioModel
from ..kernel.setup import secret_placement
from ..kernel.state import (
    PHASE_COMBAT,
    PHASE_MOVEMENT,
    PHASE_OVER,
    PHASE_SETUP,
    STATUS_UNPLACED,
    GameState,
    UnitState,
)
from . import (
    advancing,
    attacks,
    bombard,
    botplan,
    charges,
    close_combat,
    combat_results,
    fortune,
    hidden,
    hidden_moves,
    hidden_resume,
    hidden_setup,
    legal,
    line,
    line_fire,
    moving,
    mustering,
    open_order,
    phases,
    retreating,
    squares,
    victory,
)
from . import invariants as _invariants
from . import options as _options
from . import setup as _setup
from . import weather as _weather
from .context import StdCtx
from .crt import crt_result, crt_row
from .morale import morale_passes
from .movement import printed_side
from .scenario import Kind, StandardScenario, parse_standard_scenario
from .special import line_front
from .stacking import STACK_LIMIT
from .strength import halve

if TYPE_CHECKING:
    from ..kernel.game import Game

_POSITION = operator.attrgetter("hex", "disrupted", "ineffective")  # what 12.1, 12.2 are judged on


def _end_phase(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {}, {})
    if ctx.st.active != side:
        raise IllegalCommand("3.2", "only the active player ends the phase")
    if ctx.st.phase == PHASE_SETUP:
        problem = _setup.end_problem(ctx, side) or hidden_setup.end_problem(ctx, side)
        if problem:
            raise IllegalCommand(*problem)
        hidden_setup.finish(ctx, side)  # 19.8 B: the markers go on the map
        _setup.end_setup(ctx, side)  # 17.1-17.3: the side's set-up is over
        return
    phases.end_phase(ctx)


def _maybe_boxed(scenario: ScenarioModel) -> dict[str, str]:
    """19.8 B: the units a set-up may box (the hidden formations', any under a free set-up): a command naming one is
    its owner's secret (it may be in a box)."""
    hm = scenario.hidden_movement
    sc = scenario if isinstance(scenario, StandardScenario) else None
    if hm is None or sc is None:
        return {}
    free = hm.owner in sc.free_setup
    return {u: hm.owner for u in sc.side_units[hm.owner]
            if free or not hm.formations or str(sc.units[u].formation) in hm.formations}


COMMANDS: dict[str, CommandHandler] = {
    "end_phase": _end_phase,
    "flip": hidden_moves.marker_first(moving.cmd_flip),
    "declare": hidden_moves.marker_first(moving.cmd_declare),
    "move": hidden_moves.marker_first(moving.cmd_move),
    "stay": hidden_moves.marker_first(moving.cmd_stay),
    "recover": hidden_moves.marker_first(moving.cmd_recover),
    "replace": hidden_moves.marker_first(mustering.cmd_replace),
    "muster": hidden_moves.marker_first(mustering.cmd_muster),
    "reenter": hidden_moves.marker_first(mustering.cmd_reenter),
    "attack": attacks.cmd_attack,
    "charge": hidden_moves.marker_first(charges.cmd_charge),
    "bombard": bombard.cmd_bombard,
    "square": hidden_moves.marker_first(squares.cmd_square),
    "open_order": hidden_moves.marker_first(open_order.cmd_open_order),
    "line": hidden_moves.marker_first(line.cmd_line),
    "line_fire": line_fire.cmd_line_fire,
    "hm_declare": hidden_moves.cmd_hm_declare,
    "hm_move": hidden_moves.cmd_hm_move,
    "hm_reveal": hidden_moves.marker_first(hidden_moves.cmd_hm_reveal),
    **_setup.COMMANDS,
    **hidden_setup.COMMANDS,
}

COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "end_phase": frozenset(),
    "flip": frozenset({"unit"}),
    "declare": frozenset({"units", "march", "assist"}),
    "move": frozenset({"units", "path", "march", "off_map", "assist"}),
    "stay": frozenset(),
    "recover": frozenset({"unit", "assist"}),
    "replace": frozenset({"unit"}),
    "muster": frozenset({"unit"}),
    "reenter": frozenset({"unit", "hex"}),
    "charge": frozenset({"units", "path", "target"}),
    "bombard": frozenset({"target", "artillery", "groups"}),
    "square": frozenset({"unit", "form"}),
    "open_order": frozenset({"unit", "on"}),
    "line": frozenset({"unit", "facing", "on"}),
    "line_fire": frozenset({"unit", "target"}),
    "hm_declare": frozenset({"marker", "march"}),
    "hm_move": frozenset({"marker", "path", "march"}),
    "hm_reveal": frozenset({"marker"}),
    "attack": frozenset({"target", "attackers", "primary", "tactic", "leaders", "coordinator", "support"}),
    **_setup.COMMAND_FIELDS,
    **hidden_setup.COMMAND_FIELDS,
}


TASKS: dict[str, TaskHandler] = {
    "next_phase": lambda ctx, task: phases.next_phase(ctx),
    "fow_7_2": fortune.task_fow,
    "forced_attack": fortune.task_forced_attack,
    "combat_defenders": close_combat.task_defenders,
    "combat_precheck": close_combat.task_precheck,
    "combat_tactics": close_combat.task_tactics,
    "combat_resolve": close_combat.task_resolve,
    "cavalry_checks": close_combat.task_cavalry_checks,
    "follow_up": close_combat.task_follow_up,
    "combat_after": combat_results.task_after,
    "second_step": combat_results.task_second_step,
    "ammo": bombard.task_ammo,
    "fow_play": fortune.task_fow_play,
    "bombard_fire": bombard.task_fire,
    "bombard_done": bombard.task_done,
    "combat_end": close_combat.task_combat_end,
    "step_loss": combat_results.task_step_loss,
    "retreat": retreating.task_retreat,
    "rout": retreating.task_rout,
    "retreat_go_on": retreating.task_go_on,  # 19.8 D (S74)
    "advance_on": advancing.task_advance_on,  # 19.8 D (S74)
    "advance_check": advancing.task_advance_check,
    "advance": advancing.task_advance,
    "hm_deploy": hidden.task_deploy,
    "hm_resume": hidden_resume.task_resume,  # S77: judged anew
}

DECISIONS: dict[str, DecisionHandler] = {
    "defenders": close_combat.decide_defenders,
    "result": combat_results.decide_result,
    "absorb": combat_results.decide_absorb,
    "retreat": retreating.decide_retreat,
    "advance": advancing.decide_advance,
    "fow": fortune.decide_fow,
    "tactic": close_combat.decide_tactic,
    "second_step": combat_results.decide_second_step,
    "ammo": bombard.decide_ammo,
    "bombard_unit": bombard.decide_fire,
    "fortune": fortune.decide_fortune,
    "form_square": close_combat.decide_form_square,
    "fow_move": fortune.decide_fow_move,
    "fow_place": fortune.decide_fow_place,
    "fow_charge": fortune.decide_fow_charge,
    "follow_up": close_combat.decide_follow_up,
    "hm_deploy": hidden.decide_deploy,
}


class Standard(Edition):
    """Musket & Saber Standard rules (seed 002): the five-phase turn of 3.2."""

    name: ClassVar[str] = "standard"
    title: ClassVar[str] = "Standard rules"
    # On a large field (`bot_expects`: a battle with a march plan) the bots weigh an attack through the decisions that
    # finish it: the defender's tactic (7.13) and units (7.4), the result's taking (7.8, 7.11), the retreat (7.9), the
    # advance after combat (7.12, the one way into a works hex in an enemy ZOC), a charge's square and follow-up
    # (9.3), a bombardment's target and ammunition (8.4, 8.5). A heuristic, never a rule.
    bot_follow_up: ClassVar[frozenset[str]] = frozenset({"tactic", "defenders", "result", "absorb", "second_step",
                                                         "retreat", "advance", "form_square", "follow_up",
                                                         "bombard_unit", "ammo"})
    bot_follow_up_choices: ClassVar[int] = 10  # 7.12: "stay" and up to nine hexes, the vacated one among them

    def __init__(self) -> None:
        self._army_key: tuple[Any, ...] | None = None  # the position 12.1/12.2 were last judged on (a pure cache)
        self._plans: dict[int, tuple[ScenarioModel, BotPlan | None]] = {}  # the battles' march plans (a pure cache)

    # --- the scenario, the state, the context ---------------------------------------------
    def parse_scenario(self, data: dict[str, Any], source: str) -> StandardScenario:
        return parse_standard_scenario(data, source)

    def initial_state(self, scenario: ScenarioModel) -> GameState:
        """17.0-style set-up from the scenario: every unit placed or waiting to arrive; the HQs and trains set up
        inactive (12.1, 12.2); the objectives' first owners."""
        sc = _std(scenario)
        units = setup_units(sc)
        for ap in sc.areas.values():  # 17.2: placed during the set-up
            units[ap.unit] = UnitState(id=ap.unit, hex=None, status=STATUS_UNPLACED, reduced=ap.reduced,
                                       disrupted=ap.disrupted, ineffective=ap.ineffective)
        units = dict(sorted(units.items()))
        inactive = [p.unit for p in sc.setup if p.inactive] + [a.unit for a in sc.areas.values() if a.inactive]
        boxes = _kh.initial(sc.hidden_movement, units) if sc.hidden_movement is not None else None
        return GameState(
            scenario=sc.id, ruleset=self.name, turn=1, phase=PHASE_MOVEMENT, active=sc.first_player,
            units=units, replacements={s: 0 for s in sc.side_order},
            control={o.hex: o.owner for o in sc.victory.objectives},
            extra={"inactive": sorted(inactive), "fow_owed": [],
                   **victory.initial_extra(sc, ((p.unit, p.hex) for p in sc.setup)),  # 18.0 (S68): its trackers
                   **({"weather": sc.weather.start} if sc.weather is not None else {}),  # 19.4: turn 1's weather
                   **({"open_order": []} if sc.special.open_order is not None else {}),  # 19.10: the markers
                   **({_kh.KEY: boxes} if boxes is not None else {})},  # 19.8: the boxes and their markers
        )

    def context(self, scenario: ScenarioModel, state: GameState, dice: Dice) -> StdCtx:
        return StdCtx(_std(scenario), state, self, dice)

    def view_extra(self, game: Game, viewer: str) -> dict[str, Any]:
        st = game.state
        sc = _std(game.scenario)
        x = st.extra
        rain = {} if sc.weather is None else {  # 19.4 (S50): visible to all
            "weather": _weather.view(sc.weather, str(x.get("weather", sc.weather.start)), st.turn, sc.turns)}
        return {"standard": {
            **rain,
            "light": sc.light(st.turn), "inactive": list(x.get("inactive", [])),
            "declared": x.get("declared"), "marched": list(x.get("marched", [])),
            "fow_owed": list(x.get("fow_owed", [])),
            "charges": list(x.get("charges", [])),  # 7.13(3), 9.3(1): declared this movement phase
            "forced": [{"units": f["units"], "target": f["target"]}  # 12.4 (S48): attacks owed this phase
                       for f in (fortune.pending_forced(StdCtx.of(game), st.active)
                                 if st.phase == PHASE_COMBAT else [])],
            "assisted": sorted(u for u, t in x.get("assisted", {}).items() if t == st.turn),  # 10.3
            "bombarded": list(x.get("bombarded", [])),  # 8.4
            **({"open_order": list(x["open_order"])} if "open_order" in x else {}),  # 19.10: the markers
            **({"victory": victory.view(StdCtx.of(game))} if sc.victory_rules.used else {}),  # 18.0 (S68)
            **({"line": _line_view(game, sc, viewer)} if sc.special.line is not None else {}),  # 19.7
            **({"hm_declared": x.get("hm_declared")} if _kh.KEY in x else {}),  # 19.8 C: a marker's rolled MA
            "trt": [
                {"turn": b.turn, "label": b.label, "light": b.light, "replacements": dict(b.replacements)}
                for b in sc.trt],
        }}

    # --- turn and procedures ---------------------------------------------------------------
    def start(self, ctx: StdCtx) -> None:
        if ctx.sc.hidden_movement is not None and ctx.sc.hidden_movement.owner in _setup.setup_sides(ctx):
            hidden_setup.begin(ctx)  # 19.8 B: the owner fills its boxes while setting up
        _setup.start(ctx)  # 17.1: the set-up of the units placed in areas, then 3.2's first movement phase

    def game_options(self, scenario: ScenarioModel) -> dict[str, dict[str, Any]]:
        return _setup.game_options(_std(scenario))  # 17.3: the free set-up

    def commands(self) -> Mapping[str, CommandHandler]:
        return COMMANDS

    def command_fields(self) -> Mapping[str, frozenset[str]]:
        return COMMAND_FIELDS

    def secret_command(self, scenario: ScenarioModel, side: str, cmd: dict[str, Any]) -> tuple[str, str | None] | None:
        """17.2: a set-up placement is secret until its side's set-up is revealed; 19.8: a command naming a unit
        of a hidden movement box (a recovery, a replacement) is its owner's secret."""
        placement = secret_placement(scenario, side, cmd, _setup.COMMANDS)
        if placement is not None:
            return placement
        if cmd.get("type") in hidden_setup.COMMANDS:
            return "a hidden movement box", side  # 19.8 B: the boxes and their markers are the owner's
        boxed = _kh.secret_units(scenario.hidden_movement) | _maybe_boxed(scenario)
        if boxed and any(isinstance(v, str) and boxed.get(v) == side for v in cmd.values()):
            return "an action", side
        return None

    def interrupt(self, ctx: StdCtx) -> bool:
        """19.8 D: a marker in sight of an enemy unit is revealed at once (hidden.interrupt)."""
        return ctx.sc.hidden_movement is not None and hidden.interrupt(ctx)

    def tasks(self) -> Mapping[str, TaskHandler]:
        return TASKS

    def decisions(self) -> Mapping[str, DecisionHandler]:
        return DECISIONS

    def after_command(self, ctx: StdCtx) -> None:
        if ctx.st.phase in (PHASE_OVER, PHASE_SETUP):
            return
        # 12.1, 12.2 depend only on where the units stand and whether they exert ZOC: unchanged position, no check
        key = (tuple(map(_POSITION, ctx.st.units.values())), tuple(ctx.inactive()))
        if ctx.st.squares:
            squares.sweep(ctx)  # 9.5: a square whose unit has left its hex is gone
        if ctx.x.get("open_order"):
            open_order.sweep(ctx)  # 19.10: stacked, disrupted or eliminated, the marker goes
        if ctx.sc.special.line is not None:
            line.sweep(ctx)  # 19.7 A: stacked, disrupted or eliminated, the marker goes
        if key != self._army_key:
            phases.army_conditions(ctx)
            self._army_key = (key[0], tuple(ctx.inactive()))
        _victory.update_control(ctx)
        victory.track(ctx)  # 18.2 (S68): a trains that moved

    def finish_game(self, ctx: StdCtx, result: dict[str, Any]) -> None:
        phases.finish_game(ctx, result)

    def points(self, ctx: StdCtx) -> dict[str, int]:
        return victory.points(ctx)  # 18.3 or the kernel's schedule (S19)

    # --- the bots' heuristics ------------------------------------------------------------------
    def bot_factors(self, scenario: ScenarioModel, unit: UnitState) -> tuple[int, int, int]:
        """A combat unit's CF (artillery: attack and defence; a parenthesised CF halved when attacking, 7.7),
        halved when disrupted (2.8(3)); a V MA counts 3, a die's mean; leaders, HQ and trains 0."""
        sc = _std(scenario)
        d = sc.units[unit.id]
        if not d.kind.is_combat:
            return 0, 0, max(d.inactive_ma, 1) if d.kind in (Kind.HQ, Kind.TRAINS) else 6
        side = printed_side(sc, unit)
        if d.kind is Kind.ARTILLERY:
            attack, defence = side.attack, side.defense
        else:
            attack = (side.cf + 1) // 2 if side.parenthesized else side.cf
            defence = side.cf
        if unit.disrupted:
            attack = (attack + 1) // 2
        return attack, defence, max(side.ma if side.ma is not None else 3, 1)

    def bot_terrain_defence(self, scenario: ScenarioModel, hex_: str) -> int:
        """7.7: terrain that halves attacks into the hex is worth about two factors to its defender."""
        sc = _std(scenario)
        t = sc.terrain_at(hex_)
        return 2 if t.halves_attack_into or any(x.halves_attack_into for x in sc.secondary_at(hex_)) else 0

    def bot_objectives(self, scenario: ScenarioModel) -> tuple[Objective, ...]:
        """18.0 (S69): the scenario's objectives and its conditions' hexes (victory.bot_objectives)."""
        return victory.bot_objectives(_std(scenario))

    def bot_plan(self, scenario: ScenarioModel) -> BotPlan | None:
        """The march on a large field and the breach of 18.2's works (botplan.py), computed once per battle: each bot
        decision asks for it (`bot_expects`, the evaluation)."""
        known = self._plans.get(id(scenario))
        if known is None or known[0] is not scenario:  # the id of a scenario collected since may be reused
            if len(self._plans) > 64:
                self._plans.clear()
            known = self._plans[id(scenario)] = (scenario, botplan.bot_plan(_std(scenario)))
        return known[1]

    def bot_expects(self, scenario: ScenarioModel) -> bool:
        """Only on a large field (a battle with a march plan, Königgrätz): there a works hex in an enemy ZOC is taken
        only by an advance after combat (7.12), which one imagined roll before the defender's tactic never sees. The
        small battles' bots, and their pinned games, stay on one imagined roll."""
        return self.bot_plan(scenario) is not None

    def bot_control(self, game: Game) -> dict[str, str]:
        return {**game.state.control, **game.state.extra.get("entered", {})}  # 18.1: the last side to enter

    def bot_loss_points(self, game: Game) -> dict[str, int] | None:
        """18.3's points from enemy losses (objectives apart), when the scenario counts them."""
        return victory.loss_points(StdCtx.of(game))

    def stacking_ok(self, kinds: list[Any]) -> bool:
        """5.2: at most STACK_LIMIT units that count for stacking in a hex."""
        return sum(1 for k in kinds if k.counts_for_stacking) <= STACK_LIMIT

    # --- results and checks ----------------------------------------------------------------
    def crt_column(self, differential: int) -> int:
        return column_of(differential)

    def crt_column_label(self, column: int) -> str:
        return COLUMN_LABELS[column]

    def crt_result(self, differential: int, combat_die: int) -> str:
        return str(crt_result(differential, combat_die))

    def crt_row(self, differential: int) -> list[str]:
        return [str(r) for r in crt_row(differential)]

    def morale_passes(self, die: int, rating: int) -> bool:
        return morale_passes(die, rating)

    def halve(self, value: int, times: int) -> int:
        return halve(value, times)

    # --- options, bots, invariants, the page ------------------------------------------------
    def options(self, game: Game, side: str, units: list[str]) -> dict[str, Any]:
        return _options.unit_options(game, side, units)

    def preview(self, game: Game, side: str, command: Any) -> dict[str, Any]:
        return _options.preview_command(game, side, command)

    def legal_commands(self, game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
        return legal.legal_commands(game, side, rng, limit)

    def command_families(self, game: Game, side: str, rng: random.Random) -> list[CommandFamily]:
        return legal.command_families(game, side, rng)

    def can_end_phase(self, game: Game, side: str) -> bool:
        if game.state.decision is not None or game.awaiting != side:
            return False
        if game.state.phase == PHASE_SETUP:  # 17.2, 5.2: every unit placed, stacking and spans kept
            ctx = StdCtx.of(game)
            return _setup.end_problem(ctx, side) is None and hidden_setup.end_problem(ctx, side) is None  # 19.8 B
        # 12.4 (S48): not while a fortune's move obliges the phasing player to attack
        return game.state.phase != PHASE_COMBAT or not attacks.owed_forced(StdCtx.of(game), side)

    def invariants(self, game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
        return _invariants.check_standard_invariants(game, events, phase_before)

    def phase_prompt(self, phase: str) -> tuple[str, str]:
        if phase == PHASE_SETUP:
            return "17.1", "place your units in their set-up areas, then end the set-up"
        verbs = {"movement": "move, recover, replace and re-enter units, then end the phase",
                 "combat": "attack, then end the phase"}
        return "3.2", verbs.get(phase, "")


def _line_view(game: Game, sc: StandardScenario, viewer: str) -> dict[str, Any]:
    """19.7: the side that forms lines, the marker's MA and CF, and each visible line's front hexes (19.7 B)."""
    ln = sc.special.line
    assert ln is not None
    front = {u: list(line_front(sc.grid, s.hex, s.facing)) for u, s in sorted(game.state.units.items())
             if s.facing is not None and s.hex is not None and (not s.provisional or sc.units[u].side == viewer)}
    return {"side": ln.side, "ma": ln.ma, "cf": ln.cf, "front": front}


def _std(scenario: ScenarioModel) -> StandardScenario:
    if not isinstance(scenario, StandardScenario):
        raise ValueError(f"a Standard rules game needs a Standard rules scenario, not {type(scenario).__name__}")  # noqa: TRY004
    return scenario


register(Standard)
