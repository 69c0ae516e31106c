"""Issue 39, live and asynchronous: a pause request, its answer and the resume reach the other player's open page
at once (over the game's websocket, no reload); standing orders cannot be changed once the battle is over; dates
read one way, in the reader's locale, in the lobby and the game.

Screenshots: tests/artifacts/clock-push-request.png, clock-push-paused.png, orders-after-battle.png,
dates-lobby.png, dates-game.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_post, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Long enough for a pushed change to arrive and be drawn; far shorter than any poll the page could fall back on.
LIVE_MS = 5000


def _clocked_game(creator: Any, joiner: Any, base: str, names: tuple[str, str]) -> str:
    """Two new accounts on these pages and their private tutorial game with 72 h per decision: `creator` is Blue
    (who decides first), `joiner` Red."""
    register(creator, base, names[0])
    register(joiner, base, names[1])
    game = api_post(creator, "/api/games", {"scenario": "tutorial", "side": "blue", "visibility": "private", "decision_hours": 72})
    api_post(joiner, f"/api/games/{game['id']}/join", {"invite_token": game["invite_token"]})
    return str(game["id"])


def _two_players(open_page: Any, base: str, names: tuple[str, str]) -> tuple[Any, Any, str, list[str]]:
    """Alice's and Bob's pages (each its own browser) and their clocked game; the list their JS errors go to."""
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    return alice, bob, _clocked_game(alice, bob, base, names), errors


def _open_game(page: Any, base: str, game_id: str, side: str) -> None:
    page.goto(f"{base}/games/{game_id}")
    wait_view(page, f"v.viewer === '{side}'")
    page.locator("#conn[data-state=open]").wait_for()
    page.locator("#sec-clock").wait_for(state="visible")
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page were reloaded


def test_pause_request_answer_and_resume_reach_the_other_page_live(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    alice, bob, game_id, errors = _two_players(open_page, base, ("pushalice", "pushbob"))
    _open_game(alice, base, game_id, "blue")
    _open_game(bob, base, game_id, "red")
    assert alice.locator("#pause-request").count() == 0

    # bob asks for a pause: alice's open page shows the request, with its answers, without a reload
    bob.locator("#pause-days").fill("3")
    bob.locator("#pause-ask").click()
    bob.locator("#pause-withdraw").wait_for()
    alice.locator("#pause-request", has_text="asks for a 3-day pause").wait_for(timeout=LIVE_MS)
    alice.locator("#pause-accept").wait_for(timeout=LIVE_MS)
    alice.locator("#sec-clock").scroll_into_view_if_needed()
    alice.locator("#sec-clock").screenshot(path=str(artifacts / "clock-push-request.png"))

    # alice accepts: bob's page shows the pause at once
    alice.locator("#pause-accept").click()
    bob.locator("#clock-deadline", has_text="Paused until").wait_for(timeout=LIVE_MS)
    bob.locator("#pause-withdraw").wait_for(state="detached", timeout=LIVE_MS)
    bob.locator("#resume").wait_for(timeout=LIVE_MS)
    bob.locator("#sec-clock").scroll_into_view_if_needed()
    bob.locator("#sec-clock").screenshot(path=str(artifacts / "clock-push-paused.png"))

    # alice resumes: bob's clock runs again at once
    alice.locator("#resume").click()
    bob.wait_for_function("() => /must decide by/.test(document.querySelector('#clock-deadline').textContent)", timeout=LIVE_MS)
    bob.locator("#resume").wait_for(state="detached", timeout=LIVE_MS)
    bob.locator("#pause-ask").wait_for(timeout=LIVE_MS)

    assert alice.evaluate("() => window.__sameDocument === true") and bob.evaluate("() => window.__sameDocument === true")
    assert not errors, errors


def test_standing_orders_cannot_be_changed_after_the_battle(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    alice, bob, game_id, errors = _two_players(open_page, base, ("ordalice", "ordbob"))
    _open_game(bob, base, game_id, "red")
    bob.locator("#orders-save").wait_for(state="attached")  # while the battle runs, the orders may be saved

    api_post(alice, f"/api/games/{game_id}/resign")
    wait_view(bob, "v.phase === 'over'")
    bob.locator("#orders-closed").wait_for(state="attached", timeout=LIVE_MS)
    assert bob.locator("#orders-save").count() == 0
    selects = bob.locator("#sec-orders select")
    assert selects.count() == 5 and all(selects.nth(i).is_disabled() for i in range(selects.count()))
    assert "The battle is over" in bob.locator("#orders-closed").text_content()
    refused = bob.evaluate(
        """async (gid) => { const r = await fetch(`/api/games/${gid}/standing-orders`, {method: 'PUT',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({retreat: 'longest_safe'})});
            return {status: r.status, body: await r.json()}; }""",
        game_id,
    )
    assert refused["status"] == 409 and refused["body"]["error"] == "game_over", refused
    assert "battle is over" in refused["body"]["message"]
    bob.locator("#gameover button", has_text="Look at the map").click()
    if not bob.locator("#orders-details").evaluate("d => d.open"):
        bob.locator("#orders-details summary").click()
    bob.locator("#sec-orders").scroll_into_view_if_needed()
    bob.locator("#sec-orders").screenshot(path=str(artifacts / "orders-after-battle.png"))
    assert not errors, errors


DATE_OPTIONS = '{weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"}'


def test_dates_read_one_way_in_the_lobby_and_the_game(browser: Any, live_server: Any, artifacts: Path) -> None:
    """A reader in Germany: the lobby's "paused until" and the game's "Paused until" are the same words, written
    as the reader's own locale writes a date."""
    base = live_server.url
    errors: list[str] = []
    pages = []
    for name in ("alice", "bob"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE", timezone_id="Europe/Berlin")
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.on("pageerror", lambda e, name=name: errors.append(f"{name}: {e}"))
        pages.append(page)
    alice, bob = pages
    game_id = _clocked_game(alice, bob, base, ("datealice", "datebob"))
    api_post(alice, f"/api/games/{game_id}/pause", {"days": 3})
    paused_until = api_post(bob, f"/api/games/{game_id}/pause/accept")["paused_until"]
    expected = alice.evaluate(f"(iso) => new Intl.DateTimeFormat(undefined, {DATE_OPTIONS}).format(new Date(iso))", paused_until)
    assert alice.evaluate("() => navigator.language") == "de-DE"

    alice.goto(base + "/")
    item = alice.locator(f"#your-move li[data-game='{game_id}']")
    item.wait_for()
    assert f"paused until {expected}" in item.inner_text(), (expected, item.inner_text())
    alice.locator("#your-move-card").screenshot(path=str(artifacts / "dates-lobby.png"))

    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.viewer === 'blue'")
    line = alice.locator("#clock-deadline", has_text="Paused until")
    line.wait_for()
    assert f"Paused until {expected}." in line.inner_text(), (expected, line.inner_text())
    alice.locator("#sec-clock").scroll_into_view_if_needed()
    alice.locator("#sec-clock").screenshot(path=str(artifacts / "dates-game.png"))
    for page in pages:
        page.context.close()
    assert not errors, errors
