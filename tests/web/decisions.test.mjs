// node --test tests/web/decisions.test.mjs  (also run from tests/web/test_js_units.py)
// Issue 39: a decision in plain words with its rule numbers after, the choices that put units in a hex answered on
// the map (web/js/ui/decisions.js), and the Standard rules' words for why a player takes a tactic or a movement
// phase action (web/js/editions/standard/why.js).
import test from "node:test";
import assert from "node:assert/strict";
import { promptHeading, ruleChipText, choiceHex, mapChoice, hexChoiceWords, mapChoiceHelp, routeWords } from "../../web/js/ui/decisions.js";
import { tacticNote, tacticEffect, hitWords, actionWhy, actionHead, ACTION_HEADS } from "../../web/js/editions/standard/why.js";

test("a heading reads plain words first, the rule numbers taken off its end for the chip", () => {
  assert.deepEqual(promptHeading("Jäger Bn at 1401 provoked a fight nobody fought: choose what it does now — move, charge, or nothing (rules 7.2, 12.4)", "7.2"), {
    text: "Jäger Bn at 1401 provoked a fight nobody fought: choose what it does now — move, charge, or nothing",
    rule: "7.2, 12.4",
  });
  assert.deepEqual(promptHeading("IR 26 must retreat from 0606: choose where they go (rule 7.9)"), { text: "IR 26 must retreat from 0606: choose where they go", rule: "7.9" });
  assert.deepEqual(promptHeading("Grenadiers form square? (rules 9.3(3), 9.5)"), { text: "Grenadiers form square?", rule: "9.3(3), 9.5" });
  // a parenthesis that is no rule stays in the words
  assert.deepEqual(promptHeading("Dragoons must rout 3 hexes (no safe line exists: the group loses a step and routs)", "7.8"), {
    text: "Dragoons must rout 3 hexes (no safe line exists: the group loses a step and routs)",
    rule: "7.8",
  });
});

test("a text that leads with its rule number has it moved after the words", () => {
  assert.deepEqual(promptHeading("12.4: move 1st Brigade (3 MP rolled)", "12.4"), { text: "Move 1st Brigade (3 MP rolled)", rule: "12.4" });
  assert.deepEqual(promptHeading("19.8 E: place IR 6 on or adjacent to 2005"), { text: "Place IR 6 on or adjacent to 2005", rule: "19.8 E" });
  assert.deepEqual(promptHeading("12.4, 13.2: place IR 6 next to the HQ"), { text: "Place IR 6 next to the HQ", rule: "12.4, 13.2" });
  assert.deepEqual(promptHeading("the attacker announces press forward (7.13(2)): choose your tactic", "7.13"), { text: "The attacker announces press forward (7.13(2)): choose your tactic", rule: "7.13" });
  assert.equal(ruleChipText("7.9"), "rule 7.9");
  assert.equal(ruleChipText("7.2, 12.4"), "rules 7.2, 12.4");
});

const retreat = {
  kind: "retreat",
  options: [
    { id: "0504-0603", path: ["0504", "0603"], safe: true },
    { id: "0505-0603", path: ["0505", "0603"], safe: true },
    { id: "0505-0604", path: ["0505", "0604"], safe: false },
  ],
};

test("choices that put units in a hex are grouped by that hex; a unit, an action or a target is no hex choice", () => {
  assert.equal(choiceHex({ id: "0703", hex: "0703" }), "0703");
  assert.equal(choiceHex({ id: "x", path: ["0504", "0603"], hex: "0603" }), "0603");
  assert.equal(choiceHex({ id: "stay", hex: null }), null);
  assert.equal(choiceHex({ id: "b-1", unit: "b-1" }), null);
  assert.equal(choiceHex({ id: "friendly_move:0604", action: "friendly_move", hex: "0604", unit: null }), null);
  assert.equal(choiceHex({ id: "c", units: ["b-1"], path: ["0604", "0705"], target: "0806" }), null);
  const mc = mapChoice(retreat);
  assert.deepEqual([...mc.byHex.keys()], ["0603", "0604"]);
  assert.deepEqual(mc.byHex.get("0603").map((o) => o.id), ["0504-0603", "0505-0603"]);
  assert.deepEqual(mc.rest, []);
  const advance = mapChoice({ options: [{ id: "stay", hex: null, label: "do not advance" }, { id: "0703", hex: "0703" }, { id: "0704", hex: "0704" }] });
  assert.deepEqual(mc && advance.rest.map((o) => o.id), ["stay"]);
  // one hex choice and the buttons say it all
  assert.equal(mapChoice({ options: [{ id: "stay", hex: null }, { id: "0703", hex: "0703" }] }), null);
  assert.equal(mapChoice({ options: [{ id: "none", tactic: "none" }, { id: "disengage", tactic: "disengage" }] }), null);
});

test("a hex reached two ways says so, and how to choose the path", () => {
  const mc = mapChoice(retreat);
  assert.match(hexChoiceWords("0603", mc.byHex.get("0603")), /^0603: 2 paths lead here\. Click the hex, then choose the path\.$/);
  assert.equal(hexChoiceWords("0604", mc.byHex.get("0604")), "0604: click to choose it (by 0505 → 0604).");
  assert.match(mapChoiceHelp(mc), /2 outlined hexes.*number on a hex counts the paths/);
  assert.doesNotMatch(mapChoiceHelp(mapChoice({ options: [{ id: "a", hex: "0703" }, { id: "b", hex: "0704" }] })), /number/);
  assert.equal(routeWords({ path: ["0603"] }), "");
});

