# The charts of plots/ as a reader needs them, read from the scripts
# themselves: a log y axis where a panel's medians span more than 10x and
# nowhere else, sizes as categories (never a line between them), one colour
# per transport in every chart, every panel titled by its metric, and
# gnuplot drawing every script without a warning.  The figures come from
# summary.csv and ratios.csv, the metric titles from the table below.

# gp_check MODE DIR: checks DIR/plots/*.gp; prints what is wrong and fails.
#   log          a panel is log y exactly when its medians span > 10x (ratios:
#                always), no bars on a log axis, and both kinds are there
#   log-any      the same, without needing both kinds
#   categorical  sizes as categories '16 B' 0, '1 KiB' 1, ..., drawn as points
#   colours      each transport (a ratio: its numerator) one rgb colour in
#                throughput, rtt, cpu and ratios, and no two alike
#   titles       every panel's title names its metric, its ylabel the unit
#                (ratios: "ratio"), no "%%" in any title
gp_check() {
	python3 - "$@" <<'PY' || die "plots/*.gp: $1 check failed (above)"
import csv, glob, os, re, sys
mode, d = sys.argv[1], sys.argv[2]
TITLES = {  # the metric table (base/vocab.c), written out apart from it
    "msgs_per_s": ("messages per second", "msg/s"), "mib_per_s": ("MiB per second", "MiB/s"),
    "rtt_p50_us": ("round-trip time, median (p50)", "µs"), "rtt_p99_us": ("round-trip time, p99", "µs"),
    "cpu_us_per_msg": ("CPU time per message, each way (all workers)", "µs/msg")}
bad = []
def gpstr(expr):
    """A gnuplot string expression of '...' and "..." pieces joined by '.'"""
    out, i = "", 0
    while i < len(expr):
        c = expr[i]
        if c == "'":
            j = i + 1
            while True:
                k = expr.index("'", j)
                if expr[k + 1:k + 2] == "'":
                    j = k + 2
                    continue
                break
            out += expr[i + 1:k].replace("''", "'"); i = k + 1
        elif c == '"':
            k = expr.index('"', i + 1)
            out += expr[i + 1:k].encode().decode("unicode_escape"); i = k + 1
        elif c in ". ":
            i += 1
        else:
            break
    return out
def rows(name):
    with open(os.path.join(d, name), newline="") as f:
        return list(csv.DictReader(f))
summary = {r["cell"]: r for r in rows("summary.csv")}
ratios = rows("ratios.csv") if os.path.exists(os.path.join(d, "ratios.csv")) else []
def figure(sel, col):
    if sel[0] == "cell":
        v = summary[sel[1]].get(col, "")
    else:
        hit = [r for r in ratios if r["scope"] == "cell" and r["metric"] == sel[3]
               and r["num_cell"] == sel[1] and r["den_cell"] == sel[2]]
        v = hit[0][col] if hit else ""
    return float(v) if v not in ("", "nan") else None
charts = {}
for gp in sorted(glob.glob(os.path.join(d, "plots", "*.gp"))):
    name = os.path.basename(gp)[:-3]
    if name.startswith("latency-"):
        continue  # hist.csv's charts: test_hist.sh reads them
    tables, panels, cur, state, lines = {}, [], None, {}, open(gp).read().split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"set table \$(\w+)", ln)
        if m:
            cur = tables.setdefault(m.group(1), [])
        elif cur is not None and ln.startswith("plot ARG1"):
            col = re.search(r":\(v\('(\w+)'\)\)", ln).group(1)
            c = re.search(r"column\('cell'\) == (\d+)", ln)
            if c:
                cur.append((("cell", c.group(1)), col))
            else:
                r = re.search(r"metric'\) eq '(\w+)' && column\('num_cell'\) == (\d+) && column\('den_cell'\) == (\d+)", ln)
                cur.append((("pair", r.group(2), r.group(3), r.group(1)), col))
        elif ln == "unset table":
            cur = None
        elif ln.startswith("set title "):
            state["title"] = gpstr(ln[10:])
        elif ln.startswith("set ylabel "):
            state["ylabel"] = gpstr(ln[11:])
        elif ln.startswith("set xtics ("):
            state["xtics"] = ln
        elif re.match(r"(un)?set logscale y", ln):
            state["logy"] = ln.startswith("set")
        elif re.match(r"(un)?set logscale x", ln):
            state["logx"] = ln.startswith("set")
        elif ln.startswith("set multiplot"):
            state["main"] = gpstr(ln.split(" title ", 1)[1].split(" margins")[0]) if " title " in ln else ""
        elif ln.startswith("plot") and not ln.startswith("plot ARG1 using") or (ln.startswith("plot ARG1") and cur is None):
            body = [ln]
            while body[-1].endswith("\\"):
                i += 1; body.append(lines[i])
            series = []
            for s in body[1:] if ln.endswith("\\") else body:
                m = re.search(r"\$(\w+) using", s)
                st = re.search(r" with (\w+)", s)
                col = re.search(r"lc rgb '(#[0-9a-f]{6})'", s) or re.search(r" lc (\d+)", s)
                tt = re.search(r" title (.*?)(, \\)?$", s)
                series.append({"table": m.group(1) if m else None, "with": st.group(1) if st else "",
                               "colour": col.group(1) if col else None,
                               "title": gpstr(tt.group(1)) if tt else None, "text": s})
            panels.append(dict(state, series=series))
        i += 1
    charts[name] = (tables, panels)
