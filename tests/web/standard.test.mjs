// node --test tests/web/standard.test.mjs  (also run from tests/web/test_js_units.py)
// Issue 13: the page reads the Standard rules' options (web/js/editions/standard/options.js) into the moves, re-entries,
// movement actions and attacks it offers.
import test from "node:test";
import assert from "node:assert/strict";
import { standardOptions, isEdgeHex, isStandard, actionLabel, TRT, chargeCandidates, neighbours, bombardCommand } from "../../web/js/editions/standard/options.js";

const defs = {
  "b-1": { id: "b-1", side: "blue", kind: "infantry", name: "1st Brigade" },
  "b-2": { id: "b-2", side: "blue", kind: "infantry", name: "2nd Brigade" },
  "b-ldr": { id: "b-ldr", side: "blue", kind: "leader", name: "Gen. O" },
  "b-hq": { id: "b-hq", side: "blue", kind: "hq", name: "Blue HQ" },
};
const view = {
  ruleset: "standard",
  units: {
    "b-1": { hex: "0305", status: "map" },
    "b-2": { hex: "0405", status: "map" },
    "b-ldr": { hex: "0305", status: "map" },
    "b-hq": { hex: "0205", status: "map" },
  },
};
const reach = (...hexes) => Object.fromEntries(hexes.map((x) => [x, { path: ["0305", x] }]));

test("the normal move is shown first, march on request (4.7), and a refused march falls back to the move", () => {
  const raw = { options: { normal: { declare: false, ma: 4, disengaging: false, reachable: reach("0306", "0404") }, march: { declare: false, ma: 9, disengaging: false, reachable: reach("0306", "0404", "0504") } } };
  const o = standardOptions(raw, { selected: ["b-1"], defs, view });
  assert.equal(o.mode, "normal");
  assert.deepEqual([...o.reach.keys()], ["0306", "0404"]);
  const m = standardOptions(raw, { mode: "march", selected: ["b-1"], defs, view });
  assert.equal(m.mode, "march");
  assert.equal(m.reach.size, 3);
  const noMarch = standardOptions({ options: { normal: raw.options.normal, march_error: { rule: "4.7", message: "march movement is made by combat units" } } }, { mode: "march", selected: ["b-ldr"], defs, view });
  assert.equal(noMarch.mode, "normal");
  assert.ok(noMarch.notes.some((n) => n.rule === "4.7"));
});

test("a move whose MA is rolled offers no hexes until it is declared (4.4); the declared move keeps its own kind", () => {
  const must = standardOptions({ options: { normal: { declare: true, rule: "4.4", reasons: { "b-1": ["disrupted"] } } } }, { selected: ["b-1"], defs, view });
  assert.equal(must.reach.size, 0);
  assert.equal(must.move.declare, true);
  assert.ok(must.notes.some((n) => n.rule === "4.4" && /declare/.test(n.text)));
  const declared = { units: ["b-1"], ma: 3, march: true };
  const after = standardOptions({ options: { declared, march: { declare: false, ma: 3, disengaging: false, reachable: reach("0306") } } }, { mode: "normal", selected: ["b-1"], defs, view });
  assert.equal(after.mode, "march");
  assert.equal(after.declaredMine, true);
  assert.deepEqual([...after.reach.keys()], ["0306"]);
});

test("movement actions become buttons and re-entries become map placements (13.2)", () => {
  const raw = { options: { actions: [{ type: "flip", unit: "b-hq" }, { type: "recover", unit: "b-1" }, { type: "reenter", unit: "b-2", hex: "0205" }, { type: "reenter", unit: "b-2", hex: "0105" }] } };
  const hq = standardOptions(raw, { selected: ["b-hq"], defs, view });
  assert.deepEqual(hq.commands.map((c) => c.command), [{ type: "flip", unit: "b-hq" }]);
  assert.match(hq.commands[0].label, /inactive/);
  const back = standardOptions(raw, { selected: ["b-2"], defs, view });
  assert.deepEqual([...back.reach.keys()].sort(), ["0105", "0205"]);
  assert.deepEqual(back.reach.get("0205").reenter, { type: "reenter", unit: "b-2", hex: "0205" });
  assert.equal(actionLabel({ type: "muster", unit: "b-2" }, defs, view), "Muster 2nd Brigade: extra replacement check");
  assert.equal(TRT, "TRT");
});

