# Resume (issue 11): `matrix run --resume DIR` carries an interrupted or
# killed run on to the folder an uninterrupted run would have made; a run
# folder is written by one live run at a time; a start that fails leaves
# nothing made.

# A matrix of 4 cells x 2 repetitions (--only keeps 4 of 8, --set repeat
# 2 of the file's 5), each repetition some 60 ms: long enough to stop a
# run halfway.
resume_matrix() {
	mat m.yaml <<'Y'
name: resume
repeat: 5
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp, udp]
  size: [16, 32]
  duration: 50ms
  interval: 10ms
  loss_timeout: 1s     # a busy machine's stall is no lost udp reply
exclude:
  - {pattern: stream, transport: udp}
  - {transport: udp, size: 32}
Y
}
RESUME_FLAGS=(--only size=16 --only transport=unix --only transport=tcp --set repeat=2 --seed 42)

# starts the run into d in the background, SIGINT as a terminal gives it
# (a script's background job starts with it ignored); sets $mpid.  The
# run and its workers carry RESUME_TAG=$T in their environment, for
# end_workers.
start_run() {
	RESUME_TAG=$T python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
		"$MATRIX_BIN" run m.yaml -o d -q "${RESUME_FLAGS[@]}" >run.out 2>run.err &
	mpid=$!
}

# Ends the workers a killed runner left (this test's own: their environment
# has RESUME_TAG=$T), and waits until they are gone.
end_workers() {
	local i left
	for i in $(seq 100); do
		left=$(grep -lzxF "RESUME_TAG=$T" /proc/[0-9]*/environ 2>/dev/null |
			sed 's,^/proc/\([0-9]*\)/environ$,\1,' || true)
		[ -z "$left" ] && return 0
		kill -KILL $left 2>/dev/null
		sleep 0.02
	done
	die "workers left: $left"
}

# waits until d/results.csv has at least $1 rows
wait_rows() {
	local i
	for i in $(seq 400); do
		[ "$("$CSVQ" d/results.csv --rows 2>/dev/null || echo 0)" -ge "$1" ] && return 0
		sleep 0.01
	done
	die "d/results.csv never reached $1 rows: $(cat run.err)"
}

# "cell rep status" of every row, in file order
rows() { csvq "$1/results.csv" cell rep status; }

# The run folder of an uninterrupted run: the same flags, into e.
full_run() {
	rc=0
	"$MATRIX_BIN" run m.yaml -o e -q "${RESUME_FLAGS[@]}" >/dev/null 2>full.err || rc=$?
	[ "$rc" -eq 0 ] || die "the uninterrupted run: exit $rc: $(cat full.err)"
}

# d, resumed, is e but for timings: the same rows per cell and repetition,
# all ok, the same columns, the same meta.csv keys (and resumed_utc).
same_as_full_run() {
	[ "$(rows d | sort)" = "$(rows e | sort)" ] || die "coverage: $(rows d | sort | tr '\n' ' ') vs $(rows e | sort | tr '\n' ' ')"
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv --rows)" -eq 8 ] || die "$(csvq d/results.csv --rows) rows, not 8"
	[ "$(csvq d/results.csv --header)" = "$(csvq e/results.csv --header)" ] || die "columns differ"
	[ "$(csvq d/meta.csv key | grep -v '^resumed_utc$')" = "$(csvq e/meta.csv key)" ] ||
		die "meta.csv keys: $(csvq d/meta.csv key | tr '\n' ' ')"
	[ "$(meta_value d status)" = ok ] || die "meta.csv status $(meta_value d status)"
	[ -n "$(meta_value d resumed_utc)" ] || die "no resumed_utc"
	for k in command_line seed order only set matrix_hash matrix_file; do
		[ "$(meta_value d "$k")" = "$(meta_value e "$k" | sed 's/ -o e / -o d /')" ] ||
			die "meta.csv $k: '$(meta_value d "$k")' vs '$(meta_value e "$k")'"
	done
	# the reports are rebuilt as a run's: matrix report gives the same bytes
	cp d/summary.csv summary.before
	run_matrix report d -q; expect_rc 0
	cmp -s d/summary.csv summary.before || die "summary.csv is not the report of the final rows"
	[ "$(csvq d/summary.csv --rows)" -eq 4 ] || die "summary.csv: $(csvq d/summary.csv --rows) rows"
}

