# A program receiver's own per-interval lines become timeline.csv (issue
# 13, `timeline:` under programs:): tests/e2e/programs/tl_receiver.py
# counts what our senders send and prints a line per interval, as source
# 001's receiver does, starting before its senders.

rx() { echo "$REPO/tests/e2e/programs/tl_receiver.py"; }

# The matrix in m.yaml must plan; a build whose stream cells take no
# program (before issue 13's stream part) skips.
plans() {
	command -v python3 >/dev/null || skip "python3 missing"
	run_matrix plan m.yaml
	if [ "$rc" -ne 0 ] && grep -q "programs take part in pingpong and echo cells" "$T/.err"; then
		skip "programs do not run in stream cells in this build"
	fi
	expect_rc 0
}

# timeline.csv's rows of cell $1 rep $2: start interval messages bytes covered
rows() {
	csvq out/timeline.csv cell rep interval_start_s interval_s messages bytes covered_s |
		awk -F'\t' -v c="$1" -v r="$2" '$1 == c && $2 == r { print $3, $4, $5, $6, $7 }'
}

# The rows of cell $1 rep $2 against the receiver's own log of that
# repetition: the same messages in all, bytes = messages x $3, one after
# the other, none empty before the first sender started.
check_rows() {
	local cell=$1 rep=$2 size=$3 log total
	log=out/logs/cell$cell-rep$rep-server.log
	[ -s "$log" ] || die "no log $log"
	total=$(tail -1 "$log" | sed -n 's/.*total=\([0-9]*\).*/\1/p')
	[ -n "$total" ] && [ "$total" -gt 0 ] || die "$log: no total in its last line: $(tail -1 "$log")"
	[ -n "$(rows "$cell" "$rep")" ] || die "no timeline rows for cell $cell rep $rep"
	rows "$cell" "$rep" | awk -v total="$total" -v size="$size" '
		{ n++; sum += $3 }
		$4 != $3 * size { print "bytes " $4 " of " $3 " messages"; bad = 1 }
		$5 != $2 { print "covered_s " $5 " is not interval_s " $2; bad = 1 }
		$3 == 0 && $1 + $2 <= 0 { print "an empty interval before the senders: " $0; bad = 1 }
		n > 1 && ($1 - end > 1e-6 || end - $1 > 1e-6) { print "a gap before " $0; bad = 1 }
		{ end = $1 + $2 }
		END { if (sum != total) { print "messages " sum ", the receiver counted " total; bad = 1 }
		      exit bad }' || die "cell $cell rep $rep: timeline rows (above) do not match $log"
}

t_receiver_lines_become_timeline() {
	mat m.yaml <<Y
name: prog_timeline
repeat: 2
warmup: 10
timeout: 10s
programs:
  rx:
    server: [$(rx), "{port}", "{size}", "{concurrency}", "0.1", s, "0.3"]
    timeline:
      regex: '^\[(?<time>[0-9.]+)s\] window=(?<messages>[0-9]+) msgs'
matrix:
  pattern: stream
  transport: tcp
  size: 64
  concurrency: 2
  count: 300000
  server: rx
Y
	plans
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	local rep log first last
	for rep in 1 2; do
		check_rows 1 $rep 64
		log=out/logs/cell1-rep$rep-server.log
		# it idled 0.3 s before it listened: three empty lines, not rows
		[ "$(grep -c '^\[0\.[123]s\] window=0 msgs' "$log")" -eq 3 ] ||
			die "$log lacks its three idle lines: $(head -4 "$log")"
		# from the first sender's spawn: the first interval holds it
		first=$(rows 1 $rep | head -1)
		awk -v s="${first%% *}" 'BEGIN { exit !(s > -0.11 && s <= 0.01) }' ||
			die "rep $rep: the first interval starts at ${first%% *} s"
		# the last line (once the senders closed, a shorter interval)
		# is as long as the program's clock says: a row if it has
		# messages, else dropped (it comes after every sender exited)
		last=$(tail -2 "$log" | sed 's/^\[\([0-9.]*\)s\] window=\([0-9]*\) .*/\1 \2/' |
			awk '{ t[NR] = $1; w = $2 } END { print (w > 0 ? t[2] - t[1] : 0.1) }')
		awk -v l="$(rows 1 $rep | tail -1 | cut -d' ' -f2)" -v want="$last" \
			'BEGIN { exit !(l - want < 1e-6 && want - l < 1e-6) }' ||
			die "rep $rep: last row $(rows 1 $rep | tail -1), last lines $(tail -2 "$log")"
	done
	# meta.csv says where this timeline came from
	csvq out/meta.csv key value | grep -q "^timeline_interval	auto: .*; programs rx: their own timeline: lines" ||
		die "meta.csv: $(csvq out/meta.csv key value | grep timeline_interval)"
	# the chart says where its time starts, a line per repetition
	grep -q "^set xlabel 'seconds since the first sender started'" out/plots/timeline.gp ||
		die "timeline.gp: $(grep xlabel out/plots/timeline.gp)"
	[ "$(grep -c "strcol('cell') eq '1'" out/plots/timeline.gp)" -eq 2 ] || die "not two lines"
	expect_no_leftovers
}

