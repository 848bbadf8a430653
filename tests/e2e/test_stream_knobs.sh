# zerocopy: and batch: (issue 29, docs/measuring.md "Zero-copy and
# batches"): proofs that each took effect, not just that it was accepted.
# zerocopy: the kernel's completions are counted (results.csv zc_*), and
# over loopback every one says the kernel copied after all; the bytes a
# receiver gets are intact although the sender reuses its buffers.
# batch: strace counts the sendmmsg calls (one per batch, none per
# message), and the receivers' counts and udp's loss accounting hold.

need_strace() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
}

# strace_calls FILE SYSCALL: its calls in an `strace -c` summary, 0 for none.
strace_calls() {
	awk -v name="$2" '$1 ~ /^[0-9.]+$/ && $NF == name { print $4; found = 1 }
		END { if (!found) print 0 }' "$1"
}

t_zerocopy_completions_counted() {
	mat m.yaml <<'Y'
name: zc
repeat: 1
warmup: 5
timeout: 60s
matrix:
  transport: [tcp, tcp6]
  pattern: stream
  size: 64KiB
  count: 300
  zerocopy: [false, true]
  poll: [block, busy]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv messages 300
	expect_all out/results.csv sent_messages 300
	[ "$(csvq out/results.csv zerocopy | grep -c true)" -eq 4 ] || die "no zerocopy cells"
	csvq out/results.csv transport zerocopy poll zc_sends zc_completions zc_copied |
	while IFS=$'\t' read -r t zc poll sends done copied; do
		if [ "$zc" = false ]; then
			[ -z "$sends$done$copied" ] || die "$t $poll: zc_* set without zerocopy: $sends $done $copied"
			continue
		fi
		# one MSG_ZEROCOPY call per 64 KiB message (a blocking send takes it
		# whole; a busy one may take it in parts: more calls, never fewer)
		if [ "$poll" = block ]; then
			[ "$sends" -eq 300 ] || die "$t: zc_sends $sends, not one per message (300)"
		else
			[ "$sends" -ge 300 ] || die "$t busy: zc_sends $sends < 300 messages"
		fi
		[ "$done" -ge 1 ] && [ "$done" -le "$sends" ] ||
			die "$t $poll: $done completions for $sends sends"
		# loopback: a looped packet is copied when delivered, every time
		[ "$copied" -eq "$done" ] || die "$t $poll: $copied of $done completions marked copied"
	done
	matrix report out --export-json out.json >/dev/null || die "report --export-json failed"
	python3 - out.json <<'P' || die "JSON export lacks zc_*: $(head -c 600 out.json)"
import json, sys
for c in json.load(open(sys.argv[1]))["cells"]:
    zc = "zerocopy=true" in c["label"]
    assert (c["zc_sends"] is not None) == zc, c
    assert not zc or (c["zc_sends"] >= 300 and c["zc_copied"] == c["zc_completions"] >= 1), c
P
	matrix plan m.yaml >plan.out || die "plan failed"
	[ "$(awk '$NF == "true"' plan.out | wc -l)" -eq 4 ] || die "plan: no zerocopy column: $(cat plan.out)"
	matrix plan m.yaml --json >plan.json || die "plan --json failed"
	python3 - plan.json <<'P' || die "plan --json lacks zerocopy: $(head -c 600 plan.json)"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert sorted({c["zerocopy"] for c in cells}) == [False, True]
P
	expect_no_leftovers
}

t_zerocopy_sender_keeps_every_message_intact() {
	command -v python3 >/dev/null || skip "python3 missing"
	timeout 60 python3 "$REPO/tests/e2e/programs/zc_check_server.py" 65536 >srv.out 2>&1 &
	local srv=$!
	wait_line srv.out '^listening [0-9]+$'
	local port
	port=$(awk '$1 == "listening" { print $2 }' srv.out)
	rc=0
	timeout 60 "$MATRIX_BIN" worker client -t tcp -p stream -s 64KiB -n 3000 -w 10 \
		--zerocopy true -a "127.0.0.1:$port" >wire.out 2>"$T/.err" || rc=$?
	expect_rc 0
	wait "$srv" || die "receiver: $(cat srv.out)"
	grep -qx 'ok 3010' srv.out || die "receiver: $(cat srv.out)"
	[ "$(wire_field wire.out result zc_sends)" -eq 3000 ] || die "zc_sends: $(cat wire.out)"
	[ "$(wire_field wire.out result zc_completions)" -ge 1 ] || die "no completions: $(cat wire.out)"
}

t_zerocopy_and_batch_flags_refused_by_hand() {
	"$MATRIX_BIN" worker client -t udp -p stream --zerocopy true -a 127.0.0.1:9 >o 2>e &&
		die "--zerocopy over udp accepted"
	grep -q 'zerocopy is a stream client' e || die "not said: $(cat e)"
	"$MATRIX_BIN" worker client -t tcp -p stream --batch 8 -a 127.0.0.1:9 >o 2>e &&
		die "--batch over tcp accepted"
	grep -q 'batch applies to stream over udp or unix_dgram' e || die "not said: $(cat e)"
	"$MATRIX_BIN" worker client -t udp -p stream --batch 0 -a 127.0.0.1:9 >o 2>e &&
		die "--batch 0 accepted"
	grep -q 'between 1 and 1024' e || die "not said: $(cat e)"
}

