#!/usr/bin/env python3
# A request/response client written with Python's socket module, for
# matrices/byo_example.yaml: COUNT requests of SIZE bytes, each answered with
# RESPONSE bytes, over TCP to HOST:PORT; prints the mean round trip.
# The timer starts before each write and stops after the full reply.
import socket
import sys
import time

host, port, size, response, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
s = socket.create_connection((host, port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
request = bytes(i * 31 % 256 for i in range(size))
total = 0.0
for _ in range(count):
    t0 = time.monotonic_ns()
    s.sendall(request)
    got = 0
    while got < response:
        chunk = s.recv(response - got)
        if not chunk:
            sys.exit("server closed the connection")
        got += len(chunk)
    total += time.monotonic_ns() - t0
s.close()
print("python client: %d requests, avg rtt %.3f us" % (count, total / count / 1000.0))
