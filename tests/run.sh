#!/usr/bin/env bash
# Runs every test of every build given (build/release build/asan): the
# cmocka unit tests (TAP output) and the end-to-end tests in tests/e2e/,
# which run that build's real `matrix` binary.  Ends with one line:
#   N passed, N failed
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0 skipped=0
failures=()

for build in "$@"; do
	tag=${build##*/}
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
		while IFS= read -r line; do
			case "$line" in
			"ok "*) passed=$((passed + 1)) ;;
			"not ok "*) failed=$((failed + 1)); failures+=("$tag unit ${t##*/}: ${line#not ok }") ;;
			esac
		done <<<"$out"
		if ! grep -q '^1\.\.[0-9]' <<<"$out"; then
			failed=$((failed + 1))
			failures+=("$tag unit ${t##*/}: crashed or printed no plan")
			printf '%s\n' "$out" | tail -20
		fi
		printf '[%s] %-28s %s\n' "$tag" "${t##*/}" "$(grep -c '^ok ' <<<"$out") ok, $(grep -c '^not ok ' <<<"$out") not ok"
	done
	export MATRIX_BIN="$PWD/$build/matrix" CSVQ="$PWD/$build/tests/csvq" BUILD_TAG=$tag REPO="$PWD"
	for f in tests/e2e/test_*.sh; do
		# every function named t_* in the file is one test
		for fn in $(bash -c "source tests/e2e/lib.sh; source $f; declare -F" | awk '$3 ~ /^t_/ {print $3}'); do
			log=$(mktemp)
			start=$EPOCHREALTIME
			rc=0
			bash -c "source tests/e2e/lib.sh; source $f; e2e_setup; trap e2e_teardown EXIT; $fn" >"$log" 2>&1 || rc=$?
			if [ "$rc" -eq 0 ]; then
				passed=$((passed + 1)); res=ok
			elif [ "$rc" -eq 77 ]; then
				skipped=$((skipped + 1)); res="skipped: $(tail -1 "$log")"
			else
				failed=$((failed + 1)); res=FAIL
				failures+=("$tag e2e ${f##*/} $fn")
				sed 's/^/    | /' "$log" | tail -30
			fi
			printf '[%s] %-48s %s (%.1fs)\n' "$tag" "${f##*/}:$fn" "$res" "$(awk "BEGIN{print $EPOCHREALTIME - $start}")"
			rm -f "$log"
		done
	done
done
for f in "${failures[@]}"; do echo "FAILED: $f"; done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
