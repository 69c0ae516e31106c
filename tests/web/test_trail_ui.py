"""The other side's moves leave a trail (issue 39): after the second seat's or the computer's commands, the page
draws each of their moves, advances and retreats on the map as an arrow from the hex it began in to the hex it
ended in, outlines each attacked hex, and says it in words beside the map ("What just happened"); the player's next
decision takes it away. A spectator sees both sides' trails. A hidden-movement marker's route (19.8 A: the owner's
secret) is never drawn for the opponent or a spectator.

Screenshots go to tests/artifacts/trail-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import serving
from test_hidden_ui import crafted
from web_helpers import (
    api_command,
    click_hex,
    computer_game,
    reachable_next_to_enemy,
    register,
    seated_game,
    view,
    view_log,
    wait_view,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every trail arrow on the map: its data and whether its line starts at its origin hex's centre and ends in its
# destination hex (the geometry, not only the attributes; the head stops at the edge of the counter standing there).
TRAIL_PATHS = """() => [...document.querySelectorAll('#map-host .layer-trail .trail-path')].map((g) => {
    const m = window.vedette.map;
    const pts = g.querySelector('.trail-line').getAttribute('d').match(/-?[0-9.]+,-?[0-9.]+/g)
        .map((p) => p.split(',').map(Number));
    const near = (hex, p, r) => { const c = m.grid.center(hex); return Math.hypot(c.x - p[0], c.y - p[1]) < r; };
    const inner = m.grid.h / 2;  // the hex's inscribed radius: a point nearer its centre is in the hex
    return {kind: g.dataset.kind, from: g.dataset.from, to: g.dataset.to, units: g.dataset.units.split(' '),
            starts: near(g.dataset.from, pts[0], 0.5), ends: near(g.dataset.to, pts[pts.length - 1], inner)};
})"""


def trail_paths(page: Any) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = page.evaluate(TRAIL_PATHS)
    return got


def trail_targets(page: Any) -> list[str]:
    got: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#map-host .layer-trail .trail-target')].map((g) => g.dataset.hex)")
    return got


def summary(page: Any) -> str:
    sec = page.locator("#sec-trail")
    return sec.inner_text() if sec.count() and sec.is_visible() else ""


def drawn(page: Any, origin: str, dest: str, kind: str = "move") -> None:
    """Wait until the trail holds an arrow of `kind` from `origin` to `dest`."""
    page.wait_for_function(
        f"() => !!document.querySelector(\"#map-host .layer-trail .trail-{kind}[data-from='{origin}'][data-to='{dest}']\")",
        timeout=15000)


def moves_since(log: list[dict[str, Any]], side: str) -> list[tuple[str, str, list[str]]]:
    """(origin, destination, units) of every move made since `side`'s last command in its own turn (the log's own
    events, as this viewer reads them; its answers to the other side's attacks do not count)."""
    last, active = -1, None
    for i, e in enumerate(log):
        if e["side"] == side and active in (side, None):
            last = i
        active = next((ev["side"] for ev in reversed(e.get("events", [])) if ev.get("type") == "phase" and ev.get("side")), active)
    return [(ev["path"][0], ev["path"][-1], ev["units"]) for e in log[last + 1:] for ev in e.get("events", [])
            if ev.get("type") == "move" and len(ev.get("path") or []) > 1 and ev.get("units")]


def command(page: Any, game_id: str, cmd: dict[str, Any], *watching: Any) -> None:
    """Send a command from `page`; return once `page` and every page `watching` show the game after it."""
    version = api_command(page, game_id, cmd)["body"]["version"]
    for p in (page, *watching):
        wait_view(p, f"v.version >= {version}", timeout=30000)


