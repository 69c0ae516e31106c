"""The Standard rules' combat decisions on the page (issue 14): an infantry charge declared in charge mode (C, 7.13(3)),
an attack whose tactic is chosen in the attack builder (7.13) with the preview showing the tactic, the coordination
(7.14) and the modifiers with their rule numbers, the defender's tactic answered as a decision with the attacker's
choice shown, and the declared charge made by the builder, which opens on it.

The position is reached through the REST API with commands the rules core accepts on standard-tutorial's opening
(no die decides them): Blue's turn-1 moves bring the Jäger to 0805 and the dragoons to 0807, and on the page the 1st Brigade moves to 0705
with Gen. Ostrander's movement assist plotted hex by hex (10.3);
both sides end their phases until Blue's turn-2 movement phase, where the 1st Brigade may charge Red's 0905.
Screenshots: tests/artifacts/standard-assist-plot.png, standard-charge-mode.png, standard-tactic-builder.png, standard-defender-tactic.png,
standard-charge-builder.png.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from web_helpers import api_command, api_get, choose_option, click_hex, seated_game, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TURN_1 = [
    {"type": "move", "units": ["b-cav"], "path": ["0207", "0308", "0407", "0507", "0606", "0707", "0807"]},
    {"type": "move", "units": ["b-jg"], "path": ["0403", "0404", "0505", "0605", "0705", "0805"]},
]
# 10.3: given on the page, the leader's movement assist plotted hex by hex
ASSISTED = {"type": "move", "units": ["b-1", "b-ldr"], "path": ["0305", "0404", "0505", "0605", "0705"], "assist": "b-ldr"}
CHARGE = {"type": "charge", "units": ["b-1"], "path": ["0705", "0805"], "target": "0905"}


def last_command(srv: Any, game_id: str) -> dict[str, Any]:
    with sqlite3.connect(f"{srv.db_dir}/vedette.db") as c:
        (cmd,) = c.execute("SELECT command FROM game_commands WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                           (game_id,)).fetchone()
    return dict(json.loads(cmd))


def state(page: Any, game_id: str) -> dict[str, Any]:
    d: dict[str, Any] = api_get(page, f"/api/games/{game_id}")
    return dict(d["view"])


def setup_answer(v: dict[str, Any]) -> dict[str, Any]:
    """Reaching the position: end each phase; a 7.2 fortune of war of an unattacked triggered defender is let go."""
    p = v.get("prompt") or {}
    if not p.get("options"):
        return {"type": "end_phase"}
    assert p.get("kind") == "fow" and any(o["id"] == "pass" for o in p["options"]), f"unexpected decision: {json.dumps(p)}"
    return {"type": "choose", "option": "pass"}


def builder_idle(page: Any) -> None:
    page.wait_for_function("() => !!window.vedette.S.builder && !window.vedette.S.builder.loading")


def answer_decisions(pages: dict[str, Any], game_id: str, until: str) -> None:
    """Answer every pending decision on its player's page with its first choice, until `until` (a JS predicate over
    the blue page's view `v`) holds."""
    for _ in range(30):
        v = state(pages["blue"], game_id)
        p = v.get("prompt") or {}
        if not p.get("options"):
            break
        page = pages[p["side"]]
        wait_view(page, f"v.prompt && v.prompt.kind === {json.dumps(p['kind'])} && (v.prompt.options || []).length > 0")
        before = int(api_get(page, f"/api/games/{game_id}")["version"])
        choose_option(page, p["options"][0]["id"])
        page.wait_for_function("(n) => window.vedette.S.version > n", arg=before, timeout=15000)
    wait_view(pages["blue"], until, timeout=15000)


