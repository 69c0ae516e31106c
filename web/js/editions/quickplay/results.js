// Quick Play's combat results in words (RULINGS R6; its CRT and 7.5-7.9): each code's meaning, a few words for an
// odds table, the key under the panel, the outcome of each of its events, and the facts of a retreat path. The
// edition's `results` and `resultKey` (editions/index.js); ui/explain.js draws them.

import { resultKeyBox } from "../../ui/explain.js";

/** What each combat result means in plain words (RULINGS R6; Quick Play CRT and 7.5-7.9). */
export const RESULT_KEY = [
  ["–", "No effect: nothing happens to either side."],
  ["Ac", "The attacker's primary unit checks morale. Passes: no effect. Fails: the attacking units are disrupted (one-step units go ineffective); units already disrupted or ineffective retreat 1–3 hexes instead."],
  ["Ar", "The attacker's primary unit checks morale. Passes: exchange, the primary unit on each side loses a step. Fails: the attacking units are disrupted and retreat 1–3 hexes."],
  ["Ax", "The attacker's primary unit checks morale. Passes: it loses a step and the attacking units are disrupted. Fails: the attacking units are disrupted and retreat 1–3 hexes."],
  ["Am", "The attacker's primary unit checks morale. Passes: the attacking units are disrupted and retreat 1–3 hexes. Fails: the primary loses a step and the attacking units rout 3 hexes."],
  ["Dc", "The defender's primary unit checks morale. Passes: no effect. Fails: the defending units are disrupted (one-step units go ineffective); units already so retreat 1–3 hexes and the attackers may advance 1."],
  ["Dr", "The defender's primary unit checks morale. Passes: exchange, the primary unit on each side loses a step. Fails: the defending units are disrupted and retreat 1–3 hexes; the attackers may advance 1."],
  ["Dx", "The defender's primary unit checks morale. Passes: it loses a step and the defending units are disrupted. Fails: the defending units are disrupted and retreat 1–3 hexes; the attackers may advance 1."],
  ["Dm", "The defender's primary unit checks morale. Passes: the defending units are disrupted and retreat 1–3 hexes. Fails: the primary loses a step and the defenders rout 3 hexes; the attackers may advance 2."],
];
const KEY = Object.fromEntries(RESULT_KEY);
KEY["-"] = KEY["–"];

/** A short phrase for a result code, for odds tables. */
const SHORT = {
  "-": "no effect",
  "–": "no effect",
  Ac: "attacker checks morale: may be disrupted",
  Ar: "attacker checks morale: exchange or retreat",
  Ax: "attacker checks morale: loses a step or retreats",
  Am: "attacker checks morale: retreats or routs",
  Dc: "defender checks morale: may be disrupted",
  Dr: "defender checks morale: exchange or retreat",
  Dx: "defender checks morale: loses a step or retreats",
  Dm: "defender checks morale: retreats or routs",
};
const BOMBARD_SHORT = {
  "-": "no effect",
  "–": "no effect",
  Dc: "target checks morale: may be disrupted",
  Dr: "target checks morale: may be disrupted, or retreat if already",
  Dx: "target checks morale: disrupted, or loses a step",
  Dm: "target loses a step; routs if it fails morale",
};
const BOMBARD_KEY = {
  Dc: "The target unit checks morale. Passes: no effect. Fails: it is disrupted (one-step units go ineffective); no further effect if already (8.4).",
  Dr: "The target unit checks morale. Passes: no effect. Fails: it is disrupted; if already disrupted or ineffective, it retreats (8.4).",
  Dx: "The target unit checks morale. Passes: it is disrupted; if already, it retreats 1–3 hexes. Fails: a one-step unit is eliminated, a two-step unit reduced (8.4).",
  Dm: "Passes: a one-step unit is eliminated, a two-step unit reduced. Fails: the same, and a two-step unit also routs (8.4).",
};

export function resultWords(code, { bombard = false } = {}) {
  const c = code === "–" ? "-" : code;
  if (bombard) return c && c[0] === "D" ? BOMBARD_KEY[c] || KEY[c] : "No effect: A and – results do nothing to a bombarded unit (8.4).";
  return KEY[c] || String(code);
}

export function resultShort(code, { bombard = false } = {}) {
  const c = code === "–" ? "-" : code;
  if (bombard) return c && c[0] === "D" ? BOMBARD_SHORT[c] : "no effect";
  return SHORT[c] || "";
}

const displayCode = (code) => (code === "-" ? "–" : code);

/** The outcome of one of Quick Play's events in plain words, for the result panel and the log (null: its text
 *  says it). */
export function eventOutcome(ev, nameOf) {
  switch (ev.type) {
    case "combat_result":
      return `${displayCode(ev.result)}: ${resultWords(ev.result)}`;
    case "bombard_result":
      return `${displayCode(ev.result)}: ${resultWords(ev.result, { bombard: true })}`;
    case "morale":
      if (ev.passed === undefined) return null;
      return `${nameOf(ev.unit)} ${ev.passed ? "passes" : "fails"} its morale check (rolled ${ev.die}, needed ${ev.rating} or less; 1 always passes, 6 always fails).`;
    case "leader_killed":
      return `${nameOf(ev.unit)} is killed: the leader check rolled 2 or 12.`;
    case "leader_safe":
      return `${nameOf(ev.unit)} survives the leader check (rolled ${ev.total}; only 2 or 12 kills).`;
    default:
      return null;
  }
}

/** A retreat path's facts in words, under the decision's choice. */
function optionFacts(o) {
  const bits = [];
  if (o && o.safe === false) bits.push("no safe line: the group loses a step and routs (7.7)");
  if (o && o.safe === true && Array.isArray(o.path) && o.path.length > 1) bits.push(`a safe retreat of ${o.path.length - 1} hex${o.path.length === 2 ? "" : "es"}`);
  return bits;
}

/** The edition's `results` (editions/index.js). */
export const results = {
  words: resultWords,
  short: resultShort,
  outcome: eventOutcome,
  logged: ["combat_result", "bombard_result"],
  declared: ["combat_declared", "bombard_declared"],
  optionFacts,
};

/** The always-available key to the result codes (a collapsible panel section). */
export function resultKey() {
  return resultKeyBox({
    summary: "Key: combat results (A, D, c, r, x, m, –)",
    intro: "A = the attacker loses, D = the defender loses. The losing side's primary unit checks morale with the morale die: it passes on a roll at or under its morale rating; a 1 always passes and a 6 always fails (7.5). One-step units (battalions, artillery, cavalry) go ineffective where others are disrupted (11.0). Defenders never advance (7.9).",
    rows: RESULT_KEY,
    outro: "Bombardment (8.4): only D results count, against each unit in the hex; A and – results do nothing. A cavalry charge (9.2) turns any D result into Dm and any other into Am.",
  });
}
