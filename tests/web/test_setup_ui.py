"""The Standard set-up on the page (17.1-17.3): a scenario with set-up areas (tests/rules/standard/setupground.py),
its free set-up offered in the lobby's create form; red places a counter by clicks (its area shaded), a click
outside the area is refused with its rule, a placed counter is moved, the rest go as printed and the set-up ends;
blue's page never shows red's placements before red has finished."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import click_hex, create_game, join_by_invite, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "standard-setup-test"


@pytest.fixture(scope="module")
def setup_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A live server whose scenarios are the shipped ones plus the set-up test scenario."""
    sys.path.insert(0, str(ROOT))
    from liveserver import serving

    from tests.rules.standard.setupground import setup_data

    data = setup_data()
    data.update(id=SCENARIO, title="Set-up areas test")
    files = {f"standard/{SCENARIO}.json": data, "tutorial.json": (ROOT / "scenarios" / "tutorial.json").read_text()}
    with serving(files, prefix="vedette-setup-") as srv:
        yield srv


AREA_UNITS = ["r-1", "r-2", "r-art", "r-cav", "r-bn", "r-sq", "r-ldr"]  # red's HQ and trains are printed: public


def red_hexes(page: Any) -> dict[str, Any]:
    """Where the page shows red's counters that are placed in areas."""
    return dict(page.evaluate("(ids) => Object.fromEntries(ids.map((id) => [id, window.vedette.S.view.units[id].hex]))",
                              AREA_UNITS))


def test_setup_by_clicks_refusal_shortcut_and_secrecy(open_page: Any, setup_server: Any, artifacts: Path) -> None:
    base = setup_server.url
    errors: list[str] = []
    a = open_page(errors, "setup-a")
    b = open_page(errors, "setup-b")
    register(a, base, "setup-ui-a")
    register(b, base, "setup-ui-b")
    card = a.locator(f".scenario[data-scenario='{SCENARIO}']")
    card.locator(".preview svg").wait_for()
    assert card.locator("input[data-option='free_setup']").count() == 1  # 17.3 offered by this scenario only
    assert a.locator(".scenario[data-scenario='tutorial'] input[data-option]").count() == 0
    game_id = join_by_invite(b, create_game(a, "blue", scenario=SCENARIO))
    a.goto(f"{base}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()
    b.locator("#conn[data-state=open]").wait_for()

    # red (b) sets up: the Set-up box lists its counters; r-cav is selected, its area shaded
    b.locator("#setup-units .off-unit[data-unit='r-cav']").wait_for()
    b.locator("#setup-units .off-unit[data-unit='r-cav']").click()
    b.wait_for_function("() => window.vedette.S.options && window.vedette.S.options.reach.has('0804')")
    b.screenshot(path=str(artifacts / "setup-area.png"))
    click_hex(b, "0804")
    wait_view(b, "window.vedette.S.view.units['r-cav'].hex === '0804'")

    # a click outside the area is refused with the rule and its sentence
    b.locator("#setup-units .off-unit[data-unit='r-1']").click()
    b.wait_for_function("() => window.vedette.S.options && window.vedette.S.options.setupUnit === 'r-1'")
    click_hex(b, "0201")
    toast = b.locator(".toast.error").last
    toast.wait_for()
    assert "rule 17.2" in toast.inner_text() and "within 2 hexes of 0805" in toast.inner_text() and "(17.2); 0201 is in none of them" in toast.inner_text()

    # the placed counter moves: select it on the map, click another hex of its area
    b.keyboard.press("Escape")
    click_hex(b, "0804")
    b.wait_for_function("() => window.vedette.S.selected.join() === 'r-cav'")
    # the click waits for the selected counter's own area: the options of r-1 may still be the ones shown
    b.wait_for_function("() => window.vedette.S.options && window.vedette.S.options.setupUnit === 'r-cav' && window.vedette.S.options.reach.has('0905')")
    click_hex(b, "0905")
    wait_view(b, "window.vedette.S.view.units['r-cav'].hex === '0905'")

    # blue sees that red is setting up, and none of its placements
    wait_view(a, "window.vedette.S.view.phase === 'setup'")
    assert all(h is None for h in red_hexes(a).values())
    assert a.locator("#setup-units").count() == 0

    # the shortcut, then the end of the set-up
    b.locator("#setup-printed").click()
    wait_view(b, "window.vedette.S.view.units['r-1'].hex === '0805'")
    assert all(h is None for h in red_hexes(a).values())
    b.locator("#setup-end:not([disabled])").click()
    wait_view(a, "window.vedette.S.view.phase === 'movement'")
    assert red_hexes(a)["r-cav"] == "0905" and red_hexes(a)["r-1"] == "0805"
    a.screenshot(path=str(artifacts / "setup-revealed.png"))
    assert not errors, errors
