# The client's clock, with a worker run by hand against small servers that
# misbehave on purpose: with inflight > 1 a request's clock starts at the
# first try to send it, even when the send buffer is full.

# wire_field FILE KEYWORD KEY: the value of KEY on the KEYWORD line of a
# worker's wire record (workers/wire.h); dies when there is none.
wire_field() {
	local v
	v=$(awk -v kw="$2" -v key="$3" '$1 == kw {
		for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1")
	[ -n "$v" ] || die "$1: no $3 on a '$2' line: $(cat "$1")"
	echo "$v"
}

# wait_line FILE REGEX: waits (5 s at most) for a line of a server's output.
wait_line() {
	local i
	for i in $(seq 50); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	die "no '$2' from the server in 5 s: $(cat "$1")"
}

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
