# hosts: over OpenSSH.  Each test that needs a remote host starts its own
# sshd (Debian's openssh-server) on 127.0.0.1:2222 inside a network
# namespace of its own, with a host key and a root key made for the test,
# and runs `matrix run` in that namespace: the "remote" host is this
# machine reached through ssh, the remote binary a symlink under $T whose
# path no other process has, so a scan of /proc finds any remote worker
# left behind.  Skipped only where a namespace cannot be made.

# ssh_up: the namespace $NS, its sshd ($SSHD_PID) and $T/ssh_config
# (the test's key, known host and nothing else); $RMX is the remote
# binary's unique path.  Everything goes when the test ends (ssh_down).
ssh_up() {
	[ -x /usr/sbin/sshd ] || die "/usr/sbin/sshd missing: make deps (TEST_DEB has openssh-server)"
	NS=mxs-$$-$RANDOM
	ip netns add "$NS" 2>/dev/null || skip "cannot create a network namespace (ip netns add)"
	trap ssh_down EXIT
	ip netns exec "$NS" ip link set lo up || die "lo up in $NS"
	# the remote binary's path has a space, a quote and a command
	# substitution: every word reaches the remote shell single-quoted
	RMX="$T/remote/a b'c;\$(false)/matrix"
	mkdir -p "$T/ssh" "${RMX%/matrix}"
	ln -s "$MATRIX_BIN" "$RMX"
	ssh-keygen -q -t ed25519 -N '' -f "$T/ssh/host_key" || die "ssh-keygen"
	ssh-keygen -q -t ed25519 -N '' -f "$T/ssh/id" || die "ssh-keygen"
	cp "$T/ssh/id.pub" "$T/ssh/authorized_keys"
	echo "[127.0.0.1]:2222 $(cut -d' ' -f1,2 "$T/ssh/host_key.pub")" >"$T/ssh/known_hosts"
	cat >"$T/ssh/sshd_config" <<Y
Port 2222
ListenAddress 127.0.0.1
HostKey $T/ssh/host_key
PidFile none
AuthorizedKeysFile $T/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AcceptEnv TMPDIR
Y
	cat >"$T/ssh_config" <<Y
Host *
  IdentityFile $T/ssh/id
  IdentitiesOnly yes
  UserKnownHostsFile $T/ssh/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  # as in many a user's ~/.ssh/config: a master would fork into the
  # background, out of the runner's reach, unless the runner says no
  ControlPersist 30
Y
	# sshd wants /run/sshd: a tmpfs /run of its own mount namespace gives
	# it one without touching the machine's
	ip netns exec "$NS" unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=755 tmpfs /run && mkdir /run/sshd && exec /usr/sbin/sshd -D -f "$1" -E "$2"' \
		sh "$T/ssh/sshd_config" "$T/ssh/sshd.log" &
	SSHD_PID=$!
	local i
	for i in $(seq 50); do
		grep -q "listening" "$T/ssh/sshd.log" 2>/dev/null && return 0
		sleep 0.05
	done
	die "sshd did not start: $(cat "$T/ssh/sshd.log")"
}

