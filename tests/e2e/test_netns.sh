# Issue 15, emulated links: topology: netns runs the cells between two
# network namespaces of the runner's joined by an emulated link (link:
# delay, jitter, rate, loss as dimensions), and removes them afterwards,
# also those a killed runner left, at the next start.

# skips unless this machine lets the test make a network namespace
need_netns() {
	local ns=mxe2e-$$
	ip netns add "$ns" 2>/dev/null || skip "cannot make a network namespace (ip netns add)"
	ip netns del "$ns"
}

# The namespaces of the runners this test started (by pid), removed on the
# way out whatever happened, then the usual teardown.
RUNNER_PIDS=""
netns_cleanup() {
	local p s
	[ -e "/run/netns/mxe2e-tc-$$" ] && ip netns del "mxe2e-tc-$$"
	for p in $RUNNER_PIDS; do
		kill -9 "$p" 2>/dev/null
		for s in s c; do
			[ -e "/run/netns/matrix-$p-$s" ] && ip netns del "matrix-$p-$s"
		done
	done
	e2e_teardown
}

# the runner_pid of a run folder
runner_pid() { awk -F, '$1 == "runner_pid" { print $2 }' "$1/meta.csv"; }

# start_link_run ARGS...: runs ARGS in the background (job $JOB) and waits
# until the runner (pid $RUN, read from its meta.csv: $! may be a subshell
# of bash's) has a client in its clients' namespace
start_link_run() {
	local i
	"$@" &
	JOB=$! RUN=""
	for i in $(seq 200); do
		[ -z "$RUN" ] && [ -s out/meta.csv ] && RUN=$(runner_pid out) && RUNNER_PIDS=$RUN
		[ -n "$RUN" ] && ps -eo args= | grep -F -- "--netns=matrix-$RUN-c" | grep -qv grep &&
			return 0
		sleep 0.05
	done
	die "no client in a namespace of runner '$RUN' in 10 s"
}

# slow_link_run NAME: the test's namespaces (or skip), its cleanup, and
# m.yaml: a run far longer than any test (a tcp pingpong over 5 ms), to
# be stopped
slow_link_run() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<Y
name: $1
repeat: 1
matrix:
  transport: tcp
  count: 100000
topology:
  netns: true
  link: {delay: 5ms}
Y
}

# no namespace of runner $1 and no process of this test's files left
expect_link_gone() {
	local left
	[ -e "/run/netns/matrix-$1-s" ] || [ -e "/run/netns/matrix-$1-c" ] &&
		die "namespaces of runner $1 left: $(ls /run/netns | grep "matrix-$1-")"
	left=$(own_procs "$T/")
	[ -z "$left" ] || die "processes left behind: $left"
}

# a 2 ms link adds 4 ms to a round trip; 0 ms adds next to nothing; one row
# per value of the delay dimension, its column after placement, its label
# in the report; nothing left afterwards
t_netns_delay_is_in_the_round_trip() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: link
repeat: 1
warmup: 10
matrix:
  transport: [tcp, udp]
  size: 64
  count: 150
  loss_timeout: 1s     # a busy machine's stall is no lost udp reply
topology:
  netns: true
  link: {delay: [0ms, 2ms]}
