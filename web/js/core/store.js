// The game page's one state store and the few questions every module asks of it (whose turn, which view,
// what is a unit called). One object, not one per module, so that a render anywhere sees the same selection,
// options and view, and so that the tests and the console can read it all as `window.vedette.S`.
// `page` holds the long-lived objects boot creates (the map, the socket, the edition the game is played by).

import { unitDefs, mergeUnitDefs } from "../counters.js";
import { toast } from "../ui/chrome.js";

export const S = {
  me: null,
  game: null, // lobby summary of this game
  scenario: null,
  view: null, // the live view
  version: -1,
  log: [], // entries {seq, side, events, command}
  role: "spectator", // "seat" | "spectator" | "admin"
  side: null, // my side when seated
  selected: [], // unit ids
  selHex: null,
  options: null,
  optionsFor: "",
  preview: null, // {kind:"attack"|"bombard"|"charge", item}
  history: null, // {at, view, log} while stepping through history
  conn: "connecting",
  pending: new Map(), // command_id -> {command, msg}: sent and not yet answered (core/sync.js sends them again)
  lastCombat: null,
  chargeMode: false, // the map shows charge targets instead of reachable hexes
  chargeHover: null, // a charge target hovered in the panel
  trailCleared: -1, // the log seq up to which the player cleared the other side's trail (core/trail.js)
  selHexes: [], // every hex the selection takes units from (attacks combine several hexes)
  offSel: null, // the entry hex of selected units waiting off the map, else null
  optionsKey: "", // the selection key S.options answers (tests wait for it)
  phaseOptions: null, // {key, raw}: the phase's own options (asked without a selection)
  builder: null, // the attack being built: {target, roles: {unit: "attack"|"support"|"out"}, leaders: Set, primary}
  // an edition adds its own fields here (editions/index.js: initState)
};

/** What boot creates once: the game's id, the map, the socket, the asynchronous panels, and the edition. */
export const page = {
  gameId: decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || ""),
  map: null,
  sock: null,
  panels: null, // the clock and standing-orders panels (asynchronous play)
  chat: null, // the messages and the private note (ui/chat.js)
  edition: null, // the edition module the game is played by (editions/index.js)
};

export const defs = () => unitDefs(S.scenario);

export const nameOf = (u) => (defs()[u] ? defs()[u].name : u);

/** The edition's number for a rule the shared panels cite (editions/index.js: rules), or null to cite none; an
 *  edition's entry may be a function of what the panel cites it for (`enter`: the entry hex). */
export function ruleOf(key, ...about) {
  const rules = page.edition && page.edition.rules;
  const r = rules && rules[key];
  return (typeof r === "function" ? r(...about) : r) || null;
}

/** The view on screen: the replayed one while stepping through history, else the live one. */
export function currentView() {
  return S.history ? S.history.view : S.view;
}

export function gameStatus() {
  return (S.view && S.view.game && S.view.game.status) || (S.game && S.game.status) || "active";
}

export function myTurn() {
  return S.role === "seat" && !S.history && S.view && gameStatus() === "active" && S.view.awaiting === S.side && S.view.phase !== "over";
}

/** The decision the server asks of me now, if any ("move units, then end the phase" is no decision). */
export function activePrompt() {
  const v = S.history ? S.history.view : S.view;
  const p = v && v.prompt;
  if (!p || !myTurn() || p.side !== S.side) return null;
  if (p.kind === "phase" && !(p.options || []).length) return null;
  return p;
}

export function sideName(side) {
  return (S.scenario.sides[side] && S.scenario.sides[side].name) || side || "";
}

export function playerName(side) {
  const seats = (S.view && S.view.seats) || (S.game && S.game.seats) || {};
  return seats[side] || null;
}

export function setRole(viewer) {
  if (viewer && S.scenario && viewer in S.scenario.sides) {
    S.role = "seat";
    S.side = viewer;
  } else {
    S.role = viewer === "admin" ? "admin" : "spectator";
    S.side = null;
  }
}

export function adoptView(view, version) {
  mergeUnitDefs(S.scenario, view);
  S.view = view;
  S.version = version ?? view.version ?? S.version;
  if (view.game && view.game.you) setRole(view.game.you);
  syncGameStatus();
}

/** The lobby row read at boot goes stale: the live view's game status and result are the truth. */
export function syncGameStatus() {
  const g = S.view && S.view.game;
  if (!g || !S.game) return;
  if (g.status) S.game.status = g.status;
  if (g.result !== undefined) S.game.result = g.result;
}

export function showError(err) {
  const rule = err.rule || (err.body && err.body.rule);
  toast(err.message || "The server refused that.", { kind: "error", rule });
}
