"""Asynchronous play end to end: real SMTP (aiosmtpd), the real app, SQLite and Postgres."""

from __future__ import annotations

import time
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from notify_helpers import (
    RETREAT_OPENING,
    Clock,
    call,
    command,
    end_phases_until_not,
    force_seed,
    game_view,
    mail_body,
    notify_client,
    outbox_rows,
    retreat_seed,
    runtime,
    settle,
)
from server_helpers import Player, secret_seed, server_game, start_game


def _join_mails(inbox, a, b):
    inbox.wait_for(2)
    assert inbox.kinds(f"{a.username}@example.org") == ["opponent_joined"]
    assert inbox.kinds(f"{b.username}@example.org") == ["game_started"]
    inbox.clear()


def _link_in(body: str, game_id: str) -> str:
    return next(w for w in body.split() if w.startswith("http://testserver/games/") and game_id in w)


def test_handing_over_the_decision_mails_that_player_once_with_link_and_digest(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        a, b, game = start_game(client)  # a: blue (moves first), b: red
        gid = game["id"]
        _join_mails(inbox, a, b)
        blue_game, _ = server_game(client, gid)
        place = next(c for c in blue_game.legal_commands("blue") if c["type"] == "place")
        command(a, gid, place)  # hidden from red: a set-up placement (3.2)
        command(a, gid, {"type": "end_phase"})
        command(a, gid, RETREAT_OPENING[1])  # the Dragoons ride out
        assert inbox.messages == []  # still blue's decision: nobody is mailed
        end_phases_until_not(a, gid, "blue")
        assert game_view(b, gid)["view"]["awaiting"] == "red"
        (mail,) = inbox.wait_for(1)
        time.sleep(0.5)  # and no second one
        assert len(inbox.messages) == 1
        assert mail["To"] == f"{b.username}@example.org" and mail["X-Vedette-Kind"] == "your_turn"
        body = mail_body(mail)
        assert "Dragoons moves 0208 > 0308 > 0407 > 0508 > 0608 > 0709" in body
        assert "placed at" not in body  # the placement's log entry is Blue's alone
        assert secret_seed(client, gid) not in body
        link = _link_in(body, gid)
        assert client.get(urlsplit(link).path).status_code == 200
        unsubscribe = next(w for w in body.split() if "/api/notifications/unsubscribe?token=" in w)
        assert mail["List-Unsubscribe"] == f"<{unsubscribe}>"
        # The lobby's "your move" feed for red.
        feed = b.get("/api/me/awaiting").json()
        assert feed["count"] == 1 and feed["games"][0]["id"] == gid
        assert feed["games"][0]["awaiting_since"] is not None
        assert a.get("/api/me/awaiting").json()["count"] == 0


def test_a_crash_between_commit_and_send_loses_no_mail_and_sends_none_twice(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port, outbox_worker=False) as client:  # the worker "died"
        a, _b, game = start_game(client)
        gid = game["id"]
        end_phases_until_not(a, gid, "blue")
        rows = outbox_rows(client)
        assert [r.kind for r in rows] == ["opponent_joined", "game_started", "your_turn"]
        assert all(r.status == "pending" for r in rows)
    assert inbox.messages == []
    with notify_client(settings, port) as client:  # restart: a fresh worker
        inbox.wait_for(3)
        time.sleep(0.5)
        assert sorted(inbox.kinds()) == ["game_started", "opponent_joined", "your_turn"]
        assert all(r.status == "sent" and r.attempts == 1 for r in outbox_rows(client))
    with notify_client(settings, port) as client:  # and another restart sends nothing again
        time.sleep(0.6)
        assert len(inbox.messages) == 3


def test_a_deadline_expiring_with_nobody_online_reminds_then_goes_overdue_then_claim(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        clock = Clock()
        rt = runtime(client)
        rt.set_clock(clock)
        a = Player(client, "dlblue")
        b = Player(client, "dlred")
        created = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "decision_hours": 10})
        assert created.status_code == 201, created.text
        gid = created.json()["id"]
        assert b.post(f"/api/games/{gid}/join", json={"invite_token": created.json()["invite_token"]}).status_code == 200
        inbox.wait_for(2)
        inbox.clear()
        start = clock.now
        state = a.get(f"/api/games/{gid}/clock").json()
        assert state["decision_hours"] == 10 and state["waiting_for"] == "blue"
        assert state["deadline_at"] == (start + timedelta(hours=10)).isoformat()

        clock.advance(hours=7)
        assert call(client, rt.scheduler.tick)["reminders"] == 0
        clock.advance(hours=1, minutes=1)  # under a fifth (2 h) left
        assert call(client, rt.scheduler.tick)["reminders"] == 1
        assert call(client, rt.scheduler.tick)["reminders"] == 0  # only once
        (reminder,) = inbox.wait_for(1)
        assert reminder["To"] == "dlblue@example.org" and reminder["X-Vedette-Kind"] == "deadline_reminder"
        assert b.post(f"/api/games/{gid}/claim").status_code == 409  # not overdue yet

        clock.advance(hours=2)
        assert call(client, rt.scheduler.tick)["overdue"] == 1
        inbox.wait_for(3)
        assert sorted(inbox.kinds()[1:]) == ["overdue", "overdue"]
        red_view = b.get(f"/api/games/{gid}/clock").json()
        assert red_view["overdue"] and red_view["can_claim"] and red_view["can_extend"]
        assert not a.get(f"/api/games/{gid}/clock").json()["can_claim"]
        assert a.post(f"/api/games/{gid}/claim").status_code == 409  # the late player cannot claim

        claimed = b.post(f"/api/games/{gid}/claim")
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["result"]["winner"] == "red"
        over = game_view(b, gid)
        assert over["game"]["status"] == "over" and over["view"]["result"]["winner"] == "red"
        last = b.get(f"/api/games/{gid}/history").json()["log"][-1]
        assert last["side"] == "referee" and any("claims the win" in e["text"] for e in last["events"])
        inbox.wait_for(5)
        assert sorted(inbox.kinds()[3:]) == ["game_over", "game_over"]


