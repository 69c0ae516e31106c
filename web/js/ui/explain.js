// Explaining every number the game page shows: the combat and bombardment previews (each unit's strength
// line by line with its rule), the odds of each result, the key to the result codes, the odds carried by
// prompt options, and the outcome of every roll in words. The server computes all of it; this only reads it.

import { h } from "./dom.js";

/** What each combat result means in plain words (RULINGS R6; Quick Play CRT and 7.5-7.9). */
export const RESULT_KEY = [
  ["–", "No effect: nothing happens to either side."],
  ["Ac", "The attacker's primary unit checks morale. Passes: no effect. Fails: the attacking units are disrupted (one-step units go ineffective); units already disrupted or ineffective retreat 1–3 hexes instead."],
  ["Ar", "The attacker's primary unit checks morale. Passes: exchange, the primary unit on each side loses a step. Fails: the attacking units are disrupted and retreat 1–3 hexes."],
  ["Ax", "The attacker's primary unit checks morale. Passes: it loses a step and the attacking units are disrupted. Fails: the attacking units are disrupted and retreat 1–3 hexes."],
  ["Am", "The attacker's primary unit checks morale. Passes: the attacking units are disrupted and retreat 1–3 hexes. Fails: the primary loses a step and the attacking units rout 3 hexes."],
  ["Dc", "The defender's primary unit checks morale. Passes: no effect. Fails: the defending units are disrupted (one-step units go ineffective); units already so retreat 1–3 hexes and the attackers may advance 1."],
  ["Dr", "The defender's primary unit checks morale. Passes: exchange, the primary unit on each side loses a step. Fails: the defending units are disrupted and retreat 1–3 hexes; the attackers may advance 1."],
  ["Dx", "The defender's primary unit checks morale. Passes: it loses a step and the defending units are disrupted. Fails: the defending units are disrupted and retreat 1–3 hexes; the attackers may advance 1."],
  ["Dm", "The defender's primary unit checks morale. Passes: the defending units are disrupted and retreat 1–3 hexes. Fails: the primary loses a step and the defenders rout 3 hexes; the attackers may advance 2."],
];
const KEY = Object.fromEntries(RESULT_KEY);
KEY["-"] = KEY["–"];

/** A short phrase for a result code, for odds tables. */
const SHORT = {
  "-": "no effect",
  "–": "no effect",
  Ac: "attacker checks morale: may be disrupted",
  Ar: "attacker checks morale: exchange or retreat",
  Ax: "attacker checks morale: loses a step or retreats",
  Am: "attacker checks morale: retreats or routs",
  Dc: "defender checks morale: may be disrupted",
  Dr: "defender checks morale: exchange or retreat",
  Dx: "defender checks morale: loses a step or retreats",
  Dm: "defender checks morale: retreats or routs",
};
const BOMBARD_SHORT = {
  "-": "no effect",
  "–": "no effect",
  Dc: "target checks morale: may be disrupted",
  Dr: "target checks morale: may be disrupted, or retreat if already",
  Dx: "target checks morale: disrupted, or loses a step",
  Dm: "target loses a step; routs if it fails morale",
};
const BOMBARD_KEY = {
  Dc: "The target unit checks morale. Passes: no effect. Fails: it is disrupted (one-step units go ineffective); no further effect if already (8.4).",
  Dr: "The target unit checks morale. Passes: no effect. Fails: it is disrupted; if already disrupted or ineffective, it retreats (8.4).",
  Dx: "The target unit checks morale. Passes: it is disrupted; if already, it retreats 1–3 hexes. Fails: a one-step unit is eliminated, a two-step unit reduced (8.4).",
  Dm: "Passes: a one-step unit is eliminated, a two-step unit reduced. Fails: the same, and a two-step unit also routs (8.4).",
};

