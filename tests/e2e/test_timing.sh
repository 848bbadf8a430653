# The clocks start and stop where README says: a server that takes a known
# time over each round trip, and the round-trip times the client reports.

t_rtt_covers_the_whole_request_and_response() {
	command -v python3 >/dev/null || skip "python3 missing"
	# 1 MiB requests over a unix socket, far more than its buffer holds: the
	# client's write cannot end until the server reads, which it does 0.3 s
	# after the request starts to arrive; it answers 0.1 s after reading.
	# A round trip timed from before the write to after the whole response
	# is at least 0.4 s; a clock started after the write would say ~0.1 s,
	# one stopped before the response ~0.3 s.
	mat m.yaml <<Y
name: delays
repeat: 1
warmup: 0
timeout: 20s
programs:
  delay:
    server: [python3, $REPO/tests/e2e/programs/delay_server.py, "{path}", "{size}", "{response_size}", "0.3", "0.1"]
    ready: listening
matrix:
  pattern: pingpong
  transport: unix
  server: delay
  size: 1MiB
  response_size: 16
  count: 4
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	expect_all $r rtt_samples 4
	local min p50 max el
	IFS=$'\t' read -r min p50 max el < <(csvq $r rtt_min_us rtt_p50_us rtt_max_us elapsed_s)
	le 400000 "$min" || die "shortest round trip $min us: less than the server's 0.4 s"
	# loose upper bound: this machine is shared, and python is slow to start
	le "$max" 1400000 || die "longest round trip $max us: more than 1.4 s for a 0.4 s delay"
	le 1.6 "$el" || die "elapsed $el s for 4 round trips of at least 0.4 s"
	expect_no_leftovers
}

# spin (a test aid): the server busy-waits that long before each answer,
# and after each whole message of a stream, however many one read brings.
t_spin_adds_its_time_to_each_message() {
	mat m.yaml <<'Y'
name: spin
repeat: 1
warmup: 5
matrix:
  pattern: [pingpong, echo, stream]
  transport: unix
  size: 64
  spin: [0us, 2ms]
  count: 20
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv pat spin p50 el
	expect_all $r status ok
	[ "$(csvq $r spin | sort -u | tr '\n' ' ')" = "0 0.002 " ] || die "spin column: $(csvq $r spin | tr '\n' ' ')"
	# rtt_p50_us last: a stream's is empty, and read joins adjacent tabs
	while IFS=$'\t' read -r pat spin el p50; do
		case $pat/$spin in
		stream/0.002)
			# 20 timed messages, 2 ms each: at least 40 ms, though the
			# sender fills the socket while the server spins, so a read
			# brings many messages at once
			le 0.040 "$el" || die "stream with spin 2ms: $el s for 20 messages" ;;
		*/0.002)
			le 2000 "$p50" || die "$pat with spin 2ms: p50 $p50 us, below 2 ms" ;;
		stream/0) ;;
		*/0)	# far below; loose: this machine is shared
			le "$p50" 1000 || die "$pat without spin: p50 $p50 us" ;;
		*) die "unexpected row $pat/$spin" ;;
		esac
	done < <(csvq $r pattern spin elapsed_s rtt_p50_us)
	# the server alone spins, and only when asked
	run_matrix worker client -t unix -a "$T/nowhere" --spin 1us; expect_rc 2
	expect_err "matrix worker: --spin is a server option"
	expect_no_leftovers
}
