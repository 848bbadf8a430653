# poll: busy and busy_poll (README "Busy polling"): our workers spin on
# non-blocking descriptors instead of sleeping in the kernel, over every
# transport and pattern, with the same counts and checks as blocking
# cells; a lossy receive still gives up after loss_timeout; SO_BUSY_POLL is
# set on every connection's socket.  Nothing here times busy against
# block: that is `make bench`'s.  Whether a worker spins is seen in its
# syscalls (strace): a receive that would block fails with EAGAIN and is
# made again at once, where a blocking one sleeps in a single call.

need_strace() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
}

# strace_count FILE COLUMN SYSCALL...: calls (COLUMN calls) or failures
# (COLUMN errors) of these syscalls in an `strace -c` summary, 0 for none
# (a row without failures has no errors field).
strace_count() {
	local f=$1 col=$2; shift 2
	awk -v names=" $* " -v col="$col" '$1 ~ /^[0-9.]+$/ && index(names, " " $NF " ") {
		s += col == "calls" ? $4 : (NF == 6 ? $5 : 0) } END { print s + 0 }' "$f"
}

t_busy_every_transport_and_pattern() {
	mat m.yaml <<'Y'
name: busyall
repeat: 1
warmup: 10
timeout: 30s
matrix:
  transport: [tcp, unix, udp, unix_dgram, unix_seqpacket, pipe, zmq, shm, mq]
  pattern: [pingpong, echo, stream]
  inflight: [1, 3]
  size: 16
  poll: busy
  count: 300
  # udp: a reply counts as lost only when 5 s late, not 100 ms: two
  # spinners beside other loads of a shared 2-CPU VM were once descheduled
  # that long (3 of 300 lost); loss itself is t_busy_lossy_cell_records_loss's
  loss_timeout: 5s
exclude:
  - {pattern: stream, inflight: 3}
  - {transport: udp, inflight: 3}
  - {transport: udp, pattern: stream}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ "$(csvq out/results.csv --rows)" -eq 42 ] || die "expected 42 rows"
	# echo cells compare every reply with its request: a mismatch fails
	expect_all out/results.csv status ok
	expect_all out/results.csv poll busy
	expect_all out/results.csv messages 300
	expect_all out/results.csv sent_messages 300
	csvq out/results.csv pattern msgs_per_s rtt_p50_us | awk -F'\t' '$2 + 0 <= 0 ||
		($1 != "stream" && $3 + 0 <= 0) { print; bad = 1 } END { exit bad }' ||
		die "a busy cell without a rate or a round-trip time"
	expect_no_leftovers
}

# traced_client TRANSPORT BIND NAME [FLAGS...]: a pingpong by hand against a
# server that busy-waits 20 ms before each answer, the client under
# `strace -c` (NAME.strace) with FLAGS; 5 round trips (a udp reply is lost
# only after 5 s: a loaded machine can hold the 20 ms spin past 100 ms).
traced_client() {
	local t=$1 bind=$2 name=$3 addr srv; shift 3
	"$MATRIX_BIN" worker server -t "$t" -b "$bind" -s 16 -w 0 --spin 20ms "$@" \
		>"srv-$name.out" 2>&1 &
	srv=$!
	wait_line "srv-$name.out" '^listen '
	addr=$(wire_field "srv-$name.out" listen address)
	rc=0
	# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -c -o "$name.strace" \
		"$MATRIX_BIN" worker client -t "$t" -a "$addr" -s 16 -n 5 -w 0 --loss-timeout 5s "$@" \
		>"cli-$name.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	wait "$srv" || die "$t server failed: $(cat "srv-$name.out")"
	[ "$(wire_field "cli-$name.out" hist count)" -eq 5 ] || die "$name: expected 5 round trips"
}

