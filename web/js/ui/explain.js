// Explaining every number the game page shows, for every edition: the parts of a preview (each unit's strength
// line by line with the rule its note cites, the odds of each result), a preview as the server breaks it down,
// the box of the key to the result codes, the odds carried by prompt options, the result panel and the outcome of
// every roll in words. The server computes all of it; this only reads it. What a result means, and which of its
// events open a combat, the edition says (editions/index.js: results, resultKey, previewBody).

import { h } from "./dom.js";

// Every edition words its own results (editions/index.js: results): `words` below is that object, {words(code,
// {bombard}), short(code, {bombard}), outcome(ev, nameOf), logged, declared, optionFacts(option)}; without it a
// result code is shown as it is.

export function displayCode(code) {
  return code === "-" ? "–" : code;
}

/** "printed CF 4 (7.4)" -> {text: "printed CF 4", rule: "7.4"}; "+2 (TEC)" -> rule "TEC". */
export function splitRule(note) {
  const s = String(note || "").trim();
  // the rule is the last parenthesised group, which may itself hold parentheses: "(11.1(1))", "(7.4, TEC)"
  if (!s.endsWith(")")) return { text: s, rule: null };
  let depth = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === ")") depth++;
    else if (s[i] === "(") {
      depth--;
      if (depth === 0) {
        const rule = s.slice(i + 1, -1);
        if (/^(TEC|\d+\.\d+)/.test(rule)) return { text: s.slice(0, i).trim(), rule };
        return { text: s, rule: null };
      }
    }
  }
  return { text: s, rule: null };
}

export function ruleChip(rule) {
  return rule ? h("span.rule.rule-chip", { text: /^TEC/.test(rule) ? rule : `rule ${rule}` }) : null;
}

export function signed(n) {
  return `${n > 0 ? "+" : ""}${n}`;
}

/**
 * One side's strength, unit by unit and line by line.
 * parts: [{unit|terrain|hexside, value, notes: [...]}]
 */
export function breakdownList(parts, nameOf, { title, total, cls }) {
  const ul = h(`ul.breakdown${cls ? "." + cls : ""}`, { "aria-label": `${title}: how the total ${total} is reached` });
  for (const p of parts || []) {
    const who = p.unit ? nameOf(p.unit) : p.terrain ? "Terrain" : p.hexside ? "Hexside" : "";
    const li = h("li.bd-part", {}, [h("div.bd-head", {}, [h("b", { text: who }), h("span.bd-value", { text: p.unit ? `= ${p.value}` : signed(p.value) })])]);
    const lines = h("ul.bd-lines");
    for (const n of p.notes || []) {
      const { text, rule } = splitRule(n);
      lines.appendChild(h(`li.bd-line${/^halved/.test(text) ? ".halving" : ""}`, { "data-rule": rule || "" }, [h("span", { text }), ruleChip(rule)]));
    }
    li.appendChild(lines);
    ul.appendChild(li);
  }
  return h("div.bd-side", {}, [h("div.bd-title", {}, [h("b", { text: title }), h("span.bd-total", { text: String(total) })]), ul]);
}

/** The chance of each result as bars, most likely first, each with its meaning in a few words (`words`: the
 *  edition's results, see above). */
export function oddsTable(odds, { bombard = false, results = null, words = null } = {}) {
  if (!odds) return null;
  const rows = [];
  for (const [res, p] of Object.entries(odds).sort((a, b) => b[1] - a[1])) {
    const dies = Array.isArray(results) ? results.map((r, i) => (r === res ? i + 1 : null)).filter(Boolean) : [];
    rows.push(
      h("tr", { "data-result": res, title: words && words.words ? words.words(res, { bombard }) : null }, [
        h("td.odds-code", {}, [h("b", { text: displayCode(res) })]),
        h("td.odds-words", { text: `${(words && words.short && words.short(res, { bombard })) || ""}${dies.length ? ` (die ${dies.join(", ")})` : ""}` }),
        h("td.odds-bar", {}, [h("div.bar", { style: `width:${Math.round(p * 100)}%` })]),
        h("td.odds-pct", { text: `${Math.round(p * 100)}%` }),
      ]),
    );
  }
  return h("table.odds", { "aria-label": "Chance of each result" }, [h("tbody", {}, rows)]);
}

export function kv(pairs) {
  const dl = h("dl.kv");
  for (const [k, v, rule] of pairs) {
    if (v === undefined || v === null || v === "") continue;
    dl.appendChild(h("dt", { text: k }));
    dl.appendChild(h("dd", {}, [String(v), rule ? " " : null, ruleChip(rule)]));
  }
  return dl;
}

