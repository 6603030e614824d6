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

  get token() { return sessionStorage.getItem(TOKEN_KEY); }
  set token(t) { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); }

  onPush(fn) { this.pushListeners.push(fn); }
  onState(fn) { this.stateListeners.push(fn); }
  setState(s, detail) { for (const fn of this.stateListeners) fn(s, detail); }

  // Opens the socket; resolves once it is open and, with a saved token,
  // logged in again (or the token dropped if it no longer works).
  connect() {
    this.ready = new Promise((resolve) => {
      const ws = new WebSocket(this.url, "akd");
      this.ws = ws;
      ws.onopen = async () => {
        this.retryMs = 500;
        if (this.token) {
          try {
            const r = await this.send("resume", { token: this.token });
            this.user = r.user;
          } catch (e) {
            this.token = null;
            this.user = null;
          }
        }
        this.setState("open");
        this.pinger = setInterval(() => this.send("ping").catch(() => {}), PING_MS);
        resolve();
      };
      ws.onmessage = (e) => this.receive(e.data);
      ws.onclose = () => {
        clearInterval(this.pinger);
        for (const [, w] of this.waiting) w.reject(new AkError({ code: "disconnected", message: "the connection to the server was lost" }));
        this.waiting.clear();
        this.setState("closed");
        setTimeout(() => this.connect().then(() => this.setState("reconnected")), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, 15000);
      };
    });
    return this.ready;
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
    await this.ready;
    return this.send(cmd, fields);
  }

  async login(cmd, user, password) {
    const r = await this.request(cmd, { user, password });
    this.token = r.token;
    this.user = r.user;
    return r;
  }

  async logout() {
    try { await this.request("logout"); } finally {
      this.token = null;
      this.user = null;
    }
  }
}

// A fresh nonce for an action: the player's share of its dice (PROTOCOL.md,
// "Verifiable dice"), 32 hex digits from the browser's secure generator.
export function nonce() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
