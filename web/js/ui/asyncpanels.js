// The game page's panels for asynchronous play: the decision clock (deadline, overdue,
// pause, claim / extend) and the seat's standing orders. Both are refreshed by core/sync.js
// after every websocket patch, and the clock whenever the websocket says it changed (a pause
// asked for, answered or ended, more time granted: no patch carries those). Routes: docs/api.md
// "Asynchronous play".

import { api } from "../api.js";
import { h, svg, clear, add } from "./dom.js";
import { toast, confirmDialog } from "./chrome.js";
import { duration, dateText as when } from "./awaiting.js";

const ORDER_TEXT = {
  retreat: {
    label: "Retreats",
    values: { ask: "Ask me", longest_safe: "Longest safe retreat", shortest_safe: "Shortest safe retreat" },
  },
  advance: {
    label: "Advance after combat",
    values: { ask: "Ask me", never: "Never advance", always_primary: "Advance with the main attacker only", always: "Always advance" },
  },
  counterattack: { label: "Counterattacks", values: { ask: "Ask me", never: "Never counterattack" } },
  defenders: { label: "Choosing defenders", values: { ask: "Ask me", strongest: "Strongest stack (leader first)" } },
  loss: { label: "Taking a loss", values: { ask: "Ask me", weakest: "Weakest unit takes it" } },
};

