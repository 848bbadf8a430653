# plots/timeline.gp as a reader needs it, from hand-made run folders of
# stream cells (matrix.yaml, meta.csv, results.csv, timeline.csv; no
# run): every stream cell drawn however many there are, no two cells of
# a panel alike past the palette's eight colours, and a repetition's last
# interval drawn at its messages over the time it covered, or not at all
# when that is a sliver of the interval (docs/measuring.md).

# stream_folder DIR KIND: the folder, each repetition 1000 messages in
# each of three 0.1 s intervals (10,000 msg/s) and a last interval:
#   sizes    14 cells (size 10 to 140), one repetition, ending in 500
#            messages over 0.05 s
#   servers  10 cells of one panel (server builtin, p1 ... p9, programs),
#            two repetitions each, ending as sizes
#   partial  one cell, two repetitions: rep 1 ends in 300 messages over
#            100 us (3M msg/s, the spike of a drained backlog), rep 2 in
#            250 over 0.025 s (10,000 msg/s: a quarter, drawn)
stream_folder() {
	python3 - "$@" <<'PY' || die "cannot make the folder $1"
import os, sys
d, kind = sys.argv[1], sys.argv[2]
os.makedirs(d)
res = ["cell,pattern,transport,server,client,size,count,rep,status,error,msgs_per_s,"
       "mib_per_s,cpu_us_per_msg,sent_msgs_per_s,cpu_us_per_rtt,measured_by,printed_metrics\n"]
tl = ["cell,rep,interval_start_s,interval_s,messages,bytes,covered_s\n"]
def rows(cell, server, size, last):
    for rep, (m, cov) in enumerate(last, 1):
        mb = "worker" if server == "builtin" else "receiver=process;senders=worker"
        res.append("%d,stream,unix,%s,builtin,%d,1000,%d,ok,,10000,1,2,10000,,%s,\n"
                   % (cell, server, size, rep, mb))
        for i in range(3):
            tl.append("%d,%d,%g,0.1,1000,%d,0.1\n" % (cell, rep, i / 10, 1000 * size))
        tl.append("%d,%d,0.3,0.1,%d,%d,%g\n" % (cell, rep, m, m * size, cov))
head = "name: %s\nrepeat: %d\n"
body = "matrix:\n  pattern: stream\n  transport: unix\n%s  size: %s\n  count: 1000\n"
if kind == "sizes":
    sizes = [10 * (k + 1) for k in range(14)]
    y = head % ("many", 1) + body % ("", "[%s]" % ", ".join(map(str, sizes)))
    for k, s in enumerate(sizes):
        rows(k + 1, "builtin", s, [(500, 0.05)])
elif kind == "servers":
    names = ["builtin"] + ["p%d" % k for k in range(1, 10)]
    y = head % ("servers", 2) + "programs:\n" + "".join(
        '  %s:\n    server: [/nonexistent/%s, "{port}"]\n' % (n, n) for n in names[1:]) + \
        body % ("  server: [%s]\n" % ", ".join(names), "100")
    for k, n in enumerate(names):
        rows(k + 1, n, 100, [(500, 0.05), (500, 0.05)])
else:
    y = head % ("partial", 2) + body % ("", "100")
    rows(1, "builtin", 100, [(300, 0.0001), (250, 0.025)])
if kind != "servers":	# no programs: no server and client columns
    res = [l.replace(",server,client,", ",", 1).replace(",builtin,builtin,", ",", 1)
           for l in res]
open(d + "/matrix.yaml", "w").write(y)
open(d + "/results.csv", "w").write("".join(res))
open(d + "/timeline.csv", "w").write("".join(tl))
open(d + "/meta.csv", "w").write("key,value\nhost,testhost\nstatus,ok\n"
                                  "command_line,matrix run m.yaml\n")
PY
}

# DIR's timeline.gp drawn by gnuplot with nothing on stderr (and none in
# the report's plots/gnuplot.log)
timeline_renders() {
	local out
	command -v gnuplot >/dev/null || return 0
	[ ! -s "$1/plots/gnuplot.log" ] || die "gnuplot.log: $(head -5 "$1/plots/gnuplot.log")"
	out=$(cd "$1" && gnuplot -c plots/timeline.gp timeline.csv "$T/x.svg" 2>&1) ||
		die "gnuplot failed on $1/plots/timeline.gp: $out"
	[ -z "$out" ] || die "gnuplot on $1/plots/timeline.gp: $out"
}