ssh_down() {
	local p
	for p in $(cat /proc/"$SSHD_PID"/task/*/children 2>/dev/null); do
		kill -KILL "$p" 2>/dev/null
	done
	kill -KILL "$SSHD_PID" 2>/dev/null
	wait "$SSHD_PID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	e2e_teardown
}

# in_ns CMD...: CMD in the test's namespace, SIGINT as a terminal's
# Ctrl-C finds it (a script's background job starts with it ignored);
# exec: `in_ns ... &` gives CMD's pid in $!
in_ns() {
	exec ip netns exec "$NS" python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' "$@"
}

# hosts_yaml ROLE-LINES: the hosts: block for the test's sshd
hosts_yaml() {
	cat <<Y
hosts:
$1
  matrix: $RMX
  ssh: [-F, $T/ssh_config]
Y
}

# No process whose command line holds the remote binary's path (a
# remote worker) or a run's control socket (its ssh master), once sshd's
# sessions have seen their connections close (3 s at most).
expect_no_remote() {
	local f left i
	for i in $(seq 60); do
		left=""
		for f in /proc/[0-9]*/cmdline; do
			tr '\0' ' ' <"$f" 2>/dev/null | grep -qF -e "$RMX" -e "ControlPath=$TMPDIR/" &&
				left="$left ${f#/proc/}"
		done
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	die "remote processes or ssh masters left:$left"
}

# signal_within SIG PID: SIG to the run in the background PID, then
# waits for it, 5 s at most (then SIGKILL, and $rc is 137); its exit
# status in $rc.
signal_within() {
	local dog
	kill -"$1" "$2"
	{ sleep 5; kill -KILL "$2"; } 2>/dev/null &
	dog=$!
	rc=0
	wait "$2" || rc=$?
	kill $dog 2>/dev/null
}

t_server_over_ssh_and_clients_over_ssh() {
	ssh_up
	{ cat <<Y
name: ssh-server
repeat: 1
matrix:
  transport: [tcp]
  pattern: [pingpong, stream]
  size: [64]
  count: [2000]
Y
	hosts_yaml "  server: ssh://root@127.0.0.1:2222"; } >server.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run server.yaml -o s -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all s/results.csv status ok
	[ "$(csvq s/results.csv messages | sort -u)" = 2000 ] || die "messages: $(cat s/results.csv)"
	[ "$(meta_value s server_host)" = "ssh://root@127.0.0.1:2222" ] || die "server_host"
	[ "$(meta_value s client_host)" = local ] || die "client_host"
	[ "$(meta_value s server_kernel)" = "$(meta_value s kernel)" ] || die "server_kernel"
	[ "$(meta_value s server_cores)" = "$(nproc)" ] || die "server_cores"
	[ -n "$(meta_value s server_cpu_model)" ] && [ -n "$(meta_value s server_governor)" ] ||
		die "server fingerprint: $(cat s/meta.csv)"
	[ -z "$(meta_value s client_kernel)" ] || die "a local role has no fingerprint keys"
	grep -qF "| server | ssh://root@127.0.0.1:2222: $(meta_value s kernel), " s/summary.md ||
		die "summary.md does not say where the server ran: $(grep -F "| server |" s/summary.md)"
	grep -qF "| client | local |" s/summary.md || die "summary.md: the client"
	# across the two hosts a stream's rates are upper bounds (ᵘ, and the
	# key under the header); a round trip's are the clients' own, unmarked
	sed -n '/^## stream$/,$p' s/summary.md | grep -q '^| stream | .* msg/s ᵘ' ||
		die "summary.md: the stream's rate is not marked ᵘ: $(sed -n '/^## stream$/,$p' s/summary.md)"
	sed -n '/^## pingpong$/,/^## stream$/p' s/summary.md | grep -q 'ᵘ' &&
		die "summary.md marks a round trip's rate ᵘ"
	grep -q '^`ᵘ`: an upper bound: the server and the clients ran on two hosts' s/summary.md ||
		die "summary.md does not explain ᵘ"
	# the same run from a server with other cores is another machine
	cp -r s s2
	sed -i 's/^server_cores,.*/server_cores,999/' s2/meta.csv
	run_matrix compare s s2
	expect_rc 2
	expect_err "  server_cores: $(nproc) vs 999"
	{ cat <<Y
name: ssh-clients
repeat: 1
matrix:
  transport: [udp]
  pattern: [pingpong]
  concurrency: [2]
  size: [64]
  count: [2000]
  loss_timeout: 1s     # a busy machine's stall is no lost udp reply
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server_address: 127.0.0.1"; } >clients.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run clients.yaml -o c -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all c/results.csv status ok
	[ "$(meta_value c client_host)" = "ssh://root@127.0.0.1:2222" ] || die "client_host"
	[ -n "$(meta_value c client_kernel)" ] || die "client fingerprint"
	# offsets from the runner's release mean nothing on the clients' clock
	[ -z "$(csvq c/results.csv start_offsets_us)" ] || die "start offsets on two clocks"
	# both on the remote host, through one ssh connection
	sed -i 's|  server_address: 127.0.0.1|  server: ssh://root@127.0.0.1:2222|; s|\[udp\]|[tcp]|' clients.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run clients.yaml -o b -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all b/results.csv status ok
	[ "$(meta_value b server_host)" = "$(meta_value b client_host)" ] || die "one host"
	expect_no_remote
}

t_other_wire_version_refused_before_any_cell() {
	ssh_up
	# a greeting first, as a remote user's shell startup file may print
	printf '#!/bin/sh\necho Welcome\necho "hello version=99 role=host kernel=x cpu_model=y cores=1 governor=z"\n' \
		>"$T/remote/old"
	chmod +x "$T/remote/old"
	{ cat <<Y
name: ssh-old
repeat: 1
matrix:
  transport: [tcp]
  count: [100]
Y
	hosts_yaml "  server: ssh://root@127.0.0.1:2222" | sed "s|matrix: .*|matrix: $T/remote/old|"; } >m.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run m.yaml -o out) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "$T/remote/old there speaks wire version 99, this matrix speaks version 1"
	[ ! -e out ] || die "a run folder was made: $(ls out)"
	# a handshake that never answers: SIGTERM ends the run at once, not
	# after the handshake's 20 s
	printf '#!/bin/sh\nwhile [ -e "%s" ]; do sleep 0.05; done\n' "$T/stall-on" >"$T/remote/stall"
	chmod +x "$T/remote/stall"
	touch "$T/stall-on"
	sed "s|matrix: .*|matrix: $T/remote/stall|" m.yaml >stall.yaml
	in_ns "$MATRIX_BIN" run stall.yaml -o stalled >"$T/.out" 2>"$T/.err" &
	local mpid=$! i
	for i in $(seq 100); do
		grep -qF "$T/remote/stall" /proc/[0-9]*/cmdline 2>/dev/null && break
		sleep 0.05
	done
	signal_within TERM $mpid
	rm "$T/stall-on"
	[ "$rc" != 137 ] || die "SIGTERM did not end the handshake in 5 s"
	expect_rc 130
	# no matrix there: the run goes on, every cell says why
	sed -i "s|matrix: .*|matrix: $T/remote/missing|" m.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run m.yaml -o out) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 1
	expect_all out/results.csv status "ssh failed"
	csvq out/results.csv error | grep -qF "$T/remote/missing: No such file or directory" ||
		die "error: $(csvq out/results.csv error)"
}

