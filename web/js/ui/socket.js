// The game websocket with auto-reconnect (exponential backoff with jitter).
// Calls onMessage(msg) for every server message and onState(state) with
// "connecting" | "open" | "reconnecting" | "offline".

export class GameSocket {
  constructor(gameId, { query = {}, onMessage, onState } = {}) {
    this.gameId = gameId;
    this.query = query;
    this.onMessage = onMessage || (() => {});
    this.onState = onState || (() => {});
    this.attempt = 0;
    this.ws = null;
    this.closed = false;
    this.timer = null;
    this.pingTimer = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // batch=1: messages the server queued together come in one frame (docs/api.md), unpacked below.
    const q = new URLSearchParams({ ...this.query, batch: "1" }).toString();
    return `${proto}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}${q ? "?" + q : ""}`;
  }

  connect() {
    this.closed = false;
    this.onState(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onState("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      if (msg && msg.type === "batch" && Array.isArray(msg.messages)) {
        for (const one of msg.messages) this.onMessage(one);
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (ev.code === 4404) {
        this.onState("offline", "This game does not exist or is private.");
        return;
      }
      this.scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      /* close follows */
    });
  }

  scheduleReconnect() {
    this.attempt += 1;
    const base = Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = base * (0.75 + Math.random() * 0.5);
    this.onState("reconnecting", `retrying in ${Math.round(delay / 1000)} s`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drop the connection as if the network failed (used by tests and the "reconnect" button). */
  drop() {
    if (this.ws) this.ws.close(4000, "client drop");
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000, "bye");
  }
}
