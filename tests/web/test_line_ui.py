"""19.7 Austrian line formation on the page (S64, S65): on a crafted Standard battle with the rule on, a player selects
an infantry brigade and forms line facing an apex by clicks (the counter shows the facing wedge, the front hexes are
ringed), pivots it to another apex (its whole move), and fires at long range at an enemy two hexes off in its front
by clicks."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_command, click_hex, seated_game, wait_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "rules"))
from standard.builder import standard_data

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def crafted() -> dict[str, Any]:
    """builder.py's ground: b-1 at 0404, r-1 at 0604 (two hexes off, in the front of a line facing E)."""
    data = standard_data()
    data["id"] = "line-ui"
    data["title"] = "Line formation"
    data["special_rules"] = {"line": {"side": "blue", "ma": 2, "cf": 2}}
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "r-1" else s for s in data["setup"]]
    return data


@pytest.fixture(scope="module")
def line_server() -> Iterator[Any]:
    from liveserver import serving

    with serving({"line-ui.json": crafted()}, prefix="vedette-line-") as srv:
        yield srv


def selected_command(page: Any, command: dict[str, Any]) -> Any:
    return page.locator(f"#sec-selection .sel-commands button[data-command='{json.dumps(command, separators=(',', ':'))}']")


def select_unit(page: Any, hex_id: str) -> None:
    page.keyboard.press("Escape")
    click_hex(page, hex_id)
    page.wait_for_function("() => window.vedette.S.optionsKey === window.vedette.S.optionsFor && !!window.vedette.S.options")


def test_form_pivot_and_fire_a_line_by_clicks(open_page: Any, line_server: Any, artifacts: Path) -> None:
    base = line_server.url
    errors: list[str] = []
    alice = open_page(errors, "line-a")
    bob = open_page(errors, "line-b")
    game_id = seated_game(alice, bob, base, ("linealice", "linebob"), "line-ui")
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.game.status === 'active' && v.awaiting === 'blue' && v.phase === 'movement'")
    alice.locator("#conn[data-state=open]").wait_for()

    # 19.7 A: select the brigade, "Form line facing SSE"; the counter shows the wedge, the front hexes are ringed
    select_unit(alice, "0404")
    form = selected_command(alice, {"type": "line", "unit": "b-1", "facing": "SSE"})
    form.wait_for()
    assert selected_command(alice, {"type": "line", "unit": "b-1", "facing": "W"}).count() == 1  # each apex
    form.click()
    wait_view(alice, "v.units['b-1'].facing === 'SSE'")
    alice.locator("svg polygon.facing[data-unit='b-1']").wait_for()
    alice.locator("svg .line-front[data-hex='0405']").wait_for()
    alice.screenshot(path=str(artifacts / "line-formed.png"))

    # 19.7 C: select the line again and pivot it to face E (its whole move); the front hexes follow
    select_unit(alice, "0404")
    pivot = selected_command(alice, {"type": "line", "unit": "b-1", "facing": "E"})
    pivot.wait_for()
    assert "Pivot" in pivot.inner_text()
    pivot.click()
    wait_view(alice, "v.units['b-1'].facing === 'E' && v.units['b-1'].moved === true")
    alice.locator("svg .line-front[data-hex='0504']").wait_for()
    assert alice.locator("svg .line-front[data-hex='0505']").count() == 1
    assert alice.locator("svg .line-front[data-hex='0405']").count() == 0
    alice.screenshot(path=str(artifacts / "line-pivoted.png"))

    # 19.7 D: blue's combat phase: select the line, "Long-range fire: ... at 0604"
    api_command(alice, game_id, {"type": "end_phase"})
    wait_view(alice, "v.phase === 'combat' && v.awaiting === 'blue'")
    select_unit(alice, "0404")
    fire = selected_command(alice, {"type": "line_fire", "unit": "b-1", "target": "0604"})
    fire.wait_for()
    assert fire.inner_text().startswith("Long-range fire")
    fire.click()
    wait_view(alice, "v.units['b-1'].attacked === true")
    assert not errors, errors
