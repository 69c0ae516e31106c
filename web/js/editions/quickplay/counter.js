// How Quick Play's counters read (editions/index.js: counter): attack-defence-morale-movement along the foot, the
// artillery's range (one per unit) beside its symbol, and the same in words: counters.js's four-factor reading.

import { FOUR_FACTOR_READING } from "../../counters.js";

export const counter = FOUR_FACTOR_READING;

/** The legend's reading of a counter. */
export const COUNTER_LEGEND = "Counter: attack-defence-morale-movement; (n) artillery range; cN charge; pale = ineffective; white band = reduced; ★ leader; black dot on the right edge = moved this turn.";
