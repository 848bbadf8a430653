# Who measured a figure, marked in the tables and charts: `ʷ` for a
# whole-process figure (a program timed by the runner from its spawn to its
# exit, measured_by process), `ᵖ` for one a program printed, nothing for
# our own workers'.  Hand-made run folders (tests/data/marks*: the shapes of
# source experiments 002 and 000, and stream rows naming both sides) with
# known figures, then a real run with a Python client over tcp.  The
# tables' rows are written out whole, so a missing mark or a changed layout
# (rows, columns, the ratio column) fails.

GOLDEN_PY() { python3 "$REPO/tests/e2e/golden_expect.py" "$@"; }

WHOLE_KEY='`ʷ`: whole-process figures, in some or all of the cell'"'"'s successful repetitions: the runner timed a program from outside, from its spawn to its exit (its CPU: the whole process'"'"'s), so an interpreter'"'"'s or a JVM'"'"'s start-up, loading and connection set-up are inside them'

# a copy of tests/data/NAME in out, reported
marks_report() {
	rm -rf out && cp -R "$REPO/tests/data/$1" out || die "cannot copy tests/data/$1"
	shift
	run_matrix report out --quiet "$@"; expect_rc 0
	[ -s out/summary.md ] || die "matrix report wrote no summary.md"
}

# the key to ʷ, once, right after the key to ᵖ when the page has one
expect_whole_key() {
	[ "$(grep -cF -- "$WHOLE_KEY" out/summary.md)" -eq 1 ] ||
		die "summary.md does not explain ʷ once: $(grep -n 'ʷ`' out/summary.md)"
	if grep -q '^`ᵖ`' out/summary.md; then
		[ "$(grep -n '^`ʷ`' out/summary.md | cut -d: -f1)" -eq \
		  "$(( $(grep -n '^`ᵖ`' out/summary.md | cut -d: -f1) + 2 ))" ] ||
			die "the key to ʷ is not under the key to ᵖ"
	fi
}

# plot_line FILE TITLE: the plot line of the series titled TITLE (the first)
plot_line() {
	grep -m1 -F "title '$2'" "$1" || die "$1: no series titled '$2'"
}

