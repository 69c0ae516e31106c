// The page's controls outside the panels: the map's zoom buttons and legend, the phone's sheet handle, and
// the keyboard. The keys every edition shares are here; an edition's own keys (and its own meaning of Esc)
// are asked of it first (editions/index.js: onEscape, onKey).

import { h, $, OKABE } from "../ui/dom.js";
import { legendSVG } from "../map.js";
import { S, page, myTurn } from "./store.js";
import { cancel, endPhase, undo, cycleUnits } from "./selection.js";
import { canCharge, setChargeMode } from "./charges.js";
import { goHistory } from "./history.js";

export function setupChrome() {
  const map = page.map;
  $("#zoom-in").addEventListener("click", () => map.zoomBy(1.25));
  $("#zoom-out").addEventListener("click", () => map.zoomBy(0.8));
  $("#zoom-reset").addEventListener("click", () => map.resetView());
  const legend = $("#legend");
  legend.appendChild(h("h3", { text: "Legend" }));
  legend.appendChild(legendSVG(S.scenario, map));
  const words = page.edition.legend || {};
  const extra = h("div.legend-extra", {}, [
    h("div", {}, [h("span.legend-swatch", { style: `background:${OKABE.sky}` }), "Reachable hex (MP cost)"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:${OKABE.yellow}` }), "Reachable, ends the move"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px solid ${OKABE.vermillion}` }), "Attack target"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px dashed ${OKABE.orange}` }), "Bombardment target"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px dashed ${OKABE.blue}` }), words.charge || "Charge target"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:none;border:3px solid ${OKABE.purple}` }), "A choice to make"]),
    h("div", {}, [h("span.legend-swatch", { style: `background:${OKABE.yellow}` }), "D marker: disrupted"]),
    words.counter ? h("div", { text: words.counter }) : null,
    words.marks ? h("div.legend-marks", { text: words.marks }) : null,
    h("div", { text: "Objective: a star with its victory points, in the colour of the side holding it (white: nobody)." }),
  ]);
  legend.appendChild(extra);
  if (page.edition.resultKey) $("#sec-key").appendChild(page.edition.resultKey());
  const lt = $("#legend-toggle");
  lt.addEventListener("click", () => {
    legend.hidden = !legend.hidden;
    lt.setAttribute("aria-expanded", String(!legend.hidden));
  });
  const panel = $("#panel");
  $("#sheet-handle").addEventListener("click", () => {
    if (panel.classList.contains("collapsed")) {
      panel.classList.remove("collapsed");
      panel.classList.add("full");
    } else if (panel.classList.contains("full")) panel.classList.remove("full");
    else panel.classList.add("collapsed");
  });
  document.addEventListener("keydown", onKey);
}

/** Is the key meant for the map (the page itself or the map area has the focus), not for a panel's control? */
export function onMap(t) {
  return t === document.body || !!(t && t.closest && t.closest(".map-area"));
}

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT") && t.type !== "range") return;
  if (document.querySelector("dialog[open]")) return;
  const k = e.key;
  if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "Z")) {
    e.preventDefault();
    undo();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const ed = page.edition;
  if (k === "Escape") {
    if (ed.onEscape && ed.onEscape()) return;
    if (S.chargeMode) {
      setChargeMode(false);
      return;
    }
    cancel();
    if (S.history) goHistory(null);
  } else if (k === "e" || k === "E") endPhase();
  else if (k === "u" || k === "U") undo();
  else if (k === "n" || k === "N") cycleUnits(1);
  else if (ed.onKey && ed.onKey(k, e)) return;
  else if (k === "c" || k === "C") {
    if (S.chargeMode || canCharge()) setChargeMode(!S.chargeMode);
  }
  else if (k === "Tab" && myTurn() && onMap(t)) {
    e.preventDefault();
    cycleUnits(e.shiftKey ? -1 : 1);
  } else if (k === "+" || k === "=") page.map.zoomBy(1.25);
  else if (k === "-") page.map.zoomBy(0.8);
  else if (k === "0") page.map.resetView();
  else if (k === "l" || k === "L") $("#legend-toggle").click();
}
