"""The embedded SQLite database, driven on the event loop's own thread (issue 16).

SQLAlchemy's asyncio support reaches SQLite through aiosqlite, which runs every call (cursor,
execute, fetch, close, commit) on a thread of its own and hands each result back through a queue
and a future. A statement is four or five such hand-offs; the profile of a game's lifecycle on the
embedded database showed them, with the GIL waits they cause, as the largest single cost of the
lobby's, seats' and mails' transactions, while SQLite itself answers in microseconds (a WAL commit
is about 10 µs here).

This module is a stand-in for the `aiosqlite` module with the same surface SQLAlchemy's aiosqlite
dialect uses, whose coroutines call the `sqlite3` connection directly: SQLAlchemy awaits them as
before, they finish without suspending, and no thread is involved. The URL stays
`sqlite+aiosqlite:///...`; `server/db.py` passes this driver to the engine.

What a thread gave for free, and how it is kept:

* **Never waiting inside SQLite.** A statement that finds the database locked (another connection
  of this process holding a write transaction across its awaits, or another process) must not
  hold the loop in SQLite's busy handler: the connection's `busy_timeout` is 0, and a statement
  refused with SQLITE_BUSY is retried after yielding to the loop, in growing pauses, for up to
  `BUSY_WAIT` seconds (the 30 s the threaded driver waited). SQLITE_BUSY_SNAPSHOT (a read
  transaction that can no longer become a write one) is raised at once, as SQLite raises it to
  any driver: retrying the statement cannot help.
* **Long statements hold the loop.** Every statement this service runs is a keyed lookup or a
  short write on a database of one server's games; the admin's listings are paged.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, Self, TypeVar

__version__ = "vedette-inline-1"

# The exception classes and versions SQLAlchemy's dialect reads off the driver module.
DatabaseError = sqlite3.DatabaseError
Error = sqlite3.Error
IntegrityError = sqlite3.IntegrityError
NotSupportedError = sqlite3.NotSupportedError
OperationalError = sqlite3.OperationalError
ProgrammingError = sqlite3.ProgrammingError
sqlite_version = sqlite3.sqlite_version
sqlite_version_info = sqlite3.sqlite_version_info

BUSY_WAIT = 30.0
_FIRST_PAUSE = 0.0005
_LONGEST_PAUSE = 0.02
_SQLITE_BUSY = 5
_SQLITE_BUSY_RECOVERY = 5 | (1 << 8)

_T = TypeVar("_T")


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code in (_SQLITE_BUSY, _SQLITE_BUSY_RECOVERY)
    return "database is locked" in str(exc)


async def _patiently(call: Callable[[], _T]) -> _T:
    """`call()`, retried after yielding to the loop while SQLite reports the database busy."""
    try:
        return call()
    except sqlite3.OperationalError as exc:
        if not _is_busy(exc):
            raise
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BUSY_WAIT
    pause = _FIRST_PAUSE
    while True:
        await asyncio.sleep(pause)
        try:
            return call()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or loop.time() > give_up:
                raise
        pause = min(pause * 2, _LONGEST_PAUSE)


def _takes_write_lock(sql: str) -> bool:
    """Whether a statement takes SQLite's write lock (held until the transaction ends)."""
    head = sql.lstrip()[:16].upper()
    return head.startswith(("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE", "INSERT", "UPDATE", "DELETE", "REPLACE"))


class Cursor:
    """aiosqlite's Cursor surface over a `sqlite3.Cursor`."""

    __slots__ = ("_cursor", "_owner")

    def __init__(self, cursor: sqlite3.Cursor, owner: Connection) -> None:
        self._cursor = cursor
        self._owner = owner

    async def execute(self, sql: str, parameters: Any = None) -> Cursor:
        owner = self._owner
        if not owner.holds_write_lock:
            # Outside a write transaction, one statement per turn of the event loop, as the threaded
            # driver gave: a read of several statements does not hold the loop from end to end.
            # Inside one, no yield: SQLite's write lock is the database's only one, so every command
            # waits for this transaction's end whatever the loop does meanwhile, and yielding only
            # stretched the lock's hold by the other tasks' turns (p99 of 20 ms for a lobby
            # transaction of 2 ms, issue 16).
            await asyncio.sleep(0)
        if parameters is None:
            await _patiently(lambda: self._cursor.execute(sql))
        else:
            await _patiently(lambda: self._cursor.execute(sql, parameters))
        if owner.holds_write_lock or _takes_write_lock(sql):
            owner.holds_write_lock = owner._live().in_transaction  # until the transaction ends
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> Cursor:
        rows = list(parameters)  # retried whole: an iterator would be spent by the first try
        await _patiently(lambda: self._cursor.executemany(sql, rows))
        return self

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(self._cursor.arraysize if size is None else size)

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()

    async def setinputsizes(self, *sizes: Any) -> None:
        return None

    async def nextset(self) -> None:
        return None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cursor.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value


class _CursorOpener:
    """What `Connection.cursor()` returns in aiosqlite: awaitable, and an async context manager."""

    __slots__ = ("_owner",)

    def __init__(self, owner: Connection) -> None:
        self._owner = owner

    async def __aenter__(self) -> Cursor:
        return Cursor(self._owner._live().cursor(), self._owner)

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __await__(self) -> Any:
        return self.__aenter__().__await__()


class _Immediate:
    """Stands in for aiosqlite's queue to its thread: SQLAlchemy's dialect sets the isolation level
    by putting `(future, function)` on it; here the function runs at once."""

    def put_nowait(self, item: tuple[asyncio.Future[Any], Callable[[], Any]]) -> None:
        future, function = item
        try:
            result = function()
        except Exception as exc:  # noqa: BLE001 - handed to the awaiting caller, as aiosqlite's thread does
            future.set_exception(exc)
        else:
            future.set_result(result)


class _NoThread:
    daemon = True


class Connection:
    """aiosqlite's Connection surface over a `sqlite3.Connection` used on the loop's thread."""

    def __init__(self, database: str, kwargs: dict[str, Any]) -> None:
        kwargs = dict(kwargs)
        kwargs.pop("timeout", None)  # the wait is ours (`_patiently`), never SQLite's
        kwargs["check_same_thread"] = False
        self._conn: sqlite3.Connection | None = sqlite3.connect(database, timeout=0, **kwargs)
        self._conn.execute("PRAGMA busy_timeout=0")
        self._tx = _Immediate()
        self._thread = _NoThread()
        # Set by a statement that took SQLite's write lock, cleared when its transaction ends.
        self.holds_write_lock = False

    def __await__(self) -> Any:
        async def opened() -> Connection:
            return self

        return opened().__await__()

    @property
    def _connection(self) -> sqlite3.Connection | None:
        return self._conn

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ValueError("Connection closed")
        return self._conn

    @property
    def isolation_level(self) -> str | None:
        return self._live().isolation_level

    def cursor(self) -> _CursorOpener:
        return _CursorOpener(self)

    async def execute(self, sql: str, parameters: Any = None) -> Cursor:
        return await Cursor(self._live().cursor(), self).execute(sql, parameters)

    async def commit(self) -> None:
        conn = self._live()
        try:
            await _patiently(conn.commit)
        finally:
            self.holds_write_lock = conn.in_transaction and self.holds_write_lock

    async def rollback(self) -> None:
        try:
            self._live().rollback()
        finally:
            self.holds_write_lock = False

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._live().create_function(*args, **kwargs)

    async def close(self) -> None:
        self.stop()

    def stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def connect(database: str, **kwargs: Any) -> Connection:
    return Connection(database, kwargs)
