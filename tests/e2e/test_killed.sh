# Issue 11, items 3-5: a killed runner leaves nothing running, program
# output is bounded, and a program server's readiness uses up none of its
# connections.

# pid pgid state of every process whose parent chain reaches one of the
# pids given (the pids themselves included)
tree_of() {
	ps -eo pid=,ppid=,pgid=,stat= | awk -v roots=" $* " '
		{ pp[$1] = $2; pg[$1] = $3; st[$1] = $4 }
		END {
			for (p in pp) {
				q = p
				while (q > 1 && index(roots, " " q " ") == 0) q = pp[q]
				if (q > 1) print p, pg[p], st[p]
			}
		}'
}

# What the test saw of its runs is killed on the way out when the test
# failed before seeing it end, so that a failing test (or the old code)
# leaves no `sleep 1000` behind; once seen gone, the lists are emptied (a
# pid that ended may be another's by then).
KILLED_PGIDS="" RUNNERS="" SEEN=""
kill_seen() {
	local g
	for g in $RUNNERS $(awk '{ print $1 }' <<<"$SEEN"); do kill -9 "$g" 2>/dev/null; done
	for g in $KILLED_PGIDS; do kill -9 -- "-$g" 2>/dev/null; done
	e2e_teardown
}

# The program groups among "pid pgid state" lines (not the test's own
# group, which the runners share).
groups_of() {
	local own
	own=$(ps -o pgid= -p $$ | tr -d ' ')
	awk -v own="$own" '$2 != own { print $2 }' <<<"$1" | sort -u | tr '\n' ' '
}

# The processes among "pid pgid state" lines, and those in the groups
# given, that still run (a zombie has ended: pid 1 may not reap it).
still_running() {
	local p pg st
	while read -r p pg st; do
		st=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$p/stat" 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] && echo "$p"
	done <<<"$1"
	for pg in $2; do
		ps -eo pgid=,stat=,pid= | awk -v g="$pg" '$1 == g && $2 !~ /^Z/ { print $3 }'
	done
}

# waits until N processes run `sleep 1000` under the runners given
wait_for_sleepers() {
	local n=$1 i; shift
	for i in $(seq 1 100); do
		[ "$(tree_of "$@" | awk '{ print $1 }' | while read -r p; do
			tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null; echo; done |
			grep -c '^sleep 1000 $')" -ge "$n" ] && return 0
		sleep 0.05
	done
	die "the programs never started under $*: $(tree_of "$@")"
}

# kill -9 of the runner while program servers (socat with fork, a `sh -c`
# that starts children) and program clients (sleep 1000) run: within a
# second no process of either run is left, nor a socket folder, and
# `matrix report` says the runner is gone.
t_killed_runner_leaves_nothing() {
	command -v socat >/dev/null || skip "socat missing"
	trap kill_seen EXIT
	mat a.yaml <<'Y'
name: killed_fork
repeat: 2
timeout: 60s
programs:
  forking:
    server: [socat, "TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork", "EXEC:sleep 1000"]
  holding:
    client: [socat, -u, "TCP:{host}:{port}", "EXEC:sleep 1000"]
matrix:
  pattern: echo
  transport: tcp
  server: forking
  client: holding
  concurrency: 2
  count: 10
Y
	mat b.yaml <<'Y'
name: killed_wrap
repeat: 2
timeout: 60s
programs:
  wrapper:
    server: [sh, -c, 'sleep 1000 & socat "UNIX-LISTEN:$0,fork" EXEC:cat; wait', "{path}"]
  sleeper:
    client: [sleep, "1000"]
matrix:
  pattern: echo
  transport: unix
  server: wrapper
  client: sleeper
  concurrency: 2
  count: 10
Y
	"$MATRIX_BIN" run a.yaml -o da -q >/dev/null 2>erra &
	local pa=$!
	"$MATRIX_BIN" run b.yaml -q >/dev/null 2>errb &
	local pb=$!
	RUNNERS="$pa $pb"
	wait_for_sleepers 4 "$pa"	# 2 from the server's forks, 2 from the clients
	wait_for_sleepers 3 "$pb"	# the wrapper's and 2 clients
	local seen
	seen=$(tree_of "$pa" "$pb")
	KILLED_PGIDS=$(groups_of "$seen") SEEN=$seen
	# while it runs, report says it is still going
	run_matrix report da; expect_rc 0
	expect_err "matrix report: da: its run is still going (runner pid $pa)"
	grep -qF "| run status | still running (runner pid $pa) |" da/summary.md ||
		die "summary.md of a live run: $(grep 'run status' da/summary.md)"
	kill -9 "$pa" "$pb"
	wait "$pa" "$pb" 2>/dev/null
	RUNNERS=""
	local left i
	for i in $(seq 1 20); do
		left=$(still_running "$seen" "$KILLED_PGIDS")
		[ -z "$left" ] && [ -z "$(ls -A "$TMPDIR")" ] && break
		sleep 0.05
	done
	[ -z "$left" ] || die "a second after kill -9 of the runners, still running: $(ps -o pid,pgid,stat,args -p "$(echo $left | tr ' ' ,)")"
	KILLED_PGIDS="" SEEN="" RUNNERS=""
	[ -z "$(ls -A "$TMPDIR")" ] || die "socket folder left: $(ls -AR "$TMPDIR")"
	# the folders say the runner is gone
	run_matrix report da; expect_rc 0
	expect_err "matrix report: da: its run was killed: its runner (pid $pa) is gone"
	grep -qF "| run status | killed: its runner (pid $pa) ended before the run did |" da/summary.md ||
		die "summary.md: $(grep 'run status' da/summary.md)"
	grep -qF "**A partial run:** its runner was killed before the end" da/summary.md ||
		die "summary.md does not say the run is partial"
	[ "$(csvq da/meta.csv key value | grep -c "^runner_pid$(printf '\t')$pa$")" -eq 1 ] ||
		die "meta.csv lacks runner_pid $pa"
	# a later run of the same name says the run before was killed
	local before
	before=$(readlink results/killed_wrap/latest)
	mat c.yaml <<'Y'
name: killed_wrap
repeat: 1
matrix:
  transport: unix
  count: 10
Y
	run_matrix run c.yaml -q; expect_rc 0
	expect_err "matrix run: results/killed_wrap/latest: its run was killed: its runner (pid $pb) is gone"
	[ "$(readlink results/killed_wrap/latest)" != "$before" ] || die "latest not moved"
	# and an -o folder of a killed run is refused, saying so
	run_matrix run a.yaml -o da -q; expect_rc 2
	expect_err "matrix run: da: its run was killed: its runner (pid $pa) is gone"
}

