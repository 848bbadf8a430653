#!/usr/bin/env python3
# A udp pingpong server that fails every request whose sequence number is
# even, for tests/e2e/test_client_clock.sh:
#   lossy_udp_server.py MODE RESPONSE_SIZE LATE_S
# It binds 127.0.0.1:0 and says "listening PORT", takes one client by the
# datagram handshake (transports/dgram.h), then answers each request with
# RESPONSE_SIZE bytes that start with the request's first 8 (its sequence
# number, little-endian).  An even-numbered request gets, in MODE
#   drop   no answer at all;
#   late   its answer LATE_S after it came (a client gives it up first).
# It ends with the client's end-of-stream message (an empty datagram) or
# when the client is gone.
import socket
import sys
import time

mode, resp, late = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])

lsock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
lsock.bind(("127.0.0.1", 0))
print("listening", lsock.getsockname()[1], flush=True)
while True:
    hello, peer = lsock.recvfrom(64)
    if hello == b"matrix-hello":
        break
conn = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
conn.bind(("127.0.0.1", 0))
conn.connect(peer)
conn.send(b"matrix-ok")
reply = bytearray(resp)
try:
    while True:
        req = conn.recv(65536)
        if not req:
            break
        reply[:8] = req[:8]
        if int.from_bytes(req[:8], "little") % 2 == 0:
            if mode == "drop":
                continue
            time.sleep(late)
        conn.send(reply)
except ConnectionRefusedError:
    pass  # the client is gone
