"""Standard rules games on hand-made positions (builder.py's ground), driven through the kernel's `Game`."""

from __future__ import annotations

from typing import Any

from server.rules import Game, IllegalCommand, parse_scenario
from server.rules.kernel.dice import LoadedDice


def new_game(data: dict[str, Any], dice: list[int] | None = None) -> Game:
    """A new game of the scenario (blue's movement phase of turn 1); `dice`: loaded dice for what follows."""
    game = Game.new(parse_scenario(data, "test"), "standard-test-seed-0000")
    if dice is not None:
        load(game, dice)
    return game


def load(game: Game, dice: list[int]) -> None:
    count = game.state.dice_count
    game._dice = LoadedDice(dice)
    game._dice.count = count


def refused(game: Game, side: str, cmd: dict[str, Any]) -> IllegalCommand:
    """Submit a command that must be refused; the state must be left exactly as it was."""
    before = game.state.to_json()
    try:
        game.submit(side, cmd)
    except IllegalCommand as e:
        assert game.state.to_json() == before, "a refused command changed the state"
        return e
    raise AssertionError(f"{cmd} was accepted")


def end(game: Game, times: int = 1) -> None:
    for _ in range(times):
        side = game.awaiting
        assert side is not None
        game.submit(side, {"type": "end_phase"})


def hex_of(game: Game, uid: str) -> str | None:
    return game.state.units[uid].hex


def choose(game: Game, side: str, option: str) -> list[dict[str, Any]]:
    return game.submit(side, {"type": "choose", "option": option}) + no_tactic(game)


def submit(game: Game, side: str, cmd: dict[str, Any]) -> list[dict[str, Any]]:
    """Submit a command; a defender's 7.13 tactic decision that follows is answered "none" (tests of part 1's
    combat; the tactics' own tests answer it themselves with `game.submit`)."""
    return game.submit(side, cmd) + no_tactic(game)


def no_tactic(game: Game) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while game.state.decision is not None and game.state.decision["kind"] == "tactic":
        out += game.submit(game.state.decision["side"], {"type": "choose", "option": "none"})
    return out
