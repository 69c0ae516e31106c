"""Ratings in the database: a rated game's result applied once, in the transaction that records its end.

The command path's compare-and-set moves a game to "over" exactly once, in whichever process wins it
(services/commandlog.py); the rating update runs inside that same transaction, so a retried or raced end
either commits with its ratings or not at all. `rating_changes`' primary key (game, user) is the second lock:
a game's change is inserted before the ratings move, and a game already counted moves nothing.

Both players' rows are created if missing, then locked in user-id order (two games ending at once that
share a player wait for each other, never deadlock), and both are rated against the other's rating before
the game (services/glicko.py). Games against the computer are never rated (the lobby refuses the choice).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Game, PlayerRating
from .glicko import DRAW, LOSS, NEW_PLAYER, WIN, Rating, rate_game


@dataclass(frozen=True, slots=True)
class RatedEnd:
    """A rated game's end as the ratings need it: two different players and the first one's score."""

    game_id: str
    ruleset: str
    first: int  # user id
    second: int
    first_score: float


def rated_end(game_id: str, rated: bool, ruleset: str, seat_ids: Iterable[tuple[str, int]],
              result: dict[str, Any] | None) -> RatedEnd | None:
    """The rating update a game's end calls for, or None: an unrated game, a game without two players (called
    off before anyone joined), or one without a result."""
    seats = sorted(seat_ids)
    if not rated or result is None or len(seats) != 2 or seats[0][1] == seats[1][1]:
        return None
    (side_a, user_a), (_, user_b) = seats
    winner = result.get("winner")
    score = DRAW if winner is None else WIN if winner == side_a else LOSS
    if user_a > user_b:  # the lower user id first: the order rows are locked in
        user_a, user_b, score = user_b, user_a, 1.0 - score
    return RatedEnd(game_id, ruleset, user_a, user_b, score)


def _new_ratings(end: RatedEnd, before: dict[int, Rating]) -> tuple[Rating, Rating]:
    return rate_game(before[end.first], before[end.second], end.first_score)


def _change_rows(end: RatedEnd, before: dict[int, Rating], after: tuple[Rating, Rating]) -> list[tuple[Any, ...]]:
    scores = (end.first_score, 1.0 - end.first_score)
    return [
        (end.game_id, user, end.ruleset, score, before[user].rating, before[user].rd, new.rating, new.rd,
         new.volatility)
        for user, score, new in zip((end.first, end.second), scores, after, strict=True)
    ]


_ENSURE = ("INSERT INTO player_ratings (user_id, ruleset, rating, rd, volatility, games, updated_at)"
           " VALUES ({0}, {1}, {2}, {3}, {4}, 0, {5}) ON CONFLICT (user_id, ruleset) DO NOTHING")
_READ = "SELECT user_id, rating, rd, volatility FROM player_ratings WHERE ruleset = {0} AND user_id IN ({1}, {2})"
_CHANGE = ("INSERT INTO rating_changes (game_id, user_id, ruleset, score, rating_before, rd_before, rating_after,"
           " rd_after, volatility_after, created_at) VALUES ({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9})"
           " ON CONFLICT (game_id, user_id) DO NOTHING")
_MOVE = ("UPDATE player_ratings SET rating = {0}, rd = {1}, volatility = {2}, games = games + 1, updated_at = {3}"
         " WHERE user_id = {4} AND ruleset = {5}")

_Q = tuple("?" for _ in range(10))
_D = tuple(f"${i}" for i in range(1, 11))


def apply_sqlite(conn: sqlite3.Connection, end: RatedEnd, now: str) -> bool:
    """Inside the caller's write transaction (BEGIN IMMEDIATE: SQLite's one writer): apply the game's result.
    `now`: the timestamp as the ORM stores it. False: the game was counted before (nothing changed)."""
    for user in (end.first, end.second):
        conn.execute(_ENSURE.format(*_Q[:6]), (user, end.ruleset, *_new(), now))
    rows = conn.execute(_READ.format(*_Q[:3]), (end.ruleset, end.first, end.second)).fetchall()
    before = {row[0]: Rating(row[1], row[2], row[3]) for row in rows}
    after = _new_ratings(end, before)
    for change in _change_rows(end, before, after):
        if conn.execute(_CHANGE.format(*_Q), (*change, now)).rowcount != 1:
            return False  # counted already: a game's result moves the ratings once (both rows go in together)
    for user, new in zip((end.first, end.second), after, strict=True):
        conn.execute(_MOVE.format(*_Q[:6]), (new.rating, new.rd, new.volatility, now, user, end.ruleset))
    return True


async def apply_postgres(conn: Any, end: RatedEnd, now: datetime) -> bool:
    """As `apply_sqlite`, on an asyncpg connection inside the caller's transaction; the rows are locked
    (lower user id first) so that two games ending at once that share a player are rated one after the other."""
    for user in (end.first, end.second):
        await conn.execute(_ENSURE.format(*_D[:6]), user, end.ruleset, *_new(), now)
    rows = await conn.fetch(_READ.format(*_D[:3]) + " ORDER BY user_id FOR UPDATE", end.ruleset, end.first,
                            end.second)
    before = {row[0]: Rating(row[1], row[2], row[3]) for row in rows}
    after = _new_ratings(end, before)
    for change in _change_rows(end, before, after):
        if await conn.execute(_CHANGE.format(*_D), *change, now) != "INSERT 0 1":
            return False  # counted already (both rows are inserted together, so neither was this time)
    for user, new in zip((end.first, end.second), after, strict=True):
        await conn.execute(_MOVE.format(*_D[:6]), new.rating, new.rd, new.volatility, now, user, end.ruleset)
    return True


def _new() -> tuple[float, float, float]:
    return NEW_PLAYER.rating, NEW_PLAYER.rd, NEW_PLAYER.volatility


# ----------------------------------------------------------------------------------------- reads

async def ratings_of(session: AsyncSession, pairs: Sequence[tuple[int, str]]) -> dict[tuple[int, str], float]:
    """The current rating of each (user id, ruleset) that has one (a player with no rated game has none)."""
    wanted = sorted(set(pairs))
    if not wanted:
        return {}
    rows = await session.execute(
        select(PlayerRating.user_id, PlayerRating.ruleset, PlayerRating.rating)
        .where(tuple_(PlayerRating.user_id, PlayerRating.ruleset).in_(wanted))
    )
    return {(uid, ruleset): rating for uid, ruleset, rating in rows.all()}


# The lobby's rating filter takes bounds in 0..this (Glicko-2 ratings stay far inside it).
RATING_BOUND_MAX = 5000


def creator_rating(game: Game, ratings: dict[tuple[int, str], float]) -> float:
    """The rating of the game's creator in its edition, as the lobby's filter compares it: a player with no
    rated game there stands at Glicko-2's start."""
    return ratings.get((game.created_by, game.ruleset), NEW_PLAYER.rating)


def shown(rating: float | None) -> int | None:
    """A rating as the pages show it: whole points."""
    return None if rating is None else round(rating)


__all__ = ["RATING_BOUND_MAX", "RatedEnd", "apply_postgres", "apply_sqlite", "creator_rating", "rated_end", "ratings_of", "shown"]
