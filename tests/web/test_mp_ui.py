"""Musket & Pike on the page (issue 43, R17.95): on Lindau with the Imperial Horse under Charge one hex from a Finnish
Horse and a Swedish brigade next to the Imperial Regiment, every page flow of a wing's activation by clicks and keys:
the counters with their facing and their wing's order and state, the hover card in plain words; the orders changes,
preemption, continuation and interception asked with their odds (need, modifiers, chance); the wings' panel with the
active wing; a move by a click on its destination then its facing (the key 4: S); a close combat chosen on the map with
the referee's preview (every modifier, the cap) and explained after the roll (table, row, die, modifiers); a fire
chosen on the map with its table, column and result chances, explained after. The dice are loaded (liveserver's
loaded_dice): the initiative 0 and 9, the close combat's die 1, the fire's die 6."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_whole_battle import create_in_lobby
from web_helpers import choose_option, click_hex, hex_point, join_by_invite, register, wait_view

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def crafted() -> dict[str, Any]:
    data = json.loads((ROOT / "scenarios" / "musket-and-pike" / "mp-lindau.json").read_text())
    data["id"] = "mp-ui"
    data["title"] = "Lindau, at close quarters"
    gone = {"imp-cuir2", "imp-arq"}  # the Horse wing is the cuirassiers alone: 5.6 note 1 binds no other unit
    data["units"] = [u for u in data["units"] if u["id"] not in gone]
    data["setup"] = [s for s in data["setup"] if s["unit"] not in gone]
    for w in data["wings"]:
        if w["id"] == "imp-horse":
            w["order"] = "charge"
    place = {"swe-finn1": ("1106", "N"), "swe-blue": ("0906", "N"), "swe-baner": ("0906", None),
             "swe-cuir": ("1207", "N"), "swe-stalhandske": ("1207", None)}
    for s in data["setup"]:
        if s["unit"] in place:
            s["hex"], facing = place[s["unit"]]
            if facing:
                s["facing"] = facing
    return data


@pytest.fixture(scope="module")
def mp_server() -> Iterator[Any]:
    from liveserver import serving

    with serving({"musket-and-pike/mp-ui.json": crafted()}, prefix="vedette-mp-") as srv:
        yield srv


def note(page: Any, option: str) -> str:
    """The words under a decision's button (its odds and what it does)."""
    btn = page.locator(f"#prompt-options button.option-btn[data-option='{option}']")
    btn.wait_for()
    return str(btn.inner_text())


def answer(page: Any, option: str, click: Any = None) -> None:
    """Choose `option` of the decision on the page and wait until the server has taken it (a new version)."""
    version = page.evaluate("() => window.vedette.S.version")
    choose_option(page, option, click)
    page.wait_for_function("(v) => window.vedette.S.version > v", arg=version)


def wait_prompt(page: Any, kind: str) -> None:
    wait_view(page, f"!!v.prompt && v.prompt.kind === '{kind}'")
    page.locator("#sec-prompt #prompt-title").wait_for()


