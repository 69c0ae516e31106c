// node --test tests/web/stacks.test.mjs: a stack's layout (counters.js: stackLayout) keeps every piece inside its
// hex for any pile and any number of riding leaders; the zoomed-out map's level of detail and the battle's key
// objective (map/lod.js). The page itself is checked by tests/web/test_stacks_ui.py.
import test from "node:test";
import assert from "node:assert/strict";
import { stackLayout, stackParts } from "../../web/js/counters.js";
import { lodFor, keyObjective } from "../../web/js/map/lod.js";
import { HexGrid } from "../../web/js/hexgeom.js";

const grid = new HexGrid({ columns: 3, rows: 3 }, 40);
const R = grid.size;
const S = Math.round(R * 1.02); // the map's counter (renderStacks)
const REACH = 2; // a counter's markers and rings past its edge (counterSVG)

/** Is (x, y) inside the convex polygon of the hex's corners (0.01 allowed)? */
function inside(hex, x, y) {
  const pts = grid.corners(hex);
  const c = grid.center(hex);
  return pts.every((a, i) => {
    const b = pts[(i + 1) % pts.length];
    const side = (px, py) => (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
    return side(x, y) * Math.sign(side(c.x, c.y)) >= -0.01;
  });
}

const boxInside = (hex, x0, y0, x1, y1) => [[x0, y0], [x1, y0], [x0, y1], [x1, y1]].every(([x, y]) => inside(hex, x, y));

test("every piece of a stack lies inside its hex, whatever the pile and the leaders riding with it", () => {
  const hex = "0202";
  const c = grid.center(hex);
  for (let pile = 1; pile <= 8; pile++) {
    for (let chips = 0; chips <= 4; chips++) {
      const lay = stackLayout(c.x, c.y, R, S, pile, chips);
      assert.equal(lay.layers.length, pile);
      assert.equal(lay.chips.length, chips);
      for (const l of lay.layers) assert.ok(boxInside(hex, l.x - REACH, l.y - REACH, l.x + l.size + REACH, l.y + l.size + REACH), `counter ${pile}/${chips} ${JSON.stringify(l)}`);
      for (const k of lay.chips) assert.ok(boxInside(hex, k.x, k.y, k.x + k.size, k.y + k.size), `chip ${pile}/${chips}`);
      const b = lay.badge;
      const r = b.r + 0.6; // its white ring
      assert.ok(boxInside(hex, b.x - r, b.y - r, b.x + r, b.y + r), `badge ${pile}/${chips}`);
      // the badge and the chips keep off the top counter (and its markers)
      const top = lay.layers[0];
      assert.ok(b.x - b.r >= top.x + top.size + REACH - 0.01);
      for (const k of lay.chips) assert.ok(k.x + k.size <= top.x - REACH + 0.01);
    }
  }
});

test("a pile shows at most three layers, each lower one up and to the right of the one above it", () => {
  const lay = stackLayout(0, 0, R, S, 5, 0);
  const [a, b, c, d, e] = lay.layers;
  assert.ok(b.x > a.x && b.y < a.y && c.x > b.x && c.y < b.y);
  assert.deepEqual([d.x, d.y], [c.x, c.y]);
  assert.deepEqual([e.x, e.y], [c.x, c.y]);
});

test("the pile holds the combat units, the selected one on top; leaders ride as chips, or pile when alone", () => {
  const defs = { a: { kind: "infantry" }, b: { kind: "cavalry" }, l: { kind: "leader" }, m: { kind: "leader" } };
  assert.deepEqual(stackParts(["l", "b", "a"], defs), { pile: ["a", "b"], chips: ["l"] });
  assert.deepEqual(stackParts(["l", "b", "a"], defs, new Set(["b"])), { pile: ["b", "a"], chips: ["l"] });
  assert.deepEqual(stackParts(["l", "b", "a"], defs, new Set(["a", "b", "l"])), { pile: ["a", "b"], chips: ["l"] });
  assert.deepEqual(stackParts(["m", "l"], defs), { pile: ["l", "m"], chips: [] });
});

test("the level of detail: hex numbers only close up, counters down to a readable size, marks below it", () => {
  assert.equal(lodFor(45), "near");
  assert.equal(lodFor(25), "mid");
  assert.equal(lodFor(14.6), "far"); // Hougoumont's whole field on a desktop
});

test("the key objective is the one worth most, the first listed among equals", () => {
  const sc = { victory: { objectives: [{ hex: "0101", points: 2 }, { hex: "0202", points: 4 }, { hex: "0303", points: 4 }] } };
  assert.equal(keyObjective(sc).hex, "0202");
  assert.equal(keyObjective({}), null);
});
