// The "Battle" panel of the game page (the briefing, the victory conditions in plain words, the points
// tally, turn N of M and each objective with its holder), the seats' "share watch link" control, the invite
// for a visitor who is not logged in, the opening map view over one's own units, short turn-track labels and
// the replay's turn/phase jumps.

import { h, clear, add } from "./dom.js";
import { toast } from "./chrome.js";
import { whoseGame } from "./lobbylists.js";

function sideName(sc, side) {
  return (sc.sides[side] && sc.sides[side].name) || side || "";
}

function shortSide(sc, side) {
  return (sc.sides[side] && (sc.sides[side].adjective || sc.sides[side].name)) || side || "";
}

function dot(sc, side) {
  const c = side && sc.sides[side] ? sc.sides[side].color : "#fff";
  return h("span.side-dot", { style: `background:${c}`, "aria-hidden": "true" });
}

/** The victory conditions in plain words, built from the scenario's own data. */
export function victoryWords(sc) {
  const v = sc.victory || {};
  const out = [];
  const objs = v.objectives || [];
  out.push(`The battle lasts ${sc.turns} turns.`);
  if (objs.some((o) => o.for)) {
    const bySide = {};
    for (const o of objs) if (o.for) (bySide[o.for] = bySide[o.for] || []).push(`${o.name || o.hex} (${o.points})`);
    out.push(`At the end, each side scores the objectives marked for it that it then controls (an objective belongs to the last side to have had a combat unit in it): ${Object.entries(bySide).map(([sd, l]) => `${shortSide(sc, sd)}: ${l.join(", ")}`).join("; ")}.`);
  } else if (objs.length) out.push(`At the end, each side scores the objectives it controls; an objective belongs to the last side to have had a combat unit in it.`);
  const pts = v.points || {};
  const loss = [];
  if (pts.step_eliminated) loss.push(`${pts.step_eliminated} per enemy step eliminated`);
  if (pts.unit_captured) loss.push(`${pts.unit_captured} per enemy unit captured`);
  if (pts.leader_eliminated) loss.push(`${pts.leader_eliminated} per enemy leader killed`);
  if (pts.leader_captured) loss.push(`${pts.leader_captured} per enemy leader captured`);
  if (loss.length) out.push(`Each side also scores ${loss.join(", ")}.`);
  out.push(`The higher score wins${v.draw_margin ? `; a lead of less than ${v.draw_margin} is a draw` : ""}.`);
  for (const sd of v.sudden_death || []) {
    const names = (sd.hexes || []).map((x) => {
      const o = objs.find((y) => y.hex === x);
      return o && o.name ? `${o.name} (${x})` : x;
    });
    out.push(`Sudden victory: ${sideName(sc, sd.side)} wins at once by holding ${names.join(" and ")} together at the end of a turn.`);
  }
  return out;
}

/** Fill the Battle section. ctx: {scenario, view, side (mine or null), rule: the edition's rules for the victory
 *  conditions, cited in the heading (none: no chip)}. */
export function renderBattle(sec, { scenario: sc, view: v, side, rule = null }) {
  if (!sec || !sc || !v) return;
  const open = sec.querySelector("details.battle-details") ? sec.querySelector("details.battle-details").open : false;
  clear(sec);
  const turns = v.turns || sc.turns;
  const points = v.points || {};
  const control = v.control || {};
  const objs = (sc.victory && sc.victory.objectives) || [];
  const order = sc.side_order || Object.keys(sc.sides);
  sec.appendChild(h("h3", {}, ["Battle", rule ? h("span.rule", { text: rule }) : null]));
  sec.appendChild(
    h("div.battle-turn#battle-turn", { text: `Turn ${v.turn} of ${turns}${v.turn_label ? " (" + v.turn_label + ")" : ""}${v.phase === "over" ? ": the battle is over" : ""}` }),
  );
  const tally = h("div.battle-points#battle-points", { role: "group", "aria-label": "Victory points" });
  for (const s of order) {
    tally.appendChild(h("div.bp-side", { "data-side": s }, [dot(sc, s), h("span.bp-name", { text: sideName(sc, s) }), h("b.bp-value", { text: String(points[s] ?? 0) })]));
  }
  sec.appendChild(tally);
  if (objs.length) {
    const ul = h("ul.objectives#objective-list", { "aria-label": "Objectives and who holds them" });
    for (const o of objs) {
      const holder = o.hex in control ? control[o.hex] : o.owner || null;
      ul.appendChild(
        h("li.obj-item", { "data-hex": o.hex, "data-holder": holder || "" }, [
          dot(sc, holder),
          h("span.obj-name", { text: `${o.name || o.hex} (${o.hex})` }),
          h("span.obj-pts", { text: `${o.points} VP` }),
          h("span.obj-holder", { text: `held by ${holder ? shortSide(sc, holder) : "nobody"}${o.for ? ` · scores for ${shortSide(sc, o.for)}` : ""}` }),
        ]),
      );
    }
    sec.appendChild(ul);
  }
  const brief = sc.briefing || {};
  const details = h("details.battle-details", { open }, [
    h("summary", { text: "Briefing and victory conditions" }),
    brief.general ? h("p.briefing#briefing-general", { text: brief.general }) : null,
    side && brief[side] ? h("p.briefing#briefing-side", {}, [h("b", { text: `${sideName(sc, side)}: ` }), brief[side]]) : null,
    !side ? add(h("div"), ...order.filter((s) => brief[s]).map((s) => h("p.briefing", {}, [h("b", { text: `${sideName(sc, s)}: ` }), brief[s]]))) : null,
    h("h4", { text: "How to win" }),
    h("ul.victory-words#victory-words", {}, victoryWords(sc).map((t) => h("li", { text: t }))),
    sc.victory && sc.victory.description ? h("p.whose-sub#victory-text", { text: sc.victory.description }) : null,
  ]);
  sec.appendChild(details);
}

