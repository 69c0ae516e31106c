"""Positions under the 2013 edition (seed 001): the shared builder (tests/rules/position.py) with the edition's own
phase-start bookkeeping (7.2's counterattack triggers, 11.1's candidates for recovery), and small helpers."""

from __future__ import annotations

from typing import Any

from position import Position

from server.rules import Game, IllegalCommand
from server.rules.kernel.core import Ctx
from server.rules.quickplay_2013.recovery import note_phase_start
from server.rules.quickplay_2013.triggers import counterattack_eligible


class Position2013(Position):
    def __init__(self, **kw: Any) -> None:
        super().__init__(ruleset="quickplay-2013", **kw)

    def game(self, phase: str = "movement", active: str = "blue", dice: list[int] | None = None,
             turn: int = 1) -> Game:
        game = super().game("movement", active, dice, turn)
        game.state.phase = phase
        ctx = Ctx(game.scenario, game.state, game.ruleset, game._dice)  # type: ignore[arg-type]
        if phase == "combat":
            game.state.ca_eligible = counterattack_eligible(ctx, active)
        else:
            note_phase_start(ctx, active)
        return game


def refused(game: Game, side: str, cmd: dict[str, Any], rule: str) -> IllegalCommand:
    """The command is refused with `rule` and a sentence, and the game is untouched."""
    before = game.to_json()
    try:
        game.submit(side, cmd)
    except IllegalCommand as e:
        assert e.rule == rule, e
        assert e.message and " " in e.message
        assert game.to_json() == before
        return e
    raise AssertionError(f"{cmd} was accepted; expected a refusal under {rule}")


def move(game: Game, units: list[str], path: list[str], side: str = "blue", **extra: Any) -> list[dict[str, Any]]:
    return game.submit(side, {"type": "move", "units": units, "path": path, **extra})


def end_phase(game: Game, side: str | None = None) -> list[dict[str, Any]]:
    return game.submit(side or game.state.active, {"type": "end_phase"})


def choose(game: Game, option_id: str) -> list[dict[str, Any]]:
    d = game.state.decision
    assert d is not None, "no decision is pending"
    return game.submit(d["side"], {"type": "choose", "option": option_id})


def decision(game: Game) -> str | None:
    return game.state.decision["kind"] if game.state.decision else None


def options(game: Game) -> list[str]:
    d = game.state.decision
    return [o["id"] for o in d["options"]] if d else []


def attack(game: Game, target: str, attackers: list[str], side: str = "blue", **extra: Any) -> list[dict[str, Any]]:
    return game.submit(side, {"type": "attack", "target": target, "attackers": attackers, **extra})


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def dice_left(game: Game) -> int:
    return int(game._dice.remaining)  # type: ignore[attr-defined]
