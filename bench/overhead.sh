#!/usr/bin/env bash
# bench/overhead.sh: what the runner costs per cell repetition, on a
# matrix of CELLS (100) tiny cells: pingpong unix 16 B, one client, count
# 1, warmup 0, repeat 1, the cells told apart by `spin` (0 ns to 99 ns, a
# server busy-wait far below the noise).  ROUNDS (5) runs, and per run:
#
#   runner_overhead_ms, runner_overhead_ms_max   meta.csv: per repetition,
#            its wall time from the runner starting it to its row written,
#            minus the clients' timed window (plan/meta.h): median, max
#   runner_max_rss_kib     meta.csv: the runner's VmHWM before its report
#   run_ms_per_rep         from outside: from `matrix run` starting to its
#            last write of results.csv (the file's mtime, in ns), over the
#            cells: the run's start-up, not its report, included
#   total_ms_per_rep       `matrix run` whole, its report included, / cells
#   report_s               `matrix report` of the folder, seconds
#   report_max_rss_kib     that report's VmHWM, read from /proc/PID/status
#            every 10 ms while it runs (its last reading; gnuplot, its
#            child, is not counted)
#
# Writes raw.csv rows as bench/run.sh defines them,
#   round,cell,tool,placement,poll,metric,value
# (cell overhead_CELLS, tool matrix, placement none, poll block) to OUT
# (default bench/results/overhead-STAMP/raw.csv) and prints each metric's
# median with its min and max.  The target (issue 14): runner_overhead_ms
# at most 5 ms.  Knobs: ROUNDS, CELLS, MATRIX (default
# ./build/release/matrix or ./matrix; MATRIX_BIN too, as bench/run.sh
# names it), OUT (a raw.csv to append to, or a folder: FOLDER/raw.csv).
# Standalone: bash bench/overhead.sh; bench/run.sh calls it with OUT set.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5} CELLS=${CELLS:-100}
MATRIX=${MATRIX:-${MATRIX_BIN:-$( [ -x build/release/matrix ] && echo "$PWD/build/release/matrix" || echo "$PWD/matrix")}}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=${OUT:-bench/results/overhead-$STAMP/raw.csv}
[ ! -d "$OUT" ] || OUT=$OUT/raw.csv	# bench/run.sh's results folder
mkdir -p "$(dirname "$OUT")"
[ -s "$OUT" ] || echo "round,cell,tool,placement,poll,metric,value" >"$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/matrix-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT

spins=$(seq -s ', ' -f '%gns' 0 $((CELLS - 1)))
cat >"$work/tiny.yaml" <<YAML
name: tiny
repeat: 1
warmup: 0
timeout: 10s
matrix:
  pattern: pingpong
  transport: unix
  size: 16
  concurrency: 1
  count: 1
  spin: [$spins]
YAML

now_ns() { date +%s%N; }
row() { echo "$1,overhead_$CELLS,matrix,none,block,$2,$3" >>"$OUT"; }

for round in $(seq 1 "$ROUNDS"); do
	echo "overhead: round $round/$ROUNDS" >&2
	dir=$work/run-$round
	t0=$(now_ns)
	"$MATRIX" run "$work/tiny.yaml" -o "$dir" -q >/dev/null
	t1=$(now_ns)
	"$MATRIX" report "$dir" -q >/dev/null & pid=$!
	hwm=0
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
		[ -n "$v" ] && hwm=$v
		sleep 0.01
	done
	wait "$pid"
	t2=$(now_ns)
	for k in runner_overhead_ms runner_overhead_ms_max runner_max_rss_kib; do
		row "$round" "$k" "$(awk -F, -v k="$k" '$1 == k {print $2}' "$dir/meta.csv")"
	done
	last=$(stat -c %.9Y "$dir/results.csv" | tr -d .)
	total_ns=$((t1 - t0)) report_ns=$((t2 - t1))
	row "$round" run_ms_per_rep "$(echo "scale=3; ($last - $t0) / $CELLS / 1000000" | bc)"
	row "$round" total_ms_per_rep "$(echo "scale=3; $total_ns / $CELLS / 1000000" | bc)"
	row "$round" report_s "$(echo "scale=3; $report_ns / 1000000000" | bc)"
	row "$round" report_max_rss_kib "$hwm"
	rm -rf "$dir"
done

awk -F, 'NR > 1 && $7 != "" { v[$6, ++n[$6]] = $7 }
END {
	printf "%-24s %10s %10s %10s\n", "metric", "median", "min", "max"
	for (k in n) {
		m = n[k]
		for (i = 1; i <= m; i++) a[i] = v[k, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		printf "%-24s %10.3f %10.3f %10.3f\n", k, m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2, a[1], a[m]
	}
}' "$OUT" | { read -r header; echo "$header"; sort; }
echo "raw rows: $OUT"
