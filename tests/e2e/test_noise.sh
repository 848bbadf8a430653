# Noise handled where it starts: the order of cell repetitions (shuffled
# within each round by default, --seed replays it, --order sequential),
# the load average around every repetition, short timed windows flagged,
# and --set KEY=VALUE overriding the matrix from the command line.

six_cells() {
	mat m.yaml <<'Y'
name: order
repeat: 2
warmup: 1
matrix:
  transport: unix
  size: [10, 20, 30, 40, 50, 60]
  count: 20
Y
}

# The (cell, rep) pairs of a results.csv in row order, one per line.
cell_rep_order() { csvq "$1" cell rep | tr '\t' :; }

# Every round holds every cell once, and the rounds come in order.
expect_rounds() {
	local csv=$1 ncells=$2 nreps=$3 r
	[ "$(csvq "$csv" --rows)" -eq $((ncells * nreps)) ] || die "$csv: $(csvq "$csv" --rows) rows"
	for r in $(seq 1 "$nreps"); do
		[ "$(csvq "$csv" rep | sed -n "$(((r - 1) * ncells + 1)),$((r * ncells))p" | sort -u)" = "$r" ] ||
			die "$csv: round $r is not repetition $r of every cell: $(cell_rep_order "$csv" | tr '\n' ' ')"
		[ "$(csvq "$csv" cell | sed -n "$(((r - 1) * ncells + 1)),$((r * ncells))p" | sort -n | tr '\n' ' ')" = \
		  "$(seq 1 "$ncells" | tr '\n' ' ')" ] || die "$csv: round $r lacks a cell or has one twice"
	done
}

t_seed_replays_the_order() {
	six_cells
	run_matrix run m.yaml -o a --seed 7; expect_rc 0
	run_matrix run m.yaml -o b --seed 7 --order shuffled; expect_rc 0
	expect_rounds a/results.csv 6 2
	[ "$(cell_rep_order a/results.csv)" = "$(cell_rep_order b/results.csv)" ] ||
		die "--seed 7 twice, two orders: $(cell_rep_order a/results.csv | tr '\n' ' ') vs $(cell_rep_order b/results.csv | tr '\n' ' ')"
	# seed 7 shuffles 6 cells as 2 6 1 3 5 4, then 1 2 5 3 6 4 (tests/unit/test_order.c)
	[ "$(csvq a/results.csv cell | tr '\n' ' ')" = "2 6 1 3 5 4 1 2 5 3 6 4 " ] ||
		die "seed 7 ran cells $(csvq a/results.csv cell | tr '\n' ' ')"
	[ "$(meta_key a seed)" = 7 ] || die "meta.csv seed: $(meta_key a seed)"
	[ "$(meta_key a order)" = shuffled ] || die "meta.csv order: $(meta_key a order)"
	# the progress line names the cell that ran, and how far the run is
	run_matrix run m.yaml -o c --seed 7; expect_rc 0
	grep -q '^\[cell 2 rep 1/2; 1 of 12\] size=20: ok' "$T/.err" ||
		die "progress lines: $(head -3 "$T/.err")"
	grep -q '^\[cell 4 rep 2/2; 12 of 12\] size=40: ok' "$T/.err" ||
		die "progress lines: $(tail -3 "$T/.err")"
}

t_default_order_is_shuffled_with_its_seed_kept() {
	six_cells
	run_matrix run m.yaml -o a --quiet; expect_rc 0
	local seed; seed=$(meta_key a seed)
	[[ "$seed" =~ ^[0-9]+$ ]] || die "meta.csv seed '$seed' is not a number"
	[ "$(meta_key a order)" = shuffled ] || die "meta.csv order: $(meta_key a order)"
	expect_rounds a/results.csv 6 2
	# the seed kept replays the run's order
	run_matrix run m.yaml -o b --quiet --seed "$seed"; expect_rc 0
	[ "$(cell_rep_order a/results.csv)" = "$(cell_rep_order b/results.csv)" ] ||
		die "--seed $seed does not replay the order of the run that used it"
	matrix report a --quiet || die "report of a shuffled run failed"
	csvq a/summary.csv cell | tr '\n' ' ' | grep -qx '1 2 3 4 5 6 ' || die "summary.csv not in cell order"
}

