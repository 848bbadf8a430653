#!/usr/bin/env python3
"""Independent expectations for `matrix report` on a golden run folder.

Computes what summary.csv and ratios.csv must hold from results.csv alone,
with Python's own statistics (the statistics module, exact binomial sums),
never from the tool's output, and compares; checks summary.md tables
against rows written by hand.  Every mismatch is printed as
"FILE: cell N COLUMN: expected X, got Y"; the exit status is 1 when
anything differs or is missing (a file, a column, a row), 0 otherwise.

  golden_expect.py summary DIR [--noisy-cv 0.10]
  golden_expect.py ratios DIR --ratio NAME,METRIC,DIMENSION,NUMERATOR,DENOMINATOR ...
      (the cell pairs, the geometric mean per pattern, scope = pattern, and
      over all pairs, scope = geomean)
  golden_expect.py md FILE < SPEC

SPEC for md: blocks of a "## SECTION" line, an optional "### TABLE" line,
then the table's lines as they must appear (header, then every data row, in
order; the |---| line is left out), then optionally the lines that must
stand under the table, all of them (up to the next heading, blank lines
aside).  A cell written "R× (*)" is a ratio with an interval at 95% or
more: the page must show "R× (L–H)" with L <= R <= H; "R× (*, ≥P%)" one
whose interval is sure of only P% (rounded down), which the page must show
as "R× (L–H, ≥P%)".

The interval of a ratio is recomputed from scratch: each cell's
order-statistic interval of its median, with the largest k whose exact
coverage c (a fraction of binomial counts) has c * c >= 95%, so that the
two together reach 95%; then the least and the greatest of the four ratios
of their ends, at the product of the two coverages.
"""
import csv
import math
import re
import statistics
import sys
from fractions import Fraction
from math import comb

METRICS = ["msgs_per_s", "mib_per_s", "rtt_mean_us", "rtt_p50_us", "rtt_p90_us",
           "rtt_p99_us", "rtt_p999_us", "rtt_max_us", "cpu_us_per_msg", "sent_msgs_per_s",
           "cpu_us_per_rtt",
           # the kernel's view of tcp connections (issue 29): empty in older folders
           "tcp_retrans", "tcp_rtt_us", "tcp_rttvar_us", "tcp_cwnd", "tcp_delivery_rate",
           "tcp_bytes_retrans", "tcp_mss"]
STATS = ["n", "median", "ci_lo", "ci_hi", "min", "max", "mean", "stdev", "cv"]
LEVEL = 0.95
REL = 1e-9        # summary.csv and ratios.csv write 10 significant digits
REL_LEVEL = 1e-5  # ci_level is written with 6

errors = []


def fail(msg):
    errors.append(msg)


def finish(what, checked):
    if checked == 0:
        fail("%s: nothing was checked" % what)
    if errors:
        for e in errors:
            print("MISMATCH: " + e, file=sys.stderr)
        print("%s: %d mismatches (%d values checked)" % (what, len(errors), checked),
              file=sys.stderr)
        sys.exit(1)
    print("%s: %d values as expected" % (what, checked))
    sys.exit(0)


