# A fleet (issue 15): `matrix run --shard K/N` runs every Nth cell
# repetition, the same ones on every machine and whatever the order, and
# `matrix merge` joins the N folders into the run folder one run makes,
# refusing what is not the shards of one run.

# 3 cells x 2 repetitions (a stream cell for timeline.csv, pingpong ones
# for hist.csv), each repetition some 20 ms
shard_matrix() {
	mat m.yaml <<'Y'
name: fleet
repeat: 2
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  size: 64
  duration: 20ms
  interval: 5ms
exclude:
  - {pattern: stream, transport: tcp}
Y
}

# the (cell, rep) pairs of a timeline.csv or hist.csv, in the file's order
reps_in_order() { awk -F, 'NR > 1 { print $1 " " $2 }' "$1" | uniq; }
results_pairs() { csvq "$1" cell rep | tr '\t' ' ' | sort; }

# the 3 shards of m.yaml, run at once, into s1 s2 s3 (extra flags: $@)
run_shards() {
	local k pids=() rcs=0
	for k in 1 2 3; do
		"$MATRIX_BIN" run m.yaml --shard $k/3 -o s$k -q "$@" >s$k.out 2>s$k.err &
		pids+=($!)
	done
	for k in 0 1 2; do wait "${pids[$k]}" || rcs=$((rcs + 1)); done
	[ "$rcs" -eq 0 ] || die "a shard failed: $(cat s1.err s2.err s3.err)"
}

t_three_shards_merge_into_the_whole_run() {
	shard_matrix
	run_matrix run m.yaml -o whole -q --order sequential; expect_rc 0
	run_shards
	# shard K holds the repetitions whose index (cell - 1) * 2 + rep - 1 is K-1 mod 3
	local k want
	for k in 1 2 3; do
		want=$(for c in 1 2 3; do for r in 1 2; do
			[ $(( ((c - 1) * 2 + r - 1) % 3 )) -eq $((k - 1)) ] && echo "$c $r"; done; done)
		[ "$(results_pairs s$k/results.csv)" = "$want" ] ||
			die "shard $k/3 ran $(results_pairs s$k/results.csv | tr '\n' ,), expected $(echo $want)"
		grep -qx "shard,$k/3" s$k/meta.csv || die "s$k/meta.csv lacks shard,$k/3"
		grep -qx "| shard | $k/3 of a run (matrix merge joins the shards) |" s$k/summary.md ||
			die "s$k/summary.md does not say it is a shard"
	done
	# logs: a name two shards have (a program's setup log) is kept for
	# each, or once when the files are the same
	mkdir -p s1/logs s2/logs s3/logs
	echo one >s1/logs/setup-p.log; echo two >s2/logs/setup-p.log; echo w >s3/logs/cell3-rep2-server.log
	echo same >s1/logs/setup-q.log; echo same >s3/logs/setup-q.log
	run_matrix merge s2 s3 s1 -o merged -q; expect_rc 0
	[ "$(cat merged/logs/setup-p.log merged/logs/setup-p.log.shard2 merged/logs/cell3-rep2-server.log)" = \
	  "$(printf 'one\ntwo\nw')" ] || die "merged logs/: $(ls merged/logs)"
	[ "$(ls merged/logs | grep -c setup-q)" -eq 1 ] || die "the same setup log kept twice: $(ls merged/logs)"
	[ "$(tail -1 "$T/.out")" = merged ] || die "stdout's last line: $(tail -1 "$T/.out")"
	# the whole run's cells, in the order a sequential run writes them
	local cols="cell pattern transport size rep status repeat_stop"
	[ "$(csvq merged/results.csv $cols)" = "$(csvq whole/results.csv $cols)" ] ||
		die "merged results.csv: $(csvq merged/results.csv $cols)
whole: $(csvq whole/results.csv $cols)"
	head -1 merged/results.csv | cmp -s - <(head -1 whole/results.csv) || die "results.csv header differs"
	cmp -s merged/matrix.yaml m.yaml || die "merged matrix.yaml is not the file"
	# every repetition's side rows, from whichever shard ran it, in the
	# order of a sequential run
	local f
	for f in timeline.csv hist.csv; do
		[ "$(reps_in_order merged/$f)" = "$(reps_in_order whole/$f)" ] ||
			die "merged $f: repetitions $(reps_in_order merged/$f | tr '\n' ,)" \
			    "not $(reps_in_order whole/$f | tr '\n' ,)"
	done
	[ "$(cat s1/timeline.csv s2/timeline.csv s3/timeline.csv | grep -vc '^cell,')" -eq \
	  "$(grep -vc '^cell,' merged/timeline.csv)" ] || die "timeline.csv lost rows"
	# the summary: the same cells, statuses and counts (figures are measured)
	cols="cell pattern transport status ok"
	[ "$(csvq merged/summary.csv $cols)" = "$(csvq whole/summary.csv $cols)" ] ||
		die "summary.csv differs: $(csvq merged/summary.csv $cols)"
	grep -q '^shard,' merged/meta.csv && die "merged meta.csv keeps a shard"
	grep -qx 'merged_from,s1 s2 s3' merged/meta.csv || die "merged_from: $(grep merged_from merged/meta.csv)"
	grep -qx 'status,ok' merged/meta.csv || die "merged status: $(grep ^status merged/meta.csv)"
	grep -qx '| merged from | s1 s2 s3 |' merged/summary.md || die "summary.md does not say it was merged"
	# matrix report gives the same bytes
	mkdir first && cp merged/summary.csv merged/ratios.csv merged/summary.md merged/report.html first/
	run_matrix report merged -q; expect_rc 0
	for f in summary.csv ratios.csv summary.md report.html; do
		cmp -s "first/$f" "merged/$f" || die "matrix report changed $f: $(diff "first/$f" "merged/$f" | head -5)"
	done
	# the same split whatever the order and seed: shard 2 again, shuffled otherwise
	run_matrix run m.yaml --shard 2/3 -o again -q --seed 7; expect_rc 0
	[ "$(results_pairs again/results.csv)" = "$(results_pairs s2/results.csv)" ] || die "shard 2/3 moved"
	expect_no_leftovers
}

