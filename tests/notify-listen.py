#!/usr/bin/env python3
# notify-listen.py SOCKET OUT: play systemd's part of the sd_notify
# protocol for tests/ops.sh - bind a datagram socket at SOCKET and append
# every message received to OUT, one line per field, until killed.
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        data = s.recv(4096).decode("utf-8", "replace")
        for line in data.split("\n"):
            if line:
                out.write(line + "\n")
