// game.js: one game on the page (/game/N): the board following the pushes,
// whose turn and the clock, the dangers ahead (hazards), the battles, the
// log of the engine's events, and, for the player the game waits for, the
// actions: select a stack and click where `dests` says it can go; in
// combat select attackers and defenders, see the odds (`odds`) and
// declare; resolve; answer retreats, exchanges and advances from the legal
// `options`; undo; end the portion or the turn (asking first when a
// hazard would bite). Every action goes to akd, which alone decides.
// Beside the game: its clock (clock.js), chat (talk.js), move list and
// replay (moves.js), and a rematch once it is over.
// Games of the Updated ruleset add their phases (ended by `end_phase`),
// strengths in half points on the game's own table, bombardment, and the
// losses the side that lost assigns among its units (reduce or eliminate).

import { applyPatch } from "./patch.js";
import { nonce, keepNonce } from "./net.js";
import { MoveList } from "./moves.js";
import { Talk } from "./talk.js";
import { GameClock } from "./clock.js";
import { describeAction, sideName, phaseName, duration, errorText, resultName, terrainName } from "./describe.js";
import { $, item, button } from "./dom.js";
import { bidText, renderBid } from "./bid.js";

export class GameView {
  constructor(conn, board, showError) {
    this.conn = conn;
    this.board = board;
    this.showError = showError;
    this.game = null;
    this.selected = null;       // {hex, units: Set}
    this.dests = new Map();     // hex -> dest
    this.attackers = new Set();
    this.defenders = new Set();
    this.left = new Map();      // units of a battle being built left out (unticked): unit -> the set they left
    this.moves = new MoveList(conn, board, showError, () => this.render());
    this.talk = new Talk(conn, showError);
    this.clock = new GameClock(conn, showError, this.talk);
    board.onSelect = (hex) => this.select(hex);
    board.onHover = (hex) => { $("hover-hex").textContent = hex ? `${hex} (${terrainName(board.squares.get(hex)?.terrain)})` : ""; };
    conn.onPush((m) => this.push(m));
    conn.onState((s) => { if (s === "reconnected" && this.id) this.open(this.id); });
    $("undo").addEventListener("click", () => this.act(null, "undo"));
    $("end-movement").addEventListener("click", () => this.end("end_movement"));
    $("end-turn").addEventListener("click", () => this.end("end_turn"));
    $("end-phase").addEventListener("click", () => this.end("end_phase"));
    $("losses-send").addEventListener("click", () => this.sendLosses());
    $("resign").addEventListener("click", () => {
      if (confirm("Resign this game?")) this.act({ action: "resign" });
    });
    $("battle-declare").addEventListener("click", () => this.declare());
    $("select-none").addEventListener("click", () => {
      if (!this.selected) return;
      this.selected.units.clear();
      this.loadDests();
    });
    $("battle-clear").addEventListener("click", () => this.clearBattle());
    $("battle-supply").addEventListener("change", () => this.updateOdds());
    $("goto").addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter") return;
      const hex = ev.target.value.trim().toUpperCase();
      if (!board.squares.has(hex)) { this.showError(`no square ${hex} on the map`); return; }
      board.setCursor(hex);
      this.select(hex, { typed: true });  // looked at: never a move, never added to a battle
    });
    $("rematch").addEventListener("click", () => this.rematch());
    $("game-accept").addEventListener("click", () => this.lobbyCall("join"));
    $("game-decline").addEventListener("click", () => this.lobbyCall("decline"));
    $("game-calloff").addEventListener("click", () => { if (confirm("Call this game off?")) this.lobbyCall("abort"); });
    for (const id of ["show-zones", "show-supply"]) $(id).addEventListener("change", () => this.loadOverlay());
  }

  // Nothing chosen in another game (or before a reload) carries over.
  forgetChoices() {
    this.selected = null;
    this.dests.clear();
    this.attackers.clear();
    this.defenders.clear();
    this.left.clear();
  }

  async open(id) {
    this.id = id;
    this.forgetChoices();
    await this.loadRulesets();
    const g = await this.conn.request("watch", { game: id });
    this.load(g);
    item($("log"), `Game ${id}: ${g.date}, ${phaseName(g.phase)}.`);
    this.talk.open(id, this.me, this.state.result !== "none");
    this.loadOverlay();
  }

  // No game to show (none by that number, or it cannot be read): nothing
  // to act on is left on the page.
  close() {
    this.id = null;
    this.game = null;
    this.forgetChoices();
    this.moves.close();
    for (const id of ["controls", "selection", "battle-box", "losses-box", "hazards-title", "clock-box", "chat-box"]) $(id).hidden = true;
    for (const id of ["decisions", "battles", "hazards", "game-status"]) $(id).textContent = "";
  }

  // A whole GAME (watch or show): the summary, the state and its hazards.
  load(g) {
    this.game = g;
    this.state = g.state;
    this.seq = g.seq;
    this.update();
    // The first time a game is shown: where the action is, legible (a
    // player's own units; for a spectator the last moves: the units moved
    // this player turn, else this turn's battles, else the side to move).
    if (this.focused !== this.id) {
      this.focused = this.id;
      this.board.focusOn(this.me ? this.unitSquares(this.me) : this.lastMoveSquares());
    }
  }

  update() {
    this.render();
    this.renderDecisions();
    this.renderReplay();
  }

  // the move list, from the record; checked against the nonces sent once over
  renderReplay() {
    this.moves.open(this.id, this.seq, this.state.result !== "none");
  }

  // The overlays asked for (zones, supply; `overlay`), for the position
  // shown; asked again after each change while one is on.
  async loadOverlay() {
    const zones = $("show-zones").checked, supply = $("show-supply").checked;
    let r = null;
    if ((zones || supply) && this.id) {
      try { r = await this.conn.request("overlay", { game: this.id }); } catch (e) { this.showError(errorText(e)); }
    }
    this.board.highlight("zone-axis", zones && r ? r.zones.axis : []);
    this.board.highlight("zone-allied", zones && r ? r.zones.allied : []);
    const side = this.me || this.state?.side;
    const inSupply = new Set(supply && r ? r.supply[side] : []);
    this.board.highlight("nosupply", supply && r ? [...this.board.squares].filter(([h, s]) => s.terrain !== "sea" &&
      !s.terrain.startsWith("qattara") && !inSupply.has(h)).map(([h]) => h) : []);
  }

  unitSquares(side) {
    return Object.entries(this.state.units).filter(([u, x]) => x.where === "board" && this.sideOf(u) === side)
      .map(([, x]) => x.hex);
  }

  lastMoveSquares() {
    const s = this.state;
    const moved = Object.values(s.units).filter((x) => x.where === "board" && x.start && x.hex !== x.start)
      .flatMap((x) => [x.hex, x.start]);
    if (moved.length) return moved;
    const fought = (s.battles || []).flatMap((b) => b.hexes || []);
    return fought.length ? fought : this.unitSquares(s.side);
  }

  // What the charts read of the game shown (charts.js).
  charted() { return { state: this.state, crt_table: this.game?.crt_table, rules: this.rules }; }

  get me() { return this.game?.you || null; }
  get waiting() {
    const s = this.state;
    if (!s || s.result !== "none") return null;
    return s.pending ? s.pending.side : s.side;
  }
  get myTurn() { return !!this.me && this.waiting === this.me && !this.game.open; }
  // What the page shows of the game's ruleset comes from the server's
  // ruleset table (`hello`): its phases, what a supply unit does in a
  // battle, the unit of strength; the page never tests a ruleset's name.
  async loadRulesets() {
    if (this.rulesets) return;
    try {
      const r = await this.conn.request("hello", {});
      this.rulesets = new Map((r.rulesets || []).map((rs) => [rs.name, rs]));
    } catch { /* shown as the 1964 rules' until the next game */ }
  }
  get rules() {
    return this.rulesets?.get(this.state?.ruleset) ||
      { move_phases: ["movement"], end_phase_in: [], last_phase: "combat", actions: [], battle_supply: "sustain",
        strength_unit: "factor", battle_table: "1964" };
  }
  // The phases in which the mover moves units (the 1964 movement portion;
  // the Updated ruleset's mechanized movement too).
  get moving() {
    const s = this.state;
    return this.myTurn && !s.pending && this.rules.move_phases.includes(s.phase);
  }
  sideOf(unit) { return this.board.counters.get(unit)?.side; }

  push(m) {
    if (m.game !== this.id) return;
    if (m.push === "game" || m.push === "undo") {
      const expected = m.push === "game" ? this.seq + 1 : this.seq - 1;
      try {
        if (m.seq !== expected) throw new Error("a gap in the pushes");
        const waiting = this.waiting;
        applyPatch(this.state, m.patch);
        this.seq = m.seq;
        this.moves.pushed(m, waiting);
      } catch {
        this.refresh(0);
        return;
      }
      if (m.push === "undo") item($("log"), `Taken back by the ${sideName(m.by)} player: ${describeAction(m.action)}`);
      for (const e of m.events || []) item($("log"), e.text, e.event);
      if (m.dice_secret) {
        item($("log"), `The game is over; its dice secret is ${m.dice_secret} (akc verify ${this.id} checks every roll).`);
        this.talk.open(this.id, this.me, true);     // both channels are open to all now
      }
      $("log").scrollTop = $("log").scrollHeight;    // the log's own box, not the page
      // What the state does not say comes with the push (PROTOCOL.md):
      // no whole game is asked for after each action.
      this.game.seq = m.seq;
      if ("hazards" in m) { this.game.hazards = m.hazards; this.game.odds = m.odds || null; }
      if ("deadline" in m) { this.game.deadline = m.deadline; this.game.overdue = false; }
      this.selected = null;
      this.dests.clear();
      this.update();
      clearTimeout(this.overlayTimer);
      if ($("show-zones").checked || $("show-supply").checked) this.overlayTimer = setTimeout(() => this.loadOverlay(), 200);
      return;
    } else if (m.push === "bid") {
      item($("log"), bidText(m, this.conn.user));     // then the game again: seats, start, clock
    } else if (m.push === "joined") {
      item($("log"), `${m.user} joined as ${sideName(m.side)}.`);
    } else if (m.push === "declined" || m.push === "aborted") {
      item($("log"), `The game was ${m.push} by ${m.by}.`);
    } else if (m.push === "chat" || m.push === "chat_removed") {
      this.talk.pushed(m);
      return;
    } else if (m.push === "time_given") {
      item($("log"), `The ${sideName(m.by)} player gave ${duration(m.seconds)} more.`);
    }
    this.refresh(150);
  }

  // The whole game again (one `show`, debounced): when the pushes lost
  // track, or after a push that changes the summary (a join, a call-off).
  refresh(delay) {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(async () => {
      try { this.load(await this.conn.request("show", { game: this.id })); } catch (e) { this.showError(errorText(e)); }
    }, delay);
  }

  render() {
    const g = this.game, s = this.state;
    if (!this.moves.reviewing) this.board.setUnits(s);    // an earlier position stays until "Back to the game"
    const seat = (side) => g.players[side] ? g.players[side] + (g.computer?.[side] ? ` (computer${g.computer_level ? `, level ${g.computer_level}` : ""})` : "")
      : g.challenge ? `${g.challenge} (${g.challenge_computer ? "the computer, " : ""}invited)` : "(open)";
    $("game-title").textContent = `Game ${g.game}: ${seat("axis")} (Axis) against ${seat("allied")} (Allied)`;
    let status;
    if (s.result !== "none") status = `${s.result === "axis_wins" ? "The Axis" : "The Allies"} won (${s.reason}).`;
    else if (g.open) status = g.challenge ? `Waiting for ${g.challenge} to accept.` : "Waiting for an opponent to join.";
    else if (g.bid?.status === "open") status = `${bidText(g, this.conn.user)} The game begins when a bid is accepted.`;
    else status = `Turn ${s.turn}, ${s.date}: ${sideName(s.side)} ${phaseName(s.phase)}. ` +
      (this.myTurn ? (s.pending ? `Your decision: ${s.pending.decision} ${s.pending.battle ? `in battle ${s.pending.battle}` : `at ${s.pending.hex}`}.` : "Your move.")
        : `Waiting for the ${sideName(this.waiting)} player.`);
    $("game-status").textContent = status;
    $("clock-box").hidden = $("chat-box").hidden = false;
    this.clock.set(g, g.open ? null : this.waiting, this.me, s.result !== "none");
    const hz = $("hazards");
    hz.textContent = "";
    const hazards = g.open ? [] : g.hazards || [];     // nothing bites before the game begins
    for (const h of hazards) item(hz, `⚠ ${h.text} (${h.section})`);
    $("hazards-title").hidden = !hazards.length;
    $("hazards-title").textContent = this.myTurn ? "Before you act:" : `Dangers for the ${sideName(this.waiting)} player:`;
    // an open game: only what it waits for (accepting, declining, calling off)
    const invited = g.open && g.challenge && g.challenge.toLowerCase() === (this.conn.user || "").toLowerCase();
    $("controls").hidden = !this.me && !invited;
    const begun = !g.open && g.bid?.status !== "open";     // no action before the side auction ends
    for (const id of ["undo", "end-movement", "end-phase", "end-turn", "resign"]) $(id).classList.toggle("gone", !begun);
    $("game-accept").hidden = $("game-decline").hidden = !invited;
    $("game-calloff").hidden = !(g.open && this.me);
    $("decisions").textContent = "";    // the options are asked again (load)
    renderBid(g, this.conn.user, (f) => this.bid(f));
    this.renderBattles();
    this.renderOdds();
    this.renderLosses();
    this.renderControls();
    this.renderSelection();
  }

  renderControls() {
    const s = this.state, mine = this.myTurn && !s.pending;
    $("undo").disabled = !(this.me && s.phase === "movement" && s.side === this.me && s.result === "none" && !s.pending &&
      Object.values(s.units).some((u) => u.flags & 2 || u.flags & 4));    // something moved or arrived this portion
    $("end-movement").disabled = !(mine && s.phase === "movement");
    // The 1964 turn ends with its combat portion; the Updated one with its
    // replacement phase, after combat, mechanized movement and supply.
    const rules = this.rules;
    $("end-turn").disabled = !(mine && s.phase === rules.last_phase);
    $("end-phase").hidden = !rules.end_phase_in.length;
    $("end-phase").disabled = !(mine && rules.end_phase_in.includes(s.phase));
    $("end-phase").textContent = `End the ${phaseName(s.phase)} phase`;
    $("battle-supply-label").textContent = rules.battle_supply === "bombard" ? "Bombard with" : "Supply";
    $("resign").disabled = !(this.me && s.result === "none" && !this.game.open);
    $("rematch").hidden = !(this.me && s.result !== "none" && this.game.players.axis && this.game.players.allied);
    $("battle-box").hidden = !(mine && s.phase === "combat" && !s.combat_locked);
    if ($("battle-box").hidden) { this.attackers.clear(); this.defenders.clear(); this.left.clear(); }
    const sup = $("battle-supply"), keep = sup.value;
    sup.textContent = "";
    sup.appendChild(new Option("none", ""));
    for (const [unit, u] of Object.entries(s.units)) {
      const c = this.board.counters.get(unit);
      if (u.where === "board" && c?.type === "supply" && c.side === this.me) sup.appendChild(new Option(`${unit} (${u.hex})`, unit));
    }
    sup.value = [...sup.options].some((o) => o.value === keep) ? keep : "";
    this.renderBattleBox();
  }

  // The exact chances of the declared battles, as akd worked them out
  // (PROTOCOL.md, "odds"): each battle's results by faces, then together.
  renderOdds() {
    const o = this.game.open ? null : this.game.odds, ul = $("odds");
    ul.textContent = "";
    $("odds-box").hidden = !o;
    if (!o) return;
    const frac = (n, d) => {
      if (n === 0) return "none";
      if (n === d) return "certain";
      const gcd = (a, b) => (b ? gcd(b, a % b) : a), g = gcd(n, d);
      return `${n / g}/${d / g} (${Math.round((100 * n) / d)}%)`;
    };
    const chance = (c) => (c.den ? frac(c.num, c.den) : `${(100 * c.p).toFixed(1)}%`);
    for (const b of o.battles) {
      if (!b.fightable) { item(ul, `Battle ${b.battle} at ${b.odds}: not worked out: ${b.why}`); continue; }
      const squares = b.squares.map((q) => `${q.square} taken ${frac(q.taken, b.faces)}`).join(", ");
      const faces = b.results.map((r) => `${r.result} ${r.faces}`).join(", ");
      item(ul, `Battle ${b.battle} at ${b.odds} (${b.attackers.join(", ")} against ${b.defenders.join(", ")}): ` +
        `defenders eliminated ${frac(b.eliminated, b.faces)}; ${squares}; an attacking unit lost ${frac(b.attackers_hit, b.faces)}, ` +
        `every attacker ${frac(b.attackers_eliminated, b.faces)} (the die's ${b.faces} faces: ${faces})`);
    }
    if (o.fightable > 1)
      item(ul, `All ${o.fightable} together: every defender eliminated ${chance(o.all_eliminated)}; every square taken ` +
        `${chance(o.all_taken)}; no attacking unit lost ${chance(o.none_lost)}`);
  }

  renderBattles() {
    const ol = $("battles"), s = this.state;
    ol.textContent = "";
    this.board.highlight("battle", (s.battles || []).filter((b) => !b.resolved).flatMap((b) => b.hexes));
    (s.battles || []).forEach((b, i) => {
      const n = i + 1;
      const units = Object.entries(s.units).filter(([, u]) => u.battle === n && u.where === "board");
      const att = units.filter(([u]) => this.sideOf(u) === s.side).map(([u]) => u);
      const def = units.filter(([u]) => this.sideOf(u) !== s.side).map(([u]) => u);
      const li = item(ol, `Battle ${n} at ${b.hexes.join(", ")}: ${att.join(", ") || "—"} against ${def.join(", ") || "—"}, ` +
        (this.rules.battle_table === "game" ? this.tableFigures(b) : `${b.attack} to ${b.defense}, odds ${b.odds}` +
          (b.resolved ? `: rolled ${b.roll || "no die"}, ${resultName(b.result)}` : "")));
      if (this.myTurn && !s.pending && !b.resolved) {
        button(li, `Resolve battle ${n}`, () => this.act({ action: "resolve", battle: n }));
        // A declared battle of the Updated ruleset is fought (no cancel).
        if (!s.combat_locked && this.rules.actions.includes("cancel")) button(li, `Cancel battle ${n}`, () => this.act({ action: "cancel", battle: n }));
      }
    });
  }

  // An Updated battle: half points, the die modifier, the table's cell.
  tableFigures(b) {
    const pts = (h) => `${Math.floor(h / 2)}${h % 2 ? ".5" : ""}`;
    const drm = b.drm ? `, die ${b.drm > 0 ? "+" : ""}${b.drm}` : "";
    return `${pts(b.attack)} to ${pts(b.defense)}, odds ${b.odds}${drm}` +
      (b.resolved ? `: rolled ${b.roll} (${b.modified} on the table), ${b.result || "no effect"}` : "");
  }

  // --- the losses a side owes (Updated ruleset: pending `losses`): each
  // of its units kept, reduced (a two-step unit at full strength) or
  // eliminated, sent as one `losses` action; akd says what is short ---
  // Losses owed (the Updated ruleset) chosen on the map: a click on a
  // square of the units that may be lost steps its first such unit on
  // from keep to reduce to eliminate and back, in the panel's list.
  pickLoss(hex) {
    if ($("losses-box").hidden) return false;
    const sels = [...$("losses-units").querySelectorAll("select")].filter((x) => this.state.units[x.dataset.unit]?.hex === hex);
    if (!sels.length) return false;
    const sel = sels.find((x) => x.value !== x.options[x.options.length - 1].value) || sels[0];
    sel.selectedIndex = (sel.selectedIndex + 1) % sel.options.length;
    sel.focus();
    return true;
  }

  // An exchange chosen on the map: each click on a square adds its units
  // to those chosen (or takes them out); the exchanges that lose them all
  // are left in the list, and when one is left its button is ready.
  pickExchange(hex) {
    const buttons = [...$("decisions").querySelectorAll('button[data-action="exchange"]')];
    if (!buttons.length) return false;
    const here = Object.entries(this.state.units).filter(([u, x]) => x.hex === hex && x.where === "board" &&
      buttons.some((b) => b.exchangeUnits.includes(u))).map(([u]) => u);
    if (!here.length) return false;
    this.exchangeChosen ||= new Set();
    const all = here.every((u) => this.exchangeChosen.has(u));
    for (const u of here) all ? this.exchangeChosen.delete(u) : this.exchangeChosen.add(u);
    const fitting = buttons.filter((b) => [...this.exchangeChosen].every((u) => b.exchangeUnits.includes(u)));
    for (const b of buttons) b.hidden = !fitting.includes(b);
    this.board.highlight("selected", [...this.exchangeChosen].map((u) => this.state.units[u].hex));
    if (fitting.length === 1) fitting[0].focus();
    return true;
  }

  lossUnits() {
    const s = this.state, p = s.pending;
    return Object.entries(s.units).filter(([unit, u]) => u.where === "board" && this.sideOf(unit) === p.side &&
      !["supply", "headquarters"].includes(this.board.counters.get(unit)?.type) &&
      (p.loss_kind === 4 ? u.hex === p.hex : u.battle === p.battle)).map(([unit]) => unit);
  }

  renderLosses() {
    const s = this.state, p = s.pending, box = $("losses-box");
    box.hidden = !(this.myTurn && p && p.decision === "losses");
    if (box.hidden) return;
    const pts = (h) => `${Math.floor(h / 2)}${h % 2 ? ".5" : ""}`;
    const owed = {
      0: `Battle ${p.battle}: lose at least ${pts(p.need)} strength points.`,
      1: `Battle ${p.battle}: lose at least ${pts(p.need)} strength points (a percentage of the weaker side).`,
      2: `Battle ${p.battle}: the retreat through enemy zones costs a step.`,
      3: `Battle ${p.battle}: lose a step more to stay in the fortress, or take nothing more and retreat.`,
      4: `Isolation attrition at ${p.hex}: lose at least ${pts(p.need)} strength points.`,
    };
    $("losses-need").textContent = (owed[p.loss_kind] ?? `Lose at least ${pts(p.need)} strength points.`) +
      (p.removed ? ` Removed so far: ${pts(p.removed)}.` : "");
    const ul = $("losses-units");
    ul.textContent = "";
    // on the map: the squares of the units that may be lost (a click steps one's loss)
    this.board.highlight("choice", [...new Set(this.lossUnits().map((u) => s.units[u].hex))]);
    for (const unit of this.lossUnits()) {
      const c = this.board.counters.get(unit), u = s.units[unit];
      const li = document.createElement("li");
      const sel = document.createElement("select");
      sel.dataset.unit = unit;
      sel.setAttribute("aria-label", `Loss for ${unit}`);
      sel.appendChild(new Option("keep", ""));
      if (!u.reduced && (c?.attack ?? 0) > 2) sel.appendChild(new Option("reduce", "reduce"));
      sel.appendChild(new Option("eliminate", "eliminate"));
      li.append(sel, ` ${c?.counter || unit} (${unit})${u.reduced ? ", reduced" : ""}`);
      ul.appendChild(li);
    }
  }

  async sendLosses() {
    const a = { action: "losses" };
    for (const sel of $("losses-units").querySelectorAll("select"))
      if (sel.value) (a[sel.value] ||= []).push(sel.dataset.unit);    // lists left out when empty (PROTOCOL.md)
    await this.act(a);
  }

  // The legal options for a decision (and the placements and other
  // actions of a portion), from the engine, as buttons.
  async renderDecisions() {
    const box = $("decisions");
    const seq = this.seq;
    box.textContent = "";
    this.mapChoices = new Map();    // the square a retreat or an advance ends on -> those actions
    this.exchangeChosen = null;
    if ($("losses-box").hidden) this.board.highlight("choice", []);    // losses outline their own (renderLosses)
    if (!this.myTurn) return;
    let r;
    try { r = await this.conn.request("options", { game: this.id }); } catch (e) { return; }
    if (seq !== this.seq) return;   // the state moved on meanwhile
    const shown = r.actions.filter((a) => !["end_movement", "end_turn", "end_phase", "battle", "resolve", "cancel"].includes(a.action));
    if (!shown.length) return;
    const h = document.createElement("h3");
    h.textContent = this.state.pending ? "Your decision" : "Other actions";
    box.appendChild(h);
    for (const a of shown.slice(0, 60)) {
      const b = button(box, describeAction(a), () => this.actAsking(a), { "data-action": a.action });
      if (a.action === "exchange") b.exchangeUnits = a.units || [];
      if (a.path) {
        b.addEventListener("mouseenter", () => this.board.highlight("path", a.path));
        b.addEventListener("focus", () => this.board.highlight("path", a.path));
      }
    }
    if (shown.length > 60) item(box, `… and ${shown.length - 60} more (akc options lists them all)`);
    // Retreats, advances and break-outs are chosen on the map too: the
    // squares their routes end on (the isolated square breaking out) are
    // outlined; a click on one sends it.
    for (const a of shown) {
      const end = a.action === "retreat" ? a.path?.[a.path.length - 1] : a.action === "advance" && a.units?.length ? a.to
        : a.action === "break_out" ? a.at : null;
      if (end) { if (!this.mapChoices.has(end)) this.mapChoices.set(end, []); this.mapChoices.get(end).push(a); }
    }
    // an exchange's units too: their squares outlined, clicked to choose
    const exchanged = shown.filter((a) => a.action === "exchange").flatMap((a) => a.units || []);
    if (exchanged.length) {
      const squares = [...new Set(exchanged.map((u) => this.state.units[u]?.hex).filter(Boolean))];
      this.board.highlight("choice", squares);
      const p = document.createElement("p");
      p.textContent = "Or click on the map the squares of the units to lose (outlined with dots): the list keeps the exchanges that lose them.";
      box.insertBefore(p, h.nextSibling);
    }
    if (this.mapChoices.size) {
      this.board.highlight("choice", [...this.mapChoices.keys()]);
      this.board.centre([...this.mapChoices.keys()][0]);     // brought into view when it is not
      const p = document.createElement("p");
      p.textContent = "Or click on the map the square it ends on (outlined with dots).";
      box.insertBefore(p, h.nextSibling);
    }
  }

  // An action that throws away a unit or a supply unit is sent only after
  // the player says yes, like Resign: one click never loses a unit.
  async actAsking(a) {
    const units = (a.units || []).join(", ");
    const question = {
      abandon: `Abandon ${units}? It is removed from the game: it cannot attack at 1 to 6 or better (MULTIPLE UNIT BATTLES 6).`,
      destroy_supply: `Destroy ${units}? The supply unit is gone, so that the enemy does not capture it (CAPTURE 8).`,
      burn_supply: `Burn ${units} for emergency supply? The supply unit is used up (SUPPLY PHASE).`,
      break_out: `Break out of ${a.at}? Every unit of yours there leaves the board when the supply phase ends, ` +
        `whatever the attrition roll (ISOLATION ATTRITION).`,
    }[a.action];
    if (question && !confirm(question)) return false;
    return this.act(a);
  }

  // --- selecting on the board ---
  // A click (or Enter) on a square: a move there for the selected units,
  // else a battle's units in the combat portion, else the square's own
  // units selected. A square typed by name (typed) is only looked at.
  async select(hex, { typed = false } = {}) {
    if (this.moves.reviewing) this.moves.backToGame();    // one acts on the game as it is, seen
    this.board.highlight("path", []);
    if (!typed && await this.chooseOnMap(hex)) return;
    if (!hex) { this.selected = null; this.dests.clear(); this.renderSelection(); return; }
    const s = this.state;
    if (!typed && this.selected && this.dests.has(hex)) {
      const units = [...this.selected.units];
      await this.act({ action: "move", units, to: hex });
      return;
    }
    if (!typed && !$("battle-box").hidden) {
      this.toggleBattle(hex);
      return;
    }
    const units = this.board.unitsAt(hex);
    const own = units.filter((u) => this.sideOf(u) === this.me);
    const moving = this.moving;
    // A square the selected units cannot reach: say why, keep the selection.
    if (!typed && moving && this.selected?.units.size && !own.length && hex !== this.selected.hex) {
      await this.explain(hex);
      return;
    }
    // A stack too big to end a move together starts with its strongest
    // unit only (the others are a tick away).
    const combat = own.filter((u) => !["supply", "headquarters"].includes(this.board.counters.get(u)?.type));
    this.selected = { hex, units: new Set(combat.length > 3 ? own.slice(0, 1) : own) };
    this.dests.clear();
    this.renderSelection();
    if (moving && this.selected.units.size) await this.loadDests();
  }

  // A click on a square a retreat or an advance ends on: sent when it
  // names one choice (routes of the same units to the same square differ
  // only by the square passed, and any of them will do); else their routes
  // are drawn and the list says which to pick.
  async chooseOnMap(hex) {
    if (this.myTurn && this.pickLoss(hex)) return true;
    if (this.myTurn && this.pickExchange(hex)) return true;
    const choices = this.mapChoices?.get(hex);
    if (!choices?.length || !this.myTurn) return false;
    const units = (a) => (a.units || []).join(",");
    if (choices.every((a) => a.action === choices[0].action && units(a) === units(choices[0]))) {
      await this.actAsking(choices[0]);
      return true;
    }
    this.board.highlight("path", choices.flatMap((a) => a.path || [a.to]));
    this.showError(`${choices.length} choices end on ${hex} (${choices.map((a) => describeAction(a)).join("; ")}): pick one from the list.`);
    return true;
  }

  async explain(hex) {
    try {
      const r = await this.conn.request("why", { game: this.id, units: [...this.selected.units], to: hex });
      if (!r.reachable) this.showError(`${[...this.selected.units].join(", ")} cannot reach ${hex}: ${r.reason.message} (${r.reason.section})`);
    } catch (e) {
      this.showError(errorText(e));
    }
  }

  async loadDests() {
    const sel = this.selected;
    const ticket = this.destsTicket = (this.destsTicket || 0) + 1;  // a later choice of units wins
    this.dests.clear();
    if (sel.units.size) {
      try {
        const r = await this.conn.request("dests", { game: this.id, units: [...sel.units] });
        if (sel !== this.selected || ticket !== this.destsTicket) return;
        for (const d of r.dests) if (d.hex !== sel.hex) this.dests.set(d.hex, d);
      } catch (e) {
        this.showError(errorText(e));
      }
    }
    const focused = document.activeElement?.dataset?.unit;
    this.renderSelection();
    if (focused) document.querySelector(`#selection-units input[data-unit="${focused}"]`)?.focus();
  }

  renderSelection() {
    const sel = this.selected, box = $("selection");
    this.board.highlight("selected", sel ? [sel.hex] : []);
    this.board.highlight("dest", [...this.dests.keys()]);
    box.hidden = !sel;
    if (!sel) return;
    $("select-none").hidden = !this.myTurn;
    $("select-none").disabled = !sel.units.size;
    $("selection-title").textContent = `Square ${sel.hex}`;
    const ul = $("selection-units");
    ul.textContent = "";
    for (const unit of this.board.unitsAt(sel.hex)) {
      const c = this.board.counters.get(unit);
      const li = document.createElement("li");
      const text = `${c?.counter || unit} (${unit}): ${c?.attack}-${c?.defense}-${c?.movement}, ${sideName(c?.side)}`;
      if (this.sideOf(unit) === this.me && this.myTurn) {
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        box.dataset.unit = unit;
        box.checked = sel.units.has(unit);
        box.addEventListener("change", () => {
          if (box.checked) sel.units.add(unit); else sel.units.delete(unit);
          this.loadDests();
        });
        label.append(box, " " + text);
        li.appendChild(label);
        // a stack is selected whole; this unit alone is one click away
        button(li, "only this", () => {
          sel.units.clear();
          sel.units.add(unit);
          this.renderSelection();   // ticked at once; the squares follow
          document.querySelector(`#selection-units input[data-unit="${unit}"]`)?.focus();
          this.loadDests();
        }, { "data-only": unit, "aria-label": `Select ${unit} alone` });
      } else {
        li.textContent = text;
      }
      ul.appendChild(li);
    }
    const help = $("selection-help");
    const moving = this.moving;
    if (moving && sel.units.size && !this.dests.size) {
      help.textContent = "These units have nowhere to go together now (a stack ends its move with at most three " +
        "combat units, and a unit that has spent its movement stays): untick some, or pick another square.";
    } else if (this.dests.size) {
      help.textContent = `${this.dests.size} squares reachable (outlined): click one, or choose: `;
      const sel2 = document.createElement("select");
      sel2.setAttribute("aria-label", "Move to");
      sel2.appendChild(new Option("move to…", ""));
      const order = (h) => [h.charCodeAt(0), Number(h.slice(1))];
      const byName = (a, b) => { const [x, y] = [order(a), order(b)]; return x[0] - y[0] || x[1] - y[1]; };
      for (const hex of [...this.dests.keys()].sort(byName)) sel2.appendChild(new Option(hex, hex));
      sel2.addEventListener("change", () => { if (sel2.value) this.select(sel2.value); });
      help.appendChild(sel2);
    } else {
      help.textContent = "";
    }
  }

  // --- declaring battles ---
  // Units that may be in a battle now: combat units (never Rommel or a
  // supply unit: HOW TO HAVE COMBAT) not yet in a declared battle
  // (MULTIPLE UNIT BATTLES 8 and 9).
  fighter(u) {
    return !["supply", "headquarters"].includes(this.board.counters.get(u)?.type) && !this.state.units[u]?.battle;
  }

  toggleBattle(hex) {
    const units = this.board.unitsAt(hex).filter((u) => this.fighter(u));
    const own = units.filter((u) => this.sideOf(u) === this.me);
    const enemy = units.filter((u) => this.sideOf(u) && this.sideOf(u) !== this.me);
    const toggle = (set, list) => {
      const all = list.every((u) => set.has(u) || this.left.get(u) === set);
      for (const u of list) {
        this.left.delete(u);
        if (all) set.delete(u); else set.add(u);
      }
    };
    if (own.length) toggle(this.attackers, own);
    else if (enemy.length) toggle(this.defenders, enemy);
    this.oddsLegal = false;
    this.renderBattleBox();
    this.updateOdds();
  }

  clearBattle() {
    this.attackers.clear();
    this.defenders.clear();
    this.left.clear();
    $("battle-supply").value = "";
    this.renderBattleBox();
  }

  renderBattleBox() {
    const hexes = (set) => [...new Set([...set].map((u) => this.state.units[u]?.hex))];
    this.board.highlight("attacker", hexes(this.attackers));
    this.board.highlight("defender", hexes(this.defenders));
    this.renderBattleSide($("battle-attackers"), this.attackers, "none (click your units)");
    this.renderBattleSide($("battle-defenders"), this.defenders, "none (click enemy units)");
    $("battle-declare").disabled = !(this.attackers.size && this.defenders.size && this.oddsLegal);
    if (!this.attackers.size || !this.defenders.size) $("battle-odds").textContent = "";
  }

  // One side of the battle being built, a box per unit: unticking one
  // leaves it out (a stack split between battles, a soak-off).
  renderBattleSide(span, set, none) {
    const shown = [...set, ...[...this.left].filter(([, from]) => from === set).map(([u]) => u)];
    const focused = document.activeElement?.dataset?.battleUnit;     // kept on the box re-made below
    span.textContent = shown.length ? "" : none;
    for (const unit of shown) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = set.has(unit);
      box.dataset.battleUnit = unit;
      box.addEventListener("change", () => {
        if (box.checked) { set.add(unit); this.left.delete(unit); } else { set.delete(unit); this.left.set(unit, set); }
        this.oddsLegal = false;
        this.renderBattleBox();
        this.updateOdds();
      });
      label.append(box, ` ${unit} `);
      span.appendChild(label);
      if (unit === focused) box.focus();
    }
  }

  battleFields() {
    const f = { attackers: [...this.attackers], defenders: [...this.defenders] };
    if ($("battle-supply").value) f.supply = $("battle-supply").value;
    return f;
  }

  async updateOdds() {
    if (!this.attackers.size || !this.defenders.size) return;
    const out = $("battle-odds");
    const ticket = this.oddsTicket = (this.oddsTicket || 0) + 1;   // only the newest answer is shown
    try {
      const r = await this.conn.request("odds", { game: this.id, ...this.battleFields() });
      if (ticket !== this.oddsTicket) return;
      // A battle that needs a supply unit the chosen one cannot give gets
      // the first that can sustain it (the list offers the others).
      const sup = $("battle-supply");
      const can = (r.sustained_by || []).filter((u) => [...sup.options].some((o) => o.value === u));
      if (!r.legal && can.length && !can.includes(sup.value)) {
        sup.value = can[0];
        return this.updateOdds();
      }
      const pts = (h) => (this.rules.strength_unit === "half_point" ? `${Math.floor(h / 2)}${h % 2 ? ".5" : ""}` : `${h}`);
      // each result of the die with its chance, as the table gives it
      const chances = (r.outcomes || []).map((o) => `${o.result} ${o.chances} in ${o.of}`).join(", ");
      out.textContent = r.legal ? `${pts(r.attack)} to ${pts(r.defense)}: odds ${r.odds}` +
          (r.drm ? `, die ${r.drm > 0 ? "+" : ""}${r.drm}` : "") + (chances ? `. Results: ${chances}` : "") +
          (r.sustained_by?.length > 1 ? `. Supply units that can sustain it: ${r.sustained_by.join(", ")}` : "")
        : `Cannot be declared: ${r.reason.message} (${r.reason.section})`;
      this.oddsLegal = r.legal;
      $("battle-declare").disabled = !r.legal;
    } catch (e) {
      out.textContent = errorText(e);
    }
  }

  async declare() {
    if (await this.act({ action: "battle", ...this.battleFields() })) this.clearBattle();
  }

  // --- sending ---
  async end(kind) {
    // What holds the portion open is said at once, not after a question.
    const stuck = (this.game.hazards || []).find((h) => h.kind === "cannot_end");
    if (stuck) { this.showError(`${stuck.text} (${stuck.section})`); return; }
    const bite = (this.game.hazards || []).filter((h) => h.confirm_before === kind);
    if (bite.length && !confirm(bite.map((h) => h.text).join("\n") + "\n\nGo ahead anyway?")) return;
    await this.act({ action: kind });
  }

  // Accept, decline or call off an open game from its own page.
  // A step of the side auction (bid.js); the push brings the game again.
  async bid(fields) {
    try {
      this.load(await this.conn.request("bid", { game: this.id, ...fields }));
    } catch (e) { this.showError(errorText(e)); }
  }

  async lobbyCall(cmd) {
    try {
      await this.conn.request(cmd, { game: this.id });
      if (cmd === "join") this.refresh(0);
      else location.href = "/";
    } catch (e) { this.showError(errorText(e)); }
  }

  // A return game: the same terms, the sides swapped, a challenge to the
  // opponent (as `akc rematch`).
  async rematch() {
    const g = this.game, other = this.me === "axis" ? "allied" : "axis";
    const fields = { ruleset: this.state.ruleset, side: other, opponent: g.players[other], rated: !!g.rated };
    if (g.time_control) fields.time_control = g.time_control;
    if (g.computer?.[other]) fields.computer = g.computer_level || true;     // the computer again, at its level
    try {
      const r = await this.conn.request("new", fields);
      // said where the opponent is looking (the players' chat is open to all once the game is over)
      await this.talk.send(`(offers a rematch: game ${r.game}, sides swapped; accept it in your games list or at /game/${r.game})`);
      location.href = `/game/${r.game}`;
    } catch (e) { this.showError(errorText(e)); }
  }

  async act(action, cmd = "act") {
    if (!this.conn.isOpen) {     // not kept to be sent later, unseen
      this.showError("Not connected to the server: nothing was sent. Try again once the page says connected.");
      return false;
    }
    try {
      const seq = this.seq + 1, n = cmd === "act" ? await nonce(this.id, seq) : null;
      const fields = cmd === "act" ? { game: this.id, action, nonce: n } : { game: this.id };
      const r = await this.conn.request(cmd, fields);
      if (n) {
        // kept under the number it was made for: the record must carry it there
        keepNonce(this.id, seq, n);
        if (r?.seq !== seq)
          item($("log"), `Warning: the server took the action as number ${r?.seq}, not ${seq}, the one its dice nonce was made for.`);
      }
      return true;
    } catch (e) {
      this.showError(errorText(e));
      return false;
    }
  }
}
