# Programs' setup: and teardown: steps, the {tmp} folder they share with
# the programs, and {{ }} for literal braces (README "Bring your own
# programs").

need_socat() {
	command -v socat >/dev/null || skip "socat missing"
}

# A setup step that writes the server the cells run: {tmp}/srv, an echo
# server (socat), and counts its own runs in setup_runs (the test's folder:
# steps run in the runner's working directory).
SRV_SETUP='printf "#!/bin/sh\nexec socat TCP-LISTEN:\$1,bind=127.0.0.1,reuseaddr,fork EXEC:cat\n" >"$0/srv"; chmod +x "$0/srv"; echo built; echo run >>setup_runs'

# starts matrix in the background with SIGINT as a terminal's Ctrl-C would
# find it (a script's background job starts with it ignored); sets $mpid
start_bg() {
	python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
		"$MATRIX_BIN" "$@" >"$T/.out" 2>"$T/.err" &
	mpid=$!
}

# waits until file $1 exists
wait_file() {
	local i
	for i in $(seq 300); do
		[ -e "$1" ] && return 0
		sleep 0.02
	done
	die "$1 never appeared: $(cat "$T/.err")"
}

t_setup_builds_into_tmp_once() {
	need_socat
	mat m.yaml <<Y
name: built
repeat: 3
warmup: 5
programs:
  srv:
    setup: [sh, -c, '$SRV_SETUP', "{tmp}"]
    server: ["{tmp}/srv", "{port}"]
    teardown: [sh, -c, 'test -x "\$0/srv" && echo "saw srv" >>teardown_runs', "{tmp}"]
matrix:
  pattern: echo
  transport: tcp
  size: [16, 32]
  server: [builtin, srv]
  count: 200
Y
	run_matrix plan m.yaml; expect_rc 0
	grep -qF "  setup of srv, once before its first cell:" "$T/.out" || die "plan: $(cat "$T/.out")"
	grep -qF "    sh -c 'printf " "$T/.out" || die "plan shows no step: $(cat "$T/.out")"
	grep -qF "programs' steps, each within 10m " "$T/.out" || die "plan: no time limit"
	# {tmp}: what it will be, one folder for the whole run
	TMPDIR=/tmp run_matrix plan m.yaml; expect_rc 0
	grep -qF "{tmp} is the run's private folder, one for the whole run (every cell and repetition), made when it starts: /tmp/matrix.XXXXXX" "$T/.out" ||
		die "plan does not say what {tmp} is: $(cat "$T/.out")"
	run_matrix run m.yaml -o out; expect_rc 0
	expect_all out/results.csv status ok
	[ "$(csvq out/results.csv --rows)" -eq 12 ] || die "rows"
	# once for its six repetitions, before the first; the teardown saw
	# what the setup built in {tmp}
	[ "$(cat setup_runs)" = run ] || die "setup ran $(wc -l <setup_runs) times"
	[ "$(cat teardown_runs)" = "saw srv" ] || die "teardown: $(cat teardown_runs 2>&1)"
	expect_err "matrix: setup of srv, step 1 of 1: sh -c 'printf"
	grep -qx 'built' out/logs/setup-srv.log || die "setup log: $(cat out/logs/setup-srv.log)"
	head -1 out/logs/setup-srv.log | grep -q "^\$ sh -c 'printf.*' $TMPDIR/matrix\.......\$" ||
		die "the log's first line is not the step as run: $(head -1 out/logs/setup-srv.log)"
	[ "$(csvq out/meta.csv key value | awk -F'\t' '$1 == "teardown" { print $2 }')" = ok ] ||
		die "meta.csv teardown: $(cat out/meta.csv)"
	# {tmp} went with the run, srv and all
	expect_no_leftovers
}

