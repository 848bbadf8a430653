# The source experiments rerun with programs like theirs (matrices/seeds/,
# `make seeds`): every seed matrix plans, and where this machine has the
# toolchain, a tiny run of its program cells builds the programs through
# their setup: steps and reads their figures.  `make test` installs none of
# these toolchains (golang-go, gccgo, default-jdk-headless, libjeromq-java,
# python3-zmq: `make seeds` does); a test whose toolchain is missing skips,
# saying which.

SEEDS="000_go_rtt 001_zmq_push_pull 002_af_echo"

# the matrices and their programs, here: their paths are relative
seeds_here() { cp -r "$REPO/matrices" .; }

have_go() { command -v go >/dev/null || skip "go missing (golang-go; make seeds installs it)"; }
have_gccgo() { command -v gccgo >/dev/null || skip "gccgo missing (make seeds installs it)"; }
have_java() {
	command -v javac >/dev/null && command -v java >/dev/null ||
		skip "javac missing (default-jdk-headless; make seeds installs it)"
}
have_jeromq() { [ -r /usr/share/java/jeromq.jar ] || skip "/usr/share/java/jeromq.jar missing (libjeromq-java)"; }
have_pyzmq() {
	/usr/bin/python3 -c 'import zmq' 2>/dev/null || skip "/usr/bin/python3 has no zmq (python3-zmq)"
}

# every ok row's COLUMN is a number above 0
expect_positive() {
	csvq "$1" status "$2" | awk -F'\t' '$1 != "ok" || !($2 > 0) { bad = 1 } END { exit bad }' ||
		die "$1: $2 not above 0 in every row: $(csvq "$1" status "$2" | tr '\t\n' ': ')"
}

t_seed_matrices_plan() {
	seeds_here
	local s cells
	for s in $SEEDS; do
		run_matrix plan "matrices/seeds/$s.yaml"; expect_rc 0
		cells=$(grep -cE '^ +[0-9]+ ' "$T/.out")
		case $s in
		000_*) [ "$cells" -eq 9 ] || die "$s: $cells cells, expected 3 servers x 3 clients" ;;
		001_*) [ "$cells" -eq 5 ] || die "$s: $cells cells, expected 5 (2 x 2 programs, builtin pair)" ;;
		002_*) [ "$cells" -eq 6 ] || die "$s: $cells cells, expected 3 clients x 2 transports" ;;
		esac
	done
	# the source's sizes and counts
	grep -qE '1KiB +1KiB +1 +10000 ' <(matrix plan matrices/seeds/000_go_rtt.yaml) ||
		die "000: not 1 KiB requests and responses, 10,000 requests"
	grep -qE 'stream +zmq .* 100B .* 4 +1000000 ' <(matrix plan matrices/seeds/001_zmq_push_pull.yaml) ||
		die "001: not 4 senders, 1,000,000 messages of 100 B"
	grep -qE 'pipeline +unix .* 11B .* 500000 ' <(matrix plan matrices/seeds/002_af_echo.yaml) ||
		die "002: not 500,000 pipelined messages of 11 B (HelloWorld and a newline)"
	return 0
}

# 000: gc and gccgo builds of the Go server and client, a cell of each
# pairing, a few hundred requests
t_seed_000_go_rtt_builds_and_runs() {
	have_go; have_gccgo; seeds_here
	run_matrix run matrices/seeds/000_go_rtt.yaml -o out --quiet --repeat 1 --set count=300 \
		--only server=gc --only server=gccgo --only client=gc --only client=gccgo
	expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 4 ] || die "expected 4 rows"
	expect_all $r status ok
	expect_all $r measured_by printed
	expect_positive $r rtt_mean_us
	grep -q '300 request done, avg rtt [0-9.]* us$' out/logs/cell1-rep1-client1.log ||
		die "the client's line: $(tail -1 out/logs/cell1-rep1-client1.log)"
	grep -q '^| server | client gc | client gccgo |' out/summary.md || die "no server x client table"
	expect_no_leftovers
}

