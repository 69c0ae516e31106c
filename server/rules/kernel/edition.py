"""How an edition plugs into the kernel, and the registry of editions (ruleset ids).

An edition (a package beside `kernel/`: `quickplay/`, later `standard/`) subclasses `Edition`
and fills in the hooks below; the kernel's `Game` calls only these.  The kernel never imports an
edition: an edition registers itself (`register`) when its package is imported, and
`server/rules/__init__.py` imports every playable edition.

The hooks, grouped the way docs/engine-contract.md describes them:

* the scenario: `parse_scenario` (the reader of the edition's scenario format);
* turn and procedure: `start` (set-up or the first phase), `commands` (command type -> handler) and
  `command_fields` (the fields each may carry), `secret_command` (whose undo is private),
  `tasks` and `decisions` (the steps of multi-step procedures and the answers to pending decisions),
  `after_command` (bookkeeping after every command, e.g. objective control), `finish_game`, `points`;
* results and checks the procedures share: the CRT (`crt_*`), `morale_passes`, `halve`,
  `stacking_ok`, `leader_lost`;
* options for the page and the bots: `options`, `preview`, `legal_commands`, `command_families`, `can_end_phase`;
* the simulator's extra invariants: `invariants`; the page's phase prompt: `phase_prompt`.

The interface sits below what uses it: the context the rules work in (core.py, whose `Context` holds its
edition), the views and the engine (views.py, game.py, which call the hooks).  So it names neither:
`context` returns an `EngineContext` (what the engine reads of a context, which `core.Context` is), and
the hooks the engine passes itself to take `game: Any`, typed by each edition as the kernel's `Game`, as
the handlers' context is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, Protocol

from .dice import Dice
from .model import BotPlan, Objective, ScenarioModel
from .scenario import UnitKind
from .state import GameState, UnitState

# Handlers take the edition's own context (a `core.Context` subclass made by `Edition.context`), so the
# first parameter is typed by each edition, not here.
CommandHandler = Callable[[Any, str, dict[str, Any]], None]
TaskHandler = Callable[[Any, dict[str, Any]], None]
DecisionHandler = Callable[[Any, dict[str, Any], dict[str, Any]], None]
CommandFamily = Callable[[], list[dict[str, Any]]]


class EngineContext(Protocol):
    """What the engine (game.py) reads of the context an edition's handlers work in (`core.Context`):
    the events they emitted, whether they rolled dice, and `emit` for the engine's own events."""

    events: list[dict[str, Any]]
    rolled: bool

    def emit(self, type_: str, text: str, **data: Any) -> None: ...