t_busy_client_spins_while_it_waits() {
	need_strace
	local t bind fails
	for t in tcp unix udp unix_dgram unix_seqpacket pipe; do
		case $t in tcp | udp) bind=127.0.0.1:0 ;; *) bind=$T/$t.sock ;; esac
		# each answer comes 20 ms after its request: a busy client's
		# receive fails with EAGAIN over and over meanwhile
		traced_client $t "$bind" $t --poll busy
		fails=$(strace_count $t.strace errors read recvfrom recvmsg)
		[ "$fails" -ge 5 ] ||
			die "$t busy client: $fails failed receives for 5 waits of 20 ms: $(cat $t.strace)"
	done
	# a blocking client sleeps in each receive: none fails
	traced_client unix "$T/b.sock" block
	fails=$(strace_count block.strace errors read recvfrom recvmsg)
	[ "$fails" -eq 0 ] || die "blocking client: $fails failed receives: $(cat block.strace)"
	# mq: its receives are mq_timedreceive calls, non-blocking ones when
	# busy (a blocking one wakes every 100 ms to look at its peer: how
	# often it fails depends on the machine's load, so it is not counted)
	traced_client mq "$T/mq.sock" mq --poll busy
	fails=$(strace_count mq.strace errors mq_timedreceive)
	[ "$fails" -ge 5 ] || die "mq busy client: $fails failed receives: $(cat mq.strace)"
	# pipelined (inflight > 1): the spin replaces poll()
	traced_client unix "$T/i.sock" pipelined --poll busy --inflight 3
	local polls; polls=$(strace_count pipelined.strace calls poll ppoll select pselect6 epoll_wait)
	[ "$polls" -eq 0 ] || die "busy pipelined client: $polls poll calls: $(cat pipelined.strace)"
	[ "$(strace_count pipelined.strace errors read)" -ge 5 ] ||
		die "busy pipelined client did not spin: $(cat pipelined.strace)"
	expect_no_leftovers
}

t_busy_server_spins_while_it_waits() {
	need_strace
	command -v python3 >/dev/null || skip "python3 missing"
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -c -o srv.strace \
		"$MATRIX_BIN" worker server -t unix -b "$T/s.sock" -s 16 -w 0 --poll busy \
		>srv.out 2>&1 &
	local srv=$!
	wait_line srv.out '^listen '
	# a client that waits 20 ms between its requests
	python3 - "$T/s.sock" <<'P' || die "client failed"
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
for i in range(5):
    s.sendall(i.to_bytes(8, "little") + bytes(8))
    got = b""
    while len(got) < 16:
        got += s.recv(16 - len(got))
    time.sleep(0.02)
s.close()
P
	wait "$srv" || die "server failed: $(cat srv.out)"
	local fails; fails=$(strace_count srv.strace errors read)
	[ "$fails" -ge 5 ] || die "busy server: $fails failed reads for 5 waits of 20 ms: $(cat srv.strace)"
	expect_no_leftovers
}

t_busy_lossy_receive_keeps_its_timeout() {
	# every even-numbered request is dropped: the spin gives each up after
	# its 100 ms, as the blocking receive's SO_RCVTIMEO does
	# (on a loaded machine an answered one may come late too: at least 10)
	lossy_udp drop 20 100ms 0 --poll busy
	local lost msgs
	lost=$(wire_field wire.out result lost) msgs=$(wire_field wire.out result messages)
	[ "$lost" -ge 10 ] && [ $((lost + msgs)) -eq 20 ] || die "lost: $(cat wire.out)"
	[ "$(wire_field wire.out hist count)" -eq "$msgs" ] || die "rtt samples: $(cat wire.out)"
	local el
	el=$(($(wire_field wire.out result end_ns) - $(wire_field wire.out result start_ns)))
	le 900000000 $el || die "10 lost requests of 100 ms each took $el ns"
	le $el 10000000000 || die "20 requests took $el ns"
	le "$(wire_field wire.out hist max)" 100000000 || die "an answer later than 100 ms was timed"
	# late replies to given-up requests cut the next wait to what is left
	# of its 600 ms (set_recv_timeout sets the spin's deadline); each
	# answered one waited in the server at least as long as it held it
	lossy_udp late 6 600ms 0.9 --poll busy
	lost=$(wire_field wire.out result lost) msgs=$(wire_field wire.out result messages)
	[ "$lost" -ge 3 ] && [ $((lost + msgs)) -eq 6 ] || die "lost: $(cat wire.out)"
	[ "$(wire_field wire.out hist count)" -eq "$msgs" ] || die "rtt samples: $(cat wire.out)"
	le "$(held_min)" "$(wire_field wire.out hist min)" ||
		die "a round trip shorter than the server held it: $(wire_field wire.out hist min) ns, $(cat srv.out)"
	le "$(wire_field wire.out hist max)" 600000000 || die "a round trip over the loss_timeout"
	expect_no_leftovers
}

