#!/usr/bin/env bash
# make bench: matrix beside the floor (bench/floor.c, the smallest
# two-process loop of our own), sockperf, qperf, iperf3 and a Go echo pair
# (bench/echo/), on loopback, in interleaved rounds, and one table: per
# cell, placement and poll style, each tool's median with its min-max and
# the ratio of ours to each (bench/table.c).  Not part of `make test`.
#
# The cells (issue 14), each a PATTERN/TRANSPORT/SIZE name:
#   pingpong/{tcp,udp,unix}/{16B,1KiB,16KiB}   one connection: matrix,
#       floor, sockperf ping-pong (--full-rtt), qperf tcp_lat/udp_lat
#   stream/{tcp,unix}/{16B,1KiB,128KiB}   one connection: matrix, floor,
#       sockperf throughput, iperf3 (one stream, -l SIZE)
#   echo/{unix,tcp}/10B   the source 002 cell: matrix, floor, the Go pair
#   pingpong/{shm,mq}/16B, stream/shm/1KiB   shared memory and POSIX
#       message queues (issue 28): matrix and floor only (floor --transport
#       shm: a bare ring per direction, futex waits or, busy, spinning;
#       mq: mq_send/mq_receive); matrix where `matrix transports` lists
#       the transport, else skipped as not available, said why
# each with the CPU placements none, same (every process on the first
# allowed CPU) and split (servers on the first, clients on the second) when
# the cell matches WIDE (the 16 B, 10 B and 128 KiB cells; the others run
# with placement none only), and
# for pingpong and echo also busy polling (poll `busy`: floor --busy,
# matrix `poll: busy`, sockperf --nonblocked; skipped with placement same:
# two spinners on one core).  A tool that cannot do a cell is skipped with
# the reason printed once (sockperf 3.7, qperf and iperf3 have no unix
# sockets, none of the peers shm or mq; qperf and the Go pair have no
# busy mode, and the Go runtime's
# one style runs in both poll groups so that the busy echo has it beside).
# The record cost: in the cells of RECORD_CELLS (pingpong unix and tcp 16 B,
# stream tcp 16 B and 128 KiB), placements none and same, poll block
# (same: both processes on one core, where what the recording costs adds
# up and the scheduler's choice of cores cannot hide it), matrix runs
# twice back to back (full first in odd rounds, totals first in even), as
# tool `matrix` (record: full, the default) and as tool `matrix-totals`
# (record: totals: no histogram, no timeline), so the
# table's matrix/matrix-totals is full over totals.  A totals run has no
# percentiles: its pingpong figures are rtt_mean_us and msgs_per_s.
# After the rounds: bench/overhead.sh (the runner's cost per cell
# repetition on a matrix of tiny cells) and bench/memory.sh (peak RSS of
# the runner and the workers at a low and a high count), into the same
# raw.csv, so that their figures are in the same table and checklist.
#
# Rounds: ROUNDS rounds; within a round, for each cell, placement and poll
# style, each tool in turn (so a cell's tools run close together, under the
# same load), the tools' order rotated each round.  Every server listens
# on loopback only (qperf's, which binds every address, runs with its
# client in a network namespace of its own that has only lo: unshare -n),
# is started and stopped by its PID, and every command is bounded by
# `timeout`.  matrix runs one matrix file per measurement, with no
# gnuplot on its PATH: each run would otherwise draw its charts (about half
# a second a run here, more than a 16 B cell's measurement), and a run per
# measurement keeps matrix interleaved with its peers like any other tool.
# matrix's placement is its `cpu:` key and its poll style its `poll:` key.
#
# What each tool reports, as raw.csv metrics (round trips in µs):
#   matrix    results.csv: rtt_p50_us, rtt_mean_us, msgs_per_s (pingpong),
#             msgs_per_s, mib_per_s (stream, at the receiver), msgs_per_s (echo)
#   matrix-totals  the same with record: totals, less rtt_p50_us
#   floor     the same figures, measured the same way (bench/floor.c)
#   sockperf  ping-pong --full-rtt: the round trip (not its half, sockperf's
#             default): rtt_p50_us, rtt_mean_us, msgs_per_s; throughput:
#             msgs_per_s and mib_per_s as the SENDER counts them (Nagle on,
#             sockperf's default for throughput)
#   qperf     tcp_lat/udp_lat print HALF the mean round trip: doubled into
#             rtt_mean_us (qperf has no percentiles)
#   iperf3    -J, end.sum_received: mib_per_s, msgs_per_s (bytes / SIZE)
#   go        msgs_per_s of its client's timed loop
#
# raw.csv (also written by bench/overhead.sh and bench/memory.sh): one row
# per measurement, columns
#   round,cell,tool,placement,poll,metric,value
#   round      1..ROUNDS
#   cell       PATTERN/TRANSPORT/SIZE (above), or a script's own cell name
#   tool       matrix, matrix-totals, floor, sockperf, qperf, iperf3, go
#              (overhead.sh and memory.sh: matrix)
#   placement  none, same, split
#   poll       block, busy
#   metric     rtt_p50_us, rtt_mean_us (lower is better), msgs_per_s,
#              mib_per_s (higher is better), or another named figure;
#              `failed` (value 1): the tool failed that round (why: OUT/log)
#   value      a number
#
# Knobs (environment):
#   ROUNDS=5        rounds (QUICK=1: 1)
#   CELLS=REGEX     only cells whose name matches (grep -E), e.g. 'stream/tcp'
#   TOOLS=LIST      comma-separated, of matrix,matrix-totals,floor,sockperf,
#                   qperf,iperf3,go
#   PLACEMENTS=LIST of none,same,split
#   WIDE=REGEX      cells run in every placement of PLACEMENTS (the others:
#                   none only); default '/(16B|10B|128KiB)$' (QUICK=1:
#                   pingpong/tcp/16B, stream/tcp/128KiB, echo/unix/10B)
#   RECORD_CELLS=REGEX  cells where matrix-totals runs beside matrix
#                   (placement none, poll block only)
#   POLLS=LIST      of block,busy
#   DURATION=1      seconds per matrix and floor measurement (QUICK=1: 0.2);
#                   the peers run whole seconds: ceil(DURATION), sockperf
#                   one more (it spends 0.4 s warming up inside -t)
#   ECHO_COUNT      round trips per echo measurement (50000; QUICK=1: 2000)
#   WARMUP=1000     untimed messages first (matrix, floor, go)
#   REPORT_ROUNDS=5 bench/report_speed.sh's reports of a 100-cell folder
#                   (0: not run; QUICK=1: 0): report_wall_s and report_cpu_s rows
#   OH_ROUNDS=5     bench/overhead.sh's runs (0: not run; QUICK=1: 1), of
#   OH_CELLS=100    tiny cells each (QUICK=1: 20)
#   MEM_ROUNDS=1    bench/memory.sh's rounds (0: not run); MEM_CELLS=REGEX
#                   its cells (default every one; QUICK=1: stream_tcp_16B),
#                   MEM_HI its high count (10^7; QUICK=1: 10^5)
#   QUICK=1         a smoke run: the short figures above
#   BENCH_DRY=1     print what would run and how long it would take, and stop
#   BENCH_INSTALL=0 install nothing: a missing peer is skipped, said why
#   BENCH_BUILD=0   build nothing: MATRIX_BIN, FLOOR_BIN, TABLE_BIN, CSVQ
#                   name the binaries (default build/release/...)
#   OUT=DIR         the results folder (default bench/results/UTC-STAMP)
# Output: OUT/raw.csv, table.csv, table.md, table.txt (what was printed),
# log (every tool's output), skipped.txt.  Exit 0, or 2 when the bench
# itself could not run (no matrix, no floor); failed measurements are
# rows, not an exit status.
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }	# the caller's paths
for v in OUT MATRIX_BIN FLOOR_BIN TABLE_BIN CSVQ; do
	[ -z "${!v:-}" ] || printf -v "$v" '%s' "$(abs "${!v}")"