t_rates_by_index_and_one_line_per_implementation() {
	mat m.yaml <<Y
name: prog_timeline_impls
repeat: 1
warmup: 10
timeout: 10s
programs:
  by_time:
    server: [$(rx), "{port}", "{size}", "{concurrency}", "0.1", s]
    timeline:
      regex: '^\[(?<time>[0-9.]+)s\] window=(?<messages>[0-9]+) msgs'
  by_index:
    server: [$(rx), "{port}", "{size}", "{concurrency}", "0.1", index]
    timeline:
      regex: '^interval (?<index>[0-9]+): (?<rate>[0-9.]+) k/s'
      rate: k/s
      interval: 100ms
matrix:
  pattern: stream
  transport: tcp
  size: 100
  count: 200000
  server: [by_time, by_index, builtin]
Y
	plans
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	check_rows 1 1 100
	check_rows 2 1 100
	# (?<index>) intervals are interval: long; a rate x that length is a count
	rows 2 1 | awk '$2 != 0.1 { exit 1 }' || die "cell 2: $(rows 2 1)"
	# our own receiver's timeline is still its own, from the start signal
	[ -n "$(rows 3 1)" ] || die "no timeline rows of the builtin receiver"
	# one panel, the three receivers each in its own colour and named
	local gp=out/plots/timeline.gp
	grep -q "^set title 'cells 1, 2, 3: stream, transport tcp, size 100 B'" $gp ||
		die "timeline.gp: $(grep '^set title' $gp)"
	[ "$(grep -c "^set title" $gp)" -eq 1 ] || die "more than one panel"
	local name colours
	for name in by_time by_index builtin; do
		grep -q "title '$name'" $gp || die "no line named $name: $(grep -o "title '[^']*'" $gp)"
	done
	colours=$(grep -o "lc rgb '#[0-9a-f]*'" $gp | sort -u | wc -l)
	[ "$colours" -eq 3 ] || die "$colours colours for three receivers"
	# matrix report writes the same script from the folder
	cp $gp first.gp
	run_matrix report out --quiet; expect_rc 0
	cmp -s first.gp $gp || die "matrix report changed timeline.gp: $(diff first.gp $gp | head -5)"
	expect_no_leftovers
}

t_bad_timelines_are_plan_errors() {
	local cases=(
		"    server: [./rx]
    timeline:
      regex: '^(?:x)(?<time>[0-9]+) (?<messages>[0-9]+'|m.yaml:6:14: timeline: regex: does not compile: missing closing parenthesis at offset 40"
		"    server: [./rx]
    timeline:
      regex: '^(?<time>[0-9]+) (?<message>[0-9]+)'|m.yaml:6:35: timeline: regex: unknown capture name 'message'; did you mean 'messages'?"
		"    client: [./tx]
    timeline:
      regex: '^(?<time>[0-9]+) (?<messages>[0-9]+)'|m.yaml:5:5: programs: rx: timeline: reads the server's output, and rx has no server:"
		"    server: [./rx]
    timeline:
      regex: '^(?<index>[0-9]+) (?<messages>[0-9]+)'|m.yaml:5:5: timeline: (?<index>...) needs interval:"
		"    server: [./rx]
    timeline:
      regex: '^(?<time>[0-9]+) (?<rate>[0-9]+)'
      rate: msgs/s|m.yaml:7:13: timeline: rate: unknown unit 'msgs/s' (known: /s, k/s, M/s)"
	)
	local c want
	for c in "${cases[@]}"; do
		want=${c##*|}
		printf 'name: bad\nprograms:\n  rx:\n%s\nmatrix:\n  pattern: stream\n' "${c%%|*}" >m.yaml
		run_matrix plan m.yaml; expect_rc 2
		[ "$(head -1 "$T/.err" | cut -c1-${#want})" = "$want" ] ||
			die "got:    $(head -1 "$T/.err")
wanted: $want"
	done
}

# timeline: is a stream receiver's: a matrix that runs the program as a
# server of pingpong cells only is refused at the key; one stream cell
# beside them is enough (a matrix may sweep patterns).
t_timeline_outside_stream_cells_refused() {
	cat >m.yaml <<'Y'
name: t
programs:
  rx:
    server: [sh, -c, 'sleep 1', "{port}"]
    timeline: {regex: '^(?<time>\d+) (?<messages>\d+)$'}
matrix:
  transport: tcp
  pattern: [pingpong, echo]
  server: rx
Y
	run_matrix plan m.yaml; expect_rc 2
	grep -q "^m.yaml:5:5: timeline: program rx's timeline is its server's per-interval lines in stream cells, and no cell runs it as the server of a stream" "$T/.err" ||
		die "got: $(cat "$T/.err")"
	sed -i 's/pattern: \[pingpong, echo\]/pattern: [pingpong, stream]/' m.yaml
	run_matrix plan m.yaml; expect_rc 0
}

t_lines_that_never_match_leave_no_rows() {
	mat m.yaml <<Y
name: prog_timeline_none
repeat: 1
warmup: 10
timeout: 10s
programs:
  rx:
    server: [$(rx), "{port}", "{size}", "{concurrency}", "0.1", s, "0.25"]
    timeline:
      regex: '^\[(?<time>[0-9.]+)s\] frames=(?<messages>[0-9]+)'
matrix:
  pattern: stream
  transport: tcp
  size: 64
  count: 2000
  server: rx
Y
	plans
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	grep -q 'window=' out/logs/cell1-rep1-server.log || die "the receiver printed no lines"
	[ "$(wc -l <out/timeline.csv)" -eq 1 ] || die "timeline rows: $(cat out/timeline.csv)"
	# nothing to draw is no chart (gnuplot would stop the run)
	[ ! -e out/plots/timeline.gp ] || die "a timeline chart of nothing"
	expect_no_leftovers
}
