"""Issue 11 items 4, 5 and 7: the game page explains every number it shows.

Blue's turn-1 moves are made through the API (the 1st Brigade with its leader next to Red's hill at 0905,
the cavalry next to the woods at 0808, the guns to 0606); then, in Blue's combat phase, through the page:
the key to the result codes is there; the cavalry's attack preview lists each strength line with its rule,
the halving into woods among them, and the odds of each result with its meaning; the guns' bombardment
preview reads "range 3" (not "[object Object]") with each target's odds; the attack on the hill asks Red to
choose its defenders with the odds of each choice; the result panel and the log say every roll's outcome
in words; the Battle panel shows the turn, the points, the objectives with their holders and the victory
conditions, and the map marks each objective. Screenshots: tests/artifacts/explain-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    api_command,
    api_get,
    choose_option,
    click_hex,
    create_game,
    join_by_invite,
    register,
    view,
    wait_view,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CODES = ["–", "Ac", "Ar", "Ax", "Am", "Dc", "Dr", "Dx", "Dm"]


def _move(page: Any, game_id: str, units: list[str], dest: str) -> None:
    opts = api_get(page, f"/api/games/{game_id}/options?units={','.join(units)}")
    opts = opts.get("options", opts)
    assert dest in opts.get("reachable", {}), (units, dest, sorted(opts.get("reachable", {})))
    api_command(page, game_id, {"type": "move", "units": units, "path": opts["reachable"][dest]["path"]})


def test_previews_key_prompts_results_and_battle_panel(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    register(alice, base, "exalice")
    link = create_game(alice, "blue")
    register(bob, base, "exbob")
    game_id = join_by_invite(bob, link)
    wait_view(bob, "v.viewer === 'red'")
    pages = {"blue": alice, "red": bob}

    v = api_get(alice, f"/api/games/{game_id}")["view"]
    if v["phase"] == "setup":
        api_command(alice, game_id, {"type": "end_phase"})
    _move(alice, game_id, ["b-1", "b-ldr"], "0805")
    _move(alice, game_id, ["b-cav"], "0708")
    _move(alice, game_id, ["b-art"], "0606")
    for _ in range(6):
        v = api_get(alice, f"/api/games/{game_id}")["view"]
        if v["phase"] == "combat" and v["awaiting"] == "blue":
            break
        api_command(pages[v["awaiting"]], game_id, {"type": "end_phase"})
    else:
        pytest.fail("never reached Blue's combat phase")

    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.phase === 'combat' && v.awaiting === 'blue'")
    alice.locator("#conn[data-state=open]").wait_for()

    # --- the key: every result code in plain words, always there
    key = alice.locator("#result-key")
    assert [key.locator(f"dt[data-code='{c}']").count() for c in CODES] == [1] * len(CODES)
    assert "attacker" in key.locator("dt[data-code='Ar'] + dd").text_content()
    assert "No effect" in key.locator("dt[data-code='–'] + dd").text_content()

    # --- the Battle panel: turn N of M, points per side, objectives and their holders, victory conditions
    battle = alice.locator("#sec-battle")
    assert "Turn 1 of 8" in battle.locator("#battle-turn").inner_text()
    assert battle.locator(".bp-side[data-side=blue] .bp-value").inner_text().strip().isdigit()
    assert battle.locator(".bp-side[data-side=red] .bp-value").count() == 1
    assert battle.locator(".obj-item[data-hex='0905'][data-holder=red]").count() == 1
    assert "Red Ridge" in battle.locator(".obj-item[data-hex='0905']").inner_text()
    battle.locator("details.battle-details summary").click()
    words = battle.locator("#victory-words").inner_text()
    assert "Sudden victory" in words and "Millbrook" in words and "draw" in words
    assert alice.locator("#map-host .objective[data-objective='0905'][data-holder=red]").count() == 1
    battle.screenshot(path=str(artifacts / "explain-battle-panel.png"))

    # --- the cavalry's attack into the woods: each line with its rule, the halving among them
    alice.locator("[data-unit='b-cav']").first.click()
    alice.locator(".attack-target[data-hex='0808']").wait_for()
    click_hex(alice, "0808", dy=12)
    pv = alice.locator("#explain-preview")
    pv.wait_for()
    halving = pv.locator(".bd-attack .bd-line.halving")
    assert "attacking into Woods" in halving.first.inner_text()
    assert halving.first.get_attribute("data-rule") == "7.4, TEC"
    assert pv.locator(".bd-attack .bd-line[data-rule='7.4']").count() >= 2  # printed CF, the halved value
    assert pv.locator(".bd-defence .bd-line[data-rule='7.4, TEC']").count() == 1  # +1 in woods
    odds = alice.evaluate("() => window.vedette.S.options.attacks.find(a => a.target === '0808').preview.odds")
    assert pv.locator("table.odds tr").count() == len(odds)
    assert "Differential" in pv.inner_text() and "CRT column" in pv.inner_text()
    alice.locator("#preview").screenshot(path=str(artifacts / "explain-attack-preview.png"))
    alice.keyboard.press("Escape")

    # --- the guns: "range 3" on the map and in the preview, with each target unit's odds
    alice.locator("[data-unit='b-art']").first.click()
    alice.locator(".bombard-target[data-hex='0808']").wait_for()
    labels = alice.evaluate("() => [...document.querySelectorAll('#map-host .overlay-text')].map(t => t.textContent)")
    assert "range 3" in labels and not any("object" in t for t in labels), labels
    click_hex(alice, "0808", dy=12)
    pv.wait_for()
    text = pv.inner_text()
    assert "range 3" in text and "[object Object]" not in text
    assert pv.locator(".bd-target[data-unit='r-lt'] table.odds tr").count() >= 2
    assert pv.locator(".bd-line[data-rule='8.4, TEC']").count() == 1
    alice.locator("#preview").screenshot(path=str(artifacts / "explain-bombard-preview.png"))
    alice.keyboard.press("Escape")

    # --- the attack on the hill: Red chooses its defenders, each choice with its odds
    bob.goto(f"{base}/games/{game_id}")
    wait_view(bob, "v.viewer === 'red'")
    alice.locator("[data-unit='b-1']").first.click()
    alice.locator(".attack-target[data-hex='0905']").wait_for()
    click_hex(alice, "0905", dy=12)
    alice.locator("#explain-preview").wait_for()
    v0 = view(alice)["version"]
    alice.locator("#confirm-action").click()
    wait_view(alice, f"v.version > {v0}")
    for _ in range(10):
        v = view(alice)
        p = v.get("prompt")
        if not p or p.get("kind") == "phase":
            break
        page = pages[p["side"]]
        wait_view(page, f"v.version === {v['version']}")
        if p["kind"] == "defenders":
            btns = page.locator("#prompt-options .option-btn")
            btns.first.wait_for()
            assert btns.count() == len(p["options"]) >= 2
            assert page.locator("#prompt-options .option-btn .option-odds[data-odds]").count() == len(p["options"])
            assert " vs " in btns.first.inner_text() and "%" in btns.first.inner_text()
            page.locator("#sec-prompt").screenshot(path=str(artifacts / "explain-defenders-prompt.png"))
        choose_option(page, p["options"][0]["id"])
        wait_view(alice, f"v.version > {v['version']}")

    # --- the result panel and the log: the strengths, the dice and every check in words
    panel = alice.locator("#sec-combat")
    panel.locator("#result-head").wait_for()
    events = [e for entry in alice.evaluate("() => window.vedette.S.log") for e in entry.get("events", [])]
    morale = [e for e in events if e["type"] == "morale"]
    if morale:
        words = panel.locator("li.step[data-type=morale] .step-words").first.inner_text()
        assert ("passes" if morale[0]["passed"] else "fails") in words
    checks = [e for e in events if e["type"] in ("leader_safe", "leader_killed")]
    assert checks, "b-ldr added its factor: its leader check must be logged"
    assert panel.locator(f"li.step[data-type={checks[0]['type']}] .step-words").count() == 1
    result = next(e for e in events if e["type"] == "combat_result")
    assert panel.locator("#result-head .result-code").inner_text().replace("–", "-") == result["result"]
    assert alice.locator("#log li[data-type=combat_result] .log-outcome").count() >= 1
    panel.screenshot(path=str(artifacts / "explain-combat-result.png"))

    # --- "moved" is said during Blue's own player-turn only, not once Red's turn has begun
    title = "() => document.querySelector(\"#map-host .counter[data-unit='b-cav'] > title\").textContent"
    assert "moved" in alice.evaluate(title)
    for _ in range(8):
        v = view(alice)
        if v["active"] == "red" and v["phase"] == "movement":
            break
        p = v.get("prompt") or {}
        if p.get("options"):
            api_command(pages[p["side"]], game_id, {"type": "choose", "option": p["options"][-1]["id"]})
        else:
            api_command(pages[v["awaiting"]], game_id, {"type": "end_phase"})
        wait_view(alice, f"v.version > {v['version']}")
    wait_view(alice, "v.active === 'red' && v.phase === 'movement'")
    assert "moved" not in alice.evaluate(title)
    assert not errors, errors
