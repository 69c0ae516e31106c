"""Issue 11 items 11 and 12: a historical map (Hougoumont) opens for each side at a readable counter size over
its own units, with the whole-map button still there; the legend names every terrain, hexside and kind of
road in full (the main road too), a sunken road is drawn unlike a trail, turn-track labels fit, a stacked
leader leaves its unit's name readable, the moved dot and an artillery range stay clear of the factors and
the symbol, objectives are drawn above the counters, and no "Form square" is offered during the set-up.
Screenshots: tests/artifacts/map-open-<side>.png, map-legend.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import register, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _post(page: Any, path: str, body: dict | None = None) -> Any:
    ans = page.evaluate(
        """async ([p, b]) => { const r = await fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(b || {})}); return {status: r.status, body: await r.json().catch(() => null)}; }""",
        [path, body],
    )
    assert ans["status"] < 300, ans
    return ans["body"]


OPENING = """() => {
    const {S, map} = window.vedette;
    const mine = Object.entries(S.view.units).filter(([id, u]) => u.status === 'map' && u.hex
        && map.scenario.units.find(x => x.id === id).side === S.side);
    const body = document.querySelector(`#map-host .counter[data-unit='${mine[0][0]}'] .c-body`);
    return {k: map.transform.k, counterPx: body.getBoundingClientRect().width,
            visible: mine.filter(([, u]) => map.isVisible(u.hex)).length, total: mine.length};
}"""


def test_historical_map_opens_readable_and_cosmetics(open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    register(alice, base, "mapalice")
    register(bob, base, "mapbob")
    g = _post(alice, "/api/games", {"scenario": "hougoumont", "side": "french", "visibility": "open"})
    _post(bob, f"/api/games/{g['id']}/join")

    for page, side in ((alice, "french"), (bob, "allied")):
        page.goto(f"{base}/games/{g['id']}")
        wait_view(page, f"v.viewer === '{side}'")
        page.wait_for_timeout(300)
        o = page.evaluate(OPENING)
        assert o["k"] > 1.3, o  # zoomed in from the whole map
        assert o["counterPx"] >= 40, o  # a readable counter
        assert o["visible"] >= o["total"] / 3 and o["visible"] >= 1, o  # over its own units
        page.screenshot(path=str(artifacts / f"map-open-{side}.png"))

    # --- the whole-map button still shows everything
    alice.locator("#zoom-reset").click()
    assert alice.evaluate("() => window.vedette.map.transform.k") == 1

    # --- the legend: every entry in full, the main road and the trail among them
    alice.locator("#legend-toggle").click()
    labels = alice.locator("#legend .legend-label").all_inner_texts()
    assert "Main road (pike)" in labels and "Trail" in labels and "Road" in labels, labels
    cut = alice.evaluate("() => [...document.querySelectorAll('#legend .legend-label')].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
    assert not cut, cut
    alice.locator("#legend").screenshot(path=str(artifacts / "map-legend.png"))
    alice.locator("#legend-toggle").click()

    # --- a sunken road is a solid cutting; a trail is a dotted track
    sunken = alice.evaluate("() => [...document.querySelectorAll('#map-host .hexside.f-sunken line')].map(l => l.getAttribute('stroke-dasharray'))")
    assert sunken and all(d is None for d in sunken), sunken
    trail = alice.evaluate("() => [...document.querySelectorAll('#map-host .road-trail path')].map(p => p.getAttribute('stroke-dasharray'))")
    assert trail and any(d and d.startswith("0.1 ") for d in trail), trail

    # --- turn-track labels fit in their boxes
    clipped = alice.evaluate("() => [...document.querySelectorAll('.turn-track .tt')].filter(t => t.scrollHeight > t.clientHeight + 1 || t.scrollWidth > t.clientWidth + 1).length")
    assert clipped == 0

    # --- back in from the whole field (drawn as marks, map/lod.js) to where the counters are drawn
    while alice.evaluate("() => window.vedette.map.svg.dataset.lod") == "far":
        alice.locator("#zoom-in").click()

    # --- a stacked leader does not cover its unit's name
    overlap = alice.evaluate("""() => {
        const out = [];
        for (const st of document.querySelectorAll('#map-host .stack')) {
            const leaders = [...st.querySelectorAll('.counter.k-leader .c-body')].map(b => b.getBoundingClientRect());
            for (const id of st.querySelectorAll('.counter:not(.k-leader) .c-id')) {
                const r = id.getBoundingClientRect();
                for (const l of leaders) if (r.left < l.right - 1 && l.left < r.right - 1 && r.top < l.bottom - 1 && l.top < r.bottom - 1) out.push(st.dataset.hex);
            }
        }
        return {out, stacks: [...document.querySelectorAll('#map-host .stack')].filter(s => s.querySelector('.k-leader') && s.querySelector('.counter:not(.k-leader)')).length};
    }""")
    assert overlap["stacks"] >= 1 and not overlap["out"], overlap

    # --- the moved dot and an artillery range stay clear; "moved" is said only while it matters
    clear = alice.evaluate("""async () => {
        const m = await import('/static/js/counters.js');
        const {map} = window.vedette;
        const sc = map.scenario;
        const gun = sc.units.find(u => u.kind === 'artillery' && u.range);
        const inf = sc.units.find(u => u.kind === 'infantry');
        const layer = map.layers.overlayTop;
        const g1 = m.counterSVG(gun, {moved: true}, sc.sides[gun.side], 42, {showMoved: true});
        layer.appendChild(g1);
        const box = (el) => el.getBBox();
        const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        const extra = [...g1.querySelectorAll('.c-extra')].find(t => t.textContent.startsWith('('));
        const res = {
            range: extra.textContent,
            rangeOnSymbol: hit(box(extra), box(g1.querySelector('.nato rect'))),
            dotOnFactors: hit(box(g1.querySelector('.moved-dot')), box(g1.querySelector('.c-factors'))),
            movedSaid: m.describeUnit(inf, {moved: true}, {showMoved: true}).includes('moved'),
            movedHidden: !m.describeUnit(inf, {moved: true}, {showMoved: false}).includes('moved'),
        };
        g1.remove();
        return res;
    }""")
    assert clear["range"] == f"({clear['range'][1:-1]})" and not clear["rangeOnSymbol"], clear
    assert not clear["dotOnFactors"] and clear["movedSaid"] and clear["movedHidden"], clear

    # --- objectives are drawn above the counters
    assert alice.evaluate("() => !!(document.querySelector('#map-host .layer-units').compareDocumentPosition(document.querySelector('#map-host .layer-objectives')) & Node.DOCUMENT_POSITION_FOLLOWING)")

    # --- set-up: no "Form square" offered
    wait_view(alice, "v.phase === 'setup' && v.awaiting === 'french'")
    inf = alice.evaluate("() => { const {S, map} = window.vedette; return Object.entries(S.view.units).find(([id, u]) => u.status === 'map' && map.scenario.units.find(x => x.id === id && x.side === S.side && x.kind === 'infantry'))[0]; }")
    alice.evaluate("(id) => window.vedette.map.ensureVisible(window.vedette.S.view.units[id].hex)", inf)
    alice.locator(f"#map-host .counter[data-unit='{inf}']").first.click()
    alice.locator("#sec-selection h3").wait_for()
    alice.wait_for_timeout(300)
    assert alice.locator("#sec-selection button", has_text="Form square").count() == 0
    assert not errors, errors