/** Small state icons drawn in SVG (emoji clocks are missing from many fonts); shape carries the meaning. */
function icon(kind) {
  const kids = {
    clock: [svg("circle", { cx: 8, cy: 8, r: 6.5, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }), svg("path", { d: "M8 4 V8 L11 10", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" })],
    pause: [svg("rect", { x: 3.5, y: 3, width: 3, height: 10, fill: "currentColor" }), svg("rect", { x: 9.5, y: 3, width: 3, height: 10, fill: "currentColor" })],
    late: [svg("path", { d: "M8 1.5 L15 14 H1 Z", fill: "#d55e00", stroke: "#1f1d1a", "stroke-width": 1 }), svg("path", { d: "M8 6 V10", stroke: "#fff", "stroke-width": 1.8, "stroke-linecap": "round" }), svg("circle", { cx: 8, cy: 12, r: 1, fill: "#fff" })],
  }[kind];
  return svg("svg", { class: `clock-icon ${kind}`, viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" }, kids);
}

/** "2 days 5 h", "5 h 12 min", "4 min 10 s" */
function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} day${d > 1 ? "s" : ""} ${hh} h`;
  if (hh) return `${hh} h ${m} min`;
  return `${m} min ${s % 60} s`;
}

/** The period per decision as chosen at creation: "24 h", "72 h", "7 days". */
function period(hours) {
  return hours >= 168 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} h`;
}

export class AsyncPanels {
  /** ctx: {gameId, S, sideName(side), onError(err)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.clock = null;
    this.orders = null;
    this.ordersDirty = false;
    this.busy = false;
    this.clockReq = null;
    this.tick = setInterval(() => this.updateCountdown(), 1000);
  }

  get seat() {
    return this.ctx.S.role === "seat" ? this.ctx.S.side : null;
  }

  /** Reload the clock (and the orders, once); call after each patch and each clock change. */
  async refresh() {
    if (this.clockReq) {
      this.clockStale = true; // the read in flight may have started before the change that asks for this one
      return this.clockReq;
    }
    this.clockReq = (async () => {
      try {
        this.clock = await api.clock(this.ctx.gameId);
      } catch (_) {
        this.clock = null; // no clock for this viewer / notifications not running
      }
      this.renderClock();
      if (this.seat && this.orders === null) await this.loadOrders();
      else if (this.orders && this.ordersClosed !== this.battleOver) this.renderOrders(); // the battle just ended
    })().finally(() => {
      this.clockReq = null;
      if (this.clockStale) {
        this.clockStale = false;
        this.refresh();
      }
    });
    return this.clockReq;
  }

  async act(fn, okText) {
    if (this.busy) return;
    this.busy = true;
    try {
      const ans = await fn();
      if (ans && "decision_hours" in ans) this.clock = ans;
      if (okText) toast(okText);
    } catch (e) {
      this.ctx.onError(e);
    } finally {
      this.busy = false;
    }
    await this.refresh();
  }

  // -------------------------------------------------------------- clock

  renderClock() {
    const sec = document.getElementById("sec-clock");
    if (!sec) return;
    const c = this.clock;
    const over = this.battleOver;
    if (!c || (!c.decision_hours && !c.pause_request && !c.paused_until)) {
      sec.hidden = true;
      return;
    }
    sec.hidden = false;
    clear(sec);
    const { sideName, gameId } = this.ctx;
    const me = this.seat;
    const who = (side) => (side && side === me ? "You" : sideName(side));
    sec.classList.toggle("overdue", !!c.overdue);
    sec.classList.toggle("paused", !!c.paused_until);
    add(sec, h("h3", {}, ["Clock", c.decision_hours ? h("span.clock-period", { text: `${period(c.decision_hours)} per decision` }) : null]));

    const line = h("div.clock-line#clock-deadline", { role: "status" });
    if (over) {
      line.textContent = "The battle is over: the clock has stopped.";
    } else if (c.paused_until) {
      add(line, icon("pause"), h("span", { text: `Paused until ${when(c.paused_until)}. No reminders or expiry until then.` }));
    } else if (c.overdue) {
      add(
        line,
        icon("late"),
        h("span", {}, [h("b", { text: "Overdue: " }), `${who(c.waiting_for)} ${c.waiting_for === me ? "were" : "was"} due to decide by ${when(c.deadline_at)}`, c.overdue_since ? ` (late by ${duration((Date.now() - Date.parse(c.overdue_since)) / 1000)})` : "", "."]),
      );
    } else if (c.deadline_at) {
      add(
        line,
        icon("clock"),
        h("span", {}, [`${who(c.waiting_for)} must decide by ${when(c.deadline_at)}: `, h("b#clock-left", { text: "" }), " left."]),
      );
    } else {
      line.textContent = "The clock starts with the first decision.";
    }
    sec.appendChild(line);

    const acts = h("div.actions.clock-actions");
    const pr = c.pause_request;
    if (pr && !over) {
      const mine = me && pr.by === me;
      const box = h("div.clock-note#pause-request", {}, [
        mine ? `You asked for a ${pr.days}-day pause; waiting for your opponent's answer.` : `${sideName(pr.by)} asks for a ${pr.days}-day pause.`,
      ]);
      sec.appendChild(box);
      if (me && !mine) {
        acts.append(
          h("button.btn.small.primary#pause-accept", { type: "button", text: "Accept pause", "aria-label": `Accept the ${pr.days}-day pause`, onclick: () => this.act(() => api.acceptPause(gameId), "Pause accepted.") }),
          h("button.btn.small#pause-decline", { type: "button", text: "Decline", "aria-label": "Decline the pause", onclick: () => this.act(() => api.declinePause(gameId), "Pause declined.") }),
        );
      } else if (mine) {
        acts.append(h("button.btn.small#pause-withdraw", { type: "button", text: "Withdraw request", "aria-label": "Withdraw your pause request", onclick: () => this.act(() => api.declinePause(gameId), "Pause request withdrawn.") }));
      }
    }
    if (me && !over) {
      if (c.can_claim) {
        acts.append(
          h("button.btn.small.danger#claim-win", {
            type: "button",
            text: "Claim the win",
            "aria-label": "Claim the win: your opponent is overdue",
            onclick: async () => {
              if (!(await confirmDialog("Claim the win?", `${sideName(c.waiting_for)} did not decide in time. Claiming ends the battle now with you as the winner.`, { ok: "Claim the win" }))) return;
              this.act(() => api.claim(gameId), "You claimed the win.");
            },
          }),
        );
      }
      if (c.can_extend) {
        acts.append(
          h("button.btn.small#grant-time", {
            type: "button",
            text: `Grant more time (+${period(c.decision_hours)})`,
            "aria-label": `Grant your opponent ${period(c.decision_hours)} more`,
            onclick: () => this.act(() => api.extend(gameId), "More time granted."),
          }),
        );
      }
      if (c.paused_until) {
        acts.append(h("button.btn.small#resume", { type: "button", text: "Resume now", "aria-label": "End the pause now", onclick: () => this.act(() => api.resume(gameId), "The clock runs again.") }));
      } else if (!pr && c.decision_hours) {
        const days = h("input#pause-days", { type: "number", min: 1, max: 60, value: 3, "aria-label": "Pause length in days", style: "width:4.5em" });
        acts.append(
          h("span.pause-ask", {}, [
            days,
            h("button.btn.small#pause-ask", {
              type: "button",
              text: "Ask for a pause (days)",
              "aria-label": "Ask your opponent for a pause of that many days",
              onclick: () => {
                const n = Math.round(Number(days.value));
                if (!(n >= 1 && n <= 60)) {
                  toast("A pause is 1 to 60 days.", { kind: "error" });
                  return;
                }
                this.act(() => api.pause(gameId, n), `Asked for a ${n}-day pause.`);
              },
            }),
          ]),
        );
      }
    }
    if (acts.childNodes.length) sec.appendChild(acts);
    this.updateCountdown();
  }

  get battleOver() {
    const v = this.ctx.S.view;
    return !v || v.phase === "over";
  }

  updateCountdown() {
    const el = document.getElementById("clock-left");
    const c = this.clock;
    // a pause ends by itself, with no message: read the clock again once its time is up (once per pause)
    if (c && c.paused_until && Date.parse(c.paused_until) <= Date.now() && this.pauseChecked !== c.paused_until) {
      this.pauseChecked = c.paused_until;
      this.refresh();
    }
    if (!el || !c || !c.deadline_at) return;
    const left = (Date.parse(c.deadline_at) - Date.now()) / 1000;
    el.textContent = countdown(left);
    if (left <= 0 && !c.overdue && !this.clockReq) setTimeout(() => this.refresh(), 2000); // the scheduler marks it soon
  }

  // ------------------------------------------------------ standing orders

  async loadOrders() {
    try {
      this.orders = await api.standingOrders(this.ctx.gameId);
    } catch (_) {
      this.orders = null;
      return;
    }
    this.renderOrders();
  }

  renderOrders() {
    const sec = document.getElementById("sec-orders");
    if (!sec) return;
    const o = this.orders;
    if (!this.seat || !o) {
      sec.hidden = true;
      return;
    }
    sec.hidden = false;
    clear(sec);
    // after the battle nothing is left to answer: the orders are shown as they stood, and the server refuses changes
    const closed = (this.ordersClosed = this.battleOver);
    const status = h("span.whose-sub#orders-status", { "aria-live": "polite" });
    const selects = {};
    const rows = Object.entries(o.choices || {}).map(([name, values]) => {
      const t = ORDER_TEXT[name] || { label: name, values: {} };
      const sel = h(
        "select",
        { name, "data-order": name, "aria-label": `Standing order: ${t.label}`, disabled: closed },
        values.map((v) => h("option", { value: v, text: t.values[v] || v.replace(/_/g, " ") })),
      );
      sel.value = (o.orders && o.orders[name]) || "ask";
      sel.addEventListener("change", () => {
        status.textContent = "Not saved yet.";
      });
      selects[name] = sel;
      return h("label.field", {}, [t.label, sel]);
    });
    const save = h("button.btn.small.primary#orders-save", {
      type: "button",
      text: "Save standing orders",
      "aria-label": "Save standing orders",
      onclick: async () => {
        save.disabled = true;
        try {
          const body = Object.fromEntries(Object.entries(selects).map(([k, s]) => [k, s.value]));
          const ans = await api.setStandingOrders(this.ctx.gameId, body);
          this.orders = { ...o, orders: ans.orders };
          this.keepOpen = true;
          this.renderOrders();
          const st = document.getElementById("orders-status");
          if (st) st.textContent = "Saved.";
          toast("Standing orders saved.");
        } catch (e) {
          this.ctx.onError(e);
        } finally {
          save.disabled = false;
        }
      },
    });
    const active = Object.values(o.orders || {}).filter((v) => v !== "ask").length;
    const det = h("details.orders#orders-details", { open: active > 0 || this.keepOpen || null }, [
      h("summary", {}, [h("b", { text: "Standing orders" }), h("span.whose-sub", { text: active ? ` · ${active} set` : " · none set" })]),
      closed
        ? h("p.whose-sub#orders-closed", { text: "The battle is over: these orders answer nothing more and can no longer be changed." })
        : h("p.whose-sub", { text: "Used only while you are away: when one of these small decisions falls to you and you do not have this game open, Vedette answers it for you as set here, and the log says so. “Ask me” always waits for you. Your opponent never sees these." }),
      h("div.orders-grid", {}, rows),
      closed ? null : h("div.actions", {}, [save, status]),
    ]);
    sec.appendChild(det);
  }
}
