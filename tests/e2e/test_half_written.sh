# Issue 26, items 10, 11 and 14, and merge's meta.csv: a folder whose
# reports were cut short says so and `--resume` finishes them; what a dead
# writer left under a temporary name goes; user text reaches gnuplot's
# labels and every Markdown file as text; a merged folder names its shards
# and their seeds so that each can be read back.

# A small matrix, unix against tcp, its description and ratio names $2..
small_matrix() {
	cat >"$1" <<Y
name: half
description: ${2:-a small run}
repeat: 2
warmup: 5
matrix:
  transport: [unix, tcp]
  count: 200
${3:-}
Y
}

# gnuplot on PATH ($T/gp/gnuplot) that begins the first chart's image
# under the temporary name it is given, writes its runner's pid (its
# parent) into $T/gp/runner.pid, then waits until that runner is gone: the
# test kills the runner then, so the kill falls while the reports are
# written, at that point and no other, however loaded the machine.
blocking_gnuplot() {
	mkdir -p "$T/gp"
	cat >"$T/gp/gnuplot" <<'G'
#!/bin/bash
tmp=$(sed -n "/^call /{s/^call '[^']*' '[^']*' '\([^']*\)'.*/\1/p;q}")
printf '<svg' >"$tmp"
echo "$PPID" >"$GP_DIR/runner.pid.new" && mv "$GP_DIR/runner.pid.new" "$GP_DIR/runner.pid"
while kill -0 "$PPID" 2>/dev/null; do sleep 0.05; done
G
	chmod +x "$T/gp/gnuplot"
}

# The runner killed (SIGKILL) while it writes its reports: meta.csv says
# `reporting` (with the run's own status in run_status) until they are
# whole; `report` says the run was killed while they were written and
# removes the image the dead runner left under its temporary name;
# `--resume` finishes the reports without running a repetition again, and
# the folder then says `ok`.
t_killed_while_reporting() {
	blocking_gnuplot
	small_matrix m.yaml
	GP_DIR=$T/gp PATH="$T/gp:$PATH" "$MATRIX_BIN" run m.yaml -o R -q >run.out 2>run.err &
	local job=$! i pid
	for i in $(seq 1200); do	# the run's repetitions first: 120 s at most
		[ -s gp/runner.pid ] && break
		kill -0 "$job" 2>/dev/null || break
		sleep 0.1
	done
	[ -s gp/runner.pid ] || { kill -9 "$job"; die "gnuplot never ran: $(cat run.err)"; }
	pid=$(cat gp/runner.pid)
	[ "$pid" = "$job" ] || { kill -9 "$job"; die "gnuplot's parent $pid is not the runner $job"; }
	kill -9 "$pid"
	wait "$job" 2>/dev/null || true
	[ "$(meta_value R status)" = reporting ] ||
		die "meta.csv status after a kill mid-report: '$(meta_value R status)'"
	[ "$(meta_value R run_status)" = ok ] || die "run_status '$(meta_value R run_status)'"
	[ "$(meta_value R runner_pid)" = "$pid" ] || die "runner_pid $(meta_value R runner_pid)"
	[ -e R/report.html ] && die "report.html was written before the kill"
	[ -e "R/plots/.throughput.$pid.tmp.svg" ] || die "no temporary image: $(ls -A R/plots)"
	cp R/results.csv results.before
	# report on a copy: it says so, and removes the dead runner's image
	cp -a R K
	MATRIX_CHARTS=svg run_matrix report K -q; expect_rc 0
	expect_err "matrix report: K: its run was killed while its reports were written: its runner (pid $pid) is gone"
	expect_err "matrix run --resume K"
	grep -qF "killed while its reports were written" K/summary.md ||
		die "summary.md's run status: $(grep 'run status' K/summary.md)"
	[ -z "$(find K -name '.*.tmp*')" ] || die "left: $(find K -name '.*.tmp*')"
	[ "$(meta_value K status)" = reporting ] || die "report changed meta.csv's status"
	# --resume finishes the reports, and runs nothing again
	MATRIX_CHARTS=svg run_matrix run --resume R -q; expect_rc 0
	grep -qF "nothing to resume" "$T/.err" && die "--resume: $(cat "$T/.err")"
	expect_err "its reports had not been written"
	[ "$(tail -1 "$T/.out")" = R ] || die "stdout: $(cat "$T/.out")"
	cmp -s results.before R/results.csv || die "results.csv changed: $(diff results.before R/results.csv)"
	[ "$(meta_value R status)" = ok ] || die "status after --resume: $(meta_value R status)"
	meta_value R run_status | grep -q . && die "run_status left in meta.csv"
	[ -n "$(meta_value R resumed_utc)" ] || die "no resumed_utc"
	[ -s R/report.html ] && [ -s R/plots/throughput.svg ] || die "reports not finished: $(ls R R/plots)"
	[ -z "$(find R -name '.*.tmp*')" ] || die "left: $(find R -name '.*.tmp*')"
	grep -q '| run status | ok |' R/summary.md || die "summary.md: $(grep 'run status' R/summary.md)"
	run_matrix run --resume R -q; expect_rc 0
	expect_err "nothing to resume"
}

