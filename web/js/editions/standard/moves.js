// How a Standard stack moves, beyond clicking a shaded hex: the normal move or the march (4.7), a move whose MA
// is rolled and so must be declared first (4.4) or given up (Stay), leaving the map from an edge hex (4.1), and a
// leader's movement assist (10.3), plotted hex by hex on the map because the referee's options give the reach of
// the unassisted move only. The move bar in the selection panel, the map's marks and the keys for all of them.

import { distance } from "../../hexgeom.js";
import { h, OKABE } from "../../ui/dom.js";
import { toast } from "../../ui/chrome.js";
import { S, page, defs, myTurn } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { select, selectOffboard, cancel } from "../../core/selection.js";
import { renderSelection } from "../../core/selectionpanel.js";
import { renderOverlays } from "../../core/overlays.js";
import { onMap } from "../../core/controls.js";
import { standardOptions, isEdgeHex, neighbours } from "./options.js";

/** The options answer for the selection, read for the move the page shows (normal or march). */
export function readOptions(raw) {
  return standardOptions(raw, { mode: S.stdMode, selected: S.selected, selHexes: S.selHexes, defs: defs(), view: S.view, shifted: (S.scenario.map || {}).shifted || "even", side: S.side, sc: S.scenario });
}

/** A new selection shows its normal move first (M: march, 4.7); leaving the map and the assist start off. */
export function resetSelection(how) {
  if (how !== "cancel") S.stdMode = "normal";
  S.offMap = false;
  if (how !== "offboard") {
    S.assist = null;
    S.plot = null;
  }
}

/** 4.4: the declared units do not move after all. */
export function stay() {
  const d = S.view && S.view.standard && S.view.standard.declared;
  if (!myTurn() || !d) return;
  cancel();
  send({ type: "stay" });
}

/** 4.4: select the units whose move was declared, to click where they go. */
export function selectDeclared() {
  const d = S.view && S.view.standard && S.view.standard.declared;
  if (!d) return;
  const st = S.view.units[d.units[0]] || {};
  if (st.status === "map") {
    select(st.hex, [...d.units]);
    page.map.centerOn(st.hex);
  } else selectOffboard([...d.units]);
}

/** 4.4: declare the selection's move (or march) whose MA must be rolled: the roll is made at once. */
function declareMove() {
  const o = S.options;
  if (!myTurn() || !o || !o.move || !o.move.declare || !S.selected.length) return;
  const cmd = { type: "declare", units: [...S.selected] };
  if (o.mode === "march") cmd.march = true;
  else if (S.assist) cmd.assist = S.assist; // 10.3: the leader's movement is added to the rolled MA
  send(cmd);
}

/** 10.3: the leaders of the selection who could assist its normal move (moving with the stack, combat units in it). */
function assistLeaders() {
  const o = S.options;
  if (S.view.phase !== "movement" || !o || !o.std || o.declaredMine || o.mode === "march" || S.offSel || S.selHexes.length !== 1) return [];
  const d = defs();
  if (!S.selected.some((u) => d[u] && !["leader", "hq", "trains"].includes(d[u].kind))) return [];
  const assisted = new Set((S.view.standard && S.view.standard.assisted) || []); // 10.3: one assist a turn
  return S.selected.filter((u) => d[u] && d[u].kind === "leader" && !(S.view.units[u] || {}).ineffective && !assisted.has(u));
}

/** 10.3: the leader's movement assist (A): off, then each leader of the selection in turn. With it on, a move
 *  whose MA is rolled is declared with it (D); any other is plotted hex by hex on the map (the referee's options
 *  give the reach of the unassisted move only) and sent by clicking its last hex again or Enter. */
function toggleAssist() {
  const ls = assistLeaders();
  if (!ls.length) {
    if (S.assist) S.assist = null;
    return;
  }
  const i = ls.indexOf(S.assist);
  S.assist = i + 1 < ls.length ? ls[i + 1] : null;
  S.plot = S.assist && !(S.options.move && S.options.move.declare) ? [S.selHex] : null;
  S.offMap = false;
  renderOverlays();
  renderSelection();
}

/** 10.3: a click while plotting an assisted move: extend the path to a neighbour of its end, step back to an
 *  earlier hex, or send it (its last hex again). */
