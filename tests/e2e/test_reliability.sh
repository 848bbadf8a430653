# Reliability (issue 11): a run survives what its surroundings do to it.

# Closed standard descriptors are opened on /dev/null before anything else,
# so results.csv never becomes descriptor 2 with progress lines in it.
t_closed_stderr_leaves_results_intact() {
	mat m.yaml <<'Y'
name: closed
repeat: 2
warmup: 5
matrix:
  transport: [unix, tcp]
  count: 100
Y
	rc=0
	"$MATRIX_BIN" run m.yaml -o d 2>&- >out.txt || rc=$?
	[ "$rc" -eq 0 ] || die "run with stderr closed: exit $rc"
	[ "$(cat out.txt)" = d ] || die "stdout: $(cat out.txt)"
	grep -q '^\[' d/results.csv && die "progress lines in results.csv: $(grep '^\[' d/results.csv | head -2)"
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv --rows)" -eq 4 ] || die "$(csvq d/results.csv --rows) rows, not 4"
	run_matrix report d; expect_rc 0
	# stdout and stdin closed too
	rc=0
	"$MATRIX_BIN" run m.yaml -o e -q <&- >&- 2>err.txt || rc=$?
	[ "$rc" -eq 0 ] || die "run with stdin and stdout closed: exit $rc: $(cat err.txt)"
	expect_all e/results.csv status ok
}
