// The game's past: the replay slider (any earlier version, fetched from the server and shown read-only) and the
// game log, appended to as entries arrive rather than rebuilt.

import { api } from "../api.js";
import { h, clear, $, add } from "../ui/dom.js";
import { mergeUnitDefs } from "../counters.js";
import { logOutcome } from "../ui/explain.js";
import { replayMarks, replayJump } from "../ui/battle.js";
import { S, page, defs, sideName, showError } from "./store.js";
import { cancel } from "./selection.js";
import { renderAll } from "./panels.js";

export function renderHistory() {
  const sec = clear($("#sec-history"));
  const max = S.version;
  const at = S.history ? S.history.at : max;
  const slider = h("input#history-slider", { type: "range", min: 0, max: Math.max(0, max), value: at, step: 1, "aria-label": "Step through the game's history", "aria-valuetext": `version ${at} of ${max}` });
  let timer = null;
  slider.addEventListener("input", () => {
    clearTimeout(timer);
    const n = +slider.value;
    label.textContent = `${n} / ${max}`;
    timer = setTimeout(() => goHistory(n), 150);
  });
  const label = h("span#history-label", { text: `${at} / ${max}` });
  add(sec,
    h("h3", {}, ["Replay", S.history ? h("button.btn.small#history-live", { type: "button", text: "Back to live", onclick: () => goHistory(null) }) : null]),
    h("div.history-bar", {}, [
      h("button.btn.small", { type: "button", "aria-label": "Step back", text: "◀", disabled: at <= 0, onclick: () => goHistory(Math.max(0, at - 1)) }),
      slider,
      h("button.btn.small", { type: "button", "aria-label": "Step forward", text: "▶", disabled: at >= max, onclick: () => goHistory(at + 1 >= max ? null : at + 1) }),
      label,
    ]),
    replayJump(replayMarks(S.log, S.scenario), at, (n) => goHistory(n)) || h("span"),
  );
}

export async function goHistory(n) {
  if (n === null || n >= S.version) {
    S.history = null;
    $("#history-banner").hidden = true;
    renderAll();
    return;
  }
  try {
    const res = await api.history(page.gameId, n);
    mergeUnitDefs(S.scenario, res.view);
    S.history = { at: n, view: res.view, log: res.log || [] };
    cancel(false);
    const b = $("#history-banner");
    b.hidden = false;
    add(clear(b), `Replay: version ${n} of ${S.version} `, h("button.btn.small", { type: "button", text: "Back to live", onclick: () => goHistory(null), style: "margin-left:8px" }));
    renderAll();
  } catch (e) {
    showError(e);
  }
}

function eventText(ev) {
  if (ev.text) return ev.text;
  return ev.type;
}

export function renderLog() {
  const ol = $("#log");
  const entries = S.history ? S.history.log : S.log;
  // The live log only grows: append the new entries instead of rebuilding hundreds of lines on every
  // update (a long battle's log made each patch cost a full re-render on every open page).
  const src = S.history ? "history" : "live";
  const r = S.logRendered;
  let from = 0;
  if (r && r.src === src && r.list === entries && r.count <= entries.length && entries.length && r.lastSeq === (entries[r.count - 1] || {}).seq) {
    from = r.count;
    if (from === entries.length) return;
    const empty = ol.querySelector("li.empty");
    if (empty) empty.remove();
  } else clear(ol);
  for (const entry of entries.slice(from)) {
    const who = entry.side ? sideName(entry.side) : "";
    const cmdType = entry.command && entry.command.type;
    const evs = entry.events || [];
    if (!evs.length && cmdType) ol.appendChild(h("li", { "data-seq": entry.seq, text: cmdType === "secret" ? `${who}: an action kept secret` : `${who}: ${cmdType.replace("_", " ")}` }));
    for (const ev of evs) {
      const isDice = ev.type === "dice";
      const txt = isDice && Array.isArray(ev.dice) && !ev.text ? `Dice (${ev.purpose || "roll"}): ${ev.dice.join(", ")}` : eventText(ev);
      ol.appendChild(h(`li${isDice ? ".dice-entry" : ""}${ev.type === "turn" || ev.type === "phase" ? ".turn" : ""}`, { "data-seq": entry.seq, "data-type": ev.type, text: txt }, [logOutcome(ev, (u) => (defs()[u] ? defs()[u].name : u), page.edition.results)]));
    }
  }
  if (!entries.length) ol.appendChild(h("li.empty", { text: "Nothing has happened yet." }));
  S.logRendered = { src, list: entries, count: entries.length, lastSeq: entries.length ? entries[entries.length - 1].seq : null };
  ol.scrollTop = ol.scrollHeight;
}
