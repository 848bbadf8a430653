# The mq transport (transports/mq.c): POSIX message queues, a pair per
# client.  Every pattern it does at sizes up to this machine's
# fs.mqueue.msgsize_max, blocking and busy; the machine's limits refused at
# plan time, read here from /proc as the plan reads them (never this
# machine's values written in); no queue name left while a cell
# measures, nor after a kill -9 of the runner; and a dead peer seen, never
# waited for.

MQ_SYSCTL=/proc/sys/fs/mqueue

need_mq() {
	[ -r $MQ_SYSCTL/msg_max ] && [ -r $MQ_SYSCTL/msgsize_max ] ||
		skip "no POSIX message queues here ($MQ_SYSCTL)"
}

t_mq_every_pattern_size_and_poll() {
	need_mq
	local big; big=$(cat $MQ_SYSCTL/msgsize_max)
	[ "$big" -gt 8192 ] && big=8192
	# inflight 4 needs queues 4 deep
	[ "$(cat $MQ_SYSCTL/msg_max)" -ge 4 ] || skip "fs.mqueue.msg_max is under 4"
	mat m.yaml <<Y
name: mqall
repeat: 1
warmup: 10
timeout: 30s
matrix:
  pattern: [pingpong, echo, stream]
  transport: mq
  size: [16, 1KiB, $big]
  inflight: [1, 4]
  poll: [block, busy]
  concurrency: 2
  count: 200
exclude:
  - {pattern: stream, inflight: 4}
  - {pattern: pingpong, inflight: 4}
  - {pattern: echo, inflight: 1}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 18 ] || die "expected 18 rows"
	# echo compares every reply with its request: a mismatch fails the cell
	expect_all $r status ok
	expect_all $r transport mq
	expect_all $r messages 200
	expect_all $r sent_messages 200
	# bytes: both ways for a round trip, one way for a stream
	csvq $r pattern size bytes | awk -F'\t' '
		$1 == "stream" && $3 != 200 * $2 { print; bad = 1 }
		$1 != "stream" && $3 != 400 * $2 { print; bad = 1 } END { exit bad }' ||
		die "bytes do not match the counts"
	csvq $r pattern msgs_per_s rtt_p50_us | awk -F'\t' '$2 + 0 <= 0 ||
		($1 != "stream" && $3 + 0 <= 0) { print; bad = 1 } END { exit bad }' ||
		die "a cell without a rate or a round-trip time"
	expect_no_leftovers
}

t_mq_limits_at_plan_time() {
	need_mq
	local msgsize_max msg_max
	msgsize_max=$(cat $MQ_SYSCTL/msgsize_max) msg_max=$(cat $MQ_SYSCTL/msg_max)
	# 16 KiB where that is over the limit (8 KiB is the kernel's default), else just over it
	local size=16384
	[ "$msgsize_max" -lt 16384 ] || size=$((msgsize_max + 1))
	printf 'name: x\nmatrix:\n  transport: mq\n  size: %s\n' $size >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:4:9: transport mq: size $size is larger than a POSIX message queue takes here: fs.mqueue.msgsize_max is $msgsize_max bytes (/proc/sys/fs/mqueue/msgsize_max)"
	expect_err "sysctl -w fs.mqueue.msgsize_max=N"
	printf 'name: x\nmatrix:\n  transport: mq\n  size: %s\n' "$msgsize_max" >ok.yaml
	run_matrix plan ok.yaml; expect_rc 0
	# pingpong's answer too
	printf 'name: x\nmatrix:\n  transport: mq\n  size: 64\n  response_size: %s\n' $size >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:5:18: transport mq: response_size $size is larger than"
	printf 'name: x\nmatrix:\n  transport: mq\n  pattern: echo\n  size: 64\n  inflight: [1, %s]\n' \
		$((msg_max + 1)) >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:6:17: transport mq: inflight $((msg_max + 1)) needs message queues $((msg_max + 1)) messages deep, more than fs.mqueue.msg_max ($msg_max, /proc/sys/fs/mqueue/msg_max) allows"
	sed -i "s/\[1, $((msg_max + 1))\]/$msg_max/" c.yaml
	run_matrix plan c.yaml; expect_rc 0
	# the queue bytes of a user (RLIMIT_MSGQUEUE): a stream's queue is
	# min(10, msg_max) deep, its way back one message of 1 byte, each
	# message with the kernel's 96 bytes; under a limit one byte short the
	# cell is refused at its concurrency, at the limit it plans and runs
	local depth=$((msg_max < 10 ? msg_max : 10)) need
	need=$((depth * (1024 + 96) + 97))
	printf 'name: x\nrepeat: 1\nmatrix:\n  transport: mq\n  pattern: stream\n  size: 1KiB\n  concurrency: 1\n  count: 100\n' >d.yaml
	rc=0
	(ulimit -q $((need - 1)) && exec "$MATRIX_BIN" plan d.yaml) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "d.yaml:7:16: transport mq: concurrency 1: the cell's 2 message queues"
	expect_err "need $need bytes, more than RLIMIT_MSGQUEUE lets this user have ($((need - 1)) bytes"
	# (not run under it: the limit counts every queue of the user, and other
	# tests' cells may have theirs meanwhile)
	rc=0
	(ulimit -q $need && exec "$MATRIX_BIN" plan d.yaml) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	# the plan counts the hard limit: the server raises its soft one to it
	if [ "$(ulimit -Hq)" = unlimited ] || [ "$(ulimit -Hq)" -ge $((need * 4)) ]; then
		rc=0
		(ulimit -Sq 100 && exec "$MATRIX_BIN" run d.yaml -o soft --quiet) >"$T/.out" 2>"$T/.err" ||
			rc=$?
		expect_rc 0
		expect_all soft/results.csv status ok
	fi
	# what the machine allows, in the list of transports; no pipeline
	run_matrix transports; expect_rc 0
	grep -qE "^mq +pingpong,echo,stream +size 1B to ${msgsize_max}B, inflight $msg_max " "$T/.out" ||
		die "matrix transports: $(grep '^mq' "$T/.out")"
	printf 'name: x\nmatrix:\n  transport: mq\n  pattern: pipeline\n' >e.yaml
	run_matrix plan e.yaml; expect_rc 2
	expect_err "e.yaml:3:14: transport mq cannot do pattern pipeline"
}

