#!/usr/bin/env python3
# A pingpong server that takes a known time over each round trip, for the
# timing test in tests/e2e/test_timing.sh:
#   delay_server.py PATH SIZE RESPONSE_SIZE READ_DELAY_S REPLY_DELAY_S
# On a unix socket at PATH, for one connection: once a SIZE-byte request
# starts to arrive it waits READ_DELAY_S before reading the rest (a request
# larger than the socket buffer holds the client's write that long), then
# waits REPLY_DELAY_S before answering RESPONSE_SIZE bytes that start with
# the request's first 8.
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from framing import read_exact  # noqa: E402

path, size, resp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
read_delay, reply_delay = float(sys.argv[4]), float(sys.argv[5])

HEAD = 4096  # bytes that show a request has started
assert size > HEAD



srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(1)
print("delay server listening", flush=True)
conn, _ = srv.accept()
reply = bytearray(resp)
while True:
    head = read_exact(conn, HEAD)
    if head is None:
        break
    time.sleep(read_delay)
    if read_exact(conn, size - HEAD) is None:
        break
    time.sleep(reply_delay)
    n = min(8, resp)
    reply[:n] = head[:n]
    conn.sendall(reply)
conn.close()
# like any server, it serves until it is stopped (SIGTERM from the runner)
while True:
    time.sleep(60)
