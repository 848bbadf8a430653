# The headline (reports/headline.h): a sentence per ratio and scenario at
# the top of summary.md and on the console, its figures those of
# ratios.csv; which way is better said in words; no interval from one
# repetition; geometric means per pattern; intervals printed as
# `median (low–high)`, never `± half-width`; progress figures formatted as
# summary.md's.

# headline_lines FILE: the sentences under summary.md's "## Headline"
headline_lines() {
	awk '/^## Headline$/ { h = 1; next } h && /^(#|\|)/ { exit } h && sub(/^- /, "")' "$1"
}
# console_lines: the sentences `matrix` printed under "matrix: headline:"
# (report: on stdout, its results; run: on stderr, its stdout the folder)
console_lines() {
	local f="$T/.err"
	grep -q '^matrix: headline:$' "$T/.out" && f="$T/.out"
	sed -n '/^matrix: headline:$/,/^matrix: \(report\|summary\) in/{/^  /s/^  //p}' "$f"
}

# report DIR [FLAGS]: `matrix report` without gnuplot (the hand-made folders
# have no timeline, and no chart is looked at here)
report() {
	rc=0
	PATH=/nonexistent "$MATRIX_BIN" report "$@" >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
}

# synth DIR "TRANSPORTS": a hand-made run folder, 3 repetitions a cell,
# pingpong and stream, sizes 16 64 256 1KiB, concurrency 1 and 2, in cell
# order pattern, transport, concurrency, size (size varies fastest).  tcp
# moves 1000 x concurrency msg/s; unix 1x, 2x, 4x, 8x that by size in
# pingpong and 0.5x in stream; pipe 3x.  Each repetition r is x(0.98+0.02r).
synth() {
	mkdir -p "$1"
	cat >"$1/matrix.yaml" <<Y
name: synth
repeat: 3
matrix:
  pattern: [pingpong, stream]
  transport: [$2]
  concurrency: [1, 2]
  size: [16, 64, 256, 1KiB]
  count: 100
Y
	awk -v tr="$2" 'BEGIN { OFS = ","
		print "cell,pattern,transport,concurrency,size,count,rep,status,elapsed_s,msgs_per_s"
		split("pingpong stream", P, " "); nt = split(tr, T, ", *"); split("1 2", C, " ")
		split("16 64 256 1024", S, " ")
		m[16] = 1; m[64] = 2; m[256] = 4; m[1024] = 8
		for (p = 1; p <= 2; p++) for (t = 1; t <= nt; t++) for (c = 1; c <= 2; c++)
			for (s = 1; s <= 4; s++) {
				cell++
				f = T[t] == "tcp" ? 1 : T[t] == "pipe" ? 3 : P[p] == "stream" ? 0.5 : m[S[s]]
				for (r = 1; r <= 3; r++)
					print cell, P[p], T[t], C[c], S[s], 100, r, "ok", 1,
					      1000 * C[c] * f * (0.98 + 0.02 * r)
			} }' >"$1/results.csv"
}

