"""19.8 B on the page: the owner (red, setting up in areas) fills box A from the Set-up box's check boxes, places
both markers by clicking two shaded hexes and picks the real one; after its set-up the opponent's page shows two
alike markers and nothing of the box (tests/rules/standard/test_hidden_setup.py's ground)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import click_hex, register, wait_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.rules.standard.test_hidden_setup import _data

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SECRETS = ("r-2", "Hidden brigade", '"real"', "(real: ")  # the log shows the opponent only the commands' types


@pytest.fixture(scope="module")
def setup_server() -> Iterator[Any]:
    from liveserver import serving

    data = _data()
    data["id"], data["title"] = "hidden-setup-ui", "Hidden movement set-up (19.8 B)"
    with serving({"hidden-setup-ui.json": data}, prefix="vedette-hmsetup-") as srv:
        yield srv


def test_19_8_B_the_owner_fills_a_box_and_places_its_markers_by_clicks(open_page: Any, setup_server: Any,
                                                                        artifacts: Path) -> None:
    base = setup_server.url
    errors: list[str] = []
    red = open_page(errors, "hms-red")
    blue = open_page(errors, "hms-blue")
    register(red, base, "hmsred")
    card = red.locator(".scenario[data-scenario='hidden-setup-ui']")
    card.locator("select[name=side]").select_option("red")
    card.locator("button.btn.primary").click()
    link = red.locator("#my-games .invite input").first
    link.wait_for()
    invite = link.input_value()
    register(blue, base, "hmsblue")
    blue.goto(invite)
    blue.get_by_role("button", name="Join the game").click()
    blue.wait_for_url("**/games/*")
    game_id = blue.url.split("/games/")[1].split("?")[0]
    red.goto(f"{base}/games/{game_id}")
    wait_view(red, "v.game.status === 'active' && v.phase === 'setup' && v.active === 'red'")
    red.locator("#conn[data-state=open]").wait_for()

    # box A: choose its units from the list
    red.locator("#hm-setup .hm-units[data-box='A']").click()
    for uid in ("r-1", "r-2"):
        red.locator(f"#hm-setup input[data-unit='{uid}']").check()
    # the Set-up box drawn again while the player ticks (any push does it): the ticks so far stay
    red.evaluate("async () => (await import('/static/js/core/panels.js')).renderPhasePanel()")
    assert red.locator("#hm-setup input[data-unit='r-1']").is_checked()
    assert red.locator("#hm-setup input[data-unit='r-2']").is_checked()
    red.locator("#hm-setup input[data-unit='r-ldr']").check()
    red.locator("#hm-setup .hm-units-send[data-box='A']").click()
    wait_view(red, "v.units['r-2'] === undefined || v.units['r-2'].status === 'hidden' || !v.units['r-2'].hex")
    red.locator("#hm-setup .hm-place[data-box='A']").wait_for()

    # its markers: two clicks on shaded hexes, then the real one
    red.locator("#hm-setup .hm-place[data-box='A']").click()
    red.locator("svg .hm-setup-hex").first.wait_for()
    click_hex(red, "0805")
    click_hex(red, "0706")
    red.locator("#hm-setup .hm-real[data-hex='0706']").click()
    wait_view(red, "!!v.hidden.setup && !!v.hidden.setup.markers.A && v.hidden.setup.markers.A.real === 2")
    red.screenshot(path=str(artifacts / "hidden-setup-owner.png"))

    # the rest as printed, then the end of the set-up: the markers stand on the map for both
    red.locator("#setup-printed").click()
    red.wait_for_function("() => !document.querySelector('#setup-end').disabled")
    red.locator("#setup-end").click()
    wait_view(blue, "v.phase === 'movement' && v.hidden.markers.length === 2")
    blue.locator("svg .hm-marker").nth(1).wait_for()
    state = blue.evaluate("() => JSON.stringify({view: window.vedette.S.view, log: window.vedette.S.log})")
    assert not [s for s in SECRETS if s in state or s in blue.content()]
    assert not errors, errors