t_failed_setup_fails_its_cells() {
	need_socat
	mat m.yaml <<Y
name: broken
repeat: 2
warmup: 5
programs:
  srv:
    setup: [sh, -c, '$SRV_SETUP', "{tmp}"]
    server: ["{tmp}/srv", "{port}"]
  bad:
    setup:
      - [sh, -c, 'echo step one >>bad_runs']
      - [sh, -c, 'echo compiling; echo "error: no such type" >&2; exit 3']
      - [sh, -c, 'echo step three >>bad_runs']
    teardown: [sh, -c, 'echo cleaned >>bad_teardown']
    client: [sh, -c, 'exit 0']
  gone:
    setup: [no-such-compiler, x.c]
    client: [sh, -c, 'exit 0']
  crash:
    setup: [sh, -c, 'kill -USR1 \$\$']
    client: [sh, -c, 'exit 0']
matrix:
  pattern: echo
  transport: tcp
  server: [builtin, srv]
  client: [builtin, bad, gone, crash]
  count: 100
exclude:
  - {server: builtin, client: bad}
  - {server: builtin, client: gone}
  - {server: builtin, client: crash}
Y
	run_matrix run m.yaml -o out; expect_rc 1
	local r=out/results.csv
	[ "$(csvq $r cell server client status | sort -n | uniq -c | awk '{ $1 = $1; print }')" = "2 1 builtin builtin ok
2 5 srv builtin ok
2 6 srv bad setup failed
2 7 srv gone setup failed
2 8 srv crash setup failed" ] || die "statuses: $(csvq $r cell server client status error)"
	[ "$(csvq $r client error | awk -F'\t' '$1 == "bad"' | sort -u)" = "bad	setup of program bad failed: step 2 of 3 (sh -c 'echo compiling; echo \"error: no such type\" >&2; exit 3'): exit 3; log: logs/setup-bad.log" ] ||
		die "bad's error: $(csvq $r client error | sort -u)"
	[ "$(csvq $r client error | awk -F'\t' '$1 == "gone"' | sort -u)" = "gone	setup of program gone failed: step 1 of 1 (no-such-compiler x.c): no-such-compiler: program not found; log: logs/setup-gone.log" ] ||
		die "gone's error: $(csvq $r client error | sort -u)"
	csvq $r client error | grep -qF "crash	setup of program crash failed: step 1 of 1 (sh -c 'kill -USR1 \$\$'): crashed: SIGUSR1; log: logs/setup-crash.log" ||
		die "crash's error: $(csvq $r client error | sort -u)"
	# once, stopped at the failing step; its output and status in its log
	[ "$(cat bad_runs)" = "step one" ] || die "bad's steps: $(cat bad_runs)"
	grep -qx 'error: no such type' out/logs/setup-bad.log || die "log: $(cat out/logs/setup-bad.log)"
	grep -qx '\[matrix: exit 3\]' out/logs/setup-bad.log || die "log: $(cat out/logs/setup-bad.log)"
	# the console shows the log's tail once, with the first failed row
	[ "$(grep -c '^    | error: no such type$' "$T/.err")" = 1 ] || die "console: $(cat "$T/.err")"
	# a failed setup still gets its teardown, once
	[ "$(cat bad_teardown)" = cleaned ] || die "bad's teardown: $(cat bad_teardown 2>&1)"
	[ "$(cat setup_runs)" = run ] || die "srv's setup ran $(wc -l <setup_runs) times"
	expect_no_leftovers
}

t_teardown_once_at_the_end() {
	need_socat
	mat m.yaml <<Y
name: ends
repeat: 2
warmup: 5
programs:
  srv:
    setup: [sh, -c, '$SRV_SETUP', "{tmp}"]
    server: ["{tmp}/srv", "{port}"]
    teardown:
      - [sh, -c, 'wc -l <out/results.csv >>teardown_runs']
      - [sh, -c, 'echo cannot; exit 4']
      - [sh, -c, 'echo never >>teardown_runs']
  unused:
    client: [sh, -c, 'exit 0']
    teardown: [sh, -c, 'echo unused >>teardown_runs']
matrix:
  pattern: echo
  transport: tcp
  server: [builtin, srv]
  client: [builtin, unused]
  size: [16, 32]
  count: 100
exclude:
  - {client: unused}
Y
	run_matrix run m.yaml -o out; expect_rc 0
	expect_all out/results.csv status ok
	# after the last row (a header and 8 rows), once; the failed step ends
	# it; a program no cell used has none
	[ "$(cat teardown_runs)" = 9 ] || die "teardown runs: $(cat teardown_runs)"
	expect_err "matrix: teardown of program srv failed: step 2 of 3 (sh -c 'echo cannot; exit 4'): exit 4; log: logs/teardown-srv.log"
	[ "$(csvq out/meta.csv key value | awk -F'\t' '$1 == "teardown" { print $2 }')" = "teardown of program srv failed: step 2 of 3 (sh -c 'echo cannot; exit 4'): exit 4; log: logs/teardown-srv.log" ] ||
		die "meta.csv: $(cat out/meta.csv)"
	grep -qx cannot out/logs/teardown-srv.log || die "log: $(cat out/logs/teardown-srv.log)"
	expect_no_leftovers
}

t_teardown_after_sigint() {
	need_socat
	mat m.yaml <<Y
name: stopped
repeat: 1
warmup: 5
timeout: 30s
programs:
  srv:
    setup: [sh, -c, '$SRV_SETUP', "{tmp}"]
    server: ["{tmp}/srv", "{port}"]
    teardown: [sh, -c, 'echo "srv \$(test -x "\$0/srv" && echo built)" >>teardown_runs', "{tmp}"]
  hangs:
    client: [sh, -c, 'touch hanging; exec sleep 28.71']
    teardown: [sh, -c, 'echo hangs >>teardown_runs; touch in_teardown; exec sleep 28.72']
  later:
    setup: [sh, -c, 'echo later >>setup_runs']
    client: [sh, -c, 'exit 0']
    teardown: [sh, -c, 'echo later >>teardown_runs']
matrix:
  pattern: echo
  transport: tcp
  server: srv
  client: [hangs, later]
  count: 100
Y
	start_bg run m.yaml -o out --order sequential
	wait_file hanging
	kill -INT $mpid
	# the teardowns run; a second Ctrl-C cuts the one that hangs
	wait_file in_teardown
	local t0=$EPOCHREALTIME
	kill -INT $mpid
	wait $mpid; rc=$?
	expect_rc 130
	le "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" 4 ||
		die "the second interrupt did not cut the teardown"
	# srv's teardown ran (it saw {tmp}/srv), hangs' was cut; later never
	# ran a cell: no setup, no teardown
	[ "$(sort teardown_runs | tr '\n' ' ')" = "hangs srv built " ] ||
		die "teardowns: $(cat teardown_runs)"
	[ "$(cat setup_runs)" = run ] || die "setups: $(cat setup_runs)"
	[ "$(csvq out/results.csv cell status)" = "1	interrupted" ] || die "rows: $(cat out/results.csv)"
	expect_err "matrix: teardown of program hangs failed: step 1 of 1 (sh -c 'echo hangs >>teardown_runs; touch in_teardown; exec sleep 28.72'): interrupted"
	[ "$(csvq out/meta.csv key value | awk -F'\t' '$1 == "status" { print $2 }')" = interrupted ] ||
		die "meta status"
	[ -z "$(own_procs 'sleep 28.71')$(own_procs 'sleep 28.72')" ] || die "a step or program outlived the run"
	expect_no_leftovers
}

t_resume_sets_up_again() {
	need_socat
	mat m.yaml <<Y
name: resumed
repeat: 1
warmup: 5
timeout: 30s
programs:
  srv:
    setup: [sh, -c, '$SRV_SETUP', "{tmp}"]
    server: ["{tmp}/srv", "{port}"]
  early:
    setup: [sh, -c, 'echo early >>setup_runs']
    client: [sh, -c, 'exit 0']
  sleeper:
    setup: [sh, -c, 'echo sleeper >>setup_runs']
    client: [sh, -c, 'touch sleeping; test -e go || exec sleep 28.73']
matrix:
  pattern: echo
  transport: tcp
  server: srv
  client: [early, sleeper]
  count: 100
Y
	start_bg run m.yaml -o out --order sequential
	wait_file sleeping
	kill -INT $mpid
	wait $mpid; rc=$?
	expect_rc 130
	touch go
	run_matrix run --resume out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	# the cell left to run needs srv and sleeper again (a new {tmp}), not early
	[ "$(tr '\n' ' ' <setup_runs)" = "run early sleeper run sleeper " ] ||
		die "setups: $(cat setup_runs)"
	expect_no_leftovers
}

t_literal_braces_reach_programs() {
	need_socat
	mat m.yaml <<Y
name: braces
repeat: 1
warmup: 5
programs:
  srv:
    setup:
      - [sh, -c, '$SRV_SETUP', "{tmp}"]
      - [sh, -c, 'x=in; echo "\${{x}} {{tmp}}" >"\$0/said"', "{tmp}"]
    server: ["{tmp}/srv", "{port}"]
    teardown: [sh, -c, 'cp "\$0/said" said', "{tmp}"]
  awk:
    client: [sh, -c, 'x=7; echo "a \${{x}}" | awk "{{print \"rtt \" \\\$2}}"']
    result:
      rtt_mean_us: 'rtt ([0-9]+)'
matrix:
  pattern: echo
  transport: tcp
  server: srv
  client: awk
  count: 10
Y
	run_matrix run m.yaml -o out; expect_rc 0
	expect_all out/results.csv status ok
	# awk got {print "rtt " $2}, sh expanded \${x}
	expect_all out/results.csv rtt_mean_us 7
	[ "$(cat said)" = "in {tmp}" ] || die "setup step's words: $(cat said)"
	expect_no_leftovers
}

# A step that ignores SIGTERM (sh's trap, which its sleep inherits) gets
# SIGKILL a second later.  Its life is timed from its start (the time it
# writes first) to the end of its sh and sleep, seen from here: about 2 s,
# where a step never cut, or given SIGTERM alone, would sleep its 28.74 s.
# The rest of the run (the other cells, the reports) is not timed: under
# load it takes seconds.
t_setup_step_cut_at_its_time_limit() {
	mat m.yaml <<'Y'
name: slow
repeat: 2
warmup: 5
programs:
  slow:
    setup: [sh, -c, 'trap "" TERM; date +%s.%N >step_began; echo waiting; sleep 28.74']
    client: [sh, -c, 'exit 0']
matrix:
  pattern: echo
  transport: tcp
  client: [builtin, slow]
  count: 100
Y
	MATRIX_SETUP_TIMEOUT=1s "$MATRIX_BIN" run m.yaml -o out >"$T/.out" 2>"$T/.err" &
	local mpid=$! i ended='' life
	for i in $(seq 600); do	# 30 s at most
		[ -s step_began ] && [ -z "$(own_procs 'sleep 28.74')" ] && { ended=$EPOCHREALTIME; break; }
		sleep 0.05
	done
	rc=0
	wait "$mpid" || rc=$?
	expect_rc 1
	[ -n "$ended" ] || die "the step still runs 30 s on: $(own_procs 'sleep 28.74')"
	life=$(awk -v a="$(cat step_began)" -v b="$ended" 'BEGIN { print b - a }')
	le "$life" 5 || die "the step lived $life s: not cut at 1 s and killed a second later"
	[ "$(csvq out/results.csv client status | sort | uniq -c | awk '{ $1 = $1; print }')" = "2 builtin ok
2 slow setup failed" ] || die "rows: $(csvq out/results.csv client status error)"
	csvq out/results.csv error | grep -qF "setup of program slow failed: step 1 of 1 (sh -c 'trap \"\" TERM; date +%s.%N >step_began; echo waiting; sleep 28.74'): timeout after 1s; log: logs/setup-slow.log" ||
		die "error: $(csvq out/results.csv error)"
	grep -qx waiting out/logs/setup-slow.log || die "log"
	[ -z "$(own_procs 'sleep 28.74')" ] || die "the step outlived its time limit"
	expect_no_leftovers
	# a limit that is no duration: refused before anything is made
	rc=0
	MATRIX_SETUP_TIMEOUT=soon "$MATRIX_BIN" run m.yaml -o out2 >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "MATRIX_SETUP_TIMEOUT=soon: "
	[ ! -e out2 ] || die "out2 made"
}

t_setup_errors_at_plan_time() {
	printf 'name: x\nprograms:\n  p:\n    client: cli\n    setup: [make, "{port}"]\nmatrix:\n  client: p\n' >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:5:19: setup: {port}: setup: and teardown: steps run once, outside any cell: {tmp} is their only placeholder"
	printf 'name: x\nprograms:\n  p:\n    client: cli\n    teardown: [[rm, x], []]\nmatrix:\n  client: p\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:5:25: teardown: empty command"
	printf 'name: x\nprograms:\n  p:\n    client: [awk, "{print}"]\nmatrix:\n  client: p\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:4:19: unknown placeholder {print}"
	printf 'name: x\nprograms:\n  p:\n    client: [awk, "{{print}}"]\nmatrix:\n  client: p\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 0
}

t_killed_runner_takes_its_setup_step() {
	mat m.yaml <<'Y'
name: killed
repeat: 1
programs:
  slow:
    setup: [sh, -c, 'echo x >"$0/built"; sleep 28.75 & touch started; wait', "{tmp}"]
    client: [sh, -c, 'exit 0']
matrix:
  pattern: echo
  transport: tcp
  client: slow
  count: 10
Y
	"$MATRIX_BIN" run m.yaml -o out -q >"$T/.out" 2>"$T/.err" &
	local mpid=$! i
	wait_file started
	kill -KILL $mpid
	wait $mpid 2>/dev/null
	# the step's own child too (the guard kills its group), and {tmp}
	# with what the step put there
	for i in $(seq 100); do
		[ -n "$(own_procs 'sleep 28.75')" ] || [ -n "$(ls -A "$TMPDIR")" ] || break
		sleep 0.02
	done
	[ -z "$(own_procs 'sleep 28.75')" ] || die "the setup step's child outlived the runner"
	expect_no_leftovers
}

# An interrupt while a setup step runs: the step is killed, no row, and the
# program's teardown still runs (its setup ran, if not to its end).
t_interrupt_during_setup_runs_teardown() {
	mat m.yaml <<'Y'
name: cut
repeat: 1
warmup: 5
programs:
  slow:
    setup: [sh, -c, 'touch in_setup; exec sleep 28.75']
    client: [sh, -c, 'exit 0']
    teardown: [sh, -c, 'echo slow >>teardown_runs']
matrix:
  pattern: echo
  transport: tcp
  client: slow
  count: 100
Y
	start_bg run m.yaml -o out
	wait_file in_setup
	kill -INT $mpid
	wait $mpid; rc=$?
	expect_rc 130
	[ "$(cat teardown_runs 2>/dev/null)" = slow ] || die "teardown did not run: $(cat "$T/.err")"
	[ "$(csvq out/results.csv --rows)" -eq 0 ] || die "rows: $(cat out/results.csv)"
	grep -q '^\[matrix: interrupted\]$' out/logs/setup-slow.log || die "log: $(cat out/logs/setup-slow.log)"
	[ -z "$(own_procs 'sleep 28.75')" ] || die "the step outlived the run"
	expect_no_leftovers
}