# A real run: the headline opens summary.md (after the title), the console
# prints the same sentences, and each sentence is a ratios.csv cell row,
# figure for figure, in the order pattern, then size.
t_headline_tops_summary_and_console() {
	mat m.yaml <<'Y'
name: head
description: headline
repeat: 2
warmup: 5
matrix:
  pattern: [stream, pingpong]
  transport: [tcp, unix]
  size: [1KiB, 64]
  count: 300
Y
	run_matrix run m.yaml -o out; expect_rc 0
	[ "$(sed -n 5p out/summary.md)" = "## Headline" ] ||
		die "summary.md does not open with the headline: $(sed -n 1,6p out/summary.md)"
	[ "$(grep -n '^## Headline$' out/summary.md | cut -d: -f1)" -lt \
	  "$(grep -n '^| host |' out/summary.md | cut -d: -f1)" ] || die "the headline is under the header"
	headline_lines out/summary.md >page.txt
	console_lines >console.txt
	[ "$(wc -l <page.txt)" -eq 4 ] || die "$(wc -l <page.txt) headline sentences, expected 4: $(cat page.txt)"
	cmp -s page.txt console.txt || die "console and summary.md headlines differ: $(diff page.txt console.txt)"
	# every cell pair of ratios.csv, as the sentence must say it, in the
	# order a reader wants: per pattern as the matrix lists them (stream
	# first), then by size, 64B before 1KiB though the matrix lists 1KiB first
	csvq out/ratios.csv scope pattern size ratio ci_lo ci_hi ci_level |
		awk -F'\t' '$1 == "cell" {
			sc = sprintf("%s, %s", $2, $3 == 1024 ? "1KiB" : $3 "B"); lv = int($7 * 100 + 1e-9)
			if ($5 <= 1 && $6 >= 1)	# the interval spans 1x: no winner
				s = sprintf("no clear difference between unix and tcp in messages per second: unix/tcp is %.2f× (%.2f–%.2f, ≥%d%%), an interval across 1×: %s", $4, $5, $6, lv, sc)
			else if ($4 >= 1)	# the winner first, its ratio at least 1x
				s = sprintf("unix delivered %.2f× (%.2f–%.2f, ≥%d%%) the messages per second of tcp: %s", $4, $5, $6, lv, sc)
			else
				s = sprintf("tcp delivered %.2f× (%.2f–%.2f, ≥%d%%) the messages per second of unix: %s", 1 / $4, 1 / $6, 1 / $5, lv, sc)
			printf "%s\t%s\t%s\n", $2, $3 + 0, s }' |
		sort -t$'\t' -k1,1r -k2,2n | cut -f3 >want.txt
	[ "$(wc -l <want.txt)" -eq 4 ] || die "ratios.csv: $(wc -l <want.txt) cell pairs, expected 4"
	cmp -s want.txt page.txt || die "headline is not ratios.csv's figures in order:
$(diff want.txt page.txt)"
	# `matrix report` says it too, unless --quiet; so does nothing else
	run_matrix report out; expect_rc 0
	console_lines >again.txt
	cmp -s page.txt again.txt || die "matrix report's headline differs: $(diff page.txt again.txt)"
	run_matrix report out --quiet; expect_rc 0
	grep -q 'headline' "$T/.err" "$T/.out" && die "report --quiet printed the headline"
	run_matrix run m.yaml -o out2 --quiet; expect_rc 0
	grep -q 'headline' "$T/.err" && die "run --quiet printed the headline"
	expect_no_leftovers
}

# Round trips and CPU: lower is better, and the sentence says so in words.
# golden7: unix 16B p50 94.3 µs against tcp's 194.7 (intervals by hand in
# test_golden.sh: 0.41–0.54).
t_rtt_headline_says_lower_is_better() {
	cp -R "$REPO/tests/data/golden7" out
	report out --ratio unix/tcp --metric rtt_p50_us
	headline_lines out/summary.md >page.txt
	# the better side first, its ratio at least 1x (tcp/unix: 1/0.48, the
	# interval 1/0.54 to 1/0.41)
	grep -qxF "unix's median round trip was 2.06× (1.85–2.44) faster than tcp's: pingpong, 16B" page.txt ||
		die "RTT sentence: $(cat page.txt)"
	[ "$(wc -l <page.txt)" -eq 1 ] || die "a sentence for a pair without RTT: $(cat page.txt)"
	report out --ratio unix/tcp --metric rtt_p99_us
	grep -q "^- unix's p99 round trip was [1-9][0-9]*\.[0-9][0-9]× (.*) faster than tcp's: pingpong, 16B$" out/summary.md ||
		die "p99 sentence: $(headline_lines out/summary.md)"
	report out --ratio unix/tcp --metric cpu_us_per_rtt
	grep -q "^- unix was [1-9][0-9]*\.[0-9][0-9]× (.*) cheaper than tcp in CPU time per round trip: pingpong, 16B$" out/summary.md ||
		die "CPU sentence: $(headline_lines out/summary.md)"
	report out --ratio unix/tcp
	grep -q "^- unix delivered 2\.04× (1\.85–2\.41) the messages per second of tcp: pingpong, 16B$" out/summary.md ||
		die "throughput sentence: $(headline_lines out/summary.md)"
	headline_lines out/summary.md | grep -q 'faster than\|cheaper than' && die "a throughput sentence says faster or cheaper"
	return 0
}

