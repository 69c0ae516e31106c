// The trail: what the other side just did, drawn on the map (each move, advance and retreat as an arrow from the
// hex it began in, each attacked hex outlined with its result) and told beside it in "What just happened", until
// the player's next command in its own turn or the "Clear" button. Which log entries make it and how their events
// read as actions and words is ui/summary.js's; this draws them and keeps the panel.
//
// It reads only the log entries the page already holds (S.log): the server filters their events for this viewer
// (server/rules/kernel/visibility.py), so nothing is drawn that the log does not already show. A path that names
// no unit (a hidden-movement marker's) is never drawn: the route of a marker is its owner's secret (19.8 A).

import { svg, clear, $, h, OKABE } from "../ui/dom.js";
import { renderSummary, summaryLines, actionOf, trailEntries } from "../ui/summary.js";
import { S, page, defs, nameOf, sideName, playerName } from "./store.js";

function sideOfUnits(units, fallback) {
  const d = defs();
  for (const u of units || []) if (d[u] && d[u].side) return d[u].side;
  return fallback;
}

function colourOf(side) {
  const s = side && S.scenario.sides[side];
  return (s && s.color) || "#777777";
}

/** A dark casing under a light line and a light one under a dark line, so that every side's trail reads on the map. */
function casingFor(colour) {
  const n = parseInt(String(colour).slice(1), 16);
  const lum = (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return lum > 0.55 ? "#1f1d1a" : "#ffffff";
}

// ---------------------------------------------------------------- the map

let layer = null;
let labels = null;
let drawnKey = "";

function trailLayer(map) {
  if (!layer || layer.ownerSVGElement !== map.svg) {
    // under the selection's overlays and the counters: the trail is background to the decision at hand
    layer = svg("g", { class: "layer layer-trail", "pointer-events": "none" });
    map.viewport.insertBefore(layer, map.layers.overlayFill);
  }
  return layer;
}

function labelLayer(map) {
  if (!labels || labels.ownerSVGElement !== map.svg) {
    // the results' labels above the counters, which would hide them, and under the selection's own marks
    labels = svg("g", { class: "layer layer-trail-labels", "pointer-events": "none" });
    map.viewport.insertBefore(labels, map.layers.overlayTop);
  }
  return labels;
}

function arrowFor(map, colour) {
  const id = map.pid(`trail-arrow-${colour.replace("#", "")}`);
  if (!map.defs.querySelector(`#${CSS.escape(id)}`)) {
    map.defs.appendChild(
      svg("marker", { id, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.4, markerHeight: 3.4, orient: "auto" }, [
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour, stroke: casingFor(colour), "stroke-width": 1.2 }),
      ]),
    );
  }
  return `url(#${id})`;
}

function drawPath(map, L, a, side) {
  const g = map.grid;
  const pts = a.path.filter((x) => g.contains(x)).map((x) => g.center(x));
  if (pts.length < 2) return;
  // the arrow stops at the edge of the counter that now stands in the last hex, so that its head shows
  const [p0, p1] = pts.slice(-2);
  const len = Math.hypot(p1.x - p0.x, p1.y - p0.y) || 1;
  const trim = Math.min(len * 0.6, g.size * 0.5);
  pts[pts.length - 1] = { x: p1.x - ((p1.x - p0.x) / len) * trim, y: p1.y - ((p1.y - p0.y) / len) * trim };
  const colour = colourOf(side);
  const d = pts.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const dash = a.kind === "retreat" ? "7 5" : null;
  L.appendChild(
    svg("g", { class: `trail-path trail-${a.kind}`, "data-kind": a.kind, "data-from": a.path[0], "data-to": a.path[a.path.length - 1], "data-units": a.units.join(" "), "data-side": side || "", "data-seq": a.seq }, [
      svg("title", { text: a.sentence }),
      svg("circle", { class: "trail-origin", cx: pts[0].x.toFixed(1), cy: pts[0].y.toFixed(1), r: (g.size * 0.16).toFixed(1), fill: colour, stroke: casingFor(colour), "stroke-width": 2 }),
      svg("path", { class: "trail-casing", d, fill: "none", stroke: casingFor(colour), "stroke-width": 7, "stroke-linecap": "round", "stroke-linejoin": "round", opacity: 0.75, "stroke-dasharray": dash }),
      svg("path", { class: "trail-line", d, fill: "none", stroke: colour, "stroke-width": 4, "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-dasharray": dash, "marker-end": arrowFor(map, colour) }),
    ]),
  );
}

