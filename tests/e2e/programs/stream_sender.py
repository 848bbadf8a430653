#!/usr/bin/env python3
# A stream sender for tests/e2e/test_prog_stream.sh:
#   stream_sender.py tcp HOST PORT SIZE COUNT
#   stream_sender.py unix PATH SIZE COUNT
# Connects, writes COUNT messages of SIZE bytes (each starting with its
# sequence number, little-endian, as matrix's own sender does), closes,
# and prints "sent N in X s".
import socket
import struct
import sys
import time

if sys.argv[1] == "unix":
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(sys.argv[2])
    size, count = int(sys.argv[3]), int(sys.argv[4])
else:
    sock = socket.create_connection((sys.argv[2], int(sys.argv[3])))
    size, count = int(sys.argv[4]), int(sys.argv[5])
body = bytes((i * 31 + 7) & 0xFF for i in range(size))
t0 = time.monotonic()
for seq in range(count):
    head = struct.pack("<Q", seq)[:min(8, size)]
    sock.sendall(head + body[len(head):])
sock.close()
print("sent %d in %.6f s" % (count, time.monotonic() - t0), flush=True)
