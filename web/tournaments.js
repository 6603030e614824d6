// tournaments.js: the tournaments (`tournament list`), one tournament's
// page (`tournament show`: its terms, standings, pairings and byes) and
// joining one while it is open. Tournaments are made by an operator
// (`akc admin tournament-create`, or the page's /admin); players join and
// play their games; an admin corrects one on its page (admin.js).

import { errorText, timeControlText } from "./describe.js";
import { $, button, item, table, wrapped } from "./dom.js";
import { playerLink, gameLink } from "./ladder.js";
import { tournamentActions, removePlayerButton } from "./admin.js";

const when = (t) => new Date(t * 1000).toLocaleString("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });

function terms(t) {
  const kind = t.kind === "swiss" ? `Swiss, ${t.rounds} rounds` : "round robin";
  return `${kind}${t.both_sides ? ", each pairing both ways" : ""}; ${t.ruleset}; ${timeControlText(t.time_control)}` +
    `${t.rated ? "; rated" : ""}${t.vacation ? "" : "; no vacations"}${t.bid ? "; sides bid for" : ""}`;
}

export class TournamentsView {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
  }

  async list() {
    $("tournaments-title").textContent = "Tournaments";
    const body = $("tournaments-body");
    body.textContent = "";
    let r;
    try { r = await this.conn.request("tournament", { op: "list" }); } catch (e) { body.textContent = errorText(e); return; }
    const t = table("Newest first", ["Tournament", "Terms", "Starts", "Players", "Status", ""], { id: "tournament-list" });
    for (const x of r.tournaments) {
      const tr = t.tBodies[0].insertRow();
      const a = document.createElement("a");
      a.href = `/tournament/${x.tournament}`;
      a.textContent = x.name;
      tr.insertCell().appendChild(a);
      tr.insertCell().textContent = terms(x);
      tr.insertCell().textContent = when(x.starts);
      tr.insertCell().textContent = x.players;
      tr.insertCell().textContent = x.status === "running" ? `round ${x.round}` : x.status;
      const act = tr.insertCell();
      if (x.status === "open") button(act, "Join", () => this.join(x.tournament), { "data-join-tournament": x.tournament });
    }
    if (!r.tournaments.length) {
      const cell = t.tBodies[0].insertRow().insertCell();
      cell.colSpan = 6;
      cell.textContent = "No tournaments on this server yet: an operator makes them.";
    }
    body.appendChild(wrapped(t));
  }

  async join(id) {
    try {
      await this.conn.request("tournament", { op: "join", tournament: id });
      location.href = `/tournament/${id}`;
    } catch (e) { this.showError(errorText(e)); }
  }

  // Before the start a player may leave (`withdraw`); the page offers it
  // only then (after the start `akc tournament withdraw` forfeits the rest).
  async withdraw(id) {
    try {
      await this.conn.request("tournament", { op: "withdraw", tournament: id });
      this.show(id);
    } catch (e) { this.showError(errorText(e)); }
  }

  async show(id) {
    const body = $("tournaments-body");
    body.textContent = "";
    let t;
    try { t = await this.conn.request("tournament", { op: "show", tournament: id }); } catch (e) {
      $("tournaments-title").textContent = `Tournament ${id}`;
      body.textContent = errorText(e);
      return;
    }
    $("tournaments-title").textContent = t.name;
    const p = document.createElement("p");
    p.id = "tournament-terms";
    p.textContent = `${terms(t)}. ${t.status === "open" ? `Starts ${when(t.starts)}` : t.status === "running" ?
      `Round ${t.round}` : t.status === "cancelled" ? "Cancelled" : "Finished"}; ${t.players} players; made by ${t.created_by}.`;
    body.appendChild(p);
    const joined = t.standings.some((x) => x.user.toLowerCase() === (this.conn.user || "").toLowerCase());
    if (t.status === "open" && !joined) button(body, "Join", () => this.join(t.tournament), { "data-join-tournament": t.tournament });
    if (t.status === "open" && joined)
      button(body, "Withdraw", () => this.withdraw(t.tournament), { "data-withdraw-tournament": t.tournament });
    const reload = () => this.show(t.tournament);
    const corrections = tournamentActions(this.conn, this.showError, t, reload);
    if (corrections) body.appendChild(corrections);
    const st = table("Standings", ["Rank", "Player", "Points", "Sonneborn-Berger", "Won", "Drawn", "Lost", "Played", ""], { id: "standings" });
    for (const s of t.standings) {
      const tr = st.tBodies[0].insertRow();
      tr.insertCell().textContent = s.rank;
      tr.insertCell().appendChild(playerLink(s.user));
      for (const v of [s.points, s.sonneborn_berger, s.wins, s.draws, s.losses + s.forfeits, s.played])
        tr.insertCell().textContent = v;
      removePlayerButton(this.conn, this.showError, t, s.user, tr.insertCell(), reload);
    }
    body.appendChild(wrapped(st));
    if (t.games.length) {
      const gt = table("Pairings", ["Round", "Game", "Axis", "Allied", "Result"], { id: "pairings" });
      for (const g of t.games) {
        const tr = gt.tBodies[0].insertRow();
        tr.insertCell().textContent = g.round;
        tr.insertCell().appendChild(gameLink(g.game));
        tr.insertCell().appendChild(playerLink(g.axis));
        tr.insertCell().appendChild(playerLink(g.allied));
        tr.insertCell().textContent = g.result === "none" ? g.status : `${g.result} (${g.reason})`;
      }
      body.appendChild(wrapped(gt));
    }
    if (t.byes?.length) {
      const ul = document.createElement("ul");
      for (const b of t.byes) item(ul, `Round ${b.round}: a bye for ${b.user}`);
      body.appendChild(ul);
    }
  }
}
