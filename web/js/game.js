// The game page (/games/{id}) for players, spectators and the admin.
// The server decides everything: this page shows the view it is sent, asks
// the options endpoint what is legal for the selected units, and sends
// commands. Live updates arrive on the websocket as snapshot + JSON patches.

import { api, ApiError, accessParams, newCommandId } from "./api.js";
import { applyPatch } from "./jsonpatch.js";
import { MapView, legendSVG } from "./map.js";
import { unitDefs, counterIcon, describeUnit } from "./counters.js";
import { h, clear, $, ago, OKABE, add } from "./ui/dom.js";
import { renderTopbar, toast, confirmDialog } from "./ui/chrome.js";
import { GameSocket } from "./ui/socket.js";
import { hexInfo } from "./ui/tecinfo.js";
import { normalizeOptions, pct, resultMeaning } from "./ui/options.js";
import { startAwaiting, refreshAwaiting } from "./ui/awaiting.js";
import { AsyncPanels } from "./ui/asyncpanels.js";

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
  S.scenario = await api.scenario(detail.game.scenario || detail.view.scenario);
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
  if (params.get("invite") && S.me && S.role !== "seat" && S.game.status === "waiting") offerJoin(params.get("invite"));
  if (params.get("invite") && !S.me) toast("Log in or register to take the free seat in this game.", { timeout: 10000 });
  connect();
  loadLog();
  panels.refresh();
  if (S.me) startAwaiting();
}

/** After a change arrives: the clock and "your move" count may have moved (debounced). */
function refreshAsync() {
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
  S.view = view;
  S.version = version ?? view.version ?? S.version;
  if (view.game && view.game.you) setRole(view.game.you);
}

