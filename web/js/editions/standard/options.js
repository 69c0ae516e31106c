// The Standard rules' options (ruleset `standard`, docs/engine-contract.md "The Standard edition"): reading the
// options endpoint's Standard answer into the shape the page draws (moves and marches, re-entries, movement
// actions, squares, attacks with their tactics, bombardments, charges), and the map geometry it needs (edge
// hexes, neighbours). Pure functions of the view and the answer, so that node can test them
// (tests/web/standard.test.mjs). The server decides everything; this only reads it.

import { distance, parseId, formatId } from "../../hexgeom.js";
import { actionWhy } from "./why.js";

/** The pseudo entry of units on the turn record track: they re-enter by placement (13.2), not at an entry hex. */
export const TRT = "TRT";

export function isStandard(view) {
  return !!view && view.ruleset === "standard";
}

export const ACTION_RULE = { flip: "2.6", recover: "11.1", replace: "11.2", muster: "11.2", reenter: "13.2", open_order: "19.10", line: "19.7", line_fire: "19.7 D" };

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
    case "open_order": // 19.10 (S52): adopted before any unit moves, left out of an EZOC (the unit's move then ends)
      return cmd.on === false ? `Leave open order: ${name} (ends its move)` : `Adopt open order: ${name}`;
    case "line": // 19.7 A, C: formed facing an apex before any unit moves; a pivot is the unit's whole move
      if (cmd.on === false) return `Leave line: ${name} (ends its move)`;
      return u.facing ? `Pivot ${name} to face ${cmd.facing} (its whole move)` : `Form line facing ${cmd.facing}: ${name}`;
    case "line_fire": // 19.7 D: long-range fire with the line marker's CF
      return `Long-range fire: ${name} at ${cmd.target}`;
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
    else out.commands.push({ label: actionLabel(c, defs, view), command: c, rule: ACTION_RULE[c.type], why: actionWhy(c, defs, view) });
  }
  // 19.7 D: a line's long-range fire at each target the referee lists
  for (const c of o.line_fire || []) if (selected.includes(c.unit)) out.commands.push({ label: actionLabel(c, defs, view), command: c, rule: ACTION_RULE.line_fire, why: actionWhy(c, defs, view) });
  // 9.5: squares, formed or removed before any unit of the side moves (the referee lists them when it can;
  // otherwise each selected infantry unit is offered its own, judged when sent)
  for (const c of squareCommands(o, view, defs, side, selected)) out.commands.push({ label: squareLabel(c, defs, view), command: c, rule: "9.5", why: actionWhy(c, defs, view) });
  if (declared && !mine) out.notes.push({ text: `First carry out the declared move of ${declared.units.map((u) => (defs[u] ? defs[u].name : u)).join(", ")}, or stay (S).`, rule: "4.4" });
  if (mv && mv.declare) {
    const word = (r) => (/^[0-9]+(\.[0-9]+)*$/.test(String(r)) ? `rule ${r}` : String(r));
    const why = Object.entries(mv.reasons || {}).map(([u, r]) => `${defs[u] ? defs[u].name : u}: ${(Array.isArray(r) ? r : [r]).map(word).join(", ")}`).join("; ");
    out.notes.push({ text: `This ${m === "march" ? "march" : "move"}'s MA is rolled when it begins${why ? " (" + why + ")" : ""}: declare it (D), then click where to go, or stay (S).`, rule: "4.4" });
  } else if (mv) {
    out.notes.push({ text: `${m === "march" ? "March movement" : "Movement"}: MA ${mv.ma}${mine ? " (rolled)" : ""}${mv.disengaging ? "; disengaging from enemy ZOC (6.3)" : ""}.`, rule: m === "march" ? "4.7" : mine ? "4.4" : "4.2" });
    if (mv.limit) out.notes.push({ text: `${mv.limit.text}.`, rule: mv.limit.rule }); // 19.4: Heavy Rain's cap
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
    // the referee's list (each with its preview): per target, all the guns that may fire (each alone, in their
    // largest coordinated groups, with a coordinating leader) and each gun alone. The page offers every selected gun
    // the referee lets fire at the target (any part of a stack, 8.4), opening on the listed grouping of exactly
    // those guns when there is one (the builder's fire groups change it)
    const guns = new Set(selected.filter((u) => defs[u] && defs[u].kind === "artillery"));
    const byHex = new Map();
    for (const b of o.bombardments) {
      const cmd = b && b.command;
      if (!cmd || !cmd.target || b.legal === false) continue;
      if (!byHex.has(cmd.target)) byHex.set(cmd.target, []);
      byHex.get(cmd.target).push(b);
    }
    for (const [target, list] of byHex) {
      const artillery = [...guns].filter((u) => list.some((b) => (b.command.artillery || []).includes(u)));
      if (!artillery.length) continue;
      const exact = list.filter((b) => sameSet(b.command.artillery, artillery));
      const pick = exact.find((b) => b.command.groups && !b.command.groups.flat().some((u) => defs[u] && defs[u].kind === "leader")) || exact.find((b) => !b.command.groups) || null;
      const command = pick ? pick.command : { type: "bombard", target, artillery };
      const range = view && view.units ? Math.max(...artillery.map((u) => ((view.units[u] || {}).hex ? distance(view.units[u].hex, target, shifted) : 0))) : null;
      out.bombards.push({ target, artillery, range, los: true, preview: pick, command, rule: "8.4", variants: list.map((b) => b.command) });
    }
  } else if (view && view.phase === "combat" && side) {
    const light = (view.standard && view.standard.light) || "day";
    const rain = view.standard && view.standard.weather; // 19.4: Light Rain 6 (+1 hill, +2 fieldworks), Heavy Rain 4
    const los = Math.min({ day: 10, twilight: 1, night: 0 }[light] ?? 10, rain && rain.los != null ? rain.los + (rain.now === "light" ? 3 : 0) : Infinity);
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

/** 8.4: the bombardment command of a target's guns fired in the groups the page holds: `groupOf` gives each gun its
 *  group's number, `leaders` a group's coordinating leader (named only for a group of two or more). Each group's
 *  ids sorted (its leader last), the groups by their first gun, as the referee lists them; no `groups` when every
 *  gun fires alone (8.4: each bombardment resolved separately). */
export function bombardCommand(target, artillery, groupOf, leaders = {}) {
  const by = new Map();
  for (const u of artillery) {
    const k = groupOf[u] ?? `alone:${u}`;
    if (!by.has(k)) by.set(k, []);
    by.get(k).push(u);
  }
  const groups = [...by.entries()].map(([k, g]) => {
    g.sort();
    return g.length > 1 && leaders[k] ? [...g, leaders[k]] : g;
  });
  groups.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const cmd = { type: "bombard", target, artillery: [...artillery] };
  if (groups.some((g) => g.length > 1)) cmd.groups = groups;
  return cmd;
}

/** 8.4, 8.7: an effective, undisrupted artillery unit's printed range (0: it cannot bombard). */
function gunRange(defs, view, u) {
  const d = defs[u];
  const st = (view && view.units && view.units[u]) || {};
  if (!d || d.kind !== "artillery" || st.status !== "map" || st.disrupted || st.ineffective) return 0;
  const face = d.full || {};
  return face.attack > 0 ? face.range || 0 : 0;
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

function name(defs, u) {
  return defs[u] ? defs[u].name : u;
}
