# Every transport with every pattern, small counts, over real sockets,
# FIFOs and message queues.

t_every_transport_every_pattern() {
	mat m.yaml <<'Y'
name: every
repeat: 1
warmup: 10
matrix:
  pattern: [pingpong, echo, stream]
  transport: [tcp, unix, tcp6, udp, unix_dgram, unix_seqpacket, pipe, zmq, shm, mq]
  size: [16, 4KiB]
  concurrency: [1, 3]
  count: 300
  allow_loss: true
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	# reliable transports: every message counted, at the receiver for streams
	csvq $r transport pattern messages sent_messages | awk -F'\t' '
		$1 != "udp" && ($3 != 300 || $4 != 300) { print; bad = 1 } END { exit bad }' ||
		die "messages lost on a reliable transport"
	# udp: its loss columns are there and add up; other transports leave them empty
	csvq $r transport pattern messages sent_messages lost | awk -F'\t' '
		$1 == "udp" && $2 == "stream" && $3 + $5 != $4 { print; bad = 1 }
		$1 == "udp" && $2 != "stream" && $3 + $5 != 300 { print; bad = 1 }
		$1 == "udp" && $5 == "" { print; bad = 1 }
		$1 != "udp" && $5 != "" { print; bad = 1 } END { exit bad }' ||
		die "loss columns do not add up"
	[ "$(csvq $r --rows)" -eq 120 ] || die "expected 120 rows"
	expect_no_leftovers
}

t_udp_loss_fails_the_cell_unless_allowed() {
	# four senders' burst of 20000 datagrams overflows the receiver's buffer
	printf 'name: lossy\nrepeat: 1\nwarmup: 0\nmatrix:\n  pattern: stream\n  transport: udp\n  size: 1KiB\n  concurrency: 4\n  count: 20000\n' >m.yaml
	run_matrix run m.yaml -o out --quiet
	local lost; lost=$(csvq out/results.csv lost)
	if [ "$lost" = 0 ]; then
		expect_rc 0
		skip "no datagram was lost on this machine"
	fi
	expect_rc 1
	csvq out/results.csv status | grep -q "^loss: $lost of 20000 lost$" ||
		die "status: $(csvq out/results.csv status)"
	[ -n "$(csvq out/results.csv msgs_per_s)" ] || die "figures of a lossy cell are kept"
	printf '  allow_loss: true\n' >>m.yaml
	run_matrix run m.yaml -o out2 --quiet; expect_rc 0
	expect_all out2/results.csv status ok
}

t_transport_limits_at_plan_time() {
	printf 'name: x\nmatrix:\n  transport: [tcp, udp]\n  size: [4, 16]\n' >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:4:10: size 4 is smaller than transport udp can carry"
	printf 'name: x\nmatrix:\n  transport: udp\n  size: 64KiB\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:4:9: size 65536 is larger than transport udp can carry (65507 bytes)"
	printf 'name: x\nmatrix:\n  transport: [unix_dgram, unix_seqpacket]\n  size: 1MiB\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:4:9: size 1048576 is larger than transport unix_dgram can carry"
	printf 'name: x\nmatrix:\n  transport: udp\n  size: 64\n  inflight: 4\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 2
	expect_err "d.yaml:5:13: transport udp allows inflight 1 at most"
	printf 'name: x\nmatrix:\n  transport: udp\n  pattern: pingpong\n  size: 64\n  response_size: 2\n' >e.yaml
	run_matrix plan e.yaml; expect_rc 2
	expect_err "e.yaml:6:18: response_size 2 is smaller than transport udp can carry"
	run_matrix transports; expect_rc 0
	for t in tcp unix tcp6 udp unix_dgram unix_seqpacket pipe zmq shm mq; do
		grep -q "^$t " "$T/.out" || die "matrix transports lacks $t"
	done
}

t_tcp6_without_ipv6_is_skipped() {
	command -v unshare >/dev/null && command -v ip >/dev/null || skip "no unshare or ip here"
	printf 'name: six\nrepeat: 1\nwarmup: 0\nmatrix:\n  transport: [tcp, tcp6]\n  count: 50\n' >m.yaml
	# a network namespace of our own whose loopback has no IPv6
	unshare -n true 2>/dev/null || skip "cannot make a network namespace here"
	rc=0
	unshare -n sh -c 'ip link set lo up && sysctl -qw net.ipv6.conf.lo.disable_ipv6=1 &&
		exec "$0" run m.yaml -o out --quiet' "$MATRIX_BIN" >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	[ "$(csvq out/results.csv cell transport status | sort -n | cut -f2- | tr '\t\n' ': ')" = "tcp:ok tcp6:skipped: bind [::1]:0: Cannot assign requested address " ] ||
		die "statuses: $(csvq out/results.csv transport status)"
	grep -q '| skipped: bind' out/summary.md || die "summary.md does not say skipped"
}

t_zmq_endpoints_inflight_and_timeline() {
	mat m.yaml <<'Y'
name: zmq
repeat: 1
warmup: 20
matrix:
  pattern: [echo, stream]
  transport: zmq
  endpoint: [tcp, ipc]
  size: [10, 1KiB]
  concurrency: [1, 4]
  inflight: [1, 16]
  count: 2000
  interval: 20ms
exclude:
  - {pattern: stream, inflight: 16}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv messages 2000
	# PUSH/PULL: counted at the receiver, the senders' rate beside it
	csvq out/results.csv pattern msgs_per_s sent_msgs_per_s | awk -F'\t' '
		$1 == "stream" && ($2 == "" || $3 == "") { bad = 1 } END { exit bad }' ||
		die "stream rates missing"
	csvq out/timeline.csv cell rep messages | awk -F'\t' '{ s[$1 "/" $2] += $3 }
		END { for (k in s) if (s[k] != 2000) { print k, s[k]; bad = 1 }; exit bad }' ||
		die "timeline sums differ from 2000"
	expect_no_leftovers
}