# One repetition has no interval: not `5.92× (5.92–5.92)` in the headline
# or the ratio tables, and in summary.csv, ratios.csv and the JSON its
# ends and level are empty (null), not the figure and 0; a ratio with one
# repetition on one side only has none either.
t_one_repetition_has_no_interval() {
	mkdir out && cp "$REPO/tests/data/golden7/matrix.yaml" out/
	awk -F, 'NR == 1 || $6 == 1' "$REPO/tests/data/golden7/results.csv" >out/results.csv
	report out --ratio unix/tcp --export-json out.json
	[ "$(csvq out/summary.csv cell msgs_per_s_n msgs_per_s_median msgs_per_s_ci_lo msgs_per_s_ci_hi \
	     msgs_per_s_ci_level ci_level rtt_p50_us_ci_lo rtt_p50_us_ci_level | awk -F'\t' '$1 == 1' | tr '\t' '|')" = \
	  "1|1|10500||||||" ] ||
		die "summary.csv's one-repetition cell 1: $(csvq out/summary.csv cell msgs_per_s_n msgs_per_s_median msgs_per_s_ci_lo msgs_per_s_ci_hi msgs_per_s_ci_level ci_level | head -3)"
	[ -z "$(csvq out/ratios.csv scope ci_lo ci_hi ci_level | awk -F'\t' '$1 == "cell" { printf "%s%s%s", $2, $3, $4 }')" ] ||
		die "ratios.csv gives one-repetition pairs an interval: $(csvq out/ratios.csv scope num_cell ratio ci_lo ci_hi ci_level)"
	python3 - out.json <<'PY' || die "the JSON export gives one repetition an interval (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["cells"]:
    for m, s in c["stats"].items():
        if s["n"] == 1 and (s["ci_lo"], s["ci_hi"], s["ci_level"]) != (None, None, None):
            sys.exit("cell %d %s: %s" % (c["cell"], m, s))
for p in doc["ratios"][0]["cells"]:
    if (p["ci_lo"], p["ci_hi"], p["ci_level"]) != (None, None, None) or \
            (p["ratio"] is None) != (p["n_den"] == 0):
        sys.exit("pair %s: %s" % (p["num_cell"], p))
PY
	local r
	r=$(csvq out/ratios.csv scope num_cell ratio | awk -F'\t' '$1 == "cell" && $2 == 1 { printf "%.2f", $3 }')
	[ -n "$r" ] || die "ratios.csv has no ratio for cell 1"
	grep -qxF -- "- unix delivered ${r}× (1 repetition: no interval) the messages per second of tcp: pingpong, 16B" out/summary.md ||
		die "one-repetition sentence: $(headline_lines out/summary.md)"
	grep -qF "| ${r}× (1 repetition: no interval) |" out/summary.md || die "the ratio table shows an interval"
	grep -qE '([0-9.]+)–\1[^0-9]' out/summary.md && die "an interval of one point: $(grep -E '([0-9.]+)–\1[^0-9]' out/summary.md)"
	grep -q '≥0%' out/summary.md && die "a 0% interval is printed"
	# the charts draw such a point without whiskers (its median for both
	# ends), not leave it out as gnuplot leaves out a NaN
	# (a table's line: x median lo hi, then the cell or pair; gnuplot_chart.c)
	grep -qE '^[-0-9.]+ ([0-9.e+]+) \1 \1 cell 1$' out/plots/throughput.gp ||
		die "throughput.gp: cell 1's point: $(grep ' cell 1$' out/plots/throughput.gp)"
	grep -qE '^[-0-9.]+ ([0-9.e+]+) \1 \1 pair 1 [0-9]+ msgs_per_s$' out/plots/ratios.gp ||
		die "ratios.gp: pair 1's point: $(grep ' pair 1 ' out/plots/ratios.gp)"
	# one repetition of unix against every tcp one: the ratio, no interval
	rm -rf mix && mkdir mix && cp "$REPO/tests/data/golden7/matrix.yaml" mix/
	awk -F, 'NR == 1 || $3 == "tcp" || $6 == 1' "$REPO/tests/data/golden7/results.csv" >mix/results.csv
	report mix --ratio unix/tcp
	[ "$(csvq mix/ratios.csv scope num_cell n_num n_den ci_lo ci_hi ci_level | awk -F'\t' '$1 == "cell" && $2 == 1' | tr '\t' '|')" = \
	  "cell|1|1|10|||" ] ||
		die "ratios.csv, one repetition over ten: $(csvq mix/ratios.csv scope num_cell n_num n_den ci_lo ci_hi ci_level)"
	grep -qF "× (1 repetition: no interval) the messages per second of tcp: pingpong, 16B" mix/summary.md ||
		die "one repetition over ten: $(headline_lines mix/summary.md)"
	return 0
}

