#!/usr/bin/env python3
"""The false-alarm rate of history's noise rule for normal noise (README
"History"): nights whose medians are independent normal draws about one
level, the spread learnt as gate/history.c learns it (1.4826 x the median
|log change| of the last `nights` changes), and how often the next change,
with no real change behind it, is beyond k x that spread on the worse side.

    python3 bench/history_noise_sim.py [--trials 100000] [--seed 7]
"""
import argparse
import random
import statistics


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print("| k | " + " | ".join("%d nights" % n for n in (5, 10, 20)) + " |")
    print("| ---: | ---: | ---: | ---: |")
    for k in (3, 4, 5):
        cells = []
        for nights in (5, 10, 20):
            alarms = 0
            for _ in range(a.trials):
                x = [rng.gauss(0, 1) for _ in range(nights + 2)]
                d = [x[i + 1] - x[i] for i in range(nights + 1)]
                s = 1.4826 * statistics.median(abs(v) for v in d[:nights])
                alarms += d[nights] < -k * s
            cells.append("%.2f%%" % (100.0 * alarms / a.trials))
        print("| %d | %s |" % (k, " | ".join(cells)))


if __name__ == "__main__":
    main()
