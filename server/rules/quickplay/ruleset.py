"""The Quick Play edition object: the hooks the kernel's engine calls (see kernel/edition.py).

`QuickPlay` is the revised Quick Play rules (the default ruleset, seed 000): its CRT (7.4, R6),
stacking (5.0, R4), morale (7.5), halving (7.4) and leader casualties (10.0), and the tables of its
commands, tasks and decisions.
"""

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
from . import commands as _commands
from . import invariants as _invariants
from . import legal, phases, victory
from . import options as _options

if TYPE_CHECKING:
    from ..kernel.game import Game


# The revised Quick Play CRT as reconstructed in RULINGS.md R6: rows are the combat die 1..6,
# columns the differential bands every edition shares (kernel/crt.py).
_QP_CRT: tuple[tuple[str, ...], ...] = (
    ("Am", "Am", "Ax", "Ar", "Ar", "Ac", "-", "Dr", "Dx"),
    ("Am", "Ax", "Ar", "Ac", "Ac", "-", "Dc", "Dr", "Dx"),
    ("Am", "Ax", "Ar", "Ac", "-", "Dc", "Dr", "Dx", "Dm"),
    ("Ax", "Ac", "Ac", "-", "Dc", "Dr", "Dr", "Dx", "Dm"),
    ("Ax", "Ac", "-", "Dc", "Dc", "Dr", "Dr", "Dm", "Dm"),
    ("Ac", "-", "Dc", "Dr", "Dr", "Dr", "Dx", "Dm", "Dm"),
)


class QuickPlay(Edition):
    """Musket & Saber Quick Play, revised: the seven-phase turn of 3.3."""

    name: ClassVar[str] = "quickplay"
    title: ClassVar[str] = "Quick Play (revised)"
    planner_options: ClassVar[bool] = True  # options.py: reachable hexes, attacks with `legal`

    # --- combat results table (7.4) -------------------------------------
    def crt_column(self, differential: int) -> int:
        return column_of(differential)

    def crt_column_label(self, column: int) -> str:
        return COLUMN_LABELS[column]

    def crt_result(self, differential: int, combat_die: int) -> str:
        return _QP_CRT[combat_die - 1][self.crt_column(differential)]

    def crt_row(self, differential: int) -> list[str]:
        col = self.crt_column(differential)
        return [_QP_CRT[row][col] for row in range(6)]

    # --- the bots' heuristics ---------------------------------------------
    def bot_factors(self, scenario: ScenarioModel, unit: UnitState) -> tuple[int, int, int]:
        d = _qp(scenario).units[unit.id]
        if unit.ineffective:
            f = d.ineffective
        elif unit.reduced and d.reduced is not None:
            f = d.reduced
        else:
            f = d.full
        attack = f.attack if not unit.disrupted else (f.attack + 1) // 2
        return attack, f.defense, max(f.ma, 1)

    def bot_terrain_defence(self, scenario: ScenarioModel, hex_: str) -> int:
        return _qp(scenario).terrain_at(hex_).defense

    # --- stacking (5.0, R4) ---------------------------------------------
    def stacking_ok(self, kinds: list[UnitKind]) -> bool:
        """Up to three combat units of any kind plus one more that is a battalion or artillery unit."""
        combat = [k for k in kinds if k is not UnitKind.LEADER]
        if len(combat) <= 3:
            return True
        if len(combat) == 4:
            return any(k.counts_as_battalion_slot for k in combat)
        return False

    # --- morale (7.5) -----------------------------------------------------
    def morale_passes(self, die: int, rating: int) -> bool:
        if die == 1:
            return True
        if die == 6:
            return False
        return die <= rating

    # --- halving (7.4) ----------------------------------------------------
    def halve(self, value: int, times: int) -> int:
        if times <= 0:
            return value
        if times == 1:
            return (value + 1) // 2
        return 1

    # --- leader casualties (10.0) -----------------------------------------
    def leader_lost(self, two_dice_total: int) -> bool:
        return two_dice_total in (2, 12)


    # --- the engine's hooks (kernel/edition.py) ---------------------------------------
    def parse_scenario(self, data: dict[str, Any], source: str) -> Scenario:
        return read_scenario(data, source)

    def initial_state(self, scenario: ScenarioModel) -> GameState:
        """3.2: the set-up (with 'w/1' placements still the side's secret) and the reinforcements; squares set
        up (9.3), each side's replacement steps (11.4) and the objectives' first owners (14.0)."""
        sc = _qp(scenario)
        units = setup_units(sc)
        for p in sc.setup:
            units[p.unit].provisional = p.within > 0
        return GameState(
            scenario=sc.id, ruleset=self.name, turn=1, phase=PHASE_MOVEMENT, active=sc.first_player,
            units=units, squares={p.hex: p.unit for p in sc.setup if p.square},
            replacements={s: sc.sides[s].replacement_steps for s in sc.side_order},
            control={o.hex: o.owner for o in sc.victory.objectives},
        )

    def context(self, scenario: ScenarioModel, state: GameState, dice: Dice) -> Ctx:
        return Ctx(_qp(scenario), state, self, dice)

    def start(self, ctx: Ctx) -> None:
        _commands.start(ctx)

    def commands(self) -> Mapping[str, CommandHandler]:
        return _commands.COMMANDS

    def tasks(self) -> Mapping[str, TaskHandler]:
        return _commands.TASKS

    def decisions(self) -> Mapping[str, DecisionHandler]:
        return _commands.DECISIONS

    def after_command(self, ctx: Ctx) -> None:
        victory.update_control(ctx)

    def finish_game(self, ctx: Ctx, result: dict[str, Any]) -> None:
        phases.finish_game(ctx, result)

    def points(self, ctx: Ctx) -> dict[str, int]:
        return victory.points(ctx)

    def command_fields(self) -> Mapping[str, frozenset[str]]:
        return _commands.COMMAND_FIELDS

    def secret_command(self, scenario: ScenarioModel, side: str, cmd: dict[str, Any]) -> tuple[str, str | None] | None:
        return _commands.secret_command(_qp(scenario), side, cmd)

    def options(self, game: Game, side: str, units: list[str]) -> dict[str, Any]:
        return _options.unit_options(game, side, units)

    def preview(self, game: Game, side: str, command: Any) -> dict[str, Any]:
        return _options.preview_command(game, side, command)

    def legal_commands(self, game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
        return legal.legal_commands(game, side, rng, limit)

    def command_families(self, game: Game, side: str, rng: random.Random) -> list[CommandFamily]:
        return legal.command_families(game, side, rng)

    def can_end_phase(self, game: Game, side: str) -> bool:
        return legal.can_end_phase(game, side)

    def invariants(self, game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
        return _invariants.check_quickplay_invariants(game, events, phase_before)

    def phase_prompt(self, phase: str) -> tuple[str, str]:
        verbs = {"setup": "place your 'within one hex' units, then end the set-up",
                 "movement": "move units, then end the phase", "recovery": "try step recovery, then end the phase",
                 "combat": "attack, bombard or charge, then end the phase"}
        return "3.3", verbs.get(phase, "")


def _qp(scenario: ScenarioModel) -> Scenario:
    """The kernel's own scenario model, which Quick Play scenarios are read into (`read_scenario`)."""
    if not isinstance(scenario, Scenario):
        raise ValueError(f"a Quick Play game needs a Quick Play scenario, not {type(scenario).__name__}")  # noqa: TRY004
    return scenario


register(QuickPlay)

