// The lobby (/): login / register when logged out; otherwise scenarios with a
// map preview and briefing, create game, my games ("your move" first) and
// open games to join.

import { api, ApiError } from "./api.js";
import { newContribution, rememberContribution } from "./ui/fairness.js";
import { h, clear, $, add } from "./ui/dom.js";
import { renderTopbar, toast } from "./ui/chrome.js";
import { MapView, setupView } from "./map.js";
import { startAwaiting, duration, dateText } from "./ui/awaiting.js";
import { watchList, termsText, RULESETS, since, lasting, whoseGame, playerTag } from "./ui/lobbylists.js";
import { editionFor } from "./editions/index.js";

const main = $("#main");
const topbar = $("#topbar");
const scenarioCache = new Map();
const scenarioOfGame = new Map(); // game id -> scenario id, from the game lists
const sideNamesOfGame = new Map(); // game id -> {side id: name}, from the game lists

function nextUrl() {
  const n = new URLSearchParams(location.search).get("next");
  return n && n.startsWith("/") && !n.startsWith("//") ? n : null;
}

async function boot() {
  let me = null;
  try {
    me = await api.me();
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) {
      renderTopbar(topbar, null);
      clear(main).appendChild(h("div.card.form-error", { role: "alert", text: `The server is not answering: ${e.message}` }));
      return;
    }
  }
  renderTopbar(topbar, me);
  if (!me) return renderAuth();
  startAwaiting();
  if (nextUrl()) {
    location.href = nextUrl();
    return;
  }
  renderLobby(me);
}

// ------------------------------------------------------------------ auth

function renderAuth() {
  clear(main);
  const loginErr = h("div.form-error", { role: "alert", "aria-live": "assertive" });
  const regErr = h("div.form-error", { role: "alert", "aria-live": "assertive" });
  const login = h("form.stack#login-form", { "aria-labelledby": "login-title" }, [
    h("h2#login-title", { text: "Log in" }),
    h("label.field", {}, ["Username", h("input", { name: "username", autocomplete: "username", required: true })]),
    h("label.field", {}, ["Password", h("input", { name: "password", type: "password", autocomplete: "current-password", required: true })]),
    loginErr,
    h("button.btn.primary", { type: "submit", text: "Log in" }),
  ]);
  login.addEventListener("submit", async (e) => {
    e.preventDefault();
    loginErr.textContent = "";
    const f = new FormData(login);
    try {
      await api.login(f.get("username").trim(), f.get("password"));
      location.href = nextUrl() || "/";
    } catch (err) {
      loginErr.textContent = err.message;
    }
  });
  const reg = h("form.stack#register-form", { "aria-labelledby": "reg-title" }, [
    h("h2#reg-title", { text: "New here? Register" }),
    h("label.field", {}, ["Username", h("input", { name: "username", autocomplete: "username", required: true, pattern: "[A-Za-z0-9_.\\-]{3,32}", title: "3 to 32 letters, digits, _ . -" })]),
    h("label.field", {}, ["Email", h("input", { name: "email", type: "email", autocomplete: "email", required: true })]),
    h("label.field", {}, ["Password (8 characters or more)", h("input", { name: "password", type: "password", autocomplete: "new-password", minlength: 8, required: true })]),
    regErr,
    h("button.btn.primary", { type: "submit", text: "Create account" }),
  ]);
  reg.addEventListener("submit", async (e) => {
    e.preventDefault();
    regErr.textContent = "";
    const f = new FormData(reg);
    try {
      await api.register(f.get("username").trim(), f.get("password"), f.get("email").trim());
      location.href = nextUrl() || "/";
    } catch (err) {
      regErr.textContent = err.message;
    }
  });
  const editions = h("ul.edition-list#editions", { "aria-label": "Editions of the rules on offer" });
  const going = h("div.card.next-game#next-game", { role: "status", hidden: true });
  main.appendChild(
    h("div.auth-wrap", {}, [
      h("div.auth-hero", {}, [
        h("h1", { text: "VEDETTE" }),
        h("p.muted", { text: "Musket & Saber battles, refereed for you: live or by email, with the rules checked by the server." }),
        editions,
      ]),
      going,
      h("div.grid2", {}, [h("div.card", {}, [login]), h("div.card", {}, [reg])]),
    ]),
  );
  login.querySelector("input").focus();
  listEditions(editions);
  sayWhereNext(going);
}

