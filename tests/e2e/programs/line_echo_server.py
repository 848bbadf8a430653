#!/usr/bin/env python3
# A line-framed echo server as seed 002's (read a line, write it back), for
# tests/e2e/test_pipeline.sh:
#   line_echo_server.py PATH lines          echo each line at once
#   line_echo_server.py PATH hold BYTES     read BYTES first, then echo them
#                                           all (a client that waits for a
#                                           reply before its next request
#                                           never gets one), then lines
#   line_echo_server.py PATH corrupt K      as lines, but line K (from 1)
#                                           comes back with one byte changed
# On a unix socket at PATH, each connection on a thread of its own.
import socket
import sys
import threading

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from framing import read_exact  # noqa: E402

path, mode = sys.argv[1], sys.argv[2]
arg = int(sys.argv[3]) if len(sys.argv) > 3 else 0



def serve(conn):
    with conn:
        if mode == "hold":
            held = read_exact(conn, arg)
            if held is None:
                return
            conn.sendall(held)
        f = conn.makefile("rb")
        n = 0
        for line in f:
            n += 1
            if mode == "corrupt" and n == arg and len(line) > 1:
                line = bytearray(line)
                line[-2] ^= 0x55
            conn.sendall(line)


srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(16)
print("line echo server listening", flush=True)
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
