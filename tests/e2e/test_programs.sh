# Programs nobody here wrote as servers and clients: socat, a Python
# server and client, a Perl client, paired with our builtin workers.

need_programs() {
	command -v socat >/dev/null && command -v python3 >/dev/null && command -v perl >/dev/null ||
		skip "socat, python3 or perl missing"
	cp -r "$REPO/matrices" .
}

t_three_servers_by_three_clients() {
	need_programs
	sed -e 's/^repeat: [0-9]*/repeat: 1/' -e 's/^  count: 2000/  count: 300/' \
		matrices/byo_example.yaml >m.yaml
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 9 ] || die "expected 9 rows"
	expect_all $r status ok
	expect_all $r messages 300
	# who measured what
	[ "$(csvq $r client measured_by | sort -u | tr '\t\n' ': ')" = "builtin:worker perl:printed python:printed " ] ||
		die "measured_by: $(csvq $r client measured_by | sort -u)"
	# which figures the programs printed themselves
	[ "$(csvq $r client printed_metrics | sort -u | tr '\t\n' ': ')" = "builtin: perl:rtt_mean_us python:rtt_mean_us " ] ||
		die "printed_metrics: $(csvq $r client printed_metrics | sort -u)"
	# the programs' own figures were read from their output
	csvq $r client rtt_mean_us | awk -F'\t' '$1 != "builtin" && !($2 > 0) { bad = 1 } END { exit bad }' ||
		die "a program client's rtt_mean_us is missing"
	# their output is kept, per cell and repetition
	[ -s out/logs/cell2-rep1-client1.log ] || die "no log of the python client"
	grep -q "avg rtt" out/logs/cell2-rep1-client1.log || die "the log lacks the program's output"
	# the server x client table
	grep -q '^| server | client builtin | client python | client perl |$' out/summary.md ||
		die "no server x client table: $(grep -m2 '^| server' out/summary.md)"
	expect_no_leftovers
	[ -z "$(own_procs socat)$(own_procs 'python3 matrices')" ] ||
		die "a program outlived its cell: $(own_procs socat)$(own_procs 'python3 matrices')"
	return 0
}