Y
	run_matrix run "$T/m.yaml" -o "$T/out" --quiet; expect_rc 0
	RUNNER_PIDS=$(runner_pid out)
	expect_all out/results.csv status ok
	# (columns added later come between the machine's state and the link's)
	head -1 out/results.csv | grep -q ',placement,steal_pct,iowait_pct,runnable,cpu_mhz,other_cpus,.*,link_delay$' ||
		die "link_delay is not the last column, after the machine's state: $(head -1 out/results.csv)"
	[ "$(csvq out/results.csv transport link_delay | sort | tr '\t\n' ': ')" = \
	  "tcp:0 tcp:0.002 udp:0 udp:0.002 " ] || die "rows: $(csvq out/results.csv transport link_delay)"
	# the upper bounds on the fastest round trip: a busy machine (make
	# test's two builds, other jobs) delays many, doubling the median, but
	# hardly all of them
	local t d p50 min
	while IFS=$'\t' read -r t d p50 min; do
		if [ "$d" = 0.002 ]; then
			le 4000 "$p50" || die "$t over a 2 ms link: p50 $p50 us, under 4 ms"
			le "$min" 5000 || die "$t over a 2 ms link: fastest $min us, far over 4 ms"
		else
			le "$min" 1000 || die "$t over a 0 ms link: fastest $min us"
		fi
	done < <(csvq out/results.csv transport link_delay rtt_p50_us rtt_min_us)
	grep -q '^| link_delay | tcp | udp | udp/tcp |$' out/summary.md ||
		die "no link_delay rows in summary.md: $(grep -m3 '^| ' out/summary.md)"
	grep -q '^| 2ms |' out/summary.md || die "no 2ms label in summary.md"
	grep -qx 'topology,netns' out/meta.csv || die "meta.csv: no topology,netns"
	expect_link_gone "$RUNNER_PIDS"
	expect_no_leftovers
	# --only, exclude: and the report read the link dimension like any other
	run_matrix run "$T/m.yaml" -o "$T/only" --quiet --only link_delay=2ms --only transport=udp
	expect_rc 0
	RUNNER_PIDS="$RUNNER_PIDS $(runner_pid only)"
	[ "$(csvq only/results.csv cell link_delay | tr '\t\n' ': ')" = "4:0.002 " ] ||
		die "--only link_delay=2ms: $(csvq only/results.csv cell link_delay)"
	expect_link_gone "$(runner_pid only)"
}

# jitter reorders, as netem's does (each packet its own due time): a udp
# stream's receiver counts datagrams out of order; tcp still carries
# every byte over it, in order
t_netns_jitter_reorders_and_tcp_copes() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: jitter
repeat: 1
matrix:
  pattern: stream
  transport: [tcp, udp]
  size: 512
  count: 3000
  allow_loss: true
topology:
  netns: true
  link: {delay: 1ms, jitter: 1ms}
Y
	run_matrix run "$T/m.yaml" -o "$T/out" --quiet; expect_rc 0
	RUNNER_PIDS=$(runner_pid out)
	expect_all out/results.csv status ok
	local t msgs re
	while IFS=$'\t' read -r t msgs re; do
		case $t in
		tcp) [ "$msgs" = 3000 ] || die "tcp over a jittery link: $msgs of 3000 messages" ;;
		udp) [ "$re" -gt 0 ] 2>/dev/null ||
			die "udp over 1ms +- 1ms of jitter: reordered '$re', none out of order" ;;
		esac
	done < <(csvq out/results.csv transport messages reordered)
	expect_link_gone "$RUNNER_PIDS"
}

# the link process's CPU time is its own column, link_cpu_s, before the
# link's keys, > 0 for a cell whose packets it carried; a run without
# topology: has no such column; the report reads the folder
t_netns_link_cpu_is_its_own_column() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: linkcpu
repeat: 2
matrix:
  transport: [tcp, udp]
  size: 64
  count: 300
topology:
  netns: true
  link: {delay: 0ms}
Y
	MATRIX_LINK=user run_matrix run "$T/m.yaml" -o "$T/out" --quiet; expect_rc 0
	RUNNER_PIDS=$(runner_pid out)
	expect_all out/results.csv status ok
	head -1 out/results.csv | grep -q ',other_cpus,.*,link_cpu_s,link_delay$' ||
		die "link_cpu_s is not before the link's keys: $(head -1 out/results.csv)"
	local t rep cpu
	while IFS=$'\t' read -r t rep cpu; do
		awk -v c="$cpu" 'BEGIN { exit !(c > 0 && c < 60) }' ||
			die "$t rep $rep: link_cpu_s '$cpu' for 300 round trips over the link"
	done < <(csvq out/results.csv transport rep link_cpu_s)
	[ "$(csvq out/results.csv link_cpu_s | wc -l)" = 4 ] || die "rows: $(csvq out/results.csv rep link_cpu_s)"
	run_matrix report out --quiet; expect_rc 0
	mat n.yaml <<'Y'
name: nolink
repeat: 1
matrix:
  transport: tcp
  count: 10
Y
	run_matrix run "$T/n.yaml" -o "$T/plain" --quiet; expect_rc 0
	head -1 plain/results.csv | grep -q link_cpu_s && die "link_cpu_s without topology:"
	expect_link_gone "$RUNNER_PIDS"
}

