# A full disk (issue 11, item 2) and user text in charts (item 11).
#
# The full-disk tests mount a small tmpfs in a private mount namespace
# (unshare -m: the mount is gone with the namespace, nothing leaks) and
# run matrix with its folder inside it.  Each failure must reach the exit
# status and the console naming the file, leave no temporary file, no
# empty or cut file presented as whole, and keep what was measured.

# these tests look at the PNG images too (tests/run.sh draws SVG only)
export MATRIX_CHARTS=svg,png

# Skips the test where a tmpfs cannot be mounted in a private namespace.
need_tmpfs() {
	local why
	command -v unshare >/dev/null || skip "unshare is not installed: cannot mount a private tmpfs"
	mkdir -p "$T/mnt" "$T/snap"
	why=$(unshare -m sh -c 'mount -t tmpfs -o size=4k tmpfs "$0"' "$T/mnt" 2>&1) ||
		skip "cannot mount a tmpfs in a private mount namespace (unshare -m; root needed): $why"
}

# tmpfs_run SIZE FREE CMD...: in a private mount namespace, a tmpfs of
# SIZE on $T/mnt, holding a copy of $T/seed when there is one, filled
# until FREE bytes are left (empty FREE: not filled); runs CMD in $T
# (stdout, stderr in .out, .err; status in $rc), then copies the tmpfs
# whole, hidden files too, to $T/snap, as the mount goes with the
# namespace.
tmpfs_run() {
	local size=$1 free=$2
	shift 2
	rc=0
	unshare -m bash -c '
		size=$1 free=$2
		shift 2
		mount -t tmpfs -o "size=$size" tmpfs mnt || exit 99
		if [ -d seed ]; then cp -a seed/. mnt/ || exit 98; fi
		if [ -n "$free" ]; then
			avail=$(df -B1 --output=avail mnt | tail -1)
			[ "$avail" -gt "$free" ] || exit 97
			head -c $((avail - free)) /dev/zero >mnt/.filler
		fi
		st=0
		"$@" >.out 2>.err || st=$?
		rm -f mnt/.filler
		cp -a mnt/. snap/ || exit 96
		exit "$st"' bash "$size" "$free" "$@" || rc=$?
	[ "$rc" -lt 96 ] || die "tmpfs set-up failed ($rc): $(cat "$T/.err" 2>/dev/null)"
}

# No temporary file anywhere under DIR.
expect_no_tmp() {
	local left
	left=$(find "$1" -name '*.tmp*')
	[ -z "$left" ] || die "temporary files left: $left"
}

# Every file under DIR is whole: no empty file, a CSV ends with a line
# end, a script with its last command, an image with its end.
expect_whole() {
	local f
	while IFS= read -r f; do
		[ -s "$f" ] || die "$f is empty"
		case $f in
		*.csv | *.md) [ -z "$(tail -c 1 "$f")" ] || die "$f is cut short (no final newline)" ;;
		*.gp) [ "$(tail -n 1 "$f")" = "unset multiplot" ] || die "$f is cut short" ;;
		*.svg) tail -c 64 "$f" | grep -q '</svg>' || die "$f is cut short" ;;
		*.png) [ "$(tail -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] ||
			die "$f is cut short" ;;
		esac
	done < <(find "$1" -type f ! -path '*/logs/*' ! -name '*.log')
}

mat_two() {
	mat two.yaml <<'Y'
name: two
repeat: 2
warmup: 1
matrix:
  transport: [unix, tcp]
  count: 20
Y
}

# The disk fills while results.csv grows: the append that fails is said,
# the run stops there (exit 1), and the rows before it stay whole.
t_full_disk_mid_run_stops_and_keeps_rows() {
	need_tmpfs
	mat many.yaml <<'Y'
name: many
repeat: 60
warmup: 1
matrix:
  transport: unix
  count: 20
Y
	# room for the files of a start (hist.csv too) and a few pages more:
	# results.csv or hist.csv (a repetition's rows, then its results row)
	# is the one that finds the disk full
	tmpfs_run 20k '' "$MATRIX_BIN" run many.yaml -o mnt/d -q
	expect_rc 1
	grep -qE "mnt/d/(results|hist)\.csv: No space left on device: the run stops here" "$T/.err" ||
		die "stderr: $(cat "$T/.err")"
	expect_err "results.csv keeps the"
	local rows
	rows=$(csvq snap/d/results.csv --rows)
	[ "$rows" -gt 0 ] && [ "$rows" -lt 60 ] || die "$rows rows: the disk never filled?"
	expect_err "keeps the $rows rows"
	expect_all snap/d/results.csv status ok
	[ "$(csvq snap/d/results.csv rep | tail -n 1)" = "$rows" ] || die "rows out of order"
	expect_no_tmp snap
	expect_whole snap/d
	[ ! -e snap/d/summary.csv ] || die "summary.csv written on a full disk?"
	expect_err "could not write the report: mnt/d/summary.csv: No space left on device"
	expect_no_leftovers
}

# No room for meta.csv when the run starts: exit 2 naming it, nothing
# measured, no empty meta.csv.
t_full_disk_at_start_names_meta() {
	need_tmpfs
	mat_two
	tmpfs_run 8k '' "$MATRIX_BIN" run two.yaml -o mnt/d -q
	expect_rc 2
	expect_err "mnt/d/meta.csv: No space left on device"
	[ ! -e snap/d/meta.csv ] || die "meta.csv left: $(wc -c <snap/d/meta.csv) bytes"
	[ ! -e snap/d/results.csv ] || die "results.csv made although the run could not start"
	expect_no_tmp snap
	expect_no_leftovers
}

