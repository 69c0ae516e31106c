"""Resigning from the game page (3.4): the Resign button, its confirmation, and both players' pages
showing the result. The whole-battle test covers every other command family (docs/commands.md)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from web_helpers import create_game, join_by_invite, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_resign_from_the_page_ends_the_game_for_both(open_page: Any, live_server: Any) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    register(alice, base, "resigner")
    link = create_game(alice, "blue")
    register(bob, base, "resignwinner")
    game_id = join_by_invite(bob, link)
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.viewer === 'blue' && v.game.status === 'active'")

    alice.locator("#resign").click()
    alice.locator("dialog.confirm [data-confirm=ok]").click()

    wait_view(alice, "v.phase === 'over'")
    wait_view(bob, "v.phase === 'over'")
    assert alice.locator("#gameover-title").inner_text() == "Defeat"
    bob.locator("#gameover-title").wait_for()
    assert bob.locator("#gameover-title").inner_text() == "Victory!"
    with sqlite3.connect(f"{live_server.db_dir}/vedette.db") as c:
        side, cmd = c.execute(
            "SELECT side, command FROM game_commands WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
    assert side == "blue" and json.loads(cmd) == {"type": "resign"}
    assert not errors, errors