# tcp6 over the link: the devices have fd77::1 and fd77::2 (meta.csv says
# so), the server binds [fd77::1], a 2 ms link adds 4 ms to its round trip
t_netns_tcp6_crosses_the_link() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: link6
repeat: 1
matrix:
  transport: [tcp6, tcp]
  size: 64
  count: 100
topology:
  netns: true
  link: {delay: 2ms}
Y
	run_matrix run "$T/m.yaml" -o "$T/out" --quiet
	RUNNER_PIDS=$(runner_pid out)
	grep -q 'link failed.*no IPv6' out/results.csv && skip "this kernel gives the link no IPv6: $(csvq out/results.csv error | head -1)"
	expect_rc 0
	expect_all out/results.csv status ok
	grep -qx "netns_server,matrix-$RUNNER_PIDS-s 10.77.0.1 fd77::1" out/meta.csv ||
		die "meta.csv: $(grep netns_ out/meta.csv)"
	local t min
	while IFS=$'\t' read -r t min; do
		le 4000 "$min" || die "$t over a 2 ms link: fastest round trip $min us, under 4 ms"
	done < <(csvq out/results.csv transport rtt_min_us)
	expect_link_gone "$RUNNER_PIDS"
}

# "" when this kernel can put a netem qdisc on a veth, else why not (tc's
# words); the scratch namespace goes again
netem_missing() {
	local ns=mxe2e-netem-$$ why
	ip netns add "$ns" 2>/dev/null || { echo "cannot make a network namespace"; return; }
	why=$(ip -n "$ns" link add mxa type veth peer name mxb 2>&1 &&
		tc -n "$ns" qdisc add dev mxa root netem delay 1ms 2>&1)
	[ $? -eq 0 ] || echo "${why:-failed}"
	ip netns del "$ns"
}

# where the kernel has no sch_netem (this test machine): the user-space
# link, meta.csv saying so and why; MATRIX_LINK=user forces it, a wrong
# MATRIX_LINK is refused, MATRIX_LINK=netem insists
t_netns_link_emulator_falls_back_saying_why() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: fallback
repeat: 1
matrix:
  transport: udp
  count: 20
topology:
  netns: true
  link: {delay: 1ms}
Y
	local missing
	missing=$(netem_missing)
	run_matrix run "$T/m.yaml" -o "$T/out" --quiet; expect_rc 0
	RUNNER_PIDS=$(runner_pid out)
	expect_all out/results.csv status ok
	if [ -n "$missing" ]; then
		grep -q '^link_emulator,tun: the runner.s link process (launch/link.h); not netem: tc -n matrix-[0-9]*-s qdisc add dev mxlink root netem limit 4096: .*Specified qdisc kind is unknown' out/meta.csv ||
			die "no netem ($missing): $(grep link_emulator out/meta.csv)"
		MATRIX_LINK=netem run_matrix run "$T/m.yaml" -o "$T/insist" --quiet; expect_rc 2
		expect_err "matrix: MATRIX_LINK=netem: tc -n matrix-"
		[ ! -e insist ] || die "a run folder was made without the link it insisted on"
	else
		grep -q '^link_emulator,netem: tc netem on a veth pair mxlink' out/meta.csv ||
			die "netem is there: $(grep link_emulator out/meta.csv)"
	fi
	MATRIX_LINK=user run_matrix run "$T/m.yaml" -o "$T/user" --quiet; expect_rc 0
	RUNNER_PIDS="$RUNNER_PIDS $(runner_pid user)"
	grep -qx 'link_emulator,tun: the runner.s link process (launch/link.h); not netem: MATRIX_LINK=user' user/meta.csv ||
		die "MATRIX_LINK=user: $(grep link_emulator user/meta.csv)"
	MATRIX_LINK=kernel run_matrix run "$T/m.yaml" -o "$T/bad" --quiet; expect_rc 2
	expect_err "matrix: MATRIX_LINK=kernel: expected auto (netem where the kernel has it), netem or user"
	[ ! -e bad ] || die "a run folder was made with a wrong MATRIX_LINK"
	expect_link_gone "$(runner_pid out)"
	expect_link_gone "$(runner_pid user)"
}

