#!/usr/bin/python3
# A ZeroMQ PUSH sender for tests/e2e/test_prog_stream.sh:
#   zmq_push.py ENDPOINT SIZE COUNT
# Connects to ENDPOINT, sends COUNT messages of SIZE bytes, and closes.
# libzmq may drop what a closing PUSH still has queued whatever its linger
# (libzmq issues 1922, 3774, 4660; seen here over ipc: up to 6% of
# 20,000 messages from 4 senders, in 2 and in 6 runs of 10), so it gives
# its I/O thread a moment before it closes (none lost in 15 runs).
import sys
import time

import zmq

ctx = zmq.Context()
sock = ctx.socket(zmq.PUSH)
sock.setsockopt(zmq.LINGER, -1)
sock.connect(sys.argv[1])
msg = b"x" * int(sys.argv[2])
for _ in range(int(sys.argv[3])):
    sock.send(msg)
time.sleep(0.3)
sock.close()
ctx.term()
