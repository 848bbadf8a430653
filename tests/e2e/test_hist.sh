# Latency distributions (issue 12): hist.csv keeps each repetition's
# merged round-trip histogram, the report reads it back and draws
# plots/latency-N.gp per scenario, and --resume keeps it whole.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

# A matrix of unix, tcp and udp pingpong at two sizes (two scenarios) and
# one stream cell, 2 repetitions of some 2000 round trips each.
hist_matrix() {
	mat m.yaml <<'Y'
name: lat
repeat: 2
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp, udp]
  size: [16, 256]
  count: 2000
  loss_timeout: 1s     # a busy machine's stall is no lost udp reply
exclude:
  - {pattern: stream, transport: udp}
  - {pattern: stream, transport: tcp}
  - {pattern: stream, size: 256}
Y
}

# Checks DIR/hist.csv against DIR/results.csv, apart from the tool: every
# ok pingpong/echo repetition has its rows (header cell, rep, low_us,
# high_us, count; ascending, disjoint, at most 512), their counts add up to
# its rtt_samples, the p50 and p99 taken from them (nearest rank, the
# bucket's midpoint) are within that bucket's width of results.csv's
# rtt_p50_us and rtt_p99_us; no other repetition (stream, failed, absent)
# has rows.
hist_matches() {
	python3 - "$1" <<'PY' >hist_check.txt 2>&1 || die "$1/hist.csv: $(head -5 hist_check.txt)"
import csv, math, sys
def failed(kind, value, tb):
    print(value if kind is AssertionError else "%s: %s" % (kind.__name__, value))
    sys.exit(1)
sys.excepthook = failed
d = sys.argv[1]
with open(d + "/hist.csv", newline="") as f:
    rd = csv.reader(f)
    head = next(rd)
    assert head == ["cell", "rep", "low_us", "high_us", "count"], "header %s" % head
    rows = {}
    for r in rd:
        rows.setdefault((r[0], r[1]), []).append((float(r[2]), float(r[3]), int(r[4])))
want = {}
for r in csv.DictReader(open(d + "/results.csv", newline="")):
    if r["status"] == "ok" and r.get("pattern", "pingpong") != "stream":
        want[(r["cell"], r["rep"])] = r
assert want, "no ok pingpong row"
bad = sorted(set(rows) - set(want))
assert not bad, "hist rows without an ok pingpong row: %s" % bad
def pct(b, n, q):
    rank = max(1, math.ceil(q * n - q * n * 4 * 2**-52))
    seen = 0
    for lo, hi, c in b:
        seen += c
        if seen >= rank:
            return (lo + hi) / 2, hi - lo
for k, r in sorted(want.items()):
    b = rows.get(k)
    assert b, "cell %s rep %s: no hist rows" % k
    assert len(b) <= 512, "cell %s rep %s: %d rows" % (k + (len(b),))
    for (lo, hi, c), nxt in zip(b, b[1:] + [None]):
        assert 0 <= lo < hi and c > 0, "cell %s rep %s: row %s" % (k + ((lo, hi, c),))
        assert nxt is None or hi <= nxt[0], "cell %s rep %s: rows out of order" % k
    n = sum(c for _, _, c in b)
    assert n == int(float(r["rtt_samples"])), "cell %s rep %s: counts add up to %d, rtt_samples %s" % (k + (n, r["rtt_samples"]))
    for q, col in ((0.5, "rtt_p50_us"), (0.99, "rtt_p99_us")):
        v, w = pct(b, n, q)
        got = float(r[col])
        assert abs(v - got) <= w + 1e-6, "cell %s rep %s: %s %s, from hist.csv %g (bucket %g wide)" % (k + (col, got, v, w))
print(len(want), "repetitions checked")
PY
}

t_hist_csv_counts_and_percentiles() {
	hist_matrix
	run_matrix run m.yaml -o out -q; expect_rc 0
	expect_all out/results.csv status ok
	[ "$(head -1 out/hist.csv)" = "cell,rep,low_us,high_us,count" ] ||
		die "hist.csv header: $(head -1 out/hist.csv)"
	hist_matches out
	grep -q '^12 repetitions checked$' hist_check.txt || die "$(cat hist_check.txt)"
	# the stream cell is in results.csv, and has no rows
	local stream
	stream=$(csvq out/results.csv cell pattern | awk -F'\t' '$2 == "stream" { print $1; exit }')
	[ -n "$stream" ] || die "no stream cell"
	! grep -q "^$stream," out/hist.csv || die "stream cell $stream has hist rows"
}

