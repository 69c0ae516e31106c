// The lobby's lists of games to watch (in progress) and to replay (finished), the terms a joiner
// commits to (the time per decision and the ruleset) on every listed game, and the words for how long ago
// and whose game it is that the lobby and the game page share.

import { h, clear, ago } from "./dom.js";

export const RULESETS = { quickplay: "Quick Play (revised)", "quickplay-2013": "Quick Play (2013)", standard: "Standard rules", "horse-and-musket": "Horse and Musket", "musket-and-pike": "Musket & Pike" };

/** "72 h per decision · Quick Play (revised)": what a joiner commits to. */
export function termsText(g) {
  const hours = g.decision_hours;
  const time = hours ? `${hours % 24 === 0 && hours >= 48 ? `${hours / 24} days` : `${hours} h`} per decision` : "no time limit";
  const rules = g.ruleset ? RULESETS[g.ruleset] || g.ruleset : "";
  return `Time: ${time}${rules ? ` · Rules: ${rules}` : ""}`;
}

/** "just now", "5 min ago": how long ago, as a sentence says it ("created just now", never "just now ago"). */
export function since(when) {
  const a = ago(when);
  return a === "just now" ? a : `${a} ago`;
}

/** "under a minute", "5 min": how long something has lasted so far ("waiting under a minute"). */
export function lasting(when) {
  const a = ago(when);
  return a === "just now" ? "under a minute" : a;
}

/** Whose game this is and which battle, from what its visitor was given (the game's summary: its seats' names and
 *  the battle's title, nothing of its state): "amelie invites you to The Crossing at Millbrook — Quick Play
 *  (revised). amelie plays Blue Army; Red Army is free." */
export function whoseGame(g) {
  const name = (side) => (g.side_names && g.side_names[side]) || side;
  const rules = g.ruleset ? RULESETS[g.ruleset] || g.ruleset : "";
  const battle = `${g.title || g.scenario}${rules ? ` — ${rules}` : ""}`;
  const seats = Object.entries(g.seats || {});
  const seated = seats.filter(([, u]) => u);
  const free = seats.filter(([, u]) => !u);
  if (seated.length === 1 && free.length) {
    const [side, user] = seated[0];
    return `${user} invites you to ${battle}. ${user} plays ${name(side)}; ${free.map(([s]) => name(s)).join(" and ")} is free.`;
  }
  return `${battle}. ${seated.map(([side, user]) => `${user} plays ${name(side)}`).join("; ")}.`;
}

/** The page of a player's profile (issue 44). */
export function profileUrl(user) {
  return `/players/${encodeURIComponent(user)}`;
}

/** A seated player's name, linking to their profile, with their rating in the game's edition beside it
 *  ("unrated" before their first rated game in it): `g.ratings` from the lobby's lists. */
export function playerTag(g, side) {
  const user = (g.seats || {})[side];
  if (!user) return h("span.player", { text: "?" });
  const ratings = g.ratings || {};
  const rating = side in ratings ? ratings[side] : undefined;
  const rules = g.ruleset ? RULESETS[g.ruleset] || g.ruleset : "this edition";
  return h("span.player", { "data-player": user }, [
    h("a.player-link", { href: profileUrl(user), text: user, "aria-label": `${user}'s profile` }),
    rating === undefined ? null : h("span.rating", {
      text: rating === null ? " (unrated)" : ` (${rating})`,
      title: rating === null ? `No rated game yet in ${rules}` : `Rating in ${rules} (Glicko-2)`,
    }),
  ]);
}

/** Fill a list of games to watch or replay. */
export function watchList(ul, games, { sideName, empty }) {
  if (!ul) return;
  clear(ul);
  if (!games.length) ul.appendChild(h("li.empty", { text: empty }));
  for (const g of games) {
    const over = g.status === "over";
    const players = [];
    for (const side of Object.keys(g.seats || {})) {
      if (players.length) players.push(" vs ");
      players.push(playerTag(g, side), ` as ${sideName(g, side)}`);
    }
    let sub;
    if (over) {
      const r = g.result || {};
      sub = ` · ${r.winner ? `${sideName(g, r.winner)} won` : "a draw"}${r.reason ? ` (${r.reason})` : ""} · ended ${since(g.updated_at)}${g.rated ? " · rated" : ""}`;
    } else {
      sub = ` · ${g.awaiting_user || sideName(g, g.awaiting) || "?"} to act${g.awaiting_since ? ` for ${lasting(g.awaiting_since)}` : ""}${g.rated ? " · rated" : ""}`;
    }
    ul.appendChild(
      h("li.game-item", { "data-game": g.id, "data-status": g.status }, [
        h("div.gi-main", {}, [
          h("div.gi-title", {}, [g.title || g.scenario, " ", h(`span.badge${over ? ".over" : ""}`, { text: over ? "Over" : "In progress" })]),
          h("div.gi-sub", {}, [...players, sub]),
          h("div.gi-sub.gi-terms", { text: termsText(g) }),
        ]),
        h("a.btn.small", { href: `/games/${g.id}`, text: over ? "Replay" : "Watch", "aria-label": `${over ? "Replay" : "Watch"} ${g.title || g.id}` }),
      ]),
    );
  }
}
