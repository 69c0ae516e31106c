// The JSON API, same-origin with the session cookie. Errors are thrown as
// ApiError carrying the server's {"error", "message", "rule"?} body.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = (body && body.error) || "http_error";
    this.rule = body && body.rule;
    this.body = body || {};
  }
}

async function request(method, path, body, { query } = {}) {
  let url = path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
    const s = q.toString();
    if (s) url += (url.includes("?") ? "&" : "?") + s;
  }
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, { error: "network", message: "The server could not be reached. Check your connection." });
  }
  if (res.status === 204) return null;
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (_) {
      data = { error: "bad_response", message: text.slice(0, 200) };
    }
  }
  if (!res.ok) {
    // FastAPI validation errors come as {"detail": [...]}
    if (data && !data.message && data.detail) {
      const d = Array.isArray(data.detail) ? data.detail.map((x) => `${(x.loc || []).slice(1).join(".")}: ${x.msg}`).join("; ") : String(data.detail);
      data = { error: "invalid", message: d };
    }
    throw new ApiError(res.status, data);
  }
  return data;
}

/** Query parameters a spectator link carries (?watch= / ?invite=) so private games stay readable. */
export function accessParams() {
  const p = new URLSearchParams(location.search);
  const out = {};
  if (p.get("watch")) out.watch = p.get("watch");
  if (p.get("invite")) out.invite = p.get("invite");
  return out;
}

export const api = {
  me: () => request("GET", "/api/me"),
  register: (username, password, email) => request("POST", "/api/users", { username, password, email }),
  login: (username, password) => request("POST", "/api/session", { username, password }),
  logout: () => request("DELETE", "/api/session"),
  scenarios: () => request("GET", "/api/scenarios"),
  // With a game: the scenario as this viewer may read it there (a seat gets its own hidden reinforcements).
  scenario: (id, game = null, access = accessParams()) => request("GET", `/api/scenarios/${encodeURIComponent(id)}`, undefined, { query: game ? { game, ...access } : undefined }),
  // computer_level: null for a person (invite link), else "random" | "greedy" | "search" (the computer takes the other seat)
  // options: the game's options the scenario offers (its listing's `options`, e.g. {free_setup: true})
  // ruleset: one of the scenario's listed editions (`rulesets`); null: the scenario's own
  // rated: whether the result moves both players' ratings (null: the server's default, rated between two people)
  createGame: (scenario, side = "random", visibility = "private", decision_hours = null, computer_level = null, options = null, ruleset = null, rated = null) =>
    request("POST", "/api/games", {
      scenario, side, visibility,
      ...(rated === null ? {} : { rated }),
      ...(ruleset ? { ruleset } : {}),
      ...(decision_hours ? { decision_hours } : {}),
      ...(computer_level ? { opponent: "computer", computer_level } : {}),
      ...(options && Object.keys(options).length ? { options } : {}),
    }),
  // contribution: this seat's own random value for the dice (web/js/ui/fairness.js, docs/dice.md)
  joinGame: (id, invite_token, contribution = null) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/join`, { ...(invite_token ? { invite_token } : {}), ...(contribution ? { contribution } : {}) }),
  contribute: (id, contribution) => request("POST", `/api/games/${encodeURIComponent(id)}/contribution`, { contribution }),
  record: (id, access = accessParams()) => request("GET", `/api/games/${encodeURIComponent(id)}/record`, undefined, { query: access }),
  // filter: {min_rating, max_rating} narrows the open games to their creator's rating (issue 44)
  games: (filter = {}) => request("GET", "/api/games", undefined, { query: filter }),
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}`),
  game: (id, access = accessParams()) => request("GET", `/api/games/${encodeURIComponent(id)}`, undefined, { query: access }),
  options: (id, units) => request("GET", `/api/games/${encodeURIComponent(id)}/options`, undefined, { query: { units: units.join(",") } }),
  preview: (id, command) => request("GET", `/api/games/${encodeURIComponent(id)}/preview`, undefined, { query: { command: JSON.stringify(command) } }),
  command: (id, command, expected_version, command_id) => request("POST", `/api/games/${encodeURIComponent(id)}/commands`, { command, expected_version, command_id }),
  undo: (id, expected_version, command_id) => request("POST", `/api/games/${encodeURIComponent(id)}/undo`, { expected_version, command_id }),
  resign: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/resign`),
  history: (id, at, access = accessParams()) => request("GET", `/api/games/${encodeURIComponent(id)}/history`, undefined, { query: { at, ...access } }),
  // asynchronous play (docs/api.md "Asynchronous play")
  awaiting: () => request("GET", "/api/me/awaiting"),
  notifications: () => request("GET", "/api/me/notifications"),
  setNotifications: (mode, digest_hours) => request("PUT", "/api/me/notifications", digest_hours ? { mode, digest_hours } : { mode }),
  clock: (id, access = accessParams()) => request("GET", `/api/games/${encodeURIComponent(id)}/clock`, undefined, { query: access }),
  claim: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/claim`),
  extend: (id, hours = null) => request("POST", `/api/games/${encodeURIComponent(id)}/extend`, hours ? { hours } : {}),
  pause: (id, days) => request("POST", `/api/games/${encodeURIComponent(id)}/pause`, { days }),
  acceptPause: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/pause/accept`),
  declinePause: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/pause/decline`),
  resume: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/resume`),
  standingOrders: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/standing-orders`),
  setStandingOrders: (id, orders) => request("PUT", `/api/games/${encodeURIComponent(id)}/standing-orders`, orders),
  // the players' table (issue 44): messages in the game, the mute, the private note
  messages: (id, at = null, access = accessParams()) => request("GET", `/api/games/${encodeURIComponent(id)}/messages`, undefined, { query: { at, ...access } }),
  say: (id, text, access = accessParams()) => request("POST", `/api/games/${encodeURIComponent(id)}/messages`, { text }, { query: access }),
  mute: (id, muted) => request("PUT", `/api/games/${encodeURIComponent(id)}/mute`, { muted }),
  note: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/note`),
  setNote: (id, text) => request("PUT", `/api/games/${encodeURIComponent(id)}/note`, { text }),
  adminMessages: (id) => request("GET", `/api/admin/games/${encodeURIComponent(id)}/messages`),
  removeMessage: (messageId) => request("DELETE", `/api/admin/messages/${encodeURIComponent(messageId)}`),
  adminGames: () => request("GET", "/api/admin/games", undefined, { query: { views: "false", limit: 500 } }),
};

export function newCommandId() {
  // Unpredictable ids only: randomUUID (secure contexts), else 128 bits from getRandomValues.
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "c-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
