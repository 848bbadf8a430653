# The matrix's percentiles: (issue 29): the chosen round-trip percentiles
# in results.csv (those the metric table lacks as columns of their own,
# last), summary.csv, summary.md's tables, the JSON and the latency chart;
# `matrix report` re-reads them from the folder's matrix.yaml; a matrix
# without the key writes what it always wrote.

pct_matrix() {
	mat m.yaml <<'Y'
name: pct
repeat: 2
warmup: 5
percentiles: [50, 99, 99.99, 99.999]
matrix:
  pattern: [pingpong, stream]
  transport: unix
  size: 16
  count: 3000
Y
}

# Checks DIR's files apart from the tool: results.csv's last two columns
# are rtt_p9999_us and rtt_p99999_us; every ok pingpong row's are the
# nearest-rank percentiles of its hist.csv rows (a bucket's midpoint,
# within its width), >= rtt_p99_us and monotone up to rtt_max_us; stream
# rows have them empty; summary.csv's medians of them are the median of
# the rows'; the JSON's stats are summary.csv's.
pct_check() {
	python3 - "$1" <<'PY' >pct_check.txt 2>&1 || die "$1: $(head -5 pct_check.txt)"
import csv, json, math, statistics, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/results.csv", newline="")))
head = next(csv.reader(open(d + "/results.csv", newline="")))
assert head[-2:] == ["rtt_p9999_us", "rtt_p99999_us"], "last columns %s" % head[-4:]
assert "rtt_p90_us" in head and "rtt_p999_us" in head, "the old columns stay"
hist = {}
for r in csv.DictReader(open(d + "/hist.csv", newline="")):
    hist.setdefault((r["cell"], r["rep"]), []).append(
        (float(r["low_us"]), float(r["high_us"]), int(r["count"])))
def pct(b, q):
    n = sum(c for _, _, c in b)
    rank, seen = math.ceil(q * n * (1 - 2**-50)), 0
    for lo, hi, c in sorted(b):
        seen += c
        if seen >= rank:
            return lo, hi
ok = 0
for r in rows:
    if r["status"] != "ok":
        continue
    if r["pattern"] == "stream":
        assert r["rtt_p9999_us"] == "" and r["rtt_p99999_us"] == "", "stream row %s" % r["cell"]
        continue
    ok += 1
    v = [float(r[k]) for k in ("rtt_p50_us", "rtt_p99_us", "rtt_p9999_us", "rtt_p99999_us",
                               "rtt_max_us")]
    assert v == sorted(v), "not monotone: %s" % v
    for col, q in (("rtt_p9999_us", 0.9999), ("rtt_p99999_us", 0.99999), ("rtt_p99_us", 0.99)):
        lo, hi = pct(hist[(r["cell"], r["rep"])], q)
        got = float(r[col])
        assert lo - 1e-3 <= got <= hi + 1e-3, "%s %s: %s not in [%s, %s)" % (r["cell"], col, got, lo, hi)
assert ok >= 2, "ok pingpong rows: %d" % ok
summ = {r["cell"]: r for r in csv.DictReader(open(d + "/summary.csv", newline=""))}
shead = next(csv.reader(open(d + "/summary.csv", newline="")))
assert shead[-1] == "rtt_p99999_us_ci_level" and "rtt_p9999_us_median" in shead, shead[-3:]
doc = json.load(open(d + "/run.json"))
assert [p["metric"] for p in doc["percentiles"]] == ["rtt_p50_us", "rtt_p99_us",
    "rtt_p9999_us", "rtt_p99999_us"], doc["percentiles"]
assert [p["percentile"] for p in doc["percentiles"]] == [50, 99, 99.99, 99.999]
assert {"rtt_p9999_us", "rtt_p99999_us"} <= {m["name"] for m in doc["metrics"]}
for c in doc["cells"]:
    s = summ[str(c["cell"])]
    for col in ("rtt_p9999_us", "rtt_p99999_us"):
        vals = [float(r[col]) for r in rows if r["cell"] == str(c["cell"]) and r[col]]
        js = c["stats"][col]
        if not vals:
            assert js["n"] == 0 and s[col + "_n"] == "0", "cell %s %s" % (c["cell"], col)
            continue
        assert abs(float(s[col + "_median"]) - statistics.median(vals)) < 1e-6, (col, s[col + "_median"])
        assert js["n"] == len(vals) and abs(js["median"] - statistics.median(vals)) < 1e-6, js
PY
}

