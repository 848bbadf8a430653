#!/usr/bin/env bash
# bench/instructions.sh: user-space instructions per round trip of matrix's
# client + server against the floor's (bench/floor.c), counted by callgrind.
#
# Each cell (unix pingpong, SIZE bytes, poll style) runs at N1 and at N2
# round trips (repeat 1, warmup 100); a figure is
#   (Ir(N2) - Ir(N1)) / (N2 - N1)
# so that start-up, set-up and the report cancel out and what is left is
# one round trip's instructions, both sides, user space only (callgrind
# counts no kernel work, nor the vDSO's part of a clock read).  What each
# program does once, after the loop, to report is left out of the count
# (callgrind --toggle-collect), as its size depends on the figures: the
# floor's qsort of its round trips, matrix's result record (its histogram's
# buckets).  matrix: the client worker and the server worker (never the
# runner), each counted in a run of its own, under `valgrind
# --tool=callgrind --trace-children=yes` with the other worker skipped
# (--trace-children-skip-by-arg) so that it runs natively.  The floor
# forks without exec, so both of its processes run under callgrind (one
# output file per pid) and are summed.  "calls" is the system calls per
# round trip of both sides: a read and a write each, and the clock reads
# (valgrind makes them system calls).
#
# Busy polling: a round trip whose reads find their message runs the same
# instructions as a blocking one (the busy test sits on the EAGAIN path),
# so the block cells are the count.  A busy cell (CELLS=16:busy) runs too,
# but under callgrind its figure is mostly the spin: every failed read is
# counted, and a process slowed down 50-fold by valgrind leaves its peer
# spinning tens of reads a round trip ("calls" says how many).
#
# Output, one line per cell, then the line make bench shows:
#   unix pingpong 16 B block: matrix M (client C, server S), floor F (M/Fx);
#     calls C, C
#   instructions per round trip: matrix M, floor F (M/Fx)
# (the last line: the first cell).  Knobs (environment): MATRIX_BIN,
# FLOOR_BIN (default build/release/...), N1=2000, N2=12000,
# CELLS='16:block 1024:block' (SIZE:POLL words), PATTERN=pingpong
# (matrix's; echo: its client checks every byte; the floor's is the same),
# OUT=DIR (callgrind's files; default a temporary folder, removed).
# Installs valgrind (tests/deps.sh) when it is missing.  Exit 0, or 2 when
# a measurement could not be made.  About a minute.
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
for v in OUT MATRIX_BIN FLOOR_BIN; do
	[ -z "${!v:-}" ] || printf -v "$v" '%s' "$(abs "${!v}")"
done
cd "$(dirname "$0")/.." || exit 2
MATRIX_BIN=${MATRIX_BIN:-$PWD/build/release/matrix}
FLOOR_BIN=${FLOOR_BIN:-$PWD/build/release/bench/floor}
N1=${N1:-2000}
N2=${N2:-12000}
PATTERN=${PATTERN:-pingpong}
CELLS=${CELLS:-16:block 1024:block}
command -v valgrind >/dev/null || sh tests/deps.sh valgrind || exit 2
VALGRIND=$(command -v valgrind)
for b in "$MATRIX_BIN" "$FLOOR_BIN"; do
	[ -x "$b" ] || { echo "instructions: no $b (make matrix; make bench builds the floor)" >&2; exit 2; }
done
keep=${OUT:+1}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT/nobin"	# matrix's PATH: no gnuplot, no charts

# ir FILE...: the summed instruction count of callgrind files
ir() { awk '/^summary:/ { s += $2 } END { printf "%.0f\n", s }' "$@"; }
# calls FILE...: the summed system calls (--collect-systime)
calls() { awk '/^summary:/ { s += $3 } END { printf "%.0f\n", s }' "$@"; }

