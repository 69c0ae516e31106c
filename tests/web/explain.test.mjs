// node --test tests/web/explain.test.mjs  (also run from tests/web/test_js_units.py)
// Issue 11: the pure parts of the page's explanations (web/js/ui/explain.js, battle.js; Quick Play's results in
// web/js/editions/quickplay/results.js).
import test from "node:test";
import assert from "node:assert/strict";
import { splitRule, rangeText, lastCombatEvents } from "../../web/js/ui/explain.js";
import { resultWords, RESULT_KEY } from "../../web/js/editions/quickplay/results.js";
import { shortTurnLabel, replayMarks, victoryWords } from "../../web/js/ui/battle.js";

test("a strength line's rule is its last parenthesised group, nested parentheses included", () => {
  assert.deepEqual(splitRule("printed CF 4 (7.4)"), { text: "printed CF 4", rule: "7.4" });
  assert.deepEqual(splitRule("halved: disrupted (11.1(1))"), { text: "halved: disrupted", rule: "11.1(1)" });
  assert.deepEqual(splitRule("halved: attacking into Woods (7.4, TEC)"), { text: "halved: attacking into Woods", rule: "7.4, TEC" });
  assert.deepEqual(splitRule("+2 leader Gen. X (10.0(3))"), { text: "+2 leader Gen. X", rule: "10.0(3)" });
  assert.deepEqual(splitRule("a note (without a rule)"), { text: "a note (without a rule)", rule: null });
});

test("the bombardment range reads 'range 3', never [object Object]", () => {
  assert.equal(rangeText({ "b-art": 3 }), "range 3");
  assert.equal(rangeText({ a: 2, b: 3 }), "range 2–3");
  assert.equal(rangeText(4), "range 4");
  assert.equal(rangeText(null), "");
});

test("every result code has plain words", () => {
  assert.deepEqual(RESULT_KEY.map(([c]) => c), ["–", "Ac", "Ar", "Ax", "Am", "Dc", "Dr", "Dx", "Dm"]);
  for (const [code, words] of RESULT_KEY) assert.ok(words.length > 20, code);
  assert.match(resultWords("-"), /No effect/);
  assert.match(resultWords("Ac", { bombard: true }), /No effect/);
  assert.match(resultWords("Dm", { bombard: true }), /eliminated/);
});

test("the last combat spans its decisions and leader checks, and stops at the next phase", () => {
  const log = [
    { seq: 5, events: [{ type: "combat_declared" }, { type: "dice", dice: [1, 6] }, { type: "combat_result", result: "Ar" }, { type: "morale", passed: false }] },
    { seq: 6, events: [{ type: "retreat" }, { type: "dice", dice: [3, 2] }, { type: "leader_safe" }] },
    { seq: 7, events: [{ type: "phase" }, { type: "move" }] },
  ];
  assert.deepEqual(lastCombatEvents(log).map((e) => e.type), ["combat_declared", "dice", "combat_result", "morale", "retreat", "dice", "leader_safe"]);
  // a later roll outside any combat (step recovery) is the latest result instead
  log.push({ seq: 8, events: [{ type: "dice", dice: [2] }, { type: "recovered_step" }] });
  assert.deepEqual(lastCombatEvents(log).map((e) => e.type), ["dice", "recovered_step"]);
  assert.equal(lastCombatEvents([{ seq: 1, events: [{ type: "phase" }] }]), null);
});

test("turn-track labels are short; the replay marks each turn and phase at its version", () => {
  assert.equal(shortTurnLabel("3 May 15:00"), "15:00");
  assert.equal(shortTurnLabel("Night 3-4 May"), "Night");
  const sc = { sides: { blue: { name: "Blue Army", adjective: "Blue" }, red: { name: "Red Army" } } };
  const marks = replayMarks([
    { seq: 1, events: [{ type: "phase", phase: "movement", side: "blue", turn: 1 }] },
    { seq: 2, events: [{ type: "phase", phase: "recovery", side: "blue", turn: 1 }, { type: "phase", phase: "combat", side: "blue", turn: 1 }] },
  ], sc);
  assert.deepEqual(marks.map((m) => [m.version, m.label]), [[0, "The start"], [1, "Turn 1: Blue movement"], [2, "Turn 1: Blue combat"]]);
});

test("the victory conditions read in plain words from the scenario", () => {
  const sc = {
    turns: 8,
    sides: { blue: { name: "Blue Army" }, red: { name: "Red Army" } },
    victory: { objectives: [{ hex: "0605", name: "Millbrook", points: 4 }], points: { step_eliminated: 1 }, draw_margin: 2, sudden_death: [{ side: "blue", hexes: ["0605"] }] },
  };
  const w = victoryWords(sc).join(" ");
  assert.match(w, /8 turns/);
  assert.match(w, /1 per enemy step eliminated/);
  assert.match(w, /less than 2 is a draw/);
  assert.match(w, /Blue Army wins at once by holding Millbrook \(0605\)/);
});
