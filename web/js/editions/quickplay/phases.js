// Quick Play's phases with a box of their own: the set-up (3.2: which counters may be placed, and where, outlined
// on the map) and step recovery (11.4: which units may try, what they need, with a leader's help). Both read the
// phase's own options (asked without a selection); the placements also shade a selected counter's hexes.

import { h } from "../../ui/dom.js";
import { counterIcon } from "../../counters.js";
import { counter } from "./counter.js";
import { S, defs } from "../../core/store.js";
import { send } from "../../core/sync.js";
import { setupReach, renderSetupPanel, setupOverlays } from "../../core/setup.js";

const WORDS = { describe: (pl) => `within ${pl.within} hex${pl.within > 1 ? "es" : ""} of ${pl.listed}`, rule: "3.2" };

/** 3.2: the hexes the referee allows a selected counter during the set-up (within its allowance of its listed hex). */
export function setupPlacements(o, rawOpts) {
  setupReach(o, rawOpts, WORDS);
}

/** The phase's own box: where each counter may be set up (3.2), and which units may try step recovery and what
 *  they need (11.4). False when the phase has no box. */
export function renderPhasePanel(sec, raw, v) {
  if (v.phase === "setup") {
    renderSetup(sec, raw, v);
    return true;
  }
  if (v.phase === "recovery") {
    renderRecovery(sec, raw, v);
    return true;
  }
  return false;
}

function renderSetup(sec, raw, v) {
  renderSetupPanel(sec, raw, v, { ...WORDS, intro: "These counters may be placed within the outlined area around their listed hex: select one here or on the map, then click a shaded hex. The rest set up exactly where listed. End the set-up (E) when done." });
}

function renderRecovery(sec, raw, v) {
  const rows = raw.recovery || [];
  sec.hidden = false;
  sec.appendChild(h("h3", {}, ["Step recovery", h("span.rule", { text: "rule 11.4" })]));
  const left = (v.replacements || {})[S.side];
  const ok = rows.filter((r) => r.ok);
  sec.appendChild(h("div.whose-sub#recovery-note", { text: ok.length ? `You have ${left ?? "some"} replacement step${left === 1 ? "" : "s"}. A unit recovers a step if its morale die is at most the rating shown (1 always passes, 6 always fails); an eliminated unit that passes returns later at your return hex. Each try uses a step. End the phase (E) when done.` : `No unit of yours can try step recovery now${left === 0 ? ": no replacement steps are left" : ""}. End the phase (E).` }));
  const ul = h("ul.recovery-list#recovery-list");
  for (const r of rows) {
    const name = defs()[r.unit] ? defs()[r.unit].name : r.unit;
    const li = h("li.recovery-item", { "data-unit": r.unit }, [counterIcon(S.scenario, r.unit, v.units[r.unit], 30, counter), h("span", { text: `${name}${r.eliminated ? " (eliminated)" : r.hex ? " in " + r.hex : ""}: ` })]);
    if (!r.ok) {
      li.appendChild(h("span.muted", { text: r.message || "cannot recover now" }));
      if (r.rule) li.appendChild(h("span.rule", { text: `rule ${r.rule}`, style: "margin-left:6px" }));
    } else {
      li.appendChild(h("span", { text: `needs a morale die ≤ ${r.morale}${(r.leaders || []).length ? " (more with a leader)" : ""} ` }));
      let leaderSel = null;
      if ((r.leaders || []).length) {
        leaderSel = h("select.recover-leader", { "data-unit": r.unit, "aria-label": `Leader supporting ${name}'s recovery (rule 10.0(5))` }, [
          h("option", { value: "", text: "best leader (automatic)" }),
          ...r.leaders.map((l) => h("option", { value: l.id, text: `${defs()[l.id] ? defs()[l.id].name : l.id} (+${l.morale})` })),
        ]);
        li.appendChild(leaderSel);
      }
      li.appendChild(h("button.btn.small.primary.recover-go", {
        type: "button",
        "data-unit": r.unit,
        text: "Recover",
        onclick: () => {
          const cmd = { type: "recover", unit: r.unit };
          if (leaderSel && leaderSel.value) cmd.leader = leaderSel.value;
          send(cmd);
        },
      }));
    }
    ul.appendChild(li);
  }
  sec.appendChild(ul);
}

/** 3.2: the set-up areas outlined during my set-up, while nothing is selected. */
export function phaseOverlays(v, raw) {
  setupOverlays(v, raw, WORDS);
}
