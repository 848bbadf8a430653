# direction: bidir (workers/bidir.h): a stream cell whose server also
# streams back to every client while it receives, each direction counted
# at its receiver (iperf3 --bidir); and the CPU per timeline interval
# (timeline.csv's rx_cpu_s and tx_cpu_s, workers/timeline.h, txcpu.h).

t_bidir_counts_both_ways() {
	mat m.yaml <<'Y'
name: bidir
repeat: 1
warmup: 10
matrix:
  pattern: stream
  transport: [tcp, unix, unix_seqpacket]
  direction: [one, bidir]
  size: 1KiB
  concurrency: 2
  count: 2000
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 6 ] || die "expected 6 rows"
	expect_all $r status ok
	# forward: as a one-way cell, every message counted at the server
	expect_all $r messages 2000
	expect_all $r sent_messages 2000
	# reverse: as many as forward (the server sends back what the clients
	# send), counted at the clients, a rate; none one way
	csvq $r transport direction rev_messages rev_bytes rev_msgs_per_s rev_mib_per_s | awk -F'\t' '
		$2 == "one" && ($3 != "" || $4 != "" || $5 != "" || $6 != "") { print; bad = 1 }
		$2 == "bidir" && ($3 != 2000 || $4 != 2000 * 1024 || !($5 > 0) || !($6 > 0)) { print; bad = 1 }
		END { exit bad }' || die "rev_* columns wrong: $(csvq $r transport direction rev_messages rev_bytes)"
	# the summary shows both ways of the bidir cells, and only those
	grep -q '^Reverse direction' out/summary.md || die "summary.md has no reverse direction table"
	[ "$(grep -c '^| .*direction bidir |' out/summary.md)" -ge 3 ] ||
		die "summary.md's reverse table lacks the bidir cells: $(grep -A8 '^Reverse' out/summary.md)"
	grep -A8 '^Reverse' out/summary.md | grep -q 'direction one' &&
		die "summary.md's reverse table shows a one-way cell"
	# the JSON export: the reverse rates of bidir cells, null one way
	run_matrix report out --export-json out.json; expect_rc 0
	python3 - out.json <<'PY' || die "JSON export: reverse rates wrong"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
bad = [c["label"] for c in cells
       if ("direction=bidir" in c["label"]) != (c["rev_msgs_per_s"] is not None)
       or (c["rev_msgs_per_s"] is not None and not c["rev_mib_per_s"] > 0)]
sys.exit(1 if bad or len(cells) != 6 else 0)
PY
	# the dimension: plan --json, --only, --set
	run_matrix plan m.yaml --json; expect_rc 0
	grep -q '"direction": "bidir"' "$T/.out" || die "plan --json has no direction"
	run_matrix plan m.yaml; expect_rc 0
	[ "$(grep -c ' bidir *$' "$T/.out")" -eq 3 ] || die "matrix plan shows no direction: $(cat "$T/.out")"
	run_matrix run m.yaml -o only --quiet --only direction=bidir --only transport=unix; expect_rc 0
	expect_all only/results.csv direction bidir
	run_matrix run m.yaml -o set --quiet --set direction=bidir --set transport=tcp; expect_rc 0
	expect_all set/results.csv direction bidir
	csvq set/results.csv rev_messages | awk '!($1 > 0) { exit 1 }' || die "--set: no reverse count"
	expect_no_leftovers
}

# By hand: what the clients received back is exactly what the server
# sent, and the forward count is the clients' sends.
t_bidir_reverse_equals_what_the_server_sent() {
	# by count: the server's --count over its connections, 1500 each way
	"$MATRIX_BIN" worker server -t tcp -p stream -s 512 -n 3001 -w 0 -c 2 -b 127.0.0.1:0 \
		--direction bidir --timeout 30s >srv.out 2>srv.err &
	local srv=$! addr
	wait_line srv.out '^listen '
	addr=$(wire_field srv.out listen address)
	for i in 1 2; do
		"$MATRIX_BIN" worker client -t tcp -p stream -s 512 -n 1500 -w 0 -a "$addr" --id $i \
			--direction bidir --timeout 30s >cli$i.out 2>cli$i.err ||
			die "client $i failed: $(cat cli$i.err cli$i.out)"
	done
	wait "$srv" || die "server failed: $(cat srv.err srv.out)"
	local sent got1 got2
	sent=$(wire_field srv.out result sent_messages)
	got1=$(wire_field cli1.out reverse messages)
	got2=$(wire_field cli2.out reverse messages)
	[ "$sent" -eq 3001 ] || die "the server sent $sent back, not its count 3001"
	[ "$((got1 + got2))" -eq "$sent" ] || die "clients got $got1 + $got2 back, server sent $sent"
	# shares in accept order: 1501 and 1500, whichever client came first
	[ "$got1" -ge 1500 ] && [ "$got1" -le 1501 ] || die "client 1 got $got1 back"
	[ "$(wire_field cli1.out reverse bytes)" -eq "$((got1 * 512))" ] || die "reverse bytes"
	[ "$(wire_field srv.out result messages)" -eq 3000 ] || die "forward count changed"
	# a one-way client writes no reverse line
	"$MATRIX_BIN" worker server -t tcp -p stream -s 512 -n 1 -w 0 -c 1 -b 127.0.0.1:0 \
		--timeout 30s >srv1.out 2>srv1.err &
	srv=$!
	wait_line srv1.out '^listen '
	addr=$(wire_field srv1.out listen address)
	"$MATRIX_BIN" worker client -t tcp -p stream -s 512 -n 100 -w 0 -a "$addr" \
		--timeout 30s >one.out 2>one.err || die "one-way client failed: $(cat one.err)"
	wait "$srv" || die "server failed: $(cat srv1.err)"
	grep -q '^reverse' one.out && die "a one-way client wrote a reverse line"
	[ "$(wire_field srv1.out result sent_messages)" -eq 0 ] || die "a one-way server sent back"
}

