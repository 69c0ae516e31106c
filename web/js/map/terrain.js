// The map's static layers, drawn once from the scenario (and again for objectives when their holders change):
// terrain with its patterns and hill contours, roads, hexside features, the map edge with entry arrows, the marks an
// edition puts on the scenario's hexes, hex numbers, labels and objectives. Each takes the MapView (map.js) whose layers and grid it draws into.

import { svg, tint, clear } from "../ui/dom.js";

export const FALLBACK_TERRAIN_COLOURS = ["#e8e2c4", "#d2b48c", "#7fa36b", "#c9a27e", "#a9c4b8", "#cfd8a0"];

/** Build the <pattern> for one terrain. Patterns are drawn over the terrain colour. */
export function terrainPattern(id, kind, colour, size) {
  const ink = tint(colour || "#888888", -0.45);
  const s = size;
  switch (kind) {
    case "trees": {
      const w = s * 0.55;
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w * 0.9 }, [
        svg("circle", { cx: w * 0.25, cy: w * 0.25, r: w * 0.16, fill: tint(colour, -0.25), stroke: ink, "stroke-width": 0.8 }),
        svg("line", { x1: w * 0.25, y1: w * 0.41, x2: w * 0.25, y2: w * 0.5, stroke: ink, "stroke-width": 0.9 }),
        svg("circle", { cx: w * 0.75, cy: w * 0.7, r: w * 0.14, fill: tint(colour, -0.2), stroke: ink, "stroke-width": 0.8 }),
        svg("line", { x1: w * 0.75, y1: w * 0.84, x2: w * 0.75, y2: w * 0.9, stroke: ink, "stroke-width": 0.9 }),
      ]);
    }
    case "buildings": {
      const w = s * 0.5;
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w }, [
        svg("rect", { x: w * 0.08, y: w * 0.1, width: w * 0.34, height: w * 0.26, fill: ink, opacity: 0.85 }),
        svg("rect", { x: w * 0.55, y: w * 0.52, width: w * 0.3, height: w * 0.34, fill: ink, opacity: 0.85 }),
        svg("rect", { x: w * 0.12, y: w * 0.6, width: w * 0.2, height: w * 0.2, fill: ink, opacity: 0.7 }),
      ]);
    }
    case "marsh": {
      const w = s * 0.45;
      const blue = "#2f6f8f";
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w * 0.6 }, [
        svg("line", { x1: w * 0.05, y1: w * 0.45, x2: w * 0.45, y2: w * 0.45, stroke: blue, "stroke-width": 1 }),
        svg("path", { d: `M${w * 0.15},${w * 0.45} l-2,-5 M${w * 0.25},${w * 0.45} l0,-6 M${w * 0.35},${w * 0.45} l2,-5`, stroke: ink, "stroke-width": 0.8, fill: "none" }),
        svg("line", { x1: w * 0.55, y1: w * 0.2, x2: w * 0.95, y2: w * 0.2, stroke: blue, "stroke-width": 1 }),
      ]);
    }
    case "hill": {
      // hachures: short strokes in staggered rows
      const w = s * 0.3;
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w }, [
        svg("path", { d: `M${w * 0.2},${w * 0.1} l0,${w * 0.3} M${w * 0.7},${w * 0.6} l0,${w * 0.3}`, stroke: ink, "stroke-width": 0.9, opacity: 0.55 }),
      ]);
    }
    case "dots": {
      const w = s * 0.25;
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w }, [
        svg("circle", { cx: w / 2, cy: w / 2, r: 1.1, fill: ink }),
      ]);
    }
    case "hatch": {
      const w = s * 0.22;
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w, patternTransform: "rotate(45)" }, [
        svg("line", { x1: 0, y1: 0, x2: 0, y2: w, stroke: ink, "stroke-width": 1, opacity: 0.6 }),
      ]);
    }
    case "crops": {
      const w = s * 0.3;
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: w, height: w * 0.5 }, [
        svg("path", { d: `M0,${w * 0.25} q${w * 0.25},-${w * 0.15} ${w * 0.5},0 t${w * 0.5},0`, stroke: ink, "stroke-width": 0.8, fill: "none", opacity: 0.7 }),
      ]);
    }
    default:
      return null;
  }
}

