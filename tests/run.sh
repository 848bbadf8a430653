#!/usr/bin/env bash
# The test driver.  Runs every test of every build given, then the driver's
# own tests, and ends with one line that counts every test that ran:
#   N passed, N failed, N skipped
# and exit status 0 only when nothing failed.
#
#   tests/run.sh [--only REGEX] BUILD...      e.g. build/release build/asan
#   tests/run.sh --units 'GLOB' [--e2e 'GLOB'] [BUILD]
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
# --only REGEX runs only the tests whose name matches: unit binaries are
# named unit:test_NAME, end-to-end tests e2e:FILE.sh:t_NAME, the driver's
# own driver:test_driver.sh:t_NAME.
set -u
cd "$(dirname "$0")/.."

TEST_TIMEOUT=${TEST_TIMEOUT:-600}
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
	echo "usage: tests/run.sh [--only REGEX] BUILD... | --units GLOB [--e2e GLOB] [BUILD]" >&2
	exit 2
}

passed=0 failed=0 skipped=0
failures=()

selected() { [ -z "$only" ] || [[ $1 =~ $only ]]; }

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
	local dir out err rc=0 plan=-1 ok=0 bad=0 skip=0 line why=''
	selected "$name" || return 0
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
	printf '[%s] %-28s %d ok, %d not ok, %d skipped%s\n' "$tag" "${bin##*/}" "$ok" "$bad" \
		"$skip" "${why:+, FAILED}"
	rm -rf "$dir"
}

# run_e2e TAG FILE FUNCTION
run_e2e() {
	local tag=$1 f=$2 fn=$3 name
	local dir rc=0 res start why=''
	case "$f" in
	tests/driver/*) name=driver:${f##*/}:$fn ;;
	*) name=e2e:${f##*/}:$fn ;;
	esac
	selected "$name" || return 0
	dir=$(mktemp -d)
	mkdir "$dir/san"
	: >"$dir/died"
	start=$EPOCHREALTIME
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
	printf '[%s] %-52s %s (%.1fs)\n' "$tag" "${f##*/}:$fn" "$res" \
		"$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
	rm -rf "$dir"
}

# Every t_* function of an e2e file.
e2e_functions() {
	bash -c 'source "$0" && declare -F' "$1" | awk '$3 ~ /^t_/ { print $3 }'
}

run_e2e_files() {	# TAG FILE...
	local tag=$1 f fn fns
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		fns=$(e2e_functions "$f") || { fail_test "[$tag] $f" "cannot be sourced"; continue; }
		[ -n "$fns" ] || { fail_test "[$tag] $f" "has no t_ function"; continue; }
		for fn in $fns; do
			run_e2e "$tag" "$f" "$fn"
		done
	done
}

export REPO=$PWD
if [ -n "$unit_glob" ]; then
	# the driver's own tests: given binaries and e2e files, one build at most
	build=${builds[0]:-build/release}
	export MATRIX_BIN="$PWD/$build/matrix" CSVQ="$PWD/$build/tests/csvq" BUILD_TAG=self
	for t in $unit_glob; do
		[ -x "$t" ] && run_unit self "$t"
	done
	[ -z "$e2e_glob" ] || run_e2e_files self $e2e_glob
else
	for build in "${builds[@]}"; do
		tag=${build##*/}
		n=0
		for t in "$build"/tests/test_*; do
			[ -x "$t" ] || continue
			n=$((n + 1))
			run_unit "$tag" "$t"
		done
		[ "$n" -gt 0 ] || fail_test "[$tag] unit" "no unit test binary in $build/tests"
		export MATRIX_BIN="$PWD/$build/matrix" CSVQ="$PWD/$build/tests/csvq" BUILD_TAG=$tag
		export BUILD_DIR="$PWD/$build"
		run_e2e_files "$tag" tests/e2e/test_*.sh
	done
	# the driver's own tests, once: they run this script on small binaries
	# and e2e files made to pass, fail, crash, leak and skip
	export FIXTURES="$PWD/build/fixtures"
	run_e2e_files driver tests/driver/test_*.sh
fi

for f in "${failures[@]}"; do echo "FAILED: $f"; done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]
