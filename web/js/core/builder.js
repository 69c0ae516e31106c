// The attack builder: which selected units attack, which guns support, which leaders join and which unit is
// primary, with the referee's preview of the odds asked again after every change. Every edition builds attacks
// this way; what an edition adds (a tactic, a coordinating leader) and how it words and explains the attack
// come from its `builder` part (editions/index.js).

import { api } from "../api.js";
import { h } from "../ui/dom.js";
import { explainPreview } from "../ui/explain.js";
import { counterIcon } from "../counters.js";
import { S, page, defs, ruleOf } from "./store.js";
import { send } from "./sync.js";
import { cancel } from "./selection.js";
import { renderSelection } from "./selectionpanel.js";
import { renderOverlays } from "./overlays.js";

const ext = () => page.edition.builder || {};

/** Open the builder on an attack target: each selected unit that may take part attacks (or, for a gun,
 *  supports), leaders as the referee proposed, the proposed primary. */
export function startBuilder(att) {
  const ch = (S.options.attackChoices && S.options.attackChoices.get(att.target)) || { attackers: att.attackers || [], support: att.support || [], leaders: [] };
  const cmd = att.command || {};
  const roles = {};
  for (const u of ch.attackers || []) roles[u] = (cmd.attackers || []).includes(u) ? "attack" : "out";
  for (const u of ch.support || []) if (!(u in roles) || roles[u] === "out") roles[u] = (cmd.support || []).includes(u) ? "support" : roles[u] || "out";
  S.builder = {
    target: att.target,
    choices: ch,
    roles,
    leaders: new Set(cmd.leaders || []),
    primary: cmd.primary || null,
    preview: att.legal === false ? null : att.preview,
    refusal: att.legal === false ? { rule: att.rule, message: att.message } : null,
    seq: 0,
    probeSeq: 0,
  };
  if (ext().start) ext().start(S.builder, cmd);
}

export function builtCommand() {
  const b = S.builder;
  const order = [...(b.choices.attackers || []), ...(b.choices.support || [])];
  const attackers = [...new Set(order.filter((u) => b.roles[u] === "attack"))];
  const support = [...new Set(order.filter((u) => b.roles[u] === "support"))];
  const primary = attackers.includes(b.primary) ? b.primary : attackers[0] || null;
  const cmd = { type: "attack", target: b.target, attackers, primary };
  const leaders = (b.choices.leaders || []).filter((l) => b.leaders.has(l));
  if (leaders.length) cmd.leaders = leaders;
  if (support.length) cmd.support = support;
  if (ext().command) ext().command(cmd, b);
  return cmd;
}

export async function refreshBuilderPreview(probe = true) {
  const b = S.builder;
  if (!b) return;
  if (probe && ext().changed) ext().changed(b);
  const seq = ++b.seq;
  const cmd = builtCommand();
  b.loading = true;
  renderSelection();
  if (!cmd.attackers.length) {
    b.preview = null;
    b.refusal = { rule: ruleOf("attackers"), message: "choose at least one attacking unit" };
    b.loading = false;
    renderSelection();
    return;
  }
  try {
    const ans = await api.preview(page.gameId, cmd);
    if (!S.builder || S.builder.seq !== seq) return;
    const p = ans.preview || {};
    b.preview = p.legal ? p : null;
    b.refusal = p.legal ? null : { rule: p.rule, message: p.message };
  } catch (e) {
    if (!S.builder || S.builder.seq !== seq) return;
    b.preview = null;
    b.refusal = { rule: e.rule, message: e.message };
  }
  b.loading = false;
  renderSelection();
}

