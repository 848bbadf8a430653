# Memcheck (issue 11): matrix's own code under valgrind, with no memory
# error and no definite or indirect leak.
#
# A whole `matrix run` of real cells, the runner and every worker it starts
# traced; load and plan (with a programs: section) and the report of a run
# folder; and each worker role over several transports, started by hand as
# the runner starts them, their records read back as the runner reads them.
# valgrind 3.19 (Debian 12) does not know pidfd_open (syscall 434, ENOSYS):
# the runner then waits on its workers through its SIGCHLD fallback
# (launch/spawn.h), which the run below goes through.

VG_ERR=99	# valgrind's exit status when it found an error or a leak

# vg LOGNAME COMMAND...: the command under memcheck, its valgrind log in
# $T/vg/LOGNAME.log; children are followed (but not gnuplot)
vg() {
	local name=$1
	shift
	mkdir -p "$T/vg"
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=$VG_ERR --trace-children=yes --trace-children-skip='*gnuplot*' \
		--log-file="$T/vg/$name.%p.log" "$@"
}

# every valgrind log empty (-q: only errors and leaks are written), but
# for valgrind's own notes (--PID-- lines: "unhandled syscall: 434")
expect_clean_logs() {
	local f
	for f in "$T"/vg/*.log; do
		grep -qv '^--[0-9]*-- ' "$f" && die "valgrind report in ${f##*/}:
$(grep -v '^--[0-9]*-- ' "$f" | head -40)"
	done
	return 0
}

vg_setup() {
	command -v valgrind >/dev/null || die "valgrind missing: it is in DEPS_DEB (make deps)"
	case "${BUILD_TAG:-}" in
	asan) skip "valgrind cannot run an ASan build; the release build's run is the check" ;;
	esac
}

# Load, plan and report: the runner's code that does not wait on workers.
t_valgrind_runner_plan_and_report() {
	vg_setup
	mat m.yaml <<'Y'
name: vg
repeat: 2
warmup: 2
matrix:
  transport: [unix, tcp]
  pattern: [pingpong, stream]
  count: 200
report:
  ratios:
    - {dimension: transport, numerator: unix, denominator: tcp}
Y
	rc=0
	vg plan "$MATRIX_BIN" plan m.yaml >plan.out 2>plan.err || rc=$?
	[ "$rc" -eq 0 ] || die "plan under valgrind: exit $rc: $(cat plan.err)"
	grep -q '^4 cells' plan.out || die "plan: $(tail -1 plan.out)"
	rc=0
	vg programs "$MATRIX_BIN" plan "$REPO/matrices/byo_example.yaml" >/dev/null 2>plan.err || rc=$?
	[ "$rc" -eq 0 ] || die "plan of byo_example under valgrind: exit $rc: $(cat plan.err)"
	# a bad matrix: the error path frees what it made
	printf 'name: bad\nmatrix:\n  transport: [unix, tpc]\n' >bad.yaml
	rc=0
	vg bad "$MATRIX_BIN" plan bad.yaml >/dev/null 2>bad.err || rc=$?
	[ "$rc" -eq 2 ] || die "bad matrix under valgrind: exit $rc: $(cat bad.err)"
	"$MATRIX_BIN" run m.yaml -o d -q >/dev/null 2>run.err || die "native run: $(cat run.err)"
	expect_all d/results.csv status ok
	rm -f d/summary.csv d/summary.md
	rc=0
	vg report "$MATRIX_BIN" report d >/dev/null 2>report.err || rc=$?
	[ "$rc" -eq 0 ] || die "report under valgrind: exit $rc: $(cat report.err)"
	[ -s d/summary.csv ] && [ -s d/summary.md ] || die "report wrote no summary"
	expect_clean_logs
}