# With the guard killed too, the socket folder of the killed run is removed
# by the next `matrix report` of its folder (only that folder, found by
# meta.csv's socket_dir), and our own workers still die with the runner.
t_report_removes_killed_runs_socket_folder() {
	trap kill_seen EXIT
	mat m.yaml <<'Y'
name: killed_builtin
repeat: 1
timeout: 60s
matrix:
  pattern: stream
  transport: unix
  concurrency: 2
  duration: 30s
Y
	"$MATRIX_BIN" run m.yaml -o d -q >/dev/null 2>err &
	local pa=$! i seen p
	RUNNERS=$pa
	for i in $(seq 1 100); do
		[ "$(ps -o pid= --ppid "$pa" | wc -l)" -ge 4 ] && break	# guard, server, 2 clients
		sleep 0.05
	done
	seen=$(tree_of "$pa")
	KILLED_PGIDS=$(groups_of "$seen") SEEN=$seen
	[ -n "$(ls -A "$TMPDIR")" ] || die "no socket folder while running"
	mkdir "$TMPDIR/matrix.keepme"	# not the run's: stays
	# the guard: the child in a session of its own
	for p in $(ps -o pid= --ppid "$pa"); do
		[ "$(ps -o sid= -p "$p" | tr -d ' ')" = "$p" ] && kill -9 "$p"
	done
	kill -9 "$pa"
	wait "$pa" 2>/dev/null
	RUNNERS=""
	local left
	for i in $(seq 1 20); do
		left=$(still_running "$seen" "")
		[ -z "$left" ] && break
		sleep 0.05
	done
	[ -z "$left" ] || die "workers outlived the runner: $(ps -o pid,stat,args -p "$(echo $left | tr ' ' ,)")"
	KILLED_PGIDS="" SEEN="" RUNNERS=""
	[ "$(ls -A "$TMPDIR" | wc -l)" -eq 2 ] || die "TMPDIR: $(ls -A "$TMPDIR")"
	run_matrix report d
	expect_err "matrix report: d: its run was killed: its runner (pid $pa) is gone"
	[ "$(ls -A "$TMPDIR")" = matrix.keepme ] || die "TMPDIR after report: $(ls -A "$TMPDIR")"
	# a forged meta.csv naming another run's socket folder (this shell's, a
	# live runner's as far as its owner entry says): that folder stays
	local live="$TMPDIR/matrix.live01"
	mkdir -m 700 "$live"
	: >"$live/c1-r1.sock"
	mkdir "$live/owner.$$.1"
	cp -a d forged
	sed -i "s|^socket_dir,.*|socket_dir,$live|" forged/meta.csv
	grep -qx "socket_dir,$live" forged/meta.csv || die "no socket_dir in forged/meta.csv"
	run_matrix report forged
	expect_err "matrix report: forged: its run was killed"
	[ -e "$live/c1-r1.sock" ] || die "a forged meta.csv removed another run's socket"
	# a forged meta.csv naming a live runner (this shell) and its own socket
	# folder, with another boot_id: the runner is alive on this boot, so
	# its folder stays
	local start
	start=$(sed 's/^.*) //' /proc/$$/stat | cut -d' ' -f20)
	mkdir "$live/owner.$$.$start"
	sed -i -e "s|^runner_pid,.*|runner_pid,$$|" -e "s|^runner_start,.*|runner_start,$start|" \
		-e "s|^boot_id,.*|boot_id,another-boot|" forged/meta.csv
	grep -qx "runner_start,$start" forged/meta.csv || die "no runner_start in forged/meta.csv"
	run_matrix report forged
	[ -e "$live/c1-r1.sock" ] || die "a forged boot_id removed a live runner's socket"
	return 0
}

