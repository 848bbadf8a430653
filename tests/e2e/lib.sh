# Helpers for end-to-end tests: each test is a function t_NAME in a
# tests/e2e/test_*.sh file, run in its own bash with `set -e`-like checks
# done by hand: a test fails by calling `die` (or by a failing `check`).
# Every test gets a fresh $T (work directory and TMPDIR), removed after.
# Tests run two at a time, of both builds (tests/run.sh), beside whatever
# else the machine runs: a test looks only at its own processes
# (own_procs), never at every process of the machine.
#
# `die` fails the test wherever it is called: it also writes its message to
# $E2E_DIED, which tests/run.sh reads, so a `die` inside $(...), a pipeline
# or a `while ... done < <(...)` loop (a subshell, whose exit bash drops)
# still fails the test.  `csvq` dies when the file, a column or every data
# row is missing, so a check over a column never passes on nothing.

set -u
: "${MATRIX_BIN:?}" "${CSVQ:?}"

die() {
	echo "FAIL: $*" >&2
	[ -z "${E2E_DIED:-}" ] || printf '%s\n' "$*" >>"$E2E_DIED"
	exit 1
}

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
	# the mark every process this test starts inherits (own_procs)
	export E2E_OWNER="$T"
	cd "$T" || die "cd $T"
}