# 14 stream cells: 14 panels, each cell's line there (the chart stopped
# at 12 and said so only in its title)
t_timeline_draws_every_stream_cell() {
	stream_folder many sizes
	run_matrix report many --quiet; expect_rc 0
	local g=many/plots/timeline.gp cells
	[ "$(grep -c '^set title ' $g)" = 14 ] || die "$g: $(grep -c '^set title ' $g) panels, not 14"
	cells=$(grep -o "strcol('cell') eq '[0-9]*'" $g | grep -o '[0-9]*' | sort -n | tr '\n' ' ')
	[ "$cells" = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 " ] || die "$g draws cells $cells"
	grep -q "^set title 'cell 14: stream, transport unix, size 140 B" $g ||
		die "$g: no panel of cell 14: $(grep '^set title' $g | tail -2)"
	! grep -q 'first 12' $g || die "$g still says it draws the first 12 only"
	timeline_renders many
}

# ten cells in one panel (server builtin, p1 ... p9): ten looks, colour
# and point type, none alike (the palette's eight colours came round
# again for p8 and p9, in the same dash); each cell's repetitions share
# its look, each with a dash of its own
t_timeline_cells_past_eight_look_apart() {
	stream_folder sv servers
	run_matrix report sv --quiet; expect_rc 0
	python3 - sv/plots/timeline.gp <<'PY' || die "sv/plots/timeline.gp: looks (above)"
import re, sys
cells, bad = {}, []
for l in open(sys.argv[1]):
    if not l.startswith("    ARG1 using"):
        continue
    c, rep = re.search(r"strcol\('cell'\) eq '(\d+)' && strcol\('rep'\) eq '(\d+)'", l).groups()
    lc = re.search(r"lc rgb '(#[0-9a-f]{6})'", l).group(1)
    pt = re.search(r" pt (\d+) ", l)
    dt = re.search(r" dt (\d+) ", l).group(1)
    cells.setdefault(c, []).append(((lc, pt.group(1) if pt else None), dt))
if sorted(cells, key=int) != [str(k) for k in range(1, 11)]:
    bad.append("cells %s, not 1 to 10" % sorted(cells, key=int))
for c, reps in cells.items():
    if len({look for look, _ in reps}) != 1:
        bad.append("cell %s: its repetitions look apart: %s" % (c, reps))
    if len({dt for _, dt in reps}) != len(reps):
        bad.append("cell %s: its repetitions share a dash" % c)
first = {c: reps[0] for c, reps in cells.items()}
if len(set(first.values())) != len(first):
    bad.append("cells look alike: %s" % sorted(first.items(), key=lambda x: int(x[0])))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	timeline_renders sv
}

# A repetition's last interval: 300 messages over 100 us (a sliver: 3M
# msg/s against the stream's 10,000) is not drawn, nor does it stretch
# the y axis; 250 over 25 ms (a quarter) is drawn at 10,000 msg/s, its
# messages over the time it covered, not over the whole interval (2,500).
# What gnuplot plots, from its `set table`.
t_timeline_last_partial_interval_is_not_a_spike() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	stream_folder p partial
	run_matrix report p --quiet; expect_rc 0
	grep -q '^set yrange \[0:10800\]$' p/plots/timeline.gp ||
		die "timeline.gp's y axis: $(grep '^set yrange' p/plots/timeline.gp) (want 0 to 10,000 x 1.08)"
	sed 's/^set output ARG2$/set output ARG2\nset table "tbl.txt"/' p/plots/timeline.gp >p/tbl.gp
	(cd p && gnuplot -c tbl.gp timeline.csv "$T/x.svg") || die "gnuplot failed on the table"
	python3 - p/tbl.txt <<'PY' || die "what timeline.gp draws (above)"
import sys
curves, bad = [], []
for l in open(sys.argv[1]):
    if l.startswith("# Curve"):
        curves.append([])
    elif l.strip() and not l.startswith("#") and curves:
        x, y = l.split()[:2]
        if x != "NaN":
            curves[-1].append((float(x), y))
curves = [c for c in curves if c]	# a curve's header may come twice
if len(curves) != 2:
    bad.append("%d curves, not 2: %s" % (len(curves), curves))
else:
    want = [[(0, "10000"), (0.1, "10000"), (0.2, "10000"), (0.3, "NaN")],
            [(0, "10000"), (0.1, "10000"), (0.2, "10000"), (0.3, "10000")]]
    for k, (got, w) in enumerate(zip(curves, want)):
        if got != w:
            bad.append("rep %d: drawn %s, not %s" % (k + 1, got, w))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	timeline_renders p
}
