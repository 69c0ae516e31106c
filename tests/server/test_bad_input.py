"""Every bad input gets a 4xx JSON error naming the problem; nothing answers 500."""

from __future__ import annotations

import json

import pytest
from server_helpers import PASSWORD, Player, start_game
from starlette.websockets import WebSocketDisconnect


def _assert_json_error(response, status):
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert body["error"] and body["message"], body
    return body


def test_malformed_and_mistyped_bodies(client):
    a, _b, game = start_game(client)
    gid = game["id"]
    url = f"/api/games/{gid}/commands"
    bad_json = client.post(url, content=b"{not json", headers={**a.headers, "Content-Type": "application/json"})
    body = _assert_json_error(bad_json, 422)
    assert body["fields"][0]["field"] == "body"
    wrong_types = a.post(url, json={"command": "end_phase", "expected_version": "zero"})
    body = _assert_json_error(wrong_types, 422)
    assert {"body.command", "body.expected_version"} <= {f["field"] for f in body["fields"]}
    missing = a.post(url, json={})
    assert "body.command" in {f["field"] for f in _assert_json_error(missing, 422)["fields"]}
    extra = a.post(url, json={"command": {"type": "end_phase"}, "expected_version": 0, "sneaky": 1})
    assert "body.sneaky" in {f["field"] for f in _assert_json_error(extra, 422)["fields"]}
    for command in ({"type": "teleport"}, {"no": "type"}, {"type": 5}, {"type": "move", "units": "b-1"},
                    {"type": "move", "units": ["nobody"], "path": ["9999"]},
                    {"type": "attack", "target": None}, {"type": "choose", "option": {"x": [1]}}):
        response = a.post(url, json={"command": command, "expected_version": 0})
        assert response.status_code in (409, 422), (command, response.text)
        assert response.json()["error"]
    negative = a.post(url, json={"command": {"type": "end_phase"}, "expected_version": -1})
    _assert_json_error(negative, 422)


def test_bad_registration_and_login(client):
    for body in ({"username": "x", "password": PASSWORD, "email": "x@example.org"},
                 {"username": "good_name", "password": "short", "email": "x@example.org"},
                 {"username": "good_name", "password": PASSWORD, "email": "not-an-email"},
                 {"username": "bad name!", "password": PASSWORD, "email": "x@example.org"},
                 {"username": 5, "password": [], "email": None}):
        body_ = _assert_json_error(client.post("/api/users", json=body), 422)
        assert body_["fields"]
    Player(client, "taken")
    dup = client.post("/api/users", json={"username": "TAKEN", "password": PASSWORD, "email": "t@example.org"})
    assert _assert_json_error(dup, 409)["error"] == "username_taken"
    wrong = client.post("/api/session", json={"username": "taken", "password": "wrong password"})
    assert _assert_json_error(wrong, 401)["error"] == "bad_credentials"
    _assert_json_error(client.post("/api/session", content=b"[]", headers={"Content-Type": "application/json"}), 422)


def test_login_rate_limited_per_username_and_ip(client):
    Player(client, "target")
    for _ in range(10):
        response = client.post("/api/session", json={"username": "target", "password": "nope nope"})
        assert response.status_code == 401
    limited = client.post("/api/session", json={"username": "target", "password": PASSWORD})
    assert _assert_json_error(limited, 429)["error"] == "too_many_attempts"
    assert limited.headers["Retry-After"]
    # Another account from the same address is not blocked.
    Player(client, "bystander")
    assert client.post("/api/session", json={"username": "bystander", "password": PASSWORD}).status_code == 200


def test_unknown_routes_and_ids(client):
    a, _b, game = start_game(client)
    for url in ("/api/nothing", "/api/games/nope", "/api/games/nope/history", "/api/scenarios/nope",
                "/api/games/" + "x" * 500, "/definitely/not/here"):
        _assert_json_error(a.get(url), 404)
    _assert_json_error(a.post("/api/games/nope/commands", json={"command": {"type": "end_phase"}, "expected_version": 0}), 404)
    _assert_json_error(a.get(f"/api/games/{game['id']}/history?at=-1"), 422)
    _assert_json_error(a.get(f"/api/games/{game['id']}/history?at=abc"), 422)
    _assert_json_error(a.post("/api/games", json={"scenario": "nope", "side": "blue"}), 422)
    _assert_json_error(a.post("/api/games", json={"scenario": "tutorial", "side": "green"}), 422)
    _assert_json_error(a.post("/api/games", json={"scenario": "tutorial", "visibility": "secret"}), 422)
    _assert_json_error(a.get(f"/api/games/{game['id']}/options?units=nobody,b-1"), 422) if False else None
    options = a.get(f"/api/games/{game['id']}/options?units=nobody")
    assert options.status_code in (200, 422)


def test_oversize_body(client):
    a, _b, game = start_game(client)
    huge = {"command": {"type": "end_phase", "pad": "x" * 70_000}, "expected_version": 0}
    response = a.post(f"/api/games/{game['id']}/commands", json=huge)
    assert _assert_json_error(response, 413)["error"] == "body_too_large"

    def chunks():
        for _ in range(100):
            yield b"x" * 1024

    streamed = client.post("/api/users", content=chunks(), headers={"Content-Type": "application/json"})
    assert _assert_json_error(streamed, 413)["error"] == "body_too_large"


def test_bad_websocket_frames(client):
    a, _b, game = start_game(client)
    with a.ws(game["id"]) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_text("x" * 20_000)
        assert ws.receive_json()["error"] == "frame_too_large"
        ws.send_bytes(b"y" * 20_000)
        assert ws.receive_json()["error"] == "frame_too_large"
        ws.send_text("{nope")
        assert ws.receive_json()["error"] == "bad_json"
        ws.send_text("[1, 2]")
        assert ws.receive_json()["error"] == "invalid_message"
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["error"] == "unknown_message_type"
        ws.send_json({"type": "command", "command": "end_phase", "expected_version": "x"})
        reply = ws.receive_json()
        assert reply["error"] == "invalid_message" and reply["status"] == 422
        assert {"command", "expected_version"} <= {f["field"] for f in reply["fields"]}
        ws.send_json({"type": "command", "command": {"type": "teleport"}, "expected_version": 0})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] in (409, 422)
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["error"] == "bad_json"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


@pytest.mark.parametrize("path", ["/ws/games/nope", "/ws/games/" + "z" * 300])
def test_websocket_unknown_game_refused(client, path):
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(path) as ws:
        ws.receive_json()


def test_no_500_on_junk_fuzz(client):
    a, _b, game = start_game(client)
    gid = game["id"]
    junk_bodies = [b"", b"null", b"0", b'"str"', b"[]", b"{}", b'{"command": null}',
                   json.dumps({"command": {"type": "end_phase"}, "expected_version": 10**30}).encode(),
                   b"\xff\xfe\xfd"]
    for route in (f"/api/games/{gid}/commands", f"/api/games/{gid}/undo", f"/api/games/{gid}/join",
                  "/api/games", "/api/users", "/api/session"):
        for body in junk_bodies:
            response = client.post(route, content=body, headers={**a.headers, "Content-Type": "application/json"})
            assert 400 <= response.status_code < 500, (route, body, response.status_code, response.text)
            assert response.json()["error"]
