# The driver's own tests: tests/run.sh on small unit binaries
# (build/fixtures/test_*, from tests/driver/fixture.c) and end-to-end tests
# (tests/driver/fixture_e2e.sh) made to pass, fail, crash, leak and skip.
# Each case checks what the driver counted and the line it ended with.

# drive ARGS...: runs the driver; its output in $T/drive.out, status in $rc
drive() {
	SAN_RE=	# the output below holds reports on purpose: not this test's own
	[ -x "$FIXTURES/test_pass" ] || die "fixtures not built: run make fixtures"
	rc=0
	(cd "$REPO" && bash tests/run.sh "$@") >"$T/drive.out" 2>&1 </dev/null || rc=$?
}

# expect_summary "N passed, N failed, N skipped" EXIT_STATUS
expect_summary() {
	local last
	last=$(tail -1 "$T/drive.out")
	[ "$last" = "$1" ] || die "last line '$last', expected '$1'; output: $(tail -15 "$T/drive.out")"
	[ "$rc" -eq "$2" ] || die "driver exit $rc, expected $2"
}

expect_out() {
	grep -qF -- "$1" "$T/drive.out" || die "driver output lacks: $1; output: $(tail -15 "$T/drive.out")"
}

t_passing_binary_passes() {
	drive --units "$FIXTURES/test_pass"
	expect_summary "2 passed, 0 failed, 0 skipped" 0
}

t_failed_test_is_counted_despite_a_long_message() {
	drive --units "$FIXTURES/test_fail"
	expect_summary "2 passed, 1 failed, 0 skipped" 1
	expect_out "FAILED: [self] unit:test_fail: 2 - fails_long"
}

t_skip_is_a_skip_with_its_reason() {
	drive --units "$FIXTURES/test_skip"
	expect_summary "1 passed, 0 failed, 1 skipped" 0
	expect_out "unit:test_skip: skipped: skips"
}

t_binary_killed_by_a_signal_fails() {
	drive --units "$FIXTURES/test_killed"
	expect_summary "1 passed, 1 failed, 0 skipped" 1
	expect_out "unit:test_killed: killed by signal 9"
}

t_binary_that_stops_short_of_its_plan_fails() {
	drive --units "$FIXTURES/test_quits"
	expect_summary "1 passed, 1 failed, 0 skipped" 1
	expect_out "plan of 3 tests, 1 reported (exit 0)"
}

t_leak_fails() {
	drive --units "$FIXTURES/test_leak"
	expect_summary "2 passed, 1 failed, 0 skipped" 1
	expect_out "sanitizer report"
	expect_out "LeakSanitizer: detected memory leaks"
}

t_heap_overflow_fails() {
	drive --units "$FIXTURES/test_overflow"
	expect_summary "1 passed, 1 failed, 0 skipped" 1
	expect_out "AddressSanitizer: heap-buffer-overflow"
}

t_undefined_behaviour_fails() {
	drive --units "$FIXTURES/test_ubsan"
	expect_summary "1 passed, 1 failed, 0 skipped" 1
	expect_out "runtime error: signed integer overflow"
}

t_missing_plan_fails() {
	drive --units "$FIXTURES/test_noplan"
	expect_summary "1 passed, 1 failed, 0 skipped" 1
	expect_out "printed no TAP plan"
}

t_nonzero_exit_fails() {
	drive --units "$FIXTURES/test_exit1"
	expect_summary "1 passed, 1 failed, 0 skipped" 1
	expect_out "exited 1 with no failed test"
}

t_every_unit_binary_counts_in_one_line() {
	drive --units "$FIXTURES/test_*"
	# passed: pass 2, fail 2, skip 1, killed 1, quits 1, leak 2, overflow 1,
	# ubsan 1, noplan 1, exit1 1; failed: one each but pass and skip
	expect_summary "13 passed, 8 failed, 1 skipped" 1
}

t_end_to_end_failures_cannot_hide() {
	drive --units /nonexistent --e2e tests/driver/fixture_e2e.sh
	expect_summary "1 passed, 8 failed, 1 skipped" 1
	local f
	for f in t_dies t_last_command_fails t_dies_in_a_subshell t_dies_in_a_pipeline \
		t_missing_column t_no_rows t_sanitizer_report_of_a_child t_ubsan_report_in_a_log; do
		expect_out "FAILED: [self] driver:fixture_e2e.sh:$f"
	done
	expect_out "fixture_e2e.sh:t_passes                              ok"
	expect_out "fixture_e2e.sh:t_skips                               skipped: no widget on this machine"
	expect_out "csvq f.csv no_such_column failed (exit 2)"
	expect_out "csvq f.csv a failed (exit 3)"
}

t_nothing_run_is_a_failure() {
	drive --units /nonexistent
	expect_summary "0 passed, 0 failed, 0 skipped" 1
}
