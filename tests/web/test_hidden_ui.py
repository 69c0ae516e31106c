"""19.8 hidden movement on the page, two pages (the owner, blue, and the opponent, red) on a small crafted battle
(tests/rules/standard/hidden_ground.py): the opponent's page never holds a box's contents or which marker is real
(its DOM and its JS state); the owner selects a marker and moves it by clicks; red's move into sight halts and
reveals (the log says so); the owner places the deploying units by clicking the prompt's hexes."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_command, click_hex, register, view_log, wait_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.rules.standard.hidden_ground import hidden_data

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SECRETS = ("b-2", "b-3", "b-4", "Hidden b-", '"real"')


def crafted() -> dict[str, Any]:
    data = hidden_data()
    data["id"], data["title"] = "hidden-ui", "Hidden movement (19.8)"
    return data


@pytest.fixture(scope="module")
def hidden_server() -> Iterator[Any]:
    from liveserver import serving

    with serving({"hidden-ui.json": crafted()}, prefix="vedette-hidden-") as srv:
        yield srv


def leaks(page: Any) -> list[str]:
    state = page.evaluate("() => JSON.stringify({view: window.vedette.S.view, scenario: window.vedette.S.scenario, "
                          "log: window.vedette.S.log, options: window.vedette.S.phaseOptions})")
    html = page.content()
    return [s for s in SECRETS if s in state or s in html]


def test_19_8_the_opponent_sees_two_alike_markers_a_move_reveals_and_the_owner_deploys_by_clicks(
        open_page: Any, hidden_server: Any, artifacts: Path) -> None:
    base = hidden_server.url
    errors: list[str] = []
    blue = open_page(errors, "hm-blue")
    red = open_page(errors, "hm-red")
    register(blue, base, "hmblue")
    card = blue.locator(".scenario[data-scenario='hidden-ui']")
    card.locator("select[name=side]").select_option("blue")
    card.locator("button.btn.primary").click()
    link = blue.locator("#my-games .invite input").first
    link.wait_for()
    invite = link.input_value()
    register(red, base, "hmred")
    red.goto(invite)
    red.get_by_role("button", name="Join the game").click()
    red.wait_for_url("**/games/*")
    game_id = red.url.split("/games/")[1].split("?")[0]
    blue.goto(f"{base}/games/{game_id}")
    wait_view(blue, "v.game.status === 'active' && v.awaiting === 'blue' && v.phase === 'movement'")
    blue.locator("#conn[data-state=open]").wait_for()
    wait_view(red, "v.game.status === 'active' && !!v.hidden")

    # both pages draw four "?" markers; only the owner's panel names the boxes' units
    blue.locator("svg .hm-marker").nth(3).wait_for()
    red.locator("svg .hm-marker").nth(3).wait_for()
    blue.locator("#sec-hidden .hm-box[data-box='A']").wait_for()
    assert "Hidden b-2" in blue.locator("#sec-hidden").inner_text()
    assert blue.locator("#sec-hidden .hm-reveal").count() == 2
    red.locator("#sec-hidden .hm-box[data-box='A']").wait_for()
    assert leaks(red) == []

    # the owner moves HM-B2 by clicks: its hex, then a shaded hex
    click_hex(blue, "0307")
    blue.wait_for_function("() => window.vedette.S.hmSel === 'HM-B2' && !!window.vedette.S.hmReach")
    dest = blue.evaluate("() => Object.keys(window.vedette.S.hmReach).find((h) => h !== '0307')")
    blue.locator("svg .hm-reach").first.wait_for()
    click_hex(blue, dest)
    wait_view(blue, f"v.hidden.markers.some((m) => m.id === 'HM-B2' && m.hex === '{dest}')")
    wait_view(red, f"v.hidden.markers.some((m) => m.id === 'HM-B2' && m.hex === '{dest}')")
    assert leaks(red) == []
    blue.screenshot(path=str(artifacts / "hidden-owner.png"))
    red.screenshot(path=str(artifacts / "hidden-opponent.png"))

    # red's turn: r-1 moves through the woods; at 0504 the markers come into sight: the move halts and reveals
    api_command(blue, game_id, {"type": "end_phase"})
    api_command(blue, game_id, {"type": "end_phase"})
    wait_view(red, "v.awaiting === 'red' && v.phase === 'movement'")
    red.locator("#conn[data-state=open]").wait_for()
    click_hex(red, "0704")
    red.wait_for_function("() => window.vedette.S.selHex === '0704' && !!window.vedette.S.options && "
                          "window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    click_hex(red, "0504")
    wait_view(red, "v.units['r-1'].hex === '0504' && (v.hidden.revealed || []).length > 0")
    red.wait_for_function("() => JSON.stringify(window.vedette.S.log).includes('box A is revealed')")
    assert any(e.get("type") == "hm_reveal" for entry in view_log(red) for e in entry.get("events", []))
    red.locator("#log", has_text="box A is revealed").first.wait_for()

    # the owner places each deploying unit by clicking one of the prompt's hexes (19.8 E)
    wait_view(blue, "!!v.prompt && v.prompt.kind === 'hm_deploy'")
    for uid, hex_ in (("b-2", "0106"), ("b-3", "0106"), ("b-4", "0201")):
        wait_view(blue, f"!!v.prompt && v.prompt.kind === 'hm_deploy' && v.prompt.text.includes('{uid}')")
        click_hex(blue, hex_)
        wait_view(blue, f"v.units['{uid}'] && v.units['{uid}'].hex === '{hex_}'")
    wait_view(red, "v.units['b-4'] && v.units['b-4'].hex === '0201' && v.awaiting === 'red'")
    red.screenshot(path=str(artifacts / "hidden-revealed.png"))
    assert not errors, errors