t_percentiles_in_every_file() {
	pct_matrix
	run_matrix run m.yaml -o out -q --export-json out/run.json; expect_rc 0
	pct_check out
	# summary.md: the chosen set, in its order, where p50 and p99 were
	local heads
	heads=$(grep '^### round-trip time' out/summary.md | tr '\n' '|')
	[ "$heads" = "### round-trip time, mean|### round-trip time, median (p50)|### round-trip time, p99|### round-trip time, p99.99|### round-trip time, p99.999|" ] ||
		die "summary.md's round-trip tables: $heads"
	# the latency chart marks them: a bar panel and a dotted line each
	grep -q "^q9999_0 = " out/plots/latency-1.gp || die "latency-1.gp has no q9999_0"
	grep -q 'round-trip time p99.999\\nmerged' out/plots/latency-1.gp ||
		die "latency-1.gp has no p99.999 panel"
	[ "$(grep -c '^set arrow' out/plots/latency-1.gp)" -eq 4 ] || die "latency-1.gp: not 4 marks"
	grep -q 'round-trip time p99.9\\n' out/plots/latency-1.gp && die "latency-1.gp marks p99.9"
	grep -qF 'In the tables, a percentile (p50, p99, p99.99, p99.999)' out/report.html ||
		die "report.html's note does not name the percentiles"
	# matrix report re-reads the folder's matrix.yaml: the same again, and
	# without the key there, what a matrix without it writes
	rm out/summary.csv out/summary.md
	run_matrix report out -q --export-json out/run.json; expect_rc 0
	pct_check out
	sed -i '/^percentiles:/d' out/matrix.yaml
	run_matrix report out -q; expect_rc 0
	grep -q 'p99.99' out/summary.md && die "summary.md without percentiles: has p99.99"
	head -1 out/summary.csv | grep -q rtt_p9999 && die "summary.csv without percentiles: has rtt_p9999"
	grep -q 'round-trip time p99.9\\n' out/plots/latency-1.gp || die "latency-1.gp lost its p99.9"
	# a percentile results.csv has no column for (an edited matrix.yaml):
	# no figures, not a refusal
	sed -i 's/^name: pct$/&\npercentiles: [75, 99]/' out/matrix.yaml
	run_matrix report out -q; expect_rc 0
	[ "$(csvq out/summary.csv rtt_p75_us_n | sort -u)" = 0 ] || die "rtt_p75_us_n is not 0"
	grep -q 'p75' out/summary.md && die "summary.md has a p75 table without figures"
	grep -q '^### round-trip time, p99$' out/summary.md || die "summary.md lost p99"
}

t_percentiles_default_columns_unchanged() {
	mat m.yaml <<'Y'
name: nopct
repeat: 1
matrix:
  transport: unix
  size: 16
  count: 200
Y
	run_matrix run m.yaml -o out -q; expect_rc 0
	head -1 out/results.csv | grep -q 'rtt_p50_us,rtt_p90_us,rtt_p99_us,rtt_p999_us,rtt_max_us' ||
		die "results.csv lost its percentiles: $(head -1 out/results.csv)"
	head -1 out/results.csv | grep -q 'rtt_p9999' && die "results.csv has rtt_p9999 unasked"
	grep -c '^### round-trip time' out/summary.md | grep -qx 3 || die "summary.md: not mean, p50, p99"
}

t_percentiles_refused_at_their_place() {
	printf 'name: bad\npercentiles: [50, 99.9, 99.9]\nmatrix:\n  transport: unix\n' >m.yaml
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:2:25: percentiles: 99.9 is not above 99.9 before it: a list of 1 to 12 percentiles, increasing"
	printf 'name: bad\npercentiles: [50, 99.9999]\nmatrix:\n  transport: unix\n' >m.yaml
	run_matrix run m.yaml -o out -q; expect_rc 2
	expect_err "m.yaml:2:19: percentiles: '99.9999' has 4 decimals, at most 3"
	[ ! -e out ] || die "a refused matrix left a folder"
}