def test_a_wing_activation_through_the_page(open_page: Any, mp_server: Any, artifacts: Path) -> None:
    from liveserver import last_command, loaded_dice

    base = mp_server.url
    errors: list[str] = []
    a = open_page(errors, "mp-a")
    b = open_page(errors, "mp-b")
    # the landing page names the edition among the rules on offer; the lobby's card, the battle's edition
    a.goto(base + "/")
    a.locator(".edition-item[data-edition='Musket & Pike']").wait_for()
    register(a, base, "mpalice")
    register(b, base, "mpbob")
    chip = a.locator(".scenario[data-scenario='mp-ui'] .edition[data-ruleset='musket-and-pike']")
    chip.wait_for()
    assert chip.inner_text() == "Musket & Pike"
    link, side_a = create_in_lobby(a, "mp-ui")
    game_id = join_by_invite(b, link)
    a.goto(f"{base}/games/{game_id}")
    pages = {side_a: a, ("swedish" if side_a == "imperial" else "imperial"): b}
    imp, swe = pages["imperial"], pages["swedish"]
    for p in pages.values():
        p.locator("#conn[data-state=open]").wait_for()
        wait_view(p, "!!v['musket-and-pike']")

    # R17.16, R17.15: each counter's facing wedge and its tag (its wing's order, its state); the hover card in words
    imp.locator("svg polygon.facing[data-unit='imp-tercio']").wait_for()
    assert imp.locator("svg .mp-tag[data-unit='imp-tercio'][data-order='receive_charge']").count() == 1
    assert imp.locator("svg .mp-tag[data-unit='imp-cuir1'][data-order='charge']").count() == 1
    x, y = hex_point(imp, "0605")
    imp.mouse.move(x, y)
    tip = imp.locator("#tip")
    tip.wait_for()
    card = tip.inner_text()
    assert "Tercio (Heavy Infantry): with pikes, two-hex unit (R17.14); strength 12, morale 7" in card, card
    assert "facing S" in card, card
    assert "Imperial Foot Wing (Receive Charge)" in card and "12 of 12 SP" in card, card
    imp.mouse.move(5, 5)

    with loaded_dice([0, 9, 1, 6]):
        # M19: the first side opens the battle; R17.21: Imperials 0 + 0, Swedes 9 - 1: the Imperials have the initiative
        imp.locator("#sec-phase #mp-end-segment").click()
        # 5.7: each wing's orders change, with its odds: need, modifiers, chance
        wait_prompt(imp, "orders_change")
        words = note(imp, "charge")
        assert "needs 0-" in words and "% to succeed" in words and "Success: Charge at once (5.7)" in words, words
        imp.screenshot(path=str(artifacts / "mp-orders-change.png"))
        for _ in range(2):
            wait_prompt(imp, "orders_change")
            answer(imp, "keep")
        for _ in range(2):
            wait_prompt(swe, "orders_change")
            answer(swe, "keep")
        # R17.25: the Imperials activate their Horse wing (a button)
        wait_prompt(imp, "activate")
        answer(imp, "imp-horse")
        wait_view(imp, "v['musket-and-pike'].segment === 'movement' && v['musket-and-pike'].wing === 'imp-horse'")
        # the wings' panel: the active wing, its order; the counters' tags coloured by activation
        imp.locator("#mp-wings .mp-wing[data-wing='imp-horse'][data-active='1'][data-order='charge']").wait_for()
        assert "acting now: Movement Segment" in imp.locator("#mp-wings .mp-wing[data-wing='imp-horse']").inner_text()
        assert imp.locator("#mp-wings .mp-wing[data-wing='imp-foot'][data-look='waiting']").count() == 1
        imp.locator("svg .mp-tag[data-unit='imp-cuir1'][data-look='active']").wait_for()
        swe.locator("#mp-wings .mp-wing[data-wing='imp-horse'][data-active='1']").wait_for()  # the other side sees it too

        # R17.40, R17.16: select the cuirassiers, click the hex ahead, then the facing (Esc goes back; the key 4 is S)
        click_hex(imp, "1104")
        imp.wait_for_function("() => window.vedette.S.selHex === '1104' && !!window.vedette.S.options && window.vedette.S.options.reach.has('1105')")
        click_hex(imp, "1105")
        imp.wait_for_function("() => window.vedette.S.mpDest === '1105'")
        assert imp.locator("#mp-facing .mp-face-btn").count() == 6
        assert imp.locator("svg .mp-face[data-hex='1106']").count() == 1  # the hex it would face, labelled
        imp.screenshot(path=str(artifacts / "mp-facing.png"))
        imp.keyboard.press("Escape")
        imp.wait_for_function("() => window.vedette.S.mpDest === null")
        click_hex(imp, "1105")
        imp.wait_for_function("() => window.vedette.S.mpDest === '1105'")
        imp.keyboard.press("4")
        wait_view(imp, "v.units['imp-cuir1'].hex === '1105'")
        assert last_command(mp_server, game_id) == {"type": "move", "unit": "imp-cuir1", "path": ["1104", "1105"], "facing": "S"}

        # 9.3: the Swedes may intercept, with the odds
        wait_prompt(swe, "intercept")
        words = note(swe, "swe-cuir")
        assert "needs 0-4 on the d10" in words and "Stålhandske's rating" in words and "60% to succeed" in words, words
        swe.screenshot(path=str(artifacts / "mp-intercept.png"))
        answer(swe, "none")
        # R17.51: the Finnish Horse next to the mover may react
        wait_prompt(swe, "react")
        assert "Withdraw" in swe.locator("#prompt-options").inner_text()
        answer(swe, "done")

        # End segment twice (E, then the segment box's button): the Close Combat Segment
        wait_view(imp, "!v.prompt || v.prompt.kind === 'phase'")
        imp.locator("body").click(position={"x": 2, "y": 2})
        imp.keyboard.press("e")
        wait_view(imp, "v['musket-and-pike'].segment === 'action'")
        imp.locator("#sec-phase #mp-end-segment").click()
        wait_view(imp, "v['musket-and-pike'].segment === 'close_combat'")

        # R17.80-R17.84: select the cuirassiers, click the ringed defender: each way to attack with the referee's preview
        click_hex(imp, "1105")
        imp.wait_for_function("() => !!window.vedette.S.options && window.vedette.S.options.mp.targets.has('1106')")
        imp.locator("svg .mp-target-close_combat[data-hex='1106']").first.wait_for()
        click_hex(imp, "1106")
        box = imp.locator("#mp-target")
        box.wait_for()
        imp.wait_for_function("() => [...document.querySelectorAll('#mp-target .mp-target-go .why')].some((w) => /R17.84/.test(w.textContent))")
        text = box.inner_text()
        assert "Close Combat Table (11.0)" in text and "Momentum" in text and "capped at ±4, R17.84" in text, text
        imp.screenshot(path=str(artifacts / "mp-close-combat-preview.png"))
        go = {"type": "close_combat", "defender": "swe-finn1", "attackers": ["imp-cuir1"], "lead": "imp-cuir1", "pistols": ["imp-cuir1"]}
        box.locator(f".mp-target-go[data-command='{json.dumps(go, separators=(',', ':'))}']").click()
        # R17.81: the defender's pistol; R17.85: its retreat on the map
        wait_prompt(swe, "pistol")
        assert "−1 to the attacker's close combat roll" in note(swe, "spend")
        answer(swe, "keep")
        wait_prompt(swe, "retreat")
        answer(swe, "1206", click_hex)
        # the close combat explained: the table, every modifier with its rule, the cap, the die, the row, the result
        expl = imp.locator("#mp-combat .mp-cc")
        expl.wait_for()
        text = expl.inner_text()
        assert "Close Combat Table (11.0)" in text and "die 1" in text and "Cavalry Momentum" in text, text
        assert "(11.3.3)" in text and "capped at +4 (R17.84)" in text and "Morale Shaken" in text, text
        imp.locator("#sec-mp").screenshot(path=str(artifacts / "mp-close-combat-explained.png"))
        # the Last result panel: the declaration, the die, the close combat's line with its modifiers, the retreat
        last = imp.locator("#sec-combat")
        imp.wait_for_function("() => /retreats/.test(document.querySelector('#sec-combat').textContent)")
        text = last.inner_text()
        assert "attacks Finnish Horse (1)" in text and "Cavalry Momentum" in text and "retreats" in text, text
        last.screenshot(path=str(artifacts / "mp-last-result.png"))

        # 4.4, 4.3: the activation ends; the Swedes may preempt, the Imperials continue, each with the odds
        wait_view(imp, "!v.prompt || v.prompt.kind === 'phase'")
        imp.locator("#sec-phase #mp-end-segment").click()
        wait_prompt(swe, "preempt")
        words = note(swe, "swe-horse")
        assert "needs 0-3 on the d10" in words and "Cavalry Wing (4.3)" in words and "60% to succeed" in words, words
        swe.screenshot(path=str(artifacts / "mp-preempt.png"))
        answer(swe, "none")
        wait_prompt(imp, "continue")
        words = note(imp, "continue")
        assert "needs 0-" in words and "% to succeed" in words and "activates again" in words, words
        answer(imp, "finish")
        wait_view(imp, "v['musket-and-pike'].wings['imp-horse'].activated && !v['musket-and-pike'].wings['imp-horse'].active")
        imp.locator("#mp-wings .mp-wing[data-wing='imp-horse'][data-look='activated']").wait_for()

        # the Swedes' Foot: End the Movement Segment (E asks first: its units have not moved), fire at the Regiment
        wait_prompt(swe, "activate")
        swe.locator("svg .ring.choice[data-hex='0906']").wait_for()  # R17.25: the wing's units outlined: a click there
        click_hex(swe, "0906")
        wait_view(swe, "v['musket-and-pike'].segment === 'movement'")
        swe.locator("body").click(position={"x": 2, "y": 2})
        swe.keyboard.press("e")
        swe.locator("dialog.confirm[open]").wait_for()
        swe.locator("dialog.confirm [data-confirm=ok]").click()
        wait_view(swe, "v['musket-and-pike'].segment === 'action'")
        click_hex(swe, "0906")
        swe.wait_for_function("() => !!window.vedette.S.options && window.vedette.S.options.mp.targets.has('0905')")
        swe.locator("svg .mp-target-fire[data-hex='0905']").first.wait_for()
        click_hex(swe, "0905")
        box = swe.locator("#mp-target")
        box.wait_for()
        text = box.inner_text()
        assert "Heavy Infantry Musketry Tables (10.0), front" in text and "Salvo at Regiment (10.4)" in text, text
        assert "Heavy Infantry Musketry Tables (10.0), salvo" in text and "Miss" in text, text
        swe.screenshot(path=str(artifacts / "mp-fire-preview.png"))
        fire = {"type": "fire", "unit": "swe-blue", "target": "imp-regiment"}
        box.locator(f".mp-target-go[data-command='{json.dumps(fire, separators=(',', ':'))}']").click()
        for p in (imp, swe):
            expl = p.locator("#mp-combat .mp-fire")
            expl.wait_for()
            text = expl.inner_text()
            assert "Blue Brigade fires" in text and "Heavy Infantry Musketry Tables (10.0), column front" in text, text
            assert "die 6" in text and "row" in text, text
        imp.locator("#sec-mp").screenshot(path=str(artifacts / "mp-fire-explained.png"))
    assert not errors, errors
