# The chart of `matrix history` (plots/history.gp): each cell's line over
# its own median, so that a pingpong cell of 20k msg/s and a stream cell
# of 2M msg/s read on one axis; hand-made run folders of four nights,
# a pingpong and a stream cell in every one, a tcp pingpong cell on one
# night only, and a stream tcp cell that failed every night.

export MATRIX_CHARTS=svg,png

PP=pattern=pingpong\ size=16\ transport=unix
ST=pattern=stream\ size=16\ transport=unix

# cnight DIR START PINGPONG STREAM [TCP]: a run folder, 7 repetitions of each
# cell about the figure given (±0.2%), its median exactly that figure; the
# pingpong's rtt_p50_us its inverse; TCP: a pingpong tcp cell too
cnight() {
	local d=$1 start=$2 p=$3 s=$4 t=${5:-}
	mkdir -p "$d"
	printf 'name: chart\nrepeat: 7\nmatrix:\n  pattern: [pingpong, stream]\n  size: 16\n  transport: [unix, tcp]\n' \
		>"$d/matrix.yaml"
	printf 'key,value\nhost,h\nkernel,Linux 6.1.0 test\narch,x86_64\ncpu_model,Test CPU\ncores,4\ngovernor,performance\ntool_version,0.1.0\ngit_revision,0123456789ab\nmatrix_name,chart\nstart_utc,%s\nstatus,ok\n' \
		"$start" >"$d/meta.csv"
	awk -v p="$p" -v s="$s" -v t="$t" -v at="$start" 'BEGIN {
		print "cell,pattern,size,transport,rep,status,error,msgs_per_s,rtt_p50_us,started_at"
		split("-0.002 -0.001 0 0.001 0.002 -0.0005 0.0005", o, " ")
		for (r = 1; r <= 7; r++) {
			printf "1,pingpong,16,unix,%d,ok,,%.8g,%.8g,%s\n", r, p * (1 + o[r]), 1e6 / (p * (1 + o[r])), at
			if (t != "")
				printf "2,pingpong,16,tcp,%d,ok,,%.8g,%.8g,%s\n", r, t * (1 + o[r]), 1e6 / (t * (1 + o[r])), at
			printf "3,stream,16,unix,%d,ok,,%.8g,,%s\n", r, s * (1 + o[r]), at
			printf "4,stream,16,tcp,%d,timeout,timeout after 60 s waiting for results,,,%s\n", r, at
		}
	}' >"$d/results.csv"
}

# gp_table DIR BLOCK: the rows of the chart's datablock BLOCK, as gnuplot
# makes them from DIR/history.csv
gp_table() {
	local dir=$1 block=$2
	{ cat "$dir/plots/history.gp"; printf "set print '%s'\nprint %s\n" "$T/$block.txt" "$block"; } \
		>"$T/print.gp"
	(cd "$dir" && gnuplot -c "$T/print.gp" history.csv "$T/print.svg") 2>"$T/gp.err" ||
		die "gnuplot failed: $(cat "$T/gp.err")"
	[ -s "$T/gp.err" ] && die "gnuplot said: $(cat "$T/gp.err")"
	grep -v '^ *$' "$T/$block.txt" | grep -v '^#'
}

# the median of the numbers on stdin
median_of() {
	sort -g | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

t_history_chart_each_cell_over_its_median() {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	cnight r/n1 2026-12-01T03:00:00Z 20000 2000000
	cnight r/n2 2026-12-02T03:00:00Z 20200 2010000 9000
	cnight r/n3 2026-12-03T03:00:00Z 19900 1990000
	cnight r/n4 2026-12-04T03:00:00Z 16000 2020000
	run_matrix history r; expect_rc 0
	[ -s r/plots/history.svg ] && [ -s r/plots/history.png ] || die "no chart images"
	[ -e r/plots/history.log ] && die "gnuplot said: $(cat r/plots/history.log)"
	local gp=r/plots/history.gp c=r/history.csv
	# the cells in the order they first appear (n1's): pingpong unix 1,
	# stream unix 2, stream tcp 3 (failed), pingpong tcp 4 (from n2)
	grep -qF "strcol('label') eq '$PP' ? 1" $gp || die "the chart does not draw the pingpong cell"
	grep -qF "strcol('label') eq '$ST' ? 2" $gp || die "the chart does not draw the stream cell"
	# each its own line, over its own median, that median in the key
	local key
	key=$(grep -o "title '[^']*'" $gp | sort -u)
	grep -qF "\$h0_0_0 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.6 lc 1 title 'pingpong unix: median 19.9k msg/s'" $gp ||
		die "the key lacks the pingpong cell's median: $key"
	grep -qF "\$h0_0_1 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.6 lc 2 title 'stream unix: median 2.00M msg/s'" $gp ||
		die "the key lacks the stream cell's median: $key"
	grep -qF "title 'pingpong tcp: median 111 µs'" $gp || die "the key lacks the tcp cell's rtt: $key"
	grep -qF "title '1× = the cell''s median'" $gp || die "the chart has no 1× line"
	grep -qF "set format y '%g×'" $gp || die "the y axis is not relative"
	# what gnuplot draws: history.csv's medians over the cell's median
	local cell block want got
	for cell in "$PP" "$ST"; do
		case $cell in "$PP") block='$h0_0_0' ;; *) block='$h0_0_1' ;; esac
		local med
		med=$(csvq $c label metric median | awk -F'\t' -v l="$cell" '$1 == l && $2 == "msgs_per_s" { print $3 }' | median_of)
		want=$(csvq $c label metric run_index median |
			awk -F'\t' -v l="$cell" -v m="$med" '$1 == l && $2 == "msgs_per_s" { printf "%d %.4f\n", $3, $4 / m }')
		got=$(gp_table r "$block" | awk '{ printf "%d %.4f\n", $1, $2 }')
		[ "$got" = "$want" ] || die "$cell: the chart draws
