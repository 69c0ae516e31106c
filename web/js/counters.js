// Wargame counters as SVG: army colour, NATO symbol, id and formation,
// factors, reduced band, ineffective (flipped) look, D / square / charge
// markers, leaders with a star, stacks fanned and expandable.
//
// What every edition draws is here; what a counter's factors read (their order along its foot, their words, whose
// range it prints, the edition's own flags) is the edition's `counter` reading (editions/index.js), passed in as
// `reading` (the map's option, counterIcon's and describeUnit's argument).

import { svg, tint, OKABE } from "./ui/dom.js";

const STAR = (cx, cy, R, r) => {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = ((i * 36 - 90) * Math.PI) / 180;
    const rr = i % 2 ? r : R;
    d += `${i ? "L" : "M"}${(cx + Math.cos(a) * rr).toFixed(2)},${(cy + Math.sin(a) * rr).toFixed(2)} `;
  }
  return d + "Z";
};

const unitIndexCache = new WeakMap();

export function unitDefs(scenario) {
  let idx = unitIndexCache.get(scenario);
  const n = (scenario.units || []).length;
  if (!idx || idx.__n !== n) {
    // rebuilt when units are added (an enemy reinforcement's definition arrives with the view once it is seen)
    idx = {};
    for (const u of scenario.units || []) idx[u.id] = u;
    Object.defineProperty(idx, "__n", { value: n, enumerable: false });
    unitIndexCache.set(scenario, idx);
  }
  return idx;
}

/** Add the unit definitions a view carries (`unit_defs`: visible units the public scenario leaves out). */
export function mergeUnitDefs(scenario, view) {
  const extra = view && view.unit_defs;
  if (!scenario || !extra) return;
  const have = unitDefs(scenario);
  for (const [id, def] of Object.entries(extra)) if (!have[id]) (scenario.units = scenario.units || []).push(def);
}

// A unit's facing, as the view gives it (server/rules/kernel/facing.py): a hexside (SE, NE, N, NW, SW, S) or an
// apex (E, NNE, NNW, W, SSW, SSE), each as its direction on the page in degrees clockwise from east (y down).
const FACING_ANGLES = { SE: 30, NE: -30, N: -90, NW: -150, SW: 150, S: 90, E: 0, NNE: -60, NNW: -120, W: 180, SSW: 120, SSE: 60 };
const APEXES = new Set(["E", "NNE", "NNW", "W", "SSW", "SSE"]);

/** The wedge that marks a facing in a flat-topped hex of centre (cx, cy) and centre-to-corner `size`: three
 *  points, the tip just inside the faced hexside's middle or apex, the base toward the centre; null without a
 *  facing the page knows. */
export function facingWedge(facing, cx, cy, size) {
  const deg = FACING_ANGLES[facing];
  if (deg === undefined) return null;
  const a = (deg * Math.PI) / 180;
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const reach = APEXES.has(facing) ? size : (size * Math.sqrt(3)) / 2; // to the apex, or to the hexside's middle
  const tip = reach * 0.97;
  const base = tip - size * 0.26;
  const half = size * 0.15;
  return [
    [cx + ux * tip, cy + uy * tip],
    [cx + ux * base - uy * half, cy + uy * base + ux * half],
    [cx + ux * base + uy * half, cy + uy * base - ux * half],
  ];
}

/** The factor block a unit shows in its current state. */
export function currentFactors(def, state = {}) {
  if (!def) return null;
  if (def.kind === "leader") return state.ineffective && def.leader_ineffective ? def.leader_ineffective : def.leader;
  if (state.ineffective && def.ineffective) return def.ineffective;
  if (state.reduced && def.reduced) return def.reduced;
  return def.full;
}

/** Short on-counter designation: "1st Brigade" -> "1", "Jäger Bn" -> "Jäger". */
export function shortName(def) {
  if (!def) return "?";
  const n = def.name || def.id;
  const m = n.match(/^(\d+)(st|nd|rd|th)?\b/);
  if (m) return m[1];
  const w = n.split(/\s+/)[0];
  return w.length > 6 ? w.slice(0, 4) + "." : w;
}

/** The reading of a counter when the page has no edition's (editions/index.js: counter): a leader's
 *  combat-morale-movement, else the factor block's numbers in the order the scenario gives them, each named by its
 *  key, and a range where the unit or its block has one. An edition's reading says what its counters print. */
