# The client's clock and syscalls, with a worker run by hand against small
# servers that misbehave on purpose: with inflight > 1 a request's clock
# starts at the first try to send it, even when the send buffer is full; a
# udp round trip is the same syscalls as any other transport's, and its
# losses are still found by the receive timeout alone.

t_inflight_clock_starts_at_the_first_try() {
	command -v python3 >/dev/null || skip "python3 missing"
	local prog=$REPO/tests/e2e/programs/slow_seqpacket_server.py
	# Requests of 0.6 x the default send buffer (at most the transport's 128
	# KiB): records go whole or not at all, and a send is taken while the
	# bytes queued are under the buffer's size, so the first `fit` go out
	# at once and the next one waits for the server.  The probe counts
	# `fit` on this kernel instead of trusting that arithmetic.
	local wmem size fit n delay=0.4
	wmem=$(cat /proc/sys/net/core/wmem_default) || die "no /proc/sys/net/core/wmem_default"
	size=$((wmem * 6 / 10))
	[ "$size" -le 131072 ] || size=131072
	fit=$(python3 "$prog" probe "$size") || die "probe failed"
	[ "$fit" -ge 1 ] && [ "$fit" -lt 1000 ] || skip "send buffer takes $fit records of $size bytes"
	n=$((fit + 1))
	# The server reads nothing for 0.4 s.  Every request is tried at once,
	# so every round trip includes that wait; a clock restarted when the
	# last request found room would time it from 0.4 s on: a few ms.
	timeout 30 python3 "$prog" serve "$T/slow.sock" "$size" 16 "$delay" >srv.out 2>&1 &
	local srv=$!
	wait_line srv.out '^listening'
	rc=0
	timeout 30 "$MATRIX_BIN" worker client -t unix_seqpacket -a "$T/slow.sock" -p pingpong \
		-s "$size" -r 16 -n "$n" -i "$n" -w 0 >wire.out 2>"$T/.err" || rc=$?
	expect_rc 0
	wait "$srv" || die "server failed: $(cat srv.out)"
	[ "$(wire_field wire.out hist count)" -eq "$n" ] || die "expected $n round trips"
	local min; min=$(wire_field wire.out hist min)
	le 320000000 "$min" ||
		die "shortest of $n round trips ($fit fit the send buffer) is $min ns: it must include the server's ${delay} s"
	expect_no_leftovers
}

# strace_calls FILE SYSCALL...: the calls of these syscalls in an `strace
# -c` summary (0 when none); "total" is every syscall.
strace_calls() {
	local f=$1; shift
	awk -v names=" $* " '$1 ~ /^[0-9.]+$/ && index(names, " " $NF " ") { s += $4 }
		END { print s + 0 }' "$f"
}

# traced_pingpong TRANSPORT BIND COUNT: a pingpong of COUNT 16-byte round
# trips by hand, the client under `strace -c` (summary in TRANSPORT.strace).
traced_pingpong() {
	"$MATRIX_BIN" worker server -t "$1" -b "$2" -s 16 -w 0 >"srv-$1.out" 2>&1 &
	local srv=$! addr
	wait_line "srv-$1.out" '^listen '
	addr=$(wire_field "srv-$1.out" listen address)
	rc=0
	# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -c -o "$1.strace" \
		"$MATRIX_BIN" worker client -t "$1" -a "$addr" -s 16 -n "$3" -w 0 \
		>"cli-$1.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	wait "$srv" || die "$1 server failed: $(cat "srv-$1.out")"
	[ "$(wire_field "cli-$1.out" hist count)" -eq "$3" ] || die "$1: expected $3 round trips"
}

t_udp_round_trip_makes_the_same_syscalls() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
	local n=1000 t calls polls unix_total
	traced_pingpong unix "$T/u.sock" $n
	traced_pingpong unix_dgram "$T/d.sock" $n
	traced_pingpong udp 127.0.0.1:0 $n
	unix_total=$(strace_calls unix.strace total)
	[ "$unix_total" -ge $((2 * n)) ] || die "strace counted $unix_total syscalls for $n round trips"
	for t in unix_dgram udp; do
		# the datagram handshake polls once; a round trip must not
		polls=$(strace_calls $t.strace poll ppoll select pselect6 epoll_wait epoll_pwait)
		[ "$polls" -lt $((n / 10)) ] ||
			die "$t client: $polls poll-family calls for $n round trips: $(cat $t.strace)"
		# the same count per round trip as a unix stream (a send and a
		# receive); set-up differs by a few dozen calls at most
		calls=$(strace_calls $t.strace total)
		[ $((calls - unix_total)) -lt $((n / 10)) ] && [ $((unix_total - calls)) -lt $((n / 10)) ] ||
			die "$t client: $calls syscalls for $n round trips, unix: $unix_total
$(cat $t.strace)"
	done
	expect_no_leftovers
}

t_udp_loss_found_by_the_receive_timeout() {
	# every even-numbered request is dropped: 10 of 20 lost, each waited
	# out for its 250 ms, the other 10 timed
	lossy_udp drop 20 250ms 0
	[ "$(wire_field wire.out result lost)" -eq 10 ] || die "lost: $(cat wire.out)"
	[ "$(wire_field wire.out result messages)" -eq 10 ] || die "messages: $(cat wire.out)"
	[ "$(wire_field wire.out hist count)" -eq 10 ] || die "rtt samples: $(cat wire.out)"
	local el
	el=$(($(wire_field wire.out result end_ns) - $(wire_field wire.out result start_ns)))
	le 2250000000 $el || die "10 lost requests of 250 ms each took $el ns"
	le $el 15000000000 || die "20 requests took $el ns"
	le "$(wire_field wire.out hist max)" 250000000 || die "an answer later than 250 ms was timed"
	expect_no_leftovers
}

t_udp_late_replies_cut_the_wait() {
	# every even-numbered request is answered 900 ms late, after the client
	# gave it up (600 ms) and sent the next, which the server answers as
	# soon as the late one is out: the late reply comes first, and the wait
	# for the next one is what is left of its 600 ms, then 600 ms again for
	# the one after (a wait left cut, 300 ms, loses every odd one too)
	lossy_udp late 6 600ms 0.9
	[ "$(wire_field wire.out result lost)" -eq 3 ] || die "lost: $(cat wire.out)"
	[ "$(wire_field wire.out hist count)" -eq 3 ] || die "rtt samples: $(cat wire.out)"
	# each answered one waited in the server while it slept on the one
	# before (about 300 ms, less when the client ran late): its round trip
	# is at least that, and under the loss_timeout
	local min max held
	min=$(wire_field wire.out hist min) max=$(wire_field wire.out hist max) held=$(held_min)
	le "$held" "$min" || die "shortest answered round trip $min ns, yet the server held one ${held} ns"
	le "$max" 600000000 || die "a round trip of $max ns, more than the 600 ms loss_timeout"
	expect_no_leftovers
}

t_udp_reply_after_loss_timeout_is_lost() {
	# every even-numbered request is answered 310 ms late, with a 300 ms
	# loss_timeout: lost, even where the kernel's receive timeout, counted
	# in timer ticks, runs over and the reply comes in while it waits
	lossy_udp late 6 300ms 0.31
	[ "$(wire_field wire.out result lost)" -eq 3 ] || die "lost: $(cat wire.out)"
	[ "$(wire_field wire.out hist count)" -eq 3 ] || die "rtt samples: $(cat wire.out)"
	local max; max=$(wire_field wire.out hist max)
	le "$max" 300000000 || die "a round trip of $max ns, more than the 300 ms loss_timeout"
	expect_no_leftovers
}