# A sanitizer report anywhere in the test's folder (a worker's log, a
# saved stderr) fails the test: UBSan writes to stderr, never to log_path.
e2e_teardown() {
	local hits
	if [ -n "${SAN_RE:-}" ]; then
		hits=$(grep -rlEI "$SAN_RE" "$T" 2>/dev/null | head -5)
		[ -z "$hits" ] || (die "sanitizer report in: $hits
$(grep -hE -A8 "$SAN_RE" $hits | head -30)")
	fi
	cd / && rm -rf "$T"
}

matrix() { "$MATRIX_BIN" "$@"; }

# csvq FILE COL...: the columns of every data row (tests/tools/csvq.c);
# dies when the file or a column is missing or there are no data rows.
# `"$CSVQ"` itself is for polling a file that may not exist yet.
csvq() {
	local rc=0
	"$CSVQ" "$@" || rc=$?
	[ "$rc" -eq 0 ] || die "csvq $* failed (exit $rc)"
}

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

# expect_out TEXT: stdout has TEXT (a command's results: compare's, history's
# and report's verdicts and headline)
expect_out() {
	grep -qF -- "$1" "$T/.out" || { cat "$T/.out" >&2; die "stdout lacks: $1"; }
}

expect_err() {
	grep -qF -- "$1" "$T/.err" || { cat "$T/.err" >&2; die "stderr lacks: $1"; }
}

# own_procs [TEXT]: "PID ARGS" of each live process this test started
# (whose command line holds TEXT, a fixed string): any depth, any session
# or process group (a worker's guard in a session of its own, a program's
# group), by the E2E_OWNER=$T its environment inherited from e2e_setup.
# Not this test's shell, nor a process that cleared its environment (sshd's
# sessions: test_ssh.sh finds those by their paths under $T).  Its own
# grep and ps are gone before it prints: `own_procs X | grep ...` cannot
# find itself, but its reader may be listed, so give the TEXT here.
own_procs() {
	local pids out
	pids=$(grep -lzxF "E2E_OWNER=$T" /proc/[0-9]*/environ 2>/dev/null |
		sed -n 's,^/proc/\([0-9]*\)/environ$,\1,p' | grep -vx "$$" | paste -sd, -)
	[ -n "$pids" ] || return 0
	out=$(ps -o pid=,args= -p "$pids" 2>/dev/null) || return 0
	grep -F -- "${1:-}" <<<"$out" || true
}

# No worker of this binary may outlive a run, and the private socket
# directory must be gone.
expect_no_leftovers() {
	local left
	left=$(own_procs "$MATRIX_BIN worker")
	[ -z "$left" ] || die "worker processes left behind: $left"
	[ -z "$(ls -A "$TMPDIR")" ] || die "files left in TMPDIR: $(ls -A "$TMPDIR")"
}

# Every value of COLUMN in CSV is VALUE, and there is at least one row.
expect_all() {
	local csv=$1 col=$2 want=$3 vals v
	vals=$(csvq "$csv" "$col") || die "$csv: no column $col"
	while IFS= read -r v; do
		[ "$v" = "$want" ] || die "$csv: $col is '$v', expected '$want'"
	done <<<"$vals"
}

# numeric a <= b (floats)
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# wire_field FILE KEYWORD KEY: the value of KEY on the KEYWORD line of a
# worker's wire record (workers/wire.h); dies when there is none.
wire_field() {
	local v
	v=$(awk -v kw="$2" -v key="$3" '$1 == kw {
		for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1")
	[ -n "$v" ] || die "$1: no $3 on a '$2' line: $(cat "$1")"
	echo "$v"
}

# wait_line FILE REGEX: waits (5 s at most) for a line of a server's output.
wait_line() {
	local i
	for i in $(seq 50); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	die "no '$2' from the server in 5 s: $(cat "$1")"
}

# lossy_udp MODE COUNT LOSS_TIMEOUT LATE_S [CLIENT_OPTION...]: a udp
# pingpong of COUNT requests by hand, our client against
# programs/lossy_udp_server.py, which drops (MODE drop) or answers LATE_S
# late (MODE late) every even-numbered request; bounded in time.  The
# client's record in wire.out, the server's lines in srv.out.
lossy_udp() {
	local mode=$1 n=$2 loss=$3 late=$4 srv port
	shift 4
	command -v python3 >/dev/null || skip "python3 missing"
	timeout 60 python3 "$REPO/tests/e2e/programs/lossy_udp_server.py" "$mode" 16 "$late" \
		>srv.out 2>&1 &
	srv=$!
	wait_line srv.out '^listening [0-9]+$'
	port=$(awk '$1 == "listening" { print $2 }' srv.out)
	rc=0
	timeout 30 "$MATRIX_BIN" worker client -t udp -a "127.0.0.1:$port" -s 16 -r 16 -n "$n" \
		-w 0 --loss-timeout "$loss" "$@" >wire.out 2>"$T/.err" || rc=$?
	[ "$rc" -eq 0 ] || die "the client: exit $rc: $(cat "$T/.err" wire.out srv.out)"
	wait "$srv" || die "server failed: $(cat srv.out)"
}

# held_min: the shortest time lossy_udp's server held an answered request
# (ns, from its arrival to the answer's send), less 1 ms for the two clocks
# (the kernel's realtime stamp, the client's monotonic one): no round trip
# the client timed may be shorter, however late anything ran
held_min() {
	awk '$1 == "held" && (m == "" || $3 < m) { m = $3 } END { if (m == "") exit 1; print m - 1000000 }' srv.out ||
		die "the server held no answered request: $(cat srv.out)"
}

# timeline_whole DIR: every ok row of DIR/results.csv (there is one at
# least) has timeline rows summing to its messages (none: 0), each interval
# once, and no timeline row lacks its ok row: repetitions are whole in
# timeline.csv, or not there (a full disk, a resumed run).
timeline_whole() {
	csvq "$1/timeline.csv" cell rep interval_start_s messages >tl.txt
	[ -z "$(cut -f1-3 tl.txt | sort | uniq -d)" ] ||
		die "$1: timeline rows twice: $(cut -f1-3 tl.txt | sort | uniq -d | head -3)"
	csvq "$1/results.csv" cell rep status messages | awk -F'\t' '$3 == "ok"' >res.txt
	[ -s res.txt ] || die "$1: no ok rows"
	awk -F'\t' '
		FILENAME == "tl.txt" { s[$1 " " $2] += $4; next }
		{ k = $1 " " $2; ok[k] = 1
		  if ((s[k] + 0) != $4) { print k ": " $4 " messages, timeline " (s[k] + 0); bad = 1 } }
		END { for (k in s) if (!(k in ok)) { print k ": timeline rows, no ok row"; bad = 1 }; exit bad }' \
		tl.txt res.txt >bad.txt || die "$1: timeline and results.csv disagree: $(head -3 bad.txt)"
}

# meta_value DIR KEY: the value of KEY in DIR/meta.csv, "" when it has
# none; meta_key DIR KEY: the same, and dies when meta.csv has no KEY
meta_value() { csvq "$1/meta.csv" key value | awk -F'\t' -v k="$2" '$1 == k { print $2 }'; }
meta_key() {
	csvq "$1/meta.csv" key value | awk -F'\t' -v k="$2" '$1 == k { print $2; f = 1 } END { exit !f }' ||
		die "$1/meta.csv has no key $2"
}

# client_of PID: waits (10 s at most) until a client worker runs as a
# child of the runner PID; prints its pid
client_of() {
	local parent=$1 pid
	for _ in $(seq 200); do
		pid=$(ps -o pid=,args= --ppid "$parent" | awk '/worker client/ { print $1; exit }')
		[ -n "$pid" ] && { echo "$pid"; return 0; }
		sleep 0.05
	done
	return 1
}

# cpu_mark: sets CPU_MARK to the CPU seconds (user and system) of every
# process this test's shell has run and waited for so far; cpu_used MARK:
# sets CPU_USED to the seconds since that mark.  A bound on work done that
# the machine's load does not stretch, as it stretches wall time.  Call
# both as commands, never inside $(...): a subshell counts its own.
cpu_mark() {
	times >"$T/.times"
	CPU_MARK=$(awk 'function s(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
		NR == 2 { printf "%.3f", s($1) + s($2) }' "$T/.times")
}
cpu_used() {
	cpu_mark
	CPU_USED=$(awk -v a="$1" -v b="$CPU_MARK" 'BEGIN { printf "%.2f", b - a }')
}