# the netem path with a tc that only says what it was asked (real ip, a
# real veth pair): one del and one add of the cell's netem on each end
# before every repetition, link_cpu_s empty (no process of ours); then the
# real tc takes every add line (its parser runs before the kernel's
# answer: "Specified qdisc kind is unknown" here, not "Illegal ...")
t_netns_netem_commands_are_tc_netems() {
	need_netns
	trap netns_cleanup EXIT
	mkdir bin
	printf '#!/bin/sh\necho "$*" >>%s/tc.log\n' "$T" >bin/tc
	chmod +x bin/tc
	mat m.yaml <<'Y'
name: netemcmds
repeat: 2
matrix:
  transport: tcp
  size: 64
  count: 50
topology:
  netns: true
  link: {delay: 2ms, jitter: 0.5ms, rate: 100mbit, loss: [0%, 0.1%]}
Y
	PATH="$T/bin:$PATH" run_matrix run "$T/m.yaml" -o "$T/out" --quiet; expect_rc 0
	RUNNER_PIDS=$(runner_pid out)
	expect_all out/results.csv status ok
	local pid=$RUNNER_PIDS
	grep -qx 'link_emulator,netem: tc netem on a veth pair mxlink between them' out/meta.csv ||
		die "link_emulator: $(grep link_emulator out/meta.csv)"
	[ -z "$(csvq out/results.csv link_cpu_s | tr -d '\n')" ] || die "link_cpu_s with netem: $(csvq out/results.csv link_cpu_s)"
	local want="" s c rep loss
	for s in s c; do	# netem_open: the qdisc with no delay on each end
		want+="-n matrix-$pid-$s qdisc add dev mxlink root netem limit 4096"$'\n'
	done
	while IFS=$'\t' read -r c rep loss; do
		for s in s c; do
			want+="-n matrix-$pid-$s qdisc del dev mxlink root"$'\n'
			want+="-n matrix-$pid-$s qdisc add dev mxlink root netem limit 4096 delay 2000.000us 500.000us"
			[ "$loss" = 0 ] || want+=" loss random 0.100000%"
			want+=" rate 100000000bit"$'\n'
		done
	done < <(csvq out/results.csv cell rep link_loss)
	[ "$(cat tc.log)"$'\n' = "$want" ] || die "tc was asked:
$(cat tc.log)
not:
$want"
	expect_link_gone "$pid"
	local ns=mxe2e-tc-$$ line out
	ip netns add "$ns" && ip -n "$ns" link add mxlink type veth peer name mxpeer || die "no scratch veth"
	while read -r line; do
		case $line in *" add "*) ;; *) continue ;; esac
		out=$(tc -n "$ns" ${line#-n * } 2>&1) && { tc -n "$ns" qdisc del dev mxlink root; continue; }
		case $out in *"Specified qdisc kind is unknown"*) ;; *) die "tc $line: $out" ;; esac
	done <tc.log
}

# with the kernel's netem (sch_netem): a 2 ms link adds 4 ms to a round
# trip, the flush between repetitions is netem's qdisc deleted and added
t_netns_netem_link_where_the_kernel_has_it() {
	need_netns
	local missing
	missing=$(netem_missing)
	[ -z "$missing" ] || skip "no netem in this kernel: $missing"
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: netem
repeat: 2
matrix:
  transport: [tcp, udp, tcp6]
  size: 64
  count: 100
topology:
  netns: true
  link: {delay: 2ms}
Y
	MATRIX_LINK=netem run_matrix run "$T/m.yaml" -o "$T/out" --quiet; expect_rc 0
	RUNNER_PIDS=$(runner_pid out)
	expect_all out/results.csv status ok
	grep -q '^link_emulator,netem:' out/meta.csv || die "$(grep link_emulator out/meta.csv)"
	local t min
	while IFS=$'\t' read -r t min; do
		le 4000 "$min" || die "$t over a 2 ms netem link: fastest round trip $min us"
	done < <(csvq out/results.csv transport rtt_min_us)
	expect_link_gone "$RUNNER_PIDS"
}

