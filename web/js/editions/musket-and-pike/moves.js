// How a Musket & Pike unit is commanded on the page (R17.95): select it (click its hex; toggle a stack's others out),
// then
// * in the Movement Segment click a shaded hex it may reach, then its facing (R17.16): a click on one of the six
//   hexes around the destination faces that way, a click on the destination again keeps the way it went, and the
//   selection panel lists the six as buttons (keys 1-6); a leader's move needs no facing (R17.38). "Face … without
//   moving" buttons turn a unit that stays.
// * in the Action Segment click a ringed target for its fire explained (table, column, each modifier, each result's
//   chance) with Fire and Salvo buttons, or use the buttons under Selected (Reform, a mode, Rally).
// * in the Close Combat Segment click a ringed defender, or a button: each way to attack it with its modifiers and
//   results (the referee's preview).
// What is legal is always the server's answer (options.py lists every command); this reads it.

import { h, OKABE } from "../../ui/dom.js";
import { normalizeOptions } from "../../ui/options.js";
import { api } from "../../api.js";
import { S, page, defs, nameOf, myTurn } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { cancel } from "../../core/selection.js";
import { renderSelection } from "../../core/selectionpanel.js";
import { renderOverlays } from "../../core/overlays.js";
import { commandLabel, COMMAND_RULES, fireOddsText, closeCombatText, facingToward, FACINGS } from "./words.js";
import { drawFacingChoice, drawTargets } from "./marks.js";

const isLeader = (u) => (defs()[u] || {}).type === "leader";

/** The options for the selection: the mover's reachable hexes (its moves by destination, every facing), every other
 *  command as a button (a fire carrying its odds, a close combat its preview once the referee answers). */
export function readOptions(raw) {
  const o = normalizeOptions({});
  const opts = (raw && raw.options) || {};
  const units = opts.units || {};
  const order = [...S.selected].sort((a, b) => Number(isLeader(a)) - Number(isLeader(b)));
  const mover = order.find((u) => units[u] && ((units[u].commands || []).some((c) => c.type === "move")));
  const moves = new Map(); // destination -> [move commands]
  if (mover) {
    for (const c of units[mover].commands) {
      if (c.type !== "move") continue;
      const dest = c.path[c.path.length - 1];
      if (!moves.has(dest)) moves.set(dest, []);
      moves.get(dest).push(c);
      if (!o.reach.has(dest)) o.reach.set(dest, { cost: null, path: c.path, ends: false });
    }
  }
  const targets = new Map(); // target hex -> [{kind, command}]
  // R17.16: the mover's turns without moving, one small button each; a unit with no move left may still turn
  const facer = mover || order.find((u) => units[u] && (units[u].commands || []).some((c) => c.type === "face"));
  const faces = [];
  const many = S.selected.length > 1;
  for (const [uid, entry] of Object.entries(units)) {
    const fires = entry.fire || [];
    let k = 0;
    for (const c of entry.commands || []) {
      if (c.type === "move") continue;
      if (c.type === "face") {
        if (uid === facer) faces.push(c);
        continue;
      }
      const why = c.type === "fire" ? fireOddsText(fires[k++]) : null;
      const who = c.type === "close_combat" ? "" : many ? `${nameOf(uid)}: ` : "";
      o.commands.push({ label: `${who}${commandLabel(c, nameOf)}`, command: c, rule: COMMAND_RULES[c.type], why, unit: uid });
      const tgt = c.type === "fire" ? c.target : c.type === "close_combat" ? c.defender : null;
      const hx = tgt && S.view.units[tgt] && S.view.units[tgt].hex;
      if (hx) {
        if (!targets.has(hx)) targets.set(hx, []);
        targets.get(hx).push(o.commands[o.commands.length - 1]);
      }
    }
    if (entry.must_move) o.notes.push({ text: `${nameOf(uid)} must end its move nearer the enemy (5.6 note 1).`, rule: "R17.31" });
    if (entry.allowance !== undefined && uid === mover) o.notes.push({ text: `${nameOf(uid)}: movement allowance ${entry.allowance} MP. Click a shaded hex, then the facing.`, rule: "R17.40" });
  }
  const seg = opts.segment;
  if (!Object.values(units).some((e) => (e.commands || []).length) && seg && myTurn()) {
    const wing = ((S.view["musket-and-pike"] || {}).wings || {})[opts.wing];
    o.notes.push({ text: `Only ${wing ? wing.name : "the active wing"}'s units (and its leaders) act now.`, rule: "R17.25" });
  }
  o.mp = { mover, facer, moves, targets, faces };
  return o;
}

