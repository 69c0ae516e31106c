// A decision the server asks of a player, in words a newcomer reads and as a choice on the map, for every edition:
// its heading (plain words first, the rule numbers after), and the choices that put units in a hex (a retreat's
// end, an advance, a fortune of war's move, a placement) grouped by that hex, so that the page outlines the hexes
// and asks which path only when several lead to one. Pure functions of the server's prompt, so that node can test
// them (tests/web/decisions.test.mjs); core/prompt.js draws them.

/** The rule group a text ends with ("(rule 7.9)", "(rules 7.2, 12.4)", "(7.12)"), as {text, rule} without it;
 *  rule null when the text ends with no rule. Parentheses inside the group are kept: "(rules 9.3(3), 9.5)". */
function trailingRule(s) {
  if (!s.endsWith(")")) return { text: s, rule: null };
  let depth = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === ")") depth++;
    else if (s[i] === "(" && --depth === 0) {
      const m = s.slice(i + 1, -1).match(/^(?:rules? )?((?:\d+\.\d+|TEC|R\d+|S\d+).*)$/);
      return m ? { text: s.slice(0, i).trim(), rule: m[1] } : { text: s, rule: null };
    }
  }
  return { text: s, rule: null };
}

// a rule number as texts lead with it: "12.4", "7.13(1)", "19.8 E", "9.2 step 6", several joined by ", "
const ONE_RULE = String.raw`\d+\.\d+(?:\([0-9a-z]+\))*(?: [A-Z](?![a-z])| step \d)?`;
const LEADING_RULES = new RegExp(`^(${ONE_RULE}(?:, ${ONE_RULE})*): `);

/**
 * A decision's heading: its text in plain words, the rule numbers after ({text, rule}). A text that leads with its
 * rule ("12.4: move …") has it moved to the end; one that ends with it ("… (rule 7.9)") has it taken off, for the
 * page to show as a chip; `fallback` (the decision's rule) when the text names none.
 */
export function promptHeading(text, fallback = null) {
  let s = String(text || "").trim();
  let rule = null;
  const lead = s.match(LEADING_RULES);
  if (lead) {
    rule = lead[1];
    s = s.slice(lead[0].length);
  }
  const tail = trailingRule(s);
  if (tail.rule) {
    s = tail.text;
    rule = rule ? `${rule}, ${tail.rule}` : tail.rule;
  }
  s = s.charAt(0).toUpperCase() + s.slice(1);
  return { text: s, rule: rule || (fallback ? String(fallback) : null) };
}

/** "rule 7.9", "rules 7.2, 12.4": a heading's rule chip. */
export function ruleChipText(rule) {
  return rule ? `${/,/.test(rule) ? "rules" : "rule"} ${rule}` : "";
}

/**
 * The hex a choice puts its units in or acts on (a retreat path's end, an advance's or placement's hex, a cavalry
 * charge's next target), or null when it chooses something else: a unit, a group of units, an action, a target
 * reached by a path of its own (a charge's move), or nothing at all (stay, let it go).
 */
export function choiceHex(o) {
  if (!o || typeof o !== "object") return null;
  if (o.unit || (Array.isArray(o.units) && o.units.length) || o.target || o.action || o.attackers) return null;
  if (Array.isArray(o.path) && o.path.length) return o.path[o.path.length - 1];
  return typeof o.hex === "string" && o.hex ? o.hex : null;
}

/**
 * A decision answered on the map: {byHex: Map(hex → [choices, in the server's order]), rest: [the other
 * choices]}, or null when it has fewer than two choices of a hex (its buttons say it all then).
 */
export function mapChoice(prompt) {
  const byHex = new Map();
  const rest = [];
  let n = 0;
  for (const o of (prompt && prompt.options) || []) {
    const hx = choiceHex(o);
    if (!hx) {
      rest.push(o);
      continue;
    }
    if (!byHex.has(hx)) byHex.set(hx, []);
    byHex.get(hx).push(o);
    n++;
  }
  return n >= 2 ? { byHex, rest } : null;
}

/** "by 0504 → 0603": the way a choice's path goes ("" without a path of two hexes or more). */
export function routeWords(o) {
  return o && Array.isArray(o.path) && o.path.length > 1 ? `by ${o.path.join(" → ")}` : "";
}

/** A hex of a map choice in words, for its outline's title and the map's hover card: what a click on it does. */
export function hexChoiceWords(hex, choices) {
  const n = (choices || []).length;
  if (n > 1) return `${hex}: ${n} paths lead here. Click the hex, then choose the path.`;
  const o = (choices || [])[0];
  const way = routeWords(o);
  return `${hex}: click to choose it${way ? ` (${way})` : ""}.`;
}

/** The line under a map choice's heading: how to answer it on the map. */
export function mapChoiceHelp(mc) {
  const hexes = mc.byHex.size;
  const many = [...mc.byHex.values()].some((l) => l.length > 1);
  return `Click one of the ${hexes} outlined hex${hexes === 1 ? "" : "es"} on the map.${many ? " A number on a hex counts the paths that lead there: clicking it asks which." : ""}`;
}