/** An attacked hex: a dashed outline under the counters, its label (the result, once known) above them. */
function drawTarget(map, L, top, hex, t) {
  const g = map.grid;
  if (!g.contains(hex)) return;
  const c = g.center(hex);
  L.appendChild(
    svg("g", { class: "trail-target", "data-hex": hex, "data-seq": t.seq }, [
      svg("title", { text: t.title }),
      svg("polygon", { points: g.polygonPoints(hex, 0.93), fill: OKABE.vermillion, "fill-opacity": 0.16, stroke: OKABE.vermillion, "stroke-width": 3.5, "stroke-dasharray": "9 4" }),
    ]),
  );
  const w = Math.max(34, 7 * t.label.length + 10);
  top.appendChild(
    svg("g", { class: "trail-target-label", "data-hex": hex }, [
      svg("rect", { x: c.x - w / 2, y: c.y - g.h / 2 - 3, width: w, height: 14, rx: 3, fill: OKABE.vermillion, stroke: "#fff", "stroke-width": 1 }),
      svg("text", { x: c.x, y: c.y - g.h / 2 + 8, "text-anchor": "middle", class: "overlay-text trail-label", text: t.label }),
    ]),
  );
}

/** Draw the trail's actions: paths first, then each attacked hex once, labelled with its latest result. */
function drawTrail(map, actions) {
  const L = clear(trailLayer(map));
  const top = clear(labelLayer(map));
  const targets = new Map(); // hex -> {label, seq, title}
  let lastTarget = null;
  for (const a of actions) {
    if (a.path) drawPath(map, L, a, sideOfUnits(a.units, a.side));
    if ((a.kind === "attack" || a.kind === "bombard" || a.kind === "charge") && a.target) {
      lastTarget = a.target;
      targets.set(a.target, { label: a.kind === "bombard" ? "bombarded" : "attacked", seq: a.seq, title: a.sentence });
    }
    const hit = a.kind === "result" && (a.target || lastTarget);
    if (hit && targets.has(hit)) targets.get(hit).label = a.result;
  }
  for (const [hex, t] of targets) drawTarget(map, L, top, hex, t);
}

// ---------------------------------------------------------------- the whole

/** Redraw the trail and the summary from the log (called by renderAll and when the log arrives). */
export function renderTrail() {
  const map = page.map;
  if (!map || !S.scenario) return;
  const seat = S.role === "seat" ? S.side : null;
  const live = !S.history;
  const picked = live ? trailEntries(S.log, { seat, cleared: S.trailCleared ?? -1 }) : [];
  const key = `${seat}|${picked.map((it) => `${it.entry.seq}:${it.events.length}`).join(",")}`;
  if (key === drawnKey && $("#sec-trail")) return;
  drawnKey = key;
  const actions = [];
  for (const { entry, events } of picked) {
    for (const ev of events) {
      const a = actionOf(ev);
      if (a) actions.push({ ...a, seq: entry.seq, side: entry.side });
    }
  }
  const lines = summaryLines(actions, nameOf).map((l) => {
    for (const a of l.actions) a.sentence = l.text;
    return { ...l, sideName: sideName(l.side), colour: colourOf(l.side) };
  });
  drawTrail(map, actions);
  const others = [...new Set(lines.map((l) => l.side))].filter((side) => side !== seat);
  renderSummary(summarySection(), {
    lines,
    heading: "What just happened",
    sub: seat ? `${others.map(whoPlays).join(" and ") || "The other side"} since your last move:` : "The last two player-turns:",
    onClear: () => {
      S.trailCleared = picked.length ? picked[picked.length - 1].entry.seq : S.trailCleared;
      renderTrail();
    },
  });
}

function whoPlays(side) {
  const who = playerName(side);
  return who ? `${sideName(side)} (${who})` : sideName(side);
}

/** The summary's section, beside the map under the status: made once. */
function summarySection() {
  let sec = $("#sec-trail");
  if (!sec) {
    sec = h("section.panel-section.trail-box#sec-trail", { "aria-label": "What just happened", "aria-live": "polite", hidden: true });
    const status = $("#sec-status");
    if (status) status.after(sec);
    else $("#panel-scroll").prepend(sec);
  }
  return sec;
}
