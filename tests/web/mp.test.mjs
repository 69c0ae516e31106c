// node --test tests/web/mp.test.mjs: Musket & Pike's page pieces that need no browser: a click on a hex around a
// move's destination faces that way (words.js facingToward against the kernel's directions, R17.16); the counters' tags
// (R17.15); every roll's odds in words with its need, modifiers and chance (R17.2, 4.3, 4.4, 5.7, 9.3); a fire's and a
// close combat's explanations name the table, the column or row, every modifier, the cap (R17.84); the scenario in the
// map's shapes (scenario.js).
import test from "node:test";
import assert from "node:assert/strict";
import { facingToward, unitTag, rollOddsText, fireOddsText, closeCombatText, commandLabel, optionNote, kindWords, detailWords, stateWords } from "../../web/js/editions/musket-and-pike/words.js";
import { roadPaths, pageScenario } from "../../web/js/editions/musket-and-pike/scenario.js";
import { fireLines, closeCombatLines, wingState } from "../../web/js/editions/musket-and-pike/panel.js";
import { HexGrid, toCube, fromCube } from "../../web/js/hexgeom.js";

// server/rules/kernel/hexes.py HEX_DIRECTIONS, by the names of kernel/facing.py Direction
const DIRECTIONS = { SE: [1, 0], NE: [1, -1], N: [0, -1], NW: [-1, 0], SW: [-1, 1], S: [0, 1] };
const nameOf = (u) => ({ a: "Tercio", b: "Blue Brigade", c: "Cuirassiers" })[u] || u;

for (const shifted of ["even", "odd"]) {
  test(`R17.16: the hex across each hexside gives that facing, odd and even columns (${shifted})`, () => {
    const g = new HexGrid({ columns: 10, rows: 10, shifted }, 40);
    for (const id of ["0505", "0405"]) {
      const cube = toCube(id, shifted);
      for (const [name, [dq, dr]] of Object.entries(DIRECTIONS)) {
        const n = fromCube({ q: cube.q + dq, r: cube.r + dr, s: -cube.q - dq - cube.r - dr }, shifted);
        assert.equal(facingToward(g.center(id), g.center(n)), name, `${id} -> ${n}`);
      }
    }
  });
}

test("R17.15: a counter's tag says its mode, formation, morale, Casualty Points and Salvo marker; a fresh unit none", () => {
  assert.equal(unitTag({ mode: "line", cond: "normal", morale: "normal", cp: 0, salvo: false }), "");
  assert.equal(unitTag({ mode: "column", cond: "shaken", morale: "shaken", cp: 2, salvo: true }), "Col FS MS 2cp S");
  assert.equal(unitTag({ mode: "hedgehog", cond: null, morale: "broken", cp: 4, salvo: false }), "Hh MB 4cp");
});

test("R17.10, R17.14: a unit's type and state in plain words", () => {
  const tercio = { id: "a", type: "hi", pikes: true, large: true, sp: 12 };
  assert.equal(kindWords(tercio), "Heavy Infantry");
  assert.equal(detailWords(tercio), "with pikes, two-hex unit (R17.14)");
  assert.equal(kindWords({ type: "leader", role: "wc", rating: -1 }), "Wing Commander");
  assert.equal(detailWords({ type: "leader", role: "wc", rating: -1 }), "rating -1");
  assert.equal(kindWords({ type: "cavalry", class: "cuirassier" }), "Cavalry (Cuirassiers)");
  assert.equal(detailWords({ type: "artillery", calibre: "4-8lb", double: true }), "Sakers (4-8lb), double battery");
  assert.deepEqual(stateWords(tercio, { sp: 10, cp: 2, mode: "open_order", cond: "broken", morale: "normal", salvo: false }),
    ["10 of 12 SP (2 Casualty Points)", "Open Order", "Formation Broken"]);
});

test("R17.2, 4.4: a roll's odds name the printed range, every modifier with its rule and the chance", () => {
  const o = { need: 3, odds: 0.6, modifiers: [{ label: "WC Stålhandske's rating", value: -1, rule: "R17.5" }, { label: "Cavalry Wing", value: -1, rule: "4.3" }] };
  assert.equal(rollOddsText(o), "needs 0-3 on the d10 after -1 WC Stålhandske's rating (R17.5); -1 Cavalry Wing (4.3): 60% to succeed");
  assert.equal(rollOddsText({ need: 5, odds: 0.6, modifiers: [] }), "needs 0-5 on the d10 (no modifier): 60% to succeed");
  assert.equal(rollOddsText({ id: "keep" }), null);
  const note = optionNote({ id: "swe-horse", wing: "swe-horse", ...o }, { kind: "preempt" });
  assert.match(note, /^needs 0-3 on the d10 .*60% to succeed\. Success: this wing activates now/);
  assert.match(optionNote({ id: "continue", need: 2, odds: 0.3, modifiers: [] }, { kind: "continue" }), /needs 0-2 .* 30% to succeed\. Success: the wing activates again/);
});