# every refusal names what is wrong, exits 2 and makes no OUT
t_merge_refuses_what_is_not_one_run() {
	shard_matrix
	run_shards
	refused() {	# refused MESSAGE DIR...: merge into out is refused with MESSAGE
		local msg=$1; shift
		run_matrix merge "$@" -o out; expect_rc 2; expect_err "$msg"
		[ ! -e out ] || die "merge $* made out: $(ls -A out)"
		[ -z "$(ls -d out?* 2>/dev/null)" ] || die "merge $* left $(ls -d out?*)"
	}
	refused "shards missing: 3/3 (2 of 3 given)" s1 s2
	refused "shard 2/3 given twice: s2 and s2" s1 s2 s2 s3
	# a run without --shard (its meta.csv as such a run writes it)
	cp -r s3 whole && sed -i '/^shard,/d' whole/meta.csv
	refused "whole: not a shard (its meta.csv has no shard)" s1 s2 s3 whole
	run_matrix run m.yaml --shard 2/2 -o half -q; expect_rc 0
	refused "s1 is shard 1/3, half shard 2/2: not shards of one run" s1 half s3
	# a shard of another --repeat (or --only): its flags differ
	cp -r s3 r3 && sed -i 's/^repetitions,.*/repetitions,3/' r3/meta.csv
	refused "s1 and r3 differ in meta.csv's repetitions: '2' vs '3'" s1 s2 r3
	# another machine: its kernel
	cp -r s3 k3 && sed -i 's/^kernel,.*/kernel,0.0.0-other/' k3/meta.csv
	refused "s1 and k3 differ in machine or inputs" s1 s2 k3
	expect_err "kernel: "
	# another matrix.yaml
	sed 's/^repeat: 2/repeat: 2 # changed/' m.yaml >m2.yaml
	run_matrix run m2.yaml --shard 3/3 -o y3 -q; expect_rc 0
	refused "matrix.yaml: the two files differ" s1 s2 y3
	# a run that did not finish
	cp -r s3 i3 && sed -i 's/^status,.*/status,interrupted/' i3/meta.csv
	refused "i3 (shard 3/3): its run did not finish (status: interrupted)" s1 s2 i3
	# a cell repetition twice, in the folder of another shard, missing
	cp -r s2 d2 && tail -1 s1/results.csv >>d2/results.csv
	cp -r s1 m1 && sed -i '$d' m1/results.csv
	local c r; read -r c r < <(csvq s1/results.csv cell rep | tail -1)
	refused "cell $c repetition $r is in two folders: s1 and d2" s1 d2 s3
	cp -r s1 x1 && sed -i '2s/^1,/99,/' x1/results.csv
	refused "x1/results.csv:2: cell '99' repetition '1' is not one of the run's" x1 s2 s3
	cp -r s1 w1 && tail -1 s1/results.csv >>w1/results.csv
	refused "w1/results.csv:4: cell $c repetition $r again: line 3 has it already" w1 s2 s3
	refused "d2 (shard 2/3) holds cell $c repetition $r, which is shard 1/3's" m1 d2 s3
	refused "missing: cell $c repetition $r (shard 1/3, m1)" m1 s2 s3
	# a side file that is wrong (the stream cell's timeline.csv, in s2 and
	# s3): refused as the report refuses it, before OUT is begun
	cp -r s3 t3 && sed -i '1s/interval_s/interval_x/' t3/timeline.csv
	refused "t3/timeline.csv:1: not a matrix timeline file: no column interval_s" s1 s2 t3
	mkdir -p full && touch full/x
	run_matrix merge s1 s2 s3 -o full; expect_rc 2; expect_err "-o full: exists and is not an empty directory"
	run_matrix merge s1 s2 s3; expect_rc 2; expect_err "expected -o OUT"
	# more shards than cell repetitions: the last runs nothing, and says so
	run_matrix run m.yaml --shard 7/7 -o s7; expect_rc 0
	expect_err "shard 7/7 runs nothing: the plan has 6 cell repetitions for 7 shards"
	[ "$(csvq s7/results.csv --rows)" -eq 0 ] || die "shard 7/7 ran $(csvq s7/results.csv --rows)"
	# --shard's own errors
	run_matrix run m.yaml --shard 3/2 -o bad; expect_rc 2; expect_err "--shard 3/2: K (3) must be between 1 and N (2)"
	run_matrix run m.yaml --shard x -o bad; expect_rc 2; expect_err "--shard x: expected K/N"
	run_matrix run m.yaml --shard 0/2 -o bad; expect_rc 2; expect_err "--shard 0/2: expected K/N"
	[ ! -e bad ] || die "a refused --shard made its folder"
	run_matrix merge --help; expect_rc 0
	grep -q '^usage: matrix merge DIR... -o OUT' "$T/.out" || die "merge --help: $(head -2 "$T/.out")"
	expect_no_leftovers
}

