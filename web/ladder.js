// ladder.js: the ladder of one ruleset (`ladder`, by Glicko-2 rating) and
// a player's page (`player`: ratings, results by side, recent rated
// games with the rating each moved). Both are public: no login needed.

import { sideName, errorText } from "./describe.js";
import { $, item, table, wrapped } from "./dom.js";

function playerLink(name) {
  const a = document.createElement("a");
  a.href = `/player/${encodeURIComponent(name)}`;
  a.textContent = name;
  return a;
}

function gameLink(game) {
  const a = document.createElement("a");
  a.href = `/game/${game}`;
  a.textContent = `Game ${game}`;
  return a;
}

export class LadderView {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    $("ladder-ruleset").addEventListener("change", () => this.load());
  }

  async rulesets() {
    const sel = $("ladder-ruleset");
    if (sel.options.length) return;
    try {
      const r = await this.conn.request("hello", {});
      for (const rs of r.rulesets || []) sel.appendChild(new Option(rs.title, rs.name));
    } catch { sel.appendChild(new Option("Afrika Korps (1964 rules)", "classic")); }
  }

  async load() {
    await this.rulesets();
    let r;
    try { r = await this.conn.request("ladder", { ruleset: $("ladder-ruleset").value, limit: 100 }); } catch (e) {
      this.showError(errorText(e));
      return;
    }
    const body = $("ladder").tBodies[0];
    body.textContent = "";
    for (const p of r.ladder) {
      const tr = body.insertRow();
      tr.insertCell().textContent = p.rank;
      const who = tr.insertCell();
      who.appendChild(playerLink(p.user));
      if (p.computer) who.append(" (computer)");      // rated like anyone, flagged
      tr.insertCell().textContent = Math.round(p.rating) + (p.provisional ? " (provisional)" : "");
      tr.insertCell().textContent = Math.round(p.rd);
      tr.insertCell().textContent = p.games;
    }
    if (!r.ladder.length) {
      const cell = body.insertRow().insertCell();
      cell.colSpan = 5;
      cell.textContent = "No rated games of these rules yet.";
    }
  }
}

export class PlayerView {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
  }

  async load(name) {
    $("player-name").textContent = name;
    const body = $("player-body");
    body.textContent = "";
    let r;
    try { r = await this.conn.request("player", { user: name }); } catch (e) {
      body.textContent = e.code === "no_such_user" ? `There is no player ${name}.` : errorText(e);
      return;
    }
    $("player-name").textContent = r.user + (r.computer ? " (a computer player)" : "");
    const ratings = document.createElement("ul");
    ratings.id = "player-ratings";
    for (const x of r.ratings)
      item(ratings, `${x.ruleset}: ${Math.round(x.rating)}${x.provisional ? " (provisional)" : ""}, ` +
        `deviation ${Math.round(x.rd)}, ${x.games} rated game${x.games === 1 ? "" : "s"}`);
    if (!r.ratings.length) item(ratings, "No rated games yet.");
    body.appendChild(ratings);
    const res = document.createElement("p");
    res.textContent = ["axis", "allied"].map((s) => {
      const x = r.results[s];
      return `as ${sideName(s)}: ${x.won} won, ${x.lost} lost, ${x.drawn} drawn`;
    }).join("; ") + " (rated games)";
    body.appendChild(res);
    if (!r.recent.length) return;
    const recent = table("Recent rated games", ["Game", "Rules", "Side", "Opponent", "Result", "Rating"], { id: "player-recent" });
    const tb = recent.tBodies[0];
    for (const g of r.recent) {
      const tr = tb.insertRow();
      tr.insertCell().appendChild(gameLink(g.game));
      tr.insertCell().textContent = g.ruleset;
      tr.insertCell().textContent = sideName(g.side);
      tr.insertCell().appendChild(playerLink(g.opponent));
      tr.insertCell().textContent = g.result + (g.bid ? ` (bid ${g.bid.supply} for ${sideName(g.bid.side)})` : "");
      tr.insertCell().textContent = `${Math.round(g.before)} → ${Math.round(g.after)}`;
    }
    body.appendChild(wrapped(recent));
  }
}

export { playerLink, gameLink };