/** What the scenario says about a hexside feature kind, guessed from its id for drawing. */
export function featureStyle(fid, def) {
  const id = fid.toLowerCase();
  const colour = (def && def.color) || null;
  if (/stream|river|creek|brook|water|canal/.test(id)) return { kind: "stream", colour: colour || "#3b7dd8" };
  if (/bridge/.test(id)) return { kind: "bridge", colour: colour || "#6b5a45" };
  if (/ford/.test(id)) return { kind: "ford", colour: colour || "#6b8fb8" };
  if (/slope|escarp|ridge|crest/.test(id)) return { kind: "slope", colour: colour || "#8b5a2b" };
  if (/field|works|redoubt|entrench|earthwork|abatis/.test(id)) return { kind: "fieldworks", colour: colour || "#5a3d1e" };
  if (/sunken|cutting|hollow/.test(id)) return { kind: "sunken", colour: colour || "#4a3418" };
  if (/wall|hedge|fence/.test(id)) return { kind: "wall", colour: colour || "#555555" };
  return { kind: "other", colour: colour || "#444444" };
}

export function drawTerrain(mv) {
  const g = mv.grid;
  const tecT = mv.scenario.tec.terrain;
  const L = mv.layers;
  for (const id of g.ids()) {
    const tid = mv.terrainOf(id);
    const t = tecT[tid] || {};
    const pts = g.polygonPoints(id);
    L.terrain.appendChild(svg("polygon", { points: pts, fill: t.color || "#e8e2c4", class: `hex t-${tid}`, "data-hex": id }));
    if (mv.patternFor[tid]) L.terrain.appendChild(svg("polygon", { points: pts, fill: mv.patternFor[tid], "pointer-events": "none" }));
    if (t.hill || t.pattern === "hill") {
      // a contour ring with outward hachure ticks
      const c = g.center(id);
      const r = g.size * 0.62;
      const ink = tint(t.color || "#d2b48c", -0.5);
      L.contours.appendChild(
        svg("polygon", { points: g.polygonPoints(id, 0.66), fill: tint(t.color || "#d2b48c", 0.12), stroke: ink, "stroke-width": 1.2, "stroke-linejoin": "round", opacity: 0.9 }),
      );
      let d = "";
      for (let a = 0; a < 360; a += 20) {
        const rad = (a * Math.PI) / 180;
        const x1 = c.x + Math.cos(rad) * r * 1.02;
        const y1 = c.y + Math.sin(rad) * r * 0.98;
        d += `M${x1.toFixed(1)},${y1.toFixed(1)} l${(Math.cos(rad) * 5).toFixed(1)},${(Math.sin(rad) * 5).toFixed(1)} `;
      }
      L.contours.appendChild(svg("path", { d, stroke: ink, "stroke-width": 1, opacity: 0.7, fill: "none" }));
    }
    L.grid.appendChild(svg("polygon", { points: pts, fill: "none", stroke: "#6b6355", "stroke-width": 0.7, opacity: 0.55 }));
  }
  drawSecondary(mv);
}

/** Secondary terrain (2.2: a village, a battery position... on top of the hex's primary terrain): an inset hex in
 *  its colour and pattern, one inside the other when a hex has several. */
function drawSecondary(mv) {
  const g = mv.grid;
  const tecS = (mv.scenario.tec && mv.scenario.tec.secondary) || {};
  for (const [id, sids] of Object.entries(mv.scenario.map.secondary || {})) {
    if (!g.contains(id)) continue;
    sids.forEach((sid, i) => {
      const t = tecS[sid] || {};
      const pts = g.polygonPoints(id, 0.62 - 0.18 * i);
      const grp = svg("g", { class: `secondary s-${sid}`, "pointer-events": "none" }, [svg("title", { text: t.name || sid })]);
      grp.appendChild(svg("polygon", { points: pts, fill: t.color || "#c9a27e", "fill-opacity": 0.8, stroke: tint(t.color || "#c9a27e", -0.4), "stroke-width": 1 }));
      if (mv.patternFor[`sec:${sid}`]) grp.appendChild(svg("polygon", { points: pts, fill: mv.patternFor[`sec:${sid}`] }));
      mv.layers.terrain.appendChild(grp);
    });
  }
}

