#!/usr/bin/env python3
"""A stream receiver that checks every byte (tests/e2e/test_stream_knobs.sh).

Listens on 127.0.0.1 (a port of its own), prints `listening PORT`, takes
one connection and reads messages of SIZE bytes until its end: each must
carry its own sequence number (0, 1, 2... little-endian in the first 8
bytes) and then the payload's pattern ((offset * 31 + 7) & 0xff,
workers/payload.h).  Prints `ok N` for N whole, intact messages, or
`bad ...` for the first that is not, and exits 1.
"""
import socket
import struct
import sys

size = int(sys.argv[1])
want = bytes((i * 31 + 7) & 0xff for i in range(size))
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.bind(("127.0.0.1", 0))
ls.listen(1)
print("listening", ls.getsockname()[1], flush=True)
c, _ = ls.accept()
buf = bytearray()
n = 0
while True:
    chunk = c.recv(1 << 20)
    if not chunk:
        break
    buf += chunk
    while len(buf) >= size:
        msg = bytes(buf[:size])
        del buf[:size]
        seq = struct.unpack("<Q", msg[:8])[0]
        if seq != n or msg[8:] != want[8:]:
            print("bad message", n, "carries sequence number", seq,
                  "pattern intact" if msg[8:] == want[8:] else "pattern broken", flush=True)
            sys.exit(1)
        n += 1
if buf:
    print("bad: the stream ended inside a message,", len(buf), "bytes", flush=True)
    sys.exit(1)
print("ok", n, flush=True)