t_dropped_connection_and_unreachable_host_are_cell_statuses() {
	ssh_up
	{ cat <<Y
name: ssh-drop
repeat: 2
matrix:
  transport: [tcp]
  duration: [0.5s]
Y
	hosts_yaml "  server: ssh://root@127.0.0.1:2222"; } >m.yaml
	in_ns "$MATRIX_BIN" run m.yaml -o out --order sequential >"$T/.out" 2>"$T/.err" &
	local mpid=$! s="" i c w
	# the agent's session, once the first repetition's worker runs: a
	# child of our sshd whose child is the agent (not the handshake's
	# --hello), whose child is the remote worker
	for i in $(seq 100); do
		for c in $(cat /proc/"$SSHD_PID"/task/*/children 2>/dev/null); do
			for w in $(cat /proc/"$c"/task/*/children 2>/dev/null); do
				grep -qaP '\x00agent\x00$' /proc/"$w"/cmdline 2>/dev/null &&
					[ -n "$(cat /proc/"$w"/task/*/children 2>/dev/null)" ] && s=$c
			done
		done
		[ -n "$s" ] && break
		sleep 0.05
	done
	[ -n "$s" ] || die "no agent session with a worker: $(cat "$T/.err")"
	kill -KILL "$s"
	rc=0
	wait $mpid || rc=$?
	expect_rc 1
	[ "$(csvq out/results.csv rep status | head -1)" = "1	ssh failed" ] ||
		die "dropped: $(cat out/results.csv)"
	# ssh's own words for the lost connection: which ones depends on
	# whether it was reading or writing when it went
	csvq out/results.csv error | head -1 |
		grep -qE "closed by remote host|send disconnect: Broken pipe|Connection reset" ||
		die "ssh's message: $(csvq out/results.csv error)"
	[ "$(csvq out/results.csv rep status | tail -1)" = "2	ok" ] || die "the run went on: $(cat out/results.csv)"
	expect_no_remote
	# nothing listens on port 1: the handshake says so, every cell fails at once
	sed -i 's|127.0.0.1:2222|127.0.0.1:1|' m.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run m.yaml -o out2) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 1
	expect_err "Connection refused"
	expect_all out2/results.csv status "ssh failed"
	csvq out2/results.csv error | grep -qv "Connection refused" && die "error: $(csvq out2/results.csv error)"
	expect_no_remote
}

