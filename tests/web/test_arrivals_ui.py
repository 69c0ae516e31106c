"""17.4's entry choice on the page (S60): a reinforcement group listed at "Entry Hex A and/or B" shows both hexes
shaded when its unit is selected from the off-map box, and a click on the second hex enters it there."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import last_command
from web_helpers import click_hex, seated_game, wait_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.rules.standard.builder import standard_data, unit

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def crafted() -> dict[str, Any]:
    data = standard_data()
    data["id"] = "arrivals-ui"
    data["title"] = "Arrivals"
    data["sides"]["blue"]["entry_points"] = {"A": "0102", "B": "0107"}
    unit(data, "b-2", None, kind="infantry", formation="1", full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    data["reinforcements"] = [{"units": ["b-2"], "turn": 1, "entry": ["A", "B"]}]
    return data


@pytest.fixture(scope="module")
def crafted_server() -> Iterator[Any]:
    from liveserver import serving

    with serving({"arrivals-ui.json": crafted()}, prefix="vedette-arrivals-") as srv:
        yield srv


def test_17_4_a_reinforcement_enters_by_the_listed_hex_the_player_clicks(open_page: Any, crafted_server: Any,
                                                                         artifacts: Path) -> None:
    base = crafted_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    game_id = seated_game(alice, bob, base, ("arrivalice", "arrivbob"), "arrivals-ui")
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.game.status === 'active' && v.awaiting === 'blue' && v.phase === 'movement'")
    alice.locator("#conn[data-state=open]").wait_for()

    alice.locator("#off-units .off-unit[data-unit='b-2']:not([disabled])").click()
    alice.wait_for_function("() => window.vedette.S.selected.join() === 'b-2' && !!window.vedette.S.options"
                            " && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    starts = alice.evaluate("() => [...new Set([...window.vedette.S.options.reach.values()].map((r) => r.path[0]))].sort()")
    assert starts == ["0102", "0107"]  # both listed hexes are offered (and shaded)
    alice.screenshot(path=str(artifacts / "arrivals-entry-choice.png"))
    click_hex(alice, "0107")
    wait_view(alice, "v.units['b-2'].status === 'map'")
    sent = last_command(crafted_server, game_id)
    assert sent["type"] == "move" and sent["units"] == ["b-2"] and sent["path"] == ["0107"]
    assert not errors, errors
