#!/usr/bin/env bash
# make bench-gate: does the regression gate work on this machine?  How often
# it cries wolf on a change that is not there (A/A pairs), and how often it
# catches a real 10% slowdown (injected pairs), for the two ways of gating:
#
#   in-run A/B     one run, baseline and candidate as two values of one
#                  dimension, interleaved: `matrix run --compare DIM=A:B`
#   separate runs  a baseline run, then a candidate run of the same matrix,
#                  then `matrix compare BASE NEW`
#
# A false alarm is exit 1 (regressed) on an A/A pair, a detection is exit 1
# on an injected pair; exit 3 (inconclusive) and 0 (nothing regressed) are
# neither, and are counted apart, as are failures (2).  It reports; it does
# not gate: exit 0, unless the bench itself could not run (2).
#
# The matrix: pingpong, one client, SIZE-byte messages over TRANSPORT, a
# count chosen by a short probe run so that a repetition's timed window is
# about WINDOW_MS.  Every matrix command is pinned to CPU PIN with taskset
# (PIN= turns it off): unpinned, this 2-core VM puts server and client on
# one CPU in some repetitions and on two in others, a round trip of 8 or of
# 30 us, and a 10% change drowns in that.
#
# The slowdown: a calibration run (CAL_REPEAT repetitions) measures the
# median round trip (the median over repetitions of rtt_p50_us), and the
# spin starts at SLOWDOWN percent of it (the server spins once per round
# trip).  Here a spin costs a round trip more than its own time (about
# 1.8 times as much: 10% of the round trip as a spin made it 18% slower), so
# the spin is measured, in a run of spin: [0ns, S] (CAL_REPEAT repetitions),
# and rescaled by goal / measured until its measured slowdown of the median
# rtt_p50_us is within 1.5 points of SLOWDOWN; at most 4 tries, the closest
# is kept.  The summary prints every try, and the median change the
# injected pairs themselves saw.  TUNE=0 keeps SLOWDOWN percent of the round
# trip as the spin, untuned; SPIN_NS=N sets it.
#
# The cases (CASES, "quiet loaded"): quiet runs the pairs with nothing of
# ours beside them; loaded runs them again with a background load that
# switches on and off between and within runs: a CPU hog of our own (a
# shell busy loop, where the scheduler puts it, as another user's job
# would be; HOG_CPU=N pins it to CPU N, HOG_CPU=$PIN onto the runs' own
# CPU), on for 0.5 to 3 s, then off for 0.5 to 3 s, the durations
# drawn from bash's RANDOM seeded with HOG_SEED (1), started before the
# case's first pair and stopped by PID after its last (the hog and the
# process that switches it, nothing else).
#
# The pairs, PAIRS of each kind, per case, for each repetition count in
# REPEATS (default: the matrix default, 7):
#   in-run A/A       nodelay: [true, false] over unix, which ignores nodelay:
#                    two cells that differ in nothing; --compare nodelay=true:false
#   in-run injected  spin: [0us, SPIN]; --compare spin=0us:SPIN
#   separate A/A     two runs of the matrix with spin: 0us, then compare
#   separate injected  a run with spin: 0us, then one with spin: SPIN whose
#                    folder is relabelled spin 0 (its results.csv column and
#                    matrix.yaml): the candidate stands for a build that got
#                    slower while its matrix stayed the same, as in a nightly
#                    run; the measurements are untouched
#   in-run scaled    an exact +SLOWDOWN% per message on the machine's real
#                    paired noise: an in-run A/A of as many rounds as the
#                    two looks take (REPEAT, then COMPARE_LOOK2_TIMES x
#                    REPEAT; its own judgement at a threshold of 900%,
#                    which decides at once), split into a run folder of its
#                    first REPEAT rounds and a second look (RUN/look2) of
#                    the others,
#                    the candidate cells' rtt_p50_us multiplied by 1 +
#                    SLOWDOWN/100 and their msgs_per_s divided by it, then
#                    judged by `matrix report --compare`, both looks as a
#                    run makes them; the same split unscaled is an A/A
#                    (kind aa2).  The spin's own effect moves with the
#                    machine (on this VM from +4% to +24% pair to pair, as
#                    the round trip moves between its levels); this one
#                    does not
#   separate scaled  separate run B's folder with the same scaling, against A
# Separate pairs are judged as the nightly recipe judges two nights: with the
# guard and `--history` of the case's unslowed separate runs before them
# (the first five pairs have too little history for it).
# Each round runs, for each count in REPEATS: separate run A, in-run A/A,
# separate run B, in-run injected, separate run C (spin).  The separate
# pairs are (A, B) and (B, C), seconds apart: the best case for separate
# runs, which a nightly set-up makes a day apart.
#
# An in-run pair's verdict is its final one: the second look's
# (RUN/look2/ab.csv) when the first left a row inconclusive; the rounds it
# used are reported.  A separate pair's inconclusive verdicts are counted
# apart, and so are those the machine-state guard gave ("guarded").
#
# Settings (environment): MATRIX_BIN (./matrix), PAIRS (20), REPEATS ("7"),
# CASES ("quiet loaded"), HOG_CPU (none), HOG_SEED (1), WINDOW_MS (75), SLOWDOWN (10, percent), TRANSPORT (unix), SIZE (64),
# PIN (0), CAL_REPEAT (21), TUNE (1), SPIN_NS, THRESHOLD (compare's
# default, 5%), OUT (build/bench-gate/UTC-STAMP: every run folder, gate.csv
# with one row per pair, summary.txt, log).
set -u
cd "$(dirname "$0")/.." || exit 2

