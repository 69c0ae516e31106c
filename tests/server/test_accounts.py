"""Accounts (server/services/accounts.py): password work stays off the event loop (issue 16)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from server_helpers import PASSWORD, Player, start_game
from starlette.websockets import WebSocketDisconnect

from server.api.routes.ws import CLOSE_NOT_FOUND
from server.services import accounts


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_registration_and_login_hash_and_verify_on_a_worker_thread(client, monkeypatch):
    """Argon2 takes ~0.1-0.2 s per hash at production cost; on the loop that would stall every game the
    process serves. Each call records whether an event loop was running on its thread."""
    calls: list[tuple[str, bool]] = []
    hash_password, verify_password = accounts.hash_password, accounts.verify_password

    def recording_hash(password: str) -> str:
        calls.append(("hash", _on_event_loop()))
        return hash_password(password)

    def recording_verify(password_hash: str, password: str) -> bool:
        calls.append(("verify", _on_event_loop()))
        return verify_password(password_hash, password)

    monkeypatch.setattr(accounts, "hash_password", recording_hash)
    monkeypatch.setattr(accounts, "verify_password", recording_verify)
    Player(client, "offloop")
    good = client.post("/api/session", json={"username": "offloop", "password": PASSWORD})
    wrong = client.post("/api/session", json={"username": "offloop", "password": "wrong password"})
    unknown = client.post("/api/session", json={"username": "nobody_here", "password": PASSWORD})
    assert (good.status_code, wrong.status_code, unknown.status_code) == (200, 401, 401)
    assert [kind for kind, _ in calls].count("hash") >= 1
    assert [kind for kind, _ in calls].count("verify") >= 3
    assert not any(on_loop for _, on_loop in calls), calls


def test_the_creation_quota_counts_an_accounts_games_only_up_to_the_limit(client):
    """The creation quota (issue 12, `check_game_quota`) asks whether a limit is reached: it counts at most that
    many games, so an account with thousands of games costs no scan of them all per game created."""
    player = Player(client, "counted")
    for _ in range(4):
        assert player.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).status_code == 201
    user_id = player.get("/api/me").json()["id"]
    app = client.app

    async def count(limit):
        async with app.state.sessionmaker() as session:
            return await accounts._count_up_to(session, accounts._WAITING_GAMES, limit, user_id=user_id)

    assert [client.portal.call(count, limit) for limit in (0, 3, 4, 10)] == [0, 3, 4, 4]


def _both_lookups(client, token):
    """The ORM lookup (the account routes) and the plain one (the websocket handshake and the game
    routes), for one token."""
    app = client.app
    settings = app.state.settings

    async def ask():
        async with app.state.sessionmaker() as session:
            orm = await accounts.user_for_token(session, settings, token)
        plain = await accounts.user_for_token_plain(app.state.engine, settings, token)
        return orm, plain

    return client.portal.call(ask)


def test_the_handshakes_plain_token_lookup_names_the_same_account_as_the_orm_lookup(client):
    """`user_for_token_plain` (issue 16: a player's websocket handshake opens no ORM session) finds the
    account the ORM lookup finds, with the same id, name, address, admin flag and creation time."""
    player = Player(client, "plainly")
    orm, plain = _both_lookups(client, player.token)
    assert orm is not None and plain is not None
    for column in ("id", "username", "email", "is_admin", "created_at"):
        assert getattr(plain, column) == getattr(orm, column), column
    assert plain.created_at.tzinfo is not None


def test_the_plain_token_lookup_refuses_what_the_orm_lookup_refuses(client):
    """Unknown, empty, over-long and expired tokens are nobody, by either lookup; and a player whose
    session has expired is a stranger to its own private game at the websocket handshake, even while this
    process serves the game live, and on the game routes."""
    player, _other, game = start_game(client)
    app = client.app

    async def expire():
        from sqlalchemy import update

        from server.models import UserSession

        async with app.state.sessionmaker() as session:
            await session.execute(update(UserSession).where(UserSession.user_id == player.id)
                                  .values(expires_at=accounts.utcnow() - timedelta(seconds=1)))
            await session.commit()

    for token in ("no-such-token", "", None, "x" * 201):
        assert _both_lookups(client, token) == (None, None), token
    assert all(found is not None for found in _both_lookups(client, player.token))
    with player.ws(game["id"]) as ws:
        assert ws.receive_json()["view"]["game"]["you"] == "blue"
    client.portal.call(expire)
    assert _both_lookups(client, player.token) == (None, None)
    assert player.get("/api/me").status_code == 401
    # The game routes find who acts by the plain lookup: the expired session is nobody there too.
    assert player.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).status_code == 401
    assert player.get(f"/api/games/{game['id']}").status_code == 404  # a stranger to the private game
    assert player.get("/api/games").json()["mine"] == []
    with pytest.raises(WebSocketDisconnect) as refused, player.ws(game["id"]) as ws:
        ws.receive_json()
    assert refused.value.code == CLOSE_NOT_FOUND