# matrix_role SIZE POLL COUNT ROLE: callgrind's files of that worker in $D
matrix_role() {
	local other=client y=$OUT/m.yaml
	[ "$4" = client ] && other=server
	D=$OUT/m-$1-$2-$3-$4
	rm -rf "$D" && mkdir -p "$D" || return 1
	printf 'name: ins\ndescription: bench/instructions.sh\nrepeat: 1\nwarmup: 100\ntimeout: 600s\n' >"$y"
	printf 'matrix:\n  pattern: %s\n  transport: unix\n  size: %s\n  count: %s\n  poll: %s\n' \
		"$PATTERN" "$1" "$3" "$2" >>"$y"
	env PATH="$OUT/nobin" "$VALGRIND" -q --tool=callgrind --trace-children=yes \
		--trace-children-skip-by-arg="$other" --toggle-collect=wire_write_result \
		--collect-atstart=yes --collect-systime=yes --callgrind-out-file="$D/cg.%p" \
		"$MATRIX_BIN" run "$y" -o "$D/run" -q >"$D/log" 2>&1 || return 1
	grep -l "^cmd: .* worker $4 " "$D"/cg.* 2>/dev/null
}

# matrix_count SIZE POLL COUNT: "IR CALLS CLIENT_IR" of client + server
matrix_count() {
	local f i=0 r=0 c=0 role
	for role in client server; do
		f=$(matrix_role "$1" "$2" "$3" $role) || return 1
		[ "$(echo "$f" | wc -w)" = 1 ] || return 1
		i=$((i + $(ir "$f"))) r=$((r + $(calls "$f")))
		[ $role = server ] || c=$i
	done
	echo "$i $r $c"
}

# floor_count SIZE POLL COUNT: "IR READS" of its two processes
floor_count() {
	local d=$OUT/f-$1-$2-$3 busy=()
	[ "$2" = busy ] && busy=(--busy)
	rm -rf "$d" && mkdir -p "$d" || return 1
	"$VALGRIND" -q --tool=callgrind --toggle-collect=qsort --collect-atstart=yes \
		--collect-systime=yes --callgrind-out-file="$d/cg.%p" \
		"$FLOOR_BIN" --pattern pingpong \
		--transport unix --size "$1" --count "$3" --warmup 100 --timeout 600 "${busy[@]}" \
		>"$d/log" 2>&1 || return 1
	echo "$(ir "$d"/cg.*) $(calls "$d"/cg.*)"
}

# per_rt FIGURE1 FIGURE2: per round trip
per_rt() { awk -v a="$1" -v b="$2" -v n1="$N1" -v n2="$N2" 'BEGIN { printf "%.0f", (b - a) / (n2 - n1) }'; }
per_rt2() { awk -v a="$1" -v b="$2" -v n1="$N1" -v n2="$N2" 'BEGIN { printf "%.2f", (b - a) / (n2 - n1) }'; }

first=
for c in $CELLS; do
	size=${c%%:*} poll=${c#*:}
	m1=$(matrix_count "$size" "$poll" "$N1") && m2=$(matrix_count "$size" "$poll" "$N2") &&
		f1=$(floor_count "$size" "$poll" "$N1") && f2=$(floor_count "$size" "$poll" "$N2") || {
		echo "instructions: unix $PATTERN $size B $poll: a run failed (see $OUT)" >&2
		keep=1
		exit 2
	}
	read -r mi1 mr1 mc1 <<<"$m1"; read -r mi2 mr2 mc2 <<<"$m2"
	read -r fi1 fr1 <<<"$f1"; read -r fi2 fr2 <<<"$f2"
	m=$(per_rt "$mi1" "$mi2") f=$(per_rt "$fi1" "$fi2") mc=$(per_rt "$mc1" "$mc2")
	ratio=$(awk -v m="$m" -v f="$f" 'BEGIN { printf "%.2f", m / f }')
	printf 'unix %s %s B %s: matrix %s (client %s, server %s), floor %s (%sx); calls %s, %s\n' \
		"$PATTERN" "$size" "$poll" "$m" "$mc" $((m - mc)) "$f" "$ratio" \
		"$(per_rt2 "$mr1" "$mr2")" "$(per_rt2 "$fr1" "$fr2")"
	[ -n "$first" ] || first="instructions per round trip: matrix $m, floor $f (${ratio}x)"
done
echo "$first"
[ -n "$keep" ] || rm -rf "$OUT"
exit 0
