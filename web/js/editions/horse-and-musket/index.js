// Horse and Musket (ruleset `horse-and-musket`, seed 003 + R16): what the game page does only for it, wired to the
// core through the hooks of editions/index.js. The rules core lists, for the selected unit or general, every command
// it may be given now (server/rules/horse_and_musket/options.py: rallies, charges with their cards, each move's legs,
// formation changes and deployments, a general's rides, fire with its odds), and for the step the commands that need
// no selection (Aide-de-camp, Steady Lads, End step): the page shows each as a button (words.js). panel.js draws the
// round, step, hand, command rolls, hits and the last combat explained; marks.js the counters' formation and hits
// tags, the hovered unit's fire arc and the declared charges. The charged unit's reaction (fire, countercharge,
// hold) is a decision the core's prompt shows, with the notes below.

import { h, $, OKABE } from "../../ui/dom.js";
import { normalizeOptions } from "../../ui/options.js";
import { S, page, defs, currentView, nameOf, sideName } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { cancel } from "../../core/selection.js";
import { renderSelection } from "../../core/selectionpanel.js";
import { renderOverlays } from "../../core/overlays.js";
import { commandLabel, COMMAND_RULES, STEP_WORDS, fireOddsText, typeText } from "./words.js";
import { renderHMPanel, renderStepBox } from "./panel.js";
import { drawMarks, unitTag } from "./marks.js";

/** The options for the selected units: one button per command the rules core offers (a fire's carrying its odds),
 *  and every command that means a hex on the map (options.py `at`: where a move ends, the hex a turn faces, a charge's
 *  or a fire's target, a general's ride, the rallied unit) shaded there, so that a click on the hex gives it (R16.19).
 *  The buttons stay: every command is also reachable by the keyboard. */
function readOptions(raw) {
  const o = normalizeOptions({});
  const units = ((raw && raw.options) || {}).units || {};
  // a unit selected with the generals in its hex: the map shades the unit's commands (the generals' stay buttons)
  const d = defs();
  const ids = Object.keys(units);
  const troops = ids.filter((u) => !d[u] || d[u].type !== "general");
  const shaded = new Set(troops.length ? troops : ids);
  for (const [uid, entry] of Object.entries(units)) {
    const odds = new Map((entry.fire || []).map((f) => [f.target, f]));
    (entry.commands || []).forEach((c, i) => {
      const why = c.type === "fire" ? fireOddsText(odds.get(c.target)) : null;
      const item = { label: commandLabel(c, nameOf), command: c, rule: COMMAND_RULES[c.type], why, unit: uid };
      o.commands.push(item);
      const at = (entry.at || [])[i];
      if (!at || !shaded.has(uid)) return;
      if (!o.reach.has(at)) o.reach.set(at, { cost: null, path: null, hm: [] });
      o.reach.get(at).hm.push(item);
    });
  }
  o.hmAll = o.commands;
  if (S.hmAt && o.reach.has(S.hmAt)) o.commands = o.reach.get(S.hmAt).hm; // the ways to a hex clicked before
  return o;
}

/** The command a click on a shaded hex gives at once: the only one that means it, else the one plain move there (no
 *  pivot, formation change, deployment or card: it keeps the unit's facing and formation, R16.11), unless the unit may
 *  also turn to face that hex; null when the player must pick among several (the list under Selected narrows to them). */
export function clickCommand(items) {
  if (items.length === 1) return items[0].command;
  // a hex the unit may turn to face and also go to: the player says which
  if (items.some(({ command: c }) => c.type === "move" && (c.legs || []).length === 1 && c.legs[0].pivot && !c.legs[0].steps
    && !c.formation)) return null;
  const plain = items.filter(({ command: c }) => c.type === "move" && !c.card && !c.formation && !c.deploy_facing
    && (c.legs || []).every((l) => !l.pivot && !l.end_pivot));
  return plain.length === 1 ? plain[0].command : null;
}

/** A click on a shaded hex (R16.19): its command, or the choice among the ways to it. */
function mapClick(hex) {
  const o = S.options;
  const r = o && S.selected.length ? o.reach.get(hex) : null;
  if (!r || !r.hm) return false;
  const cmd = clickCommand(r.hm);
  if (cmd) {
    send(cmd);
    cancel(false);
    return true;
  }
  S.hmAt = hex;
  o.commands = r.hm;
  renderSelection();
  renderOverlays();
  return true;
}

/** A click on one of my counters in a shaded hex (a rally's unit, a ride onto a friend, the selected unit's own hex
 *  for a formation change) means the hex. */
function unitClickHex(unit, hex, pointerHex) {
  const o = S.options;
  if (!o || !S.selected.length) return null;
  // a counter of the expanded selected stack lying over a shaded hex: the hex under the pointer is meant
  if (pointerHex && pointerHex !== hex && o.reach.has(pointerHex)) return pointerHex;
  return o.reach.has(hex) && o.reach.get(hex).hm ? hex : null;
}

const LOOKS = { move: OKABE.sky, general: OKABE.green, rally: OKABE.green, charge: OKABE.blue, fire: OKABE.orange };

function reachLook(hex, r) {
  if (!r.hm) return null;
  const kinds = [...new Set(r.hm.map((i) => i.command.type))];
  const cmd = clickCommand(r.hm);
  const what = cmd ? commandLabel(cmd, nameOf) : `${r.hm.length} ways: pick one under Selected`;
  return {
    colour: LOOKS[kinds[0]] || OKABE.sky,
    title: `${hex}: ${what}`,
    tip: cmd ? `Click: ${what}` : `Click: the ${r.hm.length} commands that end here are listed under Selected`,
  };
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
    kind: typeText, // R16.3: a unit's `type` (co, li, hc, lc, artillery, general) in words; it has no `kind`
    // R16.1: a counter reads as its type and grade (CO close order, LI light infantry, HC, LC, art); no factors
    factors: (def) => (def.type ? `${def.type.toUpperCase()}${def.grade ? ` ${def.grade[0].toUpperCase()}` : ""}` : undefined),
    describe: (def) => (def.type ? `${def.type.toUpperCase()}, ${def.grade || ""}${def.weapon ? `, ${def.weapon}` : ""}`.replace(/, $/, "") : undefined),
  },
  mount,
  renderPanels,

  readOptions,
  mapClick,
  unitClickHex,
  reachLook,
  resetSelection: () => { S.hmAt = null; },
  /** Esc after a click on a hex with several ways: every command of the selection again (a second Esc cancels). */
  onEscape() {
    if (!S.hmAt || !S.options) return false;
    S.hmAt = null;
    S.options.commands = S.options.hmAll || S.options.commands;
    renderSelection();
    renderOverlays();
    return true;
  },
  phaseOptions: ["recovery", "movement", "combat"],
  renderPhasePanel: (sec, raw, v) => renderStepBox(sec, raw, v, (c) => commandLabel(c, nameOf), send),
  reachSummary: (o) => (S.hmAt ? `${o.commands.length} ways to ${S.hmAt}: pick one below (Esc: all commands)`
    : `${o.reach.size} hex${o.reach.size === 1 ? "" : "es"} shaded: click one to move, face, charge, fire or ride there; ${o.commands.length} command${o.commands.length === 1 ? "" : "s"} below`),

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