# Geometric means per pattern, in ratios.csv (scope = pattern rows, the
# overall row kept) and summary.md; a folder without a pattern column still
# reports.
t_geometric_mean_per_pattern() {
	synth out "tcp, unix"
	report out
	# by hand: pingpong unix/tcp 1, 2, 4, 8 at each concurrency: (64)^(1/4);
	# stream 0.5; all 16 pairs: (4096 / 256)^(1/16) = 2^(1/4)
	local r=out/ratios.csv
	[ "$(csvq $r scope | grep -c '^pattern$')" -eq 2 ] || die "$(csvq $r scope | grep -c '^pattern$') pattern rows, expected 2"
	csvq $r name scope pattern ratio pairs >rows.txt
	grep -qP '^unix/tcp\tpattern\tpingpong\t2\.828427125\t8$' rows.txt || die "pingpong row: $(cat rows.txt | grep pattern)"
	grep -qP '^unix/tcp\tpattern\tstream\t0\.5\t8$' rows.txt || die "stream row: $(grep pattern rows.txt)"
	grep -qP '^unix/tcp\tgeomean\t\t1\.189207115\t16$' rows.txt || die "the overall row: $(grep geomean rows.txt)"
	grep -qxF '| unix/tcp | msgs_per_s | pingpong | 2.83× | 1.00× to 8.00× | 8 |' out/summary.md ||
		die "summary.md pingpong mean: $(sed -n '/^## Ratios, geometric/,$p' out/summary.md)"
	grep -qxF '| unix/tcp | msgs_per_s | stream | 0.50× | 0.50× to 0.50× | 8 |' out/summary.md ||
		die "summary.md stream mean"
	grep -q '1\.19×' out/summary.md && die "summary.md prints the mean across patterns"
	# an older folder without a pattern column: all pingpong, no pattern rows
	mkdir old
	sed '/^  pattern:/d' out/matrix.yaml >old/matrix.yaml
	awk -F, -v OFS=, '$2 != "stream" { $2 = ""; sub(/,,/, ","); print }' out/results.csv >old/results.csv
	report old
	[ "$(csvq old/ratios.csv scope | grep -c '^pattern$')" -eq 0 ] || die "pattern rows without a pattern column"
	grep -qxF '| unix/tcp | msgs_per_s | pingpong | 2.83× | 1.00× to 8.00× | 8 |' old/summary.md ||
		die "old folder: $(sed -n '/^## Ratios, geometric/,$p' old/summary.md)"
}

# Too many pairs: one sentence per ratio and pattern; past 12, "and N
# more".  Few pairs: each, by pattern, then size, then concurrency, though
# the cells run concurrency before size.
t_headline_stays_readable() {
	synth out "tcp, unix, pipe"
	report out
	headline_lines out/summary.md >page.txt
	[ "$(wc -l <page.txt)" -eq 4 ] || die "$(wc -l <page.txt) sentences for 32 pairs, expected 4: $(cat page.txt)"
	grep -qxF "unix delivered 2.83× (geometric mean of 8 scenarios, 1.00× to 8.00×) the messages per second of tcp: pingpong" page.txt ||
		die "grouped sentence: $(cat page.txt)"
	report out --ratio unix/tcp --ratio pipe/tcp --ratio tcp/unix --ratio pipe/unix \
		--ratio tcp/pipe --ratio unix/pipe --ratio size:64/16
	headline_lines out/summary.md >page.txt
	[ "$(wc -l <page.txt)" -eq 13 ] || die "$(wc -l <page.txt) lines for 14 groups, expected 12 and a last one"
	[ "$(tail -1 page.txt)" = "and 2 more in the ratio tables below." ] || die "last line: $(tail -1 page.txt)"
	console_lines | tail -1 | grep -qx 'and 2 more in the ratio tables of summary.md' ||
		die "console: $(console_lines | tail -1)"
	rm -rf out && synth out "tcp, unix"
	awk -F, 'NR == 1 || ($5 == 16 || $5 == 64)' out/results.csv >r && mv r out/results.csv
	sed -i 's/size: \[16, 64, 256, 1KiB\]/size: [16, 64]/' out/matrix.yaml
	report out
	headline_lines out/summary.md | sed 's/^\([a-z]*\) delivered \([0-9.]*\)× .*: /\1 \2 /;
		s/^no clear difference .* is \([0-9.]*\)× .*: /tie \1 /' >order.txt
	printf '%s\n' "tie 1.00 pingpong, 16B, 1 client" "tie 1.00 pingpong, 16B, 2 clients" \
		"unix 2.00 pingpong, 64B, 1 client" "unix 2.00 pingpong, 64B, 2 clients" \
		"tcp 2.00 stream, 16B, 1 client" "tcp 2.00 stream, 16B, 2 clients" \
		"tcp 2.00 stream, 64B, 1 client" "tcp 2.00 stream, 64B, 2 clients" >want.txt
	cmp -s want.txt order.txt || die "headline order: $(diff want.txt order.txt)"
}