function plotClick(hex) {
  const path = S.plot;
  const end = path[path.length - 1];
  if (hex === end && path.length > 1) return sendPlot();
  const at = path.indexOf(hex);
  if (at >= 0) {
    S.plot = path.slice(0, at + 1);
  } else if (distance(end, hex, (S.scenario.map || {}).shifted || "even") === 1 && page.map.grid.contains(hex)) {
    S.plot = [...path, hex];
  } else {
    toast(`${hex} is not next to ${end}: plot the move one hex at a time (or press A to stop the leader's assist).`, { kind: "error", rule: "10.3" });
    return;
  }
  renderOverlays();
  renderSelection();
}

function sendPlot() {
  if (!S.plot || S.plot.length < 2 || !S.assist) return;
  send({ type: "move", units: [...S.selected], path: [...S.plot], assist: S.assist });
  cancel(false);
}

/** 4.7: show the march move instead of the normal one, or back. */
function toggleMarch() {
  if (!S.selected.length || !S.options || !S.options.std) return;
  const raw = S.options.std;
  if (S.options.declaredMine) return;
  const next = S.stdMode === "march" ? "normal" : "march";
  if (!raw[next]) {
    const err = raw[`${next}_error`];
    if (err) toast(err.message, { kind: "error", rule: err.rule });
    return;
  }
  S.stdMode = next;
  S.options = readOptions({ options: raw });
  renderOverlays();
  renderSelection();
}

/** 4.1: the next click on an edge hex takes the selection off the map. */
function toggleOffMap() {
  if (!S.selected.length || S.offSel || S.view.phase !== "movement") return;
  S.offMap = !S.offMap;
  renderOverlays();
  renderSelection();
}

/** The move bar in the selection panel: normal or march, declare, stay, the leader's assist, leave the map. */
export function moveBar(o) {
  if (S.view.phase !== "movement" || !myTurn() || !o.std) return null;
  const bar = h("div.actions.std-move-bar#std-move-bar", { style: "margin-top:6px" });
  const raw = o.std || {};
  if (!o.declaredMine) {
    for (const m of ["normal", "march"]) {
      if (!raw[m]) continue;
      bar.appendChild(h(`button.btn.small.std-mode${o.mode === m ? ".on" : ""}`, { type: "button", id: `std-mode-${m}`, "aria-pressed": o.mode === m ? "true" : "false", title: m === "march" ? "rule 4.7" : "rule 4.2", onclick: () => { if (o.mode !== m) toggleMarch(); } }, m === "march" ? ["March ", h("kbd", { text: "M" })] : "Normal move"));
    }
  }
  if (o.move && o.move.declare) bar.appendChild(h("button.btn.small.primary#std-declare", { type: "button", title: "rule 4.4", onclick: declareMove }, [`Declare the ${o.mode === "march" ? "march" : "move"} and roll its MA `, h("kbd", { text: "D" })]));
  if (o.declaredMine) bar.appendChild(h("button.btn.small#std-stay-sel", { type: "button", title: "rule 4.4", onclick: stay }, ["Stay ", h("kbd", { text: "S" })]));
  const helpers = assistLeaders();
  if (helpers.length) {
    const nm = (u) => (defs()[u] ? defs()[u].name : u);
    bar.appendChild(h(`button.btn.small#std-assist${S.assist ? ".on" : ""}`, { type: "button", "aria-pressed": S.assist ? "true" : "false", "data-assist": S.assist || "", title: "rule 10.3", onclick: toggleAssist }, [S.assist ? `${nm(S.assist)} assists the move ` : `Leader's movement assist (${helpers.map(nm).join(", ")}) `, h("kbd", { text: "A" })]));
    if (S.assist) bar.appendChild(h("div.whose-sub#std-plot", { style: "flex-basis:100%" }, [o.move && o.move.declare
      ? "This move's MA is rolled: declare it (D) and the leader's movement is added to the roll."
      : `Plot the assisted move one hex at a time on the map${S.plot.length > 1 ? ` (${S.plot.slice(1).join(" → ")})` : ""}; click its last hex again or press Enter to move, Backspace to step back, A or Esc to stop.`, h("span.rule", { text: "rule 10.3", style: "margin-left:6px" })]));
  }
  if (!S.offSel && S.selHexes.length === 1 && (o.reach.size || isEdgeHex(S.scenario, S.selHex))) {
    bar.appendChild(h(`button.btn.small#std-offmap${S.offMap ? ".on" : ""}`, { type: "button", "aria-pressed": S.offMap ? "true" : "false", title: "rule 4.1", onclick: toggleOffMap }, [S.offMap ? "Leaving the map: click an outlined edge hex " : "Leave the map ", h("kbd", { text: "O" })]));
  }
  return bar.childNodes.length ? bar : null;
}

