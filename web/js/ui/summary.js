// "What just happened": which of the log's entries make the trail of the other side's last moves, their events
// read as actions (a move along its path, an attack on a hex, a result, a retreat, a loss), and the actions in plain
// words beside the map, one line per move or attack with what came of it ("1st Brigade moved 0305→0805", "1st
// Brigade attacked 0905 (result Ax); 1st Brigade retreated 1 hex (0805→0705)"). core/trail.js draws the same
// actions on the map. Pure but for the panel; it knows no edition: the events' fields are the same for every one.
//
// Which entries: for a seat, everything since the player's own latest command in its own turn (its next decision
// clears the trail; its answers to the other side's attacks keep it, and add their retreats); for a spectator or
// the admin, the player-turn under way and the one before it, so that both sides' moves show. A command taken back
// (undo) leaves the trail with it.

import { h, clear, add } from "./dom.js";

// Events that move units along a path, and the verb the summary uses for each (others with a path: "move").
const PATH_KINDS = { retreat: "retreat", advance: "advance", charge: "charge", leader_moves: "ride", leader_flees: "ride" };
const LOSSES = { step_loss: "lost a step", eliminated: "was eliminated", captured: "was captured", leader_killed: "fell", leader_lost: "fell" };
const RESULTS = new Set(["combat", "combat_result", "bombard_result"]);

function unitsOf(ev, ...keys) {
  for (const k of keys) {
    const v = ev[k];
    if (Array.isArray(v) && v.length) return v.filter((u) => typeof u === "string");
    if (typeof v === "string") return [v];
  }
  return [];
}

function hexList(path) {
  return Array.isArray(path) ? path.filter((x) => typeof x === "string") : [];
}

/** One event as the trail reads it, or null: {kind, units, path?, target?, result?, what?, text?}. */
export function actionOf(ev) {
  const units = unitsOf(ev, "units", "unit");
  const path = hexList(ev.path);
  if (path.length && !units.length) return { kind: "unseen", text: ev.text || "" }; // a marker's move: words only
  if (path.length && units.length) {
    // an event may list only the hexes entered and name the hex it began in apart (`start`: a retreat)
    const full = typeof ev.start === "string" && ev.start !== path[0] ? [ev.start, ...path] : path;
    const kind = PATH_KINDS[ev.type] || "move";
    if (full.length < 2 && kind !== "advance") return null; // went nowhere on the map (a unit leaving it, staying)
    return { kind, units, path: full, target: ev.target || null };
  }
  if (ev.type === "advance" && units.length && ev.hex) return { kind: "advance", units, path: [ev.hex] };
  if (ev.attackers && ev.target) return { kind: "attack", units: unitsOf(ev, "attackers"), target: ev.target, charge: ev.tactic === "charge" || ev.kind === "charge" };
  if (ev.artillery && ev.target) return { kind: "bombard", units: unitsOf(ev, "artillery"), target: ev.target };
  if (ev.type === "charge_move" && ev.target) return { kind: "ready", units, target: ev.target };
  if (RESULTS.has(ev.type) && typeof ev.result === "string") return { kind: "result", result: ev.result, target: ev.target || null };
  if (LOSSES[ev.type] && units.length) return { kind: "loss", units, what: LOSSES[ev.type] };
  if (ev.type === "rout" && units.length) return { kind: "rout", units };
  return null;
}

/** Entries with the events each contributes, for the viewer: [{entry, events}]. */
export function trailEntries(log, { seat = null, cleared = -1 } = {}) {
  const entries = (log || []).filter((e) => e.side !== "referee");
  let picked;
  if (seat) {
    // the player's own turn's commands end the trail; its answers in the other side's turn (which unit defends,
    // where to retreat) do not: the attack they answer stays in view with them
    let mine = -1;
    activeSides(entries).forEach((active, i) => {
      if (entries[i].side === seat && (active === seat || active === null)) mine = i;
    });
    picked = entries.slice(mine + 1).map((entry) => ({ entry, events: entry.events || [] }));
  } else picked = lastTwoPlayerTurns(entries);
  // a command taken back leaves the trail: each undo drops the latest entry its side still has in it
  const kept = [];
  for (const it of picked) {
    if (it.entry.command && it.entry.command.type === "undo") {
      for (let k = kept.length - 1; k >= 0; k--) {
        if (kept[k].entry.side === it.entry.side) {
          kept.splice(k, 1);
          break;
        }
      }
    } else kept.push(it);
  }
  return kept.filter((it) => it.entry.seq > cleared);
}

/** The side whose phase it was when each entry was made (null before the first phase event). */
function activeSides(entries) {
  let active = null;
  return entries.map((e) => {
    const before = active;
    for (const ev of e.events || []) if (ev.type === "phase" && ev.side) active = ev.side;
    return before;
  });
}

/** The player-turn under way and the one before it: from the phase event that handed the turn to the side before
 *  the one playing now (the entry that ended its phase keeps only the events from that phase event on). */
