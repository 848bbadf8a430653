# Issue 26, hangs and what a run says of its failures: no regex matching
# outlives a cell's timeout or delays a signal (PCRE2's match limit on
# each line, a line matched on its first 4 KiB), a killed link process
# fails the repetition running at once, and the smaller items found with
# them (the libzmq load error, the netns refusal, warmup: and spin:
# bounds, MATRIX_SETUP_TIMEOUT, setup logs on --resume, a fully failed
# cell's status, a server that exits with its last client).

# a program server that is ready at once and waits to be stopped
READY_SERVER='[sh, -c, "echo ready; exec sleep 29.61"]'

# start_bg ARGS...: matrix ARGS in the background, its pid in $mpid
start_bg() {
	"$MATRIX_BIN" "$@" >"$T/.out" 2>"$T/.err" &
	mpid=$!
}

# wait_file FILE: until FILE exists (10 s at most)
wait_file() {
	local i
	for i in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	die "no $1 after 10 s: $(cat "$T/.err")"
}

# seconds since the epoch, with fractions
now_s() { date +%s.%N; }

# a back-reference is PCRE2's to match, within its match limit: taken at
# plan time, ready: result: timeline: alike (a run that meets one on a
# long line: t_pcre2_regexes_end_to_end, test_programs.sh)
t_backreference_regexes_are_taken() {
	mat a.yaml <<'Y'
name: a
programs:
  p:
    server: [srv, "{port}"]
    ready: '^(a*)*\1\1\1$'
matrix:
  transport: tcp
  server: p
Y
	run_matrix plan a.yaml; expect_rc 0
	mat b.yaml <<'Y'
name: b
programs:
  p:
    client: [cli, "{port}"]
    result:
      rtt_mean_us: {regex: '([0-9]+) again \1', unit: us}
matrix:
  transport: tcp
  client: p
Y
	run_matrix plan b.yaml; expect_rc 0
	mat c.yaml <<'Y'
name: c
programs:
  p:
    server: [srv, "{port}"]
    timeline:
      regex: '^(?<time>[0-9]+) (?<messages>[0-9]+) \1$'
matrix:
  pattern: stream
  transport: tcp
  server: p
  count: 100
Y
	run_matrix plan c.yaml; expect_rc 0
	sed -i 's/again \\1/again \\1 (x)/' b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:6:28: result: rtt_mean_us: the regex needs exactly one group"
}

# 64 KiB lines of "a" (NAME prints COUNT of them, then TEXT), as a
# program's words
long_lines() {
	printf '[sh, -c, '"'"'touch %s; l=$(head -c 65536 /dev/zero | tr "\\\\0" a); i=0; while [ $i -lt %s ]; do echo "$l"; i=$((i + 1)); done; %s'"'"']' "$1" "$2" "$3"
}

# a program server and client whose output holds 64 KiB lines, against
# regexes that must look at every start of such a line ("(a+a+)+b"
# nested, "a*a*...b" unanchored): each line matched on its first 4 KiB,
# the run ends within its timeout, ok, with the figure printed after them.
# Before, one such line took tens of seconds of regexec.
t_long_lines_are_matched_within_the_timeout() {
	mat m.yaml <<Y
name: longlines
repeat: 1
timeout: 20s
programs:
  srv:
    server: $(long_lines srv 6 'echo ready; exec sleep 29.61')
    ready: '^ready$|(a+a+)+b'
  cli:
    client: $(long_lines cli 6 'echo "mean 12.5 us"')
    result:
      rtt_mean_us: {regex: 'mean ([0-9.]+) us$|a*a*a*a*a*a*a*a*b', unit: us}
matrix:
  transport: tcp
  server: srv
  client: cli
  count: 100
Y
	local t0 t1
	t0=$(now_s)
	run_matrix run m.yaml -o out --quiet
	t1=$(now_s)
	expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv rtt_mean_us 12.5
	# generous, for a loaded machine: the run takes about a second
	le "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 15 ||
		die "the run took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s, over 15 s"
	[ "$(wc -c <out/logs/cell1-rep1-client1.log)" -gt $((6 * 65536)) ] ||
		die "the log lost the long lines: $(wc -c <out/logs/cell1-rep1-client1.log) bytes"
	expect_no_leftovers
}

