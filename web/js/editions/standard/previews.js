// The Standard rules' explanations of an attack and a bombardment before they are made: the tactic, the
// coordination, the leaders and guns, every factor with its halvings and every modifier with its rule, the
// differential and CRT column, and the result of each die. Read from the referee's preview, never computed.

import { h } from "../../ui/dom.js";

/** The bombardment preview (8.4, 8.5, 9.2(4), R12): each fire group (with its coordinating leader, 10.3), and for each enemy unit of the hex its
 *  strength and the result of each die. */
export function standardBombardPreview(pv, nameOf) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": "bombard", "data-ruleset": "standard" });
  (pv.groups || []).forEach((g, i) => {
    const sec = h("div.std-fire-group", { "data-group": i }, [h("b", { text: `${(pv.groups || []).length > 1 ? `Fire group ${i + 1}: ` : "Firing: "}${(g.artillery || []).map(nameOf).join(", ")}${g.coordinator ? `, coordinated by ${nameOf(g.coordinator)}` : ""}` }), h("span.rule", { text: `rule ${g.coordinator ? "8.4, 10.3" : g.rule || "8.4"}`, style: "margin-left:6px" })]);
    for (const t of g.targets || []) {
      sec.appendChild(h("div.whose-sub", {}, [`at ${nameOf(t.unit)}: strength ${t.strength}`, t.doubled ? h("span.rule", { text: `doubled against cavalry, rule ${t.doubled}`, style: "margin-left:6px" }) : null]));
      sec.appendChild(h("table.odds.std-results", { "aria-label": `The result of each die against ${nameOf(t.unit)}` }, [h("tbody", {}, (t.results || []).map((r, k) => h("tr", { "data-result": r }, [h("td.odds-code", { text: `die ${k + 1}` }), h("td.odds-words", {}, [h("b", { text: r })])])))]));
    }
    box.appendChild(sec);
  });
  if (pv.note) box.appendChild(h("div.whose-sub", { text: pv.note }));
  return box;
}

/** The attack preview (7.7, 7.13, 7.14, 8.8, 10.3, R12): the tactic, the coordination, the leaders and guns that
 *  take part, every unit's factor with its halvings, every modifier with its rule number, the differential, the CRT
 *  column and the result of each die (read through the attacker's tactic). */
export function standardPreview(pv, nameOf) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": "attack", "data-ruleset": "standard" });
  const tac = pv.tactic || null;
  const co = pv.coordination || null;
  const head = h("dl.kv#std-preview-head");
  if (tac) head.append(h("dt", { text: "Tactic" }), h("dd#pv-tactic", { "data-tactic": tac.tactic }, [tac.tactic === "none" ? "no tactic (a plain attack)" : tac.label, h("span.rule", { text: `rule ${tac.rule || "7.13"}`, style: "margin-left:6px" })]));
  if (co) {
    const how = co.coordinated
      ? co.coordinator ? `coordinated by ${nameOf(co.coordinator)}` : "coordinated (one formation)"
      : `uncoordinated: ${(co.halved || []).map(nameOf).join(", ")} halved`;
    head.append(h("dt", { text: "Coordination" }), h("dd#pv-coordination", { "data-coordinated": co.coordinated ? "yes" : "no" }, [how, h("span.rule", { text: `rule ${co.rule || "7.14"}`, style: "margin-left:6px" })]));
  }
  const ldrs = Object.entries(pv.leaders || {});
  if (ldrs.length) head.append(h("dt", { text: "Leaders" }), h("dd#pv-leaders", {}, [ldrs.map(([l, u]) => `${nameOf(l)} joins ${nameOf(u)}`).join("; "), h("span.rule", { text: "rule 10.3", style: "margin-left:6px" })]));
  if ((pv.support || []).length) head.append(h("dt", { text: "Supporting fire" }), h("dd#pv-support", {}, [pv.support.map(nameOf).join(", "), h("span.rule", { text: "rule 8.8", style: "margin-left:6px" })]));
  if (head.childNodes.length) box.appendChild(head);
  // the modifiers that add to a side's total (7.13(2) press forward, 7.13(5) last stand); a leader's 10.3 factor is
  // already in the unit he joins
  const plus = (who) => (pv.modifiers || []).filter((m) => m.side === who && m.rule !== "10.3" && typeof m.value === "number").reduce((s, m) => s + m.value, 0);
  const side = (title, list, who) => {
    const total = (list || []).reduce((s, x) => s + (x.value || 0), 0) + plus(who);
    const ul = h("ul.breakdown");
    for (const x of list || []) {
      const lines = h("ul.bd-lines");
      if (x.support) lines.appendChild(h("li.bd-line", { text: "supporting fire (8.8)" }));
      if (x.leader) lines.appendChild(h("li.bd-line", { text: `leader +${x.leader} (10.3)` }));
      if (x.doubled) lines.appendChild(h("li.bd-line", { text: `doubled (${x.doubled === true ? "" : x.doubled})` }));
      for (const hv of x.halvings || []) lines.appendChild(h("li.bd-line.halving", { text: `halved: ${hv}` }));
      ul.appendChild(h("li.bd-part", {}, [h("div.bd-head", {}, [h("b", { text: nameOf(x.unit) }), h("span.bd-value", { text: `${x.printed} → ${x.value}` })]), lines]));
    }
    return h("div.bd-side", {}, [h("div.bd-title", {}, [h("b", { text: title }), h("span.bd-total", { text: String(total) })]), ul]);
  };
  const attack = [...(pv.attackers || []), ...(pv.support_fire || []).map((x) => ({ ...x, support: true }))];
  box.appendChild(h("div.bd-grid", {}, [side("Attack", attack, "attacker"), side("Defence", pv.defenders, "defender")]));
  if ((pv.modifiers || []).length) {
    const ul = h("ul.std-modifiers#pv-modifiers", { "aria-label": "Modifiers" });
    for (const m of pv.modifiers) {
      const v = typeof m.value === "number" && m.value ? ` (${m.value > 0 ? "+" : ""}${m.value})` : "";
      ul.appendChild(h("li.std-modifier", { "data-rule": m.rule || "" }, [`${m.side === "defender" ? "Defence" : m.side === "attacker" ? "Attack" : ""}${m.side ? ": " : ""}${m.label}${v}`, h("span.rule", { text: `rule ${m.rule}`, style: "margin-left:6px" })]));
    }
    box.appendChild(h("div", {}, [h("b", { text: "Modifiers" }), ul]));
  }
  const dl = h("dl.kv");
  dl.append(h("dt", { text: "Differential" }), h("dd", { text: `${pv.differential > 0 ? "+" : ""}${pv.differential} (rule 7.7)` }));
  dl.append(h("dt", { text: "CRT column" }), h("dd", { text: `${pv.column} (R12${tac && tac.tactic !== "none" ? `; results read through ${tac.label}, ${tac.rule}` : ""})` }));
  box.appendChild(dl);
  const row = h("table.odds.std-results", { "aria-label": "The result of each combat die" }, [h("tbody", {}, (pv.results || []).map((r, i) => h("tr", { "data-result": r }, [h("td.odds-code", { text: `die ${i + 1}` }), h("td.odds-words", {}, [h("b", { text: r })])])))]);
  box.appendChild(row);
  if (pv.note) box.appendChild(h("div.whose-sub", { text: pv.note }));
  return box;
}

