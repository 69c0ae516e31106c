// Why a player of the Standard rules would take a choice: the defender's tactics (7.13, 9.4) with what they do to
// the odds the server computed for each, and the movement phase's actions (a flip, a recovery, a replacement, a
// square, a line, open order) with what they give and what they cost, from the counter's own factors. Pure
// functions of the option, the unit's definition and the view, so that node can test them
// (tests/web/standard.test.mjs); the edition's `optionNote` and the action buttons show them.

/** Which side a result hurts: "D…" the defender, "A…" the attacker, an exchange or both retreating both. */
function hurts(code) {
  const c = String(code || "");
  if (/^Ex\b|^both/.test(c)) return "both";
  if (/^D/.test(c)) return "defender";
  if (/^A/.test(c)) return "attacker";
  return null;
}

/** "you are hit on 3 of the 6 dice, the attacker on 1": a tactic's odds counted from the six results. */
export function hitWords(results) {
  if (!Array.isArray(results) || !results.length) return "";
  let mine = 0;
  let theirs = 0;
  for (const r of results) {
    const who = hurts(r);
    if (who === "defender" || who === "both") mine++;
    if (who === "attacker" || who === "both") theirs++;
  }
  return `Your units are hit on ${mine} of the ${results.length} dice, the attacker on ${theirs}.`;
}

/** What each defending tactic does, in a sentence (7.13(4), 7.13(5), 9.4); `cavalry`: against a cavalry charge. */
export function tacticEffect(tactic, { attackTactic = "none", cavalry = false } = {}) {
  switch (tactic) {
    case "none":
      return "Stand and fight: the result is read as rolled" + (attackTactic && attackTactic !== "none" ? ", through the attacker's tactic." : ".");
    case "disengage":
      return `Give ground: an A, Ex or Dc result becomes your retreat (Dr), which your units cannot turn into a disruption; they are not flipped ineffective${attackTactic === "charge" ? ", and the charging attacker loses nothing" : ""} (7.13(4)).`;
    case "last_stand":
      return "Hold at any cost: +3 to your defence, but unless the attacker retreats your units lose a step besides the result, and artillery forced to retreat is captured (7.13(5)).";
    case "countercharge":
      return cavalry
        ? "Meet the charge with a charge: both sides use their charge factors; an A result makes the attackers check morale (failing, they rout), a D result your units; otherwise both sides retreat, yours first (9.4)."
        : "Your cavalry charges the attacking primary unit's hex instead: the combat becomes your cavalry's charge against the units there (9.4, 9.3).";
    default:
      return "";
  }
}

/** The note under a choice of the defender's tactic (decision `tactic`): what it does and how it moves the odds;
 *  null for any other choice. */
export function tacticNote(o, prompt) {
  if (!prompt || prompt.kind !== "tactic" || !o || !o.tactic) return null;
  const cavalry = o.tactic === "countercharge" && !!o.preview; // against infantry it has no odds: another combat (9.4)
  const effect = tacticEffect(o.tactic, { attackTactic: o.attack_tactic, cavalry });
  const odds = o.preview ? hitWords(o.preview.results) : "";
  return [effect, odds].filter(Boolean).join(" ") || null;
}

const name = (defs, u) => (defs[u] ? defs[u].name : u);

/** A factor block's movement and strength in words: "MA 3, attack 4" (a gun), "MA 8, CF 2" (a combat unit). */
function block(f) {
  if (!f) return null;
  const strength = f.cf !== undefined ? `CF ${f.cf}` : f.attack !== undefined ? `attack ${f.attack}` : null;
  return { ma: f.ma, strength };
}

/** Why flip a unit to its ineffective side (2.6): it may move faster so, at the cost of its strength until it
 *  recovers (11.3); an HQ or trains moves only when flipped inactive (12.1, 12.2). */
