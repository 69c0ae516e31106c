// Musket & Pike's words (seed 004 + R17): orders, segments, unit states, every command's button and every roll's odds
// as the page says them. Pure functions of the server's answers (server/rules/musket_and_pike/options.py: each unit's
// `commands`, each fire's `table`/`column`/`modifiers`/`results`; the decisions' `need`/`modifiers`/`odds`), so that
// node tests them (tests/web/mp.test.mjs).

export const ORDER_NAMES = { charge: "Charge", make_ready: "Make Ready", receive_charge: "Receive Charge", rally: "Rally" };
// the order's letters on the wing's chips and its counters' tags
export const ORDER_SHORT = { charge: "CH", make_ready: "MR", receive_charge: "RC", rally: "RA" };
// R17.30: what each order lets the active wing's units do (the Orders Restriction Chart, 5.6)
export const ORDER_NOTES = {
  charge: "move their full MA and must close on the enemy (5.6 note 1); fire after moving; close combat",
  make_ready: "move their full MA, never next to the enemy (note 2); fire, reform (with a leader) or rally",
  receive_charge: "move one hex, never next to the enemy (note 2); fire, reform; rally with a leader",
  rally: "move their full MA, never closer to the enemy (note 3); fire, reform or rally",
};

export const SEGMENT_WORDS = {
  movement: "Movement Segment",
  action: "Action Segment",
  close_combat: "Close Combat Segment",
};
export const SEGMENT_RULES = { movement: "R17.40, 5.6", action: "R17.60, R17.76", close_combat: "R17.80" };

export const STEP_WORDS = {
  start: "The battle opens",
  command: "Command Phase: initiative and orders changes",
  activation: "Activation Phase",
  end: "End Phase",
};
export const STEP_RULES = { start: "M19", command: "R17.21, 5.7", activation: "R17.22, R17.25", end: "R17.23" };

export const MODE_WORDS = { line: "Line", column: "Column", open_order: "Open Order", hedgehog: "Hedgehog" };
const MODE_TAGS = { line: "", column: "Col", open_order: "OO", hedgehog: "Hh" };
export const COND_WORDS = { normal: "", shaken: "Formation Shaken", broken: "Formation Broken" };
export const MORALE_WORDS = { normal: "", shaken: "Morale Shaken", broken: "Morale Broken" };
export const FACINGS = ["N", "NE", "SE", "S", "SW", "NW"];

// R17.10, R17.11: a unit's type as the card names it
const TYPE_WORDS = { hi: "Heavy Infantry", li: "Light Infantry", cavalry: "Cavalry", artillery: "Artillery", leader: "Leader" };
const CLASS_WORDS = { dragoons: "Dragoons", commanded_muskets: "Commanded Muskets", cuirassier: "Cuirassiers", arquebusier: "Arquebusiers" };
const CALIBRE_WORDS = { "3lb": "Falcons (3lb)", "4-8lb": "Sakers (4-8lb)", "12-24lb": "Culverins (12-24lb)" };
// the page's kinds (counters.js draws a NATO symbol and a leader's star by them)
export const PAGE_KINDS = { hi: "infantry", li: "infantry", cavalry: "cavalry", artillery: "artillery", leader: "leader" };

/** "Heavy Infantry", "Cavalry (Cuirassiers)", "Wing Commander": a unit's kind as the card names it (R17.11, R17.12). */
export function kindWords(def) {
  if (!def) return "";
  if (def.type === "leader") return def.role === "ac" ? "Army Commander" : "Wing Commander";
  const kind = TYPE_WORDS[def.type] || def.type;
  return def.class ? `${kind} (${CLASS_WORDS[def.class] || def.class})` : kind;
}

/** "with pikes, regimental artillery, two-hex unit (R17.14)": what else its counter prints (R17.10, R17.14). */
export function detailWords(def) {
  if (!def) return "";
  if (def.type === "leader") return `rating ${signed(def.rating ?? 0)}`;
  const bits = [];
  if (def.type === "hi") bits.push(def.pikes ? "with pikes" : "no pikes");
  if (def.regimental_artillery) bits.push("regimental artillery");
  if (def.calibre) bits.push(`${CALIBRE_WORDS[def.calibre] || def.calibre}${def.double ? ", double battery" : ""}`);
  if (def.large) bits.push("two-hex unit (R17.14)");
  return bits.join(", ");
}


