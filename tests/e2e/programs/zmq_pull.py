#!/usr/bin/python3
# A ZeroMQ PULL receiver for tests/e2e/test_prog_stream.sh (pyzmq, Debian's
# python3-zmq, hence /usr/bin/python3):
#   zmq_pull.py ENDPOINT COUNT
# Binds ENDPOINT (tcp://127.0.0.1:PORT or ipc://PATH), receives COUNT
# messages and prints "received N in X s" (from the first to the last).
import sys
import time

import zmq

ctx = zmq.Context()
sock = ctx.socket(zmq.PULL)
sock.bind(sys.argv[1])
count = int(sys.argv[2])
sock.recv()
first = time.monotonic()
for _ in range(count - 1):
    sock.recv()
print("received %d in %.6f s" % (count, time.monotonic() - first), flush=True)
sock.close(linger=0)
ctx.term()
