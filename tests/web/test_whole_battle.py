"""Whole battles through the page alone: the contract between the engine and the client.

For each shipped scenario file two players register, create and join a game in the lobby, and then play
it from set-up to game over. At every step the test asks the rules core (reading the authoritative state
the server stored, as the server itself would) for the legal commands of the side to act, picks one at
random (seeded), performs it on that player's page with clicks and keys only — moves, reinforcement
entries and edge slides, combined attacks with supporting artillery and leaders, bombardments, charge
moves and charges, squares, step recovery, placements, every prompt, end of phase, undo — and checks that
the server logged exactly that command. It never posts to the API itself.

A screenshot per phase of each game goes to tests/artifacts/whole-<scenario>/.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from stored_game import stored_game
from web_helpers import choose_option, hex_point, register

from server.rules import Game
from server.rules.kernel import hidden as kh
from server.rules.kernel.randomplayer import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
# Quick Play's scenarios/*.json and each edition folder's (scenarios/standard/*.json), as the service offers them
SCENARIOS = sorted(p.stem for p in (ROOT / "scenarios").glob("*.json")) + sorted(
    p.stem for p in (ROOT / "scenarios").glob("*/*.json"))
# a game option a scenario offers, ticked in the lobby: "scenario+option" (17.3: the free set-up)
VARIANTS = ["standard-1866+free_setup"]

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.whole_battle]

# Every command family of docs/commands.md; the test fails on a family it has no page action for.
FAMILIES = {"end_phase", "place", "move", "form_square", "remove_square", "recover", "attack", "bombard",
            "charge", "choose", "undo",
            "roll_ma",  # Quick Play 2013's 11.1(2): the button under Selected in … before a disrupted unit moves
            # the Standard rules (docs/engine-contract.md); the set-up's shortcut (17.2)
            "place_printed",
            "flip", "declare", "stay", "replace", "muster", "reenter", "square",
            "open_order",  # 19.10 (S52): a button among the phase's actions, like a flip
            "line", "line_fire",  # 19.7: buttons under Selected in … (form facing an apex, pivot, leave; fire)
            "hm_move", "hm_declare", "hm_reveal",  # 19.8: the markers on the map and the Hidden movement box
            "hm_box", "hm_markers",  # 19.8 B: the Set-up box's hidden movement boxes
            # Horse and Musket (R16.19): the selected unit's or general's buttons, the step box's buttons
            "end_step", "rally", "play_card", "general", "fire",
            # Musket & Pike (R17.95): the segment box's End segment, a move's destination then its facing on the map,
            # Face without moving, a target clicked for Fire/Salvo or a close combat, the selected unit's buttons
            "end_segment", "face", "reform", "formation", "close_combat"}
HM_UNIT_COMMANDS = {"rally": "general", "general": "general", "fire": "unit", "move": "unit", "charge": "unit"}
STD_ACTIONS = {"flip", "recover", "replace", "muster", "open_order"}
# a kind of command held back while a kind it would take away is offered and not yet performed: a reveal ends the
# markers' moves (19.8), the printed set-up leaves nothing to place by hand (17.2), leaving line ends its pivots (19.7)
LATER = {"hm_reveal": {"hm_move", "hm_move:declared", "hm_declare"}, "place_printed": {"place", "hm_box"},
         "line:leave": {"line:pivot"}}
# A battle's choices seeded otherwise: with the web tests' fixed dice (liveserver.WEB_TEST_SEED and the pinned
# contributions) this seed's game offers every kind of Horse and Musket command (HM_KINDS) and is played to the end in
# 138 commands; the scenario's own seed ended without a unit ever eligible to rally (2.1: out of every enemy weapon's
# reach), which a game against a 15-hex battery often is. Checked by playing the test's policy on the rules core alone.
SALT = {"hm-hochdorf": "#1"}
# every kind of command the engine offers in Horse and Musket (variety()): the whole battle must give each by clicks
HM_KINDS = {"rally", "play_card:aide_de_camp", "play_card:steady_lads", "charge", "charge:cold_steel",
            "charge:forced_march", "move", "move:formation", "move:forced_march", "general", "fire", "fire:volley",
            "choose:charge_reaction", "end_step", "undo"}
UNDO_CHANCE = 0.03
# How often a step with nothing new to try ends the phase instead: the battles within `make test`'s 20 minutes. A big
# battle (Königgrätz: 296 counters, 17.4's arrivals a command each) ends its phases sooner; its page flows are the
# smaller battles' and are all tried before (`fresh` below comes first). A Musket & Pike battle (8 turns of up to four
# activations of three segments each) ends its segments sooner too: a family never performed is preferred first.
END_PHASE_CHANCE = {"*": 0.4, "horse-and-musket": 0.2, "musket-and-pike": 0.6}  # (H&M's SALT was checked at 0.2)
END_PHASE_CHANCE_BIG = 0.85
BIG_BATTLE_UNITS = 150
LIST_FIELDS = ("units", "attackers", "leaders", "support", "artillery", "chargers")


class Oracle:
    """The server's stored game, read from its database file and rebuilt with the rules core."""

    def __init__(self, db_path: str, game_id: str) -> None:
        self.db_path = db_path
        self.game_id = game_id
        self._scenario: Any = None

    def _conn(self) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)

    def version(self) -> int:
        with self._conn() as c:
            row = c.execute("SELECT version FROM games WHERE id = ?", (self.game_id,)).fetchone()
        return int(row[0])

    def game(self) -> Game:
        with self._conn() as c:
            game = stored_game(c, self.game_id, self._scenario)
        self._scenario = game.scenario
        return game

    def last_command(self) -> tuple[str, dict[str, Any]]:
        with self._conn() as c:
            side, cmd = c.execute(
                "SELECT side, command FROM game_commands WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (self.game_id,)
            ).fetchone()
        return side, json.loads(cmd)


