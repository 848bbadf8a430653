# Without pidfd_open (Linux before 5.3, valgrind 3.19): the runner waits on
# its workers through a SIGCHLD pipe instead (launch/spawn.h), forced here
# with MATRIX_NO_PIDFD=1.  Rows, timeouts and crashes read as with pidfds.

export MATRIX_NO_PIDFD=1

# the number of pidfds process PID holds
pidfds_of() { find "/proc/$1/fd" -lname 'anon_inode:\[pidfd\]' 2>/dev/null | wc -l; }

# Every outcome reads as with pidfds: rows ok (our workers, a program
# server), a crash, a timeout; nothing left behind.
t_no_pidfd_fallback_reports_every_outcome() {
	mat m.yaml <<'Y'
name: nopidfd
repeat: 2
warmup: 5
timeout: 3s     # a lost exit: a timeout, soon
matrix:
  transport: [unix, tcp]
  pattern: [pingpong, stream]
  concurrency: [1, 3]
  count: 300
Y
	run_matrix run m.yaml -o d -q; expect_rc 0
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv --rows)" -eq 16 ] || die "$(csvq d/results.csv --rows) rows, not 16"
	# a program server (our own worker, run as one) with its process group
	mat p.yaml <<Y
name: nopidfd_program
repeat: 2
warmup: 5
timeout: 3s
programs:
  ours:
    server: [$MATRIX_BIN, worker, server, -t, tcp, -p, echo, -s, "{size}", -w, "5", -b, "127.0.0.1:{port}", -c, "1"]
matrix:
  transport: tcp
  pattern: echo
  server: ours
  client: builtin
  count: 300
Y
	run_matrix run p.yaml -o p -q; expect_rc 0
	expect_all p/results.csv status ok
	[ "$(csvq p/results.csv --rows)" -eq 2 ] || die "$(csvq p/results.csv --rows) rows, not 2"
	expect_no_leftovers
	nopidfd_crash_and_timeout
}

# A killed client is its row's crash (and no pidfd is in use meanwhile);
# a worker that never answers is a timeout, ended by the runner in time.
nopidfd_crash_and_timeout() {
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
	"$MATRIX_BIN" run m.yaml -o out --order sequential >"$T/.out" 2>"$T/.err" &
	local mpid=$! victim w
	victim=$(client_of $mpid) || die "no client worker appeared"
	sleep 0.3
	[ "$(pidfds_of $mpid)" -eq 0 ] || die "the runner holds pidfds: MATRIX_NO_PIDFD was not obeyed"
	kill -KILL "$victim"
	wait $mpid; rc=$?
	expect_rc 1
	[ "$(csvq out/results.csv cell status | head -1)" = "1	crashed: SIGKILL" ] ||
		die "cell 1: $(csvq out/results.csv cell status error | head -1)"
	csvq out/results.csv error | head -1 | grep -q "client[12] (pid $victim) crashed: SIGKILL" ||
		die "error column: $(csvq out/results.csv error | head -1)"
	[ "$(csvq out/results.csv cell status | tail -1)" = "2	ok" ] || die "cell 2 did not run ok"
	le "$(csvq out/results.csv wall_s | head -1)" 5 ||
		die "cell 1 took $(csvq out/results.csv wall_s | head -1) s: its other workers were not stopped"
	expect_no_leftovers
	mat slow.yaml <<'Y'
name: slow
repeat: 1
warmup: 0
timeout: 1s
matrix:
  pattern: pingpong
  transport: unix
  count: 100000000
Y
	run_matrix run slow.yaml -o slow -q; expect_rc 1
	expect_all slow/results.csv status timeout
	w=$(csvq slow/results.csv wall_s)
	le 1 "$w" && le "$w" 3 || die "a 1 s timeout took $w s: the runner did not end its workers"
	expect_no_leftovers
}
