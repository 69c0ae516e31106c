// The Standard rules' own boxes in the side panel: the Standard section (light, the weather (19.4), HQ and trains, the declared move
// and its rolled MA, the charges declared, the attacks owed, the fortunes of war, the turn record track with the
// units waiting in it) and the phase box (the movement phase's flips, recoveries, replacements, musters and
// re-entries; the combat phase's declared charges to make). They draw what the view and the options say.

import { h, clear } from "../../ui/dom.js";
import { counterIcon } from "../../counters.js";
import { counter } from "./counter.js";
import { ACTION_RULE, actionLabel } from "./options.js";
import { victoryBox } from "./victory.js";
import { ACTION_HEADS, actionHead, actionWhy } from "./why.js";

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
  if (std.weather) dl.append(h("dt", { text: "Weather" }), weatherLine(std.weather));
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
      std.weather && std.weather.mp && d.ma > std.weather.mp ? h("span.std-rain-cap", {}, [` — ${std.weather.name}: at most ${std.weather.mp} MP `, h("span.rule", { text: "rule 19.4" })]) : null,
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
  if (std.victory) sec.appendChild(victoryBox(std.victory, v.points, ctx.sideName)); // 18.0 (S68, S69)
  sec.appendChild(trtTable(sc, v, defs, ctx));
}

/** 19.4 (S50): the weather now, its effects in words, and the next turn's when the scenario fixes it (otherwise
 *  it is rolled in the Game Turn marker phase). */
export function weatherWords(w) {
  return {
    now: `${w.name}: ${w.effects}.`,
    next: w.next ? `Next turn: ${w.next_name} (fixed by the scenario).` : "Next turn's weather is rolled on the Rain Table in the Game Turn marker phase.",
    rule: `rule ${w.rule || "19.4"}`,
  };
}

function weatherLine(w) {
  const words = weatherWords(w);
  return h(`dd.weather-${w.now}#std-weather`, { "data-weather": w.now, "data-next": w.next || "" }, [
    `${words.now} `,
    h("span.rule", { text: words.rule }),
    h("div.whose-sub#std-weather-next", { text: words.next }),
  ]);
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
      h("td.trt-units", {}, here.map((id) => h("span.trt-unit", { "data-unit": id, title: `${name(defs, id)}: re-enters on turn ${b.turn} (13.2)` }, [counterIcon(sc, id, v.units[id], 24, counter)]))),
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
  const plain = actions.filter((c) => c.type !== "reenter" && c.type !== "line"); // 19.7: a line's facings on the selected unit
  const reenter = new Map();
  for (const c of actions) if (c.type === "reenter") reenter.set(c.unit, [...(reenter.get(c.unit) || []), c.hex]);
  if (!plain.length && !reenter.size) {
    sec.appendChild(h("div.whose-sub", { text: "No flips, recoveries, replacements or re-entries are open now." }));
    return;
  }
  // each kind of action under a heading that says what it is for; each button's title says what it gives this unit
  const box = h("div.std-actions#std-actions", { role: "group", "aria-label": "Flip, recover, replace, muster and re-enter" });
  const groups = new Map();
  const groupOf = (head) => {
    if (!groups.has(head)) {
      const row = h("div.actions");
      box.append(h("div.option-group.std-action-head", { "data-head": head, text: ACTION_HEADS[head] || head }), row);
      groups.set(head, row);
    }
    return groups.get(head);
  };
  for (const c of plain) {
    groupOf(actionHead(c, defs)).appendChild(h("button.btn.small.std-action", { type: "button", "data-command": JSON.stringify(c), title: `${actionWhy(c, defs, view)} (rule ${ACTION_RULE[c.type]})`, text: actionLabel(c, defs, view), onclick: () => onCommand(c) }));
  }
  for (const [u, hexes] of reenter) {
    groupOf("reenter").appendChild(h("button.btn.small.std-reenter", { type: "button", "data-unit": u, title: `${actionWhy({ type: "reenter", unit: u }, defs, view)} (rule 13.2)`, text: `Re-enter ${name(defs, u)} (${hexes.length} hex${hexes.length > 1 ? "es" : ""})…`, onclick: () => onReenter(u) }));
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
