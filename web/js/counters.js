// Wargame counters as SVG: army colour, NATO symbol, id and formation,
// factors, reduced band, ineffective (flipped) look, D / square / charge
// markers, leaders with a star, and stacks drawn inside their hex (a pile, leader chips, a count badge).
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
export const FACING_ANGLES = { SE: 30, NE: -30, N: -90, NW: -150, SW: 150, S: 90, E: 0, NNE: -60, NNW: -120, W: 180, SSW: 120, SSE: 60 };
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

/** The reading of counters that print four factors along their foot, attack-defence-morale-movement (an artillery
 *  unit's range, one per unit, beside its symbol; a leader's reading the generic one): the editions whose counters
 *  read so take it as their `counter` (editions/index.js). */
export const FOUR_FACTOR_READING = {
  factors(def, f) {
    if (def.kind === "leader") return undefined;
    return `${f.attack ?? "?"}-${f.defense ?? "?"}-${f.mr ?? "?"}-${f.ma ?? "?"}`;
  },
  describe(def, f) {
    if (def.kind === "leader") return undefined;
    let s = `attack ${f.attack}, defence ${f.defense}, morale ${f.mr}, movement ${f.ma}`;
    const r = FOUR_FACTOR_READING.range(def, f);
    if (r) s += `, range ${r}`;
    if (f.charge) s += `, charge ${f.charge}`;
    return s;
  },
  range: (def) => (def.kind === "artillery" && def.range ? def.range : null),
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
  // the edition may name its units' kind in its own words (editions/index.js: counter.kind), e.g. a type it keeps
  // under another field than `kind`
  const kind = (reading && reading.kind && reading.kind(def)) || def.kind || "unit";
  return `${def.name} (${kind}${def.formation ? `, formation ${def.formation}` : ""}): ${factorText(def, state, reading)}${flags.length ? "; " + flags.join(", ") : ""}`;
}

