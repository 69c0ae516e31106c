// The Standard rules (ruleset `standard`): what the game page does only for them, wired to the core through the
// hooks described in editions/index.js. The parts live beside this file: options.js reads the referee's options,
// moves.js the declared move, march, leaving the map and the leader's assist, attack.js the builder's tactic and
// coordination, charges and bombardment previews, panel.js the Standard section and phase boxes, previews.js the
// explanations of an attack and a bombardment, counter.js how its counters read (2.4), results.js its combat
// results in words (7.8, R12).

import { h, $, OKABE } from "../../ui/dom.js";
import { S, page, defs, currentView, myTurn, activePrompt, sideName } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { cancel, selectOffboard } from "../../core/selection.js";
import { TRT } from "./options.js";
import { renderStandardPanel, renderStandardActions, renderStandardCombat } from "./panel.js";
import { readOptions, resetSelection, stay, selectDeclared, moveBar, unitClickHex, mapClick, commandAt, moveOverlays, onEscape, onKey } from "./moves.js";
import { builder, makeCharge, openDeclaredCharge, previewBody } from "./attack.js";
import { counter, COUNTER_LEGEND } from "./counter.js";
import { results, resultKey } from "./results.js";
import { setupOptions, setupClick, renderSetup, setupMarks } from "./setup.js";
import { hiddenOverlays, hiddenClick, hiddenEscape, renderHidden } from "./hidden.js";
import { hiddenSetupClick, hiddenSetupEscape } from "./hidden_setup.js";
import { tacticNote } from "./why.js";

/** The Standard section, placed where the page shell used to hold it (after the units off the map). */
function mount() {
  const sec = h("section.panel-section.std-box#sec-standard", { "aria-label": "Standard rules: light, HQ and trains, the declared move, the turn record track", hidden: true });
  const after = $("#sec-offboard");
  after.parentNode.insertBefore(sec, after.nextSibling);
}

/** The Standard section: light, HQ and trains, the declared move (with Stay), FOW owed, the turn record track. */
function renderStandard() {
  renderHidden(); // 19.8
  const sec = $("#sec-standard");
  if (!sec) return;
  const v = currentView();
  const d = v.standard && v.standard.declared;
  const ownDeclared = !!d && d.units.every((u) => defs()[u] && defs()[u].side === S.side);
  renderStandardPanel(sec, {
    scenario: S.scenario, view: v, defs: defs(), sideName, mine: !S.history && myTurn() && !activePrompt(), ownDeclared,
    onStay: () => stay(),
    onSelectDeclared: () => selectDeclared(),
  });
}

/** The phase box: the movement phase's flips, recoveries, replacements, musters and re-entries; the combat phase's
 *  declared charges to make (each through the attack builder). */
function renderPhasePanel(sec, raw, v) {
  if (v.phase === "setup") {
    if (v.active !== S.side) return false;
    renderSetup(sec, raw, v); // 17.1-17.3
    return true;
  }
  if (v.phase === "movement") {
    renderStandardActions(sec, {
      raw, view: v, defs: defs(), declared: !!(v.standard && v.standard.declared),
      onCommand: (c) => { cancel(false); send(c); },
      onReenter: (u) => selectOffboard([u]),
    });
    return true;
  }
  if (v.phase === "combat") {
    renderStandardCombat(sec, { raw, view: v, defs: defs(), onCharge: makeCharge });
    return true;
  }
  return false;
}

/** The view as the map draws it: inactive HQs and trains show their flipped side, marched units and units in open
 *  order say so (12.1, 12.2, 4.7, 19.10; the words are counter.js's flags). */
function mapView(v) {
  if (!v.standard) return v;
  const inactive = new Set(v.standard.inactive || []);
  const marched = new Set(v.standard.marched || []);
  const open = new Set(v.standard.open_order || []); // 19.10: present only when the scenario uses open order
  if (!inactive.size && !marched.size && !open.size) return v;
  const units = {};
  for (const [id, u] of Object.entries(v.units || {})) {
    if (!inactive.has(id) && !marched.has(id) && !open.has(id)) units[id] = u;
    else units[id] = { ...u, inactive: inactive.has(id), flipped: inactive.has(id), marched: marched.has(id), ...(open.has(id) ? { open_order: true } : {}) };
  }
  return { ...v, units };
}

