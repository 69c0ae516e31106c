// Horse and Musket's marks on the map (R16.19): each unit's formation, hits and staggered state as a tag on its
// counter (the kernel's facing wedge is drawn by counters.js), the hovered unit's fire arc (5.1.3, 5.2.2, R16.4:
// the 120 degrees out through the hexsides either side of its facing), and the charges declared this step.

import { svg, OKABE } from "../../ui/dom.js";
import { FACING_ANGLES } from "../../counters.js";

const FORM_TAGS = { line: "L", column: "C", skirmish: "Sk", square: "Sq", ranks: "R", deployed: "D", limbered: "Lb", march: "M" };

// the fire arc's reach in hexes by weapon (R16.2: long range 5, the guns' 15); a pistol-armed horse has none
const ARC_REACH = 5;

/** The hexes of the 120-degree arc ahead of a unit in `at` facing `facing` (both edges included), up to `reach`. */
export function arcHexes(grid, at, facing, reach = ARC_REACH) {
  const deg = FACING_ANGLES[facing];
  if (deg === undefined || !grid.contains(at)) return [];
  const c = grid.center(at);
  const out = [];
  for (const id of grid.ids()) {
    if (id === at) continue;
    const d = grid.distance(at, id);
    if (d < 1 || d > reach) continue;
    const p = grid.center(id);
    const ang = (Math.atan2(p.y - c.y, p.x - c.x) * 180) / Math.PI;
    let diff = Math.abs(ang - deg) % 360;
    if (diff > 180) diff = 360 - diff;
    if (diff <= 60.5) out.push(id);
  }
  return out;
}

/** The tag on a counter: formation, hits, staggered (H14: the kernel's `reduced`). */
export function unitTag(u) {
  return `${FORM_TAGS[u.formation] || u.formation || ""}${u.hits ? ` ${u.hits}h` : ""}${u.staggered ? " st" : ""}`.trim();
}

/** Draw the tags, the hovered unit's arc and the declared charges on the map's top overlay. */
export function drawMarks(map, view, hoverHex, nameOf) {
  const hm = view && view["horse-and-musket"];
  if (!hm || !map) return;
  const g = map.grid;
  const layer = map.layers.overlayTop;
  const byHex = new Map();
  for (const [id, u] of Object.entries(hm.units || {})) {
    const vu = (view.units || {})[id];
    if (!vu || !vu.hex || !g.contains(vu.hex)) continue;
    if (!byHex.has(vu.hex)) byHex.set(vu.hex, []);
    byHex.get(vu.hex).push([id, u]);
  }
  for (const [hex, list] of byHex) {
    const c = g.center(hex);
    list.forEach(([id, u], i) => {
      const text = unitTag(u);
      const hurt = u.hits || u.staggered;
      layer.appendChild(svg("g", { class: `hm-tag${hurt ? " hm-hurt" : ""}`, "data-unit": id, "data-formation": u.formation, "data-hits": String(u.hits || 0), "data-staggered": u.staggered ? "1" : "0", "pointer-events": "none" }, [
        svg("rect", { x: c.x - g.size * 0.55, y: c.y + g.size * 0.42 + i * 11, width: g.size * 1.1, height: 11, rx: 2, fill: hurt ? OKABE.vermillion : "#222", opacity: 0.85 }),
        svg("text", { x: c.x, y: c.y + g.size * 0.42 + 8.5 + i * 11, "text-anchor": "middle", "font-size": 9, fill: "#fff", text }),
        svg("title", { text: `${nameOf(id)}: ${u.formation}${u.hits ? `, ${u.hits} hits` : ""}${u.staggered ? ", staggered" : ""} (5.1.9, R16.15)` }),
      ]));
    });
  }
  // the hovered unit's fire arc (R16.4)
  const here = hoverHex && byHex.get(hoverHex);
  if (here) {
    const [id] = here[0];
    const vu = view.units[id];
    for (const hx of arcHexes(g, hoverHex, vu.facing)) {
      layer.appendChild(svg("polygon", { class: "hm-arc", "data-hex": hx, "data-unit": id, points: g.polygonPoints(hx, 0.92), fill: OKABE.yellow, "fill-opacity": 0.18, stroke: OKABE.orange, "stroke-width": 1.5, "stroke-dasharray": "3 3", "pointer-events": "none" }));
    }
  }
  // the charges declared this step (4.1)
  for (const ch of hm.charges || []) {
    if (ch.path && ch.path.length > 1) map.drawPath(ch.path, { colour: ch.passed === false ? "#888" : OKABE.blue, dash: "6 4", width: 4 });
  }
}
