# Bounds on input (issue 11, items 8 and 10): whatever a matrix file asks
# for, `matrix plan` answers at once, in little memory, and refuses what
# the machine cannot give with the reason and the figures.

# The times below are CPU seconds (lib.sh's cpu_mark, cpu_used), not wall
# time: what a quadratic loop burns, which a loaded machine does not stretch
# (the flat input's 4 s of wall time took 4.7 s in ASan beside other tests).

# 100k levels of nesting took libyaml's scanner 23-46 s: refused at the
# first level too deep, in well under a second.
t_deep_nesting_is_refused_at_once() {
	python3 -c 'd = 100000; print("name: deep\nmatrix:\n  size: " + "[" * d + "1" + "]" * d)' >deep.yaml
	cpu_mark; local c0=$CPU_MARK
	run_matrix plan deep.yaml
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "deep.yaml:3:39: nested more than 32 levels deep (a matrix file needs 5 at most)" ] ||
		die "message: $(head -1 "$T/.err")"
	cpu_used "$c0"; le "$CPU_USED" 2 || die "took $CPU_USED s of CPU"
	# block style counts the same, and 32 levels are still read (and then
	# refused for what they are, not for their depth)
	python3 -c 'print("name: deep\nmatrix:\n  size:\n" + "".join("  " * (i + 2) + "-\n" for i in range(33)) + "  " * 35 + "1")' >block.yaml
	run_matrix plan block.yaml
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "block.yaml:34:65: nested more than 32 levels deep (a matrix file needs 5 at most)" ] ||
		die "block style: $(head -1 "$T/.err")"
	python3 -c 'd = 30; print("name: deep\nmatrix:\n  size: " + "[" * d + "1" + "]" * d)' >ok.yaml
	run_matrix plan ok.yaml
	expect_rc 2
	expect_err "ok.yaml:3:10: size: expected a scalar or a list of scalars"
}

# The product is counted before a cell is built (a 2000 x 2000 product took
# 661 MB, 3000^3 ran out of memory even with --only), and the count is in
# the message; exactly PLAN_MAX_CELLS cells are still fine.
t_cell_count_is_bounded() {
	python3 -c 'n = 2000; print("name: big\nmatrix:\n  size: [" + ",".join(str(i + 1) for i in range(n)) + "]\n  count: [" + ",".join(str(i + 100) for i in range(n)) + "]")' >big.yaml
	cpu_mark; local c0=$CPU_MARK
	run_matrix plan big.yaml
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "big.yaml:4:3: matrix: 4000000 cells (2000 x 2000 values), more than the 100000 a plan may have: use fewer values or split the matrix" ] ||
		die "message: $(head -1 "$T/.err")"
	# counted before exclude and --only: they cannot make a huge product cheap
	python3 -c 'n = 3000; print("name: big\nmatrix:\n" + "".join("  %s: [%s]\n" % (k, ",".join(str(i + 1) for i in range(n))) for k in ("size", "count", "response_size")) + "exclude:\n  - {size: 1}")' >cube.yaml
	run_matrix plan cube.yaml --only size=1
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "cube.yaml:4:3: matrix: 27000000000 cells (3000 x 3000 x 3000 values), more than the 100000 a plan may have: use fewer values or split the matrix" ] ||
		die "3000^3: $(head -1 "$T/.err")"
	run_matrix run cube.yaml --only size=1 -o out
	expect_rc 2
	[ ! -e out ] || die "a refused plan made a run folder"
	# a product past 2^64 says so instead of wrapping
	python3 -c 'n = 5000; print("name: big\nmatrix:\n" + "".join("  %s: [%s]\n" % (k, ",".join(str(i + 1) + u for i in range(n))) for k, u in (("size", ""), ("count", ""), ("response_size", ""), ("interval", "us"), ("loss_timeout", "us"), ("spin", "us"))))' >wrap.yaml
	run_matrix plan wrap.yaml
	expect_rc 2
	expect_err "cells (5000 x "
	[ -n "$(head -1 "$T/.err" | grep -F 'more than 18446744073709551615 cells')" ] || die "wrapped: $(head -1 "$T/.err")"
	cpu_used "$c0"; le "$CPU_USED" 5 || die "took $CPU_USED s of CPU"
	# 400 x 250 = 100000: the limit itself is a plan
	python3 -c 'print("name: big\nmatrix:\n  size: [" + ",".join(str(i + 100) for i in range(400)) + "]\n  count: [" + ",".join(str(i + 100) for i in range(250)) + "]")' >limit.yaml
	run_matrix plan limit.yaml
	expect_rc 0
	grep -q '^100000 cells x 7 repetitions' "$T/.out" || die "plan of the limit: $(tail -1 "$T/.out")"
}

