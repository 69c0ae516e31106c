// The Standard rules' parts of the game page (ruleset `standard`, docs/engine-contract.md "The Standard
// edition"): reading the options endpoint's Standard answer into the shape the page draws, the Standard
// panel (light, HQ and trains, the declared move and its rolled MA, march, the turn record track with the
// routed and eliminated units, the fortunes of war owed), the movement actions (flip, recover, replace,
// muster, re-enter) and the attack preview. The server decides everything; this only reads it.

import { h, clear } from "./dom.js";
import { counterIcon } from "../counters.js";
import { distance, parseId, formatId } from "../hexgeom.js";

/** The pseudo entry of units on the turn record track: they re-enter by placement (13.2), not at an entry hex. */
export const TRT = "TRT";

export function isStandard(view) {
  return !!view && view.ruleset === "standard";
}

const ACTION_RULE = { flip: "2.6", recover: "11.1", replace: "11.2", muster: "11.2", reenter: "13.2" };

function sameSet(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

/** A movement action's button text. */
export function actionLabel(cmd, defs, view) {
  const name = defs[cmd.unit] ? defs[cmd.unit].name : cmd.unit;
  const kind = defs[cmd.unit] ? defs[cmd.unit].kind : "";
  const u = (view && view.units && view.units[cmd.unit]) || {};
  switch (cmd.type) {
    case "flip":
      return kind === "hq" || kind === "trains" ? `Flip ${name} to inactive, to move it` : `Flip ${name} to its ineffective side`;
    case "recover":
      return `Recover ${name}${u.disrupted ? " (disrupted)" : u.ineffective ? " (ineffective)" : ""}${cmd.assist ? ` with ${defs[cmd.assist] ? defs[cmd.assist].name : cmd.assist}'s assist (10.3)` : ""}`;
    case "replace":
      return u.status === "eliminated" ? `Replace ${name}: to the next TRT box` : `Replace a step of ${name}`;
    case "muster":
      return `Muster ${name}: extra replacement check`;
    case "reenter":
      return `Re-enter ${name} at ${cmd.hex}`;
    default:
      return `${cmd.type} ${name}`;
  }
}

/**
 * The options endpoint's Standard answer for a selection, in the page's shape (web/js/ui/options.js):
 * {reach, attacks, illegal, bombards, charges, commands, notes, squares, attackChoices, std, mode, move}.
 * `mode` is the move the page shows: "normal" or "march" (4.7); a declared move keeps its own (4.4).
 */
export function standardOptions(raw, { mode = "normal", selected = [], selHexes = [], defs = {}, view = null, shifted = "even", side = null, sc = null } = {}) {
  const o = (raw && raw.options) || {};
  const out = { reach: new Map(), attacks: [], illegal: [], bombards: [], charges: [], commands: [], notes: [], squares: [], attackChoices: new Map(), std: o };
  const declared = o.declared || null;
  const mine = declared && sameSet(declared.units, selected);
  let m = mode === "march" ? "march" : "normal";
  if (mine) m = declared.march ? "march" : "normal";
  else if (!o[m] && o[m === "march" ? "normal" : "march"]) m = m === "march" ? "normal" : "march";
  out.mode = m;
  out.declaredMine = !!mine;
  const mv = o[m] || null;
  out.move = mv;
  if (mv && !mv.declare) for (const [hex, r] of Object.entries(mv.reachable || {})) out.reach.set(hex, { cost: null, path: r.path, ends: false });
  for (const c of o.actions || []) {
    if (!selected.includes(c.unit)) continue;
    if (c.type === "reenter") out.reach.set(c.hex, { cost: "", path: null, reenter: c });
    else out.commands.push({ label: actionLabel(c, defs, view), command: c, rule: ACTION_RULE[c.type] });
  }
  // 9.5: squares, formed or removed before any unit of the side moves (the referee lists them when it can;
  // otherwise each selected infantry unit is offered its own, judged when sent)
  for (const c of squareCommands(o, view, defs, side, selected)) out.commands.push({ label: squareLabel(c, defs, view), command: c, rule: "9.5" });
  if (declared && !mine) out.notes.push({ text: `First carry out the declared move of ${declared.units.map((u) => (defs[u] ? defs[u].name : u)).join(", ")}, or stay (S).`, rule: "4.4" });
  if (mv && mv.declare) {
    const word = (r) => (/^[0-9]+(\.[0-9]+)*$/.test(String(r)) ? `rule ${r}` : String(r));
    const why = Object.entries(mv.reasons || {}).map(([u, r]) => `${defs[u] ? defs[u].name : u}: ${(Array.isArray(r) ? r : [r]).map(word).join(", ")}`).join("; ");
    out.notes.push({ text: `This ${m === "march" ? "march" : "move"}'s MA is rolled when it begins${why ? " (" + why + ")" : ""}: declare it (D), then click where to go, or stay (S).`, rule: "4.4" });
  } else if (mv) {
    out.notes.push({ text: `${m === "march" ? "March movement" : "Movement"}: MA ${mv.ma}${mine ? " (rolled)" : ""}${mv.disengaging ? "; disengaging from enemy ZOC (6.3)" : ""}.`, rule: m === "march" ? "4.7" : mine ? "4.4" : "4.2" });
  }
  const said = new Set();
  for (const k of ["normal_error", "march_error"]) {
    if (!o[k] || said.has(o[k].message)) continue;
    said.add(o[k].message);
    out.notes.push({ text: `${k === "march_error" ? "No march" : "No move"}: ${o[k].message}`, rule: o[k].rule });
  }
  // attacks (7.1, 7.13): the referee lists one attack per target hex and its variants (leaders, coordinator,
  // support, each tactic, skirmishes, declared charges); the page shows one target per hex and the builder
  // offers every unit, leader, gun and tactic of the selection that could take part
  const enemy = enemyCombatHexes(view, defs, side);
  const byTarget = new Map();
  for (const a of o.attacks || []) {
    const cmd = a.command || {};
    if (!cmd.target) continue;
    if (a.legal === false) {
      if (!byTarget.has(cmd.target)) out.illegal.push({ target: cmd.target, rule: a.rule, message: a.message });
      continue;
    }
    out.illegal = out.illegal.filter((x) => x.target !== cmd.target);
    if (!byTarget.has(cmd.target)) byTarget.set(cmd.target, []);
    byTarget.get(cmd.target).push(a);
  }
  // 7.13(1): a skirmish may be made on an enemy two hexes away (or one the referee did not list with a plain
  // attack); the referee samples one skirmish target per unit, so the page offers the others too and lets the
  // preview judge them
  if (view && view.phase === "combat" && side) {
    for (const [hex] of enemy) {
      if (byTarget.has(hex) || out.illegal.some((x) => x.target === hex)) continue;
      const skirmishers = selected.filter((u) => unitNear(view, defs, u, hex, shifted, SKIRMISHERS, 2));
      if (!skirmishers.length) continue;
      const cmd = { type: "attack", target: hex, attackers: [skirmishers[0]], primary: skirmishers[0], tactic: "skirmish" };
      byTarget.set(hex, [{ legal: true, command: cmd, unlisted: true }]);
    }
  }
  for (const [target, list] of byTarget) {
    // a declared charge (7.13(3)) is the one attack its target may receive: the builder opens on it
    const plain = list.find((a) => a.command.tactic === "charge") || list.find((a) => !(a.command.tactic && a.command.tactic !== "none") && !a.command.leaders && !a.command.coordinator && !a.command.support) || list.find((a) => !(a.command.tactic && a.command.tactic !== "none")) || list[0];
    const cmd = plain.command;
    const tactics = [...new Set(list.map((a) => a.command.tactic || "none"))];
    out.attacks.push({ target, attackers: cmd.attackers || [], primary: cmd.primary || null, support: [], preview: plain.unlisted ? null : plain, command: cmd, rule: "7.1", tactics, variants: list.map((a) => a.command), unlisted: !!plain.unlisted });
    const near = selected.filter((u) => unitNear(view, defs, u, target, shifted, COMBAT_KINDS, 1) || unitNear(view, defs, u, target, shifted, SKIRMISHERS, 2));
    const attackers = [...new Set([...list.flatMap((a) => a.command.attackers || []), ...near])];
    const guns = selected.filter((u) => defs[u] && defs[u].kind === "artillery" && !attackers.includes(u) && onMap(view, u));
    const support = [...new Set([...list.flatMap((a) => a.command.support || []), ...guns])];
    const chosenLeaders = list.flatMap((a) => [...(a.command.leaders || []), ...(a.command.coordinator ? [a.command.coordinator] : [])]);
    const leaders = [...new Set([...chosenLeaders, ...selected.filter((u) => defs[u] && defs[u].kind === "leader" && onMap(view, u))])];
    out.attackChoices.set(target, { attackers, support, leaders, tactics });
  }
  // 8.4: bombardment by the selected guns: the referee's options list each target with its preview; without that
  // list (an older server) the page rings each enemy hex within a gun's range + 1 (a hill, 8.7) and the light's line
  // of sight, and asks the preview for the fire groups and their results
  if (o.bombardments) {
    // the referee's list (each with its preview): per target, all the guns that may fire and each alone; the page
    // takes the largest set of the selected guns
    const guns = new Set(selected.filter((u) => defs[u] && defs[u].kind === "artillery"));
    const best = new Map();
    for (const b of o.bombardments) {
      const cmd = b && b.command;
      if (!cmd || !cmd.target || b.legal === false || !(cmd.artillery || []).every((u) => guns.has(u))) continue;
      const cur = best.get(cmd.target);
      if (!cur || cmd.artillery.length > cur.command.artillery.length) best.set(cmd.target, b);
    }
    for (const [target, b] of best) {
      const range = view && view.units ? Math.max(...b.command.artillery.map((u) => ((view.units[u] || {}).hex ? distance(view.units[u].hex, target, shifted) : 0))) : null;
      out.bombards.push({ target, artillery: b.command.artillery, range, los: true, preview: b, command: b.command, rule: "8.4" });
    }
  } else if (view && view.phase === "combat" && side) {
    const light = (view.standard && view.standard.light) || "day";
    const los = { day: 10, twilight: 1, night: 0 }[light] ?? 10;
    const done = new Set((view.standard && view.standard.bombarded) || []); // 8.4: bombarded once a phase
    for (const [hex] of enemy) {
      if (done.has(hex)) continue;
      const guns = selected.filter((u) => {
        const r = gunRange(defs, view, u);
        const st = view.units[u] || {};
        if (!r || !st.hex || st.attacked) return false;
        const d = distance(st.hex, hex, shifted);
        return d >= 2 && d <= Math.min(r + 1, los);
      });
      if (!guns.length) continue;
      const range = Math.max(...guns.map((u) => distance(view.units[u].hex, hex, shifted)));
      out.bombards.push({ target: hex, artillery: guns, range, los: true, preview: null, command: { type: "bombard", target: hex, artillery: guns }, rule: "8.4" });
    }
  }
  // 7.13(3), 9.3(1): the infantry or cavalry charge declared in the movement phase (stacked, moving one or two
  // MP (cavalry: hexes) to a hex next to the enemy).
  // The referee lists the charges of each stack's largest group (judged). A selection of part of such a group is
  // offered the same paths (judged when sent); without the referee's list (an older server) the page offers every
  // path of one or two hexes.
  let charges = [];
  if (Array.isArray(o.charges)) {
    charges = o.charges.filter((c) => c && sameSet(c.units || [], selected));
    if (!charges.length && chargeGroupOk(view, defs, selected)) {
      const seen = new Set();
      for (const c of o.charges) {
        const key = `${c.path.join(",")}>${c.target}`;
        if (!selected.every((u) => (c.units || []).includes(u)) || seen.has(key)) continue;
        seen.add(key);
        charges.push({ ...c, units: [...selected] });
      }
    }
  } else if (view && view.phase === "movement" && side) charges = chargeCandidates(view, defs, side, selected, enemy, shifted, sc);
  for (const c of charges) {
    const cmd = c.command || c;
    if (!cmd || cmd.type !== "charge" || !cmd.target) continue;
    const cav = (cmd.units || []).some((u) => defs[u] && CAVALRY.has(defs[u].kind));
    out.charges.push({ kind: "move", target: cmd.target, path: cmd.path || [], command: cmd, rule: cav ? "9.3(1)" : "7.13(3)" });
  }
  return out;
}

/** 8.4, 8.7: an effective, undisrupted artillery unit's printed range (0: it cannot bombard). */
function gunRange(defs, view, u) {
  const d = defs[u];
  const st = (view && view.units && view.units[u]) || {};
  if (!d || d.kind !== "artillery" || st.status !== "map" || st.disrupted || st.ineffective) return 0;
  const face = d.full || {};
  return face.attack > 0 ? face.range || 0 : 0;
}

/** The bombardment preview (8.4, 8.5, 9.2(4), R12): each fire group, and for each enemy unit of the hex its
 *  strength and the result of each die. */
export function standardBombardPreview(pv, nameOf) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": "bombard", "data-ruleset": "standard" });
  (pv.groups || []).forEach((g, i) => {
    const sec = h("div.std-fire-group", { "data-group": i }, [h("b", { text: `${(pv.groups || []).length > 1 ? `Fire group ${i + 1}: ` : "Firing: "}${(g.artillery || []).map(nameOf).join(", ")}` }), h("span.rule", { text: `rule ${g.rule || "8.4"}`, style: "margin-left:6px" })]);
    for (const t of g.targets || []) {
      sec.appendChild(h("div.whose-sub", {}, [`at ${nameOf(t.unit)}: strength ${t.strength}`, t.doubled ? h("span.rule", { text: `doubled against cavalry, rule ${t.doubled}`, style: "margin-left:6px" }) : null]));
      sec.appendChild(h("table.odds.std-results", { "aria-label": `The result of each die against ${nameOf(t.unit)}` }, [h("tbody", {}, (t.results || []).map((r, k) => h("tr", { "data-result": r }, [h("td.odds-code", { text: `die ${k + 1}` }), h("td.odds-words", {}, [h("b", { text: r })])])))]));
    }
    box.appendChild(sec);
  });
  if (pv.note) box.appendChild(h("div.whose-sub", { text: pv.note }));
  return box;
}

