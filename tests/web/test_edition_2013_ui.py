"""Issue 41 on the page: the lobby card of a scenario that declares more than one edition offers a Rules select (the
tutorial: Quick Play revised or 2013; a Standard battle none), the game is created under the pick, and the game page
then reads as the 2013 edition: its turn of movement and combat (3.3), its status words, result key (7.5, R14) and
off-map box (4.6, 11.2) with seed 001's rule numbers, and its own command on the page: four units stacked in a hex
are disrupted (5.0) and each then rolls its allowance with the Roll button before it moves (11.1(2)); the log and a
refusal the page shows cite the same rules."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from web_helpers import (
    choose_option,
    click_hex,
    computer_game,
    end_phase,
    join_by_invite,
    register,
    wait_view,
)

EDITION = "quickplay-2013"
STACK = "0305"  # 1st Brigade's hex; the battery, the Jäger and the dragoons can reach it on turn 1


def _text(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.inner_text())


def _move_into_stack(page: Any, unit: str) -> None:
    hex_id = page.evaluate("(u) => window.vedette.S.view.units[u].hex", unit)
    page.keyboard.press("Escape")
    click_hex(page, hex_id)
    page.wait_for_function("(h) => window.vedette.S.selHex === h", arg=hex_id)
    page.locator(f"#sec-selection .sel-unit[data-unit='{unit}']").wait_for()
    page.wait_for_function("() => !!window.vedette.S.options && window.vedette.S.options.reach.size > 0")
    version = page.evaluate("() => window.vedette.S.version")
    click_hex(page, STACK)
    page.wait_for_function("([u, v]) => window.vedette.S.version > v && window.vedette.S.view.units[u].hex === '0305'",
                           arg=[unit, version])


def _to_blues_next_movement(a: Any, b: Any) -> None:
    """Whoever is to act ends the phase, until Blue's movement phase of turn 2."""
    for _ in range(12):
        v = a.evaluate("() => ({...window.vedette.S.view, version: window.vedette.S.version})")
        if v["turn"] == 2 and v["active"] == "blue" and v["phase"] == "movement":
            return
        page = a if v["awaiting"] == "blue" else b
        page.wait_for_function("(v) => window.vedette.S.version >= v", arg=v["version"])
        end_phase(page)
        a.wait_for_function("(v) => window.vedette.S.version > v", arg=v["version"])
    raise AssertionError("Blue's movement phase of turn 2 never came")


