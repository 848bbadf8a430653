# Fixed-rate latency (`rate:`) and `record: totals` (issue 14): a paced
# cell keeps its schedule, its latencies count from that schedule (so a
# stalled server shows), paced streams send what they should, and a
# totals cell has no percentiles, no hist.csv or timeline.csv rows, and
# reports that still build.

# csvq's columns of the rows whose column COL is VALUE
rows_where() {
	local csv=$1 col=$2 val=$3; shift 3
	csvq "$csv" "$col" "$@" | awk -F'\t' -v v="$val" '$1 == v { sub(/^[^\t]*\t/, ""); print }'
}

# 200 requests at 2k/s are due over 99.5 ms: the window cannot be shorter
# (a lower bound, however busy the machine), whether serial, pipelined or
# windowed (zmq, mq), and unpaced the same cells take a few ms.  A stream
# sender paced at 4k/s sends its 400 messages over 99.75 ms, over udp too
# (paced, not a burst: nothing lost here).  By duration, only requests due
# inside the window go: 200 ms at 1k/s is 200 at most.
t_paced_cells_keep_their_schedule() {
	mat m.yaml <<'Y'
name: paced
repeat: 1
warmup: 20
timeout: 20s
matrix:
  pattern: [pingpong, echo]
  transport: [tcp, unix, zmq, mq]
  size: 16
  count: 200
  rate: 2k/s
  inflight: [1, 4]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv messages 200
	expect_all out/results.csv rate 2000
	local el
	while IFS= read -r el; do
		le 0.09 "$el" || die "a paced cell of 200 requests at 2k/s took $el s (< 0.09 s)"
	done < <(csvq out/results.csv elapsed_s)
	mat s.yaml <<'Y'
name: pacedstream
repeat: 1
warmup: 20
timeout: 20s
matrix:
  pattern: stream
  transport: [tcp, unix, udp]
  size: 64
  count: 400
  rate: 4k/s
  allow_loss: true
Y
	run_matrix run s.yaml -o sout --quiet; expect_rc 0
	expect_all sout/results.csv status ok
	expect_all sout/results.csv sent_messages 400
	expect_all sout/results.csv messages 400
	while IFS= read -r el; do
		le 0.09 "$el" || die "a paced stream of 400 messages at 4k/s took $el s (< 0.09 s)"
	done < <(csvq sout/results.csv elapsed_s)
	# poll: busy: the wait for the schedule is a spin, the schedule the same
	mat b.yaml <<'Y'
name: pacedbusy
repeat: 1
warmup: 20
timeout: 20s
matrix:
  pattern: [pingpong, stream]
  transport: unix
  size: 16
  count: 200
  rate: 2k/s
  poll: busy
Y
	run_matrix run b.yaml -o bout --quiet; expect_rc 0
	expect_all bout/results.csv status ok
	expect_all bout/results.csv sent_messages 200
	while IFS= read -r el; do
		le 0.09 "$el" || die "a busy paced cell of 200 at 2k/s took $el s (< 0.09 s)"
	done < <(csvq bout/results.csv elapsed_s)
	mat d.yaml <<'Y'
name: pacedduration
repeat: 1
warmup: 20
matrix:
  pattern: [pingpong, stream]
  transport: unix
  size: 16
  duration: 200ms
  rate: 1k/s
Y
	run_matrix run d.yaml -o dout --quiet; expect_rc 0
	expect_all dout/results.csv status ok
	local n
	while IFS= read -r n; do
		le "$n" 200 && le 100 "$n" || die "200 ms at 1k/s sent $n messages (want 100 to 200)"
	done < <(csvq dout/results.csv sent_messages)
	expect_no_leftovers
}