const COMBAT_KINDS = new Set(["infantry", "battalion", "cavalry", "squadron", "artillery"]);
const SKIRMISHERS = new Set(["infantry", "battalion"]);
const CAVALRY = new Set(["cavalry", "squadron"]);

function onMap(view, u) {
  const st = (view && view.units && view.units[u]) || {};
  return st.status === "map" && !!st.hex;
}

function unitNear(view, defs, u, hex, shifted, kinds, reach) {
  const st = (view && view.units && view.units[u]) || {};
  if (!defs[u] || !kinds.has(defs[u].kind) || st.status !== "map" || !st.hex || st.attacked) return false;
  const d = distance(st.hex, hex, shifted);
  return d >= 1 && d <= reach;
}

/** The hexes holding an enemy combat unit: Map(hex -> [unit ids]). */
function enemyCombatHexes(view, defs, side) {
  const out = new Map();
  if (!view || !side) return out;
  for (const [id, u] of Object.entries(view.units || {})) {
    const d = defs[id];
    if (!d || d.side === side || !COMBAT_KINDS.has(d.kind) || !u || u.status !== "map" || !u.hex) continue;
    if (!out.has(u.hex)) out.set(u.hex, []);
    out.get(u.hex).push(id);
  }
  return out;
}

/** The on-map neighbours of a hex. */
export function neighbours(hex, map) {
  const { col, row } = parseId(hex);
  const shifted = (map && map.shifted) || "even";
  const out = [];
  for (let c = col - 1; c <= col + 1; c++) {
    for (let r = row - 1; r <= row + 1; r++) {
      if (c < 1 || r < 1 || (map && (c > map.columns || r > map.rows))) continue;
      const id = formatId(c, r);
      if (id !== hex && distance(hex, id, shifted) === 1) out.push(id);
    }
  }
  return out;
}