def watched_game(open_page: Any, errors: list[str], base: str, names: tuple[str, str, str],
                 scenario: str) -> tuple[str, tuple[Any, Any, Any]]:
    """A game of `scenario` on three new pages named `names`: the first creates it as blue, the second joins as red,
    the third watches it by the watch link; the first is back on the game, live. The game's id and the pages."""
    blue, red, watcher = (open_page(errors, name) for name in names)
    game_id = seated_game(blue, red, base, names[:2], scenario)
    games = blue.evaluate("() => fetch('/api/games').then(r => r.json())")
    watch = next(g["watch_token"] for g in games["mine"] if g["id"] == game_id)
    register(watcher, base, names[2])
    watcher.goto(f"{base}/games/{game_id}?watch={watch}")
    wait_view(watcher, "v.viewer === 'spectator'")
    blue.goto(f"{base}/games/{game_id}")
    wait_view(blue, "v.viewer === 'blue' && v.awaiting === 'blue'")
    blue.locator("#conn[data-state=open]").wait_for()
    return game_id, (blue, red, watcher)


def end_phase_by_button(page: Any) -> None:
    """The player's decision by the page's own button: End phase, confirmed if the page asks (units could act)."""
    version = view(page)["version"]
    page.locator("#end-phase").click()
    page.wait_for_function(f"() => !!document.querySelector('dialog[open]') || window.vedette.S.view.version > {version}")
    dialog = page.locator("dialog[open] [data-confirm=ok]")
    if dialog.count():
        dialog.first.click()


def answer_prompts(pages: dict[str, Any], driver: Any) -> None:
    """Answer every pending decision (defenders, retreat, advance...) with its first choice, whoever makes it."""
    for _ in range(10):
        v = view(driver)
        p = v.get("prompt")
        if not p or p.get("kind") == "phase" or not p.get("options"):
            return
        command(pages[p["side"]], v["game"]["id"], {"type": "choose", "option": p["options"][0]["id"]}, driver)


def test_a_seats_move_and_attack_leave_a_trail_for_the_other_seat_and_a_spectator_until_its_next_decision(
        open_page: Any, live_server: Any, artifacts: Path) -> None:
    errors: list[str] = []
    game_id, (alice, bob, carol) = watched_game(open_page, errors, live_server.url,
                                                ("trailalice", "trailbob", "trailcarol"), "tutorial")
    if view(alice)["phase"] == "setup":
        command(alice, game_id, {"type": "end_phase"})

    # blue moves its 1st Brigade next to the enemy and attacks with it (the tests' seed makes the attacker retreat)
    origin = view(alice)["units"]["b-1"]["hex"]
    alice.locator("[data-unit='b-1']").first.click()
    alice.locator(".reach").first.wait_for()
    dest = reachable_next_to_enemy(alice)
    click_hex(alice, dest)
    wait_view(alice, f"v.units['b-1'].hex === '{dest}'")
    drawn(bob, origin, dest)
    drawn(carol, origin, dest)
    assert trail_paths(alice) == [], "a player's own moves are no trail"
    command(alice, game_id, {"type": "end_phase"})
    wait_view(alice, "v.phase === 'combat' && v.active === 'blue'")
    alice.locator("[data-unit='b-1']").first.click()
    alice.locator(".attack-target").first.wait_for()
    target = alice.evaluate("() => window.vedette.S.options.attacks[0].target")
    command(alice, game_id, {"type": "attack", "target": target, "attackers": ["b-1"], "primary": "b-1"})
    answer_prompts({"blue": alice, "red": bob}, alice)
    version = view(alice)["version"]
    wait_view(bob, f"v.version === {version}")
    wait_view(carol, f"v.version === {version}")

    # red's page: the move from its origin hex to its destination, the attacked hex, the retreat; and in words
    log = view_log(bob)
    retreats = [(ev["path"][0], ev["path"][-1]) for e in log for ev in e.get("events", []) if ev.get("type") == "retreat"]
    assert retreats, "the seeded dice no longer make the attacker retreat"
    bob.wait_for_function(f"() => document.querySelectorAll('#map-host .layer-trail .trail-target[data-hex=\"{target}\"]').length === 1")
    for page in (bob, carol):
        paths = trail_paths(page)
        move = [p for p in paths if p["kind"] == "move"]
        assert [(p["from"], p["to"]) for p in move] == [(origin, dest)] and "b-1" in move[0]["units"], paths
        assert all(p["starts"] and p["ends"] for p in paths), paths
        assert sorted((p["from"], p["to"]) for p in paths if p["kind"] == "retreat") == sorted(retreats), paths
        assert trail_targets(page) == [target]
        words = summary(page)
        assert "what just happened" in words.lower(), words
        assert f"moved {origin}→{dest}" in words and f"attacked {target}" in words and "retreated" in words, words
        assert "1st Brigade" in words or "b-1" not in words, words  # the unit by its name
    bob.screenshot(path=str(artifacts / "trail-second-seat.png"))
    bob.evaluate("(hexes) => window.vedette.map.focusOn(hexes, {counterPx: 90})", [origin, dest, target])
    bob.locator("#map-host").screenshot(path=str(artifacts / "trail-second-seat-close.png"))
    bob.evaluate("() => window.vedette.map.resetView()")
    carol.screenshot(path=str(artifacts / "trail-spectator.png"))

    # blue ends its turn; red's next decision (its own move phase's end) takes blue's trail off red's page
    command(alice, game_id, {"type": "end_phase"}, bob)
    wait_view(bob, "v.awaiting === 'red' && v.active === 'red' && v.phase === 'movement'")
    bob.locator("#conn[data-state=open]").wait_for()
    assert [p for p in trail_paths(bob) if p["kind"] == "move"], "the trail went before red decided anything"
    before = view(bob)["version"]
    end_phase_by_button(bob)
    wait_view(bob, f"v.version > {before}")
    bob.wait_for_function("() => !document.querySelector('#map-host .layer-trail .trail-path, #map-host .layer-trail .trail-target')")
    assert summary(bob) == ""
    bob.screenshot(path=str(artifacts / "trail-cleared-by-decision.png"))

    # the spectator still sees blue's turn (the player-turn before red's); "Clear" takes it off
    assert [p for p in trail_paths(carol) if p["kind"] == "move"]
    carol.locator("#trail-clear").click()
    carol.wait_for_function("() => !document.querySelector('#map-host .layer-trail .trail-path')")
    assert summary(carol) == ""
    assert not errors, errors


