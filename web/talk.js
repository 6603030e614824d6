// talk.js: a game's chat on the game page (`chat`). During the game its
// players talk in the players' channel and everyone else in the
// spectators' (akd decides by who sends); after it both are open to all.
// The history is read when the game is opened (the newest 100) and grows
// from the pushes. "Mute" is the account's chat setting (`settings chat
// off`): akd then pushes no chat to it, and the page shows none. Text is
// put in as text, never as markup. Each message of another player has a
// "Report" button (`chat_report`: the server's admins see it); one an
// admin removed reads "(removed by an admin)", at once for a watcher
// (`chat_removed` push).

import { errorText } from "./describe.js";
import { $ } from "./dom.js";

const clock = (t) => new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

export class Talk {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    $("chat-form").addEventListener("submit", (ev) => { ev.preventDefault(); this.send($("chat-text").value, true); });
    $("chat-mute").addEventListener("change", () => this.mute($("chat-mute").checked));
  }

  // over: the game has ended (both channels open to all)
  async open(id, you, over = false) {
    this.id = id;
    this.you = you;
    this.over = over;
    $("chat").textContent = "";
    const loggedIn = !!this.conn.user;
    $("chat-form").hidden = !loggedIn;
    $("chat-mute-label").hidden = !loggedIn;
    if (!loggedIn) { $("chat-note").textContent = "Log in to read and write the chat."; return; }
    $("chat-note").textContent = over ? "The game is over: everyone reads both channels." :
      you ? "You write to your opponent (spectators have their own channel until the end)."
        : "You write to the other spectators; the players read it once the game is over.";
    try {
      const s = await this.conn.request("settings", {});
      this.muted = s.chat === "off";
      $("chat-mute").checked = this.muted;
      $("chat-text").disabled = $("chat-send").disabled = this.muted;
      if (this.muted) { $("chat-note").textContent = "Chat is muted (untick to read it)."; return; }
      const r = await this.conn.request("chat", { game: id });
      if (this.id !== id) return;
      for (const m of r.messages) this.line(m);
    } catch (e) { $("chat-note").textContent = `The chat could not be read: ${errorText(e)}`; }
  }

  line(m) {
    const li = document.createElement("li");
    li.className = m.channel;
    if (m.id) li.dataset.message = m.id;
    const who = document.createElement("b");
    who.textContent = `${m.user}${m.channel === "spectators" ? " (spectator)" : ""}`;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = m.removed ? "(removed by an admin)" : m.text;
    li.append(`${clock(m.at)} `, who, ": ", text);
    if (m.id && !m.removed && m.user !== this.conn.user) {
      const report = document.createElement("button");
      report.type = "button";
      report.className = "chat-report";
      report.textContent = "Report";
      report.title = "Tell the server's admins this message breaks the rules";
      report.addEventListener("click", () => this.report(m.id, report));
      li.append(" ", report);
    }
    $("chat").appendChild(li);
    $("chat").scrollTop = $("chat").scrollHeight;
  }

  pushed(m) {
    if (m.game !== this.id || this.muted) return;
    if (m.push === "chat_removed") {
      const li = $("chat").querySelector(`li[data-message="${Number(m.id)}"]`);
      if (li) { li.querySelector(".chat-text").textContent = "(removed by an admin)"; li.querySelector(".chat-report")?.remove(); }
      return;
    }
    this.line(m);
  }

  async report(message, button) {
    const reason = window.prompt("Why do you report this message? (optional, sent to the server's admins)", "");
    if (reason === null) return;
    try {
      await this.conn.request("chat_report", { message, reason: reason.slice(0, 200) });
      button.textContent = "Reported";
      button.disabled = true;
    } catch (e) { this.showError(errorText(e)); }
  }

  // typed: the text is the input's (cleared once sent, if still the same);
  // else a line the page says for the player (a request for time)
  async send(text, typed = false) {
    text = text.trim();
    if (!text) return false;
    try {
      await this.conn.request("chat", { game: this.id, text });
      if (typed && $("chat-text").value.trim() === text) $("chat-text").value = "";
      return true;
    } catch (e) {
      this.showError(errorText(e));
      return false;
    }
  }

  async mute(on) {
    try {
      await this.conn.request("settings", { chat: on ? "off" : "on" });
      if (on) {
        this.muted = true;
        $("chat").textContent = "";
        $("chat-note").textContent = "Chat is muted (untick to read it).";
        $("chat-text").disabled = $("chat-send").disabled = true;
      }
      else this.open(this.id, this.you, this.over);
    } catch (e) {
      $("chat-mute").checked = !on;
      this.showError(errorText(e));
    }
  }
}
