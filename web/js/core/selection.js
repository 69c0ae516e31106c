// The select → options → command loop: a click selects units (or answers the pending decision), the options
// endpoint says what the selection may do, and a click on a shaded or outlined hex sends the command. The
// edition reads the options answer into the page's shape and may take a click for a mode of its own
// (editions/index.js); what is legal is always the server's answer, never guessed here.

import { api } from "../api.js";
import { normalizeOptions } from "../ui/options.js";
import { toast, confirmDialog } from "../ui/chrome.js";
import { S, page, defs, myTurn, activePrompt, showError } from "./store.js";
import { send } from "./sync.js";
import { promptOptionsAt, choose, renderPrompt, activeMapChoice } from "./prompt.js";
import { chargeMoveTargets, chargeClick } from "./charges.js";
import { startBuilder } from "./builder.js";
import { waitingAt, entryOf, offboardUnits, renderOffboard } from "./offboard.js";
import { renderSelection } from "./selectionpanel.js";
import { renderOverlays } from "./overlays.js";
import { renderPhasePanel } from "./panels.js";

export function myUnitsIn(hex) {
  const d = defs();
  return page.map.unitsIn(hex).filter((u) => d[u] && d[u].side === S.side);
}

/** My units in a hex that can still act in this phase: the default selection when the hex is clicked
 *  (a moved unit cannot move again; a unit that attacked cannot attack again). */