# repeat: auto stops each cell on its own: a shard runs whole cells, and
# merge wants each cell's repetitions up to the one that says why it stopped
t_repeat_auto_shards_whole_cells() {
	mat m.yaml <<'Y'
name: autofleet
repeat: {min: 2, max: 3, width: 900%}
warmup: 5
matrix:
  transport: unix
  size: [16, 32, 64, 128]
  count: 200
Y
	run_matrix run m.yaml --shard 1/2 -o a1 -q --seed 1; expect_rc 0
	run_matrix run m.yaml --shard 2/2 -o a2 -q --seed 2; expect_rc 0
	[ "$(csvq a1/results.csv cell | sort -u | tr '\n' ' ')" = "1 3 " ] ||
		die "shard 1/2 ran cells $(csvq a1/results.csv cell | sort -u | tr '\n' ' ')"
	[ "$(csvq a2/results.csv cell | sort -u | tr '\n' ' ')" = "2 4 " ] ||
		die "shard 2/2 ran cells $(csvq a2/results.csv cell | sort -u | tr '\n' ' ')"
	run_matrix merge a1 a2 -o merged -q; expect_rc 0
	[ "$(csvq merged/results.csv repeat_stop | grep -c .)" -eq 4 ] || die "not every cell says why it stopped"
	[ "$(csvq merged/summary.csv cell | tr '\n' ' ')" = "1 2 3 4 " ] || die "summary cells: $(csvq merged/summary.csv cell)"
	# a cell whose stopping repetition is gone is missing it
	cp -r a2 b2 && sed -i '$d' b2/results.csv
	local c r; read -r c r < <(csvq a2/results.csv cell rep | tail -1)
	run_matrix merge a1 b2 -o out; expect_rc 2
	expect_err "missing: cell $c repetition $r (shard 2/2, b2)"
}

