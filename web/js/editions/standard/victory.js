// The Standard rules' victory box in the side panel (18.0, rulings S68, S69): each of the scenario's decisive
// conditions with the state of each of its tests now (e.g. "Last to enter 2030: Austria", "Austria trains unmoved
// and unattacked: yes"), the instant conditions tested at the end of each turn, and 18.3's points so far by
// category. It draws the view's `standard.victory` (present only when the scenario declares them).

import { h } from "../../ui/dom.js";

const CATEGORY_WORDS = {
  destroyed: "destroyed",
  leader_casualty: "leader casualties",
  captured: "units captured",
  leader_captured: "leaders captured",
  trains_captured: "trains captured",
  hq_captured: "HQ captured",
};

function conditionList(items, sideName, id, label) {
  const ul = h(`ul.std-victory-conditions#${id}`, { "aria-label": label });
  for (const c of items) {
    const tests = h("ul.std-victory-tests");
    for (const t of c.tests) tests.appendChild(h(`li.${t.held ? "held" : "not-held"}`, { "data-test": t.test, text: t.text }));
    ul.appendChild(h(`li.${c.held ? "held" : "not-held"}`, { "data-side": c.side, "data-held": String(c.held) }, [
      h("b", { text: `${sideName(c.side)}: ${c.held ? "met now" : "not met now"} ` }),
      h("span.rule", { text: `rule ${c.rule}` }),
      h("div.whose-sub", { text: c.text }),
      tests,
    ]));
  }
  return ul;
}

/** The victory box; `vic` is the view's `standard.victory`, `points` the view's totals. */
export function victoryBox(vic, points, sideName) {
  const box = h("div.std-victory#std-victory", {}, [h("b", { text: "Victory " }), h("span.rule", { text: "rules 18.1–18.3" })]);
  if ((vic.conditions || []).length) {
    box.appendChild(h("div.whose-sub", { text: "At the end of the game (the first met wins):" }));
    box.appendChild(conditionList(vic.conditions, sideName, "std-victory-end", "Victory conditions"));
  }
  if ((vic.instant || []).length) {
    box.appendChild(h("div.whose-sub", { text: "At the end of each turn (met: an immediate victory):" }));
    box.appendChild(conditionList(vic.instant, sideName, "std-victory-instant", "Immediate victory conditions"));
  }
  if (vic.breakdown) {
    const ul = h("ul.std-victory-points#std-victory-points", { "aria-label": "Victory points so far" });
    for (const [side, lines] of Object.entries(vic.breakdown)) {
      const parts = Object.entries(lines).map(([cat, l]) => (cat === "objectives" ? `objectives held (${l.points})` : `${l.count} ${CATEGORY_WORDS[cat] || cat} (${l.points})`));
      ul.appendChild(h("li", { "data-side": side }, [`${sideName(side)}: ${(points || {})[side] ?? 0} VP${parts.length ? ` — ${parts.join(", ")}` : ""}`]));
    }
    box.appendChild(h("div.whose-sub", { text: `Points (18.3): the greater total wins; under ${vic.threshold} it is a draw.` }));
    box.appendChild(ul);
  }
  return box;
}