done
cd "$(dirname "$0")/.." || exit 2
REPO=$PWD

QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
	q_rounds=1 q_dur=0.2 q_echo=2000 q_oh=1 q_ohc=20 q_memc=stream_tcp_16B q_memhi=100000 q_rep=0
	q_wide='^(pingpong/tcp/16B|stream/tcp/128KiB|echo/unix/10B)$' # every tool in every placement
else
	q_rounds=5 q_dur=1 q_echo=50000 q_oh=5 q_ohc=100 q_memc=. q_memhi=10000000 q_rep=5
	q_wide='/(16B|10B|128KiB)$'
fi
ROUNDS=${ROUNDS:-$q_rounds}
DURATION=${DURATION:-$q_dur}
ECHO_COUNT=${ECHO_COUNT:-$q_echo}
WARMUP=${WARMUP:-1000}
CELLS=${CELLS:-.}
TOOLS=${TOOLS:-matrix,matrix-totals,floor,sockperf,qperf,iperf3,go}
PLACEMENTS=${PLACEMENTS:-none,same,split}
WIDE=${WIDE:-$q_wide}
RECORD_CELLS=${RECORD_CELLS:-^(pingpong/(unix|tcp)/16B|stream/tcp/(16B|128KiB))\$}
OH_ROUNDS=${OH_ROUNDS:-$q_oh}
REPORT_ROUNDS=${REPORT_ROUNDS:-$q_rep}
OH_CELLS=${OH_CELLS:-$q_ohc}
MEM_ROUNDS=${MEM_ROUNDS:-1}
MEM_CELLS=${MEM_CELLS:-$q_memc}
MEM_HI=${MEM_HI:-$q_memhi}
POLLS=${POLLS:-block,busy}
BENCH_INSTALL=${BENCH_INSTALL:-1}
BENCH_BUILD=${BENCH_BUILD:-1}
B=$REPO/build/release
MATRIX_BIN=${MATRIX_BIN:-$B/matrix}
FLOOR_BIN=${FLOOR_BIN:-$B/bench/floor}
TABLE_BIN=${TABLE_BIN:-$B/bench/table}
CSVQ=${CSVQ:-$B/tests/csvq}
GO_BIN=$B/bench
OUT=${OUT:-bench/results/$(date -u +%Y%m%dT%H%M%SZ)}

