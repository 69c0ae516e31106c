// node --test tests/web/standard.test.mjs  (also run from tests/web/test_js_units.py)
// Issue 13: the page reads the Standard rules' options (web/js/ui/standard.js) into the moves, re-entries,
// movement actions and attacks it offers.
import test from "node:test";
import assert from "node:assert/strict";
import { standardOptions, isEdgeHex, isStandard, actionLabel, TRT } from "../../web/js/ui/standard.js";

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
