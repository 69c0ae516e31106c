// Musket & Pike's own section of the side panel (R17.95, R17.96: everything public): the turn, the step and segment,
// the initiative, every wing's order and activation state (the active wing first-class: which segment it is in, how
// many Continuations it has made, No Continue, Collapsed), the leaders' ratings, the points, and the last fire or close
// combat explained from its events: the table, the column or row, the die and every modifier with its rule, the cap,
// the result, and the morale checks and rolls that followed. The segment's own box holds End segment and the active
// wing's units still to act.

import { h, clear } from "../../ui/dom.js";
import { ORDER_NAMES, ORDER_SHORT, ORDER_NOTES, SEGMENT_WORDS, SEGMENT_RULES, STEP_WORDS, STEP_RULES, signed, modifiersText } from "./words.js";
import { wingLook } from "./marks.js";

/** The wing's state in words: "acting now: Movement Segment", "activated", "not yet activated"; with its marks. */
export function wingState(w, segment) {
  const bits = [];
  const look = wingLook(w);
  if (look === "active") bits.push(`acting now${segment ? `: ${SEGMENT_WORDS[segment] || segment}` : ""}`);
  else if (look === "activated") bits.push("activated this turn");
  else if (look === "collapsed") bits.push("collapsed (R17.92)");
  else bits.push("not yet activated");
  if (w.continuations) bits.push(`${w.continuations} continuation${w.continuations === 1 ? "" : "s"}`);
  if (w.no_continue) bits.push("No Continue (R17.26)");
  return bits.join("; ");
}

/** One row per wing, the side's own first: order chip, name, state, commander and rating. */
function wingsBox(mp, ctx) {
  const box = h("div#mp-wings", { "aria-label": "Wings: orders and activations (R17.20, R17.25)" });
  box.appendChild(h("div.mp-sub", { text: "Wings: orders and activations (R17.20, R17.25)" }));
  const ul = h("ul.mp-wing-list");
  const entries = Object.entries(mp.wings || {}).sort(([, a], [, b]) => Number(b.side === ctx.side) - Number(a.side === ctx.side));
  for (const [wid, w] of entries) {
    const look = wingLook(w);
    const wc = w.commander ? (mp.leaders || {})[w.commander] : null;
    const side = (ctx.scenario.sides || {})[w.side] || {};
    ul.appendChild(h(`li.mp-wing.mp-${look}`, { "data-wing": wid, "data-order": w.order, "data-look": look, "data-active": w.active ? "1" : "0", "data-activated": w.activated ? "1" : "0" }, [
      h("span.side-dot", { style: `background:${side.color || "#777"}`, "aria-hidden": "true" }),
      h(`span.mp-order.mp-order-${w.order}`, { title: `${ORDER_NAMES[w.order]}: its units ${ORDER_NOTES[w.order] || ""} (5.6)`, text: ORDER_SHORT[w.order] || w.order }),
      h("b", { text: ` ${w.name}` }),
      h("span", { text: ` — ${ORDER_NAMES[w.order] || w.order}; ${wingState(w, mp.segment)}` }),
      wc ? h("div.whose-sub", { text: `WC ${ctx.nameOf(w.commander)}, rating ${signed(wc.rating)}${wc.replacement ? " (Replacement, 5.3.3)" : ""}${w.cavalry ? "; Cavalry Wing" : ""}` }) : null,
    ]));
  }
  box.appendChild(ul);
  return box;
}

/** The Army Commanders and any leader off the map or replaced (5.3, 5.3.3). */
function leadersBox(mp, ctx) {
  const box = h("div#mp-leaders");
  const lines = [];
  for (const [lid, l] of Object.entries(mp.leaders || {})) {
    const d = ctx.defs[lid] || {};
    const st = (ctx.view.units || {})[lid] || {};
    if (d.role === "ac") lines.push(`AC ${ctx.nameOf(lid)} (${ctx.sideName(d.side)}), rating ${signed(l.rating)}${st.status !== "map" ? ", off the map" : ""}`);
    else if (st.status !== "map" || l.replacement) lines.push(`${ctx.nameOf(lid)}: ${l.replacement ? "a Replacement, rating +1" : "off the map"}${l.returns ? `, returns at the end of turn ${l.returns}` : ""}`);
  }
  if (lines.length) box.appendChild(h("ul.mp-leader-list", {}, lines.map((t) => h("li", { text: t }))));
  return box;
}

