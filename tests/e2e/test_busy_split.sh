# poll: busy with messages larger than a socket's or a pipe's buffer
# (issue 14 review): each message is split across many reads and writes,
# and between the pieces the non-blocking descriptor says EAGAIN, which a
# busy worker must retry in its spin, not take for an error.  Small
# messages (test_poll.sh) always move in one call and never get there.

t_busy_messages_split_across_calls() {
	mat m.yaml <<'Y'
name: busysplit
repeat: 1
warmup: 1
timeout: 30s
matrix:
  transport: [tcp, unix, pipe]
  pattern: [pingpong, echo, stream]
  inflight: [1, 2]
  size: 1MiB
  poll: busy
  count: 10
exclude:
  - {pattern: stream, inflight: 2}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ "$(csvq out/results.csv --rows)" -eq 15 ] || die "expected 15 rows"
	expect_all out/results.csv status ok
	expect_all out/results.csv messages 10
	expect_no_leftovers
}
