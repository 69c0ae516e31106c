"""Async engine and session factory for SQLite (embedded default) and Postgres."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
import weakref
from contextlib import suppress
from typing import Any

from sqlalchemy import event
from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_dbapi
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from . import jsoncodec, sqlite_inline
from .config import Settings

log = logging.getLogger(__name__)

# Execution option asking SQLite for a write transaction from the start: a
# deferred transaction that reads and then writes can fail with SQLITE_BUSY at
# once (no busy wait) when two connections both try to upgrade their read lock.
SQLITE_WRITE = {"vedette_sqlite_write": True}

# A pooled Postgres connection idle for longer than this is pinged before use.
IDLE_PING_SECONDS = 10.0


# Per Postgres engine: what the command path needs to open its own driver pool on the same database
# (services/commandlog.py): the asyncpg DSN, the server settings (search_path) and the pool size.
DRIVER_PARAMS: weakref.WeakKeyDictionary[Any, tuple[str, dict[str, str], int, float]] = weakref.WeakKeyDictionary()


def create_engine(settings: Settings) -> AsyncEngine:
    url = make_url(settings.database_url)
    kwargs: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        # The ORM's statements run on the event loop's thread, as the command path's do
        # (server/sqlite_inline.py): aiosqlite's thread hand-offs cost more than SQLite itself.
        kwargs["module"] = AsyncAdapt_aiosqlite_dbapi(sqlite_inline, sqlite3)
        engine = create_async_engine(
            url, json_serializer=jsoncodec.dumps, json_deserializer=jsoncodec.loads, **kwargs
        )
        _configure_sqlite(engine)
        return engine
    connect_args: dict[str, Any] = {}
    if settings.db_schema:
        connect_args["server_settings"] = {"search_path": settings.db_schema}
    engine = create_async_engine(
        url,
        json_serializer=jsoncodec.dumps,
        json_deserializer=jsoncodec.loads,
        pool_size=settings.db_pool_size,
        # The most recently used connection first: under light load a few warm backends serve
        # every command instead of the whole pool taking turns, each waking from idle.
        pool_use_lifo=True,
        max_overflow=settings.db_pool_size,
        pool_timeout=settings.db_pool_timeout,
        connect_args=connect_args,
    )
    _ping_idle_connections(engine)
    driver_settings = dict(connect_args.get("server_settings", {}))
    if settings.pg_command_synchronous_commit == "off":
        driver_settings["synchronous_commit"] = "off"
    DRIVER_PARAMS[engine.sync_engine] = (asyncpg_dsn(settings.database_url), driver_settings, settings.db_pool_size,
                                         settings.db_pool_timeout)
    return engine


def _ping_idle_connections(engine: AsyncEngine) -> None:
    """Pessimistic disconnect handling without `pool_pre_ping`'s price: on asyncpg that ping is
    BEGIN, a query and ROLLBACK on every checkout, three round trips before each command. A
    connection in steady use has just proved itself; only one idle for a while (perhaps across
    a database restart) is pinged, and a dead one is swapped for a fresh one by the pool."""

    @event.listens_for(engine.sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["vedette_idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("vedette_idle_since")
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise DisconnectionError(f"pooled connection failed its ping: {exc}") from exc


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the driver so BEGIN is ours to emit.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        # Never wait inside SQLite, which would hold the event loop: a busy database is retried
        # after yielding (server/sqlite_inline.py), for up to 30 s.
        cursor.execute("PRAGMA busy_timeout=0")
        # No checkpoint inside a commit: `WalCheckpointer` runs them on a thread of their own.
        cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
        cursor.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT_BYTES}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        if conn.get_execution_options().get("vedette_sqlite_write"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


# SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages: it copies the
# log into the database file and syncs both, which made 1-2 % of the command path's commits take
# 5-10 ms instead of 0.2 (issue 16). The service's connections turn it off (0) and the app checkpoints
# on a thread instead; any other connection (the CLI, a test) keeps SQLite's default.
WAL_AUTOCHECKPOINT_PAGES = 0

# SQLite writes the log from its start again only once a checkpoint has copied all of it, and
# never makes the file smaller by itself: past this size it is cut back to it when it starts over.
WAL_SIZE_LIMIT_BYTES = 64 << 20

# A log longer than this many frames (about `WAL_SIZE_LIMIT_BYTES`) means the checkpoints have not
# caught up with the writes for a while: `WalCheckpointer` then copies the rest while this process's
# writers wait.
WAL_CATCH_UP_FRAMES = WAL_SIZE_LIMIT_BYTES // (4096 + 24)


class WalCheckpointer:
    """Keeps the embedded database's write-ahead log short, off the event loop: every `interval`
    seconds, once the log has grown past `min_bytes`, a PASSIVE checkpoint on a thread with its
    own connection (it never waits for readers or writers, and SQLite runs it without the GIL).
    Durability is unchanged: a committed transaction is in the log, which the next open replays.

    SQLite starts the log over only once a checkpoint has copied all of it. At an ordinary pace
    (about 90 commands a second on the bench's VM) the passes do, and the log stays a few thousand
    frames long; under a heavy, steady load (360 a second) commands commit while every pass runs,
    none ends with the whole log copied, and the log grew without bound, by 20 MB a second (issue
    16). So once a pass finds the log longer than `catch_up_frames`, a second pass runs while this
    process's writers (`writer`, the lock every SQLite writer of the service takes or waits for)
    wait: it copies only what came during the first, and syncs, after which the next commit starts
    the log from its beginning. Writes then wait 16-24 ms (measured under that heavy load, with the
    syncs), once per 64 MiB of log."""

    def __init__(self, database: str, *, interval: float = 1.0, min_bytes: int = 1 << 20,
                 writer: asyncio.Lock | None = None, catch_up_frames: int = WAL_CATCH_UP_FRAMES) -> None:
        self.database = database
        self.interval = interval
        self.min_bytes = min_bytes
        self.writer = writer
        self.catch_up_frames = catch_up_frames
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="vedette-wal-checkpointer")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wal_bytes(self) -> int:
        try:
            return os.stat(f"{self.database}-wal").st_size
        except FileNotFoundError:
            return 0

    def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, frames in the log, frames checkpointed)."""
        conn = sqlite3.connect(self.database, timeout=0, isolation_level=None)
        try:
            busy, frames, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return int(busy), int(frames), int(done)
        finally:
            conn.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            if self.wal_bytes() < self.min_bytes:
                continue
            try:
                _busy, frames, _done = await asyncio.to_thread(self.checkpoint)
                if self.writer is not None and frames > self.catch_up_frames:
                    async with self.writer:
                        await asyncio.to_thread(self.checkpoint)
            except sqlite3.Error:
                log.warning("WAL checkpoint of %s failed; trying again in %.1f s", self.database, self.interval,
                            exc_info=True)


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


class LazySession:
    """An AsyncSession made on first use. The command path of a game this process serves live uses
    none (only `bind`, to reach its database), and making and closing an unused session costs more
    than a tenth of a millisecond per command."""

    def __init__(self, maker: async_sessionmaker[AsyncSession], bind: AsyncEngine) -> None:
        self._maker = maker
        self._session: AsyncSession | None = None
        self.bind = bind

    def __getattr__(self, name: str) -> Any:
        if self._session is None:
            self._session = self._maker()
        return getattr(self._session, name)

    async def __aenter__(self) -> AsyncSession:
        return self  # type: ignore[return-value]  # it stands in for one

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()


async def begin_write(session: AsyncSession) -> None:
    """Start the session's transaction as a write transaction (matters on SQLite only)."""
    await session.connection(execution_options=SQLITE_WRITE)


def asyncpg_dsn(database_url: str) -> str:
    """The plain libpq URL asyncpg wants, from a SQLAlchemy postgresql+asyncpg URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)
