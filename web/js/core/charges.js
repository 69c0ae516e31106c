// Charge mode: the selection's charge moves (options `charges` of kind "move", exact commands from the server)
// shown on the map instead of its reachable hexes, each sent by a click on its target. Which units may charge,
// and the rules that say so, differ by edition: its `charge` words (editions/index.js) name them.

import { h, $ } from "../ui/dom.js";
import { toast } from "../ui/chrome.js";
import { S, page, myTurn, activePrompt } from "./store.js";
import { send } from "./sync.js";
import { myUnitsIn, select, cancel } from "./selection.js";
import { renderSelection } from "./selectionpanel.js";
import { renderOverlays } from "./overlays.js";

const words = () => page.edition.charge || {};

/** The selection's charge moves (movement phase), one per target hex: the shortest path reaching it
 *  (ties: the first the server lists), with every path kept for the record. */
export function chargeMoveTargets() {
  const out = new Map();
  const o = S.options;
  if (!o || !S.view || S.view.phase !== "movement") return out;
  for (const c of o.charges) {
    if (c.kind !== "move" || !c.target || !c.command) continue;
    const len = (c.path || []).length;
    const cur = out.get(c.target);
    if (!cur) out.set(c.target, { target: c.target, command: c.command, path: c.path || [], paths: [c.path], all: [c] });
    else {
      cur.paths.push(c.path);
      cur.all.push(c);
      if (len < cur.path.length) Object.assign(cur, { command: c.command, path: c.path });
    }
  }
  return out;
}

export function canCharge() {
  return myTurn() && !activePrompt() && S.selected.length > 0 && chargeMoveTargets().size > 0;
}

export function setChargeMode(on) {
  const next = !!on && canCharge();
  if (S.chargeMode === next) return;
  S.chargeMode = next;
  S.chargeHover = null;
  S.preview = null;
  renderOverlays();
  renderSelection();
  const btn = $("#charge-toggle");
  if (btn) btn.focus();
}

function sendChargeMove(t) {
  send(t.command);
  cancel(false);
  renderOverlays();
  renderSelection();
}

export function chargeClick(hex) {
  const t = chargeMoveTargets().get(hex);
  if (t) return sendChargeMove(t);
  const mine = myUnitsIn(hex);
  if (mine.length) return select(hex, mine);
  const w = words();
  toast(`${hex} cannot be charged by ${w.who || "these units"}. Click an outlined enemy hex, or press Esc to leave charge mode.`, { kind: "error", rule: w.rule });
}

/** The selection panel's charge bar: the toggle and, in charge mode, every charge path as a button. */
export function chargeBar(sec) {
  const ct = chargeMoveTargets();
  if (!ct.size || !myTurn()) return;
  const w = words();
  const names = [...ct.keys()].join(", ");
  sec.appendChild(h("div.actions.charge-bar", { style: "margin-top:6px" }, [
    h(`button.btn.charge-toggle${S.chargeMode ? ".on" : ""}#charge-toggle`, {
      type: "button",
      "aria-pressed": S.chargeMode ? "true" : "false",
      "aria-label": S.chargeMode ? "Leave charge mode and show reachable hexes again (C or Escape)" : `Charge mode: show the enemy hexes ${w.who || "these units"} can charge (${names}) (C)`,
      title: w.title,
      onclick: () => setChargeMode(!S.chargeMode),
    }, [S.chargeMode ? "Leave charge mode " : "Charge ", h("kbd", { text: "C" })]),
  ]));
  if (!S.chargeMode) return;
  sec.appendChild(h("div.whose-sub#charge-help", { text: w.help || "Click an enemy hex outlined in dashed blue to charge it. Esc leaves charge mode." }));
  const targets = h("div.actions.charge-targets#charge-targets", { role: "group", "aria-label": "Charge targets" });
  for (const t of [...ct.values()].flatMap((x) => x.all.map((c) => ({ target: x.target, command: c.command, path: c.path || [], many: x.all.length > 1 })))) {
    targets.appendChild(h("button.btn.small.charge-target-btn", {
      type: "button",
      "data-target": t.target,
      "data-path": t.path.join(","),
      "aria-label": `Charge ${t.target}: move by ${t.path.slice(1).join(", ")} and declare a charge`,
      text: w.targetText ? w.targetText(t) : t.many ? `Charge ${t.target} from ${t.path[t.path.length - 1]}` : `Charge ${t.target}`,
      onmouseenter: () => { S.chargeHover = t.target; renderOverlays(); },
      onmouseleave: () => { S.chargeHover = null; renderOverlays(); },
      onfocus: () => { S.chargeHover = t.target; renderOverlays(); },
      onblur: () => { S.chargeHover = null; renderOverlays(); },
      onclick: () => sendChargeMove(t),
    }));
  }
  sec.appendChild(targets);
}
