#!/usr/bin/env bash
# The test driver.  Runs every test of every build given, then the driver's
# own tests, and ends with one line that counts every test that ran:
#   N passed, N failed, N skipped
# and exit status 0 only when nothing failed.
#
#   tests/run.sh [--only REGEX] BUILD...      e.g. build/release build/asan
#   tests/run.sh --units 'GLOB' [--e2e 'GLOB'] [BUILD...]
#                                             other unit binaries / e2e files
#                                             (the driver's own tests use this)
#
# Unit tests: each BUILD/tests/test_* binary is a cmocka program printing
# TAP on stdout (stderr is kept apart, so a failure message cannot hide a
# `not ok` line).  Every test of its plan is counted: `ok` passes, `not ok
# ... # SKIP` is skipped, `not ok` fails.  The binary fails as a whole, and
# is counted as one more failure, when it exits non-zero with no failed
# test to show for it, dies of a signal, runs out of time, prints no plan
# or fewer results than its plan, or a sanitizer reports anything.
#
# End-to-end tests: every function t_NAME in tests/e2e/test_*.sh, run in a
# bash of its own with lib.sh (see there).  One fails when it exits
# non-zero (77 means skipped, and its reason is printed), when `die` was
# called anywhere in it (even in a subshell or a pipeline, whose exit status
# bash would lose), or when any process it ran left a sanitizer report.
#
# How they run.  A job is one unit binary, or one end-to-end file's tests
# (one after another, in a bash each) of one build; TEST_JOBS jobs (3: on
# 2 cores most jobs wait on a child or a socket part of the time, and a
# third fills it; 6 min 30 s against 6 min 59 s for make test here) run
# at once, of any build, so the plain and the sanitized builds' tests
# overlap; one file's jobs of two builds never run at the same time (a
# file may use a fixed name or port of its own).  A job's output is kept
# and printed whole when it ends: lines of two jobs never mix, and each
# job's counts are added to the total.  The longest jobs start first (their
# times from the last whole run, build/test-times; the number of tests
# before there is one).  Two lists (TEST_ONCE and TEST_ALONE in the
# environment replace them, for the driver's own tests) say what runs
# otherwise, each entry FILE (every test of it) or FILE:t_NAME:
#
#   ONCE   tests that do not depend on the build (they read the sources and
#          the release build's objects), or whose subject is the same in
#          every build (a page in a browser, the README's text): run in the
#          first build only.
#   ALONE  tests that time what they run against bounds another test's CPU
#          use beside them could break: run after the others, one at a
#          time, with no other test beside them.
#
# At the end, before the closing count line: the ten slowest tests (and
# the CPU time of what each ran and waited for), each build's test time
# (the sum of its tests' times) and CPU time, the driver's wall time and,
# when TEST_STARTED (date +%s.%N) is set, the time since then (make test
# sets it at its start: builds and tests).
#
# --only REGEX runs only the tests whose name matches: unit binaries are
# named unit:test_NAME, end-to-end tests e2e:FILE.sh:t_NAME, the driver's
# own driver:test_driver.sh:t_NAME.
set -u
cd "$(dirname "$0")/.."

