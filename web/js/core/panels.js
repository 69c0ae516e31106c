// The side panel's sections every edition shows (whose move it is, the phase's own box, the actions, the last
// combat result, the end of the battle) and renderAll, which redraws the page from the store. The edition
// fills its own sections and the phase box (editions/index.js: renderPanels, renderPhasePanel).

import { api, accessParams } from "../api.js";
import { h, clear, $, ago, add } from "../ui/dom.js";
import { toast, confirmDialog } from "../ui/chrome.js";
import { combatPanel, lastCombatEvents } from "../ui/explain.js";
import { renderBattle, watchLinkControl, keyHelp } from "../ui/battle.js";
import { fairnessSection } from "../ui/fairness.js";
import { profileUrl } from "../ui/lobbylists.js";
import { S, page, defs, currentView, gameStatus, myTurn, activePrompt, sideName, playerName, showError, ruleOf } from "./store.js";
import { endPhase, undo, cycleUnits, refreshPhaseOptions } from "./selection.js";
import { renderPrompt } from "./prompt.js";
import { renderSelection } from "./selectionpanel.js";
import { renderOffboard } from "./offboard.js";
import { renderOverlays } from "./overlays.js";
import { renderTurnbar } from "./turnbar.js";
import { renderHistory, renderLog } from "./history.js";
import { renderTrail } from "./trail.js";

export function renderAll() {
  const v = currentView();
  page.map.setView(page.edition.mapView ? page.edition.mapView(v) : v);
  renderTurnbar();
  renderStatus();
  renderBattle($("#sec-battle"), { scenario: S.scenario, view: v, side: S.side, rule: ruleOf("victory") });
  renderPrompt();
  renderSelection();
  renderOffboard();
  renderPhasePanel();
  refreshPhaseOptions();
  if (page.edition.renderPanels) page.edition.renderPanels();
  renderActions();
  renderHistory();
  if (page.chat) page.chat.render();
  renderLog();
  renderCombat();
  renderOverlays();
  renderTrail();
  renderGameOver();
}

/** What to do now, under "Your move" (the edition words its own phases first). */
function statusHint(v) {
  const own = page.edition.statusHint ? page.edition.statusHint(v) : null;
  if (own) return own;
  if (v.phase === "movement") return "Select a unit, then click a shaded hex to move. End the phase when done (E).";
  if (v.phase === "combat") return "Select your units, then click an enemy to see the odds and attack. End the phase when done (E).";
  return "Act, then end the phase (E).";
}

