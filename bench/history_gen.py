#!/usr/bin/env python3
"""Hand-made run folders of one benchmark, for timing `matrix history`.

    python3 bench/history_gen.py OUT [--runs 100] [--cells 500] [--repeat 7]
                                 [--noise 0.01] [--seed 1]

writes OUT/<start time>/ for each night: matrix.yaml (one matrix: pattern
pingpong and echo, transport unix and tcp, and as many sizes as make
--cells cells), meta.csv (one machine, so one fingerprint group) and
results.csv (--repeat repetitions of every cell, msgs_per_s and
rtt_p50_us).  Each cell's level moves night to night by a lognormal
factor of sd --noise, its repetitions about it by 1%; nothing steps.  The
folders are those `matrix run` writes in their shape only: no summary,
no plots.  Then:

    time ./matrix history OUT -q
"""
import argparse
import datetime
import math
import os
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--cells", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--noise", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    patterns, transports = ["pingpong", "echo"], ["unix", "tcp"]
    nsizes = max(1, -(-a.cells // (len(patterns) * len(transports))))
    sizes = [16 * (i + 1) for i in range(nsizes)]
    cells = [(p, s, t) for p in patterns for s in sizes for t in transports][:a.cells]
    yaml = ("name: histbench\nrepeat: %d\nmatrix:\n  pattern: [%s]\n  size: [%s]\n"
            "  transport: [%s]\n" % (a.repeat, ", ".join(patterns),
                                     ", ".join(str(s) for s in sizes), ", ".join(transports)))
    if len(cells) < len(patterns) * len(sizes) * len(transports):
        yaml += "# only the first %d cells ran\n" % len(cells)
    rng = random.Random(a.seed)
    level = [rng.uniform(10000, 100000) for _ in cells]
    t0 = datetime.datetime(2026, 1, 1, 3, 0, 0)
    os.makedirs(a.out, exist_ok=True)
    for night in range(a.runs):
        start = t0 + datetime.timedelta(days=night)
        d = os.path.join(a.out, start.strftime("%Y%m%dT%H%M%SZ"))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "matrix.yaml"), "w") as f:
            f.write(yaml)
        with open(os.path.join(d, "meta.csv"), "w") as f:
            f.write("key,value\nhost,benchhost\nkernel,Linux 6.1.0 bench\narch,x86_64\n"
                    "cpu_model,Bench CPU\ncores,2\ngovernor,performance\n"
                    "tool_version,0.1.0\ngit_revision,0123456789ab\n"
                    "matrix_name,histbench\nstart_utc,%s\nstatus,ok\n"
                    % start.strftime("%Y-%m-%dT%H:%M:%SZ"))
        night_level = [v * math.exp(rng.gauss(0, a.noise)) for v in level]
        stamp = start.strftime("%Y-%m-%dT%H:%M:%SZ")
        rows = ["cell,pattern,size,transport,rep,status,error,msgs_per_s,rtt_p50_us,"
                "started_at"]
        for rep in range(1, a.repeat + 1):
            for i, (p, s, t) in enumerate(cells):
                v = night_level[i] * math.exp(rng.gauss(0, 0.01))
                rows.append("%d,%s,%d,%s,%d,ok,,%.6g,%.6g,%s"
                            % (i + 1, p, s, t, rep, v, 1e6 / v, stamp))
        with open(os.path.join(d, "results.csv"), "w") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
