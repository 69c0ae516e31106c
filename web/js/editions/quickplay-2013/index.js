// Musket & Saber Quick Play, 2013 edition (seed 001), ruleset `quickplay-2013`: what the game page does only for it.
// Moving, attacking with the builder, bombarding, charge mode and the decisions are the core's; this adds the
// edition's options' extras (a disrupted or ineffective unit's rolled allowance, 11.1(2); hexes reachable only on a
// march, 4.3; squares, 9.3; set-up placements, 3.2), its boxes (the set-up, and step recovery in the movement phase,
// 11.2), the declared cavalry charges made in the combat phase (9.2, core/declaredcharges.js), its results in its
// own words and table (7.5, R14: results.js) and the rule numbers of seed 001 everywhere the page cites one. Its
// counters read as the revised edition's do (counters.js's four-factor reading). The hooks: editions/index.js.

import { normalizeOptions } from "../../ui/options.js";
import { OKABE } from "../../ui/dom.js";
import { previewBody, combatPreview } from "../../ui/previewbox.js";
import { FOUR_FACTOR_READING } from "../../counters.js";
import { S, defs } from "../../core/store.js";
import { DECLARED_CHARGE_HOOKS } from "../../core/declaredcharges.js";
import { results, resultKey } from "./results.js";
import { renderPhasePanel, setupPlacements, phaseOverlays } from "./phases.js";

/** The rules the previews cite (ui/previewbox.js): the defender's choice (7.1(1)), the differential and column (7.4),
 *  a charge's reading (9.2 steps 2-4) and the bombardment (8.2-8.4). */
const CITES = {
  assumed: "7.1(1)", differential: "7.4", column: "7.4",
  charge: ["its charge factor as its CF; every Dr, Dc and Dx counts as Dm (a rout also costs a step), any other result as Am(Ar)", "9.2 step 4"],
  chargerMorale: ["it checks morale before the charge: failing, it is disrupted and does not charge", "9.2 step 2"],
  artillery: "8.2", range: "8.4", bombardColumn: "8.2",
  bombardNote: ["The guns' attack factor is the differential (doubled against cavalry), resolved separately against each unit in the hex; bombarding artillery is not affected by any result.", "8.2"],
};

const names = (units) => units.map((u) => (defs()[u] ? defs()[u].name : u)).join(", ");

/** The options endpoint's answer for a selection: the generic shape, plus 11.1(2)'s roll of the allowance, the hexes
 *  reachable only on a march (4.3), squares (9.3) as commands, the referee's attack choices (7.1, 8.2, 10.0) and the
 *  set-up placements (3.2). */
function readOptions(raw) {
  const o = normalizeOptions(raw);
  const rawOpts = (raw && raw.options) || {};
  o.attackChoices = new Map((rawOpts.attacks || []).map((a) => [a.target, a.choices || null])); // the builder's rows
  if (S.view.phase === "setup") setupPlacements(o, rawOpts);
  if (rawOpts.roll_ma) {
    const roll = rawOpts.roll_ma;
    o.commands.push({ label: "Roll the movement allowance", command: { type: "roll_ma", units: roll.units }, rule: "11.1(2)", why: `${names(roll.units)}: one die each (+3 if the printed MA is above 6), never above the printed MA` });
    o.notes.push({ text: `${names(roll.units)} must roll ${roll.units.length > 1 ? "their" : "its"} movement allowance before moving: disrupted or ineffective units move by one die each time they move.`, rule: "11.1(2)" });
  }
  for (const [hex, r] of Object.entries(rawOpts.reachable || {})) {
    const at = o.reach.get(hex);
    if (at && r.march) at.march = true;
  }
  o.marchMa = rawOpts.march_ma;
  for (const c of rawOpts.squares || []) {
    const who = c.unit ? ` with ${names([c.unit])}` : "";
    o.commands.push({ label: c.type === "form_square" ? `Form square in ${c.hex}${who}` : `Remove the square in ${c.hex}`, command: c, rule: "9.3" });
  }
  return o;
}

