"""Issue 11 items 8, 9 and 12 (spectators, replay): the lobby lists the open games to join with the time per
decision a joiner commits to and the ruleset, the open games in progress (to watch) and the finished ones (to
replay); a seat shares a private game's watch link from the game page; the keyboard help is for the seats
of a running game only; the replay jumps to a turn and phase and never says "Your move".
Screenshots: tests/artifacts/lobby-lists.png, replay-jump.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_command, api_post, create_game, join_by_invite, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_lobby_lists_games_to_join_watch_and_replay(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    carol = open_page(errors, "carol")
    register(alice, base, "lobalice")
    register(bob, base, "lobbob")
    register(carol, base, "lobcarol")

    waiting = api_post(alice, "/api/games", {"scenario": "tutorial", "side": "blue", "visibility": "open", "decision_hours": 72})
    live = api_post(alice, "/api/games", {"scenario": "tutorial", "side": "blue", "visibility": "open"})
    api_post(bob, f"/api/games/{live['id']}/join")
    done = api_post(alice, "/api/games", {"scenario": "tutorial", "side": "red", "visibility": "open"})
    api_post(bob, f"/api/games/{done['id']}/join")
    api_post(bob, f"/api/games/{done['id']}/resign")

    carol.goto(base + "/")
    item = carol.locator(f"#open-games li[data-game='{waiting['id']}']")
    item.wait_for()
    terms = item.locator(".gi-terms").inner_text()
    assert "3 days per decision" in terms and "Quick Play" in terms, terms
    watch = carol.locator(f"#live-games li[data-game='{live['id']}']")
    watch.wait_for()
    assert "In progress" in watch.inner_text() and "lobalice" in watch.inner_text()
    replay = carol.locator(f"#finished-games li[data-game='{done['id']}']")
    assert "Blue Army won" in replay.inner_text() or "won" in replay.inner_text()
    assert replay.locator("a", has_text="Replay").get_attribute("href") == f"/games/{done['id']}"
    carol.screenshot(path=str(artifacts / "lobby-lists.png"), full_page=True)

    # --- watching from the list: a read-only spectator, without the keyboard help
    watch.locator("a", has_text="Watch").click()
    wait_view(carol, "v.viewer === 'spectator'")
    assert carol.locator("#key-help").count() == 0
    assert carol.locator("#share-watch").count() == 0

    # --- a private game: the seat shares its watch link; whoever holds it watches
    link = create_game(alice, "blue")
    gid = join_by_invite(bob, link)
    alice.goto(f"{base}/games/{gid}")
    wait_view(alice, "v.viewer === 'blue'")
    alice.locator("#key-help").wait_for()
    alice.locator("#share-watch summary").click()
    watch_link = alice.locator("#watch-link").input_value()
    assert f"/games/{gid}?watch=" in watch_link
    carol.goto(watch_link)
    wait_view(carol, "v.viewer === 'spectator'")

    # --- the replay: jump to a turn and phase; it says "Replay", never "Your move"
    for _ in range(3):
        v = alice.evaluate("() => fetch(location.pathname.replace('/games/', '/api/games/')).then(r => r.json())")["view"]
        api_command(alice if v["awaiting"] == "blue" else bob, gid, {"type": "end_phase"})
    wait_view(alice, "v.version >= 3")
    alice.goto(f"{base}/games/{gid}")
    wait_view(alice, "v.version >= 3")
    jump = alice.locator("#history-jump")
    alice.wait_for_function("() => document.querySelectorAll('#history-jump option').length >= 4")  # the log has arrived
    labels = jump.locator("option").all_inner_texts()
    assert any(t.startswith("Turn 1: Blue") and "movement" in t for t in labels), labels
    assert any(t.startswith("Turn 1: Red") and "movement" in t for t in labels), labels
    target = next(o for o in jump.locator("option").all() if o.inner_text().startswith("Turn 1: Blue") and "movement" in o.inner_text())
    jump.select_option(target.get_attribute("value"))
    alice.locator("#history-banner").wait_for()
    whose = alice.locator("#whose").inner_text()
    assert whose.startswith("Replay") and "Your move" not in whose, whose
    assert alice.locator("#key-help").count() == 0
    alice.screenshot(path=str(artifacts / "replay-jump.png"))

    # --- after the game: no keyboard help
    alice.keyboard.press("Escape")
    api_post(alice, f"/api/games/{gid}/resign")
    wait_view(alice, "v.phase === 'over'")
    alice.locator("#key-help").wait_for(state="detached")
    assert not errors, errors