function renderStatus() {
  const v = currentView();
  const sec = clear($("#sec-status"));
  const aw = v.awaiting;
  const side = aw ? S.scenario.sides[aw] : null;
  let text;
  let sub = "";
  const phaseWord = v.phase === "over" ? "" : `${v.phase} phase`;
  if (S.history) {
    text = `Replay at version ${S.history.at} of ${S.version}: ${aw ? sideName(aw) + " " : ""}${phaseWord || "the end"}.`;
  } else if (gameStatus() === "waiting") {
    text = "Waiting for an opponent to take the other seat.";
    sub = S.role === "seat" ? "Nothing can be played until both seats are taken: send the invite link below." : "";
  } else if (v.phase === "over" || !aw) {
    text = "The battle is over.";
  } else if (S.role === "seat" && aw === S.side) {
    const deciding = v.prompt && v.prompt.side === S.side && v.prompt.kind !== "phase";
    text = deciding ? `Your decision: ${v.prompt.text}` : `Your move: ${sideName(S.side)} ${phaseWord}.`;
    sub = deciding ? "" : statusHint(v);
  } else {
    const who = playerName(aw);
    text = `Waiting for ${who ? who + " (" + sideName(aw) + ")" : sideName(aw)}${v.prompt && v.prompt.side === aw ? ` to decide: ${v.prompt.text}` : ` to play the ${phaseWord}`}.`;
  }
  const since = !S.history && v.game && v.game.awaiting_since ? ago(v.game.awaiting_since) : "";
  add(sec,
    h("h3", {}, [S.role === "seat" ? `You play ${sideName(S.side)}` : S.role === "admin" ? "Admin view (read-only)" : "Spectating (read-only)", v.spectators ? h("span", { text: `${v.spectators} watching`, title: "Spectators" }) : null]),
    h(`div.whose${S.role === "seat" && aw === S.side && !S.history ? ".mine" : ""}#whose`, {}, [side ? h("span.side-dot", { style: `background:${side.color}`, "aria-hidden": "true" }) : null, h("span", { text })]),
    sub ? h("div.whose-sub", { text: sub }) : null,
    since && v.phase !== "over" ? h("div.whose-sub", { text: `Waiting ${since}.` }) : null,
    h("dl.kv", {}, [
      ...playersRow(),
      h("dt", { text: "Turn" }),
      h("dd", { text: `${v.turn} of ${v.turns || S.scenario.turns}${v.turn_label ? " (" + v.turn_label + ")" : ""}` }),
      ...(v.points ? [h("dt", { text: "Points" }), h("dd", { text: Object.entries(v.points).map(([s, p]) => `${sideName(s)} ${p}`).join(" · ") })] : []),
      ...(v.replacements && Object.keys(v.replacements).length ? [h("dt", { text: "Replacements" }), h("dd", { text: Object.entries(v.replacements).map(([s, p]) => `${sideName(s)} ${p}`).join(" · ") })] : []),
      // the options the game was created with (e.g. a free set-up), named as the rules core names them
      ...(v.options && Object.keys(v.options).length ? [h("dt", { text: "Options" }), h("dd#game-options", { text: Object.keys(v.options).map((o) => o.replace(/_/g, " ")).join(" · ") })] : []),
    ]),
  );
  if (S.role !== "seat") sec.appendChild(h("div.readonly-banner", { text: "You are watching: the board updates live and nothing you click changes the game." }));
}

/** "Players": each seated player's name, linking to their profile (issue 44). */
function playersRow() {
  const seated = Object.keys(S.scenario.sides).map((side) => [side, playerName(side)]).filter(([, user]) => user);
  if (!seated.length) return [];
  const parts = [];
  for (const [side, user] of seated) {
    if (parts.length) parts.push(" vs ");
    parts.push(h("a.player-link", { href: profileUrl(user), text: user, "aria-label": `${user}'s profile` }), ` (${sideName(side)})`);
  }
  return [h("dt", { text: "Players" }), h("dd#players", {}, parts)];
}

/** The phase's own box, drawn by the edition from the phase's options (hidden when it has nothing to show). */
export function renderPhasePanel() {
  const sec = $("#sec-phase");
  if (!sec) return;
  const raw = S.phaseOptions && S.phaseOptions.raw;
  if (!raw || S.history || !myTurn() || activePrompt()) {
    sec.hidden = true;
    return;
  }
  clear(sec);
  if (!(page.edition.renderPhasePanel && page.edition.renderPhasePanel(sec, raw, S.view))) sec.hidden = true;
}