/** A new selection starts with no destination and no target. */
export function resetSelection() {
  S.mpDest = null;
  S.mpTarget = null;
}

/** The six facings of a move to `dest` with the hex each points at (null off the map). */
function facingHexes(dest) {
  const g = page.map.grid;
  const c = g.center(dest);
  const out = new Map(FACINGS.map((f) => [f, null]));
  for (const n of g.neighbors(dest)) out.set(facingToward(c, g.center(n)), n);
  return out;
}

/** The direction of a path's last step (the way it went). */
function wentOf(path) {
  const g = page.map.grid;
  return path.length > 1 ? facingToward(g.center(path[path.length - 2]), g.center(path[path.length - 1])) : null;
}

function moveWith(dest, facing) {
  const list = (S.options && S.options.mp && S.options.mp.moves.get(dest)) || [];
  return list.find((c) => c.facing === facing) || null;
}

function go(cmd) {
  send(cmd);
  cancel(false);
}

/** A click on the map the edition takes: a destination (then its facing), a facing, a target. */
export function mapClick(hex) {
  const o = S.options;
  if (!o || !o.mp || !S.selected.length || !myTurn()) return false;
  const { moves, targets } = o.mp;
  if (S.mpDest) {
    const dest = S.mpDest;
    const list = moves.get(dest) || [];
    if (hex === dest) {
      const cmd = moveWith(dest, wentOf(list[0].path)) || list[0];
      go(cmd);
      return true;
    }
    for (const [f, hx] of facingHexes(dest)) {
      if (hx === hex && moveWith(dest, f)) {
        go(moveWith(dest, f));
        return true;
      }
    }
  }
  if (moves.has(hex)) {
    const list = moves.get(hex);
    if (!list[0].facing) {
      go(list[0]); // R17.38: a leader's move has no facing
      return true;
    }
    S.mpDest = hex;
    S.mpTarget = null;
    renderOverlays();
    renderSelection();
    return true;
  }
  if (targets.has(hex)) {
    S.mpTarget = hex;
    S.mpDest = null;
    renderOverlays();
    renderSelection();
    return true;
  }
  if (S.mpDest || S.mpTarget) {
    S.mpDest = null;
    S.mpTarget = null;
    renderOverlays();
    renderSelection();
    return true;
  }
  return false;
}

/** A click on one of my counters that means a hex: a facing around the destination. */
export function unitClickHex(unit, hex) {
  if (!S.mpDest) return null;
  if (hex === S.mpDest) return hex;
  return [...facingHexes(S.mpDest).values()].includes(hex) ? hex : null;
}

/** The map's marks for the selection: the facing choice (replacing the reachable hexes), or the targets added. */
export function selectionOverlays(v, o) {
  if (!o.mp) return false;
  const map = page.map;
  if (S.mpDest) {
    const list = o.mp.moves.get(S.mpDest) || [];
    const path = list.length ? list[0].path : [S.selHex, S.mpDest];
    const facings = [...facingHexes(S.mpDest)].filter(([f, hx]) => hx && moveWith(S.mpDest, f)).map(([f, hx]) => [hx, f]);
    drawFacingChoice(map, S.mpDest, path, facings, wentOf(path));
    return true;
  }
  const targets = [...o.mp.targets].map(([hex, cmds]) => ({
    hex,
    kind: cmds[0].command.type,
    hot: hex === S.mpTarget,
    title: `${cmds[0].command.type === "fire" ? "Fire at" : "Close combat against"} ${nameOf(cmds[0].command.target || cmds[0].command.defender)}: click for the odds`,
  }));
  drawTargets(map, targets);
  if (S.mpTarget) map.drawLine(S.selHex, S.mpTarget, { colour: OKABE.vermillion, dash: null, width: 3 });
  return false;
}

/** How a reachable hex looks: a destination whose facing is chosen next. */
export function reachLook(hex, r) {
  const n = r.path ? r.path.length - 1 : 0;
  return { colour: OKABE.sky, title: `${hex}: move here (${n} hex${n === 1 ? "" : "es"}), then choose the facing`, tip: "Move here: click, then choose the facing (R17.16)" };
}

