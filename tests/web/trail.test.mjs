// node --test tests/web/trail.test.mjs  (also run from tests/web/test_js_units.py)
// Issue 39: the trail of the other side's last moves (web/js/ui/summary.js): which log entries make it for a seat and
// for a spectator, their events read as actions, and the actions in plain words.
import test from "node:test";
import assert from "node:assert/strict";
import { actionOf, trailEntries, summaryLines } from "../../web/js/ui/summary.js";

const phase = (side) => ({ type: "phase", side, phase: "movement", turn: 1 });
const move = (units, path) => ({ type: "move", units, path });
const entry = (seq, side, events, command = { type: "move" }) => ({ seq, side, events, command });

test("a retreat that names its start is drawn from it; a path naming no unit (a hidden marker's) is words only", () => {
  assert.deepEqual(actionOf({ type: "retreat", units: ["r-1"], path: ["0705", "0706"], start: "0704" }).path, ["0704", "0705", "0706"]);
  assert.deepEqual(actionOf({ type: "retreat", units: ["r-1"], path: ["0704", "0705"] }).path, ["0704", "0705"]);
  const marker = actionOf({ type: "hm_move", marker: "HM-A1", path: ["2006", "2007", "2008"], text: "marker HM-A1 moves to 2008" });
  assert.equal(marker.kind, "unseen");
  assert.equal(marker.path, undefined);
  assert.equal(actionOf({ type: "move", units: ["b-1"], path: ["0101"], off_map: true }), null);
  assert.deepEqual(actionOf({ type: "combat_declared", attackers: ["b-1"], target: "0905", kind: "attack" }), { kind: "attack", units: ["b-1"], target: "0905", charge: false });
});

test("a seat's trail: the other side's commands since its own last one in its own turn", () => {
  const log = [
    entry(1, "blue", [move(["b-1"], ["0101", "0102"])]),
    entry(2, "blue", [phase("red")], { type: "end_phase" }),
    entry(3, "red", [move(["r-1"], ["0704", "0604"])]),
    entry(4, "red", [{ type: "combat_declared", attackers: ["r-1"], target: "0503" }]),
    entry(5, "blue", [{ type: "retreat", units: ["b-2"], path: ["0503", "0403"] }], { type: "choose" }), // an answer
    entry(6, "red", [{ type: "dice", dice: [3] }]),
  ];
  assert.deepEqual(trailEntries(log, { seat: "blue" }).map((it) => it.entry.seq), [3, 4, 5, 6]);
  assert.deepEqual(trailEntries(log.slice(0, 5), { seat: "red" }).map((it) => it.entry.seq), [5]); // blue's answer
  assert.deepEqual(trailEntries(log, { seat: "red" }), []); // then red's own command in its turn
  const mine = [...log, entry(7, "red", [phase("blue")], { type: "end_phase" }), entry(8, "blue", [move(["b-1"], ["0102", "0103"])])];
  assert.deepEqual(trailEntries(mine, { seat: "blue" }), []); // blue's next decision in its own turn clears it
  assert.deepEqual(trailEntries(log, { seat: "blue", cleared: 4 }).map((it) => it.entry.seq), [5, 6]); // "Clear"
  const undone = [...log, entry(7, "red", [{ type: "undo", text: "takes back" }], { type: "undo" })];
  assert.deepEqual(trailEntries(undone, { seat: "blue" }).map((it) => it.entry.seq), [3, 4, 5]);
});

test("a spectator's trail: the player-turn under way and the one before, from the phase event that began it", () => {
  const log = [
    entry(1, "blue", [move(["b-1"], ["0101", "0102"])]),
    entry(2, "blue", [{ type: "recovered", unit: "b-3" }, phase("red")], { type: "end_phase" }),
    entry(3, "red", [move(["r-1"], ["0704", "0604"])]),
    entry(4, "red", [{ type: "disrupted", unit: "r-2" }, phase("blue")], { type: "end_phase" }),
    entry(5, "blue", [move(["b-1"], ["0102", "0103"])]),
  ];
  const got = trailEntries(log, {});
  assert.deepEqual(got.map((it) => it.entry.seq), [2, 3, 4, 5]);
  assert.deepEqual(got[0].events, [phase("red")]); // blue's own recovery before it is not red's turn
});

test("an attack's result and retreat join its line, whichever command rolled them", () => {
  const names = { "b-1": "1st Brigade", "r-1": "Grenadiers" };
  const acts = [
    { ...actionOf(move(["b-1"], ["0305", "0405", "0805"])), seq: 3, side: "blue" },
    { ...actionOf({ type: "combat_declared", attackers: ["b-1"], target: "0905" }), seq: 4, side: "blue" },
    { ...actionOf({ type: "combat_result", target: "0905", result: "Dr" }), seq: 5, side: "red" },
    { ...actionOf({ type: "retreat", units: ["r-1"], path: ["0905", "1005", "1006"] }), seq: 6, side: "red" },
    { ...actionOf({ type: "step_loss", unit: "r-1" }), seq: 6, side: "red" },
  ];
  const lines = summaryLines(acts, (u) => names[u] || u);
  assert.deepEqual(lines.map((l) => [l.seq, l.side, l.text]), [
    [3, "blue", "1st Brigade moved 0305→0805."],
    [4, "blue", "1st Brigade attacked 0905 (result Dr); Grenadiers retreated 2 hexes (0905→1006); Grenadiers lost a step."],
  ]);
});