# A server that spins 2 ms on each request serves 500 a second; at 2k/s
# the requests queue behind it, so request i (due at i * 0.5 ms) is
# answered near (i + 1) * 2 ms: 100 requests make the last ones wait
# ~150 ms from their schedule, the middle one ~50 ms.  Timed from their
# own send (coordinated omission) every round trip would be ~2 ms, as the
# unpaced cell's are; the bounds leave a wide margin: p99 above 50 ms,
# p50 three times the unpaced p50 (a median: one stall of this shared
# machine, which can put an unpaced p99 of 100 samples at 200 ms, does not
# move it).  Pipelined (inflight 4) queues the same way.  The run warns
# that the schedule was not kept.
t_latency_counts_from_the_schedule() {
	mat m.yaml <<'Y'
name: omission
repeat: 1
warmup: 5
timeout: 20s
matrix:
  transport: tcp
  size: 16
  count: 100
  spin: 2ms
  inflight: [1, 4]
  rate: [unpaced, 2k/s]
Y
	run_matrix run m.yaml -o out --export-json out.json; expect_rc 0
	expect_all out/results.csv status ok
	expect_err "under 95% of rate 2k/s: the schedule was not kept"
	# and so do summary.md and the JSON, beside the figures: the paced
	# cells' rates and round trips marked ˢ with a line under the rate
	# table, the unpaced ones' not
	local n
	n=$(grep -c '^ˢ inflight [14], rate 2k/s: the schedule was not kept: 2k/s asked per connection, [0-9.]*/s achieved ([0-9]*%, the median repetition'"'"'s; 1 of 1 repetition under 95%): its round-trip times count from when each request was due' out/summary.md)
	[ "$n" -eq 2 ] || die "summary.md: $n notes on the schedule, expected 2: $(grep -n 'ˢ' out/summary.md)"
	grep -q '^| [14] | unpaced | .*ˢ' out/summary.md && die "summary.md marks an unpaced cell: $(grep '^| [14] | unpaced' out/summary.md)"
	[ "$(grep -c '^| [14] | 2k/s | .* ms ˢ' out/summary.md)" -ge 4 ] ||
		die "summary.md: the paced round trips are not marked: $(grep '^| [14] | 2k/s' out/summary.md)"
	python3 - out.json <<'PY' || die "the JSON export's schedule (above)"
import json, sys
for c in json.load(open(sys.argv[1]))["cells"]:
    paced = c["params"]["rate"] == 2000
    if paced and not (c["schedule_kept"] is False and c["rate_asked"] == 2000 and
                      c["rate_achieved"] < 0.95 * 2000 and c["reps_behind_schedule"] == 1):
        sys.exit("cell %d: %s" % (c["cell"], {k: c[k] for k in ("rate_asked", "rate_achieved",
                 "reps_behind_schedule", "schedule_kept")}))
    if not paced and (c["schedule_kept"], c["rate_asked"], c["rate_achieved"]) != (None, None, None):
        sys.exit("unpaced cell %d has a schedule" % c["cell"])
PY
	local inf up pp u50 p50
	for inf in 1 4; do
		read -r up u50 < <(csvq out/results.csv inflight rate rtt_p99_us rtt_p50_us |
				    awk -v i="$inf" '$1 == i && $2 == 0 { print $3, $4 }')
		read -r pp p50 < <(csvq out/results.csv inflight rate rtt_p99_us rtt_p50_us |
				    awk -v i="$inf" '$1 == i && $2 == 2000 { print $3, $4 }')
		[ -n "$u50" ] && [ -n "$p50" ] || die "inflight $inf: rows missing: $(cat out/results.csv)"
		le 50000 "$pp" || die "inflight $inf: paced p99 $pp us is not far above the 2 ms spin"
		le "$(awk -v u="$u50" 'BEGIN { print 3 * u }')" "$p50" ||
			die "inflight $inf: paced p50 $p50 us is not well above unpaced p50 $u50 us"
		echo "inflight $inf: unpaced p50 $u50 p99 $up us; paced p50 $p50 p99 $pp us"
	done
	grep -qF '| unpaced |' out/summary.md || die "summary.md does not call rate 0 unpaced"
	expect_no_leftovers
}

