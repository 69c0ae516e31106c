// Dice nobody can bias (R11, docs/dice.md), the browser's side:
//  * each seat's own random contribution, drawn here with crypto.getRandomValues after the server's
//    commitment (the seed hash) is shown, sent when the seat is taken and remembered in this browser;
//  * at game end, the same check as `vedette replay` for the dice: the published seed matches the
//    commitment, this browser's contribution is the one in the record, and every die of the record is
//    the one the derivation gives (crypto.subtle HMAC-SHA256, rejection sampling, no modulo bias).

import { h } from "./dom.js";

export const SCHEME = "vedette-dice-2";
export const LEGACY_SCHEME = "vedette-dice-1";
const enc = new TextEncoder();

const toHex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** 32 random bytes from the browser's cryptographic generator, as 64 lowercase hex digits. */
export function newContribution() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

const storeKey = (gameId) => `vedette.dice.${gameId}`;

/** Remember what this browser contributed to a game, to check it against the record at the end. */
export function rememberContribution(gameId, value) {
  try {
    localStorage.setItem(storeKey(gameId), value);
  } catch (_) {
    /* private mode: the check at the end then cannot say which value this browser sent */
  }
}

export function myContribution(gameId) {
  try {
    return localStorage.getItem(storeKey(gameId));
  } catch (_) {
    return null;
  }
}

export async function sha256Hex(text) {
  return toHex(await crypto.subtle.digest("SHA-256", enc.encode(text)));
}

async function hmac(keyBytes, message) {
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)));
}

/** The HMAC key of a game's dice: HMAC-SHA256(seed, "vedette-dice-2\n" + "side=contribution\n" per side sorted). */
export async function diceKey(seed, contributions, scheme = SCHEME) {
  if (scheme === LEGACY_SCHEME) return enc.encode(seed);
  if (scheme !== SCHEME) throw new Error(`unknown dice scheme ${scheme}`);
  const sides = Object.keys(contributions || {}).sort();
  const message = SCHEME + "\n" + sides.map((s) => `${s}=${contributions[s] || ""}\n`).join("");
  return hmac(enc.encode(seed), message);
}

// faces -> [first byte rejected, lowest face]: the d6 shows 1..6 (R11), the d10 0..9 (R17.1: an edition whose dice are d10s).
const FACES = { 6: [252, 1], 10: [250, 0] };

/** Die number n (from 0): the first byte below 252 of HMAC-SHA256(key, "n:k"), k = 0, 1, ...; shows byte % 6 + 1.
 *  A d10 (a record whose dice say `faces: 10`): the first byte below 250, showing byte % 10. */
export async function dieFromKey(keyBytes, n, faces = 6) {
  const [limit, low] = FACES[faces];
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  for (let k = 0; ; k++) {
    const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${n}:${k}`)));
    for (const b of block) if (b < limit) return (b % faces) + low;
  }
}

/** Check a finished game's record: {ok, lines}. `mine` is {side, value} of this browser's seat, if any. */
export async function checkRecord(record, { seedHash = null, mine = null } = {}) {
  const lines = [];
  let ok = true;
  const fail = (t) => {
    ok = false;
    lines.push(`✗ ${t}`);
  };
  const seed = record && record.seed;
  if (typeof seed !== "string") return { ok: false, lines: ["✗ The record has no seed: the game is not over."] };
  const hash = await sha256Hex(seed);
  if (hash !== record.seed_hash) fail("The published seed does not match the commitment announced at the start.");
  else lines.push(`✓ The seed matches the commitment (SHA-256 ${hash.slice(0, 16)}…).`);
  if (seedHash && seedHash !== record.seed_hash) fail("The record's commitment is not the one this page was shown.");
  const dice = record.dice || { scheme: LEGACY_SCHEME, contributions: {} };
  const contributions = dice.contributions || {};
  if (dice.scheme === SCHEME) {
    for (const [side, value] of Object.entries(contributions)) {
      lines.push(value ? `• ${side} contributed ${value.slice(0, 16)}…` : `• ${side} sent no contribution (the seed alone decides for it).`);
    }
  } else lines.push("• This game was created before the seats contributed: its dice come from the seed alone.");
  if (mine && mine.side) {
    const recorded = contributions[mine.side];
    if (!mine.value) lines.push("• This browser holds no contribution for your seat (another browser, or it was not stored).");
    else if (recorded === mine.value) lines.push("✓ Your browser's contribution is the one in the record.");
    else fail("The record does not carry the contribution your browser sent.");
  }
  const rolled = [];
  for (const entry of record.commands || []) for (const d of entry.dice || []) rolled.push(d);
  const raw = await diceKey(seed, contributions, dice.scheme);
  const faces = dice.faces || 6;
  if (!FACES[faces]) return { ok: false, lines: [...lines, `✗ The record's dice have ${faces} faces: no such die.`] };
  let bad = -1;
  for (let n = 0; n < rolled.length; n++) {
    if ((await dieFromKey(raw, n, faces)) !== rolled[n]) {
      bad = n;
      break;
    }
  }
  if (bad >= 0) fail(`Die ${bad + 1} of the record (${rolled[bad]}) is not the one the seed and contributions give.`);
  else lines.push(`✓ All ${rolled.length} dice match the seed and the contributions.`);
  return { ok, lines };
}

/** The game-over panel's fairness section: download the record, the published seed, and a one-click check.
 *  `state` is kept by the caller between renders ({result}). */
export function fairnessSection({ gameId, view, side, recordUrl, loadRecord, state }) {
  const out = h("div.fairness", { style: "margin:10px 0;text-align:left" });
  const seed = view && view.seed;
  out.appendChild(h("h3", { text: "Fair dice" }));
  out.appendChild(h("p", {}, [
    "Every die came from the server's seed and both seats' own random values, drawn in their browsers (the scheme: docs/dice.md). ",
    seed ? "The seed, published now: " : "The seed is published when the game is over.",
    seed ? h("code.seed", { text: seed, style: "word-break:break-all" }) : null,
  ]));
  const result = h("div.fairness-result", { role: "status", "aria-live": "polite" });
  const paint = () => {
    result.textContent = "";
    if (!state.result) return;
    result.appendChild(h("p", { style: `font-weight:700;color:${state.result.ok ? "#007a4d" : "#b00020"}`, text: state.result.ok ? "Every die matches." : "The check failed." }));
    for (const line of state.result.lines) result.appendChild(h("div", { text: line }));
  };
  const button = h("button.btn", {
    type: "button",
    text: "Check every die",
    onclick: async () => {
      button.disabled = true;
      state.result = { ok: false, lines: ["Checking…"] };
      paint();
      try {
        const record = await loadRecord();
        state.result = await checkRecord(record, { seedHash: view && view.seed_hash, mine: side ? { side, value: myContribution(gameId) } : null });
      } catch (e) {
        state.result = { ok: false, lines: [`✗ ${e.message || e}`] };
      }
      button.disabled = false;
      paint();
    },
  });
  out.appendChild(h("div.actions", { style: "justify-content:center" }, [
    h("a.btn", { href: recordUrl, download: `vedette-${gameId}.json`, text: "Download the record" }),
    button,
  ]));
  out.appendChild(result);
  paint();
  return out;
}
