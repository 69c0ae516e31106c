// Horse and Musket (ruleset `horse-and-musket`, seed 003 + R16): what the game page does only for it, wired to the
// core through the hooks of editions/index.js. The rules core lists, for the selected unit or general, every command
// it may be given now (server/rules/horse_and_musket/options.py: rallies, charges with their cards, each move's legs,
// formation changes and deployments, a general's rides, fire with its odds), and for the step the commands that need
// no selection (Aide-de-camp, Steady Lads, End step): the page shows each as a button (words.js). panel.js draws the
// round, step, hand, command rolls, hits and the last combat explained; marks.js the counters' formation and hits
// tags, the hovered unit's fire arc and the declared charges. The charged unit's reaction (fire, countercharge,
// hold) is a decision the core's prompt shows, with the notes below.

import { h, $ } from "../../ui/dom.js";
import { normalizeOptions } from "../../ui/options.js";
import { S, page, currentView, nameOf, sideName } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { commandLabel, COMMAND_RULES, STEP_WORDS, fireOddsText } from "./words.js";
import { renderHMPanel, renderStepBox } from "./panel.js";
import { drawMarks, unitTag } from "./marks.js";

/** The options for the selected units: no shaded hexes (a move is a list of legs, not a destination), one button
 *  per command the rules core offers, a fire's button carrying its odds. */
function readOptions(raw) {
  const o = normalizeOptions({});
  const units = ((raw && raw.options) || {}).units || {};
  for (const [uid, entry] of Object.entries(units)) {
    const odds = new Map((entry.fire || []).map((f) => [f.target, f]));
    for (const c of entry.commands || []) {
      const why = c.type === "fire" ? fireOddsText(odds.get(c.target)) : null;
      o.commands.push({ label: commandLabel(c, nameOf), command: c, rule: COMMAND_RULES[c.type], why, unit: uid });
    }
  }
  return o;
}

// 4.1.3, 4.1.4, R16.13: what each answer to a charge does
const REACTION_NOTES = {
  fire: "Your unit fires at the charger before contact (4.1.3); the charge then comes on.",
  countercharge: "Your cavalry meets the charge: it counts as charging in the hand-to-hand and stays in its hex (4.1.4, H9).",
  hold: "Your unit stands and receives the charge.",
};

function mount() {
  const sec = h("section.panel-section.hm-box#sec-hm", { "aria-label": "Horse and Musket: round, step, cards, command rolls, hits, the last combat", hidden: true });
  const after = $("#sec-offboard");
  after.parentNode.insertBefore(sec, after.nextSibling);
}

function renderPanels() {
  const sec = $("#sec-hm");
  if (sec) renderHMPanel(sec, { view: currentView(), side: S.side, log: S.log || [], nameOf, sideName });
}

/** Each unit's formation, hits and staggered flag in words (the counter's title and hover card). */
function flags(def, state) {
  return state.hm ? [unitTag(state.hm) && `formation ${state.hm.formation}`, state.hm.hits ? `${state.hm.hits} hits` : null, state.hm.staggered ? "staggered" : null].filter(Boolean) : [];
}

export const horseAndMusket = {
  name: "horse-and-musket",
  counter: {
    flags,
    // R16.1: a counter reads as its type and grade (CO close order, LI light infantry, HC, LC, art); no factors
    factors: (def) => (def.type ? `${def.type.toUpperCase()}${def.grade ? ` ${def.grade[0].toUpperCase()}` : ""}` : undefined),
    describe: (def) => (def.type ? `${def.type.toUpperCase()}, ${def.grade || ""}${def.weapon ? `, ${def.weapon}` : ""}`.replace(/, $/, "") : undefined),
  },
  mount,
  renderPanels,

  readOptions,
  phaseOptions: ["recovery", "movement", "combat"],
  renderPhasePanel: (sec, raw, v) => renderStepBox(sec, raw, v, (c) => commandLabel(c, nameOf), send),
  reachSummary: (o) => `${o.commands.length} command${o.commands.length === 1 ? "" : "s"} below`,

  /** The counters carry the edition's unit state (formation, hits, staggered) for their words. */
  mapView(v) {
    const hm = v["horse-and-musket"];
    if (!hm) return v;
    const units = {};
    for (const [id, u] of Object.entries(v.units || {})) units[id] = hm.units[id] ? { ...u, hm: hm.units[id] } : u;
    return { ...v, units };
  },
  overlays: (v) => drawMarks(page.map, v, S.hoverHex, nameOf),
  hoverOverlays: true, // R16.4: the hovered unit's fire arc
  turnPhases: ["recovery", "movement", "combat"],
  quietKinds: ["general", "leader"],

  statusHint(v) {
    const hm = v["horse-and-musket"];
    if (!hm) return null;
    return `${STEP_WORDS[hm.step] || hm.step}: select a unit or general for its commands; End step when done.`;
  },
  optionText: (o) => o.label || String(o.id),
  optionNote: (o, p) => (p && p.kind === "charge_reaction" ? REACTION_NOTES[o.id] || null : null),
  combatRules: "5, 6",
  rules: { enter: "R16.19", combine: "R16.19", attackers: "5", primary: "6" },
  keyHelp: { chargers: "charging units", more: "Select a unit or general: its commands are the buttons under Selected in …" },
  legend: {
    charge: "Charge declared (4.1)",
    counter: "Counter: tag under it = formation (L line, C column, Sk skirmish, R ranks, D deployed, Lb limbered), hits (h) and staggered (st); the wedge is its facing; hover a unit for its fire arc.",
  },
};
