# shm (transports/shm.c): shared-memory rings between a server worker and
# each client worker.  Every pattern it does, blocking and busy, pipelined,
# two connections each with rings of its own; its limits at plan time; a peer that dies is noticed;
# and a runner killed mid-repetition leaves no shared memory behind (the
# rings are an anonymous memfd: nothing has a name in /dev/shm).

# /dev/shm's entries, but a browser's (the HTML tests' headless Chromium)
shm_entries() {
	ls -A /dev/shm 2>/dev/null | grep -v '^\.org\.chromium\.' | sort || true
}

# expect_counts CSV N: every row ok over shm with N messages each way, the
# bytes they make (both ways for a round trip, one way for a stream), a
# rate and a round-trip time; the rings' sizes (sndbuf, rcvbuf) powers of
# two of at least 256 KiB.  Echo cells compare every reply with its request
# byte for byte: a mismatch fails the cell.
expect_counts() {
	local r=$1 n=$2
	expect_all $r status ok
	expect_all $r transport shm
	expect_all $r messages $n
	expect_all $r sent_messages $n
	csvq $r pattern size messages bytes | awk -F'\t' '
		$1 == "stream" && $4 != $2 * $3 { print; bad = 1 }
		$1 != "stream" && $4 != 2 * $2 * $3 { print; bad = 1 } END { exit bad }' ||
		die "bytes do not match the messages"
	csvq $r pattern msgs_per_s rtt_p50_us | awk -F'\t' '$2 + 0 <= 0 ||
		($1 != "stream" && $3 + 0 <= 0) { print; bad = 1 } END { exit bad }' ||
		die "a cell without a rate or a round-trip time"
	csvq $r sndbuf rcvbuf | awk -F'\t' '{ for (i = 1; i <= 2; i++) {
		v = $i; while (v > 1 && v % 2 == 0) v /= 2
		if ($i < 262144 || v != 1) { print; bad = 1 } } } END { exit bad }' ||
		die "ring sizes"
}

t_shm_every_pattern_blocking() {
	mat m.yaml <<'Y'
name: shmblock
repeat: 1
warmup: 10
timeout: 30s
matrix:
  pattern: [pingpong, echo, stream]
  transport: shm
  size: [16, 1KiB, 64KiB]
  inflight: [1, 4]
  concurrency: 2
  count: 200
exclude:
  - {pattern: stream, inflight: 4}
  - {pattern: pingpong, inflight: 4}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ "$(csvq out/results.csv --rows)" -eq 12 ] || die "expected 12 rows"
	expect_counts out/results.csv 200
	csvq out/timeline.csv cell rep messages | awk -F'\t' '{ s[$1 "/" $2] += $3 }
		END { for (k in s) if (s[k] != 200) { print k, s[k]; bad = 1 }; exit bad }' ||
		die "timeline sums differ from 200"
	expect_no_leftovers
}

# poll: busy, fewer messages: a spinner waits for its peer's next time
# slice when both share a loaded CPU
t_shm_every_pattern_busy() {
	mat m.yaml <<'Y'
name: shmbusy
repeat: 1
warmup: 5
timeout: 30s
matrix:
  pattern: [pingpong, echo, stream]
  transport: shm
  size: [16, 64KiB]
  poll: busy
  count: 50
Y
	mat w.yaml <<'Y'
name: shmbusywin
repeat: 1
warmup: 5
timeout: 30s
matrix:
  pattern: echo
  transport: shm
  size: 1KiB
  inflight: 4
  concurrency: 2
  poll: busy
  count: 50
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ "$(csvq out/results.csv --rows)" -eq 6 ] || die "expected 6 rows"
	run_matrix run w.yaml -o outw --quiet; expect_rc 0
	local r
	for r in out/results.csv outw/results.csv; do
		expect_all $r poll busy
		expect_counts $r 50
	done
	expect_no_leftovers
}

t_shm_limits_at_plan_time() {
	printf 'name: x\nmatrix:\n  transport: shm\n  size: 32MiB\n' >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:4:9: size 33554432 is larger than transport shm can carry (16777216 bytes)"
	# a window of requests must fit the ring
	printf 'name: x\nmatrix:\n  transport: shm\n  pattern: echo\n  size: 16MiB\n  inflight: 8\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:6:13: inflight 8 x 16777216-byte messages is more than transport shm holds in flight (67108864 bytes)"
	printf 'name: x\nmatrix:\n  transport: shm\n  pattern: pipeline\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:3:14: transport shm cannot do pattern pipeline"
	printf 'name: x\nmatrix:\n  transport: shm\n  size: 16MiB\n  inflight: [1, 4]\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 0
	run_matrix transports; expect_rc 0
	grep -q '^shm .*size 1B to 16MiB, window 64MiB' "$T/.out" ||
		die "matrix transports: $(grep shm "$T/.out")"
}

# A message larger than the ring (16 MiB through 32 MiB rings, a window of
# 3 at 16 MiB in 64 MiB ones) goes through in pieces, checked.
t_shm_large_messages() {
	mat m.yaml <<'Y'
name: shmbig
repeat: 1
warmup: 1
timeout: 60s
matrix:
  pattern: echo
  transport: shm
  size: 16MiB
  inflight: [1, 3]
  count: 4
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv messages 4
	expect_no_leftovers
}

