# poll: uring (docs/measuring.md "io_uring"): our workers move a byte
# stream's bytes (tcp, tcp6, unix, pipe) through an io_uring per
# connection, with the same counts and checks as blocking cells; every
# transfer is an io_uring_enter, none a read or a write (strace); the
# plan refuses what a ring cannot carry.  Nothing here times uring against
# block: docs/measuring.md has one side-by-side run.

need_strace() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
}

# Skips where this kernel sets up no ring for us (the plan says why).
need_uring() {
	mat u.yaml <<'Y'
name: probe
matrix:
  transport: unix
  poll: uring
Y
	run_matrix plan u.yaml
	if [ "$rc" -ne 0 ]; then
		grep -q "io_uring" "$T/.err" && skip "no io_uring here: $(cat "$T/.err")"
		expect_rc 0
	fi
}

# strace_count FILE SYSCALL...: calls of these syscalls in an `strace -c`
# summary, 0 for none.
strace_count() {
	local f=$1; shift
	awk -v names=" $* " '$1 ~ /^[0-9.]+$/ && index(names, " " $NF " ") { s += $4 }
		END { print s + 0 }' "$f"
}

t_uring_cells_count_right() {
	need_uring
	# 1MiB: every message in many transfers (a socket's or a pipe's
	# buffer is smaller), partial sends and receives looped over
	mat m.yaml <<'Y'
name: uring
repeat: 1
warmup: 5
timeout: 30s
matrix:
  transport: [tcp, unix, pipe]
  pattern: [pingpong, echo, stream]
  size: [16, 1MiB]
  poll: [block, uring]
  count: 40
exclude:
  - {size: 1MiB, poll: block}
Y
	run_matrix run m.yaml -o out --quiet --only poll=uring; expect_rc 0
	[ "$(csvq out/results.csv --rows)" -eq 18 ] || die "expected 18 rows"
	expect_all out/results.csv status ok
	expect_all out/results.csv poll uring
	expect_all out/results.csv messages 40
	expect_all out/results.csv sent_messages 40
	csvq out/results.csv pattern msgs_per_s rtt_p50_us | awk -F'\t' '$2 + 0 <= 0 ||
		($1 != "stream" && $3 + 0 <= 0) { print; bad = 1 } END { exit bad }' ||
		die "a uring cell without a rate or a round-trip time"
	# the value in the plan's JSON and through --set
	run_matrix plan m.yaml --json; expect_rc 0
	grep -q '"poll": *"uring"' "$T/.out" || die "plan --json has no poll uring"
	sed -i '/^exclude:/,$d' m.yaml
	run_matrix plan m.yaml --set poll=uring --json; expect_rc 0
	grep -q '"poll": *"uring"' "$T/.out" || die "--set poll=uring: no uring cell"
	! grep -q '"poll": *"block"' "$T/.out" || die "--set poll=uring left a block cell"
	expect_no_leftovers
}

# traced PATTERN TRANSPORT BIND NAME [FLAGS...]: a server and a client by
# hand, both under `strace -f -c` (NAME-srv.strace, NAME-cli.strace), 200
# messages of 16 bytes with FLAGS.
traced() {
	local p=$1 t=$2 bind=$3 name=$4 addr srv; shift 4
	# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -c \
		-o "$name-srv.strace" "$MATRIX_BIN" worker server -t "$t" -p "$p" -b "$bind" -s 16 \
		-w 0 "$@" >"srv-$name.out" 2>&1 &
	srv=$!
	wait_line "srv-$name.out" '^listen '
	addr=$(wire_field "srv-$name.out" listen address)
	rc=0
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -c \
		-o "$name-cli.strace" "$MATRIX_BIN" worker client -t "$t" -p "$p" -a "$addr" -s 16 \
		-n 200 -w 0 "$@" >"cli-$name.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	wait "$srv" || die "$t server failed: $(cat "srv-$name.out")"
	[ "$(wire_field "srv-$name.out" result messages)" -eq 200 ] ||
		die "$name: the server counted $(wire_field "srv-$name.out" result messages), not 200"
}

# io calls of a trace: what a message on the plain path costs
io_calls() {
	strace_count "$1" read write readv writev sendto recvfrom sendmsg recvmsg
}