/** The scenario's roads, and its trails when the format lists them apart (map.trails). */
export function pathsOf(map) {
  return [...(map.roads || []), ...(map.trails || []).map((t) => ({ ...t, kind: "trail" }))];
}

export function drawRoads(mv) {
  const g = mv.grid;
  for (const road of pathsOf(mv.scenario.map)) {
    const pts = road.path.filter((id) => g.contains(id)).map((id) => g.center(id));
    if (pts.length < 2) continue;
    // extend the ends that sit on a map edge so the road runs off the map
    const d = pts.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
    const kind = road.kind || "road";
    const w = kind === "pike" ? 0.2 : kind === "trail" ? 0.08 : 0.14;
    const grp = svg("g", { class: `road road-${kind}` }, [
      svg("title", { text: road.name ? `${road.name} (${kind})` : kind }),
    ]);
    if (kind !== "trail") {
      grp.appendChild(svg("path", { d, fill: "none", stroke: "#5c4326", "stroke-width": g.size * (w + 0.06), "stroke-linecap": "round", "stroke-linejoin": "round" }));
      grp.appendChild(svg("path", { d, fill: "none", stroke: kind === "pike" ? "#c0392b" : "#d9b779", "stroke-width": g.size * w, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    } else {
      // a trail: a thin pale track with a dotted brown centre (a sunken road is a dark cutting on the hexsides)
      grp.appendChild(svg("path", { d, fill: "none", stroke: "#efe3c2", "stroke-width": g.size * 0.09, "stroke-linecap": "round", "stroke-linejoin": "round", opacity: 0.9 }));
      grp.appendChild(svg("path", { d, fill: "none", stroke: "#7a5a32", "stroke-width": g.size * 0.05, "stroke-dasharray": `0.1 ${(g.size * 0.16).toFixed(1)}`, "stroke-linecap": "round" }));
    }
    mv.layers.roads.appendChild(grp);
  }
}

export function drawHexsides(mv) {
  const g = mv.grid;
  const defs = (mv.scenario.tec && mv.scenario.tec.hexsides) || {};
  const tecT = mv.scenario.tec.terrain;
  const L = mv.layers.hexsides;
  const streams = [];
  const others = [];
  for (const hs of mv.scenario.map.hexsides || []) {
    const [a, b] = hs.hexes;
    if (!g.contains(a) || !g.contains(b) || !g.isAdjacent(a, b)) continue;
    const seg = g.hexside(a, b);
    for (const f of hs.features) {
      const st = featureStyle(f, defs[f]);
      (st.kind === "stream" ? streams : others).push({ a, b, seg, f, st });
    }
  }
  for (const { seg, st, f, a, b } of streams) {
    L.appendChild(
      svg("line", { x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, stroke: st.colour, "stroke-width": g.size * 0.14, "stroke-linecap": "round", class: `hexside f-${f}`, "data-side": `${a}-${b}` }),
    );
  }
  for (const { seg, st, f, a, b } of others) {
    const grp = svg("g", { class: `hexside f-${f}`, "data-side": `${a}-${b}` });
    const len = Math.hypot(seg.x2 - seg.x1, seg.y2 - seg.y1);
    const ux = (seg.x2 - seg.x1) / len;
    const uy = (seg.y2 - seg.y1) / len;
    if (st.kind === "bridge" || st.kind === "ford") {
      // a deck across the hexside, along the line between centres
      const L2 = g.size * 0.34;
      const W2 = g.size * 0.13;
      const cx = seg.mx;
      const cy = seg.my;
      const ang = (Math.atan2(seg.ny, seg.nx) * 180) / Math.PI;
      grp.appendChild(
        svg("g", { transform: `translate(${cx.toFixed(1)},${cy.toFixed(1)}) rotate(${ang.toFixed(1)})` }, [
          svg("rect", { x: -L2, y: -W2, width: 2 * L2, height: 2 * W2, fill: st.kind === "ford" ? "none" : "#d9c6a0", stroke: st.colour, "stroke-width": 1.6, "stroke-dasharray": st.kind === "ford" ? "3 2" : null }),
          svg("path", { d: `M${-L2 - 3},${-W2 - 3} L${-L2},${-W2} M${-L2 - 3},${W2 + 3} L${-L2},${W2} M${L2 + 3},${-W2 - 3} L${L2},${-W2} M${L2 + 3},${W2 + 3} L${L2},${W2}`, stroke: st.colour, "stroke-width": 1.6 }),
        ]),
      );
    } else if (st.kind === "slope") {
      // a line with hachure ticks pointing downhill (away from the hill hex)
      const ta = tecT[mv.terrainOf(a)] || {};
      const tb = tecT[mv.terrainOf(b)] || {};
      let sign = 1; // ticks toward b by default
      if (tb.hill && !ta.hill) sign = -1;
      grp.appendChild(svg("line", { x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, stroke: st.colour, "stroke-width": 2.4, "stroke-linecap": "round" }));
      let d = "";
      const n = 6;
      for (let i = 0; i <= n; i++) {
        const x = seg.x1 + ((seg.x2 - seg.x1) * i) / n;
        const y = seg.y1 + ((seg.y2 - seg.y1) * i) / n;
        const tl = i % 2 ? 6 : 4;
        d += `M${x.toFixed(1)},${y.toFixed(1)} l${(seg.nx * tl * sign).toFixed(1)},${(seg.ny * tl * sign).toFixed(1)} `;
      }
      grp.appendChild(svg("path", { d, stroke: st.colour, "stroke-width": 1.4, fill: "none" }));
    } else if (st.kind === "fieldworks") {
      // zigzag earthwork with teeth toward the enemy side is unknown; teeth on both
      const n = 6;
      let d = `M${seg.x1.toFixed(1)},${seg.y1.toFixed(1)}`;
      for (let i = 1; i <= n; i++) {
        const x = seg.x1 + ux * (len * i) / n;
        const y = seg.y1 + uy * (len * i) / n;
        const off = i % 2 ? 4 : -4;
        d += ` L${(x - ux * (len / n / 2) + seg.nx * off).toFixed(1)},${(y - uy * (len / n / 2) + seg.ny * off).toFixed(1)} L${x.toFixed(1)},${y.toFixed(1)}`;
      }
      grp.appendChild(svg("path", { d, stroke: st.colour, "stroke-width": 2.2, fill: "none", "stroke-linejoin": "round" }));
    } else if (st.kind === "sunken") {
      // a sunken road: a dark cutting with a pale roadway along its middle (never dashed like a trail)
      grp.appendChild(svg("line", { x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, stroke: st.colour, "stroke-width": 6, "stroke-linecap": "round" }));
      grp.appendChild(svg("line", { x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, stroke: "#e2cc98", "stroke-width": 2.2, "stroke-linecap": "round" }));
    } else if (st.kind === "wall") {
      grp.appendChild(svg("line", { x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, stroke: st.colour, "stroke-width": 3, "stroke-dasharray": "2 2" }));
    } else {
      grp.appendChild(svg("line", { x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, stroke: st.colour, "stroke-width": 3, "stroke-dasharray": "6 3" }));
    }
    const def = defs[f];
    if (def) grp.appendChild(svg("title", { text: def.name || f }));
    L.appendChild(grp);
  }
}

export function drawEdges(mv) {
  const g = mv.grid;
  const L = mv.layers.edges;
  // the map edge: outline of the outer hexes' boundary is ragged, so draw a frame
  L.appendChild(svg("rect", { x: g.margin * 0.35, y: g.margin * 0.35, width: g.width - g.margin * 0.7, height: g.height - g.margin * 0.7, fill: "none", stroke: "#3d3528", "stroke-width": 2.5, rx: 4 }));
  for (const [sid, side] of Object.entries(mv.scenario.sides || {})) {
    const entries = new Set([...(side.entry_hexes || []), ...Object.values(side.entry_points || {})]);
    for (const r of mv.scenario.reinforcements || []) {
      const u = (mv.scenario.units || []).find((x) => x.id === (r.unit || (r.units || [])[0]));
      if (!u || u.side !== sid) continue;
      for (const e of r.entry || [r.hex]) entries.add((side.entry_points || {})[e] || e);  // a letter or a hex id
    }
    for (const hex of entries) {
      if (!g.contains(hex)) continue;
      const edges = g.edgesOf(hex);
      const edge = edges.includes(side.edge) ? side.edge : edges[0] || side.edge;
      const c = g.center(hex);
      const dir = { west: [-1, 0], east: [1, 0], north: [0, -1], south: [0, 1] }[edge] || [-1, 0];
      const out = g.size * 1.05;
      const x1 = c.x + dir[0] * out;
      const y1 = c.y + dir[1] * out;
      const x2 = c.x + dir[0] * g.size * 0.55;
      const y2 = c.y + dir[1] * g.size * 0.55;
      L.appendChild(
        svg("g", { class: `entry entry-${sid}`, "data-entry": hex }, [
          svg("title", { text: `${side.name || sid} entry hex ${hex}` }),
          svg("polygon", { points: g.polygonPoints(hex, 0.9), fill: "none", stroke: side.color, "stroke-width": 2, "stroke-dasharray": "4 3" }),
          svg("line", { x1, y1, x2, y2, stroke: side.color, "stroke-width": 5, "marker-end": `url(#${mv.pid("arrow")})` }),
        ]),
      );
    }
  }
}

/** The scenario's marks an edition puts on its hexes (editions/index.js: mapMarks), drawn with the map edge: a short
 *  tag at the top of the hex in its side's colour. marks: [{hex, side, text, title, cls, attrs}]. */
export function drawMarks(mv, marks) {
  const g = mv.grid;
  const L = mv.layers.edges;
  for (const m of marks || []) {
    if (!g.contains(m.hex)) continue;
    const side = (mv.scenario.sides || {})[m.side] || {};
    const c = g.center(m.hex);
    const y = c.y - g.size * 0.62;
    const w = Math.max(26, String(m.text || "").length * 6 + 8);
    L.appendChild(
      svg("g", { class: `scenario-mark ${m.cls || ""}`, "data-mark": m.hex, "pointer-events": "none", ...(m.attrs || {}) }, [
        m.title ? svg("title", { text: m.title }) : null,
        svg("rect", { x: c.x - w / 2, y: y - 7, width: w, height: 13, rx: 3, fill: side.color || "#555555", stroke: "#fff", "stroke-width": 1 }),
        svg("text", { x: c.x, y: y + 3.5, "text-anchor": "middle", fill: side.text_color || "#fff", style: "font-size:9px;font-weight:700", text: m.text || "" }),
      ]),
    );
  }
}

export function drawNumbers(mv) {
  const g = mv.grid;
  for (const id of g.ids()) {
    const c = g.center(id);
    mv.layers.numbers.appendChild(svg("text", { x: c.x, y: c.y - g.h / 2 + 9, class: "hexnum", "text-anchor": "middle", text: id }));
  }
}

export function drawLabels(mv) {
  const g = mv.grid;
  for (const lab of mv.scenario.map.labels || []) {
    if (!g.contains(lab.hex)) continue;
    const c = g.center(lab.hex);
    mv.layers.labels.appendChild(
      svg("text", { x: c.x, y: c.y + g.h / 2 - 5, class: "maplabel", "text-anchor": "middle", text: lab.text }),
    );
  }
  drawFarLabels(mv);
}

// The zoomed-out map's place names (map/lod.js): this many hexes (centre to corner) high, so that they read with
// the whole field in view.
const FAR_LABEL_HEXES = 0.75;

/** The place names of the zoomed-out map, large, under the units' marks; the objectives' names first, and a name
 *  that would run over one already placed is left out (the close zooms show every name). */
function drawFarLabels(mv) {
  const g = mv.grid;
  const objs = new Set(((mv.scenario.victory && mv.scenario.victory.objectives) || []).map((o) => o.hex));
  const labels = (mv.scenario.map.labels || []).filter((l) => g.contains(l.hex));
  const ranked = [...labels.filter((l) => objs.has(l.hex)), ...labels.filter((l) => !objs.has(l.hex))];
  const px = g.size * FAR_LABEL_HEXES;
  const placed = [];
  for (const lab of ranked) {
    const c = g.center(lab.hex);
    const w = String(lab.text).length * px * 0.56;
    const y = c.y + g.h / 2 + px * 0.27;
    const box = { x0: c.x - w / 2, x1: c.x + w / 2, y0: y - px, y1: y + px * 0.2 };
    if (placed.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue;
    placed.push(box);
    mv.layers.labelsFar.appendChild(svg("text", { x: c.x, y, class: "maplabel-far", "text-anchor": "middle", style: `font-size:${px.toFixed(1)}px;stroke-width:${(px * 0.27).toFixed(1)}px`, text: lab.text }));
  }
}

export function drawObjectives(mv, control = null) {
  const g = mv.grid;
  const L = clear(mv.layers.objectives);
  const objs = (mv.scenario.victory && mv.scenario.victory.objectives) || [];
  for (const o of objs) {
    if (!g.contains(o.hex)) continue;
    const c = g.center(o.hex);
    const owner = control && o.hex in control ? control[o.hex] : o.owner || null;
    const colour = owner && mv.scenario.sides[owner] ? mv.scenario.sides[owner].color : "#ffffff";
    // drawn above the counters, at the top of the hex left of its number: clear of the top counter's name and
    // factors and of the count badge of the stack up and to the left (counters.js: stackLayout)
    const x = c.x - g.size * 0.44;
    const y = c.y - g.h * 0.38;
    const ink = owner && mv.scenario.sides[owner] ? mv.scenario.sides[owner].text_color || "#fff" : "#111";
    const holder = owner && mv.scenario.sides[owner] ? mv.scenario.sides[owner].name : null;
    L.appendChild(
      svg("g", { class: "objective", "data-objective": o.hex, "data-holder": owner || "", "pointer-events": "none", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` }, [
        svg("title", { text: `Objective ${o.name || o.hex}: ${o.points} VP${holder ? `, held by ${holder}` : ", held by nobody"}` }),
        svg("path", { d: starPath(0, 0, 9, 4.8), fill: colour, stroke: "#1a1a1a", "stroke-width": 1.2, "stroke-linejoin": "round" }),
        svg("text", { x: 0, y: 3.2, class: "objpts", "text-anchor": "middle", fill: ink, text: String(o.points) }),
      ]),
    );
    // the zoomed-out map's objective (map/lod.js): the hex ringed in the holder's colour, a star large enough to see
    L.appendChild(
      svg("g", { class: "objective-far", "data-objective": o.hex, "data-holder": owner || "", "pointer-events": "none" }, [
        svg("polygon", { points: g.polygonPoints(o.hex, 0.9), fill: "none", stroke: "#1a1a1a", "stroke-width": 9 }),
        svg("polygon", { points: g.polygonPoints(o.hex, 0.9), fill: "none", stroke: colour, "stroke-width": 5 }),
        svg("path", { d: starPath(c.x - g.size * 0.55, c.y - g.h * 0.45, 21, 10), fill: colour, stroke: "#1a1a1a", "stroke-width": 2, "stroke-linejoin": "round" }),
        svg("text", { x: c.x - g.size * 0.55, y: c.y - g.h * 0.45 + 5.5, class: "objpts-far", "text-anchor": "middle", fill: ink, text: String(o.points) }),
      ]),
    );
  }
}

export function starPath(cx, cy, R, r) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const rad = ((i * 36 - 90) * Math.PI) / 180;
    const rr = i % 2 ? r : R;
    d += `${i ? "L" : "M"}${(cx + Math.cos(rad) * rr).toFixed(2)},${(cy + Math.sin(rad) * rr).toFixed(2)} `;
  }
  return d + "Z";
}
