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
	[ "$rc2" -eq 0 ] || die "night 2: exit $rc2: $(cat n2.err)"
	local second
	second=$(readlink results/tiny/good)
	[ "$second" != "$first" ] || die "night 2 did not become the good run"
	[ -s "results/tiny/$second/compare.csv" ] || die "night 2 was not compared with night 1"
	grep -qF "Baseline \`results/tiny/good\`" "results/tiny/$second/compare.md" ||
		die "night 2's compare.md names another baseline"
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