MATRIX_BIN=${MATRIX_BIN:-$PWD/matrix}
PAIRS=${PAIRS:-20}
REPEATS=${REPEATS:-7}
CASES=${CASES:-quiet loaded}
LOOK2_TIMES=$(sed -n 's/^#define COMPARE_LOOK2_TIMES \([0-9]*\).*/\1/p' gate/compare.h)
LOOK2_TIMES=${LOOK2_TIMES:-2}
HOG_SEED=${HOG_SEED:-1}
WINDOW_MS=${WINDOW_MS:-75}
SLOWDOWN=${SLOWDOWN:-10}
TRANSPORT=${TRANSPORT:-unix}
SIZE=${SIZE:-64}
PIN=${PIN-0}
HOG_CPU=${HOG_CPU-}
CAL_REPEAT=${CAL_REPEAT:-21}
TUNE=${TUNE:-1}
SPIN_NS=${SPIN_NS:-}
THRESHOLD=${THRESHOLD:-}
OUT=${OUT:-build/bench-gate/$(date -u +%Y%m%dT%H%M%SZ)}

die() { echo "bench-gate: $*" >&2; exit 2; }
[ -x "$MATRIX_BIN" ] || die "$MATRIX_BIN: not built (make matrix)"
command -v python3 >/dev/null || die "python3 is needed"
[ -z "$PIN" ] || command -v taskset >/dev/null || die "PIN=$PIN needs taskset (util-linux)"
mkdir -p "$OUT/runs" || die "cannot make $OUT"
[ -z "$(ls -A "$OUT/runs")" ] || die "$OUT is not empty"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/log
T0=$(date +%s)
cmp_args=(-q)
[ -z "$THRESHOLD" ] || cmp_args+=(--threshold "$THRESHOLD")

# Every matrix command, pinned to CPU PIN when set.
mx() {
	if [ -n "$PIN" ]; then
		taskset -c "$PIN" "$MATRIX_BIN" "$@"
	else
		"$MATRIX_BIN" "$@"
	fi
}

# matrix_file NAME COUNT [LINE...]: $OUT/NAME.yaml, the bench's matrix with
# extra lines under matrix: (the repetitions come from --repeat)
matrix_file() {
	local name=$1 count=$2 l
	shift 2
	{
		printf 'name: gate\ndescription: make bench-gate\nmatrix:\n'
		printf '  pattern: pingpong\n  transport: %s\n  size: %s\n' "$TRANSPORT" "$SIZE"
		printf '  concurrency: 1\n  count: %s\n' "$count"
		for l in "$@"; do printf '  %s\n' "$l"; done
	} >"$OUT/$name.yaml"
}