/** NATO unit-type symbol in a box of w x h at (x, y), its lines `sw` wide in `ink` on `paper` (a leader: its star). */
export function natoSymbol(def, x, y, w, h, ink, paper = "#fff", sw = 1.1) {
  const g = svg("g", { class: "nato" });
  const k = def.kind;
  if (k === "leader") {
    g.appendChild(svg("path", { d: STAR(x + w / 2, y + h / 2, h * 0.62, h * 0.25), fill: "#f5d142", stroke: "#5a4300", "stroke-width": sw * 0.6 }));
    return g;
  }
  g.appendChild(svg("rect", { x, y, width: w, height: h, fill: paper, stroke: ink, "stroke-width": sw }));
  if (k === "infantry" || k === "battalion") {
    g.appendChild(svg("path", { d: `M${x},${y} L${x + w},${y + h} M${x + w},${y} L${x},${y + h}`, stroke: ink, "stroke-width": sw }));
  } else if (k === "cavalry" || k === "squadron") {
    g.appendChild(svg("path", { d: `M${x},${y + h} L${x + w},${y}`, stroke: ink, "stroke-width": sw }));
  } else if (k === "hq") {
    // a headquarters: the staff's flag
    g.appendChild(svg("path", { d: `M${x + w * 0.3},${y + h * 0.9} L${x + w * 0.3},${y + h * 0.12} L${x + w * 0.75},${y + h * 0.3} L${x + w * 0.3},${y + h * 0.5}`, stroke: ink, "stroke-width": sw * 1.1, fill: ink }));
  } else if (k === "trains") {
    // the trains: a wagon
    g.appendChild(svg("rect", { x: x + w * 0.2, y: y + h * 0.25, width: w * 0.6, height: h * 0.35, fill: "none", stroke: ink, "stroke-width": sw }));
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

/** A text's attributes that keep it across a counter of size S: a long factor line (an edition's flags, a range
 *  and a charge factor) is squeezed to the counter's width rather than running over its edges and out of the hex.
 *  The width is estimated from the characters (a bold digit is about 0.62 em, a hyphen or bracket about 0.4 em). */
function fitText(text, fontPx, S) {
  const str = String(text ?? "");
  // a small counter (an off-map box's, Königgrätz's at the whole-map size) keeps a margin of its own size, never
  // a negative width (which the browser refuses)
  const room = Math.max(S - 4, S * 0.6);
  return room > 0 && textEm(str) * fontPx > room ? { text: str, textLength: room.toFixed(1), lengthAdjust: "spacingAndGlyphs" } : { text: str };
}

/** A bold text's estimated width in em. */
function textEm(str) {
  return [...String(str)].reduce((w, ch) => w + (/[0-9A-Za-z]/.test(ch) ? 0.62 : 0.4), 0);
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
    g.appendChild(svg("text", { x: S / 2, y: S * 0.93, class: "c-factors", "text-anchor": "middle", fill: ink, style: `font-size:${(S * 0.23).toFixed(1)}px`, ...fitText(readCounter(opts.reading, "factors", def, f), S * 0.23, S) }));
  } else {
    // the name keeps clear of the formation's letters at the other end of the top edge
    const formWidth = def.formation ? textEm(def.formation) * 8 + 3 : 0;
    g.appendChild(svg("text", { x: 3, y: S * 0.2, class: "c-id", fill: ink, ...fitText(shortName(def), 8, S - formWidth - 2) }));
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
    g.appendChild(svg("text", { x: S / 2, y: S * 0.95, class: "c-factors", "text-anchor": "middle", fill: ink, ...fitText(readCounter(opts.reading, "factors", def, f), 9.5, S) }));
    if (f.red_dot) g.appendChild(svg("circle", { cx: S - 4, cy: S * 0.3, r: 2.6, fill: "#d7191c", stroke: "#fff", "stroke-width": 0.8, class: "red-dot" }));
  }
  // markers and rings stay within 2 units of the counter's edge, so a stack drawn by renderStacks stays in its hex
  if (state.disrupted) {
    g.appendChild(
      svg("g", { class: "marker marker-d", transform: `translate(${S - 11},${-2})` }, [
        svg("rect", { width: 13, height: 13, rx: 2, fill: OKABE.yellow, stroke: "#000", "stroke-width": 1 }),
        svg("text", { x: 6.5, y: 10.2, "text-anchor": "middle", class: "marker-text", text: "D" }),
      ]),
    );
  }
  if (state.charging) {
    g.appendChild(
      svg("g", { class: "marker marker-charge", transform: `translate(${-2},${-2})` }, [
        svg("rect", { width: 17, height: 13, rx: 2, fill: OKABE.vermillion, stroke: "#000", "stroke-width": 1 }),
        svg("path", { d: "M3,6.5 L12,6.5 M9,3 L13,6.5 L9,10", stroke: "#fff", "stroke-width": 1.8, fill: "none" }),
      ]),
    );
  }
  if (state.moved && opts.showMoved) {
    // on the counter's right edge, clear of the factors
    g.appendChild(svg("circle", { cx: S - 3.4, cy: S * 0.5, r: 3.2, fill: "#111", stroke: "#fff", "stroke-width": 1.1, class: "moved-dot" }));
  }
  // the rings are drawn just inside the edge (the selected one) and on it (the highlight), not around the counter
  if (opts.selected) g.appendChild(svg("rect", { x: 1.6, y: 1.6, width: S - 3.2, height: S - 3.2, rx: 2.5, fill: "none", stroke: OKABE.orange, "stroke-width": 3.2, class: "sel-ring" }));
  if (opts.highlight) g.appendChild(svg("rect", { x: -0.5, y: -0.5, width: S + 1, height: S + 1, rx: 3.5, fill: "none", stroke: OKABE.purple, "stroke-width": 3, "stroke-dasharray": "4 2", class: "hl-ring" }));
  return g;
}

/** Order a stack: combat units first, leaders on top so the star shows. */
export function stackOrder(ids, defs) {
  const rank = (id) => (defs[id] && defs[id].kind === "leader" ? 1 : 0);
  return [...ids].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

// How far a counter's markers and rings reach past its edge (counterSVG): the layout keeps that margin in the hex.
const MARKER_REACH = 2;
// A pile shows at most this many layers; the units under them are counted by the badge and listed by the popover.
const MAX_LAYERS = 3;

/**
 * Where the pieces of a stack go in its flat-topped hex (centre cx, cy; centre-to-corner R; counter size S), as a
 * wargame map stacks them: the `pile` units (the combat units, or the leaders when no combat unit is there) one on
 * another, each lower one peeking out up and to the right, at most three layers deep; the `chips` leaders riding
 * with combat units as small star chips left of the pile; the count badge right of it. Every box, widened by the
 * reach of a counter's markers, lies inside the hex (tests/web/test_stacks_ui.py checks it on the page).
 * @returns {{layers: {x, y, size}[], chips: {x, y, size}[], badge: {x, y, r}}} top-left corners, top layer first
 */
export function stackLayout(cx, cy, R, S, pile, chips) {
  const step = R * 0.0625;
  const depth = Math.min(Math.max(pile, 1), MAX_LAYERS);
  const spread = (depth - 1) * step;
  const layers = [];
  for (let i = 0; i < pile; i++) {
    const j = Math.min(i, depth - 1);
    layers.push({ x: cx - S / 2 - spread / 2 + j * step, y: cy - S / 2 + spread / 2 - j * step, size: S });
  }
  const out = [];
  if (pile > 0 && chips > 0) {
    const m = R * 0.24;
    const right = cx - S / 2 - spread / 2 - MARKER_REACH - R * 0.02;
    const shown = Math.min(chips, MAX_LAYERS);
    for (let k = 0; k < chips; k++) out.push({ x: right - m, y: cy - m / 2 + (Math.min(k, shown - 1) - (shown - 1) / 2) * R * 0.075, size: m });
  }
  const r = R * 0.13;
  return { layers, chips: out, badge: { x: cx + S / 2 + spread / 2 + MARKER_REACH + r + R * 0.005, y: cy, r } };
}

/** A leader riding with combat units: a small chip in its side's colour with the leader's star (its name and
 *  factors in its title, the hover card and the stack's popover). */
function leaderChip(def, state, side, m, opts) {
  const base = (side && side.color) || "#777777";
  const ineff = !!state.ineffective || !!state.flipped;
  const label = describeUnit(def, state, { showMoved: !!opts.showMoved, reading: opts.reading });
  const g = svg("g", { class: `counter k-leader leader-chip${ineff ? " ineffective" : ""}${opts.selected ? " selected" : ""}`, "data-unit": def.id, role: "img", "aria-label": label }, [
    svg("title", { text: label }),
    svg("rect", { x: 0, y: 0, width: m, height: m, rx: 1.5, fill: ineff ? tint(base, 0.55) : base, stroke: opts.selected ? OKABE.orange : "#111", "stroke-width": opts.selected ? 2 : 0.8, class: "c-body" }),
    svg("path", { d: STAR(m / 2, m * 0.53, m * 0.42, m * 0.17), fill: "#f5d142", stroke: "#5a4300", "stroke-width": 0.5 }),
  ]);
  if (opts.highlight) g.appendChild(svg("rect", { x: -0.5, y: -0.5, width: m + 1, height: m + 1, fill: "none", stroke: OKABE.purple, "stroke-width": 1.5, class: "hl-ring" }));
  return g;
}

/** The units of a view on the map, by hex. */
export function unitsByHex(view, grid) {
  const byHex = new Map();
  for (const [id, st] of Object.entries(view.units || {})) {
    if (!st || !st.hex || (st.status && st.status !== "map")) continue;
    if (!grid.contains(st.hex)) continue;
    if (!byHex.has(st.hex)) byHex.set(st.hex, []);
    byHex.get(st.hex).push(id);
  }
  return byHex;
}

/** A stack's pile (top first) and its riding leaders: the combat units with the selected ones on top (a unit
 *  picked from the popover comes up to be read), or the leaders when no combat unit is there. */
export function stackParts(ids, defs, selected = new Set()) {
  const order = stackOrder(ids, defs);
  const isLeader = (id) => !!(defs[id] && defs[id].kind === "leader");
  const combat = order.filter((id) => !isLeader(id));
  const leaders = order.filter(isLeader);
  const pile = combat.length ? combat : leaders;
  const up = pile.filter((id) => selected.has(id));
  const ordered = up.length && up.length < pile.length ? [...up, ...pile.filter((id) => !selected.has(id))] : pile;
  return { pile: ordered, chips: combat.length ? leaders : [] };
}

/**
 * Draw every stack of a view into a layer, each inside its hex.
 * opts: {selected:Set, highlight:Set, reading: the edition's reading of its counters, open: the hex whose stack
 * the popover lists (its stack gets the class "open")}
 */
export function renderStacks(layer, mapView, view, opts = {}) {
  const sc = mapView.scenario;
  const defs = unitDefs(sc);
  const g = mapView.grid;
  const S = Math.round(g.size * 1.02);
  const sq = view.squares || [];
  const squares = new Set(Array.isArray(sq) ? sq : Object.keys(sq));
  const selected = opts.selected || new Set();
  for (const [hex, ids] of unitsByHex(view, g)) {
    const { pile, chips } = stackParts(ids, defs, selected);
    const c = g.center(hex);
    const n = ids.length;
    const lay = stackLayout(c.x, c.y, g.size, S, pile.length, chips.length);
    const grp = svg("g", { class: `stack${n > 1 ? " stacked" : ""}${opts.open === hex ? " open" : ""}`, "data-hex": hex, "data-count": n });
    const counterOpts = (id, def) => ({
      selected: selected.has(id),
      highlight: opts.highlight && opts.highlight.has(id),
      reading: opts.reading,
      showMoved: def.side === view.active && ["movement", "recovery", "combat"].includes(view.phase), // its own player-turn only
    });
    // bottom first, so the top unit is drawn last and reads in full
    for (let i = pile.length - 1; i >= 0; i--) {
      const id = pile[i];
      const def = defs[id] || { id, kind: "infantry", name: id, side: "?" };
      const cg = counterSVG(def, view.units[id], sc.sides[def.side], S, counterOpts(id, def));
      cg.setAttribute("transform", `translate(${lay.layers[i].x.toFixed(1)},${lay.layers[i].y.toFixed(1)})`);
      cg.setAttribute("data-hex", hex);
      cg.setAttribute("data-layer", String(i));
      grp.appendChild(cg);
    }
    chips.forEach((id, k) => {
      const def = defs[id] || { id, kind: "leader", name: id, side: "?" };
      const at = lay.chips[k];
      const cg = leaderChip(def, view.units[id] || {}, sc.sides[def.side], at.size, counterOpts(id, def));
      cg.setAttribute("transform", `translate(${at.x.toFixed(1)},${at.y.toFixed(1)})`);
      cg.setAttribute("data-hex", hex);
      grp.appendChild(cg);
    });
    for (const id of ids) {
      // a unit's facing, where the view gives one: a wedge at the faced hexside or apex, in its side's colour
      const pts = facingWedge(view.units[id].facing, c.x, c.y, g.size);
      if (!pts) continue;
      const side = sc.sides[(defs[id] || {}).side];
      grp.appendChild(svg("polygon", { class: "facing", "data-unit": id, "pointer-events": "none", points: pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "), fill: (side && side.color) || "#777777", stroke: "#111", "stroke-width": 1 }));
    }
    if (n > 1) {
      const b = lay.badge;
      grp.appendChild(
        svg("g", { class: "stack-badge", "pointer-events": "none" }, [
          svg("circle", { cx: b.x, cy: b.y, r: b.r, fill: "#111", stroke: "#fff", "stroke-width": 1 }),
          svg("text", { x: b.x, y: b.y + 3.1, "text-anchor": "middle", class: "badge-text", text: String(n) }),
        ]),
      );
    }
    if (squares.has(hex)) grp.appendChild(squareMarker(lay.layers, S, c));
    layer.appendChild(grp);
  }
}

/** A square (the formation) around its pile: a hollow frame hugging the pile and an SQ tab above it, in the hex. */
function squareMarker(layers, S, c) {
  const xs = layers.map((l) => l.x);
  const ys = layers.map((l) => l.y);
  const x0 = Math.min(...xs) - 1;
  const y0 = Math.min(...ys) - 1;
  const w = Math.max(...xs) + S + 1 - x0;
  const hgt = Math.max(...ys) + S + 1 - y0;
  return svg("g", { class: "marker marker-square", "pointer-events": "none" }, [
    svg("rect", { x: x0, y: y0, width: w, height: hgt, fill: "none", stroke: "#111", "stroke-width": 2.6 }),
    svg("rect", { x: x0, y: y0, width: w, height: hgt, fill: "none", stroke: "#fff", "stroke-width": 1 }),
    svg("g", { class: "marker-square-tab", transform: `translate(${(c.x - 9).toFixed(1)},${(y0 - 9).toFixed(1)})` }, [
      svg("rect", { width: 18, height: 10, rx: 2, fill: "#fff", stroke: "#111", "stroke-width": 1 }),
      svg("text", { x: 9, y: 8, "text-anchor": "middle", class: "marker-text small", text: "SQ" }),
    ]),
  ]);
}

/** A standalone small SVG of one counter for side panels and lists (`reading`: the edition's reading of its
 *  counters, editions/index.js: counter). */
export function counterIcon(scenario, unitId, state, S = 42, reading = null) {
  const def = unitDefs(scenario)[unitId] || { id: unitId, kind: "infantry", name: unitId };
  const root = svg("svg", { class: "counter-icon", viewBox: `-6 -7 ${S + 12} ${S + 12}`, width: S + 12, height: S + 12 });
  root.appendChild(counterSVG(def, state, scenario.sides[def.side], S, { showMoved: true, reading }));
  return root;
}