# The same judgement from a hand-made folder (tests/data/rate_behind):
# a repetition under 95% of the rate per connection, msgs_per_s over the
# concurrency (a stream's senders': sent_msgs_per_s), puts the cell
# behind: its rates and round-trip times marked ˢ (not its CPU), a line
# under the table of the figure judged, the key under the header, and in
# the JSON rate_asked, rate_achieved, reps_behind_schedule, schedule_kept;
# a paced cell that kept its schedule and the unpaced ones have none.
t_schedule_not_kept_beside_its_figures() {
	rm -rf out && cp -R "$REPO/tests/data/rate_behind" out || die "cannot copy tests/data/rate_behind"
	PATH=/nonexistent run_matrix report out --quiet --export-json out.json; expect_rc 0
	python3 "$REPO/tests/e2e/golden_expect.py" md out/summary.md <<'MD' || die "summary.md tables differ from the hand-written rows (above)"
## pingpong
### messages per second
| rate | concurrency | msgs_per_s |
| unpaced | 1 | 2.80k (2.70k–2.90k) msg/s |
| unpaced | 2 | 5.00k (4.90k–5.10k) msg/s |
| 5k/s | 1 | 4.99k (4.70k–5.00k) msg/s ˢ |
| 5k/s | 2 | 5.70k (5.60k–5.80k) msg/s ˢ |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
ˢ rate 5k/s, concurrency 1: the schedule was not kept: 5k/s asked per connection, 4.99k/s achieved (99%, the median repetition's; 1 of 3 repetitions under 95%): its round-trip times count from when each request was due, so they hold the queue that grew behind the schedule, and grow with the window's length; its rates are what the server allowed.
ˢ rate 5k/s, concurrency 2: the schedule was not kept: 5k/s asked per connection, 2.85k/s achieved (57%, the median repetition's; 3 of 3 repetitions under 95%): its round-trip times count from when each request was due, so they hold the queue that grew behind the schedule, and grow with the window's length; its rates are what the server allowed.
### round-trip time, p99
| rate | concurrency | rtt_p99_us |
| unpaced | 1 | 1.00 (0.90–1.10) ms |
| unpaced | 2 | 1.10 (1.00–1.20) ms |
| 5k/s | 1 | 40.1 (40.0–40.2) ms ˢ |
| 5k/s | 2 | 300 (300–301) ms ˢ |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
### CPU time per round trip (all workers)
| rate | concurrency | cpu_us_per_rtt |
| unpaced | 1 | 4.20 (4.00–4.40) µs/rtt |
| unpaced | 2 | 4.20 (4.00–4.40) µs/rtt |
| 5k/s | 1 | 4.20 (4.00–4.40) µs/rtt |
| 5k/s | 2 | 4.20 (4.00–4.40) µs/rtt |
## stream
### messages per second
| rate | concurrency | msgs_per_s |
| unpaced | 1 | 91.0k (90.0k–92.0k) msg/s ‡ |
| unpaced | 2 | 151k (150k–152k) msg/s ‡ |
| 5k/s | 1 | 3.00k (3.00k–3.00k) msg/s |
| 5k/s | 2 | 6.00k (5.90k–6.10k) msg/s ˢ |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
### messages per second at the senders
| rate | concurrency | sent_msgs_per_s |
| unpaced | 1 | 91.0k (90.0k–92.0k) msg/s ‡ |
| unpaced | 2 | 151k (150k–152k) msg/s ‡ |
| 5k/s | 1 | 5.00k (5.00k–5.00k) msg/s |
| 5k/s | 2 | 6.10k (6.00k–6.20k) msg/s ˢ |
Intervals of the median: 75% confidence with 3 repetitions (95% needs 6 or more).
ˢ rate 5k/s, concurrency 2: the schedule was not kept: 5k/s asked per connection, 3.05k/s achieved (61%, the median repetition's; 3 of 3 repetitions under 95%): the senders fell behind, so its rates are what the receiver allowed, not the rate asked.
MD
	[ "$(grep -c '^`ˢ`: a paced cell (`rate:`) that did not keep its schedule: in some repetition its connections achieved under 95% of the rate asked' out/summary.md)" -eq 1 ] ||
		die "summary.md does not explain ˢ once: $(grep -n 'ˢ`' out/summary.md)"
	grep -qF '<td class="num">5.70k (5.60k–5.80k) msg/s ˢ</td>' out/report.html ||
		die "report.html lacks the marked rate"
	python3 - out.json <<'PY' || die "the JSON export's schedules (above)"
import json, sys
got = {c["cell"]: (c["rate_asked"], c["rate_achieved"], c["reps_behind_schedule"], c["schedule_kept"])
       for c in json.load(open(sys.argv[1]))["cells"]}
none = (None, None, None, None)
want = {1: none, 2: none, 3: (5000, 4990, 1, False), 4: (5000, 2850, 3, False),
        5: none, 6: none, 7: (5000, 5000, 0, True), 8: (5000, 3050, 3, False)}
if got != want:
    sys.exit("schedules %s, expected %s" % (got, want))
PY
	# no rate dimension at all: nothing said, every schedule null
	rm -rf plain && cp -R "$REPO/tests/data/marks_hosts" plain || die "cannot copy marks_hosts"
	PATH=/nonexistent run_matrix report plain --quiet --export-json plain.json; expect_rc 0
	! grep -q 'ˢ' plain/summary.md || die "summary.md of an unpaced run marks ˢ"
	python3 -c 'import json, sys
sys.exit(any(c[k] is not None for c in json.load(open(sys.argv[1]))["cells"]
             for k in ("rate_asked", "rate_achieved", "reps_behind_schedule", "schedule_kept")))' plain.json ||
		die "an unpaced run has schedules in the JSON"
	return 0
}

# record: totals keeps count, sum, min and max: its rows have mean, min
# and max, empty percentiles, no hist.csv and no timeline.csv rows; the
# reports (summary, charts, JSON, a rebuild by `matrix report`) cope, and
# print '-' for its percentiles, never 0.
t_record_totals_rows_and_reports() {
	mat m.yaml <<'Y'
name: totals
repeat: 2
warmup: 10
matrix:
  pattern: [pingpong, stream]
  transport: unix
  size: 64
  count: 2000
  record: [full, totals]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv cell pat rec p50 p90 p99 p999 mean min max
	expect_all $r status ok
	# '|' between the fields: read would merge empty tab-separated ones
	while IFS='|' read -r cell pat rec p50 p90 p99 p999 mean min max; do
		[ "$pat" = pingpong ] || continue
		if [ "$rec" = totals ]; then
			[ -z "$p50$p90$p99$p999" ] || die "cell $cell (totals) has percentiles: $p50 $p90 $p99 $p999"
		else
			[ -n "$p50" ] && [ -n "$p999" ] || die "cell $cell (full) lacks percentiles"
		fi
		le 0.001 "$min" && le "$min" "$mean" && le "$mean" "$max" ||
			die "cell $cell ($rec): min $min, mean $mean, max $max"
	done < <(csvq $r cell pattern record rtt_p50_us rtt_p90_us rtt_p99_us rtt_p999_us \
		 rtt_mean_us rtt_min_us rtt_max_us | tr '\t' '|')
	local full_pp tot_pp full_st tot_st
	full_pp=$(rows_where $r record full cell pattern | awk -F'\t' '$2 == "pingpong" { print $1; exit }')
	tot_pp=$(rows_where $r record totals cell pattern | awk -F'\t' '$2 == "pingpong" { print $1; exit }')
	full_st=$(rows_where $r record full cell pattern | awk -F'\t' '$2 == "stream" { print $1; exit }')
	tot_st=$(rows_where $r record totals cell pattern | awk -F'\t' '$2 == "stream" { print $1; exit }')
	csvq out/hist.csv cell | grep -qx "$full_pp" || die "no hist.csv rows for the full cell"
	! csvq out/hist.csv cell | grep -qx "$tot_pp" || die "hist.csv rows for the totals cell"
	csvq out/timeline.csv cell | grep -qx "$full_st" || die "no timeline.csv rows for the full cell"
	! csvq out/timeline.csv cell | grep -qx "$tot_st" || die "timeline.csv rows for the totals cell"
	# summary.md: the p99 table's totals row has '-', never a 0
	local row
	row=$(awk '/^### round-trip time, p99/ { on = 1 } on && /^\| totals \|/ { print; exit }' out/summary.md)
	[ -n "$row" ] || die "summary.md: no totals row in the p99 table: $(cat out/summary.md)"
	case $row in "| totals | - |"|"| totals | - ‡ |") ;; *) die "summary.md p99 of totals: '$row'" ;; esac
	! grep -E '\| 0(\.0+)? µs' out/summary.md || die "summary.md prints a 0 µs figure"
	if command -v gnuplot >/dev/null; then
		ls out/plots/*.svg >/dev/null 2>&1 || die "no charts drawn"
	fi
	cp out/summary.md before.md
	cp out/summary.csv before.csv
	run_matrix report out --quiet --export-json out.json; expect_rc 0
	cmp -s before.md out/summary.md || die "matrix report rebuilt a different summary.md"
	cmp -s before.csv out/summary.csv || die "matrix report rebuilt a different summary.csv"
	python3 - out.json "$tot_pp" <<'PY' || die "JSON: the totals cell's percentiles are not null"
import json, sys
doc = json.load(open(sys.argv[1]))
c = [c for c in doc["cells"] if c["cell"] == int(sys.argv[2])][0]
assert c["params"]["record"] == "totals"
assert c["stats"]["rtt_p99_us"]["median"] is None, c["stats"]["rtt_p99_us"]
assert c["stats"]["rtt_mean_us"]["median"] > 0
PY
	expect_no_leftovers
}

# Bad values name FILE:LINE:COL; what our workers cannot do to a user's
# program is refused at plan time, as is a count the rate cannot send
# before the timeout; the worker's own flags are checked too.
t_rate_and_record_errors() {
	local v want
	while IFS='|' read -r v want; do
		printf 'name: bad\nmatrix:\n  rate: %s\n' "$v" >b.yaml
		run_matrix plan b.yaml; expect_rc 2
		expect_err "b.yaml:3:9: rate: $want"
	done <<'E'
20000|invalid rate '20000': missing unit: write 20000/s, 20k/s or 1M/s
1.5/s|invalid rate '1.5/s': not a whole number of requests per second
0/s|invalid rate '0/s': must be greater than zero
20m/s|invalid rate '20m/s': unknown unit 'm/s' (use /s, k/s or M/s)
2000M/s|invalid rate '2000M/s': too large (at most 1000M/s)
E
	printf 'name: bad\nmatrix:\n  record: total\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:3:11: "
	expect_err "did you mean 'totals'?"
	mat p.yaml <<Y
name: prog
programs:
  cli:
    client: [python3, -c, "pass", "{host}", "{port}"]
matrix:
  transport: tcp
  client: cli
  rate: 1k/s
Y
	run_matrix plan p.yaml; expect_rc 2
	expect_err "p.yaml:8:9: rate paces matrix's own client; program cli cannot be paced"
	sed -i 's/^  rate: 1k\/s/  record: totals/' p.yaml
	run_matrix plan p.yaml; expect_rc 2
	expect_err "p.yaml:8:11: record: totals is what matrix's own client keeps; program cli"
	# a stream's recorder is its receiver: program senders may, a program receiver may not
	mat st.yaml <<Y
name: progstream
programs:
  snd:
    client: [python3, -c, "pass", "{host}", "{port}"]
  rcv:
    server: [python3, -c, "pass", "{port}"]
matrix:
  pattern: stream
  transport: tcp
  client: snd
  record: totals
Y
	run_matrix plan st.yaml; expect_rc 0
	sed -i 's/^  client: snd/  server: rcv/' st.yaml
	run_matrix plan st.yaml; expect_rc 2
	expect_err "st.yaml:11:11: record: totals is what matrix's own receiver keeps; program rcv"
	printf 'name: slow\ntimeout: 10s\nmatrix:\n  count: 1000\n  rate: 10/s\n' >s.yaml
	run_matrix plan s.yaml; expect_rc 2
	expect_err "s.yaml:5:9: count 1000 at rate 10/s takes 99 s per connection, not less than the timeout (10 s)"
	printf 'name: ok\nmatrix:\n  rate: [20k/s, 1.5k/s, 1M/s]\n  record: [full, totals]\n' >ok.yaml
	run_matrix plan ok.yaml; expect_rc 0
	# columns, headed, as every other key
	grep -qE '^cell .* rate  record$' "$T/.out" || die "plan has no rate and record columns: $(cat "$T/.out")"
	grep -qE ' 1\.5k/s  totals$' "$T/.out" || die "plan does not show rate and record: $(cat "$T/.out")"
	grep -q 'rate=' "$T/.out" && die "plan prints rate= as trailing text: $(cat "$T/.out")"
	printf 'name: sp\nmatrix:\n  spin: [0s, 2us]\n' >sp.yaml
	run_matrix plan sp.yaml; expect_rc 0
	grep -qE '^cell .* spin$' "$T/.out" || die "plan has no spin column: $(cat "$T/.out")"
	grep -qE ' 2us$' "$T/.out" || die "plan does not show spin: $(cat "$T/.out")"
	run_matrix worker client --connect=127.0.0.1:1 --rate=fast; expect_rc 2
	expect_err "--rate fast: not a number"
	run_matrix worker server --rate=10; expect_rc 2
	expect_err "--rate is a client option"
	run_matrix worker client --connect=127.0.0.1:1 --record=some; expect_rc 2
	expect_err "--record some: expected full or totals"
}

# rate: with duration: every request due before the window's end is sent,
# however late: a server that stalls 100 ms once, 25 ms before the end of
# a 1 s window at 2k/s.  The 49 requests due during the stall go once it
# ends (after the window's end by the clock), each timed from its schedule,
# so the cell has all 2,000 and a p99 of the stall's size (the top 20 waits
# are 90-100 ms); stopping at the clock's end would send 1,951 and leave a
# p99 of a few ms.
t_paced_window_sends_every_request_due() {
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<Y
name: stall
repeat: 1
warmup: 0
timeout: 20s
programs:
  stall:
    server: [python3, $REPO/tests/e2e/programs/stall_server.py, "{path}", "{size}", "{response_size}", "1950", "0.1"]
    ready: listening
matrix:
  transport: unix
  server: stall
  size: 16
  response_size: 16
  rate: 2k/s
  duration: 1s
  inflight: [1, 4]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	expect_all $r sent_messages 2000
	expect_all $r messages 2000
	local inf p99 max
	while read -r inf p99 max; do
		le 95000 "$max" || die "inflight $inf: the stalled request waited $max us, not 100 ms"
		le 50000 "$p99" || die "inflight $inf: p99 $p99 us: the requests due during the stall are missing"
	done < <(csvq $r inflight rtt_p99_us rtt_max_us)
}
