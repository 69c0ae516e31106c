"""Playing against the computer from the page (issue 15): the lobby's Opponent choice creates the game
with the computer in the other seat and opens it; the computer answers each decision that becomes its
own, and the page shows its moves like a person's."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from web_helpers import choose_option, computer_game, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_player_creates_a_game_against_the_computer_and_it_answers(open_page: Any, live_server: Any) -> None:
    base = live_server.url
    errors: list[str] = []
    page = open_page(errors, "solo")
    game_id = computer_game(page, base, "soloplayer", opponent="random")
    wait_view(page, "v.viewer === 'blue' && v.game.status === 'active' && v.seats.red === 'computer-random'")
    for _ in range(12):  # my decisions by the page's own buttons; the computer answers its own
        wait_view(page, "v.phase === 'over' || v.awaiting === 'blue'", timeout=60000)
        view = page.evaluate("window.vedette.S.view")
        if view["phase"] == "over":
            break
        version = view["version"]
        options = (view.get("prompt") or {}).get("options") or []
        if options:  # e.g. a retreat after the computer's attack: take the first choice
            choose_option(page, options[0]["id"])
        else:
            page.wait_for_function("() => !document.querySelector('#end-phase').disabled", timeout=30000)
            page.locator("#end-phase").click()
            dialog = page.locator("dialog.confirm [data-confirm=ok]")
            if dialog.count() and dialog.first.is_visible():
                dialog.first.click()
        wait_view(page, f"v.version > {version}", timeout=30000)
    with sqlite3.connect(f"{live_server.db_dir}/vedette.db") as c:
        sides = [row[0] for row in c.execute("SELECT side FROM game_commands WHERE game_id = ?", (game_id,))]
    assert "red" in sides, "the computer never played"
    page.screenshot(path="tests/artifacts/computer-opponent.png")
    assert not errors, errors
