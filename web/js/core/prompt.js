// The decision the server asks of a player (a retreat path, a loss, an advance...): its heading in plain words
// with the rule numbers after, its choices as buttons and as outlined hexes on the map, answered by a click on
// either. A decision whose choices put units in a hex (retreats, advances, a fortune of war's move) is answered
// on the map: its hexes are outlined, a hex reached by several paths shows their number and a click on it asks
// which, and a list offers the same choices to the keyboard (ui/decisions.js). Only the server's prompt is shown;
// an edition may group the choices and say more about each (editions/index.js: promptGroups, optionText,
// optionNote, optionHexes).

import { h, clear, add, $, OKABE } from "../ui/dom.js";
import { optionOdds } from "../ui/explain.js";
import { promptHeading, ruleChipText, choiceHex, mapChoice, mapChoiceHelp, hexChoiceWords, routeWords } from "../ui/decisions.js";
import { S, page, currentView, gameStatus, sideName, activePrompt } from "./store.js";
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

/** The choices a click on a hex (or on a counter of `unit`) means: on a map choice, those of that hex alone. */
export function promptOptionsAt(prompt, hex, unit) {
  const mc = mapChoice(prompt);
  if (mc) return mc.byHex.get(hex) || [];
  return (prompt.options || []).filter((o) => optionHexes(o).has(hex) || (unit && Array.isArray(o.units) && o.units.includes(unit) && o.units.length === 1) || (unit && o.unit === unit));
}

/** The map choice I am asked now, if any (the counters over its hexes then mean the hexes, core/selection.js). */
export function activeMapChoice() {
  const p = activePrompt();
  return p ? mapChoice(p) : null;
}

export function choose(opt) {
  send({ type: "choose", option: opt.id });
  S.promptFilter = null;
}

function optionLabel(o) {
  return page.edition.optionText ? page.edition.optionText(o) : `${o.label || o.text || String(o.id)}`;
}

function optionButton(o, p, mine, hexes) {
  const hot = S.promptFilter && hexes.includes(S.promptFilter);
  const b = h(`button.btn.option-btn${hot ? ".hot" : ""}`, {
    type: "button",
    disabled: !mine,
    "data-option": o.id,
    text: optionLabel(o),
    "aria-label": `${o.label || o.id}${hexes.length ? " (hex " + hexes.join(", ") + ")" : ""}`,
    onclick: () => choose(o),
    onmouseenter: () => {
      if (hexes.length) renderOverlays(o);
    },
    onmouseleave: () => renderOverlays(),
  });
  b.appendChild(optionOdds(o, page.edition.results) || h("span"));
  const note = page.edition.optionNote ? page.edition.optionNote(o, p) : null;
  if (note) b.appendChild(h("span.option-note", { text: note }));
  return b;
}

/** A choice of a map choice in words, for the keyboard's list: its hex, its path and its facts. */
function listWords(o, hx) {
  const facts = page.edition.results && page.edition.results.optionFacts ? page.edition.results.optionFacts(o) : [];
  const way = routeWords(o);
  return [hx, way, ...facts].filter(Boolean).join(" · ");
}

/** The keyboard's way to a map choice: every choice in a list, grouped by hex, and a button to take it. */
function choiceList(mc) {
  const sel = h("select#prompt-choice", {
    "aria-label": "Choose from a list",
    onchange: () => {
      const o = findChoice(mc, sel.value);
      renderOverlays(o || null);
    },
  });
  let n = 0;
  for (const list of mc.byHex.values()) n += list.length;
  sel.appendChild(h("option", { value: "", text: `${n} choices on ${mc.byHex.size} hexes…` }));
  for (const [hx, list] of mc.byHex) {
    const into = list.length > 1 ? h("optgroup", { label: `${hx}: ${list.length} paths` }) : sel;
    for (const o of list) into.appendChild(h("option", { value: String(o.id), "data-hex": hx, text: listWords(o, hx) }));
    if (into !== sel) sel.appendChild(into);
  }
  const go = h("button.btn.small#prompt-choice-go", {
    type: "button",
    text: "Choose",
    onclick: () => {
      const o = findChoice(mc, sel.value);
      if (o) choose(o);
    },
  });
  return h("div.prompt-list", {}, [h("label.whose-sub", { for: "prompt-choice", text: "Or from the list: " }), h("div.actions", {}, [sel, go])]);
}

