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
      const back = st === "open" && S.conn !== "open" && S.conn !== "connecting";
      S.conn = st;
      renderConn(why);
      if (back) resendPending();
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
      if (page.chat) page.chat.refresh(); // a reconnect: messages said meanwhile
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
    case "chat":
      // a message said or removed in a channel this viewer reads: read the messages anew (the frame holds none)
      if (page.chat) page.chat.refresh();
      break;
    case "clock":
      // the clock changed outside the game's state (a pause asked for, answered or ended, more time): read it anew
      if (page.panels) page.panels.refresh();
      break;
    case "ack":
      S.pending.delete(msg.command_id);
      if (Array.isArray(msg.events)) noteEvents(msg.events);
      break;
    case "error":
      noteRefusal((S.pending.get(msg.command_id) || {}).command, msg);
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
  const msg = undo ? { type: "undo", expected_version: S.version, command_id } : { type: "command", command, expected_version: S.version, command_id };
  S.pending.set(command_id, { command, msg });
  if (page.sock && page.sock.send(msg)) return;
  try {
    const ans = await overHttp(gameId, msg);
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

// No answer, or the proxy's or an overloaded process's 502/503/504: the same command id goes again after a
// backoff. A server that applied it the first time answers the repeat with that first answer and applies
// nothing twice (docs/api.md), so a retry can never move a unit twice.
const RETRYABLE = new Set([0, 502, 503, 504]);
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 4000];

async function overHttp(gameId, msg) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return msg.type === "undo"
        ? await api.undo(gameId, msg.expected_version, msg.command_id)
        : await api.command(gameId, msg.command, msg.expected_version, msg.command_id);
    } catch (e) {
      if (!RETRYABLE.has(e.status) || attempt >= RETRY_DELAYS_MS.length) throw e;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}

/** After a reconnect: a command the lost socket sent but never answered goes again with its own id (the server
 * acknowledges one it applied already, so this is safe whichever side of the break it fell). */
function resendPending() {
  for (const { msg } of S.pending.values()) page.sock.send(msg);
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