# run once too: what a browser makes of a report page, and the README's
# examples and claims against the release binary (the same bytes and the
# same commands in every build; the sanitized builds run those commands in
# the other tests); what gnuplot draws of our charts (test_charts: its
# time is gnuplot's drawing and the images read back; the scripts are
# written by the code test_report, test_marks and test_html run under
# ASan) and the source experiments rerun (test_seeds: Go, Java and
# Python toolchains, the seeds' matrices run in other files' shapes); a
# night beside two CPU hogs of the test's own (its subject is what the
# guard makes of the machine; its commands run under ASan in test_nightly's
# other tests and test_compare's busy-machine pair); the ssh tests that
# count what runs under sshd (sessions, logins, what a killed runner
# leaves: the same processes in every build; the agent's code runs under
# ASan in test_ssh's other tests) and merge's signal test under strace
ONCE=${TEST_ONCE-test_layout.sh test_mutate.sh test_readme.sh test_charts.sh test_seeds.sh
test_nightly.sh:t_same_build_on_a_busier_night_is_no_alarm
test_ssh.sh:t_ssh_default_port_is_one_host test_ssh.sh:t_agent_one_session_for_every_repetition
test_ssh.sh:t_sigkill_leaves_no_remote_worker test_shard.sh:t_merge_interrupted_leaves_nothing
test_html.sh:t_default_matrix_page_in_chromium test_html.sh:t_hostile_text_stays_text_in_chromium}
# upper bounds on times a neighbour's CPU use stretches: a 2 ms link's
# fastest round trip, paced schedules kept, latencies from the schedule,
# round trips around a known server delay
ALONE=${TEST_ALONE-test_netns.sh:t_netns_delay_is_in_the_round_trip
test_rate.sh:t_paced_cells_keep_their_schedule test_rate.sh:t_latency_counts_from_the_schedule
test_timing.sh}
JOBS=${TEST_JOBS:-3}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
TIMES=build/test-times
only='' unit_glob='' e2e_glob='' builds=()
while [ $# -gt 0 ]; do
	case "$1" in
	--only) only=$2; shift 2 ;;
	--units) unit_glob=$2; shift 2 ;;
	--e2e) e2e_glob=$2; shift 2 ;;
	-*) echo "tests/run.sh: unknown option $1" >&2; exit 2 ;;
	*) builds+=("$1"); shift ;;
	esac
done
[ ${#builds[@]} -gt 0 ] || [ -n "$unit_glob" ] || {
	echo "usage: tests/run.sh [--only REGEX] BUILD... | --units GLOB [--e2e GLOB] [BUILD...]" >&2
	exit 2
}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "tests/run.sh: TEST_JOBS=$JOBS is no count" >&2; exit 2; }

