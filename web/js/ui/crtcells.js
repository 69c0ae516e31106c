// Reading a combat results table's cells written as "Dm(Dx) Leader": the result (A or D, then its letter: r, c, x,
// m; or NE, Ex), the result in brackets applied on a passed check, and the notations applied in addition. Pure; the
// words are the edition's, passed in as a table (editions/*/results.js).

const SIDE = { A: "attacker", D: "defender" };

/** "Dm(Dx) Leader" -> {head: "Dm", pass: "Dx", notes: ["Leader"]}, keeping only the `notations` named; "–" and "-"
 *  read as NE. */
export function parseCell(code, notations) {
  const [cell = "NE", ...notes] = String(code ?? "NE").trim().split(/\s+/);
  const m = cell.match(/^([A-Za-z]+)(?:\(([A-Za-z]+)\))?$/);
  const head = !m || cell === "-" || cell === "–" ? "NE" : m[1];
  return { head, pass: m ? m[2] || null : null, notes: notes.filter((n) => n in notations) };
}

/** A result in the words of `table`: table.NE(), table.Ex(), or table[letter](side, passed words, bracketed result)
 *  for a one-sided result ("attacker" or "defender"); null when the table has no words for it. */
export function readCell(head, pass, table) {
  if (head === "NE" || head === "Ex") return table[head]();
  const side = SIDE[head[0]];
  const letter = head.slice(1);
  if (!side || !table[letter]) return null;
  const passed = pass ? (pass === "NE" ? "no effect" : `as ${pass}`) : "no effect";
  return table[letter](side, passed, pass);
}

/** The notations of a parsed cell in words, each after its name ("Leader: each leader …"): `notations` maps a name to
 *  [its sentence, its few words]. */
export function notationWords(cell, notations) {
  return cell.notes.map((n) => `${n}: ${notations[n][0][0].toLowerCase()}${notations[n][0].slice(1)}`);
}

/** A cell in a few words, for a row of an odds table: the result's (`short`, a table as readCell's) and each
 *  notation's. */
export function cellShort(code, short, notations) {
  const r = parseCell(code, notations);
  return [readCell(r.head, r.pass, short) || "", ...r.notes.map((n) => notations[n][1])].filter(Boolean).join("; ");
}