/** 7.13(3), 9.3: whether the selected units may charge together: infantry (at most one battalion and one other
 *  infantry unit) or cavalry (at most one squadron and one other cavalry unit), with at most one leader, stacked,
 *  none disrupted, ineffective, moved or marched, and no declared move pending. */
export function chargeGroupOk(view, defs, selected) {
  if (!view || !selected.length || (view.standard && view.standard.declared)) return false;
  const kinds = selected.map((u) => defs[u] && defs[u].kind);
  const infantry = kinds.some((k) => SKIRMISHERS.has(k));
  const cavalry = kinds.some((k) => CAVALRY.has(k));
  if (infantry === cavalry || kinds.some((k) => !(k === "leader" || (infantry ? SKIRMISHERS : CAVALRY).has(k)))) return false;
  for (const k of ["leader", "battalion", "infantry", "squadron", "cavalry"]) if (kinds.filter((x) => x === k).length > 1) return false;
  const sts = selected.map((u) => (view.units || {})[u] || {});
  const start = sts[0].hex;
  if (!start || sts.some((st) => st.status !== "map" || st.hex !== start || st.disrupted || st.ineffective || st.moved)) return false;
  return !((view.standard && view.standard.marched) || []).some((u) => selected.includes(u));
}

/** 7.13(3), 9.3(1): the charges the selection could declare: the selected units (infantry: at most one leader, one
 *  battalion and one other infantry unit; cavalry: at most one leader, one squadron and one other cavalry unit;
 *  stacked, none disrupted, ineffective or moved) along each path of one or two hexes to a hex next to an enemy
 *  combat unit. Geometry only: the referee judges the MP, terrain, zones of control and stacking. */
