"""The game service: lobby actions and the one path by which commands change a game.

Each process holds the games it serves live in memory (the engine at the row's version, the
row's state and the last log rows). A command is judged by the rules core against that live
game and stored by ONE compare-and-set write of the log row and the game row
(`services/commandlog.py`), on both databases; the database is the log, and the authority
when two processes race: the write stores nothing if the game moved on, and the process then
re-reads it. Mails a command owes follow its commit (`NotifyHooks.command_stored`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import bindparam, delete, func, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer
from sqlalchemy.orm.attributes import set_committed_value

from .. import jsoncodec
from ..db import begin_write
from ..errors import ApiError, not_found
from ..models import Game, GameCommand, GameSeat, SpectatorConnection, User, utcnow
from ..models import game_states_table as GAME_STATES
from ..models import games_table as GAMES
from . import commandlog
from .access import Viewer, require_seat
from .commandlog import Append, CommitConflict, LogRow
from .engine import EngineCache, RecentCache, ScenarioCache, rules
from .priority import CommandGate
from .views import GameMeta, build_command_answer

log = logging.getLogger(__name__)
_P = ParamSpec("_P")
_R = TypeVar("_R")

SPECTATOR_TTL = timedelta(seconds=90)
UNDO_COMMAND = {"type": "undo"}
RESIGN_COMMAND = {"type": "resign"}
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


# The lifecycle's other statements, built once for the same reason (a join, a handshake, a repeated
# command id); each is executed with its bound values.
_TAKE_FREE_SEAT = (
    update(GAMES)
    # `updated_at`: a dice contribution sent meanwhile changed the snapshot this join rewrites.
    .where(GAMES.c.id == bindparam("game_id"), GAMES.c.status == "waiting",
           GAMES.c.updated_at == bindparam("read_updated_at"))
    .values(status="active", awaiting_since=bindparam("now"), updated_at=bindparam("now"))
)
_SET_STARTING_SNAPSHOTS = (
    # Not "game_id": an UPDATE reserves its columns' names for their new values.
    update(GAME_STATES).where(GAME_STATES.c.game_id == bindparam("of_game"))
    .values(snapshot=bindparam("started_snapshot"), initial_snapshot=bindparam("started_snapshot"))
)
_COMMAND_BY_ID = select(GameCommand).where(
    GameCommand.game_id == bindparam("game_id"), GameCommand.side == bindparam("side"),
    GameCommand.command_id == bindparam("command_id"),
)
_INSERT_GAME = GAMES.insert()
_INSERT_GAME_STATE = GAME_STATES.insert()
_INSERT_SEAT = GameSeat.__table__.insert()
_SQLITE_VERSION_AND_STATUS = "SELECT version, status FROM games WHERE id = ?"
_PG_VERSION_AND_STATUS = "SELECT version, status FROM games WHERE id = $1"
_PLAIN_LOG_ROWS = (
    "SELECT seq, side, user_id, command_id, command, events, created_at FROM game_commands"
    " WHERE game_id = {0} AND seq > {1} AND seq <= {2} ORDER BY seq"
)
_MAX_SEQ = 2**31 - 1  # the column's (Postgres integer) largest value: "no upper bound"
_PLAIN_LIVE_SPECTATORS = "SELECT count(*) FROM spectator_connections WHERE game_id = {0} AND seen_at > {1}"


def _in_flight(
    method: Callable[Concatenate[GameService, _P], Coroutine[Any, Any, _R]],
) -> Callable[Concatenate[GameService, _P], Coroutine[Any, Any, _R]]:
    """The command counts in flight while `method` judges and stores it, for the lobby, which lets it finish
    first (`priority.py`): a bot's, an HTTP client's and a referee's as well as the websocket's (which counts
    from its frame on)."""

    @functools.wraps(method)
    async def counted(self: GameService, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.commands.command():
            return await method(self, *args, **kwargs)

    return counted


class GameService:
    """Per-process service object holding the parse caches; stateless otherwise."""

    def __init__(self, scenario_registry: Any, fixed_seed: str | None = None, *, snapshot_every: int = 32) -> None:
        self.registry = scenario_registry
        # The command path stores the whole state every this many commands (and at the game's end);
        # between them the log rows are the write-ahead log (`engine_at` replays them).
        self.snapshot_every = max(1, snapshot_every)
        self._fixed_seed = fixed_seed  # tests only: Settings refuses it outside VEDETTE_ENV=test
        self.scenarios = ScenarioCache()
        self.engines = EngineCache()
        self.recent = RecentCache()
        # Called inside the service's transactions, before COMMIT (server/notify/hooks.py).
        self.hooks: list[Any] = []
        # Every SQLite write transaction of this process takes this lock or waits for it (the lobby
        # holds it across its awaits; commands and plain writes queue behind it).
        self.sqlite_writer = asyncio.Lock()
        self._game_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # The commands in flight, which the lobby's steps let finish first (`priority.py`).
        self.commands = CommandGate()

    # ---------------------------------------------------------------- loading

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

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self, session: AsyncSession, user: User, scenario_id: str, side: str, visibility: str,
        decision_hours: int | None = None,
    ) -> Game:
        entry = self.registry.get(scenario_id)
        if entry is None:
            raise ApiError(
                422, "unknown_scenario", f"There is no scenario '{scenario_id}'.",
                scenarios=sorted(self.registry.ids()),
            )
        sides = list(entry.scenario.side_order)
        if side == "random":
            side = secrets.choice(sides)
        elif side not in sides:
            raise ApiError(
                422, "unknown_side", f"Scenario '{scenario_id}' has no side '{side}'.", sides=sides
            )
        # The dice (R11, docs/dice.md): the server commits to its seed now (the seed hash in every view);
        # each seat adds its own contribution after seeing it: the creator with `contribute`, the joiner
        # when joining. No die is rolled before both are in.
        engine_game = rules().Game.new(entry.scenario, self._fixed_seed or secrets.token_hex(32), contributions={})
        snapshot = engine_game.to_json(include_log=False)
        now = utcnow()
        row = Game(
            id=secrets.token_urlsafe(9),
            scenario_id=scenario_id,
            scenario_json=dict(entry.raw),
            created_by=user.id,
            visibility=visibility,
            status="waiting",
            invite_token=secrets.token_urlsafe(18),
            watch_token=secrets.token_urlsafe(18),
            version=engine_game.version,
            snapshot=snapshot,
            initial_snapshot=snapshot,
            awaiting_side=engine_game.awaiting,
            awaiting_since=now,
            result=None,
            created_at=now,
            updated_at=now,
            mail_owed=None,
            snapshot_version=0,
        )
        seat = GameSeat(game_id=row.id, side=side, user_id=user.id, joined_at=now)
        await self.commands.yield_to_commands()
        # A write transaction from the start (SQLite: the request already read the session user).
        async with self._writing(session):
            # Three INSERTs of the row's values, not the ORM's unit of work, which cost more than they do
            # (issue 16); `row` and `seat` stay objects of this request only (not in the session).
            await session.execute(_INSERT_GAME, _values(row, GAMES))
            await session.execute(_INSERT_GAME_STATE, _values(row, GAME_STATES, game_id="id"))
            await session.execute(_INSERT_SEAT, _values(seat, GameSeat.__table__))
            for hook in self.hooks:
                await hook.game_created(session, row, decision_hours=decision_hours)
            await session.commit()
        # The row as written, with its one seat: nobody else can have changed a game its creator has not
        # yet shared, so it is not read back (a read decoded the whole scenario again; issue 16).
        set_committed_value(seat, "user", user)
        set_committed_value(row, "seats", [seat])
        return row

    async def contribute(self, session: AsyncSession, user: User, game_id: str, contribution: str) -> dict[str, Any]:
        """A seat's own random contribution to the dice (R11, docs/dice.md), sent after it has seen the
        server's commitment (the seed hash) and before the game starts."""
        async with self._writing(session):
            row = await self.get_row(session, game_id, for_update=True)
            side = require_seat(row, user)
            engine_game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
            if row.status != "waiting" or side in engine_game.contributions:
                raise ApiError(409, "contribution_closed",
                               "This seat's dice contribution is already fixed (the game has started, or it was sent).")
            snapshot = _with_contributions(engine_game, {side: contribution})
            row.snapshot = snapshot
            row.initial_snapshot = snapshot
            row.updated_at = utcnow()  # a join that read the game before this must read it again
            await session.commit()
        self.forget(game_id)
        return {"game": game_id, "side": side, "contribution": contribution, "seed_hash": engine_game.seed_hash}

    async def join_game(
        self, session: AsyncSession, user: User, game_id: str, invite_token: str | None,
        contribution: str | None = None,
    ) -> Game:
        """Take the game's free seat. The row is read, checked and the joiner's mails composed first;
        the write after it is short and takes the seat by compare-and-set (the game still waiting and
        unchanged since that read): on the embedded database a write transaction holds SQLite's only
        write lock, which every command of every game waits for (issue 16)."""
        for _ in (0, 1):
            await session.commit()  # a fresh read: not a snapshot older than another writer's commit
            row = await self.get_row(session, game_id)
            await self.commands.yield_to_commands()  # between the join's steps: `priority.py`
            engine_game, side, values = self._join_plan(row, user, invite_token, contribution)
            await self.commands.yield_to_commands()
            prepared = [await hook.prepare_join(session, row, user, side) for hook in self.hooks]
            await self.commands.yield_to_commands()
            async with self._writing(session):
                taken = await session.execute(
                    _TAKE_FREE_SEAT, {"game_id": row.id, "read_updated_at": row.updated_at, "now": values["now"]}
                )
                if taken.rowcount != 1:
                    continue  # another join or a contribution came first: read the game again
                if values["dice"] is not None:
                    await session.execute(
                        _SET_STARTING_SNAPSHOTS, {"of_game": row.id, "started_snapshot": values["dice"]}
                    )
                seat = GameSeat(game_id=row.id, side=side, user_id=user.id, joined_at=values["now"])
                session.add(seat)
                for hook, plan in zip(self.hooks, prepared, strict=True):
                    await hook.game_joined(session, row, user, side, plan)
                try:
                    await session.commit()
                except IntegrityError:
                    await session.rollback()
                    raise ApiError(409, "game_full", "Both seats of this game are taken.") from None
            break
        else:
            raise ApiError(409, "game_full", "The game changed while you joined; try again.")
        await self.commands.yield_to_commands()  # the write is over: the rest is a step of its own
        # The row after the join is the row read before it with the join's own changes: the compare-and-set
        # took the seat only if nothing had changed the game since that read, and nothing else changes a
        # game before its first command (which needs both seats). Not read back (issue 16).
        set_committed_value(seat, "user", user)
        _set_committed(row, status="active", awaiting_since=values["now"], updated_at=values["now"],
                       seats=sorted([*row.seats, seat], key=lambda s: s.side))
        if values["dice"] is not None:
            _set_committed(row, snapshot=values["dice"], initial_snapshot=values["dice"])
        self.forget(game_id)
        # The process now holds the started game (the engine is the stored snapshot's): the computer's
        # check and the players' first snapshots need no read of their own.
        self.engines.put(game_id, row.version, engine_game)
        self.recent.seed(GameMeta.of(row))
        return row

    def _join_plan(
        self, row: Game, user: User, invite_token: str | None, contribution: str | None,
    ) -> tuple[Any, str, dict[str, Any]]:
        """Whether `user` may take the free seat of `row`: (the started engine, the side, the values
        the join writes), or the refusal."""
        invited = bool(invite_token) and secrets.compare_digest(
            str(invite_token).encode(), row.invite_token.encode()
        )
        if any(seat.user_id == user.id for seat in row.seats):
            raise ApiError(409, "already_seated", "You already play in this game.")
        if row.visibility == "private" and not invited and not user.is_admin:
            # A wrong token answers exactly like none: no stranger learns that the game exists.
            raise not_found()
        if row.status != "waiting":
            raise ApiError(409, "game_full", "Both seats of this game are taken.")
        if row.visibility == "private" and not invited:  # an admin sees the game, but needs its invite to play
            raise ApiError(403, "invite_required", "A seat in a private game needs the game's invite, even for an admin.")
        taken = {seat.side for seat in row.seats}
        free = [s for s in self.scenario_of(row).side_order if s not in taken]
        if not free:
            raise ApiError(409, "game_full", "Both seats of this game are taken.")
        # The joiner's dice contribution, and "" (none) for a creator that has not sent one (docs/dice.md).
        engine_game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
        started_snapshot: dict[str, Any] | None = None  # the game's first snapshot, with every contribution
        if engine_game.dice_scheme != LEGACY_DICE:
            missing = {s: "" for s in taken if s not in engine_game.contributions}
            started_snapshot = _with_contributions(engine_game, {**missing, free[0]: contribution or ""})
        return engine_game, free[0], {"now": utcnow(), "dice": started_snapshot}

    async def list_games(self, session: AsyncSession, user: User | None) -> tuple[list[Game], list[Game]]:
        mine: list[Game] = []
        if user is not None:
            mine = list(
                (
                    await session.scalars(
                        select(Game)
                        # Summaries read the scenario's title and sides, never the state: up to 500
                        # games' snapshots were decoded for nothing on every lobby refresh.
                        .options(defer(Game.snapshot), defer(Game.initial_snapshot))
                        .join(GameSeat, GameSeat.game_id == Game.id)
                        .where(GameSeat.user_id == user.id)
                        .order_by(Game.updated_at.desc())
                        .limit(500)
                    )
                ).unique().all()
            )
        mine_ids = {g.id for g in mine}
        open_games = [
            g
            for g in (
                await session.scalars(
                    select(Game)
                    .options(defer(Game.snapshot), defer(Game.initial_snapshot))
                    .where(Game.visibility == "open", Game.status == "waiting")
                    .order_by(Game.created_at.desc())
                    .limit(200)
                )
            ).unique().all()
            if g.id not in mine_ids
        ]
        return mine, open_games

    async def watchable_games(self, session: AsyncSession, status: str, limit: int = 50) -> list[Game]:
        """Open games in progress ("active") or finished ("over"), newest first: anyone may watch or replay them."""
        return list(
            (
                await session.scalars(
                    select(Game)
                    .options(defer(Game.snapshot), defer(Game.initial_snapshot))
                    .where(Game.visibility == "open", Game.status == status)
                    .order_by(Game.updated_at.desc())
                    .limit(limit)
                )
            ).unique().all()
        )

    async def decision_hours_of(self, session: AsyncSession, game_ids: list[str]) -> dict[str, int | None]:
        """Each game's time per decision (hours; None for no limit), read from the clock rows in one query."""
        from ..notify.models import GameClock

        if not game_ids:
            return {}
        rows = await session.execute(
            select(GameClock.game_id, GameClock.decision_hours).where(GameClock.game_id.in_(game_ids))
        )
        return {gid: hours for gid, hours in rows.all()}

    async def all_games(self, session: AsyncSession, limit: int, offset: int) -> list[Game]:
        return list(
            (
                await session.scalars(
                    select(Game).order_by(Game.updated_at.desc()).limit(limit).offset(offset)
                )
            ).unique().all()
        )

    # --------------------------------------------------------------- commands

    async def write_plain(
        self, bind: Any, sqlite: tuple[str, tuple[Any, ...]], postgres: tuple[str, tuple[Any, ...]]
    ) -> None:
        """One small write without the ORM (`commandlog.plain_write`), queued behind this process's
        SQLite writers as a command is."""
        await commandlog.plain_write(bind, sqlite, postgres, sqlite_writer=self.sqlite_writer)

    @asynccontextmanager
    async def _writing(self, session: AsyncSession) -> AsyncIterator[None]:
        """One write transaction of the lobby (create, join, contribute). On SQLite, writers of this
        process queue on an asyncio lock instead of on SQLite's busy handler, which sleeps in steps
        of up to 100 ms. Commands do not come here: they take `commandlog.append`."""
        # End whatever read transaction the request had: a write must start as one.
        await session.commit()
        lock = self.sqlite_writer if session.bind.dialect.name == "sqlite" else None
        if lock is not None:
            await lock.acquire()
        try:
            await begin_write(session)
            yield
        finally:
            if session.in_transaction():
                await session.rollback()
            if lock is not None:
                lock.release()

    def _game_lock(self, game_id: str) -> asyncio.Lock:
        """Commands for one game in this process are judged one at a time (the engine is mutable)."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock

    async def submit(
        self,
        session: AsyncSession,
        game_id: str,
        user: User | None,
        command: dict[str, Any],
        expected_version: int | None,
        command_id: str | None,
        *,
        undo: bool = False,
        note_events: list[dict[str, Any]] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Judge and store one player's command. Returns (answer, newly_applied)."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        if command.get("type") == "adjudicate":
            raise ApiError(422, "illegal_command", "Only the referee adjudicates.", rule="commands")
        stored_command = dict(UNDO_COMMAND) if undo else command
        return await self._command(
            session, game_id, user.id, None, stored_command, expected_version, command_id or uuid.uuid4().hex,
            note_events=note_events, fresh_id=command_id is None,
        )

    async def referee(
        self, session: AsyncSession, game_id: str, command: dict[str, Any], *, user_id: int | None,
        command_id: str, expected_version: int, expected_status: str = "active",
    ) -> tuple[dict[str, Any], bool]:
        """A result the service imposes through the rules core (a deadline claimed, a game abandoned
        before its second player came): the same path as a player's command, logged as the referee's."""
        return await self._command(
            session, game_id, user_id, REFEREE, command, expected_version, command_id,
            expected_status=expected_status,
        )

    async def live_game(self, session: AsyncSession, game_id: str) -> tuple[GameMeta, Any, Any]:
        """This process's live game: its row's state (`GameMeta`), the engine at that version and the
        parsed scenario. Read from the database only when this process does not hold it (first
        sight of the game, or after `forget`): then one read of the row, its seats and snapshot.
        The engine is the shared one: callers read it and never change it (standing orders, the
        computer's turn check); `private_engine` gives a copy to change."""
        if len(game_id) > 32:
            raise not_found()
        meta = self.recent.meta(game_id)
        scenario = self.scenarios.peek(game_id)
        engine_game = self.engines.get(game_id, meta.version) if meta is not None else None
        if meta is not None and scenario is not None and engine_game is not None and meta.seat_ids:
            return meta, engine_game, scenario
        await session.commit()  # a fresh read: not a snapshot older than another writer's commit
        row = await self.get_row(session, game_id)
        meta = GameMeta.of(row)
        self.forget(game_id)
        self.recent.seed(meta)
        return meta, await self.engine_at(session, row), self.scenario_of(row)

    @_in_flight
    async def _command(
        self,
        session: AsyncSession,
        game_id: str,
        user_id: int | None,
        referee_side: str | None,
        command: dict[str, Any],
        expected_version: int | None,
        command_id: str,
        *,
        note_events: list[dict[str, Any]] | None = None,
        expected_status: str = "active",
        fresh_id: bool = False,
    ) -> tuple[dict[str, Any], bool]:
        """THE command path, for every command on both databases (docs/engine-contract.md, "The command
        path"): judged by the rules core against this process's live game, then stored by one
        compare-and-set write (`commandlog.append`). If another process moved the game first, the
        write stores nothing, this process re-reads the game, and the answer is what the new state
        says (the first answer of a repeated command id, else 409 with the current version)."""
        async with self._game_lock(game_id):
            for attempt in (0, 1):
                meta, _, scenario = await self.live_game(session, game_id)
                side = referee_side or next((s for s, uid in meta.seat_ids if uid == user_id), None)
                if side is None:  # the routes answered strangers to a private game already (404)
                    raise ApiError(403, "not_a_player", "Only the game's two players may send commands.")
                viewer = Viewer("seat", side, user_id)

                # A command applied before moved the version on, so a repeat can only come with a
                # stale expected_version (or none); at the current version the unique index on
                # (game, side, command_id) catches any reuse.
                # `fresh_id`: the service made the id up for this call (a resignation by the page's button,
                # say): no earlier command can carry it, so there is nothing to look up.
                if not fresh_id and (expected_version is None or expected_version != meta.version):
                    earlier = self.recent.command(game_id, side, command_id)
                    if earlier is None:
                        earlier = await self._find_command(session, game_id, side, command_id)
                    if earlier is not None:
                        return build_command_answer(earlier, viewer, scenario), False

                # Every 409 of a command carries the game's current version: a client that raced
                # another command (which may have ended the game) knows where to resynchronise.
                if meta.status != expected_status:
                    if attempt == 0:
                        # Before refusing, read the row itself: a reader that loaded the game just before a
                        # join (or an end) committed may have left this process's cache one status behind.
                        self.forget(game_id)
                        continue
                    if meta.status == "waiting":
                        raise ApiError(409, "game_not_started", "The game waits for its second player.",
                                       version=meta.version)
                    if meta.status == "over":
                        raise ApiError(409, "game_over", "The game is over.", result=meta.result,
                                       version=meta.version)
                    raise ApiError(409, "game_started", "The game has started; resign instead.", version=meta.version)
                if expected_version is not None and expected_version != meta.version:
                    if expected_version > meta.version and attempt == 0:
                        self.forget(game_id)  # another process is ahead of this one: catch up, judge again
                        continue
                    raise ApiError(
                        409, "stale_version",
                        f"The game is at version {meta.version}, not {expected_version}; refresh and decide again.",
                        version=meta.version,
                    )

                engine_game = self.engines.take(game_id, meta.version)
                if engine_game is None:  # dropped meanwhile (e.g. a lobby change): read it again
                    self.forget(game_id)
                    continue
                previous_awaiting = engine_game.awaiting
                try:
                    events = apply_logged(engine_game, side, command)
                except rules().IllegalCommand as exc:
                    # The rules core leaves the state untouched on refusal: keep the object.
                    self.engines.put(game_id, meta.version, engine_game)
                    if attempt == 0 and await self._moved_elsewhere(session, game_id, meta.version):
                        self.forget(game_id)  # judged against a state another process has replaced
                        continue
                    error = exc.to_json() if hasattr(exc, "to_json") else {"error": "illegal_command"}
                    raise ApiError(422, error.get("error", "illegal_command"), exc.message, rule=exc.rule) from None
                except Exception as exc:  # a rules-core bug must not become a 500 or a stored command
                    self.forget(game_id)
                    log.exception("rules core failed on %s command in game %s", side, game_id)
                    raise ApiError(
                        422, "illegal_command",
                        f"The rules core could not apply this command ({type(exc).__name__}).", rule="commands",
                    ) from None
                return await self._store(
                    session, meta, scenario, engine_game, side, user_id, viewer, command, command_id,
                    [*note_events, *events] if note_events else events, previous_awaiting, expected_status,
                )
        raise ApiError(409, "stale_version", "The game changed while this command was judged; try again.")

    async def _store(
        self, session: AsyncSession, meta: GameMeta, scenario: Any, engine_game: Any, side: str,
        user_id: int | None, viewer: Viewer, command: dict[str, Any], command_id: str,
        events: list[dict[str, Any]], previous_awaiting: str | None, expected_status: str,
    ) -> tuple[dict[str, Any], bool]:
        game_id = meta.id
        over = bool(engine_game.is_over)
        new_version = meta.version + 1
        awaiting = None if over else engine_game.awaiting
        seat_sides = frozenset(s for s, _ in meta.seat_ids)
        mail_owed = any(hook.mail_owed(game_id, seat_sides, engine_game, previous_awaiting) for hook in self.hooks)
        now = utcnow()
        write = Append(
            game_id=game_id, version=meta.version, expected_status=expected_status,
            status="over" if over else "active", side=side, user_id=user_id, command_id=command_id,
            command=command, events=events,
            # The whole state every `snapshot_every` versions and at the end (the finished game's record);
            # otherwise the log row alone carries the command (migration 0005).
            snapshot=engine_game.to_json(include_log=False) if over or new_version % self.snapshot_every == 0 else None,
            awaiting=awaiting, result=engine_game.result if over else None, mail_owed=mail_owed, now=now,
        )
        try:
            since = await commandlog.append(session, write, sqlite_writer=self.sqlite_writer)
        except CommitConflict:
            self.forget(game_id)
            return await self._answer_after_race(session, game_id, side, command_id, user_id, scenario)
        except BaseException:
            self.forget(game_id)  # the engine holds a command that may not be stored
            raise
        entry = LogRow(
            game_id=game_id, seq=new_version, side=side, user_id=user_id, command_id=command_id,
            command=command, events=events, created_at=now,
        )
        self.engines.put(game_id, new_version, engine_game)
        # Built whole rather than by dataclasses.replace, which reads the class's fields on every call.
        self.recent.put(GameMeta(
            id=meta.id, version=new_version, status=write.status, visibility=meta.visibility,
            awaiting_since=since, result=write.result if over else meta.result,
            seat_names=meta.seat_names, seat_ids=meta.seat_ids,
        ), entry)
        if mail_owed:
            for hook in self.hooks:
                hook.command_stored(game_id, new_version, previous_awaiting)
        return build_command_answer(entry, viewer, scenario), True

    async def _moved_elsewhere(self, session: AsyncSession, game_id: str, version: int) -> bool:
        """Whether the stored game is past `version` (another process wrote it): a refusal is only
        answered once it is known to be judged against the current state."""
        if session.bind.dialect.name != "postgresql":
            return False  # SQLite is served by one process: this one
        await session.commit()
        current = await session.scalar(select(Game.version).where(Game.id == game_id))
        return current is not None and current != version

    def visible_live(self, game_id: str, user: User) -> bool:
        """Whether the live game (if this process serves it) shows `user` it exists: a seat, an open
        game, or an admin (server/services/access.py `resolve_viewer`). False means "ask the row"."""
        meta = self.recent.meta(game_id)
        if meta is None:
            return False
        return meta.visibility == "open" or user.is_admin or any(uid == user.id for _, uid in meta.seat_ids)

    def live_seat(self, game_id: str, user: User | None) -> Viewer | None:
        """The seat `user` holds in the live game this process serves, without a read: a seat, once
        taken, is never given up or changed, so the live game's seats are the row's. None: not known
        here (ask the row, `access.resolve_viewer`, which also answers spectators and admins)."""
        meta = self.recent.meta(game_id) if user is not None else None
        if meta is None or user is None:
            return None
        side = next((side for side, uid in meta.seat_ids if uid == user.id), None)
        return Viewer("seat", side, user.id) if side is not None else None

    def forget(self, game_id: str) -> None:
        """Drop this process's live state of a game (changed outside the command path, or unsure)."""
        self.engines.drop(game_id)
        self.recent.drop(game_id)

    async def _find_command(
        self, session: AsyncSession, game_id: str, side: str, command_id: str
    ) -> GameCommand | None:
        """The command `side` sent earlier with this id. Ids are each seat's own (unique per game,
        side and id): the other seat's command with the same id is not this one, and is never
        answered to this seat."""
        return await session.scalar(_COMMAND_BY_ID, {"game_id": game_id, "side": side, "command_id": command_id})

    async def _answer_after_race(
        self, session: AsyncSession, game_id: str, side: str, command_id: str, user_id: int | None, scenario: Any
    ) -> tuple[dict[str, Any], bool]:
        await session.commit()  # see the racing writer's commit
        earlier = await self._find_command(session, game_id, side, command_id)
        if earlier is not None:
            return build_command_answer(earlier, Viewer("seat", side, user_id), scenario), False
        current = await session.scalar(select(Game.version).where(Game.id == game_id))
        raise ApiError(
            409,
            "stale_version",
            "Another command for this game was accepted first; refresh and decide again.",
            version=current,
        )

    async def resign(self, session: AsyncSession, game_id: str, user: User | None) -> Game:
        """Resign, or call off a game nobody joined (`resign_version`); the game's row after it."""
        await self.resign_version(session, game_id, user)
        await session.commit()  # a fresh read: the command was written outside this session's transaction
        return await self.get_row(session, game_id, stateless=True)

    async def resign_version(self, session: AsyncSession, game_id: str, user: User | None) -> int:
        """Resign (the rules core ends the game for the opponent), or call off a game nobody joined;
        returns the game's version after it. A game in progress that this process holds live takes the
        command path with no read of its row (a game's last command costs what any command costs)."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        meta = self.recent.meta(game_id)
        if meta is not None and meta.status == "active":
            answer, _ = await self.submit(session, game_id, user, dict(RESIGN_COMMAND), None, None)
            return int(answer["version"])
        row = await self.get_row(session, game_id, light=True)
        if row.status == "waiting":
            require_seat(row, user)
            command = {"type": "adjudicate", "winner": None, "reason": "abandoned before the second player joined"}
            answer, _ = await self.referee(session, game_id, command, user_id=user.id, command_id=uuid.uuid4().hex,
                                           expected_version=row.version, expected_status="waiting")
        else:
            answer, _ = await self.submit(session, game_id, user, dict(RESIGN_COMMAND), None, None)
        await session.commit()
        return int(answer["version"])

    # ------------------------------------------------------------- spectators

    async def add_spectator(self, session: AsyncSession, connection_id: str, game_id: str) -> None:
        session.add(SpectatorConnection(id=connection_id, game_id=game_id, seen_at=utcnow()))
        await session.commit()

    async def remove_spectator(self, session: AsyncSession, connection_id: str) -> None:
        await session.execute(delete(SpectatorConnection).where(SpectatorConnection.id == connection_id))
        await session.commit()

    async def touch_spectators(self, session: AsyncSession, connection_ids: list[str]) -> None:
        if not connection_ids:
            return
        now = utcnow()
        await session.execute(
            update(SpectatorConnection).where(SpectatorConnection.id.in_(connection_ids)).values(seen_at=now)
        )
        await session.execute(
            delete(SpectatorConnection).where(SpectatorConnection.seen_at < now - SPECTATOR_TTL * 4)
        )
        await session.commit()

    async def spectator_counts(self, session: AsyncSession, game_ids: list[str]) -> dict[str, int]:
        """Live spectators of each of `game_ids` (0 for a game nobody watches), in one read."""
        counts = dict.fromkeys(game_ids, 0)
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start:start + 500]
            rows = await session.execute(
                select(SpectatorConnection.game_id, func.count())
                .where(
                    SpectatorConnection.game_id.in_(chunk),
                    SpectatorConnection.seen_at > utcnow() - SPECTATOR_TTL,
                )
                .group_by(SpectatorConnection.game_id)
            )
            for game_id, count in rows:
                counts[game_id] = int(count)
        return counts

    async def spectator_count(self, session: AsyncSession, game_id: str) -> int:
        """A game's live spectators, by one plain statement (a new game's first snapshot asks; the ORM's
        session and statement cost more than a millisecond of its handshake, issue 16)."""
        since = utcnow() - SPECTATOR_TTL

        def sqlite(conn: Any) -> Any:
            return conn.execute(_PLAIN_LIVE_SPECTATORS.format("?", "?"),
                                (game_id, commandlog.sqlite_timestamp(since))).fetchone()[0]

        async def postgres(conn: Any) -> Any:
            return await conn.fetchval(_PLAIN_LIVE_SPECTATORS.format("$1", "$2"), game_id, since)

        return int(await commandlog.plain_read(session.bind, sqlite, postgres) or 0)


LEGACY_DICE = "vedette-dice-1"


def _values(obj: Any, table: Any, **renamed: str) -> dict[str, Any]:
    """`obj`'s value of every column of `table` (an INSERT's parameters); `renamed`: a column whose
    attribute has another name (the state's `game_id` is the game's `id`)."""
    return {column.key: getattr(obj, renamed.get(column.key, column.key)) for column in table.columns}


def _set_committed(row: Game, **values: Any) -> None:
    """Set a loaded row's attributes to what the database now holds, without marking them changed."""
    for name, value in values.items():
        set_committed_value(row, name, value)


def _with_contributions(engine_game: Any, contributions: dict[str, str]) -> dict[str, Any]:
    """The game's snapshot with these seats' dice contributions added (before any command)."""
    for side, value in contributions.items():
        try:
            engine_game.contribute(side, value)
        except ValueError as exc:
            raise ApiError(422, "bad_contribution", str(exc)) from None
    snapshot: dict[str, Any] = engine_game.to_json(include_log=False)
    return snapshot


def _json(value: Any) -> str:
    return jsoncodec.dumps(value)


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


__all__ = ["GameService", "LoadedGame", "apply_logged"]
