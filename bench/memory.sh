#!/usr/bin/env bash
# bench/memory.sh: does memory grow with the message count?  Peak resident
# sets at a low and a high count, per cell, interleaved over ROUNDS rounds:
#
#   runner   meta.csv runner_max_rss_kib (the runner's VmHWM at the end of
#            the run, before its report)
#   workers  results.csv max_rss_kib (the largest worker's own VmHWM, which
#            each worker sends in its result record)
#
# Cells (one matrix run each, repeat 1, warmup 0): pingpong unix 16 B (one
# client; and 16 in flight: the pipelined client), stream tcp 16 B and
# 128 KiB, stream udp 16 B (allow_loss: its receiver's window of sequence
# numbers, workers/seqwin.h), stream unix 16 B (every stream cell's
# timeline has no `interval`: the receiver merges intervals as it grows).  Counts: LO (10^4) and
# HI (10^7); a pingpong of 10^7 round trips takes minutes here, so the
# pingpong cells run PP_HI (10^6) unless PP_HI=10000000 is given, and 10^7
# messages of 128 KiB (1.3 TB) would take an hour: that cell runs BIG_HI
# (10^5, 13 GB).
#
# Writes raw.csv rows as bench/run.sh defines them,
#   round,cell,tool,placement,poll,metric,value
# (tool matrix, placement none, poll block; metric runner_max_rss_kib or
# worker_max_rss_kib, the cell named with its count), to OUT (default
# bench/results/memory-STAMP/raw.csv), then prints per cell the medians
# and the ratio high/low count (the target: within 10%, i.e. 0.90-1.10).
#
# Knobs: ROUNDS (3), LO, HI, PP_HI, BIG_HI, MATRIX (default ./build/release/matrix
# or ./matrix; MATRIX_BIN too, as bench/run.sh names it), OUT (a raw.csv to
# append to, or a folder: FOLDER/raw.csv), CELLS (a regex over the cell
# names below).
# Standalone: bash bench/memory.sh; bench/run.sh calls it with OUT set.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3} LO=${LO:-10000} HI=${HI:-10000000} PP_HI=${PP_HI:-1000000}
BIG_HI=${BIG_HI:-100000}
MATRIX=${MATRIX:-${MATRIX_BIN:-$( [ -x build/release/matrix ] && echo "$PWD/build/release/matrix" || echo "$PWD/matrix")}}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=${OUT:-bench/results/memory-$STAMP/raw.csv}
CELLS=${CELLS:-.}
[ ! -d "$OUT" ] || OUT=$OUT/raw.csv	# bench/run.sh's results folder
mkdir -p "$(dirname "$OUT")"
[ -s "$OUT" ] || echo "round,cell,tool,placement,poll,metric,value" >"$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/matrix-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT

# name|pattern|transport|size|high count|an extra line of matrix:
cells=(
	"pingpong_unix_16B|pingpong|unix|16|$PP_HI|"
	"pingpong_unix_16B_inflight16|pingpong|unix|16|$PP_HI|  inflight: 16"
	"stream_tcp_16B|stream|tcp|16|$HI|"
	"stream_tcp_128KiB|stream|tcp|128KiB|$BIG_HI|"
	"stream_udp_16B|stream|udp|16|$HI|  allow_loss: true"
	"stream_unix_16B|stream|unix|16|$HI|"
)

run_cell() {	# round name pattern transport size extra count
	local round=$1 name=$2 pattern=$3 transport=$4 size=$5 extra=$6 count=$7
	local dir=$work/$name-$count-$round
	{
		printf 'name: mem\nrepeat: 1\nwarmup: 0\ntimeout: 30m\nmatrix:\n'
		printf '  pattern: %s\n  transport: %s\n  size: %s\n  count: %s\n' \
			"$pattern" "$transport" "$size" "$count"
		[ -n "$extra" ] && printf '%s\n' "$extra"
	} >"$work/m.yaml"
	"$MATRIX" run "$work/m.yaml" -o "$dir" -q >/dev/null 2>"$work/err" ||
		[ -s "$dir/results.csv" ] || { cat "$work/err" >&2; return 1; }
	local runner worker
	runner=$(awk -F, '$1=="runner_max_rss_kib"{print $2}' "$dir/meta.csv")
	worker=$(awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="max_rss_kib") c=i; next} {print $c}' \
		"$dir/results.csv")
	echo "$round,${name}_count$count,matrix,none,block,runner_max_rss_kib,$runner" >>"$OUT"
	echo "$round,${name}_count$count,matrix,none,block,worker_max_rss_kib,$worker" >>"$OUT"
	rm -rf "$dir"
}

for round in $(seq 1 "$ROUNDS"); do
	for c in "${cells[@]}"; do
		IFS='|' read -r name pattern transport size hi extra <<<"$c"
		[[ $name =~ $CELLS ]] || continue
		for count in "$LO" "$hi"; do
			echo "memory: round $round/$ROUNDS: $name count $count" >&2
			run_cell "$round" "$name" "$pattern" "$transport" "$size" "$extra" "$count"
		done
	done
done

# Per cell and metric: the median at each count, and high / low.
awk -F, 'NR > 1 && $7 != "" {
	split($2, p, "_count"); key = p[1] "," $6
	v[key, p[2], ++n[key, p[2]]] = $7; counts[key, p[2]] = 1; keys[key] = 1
}
function median(key, c,    m, i, j, t, a) {
	m = n[key, c]
	for (i = 1; i <= m; i++) a[i] = v[key, c, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
	printf "%-34s %-20s %10s %10s %12s %7s\n", "cell", "metric", "low count", "KiB", "high: KiB", "ratio"
	for (key in keys) {
		lo = ""; hi = ""
		for (kc in counts) { split(kc, q, SUBSEP); if (q[1] != key) continue
			if (lo == "" || q[2] + 0 < lo + 0) lo = q[2]; if (hi == "" || q[2] + 0 > hi + 0) hi = q[2] }
		split(key, k, ","); a = median(key, lo); b = median(key, hi)
		printf "%-34s %-20s %10s %10d %12s %7.3f\n", k[1], k[2], lo, a, hi ": " b, b / a
	}
}' "$OUT" | { read -r header; echo "$header"; sort; }
echo "raw rows: $OUT"