die() { echo "bench: $*" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS=$ROUNDS: not a whole number of at least 1"
[[ $DURATION =~ ^[0-9]*\.?[0-9]+$ ]] || die "DURATION=$DURATION: not a number of seconds"
[[ $ECHO_COUNT =~ ^[1-9][0-9]*$ ]] || die "ECHO_COUNT=$ECHO_COUNT: not a whole number"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP=$WARMUP: not a whole number"
for v in OH_ROUNDS MEM_ROUNDS; do [[ ${!v} =~ ^[0-9]+$ ]] || die "$v=${!v}: not a whole number"; done
[[ $OH_CELLS =~ ^[1-9][0-9]*$ ]] || die "OH_CELLS=$OH_CELLS: not a whole number of at least 1"
[[ $MEM_HI =~ ^[1-9][0-9]*$ ]] || die "MEM_HI=$MEM_HI: not a whole number of at least 1"
for t in ${TOOLS//,/ }; do
	case $t in matrix | matrix-totals | floor | sockperf | qperf | iperf3 | go) ;; *) die "TOOLS: unknown tool '$t'" ;; esac
done
for p in ${PLACEMENTS//,/ }; do
	case $p in none | same | split) ;; *) die "PLACEMENTS: unknown placement '$p'" ;; esac
done
for p in ${POLLS//,/ }; do
	case $p in block | busy) ;; *) die "POLLS: unknown poll style '$p'" ;; esac
done
DUR_MS=$(awk -v d="$DURATION" 'BEGIN { printf "%d", d * 1000 + 0.5 }')
[ "$DUR_MS" -ge 10 ] || die "DURATION=$DURATION: at least 0.01 s"
PEER_T=$(((DUR_MS + 999) / 1000))

has_tool() { [[ ",$TOOLS," == *",$1,"* ]]; }

mkdir -p "$OUT" || die "cannot make $OUT"
[ -z "$(ls -A "$OUT")" ] || die "$OUT is not empty"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/log
RAW=$OUT/raw.csv
: >"$OUT/skipped.txt"
echo "round,cell,tool,placement,poll,metric,value" >"$RAW"
mkdir -p "$OUT/nobin" "$OUT/runs" # nobin: matrix's PATH, no gnuplot on it
SOCK=$(mktemp -d "${TMPDIR:-/tmp}/matrix-bench.XXXXXX") || die "mktemp"
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$SOCK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- what is missing: installed (apt-get) unless BENCH_INSTALL=0 ----
declare -A MISSING # tool -> why it is skipped
need=()
for pair in sockperf:sockperf qperf:qperf iperf3:iperf3 go:golang-go iperf3-jq:jq; do
	tool=${pair%%:*} pkg=${pair#*:} cmd=$tool
	[ "$tool" = iperf3-jq ] && tool=iperf3 cmd=jq
	has_tool "$tool" || continue
	command -v "$cmd" >/dev/null && continue
	if [ "$BENCH_INSTALL" = 1 ] && [ "$(id -u)" = 0 ]; then
		need+=("$pkg")
	else
		MISSING[$tool]="$cmd is not installed ($([ "$BENCH_INSTALL" = 1 ] &&
			echo "not root: apt-get install $pkg" || echo "BENCH_INSTALL=0"))"
	fi