/** A fire event explained: the table and column, the die, each modifier, the total, the row, the result. */
export function fireLines(e, nameOf) {
  const mods = (e.modifiers || []).map((m) => `${signed(m.value)} ${m.label} (${m.rule})`);
  return [
    `${nameOf(e.unit)} fires${e.kind && e.kind !== "fire" ? ` (${String(e.kind).replace("_", " ")})` : ""} at ${nameOf(e.target)}: ${e.table}, column ${e.column}${e.regimental ? " (regimental artillery)" : ""}`,
    `die ${e.die}${mods.length ? " " + mods.join(" ") : ", no modifier"} = ${e.total}, row ${e.row}: ${e.result}${e.hits ? ` — ${e.hits} hit${e.hits === 1 ? "" : "s"}` : ""}${e.fh ? ", a Formation Hit" : ""}${e.mc ? ", a morale check" : ""} (${e.rule})`,
  ];
}

/** A close combat event explained: the table, each modifier above and below the line, the cap, the die, the row. */
export function closeCombatLines(e, nameOf) {
  if (e.die === undefined) return [`${nameOf(e.lead)} against ${nameOf(e.defender)}: no roll`, `${e.text} (${e.rule})`]; // R17.74, 11.5
  const mods = (e.modifiers || []).map((m) => `${signed(m.value)} ${m.label} (${m.rule})`);
  const others = (e.attackers || []).filter((a) => a !== e.lead);
  const capped = e.raw !== undefined && e.raw !== e.total_modifier ? `, ${signed(e.raw)} capped at ${signed(e.total_modifier)} (R17.84)` : "";
  return [
    `${nameOf(e.lead)}${others.length ? ` with ${others.map(nameOf).join(", ")}` : ""} against ${nameOf(e.defender)}: ${e.table}`,
    `modifiers: ${mods.length ? mods.join(" ") : "none"}; total ${signed(e.total_modifier)}${capped}`,
    `die ${e.die} ${signed(e.total_modifier)} = ${e.total}, row ${e.row}: ${e.result_text || e.result} (${e.rule})`,
  ];
}

/** A roll on a command table or a morale check: the die, its modifiers, what it needed. */
export function rollLine(e, nameOf) {
  const mods = modifiersText(e.modifiers);
  if (e.type === "morale_check") return `${nameOf(e.unit)} checks morale: die ${e.die}${mods ? `, ${mods}` : ""} = ${e.total} against ${e.need}: ${e.passed ? "passed" : "failed"} (${e.rule})`;
  return null;
}

const SHOWN = new Set(["morale", "formation", "formation_hit", "casualties", "eliminated", "retreat", "advance", "pursuit", "pistol", "unable_to_retreat", "leader_casualty", "leader_replacement", "interception", "withdraw", "facing"]);

/** The last log entry holding a fire or a close combat, explained line by line from its events. */
export function combatBox(log, nameOf) {
  const box = h("div#mp-combat");
  for (let i = log.length - 1; i >= 0; i--) {
    const evs = log[i].events || [];
    if (!evs.some((e) => e.type === "fire" || e.type === "close_combat")) continue;
    box.appendChild(h("div.mp-sub", { text: "Last fire or close combat (10.0, 11.0)" }));
    const ol = h("ol.mp-explain");
    for (const e of evs) {
      if (e.type === "fire") ol.appendChild(h("li.mp-fire", { "data-table": e.table, "data-column": e.column }, fireLines(e, nameOf).map((t, k) => (k ? h("div.mp-line", { text: t }) : h("b", { text: t })))));
      else if (e.type === "close_combat") ol.appendChild(h("li.mp-cc", { "data-table": e.table, "data-row": e.row }, closeCombatLines(e, nameOf).map((t, k) => (k ? h("div.mp-line", { text: t }) : h("b", { text: t })))));
      else if (e.type === "morale_check") ol.appendChild(h(`li.mp-check.${e.passed ? "passed" : "failed"}`, { text: rollLine(e, nameOf) }));
      else if (SHOWN.has(e.type)) ol.appendChild(h("li.mp-event", { "data-type": e.type, text: e.text }));
    }
    box.appendChild(ol);
    break;
  }
  return box;
}

/** The latest command rolls (initiative, orders changes, preemption, continuation): die, modifiers, need, result. */
function rollsBox(log) {
  const box = h("div#mp-rolls");
  const found = [];
  for (let i = log.length - 1; i >= 0 && found.length < 3; i--) {
    for (const e of [...(log[i].events || [])].reverse()) {
      if ((e.type === "command_roll" || e.type === "initiative") && found.length < 3) found.push(e);
    }
  }
  if (!found.length) return box;
  box.appendChild(h("div.mp-sub", { text: "Latest command rolls (R17.21, 4.3, 4.4, 5.7)" }));
  box.appendChild(h("ul.mp-roll-list", {}, found.reverse().map((e) => h(`li.mp-roll${e.success === true ? ".passed" : e.success === false ? ".failed" : ""}`, { "data-type": e.type, text: e.text }))));
  return box;
}

