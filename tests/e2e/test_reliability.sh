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

# A signal ignored at start (nohup's SIGHUP, a background job's SIGINT)
# stays ignored, in the runner and in every worker it starts.
t_ignored_signals_stay_ignored() {
	command -v setsid >/dev/null || skip "setsid missing"
	mat m.yaml <<'Y'
name: nohup
repeat: 3
warmup: 5
matrix:
  pattern: pingpong
  transport: [unix, tcp]
  count: 3000
Y
	# its own process group, so that the signals reach the workers too
	setsid sh -c 'trap "" HUP INT; exec "$0" run m.yaml -o d -q' "$MATRIX_BIN" >out.txt 2>err.txt &
	local pid=$! rc=0 i
	for i in $(seq 1 50); do	# until a worker runs
		ps -o pid= --ppid "$pid" | grep -q . && break
		sleep 0.05
	done
	kill -HUP -- "-$pid" 2>/dev/null
	kill -INT -- "-$pid" 2>/dev/null
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || die "exit $rc after ignored HUP and INT: $(cat err.txt)"
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv --rows)" -eq 6 ] || die "$(csvq d/results.csv --rows) rows, not 6"
	expect_no_leftovers
}

# Runs started in the same second never share a folder, and `latest` is
# replaced only when it is our own link.
t_run_folders_are_claimed_atomically() {
	mat m.yaml <<'Y'
name: par
repeat: 1
warmup: 1
matrix:
  transport: unix
  count: 20
Y
	local pids="" i
	for i in 1 2 3 4 5 6; do
		"$MATRIX_BIN" run m.yaml -q >"out$i" 2>"err$i" &
		pids="$pids $!"
	done
	for i in $pids; do wait "$i" || die "a parallel run failed: $(cat err*)"; done
	[ "$(cat out1 out2 out3 out4 out5 out6 | sort -u | wc -l)" -eq 6 ] ||
		die "six runs, folders: $(cat out1 out2 out3 out4 out5 out6 | sort | uniq -c)"
	for i in 1 2 3 4 5 6; do
		expect_all "$(cat "out$i")/results.csv" status ok
		[ "$(csvq "$(cat "out$i")/results.csv" --rows)" -eq 1 ] || die "run $i's folder holds another run's rows"
	done
	[ -L results/par/latest ] || die "latest is not a link"
	# a file of the user's called latest is left alone
	rm results/par/latest
	echo "mine" >results/par/latest
	run_matrix run m.yaml -q; expect_rc 0
	[ "$(cat results/par/latest)" = mine ] || die "the user's latest was replaced"
	expect_err "matrix: results/par/latest is not a link of ours: left as it is"
}

# The soft limit on open files (often 1024, here 128) is raised to the hard
# limit: 120 clients need more descriptors than 128.
t_descriptor_limit_is_raised() {
	[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 1024 ] ||
		skip "hard limit on open files is $(ulimit -Hn)"
	mat m.yaml <<'Y'
name: fds
repeat: 1
warmup: 1
matrix:
  transport: unix
  concurrency: 120
  count: 240
Y
	rc=0
	(ulimit -Sn 128 && exec "$MATRIX_BIN" run m.yaml -o d -q) >out.txt 2>err.txt || rc=$?
	[ "$rc" -eq 0 ] || die "120 clients under a soft limit of 128: exit $rc: $(tail -3 err.txt)"
	expect_all d/results.csv status ok
	expect_no_leftovers
}

# A ratio's name is user text: in ratios.csv, meant for people, it can
# never become a spreadsheet formula.
t_ratio_name_is_no_formula() {
	mat m.yaml <<'Y'
name: formula
repeat: 2
warmup: 1
matrix:
  transport: [unix, tcp]
  count: 50
report:
  ratios:
    - {name: "=1+2", dimension: transport, numerator: unix, denominator: tcp}
Y
	run_matrix run m.yaml -o d -q; expect_rc 0
	[ "$(csvq d/ratios.csv name | sort -u)" = "'=1+2" ] ||
		die "ratios.csv names: $(csvq d/ratios.csv name | sort -u)"
}

# A TMPDIR that is missing or no folder is refused before anything is made:
# no half-made run folder marked running, no `latest` pointing at one.
t_bad_tmpdir_makes_nothing() {
	mat m.yaml <<'Y'
name: tmpdir
repeat: 1
matrix:
  transport: unix
  count: 10
Y
	rc=0
	TMPDIR=/nonexistent/matrix-test "$MATRIX_BIN" run m.yaml >out.txt 2>err.txt || rc=$?
	[ "$rc" -eq 2 ] || die "exit $rc"
	grep -qF "matrix: TMPDIR /nonexistent/matrix-test: No such file or directory" err.txt ||
		die "stderr: $(cat err.txt)"
	[ -e results ] && die "a run folder was made: $(find results)"
	: >afile
	rc=0
	TMPDIR=$PWD/afile "$MATRIX_BIN" run m.yaml >out.txt 2>err.txt || rc=$?
	[ "$rc" -eq 2 ] || die "exit $rc"
	grep -qF "not a directory this user can write" err.txt || die "stderr: $(cat err.txt)"
	[ -e results ] && die "a run folder was made: $(find results)"
	return 0
}

# A matrix is read from a regular file of at most 1 MiB: /dev/zero, a FIFO
# or a huge file are refused at once, naming the file.
t_matrix_file_is_bounded() {
	run_matrix plan /dev/zero; expect_rc 2
	expect_err "/dev/zero: not a regular file: a matrix is read from a file"
	mkfifo fifo.yaml
	rc=0
	timeout 10 "$MATRIX_BIN" plan fifo.yaml >out.txt 2>err.txt || rc=$?
	[ "$rc" -eq 2 ] || die "a FIFO: exit $rc (124 is a hang)"
	grep -qF "fifo.yaml: not a regular file" err.txt || die "stderr: $(cat err.txt)"
	head -c 1048577 /dev/zero | tr '\0' '#' >big.yaml
	run_matrix plan big.yaml; expect_rc 2
	expect_err "big.yaml: 1048577 bytes, over the 1048576 a matrix file may have"
}

# --resume through `latest` carries on the folder the link named when the
# resume started: a run that moves the link meanwhile cannot send the rest
# of it (meta.csv, reports) into its own folder.
t_resume_through_latest_stays_in_its_folder() {
	mat m.yaml <<'Y'
name: lt
repeat: 2
warmup: 1
matrix:
  transport: [unix, tcp]
  count: 50
Y
	run_matrix run m.yaml -q; expect_rc 0
	local dir stamp
	dir=$(tail -1 "$T/.out")
	stamp=${dir##*/}
	[ "$(readlink results/lt/latest)" = "$stamp" ] || die "latest: $(readlink results/lt/latest)"
	# as a run interrupted before its last row
	sed -i 's/^status,ok$/status,interrupted/' "$dir/meta.csv"
	head -n -1 "$dir/results.csv" >r.tmp && mv r.tmp "$dir/results.csv"
	run_matrix run --resume results/lt/latest -q; expect_rc 0
	[ "$(tail -1 "$T/.out")" = "$dir" ] || die "stdout: $(cat "$T/.out"), not $dir"
	[ "$(csvq "$dir/results.csv" --rows)" -eq 4 ] || die "$(csvq "$dir/results.csv" --rows) rows"
	grep -q '^status,ok$' "$dir/meta.csv" || die "meta.csv: $(grep status "$dir/meta.csv")"
}
