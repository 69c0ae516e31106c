"""server/db.py: pooled Postgres connections are pinged only after idling, and a dead one is replaced."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import _run
from sqlalchemy import text

from server import db
from server.config import Settings
from server.services.commandlog import close_engine

pytestmark = pytest.mark.postgres


async def _backend_pid(engine: Any) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())


async def _terminate(settings: Settings, pid: int) -> None:
    import asyncpg

    killer = await asyncpg.connect(db.asyncpg_dsn(settings.database_url), timeout=5)
    try:
        await killer.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await killer.close()


def test_a_connection_killed_while_idle_is_replaced_before_use(
    postgres_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.2)

    async def scenario() -> tuple[int, int]:
        engine = db.create_engine(postgres_settings)
        try:
            first = await _backend_pid(engine)
            await _terminate(postgres_settings, first)  # as a database restart would
            await asyncio.sleep(0.4)
            second = await _backend_pid(engine)
            return first, second
        finally:
            await close_engine(engine)

    first, second = _run(scenario())
    assert second != first


def test_a_connection_in_steady_use_is_not_pinged(
    postgres_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 60.0)
    pings: list[int] = []

    async def scenario() -> int:
        engine = db.create_engine(postgres_settings)
        original = engine.dialect.do_ping

        def counting_ping(dbapi_connection: Any) -> bool:
            pings.append(1)
            return bool(original(dbapi_connection))

        engine.dialect.do_ping = counting_ping  # type: ignore[method-assign]
        try:
            pids = {await _backend_pid(engine) for _ in range(5)}
            return len(pids)
        finally:
            await close_engine(engine)

    assert _run(scenario()) == 1
    assert pings == []


@pytest.mark.parametrize("setting", ["on", "off"])
def test_the_command_paths_commit_waits_for_the_disk_unless_configured_otherwise_and_the_rest_always_does(
    postgres_settings: Settings, setting: str
) -> None:
    from server.services import commandlog

    settings = postgres_settings.model_copy(update={"pg_command_synchronous_commit": setting})

    async def scenario() -> tuple[str, str]:
        engine = db.create_engine(settings)
        try:
            async with engine.connect() as conn:
                orm = str((await conn.execute(text("SHOW synchronous_commit"))).scalar_one())
            pool = await commandlog._pg_pool(engine)
            command_path = str(await pool.fetchval("SHOW synchronous_commit"))
            return orm, command_path
        finally:
            await commandlog.close_pools()
            await close_engine(engine)

    orm, command_path = _run(scenario())
    assert orm == "on"  # accounts, lobby and mails: always durable
    assert command_path == setting


async def test_the_services_sqlite_connections_leave_checkpoints_to_the_checkpointer(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A checkpoint inside a commit made 1-2 % of commands' commits take 5-10 ms (issue 16): the
    # service's connections never checkpoint; WalCheckpointer does, on a thread.
    import asyncio
    import os

    from sqlalchemy import text

    from server.db import WalCheckpointer, create_engine
    from server.services import commandlog

    database = tmp_path / "wal.db"
    engine = create_engine(Settings(database_url=f"sqlite+aiosqlite:///{database}"))
    try:
        async with engine.begin() as conn:
            assert (await conn.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == 0
            await conn.execute(text("CREATE TABLE t (x BLOB)"))
        plain = commandlog._sqlite_connection(str(database))
        assert plain.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        for _ in range(1500):  # past SQLite's default of 1,000 pages: nothing checkpointed them
            plain.execute("INSERT INTO t VALUES (randomblob(4000))")
        results: list[tuple[int, int, int]] = []

        class Recording(WalCheckpointer):
            def checkpoint(self) -> tuple[int, int, int]:
                results.append(super().checkpoint())
                return results[-1]

        checkpointer = Recording(str(database), interval=0.01, min_bytes=1 << 20)
        grown = checkpointer.wal_bytes()
        assert grown > 1000 * 4096
        checkpointer.start()
        for _ in range(500):
            await asyncio.sleep(0.01)
            if results:
                break
        await checkpointer.stop()
        _busy, frames, done = results[0]
        assert frames > 1000 and done == frames  # every frame is in the database file now
        plain.execute("INSERT INTO t VALUES (randomblob(10))")  # the next writer starts the log over
        assert os.stat(f"{database}-wal").st_size == grown  # reused from its start, not grown
        assert plain.execute("SELECT count(*) FROM t").fetchone()[0] == 1501
    finally:
        commandlog.close_sqlite_connections()
        await close_engine(engine)


async def test_under_steady_writes_the_checkpointer_has_the_log_start_over_instead_of_growing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A passive checkpoint never ends with the whole log copied while commands commit during it, and
    # SQLite starts the log over only after one has: under a bench's steady load the log grew by
    # 20 MB a second (issue 16). Past `catch_up_frames` a second pass runs while the writers wait.
    import asyncio
    import itertools
    import os

    from sqlalchemy import text

    from server.db import WalCheckpointer, create_engine
    from server.services import commandlog

    database = tmp_path / "steady.db"
    engine = create_engine(Settings(database_url=f"sqlite+aiosqlite:///{database}"))
    writer = asyncio.Lock()  # the service's: every SQLite writer of the process takes it or waits
    passes: list[tuple[int, int, int]] = []

    class Recording(WalCheckpointer):
        def checkpoint(self) -> tuple[int, int, int]:
            passes.append(super().checkpoint())
            return passes[-1]

    checkpointer = Recording(str(database), interval=0.005, min_bytes=0, writer=writer, catch_up_frames=300)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x BLOB)"))
        checkpointer.start()
        largest = 0
        # about 40 MB of log in all, written as commands are: on the loop; on a busy machine on until the checkpointer
        # has run three passes (CI once saw a single pass in 5000 writes), at most 20000 writes
        written = 0
        while written < 5000 or (len(passes) < 3 and written < 20000):
            written += 1
            await commandlog.plain_write(engine, ("INSERT INTO t VALUES (randomblob(4000))", ()), ("", ()),
                                         sqlite_writer=writer)
            largest = max(largest, checkpointer.wal_bytes())
            await asyncio.sleep(0)
        await checkpointer.stop()
        log_lengths = [frames for _busy, frames, _done in passes]
        assert any(later < earlier for earlier, later in itertools.pairwise(log_lengths)), log_lengths
        # not the 40 MB written: at most half (12 MB unloaded; 14 MB seen with the checkpointer's thread starved at a
        # load average of 15)
        assert largest < 20 << 20, largest
        plain = commandlog._sqlite_connection(str(database))
        assert plain.execute("SELECT count(*) FROM t").fetchone()[0] == written
        assert plain.execute("PRAGMA journal_size_limit").fetchone()[0] == 64 << 20
        assert os.path.exists(f"{database}-wal")
    finally:
        await checkpointer.stop()
        commandlog.close_sqlite_connections()
        await close_engine(engine)
