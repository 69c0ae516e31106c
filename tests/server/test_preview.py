"""GET /api/games/{id}/preview: one exact attack or bombardment judged without being made (the page's
attack builder). Seats only; nothing changes; bad input is a clear 422."""

from __future__ import annotations

import json

from server_helpers import Player, start_game


def test_preview_is_for_seats_changes_nothing_and_refuses_bad_json(client):
    a, _b, game = start_game(client)
    gid = game["id"]
    attack = {"type": "attack", "target": "0605", "attackers": ["b-1"], "primary": "b-1"}
    ok = a.get(f"/api/games/{gid}/preview", params={"command": json.dumps(attack)})
    assert ok.status_code == 200, ok.text
    body = ok.json()
    assert body["version"] == 0
    # the tutorial opens in set-up: no attack can be judged yet, and the answer says why (7.0)
    assert body["preview"]["legal"] is False and body["preview"]["rule"] == "7.0"
    bad = a.get(f"/api/games/{gid}/preview", params={"command": "{not json"})
    assert bad.status_code == 422 and bad.json()["error"] == "malformed_command"
    move = a.get(f"/api/games/{gid}/preview", params={"command": json.dumps({"type": "move"})})
    assert move.status_code == 422 and move.json()["error"] == "illegal_command"
    stranger = Player(client, "strangerpreview").get(f"/api/games/{gid}/preview", params={"command": json.dumps(attack)})
    assert stranger.status_code in (403, 404)
    assert a.get(f"/api/games/{gid}").json()["version"] == 0
