// 19.8 hidden movement on the page: the view's `hidden` block (the kernel's markers; to all but the owner both
// markers of a box look alike) drawn as "?" counters on the map; the owner selects one of his markers by clicking
// its hex and moves it by clicking a shaded hex (the referee's options: `markers`), reveals a box or rolls a marker's
// MA (inactive HQ) in the Hidden movement box, and places each deploying unit by clicking one of the prompt's hexes
// (the core's prompt: each choice carries its hex). A reveal is written in the log like any event.

import { h, clear, $, OKABE } from "../../ui/dom.js";
import { S, page, defs, currentView, myTurn, activePrompt, nameOf, sideName } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { renderOverlays } from "../../core/overlays.js";
import { api } from "../../api.js";

function markersOf(v) {
  return (v && v.hidden && v.hidden.markers) || [];
}

function mineToMove(v) {
  return !!v.hidden && v.hidden.owner === S.side && v.phase === "movement" && v.active === S.side && myTurn() && !activePrompt() && !S.history;
}

/** 12.1: the owner's army HQ is inactive (or off the map): its markers roll for their MA (19.8 C). */
function hqInactive(v) {
  const inactive = new Set((v.standard && v.standard.inactive) || []);
  const d = defs();
  const hqs = Object.keys(d).filter((u) => d[u].kind === "hq" && d[u].side === v.hidden.owner);
  return hqs.some((u) => inactive.has(u) || !v.units[u] || !v.units[u].hex);
}

function forget() {
  S.hmSel = null;
  S.hmReach = null;
}

/** The markers, as "?" counters (the owner's title says its box, real or dummy, and the units in it). */
export function hiddenOverlays(v) {
  const ms = markersOf(v);
  if (!ms.length) return;
  const map = page.map;
  map.ringHexes(ms.map((m) => ({
    hex: m.hex, colour: OKABE.purple, width: S.hmSel === m.id ? 6 : 3, fill: OKABE.purple, label: "?",
    cls: `hm-marker${S.hmSel === m.id ? " hm-selected" : ""}`,
    title: "real" in m
      ? `${m.id}: box ${m.box}, ${m.real ? "the real marker" : "the dummy"}: ${(m.units || []).map(nameOf).join(", ") || "empty"} (19.8)`
      : `${m.id}: a hidden movement marker of box ${m.box} (19.8)`,
  })));
  if (S.hmSel && S.hmReach) {
    map.ringHexes(Object.keys(S.hmReach).map((hx) => ({ hex: hx, colour: OKABE.green, width: 3, dash: "4 3", fill: OKABE.green, cls: "hm-reach", title: `Move ${S.hmSel} to ${hx} (19.8 C)` })));
  }
}

/** A map click the markers take: select one of my markers, or move the selected one to a shaded hex. */
export function hiddenClick(hex) {
  const v = currentView();
  if (!v.hidden) return false;
  if (S.hmSel) {
    const path = S.hmReach && S.hmReach[hex];
    const mid = S.hmSel;
    forget();
    if (path) send({ type: "hm_move", marker: mid, path });
    renderOverlays();
    renderHidden();
    return true;
  }
  const m = markersOf(v).find((x) => x.hex === hex);
  if (!m || !mineToMove(v) || m.moved) return false;
  S.hmSel = m.id;
  S.hmReach = null;
  api.options(page.gameId, [m.id]).then((raw) => {
    if (S.hmSel !== m.id) return;
    const o = ((raw && raw.options && raw.options.markers) || {})[m.id] || {};
    S.hmReach = o.normal || (o.declared ? o.march : null) || {};
    renderOverlays();
    renderHidden();
  });
  renderOverlays();
  return true;
}

export function hiddenEscape() {
  if (!S.hmSel) return false;
  forget();
  renderOverlays();
  renderHidden();
  return true;
}

/** The Hidden movement section: the markers (the owner reads each box's units), Reveal and Roll buttons. */
export function renderHidden() {
  let sec = $("#sec-hidden");
  const v = currentView();
  if (!v || !v.hidden) {
    if (sec) sec.hidden = true;
    return;
  }
  if (!sec) {
    sec = h("section.panel-section#sec-hidden", { "aria-label": "Hidden movement (19.8)" });
    const after = $("#sec-standard") || $("#sec-offboard");
    after.parentNode.insertBefore(sec, after.nextSibling);
  }
  sec.hidden = false;
  clear(sec);
  sec.append(h("h3", { text: `Hidden movement: ${sideName(v.hidden.owner)} (19.8)` }));
  const mine = mineToMove(v);
  const declared = (v.standard && v.standard.hm_declared) || null; // 19.8 C, 4.4: a marker's rolled MA
  const boxes = new Map();
  for (const m of markersOf(v)) {
    if (!boxes.has(m.box)) boxes.set(m.box, []);
    boxes.get(m.box).push(m);
  }
  const list = h("ul.hm-boxes");
  for (const [box, ms] of boxes) {
    const units = (ms.find((m) => m.units) || {}).units;
    const where = ms.map((m) => `${m.id} at ${m.hex}${"real" in m ? (m.real ? " (real)" : " (dummy)") : ""}${m.moved ? ", moved" : ""}`).join("; ");
    const li = h("li.hm-box", { "data-box": box }, [h("span", { text: `Box ${box}: ${where}${units ? ` — ${units.map(nameOf).join(", ") || "empty"}` : ""}` })]);
    if (mine && !declared) {
      li.append(h("button.btn.small.hm-reveal", { type: "button", "data-box": box, text: `Reveal box ${box}`, title: "Reveal at the beginning of your movement phase with the HQ active (19.8 C)", onclick: () => { forget(); send({ type: "hm_reveal", marker: ms[0].id }); } }));
      if (hqInactive(v)) {
        for (const m of ms.filter((x) => !x.moved)) {
          li.append(h("button.btn.small.hm-declare", { type: "button", "data-marker": m.id, text: `Roll ${m.id}'s MA`, title: "With the army HQ inactive a marker rolls for its MA before it moves (19.8 C, 4.4)", onclick: () => { forget(); send({ type: "hm_declare", marker: m.id }); } }));
        }
      }
    }
    const d = mine && declared && ms.find((m) => m.id === declared.marker);
    if (d) {
      // 4.4: the declared marker moves with its rolled MA (select it, click a shaded hex) or stays
      li.append(h("span.hm-rolled", { text: ` ${d.id} rolled MA ${declared.ma}: click it, then a shaded hex, or ` }));
      li.append(h("button.btn.small.hm-stay", { type: "button", "data-marker": d.id, text: `Stay (${d.id})`, title: "The declared marker does not move (4.4)", onclick: () => { forget(); send({ type: "hm_move", marker: d.id, path: [d.hex] }); } }));
    }
    list.append(li);
  }
  sec.append(list);
  if ((v.hidden.revealed || []).length) sec.append(h("p", { text: `Revealed: box ${v.hidden.revealed.join(", ")}` }));
  if (mine) sec.append(h("p.hint", { text: "Click one of your markers (?) to select it, then a shaded hex to move it." }));
}