/** The seats' "share watch link" control: anyone with the link may watch (read-only). */
export function watchLinkControl(game, gameId) {
  if (!game || !game.watch_token || !game.your_side) return null;
  const link = `${location.origin}/games/${gameId}?watch=${game.watch_token}`;
  const input = h("input#watch-link", { value: link, readonly: true, "aria-label": "Watch link", onfocus: (e) => e.target.select() });
  return h("details.share-watch#share-watch", {}, [
    h("summary", { text: "Share watch link" }),
    h("div.whose-sub", { text: "Anyone holding this link can watch the battle live, read-only; they never see your hidden units." }),
    h("div.invite", {}, [
      input,
      h("button.btn.small#copy-watch", {
        type: "button",
        text: "Copy",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast("Watch link copied.");
          } catch (_) {
            input.select();
            toast("Select the link and copy it.");
          }
        },
      }),
    ]),
  ]);
}

/** An invite link opened while logged out: whose game it is and the way to its free seat (log in or register,
 *  then back here, where the seat is offered). Says only what the game's summary tells anyone holding the link. */
export function inviteForVisitor(sec, game) {
  if (!sec || !game) return;
  sec.hidden = false;
  add(clear(sec),
    h("h3", { text: "Join this battle" }),
    h("p.prompt-text#invite-whose", { text: whoseGame(game) }),
    h("p.whose-sub", { text: "Log in or register to take the free seat: you come straight back to this game." }),
    h("a.btn.primary#invite-login", { href: `/?next=${encodeURIComponent(location.pathname + location.search)}`, text: "Log in or register" }),
  );
}

/** The keyboard help, for a seat while the game runs (not for spectators, the replay or after the end).
 *  The edition says who may charge and adds its own keys (`more`, HTML; editions/index.js: keyHelp). */
export function keyHelp({ chargers = "cavalry", more = "" } = {}) {
  return h("div.whose-sub.key-help#key-help", { style: "margin-top:6px", html: `Keys: <kbd>E</kbd> end phase · <kbd>U</kbd>/<kbd>Ctrl+Z</kbd> undo · <kbd>N</kbd>/<kbd>Tab</kbd> next unit · <kbd>C</kbd> charge mode (${chargers})${more} · <kbd>Esc</kbd> cancel · wheel/pinch zoom, drag to pan · <kbd>0</kbd> whole map` });
}

/** "3 May 15:00" -> "15:00", "Night 3-4 May" -> "Night": the track shows the short form, the title the rest. */
export function shortTurnLabel(label) {
  if (!label) return "";
  const m = String(label).match(/\d{1,2}[:.]\d{2}/);
  if (m) return m[0];
  return String(label).split(/\s+/)[0];
}

/** Open the map over the viewer's own units (a spectator's: every unit) at a readable counter size. */
export function openingView(map, view, scenario, side) {
  if (!map || !view) return false;
  const hexes = [];
  for (const [id, u] of Object.entries(view.units || {})) {
    if (!u || !u.hex || (u.status && u.status !== "map")) continue;
    const d = (scenario.units || []).find((x) => x.id === id);
    if (side && (!d || d.side !== side)) continue;
    hexes.push(u.hex);
  }
  // A side with nothing on the map yet (Königgrätz's Prussians, all arriving by 17.4) sees the whole field: where
  // its armies will come on and what they march for, not one objective's hex at the map's edge.
  if (side && !hexes.length) {
    map.resetView();
    return false;
  }
  return map.focusOn(hexes);
}

/** Replay marks: the version at which each turn and phase began, from the log's turn/phase events. */
export function replayMarks(log, scenario) {
  const marks = [{ version: 0, label: "The start" }];
  for (const entry of log || []) {
    for (const ev of entry.events || []) {
      if (ev.type !== "phase" && ev.type !== "turn") continue;
      const side = ev.side && scenario.sides[ev.side] ? scenario.sides[ev.side].adjective || scenario.sides[ev.side].name : "";
      const label = ev.type === "phase" ? `Turn ${ev.turn ?? "?"}: ${side} ${ev.phase}` : `Turn ${ev.turn ?? "?"}`;
      // the phase began with the command logged at `seq`: its state is version `seq`
      // phases passed within one command (an empty recovery phase) leave the state at the last of them
      const last = marks[marks.length - 1];
      if (last && last.version === entry.seq) Object.assign(last, { label, turn: ev.turn, phase: ev.phase });
      else marks.push({ version: entry.seq, label, turn: ev.turn, phase: ev.phase });
    }
  }
  return marks;
}

/** A <select> jumping the replay to the start of a turn or phase. */
export function replayJump(marks, at, go) {
  if (!marks.length) return null;
  let current = null;
  for (const m of marks) if (m.version <= at) current = m;
  const sel = h(
    "select#history-jump",
    { "aria-label": "Jump to a turn and phase", onchange: (e) => go(+e.target.value) },
    [h("option", { value: "", text: "Jump to turn / phase…", disabled: true, selected: !current }), ...marks.map((m) => h("option", { value: String(m.version), text: `${m.label} (v${m.version})`, selected: current === m }))],
  );
  return sel;
}
