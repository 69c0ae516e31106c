// The set-up phase every edition with placements shares: the counters a player may place, each with its area in
// words (from the referee's options: `placements` {unit: {hexes, text?, rule?, placed?}}), the selected counter's
// hexes shaded on the map, every area outlined while nothing is selected, a click on any hex sending the placement
// (the referee refuses a hex outside the area with its rule), and the edition's buttons ("Place the rest as
// printed", "End set-up"). The edition gives the words: `describe(pl)` and the rule.

import { h, OKABE } from "../ui/dom.js";
import { counterIcon } from "../counters.js";
import { S, page, defs } from "./store.js";
import { send } from "./sync.js";
import { select, cancel } from "./selection.js";

const nameOf = (id) => (defs()[id] ? defs()[id].name : id);

/** The hexes the referee allows the one selected counter, shaded on the map as placements, with a note. */
export function setupReach(o, rawOpts, { describe, rule }) {
  const u = S.selected[0];
  const pl = (rawOpts.placements || {})[u];
  if (S.selected.length === 1 && pl) {
    o.setupUnit = u;
    const here = S.view.units[u] && S.view.units[u].hex;
    for (const hx of pl.hexes) if (hx !== here) o.reach.set(hx, { cost: "", path: null, place: true });
    o.notes.push({ text: `Set-up: ${nameOf(u)} sets up ${describe(pl)}. Click a shaded hex (the referee refuses any other with its rule), then end the set-up.`, rule: pl.rule || rule });
  } else if (S.selected.length > 1) {
    o.notes.push({ text: "Select one unit to place it (click it in the Set-up list to keep only it).", rule });
  } else {
    o.notes.push({ text: "This unit sets up exactly at its listed hex. End the set-up when your placements are done.", rule });
  }
}

/** A click on any hex with one counter of the set-up selected places it there: a hex outside its area is refused
 *  by the referee with its rule and sentence (shown as the refusal toast). */
export function setupCommandAt(hex, o) {
  if (!S.view || S.view.phase !== "setup" || S.selected.length !== 1 || !o || !o.setupUnit) return null;
  const u = o.setupUnit;
  if (S.view.units[u] && S.view.units[u].hex === hex) return null;
  return { type: "place", unit: u, hex };
}

/** The Set-up box: the counters to place (unplaced first) with their areas, and the edition's buttons. */
export function renderSetupPanel(sec, raw, v, { describe, rule, intro, buttons = [] }) {
  const pl = raw.placements || {};
  const ids = Object.keys(pl).sort((a, b) => Number(!!(v.units[a] || {}).hex) - Number(!!(v.units[b] || {}).hex));
  sec.hidden = false;
  sec.appendChild(h("h3", {}, ["Set-up", h("span.rule", { text: `rule ${rule}` })]));
  if (!ids.length) {
    sec.appendChild(h("div.whose-sub", { text: "Every counter of yours sets up exactly at its listed hex: nothing to place. End the set-up (E)." }));
  } else {
    sec.appendChild(h("div.whose-sub", { text: intro }));
    const ul = h("div.off-units#setup-units", { role: "group", "aria-label": "Counters that may be placed" });
    for (const id of ids) {
      const u = v.units[id] || {};
      const where = describe(pl[id]);
      ul.appendChild(h(`button.off-unit${u.hex ? ".due" : ".unplaced"}`, { type: "button", "data-unit": id, "data-placed": u.hex ? "yes" : "no", title: `${nameOf(id)}: ${where}${u.hex ? ` (now in ${u.hex})` : " (not placed yet)"}`, onclick: () => { select(u.hex || null, [id]); if (u.hex) page.map.centerOn(u.hex); } }, [counterIcon(S.scenario, id, u, 34, page.edition.counter), h("span.off-when", { text: u.hex ? `${u.hex} · ${where}` : `to place · ${where}` })]));
    }
    sec.appendChild(ul);
  }
  const bar = h("div.setup-actions");
  for (const b of buttons) {
    bar.appendChild(h(`button.btn.small${b.primary ? ".primary" : ""}`, { type: "button", id: b.id, text: b.label, disabled: !!b.disabled, title: b.title || "", onclick: () => { cancel(false); send(b.command); } }));
    if (b.note) bar.appendChild(h("div.whose-sub.setup-note", { text: b.note }));
  }
  if (buttons.length) sec.appendChild(bar);
}

/** Every counter's area outlined during my set-up while nothing is selected. */
export function setupOverlays(v, raw, { describe, rule }) {
  if (!(raw && v.phase === "setup" && raw.placements && !S.selected.length)) return;
  const rings = [];
  const seen = new Set();
  for (const [id, pl] of Object.entries(raw.placements)) {
    for (const hx of pl.hexes) {
      if (seen.has(hx)) continue;
      seen.add(hx);
      rings.push({ hex: hx, colour: OKABE.green || "#009e73", width: 2.5, dash: "4 3", cls: "setup-area", title: `Set-up area of ${nameOf(id)} (${describe(pl)}, rule ${pl.rule || rule})` });
    }
  }
  page.map.ringHexes(rings);
}
