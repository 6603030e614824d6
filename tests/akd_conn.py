"""akd_conn: one protocol connection to akd for the Python tests
(crash.py, updated.py, budget.py): newline-delimited JSON over TCP, each request
numbered, its reply found by its id (pushes and other replies skipped)."""
import atexit
import json
import socket
import subprocess


class Conn:
    def __init__(self, port, timeout=5, source=None):
        """source: the local address to connect from (Linux routes all of
        127/8 to the loopback, so 127.0.0.2 is another client address)."""
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                          source_address=(source, 0) if source else None)
        self.buf = b""
        self.next_id = 1

    def message(self):
        """The next message akd sends (a reply or a push)."""
        while b"\n" not in self.buf:
            data = self.s.recv(1 << 20)
            if not data:
                raise ConnectionError("closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def request(self, msg):
        """Send msg (a dict; its id is set here) and return the reply."""
        msg["id"] = self.next_id
        self.next_id += 1
        self.s.sendall((json.dumps(msg) + "\n").encode())
        while True:
            reply = self.message()
            if reply.get("id") == msg["id"]:
                return reply

    def pipeline(self, msgs):
        """Send msgs at once (ids set here); their replies in the order
        they came, as (index, reply) pairs."""
        first = self.next_id
        for i, m in enumerate(msgs):
            m["id"] = first + i
        self.next_id += len(msgs)
        self.s.sendall("".join(json.dumps(m) + "\n" for m in msgs).encode())
        got = []
        while len(got) < len(msgs):
            r = self.message()
            if isinstance(r.get("id"), int) and first <= r["id"] < first + len(msgs):
                got.append((r["id"] - first, r))
        return got

    def call(self, cmd, **fields):
        return self.request(dict(fields, cmd=cmd))

    def ok(self, cmd, **fields):
        """The result of a request that must succeed."""
        r = self.call(cmd, **fields)
        if not r.get("ok"):
            raise RuntimeError("%s: %s" % (cmd, r.get("error")))
        return r["result"]

    def close(self):
        self.s.close()


def spawn_akd(akd, args, log, rng, running, preexec=None):
    """akd on a free loopback port (a random one may be taken: another is
    tried), with args; its standard error into log (an open file), the
    process added to running (for the caller to stop). (process, port), or
    None when it would not start."""
    for _ in range(10):
        port = 20000 + rng.randrange(30000)
        p = subprocess.Popen([akd, "--listen", "127.0.0.1:%d" % port] + list(args), stdout=subprocess.PIPE,
                             stderr=log, preexec_fn=preexec)
        running.append(p)
        if b"listening" in p.stdout.readline():
            return p, port
        p.wait()
    return None


def kill_at_exit(running):
    """Every process in running (spawn_akd's list) killed when the test
    ends, a failure included."""
    def stop_all():
        for p in running:
            if p.poll() is None:
                p.kill()
                p.wait()
    atexit.register(stop_all)
