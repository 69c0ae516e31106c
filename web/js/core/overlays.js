// What the map shows over the counters: the pending decision's choices, entry hexes with units due, the
// selection's reachable hexes and targets (or its charge targets in charge mode), the path to the hovered hex;
// and the hover card. An edition draws its own layers between these (editions/index.js: phaseOverlays,
// overlays, selectionOverlays) and says how its own kinds of reachable hex look (reachLook).

import { h, clear, $, OKABE } from "../ui/dom.js";
import { rangeText } from "../ui/explain.js";
import { hexInfo } from "../ui/tecinfo.js";
import { S, page, currentView, myTurn, ruleOf } from "./store.js";
import { drawPromptChoices, promptChoiceTip, activeMapChoice } from "./prompt.js";
import { chargeMoveTargets } from "./charges.js";
import { offboardUnits } from "./offboard.js";

/** The phase's own marks: the edition's (set-up areas...), and entry hexes with my units due to come on. */
function renderPhaseOverlays(v) {
  const map = page.map;
  if (S.history || !S.view) return;
  const raw = S.phaseOptions && S.phaseOptions.raw;
  if (page.edition.phaseOverlays) page.edition.phaseOverlays(v, raw);
  if (v.phase === "movement" && myTurn()) {
    const rule = ruleOf("enter") ? ` (rule ${ruleOf("enter")})` : "";
    const due = new Map();
    for (const x of offboardUnits()) if (x.due && x.entry) due.set(x.entry, (due.get(x.entry) || 0) + 1);
    map.ringHexes([...due].filter(([hx]) => map.grid.contains(hx)).map(([hx, n]) => ({ hex: hx, colour: OKABE.blue, width: 4, dash: "2 3", label: `+${n}`, cls: "entry-hex", title: `${n} unit${n > 1 ? "s" : ""} waiting to enter here${rule}: click to select` })));
  }
}

export function renderOverlays(hoverOption = null) {
  const map = page.map;
  if (!map) return;
  map.clearOverlays();
  const v = currentView();
  renderPhaseOverlays(v);
  drawPromptChoices(hoverOption); // the pending decision's choices (core/prompt.js)
  const o = S.options;
  if (page.edition.overlays) page.edition.overlays(v);
  if (!o || !S.selected.length || S.history) return;
  if (S.chargeMode) {
    // charge targets instead of reachable hexes; the shortest path to the hovered one
    const ct = chargeMoveTargets();
    map.ringHexes([...ct.values()].map((t) => ({ hex: t.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${t.target} (by ${t.path.slice(1).join(", ")})` })));
    const hv = ct.get(S.chargeHover || S.hoverHex);
    if (hv) map.drawPath(hv.path, { colour: OKABE.blue, width: 5 });
    return;
  }
  // the edition's own mode may replace the selection's marks (true) or add to them
  if (page.edition.selectionOverlays && page.edition.selectionOverlays(v, o)) return;
  const shade = [];
  for (const [hex, r] of o.reach) {
    const look = page.edition.reachLook ? page.edition.reachLook(hex, r) : null;
    shade.push({ hex, colour: look ? look.colour : r.ends ? OKABE.yellow : OKABE.sky, label: r.cost ?? "", title: look ? look.title : r.cost === null ? `${hex}: reachable` : `${hex}: ${r.cost ?? "?"} MP${r.ends ? ", ends the move (enemy ZOC)" : ""}`, cls: "reach" });
  }
  map.shadeHexes(shade);
  map.ringHexes(o.attacks.map((a) => ({ hex: a.target, colour: OKABE.vermillion, label: a.preview && a.preview.differential !== undefined ? `${a.preview.differential > 0 ? "+" : ""}${a.preview.differential}` : a.unlisted ? "skirmish" : "attack", cls: "target attack-target", title: `Attack ${a.target}` })));
  map.ringHexes((o.illegal || []).map((a) => ({ hex: a.target, colour: "#555555", dash: "3 3", width: 2.5, label: "no", cls: "target illegal-target", title: a.message })));
  map.ringHexes(o.bombards.map((b) => ({ hex: b.target, colour: OKABE.orange, dash: "6 3", label: rangeText(b.range) || "bomb", cls: "target bombard-target", title: `Bombard ${b.target}` })));
  map.ringHexes(o.charges.filter((c) => c.kind === "charge").map((c) => ({ hex: c.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${c.target}` })));
  if (S.preview) {
    const it = S.preview.item;
    if (S.preview.kind === "bombard") map.drawLine(S.selHex, it.target, { colour: it.los === false ? "#777" : OKABE.orange, label: rangeText(it.range) || null });
    else if (S.preview.kind === "charge" && it.path) map.drawPath(it.path, { colour: OKABE.blue });
    else map.drawLine(S.selHex, it.target, { colour: OKABE.vermillion, dash: null, width: 4 });
  } else if (S.hoverHex && o.reach.get(S.hoverHex)) {
    const r = o.reach.get(S.hoverHex);
    if (r.path) map.drawPath(r.path);
  }
}

// ---------------------------------------------------------------- hover

const TIP_STYLE = "margin-top:4px;color:#56b4e9;font-weight:700";

export function onHover(hex, e) {
  const tip = $("#tip");
  if (S.hoverHex !== hex) {
    S.hoverHex = hex;
    // a map choice draws the hovered hex's paths; an edition may draw marks of the hovered hex (hoverOverlays)
    if ((S.options && !S.preview) || activeMapChoice() || page.edition.hoverOverlays) renderOverlays();
  }
  if (!hex || !e || e.pointerType === "touch") {
    tip.hidden = true;
    return;
  }
  clear(tip).appendChild(hexInfo(S.scenario, page.map.grid, hex, currentView(), page.edition.counter));
  const r = S.options && S.options.reach.get(hex);
  const ch = S.chargeMode ? chargeMoveTargets().get(hex) : null;
  const look = r && page.edition.reachLook ? page.edition.reachLook(hex, r) : null;
  if (ch) tip.appendChild(h("div", { style: "margin-top:4px;color:#0072b2;font-weight:700", text: `Charge ${hex}: click to move by ${ch.path.slice(1).join(", ")} and declare the charge` }));
  else if (look) tip.appendChild(h("div", { style: TIP_STYLE, text: look.tip }));
  else if (r && !S.chargeMode && r.cost === null && r.path) tip.appendChild(h("div", { style: TIP_STYLE, text: `Move here: ${r.path.length - 1} hex${r.path.length === 2 ? "" : "es"} within the MA` }));
  else if (r && !S.chargeMode) tip.appendChild(h("div", { style: TIP_STYLE, text: `Move here: ${r.cost ?? "?"} MP${r.ends ? " (ends move)" : ""}` }));
  const choice = promptChoiceTip(hex);
  if (choice) tip.appendChild(h("div.tip-choice", { style: "margin-top:4px;color:#e7a8d0;font-weight:700", text: choice }));
  tip.hidden = false;
  const pad = 16;
  const w = tip.offsetWidth;
  const hh = tip.offsetHeight;
  let x = e.clientX + pad;
  let y = e.clientY + pad;
  if (x + w > innerWidth - 4) x = e.clientX - w - pad;
  if (y + hh > innerHeight - 4) y = e.clientY - hh - pad;
  tip.style.left = `${Math.max(4, x)}px`;
  tip.style.top = `${Math.max(4, y)}px`;
}
