# A fleet on a real scheduler (issue 30): docs/across-machines.md's Slurm
# recipe, shard.sh and its two sbatch lines taken from the page word for
# word, submitted to a Slurm of one node that the test starts
# (tests/fleet/slurm.sh), and what a cluster's user meets: a task that is
# cancelled, one requeued, the whole array cancelled.  Run by make
# test-fleet, never by make test (Slurm and munge are FLEET_DEB).

source "$REPO/tests/fleet/slurm.sh"

# The recipe of the page into $T: shard.sh (its ```sh block) and submit.sh
# (the indented lines after it), as they are written there.
recipe() {
	local md=$REPO/docs/across-machines.md
	awk '/^A Slurm array job/ { f = 1 } f && /^```sh$/ { g = 1; next } g && /^```$/ { exit } g' \
		"$md" >shard.sh
	awk '/^A Slurm array job/ { f = 1 } f && /^```$/ { e++ ; next }
		e == 1 && /^    / { sub(/^    /, ""); print; p = 1; next } p { exit }' "$md" >submit.sh
	grep -q '^#SBATCH --array=' shard.sh || die "no shard.sh in $md: $(cat shard.sh)"
	grep -q '^job=$(sbatch --parsable shard.sh)$' submit.sh || die "no sbatch lines in $md: $(cat submit.sh)"
	# `matrix` on PATH is this build
	mkdir -p bin && ln -s "$MATRIX_BIN" bin/matrix
	export PATH=$T/bin:$PATH
}

# m.yaml: 3 cells x 2 repetitions, 6 cell repetitions for the recipe's 3
# shards; SLOW=1: each repetition 1 s, for a task caught running
fleet_matrix() {
	local len='count: 200'
	[ -z "${SLOW:-}" ] || len='duration: 1s'
	mat m.yaml <<Y
name: fleet
repeat: 2
warmup: 5
matrix:
  pattern: pingpong
  transport: [unix, tcp, udp]
  size: 64
  $len
Y
}

# submit: the recipe's lines, run by sh as written; sets ARRAY (the array
# job) and MERGE (the merge job)
submit() {
	sh -c '. ./submit.sh && echo "array $job"' >submit.out 2>&1 || die "submit.sh: $(cat submit.out)"
	ARRAY=$(awk '$1 == "array" { print $2 }' submit.out)
	MERGE=$(awk '/^Submitted batch job / { print $4 }' submit.out)
	[[ $ARRAY =~ ^[0-9]+$ && $MERGE =~ ^[0-9]+$ ]] || die "submit.sh printed: $(cat submit.out)"
}

# same_run DIR: DIR holds the cells and repetitions of a sequential run
# of m.yaml (the figures are measured, so never compared)
same_run() {
	local cols="cell pattern transport size rep status"
	run_matrix run m.yaml -o whole -q --order sequential; expect_rc 0
	[ "$(csvq "$1/results.csv" $cols)" = "$(csvq whole/results.csv $cols)" ] ||
		die "$1/results.csv: $(csvq "$1/results.csv" $cols | tr '\t\n' ' ,')
a sequential run: $(csvq whole/results.csv $cols | tr '\t\n' ' ,')"
	grep -qx 'status,ok' "$1/meta.csv" || die "$1: $(grep ^status "$1/meta.csv")"
}

# The recipe as written: three tasks, one shard each, in the folder sbatch
# ran in; the merge job after them joins the shards into what one run makes
t_slurm_array_recipe_runs_and_merges() {
	slurm_start
	recipe
	fleet_matrix
	submit
	slurm_wait "$ARRAY" "$MERGE"
	[ "$(job_tasks "$ARRAY")" = "$(printf '%s COMPLETED 0:0\n' 1 2 3)" ] ||
		die "array tasks: $(job_tasks "$ARRAY") $(cat slurm-*.out)"
	[ "$(job_state "$MERGE")" = COMPLETED ] || die "merge job: $(job_state "$MERGE"): $(cat slurm-"$MERGE".out)"
	local k
	for k in 1 2 3; do
		grep -qx "shard,$k/3" shards/$k/meta.csv || die "shards/$k: $(grep ^shard shards/$k/meta.csv)"
		[ "$(csvq shards/$k/results.csv --rows)" -eq 2 ] || die "shards/$k ran $(csvq shards/$k/results.csv --rows)"
	done
	grep -qx 'merged' slurm-"$MERGE".out || die "merge job's output: $(cat slurm-"$MERGE".out)"
	grep -qx 'merged_from,shards/1 shards/2 shards/3' merged/meta.csv ||
		die "merged: $(grep merged_from merged/meta.csv)"
	same_run merged
	expect_no_leftovers
}

# A repetition that fails (a server that exits 3) fails its task (matrix
# run exits 1), but its shard is whole: the merge job (afterany) runs
# after it all the same and merges, as one run would say it
t_slurm_failed_repetition_still_merges() {
	slurm_start
	recipe
	mat m.yaml <<'Y'
name: failfleet
repeat: 1
warmup: 5
programs:
  bad:
    server: [sh, -c, 'echo dying; exit 3']
matrix:
  pattern: pingpong
  transport: tcp
  size: [16, 32, 64]
  server: [builtin, bad]
  count: 100
exclude:
  - {size: 16, server: bad}
  - {size: 64, server: bad}
Y
	submit
	slurm_wait "$ARRAY" "$MERGE"
	# 4 cells (numbers 1 3 4 5: the excluded keep theirs), 1 repetition
	# each: cell 4 (32 B, bad) is the plan's third, i = 2, shard 3's
	[ "$(job_tasks "$ARRAY")" = "$(printf '1 COMPLETED 0:0\n2 COMPLETED 0:0\n3 FAILED 1:0')" ] ||
		die "array tasks: $(job_tasks "$ARRAY")"
	grep -qx 'status,some repetitions failed' shards/3/meta.csv || die "shards/3: $(grep ^status shards/3/meta.csv)"
	[ "$(job_state "$MERGE")" = FAILED ] || die "merge job: $(job_state "$MERGE"): $(cat slurm-"$MERGE".out)"
	grep -qx 'merged' slurm-"$MERGE".out || die "merge job's output: $(cat slurm-"$MERGE".out)"
	grep -qx 'status,some repetitions failed' merged/meta.csv || die "merged: $(grep ^status merged/meta.csv)"
	[ "$(csvq merged/results.csv cell status | tr '\t\n' ' ,')" = "1 ok,3 ok,4 exit 3,5 ok," ] ||
		die "merged: $(csvq merged/results.csv cell status | tr '\t\n' ' ,')"
	expect_no_leftovers
}

