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