# size: 64GiB with 1024 clients was accepted: the workers' buffers of a
# cell are weighed against the machine's memory, which the message names.
t_cell_memory_is_bounded() {
	mat m.yaml <<'Y'
name: mem
matrix:
  transport: [unix, tcp]
  size: [1KiB, 64GiB]
  concurrency: 1024
Y
	run_matrix plan m.yaml
	expect_rc 2
	[ -n "$(head -1 "$T/.err" | grep -E '^m\.yaml:4:16: size 64GiB with concurrency 1024: the workers'"'"' message buffers need [0-9.]+TiB, more than the [0-9.]+[GMT]iB (available \(MemAvailable in /proc/meminfo\)|of physical memory \(sysconf\)); use a smaller size or fewer clients$')" ] ||
		die "message: $(head -1 "$T/.err")"
	run_matrix run m.yaml -o out
	expect_rc 2
	[ ! -e out ] || die "a refused plan made a run folder"
	# the cells that fit are planned when --only leaves the others out
	run_matrix plan m.yaml --only size=1KiB
	expect_rc 0
	grep -q '^2 cells' "$T/.out" || die "--only size=1KiB: $(tail -1 "$T/.out")"
}

# What the runner's descriptors cannot hold is refused at plan time with
# the `ulimit -n` it would take; just under it, a real run is ok (under
# `ulimit -n 64` the old runner failed from client 24 on, mid-run).
t_fd_limit_is_checked_at_plan_time() {
	mat m.yaml <<'Y'
name: fds
repeat: 1
warmup: 5
matrix:
  transport: [unix, zmq]
  concurrency: [19, 20]
  count: 400
Y
	rc=0
	(ulimit -n 64 && exec "$MATRIX_BIN" plan m.yaml) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "m.yaml:6:21: concurrency 20: the runner needs 66 open files for this cell (a report pipe and a pidfd for each of its 21 workers, 24 for itself), over this process's limit of 64 open files (ulimit -n; the hard limit is 64); run it under \`ulimit -n 66\` or more, or with fewer clients" ] ||
		die "message: $(head -1 "$T/.err")"
	rc=0
	(ulimit -n 64 && exec "$MATRIX_BIN" run m.yaml --only concurrency=19 -o d -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv --rows)" -eq 2 ] || die "$(csvq d/results.csv --rows) rows, not 2"
	# a soft limit alone is raised to the hard one first: no refusal then
	local hard
	hard=$(ulimit -H -n)
	[ "$hard" = unlimited ] || [ "$hard" -ge 66 ] || return 0
	rc=0
	(ulimit -S -n 64 && exec "$MATRIX_BIN" plan m.yaml) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_no_leftovers
}

# A 1 MiB file holds some 100k values or keys: duplicates are found in
# one pass (the loader compared every pair: 140k values took 8 s, 90k keys
# 45 s), and the lists each cell is checked against are capped.
t_large_flat_input_is_read_in_linear_time() {
	python3 -c 'n = 140000; print("name: flat\nmatrix:\n  size: [" + ",".join(str(i + 1) for i in range(n)) + "]")' >flat.yaml
	python3 -c 'n = 100000; print("name: flat\nmatrix:\n  size: [" + ",".join(str(i + 1) for i in range(n)) + ", 7]")' >dup.yaml
	python3 -c 'n = 90000; print("name: keys\nmatrix:\n  size: 1\nexclude:\n  - {" + ",".join("k%d: 1" % i for i in range(n)) + ", k5: 2}")' >keys.yaml
	python3 -c 'print("name: ex\nmatrix:\n  size: [1, 2]\nexclude:\n" + "  - {size: 1}\n" * 1001)' >rules.yaml
	cpu_mark; local c0=$CPU_MARK
	run_matrix plan flat.yaml
	expect_rc 2
	expect_err "flat.yaml:3:3: matrix: 140000 cells (140000 values), more than the 100000"
	run_matrix plan dup.yaml
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "dup.yaml:3:588906: size: duplicate value '7' (same as '7' at line 3)" ] ||
		die "duplicate: $(head -1 "$T/.err")"
	run_matrix plan keys.yaml
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "keys.yaml:5:888897: duplicate key 'k5' (first at line 5)" ] ||
		die "duplicate key: $(head -1 "$T/.err")"
	run_matrix plan rules.yaml
	expect_rc 2
	[ "$(head -1 "$T/.err")" = "rules.yaml:5:3: exclude: 1001 rules, more than the 1000 a matrix may have" ] ||
		die "rules: $(head -1 "$T/.err")"
	cpu_used "$c0"; le "$CPU_USED" 4 || die "took $CPU_USED s of CPU"
}
