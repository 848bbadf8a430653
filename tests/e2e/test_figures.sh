# Figures right by construction: a stream receiver's window, the start
# barrier's spread, and one definition of CPU per message.

# A short tcp stream with two senders: the socket holds megabytes, so a
# receiver that gets the CPU late finds most of the stream already queued.
# Its rate is timed from the senders' start, so it can never exceed the
# rate at which they sent (a window opened at the receiver's first read
# gave 1.5x to 2.7x the senders' rate in some repetitions).
t_stream_receiver_never_outruns_its_senders() {
	mat m.yaml <<Y
name: backlog
repeat: 30
warmup: 10
matrix:
  pattern: stream
  transport: tcp
  size: 1KiB
  concurrency: 2
  count: 5000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv n=0 recv sent msgs smsgs
	expect_all $r status ok
	while IFS=$'\t' read -r recv sent msgs smsgs; do
		[ "$msgs" = "$smsgs" ] || die "received $msgs of $smsgs messages"
		# the last send may return after the receiver read it; 10% is far
		# above that and far below the 1.5x of a backlog counted as rate
		le "$recv" "$(awk -v s="$sent" 'BEGIN { print s * 1.1 }')" ||
			die "receiver rate $recv msg/s above the senders' $sent msg/s"
		n=$((n + 1))
	done < <(csvq $r msgs_per_s sent_msgs_per_s messages sent_messages)
	[ "$n" -eq 30 ] || die "$n rows, expected 30"
}

# Every worker client's start after the runner's release is in
# results.csv, and the spread is the distance between the first and last.
t_start_offsets_of_every_client_are_recorded() {
	mat m.yaml <<Y
name: barrier
repeat: 3
warmup: 5
matrix:
  pattern: pingpong
  transport: unix
  size: 64
  concurrency: 4
  count: 400
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv offsets spread
	expect_all $r status ok
	while IFS=$'\t' read -r offsets spread; do
		awk -v o="$offsets" -v s="$spread" 'BEGIN {
			n = split(o, a, ";"); if (n != 4) exit 1
			lo = a[1]; hi = a[1]
			for (i = 1; i <= n; i++) {
				if (a[i] !~ /^[0-9]+\.[0-9]+$/) exit 1
				if (a[i] + 0 < lo) lo = a[i] + 0
				if (a[i] + 0 > hi) hi = a[i] + 0
			}
			d = hi - lo - s; if (d < 0) d = -d
			exit !(d < 0.002)
		}' || die "start offsets '$offsets' and spread '$spread' do not agree for 4 clients"
	done < <(csvq $r start_offsets_us start_spread_us)
}

# CPU per message counts a round trip as two messages; per round trip is
# its own column, empty for a stream.
t_cpu_per_message_and_per_round_trip() {
	mat m.yaml <<Y
name: cpu
repeat: 2
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: unix
  size: 64
  count: 2000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv pat msg rtt seen=""
	expect_all $r status ok
	while IFS=$'\t' read -r pat msg rtt; do
		seen="$seen $pat"
		case $pat in
		pingpong)
			awk -v m="$msg" -v r="$rtt" 'BEGIN { d = r - 2 * m; if (d < 0) d = -d
				exit !(m > 0 && d <= r * 1e-6) }' ||
				die "pingpong: $msg us/msg is not half of $rtt us/rtt" ;;
		stream)
			[ -n "$msg" ] && [ -z "$rtt" ] ||
				die "stream: cpu_us_per_msg '$msg', cpu_us_per_rtt '$rtt' (expected empty)" ;;
		esac
	done < <(csvq $r pattern cpu_us_per_msg cpu_us_per_rtt)
	case $seen in *pingpong*stream*|*stream*pingpong*) ;; *) die "patterns seen:$seen" ;; esac
	grep -q '^### CPU time per round trip (all workers)$' out/summary.md ||
		die "summary.md has no CPU-per-round-trip table"
	grep -q '^### CPU time per message, each way (all workers)$' out/summary.md ||
		die "summary.md has no CPU-per-message table for the stream"
}

# The start byte wakes every worker together: each waits in poll(), which
# one write wakes all at once, and reads its byte only then (a read()
# blocked on a pipe is woken one reader at a time, since Linux 5.5).
t_every_worker_waits_for_the_start_in_poll() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
	mat m.yaml <<Y
name: release
repeat: 2
warmup: 2
matrix:
  pattern: pingpong
  transport: unix
  size: 16
  concurrency: 3
  count: 10
Y
	rc=0
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -qq \
		-e trace=poll,ppoll,read -e signal=none -o run.trace \
		"$MATRIX_BIN" run m.yaml -o out --quiet >run.out 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || die "run under strace: exit $rc: $(cat run.out)"
	expect_all out/results.csv status ok
	# per process: a poll on the control descriptor (fd 4), then its byte
	# (a read of fd 4 that strace shows cut in two counts when it resumes
	# with the "g": the runner's own fd 4 may be /proc/stat, read between
	# repetitions)
	awk '
		/poll\(\[\{fd=4, events=POLLIN\}\]/ { polled[$1] = 1 }
		/read\(4, +<unfinished \.\.\.>/ { pend[$1] = polled[$1] ? 1 : 2 }
		/<\.\.\. read resumed>"g"/ && pend[$1] { reader[$1] = 1; if (pend[$1] == 2) early[$1] = 1 }
		/<\.\.\. read resumed>/ { pend[$1] = 0 }
		/read\(4, +"g"/ { reader[$1] = 1; if (!polled[$1]) early[$1] = 1 }
		END {
			for (p in reader) n++
			for (p in early) { print "process " p " read the start byte without polling"; bad = 1 }
			if (n != 8) { print n " processes read fd 4, expected 8 (server + 3 clients, twice)"; bad = 1 }
			exit bad
		}' run.trace || die "the start byte was not waited for in poll (above)"
}
