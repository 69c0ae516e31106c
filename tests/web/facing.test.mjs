// node --test tests/web/facing.test.mjs: the facing wedge (counters.js) points at the faced hexside or apex
// of the map's own geometry (hexgeom.js), the facings of server/rules/kernel/facing.py.
import test from "node:test";
import assert from "node:assert/strict";
import { facingWedge, describeUnit } from "../../web/js/counters.js";
import { HexGrid, toCube, fromCube } from "../../web/js/hexgeom.js";

// The kernel's directions in its order (hexes.HEX_DIRECTIONS) and its apexes, apex k between hexsides k and k+1.
const DIRECTIONS = { SE: [1, 0], NE: [1, -1], N: [0, -1], NW: [-1, 0], SW: [-1, 1], S: [0, 1] };
const ORDER = ["SE", "NE", "N", "NW", "SW", "S"];
const APEXES = ["E", "NNE", "NNW", "W", "SSW", "SSE"];

const close = (a, b, eps = 1e-6) => Math.abs(a - b) < eps;
const unit = (x, y) => {
  const n = Math.hypot(x, y);
  return [x / n, y / n];
};

for (const shifted of ["even", "odd"]) {
  test(`a hexside facing's wedge points at the neighbour across it, odd and even columns (${shifted})`, () => {
    const g = new HexGrid({ columns: 8, rows: 8, shifted }, 40);
    for (const id of ["0404", "0504"]) {
      const c = g.center(id);
      const cube = toCube(id, shifted);
      for (const [name, [dq, dr]] of Object.entries(DIRECTIONS)) {
        const n = g.center(fromCube({ q: cube.q + dq, r: cube.r + dr, s: -cube.q - dq - cube.r - dr }, shifted));
        const [tx, ty] = facingWedge(name, c.x, c.y, g.size)[0];
        const [ux, uy] = unit(n.x - c.x, n.y - c.y);
        const [wx, wy] = unit(tx - c.x, ty - c.y);
        assert.ok(close(ux, wx) && close(uy, wy), `${id} ${name}`);
        // the tip stays inside the hex, just short of the hexside's middle (half the centres' distance)
        const d = Math.hypot(tx - c.x, ty - c.y);
        assert.ok(d < g.h / 2 && d > g.h / 2 - 0.1 * g.size, `${id} ${name} ${d}`);
      }
    }
  });

  test(`an apex facing's wedge points at the corner both front hexes share (${shifted})`, () => {
    const g = new HexGrid({ columns: 8, rows: 8, shifted }, 40);
    for (const id of ["0404", "0504"]) {
      const c = g.center(id);
      const cube = toCube(id, shifted);
      APEXES.forEach((name, k) => {
        const [tx, ty] = facingWedge(name, c.x, c.y, g.size)[0];
        const [wx, wy] = unit(tx - c.x, ty - c.y);
        const apex = { x: c.x + wx * g.size, y: c.y + wy * g.size };
        assert.ok(g.corners(id).some((p) => close(p.x, apex.x, 1e-4) && close(p.y, apex.y, 1e-4)), `${id} ${name}`);
        for (const side of [ORDER[k], ORDER[(k + 1) % 6]]) {
          const [dq, dr] = DIRECTIONS[side];
          const n = fromCube({ q: cube.q + dq, r: cube.r + dr, s: -cube.q - dq - cube.r - dr }, shifted);
          assert.ok(g.corners(n).some((p) => close(p.x, apex.x, 1e-4) && close(p.y, apex.y, 1e-4)), `${id} ${name} ${side}`);
        }
      });
    }
  });
}

test("the wedge is a triangle whose base lies across the line to the tip", () => {
  const [[tx, ty], [ax, ay], [bx, by]] = facingWedge("N", 100, 100, 40);
  assert.ok(close(tx, 100) && ty < 100);
  assert.ok(close(ay, by) && ay > ty && close((ax + bx) / 2, 100));
});

test("no wedge without a facing the page knows, and the label names a facing", () => {
  assert.equal(facingWedge(undefined, 0, 0, 40), null);
  assert.equal(facingWedge("north", 0, 0, 40), null);
  const def = { id: "u", name: "1st", kind: "infantry", full: { attack: 3 } };
  assert.match(describeUnit(def, { facing: "NNE" }), /facing NNE/);
  assert.doesNotMatch(describeUnit(def, {}), /facing/);
});
