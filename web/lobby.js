// lobby.js: the games list (`games`: the player's games first, those
// waiting for him marked), joining open seeks and challenges, and the
// form for a new game.

import { sideName, errorText } from "./describe.js";
import { $, button } from "./dom.js";

export class Lobby {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    $("new-form").addEventListener("submit", (ev) => { ev.preventDefault(); this.create(); });
    conn.onPush((m) => { if (!$("lobby-view").hidden && m.push !== "chat") this.load(); });
    // A challenge to this player pushes nothing to him: the list is asked
    // again now and then while it is shown.
    setInterval(() => { if (!$("lobby-view").hidden && conn.isOpen) this.load(); }, 30000);
  }

  // The rulesets this server starts games of (`hello`): those it cannot
  // are listed, disabled, with the reason.
  async loadRulesets() {
    if (this.rulesetsShown) return;
    let r;
    try { r = await this.conn.request("hello", {}); } catch { return; }
    const sel = $("new-ruleset");
    sel.textContent = "";
    for (const rs of r.rulesets || []) {
      const o = new Option(rs.available ? rs.title : `${rs.title} (not on this server)`, rs.name);
      o.disabled = !rs.available;
      if (rs.why) o.title = rs.why;
      sel.appendChild(o);
    }
    this.rulesetsShown = true;
  }

  async load() {
    this.loadRulesets();
    let r;
    try { r = await this.conn.request("games", { limit: 100 }); } catch (e) { this.showError(errorText(e)); return; }
    const body = $("games").tBodies[0];
    body.textContent = "";
    for (const g of r.games) {
      const tr = body.insertRow();
      if (g.your_turn) tr.className = "waiting";
      const link = document.createElement("a");
      link.href = `/game/${g.game}`;
      link.textContent = `Game ${g.game}`;
      tr.insertCell().appendChild(link);
      tr.insertCell().textContent = g.players.axis || "—";
      tr.insertCell().textContent = g.players.allied || "—";
      tr.insertCell().textContent = `${g.turn} (${g.date})`;
      let state;
      if (g.result !== "none") state = `Over: ${g.result === "axis_wins" ? "the Axis won" : g.result === "allied_wins" ? "the Allies won" : "a draw"} (${g.reason})`;
      else if (g.open) state = g.challenge ? `Challenge to ${g.challenge}` : "Open seek";
      else state = g.your_turn ? "Your turn" : `${sideName(g.waiting_for)} to play`;
      tr.insertCell().textContent = state + (g.you ? ` · you play ${sideName(g.you)}` : "") + (g.rated ? " · rated" : "");
      const act = tr.insertCell();
      const me = (this.conn.user || "").toLowerCase();
      const invited = g.challenge && g.challenge.toLowerCase() === me;
      if (g.open && !g.you && (!g.challenge || invited))
        button(act, g.challenge ? "Accept" : "Join", () => this.join(g.game), { "data-join": g.game });
      if (g.open && invited && !g.you)
        button(act, "Decline", () => this.call("decline", g.game), { "data-decline": g.game });
      if (g.open && g.you)
        button(act, "Call off", () => this.call("abort", g.game), { "data-abort": g.game });
    }
    if (!r.games.length) {
      const cell = body.insertRow().insertCell();
      cell.colSpan = 6;
      cell.textContent = "No games yet: create one above.";
    }
  }

  async join(game) {
    try {
      await this.conn.request("join", { game });
      location.href = `/game/${game}`;
    } catch (e) { this.showError(errorText(e)); }
  }

  async call(cmd, game) {
    try {
      await this.conn.request(cmd, { game });
      this.load();
    } catch (e) { this.showError(errorText(e)); }
  }

  async create() {
    const fields = { ruleset: $("new-ruleset").value || "classic", side: $("new-side").value, rated: $("new-rated").checked };
    const opponent = $("new-opponent").value.trim();
    if (opponent) fields.opponent = opponent;
    try {
      const g = await this.conn.request("new", fields);
      location.href = `/game/${g.game}`;
    } catch (e) { this.showError(errorText(e)); }
  }
}