test("an attack offers every selected combat unit next to the target, never a leader or the HQ (7.4, 7.5)", () => {
  const preview = { legal: true, command: { type: "attack", target: "0406", attackers: ["b-1"], primary: "b-1" }, differential: 2, column: "+2", results: ["-", "-", "Xr", "Xr", "Dr", "Dr"], attackers: [], defenders: [] };
  const o = standardOptions({ options: { attacks: [preview, { legal: false, rule: "7.1", message: "no", command: { type: "attack", target: "0507" } }] } }, { selected: ["b-1", "b-2", "b-ldr", "b-hq"], selHexes: ["0305", "0405"], defs, view });
  assert.deepEqual(o.attacks.map((a) => a.target), ["0406"]);
  assert.deepEqual(o.illegal.map((a) => a.target), ["0507"]);
  assert.deepEqual(o.attackChoices.get("0406").attackers.sort(), ["b-1", "b-2"]);
});

test("edge hexes (4.1) and the edition", () => {
  const sc = { map: { columns: 12, rows: 10 } };
  assert.ok(isEdgeHex(sc, "0105") && isEdgeHex(sc, "1205") && isEdgeHex(sc, "0601") && isEdgeHex(sc, "0610"));
  assert.ok(!isEdgeHex(sc, "0605"));
  assert.ok(isStandard({ ruleset: "standard" }) && !isStandard({ ruleset: "quickplay" }));
});

// Issue 14: tactics, coordination, charges and bombardment on the page.
const defs2 = {
  ...defs,
  "b-jg": { id: "b-jg", side: "blue", kind: "battalion", name: "Jäger" },
  "b-art": { id: "b-art", side: "blue", kind: "artillery", name: "Foot", full: { attack: 4, defense: 1, range: 3 } },
  "b-cav": { id: "b-cav", side: "blue", kind: "cavalry", name: "Dragoons" },
  "r-1": { id: "r-1", side: "red", kind: "infantry", name: "Grenadiers" },
  "r-2": { id: "r-2", side: "red", kind: "infantry", name: "Line" },
};
const combatView = {
  ruleset: "standard",
  phase: "combat",
  standard: { light: "day" },
  units: {
    "b-1": { hex: "0305", status: "map" },
    "b-jg": { hex: "0305", status: "map" },
    "b-ldr": { hex: "0305", status: "map" },
    "b-art": { hex: "0205", status: "map" },
    "r-1": { hex: "0405", status: "map" },
    "r-2": { hex: "0505", status: "map" },
  },
};

test("one target per hex with its variants; the builder offers tactics, leaders and guns; skirmish reaches two hexes (7.13, 7.14, 8.8)", () => {
  const plain = { legal: true, command: { type: "attack", target: "0405", attackers: ["b-1"], primary: "b-1" }, differential: 1 };
  const press = { legal: true, command: { ...plain.command, tactic: "press" }, differential: 3 };
  const coord = { legal: true, command: { ...plain.command, coordinator: "b-ldr" }, differential: 1 };
  const o = standardOptions({ options: { attacks: [press, plain, coord] } }, { selected: ["b-1", "b-jg", "b-ldr", "b-art"], defs: defs2, view: combatView, side: "blue" });
  const near = o.attacks.find((a) => a.target === "0405");
  assert.equal(near.command, plain.command);
  assert.deepEqual(near.tactics.sort(), ["none", "press"]);
  const ch = o.attackChoices.get("0405");
  assert.deepEqual(ch.attackers.sort(), ["b-1", "b-jg"]);
  assert.deepEqual(ch.support, ["b-art"]);
  assert.deepEqual(ch.leaders, ["b-ldr"]);
  const far = o.attacks.find((a) => a.target === "0505");
  assert.ok(far && far.unlisted && far.command.tactic === "skirmish");
  // 8.4: the gun (range 3) bombards both enemy hexes two or more hexes away
  assert.deepEqual(o.bombards.map((b) => b.target).sort(), ["0405", "0505"]);
  assert.deepEqual(o.bombards[0].command, { type: "bombard", target: o.bombards[0].target, artillery: ["b-art"] });
});

