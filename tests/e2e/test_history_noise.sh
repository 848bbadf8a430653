# The night-to-night noise of `matrix history` and `matrix compare
# --history`, and the nights' own gates, on hand-made run folders: twelve
# nights of two cells, unix with a tight history (within ±0.5%) and tcp
# with a wide one (±8%), both 10% slower on the last night.  Every figure
# is picked so that compare calls both last-night changes regressed: only
# the noise tells them apart.

# night DIR START UNIX TCP: a run folder of tests/data/history's shape: 7
# repetitions of each cell about the figure given (±0.2%), its median
# exactly that figure, rtt_p50_us its inverse
night() {
	local d=$1 start=$2 u=$3 t=$4
	mkdir -p "$d"
	printf 'name: noise\nrepeat: 7\nmatrix:\n  pattern: pingpong\n  size: 16\n  transport: [unix, tcp]\n' \
		>"$d/matrix.yaml"
	printf 'key,value\nhost,h\nkernel,Linux 6.1.0 test\narch,x86_64\ncpu_model,Test CPU\ncores,4\ngovernor,performance\ntool_version,0.1.0\ngit_revision,0123456789ab\nmatrix_name,noise\nstart_utc,%s\nstatus,ok\n' \
		"$start" >"$d/meta.csv"
	awk -v u="$u" -v t="$t" -v s="$start" 'BEGIN {
		print "cell,pattern,size,transport,rep,status,error,msgs_per_s,rtt_p50_us,started_at"
		split("-0.002 -0.001 0 0.001 0.002 -0.0005 0.0005", o, " ")
		for (r = 1; r <= 7; r++) {
			printf "1,pingpong,16,unix,%d,ok,,%.8g,%.8g,%s\n", r, u * (1 + o[r]), 1e6 / (u * (1 + o[r])), s
			printf "2,pingpong,16,tcp,%d,ok,,%.8g,%.8g,%s\n", r, t * (1 + o[r]), 1e6 / (t * (1 + o[r])), s
		}
	}' >"$d/results.csv"
}

# The nightly figures: unix about 20k, tcp about 10k; the twelfth night
# both -10% against the eleventh.
UNIX=(20000 20100 19920 20060 19960 20080 19940 20040 19980 20100 20000 18000)
TCP=(10000 10800 9500 10300 9200 10600 9700 10200 9400 10500 10000 9000)

# nights DIR [N]: the first N (12) nights in DIR/n01.. (the 1st December on)
nights() {
	local dir=$1 n=${2:-12} i
	for ((i = 1; i <= n; i++)); do
		night "$dir/$(printf n%02d $i)" "$(printf 2026-12-%02dT03:00:00Z $i)" "${UNIX[i - 1]}" "${TCP[i - 1]}"
	done
}

# row_of FILE RUN TRANSPORT METRIC COLUMN...: those columns of that row
row_of() {
	local f=$1 run=$2 tr=$3 metric=$4
	shift 4
	csvq "$f" run label metric "$@" |
		awk -F'\t' -v r="$run" -v l="pattern=pingpong size=16 transport=$tr" -v m="$metric" \
			'$1 == r && $2 == l && $3 == m' | cut -f4-
}

# noise_of TRANSPORT FIRST LAST: the spread as the README defines it, of
# the nights FIRST..LAST (indexes into UNIX or TCP): 1.4826 x the median of
# |log(m_i / m_(i-1))|, computed here apart from matrix
noise_of() {
	local -n v=$1
	local i
	for ((i = $2 + 1; i <= $3; i++)); do
		awk -v a="${v[i - 1]}" -v b="${v[i]}" 'BEGIN { x = log(b / a); printf "%.12f\n", x < 0 ? -x : x }'
	done | sort -g | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.4f\n", 1.4826 * m }'
}