# run_stat FOLDER WHAT: the median over a run's ok repetitions of
# rtt_p50_us (WHAT rtt) or of elapsed_s / messages (WHAT per_msg)
run_stat() {
	python3 - "$1/results.csv" "$2" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
if not rows:
    sys.exit("no ok repetition in " + sys.argv[1])
f = {"rtt": lambda r: float(r["rtt_p50_us"]),
     "per_msg": lambda r: float(r["elapsed_s"]) / float(r["messages"])}[sys.argv[2]]
print(statistics.median(f(r) for r in rows))
PY
}

# calc EXPR: a Python expression's value
calc() { python3 -c "print($1)"; }

# effect SPIN_NS N: the measured slowdown of the median rtt_p50_us, as a
# fraction, in a run of spin: [0ns, SPIN_NS]
effect() {
	local d="$OUT/runs/tune$2"
	matrix_file "tune$2" "$COUNT" "spin: [0ns, ${1}ns]"
	mx run "$OUT/tune$2.yaml" -o "$d" -q --repeat "$CAL_REPEAT" >/dev/null 2>>"$LOG" ||
		return 1
	python3 - "$d/results.csv" <<'PY'
import csv, statistics as st, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
m = lambda spun: st.median(float(r["rtt_p50_us"]) for r in rows if (float(r["spin"]) > 0) == spun)
print(m(True) / m(False) - 1)
PY
}

