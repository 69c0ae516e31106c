"""Messages in a game and private notes (issue 44), on SQLite and Postgres: who reads which channel, the limits,
the mute, the admin's reading and removal, the mail, the record and replay, and notes read by their author only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Player, login, make_admin, start_game

SCRIPT = "<script>alert('x')</script> & \"quotes\""


def say(player: Any, game_id: str, text: str, **params: str) -> Any:
    return player.post(f"/api/games/{game_id}/messages", json={"text": text}, params=params or None)


def texts(player: Any, game_id: str, **params: str) -> list[str]:
    response = player.get(f"/api/games/{game_id}/messages", params=params or None)
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def command(player: Any, game_id: str, cmd: dict[str, Any]) -> dict[str, Any]:
    version = player.get(f"/api/games/{game_id}").json()["version"]
    response = player.post(f"/api/games/{game_id}/commands", json={"command": cmd, "expected_version": version})
    assert response.status_code == 200, response.text
    return dict(response.json())


def watcher_of(client: TestClient, name: str) -> Player:
    return Player(client, name)


def test_each_channel_is_read_by_its_own_side_until_the_game_ends_then_by_all(client: TestClient) -> None:
    a, b, game = start_game(client)
    gid, watch = game["id"], game["watch_token"]
    w = watcher_of(client, "watcher1")
    assert say(a, gid, "blue to red").status_code == 201
    posted = say(b, gid, "red to blue")
    assert posted.status_code == 201
    assert posted.json()["channel"] == "seats" and posted.json()["side"] == "red"
    spoken = say(w, gid, "from the gallery", watch=watch)
    assert spoken.status_code == 201 and spoken.json()["channel"] == "spectators" and spoken.json()["side"] is None
    # During play: the seats read theirs only, the spectators theirs only, a logged-out visitor the spectators'.
    assert texts(a, gid) == texts(b, gid) == ["blue to red", "red to blue"]
    assert texts(w, gid, watch=watch) == ["from the gallery"]
    anonymous = client.get(f"/api/games/{gid}/messages", params={"watch": watch})
    assert anonymous.status_code == 200 and [m["text"] for m in anonymous.json()["messages"]] == ["from the gallery"]
    assert anonymous.json()["can_post"] is False
    # A logged-out visitor may read but not post; a stranger without the watch link sees nothing of a private game.
    assert client.post(f"/api/games/{gid}/messages", json={"text": "hi"}, params={"watch": watch}).status_code == 401
    stranger = Player(client, "stranger1")
    assert stranger.get(f"/api/games/{gid}/messages").status_code == 404
    assert say(stranger, gid, "let me in").status_code == 404
    # Once over, everyone who may see the game reads both channels.
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    both = ["blue to red", "red to blue", "from the gallery"]
    assert texts(a, gid) == texts(b, gid) == texts(w, gid, watch=watch) == both
    assert [m["text"] for m in client.get(f"/api/games/{gid}/messages", params={"watch": watch}).json()["messages"]] == both


def test_length_control_characters_and_nul_are_refused_with_a_4xx(client: TestClient) -> None:
    a, _, game = start_game(client)
    gid = game["id"]
    assert say(a, gid, "x" * 500).status_code == 201
    too_long = say(a, gid, "x" * 501)
    assert too_long.status_code == 422 and too_long.json()["error"] == "message_too_long"
    assert "500" in too_long.json()["message"]
    assert say(a, gid, "   ").json()["error"] == "empty_message"
    for bad in ("line\nbreak", "tab\there", "bell\x07", "esc\x1b[31m", "del\x7f", "c1\x85", "rtl\u202eevil"):
        refused = say(a, gid, bad)
        assert refused.status_code == 422, (bad, refused.text)
        assert refused.json()["error"] == "control_character"
    nul = a.client.post(f"/api/games/{gid}/messages", headers={**a.headers, "Content-Type": "application/json"},
                        content=b'{"text": "nul\\u0000here"}')
    assert nul.status_code == 400 and nul.json()["error"] == "bad_input"
    assert a.post(f"/api/games/{gid}/messages", json={"text": 5}).status_code == 422
    assert texts(a, gid) == ["x" * 500]


def test_the_rate_limit_answers_429_naming_it(client: TestClient) -> None:
    a, b, game = start_game(client)
    gid = game["id"]
    for i in range(5):
        assert say(a, gid, f"m{i}").status_code == 201
    limited = say(a, gid, "one too many")
    assert limited.status_code == 429
    body = limited.json()
    assert body["error"] == "too_many_messages" and body["limit"] == 5 and body["seconds"] == 10
    assert 1 <= body["retry_after"] <= 10 and limited.headers["Retry-After"] == str(body["retry_after"])
    assert "5 messages in 10 seconds" in body["message"]
    assert say(b, gid, "the other player is not limited by it").status_code == 201
    assert "one too many" not in texts(b, gid)


def test_a_player_mutes_the_opponent_in_one_game(client: TestClient) -> None:
    a, b, game = start_game(client)
    gid = game["id"]
    say(b, gid, "before the mute")
    say(a, gid, "my own words")
    muted = a.client.put(f"/api/games/{gid}/mute", json={"muted": True}, headers=a.headers)
    assert muted.status_code == 200 and muted.json() == {"muted": True}
    say(b, gid, "after the mute")
    listing = a.get(f"/api/games/{gid}/messages").json()
    assert listing["muted"] is True and [m["text"] for m in listing["messages"]] == ["my own words"]
    assert texts(b, gid) == ["before the mute", "my own words", "after the mute"]
    # A spectator cannot mute anyone.
    w = watcher_of(client, "watcher2")
    assert w.client.put(f"/api/games/{gid}/mute", json={"muted": True}, headers=w.headers,
                        params={"watch": game["watch_token"]}).status_code in (403, 404)
    a.client.put(f"/api/games/{gid}/mute", json={"muted": False}, headers=a.headers)
    assert texts(a, gid) == ["before the mute", "my own words", "after the mute"]


def test_the_admin_reads_and_removes_any_message(client: TestClient, settings: Any) -> None:
    a, b, game = start_game(client)
    gid, watch = game["id"], game["watch_token"]
    w = watcher_of(client, "watcher3")
    say(a, gid, "rude words")
    say(w, gid, "gallery talk", watch=watch)
    make_admin(settings, "boss")
    admin = {"Authorization": f"Bearer {login(client, 'boss')}"}
    listing = client.get(f"/api/admin/games/{gid}/messages", headers=admin)
    assert listing.status_code == 200
    messages = listing.json()["messages"]
    assert [(m["channel"], m["text"], m["removed"]) for m in messages] == [
        ("seats", "rude words", False), ("spectators", "gallery talk", False)]
    # Not for players.
    assert a.get(f"/api/admin/games/{gid}/messages").status_code == 403
    assert a.client.delete(f"/api/admin/messages/{messages[0]['id']}", headers=a.headers).status_code == 403
    removed = client.delete(f"/api/admin/messages/{messages[0]['id']}", headers=admin)
    assert removed.status_code == 200 and removed.json()["removed"] is True
    assert texts(a, gid) == texts(b, gid) == []
    assert client.delete("/api/admin/messages/999999", headers=admin).status_code == 404
    assert client.delete(f"/api/admin/messages/{10**30}", headers=admin).status_code == 422
    after = client.get(f"/api/admin/games/{gid}/messages", headers=admin).json()["messages"]
    assert [m["removed"] for m in after] == [True, False]
    # The admin (not seated) reads both channels during play through the game's own route too.
    assert [m["text"] for m in client.get(f"/api/games/{gid}/messages", headers=admin).json()["messages"]] == [
        "gallery talk"]


def test_a_message_never_becomes_a_command(client: TestClient) -> None:
    a, _, game = start_game(client)
    gid = game["id"]
    before = a.get(f"/api/games/{gid}").json()
    log_before = a.get(f"/api/games/{gid}/history").json()["log"]
    for text in ('{"type": "end_phase"}', "/resign", "undo", json.dumps({"command": {"type": "end_phase"},
                                                                           "expected_version": before["version"]})):
        assert say(a, gid, text).status_code == 201
    after = a.get(f"/api/games/{gid}").json()
    assert after["version"] == before["version"] and after["game"]["status"] == "active"
    assert a.get(f"/api/games/{gid}/history").json()["log"] == log_before
    # Over the socket, a message is no frame type at all: it is refused, and nothing is applied.
    with a.ws(gid) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "message", "text": "end_phase", "command": {"type": "end_phase"}})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["error"] == "unknown_message_type"
    assert a.get(f"/api/games/{gid}").json()["version"] == before["version"]


def test_a_message_is_pushed_to_who_reads_its_channel_only(client: TestClient) -> None:
    a, b, game = start_game(client)
    gid, watch = game["id"], game["watch_token"]
    w = watcher_of(client, "watcher4")
    with b.ws(gid) as seat_ws, w.ws(gid, watch=watch) as watch_ws:
        assert seat_ws.receive_json()["type"] == "snapshot"
        assert watch_ws.receive_json()["type"] == "snapshot"
        say(a, gid, "private to the seats")
        frame = seat_ws.receive_json()
        while frame["type"] == "patch":  # the spectator's arrival may be pushed first
            frame = seat_ws.receive_json()
        assert frame == {"type": "chat", "channel": "seats"}  # a nudge only: the page reads what it may
        say(w, gid, "gallery", watch=watch)
        frame = watch_ws.receive_json()
        while frame["type"] == "patch":
            frame = watch_ws.receive_json()
        assert frame == {"type": "chat", "channel": "spectators"}  # and not the seats' nudge before it
        seat_ws.send_json({"type": "ping"})
        frame = seat_ws.receive_json()
        while frame["type"] == "patch":
            frame = seat_ws.receive_json()
        assert frame == {"type": "pong"}  # the seat was not told of the spectators' message


def test_messages_are_in_the_record_and_the_replay_at_their_point(client: TestClient) -> None:
    a, b, game = start_game(client)
    gid = game["id"]
    say(a, gid, f"at the start {SCRIPT}")
    command(a, gid, {"type": "end_phase"})
    version = a.get(f"/api/games/{gid}").json()["version"]
    say(b, gid, "after the first command")
    early = a.get(f"/api/games/{gid}/history", params={"at": 0}).json()
    assert [m["text"] for m in early["messages"]] == [f"at the start {SCRIPT}"]
    assert a.get(f"/api/games/{gid}/messages", params={"at": 0}).json()["messages"] == early["messages"]
    too_far = a.get(f"/api/games/{gid}/messages", params={"at": str(10**30)})
    assert too_far.status_code == 422 and too_far.json()["error"] == "bad_version"
    later = a.get(f"/api/games/{gid}/history", params={"at": version}).json()
    assert [m["text"] for m in later["messages"]] == [f"at the start {SCRIPT}", "after the first command"]
    assert [m["version"] for m in later["messages"]] == [0, version]
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    record = a.get(f"/api/games/{gid}/record")
    assert record.status_code == 200
    assert [(m["channel"], m["version"], m["text"]) for m in record.json()["messages"]] == [
        ("seats", 0, f"at the start {SCRIPT}"), ("seats", version, "after the first command")]
    # JSON, served as JSON: the text is a string value, never markup.
    assert record.headers["content-type"].startswith("application/json")


def test_the_your_decision_mail_quotes_the_opponents_messages_as_plain_text(client: TestClient) -> None:
    a, b, game = start_game(client)  # a: blue, moves first; b: red, absent (no socket)
    gid = game["id"]
    say(a, gid, f"good luck {SCRIPT}")
    say(b, gid, "muted? not yet")
    rows = _end_blue_turn(client, a, gid)
    mail = next(r for r in rows if r.kind == "your_turn" and r.to_addr == f"{b.username}@example.org")
    assert f"Blue Army ({a.username}): good luck {SCRIPT}" in mail.body
    assert f"/games/{gid}#messages" in mail.body  # the link to answer
    assert "Messages since your last decision" in mail.body
    # The mail is plain text only (no HTML part a message could script): its one part says so.
    from server.notify.mailer import build_message, mail_from_row

    message = build_message(client.app.state.notify.nsettings, mail_from_row(mail, {}))
    assert message.get_content_type() == "text/plain" and not message.is_multipart()
    assert "<script>" in message.get_content() and "&lt;" not in message.get_content()


def _end_blue_turn(client: TestClient, a: Player, gid: str) -> list[Any]:
    from sqlalchemy import select

    from server.notify.models import OutboxMail

    for _ in range(10):
        view = a.get(f"/api/games/{gid}").json()["view"]
        if view["awaiting"] != "blue":
            break
        command(a, gid, {"type": "end_phase"})
    app = client.app
    assert client.portal is not None
    client.portal.call(app.state.notify.wait_idle)

    async def load() -> list[Any]:
        async with app.state.sessionmaker() as session:
            return list((await session.scalars(select(OutboxMail).order_by(OutboxMail.id))).all())

    return list(client.portal.call(load))


def test_a_muted_opponents_messages_are_not_mailed(client: TestClient) -> None:
    a, b, game = start_game(client)
    gid = game["id"]
    b.client.put(f"/api/games/{gid}/mute", json={"muted": True}, headers=b.headers)
    say(a, gid, "you will not read this in your mail")
    say(b, gid, "my own line")
    rows = _end_blue_turn(client, a, gid)
    mail = next(r for r in rows if r.kind == "your_turn" and r.to_addr == f"{b.username}@example.org")
    assert "you will not read this" not in mail.body
    assert "my own line" in mail.body


def test_a_note_is_read_by_its_author_only(client: TestClient, settings: Any) -> None:
    a, b, game = start_game(client)
    gid, watch = game["id"], game["watch_token"]
    secret = "NOTE-SECRET-attack the left at dawn <b>"
    put = a.client.put(f"/api/games/{gid}/note", json={"text": secret + "\nline two\ttabbed"}, headers=a.headers)
    assert put.status_code == 200 and put.json()["text"] == secret + "\nline two\ttabbed"
    assert a.get(f"/api/games/{gid}/note").json()["text"] == secret + "\nline two\ttabbed"
    assert b.get(f"/api/games/{gid}/note").json()["text"] == ""  # the opponent reads its own (none)
    w = watcher_of(client, "watcher5")
    # A spectator of this private game: the note route takes no watch link, so the game is not there for it.
    assert w.get(f"/api/games/{gid}/note", params={"watch": watch}).status_code == 404
    assert client.get(f"/api/games/{gid}/note", params={"watch": watch}).status_code == 401
    make_admin(settings, "root2")
    admin = {"Authorization": f"Bearer {login(client, 'root2')}"}
    assert client.get(f"/api/games/{gid}/note", headers=admin).status_code == 403
    # Refusals: a control character, too long.
    bad = a.client.put(f"/api/games/{gid}/note", json={"text": "bell\x07"}, headers=a.headers)
    assert bad.status_code == 422 and bad.json()["error"] == "control_character"
    assert a.client.put(f"/api/games/{gid}/note", json={"text": "x" * 4001}, headers=a.headers).status_code == 422
    # Nowhere else: views, history, replay, messages, record, lobby, admin views and messages, the socket, mails.
    say(a, gid, "a message")
    reads = [
        b.get(f"/api/games/{gid}"), a.get(f"/api/games/{gid}"), w.get(f"/api/games/{gid}", params={"watch": watch}),
        b.get(f"/api/games/{gid}/history"), b.get(f"/api/games/{gid}/history", params={"at": 0}),
        a.get(f"/api/games/{gid}/history", params={"at": 0}), b.get(f"/api/games/{gid}/messages"),
        a.get(f"/api/games/{gid}/messages"), a.get("/api/games"), b.get("/api/games"),
        client.get("/api/admin/games", headers=admin), client.get(f"/api/admin/games/{gid}/messages", headers=admin),
        client.get(f"/api/games/{gid}/record", headers=admin), client.get(f"/api/games/{gid}", headers=admin),
    ]
    for response in reads:
        assert response.status_code == 200, response.text
        assert "NOTE-SECRET" not in response.text, response.url
    with b.ws(gid) as ws:
        assert "NOTE-SECRET" not in json.dumps(ws.receive_json())
    rows = _end_blue_turn(client, a, gid)
    assert rows and all("NOTE-SECRET" not in r.body for r in rows)
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    for response in (b.get(f"/api/games/{gid}/record"), w.get(f"/api/games/{gid}/record", params={"watch": watch}),
                     a.get(f"/api/games/{gid}/record")):
        assert response.status_code == 200 and "NOTE-SECRET" not in response.text
    # Emptied, it is gone.
    a.client.put(f"/api/games/{gid}/note", json={"text": ""}, headers=a.headers)
    assert a.get(f"/api/games/{gid}/note").json()["text"] == ""


@pytest.mark.parametrize("path", ["messages", "note", "mute"])
def test_the_routes_of_a_missing_game_are_404(client: TestClient, path: str) -> None:
    a = Player(client, f"lonely{path}")
    assert a.get(f"/api/games/nosuchgame/{path}").status_code in (404, 405)