# A task cancelled while it runs: the merge job (afterany) refuses and
# names the shard; the task submitted again (sbatch --array=2 shard.sh)
# carries on its folder, and the merge goes through
t_slurm_cancelled_task_then_resumed() {
	slurm_start
	recipe
	SLOW=1 fleet_matrix
	submit
	wait_running shards/2
	scancel "${ARRAY}_2" || die "scancel ${ARRAY}_2"
	slurm_wait "$ARRAY" "$MERGE"
	[ "$(job_state "${ARRAY}_2")" = CANCELLED ] || die "task 2: $(job_tasks "$ARRAY")"
	grep -qx 'status,interrupted' shards/2/meta.csv || die "shards/2: $(grep ^status shards/2/meta.csv)"
	[ "$(job_state "$MERGE")" = FAILED ] || die "merge job: $(job_state "$MERGE")"
	grep -qF 'shards/2 (shard 2/3): its run did not finish (status: interrupted): `matrix run --resume shards/2` first' \
		slurm-"$MERGE".out || die "merge job's output: $(cat slurm-"$MERGE".out)"
	[ ! -e merged ] && [ -z "$(ls -d merged.* 2>/dev/null)" ] || die "a refused merge left $(ls -d merged*)"
	# the task again, alone: shard 2 of 3 still (an array of one task,
	# whose SLURM_ARRAY_TASK_COUNT is 1), resumed
	local again
	again=$(sbatch --parsable --array=2 shard.sh) || die "sbatch --array=2 shard.sh"
	slurm_wait "$again"
	[ "$(job_tasks "$again")" = "2 COMPLETED 0:0" ] || die "task 2 again: $(job_tasks "$again") $(cat slurm-"$again"_2.out)"
	grep -q '^command_line,matrix run m.yaml --shard 2/3 -o shards/2 -q$' shards/2/meta.csv ||
		die "shards/2: $(grep ^command_line shards/2/meta.csv)"
	run_matrix merge shards/* -o merged -q; expect_rc 0
	same_run merged
	expect_no_leftovers
}

# A task requeued while it runs (as Slurm does when its node fails): the
# rerun carries on the shard its first attempt began
t_slurm_requeued_task_resumes() {
	slurm_start
	recipe
	SLOW=1 fleet_matrix
	submit
	wait_running shards/2
	scontrol requeue "${ARRAY}_2" || die "scontrol requeue ${ARRAY}_2"
	# Slurm holds a requeued job for two minutes (its BeginTime); now
	local st=''
	for _ in $(seq 300); do
		st=$(job_state "${ARRAY}_2")
		[ "$st" = PENDING ] && break
		sleep 0.1
	done
	[ "$st" = PENDING ] || die "task 2 requeued is $st"
	scontrol update JobId="${ARRAY}_2" StartTime=now || die "scontrol update StartTime"
	slurm_wait "$ARRAY" "$MERGE"
	scontrol show job "${ARRAY}_2" | grep -q 'Restarts=1 ' || die "task 2 not restarted: $(scontrol show job "${ARRAY}_2")"
	[ "$(job_tasks "$ARRAY")" = "$(printf '%s COMPLETED 0:0\n' 1 2 3)" ] ||
		die "array tasks: $(job_tasks "$ARRAY")"
	[ "$(job_state "$MERGE")" = COMPLETED ] || die "merge job: $(job_state "$MERGE"): $(cat slurm-"$MERGE".out)"
	grep -q '^command_line,matrix run m.yaml --shard 2/3 -o shards/2 -q$' shards/2/meta.csv ||
		die "shards/2: $(grep ^command_line shards/2/meta.csv)"
	same_run merged
	expect_no_leftovers
}

# scancel of the whole array while a task runs: no matrix process left
# (runner, guard or worker), and the merge job after it refuses, leaving
# no merged folder, whole or half
t_slurm_scancel_of_the_array_leaves_nothing() {
	slurm_start
	recipe
	SLOW=1 fleet_matrix
	submit
	wait_running shards/1
	scancel "$ARRAY" || die "scancel $ARRAY"
	slurm_wait "$ARRAY" "$MERGE"
	job_tasks "$ARRAY" | awk '$2 != "CANCELLED" { exit 1 }' || die "array tasks: $(job_tasks "$ARRAY")"
	local left
	for t in "matrix run" "matrix merge" "$MATRIX_BIN" slurmstepd slurm_script; do
		left=$(own_procs "$t")
		[ -z "$left" ] || die "left running: $left"
	done
	[ "$(job_state "$MERGE")" = FAILED ] || die "merge job: $(job_state "$MERGE")"
	[ ! -e merged ] && [ -z "$(ls -d merged.* 2>/dev/null)" ] || die "the merge left $(ls -d merged*)"
	grep -qx 'status,interrupted' shards/1/meta.csv || die "shards/1: $(grep ^status shards/1/meta.csv)"
	expect_no_leftovers
}
