// The turn bar in the top bar: the turn record track (each turn's label, reinforcements, and the light when the
// edition has one), the phases of the turn (the edition's own list, editions/index.js: turnPhases, trackLight)
// and the connection's state.

import { h, clear, $, add } from "../ui/dom.js";
import { shortTurnLabel } from "../ui/battle.js";
import { S, page, currentView } from "./store.js";

export function buildTurnbar() {
  return h("div.turnbar#turnbar", { role: "status", "aria-label": "Turn and phase" });
}

export function renderTurnbar() {
  const bar = $("#turnbar");
  if (!bar) return;
  const v = currentView();
  const turns = v.turns || S.scenario.turns;
  const labels = S.scenario.turn_labels || (S.scenario.trt || []).map((b) => b.label) || [];
  const light = page.edition.trackLight ? page.edition.trackLight(S.scenario) : [];
  const reinfTurns = new Set((S.scenario.reinforcements || []).map((r) => r.turn));
  const track = h("div.turn-track", { "aria-label": `Turn record track: turn ${v.turn} of ${turns}` });
  for (let t = 1; t <= turns; t++) {
    track.appendChild(
      h(`div.tt${t < v.turn ? ".past" : ""}${t === v.turn ? ".now" : ""}${reinfTurns.has(t) ? ".reinf" : ""}${light[t - 1] && light[t - 1] !== "day" ? ".light-" + light[t - 1] : ""}`, { title: `Turn ${t}${labels[t - 1] ? " (" + labels[t - 1] + ")" : ""}${light[t - 1] && light[t - 1] !== "day" ? ", " + light[t - 1] : ""}${reinfTurns.has(t) ? ": reinforcements" : ""}`, "aria-current": t === v.turn ? "step" : null }, [
        h("b", { text: String(t) }),
        labels[t - 1] ? h("span", { text: shortTurnLabel(labels[t - 1]) }) : null,
      ]),
    );
  }
  const steps = h("div.phase-steps", { "aria-label": `Phase: ${v.phase}` });
  const active = v.active ? S.scenario.sides[v.active] : null;
  if (active) steps.appendChild(h("span.now", { style: `background:${active.color};color:${active.text_color || "#fff"}`, text: active.adjective || active.name }));
  const phases = page.edition.turnPhases || [];
  if (phases.includes(v.phase)) for (const p of phases) steps.appendChild(h(`span${p === v.phase ? ".now" : ""}`, { text: p }));
  else steps.appendChild(h("span.now", { text: v.phase }));
  const conn = h("div.conn#conn", { "aria-live": "polite" });
  add(clear(bar), track, steps, conn);
  renderConn();
}

export function renderConn(why) {
  const el = $("#conn");
  if (!el) return;
  const text = { open: "Live", connecting: "Connecting…", reconnecting: "Reconnecting…", offline: "Offline" }[S.conn] || S.conn;
  el.className = `conn ${S.conn}`;
  el.setAttribute("data-state", S.conn);
  add(clear(el), h("span.dot", { "aria-hidden": "true" }), h("span.conn-text", { text: why && S.conn !== "open" ? `${text} (${why})` : text }));
  el.setAttribute("aria-label", `Connection: ${text}`);
}
