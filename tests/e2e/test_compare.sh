# matrix compare, run --baseline and the in-run A/B: verdicts and exit
# statuses on hand-made run folders (tests/data/compare, whose matrix.yaml
# says what each cell holds), and on real runs.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

compare_copy() {
	cp -r "$REPO/tests/data/compare/base" "$REPO/tests/data/compare/new" .
}

# verdict_of FILE LABEL METRIC: the verdict column of that row of compare.csv
verdict_of() {
	csvq "$1" label metric verdict | awk -F'\t' -v l="$2" -v m="$3" '$1 == l && $2 == m { print $3 }'
}

# final DIR/NAME.csv: the final verdicts, those of the second look
# (DIR/look2/NAME.csv) when there was one
final() {
	local d=${1%/*} f=${1##*/}
	if [ -e "$d/look2/$f" ]; then echo "$d/look2/$f"; else echo "$1"; fi
}

# The exit status must agree with the final verdicts of compare.csv or
# ab.csv (the second look's, when there was one).
expect_status_of_verdicts() {
	local csv want=0 verdicts
	csv=$(final "$1")
	verdicts=$(csvq "$csv" verdict)
	grep -qx inconclusive <<<"$verdicts" && want=3
	grep -qx regressed <<<"$verdicts" && want=1
	[ "$rc" -eq "$want" ] || die "exit status $rc with verdicts $(sort <<<"$verdicts" | uniq -c | tr '\n' ' ') in $csv"
}

t_compare_verdicts_of_known_changes() {
	compare_copy
	run_matrix compare base new; expect_rc 1
	local c=new/compare.csv
	local l16="pattern=pingpong size=16 transport" l1k="pattern=pingpong size=1024 transport"
	[ "$(verdict_of $c "$l16=unix" msgs_per_s)" = regressed ] || die "unix 16: $(verdict_of $c "$l16=unix" msgs_per_s)"
	[ "$(verdict_of $c "$l16=unix" rtt_p50_us)" = regressed ] || die "unix 16 rtt: not regressed"
	[ "$(verdict_of $c "$l16=tcp" msgs_per_s)" = improved ] || die "tcp 16: not improved"
	[ "$(verdict_of $c "$l16=tcp" rtt_p50_us)" = improved ] || die "tcp 16 rtt: not improved"
	[ "$(verdict_of $c "$l16=udp" msgs_per_s)" = inconclusive ] || die "udp 16: not inconclusive"
	[ "$(verdict_of $c "$l1k=unix" msgs_per_s)" = unchanged ] || die "unix 1KiB: not unchanged"
	[ "$(verdict_of $c "$l1k=tcp" msgs_per_s)" = inconclusive ] || die "tcp 1KiB: not inconclusive"
	[ "$(verdict_of $c "$l1k=udp" "")" = added ] || die "udp 1KiB: not added"
	# why, and the figures of the regression: 16000 / 20000 - 1
	csvq $c label metric why | grep -qF "$l1k=tcp	msgs_per_s	too few repetitions" ||
		die "tcp 1KiB is not said to have too few repetitions"
	csvq $c label metric change base_median new_median base_n new_n |
		grep -qF "$l16=unix	msgs_per_s	-0.2	20000	16000	7	7" ||
		die "unix 16 figures: $(csvq $c label metric change base_median new_median | head -1)"
	[ "$(csvq $c --rows)" -eq 11 ] || die "$(csvq $c --rows) rows, expected 11 (5 cells x 2 metrics + 1 added)"
	expect_out "$l16=unix: msgs_per_s 16.0k msg/s vs 20.0k msg/s, -20.0% ("
	expect_out "compare: 2 regressed, 2 improved, 2 unchanged, 4 inconclusive, 1 added, 0 removed (threshold 5%, new vs base)"
	grep -qF '**2 regressed, 2 improved, 2 unchanged, 4 inconclusive**, 1 added, 0 removed.' new/compare.md ||
		die "compare.md lacks the counts"
	grep -qF "| $l16=unix | msgs_per_s | 20.0k msg/s | 16.0k msg/s | -20.0% (" new/compare.md ||
		die "compare.md lacks the unix 16 row"
	[ -s new/plots/compare.gp ] || die "no chart script"
	if command -v gnuplot >/dev/null; then
		[ -s new/plots/compare.svg ] && [ -s new/plots/compare.png ] || die "no chart images"
	fi
	# at a 25% threshold the 20% regression is no longer beyond it
	run_matrix compare base new --threshold 25% -o t25 --metric msgs_per_s; expect_rc 3
	[ "$(verdict_of t25/compare.csv "$l16=unix" msgs_per_s)" = unchanged ] || die "25%: unix 16 not unchanged"
	[ "$(verdict_of t25/compare.csv "$l16=tcp" msgs_per_s)" = improved ] || die "25%: tcp 16 not improved"
	csvq t25/compare.csv metric | grep -q rtt_p50_us && die "--metric msgs_per_s compared rtt_p50_us"
	return 0
}