t_uring_workers_submit_every_transfer() {
	need_strace
	need_uring
	local t p bind name f enters io
	for t in tcp unix pipe; do
		for p in pingpong stream; do
			case $t in tcp) bind=127.0.0.1:0 ;; *) bind=$T/$t-$p.sock ;; esac
			name=$t-$p
			traced $p $t "$bind" $name --poll uring
			for f in $name-srv $name-cli; do
				enters=$(strace_count $f.strace io_uring_enter)
				io=$(io_calls $f.strace)
				# pingpong: a send and a receive a message at each end;
				# stream: a send each at the client; the server's
				# receives take what has come, many messages at once
				[ "$enters" -ge $([ $f = $t-stream-srv ] && echo 1 || echo 200) ] ||
					die "$f: $enters io_uring_enter for 200 messages: $(cat $f.strace)"
				# the rest: the wire record, the loader (ASan's
				# reads of /proc too): a few dozen, not one a message
				[ "$io" -lt 120 ] ||
					die "$f: $io reads and writes beside the ring: $(cat $f.strace)"
			done
		done
	done
	# the same by read() and write() when blocking: the count above can fail
	traced pingpong unix "$T/b.sock" block
	io=$(io_calls block-cli.strace)
	[ "$io" -ge 400 ] || die "blocking client: $io reads and writes for 200 round trips"
	[ "$(strace_count block-cli.strace io_uring_enter)" -eq 0 ] || die "blocking client used a ring"
	expect_no_leftovers
}

t_uring_refusals() {
	mat m.yaml <<'Y'
name: bad
matrix:
  transport: [unix, zmq]
  poll: [block, uring]
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:4:17: poll: uring moves a byte stream's reads and writes through io_uring (tcp, tcp6, unix, pipe); transport zmq has no descriptor of its own"
	expect_err "exclude {poll: uring, transport: zmq}"
	local t
	for t in shm mq; do
		printf 'name: bad\nmatrix:\n  transport: %s\n  poll: uring\n' $t >m.yaml
		run_matrix plan m.yaml; expect_rc 2
		expect_err "m.yaml:4:9: poll: uring moves a byte stream's reads and writes through io_uring (tcp, tcp6, unix, pipe); transport $t has no descriptor of its own"
	done
	printf 'name: bad\nmatrix:\n  transport: udp\n  poll: uring\n' >m.yaml
	run_matrix plan m.yaml; expect_rc 2
	expect_err "transport udp sends messages, one datagram a call"
	mat m.yaml <<'Y'
name: bad
matrix:
  transport: unix
  pattern: echo
  inflight: [1, 3]
  poll: uring
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:6:9: poll: uring runs one transfer at a time; inflight 3"
	# excluded, the rest runs as planned
	printf 'exclude:\n  - {poll: uring, inflight: 3}\n' >>m.yaml
	run_matrix plan m.yaml; expect_rc 0
	mat m.yaml <<'Y'
name: bad
matrix:
  poll: [block, epoll]
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:3:17: poll: unknown poll 'epoll' (known: block, busy, uring)"
	rc=0
	"$MATRIX_BIN" worker client -t unix -a x --poll spin >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "--poll spin: expected block, busy or uring"
	rc=0
	"$MATRIX_BIN" worker client -t mq -a x --poll uring >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "--poll=uring needs a byte stream of descriptors (tcp, tcp6, unix, pipe); transport mq"
}

# Where the kernel has no io_uring, or refuses it: a seccomp filter
# (tests/tools/no_uring.c) makes io_uring_setup fail for the plan.
t_uring_refused_without_a_ring() {
	local tool=$BUILD_DIR/tests/no_uring
	[ -x "$tool" ] || die "no $tool (make unit builds it)"
	"$tool" ENOSYS true 2>/dev/null || skip "no seccomp filter here: $("$tool" ENOSYS true 2>&1)"
	mat m.yaml <<'Y'
name: noring
matrix:
  transport: [unix, tcp]
  poll: [block, uring]
Y
	rc=0
	"$tool" ENOSYS "$MATRIX_BIN" plan m.yaml >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "m.yaml:4:17: poll: uring: this kernel has no io_uring (io_uring_setup: Function not implemented)"
	rc=0
	"$tool" EPERM "$MATRIX_BIN" plan m.yaml >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "m.yaml:4:17: poll: uring: "
	expect_err "io_uring_setup: Operation not permitted"
	# the block cells alone still plan there
	rc=0
	"$tool" ENOSYS "$MATRIX_BIN" plan m.yaml --only poll=block >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 0
}
