"""Issue 44 on the page: two players (each their own browser) exchange messages live while playing, a message holding
`<script>` shows as its characters, the note box saves and is read by its author only, and the player who left the
page reads the other's message in the next "your decision" mail (read from the live server's outbox); the admin reads
the game's messages on /admin and removes one, which leaves the player's open page at once.

Screenshot: tests/artifacts/messages-panel.png.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_post, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LIVE_MS = 5000
SCRIPT = "<script>window.__pwned = 1</script><img src=x onerror='window.__pwned = 2'> hello Bob"
NOTE = "CHAT-UI-NOTE: the ford at 0808 is the key"


def _open(page: Any, base: str, game_id: str, side: str) -> None:
    page.goto(f"{base}/games/{game_id}")
    wait_view(page, f"v.viewer === '{side}'")
    page.locator("#conn[data-state=open]").wait_for()
    page.locator("#chat-input").wait_for()
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page were reloaded


def _say(page: Any, text: str) -> None:
    """Type a message and send it with the keyboard (Enter submits the form)."""
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")
    page.wait_for_function("() => document.querySelector('#chat-input').value === ''")


def _end_phase(page: Any) -> None:
    """Click End phase (confirming the units left unmoved) and wait for the new version."""
    version = page.evaluate("() => window.vedette.S.version")
    page.locator("#end-phase:not([disabled])").click()
    page.wait_for_function("(v) => window.vedette.S.version > v || !!document.querySelector('dialog[open]')", arg=version)
    confirm = page.locator("dialog[open] [data-confirm=ok]")
    if confirm.count():
        confirm.first.click()
    page.wait_for_function("(v) => window.vedette.S.version > v", arg=version)


def _outbox(db: Path, to_addr: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT body FROM outbox WHERE kind = 'your_turn' AND to_addr = ?", (to_addr,)).fetchall()
    return [str(r[0]) for r in rows]


def test_two_players_talk_live_keep_notes_and_read_messages_in_the_mail(
    open_page: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    errors: list[str] = []
    alice, bob = open_page(errors, "alice"), open_page(errors, "bob")
    register(alice, base, "chatalice")
    register(bob, base, "chatbob")
    game = api_post(alice, "/api/games", {"scenario": "tutorial", "side": "blue", "visibility": "private"})
    api_post(bob, f"/api/games/{game['id']}/join", {"invite_token": game["invite_token"]})
    game_id = str(game["id"])
    _open(alice, base, game_id, "blue")
    _open(bob, base, game_id, "red")

    _end_phase(alice)  # the messages below are said after the game's first version (the replay goes back before them)

    # alice writes; bob's open page shows it without a reload, as text: no script ran, no element was made
    _say(alice, SCRIPT)
    bob.locator("#chat-log li .chat-text", has_text="hello Bob").wait_for(timeout=LIVE_MS)
    assert bob.locator("#chat-log li .chat-text").last.text_content() == SCRIPT
    assert bob.locator("#chat-log li .chat-who").last.text_content() == "Blue Army (chatalice)"
    assert bob.locator("#chat-log script, #chat-log img").count() == 0
    assert bob.evaluate("() => window.__pwned") is None and alice.evaluate("() => window.__pwned") is None

    # bob answers; alice's page shows it live
    _say(bob, "Good luck, Alice")
    alice.locator("#chat-log li .chat-text", has_text="Good luck, Alice").wait_for(timeout=LIVE_MS)

    # the replay shows the messages said up to the version shown: one step back, before both were said
    said_at = int(alice.locator("#chat-log li").first.get_attribute("data-version"))
    assert said_at >= 1
    alice.locator("#history-slider").fill(str(said_at - 1))
    alice.locator("#history-banner").wait_for()
    alice.locator("#chat-log li.empty", has_text="No messages yet at this point").wait_for()
    alice.locator("#history-live").click()
    alice.locator("#chat-log li .chat-text", has_text="Good luck, Alice").wait_for()

    # a logged-out spectator with the watch link reads the spectators' channel only, and may not write
    visitor = open_page(errors, "visitor")
    visitor.goto(f"{base}/games/{game_id}?watch={game['watch_token']}")
    visitor.locator("#chat-hint", has_text="Log in to write here.").wait_for()
    visitor.locator("#chat-log li.empty", has_text="No messages yet.").wait_for()
    assert visitor.locator("#chat-form").is_hidden() and visitor.locator("#note-text").count() == 0
    visitor.close()

    # the note: saved by alice, still hers after a reload, never on bob's page
    alice.locator("#note-text").fill(NOTE)
    alice.locator("#note-save").click()
    alice.locator("#note-status", has_text="Saved").wait_for()
    alice.locator("#messages").scroll_into_view_if_needed()
    alice.locator("#messages").screenshot(path=str(artifacts / "messages-panel.png"))
    assert alice.evaluate("() => window.__sameDocument === true") and bob.evaluate("() => window.__sameDocument === true")
    alice.reload()
    alice.locator("#chat-input").wait_for()
    alice.wait_for_function("(n) => document.querySelector('#note-text').value === n", arg=NOTE)
    assert bob.locator("#note-text").input_value() == ""
    assert NOTE not in bob.content()
    bob.evaluate("() => window.vedette.chat.refresh()")
    assert NOTE not in bob.content()

    # bob leaves; alice writes and ends her turn on the page: the decision passes to bob by mail, quoting her words
    bob.goto("about:blank")
    alice.locator("#conn[data-state=open]").wait_for()
    _say(alice, "Your move, Bob: read this in your mail")
    for _ in range(10):
        if alice.evaluate("() => window.vedette.S.view.awaiting") != "blue":
            break
        _end_phase(alice)
    assert alice.evaluate("() => window.vedette.S.view.awaiting") == "red"
    db = Path(live_server.db_dir) / "vedette.db"
    deadline = time.monotonic() + 10
    bodies: list[str] = []
    while time.monotonic() < deadline and not bodies:
        bodies = _outbox(db, "chatbob@example.com")
        time.sleep(0.2)
    assert bodies, "no your-decision mail for bob"
    body = bodies[-1]
    assert "Blue Army (chatalice): Your move, Bob: read this in your mail" in body
    assert f"Blue Army (chatalice): {SCRIPT}" in body  # plain text: quoted as written
    assert f"/games/{game_id}#messages" in body
    assert NOTE not in body

    # the admin reads the game's messages on /admin (as text) and removes one: alice's page drops it live
    live_server.make_admin("chatroot", "password123")
    admin = open_page(errors, "admin")
    admin.goto(base + "/")
    admin.locator("#login-form input[name=username]").fill("chatroot")
    admin.locator("#login-form input[name=password]").fill("password123")
    admin.locator("#login-form button[type=submit]").click()
    admin.locator("#my-games").wait_for()
    admin.goto(base + "/admin")
    admin.get_by_role("button", name=f"Messages of game {game_id}").click()
    rude = admin.locator("#admin-message-list li", has_text="hello Bob")
    assert rude.locator(".chat-text").text_content() == SCRIPT
    assert admin.locator("#admin-message-list script, #admin-message-list img").count() == 0
    assert NOTE not in admin.content()
    rude.get_by_role("button", name="Remove").click()
    admin.locator("#admin-message-list li", has_text="(removed)").wait_for()
    alice.locator("#chat-log li .chat-text", has_text="hello Bob").wait_for(state="detached", timeout=LIVE_MS)
    assert alice.evaluate("() => window.__pwned") is None and admin.evaluate("() => window.__pwned") is None

    # the game ends (bob resigns on the page, the button then its confirmation): a rated game between two people,
    # so each player's profile lists it, private as it is, with how it ended and the rating's change
    _open(bob, base, game_id, "red")
    bob.locator("#resign").click()
    bob.locator("dialog[open] [data-confirm=ok]").click()
    wait_view(bob, "v.game && v.game.status === 'over'")
    bob.locator("#gameover-rating", has_text="Your rating in this edition: 1500 → ").wait_for()  # the game-over box
    for page, name, outcome, change in ((alice, "chatalice", "Won", "rating +"), (bob, "chatbob", "Lost", "rating −")):
        page.goto(f"{base}/players/{name}")
        item = page.locator(f"#profile-finished li[data-game='{game_id}']")
        item.wait_for()
        text = item.inner_text()
        assert outcome in text and "resigned" in text and change in text, text
    assert not errors, errors
