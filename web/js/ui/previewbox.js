// The explanations of an attack, a charge and a bombardment before they are made, for the editions whose referee
// previews each side's strength unit by unit and line by line (the rules come with the referee's notes), the
// differential and CRT column, a charge's own reading, and the odds of each result; a bombardment unit by unit in
// the target hex. Read from the referee's preview, never computed; drawn with ui/explain.js's parts. The words of
// the results (`results`) and the rules each line cites (`cites`) are the edition's:
//   cites = {assumed, differential, column, charge: [reading, rule], chargerMorale: [words, rule],
//            artillery, range, bombardColumn, bombardNote: [words, rule]}

import { h } from "./dom.js";
import { strengthsGrid, oddsTable, kv, ruleChip, splitRule, rangeText, keyLink, signed } from "./explain.js";

/** The full explanation of an attack or charge preview (combat.preview on the server). */
export function combatPreview(pv, nameOf, { kind = "attack", results, cites }) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": kind });
  if (pv.attack_parts || pv.defense_parts) box.appendChild(strengthsGrid(pv, nameOf, kind === "charge" ? "Charge" : "Attack"));
  if (pv.defenders_assumed) box.appendChild(h("div.whose-sub.bd-assumed", {}, [`Assuming the defender's strongest choice: ${pv.defenders_assumed.label}.`, " ", ruleChip(cites.assumed)]));
  box.appendChild(
    kv([
      ["Differential", pv.differential !== undefined ? `${signed(pv.differential)} (attack ${pv.attack} − defence ${pv.defense})` : null, cites.differential],
      ["CRT column", pv.column_label ?? pv.column, cites.column],
      kind === "charge" ? ["Charge", ...cites.charge] : [],
      pv.charger_morale !== undefined ? ["Charger's morale", `${pv.charger_morale}: ${cites.chargerMorale[0]}`, cites.chargerMorale[1]] : [],
    ]),
  );
  box.appendChild(oddsTable(pv.odds, { results: pv.results, words: results }));
  box.appendChild(keyLink());
  return box;
}

/** The bombardment preview: each target unit resolved separately, with its odds. */
export function bombardPreview(item, nameOf, { results, cites }) {
  const box = h("div.explain#explain-preview", { "data-kind": "bombard" });
  const guns = item.command && item.command.artillery ? item.command.artillery : item.artillery || [];
  box.appendChild(kv([["Artillery", guns.map(nameOf).join(", "), cites.artillery], ["Range", rangeText(item.range), cites.range]]));
  for (const t of item.targets || []) {
    const sec = h("div.bd-target", { "data-unit": t.unit }, [h("div.bd-title", {}, [h("b", { text: nameOf(t.unit) }), h("span.bd-total", { text: signed(t.differential) })])]);
    const lines = h("ul.bd-lines");
    for (const n of t.notes || []) {
      const { text, rule } = splitRule(n);
      const cited = rule || (/^artillery/.test(text) ? cites.artillery : null);
      lines.appendChild(h("li.bd-line", { "data-rule": cited || "" }, [h("span", { text }), ruleChip(cited)]));
    }
    sec.appendChild(lines);
    sec.appendChild(kv([["CRT column", t.column_label, cites.bombardColumn], ["Its morale", t.morale]]));
    sec.appendChild(oddsTable(t.odds, { bombard: true, results: t.results, words: results }));
    box.appendChild(sec);
  }
  box.appendChild(h("div.whose-sub", {}, [cites.bombardNote[0], " ", ruleChip(cites.bombardNote[1])]));
  box.appendChild(keyLink());
  return box;
}

/** The preview box's body for an attack, a bombardment or a charge (editions/index.js: previewBody), in the words of
 *  the edition's `results`, citing its `cites`. */
export function previewBody(kind, item, nameOf, { results, cites }) {
  const body = kind === "bombard"
    ? bombardPreview({ ...(item.preview || {}), ...item, targets: item.targets || (item.preview || {}).targets }, nameOf, { results, cites })
    : combatPreview(item.preview || item, nameOf, { kind, results, cites });
  return { body, rules: null, blocked: false };
}
