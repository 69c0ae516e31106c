// How Quick Play's counters read (editions/index.js: counter): attack-defence-morale-movement along the foot, the
// artillery's range (one per unit) beside its symbol, and the same in words. Pure: counters.js draws the counter.

/** The factors printed along a counter's foot: attack-defence-morale-movement. Leaders: the generic reading. */
function factors(def, f) {
  if (def.kind === "leader") return undefined;
  return `${f.attack ?? "?"}-${f.defense ?? "?"}-${f.mr ?? "?"}-${f.ma ?? "?"}`;
}

/** The factors in words, for the counter's title, its aria label and the hex's hover card. */
function describe(def, f) {
  if (def.kind === "leader") return undefined;
  let s = `attack ${f.attack}, defence ${f.defense}, morale ${f.mr}, movement ${f.ma}`;
  const r = range(def, f);
  if (r) s += `, range ${r}`;
  if (f.charge) s += `, charge ${f.charge}`;
  return s;
}

/** An artillery unit's range, printed once for the unit (the scenario's `range`). */
function range(def) {
  return def.kind === "artillery" && def.range ? def.range : null;
}

export const counter = { factors, describe, range };

/** The legend's reading of a counter. */
export const COUNTER_LEGEND = "Counter: attack-defence-morale-movement; (n) artillery range; cN charge; pale = ineffective; white band = reduced; ★ leader; black dot on the right edge = moved this turn.";