/** The landing page names every edition of the rules the server offers, each with its battles. */
async function listEditions(ul) {
  let list;
  try {
    list = await api.scenarios();
  } catch (_) {
    return; // the forms still work; the lobby lists the battles after logging in
  }
  const byEdition = new Map();
  for (const s of learningFirst(list)) {
    const name = editionTitle(s);
    if (!byEdition.has(name)) byEdition.set(name, []);
    byEdition.get(name).push(s);
  }
  add(clear(ul), h("li.edition-intro", { text: "Rules on offer:" }), ...[...byEdition].map(([name, battles]) => {
    const learning = battles.filter((s) => s.learning).length;
    const count = `${battles.length} battle${battles.length > 1 ? "s" : ""}${learning ? ", a learning battle first" : ""}`;
    return h("li.edition-item", { "data-edition": name }, [h("b", { text: name }), ` (${count})`]);
  }));
}

/** Sent here from a game's page (`?next=/games/…`): say that logging in leads back to it, and, when the link
 *  carries the game's invite or watch token, whose game it is: only what that link already shows anyone
 *  holding it (the players' names and the battle), read with that token. */
async function sayWhereNext(box) {
  const next = nextUrl();
  const m = next && next.match(/^\/games\/([^/?#]+)(\?[^#]*)?/);
  if (!m) return;
  const gameId = decodeURIComponent(m[1]);
  const params = new URLSearchParams(m[2] || "");
  const access = {};
  for (const k of ["invite", "watch"]) if (params.get(k)) access[k] = params.get(k);
  let game = null;
  if (Object.keys(access).length) {
    try {
      game = (await api.game(gameId, access)).game;
    } catch (_) {
      game = null; // a stale link: say no more than for a link without a token
    }
  }
  const joinable = game && access.invite && game.status === "waiting";
  add(clear(box),
    game ? h("p#next-game-about", { text: whoseGame(game) }) : null,
    h("p#next-game-text", { text: `Log in or register to ${joinable ? "take the free seat" : "open this game"}: you go straight back to it.` }),
  );
  box.hidden = false;
}

// ------------------------------------------------------------------ lobby

async function renderLobby(me) {
  clear(main);
  const scenCol = h("section.card", { "aria-labelledby": "scen-title" }, [h("h2#scen-title", { text: "Start a battle" }), h("div.scenario-list#scenarios", {}, [h("p.empty", { text: "Loading scenarios…" })])]);
  const mine = h("ul.games#my-games", { "aria-label": "My games" });
  const open = h("ul.games#open-games", { "aria-label": "Open games" });
  const yourMove = h("section.card.your-move-card#your-move-card", { "aria-labelledby": "yourmove-title", hidden: true }, [
    h("h2#yourmove-title", { text: "Your move" }),
    h("ul.games#your-move", { "aria-label": "Games waiting for your decision, longest wait first" }),
  ]);
  const mail = renderMailSettings();
  const gamesCol = h("div", { style: "display:flex;flex-direction:column;gap:18px" }, [
    yourMove,
    h("section.card", { "aria-labelledby": "mine-title" }, [h("div.section-title", {}, [h("h2#mine-title", { text: "My games" }), h("button.btn.small", { type: "button", text: "Refresh", "aria-label": "Refresh game lists", onclick: () => loadGames(me) })]), mine]),
    h("section.card", { "aria-labelledby": "open-title" }, [h("h2#open-title", { text: "Open games to join" }), ratingFilter(me), open]),
    h("section.card", { "aria-labelledby": "live-title" }, [h("h2#live-title", { text: "Games in progress" }), h("ul.games#live-games", { "aria-label": "Games in progress, to watch" })]),
    h("section.card", { "aria-labelledby": "finished-title" }, [h("h2#finished-title", { text: "Finished games" }), h("ul.games#finished-games", { "aria-label": "Finished games, to replay" })]),
    mail,
  ]);
  main.appendChild(h("div.lobby", {}, [scenCol, gamesCol]));
  loadScenarios(me);
  loadGames(me);
  startAwaiting(renderYourMove);
  setInterval(() => loadGames(me), 15000);
  loadMailSettings();
  showHash();
  window.addEventListener("hashchange", showHash);
}

function showHash() {
  if (location.hash === "#notifications") {
    const card = $("#notifications");
    if (card) {
      card.scrollIntoView({ block: "start" });
      card.classList.add("flash");
      setTimeout(() => card.classList.remove("flash"), 1600);
      const first = card.querySelector("input, select");
      if (first) first.focus({ preventScroll: true });
    }
  }
}

// ------------------------------------------------------- your move

function deadlineText(g) {
  if (g.paused_until) return `paused until ${dateText(g.paused_until)}`;
  if (g.overdue) return "overdue";
  if (!g.deadline_at) return "";
  const left = (Date.parse(g.deadline_at) - Date.now()) / 1000;
  return left > 0 ? `${duration(left)} left` : "overdue";
}

/** The "Your move" card: games awaiting me, longest wait first (the server's order). */
let lastAwaiting = null;
function renderYourMove(data) {
  lastAwaiting = data;
  const card = $("#your-move-card");
  const ul = $("#your-move");
  if (!card || !ul) return;
  const games = (data && data.games) || [];
  card.hidden = !games.length;
  clear(ul);
  for (const g of games) {
    const dl = deadlineText(g);
    const overdue = dl === "overdue";
    const waiting = g.waiting_seconds !== null && g.waiting_seconds !== undefined ? `waiting ${duration(g.waiting_seconds)}` : "waiting";
    ul.appendChild(
      h(`li.game-item.your-move${overdue ? ".overdue" : ""}`, { "data-game": g.id }, [
        h("div.gi-main", {}, [
          h("div.gi-title", {}, [g.title || g.id, " ", h("span.badge.move", { text: "Your move" }), overdue ? h("span.badge.late", { text: "⚠ Overdue" }) : null]),
          h("div.gi-sub", {}, [h("span.waiting", { text: waiting }), ` · you play ${sideName({ scenario: scenarioOfGame.get(g.id), side_names: sideNamesOfGame.get(g.id) }, g.your_side)}`, dl && !overdue ? ` · ${dl}` : ""]),
        ]),
        h("a.btn.small.primary", { href: g.url || `/games/${g.id}`, text: "Play", "aria-label": `Play your move in ${g.title || g.id} (${waiting})` }),
      ]),
    );
  }
}

// ------------------------------------------------------- mail settings

const MAIL_MODES = [
  ["every", "A mail for every decision that is mine"],
  ["digest", "One digest mail at most every few hours"],
  ["none", "No mail at all"],
];

function renderMailSettings() {
  const err = h("div.form-error#mail-error", { role: "alert", "aria-live": "assertive" });
  const modes = h("fieldset.mail-modes", { "aria-label": "When to mail me" }, [
    h("legend", { text: "Mail me" }),
    ...MAIL_MODES.map(([v, label]) =>
      h("label.radio", {}, [h("input", { type: "radio", name: "mail-mode", value: v, "aria-label": label }), " ", label]),
    ),
  ]);
  const hours = h("select#digest-hours", { name: "digest_hours", "aria-label": "Hours between digest mails" }, [1, 3, 6, 12, 24, 48, 72, 168].map((n) => h("option", { value: String(n), text: n < 48 ? `every ${n} h` : `every ${n / 24} days` })));
  const hoursField = h("label.field#digest-field", {}, ["Digest", hours]);
  const status = h("div.whose-sub#mail-status", { "aria-live": "polite" });
  const save = h("button.btn.primary#mail-save", { type: "submit", text: "Save mail settings", "aria-label": "Save mail settings" });
  const form = h("form.stack#mail-form", { "aria-labelledby": "mail-title" }, [
    h("p.muted", { style: "margin:0;font-size:14px", text: "Vedette mails you when a decision in a game is yours, with what happened since your last move. Deadline reminders and overdue notices are always sent at once unless mail is off." }),
    modes,
    hoursField,
    err,
    h("div.actions", {}, [save, status]),
  ]);
  const sync = () => {
    const m = form.querySelector("input[name=mail-mode]:checked");
    hoursField.hidden = !m || m.value !== "digest";
  };
  form.addEventListener("change", sync);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const m = form.querySelector("input[name=mail-mode]:checked");
    if (!m) return;
    save.disabled = true;
    try {
      const p = await api.setNotifications(m.value, m.value === "digest" ? Number(hours.value) : null);
      fillMail(p);
      status.textContent = "Saved.";
      toast("Mail settings saved.");
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      save.disabled = false;
    }
  });
  form._sync = sync;
  return h("section.card#notifications", { "aria-labelledby": "mail-title" }, [h("h2#mail-title", { text: "Mail settings" }), form]);
}

function fillMail(p) {
  const form = $("#mail-form");
  if (!form || !p) return;
  const r = form.querySelector(`input[name=mail-mode][value="${p.mode}"]`);
  if (r) r.checked = true;
  const sel = $("#digest-hours");
  if (p.digest_hours) {
    const v = String(p.digest_hours);
    if (![...sel.options].some((o) => o.value === v)) sel.appendChild(h("option", { value: v, text: `every ${v} h` }));
    sel.value = v;
  }
  const st = $("#mail-status");
  if (st) st.textContent = p.email ? `Mail goes to ${p.email}.` : "";
  form._sync();
}

async function loadMailSettings() {
  try {
    fillMail(await api.notifications());
  } catch (e) {
    const err = $("#mail-error");
    if (err) err.textContent = e.status === 503 ? "Mail is not running on this server." : e.message;
  }
}

async function loadScenarios(me) {
  const host = $("#scenarios");
  let list;
  try {
    list = await api.scenarios();
  } catch (e) {
    clear(host).appendChild(h("p.form-error", { text: e.message }));
    return;
  }
  clear(host);
  if (!list.length) host.appendChild(h("p.empty", { text: "No scenarios are installed." }));
  for (const s of learningFirst(list)) {
    const card = h("article.scenario", { "data-scenario": s.id, "aria-labelledby": `sc-${s.id}` });
    const preview = h("div.preview", { "aria-hidden": "false" });
    const info = h("div");
    add(card, preview, info);
    host.appendChild(card);
    api
      .scenario(s.id)
      .then((answer) => {
        let full = answer;
        // the counters read, and the hexes are marked, as the scenario's edition has them (editions/index.js)
        const edition = editionFor(full.ruleset || s.ruleset);
        if (edition.scenario) full = edition.scenario(full); // the map's shapes
        scenarioCache.set(s.id, full);
        const mv = new MapView(preview, full, { preview: true, hexSize: 20, reading: edition.counter, marks: edition.mapMarks });
        mv.setView(setupView(full));
        fillScenario(info, s, full, me);
      })
      .catch((e) => {
        fillScenario(info, s, null, me);
        preview.appendChild(h("p.empty", { text: e.message }));
      });
  }
}

/** The learning battles first (each edition's, by the edition's name), then the others in the server's order. */
function learningFirst(list) {
  const learning = list.filter((s) => s.learning).sort((a, b) => editionTitle(a).localeCompare(editionTitle(b)));
  return [...learning, ...list.filter((s) => !s.learning)];
}

/** The name of the edition a scenario is played by, as the server gives it (its `ruleset_title`). */
function editionTitle(s) {
  const ruleset = s.ruleset || editionFor(s.ruleset).name; // a scenario naming none is played by the default edition
  return s.ruleset_title || RULESETS[ruleset] || ruleset;
}

function fillScenario(info, s, full, me) {
  const sides = (full && full.sides) || Object.fromEntries(Object.entries(s.sides || {}).map(([k, v]) => [k, { name: v }]));
  const briefing = (full && full.briefing) || {};
  const sideSelect = h("select", { name: "side", "aria-label": `Side to play in ${s.title}` }, [
    h("option", { value: "random", text: "Random side" }),
    ...Object.entries(sides).map(([id, sd]) => h("option", { value: id, text: sd.name || id })),
  ]);
  const visSelect = h("select", { name: "visibility", "aria-label": "Who may join" }, [
    h("option", { value: "private", text: "Private (invite link)" }),
    h("option", { value: "open", text: "Open (anyone may join)" }),
  ]);
  const timeSelect = h("select", { name: "decision_hours", "aria-label": `Time per decision in ${s.title}` }, [
    h("option", { value: "", text: "No time limit" }),
    h("option", { value: "24", text: "24 hours" }),
    h("option", { value: "72", text: "72 hours" }),
    h("option", { value: "168", text: "7 days" }),
  ]);
  const opponentSelect = h("select", { name: "opponent", "aria-label": `Opponent in ${s.title}` }, [
    h("option", { value: "", text: "A person (invite link)" }),
    h("option", { value: "greedy", text: "The computer (greedy)" }),
    h("option", { value: "search", text: "The computer (searching ahead)" }),
    h("option", { value: "random", text: "The computer (random moves)" }),
  ]);
  // the editions a game of it may be played under (issue 41): its own first, then those it also declares; a select
  // only when there is a choice. The game options (e.g. 17.3's free set-up) are the chosen edition's: a checkbox each.
  const ruleset = s.ruleset || editionFor(s.ruleset).name; // a scenario naming none is played by the default edition
  const editions = s.rulesets && s.rulesets.length ? s.rulesets : [{ ruleset, title: editionTitle(s), options: s.options || {} }];
  const editionSelect = editions.length > 1
    ? h("select", { name: "ruleset", "aria-label": `Rules edition for ${s.title}` }, editions.map((e) => h("option", { value: e.ruleset, text: e.title })))
    : null;
  const chosenEdition = () => editions.find((e) => e.ruleset === (editionSelect ? editionSelect.value : ruleset)) || editions[0];
  const optionHost = h("span.game-options", { style: "display:contents" });
  const editionChip = h(`span.edition.edition-${ruleset}`, { "data-ruleset": ruleset, text: editionTitle(s) });
  const showEdition = () => {
    const e = chosenEdition();
    editionChip.className = `edition edition-${e.ruleset}`;
    editionChip.dataset.ruleset = e.ruleset;
    editionChip.textContent = e.title;
    add(clear(optionHost), ...Object.entries(e.options || {}).map(([name, o]) => h("label.field.game-option", { title: o.text || "" }, [
      h("input", { type: "checkbox", name: `option-${name}`, "data-option": name, "aria-label": `${o.label} (rule ${o.rule})` }),
      ` ${o.label} (rule ${o.rule})`,
    ])));
  };
  if (editionSelect) editionSelect.addEventListener("change", showEdition);
  showEdition();
  // Rated (issue 44): the result moves both players' ratings in the edition; never against the computer.
  const ratedBox = h("input", { type: "checkbox", name: "rated", checked: true, "aria-label": `Rated game of ${s.title}` });
  const ratedField = h("label.field.rated-field", { title: "A rated game's result moves both players' Glicko-2 ratings in its edition. Games against the computer are never rated." }, [ratedBox, " Rated"]);
  const syncRated = () => {
    const computer = !!opponentSelect.value;
    ratedBox.disabled = computer;
    if (computer) ratedBox.checked = false;
    else if (!ratedBox.dataset.touched) ratedBox.checked = true;
  };
  ratedBox.addEventListener("change", () => { ratedBox.dataset.touched = "1"; });
  opponentSelect.addEventListener("change", syncRated);
  syncRated();
  const createBtn = h("button.btn.primary", { type: "button", text: "Create game", "aria-label": `Create a game of ${s.title}` });
  createBtn.addEventListener("click", async () => {
    createBtn.disabled = true;
    try {
      const computer = opponentSelect.value || null;
      const options = Object.fromEntries([...optionHost.querySelectorAll("input[data-option]")].filter((b) => b.checked).map((b) => [b.dataset.option, true]));
      const edition = editionSelect ? editionSelect.value : null;
      const g = await api.createGame(s.id, sideSelect.value, visSelect.value, timeSelect.value ? Number(timeSelect.value) : null, computer, options, edition, computer ? null : ratedBox.checked);
      if (computer) {
        // The computer joined at once: the game has started; go and play it.
        location.href = `/games/${encodeURIComponent(g.id)}`;
        return;
      }
      await contributeToDice(g.id);
      toast(`Game created. Share the invite link with your opponent.`);
      await loadGames(me, g.id);
      showInvite(g.id);
    } catch (e) {
      toast(e.message, { kind: "error" });
    } finally {
      createBtn.disabled = false;
    }
  });
  const details = h("details", {}, [
    h("summary", { text: "Side briefings" }),
    ...Object.entries(sides).map(([id, sd]) => (briefing[id] ? h("p.briefing", {}, [h("b", { text: `${sd.name || id}: ` }), briefing[id]]) : null)),
  ]);
  add(clear(info),
    s.learning ? h("div.scenario-kind", { text: `Learning battle — ${editionTitle(s)}` }) : null,
    h(`h3#sc-${s.id}`, { text: s.title }),
    s.subtitle ? h("div.subtitle", { text: s.subtitle }) : null,
    h(
      "div.sides",
      {},
      Object.entries(sides).map(([id, sd]) => h("span.chip", { style: `background:${sd.color || "#ccc"};color:${sd.text_color || "#fff"}`, text: sd.name || id })),
    ),
    h("p.briefing", { text: briefing.general || "" }),
    Object.keys(briefing).length > 1 ? details : null,
    h("div.muted.scenario-terms", { style: "font-size:13px" }, [
      `${s.turns || (full && full.turns) || "?"} turns · Rules: `,
      editionChip,
    ]),
    h("div.create-row", {}, [editionSelect ? h("label.field", {}, ["Rules", editionSelect]) : null, h("label.field", {}, ["Play as", sideSelect]), h("label.field", {}, ["Opponent", opponentSelect]), h("label.field", {}, ["Visibility", visSelect]), h("label.field", {}, ["Time per decision", timeSelect]), ratedField, optionHost, createBtn]),
  );
}

function sideName(game, side) {
  // The game's own names first: they arrive with the game list, before any scenario is fetched.
  if (game.side_names && game.side_names[side]) return game.side_names[side];
  const sc = game.scenario && scenarioCache.get(game.scenario);
  return (sc && sc.sides[side] && sc.sides[side].name) || side;
}

function gameItem(g, me, highlight) {
  const over = g.status === "over" || g.status === "finished";
  const waitingJoin = g.status === "waiting";
  let badge;
  let sub;
  const opp = Object.entries(g.seats || {}).find(([side]) => side !== g.your_side);
  const oppName = opp && opp[1] ? playerTag(g, opp[0]) : "?";
  if (over) {
    badge = h("span.badge.over", { text: "Over" });
    const r = g.result || {};
    sub = r.winner ? `${sideName(g, r.winner)} won${r.reason ? ` (${r.reason})` : ""}` : `Draw${r.reason ? ` (${r.reason})` : ""}`;
  } else if (waitingJoin) {
    badge = h("span.badge.wait", { text: "Waiting for opponent" });
    sub = `You play ${sideName(g, g.your_side)} · created ${since(g.created_at)}`;
  } else if (g.your_turn) {
    badge = h("span.badge.move", { text: "Your move" });
    sub = [`You play ${sideName(g, g.your_side)} vs `, oppName, ` · waiting ${g.awaiting_since ? lasting(g.awaiting_since) : ""}`];
  } else {
    badge = h("span.badge", { text: "Their move" });
    sub = [`You play ${sideName(g, g.your_side)} vs `, oppName, ` · ${g.awaiting_user || sideName(g, g.awaiting)} to act${g.awaiting_since ? ` for ${lasting(g.awaiting_since)}` : ""}`];
  }
  const li = h(`li.game-item${g.your_turn ? ".your-move" : ""}`, { "data-game": g.id }, [
    h("div.gi-main", {}, [h("div.gi-title", {}, [g.title || g.scenario, " ", badge]), h("div.gi-sub", {}, [].concat(sub))]),
    h("a.btn.small.primary", { href: `/games/${g.id}`, text: over ? "Replay" : "Open", "aria-label": `Open game ${g.title || g.id}` }),
  ]);
  if (waitingJoin && g.invite_token) {
    const link = `${location.origin}/games/${g.id}?invite=${g.invite_token}`;
    const input = h("input", { value: link, readonly: true, "aria-label": "Invite link", onfocus: (e) => e.target.select() });
    const copy = h("button.btn.small", {
      type: "button",
      text: "Copy invite link",
      "data-copy": link,
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          toast("Invite link copied.");
        } catch (_) {
          input.select();
          document.execCommand && document.execCommand("copy");
          toast("Select the link and copy it.");
        }
      },
    });
    li.querySelector(".gi-main").appendChild(h("div.invite", {}, [input, copy]));
  }
  if (highlight) li.style.outline = "3px solid var(--sky)";
  return li;
}