# vg_cell TRANSPORT PATTERN BIND: a server for two connections and two
# clients, every one under memcheck; each record must read back whole.
vg_cell() {
	local t=$1 p=$2 bind=$3 sp c1 rs=0 r1=0 r2=0 addr i
	local tool=$BUILD_DIR/tests/wire_check
	rm -f srv.wire cli1.wire cli2.wire
	vg "server-$t-$p" "$MATRIX_BIN" worker server -t "$t" -p "$p" -b "$bind" -w 2 -c 2 \
		>srv.wire 2>srv.err &
	sp=$!
	for i in $(seq 1 200); do	# valgrind starts slowly
		grep -q '^listen ' srv.wire 2>/dev/null && break
		sleep 0.05
	done
	addr=$(sed -n 's/^listen address=//p' srv.wire)
	[ -n "$addr" ] || { kill "$sp"; die "$t $p: the server never listened: $(cat srv.err)"; }
	vg "client1-$t-$p" "$MATRIX_BIN" worker client -t "$t" -p "$p" -a "$addr" -n 100 -w 2 --id 1 \
		>cli1.wire 2>cli1.err &
	c1=$!
	vg "client2-$t-$p" "$MATRIX_BIN" worker client -t "$t" -p "$p" -a "$addr" -n 100 -w 2 --id 2 \
		>cli2.wire 2>cli2.err || r2=$?
	wait "$c1" || r1=$?
	wait "$sp" || rs=$?
	[ "$rs$r1$r2" = 000 ] || die "$t $p: exit server $rs, clients $r1 $r2: $(cat srv.err cli1.err cli2.err)"
	for i in srv cli1 cli2; do
		[ "$("$tool" "$i.wire")" = "$i.wire: $(wc -l <"$i.wire") lines, ended" ] ||
			die "$t $p: $i's record: $("$tool" "$i.wire")"
	done
}

# Each worker role, over a stream socket, TCP, a datagram transport, zmq
# and shared memory.
t_valgrind_workers() {
	vg_setup
	vg_cell unix pingpong "$T/s.sock"
	vg_cell tcp stream 127.0.0.1:0
	vg_cell udp echo 127.0.0.1:0
	vg_cell zmq pingpong 127.0.0.1:0
	vg_cell shm echo "$T/m.sock"
	expect_clean_logs
	expect_no_leftovers
}

# One whole `matrix run` of real cells: the runner, each worker it starts
# (unix and tcp, pingpong and stream) and a program server (our worker run
# as one) all under memcheck, every one clean; every row ok.
t_valgrind_matrix_run() {
	vg_setup
	mat m.yaml <<'Y'
name: vgrun
repeat: 1
warmup: 2
matrix:
  transport: [unix, tcp]
  pattern: [pingpong, stream]
  count: 200
Y
	mat p.yaml <<Y
name: vgprog
repeat: 1
warmup: 2
programs:
  ours:
    server: [$MATRIX_BIN, worker, server, -t, tcp, -p, echo, -s, "{size}", -w, "2", -b, "127.0.0.1:{port}", -c, "1"]
matrix:
  transport: tcp
  pattern: echo
  server: ours
  client: builtin
  count: 200
Y
	local rc1=0 rc2=0 logs
	vg run "$MATRIX_BIN" run m.yaml -o d -q >/dev/null 2>run.err || rc1=$?
	vg prog "$MATRIX_BIN" run p.yaml -o p -q >/dev/null 2>prog.err || rc2=$?
	expect_clean_logs	# first: a worker's finding is why its row failed
	[ "$rc1" -eq 0 ] || die "run under valgrind: exit $rc1: $(tail -5 run.err)"
	[ "$rc2" -eq 0 ] || die "program run under valgrind: exit $rc2: $(tail -5 prog.err)"
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv --rows)" -eq 4 ] || die "$(csvq d/results.csv --rows) rows, not 4"
	expect_all p/results.csv status ok
	# the runner, its guard and two workers a cell were followed
	logs=$(find "$T/vg" -name 'run.*.log' | wc -l)
	[ "$logs" -ge 10 ] || die "$logs valgrind logs of the run: its workers were not traced"
	expect_no_leftovers
}