const GENERIC_READING = {
  factors(def, f) {
    if (def.kind === "leader") return `${f.combat ?? 0}-${f.morale ?? 0}-${f.movement ?? 0}`;
    return Object.values(f).filter((x) => typeof x === "number" || typeof x === "string").join("-");
  },
  describe(def, f) {
    if (def.kind === "leader") return `leader ${f.combat}-${f.morale}-${f.movement} (combat-morale-movement)`;
    return Object.entries(f).filter(([, x]) => typeof x !== "object").map(([k, x]) => `${k} ${x}`).join(", ");
  },
  range: (def, f) => def.range ?? f.range ?? null,
};

/** Ask the edition's reading (`reading`: the edition's `counter`, editions/index.js) what a counter shows, else the
 *  generic reading: an edition's hook answering undefined leaves the answer to the generic one (null: nothing). */
export function readCounter(reading, what, def, f) {
  const own = reading && reading[what] ? reading[what](def, f) : undefined;
  return own !== undefined ? own : GENERIC_READING[what](def, f);
}

/** The factors in words, for titles, aria labels and lists. */
export function factorText(def, state = {}, reading = null) {
  return readCounter(reading, "describe", def, currentFactors(def, state) || {}) || "";
}

/** `showMoved`: say "moved" only while it matters (its own side's turn); the flag lasts until its next move.
 *  `reading`: the edition's reading of its counters (editions/index.js: counter), which may add its own flags. */
export function describeUnit(def, state = {}, { showMoved = true, reading = null } = {}) {
  if (!def) return "";
  const flags = [];
  if (state.reduced) flags.push("reduced");
  if (state.disrupted) flags.push("disrupted");
  if (state.ineffective) flags.push("ineffective");
  if (state.charging) flags.push("charging");
  if (state.facing) flags.push(`facing ${state.facing}`);
  if (reading && reading.flags) flags.push(...reading.flags(def, state));
  if (state.moved && showMoved) flags.push("moved");
  return `${def.name} (${def.kind}${def.formation ? `, formation ${def.formation}` : ""}): ${factorText(def, state, reading)}${flags.length ? "; " + flags.join(", ") : ""}`;
}

/** NATO unit-type symbol in a box of w x h at (x, y). */
function natoSymbol(def, x, y, w, h, ink) {
  const g = svg("g", { class: "nato" });
  g.appendChild(svg("rect", { x, y, width: w, height: h, fill: "#fff", stroke: ink, "stroke-width": 1.1 }));
  const k = def.kind;
  if (k === "infantry" || k === "battalion") {
    g.appendChild(svg("path", { d: `M${x},${y} L${x + w},${y + h} M${x + w},${y} L${x},${y + h}`, stroke: ink, "stroke-width": 1.1 }));
  } else if (k === "cavalry" || k === "squadron") {
    g.appendChild(svg("path", { d: `M${x},${y + h} L${x + w},${y}`, stroke: ink, "stroke-width": 1.1 }));
  } else if (k === "hq") {
    // a headquarters: the staff's flag
    g.appendChild(svg("path", { d: `M${x + w * 0.3},${y + h * 0.9} L${x + w * 0.3},${y + h * 0.12} L${x + w * 0.75},${y + h * 0.3} L${x + w * 0.3},${y + h * 0.5}`, stroke: ink, "stroke-width": 1.2, fill: ink }));
  } else if (k === "trains") {
    // the trains: a wagon
    g.appendChild(svg("rect", { x: x + w * 0.2, y: y + h * 0.25, width: w * 0.6, height: h * 0.35, fill: "none", stroke: ink, "stroke-width": 1.1 }));
    g.appendChild(svg("circle", { cx: x + w * 0.32, cy: y + h * 0.75, r: h * 0.12, fill: ink }));
    g.appendChild(svg("circle", { cx: x + w * 0.68, cy: y + h * 0.75, r: h * 0.12, fill: ink }));
  } else if (k === "artillery") {
    g.appendChild(svg("circle", { cx: x + w / 2, cy: y + h / 2, r: h * 0.26, fill: ink }));
  }
  // size marks above the box: X brigade, II battalion, I battery
  return g;
}

/** Size marks drawn above the NATO box: X brigade, II battalion, I battery. */
function sizeMark(def) {
  const k = def.kind;
  return k === "battalion" ? "II" : k === "artillery" || k === "squadron" ? "I" : k === "hq" ? "HQ" : k === "trains" ? "" : "X";
}