t_history_noise_tight_and_wide() {
	nights results/noise
	run_matrix history results/noise --metric msgs_per_s; expect_rc 0
	local c=results/noise/history.csv
	# the last night: compare calls both regressed; only unix is a step
	[ "$(row_of $c n12 unix msgs_per_s compare_verdict verdict_vs_previous step noise_nights night_verdict)" = \
		"regressed	regressed	1	10	regressed" ] ||
		die "n12 unix: $(row_of $c n12 unix msgs_per_s compare_verdict verdict_vs_previous step noise_nights night_verdict)"
	[ "$(row_of $c n12 tcp msgs_per_s compare_verdict verdict_vs_previous step noise_nights night_verdict)" = \
		"regressed	inconclusive	0	10	inconclusive" ] ||
		die "n12 tcp: $(row_of $c n12 tcp msgs_per_s compare_verdict verdict_vs_previous step noise_nights night_verdict)"
	# the spread, learnt from the eleven nights before, as defined
	local nu nt
	nu=$(row_of $c n12 unix msgs_per_s noise) nt=$(row_of $c n12 tcp msgs_per_s noise)
	[ "$(printf %.4f "$nu")" = "$(noise_of UNIX 0 10)" ] || die "unix noise $nu, expected $(noise_of UNIX 0 10)"
	[ "$(printf %.4f "$nt")" = "$(noise_of TCP 0 10)" ] || die "tcp noise $nt, expected $(noise_of TCP 0 10)"
	local bu bt
	bu=$(awk -v n="$nu" 'BEGIN { printf "%.1f", 400 * n }') bt=$(awk -v n="$nt" 'BEGIN { printf "%.1f", 400 * n }')
	[ "$(row_of $c n12 unix msgs_per_s why)" = "beyond the normal night-to-night spread (±$bu%, 10 nights)" ] ||
		die "n12 unix why: $(row_of $c n12 unix msgs_per_s why)"
	[ "$(row_of $c n12 tcp msgs_per_s why)" = "within the normal night-to-night spread (±$bt%, 10 nights)" ] ||
		die "n12 tcp why: $(row_of $c n12 tcp msgs_per_s why)"
	# no look-ahead: night 7 learns from nights 1 to 6 alone
	[ "$(row_of $c n07 tcp msgs_per_s noise_nights)" = 5 ] || die "n07 tcp nights: $(row_of $c n07 tcp msgs_per_s noise_nights)"
	[ "$(printf %.4f "$(row_of $c n07 tcp msgs_per_s noise)")" = "$(noise_of TCP 0 5)" ] ||
		die "n07 tcp noise $(row_of $c n07 tcp msgs_per_s noise), expected $(noise_of TCP 0 5)"
	# the first nights: too little history, compare's verdict stands
	[ "$(row_of $c n03 tcp msgs_per_s compare_verdict verdict_vs_previous step noise_nights why)" = \
		"regressed	regressed	1	1	too little history (1 of 5 nights): the normal spread is not known yet" ] ||
		die "n03 tcp: $(row_of $c n03 tcp msgs_per_s compare_verdict verdict_vs_previous step noise_nights why)"
	[ "$(row_of $c n02 unix msgs_per_s verdict_vs_previous noise_nights why)" = \
		"unchanged	0	too little history (0 of 5 nights): the normal spread is not known yet" ] ||
		die "n02 unix: $(row_of $c n02 unix msgs_per_s verdict_vs_previous noise_nights why)"
	[ "$(row_of $c n01 unix msgs_per_s verdict_vs_previous noise noise_nights why)" = "			" ] ||
		die "n01 unix: $(row_of $c n01 unix msgs_per_s verdict_vs_previous noise noise_nights why)"
	# from the fifth change on, tcp's swings are within its spread
	[ "$(row_of $c n07 tcp msgs_per_s compare_verdict verdict_vs_previous step)" = "regressed	inconclusive	0" ] ||
		die "n07 tcp: $(row_of $c n07 tcp msgs_per_s compare_verdict verdict_vs_previous step)"
	[ "$(row_of $c n06 tcp msgs_per_s compare_verdict verdict_vs_previous step noise_nights)" = "improved	improved	1	4" ] ||
		die "n06 tcp: $(row_of $c n06 tcp msgs_per_s compare_verdict verdict_vs_previous step noise_nights)"
	local md=results/noise/history.md
	grep -qF '| pattern=pingpong size=16 transport=unix | 20.0k msg/s |' $md || die "history.md: no unix row"
	grep -F '| pattern=pingpong size=16 transport=unix |' $md | grep -qF ' 18.0k msg/s ▼ |' ||
		die "history.md does not mark the unix step"
	grep -F '| pattern=pingpong size=16 transport=tcp |' $md | grep -qF ' 9.00k msg/s |' ||
		die "history.md: tcp's last night"
	grep -F '| pattern=pingpong size=16 transport=tcp |' $md | grep -qF '9.00k msg/s ▼' &&
		die "history.md marks tcp's last night, within its spread"
	grep -F '| pattern=pingpong size=16 transport=tcp |' $md | grep -qF ' 9.50k msg/s ▼† |' ||
		die "history.md does not mark an early step †"
	grep -qF 'The normal night-to-night spread: its last run was judged with one learnt from 10 nights.' $md ||
		die "history.md does not say how many nights"
	grep -qF -- "- \`n12\` ▼ pattern=pingpong size=16 transport=unix: msgs_per_s 20.0k msg/s → 18.0k msg/s, -10.0%, **regressed** (against \`n11\`; beyond the normal night-to-night spread (±$bu%, 10 nights))" $md ||
		die "history.md lacks the unix step"
	expect_out "n12: pattern=pingpong size=16 transport=unix: msgs_per_s 18.0k msg/s vs 20.0k msg/s, -10.0%, regressed (against n11), beyond the normal night-to-night spread"
	grep -qF "n12: pattern=pingpong size=16 transport=tcp" "$T/.out" && die "tcp's last night printed as a step"
	return 0
}

