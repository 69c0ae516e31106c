// Horse and Musket's commands, cards and decisions in words (R16.19): a button's label for every command the rules
// core offers the page (server/rules/horse_and_musket/options.py: each unit's `commands`, the step's `actions`).

export const CARD_NAMES = {
  aide_de_camp: "Aide-de-camp",
  cold_steel: "Cold Steel",
  forced_march: "Forced March",
  steady_lads: "Steady Lads",
  volley: "Volley",
};

// R16.10: what each card does, for the hand's tooltips
export const CARD_RULES = {
  aide_de_camp: "the command step: a general re-rolls his command roll (R16.10)",
  cold_steel: "with a charge: +2d6 for the charger in its hand-to-hand (R16.10)",
  forced_march: "with a move or charge the command roll forbids (R16.10)",
  steady_lads: "right after a failed charge test: the unit tests again (R16.10)",
  volley: "with a fire that has no First Fire: the misses are re-rolled (R16.10)",
};

// R16.3's unit types in plain words (a scenario's `type`), for the hover card and the counter's title
export const TYPE_WORDS = {
  co: "close order infantry",
  li: "light infantry",
  hc: "heavy cavalry",
  lc: "light cavalry",
  tc: "tribal cavalry",
  artillery: "artillery",
  wagons: "wagons",
  general: "general",
};

/** A unit's type in words (R16.3): "heavy cavalry, dragoons", "horse artillery", "gifted general, C-in-C". */
export function typeText(def) {
  if (!def || !def.type) return undefined;
  const t = TYPE_WORDS[def.type] || def.type;
  if (def.type === "hc" && def.dragoon) return "dragoons (heavy cavalry)";
  if (def.type === "artillery") return def.horse ? "horse artillery" : "foot artillery";
  if (def.type === "general") return `${def.quality ? `${def.quality} ` : ""}${def.role === "c-in-c" ? "commander-in-chief" : "brigade commander"}`;
  return t;
}

export const STEP_WORDS = {
  initiative: "Roll for initiative (R16.7)",
  rally: "Rally (2.1)",
  command: "Command rolls (3)",
  charges: "Charges, step one (4.1)",
  moves: "Moves, step two (4.2)",
  firing: "Firing (5)",
  melee: "Hand-to-hand (6)",
};

export const STEP_RULES = { initiative: "R16.7", rally: "2.1", command: "3", charges: "4.1", moves: "4.2, R16.11", firing: "5", melee: "6" };

const card = (c) => (c.card ? ` + ${CARD_NAMES[c.card] || c.card}` : "");

/** One leg of a move (H4): a pivot at its start, steps forward or back, a pivot at its end. */
function legText(leg) {
  const parts = [];
  if (leg.pivot) parts.push(leg.steps ? `pivot to ${leg.pivot}` : `turn to ${leg.pivot}`);
  if (leg.steps) parts.push(`${leg.steps} hex${leg.steps > 1 ? "es" : ""} ${leg.back ? "back" : "forward"}`);
  if (leg.end_pivot) parts.push(`pivot to ${leg.end_pivot}`);
  return parts.join(", ");
}

/** A move (4.2, R16.11, H4): its legs, its formation change or deployment, where it ends (the referee's preview). */
export function moveText(c) {
  const parts = (c.legs || []).map(legText);
  if (c.formation) parts[c.formation_at === "start" ? "unshift" : "push"](`${c.formation_at === "both" ? "limber and deploy" : "form"} ${c.formation}`);
  if (c.deploy_facing) parts.push(`deploy facing ${c.deploy_facing} (4.2.9)`);
  return parts.join("; then ") || "stand";
}

/** The label of a command's button: what it does, with its card. `nameOf`: a unit id → its name. */
export function commandLabel(c, nameOf) {
  switch (c.type) {
    case "move":
      return `Move ${nameOf(c.unit)}: ${moveText(c)}${card(c)}`;
    case "general":
      return `${nameOf(c.general)} rides to ${c.path[c.path.length - 1]} (${c.path.length - 1} hex${c.path.length > 2 ? "es" : ""})`;
    case "rally":
      return `${nameOf(c.general)} rallies ${nameOf(c.unit)} (rides to ${c.path[c.path.length - 1]})`;
    case "charge":
      return `Charge ${nameOf(c.target)} by ${c.path.join(" → ")}${card(c)}`;
    case "fire":
      return `Fire at ${nameOf(c.target)}${card(c)}`;
    case "play_card":
      return c.general ? `Play ${CARD_NAMES[c.card]}: ${nameOf(c.general)} re-rolls` : `Play ${CARD_NAMES[c.card]}: ${nameOf(c.unit)} tests again`;
    case "end_step":
      return "End step";
    default:
      return c.type;
  }
}

export const COMMAND_RULES = { move: "4.2, R16.11", general: "R16.11", rally: "2.1", charge: "4.1, R16.13", fire: "5, R16.14", play_card: "R16.10", end_step: "R16.6" };

/** A fire's odds (options.py fire_odds): dice, the score each needs, long range, enfilade, saves, First Fire. */
export function fireOddsText(o) {
  if (!o) return null;
  const dice = o.shots ? `${o.shots} shots, each hits on ${o.need}+` : `${o.dice} dice, each hits on ${o.need}+`;
  const mods = [o.long ? "long range (+1 needed, 5.1.5)" : null, o.enfilade ? "enfilade: dice doubled (5.5)" : null,
    o.saves ? "the target saves on 4+ (cover, 5.3)" : null, o.first_fire ? "First Fire: misses re-rolled (5.1.10)" : null].filter(Boolean);
  return `${dice}${mods.length ? "; " + mods.join("; ") : ""}`;
}
