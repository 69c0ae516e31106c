"""Claiming an overdue decision in the browser: a 72 h game in which Blue never decides; once the server's
clock has passed the deadline, Red's clock panel offers "Claim the win", Red confirms, and both players'
pages show the battle won by Red (the rules core's referee result, pushed to both).

Screenshot: tests/artifacts/game-claimed.png.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_get, create_game, join_by_invite, register, wait_view

from server.models import utcnow

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_opponent_of_an_overdue_player_claims_the_win(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")

    register(alice, base, "odile")
    link = create_game(alice, "blue", decision_hours="72")
    register(bob, base, "octave")
    game_id = join_by_invite(bob, link)
    wait_view(bob, "v.viewer === 'red' && v.awaiting === 'blue'")
    bob.locator("#sec-clock").wait_for(state="visible")
    assert bob.locator("#claim-win").count() == 0  # not overdue yet

    runtime = live_server.server.config.app.state.notify
    real_clock = runtime._now
    late = utcnow() + timedelta(hours=73)
    runtime.set_clock(lambda: late)  # the deadline and the claim are judged on the server's clock
    try:
        clock = api_get(bob, f"/api/games/{game_id}/clock")
        assert clock["can_claim"] is True, clock
        assert api_get(alice, f"/api/games/{game_id}/clock")["can_claim"] is False  # not the late player's to claim

        alice.goto(f"{base}/games/{game_id}")
        wait_view(alice, "v.viewer === 'blue'")
        bob.evaluate("() => window.vedette.panels.refresh()")  # what the scheduler's overdue notice makes it do
        bob.locator("#claim-win").click()
        bob.get_by_role("button", name="Claim the win", exact=True).click()  # the confirmation

        wait_view(bob, "v.game.status === 'over' && v.game.result && v.game.result.winner === 'red'")
        wait_view(alice, "v.game.status === 'over' && v.game.result && v.game.result.winner === 'red'")
        summary = api_get(alice, f"/api/games/{game_id}")["game"]
        assert summary["status"] == "over" and summary["result"]["winner"] == "red"
        assert "did not decide within 72 hours" in summary["result"]["reason"]
        bob.locator("#claim-win").wait_for(state="detached")  # the page takes the button away once the battle is over
        bob.screenshot(path=str(artifacts / "game-claimed.png"))
    finally:
        runtime.set_clock(real_clock)
    assert errors == []
