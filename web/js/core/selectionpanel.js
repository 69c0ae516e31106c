// The selection panel: the selected units (each can be left out), what the referee says they may do, the
// edition's own tools for them (editions/index.js: selectionTools), the charge bar, and the attack builder or
// the preview of the bombardment or charge about to be confirmed, with the commands needing no map click.

import { h, clear, $ } from "../ui/dom.js";
import { explainPreview } from "../ui/explain.js";
import { counterIcon, describeUnit } from "../counters.js";
import { S, page, defs, myTurn, ruleOf } from "./store.js";
import { send } from "./sync.js";
import { myUnitsIn, toggleSelected, cancel } from "./selection.js";
import { waitingAt } from "./offboard.js";
import { chargeBar } from "./charges.js";
import { startBuilder, renderBuilder } from "./builder.js";
import { renderOverlays } from "./overlays.js";

export function renderSelection() {
  const sec = $("#sec-selection");
  if (!S.selected.length || S.history) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const v = S.view;
  const title = S.offSel ? `Entering at ${S.offSel}` : S.selHexes.length > 1 ? `Selected in ${S.selHexes.join(" + ")}` : `Selected in ${S.selHex}`;
  sec.appendChild(h("h3", {}, [title, S.offSel && ruleOf("enter", S.offSel) ? h("span.rule", { text: `rule ${ruleOf("enter", S.offSel)}` }) : null]));
  const units = h("div.sel-units", { role: "group", "aria-label": "Units in the selection (toggle to include)" });
  const pool = S.offSel ? [...new Set([...waitingAt(S.offSel, true), ...S.selected])] : S.selHexes.flatMap((hx) => myUnitsIn(hx));
  for (const u of pool) {
    const on = S.selected.includes(u);
    const b = h("button.sel-unit", {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      "aria-label": `${on ? "Included" : "Not included"}: ${describeUnit(defs()[u], v.units[u], { reading: page.edition.counter })}`,
      "data-unit": u,
      onclick: () => toggleSelected(u),
    });
    b.appendChild(counterIcon(S.scenario, u, v.units[u], 38, page.edition.counter));
    units.appendChild(b);
  }
  sec.appendChild(units);
  if (v.phase === "combat" && myTurn() && !S.offSel && page.edition.addHexes !== false) {
    sec.appendChild(h("div.actions.add-hex-bar", {}, [
      h(`button.btn.small#add-hex${S.addMode ? ".on" : ""}`, { type: "button", "aria-pressed": S.addMode ? "true" : "false", onclick: () => { S.addMode = !S.addMode; renderSelection(); } }, S.addMode ? "Click a hex of yours to add it…" : "+ Add units from another hex"),
      h("span.whose-sub", { text: `or Shift-click it: attacks from several hexes combine${ruleOf("combine") ? ` (rule ${ruleOf("combine")})` : ""}.` }),
    ]));
  }
  const o = S.options;
  if (!o) {
    sec.appendChild(h("div.whose-sub", { text: "Asking the referee what these units may do…" }));
    return;
  }
  const bits = [];
  if (o.reach.size) bits.push(page.edition.reachSummary ? page.edition.reachSummary(o) : `${o.reach.size} hexes reachable (shaded, with MP cost)`);
  if (o.attacks.length) bits.push(`${o.attacks.length} attack target${o.attacks.length > 1 ? "s" : ""} (red)`);
  if (o.bombards.length) bits.push(`${o.bombards.length} bombardment target${o.bombards.length > 1 ? "s" : ""}`);
  const nCharge = new Set(o.charges.map((c) => c.target)).size;
  if (nCharge) bits.push(`${nCharge} charge target${nCharge > 1 ? "s" : ""}`);
  // with nowhere to go and nothing to attack, the commands below may still be theirs (a square, a roll for movement)
  const idle = o.commands.length ? "Nothing to move or attack now: see the actions below." : "These units have nothing to do now.";
  const own = page.edition.selectionSummary ? page.edition.selectionSummary(o) : null;
  sec.appendChild(h("div.whose-sub#sel-summary", { text: own || (bits.length ? bits.join("; ") + "." : idle) }));
  for (const n of [].concat(o.notes || [])) sec.appendChild(h("div.whose-sub", {}, [typeof n === "string" ? n : n.text || JSON.stringify(n), n.rule ? h("span.rule", { text: `rule ${n.rule}`, style: "margin-left:6px" }) : null]));
  if (page.edition.selectionTools) {
    const tools = page.edition.selectionTools(o);
    if (tools) sec.appendChild(tools);
  }
  chargeBar(sec);
  for (const a of o.illegal || []) sec.appendChild(h("div.whose-sub", {}, [`No attack on ${a.target}: ${a.message}`, a.rule ? h("span.rule", { text: `rule ${a.rule}`, style: "margin-left:6px" }) : null]));
  if (S.preview && S.preview.kind === "attack" && S.builder) sec.appendChild(renderBuilder());
  else if (S.preview) sec.appendChild(previewBox());
  if (o.commands.length) {
    const acts = h("div.actions.sel-commands", { style: "margin-top:6px" });
    // an edition may say why a player would take a command (`why`: what it gives and costs), under its label
    for (const c of o.commands) acts.appendChild(h(`button.btn${c.why ? ".cmd-why" : ""}`, { type: "button", title: [c.why, c.rule ? `rule ${c.rule}` : null].filter(Boolean).join(" — ") || null, "data-command": JSON.stringify(c.command), onclick: () => { send(c.command); cancel(); } }, [h("span", { text: c.label }), c.why ? h("span.why", { text: c.why }) : null]));
    sec.appendChild(acts);
  }
}