t_order_sequential_is_cell_order() {
	six_cells
	run_matrix run m.yaml -o a --order sequential --quiet; expect_rc 0
	[ "$(csvq a/results.csv cell | tr '\n' ' ')" = "1 2 3 4 5 6 1 2 3 4 5 6 " ] ||
		die "--order sequential ran $(csvq a/results.csv cell | tr '\n' ' ')"
	[ "$(csvq a/results.csv rep | tr '\n' ' ')" = "1 1 1 1 1 1 2 2 2 2 2 2 " ] ||
		die "--order sequential reps $(csvq a/results.csv rep | tr '\n' ' ')"
	[ "$(meta_key a order)" = sequential ] || die "meta.csv order: $(meta_key a order)"
	[ -z "$(meta_key a seed)" ] || die "a sequential run has a seed: $(meta_key a seed)"
}

t_bad_order_and_seed() {
	six_cells
	run_matrix run m.yaml -o out --seed x; expect_rc 2
	expect_err "matrix: --seed x: expected a whole number from 0 to 18446744073709551615"
	run_matrix run m.yaml -o out --seed -1; expect_rc 2
	expect_err "--seed -1: expected a whole number"
	run_matrix run m.yaml -o out --seed 18446744073709551616; expect_rc 2
	expect_err "--seed 18446744073709551616: expected a whole number"
	run_matrix run m.yaml -o out --seed ''; expect_rc 2
	expect_err "--seed : expected a whole number"
	run_matrix run m.yaml -o out --order random; expect_rc 2
	expect_err "matrix: --order random: expected shuffled or sequential"
	run_matrix run m.yaml -o out --order sequential --seed 3; expect_rc 2
	expect_err "--seed orders a shuffled run; --order sequential has none"
	run_matrix plan m.yaml --seed 3; expect_rc 2
	expect_err "usage: matrix plan"
	[ ! -e out ] || die "a bad flag made the run folder"
	run_matrix plan m.yaml; expect_rc 0
	# the largest seed is a seed
	run_matrix run m.yaml -o big --seed 18446744073709551615 --quiet; expect_rc 0
	[ "$(meta_key big seed)" = 18446744073709551615 ] || die "seed 2^64-1 not kept"
}

