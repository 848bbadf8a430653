# What the README and --help promise, checked against what the tool does:
# the progress line of a slice, --quiet, --ratio values with units,
# `transports --help`, `report -o DIR`, the timeline's auto interval, the
# shipped matrices' comments, and the README's generated examples
# (tests/tools/readme_examples.sh).

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

# four cells, sizes 16 to 128, pingpong over unix
four_cells() {
	mat m.yaml <<'Y'
name: four
repeat: 2
warmup: 5
matrix:
  transport: unix
  size: [16, 32, 64, 128]
  count: 200
Y
}

t_slice_progress_names_the_matrix_cell() {
	four_cells
	run_matrix run m.yaml -o out --only size=64 --only size=128; expect_rc 0
	local cells progress
	cells=$(csvq out/results.csv cell | sort -u | tr '\n' ' ')
	[ "$cells" = "3 4 " ] || die "results.csv cells: $cells"
	# every progress line starts with results.csv's cell number
	progress=$(grep -oE '^\[cell [0-9]+ rep [0-9]+/2; [0-9]+ of 4\]' "$T/.err" |
		   awk '{ print $2 }' | sort -u | tr '\n' ' ')
	[ "$progress" = "3 4 " ] || die "progress lines name cells '$progress': $(head -4 "$T/.err")"
	[ "$(grep -c '^\[cell ' "$T/.err")" -eq 4 ] || die "4 progress lines expected: $(cat "$T/.err")"
	grep -qE '^\[[0-9]+/[0-9]+ ' "$T/.err" && die "a progress line starts with a count: $(head -2 "$T/.err")"
	cat "$REPO/README.md" "$REPO"/docs/*.md | grep -qF '[cell 9 rep 1/2; 1 of 12]' ||
		die "neither the README nor docs/ shows the progress line"
	return 0
}

t_quiet_prints_only_failures_and_the_folder() {
	four_cells
	run_matrix run m.yaml -o out --only size=16 --quiet; expect_rc 0
	[ "$(cat "$T/.out")" = out ] || die "stdout of --quiet: '$(cat "$T/.out")'"
	[ ! -s "$T/.err" ] || die "stderr of a quiet run that went well: $(cat "$T/.err")"
	# a finished run resumed: nothing runs, and its path still ends stdout
	run_matrix run --resume out --quiet; expect_rc 0
	[ "$(tail -1 "$T/.out")" = out ] || die "run --resume of a finished run, stdout: '$(cat "$T/.out")'"
	# a failure is printed, with the closing count, and the path still ends stdout
	mat bad.yaml <<'Y'
name: bad
repeat: 1
programs:
  gone:
    server: [/nonexistent/server, "{port}"]
matrix:
  pattern: echo
  transport: tcp
  server: gone
  count: 10
Y
	run_matrix run bad.yaml -o badout --quiet; expect_rc 1
	[ "$(tail -1 "$T/.out")" = badout ] || die "stdout after a failure: '$(cat "$T/.out")'"
	expect_err "FAILED"
	expect_err "0 of 1 cell repetitions ok, 1 failed"
	run_matrix run --help; expect_rc 0
	grep -qF "stdout still ends with" "$T/.out" || die "run --help does not say what --quiet keeps"
}

t_ratio_values_take_units_as_only_does() {
	rm -rf out && cp -R "$REPO/tests/data/golden7" out || die "cannot copy golden7"
	run_matrix report out --quiet --ratio size:1024/16; expect_rc 0
	csvq out/ratios.csv numerator denominator ratio ci_lo ci_hi | sort >plain.txt
	run_matrix report out --quiet --ratio size:1KiB/16; expect_rc 0
	csvq out/ratios.csv numerator denominator ratio ci_lo ci_hi | sort >units.txt
	cmp -s plain.txt units.txt || die "size:1KiB/16 differs from size:1024/16: $(diff plain.txt units.txt | head -4)"
	[ "$(csvq out/ratios.csv name | sort -u)" = "1KiB/16" ] || die "ratio name: $(csvq out/ratios.csv name | sort -u)"
	run_matrix report out --quiet --ratio size:2KiB/16; expect_rc 2
	expect_err "--ratio size:2KiB/16: 2KiB and 16 must be two values of size in this run (its values: 16, 1024)"
	# durations too: 100ms as results.csv's 0.1
	mat d.yaml <<'Y'
name: dur
repeat: 1
warmup: 5
matrix:
  pattern: stream
  transport: unix
  size: 1KiB
  duration: [30ms, 60ms]
Y
	run_matrix run d.yaml -o dout --quiet; expect_rc 0
	run_matrix report dout --quiet --ratio duration:60ms/30ms; expect_rc 0
	[ "$(csvq dout/ratios.csv numerator denominator scope | sort -u | head -1)" = "0.06	0.03	cell" ] ||
		die "duration ratio rows: $(csvq dout/ratios.csv numerator denominator scope)"
}

t_transports_help_prints_usage() {
	run_matrix transports --help; expect_rc 0
	[ "$(head -1 "$T/.out")" = "usage: matrix transports" ] || die "transports --help: $(head -2 "$T/.out")"
	grep -q '^tcp6 ' "$T/.out" && die "transports --help printed the table"
	run_matrix transports; expect_rc 0
	grep -q '^tcp6 ' "$T/.out" || die "transports lists no tcp6"
	run_matrix transports --bogus; expect_rc 2
	expect_err "matrix transports: unexpected argument '--bogus'"
}

# sha256 of every file of a folder, with its path
tree_sum() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) | sha256sum; }

t_report_o_writes_elsewhere_and_leaves_the_run_alone() {
	mat m.yaml <<'Y'
name: reo
repeat: 2
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  size: [64, 4KiB]
  count: 300
Y
	run_matrix run m.yaml -o run --quiet; expect_rc 0
	local before after
	before=$(tree_sum run)
	run_matrix report run -o re --ratio size:4KiB/64 --metric rtt_p50_us --quiet; expect_rc 0
	after=$(tree_sum run)
	[ "$before" = "$after" ] || die "report -o changed the run folder"
	for f in summary.csv ratios.csv summary.md timeline.csv plots/throughput.gp plots/timeline.gp; do
		[ -s "re/$f" ] || die "report -o wrote no re/$f"
	done
	[ ! -e re/results.csv ] || die "report -o copied results.csv"
	[ "$(csvq re/ratios.csv name metric | sort -u)" = "4KiB/64	rtt_p50_us" ] ||
		die "re-sliced ratios: $(csvq re/ratios.csv name metric | sort -u)"
	if command -v gnuplot >/dev/null; then
		for c in throughput timeline; do
			[ -s "re/plots/$c.png" ] || die "report -o drew no plots/$c.png"
		done
	fi
	# the same bytes as that report made in the folder itself
	cp -R run same
	run_matrix report same --ratio size:4KiB/64 --metric rtt_p50_us --quiet; expect_rc 0
	for f in summary.csv ratios.csv summary.md plots/throughput.gp plots/timeline.gp; do
		cmp -s "same/$f" "re/$f" || die "report -o $f differs from the in-place one"
	done
	# DIR must not exist or be empty; nothing made on bad input
	run_matrix report run -o re; expect_rc 2
	expect_err "matrix report: -o re: exists and is not an empty directory"
	run_matrix report run -o m.yaml; expect_rc 2
	expect_err "-o m.yaml: exists and is not a directory"
	run_matrix report nosuch -o made; expect_rc 2
	[ ! -e made ] || die "a report of no run folder left -o made behind"
	mkdir empty
	run_matrix report run -o empty --quiet; expect_rc 0
	[ -s empty/summary.md ] || die "report -o into an empty folder wrote nothing"
	[ "$before" = "$(tree_sum run)" ] || die "the run folder changed"
}

t_timeline_interval_is_picked_when_the_matrix_sets_none() {
	mat m.yaml <<'Y'
name: tl
repeat: 2
warmup: 5
matrix:
  pattern: stream
  transport: unix
  size: 1KiB
  concurrency: [1, 2]
  count: [20000, 200000]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	# per repetition: 20 to 100 rows of one interval, summing to its messages
	csvq out/results.csv cell rep messages >res.txt
	csvq out/timeline.csv cell rep interval_s messages covered_s >tl.txt
	awk -F'\t' 'NR == FNR { msgs[$1 "/" $2] = $3; next }
		{ k = $1 "/" $2; n[k]++; sum[k] += $4; iv[k] = iv[k] == "" ? $3 : iv[k]
		  if ($3 != iv[k]) { print k ": two intervals"; bad = 1 }
		  if ($5 > $3) { print k ": covered_s " $5 " over interval_s " $3; bad = 1 } }
		END { for (k in msgs) {
			if (n[k] < 20 || n[k] > 100) { print k ": " n[k] " rows"; bad = 1 }
			if (sum[k] != msgs[k]) { print k ": " sum[k] " of " msgs[k]; bad = 1 } }
		  exit bad }' res.txt tl.txt >why.txt || die "timeline rows: $(head -5 why.txt)"
	meta_value out timeline_interval | grep -q '^auto: 20 to 100 intervals' ||
		die "meta.csv timeline_interval: $(meta_value out timeline_interval)"
	# a longer stream gets a longer interval
	local short long
	short=$(awk -F'\t' '$1 == 1 { print $3; exit }' tl.txt)
	long=$(awk -F'\t' '$1 == 2 { print $3; exit }' tl.txt)
	le "$short" "$long" || die "interval of 20000 messages $short s, of 200000 $long s"
	# a matrix's own interval is kept, and said
	sed -i 's/^  count: .*/  count: 2000\n  interval: 250ms/' m.yaml
	run_matrix run m.yaml -o set --quiet; expect_rc 0
	expect_all set/timeline.csv interval_s 0.25
	[ "$(meta_value set timeline_interval)" = 250ms ] ||
		die "meta.csv timeline_interval with interval set: $(meta_value set timeline_interval)"
}

