#!/usr/bin/env bash
# bench/remote_overhead.sh: what the runner costs per cell repetition
# against a remote host (issue 30), with `matrix agent` (one ssh session
# per remote host and run, which starts that host's workers) and without
# it (MATRIX_NO_AGENT=1: an ssh session per remote worker, some 200 ms
# each), measured side by side in one run.
#
# The "remote" host is this machine reached over OpenSSH: an sshd on
# 127.0.0.1:2222 in a network namespace of its own, with a host key and a
# root key made for the bench, as tests/e2e/test_ssh.sh's ssh_up starts
# one (the recipe copied, not shared: the tests' helper stays theirs).
# `matrix run` runs in that namespace with the server on the remote host
# (hosts: server: ssh://root@127.0.0.1:2222) and the client local: a
# matrix of CELLS (20) short cells, pingpong tcp 16 B count COUNT (200),
# warmup 0, repeat REPEAT (3), told apart by `spin` (0 ns to CELLS-1 ns,
# a server busy-wait far below the noise), as bench/overhead.sh tells its
# cells apart.  No gnuplot on matrix's PATH (ssh only): the run's charts
# are no part of the figure and would only add seconds.
#
# ROUNDS (3) rounds; each round runs the matrix once per mode, the modes'
# order swapped every round (agent first in odd rounds), so that both see
# the same load.  Per run: meta.csv's runner_overhead_ms (the median over
# the run's ok repetitions of the wall time from the runner starting one
# to its row written, minus the clients' timed window: see "Runner
# overhead and memory" (docs/measuring.md)) and runner_overhead_ms_max.
# Prints each mode's median runner_overhead_ms over the rounds with its
# min-max, the ratio agent/no_agent of the medians with the min-max of
# the per-round ratios (paired rounds), and the target as a checklist
# line, [met] or [MISSED] as bench/table.c prints its own: with the agent
# at most TARGET_MS (10) ms.  A run that fails is a `failed` row and is
# left out of the figures (its output in the log).
#
# Writes raw.csv rows as bench/run.sh defines them,
#   round,cell,tool,placement,poll,metric,value
# (cell remote_CELLSxREPEAT, tool matrix-agent or matrix-no-agent,
# placement none, poll block) to OUT (default
# bench/results/remote-overhead-STAMP/raw.csv; a folder: FOLDER/raw.csv).
# Knobs (environment): ROUNDS, CELLS, REPEAT, COUNT, MATRIX (default
# ./build/release/matrix or ./matrix; MATRIX_BIN too), OUT.  Needs root
# (ip netns add), /usr/sbin/sshd (openssh-server), ssh and ssh-keygen
# (openssh-client): `make bench` installs them.  Every process it starts
# is ended by its PID (sshd and the sessions it forked; a run still going
# when the script is interrupted), and the namespace is removed.  Exit 0
# once measured (a missed target is a line, not a status), 2 when it
# cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3} CELLS=${CELLS:-20} REPEAT=${REPEAT:-3} COUNT=${COUNT:-200}
TARGET_MS=10
MATRIX=${MATRIX:-${MATRIX_BIN:-$( [ -x build/release/matrix ] && echo "$PWD/build/release/matrix" || echo "$PWD/matrix")}}
case $MATRIX in /*) ;; *) MATRIX=$PWD/$MATRIX ;; esac
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=${OUT:-bench/results/remote-overhead-$STAMP/raw.csv}
[ ! -d "$OUT" ] || OUT=$OUT/raw.csv
cannot() { echo "remote_overhead: $*" >&2; exit 2; }
[ -x "$MATRIX" ] || cannot "no matrix binary at $MATRIX (make matrix)"
[ "$(id -u)" = 0 ] || cannot "needs root: the sshd runs in a network namespace of its own (ip netns add)"
[ -x /usr/sbin/sshd ] || cannot "/usr/sbin/sshd missing (Debian: openssh-server)"
SSH=$(command -v ssh) || cannot "ssh missing (Debian: openssh-client)"
command -v ssh-keygen >/dev/null || cannot "ssh-keygen missing (Debian: openssh-client)"
command -v ip >/dev/null || cannot "ip missing (Debian: iproute2)"
mkdir -p "$(dirname "$OUT")"
[ -s "$OUT" ] || echo "round,cell,tool,placement,poll,metric,value" >"$OUT"
FROM=$(wc -l <"$OUT")	# this run's rows follow
LOG=$(dirname "$OUT")/remote_overhead.log
: >"$LOG"

work=$(mktemp -d "${TMPDIR:-/tmp}/matrix-remote-overhead.XXXXXX")
NS=mxb-$$-$RANDOM
SSHD_PID="" RUN_PID="" NS_MADE=0
# Everything this script started, by PID, then the namespace and files.
cleanup() {
	local p
	if [ -n "$RUN_PID" ]; then
		kill -TERM "$RUN_PID" 2>/dev/null || true
		wait "$RUN_PID" 2>/dev/null || true
	fi
	if [ -n "$SSHD_PID" ]; then
		for p in $(cat /proc/"$SSHD_PID"/task/*/children 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null || true
		done
		kill -KILL "$SSHD_PID" 2>/dev/null || true
		wait "$SSHD_PID" 2>/dev/null || true
	fi
	[ "$NS_MADE" = 0 ] || ip netns del "$NS" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the remote host: sshd in the namespace (test_ssh.sh's ssh_up) ----
ip netns add "$NS" 2>/dev/null || cannot "cannot create a network namespace (ip netns add)"
NS_MADE=1
ip netns exec "$NS" ip link set lo up
mkdir -p "$work/ssh" "$work/bin"
ln -s "$SSH" "$work/bin/ssh"	# matrix's PATH: ssh, and no gnuplot
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/id"
cp "$work/ssh/id.pub" "$work/ssh/authorized_keys"
echo "[127.0.0.1]:2222 $(cut -d' ' -f1,2 "$work/ssh/host_key.pub")" >"$work/ssh/known_hosts"
cat >"$work/ssh/sshd_config" <<Y
Port 2222
ListenAddress 127.0.0.1
HostKey $work/ssh/host_key
PidFile none
AuthorizedKeysFile $work/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Y
cat >"$work/ssh_config" <<Y
Host *
  IdentityFile $work/ssh/id
  IdentitiesOnly yes
  UserKnownHostsFile $work/ssh/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
Y
# sshd wants /run/sshd: a tmpfs /run of its own mount namespace
ip netns exec "$NS" unshare -m --propagation private sh -c \
	'mount -t tmpfs -o mode=755 tmpfs /run && mkdir /run/sshd && exec /usr/sbin/sshd -D -f "$1" -E "$2"' \
	sh "$work/ssh/sshd_config" "$work/ssh/sshd.log" &
SSHD_PID=$!
for _ in $(seq 100); do
	grep -q "listening" "$work/ssh/sshd.log" 2>/dev/null && break
	sleep 0.05
done
grep -q "listening" "$work/ssh/sshd.log" 2>/dev/null || cannot "sshd did not start: $(cat "$work/ssh/sshd.log")"

spins=$(seq -s ', ' -f '%gns' 0 $((CELLS - 1)))
cat >"$work/remote.yaml" <<YAML
name: remote-overhead
repeat: $REPEAT
warmup: 0
timeout: 20s
matrix:
  pattern: pingpong
  transport: tcp
  size: 16
  concurrency: 1
  count: $COUNT
  spin: [$spins]
hosts:
  server: ssh://root@127.0.0.1:2222
  matrix: $MATRIX
  ssh: [-F, $work/ssh_config]
YAML

CELL=remote_${CELLS}x$REPEAT
row() { echo "$1,$CELL,matrix-$2,none,block,$3,$4" >>"$OUT"; }
meta() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/meta.csv"; }

# measure ROUND MODE: one run of the matrix, MODE agent or no-agent
measure() {
	local dir=$work/run-$1-$2 rc=0 v
	echo "remote_overhead: round $1/$ROUNDS, $2" >&2
	if [ "$2" = agent ]; then
		ip netns exec "$NS" env -u MATRIX_NO_AGENT PATH="$work/bin" \
			"$MATRIX" run "$work/remote.yaml" -o "$dir" -q >>"$LOG" 2>&1 &
	else
		ip netns exec "$NS" env MATRIX_NO_AGENT=1 PATH="$work/bin" \
			"$MATRIX" run "$work/remote.yaml" -o "$dir" -q >>"$LOG" 2>&1 &
	fi
	RUN_PID=$!
	wait "$RUN_PID" || rc=$?
	RUN_PID=""
	v=$( [ -f "$dir/meta.csv" ] && meta "$dir" runner_overhead_ms || true)
	if [ "$rc" != 0 ] || [ -z "$v" ]; then
		echo "remote_overhead: round $1, $2: matrix run exited $rc (see $LOG)" >&2
		row "$1" "$2" failed 1
		return 0
	fi
	row "$1" "$2" runner_overhead_ms "$v"
	row "$1" "$2" runner_overhead_ms_max "$(meta "$dir" runner_overhead_ms_max)"
	rm -rf "$dir"
}

echo "remote_overhead: $CELLS cells x repeat $REPEAT, pingpong tcp 16 B count $COUNT," \
	"the server over ssh; $ROUNDS rounds of both modes" >&2
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then
		measure "$round" agent && measure "$round" no-agent
	else
		measure "$round" no-agent && measure "$round" agent
	fi
done

# ---- the figures: this run's rows of OUT (cell and tools above) ----
awk -F, -v from="$FROM" -v cell="$CELL" -v target="$TARGET_MS" -v rounds="$ROUNDS" '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR > from && $2 == cell && $6 == "runner_overhead_ms" && $7 != "" {
	m = substr($3, 8)	# matrix-agent, matrix-no-agent
	v[m, ++n[m]] = $7; by[m, $1] = $7; seen[$1] = 1
}
NR > from && $2 == cell && $6 == "failed" { failed[substr($3, 8)]++ }
END {
	printf "remote runner overhead, %s rounds (meta.csv runner_overhead_ms per repetition, ms):\n", rounds
	printf "  %-10s %10s %10s %10s %6s %7s\n", "mode", "median", "min", "max", "runs", "failed"
	split("agent no-agent", modes, " ")
	for (k = 1; k <= 2; k++) {
		m = modes[k]
		if (!n[m]) { printf "  %-10s %10s %10s %10s %6d %7d\n", m, "-", "-", "-", 0, failed[m]; continue }
		delete a; lo = hi = v[m, 1]
		for (i = 1; i <= n[m]; i++) { a[i] = v[m, i]; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		med[m] = median(a, n[m])
		printf "  %-10s %10.3f %10.3f %10.3f %6d %7d\n", m, med[m], lo, hi, n[m], failed[m]
		mlo[m] = lo; mhi[m] = hi
	}
	if (n["agent"] && n["no-agent"] && med["no-agent"] > 0) {
		np = 0; rlo = ""; rhi = ""
		for (r in seen) if ((("agent", r) in by) && (("no-agent", r) in by) && by["no-agent", r] > 0) {
			q = by["agent", r] / by["no-agent", r]; np++
			if (rlo == "" || q < rlo) rlo = q; if (rhi == "" || q > rhi) rhi = q
		}
		printf "  agent/no-agent: %.3fx", med["agent"] / med["no-agent"]
		if (np) printf " (per round %.3f-%.3f, %d paired rounds)", rlo, rhi, np
		printf "\n"
	}
	printf "runner overhead against a remote host at most %s ms per cell repetition (matrix agent):\n", target
	if (!n["agent"])
		printf "  [not measured] no agent run succeeded\n"
	else
		printf "  [%s] %s: runner_overhead_ms %.3f ms (%.3f-%.3f over %d runs) (target <= %s ms)\n",
			med["agent"] <= target ? "met" : "MISSED", cell, med["agent"], mlo["agent"],
			mhi["agent"], n["agent"], target
}' "$OUT"
echo "raw rows: $OUT; log: $LOG"
