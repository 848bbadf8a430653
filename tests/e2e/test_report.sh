# Reports after a run: summary.csv, ratios.csv, summary.md, plots/, and
# `matrix report` rebuilding them from the folder alone.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

t_run_writes_reports_and_report_rebuilds_them() {
	mat m.yaml <<'Y'
name: rep
description: report files
repeat: 2
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  size: [64, 4KiB]
  concurrency: [1, 2]
  count: 400
  interval: 50ms
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	for f in summary.csv ratios.csv summary.md; do
		[ -s "out/$f" ] || die "out/$f missing or empty"
	done
	for c in throughput rtt cpu ratios timeline; do
		[ -s "out/plots/$c.gp" ] || die "no plots/$c.gp"
		is_png "out/plots/$c.png" || die "plots/$c.png is not a PNG"
		grep -q '<svg' "out/plots/$c.svg" || die "plots/$c.svg is not an SVG"
	done
	[ "$(csvq out/summary.csv --rows)" -eq 16 ] || die "summary.csv: $(csvq out/summary.csv --rows) rows"
	expect_all out/summary.csv status ok
	expect_all out/summary.csv ok 2
	# default ratio: every transport against the first one listed
	csvq out/ratios.csv name scope | sort -u | grep -qx "tcp/unix	cell" || die "no tcp/unix ratio rows"
	[ "$(csvq out/ratios.csv scope | grep -c geomean)" -eq 1 ] || die "one geomean row expected"
	grep -q '^| pingpong |' out/summary.md && die "pattern rows where a pattern section belongs"
	grep -q '^## stream$' out/summary.md || die "no stream section"
	grep -q '^| size | concurrency | unix | tcp | tcp/unix |$' out/summary.md ||
		die "pivot header: $(grep -m3 '^| size' out/summary.md)"
	grep -q '^### messages per second at the senders$' out/summary.md || die "no sender-side table"
	# the folder alone rebuilds the same files, byte for byte
	mkdir first && cp out/summary.csv out/ratios.csv out/summary.md first/
	run_matrix report out --quiet; expect_rc 0
	for f in summary.csv ratios.csv summary.md; do
		cmp -s "first/$f" "out/$f" || die "matrix report changed $f: $(diff "first/$f" "out/$f" | head -5)"
	done
	# and a chart rebuilds by hand, exactly, from the run folder
	(cd out && gnuplot -c plots/throughput.gp summary.csv "$T/again.svg") 2>/dev/null ||
		die "gnuplot by hand failed"
	cmp -s out/plots/throughput.svg again.svg || die "hand-built throughput.svg differs"
	expect_no_leftovers
}