test("a declared charge is the builder's default for its target (7.13(3))", () => {
  const plain = { legal: true, command: { type: "attack", target: "0405", attackers: ["b-1", "b-jg"], primary: "b-1" } };
  const charge = { legal: true, command: { type: "attack", target: "0405", attackers: ["b-1"], primary: "b-1", tactic: "charge" } };
  const o = standardOptions({ options: { attacks: [plain, charge] } }, { selected: ["b-1", "b-jg"], defs: defs2, view: combatView, side: "blue" });
  assert.equal(o.attacks[0].command.tactic, "charge");
});

test("charge candidates: paths of one or two hexes ending next to the enemy, for a legal group only (7.13(3), 9.3(1))", () => {
  const mv = { ...combatView, phase: "movement", units: { ...combatView.units, "r-1": { hex: "0505", status: "map" }, "r-2": { hex: "0905", status: "map" } } };
  const enemy = new Map([["0505", ["r-1"]], ["0905", ["r-2"]]]);
  const sc = { map: { columns: 12, rows: 10 } };
  const c = chargeCandidates(mv, defs2, "blue", ["b-1", "b-ldr"], enemy, "even", sc);
  assert.ok(c.length > 0);
  for (const x of c) {
    assert.equal(x.type, "charge");
    assert.equal(x.path[0], "0305");
    assert.ok(x.path.length === 2 || x.path.length === 3);
    assert.ok(neighbours(x.path[x.path.length - 1], sc.map).includes(x.target));
    assert.ok(!x.path.includes("0505"));
  }
  assert.ok(c.every((x) => x.target === "0505"));
  // two leaders, or infantry with cavalry, or an artillery unit: no charge
  assert.deepEqual(chargeCandidates(mv, defs2, "blue", ["b-art"], enemy, "even", sc), []);
  const both = { ...mv, units: { ...mv.units, "b-cav": { hex: "0305", status: "map" } } };
  assert.deepEqual(chargeCandidates(both, defs2, "blue", ["b-1", "b-cav"], enemy, "even", sc), []);
  assert.ok(chargeCandidates(both, defs2, "blue", ["b-cav"], enemy, "even", sc).length > 0);
});