/** The whole section. ctx: {view, side, log, nameOf, sideName, scenario, defs} */
export function renderMPPanel(sec, ctx) {
  const v = ctx.view;
  const mp = v && v["musket-and-pike"];
  if (!mp) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  sec.appendChild(h("h3", {}, ["Musket & Pike", h("span.rule", { text: `rule ${STEP_RULES[mp.step] || "R17.22"}` })]));
  const dl = h("dl.kv#mp-turn");
  dl.append(h("dt", { text: "Turn" }), h("dd#mp-turn-no", { text: `${v.turn} of ${v.turns || ctx.scenario.turns}` }));
  const active = mp.wing ? (mp.wings || {})[mp.wing] : null;
  const step = `${STEP_WORDS[mp.step] || mp.step || ""}${active ? ` — ${active.name}, ${SEGMENT_WORDS[mp.segment] || mp.segment}` : ""}`;
  dl.append(h("dt", { text: "Step" }), h("dd#mp-step", { "data-step": mp.step || "", "data-segment": mp.segment || "", text: step }));
  dl.append(h("dt", { text: "Initiative" }), h("dd#mp-initiative", { text: mp.initiative ? `${ctx.sideName(mp.initiative)}${mp.chooser ? `; the next wing is the ${ctx.sideName(mp.chooser)}' choice` : ""}` : "not yet rolled" }));
  const pts = Object.entries(mp.points || {}).map(([s, n]) => `${ctx.sideName(s)} ${n}`).join(", ");
  dl.append(h("dt", { text: "Points" }), h("dd#mp-points", { text: `${pts} (R17.94)` }));
  sec.append(dl, wingsBox(mp, ctx), leadersBox(mp, ctx), rollsBox(ctx.log), combatBox(ctx.log, ctx.nameOf));
}

/** The segment's own box: End segment (with what comes next) and the active wing's units still to act, each a button
 *  that selects it (the keyboard's way to them). */
export function renderSegmentBox(sec, raw, v, ctx) {
  const mp = v["musket-and-pike"];
  const actions = (raw && raw.actions) || [];
  if (!mp) return false;
  const wing = mp.wing ? mp.wings[mp.wing] : null;
  if (!actions.length && !wing) return false;
  sec.hidden = false;
  const title = mp.step === "start" ? "Open the battle" : wing ? `${wing.name}: ${SEGMENT_WORDS[mp.segment] || mp.segment}` : STEP_WORDS[mp.step] || mp.step;
  sec.appendChild(h("h3", {}, [title, h("span.rule", { text: `rule ${mp.step === "start" ? "M19" : SEGMENT_RULES[mp.segment] || "R17.25"}` })]));
  if (wing) sec.appendChild(h("div.whose-sub#mp-order-note", { text: `Under ${ORDER_NAMES[wing.order]}, its units ${ORDER_NOTES[wing.order]} (5.6).` }));
  if (wing && wing.side === ctx.side) {
    const units = Object.entries(mp.units || {}).filter(([id]) => (ctx.defs[id] || {}).wing === mp.wing);
    const todo = units.filter(([, u]) => (mp.segment === "movement" ? !u.moved : mp.segment === "action" ? !u.acted : !u.attacked));
    if (todo.length) {
      const row = h("div.actions#mp-units", { "aria-label": "The active wing's units still to act" });
      for (const [id] of todo) row.appendChild(h("button.btn.small.mp-unit", { type: "button", "data-unit": id, text: ctx.nameOf(id), onclick: () => ctx.select(id) }));
      sec.appendChild(row);
    }
  }
  const next = { movement: "then the Action Segment", action: "then the Close Combat Segment", close_combat: "then the activation ends" }[mp.segment] || "";
  const row = h("div.actions");
  for (const c of actions) {
    row.appendChild(h("button.btn.primary.mp-action#mp-end-segment", { type: "button", "data-command": JSON.stringify(c), title: next, onclick: () => ctx.send(c) }, [mp.step === "start" ? "Open the battle" : "End segment", " ", h("kbd", { text: "E" })]));
    if (next || mp.step === "start") row.appendChild(h("span.whose-sub", { text: mp.step === "start" ? "the first initiative is rolled (M19)" : next }));
  }
  if (actions.length) sec.appendChild(row);
  return true;
}