# A later command removes what a writer that is gone left under its
# temporary name (.NAME.PID.tmp, .NAME.PID.tmp.EXT, in the folder and in
# plots/): a pid no process has, or one a process started after the file
# was written has; a live writer's stay, and so do other files.
t_dead_writers_temporary_files_go() {
	small_matrix m.yaml
	MATRIX_CHARTS=svg run_matrix run m.yaml -o R -q; expect_rc 0
	sh -c 'exit 0' &
	local dead=$!
	wait "$dead"
	: >"R/.summary.md.$dead.tmp"
	: >"R/plots/.rtt.$dead.tmp.png"
	: >"R/.ratios.csv.$$.tmp"			# this shell's: alive
	: >"R/plots/.cpu.$$.tmp.svg"
	: >"R/.old.$$.tmp"				# this pid, but written before it started
	touch -d '2001-01-01' "R/.old.$$.tmp"
	: >"R/.notes.tmp"				# no pid: not ours
	: >"R/plots/.x.12.tmp.svg.keep"
	MATRIX_CHARTS=svg run_matrix report R -q; expect_rc 0
	for f in "R/.summary.md.$dead.tmp" "R/plots/.rtt.$dead.tmp.png" "R/.old.$$.tmp"; do
		[ -e "$f" ] && die "$f of a writer that is gone is left"
	done
	for f in "R/.ratios.csv.$$.tmp" "R/plots/.cpu.$$.tmp.svg" R/.notes.tmp R/plots/.x.12.tmp.svg.keep; do
		[ -e "$f" ] || die "$f was removed"
	done
	return 0
}