done
if [ ${#need[@]} -gt 0 ]; then
	echo "bench: installing ${need[*]} (apt-get)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >>"$LOG" 2>&1 ||
		{ apt-get update -q >>"$LOG" 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >>"$LOG" 2>&1; } ||
		echo "bench: apt-get install ${need[*]} failed (see $LOG)" >&2
	for pair in sockperf:sockperf qperf:qperf iperf3:iperf3 go:go iperf3:jq; do
		command -v "${pair#*:}" >/dev/null || MISSING[${pair%%:*}]="${pair#*:}: the install failed"
	done
fi
has_tool qperf && ! command -v unshare >/dev/null && MISSING[qperf]="unshare is missing (util-linux)"

# ---- build ----
if [ "$BENCH_BUILD" = 1 ]; then
	make -s matrix "$CSVQ" "$FLOOR_BIN" "$TABLE_BIN" >>"$LOG" 2>&1 || die "the build failed (see $LOG)"
fi
for b in "$MATRIX_BIN" "$FLOOR_BIN" "$TABLE_BIN" "$CSVQ"; do
	[ -x "$b" ] || die "$b: not built (make matrix unit)"
done
if has_tool go && [ -z "${MISSING[go]:-}" ]; then
	mkdir -p "$GO_BIN"
	for p in server client; do
		(cd bench/echo && GOCACHE=$B/gocache GOFLAGS= go build -o "$GO_BIN/echo_$p" \
			"./$p") >>"$LOG" 2>&1 || MISSING[go]="the Go echo pair did not build (see $LOG)"
	done
fi

# the first two CPUs this script may use
CPU0='' CPU1=''
for part in $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' ' '); do
	for c in $(seq "${part%-*}" "${part#*-}"); do
		if [ -z "$CPU0" ]; then CPU0=$c; elif [ -z "$CPU1" ]; then CPU1=$c; fi
	done
done

# ---- one measurement each ----
# The current measurement: round, cell (pattern, transport, size label and
# bytes), placement, poll style; the tools' commands as prefixes.
ROUND='' CELL='' PAT='' TR='' SIZE='' BYTES='' PLACE='' POLL=''
srv=() cli=()

row() { echo "$ROUND,$CELL,$1,$PLACE,$POLL,$2,$3" >>"$RAW"; }
failed() {
	row "$1" failed 1
	echo "bench: round $ROUND $CELL $PLACE $POLL: $1 failed: $2" >&2
	echo "== $1 failed: $2" >>"$LOG"
}
declare -A SAID
skip() { # TOOL REASON: into skipped.txt; on stderr once per tool and reason
	echo "$1 $CELL $PLACE $POLL: skipped: $2" >>"$OUT/skipped.txt"
	[ -z "${SAID[$1: $2]:-}" ] || return 0
	SAID[$1: $2]=1
	echo "bench: $1: skipped: $2 (first in $CELL $PLACE $POLL)" >&2
}
# rows TOOL FILE METRIC...: the "METRIC VALUE" lines of FILE that are asked
# for; fails unless every one is there and is a number
rows() {
	local tool=$1 file=$2 m v
	shift 2
	for m in "$@"; do
		v=$(awk -v m="$m" '$1 == m { print $2; exit }' "$file")
		[[ $v =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] || return 1
	done
	for m in "$@"; do row "$tool" "$m" "$(awk -v m="$m" '$1 == m { print $2; exit }' "$file")"; done
}
metrics() { # [TOOL]: the figures of the current cell (matrix-totals: no p50)
	case $PAT in
	pingpong) [ "${1:-}" = matrix-totals ] && echo rtt_mean_us msgs_per_s ||
		echo rtt_p50_us rtt_mean_us msgs_per_s ;;
	stream) echo msgs_per_s mib_per_s ;;
	echo) echo msgs_per_s ;;
	esac
}
# port: a fresh loopback port for a peer's server
PORT=$((20000 + $$ % 20000))
next_port() { PORT=$((PORT + 1)); [ $PORT -lt 60000 ] || PORT=20001; }
# wait_listen PROTO PORT: until something listens there (2 s at most)
wait_listen() {
	local i flag=-ltn
	[ "$1" = udp ] && flag=-lun
	for i in $(seq 100); do
		ss -H "$flag" "sport = :$2" 2>/dev/null | grep -q . && return 0
		sleep 0.02
	done
	return 1
}
# start_server FILE CMD...: in the background, bounded, its PID kept
start_server() {
	local f=$1
	shift
	timeout -k 2 $((PEER_T * 4 + 60)) "$@" >"$f" 2>&1 &
	SRV_PID=$!
	PIDS+=("$SRV_PID")
}
stop_server() {
	kill "$SRV_PID" 2>/dev/null
	wait "$SRV_PID" 2>/dev/null
	cat "$1" >>"$LOG"
}
bounded() { timeout -k 2 $((PEER_T * 4 + 60)) "$@"; }

# matrix_lacks TRANSPORT: the matrix binary has no such transport (not in
# `matrix transports`: shm and mq are newer than some builds); asked once
MATRIX_TRANSPORTS=''
matrix_lacks() {
	[ -n "$MATRIX_TRANSPORTS" ] ||
		MATRIX_TRANSPORTS=" $("$MATRIX_BIN" transports 2>/dev/null | awk '$1 ~ /^[a-z]/ { printf "%s ", $1 }') "
	[[ $MATRIX_TRANSPORTS != *" $1 "* ]]
}

