# The command line: help, version, plan, and bad input (exit 2, FILE:LINE:COL).

t_help_and_version() {
	run_matrix --help; expect_rc 0
	grep -q "run FILE" "$T/.out" || die "--help lacks the run command"
	run_matrix run --help; expect_rc 0
	grep -q -- "--only KEY=VALUE" "$T/.out" || die "run --help lacks --only"
	run_matrix plan --help; expect_rc 0
	run_matrix worker --help; expect_rc 0
	grep -q -- "--transport" "$T/.out" || die "worker --help lacks --transport"
	run_matrix --version; expect_rc 0
	grep -Eq '^matrix [0-9]+\.[0-9]+\.[0-9]+ \(' "$T/.out" || die "bad --version: $(cat "$T/.out")"
	run_matrix rnu x.yaml; expect_rc 2
	expect_err "unknown command 'rnu'; did you mean 'run'?"
	run_matrix; expect_rc 2
	expect_err "usage: matrix COMMAND [options]"
	[ ! -s "$T/.out" ] || die "usage on a mistake goes to stderr: $(cat "$T/.out")"
}

t_plan_lists_cells() {
	mat m.yaml <<'Y'
name: p
repeat: 2
matrix:
  pattern: pingpong
  transport: [unix, tcp]
  size: [16, 1KiB]
  concurrency: [1, 4]
  count: 100
exclude:
  - {transport: unix, size: 1KiB, concurrency: 4}
Y
	run_matrix plan m.yaml; expect_rc 0
	# 2*2*2 - 1 = 7 cells, numbered in product order, cell 4 excluded
	[ "$(grep -cE '^ +[0-9]+  pingpong' "$T/.out")" -eq 7 ] || die "expected 7 cells: $(cat "$T/.out")"
	grep -qE '^ +4  ' "$T/.out" && die "excluded cell 4 listed"
	# workers: 1 server + concurrency clients per cell run: (4 x 2 + 3 x 5) x 2 reps
	grep -q "7 cells x 2 repetitions = 14 cell runs, 46 worker processes" "$T/.out" ||
		die "bad totals: $(tail -1 "$T/.out")"
	run_matrix plan m.yaml --only transport=tcp --only size=16; expect_rc 0
	[ "$(grep -cE '^ +[0-9]+  pingpong' "$T/.out")" -eq 2 ] || die "--only: $(cat "$T/.out")"
	[ ! -e results ] || die "plan must not create a run folder"
}

t_bad_matrix_errors() {
	printf 'name: x\nrepat: 2\nmatrix:\n  transport: tcp\n' >a.yaml
	run_matrix run a.yaml; expect_rc 2
	expect_err "a.yaml:2:1: unknown key 'repat'; did you mean 'repeat'?"
	printf 'name: x\nmatrix:\n  transport: [tcp, unx]\n' >b.yaml
	run_matrix run b.yaml; expect_rc 2
	expect_err "b.yaml:3:20: transport: unknown transport 'unx'; did you mean 'unix'?"
	printf 'name: x\nmatrix:\n  count: 0\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:3:10: count: invalid count '0': must be greater than zero"
	printf 'name: x\nmatrix:\n  size: [10, 1KiB\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 2
	expect_err "d.yaml:4:1: did not find expected ',' or ']' (while parsing a flow sequence at line 3)"
	printf 'name: x\nmatrix:\n  size: 99999999999999999999\n' >e.yaml
	run_matrix plan e.yaml; expect_rc 2
	expect_err "e.yaml:3:9: size: invalid size '99999999999999999999': too large"
	printf 'name: x\nmatrix:\n  pattern: [pingpong, stream]\n  size: 16\n  patern: echo\n' >f.yaml
	run_matrix plan f.yaml; expect_rc 2
	expect_err "f.yaml:5:3: matrix: unknown dimension 'patern'; did you mean 'pattern'?"
	run_matrix run missing.yaml; expect_rc 2
	expect_err "missing.yaml: cannot open: No such file or directory"
	[ ! -e results ] || die "a bad matrix must not create a run folder"
}

