// charts.js: the charts printed beside the map, one click from the board
// (the Charts button): the combat results table of the game's ruleset
// (the 1964 table from the map's data, or the game's own table, which a
// game fought on one carries: `crt_table`), the supply table (how many
// supply units, which Axis rolls are SUNK each turn, replacements), the
// turn track with its dates (the current turn marked), and the
// reinforcements due for each side from the current turn on. All of it
// comes from akd's `map` answer and the game: nothing is written here.

import { resultName, sideName } from "./describe.js";
import { $, table } from "./dom.js";

export class Charts {
  // map: akd's `map` answer; game(): {state, crt_table, rules} of the game shown
  constructor(map, game) {
    this.map = map;
    this.game = game;
    $("charts-open").addEventListener("click", () => this.open("crt"));
    $("charts-close").addEventListener("click", () => $("charts").close());
    for (const b of document.querySelectorAll("#charts-tabs button[data-chart]"))
      b.addEventListener("click", () => this.show(b.dataset.chart));
  }

  open(which) {
    $("charts").showModal();
    this.show(which);
  }

  show(which) {
    for (const b of document.querySelectorAll("#charts-tabs button[data-chart]")) b.setAttribute("aria-pressed", String(b.dataset.chart === which));
    const body = $("charts-body");
    body.textContent = "";
    body.appendChild(this[which]());
  }

  crt() {
    const g = this.game();
    if (g.rules?.battle_table === "game" && g.crt_table) {
      const pre = document.createElement("pre");
      pre.textContent = g.crt_table;
      const div = document.createElement("div");
      const p = document.createElement("p");
      p.textContent = "This game is fought on its own combat results table (its digest is in the game record):";
      div.append(p, pre);
      return div;
    }
    const crt = this.map.crt_1964;
    const rows = crt.rolls.map((r, i) => [String(i + 1), ...r]);
    const t = table("Combat results table (1964): the die down, the odds across", ["Die", ...crt.columns], { rows });
    const div = document.createElement("div");
    const key = document.createElement("p");
    key.textContent = ["AE", "AB2", "EX", "DB2", "DE"].map((c) => `${c}: ${resultName(c)}`).join("; ") +
      ". Worse than 1-6 is not allowed; better than 6-1 is an automatic victory.";
    div.append(t, key);
    return div;
  }

  supply() {
    const s = this.map.supply, turn = this.game().state?.turn;
    const date = (t) => this.map.calendar[t - 1]?.date || "";
    const rows = s.sunk.map((x) => [`${x.turn}${x.turn === turn ? " (now)" : ""}`, date(x.turn), x.rolls.join(", ")]);
    const div = document.createElement("div");
    const p = document.createElement("p");
    p.textContent = `Supply units on the board at most: Axis ${s.max.axis}, Allied ${s.max.allied}. ` +
      `The Allies get ${s.per_turn.allied} a turn; the Axis rolls a die each turn, and on these rolls the supply unit is SUNK. ` +
      `Replacements from turn ${s.replacements_from}: Axis ${s.replacements.axis[0]} at the home base and ${s.replacements.axis[1]} at Tobruch, ` +
      `Allied ${s.replacements.allied[0]} and ${s.replacements.allied[1]}.`;
    div.append(p, table("The Axis supply roll: SUNK on", ["Turn", "Date", "Rolls that sink it"], { rows }));
    return div;
  }

  turns() {
    const turn = this.game().state?.turn;
    const arriving = (t) => this.map.counters.filter((c) => c.arrives === t).length;
    const rows = this.map.calendar.map((c) => [`${c.turn}${c.turn === turn ? " ◀ now" : ""}`, c.date,
      arriving(c.turn) ? `${arriving(c.turn)} units arrive` : ""]);
    const t = table("Turn track", ["Turn", "Date", ""], { rows });
    const now = t.tBodies[0].rows[turn - 1];
    if (now) now.className = "now";
    return t;
  }

  reinforcements() {
    const turn = this.game().state?.turn || 1, units = this.game().state?.units || {};
    const due = this.map.counters.filter((c) => c.arrives >= turn && c.arrives > 0 && !c.substitute &&
      (units[c.unit]?.where ?? "pool") === "pool")
      .sort((a, b) => a.arrives - b.arrives || a.side.localeCompare(b.side));
    const rows = due.map((c) => [String(c.arrives), this.map.calendar[c.arrives - 1]?.date || "", sideName(c.side), c.counter,
      `${c.attack}-${c.defense}-${c.movement}`]);
    return table(`Reinforcements due from turn ${turn} on`, ["Turn", "Date", "Side", "Unit", "Factors"], { rows });
  }

  // The map's key: each kind of square and line as the board draws it.
  key() {
    const div = document.createElement("div");
    div.id = "map-key";
    const NS = "http://www.w3.org/2000/svg";
    const items = [["t-clear", "clear desert"], ["t-escarpment", "escarpment (doubles the defence)"],
      ["t-qattara", "Qattara Depression (impassable)"], ["t-qattara-partial", "partly Qattara"],
      ["t-fortress", "fortress (Tobruch, Bengasi)"], ["t-homebase", "home base"], ["road", "the Coast Road"],
      ["blocked", "a hexside no unit crosses"], ["counter axis", "Axis counter"], ["counter allied", "Allied counter (dashed edge)"]];
    for (const [cls, text] of items) {
      const row = document.createElement("p");
      const svg = document.createElementNS(NS, "svg");
      svg.setAttribute("viewBox", "-11 -11 22 22");
      svg.setAttribute("width", "32");
      svg.setAttribute("height", "32");
      svg.setAttribute("aria-hidden", "true");
      const shape = cls === "road" || cls === "blocked" ? "line" : cls.startsWith("counter") ? "rect" : "polygon";
      const e = document.createElementNS(NS, shape);
      if (shape === "polygon") e.setAttribute("points", "8.66,-5 8.66,5 0,10 -8.66,5 -8.66,-5 0,-10");
      if (shape === "line") for (const [k, v] of Object.entries({ x1: -9, y1: 0, x2: 9, y2: 0 })) e.setAttribute(k, v);
      if (shape === "rect") for (const [k, v] of Object.entries({ x: -6.5, y: -5.5, width: 13, height: 11, rx: 1 })) e.setAttribute(k, v);
      if (shape === "polygon") e.setAttribute("class", `hex ${cls}`);
      else if (shape === "line") e.setAttribute("class", cls);
      const g = document.createElementNS(NS, "g");
      if (shape === "rect") g.setAttribute("class", cls);
      g.appendChild(e);
      svg.appendChild(g);
      row.append(svg, ` ${text}`);
      div.appendChild(row);
    }
    return div;
  }
}