# SIGINT halfway, then --resume: the rows of an uninterrupted run with the
# same seed, in the same order (the interrupted repetition is run again
# where it was).
t_resume_after_sigint() {
	resume_matrix
	start_run
	wait_rows 3
	kill -INT "$mpid"
	rc=0
	wait "$mpid" || rc=$?
	[ "$rc" -eq 130 ] || die "interrupted run: exit $rc: $(cat run.err)"
	[ "$(meta_value d status)" = interrupted ] || die "status $(meta_value d status)"
	local before
	before=$(csvq d/results.csv --rows)
	[ "$before" -lt 8 ] || die "the run was not stopped halfway"
	run_matrix run --resume d; expect_rc 0
	[ "$(tail -1 "$T/.out")" = d ] || die "stdout: $(cat "$T/.out")"
	expect_err "matrix: resuming d: "
	grep -q interrupted d/results.csv && die "an interrupted row is left: $(grep interrupted d/results.csv)"
	full_run
	same_as_full_run
	# the same cell repetitions, in the same order: the seed's
	[ "$(csvq d/results.csv cell rep)" = "$(csvq e/results.csv cell rep)" ] ||
		die "order: $(csvq d/results.csv cell rep | tr '\n' ' ') vs $(csvq e/results.csv cell rep | tr '\n' ' ')"
	expect_no_leftovers
}

# SIGKILL of the runner, with its last rows cut short: results.csv ends in
# half a row, timeline.csv in half an interval.  --resume drops both (and
# the stream repetition whose intervals were cut) and completes the run.
t_resume_after_sigkill() {
	resume_matrix
	start_run
	wait_rows 3
	kill -KILL "$mpid"
	wait "$mpid" 2>/dev/null
	end_workers	# (until a runner's workers die with it)
	[ "$(meta_value d status)" = running ] || die "status $(meta_value d status)"
	# a kill in the middle of a write
	local last
	last=$(tail -1 d/results.csv)
	printf '%s' "${last:0:25}" >>d/results.csv
	[ -s d/timeline.csv ] && [ "$(wc -l <d/timeline.csv)" -gt 1 ] || die "no timeline rows yet"
	last=$(tail -1 d/timeline.csv)
	printf '%s' "${last:0:8}" >>d/timeline.csv
	run_matrix report d -q; expect_rc 0
	expect_err "ends in a row an interrupted write cut short"
	run_matrix run --resume d -q; expect_rc 0
	tail -c 1 d/results.csv | od -c | grep -q '\\n' || die "results.csv does not end a row"
	full_run
	same_as_full_run
	# timeline.csv: the intervals of each ok stream repetition, once
	local tl
	tl=$(csvq d/timeline.csv cell rep interval_start_s | sort)
	[ -z "$(uniq -d <<<"$tl")" ] || die "timeline rows twice: $(uniq -d <<<"$tl" | head -3)"
	[ "$(cut -f1,2 <<<"$tl" | sort -u)" = "$(csvq e/timeline.csv cell rep | sort -u)" ] ||
		die "timeline repetitions: $(cut -f1,2 <<<"$tl" | sort -u | tr '\n' ' ')"
}

# --resume of a finished run says so and changes nothing (exit 0).
t_resume_of_finished_run_does_nothing() {
	resume_matrix
	run_matrix run m.yaml -o d -q "${RESUME_FLAGS[@]}"; expect_rc 0
	local sums
	sums=$(cd d && find . -type f | sort | xargs md5sum)
	run_matrix run --resume d; expect_rc 0
	expect_err "matrix: d: the run finished (status: ok): nothing to resume"
	# the folder's path still ends stdout, as after every run
	[ "$(cat "$T/.out")" = d ] || die "stdout: $(cat "$T/.out")"
	[ "$(cd d && find . -type f | sort | xargs md5sum)" = "$sums" ] || die "the folder changed"
	return 0
}

