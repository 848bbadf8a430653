#!/usr/bin/python3
# push_sender.py: a PUSH sender of source experiment 001
# (shared/seeds/001), written anew with pyzmq for
# matrices/seeds/001_zmq_push_pull.yaml.
#
#   push_sender.py ENDPOINT COUNT SIZE
#
# One PUSH socket connected to ENDPOINT; sends COUNT messages of SIZE bytes
# (bytes 0, 1, 2, ... as the source's payload) and prints the source's line:
#
#   Sent 250000 msgs (size=100) in 0.812s => 307882 msgs/s, 29.36 MiB/s
#
# timed from before the connect to after the close, as the source timed its
# senders (a PUSH returns before delivery: the receiver's figure is the one
# that counts).  The matrix runs 4 of these where the source ran 4
# goroutines in one process.  Then waits, untimed, until libzmq has handed
# over every queued message (context term, linger infinite).
import sys
import time

import zmq


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: push_sender.py ENDPOINT COUNT SIZE")
    endpoint, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    payload = bytes(i & 0xFF for i in range(size))
    ctx = zmq.Context()
    start = time.monotonic()
    sock = ctx.socket(zmq.PUSH)
    sock.connect(endpoint)
    send = sock.send
    for _ in range(count):
        send(payload)
    sock.close(linger=-1)
    elapsed = time.monotonic() - start
    ctx.term()
    print("Sent %d msgs (size=%d) in %.3fs => %.0f msgs/s, %.2f MiB/s"
          % (count, size, elapsed, count / elapsed, count * size / 1048576 / elapsed),
          flush=True)


if __name__ == "__main__":
    main()