export function signed(n) {
  return `${n > 0 ? "+" : ""}${n}`;
}

/** The tag under a counter (R17.15): its mode, formation condition, morale, Casualty Points, Salvo marker, e.g.
 *  "Col FS 2cp" or "MB 4cp S". Empty for a fresh unit in Line. */
export function unitTag(u) {
  if (!u) return "";
  const bits = [];
  if (MODE_TAGS[u.mode]) bits.push(MODE_TAGS[u.mode]);
  if (u.cond === "shaken") bits.push("FS");
  else if (u.cond === "broken") bits.push("FB");
  if (u.morale === "shaken") bits.push("MS");
  else if (u.morale === "broken") bits.push("MB");
  if (u.cp) bits.push(`${u.cp}cp`);
  if (u.salvo) bits.push("S");
  return bits.join(" ");
}

/** A unit's state in words (the hover card, the counter's title): "6 of 12 SP, Column, Formation Shaken, Morale
 *  Shaken, Salvo marker, 1 pistol shot left, facing S". */
export function stateWords(def, u) {
  if (!u) return [];
  const out = [`${u.sp} of ${def.sp} SP${u.cp ? ` (${u.cp} Casualty Point${u.cp === 1 ? "" : "s"})` : ""}`, MODE_WORDS[u.mode] || u.mode];
  if (u.cond && COND_WORDS[u.cond]) out.push(COND_WORDS[u.cond]);
  if (u.morale && MORALE_WORDS[u.morale]) out.push(MORALE_WORDS[u.morale]);
  if (u.salvo) out.push("Salvo marker (10.4)");
  if (def.type === "cavalry") out.push(`${u.pistols} pistol shot${u.pistols === 1 ? "" : "s"} left`);
  if (u.acted) out.push("acted");
  return out;
}

/** The hexside facing from hex centre `a` toward the centre `b` of a neighbour (R17.16), on the page's geometry
 *  (flat-topped hexes: the six hexsides at -90 N, -30 NE, 30 SE, 90 S, 150 SW, -150 NW degrees, y down). */
export function facingToward(a, b) {
  const deg = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  const ANG = { N: -90, NE: -30, SE: 30, S: 90, SW: 150, NW: -150 };
  let best = null;
  let gap = 999;
  for (const [f, d] of Object.entries(ANG)) {
    let diff = Math.abs(deg - d) % 360;
    if (diff > 180) diff = 360 - diff;
    if (diff < gap) {
      gap = diff;
      best = f;
    }
  }
  return best;
}

/** "−1 WC Piccolomini's rating (R17.5); −1 Cavalry Wing (4.3)": a roll's modifiers with their rules. */
export function modifiersText(mods) {
  return (mods || []).map((m) => `${signed(m.value)} ${m.label}${m.rule ? ` (${m.rule})` : ""}`).join("; ");
}

/** A command roll's odds (4.3, 4.4, 5.7, 9.3): "needs 0-4 on the d10 after −1 WC's rating (R17.5): 60%" (R17.2: the
 *  modified die succeeds in the printed range, low dice good). */
export function rollOddsText(o) {
  if (!o || o.need === undefined || o.need === null) return null;
  const mods = modifiersText(o.modifiers);
  const pct = o.odds !== undefined ? `${Math.round(o.odds * 100)}% to succeed` : "";
  return `needs 0-${o.need} on the d10${mods ? ` after ${mods}` : " (no modifier)"}${pct ? `: ${pct}` : ""}`;
}

/** Each result's chance, most likely first: "Miss 60% · 1 20% · FH 20%". */
export function resultsText(results) {
  return Object.entries(results || {})
    .sort((a, b) => b[1] - a[1])
    .map(([r, p]) => `${r} ${Math.round(p * 100)}%`)
    .join(" · ");
}

/** A fire's odds (options.py fire.odds): its table and column, every modifier with its rule, each result's chance. */
export function fireOddsText(o) {
  if (!o) return null;
  const mods = modifiersText(o.modifiers);
  return `${o.table}, ${o.column}; ${mods ? `${mods}; ` : "no modifier; "}total ${signed(o.total_modifier || 0)}: ${resultsText(o.results)}`;
}

