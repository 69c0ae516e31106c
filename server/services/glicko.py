"""Glicko-2 (Glickman, "Example of the Glicko-2 system"), computed by the `glicko2` package.

A game is a rating period of its own for both players (`rate_game`): each is rated against the other's
rating as it stood before the game, so the order in which two processes record two games of different
players never matters, and the lobby's ratings move at every result rather than once a month.

The package's volatility step (the paper's step 5) has one slip: its function f(x) takes the square of the
player's rating μ where the paper has the square of the deviation φ. `_Player` puts φ back. The paper's worked
example hides the slip (its player's μ is 0); a player far from 1500 after a run of surprising results does
not (tests/server/test_ratings.py holds both).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import glicko2

# The system constant τ (the paper: "between 0.3 and 1.2"; its example's 0.5).
TAU = 0.5


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    rd: float
    volatility: float


# An unrated player (the paper's step 1: 1500, 350, 0.06).
NEW_PLAYER = Rating(1500.0, 350.0, 0.06)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


class _Player(glicko2.Player):  # type: ignore[misc]
    _tau = TAU

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        # Step 5.1: f(x) = e^x (Δ² − φ² − v − e^x) / (2 (φ² + v + e^x)²) − (x − a) / τ², with φ the deviation
        # on the Glicko-2 scale (the package keeps it in its private `__rd`).
        ex = math.exp(x)
        phi2 = self._Player__rd ** 2
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau**2


def rate(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """The player's rating after one rating period with these results (opponent's rating before the period,
    score 1, 0.5 or 0). No games: the deviation grows (step 6 alone)."""
    p = _Player(player.rating, player.rd, player.volatility)
    if not results:
        p.did_not_compete()
    else:
        p.update_player([o.rating for o, _ in results], [o.rd for o, _ in results], [s for _, s in results])
    return Rating(float(p.rating), float(p.rd), float(p.vol))


def rate_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (`score_a`: a's score, b's is 1 − it)."""
    return rate(a, [(b, score_a)]), rate(b, [(a, 1.0 - score_a)])


__all__ = ["DRAW", "LOSS", "NEW_PLAYER", "TAU", "WIN", "Rating", "rate", "rate_game"]
