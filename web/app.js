// app.js: the page's entry. Connects to akd's WebSocket on the same
// address, logs in again with a saved session, and shows the view the
// address names: /game/N (watch or play a game), /ladder, /player/NAME
// (public), /tournaments, /tournament/N, /settings, /admin (admins), else the lobby; the
// login form for someone not logged in where an account is needed.

import { Connection, AkError } from "./net.js";
import { Board } from "./board.js";
import { GameView } from "./game.js";
import { Lobby } from "./lobby.js";
import { LadderView, PlayerView } from "./ladder.js";
import { TournamentsView } from "./tournaments.js";
import { SettingsView } from "./settings.js";
import { AdminView } from "./admin.js";
import { Charts } from "./charts.js";
import { errorText } from "./describe.js";
import { $ } from "./dom.js";

const conn = new Connection(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);

// Errors stay until dismissed or 20 s pass, at the bottom of the window.
function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = !text;
  clearTimeout(showError.timer);
  if (text) showError.timer = setTimeout(() => { $("error").hidden = true; }, 20000);
}
$("error-close").addEventListener("click", () => showError(""));

const VIEWS = ["login-view", "lobby-view", "game-view", "ladder-view", "player-view", "tournaments-view", "settings-view", "admin-view"];
function show(view) {
  for (const v of VIEWS) $(v).hidden = v !== view;
}

function renderUser() {
  $("userbar").hidden = !conn.user;
  $("login-link").hidden = !!conn.user;
  $("settings-link").hidden = !conn.user;
  $("admin-link").hidden = !conn.admin;
  $("username").textContent = conn.user ? `Logged in as ${conn.user}` : "";
}

conn.onState((s, detail) => {
  $("conn-status").textContent = s === "closed" ? "disconnected: reconnecting…" : "connected";
  if (s === "error" && detail) showError(`${detail.message} (${detail.code})`);
});

async function login(cmd) {
  if (!$("login-form").reportValidity()) return;
  const user = $("login-user").value.trim(), password = $("login-password").value;
  if (cmd === "register" && password.length < 8) { showError("A new password needs at least 8 characters."); return; }
  // a typo in a new password would lock its owner out: typed twice
  if (cmd === "register" && $("login-password2").value !== password) {
    showError("Type the new password again in the second field, the same: nothing was sent.");
    $("login-password2").focus();
    return;
  }
  try {
    await conn.login(cmd, user, password);
    showError("");
    route();
  } catch (e) {
    showError(errorText(e));
  }
}

let board = null, gameView = null;
const views = {};
const view = (name, make) => (views[name] ||= make());

async function routeGame(id) {
  show("game-view");
  if (!board) {
    const map = await conn.request("map");
    board = new Board($("board"), map);
    gameView = new GameView(conn, board, showError);
    new Charts(map, () => gameView.charted());
    // the buttons zoom on the selected square, if any (the wheel: on the pointer)
    $("zoom-in").addEventListener("click", () => board.zoomOn(1 / 1.25, gameView.selected?.hex));
    $("zoom-out").addEventListener("click", () => board.zoomOn(1.25, gameView.selected?.hex));
    $("zoom-fit").addEventListener("click", () => board.fit());
  }
  try {
    await gameView.open(id);
  } catch (e) {
    gameView.close();     // nothing to act on: no buttons, no selection
    $("game-title").textContent = e.code === "no_such_game" ? `There is no game ${id}.` : "The game cannot be shown.";
    $("board-wrap").hidden = true;
    showError(e instanceof AkError ? errorText(e) : String(e));
  }
}

async function route() {
  renderUser();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/game\/(\d+)$/))) return routeGame(Number(m[1]));
  if (path === "/ladder") { show("ladder-view"); return view("ladder", () => new LadderView(conn, showError)).load(); }
  if ((m = path.match(/^\/player\/([A-Za-z0-9_-]{1,32})$/))) {
    show("player-view");
    return view("player", () => new PlayerView(conn, showError)).load(m[1]);
  }
  if (!conn.user) {
    $("login-why").textContent = path === "/" || path === "/lobby" ? "" :
      "That page needs an account: log in or register. The ladder and the players' pages need none.";
    show("login-view");
    return;
  }
  if (path === "/tournaments") { show("tournaments-view"); return view("tournaments", () => new TournamentsView(conn, showError)).list(); }
  if ((m = path.match(/^\/tournament\/(\d+)$/))) {
    show("tournaments-view");
    return view("tournaments", () => new TournamentsView(conn, showError)).show(Number(m[1]));
  }
  if (path === "/settings") { show("settings-view"); return view("settings", () => new SettingsView(conn, showError)).load(); }
  if (path === "/admin") { show("admin-view"); return view("admin", () => new AdminView(conn, showError)).load(); }
  show("lobby-view");
  view("lobby", () => new Lobby(conn, showError)).load();
}

// Enter: a log-in, or a registration when the password was typed twice
$("login-form").addEventListener("submit", (ev) => { ev.preventDefault(); login($("login-password2").value ? "register" : "login"); });
$("register").addEventListener("click", () => login("register"));
$("logout").addEventListener("click", async () => {
  try { await conn.logout(); } catch (e) { /* logged out here either way */ }
  location.href = "/";
});

conn.connect().then(route);