# A host whose handshake answers but whose agent cannot start: said once
# on stderr with why, each worker's row says why, and the session is tried
# once a repetition, not once a worker (an unreachable host is slow).
t_failed_agent_start_tried_once_a_repetition() {
	ssh_up
	printf '#!/bin/sh\n[ "$1" = agent ] && { echo "no agent here" >&2; exit 3; }\nexec %q "$@"\n' "$RMX" \
		>"$T/remote/noagent"
	chmod +x "$T/remote/noagent"
	{ cat <<Y
name: ssh-noagent
repeat: 2
matrix:
  transport: [tcp]
  concurrency: [3]
  count: [100]
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222" | sed "s|matrix: .*|matrix: $T/remote/noagent|"; } >m.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run m.yaml -o out) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 1
	expect_err "matrix: hosts: matrix agent on ssh://root@127.0.0.1:2222: ended before its hello: no agent here"
	local tries
	tries=$(grep -c "matrix: hosts: matrix agent on" "$T/.err")
	[ "$tries" = 2 ] || die "$tries tries for 2 repetitions: $(cat "$T/.err")"
	expect_all out/results.csv status "ssh failed"
	csvq out/results.csv error | grep -qv "no agent here" && die "error: $(csvq out/results.csv error)"
	expect_no_remote
}

# The pids of the remote workers running (the remote binary's workers,
# an agent's or, under MATRIX_NO_AGENT, --stdio ones).
remote_workers() {
	grep -laF -- "$RMX" /proc/[0-9]*/cmdline 2>/dev/null | xargs -r grep -laP '\x00worker\x00' 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/cmdline|\1|'
}

# The pid of the ssh carrying the run's agent (nothing when none).
agent_ssh() {
	grep -laF -- "$T/ssh_config" /proc/[0-9]*/cmdline 2>/dev/null |
		xargs -r grep -laP "^ssh\x00.*'agent'\x00\$" 2>/dev/null | sed 's|/proc/\([0-9]*\)/cmdline|\1|'
}

# wait_remote_workers N: until N remote workers run (5 s at most);
# their pids in $W.
wait_remote_workers() {
	local i
	for i in $(seq 100); do
		W=$(remote_workers)
		[ "$(echo $W | wc -w)" -ge "$1" ] && return 0
		sleep 0.05
	done
	die "$(echo $W | wc -w) remote workers running, not $1: $(cat "$T/.err")"
}

t_sigint_leaves_no_remote_worker() {
	ssh_up
	{ cat <<Y
name: ssh-int
repeat: 2
matrix:
  transport: [tcp]
  concurrency: [2]
  duration: [20s]
  rate: [500/s]		# paced: three idle workers, not three CPU hogs
timeout: 30s
Y
	# a ControlPath of the user's in ssh: must not take the sessions
	# away from the run's master
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222" | sed "s|ssh: \[|ssh: [-o, ControlPath=$T/user-cm, |"; } >m.yaml
	in_ns "$MATRIX_BIN" run m.yaml -o out >"$T/.out" 2>"$T/.err" &
	local mpid=$! i p w1 victim="" left
	wait_remote_workers 3	# both clients and the server run remotely
	w1=$W
	# the client to kill, chosen before the slower scans below
	victim=$(echo "$w1" | sed 's|.*|/proc/&/cmdline|' | xargs -r grep -laP '\x00client\x00' |
		sed 's|/proc/\([0-9]*\)/cmdline|\1|' | head -1)
	[ -n "$victim" ] || die "no remote client among '$w1'"
	[ "$(cat /proc/"$SSHD_PID"/task/*/children | wc -w)" = 1 ] ||
		die "not one connection to sshd: $(cat /proc/"$SSHD_PID"/task/*/children)"
	# one ssh connection for the host: the agent's session, an ssh that
	# is the runner's child; no ControlMaster
	local master
	master=$(agent_ssh)
	[ "$(echo "$master" | wc -w)" = 1 ] || die "agent sessions: '$master'"
	[ "$(awk '{ print $4 }' /proc/"$master"/stat)" = "$mpid" ] || die "the agent's ssh is not the runner's child"
	grep -lF -- "-M" /proc/[0-9]*/cmdline 2>/dev/null | xargs -r grep -lF -- "ControlPath=$TMPDIR/" &&
		die "a ControlMaster runs beside the agent"
	# a remote client dies: the cell fails, and the agent ends the
	# others, while its session lives on
	kill -KILL "$victim"
	for i in $(seq 60); do
		left=""
		for p in $w1; do [ ! -e /proc/"$p" ] || left="$left $p"; done
		[ -z "$left" ] && break
		sleep 0.05
	done
	[ -z "$left" ] || die "workers of the failed repetition left:$left"
	[ -e /proc/"$master" ] || die "the agent's session ended with repetition 1"
	# then the connection stalls (its sshd process stopped): no exit comes
	# from the workers the runner kills, until ssh gives up on the
	# connection (ServerAliveInterval 5 s, 3 times); SIGINT in repetition
	# 2 must end the run without waiting for that
	local conn
	conn=$(cat /proc/"$SSHD_PID"/task/*/children)
	kill -STOP $conn
	for i in $(seq 100); do	# repetition 1's row, written as it ends
		[ -n "$("$CSVQ" out/results.csv rep 2>/dev/null)" ] && break
		sleep 0.05
	done
	signal_within INT $mpid
	kill -CONT $conn
	[ "$rc" != 137 ] || die "SIGINT over a stalled connection: the run did not end in 5 s"
	expect_rc 130
	# the killed client's row: its exit, a signal we did not send, came
	# through the agent (a crash outranks what its server said of it)
	local st
	st=$(csvq out/results.csv rep status error | head -1)
	case "$st" in
	"1	crashed: SIGKILL	client"*) ;;
	*) die "repetition 1: $st" ;;
	esac
	expect_no_remote
	[ ! -e /proc/"$master" ] || die "the agent's ssh outlived the run"
	expect_no_leftovers	# its socket and log were in the private folder
}

# sshd_descendants: the pids of every process under our sshd (its
# connections, their sessions, what those run): the remote host's side.
sshd_descendants() {
	local todo=$SSHD_PID p c
	while [ -n "$todo" ]; do
		set -- $todo
		todo=""
		for p in "$@"; do
			for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
				echo "$c"
				todo="$todo $c"
			done
		done
	done
}

# remote_roles: the command lines of the workers running under our sshd
# (whoever started them there: a session each or one per host), a line each.
remote_roles() {
	local p
	for p in $(sshd_descendants); do
		{ tr '\0' ' ' </proc/"$p"/cmdline; } 2>/dev/null | grep -E " worker (server|client) " || true
	done
}

# SIGKILL of the runner while both roles run remotely, a 20 s cell: the
# runner can clean up nothing, yet nothing is left on the remote host
# (no process under our sshd but sshd, nothing with the remote binary's
# path, no ssh master), in a second or two: the runner's ssh processes
# die with it (PR_SET_PDEATHSIG), their connections close, and sshd ends
# the sessions and what runs in them.  Both ways of starting remote
# workers: with matrix agent and with MATRIX_NO_AGENT=1 (a session each).
t_sigkill_leaves_no_remote_worker() {
	ssh_up
	{ cat <<Y
name: ssh-kill
repeat: 2
matrix:
  transport: [tcp]
  duration: [20s]
timeout: 30s
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222"; } >m.yaml
	local how mpid i roles left
	for how in agent no-agent; do
		if [ $how = agent ]; then unset MATRIX_NO_AGENT; else export MATRIX_NO_AGENT=1; fi
		in_ns "$MATRIX_BIN" run m.yaml -o "out-$how" >"$T/.out" 2>"$T/.err" &
		mpid=$!
		# until the server and the client both run there (a loaded
		# machine, an ASan build: 30 s at most), then a moment in
		# their 20 s window
		for i in $(seq 600); do
			roles=$(remote_roles)
			grep -q " worker server " <<<"$roles" && grep -q " worker client " <<<"$roles" && break
			kill -0 $mpid 2>/dev/null || die "$how: the run ended first: $(cat "$T/.err")"
			sleep 0.05
		done
		grep -q " worker client " <<<"$roles" && grep -q " worker server " <<<"$roles" ||
			die "$how: no remote server and client in 30 s: '$roles' $(cat "$T/.err")"
		kill -KILL $mpid
		rc=0
		wait $mpid || rc=$?
		expect_rc 137
		for i in $(seq 200); do	# 10 s at most
			left=$(sshd_descendants)
			[ -z "$left" ] && break
			sleep 0.05
		done
		[ -z "$left" ] || die "$how: left under sshd after SIGKILL of the runner: $(for p in $left; do
			echo; { tr '\0' ' ' </proc/"$p"/cmdline; } 2>/dev/null; done)"
		expect_no_remote
	done
	unset MATRIX_NO_AGENT
}

# ssh://root@127.0.0.1:22 and ssh://root@127.0.0.1 are one host (22 is
# ssh's port): one handshake, one connection, the plan and meta.csv say
# one URL, and the stream's rates are not upper bounds.  sshd listens on
# port 22 of the test's namespace too, and its log counts the logins:
# as many as with the one URL written twice.
t_ssh_default_port_is_one_host() {
	ssh_up
	kill -KILL "$SSHD_PID"
	wait "$SSHD_PID" 2>/dev/null
	echo "Port 22" >>"$T/ssh/sshd_config"
	echo "127.0.0.1 $(cut -d' ' -f1,2 "$T/ssh/host_key.pub")" >>"$T/ssh/known_hosts"
	: >"$T/ssh/sshd.log"
	ip netns exec "$NS" unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=755 tmpfs /run && mkdir /run/sshd && exec /usr/sbin/sshd -D -f "$1" -E "$2"' \
		sh "$T/ssh/sshd_config" "$T/ssh/sshd.log" &
	SSHD_PID=$!	# ssh_down ends this one
	local i
	for i in $(seq 100); do
		[ "$(grep -c "listening" "$T/ssh/sshd.log" 2>/dev/null)" -ge 2 ] && break
		sleep 0.05
	done
	[ "$(grep -c "listening" "$T/ssh/sshd.log")" -ge 2 ] || die "sshd on 22: $(cat "$T/ssh/sshd.log")"
	{ cat <<Y
name: ssh-22
repeat: 1
matrix:
  transport: [tcp]
  pattern: [stream]
  count: [200]
Y
	hosts_yaml "  server: ssh://root@127.0.0.1:22
  client: ssh://root@127.0.0.1"; } >m.yaml
	run_matrix plan m.yaml
	expect_rc 0
	grep -qF "hosts: server ssh://root@127.0.0.1, clients ssh://root@127.0.0.1;" "$T/.out" ||
		die "plan: $(grep hosts: "$T/.out")"
	local how logins=() want
	for how in twice 22; do
		[ $how = 22 ] || sed 's|127.0.0.1:22$|127.0.0.1|' m.yaml >twice.yaml
		: >"$T/ssh/sshd.log"
		rc=0
		(in_ns "$MATRIX_BIN" run "$([ $how = 22 ] && echo m || echo twice).yaml" -o "out-$how" -q) \
			>"$T/.out" 2>"$T/.err" || rc=$?
		expect_rc 0
		expect_all "out-$how/results.csv" status ok
		[ "$(meta_value "out-$how" server_host)" = ssh://root@127.0.0.1 ] &&
			[ "$(meta_value "out-$how" client_host)" = ssh://root@127.0.0.1 ] ||
			die "$how: hosts in meta.csv: $(grep _host "out-$how/meta.csv")"
		! grep -q 'ᵘ' "out-$how/summary.md" || die "$how: one host, yet upper bounds in summary.md"
		logins+=("$(grep -c "Accepted publickey for root" "$T/ssh/sshd.log")")
	done
	[ "${logins[0]}" -ge 1 ] && [ "${logins[1]}" = "${logins[0]}" ] ||
		die "logins: ${logins[1]} with :22 and none, ${logins[0]} with one URL twice"
	expect_no_remote
}

t_hosts_plan_errors() {
	local base="name: h
matrix:
  transport: [tcp, unix]
  count: [10]"
	printf '%s\nhosts:\n  server: ssh://root@h\n' "$base" >m.yaml
	run_matrix plan m.yaml
	expect_rc 2
	expect_err "m.yaml:3:20: transport unix does not cross hosts"
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  server: ssh://-oProxyCommand=x\n' >m.yaml
	run_matrix plan m.yaml
	expect_rc 2
	expect_err "m.yaml:5:11: hosts: server: 'ssh://-oProxyCommand=x': the host must be"
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  server: ssh://h:0\n' >m.yaml
	run_matrix plan m.yaml
	expect_err "m.yaml:5:11: hosts: server: 'ssh://h:0': the port must be 1 to 65535"
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  server: ssh://h:+22\n' >m.yaml
	run_matrix plan m.yaml
	expect_rc 2
	expect_err "m.yaml:5:11: hosts: server: 'ssh://h:+22': the port must be 1 to 65535"
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  sever: local\n' >m.yaml
	run_matrix plan m.yaml
	expect_err "m.yaml:5:3: hosts: unknown key 'sever'; did you mean 'server'?"
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  client: ssh://h\n' >m.yaml
	run_matrix plan m.yaml
	expect_err "m.yaml:4:1: hosts: a remote client needs server_address:"
	printf 'name: h\nmatrix:\n  transport: [tcp]\n  cpu: [split]\nhosts:\n  server: ssh://h\n' >m.yaml
	run_matrix plan m.yaml
	expect_err "m.yaml:4:9: cpu: split picks CPUs of one machine, and the server and the clients run on two"
	# a placement of each host's CPUs: checked against the remote host's
	# once its handshake says how many; the old way has no placement there
	printf 'name: h\nmatrix:\n  transport: [tcp]\n  cpu: ["server=9;clients=0"]\nhosts:\n  server: ssh://h\n' >m.yaml
	run_matrix plan m.yaml
	expect_rc 0
	rc=0
	MATRIX_NO_AGENT=1 "$MATRIX_BIN" plan m.yaml >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "m.yaml:4:9: cpu: server=9;clients=0 places workers on this machine's CPUs; a remote role's placement needs its host's agent, and MATRIX_NO_AGENT is set"
	printf 'name: h\nprograms:\n  p:\n    server: [./srv, "{port}"]\nmatrix:\n  transport: [tcp]\n  server: [builtin, p]\nhosts:\n  server: ssh://h\n' >m.yaml
	run_matrix plan m.yaml
	expect_rc 2
	expect_err "m.yaml:7:21: programs of your own run on this machine only: not yet with a remote host"
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  client: ssh://u@h:2\n  server_address: 10.9.9.9\n' >m.yaml
	run_matrix plan m.yaml
	expect_rc 0
	grep -qxF "hosts: server local, clients ssh://u@h:2; the server binds to 10.9.9.9; remote binary matrix, over ssh" "$T/.out" ||
		die "plan: $(cat "$T/.out")"
	# no ssh: said before anything is made
	printf 'name: h\nmatrix:\n  transport: [tcp]\nhosts:\n  server: ssh://h\n' >m.yaml
	rc=0
	PATH=/nonexistent "$MATRIX_BIN" run m.yaml -o out >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "hosts: needs ssh (Debian: openssh-client): not found in PATH"
	[ ! -e out ] || die "a run folder was made"
}

# One agent per host and run: a run of three repetitions with the server
# and both clients remote starts `matrix agent` once (the remote binary
# logs each command it runs), and no worker over an ssh session of its
# own; MATRIX_NO_AGENT=1 keeps the old way (a session per worker).
t_agent_one_session_for_every_repetition() {
	ssh_up
	local wrap="$T/remote/w/matrix"
	mkdir -p "${wrap%/matrix}"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/calls" "$MATRIX_BIN" >"$wrap"
	chmod +x "$wrap"
	{ cat <<Y
name: ssh-agent
repeat: 3
matrix:
  transport: [tcp]
  concurrency: [2]
  count: [200]
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222" | sed "s|matrix: .*|matrix: $wrap|"; } >m.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run m.yaml -o out -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all out/results.csv status ok
	[ "$(grep -c '^agent$' "$T/calls")" = 1 ] || die "not one agent: $(cat "$T/calls")"
	grep -q -- '--stdio' "$T/calls" && die "a worker over a session of its own: $(cat "$T/calls")"
	rc=0
	(export MATRIX_NO_AGENT=1; in_ns "$MATRIX_BIN" run m.yaml -o old -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all old/results.csv status ok
	[ "$(grep -c -- '--stdio' "$T/calls")" = 9 ] && [ "$(grep -c '^agent$' "$T/calls")" = 1 ] ||
		die "MATRIX_NO_AGENT=1: $(cat "$T/calls")"
	expect_no_remote
}

# A remote worker that dies of a signal: its row says which (the agent
# sends its wait status), its peer is ended with the repetition, long
# before the cell's 20 s; then SIGKILL of the runner with the next
# repetition's remote workers running leaves nothing on the remote host.
t_remote_crash_then_runner_killed_leaves_nothing() {
	ssh_up
	{ cat <<Y
name: ssh-crash
repeat: 2
matrix:
  transport: [tcp]
  duration: [20s]
timeout: 30s
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222"; } >m.yaml
	in_ns "$MATRIX_BIN" run m.yaml -o out --order sequential >"$T/.out" 2>"$T/.err" &
	local mpid=$! p srv="" w1 i again
	wait_remote_workers 2
	w1=$W
	srv=$(echo "$w1" | sed 's|.*|/proc/&/cmdline|' | xargs -r grep -laP '\x00server\x00' |
		sed 's|/proc/\([0-9]*\)/cmdline|\1|' | head -1)
	[ -n "$srv" ] || die "no remote server among '$w1'"
	kill -USR1 "$srv"
	for i in $(seq 200); do	# repetition 1's row, written as it ends
		[ -n "$("$CSVQ" out/results.csv rep 2>/dev/null)" ] && break
		sleep 0.05
	done
	case "$(csvq out/results.csv rep status error | head -1)" in
	"1	crashed: SIGUSR1	server (pid $srv) crashed: SIGUSR1"*) ;;
	*) die "repetition 1: $(cat out/results.csv) $(cat "$T/.err")" ;;
	esac
	for i in $(seq 100); do	# repetition 2's workers, none of repetition 1's
		W=$(remote_workers)
		again=""
		for p in $w1; do echo " $W " | grep -q " $p " && again=1; done
		[ -z "$again" ] && [ "$(echo $W | wc -w)" = 2 ] && break
		sleep 0.05
	done
	[ -z "$again" ] && [ "$(echo $W | wc -w)" = 2 ] || die "repetition 2's workers: '$W' (1: '$w1')"
	kill -KILL "$mpid"
	wait "$mpid" 2>/dev/null
	expect_no_remote
}

# cpu: with remote roles: the agent sets each worker's CPUs there (seen
# in its /proc status while it runs); a CPU the remote host does not have
# (its handshake's count) fails the cell, saying so.
t_remote_cpu_placement_through_the_agent() {
	ssh_up
	[ "$(nproc)" -ge 2 ] || skip "one CPU: no placement to tell apart"
	{ cat <<Y
name: ssh-cpu
repeat: 1
matrix:
  transport: [tcp]
  duration: [3s]
  cpu: ["server=1;clients=0", "server=$(nproc);clients=0"]
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222"; } >m.yaml
	in_ns "$MATRIX_BIN" run m.yaml -o out --order sequential >"$T/.out" 2>"$T/.err" &
	local mpid=$! p srv cli
	wait_remote_workers 2
	srv=$(echo "$W" | sed 's|.*|/proc/&/cmdline|' | xargs -r grep -laP '\x00server\x00' | cut -d/ -f3)
	cli=$(echo "$W" | sed 's|.*|/proc/&/cmdline|' | xargs -r grep -laP '\x00client\x00' | cut -d/ -f3)
	[ "$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/"$srv"/status)" = 1 ] ||
		die "server's CPUs: $(grep Cpus_allowed_list /proc/"$srv"/status)"
	[ "$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/"$cli"/status)" = 0 ] ||
		die "client's CPUs: $(grep Cpus_allowed_list /proc/"$cli"/status)"
	rc=0
	wait "$mpid" || rc=$?
	expect_rc 1
	[ "$(csvq out/results.csv status | head -1)" = ok ] || die "placed: $(cat out/results.csv)"
	[ "$(csvq out/results.csv status | tail -1)" = cpu ] || die "refused: $(cat out/results.csv)"
	csvq out/results.csv error | tail -1 | grep -qF "cpu: the server's CPUs $(nproc): its host ssh://root@127.0.0.1:2222 has 0-$(($(nproc) - 1))" ||
		csvq out/results.csv error | tail -1 | grep -qF "cpu: the server's CPUs $(nproc): its host ssh://root@127.0.0.1:2222 has 0,1" ||
		die "error: $(csvq out/results.csv error | tail -1)"
	expect_no_remote
}

# Path transports with both roles on one remote host: their sockets and
# FIFOs in the agent's private folder there (under the remote TMPDIR,
# here the test's), which is gone once the run ends; zmq's ipc and the
# old way (MATRIX_NO_AGENT) are still refused.
t_path_transports_on_one_remote_host() {
	ssh_up
	mkdir -p "$T/rtmp"
	{ cat <<Y
name: ssh-paths
repeat: 1
matrix:
  transport: [unix, unix_seqpacket, unix_dgram, pipe, shm]
  count: [200]
Y
	hosts_yaml "  client: ssh://root@127.0.0.1:2222
  server: ssh://root@127.0.0.1:2222" | sed "s|ssh: \[|ssh: [-o, SetEnv=TMPDIR=$T/rtmp, |"; } >m.yaml
	rc=0
	(in_ns "$MATRIX_BIN" run m.yaml -o out -q) >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	expect_all out/results.csv status ok
	[ "$(csvq out/results.csv messages | sort -u)" = 200 ] || die "messages: $(cat out/results.csv)"
	expect_no_remote
	[ -z "$(ls -A "$T/rtmp")" ] || die "left in the remote TMPDIR: $(ls -A "$T/rtmp")"
	rc=0
	MATRIX_NO_AGENT=1 "$MATRIX_BIN" plan m.yaml >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "transport unix does not cross hosts"
	sed -i 's|transport: \[.*\]|transport: [zmq]|' m.yaml
	run_matrix plan m.yaml
	expect_rc 2
	expect_err "zmq over ssh hosts is not there yet"
}