# programs of your own over the link: the server's in the server's
# namespace ({host} is 10.77.0.1, or fd77::1 over tcp6), each client in the
# clients' (ip netns exec); neither address exists outside them, and a
# 2 ms link shows in every pairing's round trip, ours timed or the
# program's own
t_netns_programs_cross_the_link() {
	need_netns
	command -v socat >/dev/null && command -v python3 >/dev/null || skip "socat or python3 missing"
	trap netns_cleanup EXIT
	cp -r "$REPO/matrices" .
	mat m.yaml <<'Y'
name: linkprogs
repeat: 1
warmup: 2
programs:
  socat:
    server: [socat, "TCP-LISTEN:{port},bind={host},reuseaddr,fork", "EXEC:cat"]
  python:
    client: [python3, matrices/programs/echo_client.py, "{host}", "{port}", "{size}", "{size}", "{count}"]
    result:
      rtt_mean_us: {regex: 'avg rtt ([0-9.]+) us', unit: us}
matrix:
  pattern: echo
  transport: [tcp, tcp6]
  server: [builtin, socat]
  client: [builtin, python]
  size: 64
  count: 50
exclude:
  - {server: builtin, client: builtin}
  - {server: socat, transport: tcp6}     # TCP-LISTEN is IPv4's
topology:
  netns: true
  link: {delay: 2ms}
Y
	run_matrix run "$T/m.yaml" -o "$T/out" --quiet
	RUNNER_PIDS=$(runner_pid out)
	[ "$rc" = 0 ] || die "exit $rc: $(csvq out/results.csv transport server client status error)"
	expect_all out/results.csv status ok
	[ "$(csvq out/results.csv cell | wc -l)" = 4 ] || die "rows: $(csvq out/results.csv cell server client)"
	local t srv cli mean
	while IFS=$'\t' read -r t srv cli mean; do
		le 4000 "$mean" || die "$t $srv x $cli over a 2 ms link: mean round trip $mean us, under 4 ms"
	done < <(csvq out/results.csv transport server client rtt_mean_us)
	expect_link_gone "$RUNNER_PIDS"
	expect_no_leftovers
}

# zmq over the link: its server binds the link's address (--bind's host)
t_netns_zmq_binds_the_link() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: linkzmq
repeat: 1
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: zmq
  size: 64
  count: 60
topology:
  netns: true
  link: {delay: 1ms, rate: 100mbit, loss: 0%}
Y
	run_matrix run "$T/m.yaml" -o "$T/out" --quiet
	RUNNER_PIDS=$(runner_pid out)
	grep -q 'skipped: .*libzmq' out/results.csv && skip "libzmq missing"
	expect_rc 0
	expect_all out/results.csv status ok
	local p50
	p50=$(csvq out/results.csv pattern rtt_p50_us | awk '$1 == "pingpong" { print $2 }')
	le 2000 "$p50" || die "zmq pingpong over a 1 ms link: p50 $p50 us, under 2 ms"
	head -1 out/results.csv | grep -q ',other_cpus,.*,link_delay,link_rate,link_loss$' ||
		die "columns: $(head -1 out/results.csv)"
	[ "$(csvq out/results.csv link_rate link_loss | sort -u | tr '\t\n' ': ')" = "100000000:0 " ] ||
		die "link_rate, link_loss: $(csvq out/results.csv link_rate link_loss)"
	expect_link_gone "$RUNNER_PIDS"
}

# without CAP_NET_ADMIN / CAP_SYS_ADMIN: a clear error at topology:, before
# any cell, nothing made
t_netns_without_capabilities_is_refused() {
	need_netns
	command -v setpriv >/dev/null || skip "setpriv missing"
	mat m.yaml <<'Y'
name: nocap
repeat: 1
matrix:
  transport: tcp
  count: 10
topology:
  netns: true
  link: {delay: 1ms}
Y
	rc=0
	setpriv --bounding-set=-net_admin,-sys_admin "$MATRIX_BIN" run m.yaml -o out --quiet \
		>"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "m.yaml:6:1: topology: netns needs root, or the capabilities CAP_NET_ADMIN and CAP_SYS_ADMIN"
	[ ! -e out ] || die "a run folder was made: $(ls out)"
	expect_no_leftovers
}

