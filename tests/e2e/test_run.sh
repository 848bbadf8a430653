# matrix run on small matrices over real sockets: the run folder and its CSV.

t_echo_pingpong_every_cell_ok() {
	mat m.yaml <<'Y'
name: small
repeat: 2
warmup: 10
timeout: 30s
matrix:
  pattern: [echo, pingpong]
  transport: [unix, tcp]
  size: [10, 4KiB]
  concurrency: [1, 3]
  count: 300
exclude:
  - {pattern: pingpong, size: 4KiB, concurrency: 3}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	for f in out/results.csv out/meta.csv out/matrix.yaml; do
		[ -s "$f" ] || die "$f missing or empty"
	done
	cmp -s m.yaml out/matrix.yaml || die "matrix copy differs"
	[ ! -e out/timeline.csv ] || die "timeline.csv without stream cells"
	[ ! -e out/logs ] || die "workers wrote logs: $(cat out/logs/* | head)"
	# 2*2*2*2 - 2 = 14 cells, x 2 repetitions, in rep-major order
	[ "$(csvq $r --rows)" -eq 28 ] || die "expected 28 rows, got $(csvq $r --rows)"
	[ "$(csvq $r cell rep | sort -u | wc -l)" -eq 28 ] || die "duplicate cell/rep rows"
	[ "$(csvq $r rep | head -14 | sort -u)" = 1 ] || die "repetition 1 of every cell runs first"
	csvq $r cell | grep -qx 12 && die "excluded cell 12 ran"
	expect_all $r status ok
	expect_all $r messages 300
	expect_all $r rtt_samples 300
	# header: dimensions then the figures the issue names
	local h; h=$(csvq $r --header | tr '\n' ,)
	case "$h" in
	cell,pattern,transport,size,concurrency,count,rep,status,error,elapsed_s,messages,bytes,msgs_per_s,mib_per_s,rtt_mean_us,rtt_p50_us,rtt_p90_us,rtt_p99_us,rtt_p999_us,rtt_max_us,client_cpu_s,server_cpu_s,cpu_us_per_msg,ctx_switches,*) ;;
	*) die "unexpected header: $h" ;;
	esac
	csvq $r size | sort -u | tr '\n' ' ' | grep -qx "10 4096 " || die "sizes not in bytes"
	# percentiles are ordered, rates positive
	while IFS=$'\t' read -r min p50 p90 p99 p999 max mean rate cpu; do
		le "$min" "$p50" && le "$p50" "$p90" && le "$p90" "$p99" && le "$p99" "$p999" &&
			le "$p999" "$max" && le "$min" "$mean" && le "$mean" "$max" ||
			die "percentiles out of order: $min $p50 $p90 $p99 $p999 $max (mean $mean)"
		le 1 "$rate" || die "rate $rate"
		le 0.000001 "$cpu" || die "cpu_us_per_msg $cpu"
	done < <(csvq $r rtt_min_us rtt_p50_us rtt_p90_us rtt_p99_us rtt_p999_us rtt_max_us rtt_mean_us msgs_per_s cpu_us_per_msg)
	# bytes: request + response per round trip
	while IFS=$'\t' read -r size bytes; do
		[ "$bytes" -eq $((300 * 2 * size)) ] || die "bytes $bytes for size $size"
	done < <(csvq $r size bytes)
	# tcp rows say TCP_NODELAY was on; unix rows have no such thing
	[ "$(csvq $r transport nodelay | sort -u | tr '\t\n' ': ')" = "tcp:1 unix: " ] ||
		die "nodelay column: $(csvq $r transport nodelay | sort -u)"
	expect_no_leftovers
}

t_pingpong_response_size_inflight() {
	mat m.yaml <<'Y'
name: pipelined
repeat: 1
warmup: 5
matrix:
  pattern: pingpong
  transport: [tcp, unix]
  size: 100
  response_size: [1, 64KiB]
  inflight: [1, 8]
  concurrency: 2
  count: 1001
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	# 1001 split over 2 clients: 501 + 500, all counted
	expect_all out/results.csv messages 1001
	while IFS=$'\t' read -r resp bytes; do
		[ "$bytes" -eq $((1001 * (100 + resp))) ] || die "bytes $bytes for response $resp"
	done < <(csvq out/results.csv response_size bytes)
	expect_no_leftovers
}

t_stream_counts_at_receiver() {
	mat m.yaml <<'Y'
name: stream
repeat: 2
warmup: 20
matrix:
  pattern: stream
  transport: [unix, tcp]
  size: [100, 64KiB]
  concurrency: [1, 4]
  count: 2002
  interval: 100ms
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	expect_all $r messages 2002
	expect_all $r sent_messages 2002
	while IFS=$'\t' read -r size bytes rate srate; do
		[ "$bytes" -eq $((2002 * size)) ] || die "bytes $bytes for size $size"
		le 1 "$rate" && le 1 "$srate" || die "rates $rate $srate"
	done < <(csvq $r size bytes msgs_per_s sent_msgs_per_s)
	[ -s out/timeline.csv ] || die "no timeline.csv"
	[ "$(csvq out/timeline.csv --header | tr '\n' ,)" = "cell,rep,interval_start_s,interval_s,messages,bytes,covered_s,rx_cpu_s,tx_cpu_s," ] ||
		die "timeline header: $(csvq out/timeline.csv --header)"
	# per cell and repetition, the timeline adds up to the messages received
	csvq out/timeline.csv cell rep messages | awk -F'\t' '{ s[$1 "/" $2] += $3 }
		END { for (k in s) if (s[k] != 2002) { print k, s[k]; bad = 1 }; exit bad }' ||
		die "timeline sums differ from 2002"
	expect_all out/timeline.csv interval_s 0.1
	# intervals count from the start signal: the first starts at 0, each
	# next one an interval later, none missing
	csvq out/timeline.csv cell rep interval_start_s | awk -F'\t' '
		{ k = $1 "/" $2; want = 0.1 * n[k]++
		  if ($3 - want > 1e-9 || want - $3 > 1e-9) { print k, $3, "expected", want; bad = 1 } }
		END { exit bad }' || die "timeline interval_start_s out of step"
	[ "$(csvq out/timeline.csv cell rep | sort -u | wc -l)" -eq 16 ] || die "timeline misses cells"
	expect_no_leftovers
}