t_loadavg_around_each_repetition() {
	six_cells
	run_matrix run m.yaml -o a --quiet; expect_rc 0
	# appended at the end: every older column stays where it was
	# (right after printed_metrics; later columns come after them)
	[ "$(csvq a/results.csv --header | grep -x -A2 printed_metrics | tail -2 | tr '\n' ' ')" = "loadavg_before loadavg_after " ] ||
		die "header ends: $(csvq a/results.csv --header | tail -4 | tr '\n' ' ')"
	[ "$(csvq a/results.csv --header | sed -n 6p)" = status ] || die "status moved"
	local b after n=0
	while IFS=$'\t' read -r b after; do
		[[ "$b" =~ ^[0-9]+(\.[0-9]+)?$ && "$after" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
			die "loadavg '$b' '$after' is not a load average"
		le "$b" 1000 && le "$after" 1000 || die "loadavg $b $after"
		n=$((n + 1))
	done < <(csvq a/results.csv loadavg_before loadavg_after)
	[ "$n" -eq 12 ] || die "$n rows with a load average"
}

# The machine's state around every repetition (results.h): the columns
# after placement, each a sane figure, failed rows or not.
two_windows() {
	mat m.yaml <<'Y'
name: state
repeat: 2
warmup: 5
matrix:
  transport: [unix, tcp]
  duration: 300ms
Y
}

expect_sane_state() {
	local steal iowait run mhz other n=0
	# cpu_mhz last: read folds a run of tabs, so an empty field must end the line
	while IFS=$'\t' read -r steal iowait run other mhz; do
		[[ "$steal" =~ ^[0-9]+(\.[0-9]+)?$ && "$iowait" =~ ^[0-9]+(\.[0-9]+)?$ &&
		   "$other" =~ ^[0-9]+(\.[0-9]+)?$ && "$run" =~ ^[0-9]+$ ]] ||
			die "steal '$steal' iowait '$iowait' runnable '$run' other '$other': not figures"
		le "$steal" 100 && le "$iowait" 100 || die "steal $steal, iowait $iowait: above 100%"
		le 1 "$run" || die "runnable $run: the runner itself is one"
		# a machine without cpufreq leaves it empty (this VM), else MHz
		[ -z "$mhz" ] || { [[ "$mhz" =~ ^[0-9]+$ ]] && le 100 "$mhz" && le "$mhz" 10000; } ||
			die "cpu_mhz '$mhz'"
		n=$((n + 1))
	done < <(csvq "$1/results.csv" steal_pct iowait_pct runnable other_cpus cpu_mhz)
	[ "$n" -eq 4 ] || die "$n rows with the machine's state"
}

t_machine_state_around_each_repetition() {
	two_windows
	run_matrix run m.yaml -o a --quiet; expect_rc 0
	[ "$(csvq a/results.csv --header | tail -8 | tr '\n' ' ')" = \
	  "placement steal_pct iowait_pct runnable cpu_mhz other_cpus congestion mss " ] ||
		die "header ends: $(csvq a/results.csv --header | tail -8 | tr '\n' ' ')"
	expect_sane_state a
	# a window under 0.1 s is mostly the counters' rounding: no figures.
	# The window is the whole repetition (spawn to reap), which a loaded
	# machine can stretch past 0.1 s even for 10 ms of traffic: only the
	# rows whose repetition took under 80 ms are held to it (on a quiet
	# machine, all of them)
	run_matrix run m.yaml -o short --set duration=10ms --quiet; expect_rc 0
	local bad
	bad=$(csvq short/results.csv wall_s steal_pct iowait_pct other_cpus |
		awk -F'\t' '$1 < 0.08 && ($2 != "" || $3 != "" || $4 != "")')
	[ -z "$bad" ] || die "windows under 0.1 s have figures: $bad"
	[ "$(csvq short/results.csv runnable | grep -c '^[0-9]')" -eq 4 ] ||
		die "runnable missing: $(csvq short/results.csv runnable)"
}

# CPU time of a process so far, in seconds (utime + stime of /proc/PID/stat)
cpu_s_of() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}

HOGS=''
kill_hogs() {
	local p
	for p in $HOGS; do kill "$p" 2>/dev/null; done
	e2e_teardown
}

# Two CPU hogs of the test's own beside the run: other_cpus sees them.
# Every repetition reads more than 0.3 CPUs, and the run's mean at least
# most of what the hogs used (the machine's other load only adds), and
# summary.md and the console say the machine was busy.
t_machine_state_sees_a_cpu_hog() {
	two_windows
	trap kill_hogs EXIT
	sh -c 'while :; do :; done' & HOGS="$HOGS $!"
	sh -c 'while :; do :; done' & HOGS="$HOGS $!"
	local h1 h2 t0 t1 c0 c1
	read -r h1 h2 <<<"$HOGS"
	c0=$(awk -v a="$(cpu_s_of "$h1")" -v b="$(cpu_s_of "$h2")" 'BEGIN { print a + b }')
	t0=$(date +%s.%N)
	run_matrix run m.yaml -o hog; expect_rc 0
	t1=$(date +%s.%N)
	c1=$(awk -v a="$(cpu_s_of "$h1")" -v b="$(cpu_s_of "$h2")" 'BEGIN { print a + b }')
	expect_sane_state hog
	local used mean
	used=$(awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" 'BEGIN { print (c1 - c0) / (t1 - t0) }')
	csvq hog/results.csv other_cpus | while read -r v; do
		le 0.3 "$v" || die "other_cpus $v with two hogs using $used CPUs"
	done
	mean=$(csvq hog/results.csv other_cpus | awk '{ s += $1 } END { print s / NR }')
	le "$(awk -v u="$used" 'BEGIN { print 0.7 * u }')" "$mean" ||
		die "other_cpus mean $mean, the hogs used $used CPUs"
	local cores; cores=$(meta_value hog cores)
	if [ "$cores" -le 4 ]; then	# 2 hogs are above a quarter of the cores
		grep -q '^\*\*A busy machine:\*\* .*other processes used more than [0-9.]* of the '"$cores"' CPUs in [0-9]* of the 4 repetitions' hog/summary.md ||
			die "summary.md: $(grep -i busy hog/summary.md)"
		grep -q "results.csv's .*\`other_cpus\`" hog/summary.md || die "summary.md names no column"
		expect_err "matrix: warning: a busy machine: "
		expect_err "other processes used more than"
	fi
}

t_short_window_warned_and_marked() {
	mat m.yaml <<'Y'
name: short
repeat: 3
warmup: 1
matrix:
  transport: unix
  duration: [20ms, 150ms]
Y
	run_matrix run m.yaml -o a; expect_rc 0
	# once per cell, for the short cell only
	[ "$(grep -c '^matrix: cell 1: timed window [0-9.]* ms, under 100 ms: mostly start-up; raise count or set duration$' "$T/.err")" -eq 1 ] ||
		die "cell 1 not warned once: $(cat "$T/.err")"
	grep -q '^matrix: cell 2:' "$T/.err" && die "cell 2 (150 ms) warned: $(cat "$T/.err")"
	grep -q '^| 20ms | .* ‡ |$' a/summary.md || die "cell 1 not marked: $(grep '^| 20ms' a/summary.md)"
	grep '^| 150ms | ' a/summary.md | grep -q '‡' && die "cell 2 marked: $(grep '^| 150ms' a/summary.md)"
	grep -q '^`‡`: the cell.s timed window' a/summary.md || die "no key to ‡ in summary.md"
	# --quiet keeps it quiet
	run_matrix run m.yaml -o b --quiet; expect_rc 0
	[ ! -s "$T/.err" ] || die "--quiet printed: $(cat "$T/.err")"
}

# repeat: auto stops a cell once its interval of msgs_per_s is narrow
# enough, or at the most; the row where it stopped says which.
t_repeat_auto_stops_when_narrow_or_at_max() {
	mat m.yaml <<'Y'
name: auto
repeat: {min: 3, max: 6, width: 900%}
warmup: 5
matrix:
  pattern: pingpong
  transport: unix
  size: 16
  count: 200
Y
	run_matrix run m.yaml -o wide -q; expect_rc 0
	# any interval is within 900%: every cell stops at its minimum
	[ "$(csvq wide/results.csv --rows)" -eq 3 ] || die "$(csvq wide/results.csv --rows) rows, not 3"
	csvq wide/results.csv rep repeat_stop | grep -qE '^3	narrow \([0-9.]+%\)$' ||
		die "the third row does not say narrow: $(csvq wide/results.csv rep repeat_stop)"
	grep -q '^repeat_auto,"min 3, max 6, width 900%"$' wide/meta.csv || die "meta.csv lacks repeat_auto"
	# summary.csv says why the cell stopped, and that its 200 round trips
	# made a short window (summary.md's mark), with the window's median
	csvq wide/summary.csv cell repeat_stop short_window | grep -qE '^1	narrow \([0-9.]+%\)	1$' ||
		die "summary.csv's repeat_stop, short_window: $(csvq wide/summary.csv cell repeat_stop short_window)"
	csvq wide/summary.csv window_s | awk '$1 > 0 && $1 < 0.1 { ok = 1 } END { exit !ok }' ||
		die "summary.csv's window_s: $(csvq wide/summary.csv window_s)"
	sed -i 's/width: 900%/width: 0.0001%/' m.yaml
	run_matrix run m.yaml -o narrow -q; expect_rc 0
	# no interval is that narrow: the most repetitions, and the last says so
	[ "$(csvq narrow/results.csv --rows)" -eq 6 ] || die "$(csvq narrow/results.csv --rows) rows, not 6"
	csvq narrow/results.csv rep repeat_stop | grep -qE '^6	max \([0-9.]+%\)$' ||
		die "the last row does not say max: $(csvq narrow/results.csv rep repeat_stop)"
	[ "$(csvq narrow/results.csv repeat_stop | grep -c .)" -eq 1 ] || die "more than one row says why"
	# --repeat is a fixed number, over repeat: auto
	run_matrix run m.yaml -o fixed -q --repeat 2; expect_rc 0
	[ "$(csvq fixed/results.csv --rows)" -eq 2 ] || die "--repeat 2 ran $(csvq fixed/results.csv --rows)"
}

big_matrix() {
	mat m.yaml <<'Y'
name: nightly
repeat: 7
warmup: 1
matrix:
  transport: [unix, tcp]
  size: [16, 1KiB]
  count: 5000000      # far too many for a smoke run
exclude:
  - {transport: tcp, size: 1KiB}
Y
}

t_set_overrides_the_matrix() {
	big_matrix
	run_matrix plan m.yaml --set count=50 --set repeat=2; expect_rc 0
	grep -q "3 cells x 2 repetitions = 6 cell runs" "$T/.out" || die "plan: $(tail -1 "$T/.out")"
	[ "$(grep -cE '^ +[0-9]+  pingpong .* 50 ' "$T/.out")" -eq 3 ] || die "plan: $(cat "$T/.out")"
	run_matrix run m.yaml -o a --set count=50 --quiet --set repeat=2; expect_rc 0
	expect_all a/results.csv messages 50
	expect_all a/results.csv count 50
	[ "$(csvq a/results.csv --rows)" -eq 6 ] || die "$(csvq a/results.csv --rows) rows, expected 3 cells x 2"
	[ "$(meta_key a set)" = "--set count=50 --set repeat=2" ] || die "meta.csv set: $(meta_key a set)"
	# the folder's matrix.yaml is the matrix that ran, and says so first
	[ "$(head -1 a/matrix.yaml)" = "# matrix: --set count=50 --set repeat=2 applied to this copy" ] ||
		die "matrix.yaml starts: $(head -1 a/matrix.yaml)"
	grep -qx '  count: 50      # far too many for a smoke run' a/matrix.yaml ||
		die "matrix.yaml: $(cat a/matrix.yaml)"
	grep -qx 'repeat: 2' a/matrix.yaml || die "matrix.yaml: $(cat a/matrix.yaml)"
	[ "$(tail -n +2 a/matrix.yaml | grep -cv -e '^  count: 50 ' -e '^repeat: 2$')" -eq \
	  "$(grep -cv -e '^  count: ' -e '^repeat: ' m.yaml)" ] || die "other lines changed: $(cat a/matrix.yaml)"
	# and `matrix report` reads it back to the same pages
	cp a/summary.md run-summary.md
	matrix report a --quiet || die "report failed"
	cmp -s run-summary.md a/summary.md || die "report differs from the run's: $(diff run-summary.md a/summary.md)"
	grep -q 'count 50' a/summary.md || die "summary.md does not say count 50"
	"$MATRIX_BIN" plan a/matrix.yaml | grep -q "3 cells x 2 repetitions" || die "the copy does not plan as run"
	# without --set: the key is there, empty, and the copy is the file
	six_cells
	run_matrix run m.yaml -o b --quiet; expect_rc 0
	[ -z "$(meta_key b set)" ] || die "meta.csv set without --set: $(meta_key b set)"
	cmp -s m.yaml b/matrix.yaml || die "matrix.yaml is not the file as given"
}

t_set_bad_input() {
	big_matrix
	run_matrix run m.yaml -o out --set conut=50; expect_rc 2
	expect_err "matrix: --set conut=50: unknown key 'conut'; did you mean 'count'?"
	run_matrix run m.yaml -o out --set count=abc; expect_rc 2
	expect_err "matrix: --set count=abc: count: invalid count 'abc'"
	run_matrix run m.yaml -o out --set count=1 --set concurrency=2; expect_rc 2
	expect_err "matrix: --set count=1: count 1 is less than concurrency 2"
	run_matrix run m.yaml -o out --set count; expect_rc 2
	expect_err "matrix: --set count: expected KEY=VALUE"
	# a value the rest of the file no longer agrees with: the file's place
	run_matrix plan m.yaml --set transport=unix; expect_rc 2
	expect_err "m.yaml:9:17: exclude: transport tcp is not a value of dimension 'transport' (with --set transport=unix)"
	[ ! -e out ] || die "bad --set made the run folder"
}
