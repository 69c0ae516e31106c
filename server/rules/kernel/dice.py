"""Dice (R11): every die is rolled by the server from a per-game secret seed.

Die number n of a game is derived from HMAC-SHA256(seed, n), so the whole
sequence is fixed by the seed, independent of Python's random module, and can
be re-derived by anyone once the seed is published at the end of the game.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol


class Dice(Protocol):
    count: int

    def roll(self) -> int: ...


def seed_hash(seed: str) -> str:
    """The commitment published when the game starts."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def die_from_seed(seed: str, index: int) -> int:
    """The index-th die of the game, uniform on 1..6 (rejection sampling on bytes)."""
    counter = 0
    while True:
        digest = hmac.new(seed.encode("utf-8"), f"{index}:{counter}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:  # 252 = 6 * 42: keeps the six faces exactly equally likely
                return byte % 6 + 1
        counter += 1


class SeededDice:
    """The only dice a real game uses."""

    def __init__(self, seed: str, count: int = 0) -> None:
        self._seed = seed
        self.count = count

    def roll(self) -> int:
        value = die_from_seed(self._seed, self.count)
        self.count += 1
        return value


class LoadedDice:
    """Dice with fixed results, for tests only; the game API never accepts them."""

    def __init__(self, values: list[int]) -> None:
        for v in values:
            if not 1 <= v <= 6:
                raise ValueError(f"a die shows 1 to 6, not {v}")
        self._values = list(values)
        self.count = 0

    def roll(self) -> int:
        if not self._values:
            raise AssertionError("the loaded dice ran out: the test rolled more dice than it loaded")
        self.count += 1
        return self._values.pop(0)

    @property
    def remaining(self) -> int:
        return len(self._values)
