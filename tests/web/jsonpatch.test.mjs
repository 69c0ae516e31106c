// node --test tests/web/jsonpatch.test.mjs  (also run from tests/web/test_js_units.py)
import test from "node:test";
import assert from "node:assert/strict";
import { applyPatch, PatchError } from "../../web/js/jsonpatch.js";

test("add to object and array, including '-' and index", () => {
  const doc = { a: { b: 1 }, list: [1, 3] };
  const out = applyPatch(doc, [
    { op: "add", path: "/a/c", value: { d: 2 } },
    { op: "add", path: "/list/1", value: 2 },
    { op: "add", path: "/list/-", value: 4 },
  ]);
  assert.deepEqual(out, { a: { b: 1, c: { d: 2 } }, list: [1, 2, 3, 4] });
  assert.deepEqual(doc, { a: { b: 1 }, list: [1, 3] }, "input is not mutated");
});

test("remove and replace", () => {
  const out = applyPatch({ a: 1, b: [1, 2, 3], c: { x: true } }, [
    { op: "remove", path: "/a" },
    { op: "remove", path: "/b/0" },
    { op: "replace", path: "/c/x", value: false },
    { op: "replace", path: "/b/1", value: 9 },
  ]);
  assert.deepEqual(out, { b: [2, 9], c: { x: false } });
});

test("move and copy", () => {
  const out = applyPatch({ a: { v: 1 }, b: {}, l: [1, 2, 3] }, [
    { op: "move", from: "/a/v", path: "/b/v" },
    { op: "copy", from: "/b", path: "/c" },
    { op: "move", from: "/l/0", path: "/l/-" },
  ]);
  assert.deepEqual(out, { a: {}, b: { v: 1 }, c: { v: 1 }, l: [2, 3, 1] });
});

test("test op passes and fails", () => {
  assert.deepEqual(applyPatch({ a: [1, { b: 2 }] }, [{ op: "test", path: "/a", value: [1, { b: 2 }] }]), {
    a: [1, { b: 2 }],
  });
  assert.throws(() => applyPatch({ a: 1 }, [{ op: "test", path: "/a", value: 2 }]), PatchError);
});

test("escaped pointer tokens", () => {
  const out = applyPatch({ "a/b": 1, "m~n": 2 }, [
    { op: "replace", path: "/a~1b", value: 10 },
    { op: "replace", path: "/m~0n", value: 20 },
  ]);
  assert.deepEqual(out, { "a/b": 10, "m~n": 20 });
});

test("whole document replace and missing paths", () => {
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: [1] }]), [1]);
  assert.throws(() => applyPatch({ a: 1 }, [{ op: "remove", path: "/zz" }]), PatchError);
  assert.throws(() => applyPatch({ a: 1 }, [{ op: "replace", path: "/x/y", value: 1 }]), PatchError);
  assert.throws(() => applyPatch({ l: [1] }, [{ op: "add", path: "/l/5", value: 1 }]), PatchError);
});

test("a view-like patch of units", () => {
  const view = { version: 3, units: { "b-1": { hex: "0305", moved: false } }, squares: [] };
  const out = applyPatch(view, [
    { op: "replace", path: "/units/b-1/hex", value: "0405" },
    { op: "replace", path: "/units/b-1/moved", value: true },
    { op: "add", path: "/squares/-", value: "0405" },
  ]);
  assert.equal(out.units["b-1"].hex, "0405");
  assert.deepEqual(out.squares, ["0405"]);
});
