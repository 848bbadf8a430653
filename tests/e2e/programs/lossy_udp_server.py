#!/usr/bin/env python3
# A udp pingpong server that fails every request whose sequence number is
# even, for tests/e2e/lib.sh's lossy_udp (test_client_clock.sh, test_poll.sh):
#   lossy_udp_server.py MODE RESPONSE_SIZE LATE_S
# It binds 127.0.0.1:0 and says "listening PORT", takes one client by the
# datagram handshake (transports/dgram.h), then answers each request with
# RESPONSE_SIZE bytes that start with the request's first 8 (its sequence
# number, little-endian).  An even-numbered request gets, in MODE
#   drop   no answer at all;
#   late   its answer LATE_S after it came (a client gives it up first).
# For each answered odd-numbered request it prints "held SEQ NS": the
# time from the request's arrival (the kernel's receive timestamp,
# SO_TIMESTAMPNS, taken even while this server sleeps) to just before its
# answer's send, both on the realtime clock.  No client can time that
# round trip shorter: the request left before it arrived, the answer
# came after it went.
# It ends with the client's end-of-stream message (an empty datagram) or
# when the client is gone.
import socket
import struct
import sys
import time

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; Python names it not

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
conn.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
conn.send(b"matrix-ok")
reply = bytearray(resp)
try:
    while True:
        req, anc, _, _ = conn.recvmsg(65536, socket.CMSG_SPACE(16))
        if not req:
            break
        seq = int.from_bytes(req[:8], "little")
        reply[:8] = req[:8]
        if seq % 2 == 0:
            if mode == "drop":
                continue
            time.sleep(late)
        sent = time.time_ns()
        conn.send(reply)
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and seq % 2:
                sec, nsec = struct.unpack("qq", data[:16])
                print("held", seq, sent - (sec * 1000000000 + nsec), flush=True)
except ConnectionRefusedError:
    pass  # the client is gone
