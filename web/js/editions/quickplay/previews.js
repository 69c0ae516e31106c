// Quick Play's explanations of an attack, a charge and a bombardment before they are made: each side's strength
// unit by unit and line by line (the rules come with the referee's notes), the differential and CRT column (7.4),
// a charge's own reading (9.2), and the odds of each result in Quick Play's words. Read from the referee's
// preview, never computed; drawn with ui/explain.js's parts.

import { h } from "../../ui/dom.js";
import { strengthsGrid, oddsTable, kv, ruleChip, splitRule, rangeText, keyLink, signed } from "../../ui/explain.js";
import { results } from "./results.js";

/** The full explanation of an attack or charge preview (combat.preview on the server). */
export function combatPreview(pv, nameOf, { kind = "attack" } = {}) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": kind });
  if (pv.attack_parts || pv.defense_parts) box.appendChild(strengthsGrid(pv, nameOf, kind === "charge" ? "Charge" : "Attack"));
  if (pv.defenders_assumed) box.appendChild(h("div.whose-sub.bd-assumed", {}, [`Assuming the defender's strongest choice: ${pv.defenders_assumed.label}.`, " ", ruleChip("7.2(1)")]));
  box.appendChild(
    kv([
      ["Differential", pv.differential !== undefined ? `${signed(pv.differential)} (attack ${pv.attack} − defence ${pv.defense})` : null, "7.4"],
      ["CRT column", pv.column_label ?? pv.column, "7.4"],
      kind === "charge" ? ["Charge", "any D result counts as Dm, any other as Am", "9.2"] : [],
      pv.charger_morale !== undefined ? ["Charger's morale", `${pv.charger_morale}: it checks morale before charging`, "9.2"] : [],
    ]),
  );
  box.appendChild(oddsTable(pv.odds, { results: pv.results, words: results }));
  box.appendChild(keyLink());
  return box;
}

/** The bombardment preview: each target unit resolved separately (8.4), with its odds. */
export function bombardPreview(item, nameOf) {
  const box = h("div.explain#explain-preview", { "data-kind": "bombard" });
  const guns = item.command && item.command.artillery ? item.command.artillery : item.artillery || [];
  box.appendChild(kv([["Artillery", guns.map(nameOf).join(", "), "8.4"], ["Range", rangeText(item.range), "8.3"]]));
  for (const t of item.targets || []) {
    const sec = h("div.bd-target", { "data-unit": t.unit }, [h("div.bd-title", {}, [h("b", { text: nameOf(t.unit) }), h("span.bd-total", { text: signed(t.differential) })])]);
    const lines = h("ul.bd-lines");
    for (const n of t.notes || []) {
      const { text, rule } = splitRule(n);
      lines.appendChild(h("li.bd-line", { "data-rule": rule || (/^artillery/.test(text) ? "8.4" : "") }, [h("span", { text }), ruleChip(rule || (/^artillery/.test(text) ? "8.4" : null))]));
    }
    sec.appendChild(lines);
    sec.appendChild(kv([["CRT column", t.column_label, "8.4"], ["Its morale", t.morale]]));
    sec.appendChild(oddsTable(t.odds, { bombard: true, results: t.results, words: results }));
    box.appendChild(sec);
  }
  box.appendChild(h("div.whose-sub", {}, ["Each unit in the hex is resolved separately with its own dice; A and – results have no effect, and the guns are never hurt.", " ", ruleChip("8.4")]));
  box.appendChild(keyLink());
  return box;
}

/** The preview box's body for an attack, a bombardment or a charge (editions/index.js: previewBody). */
export function previewBody(kind, item, nameOf) {
  const body = kind === "bombard"
    ? bombardPreview({ ...(item.preview || {}), ...item, targets: item.targets || (item.preview || {}).targets }, nameOf)
    : combatPreview(item.preview || item, nameOf, { kind });
  return { body, rules: null, blocked: false };
}
