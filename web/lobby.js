// lobby.js: the games list and the new-game form. The list (`games`, the
// player's games first) is shown in groups a player reads top down: the
// games waiting for him with their time left, his other games and
// challenges, seeks and challenges he may take, games being played (to
// watch), finished games. Each row says the rules, the clock and whether
// it is rated, so a challenge's terms are seen before it is accepted.
// The form has every option of `akc new`: rules, side, a named opponent,
// the clock (per action or per turn, and what happens when it runs out),
// rated, and the rating range of an open seek.

import { sideName, errorText, duration, timeControlText, outcomeText } from "./describe.js";
import { $, button, table, wrapped } from "./dom.js";
import { playerLink } from "./ladder.js";

const GROUPS = [
  ["waiting", "Waiting for you"],
  ["mine", "Your other games and challenges"],
  ["open", "Seeks and challenges you may take"],
  ["playing", "Being played"],
  ["over", "Finished"],
];

export class Lobby {
  constructor(conn, showError) {
    this.conn = conn;
    this.showError = showError;
    this.titles = new Map();
    $("new-form").addEventListener("submit", (ev) => { ev.preventDefault(); this.create(); });
    // Fields that do not apply are hidden and disabled (never checked,
    // never sent): the clock's without a clock, and the rating range of a
    // challenge (it limits who may take an open seek).
    const showFields = (id, on) => {
      $(id).hidden = !on;
      for (const e of $(id).querySelectorAll("input, select")) e.disabled = !on;
    };
    $("new-clock").addEventListener("change", () => showFields("new-clock-fields", !!$("new-clock").value));
    // Against the computer: a level instead of a name; no rating range.
    const against = () => {
      const computer = $("new-against").value === "computer";
      showFields("new-player-fields", !computer);
      showFields("new-computer-fields", computer);
      showFields("new-range-fields", !computer && !$("new-opponent").value.trim());
      showFields("new-bid-fields", !computer && $("new-side").value !== "random");
    };
    $("new-against").addEventListener("change", against);
    $("new-opponent").addEventListener("input", against);
    $("new-side").addEventListener("change", against);      // a bid names a side: none with a random one
    showFields("new-clock-fields", false);
    against();
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
      this.titles.set(rs.name, rs.title);
      const o = new Option(rs.available ? rs.title : `${rs.title} (not on this server)`, rs.name);
      o.disabled = !rs.available;
      if (rs.why) o.title = rs.why;
      sel.appendChild(o);
    }
    this.rulesetsShown = true;
  }

  group(g) {
    if (g.result !== "none") return "over";
    if (g.your_turn) return "waiting";
    if (g.you) return "mine";
    const me = (this.conn.user || "").toLowerCase();
    if (g.open && (!g.challenge || g.challenge.toLowerCase() === me)) return "open";
    return g.open ? null : "playing";   // others' challenges are theirs
  }

  async load() {
    await this.loadRulesets();
    let r;
    try { r = await this.conn.request("games", { limit: 100 }); } catch (e) { this.showError(errorText(e)); return; }
    const lists = $("game-lists");
    lists.textContent = "";
    for (const [key, title] of GROUPS) {
      const games = r.games.filter((g) => this.group(g) === key);
      if (!games.length) {
        if (key === "waiting") {
          const p = document.createElement("p");
          p.id = "games-waiting";
          p.textContent = "No game waits for you.";
          lists.appendChild(p);
        }
        continue;
      }
      const t = table(title, ["Game", "Rules", "Axis", "Allied", "Turn", "Clock", "State", ""], { id: `games-${key}` });
      for (const g of games) this.row(t.tBodies[0], g);
      lists.appendChild(wrapped(t));
    }
    if (!r.games.length) {
      const p = document.createElement("p");
      p.textContent = "No games yet: create one above.";
      lists.appendChild(p);
    }
  }

  row(body, g) {
    const tr = body.insertRow();
    tr.dataset.game = g.game;
    if (g.your_turn) tr.className = "waiting";
    const link = document.createElement("a");
    link.href = `/game/${g.game}`;
    link.textContent = `Game ${g.game}`;
    tr.insertCell().appendChild(link);
    tr.insertCell().textContent = (this.titles.get(g.ruleset) || g.ruleset) + (g.rated ? ", rated" : "") +
      (g.rating_range ? ` (ratings ${g.rating_range[0]} to ${g.rating_range[1]})` : "") +
      (g.bid?.side ? `, bid ${g.bid.supply} for ${g.bid.side}` : "");
    for (const side of ["axis", "allied"]) {
      const cell = tr.insertCell();
      if (g.players[side]) {
        cell.appendChild(playerLink(g.players[side]));
        if (g.computer?.[side]) cell.append(" (computer)");
      } else cell.textContent = "—";
    }
    tr.insertCell().textContent = `${g.turn} (${g.date})`;
    let clock = timeControlText(g.time_control);
    if (g.deadline && g.result === "none" && !g.open)
      clock += g.overdue ? ": overdue" : `: ${duration(g.deadline - Date.now() / 1000)} left`;
    tr.insertCell().textContent = clock;
    let state;
    if (g.result !== "none") state = `Over: ${outcomeText(g)}`;
    else if (g.open) state = g.challenge ? `Challenge to ${g.challenge}${g.challenge_computer ? " (computer)" : ""}` : "Open seek";
    else if (g.bid?.status === "open") state = g.your_turn ? "Your bid" : `Side auction: ${g.bid.to_bid} to bid`;
    else state = g.your_turn ? "Your turn" : `${sideName(g.waiting_for)} to play`;
    tr.insertCell().textContent = state + (g.you ? ` · you ${g.result !== "none" ? "played" : "play"} ${sideName(g.you)}` : "");
    const act = tr.insertCell();
    const me = (this.conn.user || "").toLowerCase();
    const invited = g.challenge && g.challenge.toLowerCase() === me;
    if (g.open && !g.you && (!g.challenge || invited))
      button(act, g.challenge ? "Accept" : "Join", () => this.join(g.game), { "data-join": g.game });
    if (g.open && invited && !g.you)
      button(act, "Decline", () => this.call("decline", g.game), { "data-decline": g.game });
    if (g.open && g.you)
      button(act, "Call off", () => { if (confirm(`Call game ${g.game} off?`)) this.call("abort", g.game); }, { "data-abort": g.game });
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

  // The form's fields as `new` takes them; null (and said why) when a
  // field is out of range.
  fields() {
    const f = { ruleset: $("new-ruleset").value || "classic", side: $("new-side").value, rated: $("new-rated").checked };
    const computer = $("new-against").value === "computer";
    const opponent = computer ? "" : $("new-opponent").value.trim();
    if (opponent) f.opponent = opponent;
    if (computer) f.computer = Number($("new-level").value);
    if ($("new-clock").value) {
      const seconds = Number($("new-clock-amount").value) * Number($("new-clock-unit").value);
      if (!(seconds >= 60 && seconds <= 90 * 86400)) {
        this.showError("The clock is from 1 minute to 90 days: nothing was sent.");
        return null;
      }
      f.time_control = { seconds, per: $("new-clock").value, on_expiry: $("new-clock-expiry").value };
    }
    if (!computer && $("new-side").value !== "random" && $("new-bid").value !== "") f.bid = Number($("new-bid").value);
    if (!opponent && !computer) {
      const lo = $("new-min-rating").value, hi = $("new-max-rating").value;
      if (lo !== "") f.min_rating = Number(lo);
      if (hi !== "") f.max_rating = Number(hi);
    }
    return f;
  }

  async create() {
    const fields = this.fields();
    if (!fields) return;
    try {
      const g = await this.conn.request("new", fields);
      location.href = `/game/${g.game}`;
    } catch (e) { this.showError(errorText(e)); }
  }
}