# Source 002's table: clients go, java and builtin as rows, unix and tcp
# msg/s as columns, then the AF_UNIX/AF_INET ratio with its interval; go's
# rates are whole-process, java's too (it printed its mean round trip
# only), builtin's our worker's.
t_marks_002_client_by_transport_table() {
	marks_report marks002
	GOLDEN_PY md out/summary.md <<'MD' || die "summary.md tables differ from the hand-written rows (above)"
## echo
### messages per second
| client | unix | tcp | AF_UNIX/AF_INET |
| go | 110k (100k–120k) msg/s ʷ | 55.0k (50.0k–60.0k) msg/s ʷ | 2.00× (1.67–2.40, ≥56%) ʷ |
| java | 44.0k (40.0k–48.0k) msg/s ʷ | 22.0k (20.0k–24.0k) msg/s ʷ | 2.00× (1.67–2.40, ≥56%) ʷ |
| builtin | 210k (200k–220k) msg/s | 105k (100k–110k) msg/s | 2.00× (1.82–2.20, ≥56%) |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
### round-trip time, mean
| client | unix | tcp |
| go | - | - |
| java | 25.0 (23.0–27.0) µs ᵖ | 50.0 (46.0–54.0) µs ᵖ |
| builtin | 5.50 (5.00–6.00) µs | 10.5 (10.0–11.0) µs |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
### CPU time per round trip (all workers)
| client | unix | tcp |
| go | 62.0 (60.0–64.0) µs/rtt ʷ | 72.0 (70.0–74.0) µs/rtt ʷ |
| java | 82.0 (80.0–84.0) µs/rtt ʷ | 92.0 (90.0–94.0) µs/rtt ʷ |
| builtin | 8.50 (8.00–9.00) µs/rtt | 12.5 (12.0–13.0) µs/rtt |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
MD
	expect_whole_key
	# the headline, on the page and on the console, says which ratios are of
	# whole-process figures
	local want='unix delivered 2.00× (1.67–2.40, ≥56%) the messages per second of tcp: echo, 10B, client go; whole-process figures (ʷ)
unix delivered 2.00× (1.67–2.40, ≥56%) the messages per second of tcp: echo, 10B, client java; whole-process figures (ʷ)
unix delivered 2.00× (1.82–2.20, ≥56%) the messages per second of tcp: echo, 10B, client builtin'
	[ "$(sed -n '/^## Headline$/,/^|/s/^- //p' out/summary.md)" = "$want" ] ||
		die "summary.md's headline: $(sed -n '/^## Headline$/,/^|/p' out/summary.md)"
	run_matrix report out; expect_rc 0
	[ "$(sed -n '/^matrix: headline:$/,$s/^  //p' "$T/.out")" = "$want" ] ||
		die "the console's headline (report's stdout): $(cat "$T/.out")"
	# report.html: the same cells, and the key
	grep -qF '<td class="num">110k (100k–120k) msg/s ʷ</td>' out/report.html ||
		die "report.html lacks go's marked rate"
	grep -qF '<td class="num">210k (200k–220k) msg/s</td>' out/report.html ||
		die "report.html lacks builtin's unmarked rate"
	grep -qF '<p><code>ʷ</code>: whole-process figures' out/report.html ||
		die "report.html does not explain ʷ"
	# charts: the programs' bars hollow and marked, ours filled, and a
	# second title line saying what open means
	local g=out/plots/throughput.gp
	plot_line $g 'go unix ʷ' | grep -q 'with boxerrorbars fs empty ' || die "$g: go unix is not hollow"
	plot_line $g 'java tcp ʷ' | grep -q 'with boxerrorbars fs empty ' || die "$g: java tcp is not hollow"
	plot_line $g 'builtin unix' | grep -q 'fs empty' && die "$g: builtin unix is hollow"
	grep -q "^set xtics ('go unix ʷ' 1, 'go tcp ʷ' 2, 'java unix ʷ' 3, 'java tcp ʷ' 4, 'builtin unix' 5, 'builtin tcp' 6)$" $g ||
		die "$g: the bars' labels: $(grep '^set xtics' $g)"
	grep -q "^set multiplot .*'\.\"\\\\n\"\.'open: whole-process figures (ʷ), a program timed from outside, spawn to exit" $g ||
		die "$g: no note on open series in the title: $(grep '^set multiplot' $g)"
	# the ratio chart: go's and java's points open (circle 6, square 4), builtin's filled
	g=out/plots/ratios.gp
	plot_line $g 'AF_UNIX/AF_INET go ʷ' | grep -q ' pt 6 ' || die "$g: go's ratio is not an open circle"
	plot_line $g 'AF_UNIX/AF_INET java ʷ' | grep -q ' pt 4 ' || die "$g: java's ratio is not an open square"
	plot_line $g 'AF_UNIX/AF_INET builtin' | grep -q ' pt 9 ' || die "$g: builtin's ratio is not a filled triangle"
	return 0
}

# Source 000's table: servers as rows, clients as columns, the excluded
# pairings "not run"; the program clients printed their mean round trip
# (ᵖ), their rates and CPU are whole-process (ʷ).
t_marks_000_server_by_client_table() {
	marks_report marks000
	GOLDEN_PY md out/summary.md <<'MD' || die "summary.md tables differ from the hand-written rows (above)"
## pingpong
### messages per second
| server | client builtin | client gc | client gccgo |
| builtin | 31.0k (30.0k–32.0k) msg/s | not run | not run |
| gc | not run | 8.50k (8.00k–9.00k) msg/s ʷ | 7.50k (7.00k–8.00k) msg/s ʷ |
| gccgo | not run | 6.50k (6.00k–7.00k) msg/s ʷ | 5.50k (5.00k–6.00k) msg/s ʷ |
### round-trip time, mean
| server | client builtin | client gc | client gccgo |
| builtin | 33.0 (32.0–34.0) µs | not run | not run |
| gc | not run | 52.0 (50.0–54.0) µs ᵖ | 62.0 (60.0–64.0) µs ᵖ |
| gccgo | not run | 72.0 (70.0–74.0) µs ᵖ | 82.0 (80.0–84.0) µs ᵖ |
### round-trip time, median (p50)
| server | client builtin | client gc | client gccgo |
| builtin | 32.0 (31.0–33.0) µs | not run | not run |
| gc | not run | - | - |
| gccgo | not run | - | - |
### CPU time per round trip (all workers)
| server | client builtin | client gc | client gccgo |
| builtin | 11.0 (10.0–12.0) µs/rtt | not run | not run |
| gc | not run | 110 (100–120) µs/rtt ʷ | 130 (120–140) µs/rtt ʷ |
| gccgo | not run | 150 (140–160) µs/rtt ʷ | 170 (160–180) µs/rtt ʷ |
MD
	expect_whole_key
	return 0
}

