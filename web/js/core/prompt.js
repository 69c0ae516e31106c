// The decision the server asks of a player (a retreat path, a loss, an advance...): its choices as buttons
// and as outlined hexes on the map, answered by a click on either. Only the server's prompt is shown; an
// edition may group the choices and say more about each (editions/index.js: promptGroups, optionText,
// optionHexes).

import { h, clear, add, $ } from "../ui/dom.js";
import { optionOdds } from "../ui/explain.js";
import { S, page, currentView, gameStatus, sideName } from "./store.js";
import { send } from "./sync.js";
import { renderOverlays } from "./overlays.js";

/** Hexes an option refers to (its hex, the end of its path, its units' hexes). */
export function optionHexes(opt) {
  const out = new Set();
  if (!opt || typeof opt !== "object") return out;
  if (typeof opt.hex === "string") out.add(opt.hex);
  if (typeof opt.target === "string") out.add(opt.target);
  if (typeof opt.to === "string") out.add(opt.to);
  if (Array.isArray(opt.path) && opt.path.length) out.add(opt.path[opt.path.length - 1]);
  if (Array.isArray(opt.hexes)) opt.hexes.forEach((x) => out.add(x));
  if (page.edition.optionHexes) for (const x of page.edition.optionHexes(opt, currentView())) out.add(x);
  return out;
}

export function promptOptionsAt(prompt, hex, unit) {
  return (prompt.options || []).filter((o) => optionHexes(o).has(hex) || (unit && Array.isArray(o.units) && o.units.includes(unit) && o.units.length === 1) || (unit && o.unit === unit));
}

export function choose(opt) {
  send({ type: "choose", option: opt.id });
  S.promptFilter = null;
}

export function renderPrompt() {
  const v = currentView();
  const sec = $("#sec-prompt");
  const p = v.prompt;
  if (!p || v.phase === "over" || (p.kind === "phase" && !(p.options || []).length)) {
    // the invitee's "Join this battle" offer lives here until a seat is taken
    if (!(S.role !== "seat" && gameStatus() === "waiting" && new URLSearchParams(location.search).get("invite"))) sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const mine = !S.history && S.role === "seat" && p.side === S.side;
  add(sec,
    h("h3", {}, [mine ? "Your decision" : `${sideName(p.side)} must decide`, p.rule ? h("span.rule", { text: `rule ${p.rule}` }) : null]),
    h("p.prompt-text#prompt-text", { text: p.text || p.kind }),
  );
  const list = h("div.options#prompt-options", { role: "group", "aria-label": "Choices" });
  // an edition may head its choices by kind (a decision with many actions reads better grouped)
  const groups = page.edition.promptGroups ? page.edition.promptGroups(p) : null;
  let group = null;
  for (const o of p.options || []) {
    if (groups && o.action !== group) {
      group = o.action;
      list.appendChild(h("div.option-group", { "data-action": group || "", text: groups[group] || group || "" }));
    }
    const hexes = [...optionHexes(o)];
    const hot = S.promptFilter && hexes.includes(S.promptFilter);
    const b = h(`button.btn.option-btn${hot ? ".hot" : ""}`, {
      type: "button",
      disabled: !mine,
      "data-option": o.id,
      text: page.edition.optionText ? page.edition.optionText(o) : `${o.label || o.text || String(o.id)}`,
      "aria-label": `${o.label || o.id}${hexes.length ? " (hex " + hexes.join(", ") + ")" : ""}`,
      onclick: () => choose(o),
      onmouseenter: () => {
        if (hexes.length) renderOverlays(o);
      },
      onmouseleave: () => renderOverlays(),
    });
    b.appendChild(optionOdds(o, page.edition.results) || h("span"));
    list.appendChild(b);
  }
  sec.appendChild(list);
  if (mine && (p.options || []).some((o) => optionHexes(o).size)) sec.appendChild(h("div.whose-sub", { text: "The choices are outlined on the map: click one there or here." }));
  // a new decision of mine comes into view even when the panel was scrolled down (some editions ask many,
  // some inside the other player's phase)
  const seen = `${S.version}:${p.kind}`;
  if (mine && S.promptSeen !== seen) {
    S.promptSeen = seen;
    if (sec.scrollIntoView) sec.scrollIntoView({ block: "nearest" });
    // and its outlined hexes too: the map pans to the first when none is on screen (a deployment far off, 19.8)
    const hexes = (p.options || []).flatMap((o) => [...optionHexes(o)]);
    const map = page.map;
    if (hexes.length && map && map.isVisible && !hexes.some((x) => map.isVisible(x))) map.ensureVisible(hexes[0]);
  }
}
