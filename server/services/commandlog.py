"""The game log as the authoritative game's write-ahead log: one compare-and-set write per command.

A command the rules core accepted against this process's live game at version n is stored by ONE
atomic write, the same on both databases:

* the game row moves from n to n + 1 only if it is still at n and in the expected status
  (`UPDATE games ... WHERE id = ? AND version = n AND status = ?`): of racing writers, in this
  process or another, exactly one moves it; the whole state (`game_states.snapshot`, `snapshot_version`,
  migrations 0005 and 0007) is written with it only every N commands and at the game's end: in
  between the log row is the write-ahead log a loading process replays;
* the log row (game, seq n + 1, side, command id, command, events) is inserted in the same
  transaction, and the unique (game, seq) and (game, side, command id) indexes back the
  compare-and-set up;
* the game's decision clock restarts (`CLOCK_RESTART_SQL`, the same rule as
  server/notify/hooks.py `restart_clock`);
* `mail_owed` marks a command whose mails follow after the commit (migration 0004).

Postgres runs it as one statement on the driver, in autocommit (one round trip). The embedded
SQLite file is written from the event loop's own thread through a plain `sqlite3` connection in
WAL mode: the write takes tens of microseconds, less than one hand-off to aiosqlite's thread. It
never waits for a lock while holding the loop: a busy database is retried after yielding.

If the compare-and-set fails nothing is written and `CommitConflict` is raised: another writer
moved the game first, or this command id was already used.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import asyncpg
from asyncpg.exceptions import (
    ConnectionDoesNotExistError,
    InterfaceError,
    InternalClientError,
    PostgresConnectionError,
    UniqueViolationError,
)
from sqlalchemy.ext.asyncio import AsyncSession

from .. import jsoncodec
from ..db import DRIVER_PARAMS, WAL_AUTOCHECKPOINT_PAGES, WAL_SIZE_LIMIT_BYTES
from ..errors import Overloaded
from . import ratings
from .ratings import RatedEnd

log = logging.getLogger(__name__)

_T = TypeVar("_T")

# server/notify/hooks.py `restart_clock` as one UPDATE, for the command path's single-statement commit:
# services/commandlog.py PG_APPEND_SQL fills in {game} (the updated game row), {awaiting} (the side
# whose decision it now is) and {0} (the notify hooks' clock, `Notify.now`). Postgres only;
# tests/notify/test_quick_clock.py holds the two to the same answers.
CLOCK_RESTART_SQL = """
    UPDATE game_clocks SET side = {awaiting}, reminded_at = NULL, overdue_since = NULL,
        updated_at = {0}::timestamptz,
        started_at = CASE WHEN {awaiting} IS NULL OR COALESCE(decision_hours, 0) = 0
                          THEN NULL ELSE {0}::timestamptz END,
        deadline_at = CASE WHEN {awaiting} IS NULL OR COALESCE(decision_hours, 0) = 0 THEN NULL
                           ELSE GREATEST({0}::timestamptz, paused_until) + make_interval(hours => decision_hours) END
    FROM {game} WHERE game_clocks.game_id = {game}.id