started=${EPOCHREALTIME/[.,]/}
passed=0 failed=0 skipped=0
failures=() times=()
WORK=$(mktemp -d /tmp/matrix-run.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

selected() { [ -z "$only" ] || [[ $1 =~ $only ]]; }

# Times in whole microseconds, in bash's arithmetic: no process forked
# for them, some 850 tests over.  ${EPOCHREALTIME/[.,]/} is now's; secs
# VAR US sets VAR to US as seconds, one decimal; since VAR US, the seconds
# from US to now.
secs() { printf -v "$1" '%d.%d' $(($2 / 1000000)) $(($2 % 1000000 / 100000)); }
since() { secs "$1" $((${EPOCHREALTIME/[.,]/} - $2)); }

# cpu_now: sets CPU to the microseconds of CPU (user and system) of every
# child this shell has waited for; a test's is the difference around it
# (call it as a command: a subshell would count its own)
cpu_now() {
	local f=$WORK/times.$BASHPID line us=0 t
	times >"$f"
	{ read -r _; read -r line; } <"$f"
	for t in $line; do	# 1m2.345s
		[[ $t =~ ^([0-9]+)m([0-9]+)\.([0-9]{3})s$ ]] || continue
		us=$((us + (BASH_REMATCH[1] * 60 + 10#${BASH_REMATCH[2]}) * 1000000 + 10#${BASH_REMATCH[3]} * 1000))
	done
	CPU=$us
}

# Sanitizer reports go to files in $1, so that nothing a test runs (a
# worker, a forked child) can report an error where nobody looks.
sanitizer_env() {
	local d=$1
	export ASAN_OPTIONS="log_path=$d/asan:detect_leaks=1"
	export UBSAN_OPTIONS="log_path=$d/ubsan:print_stacktrace=1:halt_on_error=1"
	export LSAN_OPTIONS="log_path=$d/lsan"
}

# What a sanitizer report looks like.  UBSan next to ASan ignores
# log_path and writes to stderr, so output is searched for these too.
SAN_RE=': runtime error: |ERROR: (Address|Leak)Sanitizer|SUMMARY: [A-Za-z]+Sanitizer'
export SAN_RE

# Prints the sanitizer reports in $1 (a log_path folder) and in the files
# after it (indented); succeeds when there are any.
sanitizer_reports() {
	local dir=$1 f any=1
	shift
	for f in "$dir"/*; do
		[ -s "$f" ] || continue
		any=0
		echo "    | sanitizer report ${f##*/}:"
		sed 's/^/    | /' "$f" | head -40
	done
	for f in "$@"; do
		grep -Eq "$SAN_RE" "$f" 2>/dev/null || continue
		any=0
		echo "    | sanitizer report in ${f##*/}:"
		grep -E -A12 "$SAN_RE" "$f" | head -40 | sed 's/^/    | /'
	done
	return $any
}

fail_test() {	# NAME REASON
	failed=$((failed + 1))
	failures+=("$1: $2")
}

# run_unit TAG BINARY
run_unit() {
	local tag=$1 bin=$2 name=unit:${2##*/}
	local dir out err rc=0 plan=-1 ok=0 bad=0 skip=0 line why='' start cpu0 secs cpus
	start=${EPOCHREALTIME/[.,]/}
	cpu_now; cpu0=$CPU
	dir=$(mktemp -d)
	out=$dir/stdout err=$dir/stderr
	mkdir "$dir/san"
	(
		sanitizer_env "$dir/san"
		export CMOCKA_MESSAGE_OUTPUT=TAP
		exec timeout -k 5 "$TEST_TIMEOUT" "$bin" >"$out" 2>"$err" </dev/null
	) || rc=$?
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok=$((ok + 1)) ;;
		"not ok "*"# SKIP"*)
			skip=$((skip + 1))
			line=${line#*# SKIP}
			echo "[$tag] $name: skipped: ${line# }" ;;
		"not ok "*)
			bad=$((bad + 1))
			fail_test "[$tag] $name" "${line#not ok }" ;;
		1..*) [ "$plan" -lt 0 ] && plan=${line#1..} ;;
		esac
	done <"$out"
	passed=$((passed + ok))
	skipped=$((skipped + skip))
	[[ $plan =~ ^[0-9]+$ ]] || plan=-1
	if [ "$rc" -eq 124 ]; then
		why="ran out of time (${TEST_TIMEOUT}s)"
	elif [ "$rc" -gt 128 ]; then
		why="killed by signal $((rc - 128))"
	elif [ "$plan" -lt 0 ]; then
		why="printed no TAP plan (exit $rc)"
	elif [ $((ok + bad + skip)) -ne "$plan" ]; then
		why="plan of $plan tests, $((ok + bad + skip)) reported (exit $rc)"
	elif [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		why="exited $rc with no failed test"
	elif [ "$rc" -eq 0 ] && [ "$bad" -gt 0 ]; then
		why="exited 0 with $bad failed tests"
	fi
	if sanitizer_reports "$dir/san" "$err" >"$dir/san.txt"; then
		why="${why:+$why; }sanitizer report"
	fi
	if [ -n "$why" ]; then
		fail_test "[$tag] $name" "$why"
		echo "[$tag] $name: FAILED: $why"
	fi
	if [ -n "$why" ] || [ "$bad" -gt 0 ]; then
		sed 's/^/    | /' "$out" | grep -v '^    | ok ' | tail -30
		sed 's/^/    | /' "$err" | cut -c1-300 | tail -30
		cat "$dir/san.txt"
	fi
	since secs "$start"
	cpu_now; secs cpus $((CPU - cpu0))
	times+=("$secs $tag ${bin##*/} $((ok + bad + skip)) $cpus")
	printf '[%s] %-28s %d ok, %d not ok, %d skipped%s (%ss)\n' "$tag" "${bin##*/}" "$ok" "$bad" \
		"$skip" "${why:+, FAILED}" "$secs"
	rm -rf "$dir"
}

# run_e2e TAG FILE FUNCTION
run_e2e() {
	local tag=$1 f=$2 fn=$3 name
	local dir rc=0 res start why='' secs cpu0 cpus
	name=$(e2e_name "$f" "$fn")
	dir=$(mktemp -d)
	mkdir "$dir/san"
	: >"$dir/died"
	start=${EPOCHREALTIME/[.,]/}
	cpu_now; cpu0=$CPU
	(
		sanitizer_env "$dir/san"
		export E2E_DIED="$dir/died"
		exec timeout -k 5 "$TEST_TIMEOUT" bash -c \
			'source tests/e2e/lib.sh; source "$0"; e2e_setup; trap e2e_teardown EXIT; "$1"' \
			"$f" "$fn"
	) >"$dir/log" 2>&1 </dev/null || rc=$?
	if [ "$rc" -eq 124 ]; then
		why="ran out of time (${TEST_TIMEOUT}s)"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
		why="exit $rc"
	fi
	if [ -s "$dir/died" ]; then
		why="${why:+$why; }died: $(head -1 "$dir/died")"
	fi
	if sanitizer_reports "$dir/san" "$dir/log" >"$dir/san.txt"; then
		why="${why:+$why; }sanitizer report"
	fi
	if [ -n "$why" ]; then
		fail_test "[$tag] $name" "$why"
		res="FAIL: $why"
		sed 's/^/    | /' "$dir/log" | tail -30
		cat "$dir/san.txt"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		res="skipped: $(tail -1 "$dir/log")"
	else
		passed=$((passed + 1))
		res=ok
	fi
	since secs "$start"
	cpu_now; secs cpus $((CPU - cpu0))
	times+=("$secs $tag ${f##*/}:$fn 1 $cpus")
	printf '[%s] %-52s %s (%ss)\n' "$tag" "${f##*/}:$fn" "$res" "$secs"
	rm -rf "$dir"
}

# e2e_name FILE FUNCTION: the test's name for --only
e2e_name() {
	case "$1" in
	tests/driver/*) echo "driver:${1##*/}:$2" ;;
	*) echo "e2e:${1##*/}:$2" ;;
	esac
}

# Every t_* function of an e2e file.
e2e_functions() {
	bash -c 'source "$0" && declare -F' "$1" | awk '$3 ~ /^t_/ { print $3 }'
}

# listed LIST FILE FUNCTION: is the test in the list (ONCE, ALONE)?
listed() {
	local e
	for e in $1; do
		[ "$e" = "${2##*/}" ] || [ "$e" = "${2##*/}:$3" ] && return 0
	done
	return 1
}

# The jobs, by number: tag, build folder, unit binary or e2e file, the
# e2e functions to run ("" for a unit binary), alone or not, estimate.
J_TAG=() J_BUILD=() J_FILE=() J_FNS=() J_ALONE=() J_EST=()
declare -A LAST=()	# "TAG FILE" -> seconds, from the last whole run
if [ -r "$TIMES" ]; then
	while read -r secs key; do LAST[$key]=$secs; done <"$TIMES"
fi

add_job() {	# TAG BUILD FILE FNS ALONE
	local n=${#J_TAG[@]} k="$1 ${3##*/}" fns=($4)
	J_TAG[n]=$1 J_BUILD[n]=$2 J_FILE[n]=$3 J_FNS[n]=$4 J_ALONE[n]=$5
	J_EST[n]=${LAST[$k]:-$((${#fns[@]} > 0 ? ${#fns[@]} : 1))}
}

# add_unit_jobs TAG BUILD BINARY...
add_unit_jobs() {
	local tag=$1 build=$2 t
	shift 2
	for t in "$@"; do
		[ -x "$t" ] || continue
		selected "unit:${t##*/}" && add_job "$tag" "$build" "$t" "" 0
	done
}

# add_e2e_jobs TAG BUILD FIRST FILE...: FIRST is 1 in the first build
# (where ONCE tests run)
add_e2e_jobs() {
	local tag=$1 build=$2 first=$3 f fn fns pool alone
	shift 3
	for f in "$@"; do
		[ -f "$f" ] || continue
		fns=$(e2e_functions "$f") || { fail_test "[$tag] $f" "cannot be sourced"; continue; }
		[ -n "$fns" ] || { fail_test "[$tag] $f" "has no t_ function"; continue; }
		pool='' alone=''
		for fn in $fns; do
			selected "$(e2e_name "$f" "$fn")" || continue
			[ "$first" -eq 1 ] || ! listed "$ONCE" "$f" "$fn" || continue
			if listed "$ALONE" "$f" "$fn"; then
				alone="$alone $fn"
			else
				pool="$pool $fn"
			fi
		done
		[ -z "$pool" ] || add_job "$tag" "$build" "$f" "${pool# }" 0
		[ -z "$alone" ] || add_job "$tag" "$build" "$f" "${alone# }" 1
	done
}

# Runs job $1 (in a subshell of its own: the counts it keeps are its own)
# and writes its tally to $WORK/$1.res: "counts PASSED FAILED SKIPPED",
# then "failure NAME: REASON" and "time SECONDS TAG NAME TESTS CPU" lines.
run_job() {
	local j=$1 b=${J_BUILD[$1]} fn f
	passed=0 failed=0 skipped=0 failures=() times=()
	case "$b" in /*) ;; *) b=$PWD/$b ;; esac
	export MATRIX_BIN="$b/matrix" CSVQ="$b/tests/csvq" BUILD_TAG=${J_TAG[j]} BUILD_DIR=$b
	if [ -z "${J_FNS[j]}" ]; then
		run_unit "${J_TAG[j]}" "${J_FILE[j]}"
	else
		for fn in ${J_FNS[j]}; do
			run_e2e "${J_TAG[j]}" "${J_FILE[j]}" "$fn"
		done
	fi
	{
		echo "counts $passed $failed $skipped"
		for f in "${failures[@]}"; do echo "failure $f"; done
		for f in "${times[@]}"; do echo "time $f"; done
	} >"$WORK/$j.res"
}

# Prints job $1's output whole and adds its tally to the totals.
finish_job() {
	local j=$1 kind rest p f s
	cat "$WORK/$j.out"
	[ -s "$WORK/$j.res" ] || {
		fail_test "[${J_TAG[j]}] ${J_FILE[j]##*/}" "the driver's job ended without a tally"
		return
	}
	while read -r kind rest; do
		case "$kind" in
		counts)
			read -r p f s <<<"$rest"
			passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s)) ;;
		failure) failures+=("$rest") ;;
		time) times+=("$rest") ;;
		esac
	done <"$WORK/$j.res"
}

