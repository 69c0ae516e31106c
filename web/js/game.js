// The game page (/games/{id}) for players, spectators and the admin.
// The server decides everything: this page shows the view it is sent, asks
// the options endpoint what is legal for the selected units, and sends
// commands. Live updates arrive on the websocket as snapshot + JSON patches.

import { api, ApiError, accessParams, newCommandId } from "./api.js";
import { applyPatch } from "./jsonpatch.js";
import { distance } from "./hexgeom.js";
import { MapView, legendSVG } from "./map.js";
import { unitDefs, counterIcon, describeUnit, mergeUnitDefs } from "./counters.js";
import { fairnessSection, newContribution, rememberContribution } from "./ui/fairness.js";
import { h, clear, $, ago, OKABE, add } from "./ui/dom.js";
import { renderTopbar, toast, confirmDialog } from "./ui/chrome.js";
import { GameSocket } from "./ui/socket.js";
import { hexInfo } from "./ui/tecinfo.js";
import { normalizeOptions } from "./ui/options.js";
import { startAwaiting, refreshAwaiting } from "./ui/awaiting.js";
import { AsyncPanels } from "./ui/asyncpanels.js";
import { explainPreview, resultKey, rangeText, optionOdds, combatPanel, logOutcome, lastCombatEvents } from "./ui/explain.js";
import { renderBattle, watchLinkControl, shortTurnLabel, openingView, replayMarks, replayJump, keyHelp } from "./ui/battle.js";
import { isStandard, standardOptions, standardPreview, standardBombardPreview, renderStandardPanel, renderStandardActions, renderStandardCombat, isEdgeHex, neighbours, TRT } from "./ui/standard.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const S = {
  me: null,
  game: null, // lobby summary of this game
  scenario: null,
  view: null, // the live view
  version: -1,
  log: [], // entries {seq, side, events, command}
  role: "spectator", // "seat" | "spectator" | "admin"
  side: null, // my side when seated
  selected: [], // unit ids
  selHex: null,
  options: null,
  optionsFor: "",
  preview: null, // {kind:"attack"|"bombard"|"charge", item}
  history: null, // {at, view, log} while stepping through history
  conn: "connecting",
  pending: new Map(), // command_id -> description
  lastCombat: null,
  chargeMode: false, // 9.2: the map shows charge targets instead of reachable hexes
  chargeHover: null, // a charge target hovered in the panel
  chargeCmds: null, // {key, list}: the combat phase's legal charge commands from the options endpoint
  chargeRefusal: null, // the rule 9.2 refusal of end_phase, shown in the Charges section
  selHexes: [], // every hex the selection takes units from (attacks combine several hexes, 7.1)
  offSel: null, // the entry hex of selected reinforcements waiting off the map (4.5), else null
  optionsKey: "", // the selection key S.options answers (tests wait for it)
  phaseOptions: null, // {key, raw}: the phase's own options (set-up areas, recovery candidates)
  builder: null, // the attack being built: {target, roles: {unit: "attack"|"support"|"out"}, leaders: Set, primary}
  stdMode: "normal", // the Standard rules: the move the page shows, "normal" or "march" (4.7)
  offMap: false, // the Standard rules: the next move leaves the map from an edge hex (4.1)
  assist: null, // the Standard rules: the leader whose movement assists the selected stack's move (10.3)
  plot: null, // the Standard rules: the path plotted hex by hex for an assisted move ([start, ...])
};
let map = null;
let sock = null;
let panels = null; // the clock and standing-orders panels (asynchronous play)
let asyncTimer = null;
const defs = () => unitDefs(S.scenario);

// ------------------------------------------------------------------ boot

async function boot() {
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
  // Arrived by an invite link, logged in, not seated: offer the free seat.
  if (params.get("invite") && S.me && detail.viewer !== detail.view.viewer) {
    /* unreachable guard kept simple below */
  }
  S.game = detail.game;
  S.scenario = await api.scenario(detail.game.scenario || detail.view.scenario, gameId);
  adoptView(detail.view, detail.version);
  setRole(detail.viewer);

  renderTopbar($("#topbar"), S.me, buildTurnbar());
  document.title = `Vedette: ${S.scenario.title}`;
  map = new MapView($("#map-host"), S.scenario);
  panels = new AsyncPanels({ gameId, S, sideName, onError: showError });
  window.vedette = { S, map, panels, get sock() { return sock; } }; // for tests and debugging
  map.on("hexclick", onHexClick);
  map.on("unitclick", onUnitClick);
  map.on("hexhover", onHover);
  map.on("contextmenu", () => cancel());
  setupChrome();
  renderAll();
  openingView(map, currentView(), S.scenario, S.side);
  if (params.get("invite") && S.me && S.role !== "seat" && S.game.status === "waiting") offerJoin(params.get("invite"));
  if (params.get("invite") && !S.me) toast("Log in or register to take the free seat in this game.", { timeout: 10000 });
  connect();
  loadLog();
  panels.refresh();
  if (S.me) startAwaiting();
}

/** After a change arrives: the clock and "your move" count may have moved (debounced). */
function refreshAsync() {
  if (panels && panels.clock) panels.renderClock(); // at once: a battle just over takes its claim and pause buttons away
  clearTimeout(asyncTimer);
  asyncTimer = setTimeout(() => {
    if (panels) panels.refresh();
    if (S.me) refreshAwaiting();
  }, 250);
}

function fatal(msg) {
  clear($("#panel-scroll")).appendChild(h("div.form-error", { role: "alert", text: msg }));
}

function setRole(viewer) {
  if (viewer && S.scenario && viewer in S.scenario.sides) {
    S.role = "seat";
    S.side = viewer;
  } else {
    S.role = viewer === "admin" ? "admin" : "spectator";
    S.side = null;
  }
}

function adoptView(view, version) {
  mergeUnitDefs(S.scenario, view);
  S.view = view;
  S.version = version ?? view.version ?? S.version;
  if (view.game && view.game.you) setRole(view.game.you);
  syncGameStatus();
}

/** The lobby row read at boot goes stale: the live view's game status and result are the truth. */
function syncGameStatus() {
  const g = S.view && S.view.game;
  if (!g || !S.game) return;
  if (g.status) S.game.status = g.status;
  if (g.result !== undefined) S.game.result = g.result;
}

function gameStatus() {
  return (S.view && S.view.game && S.view.game.status) || (S.game && S.game.status) || "active";
}

async function loadLog() {
  try {
    const hist = await api.history(gameId);
    if (hist && Array.isArray(hist.log) && hist.log.length >= S.log.length) {
      S.log = hist.log;
      renderLog();
      renderCombat();
      renderHistory();
    }
  } catch (_) {
    /* the websocket snapshot brings the log too */
  }
}