# mq_mount: the queue file system on /dev/mqueue, mounted here when it is
# not (MQ_MOUNTED=1: unmount it after); skips where it cannot be.
MQ_MOUNTED=0 MQ_MADE_DIR=0
mq_unmount() {
	[ "$MQ_MOUNTED" = 1 ] && umount /dev/mqueue 2>/dev/null
	[ "$MQ_MADE_DIR" = 1 ] && rmdir /dev/mqueue 2>/dev/null
	e2e_teardown
}
mq_mount() {
	[ "$(stat -f -c %T /dev/mqueue 2>/dev/null)" = mqueue ] && return 0
	[ "$(id -u)" = 0 ] || skip "/dev/mqueue is not mounted and we are not root"
	trap mq_unmount EXIT
	if [ ! -d /dev/mqueue ]; then
		mkdir /dev/mqueue 2>/dev/null || skip "cannot make /dev/mqueue"
		MQ_MADE_DIR=1
	fi
	mount -t mqueue none /dev/mqueue 2>/dev/null || skip "cannot mount mqueue on /dev/mqueue"
	MQ_MOUNTED=1
}

# "PID" of each of this test's live workers
own_workers() { own_procs "$MATRIX_BIN worker" | awk '{ print $1 }'; }

# names_of PID...: the queue names in /dev/mqueue of servers of these PIDs
names_of() {
	local p
	for p in "$@"; do
		ls /dev/mqueue | grep "^matrix-$p-" || true
	done
}

t_mq_killed_runner_leaves_no_queue() {
	need_mq
	mq_mount
	mat m.yaml <<'Y'
name: mqkill
repeat: 1
timeout: 60s
matrix:
  transport: mq
  concurrency: 2
  count: 100000000
Y
	"$MATRIX_BIN" run m.yaml -o out -q >/dev/null 2>err &
	local runner=$! i p workers="" fds
	# measuring: the server holds both clients' four queues and each
	# client its two, every one without a name any more (a name that is
	# never unlinked never shows as deleted)
	for i in $(seq 1 200); do
		workers=$(own_workers)
		fds=""
		for p in $workers; do
			fds+=$(ls -l /proc/$p/fd 2>/dev/null | grep -o '/matrix-[0-9]*-[0-9]*-[cs]2[cs].*')$'\n'
		done
		[ "$(grep -c '(deleted)' <<<"$fds")" -ge 8 ] && break
		sleep 0.05
	done
	[ "$(grep -c '(deleted)' <<<"$fds")" -ge 8 ] ||
		{ kill -9 $runner; die "no cell measuring with its queues' names unlinked: $fds"; }
	[ -z "$(names_of $workers)" ] ||
		{ kill -9 $runner; die "names in /dev/mqueue while it measures: $(names_of $workers)"; }
	kill -9 $runner
	wait $runner 2>/dev/null
	for i in $(seq 1 100); do
		[ -z "$(own_workers)" ] && break
		sleep 0.05
	done
	[ -z "$(own_workers)" ] || die "workers outlived the runner: $(own_procs "$MATRIX_BIN worker")"
	[ -z "$(names_of $workers)" ] || die "queues left in /dev/mqueue: $(names_of $workers)"
}

