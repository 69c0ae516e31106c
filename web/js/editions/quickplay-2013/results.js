// Quick Play 2013's combat results in words (seed 001 7.5, its table RULINGS R14; 8.2 for bombardment, 9.2 step 4 for
// charges): each cell of the CRT ("Dm(Dx) Leader": the result, the result in brackets applied when the first does not
// take effect, the Leader notation), a few words for each, the key under the panel, the outcome of its events, and
// the facts of a retreat path (7.6). The edition's `results` and `resultKey` (editions/index.js); ui/explain.js draws
// them, ui/crtcells.js reads the cells.

import { resultKeyBox } from "../../ui/explain.js";
import { parseCell, readCell, notationWords, cellShort } from "../../ui/crtcells.js";

const OTHER = { attacker: "Ar", defender: "Dr" };

/** What each result does, its side's word put in (7.5; R14.2; T8; Am only in charges, 9.2 step 4). `advance`: the
 *  attackers' advance after a defender's retreat (7.9), which a bombardment never makes (8.2). */
function wordsFor(advance) {
  const after = (s) => (advance && s === "defender" ? " If they retreat, the attackers may advance one hex (7.9)." : "");
  const routAdvance = advance ? "; the attackers may advance two hexes (7.9)" : "";
  return {
    NE: () => "No effect: all units remain in place (7.5).",
    r: (s) => `The ${s} chooses: all its units in the combat retreat 1–3 hexes (7.6) or are disrupted in place (11.1); units already disrupted retreat (R14.2).${after(s)}`,
    c: (s, pass) => `The ${s}'s primary unit checks morale. Passes: ${pass}. Fails: as ${OTHER[s]}, its units retreat or are disrupted (7.5).`,
    x: (s) => `The ${s}'s primary unit checks morale. Passes: it loses a step (7.7) and no advance is possible, unless the ${s} prefers what a failure does. Fails: all its units are disrupted and retreat (7.6).${after(s)}`,
    m: (s, pass, bracketed) => (s === "attacker"
      ? `The charging cavalry checks morale with a new die (9.2 step 4, T15). Passes: as ${bracketed || "Ar"}, it retreats or is disrupted. Fails: it routs (7.8).`
      : bracketed
        ? `The defender's primary unit checks morale. Passes: ${pass}, that check already passed (T8). Fails: all the defending units rout 3 hexes (7.8)${routAdvance}.`
        : "A charge's D result (9.2 step 4): the defender's primary unit checks morale. Fails: it loses a step and the defenders rout (7.8). Passes: the charging cavalry checks as for Am(Ar)."),
    Ex: () => "Exchange: the primary unit on each side loses a step (7.7); no unit retreats or advances, even if the defender's hex is emptied (7.5).",
  };
}
const WORDS = wordsFor(true);
const BOMBARD_WORDS = wordsFor(false);

const SHORT = {
  NE: () => "no effect",
  r: (s) => `${s} retreats or is disrupted`,
  c: (s, pass) => `${s} checks morale: ${pass}, or retreats or is disrupted`,
  x: (s) => `${s} checks morale: loses a step, or disrupted and retreats`,
  m: (s, pass, bracketed) => (s === "attacker" ? "charger checks morale: retreats or is disrupted, or routs"
    : bracketed ? `defender checks morale: ${pass}, or routs` : "defender checks morale: a step lost and a rout, or the charger checks"),
  Ex: () => "exchange: each side's primary loses a step",
};

const NOTATIONS = {
  Leader: ["Each leader involved in the combat (lending its combat or morale factor) rolls one die: on a 5 or 6 it is killed (10.0, T9).", "leaders roll for casualties"],
};

/** "Dm(Dx) Leader" -> {head: "Dm", pass: "Dx", notes: ["Leader"]}. */
export function parseResult(code) {
  return parseCell(code, NOTATIONS);
}

