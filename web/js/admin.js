// /admin: every game, to watch live (read-only) or replay, and each game's messages to read and remove (issue 44;
// the players' private notes are not here: nobody but their author reads them).

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
  const messages = h("section.card#admin-messages", { hidden: true, "aria-live": "polite" });
  add(main, messages);
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
          h("td", {}, [
            h("a.btn.small.primary", { href: `/games/${g.id}`, text: "Watch", "aria-label": `Watch game ${g.id}` }),
            " ",
            h("button.btn.small", { type: "button", text: "Messages", "aria-label": `Messages of game ${g.id}`, onclick: () => showMessages(messages, g.id) }),
          ]),
        ]),
      );
    }
  }
  load();
  setInterval(load, 20000);
}

/** Every message of one game, both channels (removed ones marked), each with its Remove button. Text only. */
async function showMessages(section, gameId) {
  section.hidden = false;
  let data;
  try {
    data = await api.adminMessages(gameId);
  } catch (e) {
    add(clear(section), h("p.form-error", { role: "alert", text: e.message }));
    return;
  }
  const list = h("ol.chat-log#admin-message-list", { "aria-label": `Messages of game ${gameId}` });
  for (const m of data.messages) {
    const who = m.channel === "seats" ? `${m.side} (${m.author})` : m.author;
    list.appendChild(h(`li.chat-${m.channel}`, { "data-id": m.id }, [
      h("span.chat-channel", { text: `[${m.channel}, v${m.version}] ` }),
      h("strong.chat-who", { text: who }),
      ": ",
      h("span.chat-text", { text: m.text }),
      m.removed
        ? h("em", { text: " (removed)" })
        : h("button.btn.small", {
          type: "button", text: "Remove", "aria-label": `Remove message ${m.id}`,
          onclick: async () => {
            try {
              await api.removeMessage(m.id);
            } catch (e) {
              alert(e.message);
            }
            showMessages(section, gameId);
          },
        }),
    ]));
  }
  if (!data.messages.length) list.appendChild(h("li.empty", { text: "No messages in this game." }));
  add(clear(section), h("div.section-title", {}, [h("h2", { text: `Messages of game ${gameId}` })]), list);
}

boot();
