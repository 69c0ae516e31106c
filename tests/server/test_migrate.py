"""server/migrate.py and migrations/: the newest revision applies, steps back and applies again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command

from server.config import Settings
from server.migrate import alembic_config, upgrade_head


def _indexes(database: Path) -> set[str]:
    with sqlite3.connect(database) as conn:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}


def _quota_plan(database: Path) -> str:
    with sqlite3.connect(database) as conn:
        rows = conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM games WHERE created_by = 1 AND created_at > '2026-01-01'"
        ).fetchall()
    return " ".join(str(row[-1]) for row in rows)


def test_migration_0006_indexes_the_creation_quota_and_steps_back_cleanly(tmp_path: Path) -> None:
    database = tmp_path / "migrate.db"
    settings = Settings(database_url=f"sqlite+aiosqlite:///{database}")
    upgrade_head(settings)
    assert "ix_games_created_by_created_at" in _indexes(database)
    # The games-per-hour count (accounts.check_game_quota) reads the index, not the whole table.
    assert "ix_games_created_by_created_at" in _quota_plan(database)
    assert "SCAN games" not in _quota_plan(database)

    command.downgrade(alembic_config(settings), "0005")
    assert "ix_games_created_by_created_at" not in _indexes(database)
    upgrade_head(settings)
    assert "ix_games_created_by_created_at" in _indexes(database)
