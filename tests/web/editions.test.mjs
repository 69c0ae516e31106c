// node --test tests/web/editions.test.mjs  (also run from tests/web/test_js_units.py)
// What each edition says of its own (web/js/editions/*): how its counters read (counter.js, through counters.js's
// generic reading), its combat results in words (results.js) and the events that open its combats.
import test from "node:test";
import assert from "node:assert/strict";
import { readCounter, factorText, describeUnit } from "../../web/js/counters.js";
import { lastCombatEvents, optionOdds } from "../../web/js/ui/explain.js";
import { counter as qp } from "../../web/js/editions/quickplay/counter.js";
import { counter as std } from "../../web/js/editions/standard/counter.js";
import { results as qpResults } from "../../web/js/editions/quickplay/results.js";
import { results as stdResults, parseResult, resultWords, resultShort, RESULT_KEY } from "../../web/js/editions/standard/results.js";

const qpInf = { id: "b-1", kind: "infantry", name: "1st Brigade", full: { attack: 5, defense: 5, mr: 4, ma: 4 } };
const qpGun = { id: "b-art", kind: "artillery", name: "Foot Battery", range: 3, full: { attack: 4, defense: 1, mr: 3, ma: 3 } };
const leader = { id: "b-ldr", kind: "leader", name: "Gen. O", leader: { combat: 1, morale: 1, movement: 2 } };
const stdInf = { id: "s-1", kind: "infantry", name: "1st Brigade", full: { cf: 6, mr: 4, ma: 4 }, reduced: { cf: 3, mr: 3, ma: 4, red_dot: true, parenthesized: true, bracketed: true } };
const stdV = { id: "s-v", kind: "infantry", name: "Landwehr", full: { cf: 4, mr: 3, ma: "V" } };
const stdGun = { id: "s-art", kind: "artillery", name: "Foot Battery", full: { attack: 4, defense: 1, range: 3, ma: 3 }, ineffective: { attack: 1, defense: 0, range: 2, ma: 3 } };
const hq = { id: "s-hq", kind: "hq", name: "Blue HQ", ma: 6 };
const trains = { id: "s-tr", kind: "trains", name: "Blue trains", ma: 4 };

test("Quick Play's counters read attack-defence-morale-movement, the gun's range once for the unit", () => {
  assert.equal(readCounter(qp, "factors", qpInf, qpInf.full), "5-5-4-4");
  assert.equal(readCounter(qp, "range", qpGun, qpGun.full), 3);
  assert.equal(readCounter(qp, "range", qpInf, qpInf.full), null);
  assert.equal(factorText(qpGun, {}, qp), "attack 4, defence 1, morale 3, movement 3, range 3");
  assert.equal(readCounter(qp, "factors", leader, leader.leader), "1-1-2");
  assert.match(factorText(leader, {}, qp), /leader 1-1-2 \(combat-morale-movement\)/);
});

test("the Standard counters read combat-morale-movement with (n), [n] and V (2.4), guns per side (8.1), HQ and trains", () => {
  assert.equal(readCounter(std, "factors", stdInf, stdInf.full), "6-4-4");
  assert.equal(readCounter(std, "factors", stdInf, stdInf.reduced), "(3)-3-[4]");
  assert.equal(readCounter(std, "factors", stdV, stdV.full), "4-3-V");
  const reduced = factorText(stdInf, { reduced: true }, std);
  assert.match(reduced, /combat 3 \(parenthesised: halved when attacking, 2\.4\)/);
  assert.match(reduced, /no skirmish, 7\.13/);
  assert.match(reduced, /red dot: no replacement step \(11\.2\)/);
  assert.match(factorText(stdV, {}, std), /movement V \(variable: rolled, 4\.4\)/);
  assert.equal(readCounter(std, "factors", stdGun, stdGun.full), "4-1-3");
  assert.equal(readCounter(std, "range", stdGun, stdGun.full), 3);
  assert.equal(readCounter(std, "range", stdGun, stdGun.ineffective), 2);
  assert.doesNotMatch(factorText(stdGun, {}, std), /undefined/);
  assert.equal(readCounter(std, "factors", hq, {}), "HQ 6");
  assert.equal(readCounter(std, "factors", trains, {}), "TR 4");
  assert.match(factorText(hq, {}, std), /headquarters, movement 6 when inactive \(12\.1\)/);
  const said = describeUnit(hq, { inactive: true, flipped: true, moved: true }, { showMoved: false, reading: std });
  assert.match(said, /inactive \(12\.1\)/);
  assert.doesNotMatch(said, /moved/);
  assert.match(describeUnit(stdInf, { marched: true }, { reading: std }), /marched \(4\.7\)/);
  // Quick Play says nothing of the Standard rules' decorations
  assert.doesNotMatch(describeUnit(qpInf, { inactive: true, marched: true }, { reading: qp }), /inactive|marched/);
});