# `matrix report` on a full disk: exit 1 naming the file, and every file
# the folder had is left as it was (not emptied, not cut).
t_full_disk_report_keeps_old_files() {
	need_tmpfs
	mat_two
	run_matrix run two.yaml -o seed/d -q
	expect_rc 0
	tmpfs_run 1m 0 "$MATRIX_BIN" report mnt/d -q
	expect_rc 1
	expect_err "could not write the report: mnt/d/summary.csv: No space left on device"
	diff -r seed/d snap/d >diff.txt || die "the folder changed: $(head -5 diff.txt)"
	expect_no_tmp snap
}

# Room for the tables and scripts but not for the images: gnuplot exits
# 0 on a full disk, yet the run says which image it could not write and
# exits 1, and no image cut short is left.
t_full_disk_charts_not_cut() {
	need_tmpfs
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	mat_two
	run_matrix run two.yaml -o seed/d -q
	expect_rc 0
	rm -f seed/d/plots/*.svg seed/d/plots/*.png
	tmpfs_run 1m 16384 "$MATRIX_BIN" report mnt/d -q
	expect_rc 1
	expect_err "gnuplot could not write the whole image"
	grep -E "matrix report: mnt/d/plots/[a-z]+\.(svg|png): " .err >/dev/null ||
		die "no image named: $(cat .err)"
	[ -s snap/d/summary.csv ] && [ -s snap/d/summary.md ] || die "the tables are missing"
	expect_whole snap/d
	expect_no_tmp snap
}

# compare and history on a full disk: exit 2 naming the file, nothing
# empty or cut left.
t_full_disk_compare_and_history() {
	need_tmpfs
	mat_two
	run_matrix run two.yaml -o a -q
	expect_rc 0
	run_matrix run two.yaml -o b -q
	expect_rc 0
	tmpfs_run 1m 0 "$MATRIX_BIN" compare a b -o mnt/c --force -q
	expect_rc 2
	expect_err "mnt/c/compare.csv: No space left on device"
	expect_no_tmp snap
	expect_whole snap
	rm -rf snap/*
	tmpfs_run 1m 0 "$MATRIX_BIN" history a b -o mnt/h -q
	expect_rc 2
	expect_err "mnt/h/history.csv: No space left on device"
	expect_no_tmp snap
	expect_whole snap
}

# Ratio names with , ' ` $ # @ and UTF-8: the ratios chart draws each of
# them as a label (its data picked by cell number, never by name), and
# an all-ok run exits 0.
t_ratio_names_reach_chart_as_labels() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	mat r.yaml <<'Y'
name: names
repeat: 2
warmup: 1
matrix:
  transport: [unix, tcp]
  size: [16, 64]
  count: 20
report:
  ratios:
    - {name: "a,b 'q' `touch pwned` $HOME #x é @m", dimension: transport, numerator: unix, denominator: tcp}
    - {name: "#start, x", dimension: transport, numerator: tcp, denominator: unix}
    - {name: "'quoted'", dimension: transport, numerator: unix, denominator: tcp, metric: rtt_p50_us}
    - {name: "=1+2", dimension: transport, numerator: tcp, denominator: unix, metric: rtt_p50_us}
Y
	run_matrix run r.yaml -o d -q
	expect_rc 0
	[ ! -e d/plots/gnuplot.log ] || die "gnuplot complained: $(cat d/plots/gnuplot.log)"
	[ ! -e pwned ] && [ ! -e d/pwned ] || die "a backquote in a name ran a command"
	local n
	for n in "a,b 'q' \`touch pwned\` \$HOME #x é @m" "#start, x" "'quoted'" "=1+2"; do
		grep -qF "<text>$n</text>" d/plots/ratios.svg || die "ratios.svg lacks the label $n"
	done
	# each series is drawn: one line of points per ratio
	[ "$(grep -c 'stroke-width' d/plots/ratios.svg)" -gt 4 ] || die "no lines in ratios.svg"
	[ -s d/plots/ratios.png ] || die "no ratios.png"
	run_matrix report d -q
	expect_rc 0
}

# A stream run whose timeline.csv fills the disk: the run stops, and a
# repetition is kept whole or not at all: every ok row of results.csv has
# timeline rows summing to its messages, and no timeline row lacks its
# results.csv row; --resume then completes the run, each repetition whole.
t_full_disk_stream_timeline_whole() {
	need_tmpfs
	mat st.yaml <<'Y'
name: st
repeat: 40
warmup: 1
matrix:
  pattern: stream
  transport: unix
  duration: 50ms
  interval: 5ms
Y
	tmpfs_run 20k '' "$MATRIX_BIN" run st.yaml -o mnt/d -q
	expect_rc 1
	expect_err "No space left on device: the run stops here"
	local rows
	rows=$(csvq snap/d/results.csv --rows)
	[ "$rows" -gt 0 ] && [ "$rows" -lt 40 ] || die "$rows rows: the disk never filled?"
	expect_whole snap/d
	expect_no_tmp snap
	timeline_whole snap/d
	# resumed on a disk with room: every repetition once, each whole
	cp -a snap/d r
	run_matrix run --resume r -q
	expect_rc 0
	[ "$(csvq r/results.csv --rows)" -eq 40 ] || die "resumed: $(csvq r/results.csv --rows) rows"
	expect_all r/results.csv status ok
	timeline_whole r
	expect_no_leftovers
}