def variety(game: Game, cmd: dict[str, Any]) -> str:
    """The page action a command needs: a family of docs/commands.md, split where the page differs."""
    t = cmd["type"]
    st = game.state
    if st.ruleset == "horse-and-musket":
        # R16.10: a command with a card is its own page flow (the card's button); a decision by its kind (R16.13)
        if t == "choose" and st.decision:
            return f"choose:{st.decision['kind']}"
        if t == "play_card" or cmd.get("card"):
            return f"{t}:{cmd['card']}"
        if t == "move" and cmd.get("formation"):
            return "move:formation"
        return str(t)
    if st.ruleset == "musket-and-pike":
        # R17.95: a decision by its kind; a leader's ride (no facing), a Salvo, a close combat with pistols or several
        if t == "choose" and st.decision:
            return f"choose:{st.decision['kind']}"
        if t == "move":
            return "move:leader" if "facing" not in cmd else "move"
        if t == "fire" and cmd.get("salvo"):
            return "fire:salvo"
        if t == "formation":
            return f"formation:{cmd['mode']}"
        if t == "close_combat":
            return ":".join(["close_combat", *(["several"] if len(cmd["attackers"]) > 1 else []),
                             *(["pistols"] if cmd.get("pistols") else [])])
        return str(t)
    if t == "move" and game.state.ruleset == "standard":
        first = st.units[cmd["units"][0]]
        if cmd.get("assist"):
            return "move:assist"
        if first.status != "map":
            return "move:enter"
        if cmd.get("off_map"):
            return "move:off-map"
        if st.extra.get("declared"):
            return "move:declared"
        return "move:march" if cmd.get("march") else "move:stack" if len(cmd["units"]) > 1 else "move"
    if t == "declare":
        return "declare:march" if cmd.get("march") else "declare:assist" if cmd.get("assist") else "declare"
    if t == "choose" and game.state.ruleset in ("standard", "quickplay-2013") and st.decision:
        return f"choose:{st.decision['kind']}"  # which decisions the battle answered on the page
    if t == "square":
        return "square:remove" if cmd.get("form") is False else "square"
    if t == "place":
        return "place:again" if st.units[cmd["unit"]].hex else "place"  # 17.2: a placed counter moved
    if t == "open_order":
        return "open_order:remove" if cmd.get("on") is False else "open_order"
    if t == "line":  # 19.7: form facing an apex, pivot, leave
        return "line:leave" if cmd.get("on") is False else "line:pivot" if st.units[cmd["unit"]].facing else "line"
    if t == "hm_move":  # 19.8 C: a marker's move; a declared marker's move or stay
        declared = st.extra.get("hm_declared")
        return "hm_move:stay" if len(cmd["path"]) < 2 else "hm_move:declared" if declared else "hm_move"
    if t == "flip":
        kind = game.scenario.units[cmd["unit"]].kind.value
        return "flip:army" if kind in ("hq", "trains") else "flip"
    if t == "move":
        first = st.units[cmd["units"][0]]
        if first.status != "map":
            return "move:enter-slide" if cmd["path"][0] != first.entry_hex else "move:enter"
        if "charge" in cmd:
            return "move:charge"
        dest = cmd["path"][-1]
        side = game.scenario.units[cmd["units"][0]].side
        if any(u.hex == dest and u.status == "map" and game.scenario.units[uid].side == side
               for uid, u in st.units.items() if uid not in cmd["units"]):
            return "move:onto-friends"
        return "move:stack" if len(cmd["units"]) > 1 else "move"
    if t == "attack":
        hexes = {st.units[u].hex for u in cmd["attackers"]}
        parts = ["attack"]
        if len(hexes) > 1:
            parts.append("combined")
        if cmd.get("support"):
            parts.append("support")
        if cmd.get("leaders"):
            parts.append("leader")
        if cmd.get("coordinator"):
            parts.append("coordinated")
        if cmd.get("tactic") and cmd["tactic"] != "none":
            parts.append(str(cmd["tactic"]))
        return ":".join(parts)
    if t == "bombard":
        return "bombard:combined" if len(cmd["artillery"]) > 1 else "bombard"
    if t == "charge" and game.state.ruleset == "standard":
        kinds = {game.scenario.units[u].kind.value for u in cmd["units"]}
        arm = "cavalry" if kinds & {"cavalry", "squadron"} else "infantry"
        return f"charge:{arm}-leader" if "leader" in kinds else f"charge:{arm}"
    if t == "charge" and cmd.get("leaders"):
        return "charge:leader"
    if t == "recover" and cmd.get("assist"):
        return "recover:assist"
    if t == "recover" and cmd.get("leader"):
        return "recover:leader"
    return str(t)


