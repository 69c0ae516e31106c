// node --test tests/web/hexgeom.test.mjs: the client geometry agrees with server/rules/hexes.py (R1)
import test from "node:test";
import assert from "node:assert/strict";
import { HexGrid, distance, toCube, fromCube } from "../../web/js/hexgeom.js";

const sorted = (a) => [...a].sort();

test("neighbours with even shift match the contract examples", () => {
  const g = new HexGrid({ columns: 12, rows: 10, shifted: "even" });
  assert.deepEqual(sorted(g.neighbors("0202")), sorted(["0201", "0203", "0102", "0103", "0302", "0303"]));
  assert.deepEqual(sorted(g.neighbors("0302")), sorted(["0301", "0303", "0201", "0202", "0401", "0402"]));
  assert.deepEqual(sorted(g.neighbors("0101")), sorted(["0102", "0201"]));
});

test("odd shift is the mirror", () => {
  const g = new HexGrid({ columns: 6, rows: 6, shifted: "odd" });
  assert.deepEqual(sorted(g.neighbors("0302")), sorted(["0301", "0303", "0202", "0203", "0402", "0403"]));
});

test("distance and cube round trip", () => {
  for (const shifted of ["even", "odd"]) {
    for (const id of ["0101", "0202", "0307", "1205", "0910"]) assert.equal(fromCube(toCube(id, shifted), shifted), id);
  }
  assert.equal(distance("0305", "0605"), 3);
  assert.equal(distance("0202", "0303"), 1);
  assert.equal(distance("0101", "0110"), 9);
});

test("neighbours are exactly the hexes at distance 1 and hexAt inverts center", () => {
  for (const shifted of ["even", "odd"]) {
    const g = new HexGrid({ columns: 8, rows: 7, shifted });
    for (const id of g.ids()) {
      for (const n of g.neighbors(id)) assert.equal(g.distance(id, n), 1, `${id}-${n}`);
      const c = g.center(id);
      assert.equal(g.hexAt(c.x, c.y), id);
      assert.equal(g.hexAt(c.x + g.size * 0.8, c.y), id);
      assert.equal(g.hexAt(c.x, c.y - g.h * 0.45), id);
      // neighbours are one hex height apart centre to centre
      for (const n of g.neighbors(id)) {
        const d = g.center(n);
        assert.ok(Math.abs(Math.hypot(d.x - c.x, d.y - c.y) - g.h) < 1e-6);
      }
    }
  }
});
