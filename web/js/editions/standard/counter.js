// How the Standard rules' counters read (editions/index.js: counter): a combat unit's combat factor, morale and
// movement (2.4: a parenthesised CF, a bracketed or "V" MA), an artillery unit's attack, defence and movement with
// the range of the side it shows (8.1), a headquarters' or trains' movement when inactive (12.1, 12.2), a red dot
// (11.2), and the marks the page adds (inactive, marched). Pure: counters.js draws the counter.

const isHqOrTrains = (def) => def.kind === "hq" || def.kind === "trains";
const isGun = (def, f) => f.cf === undefined && f.attack !== undefined;

/** 2.4: "(n)" for a parenthesised CF, "[n]" for a bracketed MA; a "V" MA prints as V. */
const cfText = (f) => (f.parenthesized ? `(${f.cf})` : `${f.cf}`);
const maText = (f) => (f.bracketed ? `[${f.ma}]` : `${f.ma ?? "?"}`);

/** The factors printed along a counter's foot. Leaders: the generic reading (combat-morale-movement). */
function factors(def, f) {
  if (isHqOrTrains(def)) return `${def.kind === "hq" ? "HQ" : "TR"} ${def.ma ?? ""}`;
  if (f.cf !== undefined) return `${cfText(f)}-${f.mr ?? "?"}-${maText(f)}`;
  if (isGun(def, f)) return f.mr === undefined ? `${f.attack}-${f.defense ?? "?"}-${f.ma ?? "?"}` : `${f.attack}-${f.defense ?? "?"}-${f.mr}-${f.ma ?? "?"}`;
  return undefined;
}

/** The factors in words, for the counter's title, its aria label and the hex's hover card. */
function describe(def, f) {
  if (isHqOrTrains(def)) return `${def.kind === "hq" ? "headquarters" : "trains"}, movement ${def.ma ?? "?"} when inactive (${def.kind === "hq" ? "12.1" : "12.2"})`;
  const parts = [];
  if (f.cf !== undefined) {
    parts.push(`combat ${f.cf}${f.parenthesized ? " (parenthesised: halved when attacking, 2.4)" : ""}`, `morale ${f.mr}`);
    parts.push(`movement ${f.ma ?? "?"}${f.bracketed ? " (bracketed: no skirmish, 7.13)" : f.ma === "V" ? " (variable: rolled, 4.4)" : ""}`);
    if (f.charge) parts.push(`charge ${f.charge} (9.3)`);
  } else if (isGun(def, f)) {
    parts.push(`attack ${f.attack}`, `defence ${f.defense}`);
    if (f.mr !== undefined) parts.push(`morale ${f.mr}`);
    parts.push(`movement ${f.ma ?? "?"}`);
    const r = range(def, f);
    if (r) parts.push(`range ${r} (8.1)`);
  } else return undefined;
  if (f.red_dot) parts.push("red dot: no replacement step (11.2)");
  return parts.join(", ");
}

/** 8.1: an artillery unit's range is printed on each side of its counter. */
function range(def, f) {
  return def.kind === "artillery" ? f.range ?? def.range ?? null : null;
}

/** The marks the page adds to a unit's state (mapView): an inactive HQ or trains (12.1, 12.2), a marched unit (4.7),
 *  a unit in open order (19.10, "OO"). */
function flags(def, state) {
  const out = [];
  if (state.inactive) out.push(`inactive (${def.kind === "trains" ? "12.2" : "12.1"})`);
  if (state.marched) out.push("marched (4.7)");
  if (state.open_order) out.push("OO: open order (19.10)");
  return out;
}

export const counter = { factors, describe, range, flags };

/** The legend's reading of a counter (2.4). */
export const COUNTER_LEGEND = "Counter (2.4): combat-morale-movement; (n) a parenthesised combat factor, halved when attacking; [n] a bracketed movement allowance, no skirmish (7.13); V: movement rolled (4.4); artillery attack-defence-movement, (n) its range (8.1); cN charge factor (9.3); red dot: no replacement step (11.2); HQ n / TR n: headquarters or trains, movement when inactive (12.1, 12.2); pale = ineffective or inactive; white band = reduced; ★ leader; black dot on the right edge = moved this turn.";
