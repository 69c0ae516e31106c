"""Fixtures: every core suite runs on SQLite (a temp file) and on real Postgres.

Postgres comes from TEST_DATABASE_URL (default the local trust-auth server);
each test session migrates its own fresh schema and drops it afterwards, so
concurrent runs never collide. Under CI=true a missing Postgres FAILS.
"""

from __future__ import annotations

import os
import secrets
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from proxy_process import haproxy_path
from server_helpers import _run

from server.config import Settings
from server.services import engine as engine_module

ROOT = Path(__file__).resolve().parents[2]
TEST_DATABASE_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
TABLES = [
    "game_notes", "game_mutes", "game_messages", "spectator_connections", "game_commands", "game_seats",
    "game_states", "games", "login_failures", "user_sessions", "users", "player_ratings", "rating_changes",
]


@pytest.fixture(scope="session", autouse=True)
def rules_core() -> Iterator[Any]:
    """The real rules core, reset in case another suite swapped it."""
    from server import rules

    engine_module.use_rules(rules)
    yield rules
    engine_module.use_rules(None)


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashing() -> Iterator[None]:
    """Argon2 with its production cost takes ~0.5 s a hash; the tests create many accounts."""
    from argon2 import PasswordHasher

    from server.services import accounts

    saved = accounts._hasher
    accounts._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    yield
    accounts._hasher = saved


def make_settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "env": "development",
        "scenarios_dir": ROOT / "scenarios",
        "web_dir": ROOT / "web",
        "migrations_dir": ROOT / "migrations",
    }
    values.update(overrides)
    return Settings(**values)


def _pg_dsn() -> str:
    from server.db import asyncpg_dsn

    return asyncpg_dsn(TEST_DATABASE_URL)


async def _pg_execute(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_pg_dsn(), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    try:
        _run(_pg_execute("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 any failure to reach Postgres is reported the same way
        message = f"Postgres at {TEST_DATABASE_URL} is unreachable: {exc!r}"
        if IN_CI:
            pytest.fail(message + " (CI=true: Postgres tests must run)")
        pytest.skip(message)
    schema = f"vedette_test_{os.getpid()}_{secrets.token_hex(3)}"
    _run(_pg_execute(f'CREATE SCHEMA "{schema}"'))
    from server.migrate import upgrade_head

    upgrade_head(make_settings(database_url=TEST_DATABASE_URL, db_schema=schema))
    yield schema
    _run(_pg_execute(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlite-template") / "template.db"
    from server.migrate import upgrade_head

    upgrade_head(make_settings(database_url=f"sqlite+aiosqlite:///{path}"))
    return path


def pg_settings(schema: str, **overrides: Any) -> Settings:
    _run(_pg_execute(
        f'TRUNCATE {", ".join(f"{schema}.{t}" for t in TABLES)} RESTART IDENTITY CASCADE'
    ))
    return make_settings(
        database_url=TEST_DATABASE_URL,
        db_schema=schema,
        notify_channel=f"vedette_{schema}_{uuid.uuid4().hex[:8]}",
        db_pool_size=20,
        **overrides,
    )


def sqlite_settings(template: Path, directory: Path, **overrides: Any) -> Settings:
    path = directory / "vedette.db"
    shutil.copy(template, path)
    return make_settings(database_url=f"sqlite+aiosqlite:///{path}", **overrides)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "postgres":
        return pg_settings(request.getfixturevalue("pg_schema"))
    return sqlite_settings(request.getfixturevalue("sqlite_template"), tmp_path)


@pytest.fixture
def embedded_settings(sqlite_template: Path, tmp_path: Path) -> Settings:
    """The embedded database alone, for what only SQLite has (its write-ahead log, say)."""
    return sqlite_settings(sqlite_template, tmp_path)


@pytest.fixture
def postgres_settings(pg_schema: str) -> Settings:
    return pg_settings(pg_schema)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    from server.main import create_app

    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def haproxy() -> str:
    """Debian's haproxy for the deployed shape's tests (test_proxy.py, test_proxy_pages.py)."""
    path = haproxy_path()
    if path is None:
        message = "Debian's haproxy is missing (apt-get install haproxy; `make test` installs it)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return path
