#!/bin/sh
# Runs one fuzz target for SECONDS on a corpus seeded from the project's
# own inputs; exits 0 when nothing was found, 1 on a crash, a leak, a
# timeout or running out of memory (the input is saved and named).
#
#   tests/fuzz/run.sh build/fuzz/fuzz_NAME SECONDS [CORPUS]
#
# CORPUS defaults to build/fuzz/corpus/NAME, kept between runs so that
# `make fuzz` goes on where it stopped.  Seeds, copied in each time:
#   fuzz_matrix  matrices/*.yaml, tests/bad/*.yaml
#   fuzz_wire    tests/fuzz/seeds/*.wire, tests/bad/*.wire
#   fuzz_folder  every run folder of tests/data (bad-folders/ too), each
#                made into one input: its files, each after a line
#                "=== NAME" (tests/fuzz/fuzz_folder.c)
# A crash found becomes a file in tests/bad/ with its expected message
# (tests/bad/README), and a fix; one of fuzz_folder's a folder in
# tests/data/bad-folders/ with its expected.err.
set -u
cd "$(dirname "$0")/../.."
bin=$1 secs=$2 name=${1##*/}
corpus=${3:-build/fuzz/corpus/${name#fuzz_}}
case "$name" in
fuzz_matrix) seeds="matrices/*.yaml tests/bad/*.yaml" dict=tests/fuzz/matrix.dict ;;
fuzz_wire) seeds="tests/fuzz/seeds/*.wire tests/bad/*.wire" dict=tests/fuzz/wire.dict ;;
fuzz_folder) seeds="" dict=tests/fuzz/folder.dict ;;
*) echo "tests/fuzz/run.sh: unknown target $name" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "tests/fuzz/run.sh: $bin is not built (make fuzz-build)" >&2; exit 2; }
mkdir -p "$corpus" build/fuzz/crashes || exit 2
for f in $seeds; do
	[ -f "$f" ] && cp "$f" "$corpus/" || true
done
max_len=8192
if [ "$name" = fuzz_folder ]; then
	max_len=16384
	for d in tests/data/*/ tests/data/*/*/; do
		[ -f "$d/results.csv" ] && [ ! -p "$d/results.csv" ] || continue
		seed=$(printf '%s' "${d%/}" | tr -c 'A-Za-z0-9_-' _)
		for f in matrix.yaml results.csv hist.csv timeline.csv meta.csv; do
			[ -f "$d/$f" ] || continue
			printf '=== %s\n' "$f"
			cat "$d/$f"
		done >"$corpus/seed-$seed"
	done
fi
echo "fuzz: $name for ${secs}s, corpus $corpus ($(ls "$corpus" | wc -l) inputs)" >&2
# every input at most 10 s, 2 GiB; exit 1 whatever was found (libFuzzer's
# own codes 70 and 77 would read as "skipped" elsewhere); -runs caps a
# run whose clock stalls
timeout -k 5 $((secs + 120)) "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len="$max_len" -dict="$dict" -error_exitcode=1 -timeout_exitcode=1 \
	-artifact_prefix="build/fuzz/crashes/$name-" -print_final_stats=1 "$corpus" 2>"$corpus.log"
rc=$?
grep '^stat::' "$corpus.log" >&2
if [ "$rc" -ne 0 ]; then
	grep -E 'ERROR|SUMMARY|Test unit written|malformed|refused|==[0-9]+==' "$corpus.log" | head -20 >&2
	echo "fuzz: $name FAILED (exit $rc); full log $corpus.log; input in build/fuzz/crashes/" >&2
	exit 1
fi
echo "fuzz: $name ok" >&2
