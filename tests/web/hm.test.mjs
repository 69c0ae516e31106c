// node --test tests/web/hm.test.mjs: Horse and Musket's page pieces that need no browser: the fire arc shaded on
// hover (marks.js) is R16.4's, the 120 degrees out through the hexsides either side of the facing, both rows
// included (server/rules/horse_and_musket/geometry.py: F + a d(f-1) + b d(f+1), a, b >= 0); and the commands'
// button labels (words.js) say the legs, formation changes and cards of a move (H4, R16.10).
import test from "node:test";
import assert from "node:assert/strict";
import { arcHexes } from "../../web/js/editions/horse-and-musket/marks.js";
import { commandLabel, moveText } from "../../web/js/editions/horse-and-musket/words.js";
import { HexGrid, toCube } from "../../web/js/hexgeom.js";

const DIRECTIONS = { SE: [1, 0], NE: [1, -1], N: [0, -1], NW: [-1, 0], SW: [-1, 1], S: [0, 1] };
const ORDER = ["SE", "NE", "N", "NW", "SW", "S"];

/** R16.4 on cubes: the target is a d(f-1) + b d(f+1) from the firer, a and b whole and not negative. */
function inArc(at, facing, target, shifted) {
  const a = toCube(at, shifted);
  const t = toCube(target, shifted);
  const f = ORDER.indexOf(facing);
  const [q1, r1] = DIRECTIONS[ORDER[(f + 5) % 6]];
  const [q2, r2] = DIRECTIONS[ORDER[(f + 1) % 6]];
  const dq = t.q - a.q;
  const dr = t.r - a.r;
  const det = q1 * r2 - q2 * r1;
  const x = (dq * r2 - q2 * dr) / det;
  const y = (q1 * dr - dq * r1) / det;
  return x >= 0 && y >= 0;
}

for (const shifted of ["even", "odd"]) {
  test(`the hovered unit's arc is R16.4's fire arc, every facing (${shifted})`, () => {
    const g = new HexGrid({ columns: 16, rows: 16, shifted }, 40);
    for (const at of ["0808", "0908"]) {
      for (const facing of ORDER) {
        const want = [...g.ids()].filter((id) => id !== at && g.distance(at, id) <= 5 && inArc(at, facing, id, shifted)).sort();
        assert.deepEqual(arcHexes(g, at, facing).sort(), want, `${at} ${facing}`);
      }
    }
  });
}

test("a move's button says its legs, formation change and card", () => {
  const nameOf = (u) => ({ "p-fus": "Fusiliers" })[u] || u;
  assert.equal(moveText({ legs: [{ pivot: "NE", steps: 2 }, { steps: 1, back: true, end_pivot: "N" }] }), "pivot to NE, 2 hexes forward; then 1 hex back, pivot to N");
  assert.equal(commandLabel({ type: "move", unit: "p-fus", formation: "line", formation_at: "start", legs: [{ steps: 1 }], card: "forced_march" }, nameOf),
    "Move Fusiliers: form line; then 1 hex forward + Forced March");
  assert.equal(commandLabel({ type: "charge", unit: "p-fus", target: "x", path: ["1713", "1712"], card: "cold_steel" }, nameOf), "Charge x by 1713 → 1712 + Cold Steel");
  assert.equal(commandLabel({ type: "play_card", card: "aide_de_camp", general: "g" }, nameOf), "Play Aide-de-camp: g re-rolls");
});