# paths do not cross the link: refused at the value, as plan errors are;
# tcp6 crosses it; a misspelt link key is named
t_netns_plan_refusals() {
	mat a.yaml <<'Y'
name: a
matrix:
  transport: [tcp, unix]
topology: {netns: true, link: {delay: 1ms}}
Y
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:3:20: unix does not cross the emulated link of topology: netns"
	sed -i 's/unix/tcp6/' a.yaml
	run_matrix plan a.yaml; expect_rc 0
	mat b.yaml <<'Y'
name: b
matrix:
  transport: tcp
topology:
  netns: true
  link: {dealy: 1ms}
Y
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:6:10: topology: link: unknown key 'dealy'; did you mean 'delay'?"
	sed -i 's/dealy: 1ms/loss: 5/' b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:6:16: link_loss: invalid percentage '5': missing unit"
	sed -i 's/loss: 5/rate: [1gbit, 10mbit]/' b.yaml
	run_matrix plan b.yaml; expect_rc 0
	grep -q 'link_rate=10mbit$' "$T/.out" || die "plan does not show the link: $(cat "$T/.out")"
	# --set and exclude: take the link's keys as dimensions
	run_matrix plan b.yaml --set link_rate=5mbit; expect_rc 0
	[ "$(grep -c 'link_rate=5mbit$' "$T/.out")" -eq 1 ] || die "--set link_rate: $(cat "$T/.out")"
	run_matrix plan a.yaml --set link_delay=3ms; expect_rc 0
	grep -q 'tcp6 .*link_delay=3ms$' "$T/.out" || die "--set link_delay=3ms: $(cat "$T/.out")"
	sed -i 's/tcp6/udp/; s/delay: 1ms/delay: [1ms, 3ms]/' a.yaml
	printf 'exclude:\n  - {transport: udp, link_delay: 1ms}\n' >>a.yaml
	run_matrix plan a.yaml; expect_rc 0
	grep -q 'udp .*link_delay=1ms$' "$T/.out" && die "exclude: kept udp at 1ms: $(cat "$T/.out")"
	grep -q 'udp .*link_delay=3ms$' "$T/.out" || die "exclude: dropped udp at 3ms: $(cat "$T/.out")"
	mat c.yaml <<'Y'
name: c
matrix:
  transport: tcp
Y
	run_matrix plan c.yaml --set link_delay=1ms; expect_rc 2
	expect_err "--set link_delay=1ms: c.yaml has no topology: link: mapping to set delay in"
	# the link joins two namespaces of this machine: no remote host with it
	printf 'hosts: {server: "ssh://root@example.org"}\ntopology: {netns: true}\n' >>c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:5:11: topology: and a remote host of hosts: (line 4) do not go together"
}

# SIGKILL of the runner mid-run: its namespaces stay (nothing can remove
# them then), its link process dies with it, and the next `matrix run`
# removes them, saying so
t_netns_killed_runner_namespaces_go_at_next_start() {
	slow_link_run killed
	start_link_run "$MATRIX_BIN" run "$T/m.yaml" -o "$T/out" --quiet >/dev/null
	local pid=$RUN i
	[ -e "/run/netns/matrix-$pid-s" ] || die "no namespace matrix-$pid-s while the run runs"
	kill -9 "$pid"
	wait "$JOB" 2>/dev/null
	[ -e "/run/netns/matrix-$pid-s" ] && [ -e "/run/netns/matrix-$pid-c" ] ||
		die "the namespaces went with the runner: nothing for the next start to do"
	for i in $(seq 100); do	# the guard ends the workers, PDEATHSIG the link process
		[ -z "$(own_procs "$T/")" ] && break
		sleep 0.05
	done
	mat n.yaml <<'Y'
name: next
repeat: 1
matrix:
  transport: tcp
  count: 10
Y
	run_matrix run "$T/n.yaml" -o "$T/next" --quiet; expect_rc 0
	# every start sweeps: another test's run beside this one may have been
	# the next start for either namespace (it then said so on its own
	# stderr); either way they are gone now, and this start's words are
	# checked for what it removed
	expect_link_gone "$pid"
	local ns
	for ns in s c; do
		! grep -qF "matrix: removed network namespace matrix-$pid-$ns " "$T/.err" ||
			expect_err "matrix: removed network namespace matrix-$pid-$ns of matrix run $pid"
	done
}