export function chargeCandidates(view, defs, side, selected, enemy, shifted = "even", sc = null) {
  if (!chargeGroupOk(view, defs, selected)) return [];
  const start = view.units[selected[0]].hex;
  const map = Object.assign({ shifted }, (sc && sc.map) || {});
  const blocked = new Set();
  for (const [id, u] of Object.entries(view.units || {})) if (defs[id] && defs[id].side !== side && u && u.status === "map" && u.hex) blocked.add(u.hex);
  const out = [];
  const paths = [];
  for (const a of neighbours(start, map)) {
    if (blocked.has(a)) continue;
    paths.push([start, a]);
    for (const b of neighbours(a, map)) if (b !== start && !blocked.has(b)) paths.push([start, a, b]);
  }
  for (const path of paths) {
    const end = path[path.length - 1];
    for (const t of neighbours(end, map).filter((x) => enemy.has(x)).sort()) out.push({ type: "charge", units: [...selected], path, target: t });
  }
  return out;
}

/** 9.5: the square commands of the selected units: the referee's list when the options carry one, else each
 *  infantry unit forms square in its hex or removes its own, in its side's movement phase before any unit moves. */
export function squareCommands(o, view, defs, side, selected) {
  if (Array.isArray(o.squares)) return o.squares.filter((c) => c && selected.includes(c.unit));
  if (!view || view.phase !== "movement" || !side || (view.active && view.active !== side) || (view.standard && view.standard.declared)) return [];
  const mine = Object.entries(view.units || {}).filter(([id]) => defs[id] && defs[id].side === side);
  if (mine.some(([, u]) => u && u.moved)) return [];
  const sq = view.squares && !Array.isArray(view.squares) ? view.squares : {};
  const out = [];
  for (const u of selected) {
    const st = view.units[u] || {};
    if (!defs[u] || st.status !== "map" || !st.hex) continue;
    if (sq[st.hex] === u) out.push({ type: "square", unit: u, form: false });
    else if (SKIRMISHERS.has(defs[u].kind) && !(st.hex in sq)) out.push({ type: "square", unit: u });
  }
  return out;
}