t_compare_a_folder_with_itself() {
	compare_copy
	run_matrix compare base base -o aa; expect_rc 3
	csvq aa/compare.csv verdict | grep -qE '^(regressed|improved)$' && die "a folder against itself changed"
	expect_status_of_verdicts aa/compare.csv
	# only the cells that do not tell: too noisy or too few
	run_matrix compare base base -o aa2 --metric rtt_p50_us; expect_rc 3
}

t_compare_refuses_other_machines_unless_forced() {
	compare_copy
	sed -i 's/^kernel,.*/kernel,Linux 9.9.9 other/' new/meta.csv
	run_matrix compare base new; expect_rc 2
	expect_err "matrix compare: base and new differ in machine or inputs (--force compares them anyway):"
	expect_err "  kernel: Linux 6.1.0 golden vs Linux 9.9.9 other"
	[ -e new/compare.csv ] && die "a refused comparison wrote compare.csv"
	run_matrix compare base new --force; expect_rc 1
	grep -qF "kernel: Linux 6.1.0 golden vs Linux 9.9.9 other" new/compare.md ||
		die "compare.md does not say what was forced"
	echo "# edited" >>new/matrix.yaml
	sed -i 's/^kernel,.*/kernel,Linux 6.1.0 golden/' new/meta.csv
	run_matrix compare base new; expect_rc 2
	expect_err "  matrix.yaml: the two files differ"
}

t_compare_failed_cell_is_status_2() {
	compare_copy
	cp -r base failed
	# cell 2 (tcp 16) timed out in every repetition of the new folder
	awk -F, -v OFS=, 'NR > 1 && $1 == 2 { $6 = "timeout"; $8 = ""; $9 = "" } { print }' \
		base/results.csv >failed/results.csv
	run_matrix compare base failed -q; expect_rc 2
	csvq failed/compare.csv label metric why |
		grep -qF "pattern=pingpong size=16 transport=tcp	msgs_per_s	failed on a side" ||
		die "the failed cell is not said to have failed"
}

t_compare_bad_input() {
	compare_copy
	run_matrix compare base; expect_rc 2
	expect_err "matrix compare: expected BASE_DIR and NEW_DIR"
	run_matrix compare base nowhere; expect_rc 2
	expect_err "matrix compare: nowhere: not a run folder: No such file or directory"
	run_matrix compare base new --threshold 5; expect_rc 2
	expect_err "matrix compare: --threshold 5: give a percentage above 0 and below 1000%, such as 5%"
	run_matrix compare base new --metric msgs_per_sec; expect_rc 2
	expect_err "matrix compare: --metric msgs_per_sec: no such metric; did you mean 'msgs_per_s'? (matrix report --help lists them)"
	[ -e new/compare.csv ] && die "bad input wrote compare.csv"
	return 0
}

