// The map: terrain, hexsides, roads, labels, objectives and entry hexes drawn
// from a scenario as SVG, with pan / zoom (wheel, drag, pinch), hover and
// click events, and overlay layers the game page fills (reachable hexes,
// paths, targets, prompt choices).
//
// The static layers are drawn by map/terrain.js, pan / zoom and pointer input live in map/viewport.js, the
// legend in map/legend.js, what each zoom shows (and the zoomed-out marks and front line) in map/lod.js, the list
// of a stack's units in map/stackpop.js; this module keeps the MapView the pages use, its layers, counters and
// overlays.

import { HexGrid } from "./hexgeom.js";
import { svg, clear, OKABE } from "./ui/dom.js";
import { renderStacks } from "./counters.js";
import { MapViewport } from "./map/viewport.js";
import { drawUnitMarks, drawFrontLine } from "./map/lod.js";
import { StackPopover } from "./map/stackpop.js";
import { FALLBACK_TERRAIN_COLOURS, terrainPattern, drawTerrain, drawRoads, drawHexsides, drawEdges, drawMarks, drawNumbers, drawLabels, drawObjectives } from "./map/terrain.js";

export { starPath } from "./map/terrain.js";
export { legendSVG } from "./map/legend.js";

let instanceCounter = 0;

export class MapView extends MapViewport {
  /**
   * @param {HTMLElement} container
   * @param {object} scenario full scenario JSON
   * @param {{preview?: boolean, hexSize?: number, reading?: object, marks?: function}} opts
   *   reading: the edition's reading of its counters; marks(scenario): the edition's marks on the scenario's hexes
   *   (editions/index.js: counter, mapMarks)
   */
  constructor(container, scenario, opts = {}) {
    super();
    this.container = container;
    this.scenario = scenario;
    this.opts = opts;
    this.preview = !!opts.preview;
    this.grid = new HexGrid(scenario.map, opts.hexSize || 40);
    this.uid = `m${++instanceCounter}`;
    this.handlers = { hexclick: [], hexhover: [], unitclick: [], contextmenu: [] };
    this.view = null;
    this.selectedUnits = new Set();
    this.transform = { k: 1, x: 0, y: 0 };
    this.terrainOf = (id) => (scenario.map.hexes && scenario.map.hexes[id]) || scenario.map.default_terrain;
    this.build();
    this.stackPop = this.preview ? null : new StackPopover(this);
    if (!this.preview) this.enableInteraction();
    this.watchLod();
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
    // secondary terrain (a village on clear ground...): its own pattern, keyed "sec:<id>" (map/terrain.js)
    Object.entries((sc.tec && sc.tec.secondary) || {}).forEach(([sid, t]) => {
      const p = t.pattern && t.pattern !== "none" ? terrainPattern(this.pid(`pat-sec-${sid}`), t.pattern, t.color || "#c9a27e", g.size) : null;
      if (p) {
        defs.appendChild(p);
        this.patternFor[`sec:${sid}`] = `url(#${this.pid(`pat-sec-${sid}`)})`;
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
      front: layer("front"),
      labelsFar: layer("labels-far"),
      overlayFill: layer("overlay-fill"),
      overlayLine: layer("overlay-line"),
      units: layer("units"),
      marks: layer("marks"),
      labels: layer("labels"),
      objectives: layer("objectives"),
      overlayTop: layer("overlay-top"),
      hover: layer("hover"),
    };
    this.drawTerrain();
    this.drawRoads();
    this.drawHexsides();
    this.drawEdges();
    drawMarks(this, this.opts.marks ? this.opts.marks(sc) : []);
    if (!this.preview) this.drawNumbers();
    this.drawLabels();
    this.drawObjectives();
    clear(this.container);
    this.container.appendChild(root);
  }

  drawTerrain() {
    drawTerrain(this);
  }

  drawRoads() {
    drawRoads(this);
  }

  drawHexsides() {
    drawHexsides(this);
  }

  drawEdges() {
    drawEdges(this);
  }

  drawNumbers() {
    drawNumbers(this);
  }

  drawLabels() {
    drawLabels(this);
  }

  drawObjectives(control = null) {
    drawObjectives(this, control);
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
    clear(this.layers.marks);
    clear(this.layers.front);
    const view = this.view;
    if (view) {
      renderStacks(L, this, view, {
        selected: this.selectedUnits,
        highlight: this.highlightUnits || new Set(),
        reading: this.opts.reading,
        open: this.stackPop ? this.stackPop.hex : null,
      });
      // what the zoomed-out map shows instead (map/lod.js); the CSS picks one by the zoom
      drawUnitMarks(this.layers.marks, this, view);
      drawFrontLine(this.layers.front, this, view);
    }
    if (this.stackPop) this.stackPop.render();
  }

  setSelected(ids) {
    this.selectedUnits = new Set(ids || []);
    this.renderUnits();
  }

  /** The stack the page has selected (or null): the popover lists its units. */
  setExpanded(hex) {
    this.showStack(hex);
  }

  /** List the units of the stack in `hex` in the popover (none: close it); fewer than two units list nothing. */
  showStack(hex) {
    if (!this.stackPop) return;
    if (hex) this.stackPop.open(hex);
    else this.stackPop.close();
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
}

/** The setup of a scenario as a pseudo view, for previews and the dev harness. */
export function setupView(scenario) {
  const units = {};
  for (const s of scenario.setup || []) units[s.unit] = { hex: s.hex, status: "map", reduced: !!s.reduced, disrupted: !!s.disrupted, ineffective: !!s.ineffective, moved: false, charging: null };
  for (const r of scenario.reinforcements || []) {
    // a group ("units") at a choice of lettered entry hexes ("entry") is shown at its first listed hex
    const first = r.hex || (r.entry || [])[0];
    for (const uid of r.units || [r.unit]) {
      const side = ((scenario.units || []).find((x) => x.id === uid) || {}).side;
      const points = ((scenario.sides || {})[side] || {}).entry_points || {};
      units[uid] = { hex: null, status: "offboard", entry_turn: r.turn, entry_hex: points[first] || first };
    }
  }
  return { scenario: scenario.id, turn: 1, turns: scenario.turns, phase: "setup", units, squares: (scenario.setup || []).filter((s) => s.square).map((s) => s.hex), control: {} };
}