"""


class CommitConflict(Exception):
    """The compare-and-set found the game moved on (or the command id taken): nothing was written."""


@dataclass(frozen=True, slots=True)
class LogRow:
    """A stored log row as the process that wrote it keeps it (the `GameCommand` columns, without
    the ORM's bookkeeping, which cost as much as the rest of building it)."""

    game_id: str
    seq: int
    side: str
    user_id: int | None
    command_id: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Append:
    """One command's write: the game row from `version` to `version + 1`, and its log row."""

    game_id: str
    version: int
    expected_status: str
    status: str
    side: str
    user_id: int | None
    command_id: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    snapshot: dict[str, Any] | None  # None: the row keeps its older snapshot (migration 0005)
    awaiting: str | None
    result: dict[str, Any] | None
    mail_owed: bool
    now: datetime
    # A rated game's end: both ratings move in the same transaction as the end (services/ratings.py).
    rated: RatedEnd | None = None


PG_APPEND_SQL = """
WITH g AS (
    UPDATE games SET version = $3, updated_at = $5::timestamptz,
        awaiting_since = CASE WHEN awaiting_side IS DISTINCT FROM $6::text
                              THEN $5::timestamptz ELSE awaiting_since END,
        awaiting_side = $6::text, status = $12::text, result = $13::json,
        mail_owed = CASE WHEN $14::boolean THEN $3 ELSE mail_owed END
    WHERE id = $1 AND version = $2 AND status = $15::text
    RETURNING id, awaiting_since
), s AS (
    UPDATE game_states SET snapshot = $4::json, snapshot_version = $3
    FROM g WHERE game_states.game_id = g.id AND $4::json IS NOT NULL
), c AS (
    INSERT INTO game_commands (game_id, seq, side, user_id, command_id, command, events, created_at)
    SELECT id, $3, $7, $8, $9, $10::json, $11::json, $5::timestamptz FROM g
    RETURNING seq
), clock AS ({clock})
SELECT g.awaiting_since FROM g, c
""".format(clock=CLOCK_RESTART_SQL.format("$5", game="g", awaiting="$6::text"))


async def append(
    session: AsyncSession, write: Append, *, sqlite_writer: asyncio.Lock | None = None
) -> datetime | None:
    """Store one command (see the module's docstring); returns the game's `awaiting_since` after it.
    `sqlite_writer`: the lock this process's other SQLite writers (the lobby, presence, mails) hold
    for their transactions; a command that finds it taken waits for it instead of retrying in steps."""
    if session.bind.dialect.name == "postgresql":
        return await _append_postgres(session, write)
    return await _append_sqlite(session, write, sqlite_writer)


async def _append_postgres(session: AsyncSession, w: Append) -> datetime | None:
    params = (
        w.game_id, w.version, w.version + 1, None if w.snapshot is None else jsoncodec.dumps(w.snapshot),
        w.now, w.awaiting,
        w.side, w.user_id, w.command_id, jsoncodec.dumps(w.command), jsoncodec.dumps(w.events),
        w.status, None if w.result is None else jsoncodec.dumps(w.result), w.mail_owed, w.expected_status,
    )
    # A connection of the command path's own driver pool, outside the session (whatever the request
    # read stays there): the statement runs in autocommit, as its own transaction.
    pool = await _pg_pool(session.bind)
    for attempt in (1, 2):
        try:
            if w.rated is None:
                stored = await _fetchrow(pool, PG_APPEND_SQL, *params)
            else:
                stored = await _append_rated_end(pool, params, w.rated, w.now)
            break
        except UniqueViolationError:
            raise CommitConflict from None  # a racing request stored this command id first
        except DROPPED_CONNECTION:
            # A connection the database dropped (a restart, a killed backend): the pool replaces it.
            # Trying again is safe: had the first try committed, the compare-and-set now refuses the
            # repeat and the command id finds the first answer.
            if attempt == 2:
                raise
    if stored is None:
        raise CommitConflict
    since: datetime | None = stored["awaiting_since"]
    return since


async def _append_rated_end(pool: Any, params: tuple[Any, ...], end: RatedEnd, now: datetime) -> Any:
    """A rated game's last command: the compare-and-set and both players' ratings in one transaction (a
    game ends once; its ratings move with that end or not at all)."""
    async with _connection(pool) as connection, connection.transaction():
        stored = await connection.fetchrow(PG_APPEND_SQL, *params)
        if stored is not None:
            await ratings.apply_postgres(connection, end, now)
        return stored


# What a pooled connection the database dropped (a restart, a killed backend) raises at its next use: the protocol's
# own state error too, when the backend's goodbye reached the idle connection before the next statement did.
DROPPED_CONNECTION = (OSError, PostgresConnectionError, InterfaceError, ConnectionDoesNotExistError,
                      InternalClientError)


@asynccontextmanager
async def _connection(pool: Any) -> AsyncIterator[Any]:
    """A connection of the command path's pool, given back without waiting for it. asyncpg returns a
    connection in a task of its own (`asyncio.shield`), so `async with pool.acquire()` and the pool's
    `fetchrow`/`execute` resumed their caller only two or three turns of the event loop later, each as
    long as whatever the loop ran meanwhile: under the 200-game load, 2-3 ms of the slowest commands'
    7 ms, while the lobby's requests ran (issue 16). The connection is free for the next user once its
    release has run, a turn later; a transaction block opened on it ends before then."""
    try:
        connection = await pool.acquire(timeout=_ACQUIRE_TIMEOUT.get(id(pool), 2.0))
    except TimeoutError:
        raise Overloaded("every connection of the command path's pool is busy") from None
    try:
        yield connection
    except DROPPED_CONNECTION:
        connection.terminate()  # closed, so the pool opens a new one in its place rather than hand this one on
        raise
    finally:
        releasing = asyncio.ensure_future(pool.release(connection))
        _RELEASING.add(releasing)
        releasing.add_done_callback(_released)


async def _fetchrow(pool: Any, sql: str, *args: Any) -> Any:
    async with _connection(pool) as connection:
        return await connection.fetchrow(sql, *args)


# The pool's wait for a free connection (Settings.db_pool_timeout), by pool: past it, `Overloaded` (503).
_ACQUIRE_TIMEOUT: dict[int, float] = {}

_RELEASING: set[asyncio.Future[Any]] = set()  # held until done: the loop keeps only weak references to tasks


def _released(releasing: asyncio.Future[Any]) -> None:
    _RELEASING.discard(releasing)
    if not releasing.cancelled() and releasing.exception() is not None:
        log.warning("returning a command connection to its pool failed", exc_info=releasing.exception())


# Per database and event loop: (the loop, its pool). The loop is kept to tell a live loop from a closed
# one whose id a new loop reuses (test apps start and stop loops; a late write may make a pool at exit).
_PG_POOLS: dict[tuple[str, str, int], tuple[asyncio.AbstractEventLoop, Any]] = {}


async def _keep_session(_connection: Any) -> None:
    """The pool's reset of a released connection, which does nothing more. asyncpg's own reset sent
    `SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL` on every release, a second
    round trip that each command's acknowledgement waited for (`Pool.fetchrow` releases before it
    returns; issue 16). This pool's connections keep no session state to undo: every statement runs in
    autocommit or in a transaction block that ends before release, and nothing here sets a variable,
    listens, opens a cursor or takes an advisory lock. A transaction left open is still rolled back
    by asyncpg before this is called."""


async def _pg_pool(bind: Any) -> Any:
    """The command path's asyncpg pool for this engine's database, on the running event loop: the driver
    directly, without the ORM pool's checkout machinery (a greenlet hand-off and its events cost more
    than the statement's own client-side work). Idle connections close after a minute."""
    dsn, server_settings, size, acquire_timeout = DRIVER_PARAMS[bind.sync_engine]
    loop = asyncio.get_running_loop()
    key = (dsn, repr(sorted(server_settings.items())), id(loop))
    held = _PG_POOLS.get(key)
    if held is None or held[0] is not loop:  # none yet, or one of a closed loop that had the same id
        made = await asyncpg.create_pool(
            dsn, min_size=0, max_size=size, max_inactive_connection_lifetime=60.0,
            server_settings=server_settings or None, reset=_keep_session,
        )
        current = _PG_POOLS.get(key)
        if current is not None and current[0] is loop:  # another request made one meanwhile
            await made.close()
            return current[1]
        _PG_POOLS[key] = (loop, made)
        _ACQUIRE_TIMEOUT[id(made)] = acquire_timeout
        return made
    return held[1]


async def close_pools() -> None:
    """Close the command path's driver pools of the running event loop (the app's shutdown)."""
    running = asyncio.get_running_loop()
    pending = [task for task in _RELEASING if task.get_loop() is running]
    if pending:  # connections on their way back to a pool (`_connection`)
        await asyncio.gather(*pending, return_exceptions=True)
    loop = id(running)
    for key in [k for k in _PG_POOLS if k[2] == loop]:
        await _PG_POOLS.pop(key)[1].close()


async def close_engine(engine: Any) -> None:
    """Close an engine together with the command path's driver pools of the running event loop. An engine
    disposed alone leaves those pools' connections open after its loop ends (a script or test that runs
    `asyncio.run` per step would hold a pool of backends per step until Postgres runs out of connections)."""
    await close_pools()
    await engine.dispose()


# ------------------------------------------------------------------------------------------ SQLite

_SQLITE: dict[str, sqlite3.Connection] = {}
# How long a write waits for another connection's transaction (seconds), yielding to the loop between tries.
SQLITE_BUSY_WAIT = 30.0


def _sqlite_connection(database: str) -> sqlite3.Connection:
    conn = _SQLITE.get(database)
    if conn is None:
        conn = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a committed transaction survives the process being killed (SIGKILL);
        # only an operating-system crash may lose the last ones (docs/benchmarks.md).
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        # Never wait inside SQLite: that would hold the event loop. A busy database raises at once
        # and the write is retried after yielding (`_append_sqlite`).
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")  # see server/db.py
        conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT_BYTES}")
        _SQLITE[database] = conn
    return conn