# A real run: the matrix's report: compare: makes the in-run A/B, the
# folder's path is stdout's last line, and the exit status is compare's.
t_in_run_ab_and_baseline() {
	mat m.yaml <<'Y'
name: ab
repeat: 7
warmup: 5
matrix:
  pattern: pingpong
  transport: [unix, tcp]
  size: 16
  count: 100
report:
  compare: {dimension: transport, baseline: unix, candidate: tcp, threshold: 10%}
Y
	rc=0
	"$MATRIX_BIN" run m.yaml -o out >run.out 2>run.err || rc=$?
	[ "$(tail -n 1 run.out)" = out ] || die "stdout's last line: '$(tail -n 1 run.out)'"
	[ "$(wc -l <run.out)" -eq 1 ] || die "stdout holds more than the folder: $(cat run.out)"
	expect_all out/results.csv status ok
	expect_status_of_verdicts out/ab.csv run.err
	[ "$(csvq out/ab.csv --rows)" -eq 2 ] || die "expected 2 rows (msgs_per_s, rtt_p50_us)"
	expect_all out/ab.csv label "pattern=pingpong size=16 count=100"
	grep -qF 'compare: ' run.err || die "no verdict line on stderr"
	grep -qF "In-run A/B in \`out\` along \`transport\`." out/ab.md || die "compare.md header"
	# the same from the folder, the other way round, by flag
	run_matrix report out --compare transport=tcp:unix --metric msgs_per_s
	expect_status_of_verdicts out/ab.csv
	expect_all out/ab.csv base_cell 2
	run_matrix report out --compare size=16:64; expect_rc 2
	expect_err "matrix report: --compare size=16:64: no cell has size 64"
	run_matrix report out --compare sizes=16:64; expect_rc 2
	expect_err "matrix report: --compare: sizes is not a dimension of out/matrix.yaml"
	run_matrix report out --compare transport=unix; expect_rc 2
	expect_err "expected DIM=BASELINE:CANDIDATE"
	# and a second run against the first
	rc=0
	"$MATRIX_BIN" run m.yaml -o again --baseline out -q >run2.out 2>run2.err || rc=$?
	[ "$(tail -n 1 run2.out)" = again ] || die "stdout's last line: $(tail -n 1 run2.out)"
	# the in-run A/B (ab.*) and the comparison with the baseline (compare.*)
	[ -s again/ab.csv ] && [ -s again/compare.csv ] || die "no ab.csv or compare.csv in the second run"
	csvq again/compare.csv base_cell new_cell | awk -F'\t' '$1 != $2 { exit 1 }' ||
		die "a cell was matched to another cell number"
	case $rc in 0 | 1 | 3) ;; *) die "run --baseline exit $rc: $(cat run2.err)" ;; esac
	expect_no_leftovers
}

# The README's recipe for gating a build: two builds of the server as two
# values of a programs dimension, judged by the in-run A/B (here the same
# binary twice: an A/A pair, which must not regress far beyond noise).
t_two_builds_as_programs() {
	mat m.yaml <<Y
name: builds
repeat: 4
warmup: 5
timeout: 20s
programs:
  old:
    server: [$MATRIX_BIN, worker, server, -t, tcp, -p, pingpong, -s, "{size}",
             -b, "127.0.0.1:{port}", --connections, "64"]
    ready: 'listen address='
  new:
    server: [$MATRIX_BIN, worker, server, -t, tcp, -p, pingpong, -s, "{size}",
             -b, "127.0.0.1:{port}", --connections, "64"]
    ready: 'listen address='
matrix:
  pattern: pingpong
  transport: tcp
  server: [old, new]
  size: [64, 4KiB]
  count: 200
report:
  compare: {dimension: server, baseline: old, candidate: new, threshold: 5%}
Y
	run_matrix run m.yaml -o out
	expect_all out/results.csv status ok
	[ "$(csvq out/ab.csv --rows)" -eq 4 ] || die "expected 4 rows: 2 sizes x 2 metrics"
	# 4 paired rounds can never reach p < 0.0304 (2^-4): the second look
	# runs four times as many more, and 20 can
	csvq out/ab.csv why | grep -qx "too few paired rounds" || die "4 rounds not called too few: $(cat out/ab.csv)"
	[ -s out/look2/ab.csv ] || die "no second look"
	csvq out/look2/ab.csv why | grep -q "too few" && die "20 rounds called too few: $(cat out/look2/ab.csv)"
	expect_all out/look2/ab.csv rounds 20
	expect_status_of_verdicts out/ab.csv
	expect_no_leftovers
}