/** "range 3" for one gun, "range 2–3" for several; the server sends {gun: hexes}. */
export function rangeText(range) {
  if (range === null || range === undefined) return "";
  if (typeof range === "number") return `range ${range}`;
  if (typeof range === "object") {
    const vals = Object.values(range).filter((x) => typeof x === "number");
    if (!vals.length) return "";
    const lo = Math.min(...vals);
    const hi = Math.max(...vals);
    return lo === hi ? `range ${lo}` : `range ${lo}–${hi}`;
  }
  return `range ${range}`;
}

/** Each side's strength unit by unit, side by side, as the server broke it down (`attack_parts`, `defense_parts`). */
export function strengthsGrid(pv, nameOf, attackTitle) {
  return h("div.bd-grid", {}, [
    breakdownList(pv.attack_parts, nameOf, { title: attackTitle, total: pv.attack, cls: "bd-attack" }),
    breakdownList(pv.defense_parts, nameOf, { title: "Defence", total: pv.defense, cls: "bd-defence" }),
  ]);
}

/** An attack, charge or bombardment preview as the server breaks it down, for an edition with no explanation of
 *  its own (editions/index.js: previewBody, builder.preview): each side's strength unit by unit with the rules its
 *  notes cite, the differential and CRT column, and the odds of each result. */
export function explainPreview(kind, item, nameOf, words = null) {
  const pv = kind === "bombard" ? { ...(item.preview || {}), ...item, targets: item.targets || (item.preview || {}).targets } : item.preview || item;
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": kind });
  if (pv.attack_parts || pv.defense_parts) box.appendChild(strengthsGrid(pv, nameOf, kind === "charge" ? "Charge" : "Attack"));
  box.appendChild(kv([
    ["Differential", pv.differential !== undefined ? `${signed(pv.differential)}${pv.attack !== undefined ? ` (attack ${pv.attack} − defence ${pv.defense})` : ""}` : null],
    ["CRT column", pv.column_label ?? pv.column],
    ["Range", pv.range !== undefined ? rangeText(pv.range) : null],
  ]));
  for (const t of pv.targets || []) {
    const sec = h("div.bd-target", { "data-unit": t.unit }, [h("div.bd-title", {}, [h("b", { text: nameOf(t.unit) }), h("span.bd-total", { text: t.differential !== undefined ? signed(t.differential) : "" })])]);
    const lines = h("ul.bd-lines");
    for (const n of t.notes || []) {
      const { text, rule } = splitRule(n);
      lines.appendChild(h("li.bd-line", { "data-rule": rule || "" }, [h("span", { text }), ruleChip(rule)]));
    }
    sec.appendChild(lines);
    sec.appendChild(kv([["CRT column", t.column_label]]));
    const odds = oddsTable(t.odds, { bombard: true, results: t.results, words });
    if (odds) sec.appendChild(odds);
    box.appendChild(sec);
  }
  const odds = oddsTable(pv.odds, { bombard: kind === "bombard", results: pv.results, words });
  if (odds) box.appendChild(odds);
  box.appendChild(keyLink());
  return box;
}

/** "What do the result codes mean?": opens the key under the panel (editions/index.js: resultKey). */
export function keyLink() {
  return h("button.linkish.key-link", {
    type: "button",
    text: "What do the result codes mean?",
    onclick: () => {
      const k = document.getElementById("result-key");
      if (k) {
        k.open = true;
        k.scrollIntoView({ block: "nearest" });
      }
    },
  });
}

/** The always-available key to the result codes (a collapsible panel section), from the edition's words
 *  (editions/index.js: resultKey): its summary line, a note before and after, and one row per code. */
export function resultKeyBox({ summary, intro = null, rows = [], outro = null }) {
  const dl = h("dl.result-key-list");
  for (const [code, words] of rows) {
    dl.appendChild(h("dt", { "data-code": code, text: code }));
    dl.appendChild(h("dd", { text: words }));
  }
  return h("details.result-key#result-key", {}, [
    h("summary", { text: summary || "Key: combat results" }),
    intro ? h("p.whose-sub", { text: intro }) : null,
    dl,
    outro ? h("p.whose-sub", { text: outro }) : null,
  ]);
}

/** A prompt option's odds (defenders, counterattacks: the server's `preview`) or its facts in the edition's words
 *  (retreat paths: `words.optionFacts`), as a line under the option's label; null when the option carries neither. */
export function optionOdds(o, words = null) {
  const pv = o && o.preview;
  if (pv && pv.odds) {
    const parts = Object.entries(pv.odds)
      .sort((a, b) => b[1] - a[1])
      .map(([r, p]) => `${displayCode(r)} ${Math.round(p * 100)}%`)
      .join(" · ");
    return h("span.option-odds", {
      "data-odds": "1",
      title: Object.keys(pv.odds).map((r) => `${displayCode(r)}${words && words.words ? `: ${words.words(r)}` : ""}`).join("\n"),
      text: `attack ${pv.attack} vs defence ${pv.defense} (${signed(pv.differential)}, column ${pv.column_label}): ${parts}${pv.note ? ` — ${pv.note}` : ""}`,
    });
  }
  const bits = o && words && words.optionFacts ? words.optionFacts(o) : [];
  return bits.length ? h("span.option-odds.option-facts", { text: bits.join("; ") }) : null;
}