# run_matrix RECORD: tool matrix (record: full) or matrix-totals (totals)
run_matrix() {
	local tool=matrix
	[ "$1" = totals ] && tool=matrix-totals
	case $TR in shm | mq)
		if matrix_lacks "$TR"; then
			skip "$tool" "not available: this matrix has no $TR transport (not in \`matrix transports\`)"
			return
		fi ;;
	esac
	local y=$OUT/runs/m.yaml d=$OUT/runs/r$ROUND-${CELL//\//-}-$PLACE-$POLL-$tool
	{
		printf 'name: bench\ndescription: make bench %s\nrepeat: 1\nwarmup: %s\ntimeout: %ss\n' \
			"$CELL" "$WARMUP" $((PEER_T * 4 + 30))
		printf 'matrix:\n  pattern: %s\n  transport: %s\n  size: %s\n  concurrency: 1\n' \
			"$PAT" "$TR" "$BYTES"
		if [ "$PAT" = echo ]; then printf '  count: %s\n' "$ECHO_COUNT"; else printf '  duration: %sms\n' "$DUR_MS"; fi
		# a datagram lost in a million fails a udp cell by default; sockperf
		# counts its drops and goes on, so matrix does too
		[ "$TR" != udp ] || printf '  allow_loss: true\n'
		printf '  cpu: %s\n  poll: %s\n  record: %s\n' "$PLACE" "$POLL" "$1"
	} >"$y"
	echo "== $tool $CELL $PLACE $POLL round $ROUND: $d" >>"$LOG"
	if ! bounded env PATH="$OUT/nobin" "$MATRIX_BIN" run "$y" -o "$d" -q >>"$LOG" 2>&1; then
		failed $tool "matrix run exited non-zero (see $d)"
		return
	fi
	# shellcheck disable=SC2046 # the metrics are words
	"$CSVQ" "$d/results.csv" status $(metrics $tool) >"$d/figures" 2>>"$LOG" ||
		{ failed $tool "no figures in $d/results.csv"; return; }
	local vals=() m i=1
	read -r -a vals <"$d/figures"
	[ "${vals[0]:-}" = ok ] || { failed $tool "status ${vals[0]:-none} in $d/results.csv"; return; }
	for m in $(metrics $tool); do echo "$m ${vals[$i]:-}"; i=$((i + 1)); done >"$d/figures"
	# shellcheck disable=SC2046
	rows $tool "$d/figures" $(metrics $tool) || failed $tool "a figure is missing in $d/results.csv"
}

run_floor() {
	local f=$OUT/runs/out a=(--pattern "$PAT" --transport "$TR" --size "$BYTES" --warmup "$WARMUP"
		--cpu "$PLACE" --timeout $((PEER_T * 4 + 30)))
	if [ "$PAT" = echo ]; then a[1]=pingpong a+=(--count "$ECHO_COUNT"); else a+=(--duration "$DURATION"); fi
	[ "$POLL" = busy ] && a+=(--busy)
	echo "== floor ${a[*]} round $ROUND" >>"$LOG"
	bounded "$FLOOR_BIN" "${a[@]}" >"$f" 2>>"$LOG" || { failed floor "exit $?"; return; }
	cat "$f" >>"$LOG"
	# shellcheck disable=SC2046
	rows floor "$f" $(metrics) || failed floor "its output lacks a figure"
}

run_sockperf() {
	local f=$OUT/runs/out s=$OUT/runs/srv p=() c=() mode=ping-pong
	[ "$TR" = unix ] && { skip sockperf "sockperf 3.7 has no unix sockets"; return; }
	case $TR in shm | mq) skip sockperf "sockperf has no $TR"; return ;; esac
	[ "$TR" = tcp ] && p+=(--tcp)
	[ "$POLL" = busy ] && p+=(--nonblocked)
	[ "$PAT" = stream ] && mode=throughput
	[ "$PAT" = echo ] && { skip sockperf "not an echo cell's peer (its pingpong is)"; return; }
	next_port
	c=(-i 127.0.0.1 -p "$PORT" -m "$BYTES" -t $((PEER_T + 1)))
	[ "$mode" = ping-pong ] && c+=(--full-rtt)
	echo "== sockperf $mode ${p[*]} ${c[*]} round $ROUND ($CELL $PLACE $POLL)" >>"$LOG"
	# busy: the server's epoll never sleeps (--timeout 0) on non-blocking sockets
	start_server "$s" "${srv[@]}" sockperf server "${p[@]}" -i 127.0.0.1 -p "$PORT" -m "$BYTES" \
		$([ "$POLL" = busy ] && echo --timeout 0)
	if ! wait_listen "$TR" "$PORT" && [ "$TR" = tcp ]; then
		stop_server "$s"
		failed sockperf "its server did not listen on $PORT"
		return
	fi
	[ "$TR" = udp ] && sleep 0.1
	bounded "${cli[@]}" sockperf "$mode" "${p[@]}" "${c[@]}" >"$f" 2>&1
	local rc=$?
	stop_server "$s"
	sed 's/\x1b\[[0-9;]*m//g' "$f" >"$f.txt"
	cat "$f.txt" >>"$LOG"
	[ $rc = 0 ] || { failed sockperf "exit $rc"; return; }
	if [ "$mode" = ping-pong ]; then
		awk '/percentile 50.000 =/ { print "rtt_p50_us", $NF }
		     /avg-rtt=/ { sub(/.*avg-rtt=/, ""); sub(/ .*/, ""); print "rtt_mean_us", $0 }
		     /\[Valid Duration\]/ { for (i = 1; i <= NF; i++) {
				if ($i ~ /^RunTime=/) { t = $i; sub(/RunTime=/, "", t) }
				if ($i ~ /^ReceivedMessages=/) { n = $i; sub(/ReceivedMessages=/, "", n) } }
			if (t > 0) print "msgs_per_s", n / t }' "$f.txt" >"$f"
	else
		# "Message Rate is 13253 [msg/sec], Packet Rate is about ...": the first "is"
		awk -v b="$BYTES" '/Message Rate is/ { for (i = 1; i <= NF && r == ""; i++) if ($i == "is") r = $(i + 1)
			print "msgs_per_s", r; print "mib_per_s", r * b / 1048576 }' "$f.txt" >"$f"
	fi
	# shellcheck disable=SC2046
	rows sockperf "$f" $(metrics) || failed sockperf "its output lacks a figure"
}

