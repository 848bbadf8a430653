# End-to-end tests made to pass, fail and skip, for the driver's own tests
# (test_driver.sh runs them through tests/run.sh --e2e).  Not a test file
# of the suite: its name does not start with test_.

t_passes() {
	[ -d "$T" ] || die "no test folder"
}

t_dies() {
	die "a plain failure"
}

t_last_command_fails() {
	false
}

t_dies_in_a_subshell() {
	local x
	x=$(die "inside \$(...)")
	return 0
}

t_dies_in_a_pipeline() {
	printf 'a\nb\n' | while read -r _; do die "inside a pipeline"; done
	return 0
}

t_missing_column() {
	printf 'a,b\n1,2\n' >f.csv
	while read -r _; do :; done < <(csvq f.csv no_such_column)
	return 0
}

t_no_rows() {
	printf 'a,b\n' >f.csv
	expect_all f.csv a 1
}

t_skips() {
	skip "no widget on this machine"
}

t_sanitizer_report_of_a_child() {
	# a sanitized program this test runs leaks, and its exit status is ignored
	"$FIXTURES/test_leak" >/dev/null 2>&1 || true
	return 0
}

t_ubsan_report_in_a_log() {
	# a program writes a UBSan report into a log the test never reads
	"$FIXTURES/test_ubsan" >/dev/null 2>"$T/worker.log" || true
	return 0
}
