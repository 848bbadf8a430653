#!/usr/bin/env python3
# A stream receiver for tests/e2e/test_prog_stream.sh:
#   stream_receiver.py tcp PORT SIZE COUNT [MODE]
#   stream_receiver.py unix PATH SIZE COUNT [MODE]
# Listens on 127.0.0.1:PORT (or the unix socket PATH), takes connections
# and counts whole SIZE-byte messages over all of them until COUNT have
# come, then prints "received N in X s" (X from its first byte to its
# last) and exits.  MODE:
#   stay   prints the line half a second late (after its senders have
#          exited), then sleeps until it is stopped (a receiver that
#          never exits, like source 001's)
#   short  prints one message fewer than it got (a count that is wrong)
#   quiet  prints nothing (timed whole-process)
import selectors
import socket
import sys
import time

family, where, size, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
mode = sys.argv[5] if len(sys.argv) > 5 else ""

if family == "unix":
    lsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lsock.bind(where)
else:
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", int(where)))
lsock.listen(64)
sel = selectors.DefaultSelector()
sel.register(lsock, selectors.EVENT_READ)
total, first, last = 0, None, None
while total < count * size:
    for key, _ in sel.select():
        if key.fileobj is lsock:
            conn, _ = lsock.accept()
            sel.register(conn, selectors.EVENT_READ)
            continue
        data = key.fileobj.recv(1 << 16)
        if not data:
            sel.unregister(key.fileobj)
            key.fileobj.close()
            continue
        now = time.monotonic()
        first = first or now
        last = now
        total += len(data)
msgs = total // size
if mode == "short":
    msgs -= 1
if mode == "stay":
    time.sleep(0.5)
if mode != "quiet":
    print("received %d in %.6f s" % (msgs, last - first), flush=True)
if mode == "stay":
    while True:
        time.sleep(60)