# SIGINT mid-run: exit 130, the namespaces and the link process gone
t_netns_interrupted_run_removes_its_link() {
	slow_link_run interrupted
	# SIGINT as a terminal's Ctrl-C finds it (a script's background job
	# starts with it ignored: test_failures.sh)
	start_link_run python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
		"$MATRIX_BIN" run "$T/m.yaml" -o "$T/out" --quiet >/dev/null 2>"$T/.err"
	local pid=$RUN
	[ -e "/run/netns/matrix-$pid-c" ] || die "no namespace matrix-$pid-c while the run runs"
	kill -INT "$pid"
	rc=0
	wait "$JOB" || rc=$?
	expect_rc 130
	expect_err "interrupted by signal 2"
	expect_link_gone "$pid"
	expect_no_leftovers
}

# namespaces named with the runner's own pid are a dead runner's whose pid
# came round again (a container starts its pids afresh): removed at the
# start like any other dead runner's, not a failing `ip netns add`
t_netns_stale_namespaces_of_our_own_pid() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: samepid
repeat: 1
matrix:
  transport: tcp
  count: 20
topology:
  netns: true
Y
	rc=0
	# bash makes them with its pid, then becomes the runner (exec)
	bash -c 'echo $$ >pid; ip netns add matrix-$$-s && ip netns add matrix-$$-c &&
		exec "$0" run m.yaml -o out --quiet' "$MATRIX_BIN" >"$T/.out" 2>"$T/.err" || rc=$?
	RUNNER_PIDS=$(cat pid)
	expect_rc 0
	expect_all out/results.csv status ok
	expect_link_gone "$RUNNER_PIDS"
}

# the link process killed mid-run (by hand, the OOM killer): every later
# repetition is `link failed`, saying so, not a bind error of the server's
t_netns_link_process_killed_fails_the_rest() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: linkkilled
repeat: 3
timeout: 5s
matrix:
  transport: udp
  duration: 1s
topology:
  netns: true
  link: {delay: 1ms}
Y
	MATRIX_LINK=user start_link_run "$MATRIX_BIN" run "$T/m.yaml" -o "$T/out" --quiet >/dev/null 2>&1
	local p link=""
	for p in $(ps -o pid= --ppid "$RUN"); do	# the child holding the TUN devices
		ls -l "/proc/$p/fd" 2>/dev/null | grep -q /dev/net/tun && link=$p
	done
	[ -n "$link" ] || die "no link process among the children of runner $RUN"
	kill -9 "$link"
	rc=0
	wait "$JOB" || rc=$?
	expect_rc 1
	[ "$(csvq out/results.csv rep status | tail -2 | tr '\t\n' ': ')" = \
	  "2:link failed 3:link failed " ] || die "after the link process: $(csvq out/results.csv rep status error)"
	grep -q "the link process (pid $link) crashed: SIGKILL: no packet crosses the link" \
		out/results.csv || die "no reason: $(csvq out/results.csv rep error)"
	expect_link_gone "$RUN"
}

# an `ip` that fails: its stderr in the message, exit 2 before any folder,
# and the namespace already made removed; no `ip` at all: named
t_netns_failing_ip_leaves_nothing() {
	need_netns
	trap netns_cleanup EXIT
	mat m.yaml <<'Y'
name: failingip
repeat: 1
matrix:
  transport: tcp
  count: 10
topology:
  netns: true
Y
	mkdir bin
	# refuses to make the clients' namespace, after the server's was made
	printf '#!/bin/sh\n[ "$1 $2" = "netns add" ] && case "$3" in *-c) echo "no room for $3" >&2; exit 1;; esac\nexec %s "$@"\n' \
		"$(command -v ip)" >bin/ip
	chmod +x bin/ip
	rc=0
	PATH="$T/bin:$PATH" "$MATRIX_BIN" run m.yaml -o out --quiet >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	local pid
	pid=$(sed -n 's/^matrix: ip netns add matrix-\([0-9]*\)-c: no room for matrix-[0-9]*-c$/\1/p' "$T/.err")
	[ -n "$pid" ] || die "no message naming the failing ip: $(cat "$T/.err")"
	RUNNER_PIDS=$pid
	[ ! -e out ] || die "a run folder was made: $(ls out)"
	expect_link_gone "$pid"
	rc=0
	PATH="$T/nothing" "$MATRIX_BIN" run m.yaml -o out --quiet >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "ip not found: topology: netns needs iproute2"
	[ ! -e out ] || die "a run folder was made: $(ls out)"
}

