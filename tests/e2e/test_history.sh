# matrix history: the hand-made run folders of tests/data/history (whose
# matrix.yaml says what each holds) read as a results/NAME/ folder and as a
# list: the order, the groups, every figure and verdict of history.csv,
# history.md, the chart script, and bad input.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

# results/hist/ as `matrix run` leaves it: the run folders, a `latest`
# link, and a folder that is no run folder
history_copy() {
	mkdir -p results/hist/notes
	cp -r "$REPO"/tests/data/history/* results/hist/
	ln -s nightly-a results/hist/latest
}

# row_of FILE RUN LABEL METRIC COLUMN...: those columns of that row
row_of() {
	local f=$1 run=$2 label=$3 metric=$4
	shift 4
	csvq "$f" run label metric "$@" |
		awk -F'\t' -v r="$run" -v l="$label" -v m="$metric" '$1 == r && $2 == l && $3 == m' |
		cut -f4-
}

L=pattern=pingpong\ size=16\ transport

t_history_of_a_results_folder() {
	history_copy
	run_matrix history results/hist; expect_rc 0
	expect_out "history: group 2: 1 run, 0 steps; differs from group 1 in:"
	expect_out "  kernel: Linux 6.1.0 golden vs Linux 6.6.0 other"
	expect_out "nightly-a: $L=unix: msgs_per_s 16.1k msg/s vs 20.1k msg/s, -20.0%, regressed (against nightly-b), too little history (1 of 5 nights): the normal spread is not known yet"
	expect_err "matrix: history in results/hist/history.md"
	local c=results/hist/history.csv
	[ "$(csvq $c --rows)" -eq 14 ] || die "$(csvq $c --rows) rows, expected 14 (5 run x cell of group 1, 2 of group 2, 2 metrics each)"
	# in the order they started (nightly-a sorts first by name), group 1 first
	[ "$(csvq $c group run run_index | uniq | tr '\t\n' ' ;')" = \
		"1 20261201T100000Z 1;1 nightly-b 2;1 nightly-a 3;2 other-kernel 1;" ] ||
		die "runs: $(csvq $c group run run_index | uniq | tr '\t\n' ' ;')"
	csvq $c run | grep -qx latest && die "the latest link was read as a run"
	# the first run: figures, no verdict
	[ "$(row_of $c 20261201T100000Z "$L=unix" msgs_per_s start_utc n median ci_lo ci_hi change_vs_previous verdict_vs_previous step previous)" = \
		"	7	20000	19800	20200			0	" ] || die "first run: $(row_of $c 20261201T100000Z "$L=unix" msgs_per_s n median ci_lo ci_hi)"
	[ "$(row_of $c nightly-b "$L=unix" msgs_per_s start_utc median change_vs_previous verdict_vs_previous step previous)" = \
		"2026-12-02T10:00:00Z	20100	0.005	unchanged	0	20261201T100000Z" ] || die "nightly-b unix"
	# the step: -20% against nightly-b, in both metrics
	[ "$(row_of $c nightly-a "$L=unix" msgs_per_s median ci_lo ci_hi change_vs_previous verdict_vs_previous step previous)" = \
		"16080	15919.2	16240.8	-0.2	regressed	1	nightly-b" ] ||
		die "nightly-a unix: $(row_of $c nightly-a "$L=unix" msgs_per_s median ci_lo ci_hi change_vs_previous verdict_vs_previous step previous)"
	[ "$(row_of $c nightly-a "$L=unix" rtt_p50_us verdict_vs_previous step)" = "regressed	1" ] || die "nightly-a unix rtt"
	# nightly-b has no tcp cell: nightly-a's is judged against the first run
	[ "$(row_of $c nightly-a "$L=tcp" msgs_per_s change_vs_previous verdict_vs_previous step previous)" = \
		"0.3	improved	1	20261201T100000Z" ] || die "nightly-a tcp: $(row_of $c nightly-a "$L=tcp" msgs_per_s change_vs_previous verdict_vs_previous previous)"
	# another kernel: a history of its own, between them in time, never compared
	[ "$(row_of $c other-kernel "$L=unix" msgs_per_s median verdict_vs_previous step previous)" = "30000		0	" ] ||
		die "other-kernel: $(row_of $c other-kernel "$L=unix" msgs_per_s median verdict_vs_previous step previous)"
	# the verdicts are those of `matrix compare PREVIOUS RUN`
	run_matrix compare results/hist/nightly-b results/hist/nightly-a -o cmp1 -q
	csvq cmp1/compare.csv label metric verdict | grep -qxF "$L=unix	msgs_per_s	regressed" ||
		die "matrix compare disagrees on unix"
	run_matrix compare results/hist/20261201T100000Z results/hist/nightly-a -o cmp2 -q
	csvq cmp2/compare.csv label metric verdict | grep -qxF "$L=tcp	msgs_per_s	improved" ||
		die "matrix compare disagrees on tcp"
	local md=results/hist/history.md
	grep -qF '**4 runs in 2 groups, 4 steps.**' $md || die "history.md lacks the counts"
	# the first nights: too little history, compare's verdicts stand, marked †
	grep -qF "| $L=unix | 20.0k msg/s | 20.1k msg/s | 16.1k msg/s ▼† |" $md || die "history.md: unix row"
	grep -qF "| $L=tcp | 10.0k msg/s | - | 13.0k msg/s ▲† |" $md || die "history.md: tcp row"
	grep -qF "| $L=unix | 50.0 µs | 49.8 µs | 62.2 µs ▼† |" $md || die "history.md: unix rtt row"
	grep -qF -- "- \`nightly-a\` ▼† $L=unix: msgs_per_s 20.1k msg/s → 16.1k msg/s, -20.0%, **regressed** (against \`nightly-b\`; too little history (1 of 5 nights): the normal spread is not known yet)" $md ||
		die "history.md lacks the unix step"
	grep -qF "The normal night-to-night spread: its last run was judged with one learnt from 1 night (0 for a cell some runs lack); with fewer than 5 the spread is not known yet" $md ||
		die "history.md does not say how many nights the spread is learnt from"
	[ "$(row_of $c nightly-a "$L=unix" msgs_per_s compare_verdict noise_nights gate night_verdict)" = "regressed	1		regressed" ] ||
		die "nightly-a unix, the new columns: $(row_of $c nightly-a "$L=unix" msgs_per_s compare_verdict noise_nights gate night_verdict)"
	[ "$(row_of $c nightly-a "$L=unix" msgs_per_s why)" = "too little history (1 of 5 nights): the normal spread is not known yet" ] ||
		die "nightly-a unix why: $(row_of $c nightly-a "$L=unix" msgs_per_s why)"
	grep -qF '## Group 2: 1 run, 0 steps' $md || die "history.md: group 2"
	grep -qF '  kernel: Linux 6.1.0 golden vs Linux 6.6.0 other' $md || die "history.md: what differs"
	local gp=results/hist/plots/history.gp
	grep -qF "strcol('label') eq '$L=tcp'" $gp || die "the chart does not select the tcp cell"
	grep -qF "mark(strcol('night_verdict'))" $gp || die "the chart does not mark the night verdicts"
	grep -qF "title 'improved'" $gp || die "the chart has no improved mark"
	if command -v gnuplot >/dev/null; then
		[ -s results/hist/plots/history.svg ] && [ -s results/hist/plots/history.png ] ||
			die "no chart images"
		[ -e results/hist/plots/history.log ] && die "gnuplot said: $(cat results/hist/plots/history.log)"
	fi
	# again: the files written there are no run folders
	run_matrix history results/hist -q; expect_rc 0
	[ "$(csvq $c --rows)" -eq 14 ] || die "a second history read its own files"
	grep -qF "nightly-a: $L" "$T/.err" && die "--quiet printed the steps"
	return 0
}

t_history_of_a_list() {
	history_copy
	# latest is nightly-a again: counted once; a 20% change is below 25%
	run_matrix history results/hist/nightly-a results/hist/20261201T100000Z/ results/hist/latest \
		-o out --metric msgs_per_s --threshold 25%; expect_rc 0
	[ "$(csvq out/history.csv --rows)" -eq 4 ] || die "$(csvq out/history.csv --rows) rows, expected 4"
	[ "$(csvq out/history.csv run | uniq | tr '\n' ' ')" = "20261201T100000Z nightly-a " ] || die "runs: $(csvq out/history.csv run | uniq | tr '\n' ' ')"
	expect_all out/history.csv metric msgs_per_s
	[ "$(row_of out/history.csv nightly-a "$L=unix" msgs_per_s verdict_vs_previous step)" = "unchanged	0" ] ||
		die "at 25%, unix: $(row_of out/history.csv nightly-a "$L=unix" msgs_per_s verdict_vs_previous step)"
	[ "$(row_of out/history.csv nightly-a "$L=tcp" msgs_per_s verdict_vs_previous step)" = "improved	1" ] ||
		die "at 25%, tcp"
	grep -qF 'threshold of 25%' out/history.md || die "history.md does not say the threshold"
	# one run folder: a list of one, written into the current folder
	run_matrix history results/hist/nightly-b; expect_rc 0
	[ "$(csvq history.csv --rows)" -eq 2 ] || die "one run: $(csvq history.csv --rows) rows"
	expect_all history.csv step 0
}

# Folder names reach the chart's tick labels: quoted, never run.
t_history_names_stay_text() {
	history_copy
	local odd="x'\`touch pwned\`"
	mkdir lst
	cp -r results/hist/nightly-b "lst/$odd"
	cp -r results/hist/nightly-a lst/
	run_matrix history lst; expect_rc 0
	csvq lst/history.csv run | grep -qxF "$odd" || die "the odd name is not in history.csv"
	grep -qF "'x'.\"'\".'\`touch pwned\`'" lst/plots/history.gp || die "the name is not quoted in the chart"
	[ -e pwned ] || [ -e lst/pwned ] && die "a folder name ran as a command"
	return 0
}

t_history_bad_input() {
	history_copy
	run_matrix history; expect_rc 2
	expect_err "matrix history: expected a folder of run folders, or run folders"
	run_matrix history nowhere; expect_rc 2
	expect_err "matrix history: nowhere: No such file or directory"
	mkdir empty
	run_matrix history empty; expect_rc 2
	expect_err "matrix history: empty: no run folder in it (a folder holding a results.csv)"
	run_matrix history results/hist/nightly-a results/hist/notes; expect_rc 2
	expect_err "matrix history: results/hist/notes: not a run folder (no results.csv in it)"
	# a run folder that cannot be read: named, and nothing written
	echo 'matrix: [' >results/hist/nightly-b/matrix.yaml
	run_matrix history results/hist; expect_rc 2
	expect_err "results/hist/nightly-b/matrix.yaml"
	run_matrix history results/hist/nightly-a --metric msgs_per_sec; expect_rc 2
	expect_err "matrix history: --metric msgs_per_sec: no such metric; did you mean 'msgs_per_s'?"
	run_matrix history results/hist/nightly-a --threshold 5; expect_rc 2
	expect_err "matrix history: --threshold 5: give a percentage above 0 and below 1000%, such as 5%"
	[ -e results/hist/history.csv ] || [ -e history.csv ] && die "bad input wrote history.csv"
	run_matrix histroy; expect_rc 2
	expect_err "did you mean 'history'?"
	return 0
}