# A chart per scenario (pingpong at 16 B, at 256 B; the stream cell has
# none), each a line and a bar per transport, that gnuplot renders from
# the folder by hand without a word on stderr; `matrix report` writes the
# same scripts again.
t_latency_chart_per_scenario() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	hist_matrix
	run_matrix run m.yaml -o out -q; expect_rc 0
	local n
	for n in 1 2; do
		[ -s "out/plots/latency-$n.gp" ] || die "no plots/latency-$n.gp: $(ls out/plots)"
		[ -s "out/plots/latency-$n.png" ] || die "plots/latency-$n.png was not rendered"
		grep -q '</svg>' "out/plots/latency-$n.svg" || die "plots/latency-$n.svg is not whole"
		for t in unix tcp udp; do
			grep -q "title '$t (" "out/plots/latency-$n.gp" || die "latency-$n.gp: no line for $t"
		done
		(cd out && gnuplot -c "plots/latency-$n.gp" hist.csv "$T/l$n.svg") 2>"l$n.err" ||
			die "gnuplot failed on latency-$n.gp: $(head -5 "l$n.err")"
		[ ! -s "l$n.err" ] || die "gnuplot said, on latency-$n.gp: $(head -5 "l$n.err")"
		cmp -s "out/plots/latency-$n.svg" "l$n.svg" || die "latency-$n.svg differs when drawn by hand"
	done
	[ ! -e out/plots/latency-3.gp ] || die "a third scenario: $(head -3 out/plots/latency-3.gp)"
	grep -q "round-trip time, pingpong, 16 B'" out/plots/latency-1.gp || die "latency-1.gp names no scenario"
	grep -q "round-trip time, pingpong, 256 B'" out/plots/latency-2.gp || die "latency-2.gp names no scenario"
	grep -q "'99.9%%' 1000," out/plots/latency-1.gp || die "no 99.9% tick"
	cp out/plots/latency-1.gp first.gp
	run_matrix report out -q; expect_rc 0
	cmp -s first.gp out/plots/latency-1.gp || die "matrix report wrote another latency-1.gp"
}

# A latency chart's lines and percentiles are computed by the report
# (gnuplot_hist.c), gnuplot only draws them: each line's $c_K is its
# cell's successful repetitions' hist.csv rows merged by bucket midpoint
# (6 digits, as gnuplot's own table had it) with the round trips up to
# each, exactly; n_K their sum; q50_K, q99_K and q999_K the nearest-rank
# percentiles, the first midpoint whose count reaches ceil(q n (1 - 2^-50)).
# The counts scaled by 997 (some 4 million round trips a line): past
# 10^6, where gnuplot's own table of them had 6 digits (1.23329e+06), its
# percentiles and its last points a little off.
t_latency_chart_percentiles_are_the_merged_histograms() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	hist_matrix
	run_matrix run m.yaml -o out -q; expect_rc 0
	python3 - out <<'PY' || die "cannot scale the counts"
import csv, sys
for name, col in (("hist.csv", "count"), ("results.csv", "rtt_samples")):
    p = sys.argv[1] + "/" + name
    rows = list(csv.reader(open(p, newline="")))
    k = rows[0].index(col)
    for r in rows[1:]:
        if r[k]:
            r[k] = str(int(float(r[k])) * 997)
    csv.writer(open(p, "w", newline=""), lineterminator="\n").writerows(rows)
PY
	run_matrix report out -q; expect_rc 0
	python3 - out <<'PY' >lat_check.txt 2>&1 || die "latency charts: $(head -5 lat_check.txt)"
import csv, glob, math, re, sys
d = sys.argv[1]
ok = {}
for r in csv.DictReader(open(d + "/results.csv", newline="")):
    if r["status"] == "ok":
        ok.setdefault(r["cell"], []).append(r["rep"])
hist = list(csv.DictReader(open(d + "/hist.csv", newline="")))
lines = 0
for gp in sorted(glob.glob(d + "/plots/latency-*.gp")):
    text = open(gp).read()
    for k, cell, reps in re.findall(r"^# line (\d+): cell (\d+), hist.csv's rows of its repetitions? ([\d ]+) merged", text, re.M):
        reps = reps.split()
        assert sorted(reps) == sorted(ok[cell]), "%s line %s: repetitions %s, results.csv's ok %s" % (gp, k, reps, ok[cell])
        merged = {}
        for r in hist:
            if r["cell"] == cell and r["rep"] in reps:
                mid = (float(r["low_us"]) + float(r["high_us"])) / 2
                merged[mid] = merged.get(mid, 0) + int(r["count"])
        want, seen = [], 0
        for mid in sorted(merged):
            seen += merged[mid]
            want.append((float("%g" % mid), seen))
        block = re.search(r"^\$c_%s << EOD\n(.*?)^EOD$" % k, text, re.M | re.S).group(1)
        got = [(float(a), int(b)) for a, b in (l.split() for l in block.splitlines())]
        assert got == want, "%s line %s: $c_%s %s..., from hist.csv %s..." % (gp, k, k, got[:3], want[:3])
        n = float(re.search(r"^n_%s = (\S+)$" % k, text, re.M).group(1))
        assert n == seen > 10**6, "%s line %s: n_%s %s, hist.csv's %d" % (gp, k, k, n, seen)
        for q, name in ((0.5, "50"), (0.99, "99"), (0.999, "999")):
            rank = math.ceil(q * seen * (1 - 2**-50))
            v = next(x for x, c in want if c >= rank)
            g = float(re.search(r"^q%s_%s = (\S+)$" % (name, k), text, re.M).group(1))
            assert g == v, "%s line %s: q%s_%s %s, from hist.csv %s" % (gp, k, name, k, g, v)
        lines += 1
