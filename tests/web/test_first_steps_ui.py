"""Issue 39, the lobby and first steps: the learning battles come first, named as such with their edition, and the
landing page names every edition; a new game's invite link is in view ("created just now"); a private game's link
opened while logged out says whose game it is, asks to log in and leads back; no empty box in the spectator's and
the admin's panels.

Screenshots: tests/artifacts/landing-editions.png, lobby-learning-first.png, lobby-invite-in-view.png,
invite-logged-out.png, login-back-to-game.png, private-link-logged-out.png, spectator-panel.png, admin-panel.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_get, api_post, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The page's sections drawn as bordered boxes that are on screen and hold nothing at all.
EMPTY_BOXES = """() => [...document.querySelectorAll('#panel-scroll > section')]
    .filter((s) => s.getClientRects().length && s.getBoundingClientRect().height > 0)
    .filter((s) => !s.textContent.trim() && !s.querySelector('input, select, button, svg, canvas'))
    .map((s) => s.id)"""


def _newcomer(open_page: Any, base: str, name: str) -> tuple[Any, list[str]]:
    """A page in a fresh browser, registered as `name` and in the lobby; the list its JS errors go to."""
    errors: list[str] = []
    page = open_page(errors, name)
    register(page, base, name)
    return page, errors


def test_learning_battles_first_and_every_edition_named(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    page = open_page(errors, "visitor")
    page.goto(base + "/")
    page.locator("#login-form").wait_for()
    listing = api_get(page, "/api/scenarios")
    editions = {s["ruleset_title"] for s in listing}
    assert len(editions) >= 2, editions  # Quick Play and the Standard rules ship
    for name in editions:
        page.locator(f"#editions li[data-edition='{name}']").wait_for()
    assert all(name in page.locator("#editions").inner_text() for name in editions)
    page.screenshot(path=str(artifacts / "landing-editions.png"))

    register(page, base, "firstlearner")
    cards = page.locator("#scenarios .scenario")
    cards.nth(len(listing) - 1).wait_for()
    order = [cards.nth(i).get_attribute("data-scenario") for i in range(cards.count())]
    learning = [s["id"] for s in listing if s["learning"]]
    assert sorted(learning) == ["standard-tutorial", "tutorial"]  # each edition's learning battle
    assert sorted(order[: len(learning)]) == sorted(learning), order
    assert order[0] == "tutorial", order  # Quick Play's, the shorter rules, first
    for s in listing:
        card = page.locator(f".scenario[data-scenario='{s['id']}']")
        card.locator(".preview svg").wait_for()
        kind = card.locator(".scenario-kind")
        if s["learning"]:
            assert kind.text_content() == f"Learning battle — {s['ruleset_title']}", kind.text_content()
        else:
            assert kind.count() == 0
    assert cards.first.locator(".scenario-kind").text_content().startswith("Learning battle — Quick Play")
    page.screenshot(path=str(artifacts / "lobby-learning-first.png"))
    assert not errors, errors


def test_a_new_games_invite_link_is_in_view(open_page: Any, live_server: Any, artifacts: Path) -> None:
    page, errors = _newcomer(open_page, live_server.url, "firstcreator")
    cards = page.locator("#scenarios .scenario")
    last = cards.nth(len(api_get(page, "/api/scenarios")) - 1)  # far down the page, below the games' lists
    last.locator(".preview svg").wait_for()
    last.locator("select[name=opponent]").select_option("")
    last.get_by_role("button", name="Create a game of").click()
    invite = page.locator("#my-games .invite input").first
    invite.wait_for()
    page.wait_for_function(
        """() => { const r = document.querySelector('#my-games .invite input').getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight; }""", timeout=5000)
    assert page.evaluate("() => document.activeElement === document.querySelector('#my-games .invite input')")
    item = page.locator("#my-games li.game-item").first
    sub = item.locator(".gi-sub").inner_text()
    assert "created just now" in sub and "ago" not in sub, sub
    page.screenshot(path=str(artifacts / "lobby-invite-in-view.png"))
    assert not errors, errors


def test_a_private_games_link_logged_out_names_its_game_and_leads_back(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    alice, errors = _newcomer(open_page, base, "firsthost")
    game = api_post(alice, "/api/games", {"scenario": "tutorial", "side": "blue", "visibility": "private"})
    link = f"{base}/games/{game['id']}?invite={game['invite_token']}"

    # the invite link, logged out: whose game, which battle, and the way in
    visitor = open_page(errors, "visitor")
    visitor.goto(link)
    whose = visitor.locator("#invite-whose")
    whose.wait_for()
    assert "firsthost invites you to The Crossing at Millbrook" in whose.inner_text(), whose.inner_text()
    assert "Red Army is free" in whose.inner_text()
    visitor.screenshot(path=str(artifacts / "invite-logged-out.png"))
    visitor.locator("#invite-login").click()
    visitor.locator("#next-game-about", has_text="firsthost invites you").wait_for()
    assert "take the free seat" in visitor.locator("#next-game-text").inner_text()
    visitor.screenshot(path=str(artifacts / "login-back-to-game.png"))
    form = visitor.locator("#register-form")
    form.locator("input[name=username]").fill("firstguest")
    form.locator("input[name=email]").fill("firstguest@example.com")
    form.locator("input[name=password]").fill("password123")
    form.locator("button[type=submit]").click()
    visitor.wait_for_url(f"**/games/{game['id']}?invite=*")
    visitor.get_by_role("button", name="Join the game").wait_for()

    # the game's bare link, logged out: asked to log in, and told nothing of the game
    stranger = open_page(errors, "stranger")
    stranger.goto(f"{base}/games/{game['id']}")
    stranger.locator("#next-game-text", has_text="Log in or register to open this game").wait_for()
    text = stranger.locator("body").inner_text()
    assert "firsthost" not in text and "Millbrook" not in text, text
    assert stranger.locator("#next-game-about").count() == 0
    stranger.screenshot(path=str(artifacts / "private-link-logged-out.png"))
    assert not [e for e in errors if "404" not in e], errors


def test_no_empty_box_in_the_spectators_and_the_admins_panel(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    host, errors = _newcomer(open_page, base, "boxhost")
    game = api_post(host, "/api/games", {"scenario": "tutorial", "side": "blue", "visibility": "open"})
    watcher = open_page(errors, "watcher")
    register(watcher, base, "boxwatcher")
    live_server.make_admin("boxroot", "password123")
    admin = open_page(errors, "admin")
    admin.goto(base + "/")
    admin.locator("#login-form input[name=username]").fill("boxroot")
    admin.locator("#login-form input[name=password]").fill("password123")
    admin.locator("#login-form button[type=submit]").click()
    admin.locator("#my-games").wait_for()

    for page, role in ((watcher, "spectator"), (admin, "admin")):
        page.goto(f"{base}/games/{game['id']}")
        wait_view(page, f"v.viewer === '{role}'")
        page.locator("#battle-turn").wait_for()
        page.locator("#log").wait_for()
        assert page.evaluate(EMPTY_BOXES) == [], role
        page.screenshot(path=str(artifacts / f"{role}-panel.png"))
    assert not errors, errors