# The hostile names of items 11 and 14: % (a gnuplot tic label is a
# format), quotes, a backslash, HTML and Markdown
HOSTILE_RATIOS='report:
  ratios:
    - name: "100%"
      dimension: transport
      numerator: unix
      denominator: tcp
      reference: {label: "src %d <b>x</b>", ratios: [{ratio: 2}]}
    - {name: "%d it'"'"'s <script>alert(1)</script>", dimension: transport, numerator: unix, denominator: tcp}
    - {name: "[x](javascript:alert(1)) *b* _i_ `c` #h !", dimension: transport, numerator: unix, denominator: tcp}'
HOSTILE_DESC="'%s of 100% <img src=x onerror=alert(1)> [x](javascript:alert(1)) | # **b** \\'"

# A % in a ratio name or the description reaches gnuplot as text: every
# chart is drawn and the run exits 0, the tic labels showing the names.
t_percent_reaches_gnuplot_as_text() {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	small_matrix m.yaml "$HOSTILE_DESC" "$HOSTILE_RATIOS"
	MATRIX_CHARTS=svg run_matrix run m.yaml -o R -q; expect_rc 0
	grep -q 'gnuplot failed' "$T/.err" && die "$(cat "$T/.err")"
	[ -s R/plots/ratios.svg ] || die "no ratios chart: $(ls R/plots)"
	grep -qF '>100%<' R/plots/ratios.svg || die "ratios.svg lacks the label 100%"
	grep -qF '%d it' R/plots/ratios.svg || die "ratios.svg lacks the label %d it's ..."
	[ -z "$(find R -name '*.log' -size +0)" ] || die "gnuplot said: $(cat R/plots/*.log)"
}

# markup in Markdown: raw HTML, a link, emphasis (an escaped one is text)
RAW_MD='<script|<img|(^|[^\\])\]\(javascript|(^|[^\\])\*\*?b|(^|[^\\])_i'

# Markdown is written with user text as text: no raw HTML, no link, no
# emphasis from the description, ratio names or values in summary.md,
# ab.md, compare.md or history.md; report.html shows the text as written.
t_markdown_carries_text_only() {
	small_matrix m.yaml "$HOSTILE_DESC" "$HOSTILE_RATIOS"
	MATRIX_CHARTS=svg run_matrix run m.yaml -o results/h/a -q; expect_rc 0
	cp -a results/h/a results/h/b
	MATRIX_CHARTS=svg run_matrix report results/h/a --compare transport=tcp:unix -q
	[ -s results/h/a/ab.md ] || die "no ab.md: $(cat "$T/.err")"
	MATRIX_CHARTS=svg run_matrix compare results/h/a results/h/b -q
	[ -s results/h/b/compare.md ] || die "no compare.md: $(cat "$T/.err")"
	MATRIX_CHARTS=svg run_matrix history results/h -q; expect_rc 0
	local md
	for md in results/h/a/summary.md results/h/a/ab.md results/h/b/compare.md results/h/history.md; do
		[ -s "$md" ] || die "$md missing"
		grep -qE "$RAW_MD" "$md" && die "$md carries markup: $(grep -nE "$RAW_MD" "$md" | head -3)"
	done
	grep -qF '&lt;img src=x onerror=alert(1)&gt; \[x\](javascript:alert(1)) \| # \*\*b\*\* \\' results/h/a/summary.md ||
		die "summary.md's description: $(sed -n 3p results/h/a/summary.md)"
	grep -qF '\[x\](javascript:alert(1)) \*b\* \_i\_ \`c\` #h \!' results/h/a/summary.md ||
		die "summary.md's ratio name: $(grep -F 'javascript' results/h/a/summary.md | tail -1)"
	grep -qF '%d it'"'"'s &lt;script&gt;alert(1)&lt;/script&gt;' results/h/a/summary.md ||
		die "summary.md's ratio name: $(grep -F 'it' results/h/a/summary.md | grep -F script | head -1)"
	grep -qF '; src %d &lt;b&gt;x&lt;/b&gt; 2×' results/h/a/summary.md ||
		die "summary.md's reference label: $(grep -F 'src' results/h/a/summary.md | head -1)"
	# report.html: the same text, as text
	local page=results/h/a/report.html
	grep -qE '<script>alert|<img src=x|href="javascript' "$page" && die "report.html carries markup"
	grep -qF '&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1)) | # **b** \' "$page" ||
		die "report.html's description: $(grep -F 'onerror' "$page" | head -1)"
	grep -qF '[x](javascript:alert(1)) *b* _i_ `c` #h !' "$page" ||
		die "report.html's ratio name: $(grep -F 'javascript' "$page" | tail -1)"
}

# merge: the shards' folders (names with spaces) each recoverable from
# merged_from, each shard's seed in meta.csv; `-o .`, a shard, or a
# non-empty folder refused before anything is written.
t_merge_names_seeds_and_out() {
	small_matrix m.yaml
	MATRIX_CHARTS=svg run_matrix run m.yaml --shard 1/2 --seed 7 -o "s 1" -q; expect_rc 0
	MATRIX_CHARTS=svg run_matrix run m.yaml --shard 2/2 --seed 9 -o 's "2"' -q; expect_rc 0
	MATRIX_CHARTS=svg run_matrix merge 's "2"' "s 1" -o out -q; expect_rc 0
	[ "$(meta_value out merged_from)" = '"s 1" "s ""2"""' ] ||
		die "merged_from: $(meta_value out merged_from)"
	[ "$(meta_value out seed)" = "per shard: 7 9" ] || die "seed: $(meta_value out seed)"
	[ "$(meta_value out order)" = shuffled ] || die "order: $(meta_value out order)"
	run_matrix run --resume out -q; expect_rc 0
	expect_err "nothing to resume"
	mkdir e
	rc=0
	(cd e && "$MATRIX_BIN" merge '../s "2"' "../s 1" -o . -q) >e.out 2>e.err || rc=$?
	[ "$rc" -eq 2 ] || die "merge -o .: exit $rc: $(cat e.err)"
	grep -qF "matrix merge: -o .: is the current folder" e.err || die "merge -o .: $(cat e.err)"
	[ -z "$(ls -A e)" ] && [ -z "$(ls -A . | grep merging)" ] || die "left: $(ls -A e .)"
	run_matrix merge "s 1" 's "2"' -o "s 1" -q; expect_rc 2
	expect_err 'matrix merge: -o s 1: exists and is not an empty directory'
}