function lastTwoPlayerTurns(entries) {
  const starts = []; // {i, j}: entry index, event index of a phase event naming a new side
  let active = null;
  entries.forEach((e, i) =>
    (e.events || []).forEach((ev, j) => {
      if (ev.type !== "phase" || !ev.side || ev.side === active) return;
      active = ev.side;
      starts.push({ i, j });
    }),
  );
  const from = starts.length >= 2 ? starts[starts.length - 2] : { i: 0, j: 0 };
  return entries.slice(from.i).map((entry, k) => ({ entry, events: (entry.events || []).slice(k === 0 ? from.j : 0) }));
}

const SHOWN = 8; // the latest lines in view; earlier ones fold away

function listNames(units, nameOf) {
  const names = [...new Set((units || []).map(nameOf))];
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function hexes(n) {
  return `${n} hex${n === 1 ? "" : "es"}`;
}

function span(path) {
  return `${path[0]}→${path[path.length - 1]}`;
}

/** One action in words, or null. */
function clause(a, nameOf) {
  const who = listNames(a.units, nameOf);
  switch (a.kind) {
    case "move":
      return `${who} moved ${span(a.path)}`;
    case "ride":
      return `${who} rode ${span(a.path)}`;
    case "advance":
      return a.path.length > 1 ? `${who} advanced ${span(a.path)}` : `${who} advanced to ${a.path[0]}`;
    case "charge":
      return `${who} charged${a.target ? ` ${a.target}` : ""}, moving ${span(a.path)}`;
    case "retreat":
      return `${who} retreated ${hexes(a.path.length - 1)} (${span(a.path)})`;
    case "attack":
      return `${who} attacked ${a.target}${a.charge ? " with a charge" : ""}`;
    case "bombard":
      return `${who} bombarded ${a.target}`;
    case "ready":
      return `${who} readied a charge on ${a.target}`;
    case "loss":
      return `${who} ${a.what}`;
    case "rout":
      return `${who} routed`;
    case "unseen":
      return a.text || "a hidden-movement marker moved";
    default:
      return null;
  }
}

// The actions that begin a line; the others (a result, a retreat, an advance, a loss) are what came of the line's.
const OPENS = new Set(["move", "attack", "bombard", "charge", "ready", "unseen"]);

/** The trail's actions ({kind, seq, side, ...}, oldest first) in lines: each move or attack with what came of it,
 *  whichever command brought it (a defender's choice rolls the dice of the attack it answers): [{seq, side, text,
 *  actions}]. */
export function summaryLines(actions, nameOf) {
  const lines = [];
  for (const a of actions) {
    if (!lines.length || OPENS.has(a.kind)) lines.push({ seq: a.seq, side: a.side, actions: [] });
    lines[lines.length - 1].actions.push(a);
  }
  for (const l of lines) l.text = sentence(l.actions, nameOf);
  return lines;
}

/** Actions in one sentence: an attack's result joins the attack ("attacked 0906 (result Dr)"). */
function sentence(actions, nameOf) {
  const parts = [];
  let lastAttack = -1;
  for (const a of actions) {
    if (a.kind === "result") {
      if (lastAttack >= 0 && !parts[lastAttack].includes("(result")) parts[lastAttack] += ` (result ${a.result})`;
      else parts.push(`result ${a.result}${a.target ? ` at ${a.target}` : ""}`);
      continue;
    }
    const c = clause(a, nameOf);
    if (!c || parts[parts.length - 1] === c) continue;
    if (a.kind === "attack" || a.kind === "bombard" || a.kind === "charge") lastAttack = parts.length;
    parts.push(c);
  }
  const text = parts.join("; ");
  return text ? `${text[0].toUpperCase()}${text.slice(1)}.` : "";
}

/** Draw the panel: hidden when there is nothing to tell. lines: [{seq, side, sideName, colour, text}]. */
export function renderSummary(sec, { lines, heading, sub, onClear }) {
  const told = lines.filter((l) => l.text);
  clear(sec);
  sec.hidden = !told.length;
  if (!told.length) return;
  const item = (l) =>
    h("li.trail-line", { "data-seq": l.seq, "data-side": l.side }, [
      h("span.side-dot", { style: `background:${l.colour}`, title: l.sideName, "aria-hidden": "true" }),
      h("span", { text: l.text }),
    ]);
  const earlier = told.slice(0, Math.max(0, told.length - SHOWN));
  add(sec,
    h("h3", {}, [heading, h("button.btn.small#trail-clear", { type: "button", text: "Clear", title: "Take the trail off the map until the next move", onclick: onClear })]),
    h("div.whose-sub", { text: sub }),
    earlier.length ? h("details.trail-earlier", {}, [h("summary", { text: `${earlier.length} earlier` }), h("ol.trail-list", {}, earlier.map(item))]) : null,
    h("ol.trail-list#trail-list", {}, told.slice(earlier.length).map(item)),
  );
}