# a program that prints long lines without end, against such a regex:
# SIGTERM ends the run at once (exit 130), not after minutes of regexec
t_endless_long_lines_answer_sigterm() {
	mat m.yaml <<Y
name: endless
repeat: 1
timeout: 60s
programs:
  srv:
    server: $READY_SERVER
    ready: '^ready$'
  cli:
    client: $(long_lines printing 1000000000 true)
    result:
      rtt_mean_us: {regex: 'mean ([0-9.]+) us$|a*a*a*a*a*a*a*a*b', unit: us}
matrix:
  transport: tcp
  server: srv
  client: cli
  count: 100
Y
	start_bg run m.yaml -o out --quiet
	wait_file printing
	sleep 1		# its output is being matched
	local t0 t1 i
	t0=$(now_s)
	kill -TERM "$mpid"
	for i in $(seq 200); do
		kill -0 "$mpid" 2>/dev/null || break
		sleep 0.05
	done
	t1=$(now_s)
	kill -0 "$mpid" 2>/dev/null && { kill -9 "$mpid"; die "the runner ignored SIGTERM for 10 s"; }
	rc=0
	wait "$mpid" || rc=$?
	expect_rc 130
	# generous, for a loaded machine: it takes well under a second
	le "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 8 ||
		die "SIGTERM took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
	expect_all out/results.csv status interrupted
	expect_no_leftovers
}

# libzmq missing: the row's error keeps dlerror's own text, colons and all
t_libzmq_load_error_is_verbatim() {
	mat m.yaml <<'Y'
name: nozmq
repeat: 1
warmup: 2
matrix:
  transport: zmq
  count: 10
Y
	MATRIX_LIBZMQ=/nonexistent/libzmq.so.5 run_matrix run m.yaml -o out --quiet
	expect_rc 1
	expect_all out/results.csv status "bind: cannot load libzmq"
	csvq out/results.csv error | grep -qF "dlopen /nonexistent/libzmq.so.5 (/nonexistent/libzmq.so.5: cannot open shared object file: No such file or directory): cannot load libzmq" ||
		die "error: $(csvq out/results.csv error)"
}

# the netns refusal is a matrix file's error: FILE:LINE:COL first, as the
# loader's, not after "matrix: "
t_netns_refusal_starts_with_the_place() {
	command -v setpriv >/dev/null || skip "setpriv missing"
	mat m.yaml <<'Y'
name: nocap
repeat: 1
matrix:
  transport: tcp
  count: 10
topology:
  netns: true
Y
	rc=0
	setpriv --bounding-set=-net_admin,-sys_admin "$MATRIX_BIN" run m.yaml -o out --quiet \
		>"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	head -1 "$T/.err" | grep -q '^m.yaml:6:1: topology: netns needs root' ||
		die "first line: $(head -1 "$T/.err")"
	[ ! -e out ] || die "a run folder was made"
}

# warmup: and spin: have a maximum, also through --set
t_warmup_and_spin_are_bounded() {
	printf 'name: b\nwarmup: 100000000\nmatrix:\n  transport: tcp\n  spin: 1s\n' >m.yaml
	run_matrix plan m.yaml; expect_rc 0
	run_matrix plan m.yaml --set warmup=18446744073709551615; expect_rc 2
	expect_err "warmup: '18446744073709551615' is too large: at most 100000000 messages per connection"
	run_matrix plan m.yaml --set spin=1h; expect_rc 2
	expect_err "spin: '1h' is too large: at most 1s"
}

# a bad MATRIX_SETUP_TIMEOUT fails only a matrix that has steps, naming
# the variable
t_setup_timeout_is_read_only_with_steps() {
	printf 'name: n\nrepeat: 1\nwarmup: 2\nmatrix:\n  transport: unix\n  count: 20\n' >plain.yaml
	MATRIX_SETUP_TIMEOUT=soon run_matrix plan plain.yaml; expect_rc 0
	MATRIX_SETUP_TIMEOUT=soon run_matrix run plain.yaml -o out --quiet; expect_rc 0
	mat steps.yaml <<Y
name: s
programs:
  srv:
    setup: [true]
    server: $READY_SERVER
    ready: '^ready$'
matrix:
  transport: tcp
  server: srv
Y
	MATRIX_SETUP_TIMEOUT=soon run_matrix plan steps.yaml; expect_rc 2
	expect_err "MATRIX_SETUP_TIMEOUT=soon: "
	expect_err "(the environment's time limit of a setup: or teardown: step)"
}