# A folder whose matrix.yaml changed, made by another build, or given with
# flags the folder decides is refused, and left as it was; put back, it
# resumes (a run killed in its report: nothing runs, it is finished).
t_resume_refuses_other_matrix_or_build() {
	resume_matrix
	run_matrix run m.yaml -o d -q "${RESUME_FLAGS[@]}"; expect_rc 0
	sed -i 's/^status,ok$/status,running/' d/meta.csv
	cp -a d d.orig
	echo "# edited" >>d/matrix.yaml
	run_matrix run --resume d; expect_rc 2
	expect_err "matrix run: --resume d: d/matrix.yaml is not the matrix the run started with"
	cp d.orig/matrix.yaml d/
	sed -i 's/^tool_version,.*/tool_version,0.0.1-other/' d/meta.csv
	run_matrix run --resume d; expect_rc 2
	expect_err "matrix run: --resume d: matrix 0.0.1-other ("
	expect_err "a run is resumed by the build that started it"
	cp d.orig/meta.csv d/
	sed -i 's/^git_revision,.*/git_revision,0123456789ab/' d/meta.csv
	run_matrix run --resume d; expect_rc 2
	expect_err "(0123456789ab) made it"
	cp d.orig/meta.csv d/
	# a folder its meta.csv does not describe (a confirmation's cells)
	sed -i 's/^cells,4$/cells,2/' d/meta.csv
	run_matrix run --resume d; expect_rc 2
	expect_err "meta.csv says the run had 2 cells x 2 repetitions, its flags make 4 cells x 2 repetitions"
	cp d.orig/meta.csv d/
	run_matrix run --resume d m.yaml; expect_rc 2
	expect_err "give none of them"
	run_matrix run --resume d --set count=5; expect_rc 2
	expect_err "give none of them"
	run_matrix run --resume nowhere; expect_rc 2
	expect_err "matrix run: --resume nowhere: not a run folder: nowhere/meta.csv: No such file or directory"
	diff -r d d.orig >/dev/null || die "a refused resume changed the folder: $(diff -r d d.orig | head -5)"
	run_matrix run --resume d -q; expect_rc 0
	[ "$(meta_value d status)" = ok ] || die "status $(meta_value d status)"
	[ "$(csvq d/results.csv --rows)" -eq 8 ] || die "rows: $(csvq d/results.csv --rows)"
}