function findChoice(mc, id) {
  for (const list of mc.byHex.values()) for (const o of list) if (String(o.id) === id) return o;
  return null;
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
  const key = `${S.version}:${p.kind}`;
  if (S.promptKey !== key) {
    S.promptKey = key;
    S.promptFilter = null; // a hex clicked for an earlier decision
  }
  const head = promptHeading(p.text || p.kind, p.rule);
  add(sec,
    h("h3", {}, [mine ? "Your decision" : `${sideName(p.side)} must decide`]),
    h("h4.prompt-title#prompt-title", {}, [h("span.prompt-text#prompt-text", { text: head.text }), head.rule ? h("span.rule", { text: ruleChipText(head.rule) }) : null]),
  );
  const mc = mapChoice(p);
  const list = h("div.options#prompt-options", { role: "group", "aria-label": "Choices" });
  // a map choice lists only its other choices (stay, end the charge), and a clicked hex's paths when it has several
  const here = mc && S.promptFilter ? mc.byHex.get(S.promptFilter) || [] : [];
  const shown = mc ? [...mc.rest, ...here] : p.options || [];
  if (mc) {
    sec.appendChild(h("div.map-choice-help#prompt-map-help", { text: mine ? mapChoiceHelp(mc) : "The choices are outlined on the map." }));
    if (here.length) list.appendChild(h("div.option-group.path-choice", { "data-hex": S.promptFilter, text: `${here.length} paths lead to ${S.promptFilter}: choose one` }));
  }
  // an edition may head its choices by kind (a decision with many actions reads better grouped)
  const groups = page.edition.promptGroups ? page.edition.promptGroups(p) : null;
  let group = null;
  for (const o of shown) {
    if (groups && o.action !== group) {
      group = o.action;
      list.appendChild(h("div.option-group", { "data-action": group || "", text: groups[group] || group || "" }));
    }
    list.appendChild(optionButton(o, p, mine, [...optionHexes(o)]));
  }
  sec.appendChild(list);
  if (mc && mine) sec.appendChild(choiceList(mc));
  else if (mine && (p.options || []).some((o) => optionHexes(o).size)) sec.appendChild(h("div.whose-sub", { text: "The choices are outlined on the map: click one there or here." }));
  // a new decision of mine comes into view even when the panel was scrolled down (some editions ask many,
  // some inside the other player's phase)
  if (mine && S.promptSeen !== key) {
    S.promptSeen = key;
    if (sec.scrollIntoView) sec.scrollIntoView({ block: "nearest" });
    // and its outlined hexes too: the map pans to the first when none is on screen (a deployment far off, 19.8)
    const hexes = (p.options || []).flatMap((o) => [...optionHexes(o)]);
    const map = page.map;
    if (hexes.length && map && map.isVisible && !hexes.some((x) => map.isVisible(x))) map.ensureVisible(hexes[0]);
  }
}

/** The pending decision's choices on the map (core/overlays.js): each choice's hexes outlined, the hovered one
 *  filled and its path drawn; a map choice's hexes filled, numbered when several paths lead there, with the paths
 *  of the hex clicked (or hovered) drawn. */
export function drawPromptChoices(hoverOption = null) {
  const map = page.map;
  const v = currentView();
  const p = v.prompt;
  if (!(p && !S.history && (p.options || []).length)) {
    if (map.highlightUnits && map.highlightUnits.size) {
      map.highlightUnits = new Set();
      map.renderUnits();
    }
    return;
  }
  const mine = S.role === "seat" && p.side === S.side;
  const mc = mapChoice(p);
  const rings = [];
  const highlightUnits = new Set();
  for (const o of p.options) {
    if (Array.isArray(o.units)) o.units.forEach((u) => highlightUnits.add(u));
    if (mc && choiceHex(o)) continue; // drawn by hex below
    for (const hx of optionHexes(o)) rings.push({ hex: hx, colour: OKABE.purple, width: hoverOption === o ? 7 : 4, title: o.label || o.id, fill: hoverOption === o ? OKABE.purple : "none", cls: "choice" });
    if (Array.isArray(o.path) && o.path.length > 1 && (hoverOption === o || p.options.length <= 3)) map.drawPath(o.path, { colour: OKABE.purple, width: 3, dash: "6 4" });
  }
  if (mc) {
    const looked = S.promptFilter || (mine && mc.byHex.has(S.hoverHex) ? S.hoverHex : null);
    for (const [hx, list] of mc.byHex) {
      const hot = hx === looked || (hoverOption && list.includes(hoverOption));
      rings.push({ hex: hx, colour: OKABE.purple, width: hot ? 7 : 4, fill: OKABE.purple, label: list.length > 1 ? String(list.length) : null, title: hexChoiceWords(hx, list), cls: `choice map-choice${list.length > 1 ? " map-choice-paths" : ""}` });
      for (const o of list) {
        if (!Array.isArray(o.path) || !o.path.length) continue;
        if (hoverOption === o || (hx === looked && !hoverOption)) map.drawPath(pathFrom(p, o), { colour: OKABE.purple, width: hoverOption === o ? 4 : 3, dash: "6 4" });
      }
    }
  }
  if (mine || S.role !== "seat") map.ringHexes(rings);
  map.highlightUnits = mine ? highlightUnits : new Set();
  map.renderUnits();
}

/** A choice's path as drawn: from where its units stand (`from`: a retreat's path names only the hexes entered). */
function pathFrom(p, o) {
  return p.from && o.path[0] !== p.from ? [p.from, ...o.path] : o.path;
}

/** The hover card's line for a hex of the map choice I am asked, else null (core/overlays.js). */
export function promptChoiceTip(hex) {
  const mc = activeMapChoice();
  const list = mc && mc.byHex.get(hex);
  return list ? hexChoiceWords(hex, list) : null;
}