test("the referee's charges and bombardments: exact groups, a part of a group on the same paths, the largest set of guns (7.13(3), 8.4)", () => {
  const mv = { ...combatView, phase: "movement" };
  const listed = [
    { type: "charge", units: ["b-1", "b-ldr"], path: ["0305", "0304"], target: "0405" },
    { type: "charge", units: ["b-1", "b-ldr"], path: ["0305", "0306"], target: "0405" },
  ];
  const exact = standardOptions({ options: { charges: listed } }, { selected: ["b-ldr", "b-1"], defs: defs2, view: mv, side: "blue" });
  assert.deepEqual(exact.charges.map((c) => c.command), listed);
  const part = standardOptions({ options: { charges: listed } }, { selected: ["b-1"], defs: defs2, view: mv, side: "blue" });
  assert.deepEqual(part.charges.map((c) => c.command.units), [["b-1"], ["b-1"]]);
  assert.deepEqual(part.charges.map((c) => c.path), [["0305", "0304"], ["0305", "0306"]]);
  const none = standardOptions({ options: { charges: [] } }, { selected: ["b-1"], defs: defs2, view: mv, side: "blue" });
  assert.deepEqual(none.charges, []);
  const two = { ...defs2, "b-art2": { id: "b-art2", side: "blue", kind: "artillery", name: "Horse", full: { attack: 3, range: 2 } } };
  const cv = { ...combatView, units: { ...combatView.units, "b-art2": { hex: "0205", status: "map" } } };
  const bombardments = [
    { legal: true, command: { type: "bombard", target: "0405", artillery: ["b-art", "b-art2"] }, groups: [] },
    { legal: true, command: { type: "bombard", target: "0405", artillery: ["b-art"] }, groups: [] },
    { legal: true, command: { type: "bombard", target: "0505", artillery: ["b-art"] }, groups: [] },
  ];
  const both = standardOptions({ options: { bombardments } }, { selected: ["b-art", "b-art2"], defs: two, view: cv, side: "blue" });
  assert.deepEqual(both.bombards.map((b) => [b.target, b.artillery]), [["0405", ["b-art", "b-art2"]], ["0505", ["b-art"]]]);
  const one = standardOptions({ options: { bombardments } }, { selected: ["b-art"], defs: two, view: cv, side: "blue" });
  assert.deepEqual(one.bombards.map((b) => [b.target, b.artillery]), [["0405", ["b-art"]], ["0505", ["b-art"]]]);
  assert.equal(one.bombards[0].preview, bombardments[1]);
});

test("bombardment fire groups (8.4): any part of a stack's guns, grouped on the page, in the referee's order", () => {
  const three = { ...defs2, "b-art2": { id: "b-art2", side: "blue", kind: "artillery", name: "Horse", full: { attack: 3, range: 2 } }, "b-art3": { id: "b-art3", side: "blue", kind: "artillery", name: "Foot", full: { attack: 3, range: 2 } } };
  const cv = { ...combatView, units: { ...combatView.units, "b-art2": { hex: "0205", status: "map" }, "b-art3": { hex: "0205", status: "map" } } };
  const all = ["b-art", "b-art2", "b-art3"];
  const bombardments = [
    { legal: true, command: { type: "bombard", target: "0405", artillery: all } },
    { legal: true, command: { type: "bombard", target: "0405", artillery: all, groups: [all] } },
    ...all.map((u) => ({ legal: true, command: { type: "bombard", target: "0405", artillery: [u] } })),
  ];
  // all three selected: the listed grouping of exactly those guns (they fire together)
  const whole = standardOptions({ options: { bombardments } }, { selected: all, defs: three, view: cv, side: "blue" });
  assert.deepEqual(whole.bombards[0].command, bombardments[1].command);
  // two of the stack: both offered (each alone until the page groups them), judged by the referee when shown
  const part = standardOptions({ options: { bombardments } }, { selected: ["b-art3", "b-art2"], defs: three, view: cv, side: "blue" });
  assert.deepEqual(part.bombards.map((b) => [b.target, b.artillery, b.preview]), [["0405", ["b-art3", "b-art2"], null]]);
  assert.deepEqual(bombardCommand("0405", ["b-art3", "b-art2"], { "b-art3": 0, "b-art2": 0 }, { 0: "b-ldr" }), { type: "bombard", target: "0405", artillery: ["b-art3", "b-art2"], groups: [["b-art2", "b-art3", "b-ldr"]] });
  assert.deepEqual(bombardCommand("0405", all, { "b-art3": 0, "b-art": 0, "b-art2": 2 }, { 2: "b-ldr" }), { type: "bombard", target: "0405", artillery: all, groups: [["b-art", "b-art3"], ["b-art2"]] });
  assert.deepEqual(bombardCommand("0405", all, { "b-art": 0, "b-art2": 1, "b-art3": 2 }, { 0: "b-ldr" }), { type: "bombard", target: "0405", artillery: all });
});