def fail(msg):
    bad.append(msg)
summaries = ("throughput", "rtt", "cpu")
if mode in ("log", "log-any"):
    seen = set()
    for name in summaries + ("ratios",):
        tables, panels = charts.get(name, ({}, []))
        for p in panels:
            vals = [figure(sel, col) for s in p["series"] if s["table"] for sel, col in tables[s["table"]]]
            vals = [v for v in vals if v is not None and v > 0]
            if not vals:
                continue
            want = name == "ratios" or max(vals) / min(vals) > 10
            seen.add((name == "ratios", want))
            if bool(p.get("logy")) != want:
                fail("%s, panel %r: medians %g to %g, logscale y %s" % (name, p["title"], min(vals), max(vals), p.get("logy")))
            if p.get("logy") and any(s["with"] == "boxerrorbars" for s in p["series"]):
                fail("%s, panel %r: bars on a log axis" % (name, p["title"]))
    if mode == "log" and not {(False, True), (False, False)} <= seen:
        fail("expected both a log and a linear summary panel, saw %s" % sorted(seen))
elif mode == "categorical":
    sizes = sorted({int(r["size"]) for r in summary.values()})
    def unit(b):
        for n, u in ((1 << 20, "MiB"), (1 << 10, "KiB")):
            if b >= n and b % n == 0:
                return "%d %s" % (b // n, u)
        return "%d B" % b
    want = "set xtics (" + ", ".join("'%s' %d" % (unit(b), i) for i, b in enumerate(sizes)) + ")"
    for name in summaries + ("ratios",):
        for p in charts[name][1]:
            if p.get("xtics") != want:
                fail("%s: %r, expected %r" % (name, p.get("xtics"), want))
            if p.get("logx"):
                fail("%s: a log x axis for sizes" % name)
            for s in p["series"]:
                if s["table"] and s["with"] != "yerrorbars":
                    fail("%s: %s drawn with %s" % (name, s["table"], s["with"]))
elif mode == "colours":
    num = {r["name"]: r["numerator"] for r in ratios}
    colour = {}
    for name in summaries + ("ratios",):
        for p in charts[name][1]:
            for s in p["series"]:
                if not s["table"] or s["title"] is None:
                    continue
                value = num[s["title"]] if name == "ratios" else s["title"]
                if not s["colour"] or not s["colour"].startswith("#"):
                    fail("%s: %s has no colour of its own: %s" % (name, value, s["text"]))
                colour.setdefault(value, set()).add(s["colour"])
    for v, cs in colour.items():
        if len(cs) != 1:
            fail("%s has colours %s" % (v, sorted(cs)))
    firsts = [sorted(cs)[0] for cs in colour.values()]
    if len(set(firsts)) != len(firsts) or len(colour) < 2:
        fail("transports share a colour: %s" % colour)
elif mode == "titles":
    for name, (tables, panels) in charts.items():
        for p in panels:
            for t in (p.get("title", ""), p.get("main", "")):
                if "%%" in t:
                    fail("%s: %r" % (name, t))
            if name not in summaries + ("ratios",):
                continue
            ms = {sel[3] if sel[0] == "pair" else re.sub(r"_median$", "", col)
                  for s in p["series"] if s["table"] for sel, col in tables[s["table"]]}
            for m in ms:
                title, unit = TITLES[m]
                if title not in p["title"]:
                    fail("%s: panel %r does not name %s" % (name, p["title"], title))
                if name != "ratios" and unit not in p.get("ylabel", ""):
                    fail("%s: panel %r: ylabel %r lacks %s" % (name, p["title"], p.get("ylabel"), unit))
                if name == "ratios" and "ratio" not in p.get("ylabel", ""):
                    fail("ratios: ylabel %r" % p.get("ylabel"))
            if len(ms) > 1:
                fail("%s: panel %r mixes %s" % (name, p["title"], ms))
        if name == "ratios":
            if not any("1 with lines" in s["text"] for p in panels for s in p["series"]):
                fail("ratios: no line at 1x")
else:
    fail("unknown mode " + mode)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

# every script renders to SVG by hand with nothing on stderr, and the
# report left no plots/gnuplot.log
renders_clean() {
	local g data out
	[ ! -s "$1/plots/gnuplot.log" ] || die "gnuplot.log: $(head -5 "$1/plots/gnuplot.log")"
	for g in "$1"/plots/*.gp; do
		case $g in
		*/ratios.gp) data=ratios.csv ;;
		*/timeline.gp) data=timeline.csv ;;
		*/latency-*.gp) data=hist.csv ;;
		*) data=summary.csv ;;
		esac
		out=$(cd "$1" && gnuplot -c "plots/${g##*/}" "$data" "$T/x.svg" 2>&1) ||
			die "gnuplot failed on $g: $out"
		[ -z "$out" ] || die "gnuplot on $g: $out"
	done
}