/** 12.3: each side's LOC hexes, marked on the map (and in the lobby's preview) in the side's colour. */
function mapMarks(sc) {
  const out = [];
  for (const [sid, side] of Object.entries(sc.sides || {})) {
    for (const hex of side.loc || []) out.push({ hex, side: sid, text: "LOC", title: `${side.name || sid} LOC hex ${hex} (rule 12.3)`, cls: `loc loc-${sid}`, attrs: { "data-loc": hex } });
  }
  return out;
}

/** 7.13(3), 9.3: the charges declared this movement phase, made in the combat phase. */
function declaredChargeOverlays(v) {
  if (!(v.standard && (v.standard.charges || []).length && !S.chargeMode)) return;
  const map = page.map;
  for (const c of v.standard.charges) {
    const from = [...new Set(c.units.map((u) => (v.units[u] || {}).hex).filter(Boolean))];
    map.ringHexes([{ hex: c.target, colour: OKABE.blue, width: 3, dash: "10 4", label: "charge", cls: "target declared-charge", title: `${sideName(c.side)} charges ${c.target} (7.13(3), 9.3)` }]);
    for (const hx of from) map.drawLine(hx, c.target, { colour: OKABE.blue, dash: "4 4", width: 3 });
  }
}

/** Whether a #rrggbb colour is light (a dark outline reads better around it). */
function light(colour) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour || "");
  if (!m) return false;
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.7;
}

/** 19.7 B: each line's two front hexes, ringed in its side's colour (the view's standard.line.front). */
function lineFrontOverlays(v) {
  const fronts = (v.standard && v.standard.line && v.standard.line.front) || {};
  const rings = [];
  for (const [u, hexes] of Object.entries(fronts)) {
    const d = defs()[u];
    const side = (d && S.scenario.sides[d.side] && S.scenario.sides[d.side].color) || OKABE.blue;
    // a light side colour (the Austrians' white) would vanish on the map: its tint inside a dark dashed ring
    const colour = light(side) ? "#333" : side;
    for (const hx of hexes) if (page.map.grid.contains(hx)) rings.push({ hex: hx, colour, fill: side, width: 2.5, dash: "5 3", cls: "line-front", title: `${d ? d.name : u}'s front hex (rule 19.7 B)` });
  }
  if (rings.length) page.map.ringHexes(rings);
}

