// Horse and Musket's own section of the side panel (R16.19): the round, the step and who plays first, the side's own
// hand of cards (the view holds only the hand its viewer may see, kernel/cards.py), the command roll of each group
// (3.t), the charges declared and the engaged pairs, hits and staggered units, the army's losses and points, and
// the last fire or hand-to-hand explained from its events: the dice, the score each needed, saves and modifiers.

import { h, clear } from "../../ui/dom.js";
import { CARD_NAMES, CARD_RULES, STEP_WORDS, STEP_RULES, fireOddsText } from "./words.js";

const RESULT_WORDS = { none: "no unit may move", half: "half may move", all: "all may move" };

/** The side's hand: its own cards by name, and how many the other side holds (a count is public, R16.10). */
function handBox(v, side, sideName) {
  const cards = v.cards;
  const box = h("div#hm-hand", { "aria-label": "Cards (R16.10)" });
  if (!cards) return box;
  const mine = (cards.hands && side && cards.hands[side]) || null;
  if (mine) {
    box.appendChild(h("div.hm-sub", { text: `Your hand (${mine.length})` }));
    const list = h("ul.hm-cards");
    for (const c of mine) list.appendChild(h("li.hm-card", { "data-card": c, title: CARD_RULES[c] || c, text: CARD_NAMES[c] || c }));
    if (!mine.length) list.appendChild(h("li.hm-nocard", { text: "no card in hand" }));
    box.appendChild(list);
  }
  for (const [s, n] of Object.entries(cards.counts || {})) {
    if (s === side) continue;
    box.appendChild(h("div.hm-count", { "data-side": s, text: `${sideName(s)}: ${n.hand} card${n.hand === 1 ? "" : "s"} in hand, ${n.deck} in the deck` }));
  }
  return box;
}

/** 3.t: each group's roll, its result and how many of its units have acted. */
function commandBox(hm, nameOf) {
  const box = h("div#hm-command");
  if (!hm.command || !hm.command.length) return box;
  box.appendChild(h("div.hm-sub", { text: "Command rolls (3.t)" }));
  const ul = h("ul.hm-groups");
  for (const g of hm.command) {
    const who = g.general ? nameOf(g.general) : `${nameOf(g.units[0])} (independent, 3.3)`;
    const roll = g.die !== undefined ? `rolled ${g.die}${g.modifier >= 0 ? "+" : ""}${g.modifier} = ${g.total}: ` : "";
    ul.appendChild(h("li.hm-group", { "data-general": g.general || "", "data-result": g.result || "" },
      [`${who}: ${roll}${RESULT_WORDS[g.result] || g.result || "not rolled"} (${g.used || 0} of ${g.allowed ?? "?"} used)`]));
  }
  box.appendChild(ul);
  return box;
}

/** Hits (5.1.9) and staggered units (R16.15, H14), charges declared (4.1) and engaged pairs. */
function stateBox(hm, nameOf) {
  const box = h("div#hm-state");
  const hurt = Object.entries(hm.units || {}).filter(([, u]) => u.hits || u.staggered);
  if (hurt.length) {
    box.appendChild(h("div.hm-sub", { text: "Hits and staggered (5.1.9, R16.15)" }));
    const ul = h("ul");
    for (const [id, u] of hurt) ul.appendChild(h("li.hm-hurt", { "data-unit": id, text: `${nameOf(id)}: ${u.hits} hit${u.hits === 1 ? "" : "s"}${u.staggered ? ", staggered" : ""}` }));
    box.appendChild(ul);
  }
  if ((hm.charges || []).length) {
    box.appendChild(h("div.hm-sub", { text: "Charges declared (4.1)" }));
    const ul = h("ul");
    for (const c of hm.charges) ul.appendChild(h("li.hm-charge", { "data-unit": c.unit, text: `${nameOf(c.unit)} → ${nameOf(c.target)}'s ${c.face}: needs ${c.need}+${c.passed === false ? ", failed" : c.passed ? ", passed" : ""}` }));
    box.appendChild(ul);
  }
  if ((hm.engaged || []).length) {
    box.appendChild(h("div.hm-sub", { text: "In contact (6)" }));
    box.appendChild(h("ul", {}, hm.engaged.map(([a, b]) => h("li.hm-engaged", { text: `${nameOf(a)} and ${nameOf(b)}` }))));
  }
  return box;
}

const COMBAT_EVENTS = new Set(["fire", "first_fire", "strike", "melee", "hits", "staggered", "removed", "colours", "lapse", "charge_reaction", "retreat", "breached", "general_lost"]);

