// Musket & Pike's marks on the map (R17.15, R17.16): under each counter a tag with its wing's order and its state
// (mode, formation condition, morale, Casualty Points, Salvo marker), coloured by its wing's activation (green: the
// active wing, grey: activated this turn, dark: not yet); the kernel's facing wedge is drawn by counters.js. While a
// move's destination is chosen, its path and the six hexes around it, each labelled with the facing a click on it
// gives; the selected unit's fire and close-combat targets, ringed.

import { svg, OKABE } from "../../ui/dom.js";
import { ORDER_SHORT, ORDER_NAMES, unitTag, stateWords } from "./words.js";

/** The wing state a tag is coloured by: "active", "activated", "collapsed" or "waiting". */
export function wingLook(w) {
  if (!w) return "waiting";
  if (w.active) return "active";
  if (w.collapsed) return "collapsed";
  return w.activated ? "activated" : "waiting";
}

const LOOK_FILL = { active: OKABE.green, activated: "#777", collapsed: OKABE.vermillion, waiting: "#222" };
const LOOK_WORDS = { active: "acting now", activated: "activated this turn", collapsed: "collapsed", waiting: "not yet activated" };

/** Draw every unit's tag on the map's top overlay. */
export function drawTags(map, view, defs) {
  const mp = view && view["musket-and-pike"];
  if (!mp || !map) return;
  const g = map.grid;
  const layer = map.layers.overlayTop;
  const byHex = new Map();
  for (const [id, u] of Object.entries(mp.units || {})) {
    const vu = (view.units || {})[id];
    if (!vu || !vu.hex || vu.status !== "map" || !g.contains(vu.hex)) continue;
    if (!byHex.has(vu.hex)) byHex.set(vu.hex, []);
    byHex.get(vu.hex).push([id, u]);
  }
  for (const [hex, list] of byHex) {
    const c = g.center(hex);
    list.forEach(([id, u], i) => {
      const d = defs[id] || {};
      const wing = (mp.wings || {})[d.wing];
      const look = wingLook(wing);
      const order = wing ? ORDER_SHORT[wing.order] || wing.order : "";
      const state = unitTag(u);
      const text = [order, state].filter(Boolean).join(" · ");
      const hurt = u.morale !== "normal" || u.cond !== "normal" && u.cond !== null || u.cp;
      const w = Math.max(g.size * 0.9, text.length * 5.4 + 6);
      layer.appendChild(svg("g", { class: `mp-tag mp-${look}${hurt ? " mp-hurt" : ""}`, "data-unit": id, "data-wing": d.wing || "", "data-order": wing ? wing.order : "", "data-look": look, "data-mode": u.mode, "data-cond": u.cond || "", "data-morale": u.morale, "data-cp": String(u.cp || 0), "pointer-events": "none" }, [
        svg("rect", { x: c.x - w / 2, y: c.y + g.size * 0.46 + i * 11, width: w, height: 11, rx: 2, fill: LOOK_FILL[look], stroke: hurt ? OKABE.vermillion : "#fff", "stroke-width": hurt ? 1.6 : 0.6, opacity: 0.92 }),
        svg("text", { x: c.x, y: c.y + g.size * 0.46 + 8.5 + i * 11, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700, fill: "#fff", text }),
        svg("title", { text: `${d.name || id}: ${wing ? `${wing.name}, ${ORDER_NAMES[wing.order] || wing.order}, ${LOOK_WORDS[look]}; ` : ""}${stateWords(d, u).join(", ")} (R17.15)` }),
      ]));
    });
  }
}

/** A move's destination being faced (R17.16): its path, the hex ringed, the six hexes around it labelled with the
 *  facing a click there gives (the way it went, marked "went", is also a click on the destination itself). */
export function drawFacingChoice(map, dest, path, facings, went) {
  const g = map.grid;
  if (path && path.length > 1) map.drawPath(path, { colour: OKABE.blue, width: 5 });
  map.ringHexes([{ hex: dest, colour: OKABE.blue, width: 5, label: "face?", cls: "mp-dest", title: `${dest}: click it again to face ${went} (the way it went), or click a hex around it to face that way (R17.16)` }]);
  const items = [];
  for (const [hx, f] of facings) {
    items.push({ hex: hx, colour: f === went ? OKABE.blue : OKABE.sky, label: f, cls: `mp-face mp-face-${f}`, title: `Move to ${dest} and face ${f} (toward ${hx}, rule R17.16)` });
  }
  map.shadeHexes(items, { opacity: 0.3 });
}

/** The selected unit's targets: fire (vermillion) or close combat (purple-blue), ringed with a word. */
export function drawTargets(map, targets) {
  map.ringHexes(targets.map((t) => ({ hex: t.hex, colour: t.kind === "close_combat" ? OKABE.blue : OKABE.vermillion, width: t.hot ? 6 : 4, dash: t.kind === "close_combat" ? "8 4" : null, label: t.kind === "close_combat" ? "melee" : "fire", cls: `target mp-target mp-target-${t.kind}`, title: t.title })));
}
