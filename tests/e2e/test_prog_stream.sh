# Programs in stream cells (issue 13): a program receiver and program
# senders, with our workers or with each other, over tcp, unix and zmq;
# what each side measured (measured_by), the receiver's printed count
# checked against what was sent, a receiver that never exits stopped once
# it printed its figures.  The programs are tests/e2e/programs/stream_*.py
# (and zmq_*.py), copied into the test's folder so that a leftover check
# sees only this test's processes.

progs() {
	command -v python3 >/dev/null || skip "python3 missing"
	mkdir -p "$T/p"
	cp "$REPO"/tests/e2e/programs/stream_*.py "$REPO"/tests/e2e/programs/zmq_*.py "$T/p/"
	P=$T/p
}

# No program of this test outlives its cell (besides the workers and the
# private folder: expect_no_leftovers).
no_programs_left() {
	expect_no_leftovers
	local left
	left=$(own_procs "$P/")
	[ -z "$left" ] || die "programs left running: $left"
}

# Program receiver and program senders over tcp, each printing its own
# figures: the row's rate is the receiver's printed count over its printed
# time, the senders' rate theirs, and measured_by says so for each side.
t_program_receiver_and_program_senders() {
	progs
	mat m.yaml <<Y
name: both
repeat: 2
timeout: 20s
programs:
  py:
    server: [$P/stream_receiver.py, tcp, "{port}", "{size}", "{count}"]
    client: [$P/stream_sender.py, tcp, "{host}", "{port}", "{size}", "{count}"]
    result:
      server: {messages: 'received ([0-9]+)', seconds: {regex: 'in ([0-9.]+) s', unit: s}}
      client: {messages: 'sent ([0-9]+)', seconds: 'in ([0-9.]+) s'}
matrix:
  pattern: stream
  transport: tcp
  server: py
  client: py
  concurrency: 2
  size: 100
  count: 3000
Y
	run_matrix run m.yaml -o out --quiet --export-json out.json; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	expect_all $r messages 3000
	expect_all $r sent_messages 3000
	expect_all $r measured_by "receiver=printed;senders=printed"
	expect_all $r printed_metrics "sent_msgs_per_s;msgs_per_s;mib_per_s"
	# elapsed_s is the time the receiver printed, the rate its count over it
	local secs; secs=$(sed -n 's/^received 3000 in \([0-9.]*\) s$/\1/p' out/logs/cell1-rep1-server.log)
	[ -n "$secs" ] || die "no figures in the receiver's log: $(cat out/logs/cell1-rep1-server.log)"
	csvq $r rep elapsed_s msgs_per_s mib_per_s | awk -F'\t' -v s="$secs" '
		function off(a, b) { return (a > b ? a - b : b - a) > 1e-6 * b }
		$1 == 1 && (off($2, s) || off($3, 3000 / s)) { bad = 1 }
		off($4, $3 * 100 / 1048576) { bad = 1 }
		END { exit bad }' || die "rates not from the printed figures ($secs s): $(csvq $r rep elapsed_s msgs_per_s mib_per_s)"
	csvq $r sent_msgs_per_s | awk '!($1 > 0) { bad = 1 } END { exit bad }' || die "no senders' rate"
	# the JSON export keeps a cell's measured_by whole over its repetitions
	grep -q '"measured_by": *"receiver=printed;senders=printed"' out.json ||
		die "JSON measured_by: $(grep -o '"measured_by": *"[^"]*"' out.json)"
	no_programs_left
}

# Our receiver with program senders, and a program receiver with our
# senders, over tcp and unix.  Our senders send no warmup messages to a
# program (warmup: 50 here): the receiver gets exactly {count}, so a
# receiver that waits for {count} messages ends, and its printed count
# passes the delivery check.
t_builtin_and_program_sides_mixed() {
	progs
	mat m.yaml <<Y
name: mixed
repeat: 1
warmup: 50
timeout: 20s
programs:
  tcp_py:
    server: [$P/stream_receiver.py, tcp, "{port}", "{size}", "{count}"]
    client: [$P/stream_sender.py, tcp, "{host}", "{port}", "{size}", "{count}"]
    result:
      server: {messages: 'received ([0-9]+)', seconds: 'in ([0-9.]+) s'}
  unix_py:
    server: [$P/stream_receiver.py, unix, "{path}", "{size}", "{count}"]
    client: [$P/stream_sender.py, unix, "{path}", "{size}", "{count}"]
    result:
      server: {messages: 'received ([0-9]+)', seconds: 'in ([0-9.]+) s'}
matrix:
  pattern: stream
  transport: [tcp, unix]
  server: [builtin, tcp_py, unix_py]
  client: [builtin, tcp_py, unix_py]
  concurrency: 3
  size: 64
  count: 3000
exclude:
  - {server: builtin, client: builtin}
  - {server: tcp_py, client: unix_py}
  - {server: unix_py, client: tcp_py}
  - {transport: tcp, server: unix_py}
  - {transport: tcp, client: unix_py}
  - {transport: unix, server: tcp_py}
  - {transport: unix, client: tcp_py}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r transport server client measured_by | sort | tr '\t' ' ')" = "tcp builtin tcp_py receiver=worker;senders=process
tcp tcp_py builtin receiver=printed;senders=worker
tcp tcp_py tcp_py receiver=printed;senders=process
unix builtin unix_py receiver=worker;senders=process
unix unix_py builtin receiver=printed;senders=worker
unix unix_py unix_py receiver=printed;senders=process" ] ||
		die "rows: $(csvq $r transport server client measured_by status)"
	expect_all $r status ok
	expect_all $r messages 3000
	csvq $r msgs_per_s | awk '!($1 > 0) { bad = 1 } END { exit bad }' || die "a rate is missing"
	# the program receivers got exactly the count, no warmup message
	grep -h '^received' out/logs/*-server.log | sort -u | grep -qx 'received 3000 in [0-9.]* s' ||
		die "receivers printed: $(grep -h '^received' out/logs/*-server.log)"
	no_programs_left
}

# A receiver timed whole-process prints nothing: it must exit by itself,
# and its window runs from the first sender's spawn to its exit.  One that
# never exits is a timeout that says so.
t_receiver_timed_whole_process() {
	progs
	mat m.yaml <<Y
name: whole
repeat: 1
timeout: 6s
programs:
  quits:
    server: [$P/stream_receiver.py, tcp, "{port}", "{size}", "{count}", quiet]
  stays:
    server: [sh, -c, 'exec "\$0" "\$@" quiet & wait; sleep 30', $P/stream_receiver.py, tcp, "{port}", "{size}", "{count}"]
matrix:
  pattern: stream
  transport: tcp
  server: [quits, stays]
  size: 64
  count: 2000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	local r=out/results.csv
	[ "$(csvq $r server status measured_by | sort | tr '\t' ' ')" = "quits ok receiver=process;senders=worker
stays timeout receiver=process;senders=worker" ] || die "rows: $(csvq $r server status error)"
	csvq $r error | grep -q "timeout after 6 s waiting for the receiver program to exit" ||
		die "error: $(csvq $r server error)"
	csvq $r server messages elapsed_s wall_s | awk -F'\t' '$1 == "quits" &&
		!($2 == 2000 && $3 > 0 && $3 < $4) { bad = 1 } END { exit bad }' ||
		die "whole-process figures: $(csvq $r server messages elapsed_s wall_s)"
	no_programs_left
}

# A receiver like source 001's never exits: once every sender is done and
# it printed its figures it is stopped (SIGTERM), not a failure, and not
# after the timeout.  One that prints fewer messages than were sent fails
# the delivery check.
t_receiver_that_never_exits_and_one_that_counts_short() {
	progs
	mat m.yaml <<Y
name: stay
repeat: 1
timeout: 20s
programs:
  stay:
    server: [$P/stream_receiver.py, unix, "{path}", "{size}", "{count}", stay]
    result: {messages: 'received ([0-9]+)', seconds: 'in ([0-9.]+) s'}
  short:
    server: [$P/stream_receiver.py, unix, "{path}", "{size}", "{count}", short]
    result: {messages: 'received ([0-9]+)', seconds: 'in ([0-9.]+) s'}
matrix:
  pattern: stream
  transport: unix
  server: [stay, short]
  concurrency: 2
  size: 64
  count: 2000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	local r=out/results.csv
	[ "$(csvq $r server status | sort | tr '\t' ' ')" = "short lost: 1999 of 2000 received
stay ok" ] || die "statuses: $(csvq $r server status error)"
	csvq $r server wall_s | awk -F'\t' '$1 == "stay" && !($2 < 5) { bad = 1 } END { exit bad }' ||
		die "the receiver was not stopped once it printed: $(csvq $r server wall_s)"
	csvq $r server error | grep -q "^short	the receiver got 1999 of the 2000 messages" ||
		die "error: $(csvq $r server error)"
	no_programs_left
}

# pyzmq PUSH senders and a PULL receiver, over zmq's tcp and ipc
# endpoints: {endpoint} is what zmq binds and connects to, readiness is
# the listening socket.
t_zmq_program_pair() {
	progs
	/usr/bin/python3 -c 'import zmq' 2>/dev/null || skip "no pyzmq for /usr/bin/python3 (python3-zmq)"
	mat m.yaml <<Y
name: zpair
repeat: 1
timeout: 20s
programs:
  pyzmq:
    server: [$P/zmq_pull.py, "{endpoint}", "{count}"]
    client: [$P/zmq_push.py, "{endpoint}", "{size}", "{count}"]
    result:
      server: {messages: 'received ([0-9]+)', seconds: 'in ([0-9.]+) s'}
matrix:
  pattern: stream
  transport: zmq
  endpoint: [tcp, ipc]
  server: pyzmq
  client: pyzmq
  concurrency: 2
  size: 100
  count: 2000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	expect_all $r messages 2000
	expect_all $r measured_by "receiver=printed;senders=process"
	[ "$(csvq $r --rows)" -eq 2 ] || die "expected 2 rows"
	no_programs_left
}

# What the plan refuses, each at the value at fault: a program with our
# zmq worker, a zmq program cell of another pattern, a sender's figure that
# is the receiver's, a server's figures in an echo cell, {host} over ipc.
t_stream_program_plan_errors() {
	mat a.yaml <<'Y'
name: x
programs:
  z:
    server: [pull, "{endpoint}"]
    client: [push, "{endpoint}"]
matrix:
  pattern: stream
  transport: zmq
  server: z
  client: [builtin, z]
Y
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:10:12: over zmq a program pairs only with a program: our client adds an acknowledged end to the stream, which program z does not speak"
	sed -e 's/  server: z$/  server: [builtin, z]/' -e 's/  client: \[builtin, z\]/  client: z/' a.yaml >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:9:12: over zmq a program pairs only with a program: our server"
	sed -e 's/  client: \[builtin, z\]/  client: z/' -e 's/pattern: stream/pattern: echo/' a.yaml >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:7:12: programs take part in zmq cells of pattern stream only"
	mat d.yaml <<'Y'
name: x
programs:
  s:
    client: [send, "{port}"]
    result: {rtt_mean_us: 'rtt ([0-9.]+)'}
matrix:
  pattern: [echo, stream]
  client: s
Y
	run_matrix plan d.yaml; expect_rc 2
	expect_err "d.yaml:5:27: result: rtt_mean_us of program s's client is not a stream sender's figure"
	mat e.yaml <<'Y'
name: x
programs:
  r:
    server: [recv, "{port}"]
    result: {messages: 'got ([0-9]+)'}
matrix:
  pattern: [stream, echo]
  server: r
Y
	run_matrix plan e.yaml; expect_rc 2
	expect_err "e.yaml:5:24: result: program r's server figures count in stream cells only (a receiver's); in a echo cell the clients measure"
	sed -e 's/{endpoint}/{host}/' -e 's/  client: \[builtin, z\]/  client: z\n  endpoint: [tcp, ipc]/' a.yaml >f.yaml
	run_matrix plan f.yaml; expect_rc 2
	expect_err "f.yaml:9:11: program z uses {host}, which a zmq (endpoint ipc) cell does not have"
	# the plan says that such cells have no warmup
	sed -e 's/  client: \[builtin, z\]/  client: z/' a.yaml >g.yaml
	run_matrix plan g.yaml; expect_rc 0
	grep -q "warmup 100 messages per connection (none in a stream cell with a program)" "$T/.out" ||
		die "plan: $(tail -1 "$T/.out")"
}