def choose_command(game: Game, side: str, player: RandomPlayer, rng: random.Random, done: set[str],
                   offered: set[str]) -> dict[str, Any]:
    """The random player's pick, but now and then a legal command of a kind not yet performed, so that
    every page action the battle offers is tried (seeded: the same game every run)."""
    everything = list(game.legal_commands(side, rng, limit=200))
    # H2: the step's own end; R17.25: the segment's
    ender = {"horse-and-musket": "end_step", "musket-and-pike": "end_segment"}.get(game.state.ruleset, "end_phase")
    can_end = any(c["type"] == ender for c in everything)
    legal = [c for c in everything if c["type"] != ender]
    kinds = [variety(game, c) for c in legal]
    offered.update(kinds)
    wanted = {k for k in kinds if k not in done}
    later = [c for c, k in zip(legal, kinds) if LATER.get(k, set()) & wanted]
    if later and len(later) < len(legal):
        legal = [c for c in legal if c not in later]
    fresh: dict[str, list[dict[str, Any]]] = {}
    for c in legal:
        k = variety(game, c)
        if k not in done:
            fresh.setdefault(k, []).append(c)
    # a family never performed first (a battle is short, the Standard rules offer many kinds of attack, and a 2013
    # tutorial may end in a few turns)
    new_family = {k: v for k, v in fresh.items() if k.split(":")[0] not in {d.split(":")[0] for d in done}}
    if new_family and game.state.ruleset in ("standard", "quickplay-2013", "musket-and-pike") and rng.random() < 0.9:
        return rng.choice(new_family[rng.choice(sorted(new_family))])
    if fresh and game.state.ruleset == "standard" and rng.random() < 0.4:
        # the richest page flows first now and then: an attack combined, with leaders, a coordinator and a tactic
        most = max(k.count(":") for k in fresh)
        if most >= 2:
            return rng.choice(fresh[rng.choice(sorted(k for k in fresh if k.count(":") == most))])
    if fresh and (game.state.ruleset == "horse-and-musket" or rng.random() < 0.7):
        # (Horse and Musket: every kind offered is performed when first offered: the test asserts it, R16.19)
        return rng.choice(fresh[rng.choice(sorted(fresh))])
    carded = [c for c in legal if c.get("card")]
    if carded and game.state.ruleset == "horse-and-musket" and rng.random() < 0.6:
        # R16.10: play the cards held, so that the hand (at most 3) keeps drawing and every card comes to be offered
        return rng.choice(carded)
    end_chance = (END_PHASE_CHANCE_BIG if len(game.scenario.units) > BIG_BATTLE_UNITS
                  else END_PHASE_CHANCE.get(game.state.ruleset, END_PHASE_CHANCE["*"]))
    if can_end and not (new_family and game.state.phase == "setup") and rng.random() < end_chance:
        # (a set-up is played once: its page actions, 17.2's and 19.8 B's, are all tried before it ends)
        return {"type": ender}  # keeps a whole battle within the test budget (`make test` < 20 min)
    moves = [c for c in legal if c["type"] == "move"]
    if moves and rng.random() < 0.5:
        # march toward the enemy now and then: random players rarely fight, and a battle's combat
        # commands are the ones the page most needs to prove
        grid = game.scenario.grid
        enemy = [u.hex for uid, u in game.state.units.items()
                 if u.hex and u.status == "map" and game.scenario.units[uid].side != side]
        if enemy:
            def gap(c: dict[str, Any]) -> int:
                # a Horse and Musket move is legs, not a path: the referee's preview says where it ends (H4)
                dest = c["path"][-1] if "path" in c else game.ruleset.preview(game, side, c)["hex"]
                return min(grid.distance(dest, e) for e in enemy)
            best = min(gap(c) for c in moves)
            return rng.choice([c for c in moves if gap(c) == best])
    chosen = player.choose(game, side)
    return {"type": ender} if chosen["type"] == "end_phase" else chosen  # the random player's end is the edition's


def normal(cmd: dict[str, Any]) -> dict[str, Any]:
    """A command as the rules core reads it: empty optional lists dropped, unit lists as sets."""
    out: dict[str, Any] = {}
    for k, v in cmd.items():
        if isinstance(v, list) and not v and k != "path":
            continue
        out[k] = sorted(v) if k in LIST_FIELDS and isinstance(v, list) else v
    return out


# ------------------------------------------------------------------ page actions


def js(page: Any, expr: str, arg: Any = None) -> Any:
    return page.evaluate(expr, arg)


def wait_synced(page: Any, version: int) -> None:
    """The page shows the stored version and has nothing in flight."""
    page.wait_for_function(
        "(v) => { const S = window.vedette && window.vedette.S; return !!S && S.version >= v && S.pending.size === 0; }",
        arg=version, timeout=20000)


def wait_options(page: Any) -> None:
    page.wait_for_function(
        "() => { const S = window.vedette.S; return !!S.options && S.optionsKey === S.optionsFor && S.optionsKey !== ''; }",
        timeout=15000)


def blur(page: Any) -> None:
    js(page, "() => { if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur(); }")


def click_hex(page: Any, hex_id: str, shift: bool = False) -> None:
    """Bring the hex into view (the player pans there) and click its centre."""
    x, y = hex_point(page, hex_id)
    inside = js(page, """([x, y]) => {
        const r = document.querySelector('#map-host').getBoundingClientRect();
        return x > r.left + 70 && x < r.right - 40 && y > r.top + 40 && y < r.bottom - 40;
    }""", [x, y])
    if not inside:  # pan only when the hex is off screen: repainting a large map is the slow part
        js(page, "(h) => window.vedette.map.centerOn(h)", hex_id)
        x, y = hex_point(page, hex_id)
    if shift:
        page.keyboard.down("Shift")
    try:
        page.mouse.click(x, y)
    finally:
        if shift:
            page.keyboard.up("Shift")


def click_matching(page: Any, selector: str, attr: str, value: Any) -> None:
    """Click the element of `selector` whose data attribute (JSON or text) equals `value`."""
    idx = js(page, """([sel, attr, want]) => {
        const els = [...document.querySelectorAll(sel)];
        const canon = (x) => JSON.stringify(x, (k, v) => (v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
        return els.findIndex((e) => {
            const raw = e.getAttribute(attr);
            if (raw === null) return false;
            if (typeof want === 'string') return raw === want;
            try { return canon(JSON.parse(raw)) === canon(want); } catch (_) { return false; }
        });
    }""", [selector, attr, value])
    assert idx is not None and idx >= 0, f"no {selector} with {attr}={value!r} on the page"
    page.locator(selector).nth(idx).click()


def selected(page: Any) -> list[str]:
    return list(js(page, "() => [...window.vedette.S.selected]"))


def set_selection(page: Any, units: list[str]) -> None:
    """Toggle the selection panel's unit buttons until exactly `units` are included."""
    want = set(units)
    for _ in range(12):
        have = set(selected(page))
        if have == want:
            return
        extra = sorted(have - want)
        missing = sorted(want - have)
        u = missing[0] if missing else extra[0]
        page.locator(f"#sec-selection .sel-unit[data-unit='{u}'], #off-units .off-unit[data-unit='{u}']").first.click()
    raise AssertionError(f"could not select exactly {sorted(want)} (have {sorted(selected(page))})")