def test_the_lobby_picks_the_2013_edition_and_its_page_cites_seed_001(open_page: Any, live_server: Any,
                                                                      artifacts: Path) -> None:
    errors: list[str] = []
    a = open_page(errors, "edition-a")
    b = open_page(errors, "edition-b")
    base = live_server.url
    register(a, base, "ed2013-blue")
    register(b, base, "ed2013-red")

    card = a.locator(".scenario[data-scenario='tutorial']")
    card.locator(".preview svg").wait_for()
    choice = card.locator("select[name=ruleset]")
    assert choice.locator("option").evaluate_all("os => os.map(o => [o.value, o.textContent])") == [
        ["quickplay", "Quick Play (revised)"], [EDITION, "Quick Play (2013)"]]
    assert a.locator(".scenario[data-scenario='standard-tutorial'] select[name=ruleset]").count() == 0
    chip = card.locator(".scenario-terms .edition")
    assert chip.inner_text() == "Quick Play (revised)"
    choice.select_option(EDITION)
    assert chip.inner_text() == "Quick Play (2013)" and chip.get_attribute("data-ruleset") == EDITION
    card.screenshot(path=str(artifacts / "edition-2013-lobby-card.png"))
    card.locator("select[name=side]").select_option("blue")
    card.locator("button.btn.primary").click()
    invite = a.locator("#my-games .invite input").first
    invite.wait_for()
    game_id = join_by_invite(b, invite.input_value())
    a.goto(f"{base}/games/{game_id}")
    for p in (a, b):
        p.locator("#conn[data-state=open]").wait_for()
    wait_view(a, "v.ruleset === 'quickplay-2013'")

    # 3.3: a turn of two phases a side, recovery at the end of movement; the hint and the off-map box cite seed 001
    if a.evaluate("() => window.vedette.S.view.phase") == "setup":
        end_phase(a)
    wait_view(a, "v.phase === 'movement' && v.active === 'blue'")
    assert a.locator(".phase-steps span").evaluate_all("ss => ss.slice(1).map(s => s.textContent)") == ["movement", "combat"]
    hint = _text(a, "body")
    assert "roll their allowance first (11.1(2))" in hint and "only on a march, 4.3" in hint
    assert a.locator("#sec-offboard .rule").first.text_content() == "rules 4.6, 11.2"
    assert a.locator("#sec-battle h3 .rule").text_content() == "3.4"  # the victory conditions: seed 001 has no 14.0
    key = a.locator("#result-key")
    assert "7.5: NE, r, c, x, m, Ex, Leader" in key.locator("summary").inner_text()
    codes = key.locator("dt").evaluate_all("ds => ds.map(d => d.dataset.code)")
    assert codes[:3] == ["NE", "Ar", "Dr"] and "Dm(Dx)" in codes and "Am(Ar)" in codes and "Leader" in codes
    assert "R14.2" in key.locator("dd").nth(1).text_content()

    # 5.0: a fourth unit in 1st Brigade's hex disrupts all four at the end of the movement phase
    for unit in ("b-art", "b-jg", "b-cav"):
        _move_into_stack(a, unit)
    end_phase(a)
    wait_view(a, "['b-1', 'b-art', 'b-jg', 'b-cav'].every((u) => v.units[u].disrupted)")
    assert a.locator("#log li[data-type='overstacked']").inner_text().startswith("5.0:")
    _to_blues_next_movement(a, b)

    # 11.1(2): the stack's disrupted units must roll their allowance first: a button under Selected in 0305
    disrupted = a.evaluate("() => ['b-1', 'b-art', 'b-jg', 'b-cav'].filter((u) => window.vedette.S.view.units[u].hex === '0305'"
                           " && window.vedette.S.view.units[u].disrupted)")
    assert disrupted, "the red turn left no disrupted unit in 0305"
    a.keyboard.press("Escape")
    click_hex(a, STACK)
    a.wait_for_function("() => window.vedette.S.selHex === '0305' && !!window.vedette.S.options")
    roll = a.locator("#sec-selection .sel-commands button", has_text="Roll the movement allowance")
    roll.wait_for()
    assert "rule 11.1(2)" in (roll.get_attribute("title") or "")
    assert "11.1(2)" in _text(a, "#sec-selection")
    assert a.evaluate("() => window.vedette.S.options.reach.size") == 0  # nowhere to go before the roll
    a.screenshot(path=str(artifacts / "edition-2013-roll-ma.png"))
    command = a.evaluate("() => JSON.parse([...document.querySelectorAll('#sec-selection .sel-commands button')]"
                         ".find((b) => b.textContent.startsWith('Roll')).dataset.command)")
    assert command["type"] == "roll_ma" and sorted(command["units"]) == sorted(
        a.evaluate("() => window.vedette.S.selected.filter((u) => window.vedette.S.view.units[u].disrupted)"))
    version = a.evaluate("() => window.vedette.S.version")
    roll.click()
    a.wait_for_function("(v) => window.vedette.S.version > v", arg=version)
    rolled = a.evaluate("() => window.vedette.S.log.flatMap((e) => e.events).filter((e) => e.type === 'rolled_ma')")
    assert {e["unit"] for e in rolled} == set(command["units"]) and all(e["rule"] == "11.1(2)" for e in rolled)
    assert all(li.startswith("11.1(2):") for li in a.locator("#log li[data-type='rolled_ma']").all_inner_texts())
    # once rolled the stack may move (its reach shaded) and the roll is not offered again
    click_hex(a, STACK)
    a.wait_for_function("() => window.vedette.S.selHex === '0305' && !!window.vedette.S.options && window.vedette.S.options.reach.size > 0")
    assert a.locator("#sec-selection .sel-commands button", has_text="Roll the movement allowance").count() == 0
    # a second roll, sent the page's own way, is refused by the referee under 11.1(2), and the toast says so
    a.evaluate("async (cmd) => { const { send } = await import('/static/js/core/sync.js'); send(cmd); }", command)
    toast = a.locator(".toast.error").last
    toast.wait_for()
    assert "already rolled" in toast.inner_text() and "rule 11.1(2)" in toast.inner_text()
    a.screenshot(path=str(artifacts / "edition-2013-refusal.png"))
    assert not errors, errors


def test_the_computer_takes_the_other_seat_of_a_2013_game_and_plays_it(open_page: Any, live_server: Any) -> None:
    """The lobby's Opponent choice with the Rules select on 2013: the computer (greedy) seats itself, and its belief of
    the game is the 2013 edition's, so each command it sends is one the 2013 referee accepts."""
    errors: list[str] = []
    page = open_page(errors, "edition-solo")
    game_id = computer_game(page, live_server.url, "ed2013-solo", opponent="greedy", ruleset=EDITION)
    wait_view(page, "v.ruleset === 'quickplay-2013' && v.game.status === 'active' && v.seats.red === 'computer-greedy'")
    for _ in range(20):  # Blue ends each phase at once and takes a decision's first choice; the computer plays Red
        wait_view(page, "v.phase === 'over' || v.awaiting === 'blue'", timeout=60000)
        view = page.evaluate("() => ({...window.vedette.S.view, version: window.vedette.S.version})")
        if view["turn"] >= 3 or view["phase"] == "over":
            break
        options = (view.get("prompt") or {}).get("options") or []
        if options:  # e.g. a retreat or a counterattack after the computer's attack
            choose_option(page, options[0]["id"])
        else:
            end_phase(page)
        wait_view(page, f"v.version > {view['version']}", timeout=30000)
    with sqlite3.connect(f"{live_server.db_dir}/vedette.db") as c:
        red = [json_command for (json_command,) in c.execute(
            "SELECT command FROM game_commands WHERE game_id = ? AND side = 'red'", (game_id,))]
        (edition,) = c.execute("SELECT ruleset FROM games WHERE id = ?", (game_id,)).fetchone()
    assert edition == EDITION
    assert any('"move"' in cmd for cmd in red), f"the computer never moved: {red}"
    assert not errors, errors