assert lines == 6, "%d lines checked, not 6" % lines
print(lines, "lines checked")
PY
	(cd out && gnuplot -c plots/latency-1.gp hist.csv "$T/l1.svg") 2>l1.err ||
		die "gnuplot failed on latency-1.gp: $(head -5 l1.err)"
	[ ! -s l1.err ] || die "gnuplot said, on latency-1.gp: $(head -5 l1.err)"
	cmp -s out/plots/latency-1.svg "$T/l1.svg" || die "latency-1.svg differs when drawn by hand"
}

# Folders without hist.csv still report, without a latency chart: the
# golden ones, and a run's folder once hist.csv is gone (its old charts go
# too).  A hist.csv row that is no bucket is refused by file and line.
t_old_folders_report_without_latency_chart() {
	hist_matrix
	run_matrix run m.yaml -o out -q --only size=16; expect_rc 0
	[ -s out/plots/latency-1.gp ] || die "no latency chart to begin with"
	cp out/hist.csv hist.keep
	rm out/hist.csv
	run_matrix report out -q; expect_rc 0
	[ -z "$(ls out/plots | grep '^latency')" ] || die "latency charts left: $(ls out/plots)"
	[ -s out/plots/rtt.gp ] || die "the other charts went too"
	local g
	for g in golden golden7; do
		rm -rf "$g" && cp -R "$REPO/tests/data/$g" "$g"
		run_matrix report "$g" -q; expect_rc 0
		[ -s "$g/summary.md" ] || die "$g: no summary.md"
		[ -z "$(ls "$g/plots" | grep '^latency')" ] || die "$g: latency charts: $(ls "$g/plots")"
	done
	awk -F, 'NR == 3 { $5 = "x" } { print }' OFS=, hist.keep >out/hist.csv
	run_matrix report out -q; expect_rc 2
	expect_err "out/hist.csv:3: count 'x' is not a number"
	awk -F, 'NR == 4 { $4 = $3 } { print }' OFS=, hist.keep >out/hist.csv
	run_matrix report out -q; expect_rc 2
	expect_err "out/hist.csv:4: not a bucket: low_us"
}

# A finished pingpong run into d, made to look killed: status running (its
# runner is gone), results.csv without its last row (cell and repetition
# in $last_rep), whose hist rows are the last ones and stay.
killed_pingpong_run() {
	mat p.yaml <<'Y'
name: hk
repeat: 3
warmup: 1
matrix:
  transport: [unix, tcp]
  count: 500
Y
	run_matrix run p.yaml -o d -q; expect_rc 0
	hist_matches d
	last_rep=$(csvq d/results.csv cell rep | tail -1)
	[ "$(csvq d/hist.csv cell rep | tail -1)" = "$last_rep" ] ||
		die "the last hist row is not the last repetition's"
	sed -i 's/^status,ok$/status,running/' d/meta.csv
	grep -qx 'status,running' d/meta.csv || die "meta.csv: no status row"
	head -n -1 d/results.csv >res.tmp && mv res.tmp d/results.csv
	csvq d/hist.csv cell rep low_us count | grep -v "^${last_rep}	" >kept.txt
}

# --resume drops the hist rows of the repetition it runs again (a kill
# between them and its results row, here with a row cut short as well),
# and the rows of the new run replace them: once each, adding up.
t_resume_drops_and_rewrites_hist_rows() {
	killed_pingpong_run
	local last
	last=$(tail -1 d/hist.csv)
	printf '%s' "${last:0:6}" >>d/hist.csv
	run_matrix run --resume d -q; expect_rc 0
	[ "$(csvq d/results.csv --rows)" -eq 6 ] || die "$(csvq d/results.csv --rows) rows, not 6"
	[ "$(csvq d/results.csv cell rep | tail -1)" = "$last_rep" ] || die "$last_rep did not run again"
	tail -c 1 d/hist.csv | od -c | grep -q '\\n' || die "hist.csv does not end a row"
	hist_matches d
	[ "$(csvq d/hist.csv cell rep low_us count | grep -v "^${last_rep}	")" = "$(cat kept.txt)" ] ||
		die "the rows of the repetitions kept changed"
	run_matrix report d -q; expect_rc 0
}

# Lines of a latency chart compared along another dimension than transport
# say which dimension: "nodelay true", not a bare "true".
t_latency_lines_name_their_dimension() {
	mat m.yaml <<'Y'
name: nd
repeat: 1
warmup: 5
matrix:
  pattern: echo
  transport: tcp
  nodelay: [true, false]
  count: 200
Y
	run_matrix run m.yaml -o d -q; expect_rc 0
	[ -f d/plots/latency-1.gp ] || die "no latency chart: $(ls d/plots)"
	grep -q "'nodelay true" d/plots/latency-1.gp || die "lines: $(grep -o "title '[^']*'" d/plots/latency-1.gp | head -3)"
}