/** A close combat's preview (options.py preview): the Close Combat Table, every modifier, the cap, each result. */
export function closeCombatText(pv) {
  if (!pv || pv.legal === false) return pv && pv.message ? `refused: ${pv.message}${pv.rule ? ` (${pv.rule})` : ""}` : null;
  if (pv.automatic) return "no roll: the defender is artillery alone or Morale Broken (R17.74, R17.80)";
  const mods = modifiersText(pv.modifiers);
  const capped = pv.raw !== undefined && pv.raw !== pv.total_modifier ? ` (${signed(pv.raw)} capped at ±4, R17.84)` : "";
  return `${pv.table}; ${mods || "no modifier"}; total ${signed(pv.total_modifier)}${capped}: ${resultsText(pv.results)}`;
}

const moveWords = (c, nameOf) => `Move ${nameOf(c.unit)} to ${c.path[c.path.length - 1]}${c.facing ? `, facing ${c.facing}` : ""}`;

/** The label of a command's button: what it does, in the card's words. */
export function commandLabel(c, nameOf) {
  switch (c.type) {
    case "move":
      return c.path.length < 2 ? `${nameOf(c.unit)} stays` : moveWords(c, nameOf);
    case "face":
      return `Face ${c.facing} without moving`;
    case "fire":
      return c.salvo ? `Salvo at ${nameOf(c.target)} (10.4)` : `Fire at ${nameOf(c.target)}`;
    case "reform":
      return "Reform: one formation level better, Salvo marker off, pistols back";
    case "formation":
      return `Form ${MODE_WORDS[c.mode] || c.mode}`;
    case "rally":
      return "Rally (morale check)";
    case "close_combat": {
      const others = (c.attackers || []).filter((a) => a !== c.lead);
      const pist = (c.pistols || []).length ? `, pistols: ${c.pistols.map(nameOf).join(", ")}` : "";
      return `Close combat: ${nameOf(c.lead)}${others.length ? ` with ${others.map(nameOf).join(", ")}` : ""} against ${nameOf(c.defender)}${pist}`;
    }
    case "end_segment":
    case "end_phase":
      return "End segment";
    default:
      return c.type;
  }
}

export const COMMAND_RULES = {
  move: "R17.40, 5.6",
  face: "R17.16",
  fire: "R17.60-R17.64",
  reform: "R17.76, 13.3",
  formation: "R17.76",
  rally: "R17.76, R17.72",
  close_combat: "R17.80-R17.84",
  end_segment: "R17.25",
};

// R17.24-R17.28, 9.3, R17.51, R17.81, R17.87: what each decision's answer does, under its button
export function optionNote(o, p) {
  if (!p || !o) return null;
  const odds = rollOddsText(o);
  switch (p.kind) {
    case "orders_change":
      if (o.id === "keep") return `The wing keeps its order: ${ORDER_NOTES[o.order] || ""}.`;
      return `${odds}. Success: ${ORDER_NAMES[o.order]} at once (5.7); its units ${ORDER_NOTES[o.order] || ""}.`;
    case "activate":
      return o.order ? `Its units ${ORDER_NOTES[o.order] || ""} (R17.30).` : null;
    case "preempt":
      if (o.id === "none") return "The wing that acted may try a Continuation (4.3).";
      return `${odds}. Success: this wing activates now and the other is finished; failure: its commander is marked No Continue (R17.26).`;
    case "continue":
      if (o.id === "finish") return "The wing is finished for the turn; the other side chooses next (R17.29).";
      return `${odds}. Success: the wing activates again at once (4.3, R17.27).`;
    case "intercept":
      if (o.id === "none") return null;
      return `${odds}. Success: it rides to ${o.hex} and attacks the mover in close combat${o.pistol ? ", +1 for the pistol shot (R17.81)" : ""} (9.3, R17.50).`;
    case "react":
      return REACT_NOTES[o.reaction] || null;
    case "pistol":
      return o.id === "spend" ? "−1 to the attacker's close combat roll; one shot fewer until it reforms (R17.81)." : null;
    case "advance":
      return o.id === "advance" ? "The unit moves into the vacated hex (R17.87)." : null;
    default:
      return odds;
  }
}

const REACT_NOTES = {
  fire: "Fires at the mover now (R17.62: no Salvo; −1 on the HI tables against moving cavalry).",
  hedgehog: "Forms Hedgehog: all-round front, +1 against fire at it, ignores Formation Hits (R17.51).",
  withdraw: "Falls back up to 2 hexes, each farther from the mover, then faces as you choose (R17.51).",
  retreating_fire: "Fires at the mover with −3 (10.3.4), then must Withdraw (R17.51).",
};
