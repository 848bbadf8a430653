#!/bin/sh
# The nightly recipe (README "Nightly recipe").  Run it from the project
# folder, after building tonight's ./matrix:
#
#     sh matrices/nightly.sh                  # matrices/nightly.yaml
#     MATRIX_FILE=m.yaml sh matrices/nightly.sh
#
# 1. The build gate, an in-run A/B: the last good build
#    (results/NAME/good-build/matrix) and tonight's (./matrix) are two
#    values of the matrix's `server` dimension, judged by its report:
#    compare: in one run, paired round by round, with a second look at what
#    the first leaves inconclusive.  The first night copies tonight's build
#    there (an A/A of it).  When nothing regressed and nothing is
#    inconclusive (exit 0), tonight's build becomes the good one.
# 2. The machine, for what cannot share a run (a sysctl, a NIC setting, a
#    kernel with --force): `matrix compare` of tonight's run against the
#    last good run (results/NAME/good), whose machine-state guard makes a
#    cell inconclusive when the two nights' machines were not equally
#    quiet, and which asks the cells' normal night-to-night spread
#    (--history results/NAME) to be exceeded.  It is skipped, and
#    tonight's run becomes the new baseline, when
#    compare refuses the pair because the machine or the inputs changed
#    (a kernel, the tool's version: a new build, the matrix file).
# 3. `matrix history results/NAME`, which marks the nights' own final
#    verdicts.
# Exit 1 only on a regression (of either), 2 when the tool or a cell
# failed, 3 when something is inconclusive, 0 otherwise.  Runs are pinned
# to CPU 0 with taskset when it is there (PIN= to switch it off).
set -u
matrix=${MATRIX_BIN:-./matrix}
file=${MATRIX_FILE:-matrices/nightly.yaml}
pin=${PIN-taskset -c 0}
command -v taskset >/dev/null 2>&1 || pin=
name=$(sed -n "s/^name:[[:space:]]*[\"']\{0,1\}\([A-Za-z0-9_.-]*\).*/\1/p" "$file" | head -n 1)
[ -n "$name" ] || { echo "nightly: $file has no name:" >&2; exit 2; }
good=results/$name/good
build=results/$name/good-build
err=$(mktemp) || exit 2
trap 'rm -f "$err"' EXIT
mkdir -p "$build" || exit 2
if [ ! -x "$build/matrix" ]; then
	echo "nightly: no good build yet: $build/matrix is tonight's (an A/A night)" >&2
	cp "$matrix" "$build/matrix" || exit 2
fi

# 1. the build gate
dir=$($pin "$matrix" run "$file" -q ${THRESHOLD:+--threshold "$THRESHOLD"} 2>"$err")
rc=$?
cat "$err" >&2
[ -n "$dir" ] || exit 2		# the run did not start: bad input
# a matrix without an A/B (no report: compare:): 1 is a failed repetition
[ -e "$dir/ab.csv" ] || [ "$rc" -ne 1 ] || rc=2
if [ "$rc" -eq 0 ] && ! cmp -s "$matrix" "$build/matrix"; then
	cp "$matrix" "$build/matrix.new" && mv "$build/matrix.new" "$build/matrix" &&
		echo "nightly: tonight's build is the good build now" >&2
fi

# 2. the machine, against the last good run
mrc=0
if [ -e "$good" ]; then
	$pin "$matrix" compare "$good" "$dir" -q --history "results/$name" \
		${THRESHOLD:+--threshold "$THRESHOLD"} 2>"$err"
	mrc=$?
	cat "$err" >&2
	if [ "$mrc" -eq 2 ] && grep -q 'differ in machine or inputs' "$err"; then
		echo "nightly: the machine or the inputs changed: $dir is the new baseline" >&2
		mrc=0
		ln -sfn "$(basename "$dir")" "$good"
	fi
fi
[ -e "$good" ] || ln -sfn "$(basename "$dir")" "$good"
# a night whose two gates passed is the new baseline
[ "$rc" -eq 0 ] && [ "$mrc" -eq 0 ] && ln -sfn "$(basename "$dir")" "$good"

"$matrix" history "results/$name" -q || echo "nightly: history failed" >&2
case $rc$mrc in *[!0-3]*) echo "nightly: $dir: interrupted or failed (build gate $rc, machine $mrc)" >&2; exit 2 ;; esac
for s in 1 2 3; do
	if [ "$rc" -eq "$s" ] || [ "$mrc" -eq "$s" ]; then
		echo "nightly: $dir exit $s (build gate $rc, machine $mrc)" >&2
		exit "$s"
	fi
done
echo "nightly: $dir exit 0" >&2
exit 0