function renderActions() {
  const gameId = page.gameId;
  const sec = clear($("#sec-actions"));
  const v = S.view;
  const acts = h("div.actions");
  if (S.role === "seat" && v.phase !== "over") {
    const mine = myTurn();
    acts.append(
      h("button.btn.primary#end-phase", { type: "button", disabled: !mine || !!activePrompt(), "aria-label": "End phase (E)", onclick: endPhase }, ["End phase ", h("kbd", { text: "E" })]),
      h("button.btn#undo", { type: "button", disabled: !(v.can_undo && typeof v.can_undo === "object" ? v.can_undo[S.side] : S.version > 0), "aria-label": "Undo (U)", onclick: undo }, ["Undo ", h("kbd", { text: "U" })]),
      h("button.btn.small#next-unit", { type: "button", disabled: !mine, "aria-label": "Next unit (N)", onclick: () => cycleUnits(1) }, ["Next unit ", h("kbd", { text: "N" })]),
      h("button.btn.small.danger#resign", {
        type: "button",
        "aria-label": "Resign the game",
        onclick: async () => {
          if (!(await confirmDialog("Resign?", "The battle ends now and your opponent wins.", { ok: "Resign" }))) return;
          try {
            await api.resign(gameId);
          } catch (e) {
            showError(e);
          }
        },
      }, "Resign"),
    );
  }
  if (gameStatus() === "waiting" && S.role === "seat" && S.game && S.game.invite_token) {
    const link = `${location.origin}/games/${gameId}?invite=${S.game.invite_token}`;
    sec.appendChild(h("div.whose-sub", { text: "Waiting for your opponent. Send them this invite link:" }));
    sec.appendChild(h("div.invite", {}, [h("input", { value: link, readonly: true, "aria-label": "Invite link", onfocus: (e) => e.target.select() }), h("button.btn.small", { type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Invite link copied.")) })]));
  }
  if (acts.childNodes.length) sec.appendChild(acts);
  if (S.role === "seat" && S.game) sec.appendChild(watchLinkControl(S.game, gameId) || h("span"));
  if (S.role === "seat" && v.phase !== "over" && !S.history) sec.appendChild(keyHelp(page.edition.keyHelp));
}

/** The combat result panel: the latest dice roll with the CRT cell and what happened. */
export function renderCombat() {
  const sec = $("#sec-combat");
  const words = page.edition.results || null;
  const events = lastCombatEvents(S.history ? S.history.log : S.log, words ? words.declared : undefined) || S.lastCombat;
  if (!events) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  combatPanel(clear(sec), events, (u) => (defs()[u] ? defs()[u].name : u), page.edition.combatRules, words);
}

/** A seat's rating change in a finished rated game (issue 44), read from its profile once: the line fills in when
 *  the answer comes; nothing for a spectator, an unrated game or a game against the computer. */
function ratingLine(gameId) {
  if (S.role !== "seat" || !S.me || !S.game || !S.game.rated) return null;
  const line = h("p#gameover-rating.rating-change");
  const show = (c) => { line.textContent = c ? `Your rating in this edition: ${c.before} → ${c.after} (${c.delta >= 0 ? "+" : "−"}${Math.abs(c.delta)})` : ""; };
  if (S.ratingChange !== undefined) {
    show(S.ratingChange);
    return line;
  }
  api.player(S.me.username).then((p) => {
    const g = (p.finished || p.games || []).find((x) => x.id === gameId);
    S.ratingChange = (g && g.rating_change) || null;
    show(S.ratingChange);
  }).catch(() => {});
  return line;
}

function renderGameOver() {
  const gameId = page.gameId;
  const el = $("#gameover");
  const v = S.view;
  const r = v.result || (v.game && v.game.result);
  if (v.phase !== "over" && !(S.game && S.game.status === "over") && !r) {
    el.hidden = true;
    return;
  }
  if (S.gameoverDismissed) return;
  el.hidden = false;
  const winner = r && r.winner;
  const title = winner ? (S.side === winner ? "Victory!" : S.side ? "Defeat" : `${sideName(winner)} wins`) : "A draw";
  add(clear(el),
    h("h2#gameover-title", { text: title }),
    h("p", { text: `${winner ? sideName(winner) + " won" : "Neither side won"}${r && r.reason ? ": " + r.reason : ""}.` }),
    r && r.points ? h("p", { text: Object.entries(r.points).map(([s, p]) => `${sideName(s)} ${p} points`).join(" · ") }) : null,
    ratingLine(gameId),
    fairnessSection({
      gameId, view: v, side: S.role === "seat" ? S.side : null, state: (S.fairness = S.fairness || {}),
      recordUrl: `/api/games/${encodeURIComponent(gameId)}/record${location.search.match(/[?&]watch=/) ? "?watch=" + encodeURIComponent(accessParams().watch) : ""}`,
      loadRecord: () => api.record(gameId),
    }),
    h("div.actions", { style: "justify-content:center" }, [h("button.btn", { type: "button", text: "Look at the map", onclick: () => { S.gameoverDismissed = true; el.hidden = true; } }), h("a.btn.primary", { href: "/", text: "Back to the lobby" })]),
  );
}