# --resume of a shard carries on that shard only
t_resume_keeps_the_shard() {
	shard_matrix
	run_matrix run m.yaml --shard 1/3 -o s1 -q; expect_rc 0
	local want; want=$(results_pairs s1/results.csv)
	sed -i '$d' s1/results.csv && sed -i 's/^status,.*/status,interrupted/' s1/meta.csv
	run_matrix run --resume s1 --shard 1/3; expect_rc 2; expect_err "and --shard: give none of them"
	run_matrix run --resume s1; expect_rc 0
	expect_err "resuming s1: 1 cell repetition kept, 1 to run"	# of the shard's 2
	[ "$(results_pairs s1/results.csv)" = "$want" ] ||
		die "resumed shard holds $(results_pairs s1/results.csv | tr '\n' ,), not $(echo $want)"
	grep -qx 'shard,1/3' s1/meta.csv || die "the resumed shard's meta.csv lost its shard"
	expect_no_leftovers
}

# a run with failures, in 2 shards of which only the second fails: the
# merged folder says so as one run would (status, exit 1, the failed
# rows' logs), its times and hosts span the shards', and an empty OUT is
# taken;
# merged on a machine that could not run the cells
t_shards_with_failures_merge() {
	mat f.yaml <<'Y'
name: failfleet
repeat: 1
warmup: 5
programs:
  bad:
    server: [sh, -c, 'echo dying; exit 3']
matrix:
  pattern: pingpong
  transport: tcp
  size: [16, 32]
  server: [builtin, bad]
  count: 100
  concurrency: 4
Y
	run_matrix run f.yaml --shard 1/2 -o f1; expect_rc 0
	expect_err "; 2 of 2]"	# the progress counts the shard's repetitions
	run_matrix run f.yaml --shard 2/2 -o f2 -q; expect_rc 1
	expect_all f1/results.csv server builtin
	expect_all f2/results.csv status "exit 3"
	sed -i 's/^start_utc,.*/start_utc,2000-01-01T00:00:00Z/' f2/meta.csv
	sed -i 's/^end_utc,.*/end_utc,2099-01-01T00:00:00Z/' f2/meta.csv
	sed -i 's/^host,.*/host,bench-2/' f2/meta.csv	# another machine of one kind
	mkdir merged
	# anywhere: the shards' cells are not this machine's to run, so its
	# limits (here the open files 4 clients need) are not checked
	ulimit -n 32
	run_matrix merge f1 f2 -o merged -q; expect_rc 1
	grep -qx 'status,some repetitions failed' merged/meta.csv || die "merged $(grep ^status merged/meta.csv)"
	grep -qx 'start_utc,2000-01-01T00:00:00Z' merged/meta.csv || die "merged $(grep ^start_utc merged/meta.csv)"
	grep -qx 'end_utc,2099-01-01T00:00:00Z' merged/meta.csv || die "merged $(grep ^end_utc merged/meta.csv)"
	grep -qx "host,$(uname -n) bench-2" merged/meta.csv || die "merged $(grep ^host merged/meta.csv)"
	grep -qx "| host | $(uname -n) bench-2 |" merged/summary.md || die "summary.md: $(grep '^| host' merged/summary.md)"
	[ "$(csvq merged/results.csv cell status | tr '\t\n' ' ,')" = "1 ok,2 exit 3,3 ok,4 exit 3," ] ||
		die "merged results: $(csvq merged/results.csv cell status | tr '\t\n' ' ,')"
	[ "$(ls merged/logs)" = "$(printf 'cell2-rep1-server.log\ncell4-rep1-server.log')" ] ||
		die "merged logs/: $(ls merged/logs)"
	expect_no_leftovers
}

