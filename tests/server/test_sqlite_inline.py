"""The embedded database's ORM driver (server/sqlite_inline.py): statements on the event loop's
thread, and a busy database waited for by yielding to the loop, never inside SQLite."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from server import sqlite_inline
from server.config import Settings
from server.db import create_engine


def _engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    return create_engine(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'inline.db'}"))


async def test_the_orm_runs_sqlite_statements_on_the_event_loops_own_thread(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    seen: list[int] = []
    try:
        async with engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert isinstance(raw.driver_connection, sqlite_inline.Connection)
            raw.driver_connection._conn.create_function("thread_id", 0, lambda: seen.append(threading.get_ident()) or 1)
            before = threading.active_count()
            assert (await conn.execute(text("SELECT thread_id()"))).scalar() == 1
            assert threading.active_count() == before  # no driver thread was started
        assert seen == [threading.get_ident()]
    finally:
        await engine.dispose()


async def test_a_write_meeting_another_connections_write_lock_waits_without_holding_the_loop(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
        holder = sqlite3.connect(tmp_path / "inline.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("INSERT INTO t VALUES (1)")
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        async def write() -> None:
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO t VALUES (2)"))

        ticking = asyncio.create_task(ticker())
        writing = asyncio.create_task(write())
        await asyncio.sleep(0.1)
        assert not writing.done()  # it waits for the lock ...
        assert ticks > 20  # ... while the loop goes on serving others
        holder.execute("COMMIT")
        await asyncio.wait_for(writing, 5)
        ticking.cancel()
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT x FROM t ORDER BY x"))).scalars().all() == [1, 2]
        holder.close()
    finally:
        await engine.dispose()


async def test_a_database_busy_for_longer_than_the_wait_is_an_operational_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_inline, "BUSY_WAIT", 0.05)
    engine = _engine(tmp_path)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
        holder = sqlite3.connect(tmp_path / "inline.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(Exception, match="database is locked"):
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO t VALUES (2)"))
        holder.execute("ROLLBACK")
        holder.close()
    finally:
        await engine.dispose()


async def test_a_read_transaction_overtaken_by_a_commit_fails_its_write_at_once_instead_of_retrying(
    tmp_path: Path,
) -> None:
    # SQLITE_BUSY_SNAPSHOT: a deferred transaction that read before another connection committed can
    # never write; retrying the statement for the whole wait would only delay the error.
    engine = _engine(tmp_path)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
            await conn.execute(text("INSERT INTO t VALUES (1)"))
        other = sqlite3.connect(tmp_path / "inline.db", isolation_level=None)

        async def read_then_write() -> None:
            async with engine.begin() as conn:
                await conn.execute(text("SELECT x FROM t"))
                other.execute("INSERT INTO t VALUES (3)")  # autocommit: the reader's snapshot is now stale
                await conn.execute(text("INSERT INTO t VALUES (2)"))

        with pytest.raises(Exception, match="database is locked"):
            await asyncio.wait_for(read_then_write(), 5)  # far below BUSY_WAIT (30 s)
        other.close()
    finally:
        await engine.dispose()


async def test_statements_yield_to_the_loop_between_them_except_inside_a_write_transaction(tmp_path: Path) -> None:
    # Inside a write transaction SQLite's only write lock is held: a yield there lets other tasks run
    # while every command waits for that lock, stretching the transaction by their turns (issue 16).
    engine = _engine(tmp_path)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
        turns = 0

        async def ticker() -> None:
            nonlocal turns
            while True:
                turns += 1
                await asyncio.sleep(0)

        ticking = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        async with engine.connect() as conn:
            start = turns
            for _ in range(5):
                await conn.execute(text("SELECT count(*) FROM t"))
            assert turns - start >= 5  # a read: one turn of the loop per statement
            await conn.commit()
            await conn.execute(text("INSERT INTO t VALUES (1)"))  # the write lock from here to COMMIT
            start = turns
            for value in range(2, 7):
                await conn.execute(text("INSERT INTO t VALUES (:x)"), {"x": value})
                await conn.execute(text("SELECT count(*) FROM t"))
            assert turns == start
            await conn.commit()
            start = turns
            await conn.execute(text("SELECT count(*) FROM t"))
            assert turns > start  # the transaction's end released the loop again
        ticking.cancel()
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar() == 6
    finally:
        await engine.dispose()
