#!/bin/sh
# The nightly recipe (README "Regression gating"): runs a matrix, compares
# it with the last good run, keeps the history, and fails (exit 1) on a
# confirmed regression only.  Run it from the project folder:
#
#     sh matrices/nightly.sh                  # matrices/nightly.yaml
#     MATRIX_FILE=m.yaml sh matrices/nightly.sh
#
# The matrix's name: decides the folder, results/NAME/; results/NAME/good
# links to the last run that regressed nothing.  When the machine or the
# inputs changed (a kernel, the tool, the matrix file: compare refuses
# them), the night's run becomes the new baseline and the history keeps
# the two apart.  Runs are pinned to CPU 0 with taskset when it is there
# (PIN= to switch it off): on a small VM, where the scheduler puts server
# and client decides a round trip more than the code does.
set -u
matrix=${MATRIX_BIN:-./matrix}
file=${MATRIX_FILE:-matrices/nightly.yaml}
pin=${PIN-taskset -c 0}
command -v taskset >/dev/null 2>&1 || pin=
name=$(sed -n "s/^name:[[:space:]]*[\"']\{0,1\}\([A-Za-z0-9_.-]*\).*/\1/p" "$file" | head -n 1)
[ -n "$name" ] || { echo "nightly: $file has no name:" >&2; exit 2; }
good=results/$name/good
err=$(mktemp) || exit 2
trap 'rm -f "$err"' EXIT
if [ -e "$good" ]; then
	dir=$($pin "$matrix" run "$file" -q --baseline "$good" ${THRESHOLD:+--threshold "$THRESHOLD"} 2>"$err")
	rc=$?
else
	dir=$($pin "$matrix" run "$file" -q 2>"$err")
	rc=$?
	[ "$rc" -ne 1 ] || rc=2	# without a baseline, 1 means failed repetitions
fi
cat "$err" >&2
[ -n "$dir" ] || exit 2		# the run did not start: bad input
move=0
case $rc in
0) move=1 ;;
3) grep -q ',regressed,' "$dir/compare.csv" 2>/dev/null || move=1 ;;	# nothing unconfirmed
2) if grep -q 'differ in machine or inputs' "$err"; then
	echo "nightly: the machine or the inputs changed: $dir is the new baseline" >&2
	move=1
   fi ;;
esac
[ "$move" -eq 0 ] || ln -sfn "$(basename "$dir")" "$good"
"$matrix" history "results/$name" -q || echo "nightly: history failed" >&2
echo "nightly: $dir exit $rc" >&2
[ "$rc" -ne 1 ]