/** A click on one of my counters while plotting (a step of the path) or leaving the map (its own edge hex). */
export function unitClickHex(unit, hex, pointerHex) {
  if (S.assist && S.plot && S.selected.length && ((pointerHex || hex) !== S.selHex || S.plot.length > 1)) return pointerHex || hex;
  if (S.offMap && hex === S.selHex && S.selected.length) return hex;
  return null;
}

/** 10.3: while an assisted move is plotted, a map click is a step of its path. */
export function mapClick(hex) {
  if (!(S.assist && S.plot && S.selected.length)) return false;
  plotClick(hex);
  return true;
}

/** The command for a click on a hex: a re-entry (13.2), leaving the map from an edge hex (4.1, its own hex or the end
 *  of its move), or a march (4.7; a declared move keeps its own). Null: the core's plain move. */
export function commandAt(hex, r, o) {
  if (r && r.reenter) return r.reenter;
  const march = o.mode === "march" && !o.declaredMine;
  if (S.offMap && (r || hex === S.selHex) && isEdgeHex(S.scenario, hex)) {
    const cmd = { type: "move", units: [...S.selected], path: hex === S.selHex ? [S.selHex] : r.path, off_map: true };
    if (march) cmd.march = true;
    return cmd;
  }
  if (r && !r.place && march) return { type: "move", units: [...S.selected], path: r.path && r.path.length ? r.path : [S.selHex, hex], march: true };
  return null;
}

/** The plotted path and the hexes it may go on to (10.3; the referee judges the MP when it is sent), which replace
 *  the reachable hexes; or the edge hexes the selection may leave the map from (4.1). */
export function moveOverlays(v, o) {
  const map = page.map;
  if (S.assist && S.plot) {
    const end = S.plot[S.plot.length - 1];
    const next = neighbours(end, { ...(S.scenario.map || {}) }).filter((hx) => !S.plot.includes(hx));
    map.shadeHexes(next.map((hx) => ({ hex: hx, colour: OKABE.sky, label: "", title: `${hx}: the next hex of the assisted move`, cls: "reach plot-next" })));
    if (S.plot.length > 1) {
      map.drawPath(S.plot, { colour: OKABE.blue, width: 5 });
      map.ringHexes([{ hex: end, colour: OKABE.blue, width: 4, label: "go", cls: "plot-end", title: `Click again (or Enter) to move to ${end}` }]);
    }
    return true;
  }
  if (S.offMap) {
    const edge = [...new Set([S.selHex, ...o.reach.keys()])].filter((hx) => isEdgeHex(S.scenario, hx));
    map.ringHexes(edge.map((hx) => ({ hex: hx, colour: OKABE.vermillion, width: 4, dash: "3 3", label: "off", cls: "offmap-hex", title: `Leave the map from ${hx} (rule 4.1: it counts as routed)` })));
  }
  return false;
}

/** Esc stops the assist first, then leaving the map. */
export function onEscape() {
  if (S.assist) {
    S.assist = null;
    S.plot = null;
    renderOverlays();
    renderSelection();
    return true;
  }
  if (S.offMap) {
    toggleOffMap();
    return true;
  }
  return false;
}

/** M march, D declare, S stay, O leave the map, A the leader's assist; Enter sends a plotted move, Backspace steps back. */
export function onKey(k, e) {
  if (k === "m" || k === "M") toggleMarch();
  else if (k === "d" || k === "D") declareMove();
  else if (k === "s" || k === "S") stay();
  else if (k === "o" || k === "O") toggleOffMap();
  else if (k === "a" || k === "A") toggleAssist();
  else if (k === "Enter" && S.assist && S.plot && onMap(e.target)) sendPlot();
  else if (k === "Backspace" && S.assist && S.plot && S.plot.length > 1) {
    S.plot = S.plot.slice(0, -1);
    renderOverlays();
    renderSelection();
  } else return false;
  return true;
}
