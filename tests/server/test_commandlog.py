"""`server/services/commandlog.py` (issue 16): what one command's write puts into SQLite's write-ahead log,
which every commit writes page by page, and what a command costs Postgres in round trips."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from server_helpers import _run, start_game
from sqlalchemy.ext.asyncio import AsyncSession

from server.config import Settings
from server.db import create_engine
from server.main import create_app
from server.services import commandlog

_T = TypeVar("_T")

WAL_FRAME = 24 + 4096  # a frame's header and one page of the default size


def _append(game_id: str, version: int, *, status: str, mail_owed: bool) -> commandlog.Append:
    return commandlog.Append(
        game_id=game_id, version=version, expected_status="active", status=status, side="blue", user_id=None,
        command_id=f"c{version}", command={"type": "end_phase"}, events=[{"type": "phase_ended"}], snapshot=None,
        awaiting="red", result=None, mail_owed=mail_owed, now=datetime.now(UTC),
    )


def test_a_command_that_keeps_the_games_status_writes_no_index_page_of_the_games_table(
    embedded_settings: Settings,
) -> None:
    # SQLite rewrites an index entry whenever its column is SET, even to the value it had: naming
    # `status` and `mail_owed` in every command's UPDATE put two more pages into every commit.
    settings = embedded_settings
    with TestClient(create_app(settings)) as client:
        _blue, _red, game = start_game(client)
    database = str(settings.database_url).split("///", 1)[1]
    engine = create_engine(settings)

    async def frames_of(write: commandlog.Append) -> int:
        before = os.path.getsize(f"{database}-wal") if os.path.exists(f"{database}-wal") else 0
        async with AsyncSession(engine) as session:
            await commandlog.append(session, write)
        return (os.path.getsize(f"{database}-wal") - before) // WAL_FRAME

    try:
        _run(frames_of(_append(game["id"], 0, status="active", mail_owed=False)))  # opens the log
        same_status = _run(frames_of(_append(game["id"], 1, status="active", mail_owed=False)))
        ending = _run(frames_of(_append(game["id"], 2, status="over", mail_owed=True)))
        conn = commandlog._sqlite_connection(database)
        row = conn.execute("SELECT version, status, mail_owed, awaiting_side FROM games WHERE id = ?",
                           (game["id"],)).fetchone()
    finally:
        commandlog.close_sqlite_connections()
        _run(engine.dispose())
    # The games row's page, the log row's page and its two unique indexes' pages (game and seq; game,
    # side and command id): nothing of `ix_games_status` or `ix_games_mail_owed`.
    assert same_status == 4
    assert ending >= same_status + 2  # the game's end does change both indexed columns
    assert row == (3, "over", 3, "red")


def _on_command_pool(settings: Settings, use: Callable[[Any, Any], Awaitable[_T]]) -> _T:
    """`use(pool, engine)` with the command path's Postgres pool for `settings`, closed afterwards."""

    async def run() -> _T:
        engine = create_engine(settings)
        try:
            return await use(await commandlog._pg_pool(engine), engine)
        finally:
            await commandlog.close_pools()
            await engine.dispose()

    return _run(run())


@pytest.mark.postgres
def test_a_command_path_connection_goes_back_to_its_pool_without_a_statement_of_its_own(
    postgres_settings: Settings,
) -> None:
    # asyncpg's default reset sent a query on every release, which `Pool.fetchrow` awaits before it
    # returns: a second round trip inside every command's acknowledgement.
    async def statements_sent(pool: Any, _engine: Any) -> list[str]:
        sent: list[str] = []
        async with pool.acquire() as connection:  # the pool's one connection, from now on logged
            connection.add_query_logger(lambda logged: sent.append(logged.query))
        assert (await pool.fetchrow("SELECT 1 AS one"))["one"] == 1
        async with pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT 2")
        assert await pool.fetchval("SELECT 3") == 3
        return sent

    assert _on_command_pool(postgres_settings, statements_sent) == [
        "SELECT 1 AS one", "BEGIN;", "SELECT 2", "COMMIT;", "SELECT 3"]


@pytest.mark.postgres
def test_a_command_path_statement_answers_before_its_connection_is_back_in_the_pool(
    postgres_settings: Settings,
) -> None:
    # asyncpg returns a connection to its pool in a task of its own; waiting for it cost the command
    # two or three turns of the event loop, each as long as whatever else the loop ran meanwhile. The
    # command's write and the plain reads and writes beside it (handshakes, presence, the outbox) alike.
    import asyncio

    async def one(conn: Any) -> int:
        return int(await conn.fetchval("SELECT 1"))

    async def idle_counts(pool: Any, engine: Any) -> list[int]:
        statements = (
            lambda: commandlog._fetchrow(pool, "SELECT 1 AS one"),
            lambda: commandlog.plain_read(engine, lambda _conn: 1, one),
            lambda: commandlog.plain_write(engine, ("", ()), ("SELECT 1", ())),
            lambda: commandlog.plain_transaction(engine, lambda _conn: 1, one),
        )
        counts = []
        for _ in range(5):
            for statement in statements:
                await statement()
                counts.append(pool.get_idle_size())  # answered: its connection is still on its way back
                for _turn in range(3):
                    await asyncio.sleep(0)
                counts.append(pool.get_idle_size())  # and back, for the next statement
        counts.append(pool.get_size())  # one connection served them all: none was lost
        return counts

    assert _on_command_pool(postgres_settings, idle_counts) == [0, 1] * 20 + [1]