test("squares (9.5): each selected infantry unit forms one or removes its own, before any unit moves", () => {
  const mv = { ...combatView, phase: "movement", active: "blue", squares: { "0205": "b-art" } };
  const o = standardOptions({ options: {} }, { selected: ["b-1", "b-ldr"], defs: defs2, view: mv, side: "blue" });
  assert.deepEqual(o.commands.map((c) => c.command), [{ type: "square", unit: "b-1" }]);
  assert.equal(o.commands[0].label, "Form square with 1st Brigade (0305)");
  const sq = { ...mv, squares: { "0305": "b-1" } };
  const r = standardOptions({ options: {} }, { selected: ["b-1", "b-jg"], defs: defs2, view: sq, side: "blue" });
  assert.deepEqual(r.commands.map((c) => c.command), [{ type: "square", unit: "b-1", form: false }]);
  const moved = { ...mv, units: { ...mv.units, "b-jg": { hex: "0305", status: "map", moved: true } } };
  assert.deepEqual(standardOptions({ options: {} }, { selected: ["b-1"], defs: defs2, view: moved, side: "blue" }).commands, []);
});

test("19.4: Heavy Rain's cap on the MA comes with the options and is explained with its rule", async () => {
  const limit = { rule: "19.4", ma: 8, text: "Heavy Rain: no unit moves more than 4 MP (its MA is 8)" };
  const raw = { options: { normal: { declare: false, ma: 4, disengaging: false, limit, reachable: reach("0306") } } };
  const o = standardOptions(raw, { selected: ["b-1"], defs, view });
  assert.ok(o.notes.some((n) => n.rule === "4.2" && /MA 4/.test(n.text)));
  assert.ok(o.notes.some((n) => n.rule === "19.4" && /Heavy Rain/.test(n.text)));
  const dry = standardOptions({ options: { normal: { declare: false, ma: 8, disengaging: false, reachable: reach("0306") } } }, { selected: ["b-1"], defs, view });
  assert.ok(!dry.notes.some((n) => n.rule === "19.4"));
});

test("19.4: the panel's weather words name the rule and the next turn's weather when the scenario fixes it", async () => {
  const { weatherWords } = await import("../../web/js/editions/standard/panel.js");
  const w = { now: "heavy", name: "Heavy Rain", effects: "line of sight at most 4 hexes whatever the bonus; no unit moves more than 4 MP", rule: "19.4", los: 4, mp: 4, next: "light", next_name: "Light Rain" };
  const words = weatherWords(w);
  assert.match(words.now, /^Heavy Rain: line of sight at most 4 hexes/);
  assert.equal(words.rule, "rule 19.4");
  assert.match(words.next, /Next turn: Light Rain/);
  assert.match(weatherWords({ ...w, next: null, next_name: null }).next, /rolled on the Rain Table/);
});

test("19.10: open order's actions become buttons with the rule, and the counter says OO", async () => {
  const adopt = { type: "open_order", unit: "b-1" };
  const leave = { type: "open_order", unit: "b-1", on: false };
  const o = standardOptions({ options: { actions: [adopt, { type: "open_order", unit: "b-2" }] } }, { selected: ["b-1"], defs, view });
  const b = o.commands.filter((c) => c.command.type === "open_order");
  assert.equal(b.length, 1);
  assert.deepEqual(b[0].command, adopt);
  assert.equal(b[0].rule, "19.10");
  assert.match(b[0].label, /^Adopt open order: 1st Brigade/);
  assert.match(actionLabel(leave, defs, view), /^Leave open order: 1st Brigade/);
  const { counter } = await import("../../web/js/editions/standard/counter.js");
  assert.ok(counter.flags(defs["b-1"], { open_order: true }).some((f) => /^OO: open order \(19\.10\)/.test(f)));
  assert.ok(!counter.flags(defs["b-1"], {}).some((f) => /OO/.test(f)));
});
