# The socket options of issue 29 (README "Socket knobs"): sndbuf and
# rcvbuf on every socket transport, congestion and mss on tcp.  Each test
# proves the setting took effect from what the kernel gives back, read
# from the sockets after the window: the granted buffer sizes (twice the
# request) in results.csv's sndbuf and rcvbuf, TCP_CONGESTION of every
# connection in its congestion column, TCP_MAXSEG in its mss column; and
# strace sees each option set before listen() and connect().  results.csv
# has the dimension's column (what was asked, before rep) and the figure's
# of the same name after rep, as for nodelay: fig reads the latter.

# fig FILE COL...: each row's values of the columns after rep (the figures,
# not the dimensions of the same name), then the dimensions' as asked:
# "FIG1 FIG2 | dim=value dim=value", one line per row.
fig() {
	python3 - "$@" <<'PY' || die "fig $*"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]; rep = h.index("rep")
for r in rows[1:]:
    figs = [r[rep + h[rep:].index(c)] for c in sys.argv[2:]]
    dims = ["%s=%s" % (h[i], r[i]) for i in range(1, rep)]
    print(" ".join(figs), "|", " ".join(dims))
PY
}

t_sockbuf_granted_on_every_socket_transport() {
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<'Y'
name: bufs
repeat: 1
warmup: 5
timeout: 30s
matrix:
  transport: [tcp, unix, unix_seqpacket, unix_dgram, udp]
  pattern: stream
  size: 1KiB
  count: 200
  sndbuf: [auto, 32KiB]
  rcvbuf: [auto, 48KiB]
  allow_loss: true
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ "$(csvq out/results.csv status | sort -u)" = ok ] || die "$(csvq out/results.csv status error)"
	local n=0 sb rb rest
	while read -r sb rb rest; do
		n=$((n + 1))
		case "$rest" in
		*"sndbuf=32768 "*) [ "$sb" = 65536 ] || die "sndbuf 32KiB granted $sb, not 65536: $rest" ;;
		*"sndbuf=auto "*) [ "$sb" != 65536 ] || die "auto sndbuf is 65536: $rest" ;;
		*) die "no sndbuf dimension: $rest" ;;
		esac
		case "$rest" in
		*"rcvbuf=49152 "*) [ "$rb" = 98304 ] || die "rcvbuf 48KiB granted $rb, not 98304: $rest" ;;
		*"rcvbuf=auto "*) [ "$rb" != 98304 ] || die "auto rcvbuf is 98304: $rest" ;;
		*) die "no rcvbuf dimension: $rest" ;;
		esac
	done < <(fig out/results.csv sndbuf rcvbuf)
	[ "$n" -eq 20 ] || die "$n rows, expected 20"
	# --only and --set pick them like any dimension; the JSON has them typed
	run_matrix run m.yaml -o only --quiet --only sndbuf=32KiB --only transport=unix \
		--set 'rcvbuf=[64KiB]'; expect_rc 0
	[ "$(fig only/results.csv sndbuf rcvbuf)" = "65536 131072 | transport=unix pattern=stream size=1024 count=200 sndbuf=32768 rcvbuf=65536 allow_loss=true" ] ||
		die "--only/--set: $(fig only/results.csv sndbuf rcvbuf)"
	run_matrix report out --quiet --export-json j.json; expect_rc 0
	python3 - j.json <<'PY' || die "json: $(head -c 600 j.json)"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
seen = sorted({(c["params"]["sndbuf"], c["params"]["rcvbuf"]) for c in cells}, key=str)
assert seen == sorted([("auto", "auto"), ("auto", 49152), (32768, "auto"), (32768, 49152)], key=str), seen
PY
}

t_sockbuf_refused_where_there_is_no_socket() {
	mat m.yaml <<'Y'
name: nosock
matrix:
  transport: [unix, shm]
  sndbuf: 64KiB
Y
	run_matrix plan m.yaml; expect_rc 2
	grep -q '^m.yaml:4:11: sndbuf is a socket option (SO_SNDBUF) of tcp, unix, tcp6, udp, unix_dgram, unix_seqpacket; transport shm has no socket of its own (exclude {sndbuf: 64KiB, transport: shm})$' .err ||
		die "refusal: $(cat .err)"
	# exclude: takes it away
	printf 'exclude:\n  - {transport: shm, sndbuf: 64KiB}\n' >>m.yaml
	run_matrix plan m.yaml; expect_rc 0
}