function flipWhy(def) {
  if (def.kind === "hq") return `An HQ moves only when flipped inactive at the start of the phase (MA ${def.ma ?? "?"}). While it is inactive every unit of its army rolls for its MA, and no unit re-enters at it or traces a safe retreat to it (12.1).`;
  if (def.kind === "trains") return `The trains moves only when flipped inactive at the start of the phase (MA ${def.ma ?? "?"}). While it is inactive no unit re-enters at it or traces a safe retreat to it (12.2).`;
  const on = block(def.full);
  const off = block(def.ineffective);
  if (!on || !off) return "Its ineffective side may move faster; it fights weaker until it recovers (2.6, 11.3).";
  const weaker = on.strength && off.strength && on.strength !== off.strength ? ` and fights weaker (${on.strength} → ${off.strength.replace(/^\D+/, "")})` : "";
  if (typeof on.ma === "number" && typeof off.ma === "number" && off.ma > on.ma) return `Its ineffective side moves faster (MA ${on.ma} → ${off.ma})${weaker} until it recovers (2.6, 11.3).`;
  return `Rarely worth it: its ineffective side moves no faster (MA ${off.ma ?? "?"})${weaker} until it recovers (2.6, 11.3).`;
}

/**
 * Why a player would take a movement phase action (flip, recover, replace, muster, re-enter, open order, line, a
 * line's long-range fire, a square): what it gives and what it costs, with its rule.
 */
export function actionWhy(cmd, defs = {}, view = null) {
  const def = defs[cmd.unit] || {};
  const u = (view && view.units && view.units[cmd.unit]) || {};
  switch (cmd.type) {
    case "flip":
      return flipWhy(def);
    case "recover":
      return `Removes its ${u.disrupted ? "disruption" : "ineffectiveness"}: a morale check at the end of its move, passed at once if it could march all turn; not in an enemy ZOC (11.1, 11.3)${cmd.assist ? `. ${name(defs, cmd.assist)} adds his morale rating to the check (10.3)` : ""}.`;
    case "replace":
      return u.status === "eliminated" ? "Spends a replacement step: the unit goes to the next box of the turn record track and re-enters from there (11.2, 13.2)." : "Spends a replacement step to bring the brigade back to full strength (11.2).";
    case "muster":
      return "A morale check for the eliminated unit: passing, it returns as though replaced; failing, it is destroyed for good and may count for victory (11.2).";
    case "reenter":
      return "Brings the unit back from the turn record track onto the map (13.2).";
    case "open_order":
      return cmd.on === false ? "Back in close order: its full CF and every tactic again, but enemy artillery is no longer halved against it; it ends its move (19.10)." : "Its CF becomes parenthesised and it may only skirmish or disengage, but enemy artillery is halved when bombarding it (19.10).";
    case "line":
      if (cmd.on === false) return "Back to the usual formation: no flanks or rear to guard, every tactic again; it ends its move (19.7 A).";
      if (u.facing) return `Turns its front to face ${cmd.facing}, to meet a threat from there: this is its whole move (19.7 C).`;
      return `Facing ${cmd.facing}: +2 CF against its two front hexes and long-range fire up to two hexes, but an attack from a flank triples the attacker and one from the rear doubles it, and it may only skirmish (19.7 B, D).`;
    case "line_fire":
      return `Fires at ${cmd.target} with the line marker's CF, as a bombardment, without closing in (19.7 D).`;
    case "square":
      return cmd.form === false ? "Leaves square: it moves and attacks normally again, but loses its protection against cavalry (9.5)." : "In square: +2 CF and MR and no morale check when charged by cavalry; but it moves only one hex, attacks at −2, and other attackers add 2 against it (9.5).";
    default:
      return "";
  }
}

/** The movement phase box's headings: one per kind of action, what it is for. */
export const ACTION_HEADS = {
  "flip:army": "Flip an HQ or trains to inactive — it moves only so (12.1, 12.2)",
  flip: "Flip to the ineffective side — some units move faster so, but fight weaker (2.6)",
  recover: "Recover — remove a disruption or ineffectiveness (11.1, 11.3)",
  replace: "Replace — spend a replacement step (11.2)",
  muster: "Muster — a morale check to bring back an eliminated unit (11.2)",
  open_order: "Open order — weaker in attack, halves enemy artillery fire (19.10)",
  reenter: "Re-enter from the turn record track (13.2)",
};

/** The heading an action is listed under (ACTION_HEADS). */
export function actionHead(cmd, defs = {}) {
  const kind = defs[cmd.unit] ? defs[cmd.unit].kind : "";
  return cmd.type === "flip" && (kind === "hq" || kind === "trains") ? "flip:army" : cmd.type;
}