def test_a_pause_stops_the_clock_and_extend_grants_more_time(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        clock = Clock()
        rt = runtime(client)
        rt.set_clock(clock)
        a = Player(client, "pzblue")
        b = Player(client, "pzred")
        created = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "decision_hours": 10}).json()
        gid = created["id"]
        b.post(f"/api/games/{gid}/join", json={"invite_token": created["invite_token"]})
        assert a.post(f"/api/games/{gid}/pause", json={"days": 3}).status_code == 200
        assert a.post(f"/api/games/{gid}/pause/accept").status_code == 409  # the other player accepts
        accepted = b.post(f"/api/games/{gid}/pause/accept")
        assert accepted.status_code == 200 and accepted.json()["paused_until"]
        clock.advance(hours=11)
        report = call(client, rt.scheduler.tick)
        assert report["overdue"] == 0 and report["reminders"] == 0
        clock.advance(days=3)  # pause over: 10 h were left, 11 h of them are gone now
        assert call(client, rt.scheduler.tick)["overdue"] == 1
        extended = b.post(f"/api/games/{gid}/extend", json={"hours": 24})
        assert extended.status_code == 200, extended.text
        assert not extended.json()["overdue"] and extended.json()["seconds_left"] == pytest.approx(24 * 3600)
        assert a.post(f"/api/games/{gid}/extend", json={"hours": 24}).status_code == 409
        assert b.post(f"/api/games/{gid}/claim").status_code == 409
        inbox.wait_for(1)


def test_a_standing_order_settles_a_retreat_without_a_prompt(settings, smtp):
    inbox, port = smtp
    seed, _ = retreat_seed()
    with notify_client(settings, port) as client:
        a, b, game = start_game(client)
        gid = game["id"]
        force_seed(client, gid, seed)
        put = b.client.put(f"/api/games/{gid}/standing-orders", headers=b.headers,
                                          json={"retreat": "longest_safe"})
        assert put.status_code == 200, put.text
        assert b.client.put(f"/api/games/{gid}/standing-orders", headers=b.headers,
                            json={"retreat": "furthest"}).status_code == 422
        # Red's orders are Red's: Blue sees its own (all "ask").
        assert a.get(f"/api/games/{gid}/standing-orders").json()["orders"]["retreat"] == "ask"
        inbox.wait_for(2)
        inbox.clear()
        for cmd in RETREAT_OPENING:
            command(a, gid, cmd)
        deadline = time.monotonic() + 10
        while True:
            settle(client)
            history = b.get(f"/api/games/{gid}/history").json()["log"]
            notes = [(entry, e) for entry in history for e in entry["events"] if e["type"] == "standing_order"]
            if notes or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert len(notes) == 1, history[-3:]
        entry, note = notes[0]
        assert entry["side"] == "red" and entry["command"]["type"] == "choose"
        assert "standing order for retreats" in note["text"] and note["rule"].startswith("7.")
        engine, _ = server_game(client, gid)
        decision = engine.state.decision
        assert not (decision and decision["kind"] == "retreat")
        path = entry["command"]["option"].split(">")
        assert len(path) == 3  # the longest safe retreat
        red_units = {u for u in engine.state.units if engine.scenario.units[u].side == "red"}
        assert any(engine.state.units[u].hex == path[-1] for u in red_units)
        assert not any(engine.state.units[u].hex == "0808" for u in red_units)
        time.sleep(0.5)
        assert "your_turn" not in inbox.kinds(f"{b.username}@example.org")  # Red was never asked


def test_standing_orders_wait_while_the_player_has_the_game_open(settings, smtp):
    _inbox, port = smtp
    seed, _ = retreat_seed()
    with notify_client(settings, port) as client:
        a, b, game = start_game(client)
        gid = game["id"]
        force_seed(client, gid, seed)
        b.client.put(f"/api/games/{gid}/standing-orders", headers=b.headers, json={"retreat": "longest_safe"})
        with b.ws(gid) as red_socket:
            red_socket.receive_json()  # snapshot: Red is here
            for cmd in RETREAT_OPENING:
                command(a, gid, cmd)
            settle(client)
            view = game_view(b, gid)["view"]
            assert view["awaiting"] == "red" and view["prompt"]["kind"] == "retreat"
        # Red closes the game: the pending retreat now falls to the standing order.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            settle(client)
            if game_view(b, gid)["view"]["prompt"]["kind"] != "retreat":
                break
            time.sleep(0.1)
        assert game_view(b, gid)["view"]["prompt"]["kind"] != "retreat"


