#!/usr/bin/env python3
# An echo client for tests/e2e/test_marks.sh and README "How it measures":
#   marks_echo_client.py ENDPOINT SIZE COUNT
# ENDPOINT is {endpoint}: HOST:PORT for tcp, a path for unix.  Sends COUNT
# requests of SIZE bytes one at a time, reads each whole echo back, then
# prints its own figures, timed from its first request to its last reply
# (so its interpreter's start-up and its connect are outside them):
#   own rate 12345.6 msg/s, avg rtt 80.123 us
import socket
import sys
import time

endpoint, size, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if endpoint.startswith("/"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(endpoint)
else:
    host, port = endpoint.rsplit(":", 1)
    s = socket.create_connection((host, int(port)))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
request = bytes(i * 31 % 256 for i in range(size))
start = time.monotonic_ns()
for _ in range(count):
    s.sendall(request)
    got = 0
    while got < size:
        chunk = s.recv(size - got)
        if not chunk:
            sys.exit("server closed the connection")
        got += len(chunk)
elapsed = time.monotonic_ns() - start
s.close()
print("own rate %.1f msg/s, avg rtt %.3f us" % (count / (elapsed / 1e9), elapsed / count / 1e3))