/** The last log entry holding a fire or a hand-to-hand, explained line by line from its events (dice included). */
export function combatBox(log, nameOf) {
  const box = h("div#hm-combat");
  for (let i = log.length - 1; i >= 0; i--) {
    const evs = log[i].events || [];
    if (!evs.some((e) => e.type === "fire" || e.type === "strike")) continue;
    box.appendChild(h("div.hm-sub", { text: "Last fire or hand-to-hand (5, 6)" }));
    const ol = h("ol.hm-explain");
    for (const e of evs) {
      if (e.type === "dice") {
        const why = (e.breakdown || []).map((b) => `${b.dice} ${b.why} (${b.rule})`).join(", ");
        ol.appendChild(h("li.hm-dice", { "data-rule": e.rule || "" }, [`${e.purpose}: `, h("b", { text: (e.dice || []).join(" ") }), why ? ` — ${why}` : "", ` (rule ${e.rule})`]));
      } else if (e.type === "fire") {
        ol.appendChild(h("li.hm-fire", { text: `${nameOf(e.unit)} fired ${e.dice_count} dice at ${nameOf(e.target)}, each needing ${e.need}+${e.long ? ", long range" : ""}${e.enfilade ? ", enfilade (5.5)" : ""}: ${e.raw_hits} hit${e.raw_hits === 1 ? "" : "s"}, ${e.saved} saved → ${e.hits} (rule ${e.rule})` }));
      } else if (e.type === "strike") {
        ol.appendChild(h("li.hm-strike", { text: `${nameOf(e.unit)} strikes ${nameOf(e.target)}: ${e.hits} hit${e.hits === 1 ? "" : "s"} after ${e.saved} saved (6.5)` }));
      } else if (COMBAT_EVENTS.has(e.type)) {
        ol.appendChild(h("li.hm-event", { "data-type": e.type, text: e.text }));
      }
    }
    box.appendChild(ol);
    break;
  }
  return box;
}

/** The whole section. ctx: {view, side, log, nameOf, sideName} */
export function renderHMPanel(sec, ctx) {
  const v = ctx.view;
  const hm = v && v["horse-and-musket"];
  if (!hm) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  sec.appendChild(h("h3", {}, ["Horse and Musket", h("span.rule", { text: `rule ${STEP_RULES[hm.step] || "R16.6"}` })]));
  const dl = h("dl.kv#hm-turn");
  dl.append(h("dt", { text: "Round" }), h("dd#hm-round", { text: `${hm.round} of the battle, ${hm.order.length ? `${ctx.sideName(hm.order[0])} first` : "initiative not yet rolled"}` }));
  dl.append(h("dt", { text: "Step" }), h("dd#hm-step", { "data-step": hm.step, text: STEP_WORDS[hm.step] || hm.step }));
  const lost = Object.entries(hm.lost || {}).map(([s, n]) => `${ctx.sideName(s)} ${n} of ${(hm.break_at || {})[s] ?? "?"} to break`).join("; ");
  dl.append(h("dt", { text: "Lost" }), h("dd#hm-lost", { text: lost }));
  const vp = Object.entries(hm.vp || {}).map(([s, n]) => `${ctx.sideName(s)} ${n}`).join(", ");
  dl.append(h("dt", { text: "Points" }), h("dd#hm-vp", { text: `${vp} (R16.18)` }));
  sec.append(dl, handBox(v, ctx.side, ctx.sideName), commandBox(hm, ctx.nameOf), stateBox(hm, ctx.nameOf), combatBox(ctx.log, ctx.nameOf));
}

/** The step's own box: the commands that need no selection (cards, End step), each a button. */
export function renderStepBox(sec, raw, v, label, send) {
  const hm = v["horse-and-musket"];
  const actions = (raw && raw.actions) || [];
  if (!hm || !actions.length) return false;
  sec.hidden = false;
  sec.appendChild(h("h3", {}, [STEP_WORDS[hm.step] || hm.step, h("span.rule", { text: `rule ${STEP_RULES[hm.step] || "R16.6"}` })]));
  const row = h("div.actions#hm-actions");
  for (const c of actions) {
    row.appendChild(h(`button.btn.hm-action${c.type === "end_step" ? "#hm-end-step" : ""}`, { type: "button", "data-command": JSON.stringify(c), onclick: () => send(c) }, [label(c)]));
  }
  sec.appendChild(row);
  return true;
}

export { fireOddsText };