function offerJoin(token) {
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

// ------------------------------------------------------------ connection

function connect() {
  sock = new GameSocket(gameId, {
    query: accessParams(),
    onMessage,
    onState: (st, why) => {
      S.conn = st;
      renderConn(why);
    },
  });
  sock.connect();
}

function onMessage(msg) {
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

function afterViewChange() {
  if (!pendingCharges().length) S.chargeRefusal = null;
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

function showError(err) {
  const rule = err.rule || (err.body && err.body.rule);
  toast(err.message || "The server refused that.", { kind: "error", rule });
}

/** Send a command over the socket (or HTTP when the socket is down). */
async function send(command, { undo = false } = {}) {
  if (S.role !== "seat" || S.history) return;
  const command_id = newCommandId();
  S.pending.set(command_id, command);
  const msg = undo ? { type: "undo", expected_version: S.version, command_id } : { type: "command", command, expected_version: S.version, command_id };
  if (sock && sock.send(msg)) return;
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

/** 9.2: the server refuses to end the combat phase while declared charges are unmade; keep its sentence in view. */
function noteRefusal(command, err) {
  const rule = err && (err.rule || (err.body && err.body.rule));
  if (!command || command.type !== "end_phase" || !rule || !/^9\.2/.test(String(rule))) return;
  S.chargeRefusal = err.message || (err.body && err.body.message) || "Declared charges must be made first.";
  renderCharges();
}

function noteEvents(events) {
  if (events.some((e) => e.type === "dice")) {
    S.lastCombat = events;
    renderCombat();
  }
}

// ------------------------------------------------------------ interaction

function myTurn() {
  return S.role === "seat" && !S.history && S.view && gameStatus() === "active" && S.view.awaiting === S.side && S.view.phase !== "over";
}

function myUnitsIn(hex) {
  const d = defs();
  return map.unitsIn(hex).filter((u) => d[u] && d[u].side === S.side);
}

/** My units in a hex that can still act in this phase: the default selection when the hex is clicked
 *  (a moved unit cannot move again, 4.1; a unit that attacked cannot attack again, 7.1(3)). */
function actorsIn(hex) {
  const mine = myUnitsIn(hex);
  const v = S.view;
  if (!v) return mine;
  const fresh = mine.filter((u) => {
    const st = v.units[u] || {};
    if (v.phase === "movement") return !st.moved && !st.charging;
    if (v.phase === "combat") return !st.attacked;
    return true;
  });
  return fresh.length ? fresh : mine;
}

/** Can the current selection do something at `hex` (move, place, attack, bombard, charge)? */
function actionableAt(hex) {
  const o = S.options;
  if (!o || !S.selected.length || !hex) return false;
  if (S.chargeMode) return chargeMoveTargets().has(hex);
  return o.reach.has(hex) || o.attacks.some((a) => a.target === hex) || o.bombards.some((b) => b.target === hex) || o.charges.some((c) => c.kind === "charge" && c.target === hex);
}

/** Shift- or Ctrl-click (or the "add a hex" toggle) adds a hex's units to the selection: attacks
 *  from several hexes combine into one combat (7.1), several guns fire together (8.4). */
function wantsAdd(evt) {
  return !!(evt && (evt.shiftKey || evt.ctrlKey || evt.metaKey)) || S.addMode;
}

function onUnitClick(unit, hex, evt, pointerHex = null) {
  if (S.history) return onHexClick(pointerHex || hex, evt);
  const d = defs()[unit];
  const prompt = activePrompt();
  if (prompt) return onHexClick(hex, evt, unit);
  if (!d || d.side !== S.side || !myTurn()) {
    // enemy or not my turn: maybe it is an attack / bombard target
    return onHexClick(hex, evt, unit);
  }
  // 10.3: plotting an assisted move: a friendly stack's hex is a step of the path
  if (S.assist && S.plot && S.selected.length && ((pointerHex || hex) !== S.selHex || S.plot.length > 1)) return onHexClick(pointerHex || hex, evt);
  // 4.1: leaving the map from the selection's own (edge) hex
  if (S.offMap && isStandard(S.view) && hex === S.selHex && S.selected.length) return onHexClick(hex, evt);
  // a counter of the expanded selected stack lying over another hex: the click means that hex
  if (S.selected.length && pointerHex && pointerHex !== hex && pointerHex !== S.selHex && actionableAt(pointerHex)) return onHexClick(pointerHex, evt);
  // a friendly stack the selection can move onto (or place into): move there, do not select it
  if (S.selected.length && hex !== S.selHex && !S.selHexes.includes(hex) && actionableAt(hex) && !wantsAdd(evt)) return onHexClick(hex, evt);
  if (wantsAdd(evt) && S.selected.length && hex !== S.selHex) return addHex(hex);
  const inHex = actorsIn(hex);
  if (S.selHex === hex && S.selected.length && S.selHexes.length <= 1) {
    // toggle this unit in the moving group (expanded stack)
    const set = new Set(S.selected);
    if (set.has(unit)) set.delete(unit);
    else set.add(unit);
    if (!set.size) return cancel();
    select(hex, [...set]);
    return;
  }
  select(hex, inHex.length ? inHex : [unit]);
}

function onHexClick(hex, evt, unit = null) {
  if (!hex) return;
  if (S.history) return;
  const prompt = activePrompt();
  if (prompt) {
    const opts = promptOptionsAt(prompt, hex, unit);
    if (opts.length === 1) return choose(opts[0]);
    if (opts.length > 1) {
      S.promptFilter = hex;
      renderPrompt();
      return;
    }
    return;
  }
  if (!myTurn()) return;
  if (S.chargeMode) return chargeClick(hex);
  if (S.assist && S.plot && S.selected.length) return plotClick(hex);
  const o = S.options;
  if (o && S.selected.length) {
    const att = o.attacks.find((a) => a.target === hex);
    const bomb = o.bombards.find((b) => b.target === hex);
    const chg = o.charges.find((c) => c.kind === "charge" && c.target === hex);
    if (att || bomb || chg) {
      S.preview = att ? { kind: "attack", item: att, alt: bomb ? { kind: "bombard", item: bomb } : null } : bomb ? { kind: "bombard", item: bomb } : { kind: "charge", item: chg };
      if (att) startBuilder(att);
      renderOverlays();
      renderSelection();
      return;
    }
    const bad = (o.illegal || []).find((a) => a.target === hex);
    if (bad) {
      toast(bad.message || "That attack is not allowed.", { kind: "error", rule: bad.rule });
      return;
    }
    const r = o.reach.get(hex);
    if (r && r.reenter) {
      send(r.reenter); // 13.2: a unit of the TRT placed at the HQ, trains or LOC
      cancel(false);
      return;
    }
    if (isStandard(S.view) && S.offMap && (r || hex === S.selHex) && isEdgeHex(S.scenario, hex)) {
      // 4.1: the stack leaves the map from this edge hex (its own hex, or the end of its move)
      const cmd = { type: "move", units: [...S.selected], path: hex === S.selHex ? [S.selHex] : r.path, off_map: true };
      if (o.mode === "march" && !o.declaredMine) cmd.march = true;
      send(cmd);
      cancel(false);
      return;
    }
    if (r && r.place) {
      send({ type: "place", unit: S.selected[0], hex });
      cancel(false);
      return;
    }
    if (r) {
      const path = r.path && r.path.length ? r.path : [S.selHex, hex];
      const cmd = { type: "move", units: [...S.selected], path };
      if (isStandard(S.view) && o.mode === "march" && !o.declaredMine) cmd.march = true; // 4.7 (a declared move keeps its own)
      send(cmd);
      cancel(false);
      return;
    }
  }
  const mine = actorsIn(hex);
  if (mine.length && wantsAdd(evt) && S.selected.length) return addHex(hex);
  if (mine.length) return select(hex, mine);
  // an entry hex with reinforcements waiting to come on (4.5): select them
  const waiting = waitingAt(hex);
  if (waiting.length) return selectOffboard(waiting);
  cancel();
}

function select(hex, units) {
  S.selHex = hex;
  S.selHexes = hex ? [hex] : [];
  S.offSel = null;
  S.selected = units;
  S.preview = null;
  S.builder = null;
  S.chargeMode = false;
  S.addMode = false;
  S.offMap = false;
  S.assist = null;
  S.plot = null;
  S.stdMode = "normal"; // a new selection shows its normal move first (M: march, 4.7)
  map.setSelected(units);
  map.setExpanded(hex && map.unitsIn(hex).length > 1 ? hex : null);
  refreshOptions();
  renderSelection();
  renderOffboard();
}

/** Add a hex's units to the selection (combined attacks, several guns). */
function addHex(hex) {
  const more = actorsIn(hex).filter((u) => !S.selected.includes(u));
  if (!more.length) return;
  S.selHexes = [...new Set([...S.selHexes, hex])];
  S.selected = [...S.selected, ...more];
  S.preview = null;
  S.builder = null;
  S.addMode = false;
  map.setSelected(S.selected);
  refreshOptions();
  renderSelection();
}

/** Select reinforcements (or returning units) waiting off the map at one entry hex (4.5, 11.4). */
function selectOffboard(units) {
  const entry = entryOf(units[0]);
  S.stdMode = "normal";
  S.offMap = false;
  S.selHex = null;
  S.selHexes = [];
  S.offSel = entry;
  S.selected = units;
  S.preview = null;
  S.builder = null;
  S.chargeMode = false;
  map.setSelected([]);
  map.setExpanded(null);
  refreshOptions();
  renderSelection();
  renderOffboard();
  if (entry && map.grid.contains(entry)) map.centerOn(entry);
}

function cancel(render = true) {
  S.selected = [];
  S.selHex = null;
  S.selHexes = [];
  S.offSel = null;
  S.options = null;
  S.optionsFor = "";
  S.optionsKey = "";
  S.preview = null;
  S.builder = null;
  S.promptFilter = null;
  S.chargeMode = false;
  S.chargeHover = null;
  S.addMode = false;
  S.offMap = false;
  S.assist = null;
  S.plot = null;
  if (map) {
    map.setSelected([]);
    map.setExpanded(null);
  }
  if (render) {
    renderOverlays();
    renderSelection();
    renderPrompt();
    renderOffboard();
  }
}

async function refreshOptions() {
  if (!S.selected.length || !myTurn()) {
    S.options = null;
    renderOverlays();
    return;
  }
  const key = `${S.version}:${S.selected.join(",")}`;
  S.optionsFor = key;
  S.options = null;
  try {
    const raw = await api.options(gameId, S.selected);
    if (S.optionsFor !== key) return;
    if (isStandard(S.view)) {
      S.options = standardOptions(raw, { mode: S.stdMode, selected: S.selected, selHexes: S.selHexes, defs: defs(), view: S.view, shifted: (S.scenario.map || {}).shifted || "even", side: S.side, sc: S.scenario });
      S.optionsKey = key;
      const open = S.openBuilderOn && S.options.attacks.find((x) => x.target === S.openBuilderOn);
      S.openBuilderOn = null;
      if (open) {
        S.preview = { kind: "attack", item: open, alt: null };
        startBuilder(open);
      }
      renderOverlays();
      renderSelection();
      return;
    }
    const o = normalizeOptions(raw);
    const rawOpts = (raw && raw.options) || {};
    o.squares = rawOpts.squares || [];
    o.attackChoices = new Map((rawOpts.attacks || []).map((a) => [a.target, a.choices || null]));
    if (S.view.phase === "setup") {
      // 3.2: the hexes the referee allows for this unit (within its allowance of its listed hex)
      const u = S.selected[0];
      const pl = (rawOpts.placements || {})[u];
      if (S.selected.length === 1 && pl) {
        for (const hx of pl.hexes) if (hx !== S.view.units[u].hex) o.reach.set(hx, { cost: "", path: null, place: true });
        o.notes.push({ text: `Set-up: ${defs()[u].name} may be placed within ${pl.within} hex${pl.within > 1 ? "es" : ""} of ${pl.listed}. Click a shaded hex, then end the set-up.`, rule: "3.2" });
      } else if (S.selected.length > 1) {
        o.notes.push({ text: "Select one unit to place it (click it in the list above to keep only it).", rule: "3.2" });
      } else {
        o.notes.push({ text: "This unit sets up exactly at its listed hex. End the set-up when your placements are done.", rule: "3.2" });
      }
    }
    S.options = o;
    S.optionsKey = key;
    if (S.chargeMode && !chargeMoveTargets().size) S.chargeMode = false;
  } catch (e) {
    if (S.optionsFor !== key) return;
    S.options = normalizeOptions({});
    S.options.squares = [];
    S.options.attackChoices = new Map();
    S.optionsKey = key;
    showError(e);
  }
  renderOverlays();
  renderSelection();
}

/** The phase's own options, which need no selection: set-up areas (3.2) and recovery candidates (11.4). */
async function refreshPhaseOptions() {
  if (!myTurn() || !(["setup", "recovery"].includes(S.view.phase) || (isStandard(S.view) && ["movement", "combat"].includes(S.view.phase)))) {
    if (S.phaseOptions) {
      S.phaseOptions = null;
      renderPhasePanel();
      renderOverlays();
    }
    return;
  }
  const key = `${S.version}`;
  if (S.phaseOptions && S.phaseOptions.key === key) return;
  S.phaseOptions = { key, raw: null };
  try {
    const raw = await api.options(gameId, []);
    if (!S.phaseOptions || S.phaseOptions.key !== key) return;
    S.phaseOptions = { key, raw: (raw && raw.options) || {} };
  } catch (e) {
    showError(e);
    return;
  }
  renderPhasePanel();
  renderOverlays();
}

function activePrompt() {
  const v = S.history ? S.history.view : S.view;
  const p = v && v.prompt;
  if (!p || !myTurn() || p.side !== S.side) return null;
  if (p.kind === "phase" && !(p.options || []).length) return null; // "move units, then end the phase"
  return p;
}

/** Hexes an option refers to (its hex, the end of its path, its units' hexes). */
function optionHexes(opt) {
  const out = new Set();
  if (!opt || typeof opt !== "object") return out;
  if (typeof opt.hex === "string") out.add(opt.hex);
  if (typeof opt.target === "string") out.add(opt.target);
  if (typeof opt.to === "string") out.add(opt.to);
  if (Array.isArray(opt.path) && opt.path.length) out.add(opt.path[opt.path.length - 1]);
  if (Array.isArray(opt.hexes)) opt.hexes.forEach((x) => out.add(x));
  // the Standard rules' unit choices (second_step, ammo, bombard_unit, fortune): the unit's hex
  const v = S.history ? S.history.view : S.view;
  if (typeof opt.unit === "string" && isStandard(v) && v.units[opt.unit] && v.units[opt.unit].hex && v.units[opt.unit].status === "map") out.add(v.units[opt.unit].hex);
  return out;
}

function promptOptionsAt(prompt, hex, unit) {
  return (prompt.options || []).filter((o) => optionHexes(o).has(hex) || (unit && Array.isArray(o.units) && o.units.includes(unit) && o.units.length === 1) || (unit && o.unit === unit));
}

function choose(opt) {
  send({ type: "choose", option: opt.id });
  S.promptFilter = null;
}

function unitsThatCanAct() {
  if (!myTurn()) return [];
  const out = [];
  // reinforcements and returning units due now come on in the movement phase (4.5)
  if (S.view.phase === "movement") for (const x of offboardUnits()) if (x.due) out.push(x.id);
  for (const [id, u] of Object.entries(S.view.units || {})) {
    const d = defs()[id];
    if (!d || d.side !== S.side || u.status !== "map") continue;
    if (S.view.phase === "movement" && u.moved) continue;
    if (S.view.phase === "combat" && u.attacked) continue;
    out.push(id);
  }
  return out.sort();
}

function cycleUnits(dir = 1) {
  const list = unitsThatCanAct();
  if (!list.length) return;
  const cur = S.selected[0];
  const i = list.indexOf(cur);
  const next = list[(i + dir + list.length) % list.length];
  const st = S.view.units[next];
  if (st.status !== "map") return selectOffboard([next]);
  const hex = st.hex;
  select(hex, [next]);
  map.centerOn(hex);
}

async function endPhase() {
  if (!myTurn()) return;
  if (activePrompt()) {
    toast("Answer the pending decision first.", { kind: "error", rule: activePrompt().rule });
    return;
  }
  const idle = S.view.phase === "movement" ? unitsThatCanAct().filter((u) => !["leader", "hq", "trains"].includes(defs()[u].kind)) : [];
  if (idle.length) {
    const names = idle.map((u) => (defs()[u] ? defs()[u].name : u));
    const ok = await confirmDialog(`End the ${S.view.phase} phase?`, `${idle.length} unit${idle.length > 1 ? "s have" : " has"} not moved: ${names.join(", ")}.`, { ok: "End phase" });
    if (!ok) return;
  }
  cancel();
  send({ type: "end_phase" });
}

function undo() {
  if (!myTurn() && !(S.role === "seat" && !S.history)) return;
  cancel();
  send({ type: "undo" }, { undo: true });
}

// --------------------------------------------------- cavalry charges (9.2)

/** The selection's charge moves (movement phase), one per target hex: the shortest path reaching it
 *  (ties: the first the server lists), with every path kept for the record. */
function chargeMoveTargets() {
  const out = new Map();
  const o = S.options;
  if (!o || !S.view || S.view.phase !== "movement") return out;
  for (const c of o.charges) {
    if (c.kind !== "move" || !c.target || !c.command) continue;
    const len = (c.path || []).length;
    const cur = out.get(c.target);
    if (!cur) out.set(c.target, { target: c.target, command: c.command, path: c.path || [], paths: [c.path], all: [c] });
    else {
      cur.paths.push(c.path);
      cur.all.push(c);
      if (len < cur.path.length) Object.assign(cur, { command: c.command, path: c.path });
    }
  }
  return out;
}

function canCharge() {
  return myTurn() && !activePrompt() && S.selected.length > 0 && chargeMoveTargets().size > 0;
}

function setChargeMode(on) {
  const next = !!on && canCharge();
  if (S.chargeMode === next) return;
  S.chargeMode = next;
  S.chargeHover = null;
  S.preview = null;
  renderOverlays();
  renderSelection();
  const btn = $("#charge-toggle");
  if (btn) btn.focus();
}

function sendChargeMove(t) {
  send(t.command);
  cancel(false);
  renderOverlays();
  renderSelection();
}

function chargeClick(hex) {
  const t = chargeMoveTargets().get(hex);
  if (t) return sendChargeMove(t);
  const mine = myUnitsIn(hex);
  if (mine.length) return select(hex, mine);
  toast(`${hex} cannot be charged by ${isStandard(S.view) ? "these units" : "this cavalry"}. Click an outlined enemy hex, or press Esc to leave charge mode.`, { kind: "error", rule: isStandard(S.view) ? "7.13(3)" : "9.2" });
}

/** Declared charges (units with a `charging` target on the map), grouped by side and target. */
function declaredCharges() {
  const v = currentView();
  const d = defs();
  const groups = new Map();
  for (const [id, u] of Object.entries((v && v.units) || {})) {
    if (!u || !u.charging || u.status !== "map" || !d[id]) continue;
    const key = `${d[id].side}|${u.charging}`;
    if (!groups.has(key)) groups.set(key, { side: d[id].side, target: u.charging, units: [] });
    groups.get(key).units.push({ id, made: !!u.attacked, hex: u.hex });
  }
  return [...groups.values()].sort((a, b) => (a.side + a.target).localeCompare(b.side + b.target));
}

/** My declared charges still to be made. */
function pendingCharges() {
  if (S.role !== "seat" || !S.view) return [];
  return declaredCharges().filter((g) => g.side === S.side && g.units.some((u) => !u.made));
}

/** Every legal way to make a declared charge (with or without a leader), as the referee lists them. */
function chargeVariantsFor(group) {
  const list = (S.chargeCmds && S.chargeCmds.list) || [];
  const legal = list.filter((c) => c.target === group.target && c.command).map((c) => c.command);
  return legal.length ? legal : [chargeCommandFor(group)];
}

function chargeCommandFor(group) {
  const chargers = group.units.filter((u) => !u.made).map((u) => u.id);
  const list = (S.chargeCmds && S.chargeCmds.list) || [];
  const legal = list.filter((c) => c.target === group.target && c.command);
  // the rules core lists the plain charge first, then the same charge with its leaders: take the fullest
  const best = legal.length ? legal[legal.length - 1].command : null;
  return best || { type: "charge", target: group.target, chargers };
}

async function refreshChargeCmds() {
  const pend = pendingCharges();
  if (!pend.length || !myTurn() || S.view.phase !== "combat") return;
  const units = pend.flatMap((g) => g.units.filter((u) => !u.made).map((u) => u.id)).sort();
  const key = `${S.version}:${units.join(",")}`;
  if (S.chargeCmds && S.chargeCmds.key === key) return;
  S.chargeCmds = { key, list: [] };
  try {
    const raw = await api.options(gameId, units);
    if (S.chargeCmds.key !== key) return;
    S.chargeCmds = { key, list: normalizeOptions(raw).charges.filter((c) => c.kind === "charge") };
  } catch (_) {
    /* the built command is sent instead; the server judges it */
  }
  renderCharges();
}

function renderCharges() {
  const sec = $("#sec-charges");
  if (!sec) return;
  const groups = declaredCharges();
  if (!groups.length) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const v = currentView();
  const d = defs();
  const canAct = !S.history && myTurn() && v.phase === "combat" && !activePrompt();
  sec.appendChild(h("h3", {}, ["Charges", h("span.rule", { text: "rule 9.2" })]));
  const ul = h("ul.charge-list#charge-list", { "aria-label": "Declared cavalry charges" });
  for (const g of groups) {
    const mine = S.role === "seat" && g.side === S.side;
    const open = g.units.filter((u) => !u.made);
    const names = g.units.map((u) => `${d[u.id] ? d[u.id].name : u.id}${u.hex ? " (" + u.hex + ")" : ""}${u.made ? ": charged" : ""}`).join(", ");
    const li = h("li.charge-item", { "data-target": g.target, "data-side": g.side }, [
      h("span.side-dot", { style: `background:${(S.scenario.sides[g.side] || {}).color || "#888"}`, "aria-hidden": "true" }),
      h("span.charge-text", { text: `${mine ? "" : sideName(g.side) + ": "}${names} → ${g.target}` }),
    ]);
    if (mine && open.length && canAct) {
      const variants = chargeVariantsFor(g);
      const many = open.length > 1;
      for (const cmd of variants) {
        const withL = (cmd.leaders || []).map((l) => (d[l] ? d[l].name : l));
        const order = (cmd.chargers || []).map((u) => (d[u] ? d[u].name : u));
        const who = many && order.length ? ` ${order.length < open.length ? "only " : ""}${order.join(" then ")}` : "";
        li.appendChild(h("button.btn.small.primary.charge-go", {
          type: "button",
          "data-target": g.target,
          "data-command": JSON.stringify(cmd),
          "aria-label": `Charge! Make the declared charge of ${open.map((u) => (d[u.id] ? d[u.id].name : u.id)).join(", ")} against ${g.target}${withL.length ? " with " + withL.join(", ") : ""}`,
          onmouseenter: () => { S.chargeHover = g.target; renderOverlays(); },
          onmouseleave: () => { S.chargeHover = null; renderOverlays(); },
          onclick: () => {
            cancel(false);
            send(cmd);
          },
        }, `Charge!${who}${withL.length ? " with " + withL.join(", ") : ""}`));
        li.appendChild(optionOdds(((S.chargeCmds && S.chargeCmds.list) || []).find((c) => c.command && JSON.stringify(c.command) === JSON.stringify(cmd))) || h("span"));
      }
    } else if (!open.length) li.appendChild(h("span.muted.charge-done", { text: "made" }));
    ul.appendChild(li);
  }
  sec.appendChild(ul);
  const mineOpen = pendingCharges().length > 0;
  let note;
  if (mineOpen && v.phase === "combat") note = "Cavalry that declared a charge in the movement phase must now make it: press Charge! for each target. Declared charges must be made before the combat phase can end.";
  else if (mineOpen) note = "These charges were declared by the charge moves. They are made in your combat phase, which cannot end until every declared charge has been made.";
  else if (groups.some((g) => g.side !== S.side && g.units.some((u) => !u.made))) note = "Enemy cavalry has declared these charges; they are made in its combat phase.";
  if (note) sec.appendChild(h("div.whose-sub#charge-note", { text: note }));
  if (S.chargeRefusal) sec.appendChild(h("div.form-error#charge-refusal", { role: "alert" }, [S.chargeRefusal, h("span.rule", { text: "rule 9.2", style: "margin-left:6px" })]));
  if (canAct && mineOpen) refreshChargeCmds();
}

// ------------------------------------------- selection toggles, off-map units

/** Include or leave out one unit of the selection (a stack's units, guns, waiting reinforcements). */
function toggleSelected(u) {
  const set = new Set(S.selected);
  if (set.has(u)) set.delete(u);
  else set.add(u);
  if (!set.size) return cancel();
  const keep = S.selected.filter((x) => set.has(x)).concat([...set].filter((x) => !S.selected.includes(x)));
  S.selected = keep;
  S.preview = null;
  S.builder = null;
  map.setSelected(S.offSel ? [] : keep);
  refreshOptions();
  renderSelection();
  renderOffboard();
}

/** My units waiting off the map at an entry hex: reinforcements (4.5) and units returning by step
 *  recovery (11.4) whose turn has come (all of them, due or not, with `all`). */
function waitingAt(entry, all = false) {
  return offboardUnits().filter((x) => x.entry === entry && (all || x.due)).map((x) => x.id);
}

/** Where a unit off the map comes on: its entry hex (4.5), or the Standard rules' turn record track (13.2). */
function entryOf(id) {
  const u = (S.view && S.view.units[id]) || {};
  if (u.entry_hex) return u.entry_hex;
  return u.status === "returning" && isStandard(S.view) ? TRT : null;
}

/** My units off the map that will or may come on: {id, status, entry, turn, due}. */
function offboardUnits() {
  const v = S.view;
  if (!v || S.role !== "seat") return [];
  const out = [];
  for (const [id, u] of Object.entries(v.units || {})) {
    const d = defs()[id];
    if (!d || d.side !== S.side || !u || !["offboard", "returning"].includes(u.status)) continue;
    const due = u.entry_turn !== undefined && u.entry_turn !== null && u.entry_turn <= v.turn && !u.moved;
    out.push({ id, status: u.status, entry: entryOf(id), turn: u.entry_turn ?? null, due });
  }
  return out.sort((a, b) => (a.turn ?? 99) - (b.turn ?? 99) || String(a.entry).localeCompare(String(b.entry)) || a.id.localeCompare(b.id));
}

/** The holding box: my units off the map, when they arrive and where; those due now can be selected
 *  (click, or click their entry hex on the map) and moved on like any stack (4.5). */
function renderOffboard() {
  const sec = $("#sec-offboard");
  if (!sec) return;
  const list = S.history || (S.view && S.view.phase === "over") ? [] : offboardUnits();
  if (!list.length) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const v = S.view;
  const canMove = myTurn() && v.phase === "movement" && v.active === S.side && !activePrompt();
  const std = isStandard(v);
  sec.appendChild(h("h3", {}, ["Off the map", h("span.rule", { text: std ? "rules 13.1, 13.2" : "rules 4.5, 11.4" })]));
  const dueNow = list.filter((x) => x.due);
  let note;
  if (std && dueNow.length && canMove) note = "Due now: select one, then click a shaded hex. A reinforcement enters at its entry hex (13.1); a unit of the turn record track is placed on or next to the active HQ, next to the active trains, or on or next to a LOC hex (13.2).";
  else if (dueNow.length && canMove) note = "Due now: select one (or several sharing an entry hex), then click a shaded hex to bring it on. The first hex entered is paid for; a blocked entry hex may be slid along the edge (4.5).";
  else if (dueNow.length) note = "Due now: they come on in your movement phase.";
  else note = "Arriving later, as listed.";
  sec.appendChild(h("div.whose-sub", { text: note }));
  const ul = h("div.off-units#off-units", { role: "group", "aria-label": "Units off the map" });
  for (const x of list) {
    const on = S.selected.includes(x.id);
    const at = x.entry === TRT ? "from the TRT" : `at ${x.entry}`;
    const when = x.due ? `now ${at}` : x.turn ? `turn ${x.turn} ${at}` : "not scheduled";
    const b = h(`button.off-unit${x.due ? ".due" : ""}`, {
      type: "button",
      "data-unit": x.id,
      "data-entry": x.entry || "",
      "aria-pressed": on ? "true" : "false",
      disabled: !(x.due && canMove),
      title: `${defs()[x.id].name}: ${x.status === "returning" ? "returning after step recovery" : "reinforcement"}, ${when}`,
      onclick: () => {
        if (S.offSel && S.offSel === x.entry) return toggleSelected(x.id);
        selectOffboard([x.id]);
      },
    }, [counterIcon(S.scenario, x.id, v.units[x.id], 34), h("span.off-when", { text: `${x.status === "returning" ? "returns " : ""}${when}` })]);
    ul.appendChild(b);
  }
  sec.appendChild(ul);
}

/** The phase's own panel: where each counter may be set up (3.2), and which units may try step
 *  recovery and what they need (11.4). */
function renderPhasePanel() {
  const sec = $("#sec-phase");
  if (!sec) return;
  const raw = S.phaseOptions && S.phaseOptions.raw;
  const v = S.view;
  if (!raw || S.history || !myTurn() || activePrompt()) {
    sec.hidden = true;
    return;
  }
  clear(sec);
  if (isStandard(v) && v.phase === "movement") {
    renderStandardActions(sec, {
      raw, view: v, defs: defs(), declared: !!(v.standard && v.standard.declared),
      onCommand: (c) => { cancel(false); send(c); },
      onReenter: (u) => selectOffboard([u]),
    });
    return;
  }
  if (isStandard(v) && v.phase === "combat") {
    renderStandardCombat(sec, { raw, view: v, defs: defs(), onCharge: makeCharge });
    return;
  }
  if (v.phase === "setup") {
    const pl = raw.placements || {};
    const ids = Object.keys(pl);
    sec.hidden = false;
    sec.appendChild(h("h3", {}, ["Set-up", h("span.rule", { text: "rule 3.2" })]));
    if (!ids.length) {
      sec.appendChild(h("div.whose-sub", { text: "Every counter of yours sets up exactly at its listed hex: nothing to place. End the set-up (E)." }));
      return;
    }
    sec.appendChild(h("div.whose-sub", { text: "These counters may be placed within the outlined area around their listed hex: select one here or on the map, then click a shaded hex. The rest set up exactly where listed. End the set-up (E) when done." }));
    const ul = h("div.off-units#setup-units", { role: "group", "aria-label": "Counters that may be placed" });
    for (const id of ids) {
      const u = v.units[id] || {};
      ul.appendChild(h("button.off-unit.due", { type: "button", "data-unit": id, title: `${defs()[id].name}: within ${pl[id].within} of ${pl[id].listed}`, onclick: () => { select(u.hex, [id]); if (u.hex) map.centerOn(u.hex); } }, [counterIcon(S.scenario, id, u, 34), h("span.off-when", { text: `within ${pl[id].within} of ${pl[id].listed}` })]));
    }
    sec.appendChild(ul);
    return;
  }
  if (v.phase === "recovery") {
    const rows = raw.recovery || [];
    sec.hidden = false;
    sec.appendChild(h("h3", {}, ["Step recovery", h("span.rule", { text: "rule 11.4" })]));
    const left = (v.replacements || {})[S.side];
    const ok = rows.filter((r) => r.ok);
    sec.appendChild(h("div.whose-sub#recovery-note", { text: ok.length ? `You have ${left ?? "some"} replacement step${left === 1 ? "" : "s"}. A unit recovers a step if its morale die is at most the rating shown (1 always passes, 6 always fails); an eliminated unit that passes returns later at your return hex. Each try uses a step. End the phase (E) when done.` : `No unit of yours can try step recovery now${left === 0 ? ": no replacement steps are left" : ""}. End the phase (E).` }));
    const ul = h("ul.recovery-list#recovery-list");
    for (const r of rows) {
      const name = defs()[r.unit] ? defs()[r.unit].name : r.unit;
      const li = h("li.recovery-item", { "data-unit": r.unit }, [counterIcon(S.scenario, r.unit, v.units[r.unit], 30), h("span", { text: `${name}${r.eliminated ? " (eliminated)" : r.hex ? " in " + r.hex : ""}: ` })]);
      if (!r.ok) {
        li.appendChild(h("span.muted", { text: r.message || "cannot recover now" }));
        if (r.rule) li.appendChild(h("span.rule", { text: `rule ${r.rule}`, style: "margin-left:6px" }));
      } else {
        li.appendChild(h("span", { text: `needs a morale die ≤ ${r.morale}${(r.leaders || []).length ? " (more with a leader)" : ""} ` }));
        let leaderSel = null;
        if ((r.leaders || []).length) {
          leaderSel = h("select.recover-leader", { "data-unit": r.unit, "aria-label": `Leader supporting ${name}'s recovery (rule 10.0(5))` }, [
            h("option", { value: "", text: "best leader (automatic)" }),
            ...r.leaders.map((l) => h("option", { value: l.id, text: `${defs()[l.id] ? defs()[l.id].name : l.id} (+${l.morale})` })),
          ]);
          li.appendChild(leaderSel);
        }
        li.appendChild(h("button.btn.small.primary.recover-go", {
          type: "button",
          "data-unit": r.unit,
          text: "Recover",
          onclick: () => {
            const cmd = { type: "recover", unit: r.unit };
            if (leaderSel && leaderSel.value) cmd.leader = leaderSel.value;
            send(cmd);
          },
        }));
      }
      ul.appendChild(li);
    }
    sec.appendChild(ul);
    return;
  }
  sec.hidden = true;
}

// ------------------------------------------------- the attack builder (7.1–7.2, 8.4, 10.0)

/** Open the builder on an attack target: each selected unit that may take part attacks (or, for a gun,
 *  supports), leaders as the referee proposed, the proposed primary. */
function startBuilder(att) {
  const ch = (S.options.attackChoices && S.options.attackChoices.get(att.target)) || { attackers: att.attackers || [], support: att.support || [], leaders: [] };
  const cmd = att.command || {};
  const roles = {};
  for (const u of ch.attackers || []) roles[u] = (cmd.attackers || []).includes(u) ? "attack" : "out";
  for (const u of ch.support || []) if (!(u in roles) || roles[u] === "out") roles[u] = (cmd.support || []).includes(u) ? "support" : roles[u] || "out";
  S.builder = {
    target: att.target,
    choices: ch,
    roles,
    leaders: new Set(cmd.leaders || []),
    primary: cmd.primary || null,
    tactic: cmd.tactic || "none", // 7.13: the attacker's announced tactic (Standard rules)
    coordinator: cmd.coordinator || "", // 7.14: the leader who coordinates the attack (Standard rules)
    tacticNotes: {}, // 7.13: why each other tactic is refused for these units (Standard rules)
    preview: att.legal === false ? null : att.preview,
    refusal: att.legal === false ? { rule: att.rule, message: att.message } : null,
    seq: 0,
    probeSeq: 0,
  };
  if (isStandard(S.view)) {
    if (!S.builder.preview && !S.builder.refusal) refreshBuilderPreview();
    else probeTactics();
  }
}

/** 7.13: the Standard attack builder's tactic list says which tactics the referee refuses for the units chosen
 *  now, and why (each asked of the preview; the choice stays open, the preview judges it). */
async function probeTactics() {
  const b = S.builder;
  if (!b || !isStandard(S.view)) return;
  const seq = ++b.probeSeq;
  const base = builtCommand();
  if (!base.attackers.length) return;
  const notes = {};
  await Promise.all(STD_TACTICS.map(async ([t]) => {
    if (t === (base.tactic || "none")) return; // the builder's own preview judges the chosen one
    const cmd = { ...base };
    if (t === "none") delete cmd.tactic;
    else cmd.tactic = t;
    try {
      const p = (await api.preview(gameId, cmd)).preview || {};
      if (!p.legal) notes[t] = { rule: p.rule, message: p.message };
    } catch (e) {
      notes[t] = { rule: e.rule, message: e.message };
    }
  }));
  if (!S.builder || S.builder !== b || b.probeSeq !== seq) return;
  b.tacticNotes = notes;
  renderSelection();
}

/** 7.13: the attacker's tactics (last stand, 7.13(5), is the defender's answer). */
const STD_TACTICS = [
  ["none", "no tactic (a plain attack)", "7.13"],
  ["skirmish", "skirmish", "7.13(1)"],
  ["press", "press forward", "7.13(2)"],
  ["charge", "charge (declared in the movement phase)", "7.13(3), 9.3"],
  ["disengage", "disengage", "7.13(4)"],
];

function builtCommand() {
  const b = S.builder;
  const order = [...(b.choices.attackers || []), ...(b.choices.support || [])];
  const attackers = [...new Set(order.filter((u) => b.roles[u] === "attack"))];
  const support = [...new Set(order.filter((u) => b.roles[u] === "support"))];
  const primary = attackers.includes(b.primary) ? b.primary : attackers[0] || null;
  const cmd = { type: "attack", target: b.target, attackers, primary };
  const leaders = (b.choices.leaders || []).filter((l) => b.leaders.has(l));
  if (leaders.length) cmd.leaders = leaders;
  if (support.length) cmd.support = support;
  if (b.tactic && b.tactic !== "none") cmd.tactic = b.tactic;
  if (b.coordinator) cmd.coordinator = b.coordinator;
  return cmd;
}

async function refreshBuilderPreview(probe = true) {
  const b = S.builder;
  if (!b) return;
  if (probe && isStandard(S.view)) probeTactics();
  const seq = ++b.seq;
  const cmd = builtCommand();
  b.loading = true;
  renderSelection();
  if (!cmd.attackers.length) {
    b.preview = null;
    b.refusal = { rule: "7.1", message: "choose at least one attacking unit" };
    b.loading = false;
    renderSelection();
    return;
  }
  try {
    const ans = await api.preview(gameId, cmd);
    if (!S.builder || S.builder.seq !== seq) return;
    const p = ans.preview || {};
    b.preview = p.legal ? p : null;
    b.refusal = p.legal ? null : { rule: p.rule, message: p.message };
  } catch (e) {
    if (!S.builder || S.builder.seq !== seq) return;
    b.preview = null;
    b.refusal = { rule: e.rule, message: e.message };
  }
  b.loading = false;
  renderSelection();
}

function renderBuilder() {
  const b = S.builder;
  const d = defs();
  const v = S.view;
  const name = (u) => (d[u] ? d[u].name : u);
  const std = isStandard(v);
  const box = h("div.panel-section#preview", { style: "margin-top:8px;border-color:#d55e00" }, [h("h3", {}, [`Attack ${b.target}`, h("span.rule", { text: std ? "rules 7.1–7.14, 8.8, 10.3" : "rules 7.1–7.2, 8.4, 10.0" })])]);
  const roleRows = h("div.builder-units#builder-units", { role: "group", "aria-label": "Who takes part" });
  const units = [...new Set([...(b.choices.attackers || []), ...(b.choices.support || [])])];
  for (const u of units) {
    const opts = [];
    if ((b.choices.attackers || []).includes(u)) opts.push(["attack", "attacks"]);
    if ((b.choices.support || []).includes(u)) opts.push(["support", std ? "supporting fire (8.8)" : "supporting fire (8.4)"]);
    opts.push(["out", "stays out"]);
    const sel = h("select.builder-role", { "data-unit": u, "aria-label": `Role of ${name(u)}` }, opts.map(([val, txt]) => h("option", { value: val, text: txt, selected: b.roles[u] === val })));
    sel.value = b.roles[u] || "out";
    sel.addEventListener("change", () => { b.roles[u] = sel.value; refreshBuilderPreview(); });
    roleRows.appendChild(h("div.builder-row", {}, [counterIcon(S.scenario, u, v.units[u], 28), h("span", { text: `${name(u)} (${(v.units[u] || {}).hex || ""})` }), sel]));
  }
  for (const l of b.choices.leaders || []) {
    const cb = h("input.builder-leader", { type: "checkbox", "data-unit": l, checked: b.leaders.has(l) });
    cb.checked = b.leaders.has(l);
    cb.addEventListener("change", () => { if (cb.checked) b.leaders.add(l); else b.leaders.delete(l); refreshBuilderPreview(); });
    const spent = std && ((v.standard && v.standard.assisted) || []).includes(l) ? " — has assisted this turn" : "";
    roleRows.appendChild(h("label.builder-row", {}, [cb, std ? ` ${name(l)} (${(v.units[l] || {}).hex || ""}) joins a unit of his hex, adding his combat factor (10.3; one assist a turn${spent})` : ` ${name(l)} (${(v.units[l] || {}).hex || ""}) adds its factors (10.0; one leader per hex)`]));
  }
  box.appendChild(roleRows);
  for (const r of b.choices.refused || []) box.appendChild(h("div.whose-sub", {}, [`${name(r.unit)} cannot take part: ${r.message}`, h("span.rule", { text: `rule ${r.rule}`, style: "margin-left:6px" })]));
  const cmd = builtCommand();
  if (cmd.attackers.length > 1) {
    const ps = h("select#builder-primary", { "aria-label": "Primary unit (rule 7.2(1))" }, cmd.attackers.map((u) => h("option", { value: u, text: name(u), selected: u === cmd.primary })));
    ps.value = cmd.primary;
    ps.addEventListener("change", () => { b.primary = ps.value; refreshBuilderPreview(); });
    box.appendChild(h("label.builder-row", {}, [std ? "Primary unit (it takes the result's morale check and step loss, 7.5): " : "Primary unit (its morale decides a lost combat, 7.2(1)): ", ps]));
  }
  if (std) {
    // 7.13: the tactic the attacker announces (the defender answers with its own, a decision of its player)
    const ts = h("select#builder-tactic", { "aria-label": "Tactic (rule 7.13)" }, STD_TACTICS.map(([t, label, rule]) => {
      const no = b.tacticNotes[t];
      return h("option", { value: t, "data-refused": no ? "true" : "false", text: `${label} (${rule})${no ? ` — not now: ${no.message}` : ""}`, selected: b.tactic === t });
    }));
    ts.value = b.tactic || "none";
    ts.addEventListener("change", () => { b.tactic = ts.value; refreshBuilderPreview(); });
    box.appendChild(h("label.builder-row", {}, ["Tactic: ", ts, h("span.rule", { text: "rule 7.13", style: "margin-left:6px" })]));
    const listed = (b.choices.tactics || []).filter((t) => t !== "none");
    if (listed.length) box.appendChild(h("div.whose-sub#builder-tactics-hint", { text: `The referee lists ${listed.map((t) => (STD_TACTICS.find(([x]) => x === t) || [t, t])[1]).join(", ")} for this target.` }));
    // 7.14: an attack by several formations is coordinated by a leader whose command span covers them
    const leaders = b.choices.leaders || [];
    if (leaders.length) {
      const cs = h("select#builder-coordinator", { "aria-label": "Coordinating leader (rule 7.14)" }, [
        h("option", { value: "", text: "nobody (one formation, or the other formations are halved)", selected: !b.coordinator }),
        ...leaders.map((l) => h("option", { value: l, text: `${name(l)} (${(v.units[l] || {}).hex || ""})`, selected: b.coordinator === l })),
      ]);
      cs.value = b.coordinator || "";
      cs.addEventListener("change", () => { b.coordinator = cs.value; refreshBuilderPreview(); });
      box.appendChild(h("label.builder-row", {}, ["Coordinated by: ", cs, h("span.rule", { text: "rules 7.14, 19.1", style: "margin-left:6px" })]));
    }
  }
  if (b.loading) box.appendChild(h("div.whose-sub", { text: "Asking the referee for the odds…" }));
  else if (b.refusal) box.appendChild(h("div.form-error#builder-refusal", { role: "alert" }, [b.refusal.message || "Not allowed.", b.refusal.rule ? h("span.rule", { text: `rule ${b.refusal.rule}`, style: "margin-left:6px" }) : null]));
  else if (b.preview) box.appendChild(std ? standardPreview(b.preview, name) : explainPreview("attack", { preview: b.preview }, name));
  const confirm = h("button.btn.primary#confirm-action", {
    type: "button",
    text: std && cmd.tactic ? `Confirm attack (${(STD_TACTICS.find(([t]) => t === cmd.tactic) || [0, cmd.tactic])[1]})` : "Confirm attack",
    disabled: !!(b.loading || b.refusal || !cmd.attackers.length),
    onclick: () => {
      send(builtCommand());
      cancel();
    },
  });
  const acts = h("div.actions", {}, [confirm, h("button.btn", { type: "button", text: "Cancel (Esc)", onclick: () => { S.preview = null; S.builder = null; renderSelection(); renderOverlays(); } })]);
  if (S.preview && S.preview.alt) {
    acts.appendChild(h("button.btn#preview-switch", { type: "button", text: "Bombard instead", onclick: () => { S.preview = { ...S.preview.alt, alt: S.preview }; S.builder = null; renderSelection(); renderOverlays(); } }));
  }
  box.appendChild(acts);
  return box;
}

/** 7.13(3), 9.3: select a declared charge's units and open the attack builder on its target (tactic: charge). */
function makeCharge(cmd) {
  const hx = (S.view.units[cmd.attackers[0]] || {}).hex;
  if (!hx) return;
  select(hx, actorsIn(hx).filter((u) => cmd.attackers.includes(u) || (cmd.leaders || []).includes(u)));
  S.openBuilderOn = cmd.target;
  map.centerOn(cmd.target);
}

/** 8.4: a Standard bombardment's preview (its fire groups and results), asked of the referee when first shown. */
async function stdBombardPreview(item) {
  item.loading = true;
  try {
    const p = (await api.preview(gameId, item.command)).preview || {};
    item.preview = p.legal ? p : null;
    item.refusal = p.legal ? null : { rule: p.rule, message: p.message };
  } catch (e) {
    item.refusal = { rule: e.rule, message: e.message };
  }
  item.loading = false;
  renderSelection();
}

// ----------------------------------------------------------- rendering

function currentView() {
  return S.history ? S.history.view : S.view;
}

function renderAll() {
  const v = currentView();
  map.setView(mapView(v));
  renderTurnbar();
  renderStatus();
  renderBattle($("#sec-battle"), { scenario: S.scenario, view: v, side: S.side });
  renderPrompt();
  renderSelection();
  renderOffboard();
  renderPhasePanel();
  refreshPhaseOptions();
  renderCharges();
  renderStandard();
  renderActions();
  renderHistory();
  renderLog();
  renderCombat();
  renderOverlays();
  renderGameOver();
}

/** The view as the map draws it: the Standard rules' inactive HQs and trains show their flipped side, marched
 *  units say so (12.1, 12.2, 4.7). */
function mapView(v) {
  if (!isStandard(v) || !v.standard) return v;
  const inactive = new Set(v.standard.inactive || []);
  const marched = new Set(v.standard.marched || []);
  if (!inactive.size && !marched.size) return v;
  const units = {};
  for (const [id, u] of Object.entries(v.units || {})) units[id] = inactive.has(id) || marched.has(id) ? { ...u, inactive: inactive.has(id), marched: marched.has(id) } : u;
  return { ...v, units };
}

/** The Standard panel: light, HQ and trains, the declared move (with Stay), FOW owed, the turn record track. */
function renderStandard() {
  const sec = $("#sec-standard");
  if (!sec) return;
  const v = currentView();
  if (!isStandard(v)) {
    sec.hidden = true;
    return;
  }
  const d = v.standard && v.standard.declared;
  const ownDeclared = !!d && d.units.every((u) => defs()[u] && defs()[u].side === S.side);
  renderStandardPanel(sec, {
    scenario: S.scenario, view: v, defs: defs(), sideName, mine: !S.history && myTurn() && !activePrompt(), ownDeclared,
    onStay: () => stay(),
    onSelectDeclared: () => selectDeclared(),
  });
}

/** 4.4: the declared units do not move after all. */
function stay() {
  const d = S.view && S.view.standard && S.view.standard.declared;
  if (!myTurn() || !d) return;
  cancel();
  send({ type: "stay" });
}

/** 4.4: select the units whose move was declared, to click where they go. */
function selectDeclared() {
  const d = S.view && S.view.standard && S.view.standard.declared;
  if (!d) return;
  const st = S.view.units[d.units[0]] || {};
  if (st.status === "map") {
    select(st.hex, [...d.units]);
    map.centerOn(st.hex);
  } else selectOffboard([...d.units]);
}

/** 4.4: declare the selection's move (or march) whose MA must be rolled: the roll is made at once. */
function declareMove() {
  const o = S.options;
  if (!myTurn() || !isStandard(S.view) || !o || !o.move || !o.move.declare || !S.selected.length) return;
  const cmd = { type: "declare", units: [...S.selected] };
  if (o.mode === "march") cmd.march = true;
  else if (S.assist) cmd.assist = S.assist; // 10.3: the leader's movement is added to the rolled MA
  send(cmd);
}

/** 10.3: the leaders of the selection who could assist its normal move (moving with the stack, combat units in it). */
function assistLeaders() {
  const o = S.options;
  if (!isStandard(S.view) || S.view.phase !== "movement" || !o || !o.std || o.declaredMine || o.mode === "march" || S.offSel || S.selHexes.length !== 1) return [];
  const d = defs();
  if (!S.selected.some((u) => d[u] && !["leader", "hq", "trains"].includes(d[u].kind))) return [];
  const assisted = new Set((S.view.standard && S.view.standard.assisted) || []); // 10.3: one assist a turn
  return S.selected.filter((u) => d[u] && d[u].kind === "leader" && !(S.view.units[u] || {}).ineffective && !assisted.has(u));
}

/** 10.3: the leader's movement assist (A): off, then each leader of the selection in turn. With it on, a move
 *  whose MA is rolled is declared with it (D); any other is plotted hex by hex on the map (the referee's options
 *  give the reach of the unassisted move only) and sent by clicking its last hex again or Enter. */
function toggleAssist() {
  const ls = assistLeaders();
  if (!ls.length) {
    if (S.assist) S.assist = null;
    return;
  }
  const i = ls.indexOf(S.assist);
  S.assist = i + 1 < ls.length ? ls[i + 1] : null;
  S.plot = S.assist && !(S.options.move && S.options.move.declare) ? [S.selHex] : null;
  S.offMap = false;
  renderOverlays();
  renderSelection();
}

/** 10.3: a click while plotting an assisted move: extend the path to a neighbour of its end, step back to an
 *  earlier hex, or send it (its last hex again). */
function plotClick(hex) {
  const path = S.plot;
  const end = path[path.length - 1];
  if (hex === end && path.length > 1) return sendPlot();
  const at = path.indexOf(hex);
  if (at >= 0) {
    S.plot = path.slice(0, at + 1);
  } else if (distance(end, hex, (S.scenario.map || {}).shifted || "even") === 1 && map.grid.contains(hex)) {
    S.plot = [...path, hex];
  } else {
    toast(`${hex} is not next to ${end}: plot the move one hex at a time (or press A to stop the leader's assist).`, { kind: "error", rule: "10.3" });
    return;
  }
  renderOverlays();
  renderSelection();
}

function sendPlot() {
  if (!S.plot || S.plot.length < 2 || !S.assist) return;
  send({ type: "move", units: [...S.selected], path: [...S.plot], assist: S.assist });
  cancel(false);
}

/** 4.7: show the march move instead of the normal one, or back. */
function toggleMarch() {
  if (!isStandard(S.view) || !S.selected.length || !S.options || !S.options.std) return;
  const raw = S.options.std;
  if (S.options.declaredMine) return;
  const next = S.stdMode === "march" ? "normal" : "march";
  if (!raw[next]) {
    const err = raw[`${next}_error`];
    if (err) toast(err.message, { kind: "error", rule: err.rule });
    return;
  }
  S.stdMode = next;
  S.options = standardOptions({ options: raw }, { mode: S.stdMode, selected: S.selected, selHexes: S.selHexes, defs: defs(), view: S.view, shifted: (S.scenario.map || {}).shifted || "even", side: S.side, sc: S.scenario });
  renderOverlays();
  renderSelection();
}

/** 4.1: the next click on an edge hex takes the selection off the map. */
function toggleOffMap() {
  if (!isStandard(S.view) || !S.selected.length || S.offSel || S.view.phase !== "movement") return;
  S.offMap = !S.offMap;
  renderOverlays();
  renderSelection();
}

/** The Standard rules' move bar in the selection panel: normal or march, declare, leave the map, stay. */
function standardMoveBar(o) {
  const bar = h("div.actions.std-move-bar#std-move-bar", { style: "margin-top:6px" });
  const raw = o.std || {};
  if (!o.declaredMine) {
    for (const m of ["normal", "march"]) {
      if (!raw[m]) continue;
      bar.appendChild(h(`button.btn.small.std-mode${o.mode === m ? ".on" : ""}`, { type: "button", id: `std-mode-${m}`, "aria-pressed": o.mode === m ? "true" : "false", title: m === "march" ? "rule 4.7" : "rule 4.2", onclick: () => { if (o.mode !== m) toggleMarch(); } }, m === "march" ? ["March ", h("kbd", { text: "M" })] : "Normal move"));
    }
  }
  if (o.move && o.move.declare) bar.appendChild(h("button.btn.small.primary#std-declare", { type: "button", title: "rule 4.4", onclick: declareMove }, [`Declare the ${o.mode === "march" ? "march" : "move"} and roll its MA `, h("kbd", { text: "D" })]));
  if (o.declaredMine) bar.appendChild(h("button.btn.small#std-stay-sel", { type: "button", title: "rule 4.4", onclick: stay }, ["Stay ", h("kbd", { text: "S" })]));
  const helpers = assistLeaders();
  if (helpers.length) {
    const nm = (u) => (defs()[u] ? defs()[u].name : u);
    bar.appendChild(h(`button.btn.small#std-assist${S.assist ? ".on" : ""}`, { type: "button", "aria-pressed": S.assist ? "true" : "false", "data-assist": S.assist || "", title: "rule 10.3", onclick: toggleAssist }, [S.assist ? `${nm(S.assist)} assists the move ` : `Leader's movement assist (${helpers.map(nm).join(", ")}) `, h("kbd", { text: "A" })]));
    if (S.assist) bar.appendChild(h("div.whose-sub#std-plot", { style: "flex-basis:100%" }, [o.move && o.move.declare
      ? "This move's MA is rolled: declare it (D) and the leader's movement is added to the roll."
      : `Plot the assisted move one hex at a time on the map${S.plot.length > 1 ? ` (${S.plot.slice(1).join(" → ")})` : ""}; click its last hex again or press Enter to move, Backspace to step back, A or Esc to stop.`, h("span.rule", { text: "rule 10.3", style: "margin-left:6px" })]));
  }
  if (!S.offSel && S.selHexes.length === 1 && (o.reach.size || isEdgeHex(S.scenario, S.selHex))) {
    bar.appendChild(h(`button.btn.small#std-offmap${S.offMap ? ".on" : ""}`, { type: "button", "aria-pressed": S.offMap ? "true" : "false", title: "rule 4.1", onclick: toggleOffMap }, [S.offMap ? "Leaving the map: click an outlined edge hex " : "Leave the map ", h("kbd", { text: "O" })]));
  }
  return bar.childNodes.length ? bar : null;
}

function sideName(side) {
  return (S.scenario.sides[side] && S.scenario.sides[side].name) || side || "";
}

function playerName(side) {
  const seats = (S.view && S.view.seats) || (S.game && S.game.seats) || {};
  return seats[side] || null;
}

function buildTurnbar() {
  return h("div.turnbar#turnbar", { role: "status", "aria-label": "Turn and phase" });
}

const PHASES = ["movement", "recovery", "combat"];
// the rules core's own phase order is not in the view; these are the Quick Play phases shown on the bar

function renderTurnbar() {
  const bar = $("#turnbar");
  if (!bar) return;
  const v = currentView();
  const turns = v.turns || S.scenario.turns;
  const std = isStandard(v);
  const labels = S.scenario.turn_labels || (S.scenario.trt || []).map((b) => b.label) || [];
  const light = std ? (S.scenario.trt || []).map((b) => b.light || "day") : [];
  const reinfTurns = new Set((S.scenario.reinforcements || []).map((r) => r.turn));
  const track = h("div.turn-track", { "aria-label": `Turn record track: turn ${v.turn} of ${turns}` });
  for (let t = 1; t <= turns; t++) {
    track.appendChild(
      h(`div.tt${t < v.turn ? ".past" : ""}${t === v.turn ? ".now" : ""}${reinfTurns.has(t) ? ".reinf" : ""}${light[t - 1] && light[t - 1] !== "day" ? ".light-" + light[t - 1] : ""}`, { title: `Turn ${t}${labels[t - 1] ? " (" + labels[t - 1] + ")" : ""}${light[t - 1] && light[t - 1] !== "day" ? ", " + light[t - 1] : ""}${reinfTurns.has(t) ? ": reinforcements" : ""}`, "aria-current": t === v.turn ? "step" : null }, [
        h("b", { text: String(t) }),
        labels[t - 1] ? h("span", { text: shortTurnLabel(labels[t - 1]) }) : null,
      ]),
    );
  }
  const steps = h("div.phase-steps", { "aria-label": `Phase: ${v.phase}` });
  const active = v.active ? S.scenario.sides[v.active] : null;
  if (active) steps.appendChild(h("span.now", { style: `background:${active.color};color:${active.text_color || "#fff"}`, text: active.adjective || active.name }));
  const phases = std ? ["movement", "combat"] : PHASES; // 3.2: the Standard turn has no recovery phase of its own
  if (phases.includes(v.phase)) for (const p of phases) steps.appendChild(h(`span${p === v.phase ? ".now" : ""}`, { text: p }));
  else steps.appendChild(h("span.now", { text: v.phase }));
  const conn = h("div.conn#conn", { "aria-live": "polite" });
  add(clear(bar), track, steps, conn);
  renderConn();
}

function renderConn(why) {
  const el = $("#conn");
  if (!el) return;
  const text = { open: "Live", connecting: "Connecting…", reconnecting: "Reconnecting…", offline: "Offline" }[S.conn] || S.conn;
  el.className = `conn ${S.conn}`;
  el.setAttribute("data-state", S.conn);
  add(clear(el), h("span.dot", { "aria-hidden": "true" }), h("span.conn-text", { text: why && S.conn !== "open" ? `${text} (${why})` : text }));
  el.setAttribute("aria-label", `Connection: ${text}`);
}

function renderStatus() {
  const v = currentView();
  const sec = clear($("#sec-status"));
  const aw = v.awaiting;
  const side = aw ? S.scenario.sides[aw] : null;
  let text;
  let sub = "";
  const phaseWord = v.phase === "over" ? "" : `${v.phase} phase`;
  if (S.history) {
    text = `Replay at version ${S.history.at} of ${S.version}: ${aw ? sideName(aw) + " " : ""}${phaseWord || "the end"}.`;
  } else if (gameStatus() === "waiting") {
    text = "Waiting for an opponent to take the other seat.";
    sub = S.role === "seat" ? "Nothing can be played until both seats are taken: send the invite link below." : "";
  } else if (v.phase === "over" || !aw) {
    text = "The battle is over.";
  } else if (S.role === "seat" && aw === S.side) {
    text = v.prompt && v.prompt.side === S.side && v.prompt.kind !== "phase" ? `Your decision: ${v.prompt.text}` : `Your move: ${sideName(S.side)} ${phaseWord}.`;
    sub = v.prompt && v.prompt.side === S.side && v.prompt.kind !== "phase" ? "" : isStandard(v) && v.phase === "movement" ? "Select a stack, then click a shaded hex to move (M: march; D: declare a move whose MA is rolled; O: leave the map). Flip, recover, replace and re-enter in the Movement phase box. End the phase when done (E)." : isStandard(v) && v.phase === "combat" ? (v.standard && v.standard.light === "night" ? "Night: only declared infantry charges attack (14.2(4)). End the phase (E)." : "Select your units, then click an enemy to build the attack: its tactic (7.13; a skirmish reaches two hexes), a coordinating leader (7.14), joining leaders (10.3) and supporting guns (8.8); guns alone bombard (8.4). End the phase when done (E).") : v.phase === "setup" ? "Units marked 'within one hex' may be placed: select one, click a shaded hex. Then End phase." : v.phase === "movement" ? "Select a unit, then click a shaded hex to move. End the phase when done (E)." : v.phase === "combat" ? "Select your units, then click an enemy to see the odds and attack. End the phase when done (E)." : "Act, then end the phase (E).";
  } else {
    const who = playerName(aw);
    text = `Waiting for ${who ? who + " (" + sideName(aw) + ")" : sideName(aw)}${v.prompt && v.prompt.side === aw ? ` to decide: ${v.prompt.text}` : ` to play the ${phaseWord}`}.`;
  }
  const since = !S.history && v.game && v.game.awaiting_since ? ago(v.game.awaiting_since) : "";
  add(sec, 
    h("h3", {}, [S.role === "seat" ? `You play ${sideName(S.side)}` : S.role === "admin" ? "Admin view (read-only)" : "Spectating (read-only)", v.spectators ? h("span", { text: `${v.spectators} watching`, title: "Spectators" }) : null]),
    h(`div.whose${S.role === "seat" && aw === S.side && !S.history ? ".mine" : ""}#whose`, {}, [side ? h("span.side-dot", { style: `background:${side.color}`, "aria-hidden": "true" }) : null, h("span", { text })]),
    sub ? h("div.whose-sub", { text: sub }) : null,
    since && v.phase !== "over" ? h("div.whose-sub", { text: `Waiting ${since}.` }) : null,
    h("dl.kv", {}, [
      h("dt", { text: "Turn" }),
      h("dd", { text: `${v.turn} of ${v.turns || S.scenario.turns}${v.turn_label ? " (" + v.turn_label + ")" : ""}` }),
      ...(v.points ? [h("dt", { text: "Points" }), h("dd", { text: Object.entries(v.points).map(([s, p]) => `${sideName(s)} ${p}`).join(" · ") })] : []),
      ...(v.replacements ? [h("dt", { text: "Replacements" }), h("dd", { text: Object.entries(v.replacements).map(([s, p]) => `${sideName(s)} ${p}`).join(" · ") })] : []),
    ]),
  );
  if (S.role !== "seat") sec.appendChild(h("div.readonly-banner", { text: "You are watching: the board updates live and nothing you click changes the game." }));
}

/** 12.4: the headings of a fortune of war's actions on the page. */
const FOW_GROUPS = {
  pass: "Let it go",
  enemy_morale: "An enemy unit checks morale (fails: disrupted)",
  recovery: "A friendly unit tries to recover",
  enemy_move: "Move an enemy unit (on a die of 1 or 2, with a rolled MA)",
  friendly_move: "Move a friendly stack (with a rolled MA)",
  charge: "Charge",
};

function renderPrompt() {
  const v = currentView();
  const sec = $("#sec-prompt");
  const p = v.prompt;
  if (!p || v.phase === "over" || (p.kind === "phase" && !(p.options || []).length)) {
    // the invitee's "Join this battle" offer lives here until a seat is taken
    if (!(S.role !== "seat" && gameStatus() === "waiting" && new URLSearchParams(location.search).get("invite"))) sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const mine = !S.history && S.role === "seat" && p.side === S.side;
  add(sec, 
    h("h3", {}, [mine ? "Your decision" : `${sideName(p.side)} must decide`, p.rule ? h("span.rule", { text: `rule ${p.rule}` }) : null]),
    h("p.prompt-text#prompt-text", { text: p.text || p.kind }),
  );
  const list = h("div.options#prompt-options", { role: "group", "aria-label": "Choices" });
  // 12.4: a fortune of war's many actions, grouped under their kind
  const groups = isStandard(v) && (p.options || []).some((o) => o.action) ? FOW_GROUPS : null;
  let group = null;
  for (const o of p.options || []) {
    if (groups && o.action !== group) {
      group = o.action;
      list.appendChild(h("div.option-group", { "data-action": group || "", text: groups[group] || group || "" }));
    }
    const hexes = [...optionHexes(o)];
    const hot = S.promptFilter && hexes.includes(S.promptFilter);
    const b = h(`button.btn.option-btn${hot ? ".hot" : ""}`, {
      type: "button",
      disabled: !mine,
      "data-option": o.id,
      text: `${o.label || o.text || String(o.id)}${isStandard(v) && o.rule && !String(o.label || "").includes(o.rule) ? ` (${o.rule})` : ""}`,
      "aria-label": `${o.label || o.id}${hexes.length ? " (hex " + hexes.join(", ") + ")" : ""}`,
      onclick: () => choose(o),
      onmouseenter: () => {
        if (hexes.length) renderOverlays(o);
      },
      onmouseleave: () => renderOverlays(),
    });
    b.appendChild(optionOdds(o) || h("span"));
    list.appendChild(b);
  }
  sec.appendChild(list);
  if (mine && (p.options || []).some((o) => optionHexes(o).size)) sec.appendChild(h("div.whose-sub", { text: "The choices are outlined on the map: click one there or here." }));
  // a new decision of mine comes into view even when the panel was scrolled down (the Standard rules ask many,
  // some inside the other player's combat phase)
  const seen = `${S.version}:${p.kind}`;
  if (mine && S.promptSeen !== seen) {
    S.promptSeen = seen;
    if (sec.scrollIntoView) sec.scrollIntoView({ block: "nearest" });
  }
}

function renderSelection() {
  const sec = $("#sec-selection");
  if (!S.selected.length || S.history) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const v = S.view;
  const title = S.offSel ? `Entering at ${S.offSel}` : S.selHexes.length > 1 ? `Selected in ${S.selHexes.join(" + ")}` : `Selected in ${S.selHex}`;
  sec.appendChild(h("h3", {}, [title, S.offSel ? h("span.rule", { text: "rule 4.5" }) : null]));
  const units = h("div.sel-units", { role: "group", "aria-label": "Units in the selection (toggle to include)" });
  const pool = S.offSel ? waitingAt(S.offSel, true) : S.selHexes.flatMap((hx) => myUnitsIn(hx));
  for (const u of pool) {
    const on = S.selected.includes(u);
    const b = h("button.sel-unit", {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      "aria-label": `${on ? "Included" : "Not included"}: ${describeUnit(defs()[u], v.units[u])}`,
      "data-unit": u,
      onclick: () => toggleSelected(u),
    });
    b.appendChild(counterIcon(S.scenario, u, v.units[u], 38));
    units.appendChild(b);
  }
  sec.appendChild(units);
  if (v.phase === "combat" && myTurn() && !S.offSel) {
    sec.appendChild(h("div.actions.add-hex-bar", {}, [
      h(`button.btn.small#add-hex${S.addMode ? ".on" : ""}`, { type: "button", "aria-pressed": S.addMode ? "true" : "false", onclick: () => { S.addMode = !S.addMode; renderSelection(); } }, S.addMode ? "Click a hex of yours to add it…" : "+ Add units from another hex"),
      h("span.whose-sub", { text: "or Shift-click it: attacks from several hexes combine (rule 7.1)." }),
    ]));
  }
  const o = S.options;
  if (!o) {
    sec.appendChild(h("div.whose-sub", { text: "Asking the referee what these units may do…" }));
    return;
  }
  const bits = [];
  if (o.reach.size) bits.push(isStandard(v) ? `${o.reach.size} hex${o.reach.size > 1 ? "es" : ""} ${[...o.reach.values()].some((r) => r.reenter) ? "to re-enter on (shaded green)" : "reachable (shaded)"}` : `${o.reach.size} hexes reachable (shaded, with MP cost)`);
  if (o.attacks.length) bits.push(`${o.attacks.length} attack target${o.attacks.length > 1 ? "s" : ""} (red)`);
  if (o.bombards.length) bits.push(`${o.bombards.length} bombardment target${o.bombards.length > 1 ? "s" : ""}`);
  const nCharge = new Set(o.charges.map((c) => c.target)).size;
  if (nCharge) bits.push(`${nCharge} charge target${nCharge > 1 ? "s" : ""}`);
  sec.appendChild(h("div.whose-sub#sel-summary", { text: bits.length ? bits.join("; ") + "." : "These units have nothing to do now." }));
  for (const n of [].concat(o.notes || [])) sec.appendChild(h("div.whose-sub", {}, [typeof n === "string" ? n : n.text || JSON.stringify(n), n.rule ? h("span.rule", { text: `rule ${n.rule}`, style: "margin-left:6px" }) : null]));
  if (isStandard(v) && v.phase === "movement" && myTurn() && o.std) {
    const bar = standardMoveBar(o);
    if (bar) sec.appendChild(bar);
  }
  const ct = chargeMoveTargets();
  if (ct.size && myTurn()) {
    const names = [...ct.keys()].join(", ");
    sec.appendChild(h("div.actions.charge-bar", { style: "margin-top:6px" }, [
      h(`button.btn.charge-toggle${S.chargeMode ? ".on" : ""}#charge-toggle`, {
        type: "button",
        "aria-pressed": S.chargeMode ? "true" : "false",
        "aria-label": S.chargeMode ? "Leave charge mode and show reachable hexes again (C or Escape)" : `Charge mode: show the enemy hexes ${isStandard(v) ? "these units" : "this cavalry"} can charge (${names}) (C)`,
        title: isStandard(v) ? "rules 7.13(3), 9.3" : "rule 9.2",
        onclick: () => setChargeMode(!S.chargeMode),
      }, [S.chargeMode ? "Leave charge mode " : "Charge ", h("kbd", { text: "C" })]),
    ]));
    if (S.chargeMode) {
      sec.appendChild(h("div.whose-sub#charge-help", { text: isStandard(v)
        ? "Charge: infantry (7.13(3): at most one leader, one battalion and one other infantry unit, moving one or two MP) or cavalry (9.3(1): at most one leader, one squadron and one other cavalry unit, one or two clear hexes), stacked, to a hex next to the enemy. Click an enemy hex outlined in dashed blue (the shortest path), or a button below for another path; the referee judges the terrain, zones of control and stacking. In your combat phase the same units attack it with the charge tactic. Esc leaves charge mode."
        : "Charge mode: click an enemy hex outlined in dashed blue to move up to two hexes next to it and declare a charge. The charge itself is made in your combat phase. Esc leaves charge mode." }));
      const targets = h("div.actions.charge-targets#charge-targets", { role: "group", "aria-label": "Charge targets" });
      for (const t of [...ct.values()].flatMap((x) => x.all.map((c) => ({ target: x.target, command: c.command, path: c.path || [], many: x.all.length > 1 })))) {
        targets.appendChild(h("button.btn.small.charge-target-btn", {
          type: "button",
          "data-target": t.target,
          "data-path": t.path.join(","),
          "aria-label": `Charge ${t.target}: move by ${t.path.slice(1).join(", ")} and declare a charge`,
          text: isStandard(v) ? `Charge ${t.target} by ${t.path.slice(1).join(" → ")}` : t.many ? `Charge ${t.target} from ${t.path[t.path.length - 1]}` : `Charge ${t.target}`,
          onmouseenter: () => { S.chargeHover = t.target; renderOverlays(); },
          onmouseleave: () => { S.chargeHover = null; renderOverlays(); },
          onfocus: () => { S.chargeHover = t.target; renderOverlays(); },
          onblur: () => { S.chargeHover = null; renderOverlays(); },
          onclick: () => sendChargeMove(t),
        }));
      }
      sec.appendChild(targets);
    }
  }
  for (const a of o.illegal || []) sec.appendChild(h("div.whose-sub", {}, [`No attack on ${a.target}: ${a.message}`, a.rule ? h("span.rule", { text: `rule ${a.rule}`, style: "margin-left:6px" }) : null]));
  if (S.preview && S.preview.kind === "attack" && S.builder) {
    sec.appendChild(renderBuilder());
  } else if (S.preview) {
    const { kind, item } = S.preview;
    const title = kind === "attack" ? `Attack ${item.target}` : kind === "bombard" ? `Bombard ${item.target}` : `Charge ${item.target}`;
    const nameOf = (u) => (defs()[u] ? defs()[u].name : u);
    const stdBomb = kind === "bombard" && isStandard(v);
    if (stdBomb && !item.preview && !item.loading && !item.refusal) stdBombardPreview(item);
    const body = !stdBomb ? explainPreview(kind, item, nameOf)
      : item.loading ? h("div.whose-sub", { text: "Asking the referee for the fire groups…" })
        : item.refusal ? h("div.form-error#builder-refusal", { role: "alert" }, [item.refusal.message || "Not allowed.", item.refusal.rule ? h("span.rule", { text: `rule ${item.refusal.rule}`, style: "margin-left:6px" }) : null])
          : standardBombardPreview(item.preview, nameOf) || h("span");
    const box = h("div.panel-section#preview", { style: "margin-top:8px;border-color:#d55e00" }, [h("h3", {}, [title, h("span.rule", { text: stdBomb ? "rules 8.4, 8.5, 8.6, 8.7" : `rule ${item.rule}` })]), body]);
    if (kind === "bombard" && item.los === false) box.appendChild(h("div.form-error", { text: "No line of sight." }));
    const confirm = h("button.btn.primary#confirm-action", {
      type: "button",
      text: `Confirm ${kind}`,
      disabled: stdBomb && !!(item.loading || item.refusal || !item.preview),
      onclick: () => {
        let cmd = item.command;
        if (!cmd) {
          if (kind === "attack") {
            const d = defs();
            const attackers = item.attackers || S.selected.filter((u) => d[u].kind !== "leader" && !(item.support || []).includes(u));
            const leaders = S.selected.filter((u) => d[u].kind === "leader" && !(S.view.units[u] || {}).ineffective);
            cmd = { type: "attack", target: item.target, attackers, primary: item.primary || attackers[0] };
            if (leaders.length) cmd.leaders = leaders;
            if (item.support && item.support.length) cmd.support = item.support;
          } else if (kind === "bombard") cmd = { type: "bombard", target: item.target, artillery: item.artillery || S.selected };
          else cmd = { type: "charge", target: item.target, chargers: item.chargers || item.units || S.selected };
        }
        send(cmd);
        cancel();
      },
    });
    const acts = h("div.actions", {}, [confirm, h("button.btn", { type: "button", text: "Cancel (Esc)", onclick: () => { S.preview = null; renderSelection(); renderOverlays(); } })]);
    if (S.preview.alt) acts.appendChild(h("button.btn#preview-switch", { type: "button", text: S.preview.alt.kind === "attack" ? "Attack instead" : "Bombard instead", onclick: () => { const back = S.preview; S.preview = { ...back.alt, alt: { kind: back.kind, item: back.item } }; if (S.preview.kind === "attack") startBuilder(S.preview.item); renderSelection(); renderOverlays(); } }));
    box.appendChild(acts);
    sec.appendChild(box);
  }
  // 9.3: squares are formed or removed before any unit moves; the referee lists exactly which
  const cmds = [...o.commands];
  for (const c of o.squares || []) {
    const who = c.unit ? ` with ${defs()[c.unit] ? defs()[c.unit].name : c.unit}` : "";
    cmds.push({ label: c.type === "form_square" ? `Form square in ${c.hex}${who}` : `Remove the square in ${c.hex}`, command: c, rule: "9.3" });
  }
  if (cmds.length) {
    const acts = h("div.actions.sel-commands", { style: "margin-top:6px" });
    for (const c of cmds) acts.appendChild(h("button.btn", { type: "button", text: c.label, title: c.rule ? `rule ${c.rule}` : null, "data-command": JSON.stringify(c.command), onclick: () => { send(c.command); cancel(); } }));
    sec.appendChild(acts);
  }
}

function renderActions() {
  const sec = clear($("#sec-actions"));
  const v = S.view;
  const acts = h("div.actions");
  if (S.role === "seat" && v.phase !== "over") {
    const mine = myTurn();
    acts.append(
      h("button.btn.primary#end-phase", { type: "button", disabled: !mine || !!activePrompt(), "aria-label": "End phase (E)", onclick: endPhase }, ["End phase ", h("kbd", { text: "E" })]),
      h("button.btn#undo", { type: "button", disabled: !(v.can_undo && typeof v.can_undo === "object" ? v.can_undo[S.side] : S.version > 0), "aria-label": "Undo (U)", onclick: undo }, ["Undo ", h("kbd", { text: "U" })]),
      h("button.btn.small#next-unit", { type: "button", disabled: !mine, "aria-label": "Next unit (N)", onclick: () => cycleUnits(1) }, ["Next unit ", h("kbd", { text: "N" })]),
      h("button.btn.small.danger#resign", {
        type: "button",
        "aria-label": "Resign the game",
        onclick: async () => {
          if (!(await confirmDialog("Resign?", "The battle ends now and your opponent wins.", { ok: "Resign" }))) return;
          try {
            await api.resign(gameId);
          } catch (e) {
            showError(e);
          }
        },
      }, "Resign"),
    );
  }
  if (gameStatus() === "waiting" && S.role === "seat" && S.game && S.game.invite_token) {
    const link = `${location.origin}/games/${gameId}?invite=${S.game.invite_token}`;
    sec.appendChild(h("div.whose-sub", { text: "Waiting for your opponent. Send them this invite link:" }));
    sec.appendChild(h("div.invite", {}, [h("input", { value: link, readonly: true, "aria-label": "Invite link", onfocus: (e) => e.target.select() }), h("button.btn.small", { type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Invite link copied.")) })]));
  }
  if (acts.childNodes.length) sec.appendChild(acts);
  if (S.role === "seat" && S.game) sec.appendChild(watchLinkControl(S.game, gameId) || h("span"));
  if (S.role === "seat" && v.phase !== "over" && !S.history) sec.appendChild(keyHelp(isStandard(v)));
}

function renderHistory() {
  const sec = clear($("#sec-history"));
  const max = S.version;
  const at = S.history ? S.history.at : max;
  const slider = h("input#history-slider", { type: "range", min: 0, max: Math.max(0, max), value: at, step: 1, "aria-label": "Step through the game's history", "aria-valuetext": `version ${at} of ${max}` });
  let timer = null;
  slider.addEventListener("input", () => {
    clearTimeout(timer);
    const n = +slider.value;
    label.textContent = `${n} / ${max}`;
    timer = setTimeout(() => goHistory(n), 150);
  });
  const label = h("span#history-label", { text: `${at} / ${max}` });
  add(sec, 
    h("h3", {}, ["Replay", S.history ? h("button.btn.small#history-live", { type: "button", text: "Back to live", onclick: () => goHistory(null) }) : null]),
    h("div.history-bar", {}, [
      h("button.btn.small", { type: "button", "aria-label": "Step back", text: "◀", disabled: at <= 0, onclick: () => goHistory(Math.max(0, at - 1)) }),
      slider,
      h("button.btn.small", { type: "button", "aria-label": "Step forward", text: "▶", disabled: at >= max, onclick: () => goHistory(at + 1 >= max ? null : at + 1) }),
      label,
    ]),
    replayJump(replayMarks(S.log, S.scenario), at, (n) => goHistory(n)) || h("span"),
  );
}

async function goHistory(n) {
  if (n === null || n >= S.version) {
    S.history = null;
    $("#history-banner").hidden = true;
    renderAll();
    return;
  }
  try {
    const res = await api.history(gameId, n);
    mergeUnitDefs(S.scenario, res.view);
    S.history = { at: n, view: res.view, log: res.log || [] };
    cancel(false);
    const b = $("#history-banner");
    b.hidden = false;
    add(clear(b), `Replay: version ${n} of ${S.version} `, h("button.btn.small", { type: "button", text: "Back to live", onclick: () => goHistory(null), style: "margin-left:8px" }));
    renderAll();
  } catch (e) {
    showError(e);
  }
}

function eventText(ev) {
  if (ev.text) return ev.text;
  return ev.type;
}

function renderLog() {
  const ol = $("#log");
  const entries = S.history ? S.history.log : S.log;
  // The live log only grows: append the new entries instead of rebuilding hundreds of lines on every
  // update (a long battle's log made each patch cost a full re-render on every open page).
  const src = S.history ? "history" : "live";
  const r = S.logRendered;
  let from = 0;
  if (r && r.src === src && r.list === entries && r.count <= entries.length && entries.length && r.lastSeq === (entries[r.count - 1] || {}).seq) {
    from = r.count;
    if (from === entries.length) return;
    const empty = ol.querySelector("li.empty");
    if (empty) empty.remove();
  } else clear(ol);
  for (const entry of entries.slice(from)) {
    const who = entry.side ? sideName(entry.side) : "";
    const cmdType = entry.command && entry.command.type;
    const evs = entry.events || [];
    if (!evs.length && cmdType) ol.appendChild(h("li", { "data-seq": entry.seq, text: `${who}: ${cmdType.replace("_", " ")}` }));
    for (const ev of evs) {
      const isDice = ev.type === "dice";
      const txt = isDice && Array.isArray(ev.dice) && !ev.text ? `Dice (${ev.purpose || "roll"}): ${ev.dice.join(", ")}` : eventText(ev);
      ol.appendChild(h(`li${isDice ? ".dice-entry" : ""}${ev.type === "turn" || ev.type === "phase" ? ".turn" : ""}`, { "data-seq": entry.seq, "data-type": ev.type, text: txt }, [logOutcome(ev, (u) => (defs()[u] ? defs()[u].name : u))]));
    }
  }
  if (!entries.length) ol.appendChild(h("li.empty", { text: "Nothing has happened yet." }));
  S.logRendered = { src, list: entries, count: entries.length, lastSeq: entries.length ? entries[entries.length - 1].seq : null };
  ol.scrollTop = ol.scrollHeight;
}

/** The combat result panel: the latest dice roll with the CRT cell and what happened. */
function renderCombat() {
  const sec = $("#sec-combat");
  const events = lastCombatEvents(S.history ? S.history.log : S.log) || S.lastCombat;
  if (!events) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  combatPanel(clear(sec), events, (u) => (defs()[u] ? defs()[u].name : u), isStandard(currentView()) ? "7.7–7.13, 8.4–8.5" : undefined);
}

/** Set-up areas (3.2) outlined during my set-up; entry hexes with my reinforcements due (4.5) marked. */
function renderPhaseOverlays(v) {
  if (S.history || !S.view) return;
  const raw = S.phaseOptions && S.phaseOptions.raw;
  if (raw && v.phase === "setup" && raw.placements && !S.selected.length) {
    const rings = [];
    for (const [id, pl] of Object.entries(raw.placements)) for (const hx of pl.hexes) rings.push({ hex: hx, colour: OKABE.green || "#009e73", width: 2.5, dash: "4 3", cls: "setup-area", title: `Set-up area of ${defs()[id] ? defs()[id].name : id} (within ${pl.within} of ${pl.listed}, rule 3.2)` });
    map.ringHexes(rings);
  }
  if (v.phase === "movement" && myTurn()) {
    const due = new Map();
    for (const x of offboardUnits()) if (x.due && x.entry) due.set(x.entry, (due.get(x.entry) || 0) + 1);
    map.ringHexes([...due].filter(([hx]) => map.grid.contains(hx)).map(([hx, n]) => ({ hex: hx, colour: OKABE.blue, width: 4, dash: "2 3", label: `+${n}`, cls: "entry-hex", title: `${n} unit${n > 1 ? "s" : ""} waiting to enter here (rule 4.5): click to select` })));
  }
}

function renderOverlays(hoverOption = null) {
  if (!map) return;
  map.clearOverlays();
  const v = currentView();
  renderPhaseOverlays(v);
  // prompt choices
  const p = v.prompt;
  if (p && !S.history && (p.options || []).length) {
    const mine = S.role === "seat" && p.side === S.side;
    const rings = [];
    const highlightUnits = new Set();
    for (const o of p.options) {
      for (const hx of optionHexes(o)) rings.push({ hex: hx, colour: OKABE.purple, width: hoverOption === o ? 7 : 4, title: o.label || o.id, fill: hoverOption === o ? OKABE.purple : "none", cls: "choice" });
      if (Array.isArray(o.path) && o.path.length > 1 && (hoverOption === o || p.options.length <= 3)) map.drawPath(o.path, { colour: OKABE.purple, width: 3, dash: "6 4" });
      if (Array.isArray(o.units)) o.units.forEach((u) => highlightUnits.add(u));
    }
    if (mine || S.role !== "seat") map.ringHexes(rings);
    map.highlightUnits = mine ? highlightUnits : new Set();
    map.renderUnits();
  } else if (map.highlightUnits && map.highlightUnits.size) {
    map.highlightUnits = new Set();
    map.renderUnits();
  }
  const o = S.options;
  if (S.chargeHover && !S.chargeMode && !S.history) {
    // a declared charge hovered in the Charges section: outline its target from its chargers
    const g = declaredCharges().find((x) => x.target === S.chargeHover && x.side === S.side);
    if (g) {
      map.ringHexes([{ hex: g.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${g.target}` }]);
      for (const u of g.units) if (u.hex && !u.made) map.drawLine(u.hex, g.target, { colour: OKABE.blue, dash: null, width: 4 });
    }
  }
  if (isStandard(v) && v.standard && (v.standard.charges || []).length && !S.chargeMode) {
    // 7.13(3), 9.3: the charges declared this movement phase, made in the combat phase
    for (const c of v.standard.charges) {
      const from = [...new Set(c.units.map((u) => (v.units[u] || {}).hex).filter(Boolean))];
      map.ringHexes([{ hex: c.target, colour: OKABE.blue, width: 3, dash: "10 4", label: "charge", cls: "target declared-charge", title: `${sideName(c.side)} charges ${c.target} (7.13(3), 9.3)` }]);
      for (const hx of from) map.drawLine(hx, c.target, { colour: OKABE.blue, dash: "4 4", width: 3 });
    }
  }
  if (!o || !S.selected.length || S.history) return;
  if (S.chargeMode) {
    // 9.2: charge targets instead of reachable hexes; the shortest path to the hovered one
    const ct = chargeMoveTargets();
    map.ringHexes([...ct.values()].map((t) => ({ hex: t.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${t.target} (by ${t.path.slice(1).join(", ")})` })));
    const hv = ct.get(S.chargeHover || S.hoverHex);
    if (hv) map.drawPath(hv.path, { colour: OKABE.blue, width: 5 });
    return;
  }
  if (S.assist && S.plot && isStandard(v)) {
    // 10.3: the plotted path and the hexes it may go on to (the referee judges the MP when it is sent)
    const end = S.plot[S.plot.length - 1];
    const next = neighbours(end, { ...(S.scenario.map || {}) }).filter((hx) => !S.plot.includes(hx));
    map.shadeHexes(next.map((hx) => ({ hex: hx, colour: OKABE.sky, label: "", title: `${hx}: the next hex of the assisted move`, cls: "reach plot-next" })));
    if (S.plot.length > 1) {
      map.drawPath(S.plot, { colour: OKABE.blue, width: 5 });
      map.ringHexes([{ hex: end, colour: OKABE.blue, width: 4, label: "go", cls: "plot-end", title: `Click again (or Enter) to move to ${end}` }]);
    }
    return;
  }
  if (S.offMap && isStandard(v)) {
    const edge = [...new Set([S.selHex, ...o.reach.keys()])].filter((hx) => isEdgeHex(S.scenario, hx));
    map.ringHexes(edge.map((hx) => ({ hex: hx, colour: OKABE.vermillion, width: 4, dash: "3 3", label: "off", cls: "offmap-hex", title: `Leave the map from ${hx} (rule 4.1: it counts as routed)` })));
  }
  const shade = [];
  for (const [hex, r] of o.reach) shade.push({ hex, colour: r.ends ? OKABE.yellow : r.reenter ? OKABE.green : OKABE.sky, label: r.cost ?? "", title: r.reenter ? `${hex}: re-enter here (rule 13.2)` : r.cost === null ? `${hex}: reachable` : `${hex}: ${r.cost ?? "?"} MP${r.ends ? ", ends the move (enemy ZOC)" : ""}`, cls: "reach" });
  map.shadeHexes(shade);
  map.ringHexes(o.attacks.map((a) => ({ hex: a.target, colour: OKABE.vermillion, label: a.preview && a.preview.differential !== undefined ? `${a.preview.differential > 0 ? "+" : ""}${a.preview.differential}` : a.unlisted ? "skirmish" : "attack", cls: "target attack-target", title: `Attack ${a.target}` })));
  map.ringHexes((o.illegal || []).map((a) => ({ hex: a.target, colour: "#555555", dash: "3 3", width: 2.5, label: "no", cls: "target illegal-target", title: a.message })));
  map.ringHexes(o.bombards.map((b) => ({ hex: b.target, colour: OKABE.orange, dash: "6 3", label: rangeText(b.range) || "bomb", cls: "target bombard-target", title: `Bombard ${b.target}` })));
  map.ringHexes(o.charges.filter((c) => c.kind === "charge").map((c) => ({ hex: c.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${c.target}` })));
  if (S.preview) {
    const it = S.preview.item;
    if (S.preview.kind === "bombard") map.drawLine(S.selHex, it.target, { colour: it.los === false ? "#777" : OKABE.orange, label: rangeText(it.range) || null });
    else if (S.preview.kind === "charge" && it.path) map.drawPath(it.path, { colour: OKABE.blue });
    else map.drawLine(S.selHex, it.target, { colour: OKABE.vermillion, dash: null, width: 4 });
  } else if (S.hoverHex && o.reach.get(S.hoverHex)) {
    const r = o.reach.get(S.hoverHex);
    if (r.path) map.drawPath(r.path);
  }
}

function renderGameOver() {
  const el = $("#gameover");
  const v = S.view;
  const r = v.result || (v.game && v.game.result);
  if (v.phase !== "over" && !(S.game && S.game.status === "over") && !r) {
    el.hidden = true;
    return;
  }
  if (S.gameoverDismissed) return;
  el.hidden = false;
  const winner = r && r.winner;
  const title = winner ? (S.side === winner ? "Victory!" : S.side ? "Defeat" : `${sideName(winner)} wins`) : "A draw";
  add(clear(el), 
    h("h2#gameover-title", { text: title }),
    h("p", { text: `${winner ? sideName(winner) + " won" : "Neither side won"}${r && r.reason ? ": " + r.reason : ""}.` }),
    r && r.points ? h("p", { text: Object.entries(r.points).map(([s, p]) => `${sideName(s)} ${p} points`).join(" · ") }) : null,
    fairnessSection({
      gameId, view: v, side: S.role === "seat" ? S.side : null, state: (S.fairness = S.fairness || {}),
      recordUrl: `/api/games/${encodeURIComponent(gameId)}/record${location.search.match(/[?&]watch=/) ? "?watch=" + encodeURIComponent(accessParams().watch) : ""}`,
      loadRecord: () => api.record(gameId),
    }),
    h("div.actions", { style: "justify-content:center" }, [h("button.btn", { type: "button", text: "Look at the map", onclick: () => { S.gameoverDismissed = true; el.hidden = true; } }), h("a.btn.primary", { href: "/", text: "Back to the lobby" })]),
  );
}

// ---------------------------------------------------------------- hover

function onHover(hex, e) {
  const tip = $("#tip");
  if (S.hoverHex !== hex) {
    S.hoverHex = hex;
    if (S.options && !S.preview) renderOverlays();
  }
  if (!hex || !e || e.pointerType === "touch") {
    tip.hidden = true;
    return;
  }
  clear(tip).appendChild(hexInfo(S.scenario, map.grid, hex, currentView()));
  const r = S.options && S.options.reach.get(hex);
  const ch = S.chargeMode ? chargeMoveTargets().get(hex) : null;
  if (ch) tip.appendChild(h("div", { style: "margin-top:4px;color:#0072b2;font-weight:700", text: `Charge ${hex}: click to move by ${ch.path.slice(1).join(", ")} and declare the charge` }));
  else if (r && r.reenter) tip.appendChild(h("div", { style: "margin-top:4px;color:#56b4e9;font-weight:700", text: `Re-enter here (rule 13.2)` }));
  else if (r && !S.chargeMode && r.cost === null && r.path) tip.appendChild(h("div", { style: "margin-top:4px;color:#56b4e9;font-weight:700", text: `Move here: ${r.path.length - 1} hex${r.path.length === 2 ? "" : "es"} within the MA` }));
  else if (r && !S.chargeMode) tip.appendChild(h("div", { style: "margin-top:4px;color:#56b4e9;font-weight:700", text: `Move here: ${r.cost ?? "?"} MP${r.ends ? " (ends move)" : ""}` }));
  tip.hidden = false;
  const pad = 16;
  const w = tip.offsetWidth;
  const hh = tip.offsetHeight;
  let x = e.clientX + pad;
  let y = e.clientY + pad;
  if (x + w > innerWidth - 4) x = e.clientX - w - pad;
  if (y + hh > innerHeight - 4) y = e.clientY - hh - pad;
  tip.style.left = `${Math.max(4, x)}px`;
  tip.style.top = `${Math.max(4, y)}px`;
}

// ------------------------------------------------------ chrome & keys

function setupChrome() {
  $("#zoom-in").addEventListener("click", () => map.zoomBy(1.25));
  $("#zoom-out").addEventListener("click", () => map.zoomBy(0.8));
  $("#zoom-reset").addEventListener("click", () => map.resetView());
  const legend = $("#legend");
  legend.appendChild(h("h3", { text: "Legend" }));
  legend.appendChild(legendSVG(S.scenario, map));
  const extra = h("div.legend-extra", {}, [
    h("div", {}, [h("span.legend-swatch", { style: `background:${OKABE.sky}` }), "Reachable hex (MP cost)"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:${OKABE.yellow}` }), "Reachable, ends the move"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px solid ${OKABE.vermillion}` }), "Attack target"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px dashed ${OKABE.orange}` }), "Bombardment target"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px dashed ${OKABE.blue}` }), "Charge target (cavalry, rule 9.2)"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px solid ${OKABE.purple}` }), "A choice to make"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:${OKABE.yellow}` }), "D marker: disrupted"]),
    h("div", { text: "Counter: attack-defence-morale-movement; (n) artillery range; cN charge; pale = ineffective; white band = reduced; ★ leader; black dot on the right edge = moved this turn." }),
    h("div", { text: "Objective: a star with its victory points, in the colour of the side holding it (white: nobody)." }),
  ]);
  legend.appendChild(extra);
  $("#sec-key").appendChild(resultKey());
  const lt = $("#legend-toggle");
  lt.addEventListener("click", () => {
    legend.hidden = !legend.hidden;
    lt.setAttribute("aria-expanded", String(!legend.hidden));
  });
  const panel = $("#panel");
  $("#sheet-handle").addEventListener("click", () => {
    if (panel.classList.contains("collapsed")) {
      panel.classList.remove("collapsed");
      panel.classList.add("full");
    } else if (panel.classList.contains("full")) panel.classList.remove("full");
    else panel.classList.add("collapsed");
  });
  document.addEventListener("keydown", onKey);
}

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT") && t.type !== "range") return;
  if (document.querySelector("dialog[open]")) return;
  const k = e.key;
  if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "Z")) {
    e.preventDefault();
    undo();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (k === "Escape") {
    if (S.assist) {
      S.assist = null;
      S.plot = null;
      renderOverlays();
      renderSelection();
      return;
    }
    if (S.offMap) {
      toggleOffMap();
      return;
    }
    if (S.chargeMode) {
      setChargeMode(false);
      return;
    }
    cancel();
    if (S.history) goHistory(null);
  } else if (k === "e" || k === "E") endPhase();
  else if (k === "u" || k === "U") undo();
  else if (k === "n" || k === "N") cycleUnits(1);
  else if ((k === "m" || k === "M") && isStandard(S.view)) toggleMarch();
  else if ((k === "d" || k === "D") && isStandard(S.view)) declareMove();
  else if ((k === "s" || k === "S") && isStandard(S.view)) stay();
  else if ((k === "o" || k === "O") && isStandard(S.view)) toggleOffMap();
  else if ((k === "a" || k === "A") && isStandard(S.view)) toggleAssist();
  else if (k === "Enter" && S.assist && S.plot && isStandard(S.view) && (t === document.body || (t && t.closest && t.closest(".map-area")))) sendPlot();
  else if (k === "Backspace" && S.assist && S.plot && S.plot.length > 1 && isStandard(S.view)) {
    S.plot = S.plot.slice(0, -1);
    renderOverlays();
    renderSelection();
  }
  else if (k === "c" || k === "C") {
    if (S.chargeMode || canCharge()) setChargeMode(!S.chargeMode);
  }
  else if (k === "Tab" && myTurn() && (t === document.body || (t && t.closest && t.closest(".map-area")))) {
    e.preventDefault();
    cycleUnits(e.shiftKey ? -1 : 1);
  } else if (k === "+" || k === "=") map.zoomBy(1.25);
  else if (k === "-") map.zoomBy(0.8);
  else if (k === "0") map.resetView();
  else if (k === "l" || k === "L") $("#legend-toggle").click();
}

boot();
