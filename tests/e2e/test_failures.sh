# Failures keep their rows, the run goes on, nothing is left behind.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

t_killed_worker_fails_its_row_only() {
	mat m.yaml <<'Y'
name: kill
repeat: 1
warmup: 0
timeout: 30s
matrix:
  pattern: stream
  transport: unix
  concurrency: 2
  duration: [10s, 300ms]
Y
	# cell 1 (10 s) gets a client killed; cell 2 must still run
	# a background job of a script starts with SIGINT ignored, and a signal
	# ignored at start stays ignored (test_reliability.sh): give this one
	# SIGINT as a terminal's Ctrl-C would find it
	python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
		"$MATRIX_BIN" run m.yaml -o out --order sequential >"$T/.out" 2>"$T/.err" &
	local mpid=$! victim
	victim=$(client_of $mpid) || die "no client worker appeared"
	sleep 0.3
	kill -KILL "$victim"
	wait $mpid; rc=$?
	expect_rc 1
	[ "$(csvq out/results.csv --rows)" -eq 2 ] || die "expected 2 rows: $(cat out/results.csv)"
	[ "$(csvq out/results.csv cell status | head -1)" = "1	crashed: SIGKILL" ] ||
		die "cell 1: $(csvq out/results.csv cell status error | head -1)"
	csvq out/results.csv error | head -1 | grep -q "client[12] (pid $victim) crashed: SIGKILL" ||
		die "error column: $(csvq out/results.csv error | head -1)"
	[ -z "$(csvq out/results.csv messages | head -1)" ] || die "a failed row has figures"
	[ "$(csvq out/results.csv cell status | tail -1)" = "2	ok" ] || die "cell 2 did not run ok"
	# the runner ends the 10 s cell's other workers at once (SIGTERM); left
	# alone they would send for the whole 10 s
	le "$(csvq out/results.csv wall_s | head -1)" 5 ||
		die "cell 1 took $(csvq out/results.csv wall_s | head -1) s: its other workers were not stopped"
	expect_err "FAILED: crashed: SIGKILL"
	expect_no_leftovers
}

t_timeout_is_a_status() {
	mat m.yaml <<'Y'
name: slow
repeat: 1
warmup: 0
timeout: 1s
matrix:
  pattern: pingpong
  transport: unix
  size: [1, 2]
  count: 100000000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	[ "$(csvq out/results.csv --rows)" -eq 2 ] || die "both cells must have rows"
	expect_all out/results.csv status timeout
	csvq out/results.csv error | head -1 | grep -q "timeout after 1 s waiting for results" ||
		die "error: $(csvq out/results.csv error | head -1)"
	# the runner kills them at the timeout: a worker's own deadline is the
	# timeout plus 3 s, so a row this short was ended by the runner
	local w
	for w in $(csvq out/results.csv wall_s); do
		le 1 "$w" && le "$w" 3 || die "a 1 s timeout took $w s: the runner did not end its workers"
	done
	# reports still come out, charts too: every panel says it has no data
	expect_all out/summary.csv status timeout
	grep -q 'failed: timeout' out/summary.md || die "summary.md hides the failure"
	grep -q 'gnuplot failed' "$T/.err" && die "charts of failed cells: $(cat "$T/.err")"
	[ -s out/plots/throughput.png ] || die "no throughput chart"
	expect_no_leftovers
}

t_interrupt_keeps_finished_rows() {
	mat m.yaml <<'Y'
name: intr
repeat: 1
warmup: 0
timeout: 60s
matrix:
  pattern: stream
  size: [1, 2]
  duration: [200ms, 30s]
exclude:
  - {size: 2, duration: 200ms}
  - {size: 1, duration: 30s}
Y
	# a background job of a script starts with SIGINT ignored, and a signal
	# ignored at start stays ignored (test_reliability.sh): give this one
	# SIGINT as a terminal's Ctrl-C would find it
	python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
		"$MATRIX_BIN" run m.yaml -o out --order sequential >"$T/.out" 2>"$T/.err" &
	local mpid=$!
	# wait until cell 1 is recorded and cell 4 (30 s; 2 and 3 are excluded) runs
	for _ in $(seq 200); do
		[ "$("$CSVQ" out/results.csv --rows 2>/dev/null)" = 1 ] && client_of $mpid >/dev/null && break
		sleep 0.05
	done
	local t0=$EPOCHREALTIME
	kill -INT $mpid
	wait $mpid; rc=$?
	expect_rc 130
	# its workers are stopped, not waited for: they would stream for 30 s
	le "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" 4 ||
		die "the interrupted run took more than 4 s to end"
	expect_err "interrupted"
	[ "$(csvq out/results.csv cell status | head -1)" = "1	ok" ] || die "cell 1 row lost"
	[ "$(csvq out/results.csv cell status | tail -1)" = "4	interrupted" ] || die "cell 2: $(cat out/results.csv)"
	[ "$(csvq out/meta.csv key value | awk -F'\t' '$1 == "status" { print $2 }')" = interrupted ] ||
		die "meta status"
	# the report covers what finished
	[ "$(csvq out/summary.csv cell status | head -1)" = "1	ok" ] || die "no summary of the finished cell"
	expect_no_leftovers
}

t_failed_cells_leave_no_files() {
	# workers killed at the timeout leave socket files and FIFOs behind:
	# the runner removes them, and its private folder
	mat m.yaml <<'Y'
name: leftovers
repeat: 1
warmup: 0
timeout: 1s
matrix:
  transport: [pipe, unix_dgram, unix_seqpacket, zmq, shm, mq]
  endpoint: ipc
  concurrency: 2
  count: 100000000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	expect_all out/results.csv status timeout
	expect_no_leftovers
	# a TMPDIR too long for socket paths is refused before anything is made
	rc=0
	TMPDIR=/tmp/$(printf 'x%.0s' $(seq 70)) "$MATRIX_BIN" run m.yaml -o out2 >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "is too long for socket paths"
	[ ! -e out2 ] || die "a run folder was made"
}

t_timeout_kills_a_worker_deaf_to_sigterm() {
	# a server that ignores SIGTERM and never becomes ready: at the timeout
	# the runner sends SIGTERM, then SIGKILL a second later.  Its sleep has
	# a length of its own, so that no other test's sleep is taken for it.
	local secs=60.$RANDOM
	mat m.yaml <<Y
name: deaf
repeat: 1
warmup: 0
timeout: 1s
programs:
  deaf:
    server: [sh, -c, 'trap "" TERM; exec sleep $secs']
    ready: never printed
matrix:
  pattern: pingpong
  transport: tcp
  server: deaf
  count: 10
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	expect_all out/results.csv status timeout
	local w; w=$(csvq out/results.csv wall_s)
	le 2 "$w" && le "$w" 4 || die "wall_s $w: expected the timeout, one grace second and the kill"
	[ -z "$(own_procs "sleep $secs")" ] || die "the deaf server outlived its cell: $(own_procs "sleep $secs")"
	expect_no_leftovers
}
