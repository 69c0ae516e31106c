"""Settings, the CLI's service commands, migrations and the static client mount."""

from __future__ import annotations

import argparse

import pytest
from pydantic import ValidationError
from server_helpers import PASSWORD

from server import service_cli
from server.config import Settings
from server.services.commandlog import close_engine


def test_default_secret_refused_outside_development():
    with pytest.raises(ValidationError, match="VEDETTE_SECRET_KEY"):
        Settings(env="production")
    assert Settings(env="production", secret_key="x" * 40).env == "production"
    assert Settings().env == "development"


def test_database_url_from_env(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@h/db")
    assert Settings().database_url == "postgresql+asyncpg://u@h/db"
    monkeypatch.delenv("DATABASE_URL")
    assert Settings().database_url.startswith("sqlite+aiosqlite:///")


def test_cli_parsers_and_migrate_and_create_admin(tmp_path, monkeypatch):
    parser = argparse.ArgumentParser()
    service_cli.add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--host", "0.0.0.0", "--port", "9000", "--workers", "2"])
    assert (args.host, args.port, args.workers) == ("0.0.0.0", 9000, 2)
    db = tmp_path / "fresh.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{db}")
    from server.config import get_settings

    get_settings.cache_clear()
    try:
        assert service_cli.migrate_command(parser.parse_args(["migrate"])) == 0
        assert service_cli.migrate_command(parser.parse_args(["migrate"])) == 0  # idempotent
        monkeypatch.setenv("VEDETTE_ADMIN_PASSWORD", PASSWORD)
        assert service_cli.create_admin_command(parser.parse_args(["create-admin", "Chief"])) == 0
        assert service_cli.create_admin_command(parser.parse_args(["create-admin", "chief", "--password", "short"])) == 2
        from fastapi.testclient import TestClient

        from server.main import create_app

        with TestClient(create_app(get_settings())) as client:
            login = client.post("/api/session", json={"username": "chief", "password": PASSWORD})
            assert login.status_code == 200 and login.json()["user"]["is_admin"] is True
            assert "httponly" in login.headers["set-cookie"].lower()
            assert "samesite=lax" in login.headers["set-cookie"].lower()
            assert client.get("/api/me").json()["username"] == "chief"  # via the cookie
            assert client.delete("/api/session").status_code == 204
            client.cookies.clear()
            assert client.get("/api/me", headers={"Authorization": f"Bearer {login.json()['token']}"}).status_code == 401
    finally:
        get_settings.cache_clear()


def test_pages_docs_and_health(client):
    assert client.get("/").status_code == 200
    assert "text/html" in client.get("/games/abc").headers["content-type"]
    assert "text/html" in client.get("/admin").headers["content-type"]
    assert client.get("/docs").status_code == 200
    assert "/api/games/{game_id}/commands" in client.get("/openapi.json").json()["paths"]
    health = client.get("/healthz").json()
    from alembic.script import ScriptDirectory
    from server_helpers import client_settings

    from server.migrate import alembic_config

    head = ScriptDirectory.from_config(alembic_config(client_settings(client))).get_current_head()
    assert health["database"]["ok"] and health["database"]["schema"] == head


def test_session_tokens_stored_only_as_hashes(client, settings):
    import asyncio

    from server_helpers import Player
    from sqlalchemy import select

    from server.db import create_engine, create_sessionmaker
    from server.models import UserSession

    player = Player(client, "hashme")

    async def stored():
        engine = create_engine(settings)
        try:
            async with create_sessionmaker(engine)() as session:
                return list((await session.scalars(select(UserSession.token_hash))).all())
        finally:
            await close_engine(engine)

    hashes = asyncio.run(stored())
    assert hashes and player.token not in hashes


def test_r11_a_fixed_game_seed_is_refused_outside_the_test_environment():
    from pydantic import ValidationError

    from server.config import Settings

    for env in ("development", "production"):
        with pytest.raises(ValidationError, match="VEDETTE_TEST_GAME_SEED"):
            Settings(env=env, secret_key="x" * 40, test_game_seed="fixed-seed-0123456789")
    assert Settings(env="test", secret_key="x" * 40, test_game_seed="fixed-seed-0123456789").test_game_seed