export const quickplay2013 = {
  name: "quickplay-2013",
  counter: FOUR_FACTOR_READING,

  ...DECLARED_CHARGE_HOOKS, // 9.2: charges declared by a charge move, made in the combat phase

  readOptions,
  reachSummary(o) {
    const march = [...o.reach.values()].filter((r) => r.march).length;
    const ma = o.ma !== undefined ? ` with ${o.ma} MP` : "";
    return `${o.reach.size} hexes reachable${ma} (shaded, with MP cost)${march ? `; ${march} only on a march, green (4.3: ${o.marchMa ?? "double"} MP two hexes from the enemy)` : ""}`;
  },
  reachLook: (hex, r) => (r.march ? { colour: OKABE.green, title: `${hex}: ${r.cost ?? "?"} MP on a march (rule 4.3)`, tip: `March here: ${r.cost ?? "?"} MP; the unit starts and stays two hexes from the enemy, its MA doubled (rule 4.3)` } : null),
  phaseOptions: ["setup", "movement"],
  renderPhasePanel,
  offboard: {
    rules: "rules 4.6, 11.2",
    dueNote: "Due now: select one (or several sharing an entry hex), then click a shaded hex to bring it on. The entry hex is the first hex of movement; with the enemy on it, units slide along the edge, the first slide counting two hexes (4.6).",
  },

  phaseOverlays,
  turnPhases: ["movement", "combat"], // 3.3: five phases, recovery at the end of movement

  statusHint(v) {
    if (v.phase === "setup") return "Units marked 'within one hex' may be placed (3.2): select one, click a shaded hex. Then End phase.";
    if (v.phase === "movement") return "Select a stack, then click a shaded hex to move (green: only on a march, 4.3). Disrupted and ineffective units roll their allowance first (11.1(2)); squares form or break before moving (9.3); step recovery in its box (11.2). End the phase (E): recovery from disruption follows (11.1).";
    if (v.phase === "combat") return "Select your units, then click an enemy to build the attack (7.1, 7.3); guns alone bombard (8.2); declared charges are made in the Charges box (9.2). Enemy units that triggered attacks and were not attacked may counterattack when you end the phase (7.2). End the phase (E).";
    return null;
  },
  charge: {
    who: "this cavalry",
    rule: "9.2",
    title: "rule 9.2",
    help: "Charge mode: click an enemy hex outlined in dashed blue to move one or two hexes to it through clear terrain and declare a charge (9.2 step 1). The charge itself is made in your combat phase. Esc leaves charge mode.",
  },
  builder: {
    rules: "rules 5.0, 7.1, 7.3, 8.2, 10.0",
    supportText: "bombarding in support (8.2)",
    leaderText: (l, name, hex) => ` ${name} (${hex}) adds its factors (10.0; one leader per hex)`,
    primaryText: "Primary unit (it checks morale and takes any step loss, 7.1(1), 7.7): ",
    preview: (pv, nameOf) => combatPreview(pv, nameOf, { results, cites: CITES }),
  },
  previewBody: (kind, item, nameOf) => previewBody(kind, item, nameOf, { results, cites: CITES }),
  combatRules: "7.4–7.9",
  results,
  quietKinds: ["leader"],
  keyHelp: { chargers: "cavalry" },
  rules: { enter: "4.6", combine: "7.3", attackers: "7.3", primary: "7.1(1)", victory: "3.4" },
  legend: {
    charge: "Charge target (cavalry, rule 9.2)",
    counter: "Counter: attack-defence-morale-movement; (n) artillery range; cN charge; pale = ineffective (artillery, cavalry, 8.1, 9.1); white band = reduced; ★ leader; black dot on the right edge = moved this turn.",
  },
  resultKey, // the CRT's results in words (7.5, RULINGS R14, results.js)
};