test("without an edition the counter reads its factor block as the scenario gives it", () => {
  assert.equal(readCounter(null, "factors", qpInf, qpInf.full), "5-5-4-4");
  assert.equal(readCounter(null, "range", qpGun, qpGun.full), 3);
  assert.match(describeUnit(qpInf, { moved: true }), /moved/);
});

test("the Standard results read their cells (7.8, R12): the bracketed result, the notations, bombardment (8.5)", () => {
  assert.deepEqual(parseResult("Dm(Dx) Leader"), { head: "Dm", pass: "Dx", notes: ["Leader"] });
  assert.deepEqual(parseResult("NE Ammo"), { head: "NE", pass: null, notes: ["Ammo"] });
  assert.deepEqual(parseResult("–"), { head: "NE", pass: null, notes: [] });
  const dm = resultWords("Dm(Dx) Leader");
  assert.match(dm, /defender's primary unit checks morale/);
  assert.match(dm, /as Dx/);
  assert.match(dm, /rout \(7\.10\)/);
  assert.match(dm, /fortune of war \(12\.4\)/);
  assert.match(dm, /casualty check \(10\.3\)/);
  assert.match(resultWords("Ar"), /attacker chooses/);
  assert.match(resultWords("Ex"), /each side loses a step/);
  assert.match(resultWords("NE Ammo", { bombard: true }), /ineffective \(8\.5\)/);
  assert.match(resultWords("Ex", { bombard: true }), /bombarded unit: it loses a step/);
  assert.equal(resultShort("Ac(NE) Ammo"), "attacker checks morale: no effect, or disrupted or retreats; a bombarding gun goes ineffective");
  for (const [code, words] of RESULT_KEY) assert.ok(words.length > 20 && !/undefined/.test(words), code);
  assert.deepEqual(RESULT_KEY.map(([c]) => c), ["NE", "Ar", "Dr", "Ac", "Dc", "Ax", "Dx", "Dm", "Am", "Ex", "DF", "Leader", "Ammo"]);
  assert.match(stdResults.outcome({ type: "combat", result: "Dr", rule: "7.8" }), /^Dr: The defender chooses/);
  assert.equal(stdResults.outcome({ type: "morale", passed: true, die: 3 }), null);
});

test("each edition names the events that open its combats, and words a retreat path its own way", () => {
  const log = [
    { seq: 5, events: [{ type: "attack" }, { type: "dice", dice: [1, 6] }, { type: "combat", result: "Dr" }] },
    { seq: 6, events: [{ type: "retreat" }, { type: "bombard" }, { type: "dice", dice: [4, 2] }, { type: "combat", result: "NE" }] },
  ];
  assert.deepEqual(lastCombatEvents(log, stdResults.declared).map((e) => e.type), ["bombard", "dice", "combat"]);
  assert.deepEqual(lastCombatEvents(log, qpResults.declared).map((e) => e.type), ["retreat", "bombard", "dice", "combat"]);
  const unsafe = { id: "a-b", path: ["0305", "0205"], safe: false };
  assert.match(qpResults.optionFacts(unsafe)[0], /loses a step and routs \(7\.7\)/);
  assert.match(stdResults.optionFacts(unsafe)[0], /morale check .* \(7\.9\)/);
  assert.match(stdResults.optionFacts({ ...unsafe, safe: true })[0], /safe line of retreat, 1 hex \(7\.6\)/);
  assert.equal(optionOdds(unsafe), null); // no edition: no words of its own
});