test("each defending tactic says what it does and how often each side is hit (7.13, 9.4)", () => {
  const none = { id: "none", tactic: "none", attack_tactic: "press", preview: { results: ["NE", "Ac(NE)", "Dr", "Dr", "Dx", "Ex"] } };
  const note = tacticNote(none, { kind: "tactic" });
  assert.match(note, /^Stand and fight: the result is read as rolled, through the attacker's tactic\./);
  assert.match(note, /hit on 4 of the 6 dice, the attacker on 2\.$/); // Dr, Dr, Dx, Ex; Ac(NE), Ex
  assert.match(tacticNote({ id: "last_stand", tactic: "last_stand", attack_tactic: "none", preview: { results: [] } }, { kind: "tactic" }), /\+3 to your defence.*lose a step.*7\.13\(5\)/);
  assert.match(tacticEffect("disengage", { attackTactic: "charge" }), /charging attacker loses nothing \(7\.13\(4\)\)/);
  assert.doesNotMatch(tacticEffect("disengage"), /charging/);
  // 9.4: against infantry the countercharge has no odds of its own (it becomes the defender's charge)
  assert.match(tacticNote({ id: "countercharge", tactic: "countercharge", attack_tactic: "none" }, { kind: "tactic" }), /charges the attacking primary unit's hex instead/);
  assert.match(tacticNote({ id: "countercharge", tactic: "countercharge", attack_tactic: "charge", preview: { results: ["Am", "both retreat", "Dm", "Dm", "Dm", "Dm"] } }, { kind: "tactic" }), /both sides use their charge factors.*hit on 5 of the 6 dice, the attacker on 2/);
  assert.equal(tacticNote({ id: "b-1", unit: "b-1" }, { kind: "absorb" }), null);
  assert.equal(hitWords([]), "");
});

const defs = {
  "b-art": { kind: "artillery", name: "Foot Battery", full: { attack: 4, defense: 1, range: 3, ma: 3 }, ineffective: { attack: 1, defense: 0, range: 2, ma: 3 } },
  "b-cav": { kind: "cavalry", name: "Dragoons", full: { cf: 3, mr: 4, ma: 6 }, ineffective: { cf: 1, mr: 2, ma: 8 } },
  "b-hq": { kind: "hq", name: "Blue HQ", ma: 6 },
  "b-1": { kind: "infantry", name: "1st Brigade", full: { cf: 6, mr: 4, ma: 4 } },
  "b-ldr": { kind: "leader", name: "Gen. O" },
};
const view = { units: { "b-1": { hex: "0604", status: "map", disrupted: true }, "b-art": { hex: "0605", status: "map" } } };

test("a flip says whether the unit moves faster on its ineffective side, and what it costs (2.6, 12.1)", () => {
  assert.equal(actionWhy({ type: "flip", unit: "b-cav" }, defs, view), "Its ineffective side moves faster (MA 6 → 8) and fights weaker (CF 3 → 1) until it recovers (2.6, 11.3).");
  assert.equal(actionWhy({ type: "flip", unit: "b-art" }, defs, view), "Rarely worth it: its ineffective side moves no faster (MA 3) and fights weaker (attack 4 → 1) until it recovers (2.6, 11.3).");
  assert.match(actionWhy({ type: "flip", unit: "b-hq" }, defs, view), /moves only when flipped inactive.*MA 6.*rolls for its MA.*\(12\.1\)/);
  assert.equal(actionHead({ type: "flip", unit: "b-hq" }, defs), "flip:army");
  assert.equal(actionHead({ type: "flip", unit: "b-art" }, defs), "flip");
  for (const k of ["flip:army", "flip", "recover", "replace", "muster", "open_order", "reenter"]) assert.ok(ACTION_HEADS[k], k);
});

test("squares, lines, open order and recoveries say what they give and cost (9.5, 19.7, 19.10, 11.1)", () => {
  assert.match(actionWhy({ type: "square", unit: "b-1" }, defs, view), /\+2 CF and MR.*charged by cavalry.*only one hex.*\(9\.5\)/);
  assert.match(actionWhy({ type: "square", unit: "b-1", form: false }, defs, view), /Leaves square/);
  assert.match(actionWhy({ type: "line", unit: "b-1", facing: "SSE" }, defs, view), /^Facing SSE: \+2 CF.*flank triples.*\(19\.7 B, D\)/);
  assert.match(actionWhy({ type: "line", unit: "b-1", facing: "N" }, defs, { units: { "b-1": { facing: "SSE" } } }), /whole move \(19\.7 C\)/);
  assert.match(actionWhy({ type: "open_order", unit: "b-1" }, defs, view), /parenthesised.*artillery is halved.*\(19\.10\)/);
  assert.match(actionWhy({ type: "recover", unit: "b-1", assist: "b-ldr" }, defs, view), /^Removes its disruption.*Gen\. O adds his morale rating.*\(10\.3\)\.$/);
  assert.match(actionWhy({ type: "line_fire", unit: "b-1", target: "0806" }, defs, view), /Fires at 0806/);
});
