# A Slurm cluster of one node on this machine, for the fleet tests
# (tests/fleet/test_*.sh, run by `make test-fleet`): munged, slurmctld and
# slurmd of Debian's slurm-wlm, started by the test with a configuration
# of its own under $T/slurm (state, spool, pid files, logs, munge key and
# socket), on ports of loopback, and stopped by PID when the test ends.
# Every sbatch, squeue, scontrol and scancel the test runs reads that
# configuration through SLURM_CONF.  Sourced by the test file, with
# tests/e2e/lib.sh (die, skip, own_procs).

# free_port: a TCP port of 127.0.0.1 nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# slurm_start: the cluster up, its node idle; skips when Slurm or munge is
# not installed (make test-fleet installs them) or not root (slurmd runs
# each job as its user); sets SLURM_CONF, SLURM_NODE, SLURM_PIDS
slurm_start() {
	local p d=$T/slurm
	for p in munged munge slurmctld slurmd sbatch squeue scontrol scancel unshare python3; do
		command -v "$p" >/dev/null ||
			skip "$p missing: make test-fleet installs Slurm and munge (FLEET_DEB)"
	done
	[ "$(id -u)" -eq 0 ] || skip "slurmd runs each job as its user: run as root"
	# The daemons bind to the address their host name resolves to
	# (CommunicationParameters=NoInAddrAny: loopback only, not every
	# address), so each runs in a UTS namespace of its own named localhost,
	# 127.0.0.1 on every machine, whatever this one's name resolves to
	SLURM_NODE=localhost
	mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
	chmod 0700 "$d/munge"
	head -c 1024 /dev/urandom >"$d/munge/munge.key"
	chmod 0400 "$d/munge/munge.key"
	SLURM_PIDS=()
	trap 'slurm_stop; e2e_teardown' EXIT
	# -f: as root, and with the key in a folder of a temp dir
	munged -F -f -S "$d/munge/socket" --key-file="$d/munge/munge.key" --pid-file="$d/munge/pid" \
		--seed-file="$d/munge/seed" --log-file="$d/log/munged.log" >"$d/log/munged.out" 2>&1 &
	SLURM_PIDS+=($!)
	for _ in $(seq 100); do [ -S "$d/munge/socket" ] && break; sleep 0.1; done
	[ -S "$d/munge/socket" ] || die "munged made no socket: $(cat "$d/log/munged.out")"
	# the node as slurmd -C sees this machine (CPUs, sockets, cores, memory)
	local node
	node=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p' | head -1)
	[ -n "$node" ] || die "slurmd -C printed no node: $(slurmd -C 2>&1)"
	export SLURM_CONF=$d/slurm.conf
	cat >"$SLURM_CONF" <<EOF
ClusterName=matrixfleet
SlurmctldHost=$SLURM_NODE(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/socket
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
KillWait=5
MinJobAge=3600
NodeName=$SLURM_NODE NodeAddr=127.0.0.1 NodeHostname=$SLURM_NODE $node Feature=bench State=UNKNOWN
PartitionName=fleet Nodes=$SLURM_NODE Default=YES MaxTime=INFINITE State=UP
EOF
	local named='hostname localhost && exec "$@"'
	unshare --uts sh -c "$named" sh slurmctld -D -i >"$d/log/slurmctld.out" 2>&1 &
	SLURM_PIDS+=($!)
	unshare --uts sh -c "$named" sh slurmd -D -N "$SLURM_NODE" >"$d/log/slurmd.out" 2>&1 &
	SLURM_PIDS+=($!)
	local st=''
	for _ in $(seq 300); do
		st=$(sinfo -h -n "$SLURM_NODE" -o %T 2>/dev/null) || st=''
		[ "$st" = idle ] && return 0
		sleep 0.1
	done
	die "the node is not idle in 30 s (state '$st'): $(tail -5 "$d/log/slurmctld.log" "$d/log/slurmd.log")"
}

# slurm_stop: every job cancelled (its processes ended by slurmd, KillWait
# 5 s), then the daemons and whatever of ours outlived them, each by PID
slurm_stop() {
	local pid line left
	if [ -n "${SLURM_CONF:-}" ] && [ -n "$(squeue -h -o %A 2>/dev/null)" ]; then
		scancel --full $(squeue -h -o %A) 2>/dev/null
		for _ in $(seq 150); do [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break; sleep 0.1; done
	fi
	for pid in "${SLURM_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${SLURM_PIDS[@]}"; do
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	SLURM_PIDS=()
	left=$(own_procs)
	while read -r pid line; do
		[ -n "$pid" ] && [ "$pid" != "$BASHPID" ] && kill -KILL "$pid" 2>/dev/null
	done <<<"$left"
	return 0
}

# job_tasks JOB: "TASK STATE EXIT" of each task of JOB, by task (TASK -
# for a job that is no array; EXIT as Slurm says it, 0:0)
job_tasks() {
	scontrol -o show job "$1" 2>/dev/null | awk '{
		k = "-"; st = ""; ex = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^ArrayTaskId=/) k = substr($i, 13)
			else if ($i ~ /^JobState=/) st = substr($i, 10)
			else if ($i ~ /^ExitCode=/) ex = substr($i, 10)
		}
		print k, st, ex }' | sort -n
}

# slurm_wait JOB...: until no task of the JOBs is pending or running
# (3 minutes at most)
slurm_wait() {
	local j busy
	for _ in $(seq 1800); do
		busy=''
		for j in "$@"; do
			[ -z "$(squeue -h -j "$j" 2>/dev/null)" ] || busy=1
		done
		[ -z "$busy" ] && return 0
		sleep 0.1
	done
	die "jobs $* still queued after 3 minutes: $(squeue) $(tail -5 "$T/slurm/log/slurmctld.log")"
}

# job_state JOB: the state of a job (or array task JOB_K) as scontrol says
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }

# wait_running DIR: until DIR/meta.csv says the run is running (a task
# begun, its folder made); 60 s at most
wait_running() {
	for _ in $(seq 600); do
		grep -qx 'status,running' "$1/meta.csv" 2>/dev/null && return 0
		sleep 0.1
	done
	die "$1 did not start in 60 s: $(squeue) $(ls "$T")"
}