# two runs at once: the second's start leaves the first's namespaces alone,
# also when the first runs under another name (a symlink, a versioned
# install): a runner is told by its pid and start time, not its name
t_netns_second_run_leaves_a_renamed_runners_namespaces() {
	slow_link_run renamed
	mat n.yaml <<'Y'
name: second
repeat: 1
matrix:
  transport: tcp
  count: 10
Y
	ln -s "$MATRIX_BIN" "$T/mx-1.0"
	start_link_run "$T/mx-1.0" run "$T/m.yaml" -o "$T/out" --quiet >/dev/null 2>&1
	run_matrix run "$T/n.yaml" -o "$T/next" --quiet; expect_rc 0
	grep -q "matrix-$RUN-" "$T/.err" && die "the second run touched the first's: $(cat "$T/.err")"
	kill -TERM "$RUN"
	wait "$JOB" 2>/dev/null
	expect_link_gone "$RUN"
}

# a python prelude: udp_server(ARGS) starts `matrix worker server` for
# udp on loopback, says hello to it and returns (server, socket, port,
# where its ok came from); answer(receive) says whether a reply came
udp_server_py() {
	cat <<'PY'
import os, re, socket, subprocess, sys, time
def udp_server(*args, **kw):
    srv = subprocess.Popen([sys.argv[1], "worker", "server", "--transport=udp",
                            "--bind=127.0.0.1:0", "--pattern=pingpong", "--count=1",
                            "--timeout=3s", "--report-fd=1", *args], stdout=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, text=True, **kw)
    listen = re.compile(r"listen address=127\.0\.0\.1:(\d+)").match
    port = next(int(m.group(1)) for m in map(listen, srv.stdout) if m)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(1.0)
    s.sendto(b"matrix-hello", ("127.0.0.1", port))
    ok, frm = s.recvfrom(64)
    return srv, s, port, frm
def answer(receive):
    try:
        return receive()
    except (socket.timeout, ConnectionRefusedError):
        return "no answer"
PY
}

# udp over a lossy link (link: loss): a client whose "ok" was lost says
# hello again after the server's last accept; the server answers it from
# the client's own socket (it gave up after 10 s: "connect: no answer from
# the server").  The loss is played by a client of the test's, on loopback.
t_netns_udp_lost_ok_answered_after_the_last_accept() {
	{ udp_server_py; cat <<'PY'; } >late.py
srv, s, port, frm1 = udp_server()
s.sendto(b"matrix-hello", ("127.0.0.1", port))	# as if the ok were lost
print(answer(lambda: "answered" if s.recvfrom(64) == (b"matrix-ok", frm1) else "wrong"))
srv.kill()
PY
	local got
	got=$(python3 late.py "$MATRIX_BIN") || die "late.py failed"
	[ "$got" = answered ] || die "a hello repeated after the last accept: $got"
}

# a udp connection accepted long before the start (other clients' hellos
# lost and retried) and quiet until its first request, 50 ms after the
# start: answered, not ended as a silent peer (the server counted the
# silence from the accept and closed it: "connection closed by the server")
t_netns_udp_quiet_before_the_start_is_not_silence() {
	{ udp_server_py; cat <<'PY'; } >quiet.py
rd, wr = os.pipe()
srv, s, port, frm = udp_server("--size=64", "--loss-timeout=10ms", "--control-fd=%d" % rd,
                               pass_fds=[rd])
s.connect(frm)
time.sleep(1.1)		# the server's silence limit is 1 s
os.write(wr, b"g")
time.sleep(0.05)
s.send(bytes(64))
print(answer(lambda: s.recv(64) and "answered"))
srv.kill()
PY
	local got
	got=$(python3 quiet.py "$MATRIX_BIN") || die "quiet.py failed"
	[ "$got" = answered ] || die "the first request after a quiet wait: $got"
}
