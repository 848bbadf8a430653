#!/usr/bin/env python3
"""A stream receiver that logs its own timeline, as source 001's does.

tl_receiver.py PORT SIZE CONNS INTERVAL_S STYLE [IDLE_S]

Listens on 127.0.0.1:PORT, takes CONNS connections and counts the
SIZE-byte messages they carry.  Every INTERVAL_S seconds of its own
clock (from its start) it prints, flushed, one line for the interval
that ended:
  STYLE s:     [0.3s] window=1234 msgs  rate=12340 msgs/s  total=5678
  STYLE index: interval 3: 12.340000 k/s  total=5678
Once every connection has closed it prints the last, shorter interval
the same way and exits.  With IDLE_S it prints empty intervals for that
long before it listens (a receiver that starts long before its senders).
"""
import select
import socket
import sys
import time

port, size, conns = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
interval, style = float(sys.argv[4]), sys.argv[5]
idle = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
t0 = time.monotonic()
total = window = 0
ticks = 0


def line(end):
    global window, ticks
    length = end - ticks * interval
    if style == "s":
        print("[%gs] window=%d msgs  rate=%d msgs/s  total=%d"
              % (round(end, 6), window, window / length if length > 0 else 0, total),
              flush=True)
    else:
        print("interval %d: %.6f k/s  total=%d" % (ticks + 1, window / interval / 1e3, total),
              flush=True)
    window = 0
    ticks += 1


def tick_due():
    return time.monotonic() - t0 >= (ticks + 1) * interval


while time.monotonic() - t0 < idle:
    time.sleep(max(0.0, min((ticks + 1) * interval - (time.monotonic() - t0), 0.01)))
    while tick_due():
        line((ticks + 1) * interval)

srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(conns)
open_socks, accepted, carry = [], 0, {}
while accepted < conns or open_socks:
    wait = max(0.0, (ticks + 1) * interval - (time.monotonic() - t0))
    ready, _, _ = select.select(open_socks + ([srv] if accepted < conns else []), [], [], wait)
    for s in ready:
        if s is srv:
            c, _ = srv.accept()
            open_socks.append(c)
            carry[c] = 0
            accepted += 1
            continue
        data = s.recv(1 << 16)
        if not data:
            open_socks.remove(s)
            s.close()
            continue
        got = carry[s] + len(data)
        total += got // size
        window += got // size
        carry[s] = got % size
    while tick_due():
        line((ticks + 1) * interval)
line(time.monotonic() - t0)