def load_csv(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        print("MISSING: %s: %s" % (path, e), file=sys.stderr)
        sys.exit(1)
    if not rows:
        print("MISSING: %s is empty" % path, file=sys.stderr)
        sys.exit(1)
    header, data = rows[0], rows[1:]
    if len(set(header)) != len(header):
        fail("%s: duplicate columns in header %s" % (path, header))
    for i, r in enumerate(data):
        if len(r) != len(header):
            fail("%s:%d: %d fields, header has %d" % (path, i + 2, len(r), len(header)))
    return header, [dict(zip(header, r)) for r in data if len(r) == len(header)]


def require_cols(path, header, cols):
    missing = [c for c in cols if c not in header]
    if missing:
        print("MISSING: %s lacks columns %s" % (path, ", ".join(missing)), file=sys.stderr)
        sys.exit(1)


# ---- statistics, from scratch ----

def order_interval(sorted_vals, enough):
    """Order-statistic interval [x(k), x(n+1-k)]: the largest k whose
    coverage 1 - 2 P(Binom(n, 1/2) <= k-1), an exact fraction, is enough;
    k = 1 when none is.  Returns (lo, hi, coverage as a fraction)."""
    n = len(sorted_vals)
    cover = lambda k: 1 - 2 * Fraction(sum(comb(n, i) for i in range(k)), 2 ** n)
    best = 1
    for k in range(1, (n + 1) // 2 + 1):
        if enough(cover(k)):
            best = k
    return sorted_vals[best - 1], sorted_vals[n - best], cover(best)


def median_ci(sorted_vals):
    """The interval of a median at LEVEL: (lo, hi, coverage)."""
    lo, hi, c = order_interval(sorted_vals, lambda c: c >= Fraction(LEVEL))
    return lo, hi, float(c)


def summarize(vals):
    nan = float("nan")
    s = dict.fromkeys(STATS, nan)
    s["n"] = len(vals)
    if not vals:
        return s, nan
    x = sorted(vals)
    s["median"] = statistics.median(x)
    s["min"], s["max"] = x[0], x[-1]
    s["mean"] = statistics.fmean(x)
    level = nan
    if len(x) >= 2:  # one value is a point: no interval, no level
        s["ci_lo"], s["ci_hi"], level = median_ci(x)
        s["stdev"] = statistics.stdev(x)
        s["cv"] = s["stdev"] / abs(s["mean"]) if s["mean"] != 0 else nan
    return s, level


class Cell:
    def __init__(self, number, dims):
        self.number, self.dims = number, dims
        self.reps = self.failed = 0
        self.failures = {}	# status -> count, in the order first met
        self.vals = {m: [] for m in METRICS}


def load_results(d):
    path = d + "/results.csv"
    header, rows = load_csv(path)
    require_cols(path, header, ["cell", "rep", "status"])
    if header[0] != "cell":
        fail("%s: first column is %s, not cell" % (path, header[0]))
    dims = header[1:header.index("rep")]
    if not rows:
        print("MISSING: %s has no data rows" % path, file=sys.stderr)
        sys.exit(1)
    cells = {}
    for r in rows:
        n = int(r["cell"])
        c = cells.setdefault(n, Cell(n, {k: r[k] for k in dims}))
        c.reps += 1
        if r["status"] != "ok":
            c.failed += 1
            c.failures[r["status"]] = c.failures.get(r["status"], 0) + 1
            continue		# figures of a failed row count for nothing
        v = {m: float(r[m]) for m in METRICS if r.get(m, "") != ""}
        # a file from before cpu_us_per_rtt kept a round trip's CPU in
        # cpu_us_per_msg; a round trip is two messages
        if "cpu_us_per_rtt" not in header and r.get("pattern", "pingpong") != "stream" \
                and "cpu_us_per_msg" in v:
            v["cpu_us_per_rtt"] = v["cpu_us_per_msg"]
            v["cpu_us_per_msg"] /= 2
        for m in v:
            c.vals[m].append(v[m])
    return dims, [cells[k] for k in sorted(cells)]


def status_of(c):
    # the first 3 distinct reasons, each counted when there are several
    # (reports/report_results.c set_status)
    if not c.failed:
        return "ok"
    named = list(c.failures.items())[:3]
    others = c.failed - sum(n for _, n in named)
    if len(named) > 1 or others:
        why = "; ".join("%s ×%d" % (w[:80], n) for w, n in named)
    else:
        why = named[0][0][:80]
    if others:
        why += "; other reasons ×%d" % others
    if c.failed == c.reps:
        return why if c.reps == 1 else "%s (all %d)" % (why, c.reps)
    return "ok, %d of %d failed (%s)" % (c.failed, c.reps, why)


def close(exp, got, rel):
    return got == exp or abs(got - exp) <= rel * max(abs(exp), abs(got)) or \
        (exp == 0 and abs(got) < 1e-12)


def compare_num(where, exp, got, rel=REL):
    """exp NaN: the field must be empty; else a number within rel."""
    if isinstance(exp, float) and math.isnan(exp):
        if got != "":
            fail("%s: expected empty, got '%s'" % (where, got))
        return
    if got == "":
        fail("%s: expected %.12g, got empty" % (where, exp))
        return
    try:
        g = float(got)
    except ValueError:
        fail("%s: expected %.12g, got '%s' (not a number)" % (where, exp, got))
        return
    if not close(float(exp), g, rel):
        fail("%s: expected %.12g, got %s" % (where, exp, got))


def compare_str(where, exp, got):
    if exp != got:
        fail("%s: expected '%s', got '%s'" % (where, exp, got))


# ---- summary.csv ----

def check_summary(d, noisy_cv):
    dims, cells = load_results(d)
    path = d + "/summary.csv"
    header, rows = load_csv(path)
    levels = ["%s_ci_level" % m for m in METRICS]
    cols = ["cell"] + dims + ["reps", "ok", "failed", "status", "noisy", "ci_level"] + \
        ["%s_%s" % (m, s) for m in METRICS for s in STATS]
    require_cols(path, header, cols + levels)
    if header[:1 + len(dims)] != ["cell"] + dims:
        fail("%s: header starts %s, expected cell then %s" % (path, header[:1 + len(dims)], dims))
    later = ["window_s", "short_window", "repeat_stop"]	# added later still
    if header[-len(levels) - len(later):] != levels + later:	# added later, so at the end
        fail("%s: header ends %s, expected %s" % (path, header[-len(levels) - len(later):],
                                                  levels + later))
    if len(rows) != len(cells):
        fail("%s: %d data rows, expected %d (one per cell)" % (path, len(rows), len(cells)))
    by_cell = {}
    for r in rows:
        if r["cell"] in by_cell:
            fail("%s: cell %s appears twice" % (path, r["cell"]))
        by_cell[r["cell"]] = r
    checked = 0
    for c in cells:
        r = by_cell.get(str(c.number))
        if r is None:
            fail("%s: no row for cell %d" % (path, c.number))
            continue
        w = "%s: cell %d" % (path, c.number)
        for k in dims:
            compare_str("%s %s" % (w, k), c.dims[k], r[k])
        compare_str(w + " reps", str(c.reps), r["reps"])
        compare_str(w + " ok", str(c.reps - c.failed), r["ok"])
        compare_str(w + " failed", str(c.failed), r["failed"])
        compare_str(w + " status", status_of(c), r["status"])
        noisy, level0 = [], float("nan")
        for m in METRICS:
            s, level = summarize(c.vals[m])
            if m == METRICS[0]:
                level0 = level
            if not math.isnan(s["cv"]) and s["cv"] > noisy_cv:
                noisy.append(m)
            compare_str("%s %s_n" % (w, m), str(s["n"]), r[m + "_n"])
            for st in STATS[1:]:
                compare_num("%s %s_%s" % (w, m, st), s[st], r["%s_%s" % (m, st)])
            compare_num("%s %s_ci_level (its own coverage)" % (w, m), level,
                        r[m + "_ci_level"], REL_LEVEL)
            checked += len(STATS) + 1
        compare_str(w + " noisy", ";".join(noisy), r["noisy"])
        compare_num(w + " ci_level (coverage of msgs_per_s's interval)", level0,
                    r["ci_level"], REL_LEVEL)
        checked += len(dims) + 6
    finish(path, checked)


# ---- ratios.csv ----

def ratio_ci(a, b):
    """The interval of the ratio of medians num/den from the two cells' own
    intervals of the median, each at sqrt(LEVEL) (c * c >= LEVEL, exactly):
    if both hold their true medians, every ratio of a value in the first
    over one in the second, the true ratio among them, lies between the
    least and the greatest of the four ratios of their ends (the second
    interval above 0).  The cells are independent, so that happens with
    probability at least the product of the two coverages.  Returns (lo,
    hi, coverage), all NaN when the denominator's interval reaches 0 or a
    side has one value."""
    if len(a) < 2 or len(b) < 2:  # a side of one value: a point, no interval
        nan = float("nan")
        return nan, nan, nan
    enough = lambda c: c * c >= Fraction(str(LEVEL))
    nlo, nhi, ncover = order_interval(sorted(a), enough)
    dlo, dhi, dcover = order_interval(sorted(b), enough)
    if not dlo > 0:
        nan = float("nan")
        return nan, nan, nan
    ends = [Fraction(x) / Fraction(y) for x in (nlo, nhi) for y in (dlo, dhi)]
    return float(min(ends)), float(max(ends)), float(ncover * dcover)


def check_ratios(d, defs):
    dims, cells = load_results(d)
    path = d + "/ratios.csv"
    header, rows = load_csv(path)
    cols = ["name", "metric", "dimension", "numerator", "denominator", "scope", "num_cell",
            "den_cell"] + dims + ["ratio", "ci_lo", "ci_hi", "n_num", "n_den", "pairs",
                                  "resamples", "seed", "ci_level"]
    require_cols(path, header, cols)
    if not defs:
        fail("no --ratio given")
    expected = []	# (key, {column: expected}, pair or None)
    for name, metric, dim, num, den in defs:
        if dim not in dims or metric not in METRICS:
            fail("--ratio %s: %s is not a dimension or %s not a metric" % (name, dim, metric))
            continue
        logs = []
        for c in cells:
            if c.dims[dim] != num:
                continue
            o = [p for p in cells if p.dims[dim] == den and
                 all(p.dims[k] == c.dims[k] for k in dims if k != dim)]
            if not o:
                continue
            o = o[0]
            a, b = c.vals[metric], o.vals[metric]
            ratio = lo = hi = level = float("nan")
            if a and b and statistics.median(b) != 0:
                ratio = statistics.median(a) / statistics.median(b)
                logs.append(ratio)
                lo, hi, level = ratio_ci(a, b)
            e = {"name": name, "metric": metric, "dimension": dim, "numerator": num,
                 "denominator": den, "scope": "cell", "num_cell": str(c.number),
                 "den_cell": str(o.number), "ratio": ratio, "ci_lo": lo, "ci_hi": hi,
                 "n_num": str(len(a)), "n_den": str(len(b)), "pairs": "1", "resamples": "",
                 "seed": "", "ci_level": level}
            for k in dims:
                e[k] = "" if k == dim else c.dims[k]
            expected.append(((name, "cell", str(c.number)), e, (a, b)))
        # per pattern (in the order the cells first have them), when the run
        # has a pattern column and the ratio is not across patterns: the
        # geometric mean of that pattern's pairs only
        if "pattern" in dims and dim != "pattern":
            pats = []
            for c in cells:
                if c.dims["pattern"] not in pats:
                    pats.append(c.dims["pattern"])
            for pat in pats:
                mine = [(k, e) for k, e, _ in expected
                        if k[0] == name and k[1] == "cell" and e["pattern"] == pat]
                if not mine:
                    continue
                pv = [e["ratio"] for _, e in mine
                      if not math.isnan(e["ratio"]) and e["ratio"] > 0]
                g = math.exp(statistics.fmean(math.log(v) for v in pv)) if pv else float("nan")
                e = {"name": name, "metric": metric, "dimension": dim, "numerator": num,
                     "denominator": den, "scope": "pattern", "num_cell": "", "den_cell": "",
                     "ratio": g, "ci_lo": "", "ci_hi": "", "n_num": "", "n_den": "",
                     "pairs": str(len(pv)), "resamples": "", "seed": "", "ci_level": ""}
                for k in dims:
                    e[k] = pat if k == "pattern" else ""
                expected.append(((name, "pattern", pat), e, None))
        pos = [v for v in logs if v > 0 and math.isfinite(v)]
        g = math.exp(statistics.fmean(math.log(v) for v in pos)) if pos else float("nan")
        e = {"name": name, "metric": metric, "dimension": dim, "numerator": num,
             "denominator": den, "scope": "geomean", "num_cell": "", "den_cell": "",
             "ratio": g, "ci_lo": "", "ci_hi": "", "n_num": "", "n_den": "",
             "pairs": str(len(logs)), "resamples": "", "seed": "", "ci_level": ""}
        for k in dims:
            e[k] = ""
        expected.append(((name, "geomean", ""), e, None))
    if len(rows) != len(expected):
        fail("%s: %d data rows, expected %d (%s)" % (path, len(rows), len(expected),
             ", ".join("%s %s %s" % k for k, _, _ in expected)))
    by_key = {}
    for r in rows:
        k = (r["name"], r["scope"],
             r.get("pattern", "") if r["scope"] == "pattern" else r["num_cell"])
        if k in by_key:
            fail("%s: row %s appears twice" % (path, k))
        by_key[k] = r
    checked = 0
    for key, e, pair in expected:
        r = by_key.get(key)
        w = "%s: ratio '%s' %s %s" % (path, key[0], key[1], key[2])
        if r is None:
            fail("%s: no such row" % w)
            continue
        for col, v in e.items():
            if col in ("ratio", "ci_lo", "ci_hi") and not isinstance(v, str):
                compare_num("%s %s" % (w, col), v, r[col])
            elif col == "ci_level" and not isinstance(v, str):
                compare_num(w + " ci_level", v, r[col], REL_LEVEL)
            else:
                compare_str("%s %s" % (w, col), v, r[col])
            checked += 1
        if pair is not None and not math.isnan(e["ci_lo"]) and \
                not e["ci_lo"] <= e["ratio"] <= e["ci_hi"]:
            fail("%s: golden_expect.py's own interval misses the ratio" % w)
    finish(path, checked)


# ---- summary.md ----

def md_cells(line):
    s = line.strip()
    if not (s.startswith("|") and s.endswith("|")):
        return None
    return [c.strip() for c in s[1:-1].split(" | ")]


RATIO_IV = re.compile(r"^(\d+\.\d\d)× \((-?\d+\.\d\d)–(-?\d+\.\d\d)(?:, (≥\d+%))?\)$")
RATIO_SPEC = re.compile(r"^(\d+\.\d\d×) \(\*(?:, (≥\d+%))?\)$")


def check_md(path, spec):
    try:
        with open(path, encoding="utf-8") as f:
            page = f.read().split("\n")
    except OSError as e:
        print("MISSING: %s: %s" % (path, e), file=sys.stderr)
        sys.exit(1)
    blocks, cur = [], None
    for line in spec.split("\n"):
        if line.startswith("## "):
            cur = {"section": line, "table": None, "rows": [], "notes": []}
            blocks.append(cur)
        elif line.startswith("### "):
            if cur["rows"] or cur["table"]:
                cur = {"section": cur["section"], "table": None, "rows": [], "notes": []}
                blocks.append(cur)
            cur["table"] = line
        elif line.startswith("|"):
            cur["rows"].append(line)
        elif line.strip():
            cur["notes"].append(line)
    checked = 0
    for b in blocks:
        where = "%s: %s%s" % (path, b["section"], " > " + b["table"] if b["table"] else "")
        if len(b["rows"]) < 2:
            fail("%s: the spec needs a header and at least one row" % where)
            continue
        try:
            i = page.index(b["section"])
        except ValueError:
            fail("%s: no such section" % where)
            continue
        end = next((j for j in range(i + 1, len(page)) if page[j].startswith("## ")), len(page))
        if b["table"]:
            try:
                i = page.index(b["table"], i + 1, end)
            except ValueError:
                fail("%s: no such table in the section" % where)
                continue
        j = i + 1
        while j < end and not page[j].startswith("|"):
            j += 1
        table = []
        while j < end and page[j].startswith("|"):
            table.append(page[j])
            j += 1
        if len(table) < 2 or not re.match(r"^(\|---:?)+\|$", table[1]):
            fail("%s: no table after the heading" % where)
            continue
        if b["notes"]:	# the lines under the table, up to the next heading
            end = next((k for k in range(j, len(page)) if page[k].startswith("#")), len(page))
            under = [line for line in page[j:end] if line.strip()]
            if under != b["notes"]:
                fail("%s: under the table:\n  expected: %s\n  got:      %s" % (where,
                     "\n            ".join(b["notes"]), "\n            ".join(under)))
            checked += len(b["notes"])
        got = [table[0]] + table[2:]
        if len(got) != len(b["rows"]):
            fail("%s: %d data rows, expected %d:\n  got: %s" % (where, len(got) - 1,
                 len(b["rows"]) - 1, "\n       ".join(got)))
        for k, want in enumerate(b["rows"]):
            have = got[k] if k < len(got) else ""
            wc, hc = md_cells(want), md_cells(have)
            label = "header" if k == 0 else "row %d" % k
            if hc is None or len(wc) != len(hc):
                fail("%s %s: expected '%s', got '%s'" % (where, label, want, have))
                continue
            for n, (w, h) in enumerate(zip(wc, hc)):
                checked += 1
                spec = RATIO_SPEC.match(w)
                if spec:
                    m = RATIO_IV.match(h)
                    if not m or m.group(1) + "×" != spec.group(1) or m.group(4) != spec.group(2):
                        fail("%s %s column %d: expected '%s', got '%s'" % (where, label, n + 1,
                             w, h))
                    elif not float(m.group(2)) <= float(m.group(1)) <= float(m.group(3)):
                        fail("%s %s column %d: '%s': the interval does not hold the ratio"
                             % (where, label, n + 1, h))
                elif w != h:
                    fail("%s %s column %d: expected '%s', got '%s'" % (where, label, n + 1,
                         w, h))
    finish(path, checked)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmd, target, rest = argv[1], argv[2], argv[3:]
    if cmd == "summary":
        noisy = 0.10
        if rest[:1] == ["--noisy-cv"] and len(rest) == 2:
            noisy = float(rest[1])
        elif rest:
            sys.exit("summary: unexpected %s" % rest)
        check_summary(target, noisy)
    elif cmd == "ratios":
        defs = []
        while rest[:1] == ["--ratio"] and len(rest) >= 2:
            parts = rest[1].split(",")
            if len(parts) != 5:
                sys.exit("--ratio %s: expected NAME,METRIC,DIMENSION,NUMERATOR,DENOMINATOR"
                         % rest[1])
            defs.append(parts)
            rest = rest[2:]
        if rest:
            sys.exit("ratios: unexpected %s" % rest)
        check_ratios(target, defs)
    elif cmd == "md":
        check_md(target, sys.stdin.read())
    else:
        sys.exit("unknown command %s" % cmd)


if __name__ == "__main__":
    main(sys.argv)