t_program_errors_are_row_statuses() {
	need_programs
	mat m.yaml <<'Y'
name: broken
repeat: 1
warmup: 5
timeout: 3s
programs:
  missing:
    server: [./no-such-server, "{port}"]
  dies:
    client: [sh, -c, "exit 3"]
  silent:
    client: [python3, matrices/programs/echo_client.py, "{host}", "{port}", "{size}", "{size}", "{count}"]
    result:
      rtt_p99_us: 'p99 ([0-9.]+)'
  deaf:
    server: [sleep, "30"]
    ready: 'never printed'
matrix:
  pattern: echo
  transport: tcp
  server: [builtin, missing, deaf]
  client: [builtin, dies, silent]
  count: 50
exclude:
  - {server: missing, client: dies}
  - {server: missing, client: silent}
  - {server: deaf, client: dies}
  - {server: deaf, client: silent}
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	local r=out/results.csv
	# in cell order (cells run shuffled)
	[ "$(csvq $r cell server client status | sort -n | cut -f2- | tr '\t' ' ')" = "builtin builtin ok
builtin dies exit 3
builtin silent no result
missing builtin program failed to start
deaf builtin timeout" ] || die "statuses: $(csvq $r server client status error)"
	csvq $r error | grep -q "no-such-server: program not found" || die "error of the missing program"
	csvq $r error | grep -q "printed nothing that matches the rtt_p99_us regex" || die "error of silent"
	expect_no_leftovers
}

t_program_matrix_errors_at_plan_time() {
	printf 'name: x\nprograms:\n  p:\n    client: [cli, "{prot}"]\nmatrix:\n  client: p\n' >a.yaml
	run_matrix plan a.yaml; expect_rc 2
	expect_err "a.yaml:4:19: unknown placeholder {prot}; did you mean {port}?"
	printf 'name: x\nprograms:\n  p:\n    client: cli\nmatrix:\n  client: [builtin, q]\n' >b.yaml
	run_matrix plan b.yaml; expect_rc 2
	expect_err "b.yaml:6:21: client: unknown program 'q' (known: builtin, p)"
	printf 'name: x\nprograms:\n  p:\n    client: cli\nmatrix:\n  server: p\n' >c.yaml
	run_matrix plan c.yaml; expect_rc 2
	expect_err "c.yaml:6:11: server: program p has no server: command"
	printf 'name: x\nprograms:\n  p:\n    server: srv\nmatrix:\n  pattern: stream\n  duration: 1s\n  server: p\n' >d.yaml
	run_matrix plan d.yaml; expect_rc 2
	expect_err "d.yaml:7:13: a program receiver runs for a count"
	printf 'name: x\nprograms:\n  p:\n    client: cli\n    result:\n      rtt_mean_us: {regex: "x ([0-9]+)", unit: furlongs}\nmatrix:\n  client: p\n' >e.yaml
	run_matrix plan e.yaml; expect_rc 2
	expect_err "e.yaml:6:48: result: rtt_mean_us: unit 'furlongs' does not fit this metric"
	printf 'name: x\nprograms:\n  p:\n    client: cli\nmatrix:\n  transport: udp\n  size: 64\n  client: p\n' >f.yaml
	run_matrix plan f.yaml; expect_rc 2
	expect_err "f.yaml:8:11: programs run over tcp, tcp6 or unix, not udp"
}

t_programs_that_misbehave_leave_nothing() {
	need_programs
	mat m.yaml <<'Y'
name: misbehave
repeat: 1
warmup: 5
timeout: 8s
programs:
  quits:
    server: [sh, -c, "exit 0"]
  stubborn:
    server: [sh, -c, 'trap "" TERM; exec python3 matrices/programs/echo_server.py "$0" "$1"', "{port}", "{size}"]
    ready: listening
  forky:
    client: [sh, -c, 'sleep 297 & exec python3 matrices/programs/echo_client.py "$0" "$1" "$2" "$3" "$4"', "{host}", "{port}", "{size}", "{size}", "{count}"]
matrix:
  pattern: echo
  transport: tcp
  server: [quits, stubborn]
  client: [builtin, forky]
  count: 100
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	[ "$(csvq out/results.csv server status | sort -u | tr '\t\n' ': ')" = "quits:server exited early stubborn:ok " ] ||
		die "statuses: $(csvq out/results.csv server client status)"
	# a server deaf to SIGTERM is killed a second after its clients are done
	csvq out/results.csv server wall_s | awk -F'\t' '$1 == "stubborn" && $2 > 5 { bad = 1 } END { exit bad }' ||
		die "the stubborn server held its cell: $(csvq out/results.csv server wall_s)"
	[ -z "$(own_procs 'sleep 297')" ] || die "a program's child outlived its cell: $(own_procs 'sleep 297')"
	expect_no_leftovers
}

# the regexes are PCRE2: \d, a named (?<value>...) group holding the
# figure (with a group of its own inside), in ready: and result:; a
# catastrophic pattern on a 4 KiB line is stopped by the match limit (the
# line not matched, the log says so once) and the cell ends ok, in seconds
t_pcre2_regexes_end_to_end() {
	mat m.yaml <<'Y'
name: pcre2
repeat: 1
timeout: 20s
programs:
  srv:
    server: [sh, -c, 'l=$(head -c 4000 /dev/zero | tr "\\0" a); echo "$l"b; echo "listening on port $0"; exec sleep 29.61', "{port}"]
    ready: '^listening on port \d+$|^(a+)+$'
  cli:
    client: [sh, -c, 'l=$(head -c 4000 /dev/zero | tr "\\0" a); echo "mean 99.5 us, p99 80 us"; echo "$l"b; echo "$l"b; echo "mean 12.75 us, p99 40 us"']
    result:
      rtt_mean_us: {regex: 'mean (?<value>\d+(\.\d+)?) us|(a+)+$', unit: us}
      rtt_p99_us: {regex: 'p99 (\d+) us', unit: us}
matrix:
  transport: tcp
  server: srv
  client: cli
  count: 300
Y
	run_matrix plan m.yaml; expect_rc 0
	local t0 t1
	t0=$(date +%s)
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	t1=$(date +%s)
	expect_all out/results.csv status ok
	# a running figure first, the final one last: result: keeps the last
	expect_all out/results.csv rtt_mean_us 12.75
	expect_all out/results.csv rtt_p99_us 40
	[ $((t1 - t0)) -lt 15 ] || die "the run took $((t1 - t0)) s"
	local log
	for log in out/logs/cell1-rep1-client1.log out/logs/cell1-rep1-server.log; do
		[ "$(grep -c "^\[matrix: a regex hit PCRE2's match limit on [0-9]* lines\{0,1\}; not matched\]$" "$log")" = 1 ] ||
			die "$log: no match-limit line, once: $(tail -c 300 "$log")"
	done
	expect_no_leftovers
}

# {endpoint} is where the server listens in every transport a program
# takes (here our builtin server's): PATH, 127.0.0.1:PORT, [::1]:PORT.
# The client only prints it (so its cells fail: it answers nothing).
t_endpoint_in_every_transport() {
	mat m.yaml <<'YAML'
name: ep
repeat: 1
timeout: 10s
programs:
  e:
    client: [echo, "ep={endpoint}"]
matrix:
  pattern: echo
  transport: [unix, tcp, tcp6]
  client: e
  count: 10
YAML
	run_matrix run m.yaml -o out --quiet
	[ -f out/results.csv ] || { cat "$T/.err" >&2; die "no results.csv"; }
	local c t want
	for c in 1 2 3; do
		t=$(csvq out/results.csv cell transport | awk -F'\t' -v c=$c '$1 == c { print $2 }')
		case $t in
		unix) want='^ep=/.*\.sock$' ;;
		tcp) want='^ep=127\.0\.0\.1:[0-9]+$' ;;
		tcp6) want='^ep=\[::1\]:[0-9]+$' ;;
		*) die "cell $c: transport '$t'" ;;
		esac
		grep -Eq "$want" out/logs/cell$c-rep1-client1.log ||
			die "cell $c ($t): {endpoint} gave $(cat out/logs/cell$c-rep1-client1.log)"
	done
	return 0
}
