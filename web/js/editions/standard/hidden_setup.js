// 19.8 B on the page: in the owner's Set-up box, the hidden movement boxes (the referee's `setup.hidden`: each box's
// units, its markers so far and the hexes a marker may take; the units that may be boxed). "Choose units" opens a
// list of check boxes (the box's whole content, sent as `hm_box`); "Place markers" shades the hexes a marker may
// take: click two, then pick the real one (`hm_markers`). The other player learns only where the markers stand,
// once the set-up ends.

import { h, OKABE } from "../../ui/dom.js";
import { S, page, nameOf } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { renderOverlays } from "../../core/overlays.js";
import { renderPhasePanel } from "../../core/panels.js";

function hsOf(raw) {
  return (raw && raw.setup && raw.setup.hidden) || null;
}

function redraw() {
  renderPhasePanel();
  renderOverlays();
}

/** A map click while picking a box's markers: toggles a shaded hex (two at most). */
export function hiddenSetupClick(hex) {
  const p = S.hmPick;
  if (!p || !S.view || S.view.phase !== "setup") return false;
  if (!p.allowed.includes(hex)) return true; // the click is the picker's: outside the shading it does nothing
  p.hexes = p.hexes.includes(hex) ? p.hexes.filter((x) => x !== hex) : [...p.hexes, hex].slice(-2);
  redraw();
  return true;
}

/** The hexes a marker may take (while picking), the picked ones drawn thicker. */
export function hiddenSetupOverlays() {
  const p = S.hmPick;
  if (!p || !S.view || S.view.phase !== "setup") return;
  page.map.ringHexes(p.allowed.map((hx) => ({
    hex: hx, colour: OKABE.purple, width: p.hexes.includes(hx) ? 6 : 2.5, dash: p.hexes.includes(hx) ? "" : "4 3",
    fill: p.hexes.includes(hx) ? OKABE.purple : undefined, label: p.hexes.includes(hx) ? "?" : undefined,
    cls: `hm-setup-hex${p.hexes.includes(hx) ? " hm-picked" : ""}`, title: `A marker of box ${p.box} may stand at ${hx} (19.8 B)`,
  })));
}

export function hiddenSetupEscape() {
  if (!S.hmPick && !S.hmEdit) return false;
  S.hmPick = null;
  S.hmEdit = null;
  redraw();
  return true;
}

/** The boxes in the Set-up box. */
export function renderHiddenSetup(sec, raw) {
  const hs = hsOf(raw);
  if (!hs) return;
  const box = h("div.hm-setup#hm-setup", { role: "group", "aria-label": "Hidden movement boxes (19.8 B)" });
  box.append(h("h4", { text: "Hidden movement boxes (19.8 B)" }));
  box.append(h("div.whose-sub", { text: "Fill a box with units of one formation, then place both its markers (click two shaded hexes) and pick the real one. The other player sees only where the markers stand, after your set-up." }));
  const inBox = new Map();
  for (const [b, info] of Object.entries(hs.boxes)) for (const u of info.units) inBox.set(u, b);
  for (const [b, info] of Object.entries(hs.boxes)) {
    const m = info.markers;
    const line = h("div.hm-setup-box", { "data-box": b }, [h("span", {
      text: `Box ${b}: ${info.units.map(nameOf).join(", ") || "empty"}${m ? ` — markers at ${m.hexes.join(" and ")} (real: ${m.hexes[m.real - 1]})` : info.units.length ? " — markers not placed" : ""}`,
    })]);
    line.append(h("button.btn.small.hm-units", { type: "button", "data-box": b, text: "Choose units", onclick: () => {
      S.hmEdit = S.hmEdit === b ? null : b;
      // the ticks in progress live in S, so a redraw while the player ticks (a push, the clock) keeps them
      S.hmTicks = S.hmEdit ? new Set(info.units) : null;
      S.hmPick = null;
      redraw();
    } }));
    if (info.units.length) {
      line.append(h("button.btn.small.hm-place", { type: "button", "data-box": b, text: "Place markers", disabled: info.hexes.length < 2, title: info.hexes.length < 2 ? "No two hidden hexes beside the box's units" : "Click two shaded hexes on the map", onclick: () => { S.hmPick = { box: b, hexes: [], allowed: info.hexes }; S.hmEdit = null; redraw(); } }));
    }
    if (S.hmEdit === b) {
      const picks = h("div.hm-unit-list", { role: "group", "aria-label": `Units of box ${b}` });
      for (const u of hs.eligible) {
        const other = inBox.get(u);
        const ticked = S.hmTicks ? S.hmTicks.has(u) : other === b;
        const cb = h("input", { type: "checkbox", value: u, "data-unit": u, checked: ticked,
          onchange: (e) => { if (!S.hmTicks) S.hmTicks = new Set(); if (e.target.checked) S.hmTicks.add(u); else S.hmTicks.delete(u); } });
        picks.append(h("label.hm-unit", {}, [cb, h("span", { text: ` ${nameOf(u)}${other && other !== b ? ` (in box ${other})` : ""}` })]));
      }
      picks.append(h("button.btn.small.primary.hm-units-send", { type: "button", "data-box": b, text: `Put in box ${b}`, onclick: () => {
        const units = [...picks.querySelectorAll("input:checked")].map((x) => x.value);
        S.hmEdit = null;
        S.hmTicks = null;
        send({ type: "hm_box", box: b, units });
      } }));
      line.append(picks);
    }
    if (S.hmPick && S.hmPick.box === b && S.hmPick.hexes.length === 2) {
      const [a, c] = S.hmPick.hexes;
      const done = (real) => { S.hmPick = null; send({ type: "hm_markers", box: b, hexes: [a, c], real }); renderOverlays(); };
      line.append(h("button.btn.small.primary.hm-real", { type: "button", "data-hex": a, text: `Real marker at ${a}`, onclick: () => done(1) }));
      line.append(h("button.btn.small.primary.hm-real", { type: "button", "data-hex": c, text: `Real marker at ${c}`, onclick: () => done(2) }));
    } else if (S.hmPick && S.hmPick.box === b) {
      line.append(h("div.whose-sub", { text: `Click ${2 - S.hmPick.hexes.length} more shaded hex${S.hmPick.hexes.length ? "" : "es"} for box ${b}'s markers (Esc cancels).` }));
    }
    box.append(line);
  }
  sec.appendChild(box);
}
