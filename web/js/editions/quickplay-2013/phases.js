// Quick Play 2013's phases with a box of their own: the set-up (3.2: which counters may be placed, and where, outlined
// on the map) and, in the movement phase, step recovery (11.2: a replacement step restores a reduced unit eligible
// for march movement, or returns an eliminated one as a reinforcement; no morale check). Both read the phase's own
// options (asked without a selection).

import { h } from "../../ui/dom.js";
import { counterIcon, FOUR_FACTOR_READING } from "../../counters.js";
import { S, defs } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { setupReach, renderSetupPanel, setupOverlays } from "../../core/setup.js";

/** 3.2: "w/N" placements, the words the set-up's box and marks use. */
export const PLACEMENT = { describe: (pl) => `within ${pl.within} hex${pl.within > 1 ? "es" : ""} of ${pl.listed}`, rule: "3.2" };

/** The phase's own box: the set-up's placements (3.2), or the units that may recover a step now (11.2). False when
 *  the phase has nothing to show. */
export function renderPhasePanel(sec, raw, v) {
  if (v.phase === "setup") {
    renderSetupPanel(sec, raw, v, { ...PLACEMENT, intro: "These counters may be placed within the outlined area around their listed hex (3.2): select one here or on the map, then click a shaded hex. The rest set up exactly where listed. End the set-up (E) when done." });
    return true;
  }
  if (v.phase === "movement" && (raw.recovery || []).length) {
    renderRecovery(sec, raw.recovery, v);
    return true;
  }
  return false;
}

function renderRecovery(sec, units, v) {
  const left = (v.replacements || {})[S.side];
  sec.hidden = false;
  sec.appendChild(h("h3", {}, ["Step recovery", h("span.rule", { text: "rule 11.2" })]));
  sec.appendChild(h("div.whose-sub#recovery-note", { text: `You have ${left ?? "some"} replacement step${left === 1 ? "" : "s"}. One step restores a reduced unit eligible for march movement (at least two hexes from every enemy unit, 4.3; it then moves only on a march and recovers from disruption too), or returns an eliminated unit, reduced, to enter as a reinforcement. No morale check is made.` }));
  const ul = h("ul.recovery-list#recovery-list");
  for (const uid of units) {
    const name = defs()[uid] ? defs()[uid].name : uid;
    const u = v.units[uid] || {};
    ul.appendChild(h("li.recovery-item", { "data-unit": uid }, [
      counterIcon(S.scenario, uid, u, 30, FOUR_FACTOR_READING),
      h("span", { text: `${name}${u.status === "map" ? ` in ${u.hex}: recovers its step ` : ": returns as a reinforcement "}` }),
      h("button.btn.small.primary.recover-go", { type: "button", "data-unit": uid, text: "Recover", onclick: () => send({ type: "recover", unit: uid }) }),
    ]));
  }
  sec.appendChild(ul);
}

/** 3.2: the hexes the referee allows a selected counter during the set-up. */
export function setupPlacements(o, rawOpts) {
  setupReach(o, rawOpts, PLACEMENT);
}

/** 3.2: the set-up areas outlined during my set-up, while nothing is selected. */
export function phaseOverlays(v, raw) {
  setupOverlays(v, raw, PLACEMENT);
}
