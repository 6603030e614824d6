#!/usr/bin/env python3
"""A minimal WebSocket client for the shell tests (RFC 6455 by hand, the
standard library only): sends each line of standard input as one masked
text frame to akd's WebSocket (binary with WS_BINARY=1), then prints each
text frame akd sends back, one a line, until as many replies as lines came
or the connection closes (or TIMEOUT seconds pass); "(closed)" when akd
closed it. A line "#sleep N" waits N seconds before the next line is sent
(the replies so far are printed first). With WS_NO_READ=SECONDS it reads
nothing (a small receive buffer) for that long after sending, then says
whether akd's end of the connection is still established, from the
kernel's table (/proc/net/tcp): "(server closed it)" or "(server still has
it open)".

usage: wsclient.py ws://HOST:PORT/ws | wss://HOST:PORT/ws [CAFILE] < lines
"""
import base64, os, socket, ssl, struct, sys, time

def main():
    url, cafile = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    secure = url.startswith("wss://")
    hostport, _, path = url.split("://", 1)[1].partition("/")
    host, port = hostport.rsplit(":", 1)
    no_read = float(os.environ.get("WS_NO_READ", "0"))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if no_read:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    if os.environ.get("WS_SOURCE"):
        sock.bind((os.environ["WS_SOURCE"], 0))
    sock.connect((host, int(port)))
    if secure:
        ctx = ssl.create_default_context(cafile=cafile)
        ctx.check_hostname = False      # the test certificate names no host
        sock = ctx.wrap_socket(sock)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: akd\r\n" +
                  (f"Origin: {os.environ['WS_ORIGIN']}\r\n" if os.environ.get("WS_ORIGIN") else "") +
                  "".join(h + "\r\n" for h in os.environ.get("WS_HEADERS", "").split("|") if h) +
                  "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            sys.exit("no upgrade")
        head += chunk
    status = head.split(b"\r\n", 1)[0]
    if b" 101 " not in status:
        sys.exit(f"upgrade refused: {status.decode()}")
    rest = head.split(b"\r\n\r\n", 1)[1]
    lines = [l.rstrip("\n") for l in sys.stdin if l.strip()]
    state = {"buf": rest, "got": 0, "closed": False}
    deadline = time.time() + float(os.environ.get("TIMEOUT", "10"))
    opcode = 0x82 if os.environ.get("WS_BINARY") else 0x81

    def need(k):
        while len(state["buf"]) < k:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            state["buf"] += chunk

    def read_replies(want):
        """Print frames until `want` replies in all, a close, or the deadline."""
        try:
            while state["got"] < want and not state["closed"] and time.time() < deadline:
                sock.settimeout(max(0.1, deadline - time.time()))
                need(2)
                buf = state["buf"]
                op, n, off = buf[0] & 0x0F, buf[1] & 0x7F, 2
                if n == 126:
                    need(4); n = struct.unpack(">H", state["buf"][2:4])[0]; off = 4
                elif n == 127:
                    need(10); n = struct.unpack(">Q", state["buf"][2:10])[0]; off = 10
                need(off + n)
                payload, state["buf"] = state["buf"][off:off + n], state["buf"][off + n:]
                if op == 8:
                    state["closed"] = True
                elif op == 1:
                    print(payload.decode(), flush=True)
                    state["got"] += 1
        except (EOFError, OSError):
            state["closed"] = True

    sent = 0
    for line in lines:
        if line.startswith("#sleep "):
            read_replies(sent)
            time.sleep(float(line.split()[1]))
            deadline = max(deadline, time.time() + 5)
            continue
        data, mask = line.encode(), os.urandom(4)
        n = len(data)
        bit = 0 if os.environ.get("WS_UNMASKED") else 0x80
        hdr = bytes([opcode]) + (bytes([bit | n]) if n < 126 else
                                 bytes([bit | 126]) + struct.pack(">H", n) if n < 65536 else
                                 bytes([bit | 127]) + struct.pack(">Q", n))
        body = data if not bit else mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        try:
            sock.sendall(hdr + body)
        except OSError:
            state["closed"] = True
            break
        sent += 1
    if no_read:
        time.sleep(no_read)
        mine = "%04X" % sock.getsockname()[1]
        established = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                rows = open(table).read().splitlines()[1:]
            except OSError:
                continue
            for row in rows:
                f = row.split()
                # akd's end: local port the server's, remote port ours, state 01
                if f[1].endswith(":%04X" % int(port)) and f[2].endswith(":" + mine) and f[3] == "01":
                    established += 1
        print("(server still has it open)" if established else "(server closed it)")
        return
    read_replies(sent)
    if state["closed"]:
        print("(closed)")

main()