t_compare_history() {
	nights results/noise
	local bt
	# without --history: both regressed
	run_matrix compare results/noise/n11 results/noise/n12 --metric msgs_per_s -o plain -q; expect_rc 1
	[ "$(csvq plain/compare.csv label verdict | cut -f2 | tr '\n' ' ')" = "regressed regressed " ] ||
		die "plain compare: $(csvq plain/compare.csv label verdict)"
	# with it: tcp within its spread, the same spread history learns
	run_matrix compare results/noise/n11 results/noise/n12 --metric msgs_per_s -o cal --history results/noise; expect_rc 1
	expect_err "matrix compare: --history results/noise: each cell's normal night-to-night spread from the 11 runs of results/noise/n11's group before results/noise/n12"
	expect_out "transport=tcp: msgs_per_s 9.00k msg/s vs 10.0k msg/s, -10.0% (-10.4%..-9.6%), inconclusive (within the normal night-to-night spread (±"
	expect_out "compare: 1 regressed, 0 improved, 0 unchanged, 1 inconclusive"
	run_matrix history results/noise --metric msgs_per_s -q; expect_rc 0
	bt=$(awk -v n="$(row_of results/noise/history.csv n12 tcp msgs_per_s noise)" 'BEGIN { printf "%.1f", 400 * n }')
	[ "$(csvq cal/compare.csv label verdict why | grep transport=tcp | cut -f2-)" = \
		"inconclusive	within the normal night-to-night spread (±$bt%, 10 nights)" ] ||
		die "compare --history tcp: $(csvq cal/compare.csv label verdict why)"
	[ "$(csvq cal/compare.csv label verdict | grep transport=unix | cut -f2)" = regressed ] ||
		die "compare --history unix: $(csvq cal/compare.csv label verdict why)"
	# only tcp slower: a regression without --history, inconclusive with it
	night results/noise/n12 2026-12-12T03:00:00Z 20000 9000
	run_matrix compare results/noise/n11 results/noise/n12 -q; expect_rc 1
	run_matrix compare results/noise/n11 results/noise/n12 -q --history results/noise; expect_rc 3
	grep -qF 'within the normal night-to-night spread' results/noise/n12/compare.md ||
		die "compare.md does not say why"
	# no look-ahead: the nights after NEW are not learnt from; the first
	# nights have too little history, and the verdict stands
	run_matrix compare results/noise/n06 results/noise/n07 --metric msgs_per_s -o early --history results/noise -q
	[ "$(csvq early/compare.csv label why | grep transport=tcp | cut -f2)" = \
		"within the normal night-to-night spread (±$(awk -v n="$(row_of results/noise/history.csv n07 tcp msgs_per_s noise)" 'BEGIN { printf "%.1f", 400 * n }')%, 5 nights)" ] ||
		die "n06 vs n07: $(csvq early/compare.csv label verdict why)"
	run_matrix compare results/noise/n02 results/noise/n03 --metric msgs_per_s -o first --history results/noise; expect_rc 1
	[ "$(csvq first/compare.csv label verdict why | grep transport=tcp | cut -f2-)" = \
		"regressed	too little history (1 of 5 nights): the normal spread is not known yet" ] ||
		die "n02 vs n03: $(csvq first/compare.csv label verdict why)"
	# BASE and NEW outside DIR: they join its runs
	mkdir away && mv results/noise/n11 results/noise/n12 away/
	run_matrix compare away/n11 away/n12 --metric msgs_per_s -o out2 --history results/noise -q; expect_rc 3
	[ "$(csvq out2/compare.csv label why | grep transport=tcp | cut -f2)" = \
		"within the normal night-to-night spread (±$bt%, 10 nights)" ] ||
		die "outside DIR: $(csvq out2/compare.csv label verdict why)"
	return 0
}

t_compare_history_bad_dir() {
	nights results/noise 3
	run_matrix compare results/noise/n01 results/noise/n02 --history nowhere; expect_rc 2
	expect_err "matrix compare: --history nowhere: No such file or directory"
	mkdir empty
	run_matrix compare results/noise/n01 results/noise/n02 --history empty; expect_rc 2
	expect_err "matrix compare: --history empty: no run folder in it (a folder holding a results.csv)"
	echo 'matrix: [' >results/noise/n03/matrix.yaml
	run_matrix compare results/noise/n01 results/noise/n02 --history results/noise; expect_rc 2
	expect_err "matrix compare: --history results/noise/n03/matrix.yaml"
	[ -e results/noise/n02/compare.csv ] && die "a bad --history wrote compare.csv"
	return 0
}

