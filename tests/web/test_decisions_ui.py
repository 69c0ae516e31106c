"""Decisions explained (issue 39): the Standard defender's tactics show what each does to the odds (7.13), a fortune
of war's heading is plain words naming the units with the rule numbers after (7.2, 12.4), and a retreat with many
paths is chosen by clicking an outlined hex on the map — a hex reached two ways asks which path — with no long list
of buttons (7.9).

Two crafted battles on the Standard rules' test ground (tests/rules/standard/builder.py), reached through the REST
API with loaded dice: "decisions-fow-ui", where Blue's b-1 (0604) and b-3 (0703) stand next to Red's 7th Brigade
(0704) and b-3 attacks r-3 (0802) alone, so that r-1 provoked a fight nobody fought (the test of
tests/rules/standard/test_fortune.py); and "decisions-retreat-ui", where b-1 attacks r-1 and a Dr sends it back.
The movement phase's actions say why a player takes them (2.6, 9.5, 12.1). Screenshots:
tests/artifacts/decisions-tactic.png, decisions-fortune.png, decisions-retreat-map.png, decisions-retreat-paths.png,
decisions-movement-why.png, decisions-square-why.png.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_command, api_get, click_hex, hex_point, seated_game, wait_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.rules.standard.builder import unit
from tests.rules.standard.fight import add_infantry, ground

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _fow_ground() -> dict[str, Any]:
    data = ground()
    add_infantry(data, "b-3", "0703", name="3rd Brigade")
    add_infantry(data, "r-3", "0802", formation="7", side="red", name="Jäger Battalion")
    # far from the fight: a cavalry unit whose ineffective side moves faster (2.6)
    unit(data, "b-cav", "0202", kind="cavalry", formation="2", name="Dragoons",
         full={"cf": 3, "mr": 4, "ma": 6, "charge": 4}, ineffective={"cf": 1, "mr": 2, "ma": 8})
    data["id"], data["title"] = "decisions-fow-ui", "Decisions: a fight nobody fought"
    return data


def _retreat_ground() -> dict[str, Any]:
    data = ground()
    data["id"], data["title"] = "decisions-retreat-ui", "Decisions: a retreat on the map"
    return data


@pytest.fixture(scope="module")
def decisions_server() -> Iterator[Any]:
    from liveserver import serving

    with serving({"decisions-fow-ui.json": _fow_ground(), "decisions-retreat-ui.json": _retreat_ground()},
                 prefix="vedette-decisions-") as srv:
        yield srv


def _version(page: Any, game_id: str) -> int:
    return int(api_get(page, f"/api/games/{game_id}")["version"])


def _seated(open_page: Any, server: Any, scenario: str, errors: list[str], who: str) -> tuple[Any, Any, str]:
    """Blue and Red (accounts named after `who`) seated in a new game of `scenario`, both on its page."""
    blue = open_page(errors, f"{who}-blue")
    red = open_page(errors, f"{who}-red")
    game_id = seated_game(blue, red, server.url, (f"{who}-b", f"{who}-r"), scenario)
    blue.goto(f"{server.url}/games/{game_id}")
    blue.locator("#conn[data-state=open]").wait_for()
    return blue, red, game_id


def _blue_in_combat(open_page: Any, server: Any, scenario: str, errors: list[str], who: str) -> tuple[Any, Any, str]:
    """`_seated`, then Blue's combat phase of turn 1 (its movement phase ended with nobody moved)."""
    blue, red, game_id = _seated(open_page, server, scenario, errors, who)
    api_command(blue, game_id, {"type": "end_phase"})
    wait_view(red, "v.phase === 'combat' && v.awaiting === 'blue'")
    return blue, red, game_id