t_bidir_refused_where_it_cannot_be() {
	mat m.yaml <<'Y'
name: bad
matrix:
  pattern: [stream, pingpong]
  direction: bidir
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:4:14: direction: bidir applies to pattern stream only, not pingpong"
	mat m.yaml <<'Y'
name: bad
matrix:
  pattern: stream
  transport: [tcp, udp]
  direction: bidir
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:5:14: direction: bidir runs over tcp, tcp6, unix or unix_seqpacket"
	expect_err "not udp"
	for t in pipe zmq shm mq unix_dgram; do
		mat m.yaml <<Y
name: bad
matrix:
  pattern: stream
  transport: $t
  direction: bidir
Y
		run_matrix plan m.yaml; expect_rc 2
		expect_err "not $t"
	done
	mat m.yaml <<'Y'
name: bad
matrix:
  pattern: stream
  direction: both
Y
	run_matrix plan m.yaml; expect_rc 2
	expect_err "m.yaml:4:14: direction: "
	expect_err "one, bidir"
	# excluded, a refused combination plans
	mat m.yaml <<'Y'
name: ok
matrix:
  pattern: [stream, pingpong]
  direction: [one, bidir]
exclude:
  - {pattern: pingpong, direction: bidir}
Y
	run_matrix plan m.yaml; expect_rc 0
	rc=0
	"$MATRIX_BIN" worker client -t udp -p stream -a x --direction bidir >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "--direction bidir is for pattern stream"
	rc=0
	"$MATRIX_BIN" worker client -t tcp -p stream -a x --direction sideways >/dev/null 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "expected one or bidir"
}

# CPU per interval: the receiver's (its threads') and the senders', in
# every interval of the timeline, at most the processes' own CPU.
t_timeline_cpu_per_interval() {
	mat m.yaml <<'Y'
name: tlcpu
repeat: 1
warmup: 10
matrix:
  pattern: stream
  transport: [tcp, unix]
  direction: [one, bidir]
  size: 1KiB
  concurrency: 2
  duration: 200ms
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	timeline_whole out
	csvq out/timeline.csv cell rep rx_cpu_s tx_cpu_s >cpu.txt
	csvq out/results.csv cell rep server_cpu_s client_cpu_s >res.txt
	awk -F'\t' '
		FILENAME == "cpu.txt" { k = $1 " " $2; rx[k] += $3; tx[k] += $4
			if ($3 == "" || $4 == "") { print k ": an interval without CPU figures"; bad = 1 }
			if ($3 > 0) pos[k] = 1; next }
		{ k = $1 " " $2
		  if (!pos[k]) { print k ": no interval with receiver CPU"; bad = 1 }
		  if (!(tx[k] > 0)) { print k ": no sender CPU"; bad = 1 }
		  if (rx[k] > $3 + 1e-6) { print k ": rx_cpu_s " rx[k] " > server_cpu_s " $3; bad = 1 }
		  if (tx[k] > $4 + 1e-6) { print k ": tx_cpu_s " tx[k] " > client_cpu_s " $4; bad = 1 } }
		END { exit bad }' cpu.txt res.txt >bad.txt || die "CPU per interval: $(head -3 bad.txt)"
	# a lossy receiver (every datagram looked at) has them too
	mat u.yaml <<'Y'
name: tlcpu_udp
repeat: 1
warmup: 10
matrix:
  pattern: stream
  transport: udp
  allow_loss: true
  size: 256
  count: 3000
Y
	run_matrix run u.yaml -o udp --quiet; expect_rc 0
	csvq udp/timeline.csv rx_cpu_s tx_cpu_s | awk -F'\t' '$1 == "" || $2 == "" { bad = 1 }
		{ rx += $1; tx += $2 } END { exit bad || !(rx > 0) || !(tx > 0) }' ||
		die "udp: CPU per interval missing: $(head -3 udp/timeline.csv)"
	# the old folders' timelines (no CPU columns) still load and chart
	local d
	for d in golden7 marks_stream; do
		rm -rf old && cp -r "$REPO/tests/data/$d" old
		run_matrix report old; expect_rc 0
	done
}