# A folder a live run holds is refused, by -o and by --resume, naming the
# holder's pid, and nothing of that run is touched; runs started at once
# on one -o folder: one runs, the others are refused.  The runs hold their
# folders until the test lets them go: their client waits for the file
# gate, so a run slow to start (under load) never finds the folder free or
# done, and the live run never ends before the refusals are tried.
t_live_run_holds_its_folder() {
	cp "$REPO/matrices/programs/echo_client.py" .
	mat m.yaml <<'Y'
name: hold
repeat: 6
warmup: 5
programs:
  gated:
    client: [sh, -c, 'until [ -e gate ]; do sleep 0.02; done; exec python3 echo_client.py "$@"', gated,
             "{host}", "{port}", "{size}", "{size}", "{count}"]
matrix:
  pattern: echo
  transport: tcp
  client: gated
  count: 100
Y
	"$MATRIX_BIN" run m.yaml -o d -q >run.out 2>run.err &
	local mpid=$! i
	for i in $(seq 1000); do	# 20 s at most
		[ "$(cat d/.lock 2>/dev/null)" = "$mpid" ] && [ -s d/meta.csv ] && break
		sleep 0.02
	done
	[ "$(cat d/.lock 2>/dev/null)" = "$mpid" ] || die "no lock with the run's pid: $(cat d/.lock)"
	local sums
	sums=$(md5sum d/matrix.yaml d/meta.csv d/.lock)
	# (20 s at most each: one let in would wait at the gate too)
	rc=0
	timeout 20 "$MATRIX_BIN" run m.yaml -o d >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "matrix: -o d: in use by a running matrix (pid $mpid)"
	rc=0
	timeout 20 "$MATRIX_BIN" run --resume d >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "matrix: --resume d: in use by a running matrix (pid $mpid)"
	[ "$(md5sum d/matrix.yaml d/meta.csv d/.lock)" = "$sums" ] || die "the live run's files changed"
	kill -0 "$mpid" 2>/dev/null || die "the live run ended before its gate opened: $(cat run.err)"
	touch gate
	rc=0
	wait "$mpid" || rc=$?
	[ "$rc" -eq 0 ] || die "the live run: exit $rc: $(cat run.err)"
	[ "$(csvq d/results.csv --rows)" -eq 6 ] || die "rows: $(csvq d/results.csv --rows)"
	expect_all d/results.csv status ok
	# four at once on a folder none has made yet: the winner waits at the
	# gate until the three others have been refused (30 s at most)
	rm gate
	local pids="" left
	for i in 1 2 3 4; do
		"$MATRIX_BIN" run m.yaml -o p -q --set repeat=2 >"out$i" 2>"err$i" &
		pids="$pids $!"
	done
	for i in $(seq 1500); do
		left=0
		for p in $pids; do kill -0 "$p" 2>/dev/null && left=$((left + 1)); done
		[ "$left" -le 1 ] && break
		sleep 0.02
	done
	touch gate
	local ok=0 refused=0 r p
	for p in $pids; do
		r=0
		wait "$p" || r=$?
		[ "$r" -eq 0 ] && ok=$((ok + 1))
		[ "$r" -eq 2 ] && refused=$((refused + 1))
	done
	[ "$ok" -eq 1 ] && [ "$refused" -eq 3 ] || die "$ok ran, $refused refused: $(cat err*)"
	# a refusal that came before the winner wrote its pid says so instead
	[ "$(grep -l -E "matrix: -o p: in use by a running matrix \((pid [0-9]+|its pid not yet written)\)" err* |
		wc -l)" -eq 3 ] ||
		die "refusals: $(cat err*)"
	[ "$(csvq p/results.csv --rows)" -eq 2 ] || die "p holds $(csvq p/results.csv --rows) rows"
	expect_all p/results.csv status ok
	expect_no_leftovers
}

# A start that fails (here: a file that cannot be written, RLIMIT_FSIZE
# with SIGXFSZ ignored) removes what it made: no half-made run folder, no
# `latest` moved to one, a given -o folder left as it was.
t_failed_start_leaves_nothing() {
	mat m.yaml <<'Y'
name: early
repeat: 1
warmup: 5
matrix:
  transport: unix
  count: 100
Y
	run_matrix run m.yaml -q; expect_rc 0
	local first
	first=$(readlink results/early/latest)
	# limited LIMIT ARGS...: the run with files limited to LIMIT KiB (its
	# stderr is a pipe to a file of ours, unlimited)
	limited() {
		local lim=$1
		shift
		(trap '' XFSZ; ulimit -f "$lim"; exec "$MATRIX_BIN" run "$@") 2>&1 >/dev/null |
			cat >"$T/.err"
		rc=${PIPESTATUS[0]}
	}
	nothing_left() {	# what: the failure's message
		expect_rc 2
		expect_err "$1"
		[ "$(ls results/early)" = "$(printf '%s\nlatest' "$first")" ] ||
			die "$1: results/early: $(ls results/early | tr '\n' ' ')"
		[ "$(readlink results/early/latest)" = "$first" ] || die "$1: latest moved"
		[ -z "$(ls -A "$TMPDIR")" ] || die "$1: left in TMPDIR: $(ls -A "$TMPDIR")"
	}
	# the lock file: the first file written
	limited 0 m.yaml -q
	nothing_left "/.lock: File too large"
	mkdir given
	limited 0 m.yaml -q -o given
	nothing_left "matrix: -o given: given/.lock: File too large"
	[ -d given ] && [ -z "$(ls -A given)" ] || die "the given folder: $(ls -A given)"
	limited 0 m.yaml -q -o new/deep/dir
	nothing_left "matrix: -o new/deep/dir: new/deep/dir/.lock: File too large"
	[ -e new ] && die "folders made for -o are left: $(find new)"
	# matrix.yaml, over 1 KiB
	{ cat m.yaml; printf '# %s\n' $(seq 1000 1200); } >big.yaml
	limited 1 big.yaml -q
	nothing_left "matrix: copy big.yaml to results/early/"
	# then a run goes, and latest follows it
	run_matrix run m.yaml -q; expect_rc 0
	[ "$(readlink results/early/latest)" != "$first" ] || die "latest did not move"
}

