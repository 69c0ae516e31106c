"""`GameStore.held_live` (issue 16): a new viewer's snapshot of a game this process serves live is built from
the live game without reading its row, but only while the database confirms the live game's version and
status; otherwise, and for a game still waiting for its second player, the row is read."""

from __future__ import annotations

import dataclasses
from typing import Any

from server_helpers import Player, start_game


def _held(client: Any, game_id: str) -> Any:
    app = client.app

    async def ask() -> Any:
        return await app.state.games.store.held_live(app.state.engine, game_id)

    return client.portal.call(ask)


def test_a_started_game_held_here_is_served_without_its_row_and_its_snapshot_is_the_same(client) -> None:
    blue, red, game = start_game(client)
    held = _held(client, game["id"])
    assert held is not None
    meta, _engine, _scenario = held
    assert (meta.version, meta.status) == (0, "active")
    with red.ws(game["id"]) as ws:
        snapshot = ws.receive_json()
    assert snapshot["type"] == "snapshot" and snapshot["version"] == 0
    assert snapshot["view"]["game"]["you"] == "red" and snapshot["view"]["game"]["status"] == "active"
    assert snapshot["view"]["seats"] == {"blue": blue.username, "red": red.username}

    # The same snapshot from the row: this process forgets the live game and must read it.
    client.app.state.games.store.forget(game["id"])
    assert _held(client, game["id"]) is None
    with red.ws(game["id"]) as ws:
        from_row = ws.receive_json()
    assert from_row == snapshot


def test_a_live_game_the_database_has_moved_past_is_not_served_from_memory(client) -> None:
    _blue, _red, game = start_game(client)
    store = client.app.state.games.store
    meta = store.recent.meta(game["id"])
    # As if another process had stored a command: this process's live game is one version behind.
    store.recent.drop(game["id"])
    store.recent.seed(dataclasses.replace(meta, version=meta.version + 1))
    store.engines.put(game["id"], meta.version + 1, store.engines.get(game["id"], meta.version))
    assert _held(client, game["id"]) is None


def test_a_waiting_game_is_never_served_from_memory(client) -> None:
    """A join or a dice contribution changes a waiting game without moving its version on."""
    host = Player(client, "held-host")
    game = host.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).json()
    # A command sent too early: refused, and the process now holds the waiting game live.
    early = host.post(f"/api/games/{game['id']}/commands", json={"command": {"type": "end_phase"}, "expected_version": 0})
    assert early.status_code == 409 and early.json()["error"] == "game_not_started"
    assert client.app.state.games.store.recent.meta(game["id"]).status == "waiting"
    assert _held(client, game["id"]) is None