$got
expected
$want"
		# around 1, not the absolute figures
		echo "$got" | awk '$2 < 0.5 || $2 > 1.5 { exit 1 }' || die "$cell: not relative: $got"
	done
	# the pingpong's last night: 16000 over 19950, its regression marked there
	[ "$(gp_table r '$s0_0_0' | awk '{ printf "%d %.4f\n", $1, $2 }')" = "4 0.8020" ] ||
		die "the regression mark: $(gp_table r '$s0_0_0')"
	# the cell of one night: one point, at 1
	[ "$(gp_table r '$h0_0_3' | awk '{ printf "%d %.4f\n", $1, $2 }')" = "2 1.0000" ] ||
		die "the one-night cell: $(gp_table r '$h0_0_3')"
	# the rtt panel has no stream cell; the failed stream cell no line anywhere
	grep -qF '$h0_1_1 ' $gp && die "a stream cell in the rtt panel"
	grep -qF '$h0_0_2 ' $gp && die "the failed cell has a line"
	# the y ranges: each panel's own, around 1, the 0.80 of the regression in
	grep '^set yrange' $gp | tr -d '[]' | tr ':' ' ' |
		awk '{ n++ } $3 < 0.5 || $3 > 0.802 || $4 < 1.01 || $4 > 1.5 { exit 1 } END { exit n != 2 }' ||
		die "the y ranges: $(grep yrange $gp)"
	return 0
}

# One night only: every line is a point at 1, the y range not empty.
t_history_chart_one_night() {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	cnight r/n1 2026-12-01T03:00:00Z 20000 2000000
	run_matrix history r; expect_rc 0
	[ -s r/plots/history.svg ] && [ -s r/plots/history.png ] || die "no chart images"
	[ -e r/plots/history.log ] && die "gnuplot said: $(cat r/plots/history.log)"
	grep -qxF 'set yrange [0.944:1.056]' r/plots/history.gp || die "y range: $(grep yrange r/plots/history.gp)"
	[ "$(gp_table r '$h0_0_1' | awk '{ printf "%d %.4f\n", $1, $2 }')" = "1 1.0000" ] ||
		die "the stream cell: $(gp_table r '$h0_0_1')"
}

# Every night of every cell failed: the panel says so, over the nights'
# names, and gnuplot has nothing to say.
t_history_chart_every_night_failed() {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	local x
	cnight r0 2026-12-01T03:00:00Z 20000 2000000
	for x in 1 2; do
		mkdir -p "r/n$x"
		cp r0/matrix.yaml "r/n$x/"
		sed "s/T03:/T0$x:/" r0/meta.csv >"r/n$x/meta.csv"
		grep -E '^cell|,stream,16,tcp,' r0/results.csv | sed 's/^4,/1,/' >"r/n$x/results.csv"
	done
	run_matrix history r; expect_rc 0
	[ -s r/plots/history.svg ] && [ -s r/plots/history.png ] || die "no chart images"
	[ -e r/plots/history.log ] && die "gnuplot said: $(cat r/plots/history.log)"
	grep -qF "set label 1 'no successful repetition'" r/plots/history.gp || die "the panel does not say every night failed"
	grep -qF "('n1' 1, 'n2' 2)" r/plots/history.gp || die "the nights are not named: $(grep xtics r/plots/history.gp)"
}
