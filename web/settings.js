// settings.js: the account's settings page: notifications (each move or a
// daily digest), chat on or off, the e-mail address and its verification
// (`settings`), a vacation that pauses the player's clocks (`vacation`),
// and a new password (`passwd`, which ends every other session).

import { errorText } from "./describe.js";
import { $ } from "./dom.js";

const day = (t) => new Date(t * 1000).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });

export class SettingsView {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    const on = (id, ev, fn) => $(id).addEventListener(ev, (e) => { e.preventDefault(); fn(); });
    on("settings-form", "submit", () => this.save({ notify: $("set-notify").value, chat: $("set-chat").checked ? "on" : "off" },
      "Saved.", "settings-status"));
    on("email-form", "submit", () => this.save({ email: $("set-email").value.trim() },
      "A code was sent to the address: type it below to verify it."));
    on("email-remove", "click", () => this.save({ email: "" }, "The address is removed."));
    on("email-verify", "click", () => this.save({ verify_email: $("set-verify").value.trim() }, "The address is verified."));
    on("vacation-form", "submit", () => this.vacation({ days: Number($("vacation-days").value) }));
    on("vacation-end", "click", () => this.vacation({ end: true }));
    on("passwd-form", "submit", () => this.passwd());
  }

  async load() {
    try {
      this.show(await this.conn.request("settings", {}));
      this.showVacation(await this.conn.request("vacation", {}));
    } catch (e) { this.showError(errorText(e)); }
  }

  show(s) {
    $("set-notify").value = s.notify;
    $("set-chat").checked = s.chat === "on";
    $("set-email").value = s.email || "";
    // only what applies: no removing an address not set, no code not sent
    $("email-remove").disabled = !s.email;
    $("verify-fields").hidden = !s.email_pending;
    $("email-status").textContent = !s.email ? "No address: notifications stay on this server." :
      s.email_verified ? `${s.email}, verified: notifications go there.` :
        `${s.email}: not verified yet${s.email_pending ? " (a code was sent there)" : ""}.`;
  }

  showVacation(v) {
    $("vacation-status").textContent = (v.away ? `On vacation until ${day(v.until)}; ` : "") +
      `${Math.floor(v.days_left + 1e-6)} of ${v.days_per_year} days left this year.`;
    $("vacation-start").disabled = !!v.away;
    $("vacation-end").disabled = !v.away;
  }

  async save(fields, done, status = "email-status") {
    try {
      this.show(await this.conn.request("settings", fields));
      this.showError("");
      $(status).textContent = `${status === "email-status" ? $(status).textContent : ""} ${done}`.trim();
    } catch (e) { this.showError(errorText(e)); }
  }

  async vacation(fields) {
    try {
      const v = await this.conn.request("vacation", fields);
      this.showVacation(v);
      if (fields.days) $("vacation-status").textContent += ` ${v.games_paused} game(s) paused` +
        (v.games_running ? `; ${v.games_running} tournament game(s) keep their clocks.` : ".");
    } catch (e) { this.showError(errorText(e)); }
  }

  async passwd() {
    if (!$("passwd-form").reportValidity()) return;
    if ($("passwd-new").value !== $("passwd-new2").value) {
      this.showError("Type the new password the same twice: nothing was sent.");
      return;
    }
    try {
      const r = await this.conn.request("passwd", { password: $("passwd-old").value, new_password: $("passwd-new").value });
      this.conn.token = r.token;     // this session goes on; every other one ended
      for (const id of ["passwd-old", "passwd-new", "passwd-new2"]) $(id).value = "";
      this.showError("");
      $("passwd-status").textContent = "The password is changed; your other sessions are logged out.";
    } catch (e) { this.showError(errorText(e)); }
  }
}