def test_the_defenders_tactics_show_their_odds_and_a_fight_nobody_fought_reads_in_plain_words(
        open_page: Any, decisions_server: Any, artifacts: Path) -> None:
    from liveserver import last_command, loaded_dice

    errors: list[str] = []
    blue, red, game_id = _blue_in_combat(open_page, decisions_server, "decisions-fow-ui", errors, "dec-fow")

    with loaded_dice([3, 1]):  # 5 - 5 = 0: die 3 = NE
        api_command(blue, game_id, {"type": "attack", "target": "0802", "attackers": ["b-3"], "primary": "b-3"})
        # --- 7.13: Red answers the attack with a tactic; each choice shows its odds and what it does
        wait_view(red, "v.prompt && v.prompt.kind === 'tactic'")
        buttons = red.locator("#prompt-options button.option-btn")
        buttons.first.wait_for()
        ids = [b.get_attribute("data-option") for b in buttons.all()]
        assert ids == ["none", "disengage", "last_stand"]
        texts = {i: buttons.nth(k).locator(".option-odds[data-odds]").inner_text() for k, i in enumerate(ids)}
        assert texts["none"].startswith("attack 5 vs defence 5 (0, column ")
        assert texts["last_stand"].startswith("attack 5 vs defence 8 (-3, column ")  # 7.13(5): +3 to the defence
        for i in ids:
            assert re.search(r"\d+%", texts[i]), texts[i]
        # disengaging turns what would hurt the attacker into the defender's retreat (7.13(4)): no A result is left
        assert not re.search(r"(?:: |· )(?:A[a-z]|Ex)", texts["disengage"]), texts["disengage"]
        notes = {i: buttons.nth(k).locator(".option-note").inner_text() for k, i in enumerate(ids)}
        assert "+3 to your defence" in notes["last_stand"] and "7.13(5)" in notes["last_stand"]
        assert re.search(r"Your units are hit on \d of the 6 dice, the attacker on \d\.", notes["none"])
        red.locator("#sec-prompt").screenshot(path=str(artifacts / "decisions-tactic.png"))
        before = _version(red, game_id)
        buttons.nth(0).click()
        wait_view(red, f"v.version > {before}")
    assert last_command(decisions_server, game_id) == {"type": "choose", "option": "none"}

    # --- 7.2: b-1 never attacks the 7th Brigade it triggered: at the phase's end Red plays its fortune of war
    api_command(blue, game_id, {"type": "end_phase"})
    wait_view(red, "v.prompt && v.prompt.kind === 'fow'")
    title = red.locator("#prompt-title")
    title.wait_for()
    words = red.locator("#prompt-title #prompt-text").inner_text()
    assert words.startswith("7th Brigade at 0704 provoked a fight nobody fought: choose what it does now"), words
    assert not re.match(r"\d+\.\d+", words)  # plain words first, no rule number ahead of them
    chip = title.locator(".rule")
    assert chip.inner_text() == "rules 7.2, 12.4"
    # the rule chip comes after the words
    assert red.evaluate("() => { const t = document.querySelector('#prompt-title'); return t.lastElementChild.classList.contains('rule') && t.firstElementChild.id === 'prompt-text'; }")
    red.locator("#sec-prompt").screenshot(path=str(artifacts / "decisions-fortune.png"))
    assert not errors, errors