# One stream cell of COUNT messages by batch BATCH over TRANSPORT, the
# whole run under strace -f -c (summary in NAME.strace).
batch_run() {
	local name=$1 transport=$2 batch=$3
	mat "$name.yaml" <<Y
name: $name
repeat: 1
warmup: 16
timeout: 60s
matrix:
  transport: $transport
  pattern: stream
  size: 200
  count: 800
  batch: $batch
  allow_loss: true
Y
	rc=0
	local nolsan="${ASAN_OPTIONS:-}:detect_leaks=0"
	ASAN_OPTIONS=$nolsan timeout 120 strace -f -c -o "$name.strace" "$MATRIX_BIN" run \
		"$name.yaml" -o "$name" --quiet 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all "$name/results.csv" status ok
	expect_all "$name/results.csv" sent_messages 800
}

t_batch_sends_by_sendmmsg() {
	need_strace
	for tr in udp unix_dgram; do
		batch_run "b8$tr" "$tr" 8
		local mm sendto
		mm=$(strace_calls "b8$tr.strace" sendmmsg)
		sendto=$(strace_calls "b8$tr.strace" sendto)
		# (800 timed + 16 warmup) / 8: one call per batch
		[ "$mm" -eq 102 ] || die "$tr: $mm sendmmsg calls, not 102: $(cat "b8$tr.strace")"
		# left: the handshake's hello and ok and the end-of-stream messages
		[ "$sendto" -lt 20 ] || die "$tr: $sendto sendto calls beside sendmmsg"
		[ "$(strace_calls "b8$tr.strace" recvmmsg)" -ge 1 ] || die "$tr: no recvmmsg"
		# the control: batch 1 sends each message by itself
		batch_run "b1$tr" "$tr" 1
		[ "$(strace_calls "b1$tr.strace" sendmmsg)" -eq 0 ] || die "$tr batch 1: sendmmsg"
		[ "$(strace_calls "b1$tr.strace" sendto)" -ge 816 ] || die "$tr batch 1: few sendto"
	done
	expect_all b8unix_dgram/results.csv messages 800
	expect_all b8unix_dgram/results.csv batch 8
	local got lost dup
	got=$(csvq b8udp/results.csv messages) lost=$(csvq b8udp/results.csv lost)
	dup=$(csvq b8udp/results.csv duplicated)
	[ $((got + lost)) -eq 800 ] && [ "$dup" -eq 0 ] ||
		die "udp batch 8: received $got, lost $lost, duplicated $dup of 800"
	expect_no_leftovers
}

t_batch_counts_and_loss_accounting() {
	mat m.yaml <<'Y'
name: batch
repeat: 1
warmup: 13
timeout: 60s
matrix:
  transport: [udp, unix_dgram]
  pattern: stream
  size: 64
  count: 1003
  batch: [1, 8, 1024]
  poll: [block, busy]
  allow_loss: true
exclude:
  - {batch: 1024, poll: busy}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	expect_all out/results.csv sent_messages 1003
	csvq out/results.csv transport batch poll messages lost duplicated |
	while IFS=$'\t' read -r t b poll got lost dup; do
		if [ "$t" = unix_dgram ]; then
			[ "$got" -eq 1003 ] || die "unix_dgram batch $b $poll: $got of 1003"
		else
			[ $((got + lost)) -eq 1003 ] && [ "$dup" -eq 0 ] ||
				die "udp batch $b $poll: received $got, lost $lost, duplicated $dup"
		fi
	done
	matrix plan m.yaml --only batch=8 >only.out || die "--only batch=8 failed"
	grep -q '^4 cells' only.out || die "--only batch=8: $(cat only.out)"
	grep -v -e '^exclude:' -e 'batch: 1024, poll' m.yaml >set.yaml
	matrix plan set.yaml --set batch=4 --json >set.json || die "--set batch=4 failed"
	python3 - set.json <<'P' || die "--set batch=4: $(head -c 600 set.json)"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert len(cells) == 4 and all(c["batch"] == 4 for c in cells), cells
P
	expect_no_leftovers
}

t_batch_paced_and_timed() {
	mat m.yaml <<'Y'
name: batchpaced
repeat: 1
warmup: 5
timeout: 60s
matrix:
  transport: unix_dgram
  pattern: stream
  size: 64
  batch: 8
  rate: 10k/s
  count: [1000, 1003]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	# a batch leaves once its last message is due: never ahead of the
	# schedule, so message 999 (at 99.9 ms) bounds the sender's window
	csvq out/results.csv count messages sent_messages elapsed_s |
	while IFS=$'\t' read -r n got sent secs; do
		[ "$got" -eq "$n" ] && [ "$sent" -eq "$n" ] || die "count $n: sent $sent, received $got"
		le 0.0999 "$secs" || die "count $n at 10k/s in $secs s: ahead of the schedule"
	done
	mat t.yaml <<'Y'
name: batchtimed
repeat: 1
warmup: 5
timeout: 60s
matrix:
  transport: [udp, unix_dgram]
  pattern: stream
  size: 64
  batch: 16
  duration: 200ms
  allow_loss: true
Y
	run_matrix run t.yaml -o tout --quiet; expect_rc 0
	expect_all tout/results.csv status ok
	csvq tout/results.csv transport messages sent_messages lost |
	while IFS=$'\t' read -r t got sent lost; do
		[ "$sent" -gt 0 ] || die "$t: nothing sent"
		[ "$t" = udp ] || [ "$got" -eq "$sent" ] || die "$t: $got of $sent"
		[ "$t" = unix_dgram ] || [ $((got + lost)) -eq "$sent" ] || die "udp: $got + $lost != $sent"
	done
	expect_no_leftovers
}