t_busy_lossy_cell_records_loss() {
	# a udp stream from a busy sender outruns a receiver that busy-waits
	# 1 ms per message: the receive buffer overflows and the cell counts
	# what was lost (allow_loss: the cell stands)
	mat m.yaml <<'Y'
name: busyloss
repeat: 1
warmup: 0
timeout: 30s
matrix:
  transport: udp
  pattern: stream
  size: 1KiB
  poll: busy
  spin: 1ms
  allow_loss: true
  loss_timeout: 50ms
  count: 3000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	local got lost
	got=$(csvq out/results.csv messages) lost=$(csvq out/results.csv lost)
	[ "$lost" -gt 0 ] && [ $((got + lost)) -eq 3000 ] ||
		die "received $got, lost $lost of 3000: $(cat out/results.csv)"
	expect_no_leftovers
}

t_busy_poll_sets_the_socket_option() {
	need_strace
	"$MATRIX_BIN" worker server -t unix -b "$T/s.sock" -s 16 -w 0 --busy-poll 50us \
		>srv.out 2>&1 &
	local srv=$!
	wait_line srv.out '^listen '
	rc=0
	# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere
	local nolsan="${ASAN_OPTIONS:-}:detect_leaks=0"
	ASAN_OPTIONS=$nolsan timeout 30 strace -f -e trace=setsockopt -o so.trace \
		"$MATRIX_BIN" worker client -t unix \
		-a "$T/s.sock" -s 16 -n 5 -w 0 --busy-poll 50us >cli.out 2>"$T/.err" || rc=$?
	expect_rc 0
	wait "$srv" || die "server failed: $(cat srv.out)"
	grep -q 'SO_BUSY_POLL, \[50\]' so.trace || die "no SO_BUSY_POLL of 50 us: $(cat so.trace)"
	# a refusal is the connection's error, naming the option and the reason
	"$MATRIX_BIN" worker server -t unix -b "$T/r.sock" -s 16 -w 0 >srv2.out 2>&1 &
	srv=$!
	wait_line srv2.out '^listen '
	rc=0
	ASAN_OPTIONS=$nolsan timeout 30 strace -f -o /dev/null -e trace=setsockopt \
		-e inject=setsockopt:error=EPERM \
		"$MATRIX_BIN" worker client -t unix -a "$T/r.sock" -s 16 -n 5 -w 0 \
		--busy-poll 50us >cli2.out 2>"$T/.err" || rc=$?
	[ "$rc" -ne 0 ] || die "a refused SO_BUSY_POLL went unreported"
	grep -q 'stage=connect message=setsockopt%20SO_BUSY_POLL%2050us:%20Operation%20not%20permitted' cli2.out ||
		die "refusal not named: $(cat cli2.out)"
	kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
	# and in a run: every socket transport takes it, with poll: busy too
	mat m.yaml <<'Y'
name: busypoll
repeat: 1
warmup: 5
timeout: 30s
matrix:
  transport: [tcp, unix, udp, unix_dgram, unix_seqpacket]
  pattern: echo
  size: 16
  poll: [block, busy]
  busy_poll: 50us
  count: 100
  loss_timeout: 5s
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv messages 100
	expect_no_leftovers
}

t_poll_bad_values() {
	mat m.yaml <<'Y'
name: bad
matrix:
  transport: unix
  poll: bussy
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:4:9: poll: "
	expect_err "did you mean 'busy'?"
	mat m.yaml <<'Y'
name: bad
matrix:
  transport: unix
  busy_poll: 1500ns
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:4:14: busy_poll is whole microseconds"
	mat m.yaml <<'Y'
name: bad
matrix:
  busy_poll: [0us, soon]
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:3:20: busy_poll: invalid duration 'soon'"
	mat m.yaml <<'Y'
name: bad
matrix:
  transport: [unix, pipe]
  busy_poll: 50us
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:4:14: busy_poll is a socket option (SO_BUSY_POLL); transport pipe has no socket"
	rc=0
	"$MATRIX_BIN" worker client -t unix -a x --poll spin >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "--poll spin: expected block, busy or uring"
	rc=0
	"$MATRIX_BIN" worker client -t pipe -a x --busy-poll 5us >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "--busy-poll sets a socket option; transport pipe has no socket"
}

