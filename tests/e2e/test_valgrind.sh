# Memcheck (issue 11): matrix's own code under valgrind, with no memory
# error and no definite or indirect leak.
#
# The runner cannot run cells under valgrind 3.19 (Debian 12): valgrind
# does not know pidfd_open (syscall 434, ENOSYS), which the runner needs
# to wait on its workers.  So the run is taken apart: the runner's side
# (load and plan, with a programs: section; the report of a real run
# folder, gnuplot left out) and each worker role over several transports,
# the server and two clients started by hand as the runner starts them,
# their records read back as the runner reads them.

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

# every valgrind log empty (-q: only errors and leaks are written)
expect_clean_logs() {
	local f
	for f in "$T"/vg/*.log; do
		[ -s "$f" ] && die "valgrind report in ${f##*/}:
$(head -40 "$f")"
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

# Each worker role, over a stream socket, TCP, a datagram transport and zmq.
t_valgrind_workers() {
	vg_setup
	vg_cell unix pingpong "$T/s.sock"
	vg_cell tcp stream 127.0.0.1:0
	vg_cell udp echo 127.0.0.1:0
	vg_cell zmq pingpong 127.0.0.1:0
	expect_clean_logs
	expect_no_leftovers
}
