# Issue 29, the kernel's view per connection: TCP_INFO read by the workers
# at the end of each repetition on every tcp connection, in results.csv
# (tcp_* columns, empty for other transports), summary.md's "TCP (kernel's
# view)" section, summary.csv and the JSON export; an older folder without
# the columns still reports; a lossy emulated link shows retransmits.

# value ROW_FILTER COL: the one value of column COL of results.csv's rows
# where pattern and transport are $1 and $2
tcp_col() {
	csvq out/results.csv pattern transport "$3" | awk -F'\t' -v p="$1" -v t="$2" \
		'$1 == p && $2 == t { print $3 }'
}

# A tcp stream cell (the senders' ends) and a tcp pingpong cell (both
# ends): the kernel's smoothed RTT, cwnd and MSS are there and sane
# (loopback's MSS is 65483, under the 64 KiB a segment can be), the
# retransmits a count; a unix cell has none of them, empty, not 0.
t_tcp_view_stream_pingpong_and_unix() {
	mat m.yaml <<'Y'
name: tcpview
repeat: 1
warmup: 5
matrix:
  pattern: [stream, pingpong]
  transport: [tcp, unix]
  size: 1KiB
  concurrency: 2
  count: 300
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	local p col v n=0
	for p in stream pingpong; do
		v=$(tcp_col $p tcp tcp_rtt_us); awk -v v="$v" 'BEGIN { exit !(v > 0) }' ||
			die "$p tcp: tcp_rtt_us '$v', not > 0"
		v=$(tcp_col $p tcp tcp_cwnd); awk -v v="$v" 'BEGIN { exit !(v > 0) }' ||
			die "$p tcp: tcp_cwnd '$v', not > 0"
		v=$(tcp_col $p tcp tcp_mss); awk -v v="$v" 'BEGIN { exit !(v > 0 && v <= 65535) }' ||
			die "$p tcp: tcp_mss '$v', not in 1..65535"
		for col in tcp_retrans tcp_bytes_retrans tcp_rttvar_us tcp_delivery_rate; do
			v=$(tcp_col $p tcp $col)
			[[ $v =~ ^[0-9]+(\.[0-9]+)?(e[+][0-9]+)?$ ]] || die "$p tcp: $col '$v', no count"
		done
		for col in tcp_retrans tcp_rtt_us tcp_rttvar_us tcp_cwnd tcp_delivery_rate \
			   tcp_bytes_retrans tcp_mss; do
			v=$(tcp_col $p unix $col)
			[ -z "$v" ] || die "$p unix: $col is '$v', not empty"
			n=$((n + 1))
		done
	done
	[ "$n" -eq 14 ] || die "$n unix figures checked, expected 14"
	# the columns come after the older ones
	head -1 out/results.csv | grep -q 'other_cpus,.*tcp_retrans,tcp_rtt_us,tcp_rttvar_us,tcp_cwnd,tcp_delivery_rate,tcp_bytes_retrans,tcp_mss' ||
		die "results.csv header: $(head -1 out/results.csv)"
	grep -q "^## TCP (kernel's view)" out/summary.md || die "summary.md: no TCP section"
	grep -qE '^\| stream, tcp \| [0-9]+ \| [0-9]+ B \| [0-9.]+ (µs|ms) ' out/summary.md ||
		die "summary.md: no stream tcp row: $(sed -n "/^## TCP/,\$p" out/summary.md)"
	grep -q '^| stream, unix |' out/summary.md && die "summary.md: a unix row in the TCP section"
	# summary.csv and the JSON export carry them per cell
	run_matrix report out --quiet --export-json r.json; expect_rc 0
	python3 - r.json out/summary.csv <<'P' || die "r.json / summary.csv tcp figures (above)"
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["pattern"], r["transport"]): r for r in csv.DictReader(open(sys.argv[2]))}
seen = 0
for c in d["cells"]:
    p, t = c["params"]["pattern"], c["params"]["transport"]
    for m in ("tcp_retrans", "tcp_rtt_us", "tcp_cwnd", "tcp_mss", "tcp_delivery_rate"):
        st = c["stats"][m]
        s = rows[(p, t)][m + "_median"]
        if t == "unix":
            assert st["n"] == 0 and st["median"] is None and s == "", (p, t, m, st, s)
        else:
            assert st["n"] == 1 and st["median"] is not None, (p, t, m, st)
            assert abs(float(s) - st["median"]) <= 1e-9 * max(1, abs(st["median"])), (m, s, st)
            if m != "tcp_retrans":
                assert st["median"] > 0, (p, t, m, st)
        seen += 1
assert seen == 20, seen
P
}

# A folder written before the columns existed reports as before: no TCP
# section, the figures empty in summary.csv and null in the JSON.
t_tcp_view_old_folder_still_reports() {
	rm -rf out && cp -R "$REPO/tests/data/tiny-run" out || die "cannot copy tests/data/tiny-run"
	grep -q tcp_ out/results.csv && die "tests/data/tiny-run already has tcp columns"
	run_matrix report out --quiet --export-json r.json; expect_rc 0
	[ -s out/summary.md ] || die "no summary.md"
	grep -q "TCP (kernel's view)" out/summary.md && die "summary.md of an old folder has a TCP section"
	local v
	v=$(csvq out/summary.csv tcp_retrans_n tcp_rtt_us_median | sort -u)
	[ "$v" = "0	" ] || die "summary.csv tcp figures of an old folder: '$v'"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cells"] and all(c["stats"]["tcp_rtt_us"]["median"] is None for c in d["cells"])
' r.json || die "r.json of an old folder: tcp figures not null"
}

# Over an emulated link that loses 10% of its packets a tcp stream's
# senders retransmit: tcp_retrans and tcp_bytes_retrans above 0, and the
# MSS the link's (1448 under its 1500-byte MTU), no longer loopback's.
t_tcp_view_lossy_link_retransmits() {
	local ns=mxe2e-$$
	ip netns add "$ns" 2>/dev/null || skip "cannot make a network namespace (ip netns add)"
	ip netns del "$ns"
	mat m.yaml <<'Y'
name: lossy
repeat: 1
warmup: 5
matrix:
  pattern: stream
  transport: tcp
  size: 1KiB
  count: 1000
topology:
  netns: true
  link: {delay: 1ms, loss: 10%}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	local retrans bytes mss
	IFS=$'\t' read -r retrans bytes mss < <(csvq out/results.csv tcp_retrans tcp_bytes_retrans tcp_mss)
	awk -v v="$retrans" 'BEGIN { exit !(v > 0) }' || die "tcp_retrans '$retrans' over a 10% lossy link"
	awk -v v="$bytes" 'BEGIN { exit !(v > 0) }' || die "tcp_bytes_retrans '$bytes' over a 10% lossy link"
	awk -v v="$mss" 'BEGIN { exit !(v > 0 && v < 65483) }' || die "tcp_mss '$mss' over the link"
	grep -q "^## TCP (kernel's view)" out/summary.md || die "summary.md: no TCP section"
}