/**
 * One counter as an SVG group with its top-left corner at (0,0), S x S.
 * @param {object} def unit definition from the scenario
 * @param {object} state the unit's entry in view.units
 * @param {object} side the scenario side (color, text_color)
 */
export function counterSVG(def, state, side, S = 42, opts = {}) {
  state = state || {};
  const base = (side && side.color) || "#777777";
  const text = (side && side.text_color) || "#ffffff";
  const ineff = !!state.ineffective || !!state.flipped; // `flipped`: an edition's decoration (mapView) for a unit on its reverse side
  const fill = ineff ? tint(base, 0.55) : base;
  const ink = ineff ? tint(base, -0.55) : text;
  const g = svg("g", {
    class: `counter k-${def.kind}${ineff ? " ineffective" : ""}${state.reduced ? " reduced" : ""}${state.disrupted ? " disrupted" : ""}${opts.selected ? " selected" : ""}`,
    "data-unit": def.id,
    role: "img",
    "aria-label": describeUnit(def, state, { showMoved: !!opts.showMoved, reading: opts.reading }),
  });
  g.appendChild(svg("title", { text: describeUnit(def, state, { showMoved: !!opts.showMoved, reading: opts.reading }) }));
  // shadow + body
  g.appendChild(svg("rect", { x: 1.6, y: 1.6, width: S, height: S, rx: 3, fill: "#000", opacity: 0.35 }));
  g.appendChild(svg("rect", { x: 0, y: 0, width: S, height: S, rx: 3, fill, stroke: tint(base, -0.5), "stroke-width": 1, class: "c-body" }));
  if (ineff) {
    // the flipped back: pale face with a diagonal stripe
    g.appendChild(svg("path", { d: `M0,${S * 0.72} L${S * 0.72},0 L${S * 0.86},0 L0,${S * 0.86} Z`, fill: tint(base, 0.2), opacity: 0.45 }));
  }
  const f = currentFactors(def, state) || {};
  if (def.kind === "leader") {
    g.appendChild(svg("path", { d: STAR(S / 2, S * 0.46, S * 0.25, S * 0.1), fill: "#f5d142", stroke: "#5a4300", "stroke-width": 0.8 }));
    const nm = (def.name || def.id).replace(/^Gen\.?\s*/, "").slice(0, 9);
    g.appendChild(svg("text", { x: S / 2, y: S * 0.2, class: "c-id", "text-anchor": "middle", fill: ink, style: `font-size:${Math.min(8, (S * 1.5) / Math.max(4, nm.length)).toFixed(1)}px`, text: nm }));
    g.appendChild(svg("text", { x: S / 2, y: S * 0.93, class: "c-factors", "text-anchor": "middle", fill: ink, style: `font-size:${(S * 0.23).toFixed(1)}px`, text: readCounter(opts.reading, "factors", def, f) }));
  } else {
    g.appendChild(svg("text", { x: 3, y: S * 0.2, class: "c-id", fill: ink, text: shortName(def) }));
    if (def.formation) g.appendChild(svg("text", { x: S - 3, y: S * 0.2, class: "c-form", "text-anchor": "end", fill: ink, text: def.formation }));
    const bw = S * 0.46;
    const bh = S * 0.28;
    const range = readCounter(opts.reading, "range", def, f); // the edition says whose range it is (the unit's, its side's)
    const extra = range || f.charge;
    // with a range or charge factor beside it, the symbol moves left so the whole "(3)" / "c4" stays readable
    const bx = extra ? S * 0.1 : (S - bw) / 2;
    const by = S * 0.36;
    g.appendChild(natoSymbol(def, bx, by, bw, bh, ineff ? ink : "#111"));
    g.appendChild(svg("text", { x: bx + bw / 2, y: by - 1.5, class: "c-size", "text-anchor": "middle", fill: ink, text: sizeMark(def) }));
    // artillery range and cavalry charge factor beside the symbol
    if (range) g.appendChild(svg("text", { x: S - 1.5, y: by + bh * 0.75, class: "c-extra", "text-anchor": "end", fill: ink, text: `(${range})` }));
    if (f.charge) g.appendChild(svg("text", { x: S - 1.5, y: by + bh * 0.75, class: "c-extra", "text-anchor": "end", fill: ink, text: `c${f.charge}` }));
    if (state.reduced) {
      // reduced band across the counter
      g.appendChild(svg("rect", { x: 0, y: by + bh + 2, width: S, height: S * 0.09, fill: "#fff", opacity: 0.92 }));
      g.appendChild(svg("rect", { x: 0, y: by + bh + 2 + S * 0.03, width: S, height: S * 0.03, fill: base }));
    }
    g.appendChild(svg("text", { x: S / 2, y: S * 0.95, class: "c-factors", "text-anchor": "middle", fill: ink, text: readCounter(opts.reading, "factors", def, f) }));
    if (f.red_dot) g.appendChild(svg("circle", { cx: S - 4, cy: S * 0.3, r: 2.6, fill: "#d7191c", stroke: "#fff", "stroke-width": 0.8, class: "red-dot" }));
  }
  // markers
  if (state.disrupted) {
    g.appendChild(
      svg("g", { class: "marker marker-d", transform: `translate(${S - 12},${-5})` }, [
        svg("rect", { width: 15, height: 15, rx: 2, fill: OKABE.yellow, stroke: "#000", "stroke-width": 1 }),
        svg("text", { x: 7.5, y: 11.5, "text-anchor": "middle", class: "marker-text", text: "D" }),
      ]),
    );
  }
  if (state.charging) {
    g.appendChild(
      svg("g", { class: "marker marker-charge", transform: `translate(${-6},${-6})` }, [
        svg("rect", { width: 17, height: 13, rx: 2, fill: OKABE.vermillion, stroke: "#000", "stroke-width": 1 }),
        svg("path", { d: "M3,6.5 L12,6.5 M9,3 L13,6.5 L9,10", stroke: "#fff", "stroke-width": 1.8, fill: "none" }),
      ]),
    );
  }
  if (state.moved && opts.showMoved) {
    // on the counter's right edge, clear of the factors
    g.appendChild(svg("circle", { cx: S, cy: S * 0.5, r: 3.2, fill: "#111", stroke: "#fff", "stroke-width": 1.1, class: "moved-dot" }));
  }
  if (opts.selected) g.appendChild(svg("rect", { x: -2.5, y: -2.5, width: S + 5, height: S + 5, rx: 4, fill: "none", stroke: OKABE.orange, "stroke-width": 3.2, class: "sel-ring" }));
  if (opts.highlight) g.appendChild(svg("rect", { x: -3, y: -3, width: S + 6, height: S + 6, rx: 4, fill: "none", stroke: OKABE.purple, "stroke-width": 3, "stroke-dasharray": "4 2", class: "hl-ring" }));
  return g;
}

