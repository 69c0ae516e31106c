// Normalise what GET /api/games/{id}/options returns into one shape the page
// draws. The rules core decides legality; this only reads its answer, and is
// tolerant of the few shapes the contract allowed while it was being built.
//
// -> { reach: Map(hex -> {cost, path, ends}), attacks: [{target, attackers, primary, support, preview}],
//      bombards: [{target, artillery, range, los, preview}], charges: [...], commands: [{label, command, rule}] }

function mp(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return v;
  if (typeof v === "object") {
    if ("mp" in v) return v.mp;
    if ("cost" in v) return v.cost;
    if ("cost_halves" in v) return v.cost_halves / 2;
  }
  return null;
}

function reachOf(o) {
  const src = (o.move && (o.move.reachable || o.move.hexes || o.move)) || o.reachable || o.moves || null;
  const out = new Map();
  if (!src) return out;
  const put = (hex, v) => {
    if (typeof hex !== "string" || !/^[0-9]{4}$/.test(hex)) return;
    const path = (v && (v.path || v.route)) || null;
    let cost = mp(v);
    if (v && typeof v === "object" && "cost_halves" in v) cost = v.cost_halves / 2;
    out.set(hex, { cost, path, ends: !!(v && (v.ends_move || v.ends)), entry: v && v.entry });
  };
  if (Array.isArray(src)) for (const r of src) put(r.hex || r.to || (r.path && r.path[r.path.length - 1]), r);
  else if (typeof src === "object") for (const [hex, v] of Object.entries(src)) put(hex, v);
  return out;
}

function list(v) {
  if (!v) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === "object") {
    if (Array.isArray(v.targets)) return v.targets;
    return Object.entries(v).map(([target, x]) => ({ target, ...(typeof x === "object" ? x : {}) }));
  }
  return [];
}

export function normalizeOptions(raw) {
  const o = (raw && (raw.options || raw)) || {};
  const allAttacks = list(o.attacks || o.attack);
  const illegal = allAttacks.filter((a) => a.legal === false).map((a) => ({ target: a.target || a.hex, rule: a.rule, message: a.message }));
  const attacks = allAttacks.filter((a) => a.legal !== false).map((a) => ({
    target: a.target || a.hex,
    attackers: a.attackers || a.units || null,
    primary: a.primary || null,
    support: a.support || [],
    preview: a.preview || a,
    command: a.command || null,
    rule: a.rule || "7.0",
  }));
  // the rules core answers bombard as {artillery_unit: [target hexes]}
  let bsrc = o.bombards || o.bombard;
  if (bsrc && !Array.isArray(bsrc) && typeof bsrc === "object" && Object.values(bsrc).every(Array.isArray)) {
    const byHex = new Map();
    for (const [unit, hexes] of Object.entries(bsrc)) for (const hx of hexes) byHex.set(hx, [...(byHex.get(hx) || []), unit]);
    bsrc = [...byHex].map(([target, artillery]) => ({ target, artillery }));
  }
  const bombards = list(bsrc).map((b) => ({
    target: b.target || b.hex,
    artillery: b.artillery || b.units || null,
    range: b.range ?? b.distance ?? null,
    los: b.los ?? true,
    preview: b.preview || b,
    command: b.command || null,
    rule: b.rule || "8.0",
  }));
  // 9.2: in the movement phase the rules core lists charge moves ({type:"move", units, path, charge}),
  // in the combat phase the charges to make ({type:"charge", target, chargers, leaders?}): both are exact commands.
  const charges = list(o.charges || o.charge).map((c) => {
    const isCmd = c && (c.type === "move" || c.type === "charge");
    return {
      kind: c.type === "move" || (c.charge && c.path) ? "move" : "charge",
      target: c.charge || c.target || c.hex,
      units: c.units || c.chargers || c.cavalry || null,
      chargers: c.chargers || null,
      leaders: c.leaders || [],
      path: c.path || null,
      preview: c.preview || null,
      command: c.command || (isCmd ? c : null),
      rule: c.rule || "9.2",
    };
  });
  // the odds of each combat-phase charge, listed apart from the exact commands (9.2)
  for (const c of charges) {
    if (c.kind !== "charge" || c.preview) continue;
    const key = (x) => `${x.target}|${[...(x.leaders || [])].sort().join(",")}`;
    const pv = (o.charge_previews || []).find((p) => key(p) === key(c));
    if (pv) c.preview = pv;
  }
  const commands = [];
  for (const c of o.commands || []) if (c && (c.command || c.type)) commands.push({ label: c.label || c.text || c.type, command: c.command || c, rule: c.rule });
  if (o.square) {
    const sq = o.square;
    if (sq === true) commands.push({ label: "Form square", command: { type: "square", units: raw.units || o.units }, rule: "9.3" });
    else if (typeof sq === "object") commands.push({ label: sq.label || "Form square", command: sq.command || { type: "square", ...sq }, rule: sq.rule || "9.3" });
  }
  const notes = [].concat(o.notes || o.reasons || []);
  if (o.move_error) notes.push({ text: o.move_error.message, rule: o.move_error.rule });
  return { reach: reachOf(o), attacks, illegal, bombards, charges, commands, notes, ma: o.ma };
}

/** Percent text for a 0..1 probability. */
export function pct(p) {
  return `${Math.round((p || 0) * 100)}%`;
}

/** A CRT result code with the rules core's own explanation when it gave one. */
export function resultMeaning(code, preview) {
  const m = preview && (preview.meanings || preview.result_texts);
  return m && m[code] ? `${code}: ${m[code]}` : String(code);
}