# A client killed mid-run: the server's wait sees the rendezvous socket
# end, and fails at once instead of sleeping until its timeout.
t_shm_dead_peer_is_noticed() {
	local poll srv cli rc
	for poll in block busy; do
		"$MATRIX_BIN" worker server -t shm -b "$T/$poll.sock" -s 16 -w 0 --poll $poll \
			--timeout 60s >"srv-$poll.out" 2>&1 &
		srv=$!
		wait_line "srv-$poll.out" '^listen '
		"$MATRIX_BIN" worker client -t shm -a "$T/$poll.sock" -s 16 -w 0 -n 100000000 \
			--poll $poll --timeout 60s >"cli-$poll.out" 2>&1 &
		cli=$!
		sleep 0.3
		kill -9 "$cli"
		wait "$cli" 2>/dev/null || true
		rc=0
		timeout 10 tail --pid="$srv" -f /dev/null || die "$poll: the server outlived its client by 10 s"
		wait "$srv" || rc=$?
		[ "$rc" -ne 0 ] || die "$poll: the server of a killed client succeeded: $(cat "srv-$poll.out")"
		grep -q 'Connection%20reset%20by%20peer' "srv-$poll.out" ||
			die "$poll: server: $(cat "srv-$poll.out")"
	done
	expect_no_leftovers
}

# kill -9 of the runner mid-repetition: its workers end, its socket folder
# goes, and /dev/shm has nothing new; while they ran, the rings were an
# anonymous memfd in the workers' maps, never a file of /dev/shm.
t_shm_killed_runner_leaves_no_shared_memory() {
	mat m.yaml <<'Y'
name: shmkill
repeat: 2
timeout: 60s
matrix:
  pattern: [pingpong, stream]
  transport: shm
  concurrency: 2
  duration: 30s
Y
	local before pa i w workers maps
	before=$(shm_entries)
	"$MATRIX_BIN" run m.yaml -o out -q >/dev/null 2>err &
	pa=$!
	for i in $(seq 1 100); do
		workers=$(own_procs "$MATRIX_BIN worker" | awk '{ print $1 }')
		[ "$(wc -w <<<"$workers")" -ge 3 ] && break	# a server and 2 clients
		sleep 0.05
	done
	[ "$(wc -w <<<"$workers")" -ge 3 ] || { kill -9 "$pa"; die "no workers: $(own_procs)"; }
	for i in $(seq 1 100); do	# their rings mapped (after connect)
		maps=$(for w in $workers; do cat "/proc/$w/maps" 2>/dev/null; done)
		[ "$(grep -c 'memfd:matrix-shm' <<<"$maps")" -ge 4 ] && break
		sleep 0.05
	done
	grep -q 'memfd:matrix-shm' <<<"$maps" || { kill -9 "$pa"; die "no memfd mapped: $maps"; }
	! grep -q '/dev/shm/' <<<"$maps" || { kill -9 "$pa"; die "a /dev/shm file mapped: $maps"; }
	kill -9 "$pa"
	wait "$pa" 2>/dev/null || true
	for i in $(seq 1 100); do
		[ -z "$(own_procs "$MATRIX_BIN worker")" ] && [ -z "$(ls -A "$TMPDIR")" ] && break
		sleep 0.05
	done
	expect_no_leftovers
	[ "$(shm_entries)" = "$before" ] ||
		die "/dev/shm after the kill: $(diff <(echo "$before") <(shm_entries))"
}

# wake: eventfd, every pattern, two connections: the same counts as a
# futex's
t_shm_wake_eventfd_every_pattern() {
	mat m.yaml <<'Y'
name: shmeventfd
repeat: 1
warmup: 10
timeout: 30s
matrix:
  pattern: [pingpong, echo, stream]
  transport: shm
  size: [16, 64KiB]
  inflight: [1, 4]
  concurrency: 2
  wake: eventfd
  count: 200
exclude:
  - {pattern: stream, inflight: 4}
  - {pattern: pingpong, inflight: 4}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ "$(csvq out/results.csv --rows)" -eq 8 ] || die "expected 8 rows"
	expect_all out/results.csv wake eventfd
	expect_counts out/results.csv 200
	printf 'name: x\nmatrix:\n  transport: shm\n  wake: [futex, spin]\n' >bad.yaml
	run_matrix plan bad.yaml; expect_rc 2
	expect_err "bad.yaml:4:17: wake: unknown wake 'spin' (known: futex, eventfd)"
	expect_no_leftovers
}

# Which call a sleeping client waits in (strace -c): FUTEX_WAIT for
# wake: futex, poll() and a read of its eventfd for wake: eventfd; the
# server answers each request 20 ms late, so the client sleeps each time.
t_shm_wake_sleeps_in_the_call_it_names() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
	local w srv calls
	for w in futex eventfd; do
		"$MATRIX_BIN" worker server -t shm -b "$T/$w.sock" -s 16 -w 0 --spin 20ms --wake $w \
			>"srv-$w.out" 2>&1 &
		srv=$!
		wait_line "srv-$w.out" '^listen '
		rc=0
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -c -o "$w.strace" \
			"$MATRIX_BIN" worker client -t shm -a "$T/$w.sock" -s 16 -n 5 -w 0 --wake $w \
			>"cli-$w.out" 2>"$T/.err" || rc=$?
		expect_rc 0
		wait "$srv" || die "$w server failed: $(cat "srv-$w.out")"
		[ "$(wire_field "cli-$w.out" hist count)" -eq 5 ] || die "$w: expected 5 round trips"
		calls() { awk -v n="$1" '$NF == n && $1 ~ /^[0-9.]+$/ { print $4 }' "$w.strace"; }
		if [ $w = futex ]; then
			[ "$(calls futex)" -ge 5 ] || die "futex client: $(cat $w.strace)"
			[ -z "$(calls poll)" ] || die "futex client polled: $(cat $w.strace)"
		else
			[ "$(calls poll)" -ge 5 ] || die "eventfd client: $(tr "\n" ";" <$w.strace)"
		fi
	done
	expect_no_leftovers
}