# Intervals are asymmetric: printed as median (low–high), never ±.
# golden7's unix 16B p50: median 94.3, interval 88.4–97.6 (summary.csv).
t_intervals_not_plus_minus() {
	cp -R "$REPO/tests/data/golden7" out
	report out
	grep -n '±' out/summary.md && die "summary.md prints ±"
	local want
	want=$(csvq out/summary.csv cell rtt_p50_us_median rtt_p50_us_ci_lo rtt_p50_us_ci_hi |
		awk -F'\t' '$1 == 1 { printf "%.1f (%.1f–%.1f) µs", $2, $3, $4 }')
	[ "$want" = "94.3 (88.4–97.6) µs" ] || die "summary.csv's cell 1 p50 is $want"
	grep -qF "| 16B | $want ~ ‡ |" out/summary.md || die "no '$want' in the p50 table"
	grep -q 'repetitions ± half' out/summary.md && die "the key still speaks of ± half the width"
	# the other pages print none either
	cp -R "$REPO/tests/data/compare/base" base && cp -R "$REPO/tests/data/compare/new" new
	rc=0
	PATH=/nonexistent "$MATRIX_BIN" compare base new >"$T/.out" 2>"$T/.err" || rc=$?
	[ -s new/compare.md ] || die "no compare.md (exit $rc)"
	grep -n '±' new/compare.md "$T/.err" && die "compare prints ±"
	return 0
}

# Progress figures as summary.md writes them: 1.05M, not 1048.1k; µs.
t_progress_figures_as_summary() {
	mat m.yaml <<'Y'
name: prog
repeat: 1
warmup: 5
matrix:
  transport: unix
  count: 300
Y
	run_matrix run m.yaml -o out; expect_rc 0
	local line x p50
	line=$(grep '^\[cell 1 rep 1/1; 1 of 1\] .*: ok ' "$T/.err") || die "no progress line: $(cat "$T/.err")"
	x=$(sed -n 's/.*: ok \(.* msg\/s\), rtt p50 .*/\1/p' <<<"$line")
	p50=$(sed -n 's/.*, rtt p50 \(.* µs\) p99 .*/\1/p' <<<"$line")
	[ -n "$x" ] && [ -n "$p50" ] || die "progress line not in summary units: $line"
	grep -qF "| pingpong | $x" out/summary.md || die "progress '$x', summary.md: $(grep -m1 'msg/s' out/summary.md)"
	grep -qF "| pingpong | $p50" out/summary.md || die "progress p50 '$p50' is not summary.md's"
	grep -qE '[0-9]{4}\.[0-9]k' "$T/.err" && die "progress prints thousands of k"
	expect_no_leftovers
}

# A ratio across patterns keeps a line when the headline is grouped (more
# than HEADLINE_MAX pairs): its geometric mean over every scenario.
t_grouped_headline_keeps_a_ratio_across_patterns() {
	mat m.yaml <<'Y'
name: hg
repeat: 1
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  size: [64, 1024, 4096]
  concurrency: [1, 2]
  count: 300
Y
	run_matrix run m.yaml -o run -q; expect_rc 0
	run_matrix report run --ratio pattern:stream/pingpong --ratio unix/tcp; expect_rc 0
	# the winner first, whichever this machine's run made it
	grep -Eq 'geometric mean of 6 scenarios.*of (tcp|unix): pingpong$' "$T/.out" ||
		die "no grouped unix/tcp line: $(cat "$T/.out")"
	grep -Eq '^  pattern (stream|pingpong) delivered .* \(geometric mean of 12 scenarios\) the messages per second of pattern (pingpong|stream): every scenario$' "$T/.out" ||
		die "the ratio across patterns has no line: $(cat "$T/.out")"
}
