"""Accounts (server/services/accounts.py): password work stays off the event loop (issue 16)."""

from __future__ import annotations

import asyncio

from server_helpers import PASSWORD, Player

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
