#!/usr/bin/env python3
# A unix_seqpacket pingpong server that leaves its first requests unread
# for a while, for tests/e2e/test_client_clock.sh:
#   slow_seqpacket_server.py probe SIZE
#       prints how many SIZE-byte records a new AF_UNIX SOCK_SEQPACKET
#       socket takes before a non-blocking send fails with EAGAIN (a
#       record goes whole or not at all), measured on a socket pair
#   slow_seqpacket_server.py serve PATH SIZE RESPONSE_SIZE DELAY_S
#       listens at PATH, says "listening", accepts one connection, waits
#       DELAY_S before reading anything, then answers each SIZE-byte request
#       with RESPONSE_SIZE bytes that start with the request's first 8,
#       until the client closes
import socket
import sys
import time


def probe(size):
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    a.setblocking(False)
    n = 0
    try:
        while n < 1000:
            a.send(bytes(size))
            n += 1
    except BlockingIOError:
        pass
    print(n)


def serve(path, size, resp, delay):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    srv.bind(path)
    srv.listen(1)
    print("listening", flush=True)
    conn, _ = srv.accept()
    time.sleep(delay)
    reply = bytearray(resp)
    while True:
        req = conn.recv(size + 1)
        if not req:
            break
        n = min(8, resp, len(req))
        reply[:n] = req[:n]
        conn.send(reply)
    conn.close()
    srv.close()


if sys.argv[1] == "probe":
    probe(int(sys.argv[2]))
else:
    serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
