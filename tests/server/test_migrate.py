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


def _seed_revision_0006(database: Path) -> None:
    """One user and one game at revision 0006, its documents on the games row, with a seat and a log row."""
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) "
                     "VALUES (1, 'mover', 'm@example.org', 'x', 0, '2026-11-27 00:00:00.000000')")
        conn.execute(
            "INSERT INTO games (id, scenario_id, scenario_json, created_by, visibility, status, invite_token,"
            " watch_token, version, snapshot, snapshot_version, initial_snapshot, created_at, updated_at)"
            " VALUES ('g1', 'tutorial', '{\"title\": \"T\"}', 1, 'open', 'active', 'i', 'w', 3,"
            " '{\"at\": 2}', 2, '{\"at\": 0}', '2026-11-27 00:00:00.000000', '2026-11-27 00:00:00.000000')")
        conn.execute("INSERT INTO game_seats (game_id, side, user_id, joined_at)"
                     " VALUES ('g1', 'blue', 1, '2026-11-27 00:00:00.000000')")
        conn.execute("INSERT INTO game_commands (game_id, seq, side, user_id, command_id, command, events, created_at)"
                     " VALUES ('g1', 3, 'blue', 1, 'c3', '{}', '[]', '2026-11-27 00:00:00.000000')")


def _columns(database: Path, table: str) -> set[str]:
    with sqlite3.connect(database) as conn:
        return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _counts(database: Path) -> tuple[int, int]:
    with sqlite3.connect(database) as conn:
        seats = conn.execute("SELECT count(*) FROM game_seats").fetchone()[0]
        log = conn.execute("SELECT count(*) FROM game_commands").fetchone()[0]
        return seats, log


def test_migration_0007_moves_the_documents_to_game_states_and_back_keeping_seats_and_log(tmp_path: Path) -> None:
    database = tmp_path / "migrate.db"
    settings = Settings(database_url=f"sqlite+aiosqlite:///{database}")
    command.upgrade(alembic_config(settings), "0006")
    _seed_revision_0006(database)

    upgrade_head(settings)
    assert {"scenario_json", "snapshot", "snapshot_version", "initial_snapshot"}.isdisjoint(_columns(database, "games"))
    with sqlite3.connect(database) as conn:
        moved = conn.execute("SELECT scenario_json, snapshot, snapshot_version, initial_snapshot FROM game_states"
                             " WHERE game_id = 'g1'").fetchone()
    assert moved == ('{"title": "T"}', '{"at": 2}', 2, '{"at": 0}')
    # Dropping the columns in place, not by copying the table: a copy under foreign keys cascades.
    assert _counts(database) == (1, 1)

    command.downgrade(alembic_config(settings), "0006")
    assert "game_states" not in {row[0] for row in sqlite3.connect(database).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    with sqlite3.connect(database) as conn:
        back = conn.execute("SELECT scenario_json, snapshot, snapshot_version, initial_snapshot, version FROM games"
                            " WHERE id = 'g1'").fetchone()
    assert back == ('{"title": "T"}', '{"at": 2}', 2, '{"at": 0}', 3)
    assert _counts(database) == (1, 1)
    upgrade_head(settings)
    assert _counts(database) == (1, 1)


def test_migration_0008_names_each_games_edition_from_its_snapshot_and_steps_back(tmp_path: Path) -> None:
    database = tmp_path / "migrate.db"
    settings = Settings(database_url=f"sqlite+aiosqlite:///{database}")
    command.upgrade(alembic_config(settings), "0007")
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) "
                     "VALUES (1, 'mover', 'm@example.org', 'x', 0, '2026-11-27 00:00:00.000000')")
        for game_id, snapshot in (("g13", '{"ruleset": "quickplay-2013"}'), ("gstd", '{"ruleset": "standard"}'),
                                  ("gold", '{"at": 0}')):
            conn.execute(
                "INSERT INTO games (id, scenario_id, created_by, visibility, status, invite_token, watch_token,"
                " version, created_at, updated_at) VALUES (?, 'tutorial', 1, 'open', 'active', ?, ?, 0,"
                " '2026-11-27 00:00:00.000000', '2026-11-27 00:00:00.000000')", (game_id, f"i{game_id}", f"w{game_id}"))
            conn.execute("INSERT INTO game_states (game_id, scenario_json, snapshot, snapshot_version, initial_snapshot)"
                         " VALUES (?, '{\"ruleset\": \"quickplay\"}', ?, 0, ?)", (game_id, snapshot, snapshot))
            conn.execute("INSERT INTO game_seats (game_id, side, user_id, joined_at)"
                         " VALUES (?, 'blue', 1, '2026-11-27 00:00:00.000000')", (game_id,))

    upgrade_head(settings)
    with sqlite3.connect(database) as conn:
        editions = dict(conn.execute("SELECT id, ruleset FROM games").fetchall())
    # the snapshot names the edition the engine plays (not the scenario's own); a snapshot naming none is Quick Play's
    assert editions == {"g13": "quickplay-2013", "gstd": "standard", "gold": "quickplay"}
    assert _counts(database)[0] == 3  # added in place: no table copy cascading to the seats

    command.downgrade(alembic_config(settings), "0007")
    assert "ruleset" not in _columns(database, "games")
    assert _counts(database)[0] == 3


def test_migration_0010_adds_ratings_leaves_older_games_unrated_and_steps_back(tmp_path: Path) -> None:
    database = tmp_path / "migrate.db"
    settings = Settings(database_url=f"sqlite+aiosqlite:///{database}")
    command.upgrade(alembic_config(settings), "0008")
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) "
                     "VALUES (1, 'elder', 'e@example.org', 'x', 0, '2026-11-27 00:00:00.000000')")
        conn.execute(
            "INSERT INTO games (id, scenario_id, created_by, visibility, status, invite_token, watch_token,"
            " version, created_at, updated_at) VALUES ('old', 'tutorial', 1, 'open', 'over', 'i', 'w', 0,"
            " '2026-11-27 00:00:00.000000', '2026-11-27 00:00:00.000000')")
        conn.execute("INSERT INTO game_seats (game_id, side, user_id, joined_at)"
                     " VALUES ('old', 'blue', 1, '2026-11-27 00:00:00.000000')")

    upgrade_head(settings)
    with sqlite3.connect(database) as conn:
        # a game made before the choice existed was never offered it: not rated
        assert conn.execute("SELECT rated FROM games WHERE id = 'old'").fetchone()[0] == 0
    assert {"player_ratings", "rating_changes"} <= _tables(database)
    assert "ix_player_ratings_ruleset_rating" in _indexes(database)
    assert _counts(database)[0] == 1  # added in place: no table copy cascading to the seats

    command.downgrade(alembic_config(settings), "-1")
    assert "rated" not in _columns(database, "games")
    assert not {"player_ratings", "rating_changes"} & _tables(database)
    assert _counts(database)[0] == 1


def _tables(database: Path) -> set[str]:
    with sqlite3.connect(database) as conn:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