# Stream rows name both sides (receiver=X;senders=Y): the receiver's
# figures are marked by X (ʷ for our receiver with program senders: its
# window opens at their spawn), the senders' by Y, the CPU ʷ when either side is
# a program; the JSON export keeps measured_by as results.csv has it.
t_marks_stream_sides() {
	marks_report marks_stream --export-json out.json
	GOLDEN_PY md out/summary.md <<'MD' || die "summary.md tables differ from the hand-written rows (above)"
## stream
### messages per second
| server | client builtin | client push |
| builtin | 410k (400k–420k) msg/s | 210k (200k–220k) msg/s ʷ |
| pull | 160k (150k–170k) msg/s ʷ | 260k (250k–270k) msg/s ᵖ |
### MiB per second
| server | client builtin | client push |
| builtin | 39.1 (38.1–40.1) MiB/s, 328 Mbit/s | 20.0 (19.0–21.0) MiB/s, 168 Mbit/s ʷ |
| pull | 15.3 (14.3–16.3) MiB/s, 128 Mbit/s ʷ | 24.8 (23.8–25.8) MiB/s, 208 Mbit/s ᵖ |
### messages per second at the senders
| server | client builtin | client push |
| builtin | 310k (300k–320k) msg/s | 110k (100k–120k) msg/s ʷ |
| pull | 360k (350k–370k) msg/s | 95.0k (90.0k–100.0k) msg/s ʷ |
### CPU time per message, each way (all workers)
| server | client builtin | client push |
| builtin | 2.10 (2.00–2.20) µs/msg | 4.10 (4.00–4.20) µs/msg ʷ |
| pull | 5.10 (5.00–5.20) µs/msg ʷ | 6.10 (6.00–6.20) µs/msg ʷ |
MD
	expect_whole_key
	grep -q '^`ᵖ`' out/summary.md || die "summary.md does not explain ᵖ"
	python3 - out.json <<'PY' || die "the JSON export's measured_by (above)"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
got = [c["measured_by"] for c in sorted(cells, key=lambda c: c["cell"])]
want = ["worker", "receiver=worker;senders=process", "receiver=process;senders=worker",
        "receiver=printed;senders=process"]
if got != want:
    sys.exit("measured_by %s, expected %s" % (got, want))
PY
	return 0
}

