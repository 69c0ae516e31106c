// What the Standard rules add to attacking: the builder's tactic (7.13, with the referee asked which tactics it
// refuses for the units chosen, and why), the coordinating leader (7.14), leaders joining a unit (10.3) and
// supporting guns (8.8); a declared charge made through the builder (7.13(3), 9.3); and the bombardment preview
// (8.4) asked of the referee when first shown. The builder itself is the core's (core/builder.js).

import { api } from "../../api.js";
import { h } from "../../ui/dom.js";
import { S, page, defs } from "../../core/store.js";
import { select, actorsIn } from "../../core/selection.js";
import { builtCommand, refreshBuilderPreview, startBuilder } from "../../core/builder.js";
import { renderSelection } from "../../core/selectionpanel.js";
import { standardPreview, standardBombardPreview } from "./previews.js";
import { bombardCommand } from "./options.js";

/** 7.13: the attacker's tactics (last stand, 7.13(5), is the defender's answer). */
const STD_TACTICS = [
  ["none", "no tactic (a plain attack)", "7.13"],
  ["skirmish", "skirmish", "7.13(1)"],
  ["press", "press forward", "7.13(2)"],
  ["charge", "charge (declared in the movement phase)", "7.13(3), 9.3"],
  ["disengage", "disengage", "7.13(4)"],
];

const tacticLabel = (t) => (STD_TACTICS.find(([x]) => x === t) || [0, t])[1];

/** 7.13: the builder's tactic list says which tactics the referee refuses for the units chosen now, and why (each
 *  asked of the preview; the choice stays open, the preview judges it). */
async function probeTactics() {
  const b = S.builder;
  if (!b) return;
  const seq = ++b.probeSeq;
  const base = builtCommand();
  if (!base.attackers.length) return;
  const notes = {};
  await Promise.all(STD_TACTICS.map(async ([t]) => {
    if (t === (base.tactic || "none")) return; // the builder's own preview judges the chosen one
    const cmd = { ...base };
    if (t === "none") delete cmd.tactic;
    else cmd.tactic = t;
    try {
      const p = (await api.preview(page.gameId, cmd)).preview || {};
      if (!p.legal) notes[t] = { rule: p.rule, message: p.message };
    } catch (e) {
      notes[t] = { rule: e.rule, message: e.message };
    }
  }));
  if (!S.builder || S.builder !== b || b.probeSeq !== seq) return;
  b.tacticNotes = notes;
  renderSelection();
}