/** The new game's invite link, brought into view wherever the creator was on the page (its button may be far
 *  down the list of battles) and selected, ready to copy. */
function showInvite(gameId) {
  const input = main.querySelector(`#my-games li[data-game="${CSS.escape(gameId)}"] .invite input`);
  if (!input) return;
  input.scrollIntoView({ block: "center" });
  input.focus({ preventScroll: true });
}

/** The open games narrowed to a range of their creator's rating in the game's edition (issue 44): the server
 *  filters (`min_rating`, `max_rating`) and names a bad range. */
const ratingRange = {};
function ratingFilter(me) {
  const bound = (id, label) => h(`input#${id}`, { type: "number", min: 0, max: 5000, step: 1, inputmode: "numeric", placeholder: "any", "aria-label": `${label} of the open games' creators` });
  const low = bound("rating-min", "Lowest rating");
  const high = bound("rating-max", "Highest rating");
  const err = h("div.form-error#rating-filter-error", { role: "alert", "aria-live": "assertive" });
  const form = h("form.rating-filter#rating-filter", { "aria-label": "Filter the open games by their creator's rating" }, [
    h("label.field", {}, ["Rating from", low]),
    h("label.field", {}, ["to", high]),
    h("button.btn.small#rating-apply", { type: "submit", text: "Filter" }),
    h("button.btn.small#rating-clear", { type: "button", text: "Any rating", onclick: () => { low.value = ""; high.value = ""; form.requestSubmit(); } }),
    err,
  ]);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    ratingRange.min_rating = low.value.trim();
    ratingRange.max_rating = high.value.trim();
    loadGames(me);
  });
  return form;
}

