# pattern: pipeline, echo with no window (workers/pipeline.c): each
# client's writer sends back to back and never waits for a reply, its
# reader counts and checks the echoes.  Over every transport that can
# (every stream socket, pipes, unix datagrams and seqpackets), by count and
# by time, blocking and busy; against a line-framed server of the source's
# kind; refused where it cannot be.

SERVER="$REPO/tests/e2e/programs/line_echo_server.py"

t_pipeline_every_duplex_transport() {
	mat m.yaml <<'Y'
name: pipelined
repeat: 1
warmup: 10
matrix:
  pattern: pipeline
  transport: [tcp, unix, tcp6, unix_dgram, unix_seqpacket, pipe]
  size: [16, 4KiB]
  concurrency: [1, 3]
  count: 3000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 24 ] || die "expected 24 rows"
	expect_all $r status ok
	expect_all $r pattern pipeline
	expect_all $r messages 3000
	expect_all $r sent_messages 3000
	# bytes both ways, a rate, and no round trip timed
	csvq $r size messages bytes msgs_per_s rtt_samples rtt_p50_us | awk -F'\t' '
		{ s = $1 == "4KiB" ? 4096 : $1 }
		$3 != 2 * s * $2 || !($4 > 0) || $5 != "" || $6 != "" { print; bad = 1 }
		END { exit bad }' || die "pipeline rows: bytes, rate or an RTT that is not there"
	# no hist.csv rows: nothing was timed per message
	[ ! -s out/hist.csv ] || ! grep -q pipeline out/hist.csv || die "hist.csv has pipeline rows"
	# the summary's table shows the echoes' rate, not round trips
	grep -q '^## pattern: pipeline' out/summary.md || grep -q 'pipeline' out/summary.md ||
		die "summary.md does not name pipeline"
	grep -q 'msg/s' out/summary.md || die "summary.md has no msg/s"
	grep -q 'RTT p50' out/summary.md && die "summary.md shows RTT for pipeline cells"
	expect_no_leftovers
}

t_pipeline_by_time_and_busy() {
	mat m.yaml <<'Y'
name: pipelined
repeat: 1
warmup: 0
matrix:
  pattern: pipeline
  transport: [tcp, unix, pipe]
  poll: [block, busy]
  size: 64
  duration: 300ms
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	# by time: every request written has its echo, and the window is about
	# the duration (loosely: a loaded machine may run over, and a writer
	# preempted between its last send and the clock read that ends it sent
	# that last request earlier: 0.222 s of 0.3 was seen at a load of 17)
	csvq $r messages sent_messages elapsed_s | awk -F'\t' '
		$1 != $2 || !($1 > 0) || $3 < 0.1 || $3 > 5 { print; bad = 1 } END { exit bad }' ||
		die "a timed pipeline whose echoes and requests differ"
	expect_no_leftovers
}

# The defining property: the writer does not wait.  A server that reads
# every request before it answers any: pipeline finishes, echo (which
# waits for each reply) cannot.
t_pipeline_writer_never_waits_for_a_reply() {
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<Y
name: held
repeat: 1
warmup: 0
timeout: 3s
programs:
  hold:
    server: [python3, $SERVER, "{path}", hold, "16000"]
    ready: listening
matrix:
  pattern: [pipeline, echo]
  transport: unix
  server: hold
  size: 16
  count: 1000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	local r=out/results.csv
	csvq $r pattern status messages | awk -F'\t' '
		$1 == "pipeline" && ($2 != "ok" || $3 != 1000) { print; bad = 1 }
		$1 == "echo" && $2 == "ok" { print; bad = 1 } END { exit bad }' ||
		die "held replies: $(csvq $r pattern status | tr '\t\n' ': ')"
	expect_no_leftovers
}

# Every request ends in a newline, so a line-framed echo server (the
# source's kind) echoes each whole; and every echo is checked.
t_pipeline_with_a_line_framed_server() {
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<Y
name: lines
repeat: 1
warmup: 5
timeout: 20s
programs:
  lines:
    server: [python3, $SERVER, "{path}", lines]
    ready: listening
  corrupt:
    server: [python3, $SERVER, "{path}", corrupt, "700"]
    ready: listening
matrix:
  pattern: pipeline
  transport: unix
  server: [lines, corrupt]
  size: [10, 1000]
  concurrency: [1, 2]
  count: 2000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	local r=out/results.csv
	csvq $r server status messages | awk -F'\t' '
		$1 == "lines" && ($2 != "ok" || $3 != 2000) { print; bad = 1 }
		$1 == "corrupt" && $2 !~ /echo mismatch: 1 of/ { print; bad = 1 } END { exit bad }' ||
		die "line-framed server: $(csvq $r server size status | tr '\t\n' ': ')"
	expect_no_leftovers
}

t_pipeline_refused_where_it_cannot_be() {
	printf 'name: x\nmatrix:\n  pattern: pipeline\n  transport: [tcp, udp]\n' >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:4:20: transport udp cannot do pattern pipeline"
	printf 'name: x\nmatrix:\n  pattern: pipeline\n  transport: zmq\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:4:14: transport zmq cannot do pattern pipeline"
	printf 'name: x\nmatrix:\n  pattern: pipeline\n  inflight: 4\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:4:13: inflight applies to pingpong and echo, not pipeline (its writer never waits for a reply: no window)"
	printf 'name: x\nmatrix:\n  pattern: stream\n  inflight: 4\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 2
	expect_err "d.yaml:4:13: inflight applies to pingpong and echo, not stream"
	printf 'name: x\nmatrix:\n  pattern: pipeline\n  transport: [tcp, unix]\n' >e.yaml
	run_matrix plan e.yaml; expect_rc 0
}
