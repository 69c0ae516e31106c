"""server/notify/hooks.py: the clock restart the command path writes inside its one write
(`CLOCK_RESTART_SQL` on Postgres, `_restart_clock_sqlite` on the embedded database) gives the same
deadline as `restart_clock`, the one the join uses: with and without a time per decision, with a pause past, running or absent, and
with the decision passing to a side or to nobody (the game's end)."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from server.db import asyncpg_dsn
from server.notify.hooks import restart_clock
from server.notify.models import GameClock
from server.services.commandlog import CLOCK_RESTART_SQL

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
FIELDS = ("side", "started_at", "deadline_at", "reminded_at", "overdue_since", "updated_at")
CASES = list(itertools.product(
    (None, 0, 24),  # decision_hours
    (None, NOW - timedelta(hours=1), NOW + timedelta(hours=5)),  # paused_until
    (None, "blue"),  # the side whose decision it now is
))


def _python(hours: int | None, paused_until: datetime | None, side: str | None) -> dict[str, Any]:
    clock = GameClock(game_id="g", decision_hours=hours, paused_until=paused_until, side="red",
                      reminded_at=NOW - timedelta(hours=2), overdue_since=NOW - timedelta(hours=1),
                      updated_at=NOW - timedelta(days=1))
    restart_clock(clock, side, NOW)
    return {name: getattr(clock, name) for name in FIELDS}


async def _sql(settings: Any) -> list[dict[str, Any]]:
    conn = await asyncpg.connect(asyncpg_dsn(settings.database_url),
                                 server_settings={"search_path": settings.db_schema})
    try:
        await conn.execute(
            "INSERT INTO users (id, username, email, password_hash, is_admin, created_at) "
            "VALUES (1, 'clockwatcher', 'c@example.org', 'x', false, $1)", NOW)
        await conn.execute(
            "INSERT INTO games (id, scenario_id, created_by, visibility, status, invite_token, "
            "watch_token, version, created_at, updated_at) VALUES "
            "('g', 'tutorial', 1, 'open', 'active', 'i', 'w', 0, $1, $1)", NOW)
        restart = CLOCK_RESTART_SQL.format("$3", game="g0", awaiting="$2::text")
        statement = f"WITH g0 AS (SELECT $1::text AS id), q AS ({restart}) SELECT 1"
        results = []
        for hours, paused_until, side in CASES:
            await conn.execute("DELETE FROM game_clocks")
            await conn.execute(
                "INSERT INTO game_clocks (game_id, decision_hours, paused_until, side, reminded_at, overdue_since, "
                "updated_at) VALUES ('g', $1, $2, 'red', $3, $4, $5)",
                hours, paused_until, NOW - timedelta(hours=2), NOW - timedelta(hours=1), NOW - timedelta(days=1))
            await conn.execute(statement, "g", side, NOW)
            row = await conn.fetchrow(f"SELECT {', '.join(FIELDS)} FROM game_clocks WHERE game_id = 'g'")
            results.append(dict(row))
        return results
    finally:
        await conn.close()


@pytest.mark.postgres
def test_single_statement_clock_restart_matches_restart_clock(postgres_settings: Any) -> None:
    stored = asyncio.run(_sql(postgres_settings))
    for (hours, paused_until, side), row in zip(CASES, stored, strict=True):
        assert row == _python(hours, paused_until, side), (hours, paused_until, side)
    # The cases do reach every branch: no deadline, a deadline from now, one from a pause's end.
    deadlines = {row["deadline_at"] for row in stored}
    assert deadlines == {None, NOW + timedelta(hours=24), NOW + timedelta(hours=29)}


def test_sqlite_command_write_restarts_the_clock_like_restart_clock(sqlite_template: Any, tmp_path: Any) -> None:
    """services/commandlog.py writes the embedded database's clock restart in Python, inside the
    command's own transaction: the same answers as `restart_clock` in every case."""
    import shutil
    import sqlite3

    from server.services.commandlog import Append, _parse_ts, _restart_clock_sqlite, _ts

    path = tmp_path / "clock.db"
    shutil.copy(sqlite_template, path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) "
                 "VALUES (1, 'clockwatcher', 'c@example.org', 'x', 0, ?)", (_ts(NOW),))
    conn.execute("INSERT INTO games (id, scenario_id, created_by, visibility, status, invite_token, "
                 "watch_token, version, created_at, updated_at) VALUES "
                 "('g', 'tutorial', 1, 'open', 'active', 'i', 'w', 0, ?, ?)", (_ts(NOW), _ts(NOW)))
    deadlines = set()
    for hours, paused_until, side in CASES:
        conn.execute("DELETE FROM game_clocks")
        conn.execute(
            "INSERT INTO game_clocks (game_id, decision_hours, paused_until, side, reminded_at, overdue_since, "
            "updated_at) VALUES ('g', ?, ?, 'red', ?, ?, ?)",
            (hours, _ts(paused_until), _ts(NOW - timedelta(hours=2)), _ts(NOW - timedelta(hours=1)),
             _ts(NOW - timedelta(days=1))))
        write = Append(game_id="g", version=0, expected_status="active", status="active", side="red", user_id=1,
                       command_id="c", command={}, events=[], snapshot={}, awaiting=side, result=None,
                       mail_owed=False, now=NOW)
        _restart_clock_sqlite(conn, write)
        row = conn.execute(f"SELECT {', '.join(FIELDS)} FROM game_clocks WHERE game_id = 'g'").fetchone()
        stored = {name: (value if name == "side" else _parse_ts(value)) for name, value in zip(FIELDS, row, strict=True)}
        assert stored == _python(hours, paused_until, side), (hours, paused_until, side)
        deadlines.add(stored["deadline_at"])
    assert deadlines == {None, NOW + timedelta(hours=24), NOW + timedelta(hours=29)}
    conn.close()
