# What the runner itself costs (issue 14): meta.csv's runner_overhead_ms,
# runner_overhead_ms_max and runner_max_rss_kib (plan/meta.h), and
# libzmq loaded only when a zmq cell runs (transports/zmqlib.h).  No
# timing is asserted: only that the figures are there and sane.

# A run's meta.csv has the three keys, numbers, max >= median > 0; a
# folder without them (tests/data/golden7, as every older run) still
# reports, and compare does not tell two folders apart by them.
t_meta_has_runner_costs() {
	mat m.yaml <<'Y'
name: costs
repeat: 2
warmup: 0
timeout: 10s
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  size: 16
  count: 20
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local med max rss
	med=$(meta_value out runner_overhead_ms)
	max=$(meta_value out runner_overhead_ms_max)
	rss=$(meta_value out runner_max_rss_kib)
	[[ $med =~ ^[0-9]+\.[0-9]{3}$ ]] || die "runner_overhead_ms '$med' is not a number"
	[[ $max =~ ^[0-9]+\.[0-9]{3}$ ]] || die "runner_overhead_ms_max '$max' is not a number"
	[[ $rss =~ ^[0-9]+$ ]] || die "runner_max_rss_kib '$rss' is not a whole number"
	le 0.001 "$med" || die "runner_overhead_ms $med is not above 0"
	le "$med" "$max" || die "runner_overhead_ms $med above its max $max"
	[ "$rss" -gt 0 ] || die "runner_max_rss_kib is 0"
	# every row's max_rss_kib: some worker's own peak, a whole number > 0
	csvq out/results.csv max_rss_kib | awk '!($1 ~ /^[0-9]+$/ && $1 > 0) { bad = 1 }
		END { exit bad }' || die "a row's max_rss_kib is not a positive number"

	# an older folder, without the keys, reports as before
	cp -R "$REPO/tests/data/golden7" old || die "cannot copy tests/data/golden7"
	! grep -q '^runner_' old/meta.csv || die "golden7 was meant to lack the keys"
	run_matrix report old --quiet; expect_rc 0
	[ -s old/summary.md ] || die "no summary.md for the old folder"
	# and compare reads the same verdict with or without them
	cp -R out same && cp -R out stripped || die "cannot copy the run folder"
	grep -v '^runner_overhead\|^runner_max_rss' out/meta.csv >stripped/meta.csv
	run_matrix compare out same; local rc_same=$rc; cp "$T/.out" same.txt
	run_matrix compare out stripped; [ "$rc" -eq "$rc_same" ] ||
		die "compare: exit $rc without the keys, $rc_same with them"
	sed 's/stripped/same/g' "$T/.out" | diff same.txt - >&2 ||
		die "compare says something else without the keys"
}

# An interrupted run has them too, from what ran; a run of nothing but
# failed repetitions has the overheads empty (nothing ran whole) and the
# resident set.
t_meta_costs_without_ok_rows() {
	mat m.yaml <<'Y'
name: nothing_ok
repeat: 2
warmup: 0
timeout: 10s
matrix:
  pattern: pingpong
  transport: zmq
  size: 16
  count: 10
Y
	MATRIX_LIBZMQ=/nonexistent/libzmq.so.5 run_matrix run m.yaml -o out --quiet
	expect_rc 1
	grep -q '^runner_overhead_ms,$' out/meta.csv || die "runner_overhead_ms not empty"
	grep -q '^runner_overhead_ms_max,$' out/meta.csv || die "runner_overhead_ms_max not empty"
	[ "$(meta_value out runner_max_rss_kib)" -gt 0 ] || die "runner_max_rss_kib missing"
}

# libzmq is not linked: only a zmq cell's workers load it, and those
# cells still work, every socket pair; a library that cannot be loaded is
# the cell's error, naming it.
t_zmq_loaded_only_by_zmq_cells() {
	! ldd "$MATRIX_BIN" | grep -q 'libzmq' || die "the binary still links libzmq"
	mat m.yaml <<'Y'
name: zmqload
repeat: 1
warmup: 2
timeout: 10s
matrix:
  pattern: [pingpong, echo, stream]
  transport: zmq
  size: 16
  concurrency: [1, 2]
  inflight: [1, 4]
  count: 50
exclude:
  - {pattern: stream, inflight: 4}
  - {pattern: echo, inflight: 1}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	MATRIX_LIBZMQ=/nonexistent/libzmq.so.5 run_matrix run m.yaml -o bad --quiet
	expect_rc 1
	expect_all bad/results.csv status "bind: cannot load libzmq"
	csvq bad/results.csv error | grep -qv '/nonexistent/libzmq.so.5' &&
		die "an error does not name the library"
	expect_err "bind: cannot load libzmq"
	expect_no_leftovers
}