def test_standard_charge_tactic_and_defender_answer(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    a = open_page(errors, "stdc-a")
    b = open_page(errors, "stdc-b")
    game_id = seated_game(a, b, base, ("std-cb-a", "std-cb-b"), "standard-tutorial")
    pages = {"blue": a, "red": b}

    # --- the position, through the API: Blue's turn-1 moves, then end phases until Blue's turn-2 movement
    for cmd in TURN_1:
        api_command(a, game_id, cmd)
    a.goto(f"{base}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()
    wait_view(a, "v.turn === 1 && v.phase === 'movement' && v.awaiting === 'blue'")
    click_hex(a, "0305")
    a.wait_for_function("() => window.vedette.S.selHex === '0305' && !!window.vedette.S.options && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    assert sorted(a.evaluate("() => [...window.vedette.S.selected]")) == ["b-1", "b-ldr"]
    a.locator("#std-assist").wait_for()
    a.keyboard.press("a")
    a.wait_for_function("() => window.vedette.S.assist === 'b-ldr'")
    assert a.locator("#std-assist").get_attribute("aria-pressed") == "true"
    for hx in ASSISTED["path"][1:]:
        click_hex(a, hx)
        a.wait_for_function("(h) => { const p = window.vedette.S.plot; return !!p && p[p.length - 1] === h; }", arg=hx)
    assert "0404 → 0505 → 0605 → 0705" in a.locator("#std-plot").inner_text()
    a.screenshot(path=str(artifacts / "standard-assist-plot.png"))
    a.keyboard.press("Enter")
    wait_view(a, "v.units['b-1'].hex === '0705'")
    assert last_command(live_server, game_id) == ASSISTED
    for _ in range(12):
        v = state(a, game_id)
        if v["turn"] == 2 and v["active"] == "blue" and v["phase"] == "movement":
            break
        api_command(pages[v["awaiting"]], game_id, setup_answer(v))
    else:
        pytest.fail("never reached Blue's turn-2 movement phase")
    a.goto(f"{base}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()
    b.goto(f"{base}/games/{game_id}")
    b.locator("#conn[data-state=open]").wait_for()
    wait_view(a, "v.turn === 2 && v.phase === 'movement' && v.awaiting === 'blue'")

    # --- 7.13(3): select the 1st Brigade alone (the dragoons' squadron shares nothing with it), charge mode (C)
    a.keyboard.press("Escape")
    click_hex(a, "0705")
    a.wait_for_function("() => window.vedette.S.selHex === '0705'")
    for u in a.evaluate("() => [...window.vedette.S.selected]"):
        if u != "b-1":
            a.locator(f"#sec-selection .sel-unit[data-unit='{u}']").click()
    a.wait_for_function("() => window.vedette.S.selected.join() === 'b-1' && !!window.vedette.S.options && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    a.locator("#charge-toggle").wait_for()
    a.keyboard.press("c")
    a.wait_for_function("() => window.vedette.S.chargeMode === true")
    assert a.locator("#charge-help").inner_text().startswith("Charge: infantry (7.13(3)")
    btn = a.locator("#charge-targets .charge-target-btn[data-target='0905'][data-path='0705,0805']")
    assert btn.count() == 1
    assert a.locator("svg .charge-target").count() >= 1
    a.screenshot(path=str(artifacts / "standard-charge-mode.png"))
    btn.click()
    wait_view(a, "v.units['b-1'].hex === '0805'")
    assert last_command(live_server, game_id) == CHARGE
    # both players see the declared charge in the Standard box and on the map
    for p in (a, b):
        p.locator("#std-charges-declared li[data-target='0905']").wait_for()
        assert "1st Brigade charge 0905" in p.locator("#std-charges-declared").inner_text()
    assert b.locator("svg .declared-charge").count() >= 1
    b.screenshot(path=str(artifacts / "standard-charge-declared.png"))

    # --- end the movement phase (E; the page may ask to confirm with units unmoved)
    a.keyboard.press("e")
    a.wait_for_function("() => window.vedette.S.pending.size > 0 || window.vedette.S.view.phase === 'combat' || !!document.querySelector('dialog.confirm[open]')")
    if a.evaluate("() => !!document.querySelector('dialog.confirm[open]')"):
        a.locator("dialog.confirm [data-confirm=ok]").click()
    answer_decisions(pages, game_id, "v.phase === 'combat' && v.awaiting === 'blue' && !(v.prompt && (v.prompt.options || []).length)")

    # --- 7.13: the dragoons attack 0808 and announce a tactic in the builder
    a.keyboard.press("Escape")
    click_hex(a, "0807")
    a.wait_for_function("() => window.vedette.S.selHex === '0807' && !!window.vedette.S.options && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    click_hex(a, "0808")
    a.wait_for_function("() => !!window.vedette.S.builder && window.vedette.S.builder.target === '0808'")
    builder_idle(a)
    tactic = a.locator("#builder-tactic")
    assert tactic.input_value() == "none"
    values = [o.get_attribute("value") for o in tactic.locator("option").all()]
    assert values == ["none", "skirmish", "press", "charge", "disengage"]
    a.locator("#pv-tactic").wait_for()
    assert a.locator("#pv-tactic").get_attribute("data-tactic") == "none"
    assert "7.14" in a.locator("#pv-coordination").inner_text()
    # the refused tactics say why (a charge needs its declaration in the movement phase, 7.13(3))
    a.wait_for_function("() => Object.keys(window.vedette.S.builder.tacticNotes || {}).length > 0")
    charge_opt = tactic.locator("option[value='charge']")
    assert charge_opt.get_attribute("data-refused") == "true" and "not now" in charge_opt.inner_text()
    tactic.select_option("disengage")
    builder_idle(a)
    a.wait_for_function("() => document.querySelector('#pv-tactic') && document.querySelector('#pv-tactic').dataset.tactic === 'disengage'")
    assert "7.13(4)" in a.locator("#pv-tactic").inner_text()
    assert "7.13(4)" in a.locator("#explain-preview").inner_text()
    assert a.locator("#confirm-action").inner_text() == "Confirm attack (disengage)"
    a.screenshot(path=str(artifacts / "standard-tactic-builder.png"))
    a.locator("#confirm-action:not([disabled])").click()
    b.wait_for_function("() => { const p = window.vedette.S.view.prompt; return !!p && p.kind === 'tactic'; }", timeout=15000)
    sent = last_command(live_server, game_id)
    assert sent == {"type": "attack", "target": "0808", "attackers": ["b-cav"], "primary": "b-cav", "tactic": "disengage"}

    # --- 7.13: the defender answers with its own tactic, the attacker's choice shown
    assert "disengage" in b.locator("#prompt-text").inner_text()
    opts = {x.get_attribute("data-option"): x.inner_text() for x in b.locator("#prompt-options button.option-btn").all()}
    assert "none" in opts and all("7.13" in t for k, t in opts.items() if k != "none"), opts
    b.screenshot(path=str(artifacts / "standard-defender-tactic.png"))
    b.locator("#prompt-options button.option-btn[data-option='none']").click()
    b.wait_for_function("() => { const p = window.vedette.S.view.prompt; return !p || p.kind !== 'tactic'; }")
    answer_decisions(pages, game_id, "v.phase === 'combat' && v.awaiting === 'blue' && !(v.prompt && (v.prompt.options || []).length)")

    # --- 7.13(3): the declared charge is made from the combat phase's "Charges to make" box: the builder opens on
    # it with the charge tactic, the Jäger in the hex stays out
    a.keyboard.press("Escape")
    go = a.locator("#std-charges .std-charge-go[data-target='0905']")
    go.wait_for()
    assert "1st Brigade" in go.inner_text()
    go.click()
    a.wait_for_function("() => !!window.vedette.S.builder && window.vedette.S.builder.target === '0905'")
    builder_idle(a)
    assert a.locator("#builder-tactic").input_value() == "charge"
    assert a.locator("#builder-units select.builder-role[data-unit='b-1']").input_value() == "attack"
    jg = a.locator("#builder-units select.builder-role[data-unit='b-jg']")
    assert jg.count() == 0 or jg.input_value() == "out"
    a.wait_for_function("() => document.querySelector('#pv-tactic') && document.querySelector('#pv-tactic').dataset.tactic === 'charge'")
    assert "7.13(3)" in a.locator("#pv-tactic").inner_text()
    a.screenshot(path=str(artifacts / "standard-charge-builder.png"))
    before = int(a.evaluate("() => window.vedette.S.version"))
    a.locator("#confirm-action:not([disabled])").click()
    a.wait_for_function("(n) => window.vedette.S.version > n", arg=before, timeout=15000)
    sent = last_command(live_server, game_id)
    assert sent == {"type": "attack", "target": "0905", "attackers": ["b-1"], "primary": "b-1", "tactic": "charge"}, sent
    assert not errors, errors


def test_standard_coordinated_attack(open_page: Any, live_server: Any, artifacts: Path) -> None:
    """7.14: the 1st Brigade (sub-formation 1/1) and the dragoons (formation 1) attack 0808 together: without a
    coordinator the preview halves the units of the other formation; Gen. Ostrander, stacked with the brigade and
    commanding formation 1, coordinates it from the builder's **Coordinated by** choice.
    Screenshot: tests/artifacts/standard-coordinated.png."""
    base = live_server.url
    errors: list[str] = []
    a = open_page(errors, "stdk-a")
    b = open_page(errors, "stdk-b")
    game_id = seated_game(a, b, base, ("std-ck-a", "std-ck-b"), "standard-tutorial")
    pages = {"blue": a, "red": b}
    for cmd in [*TURN_1, ASSISTED]:
        api_command(a, game_id, cmd)
    for _ in range(12):
        v = state(a, game_id)
        if v["turn"] == 2 and v["active"] == "blue" and v["phase"] == "movement":
            break
        api_command(pages[v["awaiting"]], game_id, setup_answer(v))
    api_command(a, game_id, {"type": "move", "units": ["b-1", "b-ldr"], "path": ["0705", "0706", "0707", "0708"]})
    api_command(a, game_id, {"type": "end_phase"})
    a.goto(f"{base}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()
    wait_view(a, "v.turn === 2 && v.phase === 'combat' && v.awaiting === 'blue' && !(v.prompt && (v.prompt.options || []).length)")

    # select the brigade's stack, Shift-click the dragoons' hex, click the target
    click_hex(a, "0708")
    a.wait_for_function("() => window.vedette.S.selHex === '0708' && !!window.vedette.S.options && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    a.keyboard.down("Shift")
    click_hex(a, "0807")
    a.keyboard.up("Shift")
    a.wait_for_function("() => window.vedette.S.selHexes.includes('0807') && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    click_hex(a, "0808")
    a.wait_for_function("() => !!window.vedette.S.builder && window.vedette.S.builder.target === '0808'")
    builder_idle(a)
    for u in ("b-1", "b-cav"):
        role = a.locator(f"#builder-units select.builder-role[data-unit='{u}']")
        if role.input_value() != "attack":
            role.select_option("attack")
            builder_idle(a)
    a.locator("#builder-primary").select_option("b-cav")
    builder_idle(a)
    coord = a.locator("#builder-coordinator")
    if coord.input_value() != "":
        coord.select_option("")
        builder_idle(a)
    a.wait_for_function("() => { const d = document.querySelector('#pv-coordination'); return !!d && d.dataset.coordinated === 'no'; }")
    assert "1st Brigade halved" in a.locator("#pv-coordination").inner_text()
    assert a.locator("#pv-modifiers .std-modifier[data-rule='7.14']").count() == 1
    coord.select_option("b-ldr")
    builder_idle(a)
    a.wait_for_function("() => { const d = document.querySelector('#pv-coordination'); return !!d && d.dataset.coordinated === 'yes'; }")
    assert "coordinated by Gen. Ostrander" in a.locator("#pv-coordination").inner_text()
    a.screenshot(path=str(artifacts / "standard-coordinated.png"))
    before = int(a.evaluate("() => window.vedette.S.version"))
    a.locator("#confirm-action:not([disabled])").click()
    a.wait_for_function("(n) => window.vedette.S.version > n", arg=before, timeout=15000)
    sent = last_command(live_server, game_id)
    sent["attackers"] = sorted(sent["attackers"])
    assert sent == {"type": "attack", "target": "0808", "attackers": ["b-1", "b-cav"], "primary": "b-cav",
                    "coordinator": "b-ldr"}, sent
    assert not errors, errors


def test_standard_bombardment(open_page: Any, live_server: Any, artifacts: Path) -> None:
    """8.4: the Foot Battery, moved to 0507, bombards the Voltigeurs at 0808 from the page: the orange-ringed target,
    the preview's fire group with the strength and the result of each die, Confirm bombard; the target unit is
    chosen (decision `bombard_unit`) or taken at once. Screenshot: tests/artifacts/standard-bombard.png."""
    base = live_server.url
    errors: list[str] = []
    a = open_page(errors, "stdb-a")
    b = open_page(errors, "stdb-b")
    game_id = seated_game(a, b, base, ("std-bb-a", "std-bb-b"), "standard-tutorial")
    for cmd in [*TURN_1, ASSISTED, {"type": "move", "units": ["b-art"], "path": ["0306", "0406", "0507"]},
                {"type": "end_phase"}]:
        api_command(a, game_id, cmd)
    a.goto(f"{base}/games/{game_id}")
    a.locator("#conn[data-state=open]").wait_for()
    wait_view(a, "v.turn === 1 && v.phase === 'combat' && v.awaiting === 'blue' && !(v.prompt && (v.prompt.options || []).length)")
    click_hex(a, "0507")
    a.wait_for_function("() => window.vedette.S.selHex === '0507' && !!window.vedette.S.options && window.vedette.S.optionsKey === window.vedette.S.optionsFor")
    assert a.evaluate("() => window.vedette.S.options.bombards.map((b) => b.target)") == ["0808"]
    assert a.locator("svg .bombard-target").count() == 1
    click_hex(a, "0808")
    a.wait_for_function("() => !!window.vedette.S.preview && window.vedette.S.preview.kind === 'bombard'")
    a.locator("#explain-preview[data-kind='bombard'] .std-fire-group").wait_for()
    text = a.locator("#explain-preview").inner_text()
    assert "Foot Battery" in text and "Voltigeur" in text and "strength" in text, text
    assert a.locator("#explain-preview .std-results tr").count() == 6
    a.screenshot(path=str(artifacts / "standard-bombard.png"))
    before = int(a.evaluate("() => window.vedette.S.version"))
    a.locator("#confirm-action:not([disabled])").click()
    a.wait_for_function("(n) => window.vedette.S.version > n", arg=before, timeout=15000)
    assert last_command(live_server, game_id) == {"type": "bombard", "target": "0808", "artillery": ["b-art"]}
    assert not errors, errors
