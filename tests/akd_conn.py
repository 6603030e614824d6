"""akd_conn: one protocol connection to akd for the Python tests
(crash.py, updated.py, budget.py): newline-delimited JSON over TCP, each request
numbered, its reply found by its id (pushes and other replies skipped)."""
import json
import socket


class Conn:
    def __init__(self, port, timeout=5, source=None):
        """source: the local address to connect from (Linux routes all of
        127/8 to the loopback, so 127.0.0.2 is another client address)."""
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                          source_address=(source, 0) if source else None)
        self.buf = b""
        self.next_id = 1

    def request(self, msg):
        """Send msg (a dict; its id is set here) and return the reply."""
        msg["id"] = self.next_id
        self.next_id += 1
        self.s.sendall((json.dumps(msg) + "\n").encode())
        while True:
            while b"\n" not in self.buf:
                data = self.s.recv(1 << 20)
                if not data:
                    raise ConnectionError("closed")
                self.buf += data
            line, self.buf = self.buf.split(b"\n", 1)
            reply = json.loads(line)
            if reply.get("id") == msg["id"]:
                return reply

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
