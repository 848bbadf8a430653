#!/usr/bin/python3
# pull_receiver.py: the PULL receiver of source experiment 001
# (shared/seeds/001), written anew with pyzmq for
# matrices/seeds/001_zmq_push_pull.yaml.
#
#   pull_receiver.py ENDPOINT COUNT INTERVAL_MS
#
# Binds a PULL socket at ENDPOINT (tcp://127.0.0.1:PORT, ipc://PATH) and counts
# messages.  From the first message on, every INTERVAL_MS it prints the
# source's line, its time counted from the first message (the source
# counted from its own start, so its log began with empty seconds):
#
#   [0.100012s] window=28123 msgs  rate=281230 msgs/s  total=28123
#
# Once it has COUNT messages it prints the last, shorter window (unless
# it is empty) and
#
#   done: 1000000 msgs (size=100) in 3.456789 s from the first message to the last => 289287 msgs/s, 27.59 MiB/s
#
# and exits.  (The source's receiver never exited.)  Python's /usr/bin/python3:
# Debian's python3-zmq is installed for it.
import sys
import time

import zmq


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: pull_receiver.py ENDPOINT COUNT INTERVAL_MS")
    endpoint, count, interval = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) / 1e3
    ctx = zmq.Context()
    sock = ctx.socket(zmq.PULL)
    sock.bind(endpoint)
    print("tput server listening on", endpoint, flush=True)

    total = window = nbytes = size = 0
    first = last_tick = next_tick = None
    recv, again, noblock, clock = sock.recv, zmq.Again, zmq.NOBLOCK, time.monotonic

    def tick(now):
        nonlocal window, last_tick
        el = now - last_tick
        print("[%.6fs] window=%d msgs  rate=%.0f msgs/s  total=%d"
              % (now - first, window, window / el if el > 0 else 0, total), flush=True)
        window = 0
        last_tick = now

    while total < count:
        try:
            msg = recv(noblock)
        except again:
            wait = -1 if first is None else max(0, next_tick - clock()) * 1e3
            sock.poll(wait)
        else:
            if first is None:
                first = last_tick = clock()
                next_tick = first + interval
                size = len(msg)
            total += 1
            window += 1
            nbytes += len(msg)
        if first is not None:
            now = clock()
            if now >= next_tick:
                tick(now)
                next_tick += interval * (1 + int((now - next_tick) / interval))
    now = clock()
    if window:
        tick(now)
    secs = now - first
    print("done: %d msgs (size=%d) in %.6f s from the first message to the last"
          " => %.0f msgs/s, %.2f MiB/s"
          % (total, size, secs, total / secs if secs > 0 else 0,
             nbytes / 1048576 / secs if secs > 0 else 0), flush=True)
    sock.close(linger=0)
    ctx.term()


if __name__ == "__main__":
    main()
