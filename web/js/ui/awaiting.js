// "Your move" everywhere: polls GET /api/me/awaiting, puts "(N) " in front of the page
// title and draws N as a badge on the favicon (a canvas-drawn PNG data URL). Both are
// cleared when nothing awaits you. Logged-out pages stop polling on the first 401.
// Also the words for times that every page shares: durations and dates.

import { api } from "../api.js";

const STATIC_ICON = "/static/favicon.svg";
const POLL_MS = 60000;
const listeners = new Set();
let timer = null;
let inflight = null;
let last = null;
let stopped = false;

/** "12 min", "3 h", "2 days" for a number of seconds. */
export function duration(seconds) {
  const s = Math.max(0, Number(seconds) || 0);
  if (s < 60) return "under a minute";
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400 * 2) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

// One way of writing a date on every page (the lobby's "paused until", the game's deadlines): the reader's
// own locale and time zone, as their browser knows them.
const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** "Thu 5 Mar, 14:30" (in the reader's locale) for an ISO time. */
export function dateText(iso) {
  return DATE_FORMAT.format(new Date(iso));
}

function iconLink() {
  let link = document.querySelector("link[rel~=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.href = STATIC_ICON;
    document.head.appendChild(link);
  }
  return link;
}

/** The Vedette hex logo with a badge, as a PNG data URL (or null when canvas is unavailable). */
export function badgeIcon(n) {
  const c = document.createElement("canvas");
  c.width = c.height = 64;
  const g = c.getContext && c.getContext("2d");
  if (!g) return null;
  // the logo: an orange hex with a dark V (same drawing as favicon.svg, scaled 24 -> 64)
  const k = 64 / 24;
  g.beginPath();
  [[6, 2], [18, 2], [24, 12], [18, 22], [6, 22], [0, 12]].forEach(([x, y], i) => (i ? g.lineTo(x * k, y * k) : g.moveTo(x * k, y * k)));
  g.closePath();
  g.fillStyle = "#e69f00";
  g.fill();
  g.lineWidth = 3;
  g.strokeStyle = "#1f1d1a";
  g.stroke();
  g.beginPath();
  g.moveTo(7 * k, 7 * k);
  g.lineTo(12 * k, 17 * k);
  g.lineTo(17 * k, 7 * k);
  g.lineWidth = 7;
  g.lineJoin = "round";
  g.stroke();
  // the badge: Okabe-Ito vermillion disc, white ring, white number (shape + number, not colour alone)
  const text = n > 99 ? "99+" : String(n);
  const r = text.length > 1 ? 20 : 17;
  const cx = 64 - r;
  const cy = r;
  g.beginPath();
  g.arc(cx, cy, r, 0, Math.PI * 2);
  g.fillStyle = "#d55e00";
  g.fill();
  g.lineWidth = 4;
  g.strokeStyle = "#ffffff";
  g.stroke();
  g.fillStyle = "#ffffff";
  g.font = `bold ${text.length > 2 ? 16 : text.length > 1 ? 22 : 26}px "DejaVu Sans", Arial, sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, cx, cy + 1);
  try {
    return c.toDataURL("image/png");
  } catch (_) {
    return null;
  }
}

/** Put N on the page title and the favicon; N = 0 clears both. */
export function showCount(n) {
  const base = document.title.replace(/^\(\d+\+?\)\s*/, "");
  document.title = n > 0 ? `(${n}) ${base}` : base;
  const link = iconLink();
  const url = n > 0 ? badgeIcon(n) : null;
  link.type = url ? "image/png" : "image/svg+xml";
  link.href = url || STATIC_ICON;
  document.documentElement.dataset.awaiting = String(n);
}

/** Ask the server now (coalesces concurrent calls); resolves to the answer or null. */
export function refreshAwaiting() {
  if (stopped) return Promise.resolve(null);
  if (inflight) return inflight;
  inflight = api
    .awaiting()
    .then((data) => {
      last = data;
      showCount(data.count || 0);
      for (const fn of listeners) {
        try {
          fn(data);
        } catch (e) {
          console.warn(e); // a listener's bug must not stop the badge
        }
      }
      return data;
    })
    .catch((e) => {
      if (e && (e.status === 401 || e.status === 403)) {
        stopped = true;
        clearInterval(timer);
        showCount(0);
      }
      return null;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Start polling (every 60 s and when the tab comes back); `onUpdate(data)` on every answer. */
export function startAwaiting(onUpdate = null) {
  if (onUpdate) listeners.add(onUpdate);
  if (last && onUpdate) onUpdate(last);
  if (timer === null) {
    timer = setInterval(refreshAwaiting, POLL_MS);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") refreshAwaiting();
    });
  }
  return refreshAwaiting();
}
