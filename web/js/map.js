// The map: terrain, hexsides, roads, labels, objectives and entry hexes drawn
// from a scenario as SVG, with pan / zoom (wheel, drag, pinch), hover and
// click events, and overlay layers the game page fills (reachable hexes,
// paths, targets, prompt choices).

import { HexGrid } from "./hexgeom.js";
import { svg, tint, clear, OKABE } from "./ui/dom.js";
import { renderStacks } from "./counters.js";

let instanceCounter = 0;

const FALLBACK_TERRAIN_COLOURS = ["#e8e2c4", "#d2b48c", "#7fa36b", "#c9a27e", "#a9c4b8", "#cfd8a0"];

/** Build the <pattern> for one terrain. Patterns are drawn over the terrain colour. */
function terrainPattern(id, kind, colour, size) {
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
function featureStyle(fid, def) {
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

export class MapView {
  /**
   * @param {HTMLElement} container
   * @param {object} scenario full scenario JSON
   * @param {{preview?: boolean, hexSize?: number}} opts
   */
  constructor(container, scenario, opts = {}) {
    this.container = container;
    this.scenario = scenario;
    this.opts = opts;
    this.preview = !!opts.preview;
    this.grid = new HexGrid(scenario.map, opts.hexSize || 40);
    this.uid = `m${++instanceCounter}`;
    this.handlers = { hexclick: [], hexhover: [], unitclick: [], contextmenu: [] };
    this.view = null;
    this.expandedHex = null;
    this.selectedUnits = new Set();
    this.transform = { k: 1, x: 0, y: 0 };
    this.terrainOf = (id) => (scenario.map.hexes && scenario.map.hexes[id]) || scenario.map.default_terrain;
    this.build();
    if (!this.preview) this.enableInteraction();
  }

  on(evt, fn) {
    this.handlers[evt].push(fn);
    return this;
  }

  emit(evt, ...args) {
    for (const fn of this.handlers[evt] || []) fn(...args);
  }

  pid(name) {
    return `${this.uid}-${name}`;
  }

  build() {
    const g = this.grid;
    const sc = this.scenario;
    const W = g.width;
    const H = g.height;
    const root = svg("svg", {
      class: this.preview ? "map-svg map-preview" : "map-svg",
      viewBox: `0 0 ${W.toFixed(1)} ${H.toFixed(1)}`,
      preserveAspectRatio: "xMidYMid meet",
      role: this.preview ? "img" : "application",
      "aria-label": `Map of ${sc.title || sc.id}: ${g.columns} columns by ${g.rows} rows`,
    });
    this.svg = root;
    const defs = svg("defs");
    root.appendChild(defs);
    this.defs = defs;
    this.patternFor = {};
    const tecT = (sc.tec && sc.tec.terrain) || {};
    Object.entries(tecT).forEach(([tid, t], i) => {
      const col = t.color || FALLBACK_TERRAIN_COLOURS[i % FALLBACK_TERRAIN_COLOURS.length];
      const p = t.pattern && t.pattern !== "none" ? terrainPattern(this.pid(`pat-${tid}`), t.pattern, col, g.size) : null;
      if (p) {
        defs.appendChild(p);
        this.patternFor[tid] = `url(#${this.pid(`pat-${tid}`)})`;
      }
    });
    // arrow head for entry arrows and paths
    defs.appendChild(
      svg("marker", { id: this.pid("arrow"), viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, [
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "context-stroke" }),
      ]),
    );
    defs.appendChild(
      svg("marker", { id: this.pid("arrow-path"), viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto" }, [
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: OKABE.orange, stroke: "#000", "stroke-width": 1 }),
      ]),
    );

    const viewport = svg("g", { class: "viewport" });
    this.viewport = viewport;
    root.appendChild(viewport);
    root.insertBefore(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#f5f1e4", class: "map-bg" }), viewport);

    const layer = (name) => {
      const el = svg("g", { class: `layer layer-${name}` });
      viewport.appendChild(el);
      return el;
    };
    this.layers = {
      terrain: layer("terrain"),
      contours: layer("contours"),
      grid: layer("grid"),
      roads: layer("roads"),
      hexsides: layer("hexsides"),
      edges: layer("edges"),
      numbers: layer("numbers"),
      overlayFill: layer("overlay-fill"),
      overlayLine: layer("overlay-line"),
      units: layer("units"),
      labels: layer("labels"),
      objectives: layer("objectives"),
      overlayTop: layer("overlay-top"),
      hover: layer("hover"),
    };
    this.drawTerrain();
    this.drawRoads();
    this.drawHexsides();
    this.drawEdges();
    if (!this.preview) this.drawNumbers();
    this.drawLabels();
    this.drawObjectives();
    clear(this.container);
    this.container.appendChild(root);
  }

  drawTerrain() {
    const g = this.grid;
    const tecT = this.scenario.tec.terrain;
    const L = this.layers;
    for (const id of g.ids()) {
      const tid = this.terrainOf(id);
      const t = tecT[tid] || {};
      const pts = g.polygonPoints(id);
      L.terrain.appendChild(svg("polygon", { points: pts, fill: t.color || "#e8e2c4", class: `hex t-${tid}`, "data-hex": id }));
      if (this.patternFor[tid]) L.terrain.appendChild(svg("polygon", { points: pts, fill: this.patternFor[tid], "pointer-events": "none" }));
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
  }

  drawRoads() {
    const g = this.grid;
    for (const road of this.scenario.map.roads || []) {
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
      this.layers.roads.appendChild(grp);
    }
  }

  drawHexsides() {
    const g = this.grid;
    const defs = (this.scenario.tec && this.scenario.tec.hexsides) || {};
    const tecT = this.scenario.tec.terrain;
    const L = this.layers.hexsides;
    const streams = [];
    const others = [];
    for (const hs of this.scenario.map.hexsides || []) {
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
        const ta = tecT[this.terrainOf(a)] || {};
        const tb = tecT[this.terrainOf(b)] || {};
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

  drawEdges() {
    const g = this.grid;
    const L = this.layers.edges;
    // the map edge: outline of the outer hexes' boundary is ragged, so draw a frame
    L.appendChild(svg("rect", { x: g.margin * 0.35, y: g.margin * 0.35, width: g.width - g.margin * 0.7, height: g.height - g.margin * 0.7, fill: "none", stroke: "#3d3528", "stroke-width": 2.5, rx: 4 }));
    for (const [sid, side] of Object.entries(this.scenario.sides || {})) {
      const entries = new Set(side.entry_hexes || []);
      for (const r of this.scenario.reinforcements || []) {
        const u = (this.scenario.units || []).find((x) => x.id === r.unit);
        if (u && u.side === sid) entries.add(r.hex);
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
            svg("line", { x1, y1, x2, y2, stroke: side.color, "stroke-width": 5, "marker-end": `url(#${this.pid("arrow")})` }),
          ]),
        );
      }
      // the Standard rules' LOC hexes (12.3): a side's lines of communication, where retreats and re-entries lead
      for (const hex of side.loc || []) {
        if (!g.contains(hex)) continue;
        const c = g.center(hex);
        const y = c.y - g.size * 0.62;
        L.appendChild(
          svg("g", { class: `loc loc-${sid}`, "data-loc": hex, "pointer-events": "none" }, [
            svg("title", { text: `${side.name || sid} LOC hex ${hex} (rule 12.3)` }),
            svg("rect", { x: c.x - 13, y: y - 7, width: 26, height: 13, rx: 3, fill: side.color, stroke: "#fff", "stroke-width": 1 }),
            svg("text", { x: c.x, y: y + 3.5, "text-anchor": "middle", fill: side.text_color || "#fff", style: "font-size:9px;font-weight:700", text: "LOC" }),
          ]),
        );
      }
    }
  }

  drawNumbers() {
    const g = this.grid;
    for (const id of g.ids()) {
      const c = g.center(id);
      this.layers.numbers.appendChild(svg("text", { x: c.x, y: c.y - g.h / 2 + 9, class: "hexnum", "text-anchor": "middle", text: id }));
    }
  }

  drawLabels() {
    const g = this.grid;
    for (const lab of this.scenario.map.labels || []) {
      if (!g.contains(lab.hex)) continue;
      const c = g.center(lab.hex);
      this.layers.labels.appendChild(
        svg("text", { x: c.x, y: c.y + g.h / 2 - 5, class: "maplabel", "text-anchor": "middle", text: lab.text }),
      );
    }
  }

  drawObjectives(control = null) {
    const g = this.grid;
    const L = clear(this.layers.objectives);
    const objs = (this.scenario.victory && this.scenario.victory.objectives) || [];
    for (const o of objs) {
      if (!g.contains(o.hex)) continue;
      const c = g.center(o.hex);
      const owner = control && o.hex in control ? control[o.hex] : o.owner || null;
      const colour = owner && this.scenario.sides[owner] ? this.scenario.sides[owner].color : "#ffffff";
      // drawn above the counters, in the hex's upper-left corner, clear of the counter's name and factors
      const x = c.x - g.size * 0.62;
      const y = c.y - g.h * 0.36;
      const ink = owner && this.scenario.sides[owner] ? this.scenario.sides[owner].text_color || "#fff" : "#111";
      const holder = owner && this.scenario.sides[owner] ? this.scenario.sides[owner].name : null;
      L.appendChild(
        svg("g", { class: "objective", "data-objective": o.hex, "data-holder": owner || "", "pointer-events": "none", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` }, [
          svg("title", { text: `Objective ${o.name || o.hex}: ${o.points} VP${holder ? `, held by ${holder}` : ", held by nobody"}` }),
          svg("path", { d: starPath(0, 0, 11.5, 6), fill: colour, stroke: "#1a1a1a", "stroke-width": 1.3, "stroke-linejoin": "round" }),
          svg("text", { x: 0, y: 3.6, class: "objpts", "text-anchor": "middle", fill: ink, text: String(o.points) }),
        ]),
      );
    }
  }

  // ---------------------------------------------------------------- units

  /** Draw the units of a view (or of the scenario's setup when view is null). */
  setView(view, opts = {}) {
    this.view = view;
    if (opts.myside !== undefined) this.myside = opts.myside;
    this.renderUnits();
    if (view && view.control) this.drawObjectives(view.control);
  }

  renderUnits() {
    const L = clear(this.layers.units);
    const view = this.view;
    if (!view) return;
    renderStacks(L, this, view, {
      expandedHex: this.expandedHex,
      selected: this.selectedUnits,
      highlight: this.highlightUnits || new Set(),
    });
  }

  setSelected(ids) {
    this.selectedUnits = new Set(ids || []);
    this.renderUnits();
  }

  setExpanded(hex) {
    this.expandedHex = hex;
    this.renderUnits();
  }

  /** Units in a hex, bottom first. */
  unitsIn(hex) {
    if (!this.view) return [];
    return Object.entries(this.view.units || {})
      .filter(([, u]) => u.hex === hex && (u.status === "map" || u.status === undefined))
      .map(([id]) => id);
  }

  // ------------------------------------------------------------- overlays

  clearOverlays() {
    clear(this.layers.overlayFill);
    clear(this.layers.overlayLine);
    clear(this.layers.overlayTop);
  }

  /** Shade hexes: items = [{hex, colour, label, cls, title}] */
  shadeHexes(items, { opacity = 0.42, cls = "shade" } = {}) {
    const g = this.grid;
    for (const it of items) {
      if (!g.contains(it.hex)) continue;
      const grp = svg("g", { class: `${cls} ${it.cls || ""}`, "data-hex": it.hex });
      grp.appendChild(svg("polygon", { points: g.polygonPoints(it.hex, 0.96), fill: it.colour || OKABE.sky, "fill-opacity": it.opacity ?? opacity, stroke: it.stroke || it.colour || OKABE.sky, "stroke-width": it.strokeWidth || 2 }));
      if (it.title) grp.appendChild(svg("title", { text: it.title }));
      this.layers.overlayFill.appendChild(grp);
      if (it.label !== undefined && it.label !== null && it.label !== "") {
        const c = g.center(it.hex);
        this.layers.overlayTop.appendChild(
          svg("g", { class: "overlay-label", "pointer-events": "none" }, [
            svg("rect", { x: c.x + g.size * 0.3, y: c.y + g.h * 0.12, width: 22, height: 14, rx: 3, fill: "#000", "fill-opacity": 0.75 }),
            svg("text", { x: c.x + g.size * 0.3 + 11, y: c.y + g.h * 0.12 + 11, "text-anchor": "middle", class: "overlay-text", text: String(it.label) }),
          ]),
        );
      }
    }
  }

  /** Outline hexes with a thick ring (targets, choices). */
  ringHexes(items) {
    const g = this.grid;
    for (const it of items) {
      if (!g.contains(it.hex)) continue;
      const grp = svg("g", { class: `ring ${it.cls || ""}`, "data-hex": it.hex });
      grp.appendChild(svg("polygon", { points: g.polygonPoints(it.hex, 0.9), fill: it.fill || "none", "fill-opacity": 0.25, stroke: it.colour || OKABE.vermillion, "stroke-width": it.width || 4, "stroke-dasharray": it.dash || null }));
      if (it.title) grp.appendChild(svg("title", { text: it.title }));
      this.layers.overlayTop.appendChild(grp);
      if (it.label) {
        const c = g.center(it.hex);
        this.layers.overlayTop.appendChild(
          svg("g", { class: "overlay-label", "pointer-events": "none" }, [
            svg("rect", { x: c.x - 20, y: c.y - g.h / 2 - 2, width: 40, height: 14, rx: 3, fill: it.colour || OKABE.vermillion }),
            svg("text", { x: c.x, y: c.y - g.h / 2 + 9, "text-anchor": "middle", class: "overlay-text", text: it.label }),
          ]),
        );
      }
    }
  }

  /** A path through hex centres with an arrow at the end. */
  drawPath(path, { colour = OKABE.orange, dash = null, width = 5 } = {}) {
    const g = this.grid;
    const pts = path.filter((id) => g.contains(id)).map((id) => g.center(id));
    if (pts.length < 2) return;
    const d = pts.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
    this.layers.overlayLine.appendChild(svg("path", { d, fill: "none", stroke: "#000", "stroke-width": width + 3, "stroke-linecap": "round", "stroke-linejoin": "round", opacity: 0.6, class: "path-casing" }));
    this.layers.overlayLine.appendChild(
      svg("path", { d, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-dasharray": dash, "marker-end": `url(#${this.pid("arrow-path")})`, class: "move-path" }),
    );
  }

  /** A straight line between two hexes (bombardment range / LOS). */
  drawLine(a, b, { colour = OKABE.vermillion, dash = "6 4", width = 3, label = null } = {}) {
    const g = this.grid;
    if (!g.contains(a) || !g.contains(b)) return;
    const A = g.center(a);
    const B = g.center(b);
    this.layers.overlayTop.appendChild(svg("line", { x1: A.x, y1: A.y, x2: B.x, y2: B.y, stroke: colour, "stroke-width": width, "stroke-dasharray": dash, "pointer-events": "none", class: "los-line" }));
    if (label) {
      const mx = (A.x + B.x) / 2;
      const my = (A.y + B.y) / 2;
      this.layers.overlayTop.appendChild(
        svg("g", { "pointer-events": "none" }, [
          svg("rect", { x: mx - 22, y: my - 8, width: 44, height: 15, rx: 3, fill: colour }),
          svg("text", { x: mx, y: my + 3.5, "text-anchor": "middle", class: "overlay-text", text: label }),
        ]),
      );
    }
  }

  // ------------------------------------------------------------ pan/zoom

  applyTransform() {
    const t = this.transform;
    this.viewport.setAttribute("transform", `translate(${t.x.toFixed(2)},${t.y.toFixed(2)}) scale(${t.k.toFixed(4)})`);
  }

  /** client (screen) point -> svg root user units */
  rootPoint(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const m = this.svg.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : { x: clientX, y: clientY };
  }

  /** client point -> map coordinates */
  mapPoint(clientX, clientY) {
    const p = this.rootPoint(clientX, clientY);
    const t = this.transform;
    return { x: (p.x - t.x) / t.k, y: (p.y - t.y) / t.k };
  }

  zoomAt(clientX, clientY, factor) {
    const t = this.transform;
    const k2 = Math.min(6, Math.max(0.5, t.k * factor));
    const p = this.rootPoint(clientX, clientY);
    t.x = p.x - ((p.x - t.x) * k2) / t.k;
    t.y = p.y - ((p.y - t.y) * k2) / t.k;
    t.k = k2;
    this.applyTransform();
  }

  zoomBy(factor) {
    const r = this.svg.getBoundingClientRect();
    this.zoomAt(r.left + r.width / 2, r.top + r.height / 2, factor);
  }

  resetView() {
    this.transform = { k: 1, x: 0, y: 0 };
    this.applyTransform();
  }

  /** Screen pixels per map unit at zoom 1 (the whole map fitted into the element). */
  fitScale() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return 1;
    return Math.min(r.width / this.grid.width, r.height / this.grid.height);
  }

  /**
   * Open the map over some hexes (a side's own units) at a readable counter size: zoom in until a counter is
   * about `counterPx` screen pixels (never out past the whole map), centred on the hexes' middle.
   * resetView() still shows the whole map.
   */
  focusOn(hexes, { counterPx = null } = {}) {
    const pts = (hexes || []).filter((x) => x && this.grid.contains(x)).map((x) => this.grid.center(x));
    const scale = this.fitScale();
    // about 46 px on a desktop, smaller on a phone so that more of the map stays in view
    if (counterPx === null) counterPx = Math.max(34, Math.min(46, this.svg.getBoundingClientRect().width / 12));
    const counter = this.grid.size * 1.02 * scale;
    const k = Math.min(6, Math.max(1, counterPx / Math.max(1, counter)));
    if (k <= 1.3 || !pts.length) {
      this.resetView();
      return false;
    }
    const xs = pts.map((p) => p.x);
    const ys = pts.map((p) => p.y);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    this.transform = { k, x: 0, y: 0 };
    this.centerAt(cx, cy);
    return true;
  }

  /** Pan so that a map point is in the middle of the viewport, keeping the map edge in view. */
  centerAt(x, y) {
    const t = this.transform;
    const W = this.grid.width;
    const H = this.grid.height;
    t.x = W / 2 - x * t.k;
    t.y = H / 2 - y * t.k;
    // never pan past the map's edges (when zoomed in)
    t.x = Math.min(0, Math.max(W - W * t.k, t.x));
    t.y = Math.min(0, Math.max(H - H * t.k, t.y));
    this.applyTransform();
  }

  /** True when a hex's centre is inside the visible part of the map. */
  isVisible(hex) {
    if (!this.grid.contains(hex)) return false;
    const c = this.grid.center(hex);
    const t = this.transform;
    const x = c.x * t.k + t.x;
    const y = c.y * t.k + t.y;
    const m = this.grid.size * 0.5 * t.k;
    // the part of the viewBox actually on screen (preserveAspectRatio meet centres the map)
    const r = this.svg.getBoundingClientRect();
    const s = this.fitScale();
    const vw = r.width / s;
    const vh = r.height / s;
    const x0 = (this.grid.width - vw) / 2;
    const y0 = (this.grid.height - vh) / 2;
    return x - m >= x0 && x + m <= x0 + vw && y - m >= y0 && y + m <= y0 + vh;
  }

  /** Pan to a hex when it is off screen (keyboard cycling, prompts, tests). */
  ensureVisible(hex) {
    if (this.grid.contains(hex) && !this.isVisible(hex)) this.centerOn(hex);
  }

  /** Pan so that a hex is in the middle of the viewport. */
  centerOn(hex) {
    if (!this.grid.contains(hex)) return;
    const c = this.grid.center(hex);
    const t = this.transform;
    t.x = this.grid.width / 2 - c.x * t.k;
    t.y = this.grid.height / 2 - c.y * t.k;
    this.applyTransform();
  }

  enableInteraction() {
    const el = this.svg;
    el.setAttribute("tabindex", "0");
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    let moved = false;
    el.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
        this.zoomAt(e.clientX, e.clientY, f);
      },
      { passive: false },
    );
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== undefined && e.button > 0) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) {
        drag = { x: e.clientX, y: e.clientY, tx: this.transform.x, ty: this.transform.y };
        moved = false;
      } else if (pointers.size === 2) {
        const [p1, p2] = [...pointers.values()];
        pinch = { d: Math.hypot(p1.x - p2.x, p1.y - p2.y), k: this.transform.k };
        drag = null;
        moved = true;
      }
    });
    el.addEventListener("pointermove", (e) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && pointers.size >= 2) {
        const [p1, p2] = [...pointers.values()];
        const d = Math.hypot(p1.x - p2.x, p1.y - p2.y);
        const mid = { x: (p1.x + p2.x) / 2, y: (p1.y + p2.y) / 2 };
        const target = (pinch.k * d) / pinch.d;
        this.zoomAt(mid.x, mid.y, target / this.transform.k);
        return;
      }
      if (drag) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (!moved && Math.hypot(dx, dy) > 6) {
          moved = true;
          try {
            el.setPointerCapture(e.pointerId);
          } catch (_) {
            /* ignore */
          }
          el.classList.add("panning");
        }
        if (moved) {
          const a = this.rootPoint(drag.x, drag.y);
          const b = this.rootPoint(e.clientX, e.clientY);
          this.transform.x = drag.tx + (b.x - a.x);
          this.transform.y = drag.ty + (b.y - a.y);
          this.applyTransform();
        }
        return;
      }
      this.hover(e);
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) {
        const wasDrag = drag && moved;
        drag = null;
        el.classList.remove("panning");
        if (!wasDrag && e.type === "pointerup" && !moved) this.click(e);
      }
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    el.addEventListener("pointerleave", (e) => {
      if (!pointers.size) {
        clear(this.layers.hover);
        this.emit("hexhover", null, e);
      }
    });
    el.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      const p = this.mapPoint(e.clientX, e.clientY);
      this.emit("contextmenu", this.grid.hexAt(p.x, p.y), e);
    });
  }

  hover(e) {
    const p = this.mapPoint(e.clientX, e.clientY);
    const hex = this.grid.hexAt(p.x, p.y);
    if (hex === this.hoverHex) {
      this.emit("hexhover", hex, e);
      return;
    }
    this.hoverHex = hex;
    clear(this.layers.hover);
    if (hex) this.layers.hover.appendChild(svg("polygon", { points: this.grid.polygonPoints(hex, 0.97), fill: "none", stroke: "#111", "stroke-width": 2.2, "pointer-events": "none" }));
    this.emit("hexhover", hex, e);
  }

  click(e) {
    const unitEl = e.target && e.target.closest ? e.target.closest("[data-unit]") : null;
    const p = this.mapPoint(e.clientX, e.clientY);
    const hex = this.grid.hexAt(p.x, p.y);
    if (unitEl) {
      // the hex under the pointer too: an expanded stack's counters lie over neighbouring hexes
      this.emit("unitclick", unitEl.getAttribute("data-unit"), unitEl.getAttribute("data-hex"), e, hex);
      return;
    }
    if (hex) this.emit("hexclick", hex, e);
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

/** The setup of a scenario as a pseudo view, for previews and the dev harness. */
export function setupView(scenario) {
  const units = {};
  for (const s of scenario.setup || []) units[s.unit] = { hex: s.hex, status: "map", reduced: !!s.reduced, disrupted: !!s.disrupted, ineffective: !!s.ineffective, moved: false, charging: null };
  for (const r of scenario.reinforcements || []) units[r.unit] = { hex: null, status: "offboard", entry_turn: r.turn, entry_hex: r.hex };
  return { scenario: scenario.id, turn: 1, turns: scenario.turns, phase: "setup", units, squares: (scenario.setup || []).filter((s) => s.square).map((s) => s.hex), control: {} };
}

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
  for (const [fid, f] of Object.entries(scenario.tec.hexsides || {})) items.push({ kind: "side", fid, f, label: f.name || fid });
  const ROAD_NAMES = { pike: "Main road (pike)", road: "Road", trail: "Trail" };
  const kinds = [...new Set((scenario.map.roads || []).map((r) => r.kind || "road"))].sort((a, b) => ["pike", "road", "trail"].indexOf(a) - ["pike", "road", "trail"].indexOf(b));
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