async function loadLog() {
  try {
    const hist = await api.history(gameId);
    if (hist && Array.isArray(hist.log) && hist.log.length >= S.log.length) {
      S.log = hist.log;
      renderLog();
      renderCombat();
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
    h("button.btn.primary", {
      type: "button",
      text: "Join the game",
      onclick: async () => {
        try {
          await api.joinGame(gameId, token);
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
      S.view = next;
      S.version = msg.version;
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
  // selection may no longer be valid: keep only units still mine and on the map
  if (S.selected.length) {
    const still = S.selected.filter((u) => S.view.units[u] && S.view.units[u].status === "map" && S.view.units[u].hex === S.selHex);
    if (still.length !== S.selected.length) cancel(false);
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
  return S.role === "seat" && !S.history && S.view && S.view.awaiting === S.side && S.view.phase !== "over";
}

function myUnitsIn(hex) {
  const d = defs();
  return map.unitsIn(hex).filter((u) => d[u] && d[u].side === S.side);
}

function onUnitClick(unit, hex, evt) {
  if (S.history) return onHexClick(hex, evt);
  const d = defs()[unit];
  const prompt = activePrompt();
  if (prompt) return onHexClick(hex, evt, unit);
  if (!d || d.side !== S.side || !myTurn()) {
    // enemy or not my turn: maybe it is an attack / bombard target
    return onHexClick(hex, evt, unit);
  }
  const inHex = myUnitsIn(hex);
  if (S.selHex === hex && S.selected.length) {
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
  const o = S.options;
  if (o && S.selected.length) {
    const att = o.attacks.find((a) => a.target === hex);
    const bomb = o.bombards.find((b) => b.target === hex);
    const chg = o.charges.find((c) => c.kind === "charge" && c.target === hex);
    if (att || bomb || chg) {
      S.preview = att ? { kind: "attack", item: att } : bomb ? { kind: "bombard", item: bomb } : { kind: "charge", item: chg };
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
    if (r && r.place) {
      send({ type: "place", unit: S.selected[0], hex });
      cancel(false);
      return;
    }
    if (r) {
      const path = r.path && r.path.length ? r.path : [S.selHex, hex];
      send({ type: "move", units: [...S.selected], path });
      cancel(false);
      return;
    }
  }
  const mine = myUnitsIn(hex);
  if (mine.length) return select(hex, mine);
  cancel();
}

function select(hex, units) {
  S.selHex = hex;
  S.selected = units;
  S.preview = null;
  S.chargeMode = false;
  map.setSelected(units);
  map.setExpanded(map.unitsIn(hex).length > 1 ? hex : null);
  refreshOptions();
  renderSelection();
}

function cancel(render = true) {
  S.selected = [];
  S.selHex = null;
  S.options = null;
  S.optionsFor = "";
  S.preview = null;
  S.promptFilter = null;
  S.chargeMode = false;
  S.chargeHover = null;
  if (map) {
    map.setSelected([]);
    map.setExpanded(null);
  }
  if (render) {
    renderOverlays();
    renderSelection();
    renderPrompt();
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
  if (S.view.phase === "setup") {
    // 3.2 'within one hex' placements: offer the hexes around the listed one; the server judges.
    const o = normalizeOptions({});
    const u = S.selected[0];
    const p = (S.scenario.setup || []).find((x) => x.unit === u);
    if (S.selected.length === 1 && p && p.within) {
      const d = defs()[u];
      const cls = d.kind === "battalion" ? "infantry" : d.kind;
      for (const hx of map.grid.ids()) {
        if (map.grid.distance(hx, p.hex) > p.within || hx === S.view.units[u].hex) continue;
        const tid = (S.scenario.map.hexes || {})[hx] || S.scenario.map.default_terrain;
        const t = S.scenario.tec.terrain[tid] || {};
        if (cls !== "leader" && (!(cls in (t.move || {})) || (t.prohibited || []).includes(cls))) continue;
        o.reach.set(hx, { cost: "", path: null, place: true });
      }
      o.notes.push({ text: `Set-up: ${d.name} may be placed within ${p.within} hex of ${p.hex}. Click a shaded hex, then end the set-up.`, rule: "3.2" });
    } else {
      o.notes.push({ text: "This unit sets up exactly at its listed hex. End the set-up when your placements are done.", rule: "3.2" });
    }
    S.options = o;
    renderOverlays();
    renderSelection();
    return;
  }
  try {
    const raw = await api.options(gameId, S.selected);
    if (S.optionsFor !== key) return;
    S.options = normalizeOptions(raw);
    if (S.chargeMode && !chargeMoveTargets().size) S.chargeMode = false;
  } catch (e) {
    if (S.optionsFor !== key) return;
    S.options = normalizeOptions({});
    showError(e);
  }
  renderOverlays();
  renderSelection();
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
  const hex = S.view.units[next].hex;
  select(hex, [next]);
  map.centerOn(hex);
}

async function endPhase() {
  if (!myTurn()) return;
  if (activePrompt()) {
    toast("Answer the pending decision first.", { kind: "error", rule: activePrompt().rule });
    return;
  }
  const idle = S.view.phase === "movement" ? unitsThatCanAct().filter((u) => defs()[u].kind !== "leader") : [];
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
    if (!cur) out.set(c.target, { target: c.target, command: c.command, path: c.path || [], paths: [c.path] });
    else {
      cur.paths.push(c.path);
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
  toast(`${hex} cannot be charged by this cavalry. Click an outlined enemy hex, or press Esc to leave charge mode.`, { kind: "error", rule: "9.2" });
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
      li.appendChild(h("button.btn.small.primary.charge-go", {
        type: "button",
        "data-target": g.target,
        "aria-label": `Charge! Make the declared charge of ${open.map((u) => (d[u.id] ? d[u.id].name : u.id)).join(", ")} against ${g.target}`,
        onmouseenter: () => { S.chargeHover = g.target; renderOverlays(); },
        onmouseleave: () => { S.chargeHover = null; renderOverlays(); },
        onclick: () => {
          cancel(false);
          send(chargeCommandFor(g));
        },
      }, "Charge!"));
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

// ----------------------------------------------------------- rendering

function currentView() {
  return S.history ? S.history.view : S.view;
}

function renderAll() {
  const v = currentView();
  map.setView(v);
  renderTurnbar();
  renderStatus();
  renderPrompt();
  renderSelection();
  renderCharges();
  renderActions();
  renderHistory();
  renderLog();
  renderCombat();
  renderOverlays();
  renderGameOver();
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
  const labels = S.scenario.turn_labels || [];
  const reinfTurns = new Set((S.scenario.reinforcements || []).map((r) => r.turn));
  const track = h("div.turn-track", { "aria-label": `Turn record track: turn ${v.turn} of ${turns}` });
  for (let t = 1; t <= turns; t++) {
    track.appendChild(
      h(`div.tt${t < v.turn ? ".past" : ""}${t === v.turn ? ".now" : ""}${reinfTurns.has(t) ? ".reinf" : ""}`, { title: `Turn ${t}${labels[t - 1] ? " (" + labels[t - 1] + ")" : ""}${reinfTurns.has(t) ? ": reinforcements" : ""}`, "aria-current": t === v.turn ? "step" : null }, [
        h("b", { text: String(t) }),
        labels[t - 1] ? h("span", { text: labels[t - 1] }) : null,
      ]),
    );
  }
  const steps = h("div.phase-steps", { "aria-label": `Phase: ${v.phase}` });
  const active = v.active ? S.scenario.sides[v.active] : null;
  if (active) steps.appendChild(h("span.now", { style: `background:${active.color};color:${active.text_color || "#fff"}`, text: active.adjective || active.name }));
  if (PHASES.includes(v.phase)) for (const p of PHASES) steps.appendChild(h(`span${p === v.phase ? ".now" : ""}`, { text: p }));
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
  if (v.phase === "over" || !aw) {
    text = "The battle is over.";
  } else if (S.role === "seat" && aw === S.side) {
    text = v.prompt && v.prompt.side === S.side && v.prompt.kind !== "phase" ? `Your decision: ${v.prompt.text}` : `Your move: ${sideName(S.side)} ${phaseWord}.`;
    sub = v.prompt && v.prompt.side === S.side && v.prompt.kind !== "phase" ? "" : v.phase === "setup" ? "Units marked 'within one hex' may be placed: select one, click a shaded hex. Then End phase." : v.phase === "movement" ? "Select a unit, then click a shaded hex to move. End the phase when done (E)." : v.phase === "combat" ? "Select your units, then click an enemy to see the odds and attack. End the phase when done (E)." : "Act, then end the phase (E).";
  } else {
    const who = playerName(aw);
    text = `Waiting for ${who ? who + " (" + sideName(aw) + ")" : sideName(aw)}${v.prompt && v.prompt.side === aw ? ` to decide: ${v.prompt.text}` : ` to play the ${phaseWord}`}.`;
  }
  const since = !S.history && v.game && v.game.awaiting_since ? ago(v.game.awaiting_since) : "";
  add(sec, 
    h("h3", {}, [S.role === "seat" ? `You play ${sideName(S.side)}` : S.role === "admin" ? "Admin view (read-only)" : "Spectating (read-only)", v.spectators ? h("span", { text: `${v.spectators} watching`, title: "Spectators" }) : null]),
    h(`div.whose${S.role === "seat" && aw === S.side ? ".mine" : ""}#whose`, {}, [side ? h("span.side-dot", { style: `background:${side.color}`, "aria-hidden": "true" }) : null, h("span", { text })]),
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

function renderPrompt() {
  const v = currentView();
  const sec = $("#sec-prompt");
  const p = v.prompt;
  if (!p || v.phase === "over" || (p.kind === "phase" && !(p.options || []).length)) {
    if (!(S.game && S.game.status === "waiting")) sec.hidden = true;
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
  for (const o of p.options || []) {
    const hexes = [...optionHexes(o)];
    const hot = S.promptFilter && hexes.includes(S.promptFilter);
    const b = h(`button.btn.option-btn${hot ? ".hot" : ""}`, {
      type: "button",
      disabled: !mine,
      "data-option": o.id,
      text: o.label || o.text || String(o.id),
      "aria-label": `${o.label || o.id}${hexes.length ? " (hex " + hexes.join(", ") + ")" : ""}`,
      onclick: () => choose(o),
      onmouseenter: () => {
        if (hexes.length) renderOverlays(o);
      },
      onmouseleave: () => renderOverlays(),
    });
    list.appendChild(b);
  }
  sec.appendChild(list);
  if (mine && (p.options || []).some((o) => optionHexes(o).size)) sec.appendChild(h("div.whose-sub", { text: "The choices are outlined on the map: click one there or here." }));
}

function previewTable(pv) {
  if (!pv) return null;
  const rows = [];
  const odds = pv.odds || pv.probabilities || null;
  if (odds) {
    for (const [res, p] of Object.entries(odds).sort((a, b) => b[1] - a[1])) {
      rows.push(h("tr", {}, [h("td", { text: resultMeaning(res, pv) }), h("td", { style: "width:45%" }, [h("div.bar", { style: `width:${Math.round(p * 100)}%` })]), h("td", { text: pct(p) })]));
    }
  }
  const dieRow = Array.isArray(pv.results) ? h("div.whose-sub", { text: `By combat die 1–6: ${pv.results.join(", ")}` }) : null;
  return h("div", {}, [
    h("dl.kv", {}, [
      ...(pv.attack !== undefined ? [h("dt", { text: "Attack" }), h("dd", { text: String(pv.attack) })] : []),
      ...(pv.defense !== undefined ? [h("dt", { text: "Defence" }), h("dd", { text: String(pv.defense) })] : []),
      ...(pv.differential !== undefined ? [h("dt", { text: "Differential" }), h("dd", { text: (pv.differential > 0 ? "+" : "") + pv.differential })] : []),
      ...(pv.column_label !== undefined || pv.column !== undefined ? [h("dt", { text: "CRT column" }), h("dd", { text: String(pv.column_label ?? pv.column) })] : []),
      ...(pv.range !== undefined && pv.range !== null ? [h("dt", { text: "Range" }), h("dd", { text: String(pv.range) })] : []),
    ]),
    rows.length ? h("table.odds", { "aria-label": "Chance of each result" }, [h("tbody", {}, rows)]) : null,
    dieRow,
  ]);
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
  sec.appendChild(h("h3", { text: `Selected in ${S.selHex}` }));
  const units = h("div.sel-units", { role: "group", "aria-label": "Units in the selected hex (toggle to include)" });
  for (const u of myUnitsIn(S.selHex)) {
    const on = S.selected.includes(u);
    const b = h("button.sel-unit", {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      "aria-label": `${on ? "Included" : "Not included"}: ${describeUnit(defs()[u], v.units[u])}`,
      "data-unit": u,
      onclick: () => {
        const set = new Set(S.selected);
        if (set.has(u)) set.delete(u);
        else set.add(u);
        if (!set.size) return cancel();
        select(S.selHex, [...set]);
      },
    });
    b.appendChild(counterIcon(S.scenario, u, v.units[u], 38));
    units.appendChild(b);
  }
  sec.appendChild(units);
  const o = S.options;
  if (!o) {
    sec.appendChild(h("div.whose-sub", { text: "Asking the referee what these units may do…" }));
    return;
  }
  const bits = [];
  if (o.reach.size) bits.push(`${o.reach.size} hexes reachable (shaded, with MP cost)`);
  if (o.attacks.length) bits.push(`${o.attacks.length} attack target${o.attacks.length > 1 ? "s" : ""} (red)`);
  if (o.bombards.length) bits.push(`${o.bombards.length} bombardment target${o.bombards.length > 1 ? "s" : ""}`);
  const nCharge = new Set(o.charges.map((c) => c.target)).size;
  if (nCharge) bits.push(`${nCharge} charge target${nCharge > 1 ? "s" : ""}`);
  sec.appendChild(h("div.whose-sub#sel-summary", { text: bits.length ? bits.join("; ") + "." : "These units have nothing to do now." }));
  for (const n of [].concat(o.notes || [])) sec.appendChild(h("div.whose-sub", {}, [typeof n === "string" ? n : n.text || JSON.stringify(n), n.rule ? h("span.rule", { text: `rule ${n.rule}`, style: "margin-left:6px" }) : null]));
  const ct = chargeMoveTargets();
  if (ct.size && myTurn()) {
    const names = [...ct.keys()].join(", ");
    sec.appendChild(h("div.actions.charge-bar", { style: "margin-top:6px" }, [
      h(`button.btn.charge-toggle${S.chargeMode ? ".on" : ""}#charge-toggle`, {
        type: "button",
        "aria-pressed": S.chargeMode ? "true" : "false",
        "aria-label": S.chargeMode ? "Leave charge mode and show reachable hexes again (C or Escape)" : `Charge mode: show the enemy hexes this cavalry can charge (${names}) (C)`,
        title: "rule 9.2",
        onclick: () => setChargeMode(!S.chargeMode),
      }, [S.chargeMode ? "Leave charge mode " : "Charge ", h("kbd", { text: "C" })]),
    ]));
    if (S.chargeMode) {
      sec.appendChild(h("div.whose-sub#charge-help", { text: "Charge mode: click an enemy hex outlined in dashed blue to move up to two hexes next to it and declare a charge. The charge itself is made in your combat phase. Esc leaves charge mode." }));
      const targets = h("div.actions.charge-targets#charge-targets", { role: "group", "aria-label": "Charge targets" });
      for (const t of ct.values()) {
        targets.appendChild(h("button.btn.small.charge-target-btn", {
          type: "button",
          "data-target": t.target,
          "aria-label": `Charge ${t.target}: move by ${t.path.slice(1).join(", ")} and declare a charge`,
          text: `Charge ${t.target}`,
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
  if (S.preview) {
    const { kind, item } = S.preview;
    const title = kind === "attack" ? `Attack ${item.target}` : kind === "bombard" ? `Bombard ${item.target}` : `Charge ${item.target}`;
    const box = h("div.panel-section#preview", { style: "margin-top:8px;border-color:#d55e00" }, [h("h3", {}, [title, h("span.rule", { text: `rule ${item.rule}` })]), previewTable(item.preview)]);
    if (kind === "bombard" && item.los === false) box.appendChild(h("div.form-error", { text: "No line of sight." }));
    const confirm = h("button.btn.primary#confirm-action", {
      type: "button",
      text: `Confirm ${kind}`,
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
          else cmd = { type: "charge", target: item.target, units: item.units || S.selected, ...(item.path ? { path: item.path } : {}) };
        }
        send(cmd);
        cancel();
      },
    });
    box.appendChild(h("div.actions", {}, [confirm, h("button.btn", { type: "button", text: "Cancel (Esc)", onclick: () => { S.preview = null; renderSelection(); renderOverlays(); } })]));
    sec.appendChild(box);
  }
  const d0 = defs();
  if (S.selected.some((u) => d0[u] && (d0[u].kind === "infantry" || d0[u].kind === "battalion")) && !o.commands.some((c) => /square/.test(c.command.type || ""))) {
    o.commands.push({ label: "Form square", command: { type: "form_square", hex: S.selHex }, rule: "9.3" });
  }
  if (o.commands.length) {
    const acts = h("div.actions", { style: "margin-top:6px" });
    for (const c of o.commands) acts.appendChild(h("button.btn", { type: "button", text: c.label, title: c.rule ? `rule ${c.rule}` : null, onclick: () => { send(c.command); cancel(); } }));
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
  if (S.game && S.game.status === "waiting" && S.role === "seat" && S.game.invite_token) {
    const link = `${location.origin}/games/${gameId}?invite=${S.game.invite_token}`;
    sec.appendChild(h("div.whose-sub", { text: "Waiting for your opponent. Send them this invite link:" }));
    sec.appendChild(h("div.invite", {}, [h("input", { value: link, readonly: true, "aria-label": "Invite link", onfocus: (e) => e.target.select() }), h("button.btn.small", { type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Invite link copied.")) })]));
  }
  if (acts.childNodes.length) sec.appendChild(acts);
  sec.appendChild(h("div.whose-sub", { style: "margin-top:6px", html: "Keys: <kbd>E</kbd> end phase · <kbd>U</kbd>/<kbd>Ctrl+Z</kbd> undo · <kbd>N</kbd>/<kbd>Tab</kbd> next unit · <kbd>C</kbd> charge mode (cavalry) · <kbd>Esc</kbd> cancel · wheel/pinch zoom, drag to pan" }));
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
  const ol = clear($("#log"));
  const entries = S.history ? S.history.log : S.log;
  for (const entry of entries) {
    const who = entry.side ? sideName(entry.side) : "";
    const cmdType = entry.command && entry.command.type;
    const evs = entry.events || [];
    if (!evs.length && cmdType) ol.appendChild(h("li", { "data-seq": entry.seq, text: `${who}: ${cmdType.replace("_", " ")}` }));
    for (const ev of evs) {
      const isDice = ev.type === "dice";
      const txt = isDice && Array.isArray(ev.dice) && !ev.text ? `Dice (${ev.purpose || "roll"}): ${ev.dice.join(", ")}` : eventText(ev);
      ol.appendChild(h(`li${isDice ? ".dice-entry" : ""}${ev.type === "turn" || ev.type === "phase" ? ".turn" : ""}`, { "data-seq": entry.seq, "data-type": ev.type, text: txt }));
    }
  }
  if (!entries.length) ol.appendChild(h("li.empty", { text: "Nothing has happened yet." }));
  ol.scrollTop = ol.scrollHeight;
}

/** The combat result panel: the latest dice roll with the CRT cell and what happened. */
function renderCombat() {
  const sec = $("#sec-combat");
  const entries = S.history ? S.history.log : S.log;
  let events = null;
  for (let i = entries.length - 1; i >= 0 && !events; i--) {
    const evs = entries[i].events || [];
    if (evs.some((e) => e.type === "dice")) events = evs;
  }
  if (!events && S.lastCombat) events = S.lastCombat;
  if (!events) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const dice = events.filter((e) => e.type === "dice");
  const rest = events.filter((e) => e.type !== "dice");
  sec.appendChild(h("h3", { text: "Last result" }));
  for (const d of dice) {
    const row = h("div.dice", { "aria-label": `${d.purpose || "dice"}: ${(d.dice || []).join(" and ")}` });
    (d.dice || []).forEach((n, i) => {
      const lab = (d.labels && d.labels[i]) || "";
      row.appendChild(h("div", {}, [h(`div.die${/morale/i.test(lab) ? ".morale" : ""}`, { text: String(n) }), h("div.die-label", { text: lab })]));
    });
    row.appendChild(h("span.muted", { style: "font-size:12px", text: d.purpose ? `${d.purpose}` : "" }));
    sec.appendChild(row);
  }
  const res = events.find((e) => e.result || e.column_label || e.type === "combat");
  if (res && (res.result || res.column_label)) sec.appendChild(h("div.kv", {}, [h("dt", { text: "CRT" }), h("dd", { text: `${res.column_label ? "column " + res.column_label : ""}${res.result ? " → " + res.result : ""}` })]));
  const ul = h("ul", { style: "margin:4px 0 0;padding-left:18px;font-size:13px" });
  for (const e of rest) ul.appendChild(h("li", { text: eventText(e) }));
  sec.appendChild(ul);
}

function renderOverlays(hoverOption = null) {
  if (!map) return;
  map.clearOverlays();
  const v = currentView();
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
  if (!o || !S.selected.length || S.history) return;
  if (S.chargeMode) {
    // 9.2: charge targets instead of reachable hexes; the shortest path to the hovered one
    const ct = chargeMoveTargets();
    map.ringHexes([...ct.values()].map((t) => ({ hex: t.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${t.target} (by ${t.path.slice(1).join(", ")})` })));
    const hv = ct.get(S.chargeHover || S.hoverHex);
    if (hv) map.drawPath(hv.path, { colour: OKABE.blue, width: 5 });
    return;
  }
  const shade = [];
  for (const [hex, r] of o.reach) shade.push({ hex, colour: r.ends ? OKABE.yellow : OKABE.sky, label: r.cost ?? "", title: `${hex}: ${r.cost ?? "?"} MP${r.ends ? ", ends the move (enemy ZOC)" : ""}`, cls: "reach" });
  map.shadeHexes(shade);
  map.ringHexes(o.attacks.map((a) => ({ hex: a.target, colour: OKABE.vermillion, label: a.preview && a.preview.differential !== undefined ? `${a.preview.differential > 0 ? "+" : ""}${a.preview.differential}` : "attack", cls: "target attack-target", title: `Attack ${a.target}` })));
  map.ringHexes((o.illegal || []).map((a) => ({ hex: a.target, colour: "#555555", dash: "3 3", width: 2.5, label: "no", cls: "target illegal-target", title: a.message })));
  map.ringHexes(o.bombards.map((b) => ({ hex: b.target, colour: OKABE.orange, dash: "6 3", label: b.range ? `rng ${b.range}` : "bomb", cls: "target bombard-target", title: `Bombard ${b.target}` })));
  map.ringHexes(o.charges.filter((c) => c.kind === "charge").map((c) => ({ hex: c.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${c.target}` })));
  if (S.preview) {
    const it = S.preview.item;
    if (S.preview.kind === "bombard") map.drawLine(S.selHex, it.target, { colour: it.los === false ? "#777" : OKABE.orange, label: it.range ? `range ${it.range}` : null });
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
    h("div", { text: "Counter: attack-defence-morale-movement; (n) artillery range; cN charge; pale = ineffective; white band = reduced; ★ leader." }),
  ]);
  legend.appendChild(extra);
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
    if (S.chargeMode) {
      setChargeMode(false);
      return;
    }
    cancel();
    if (S.history) goHistory(null);
  } else if (k === "e" || k === "E") endPhase();
  else if (k === "u" || k === "U") undo();
  else if (k === "n" || k === "N") cycleUnits(1);
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
