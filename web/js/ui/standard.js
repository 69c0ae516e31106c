// The Standard rules' parts of the game page (ruleset `standard`, docs/engine-contract.md "The Standard
// edition"): reading the options endpoint's Standard answer into the shape the page draws, the Standard
// panel (light, HQ and trains, the declared move and its rolled MA, march, the turn record track with the
// routed and eliminated units, the fortunes of war owed), the movement actions (flip, recover, replace,
// muster, re-enter) and the attack preview. The server decides everything; this only reads it.

import { h, clear } from "./dom.js";
import { counterIcon } from "../counters.js";
import { distance } from "../hexgeom.js";

/** The pseudo entry of units on the turn record track: they re-enter by placement (13.2), not at an entry hex. */
export const TRT = "TRT";

export function isStandard(view) {
  return !!view && view.ruleset === "standard";
}

const ACTION_RULE = { flip: "2.6", recover: "11.1", replace: "11.2", muster: "11.2", reenter: "13.2" };
const NOT_COMBAT = new Set(["leader", "hq", "trains"]);

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
      return `Recover ${name}${u.disrupted ? " (disrupted)" : u.ineffective ? " (ineffective)" : ""}`;
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
export function standardOptions(raw, { mode = "normal", selected = [], selHexes = [], defs = {}, view = null, shifted = "even" } = {}) {
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
  // attacks (7.1): each with its preview; the builder offers every selected combat unit next to the target
  const attackedHere = new Set();
  for (const a of o.attacks || []) {
    const cmd = a.command || {};
    if (!cmd.target) continue;
    if (a.legal === false) {
      out.illegal.push({ target: cmd.target, rule: a.rule, message: a.message });
      continue;
    }
    attackedHere.add(cmd.target);
    out.attacks.push({ target: cmd.target, attackers: cmd.attackers || [], primary: cmd.primary || null, support: [], preview: a, command: cmd, rule: "7.1" });
    const near = selected.filter((u) => {
      const st = (view && view.units[u]) || {};
      return defs[u] && !NOT_COMBAT.has(defs[u].kind) && st.status === "map" && st.hex && !st.attacked && distance(st.hex, cmd.target, shifted) === 1;
    });
    const attackers = [...new Set([...(cmd.attackers || []), ...near])];
    out.attackChoices.set(cmd.target, { attackers, support: [], leaders: [] });
  }
  return out;
}

/** Is a hex on the map's edge (4.1: a unit may leave the map from it)? */
export function isEdgeHex(scenario, hex) {
  const m = scenario && scenario.map;
  if (!m || typeof hex !== "string") return false;
  const col = +hex.slice(0, 2);
  const row = +hex.slice(2);
  return col === 1 || row === 1 || col === m.columns || row === m.rows;
}

/** The attack preview (7.7, R12): the differential, the CRT column, the result of each die, each unit's factor
 *  and its halvings with their rules. */
export function standardPreview(pv, nameOf) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": "attack", "data-ruleset": "standard" });
  const side = (title, list) => {
    const total = (list || []).reduce((s, x) => s + (x.value || 0), 0);
    const ul = h("ul.breakdown");
    for (const x of list || []) {
      const lines = h("ul.bd-lines");
      for (const hv of x.halvings || []) lines.appendChild(h("li.bd-line.halving", { text: `halved: ${hv}` }));
      ul.appendChild(h("li.bd-part", {}, [h("div.bd-head", {}, [h("b", { text: nameOf(x.unit) }), h("span.bd-value", { text: `${x.printed} → ${x.value}` })]), lines]));
    }
    return h("div.bd-side", {}, [h("div.bd-title", {}, [h("b", { text: title }), h("span.bd-total", { text: String(total) })]), ul]);
  };
  box.appendChild(h("div.bd-grid", {}, [side("Attack", pv.attackers), side("Defence", pv.defenders)]));
  const dl = h("dl.kv");
  dl.append(h("dt", { text: "Differential" }), h("dd", { text: `${pv.differential > 0 ? "+" : ""}${pv.differential} (rule 7.7)` }));
  dl.append(h("dt", { text: "CRT column" }), h("dd", { text: `${pv.column} (R12)` }));
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
  twilight: "Twilight: morale checks are harder (14.3)",
  night: "Night: no attacks, recovery by night rules (14.2)",
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
      `${d.units.map((u) => name(defs, u)).join(", ")}, rolled MA ${d.ma} `,
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
  if ((std.marched || []).length) sec.appendChild(h("div.whose-sub#std-marched", {}, [`Marched this phase: ${std.marched.map((u) => name(defs, u)).join(", ")}`, h("span.rule", { text: "rule 4.7", style: "margin-left:6px" })]));
  if ((std.fow_owed || []).length) {
    const ul = h("ul.std-fow#std-fow", { "aria-label": "Fortunes of war owed" });
    for (const f of std.fow_owed) ul.appendChild(h("li", {}, [`${ctx.sideName(f.side)} is owed a fortune of war (turn ${f.turn}: ${f.why})`, h("span.rule", { text: `rule ${f.rule}`, style: "margin-left:6px" })]));
    sec.appendChild(h("div", {}, [h("b", { text: "Fortunes of war owed " }), h("span.rule", { text: "rule 12.4 (paid with part 2)" }), ul]));
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
  sec.appendChild(h("div.whose-sub", { text: "Select a stack and click a shaded hex to move it (M: march instead; D: declare a move whose MA is rolled; O: leave the map). Flips come before any unit moves." }));
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
