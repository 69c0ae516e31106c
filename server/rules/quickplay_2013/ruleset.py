"""The Quick Play 2013 edition object (seed 001; ruleset id `quickplay-2013`): the hooks the kernel's engine calls
(kernel/edition.py).  Its CRT is RULINGS.md R14's (crt.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..kernel.core import Ctx
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
from ..kernel.game import setup_units
from ..kernel.model import ScenarioModel
from ..kernel.scenario import Scenario, UnitKind, read_scenario
from ..kernel.state import PHASE_MOVEMENT, GameState, UnitState
from . import commands, crt, invariants, legal, options, phases, victory
from .stacking import MOST_UNITS

if TYPE_CHECKING:
    from ..kernel.game import Game


class QuickPlay2013(Edition):
    """Musket & Saber Quick Play, 2013 edition: the five-phase turn of 3.3."""

    name: ClassVar[str] = "quickplay-2013"
    title: ClassVar[str] = "Quick Play (2013)"

    # --- the CRT (7.5, R14) and the checks -------------------------------------------------
    def crt_column(self, differential: int) -> int:
        return column_of(differential)

    def crt_column_label(self, column: int) -> str:
        return COLUMN_LABELS[column]

    def crt_result(self, differential: int, combat_die: int) -> str:
        return crt.crt_result(differential, combat_die).text

    def crt_row(self, differential: int) -> list[str]:
        return crt.crt_row(differential)

    def morale_passes(self, die: int, rating: int) -> bool:
        return crt.morale_passes(die, rating)

    def halve(self, value: int, times: int) -> int:
        return crt.halve(value, times)

    def stacking_ok(self, kinds: list[UnitKind]) -> bool:
        """5.0: any number may stack, but more than three units (leaders apart) are disrupted."""
        return sum(1 for k in kinds if k is not UnitKind.LEADER) <= MOST_UNITS

    def leader_lost(self, two_dice_total: int) -> bool:
        raise NotImplementedError("10.0 (2013): a leader is lost on one die's 5 or 6 (leaders.py), not on two dice")

    # --- the bots' heuristics ---------------------------------------------------------------
    def bot_factors(self, scenario: ScenarioModel, unit: UnitState) -> tuple[int, int, int]:
        d = _scenario(scenario).units[unit.id]
        f = d.ineffective if unit.ineffective else (d.reduced if unit.reduced and d.reduced is not None else d.full)
        impaired = unit.disrupted or unit.ineffective
        return (f.attack + 1) // 2 if impaired else f.attack, f.defense, max(f.ma, 1)

    def bot_terrain_defence(self, scenario: ScenarioModel, hex_: str) -> int:
        return _scenario(scenario).terrain_at(hex_).defense

    # --- the engine's hooks ---------------------------------------------------------------------
    def parse_scenario(self, data: dict[str, Any], source: str) -> Scenario:
        return read_scenario(data, source)

    def initial_state(self, scenario: ScenarioModel) -> GameState:
        """3.2: the set-up ('w/1' placements the side's secret until it has set up), the reinforcements, squares
        set up (9.3), each side's replacement steps (11.2) and the objectives' first owners (3.4)."""
        sc = _scenario(scenario)
        units = setup_units(sc)
        for p in sc.setup:
            units[p.unit].provisional = p.within > 0
            if p.ineffective and sc.units[p.unit].kind not in (UnitKind.ARTILLERY, UnitKind.CAVALRY, UnitKind.LEADER):
                units[p.unit].ineffective, units[p.unit].disrupted = False, True  # T1: infantry disrupts instead
        return GameState(
            scenario=sc.id, ruleset=self.name, turn=1, phase=PHASE_MOVEMENT, active=sc.first_player, units=units,
            squares={p.hex: p.unit for p in sc.setup if p.square},
            replacements={s: sc.sides[s].replacement_steps for s in sc.side_order},
            control={o.hex: o.owner for o in sc.victory.objectives},
        )

    def context(self, scenario: ScenarioModel, state: GameState, dice: Dice) -> Ctx:
        return Ctx(_scenario(scenario), state, self, dice)

    def start(self, ctx: Ctx) -> None:
        commands.start(ctx)

    def commands(self) -> Mapping[str, CommandHandler]:
        return commands.COMMANDS

    def command_fields(self) -> Mapping[str, frozenset[str]]:
        return commands.COMMAND_FIELDS

    def tasks(self) -> Mapping[str, TaskHandler]:
        return commands.TASKS

    def decisions(self) -> Mapping[str, DecisionHandler]:
        return commands.DECISIONS

    def secret_command(self, scenario: ScenarioModel, side: str, cmd: dict[str, Any]) -> tuple[str, str | None] | None:
        return commands.secret_command(_scenario(scenario), side, cmd)

    def after_command(self, ctx: Ctx) -> None:
        victory.update_control(ctx)

    def finish_game(self, ctx: Ctx, result: dict[str, Any]) -> None:
        phases.finish_game(ctx, result)

    def points(self, ctx: Ctx) -> dict[str, int]:
        return victory.points(ctx)

    def options(self, game: Game, side: str, units: list[str]) -> dict[str, Any]:
        return options.unit_options(game, side, units)

    def preview(self, game: Game, side: str, command: Any) -> dict[str, Any]:
        return options.preview_command(game, side, command)

    def legal_commands(self, game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
        return legal.legal_commands(game, side, rng, limit)

    def command_families(self, game: Game, side: str, rng: random.Random) -> list[CommandFamily]:
        return legal.command_families(game, side, rng)

    def can_end_phase(self, game: Game, side: str) -> bool:
        return legal.can_end_phase(game, side)

    def invariants(self, game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
        return invariants.check_invariants(game, events, phase_before)

    def phase_prompt(self, phase: str) -> tuple[str, str]:
        verbs = {"setup": "place your 'within one hex' units, then end the set-up",
                 "movement": "move units (disrupted units roll their allowance first), recover steps, then end the phase",
                 "combat": "attack, bombard or charge, then end the phase"}
        return "3.3", verbs.get(phase, "")


def _scenario(scenario: ScenarioModel) -> Scenario:
    if not isinstance(scenario, Scenario):
        raise ValueError(f"a Quick Play 2013 game needs a Quick Play scenario, not {type(scenario).__name__}")  # noqa: TRY004
    return scenario


register(QuickPlay2013)
