// lobby.js: the games list (`games`: the player's games first, those
// waiting for him marked), joining open seeks and challenges, and the
// form for a new game.

import { sideName, errorText } from "./describe.js";

const $ = (id) => document.getElementById(id);

export class Lobby {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    $("new-form").addEventListener("submit", (ev) => { ev.preventDefault(); this.create(); });
    conn.onPush((m) => { if (!$("lobby-view").hidden && m.push !== "chat") this.load(); });
  }

  async load() {
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
      if (g.result !== "none") state = `over: ${g.result.replace("_", " ")} (${g.reason})`;
      else if (g.open) state = g.challenge ? `challenge to ${g.challenge}` : "open seek";
      else state = g.your_turn ? "your turn" : `${sideName(g.waiting_for)} to play`;
      tr.insertCell().textContent = state + (g.you ? ` · you play ${sideName(g.you)}` : "");
      const act = tr.insertCell();
      const mayJoin = g.open && !g.you && (!g.challenge || g.challenge.toLowerCase() === (this.conn.user || "").toLowerCase());
      if (mayJoin) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = g.challenge ? "Accept" : "Join";
        b.setAttribute("data-join", g.game);
        b.addEventListener("click", () => this.join(g.game));
        act.appendChild(b);
      }
    }
    if (!r.games.length) body.insertRow().insertCell().textContent = "No games yet: create one above.";
  }

  async join(game) {
    try {
      await this.conn.request("join", { game });
      location.href = `/game/${game}`;
    } catch (e) { this.showError(errorText(e)); }
  }

  async create() {
    const fields = { side: $("new-side").value, rated: $("new-rated").checked };
    const opponent = $("new-opponent").value.trim();
    if (opponent) fields.opponent = opponent;
    try {
      const g = await this.conn.request("new", fields);
      location.href = `/game/${g.game}`;
    } catch (e) { this.showError(errorText(e)); }
  }
}
