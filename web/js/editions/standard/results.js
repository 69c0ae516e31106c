// The Standard rules' combat results in words (7.8, read through RULINGS R12; 8.5 for bombardment; 7.13, 9.3(5)
// and 9.4 for the tactics that read them otherwise): each cell of the CRT ("Dm(Dx) Leader": the result, the
// result in brackets applied on a passed check, the notations applied in addition), a few words for each, the key
// under the panel, the outcome of a combat event, and the facts of a retreat path (7.6, 7.9). The edition's
// `results` and `resultKey` (editions/index.js); ui/explain.js draws them.

import { resultKeyBox } from "../../ui/explain.js";
import { parseCell, readCell, notationWords, cellShort } from "../../ui/crtcells.js";

/** 7.12: victorious attackers may advance into a hex the defenders retreat from. */
const ADVANCE = { attacker: "", defender: " If they retreat, the attackers may advance (7.12)." };

/** What each result does, its side's word put in (7.8; Am: 9.3(5), 9.4, R12). */
const WORDS = {
  NE: () => "No effect: every unit stays where it is (7.8).",
  r: (s) => `The ${s} chooses: its primary unit is disrupted, or all its units in the combat retreat (7.9); they must retreat if the primary already is disrupted (7.8).${ADVANCE[s]}`,
  c: (s, pass) => `The ${s}'s primary unit checks morale. Passes: ${pass}. Fails: the ${s} chooses, as for ${s === "attacker" ? "Ar" : "Dr"}: its primary is disrupted, or all its units retreat (7.8).`,
  x: (s) => `The ${s}'s primary unit checks morale. Passes: it loses a step (7.11) and nobody advances. Fails, or if the ${s} prefers: all its units are disrupted and retreat (7.8).${ADVANCE[s]}`,
  m: (s, pass) => `The ${s}'s primary unit checks morale (7.8). Passes: ${pass}. Fails: all its participating and stacked units rout (7.10)${s === "defender" ? "; the attackers may advance two hexes (7.12) and the attacker receives a fortune of war (12.4)" : ""}.${s === "attacker" ? " Only in charges and countercharges (9.3(5), 9.4)." : ""}`,
  Ex: () => "Exchange: the primary unit on each side loses a step (7.11); nobody retreats or advances (7.8).",
};

const SHORT = {
  NE: () => "no effect",
  r: (s) => `${s} disrupted or retreats`,
  c: (s, pass) => `${s} checks morale: ${pass}, or disrupted or retreats`,
  x: (s) => `${s} checks morale: loses a step, or disrupted and retreats`,
  m: (s, pass) => `${s} checks morale: ${pass}, or routs`,
  Ex: () => "exchange: each side's primary loses a step",
};

const NOTATIONS = {
  DF: ["The defending player also receives a fortune of war, played at once (12.4).", "a fortune of war to the defender"],
  Leader: ["Each leader stacked with, joining or coordinating the combat makes a casualty check (10.3).", "leaders check for casualties"],
  Ammo: ["One bombarding artillery unit goes ineffective (8.5).", "a bombarding gun goes ineffective"],
};

/** "Dm(Dx) Leader" -> {head: "Dm", pass: "Dx", notes: ["Leader"]}; "–" and "-" read as NE. */
export function parseResult(code) {
  return parseCell(code, NOTATIONS);
}

/** A result in plain words (`bombard`: read against the one bombarded unit, 8.5). */
export function resultWords(code, { bombard = false } = {}) {
  const r = parseResult(code);
  const base = readCell(r.head, r.pass, WORDS) || String(code);
  const extra = notationWords(r, NOTATIONS);
  const lead = bombard ? (r.head === "Ex" ? "Against the bombarded unit: it loses a step; the guns are unaffected (8.5, R12)." : r.head === "NE" ? "No effect on the bombarded unit (an A or bracketed result counts as none, 8.5)." : `Against the bombarded unit (8.5): ${base}`) : base;
  return [lead, ...extra].join(" ");
}

/** A few words for a result, for a row of an odds table. */
export function resultShort(code) {
  return cellShort(code, SHORT, NOTATIONS);
}

/** The outcome of a combat or bombardment (its `combat` event, 7.8, 8.5) in plain words; other events say it. */
export function eventOutcome(ev) {
  if (ev.type !== "combat" || !ev.result) return null;
  return `${ev.result}: ${resultWords(ev.result, { bombard: ev.rule === "8.5" })}`;
}

/** A retreat path's facts in words (7.6, 7.9), under the decision's choice. */
function optionFacts(o) {
  if (!o || typeof o.safe !== "boolean" || !Array.isArray(o.path)) return [];
  const n = o.path.length - 1;
  if (o.safe) return n > 0 ? [`a safe line of retreat, ${n} hex${n === 1 ? "" : "es"} (7.6)`] : [];
  return ["an unsafe line: a morale check for each enemy zone of control entered, a failure routs (7.9)"];
}

/** The edition's `results` (editions/index.js): combats open with an `attack` (7.1) or a `bombard` (8.4) event. */
export const results = {
  words: resultWords,
  short: resultShort,
  outcome: eventOutcome,
  logged: ["combat"],
  declared: ["attack", "bombard"],
  optionFacts,
};

/** The key to the results: one row per result and notation of the CRT (7.8, R12). */
export const RESULT_KEY = [
  ["NE", WORDS.NE()],
  ["Ar", WORDS.r("attacker")],
  ["Dr", WORDS.r("defender")],
  ["Ac", WORDS.c("attacker", "the result in brackets (NE: no effect)")],
  ["Dc", WORDS.c("defender", "the result in brackets (NE: no effect)")],
  ["Ax", WORDS.x("attacker")],
  ["Dx", WORDS.x("defender")],
  ["Dm", WORDS.m("defender", "the result in brackets, Dr or Dx")],
  ["Am", WORDS.m("attacker", "the result in brackets")],
  ["Ex", WORDS.Ex()],
  ...Object.entries(NOTATIONS).map(([n, [w]]) => [n, w]),
];

/** The always-available key to the result codes (a collapsible panel section). */
export function resultKey() {
  return resultKeyBox({
    summary: "Key: combat results (7.8: NE, r, c, x, m, Ex, DF, Leader, Ammo)",
    intro: "A = the attacker is affected, D = the defender. The affected side's primary unit checks morale with the combat's morale die (7.3(6)): it fails on a roll over its morale rating; a 1 always passes and a 6 always fails (2.4). A result in brackets, as in Dm(Dx), applies when the primary passes (7.8). DF, Leader and Ammo apply in addition to the result.",
    rows: RESULT_KEY,
    outro: "Bombardment (8.5) reads the column of the guns' total strength; it ignores A results and bracketed results, and on Ex only the target loses a step (R12). Tactics read the results their own way (7.13, 9.3(5), 9.4): the preview shows each die's result as read.",
  });
}