# A stream matrix of 2 cells x 3 repetitions, some 30 ms each, a timeline
# row every 2 ms.
stream_matrix() {
	mat s.yaml <<'Y'
name: tl
repeat: 3
warmup: 1
matrix:
  pattern: stream
  transport: [unix, tcp]
  duration: 30ms
  interval: 2ms
Y
}

# A finished stream run into d, made to look killed: status running (its
# runner is gone), and results.csv without its last row, whose cell and
# repetition are in $last_rep; its timeline rows are the last ones.
killed_stream_run() {
	stream_matrix
	run_matrix run s.yaml -o d -q; expect_rc 0
	[ "$(csvq d/results.csv --rows)" -eq 6 ] || die "$(csvq d/results.csv --rows) rows, not 6"
	expect_all d/results.csv status ok
	timeline_whole d
	last_rep=$(csvq d/results.csv cell rep | tail -1)
	[ "$(csvq d/timeline.csv cell rep | tail -1)" = "$last_rep" ] ||
		die "the last timeline row is not the last repetition's"
	sed -i 's/^status,ok$/status,running/' d/meta.csv
	grep -qx 'status,running' d/meta.csv || die "meta.csv: no status row"
	last_row=$(tail -1 d/results.csv)
	head -n -1 d/results.csv >res.tmp && mv res.tmp d/results.csv
	csvq d/results.csv cell rep started_at messages >kept.txt
}

# A kill between a repetition's timeline rows and its results row (here
# in the middle of that row): --resume runs the repetition again, once,
# and its timeline rows are those of the new run, not both.
t_resume_kill_before_results_row() {
	killed_stream_run
	printf '%s' "${last_row:0:20}" >>d/results.csv
	run_matrix run --resume d -q; expect_rc 0
	[ "$(csvq d/results.csv --rows)" -eq 6 ] || die "$(csvq d/results.csv --rows) rows, not 6"
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv cell rep | tail -1)" = "$last_rep" ] || die "$last_rep did not run again"
	[ "$(csvq d/results.csv cell rep started_at messages | head -5)" = "$(cat kept.txt)" ] ||
		die "the kept rows changed"
	timeline_whole d
}

# A kill in the middle of a repetition's timeline rows (its results row
# not written yet): the timeline rows results.csv lacks go and that
# repetition runs again; every repetition done before is kept as it was.
t_resume_timeline_rows_without_results_row() {
	killed_stream_run
	# the repetition's first 3 timeline rows, then half of its 4th
	awk -F, -v k="${last_rep/$'\t'/,}" '
		index($0, k ",") == 1 && ++n > 3 { printf "%s", substr($0, 1, 8); exit }
		{ print }' d/timeline.csv >tl.tmp
	[ "$(grep -c "^${last_rep/$'\t'/,}," tl.tmp)" -eq 4 ] && [ -n "$(tail -c 1 tl.tmp)" ] ||
		die "timeline.csv: $(tail -3 tl.tmp)"
	mv tl.tmp d/timeline.csv
	run_matrix run --resume d -q; expect_rc 0
	[ "$(csvq d/results.csv --rows)" -eq 6 ] || die "$(csvq d/results.csv --rows) rows, not 6"
	expect_all d/results.csv status ok
	[ "$(csvq d/results.csv cell rep | tail -1)" = "$last_rep" ] || die "$last_rep did not run again"
	[ "$(csvq d/results.csv cell rep started_at messages | head -5)" = "$(cat kept.txt)" ] ||
		die "a repetition done before ran again: $(csvq d/results.csv cell rep | tr '\n' ' ')"
	timeline_whole d
}
