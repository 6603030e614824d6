// net.js: the connection to akd, a WebSocket speaking the NDJSON protocol
// of proto/PROTOCOL.md, one message per frame. request() numbers each
// request and resolves with its result (or rejects with an AkError carrying
// the code, and for `illegal` the rule and section); messages without an id
// are pushes, handed to the listeners. The session token is kept in
// sessionStorage (never in a URL): after a reconnect the connection logs in
// again with `resume` before anything else is sent.

export class AkError extends Error {
  constructor(error) {
    super(error.message || error.code);
    this.code = error.code;
    this.rule = error.rule;
    this.section = error.section;
  }
}

const TOKEN_KEY = "akd.token";
const PING_MS = 240000;     // under the server's session_idle_timeout (600 s)

export class Connection {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.waiting = new Map();
    this.pushListeners = [];
    this.stateListeners = [];
    this.user = null;
    this.ready = null;
    this.retryMs = 500;
  }

  // A socket is open and logged in again: actions may be sent.
  get isOpen() { return !!this.ws && this.ws.readyState === WebSocket.OPEN && !this.readyResolve; }

  get token() { return sessionStorage.getItem(TOKEN_KEY); }
  set token(t) { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); }

  onPush(fn) { this.pushListeners.push(fn); }
  onState(fn) { this.stateListeners.push(fn); }
  setState(s, detail) { for (const fn of this.stateListeners) fn(s, detail); }

  // Opens the socket. this.ready resolves once a socket is open and, with
  // a saved token, logged in again (or the token dropped if it no longer
  // works); while no socket is open it stays pending, across retries, so
  // that requests wait for the next connection instead of failing or
  // hanging on a socket that never opened.
  connect() {
    if (!this.readyResolve) this.ready = new Promise((resolve) => { this.readyResolve = resolve; });
    const ready = this.ready;
    const ws = new WebSocket(this.url, "akd");
    this.ws = ws;
    ws.onopen = async () => {
      if (this.token) {
        try {
          const r = await this.send("resume", { token: this.token });
          this.user = r.user;
          this.admin = !!r.admin;
        } catch (e) {
          if (e.code !== "disconnected") this.token = null;
          this.user = null;
        }
      }
      if (ws !== this.ws || ws.readyState !== WebSocket.OPEN) return;   // closed meanwhile: onclose retries
      this.setState(this.everOpen ? "reconnected" : "open");
      this.everOpen = true;
      this.pinger = setInterval(() => this.send("ping").catch(() => {}), PING_MS);
      const resolve = this.readyResolve;
      this.readyResolve = null;
      resolve();
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      clearInterval(this.pinger);
      for (const [, w] of this.waiting) w.reject(new AkError({ code: "disconnected", message: "the connection to the server was lost" }));
      this.waiting.clear();
      if (!this.readyResolve) this.ready = new Promise((resolve) => { this.readyResolve = resolve; });
      this.setState("closed");
      // Slower each time, until a reply says the server is glad of us: a
      // server that refuses at once (too many connections) is not hammered.
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 15000);
    };
    return ready;
  }

  receive(text) {
    let msg;
    try { msg = JSON.parse(text); } catch { return; }
    if (msg.push) {
      for (const fn of this.pushListeners) fn(msg);
      return;
    }
    if (msg.id === null || msg.id === undefined) {
      // An error about no request in particular (the connection closes after
      // most of them): show it.
      if (msg.error) this.setState("error", msg.error);
      return;
    }
    if (msg.ok) this.retryMs = 500;
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    if (msg.ok) w.resolve(msg.result);
    else w.reject(new AkError(msg.error));
  }

  // One request on the open socket.
  send(cmd, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new AkError({ code: "disconnected", message: "not connected to the server" }));
        return;
      }
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, cmd, ...fields }));
    });
  }

  // A request once the connection is ready (waits through a reconnect).
  async request(cmd, fields = {}) {
    while (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.readyResolve) await this.ready;
    return this.send(cmd, fields);
  }

  async login(cmd, user, password) {
    const r = await this.request(cmd, { user, password });
    this.token = r.token;
    this.user = r.user;
    this.admin = !!r.admin;     // the admin screens are offered (akd checks every request)
    return r;
  }

  async logout() {
    try { await this.request("logout"); } finally {
      this.token = null;
      this.user = null;
      this.admin = false;
    }
  }
}

// The player's share of an action's dice (PROTOCOL.md, "Verifiable dice"):
// 32 hex digits. As akc does, the page derives it from a key of its own
// (kept for the browser session), the game and the action's number, so
// that a retry of the same action sends the same nonce; it keeps each one
// the server took (keepNonce), checks that the reply numbers the action as
// the nonce was made for, and, once the game's record is read, that the
// record carries the nonces it sent (checkNonces). Without WebCrypto (a
// page served over plain HTTP from afar) the nonce is drawn at random.
const NONCE_KEY = "akd-nonce-key";
const hex = (bytes) => Array.from(bytes, (x) => x.toString(16).padStart(2, "0")).join("");

function sessionKey() {
  let k = null;
  try { k = sessionStorage.getItem(NONCE_KEY); } catch { /* storage refused: a key for this page only */ }
  if (!k) {
    const b = new Uint8Array(32);
    crypto.getRandomValues(b);
    k = hex(b);
    try { sessionStorage.setItem(NONCE_KEY, k); } catch { /* kept in memory below */ }
  }
  return k;
}

export async function nonce(game, seq) {
  if (!crypto.subtle) {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return hex(b);
  }
  const raw = Uint8Array.from(sessionKey().match(/../g), (h) => parseInt(h, 16));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`akweb-nonce-1 ${location.host} ${game} ${seq}`));
  return hex(new Uint8Array(mac).slice(0, 16));
}

const keptKey = (game) => `akd-nonces-${location.host}-${game}`;

export function keptNonces(game) {
  try { return JSON.parse(sessionStorage.getItem(keptKey(game)) || "{}"); } catch { return {}; }
}

export function keepNonce(game, seq, n) {
  const kept = keptNonces(game);
  kept[seq] = n;
  try { sessionStorage.setItem(keptKey(game), JSON.stringify(kept)); } catch { /* not kept: nothing to check */ }
}

// The kept nonces against a record: how many were checked, and the first
// action whose recorded nonce is not the one sent (0: none).
export function checkNonces(record, kept) {
  let checked = 0, first = 0;
  for (const [seq, n] of Object.entries(kept)) {
    const a = (record.actions || []).find((x) => x.seq === Number(seq));
    checked++;
    if ((!a || a.nonce !== n) && (!first || Number(seq) < first)) first = Number(seq);
  }
  return { checked, first };
}
