"""Issue 44 by real SMTP (aiosmtpd): the seats' messages in the "your decision" mail and in the digest that merges
it, with the link to answer, as plain text (the `<script>` a player wrote arrives as those characters, in a
text/plain mail with no HTML part); never the spectators' channel, never a note."""

from __future__ import annotations

from notify_helpers import (
    Clock,
    call,
    end_phases_until_not,
    mail_body,
    notify_client,
    runtime,
    settle,
)
from server_helpers import Player, start_game

SCRIPT = "<script>alert(1)</script> &amp; <b>bold</b>"


def _say(player: Player, game_id: str, text: str, **params: str) -> None:
    answer = player.post(f"/api/games/{game_id}/messages", json={"text": text}, params=params or None)
    assert answer.status_code == 201, answer.text


def test_the_your_decision_mail_and_the_digest_quote_the_seats_messages_as_text(settings, smtp):
    inbox, port = smtp
    with notify_client(settings, port) as client:
        clock = Clock()
        rt = runtime(client)
        rt.set_clock(clock)
        a, b, game = start_game(client)  # a: blue, b: red
        gid = game["id"]
        inbox.wait_for(2)
        inbox.clear()
        watcher = Player(client, "mailwatcher")
        a.client.put(f"/api/games/{gid}/note", json={"text": "MAIL-NOTE-secret plan"}, headers=a.headers)
        _say(a, gid, f"Blue says {SCRIPT}")
        _say(watcher, gid, "SPECTATOR-only words", watch=game["watch_token"])
        end_phases_until_not(a, gid, "blue")  # red's decision, red absent: "your decision" by mail
        (mail,) = inbox.wait_for(1)
        assert mail["X-Vedette-Kind"] == "your_turn" and mail["To"] == f"{b.username}@example.org"
        assert mail.get_content_type() == "text/plain" and not mail.is_multipart()
        body = mail_body(mail)
        assert f"Blue Army ({a.username}): Blue says {SCRIPT}" in body
        assert f"http://testserver/games/{gid}#messages" in body
        assert "SPECTATOR-only" not in body and "MAIL-NOTE" not in body
        inbox.clear()

        # The digest reader: the notice is held, then merged with its messages and link.
        r = a.client.put("/api/me/notifications", headers=a.headers, json={"mode": "digest", "digest_hours": 6})
        assert r.status_code == 200
        _say(b, gid, f"Red answers {SCRIPT}")
        end_phases_until_not(b, gid, "red")  # blue's decision: held for blue's digest
        settle(client)
        assert inbox.messages == []
        assert call(client, rt.scheduler.tick)["digests"] == 1
        (digest,) = inbox.wait_for(1)
        assert digest["X-Vedette-Kind"] == "digest" and digest["To"] == f"{a.username}@example.org"
        text = mail_body(digest)
        assert f"Red Army ({b.username}): Red answers {SCRIPT}" in text
        assert f"http://testserver/games/{gid}#messages" in text
        assert "SPECTATOR-only" not in text and "MAIL-NOTE" not in text