/** A result in plain words (`bombard`: read against the one bombarded unit, 8.2). */
export function resultWords(code, { bombard = false } = {}) {
  const r = parseResult(code);
  if (!bombard) return [readCell(r.head, r.pass, WORDS) || String(code), ...notationWords(r, NOTATIONS)].join(" ");
  if (r.head === "Ex") return "Against the bombarded unit: it loses a step; bombarding artillery is not affected by any result (8.2).";
  if (r.head[0] !== "D") return "No effect: bombarding artillery is not affected by any combat result, and an A or NE result does nothing to the target (8.2).";
  return `Against the bombarded unit alone (8.2): ${readCell(r.head, r.pass, BOMBARD_WORDS)}`;
}

/** A few words for a result, for a row of an odds table. */
export function resultShort(code, { bombard = false } = {}) {
  const head = parseResult(code).head;
  return bombard && head !== "Ex" && head[0] !== "D" ? "no effect" : cellShort(code, SHORT, NOTATIONS);
}

/** The outcome of each of the edition's events that its text leaves unsaid, in plain words (2.3, 7.5, 8.2, 10.0). */
const OUTCOMES = {
  combat_result: (ev) => `${ev.result}: ${resultWords(ev.result)}`,
  bombard_result: (ev) => `${ev.result}: ${resultWords(ev.result, { bombard: true })}`,
  morale: (ev, nameOf) => (ev.passed === undefined ? null
    : `${nameOf(ev.unit)} ${ev.passed ? "passes" : "fails"} its morale check (rolled ${ev.die}, needed ${ev.rating} or less; 1 always passes, 6 always fails, 2.3).`),
  leader_killed: (ev, nameOf) => `${nameOf(ev.unit)} is killed: the casualty die rolled 5 or 6 (10.0).`,
  leader_safe: (ev, nameOf) => `${nameOf(ev.unit)} comes through: the casualty die rolled ${ev.die} (only 5 or 6 kills, 10.0).`,
};

/** An event's outcome in plain words, for the result panel and the log (null: its text says it). */
export function eventOutcome(ev, nameOf) {
  const words = OUTCOMES[ev.type];
  return words ? words(ev, nameOf) : null;
}

/** A retreat path's facts in words (7.6), under the decision's choice. */
function optionFacts(o) {
  if (!o || typeof o.safe !== "boolean" || !Array.isArray(o.path)) return [];
  const n = o.path.length;
  if (o.safe) return n > 0 ? [`a safe line of retreat, ${n} hex${n === 1 ? "" : "es"} (7.6)`] : [];
  return ["an unsafe line: the units rout from its last hex, without a step loss (7.6, 7.8)"];
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

/** The key to the results: one row per result of the CRT (7.5, R14) and its notation. */
export const RESULT_KEY = [
  ["NE", WORDS.NE()],
  ["Ar", WORDS.r("attacker")],
  ["Dr", WORDS.r("defender")],
  ["Ac(NE)", WORDS.c("attacker", "no effect")],
  ["Dc(NE)", WORDS.c("defender", "no effect")],
  ["Ax", WORDS.x("attacker")],
  ["Dx", WORDS.x("defender")],
  ["Dm(Dr)", WORDS.m("defender", "as Dr", "Dr")],
  ["Dm(Dx)", WORDS.m("defender", "as Dx", "Dx")],
  ["Am(Ar)", WORDS.m("attacker", "as Ar", "Ar")],
  ["Ex", WORDS.Ex()],
  ...Object.entries(NOTATIONS).map(([n, [w]]) => [n, w]),
];

/** The always-available key to the result codes (a collapsible panel section). */
export function resultKey() {
  return resultKeyBox({
    summary: "Key: combat results (7.5: NE, r, c, x, m, Ex, Leader)",
    intro: "A = the attacker is affected, D = the defender. The affected side's primary unit checks morale with the morale die (7.1): it fails on a roll over its morale rating; a 1 always passes and a 6 always fails (2.3). A result in brackets, as in Dm(Dx), applies when the first does not take effect (7.5). Leader applies in addition to the result.",
    rows: RESULT_KEY,
    outro: "Bombardment (8.2) uses the guns' total attack factor as the differential, doubled against cavalry, against each unit in the hex; bombarding artillery is never affected. A cavalry charge (9.2 step 4) reads every Dr, Dc and Dx as Dm (a rout also costs a step) and any other result as Am(Ar).",
  });
}
