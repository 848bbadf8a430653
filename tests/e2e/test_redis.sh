# A real server and client nobody here wrote, a command per transport:
# redis-server and redis-benchmark, unix against tcp (matrices/redis_unix_vs_tcp.yaml).

t_redis_unix_vs_tcp() {
	command -v redis-server >/dev/null && command -v redis-benchmark >/dev/null ||
		skip "redis-server or redis-benchmark missing (Debian's redis-server)"
	sed -e 's/^repeat: [0-9]*/repeat: 1/' -e 's/^  count: 20000/  count: 2000/' \
		"$REPO/matrices/redis_unix_vs_tcp.yaml" >m.yaml
	grep -q '^  count: 2000$' m.yaml || die "the example's count: moved"
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 2 ] || die "expected 2 rows"
	expect_all $r status ok
	[ "$(csvq $r transport | sort | tr '\n' ' ')" = "tcp unix " ] ||
		die "transports: $(csvq $r transport)"
	# redis-benchmark's own requests per second, read from its --csv line
	csvq $r transport msgs_per_s | awk -F'\t' '!($2 > 0) { bad = 1 } END { exit bad }' ||
		die "a cell lacks msgs_per_s: $(csvq $r transport msgs_per_s)"
	# one program in both cells: they differ only in transport, so they pair
	sed -n '/^## Headline/,/^## /p' out/summary.md | grep -Eq '(unix delivered .* the messages per second of tcp|tcp delivered .* the messages per second of unix|no clear difference between unix and tcp in messages per second)' ||
		die "no unix/tcp ratio in the headline: $(sed -n '/^## Headline/,/^## /p' out/summary.md)"
	expect_no_leftovers
	[ -z "$(own_procs redis-)" ] || die "a redis process outlived its cell: $(own_procs redis-)"
	return 0
}
