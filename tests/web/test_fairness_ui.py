"""Dice nobody can bias, in the browser (R11, docs/dice.md; issue 12, issue 11 item 13): each seat's browser
draws its own contribution after seeing the commitment and sends it when it takes its seat; at game end the
game page offers the record and the published seed, and one click recomputes every die in the browser."""

from __future__ import annotations

import random
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from stored_game import stored_game
from web_helpers import create_game, join_by_invite, register, wait_view

from server.rules import Game
from server.rules.kernel.dice import dice_key, die_from_key

pytestmark = [pytest.mark.slow, pytest.mark.browser]
ROOT = Path(__file__).resolve().parents[2]


def _engine(live_server: Any, game_id: str) -> Game:
    with sqlite3.connect(Path(live_server.db_dir) / "vedette.db") as conn:
        return stored_game(conn, game_id)


def _post(page: Any, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        """async ([url, body]) => {
            const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                        body: body ? JSON.stringify(body) : undefined});
            return {status: r.status, body: await r.json()};
        }""",
        [url, body],
    )
    return result


def test_each_browser_contributes_and_the_game_page_checks_every_die(browser: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    pages = {}
    for name in ("alice", "bob"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})  # not pinned: real random values
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.on("pageerror", lambda e, n=name: errors.append(f"{n}: {e}"))
        pages[name] = page
    alice, bob = pages["alice"], pages["bob"]
    suffix = uuid.uuid4().hex[:6]
    register(alice, base, f"fa{suffix}")
    link = create_game(alice, "blue")
    register(bob, base, f"fb{suffix}")
    # the joiner is shown the server's commitment before it takes the seat
    bob.goto(link)
    bob.get_by_text("Fair dice: the server has committed").wait_for()
    game_id = join_by_invite(bob, link)
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.dice && v.dice.ready")

    mine = {n: p.evaluate(f"() => localStorage.getItem('vedette.dice.{game_id}')") for n, p in pages.items()}
    engine = _engine(live_server, game_id)
    assert engine.contributions == {"blue": mine["alice"], "red": mine["bob"]}
    assert all(len(v) == 64 for v in mine.values()) and mine["alice"] != mine["bob"]
    assert alice.evaluate("() => window.vedette.S.view.dice.contributed") == {"blue": True, "red": True}

    # play until a few dice are rolled (over the API with the players' cookies), then resign
    seat_page = {"blue": alice, "red": bob}
    rng = random.Random(5)
    for _ in range(120):
        engine = _engine(live_server, game_id)
        if engine.state.dice_count >= 4 or engine.is_over:
            break
        side = engine.awaiting
        commands = list(engine.legal_commands(side, random.Random(rng.random())))
        fights = [c for c in commands if c["type"] in ("attack", "bombard", "choose", "recover")]
        moves = [c for c in commands if c["type"] == "move"]
        command = rng.choice(fights or moves or commands) if rng.random() < 0.8 else {"type": "end_phase"}
        if command not in commands and command["type"] == "end_phase" and not any(c["type"] == "end_phase" for c in commands):
            command = commands[0]
        answer = _post(seat_page[side], f"/api/games/{game_id}/commands",
                       {"command": command, "expected_version": engine.version, "command_id": str(uuid.uuid4())})
        assert answer["status"] in (200, 422), answer
    assert _engine(live_server, game_id).state.dice_count > 0
    assert _post(bob, f"/api/games/{game_id}/resign")["status"] == 200

    panel = alice.locator("#gameover")
    panel.wait_for()
    record = alice.evaluate(f"async () => (await fetch('/api/games/{game_id}/record')).json()")
    seed = record["seed"]
    assert panel.locator("code.seed").inner_text() == seed
    href = panel.get_by_role("link", name="Download the record").get_attribute("href")
    assert href is not None and href.startswith(f"/api/games/{game_id}/record")
    panel.get_by_role("button", name="Check every die").click()
    result = panel.locator(".fairness-result")
    result.get_by_text("Every die matches.").wait_for()
    text = result.inner_text()
    rolled = [d for e in record["commands"] for d in e["dice"]]
    assert f"All {len(rolled)} dice match" in text and "Your browser's contribution is the one in the record" in text
    # the same dice in Python
    key = dice_key(seed, record["dice"]["contributions"])
    assert rolled == [die_from_key(key, n) for n in range(len(rolled))]
    alice.screenshot(path=str(artifacts / "fairness-check.png"))

    # the browser's check catches a changed die and a swapped contribution
    verdicts = alice.evaluate(
        """async (record) => {
            const f = await import("/static/js/ui/fairness.js");
            const die = JSON.parse(JSON.stringify(record));
            const entry = die.commands.find((e) => e.dice.length);
            entry.dice[0] = entry.dice[0] % 6 + 1;
            const swapped = JSON.parse(JSON.stringify(record));
            swapped.dice.contributions.blue = "00".repeat(32);
            const seed = JSON.parse(JSON.stringify(record));
            seed.seed = seed.seed + "0";
            return [(await f.checkRecord(die)).ok, (await f.checkRecord(swapped)).ok, (await f.checkRecord(seed)).ok,
                    (await f.checkRecord(record)).ok];
        }""",
        record,
    )
    assert verdicts == [False, False, False, True]
    assert not errors, errors