# A request above net.core.wmem_max: the plan warns with the sysctl and
# what the kernel will grant, and the row shows that, not the request.
t_sockbuf_above_the_cap_is_said() {
	command -v python3 >/dev/null || skip "python3 missing"
	local cap
	cap=$(cat /proc/sys/net/core/wmem_max 2>/dev/null) || skip "no /proc/sys/net/core/wmem_max"
	[ "$cap" -lt $((1 << 29)) ] || skip "wmem_max $cap: no request above it under the 1GiB limit"
	mat m.yaml <<Y
name: capped
repeat: 1
warmup: 5
matrix:
  transport: unix
  pattern: stream
  count: 100
  sndbuf: $((cap * 2))
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	grep -q "^matrix: warning: m.yaml:8:11: sndbuf [^ ]* is above net.core.wmem_max ($cap): the kernel grants at most $((cap * 2)); raise it with sysctl -w net.core.wmem_max=$((cap * 2))\$" .err ||
		die "no warning naming the cap: $(cat .err)"
	[ "$(fig out/results.csv sndbuf)" = "$((cap * 2)) | transport=unix pattern=stream count=100 sndbuf=$((cap * 2))" ] ||
		die "granted: $(fig out/results.csv sndbuf), cap $cap"
}

t_congestion_read_back_per_connection() {
	command -v python3 >/dev/null || skip "python3 missing"
	local avail=/proc/sys/net/ipv4/tcp_available_congestion_control
	grep -qw reno $avail && grep -qw cubic $avail || skip "reno and cubic not both in $avail"
	mat m.yaml <<'Y'
name: cc
repeat: 1
warmup: 5
matrix:
  transport: tcp
  pattern: [stream, pingpong]
  size: 4KiB
  count: 200
  concurrency: 2
  congestion: [cubic, reno]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local n=0 cc rest
	while read -r cc rest; do
		n=$((n + 1))
		# every connection's, the clients' and the server's: one name
		case "$rest" in
		*congestion=reno) [ "$cc" = reno ] || die "reno cell read back '$cc'" ;;
		*congestion=cubic) [ "$cc" = cubic ] || die "cubic cell read back '$cc'" ;;
		*) die "row: $rest" ;;
		esac
	done < <(fig out/results.csv congestion)
	[ "$n" -eq 4 ] || die "$n rows"
	# a name the kernel does not offer: refused at its place, the list named
	mat bad.yaml <<'Y'
name: cc
matrix:
  transport: tcp
  congestion: [cubic, vegas2]
Y
	run_matrix plan bad.yaml; expect_rc 2
	grep -q "^bad.yaml:4:23: congestion: 'vegas2' is not a congestion control this kernel offers ($avail: .*reno" .err ||
		die "refusal: $(cat .err)"
	# other transports have an empty column
	mat u.yaml <<'Y'
name: u
repeat: 1
warmup: 5
matrix:
  transport: unix
  count: 50
Y
	run_matrix run u.yaml -o u --quiet; expect_rc 0
	[ "$(fig u/results.csv congestion mss)" = "  | transport=unix count=50" ] ||
		die "unix row: '$(fig u/results.csv congestion mss)'"
}

t_mss_read_back_and_set_before_connect() {
	command -v python3 >/dev/null || skip "python3 missing"
	mat m.yaml <<'Y'
name: mss
repeat: 1
warmup: 5
matrix:
  transport: tcp
  pattern: stream
  size: 16KiB
  count: 100
  mss: [auto, 1000]
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	local mss rest
	while read -r mss rest; do
		case "$rest" in
		*mss=1000) [ "$mss" -le 1000 ] && [ "$mss" -ge 900 ] || die "mss 1000 read back $mss" ;;
		*mss=auto) [ "$mss" -gt 1000 ] || die "auto mss read back $mss (loopback's is larger)" ;;
		*) die "row: $rest" ;;
		esac
	done < <(fig out/results.csv mss)
	command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null ||
		skip "strace cannot trace here (the read-back above passed)"
	# the order on the sockets: every option before listen() and connect()
	local nolsan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	ASAN_OPTIONS=$nolsan timeout 30 strace -f -e trace=setsockopt,listen,connect -o s.trace \
		"$MATRIX_BIN" run m.yaml -o traced --quiet --only mss=1000 >/dev/null 2>&1 ||
		die "traced run failed"
	python3 - s.trace <<'PY' || die "order: $(grep -E 'TCP_MAXSEG|listen|connect\(' s.trace | head)"
import re, sys
state, bad, listens, connects = {}, [], 0, 0
for line in open(sys.argv[1]):
    m = re.match(r"(\d+)\s+(setsockopt|listen|connect)\((\d+), (.*)", line)
    if not m:
        continue
    pid, call, fd, rest = m.groups()
    key = (pid, fd)
    if call == "setsockopt":
        if "TCP_MAXSEG, [1000]" in rest:
            state[key] = "set"
        continue
    if call == "connect" and "AF_INET" not in rest:
        continue
    if call == "listen" and state.get(key) != "set":
        continue    # not a tcp listener of ours (the runner's own sockets)
    if state.pop(key, None) != "set":
        bad.append(line.strip())
    listens += call == "listen"
    connects += call == "connect"
assert listens == 1 and connects == 1 and not bad, (listens, connects, bad)
PY
}
