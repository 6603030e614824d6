// clock.js: a game's clock on the game page, both sides, live: the time
// left of the side akd waits for (from the game's deadline, counted down
// each second), what the other side will have, overdue plainly; and the
// courtesies of correspondence play: a player gives his opponent more time
// (`give_time`), or asks for it (a line in the players' chat, which the
// opponent sees beside the Give button).

import { sideName, duration, errorText, timeControlText, allowance } from "./describe.js";
import { $ } from "./dom.js";

export class GameClock {
  // talk: the game's chat, which carries a request for more time
  constructor(conn, showError, talk) {
    this.conn = conn;
    this.showError = showError;
    this.talk = talk;
    $("give-time").addEventListener("click", () => this.give());
    $("ask-time").addEventListener("click", () => this.ask());
    setInterval(() => this.render(), 1000);
  }

  // g: the game's summary (deadline, time_control, overdue); waiting: the
  // side akd waits for (null: nobody); me: the viewer's side, or null;
  // over: the game has ended.
  set(g, waiting, me, over) {
    this.g = g;
    this.over = over;
    this.waiting = waiting;
    this.me = me;
    this.render();
  }

  render() {
    const g = this.g;
    if (!g) return;
    const tc = g.time_control, running = tc && g.deadline && this.waiting;
    $("clock-terms").textContent = tc ? `Clock: ${timeControlText(tc)}` : "No clock: nobody runs out of time.";
    const over = this.over;
    for (const side of ["axis", "allied"]) {
      let text = `${sideName(side)}: `;
      if (over) text += "the game is over";
      else if (!tc) text += "no clock";
      else if (running && side === this.waiting) {
        const left = g.deadline - Date.now() / 1000;
        text += g.overdue || left <= 0 ? "OVERDUE (out of time)" : `${duration(left)} left, to play`;
      } else text += `waiting (${allowance(tc)} when its turn comes)`;
      const el = $(`clock-${side}`);
      el.textContent = text;
      el.className = running && side === this.waiting ? (g.overdue ? "overdue" : "running") : "";
    }
    const mine = !!this.me && running;
    $("give-time-box").hidden = !(mine && this.waiting !== this.me);
    $("ask-time").hidden = !(mine && this.waiting === this.me);
  }

  async give() {
    const seconds = Number($("give-time-amount").value);
    try {
      const g = await this.conn.request("give_time", { game: this.g.game, seconds });
      this.g.deadline = g.deadline;
      this.g.overdue = g.overdue;
      this.render();
    } catch (e) { this.showError(errorText(e)); }
  }

  async ask() {
    const left = this.g.deadline - Date.now() / 1000;
    if (await this.talk.send(`(asks for more time: ${duration(left)} left on the clock)`))
      $("ask-time").textContent = "Asked: ask again";
  }
}
