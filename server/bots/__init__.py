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
from .resign import should_resign
from .search import SearchBot


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


LEVELS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(level: str, iterations: int | None = None) -> Bot:
    """A bot of `level`. `iterations`: the search level's deterministic budget in nodes per decision
    (None: it thinks for the wall-clock `budget_s` given to `choose`); the other levels ignore it."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})") from None
    bot: Bot = cls(iterations=iterations) if cls is SearchBot else cls()
    return bot


def choose_for(game: Game, side: str, bot: Bot, rng: random.Random, budget_s: float = 1.0) -> dict[str, Any]:
    """Build `side`'s belief game from `game` and ask `bot` for its command."""
    return bot.choose(belief_game(game, side, rng), side, rng, budget_s)


def resign_check(game: Game, side: str, rng: random.Random | None = None) -> bool:
    """Whether `side`'s bot should resign the real `game` now (`resign.should_resign` on its belief)."""
    return should_resign(belief_game(game, side, rng or random.Random(0)), side)


__all__ = ["LEVELS", "Bot", "GreedyBot", "RandomBot", "SearchBot", "belief_game", "choose_for", "copy_game",
           "make_bot", "resign_check", "should_resign"]