def select_stack(page: Any, hex_id: str, units: list[str] | None = None) -> None:
    """Click a hex of mine (its units that can still act are selected), then keep exactly `units`."""
    blur(page)
    page.keyboard.press("Escape")
    click_hex(page, hex_id)
    page.wait_for_function("(h) => window.vedette.S.selHex === h", arg=hex_id, timeout=10000)
    if units is not None:
        set_selection(page, units)
    wait_options(page)


def wait_phase_options(page: Any) -> None:
    """The Standard movement phase's own options (flip, recover, replace, muster, re-enter) are on the page."""
    page.wait_for_function(
        "() => { const S = window.vedette.S; return !!S.phaseOptions && !!S.phaseOptions.raw && S.phaseOptions.key === String(S.version); }",
        timeout=15000)


def select_units(page: Any, game: Game, units: list[str]) -> None:
    """Select exactly `units`: a stack on the map (click its hex), or units waiting off the map (their box)."""
    first = game.state.units[units[0]]
    if first.status != "map":
        blur(page)
        page.keyboard.press("Escape")
        page.locator(f"#off-units .off-unit[data-unit='{units[0]}']").click()
        page.wait_for_function("(u) => window.vedette.S.selected[0] === u && !!window.vedette.S.offSel", arg=units[0])
        set_selection(page, units)
        wait_options(page)
    else:
        select_stack(page, unit_hex(game, units[0]), units)


def select_marker(page: Any, game: Game, mid: str) -> None:
    """19.8: click my hidden movement marker's hex; its reach is shaded once the referee answers."""
    blur(page)
    page.keyboard.press("Escape")
    hx = kh.markers(game.state)[mid]["hex"]
    click_hex(page, hx)
    page.wait_for_function("(m) => window.vedette.S.hmSel === m && !!window.vedette.S.hmReach", arg=mid, timeout=10000)


def press(page: Any, key: str, until: str) -> None:
    blur(page)
    page.keyboard.press(key)
    page.wait_for_function(until, timeout=10000)


def unit_hex(game: Game, uid: str) -> str:
    h = game.state.units[uid].hex
    assert h is not None, f"{uid} is not on the map"
    return h


HM_CLICKS = {"map": 0, "button": 0}  # how Horse and Musket's unit commands were given (a map click or a button)


def _canon(c: dict[str, Any]) -> str:
    return json.dumps(c, sort_keys=True)


