// The game page (/games/{id}) for players, spectators and the admin.
// The server decides everything: this page shows the view it is sent, asks
// the options endpoint what is legal for the selected units, and sends
// commands. Live updates arrive on the websocket as snapshot + JSON patches.
//
// This module only boots the page: it reads the game, picks the edition the game is played by
// (editions/index.js), builds the map and wires it to the edition-neutral core (core/*.js).

import { api, ApiError } from "./api.js";
import { MapView } from "./map.js";
import { newContribution, rememberContribution } from "./ui/fairness.js";
import { h, clear, $, add } from "./ui/dom.js";
import { renderTopbar, toast } from "./ui/chrome.js";
import { startAwaiting } from "./ui/awaiting.js";
import { AsyncPanels } from "./ui/asyncpanels.js";
import { ChatPanel } from "./ui/chat.js";
import { openingView, inviteForVisitor } from "./ui/battle.js";
import { editionFor } from "./editions/index.js";
import { S, page, adoptView, setRole, currentView, sideName, showError } from "./core/store.js";
import { connect, loadLog } from "./core/sync.js";
import { onHexClick, onUnitClick, cancel } from "./core/selection.js";
import { onHover } from "./core/overlays.js";
import { renderAll } from "./core/panels.js";
import { buildTurnbar } from "./core/turnbar.js";
import { setupChrome } from "./core/controls.js";

async function boot() {
  const gameId = page.gameId;
  try {
    S.me = await api.me();
  } catch (_) {
    S.me = null;
  }
  const params = new URLSearchParams(location.search);
  let detail;
  try {
    detail = await api.game(gameId);
  } catch (e) {
    renderTopbar($("#topbar"), S.me);
    if (e instanceof ApiError && e.status === 404 && !S.me) {
      location.href = `/?next=${encodeURIComponent(location.pathname + location.search)}`;
      return;
    }
    fatal(e.message);
    return;
  }
  S.game = detail.game;
  S.scenario = await api.scenario(detail.game.scenario || detail.view.scenario, gameId);
  // the edition is the game's for good: chosen once, as the server chose its rules package
  page.edition = editionFor(detail.view.ruleset || detail.game.ruleset || S.scenario.ruleset);
  if (page.edition.scenario) S.scenario = page.edition.scenario(S.scenario); // the map's shapes (editions/index.js)
  if (page.edition.initState) page.edition.initState(S);
  adoptView(detail.view, detail.version);
  setRole(detail.viewer);

  renderTopbar($("#topbar"), S.me, buildTurnbar());
  document.title = `Vedette: ${S.scenario.title}`;
  if (page.edition.mount) page.edition.mount();
  const map = (page.map = new MapView($("#map-host"), S.scenario, { reading: page.edition.counter, marks: page.edition.mapMarks }));
  page.panels = new AsyncPanels({ gameId, S, sideName, onError: showError });
  page.chat = new ChatPanel({ gameId, S, sideName, onError: showError }, $("#messages"));
  window.vedette = { S, map, panels: page.panels, chat: page.chat, get sock() { return page.sock; } }; // for tests and debugging
  map.on("hexclick", onHexClick);
  map.on("unitclick", onUnitClick);
  map.on("hexhover", onHover);
  map.on("contextmenu", () => cancel());
  setupChrome();
  renderAll();
  openingView(map, currentView(), S.scenario, S.side);
  if (params.get("invite") && S.me && S.role !== "seat" && S.game.status === "waiting") offerJoin(params.get("invite"));
  if (params.get("invite") && !S.me && S.game.status === "waiting") inviteForVisitor($("#sec-prompt"), S.game);
  connect();
  loadLog();
  page.panels.refresh();
  page.chat.refresh();
  if (S.me) startAwaiting();
}

function fatal(msg) {
  clear($("#panel-scroll")).appendChild(h("div.form-error", { role: "alert", text: msg }));
}

/** Arrived by an invite link, logged in, not seated: offer the free seat. */
function offerJoin(token) {
  const gameId = page.gameId;
  const sec = $("#sec-prompt");
  sec.hidden = false;
  add(clear(sec),
    h("h3", { text: "Join this battle" }),
    h("p.prompt-text", { text: "You were invited to play. Take the free seat?" }),
    S.view && S.view.seed_hash
      ? h("p.whose-sub", { text: `Fair dice: the server has committed to its secret seed (SHA-256 ${S.view.seed_hash.slice(0, 16)}…); joining adds a random value drawn by your browser, so neither the server nor your opponent can choose the dice.` })
      : null,
    h("button.btn.primary", {
      type: "button",
      text: "Join the game",
      onclick: async () => {
        try {
          const contribution = newContribution();
          await api.joinGame(gameId, token, contribution);
          rememberContribution(gameId, contribution);
          location.href = `/games/${gameId}`;
        } catch (e) {
          toast(e.message, { kind: "error", rule: e.rule });
        }
      },
    }),
  );
}

boot();
