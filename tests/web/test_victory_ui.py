"""The Standard rules' victory box on the page (18.0, rulings S68, S69): a copy of standard-tutorial given 18.3's
casualty points, an end-of-game condition and an instant one shows, during play, each condition's state test by test
("Last to enter 0605: nobody", "Red trains unmoved and unattacked: yes") and the points so far by category."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import seated_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
VICTORY = {
    "casualty_points": {"destroyed": 1, "leader_casualty": 1, "captured": 2, "hq_captured": 4, "threshold": 10},
    "conditions": [
        {"side": "blue", "rule": "18.1", "text": "Blue was the last to enter Millbrook",
         "when": {"last_to_enter": {"hex": "0605"}}},
        {"side": "red", "rule": "18.2", "text": "Red's trains stayed put and no Blue unit is on Red Ridge",
         "when": {"all": [{"enemy_not_won": {}}, {"trains_unmoved": {}}, {"no_enemy_in": {"hexes": ["0905"]}}]}},
    ],
    "instant": [{"side": "blue", "rule": "18.1", "when": {"artillery_in_range": {"hex": "1205"}}}],
}


@pytest.fixture(scope="module")
def victory_server(tmp_path_factory: Any) -> Iterator[Any]:
    from liveserver import LiveServer

    where = tmp_path_factory.mktemp("victory-scenarios")
    (where / "standard").mkdir()
    data = json.loads((ROOT / "scenarios/standard/standard-tutorial.json").read_text("utf-8"))
    v = data["victory"]
    v.pop("points", None)
    v.update(VICTORY)
    data["id"] = "standard-victory"
    (where / "standard" / "standard-victory.json").write_text(json.dumps(data), "utf-8")
    shutil.copy(ROOT / "scenarios/tutorial.json", where / "tutorial.json")
    srv = LiveServer()
    base = srv.settings
    srv.settings = lambda: base().model_copy(update={"scenarios_dir": where})  # type: ignore[method-assign]
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_18_0_the_victory_box_shows_each_condition_and_the_points(open_page: Any, victory_server: Any,
                                                                   artifacts: Path) -> None:
    errors: list[str] = []
    a = open_page(errors, "vic-a")
    b = open_page(errors, "vic-b")
    game_id = seated_game(a, b, victory_server.url, ("vic-ui-a", "vic-ui-b"), "standard-victory")
    a.goto(f"{victory_server.url}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()
    box = a.locator("#sec-standard #std-victory")
    box.wait_for()
    end = box.locator("#std-victory-end > li")
    assert end.count() == 2
    assert end.nth(0).get_attribute("data-held") == "false"
    tests = [t.strip() for t in end.nth(0).locator(".std-victory-tests li").all_inner_texts()]
    assert tests == ["Last to enter 0605: nobody"]
    red = [t.strip() for t in end.nth(1).locator(".std-victory-tests li").all_inner_texts()]
    assert red == ["Blue Army has not won", "Red Army trains unmoved and unattacked: yes",
                   "No Blue Army unit in 0905: yes"]
    assert end.nth(1).get_attribute("data-held") == "true"
    assert box.locator("#std-victory-instant > li").count() == 1
    assert "Blue Army artillery in range of 1205" in box.locator("#std-victory-instant").inner_text()
    points = box.locator("#std-victory-points li").all_inner_texts()
    # the tutorial's objectives still score beside 18.3's losses: Signal Hill for blue, Red Ridge for red
    assert [p.strip() for p in points] == ["Blue Army: 3 VP — objectives held (3)", "Red Army: 3 VP — objectives held (3)"]
    box.screenshot(path=str(artifacts / "standard-victory-box.png"))
    assert not errors, errors
