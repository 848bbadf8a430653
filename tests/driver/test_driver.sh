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

# drive_pool ARGS...: the pool's fixtures in two builds, one and two (the
# release build under two names); marks in $POOL_DIR
drive_pool() {
	export POOL_DIR=$T/pool
	mkdir -p "$POOL_DIR" "$T/b"
	ln -sfn "$REPO/build/release" "$T/b/one"
	ln -sfn "$REPO/build/release" "$T/b/two"
	drive --units /nonexistent \
		--e2e "tests/driver/fixture_pool_a.sh tests/driver/fixture_pool_b.sh tests/driver/fixture_once.sh" \
		"$@" "$T/b/one" "$T/b/two"
}

# contiguous TAG FILE: the lines of FILE's tests in build TAG that ran in
# one job stand together in the output (only a failed test's "    |"
# lines between them)
contiguous() {
	awk -v p="[$1] $2:" -v alone="$2:t_a_alone" '
		index($0, p) == 1 && index($0, alone) == 0 { if (last && NR > last + 1 && gap) bad = 1; last = NR; gap = 0; next }
		last && !/^    \|/ { gap = 1 }
		END { exit bad || !last }' "$T/drive.out" ||
		die "[$1] $2: its lines are not together: $(grep -n . "$T/drive.out" | head -40)"
}

# Two files run at once (each test of one waits for the other's), a lone
# test with nothing beside it, a ONCE file in the first build only; the
# counts exact, each job's lines together.
t_files_run_two_at_a_time_counted_whole() {
	TEST_JOBS=2 TEST_ALONE=fixture_pool_a.sh:t_a_alone TEST_ONCE=fixture_once.sh drive_pool
	# one: a 2 passed 1 failed, b 1 passed 1 skipped, once 1 passed;
	# two: the same without once
	expect_summary "7 passed, 2 failed, 2 skipped" 1
	expect_out "FAILED: [one] driver:fixture_pool_a.sh:t_a_fails: exit 1; died: a failure in a job beside another"
	expect_out "FAILED: [two] driver:fixture_pool_a.sh:t_a_fails: exit 1; died: a failure in a job beside another"
	[ "$(cat "$POOL_DIR/once")" = one ] || die "the ONCE test ran in: $(cat "$POOL_DIR/once")"
	[ "$(grep -c '^\[[a-z]*\] fixture_once.sh:t_once' "$T/drive.out")" -eq 1 ] || die "t_once's lines: $(grep fixture_once "$T/drive.out")"
	[ "$(sort "$POOL_DIR/alone" | tr '\n' ' ')" = "one two " ] || die "the lone test ran in: $(cat "$POOL_DIR/alone")"
	local b f
	for b in one two; do
		for f in fixture_pool_a.sh fixture_pool_b.sh; do contiguous "$b" "$f"; done
	done
	# the lone tests after every other one
	[ "$(grep -E '^\[(one|two)\] fixture_' "$T/drive.out" | tail -2 | grep -c t_a_alone)" -eq 2 ] ||
		die "the lone tests did not run last: $(grep -E '^\[(one|two)\] fixture_' "$T/drive.out")"
	expect_out "one: 6 tests in "
	expect_out "two: 5 tests in "
	expect_out "the ten slowest tests (wall time, CPU time of what they ran):"
	grep -qE '^tests/run\.sh: [0-9.]+s wall, 2 jobs at a time \([0-9.]+s of it alone\)$' "$T/drive.out" ||
		die "no wall time line: $(tail -5 "$T/drive.out")"
}

# One job at a time, the tests that wait for a peer find none: they fail,
# and the counts say so (the fixtures do test the pool).
t_one_at_a_time_the_peers_never_meet() {
	POOL_WAIT=1 TEST_JOBS=1 TEST_ALONE= TEST_ONCE= drive_pool --only 'meets'
	expect_summary "0 passed, 4 failed, 0 skipped" 1
	expect_out "never ran beside"
}

# Without its ALONE entry the lone test runs in the pool, beside its
# file's peer, and sees it.
t_a_lone_test_in_the_pool_sees_its_neighbour() {
	POOL_WAIT=3 TEST_ALONE= TEST_ONCE= drive_pool --only 'fixture_pool_b.sh:t_b_meets_a|t_a_alone'
	expect_out "running beside the lone test: "
}

# TEST_STARTED: the time since then, before the count line, which stays last.
t_time_since_the_start_before_the_count() {
	TEST_STARTED=$(awk 'BEGIN { srand(); print srand() - 61 }') drive --units "$FIXTURES/test_pass"
	expect_summary "2 passed, 0 failed, 0 skipped" 0
	grep -qE '^make test: 1 min [0-9]+ s from its start, builds and tests$' "$T/drive.out" ||
		die "no make test time line: $(tail -4 "$T/drive.out")"
}
