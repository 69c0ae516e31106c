// Shared page chrome: the top bar, toasts, the confirm dialog.

import { h, clear } from "./dom.js";
import { api } from "../api.js";

export const LOGO = `<svg viewBox="0 0 24 24" aria-hidden="true"><polygon points="6,2 18,2 24,12 18,22 6,22 0,12" fill="#e69f00" stroke="#fff" stroke-width="1.2"/><path d="M7 7 L12 17 L17 7" fill="none" stroke="#1f1d1a" stroke-width="2.6" stroke-linejoin="round"/></svg>`;

/** Fill a <header class="topbar"> with brand, an optional middle part and the user menu. */
export function renderTopbar(el, me, middle = null) {
  clear(el);
  el.appendChild(h("a.brand", { href: "/", "aria-label": "Vedette lobby", html: `${LOGO}<span>Vedette</span>` }));
  if (middle) el.appendChild(middle);
  el.appendChild(h("div.spacer"));
  const user = h("div.user");
  if (me) {
    if (me.is_admin) user.appendChild(h("a", { href: "/admin", text: "Admin" }));
    user.appendChild(h("a.mail-link", { href: "/#notifications", text: "Mail settings", "aria-label": "Mail settings" }));
    // one's own name leads to one's profile (issue 44)
    user.appendChild(h("a.uname", { href: `/players/${encodeURIComponent(me.username)}`, text: me.username, "aria-label": `Logged in as ${me.username}: your profile` }));
    user.appendChild(
      h("button.btn.small", {
        type: "button",
        text: "Log out",
        "aria-label": "Log out",
        onclick: async () => {
          try {
            await api.logout();
          } finally {
            location.href = "/";
          }
        },
      }),
    );
  } else {
    user.appendChild(h("a.btn.small", { href: `/?next=${encodeURIComponent(location.pathname + location.search)}`, text: "Log in" }));
  }
  el.appendChild(user);
}

let toastHost = null;

export function toast(message, { kind = "info", rule = null, timeout = 6000 } = {}) {
  if (!toastHost) {
    toastHost = h("div.toast-host", { role: "status", "aria-live": "polite" });
    document.body.appendChild(toastHost);
  }
  const t = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, [message, rule ? h("span.rule", { text: `rule ${rule}` }) : null]);
  toastHost.appendChild(t);
  setTimeout(() => t.remove(), timeout);
  return t;
}

/** A modal confirmation; resolves true/false. */
export function confirmDialog(title, text, { ok = "Confirm", cancel = "Cancel" } = {}) {
  return new Promise((resolve) => {
    const dlg = h("dialog.confirm", { "aria-labelledby": "confirm-title" }, [
      h("h3#confirm-title", { text: title }),
      h("p", { text }),
      h("div.actions", {}, [
        h("button.btn", { type: "button", text: cancel, onclick: () => done(false) }),
        h("button.btn.primary", { type: "button", text: ok, "data-confirm": "ok", onclick: () => done(true) }),
      ]),
    ]);
    const done = (v) => {
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    dlg.addEventListener("cancel", (e) => {
      e.preventDefault();
      done(false);
    });
    document.body.appendChild(dlg);
    dlg.showModal();
    dlg.querySelector("[data-confirm=ok]").focus();
  });
}
