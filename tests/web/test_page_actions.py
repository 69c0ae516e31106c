"""The page actions the old client lacked (issue 11 items 1–3), each on a small crafted battle so the
outcome is certain: a reinforcement brought on by an edge slide from the off-map box (4.5), Next unit
reaching it, and one attack combining two hexes with a leader and supporting artillery (7.1, 8.4, 10.0)
built and previewed on the page. The whole-battle test meets the same actions at random."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import last_command
from web_helpers import hex_point, register, wait_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "rules"))
from position import Position

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def crafted() -> dict[str, Any]:
    pos = Position()
    pos.entry("blue", "0104", "0107")
    pos.unit("b1", "blue", hex="0403")
    pos.leader("bl", "blue", hex="0403", combat=2)
    pos.unit("b2", "blue", hex="0404")
    pos.unit("ba", "blue", "artillery", hex="0303", attack=3, defense=1, range=3)
    pos.unit("rf", "blue", turn=1, entry="0104")
    pos.unit("r1", "red", hex="0504", defense=3)
    pos.unit("r9", "red", hex="0104", ineffective=True)  # blocks blue's entry hex without a ZOC
    data = pos.data()
    data["id"] = "page-actions"
    data["title"] = "Page actions"
    return data


@pytest.fixture(scope="module")
def crafted_server() -> Iterator[Any]:
    from liveserver import serving

    with serving({"page-actions.json": crafted()}, prefix="vedette-crafted-") as srv:
        yield srv


def click(page: Any, hex_id: str, shift: bool = False) -> None:
    x, y = hex_point(page, hex_id)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(x, y)
    if shift:
        page.keyboard.up("Shift")


def test_edge_slide_entry_and_a_combined_supported_attack_on_the_page(open_page: Any, crafted_server: Any,
                                                                       artifacts: Path) -> None:
    base = crafted_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    register(alice, base, "craftalice")
    card = alice.locator(".scenario[data-scenario='page-actions']")
    card.locator("select[name=side]").select_option("blue")
    card.locator("button.btn.primary").click()
    link = alice.locator("#my-games .invite input").first
    link.wait_for()
    invite = link.input_value()
    register(bob, base, "craftbob")
    bob.goto(invite)
    bob.get_by_role("button", name="Join the game").click()
    bob.wait_for_url("**/games/*")
    game_id = bob.url.split("/games/")[1].split("?")[0]
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.game.status === 'active' && v.awaiting === 'blue' && v.phase === 'movement'")
    alice.locator("#conn[data-state=open]").wait_for()

    # 4.5: the off-map box shows the reinforcement due now; Next unit reaches it too
    alice.locator("#off-units .off-unit[data-unit='rf']:not([disabled])").wait_for()
    alice.locator("#map-host svg").focus()
    for _ in range(6):
        alice.keyboard.press("n")
        if alice.evaluate("() => window.vedette.S.offSel") == "0104":
            break
    assert alice.evaluate("() => window.vedette.S.selected") == ["rf"]
    alice.wait_for_function("() => window.vedette.S.optionsKey === window.vedette.S.optionsFor && !!window.vedette.S.options")
    reach = alice.evaluate("() => [...window.vedette.S.options.reach.keys()]")
    assert "0104" not in reach and "0105" in reach  # the entry hex is blocked: slide toward 0107 (2 MP)
    alice.screenshot(path=str(artifacts / "reinforcement-selected.png"))
    click(alice, "0105")
    alice.screenshot(path=str(artifacts / "reinforcement-slide.png"))
    wait_view(alice, "v.units.rf.status === 'map' && v.units.rf.hex === '0105'")
    assert last_command(crafted_server, game_id) == {"type": "move", "units": ["rf"], "path": ["0105"]}

    alice.keyboard.press("e")
    alice.locator("dialog.confirm [data-confirm=ok]").click()
    wait_view(alice, "v.phase === 'combat' && v.awaiting === 'blue'", timeout=15000)

    # 7.1 / 8.4 / 10.0: two hexes, their leader, and a gun two hexes back, against one enemy hex
    click(alice, "0403")
    alice.wait_for_function("() => window.vedette.S.selHex === '0403'")
    click(alice, "0404", shift=True)
    alice.wait_for_function("() => window.vedette.S.selHexes.includes('0404')")
    alice.locator("#add-hex").click()  # the button does what Shift does, for touch screens
    click(alice, "0303")
    alice.wait_for_function("() => window.vedette.S.selHexes.includes('0303')")
    alice.wait_for_function("() => window.vedette.S.optionsKey === window.vedette.S.optionsFor && !!window.vedette.S.options")
    click(alice, "0504")
    alice.wait_for_function("() => !!window.vedette.S.builder && !window.vedette.S.builder.loading")
    roles = {s.get_attribute("data-unit"): s.input_value() for s in alice.locator("#builder-units select.builder-role").all()}
    assert roles == {"b1": "attack", "b2": "attack", "ba": "support"}
    assert alice.locator("#builder-units input.builder-leader[data-unit='bl']").is_checked()
    preview = alice.locator("#preview").inner_text()
    assert "Differential" in preview or "differential" in preview
    # the gun stays out, then supports again: the odds follow the builder
    alice.locator("select.builder-role[data-unit='ba']").select_option("out")
    alice.wait_for_function("() => !window.vedette.S.builder.loading")
    without = alice.evaluate("() => window.vedette.S.builder.preview.attack")
    alice.locator("select.builder-role[data-unit='ba']").select_option("support")
    alice.wait_for_function("() => !window.vedette.S.builder.loading")
    with_gun = alice.evaluate("() => window.vedette.S.builder.preview.attack")
    assert with_gun > without
    alice.locator("#builder-primary").select_option("b2")
    alice.wait_for_function("() => !window.vedette.S.builder.loading")
    alice.screenshot(path=str(artifacts / "attack-builder.png"))
    alice.locator("#confirm-action").click()
    alice.wait_for_function("() => window.vedette.S.version >= 3")
    got = last_command(crafted_server, game_id)
    assert got["type"] == "attack" and got["target"] == "0504"
    assert sorted(got["attackers"]) == ["b1", "b2"] and got["primary"] == "b2"
    assert got["leaders"] == ["bl"] and got["support"] == ["ba"]
    assert not errors, errors
