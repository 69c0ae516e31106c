"""Small Playwright helpers shared by the browser tests (sync API)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page


def register(page: Page, base: str, username: str, password: str = "password123") -> None:
    page.goto(base + "/")
    form = page.locator("#register-form")
    form.wait_for()
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=email]").fill(f"{username}@example.com")
    form.locator("input[name=password]").fill(password)
    form.locator("button[type=submit]").click()
    page.locator("#my-games").wait_for()


def create_game(page: Page, side: str = "blue", decision_hours: str | None = None, scenario: str = "tutorial") -> str:
    """From the lobby: create a game of `scenario` on `side` (with a time per decision); its invite link."""
    card = page.locator(f".scenario[data-scenario='{scenario}']")
    card.locator(".preview svg").wait_for()
    card.locator("select[name=side]").select_option(side)
    if decision_hours is not None:
        card.locator("select[name=decision_hours]").select_option(decision_hours)
    card.locator("button.btn.primary").click()
    invite = page.locator("#my-games .invite input").first
    invite.wait_for()
    return invite.input_value()


def join_by_invite(page: Page, link: str) -> str:
    """Follow an invite link and take the seat; the game's id once its page shows the joiner's view."""
    page.goto(link)
    page.get_by_role("button", name="Join the game").click()
    page.wait_for_url("**/games/*")
    return page.url.split("/games/")[1].split("?")[0]


def seated_game(a: Page, b: Page, base: str, names: tuple[str, str], scenario: str) -> str:
    """Two new accounts: `a` creates a game of `scenario` as blue from the lobby, `b` joins it by the invite link;
    the game's id once it is active and `b`'s page is connected."""
    register(a, base, names[0])
    register(b, base, names[1])
    game_id = join_by_invite(b, create_game(a, "blue", scenario=scenario))
    b.locator("#conn[data-state=open]").wait_for()
    a.wait_for_function("async (gid) => (await (await fetch(`/api/games/${gid}`)).json()).status === 'active'",
                        arg=game_id, polling=200, timeout=15000)
    return game_id


def computer_game(page: Page, base: str, username: str, side: str = "blue", opponent: str = "random",
                  scenario: str = "tutorial", ruleset: str | None = None) -> str:
    """A new account creates a game of `scenario` on `side` against the computer (`opponent`: the lobby's choice),
    under the edition `ruleset` picked in the card's Rules select (None: the scenario's own), and lands on its page;
    the game's id."""
    register(page, base, username)
    card = page.locator(f".scenario[data-scenario='{scenario}']")
    card.locator(".preview svg").wait_for()
    if ruleset is not None:
        card.locator("select[name=ruleset]").select_option(ruleset)
    card.locator("select[name=side]").select_option(side)
    card.locator("select[name=opponent]").select_option(opponent)
    card.locator("button.btn.primary").click()
    page.wait_for_url("**/games/*")
    return page.url.split("/games/")[1].split("?")[0]


def hex_point(page: Page, hex_id: str) -> tuple[float, float]:
    """Screen coordinates of a hex centre on the game page's map."""
    pt: dict[str, float] = page.evaluate(
        """(hex) => {
            const m = window.vedette.map;
            if (m.ensureVisible) m.ensureVisible(hex);  // the map may open zoomed in over one's own units
            const at = () => {
                const c = m.grid.center(hex);
                const t = m.transform;
                const p = m.svg.createSVGPoint();
                p.x = c.x * t.k + t.x; p.y = c.y * t.k + t.y;
                const s = p.matrixTransform(m.svg.getScreenCTM());
                return {x: s.x, y: s.y};
            };
            let s = at();
            // a box over the map (the stack list, the legend, the zoom buttons) may lie on the hex: bring it to the middle
            const top = document.elementFromPoint(s.x, s.y);
            if (!top || !m.svg.contains(top)) { m.centerOn(hex); s = at(); }
            return s;
        }""",
        hex_id,
    )
    return pt["x"], pt["y"]


def reachable_next_to_enemy(page: Page) -> str:
    """A hex the selected stack can reach that is adjacent to an enemy unit (from the options shown)."""
    hex_id: str | None = page.evaluate(
        """() => {
            const {S, map} = window.vedette;
            const enemy = new Set(Object.entries(S.view.units)
                .filter(([id, u]) => u.status === 'map' && map.scenario.units.find(x => x.id === id).side !== S.side)
                .map(([, u]) => u.hex));
            const cands = [...S.options.reach.entries()]
                .filter(([h]) => map.grid.neighbors(h).some(n => enemy.has(n)))
                .sort((a, b) => (a[1].cost ?? 99) - (b[1].cost ?? 99));
            return cands.length ? cands[0][0] : null;
        }"""
    )
    assert hex_id, "no reachable hex next to the enemy"
    return hex_id


