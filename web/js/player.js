// /players/{name}: a player's profile (issue 44): their rating in each edition, wins, losses and draws by
// edition and by scenario, their running and finished games (each with how it ended, the rating change of a
// rated one, and links to replay it and to its record). What the server lists is what this viewer may see.

import { api, ApiError } from "./api.js";
import { h, clear, $, add } from "./ui/dom.js";
import { renderTopbar } from "./ui/chrome.js";
import { startAwaiting } from "./ui/awaiting.js";
import { RULESETS, profileUrl, since } from "./ui/lobbylists.js";

const OUTCOME = { win: "Won", loss: "Lost", draw: "Draw" };
const ENDING = {
  "played out": "played out",
  resigned: "resigned",
  "opponent resigned": "the opponent resigned",
  "lost on time": "lost on time",
  "claimed timeout": "claimed timeout",
  "called off": "called off before anyone joined",
};

function edition(ruleset) {
  return RULESETS[ruleset] || ruleset;
}

function signed(x) {
  return `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(1)}`;
}

function tallyTable(id, caption, head, rows) {
  return h(`table.admin-table#${id}`, { "aria-label": caption }, [
    h("thead", {}, [h("tr", {}, [head, "Won", "Lost", "Drawn"].map((t) => h("th", { scope: "col", text: t })))]),
    h("tbody", {}, rows.length
      ? rows.map(([key, name, t]) => h("tr", { "data-key": key }, [h("th", { scope: "row", text: name }), h("td", { text: String(t.win) }), h("td", { text: String(t.loss) }), h("td", { text: String(t.draw) })]))
      : [h("tr", {}, [h("td.empty", { colspan: 4, text: "No finished games yet." })])]),
  ]);
}

function gameRow(g) {
  const change = g.rating_change;
  const result = g.status === "over"
    ? [
        h(`span.outcome.outcome-${g.outcome || "none"}`, { text: OUTCOME[g.outcome] || "Over" }),
        g.ending ? h("span.ending", { text: ` (${ENDING[g.ending] || g.ending})` }) : null,
        change ? h("span.rating-change", { text: ` · rating ${signed(change.delta)} (${Math.round(change.before)} → ${Math.round(change.after)})` }) : g.rated ? null : h("span.muted", { text: " · unrated" }),
      ]
    : [h("span.badge", { text: "In progress" }), g.rated ? " · rated" : " · unrated"];
  return h("li.game-item", { "data-game": g.id, "data-status": g.status }, [
    h("div.gi-main", {}, [
      h("div.gi-title", {}, [g.title || g.scenario, g.visibility === "private" ? h("span.badge", { text: "Private" }) : null]),
      h("div.gi-sub", {}, [
        `${edition(g.ruleset)} · played ${g.side_name} vs `,
        g.opponent ? h("a.player-link", { href: profileUrl(g.opponent), text: g.opponent }) : "nobody",
        ` · ${since(g.updated_at)}`,
      ]),
      h("div.gi-sub.gi-result", {}, result),
      g.reason ? h("div.gi-sub.muted", { text: g.reason }) : null,
    ]),
    h("a.btn.small.primary", { href: g.links.replay, text: g.status === "over" ? "Replay" : "Watch", "aria-label": `${g.status === "over" ? "Replay" : "Watch"} ${g.title || g.id}` }),
    h("a.btn.small", { href: g.links.record, text: "Record", "aria-label": `The record of ${g.title || g.id}` }),
  ]);
}

function gameList(id, label, games, empty) {
  const ul = h(`ul.games#${id}`, { "aria-label": label });
  if (!games.length) ul.appendChild(h("li.empty", { text: empty }));
  for (const g of games) ul.appendChild(gameRow(g));
  return ul;
}

async function boot() {
  const main = $("#main");
  let me = null;
  try {
    me = await api.me();
  } catch (_) {
    me = null; // profiles are public: a visitor sees the open games
  }
  renderTopbar($("#topbar"), me);
  if (me) startAwaiting();
  const name = decodeURIComponent(location.pathname.replace(/^\/players\//, "").replace(/\/$/, ""));
  let p;
  try {
    p = await api.player(name);
  } catch (e) {
    const text = e instanceof ApiError && e.status === 404 ? e.message : `The profile could not be read: ${e.message}`;
    main.appendChild(h("div.card.form-error#profile-error", { role: "alert", text }));
    return;
  }
  document.title = `Vedette: ${p.username}`;
  const ratings = p.ratings.length
    ? h("table.admin-table#ratings", { "aria-label": "Ratings by edition" }, [
        h("thead", {}, [h("tr", {}, ["Edition", "Rating", "Deviation", "Rated games"].map((t) => h("th", { scope: "col", text: t })))]),
        h("tbody", {}, p.ratings.map((r) => h("tr", { "data-ruleset": r.ruleset }, [h("th", { scope: "row", text: edition(r.ruleset) }), h("td.rating", { text: String(r.rating) }), h("td", { text: `±${r.rd}` }), h("td", { text: String(r.games) })]))),
      ])
    : h("p.empty#ratings", { text: "No rated game yet: every edition starts at 1500." });
  const rec = p.record;
  add(main,
    h("section.card", { "aria-labelledby": "profile-name" }, [
      h("h1#profile-name", { text: p.username }),
      h("p.muted", { text: `Playing since ${new Date(p.since).toLocaleDateString()} · ${rec.total.win} won, ${rec.total.loss} lost, ${rec.total.draw} drawn` }),
      h("h2", { text: "Ratings (Glicko-2)" }),
      ratings,
    ]),
    h("section.card", { "aria-labelledby": "record-title" }, [
      h("h2#record-title", { text: "Wins, losses and draws" }),
      tallyTable("by-edition", "By edition", "Edition", Object.entries(rec.by_edition).map(([k, t]) => [k, edition(k), t])),
      tallyTable("by-scenario", "By scenario", "Scenario", Object.entries(rec.by_scenario).map(([k, t]) => [k, t.title, t])),
    ]),
    h("section.card", { "aria-labelledby": "running-title" }, [h("h2#running-title", { text: "Games in progress" }), gameList("running-games", "Games in progress", p.running, "None right now.")]),
    h("section.card", { "aria-labelledby": "profile-finished-title" }, [h("h2#profile-finished-title", { text: "Finished games" }), gameList("profile-finished", "Finished games", p.finished, "None yet.")]),
  );
}

boot();