t_duration_cells() {
	mat m.yaml <<'Y'
name: dur
repeat: 1
warmup: 0
timeout: 20s
matrix:
  pattern: [stream, echo]
  transport: unix
  size: 512
  concurrency: 2
  duration: 500ms
  interval: 250ms
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	while IFS=$'\t' read -r pat el msgs sent; do
		le 0.2 "$el" && le "$el" 1.5 || die "$pat: elapsed $el for a 500ms cell"
		le 10 "$msgs" || die "$pat: only $msgs messages"
		[ "$pat" != stream ] || [ "$msgs" = "$sent" ] || die "stream received $msgs of $sent"
	done < <(csvq out/results.csv pattern elapsed_s messages sent_messages)
	csvq out/results.csv duration | sort -u | grep -qx 0.5 || die "duration column in seconds"
	expect_no_leftovers
}

t_default_run_folder_and_meta() {
	printf 'name: dflt\nrepeat: 1\nwarmup: 1\nmatrix:\n  transport: unix\n  count: 50\n' >m.yaml
	run_matrix run m.yaml --repeat 2; expect_rc 0
	[ -L results/dflt/latest ] || die "no results/dflt/latest link"
	local d; d=$(readlink results/dflt/latest)
	[[ "$d" =~ ^[0-9]{8}T[0-9]{6}Z$ ]] || die "run folder name '$d' is not a UTC timestamp"
	[ "$(csvq results/dflt/latest/results.csv --rows)" -eq 2 ] || die "--repeat 2 not honoured"
	local keys; keys=$(csvq results/dflt/latest/meta.csv key | tr '\n' ' ')
	for k in host kernel cpu_model cores governor tool_version git_revision command_line start_utc end_utc status; do
		[[ " $keys" == *" $k "* ]] || die "meta.csv lacks $k: $keys"
	done
	[ "$(csvq results/dflt/latest/meta.csv key value | awk -F'\t' '$1 == "status" { print $2 }')" = ok ] ||
		die "meta status not ok"
	csvq results/dflt/latest/meta.csv key value | awk -F'\t' '$1 == "command_line"' |
		grep -q "matrix run m.yaml --repeat 2$" ||
		die "command line not recorded"
	# progress without a terminal: one line per finished repetition
	[ "$(grep -c '^\[cell 1 rep [12]/2; [12] of 2\] cell 1: ok' "$T/.err")" -eq 2 ] || die "progress lines: $(cat "$T/.err")"
	# a second run gets its own folder and moves latest
	sleep 1
	run_matrix run m.yaml --quiet; expect_rc 0
	[ "$(ls results/dflt | wc -l)" -eq 3 ] || die "expected 2 runs + latest: $(ls results/dflt)"
	[ "$(readlink results/dflt/latest)" != "$d" ] || die "latest not moved"
	[ ! -s "$T/.err" ] || die "--quiet printed: $(cat "$T/.err")"
}

t_worker_by_hand() {
	# a server and a client run like the source experiments' programs
	local sock=$T/tmp/s.sock
	"$MATRIX_BIN" worker server --transport unix --pattern echo --size 10 --bind "$sock" >srv.out 2>srv.err &
	local spid=$!
	for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
	"$MATRIX_BIN" worker client -t unix -p echo -s 10 -a "$sock" -n 1000 >cli.out 2>cli.err ||
		die "client failed: $(cat cli.err)"
	wait $spid || die "server failed: $(cat srv.err)"
	grep -q '^hello version=1 role=client' cli.out || die "no hello: $(head -3 cli.out)"
	grep -q '^result role=client messages=1000 ' cli.out || die "no result: $(cat cli.out)"
	grep -q '^end$' cli.out || die "no end line"
	grep -q '^result role=server messages=1000 ' srv.out || die "server result: $(cat srv.out)"
	[ ! -e "$sock" ] || die "server left its socket file"
	run_matrix worker client -t tcp -a 127.0.0.1:1 -n 1; expect_rc 1
	grep -q '^error stage=connect message=connect%20127.0.0.1:1:%20Connection%20refused' "$T/.out" ||
		die "connect error line: $(cat "$T/.out")"
	run_matrix worker client --size 0 -a x; expect_rc 2
	expect_err "matrix worker: size, response size, count, duration and interval must be greater than zero"
	run_matrix worker server --transport unix; expect_rc 2
	expect_err "matrix worker: --bind PATH is required for unix"
	run_matrix worker client -t tcp -a 127.0.0.1:1 --size 10Q; expect_rc 2
	expect_err "matrix worker: --size 10Q:"
}