# A program server that serves one connection (socat without fork, our own
# worker run as a program) is seen ready without a connection, so its one
# connection is left for the client: every repetition is ok, over tcp and
# over unix.
t_one_connection_servers_are_ready_without_a_connection() {
	command -v socat >/dev/null || skip "socat missing"
	mat tcp.yaml <<Y
name: once_tcp
repeat: 3
warmup: 5
programs:
  once:
    server: [socat, "TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr", "EXEC:cat"]
  ours:
    server: [$MATRIX_BIN, worker, server, -t, tcp, -p, echo, -s, "{size}", -w, "5", -b, "127.0.0.1:{port}", -c, "1"]
matrix:
  pattern: echo
  transport: tcp
  server: [once, ours]
  client: builtin
  count: 200
Y
	run_matrix run tcp.yaml -o t -q; expect_rc 0
	expect_all t/results.csv status ok
	[ "$(csvq t/results.csv --rows)" -eq 6 ] || die "$(csvq t/results.csv --rows) rows, not 6"
	mat unix.yaml <<'Y'
name: once_unix
repeat: 3
warmup: 5
programs:
  once:
    server: [socat, "UNIX-LISTEN:{path}", "EXEC:cat"]
matrix:
  pattern: echo
  transport: unix
  server: once
  client: builtin
  count: 200
Y
	run_matrix run unix.yaml -o u -q; expect_rc 0
	expect_all u/results.csv status ok
	[ "$(csvq u/results.csv --rows)" -eq 3 ] || die "$(csvq u/results.csv --rows) rows, not 3"
	expect_no_leftovers
}

# A program's output is kept in its log up to 1 MiB, then a marker line;
# the rest is still read (the program never blocks) and still matched: a
# server's `ready:` line and a client's result printed after megabytes of
# noise are found.
t_program_logs_are_capped() {
	command -v socat >/dev/null || skip "socat missing"
	mat m.yaml <<'Y'
name: capped
repeat: 2
warmup: 5
timeout: 20s
programs:
  noisy:
    server: [sh, -c, 'head -c 3000000 /dev/zero | tr "\0" x; echo; echo listening; yes & exec socat "TCP-LISTEN:$0,bind=127.0.0.1,reuseaddr,fork" EXEC:cat', "{port}"]
    ready: '^listening$'
  chatty:
    client: [sh, -c, 'yes | head -c 30000000; echo "avg rtt 42.5 us"']
    result:
      rtt_mean_us: {regex: '^avg rtt ([0-9.]+) us$', unit: us}
matrix:
  pattern: echo
  transport: tcp
  server: noisy
  client: chatty
  count: 10
Y
	run_matrix run m.yaml -o d -q; expect_rc 0
	expect_all d/results.csv status ok
	expect_all d/results.csv rtt_mean_us 42.5
	local f n cap=1048576
	for f in d/logs/*-client1.log d/logs/*-server.log; do
		n=$(stat -c %s "$f")
		[ "$n" -le $((cap + 80)) ] || die "$f: $n bytes, over the cap"
		tail -n 1 "$f" | grep -Eq '^\[matrix: log cut at 1 MiB; [0-9]+ more bytes dropped\]$' ||
			die "$f ends: $(tail -c 100 "$f")"
	done
	# the client printed 30000000 + 16 bytes: all but the first MiB dropped
	for f in d/logs/*-client1.log; do
		[ "$(tail -n 1 "$f")" = "[matrix: log cut at 1 MiB; $((30000016 - cap)) more bytes dropped]" ] ||
			die "$f: $(tail -n 1 "$f")"
		[ "$(head -c $cap "$f" | tr -d 'y\n' | wc -c)" -eq 0 ] || die "$f: not the output's first MiB"
	done
	expect_no_leftovers
}
