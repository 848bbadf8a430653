#!/bin/sh
# The nightly recipe (README "Regression gating"): runs a matrix, compares
# it with the last good run, keeps the history, and fails (exit 1) on a
# confirmed regression only.  Run it from the project folder:
#
#     sh matrices/nightly.sh                  # matrices/nightly.yaml
#     MATRIX_FILE=m.yaml sh matrices/nightly.sh
#
# The matrix's name: decides the folder, results/NAME/; results/NAME/good
# links to the last run that regressed nothing (exit 0 or 3).
set -u
matrix=${MATRIX_BIN:-./matrix}
file=${MATRIX_FILE:-matrices/nightly.yaml}
name=$(sed -n 's/^name:[[:space:]]*\([A-Za-z0-9_.-]*\).*/\1/p' "$file" | head -n 1)
[ -n "$name" ] || { echo "nightly: $file has no name:" >&2; exit 2; }
good=results/$name/good
if [ -e "$good" ]; then
	dir=$("$matrix" run "$file" -q --baseline "$good" ${THRESHOLD:+--threshold "$THRESHOLD"})
	rc=$?
else
	dir=$("$matrix" run "$file" -q)
	rc=$?
	[ "$rc" -ne 1 ] || rc=2	# without a baseline, 1 means failed repetitions
fi
[ -n "$dir" ] || exit 2		# the run did not start: bad input
case $rc in 0 | 3) ln -sfn "$(basename "$dir")" "$good" ;; esac
"$matrix" history "results/$name" -q || echo "nightly: history failed" >&2
echo "nightly: $dir exit $rc" >&2
[ "$rc" -ne 1 ]