# pool MAX JOB...: runs the jobs, MAX at a time, longest estimate first;
# a job waits while the same e2e file runs in another build.
pool() {
	local max=$1 j k pick pid busy
	shift
	local -a queue
	declare -A running=()	# pid -> job
	mapfile -t queue < <(for j in "$@"; do echo "${J_EST[j]} $j"; done | sort -k1,1gr -k2,2n |
		awk '{ print $2 }')
	while [ ${#queue[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		while [ ${#running[@]} -lt "$max" ]; do
			pick=''
			for k in "${!queue[@]}"; do
				j=${queue[k]} busy=0
				if [ -n "${J_FNS[j]}" ]; then
					for pid in "${!running[@]}"; do
						[ "${J_FILE[${running[$pid]}]}" = "${J_FILE[j]}" ] && busy=1
					done
				fi
				[ "$busy" -eq 0 ] && { pick=$k; break; }
			done
			[ -n "$pick" ] || break
			j=${queue[pick]}
			unset 'queue[pick]'
			( run_job "$j" ) >"$WORK/$j.out" 2>&1 </dev/null &
			running[$!]=$j
		done
		pid=''
		wait -n -p pid "${!running[@]}"
		[ -n "$pid" ] || continue
		finish_job "${running[$pid]}"
		unset 'running[$pid]'
	done
}

export REPO=$PWD
# Charts as SVG only (reports/gnuplot.h): drawing the PNGs was most of the
# tests' gnuplot time, and only the tests that look at PNGs need them;
# those files set MATRIX_CHARTS=svg,png themselves (README, Testing).
export MATRIX_CHARTS=${MATRIX_CHARTS-svg}
if [ -n "$unit_glob" ]; then
	# the driver's own tests: given binaries and e2e files; one build is
	# tagged self, several by their names
	[ ${#builds[@]} -gt 0 ] || builds=(build/release)
	# shellcheck disable=SC2086 # the globs are the caller's
	add_unit_jobs self "${builds[0]}" $unit_glob
	first=1
	for build in "${builds[@]}"; do
		tag=self
		[ ${#builds[@]} -eq 1 ] || tag=${build##*/}
		[ -z "$e2e_glob" ] || add_e2e_jobs "$tag" "$build" "$first" $e2e_glob
		first=0
	done
	export FIXTURES="$PWD/build/fixtures"
else
	first=1
	for build in "${builds[@]}"; do
		tag=${build##*/}
		bins=("$build"/tests/test_*)
		[ -x "${bins[0]}" ] || fail_test "[$tag] unit" "no unit test binary in $build/tests"
		add_unit_jobs "$tag" "$build" "${bins[@]}"
		add_e2e_jobs "$tag" "$build" "$first" tests/e2e/test_*.sh
		first=0
	done
	# the driver's own tests, once: they run this script on small binaries
	# and e2e files made to pass, fail, crash, leak and skip
	export FIXTURES="$PWD/build/fixtures"
	add_e2e_jobs driver "${builds[0]}" 1 tests/driver/test_*.sh
fi

# every job beside another but the alone ones, which then run one by one
together=() alone=()
for j in "${!J_TAG[@]}"; do
	if [ "${J_ALONE[j]}" -eq 1 ]; then alone+=("$j"); else together+=("$j"); fi
done
[ ${#together[@]} -eq 0 ] || pool "$JOBS" "${together[@]}"
alone_start=${EPOCHREALTIME/[.,]/}
[ ${#alone[@]} -eq 0 ] || pool 1 "${alone[@]}"
since alone_secs "$alone_start"

# The times: the ten slowest tests, each tag's tests and their time; kept
# for the next run's order (whole runs only).
if [ ${#times[@]} -gt 0 ]; then
	echo "the ten slowest tests (wall time, CPU time of what they ran):"
	printf '%s\n' "${times[@]}" | sort -k1,1gr | head -10 |
		awk '{ printf "  %7.1fs %7.1fs  [%s] %s\n", $1, $5, $2, $3 }'
	printf '%s\n' "${times[@]}" | awk '
		!($2 in n) { order[++k] = $2 }
		{ n[$2] += $4; s[$2] += $1; c[$2] += $5 }
		END { for (i = 1; i <= k; i++)
			printf "%s: %d tests in %.1fs of test time, %.1fs of CPU\n", order[i], n[order[i]],
				s[order[i]], c[order[i]] }'
	if [ -z "$only" ] && [ -z "$unit_glob" ] && [ -d build ]; then
		printf '%s\n' "${times[@]}" | awk '{ split($3, a, ":"); s[$2 " " a[1]] += $1 }
			END { for (k in s) printf "%.1f %s\n", s[k], k }' | sort -k2 >"$TIMES.tmp" &&
			mv -f "$TIMES.tmp" "$TIMES"
	fi
fi
since wall "$started"
echo "tests/run.sh: ${wall}s wall, $JOBS jobs at a time (${alone_secs}s of it alone)"
if [ -n "${TEST_STARTED:-}" ]; then
	awk -v a="$TEST_STARTED" -v b="$EPOCHREALTIME" 'BEGIN { s = b - a
		printf "make test: %d min %d s from its start, builds and tests\n", s / 60, s % 60 }'
fi
for f in "${failures[@]}"; do echo "FAILED: $f"; done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]
