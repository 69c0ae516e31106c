"""Computer opponents (issue 15): a bot is a seat that plays a side through what that side may see.

Pure Python like the rules core (no I/O, no asyncio, no web or database code); it uses only the rules
core's public API (`server.rules`, the `Game` methods) and, for the `random` level, the existing
`server.rules.kernel.randomplayer.RandomPlayer`.

    belief = belief_game(real_game, side, rng)        # the only contact with the real game (belief.py)
    command = make_bot("greedy").choose(belief, side, rng, budget_s=1.0)
    real_game.submit(side, command)

`choose` receives the belief game, never the real one: see docs/bots.md for the honesty argument.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from server.rules import Game
from server.rules.kernel.randomplayer import RandomPlayer

from .belief import belief_game, copy_game
from .greedy import GreedyBot


class Bot(Protocol):
    level: str

    def choose(self, game: Game, side: str, rng: random.Random, budget_s: float = 1.0) -> dict[str, Any]:
        """One legal command for `side` on `game` (a belief game built by `belief_game`)."""
        ...


class RandomBot:
    """The `random` level: exactly `vedette simulate`'s random legal player."""

    level = "random"

    def choose(self, game: Game, side: str, rng: random.Random, budget_s: float = 1.0) -> dict[str, Any]:
        return RandomPlayer(rng).choose(game, side)


LEVELS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(level: str) -> Bot:
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})") from None
    bot: Bot = cls()
    return bot


def choose_for(game: Game, side: str, bot: Bot, rng: random.Random, budget_s: float = 1.0) -> dict[str, Any]:
    """Build `side`'s belief game from `game` and ask `bot` for its command."""
    return bot.choose(belief_game(game, side, rng), side, rng, budget_s)


__all__ = ["LEVELS", "Bot", "GreedyBot", "RandomBot", "belief_game", "choose_for", "copy_game", "make_bot"]
