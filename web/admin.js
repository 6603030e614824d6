// admin.js: the operators' screens (issue 33), for accounts with the admin
// role (the login says so: conn.admin; akd checks the role on every
// request all the same): /admin lists the reported chat lines with their
// remedies (remove the line, dismiss the reports, mute the author for a
// time) and makes a tournament; a tournament's own page adds its
// corrections (tournamentActions, used by tournaments.js): start it now,
// edit its terms before the start, remove a player, cancel it. Every
// action is asked first and audited by akd like akc's.

import { errorText } from "./describe.js";
import { $, button, table, wrapped } from "./dom.js";
import { gameLink, playerLink } from "./ladder.js";

const when = (t) => new Date(t * 1000).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

// A duration typed as 90s, 30m, 12h or 3d; seconds, or null.
export function durationSeconds(text) {
  const m = /^\s*(\d+)\s*([smhd])\s*$/.exec(text || "");
  return m ? Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2]] : null;
}

export class AdminView {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    $("tn-create").addEventListener("click", () => this.createTournament());
    $("tournament-form").addEventListener("submit", (ev) => { ev.preventDefault(); this.createTournament(); });
  }

  async op(fields, after) {
    try {
      const r = await this.conn.request("admin", fields);
      if (after) after(r);
      return r;
    } catch (e) { this.showError(errorText(e)); return null; }
  }

  // after: the last line of the page before (50 a page, oldest first)
  async load(after = 0) {
    const body = $("admin-reports");
    body.textContent = "";
    if (!this.conn.admin) { body.textContent = "These screens are for the server's admins."; return; }
    const r = await this.op(after ? { op: "chat_reports", after } : { op: "chat_reports" });
    if (!r) return;
    const t = table("Reported chat lines, oldest first", ["Line", "Game", "Author", "Said", "Text", "Reports", ""], { id: "report-list" });
    for (const x of r.reports) {
      const tr = t.tBodies[0].insertRow();
      tr.dataset.message = x.message;
      tr.insertCell().textContent = x.message;
      tr.insertCell().appendChild(gameLink(x.game));
      tr.insertCell().appendChild(playerLink(x.user));
      tr.insertCell().textContent = when(x.at);
      tr.insertCell().textContent = x.text;
      tr.insertCell().textContent = `${x.reports}: ${x.reporter}${x.reason ? ` ("${x.reason}")` : ""}`;
      const act = tr.insertCell();
      button(act, "Remove", () => this.remedy(`Remove line ${x.message} by ${x.user}?`, { op: "chat_delete", message: x.message }),
        { "data-remove": x.message });
      button(act, "Dismiss", () => this.remedy(`Keep line ${x.message} and close its reports?`, { op: "chat_dismiss", message: x.message }),
        { "data-dismiss": x.message });
      button(act, "Mute author", () => this.mute(x.user), { "data-mute": x.user });
    }
    if (!r.reports.length) t.tBodies[0].insertRow().insertCell().textContent = "No reports waiting.";
    body.appendChild(wrapped(t));
    if (after) button(body, "From the first", () => this.load(), { id: "reports-first" });
    if (r.more) button(body, "Next 50", () => this.load(r.reports[r.reports.length - 1].message), { id: "reports-next" });
  }

  async remedy(question, fields) {
    if (confirm(question)) await this.op(fields, () => this.load());
  }

  async mute(user) {
    const answer = prompt(`Mute ${user}'s chat for how long? (90s, 30m, 12h, 3d; 0s ends a mute)`, "3d");
    if (answer === null) return;
    const seconds = durationSeconds(answer);
    if (seconds === null || seconds > 365 * 86400) { this.showError("A duration such as 30m, 12h or 3d, at most a year: nothing was sent."); return; }
    await this.op({ op: "chat_mute", user, seconds }, (r) => {
      $("admin-done").textContent = r.muted_until ? `${user} is muted until ${when(r.muted_until)}.` : `${user} may chat again.`;
    });
  }

  // The form's tournament, as tournament_create takes it.
  async createTournament() {
    const f = { op: "tournament_create", name: $("tn-name").value.trim(), kind: $("tn-kind").value, ruleset: $("tn-ruleset").value };
    if ($("tn-rounds").value) f.rounds = Number($("tn-rounds").value);
    if ($("tn-starts").value) f.starts = Math.floor(new Date($("tn-starts").value).getTime() / 1000);
    const tc = durationSeconds($("tn-time").value);
    if ($("tn-time").value && tc === null) { this.showError("The time is a duration such as 3d: nothing was sent."); return; }
    if (tc) f.time_control = { seconds: tc, per: $("tn-per").value, on_expiry: "lose" };
    for (const k of ["both_sides", "rated", "vacation", "bid"]) if ($(`tn-${k}`).checked) f[k] = true;
    await this.op(f, (t) => { location.href = `/tournament/${t.tournament}`; });
  }
}

// A tournament's corrections on its page, for an admin: before the start
// edit and start it; at any time remove a player (after the start he
// forfeits the rest) or cancel it (its games played out or called off).
export function tournamentActions(conn, showError, t, reload) {
  if (!conn.admin || t.status === "finished" || t.status === "cancelled") return null;
  const box = document.createElement("p");
  box.id = "tournament-admin";
  const send = async (question, fields) => {
    if (question && !confirm(question)) return;
    try { await conn.request("admin", { tournament: t.tournament, ...fields }); reload(); } catch (e) { showError(errorText(e)); }
  };
  if (t.status === "open") {
    button(box, "Start now", () => send(`Start ${t.name} now with ${t.players} players?`, { op: "tournament_start" }), { id: "tournament-start" });
    button(box, "Rename", () => {
      const name = prompt("The tournament's new name", t.name);
      if (name && name.trim() !== t.name) send(null, { op: "tournament_edit", name: name.trim() });
    }, { id: "tournament-rename" });
    button(box, "Edit the clock", () => {
      const answer = prompt(`Time on the clock (90s, 30m, 12h, 3d), ${t.time_control.per === "turn" ? "a player turn" : "an action"}`, "3d");
      if (answer === null) return;
      const d = durationSeconds(answer);
      if (d) send(null, { op: "tournament_edit", time_control: { seconds: d } });    // how it is counted and what ends it stay
      else showError("A duration such as 3d: nothing was sent.");
    }, { id: "tournament-clock" });
  }
  button(box, "Cancel the tournament", () => {
    if (!confirm(`Cancel ${t.name}? No round of it is paired again.`)) return;
    const games = t.status === "running" && confirm("Call its unfinished games off? (Cancel: they are played out)") ? "abort" : "finish";
    send(null, { op: "tournament_cancel", games });
  }, { id: "tournament-cancel" });
  return box;
}

// A Remove button for a player's row of the standings (admins only).
export function removePlayerButton(conn, showError, t, user, cell, reload) {
  if (!conn.admin || t.status === "finished" || t.status === "cancelled") return;
  button(cell, "Remove", async () => {
    const after = t.status === "running" ? " He forfeits his remaining games." : "";
    if (!confirm(`Remove ${user} from ${t.name}?${after}`)) return;
    try { await conn.request("admin", { op: "tournament_remove", tournament: t.tournament, user }); reload(); } catch (e) { showError(errorText(e)); }
  }, { "data-remove-player": user });
}