# A regression the in-run A/B finds at the first look stands; a row the
# first look leaves inconclusive (too few rounds) gets as many rounds
# again, and the second look decides it: a server that spins 2 ms per
# request is slower in every round.
t_first_look_stands_and_second_look_decides() {
	mat m.yaml <<'Y'
name: looks
repeat: 7
warmup: 2
matrix:
  pattern: pingpong
  transport: unix
  spin: [0us, 2ms]
  size: 16
  count: 20
report:
  compare: {dimension: spin, baseline: 0us, candidate: 2ms}
Y
	local label="pattern=pingpong transport=unix size=16 count=20"
	run_matrix run m.yaml -o out -q; expect_rc 1
	[ "$(verdict_of out/ab.csv "$label" msgs_per_s)" = regressed ] ||
		die "a 2 ms spin is not a regression: $(cat out/ab.csv)"
	[ -e out/look2 ] && die "a second look after a decided first"
	expect_all out/ab.csv look 1
	expect_all out/ab.csv rounds 7
	grep -q '^paired_by,spin$' out/meta.csv || die "meta.csv has no paired_by"
	# 4 rounds: too few at the first look, decided at the second
	run_matrix run m.yaml -o few -q --repeat 4; expect_rc 1
	expect_all few/ab.csv verdict inconclusive
	expect_err "matrix: a second look at 2 inconclusive rows: 2 cells, 16 more rounds, into few/look2"
	[ "$(csvq few/look2/results.csv --rows)" -eq 32 ] || die "the second look ran $(csvq few/look2/results.csv --rows) repetitions, not 2 cells x 16"
	expect_all few/look2/results.csv status ok
	expect_all few/look2/ab.csv verdict regressed
	expect_all few/look2/ab.csv look 2
	expect_all few/look2/ab.csv rounds 20
	# `report` judges both looks again, the same
	cp few/look2/ab.csv ab.before
	run_matrix report few -q; expect_rc 1
	cmp -s ab.before few/look2/ab.csv || die "report judged the second look otherwise"
	expect_no_leftovers
}