# 001, pyzmq: a receiver and 4 senders; the receiver's printed count and
# time are the row's figures, its lines the timeline
t_seed_001_pyzmq_pair() {
	have_pyzmq; seeds_here
	run_matrix run matrices/seeds/001_zmq_push_pull.yaml -o out --quiet --repeat 1 --set count=4000 \
		--only server=pyzmq --only client=pyzmq
	expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 1 ] || die "expected 1 row"
	expect_all $r status ok
	expect_all $r messages 4000
	expect_all $r measured_by 'receiver=printed;senders=printed'
	expect_positive $r msgs_per_s
	expect_positive $r sent_msgs_per_s
	[ "$(csvq out/timeline.csv messages | awk '{ s += $1 } END { print s }')" -eq 4000 ] ||
		die "timeline.csv's messages do not add up to 4000"
	expect_no_leftovers
}

# 001, JeroMQ: compiled by its setup: step, crossed with pyzmq when present
t_seed_001_jeromq_pair() {
	have_java; have_jeromq; seeds_here
	run_matrix run matrices/seeds/001_zmq_push_pull.yaml -o out --quiet --repeat 1 --set count=4000 \
		--only server=jeromq --only client=jeromq
	expect_rc 0
	local r=out/results.csv
	expect_all $r status ok
	expect_all $r messages 4000
	expect_all $r measured_by 'receiver=printed;senders=printed'
	expect_positive $r msgs_per_s
	grep -q '^done: 4000 msgs (size=100) in ' out/logs/cell1-rep1-server.log ||
		die "the receiver's last line: $(tail -1 out/logs/cell1-rep1-server.log)"
	expect_no_leftovers
}

# 002: the Go server (line-framed, on unix and TCP at once), the Go and
# Java clients (pipelined: a writer and a reader half) and the builtin one
# in pattern pipeline, over unix and tcp; the client x transport table with
# the ratio and the source's values beside it
t_seed_002_pipelined_clients() {
	have_go; have_java; seeds_here
	run_matrix run matrices/seeds/002_af_echo.yaml -o out --quiet --repeat 1 --set count=500
	expect_rc 0
	local r=out/results.csv
	[ "$(csvq $r --rows)" -eq 6 ] || die "expected 6 rows"
	expect_all $r status ok
	expect_all $r pattern pipeline
	csvq $r client measured_by messages | awk -F'\t' '
		$1 != "builtin" && $2 != "printed" { print; bad = 1 }
		$1 == "builtin" && ($2 != "worker" || $3 != 500) { print; bad = 1 }
		END { exit bad }' || die "002 rows: $(csvq $r client measured_by messages | tr '\t\n' ': ')"
	expect_positive $r msgs_per_s
	local c log
	for c in $(csvq $r cell client transport | awk -F'\t' '{ print $1 ":" $2 ":" $3 }'); do
		log=out/logs/cell${c%%:*}-rep1-server.log
		# both listeners, whichever one the cell measures, and one connection served
		grep -q '^--> tcp :  <nil> 127\.0\.0\.1:[0-9]*$' "$log" || die "$log: no tcp listener"
		grep -q '^--> ipc :  <nil> ' "$log" || die "$log: no unix listener"
		# the connection it served (its close line may be cut by the
		# runner ending it once the client is done)
		grep -q '^--accept--> ' "$log" || die "$log: no accept line"
		case $c in
		*:go:*) grep -q '^net=.* , msg.size=10 , r=500 ,w=500 , time=' \
			out/logs/cell${c%%:*}-rep1-client1.log || die "the Go client's line" ;;
		*:java:*) grep -q '^done : net=.* , msg.size=12 , total=500 , time=' \
			out/logs/cell${c%%:*}-rep1-client1.log || die "the Java client's line" ;;
		esac
	done
	grep -q '^| client | unix | tcp | AF_UNIX/AF_INET |$' out/summary.md ||
		die "no client x transport table: $(grep -m1 '^| client' out/summary.md)"
	grep -q '^| go | .*; source 5.7× |$' out/summary.md || die "no source value beside go's ratio"
	grep -q '^| java | .*; source 3.1× |$' out/summary.md || die "no source value beside java's ratio"
	expect_no_leftovers
}