def hm_click_command(cmds: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What a click on a shaded hex meaning `cmds` sends at once (web/js/editions/horse-and-musket/index.js,
    clickCommand): the only command, else the one plain move (no pivot, formation, deployment or card) unless the unit
    may also turn to face the hex; None: the list under Selected narrows to them."""
    if len(cmds) == 1:
        return cmds[0]
    if any(c["type"] == "move" and len(c.get("legs") or []) == 1 and c["legs"][0].get("pivot")
           and not c["legs"][0].get("steps") and not c.get("formation") for c in cmds):
        return None
    plain = [c for c in cmds if c["type"] == "move" and not c.get("card") and not c.get("formation")
             and not c.get("deploy_facing") and all(not leg.get("pivot") and not leg.get("end_pivot")
                                                    for leg in c.get("legs") or [])]
    return plain[0] if len(plain) == 1 else None


def perform(page: Any, game: Game, cmd: dict[str, Any]) -> None:
    """Give `cmd` on the page, as a player would."""
    t = cmd["type"]
    assert t in FAMILIES, f"no page action for the command family {t!r}"
    if game.state.ruleset == "horse-and-musket" and t in ("end_step", "play_card"):
        # R16.10, R16.19: the step box's buttons (End step, Aide-de-camp, Steady Lads)
        blur(page)
        page.keyboard.press("Escape")
        wait_phase_options(page)
        click_matching(page, "#sec-phase .hm-action", "data-command", cmd)
        return
    if game.state.ruleset == "horse-and-musket" and t in HM_UNIT_COMMANDS:
        # R16.19: select the unit's (or general's) hex, keep it alone; then a click on the hex the command means (where
        # a move ends, the hex a turn faces, the target, the ride's end, the rallied unit), and where that hex means
        # several commands, the button among the ways listed; a command whose hex gives another at once (the plain
        # move there): its button under Selected in …
        who = cmd[HM_UNIT_COMMANDS[t]]
        select_stack(page, unit_hex(game, who))
        if selected(page) != [who]:
            set_selection(page, [who])
            wait_options(page)
        at = js(page, """(want) => {
            const canon = (x) => JSON.stringify(x, (k, v) => (v && typeof v === 'object' && !Array.isArray(v)
                ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
            for (const [hx, r] of window.vedette.S.options.reach) {
                if (r.hm && r.hm.some((i) => canon(i.command) === canon(want))) return [hx, r.hm.map((i) => i.command)];
            }
            return null;
        }""", cmd)
        if at is not None:
            hx, there = at
            auto = hm_click_command(there)
            if auto is None or _canon(auto) == _canon(cmd):
                click_hex(page, hx)
                if auto is None:
                    page.wait_for_function("(h) => window.vedette.S.hmAt === h", arg=hx, timeout=10000)
                    click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)
                HM_CLICKS["map"] += 1
                return
        click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)
        HM_CLICKS["button"] += 1
        return
    if game.state.ruleset == "musket-and-pike" and t != "choose" and t != "undo":
        perform_mp(page, game, cmd)
        return
    if t == "choose":
        # a button, or a decision answered on the map: its outlined hex (then its path's button, issue 39)
        choose_option(page, str(cmd["option"]), click_hex)
    elif t == "end_phase":
        blur(page)
        page.keyboard.press("e")
        # either the command is on its way, or the page asks to confirm ending with units unmoved
        page.wait_for_function("(v) => { const S = window.vedette.S; return S.pending.size > 0 || S.version > v || !!document.querySelector('dialog.confirm[open]'); }",
                               arg=game.version)
        if js(page, "() => !!document.querySelector('dialog.confirm[open]')"):
            page.locator("dialog.confirm [data-confirm=ok]").click()
    elif t == "place":
        page.locator(f"#setup-units .off-unit[data-unit='{cmd['unit']}']").click()
        page.wait_for_function("(u) => window.vedette.S.selected.join() === u", arg=cmd["unit"])
        wait_options(page)
        click_hex(page, cmd["hex"])
    elif t == "place_printed":
        page.locator("#setup-printed:not([disabled])").click()
    elif t == "move" and game.state.ruleset == "standard" and cmd.get("assist"):
        # 10.3: the leader's movement assist (A, once per leader until it is the one), the path plotted hex by hex
        select_units(page, game, list(cmd["units"]))
        for _ in range(4):
            if js(page, "() => window.vedette.S.assist") == cmd["assist"]:
                break
            blur(page)
            page.keyboard.press("a")
        assert js(page, "() => window.vedette.S.assist") == cmd["assist"], "the leader's assist is not offered"
        for hx in cmd["path"][1:]:
            click_hex(page, hx)
            page.wait_for_function("(h) => { const p = window.vedette.S.plot; return !!p && p[p.length - 1] === h; }", arg=hx)
        blur(page)
        page.keyboard.press("Enter")
    elif t == "move" and game.state.ruleset == "standard":
        units = list(cmd["units"])
        select_units(page, game, units)
        if cmd.get("march"):
            press(page, "m", "() => window.vedette.S.options && window.vedette.S.options.mode === 'march'")
        if cmd.get("off_map"):
            press(page, "o", "() => window.vedette.S.offMap === true")
        click_hex(page, cmd["path"][-1])
    elif t == "declare":
        select_units(page, game, list(cmd["units"]))
        if cmd.get("march"):
            press(page, "m", "() => window.vedette.S.options && window.vedette.S.options.mode === 'march'")
        if cmd.get("assist"):
            for _ in range(4):
                if js(page, "() => window.vedette.S.assist") == cmd["assist"]:
                    break
                blur(page)
                page.keyboard.press("a")
        page.wait_for_function("() => !!document.querySelector('#std-declare')")
        blur(page)
        page.keyboard.press("d")
    elif t == "stay":
        blur(page)
        page.keyboard.press("s")
    elif t in STD_ACTIONS and game.state.ruleset == "standard":
        blur(page)
        page.keyboard.press("Escape")
        wait_phase_options(page)
        click_matching(page, "#std-actions .std-action", "data-command", cmd)
    elif t == "reenter":
        blur(page)
        page.keyboard.press("Escape")
        wait_phase_options(page)
        page.locator(f"#std-actions .std-reenter[data-unit='{cmd['unit']}']").click()
        page.wait_for_function("(u) => window.vedette.S.selected[0] === u && !!window.vedette.S.offSel", arg=cmd["unit"])
        wait_options(page)
        click_hex(page, cmd["hex"])
    elif t == "move":
        units = list(cmd["units"])
        st = game.state.units[units[0]]
        if st.status != "map":
            # reinforcements (4.5) or returning units (11.4): from the holding box
            page.keyboard.press("Escape")
            page.locator(f"#off-units .off-unit[data-unit='{units[0]}']").click()
            page.wait_for_function("(u) => window.vedette.S.selected[0] === u && !!window.vedette.S.offSel", arg=units[0])
            set_selection(page, units)
            wait_options(page)
        else:
            select_stack(page, cmd["path"][0], units)
        if "charge" in cmd:
            blur(page)
            page.keyboard.press("c")
            page.wait_for_function("() => window.vedette.S.chargeMode === true")
            page.locator(f"#charge-targets .charge-target-btn[data-target='{cmd['charge']}'][data-path='{','.join(cmd['path'])}']").click()
        else:
            click_hex(page, cmd["path"][-1])
    elif t == "square":
        # 9.5: select the unit's hex; its Form square / Remove the square button under Selected in …
        select_stack(page, unit_hex(game, cmd["unit"]))
        if cmd["unit"] not in selected(page):
            set_selection(page, [*selected(page), cmd["unit"]])
            wait_options(page)
        click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)
    elif t in ("line", "line_fire"):
        # 19.7: select the unit; Form line facing … / Pivot … / Leave line / Long-range fire under Selected in …
        select_stack(page, unit_hex(game, cmd["unit"]))
        if cmd["unit"] not in selected(page):
            set_selection(page, [*selected(page), cmd["unit"]])
            wait_options(page)
        click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)
    elif t == "hm_move":
        # 19.8 C: click the marker (its "?" on the map), then a shaded hex; a declared marker's Stay button
        mid = cmd["marker"]
        if len(cmd["path"]) < 2:
            click_matching(page, "#sec-hidden .hm-stay", "data-marker", mid)
        else:
            select_marker(page, game, mid)
            click_hex(page, cmd["path"][-1])
    elif t == "hm_declare":
        click_matching(page, "#sec-hidden .hm-declare", "data-marker", cmd["marker"])
    elif t == "hm_box":
        # 19.8 B: Choose units of the box, tick exactly its new content, Put in box …
        box = cmd["box"]
        page.locator(f"#hm-setup .hm-units[data-box='{box}']").click()
        for cb in page.locator("#hm-setup input[type=checkbox][data-unit]").all():
            cb.set_checked(cb.get_attribute("data-unit") in cmd["units"])
        page.locator(f"#hm-setup .hm-units-send[data-box='{box}']").click()
    elif t == "hm_markers":
        # 19.8 B: Place markers, click the two shaded hexes, then Real marker at … (which one is the secret)
        box, hexes = cmd["box"], cmd["hexes"]
        page.locator(f"#hm-setup .hm-place[data-box='{box}']").click()
        page.locator("svg .hm-setup-hex").first.wait_for()
        click_hex(page, hexes[0])
        click_hex(page, hexes[1])
        page.locator(f"#hm-setup .hm-real[data-hex='{hexes[cmd['real'] - 1]}']").click()
    elif t == "hm_reveal":
        box = kh.markers(game.state)[cmd["marker"]]["box"]
        click_matching(page, "#sec-hidden .hm-reveal", "data-box", box)
    elif t in ("form_square", "remove_square"):
        select_stack(page, cmd["hex"])
        click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)
    elif t == "roll_ma":
        # 11.1(2) (2013): select the disrupted or ineffective units; their roll is a button under Selected in …
        select_units(page, game, list(cmd["units"]))
        click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)
    elif t == "recover":
        if cmd.get("leader"):
            page.locator(f"select.recover-leader[data-unit='{cmd['unit']}']").select_option(cmd["leader"])
        page.locator(f".recover-go[data-unit='{cmd['unit']}']").click()
    elif t == "attack":
        involved = list(cmd["attackers"]) + list(cmd.get("support", [])) + list(cmd.get("leaders", [])) + (
            [cmd["coordinator"]] if cmd.get("coordinator") else [])
        hexes: list[str] = []
        for u in involved:
            if unit_hex(game, u) not in hexes:
                hexes.append(unit_hex(game, u))
        select_stack(page, hexes[0])
        for hx in hexes[1:]:
            click_hex(page, hx, shift=True)
            page.wait_for_function("(h) => window.vedette.S.selHexes.includes(h)", arg=hx)
        wait_options(page)
        click_hex(page, cmd["target"])
        page.wait_for_function("(t) => !!window.vedette.S.builder && window.vedette.S.builder.target === t", arg=cmd["target"])
        roles = page.locator("#builder-units select.builder-role")
        for i in range(roles.count()):
            sel = roles.nth(i)
            u = sel.get_attribute("data-unit")
            want = "attack" if u in cmd["attackers"] else "support" if u in cmd.get("support", []) else "out"
            if sel.input_value() != want:
                sel.select_option(want)
                page.wait_for_function("() => !window.vedette.S.builder.loading")
        boxes = page.locator("#builder-units input.builder-leader")
        for i in range(boxes.count()):
            box = boxes.nth(i)
            want_on = box.get_attribute("data-unit") in cmd.get("leaders", [])
            if box.is_checked() != want_on:
                box.set_checked(want_on)
                page.wait_for_function("() => !window.vedette.S.builder.loading")
        if len(cmd["attackers"]) > 1:
            page.locator("#builder-primary").select_option(cmd["primary"])
        if game.state.ruleset == "standard":
            # 7.13: the announced tactic; 7.14: the coordinating leader
            tactic = cmd.get("tactic") or "none"
            if page.locator("#builder-tactic").input_value() != tactic:
                page.locator("#builder-tactic").select_option(tactic)
                page.wait_for_function("() => !window.vedette.S.builder.loading")
            want_coord = cmd.get("coordinator") or ""
            coord = page.locator("#builder-coordinator")
            if (want_coord or coord.count()) and coord.input_value() != want_coord:
                coord.select_option(want_coord)
                page.wait_for_function("() => !window.vedette.S.builder.loading")
            # the preview shows the announced tactic and the coordination (issue 14)
            page.wait_for_function(
                "(t) => { const d = document.querySelector('#pv-tactic'); return !!d && d.dataset.tactic === t && !!document.querySelector('#pv-coordination'); }",
                arg=tactic)
        page.wait_for_function("() => !window.vedette.S.builder.loading")
        page.locator("#confirm-action:not([disabled])").click()
    elif t == "bombard":
        guns = list(cmd["artillery"])
        hexes = []
        for g in guns:
            if unit_hex(game, g) not in hexes:
                hexes.append(unit_hex(game, g))
        select_stack(page, hexes[0])
        for hx in hexes[1:]:
            click_hex(page, hx, shift=True)
            page.wait_for_function("(h) => window.vedette.S.selHexes.includes(h)", arg=hx)
        # only the named guns fire: leave the hexes' other guns out
        others = [u for u in selected(page) if u not in guns and game.scenario.units[u].kind.value == "artillery"]
        if others:
            set_selection(page, [u for u in selected(page) if u not in others])
        wait_options(page)
        click_hex(page, cmd["target"])
        page.wait_for_function("() => !!window.vedette.S.preview")
        if js(page, "() => window.vedette.S.preview.kind") != "bombard":
            page.locator("#preview-switch").click()
        if len(guns) > 1:  # 8.4: the fire groups (each gun alone without `groups`), then their leaders
            groups = cmd.get("groups") or [[g] for g in guns]
            for i, grp in enumerate(groups):
                for u in grp:
                    if game.scenario.units[u].kind.value != "leader":
                        page.locator(f"select.bombard-group[data-unit='{u}']").select_option(str(i))
            for i, grp in enumerate(groups):
                for u in grp:
                    if game.scenario.units[u].kind.value == "leader":
                        page.locator(f"select.bombard-leader[data-group='{i}']").select_option(u)
        page.locator("#confirm-action").click()
    elif t == "charge" and game.state.ruleset == "standard":
        # 7.13(3): the infantry charge declared in the movement phase, by charge mode (C) and the path's button
        select_units(page, game, list(cmd["units"]))
        press(page, "c", "() => window.vedette.S.chargeMode === true")
        page.locator(f"#charge-targets .charge-target-btn[data-target='{cmd['target']}'][data-path='{','.join(cmd['path'])}']").click()
    elif t == "charge":
        page.locator(".charge-go").first.wait_for()
        click_matching(page, ".charge-go", "data-command", cmd)
    elif t == "undo":
        blur(page)
        page.keyboard.press("u")


def perform_mp(page: Any, game: Game, cmd: dict[str, Any]) -> None:
    """A Musket & Pike command on the page (R17.95, docs/commands.md "Musket & Pike's page actions")."""
    t = cmd["type"]
    if t == "end_segment":
        # the E key (the same command; confirmed when units have not moved), or every third time the segment box's
        # End segment (the key needs no wait for the box: the most frequent command of the battle is the quicker)
        blur(page)
        page.keyboard.press("Escape")
        if game.version % 3:
            page.keyboard.press("e")
            page.wait_for_function("(v) => { const S = window.vedette.S; return S.pending.size > 0 || S.version > v || !!document.querySelector('dialog.confirm[open]'); }",
                                   arg=game.version)
            if js(page, "() => !!document.querySelector('dialog.confirm[open]')"):
                page.locator("dialog.confirm [data-confirm=ok]").click()
        else:
            wait_phase_options(page)
            click_matching(page, "#sec-phase .mp-action", "data-command", cmd)
        return
    who = cmd.get("unit") or cmd["lead"]
    select_stack(page, unit_hex(game, who))
    if selected(page) != [who]:
        set_selection(page, [who])
        wait_options(page)
    if t == "move" and "facing" not in cmd:
        click_hex(page, cmd["path"][-1])  # R17.38: a leader rides to a hex of friendly units; no facing
    elif t == "move":
        # the destination, then its facing: the destination again (the way it went), a hex around it, or a button
        dest, facing = cmd["path"][-1], cmd["facing"]
        click_hex(page, dest)
        page.wait_for_function("(h) => window.vedette.S.mpDest === h", arg=dest)
        toward = js(page, "(f) => { const b = document.querySelector(`.mp-face-btn[data-facing='${f}']`); return b ? b.textContent : ''; }", facing)
        hexes = [w for w in toward.replace("(", " ").replace(")", " ").replace(",", " ").split() if w.isdigit() and len(w) == 4]
        if "the way it went" in toward and len(cmd["path"]) % 2:
            click_hex(page, dest)
        elif hexes and len(cmd["path"]) % 3:
            click_hex(page, hexes[0])
        else:
            page.locator(f"#mp-facing .mp-face-btn[data-facing='{facing}']").click()
    elif t == "face":
        click_matching(page, "#mp-face-stay .mp-face-now", "data-command", cmd)
    elif t in ("fire", "close_combat"):
        # a click on the ringed target, then its button in the box it opens (the odds or the preview under it)
        target = cmd["target"] if t == "fire" else cmd["defender"]
        click_hex(page, unit_hex(game, target))
        page.wait_for_function("(h) => window.vedette.S.mpTarget === h", arg=unit_hex(game, target))
        click_matching(page, "#mp-target .mp-target-go", "data-command", cmd)
    else:  # reform, formation, rally: the selected unit's buttons
        click_matching(page, "#sec-selection .sel-commands button", "data-command", cmd)


def last_toast(page: Any) -> str:
    return str(js(page, "() => [...document.querySelectorAll('.toast')].map(t => t.textContent).join(' | ')") or "")


# ------------------------------------------------------------------ lobby


def create_in_lobby(page: Any, scenario_id: str, options: tuple[str, ...] = (), ruleset: str | None = None
                    ) -> tuple[str, str]:
    """Create a private game of `scenario_id` on its first side, under the edition `ruleset` picked in the card's
    Rules select (None: the scenario's own, no pick), ticking the game `options` the scenario offers (the lobby's
    checkboxes); (invite link, creator's side)."""
    card = page.locator(f".scenario[data-scenario='{scenario_id}']")
    card.locator(".preview svg").wait_for()
    if ruleset is not None:
        card.locator("select[name=ruleset]").select_option(ruleset)
    for name in options:
        card.locator(f"input[data-option='{name}']").check()
    side = card.locator("select[name=side] option:not([value=random])").first.get_attribute("value")
    card.locator("select[name=side]").select_option(side)
    card.locator("button.btn.primary").click()
    invite = page.locator("#my-games .invite input").first
    invite.wait_for()
    return invite.input_value(), str(side)


# standard-1866's runs are test_whole_battle_1866.py's, Königgrätz's test_whole_battle_koniggratz.py's and Horse and
# Musket's test_whole_battle_hm.py's, so that
# `make test`'s two workers (--dist loadfile) play them beside these
KONIGGRATZ = [s for s in SCENARIOS + VARIANTS if s.startswith("koniggratz")]
HM = [s for s in SCENARIOS if s.startswith("hm-")]
MP = [s for s in SCENARIOS if s.startswith("mp-")]  # Musket & Pike's: test_whole_battle_mp.py
HERE = [s for s in SCENARIOS if not s.startswith("standard-1866") and s not in KONIGGRATZ and s not in HM and s not in MP]
ELSEWHERE = [s for s in SCENARIOS + VARIANTS if s not in HERE and s not in KONIGGRATZ and s not in HM and s not in MP]


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("run_id", HERE)
def test_whole_battle_through_the_page(run_id: str, open_page: Any, live_server: Any, artifacts: Path) -> None:
    play_whole_battle(run_id, open_page, live_server, artifacts)


def play_whole_battle(run_id: str, open_page: Any, live_server: Any, artifacts: Path) -> None:
    """One battle from the lobby to game over by clicks alone (`run_id`: a scenario id, '@ruleset' for another
    edition it declares, '+option' for a variant)."""
    played, *options = run_id.split("+")
    scenario_id, _, ruleset = played.partition("@")
    run_id = run_id.replace("+", "-").replace("@", "-")
    base = live_server.url
    errors: list[str] = []
    a = open_page(errors, f"{run_id}-a")
    b = open_page(errors, f"{run_id}-b")
    register(a, base, f"wa-{run_id}"[:32])
    register(b, base, f"wb-{run_id}"[:32])
    link, side_a = create_in_lobby(a, scenario_id, tuple(options), ruleset or None)
    b.goto(link)
    b.get_by_role("button", name="Join the game").click()
    b.wait_for_url("**/games/*")
    game_id = b.url.split("/games/")[1].split("?")[0]
    a.goto(f"{base}/games/{game_id}")
    oracle = Oracle(f"{live_server.db_dir}/vedette.db", game_id)
    game = oracle.game()
    assert {k for k, v in game.state.options.items() if v} == set(options), game.state.options
    assert game.ruleset.name == (ruleset or game.scenario.ruleset), game.ruleset.name
    side_b = next(s for s in game.scenario.side_order if s != side_a)
    pages = {side_a: a, side_b: b}
    for p in pages.values():
        p.locator("#conn[data-state=open]").wait_for()

    shots = artifacts / f"whole-{run_id}"
    shots.mkdir(parents=True, exist_ok=True)
    for old in shots.glob("*.png"):
        old.unlink()
    salt = SALT.get(run_id, "")
    rng = random.Random(f"whole-battle:{run_id}{salt}")
    player = RandomPlayer(random.Random(f"whole-battle-choices:{run_id}{salt}"))
    performed: dict[str, int] = {}
    offered: set[str] = set()
    last_shot = None
    steps = 0
    clock: dict[str, float] = {}

    def lap(name: str, t0: float) -> float:
        t1 = time.perf_counter()
        clock[name] = clock.get(name, 0.0) + t1 - t0
        return t1

    while True:
        t0 = time.perf_counter()
        version = oracle.version()
        game = oracle.game()
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        page = pages[side]
        t0 = lap("oracle", t0)
        for p in pages.values():
            wait_synced(p, version)
        t0 = lap("synced", t0)
        st = game.state
        key = (st.turn, st.active, st.phase)
        if key != last_shot:
            last_shot = key
            page.screenshot(path=str(shots / f"v{version:04d}-t{st.turn:02d}-{st.active}-{st.phase}.png"))
        if rng.random() < UNDO_CHANCE and game.can_undo(side) and st.decision is None:
            cmd: dict[str, Any] = {"type": "undo"}
        else:
            cmd = choose_command(game, side, player, rng, set(performed), offered)
        kind = variety(game, cmd) if cmd["type"] != "undo" else "undo"
        t0 = lap("choose", t0)
        print(f"step {steps} v{version} {side}: {cmd}")  # shown when the battle fails
        if kind.startswith("choose:") and kind not in performed:
            page.screenshot(path=str(shots / f"decision-{kind.split(':', 1)[1]}.png"))  # each kind of decision once
        perform(page, game, cmd)
        t0 = lap(f"perform:{cmd['type']}", t0)
        assert _wait_version(oracle, version + 1), f"{scenario_id} step {steps}: the server logged nothing for {cmd}; page says: {last_toast(page)}; JS errors: {errors}"
        t0 = lap("logged", t0)
        logged_side, logged = oracle.last_command()
        assert logged_side == side
        assert normal(logged) == normal(cmd), f"{scenario_id} step {steps}: page sent {logged}, wanted {cmd}"
        performed[kind] = performed.get(kind, 0) + 1
        steps += 1
        assert steps < 3000, "the battle did not end"
        if steps % 50 == 0:  # where a long battle's time goes, shown when it fails or with -s
            print(f"after {steps} steps:", {k: round(v, 1) for k, v in sorted(clock.items(), key=lambda kv: -kv[1])})

    for p in pages.values():
        p.wait_for_function("() => window.vedette.S.view.phase === 'over'", timeout=20000)
    a.screenshot(path=str(shots / "game-over.png"))
    assert not errors, errors
    print({k: round(v, 1) for k, v in sorted(clock.items(), key=lambda kv: -kv[1])})
    print(f"{scenario_id}: {steps} commands through the page: {performed}; offered but never taken: {sorted(offered - set(performed))}")
    (shots / "families.json").write_text(json.dumps({"steps": steps, "performed": performed,
                                                     "offered": sorted(offered)}, indent=1))
    if game.state.ruleset == "horse-and-musket":
        # R16.19: every kind of command the engine offered in this battle was given by clicks (a card's command, a
        # formation change, each decision's kind: variety()), and every kind there is (HM_KINDS: a rally, 2.1; each
        # card, R16.10, Volley with a fire and Cold Steel with a charge among them); unit commands by clicks on the map
        assert offered <= set(performed), f"offered but never performed: {sorted(offered - set(performed))}"
        assert HM_KINDS <= set(performed), f"never given: {sorted(HM_KINDS - set(performed))}"
        assert HM_CLICKS["map"] > 0, HM_CLICKS
        print(f"Horse and Musket unit commands: {HM_CLICKS}")
    # every command family this battle offered was given through the page at least once
    families = {k.split(":")[0] for k in offered}
    assert families <= {k.split(":")[0] for k in performed}, f"offered but never performed: {sorted(offered - set(performed))}"
    # the finished game's record, as a player downloads it, verifies with `vedette replay`
    record = a.evaluate("async (g) => (await fetch(`/api/games/${g}/record`)).json()", game_id)
    (shots / "record.json").write_text(json.dumps(record))
    replayed = subprocess.run([sys.executable, "-m", "server.cli", "replay", str(shots / "record.json")],
                              check=False, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert replayed.returncode == 0 and replayed.stdout.startswith("OK:"), replayed.stdout + replayed.stderr
    print(replayed.stdout.splitlines()[0])


def _wait_version(oracle: Oracle, want: int, timeout: float = 20.0) -> bool:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if oracle.version() >= want:
            return True
        time.sleep(0.03)
    return False
