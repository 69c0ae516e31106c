// Units off the map: reinforcements and units returning to the battle. Every edition has them; where one
// without an entry hex comes on, and how the box words it, is the edition's (editions/index.js: offMapEntry,
// entryText, offboard).

import { h, clear, $ } from "../ui/dom.js";
import { counterIcon } from "../counters.js";
import { S, page, defs, myTurn, activePrompt } from "./store.js";
import { selectOffboard, toggleSelected } from "./selection.js";

/** My units waiting off the map at an entry hex: those whose turn has come (all of them, due or not, with `all`). */
export function waitingAt(entry, all = false) {
  return offboardUnits().filter((x) => x.entry === entry && (all || x.due)).map((x) => x.id);
}

/** Where a unit off the map comes on: its entry hex, or wherever its edition puts units without one. */
export function entryOf(id) {
  const u = (S.view && S.view.units[id]) || {};
  if (u.entry_hex) return u.entry_hex;
  return (page.edition.offMapEntry && page.edition.offMapEntry(u)) || null;
}

/** My units off the map that will or may come on: {id, status, entry, turn, due}. */
export function offboardUnits() {
  const v = S.view;
  if (!v || S.role !== "seat") return [];
  const out = [];
  for (const [id, u] of Object.entries(v.units || {})) {
    const d = defs()[id];
    if (!d || d.side !== S.side || !u || !["offboard", "returning"].includes(u.status)) continue;
    const due = u.entry_turn !== undefined && u.entry_turn !== null && u.entry_turn <= v.turn && !u.moved;
    out.push({ id, status: u.status, entry: entryOf(id), turn: u.entry_turn ?? null, due });
  }
  return out.sort((a, b) => (a.turn ?? 99) - (b.turn ?? 99) || String(a.entry).localeCompare(String(b.entry)) || a.id.localeCompare(b.id));
}

/** The holding box: my units off the map, when they arrive and where; those due now can be selected
 *  (click, or click their entry hex on the map) and moved on like any stack. */
export function renderOffboard() {
  const sec = $("#sec-offboard");
  if (!sec) return;
  const list = S.history || (S.view && S.view.phase === "over") ? [] : offboardUnits();
  if (!list.length) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const v = S.view;
  const ed = page.edition.offboard || {};
  const canMove = myTurn() && v.phase === "movement" && v.active === S.side && !activePrompt();
  sec.appendChild(h("h3", {}, ["Off the map", ed.rules ? h("span.rule", { text: ed.rules }) : null]));
  const dueNow = list.filter((x) => x.due);
  let note;
  if (dueNow.length && canMove) note = ed.dueNote || "Due now: select one, then click a shaded hex to bring it on.";
  else if (dueNow.length) note = "Due now: they come on in your movement phase.";
  else note = "Arriving later, as listed.";
  sec.appendChild(h("div.whose-sub", { text: note }));
  const ul = h("div.off-units#off-units", { role: "group", "aria-label": "Units off the map" });
  for (const x of list) {
    const on = S.selected.includes(x.id);
    const at = (page.edition.entryText && page.edition.entryText(x.entry)) || `at ${x.entry}`;
    const when = x.due ? `now ${at}` : x.turn ? `turn ${x.turn} ${at}` : "not scheduled";
    const b = h(`button.off-unit${x.due ? ".due" : ""}`, {
      type: "button",
      "data-unit": x.id,
      "data-entry": x.entry || "",
      "aria-pressed": on ? "true" : "false",
      disabled: !(x.due && canMove),
      title: `${defs()[x.id].name}: ${x.status === "returning" ? "returning after step recovery" : "reinforcement"}, ${when}`,
      onclick: () => {
        if (S.offSel && (S.offSel === x.entry || S.selected.includes(x.id) || (page.edition.joinsEntry && page.edition.joinsEntry(x.id)))) return toggleSelected(x.id);
        selectOffboard([x.id]);
      },
    }, [counterIcon(S.scenario, x.id, v.units[x.id], 34, page.edition.counter), h("span.off-when", { text: `${x.status === "returning" ? "returns " : ""}${when}` })]);
    ul.appendChild(b);
  }
  sec.appendChild(ul);
}
