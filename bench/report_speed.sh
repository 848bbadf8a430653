#!/usr/bin/env bash
# bench/report_speed.sh: how long `matrix report` takes on a run folder of
# 100 tiny cells (transports unix, tcp, pipe, unix_seqpacket, tcp6 by
# patterns pingpong, echo, stream, pipeline by sizes 16 B to 4 KiB; count
# 20, repeat 1): summary.csv, summary.md, report.html and every chart's
# .gp, .svg and .png, gnuplot's drawing most of it (15 charts here: 4
# charts of panels, the timeline and 10 latency charts).  The run is made
# once; then one report not counted and ROUNDS (5) counted, one after
# another.  Prints each figure's median with its min and max:
#
#   report_wall_s   the report, from outside (date +%s%N), seconds
#   report_cpu_s    its CPU time, user + sys, gnuplot's included
#                   (/usr/bin/time; left out when that is not installed)
#
# The target (issue 28): report_wall_s at most 0.3 s on 2 idle cores.  A
# busy machine stretches the wall time, not the CPU time much: quote both.
# With OUT set (a raw.csv, or a folder: FOLDER/raw.csv, as bench/run.sh
# names its results), the rounds are also appended to it as
#   round,cell,tool,placement,poll,metric,value
# rows (cell report_100, tool matrix, placement none, poll block).
# Knobs: ROUNDS, MATRIX (default ./build/release/matrix or ./matrix;
# MATRIX_BIN too), OUT.  Needs gnuplot (without it the report draws
# nothing and the figure means little: refused).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
MATRIX=${MATRIX:-${MATRIX_BIN:-$( [ -x build/release/matrix ] && echo "$PWD/build/release/matrix" || echo "$PWD/matrix")}}
command -v gnuplot >/dev/null || { echo "report_speed: gnuplot is not installed" >&2; exit 2; }
if [ -n "${OUT:-}" ]; then
	[ ! -d "$OUT" ] || OUT=$OUT/raw.csv
	mkdir -p "$(dirname "$OUT")"
	[ -s "$OUT" ] || echo "round,cell,tool,placement,poll,metric,value" >"$OUT"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/matrix-report-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat >"$work/tiny100.yaml" <<'YAML'
name: tiny100
repeat: 1
warmup: 0
matrix:
  transport: [unix, tcp, pipe, unix_seqpacket, tcp6]
  pattern: [pingpong, echo, stream, pipeline]
  size: [16, 64, 256, 1KiB, 4KiB]
  count: 20
YAML
echo "report_speed: running the 100 cells once" >&2
"$MATRIX" run "$work/tiny100.yaml" -o "$work/run" -q >/dev/null

now_ns() { date +%s%N; }
timer=$(command -v /usr/bin/time || true)
: >"$work/wall" && : >"$work/cpu"
for round in $(seq 0 "$ROUNDS"); do	# round 0: not counted
	t0=$(now_ns)
	if [ -n "$timer" ]; then
		"$timer" -f '%U %S' -o "$work/time" "$MATRIX" report "$work/run" -q >/dev/null
	else
		"$MATRIX" report "$work/run" -q >/dev/null
	fi
	t1=$(now_ns)
	[ "$round" -gt 0 ] || continue
	wall=$(echo "scale=3; ($t1 - $t0) / 1000000000" | bc)
	echo "$wall" >>"$work/wall"
	[ -z "$timer" ] || awk '{ printf "%.3f\n", $1 + $2 }' "$work/time" >>"$work/cpu"
	if [ -n "${OUT:-}" ]; then
		echo "$round,report_100,matrix,none,block,report_wall_s,$wall" >>"$OUT"
		[ -z "$timer" ] || echo "$round,report_100,matrix,none,block,report_cpu_s,$(tail -1 "$work/cpu")" >>"$OUT"
	fi
done

# median min max of the numbers in FILE, one a line
stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) printf "%.3f %.3f %.3f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'; }
printf '%-16s %8s %8s %8s\n' figure median min max
read -r med lo hi <<<"$(stats "$work/wall")"
printf '%-16s %8s %8s %8s   (target: at most 0.3 s on 2 idle cores)\n' report_wall_s "$med" "$lo" "$hi"
if [ -s "$work/cpu" ]; then
	read -r med lo hi <<<"$(stats "$work/cpu")"
	printf '%-16s %8s %8s %8s\n' report_cpu_s "$med" "$lo" "$hi"
fi