export function resultWords(code, { bombard = false } = {}) {
  const c = code === "–" ? "-" : code;
  if (bombard) return c && c[0] === "D" ? BOMBARD_KEY[c] || KEY[c] : "No effect: A and – results do nothing to a bombarded unit (8.4).";
  return KEY[c] || String(code);
}

export function resultShort(code, { bombard = false } = {}) {
  const c = code === "–" ? "-" : code;
  if (bombard) return c && c[0] === "D" ? BOMBARD_SHORT[c] : "no effect";
  return SHORT[c] || "";
}

function displayCode(code) {
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

function ruleChip(rule) {
  return rule ? h("span.rule.rule-chip", { text: /^TEC/.test(rule) ? rule : `rule ${rule}` }) : null;
}

function signed(n) {
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

/** The chance of each result as bars, most likely first, each with its meaning in a few words. */
export function oddsTable(odds, { bombard = false, results = null } = {}) {
  if (!odds) return null;
  const rows = [];
  for (const [res, p] of Object.entries(odds).sort((a, b) => b[1] - a[1])) {
    const dies = Array.isArray(results) ? results.map((r, i) => (r === res ? i + 1 : null)).filter(Boolean) : [];
    rows.push(
      h("tr", { "data-result": res, title: resultWords(res, { bombard }) }, [
        h("td.odds-code", {}, [h("b", { text: displayCode(res) })]),
        h("td.odds-words", { text: `${resultShort(res, { bombard })}${dies.length ? ` (die ${dies.join(", ")})` : ""}` }),
        h("td.odds-bar", {}, [h("div.bar", { style: `width:${Math.round(p * 100)}%` })]),
        h("td.odds-pct", { text: `${Math.round(p * 100)}%` }),
      ]),
    );
  }
  return h("table.odds", { "aria-label": "Chance of each result" }, [h("tbody", {}, rows)]);
}

function kv(pairs) {
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

/** The full explanation of an attack or charge preview (combat.preview on the server). */
export function combatPreview(pv, nameOf, { kind = "attack" } = {}) {
  if (!pv) return null;
  const box = h("div.explain#explain-preview", { "data-kind": kind });
  if (pv.attack_parts || pv.defense_parts) {
    box.appendChild(
      h("div.bd-grid", {}, [
        breakdownList(pv.attack_parts, nameOf, { title: kind === "charge" ? "Charge" : "Attack", total: pv.attack, cls: "bd-attack" }),
        breakdownList(pv.defense_parts, nameOf, { title: "Defence", total: pv.defense, cls: "bd-defence" }),
      ]),
    );
  }
  if (pv.defenders_assumed) box.appendChild(h("div.whose-sub.bd-assumed", {}, [`Assuming the defender's strongest choice: ${pv.defenders_assumed.label}.`, " ", ruleChip("7.2(1)")]));
  box.appendChild(
    kv([
      ["Differential", pv.differential !== undefined ? `${signed(pv.differential)} (attack ${pv.attack} − defence ${pv.defense})` : null, "7.4"],
      ["CRT column", pv.column_label ?? pv.column, "7.4"],
      kind === "charge" ? ["Charge", "any D result counts as Dm, any other as Am", "9.2"] : [],
      pv.charger_morale !== undefined ? ["Charger's morale", `${pv.charger_morale}: it checks morale before charging`, "9.2"] : [],
    ]),
  );
  box.appendChild(oddsTable(pv.odds, { results: pv.results }));
  box.appendChild(keyLink());
  return box;
}

/** The bombardment preview: each target unit resolved separately (8.4), with its odds. */
export function bombardPreview(item, nameOf) {
  const box = h("div.explain#explain-preview", { "data-kind": "bombard" });
  const guns = item.command && item.command.artillery ? item.command.artillery : item.artillery || [];
  box.appendChild(kv([["Artillery", guns.map(nameOf).join(", "), "8.4"], ["Range", rangeText(item.range), "8.3"]]));
  for (const t of item.targets || []) {
    const sec = h("div.bd-target", { "data-unit": t.unit }, [h("div.bd-title", {}, [h("b", { text: nameOf(t.unit) }), h("span.bd-total", { text: signed(t.differential) })])]);
    const lines = h("ul.bd-lines");
    for (const n of t.notes || []) {
      const { text, rule } = splitRule(n);
      lines.appendChild(h("li.bd-line", { "data-rule": rule || (/^artillery/.test(text) ? "8.4" : "") }, [h("span", { text }), ruleChip(rule || (/^artillery/.test(text) ? "8.4" : null))]));
    }
    sec.appendChild(lines);
    sec.appendChild(kv([["CRT column", t.column_label, "8.4"], ["Its morale", t.morale]]));
    sec.appendChild(oddsTable(t.odds, { bombard: true, results: t.results }));
    box.appendChild(sec);
  }
  box.appendChild(h("div.whose-sub", {}, ["Each unit in the hex is resolved separately with its own dice; A and – results have no effect, and the guns are never hurt.", " ", ruleChip("8.4")]));
  box.appendChild(keyLink());
  return box;
}

function keyLink() {
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

/** The always-available key to the result codes (a collapsible panel section). */
export function resultKey() {
  const dl = h("dl.result-key-list");
  for (const [code, words] of RESULT_KEY) {
    dl.appendChild(h("dt", { "data-code": code, text: code }));
    dl.appendChild(h("dd", { text: words }));
  }
  return h("details.result-key#result-key", {}, [
    h("summary", { text: "Key: combat results (A, D, c, r, x, m, –)" }),
    h("p.whose-sub", { text: "A = the attacker loses, D = the defender loses. The losing side's primary unit checks morale with the morale die: it passes on a roll at or under its morale rating; a 1 always passes and a 6 always fails (7.5). One-step units (battalions, artillery, cavalry) go ineffective where others are disrupted (11.0). Defenders never advance (7.9)." }),
    dl,
    h("p.whose-sub", { text: "Bombardment (8.4): only D results count, against each unit in the hex; A and – results do nothing. A cavalry charge (9.2) turns any D result into Dm and any other into Am." }),
  ]);
}

/** A prompt option's odds (defenders, counterattacks: the server's `preview`) or its facts in words
 *  (retreat paths), as a line under the option's label; null when the option carries neither. */
export function optionOdds(o) {
  const pv = o && o.preview;
  if (pv && pv.odds) {
    const parts = Object.entries(pv.odds)
      .sort((a, b) => b[1] - a[1])
      .map(([r, p]) => `${displayCode(r)} ${Math.round(p * 100)}%`)
      .join(" · ");
    return h("span.option-odds", {
      "data-odds": "1",
      title: Object.keys(pv.odds).map((r) => `${displayCode(r)}: ${resultWords(r)}`).join("\n"),
      text: `attack ${pv.attack} vs defence ${pv.defense} (${signed(pv.differential)}, column ${pv.column_label}): ${parts}`,
    });
  }
  const bits = [];
  if (o && o.safe === false) bits.push("no safe line: the group loses a step and routs (7.7)");
  if (o && o.safe === true && Array.isArray(o.path) && o.path.length > 1) bits.push(`a safe retreat of ${o.path.length - 1} hex${o.path.length === 2 ? "" : "es"}`);
  return bits.length ? h("span.option-odds.option-facts", { text: bits.join("; ") }) : null;
}

/** The preview box's body for an attack, a bombardment or a charge. */
export function explainPreview(kind, item, nameOf) {
  if (kind === "bombard") return bombardPreview({ ...(item.preview || {}), ...item, targets: item.targets || (item.preview || {}).targets }, nameOf);
  return combatPreview(item.preview || item, nameOf, { kind });
}

const MORALE_OK = /passes/;

/** The outcome of one event in plain words, for the result panel and the log (null: the text says it). */
export function eventOutcome(ev, nameOf) {
  switch (ev.type) {
    case "combat_result":
      return `${displayCode(ev.result)}: ${resultWords(ev.result)}`;
    case "bombard_result":
      return `${displayCode(ev.result)}: ${resultWords(ev.result, { bombard: true })}`;
    case "morale":
      if (ev.passed === undefined) return null;
      return `${nameOf(ev.unit)} ${ev.passed ? "passes" : "fails"} its morale check (rolled ${ev.die}, needed ${ev.rating} or less; 1 always passes, 6 always fails).`;
    case "leader_killed":
      return `${nameOf(ev.unit)} is killed: the leader check rolled 2 or 12.`;
    case "leader_safe":
      return `${nameOf(ev.unit)} survives the leader check (rolled ${ev.total}; only 2 or 12 kills).`;
    default:
      return null;
  }
}

/** The dice of a roll in words: "combat die 4, morale die 2". */
export function diceWords(d) {
  return (d.dice || []).map((n, i) => `${(d.labels && d.labels[i]) || "die"} ${n}`).join(", ");
}

/** A line of plain words under a log entry (null when its own text already says it all). */
export function logOutcome(ev, nameOf) {
  if (ev.type !== "combat_result" && ev.type !== "bombard_result") return null;
  const t = eventOutcome(ev, nameOf);
  return t ? h("div.log-outcome", { text: t }) : null;
}

const DECLARED = new Set(["combat_declared", "bombard_declared", "attack", "bombard"]); // "attack", "bombard": the Standard rules' 7.1, 8.4

/** The events of the latest combat, from its declaration across every decision it asked for (defenders,
 *  retreats, advances) to its leader checks; else the latest entry with dice (recovery, squares). */
export function lastCombatEvents(entries) {
  const flat = [];
  (entries || []).forEach((en, i) => (en.events || []).forEach((e) => flat.push({ e, i })));
  let d = -1;
  for (let k = flat.length - 1; k >= 0 && d < 0; k--) if (flat[k].e.type === "dice") d = k;
  if (d < 0) return null;
  // back from the latest roll to its combat's declaration, unless a new phase began in between
  let s = -1;
  for (let k = d; k >= 0; k--) {
    if (DECLARED.has(flat[k].e.type)) {
      s = k;
      break;
    }
    if (flat[k].e.type === "phase") break;
  }
  if (s < 0) return entries[flat[d].i].events;
  let end = s + 1;
  while (end < flat.length && flat[end].e.type !== "phase" && !DECLARED.has(flat[end].e.type)) end++;
  return flat.slice(s, end).map((x) => x.e);
}

/** The combat result panel: the strengths line by line, the dice, the CRT cell and every outcome in words. */
export function combatPanel(sec, events, nameOf, rules = "7.2–7.6") {
  sec.appendChild(h("h3", {}, ["Last result", h("span.rule", { text: rules })]));
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
          h("div.bd-grid", {}, [
            breakdownList(res.attack_parts, nameOf, { title: res.kind === "charge" ? "Charge" : res.kind === "counterattack" ? "Counterattack" : "Attack", total: res.attack, cls: "bd-attack" }),
            breakdownList(res.defense_parts, nameOf, { title: "Defence", total: res.defense, cls: "bd-defence" }),
          ]),
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
    const words = eventOutcome(ev, nameOf);
    const { text, rule } = splitRule(ev.text || ev.type);
    const m = String(ev.text || "").match(/^([0-9]+\.[0-9]+(?:\([0-9a-z]+\))*(?: step \d)?): (.*)$/);
    ul.appendChild(
      h(`li.step${ev.passed === true ? ".passed" : ev.passed === false ? ".failed" : ""}`, { "data-type": ev.type }, [
        h("span", { text: m ? m[2] : text }),
        " ",
        ruleChip(m ? m[1] : rule || ev.rule || null),
        words ? h("div.step-words", { text: words }) : null,
      ]),
    );
  }
  sec.appendChild(ul);
  return sec;
}
