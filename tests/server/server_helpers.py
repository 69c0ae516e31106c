"""Helpers shared by the server tests (players, admin, game setup, peeking at the server)."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import jsonpatch
from fastapi.testclient import TestClient

from server.config import Settings

PASSWORD = "correct horse battery"


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


class Player:
    """A registered user driving the API through a TestClient with their bearer token."""

    def __init__(self, client: TestClient, username: str) -> None:
        self.client = client
        self.username = username
        response = client.post(
            "/api/users",
            json={"username": username, "password": PASSWORD, "email": f"{username}@example.org"},
        )
        assert response.status_code == 201, response.text
        self.token = response.json()["token"]
        self.id = response.json()["user"]["id"]
        client.cookies.clear()  # each Player speaks with its own bearer token only

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, url: str, **kw: Any) -> Any:
        return self.client.get(url, headers=self.headers, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        return self.client.post(url, headers=self.headers, **kw)

    def ws(self, game_id: str, **params: str) -> Any:
        query = "&".join([f"token={self.token}"] + [f"{k}={v}" for k, v in params.items()])
        return self.client.websocket_connect(f"/ws/games/{game_id}?{query}")


def make_admin(settings: Settings, username: str = "root") -> None:
    from server.service_cli import _create_admin

    _run(_create_admin(settings, username, PASSWORD, f"{username}@example.org"))


def login(client: TestClient, username: str) -> str:
    response = client.post("/api/session", json={"username": username, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.cookies.clear()
    return str(response.json()["token"])


def start_game(client: TestClient, side: str = "blue", visibility: str = "private") -> tuple[Player, Player, dict[str, Any]]:
    """Two players with a started game: the creator takes `side`, the other joins by invite."""
    a = Player(client, f"a{secrets.token_hex(3)}")
    b = Player(client, f"b{secrets.token_hex(3)}")
    created = a.post("/api/games", json={"scenario": "tutorial", "side": side, "visibility": visibility})
    assert created.status_code == 201, created.text
    game = created.json()
    joined = b.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]})
    assert joined.status_code == 200, joined.text
    return a, b, game


def server_game(client: TestClient, game_id: str) -> Any:
    """The engine Game as the server holds it now (a private copy; the tests may read it)."""
    app = client.app

    async def load() -> Any:

        async with app.state.sessionmaker() as session:
            row = await app.state.games.store.get_row(session, game_id)
            game = await app.state.games.store.private_engine(session, row)
            return game, game.to_json(include_log=False)

    assert client.portal is not None
    return client.portal.call(load)


def pick_command(client: TestClient, game_id: str, side: str, rng: random.Random) -> dict[str, Any]:
    """A legal command for `side`, preferring to do something before ending the phase."""
    game, _ = server_game(client, game_id)
    commands = list(game.legal_commands(side))
    assert commands, f"no legal command for {side}"
    others = [c for c in commands if c.get("type") != "end_phase"]
    if others and rng.random() < 0.6:
        return rng.choice(others)
    ends = [c for c in commands if c.get("type") == "end_phase"]
    return ends[0] if ends else rng.choice(commands)


def apply_patch(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    assert message["type"] == "patch", message
    patched: dict[str, Any] = jsonpatch.apply_patch(view, message["patch"])
    assert patched["version"] == message["version"]
    return patched


def secret_seed(client: TestClient, game_id: str) -> str:
    _, snapshot = server_game(client, game_id)
    return str(snapshot["seed"])


def client_settings(client: TestClient) -> Settings:
    settings: Settings = client.app.state.settings
    return settings