# ab_csv FILE ROW...: a gate file in compare's columns, each ROW
# "NEW_CELL METRIC VERDICT"
ab_csv() {
	local f=$1 row
	shift
	mkdir -p "$(dirname "$f")"
	echo 'label,metric,base_cell,new_cell,base_n,new_n,base_median,new_median,change,change_lo,change_hi,ci_level,p_worse,q_worse,p_better,q_better,verdict,why,rounds,look,test' >"$f"
	for row in "$@"; do
		set -- $row
		echo "size=16,$2,9,$1,7,7,1,1,0,0,0,0.9,1,1,1,1,$3,,7,1,sign" >>"$f"
	done
}

# The nights that gated themselves: their final verdicts are the night's,
# and the ones marked.
t_history_night_gates() {
	nights results/noise
	ab_csv results/noise/n09/ab.csv "1 msgs_per_s regressed" "2 msgs_per_s unchanged"
	ab_csv results/noise/n10/ab.csv "1 msgs_per_s inconclusive"
	ab_csv results/noise/n10/look2/ab.csv "1 msgs_per_s regressed"
	ab_csv results/noise/n11/compare.csv "2 msgs_per_s improved" "2 rtt_p50_us added"
	ab_csv results/noise/n12/ab.csv "1 msgs_per_s unchanged"
	run_matrix history results/noise --metric msgs_per_s; expect_rc 0
	local c=results/noise/history.csv
	[ "$(row_of $c n09 unix msgs_per_s step gate gate_verdict night_verdict)" = "0	ab.csv	regressed	regressed" ] ||
		die "n09 unix: $(row_of $c n09 unix msgs_per_s step gate gate_verdict night_verdict)"
	[ "$(row_of $c n09 tcp msgs_per_s gate gate_verdict night_verdict)" = "ab.csv	unchanged	unchanged" ] ||
		die "n09 tcp: $(row_of $c n09 tcp msgs_per_s gate gate_verdict night_verdict)"
	# the second look's verdict is the final one
	[ "$(row_of $c n10 unix msgs_per_s gate gate_verdict night_verdict)" = "look2/ab.csv	regressed	regressed" ] ||
		die "n10 unix: $(row_of $c n10 unix msgs_per_s gate gate_verdict night_verdict)"
	[ "$(row_of $c n10 tcp msgs_per_s gate gate_verdict night_verdict)" = "		inconclusive" ] ||
		die "n10 tcp (no gate row): $(row_of $c n10 tcp msgs_per_s gate gate_verdict night_verdict)"
	[ "$(row_of $c n11 tcp msgs_per_s gate gate_verdict night_verdict)" = "compare.csv	improved	improved" ] ||
		die "n11 tcp: $(row_of $c n11 tcp msgs_per_s gate gate_verdict night_verdict)"
	# the night's own gate overrules history's step in the marks
	[ "$(row_of $c n12 unix msgs_per_s step gate_verdict night_verdict)" = "1	unchanged	unchanged" ] ||
		die "n12 unix: $(row_of $c n12 unix msgs_per_s step gate_verdict night_verdict)"
	local md=results/noise/history.md u
	u=$(grep -F '| pattern=pingpong size=16 transport=unix |' $md)
	case $u in *" 20.0k msg/s ▼ | 20.1k msg/s ▼ | 20.0k msg/s | 18.0k msg/s |") ;;
		*) die "history.md unix row: $u" ;; esac
	grep -F '| pattern=pingpong size=16 transport=tcp |' $md | grep -qF ' 10.0k msg/s ▲ | 9.00k msg/s |' ||
		die "history.md tcp row: $(grep -F '| pattern=pingpong size=16 transport=tcp |' $md)"
	grep -qF "; not marked: the night's own gate (ab.csv) says **unchanged**" $md ||
		die "history.md does not say the gate overrules the step"
	grep -qF "The nights' own gates (4 runs with an ab.csv or a compare.csv, the second look's when there was one):" $md ||
		die "history.md lacks the gates' section"
	grep -qF -- "- \`n10\` ▼ pattern=pingpong size=16 transport=unix: msgs_per_s 20.1k msg/s, **regressed** (look2/ab.csv)" $md ||
		die "history.md lacks n10's gate"
	expect_out "n09: pattern=pingpong size=16 transport=unix: msgs_per_s 20.0k msg/s, regressed (its own gate, ab.csv)"
	# a gate file that is not one: named
	echo 'label,metric' >results/noise/n05/ab.csv
	run_matrix history results/noise; expect_rc 2
	expect_err "matrix history: results/noise/n05/ab.csv: no new_cell column: not a comparison's file"
	return 0
}
