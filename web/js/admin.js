// /admin: every game, to watch live (read-only) or replay.

import { api } from "./api.js";
import { h, clear, $, ago, add } from "./ui/dom.js";
import { renderTopbar } from "./ui/chrome.js";
import { startAwaiting } from "./ui/awaiting.js";

async function boot() {
  const main = $("#main");
  let me = null;
  try {
    me = await api.me();
  } catch (_) {
    location.href = "/?next=/admin";
    return;
  }
  renderTopbar($("#topbar"), me);
  if (me) startAwaiting();
  if (!me.is_admin) {
    main.appendChild(h("div.card.form-error", { role: "alert", text: "Only an administrator may see every game." }));
    return;
  }
  const tbody = h("tbody");
  const table = h("table.admin-table", { "aria-label": "All games" }, [
    h("thead", {}, [h("tr", {}, ["Game", "Scenario", "Players", "Status", "Awaiting", "Version", "Updated", ""].map((t) => h("th", { scope: "col", text: t })))]),
    tbody,
  ]);
  add(main, h("section.card", {}, [h("div.section-title", {}, [h("h2", { text: "Every game" }), h("button.btn.small", { type: "button", text: "Refresh", onclick: load })]), table]));
  async function load() {
    let data;
    try {
      data = await api.adminGames();
    } catch (e) {
      clear(tbody).appendChild(h("tr", {}, [h("td", { colspan: 8, text: e.message })]));
      return;
    }
    clear(tbody);
    const games = data.games || [];
    if (!games.length) tbody.appendChild(h("tr", {}, [h("td.empty", { colspan: 8, text: "No games yet." })]));
    for (const g of games) {
      const seats = Object.entries(g.seats || {}).map(([s, u]) => `${s}: ${u || "—"}`).join(", ");
      tbody.appendChild(
        h("tr", { "data-game": g.id }, [
          h("td", {}, [h("code", { text: g.id })]),
          h("td", { text: g.title || g.scenario }),
          h("td", { text: seats }),
          h("td", { text: g.status + (g.result && g.result.winner ? ` (${g.result.winner} won)` : "") }),
          h("td", { text: g.awaiting ? `${g.awaiting_user || g.awaiting} ${g.awaiting_since ? ago(g.awaiting_since) : ""}` : "" }),
          h("td", { text: String(g.version) }),
          h("td", { text: ago(g.updated_at) }),
          h("td", {}, [h("a.btn.small.primary", { href: `/games/${g.id}`, text: "Watch", "aria-label": `Watch game ${g.id}` })]),
        ]),
      );
    }
  }
  load();
  setInterval(load, 20000);
}

boot();