def click_hex(page: Page, hex_id: str, dy: float = 0.0) -> None:
    x, y = hex_point(page, hex_id)
    page.mouse.click(x, y + dy)


def view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("() => window.vedette.S.view")
    return v


def view_log(page: Page) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = page.evaluate("() => window.vedette.S.log")
    return entries


def wait_view(page: Page, js_predicate: str, timeout: float = 10000) -> None:
    """Wait until `js_predicate` (a JS expression over `v`, the page's live view) is true."""
    page.wait_for_function(f"() => {{ const v = window.vedette && window.vedette.S.view; return !!v && ({js_predicate}); }}", timeout=timeout)


def api_command(page: Page, game_id: str, command: dict[str, Any]) -> dict[str, Any]:
    """Send one command over REST with the page's session cookie, at the game's current version."""
    ans: dict[str, Any] = page.evaluate(
        """async ([gid, command]) => {
            const d = await (await fetch(`/api/games/${gid}`)).json();
            const r = await fetch(`/api/games/${gid}/commands`, {method: 'POST',
                headers: {'Content-Type': 'application/json', Accept: 'application/json'},
                body: JSON.stringify({command, expected_version: d.version})});
            return {status: r.status, body: await r.json().catch(() => null)};
        }""",
        [game_id, command],
    )
    assert ans["status"] < 300, f"{command} refused: {ans}"
    return ans


def api_post(page: Page, path: str, body: dict[str, Any] | None = None) -> Any:
    """POST JSON to an API path with the page's session cookie; the answer's body (the call must succeed)."""
    ans = page.evaluate(
        """async ([p, b]) => { const r = await fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(b || {})}); return {status: r.status, body: await r.json().catch(() => null)}; }""",
        [path, body],
    )
    assert ans["status"] < 300, ans
    return ans["body"]


def api_get(page: Page, path: str) -> Any:
    """GET a JSON API path with the page's session cookie."""
    return page.evaluate("async (p) => (await fetch(p)).json()", path)


def end_phase(page: Page) -> None:
    """End the phase as a player does: the E key, and OK if the page asks to confirm ending with units unmoved."""
    page.locator("body").click(position={"x": 2, "y": 2})  # nothing focused that would take the key
    version = page.evaluate("() => window.vedette.S.version")
    page.keyboard.press("e")
    # either the command is on its way, or the page asks to confirm
    page.wait_for_function("(v) => { const S = window.vedette.S; return S.pending.size > 0 || S.version > v"
                           " || !!document.querySelector('dialog.confirm[open]'); }", arg=version)
    if page.evaluate("() => !!document.querySelector('dialog.confirm[open]')"):
        page.locator("dialog.confirm [data-confirm=ok]").click()


def choose_option(page: Page, option: str, click: Callable[[Page, str], None] | None = None) -> None:
    """Answer the pending decision with its choice `option` as a player does (issue 39): the choice's button, or —
    a decision answered on the map (a retreat's hexes, an advance, a fortune of war's move) — a click on the choice's
    outlined hex, then on its path's button when several paths lead there. `click(page, hex)` clicks a hex centre
    (default `click_hex`)."""
    button = """(id) => [...document.querySelectorAll('#prompt-options button.option-btn')].find((b) => b.dataset.option === id)"""
    listed = """(id) => [...document.querySelectorAll('#prompt-choice option')].some((o) => o.value === id)"""
    page.wait_for_function(f"(id) => !!({button})(id) || ({listed})(id)", arg=option)  # the decision is drawn
    if page.evaluate(f"(id) => !!({button})(id)", option):
        page.locator("#prompt-options button.option-btn").nth(_option_index(page, option)).click()
        return
    hex_id = page.evaluate(
        "(id) => { const o = [...document.querySelectorAll('#prompt-choice option')].find((x) => x.value === id);"
        " return o ? o.dataset.hex : null; }", option)
    assert hex_id, f"the decision offers no choice {option!r}, neither as a button nor on the map"
    before = page.evaluate("() => window.vedette.S.version")
    (click or click_hex)(page, hex_id)
    # one path to that hex: the click chose it; several: the prompt lists them under the hex
    page.wait_for_function(
        f"([id, v]) => window.vedette.S.pending.size > 0 || window.vedette.S.version > v || !!({button})(id)",
        arg=[option, before], timeout=10000)
    if page.evaluate(f"(id) => !!({button})(id)", option):
        page.locator("#prompt-options button.option-btn").nth(_option_index(page, option)).click()


def _option_index(page: Page, option: str) -> int:
    i: int = page.evaluate(
        "(id) => [...document.querySelectorAll('#prompt-options button.option-btn')].findIndex((b) => b.dataset.option === id)",
        option)
    return i