t_cell_checks_at_plan_time() {
	printf 'name: x\nmatrix:\n  concurrency: 4\n  count: 3\n' >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:4:10: count 3 is less than concurrency 4"
	printf 'name: x\nmatrix:\n  pattern: [echo, stream]\n  response_size: 64\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:4:18: response_size applies to pattern pingpong only"
	printf 'name: x\nmatrix:\n  pattern: stream\n  inflight: [1, 8]\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:4:17: inflight applies to pingpong and echo"
	printf 'name: x\nmatrix:\n  transport: [tcp, unix]\nexclude:\n  - {transport: tcp}\n  - {transport: unix}\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 2
	expect_err "d.yaml: every cell is excluded"
	printf 'name: x\ntimeout: 2s\nmatrix:\n  duration: 5s\n' >e.yaml
	run_matrix plan e.yaml; expect_rc 2
	expect_err "e.yaml:4:13: duration must be shorter than the timeout"
}

t_bad_flags() {
	printf 'name: x\nmatrix:\n  transport: [tcp, unix]\n  count: 10\n' >m.yaml
	run_matrix run m.yaml --repeat 0; expect_rc 2
	expect_err "--repeat 0: must be between 1 and 100000"
	run_matrix run m.yaml --repeat x; expect_rc 2
	expect_err "--repeat x: not a number"
	run_matrix run m.yaml --only transprt=tcp; expect_rc 2
	expect_err "--only transprt=tcp: 'transprt' is not a key"
	expect_err "did you mean 'transport'?"
	run_matrix run m.yaml --only transport=udp; expect_rc 2
	expect_err "--only transport=udp: transport has no value udp (its values: tcp, unix)"
	run_matrix run m.yaml --only size=10; expect_rc 2
	expect_err "--only size=10: 'size' is not a key of m.yaml's matrix"
	mkdir full && touch full/x
	run_matrix run m.yaml -o full; expect_rc 2
	expect_err "-o full: exists and is not an empty directory"
	[ -e full/x ] && [ "$(ls full)" = x ] || die "-o touched a non-empty folder"
	[ ! -e results ] || die "a bad flag must not create a run folder"
}

# --only takes a value as results.csv writes it (rate 2000 for 2k/s, size
# 1024 for 1KiB); --set takes a list, as the matrix file does (A,B or
# [A, B]; a cpu placement's CPU list keeps its commas)
t_only_csv_value_and_set_list() {
	printf 'name: ol\nmatrix:\n  rate: [2k/s, 1.5k/s]\n  size: [64, 1KiB]\n  cpu: same\n' >m.yaml
	run_matrix plan m.yaml --only rate=2000; expect_rc 0
	[ "$(grep -c '^ *[0-9][0-9]*  ' "$T/.out")" -eq 2 ] || die "--only rate=2000: $(cat "$T/.out")"
	grep -q '1\.5k/s$' "$T/.out" && die "--only rate=2000 kept 1.5k/s: $(cat "$T/.out")"
	run_matrix plan m.yaml --only size=1024 --only rate=1500; expect_rc 0
	[ "$(grep -c '^ *[0-9][0-9]*  ' "$T/.out")" -eq 1 ] || die "--only size=1024: $(cat "$T/.out")"
	run_matrix plan m.yaml --only rate=3000; expect_rc 2
	expect_err "--only rate=3000"
	run_matrix plan m.yaml --set cpu=same,split; expect_rc 0
	[ "$(grep -c 'server=0;clients=1' "$T/.out")" -eq 4 ] || die "--set cpu=same,split: $(cat "$T/.out")"
	[ "$(grep -c 'server=0;clients=0' "$T/.out")" -eq 4 ] || die "--set cpu=same,split: $(cat "$T/.out")"
	run_matrix plan m.yaml --set 'transport=[unix, tcp]' --set cpu='server=0,1;clients=0,split'; expect_rc 0
	grep -q 'unix .*server=0,1;clients=0' "$T/.out" || die "a list --set: $(cat "$T/.out")"
	[ "$(grep -c '^ *[0-9][0-9]*  ' "$T/.out")" -eq 16 ] || die "a list --set: $(cat "$T/.out")"
	run_matrix plan m.yaml --set cpu=same,bogus; expect_rc 2
	expect_err "bogus"
}