t_mq_stale_names_of_dead_servers_are_removed() {
	need_mq
	mq_mount
	# a server that died between mq_open and its client's answer left a
	# name: the next mq server removes it (its PID is dead), and not a name
	# of a live PID's (this shell's)
	sh -c 'exit 0' &
	local dead=$!
	wait $dead
	kill -0 $dead 2>/dev/null && skip "PID $dead was taken again at once"
	: >/dev/mqueue/matrix-$dead-1-c2s
	: >/dev/mqueue/matrix-$$-1-c2s
	printf 'name: x\nrepeat: 1\nmatrix:\n  transport: mq\n  count: 50\n' >m.yaml
	run_matrix run m.yaml -o out --quiet
	local dead_left=0 live_left=0
	[ -e /dev/mqueue/matrix-$dead-1-c2s ] && dead_left=1
	[ -e /dev/mqueue/matrix-$$-1-c2s ] && live_left=1
	rm -f /dev/mqueue/matrix-$dead-1-c2s /dev/mqueue/matrix-$$-1-c2s
	expect_rc 0
	[ $dead_left = 0 ] || die "the dead server's queue name is still there"
	[ $live_left = 1 ] || die "a live PID's queue name was removed"
}

# wait_gone PID WHAT: PID ends within 20 s (a dead peer is seen within
# 100 ms: the bound is for a loaded machine), else it is killed and the
# test fails.
wait_gone() {
	local i
	for i in $(seq 1 400); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; return 0; }
		sleep 0.05
	done
	kill -9 "$1" 2>/dev/null
	die "$2 still waits 20 s after its peer died"
}

# A peer killed mid-cell: nothing waits for it forever.  The server sees
# a dead client's closed socket (Connection reset by peer), a client a dead
# server's (a pingpong's receive, a stream's send into a full queue:
# Broken pipe), blocking or busy.
t_mq_a_dead_peer_ends_the_other() {
	need_mq
	local pat poll srv cli addr o
	for pat in pingpong stream; do
		for poll in block busy; do
			o=$pat-$poll
			"$MATRIX_BIN" worker server -t mq -b "$T/$pat-$poll.sock" -p $pat -n 100000000 \
				-w 0 --poll $poll >srv-$o.out 2>&1 &
			srv=$!
			wait_line srv-$o.out '^listen '
			addr=$(wire_field srv-$o.out listen address)
			"$MATRIX_BIN" worker client -t mq -a "$addr" -p $pat -n 100000000 -w 0 \
				--poll $poll >cli-$o.out 2>&1 &
			cli=$!
			wait_line cli-$o.out '^ready'	# connected, and sending
			kill -9 $cli
			wait $cli 2>/dev/null
			wait_gone $srv "the $pat $poll server"
			grep -q '^error stage=receive message=receive%20from%20mq%20client%201:%20Connection%20reset%20by%20peer' srv-$o.out ||
				die "$pat $poll server: $(cat srv-$o.out)"
			# the other way: the server dies (it spins 1 ms per message, so
			# that a stream's queue is full)
			"$MATRIX_BIN" worker server -t mq -b "$T/$pat-$poll-2.sock" -p $pat -n 100000000 \
				-w 0 --poll $poll --spin 1ms >srv-$pat-$poll-2.out 2>&1 &
			srv=$!
			o=$pat-$poll-2
			wait_line srv-$o.out '^listen '
			addr=$(wire_field srv-$o.out listen address)
			"$MATRIX_BIN" worker client -t mq -a "$addr" -p $pat -n 100000000 -w 0 \
				--poll $poll >cli-$o.out 2>&1 &
			cli=$!
			wait_line cli-$o.out '^ready'	# connected, and sending
			kill -9 $srv
			wait $srv 2>/dev/null
			wait_gone $cli "the $pat $poll client"
			case $pat in
			pingpong) grep -q '^error stage=receive .*Connection%20reset%20by%20peer' cli-$o.out ;;
			stream) grep -q '^error stage=send .*Broken%20pipe' cli-$o.out ;;
			esac || die "$pat $poll client: $(cat cli-$o.out)"
		done
	done
	expect_no_leftovers
}
