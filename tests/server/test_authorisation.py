"""The authorisation matrix, table-driven over every route and role (and the websocket)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from server_helpers import Player, login, make_admin, server_game, start_game
from starlette.websockets import WebSocketDisconnect

ROLES = ["anonymous", "stranger", "watcher", "mover", "waiter", "admin"]


@dataclass
class World:
    client: Any
    game: dict[str, Any]
    headers: dict[str, dict[str, str]]
    mover_side: str
    waiter_side: str
    legal: dict[str, Any]
    own_unit: dict[str, str]

    def query(self, role: str) -> str:
        # The watcher is anonymous and holds only the watch token.
        return f"?watch={self.game['watch_token']}" if role == "watcher" else ""


@pytest.fixture
def world(client, settings) -> World:
    a, b, game = start_game(client, side="blue")
    stranger = Player(client, "stranger")
    make_admin(settings, "boss")
    admin_token = login(client, "boss")
    engine_game, _ = server_game(client, game["id"])
    mover_side = engine_game.awaiting
    waiter_side = "red" if mover_side == "blue" else "blue"
    by_side = {"blue": a, "red": b}
    legal = next(iter(engine_game.legal_commands(mover_side)))
    scenario_units = client.get("/api/scenarios/tutorial").json()["units"]
    own_unit = {side: next(u["id"] for u in scenario_units if u["side"] == side) for side in ("blue", "red")}
    return World(
        client=client,
        game=game,
        headers={
            "anonymous": {},
            "watcher": {},
            "stranger": stranger.headers,
            "mover": by_side[mover_side].headers,
            "waiter": by_side[waiter_side].headers,
            "admin": {"Authorization": f"Bearer {admin_token}"},
        },
        mover_side=mover_side,
        waiter_side=waiter_side,
        legal=legal,
        own_unit=own_unit,
    )


def _command_body(w: World) -> dict[str, Any]:
    return {"command": w.legal, "expected_version": 0, "command_id": str(uuid.uuid4())}


def _version(w: World) -> int:
    return int(w.client.get(f"/api/games/{w.game['id']}", headers=w.headers["admin"]).json()["version"])


Row = tuple[str, str, Callable[[World, str], Any], dict[str, int]]

# Expected status per role on a PRIVATE, started game where `mover` must decide.
# 404 = the game is invisible to that caller; 401 = log in first; 403 = seen but not allowed.
MATRIX: list[Row] = [
    ("GET", "/api/games/{id}", lambda w, r: None,
     {"anonymous": 404, "stranger": 404, "watcher": 200, "mover": 200, "waiter": 200, "admin": 200}),
    ("GET", "/api/games/{id}/history", lambda w, r: None,
     {"anonymous": 404, "stranger": 404, "watcher": 200, "mover": 200, "waiter": 200, "admin": 200}),
    ("GET", "/api/games/{id}/history?at=0", lambda w, r: None,
     {"anonymous": 404, "stranger": 404, "watcher": 200, "mover": 200, "waiter": 200, "admin": 200}),
    ("GET", "/api/games/{id}/record", lambda w, r: None,
     {"anonymous": 404, "stranger": 404, "watcher": 403, "mover": 403, "waiter": 403, "admin": 200}),
    ("GET", "/api/games/{id}/options?units={unit}", lambda w, r: None,
     {"anonymous": 401, "stranger": 404, "watcher": 401, "mover": 200, "waiter": 200, "admin": 403}),
    ("POST", "/api/games/{id}/commands", lambda w, r: _command_body(w),
     {"anonymous": 401, "stranger": 404, "watcher": 401, "waiter": 422, "admin": 403, "mover": 200}),
    ("POST", "/api/games/{id}/undo", lambda w, r: {"expected_version": _version(w)},
     {"anonymous": 401, "stranger": 404, "watcher": 401, "admin": 403, "waiter": 422}),
    ("POST", "/api/games/{id}/join", lambda w, r: {"invite_token": w.game["invite_token"]},
     {"anonymous": 401, "watcher": 401, "mover": 409, "waiter": 409, "admin": 409, "stranger": 409}),
    ("POST", "/api/games/{id}/join", lambda w, r: {},
     {"anonymous": 401, "watcher": 401, "stranger": 404, "mover": 409, "waiter": 409, "admin": 409}),
    ("POST", "/api/games", lambda w, r: {"scenario": "tutorial", "side": "random", "visibility": "open"},
     {"anonymous": 401, "watcher": 401, "stranger": 201, "mover": 201, "waiter": 201, "admin": 201}),
    ("GET", "/api/games", lambda w, r: None,
     {"anonymous": 200, "watcher": 200, "stranger": 200, "mover": 200, "waiter": 200, "admin": 200}),
    ("GET", "/api/admin/games", lambda w, r: None,
     {"anonymous": 401, "watcher": 401, "stranger": 403, "mover": 403, "waiter": 403, "admin": 200}),
    ("GET", "/api/me", lambda w, r: None,
     {"anonymous": 401, "watcher": 401, "stranger": 200, "mover": 200, "waiter": 200, "admin": 200}),
    ("GET", "/api/scenarios", lambda w, r: None, {r: 200 for r in ROLES}),
    ("GET", "/api/scenarios/tutorial", lambda w, r: None, {r: 200 for r in ROLES}),
    ("GET", "/healthz", lambda w, r: None, {r: 200 for r in ROLES}),
    # Resign last: it ends the game.
    ("POST", "/api/games/{id}/resign", lambda w, r: None,
     {"anonymous": 401, "watcher": 401, "stranger": 404, "admin": 403, "waiter": 200}),
]


def _url(w: World, template: str, role: str) -> str:
    side = w.mover_side if role == "mover" else w.waiter_side
    url = template.format(id=w.game["id"], unit=w.own_unit[side])
    q = w.query(role)
    if q:
        url += ("&" + q[1:]) if "?" in url else q
    return url


def test_authorisation_matrix(world: World):
    problems = []
    for method, template, body, expected in MATRIX:
        for role in expected:  # in the row's order: an allowed mutation comes last
            url = _url(world, template, role)
            payload = body(world, role)
            response = world.client.request(
                method, url, headers=world.headers[role], json=payload if payload is not None else None
            )
            if response.status_code != expected[role]:
                problems.append(f"{method} {template} as {role}: {response.status_code} {response.text[:200]}")
            elif response.status_code >= 400:
                assert "error" in response.json() and "message" in response.json()
    assert not problems, "\n".join(problems)


def test_private_game_invisible_in_lists(world: World):
    for role in ("anonymous", "stranger", "admin"):
        listing = world.client.get("/api/games", headers=world.headers[role]).json()
        ids = {g["id"] for g in listing["mine"] + listing["open"]}
        assert world.game["id"] not in ids, role


def test_open_game_watchable_by_anyone_and_joinable_without_token(client):
    creator = Player(client, "creator")
    game = creator.post("/api/games", json={"scenario": "tutorial", "side": "red", "visibility": "open"}).json()
    assert client.get(f"/api/games/{game['id']}").json()["viewer"] == "spectator"
    listing = client.get("/api/games").json()
    assert game["id"] in {g["id"] for g in listing["open"]}
    assert "invite_token" not in [k for g in listing["open"] for k, v in g.items() if v]
    joiner = Player(client, "joiner")
    joined = joiner.post(f"/api/games/{game['id']}/join")
    assert joined.status_code == 200, joined.text
    assert joined.json()["your_side"] == "blue"
    third = Player(client, "third")
    assert third.post(f"/api/games/{game['id']}/join").status_code == 409


def test_websocket_roles(world: World):
    client, game_id = world.client, world.game["id"]
    # Unknown callers cannot even open a private game's socket.
    for suffix in ("", "?token=nonsense", f"?token={world.headers['stranger']['Authorization'][7:]}"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/games/{game_id}{suffix}") as ws:
            ws.receive_json()
    # The watcher sees the spectator view and may not command.
    with client.websocket_connect(f"/ws/games/{game_id}?watch={world.game['watch_token']}") as ws:
        hello = ws.receive_json()
        assert hello["view"]["game"]["you"] == "spectator"
        ws.send_json({"type": "command", **_command_body(world)})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 401
    # The admin sees the admin view and may not command.
    admin_token = world.headers["admin"]["Authorization"][7:]
    with client.websocket_connect(f"/ws/games/{game_id}?token={admin_token}") as ws:
        hello = ws.receive_json()
        assert hello["view"]["game"]["you"] == "admin"
        ws.send_json({"type": "command", **_command_body(world)})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 403 and reply["error"] == "not_a_player"
    # The waiting seat may not act for the other side.
    waiter_token = world.headers["waiter"]["Authorization"][7:]
    with client.websocket_connect(f"/ws/games/{game_id}?token={waiter_token}") as ws:
        hello = ws.receive_json()
        assert hello["view"]["game"]["you"] == world.waiter_side
        ws.send_json({"type": "command", **_command_body(world)})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 422, reply


def test_websocket_origin_checked(world: World):
    client, game_id = world.client, world.game["id"]
    token = world.headers["mover"]["Authorization"][7:]
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
        f"/ws/games/{game_id}?token={token}", headers={"Origin": "https://evil.example"}
    ) as ws:
        ws.receive_json()
    with client.websocket_connect(
        f"/ws/games/{game_id}?token={token}", headers={"Origin": "http://testserver"}
    ) as ws:
        assert ws.receive_json()["type"] == "snapshot"


def test_websocket_cookie_auth(world: World):
    client, game_id = world.client, world.game["id"]
    client.cookies.set("vedette_session", world.headers["mover"]["Authorization"][7:])
    try:
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            assert ws.receive_json()["view"]["game"]["you"] == world.mover_side
    finally:
        client.cookies.clear()