/** The outcome of one event in the edition's plain words, for the result panel and the log (null: the text says
 *  it). */
export function eventOutcome(ev, nameOf, words = null) {
  return words && words.outcome ? words.outcome(ev, nameOf) : null;
}

/** The dice of a roll in words: "combat die 4, morale die 2". */
export function diceWords(d) {
  return (d.dice || []).map((n, i) => `${(d.labels && d.labels[i]) || "die"} ${n}`).join(", ");
}

/** A line of plain words under a log entry: the outcome of the events the edition writes out there (its
 *  results' `logged`); null when its own text already says it all. */
export function logOutcome(ev, nameOf, words = null) {
  if (!words || !(words.logged || []).includes(ev.type)) return null;
  const t = eventOutcome(ev, nameOf, words);
  return t ? h("div.log-outcome", { text: t }) : null;
}

/** The events that open a combat when the edition names none (its results' `declared`). */
const DECLARED = ["combat_declared", "bombard_declared"];

/** The events of the latest combat, from its declaration (`declared`: the edition's event types that open one)
 *  across every decision it asked for (defenders, retreats, advances) to its leader checks; else the latest entry
 *  with dice (recovery, squares). */
export function lastCombatEvents(entries, declared = DECLARED) {
  const opens = new Set(declared);
  const flat = [];
  (entries || []).forEach((en, i) => (en.events || []).forEach((e) => flat.push({ e, i })));
  let d = -1;
  for (let k = flat.length - 1; k >= 0 && d < 0; k--) if (flat[k].e.type === "dice") d = k;
  if (d < 0) return null;
  // back from the latest roll to its combat's declaration, unless a new phase began in between
  let s = -1;
  for (let k = d; k >= 0; k--) {
    if (opens.has(flat[k].e.type)) {
      s = k;
      break;
    }
    if (flat[k].e.type === "phase") break;
  }
  if (s < 0) return entries[flat[d].i].events;
  let end = s + 1;
  while (end < flat.length && flat[end].e.type !== "phase" && !opens.has(flat[end].e.type)) end++;
  return flat.slice(s, end).map((x) => x.e);
}

/** The combat result panel: the strengths line by line, the dice, the CRT cell and every outcome in the edition's
 *  words (`rules`: the edition's rule chip for it, `words`: its results). */
export function combatPanel(sec, events, nameOf, rules = null, words = null) {
  sec.appendChild(h("h3", {}, ["Last result", rules ? h("span.rule", { text: rules }) : null]));
  const res = events.find((e) => e.type === "combat_result");
  if (res) {
    sec.appendChild(
      h("div.result-head#result-head", { "data-result": res.result }, [
        h("span.result-code", { text: displayCode(res.result) }),
        h("span", { text: ` attack ${res.attack} vs defence ${res.defense}: ${signed(res.differential)}, column ${res.column_label}` }),
      ]),
    );
    if (res.attack_parts || res.defense_parts) {
      sec.appendChild(
        h("details.result-breakdown", {}, [
          h("summary", { text: "How the strengths were reached" }),
          strengthsGrid(res, nameOf, res.kind === "charge" ? "Charge" : res.kind === "counterattack" ? "Counterattack" : "Attack"),
        ]),
      );
    }
  }
  const ul = h("ol.result-steps#result-steps");
  for (const ev of events) {
    if (ev.type === "dice") {
      const row = h("div.dice", { "aria-label": `${ev.purpose || "dice"}: ${diceWords(ev)}` });
      (ev.dice || []).forEach((n, i) => {
        const lab = (ev.labels && ev.labels[i]) || "";
        row.appendChild(h("div", {}, [h(`div.die${/morale/i.test(lab) ? ".morale" : ""}`, { text: String(n) }), h("div.die-label", { text: lab })]));
      });
      row.appendChild(h("span.muted.dice-purpose", { text: ev.purpose || "" }));
      ul.appendChild(h("li.step-dice", { "data-type": "dice" }, [row]));
      continue;
    }
    const said = eventOutcome(ev, nameOf, words);
    const { text, rule } = splitRule(ev.text || ev.type);
    const m = String(ev.text || "").match(/^(R?[0-9]+\.[0-9]+(?:\([0-9a-z]+\))*(?: step \d)?): (.*)$/); // "7.9: …", "R17.85: …"
    ul.appendChild(
      h(`li.step${ev.passed === true ? ".passed" : ev.passed === false ? ".failed" : ""}`, { "data-type": ev.type }, [
        h("span", { text: m ? m[2] : text }),
        " ",
        ruleChip(m ? m[1] : rule || ev.rule || null),
        said ? h("div.step-words", { text: said }) : null,
      ]),
    );
  }
  sec.appendChild(ul);
  return sec;
}