async function loadGames(me, highlightId = null) {
  let data;
  const filterError = $("#rating-filter-error");
  try {
    data = await api.games(ratingRange);
    if (filterError) filterError.textContent = "";
  } catch (e) {
    if (filterError && e.status === 422) {
      filterError.textContent = e.message;
      return;
    }
    toast(e.message, { kind: "error" });
    return;
  }
  const rank = (g) => (g.your_turn ? 0 : g.status === "active" ? 1 : g.status === "waiting" ? 2 : 3);
  for (const g of [...(data.mine || []), ...(data.open || [])]) {
    scenarioOfGame.set(g.id, g.scenario);
    if (g.side_names) sideNamesOfGame.set(g.id, g.side_names);
  }
  const mine = [...(data.mine || [])].sort((a, b) => rank(a) - rank(b) || String(a.awaiting_since || a.updated_at).localeCompare(String(b.awaiting_since || b.updated_at)));
  const ul = clear($("#my-games"));
  if (!mine.length) ul.appendChild(h("li.empty", { text: "No games yet: create one from a scenario." }));
  for (const g of mine) ul.appendChild(gameItem(g, me, g.id === highlightId));
  if (lastAwaiting) renderYourMove(lastAwaiting);
  const ol = clear($("#open-games"));
  const open = (data.open || []).filter((g) => !g.your_side);
  const filtered = ratingRange.min_rating || ratingRange.max_rating;
  if (!open.length) ol.appendChild(h("li.empty", { text: filtered ? "No open games in that rating range." : "No open games right now." }));
  for (const g of open) {
    const free = Object.entries(g.seats || {}).find(([, u]) => !u);
    const host = Object.entries(g.seats || {}).find(([, u]) => u);
    const li = h("li.game-item", { "data-game": g.id }, [
      h("div.gi-main", {}, [
        h("div.gi-title", { text: g.title || g.scenario }),
        h("div.gi-sub", {}, [host ? playerTag(g, host[0]) : "?", ` plays ${host ? sideName(g, host[0]) : "?"}; ${free ? sideName(g, free[0]) + " is free" : "full"}${g.rated ? " · rated" : " · unrated"}`]),
        h("div.gi-sub.gi-terms", { text: termsText(g) }),
      ]),
      free
        ? h("button.btn.small.primary", {
            type: "button",
            text: "Join",
            "aria-label": `Join ${g.title || g.id}`,
            onclick: async () => {
              try {
                // the server's commitment first, then this seat's own random value for the dice
                const seen = await api.game(g.id, {});
                const contribution = newContribution();
                await api.joinGame(g.id, null, contribution);
                rememberContribution(g.id, contribution);
                toast(`Dice: the server committed to ${seen.view.seed_hash.slice(0, 12)}…; your browser added its own random value.`);
                location.href = `/games/${g.id}`;
              } catch (e) {
                toast(e.message, { kind: "error" });
              }
            },
          })
        : null,
      h("a.btn.small", { href: `/games/${g.id}`, text: "Watch" }),
    ]);
    ol.appendChild(li);
  }
  watchList($("#live-games"), data.live || [], { sideName, empty: "No open games are being played right now." });
  watchList($("#finished-games"), data.finished || [], { sideName, empty: "No finished open games yet." });
}

boot();

/** The creator's own contribution to the dice (docs/dice.md): read the server's commitment (the seed hash)
 *  of the new game first, then send 32 random bytes drawn in this browser. */
async function contributeToDice(gameId) {
  try {
    const seen = await api.game(gameId, {});
    if (!seen.view || !seen.view.seed_hash) return;
    const contribution = newContribution();
    await api.contribute(gameId, contribution);
    rememberContribution(gameId, contribution);
  } catch (e) {
    toast(`Your browser could not add its random value to the dice: ${e.message}`, { kind: "error" });
  }
}