# craft FOLDER RTT_A RTT_B: results.csv's rtt_p50_us (and msgs_per_s, its
# inverse) of spin 0us and of the other spin, repetition by repetition,
# from two comma-separated lists
craft() {
	python3 - "$1/results.csv" "$2" "$3" <<'P'
import csv, sys
path, a, b = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
with open(path, newline="") as f:
    rows = list(csv.reader(f))
h = rows[0]
s, rep, rtt, thr = (h.index(k) for k in ("spin", "rep", "rtt_p50_us", "msgs_per_s"))
for r in rows[1:]:
    v = float((a if float(r[s]) == 0 else b)[int(r[rep]) - 1])
    r[rtt], r[thr] = repr(v), repr(1e6 / v)
with open(path, "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
P
}

# Hand-made rounds in a real folder: a regression only pairing reveals (every
# round 10% slower while the rounds drift +-30%), and a drift pairing
# cancels (an A/A under the same drift); then the same figures as two
# separate folders, where the drift hides the regression.
t_pairing_by_round() {
	mat m.yaml <<'Y'
name: paired
repeat: 7
warmup: 2
matrix:
  pattern: pingpong
  transport: unix
  spin: [0us, 1us]
  size: 16
  count: 50
Y
	run_matrix run m.yaml -o out -q; expect_rc 0
	local base=100,130,90,125,110,95,120
	craft out "$base" 110,143,99,137.5,121,104.5,132
	run_matrix report out -q --compare spin=0us:1us; expect_rc 1
	expect_all out/ab.csv verdict regressed
	expect_all out/ab.csv rounds 7
	expect_all out/ab.csv test sign
	csvq out/ab.csv metric change | grep -q '^rtt_p50_us	0.1$' ||
		die "the paired change is not +10%: $(csvq out/ab.csv metric change)"
	[ -e out/look2 ] && die "report made a second look"
	craft out "$base" 100.4,129.6,90.3,125.5,109.6,95.2,119.7
	run_matrix report out -q --compare spin=0us:1us; expect_rc 0
	expect_all out/ab.csv verdict unchanged
	# the same regression as two folders: one cell each, relabelled alike
	craft out "$base" 110,143,99,137.5,121,104.5,132
	python3 - out <<'P'
import csv, os, shutil, sys
src = sys.argv[1]
for name, spin in (("sepa", "0"), ("sepb", "1e-06")):
    shutil.copytree(src, name, ignore=shutil.ignore_patterns("ab.*", "plots", "look2"))
    with open(os.path.join(name, "results.csv"), newline="") as f:
        rows = list(csv.reader(f))
    s = rows[0].index("spin")
    keep = [rows[0]] + [r for r in rows[1:] if r[s] == spin]
    for r in keep[1:]:
        r[s] = "0"
    with open(os.path.join(name, "results.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(keep)
P
	run_matrix compare sepa sepb -q; expect_rc 3
	csvq sepb/compare.csv metric verdict | grep -q '^rtt_p50_us	inconclusive$' ||
		die "two separate folders found what only pairing can: $(cat sepb/compare.csv)"
	expect_all sepb/compare.csv test mann-whitney
}

# Two separate runs whose machines were not equally quiet: the baseline
# made a hundred times faster is a regression, until the new run's rows say
# other processes used 1.6 CPUs where the baseline's used none; then the
# guard makes it inconclusive, with the reason, and exit 3.
t_busy_machine_pair_is_inconclusive() {
	mat m.yaml <<'Y'
name: busy
repeat: 7
warmup: 2
matrix:
  pattern: pingpong
  transport: unix
  size: 16
  count: 40
Y
	run_matrix run m.yaml -o b -q; expect_rc 0
	run_matrix run m.yaml -o n -q; expect_rc 0
	python3 - b/results.csv n/results.csv <<'P'
import csv, sys
for path, other, faster in ((sys.argv[1], "0", 100), (sys.argv[2], "1.6", 1)):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    h = rows[0]
    o, t, r = h.index("other_cpus"), h.index("msgs_per_s"), h.index("rtt_p50_us")
    for row in rows[1:]:
        row[o] = other
        row[t] = repr(float(row[t]) * faster)
        row[r] = repr(float(row[r]) / faster)
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
P
	run_matrix compare b n -q; expect_rc 3
	expect_all n/compare.csv verdict inconclusive
	csvq n/compare.csv why | grep -q "^the new run's machine was busier: other processes used 1.60 CPUs against 0.00" ||
		die "the guard's reason: $(csvq n/compare.csv why)"
	# the same pair, equally quiet: the regression is found
	python3 - n/results.csv <<'P'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
o = rows[0].index("other_cpus")
for row in rows[1:]:
    row[o] = "0"
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
P
	run_matrix compare b n -q; expect_rc 1
	expect_all n/compare.csv verdict regressed
}

# What a run will compare is checked before it runs anything.
t_run_checks_its_comparisons_first() {
	mat m.yaml <<'Y'
name: pre
repeat: 2
matrix:
  transport: [unix, tcp]
  count: 10
Y
	run_matrix run m.yaml -o a --baseline nowhere; expect_rc 2
	expect_err "matrix run: --baseline nowhere: not a run folder (nowhere/results.csv: No such file or directory)"
	run_matrix run m.yaml -o b --compare transport=tcp:udp; expect_rc 2
	expect_err "matrix run: --compare: udp is not a value of dimension 'transport'"
	run_matrix run m.yaml -o c --compare transport=tcp:tcp; expect_rc 2
	expect_err "matrix run: --compare transport=tcp:tcp: the baseline and the candidate are the same value"
	run_matrix run m.yaml -o d --compare size=1:2; expect_rc 2
	expect_err "matrix run: --compare: size is not a key of matrix:"
	[ -e a ] || [ -e b ] || [ -e c ] || [ -e d ] && die "a refused run made its folder"
	return 0
}

# blank_state RESULTS [FASTER]: the machine-state columns emptied, as an
# older folder's (the guard then has nothing to hold against another
# run's load), and msgs_per_s times FASTER, rtt_p50_us over it (default 1)
blank_state() {
	python3 - "$1" "${2:-1}" <<'P'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h, f = rows[0], float(sys.argv[2])
t, r = h.index("msgs_per_s"), h.index("rtt_p50_us")
blank = [h.index(k) for k in ("other_cpus", "steal_pct", "iowait_pct", "runnable", "cpu_mhz",
                              "loadavg_before", "loadavg_after")]
for row in rows[1:]:
    row[t], row[r] = repr(float(row[t]) * f), repr(float(row[r]) / f)
    for k in blank:
        row[k] = ""
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
P
}

# --set and --baseline together: the second look runs the same
# overridden matrix, so the same fingerprint.  A new run of 4 repetitions
# has too few for the order-statistic interval of its median (7 needed);
# its second look makes 16, and the regression is found.  A baseline of 4
# could never have one: that row is not looked at again.
t_set_with_baseline_second_look() {
	mat m.yaml <<'Y'
name: setbase
repeat: 7
warmup: 2
matrix:
  pattern: pingpong
  transport: unix
  size: 16
  count: 5000
Y
	run_matrix run m.yaml -o b1 -q --set count=40; expect_rc 0
	# the baseline made a hundred times faster than any machine: a
	# regression; its machine-state figures blanked, as an older folder's,
	# so that the guard has nothing to hold against tonight's load
	blank_state b1/results.csv 100
	run_matrix run m.yaml -o n1 -q --set count=40 --repeat 4 --baseline b1; expect_rc 1
	grep -q 'differ in machine or inputs' "$T/.err" && die "the second look was refused: $(cat "$T/.err")"
	csvq n1/compare.csv why | grep -qx "too few repetitions for an interval: 4 new, 7 needed" ||
		die "first look: $(cat n1/compare.csv)"
	expect_all n1/look2/compare.csv verdict regressed
	expect_all n1/look2/compare.csv new_n 20
	# a baseline of 4: no second look can help (its machine state blanked
	# too, so that the guard's reason does not stand before this one)
	run_matrix run m.yaml -o b2 -q --set count=40 --repeat 4; expect_rc 0
	blank_state b2/results.csv
	run_matrix run m.yaml -o n2 -q --set count=40 --baseline b2; expect_rc 3
	csvq n2/compare.csv why | grep -qx "too few repetitions for an interval: 4 in the baseline, 7 needed" ||
		die "a short baseline: $(cat n2/compare.csv)"
	[ -e n2/look2 ] && die "a second look that cannot help ran"
	return 0
}

# compare's, report's and history's results are on stdout (a script greps
# them), the notes on stderr; --export-json - is the JSON alone on stdout;
# run refuses it, naming the flag (its stdout is the folder)
t_results_on_stdout_json_on_dash() {
	cp -r "$REPO/tests/data/compare" cmp
	cp -r "$REPO/tests/data/tiny-run" tiny
	cp -r "$REPO/tests/data/history" hist
	run_matrix compare cmp/base cmp/new; expect_rc 1
	grep -q 'regressed$' "$T/.out" || die "no regressed cell on stdout: $(cat "$T/.out")"
	expect_out "compare: 2 regressed, 2 improved"
	grep -q 'regressed' "$T/.err" && die "verdicts on stderr too: $(cat "$T/.err")"
	expect_err "matrix: comparison in cmp/new/compare.md"
	# in a pipe, as a script uses it
	matrix_pipe() { "$MATRIX_BIN" "$@" 2>/dev/null | grep -c 'regressed$' || true; }
	[ "$(matrix_pipe compare cmp/base cmp/new -o p1)" -eq 2 ] || die "compare | grep regressed: $(matrix_pipe compare cmp/base cmp/new -o p1b)"
	# its JSON on stdout, verdict lines on stderr; exit status kept
	run_matrix compare cmp/base cmp/new -o cj --export-json -; expect_rc 1
	jq -e '.verdicts[0].kind == "baseline" and .verdicts[0].counts.regressed == 2 and (.cells | length) > 0' \
		"$T/.out" >/dev/null || die "compare --export-json -: $(head -c 300 "$T/.out")"
	expect_err "compare: 2 regressed, 2 improved"
	[ ! -e ./- ] && [ ! -e cj/- ] || die "--export-json - wrote a file named -"
	[ "$("$MATRIX_BIN" compare cmp/base cmp/new -o cj2 --export-json - 2>/dev/null | jq -r '.verdicts[0].rows | map(select(.verdict == "regressed")) | length')" -eq 2 ] ||
		die "compare --export-json - | jq: not the regressed rows"
	run_matrix compare cmp/base cmp/new -o cj3 --export-json cmp/new/results.csv; expect_rc 2
	expect_err "--export-json cmp/new/results.csv: that is results.csv of the run folder"
	run_matrix history hist; expect_rc 0
	expect_out "history: group 1: 3 runs, 4 steps"
	run_matrix report tiny; expect_rc 0
	expect_out "matrix: headline:"
	expect_err "matrix: report in tiny/report.html, summary in tiny/summary.md"
	run_matrix report tiny --export-json -; expect_rc 0
	jq -e '.run_dir and .cells' "$T/.out" >/dev/null || die "stdout is not the JSON: $(head -c 300 "$T/.out")"
	expect_err "matrix: headline:"
	[ -e tiny/- ] || [ -e ./- ] && die "--export-json - wrote a file named -"
	run_matrix run --export-json - "$REPO/tests/data/tiny-run/matrix.yaml"; expect_rc 2
	expect_err "matrix run: --export-json -: run's stdout is its folder's path alone"
	[ ! -s "$T/.out" ] || die "run printed: $(cat "$T/.out")"
}
