#!/usr/bin/env python3
"""A minimal WebSocket client for the shell tests (RFC 6455 by hand, the
standard library only): sends each line of standard input as one masked
text frame to akd's WebSocket, then prints each text frame akd sends
back, one a line, until as many replies as lines came or the connection
closes (or TIMEOUT seconds pass).

usage: wsclient.py ws://HOST:PORT/ws | wss://HOST:PORT/ws [CAFILE] < lines
"""
import base64, os, socket, ssl, struct, sys, time

def main():
    url, cafile = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    secure = url.startswith("wss://")
    hostport, _, path = url.split("://", 1)[1].partition("/")
    host, port = hostport.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=10)
    if secure:
        ctx = ssl.create_default_context(cafile=cafile)
        ctx.check_hostname = False      # the test certificate names no host
        sock = ctx.wrap_socket(sock)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: akd\r\n\r\n").encode())
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
    for line in lines:
        data, mask = line.encode(), os.urandom(4)
        n = len(data)
        hdr = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                               bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                               bytes([0x80 | 127]) + struct.pack(">Q", n))
        sock.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
    buf, got, deadline = rest, 0, time.time() + float(os.environ.get("TIMEOUT", "10"))
    def need(k):
        nonlocal buf
        while len(buf) < k:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            buf += chunk
    try:
        while got < len(lines) and time.time() < deadline:
            need(2)
            op, n = buf[0] & 0x0F, buf[1] & 0x7F
            off = 2
            if n == 126:
                need(4); n = struct.unpack(">H", buf[2:4])[0]; off = 4
            elif n == 127:
                need(10); n = struct.unpack(">Q", buf[2:10])[0]; off = 10
            need(off + n)
            payload, buf = buf[off:off + n], buf[off + n:]
            if op == 8:
                print("(closed)")
                break
            if op == 1:
                print(payload.decode())
                got += 1
    except (EOFError, OSError):
        print("(closed)")

main()