golden7() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	cp -R "$REPO/tests/data/golden7" g7 || die "cannot copy tests/data/golden7"
	run_matrix report g7 --quiet; expect_rc 0
}

# golden7's pingpong MiB/s spans 0.17 to 17.6 (log), its msg/s 5,000 to
# 10,500 (linear); ratios are always on a log axis
t_log_axes_where_medians_span_a_decade() {
	golden7
	gp_check log g7
}

t_sizes_are_categories_never_joined_by_a_line() {
	golden7
	gp_check categorical g7
}

t_a_transport_has_one_colour_in_every_chart() {
	golden7
	gp_check colours g7
}

t_every_panel_names_its_metric() {
	golden7
	gp_check titles g7
}

t_every_chart_renders_without_a_warning() {
	golden7
	renders_clean g7
}

# one size, two transports (af_unix_vs_inet's shape): bars on a linear
# axis only; one stream cell: a timeline titled by the cell's dimensions
t_one_size_and_one_cell_charts() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	mat m.yaml <<'Y'
name: small
repeat: 3
warmup: 10
matrix:
  pattern: echo
  transport: [unix, tcp]
  size: 10
  count: 2000
Y
	run_matrix run m.yaml -o one -q; expect_rc 0
	gp_check log-any one	# not a decade apart here: linear, so bars
	grep -q 'boxerrorbars' one/plots/throughput.gp || die "no bars for one size"
	awk '/^set logscale y/ { lg = 1 } /^unset logscale y/ { lg = 0 }
		/boxerrorbars/ && lg { bad = 1 } END { exit bad }' one/plots/*.gp ||
		die "bars on a log axis"
	gp_check colours one
	gp_check titles one
	renders_clean one
	printf 'name: st\nrepeat: 2\nwarmup: 0\nmatrix:\n  pattern: stream\n  transport: unix\n  size: 64\n  concurrency: 1\n  count: 2000\n' >s.yaml
	run_matrix run s.yaml -o st -q; expect_rc 0
	grep -q "^set title 'cell 1: stream, transport unix, size 64 B, concurrency 1'$" st/plots/timeline.gp ||
		die "timeline title: $(grep '^set title' st/plots/timeline.gp)"
	renders_clean st
}

# report: sweep: size puts the sizes on a true log2 axis, as points on a
# line; anything but size or concurrency is refused where it is written
t_sweep_puts_sizes_on_a_numeric_axis() {
	golden7
	sed -i 's/^  noisy_cv: 5%$/  noisy_cv: 5%\n  sweep: size/' g7/matrix.yaml
	grep -q '^  sweep: size$' g7/matrix.yaml || die "could not add sweep: to the copy"
	run_matrix report g7 --quiet; expect_rc 0
	grep -qx 'set logscale x 2' g7/plots/throughput.gp || die "no log2 x axis in a sweep"
	grep -qx "set xtics ('16 B' 16, '1 KiB' 1024)" g7/plots/throughput.gp ||
		die "sweep ticks: $(grep 'set xtics' g7/plots/throughput.gp)"
	grep -q 'with yerrorlines' g7/plots/throughput.gp || die "a sweep's points are not on a line"
	renders_clean g7
	printf 'name: s\nmatrix:\n  transport: [unix, tcp]\n  size: [16, 64]\nreport:\n  sweep: transport\n' >bad.yaml
	run_matrix plan bad.yaml; expect_rc 2
	expect_err "bad.yaml:6:10: sweep: 'transport' is not size or concurrency"
	printf 'name: s\nmatrix:\n  transport: [unix, tcp]\nreport:\n  sweep: size\n' >bad2.yaml
	run_matrix plan bad2.yaml; expect_rc 2
	expect_err "bad2.yaml:5:10: sweep: 'size' is not a dimension of matrix:"
}
