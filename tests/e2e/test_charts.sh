# The charts of plots/ as a reader needs them, read from the scripts
# themselves: a log y axis where a panel's medians span more than 10x and
# nowhere else, sizes as categories (never a line between them), one colour
# per transport in every chart, every panel titled by its metric, and
# gnuplot drawing every script without a warning.  The figures come from
# summary.csv and ratios.csv, the metric titles from the table below.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

# table_rows GP COLUMN: the lines of GP's tables ($dR_P_S datablocks) of
# COLUMN's figures (summary.csv's rtt_p50_us_median, ratios.csv's ratio):
# "x median lo hi cell N", or "... pair NUM DEN METRIC".
table_rows() {
	awk -v col="$2" '/^# \$d[0-9_]*: x, [a-z]*\.csv/ { want = $5 == col }
		/^\$d[0-9_]* << EOD$/ { on = want; next } /^EOD$/ { on = 0 } on' "$1"
}

# gp_check MODE DIR: checks DIR/plots/*.gp; prints what is wrong and fails.
#   log          a panel is log y exactly when its medians span > 10x (ratios:
#                always), no bars on a log axis, and both kinds are there
#   log-any      the same, without needing both kinds
#   categorical  sizes as categories '16 B' 0, '1 KiB' 1, ..., drawn as points
#   colours      each transport (a ratio: its numerator) one rgb colour in
#                throughput, rtt, cpu and ratios, and no two alike
#   figures      every table's point (median, interval) is the CSV file's,
#                exactly, NaN where its figure is empty
#   titles       every panel's title names its metric, its ylabel the unit
#                (ratios: "ratio"), no "%%" in any title
gp_check() {
	python3 - "$@" <<'PY' || die "plots/*.gp: $1 check failed (above)"
import csv, glob, os, re, sys
mode, d = sys.argv[1], sys.argv[2]
TITLES = {  # the metric table (base/vocab.c), written out apart from it
    "msgs_per_s": ("messages per second", "msg/s"), "mib_per_s": ("MiB per second", "MiB/s"),
    "rtt_mean_us": ("round-trip time, mean", "µs"),
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
charts, points = {}, []
for gp in sorted(glob.glob(os.path.join(d, "plots", "*.gp"))):
    name = os.path.basename(gp)[:-3]
    if name.startswith("latency-"):
        continue  # hist.csv's charts: test_hist.sh reads them
    tables, panels, cur, state, lines = {}, [], None, {}, open(gp).read().split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        # a table: "# $dR_P_S: x, summary.csv's COLUMN ...", then its
        # datablock, a line each "x median lo hi cell N" (or "pair NUM DEN METRIC")
        m = re.match(r"# \$(d\w+): x, \w+\.csv's (\w+) ", ln)
        b = re.match(r"\$(\w+) << EOD$", ln)
        if m:
            col = m.group(2)
        elif b:
            cur = tables.setdefault(b.group(1), []) if b.group(1).startswith("d") else []
            table, tname = b.group(1).startswith("d"), b.group(1)
        elif cur is not None and ln == "EOD":
            cur = None
        elif cur is not None:
            f = ln.split()
            if table:	# ($r blocks: a published ratio's segments)
                sel = ("cell", f[-1]) if f[-2] == "cell" else ("pair", f[-3], f[-2], f[-1])
                cur.append((sel, col))
                points.append((name, tname, sel, col, f[1:4]))
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
            vals = [figure(sel, col) for s in p["series"] if s["table"] for sel, col in tables.get(s["table"], [])]
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
elif mode == "figures":
    if not points:
        fail("no table has a point")
    for name, table, sel, col, got in points:
        ends = [col.replace("_median", e) if col != "ratio" else e[1:] for e in ("_ci_lo", "_ci_hi")]
        want = [figure(sel, col)] + [figure(sel, e) for e in ends]
        if want[0] is not None and want[1] is None and want[2] is None:
            want[1] = want[2] = want[0]	# no interval: no whiskers
        got = [None if v == "NaN" else float(v) for v in got]
        if got != want:
            fail("%s: $%s: %s %s: %s, the CSV file's %s" % (name, table, sel, col, got, want))
elif mode == "colours":
    num = {r["name"]: r["numerator"] for r in ratios}
    colour = {}
    for name in summaries + ("ratios",):
        for p in charts[name][1]:
            for s in p["series"]:
                if s["table"] not in charts[name][0] or s["title"] is None:
                    continue  # the 1x line, a reference's mark or key entry
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
                  for s in p["series"] if s["table"] for sel, col in tables.get(s["table"], [])}
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

# gp_fits DIR: no text of DIR/plots/*.gp is cut or runs into other text,
# by the numbers of each script and of gnuplot's drawing, measured apart
# from the tool (DejaVu Sans at 10 pt in pngcairo, the charts' font):
#   - a character is 7 pixels wide at most on average (lowercase letters
#     measure 6.5 to 7.3), a line 15 high;
#   - every title line (the chart's, a panel's) is narrower than the
#     canvas, a panel's than its column;
#   - flat x tick labels are narrower than the space from one tick to the
#     next; rotated ones (45 degrees) are 20 pixels apart at least (a line
#     of text across the slant), reach no further left than the canvas,
#     and have room below: gnuplot puts the axis's label 43 pixels under
#     the axis, 8 x 0.707 pixels further a character of the longest label
#     less 13 when they are rotated, and that label must end above the
#     canvas's bottom and the next row's panel title;
#   - a latency chart's bars, in a third of the canvas less 95 pixels of
#     margins, the same;
#   - drawn as PNG, nothing touches the canvas's edge (2 pixels all round).
gp_fits() {
	local g data
	for g in "$1"/plots/*.gp; do
		case $g in
		*/ratios.gp) data=ratios.csv ;;
		*/timeline.gp) data=timeline.csv ;;
		*/latency-*.gp) data=hist.csv ;;
		*) data=summary.csv ;;
		esac
		(cd "$1" && gnuplot -c "plots/${g##*/}" "$data" "$T/fit.png") 2>&1 ||
			die "gnuplot failed on $g"
		python3 - "$g" "$T/fit.png" <<'PY' || die "$g: text does not fit (above)"
