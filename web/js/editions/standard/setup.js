// The Standard set-up (Königgrätz 17.1-17.3): the core's set-up box and map marks (core/setup.js) with the referee's
// words for each area (17.2: "within 3 hexes of 2420", a leader "stacked with a unit in the leader's command span";
// 17.3: the free set-up), and two buttons: place every unplaced counter on its printed hex, and end the set-up.

import { S } from "../../core/store.js";
import { setupReach, renderSetupPanel, setupOverlays, setupCommandAt } from "../../core/setup.js";
import { renderHiddenSetup, hiddenSetupOverlays } from "./hidden_setup.js";

const WORDS = { describe: (pl) => pl.text || "in its area", rule: "17.2" };

/** 17.2: the selected counter's allowed hexes shaded on the map. */
export function setupOptions(o, raw) {
  if (S.view && S.view.phase === "setup") setupReach(o, (raw && raw.options) || {}, WORDS);
  return o;
}

/** 17.2: a click on any hex places the selected counter there (the referee refuses a hex outside its area). */
export function setupClick(hex, o) {
  return setupCommandAt(hex, o);
}

/** The Set-up box: the counters to place with their areas, "Place the rest as printed" and "End set-up". */
export function renderSetup(sec, raw, v) {
  const st = raw.setup || {};
  const end = st.end;
  renderSetupPanel(sec, raw, v, {
    ...WORDS,
    intro: "Place each counter in its area: select it here or on the map (its allowed hexes are shaded), then click a hex; click a placed counter and another hex to move it. The other player sees nothing of your placements until you end the set-up (17.2).",
    buttons: [
      { id: "setup-printed", label: `Place the rest as printed${st.printed ? ` (${st.printed})` : ""}`, command: { type: "place_printed" }, disabled: !st.printed, title: "Every unplaced counter on its printed hex (17.2)" },
      { id: "setup-end", label: "End set-up", primary: true, command: { type: "end_phase" }, disabled: !!end, note: end ? `${end.message} (rule ${end.rule})` : "" },
    ],
  });
  renderHiddenSetup(sec, raw); // 19.8 B: the hidden movement boxes
}

export function setupMarks(v, raw) {
  setupOverlays(v, raw, WORDS);
  hiddenSetupOverlays(); // 19.8 B: the hexes a box's markers may take
}