t_shipped_matrices_say_what_they_do() {
	grep -qi "later feature" "$REPO/matrices/tcp_rtt.yaml" && die "tcp_rtt.yaml still calls programs a later feature"
	local f said rep
	for f in "$REPO"/matrices/*.yaml; do
		rep=$(awk '/^repeat:/ { print $2 }' "$f")
		said=$(grep -oE '^#.* ([0-9]+) repetitions' "$f" | grep -oE '[0-9]+ repetitions' | awk '{ print $1 }')
		for n in $said; do
			[ "$n" = "$rep" ] || die "$(basename "$f") says $n repetitions, runs $rep"
		done
	done
	cat "$REPO/README.md" "$REPO"/docs/*.md | grep -q '`plots/gnuplot.log`\|`gnuplot.log`' ||
		die "neither the README nor docs/ explains plots/gnuplot.log"
}

# The README's example blocks have the shape a fresh run gives them
# (tests/tools/readme_examples.sh --check: the same lines, numbers aside),
# so a change to what the tool prints fails here until `make
# readme-examples` has put it into the README.
t_readme_examples_have_the_shape_of_a_fresh_run() {
	# a stale copy beside it: a column too many, the old progress line
	cat "$REPO/README.md" "$REPO"/docs/*.md >all.md
	sed 's/^| server | client builtin |/| server | extra | client builtin |/;
	     s/^    \[cell \([0-9]*\) rep/    [\1\/4 cell \1 rep/' all.md >stale.md
	cmp -s stale.md all.md && die "the stale copy is the README"
	rc=0
	MATRIX_BIN=$MATRIX_BIN bash "$REPO/tests/tools/readme_examples.sh" --check \
		"$REPO/README.md" "$REPO"/docs/*.md stale.md >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 1
	grep -v '^readme_examples: stale.md: \|^  line \|skipped: no socat' "$T/.err" | grep . &&
		die "the README's examples: $(cat "$T/.err")"
	expect_err "stale.md: block run_console is stale"
	if command -v socat >/dev/null; then expect_err "stale.md: block byo_summary is stale"; fi
}

# The README is what a newcomer reads in five minutes: under 300 lines, and
# every file it sends the reader to (docs/, man pages' sources) is there;
# every guide in docs/ is named in it
t_readme_is_short_and_its_links_lead_somewhere() {
	local n f
	n=$(wc -l <"$REPO/README.md")
	[ "$n" -lt 300 ] || die "README.md has $n lines: 300 at most (the rest belongs in docs/)"
	for f in $(grep -o '](docs/[^)#]*' "$REPO/README.md" | sed 's/^](//'; grep -o '](reports/[^)]*' "$REPO/README.md" | sed 's/^](//'); do
		[ -e "$REPO/$f" ] || die "README.md links to $f, which is not there"
	done
	for f in "$REPO"/docs/*.md; do
		grep -qF "](docs/${f##*/})" "$REPO/README.md" || die "README.md does not send the reader to docs/${f##*/}"
	done
	# the guides' own links between them and to the source
	for f in "$REPO"/docs/*.md; do
		grep -o '](\.\./[^)#]*\|](\([a-zA-Z-]*\.md\)' "$f" | sed 's/^](//' | while read -r l; do
			[ -e "$REPO/docs/$l" ] || die "${f##*/} links to $l, which is not there"
		done
	done
}