# --resume sets a program up again: its first log is kept, the second run's
# goes beside it, and a failure names the log it wrote
t_resume_keeps_the_setup_logs() {
	mat m.yaml <<Y
name: resumed
repeat: 1
warmup: 5
timeout: 30s
programs:
  srv:
    setup: [sh, -c, 'echo "setup run \$(cat runs 2>/dev/null)"; echo x >>runs']
    server: $READY_SERVER
    ready: '^ready$'
  early:
    client: [sh, -c, 'exit 0']
  sleeper:
    client: [sh, -c, 'touch sleeping; test -e go || exec sleep 28.75']
matrix:
  transport: tcp
  server: srv
  client: [early, sleeper]
  count: 100
Y
	start_bg run m.yaml -o out --order sequential
	wait_file sleeping
	kill -TERM "$mpid"
	rc=0
	wait "$mpid" || rc=$?
	expect_rc 130
	touch go
	run_matrix run --resume out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	grep -qx 'setup run ' out/logs/setup-srv.log || die "first log: $(cat out/logs/setup-srv.log)"
	[ -e out/logs/setup-srv.log.2 ] || die "no second log: $(ls out/logs)"
	grep -qx 'setup run x' out/logs/setup-srv.log.2 ||
		die "second log: $(cat out/logs/setup-srv.log.2)"
	expect_no_leftovers
}

# a cell whose every repetition failed says how many, and each reason
t_fully_failed_cell_names_every_reason() {
	mat m.yaml <<Y
name: allfail
repeat: 3
warmup: 2
timeout: 20s
programs:
  srv:
    server: $READY_SERVER
    ready: '^ready$'
  flaky:
    client: [sh, -c, 'n=\$(cat n 2>/dev/null || echo 0); echo \$((n + 1)) >n; exit \$((n % 2 + 1))']
matrix:
  transport: tcp
  server: srv
  client: flaky
  count: 100
Y
	run_matrix run m.yaml -o out --quiet --order sequential; expect_rc 1
	[ "$(csvq out/results.csv rep status | tr '\t\n' ': ')" = "1:exit 1 2:exit 2 3:exit 1 " ] ||
		die "rows: $(csvq out/results.csv rep status)"
	[ "$(csvq out/summary.csv status)" = "exit 1 ×2; exit 2 ×1 (all 3)" ] ||
		die "summary.csv status: $(csvq out/summary.csv status)"
	grep -qF 'failed: exit 1 ×2; exit 2 ×1 (all 3)' out/summary.md ||
		die "summary.md: $(grep -F 'failed' out/summary.md)"
}

# the link process killed while a repetition runs: that repetition fails at
# once as `link failed`, saying what killed it, not after its timeout; the
# link process is reaped, the later repetitions refused alike
t_link_killed_mid_repetition_fails_it_at_once() {
	local ns=mxe2e-$$ run="" link="" p i t0 t1
	ip netns add "$ns" 2>/dev/null || skip "cannot make a network namespace (ip netns add)"
	ip netns del "$ns"
	mat m.yaml <<'Y'
name: linkkilled
repeat: 2
timeout: 60s
matrix:
  transport: tcp
  count: 10000000
topology:
  netns: true
  link: {delay: 1ms}
Y
	start_bg run "$T/m.yaml" -o "$T/out" --quiet
	# namespaces named after the runner: removed on the way out whatever happens
	trap 'kill -9 $mpid 2>/dev/null; for s in s c; do [ -e /run/netns/matrix-$mpid-$s ] && ip netns del matrix-$mpid-$s; done; e2e_teardown' EXIT
	for i in $(seq 200); do	# a client in the clients' namespace: the repetition runs
		ps -eo args= | grep -F -- "--netns=matrix-$mpid-c" | grep -qv grep && break
		sleep 0.05
	done
	for p in $(ps -o pid= --ppid "$mpid"); do	# the child holding the TUN devices
		ls -l "/proc/$p/fd" 2>/dev/null | grep -q /dev/net/tun && link=$p
	done
	[ -n "$link" ] || die "no link process among the children of runner $mpid: $(cat "$T/.err")"
	t0=$(now_s)
	kill -9 "$link"
	rc=0
	wait "$mpid" || rc=$?
	t1=$(now_s)
	expect_rc 1
	[ "$(csvq out/results.csv rep status | tr '\t\n' ': ')" = "1:link failed 2:link failed " ] ||
		die "rows: $(csvq out/results.csv rep status error)"
	[ "$(csvq out/results.csv error | grep -cF "the link process (pid $link) crashed: SIGKILL: no packet crosses the link")" -eq 2 ] ||
		die "no reason: $(csvq out/results.csv rep error)"
	# generous, for a loaded machine: the repetition ends within a second or two
	le "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 20 ||
		die "the run took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s after the kill"
	for p in s c; do [ -e "/run/netns/matrix-$mpid-$p" ] && die "namespace matrix-$mpid-$p left"; done
	expect_no_leftovers
}