run_qperf() {
	local f=$OUT/runs/out test=tcp_lat
	[ "$PAT" = pingpong ] || { skip qperf "qperf's socket tests here are tcp_lat/udp_lat (pingpong)"; return; }
	[ "$TR" = unix ] && { skip qperf "qperf has no unix sockets"; return; }
	case $TR in shm | mq) skip qperf "qperf has no $TR (its sockets are tcp and udp)"; return ;; esac
	[ "$POLL" = busy ] && { skip qperf "qperf has no busy mode for sockets (its -cp is RDMA's)"; return; }
	[ "$TR" = udp ] && test=udp_lat
	echo "== qperf $test -m $BYTES round $ROUND ($CELL $PLACE)" >>"$LOG"
	# its own netns: only lo, so its any-address server is loopback only
	bounded unshare -n bash -c '
		ip link set lo up || exit 1
		srv=$1 cli=$2; shift 2
		$srv qperf -lp 19765 >/dev/null 2>&1 & s=$!
		for i in $(seq 100); do ss -H -ltn "sport = :19765" | grep -q . && break; sleep 0.02; done
		$cli qperf 127.0.0.1 -lp 19765 "$@"; rc=$?
		kill $s; wait $s 2>/dev/null; exit $rc' qperf "${srv[*]}" "${cli[*]}" \
		-m "$BYTES" -t "$PEER_T" "$test" >"$f.txt" 2>&1
	local rc=$?
	cat "$f.txt" >>"$LOG"
	[ $rc = 0 ] || { failed qperf "exit $rc"; return; }
	# "latency = 7.98 us": half the mean round trip
	awk '$1 == "latency" { v = $3; u = $4
		f = u == "ns" ? 0.001 : u == "us" ? 1 : u == "ms" ? 1000 : u == "sec" ? 1e6 : -1
		if (f > 0) print "rtt_mean_us", 2 * v * f }' "$f.txt" >"$f"
	rows qperf "$f" rtt_mean_us || failed qperf "no latency line"
}

run_iperf3() {
	local f=$OUT/runs/out s=$OUT/runs/srv
	[ "$PAT" = stream ] || { skip iperf3 "iperf3 measures streams"; return; }
	[ "$TR" = unix ] && { skip iperf3 "iperf3 has no unix sockets"; return; }
	[ "$TR" = shm ] && { skip iperf3 "iperf3 has no shared memory"; return; }
	next_port
	echo "== iperf3 -l $BYTES -p $PORT round $ROUND ($CELL $PLACE)" >>"$LOG"
	start_server "$s" "${srv[@]}" iperf3 -s -1 -B 127.0.0.1 -p "$PORT"
	wait_listen tcp "$PORT" || { stop_server "$s"; failed iperf3 "its server did not listen"; return; }
	bounded "${cli[@]}" iperf3 -c 127.0.0.1 -B 127.0.0.1 -p "$PORT" -l "$BYTES" -t "$PEER_T" -J >"$f.json" 2>>"$LOG"
	local rc=$?
	stop_server "$s"
	[ $rc = 0 ] || { cat "$f.json" >>"$LOG"; failed iperf3 "exit $rc"; return; }
	jq -r --argjson b "$BYTES" '.end.sum_received | (.bytes / .seconds) as $r
		| "mib_per_s \($r / 1048576)", "msgs_per_s \($r / $b)"' "$f.json" >"$f" 2>>"$LOG"
	cat "$f" >>"$LOG"
	rows iperf3 "$f" mib_per_s msgs_per_s || failed iperf3 "no end.sum_received in its JSON"
}

run_go() {
	local f=$OUT/runs/out s=$OUT/runs/srv addr
	[ "$PAT" = echo ] || { skip go "the Go pair is the echo cells' peer"; return; }
	if [ "$TR" = unix ]; then
		addr=$SOCK/echo.sock
		rm -f "$addr"
	else
		next_port
		addr=127.0.0.1:$PORT
	fi
	echo "== go echo $TR $addr round $ROUND ($CELL $PLACE $POLL)" >>"$LOG"
	start_server "$s" "${srv[@]}" "$GO_BIN/echo_server" -n "$TR" -a "$addr"
	local i
	for i in $(seq 100); do grep -q ready "$s" 2>/dev/null && break; sleep 0.02; done
	grep -q ready "$s" || { stop_server "$s"; failed go "its server was not ready"; return; }
	bounded "${cli[@]}" "$GO_BIN/echo_client" -n "$TR" -a "$addr" -c "$ECHO_COUNT" -w "$WARMUP" \
		-s "$BYTES" >"$f" 2>>"$LOG"
	local rc=$?
	stop_server "$s"
	cat "$f" >>"$LOG"
	[ $rc = 0 ] || { failed go "exit $rc"; return; }
	rows go "$f" msgs_per_s || failed go "no msgs_per_s line"
}

