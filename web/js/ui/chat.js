// The players' table on the game page (issue 44): the game's messages (a seat reads and writes the seats' channel, a
// spectator the spectators'; once the game is over both are shown), the mute of the opponent's messages and the
// player's private note. Every text goes in as textContent: a message is shown as the characters it holds, never
// as markup. The socket only says that a channel changed ({"type": "chat"}); the messages are read anew here, as
// the server lets this viewer read them (docs/rulings.md "Messages in a game").

import { api } from "../api.js";
import { h, clear, $ } from "./dom.js";

const CHANNEL_TITLES = { seats: "Between the players", spectators: "Spectators" };

export class ChatPanel {
  /** ctx: {gameId, S, sideName(side), onError(err)}; `section`: the panel's element (#messages). */
  constructor(ctx, section) {
    this.ctx = ctx;
    this.section = section;
    this.data = null; // the last GET /api/games/{id}/messages
    this.reading = null;
    this.again = false;
    this.status = null;
    this.build();
  }

  get seat() {
    return this.ctx.S.role === "seat";
  }

  /** The panel's lasting parts, built once: the list, the form, the mute toggle and the note box (renders keep
   * what is being typed). */
  build() {
    const sec = clear(this.section);
    this.list = h("ol.chat-log#chat-log", { "aria-label": "Messages", "aria-live": "polite" });
    this.input = h("input#chat-input", { type: "text", maxlength: 500, autocomplete: "off", "aria-label": "Your message", placeholder: this.seat ? "Write to your opponent" : "Write to the other spectators" });
    this.sendButton = h("button.btn.small#chat-send", { type: "submit", text: "Send" });
    this.form = h("form.chat-form#chat-form", { onsubmit: (e) => { e.preventDefault(); this.send(); } }, [this.input, this.sendButton]);
    this.hint = h("p.whose-sub#chat-hint", { hidden: true });
    sec.append(h("h3", { text: "Messages" }), h("p.whose-sub#chat-channel"), this.list, this.form, this.hint);
    if (this.seat) {
      this.mute = h("input#chat-mute", { type: "checkbox", onchange: () => this.setMuted(this.mute.checked) });
      sec.append(h("label.chat-mute", {}, [this.mute, " Mute your opponent's messages in this game"]));
      this.note = h("textarea#note-text", { rows: 4, maxlength: 4000, "aria-label": "Your private note on this game" });
      this.noteStatus = h("span.whose-sub#note-status", { "aria-live": "polite" });
      this.note.addEventListener("input", () => {
        this.noteDirty = true;
        this.noteStatus.textContent = "";
      });
      sec.append(
        h("h3", { text: "Your note" }),
        h("p.whose-sub", { text: "Only you ever read this note: not your opponent, not the spectators, not the admin." }),
        this.note,
        h("div", {}, [h("button.btn.small#note-save", { type: "button", text: "Save note", onclick: () => this.saveNote() }), " ", this.noteStatus]),
      );
      this.loadNote();
    }
  }

  /** Read the messages anew (after a "chat" frame, a reconnect, the game's end). */
  async refresh() {
    if (this.reading) {
      this.again = true; // the read in flight may have started before the change that asks for this one
      return this.reading;
    }
    this.reading = (async () => {
      try {
        this.data = await api.messages(this.ctx.gameId);
      } catch (_) {
        this.data = null;
      }
      this.loaded = true;
      this.shown = null; // a new answer: draw it
      this.reading = null;
      this.render();
      if (this.again) {
        this.again = false;
        await this.refresh();
      }
    })();
    return this.reading;
  }

  /** Show the messages held: in a replay, those said up to the version shown. Cheap: called on every render. */
  render() {
    const S = this.ctx.S;
    const status = S.game && S.game.status;
    if (this.status !== null && status !== this.status) {
      this.status = status;
      this.refresh(); // the game just ended: both channels may be read now
      return;
    }
    this.status = status;
    const data = this.data;
    const at = S.history ? S.history.at : null;
    // Every patch redraws the page: the list is rebuilt only when what it shows changed (so a reader scrolled up
    // in it stays where it is).
    if (this.shown && this.shown.data === data && this.shown.at === at) return;
    this.shown = { data, at };
    clear(this.list);
    if (!data) {
      this.list.append(h("li.empty", { text: this.loaded ? "Messages cannot be read now." : "Reading the messages…" }));
      return;
    }
    const shown = data.messages.filter((m) => at === null || m.version <= at);
    const both = data.channels.length > 1;
    $("#chat-channel", this.section).textContent = both ? "Both channels: the players' and the spectators'." : `${CHANNEL_TITLES[data.post_channel]}${this.seat ? " (the spectators do not read these while the battle runs)" : " (the players do not read these while the battle runs)"}`;
    for (const m of shown) {
      const who = m.channel === "seats" ? `${this.ctx.sideName(m.side)} (${m.author})` : m.author;
      this.list.append(h(`li.chat-${m.channel}`, { "data-id": m.id, "data-version": m.version }, [
        both ? h("span.chat-channel", { text: `[${m.channel === "seats" ? "players" : "spectators"}] ` }) : null,
        h("strong.chat-who", { text: who }),
        ": ",
        h("span.chat-text", { text: m.text }),
      ]));
    }
    if (!shown.length) this.list.append(h("li.empty", { text: at === null ? "No messages yet." : "No messages yet at this point." }));
    this.list.scrollTop = this.list.scrollHeight;
    const canPost = data.can_post && at === null;
    this.form.hidden = !canPost;
    this.hint.hidden = data.can_post;
    this.hint.textContent = data.can_post ? "" : "Log in to write here.";
    if (this.mute) this.mute.checked = !!data.muted;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.sendButton.disabled = true;
    try {
      await api.say(this.ctx.gameId, text);
      this.input.value = "";
      await this.refresh();
    } catch (e) {
      this.ctx.onError(e);
    } finally {
      this.sendButton.disabled = false;
      this.input.focus();
    }
  }

  async setMuted(muted) {
    try {
      await api.mute(this.ctx.gameId, muted);
      await this.refresh();
    } catch (e) {
      this.ctx.onError(e);
    }
  }

  async loadNote() {
    try {
      const note = await api.note(this.ctx.gameId);
      if (!this.noteDirty) this.note.value = note.text;
    } catch (_) {
      /* not a seat after all */
    }
  }

  async saveNote() {
    try {
      const note = await api.setNote(this.ctx.gameId, this.note.value);
      this.note.value = note.text;
      this.noteDirty = false;
      this.noteStatus.textContent = "Saved";
    } catch (e) {
      this.ctx.onError(e);
    }
  }
}