# A merged folder's in-run A/B is not paired by round: its shards ran their
# rounds apart (another machine, another time), so the two sides are
# judged as two separate runs, and ab.md says why.
t_merged_ab_is_not_paired() {
	mat m.yaml <<'Y'
name: mab
repeat: 7
warmup: 2
matrix:
  pattern: pingpong
  transport: unix
  spin: [0us, 1us]
  count: 30
Y
	local k
	for k in 1 2; do
		run_matrix run m.yaml -o s$k -q --shard $k/2; expect_rc 0
	done
	run_matrix merge s1 s2 -o merged -q; expect_rc 0
	run_matrix report merged -q --compare spin=0us:1us
	expect_all merged/ab.csv test mann-whitney
	expect_all merged/ab.csv rounds ""
	grep -q "A merged folder: its shards ran their rounds on other machines" merged/ab.md ||
		die "ab.md does not say why it is not paired"
	# one run of the same matrix is paired
	run_matrix run m.yaml -o one -q --compare spin=0us:1us
	expect_all one/ab.csv test sign
}

# plan --shard K/N shows the cells and repetitions run --shard K/N runs
# (the reps column, ranges as 1-3,5), with run's checks of the flag
t_plan_shard_shows_what_run_shard_runs() {
	shard_matrix
	# the (cell, rep) pairs of plan --shard's reps column, sorted
	plan_pairs() {
		awk '/^ *[0-9]+  / { n = split($NF, a, ","); for (i = 1; i <= n; i++) {
			m = split(a[i], b, "-"); for (r = b[1] + 0; r <= b[m] + 0; r++) print $1 " " r } }' "$1" | sort
	}
	local k
	for k in 1 2 3; do
		run_matrix plan m.yaml --shard $k/3 --repeat 3; expect_rc 0
		cp "$T/.out" plan$k.txt
		grep -q '  reps$' plan$k.txt || die "plan --shard has no reps column: $(head -3 plan$k.txt)"
		run_matrix run m.yaml --shard $k/3 --repeat 3 -o s$k -q; expect_rc 0
		[ "$(plan_pairs plan$k.txt)" = "$(results_pairs s$k/results.csv)" ] ||
			die "plan --shard $k/3 shows $(plan_pairs plan$k.txt | tr '\n' ,)" \
			    "but run --shard $k/3 ran $(results_pairs s$k/results.csv | tr '\n' ,)"
		grep -q "^3 cells x 3 repetitions = 9 cell runs, of which shard $k/3 runs 3 in " plan$k.txt ||
			die "plan --shard $k/3's counts: $(tail -1 plan$k.txt)"
	done
	# shard 1/3 of 9: i = 0, 3, 6: cell 1 rep 1, cell 2 rep 1, cell 3 rep 1
	[ "$(awk '/^ *[0-9]+  / { print $1 ":" $NF }' plan1.txt | tr '\n' ' ')" = "1:1 2:1 3:1 " ] ||
		die "plan --shard 1/3: $(cat plan1.txt)"
	# ranges: shard 1/2 of 3 repetitions runs i = 0, 2, 4, 6, 8
	run_matrix plan m.yaml --shard 1/2 --repeat 3; expect_rc 0
	[ "$(awk '/^ *[0-9]+  / { print $1 ":" $NF }' "$T/.out" | tr '\n' ' ')" = "1:1,3 2:2 3:1,3 " ] ||
		die "plan --shard 1/2: $(cat "$T/.out")"
	run_matrix plan m.yaml --shard 1/1; expect_rc 0
	grep -q '^   1 .*  1-2$' "$T/.out" || die "plan --shard 1/1: $(cat "$T/.out")"
	# more shards than repetitions: no cell, and says so
	run_matrix plan m.yaml --shard 9/9; expect_rc 0
	expect_out "of which shard 9/9 runs 0 in 0 cells (more shards than cell repetitions)"
	[ -z "$(awk '/^ *[0-9]+  /' "$T/.out")" ] || die "plan --shard 9/9 lists cells: $(cat "$T/.out")"
	# the flag's errors are run's
	run_matrix plan m.yaml --shard 3/2; expect_rc 2; expect_err "--shard 3/2: K (3) must be between 1 and N (2)"
	run_matrix plan m.yaml --shard x; expect_rc 2; expect_err "--shard x: expected K/N"
	run_matrix plan m.yaml --shard 0/2; expect_rc 2; expect_err "--shard 0/2: expected K/N"
	run_matrix plan m.yaml --shard 1/2 --json; expect_rc 2; expect_err "--json and --shard 1/2"
	# repeat: auto: whole cells
	mat a.yaml <<'Y'
