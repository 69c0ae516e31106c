"""The cavalry charge UI (rule 9.2): a charge-mode toggle for cavalry with charge moves, charge targets on the
map, the charge move sent by a click, the charging marker, and the combat phase's Charges section (the
refusal to end the phase while a declared charge is unmade, then the charge itself).

The position is reached through the REST API: Blue's cavalry moves to 0806 in turn 1, both sides end their
phases, and in Blue's turn-2 movement phase b-cav may charge Red's guns at 1005 (and the hill at 0905).
Screenshots: tests/artifacts/charge-mode.png and charges-section.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    api_command,
    api_get,
    choose_option,
    click_hex,
    create_game,
    hex_point,
    join_by_invite,
    register,
    view,
    wait_view,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

def _state(page: Any, game_id: str) -> dict[str, Any]:
    d: dict[str, Any] = api_get(page, f"/api/games/{game_id}")
    return d["view"]


def test_charge_mode_and_charges_section(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")

    # --- lobby: alice creates a tutorial game as Blue, bob joins by the invite link
    register(alice, base, "chalice")
    link = create_game(alice, "blue")
    register(bob, base, "chbob")
    game_id = join_by_invite(bob, link)
    wait_view(bob, "v.viewer === 'red'")
    pages = {"blue": alice, "red": bob}

    # --- reach the position through the API: b-cav to 0806, then end phases until Blue's turn-2 movement
    if _state(alice, game_id)["phase"] == "setup":
        api_command(alice, game_id, {"type": "end_phase"})
    opts = api_get(alice, f"/api/games/{game_id}/options?units=b-cav")
    opts = opts.get("options", opts)
    assert "0806" in opts.get("reachable", {}), opts
    api_command(alice, game_id, {"type": "move", "units": ["b-cav"], "path": opts["reachable"]["0806"]["path"]})
    for _ in range(12):
        v = _state(alice, game_id)
        if v["turn"] == 2 and v["active"] == "blue" and v["phase"] == "movement":
            break
        assert not (v.get("prompt") or {}).get("options"), f"unexpected decision: {json.dumps(v.get('prompt'))}"
        api_command(pages[v["awaiting"]], game_id, {"type": "end_phase"})
    else:
        pytest.fail("never reached Blue's turn-2 movement phase")
    opts = api_get(alice, f"/api/games/{game_id}/options?units=b-cav")
    opts = opts.get("options", opts)
    assert opts.get("charges"), opts
    targets = sorted({c["charge"] for c in opts["charges"]})
    assert "1005" in targets, opts["charges"]
    shortest = min((c for c in opts["charges"] if c["charge"] == "1005"), key=lambda c: len(c["path"]))

    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.turn === 2 && v.phase === 'movement' && v.awaiting === 'blue'")
    alice.locator("#conn[data-state=open]").wait_for()

    # --- infantry has no charge moves: no Charge toggle
    alice.locator("[data-unit='b-jg']").first.click()
    alice.locator(".reach").first.wait_for()
    alice.locator("#sel-summary").wait_for()
    assert alice.locator("#charge-toggle").count() == 0

    # --- cavalry with charge moves: the toggle appears; C switches the overlay to charge targets
    alice.locator("[data-unit='b-cav']").first.click()
    toggle = alice.locator("#charge-toggle")
    toggle.wait_for()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert "Charge" in (toggle.get_attribute("aria-label") or "")
    alice.locator("#map-host svg").focus()
    alice.keyboard.press("c")
    alice.locator("#charge-toggle[aria-pressed=true]").wait_for()
    alice.locator(".charge-target[data-hex='1005']").wait_for()
    assert alice.locator(".reach").count() == 0
    shown = sorted(alice.eval_on_selector_all(".charge-target[data-hex]", "els => els.map(e => e.dataset.hex)"))
    assert shown == targets
    for b in alice.locator(".charge-target-btn").all():
        assert (b.get_attribute("aria-label") or "").startswith("Charge ")
    # hover a target: its (shortest) path is drawn
    x, y = hex_point(alice, "1005")
    alice.mouse.move(x, y - 14)
    alice.locator(".move-path").first.wait_for()
    alice.screenshot(path=str(artifacts / "charge-mode.png"))

    # --- Escape leaves charge mode (the reachable hexes come back), C enters it again
    alice.keyboard.press("Escape")
    alice.locator("#charge-toggle[aria-pressed=false]").wait_for()
    alice.locator(".reach").first.wait_for()
    assert alice.locator(".charge-target").count() == 0
    toggle.click()
    alice.locator(".charge-target[data-hex='1005']").wait_for()

    # --- clicking the target sends the charge move along the shortest path
    click_hex(alice, "1005", dy=-14)
    wait_view(alice, "v.units['b-cav'].charging === '1005'")
    assert view(alice)["units"]["b-cav"]["hex"] == shortest["path"][-1]
    # the counter shows the charging marker
    alice.locator("[data-unit='b-cav'] .marker-charge").first.wait_for()
    # the Charges section lists the declared charge already (made in the combat phase)
    alice.locator("#sec-charges .charge-item[data-target='1005']").wait_for()
    assert alice.locator("#sec-charges .charge-go").count() == 0

    # --- end the movement phase; in combat, ending the phase is refused until the charge is made
    alice.locator("#end-phase").click()
    if alice.locator("dialog[open]").count():
        alice.locator("dialog[open] [data-confirm=ok]").click()
    wait_view(alice, "v.phase === 'combat' && v.active === 'blue'")
    go = alice.locator("#sec-charges .charge-go[data-target='1005']")
    go.wait_for()
    assert "1005" in (go.get_attribute("aria-label") or "")
    assert "must be made before the combat phase can end" in alice.locator("#charge-note").inner_text()
    alice.locator("#end-phase").click()
    refusal = alice.locator("#charge-refusal")
    refusal.wait_for()
    assert "declared charges must be made first" in refusal.inner_text()
    assert view(alice)["phase"] == "combat"
    alice.screenshot(path=str(artifacts / "charges-section.png"))

    # --- Charge!: the charge is made; answer every decision it raises, whoever makes it
    v0 = view(alice)["version"]
    go.click()
    wait_view(alice, f"v.version > {v0}")
    asked: list[str] = []
    for _ in range(12):
        v = _state(alice, game_id)
        p = v.get("prompt")
        if not p or p.get("kind") == "phase" or not p.get("options"):
            break
        page = pages[p["side"]]
        wait_view(page, f"v.version === {v['version']}")
        opt = p["options"][0]
        choose_option(page, opt["id"])
        asked.append(p["kind"])
        wait_view(alice, f"v.version > {v['version']}")
    log_text = alice.locator("#log").inner_text()
    assert "9.2" in log_text, log_text[-800:]
    wait_view(alice, "v.units['b-cav'].attacked || v.units['b-cav'].status !== 'map'")
    assert alice.locator("#sec-charges .charge-go").count() == 0
    assert not errors, errors