def test_the_computers_moves_leave_a_trail_until_the_players_next_decision(
        open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    page = open_page(errors, "solo-trail")
    game_id = computer_game(page, base, "trailsolo", opponent="greedy")
    wait_view(page, "v.viewer === 'blue' && v.game.status === 'active' && v.seats.red === 'computer-greedy'")
    page.locator("#conn[data-state=open]").wait_for()

    moves: list[tuple[str, str, list[str]]] = []
    for _ in range(12):  # blue ends its phases (and answers the computer's attacks) until the computer has moved
        wait_view(page, "v.phase === 'over' || v.awaiting === 'blue'", timeout=60000)
        v = view(page)
        assert v["phase"] != "over"
        options = (v.get("prompt") or {}).get("options")
        moves = moves_since(view_log(page), "blue")
        if moves and v["active"] == "blue" and not options:
            break  # blue's own turn again, with the computer's moves since blue's last one
        command(page, game_id, {"type": "choose", "option": options[0]["id"]} if options else {"type": "end_phase"})
    assert moves, "the computer never moved"

    for origin, dest, _ in moves:
        drawn(page, origin, dest)
    paths = [p for p in trail_paths(page) if p["kind"] == "move"]
    assert sorted((p["from"], p["to"]) for p in paths) == sorted((o, d) for o, d, _ in moves), paths
    assert all(p["starts"] and p["ends"] for p in paths), paths
    words = summary(page)
    names = page.evaluate("(ids) => ids.map((u) => window.vedette.S.scenario.units.find((x) => x.id === u).name)",
                          moves[-1][2])
    assert f"{moves[-1][0]}→{moves[-1][1]}" in words and all(n in words for n in names), words
    assert "since your last move" in words, words
    page.screenshot(path=str(artifacts / "trail-computer.png"))

    # the player's next decision, by the page's own button, takes the computer's trail away
    version = view(page)["version"]
    page.wait_for_function("() => !document.querySelector('#end-phase').disabled")
    end_phase_by_button(page)
    wait_view(page, f"v.version > {version}", timeout=30000)
    page.wait_for_function("() => !document.querySelector('#map-host .layer-trail .trail-path')")
    assert summary(page) == "" and trail_targets(page) == []
    page.screenshot(path=str(artifacts / "trail-computer-after-decision.png"))
    assert not errors, errors


# --- 19.8 hidden movement: a marker's route is never drawn for the opponent or a spectator -------------------------
@pytest.fixture(scope="module")
def hidden_server() -> Iterator[Any]:
    """test_hidden_ui's crafted battle (tests/rules/standard/hidden_ground.py), on a server of this module's own."""
    with serving({"hidden-ui.json": crafted()}, prefix="vedette-trail-") as srv:
        yield srv


def test_19_8_the_opponent_sees_the_owners_unit_moves_but_never_a_hidden_markers_route(
        open_page: Any, hidden_server: Any, artifacts: Path) -> None:
    errors: list[str] = []
    _, (blue, red, watcher) = watched_game(open_page, errors, hidden_server.url,
                                           ("trailhmblue", "trailhmred", "trailhmwatch"), "hidden-ui")
    wait_view(blue, "v.game.status === 'active' && v.phase === 'movement' && !!v.hidden")
    wait_view(red, "v.game.status === 'active' && !!v.hidden")

    # the owner moves the marker HM-B2 by clicks, then its visible brigade b-1
    click_hex(blue, "0307")
    blue.wait_for_function("() => window.vedette.S.hmSel === 'HM-B2' && !!window.vedette.S.hmReach")
    marker_to = blue.evaluate("() => Object.keys(window.vedette.S.hmReach).find((h) => h !== '0307')")
    click_hex(blue, marker_to)
    wait_view(red, f"v.hidden.markers.some((m) => m.id === 'HM-B2' && m.hex === '{marker_to}')")
    click_hex(blue, "0101")
    blue.wait_for_function("() => window.vedette.S.selHex === '0101' && !!window.vedette.S.options && "
                           "window.vedette.S.optionsKey === window.vedette.S.optionsFor && window.vedette.S.options.reach.size > 0")
    unit_to = blue.evaluate("() => [...window.vedette.S.options.reach.keys()].find((h) => h !== '0101')")
    click_hex(blue, unit_to)
    wait_view(blue, f"v.units['b-1'].hex === '{unit_to}'")

    for page in (red, watcher):
        drawn(page, "0101", unit_to)  # the Standard edition draws a visible unit's move like any other
        # the marker's move is in this viewer's log (the event is public, both markers alike)...
        hm = [ev for e in view_log(page) for ev in e.get("events", []) if ev.get("type") == "hm_move"]
        assert hm and hm[0]["path"][0] == "0307" and hm[0]["path"][-1] == marker_to
        # ...but no arrow, outline or word of the trail traces its route
        paths = trail_paths(page)
        assert [(p["from"], p["to"]) for p in paths] == [("0101", unit_to)], paths
        assert all(p["starts"] and p["ends"] for p in paths)
        trail_svg = page.evaluate("() => document.querySelector('#map-host .layer-trail').outerHTML")
        assert "HM-" not in trail_svg and "0307" not in trail_svg and f'"{marker_to}"' not in trail_svg, trail_svg
        assert f"0101→{unit_to}" in summary(page)
        assert f"0307→{marker_to}" not in summary(page)
    red.screenshot(path=str(artifacts / "trail-hidden-opponent.png"))
    watcher.screenshot(path=str(artifacts / "trail-hidden-spectator.png"))
    assert trail_paths(blue) == []  # the owner's own moves are no trail of its own
    assert not errors, errors
