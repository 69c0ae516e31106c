// Musket & Pike (ruleset `musket-and-pike`, seed 004 + R17): what the game page does only for it, wired to the core
// through the hooks of editions/index.js. The rules core lists, for the selected units of the active wing, every
// command they may be given now (server/rules/musket_and_pike/options.py: moves to each reachable hex with every
// facing, faces, fire with its odds, Reform, modes, Rally, close combats) and End segment as the segment's action:
// moves.js turns them into clicks on the map (a destination, then its facing) and buttons; panel.js draws the turn,
// the wings' orders and activations and the last fire or close combat explained; marks.js each counter's order and
// state; scenario.js the scenario in the map's shapes. The decisions (orders changes, activation, preemption,
// continuation, interception, reactions, pistols, retreats, advances, facings, leaders' placements) are the core's
// prompt, each choice with its odds and what it does (words.js optionNote).

import { h, $, OKABE } from "../../ui/dom.js";
import { confirmDialog } from "../../ui/chrome.js";
import { S, page, defs, currentView, myTurn, nameOf, sideName, activePrompt } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { select, cancel } from "../../core/selection.js";
import { kindWords, detailWords, stateWords, signed, ORDER_NAMES, SEGMENT_WORDS, STEP_WORDS } from "./words.js";
import { optionNote } from "./words.js";
import { renderMPPanel, renderSegmentBox } from "./panel.js";
import { drawTags } from "./marks.js";
import { pageScenario } from "./scenario.js";
import { readOptions, resetSelection, mapClick, unitClickHex, selectionOverlays, selectionTools, reachLook, optionsArrived, onEscape, onKey } from "./moves.js";

const KEY = "musket-and-pike";

function mount() {
  const sec = h("section.panel-section.mp-box#sec-mp", { "aria-label": "Musket & Pike: turn, wings and orders, the last fire or close combat", hidden: true });
  const after = $("#sec-offboard");
  after.parentNode.insertBefore(sec, after.nextSibling);
}

function renderPanels() {
  const sec = $("#sec-mp");
  if (sec) renderMPPanel(sec, { view: currentView(), side: S.side, log: S.log || [], nameOf, sideName, scenario: S.scenario, defs: defs() });
}

/** A unit's state as the view has it now (the hover card reads the plain view, the map the decorated one). */
function mpState(def, state) {
  if (state && state.mp) return state.mp;
  const v = currentView();
  return v && v[KEY] && v[KEY].units ? v[KEY].units[def.id] : null;
}

/** Select one unit of the active wing (the segment box's buttons): its hex, it alone. */
function selectUnit(id) {
  const st = (S.view.units || {})[id];
  if (!st || !st.hex) return;
  select(st.hex, [id]);
  page.map.centerOn(st.hex);
}

/** E: End segment, after a confirmation when units of the active wing have not moved (R17.25). */
async function endSegment() {
  if (!myTurn()) return true;
  if (activePrompt()) return false; // the core says to answer it first
  const mp = S.view[KEY];
  if (mp && mp.segment === "movement" && mp.wing) {
    const idle = Object.entries(mp.units || {}).filter(([id, u]) => (defs()[id] || {}).wing === mp.wing && !u.moved && !u.acted).map(([id]) => nameOf(id));
    if (idle.length) {
      const ok = await confirmDialog("End the Movement Segment?", `${idle.length} unit${idle.length > 1 ? "s have" : " has"} not moved: ${idle.join(", ")}.`, { ok: "End segment" });
      if (!ok) return true;
    }
  }
  cancel();
  send({ type: "end_segment" });
  return true;
}

// a wing's units' hexes, for the wing choices of a decision (activate, preempt): outlined and clickable on the map
function wingHexes(wid, v) {
  const out = [];
  for (const [id, d] of Object.entries(defs())) {
    const st = (v.units || {})[id];
    if (d.wing === wid && d.type !== "leader" && st && st.hex && st.status === "map") out.push(st.hex);
  }
  return out;
}

/** What the selection may do now, in words: its reachable hexes, its targets, its other commands. */
function selectionSummary(o) {
  if (!o.mp) return null;
  const bits = [];
  if (o.reach.size) bits.push(`${o.reach.size} hex${o.reach.size === 1 ? "" : "es"} ${nameOf(o.mp.mover)} may reach (shaded): click one, then its facing`);
  const fire = [...o.mp.targets.values()].filter((l) => l[0].command.type === "fire").length;
  const cc = [...o.mp.targets.values()].filter((l) => l[0].command.type === "close_combat").length;
  if (fire) bits.push(`${fire} target${fire === 1 ? "" : "s"} to fire at (ringed): click one for the odds`);
  if (cc) bits.push(`${cc} defender${cc === 1 ? "" : "s"} to attack (ringed): click one for each way to attack it`);
  const others = o.commands.filter((c) => !["fire", "close_combat"].includes(c.command.type)).length;
  if (others) bits.push(`${others} other command${others === 1 ? "" : "s"} below`);
  return bits.length ? `${bits.join("; ")}.` : "Nothing for this selection to do now.";
}