/** Marks drawn whatever the selection: declared charges (7.13(3), 9.3) and the lines' fronts (19.7 B). */
function standardOverlays(v) {
  declaredChargeOverlays(v);
  lineFrontOverlays(v);
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

export const standard = {
  name: "standard",
  counter,
  mapMarks,

  initState(s) {
    s.stdMode = "normal"; // the move the page shows, "normal" or "march" (4.7)
    s.offMap = false; // the next move leaves the map from an edge hex (4.1)
    s.assist = null; // the leader whose movement assists the selected stack's move (10.3)
    s.plot = null; // the path plotted hex by hex for an assisted move ([start, ...])
    s.hmSel = null; // 19.8: the selected hidden movement marker and where it may go (hex -> path)
    s.hmReach = null;
    s.hmPick = null; // 19.8 B: the box whose markers are being placed ({box, hexes, allowed})
    s.hmEdit = null; // 19.8 B: the box whose units are being chosen
  },
  mount,
  renderPanels: renderStandard,

  readOptions: (raw) => setupOptions(readOptions(raw), raw),
  optionsArrived: openDeclaredCharge,
  resetSelection,
  unitClickHex,
  mapClick: (hex, evt) => hiddenSetupClick(hex) || hiddenClick(hex) || mapClick(hex, evt), // 19.8: a marker first
  commandAt: (hex, r, o) => setupClick(hex, o) || commandAt(hex, r, o),
  selectionTools: moveBar,
  reachSummary: (o) => `${o.reach.size} hex${o.reach.size > 1 ? "es" : ""} ${[...o.reach.values()].some((r) => r.reenter) ? "to re-enter on (shaded green)" : "reachable (shaded)"}`,
  phaseOptions: ["setup", "recovery", "movement", "combat"],
  renderPhasePanel,
  offMapEntry: (u) => (u.status === "returning" ? TRT : null), // 13.2: units on the turn record track
  entryText: (entry) => (entry === TRT ? "from the TRT" : null),
  // 17.4 (S60): a leader arriving "with a unit of his span" enters with units listed at another hex; the referee judges
  joinsEntry: (id) => defs()[id] && defs()[id].kind === "leader" && S.selected.some((u) => defs()[u] && defs()[u].kind !== "leader"),
  offboard: {
    rules: "rules 13.1, 13.2",
    dueNote: "Due now: select one, then click a shaded hex. A reinforcement enters at its entry hex (13.1); a unit of the turn record track is placed on or next to the active HQ, next to the active trains, or on or next to a LOC hex (13.2).",
  },

  mapView,
  phaseOverlays: setupMarks,
  overlays: (v) => { standardOverlays(v); hiddenOverlays(v); }, // 19.8: the markers
  selectionOverlays: moveOverlays,
  reachLook: (hex, r) => (r.reenter ? { colour: OKABE.green, title: `${hex}: re-enter here (rule 13.2)`, tip: "Re-enter here (rule 13.2)" } : null),
  trackLight: (sc) => (sc.trt || []).map((b) => b.light || "day"),
  turnPhases: ["movement", "combat"], // 3.2: the Standard turn has no recovery phase of its own

  statusHint(v) {
    if (v.phase === "setup") return v.active === S.side ? "Set-up (17.2): select a counter, click a hex in its shaded area; Place the rest as printed, then End set-up." : `${sideName(v.active)} is setting up: its placements are shown when it has finished (17.2).`;
    if (v.phase === "movement") return "Select a stack, then click a shaded hex to move (M: march; D: declare a move whose MA is rolled; O: leave the map). Flip, recover, replace and re-enter in the Movement phase box. End the phase when done (E).";
    if (v.phase === "combat") return v.standard && v.standard.light === "night" ? "Night: only declared infantry charges attack (14.2(4)). End the phase (E)." : "Select your units, then click an enemy to build the attack: its tactic (7.13; a skirmish reaches two hexes), a coordinating leader (7.14), joining leaders (10.3) and supporting guns (8.8); guns alone bombard (8.4). End the phase when done (E).";
    return null;
  },
  // 12.4: a fortune of war's many actions, grouped under their kind
  promptGroups: (p) => ((p.options || []).some((o) => o.action) ? FOW_GROUPS : null),
  optionText: (o) => `${o.label || o.text || String(o.id)}${o.rule && !String(o.label || "").includes(o.rule) ? ` (${o.rule})` : ""}`,
  optionNote: tacticNote, // 7.13, 9.4: what each defending tactic does, and its odds in words (why.js)
  // the unit choices (second_step, ammo, bombard_unit, fortune): the unit's hex
  optionHexes(opt, v) {
    const u = typeof opt.unit === "string" && v && v.units[opt.unit];
    return u && u.hex && u.status === "map" ? [u.hex] : [];
  },
  charge: {
    who: "these units",
    rule: "7.13(3)",
    title: "rules 7.13(3), 9.3",
    help: "Charge: infantry (7.13(3): at most one leader, one battalion and one other infantry unit, moving one or two MP) or cavalry (9.3(1): at most one leader, one squadron and one other cavalry unit, one or two clear hexes), stacked, to a hex next to the enemy. Click an enemy hex outlined in dashed blue (the shortest path), or a button below for another path; the referee judges the terrain, zones of control and stacking. In your combat phase the same units attack it with the charge tactic. Esc leaves charge mode.",
    targetText: (t) => `Charge ${t.target} by ${t.path.slice(1).join(" → ")}`,
  },
  builder,
  previewBody,
  combatRules: "7.7–7.13, 8.4–8.5",
  keyHelp: { chargers: "infantry or cavalry", more: " · <kbd>M</kbd> march · <kbd>D</kbd> declare · <kbd>S</kbd> stay · <kbd>O</kbd> leave the map · <kbd>A</kbd> leader's assist (plot, <kbd>Enter</kbd> to move)" },
  onEscape: () => hiddenSetupEscape() || hiddenEscape() || onEscape(),
  onKey,
  // the shared panels' citations: reinforcements enter (13.1), units of the turn record track re-enter (13.2); a hex
  // is attacked from as many adjacent hexes as can be brought to bear, one primary attacker chosen among them (7.5)
  rules: { enter: (entry) => (entry === TRT ? "13.2" : "13.1"), combine: "7.5", attackers: "7.5", primary: "7.5", victory: "3.1, 18.0" },
  legend: {
    charge: "Charge target (infantry 7.13(3), cavalry 9.3)",
    counter: COUNTER_LEGEND,
    marks: "LOC: a side's LOC hex, the route to its base; lines of retreat and re-entries lead there (12.3, 7.6, 13.2).",
  },
  results,
  resultKey, // R12's results in words (results.js)
  quietKinds: ["leader", "hq", "trains"], // 10.1, 12.1, 12.2: leaders, HQ and trains need not move
};