export function actorsIn(hex) {
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
 *  from several hexes combine into one combat, several guns fire together. */
function wantsAdd(evt) {
  return !!(evt && (evt.shiftKey || evt.ctrlKey || evt.metaKey)) || S.addMode;
}

export function onUnitClick(unit, hex, evt, pointerHex = null) {
  if (S.history) return onHexClick(pointerHex || hex, evt);
  const d = defs()[unit];
  const prompt = activePrompt();
  if (prompt) {
    // on a map choice a counter means the hex it stands on, or the outlined hex under the pointer it lies over
    const mc = activeMapChoice();
    if (mc) return onHexClick(pointerHex && mc.byHex.has(pointerHex) ? pointerHex : hex, evt);
    return onHexClick(hex, evt, unit);
  }
  if (!d || d.side !== S.side || !myTurn()) {
    // enemy or not my turn: maybe it is an attack / bombard target
    return onHexClick(hex, evt, unit);
  }
  // the edition's own mode may mean the hex, not the counter (a path plotted hex by hex, leaving the map)
  const meant = page.edition.unitClickHex ? page.edition.unitClickHex(unit, hex, pointerHex) : null;
  if (meant) return onHexClick(meant, evt);
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

export function onHexClick(hex, evt, unit = null) {
  if (!hex) return;
  if (S.history) return;
  const prompt = activePrompt();
  if (prompt) {
    const opts = promptOptionsAt(prompt, hex, unit);
    if (opts.length === 1) return choose(opts[0]);
    if (opts.length > 1) {
      S.promptFilter = hex; // several paths lead there: the prompt asks which, the map draws them
      renderPrompt();
      renderOverlays();
      return;
    }
    return;
  }
  if (!myTurn()) return;
  if (S.chargeMode) return chargeClick(hex);
  if (page.edition.mapClick && page.edition.mapClick(hex, evt)) return;
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
    // the edition's own commands for a hex (a re-entry, leaving the map, a march)
    const own = page.edition.commandAt ? page.edition.commandAt(hex, r, o) : null;
    if (own) {
      send(own);
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
      send({ type: "move", units: [...S.selected], path });
      cancel(false);
      return;
    }
  }
  const mine = actorsIn(hex);
  if (mine.length && wantsAdd(evt) && S.selected.length) return addHex(hex);
  if (mine.length) return select(hex, mine);
  // an entry hex with units waiting to come on: select them
  const waiting = waitingAt(hex);
  if (waiting.length) return selectOffboard(waiting);
  cancel();
}

export function select(hex, units) {
  S.selHex = hex;
  S.selHexes = hex ? [hex] : [];
  S.offSel = null;
  S.selected = units;
  S.preview = null;
  S.builder = null;
  S.chargeMode = false;
  S.addMode = false;
  resetEdition("select");
  const map = page.map;
  map.setSelected(units);
  map.setExpanded(hex && map.unitsIn(hex).length > 1 ? hex : null);
  refreshOptions();
  renderSelection();
  renderOffboard();
}

/** Add a hex's units to the selection (combined attacks, several guns). */
export function addHex(hex) {
  const more = actorsIn(hex).filter((u) => !S.selected.includes(u));
  if (!more.length) return;
  S.selHexes = [...new Set([...S.selHexes, hex])];
  S.selected = [...S.selected, ...more];
  S.preview = null;
  S.builder = null;
  S.addMode = false;
  page.map.setSelected(S.selected);
  refreshOptions();
  renderSelection();
}

/** Select units waiting off the map at one entry hex (reinforcements, units returning). */
export function selectOffboard(units) {
  const entry = entryOf(units[0]);
  resetEdition("offboard");
  S.selHex = null;
  S.selHexes = [];
  S.offSel = entry;
  S.selected = units;
  S.preview = null;
  S.builder = null;
  S.chargeMode = false;
  const map = page.map;
  map.setSelected([]);
  map.setExpanded(null);
  refreshOptions();
  renderSelection();
  renderOffboard();
  if (entry && map.grid.contains(entry)) map.centerOn(entry);
}

export function cancel(render = true) {
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
  resetEdition("cancel");
  if (page.map) {
    page.map.setSelected([]);
    page.map.setExpanded(null);
  }
  if (render) {
    renderOverlays();
    renderSelection();
    renderPrompt();
    renderOffboard();
  }
}

/** The edition forgets its own per-selection state (a mode, a plotted path) when the selection changes. */
function resetEdition(how) {
  if (page.edition.resetSelection) page.edition.resetSelection(how);
}

/** Include or leave out one unit of the selection (a stack's units, guns, waiting reinforcements). */
export function toggleSelected(u) {
  const set = new Set(S.selected);
  if (set.has(u)) set.delete(u);
  else set.add(u);
  if (!set.size) return cancel();
  const keep = S.selected.filter((x) => set.has(x)).concat([...set].filter((x) => !S.selected.includes(x)));
  S.selected = keep;
  S.preview = null;
  S.builder = null;
  page.map.setSelected(S.offSel ? [] : keep);
  refreshOptions();
  renderSelection();
  renderOffboard();
}

/** An options answer the page can still draw when the server refused the question. */
function emptyOptions() {
  const o = normalizeOptions({});
  o.squares = [];
  o.attackChoices = new Map();
  return o;
}

export async function refreshOptions() {
  if (!S.selected.length || !myTurn()) {
    S.options = null;
    renderOverlays();
    return;
  }
  const key = `${S.version}:${S.selected.join(",")}`;
  S.optionsFor = key;
  S.options = null;
  try {
    const raw = await api.options(page.gameId, S.selected);
    if (S.optionsFor !== key) return;
    S.options = page.edition.readOptions ? page.edition.readOptions(raw) : normalizeOptions(raw);
    S.optionsKey = key;
    if (page.edition.optionsArrived) page.edition.optionsArrived();
  } catch (e) {
    if (S.optionsFor !== key) return;
    S.options = emptyOptions();
    S.optionsKey = key;
    showError(e);
  }
  renderOverlays();
  renderSelection();
}

/** The phase's own options, which need no selection (the edition says in which phases it asks for them). */
export async function refreshPhaseOptions() {
  if (!myTurn() || !(page.edition.phaseOptions || []).includes(S.view.phase)) {
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
    const raw = await api.options(page.gameId, []);
    if (!S.phaseOptions || S.phaseOptions.key !== key) return;
    S.phaseOptions = { key, raw: (raw && raw.options) || {} };
  } catch (e) {
    showError(e);
    return;
  }
  renderPhasePanel();
  renderOverlays();
}

function unitsThatCanAct() {
  if (!myTurn()) return [];
  const out = [];
  // units off the map due now come on in the movement phase
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

export function cycleUnits(dir = 1) {
  const list = unitsThatCanAct();
  if (!list.length) return;
  const cur = S.selected[0];
  const i = list.indexOf(cur);
  const next = list[(i + dir + list.length) % list.length];
  const st = S.view.units[next];
  if (st.status !== "map") return selectOffboard([next]);
  const hex = st.hex;
  select(hex, [next]);
  page.map.centerOn(hex);
}

export async function endPhase() {
  if (!myTurn()) return;
  if (page.edition.endPhase && (await page.edition.endPhase())) return; // the edition's own end (its step, its segment)
  if (activePrompt()) {
    toast("Answer the pending decision first.", { kind: "error", rule: activePrompt().rule });
    return;
  }
  // the kinds that need not move are the edition's (editions/index.js: quietKinds); a leader by default
  const quiet = page.edition.quietKinds || ["leader"];
  const idle = S.view.phase === "movement" ? unitsThatCanAct().filter((u) => !quiet.includes(defs()[u].kind)) : [];
  if (idle.length) {
    const names = idle.map((u) => (defs()[u] ? defs()[u].name : u));
    const ok = await confirmDialog(`End the ${S.view.phase} phase?`, `${idle.length} unit${idle.length > 1 ? "s have" : " has"} not moved: ${names.join(", ")}.`, { ok: "End phase" });
    if (!ok) return;
  }
  cancel();
  send({ type: "end_phase" });
}

export function undo() {
  if (!myTurn() && !(S.role === "seat" && !S.history)) return;
  cancel();
  send({ type: "undo" }, { undo: true });
}