# Across two hosts (meta.csv's server_host and client_host differ) a
# stream's msgs_per_s and mib_per_s are upper bounds by construction (the
# window is the longer of two same-host ones): ᵘ after them and after the
# ratios made of them, in summary.md, report.html, the headline and the
# charts' keys, explained once under the header, and "bound": "upper" in
# the JSON; a round trip's rate (the clients' own) and the senders' rate
# are not.  The same folder run on one host has no mark at all.
UPPER_KEY='`ᵘ`: an upper bound: the server and the clients ran on two hosts, whose clocks cannot be subtracted, so a stream'"'"'s window is the longer of the senders'"'"' own and the receiver'"'"'s own, both inside the true one, and its msgs_per_s and mib_per_s can only read high'
t_marks_cross_host_stream_upper_bounds() {
	marks_report marks_hosts --export-json out.json
	GOLDEN_PY md out/summary.md <<'MD' || die "summary.md tables differ from the hand-written rows (above)"
## pingpong
### messages per second
|  | tcp | udp | udp/tcp |
| pingpong | 21.0k (20.0k–22.0k) msg/s | 26.0k (25.0k–27.0k) msg/s | 1.24× (1.14–1.35, ≥56%) |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
## stream
### messages per second
|  | tcp | udp | udp/tcp |
| stream | 410k (400k–420k) msg/s ᵘ | 210k (200k–220k) msg/s ᵘ | 0.51× (0.48–0.55, ≥56%) ᵘ |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
### MiB per second
|  | tcp | udp |
| stream | 25.0 (24.4–25.7) MiB/s, 210 Mbit/s ᵘ | 12.8 (12.2–13.5) MiB/s, 108 Mbit/s ᵘ |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
### messages per second at the senders
|  | tcp | udp |
| stream | 308k (300k–315k) msg/s | 158k (150k–165k) msg/s |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
MD
	[ "$(grep -cF -- "$UPPER_KEY" out/summary.md)" -eq 1 ] ||
		die "summary.md does not explain ᵘ once: $(grep -n 'ᵘ`' out/summary.md)"
	local want='udp delivered 1.24× (1.14–1.35, ≥56%) the messages per second of tcp: pingpong, 64B
tcp delivered 1.95× (1.82–2.10, ≥56%) the messages per second of udp: stream, 64B; upper bounds across hosts (ᵘ)'
	[ "$(sed -n '/^## Headline$/,/^|/s/^- //p' out/summary.md)" = "$want" ] ||
		die "summary.md's headline: $(sed -n '/^## Headline$/,/^|/p' out/summary.md)"
	python3 - out.json <<'PY' || die "the JSON export's bounds (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
got = {c["cell"]: sorted(m for m, s in c["stats"].items() if s["bound"] is not None)
       for c in doc["cells"]}
want = {1: [], 2: [], 3: ["mib_per_s", "msgs_per_s"], 4: ["mib_per_s", "msgs_per_s"]}
if got != want:
    sys.exit("cells' bounds %s, expected %s" % (got, want))
if any(s["bound"] not in (None, "upper") for c in doc["cells"] for s in c["stats"].values()):
    sys.exit("a bound other than upper")
pairs = [(p["num_cell"], p["num_bound"], p["den_bound"]) for p in doc["ratios"][0]["cells"]]
if pairs != [(2, None, None), (4, "upper", "upper")]:
    sys.exit("pairs' bounds %s" % pairs)
PY
	grep -qF '<td class="num">410k (400k–420k) msg/s ᵘ</td>' out/report.html ||
		die "report.html lacks the marked stream rate"
	grep -qF '<td class="num">21.0k (20.0k–22.0k) msg/s</td>' out/report.html ||
		die "report.html lacks the unmarked round-trip rate"
	grep -qF '<p><code>ᵘ</code>: an upper bound' out/report.html || die "report.html does not explain ᵘ"
	# the charts: ᵘ after the series' names in the stream panels' keys only,
	# and a title line saying what it means
	local g=out/plots/throughput.gp
	[ "$(grep -o "title '[a-z]* *ᵘ*'" $g | tr '\n' ,)" = "title 'tcp',title 'udp',title 'tcp ᵘ',title 'udp ᵘ',title 'tcp',title 'udp',title 'tcp ᵘ',title 'udp ᵘ'," ] ||
		die "$g: the keys: $(grep -o "title '[^']*'" $g)"
	grep -q "^set multiplot .*'\.\"\\\\n\"\.'ᵘ: upper bounds, streams across two hosts" $g ||
		die "$g: no note on ᵘ in the title: $(grep '^set multiplot' $g)"
	grep -qF "title 'udp/tcp ᵘ'" out/plots/ratios.gp || die "ratios.gp: the stream ratio is not marked"
	# the same figures from one host, both roles on the server's (one
	# clock), or a run without hosts: (no such keys): nothing marked
	local how
	for how in 's|^client_host,local$|client_host,ssh://bench@server-host:2222|' '/^server_\|^client_/d'; do
		rm -rf one && cp -R "$REPO/tests/data/marks_hosts" one || die "cannot copy marks_hosts"
		sed -i "$how" one/meta.csv
		cmp -s one/meta.csv "$REPO/tests/data/marks_hosts/meta.csv" && die "sed '$how' changed nothing"
		run_matrix report one --quiet --export-json one.json; expect_rc 0
		! grep -q 'ᵘ' one/summary.md one/report.html one/plots/*.gp ||
			die "one host ($how), yet marked ᵘ: $(grep -l 'ᵘ' one/summary.md one/report.html one/plots/*.gp)"
		python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(any(s["bound"] is not None for c in doc["cells"] for s in c["stats"].values()) or
         any(p["num_bound"] or p["den_bound"] for r in doc["ratios"] for p in r["cells"]))' one.json ||
			die "one host ($how), yet a bound in the JSON"
	done
	return 0
}

# A cell whose repetitions differ (one whole-process of three) is marked,
# and its measured_by is "mixed"; a folder from before measured_by (golden,
# golden7) reads as before, with no mark anywhere.
t_marks_mixed_cell_and_older_folders() {
	rm -rf mixed && cp -R "$REPO/tests/data/marks002" mixed || die "cannot copy marks002"
	# builtin unix's second repetition (line 15) becomes a program client's
	sed -i '15s/,worker,$/,process,/' mixed/results.csv
	grep -q '^5,echo,builtin,unix,10,500000,2,ok,.*,process,$' mixed/results.csv || die "the edit missed"
	run_matrix report mixed --quiet --export-json mixed.json; expect_rc 0
	grep -qF '| builtin | 210k (200k–220k) msg/s ʷ | 105k (100k–110k) msg/s | 2.00× (1.82–2.20, ≥56%) ʷ |' mixed/summary.md ||
		die "a cell with one whole-process repetition is not marked: $(grep '^| builtin' mixed/summary.md)"
	grep -qF '| builtin | 5.50 (5.00–6.00) µs | 10.5 (10.0–11.0) µs |' mixed/summary.md ||
		die "a round trip marked as whole-process: $(grep '^| builtin' mixed/summary.md)"
	python3 -c 'import json, sys
c = [c for c in json.load(open(sys.argv[1]))["cells"] if c["cell"] == 5][0]
sys.exit(c["measured_by"] != "mixed" and "cell 5 measured_by " + str(c["measured_by"]))' mixed.json ||
		die "the JSON export's measured_by of a mixed cell"
	local d
	for d in golden golden7; do
		rm -rf out && cp -R "$REPO/tests/data/$d" out || die "cannot copy tests/data/$d"
		run_matrix report out --quiet; expect_rc 0
		! grep -q 'ʷ' out/summary.md out/report.html out/plots/*.gp || die "$d: a mark without measured_by"
	done
	return 0
}

# A real run: the same Python echo client timed from outside (whole: no
# result:) and by itself (own: its rate and mean round trip printed),
# beside our client, over tcp at two sizes.
t_marks_real_program_client_over_tcp() {
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<Y
name: marks_real
repeat: 2
warmup: 5
timeout: 20s
programs:
  whole:
    client: [$REPO/tests/e2e/programs/marks_echo_client.py, "{endpoint}", "{size}", "{count}"]
  own:
    client: [$REPO/tests/e2e/programs/marks_echo_client.py, "{endpoint}", "{size}", "{count}"]
    result:
      msgs_per_s: {regex: 'own rate ([0-9.]+) msg/s', unit: /s}
      rtt_mean_us: {regex: 'avg rtt ([0-9.]+) us', unit: us}
matrix:
  pattern: echo
  transport: tcp
  client: [whole, own, builtin]
  size: [16, 64]
  count: 200
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	[ "$(csvq $r client measured_by | sort -u | tr '\t\n' ': ')" = "builtin:worker own:printed whole:process " ] ||
		die "measured_by: $(csvq $r client measured_by | sort -u)"
	# every figure of the table, as the rows give it: whole's rate ʷ,
	# own's ᵖ (not ʷ: it printed it), builtin's unmarked
	local rows
	rows=$(sed -n '/^### messages per second$/,/^Intervals/p' out/summary.md | grep '^| [0-9]')
	[ "$(wc -l <<<"$rows")" -eq 2 ] || die "the rate table's rows: $rows"
	awk -F' \\| ' '{ if ($0 !~ /^\| [0-9]+B \| /) exit 1
		if ($2 !~ /msg\/s ʷ( (~|‡))*$/ || $3 !~ /msg\/s ᵖ( (~|‡))*$/ || $3 ~ /ʷ/ || $4 ~ /ʷ|ᵖ/) exit 1 }' <<<"$rows" ||
		die "the rate table's marks: $rows"
	grep -q '^| size | client whole | client own | client builtin |$' out/summary.md ||
		die "the rate table's header: $(grep -m1 '^| size' out/summary.md)"
	# the CPU of both program clients is their whole process's
	sed -n '/^### CPU time per round trip/,/^Intervals/p' out/summary.md | grep '^| [0-9]' |
		awk -F' \\| ' '$2 !~ /ʷ/ || $3 !~ /ʷ/ || $4 ~ /ʷ/ { bad = 1 } END { exit bad }' ||
		die "the CPU table's marks: $(grep -A6 '^### CPU' out/summary.md)"
	expect_whole_key
	# the chart: sizes as categories, whole's points open, own's filled
	# in the msgs/s row (printed) but open in the MiB/s row (whole-process)
	local g=out/plots/throughput.gp
	grep '^    \$d0_0_' $g | grep -F "title 'whole ʷ'" | grep -q ' pt 6 ' || die "$g: whole's msgs/s points are not open"
	grep '^    \$d0_0_' $g | grep -F "title 'own'" | grep -q ' pt 7 ' || die "$g: own's msgs/s points are not filled"
	grep '^    \$d1_0_' $g | grep -F "title 'own ʷ'" | grep -q ' pt 6 ' || die "$g: own's MiB/s points are not open"
	grep '^    \$d0_0_' $g | grep -F "title 'builtin'" | grep -q ' pt 7 ' || die "$g: builtin's points are not filled"
	expect_no_leftovers
	return 0
}
