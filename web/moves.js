// moves.js: a game's move list and its replay, for anyone (no login: akd
// gives spectators the record and replays). The list comes from the game
// record (`record`: every action from the start, also for a page opened
// in the middle of a game) and grows from the pushes, which carry each
// action. Any earlier position can be looked at (a click on a move, the
// slider, the step buttons, Home/End and the arrows on the slider): akd
// replays the game to it (`replay`); the board shows it until "Back to
// the game", while the game itself goes on underneath (its pushes are
// still applied; only the drawing waits). A finished game's record is also
// checked against the dice nonces this page sent (issue 27).

import { checkNonces, keptNonces } from "./net.js";
import { describeAction, sideName, phaseName, errorText } from "./describe.js";
import { $, item, button } from "./dom.js";

export class MoveList {
  // live(): draw the game's own position again
  constructor(conn, board, showError, live) {
    this.conn = conn;
    this.board = board;
    this.showError = showError;
    this.live = live;
    this.at = null;            // the action number shown, null: the game as it is
    this.actions = [];         // [{side, action}] from the record and the pushes
    $("replay").addEventListener("input", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.show(Number($("replay").value)), 120);
    });
    const step = (id, to) => $(id).addEventListener("click", () => this.show(Math.max(0, Math.min(this.seq, to()))));
    step("replay-first", () => 0);
    step("replay-back", () => (this.at ?? this.seq) - 1);
    step("replay-next", () => (this.at ?? this.seq) + 1);
    step("replay-last", () => this.seq);
    $("replay-live").addEventListener("click", () => this.backToGame());
  }

  get reviewing() { return this.at !== null; }

  // A game opened (or shown again): its record, read once per game.
  async open(id, seq, over) {
    const fresh = this.id !== id;
    this.id = id;
    this.seq = seq;
    if (fresh) { this.at = null; this.actions = []; this.record = null; }
    $("replay-box").hidden = false;
    this.renderSlider();
    if (!fresh && this.record && this.actions.length === seq && (!over || this.checkedOver === id)) return;
    try {
      this.record = await this.conn.request("record", { game: id });
    } catch (e) {
      // a busy server (replays_per_second): the list waits, the game goes on
      $("replay-at").textContent = `The move list could not be read: ${errorText(e)}`;
      return;
    }
    if (this.id !== id) return;
    this.actions = this.record.actions.map((a) => ({ side: a.side, action: a.action }));
    this.renderList();
    if (over) this.checkOver();
  }

  close() {
    this.id = null;
    this.at = null;
    $("replay-box").hidden = true;
    $("moves").textContent = "";
  }

  // The dice nonces this page sent are the ones in the finished game's record.
  checkOver() {
    if (this.checkedOver === this.id) return;
    this.checkedOver = this.id;
    const { checked, first } = checkNonces(this.record, keptNonces(this.id));
    if (first)
      item($("log"), `NOT VERIFIED: the record's dice nonce of action ${first} is not the one this page sent.`, "error");
    else if (checked)
      item($("log"), `The ${checked} dice nonce(s) this page sent for its actions are the ones recorded.`);
  }

  // A push: an action added (game) or taken back (undo). by is the side,
  // or "server"/"admin" for an action made for a side (a loss on time, an
  // adjudication): then the side that was awaited (waiting).
  pushed(m, waiting) {
    const side = m.by === "axis" || m.by === "allied" ? m.by : waiting;
    if (m.push === "game" && m.seq === this.actions.length + 1 && m.action) this.actions.push({ side, action: m.action });
    else if (m.push === "undo" && m.seq === this.actions.length - 1) this.actions.pop();
    this.seq = m.seq;
    this.renderList();
    this.renderSlider();
  }

  renderList() {
    const ol = $("moves");
    ol.textContent = "";
    this.actions.forEach((a, i) => {
      const li = document.createElement("li");
      li.value = i + 1;
      button(li, `${sideName(a.side)}: ${describeAction(a.action)}`, () => this.show(i + 1), { "data-seq": i + 1 });
      if (this.at === i + 1) li.className = "shown";
      ol.appendChild(li);
    });
    if (this.at === null) ol.scrollTop = ol.scrollHeight;
  }

  renderSlider() {
    const slider = $("replay");
    slider.max = String(this.seq);
    slider.value = String(this.at ?? this.seq);
    $("replay-live").hidden = this.at === null;
    if (this.at === null) $("replay-at").textContent = `The game as it is: ${this.seq} actions.`;
  }

  // The position after `at` actions; at the game's own seq, the game itself.
  async show(at) {
    if (at === this.seq && this.at !== null) { this.backToGame(); return; }
    if (at === this.seq) return;
    this.at = at;
    $("replay").value = String(at);
    try {
      const r = await this.conn.request("replay", { game: this.id, at });
      if (this.at !== at) return;
      this.board.setUnits(r.state);
      const a = this.actions[at - 1];
      $("replay-at").textContent = at === 0 ? "Looking at the start." :
        `Looking at the position after action ${at} of ${this.seq} (${sideName(a?.side)}: ${a ? describeAction(a.action) : "?"}), ` +
        `turn ${r.state.turn}, ${r.state.date}, ${phaseName(r.state.phase)}.`;
    } catch (e) {
      this.showError(errorText(e));
    }
    this.renderList();
    this.renderSlider();
  }

  backToGame() {
    this.at = null;
    this.live();
    this.renderList();
    this.renderSlider();
  }
}