def test_preference_none_means_no_mail(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        a, b, game = start_game(client)
        inbox.wait_for(2)
        inbox.clear()
        assert b.client.put("/api/me/notifications", headers=b.headers, json={"mode": "none"}).status_code == 200
        end_phases_until_not(a, game["id"], "blue")
        time.sleep(0.6)
        assert inbox.messages == []
        assert [r.kind for r in outbox_rows(client)] == ["opponent_joined", "game_started"]


def test_digest_preference_sends_at_most_one_mail_per_n_hours(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        clock = Clock()
        rt = runtime(client)
        rt.set_clock(clock)
        a, b, game = start_game(client)
        gid = game["id"]
        inbox.wait_for(2)
        inbox.clear()
        for player in (a, b):
            r = player.client.put("/api/me/notifications", headers=player.headers,
                                  json={"mode": "digest", "digest_hours": 6})
            assert r.status_code == 200 and r.json()["mode"] == "digest"
        end_phases_until_not(a, gid, "blue")   # red's turn: held for red's digest
        end_phases_until_not(b, gid, "red")    # blue's turn: held for blue's digest
        settle(client)  # the follow-ups that hold the two mails for the digests have run
        assert inbox.messages == []
        assert call(client, rt.scheduler.tick)["digests"] == 2
        inbox.wait_for(2)
        assert sorted(inbox.kinds()) == ["digest", "digest"]
        red_digest = inbox.to(f"{b.username}@example.org")[0]
        assert "Your decision" in mail_body(red_digest)
        end_phases_until_not(a, gid, "blue")   # red again, within the 6 hours
        settle(client)
        clock.advance(hours=5)
        assert call(client, rt.scheduler.tick)["digests"] == 0
        clock.advance(hours=1)
        assert call(client, rt.scheduler.tick)["digests"] == 1
        inbox.wait_for(3)
        assert inbox.kinds(f"{b.username}@example.org") == ["digest", "digest"]


def test_the_unsubscribe_link_works_without_logging_in(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        a, b, game = start_game(client)
        (mail,) = [m for m in inbox.wait_for(2) if m["To"] == f"{b.username}@example.org"]
        link = next(w for w in mail_body(mail).split() if "/api/notifications/unsubscribe?token=" in w)
        parts = urlsplit(link)
        client.cookies.clear()
        page = client.get(f"{parts.path}?{parts.query}")  # no Authorization header, no cookie
        assert page.status_code == 200 and "Unsubscribed" in page.text
        assert b.get("/api/me/notifications").json()["mode"] == "none"
        bad = client.get(f"{parts.path}?token=1.forged", headers={"Accept": "application/json"})
        assert bad.status_code == 404
        as_json = client.get(f"{parts.path}?{parts.query}", headers={"Accept": "application/json"})
        assert as_json.json() == {"status": "unsubscribed", "username": b.username, "mode": "none"}
        inbox.clear()
        end_phases_until_not(a, game["id"], "blue")
        time.sleep(0.5)
        assert inbox.messages == []


def test_a_spectator_of_a_private_game_reads_its_clock_with_the_watch_token_only(settings, smtp):
    _inbox, port = smtp
    with notify_client(settings, port) as client:
        a = Player(client, "ckblue")
        b = Player(client, "ckred")
        watcher = Player(client, "ckwatch")
        created = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "private",
                                             "decision_hours": 24})
        assert created.status_code == 201, created.text
        game = created.json()
        assert b.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]}).status_code == 200
        watch_token = a.get("/api/games").json()["mine"][0]["watch_token"]

        assert watcher.get(f"/api/games/{game['id']}/clock").status_code == 404
        assert watcher.get(f"/api/games/{game['id']}/clock", params={"watch": "not-the-token"}).status_code == 404
        seen = watcher.get(f"/api/games/{game['id']}/clock", params={"watch": watch_token})
        assert seen.status_code == 200, seen.text
        assert seen.json()["decision_hours"] == 24


def test_a_resignation_mails_the_opponent_and_the_resigner_their_game_over(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        a, b, game = start_game(client)
        gid = game["id"]
        _join_mails(inbox, a, b)
        command(a, gid, {"type": "end_phase"})
        resigned = b.post(f"/api/games/{gid}/resign")
        assert resigned.status_code == 200, resigned.text
        inbox.wait_for(2)
        time.sleep(0.3)  # and no more
        assert inbox.kinds(f"{a.username}@example.org") == ["opponent_resigned"]
        assert inbox.kinds(f"{b.username}@example.org") == ["game_over"]
        assert len(outbox_rows(client)) == 4  # two join mails, two for the game's end; none twice