/** The Standard part of the attack builder (core/builder.js, editions/index.js). */
export const builder = {
  rules: "rules 7.1–7.14, 8.8, 10.3",
  supportText: "supporting fire (8.8)",
  leaderText(l, name, hex) {
    const spent = ((S.view.standard && S.view.standard.assisted) || []).includes(l) ? " — has assisted this turn" : "";
    return ` ${name} (${hex}) joins a unit of his hex, adding his combat factor (10.3; one assist a turn${spent})`;
  },
  primaryText: "Primary unit (it takes the result's morale check and step loss, 7.5): ",
  start(b, cmd) {
    b.tactic = cmd.tactic || "none"; // 7.13: the attacker's announced tactic
    b.coordinator = cmd.coordinator || ""; // 7.14: the leader who coordinates the attack
    b.tacticNotes = {}; // 7.13: why each other tactic is refused for these units
    if (!b.preview && !b.refusal) refreshBuilderPreview();
    else probeTactics();
  },
  command(cmd, b) {
    if (b.tactic && b.tactic !== "none") cmd.tactic = b.tactic;
    if (b.coordinator) cmd.coordinator = b.coordinator;
  },
  changed() {
    probeTactics();
  },
  rows(box, b, name) {
    const v = S.view;
    // 7.13: the tactic the attacker announces (the defender answers with its own, a decision of its player)
    const ts = h("select#builder-tactic", { "aria-label": "Tactic (rule 7.13)" }, STD_TACTICS.map(([t, label, rule]) => {
      const no = b.tacticNotes[t];
      return h("option", { value: t, "data-refused": no ? "true" : "false", text: `${label} (${rule})${no ? ` — not now: ${no.message}` : ""}`, selected: b.tactic === t });
    }));
    ts.value = b.tactic || "none";
    ts.addEventListener("change", () => { b.tactic = ts.value; refreshBuilderPreview(); });
    box.appendChild(h("label.builder-row", {}, ["Tactic: ", ts, h("span.rule", { text: "rule 7.13", style: "margin-left:6px" })]));
    const listed = (b.choices.tactics || []).filter((t) => t !== "none");
    if (listed.length) box.appendChild(h("div.whose-sub#builder-tactics-hint", { text: `The referee lists ${listed.map((t) => (STD_TACTICS.find(([x]) => x === t) || [t, t])[1]).join(", ")} for this target.` }));
    // 7.14: an attack by several formations is coordinated by a leader whose command span covers them
    const leaders = b.choices.leaders || [];
    if (leaders.length) {
      const cs = h("select#builder-coordinator", { "aria-label": "Coordinating leader (rule 7.14)" }, [
        h("option", { value: "", text: "nobody (one formation, or the other formations are halved)", selected: !b.coordinator }),
        ...leaders.map((l) => h("option", { value: l, text: `${name(l)} (${(v.units[l] || {}).hex || ""})`, selected: b.coordinator === l })),
      ]);
      cs.value = b.coordinator || "";
      cs.addEventListener("change", () => { b.coordinator = cs.value; refreshBuilderPreview(); });
      box.appendChild(h("label.builder-row", {}, ["Coordinated by: ", cs, h("span.rule", { text: "rules 7.14, 19.1", style: "margin-left:6px" })]));
    }
  },
  preview: (pv, name) => standardPreview(pv, name),
  confirmText: (cmd) => (cmd.tactic ? `Confirm attack (${tacticLabel(cmd.tactic)})` : "Confirm attack"),
};

/** 7.13(3), 9.3: select a declared charge's units and open the attack builder on its target (tactic: charge). */
export function makeCharge(cmd) {
  const hx = (S.view.units[cmd.attackers[0]] || {}).hex;
  if (!hx) return;
  select(hx, actorsIn(hx).filter((u) => cmd.attackers.includes(u) || (cmd.leaders || []).includes(u)));
  S.openBuilderOn = cmd.target;
  page.map.centerOn(cmd.target);
}

/** The builder opens on a declared charge's target as soon as the options for its units arrive. */
export function openDeclaredCharge() {
  const open = S.openBuilderOn && S.options.attacks.find((x) => x.target === S.openBuilderOn);
  S.openBuilderOn = null;
  if (open) {
    S.preview = { kind: "attack", item: open, alt: null };
    startBuilder(open);
  }
}

/** 8.4: a bombardment's preview (its fire groups and results), asked of the referee when first shown. */
async function fetchBombardPreview(item) {
  item.loading = true;
  try {
    const p = (await api.preview(page.gameId, item.command)).preview || {};
    item.preview = p.legal ? p : null;
    item.refusal = p.legal ? null : { rule: p.rule, message: p.message };
  } catch (e) {
    item.refusal = { rule: e.rule, message: e.message };
  }
  item.loading = false;
  renderSelection();
}

/** 8.4: the fire groups the page holds for a bombardment (each gun's group number, each group's coordinating
 *  leader), read once from the command the options opened on. */
function fireOf(item) {
  if (item.fire) return item.fire;
  const d = defs();
  const guns = item.artillery || [];
  const groupOf = {};
  const leaders = {};
  ((item.command && item.command.groups) || []).forEach((g, i) => g.forEach((u) => {
    if (d[u] && d[u].kind === "leader") leaders[i] = u;
    else groupOf[u] = i;
  }));
  let next = Math.max(-1, ...Object.values(groupOf)) + 1;
  for (const u of guns) if (!(u in groupOf)) groupOf[u] = next++;
  item.fire = { groupOf, leaders };
  return item.fire;
}

/** 8.4, 10.3: the leaders the page offers to coordinate a fire group: the selected ones and those the referee
 *  lists for this target, effective and on the map. */