# relabel FOLDER MATRIX: the folder's spin column set to 0 and its
# matrix.yaml replaced by MATRIX (see the top)
relabel() {
	python3 - "$1/results.csv" <<'PY' && cp "$2" "$1/matrix.yaml"
import csv, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
col = rows[0].index("spin")
for r in rows[1:]:
    r[col] = "0"
with open(sys.argv[1], "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
PY
}

# pair METHOD KIND REPEAT N STATUS CSV SECONDS: counts a pair's exit
# status, and writes its row of gate.csv (the case first): each metric's
# verdict, change, interval, q-value and why, from compare.csv or ab.csv
# (the second look's when there is one; missing after a failure), the
# rounds or new repetitions judged, whether the guard spoke, the seconds
# the pair's runs took
declare -A tally
pair() {
	local key="$CASE/$1/$2/$3/$5" csv=$6
	tally[$key]=$((${tally[$key]:-0} + 1))
	[ ! -e "${csv%/*}/look2/${csv##*/}" ] || csv="${csv%/*}/look2/${csv##*/}"
	python3 - "$CASE" "$1" "$2" "$3" "$4" "$5" "$csv" "$7" >>"$OUT/gate.csv" <<'PY'
import csv, os, sys
out, path, secs = sys.argv[1:7], sys.argv[7], sys.argv[8]
rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
for m in ("msgs_per_s", "rtt_p50_us"):
    r = next((r for r in rows if r["metric"] == m), None)
    out += [r[k] for k in ("verdict", "change", "change_lo", "change_hi", "q_worse", "why")] \
        if r else [""] * 6
used = [int(r.get("rounds") or r["new_n"] or 0) for r in rows if r.get("metric")]
out += [max(used) if used else "", int(any("machine" in r["why"] for r in rows)), secs]
csv.writer(sys.stdout, lineterminator="\n").writerow(out)
PY
}

now() { date +%s.%N; }

# sep_run NAME REPEAT MATRIX: one separate run (its status in sep_rc, its
# seconds in sep_s[NAME])
declare -A sep_s
sep_run() {
	local t0
	sep_rc=0
	t0=$(now)
	mx run "$3" -o "$OUT/runs/$CASE-$1" -q --repeat "$2" >/dev/null 2>>"$LOG" || sep_rc=$?
	sep_s[$1]=$(calc "$(now) - $t0")
}

# inrun KIND REPEAT N MATRIX SPEC: one in-run A/B
inrun() {
	local d="$OUT/runs/$CASE-r$2-inrun-$1-$3" rc=0 t0
	t0=$(now)
	mx run "$4" -o "$d" --repeat "$2" --compare "$5" "${cmp_args[@]}" >/dev/null \
		2>>"$LOG" || rc=$?
	pair inrun "$1" "$2" "$3" $rc "$d/ab.csv" "$(calc "$(now) - $t0")"
}

# separate KIND REPEAT N BASE NEW: two separate runs compared (2 when a run
# failed)
# --history HIST once it holds a run (the first pair has none)
hist_args() {
	[ -z "$(ls -A "$HIST" 2>/dev/null)" ] || printf -- '--history %s' "$HIST"
}

# scale FOLDER FACTOR: the candidate cells' (nodelay false's, or every
# cell's with FACTOR's third word "all") rtt_p50_us times FACTOR and
# msgs_per_s over it, in FOLDER/results.csv
scale() {
	python3 - "$1/results.csv" "$2" "${3:-}" <<'PY'
import csv, sys
path, f, every = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "all"
rows = list(csv.reader(open(path, newline="")))
h = rows[0]
t, r = h.index("msgs_per_s"), h.index("rtt_p50_us")
nd = h.index("nodelay") if "nodelay" in h else -1
for row in rows[1:]:
    if (every or row[nd] in ("false", "0")) and row[t] and row[r]:
        row[t], row[r] = repr(float(row[t]) / f), repr(float(row[r]) * f)
csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
PY
}

# split RUN OUT N: OUT holds RUN's rounds 1..N, OUT/look2 all its later
# ones renumbered from 1, each with RUN's matrix.yaml and meta.csv
split_looks() {
	python3 - "$1" "$2" "$3" <<'PY'
import csv, os, shutil, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = list(csv.reader(open(os.path.join(src, "results.csv"), newline="")))
rep = rows[0].index("rep")
for d, lo, hi in ((out, 0, n), (os.path.join(out, "look2"), n, 1 << 30)):
    os.makedirs(d)
    for f in ("matrix.yaml", "meta.csv"):
        shutil.copy(os.path.join(src, f), d)
    keep = [rows[0]]
    for r in rows[1:]:
        k = int(r[rep])
        if lo < k <= hi:
            r = list(r)
            r[rep] = str(k - lo)
            keep.append(r)
    csv.writer(open(os.path.join(d, "results.csv"), "w", newline=""),
               lineterminator="\n").writerows(keep)
PY
}

# inrun_scaled REPEAT N: one A/A of as many rounds as both looks take
# (REPEAT, then LOOK2_TIMES x REPEAT), split into the two looks, judged as
# it is (aa2) and scaled (scaled)
inrun_scaled() {
	local d="$OUT/runs/$CASE-r$1-inrun-split-$2" rc=0 t0 k f
	t0=$(now)
	mx run "$OUT/inrun_aa.yaml" -o "$d" --repeat $(((1 + LOOK2_TIMES) * $1)) \
		--compare nodelay=true:false \
		--threshold 900% -q >/dev/null 2>>"$LOG" || rc=$?
	local secs
	secs=$(calc "$(now) - $t0")
	for k in aa2 scaled; do
		f="$d-$k"
		if [ "$rc" -eq 2 ] || ! split_looks "$d" "$f" "$1" 2>>"$LOG"; then
			pair inrun "$k" "$1" "$2" 2 "$f/ab.csv" "$secs"
			continue
		fi
		if [ $k = scaled ]; then
			scale "$f" "$(calc "1 + $SLOWDOWN / 100")" && scale "$f/look2" "$(calc "1 + $SLOWDOWN / 100")"
		fi
		rc2=0
		mx report "$f" --compare nodelay=true:false "${cmp_args[@]}" >>"$LOG" 2>&1 || rc2=$?
		pair inrun "$k" "$1" "$2" $rc2 "$f/ab.csv" "$secs"
	done
}

# separate_scaled REPEAT N BASE NEW: NEW's folder scaled, against BASE
separate_scaled() {
	local b="$OUT/runs/$CASE-$3" n="$OUT/runs/$CASE-$4" s="$OUT/runs/$CASE-$4-scaled" rc=0
	local d="$OUT/runs/$CASE-r$1-cmp-scaled-$2"
	if [ -e "$b/results.csv" ] && [ -e "$n/results.csv" ]; then
		cp -r "$n" "$s" && rm -f "$s"/compare.* && scale "$s" "$(calc "1 + $SLOWDOWN / 100")" all &&
			mx compare "$b" "$s" -o "$d" $(hist_args) "${cmp_args[@]}" >>"$LOG" \
				2>>"$LOG" || rc=$?
	else
		rc=2
	fi
	pair separate scaled "$1" "$2" $rc "$d/compare.csv" "$(calc "${sep_s[$3]} + ${sep_s[$4]}")"
}

separate() {
	local rc=0 b="$OUT/runs/$CASE-$4" n="$OUT/runs/$CASE-$5" d="$OUT/runs/$CASE-r$2-cmp-$1-$3"
	if [ -e "$b/results.csv" ] && [ -e "$n/results.csv" ]; then
		mx compare "$b" "$n" -o "$d" $(hist_args) "${cmp_args[@]}" >>"$LOG" \
			2>>"$LOG" || rc=$?
	else
		rc=2
	fi
	pair separate "$1" "$2" "$3" $rc "$d/compare.csv" "$(calc "${sep_s[$4]} + ${sep_s[$5]}")"
}

# The background load of the loaded case: hog_start starts the process that
# switches a hog on and off (hog_pid), hog_stop ends both, by PID.
hog_pid=""
hog_start() {
	(
		RANDOM=$HOG_SEED
		h=""
		trap '[ -z "$h" ] || kill "$h" 2>/dev/null; exit 0' TERM
		while :; do
			if [ -n "$HOG_CPU" ]; then
				taskset -c "$HOG_CPU" sh -c 'while :; do :; done' &
			else
				sh -c 'while :; do :; done' &
			fi
			h=$!
			sleep "$(calc "0.5 + $RANDOM % 2500 / 1000")"
			kill "$h" 2>/dev/null
			wait "$h" 2>/dev/null
			h=""
			sleep "$(calc "0.5 + $RANDOM % 2500 / 1000")"
		done
	) &
	hog_pid=$!
}
hog_stop() {
	[ -z "$hog_pid" ] && return
	kill "$hog_pid" 2>/dev/null
	wait "$hog_pid" 2>/dev/null
	hog_pid=""
}
trap hog_stop EXIT

echo "bench-gate: run folders, gate.csv and summary.txt in $OUT" >&2

# ---- calibration (quiet) ----
CASE=cal
matrix_file probe 1000
mx run "$OUT/probe.yaml" -o "$OUT/runs/probe" -q --repeat 7 >/dev/null 2>>"$LOG" ||
	die "the probe run failed (see $LOG)"
per_msg=$(run_stat "$OUT/runs/probe" per_msg) || die "probe: no figures"
COUNT=$(calc "max(100, int(round($WINDOW_MS / 1000 / $per_msg, -2)))")
matrix_file base "$COUNT" "spin: 0us"
mx run "$OUT/base.yaml" -o "$OUT/runs/calibration" -q --repeat "$CAL_REPEAT" >/dev/null \
	2>>"$LOG" || die "the calibration run failed (see $LOG)"
RTT=$(run_stat "$OUT/runs/calibration" rtt) || die "calibration: no figures"
WIN=$(calc "$(run_stat "$OUT/runs/calibration" per_msg) * $COUNT * 1000")
RULE_NS=$(calc "max(1, round($RTT * 10 * $SLOWDOWN))")
# the tries keep a bracket: the largest spin measured below the goal (lo,
# from spin 0) and the smallest above it (hi); the next try is where the
# line between them meets the goal (the rescaled spin before there is a hi)
try=${SPIN_NS:-$RULE_NS} tries="" best="" best_err="" lo="0 0" hi=""
for n in 1 2 3 4 5; do
	e=$(effect "$try" "$n") || die "a calibration run failed (see $LOG)"
	tries="$tries${tries:+, }${try}ns $(calc "'%+.1f%%' % (100 * $e)")"
	err=$(calc "abs($e * 100 - $SLOWDOWN)")
	if [ -z "$best" ] || calc "int($err < $best_err)" | grep -qx 1; then
		best=$try best_err=$err best_effect=$e
	fi
	if [ -n "$SPIN_NS" ] || [ "$TUNE" != 1 ]; then
		break
	fi
	calc "int($err <= 1.5)" | grep -qx 1 && break
	if calc "int($e * 100 < $SLOWDOWN)" | grep -qx 1; then lo="$try $e"; else hi="$try $e"; fi
	# shellcheck disable=SC2086 # lo and hi are two words each
	try=$(python3 - $lo ${hi:-} "$SLOWDOWN" <<'PY'
import sys
a = [float(x) for x in sys.argv[1:]]
goal = a[-1] / 100
s0, e0 = a[0], a[1]
if len(a) == 5:		# between lo and hi
    s1, e1 = a[2], a[3]
    s = s0 + (goal - e0) * (s1 - s0) / (e1 - e0) if e1 > e0 else (s0 + s1) / 2
else:			# no hi yet: rescale lo
    s = s0 * goal / max(e0, 0.001)
print(max(1, round(s)))
PY
)
done
SPIN=${best}ns
matrix_file cand "$COUNT" "spin: $SPIN"
matrix_file inrun_aa "$COUNT" "nodelay: [true, false]"
matrix_file inrun_ab "$COUNT" "spin: [0us, $SPIN]"
echo "bench-gate: round trip $RTT us; spin tried: $tries; injecting $SPIN" >&2

# ---- the pairs ----
echo "case,method,kind,repeat,pair,exit,msgs_verdict,msgs_change,msgs_lo,msgs_hi,msgs_q_worse,msgs_why,rtt_verdict,rtt_change,rtt_lo,rtt_hi,rtt_q_worse,rtt_why,rounds,guarded,seconds" >"$OUT/gate.csv"
declare -A case_s
for CASE in $CASES; do
	c0=$(date +%s)
	HIST="$OUT/runs/$CASE-history"
	mkdir -p "$HIST"
	case $CASE in
	quiet) ;;
	loaded) hog_start ;;
	*) die "CASES: $CASE is neither quiet nor loaded" ;;
	esac
	for i in $(seq 1 "$PAIRS"); do
		for r in $REPEATS; do
			sep_run "r$r-A$i" "$r" "$OUT/base.yaml"
			inrun aa "$r" "$i" "$OUT/inrun_aa.yaml" nodelay=true:false
			sep_run "r$r-B$i" "$r" "$OUT/base.yaml"
			inrun inject "$r" "$i" "$OUT/inrun_ab.yaml" "spin=0us:$SPIN"
			sep_run "r$r-C$i" "$r" "$OUT/cand.yaml"
			[ "$sep_rc" -ne 0 ] || relabel "$OUT/runs/$CASE-r$r-C$i" "$OUT/base.yaml" ||
				die "relabelling $CASE-r$r-C$i failed"
			inrun_scaled "$r" "$i"
			separate aa "$r" "$i" "r$r-A$i" "r$r-B$i"
			separate inject "$r" "$i" "r$r-B$i" "r$r-C$i"
			separate_scaled "$r" "$i" "r$r-A$i" "r$r-B$i"
			# the case's unslowed separate runs so far: the history the
			# next pairs' noise is learnt from
			for k in A B; do
				[ ! -e "$OUT/runs/$CASE-r$r-$k$i/results.csv" ] ||
					cp -r "$OUT/runs/$CASE-r$r-$k$i" "$HIST/"
			done
		done
		printf '\rbench-gate: %s: %d of %d rounds' "$CASE" "$i" "$PAIRS" >&2
	done
	hog_stop
	case_s[$CASE]=$(($(date +%s) - c0))
	echo >&2