import re, struct, sys, zlib
gp, png = sys.argv[1], sys.argv[2]
CHAR, LINE = 7.0, 15
def gpstr(expr):
    out, i = "", 0
    while i < len(expr) and expr[i] in "'\". ":
        c = expr[i]
        if c == "'":
            k = i + 1
            while True:
                k = expr.index("'", k)
                if expr[k + 1:k + 2] != "'":
                    break
                k += 2
            out += expr[i + 1:k].replace("''", "'"); i = k + 1
        elif c == '"':
            k = expr.index('"', i + 1)
            out += expr[i + 1:k].encode().decode("unicode_escape"); i = k + 1
        else:
            i += 1
    return out
text = open(gp).read()
bad = []
W, H = map(int, re.search(r"pngcairo noenhanced size (\d+),(\d+)", text).group(1, 2))
mp = re.search(r"^set multiplot (?:layout (\d+),(\d+) )?title (.*?)(?: margins ([\d.]+),([\d.]+),([\d.]+),([\d.]+) spacing ([\d.]+),([\d.]+))?$", text, re.M)
for line in gpstr(mp.group(3)).split("\n"):
    if len(line) * CHAR > W - 10:
        bad.append("the title line %r (%d characters) in a canvas %d wide" % (line, len(line), W))
if mp.group(1):
    R, C = int(mp.group(1)), int(mp.group(2))
    l, r, b, t, sx, sy = (float(mp.group(k)) for k in range(4, 10))
    plot = (W * (r - l) - (C - 1) * sx * W) / C
    titles = [gpstr(m) for m in re.findall(r"^set title (.*)$", text, re.M)]
    for tt in titles:
        for line in tt.split("\n"):
            if len(line) * CHAR > plot + sx * W - 10:
                bad.append("the panel title %r in a column %d wide" % (line, plot + sx * W))
    tics = re.search(r"^set xtics \((.*)\)$", text, re.M)
    xr = re.search(r"^set xrange \[([-\d.e+]+):([-\d.e+]+)\]$", text, re.M)
    if tics and xr and not re.search(r"^set logscale x", text, re.M):
        labels = re.findall(r"'((?:[^']|'')*)' ([-\d.e+]+)", tics.group(1))
        chars = max(len(lb) for lb, _ in labels)
        pos = sorted(float(x) for _, x in labels)
        a, z = float(xr.group(1)), float(xr.group(2))
        slot = min([q - p for p, q in zip(pos, pos[1:])] or [z - a]) * plot / (z - a)
        rotated = "set xtics rotate by 45 right" in text
        depth = 43 + (max(0, 8 * chars * 0.7071 - 13) if rotated else 0)
        if not rotated and chars * CHAR > slot:
            bad.append("flat x labels of %d characters %d pixels apart" % (chars, slot))
        if rotated and slot < 20:
            bad.append("rotated x labels %d pixels apart" % slot)
        if rotated and chars * CHAR * 0.7071 > l * W + (pos[0] - a) * plot / (z - a):
            bad.append("the first x label reaches past the canvas's left edge")
        if depth + 5 > b * H:
            bad.append("the x axis's label %d pixels down, in a bottom margin of %d" % (depth, b * H))
        lines = max([len(tt.split("\n")) for tt in titles] or [1])
        if R > 1 and depth + LINE * lines + 10 > sy * H:
            bad.append("the x axis's label %d pixels down runs into the next row's title (%d apart)"
                       % (depth, sy * H))