measure() { # TOOL: with the current cell, placement and poll
	if [ -n "${MISSING[$1]:-}" ]; then
		skip "$1" "${MISSING[$1]}"
		return
	fi
	case $1 in
	matrix) run_matrix full ;;
	matrix-totals) run_matrix totals ;;
	*) "run_$1" ;;
	esac
}

# ---- the rounds ----
ALL_CELLS=()
for t in tcp udp unix; do for s in 16B 1KiB 16KiB; do ALL_CELLS+=("pingpong/$t/$s"); done; done
for t in tcp unix; do for s in 16B 1KiB 128KiB; do ALL_CELLS+=("stream/$t/$s"); done; done
ALL_CELLS+=(echo/unix/10B echo/tcp/10B)
ALL_CELLS+=(pingpong/shm/16B pingpong/mq/16B stream/shm/1KiB)
RUN_CELLS=()
for c in "${ALL_CELLS[@]}"; do
	echo "$c" | grep -Eq -- "$CELLS" && RUN_CELLS+=("$c")
done
[ ${#RUN_CELLS[@]} -gt 0 ] || die "CELLS=$CELLS matches no cell (${ALL_CELLS[*]})"
bytes_of() {
	case $1 in
	*KiB) echo $((${1%KiB} * 1024)) ;;
	*B) echo "${1%B}" ;;
	esac
}
IFS=, read -r -a TOOL_LIST <<<"$TOOLS"
# totals_here: matrix-totals runs in the current cell, placement and poll
totals_here() { case $PLACE/$POLL in none/block | same/block) ;; *) return 1 ;; esac; echo "$CELL" | grep -Eq -- "$RECORD_CELLS"; }
# one_round FN: FN TOOL for every measurement of round ROUND, with CELL,
# PAT, TR, SIZE, BYTES, PLACE, POLL, srv and cli set
one_round() {
	local k=$(((ROUND - 1) % ${#TOOL_LIST[@]})) tool
	local order=("${TOOL_LIST[@]:k}" "${TOOL_LIST[@]:0:k}")
	for CELL in "${RUN_CELLS[@]}"; do
		IFS=/ read -r PAT TR SIZE <<<"$CELL"
		BYTES=$(bytes_of "$SIZE")
		for PLACE in ${PLACEMENTS//,/ }; do
			[ "$PLACE" = none ] || echo "$CELL" | grep -Eq -- "$WIDE" || continue
			case $PLACE in
			none) srv=() cli=() ;;
			same) srv=(taskset -c "$CPU0") cli=(taskset -c "$CPU0") ;;
			split) srv=(taskset -c "$CPU0") cli=(taskset -c "${CPU1:-$CPU0}") ;;
			esac
			for POLL in ${POLLS//,/ }; do
				if [ "$POLL" = busy ] && [ "$PAT" = stream ]; then continue; fi
				if [ "$PLACE" = split ] && [ -z "$CPU1" ]; then
					[ "$1" = estimate ] || skip all "one CPU allowed here: no split"
					continue
				fi
				if [ "$POLL" = busy ] && [ "$PLACE" = same ]; then
					[ "$1" = estimate ] || skip all "busy polling with placement same: two spinners on one core, each round trip waits out the scheduler's time slice"
					continue
				fi
				for tool in "${order[@]}"; do
					if [ "$tool" = matrix-totals ]; then # with matrix, or alone without it
						totals_here && ! has_tool matrix || continue
					fi
					if [ "$tool" != matrix ] || ! has_tool matrix-totals || ! totals_here; then
						"$1" "$tool"
					elif [ $((ROUND % 2)) = 1 ]; then	# the pair back to back, its order alternating
						"$1" matrix
						"$1" matrix-totals
					else
						"$1" matrix-totals
						"$1" matrix
					fi
				done
			done
		done
	done
}
# estimate TOOL: adds to EST_MS what one measurement takes here, roughly
# (measured on this 2-core VM: a matrix run's start, warmup and CSV some
# 0.4 s; sockperf warms up 0.4 s inside its -t; an echo cell ~40 µs a round
# trip at worst placements' median)
EST_MS=0
estimate() {
	local w=$DUR_MS
	[ -z "${MISSING[$1]:-}" ] || return 0
	[ "$PAT" = echo ] && w=$((ECHO_COUNT / 25))
	case $1/$TR in
	sockperf/unix | qperf/unix | iperf3/unix | sockperf/shm | qperf/shm | iperf3/shm | \
		sockperf/mq | qperf/mq | iperf3/mq) return 0 ;; # none of them has these
	matrix/shm | matrix/mq | matrix-totals/shm | matrix-totals/mq) ! matrix_lacks "$TR" || return 0 ;;
	esac
	case $1 in
	matrix | matrix-totals) EST_MS=$((EST_MS + w + 400)) ;;
	floor) EST_MS=$((EST_MS + w + 100)) ;;
	sockperf) [ "$PAT" = echo ] || EST_MS=$((EST_MS + PEER_T * 1000 + 1300)) ;;
	qperf) [ "$PAT/$POLL" != pingpong/block ] || EST_MS=$((EST_MS + PEER_T * 1000 + 400)) ;;
	iperf3) [ "$PAT" != stream ] || EST_MS=$((EST_MS + PEER_T * 1000 + 600)) ;;
	go) [ "$PAT" != echo ] || EST_MS=$((EST_MS + w + 300)) ;;
	esac
}
ROUND=1
one_round estimate
EST_MS=$((EST_MS * ROUNDS + OH_ROUNDS * (OH_CELLS * 10 + 3000)))
# memory.sh, per round: its six cells at 10^4 and at their high counts
# (measured here: ~110 s a round at MEM_HI=10^7, ~4 s at 10^5)
[ "$MEM_ROUNDS" = 0 ] || EST_MS=$((EST_MS + MEM_ROUNDS * (2000 + MEM_HI / 90)))
T0=$(date +%s)
echo "bench: ${#RUN_CELLS[@]} cells, $ROUNDS rounds, tools $TOOLS, placements $PLACEMENTS," \
	"overhead $OH_ROUNDS x $OH_CELLS cells, memory $MEM_ROUNDS round(s) to $MEM_HI; in $OUT" >&2