export const musketAndPike = {
  name: KEY,
  scenario: pageScenario,
  counter: {
    // R17.10: strength, morale, movement allowance; a leader his rating (R17.5)
    factors: (def) => (def.type === "leader" ? `${def.role === "ac" ? "AC" : "WC"} ${signed(def.rating ?? 0)}` : def.type ? `${def.sp}-${def.morale}-${def.ma}` : undefined),
    // the hover card: "Tercio (Heavy Infantry): with pikes, two-hex unit (R17.14); strength 12, morale 7, movement 3"
    kind: (def) => (def.type ? kindWords(def) : undefined),
    describe: (def) => (def.type === "leader" ? detailWords(def) : def.type ? [detailWords(def), `strength ${def.sp}, morale ${def.morale}, movement ${def.ma}`].filter(Boolean).join("; ") : undefined),
    flags(def, state) {
      const u = mpState(def, state || {});
      const wing = u && ((currentView() || {})[KEY] || {}).wings;
      const w = wing && wing[def.wing];
      return [...(w ? [`${w.name} (${ORDER_NAMES[w.order] || w.order})`] : []), ...(u ? stateWords(def, u) : [])];
    },
  },
  mount,
  renderPanels,

  readOptions,
  optionsArrived,
  resetSelection,
  unitClickHex,
  mapClick,
  selectionTools,
  selectionSummary,
  addHexes: false, // R17.80: the options list every close combat with every attacker that may join it
  phaseOptions: ["recovery", "movement", "combat"],
  renderPhasePanel: (sec, raw, v) => renderSegmentBox(sec, raw, v, { side: S.side, defs: defs(), nameOf, send, select: selectUnit }),

  /** The counters carry the edition's unit state (for their words). */
  mapView(v) {
    const mp = v[KEY];
    if (!mp) return v;
    const units = {};
    for (const [id, u] of Object.entries(v.units || {})) units[id] = mp.units[id] ? { ...u, mp: mp.units[id] } : u;
    return { ...v, units };
  },
  overlays(v) {
    drawTags(page.map, v, defs());
    // R17.38: the leader a decision moves, marked where he stands (the choices are where he may go)
    const p = v.prompt;
    if (p && p.kind === "lone_leader") {
      const d = defs();
      const g = page.map.grid;
      const enemyNext = (hx) => Object.entries(v.units || {}).some(([id, u]) => u.status === "map" && u.hex && d[id] && d[id].side !== p.side && d[id].type !== "leader" && g.isAdjacent(hx, u.hex));
      const here = (hx) => Object.entries(v.units || {}).filter(([id, u]) => u.hex === hx && u.status === "map" && d[id] && d[id].side === p.side);
      const alone = Object.entries(v.units || {}).filter(([id, u]) => d[id] && d[id].type === "leader" && d[id].side === p.side && u.status === "map" && here(u.hex).every(([o]) => d[o].type === "leader") && enemyNext(u.hex));
      page.map.ringHexes(alone.map(([id, u]) => ({ hex: u.hex, colour: OKABE.vermillion, width: 3, dash: "4 3", label: "alone", cls: "mp-lone", title: `${nameOf(id)}: alone beside the enemy (R17.38)` })));
    }
  },
  selectionOverlays,
  reachLook,
  turnPhases: ["recovery", "movement", "combat"],
  quietKinds: ["leader"],
  endPhase: endSegment,

  statusHint(v) {
    const mp = v[KEY];
    if (!mp) return null;
    if (mp.step === "start") return "Open the battle (the segment box's button or E): the first initiative is rolled (M19).";
    const wing = mp.wing ? mp.wings[mp.wing] : null;
    if (!wing) return STEP_WORDS[mp.step] || null;
    const what = { movement: "select a unit, click a shaded hex, then its facing", action: "select a unit: fire (click a ringed target), reform, change mode or rally", close_combat: "select an attacker, click a ringed defender or a close-combat button" }[mp.segment] || "";
    return `${wing.name} (${ORDER_NAMES[wing.order]}), ${SEGMENT_WORDS[mp.segment] || mp.segment}: ${what}; End segment (E) when done.`;
  },
  optionText: (o) => o.label || String(o.id),
  optionNote,
  // R17.25: the wing to activate may be chosen by a click on one of its units (a preemption, which rolls, by its button)
  optionHexes(o, v) {
    const p = v && v.prompt;
    return o && o.wing && p && p.kind === "activate" ? wingHexes(o.wing, v) : [];
  },
  combatRules: "10.0, 11.0",
  // the Last result panel spans a close combat from its declaration (or an interception) across its decisions (the
  // pistol, the retreat, the advance); a fire's is its own entry. The events' texts name the table and modifiers.
  results: { declared: ["close_combat_declared", "interception"] },
  rules: { enter: "R17.97", combine: "R17.80", attackers: "R17.80", primary: "R17.80", victory: "R17.92-R17.94" },
  keyHelp: { chargers: "—", more: " · select a unit, click a shaded hex, then its facing (a hex around it, or <kbd>1</kbd>–<kbd>6</kbd>)" },
  legend: {
    counter: "Counter: strength-morale-movement (R17.10), the wedge its facing (R17.16); the tag under it: its wing's order (CH Charge, MR Make Ready, RC Receive Charge, RA Rally) and its state: Col column, OO open order, Hh hedgehog, FS/FB formation shaken/broken, MS/MB morale shaken/broken, cp Casualty Points, S Salvo marker. Tag colour: green the active wing, grey a wing activated this turn, dark not yet.",
  },
  onEscape,
  onKey,
};