test("10.0: a fire's odds name its table, column, every modifier and each result's chance, likeliest first", () => {
  const o = { table: "Heavy Infantry Musketry Tables (10.0)", column: "front", total_modifier: -2,
    modifiers: [{ label: "Formation Shaken", value: -2, rule: "10.0" }], results: { Miss: 0.5, "1": 0.3, "1+FH": 0.2 } };
  assert.equal(fireOddsText(o), "Heavy Infantry Musketry Tables (10.0), front; -2 Formation Shaken (10.0); total -2: Miss 50% · 1 30% · 1+FH 20%");
});

test("11.0, R17.84: a close combat's preview names every modifier and the cap; a refusal its rule", () => {
  const pv = { legal: true, table: "Close Combat Table (11.0)", raw: 5, total_modifier: 4, results: { "Defender Morale Shaken, retreat 1": 0.6, "Attacker Morale Shaken, retreat 1": 0.4 },
    modifiers: [{ label: "Cavalry Momentum", value: 2, rule: "11.3.6" }, { label: "morale differential 8 - 7", value: 1, rule: "11.3.3" }] };
  const t = closeCombatText(pv);
  assert.match(t, /^Close Combat Table \(11\.0\); \+2 Cavalry Momentum \(11\.3\.6\); \+1 morale differential 8 - 7 \(11\.3\.3\); total \+4 \(\+5 capped at ±4, R17\.84\): Defender Morale Shaken, retreat 1 60%/);
  assert.equal(closeCombatText({ legal: false, rule: "11.6", message: "LI only against LI" }), "refused: LI only against LI (11.6)");
  const lines = closeCombatLines({ lead: "c", attackers: ["c", "a"], defender: "b", table: "Close Combat Table (11.0)", modifiers: pv.modifiers, raw: 5, total_modifier: 4, die: 1, total: 5, row: "5", result_text: "Defender Morale Shaken, retreat 1", rule: "11.0" }, nameOf);
  assert.deepEqual(lines, [
    "Cuirassiers with Tercio against Blue Brigade: Close Combat Table (11.0)",
    "modifiers: +2 Cavalry Momentum (11.3.6) +1 morale differential 8 - 7 (11.3.3); total +4, +5 capped at +4 (R17.84)",
    "die 1 +4 = 5, row 5: Defender Morale Shaken, retreat 1 (11.0)",
  ]);
});

test("10.0: a fire event explained: table, column, die, each modifier, total, row and result", () => {
  const lines = fireLines({ unit: "b", target: "a", kind: "skirmishing", table: "Heavy Infantry Musketry Tables (10.0)", column: "front", die: 6, total: 5, row: "5", result: "1+FH", hits: 1, fh: true, mc: false, rule: "R17.62",
    modifiers: [{ label: "Salvo marker", value: -1, rule: "10.4" }] }, nameOf);
  assert.deepEqual(lines, [
    "Blue Brigade fires (skirmishing) at Tercio: Heavy Infantry Musketry Tables (10.0), column front",
    "die 6 -1 Salvo marker (10.4) = 5, row 5: 1+FH — 1 hit, a Formation Hit (R17.62)",
  ]);
});

test("R17.95: each command's button says what it does", () => {
  assert.equal(commandLabel({ type: "move", unit: "c", path: ["1104", "1105"], facing: "S" }, nameOf), "Move Cuirassiers to 1105, facing S");
  assert.equal(commandLabel({ type: "fire", unit: "b", target: "a", salvo: true }, nameOf), "Salvo at Tercio (10.4)");
  assert.equal(commandLabel({ type: "formation", unit: "a", mode: "open_order" }, nameOf), "Form Open Order");
  assert.equal(commandLabel({ type: "close_combat", defender: "b", attackers: ["c", "a"], lead: "c", pistols: ["c"] }, nameOf),
    "Close combat: Cuirassiers with Tercio against Blue Brigade, pistols: Cuirassiers");
});

test("R17.25-R17.27: a wing's state in words", () => {
  assert.equal(wingState({ active: true, activated: true, continuations: 1 }, "action"), "acting now: Action Segment; 1 continuation");
  assert.equal(wingState({ active: false, activated: true, no_continue: true }, null), "activated this turn; No Continue (R17.26)");
  assert.equal(wingState({ active: false, activated: false, collapsed: true }, null), "collapsed (R17.92)");
});

test("the scenario in the map's shapes: road pairs chained into paths, one feature a hexside, each unit a kind", () => {
  assert.deepEqual(roadPaths([["0701", "0702"], ["0702", "0703"], ["0901", "0902"]]), [
    { path: ["0701", "0702", "0703"], kind: "road" }, { path: ["0901", "0902"], kind: "road" }]);
  const sc = pageScenario({ map: { default_terrain: "clear", hexes: { "0101": "woods" }, roads: [["0101", "0102"]], hexsides: [{ hexes: ["0101", "0102"], feature: "stream" }] },
    units: [{ id: "x", type: "cavalry" }, { id: "y", type: "leader" }, { id: "z", type: "li" }] });
  assert.deepEqual(Object.keys(sc.tec.terrain).sort(), ["clear", "woods"]);
  assert.deepEqual(sc.map.hexsides[0].features, ["stream"]);
  assert.deepEqual(sc.units.map((u) => u.kind), ["cavalry", "leader", "infantry"]);
  assert.equal(pageScenario(sc), sc); // already in the map's shapes
});