function cmdButton(c, cls) {
  return h(`button.btn${cls}${c.why ? ".cmd-why" : ""}`, { type: "button", "data-command": JSON.stringify(c.command), title: c.rule ? `rule ${c.rule}` : null, onclick: () => go(c.command) }, [h("span", { text: c.label }), c.why ? h("span.why", { text: c.why }) : null]);
}

/** The edition's tools under Selected: the facing choice of a move, or the clicked target's commands explained. */
export function selectionTools(o) {
  if (!o.mp || !myTurn()) return null;
  if (S.mpDest) {
    const dest = S.mpDest;
    const box = h("div.mp-facing#mp-facing", { "aria-label": `Facing at ${dest}` }, [h("div.whose-sub", {}, [`Move ${nameOf(o.mp.mover)} to ${dest}: choose its facing (click a hex around it, or a button; keys 1-6)`, h("span.rule", { text: "rule R17.16", style: "margin-left:6px" })])]);
    const row = h("div.actions");
    const around = facingHexes(dest);
    const went = wentOf(((o.mp.moves.get(dest) || [])[0] || {}).path || []);
    FACINGS.forEach((f, i) => {
      const cmd = moveWith(dest, f);
      if (!cmd) return;
      const hx = around.get(f);
      row.appendChild(h(`button.btn.small.mp-face-btn${f === went ? ".primary" : ""}`, { type: "button", "data-facing": f, "data-command": JSON.stringify(cmd), onclick: () => go(cmd) }, [`${i + 1} · ${f}${hx ? ` (toward ${hx})` : ""}${f === went ? ", the way it went" : ""}`]));
    });
    row.appendChild(h("button.btn.small#mp-dest-cancel", { type: "button", text: "Another hex (Esc)", onclick: () => { S.mpDest = null; renderOverlays(); renderSelection(); } }));
    box.appendChild(row);
    return box;
  }
  if (S.mpTarget && o.mp.targets.has(S.mpTarget)) {
    const cmds = o.mp.targets.get(S.mpTarget);
    const first = cmds[0].command;
    const who = nameOf(first.target || first.defender);
    const box = h("div.mp-target-box#mp-target", { "data-hex": S.mpTarget }, [h("div.whose-sub", { text: `${first.type === "fire" ? "Fire at" : "Close combat against"} ${who} at ${S.mpTarget}:` })]);
    const row = h("div.actions");
    for (const c of cmds) row.appendChild(cmdButton(c, ".primary.mp-target-go"));
    box.appendChild(row);
    return box;
  }
  if (o.mp.faces.length) {
    const row = h("div.actions.mp-face-stay#mp-face-stay", { "aria-label": "Face without moving (R17.16)" }, [h("span.whose-sub", { text: `Face ${nameOf(o.mp.facer)} without moving (R17.16):` })]);
    for (const c of o.mp.faces) row.appendChild(h("button.btn.small.mp-face-now", { type: "button", "data-command": JSON.stringify(c), title: `Face ${c.facing} now (turning is not moving: it may still move this segment)`, text: c.facing, onclick: () => go(c) }));
    return row;
  }
  return null;
}

/** The close combats' previews (each modifier, the cap, each result's chance), asked of the referee once the options
 *  arrive: each button then says what its combat would be. */
export async function optionsArrived() {
  const o = S.options;
  if (!o || !o.mp) return;
  const ccs = o.commands.filter((c) => c.command.type === "close_combat");
  if (!ccs.length) return;
  await Promise.all(ccs.map(async (c) => {
    try {
      const ans = await api.preview(page.gameId, c.command);
      c.why = closeCombatText(ans && ans.preview);
    } catch (_) {
      c.why = null;
    }
  }));
  if (S.options === o) renderSelection();
}

/** Esc leaves the facing choice, then the target. */
export function onEscape() {
  if (S.mpDest || S.mpTarget) {
    S.mpDest = null;
    S.mpTarget = null;
    renderOverlays();
    renderSelection();
    return true;
  }
  return false;
}

/** 1-6: the facing of the move being made (in the order N, NE, SE, S, SW, NW). */
export function onKey(k) {
  if (!S.mpDest || !/^[1-6]$/.test(k)) return false;
  const cmd = moveWith(S.mpDest, FACINGS[Number(k) - 1]);
  if (cmd) go(cmd);
  return true;
}