bars = re.search(r"^set xtics (norotate|rotate by 45 right) \((.*)\)$", text, re.M)
if bars:  # latency-N's bars, a third of the canvas each, less 95 pixels of margins
    labels = re.findall(r"'((?:[^']|'')*)' ([-\d.e+]+)", bars.group(2))
    chars, slot = max(len(lb) for lb, _ in labels), (W / 3 - 95) / (len(labels) + 0.2)
    if bars.group(1) == "norotate" and chars * CHAR > slot:
        bad.append("flat bar labels of %d characters %d pixels apart" % (chars, slot))
    if bars.group(1) != "norotate" and slot < 20:
        bad.append("rotated bar labels %d pixels apart" % slot)
def pixels(path):
    data, i, idat = open(path, "rb").read(), 8, b""
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind == b"IHDR":
            w, h, _, ctype = struct.unpack(">IIBB", data[i + 8:i + 18])
        elif kind == b"IDAT":
            idat += data[i + 8:i + 8 + n]
        i += 12 + n
    bpp, raw, rows = {2: 3, 6: 4}[ctype], zlib.decompress(idat), []
    stride, prev = w * {2: 3, 6: 4}[ctype], bytearray(w * {2: 3, 6: 4}[ctype])
    for y in range(h):
        f, ln = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = ln[x - bpp] if x >= bpp else 0
            if f == 1: ln[x] = (ln[x] + a) & 255
            elif f == 2: ln[x] = (ln[x] + prev[x]) & 255
            elif f == 3: ln[x] = (ln[x] + (a + prev[x]) // 2) & 255
            elif f == 4:
                b_, c = prev[x], prev[x - bpp] if x >= bpp else 0
                p = a + b_ - c
                ln[x] = (ln[x] + (a if abs(p - a) <= abs(p - b_) and abs(p - a) <= abs(p - c)
                                  else b_ if abs(p - b_) <= abs(p - c) else c)) & 255
        rows.append(ln); prev = ln
    return w, h, bpp, rows
w, h, bpp, rows = pixels(png)
def dark(x, y):
    return sum(rows[y][x * bpp:x * bpp + 3]) < 600
edge = [(x, y) for y in range(h) for x in (0, 1, w - 2, w - 1) if dark(x, y)]
edge += [(x, y) for x in range(w) for y in (0, 1, h - 2, h - 1) if dark(x, y)]
if edge:
    bad.append("drawn at the canvas's edge (text cut there), e.g. at %s" % (edge[:3],))
for m in bad:
    print(m)
sys.exit(1 if bad else 0)
PY
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

# the charts of panels draw summary.csv's and ratios.csv's figures to the
# digit (their datablocks, gnuplot_chart.c), a failed cell as NaN (a gap)
t_charts_draw_the_csv_figures() {
	golden7
	gp_check figures g7
	cp -R "$REPO/tests/data/marks000" m0 || die "cannot copy tests/data/marks000"
	run_matrix report m0 --quiet; expect_rc 0
	gp_check figures m0
	python3 - g7/results.csv <<'PY' || die "cannot fail a cell in the copy"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[1:]:
    if r[h.index("cell")] == "2":	# every repetition of cell 2 failed
        r[h.index("status")], r[h.index("error")] = "error", "injected"
        for k in range(h.index("elapsed_s"), h.index("rtt_samples") + 1):
            r[k] = ""
csv.writer(open(sys.argv[1], "w", newline="")).writerows(rows)
PY
	run_matrix report g7 --quiet
	grep -q '^[-0-9.e]* NaN NaN NaN cell 2$' g7/plots/throughput.gp ||
		die "throughput.gp: failed cell 2 is not a gap: $(grep ' cell 2$' g7/plots/throughput.gp)"
	gp_check figures g7
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

# Series labels too long to stand side by side flat (program clients with
# long names, one bar each) are rotated, the canvas made room for, and a
# long matrix name widens the canvas or breaks into lines, never cut; the
# program that prints only its mean round trip is in the rtt chart's
# first row, the mean's.
t_long_labels_rotated_and_titles_fit() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	command -v python3 >/dev/null || skip "python3 missing"
	local cli=$REPO/tests/e2e/programs/marks_echo_client.py
	mat m.yaml <<Y
name: a_matrix_with_a_name_long_enough_to_be_wider_than_a_chart_of_one_panel_is_at_first
repeat: 2
warmup: 5
timeout: 20s
programs:
  python_echo_client_that_prints_its_own_mean_round_trip_time:
    client: [$cli, "{endpoint}", "{size}", "{count}"]
    result:
      rtt_mean_us: {regex: 'avg rtt ([0-9.]+) us', unit: us}
  python_echo_client_timed_by_matrix_from_outside_its_process:
    client: [$cli, "{endpoint}", "{size}", "{count}"]
matrix:
  pattern: echo
  transport: tcp
  client: [python_echo_client_that_prints_its_own_mean_round_trip_time, python_echo_client_timed_by_matrix_from_outside_its_process, builtin]
  size: 16
  count: 200
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	local g
	# the cpu chart's µs per message each way beside the table's µs per
	# round trip: its title says which, and how they relate
	grep -q "CPU time per message, each way (a round trip is two: the tables' µs/rtt is about twice this)" out/plots/cpu.gp ||
		die "cpu.gp's title: $(grep -m1 'title' out/plots/cpu.gp)"
	for g in throughput cpu; do	# rtt has two series (one has no round trips)
		grep -qx 'set xtics rotate by 45 right' out/plots/$g.gp ||
			die "$g.gp: long x labels not rotated: $(grep '^set xtics' out/plots/$g.gp)"
	done
	gp_fits out
	renders_clean out
	gp_check titles out
	# the mean of the program that prints it, beside ours, in a row of its own
	grep -q "^set title 'round-trip time, mean (µs)'$" out/plots/rtt.gp ||
		die "rtt.gp has no mean row: $(grep '^set title' out/plots/rtt.gp)"
	[ "$(table_rows out/plots/rtt.gp rtt_mean_us_median | wc -l)" -eq 2 ] ||
		die "rtt.gp: the mean of $(table_rows out/plots/rtt.gp rtt_mean_us_median | wc -l) cells, not 2"
}

# marks000's shape (source 000): four program pairs that print their mean
# round trip only, and the builtin pair with its p50.  The rtt chart starts
# with the mean of all five (medians and intervals from summary.csv), and
# its p50 panel says it has one series of five and why; a run of builtin
# clients only keeps its p50 and p99 rows, with no such note.
t_rtt_chart_shows_a_mean_printed_by_programs() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	cp -R "$REPO/tests/data/marks000" m0 || die "cannot copy tests/data/marks000"
	run_matrix report m0 --quiet; expect_rc 0
	local g=m0/plots/rtt.gp
	[ "$(grep '^set title' $g | cut -c11-)" = "'round-trip time, mean (µs)'
'round-trip time, median (p50) (µs)'
'round-trip time, p99 (µs)'" ] || die "$g: rows $(grep '^set title' $g)"
	local xc	# the bar's x, the cell (numbered before the excluded were left out)
	for xc in 1:1 2:5 3:6 4:8 5:9; do	# at x, its median and interval, summary.csv's
		local want
		want="${xc%:*} $(csvq m0/summary.csv cell rtt_mean_us_median rtt_mean_us_ci_lo rtt_mean_us_ci_hi |
			awk -F'\t' -v c=${xc#*:} '$1 == c { print $2, $3, $4 }') cell ${xc#*:}"
		table_rows $g rtt_mean_us_median | grep -qxF "$want" ||
			die "$g: no mean of cell ${xc#*:} with its interval ($want): $(table_rows $g rtt_mean_us_median | head -3)"
	done
	grep -qF "set label 2 '1 of 5 series: the other 4 have no figure here'.\"\\n\".'(programs that print a mean only)' at graph 0.5, graph 1 center" $g ||
		die "$g: no note on the series the p50 row lacks: $(grep 'label' $g)"
	gp_check titles m0
	gp_fits m0
	renders_clean m0
	golden7
	[ "$(grep '^set title' g7/plots/rtt.gp | cut -c11-)" = "'round-trip time, median (p50) (µs)'
'round-trip time, p99 (µs)'" ] ||
		die "golden7's rtt.gp: $(grep '^set title' g7/plots/rtt.gp)"
	! grep -q 'series: \|label 2' g7/plots/*.gp || die "golden7: a note on missing series"
}

# Stream cells of crossed programs (marks_stream: builtin and pull
# receivers x builtin and push senders) share a timeline panel: each pair
# has a colour of its own in the key, every repetition of a pair its
# pair's colour with a dash of its own; a long name does not cut the
# timeline's title.
t_timeline_pairs_have_colours_of_their_own() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	cp -R "$REPO/tests/data/marks_stream" ms || die "cannot copy tests/data/marks_stream"
	sed -i 's/^name: marks_stream$/name: marks_stream_with_a_name_as_long_as_source_001s_zmq_push_pull/' ms/matrix.yaml
	grep -q '^name: marks_stream_with' ms/matrix.yaml || die "could not rename the copy"
	run_matrix report ms --quiet; expect_rc 0
	local g=ms/plots/timeline.gp
	python3 - $g <<'PY' || die "$g: colours (above)"
import re, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("    ARG1 using")]
cell = {}
bad = []
for l in lines:
    c, rep = re.search(r"strcol\('cell'\) eq '(\d+)' && strcol\('rep'\) eq '(\d+)'", l).groups()
    col, dt = re.search(r"lc rgb '(#[0-9a-f]{6})'", l).group(1), re.search(r" dt (\d+) ", l).group(1)
    cell.setdefault(c, []).append((rep, col, dt, re.search(r" title '([^']*)'", l)))
if sorted(cell) != ["1", "2", "3", "4"]:
    bad.append("cells %s, not 1 to 4" % sorted(cell))
for c, reps in cell.items():
    if len({col for _, col, _, _ in reps}) != 1:
        bad.append("cell %s: its repetitions in colours %s" % (c, reps))
    if len({dt for _, _, dt, _ in reps}) != len(reps):
        bad.append("cell %s: repetitions share a dash" % c)
    if [t.group(1) for _, _, _, t in reps if t] == []:
        bad.append("cell %s has no name in the key" % c)
firsts = {c: reps[0][1] for c, reps in cell.items()}
if len(set(firsts.values())) != len(firsts):
    bad.append("pairs share a colour: %s" % firsts)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	gp_fits ms
	renders_clean ms
}

# refs_check GP LABEL VALUE X: ratios.gp GP draws the published VALUE (the
# matrix file's reference:) beside the one series' point at x X: a
# datablock of one segment at VALUE centred on X, plotted dashed (dt) in
# the series' colour, LABEL once in the key, and the y axis (its range
# and a labelled tick) reaching past VALUE.
refs_check() {
	python3 - "$@" <<'PY' || die "$1: the reference (above)"
import re, sys
gp, label, value, x = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
text, bad = open(gp).read(), []
blocks = re.findall(r"^\$(r\w+) << EOD\n(.*?)^EOD$", text, re.M | re.S)
if len(blocks) != 1:
    bad.append("%d datablocks of references, not 1" % len(blocks))
else:
    name, body = blocks[0]
    pts = [tuple(map(float, l.split())) for l in body.split("\n") if l.strip()]
    if len(pts) != 2 or any(abs(y - value) > 1e-9 for _, y in pts):
        bad.append("$%s is not one segment at %g: %r" % (name, value, pts))
    elif abs((pts[0][0] + pts[1][0]) / 2 - x) > 1e-3 or not pts[0][0] < x < pts[1][0]:
        bad.append("$%s is not centred on the series' x %g: %r" % (name, x, pts))
    series = re.findall(r"^    \$d\w+ using 1:2:3:4 .* lc rgb '(#[0-9a-f]{6})' title ", text, re.M)
    clause = re.findall(r"^    \$%s using 1:2 (with lines .*?)(?:, \\)?$" % name, text, re.M)
    if len(set(series)) != 1:
        bad.append("series colours %s" % series)
    elif len(clause) != 1 or " dt " not in clause[0] or "lc rgb '%s'" % series[0] not in clause[0]:
        bad.append("$%s not plotted dashed in %s: %r" % (name, series[0], clause))
    key = re.findall(r"^    .* title '%s \(dashed\)'(?:, \\)?$" % re.escape(label), text, re.M)
    if len(key) != 1 or " dt " not in key[0] or "lc rgb '%s'" % series[0] not in key[0]:
        bad.append("key entries for %r: %r" % (label, key))
yr = re.findall(r"^set yrange \[([-\d.e+]+):([-\d.e+]+)\]$", text, re.M)
if not yr or not all(float(lo) < value < float(hi) for lo, hi in yr):
    bad.append("y range %s does not hold %g" % (yr, value))
tics = [float(v) for v in re.findall(r"'[^']+' ([\d.e+-]+)", " ".join(re.findall(r"^set ytics \((.*)\)$", text, re.M)))]
if not tics or max(tics) < value / 2:
    bad.append("no labelled y tick near %g: %s" % (value, tics))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

# A ratio's reference: (the value a source published) is drawn beside the
# measured ratio: for the pair of size 64 only, a dashed segment at 50x,
# the y axis up to it and "published (dashed)" once in the key; the same
# run reported without reference: has none of it.  marks002's shape (a
# point per client, no key of series) gets a key for the label.
t_ratio_reference_is_a_dashed_mark() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<'Y'
name: refs
repeat: 3
warmup: 10
matrix:
  pattern: echo
  transport: [unix, tcp]
  size: [16, 64]
  count: 2000
report:
  ratios:
    - name: AF_UNIX/AF_INET
      dimension: transport
      numerator: unix
      denominator: tcp
      metric: msgs_per_s
      reference:
        label: published
        ratios:
          - {size: 64, ratio: 50}
Y
	run_matrix run m.yaml -o ref -q; expect_rc 0
	expect_all ref/results.csv status ok
	local x	# the size-64 pair's x, from its table
	x=$(table_rows ref/plots/ratios.gp ratio | awk '$5 == "pair" { print $1 }' | sort -n | tail -1)
	[ -n "$x" ] || die "ratios.gp: no table of the pairs: $(grep -A3 'EOD' ref/plots/ratios.gp)"
	refs_check ref/plots/ratios.gp published 50 "$x"
	gp_check titles ref
	gp_check colours ref
	gp_fits ref
	renders_clean ref
	cp -R ref noref || die "cannot copy the run"
	sed -i '/^      reference:$/,$d' noref/matrix.yaml
	! grep -q 'reference\|published' noref/matrix.yaml || die "could not drop reference: from the copy"
	run_matrix report noref --quiet; expect_rc 0
	local g=noref/plots/ratios.gp
	! grep -q '^\$r[0-9_]* << EOD\|published\|^    \$[a-z]*[0-9_]* using 1:2 with lines' $g || die "$g: a reference without reference:"
	[ "$(grep -c ' dt ' $g)" -eq 1 ] || die "$g: dashes but the 1x line's: $(grep ' dt ' $g)"
	! awk -F'[][:]' '/^set yrange/ && $3 + 0 >= 50 { bad = 1 } END { exit !bad }' $g ||
		die "$g: the y range still reaches 50x: $(grep '^set yrange' $g)"
	cp -R "$REPO/tests/data/marks002" m2 || die "cannot copy tests/data/marks002"
	printf '      reference:\n        label: source\n        ratios:\n          - {client: go, ratio: 40}\n' >>m2/matrix.yaml
	run_matrix report m2 --quiet; expect_rc 0
	x=$(table_rows m2/plots/ratios.gp ratio | awk '$5 == "pair" && $6 == 1 { print $1 }')
	[ -n "$x" ] || die "m2's ratios.gp: no table of go's pair (cell 1)"
	refs_check m2/plots/ratios.gp source 40 "$x"
	grep -qx 'set key outside right top vertical Left reverse' m2/plots/ratios.gp ||
		die "m2's ratios.gp: no key for the reference's label"
	gp_fits m2
	renders_clean m2
}
