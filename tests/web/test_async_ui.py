"""Asynchronous play in the browser: two players create (72 h per decision) and join a tutorial game;
the awaited player's lobby lists it first under "Your move" with how long it has waited, the page title
and favicon carry the count, the game page shows the decision clock, a standing order set in the panel
reads back through the API, and mail settings changed at /#notifications read back too.

Screenshots: tests/artifacts/lobby-your-move.png and game-clock.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_command, api_get, create_game, join_by_invite, register, view, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

def test_your_move_clock_orders_and_mail(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    not_found: list[str] = []
    alice.on("response", lambda r: not_found.append(r.url) if r.status == 404 else None)

    # --- alice creates a private tutorial game as Blue with 72 hours per decision
    register(alice, base, "amelie")
    link = create_game(alice, "blue", decision_hours="72")
    # nothing awaits alice yet: no count in the title
    assert not alice.title().startswith("(")

    # --- bob joins by the invite link; Blue (alice) decides first (set-up)
    register(bob, base, "bertrand")
    game_id = join_by_invite(bob, link)
    wait_view(bob, "v.viewer === 'red' && v.awaiting === 'blue'")

    # --- alice's lobby: the game is first under "Your move", with how long it has waited
    alice.goto(base + "/")
    first = alice.locator("#your-move li.game-item").first
    first.wait_for()
    assert first.get_attribute("data-game") == game_id
    assert "waiting" in first.locator(".waiting").inner_text()
    assert alice.locator("#my-games li.game-item").first.get_attribute("data-game") == game_id
    assert "waiting" in alice.locator("#my-games li.game-item").first.inner_text()
    # sides by their names, which come with the game list itself
    assert "You play Blue Army vs bertrand" in alice.locator("#my-games li.game-item").first.inner_text()
    assert "you play Blue Army" in first.inner_text()
    alice.wait_for_function("() => document.title.startsWith('(1) ')")
    icon = alice.evaluate("() => document.querySelector('link[rel~=icon]').href")
    assert icon.startswith("data:image/png"), icon[:40]
    awaiting = api_get(alice, "/api/me/awaiting")
    assert awaiting["count"] == 1 and awaiting["games"][0]["id"] == game_id
    alice.screenshot(path=str(artifacts / "lobby-your-move.png"))
    # bob is not awaited: no count, the static favicon
    bob.goto(base + "/")
    bob.locator("#my-games li.game-item").first.wait_for()
    bob.wait_for_function("() => document.documentElement.dataset.awaiting === '0'")
    assert not bob.title().startswith("(")
    assert bob.evaluate("() => document.querySelector('link[rel~=icon]').getAttribute('href')") == "/static/favicon.svg"

    # --- the game page: the decision clock with a countdown; the opponent may grant more time
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.viewer === 'blue' && v.awaiting === 'blue'")
    clock = alice.locator("#sec-clock")
    clock.wait_for(state="visible")
    assert clock.locator(".clock-period").text_content() == "72 h per decision"
    assert "must decide by" in alice.locator("#clock-deadline").inner_text()
    alice.wait_for_function("() => /\\d/.test(document.querySelector('#clock-left').textContent)")
    assert alice.locator("#pause-ask").is_visible()
    assert alice.locator("#grant-time").count() == 0  # one does not extend one's own clock
    alice.wait_for_function("() => document.title.startsWith('(1) ')")
    bob.goto(f"{base}/games/{game_id}")
    wait_view(bob, "v.viewer === 'red'")
    bob.locator("#grant-time").wait_for()

    # --- standing orders: set one in the panel, read it back through the API
    orders = alice.locator("#sec-orders")
    orders.wait_for(state="visible")
    if not alice.locator("#orders-details").evaluate("d => d.open"):
        alice.locator("#orders-details summary").click()
    orders.locator("select[data-order=retreat]").select_option("longest_safe")
    orders.locator("select[data-order=advance]").select_option("never")
    alice.locator("#orders-save").click()
    alice.locator("#orders-status", has_text="Saved").wait_for()
    got = api_get(alice, f"/api/games/{game_id}/standing-orders")
    assert got["orders"]["retreat"] == "longest_safe" and got["orders"]["advance"] == "never"
    assert got["orders"]["loss"] == "ask"
    alice.locator("#sec-clock").scroll_into_view_if_needed()
    alice.screenshot(path=str(artifacts / "game-clock.png"))

    # --- a move hands the decision to Red: alice's count drops to 0 after the patch
    for _ in range(8):  # end Blue's phases (set-up, movement, combat...) over REST until Red decides
        if view(alice)["awaiting"] == "red":
            break
        v0 = view(alice)["version"]
        api_command(alice, game_id, {"type": "end_phase"})
        wait_view(alice, f"v.version > {v0}")
    wait_view(alice, "v.awaiting === 'red'")
    alice.wait_for_function("() => document.documentElement.dataset.awaiting === '0' && !document.title.startsWith('(')")
    bob.wait_for_function("() => document.title.startsWith('(1) ')")
    alice.wait_for_function("() => /must decide by/.test(document.querySelector('#clock-deadline').textContent) && !/^You/.test(document.querySelector('#clock-deadline').textContent.trim())")
    alice.locator("#grant-time").wait_for()

    # --- a pause: bob (now awaited) asks for 3 days, alice sees the request and accepts it
    bob.locator("#pause-days").fill("3")
    bob.locator("#pause-ask").click()
    bob.locator("#pause-withdraw").wait_for()
    alice.locator("#pause-request", has_text="3-day pause").wait_for(timeout=5000)  # pushed: no reload, no poll
    alice.locator("#pause-accept").click()
    alice.locator("#clock-deadline", has_text="Paused until").wait_for()
    alice.locator("#resume").wait_for()
    clock_state = api_get(alice, f"/api/games/{game_id}/clock")
    assert clock_state["paused_until"] and clock_state["pause_request"] is None
    alice.locator("#sec-clock").scroll_into_view_if_needed()
    alice.locator("#sec-clock").screenshot(path=str(artifacts / "game-clock-paused.png"))

    # --- mail settings at /#notifications
    alice.goto(base + "/#notifications")
    form = alice.locator("#mail-form")
    form.wait_for()
    alice.locator("#mail-status", has_text="@example.com").wait_for()
    assert alice.locator("input[name=mail-mode][value=every]").is_checked()
    alice.locator("input[name=mail-mode][value=digest]").check()
    alice.locator("#digest-hours").select_option("12")
    alice.locator("#mail-save").click()
    alice.locator("#mail-status", has_text="Saved").wait_for()
    prefs = api_get(alice, "/api/me/notifications")
    assert prefs["mode"] == "digest" and prefs["digest_hours"] == 12
    alice.reload()
    alice.locator("#mail-status", has_text="@example.com").wait_for()
    assert alice.locator("input[name=mail-mode][value=digest]").is_checked()
    assert alice.locator("#digest-hours").input_value() == "12"

    assert not [u for u in not_found if u.endswith("favicon.ico") or "favicon" in u], not_found
    assert not errors, errors