def test_a_retreat_with_many_paths_is_chosen_on_the_map(open_page: Any, decisions_server: Any,
                                                       artifacts: Path) -> None:
    from liveserver import last_command, loaded_dice

    errors: list[str] = []
    blue, red, game_id = _blue_in_combat(open_page, decisions_server, "decisions-retreat-ui", errors, "dec-ret")
    with loaded_dice([5, 1]):  # 6 - 5 = +1: die 5 = Dr
        api_command(blue, game_id, {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
        wait_view(red, "v.prompt && v.prompt.kind === 'tactic'")
        api_command(red, game_id, {"type": "choose", "option": "none"})
    # --- 7.8: Dr; two choices, as buttons: the retreat
    wait_view(red, "v.prompt && v.prompt.kind === 'result'")
    red.locator("#prompt-options button.option-btn[data-option='retreat']").click()
    wait_view(red, "v.prompt && v.prompt.kind === 'retreat'")
    p = red.evaluate("() => window.vedette.S.view.prompt")
    ends: dict[str, list[str]] = {}
    for o in p["options"]:
        ends.setdefault(o["path"][-1], []).append(o["id"])
    assert len(p["options"]) > 20 and len(ends) > 10
    two_ways = next(hx for hx, ids in ends.items() if len(ids) == 2)
    one_way = next(hx for hx, ids in ends.items() if len(ids) == 1)

    # no long list of buttons: the hexes are outlined on the map, numbered where several paths lead
    red.locator("#prompt-map-help").wait_for()
    assert red.locator("#prompt-options button.option-btn").count() == 0
    assert red.locator("svg g.map-choice").count() == len(ends)
    ring = red.locator(f"svg g.map-choice[data-hex='{two_ways}']")
    assert "map-choice-paths" in (ring.get_attribute("class") or "")
    assert red.locator(f"svg g.map-choice[data-hex='{one_way}'].map-choice-paths").count() == 0
    assert ring.locator("title").text_content() == f"{two_ways}: 2 paths lead here. Click the hex, then choose the path."
    # the keyboard's way: every choice in one list
    assert red.locator("#prompt-choice option[data-hex]").count() == len(p["options"])
    # the hover card says it too
    x, y = hex_point(red, two_ways)
    red.mouse.move(x, y + 10)
    red.locator("#tip .tip-choice").wait_for()
    assert "2 paths lead here" in red.locator("#tip .tip-choice").inner_text()
    red.screenshot(path=str(artifacts / "decisions-retreat-map.png"))

    # a hex reached two ways asks which path, and draws them
    click_hex(red, two_ways)
    red.locator(f"#prompt-options .path-choice[data-hex='{two_ways}']").wait_for()
    paths = red.locator("#prompt-options button.option-btn")
    assert sorted(b.get_attribute("data-option") or "" for b in paths.all()) == sorted(ends[two_ways])
    assert red.locator("svg path.move-path").count() >= 2
    red.screenshot(path=str(artifacts / "decisions-retreat-paths.png"))
    pick = ends[two_ways][1]
    before = _version(red, game_id)
    red.locator(f"#prompt-options button.option-btn[data-option='{pick}']").click()
    wait_view(red, f"v.version > {before}")
    assert last_command(decisions_server, game_id) == {"type": "choose", "option": pick}
    wait_view(red, f"v.units['r-1'].hex === '{two_ways}'")
    assert not errors, errors


def test_the_movement_phases_actions_say_why_a_player_takes_them(open_page: Any, decisions_server: Any,
                                                                 artifacts: Path) -> None:
    errors: list[str] = []
    blue, _, _ = _seated(open_page, decisions_server, "decisions-fow-ui", errors, "dec-why")
    wait_view(blue, "v.phase === 'movement' && v.awaiting === 'blue'")
    # the flips under headings that say what they are for; each button's title what it gives this unit
    blue.locator("#std-actions .std-action-head").first.wait_for()
    heads = [h.inner_text() for h in blue.locator("#std-actions .std-action-head").all()]
    assert "Flip an HQ or trains to inactive — it moves only so (12.1, 12.2)" in heads
    assert "Flip to the ineffective side — some units move faster so, but fight weaker (2.6)" in heads
    cav = blue.locator("""#std-actions .std-action[data-command='{"type":"flip","unit":"b-cav"}']""")
    assert (cav.get_attribute("title") or "").startswith("Its ineffective side moves faster (MA 6 → 8) and fights "
                                                         "weaker (CF 3 → 1)")
    hq = blue.locator("""#std-actions .std-action[data-command='{"type":"flip","unit":"b-hq"}']""")
    assert "rolls for its MA" in (hq.get_attribute("title") or "")
    # 9.5: the square offered to the selected brigade says what it gives and what it costs
    click_hex(blue, "0604")
    square = blue.locator("#sec-selection .sel-commands button.cmd-why", has_text="Form square")
    square.wait_for()
    assert "+2 CF and MR and no morale check when charged by cavalry" in square.locator(".why").inner_text()
    blue.locator("#sec-selection").screenshot(path=str(artifacts / "decisions-square-why.png"))
    blue.keyboard.press("Escape")
    blue.locator("#sec-phase").screenshot(path=str(artifacts / "decisions-movement-why.png"))
    assert not errors, errors
