# A worker or program that cannot be started (issue 14 review): the
# runner starts them with vfork(), and what fails between the vfork and
# the exec comes back over the exec-error pipe as the row's error, naming
# the stage and the reason; the run goes on with the next cell and leaves
# nothing behind.

# An executable file that is no program (no #! line): execv refuses it.
t_exec_failure_is_named() {
	printf 'just text, no interpreter\n' >notexec
	chmod +x notexec
	mat m.yaml <<EOF
name: execfail
repeat: 1
programs:
  bad:
    server: [$T/notexec, "{port}"]
    ready: 'listening'
matrix:
  pattern: echo
  transport: tcp
  server: [bad, builtin]
  size: 16
  count: 20
EOF
	run_matrix run m.yaml -o out --quiet; expect_rc 1
	# rows in the run's (shuffled) order: sorted here
	[ "$(csvq out/results.csv server status error | tr '\t' '|' | sort)" = \
	  "bad|program failed to start|server: exec $T/notexec: Exec format error
builtin|ok|" ] || die "rows: $(csvq out/results.csv server status error)"
	expect_no_leftovers
}

# sched_setaffinity refused in the child (strace injects EINVAL; the
# runner itself only reads its CPUs): the row says so, the unplaced cell
# runs.
t_affinity_refusal_is_named() {
	command -v strace >/dev/null || skip "strace missing (make test installs it)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
	mat m.yaml <<'EOF'
name: afffail
repeat: 1
matrix:
  pattern: pingpong
  transport: unix
  cpu: [same, none]
  size: 16
  count: 20
EOF
	rc=0
	# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -o /dev/null \
		-e trace=sched_setaffinity -e inject=sched_setaffinity:error=EINVAL \
		"$MATRIX_BIN" run m.yaml -o out --quiet >"$T/.out" 2>"$T/.err" || rc=$?
	expect_rc 1
	[ "$(csvq out/results.csv placement status error | tr '\t' '|' | sort)" = \
	  "none|ok|
server=0;clients=0|spawn failed|server: sched_setaffinity before exec $MATRIX_BIN: Invalid argument" ] || die "rows: $(csvq out/results.csv placement status error)"
	expect_no_leftovers
}