function squareLabel(c, defs, view) {
  const hex = ((view && view.units[c.unit]) || {}).hex || "";
  return c.form === false ? `Remove the square of ${name(defs, c.unit)} (${hex})` : `Form square with ${name(defs, c.unit)} (${hex})`;
}

/** Is a hex on the map's edge (4.1: a unit may leave the map from it)? */
export function isEdgeHex(scenario, hex) {
  const m = scenario && scenario.map;
  if (!m || typeof hex !== "string") return false;
  const col = +hex.slice(0, 2);
  const row = +hex.slice(2);
  return col === 1 || row === 1 || col === m.columns || row === m.rows;
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

function name(defs, u) {
  return defs[u] ? defs[u].name : u;
}

const LIGHT_WORDS = {
  day: "Day",
  twilight: "Twilight: morale checks +1, no coordination, line of sight one hex (14.3)",
  night: "Night: morale checks +2, only infantry charges attack, no line of sight, recovery by night rules (14.2)",
};

/**
 * The Standard panel: light, HQ and trains, the declared move, march, FOW owed, the turn record track.
 * ctx: {scenario, view, side, defs, mine (my turn, no decision), onStay, onSelectDeclared, sideName}
 */
export function renderStandardPanel(sec, ctx) {
  const { scenario: sc, view: v, defs } = ctx;
  const std = v && v.standard;
  if (!std) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  sec.appendChild(h("h3", {}, ["Standard rules", h("span.rule", { text: "rules 3.2, 12.1–12.3, 13.2" })]));
  const dl = h("dl.kv#std-state");
  dl.append(h("dt", { text: "Light" }), h(`dd.light-${std.light}#std-light`, { text: LIGHT_WORDS[std.light] || std.light }));
  // the HQs and trains (12.1, 12.2)
  const army = Object.entries(v.units || {}).filter(([id]) => defs[id] && (defs[id].kind === "hq" || defs[id].kind === "trains"));
  army.sort((a, b) => a[0].localeCompare(b[0]));
  const inactive = new Set(std.inactive || []);
  for (const [id, u] of army) {
    const state = u.status !== "map" ? "off" : inactive.has(id) ? "inactive" : "active";
    dl.append(
      h("dt", { text: name(defs, id) }),
      h(`dd.army-state.${state}`, { "data-unit": id, text: u.status === "map" ? `${state}, in ${u.hex}` : u.status }),
    );
  }
  sec.appendChild(dl);
  const d = std.declared;
  if (d) {
    const box = h("div.std-declared#std-declared", { "data-units": d.units.join(",") }, [
      h("b", { text: `Declared ${d.march ? "march" : "move"}: ` }),
      `${d.units.map((u) => name(defs, u)).join(", ")}, rolled MA ${d.ma}${d.assist ? ` (with ${name(defs, d.assist)}'s movement, 10.3)` : ""} `,
      h("span.rule", { text: "rule 4.4" }),
    ]);
    if (ctx.mine && ctx.ownDeclared) {
      box.appendChild(h("div.actions", {}, [
        h("button.btn.small.primary#std-select-declared", { type: "button", text: "Select them to move", onclick: ctx.onSelectDeclared }),
        h("button.btn.small#std-stay", { type: "button", onclick: ctx.onStay }, ["Stay ", h("kbd", { text: "S" })]),
      ]));
    }
    sec.appendChild(box);
  }
  if ((std.charges || []).length) {
    // 7.13(3), 9.3: the charges declared this movement phase (made in the combat phase by the same units)
    const ul = h("ul.std-charges-declared#std-charges-declared", { "aria-label": "Declared charges" });
    for (const c of std.charges) ul.appendChild(h("li", { "data-target": c.target }, [`${ctx.sideName(c.side)}: ${c.units.map((u) => name(defs, u)).join(", ")} charge ${c.target}`]));
    sec.appendChild(h("div", {}, [h("b", { text: "Charges declared " }), h("span.rule", { text: "rules 7.13(3), 9.3" }), ul]));
  }
  if ((std.forced || []).length) {
    // 12.4 (S48): attacks a fortune of war's move obliges the phasing player to make before the phase ends
    const ul = h("ul.std-forced#std-forced", { "aria-label": "Attacks owed by a fortune of war" });
    for (const f of std.forced) ul.appendChild(h("li", { "data-target": f.target }, [`${f.units.map((u) => name(defs, u)).join(", ")} must attack ${f.target}`]));
    sec.appendChild(h("div", {}, [h("b", { text: "Attacks owed before the phase ends " }), h("span.rule", { text: "rule 12.4" }), ul]));
  }
  if ((std.assisted || []).length) sec.appendChild(h("div.whose-sub#std-assisted", {}, [`Leaders who have assisted this turn: ${std.assisted.map((u) => name(defs, u)).join(", ")}`, h("span.rule", { text: "rule 10.3", style: "margin-left:6px" })]));
  if ((std.marched || []).length) sec.appendChild(h("div.whose-sub#std-marched", {}, [`Marched this phase: ${std.marched.map((u) => name(defs, u)).join(", ")}`, h("span.rule", { text: "rule 4.7", style: "margin-left:6px" })]));
  if ((std.fow_owed || []).length) {
    // 12.4: each fortune of war with what its receiver played (`played`: the decision's option id)
    const ul = h("ul.std-fow#std-fow", { "aria-label": "Fortunes of war" });
    const played = (p) => {
      const [what, arg] = [p.split(":")[0], p.split(":").slice(1).join(":")];
      const words = { pass: "let go", morale: `${name(defs, arg)} checked morale`, recover: `${name(defs, arg)} tried to recover`, enemy_move: `tried to move ${name(defs, arg)}`, friendly_move: `moved the stack at ${arg}`, charge: `a charge${arg ? ` (${arg})` : ""}` };
      return what === "pass" ? "let go" : `played: ${words[what] || p}`;
    };
    const item = (f) => {
      const done = f.played !== undefined && f.played !== null;
      return h(`li.${done ? "played" : "owed"}`, { "data-played": done ? String(f.played) : "" }, [`${ctx.sideName(f.side)}: turn ${f.turn}, ${f.why}${done ? ` — ${played(String(f.played))}` : " — owed"}`, h("span.rule", { text: `rule ${f.rule}`, style: "margin-left:6px" })]);
    };
    // the owed ones and this turn's in full; earlier ones folded away
    const recent = std.fow_owed.filter((f) => f.played === undefined || f.played === null || f.turn === v.turn);
    const older = std.fow_owed.filter((f) => !recent.includes(f));
    for (const f of recent) ul.appendChild(item(f));
    const wrap = h("div", {}, [h("b", { text: "Fortunes of war " }), h("span.rule", { text: "rule 12.4" }), ul]);
    if (older.length) wrap.appendChild(h("details.std-fow-older", {}, [h("summary", { text: `${older.length} played on earlier turns` }), h("ul.std-fow", {}, older.map(item))]));
    sec.appendChild(wrap);
  }
  sec.appendChild(trtTable(sc, v, defs, ctx));
}

/** The turn record track (3.2, 7.10, 11.2): each box's turn, time, light and replacements, the units waiting in
 *  it to re-enter, and the units eliminated or lost. */
function trtTable(sc, v, defs, ctx) {
  const std = v.standard;
  const waiting = new Map();
  const elim = [];
  const lost = [];
  for (const [id, u] of Object.entries(v.units || {})) {
    if (!u || !defs[id]) continue;
    if (u.status === "returning" && u.entry_turn) {
      if (!waiting.has(u.entry_turn)) waiting.set(u.entry_turn, []);
      waiting.get(u.entry_turn).push(id);
    } else if (u.status === "eliminated") elim.push(id);
    else if (["dead", "captured", "removed"].includes(u.status)) lost.push(id);
  }
  const wrap = h("div.std-trt#std-trt", {}, [h("b", { text: "Turn record track " }), h("span.rule", { text: "rules 3.2, 7.10, 11.2" })]);
  const table = h("table.trt", { "aria-label": "Turn record track" });
  const body = h("tbody");
  const boxes = [...(std.trt || [])];
  const last = boxes.length ? boxes[boxes.length - 1].turn : 0;
  for (const t of [...waiting.keys()].filter((t) => t > last).sort((a, b) => a - b)) boxes.push({ turn: t, label: "after the battle", light: "", replacements: {} });
  for (const b of boxes) {
    const here = (waiting.get(b.turn) || []).sort();
    const reps = Object.entries(b.replacements || {}).filter(([, n]) => n).map(([s, n]) => `${ctx.sideName(s)} +${n}`).join(", ");
    body.appendChild(h(`tr.trt-box${b.turn === v.turn ? ".now" : ""}.light-${b.light || "none"}`, { "data-turn": b.turn }, [
      h("td", { text: String(b.turn) }),
      h("td", { text: b.label || "" }),
      h("td", { text: b.light || "" }),
      h("td", { text: reps ? `replacements: ${reps}` : "" }),
      h("td.trt-units", {}, here.map((id) => h("span.trt-unit", { "data-unit": id, title: `${name(defs, id)}: re-enters on turn ${b.turn} (13.2)` }, [counterIcon(sc, id, v.units[id], 24)]))),
    ]));
  }
  table.appendChild(body);
  wrap.appendChild(table);
  if (elim.length) wrap.appendChild(h("div.whose-sub#std-eliminated", { text: `Eliminated (replace or muster to return, 11.2): ${elim.sort().map((u) => name(defs, u)).join(", ")}` }));
  if (lost.length) wrap.appendChild(h("div.whose-sub#std-lost", { text: `Out of the battle: ${lost.sort().map((u) => `${name(defs, u)} (${v.units[u].status})`).join(", ")}` }));
  return wrap;
}

/** The movement phase's actions that need no map click (flip, recover, replace, muster), and re-entries. */
export function renderStandardActions(sec, { raw, view, defs, declared, onCommand, onReenter }) {
  clear(sec);
  const actions = ((raw && raw.actions) || []).filter((c) => c && c.type);
  sec.hidden = false;
  sec.appendChild(h("h3", {}, ["Movement phase", h("span.rule", { text: "rules 2.6, 4.4, 11.1–11.3, 13.2" })]));
  if (declared) {
    sec.appendChild(h("div.whose-sub", { text: "A declared move must be carried out (click a shaded hex) or abandoned (Stay, S) before anything else." }));
    return;
  }
  sec.appendChild(h("div.whose-sub", { text: "Select a stack and click a shaded hex to move it (M: march instead; D: declare a move whose MA is rolled; O: leave the map; A: a leader's movement assist; C: charge). Flips and squares (select an infantry unit, 9.5) come before any unit moves." }));
  const plain = actions.filter((c) => c.type !== "reenter");
  const reenter = new Map();
  for (const c of actions) if (c.type === "reenter") reenter.set(c.unit, [...(reenter.get(c.unit) || []), c.hex]);
  if (!plain.length && !reenter.size) {
    sec.appendChild(h("div.whose-sub", { text: "No flips, recoveries, replacements or re-entries are open now." }));
    return;
  }
  const box = h("div.actions.std-actions#std-actions", { role: "group", "aria-label": "Flip, recover, replace, muster and re-enter" });
  for (const c of plain) {
    box.appendChild(h("button.btn.small.std-action", { type: "button", "data-command": JSON.stringify(c), title: `rule ${ACTION_RULE[c.type]}`, text: actionLabel(c, defs, view), onclick: () => onCommand(c) }));
  }
  for (const [u, hexes] of reenter) {
    box.appendChild(h("button.btn.small.std-reenter", { type: "button", "data-unit": u, title: "rule 13.2", text: `Re-enter ${name(defs, u)} (${hexes.length} hex${hexes.length > 1 ? "es" : ""})…`, onclick: () => onReenter(u) }));
  }
  sec.appendChild(box);
}

/** The Standard combat phase's box: the charges declared in the movement phase (7.13(3), 9.3), each made by the
 *  attack builder with the charge tactic; hidden when none is left to make. */
export function renderStandardCombat(sec, { raw, view, defs, onCharge }) {
  clear(sec);
  const charges = ((raw && raw.attacks) || []).filter((a) => a && a.command && a.command.tactic === "charge");
  if (!charges.length) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  sec.appendChild(h("h3", {}, ["Charges to make", h("span.rule", { text: "rules 7.13(3), 9.3" })]));
  sec.appendChild(h("div.whose-sub", { text: "These units declared a charge in the movement phase: only they may attack its target, with the charge tactic." }));
  const box = h("div.actions.std-charges#std-charges", { role: "group", "aria-label": "Declared charges" });
  const seen = new Set();
  for (const a of charges) {
    const c = a.command;
    if (seen.has(c.target)) continue;
    seen.add(c.target);
    const who = [...c.attackers, ...(c.leaders || [])].map((u) => name(defs, u)).join(", ");
    box.appendChild(h("button.btn.small.primary.std-charge-go", { type: "button", "data-target": c.target, title: "rule 7.13(3)", text: `Charge ${c.target}: ${who}${a.legal === false ? ` (${a.message})` : ""}…`, onclick: () => onCharge(c) }));
  }
  sec.appendChild(box);
}
