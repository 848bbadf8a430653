# Hostile input (issue 11): every file of tests/bad gives its exact first
# error line, and the fuzz targets of tests/fuzz run briefly on the
# loader, the wire parser and the run-folder reader (issue 26) without a
# crash, a leak or a hang.

# FUZZ_TEST_SECONDS per target, in the release pass only (build/fuzz is
# one build whichever pass runs it)
: "${FUZZ_TEST_SECONDS:=6}"

# Each tests/bad/NAME.yaml: `matrix plan NAME.yaml` exits 2 and its first
# line on stderr is NAME.yaml.err's line, exactly.
t_bad_matrices_give_their_error_line() {
	local f name want got n=0
	cd "$REPO/tests/bad" || die "no tests/bad"
	for f in *.yaml; do
		name=${f%.yaml}
		[ -f "$f.err" ] || die "$f has no $f.err"
		want=$(head -1 "$f.err")
		rc=0
		timeout 10 "$MATRIX_BIN" plan "$f" >"$T/.out" 2>"$T/.err" </dev/null || rc=$?
		got=$(head -1 "$T/.err")
		[ "$rc" -eq 2 ] || die "$name: exit $rc, expected 2 ($got)"
		[ "$got" = "$want" ] || die "$name: first error line
  got:      $got
  expected: $want"
		n=$((n + 1))
	done
	[ "$n" -ge 30 ] || die "only $n bad matrices"
	for f in *.err; do
		[ -f "${f%.err}" ] || die "$f has no input file"
	done
}

# Each tests/bad/NAME.wire, read as the runner reads a report pipe
# (tests/tools/wire_check.c), is refused at NAME.wire.err's line.
t_bad_wire_records_give_their_error_line() {
	local f want got n=0 tool=$BUILD_DIR/tests/wire_check
	[ -x "$tool" ] || die "$tool is not built (make unit)"
	cd "$REPO/tests/bad" || die "no tests/bad"
	for f in *.wire; do
		[ -f "$f.err" ] || die "$f has no $f.err"
		want=$(head -1 "$f.err")
		rc=0
		got=$("$tool" "$f" 2>&1) || rc=$?
		[ "$rc" -eq 1 ] || die "${f%.wire}: exit $rc, expected 1 ($got)"
		[ "$(printf '%s\n' "$got" | head -1)" = "$want" ] || die "${f%.wire}: first error line
  got:      $got
  expected: $want"
		n=$((n + 1))
	done
	[ "$n" -ge 10 ] || die "only $n bad wire records"
	# the good records the wire fuzzer starts from read cleanly
	for f in "$REPO"/tests/fuzz/seeds/*.wire; do
		"$tool" "$f" >/dev/null || die "good record refused: $("$tool" "$f")"
	done
}

# builds the fuzz targets (nothing to do after `make test`'s own build)
fuzz_build() {
	command -v clang >/dev/null || die "clang missing: it is in DEPS_DEB (make deps)"
	make -s -C "$REPO" fuzz-build >"$T/build.log" 2>&1 || die "make fuzz-build: $(tail -5 "$T/build.log")"
}

# fuzz_run NAME [SECONDS]: the target for SECONDS (FUZZ_TEST_SECONDS) on a
# fresh corpus seeded as `make fuzz` seeds it; a crash, leak, timeout or
# OOM fails
fuzz_run() {
	local rc=0 secs=${2:-$FUZZ_TEST_SECONDS}
	# build/fuzz is one build (ASan and UBSan in it) whichever pass runs it
	case "${BUILD_TAG:-}" in
	asan) skip "the fuzz targets are one build (build/fuzz), fuzzed in the release pass" ;;
	esac
	fuzz_build
	sh "$REPO/tests/fuzz/run.sh" "$REPO/build/fuzz/fuzz_$1" "$secs" "$T/corpus" \
		>"$T/fuzz.out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || die "fuzz_$1 found a problem (exit $rc):
$(tail -25 "$T/fuzz.out")"
	grep -q "^fuzz: fuzz_$1 ok" "$T/fuzz.out" || die "fuzz_$1 did not finish: $(tail -5 "$T/fuzz.out")"
	grep -q 'stat::number_of_executed_units: [1-9]' "$T/fuzz.out" || die "fuzz_$1 ran no input"
}

t_fuzz_matrix_loader() {
	fuzz_run matrix
}

t_fuzz_wire_parser() {
	fuzz_run wire
}

# the run-folder reader (issue 26), briefly: make fuzz runs it at length
t_fuzz_folder_reader() {
	fuzz_run folder 4
}
