// Keeping the page in step with the server: the websocket's snapshot + JSON patches (a patch that does not
// start from the version held asks for a resync), commands and undo sent over it (or over HTTP while it is
// down), and what the page does after every change. The server decides everything; nothing here guesses.

import { api, accessParams, newCommandId } from "../api.js";
import { applyPatch } from "../jsonpatch.js";
import { mergeUnitDefs } from "../counters.js";
import { GameSocket } from "../ui/socket.js";
import { refreshAwaiting } from "../ui/awaiting.js";
import { S, page, adoptView, syncGameStatus, myTurn, showError } from "./store.js";
import { cancel, refreshOptions } from "./selection.js";
import { entryOf } from "./offboard.js";
import { renderAll, renderCombat } from "./panels.js";
import { renderConn } from "./turnbar.js";
import { renderLog, renderHistory } from "./history.js";
import { renderTrail } from "./trail.js";

let asyncTimer = null;

export function connect() {
  page.sock = new GameSocket(page.gameId, {
    query: accessParams(),
    onMessage,
    onState: (st, why) => {
      S.conn = st;
      renderConn(why);
    },
  });
  page.sock.connect();
}

function onMessage(msg) {
  const sock = page.sock;
  switch (msg.type) {
    case "snapshot":
      adoptView(msg.view, msg.version);
      if (Array.isArray(msg.log)) S.log = msg.log;
      afterViewChange();
      refreshAsync();
      break;
    case "patch": {
      if (msg.version <= S.version && (!msg.patch || !msg.patch.length)) break;
      let next;
      try {
        next = applyPatch(S.view, msg.patch || []);
      } catch (e) {
        sock.send({ type: "snapshot" });
        break;
      }
      if (next.version !== undefined && next.version !== msg.version) {
        // the patch did not start from what we hold: ask for a resync
        sock.send({ type: "snapshot" });
        break;
      }
      mergeUnitDefs(S.scenario, next);
      S.view = next;
      S.version = msg.version;
      syncGameStatus();
      const seen = new Set(S.log.map((e) => e.seq));
      for (const e of msg.log || []) if (!seen.has(e.seq)) S.log.push(e);
      afterViewChange();
      refreshAsync();
      break;
    }
    case "ack":
      S.pending.delete(msg.command_id);
      if (Array.isArray(msg.events)) noteEvents(msg.events);
      break;
    case "error":
      noteRefusal(S.pending.get(msg.command_id), msg);
      S.pending.delete(msg.command_id);
      showError(msg);
      if (msg.error === "stale_version") sock.send({ type: "snapshot" });
      break;
    default:
      break;
  }
}

/** After a change arrives: the clock and "your move" count may have moved (debounced). */
export function refreshAsync() {
  const panels = page.panels;
  if (panels && panels.clock) panels.renderClock(); // at once: a battle just over takes its claim and pause buttons away
  clearTimeout(asyncTimer);
  asyncTimer = setTimeout(() => {
    if (page.panels) page.panels.refresh();
    if (S.me) refreshAwaiting();
  }, 250);
}

export function afterViewChange() {
  if (page.edition.viewChanged) page.edition.viewChanged();
  // The hover card described the hex as it was (its move cost, its units): the next pointer move shows it anew.
  const tip = document.getElementById("tip");
  if (tip) tip.hidden = true;
  // selection may no longer be valid: keep only units still mine and on the map
  if (S.selected.length) {
    const where = (u) => S.view.units[u] || {};
    const still = S.offSel
      ? S.selected.filter((u) => ["offboard", "returning"].includes(where(u).status) && entryOf(u) === S.offSel)
      : S.selected.filter((u) => where(u).status === "map" && S.selHexes.includes(where(u).hex));
    if (still.length !== S.selected.length || !myTurn()) cancel(false);
    else refreshOptions();
  }
  renderAll();
}

export async function loadLog() {
  try {
    const hist = await api.history(page.gameId);
    if (hist && Array.isArray(hist.log) && hist.log.length >= S.log.length) {
      S.log = hist.log;
      renderLog();
      renderCombat();
      renderHistory();
      renderTrail();
    }
  } catch (_) {
    /* the websocket snapshot brings the log too */
  }
}

/** Send a command over the socket (or HTTP when the socket is down). */
export async function send(command, { undo = false } = {}) {
  if (S.role !== "seat" || S.history) return;
  const gameId = page.gameId;
  const command_id = newCommandId();
  S.pending.set(command_id, command);
  const msg = undo ? { type: "undo", expected_version: S.version, command_id } : { type: "command", command, expected_version: S.version, command_id };
  if (page.sock && page.sock.send(msg)) return;
  try {
    const ans = undo ? await api.undo(gameId, S.version, command_id) : await api.command(gameId, command, S.version, command_id);
    S.pending.delete(command_id);
    if (ans && ans.events) noteEvents(ans.events);
    // fetch the new state since the socket is down
    const d = await api.game(gameId);
    adoptView(d.view, d.version);
    loadLog();
    afterViewChange();
  } catch (e) {
    noteRefusal(command, e);
    S.pending.delete(command_id);
    showError(e);
  }
}

/** A refusal the edition keeps in view beside the toast (its own sentence in its own section). */
function noteRefusal(command, err) {
  if (page.edition.onRefusal) page.edition.onRefusal(command, err);
}

function noteEvents(events) {
  if (events.some((e) => e.type === "dice")) {
    S.lastCombat = events;
    renderCombat();
  }
}
