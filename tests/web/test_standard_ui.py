"""The Standard rules on the page (issue 13): the lobby names each scenario's edition, and a game of
standard-tutorial shows the Standard panel (light, HQ and trains, the turn record track), the LOC hexes, and
takes the Standard page actions: a flip from the Movement phase box (12.1) and a march (M, 4.7) by clicks
and keys. The whole-battle test meets every Standard action at random."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from web_helpers import click_hex, create_game, join_by_invite, register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def last_command(srv: Any, game_id: str) -> dict[str, Any]:
    with sqlite3.connect(f"{srv.db_dir}/vedette.db") as c:
        (cmd,) = c.execute("SELECT command FROM game_commands WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                           (game_id,)).fetchone()
    return dict(json.loads(cmd))


def test_standard_tutorial_in_the_lobby_and_on_the_page(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    a = open_page(errors, "std-a")
    b = open_page(errors, "std-b")
    register(a, base, "std-ui-a")
    register(b, base, "std-ui-b")
    card = a.locator(".scenario[data-scenario='standard-tutorial']")
    card.locator(".preview svg").wait_for()
    assert card.locator(".edition").get_attribute("data-ruleset") == "standard"
    assert card.locator(".edition").inner_text() == "Standard rules"
    assert a.locator(".scenario[data-scenario='tutorial'] .edition").inner_text().startswith("Quick Play")
    a.screenshot(path=str(artifacts / "standard-lobby.png"))
    game_id = join_by_invite(b, create_game(a, "blue", scenario="standard-tutorial"))
    a.goto(f"{base}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()

    # the Standard panel: light, the HQs and trains, the TRT; the LOC hexes on the map (12.3)
    a.locator("#sec-standard #std-light").wait_for()
    assert a.locator("#std-light").inner_text() == "Day"
    assert a.locator("#sec-standard .army-state").count() == 4
    assert a.locator("#std-trt tr.trt-box").count() == 8
    assert a.locator("#std-trt tr.trt-box.light-night").count() == 1
    assert a.locator("svg .loc[data-loc='0105']").count() == 1 and a.locator("svg .loc[data-loc='1205']").count() == 1

    # 2.6: flip the squadron to its ineffective side from the Movement phase box (an inactive HQ would make
    # every move roll its MA, 12.1)
    flip = a.locator("#std-actions .std-action[data-command='{\"type\":\"flip\",\"unit\":\"b-sq\"}']")
    flip.wait_for()
    flip.click()
    wait_view(a, "window.vedette.S.view.units['b-sq'].ineffective === true")
    assert last_command(live_server, game_id) == {"type": "flip", "unit": "b-sq"}

    # 4.7: the 1st Brigade marches (M), then a click on a shaded hex sends the march
    a.keyboard.press("Escape")
    click_hex(a, "0305")
    a.wait_for_function("() => window.vedette.S.selHex === '0305'")
    a.locator("#sec-selection .sel-unit[data-unit='b-ldr']").click()
    a.wait_for_function("() => window.vedette.S.selected.join() === 'b-1' && !!window.vedette.S.options && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    assert a.locator("#std-move-bar #std-mode-march").count() == 1
    normal = int(a.evaluate("() => window.vedette.S.options.move.ma"))
    a.keyboard.press("m")
    a.wait_for_function("() => window.vedette.S.options.mode === 'march'")
    march = int(a.evaluate("() => window.vedette.S.options.move.ma"))
    assert march > normal
    a.screenshot(path=str(artifacts / "standard-march.png"))
    far = a.evaluate("""() => { const o = window.vedette.S.options; let best = null;
        for (const [hx, r] of o.reach) if (!best || r.path.length > o.reach.get(best).path.length) best = hx; return best; }""")
    click_hex(a, far)
    wait_view(a, "window.vedette.S.view.units['b-1'].hex !== '0305'")
    sent = last_command(live_server, game_id)
    assert sent["type"] == "move" and sent["units"] == ["b-1"] and sent["march"] is True and sent["path"][-1] == far
    a.locator("#std-marched").wait_for()
    a.screenshot(path=str(artifacts / "standard-after-march.png"))
    assert not errors, errors