def close_sqlite_connections() -> None:
    for conn in _SQLITE.values():
        conn.close()
    _SQLITE.clear()


def _ts(value: datetime | None) -> str | None:
    """SQLAlchemy's SQLite storage format for `UTCDateTime` (naive UTC, microseconds always)."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def _parse_ts(text: str | None) -> datetime | None:
    if text is None:
        return None
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


async def _append_sqlite(session: AsyncSession, w: Append, writer: asyncio.Lock | None = None) -> datetime | None:
    conn = _sqlite_connection(_sqlite_database(session.bind))
    return await _sqlite_retrying(lambda: _write_sqlite(conn, w), writer)


def _sqlite_database(bind: Any) -> str:
    # The engine's URL object carries the path already: parsing its text again cost a percent of a command.
    database = bind.url.database
    if not database or database == ":memory:":
        raise RuntimeError("the embedded database must be a file (DATABASE_URL=sqlite+aiosqlite:///path)")
    return str(database)


async def _sqlite_retrying(write: Callable[[], _T], writer: asyncio.Lock | None) -> _T:
    """Run one synchronous SQLite write transaction on the event loop's thread, never waiting inside
    SQLite: behind this process's other writer (`writer`) when it holds the lock, else retried after
    growing pauses while another connection or process writes."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + SQLITE_BUSY_WAIT
    delay = 0.0005
    while True:
        try:
            if writer is not None and writer.locked():
                # Another writer of this process holds SQLite's write lock across its awaits: queue
                # behind it and write the moment it is done (retrying in growing steps cost up to a
                # step's length of latency after it had finished).
                await asyncio.wait_for(writer.acquire(), max(give_up - loop.time(), 0.001))
                try:
                    return write()
                finally:
                    writer.release()
            return write()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if loop.time() > give_up:
                raise
        # Busy with no writer of ours queued: another process or connection (e.g. a CLI) writes.
        await _busy_pause(delay)
        delay = min(delay * 2, 0.02)