export function renderBuilder() {
  const b = S.builder;
  const x = ext();
  const v = S.view;
  const name = (u) => (defs()[u] ? defs()[u].name : u);
  const hexOf = (u) => (v.units[u] || {}).hex || "";
  const box = h("div.panel-section#preview", { style: "margin-top:8px;border-color:#d55e00" }, [h("h3", {}, [`Attack ${b.target}`, x.rules ? h("span.rule", { text: x.rules }) : null])]);
  const roleRows = h("div.builder-units#builder-units", { role: "group", "aria-label": "Who takes part" });
  const units = [...new Set([...(b.choices.attackers || []), ...(b.choices.support || [])])];
  for (const u of units) {
    const opts = [];
    if ((b.choices.attackers || []).includes(u)) opts.push(["attack", "attacks"]);
    if ((b.choices.support || []).includes(u)) opts.push(["support", x.supportText || "supporting fire"]);
    opts.push(["out", "stays out"]);
    const sel = h("select.builder-role", { "data-unit": u, "aria-label": `Role of ${name(u)}` }, opts.map(([val, txt]) => h("option", { value: val, text: txt, selected: b.roles[u] === val })));
    sel.value = b.roles[u] || "out";
    sel.addEventListener("change", () => { b.roles[u] = sel.value; refreshBuilderPreview(); });
    roleRows.appendChild(h("div.builder-row", {}, [counterIcon(S.scenario, u, v.units[u], 28, page.edition.counter), h("span", { text: `${name(u)} (${hexOf(u)})` }), sel]));
  }
  for (const l of b.choices.leaders || []) {
    const cb = h("input.builder-leader", { type: "checkbox", "data-unit": l, checked: b.leaders.has(l) });
    cb.checked = b.leaders.has(l);
    cb.addEventListener("change", () => { if (cb.checked) b.leaders.add(l); else b.leaders.delete(l); refreshBuilderPreview(); });
    roleRows.appendChild(h("label.builder-row", {}, [cb, x.leaderText ? x.leaderText(l, name(l), hexOf(l)) : ` ${name(l)} (${hexOf(l)}) joins the attack`]));
  }
  box.appendChild(roleRows);
  for (const r of b.choices.refused || []) box.appendChild(h("div.whose-sub", {}, [`${name(r.unit)} cannot take part: ${r.message}`, h("span.rule", { text: `rule ${r.rule}`, style: "margin-left:6px" })]));
  const cmd = builtCommand();
  if (cmd.attackers.length > 1) {
    const ps = h("select#builder-primary", { "aria-label": `Primary unit${ruleOf("primary") ? ` (rule ${ruleOf("primary")})` : ""}` }, cmd.attackers.map((u) => h("option", { value: u, text: name(u), selected: u === cmd.primary })));
    ps.value = cmd.primary;
    ps.addEventListener("change", () => { b.primary = ps.value; refreshBuilderPreview(); });
    box.appendChild(h("label.builder-row", {}, [x.primaryText || "Primary unit: ", ps]));
  }
  if (x.rows) x.rows(box, b, name);
  if (b.loading) box.appendChild(h("div.whose-sub", { text: "Asking the referee for the odds…" }));
  else if (b.refusal) box.appendChild(h("div.form-error#builder-refusal", { role: "alert" }, [b.refusal.message || "Not allowed.", b.refusal.rule ? h("span.rule", { text: `rule ${b.refusal.rule}`, style: "margin-left:6px" }) : null]));
  else if (b.preview) box.appendChild(x.preview ? x.preview(b.preview, name) : explainPreview("attack", { preview: b.preview }, name, page.edition.results));
  const confirm = h("button.btn.primary#confirm-action", {
    type: "button",
    text: (x.confirmText && x.confirmText(cmd)) || "Confirm attack",
    disabled: !!(b.loading || b.refusal || !cmd.attackers.length),
    onclick: () => {
      send(builtCommand());
      cancel();
    },
  });
  const acts = h("div.actions", {}, [confirm, h("button.btn", { type: "button", text: "Cancel (Esc)", onclick: () => { S.preview = null; S.builder = null; renderSelection(); renderOverlays(); } })]);
  if (S.preview && S.preview.alt) {
    acts.appendChild(h("button.btn#preview-switch", { type: "button", text: "Bombard instead", onclick: () => { S.preview = { ...S.preview.alt, alt: S.preview }; S.builder = null; renderSelection(); renderOverlays(); } }));
  }
  box.appendChild(acts);
  return box;
}
