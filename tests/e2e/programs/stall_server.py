#!/usr/bin/env python3
# A pingpong server that stalls once, for tests/e2e/test_rate.sh:
#   stall_server.py PATH SIZE RESPONSE_SIZE SEQ STALL_S
# On a unix socket at PATH, for one connection: answers each SIZE-byte
# request at once with RESPONSE_SIZE bytes that start with the request's
# first 8 (its sequence number), but waits STALL_S seconds before
# answering the request numbered SEQ.
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from framing import read_exact  # noqa: E402

path, size, resp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
stall_seq, stall_s = int(sys.argv[4]), float(sys.argv[5])



srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(1)
print("stall server listening", flush=True)
conn, _ = srv.accept()
tail = bytes(resp - 8)
while True:
    req = read_exact(conn, size)
    if req is None:
        break
    if int.from_bytes(req[:8], "little") == stall_seq:
        time.sleep(stall_s)
    conn.sendall(bytes(req[:8]) + tail)
