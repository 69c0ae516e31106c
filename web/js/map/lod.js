// What the map shows at each zoom (level of detail) and what the zoomed-out map draws instead of counters:
// near, the counters and the hex numbers; mid, the counters without the numbers; far (a big map seen whole),
// one simple mark per stack (its side's colour and its top unit's type), the front line between the armies and
// large objectives and place names. The level is a data-lod attribute on the map's <svg>; web/css/app.css shows
// and hides the layers by it, so changing the zoom redraws nothing.

import { svg } from "../ui/dom.js";
import { natoSymbol, unitDefs, unitsByHex, stackParts } from "../counters.js";

// A hex's centre-to-corner distance on screen, in pixels, below which the level changes: under 30 px the hex
// numbers no longer read (8.5 map units of type at under 0.75 px a unit); under 20 px a counter (about a hex
// across) is too small to read its factors, and a mark says more.
export const LOD_NUMBERS_PX = 30;
export const LOD_COUNTERS_PX = 20;

/** The level of detail for a hex drawn `hexPx` screen pixels from centre to corner. */
export function lodFor(hexPx) {
  if (hexPx < LOD_COUNTERS_PX) return "far";
  if (hexPx < LOD_NUMBERS_PX) return "mid";
  return "near";
}

/** The battle's key objective: the one worth the most victory points (the first listed among equals); in a battle
 *  won by conditions rather than objectives (Königgrätz: 18.1's hex 2030), the first hex a victory condition names;
 *  or null. */
export function keyObjective(scenario) {
  const victory = (scenario && scenario.victory) || {};
  const objs = (victory.objectives || []).filter((o) => o && o.hex);
  let best = null;
  for (const o of objs) if (!best || (o.points || 0) > (best.points || 0)) best = o;
  if (best) return best;
  for (const c of victory.conditions || []) {
    const hex = firstHex(c && c.when);
    if (hex) return { hex, name: c.text || hex };
  }
  return null;
}

function firstHex(node) {
  if (!node || typeof node !== "object") return null;
  if (typeof node.hex === "string") return node.hex;
  for (const value of Array.isArray(node) ? node : Object.values(node)) {
    const hex = firstHex(value);
    if (hex) return hex;
  }
  return null;
}

/** One mark per stack for the far view: a square in the side's colour with its top unit's type symbol, a second
 *  square behind it when several units are there; each inside its hex (tests/web/test_stacks_ui.py). */
export function drawUnitMarks(layer, mv, view) {
  const g = mv.grid;
  const sc = mv.scenario;
  const defs = unitDefs(sc);
  const R = g.size;
  for (const [hex, ids] of unitsByHex(view, g)) {
    const { pile } = stackParts(ids, defs);
    const top = defs[pile[0]] || { id: pile[0], kind: "infantry", side: "?" };
    const side = sc.sides[top.side] || {};
    const fill = side.color || "#777777";
    const ink = side.text_color || "#ffffff";
    const c = g.center(hex);
    // a stack: two smaller squares, the lower one peeking out up and to the right, both inside the hex
    const stacked = ids.length > 1;
    const w = R * (stacked ? 1.05 : 1.2);
    const shift = stacked ? R * 0.05 : 0;
    const x = c.x - w / 2 - shift;
    const y = c.y - w / 2 + shift;
    const grp = svg("g", { class: "unit-mark", "data-hex": hex, "data-side": top.side || "", "data-kind": top.kind, "data-count": ids.length, "pointer-events": "none" });
    if (stacked) grp.appendChild(svg("rect", { x: x + 2 * shift, y: y - 2 * shift, width: w, height: w, rx: 3, fill, stroke: "#111", "stroke-width": 2 }));
    grp.appendChild(svg("rect", { x, y, width: w, height: w, rx: 3, fill, stroke: "#111", "stroke-width": 2.5 }));
    grp.appendChild(natoSymbol(top, x + w * 0.15, y + w * 0.22, w * 0.7, w * 0.56, ink, "none", 3.5));
    layer.appendChild(grp);
  }
}

/**
 * The front line for the far view: the hexsides between the hexes nearer one army and those nearer the other,
 * counted in hexes from each side's units on the map (what the viewer's view holds, so never a hidden unit), where
 * both armies are within `reach` hexes (not across the empty parts of the map). Nothing unless the battle has two
 * sides, each with units on the map.
 */
export function drawFrontLine(layer, mv, view, reach = 8) {
  const g = mv.grid;
  const sides = Object.keys(mv.scenario.sides || {});
  if (sides.length !== 2) return;
  const defs = unitDefs(mv.scenario);
  const seeds = sides.map(() => []);
  for (const [hex, ids] of unitsByHex(view, g)) {
    for (const id of ids) {
      const k = sides.indexOf((defs[id] || {}).side);
      if (k >= 0) seeds[k].push(hex);
    }
  }
  if (!seeds[0].length || !seeds[1].length) return;
  const [d0, d1] = seeds.map((s) => hexDistances(g, s, reach));
  const contested = (hex) => d0.has(hex) && d1.has(hex);
  const firstSide = (hex) => d0.get(hex) < d1.get(hex);
  let d = "";
  for (const a of d0.keys()) {
    if (!contested(a) || !firstSide(a)) continue;
    for (const b of g.neighbors(a)) {
      if (!contested(b) || firstSide(b)) continue;
      const s = g.hexside(a, b);
      d += `M${s.x1.toFixed(1)},${s.y1.toFixed(1)}L${s.x2.toFixed(1)},${s.y2.toFixed(1)}`;
    }
  }
  if (!d) return;
  layer.appendChild(svg("path", { class: "front-casing", d, fill: "none", stroke: "#fbf8ef", "stroke-width": 9, "stroke-linecap": "round" }));
  layer.appendChild(svg("path", { class: "front-line", d, fill: "none", stroke: "#1a1a1a", "stroke-width": 5, "stroke-linecap": "round", "stroke-dasharray": "14 8" }));
}

/** Hexes within `limit` steps of any of `from`, each with its distance (a breadth-first walk over the grid). */
function hexDistances(g, from, limit) {
  const dist = new Map(from.map((x) => [x, 0]));
  let frontier = [...dist.keys()];
  for (let step = 1; step <= limit && frontier.length; step++) {
    const next = [];
    for (const x of frontier) {
      for (const y of g.neighbors(x)) {
        if (dist.has(y)) continue;
        dist.set(y, step);
        next.push(y);
      }
    }
    frontier = next;
  }
  return dist;
}