function fireLeaders(item) {
  const d = defs();
  const listed = (item.variants || []).flatMap((c) => (c.groups || []).flat());
  return [...new Set([...S.selected, ...listed])].filter((u) => d[u] && d[u].kind === "leader" && (S.view.units[u] || {}).hex && !(S.view.units[u] || {}).ineffective);
}

/** 8.4: the fire groups changed: the command follows and the referee judges it again. */
function refire(item) {
  const f = fireOf(item);
  item.command = bombardCommand(item.target, item.artillery || [], f.groupOf, f.leaders);
  item.preview = null;
  item.refusal = null;
  renderSelection();
}

/** 8.4: which of the selected guns fire together (a group each) and the leader coordinating a group, by clicks;
 *  each group fires at a unit of the hex chosen when it fires (decision `bombard_unit`). */
function fireGroupRows(item, nameOf) {
  const guns = item.artillery || [];
  if (guns.length < 2) return null;
  const f = fireOf(item);
  const box = h("div.std-fire-builder#bombard-groups", { role: "group", "aria-label": "Fire groups (rule 8.4)" }, [
    h("div.whose-sub", {}, ["Fire groups: the guns of a group fire together when each is stacked with or adjacent to another of them or to the leader coordinating them; each group fires at a unit of its choice.", h("span.rule", { text: "rule 8.4", style: "margin-left:6px" })]),
  ]);
  for (const u of guns) {
    const sel = h("select.bombard-group", { "data-unit": u, "aria-label": `Fire group of ${nameOf(u)} (rule 8.4)` }, guns.map((_, i) => h("option", { value: String(i), text: `fire group ${i + 1}`, selected: f.groupOf[u] === i })));
    sel.value = String(f.groupOf[u]);
    sel.addEventListener("change", () => { f.groupOf[u] = Number(sel.value); refire(item); });
    box.appendChild(h("label.builder-row", {}, [`${nameOf(u)}: `, sel]));
  }
  const leaders = fireLeaders(item);
  const spent = (S.view.standard && S.view.standard.assisted) || [];
  const sizes = {};
  for (const u of guns) sizes[f.groupOf[u]] = (sizes[f.groupOf[u]] || 0) + 1;
  for (const [k, n] of Object.entries(sizes)) {
    if (n < 2 || !leaders.length) continue;
    const cs = h("select.bombard-leader", { "data-group": k, "aria-label": `Leader coordinating fire group ${Number(k) + 1} (rules 8.4, 10.3)` }, [
      h("option", { value: "", text: "nobody (the guns are stacked or adjacent)", selected: !f.leaders[k] }),
      ...leaders.map((l) => h("option", { value: l, text: `${nameOf(l)} (${(S.view.units[l] || {}).hex || ""})${spent.includes(l) ? " — has assisted this turn" : ""}`, selected: f.leaders[k] === l })),
    ]);
    cs.value = f.leaders[k] || "";
    cs.addEventListener("change", () => { f.leaders[k] = cs.value; refire(item); });
    box.appendChild(h("label.builder-row", {}, [`Fire group ${Number(k) + 1} coordinated by: `, cs, h("span.rule", { text: "rules 8.4, 10.3", style: "margin-left:6px" })]));
  }
  return box;
}

/** The bombardment's preview box: the fire groups (8.4), then asked for, refused, or each group's strength and
 *  results (8.4–8.7); confirmed only once judged. */
export function previewBody(kind, item, nameOf) {
  if (kind !== "bombard") return null;
  if (!item.preview && !item.loading && !item.refusal) fetchBombardPreview(item);
  const judged = item.loading ? h("div.whose-sub", { text: "Asking the referee for the fire groups…" })
    : item.refusal ? h("div.form-error#builder-refusal", { role: "alert" }, [item.refusal.message || "Not allowed.", item.refusal.rule ? h("span.rule", { text: `rule ${item.refusal.rule}`, style: "margin-left:6px" }) : null])
      : standardBombardPreview(item.preview, nameOf) || h("span");
  const body = h("div", {}, [fireGroupRows(item, nameOf), judged]);
  return { body, rules: "rules 8.4, 8.5, 8.6, 8.7", blocked: !!(item.loading || item.refusal || !item.preview) };
}
