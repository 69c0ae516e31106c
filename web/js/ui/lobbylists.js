// The lobby's lists of games to watch (in progress) and to replay (finished), and the terms a joiner
// commits to (the time per decision and the ruleset) on every listed game.

import { h, clear, ago } from "./dom.js";

export const RULESETS = { quickplay: "Quick Play (revised)", "quickplay-2013": "Quick Play (2013)", standard: "Standard rules" };

/** "72 h per decision · Quick Play (revised)": what a joiner commits to. */
export function termsText(g) {
  const hours = g.decision_hours;
  const time = hours ? `${hours % 24 === 0 && hours >= 48 ? `${hours / 24} days` : `${hours} h`} per decision` : "no time limit";
  const rules = g.ruleset ? RULESETS[g.ruleset] || g.ruleset : "";
  return `Time: ${time}${rules ? ` · Rules: ${rules}` : ""}`;
}

/** Fill a list of games to watch or replay. */
export function watchList(ul, games, { sideName, empty }) {
  if (!ul) return;
  clear(ul);
  if (!games.length) ul.appendChild(h("li.empty", { text: empty }));
  for (const g of games) {
    const over = g.status === "over";
    const players = Object.entries(g.seats || {}).map(([side, u]) => `${u || "?"} (${sideName(g, side)})`).join(" vs ");
    let sub;
    if (over) {
      const r = g.result || {};
      sub = `${players} · ${r.winner ? `${sideName(g, r.winner)} won` : "a draw"}${r.reason ? ` (${r.reason})` : ""} · ended ${ago(g.updated_at)} ago`;
    } else {
      sub = `${players} · ${g.awaiting_user || sideName(g, g.awaiting) || "?"} to act${g.awaiting_since ? ` for ${ago(g.awaiting_since)}` : ""}`;
    }
    ul.appendChild(
      h("li.game-item", { "data-game": g.id, "data-status": g.status }, [
        h("div.gi-main", {}, [
          h("div.gi-title", {}, [g.title || g.scenario, " ", h(`span.badge${over ? ".over" : ""}`, { text: over ? "Over" : "In progress" })]),
          h("div.gi-sub", { text: sub }),
          h("div.gi-sub.gi-terms", { text: termsText(g) }),
        ]),
        h("a.btn.small", { href: `/games/${g.id}`, text: over ? "Replay" : "Watch", "aria-label": `${over ? "Replay" : "Watch"} ${g.title || g.id}` }),
      ]),
    );
  }
}