/** The bombardment or charge about to be confirmed (an attack goes through the builder), explained by the
 *  edition when it has its own way (editions/index.js: previewBody). */
function previewBox() {
  const { kind, item } = S.preview;
  const title = kind === "attack" ? `Attack ${item.target}` : kind === "bombard" ? `Bombard ${item.target}` : `Charge ${item.target}`;
  const nameOf = (u) => (defs()[u] ? defs()[u].name : u);
  const own = page.edition.previewBody ? page.edition.previewBody(kind, item, nameOf) : null;
  const body = own ? own.body : explainPreview(kind, item, nameOf, page.edition.results);
  const box = h("div.panel-section#preview", { style: "margin-top:8px;border-color:#d55e00" }, [h("h3", {}, [title, h("span.rule", { text: own && own.rules ? own.rules : `rule ${item.rule}` })]), body]);
  if (kind === "bombard" && item.los === false) box.appendChild(h("div.form-error", { text: "No line of sight." }));
  const confirm = h("button.btn.primary#confirm-action", {
    type: "button",
    text: `Confirm ${kind}`,
    disabled: !!(own && own.blocked),
    onclick: () => {
      let cmd = item.command;
      if (!cmd) {
        if (kind === "attack") {
          const d = defs();
          const attackers = item.attackers || S.selected.filter((u) => d[u].kind !== "leader" && !(item.support || []).includes(u));
          const leaders = S.selected.filter((u) => d[u].kind === "leader" && !(S.view.units[u] || {}).ineffective);
          cmd = { type: "attack", target: item.target, attackers, primary: item.primary || attackers[0] };
          if (leaders.length) cmd.leaders = leaders;
          if (item.support && item.support.length) cmd.support = item.support;
        } else if (kind === "bombard") cmd = { type: "bombard", target: item.target, artillery: item.artillery || S.selected };
        else cmd = { type: "charge", target: item.target, chargers: item.chargers || item.units || S.selected };
      }
      send(cmd);
      cancel();
    },
  });
  const acts = h("div.actions", {}, [confirm, h("button.btn", { type: "button", text: "Cancel (Esc)", onclick: () => { S.preview = null; renderSelection(); renderOverlays(); } })]);
  if (S.preview.alt) acts.appendChild(h("button.btn#preview-switch", { type: "button", text: S.preview.alt.kind === "attack" ? "Attack instead" : "Bombard instead", onclick: () => { const back = S.preview; S.preview = { ...back.alt, alt: { kind: back.kind, item: back.item } }; if (S.preview.kind === "attack") startBuilder(S.preview.item); renderSelection(); renderOverlays(); } }));
  box.appendChild(acts);
  return box;
}
