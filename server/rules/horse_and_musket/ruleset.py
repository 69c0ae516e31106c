"""Horse and Musket's edition object (seed 003 + R16, ruleset `horse-and-musket`): the hooks the kernel's engine calls
(kernel/edition.py) and the tables of the edition's commands, tasks and decisions.

Commands (R16.19): `rally` (2.1), `play_card` (R16.10: Aide-de-camp, Steady Lads), `end_step` (and the kernel's
`end_phase`, the same here), `charge` (4.1), `move` (4.2), `general` (R16.11), `fire` (5). Decision:
`charge_reaction` (4.1.3, 4.1.4), asked of the charged unit's side in the middle of the charger's turn.
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
from ..kernel.errors import IllegalCommand, MalformedCommand
from ..kernel.game import setup_units
from ..kernel.model import Objective, ScenarioModel
from ..kernel.state import PHASE_OVER, PHASE_RECOVERY, GameState, UnitState
from . import botvalue, charges, command, deck, firing, legal, moves, rally, turn, victory
from . import invariants as _invariants
from . import options as _options
from .context import HMCtx
from .scenario import HMScenario, parse_hm_scenario
from .tables import AIDE, CARD_NAMES, STEADY_LADS, VOLLEY, Kind

if TYPE_CHECKING:
    from ..kernel.game import Game

EDITION_KEY = "horse-and-musket"


def _end_step(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    turn.end_step(ctx, side)


def _rally(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    g, u, path = cmd.get("general"), cmd.get("unit"), cmd.get("path")
    if not isinstance(g, str) or not isinstance(u, str) or not isinstance(path, list) or not all(
            isinstance(h, str) for h in path):
        raise MalformedCommand("a rally names its general, its unit and the general's path")
    rally.cmd_rally(ctx, side, g, u, path)


def _play_card(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    """R16.10's cards played on their own: Aide-de-camp (command step, a general) and Steady Lads (after a failed
    charge test, the unit). The others go with a move, charge or fire command (`card`)."""
    card = cmd.get("card")
    if card not in CARD_NAMES:
        raise MalformedCommand(f"'card' is one of {', '.join(CARD_NAMES)}")
    if card == AIDE:
        gid = cmd.get("general")
        if not isinstance(gid, str):
            raise MalformedCommand("Aide-de-camp names the general whose roll it re-rolls")
        if ctx.step != "command":
            raise IllegalCommand("R16.10", "Aide-de-camp is played in the command step")
        deck.check(ctx, side, card, gid, (AIDE,))
        if gid not in ctx.sc.units or ctx.side_of(gid) != side:
            raise IllegalCommand("R16.10", "re-roll one of your own generals' command rolls")
        if not any(g["general"] == gid for g in (ctx.x.get("command") or {}).get("groups", [])):
            raise IllegalCommand("R16.10", f"{ctx.says(gid)} made no command roll this turn")
        deck.spend(ctx, side, card, gid)
        command.aide_de_camp(ctx, side, gid)
        return
    if card == STEADY_LADS:
        uid = cmd.get("unit")
        if not isinstance(uid, str):
            raise MalformedCommand("Steady Lads names the unit whose charge test it re-rolls")
        if ctx.step != "charges":
            raise IllegalCommand("R16.10", "Steady Lads is played in the charge step")
        charges.steady_lads(ctx, side, uid)
        return
    raise IllegalCommand("R16.10", f"{CARD_NAMES[card]} is played with a command ('card'), not on its own")


def _fire(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
    uid, target, card = cmd.get("unit"), cmd.get("target"), cmd.get("card")
    if not isinstance(uid, str) or not isinstance(target, str):
        raise MalformedCommand("a fire command names the firing unit and its target")
    if ctx.step != "firing":
        raise IllegalCommand("5", "units fire in the firing step")
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid) or ctx.is_general(uid):
        raise IllegalCommand("5", "fire with one of your units on the map")
    if card is not None:
        card = deck.check(ctx, side, card, uid, (VOLLEY,))
    firing.judge_fire(ctx, uid, target, volley=card is not None)
    if card is not None:
        deck.spend(ctx, side, card, uid)
    ctx.listed("fired").append(uid)
    firing.fire(ctx, uid, target, volley=card is not None)


def _clears_steady(handler: CommandHandler) -> CommandHandler:
    """R16.10: Steady Lads comes right after the failed test, before any other command."""

    def run(ctx: HMCtx, side: str, cmd: dict[str, Any]) -> None:
        if not (cmd.get("type") == "play_card" and cmd.get("card") == STEADY_LADS):
            ctx.x["steady_for"] = None
        handler(ctx, side, cmd)

    return run


COMMANDS: dict[str, CommandHandler] = {name: _clears_steady(h) for name, h in {
    "end_step": _end_step,
    "end_phase": _end_step,
    "rally": _rally,
    "play_card": _play_card,
    "charge": charges.cmd_charge,
    "move": moves.cmd_move,
    "general": moves.cmd_general,
    "fire": _fire,
}.items()}

COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "end_step": frozenset(),
    "end_phase": frozenset(),
    "rally": frozenset({"general", "unit", "path"}),
    "play_card": frozenset({"card", "general", "unit"}),
    "charge": frozenset({"unit", "target", "path", "card"}),
    "move": frozenset({"unit", "legs", "formation", "formation_at", "deploy_facing", "deploy_at", "card"}),
    "general": frozenset({"general", "path"}),
    "fire": frozenset({"unit", "target", "card"}),
}

TASKS: dict[str, TaskHandler] = {
    "hm_charge": charges.task_charge,
    "hm_enter": turn.task_enter,
}

DECISIONS: dict[str, DecisionHandler] = {
    "charge_reaction": charges.decide,
}


class HorseAndMusket(Edition):
    """Horse and Musket (seed 003) on hexes, as R16 adapts it."""

    name: ClassVar[str] = "horse-and-musket"
    title: ClassVar[str] = "Horse and Musket"
    # a charge's test (4.1.1), a fire's dice, a rally's d3: one imagined roll would make the bots' ply choose by luck
    bot_dice_samples: ClassVar[int] = 4

    def parse_scenario(self, data: dict[str, Any], source: str) -> HMScenario:
        return parse_hm_scenario(data, source)

    def initial_state(self, scenario: ScenarioModel) -> GameState:
        """R16.6: the fixed set-up, every unit's facing and formation (R16.3-R16.5), no hits; both decks shuffled
        (R16.10: kept sorted, drawn from uniformly); the objectives' first holders (R16.18)."""
        sc = _hm(scenario)
        units = setup_units(sc)
        info: dict[str, Any] = {}
        for p in sc.setup:
            if p.facing is not None:
                units[p.unit].facing = p.facing
                info[p.unit] = {"formation": p.formation, "hits": 0}
        return GameState(
            scenario=sc.id, ruleset=self.name, turn=1, phase=PHASE_RECOVERY, active=sc.side_order[0], units=units,
            control={o.hex: o.owner for o in sc.victory.objectives},
            extra={"units": info, "step": "", "order": [], "player_turn": 0, "colours": [], "guns": {},
                   "breached": [], "first_fire": [], **{k: [] for k in turn.PER_TURN}, "command": None,
                   "steady_for": None, "cards": deck.initial(sc.side_order)},
        )

    def context(self, scenario: ScenarioModel, state: GameState, dice: Dice) -> HMCtx:
        return HMCtx(_hm(scenario), state, self, dice)

    def view_extra(self, game: Game, viewer: str) -> dict[str, Any]:
        return {EDITION_KEY: _options.view(HMCtx.of(game))}

    def start(self, ctx: HMCtx) -> None:
        turn.open_battle(ctx)

    def commands(self) -> Mapping[str, CommandHandler]:
        return COMMANDS

    def command_fields(self) -> Mapping[str, frozenset[str]]:
        return COMMAND_FIELDS

    def tasks(self) -> Mapping[str, TaskHandler]:
        return TASKS

    def decisions(self) -> Mapping[str, DecisionHandler]:
        return DECISIONS

    def after_command(self, ctx: HMCtx) -> None:
        if ctx.st.phase != PHASE_OVER:
            victory.update_control(ctx)

    def finish_game(self, ctx: HMCtx, result: dict[str, Any]) -> None:
        turn.finish(ctx, result)

    def points(self, ctx: HMCtx) -> dict[str, int]:
        return victory.points(ctx)

    # --- checks the kernel and the bots ask -------------------------------------------------------
    def stacking_ok(self, kinds: list[Any]) -> bool:
        """R16.3: one unit to a hex, any number of generals."""
        return sum(1 for k in kinds if k is not Kind.GENERAL) <= 1

    def morale_passes(self, die: int, rating: int) -> bool:
        return die >= rating

    def bot_factors(self, scenario: ScenarioModel, unit: UnitState) -> tuple[int, int, int]:
        """(attack, defence, movement) for the bots' evaluation: a unit's basic dice with a grade's weight, halved when
        staggered; guns count their shots; generals 0."""
        d = _hm(scenario).units[unit.id]
        if d.kind is Kind.GENERAL:
            return 0, 0, 5
        weight = {"elite": 5, "average": 4, "levy": 3}.get(d.grade, 2)
        if d.kind is Kind.ARTILLERY:
            attack, defence, ma = 4, 1, 3
        elif d.kind is Kind.WAGONS:
            attack, defence, ma = 0, 0, 3
        else:
            attack = defence = weight + (1 if d.kind is Kind.HC else 0)
            ma = 5 if d.kind.cavalry else 3 if d.kind is Kind.LI else 2
        if unit.reduced:
            attack, defence = (attack + 1) // 2, (defence + 1) // 2
        return attack, defence, ma

    def bot_terrain_defence(self, scenario: ScenarioModel, hex_: str) -> int:
        sc = _hm(scenario)
        return 2 if sc.cover_hex(hex_) else 1 if sc.elevation_at(hex_) else 0

    def bot_objectives(self, scenario: ScenarioModel) -> tuple[Objective, ...]:
        """R16.18's objectives, and for the side that does not hold one at the start the hexes within 2 of it (2 points
        next to it, 1 beyond): the ground an attack on it is fought from, so the bots bring more than one unit to it
        and close to musket range of its holder (a heuristic, never a rule)."""
        sc = _hm(scenario)
        out = list(sc.victory.objectives)
        taken = {o.hex for o in out}
        for o in sc.victory.objectives:
            if o.owner is None:
                continue
            for n in sc.grid.within(o.hex, 2):
                if n not in taken and sc.may_enter(Kind.CO, n):
                    taken.add(n)
                    near = sc.grid.distance(n, o.hex) == 1
                    out.append(Objective(n, n, 2 if near else 1, None, sc.opponent(o.owner)))
        return tuple(out)

    def bot_loss_points(self, game: Game) -> dict[str, float]:
        """Each side's value for the bots beyond the objectives (botvalue.py: losses and hits, the fights and the fire
        to come, closing in; a heuristic, never a rule)."""
        return botvalue.values(HMCtx.of(game))

    # --- options, bots, invariants, the page --------------------------------------------------------
    def options(self, game: Game, side: str, units: list[str]) -> dict[str, Any]:
        return _options.unit_options(game, side, units)

    def preview(self, game: Game, side: str, command: Any) -> dict[str, Any]:
        return _options.preview(game, side, command)

    def legal_commands(self, game: Game, side: str, rng: random.Random, limit: int) -> Iterator[dict[str, Any]]:
        return legal.legal_commands(game, side, rng, limit)

    def command_families(self, game: Game, side: str, rng: random.Random) -> list[CommandFamily]:
        return legal.command_families(game, side, rng)

    def can_end_phase(self, game: Game, side: str) -> bool:
        st = game.state
        return (st.decision is None and game.awaiting == side and st.phase != PHASE_OVER
                and st.extra.get("step") != "melee")

    def invariants(self, game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
        return _invariants.check(game, events)

    def phase_prompt(self, phase: str) -> tuple[str, str]:
        verbs = {"recovery": "roll for initiative (a new battle), rally, or see your command rolls (Aide-de-camp), "
                             "then end the step",
                 "movement": "declare charges, then move, then end the step",
                 "combat": "fire, then end the step (hand-to-hand follows)"}
        return "R16.6", verbs.get(phase, "")


def _hm(scenario: ScenarioModel) -> HMScenario:
    if not isinstance(scenario, HMScenario):
        raise ValueError(f"a Horse and Musket game needs a Horse and Musket scenario, not {type(scenario).__name__}")  # noqa: TRY004
    return scenario


register(HorseAndMusket)