echo "bench: expected to take about $(((EST_MS + 30000) / 60000)) min (started $(date -u +%H:%M) UTC)" >&2
[ "${BENCH_DRY:-0}" = 0 ] || exit 0
for ROUND in $(seq 1 "$ROUNDS"); do
	one_round measure
	echo "bench: round $ROUND of $ROUNDS done ($(($(date +%s) - T0)) s)" >&2
done
if [ "$OH_ROUNDS" -gt 0 ]; then
	echo "bench: bench/overhead.sh, $OH_ROUNDS runs of $OH_CELLS tiny cells" >&2
	ROUNDS=$OH_ROUNDS CELLS=$OH_CELLS OUT=$RAW MATRIX_BIN=$MATRIX_BIN \
		bash bench/overhead.sh >>"$LOG" 2>&1 || echo "bench: bench/overhead.sh failed (see $LOG)" >&2
fi
if [ "$MEM_ROUNDS" -gt 0 ]; then
	echo "bench: bench/memory.sh, $MEM_ROUNDS round(s), counts 10000 and $MEM_HI" >&2
	ROUNDS=$MEM_ROUNDS CELLS=$MEM_CELLS HI=$MEM_HI OUT=$RAW MATRIX_BIN=$MATRIX_BIN \
		bash bench/memory.sh >>"$LOG" 2>&1 || echo "bench: bench/memory.sh failed (see $LOG)" >&2
fi
if [ "$REPORT_ROUNDS" -gt 0 ]; then
	echo "bench: bench/report_speed.sh, the reports of 100 tiny cells, $REPORT_ROUNDS runs" >&2
	ROUNDS=$REPORT_ROUNDS OUT=$RAW MATRIX_BIN=$MATRIX_BIN \
		bash bench/report_speed.sh >>"$LOG" 2>&1 || echo "bench: bench/report_speed.sh failed (see $LOG)" >&2
fi
echo "bench: took $(($(date +%s) - T0)) s" >&2

# ---- the table ----
{
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	printf 'make bench, %s; %s rounds; machine: %s, %s cores, %s %s\n' \
		"$(date -u '+%Y-%m-%d %H:%M UTC')" "$ROUNDS" "${cpu:-unknown CPU}" "$(nproc)" \
		"$(uname -s)" "$(uname -r)"
	printf 'matrix %s; windows: %s s (matrix, floor), %s s (peers), echo %s round trips\n\n' \
		"$("$MATRIX_BIN" --version 2>/dev/null | head -n 1)" "$DURATION" "$PEER_T" "$ECHO_COUNT"
	"$TABLE_BIN" "$RAW" "$OUT"
	if [ -s "$OUT/skipped.txt" ]; then
		printf '\nSkipped (%s):\n' "$OUT/skipped.txt"
		awk -F': skipped: ' '{ split($1, a, " "); k = a[1] ": " $2; n[k]++
			if (!(k in first)) { first[k] = NR; keys[++nk] = k } }
			END { for (i = 1; i <= nk; i++) printf "  %s (%d)\n", keys[i], n[keys[i]] }' \
			"$OUT/skipped.txt"
	fi
	el=$(($(date +%s) - T0))
	printf '\ntook %d min %02d s; raw.csv, table.csv, table.md in %s\n' $((el / 60)) $((el % 60)) "$OUT"
} | tee "$OUT/table.txt"
rm -rf "$OUT/nobin"
exit 0