name: autoplan
repeat: {min: 2, max: 3, width: 900%}
matrix:
  transport: unix
  size: [16, 32, 64, 128]
Y
	run_matrix plan a.yaml --shard 2/2; expect_rc 0
	[ "$(awk '/^ *[0-9]+  / { print $1 ":" $NF }' "$T/.out" | tr '\n' ' ')" = "2:all 4:all " ] ||
		die "plan --shard 2/2 of repeat: auto: $(cat "$T/.out")"
	expect_out "of which shard 2/2 runs 6 at most in 2 cells"
	# --only: the numbering of the cells left, as run's
	run_matrix plan m.yaml --only transport=tcp --shard 2/2; expect_rc 0
	run_matrix run m.yaml --only transport=tcp --shard 2/2 -o o2 -q; expect_rc 0
	run_matrix plan m.yaml --only transport=tcp --shard 2/2; expect_rc 0
	[ "$(plan_pairs "$T/.out")" = "$(results_pairs o2/results.csv)" ] ||
		die "plan --only --shard: $(plan_pairs "$T/.out" | tr '\n' ,) ran $(results_pairs o2/results.csv | tr '\n' ,)"
}

# merge stopped by SIGTERM (a scancel of the merge job) or SIGHUP while it
# writes OUT.merging-PID: that folder removed, no OUT, and the process ends
# by the signal; an ignored SIGINT (nohup, a background job's) stays
# ignored.  strace holds merge 2 s just after its first mkdir, the
# folder's, so that the signal comes while it writes.
t_merge_interrupted_leaves_nothing() {
	command -v strace >/dev/null || skip "strace missing (DEPS_DEB has it)"
	shard_matrix
	run_shards
	# held_merge SIG [IGNORED]: merge s1 s2 s3 into out, sent SIG while held;
	# sets rc
	held_merge() {
		local sp pid
		# LeakSanitizer cannot run under ptrace; no log_path, whose folders
		# the sanitizers mkdir first: a report goes to m.err, which the
		# teardown reads
		(export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
		 unset LSAN_OPTIONS
		 [ -z "${2:-}" ] || trap '' "$1"
		 exec strace -f -o /dev/null -e trace=mkdir -e inject=mkdir:delay_exit=2000000:when=1 \
			"$MATRIX_BIN" merge s1 s2 s3 -o out -q) >m.out 2>m.err &
		sp=$!
		for _ in $(seq 100); do ls -d out.merging-* >/dev/null 2>&1 && break; sleep 0.05; done
		pid=$(ls -d out.merging-* 2>/dev/null | sed 's/.*merging-//')
		[ -n "$pid" ] || die "SIG$1: no out.merging-PID: $(cat m.err) $(ls -A)"
		kill -"$1" "$pid"
		rc=0; wait "$sp" || rc=$?
	}
	local sig
	for sig in TERM HUP; do
		held_merge $sig
		[ "$rc" -eq $((128 + $(kill -l $sig))) ] || die "SIG$sig: merge exited $rc: $(cat m.err)"
		grep -qx "matrix merge: interrupted by signal $(kill -l $sig): nothing merged into out" m.err ||
			die "SIG$sig: $(cat m.err)"
		[ -z "$(ls -d out out.* 2>/dev/null)" ] || die "SIG$sig left $(ls -d out out.*)"
	done
	held_merge INT ignored
	[ "$rc" -eq 0 ] && [ -f out/meta.csv ] || die "an ignored SIGINT stopped merge (exit $rc): $(cat m.err)"
}
