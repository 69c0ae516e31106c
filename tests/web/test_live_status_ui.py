"""The creator's page always shows the truth of the latest version (issue 11 item 6): before anyone joins it
says so and offers no move; the join arrives live (no reload) and turns it into "Your move"; an answered
decision leaves the screen with it."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import create_game, join_by_invite, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_waiting_then_live_join_then_your_move(open_page: Any, live_server: Any) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    register(alice, base, "statusalice")
    link = create_game(alice, "blue")
    game_id = link.split("/games/")[1].split("?")[0]
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.viewer === 'blue'")
    alice.locator("#conn[data-state=open]").wait_for()
    whose = alice.locator("#whose")
    assert "Waiting for an opponent" in whose.inner_text()
    assert alice.locator("#end-phase").is_disabled()
    assert alice.locator("input[aria-label='Invite link']").count() == 1
    alice.keyboard.press("e")  # nothing to end before the game starts
    assert alice.evaluate("() => window.vedette.S.pending.size") == 0

    register(bob, base, "statusbob")
    join_by_invite(bob, link)
    # no reload on alice's page: the join arrives over the websocket
    wait_view(alice, "v.game.status === 'active'")
    alice.wait_for_function("() => document.querySelector('#whose').textContent.includes('Your move')")
    assert not alice.locator("#end-phase").is_disabled()
    assert alice.locator("input[aria-label='Invite link']").count() == 0
    assert not alice.locator("#sec-prompt").is_visible()
    assert not errors, errors