class Edition:
    """One edition of the rules.  Every hook raises until the edition supplies it."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # Whether `options()` answers in the shape the computer's movement and combat planners read (`reachable`
    # hexes, `attacks` with their `legal` flag); an edition without it is played by the bots' generic search
    # over `legal_commands` (docs/bots.md). A property of the edition's answers, so no bot names an edition.
    planner_options: ClassVar[bool] = False
    # The die every table of the edition rolls (kernel/dice.py, docs/dice.md): 6 (1..6, R11) or 10 (0..9, R17.1).
    die_faces: ClassVar[int] = 6
    # How many imagined rolls the bots' generic one ply averages for a command that rolls dice (server/bots/greedy.py):
    # a heuristic, never a rule. One keeps the editions' pinned bot games as they were played.
    bot_dice_samples: ClassVar[int] = 1
    # How the bots' generic one ply (`GreedyBot._generic`, docs/bots.md) weighs a command that rolls dice: False, by
    # `bot_dice_samples` imagined rolls; True, by its mean over its first die (stratified, `GreedyBot.expected_value`),
    # each branch played on through the decisions in `bot_follow_up` (those that finish resolving the command:
    # retreats, advances...). A heuristic, never a rule.
    bot_expectation: ClassVar[bool] = False
    bot_follow_up: ClassVar[frozenset[str]] = frozenset()
    # With `bot_expectation`: decisions offering the other side a reaction to the command (first option: none), which
    # the bots assume it takes (its second option, the first reaction offered) when they weigh the command.
    bot_reactions: ClassVar[frozenset[str]] = frozenset()
    # With expectation: a follow-up decision of at most this many options has each tried (the decider's best taken),
    # a larger one its first option (`GreedyBot._follow_choice`).
    bot_follow_up_choices: ClassVar[int] = 4

    # --- the scenario, the state, the context ----------------------------------------
    def parse_scenario(self, data: dict[str, Any], source: str) -> ScenarioModel:
        """Read a scenario written for this edition (`parse_scenario` dispatches here by `ruleset`)."""
        raise NotImplementedError

    def initial_state(self, scenario: ScenarioModel) -> GameState:
        """The state before `start`: every unit of the set-up and the reinforcements, the edition's own
        bookkeeping (`GameState.extra`)."""
        raise NotImplementedError

    def context(self, scenario: ScenarioModel, state: GameState, dice: Dice) -> EngineContext:
        """The context the edition's handlers work in (a `core.Context` subclass over its scenario model)."""
        raise NotImplementedError

    def view_extra(self, game: Any, viewer: str) -> dict[str, Any]:
        """The edition's own fields of the view (docs/engine-contract.md), besides the kernel's."""
        return {}

    def game_options(self, scenario: ScenarioModel) -> dict[str, dict[str, Any]]:
        """The options a game of this scenario may be created with (`Game.new(..., options=)`), each a yes/no
        choice: name -> {"label", "rule", "text"} for the lobby's create form. None by default."""
        return {}

    # --- turn and procedures -------------------------------------------------------
    def start(self, ctx: Any) -> None:
        """Put a new game into its first phase (or set-up)."""
        raise NotImplementedError

    def commands(self) -> Mapping[str, CommandHandler]:
        """Command type -> handler(ctx, side, cmd).  `choose`, `undo` and `resign` are the kernel's."""
        raise NotImplementedError

    def command_fields(self) -> Mapping[str, frozenset[str]]:
        """Command type -> the fields it may carry besides "type" (docs/commands.md); the kernel refuses any
        other field as malformed before the command is judged or logged."""
        raise NotImplementedError

    def secret_command(self, scenario: ScenarioModel, side: str, cmd: dict[str, Any]) -> tuple[str, str | None] | None:
        """For a command that was `side`'s secret (e.g. a set-up placement): what everybody may read of its
        undo ("a set-up placement") and who may read the rest; None for a public command."""
        return None

    def tasks(self) -> Mapping[str, TaskHandler]:
        raise NotImplementedError

    def decisions(self) -> Mapping[str, DecisionHandler]:
        raise NotImplementedError

    def after_command(self, ctx: Any) -> None:
        """Run after every command once no task is left to drive (e.g. objective control)."""

    def interrupt(self, ctx: Any) -> bool:
        """Asked by the task driver before every step: an event that happens the instant the position allows it
        (e.g. a hidden movement marker coming into sight, kernel/hidden.py) pushes its own tasks, setting any
        pending decision aside to come back after them; True when it did."""
        return False

    def finish_game(self, ctx: Any, result: dict[str, Any]) -> None:
        raise NotImplementedError

    def points(self, ctx: Any) -> dict[str, int]:
        raise NotImplementedError

    # --- results and checks --------------------------------------------------------
    def crt_column(self, differential: int) -> int:
        raise NotImplementedError

    def crt_column_label(self, column: int) -> str:
        raise NotImplementedError

    def crt_result(self, differential: int, combat_die: int) -> str:
        raise NotImplementedError

    def crt_row(self, differential: int) -> list[str]:
        raise NotImplementedError

    def morale_passes(self, die: int, rating: int) -> bool:
        raise NotImplementedError

    def halve(self, value: int, times: int) -> int:
        raise NotImplementedError

    def stacking_ok(self, kinds: list[UnitKind]) -> bool:
        raise NotImplementedError

    def leader_lost(self, two_dice_total: int) -> bool:
        raise NotImplementedError

    # --- what the computer opponent weighs (server/bots: heuristics, never rules) -------------
    def bot_factors(self, scenario: ScenarioModel, unit: UnitState) -> tuple[int, int, int]:
        """(attack, defence, movement) of the unit's side now showing, for the bots' evaluation."""
        raise NotImplementedError

    def bot_terrain_defence(self, scenario: ScenarioModel, hex_: str) -> int:
        """What the hex's terrain adds to a defence, for the bots' evaluation."""
        raise NotImplementedError

    def bot_objectives(self, scenario: ScenarioModel) -> tuple[Objective, ...]:
        """The hexes the bots' evaluation plays toward, each weighted in points for the side that scores it: the
        scenario's objectives, and whatever else an edition's victory rules make worth holding."""
        return scenario.victory.objectives

    def bot_expects(self, scenario: ScenarioModel) -> bool:
        """Whether the bots' one ply weighs the battle's commands by expectation (`bot_expectation`'s way, through
        `bot_follow_up` and `bot_reactions`): the edition's flag, or its own choice by battle (a heuristic)."""
        return self.bot_expectation

    def bot_plan(self, scenario: ScenarioModel) -> BotPlan | None:
        """An operational plan the bots' evaluation adds to its terms (None: none, the evaluation as it always was);
        computed once per scenario, from what both players see."""
        return None

    def bot_control(self, game: Any) -> dict[str, str]:
        """Who holds each of `bot_objectives`' hexes now (the last side to occupy it, as the engine keeps it)."""
        return dict(game.state.control)

    def bot_loss_points(self, game: Any) -> Mapping[str, float] | None:
        """Each side's victory points from enemy losses now, when the edition counts them its own way (None: the
        scenario's kernel schedule, as the bots have always counted them)."""
        return None

    # --- options, bots, invariants, the page -----------------------------------------
    def options(self, game: Any, side: str, units: list[str]) -> dict[str, Any]:
        raise NotImplementedError

    def preview(self, game: Any, side: str, command: Any) -> dict[str, Any]:
        """Judge one exact command as `submit` would, without applying it (the page's odds)."""
        raise NotImplementedError

    def legal_commands(self, game: Any, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
        raise NotImplementedError

    def command_families(self, game: Any, side: str, rng: random.Random) -> list[CommandFamily]:
        raise NotImplementedError

    def can_end_phase(self, game: Any, side: str) -> bool:
        raise NotImplementedError

    def invariants(self, game: Any, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
        return []

    def phase_prompt(self, phase: str) -> tuple[str, str]:
        """(rule number of the turn sequence, what the active player does now) for the page's prompt."""
        raise NotImplementedError


# --- the registry -------------------------------------------------------------------
_EDITIONS: dict[str, type[Edition]] = {}


def register(cls: type[Edition]) -> type[Edition]:
    """Make an edition selectable by its ruleset id.  Only a playable edition may register."""
    if not cls.name:
        raise ValueError("an edition needs its ruleset id in `name`")
    if _EDITIONS.get(cls.name, cls) is not cls:
        raise ValueError(f"ruleset '{cls.name}' is registered twice")
    _EDITIONS[cls.name] = cls
    return cls


def known_rulesets() -> tuple[str, ...]:
    return tuple(sorted(_EDITIONS))


def find_ruleset(name: str) -> Edition:
    """The edition object for a ruleset id; only registered (playable) editions are offered."""
    cls = _EDITIONS.get(name)
    if cls is None:
        raise ValueError(f"ruleset '{name}' is not implemented yet (available: {', '.join(known_rulesets())})")
    return cls()
