# The nightly recipe of the README, matrices/nightly.sh, for two nights.

t_two_nights() {
	mat tiny.yaml <<'Y'
name: tiny
repeat: 7
warmup: 5
matrix:
  pattern: pingpong
  transport: [unix, tcp]
  size: 16
  count: 200
Y
	local rc1=0 rc2=0
	# a threshold no A/A pair can cross: the mechanics, not the machine
	MATRIX_FILE=tiny.yaml THRESHOLD=900% sh "$REPO/matrices/nightly.sh" >n1.out 2>n1.err || rc1=$?
	[ "$rc1" -eq 0 ] || die "night 1: exit $rc1: $(cat n1.err)"
	[ -L results/tiny/good ] || die "night 1 did not become the good run"
	local first
	first=$(readlink results/tiny/good)
	[ -s "results/tiny/$first/results.csv" ] || die "good points at $first, not a run"
	sleep 1	# another UTC second: another run folder
	MATRIX_FILE=tiny.yaml THRESHOLD=900% sh "$REPO/matrices/nightly.sh" >n2.out 2>n2.err || rc2=$?
	local second night2
	night2=$(ls -d results/tiny/2* | tail -n 1)
	[ "$night2" != "results/tiny/$first" ] || die "night 2 made no run folder"
	[ -s "$night2/compare.csv" ] || die "night 2 was not compared with night 1"
	grep -qF "Baseline \`results/tiny/good\`" "$night2/compare.md" ||
		die "night 2's compare.md names another baseline"
	second=$(readlink results/tiny/good)
	# a threshold no A/A pair can cross: night 2 becomes the good run,
	# unless the machine-state guard found the two nights' machines
	# unlike (other tests beside this one; each of its reasons names the
	# machine): then it is inconclusive, and the good run stays
	if [ "$rc2" -eq 3 ] && csvq "$night2/compare.csv" why | grep -qE "machine (was busier|lost more|ran its CPUs)"; then
		[ "$second" = "$first" ] || die "an inconclusive night became the good run"
	else
		[ "$rc2" -eq 0 ] || die "night 2: exit $rc2: $(cat n2.err)"
		[ "results/tiny/$second" = "$night2" ] || die "night 2 did not become the good run"
	fi
	[ -s results/tiny/history.csv ] || die "no history"
	[ "$(csvq results/tiny/history.csv run | sort -u | wc -l)" -eq 2 ] ||
		die "history holds $(csvq results/tiny/history.csv run | sort -u | wc -l) runs, not 2"
	# a broken matrix: exit 2, and the good run stays
	printf 'name: tiny\nmatrix:\n  size: 0\n' >tiny.yaml
	local rc3=0
	MATRIX_FILE=tiny.yaml sh "$REPO/matrices/nightly.sh" >n3.out 2>n3.err || rc3=$?
	[ "$rc3" -eq 2 ] || die "a bad matrix: exit $rc3"
	[ "$(readlink results/tiny/good)" = "$second" ] || die "a failed night moved the good link"
	MATRIX_BIN=$MATRIX_BIN expect_no_leftovers
}

# A changed matrix file is refused as a baseline: that night becomes the
# new baseline, and the history keeps the two fingerprints apart.
t_a_changed_matrix_starts_a_new_baseline() {
	mat tiny.yaml <<'Y'
name: "tiny"
repeat: 7
warmup: 5
matrix:
  pattern: pingpong
  transport: unix
  size: 16
  count: 200
Y
	local rc=0 first second
	MATRIX_FILE=tiny.yaml PIN= sh "$REPO/matrices/nightly.sh" >n1.out 2>n1.err || rc=$?
	[ "$rc" -eq 0 ] || die "night 1: exit $rc: $(cat n1.err)"
	first=$(readlink results/tiny/good)
	sleep 1
	echo "# a comment changes the file" >>tiny.yaml
	MATRIX_FILE=tiny.yaml PIN= sh "$REPO/matrices/nightly.sh" >n2.out 2>n2.err || rc=$?
	[ "$rc" -eq 0 ] || die "night 2: exit $rc (a refused baseline is no alarm): $(cat n2.err)"
	grep -q "the machine or the inputs changed" n2.err || die "night 2 does not say why: $(cat n2.err)"
	second=$(readlink results/tiny/good)
	[ "$second" != "$first" ] || die "night 2 did not become the new baseline"
	[ "$(csvq results/tiny/history.csv group | sort -u | wc -l)" -eq 2 ] ||
		die "history does not keep the two matrices apart"
}

# The recipe's own shape (matrices/nightly.yaml): the last good build and
# tonight's as two values of `server` in one run.  Two nights of the same
# build, the second with two CPU hogs of this test's own beside it (started
# and ended by PID): exit 0 or 3, never 1 (no regression is there to find).
# The first night copies tonight's build as the good one.  Its
# repetitions are short: the guard of the nights' comparison reads the
# tasks runnable at their ends.
t_same_build_on_a_busier_night_is_no_alarm() {
	mat tiny.yaml <<Y
name: tiny
warmup: 20
timeout: 20s
programs:
  good:
    server: [results/tiny/good-build/matrix, worker, server, -t, "{transport}", -p, pingpong,
             -s, "{size}", -b, "{endpoint}", --connections, "64"]
    ready: 'listen address='
  new:
    server: [$MATRIX_BIN, worker, server, -t, "{transport}", -p, pingpong, -s, "{size}",
             -b, "{endpoint}", --connections, "64"]
    ready: 'listen address='
matrix:
  pattern: pingpong
  transport: unix
  size: 64
  server: [good, new]
  count: 500
report:
  compare: {dimension: server, baseline: good, candidate: new}
Y
	local rc1=0 rc2=0 h1 h2
	MATRIX_FILE=tiny.yaml PIN= sh "$REPO/matrices/nightly.sh" >n1.out 2>n1.err || rc1=$?
	case $rc1 in 0 | 3) ;; *) die "night 1: exit $rc1: $(cat n1.err)" ;; esac
	grep -q "no good build yet" n1.err || die "night 1 does not say it has no good build"
	[ -x results/tiny/good-build/matrix ] || die "no good build kept"
	local first
	first=$(ls -d results/tiny/2* | head -n 1)
	[ -s "$first/ab.csv" ] || die "night 1 has no in-run A/B"
	sleep 1
	sh -c 'while :; do :; done' &
	h1=$!
	sh -c 'while :; do :; done' &
	h2=$!
	MATRIX_FILE=tiny.yaml PIN= sh "$REPO/matrices/nightly.sh" >n2.out 2>n2.err || rc2=$?
	kill "$h1" "$h2"
	wait "$h1" "$h2" 2>/dev/null
	case $rc2 in 0 | 3) ;; *) die "night 2, the same build on a busier machine: exit $rc2: $(cat n2.err)" ;; esac
	local second
	second=$(ls -d results/tiny/2* | tail -n 1)
	[ "$second" != "$first" ] || die "night 2 made no run folder"
	[ -s "$second/ab.csv" ] || die "night 2 has no in-run A/B"
	grep -q "nightly: .* exit $rc2" n2.err || die "night 2 does not say its exit: $(tail -n 3 n2.err)"
	[ -s results/tiny/history.csv ] || die "no history"
	MATRIX_BIN=$MATRIX_BIN expect_no_leftovers
}