done
T1=$(date +%s)

# ---- the summary ----
t() { echo "${tally[$1]:-0}"; }
{
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	printf 'make bench-gate, %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'machine: %s, %s cores, %s %s\n' "${cpu:-unknown CPU}" "$(nproc)" "$(uname -s)" \
		"$(uname -r)"
	printf 'matrix: %s pingpong %s B, 1 client, count %s (%.0f ms windows), %s\n' \
		"$TRANSPORT" "$SIZE" "$COUNT" "$WIN" \
		"$([ -n "$PIN" ] && echo "pinned to CPU $PIN (taskset)" || echo "not pinned")"
	printf 'calibration: median round trip %.2f us (%s repetitions); %s%% of it: %sns\n' \
		"$RTT" "$CAL_REPEAT" "$SLOWDOWN" "$RULE_NS"
	printf 'spin tried (measured slowdown of the median rtt_p50_us): %s\n' "$tries"
	how=""
	[ -z "$SPIN_NS" ] || how=" (SPIN_NS)"
	[ -n "$SPIN_NS" ] || [ "$TUNE" = 1 ] || how=" (TUNE=0: untuned)"
	printf 'injected: spin %s (measured %s)%s; threshold %s; %s A/A and %s injected pairs per row\n\n' \
		"$SPIN" "$(calc "'%+.1f%%' % (100 * $best_effect)")" "$how" \
		"${THRESHOLD:-5% (default)}" "$PAIRS" "$PAIRS"
	printf '| case | method | slowdown by | repeat | false alarms (A/A exit 1) | A/A inconclusive (3; guarded) | detections (slowed exit 1) | slowed inconclusive (3; guarded) | failed (2) | rounds or new repetitions judged, mean | seconds per pair, median | slowed change, median: rtt_p50_us, msgs_per_s |\n'
	printf '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
	for CASE in $CASES; do
		for r in $REPEATS; do
			# method, its A/A kind, its slowed kind, the words
			for row in "inrun aa inject spin" "inrun aa2 scaled scaled" \
				   "separate aa inject spin" "separate aa scaled scaled"; do
				read -r m aa inj how <<<"$row"
				name="in-run A/B (--compare)"
				[ $m = inrun ] || name="two separate runs (compare, guard)"
				[ $how = spin ] && how="spin $SPIN" || how="x$(calc "1 + $SLOWDOWN / 100") of the data"
				read -r g_aa g_inj rounds secs change <<<"$(python3 - "$OUT/gate.csv" "$CASE" "$m" "$r" "$aa" "$inj" <<'PY'
import csv, statistics as st, sys
rows = [x for x in csv.DictReader(open(sys.argv[1]))
        if x["case"] == sys.argv[2] and x["method"] == sys.argv[3] and x["repeat"] == sys.argv[4]
        and x["kind"] in (sys.argv[5], sys.argv[6])]
inj = [x for x in rows if x["kind"] == sys.argv[6]]
med = lambda rs, k: st.median([float(x[k]) for x in rs if x[k] not in ("", "nan")] or [float("nan")])
guarded = lambda kind: sum(1 for x in rows if x["kind"] == kind and x["exit"] == "3" and x["guarded"] == "1")
used = [float(x["rounds"]) for x in rows if x["rounds"]]
print(guarded(sys.argv[5]), guarded(sys.argv[6]), "%.1f" % (sum(used) / len(used) if used else float("nan")),
      "%.1f" % med(rows, "seconds"), "%+.1f%%,%+.1f%%" % (100 * med(inj, "rtt_change"), 100 * med(inj, "msgs_change")))
PY
)"
				printf '| %s | %s | %s | %s | %s of %s | %s; %s | %s of %s | %s; %s | %s | %s | %s | %s |\n' \
					"$CASE" "$name" "$how" "$r" "$(t "$CASE/$m/$aa/$r/1")" "$PAIRS" \
					"$(t "$CASE/$m/$aa/$r/3")" "$g_aa" "$(t "$CASE/$m/$inj/$r/1")" \
					"$PAIRS" "$(t "$CASE/$m/$inj/$r/3")" "$g_inj" \
					$(($(t "$CASE/$m/$aa/$r/2") + $(t "$CASE/$m/$inj/$r/2"))) \
					"$rounds" "$secs" "${change/,/, }"
			done
		done
	done
	printf '\n'
	for CASE in $CASES; do
		printf '%s case: %d min %02d s\n' "$CASE" $((case_s[$CASE] / 60)) $((case_s[$CASE] % 60))
	done
	[[ " $CASES " != *" loaded "* ]] ||
		printf 'loaded: a hog on CPU %s, on 0.5-3 s, off 0.5-3 s (HOG_SEED %s)\n' \
			"${HOG_CPU:-any}" "$HOG_SEED"
	el=$((T1 - T0))
	printf '\ntook %d min %02d s\n' $((el / 60)) $((el % 60))
} | tee "$OUT/summary.txt"
exit 0