t_busy_refused_for_programs() {
	mat m.yaml <<'Y'
name: progs
programs:
  mine:
    server: [./srv, "{port}"]
matrix:
  transport: tcp
  server: [builtin, mine]
  poll: [block, busy]
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:8:17: poll: busy makes matrix's own workers spin; program mine waits its own way"
	expect_err "exclude {poll: busy, server: mine}"
	mat m.yaml <<'Y'
name: progs
programs:
  mine:
    server: [./srv, "{port}"]
matrix:
  transport: tcp
  server: [builtin, mine]
  poll: [block, busy]
  busy_poll: 10us
exclude:
  - {poll: busy, server: mine}
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:9:14: busy_poll is set on matrix's own workers' sockets; program mine"
	mat m.yaml <<'Y'
name: progs
programs:
  mine:
    server: [./srv, "{port}"]
matrix:
  transport: tcp
  server: [builtin, mine]
  poll: [block, busy]
exclude:
  - {poll: busy, server: mine}
Y
	run_matrix plan m.yaml; expect_rc 0
}

t_busy_warns_of_too_few_cpus() {
	command -v taskset >/dev/null || skip "taskset missing"
	taskset -c 0 true 2>/dev/null || skip "cannot run on CPU 0 alone here"
	mat m.yaml <<'Y'
name: warn
repeat: 1
warmup: 5
matrix:
  transport: unix
  poll: [block, busy]
  count: 50
Y
	rc=0
	taskset -c 0 "$MATRIX_BIN" plan m.yaml >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_err "matrix: warning: cell 2 (poll=busy): poll: busy: 2 spinning processes on 1 CPU: they will take turns, not spin"
	[ "$(grep -c warning "$T/.err")" -eq 1 ] || die "a warning for the blocking cell: $(cat "$T/.err")"
	grep -q ' busy -$' "$T/.out" || die "plan does not show poll: busy: $(cat "$T/.out")"
	# the start of a run says it too (and the cell still runs, taking turns)
	rc=0
	taskset -c 0 "$MATRIX_BIN" run m.yaml -o out >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_err "2 spinning processes on 1 CPU: they will take turns, not spin"
	expect_all out/results.csv status ok
	# on every CPU there is: a server thread and a client per connection
	local n
	n=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))' 2>/dev/null || nproc)
	sed -i "s/count: 50/count: 50\n  concurrency: $n/" m.yaml
	run_matrix plan m.yaml; expect_rc 0
	expect_err "$((2 * n)) spinning processes on $n CPU"
	# zmq: one socket takes every client's messages, one server thread
	sed -i "s/transport: unix/transport: zmq/" m.yaml
	run_matrix plan m.yaml; expect_rc 0
	expect_err "$((1 + n)) spinning processes on $n CPU"
	sed -i "s/transport: zmq/transport: unix/" m.yaml
	# cpu: same puts them all on one CPU; split gives each side its own
	[ "$n" -ge 2 ] || skip "cpu: split needs 2 CPUs"
	mat m.yaml <<'Y'
name: warn
matrix:
  transport: unix
  poll: busy
  cpu: [same, split]
Y
	run_matrix plan m.yaml; expect_rc 0
	expect_err "matrix: warning: cell 1 (cpu=same): poll: busy: 2 spinning processes on 1 CPU"
	[ "$(grep -c warning "$T/.err")" -eq 1 ] || die "cpu: split warned: $(cat "$T/.err")"
	# split: the server's threads (one per connection) on the first CPU
	sed -i "s/poll: busy/poll: busy\n  concurrency: 2\n  count: 10/" m.yaml
	run_matrix plan m.yaml; expect_rc 0
	if [ "$n" -ge 4 ]; then	# 4 fit on all the CPUs, not 2 on the server's one
		expect_err "cell 2 (cpu=split): poll: busy: 2 spinning processes on 1 CPU:"
	else
		expect_err "cell 2 (cpu=split): poll: busy: 4 spinning processes on $n CPUs:"
	fi
	expect_no_leftovers
}