t_hostile_text_never_runs_a_command() {
	local p=$T/pwned
	cat >m.yaml <<Y
name: hostile
description: "x\`touch $p.1\`y system(\"touch $p.2\") ' . system('touch $p.3') . ' \"\`touch $p.4\`\""
repeat: 1
warmup: 0
matrix:
  transport: [unix, tcp]
  count: 50
report:
  ratios:
    - name: "a\`touch $p.5\`' . system('touch $p.6') . '"
      dimension: transport
      numerator: unix
      denominator: tcp
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	is_png out/plots/throughput.png || die "charts were not rendered"
	is_png out/plots/ratios.png || die "ratio chart was not rendered"
	grep -qF 'touch' out/plots/ratios.gp || die "the hostile ratio name should be in the script, quoted"
	run_matrix report out --quiet; expect_rc 0
	(cd out && for g in plots/*.gp; do gnuplot -c "$g" summary.csv /dev/null; done) >/dev/null 2>&1
	ls "$T" | grep -q pwned && die "a command ran: $(ls "$T" | grep pwned)"
	grep -qF 'a\`touch' out/summary.md || die "ratio name missing from summary.md"
	return 0
}

t_report_reslices_and_refuses_bad_input() {
	printf 'name: sl\nrepeat: 2\nwarmup: 0\nmatrix:\n  transport: [unix, tcp]\n  size: [16, 256]\n  count: 100\n' >m.yaml
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	run_matrix report out --ratio unix/tcp --metric rtt_p50_us --quiet; expect_rc 0
	[ "$(csvq out/ratios.csv name metric | sort -u | tr '\t\n' ': ')" = "unix/tcp:rtt_p50_us " ] ||
		die "re-sliced ratios: $(csvq out/ratios.csv name metric | sort -u)"
	grep -A2 '^### messages per second$' out/summary.md | grep -q 'unix/tcp' &&
		die "the RTT ratio must not be in the msg/s table"
	grep -A2 '^### round-trip time, median (p50)$' out/summary.md | grep -q '| unix/tcp |$' ||
		die "summary.md lacks the new ratio in the p50 table"
	run_matrix report out --ratio size:16/256 --quiet; expect_rc 0
	[ "$(csvq out/ratios.csv name | sort -u)" = "16/256" ] || die "size ratio: $(csvq out/ratios.csv name | sort -u)"
	run_matrix report out --metric msgs_per_sec; expect_rc 2
	expect_err "--metric msgs_per_sec: unknown metric; did you mean 'msgs_per_s'?"
	run_matrix report out --ratio udp/tcp; expect_rc 2
	expect_err "--ratio udp/tcp: udp and tcp must be two values of transport in this run"
	# a ratio no two cells make (they differ in size too) is refused,
	# saying why, and nothing of the folder's reports is replaced
	printf 'name: np\nrepeat: 2\nwarmup: 0\nmatrix:\n  transport: [unix, tcp]\n  size: [16, 256]\n  count: 100\nexclude:\n  - {transport: unix, size: 256}\n  - {transport: tcp, size: 16}\n' >np.yaml
	run_matrix run np.yaml -o np --quiet; expect_rc 0
	cp np/summary.md np.md
	run_matrix report np --ratio unix/tcp; expect_rc 2
	expect_err "--ratio unix/tcp: no two cells of this run differ only in transport (1 cell with transport unix, none with transport tcp and the rest alike); they differ in size"
	cmp -s np.md np/summary.md || die "a refused ratio rewrote summary.md"
	run_matrix report np --ratio size:16/256; expect_rc 2
	expect_err "--ratio size:16/256: no two cells of this run differ only in size"
	run_matrix report nowhere; expect_rc 2
	expect_err "matrix report: nowhere: not a run folder: No such file or directory"
	mkdir empty
	run_matrix report empty; expect_rc 2
	expect_err "empty/matrix.yaml: cannot open: No such file or directory"
	# a row cut short by an interrupted write is left out, with a word
	head -c -20 out/results.csv >cut.csv && cp cut.csv out/results.csv
	run_matrix report out; expect_rc 0
	expect_err "ends in a row an interrupted write cut short; it is left out"
	# an edited matrix copy re-slices too, and its errors name the copy
	printf 'report:\n  ratios:\n    - {dimension: transprt, numerator: unix, denominator: tcp}\n' >>out/matrix.yaml
	run_matrix report out; expect_rc 2
	expect_err "out/matrix.yaml:"
	expect_err "did you mean 'transport'?"
}

t_without_gnuplot_scripts_are_still_written() {
	printf 'name: ng\nrepeat: 1\nwarmup: 0\nmatrix:\n  transport: unix\n  count: 50\n' >m.yaml
	rc=0
	PATH=/nonexistent "$MATRIX_BIN" run m.yaml -o out >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_err "gnuplot is not installed"
	expect_err "gnuplot -c plots/throughput.gp summary.csv plots/throughput.svg"
	[ -s out/plots/throughput.gp ] || die "no script"
	[ ! -e out/plots/throughput.png ] || die "a PNG without gnuplot?"
	[ -s out/summary.md ] || die "no summary.md"
}

# A ratio's reference: (published values) is set beside the measured ratio
# it matches, in summary.md and the JSON export, and nowhere else.
# A report: ratio whose pairs the exclude rules all drop is refused at
# plan time, at the ratio, before anything is measured.
t_matrix_ratio_without_pairs_refused() {
	cat >m.yaml <<'Y'
name: r
matrix:
  transport: [unix, tcp]
  pattern: [pingpong, stream]
exclude:
  - {transport: tcp, pattern: pingpong}
  - {transport: unix, pattern: stream}
report:
  ratios:
    - dimension: transport
      numerator: unix
      denominator: tcp
Y
	run_matrix plan m.yaml; expect_rc 2
	grep -q "^m.yaml:10:7: ratio unix/tcp: no two cells differ only in transport with transport unix and transport tcp" "$T/.err" ||
		die "got: $(cat "$T/.err")"
	sed -i '/transport: unix, pattern: stream/d' m.yaml
	run_matrix plan m.yaml; expect_rc 0
}

t_ratio_reference_beside_ours() {
	mat m.yaml <<'Y'
name: ref
repeat: 2
warmup: 10
matrix:
  size: [16, 64]
  transport: [unix, tcp]
  count: 200
report:
  ratios:
    - name: AF_UNIX/AF_INET
      dimension: transport
      numerator: unix
      denominator: tcp
      reference:
        label: source
        ratios:
          - {size: 16, ratio: 5.7}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	# one row has it (16 B), the other does not
	grep -q '; source 5.7×' out/summary.md || die "summary.md lacks '; source 5.7×'"
	[ "$(grep -c '; source ' out/summary.md)" -eq 1 ] ||
		die "the reference is beside $(grep -c '; source ' out/summary.md) ratios, not 1"
	run_matrix report out --export-json r.json --quiet; expect_rc 0
	jq -e '[.ratios[].cells[] | select(.reference)] | length == 1' r.json >/dev/null ||
		die "JSON: not one pair with a reference"
	jq -e '.ratios[].cells[] | select(.params.size == 16) | .reference ==
		{"label": "source", "ratio": 5.7}' r.json >/dev/null ||
		die "JSON: the 16 B pair's reference: $(jq -c ".ratios[].cells[] | .params" r.json)"
}

# MATRIX_CHARTS=svg draws the SVGs only (report.html then links no PNG);
# any other value but svg,png is refused before anything runs.
t_matrix_charts_svg_only() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	printf 'name: svg\nrepeat: 2\nwarmup: 5\nmatrix:\n  transport: [unix, tcp]\n  count: 100\n' >m.yaml
	MATRIX_CHARTS=svg run_matrix run m.yaml -o out --quiet; expect_rc 0
	ls out/plots/throughput.svg out/plots/ratios.svg >/dev/null || die "no SVG charts"
	[ -z "$(ls out/plots/*.png 2>/dev/null)" ] || die "PNGs drawn: $(ls out/plots/*.png)"
	grep -q 'plots/throughput.svg' out/report.html || die "report.html links no SVG"
	! grep -q '\.png' out/report.html || die "report.html links a PNG that is not there"
	MATRIX_CHARTS=svg,png run_matrix report out --quiet; expect_rc 0
	is_png out/plots/throughput.png || die "svg,png drew no PNG"
	grep -q 'plots/throughput.png' out/report.html || die "report.html links no PNG"
	MATRIX_CHARTS=jpg run_matrix run m.yaml -o out2; expect_rc 2
	expect_err "matrix: MATRIX_CHARTS=jpg: expected svg (SVG images only) or svg,png (both, the default)"
	[ ! -e out2 ] || die "a refused MATRIX_CHARTS made a folder"
}

# A run whose repetitions saw a load average above the machine's cores,
# other processes using more than a quarter of its CPUs, or the
# hypervisor taking more than 10% of their time is said to have shared
# its machine, in summary.md (each clause, and the columns it read) and
# on the console; a quiet one is not.  (The figures are written into
# results.csv by hand: a load average takes a minute to rise, and this
# machine's own load comes and goes.)
t_busy_machine_is_said() {
	printf 'name: busy\nrepeat: 2\nwarmup: 5\nmatrix:\n  transport: [unix, tcp]\n  count: 100\n' >m.yaml
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local cores; cores=$(meta_value out cores)
	[ -n "$cores" ] || die "meta.csv has no cores"
	set_state() {	# LOAD OTHER STEAL for the first N rows, a quiet machine's for the rest
		python3 - out/results.csv "$1" "$2" "$3" "$4" <<'PY'
import csv, sys
path, load, other, steal, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
rows = list(csv.reader(open(path, newline='')))
h = rows[0]
for i, r in enumerate(rows[1:]):
    r[h.index('loadavg_before')] = load if i < n else '0.1'
    r[h.index('loadavg_after')] = '0.1'
    r[h.index('other_cpus')] = other if i < n else '0.01'
    r[h.index('steal_pct')] = steal if i < n else '0.5'
csv.writer(open(path, 'w', newline=''), lineterminator='\n').writerows(rows)
PY
	}
	set_state "$((cores + 3)).4" 0 0 3
	run_matrix report out; expect_rc 0
	local want="the 1-minute load average was above the $cores cores around 3 of the 4 repetitions (up to $((cores + 3)).40)"
	grep -qF "**A busy machine:** $want. Other work shared its CPUs" out/summary.md ||
		die "summary.md: $(grep -i busy out/summary.md)"
	grep -qF "(results.csv's \`loadavg_before\`, \`loadavg_after\`)." out/summary.md ||
		die "summary.md's columns: $(grep -i busy out/summary.md)"
	expect_err "matrix: warning: a busy machine: $want; see summary.md"
	# other processes and the hypervisor, with the load average quiet
	local quarter; quarter=$(awk -v c="$cores" 'BEGIN { printf "%.2f", c / 4 }')
	set_state 0.2 "$((cores + 1)).62" 12.5 2
	run_matrix report out; expect_rc 0
	want="other processes used more than $quarter of the $cores CPUs in 2 of the 4 repetitions (up to $((cores + 1)).62); the hypervisor took more than 10% of the CPUs' time (steal) in 2 of the 4 repetitions (up to 12.5%)"
	grep -qF "**A busy machine:** $want. Other work" out/summary.md ||
		die "summary.md: $(grep -i busy out/summary.md)"
	grep -qF "(results.csv's \`other_cpus\`, \`steal_pct\`)." out/summary.md ||
		die "summary.md's columns: $(grep -i busy out/summary.md)"
	expect_err "matrix: warning: a busy machine: $want; see summary.md"
	# report.html shows summary.md's text
	grep -qF "other processes used more than $quarter of the $cores CPUs" out/report.html ||
		die "report.html does not say the machine was busy"
	set_state 0.2 0.1 1 4
	run_matrix report out; expect_rc 0
	! grep -qi 'busy machine' out/summary.md "$T/.err" || die "a quiet run said busy"
}