/** Order a stack: combat units first, leaders on top so the star shows. */
export function stackOrder(ids, defs) {
  const rank = (id) => (defs[id] && defs[id].kind === "leader" ? 1 : 0);
  return [...ids].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Draw every stack of a view into a layer.
 * opts: {expandedHex, selected:Set, highlight:Set, reading: the edition's reading of its counters}
 */
export function renderStacks(layer, mapView, view, opts = {}) {
  const sc = mapView.scenario;
  const defs = unitDefs(sc);
  const g = mapView.grid;
  const S = Math.round(g.size * 1.02);
  const byHex = new Map();
  for (const [id, st] of Object.entries(view.units || {})) {
    if (!st || !st.hex || (st.status && st.status !== "map")) continue;
    if (!g.contains(st.hex)) continue;
    if (!byHex.has(st.hex)) byHex.set(st.hex, []);
    byHex.get(st.hex).push(id);
  }
  const sq = view.squares || [];
  const squares = new Set(Array.isArray(sq) ? sq : Object.keys(sq));
  const later = [];
  for (const [hex, ids] of byHex) {
    const order = stackOrder(ids, defs);
    const combat = order.filter((id) => !(defs[id] && defs[id].kind === "leader"));
    const c = g.center(hex);
    const expanded = opts.expandedHex === hex && order.length > 1;
    const grp = svg("g", { class: `stack${expanded ? " expanded" : ""}`, "data-hex": hex });
    const n = order.length;
    order.forEach((id, i) => {
      const def = defs[id] || { id, kind: "infantry", name: id, side: "?" };
      const side = sc.sides[def.side];
      let x;
      let y;
      const isLeader = def.kind === "leader";
      const size = isLeader && !expanded && n > 1 ? Math.round(S * 0.72) : S;
      if (expanded) {
        const gap = S + 6;
        x = c.x - (n * gap - 6) / 2 + i * gap;
        y = c.y - S / 2 - g.h * 0.15;
      } else if (isLeader && n > 1) {
        // leaders ride beside the stack's left edge, mid-height, so the unit's name and factors stay readable
        const li = order.filter((x2) => defs[x2] && defs[x2].kind === "leader").indexOf(id);
        x = c.x - S / 2 - size * 0.88;
        y = c.y - S / 2 + S * 0.28 - li * 6;
      } else {
        const k = combat.indexOf(id);
        const m = combat.length;
        const off = Math.min(6, 16 / Math.max(1, m - 1));
        x = c.x - S / 2 + (k - (m - 1) / 2) * off;
        y = c.y - S / 2 - (k - (m - 1) / 2) * off;
      }
      const cg = counterSVG(def, view.units[id], side, size, {
        selected: opts.selected && opts.selected.has(id),
        highlight: opts.highlight && opts.highlight.has(id),
        reading: opts.reading,
        showMoved: def.side === view.active && ["movement", "recovery", "combat"].includes(view.phase), // its own player-turn only
      });
      cg.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
      cg.setAttribute("data-hex", hex);
      grp.appendChild(cg);
    });
    for (const id of order) {
      // a unit's facing, where the view gives one: a wedge at the faced hexside or apex, in its side's colour
      const pts = facingWedge(view.units[id].facing, c.x, c.y, g.size);
      if (!pts) continue;
      const side = sc.sides[(defs[id] || {}).side];
      grp.appendChild(svg("polygon", { class: "facing", "data-unit": id, "pointer-events": "none", points: pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "), fill: (side && side.color) || "#777777", stroke: "#111", "stroke-width": 1 }));
    }
    if (n > 1 && !expanded) {
      const bx = c.x + S / 2 + 2;
      const by = c.y - S / 2 - 8;
      grp.appendChild(
        svg("g", { class: "stack-badge", "pointer-events": "none" }, [
          svg("circle", { cx: bx, cy: by, r: 7, fill: "#111", stroke: "#fff", "stroke-width": 1.2 }),
          svg("text", { x: bx, y: by + 3.5, "text-anchor": "middle", class: "badge-text", text: String(n) }),
        ]),
      );
    }
    if (squares.has(hex)) {
      // a square marker: a hollow square frame around the stack, with SQ tab
      const pad = 5;
      grp.insertBefore(
        svg("g", { class: "marker marker-square", "pointer-events": "none" }, [
          svg("rect", { x: c.x - S / 2 - pad - 3, y: c.y - S / 2 - pad - 3, width: S + 2 * pad + 6, height: S + 2 * pad + 6, fill: "none", stroke: "#111", "stroke-width": 3.5 }),
          svg("rect", { x: c.x - S / 2 - pad - 3, y: c.y - S / 2 - pad - 3, width: S + 2 * pad + 6, height: S + 2 * pad + 6, fill: "none", stroke: "#fff", "stroke-width": 1.2 }),
        ]),
        grp.firstChild,
      );
      grp.appendChild(
        svg("g", { class: "marker marker-square-tab", "pointer-events": "none", transform: `translate(${c.x - S / 2 - 10},${c.y + S / 2 - 6})` }, [
          svg("rect", { width: 18, height: 12, rx: 2, fill: "#fff", stroke: "#111", "stroke-width": 1 }),
          svg("text", { x: 9, y: 9.5, "text-anchor": "middle", class: "marker-text small", text: "SQ" }),
        ]),
      );
    }
    if (expanded) later.push(grp);
    else layer.appendChild(grp);
  }
  for (const grp of later) layer.appendChild(grp); // expanded stack on top
}

/** A standalone small SVG of one counter for side panels and lists (`reading`: the edition's reading of its
 *  counters, editions/index.js: counter). */
export function counterIcon(scenario, unitId, state, S = 42, reading = null) {
  const def = unitDefs(scenario)[unitId] || { id: unitId, kind: "infantry", name: unitId };
  const root = svg("svg", { class: "counter-icon", viewBox: `-6 -7 ${S + 12} ${S + 12}`, width: S + 12, height: S + 12 });
  root.appendChild(counterSVG(def, state, scenario.sides[def.side], S, { showMoved: true, reading }));
  return root;
}
