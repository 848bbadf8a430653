# Helpers for end-to-end tests: each test is a function t_NAME in a
# tests/e2e/test_*.sh file, run in its own bash with `set -e`-like checks
# done by hand: a test fails by calling `die` (or by a failing `check`).
# Every test gets a fresh $T (work directory and TMPDIR), removed after.

set -u
: "${MATRIX_BIN:?}" "${CSVQ:?}"

die() { echo "FAIL: $*" >&2; exit 1; }

# skip REASON: this machine cannot run the test (exit 77, counted as skipped)
skip() { echo "$*"; exit 77; }

# check DESCRIPTION COMMAND...: runs the command, dies with the description
check() {
	local what=$1; shift
	"$@" || die "$what (command: $*)"
}

e2e_setup() {
	T=$(mktemp -d /tmp/matrix-e2e.XXXXXX)
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	cd "$T" || die "cd $T"
}

e2e_teardown() {
	cd / && rm -rf "$T"
}

matrix() { "$MATRIX_BIN" "$@"; }
csvq() { "$CSVQ" "$@"; }

# writes stdin to FILE
mat() { cat >"$1"; }

# runs matrix, keeping stdout/stderr in $T/.out and $T/.err; sets $rc
run_matrix() {
	rc=0
	"$MATRIX_BIN" "$@" >"$T/.out" 2>"$T/.err" || rc=$?
}

expect_rc() {
	[ "$rc" -eq "$1" ] || { cat "$T/.err" >&2; die "exit status $rc, expected $1"; }
}

expect_err() {
	grep -qF -- "$1" "$T/.err" || { cat "$T/.err" >&2; die "stderr lacks: $1"; }
}

# No worker of this binary may outlive a run, and the private socket
# directory must be gone.
expect_no_leftovers() {
	local left
	left=$(ps -eo pid=,args= | grep -F "$MATRIX_BIN worker" | grep -v grep || true)
	[ -z "$left" ] || die "worker processes left behind: $left"
	[ -z "$(ls -A "$TMPDIR")" ] || die "files left in TMPDIR: $(ls -A "$TMPDIR")"
}

# Every value of COLUMN in CSV is VALUE.
expect_all() {
	local csv=$1 col=$2 want=$3 v
	while IFS= read -r v; do
		[ "$v" = "$want" ] || die "$csv: $col is '$v', expected '$want'"
	done < <(csvq "$csv" "$col")
}

# numeric a <= b (floats)
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
