# cpu: where a cell's workers run (none, same, split, or a mapping
# {server: [..], clients: [..]}), set by the runner in each forked child
# before exec; results.csv's placement column says where every row ran.
# Runs that need two CPUs are pinned to CPUs 0 and 1 with taskset (the
# allowed set is then {0, 1} whatever else the machine has); the bad
# placements are planned under `taskset -c 0` (allowed set {0}).

need_two_cpus() {
	command -v taskset >/dev/null || skip "no taskset"
	taskset -c 0,1 true 2>/dev/null || skip "this machine has no CPUs 0 and 1 to pin to"
}

# The CPUs each of this test's running workers may use, read from
# /proc/PID/status while the run ($1, a pid) lasts, as "CELL ROLE CPUS"
# lines (sorted, unique).  Only workers of $MATRIX_BIN whose socket path is
# in this test's $T are looked at: nobody else's.
watch_workers() {
	local run=$1 pid args cell role cpus
	while kill -0 "$run" 2>/dev/null; do
		while read -r pid args; do
			[[ $args == *"$T/"* ]] || continue
			[[ $args =~ /c([0-9]+)-r[0-9]+\.sock ]] || continue
			cell=${BASH_REMATCH[1]}
			[[ $args == *" worker server "* ]] && role=server || role=client
			cpus=$(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || continue
			[ -n "$cpus" ] && echo "$cell $role $cpus"
		done < <(own_procs "$MATRIX_BIN worker")
		sleep 0.05
	done | sort -u
}

t_workers_run_where_placed() {
	need_two_cpus
	mat m.yaml <<'EOF'
name: cpu_workers
repeat: 1
matrix:
  transport: unix
  size: 16
  cpu: [same, split, {server: [1], clients: [0]}, none]
  duration: 1s
EOF
	taskset -c 0,1 "$MATRIX_BIN" run m.yaml -o out --quiet --order=sequential >"$T/.out" 2>"$T/.err" &
	local run=$!
	watch_workers $run >seen.txt
	wait $run || { cat "$T/.err" >&2; die "the run failed"; }
	# the workers themselves, seen from outside while they ran
	[ "$(cat seen.txt)" = "1 client 0
1 server 0
2 client 1
2 server 0
3 client 0
3 server 1
4 client 0-1
4 server 0-1" ] || die "workers ran on: $(cat seen.txt)"
	# and what results.csv says
	[ "$(csvq out/results.csv cell cpu placement | sort | tr '\t' ' ')" = "1 same server=0;clients=0
2 split server=0;clients=1
3 server=1;clients=0 server=1;clients=0
4 none none" ] || die "results.csv: $(csvq out/results.csv cell cpu placement)"
	expect_all out/results.csv status ok
	# placement came last; the machine's state was added after it
	[ "$(head -1 out/results.csv | tr ',' '\n' | tail -8 | tr '\n' ' ')" = \
	  "placement steal_pct iowait_pct runnable cpu_mhz other_cpus congestion mss " ] ||
		die "placement is not where it was: $(head -1 out/results.csv)"
	# matrix plan says the same, per cell, and so does its JSON
	rc=0; taskset -c 0,1 "$MATRIX_BIN" plan m.yaml --json >plan.json 2>"$T/.err" || rc=$?; expect_rc 0
	[ "$(python3 -c 'import json, sys; print(" ".join(c["placement"] for c in json.load(sys.stdin)["cells"]))' <plan.json)" = \
	  "server=0;clients=0 server=0;clients=1 server=1;clients=0 none" ] || die "plan --json: $(cat plan.json)"
	rc=0; taskset -c 0,1 "$MATRIX_BIN" plan m.yaml >"$T/.out" 2>"$T/.err" || rc=$?; expect_rc 0
	[ "$(awk '/^ +[0-9]+  / { print $1, $NF }' "$T/.out")" = "1 server=0;clients=0
2 server=0;clients=1
3 server=1;clients=0
4 none" ] || { cat "$T/.out" >&2; die "matrix plan does not show each cell's placement"; }
	grep -q '^| placement | same: server=0;clients=0, split: server=0;clients=1, server=1;clients=0, none |$' out/summary.md ||
		die "summary.md: $(grep -n placement out/summary.md)"
	expect_no_leftovers
}

# Programs of the user's are placed too, and what they fork with them: a
# shell that greps its own status before it execs the program.
t_programs_run_where_placed() {
	need_two_cpus
	command -v python3 >/dev/null && command -v perl >/dev/null || skip "python3 or perl missing"
	mat m.yaml <<EOF
name: cpu_programs
repeat: 1
programs:
  py:
    server: [sh, -c, "grep Cpus_allowed_list /proc/self/status; exec python3 $REPO/matrices/programs/echo_server.py {port} {size}"]
    ready: 'listening'
  pl:
    client: [sh, -c, "grep Cpus_allowed_list /proc/self/status; exec perl $REPO/matrices/programs/echo_client.pl {host} {port} {size} {size} {count}"]
    result:
      rtt_mean_us: {regex: 'avg rtt ([0-9.]+) us', unit: us}
matrix:
  pattern: echo
  transport: tcp
  server: [py, builtin]
  client: [pl, builtin]
  cpu: [split, {server: [1], clients: [0]}]
  size: 16
  count: 200
exclude:
  - {server: builtin, client: builtin}
EOF
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	expect_all out/results.csv status ok
	local c s k got cl role want checked=0
	while IFS=$'\t' read -r c s cl k; do
		for role in server client1; do
			[ "$role" = server ] && [ "$s" = builtin ] && continue
			[ "$role" = client1 ] && [ "$cl" = builtin ] && continue
			got=$(awk '/^Cpus_allowed_list:/ { print $2 }' "out/logs/cell$c-rep1-$role.log")
			if [ "$role" = server ]; then want=${k#server=}; want=${want%%;*}
			else want=${k#*;clients=}; fi
			[ "$got" = "$want" ] || die "cell $c $role ran on '$got', placement $k"
			checked=$((checked + 1))
		done
	done < <(csvq out/results.csv cell server client placement)
	# 3 cells (py x pl, py x builtin, builtin x pl) x 2 placements, 4 programs each way
	[ "$checked" -eq 8 ] || die "$checked program logs checked, expected 8"
	expect_no_leftovers
}

# expect_bad FILE_TEXT WANT [CMD...]: matrix plan (or CMD) under taskset -c
# 0 fails with exit 2 and WANT on stderr.
expect_bad() {
	local text=$1 want=$2
	shift 2
	printf '%s\n' "$text" >m.yaml
	rc=0
	taskset -c 0 "$MATRIX_BIN" "${@:-plan}" m.yaml >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2
	expect_err "$want"
}

t_bad_placements() {
	command -v taskset >/dev/null || skip "no taskset"
	local head='name: bad
matrix:
  transport: tcp'
	expect_bad "$head
  cpu: spilt" "m.yaml:4:8: cpu: unknown placement 'spilt'; did you mean 'split'?"
	expect_bad "$head
  cpu: [none, anywhere]" "m.yaml:4:15: cpu: unknown placement 'anywhere' (known: none, same, split, or server=CPUS;clients=CPUS)"
	expect_bad "$head
  cpu: []" "m.yaml:4:8: cpu: empty list; give at least one value"
	expect_bad "$head
  cpu: {server: [0], client: [0]}" "m.yaml:4:22: cpu: unknown key 'client'; did you mean 'clients'?"
	expect_bad "$head
  cpu: {server: [0]}" "m.yaml:4:8: cpu: a placement names the CPUs of both sides: add clients: [CPUS]"
	expect_bad "$head
  cpu: {server: [0], clients: []}" "m.yaml:4:31: cpu: clients: empty list; give at least one CPU"
	expect_bad "$head
  cpu: {server: [x], clients: [0]}" "m.yaml:4:18: cpu: server: 'x' is not a CPU number or range"
	expect_bad "$head
  cpu: {server: 0, clients: [0, 5000]}" "m.yaml:4:33: cpu: clients: CPU 5000 is beyond the 1024 CPUs a placement can name"
	expect_bad "$head
  cpu: [same, [0]]" "m.yaml:4:15: cpu: expected none, same, split or a mapping {server: [CPUS], clients: [CPUS]}, not a list inside a list"
	expect_bad "$head
  cpu: [{server: [0], clients: [1, 2]}, 'server=0;clients=2,1']" "m.yaml:4:41: cpu: duplicate value 'server=0;clients=1,2' (same as 'server=0;clients=1,2' at line 4)"
	# the CPUs this runner may use: {0} under taskset -c 0
	expect_bad "$head
  cpu: [same, {server: [0], clients: [1]}]" "m.yaml:4:15: cpu: clients' CPU 1 is not one this runner may use (allowed: 0, sched_getaffinity)"
	expect_bad "$head
  cpu: [none, split]" "m.yaml:4:15: cpu: split needs two CPUs or more, and this runner may use CPU 0 only (sched_getaffinity)"
	expect_bad "$head
  cpu: [none, split]" "m.yaml:4:15: cpu: split needs two CPUs or more" run -o out
	[ ! -e out ] || die "a refused run made its folder"
	expect_bad "$head
  cpu: [none, same]
exclude:
  - {cpu: spilt}" "m.yaml:6:11: exclude: cpu: unknown placement 'spilt'; did you mean 'split'?"
	expect_bad "$head
  cpu: [none, same]
exclude:
  - {cpu: {server: [0], clients: [0]}}" "m.yaml:6:11: exclude: cpu server=0;clients=0 is not a value of dimension 'cpu'"
	expect_bad "$head
  cpu: [none, same]" "--only cpu=spilt: unknown placement 'spilt'; did you mean 'split'?" plan --only cpu=spilt
	expect_bad "$head
  cpu: [none, same]" "--only cpu=split: cpu has no value split (its values: none, same)" plan --only cpu=split
	expect_bad "$head
  cpu: none" "--set cpu={server: [0], clients: [0]}: cpu: '{server: [0], clients: [0]}' is not a placement: outside a matrix file write one value, none, same, split or server=0;clients=1" plan --set "cpu={server: [0], clients: [0]}"
	expect_bad "$head
  cpu: none" "--set cpu=server=0;clients=1: cpu: clients' CPU 1 is not one this runner may use (allowed: 0, sched_getaffinity)" plan --set "cpu=server=0;clients=1"
}

# --only, --set and exclude: take a placement in any of its spellings.
t_only_set_exclude() {
	need_two_cpus
	mat m.yaml <<'EOF'
name: cpu_filters
repeat: 1
matrix:
  transport: tcp
  cpu: [none, same, split, {server: [1], clients: [0, 1]}]
exclude:
  - {cpu: same}
EOF
	cells() { awk '/^ +[0-9]+  / { printf "%s %s;", $1, $NF }' "$T/.out"; }
	rc=0; taskset -c 0,1 "$MATRIX_BIN" plan m.yaml >"$T/.out" 2>"$T/.err" || rc=$?; expect_rc 0
	[ "$(cells)" = "1 none;3 server=0;clients=1;4 server=1;clients=0,1;" ] || die "exclude: $(cells)"
	rc=0; taskset -c 0,1 "$MATRIX_BIN" plan m.yaml --only cpu=split --only 'cpu=server=1;clients=1,0' \
		>"$T/.out" 2>"$T/.err" || rc=$?; expect_rc 0
	[ "$(cells)" = "3 server=0;clients=1;4 server=1;clients=0,1;" ] || die "--only: $(cells)"
	rc=0; taskset -c 0,1 "$MATRIX_BIN" plan m.yaml --set cpu=split >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 2	# exclude: names same, which --set took away: the file's own rule
	expect_err "exclude: cpu same is not a value of dimension 'cpu'"
	sed -i '/^exclude:/,$d' m.yaml
	rc=0; taskset -c 0,1 "$MATRIX_BIN" plan m.yaml --set 'cpu=server=1;clients=0' >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	[ "$(cells)" = "1 server=1;clients=0;" ] || die "--set: $(cells)"
	rc=0; taskset -c 0,1 "$MATRIX_BIN" run m.yaml --set cpu=split -o out --quiet >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 0
	[ "$(csvq out/results.csv cpu placement | tr '\t' ' ')" = "split server=0;clients=1" ] ||
		die "results.csv: $(csvq out/results.csv cpu placement)"
}

# A folder from before the placement column reports as it did (its
# summary.md byte for byte the one checked in), and compare refuses two
# runs of the same matrix whose cells ran on other CPUs.
t_old_folders_and_compare() {
	need_two_cpus
	rm -rf old && cp -R "$REPO/tests/data/golden" old && rm -f old/summary.* old/ratios.csv
	run_matrix report old --quiet; expect_rc 0
	cmp old/summary.md "$REPO/tests/data/golden-summary.md" ||
		die "an old folder's summary.md changed: $(diff old/summary.md "$REPO/tests/data/golden-summary.md" | head)"
	! grep -q placement old/summary.md || die "an old folder's summary.md names a placement"
	mat m.yaml <<'EOF'
name: cpu_compare
repeat: 2
matrix:
  transport: unix
  size: 16
  cpu: same
  count: 300
EOF
	taskset -c 0 "$MATRIX_BIN" run m.yaml -o a --quiet >/dev/null 2>&1 || die "run a failed"
	taskset -c 1 "$MATRIX_BIN" run m.yaml -o b --quiet >/dev/null 2>&1 || die "run b failed"
	[ "$(csvq a/results.csv placement | sort -u)$(csvq b/results.csv placement | sort -u)" = \
	  "server=0;clients=0server=1;clients=1" ] || die "placements: $(csvq a/results.csv placement) $(csvq b/results.csv placement)"
	run_matrix compare a b; expect_rc 2
	expect_err "placement: 1 cell ran on other CPUs, such as transport=unix size=16 cpu=same count=300 on server=0;clients=0 vs server=1;clients=1"
	run_matrix compare a a; [ "$rc" -ne 2 ] || { cat "$T/.err" >&2; die "a folder against itself refused"; }
}

# Where a cell's workers ran is in the JSON export too, and on report.html
# (summary.md's placement), as results.csv has it
t_placement_in_the_json_export() {
	need_two_cpus
	mat m.yaml <<'EOF2'
name: cpu_json
repeat: 2
matrix:
  transport: unix
  size: 16
  cpu: [split, none]
  count: 200
EOF2
	run_matrix run m.yaml -o out --quiet --export-json run.json; expect_rc 0
	[ "$(jq -r '.cells[] | "\(.cell) \(.placement)"' run.json)" = "1 server=0;clients=1
2 none" ] || die "the JSON's placements: $(jq -c '[.cells[] | [.cell, .placement]]' run.json)"
	grep -q 'server=0;clients=1' out/report.html || die "report.html does not say where the workers ran"
}