async def plain_write(
    bind: Any, sqlite: tuple[str, tuple[Any, ...]], postgres: tuple[str, tuple[Any, ...]],
    *, sqlite_writer: asyncio.Lock | None = None,
) -> None:
    """One small write statement in a transaction of its own, without the ORM: on Postgres on the
    command path's driver pool, on SQLite on the loop thread's plain connection (as `append`). For
    the per-connection bookkeeping that every game's players cause (presence rows)."""
    if bind.dialect.name == "postgresql":
        sql, args = postgres
        async with _connection(await _pg_pool(bind)) as conn:
            await conn.execute(sql, *args)
        return
    conn = _sqlite_connection(_sqlite_database(bind))
    sql, args = sqlite

    def write() -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(sql, args)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    await _sqlite_retrying(write, sqlite_writer)


async def plain_transaction(
    bind: Any, sqlite: Callable[[sqlite3.Connection], _T], postgres: Callable[[Any], Awaitable[_T]],
    *, sqlite_writer: asyncio.Lock | None = None,
) -> _T:
    """A short write transaction of several statements without the ORM, as `plain_write`:
    `sqlite(conn)` runs synchronously between BEGIN IMMEDIATE and COMMIT on the loop thread's plain
    connection (never yielding while it holds SQLite's write lock); `postgres(conn)` runs in a
    transaction on a connection of the command path's driver pool. For the outbox's claims."""
    if bind.dialect.name == "postgresql":
        async with _connection(await _pg_pool(bind)) as conn, conn.transaction():
            return await postgres(conn)
    conn = _sqlite_connection(_sqlite_database(bind))

    def write() -> _T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = sqlite(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result

    return await _sqlite_retrying(write, sqlite_writer)


async def plain_read(
    bind: Any, sqlite: Callable[[sqlite3.Connection], _T], postgres: Callable[[Any], Awaitable[_T]],
) -> _T:
    """One read without the ORM (the outbox's look for due mail on every poll, a session's user): on Postgres read
    again once on a fresh connection if the pooled one was dropped (a read is always safe to repeat)."""
    if bind.dialect.name == "postgresql":
        pool = await _pg_pool(bind)
        for attempt in (1, 2):
            try:
                async with _connection(pool) as conn:
                    return await postgres(conn)
            except DROPPED_CONNECTION:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
    return sqlite(_sqlite_connection(_sqlite_database(bind)))


def parse_sqlite_timestamp(text: str | None) -> datetime | None:
    return _parse_ts(text)


def sqlite_timestamp(value: datetime | None) -> str | None:
    """A timestamp as the ORM stores it in the embedded database (`UTCDateTime`)."""
    return _ts(value)


async def _busy_pause(seconds: float) -> None:
    """The pause before retrying a write SQLite found busy (its own function, so tests can count them)."""
    await asyncio.sleep(seconds)


_SQLITE_APPEND = (
    "UPDATE games SET version = ?, updated_at = ?,"
    " awaiting_since = CASE WHEN awaiting_side IS ? THEN awaiting_since ELSE ? END,"
    " awaiting_side = ?, status = ?, result = ?,"
    " mail_owed = CASE WHEN ? THEN ? ELSE mail_owed END"
    " WHERE id = ? AND version = ? AND status = ? RETURNING awaiting_since"
)
# Most commands leave the game's status and its mail flag as they were. SQLite rewrites an index
# entry whenever its column is SET, to the same value or not, so naming `status` and `mail_owed`
# in every UPDATE cost two extra index pages in every commit's log (6 pages instead of 4, each its
# own writes): such commands take this statement, which names neither.
_SQLITE_APPEND_SAME_STATUS = (
    "UPDATE games SET version = ?, updated_at = ?,"
    " awaiting_since = CASE WHEN awaiting_side IS ? THEN awaiting_since ELSE ? END,"
    " awaiting_side = ?, result = ?"
    " WHERE id = ? AND version = ? AND status = ? RETURNING awaiting_since"
)
_SQLITE_STORE_SNAPSHOT = "UPDATE game_states SET snapshot = ?, snapshot_version = ? WHERE game_id = ?"


def _write_sqlite(conn: sqlite3.Connection, w: Append) -> datetime | None:
    now = _ts(w.now)
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = None if w.result is None else jsoncodec.dumps(w.result)
        if w.status == w.expected_status and not w.mail_owed:
            cur = conn.execute(
                _SQLITE_APPEND_SAME_STATUS,
                (w.version + 1, now, w.awaiting, now, w.awaiting, result, w.game_id, w.version, w.expected_status),
            )
        else:
            cur = conn.execute(
                _SQLITE_APPEND,
                (w.version + 1, now, w.awaiting, now, w.awaiting, w.status, result, w.mail_owed, w.version + 1,
                 w.game_id, w.version, w.expected_status),
            )
        moved = cur.fetchone()
        if moved is None:
            raise CommitConflict
        if w.snapshot is not None:
            conn.execute(_SQLITE_STORE_SNAPSHOT, (jsoncodec.dumps(w.snapshot), w.version + 1, w.game_id))
        try:
            conn.execute(
                "INSERT INTO game_commands (game_id, seq, side, user_id, command_id, command, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (w.game_id, w.version + 1, w.side, w.user_id, w.command_id, jsoncodec.dumps(w.command),
                 jsoncodec.dumps(w.events), now),
            )
        except sqlite3.IntegrityError:
            raise CommitConflict from None
        _restart_clock_sqlite(conn, w)
        if w.rated is not None:
            ratings.apply_sqlite(conn, w.rated, now)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return _parse_ts(moved[0])


def _restart_clock_sqlite(conn: sqlite3.Connection, w: Append) -> None:
    """server/notify/hooks.py `restart_clock`, on the clock row if the game has one."""
    row = conn.execute(
        "SELECT decision_hours, paused_until FROM game_clocks WHERE game_id = ?", (w.game_id,)
    ).fetchone()
    if row is None:
        return
    hours, paused_until = row
    started = deadline = None
    if w.awaiting is not None and hours:
        start = w.now
        paused = _parse_ts(paused_until)
        if paused is not None and paused > start:
            start = paused  # the clock stands still during a pause
        started, deadline = w.now, start + timedelta(hours=hours)
    conn.execute(
        "UPDATE game_clocks SET side = ?, reminded_at = NULL, overdue_since = NULL, updated_at = ?,"
        " started_at = ?, deadline_at = ? WHERE game_id = ?",
        (w.awaiting, _ts(w.now), _ts(started), _ts(deadline), w.game_id),
    )


__all__ = [
    "Append", "CommitConflict", "LogRow", "append", "close_pools", "close_sqlite_connections", "parse_sqlite_timestamp",
    "plain_read", "plain_transaction", "plain_write", "sqlite_timestamp",
]
