// Hover text for a hex: id, terrain, its TEC effects, hexside features around it, units there.

import { h } from "./dom.js";
import { unitDefs, describeUnit } from "../counters.js";

const CLS = { infantry: "inf", cavalry: "cav", artillery: "art" };

export function terrainEffects(t) {
  // a terrain without a move table (an edition whose TEC the rules core keeps): the edition's words for it
  if (!t.move && Array.isArray(t.notes)) return [...t.notes];
  const out = [];
  const mv = t.move || {};
  const costs = ["infantry", "cavalry", "artillery"].map((c) => (c in mv && !(t.prohibited || []).includes(c) ? `${CLS[c]} ${mv[c]}` : `${CLS[c]} —`));
  out.push(`Move cost: ${costs.join(", ")} MP`);
  if ((t.prohibited || []).length) out.push(`Prohibited to ${t.prohibited.join(", ")}`);
  if (t.defense) out.push(`Defender +${t.defense}`);
  if ((t.attack_halved_into || []).length) out.push(`Attacks into it halved for ${t.attack_halved_into.join(", ")}`);
  if ((t.attack_halved_out_of || []).length) out.push(`Attacks out of it halved for ${t.attack_halved_out_of.join(", ")}`);
  if (t.bombard_modifier) out.push(`Bombardment −${t.bombard_modifier}`);
  if (t.no_bombard) out.push("No bombardment into it");
  if (t.blocks_los) out.push("Blocks line of sight");
  if (t.blocks_zoc_into) out.push("No ZOC into it");
  if (t.blocks_zoc_out) out.push("No ZOC out of it");
  if ((t.no_advance_from || []).length) out.push(`No advance after combat from it for ${t.no_advance_from.join(", ")}`);
  if (t.open) out.push("Open ground (charges, squares)");
  return out;
}

export function hexsideEffects(f) {
  const out = [];
  const add = f.move_add || {};
  const parts = Object.entries(add).map(([c, n]) => `${CLS[c] || c} +${n}`);
  if (parts.length) out.push(`crossing ${parts.join(", ")} MP`);
  if ((f.prohibited || []).length) out.push(`prohibited to ${f.prohibited.join(", ")}`);
  if ((f.attack_halved_across || []).length) out.push(`attacks across halved (${f.attack_halved_across.join(", ")})`);
  if (f.defense_across) out.push(`defender +${f.defense_across} when attacked across`);
  if (f.blocks_los) out.push("blocks LOS");
  if (f.road_crossing) out.push("road crosses");
  return out;
}

/** Build the tooltip content for a hex (`reading`: the edition's reading of its counters, editions/index.js). */
export function hexInfo(scenario, grid, hex, view, reading = null) {
  const tid = (scenario.map.hexes && scenario.map.hexes[hex]) || scenario.map.default_terrain;
  const t = scenario.tec.terrain[tid] || { name: tid };
  const label = (scenario.map.labels || []).find((l) => l.hex === hex);
  const obj = ((scenario.victory && scenario.victory.objectives) || []).find((o) => o.hex === hex);
  const items = terrainEffects(t).map((s) => h("li", { text: s }));
  for (const hs of scenario.map.hexsides || []) {
    if (!hs.hexes.includes(hex)) continue;
    const other = hs.hexes[0] === hex ? hs.hexes[1] : hs.hexes[0];
    for (const f of hs.features) {
      const def = (scenario.tec.hexsides || {})[f] || { name: f };
      const eff = hexsideEffects(def);
      items.push(h("li", { text: `${def.name} to ${other}${eff.length ? ": " + eff.join(", ") : ""}` }));
    }
  }
  const onRoad = (scenario.map.roads || []).some((r) => r.path.includes(hex));
  if (onRoad) items.push(h("li", { text: scenario.tec.road_note || `Road: ${scenario.tec.road_mp ?? 0.5} MP per hex along it` }));
  const defs = unitDefs(scenario);
  const units = view ? Object.entries(view.units || {}).filter(([, u]) => u.hex === hex && (!u.status || u.status === "map")) : [];
  // "moved" only during the unit's own side's player-turn: the flag lasts until that side moves again
  const unitLines = units.map(([id, u]) => h("li", { text: describeUnit(defs[id] || { id, name: id, kind: "?" }, u, { showMoved: !!view && ["movement", "recovery", "combat"].includes(view.phase) && !!defs[id] && defs[id].side === view.active, reading }) }));
  const ctrl = view && view.control && hex in view.control && view.control[hex] ? scenario.sides[view.control[hex]] : null;
  return h("div", {}, [
    h("div.tip-head", { text: `${hex} · ${t.name}${label ? " · " + label.text : ""}` }),
    obj ? h("div", { text: `Objective ${obj.name || ""}: ${obj.points} VP${ctrl ? `, held by ${ctrl.name}` : ""}` }) : null,
    h("ul", {}, items),
    unitLines.length ? h("div", { style: "margin-top:4px;font-weight:700", text: "Units" }) : null,
    unitLines.length ? h("ul", {}, unitLines) : null,
  ]);
}
