// The protocol checks run over both of akd's transports (issue 17: the
// WebSocket speaks exactly the TCP port's protocol, limits included):
// each check opens a fresh connection, sends its lines (one per frame on
// the WebSocket, newline-terminated on TCP) and compares the reply to its
// last line, by error code or "ok", with what PROTOCOL.md says.
import net from "node:net";

const long = `{"id":1,"cmd":"hello","pad":"${"x".repeat(70000)}"}`;
// akd's default rate is 200 a second with bursts of 400
const pings = Array.from({ length: 1000 }, (_, i) => `{"id":${i + 1},"cmd":"ping"}`);

export const checks = [
  { what: "hello is answered", lines: ['{"id":1,"cmd":"hello"}'], expect: "ok" },
  { what: "a line that is not JSON is bad_json", lines: ["this is not json"], expect: "bad_json" },
  { what: "a JSON value that is not an object is bad_json", lines: ["[1,2]"], expect: "bad_json" },
  { what: "no cmd is bad_request", lines: ['{"id":1}'], expect: "bad_request" },
  { what: "an unknown command is unknown_command", lines: ['{"id":1,"cmd":"frobnicate"}'], expect: "unknown_command" },
  { what: "dests needs a login", lines: ['{"id":1,"cmd":"dests","game":1,"units":["21pz5"]}'], expect: "not_logged_in" },
  { what: "act needs a login", lines: ['{"id":1,"cmd":"act","game":1,"action":{"action":"end_movement"}}'], expect: "not_logged_in" },
  { what: "a wrong password is auth_failed", lines: ['{"id":1,"cmd":"login","user":"nobody-here","password":"wrong-password"}'], expect: "auth_failed" },
  { what: "a game that does not exist is no_such_game", lines: ['{"id":1,"cmd":"show","game":999999}'], expect: "no_such_game" },
  { what: "a message over the line limit is line_too_long", lines: [long], expect: "line_too_long" },
  { what: "a flood of requests is rate_limited", lines: pings, expect: "rate_limited" },
];

function code(reply) {
  if (!reply) return "no reply";
  return reply.ok ? "ok" : reply.error.code;
}

// The reply to a check's last line: by its id, or the id-less error that
// ends the connection (line_too_long), or for a flood any rate_limited.
function verdict(check, replies) {
  let last = null;
  try { last = JSON.parse(check.lines[check.lines.length - 1]); } catch { /* the line is the point */ }
  if (check.expect === "rate_limited") return replies.some((r) => code(r) === "rate_limited") ? "rate_limited" : code(replies.at(-1));
  const mine = replies.find((r) => last && typeof last === "object" && !Array.isArray(last) && r.id === last.id && r.id !== undefined);
  return code(mine || replies.find((r) => r.id === null) || replies.at(-1));
}

export async function runTcp(hostPort) {
  const [host, port] = hostPort.split(":");
  const out = [];
  for (const check of checks) {
    const replies = await new Promise((resolve) => {
      const got = [];
      let buf = "";
      const s = net.connect(Number(port), host, () => s.write(check.lines.map((l) => l + "\n").join("")));
      const done = () => { s.destroy(); resolve(got); };
      s.on("data", (d) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) { got.push(JSON.parse(buf.slice(0, nl))); buf = buf.slice(nl + 1); }
        if (got.length >= check.lines.length) done();
      });
      s.on("close", done);
      s.on("error", done);
      setTimeout(done, 3000);
    });
    out.push(verdict(check, replies));
  }
  return out;
}

// In the browser page (its WebSocket), the same checks.
export async function runWs(page, wsUrl) {
  const all = await page.evaluate(async ([checks, wsUrl]) => {
    const out = [];
    for (const check of checks) {
      out.push(await new Promise((resolve) => {
        const got = [];
        const ws = new WebSocket(wsUrl, "akd");
        const done = () => { ws.close(); resolve(got); };
        ws.onopen = () => { for (const l of check.lines) ws.send(l); };
        ws.onmessage = (e) => { got.push(JSON.parse(e.data)); if (got.length >= check.lines.length) done(); };
        ws.onclose = () => resolve(got);
        setTimeout(done, 3000);
      }));
    }
    return out;
  }, [checks, wsUrl]);
  return all.map((replies, i) => verdict(checks[i], replies));
}