def test_the_browser_derivation_gives_the_published_known_answers(browser: Any, live_server: Any) -> None:
    """web/js/ui/fairness.js and server/rules/dice.py agree (tests/rules/test_dice.py pins the same values)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(live_server.url + "/")
    got = page.evaluate(
        """async () => {
            const f = await import("/static/js/ui/fairness.js");
            const key = await f.diceKey("known-answer-seed-0123456789", {red: "", blue: "11".repeat(32)});
            const hex = Array.from(key, (b) => b.toString(16).padStart(2, "0")).join("");
            const dice = [];
            for (let n = 0; n < 20; n++) dice.push(await f.dieFromKey(key, n));
            const legacy = await f.diceKey("known-answer-seed-0123456789", {}, f.LEGACY_SCHEME);
            const old = [];
            for (let n = 0; n < 20; n++) old.push(await f.dieFromKey(legacy, n));
            const c = f.newContribution();
            return {hex, dice, old, c};
        }"""
    )
    ctx.close()
    assert got["hex"] == "aac852797bf323d1884ad407d93ab095afaf88149a9b25adebd23662cd0a052b"
    assert got["dice"] == [2, 4, 1, 5, 5, 2, 4, 2, 4, 6, 5, 2, 4, 2, 3, 3, 1, 2, 2, 6]
    assert got["old"] == [5, 1, 5, 4, 2, 1, 4, 3, 2, 4, 1, 5, 5, 3, 1, 4, 3, 3, 6, 3]
    assert len(got["c"]) == 64 and set(got["c"]) <= set("0123456789abcdef")


def test_r17_1_the_browser_checks_a_record_of_d10s(browser: Any, live_server: Any) -> None:
    """fairness.js recomputes a d10 record (R17.1: `"faces": 10`, the first byte below 250, mod 10) with the kernel's
    known answers, passes a finished Musket & Pike game's record and fails one with a changed d10."""
    from server.rules.kernel.randomplayer import play_random_game
    from server.rules_cli import find_scenario

    record = play_random_game(find_scenario("mp-lindau"), seed=1, check=False).record()
    assert record["dice"]["faces"] == 10
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(live_server.url + "/")
    got = page.evaluate(
        """async (record) => {
            const f = await import("/static/js/ui/fairness.js");
            const key = await f.diceKey("known-answer-seed-0123456789", {red: "", blue: "11".repeat(32)});
            const d10 = [];
            for (let n = 0; n < 20; n++) d10.push(await f.dieFromKey(key, n, 10));
            const bad = JSON.parse(JSON.stringify(record));
            const entry = bad.commands.find((e) => e.dice.length);
            entry.dice[0] = (entry.dice[0] + 1) % 10;
            const g = await f.checkRecord(record); return {d10, good: g.ok, lines: g.lines, bad: (await f.checkRecord(bad)).ok};
        }""",
        record,
    )
    ctx.close()
    assert got["d10"] == [9, 7, 8, 0, 4, 5, 7, 9, 3, 3, 0, 1, 1, 9, 2, 2, 8, 3, 7, 5]
    assert got["good"] is True and got["bad"] is False, got["lines"]
