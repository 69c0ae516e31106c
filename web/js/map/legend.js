// The map legend: one row per terrain the scenario uses, per hexside feature and per kind of road, each a small
// swatch drawn as the map draws it (reusing the map's patterns) beside a label that wraps.

import { svg } from "../ui/dom.js";
import { featureStyle, pathsOf } from "./terrain.js";

/** A legend (HTML rows, each a small SVG swatch and a text that wraps) for the scenario's terrain, hexside
 *  features and each kind of road it uses, reusing the map's patterns. */
export function legendSVG(scenario, mapView) {
  const items = [];
  const tecT = scenario.tec.terrain;
  const sw = 34;
  const used = new Set([scenario.map.default_terrain, ...Object.values(scenario.map.hexes || {})]);
  for (const [tid, t] of Object.entries(tecT)) {
    if (!used.has(tid)) continue;
    items.push({ kind: "terrain", tid, t, label: t.name || tid });
  }
  const usedSec = new Set(Object.values(scenario.map.secondary || {}).flat());
  for (const [sid, t] of Object.entries(scenario.tec.secondary || {})) {
    if (usedSec.has(sid)) items.push({ kind: "terrain", tid: `sec:${sid}`, t, label: t.name || sid });
  }
  for (const [fid, f] of Object.entries(scenario.tec.hexsides || {})) items.push({ kind: "side", fid, f, label: f.name || fid });
  const ROAD_NAMES = { pike: "Main road (pike)", road: "Road", trail: "Trail" };
  const kinds = [...new Set(pathsOf(scenario.map).map((r) => r.kind || "road"))].sort((a, b) => ["pike", "road", "trail"].indexOf(a) - ["pike", "road", "trail"].indexOf(b));
  for (const k of kinds) items.push({ kind: "road", road: k, label: ROAD_NAMES[k] || k });
  const root = document.createElement("div");
  root.className = "legend-list";
  root.setAttribute("role", "list");
  root.setAttribute("aria-label", "Map legend");
  for (const it of items) {
    const sv = svg("svg", { class: "legend-svg", viewBox: `0 0 ${sw + 4} 22`, width: sw + 4, height: 22, "aria-hidden": "true" });
    const g = svg("g", { transform: "translate(2,0)" });
    if (it.kind === "terrain") {
      const pts = hexPts(sw / 2, 11, 11);
      g.appendChild(svg("polygon", { points: pts, fill: it.t.color || "#e8e2c4", stroke: "#6b6355" }));
      if (mapView && mapView.patternFor[it.tid]) g.appendChild(svg("polygon", { points: pts, fill: mapView.patternFor[it.tid] }));
    } else if (it.kind === "side") {
      const st = featureStyle(it.fid, it.f);
      if (st.kind === "stream") g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: st.colour, "stroke-width": 5, "stroke-linecap": "round" }));
      else if (st.kind === "bridge") g.appendChild(svg("rect", { x: 6, y: 6, width: sw - 12, height: 10, fill: "#d9c6a0", stroke: st.colour, "stroke-width": 1.6 }));
      else if (st.kind === "ford") g.appendChild(svg("rect", { x: 6, y: 6, width: sw - 12, height: 10, fill: "none", stroke: st.colour, "stroke-width": 1.6, "stroke-dasharray": "3 2" }));
      else if (st.kind === "slope") g.appendChild(svg("path", { d: `M2,9 L${sw},9 M6,9 l0,6 M12,9 l0,4 M18,9 l0,6 M24,9 l0,4 M30,9 l0,6`, stroke: st.colour, "stroke-width": 1.8, fill: "none" }));
      else if (st.kind === "sunken") {
        g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: st.colour, "stroke-width": 6, "stroke-linecap": "round" }));
        g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: "#e2cc98", "stroke-width": 2.2, "stroke-linecap": "round" }));
      } else g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: st.colour, "stroke-width": 3, "stroke-dasharray": st.kind === "fieldworks" ? "4 2" : st.kind === "wall" ? "2 2" : "6 3" }));
    } else if (it.road === "trail") {
      g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: "#efe3c2", "stroke-width": 4, "stroke-linecap": "round" }));
      g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: "#7a5a32", "stroke-width": 2.2, "stroke-dasharray": "0.1 5", "stroke-linecap": "round" }));
    } else {
      g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: "#5c4326", "stroke-width": it.road === "pike" ? 9 : 7, "stroke-linecap": "round" }));
      g.appendChild(svg("line", { x1: 2, y1: 11, x2: sw, y2: 11, stroke: it.road === "pike" ? "#c0392b" : "#d9b779", "stroke-width": it.road === "pike" ? 6 : 4, "stroke-linecap": "round" }));
    }
    sv.appendChild(g);
    const row = document.createElement("div");
    row.className = `legend-row legend-${it.kind}${it.road ? " legend-road-" + it.road : ""}`;
    row.setAttribute("role", "listitem");
    const txt = document.createElement("span");
    txt.className = "legend-label";
    txt.textContent = it.label;
    row.append(sv, txt);
    root.appendChild(row);
  }
  return root;
}

function hexPts(cx, cy, r) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    out.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
}
