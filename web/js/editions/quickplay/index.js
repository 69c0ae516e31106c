// Musket & Saber Quick Play (revised), ruleset `quickplay`: what the game page does only for it. Most of Quick
// Play is what the core already does (move, attack with the builder, bombard, charge mode); this adds its
// options' extras (set-up placements, squares, the attack choices), the set-up and step-recovery boxes, the
// declared cavalry charges made in the combat phase (9.2), its counters' reading (counter.js), its results in
// words and the previews that explain them (results.js; ui/previewbox.js draws them with the rules below), and its words and rule numbers.
// The hooks are described in editions/index.js.

import { normalizeOptions } from "../../ui/options.js";
import { results, resultKey } from "./results.js";
import { previewBody, combatPreview } from "../../ui/previewbox.js";
import { counter, COUNTER_LEGEND } from "./counter.js";
import { S, defs } from "../../core/store.js";
import { setupPlacements, renderPhasePanel, phaseOverlays } from "./phases.js";
import { DECLARED_CHARGE_HOOKS } from "../../core/declaredcharges.js";

/** The options endpoint's Quick Play answer: the generic shape, plus squares (9.3) as commands, the referee's
 *  attack choices, and the set-up placements (3.2). */
function readOptions(raw) {
  const o = normalizeOptions(raw);
  const rawOpts = (raw && raw.options) || {};
  o.squares = rawOpts.squares || [];
  o.attackChoices = new Map((rawOpts.attacks || []).map((a) => [a.target, a.choices || null]));
  if (S.view.phase === "setup") setupPlacements(o, rawOpts);
  // 9.3: squares are formed or removed before any unit moves; the referee lists exactly which
  for (const c of o.squares) {
    const who = c.unit ? ` with ${defs()[c.unit] ? defs()[c.unit].name : c.unit}` : "";
    o.commands.push({ label: c.type === "form_square" ? `Form square in ${c.hex}${who}` : `Remove the square in ${c.hex}`, command: c, rule: "9.3" });
  }
  return o;
}

/** The rules the previews cite (ui/previewbox.js): the differential and column (7.4), the defender's choice (7.2(1)),
 *  a charge's reading (9.2) and the bombardment (8.3, 8.4). */
const CITES = {
  assumed: "7.2(1)", differential: "7.4", column: "7.4",
  charge: ["any D result counts as Dm, any other as Am", "9.2"],
  chargerMorale: ["it checks morale before charging", "9.2"],
  artillery: "8.4", range: "8.3", bombardColumn: "8.4",
  bombardNote: ["Each unit in the hex is resolved separately with its own dice; A and – results have no effect, and the guns are never hurt.", "8.4"],
};

export const quickplay = {
  name: "quickplay",
  counter,

  ...DECLARED_CHARGE_HOOKS, // 9.2: charges declared by a charge move, made in the combat phase

  readOptions,
  phaseOptions: ["setup", "recovery"],
  renderPhasePanel,
  offboard: {
    rules: "rules 4.5, 11.4",
    dueNote: "Due now: select one (or several sharing an entry hex), then click a shaded hex to bring it on. The first hex entered is paid for; a blocked entry hex may be slid along the edge (4.5).",
  },

  phaseOverlays,
  turnPhases: ["movement", "recovery", "combat"],

  statusHint(v) {
    return v.phase === "setup" ? "Units marked 'within one hex' may be placed: select one, click a shaded hex. Then End phase." : null;
  },
  charge: {
    who: "this cavalry",
    rule: "9.2",
    title: "rule 9.2",
    help: "Charge mode: click an enemy hex outlined in dashed blue to move up to two hexes next to it and declare a charge. The charge itself is made in your combat phase. Esc leaves charge mode.",
  },
  builder: {
    rules: "rules 7.1–7.2, 8.4, 10.0",
    supportText: "supporting fire (8.4)",
    leaderText: (l, name, hex) => ` ${name} (${hex}) adds its factors (10.0; one leader per hex)`,
    primaryText: "Primary unit (its morale decides a lost combat, 7.2(1)): ",
    preview: (pv, nameOf) => combatPreview(pv, nameOf, { results, cites: CITES }),
  },
  previewBody: (kind, item, nameOf) => previewBody(kind, item, nameOf, { results, cites: CITES }),
  combatRules: "7.2–7.6",
  results,
  quietKinds: ["leader"],
  keyHelp: { chargers: "cavalry" },
  rules: { enter: "4.5", combine: "7.1", attackers: "7.1", primary: "7.2(1)", victory: "3.4, 14.0" },
  legend: {
    charge: "Charge target (cavalry, rule 9.2)",
    counter: COUNTER_LEGEND,
  },
  resultKey, // the CRT's results in words (RULINGS R6, results.js)
};
