"""Stored games as this process reads them: the game row, the engine at its version, the log rows.

Each process keeps the games it serves live in memory: the parsed scenario, the engine at the row's
version (`EngineCache`) and the row's state with its last log rows (`RecentCache`). A read here takes the
engine from those caches when they hold the row's version, else from the stored snapshot (written every
few commands and at the game's end) with the log rows after it replayed through `apply_logged`, the one
way a logged command is applied. The command path (`commands.py`) keeps the caches up to date with what
it writes; `forget` drops a game this process can no longer vouch for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from .. import jsoncodec
from ..errors import not_found
from ..models import Game
from ..models import games_table as GAMES
from . import commandlog
from .commandlog import LogRow
from .engine import EngineCache, RecentCache, ScenarioCache, rules
from .views import GameMeta

# The log's "side" for results the service imposes through the rules core.
REFEREE = "referee"


@dataclass
class LoadedGame:
    row: Game
    scenario: Any
    engine: Any


_LIGHT = ("scenario_json", "snapshot", "initial_snapshot")
_STATELESS = ("snapshot", "initial_snapshot")


def _game_row_statement(deferred: tuple[str, ...], *, for_update: bool) -> Any:
    stmt = (
        select(Game).where(Game.id == bindparam("game_id"))
        .options(*(defer(getattr(Game, column)) for column in deferred))
        .execution_options(populate_existing=True)
    )
    if for_update:
        stmt = stmt.with_for_update(of=GAMES)
    return stmt


# The game row's reads, built once: building a statement and its cache key again on every request
# cost more than running it on the embedded database (the lifecycle's profile, issue 16).
_GAME_ROW = {
    (deferred, for_update): _game_row_statement(deferred, for_update=for_update)
    for deferred in ((), _STATELESS, _LIGHT) for for_update in (False, True)
}

# A new viewer's check of a live game and the log read, as plain statements (`held_live`, `log_rows`).
_SQLITE_VERSION_AND_STATUS = "SELECT version, status FROM games WHERE id = ?"
_PG_VERSION_AND_STATUS = "SELECT version, status FROM games WHERE id = $1"
_PLAIN_LOG_ROWS = (
    "SELECT seq, side, user_id, command_id, command, events, created_at FROM game_commands"
    " WHERE game_id = {0} AND seq > {1} AND seq <= {2} ORDER BY seq"
)
_MAX_SEQ = 2**31 - 1  # the column's (Postgres integer) largest value: "no upper bound"


class GameStore:
    """This process's copies of the games it serves (the parse caches) and the reads of stored games."""

    def __init__(self) -> None:
        self.scenarios = ScenarioCache()
        self.engines = EngineCache()
        self.recent = RecentCache()

    async def get_row(
        self, session: AsyncSession, game_id: str, *, for_update: bool = False, light: bool = False,
        stateless: bool = False,
    ) -> Game:
        """The game row with its seats. `light`: without the large JSON columns (the scenario and the
        snapshots), for a caller that only asks who may see or play it; it must not touch them.
        `stateless`: without the snapshots only (a game's summary reads the scenario's title and sides)."""
        if len(game_id) > 32:
            raise not_found()
        stmt = _GAME_ROW[(_LIGHT if light else _STATELESS if stateless else (), for_update)]
        row = (await session.scalars(stmt, {"game_id": game_id})).unique().one_or_none()
        if row is None:
            raise not_found()
        return row

    def scenario_of(self, row: Game) -> Any:
        return self.scenarios.get(row.id, row.scenario_json)

    async def engine_at(self, session: AsyncSession, row: Game) -> Any:
        """A (shared, read-only) engine Game for the row's current version: the cached one, else the
        stored snapshot (at `snapshot_version`) with the logged commands after it replayed."""
        cached = self.engines.get(row.id, row.version)
        if cached is not None:
            return cached
        game = await self.stored_engine(session, row)
        self.engines.put(row.id, row.version, game)
        return game

    async def private_engine(self, session: AsyncSession, row: Game) -> Any:
        """A fresh engine Game at the row's version that nobody else holds (the caller may change it).

        From this process's cached engine when it is at that version (a copy of its state: far cheaper
        than decoding the stored snapshot and replaying the commands after it), else from the row; a
        `light` row's large columns are then read here."""
        cached = self.engines.get(row.id, row.version)
        if cached is not None:
            # Through JSON text, as a stored snapshot is: nothing of the live engine is shared.
            return rules().Game.from_json(cached.scenario, jsoncodec.loads(jsoncodec.dumps(cached.to_json(include_log=False))))
        return await self.stored_engine(session, row)

    async def stored_engine(self, session: AsyncSession, row: Game) -> Any:
        """The game as the database holds it at the row's version: the stored snapshot (at
        `snapshot_version`) with the logged commands after it replayed; a new engine nobody else holds."""
        unloaded = inspect(row).unloaded
        if unloaded & set(_LIGHT):
            await session.refresh(row, [c for c in _LIGHT if c in unloaded])
        game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
        if row.snapshot_version < row.version:
            _replay(game, await self.log_rows(session, row.id, after=row.snapshot_version, upto=row.version))
        return game

    async def load_for_views(self, session: AsyncSession, game_id: str) -> LoadedGame:
        """Like `load`, but when this process already holds the parsed scenario and the engine at the row's
        version it skips reading and decoding the large JSON columns (the hot path of every live update).
        The row it returns must not be asked for `scenario_json`, `snapshot` or `initial_snapshot`."""
        if len(game_id) > 32:
            raise not_found()
        row = (await session.scalars(_GAME_ROW[(_LIGHT, False)], {"game_id": game_id})).unique().one_or_none()
        if row is None:
            raise not_found()
        scenario = self.scenarios.peek(row.id)
        engine = self.engines.get(row.id, row.version)
        if scenario is None or engine is None:
            return await self.load(session, game_id)
        return LoadedGame(row, scenario, engine)

    async def held_live(self, bind: Any, game_id: str) -> tuple[GameMeta, Any, Any] | None:
        """This process's live game (its row's state, the engine at that version, the scenario), when the
        database confirms that the game is still at that version and status: a new viewer's snapshot then
        reads one pair of numbers, not the row, its seats and their users (issue 16). Only a game in
        progress or over qualifies: each change of either moves the version on, whereas a waiting game
        changes without one (a join, a dice contribution). None: read the row (`load_for_views`)."""
        meta = self.recent.meta(game_id)
        if meta is None or meta.status not in ("active", "over") or not meta.seat_ids:
            return None
        engine_game = self.engines.get(game_id, meta.version)
        scenario = self.scenarios.peek(game_id)
        if engine_game is None or scenario is None:
            return None
        stored = await commandlog.plain_read(
            bind,
            lambda conn: conn.execute(_SQLITE_VERSION_AND_STATUS, (game_id,)).fetchone(),
            lambda conn: conn.fetchrow(_PG_VERSION_AND_STATUS, game_id),
        )
        if stored is None or (stored[0], stored[1]) != (meta.version, meta.status):
            return None
        return meta, engine_game, scenario

    async def load(self, session: AsyncSession, game_id: str) -> LoadedGame:
        row = await self.get_row(session, game_id)
        loaded = LoadedGame(row, self.scenario_of(row), await self.engine_at(session, row))
        if row.status == "active":
            self.recent.seed(GameMeta.of(row))  # e.g. a player's snapshot: their first command is quick
        return loaded

    async def engine_with_log(self, session: AsyncSession, row: Game) -> Any:
        """An engine Game that carries its whole command log (snapshots are stored without it), for records."""
        if "log" in row.snapshot and row.snapshot_version == row.version:
            return rules().Game.from_json(self.scenario_of(row), row.snapshot)
        rows = await self.log_rows(session, row.id, upto=row.version)
        # The snapshot with the log up to it, then the commands after it replayed (each appends its own entry).
        before = [
            {"side": r.side, "command": r.command,
             "dice": [d for e in r.events if e.get("type") == "dice" for d in e.get("dice", [])]}
            for r in rows[:row.snapshot_version]
        ]
        game = rules().Game.from_json(self.scenario_of(row), row.snapshot, log=before)
        _replay(game, rows[row.snapshot_version:])
        return game

    async def log_rows(
        self, session: AsyncSession, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[LogRow]:
        """The game's log rows `after` < seq <= `upto`, oldest first, by one plain statement: a snapshot
        of a game in progress (a player reconnecting, a spectator arriving) reads its whole log in one
        step of the event loop, and mapping each row to an ORM object cost 40 us of it here (issue 16).
        Rows never change once written, so the read needs no transaction with the caller's."""
        upper = _MAX_SEQ if upto is None else upto

        def sqlite(conn: Any) -> list[LogRow]:
            return [
                LogRow(game_id, seq, side, user_id, command_id, jsoncodec.loads(command), jsoncodec.loads(events),
                       commandlog.parse_sqlite_timestamp(created_at))
                for seq, side, user_id, command_id, command, events, created_at
                in conn.execute(_PLAIN_LOG_ROWS.format("?", "?", "?"), (game_id, after, upper))
            ]

        async def postgres(conn: Any) -> list[LogRow]:
            return [
                LogRow(game_id, seq, side, user_id, command_id, jsoncodec.loads(command), jsoncodec.loads(events),
                       created_at)
                for seq, side, user_id, command_id, command, events, created_at
                in await conn.fetch(_PLAIN_LOG_ROWS.format("$1", "$2", "$3"), game_id, after, upper)
            ]

        return await commandlog.plain_read(session.bind, sqlite, postgres)

    def replay(self, row: Game, log_rows: list[LogRow]) -> Any:
        """A fresh engine Game: the initial snapshot with the logged commands applied in order."""
        game = rules().Game.from_json(self.scenario_of(row), row.initial_snapshot)
        _replay(game, log_rows)
        return game

    def forget(self, game_id: str) -> None:
        """Drop this process's live state of a game (changed outside the command path, or unsure)."""
        self.engines.drop(game_id)
        self.recent.drop(game_id)


def _replay(engine_game: Any, log_rows: list[LogRow]) -> None:
    """Apply stored log rows, oldest first, to an engine Game."""
    for entry in log_rows:
        apply_logged(engine_game, entry.side, entry.command)


def apply_logged(engine_game: Any, side: str, command: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply one logged command to an engine Game (replays use exactly this path)."""
    if side == REFEREE and command.get("type") == "adjudicate":
        return list(engine_game.end_by_referee(command.get("winner"), command.get("reason", "adjudicated")))
    # undo and resign are commands of the rules core like any other.
    return list(engine_game.submit(side, command))


__all__ = ["REFEREE", "GameStore", "LoadedGame", "apply_logged"]
