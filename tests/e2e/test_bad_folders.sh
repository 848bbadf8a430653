# Hostile run folders (issue 26): a run folder is untrusted input, read as
# strictly as a matrix file.  Every folder of tests/data/bad-folders/ (a
# real small run's, tests/data/tiny-run/, with one defect: make.py there)
# goes through `report`, `compare GOOD BAD`, `history` of a tree holding
# it, `merge` and `run --resume`: each exits 2 within 10 s, naming the
# file and line (the exact first line of NAME/expected.err for report,
# with the folder as DIR), nothing written anywhere (every file of this
# test's folder, a decoy folder beside them included, as it was: nothing
# already measured lost).  The cases a file cannot hold (a fifo,
# /dev/zero, a file or field past its bound) are made here.

BAD_DIR=$REPO/tests/data/bad-folders
GOOD_DIR=$REPO/tests/data/tiny-run

# snapshot: every path under the test's folder but its stderr and stdout
# files, with its type, size, mode and checksum
snapshot() {
	find . -path ./.out -prune -o -path ./.err -prune -o -path ./tmp -prune -o \
		-printf '%p %y %s %m\n' | sort
	find . -path ./tmp -prune -o -type f -size -100M ! -name .out ! -name .err -print0 |
		sort -z | xargs -0 md5sum
}

# refused WANT CMD...: CMD (matrix's arguments) exits 2 within 10 s, with
# WANT in its stderr (its first line, when WANT starts with "matrix ")
refused() {
	local want=$1 first
	shift
	rc=0
	timeout -k 2 10 "$MATRIX_BIN" "$@" >"$T/.out" 2>"$T/.err" </dev/null || rc=$?
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || die "matrix $*: still running after 10 s"
	[ "$rc" -eq 2 ] || die "matrix $*: exit $rc, expected 2: $(head -3 "$T/.err")"
	first=$(head -1 "$T/.err")
	case "$want" in
	"matrix "*) [ "$first" = "$want" ] || die "matrix $*: first error line
  got:      $first
  expected: $want" ;;
	*) grep -qF -- "$want" "$T/.err" || die "matrix $*: stderr lacks '$want': $(head -3 "$T/.err")" ;;
	esac
}

# this build's tool_version and git_revision (a real run of the tiny
# run's matrix), for a bad folder --resume takes up
fresh_run() {
	run_matrix run "$GOOD_DIR/matrix.yaml" -o fresh -q; expect_rc 0
	FRESH_TOOL=$(grep '^tool_version,' fresh/meta.csv | cut -d, -f2)
	FRESH_REV=$(grep '^git_revision,' fresh/meta.csv | cut -d, -f2)
	rm -rf fresh
}

# matrix_hash FILE: meta.csv's matrix_hash of it (FNV-1a, resume.h)
matrix_hash() {
	python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("fnv1a64:%016x" % h)' "$1"
}

# case_dir FROM TO: a copy of the case folder FROM (without expected.err)
case_dir() {
	rm -rf "$2" && cp -R "$1" "$2" && rm -f "$2/expected.err"
}

# meta_set DIR KEY VALUE: meta.csv's KEY set (added when missing; a
# meta.csv that is no regular file, a case's fifo, stays as it is)
meta_set() {
	[ -f "$1/meta.csv" ] && [ ! -L "$1/meta.csv" ] || return 0
	if grep -q "^$2," "$1/meta.csv"; then
		sed -i "s|^$2,.*|$2,$3|" "$1/meta.csv"
	else
		printf '%s,%s\n' "$2" "$3" >>"$1/meta.csv"
	fi
}

# every_command NAME SRC WANT_REPORT [EDIT]: the five commands on copies
# of SRC (each edited by the shell command EDIT, run in it), each refused
# with its message (WANT_REPORT with DIR for the folder), and every file
# here unchanged
every_command() {
	local name=$1 src=$2 want=$3 edit=${4:-:} before d
	case_dir "$src" "c/$name"
	case_dir "$src" "h/$name"
	case_dir "$src" "m1"; meta_set m1 shard 1/2
	case_dir "$src" "r1"
	meta_set r1 status interrupted; meta_set r1 tool_version "$FRESH_TOOL"
	meta_set r1 git_revision "$FRESH_REV"
	if cmp -s r1/matrix.yaml "$GOOD_DIR/matrix.yaml"; then
		meta_set r1 matrix_hash "$GOOD_HASH"
	else
		meta_set r1 matrix_hash "$(matrix_hash r1/matrix.yaml)"
	fi
	for d in "c/$name" "h/$name" m1 r1; do
		(cd "$d" && eval "$edit") || die "$name: $edit in $d failed"
	done
	before=$(snapshot)
	refused "${want//DIR/c/$name}" report "c/$name" -q
	local msg=${want#matrix report: }
	refused "${msg//DIR/c/$name}" compare good "c/$name" -q
	refused "${msg//DIR/h/$name}" history h
	refused "${msg//DIR/m1}" merge m1 m2 -o merged
	refused "${msg//DIR/r1}" run --resume r1 -q
	[ "$(snapshot)" = "$before" ] || die "$name: files changed:
$(diff <(echo "$before") <(snapshot) | head -10)"
	[ ! -e merged ] || die "$name: merge left merged/"
	rm -rf "c/$name" "h/$name" m1 r1
}

# the folders around every case: a good one to compare with, a history
# tree with a good night in it, the other shard of a merge, a decoy
around() {
	mkdir -p c h decoy
	case_dir "$GOOD_DIR" good
	case_dir "$GOOD_DIR" h/a-good-night
	case_dir "$GOOD_DIR" m2; meta_set m2 shard 2/2
	echo "not to be touched" >decoy/file
	fresh_run
	GOOD_HASH=$(matrix_hash "$GOOD_DIR/matrix.yaml")
}

t_bad_folders_are_refused_by_every_command() {
	local d name n=0
	around
	for d in "$BAD_DIR"/*/; do
		name=$(basename "$d")
		[ -f "$d/expected.err" ] || die "$name has no expected.err"
		every_command "$name" "$d" "$(head -1 "$d/expected.err")"
		n=$((n + 1))
	done
	[ "$n" -ge 25 ] || die "only $n bad folders"
	# the good folder itself reads, and its copies were left as they were
	run_matrix report good -q; expect_rc 0
}

# A fifo as any file the reader reads, and /dev/zero as results.csv: refused
# at once, by name, before a byte is read (a read would block for ever, or
# grow without end).
t_fifo_and_device_refused_at_once() {
	local f
	around
	for f in results.csv hist.csv meta.csv timeline.csv; do
		case_dir "$GOOD_DIR" src && rm src/$f && mkfifo src/$f
		every_command "fifo-${f%.csv}" src "matrix report: DIR/$f: a fifo, not a regular file: a run folder's files are regular files"
	done
	case_dir "$GOOD_DIR" src && rm src/results.csv && ln -s /dev/zero src/results.csv
	every_command dev-zero src "matrix report: DIR/results.csv: a character device, not a regular file: a run folder's files are regular files"
}

# Bounds: a field of more than 64 KiB, a row of more than 4096 fields and
# a file of more than 1 GiB are refused with the line, quickly, holding
# little of them.
t_bounds_of_files_and_fields() {
	local long
	around
	case_dir "$GOOD_DIR" src
	long=$(head -c 70000 /dev/zero | tr '\0' x)
	awk -F, -v OFS=, -v v="$long" 'NR == 3 { $8 = v } { print }' "$GOOD_DIR/results.csv" >src/results.csv
	every_command long-field src "matrix report: DIR/results.csv:3: field 8 (error) is longer than 65536 bytes (64 KiB, the most a field of a run folder's file may hold)"
	case_dir "$GOOD_DIR" src
	{ cat "$GOOD_DIR/timeline.csv"; head -c 5000000 /dev/zero | tr '\0' 7; } >src/timeline.csv
	every_command long-line src "matrix report: DIR/timeline.csv:12: field 1 (cell) is longer than 65536 bytes (64 KiB, the most a field of a run folder's file may hold)"
	case_dir "$GOOD_DIR" src
	{ cat "$GOOD_DIR/hist.csv"; seq -s, 5000; } >src/hist.csv
	every_command wide-row src "matrix report: DIR/hist.csv:6: more than 4096 fields in a row"
	# a sparse file: no disk, no time to make
	every_command huge-file "$GOOD_DIR" "matrix report: DIR/results.csv: 2147483648 bytes, more than the 1 GiB a run folder's file may hold" \
		'truncate -s 2G results.csv'
}

# A number too small for a normal double (1e-320) is read as what it is;
# a meta.csv key that is not UTF-8 reaches the JSON as '?', as a value
# does, instead of failing it.
t_subnormal_and_non_utf8_key_read() {
	case_dir "$GOOD_DIR" d
	awk -F, -v OFS=, 'NR == 2 { $12 = "1e-320" } { print }' "$GOOD_DIR/results.csv" >d/results.csv
	printf 'h\366st,caf\351\n' >>d/meta.csv
	run_matrix report d -q --export-json j.json; expect_rc 0
	python3 - j.json <<'P' || die "j.json: $(head -c 300 j.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["h?st"] == "caf?", d["meta"]
cell = [c for c in d["cells"] if c["cell"] == 1][0]
assert cell["stats"]["msgs_per_s"]["min"] < 1e-300, cell["stats"]["msgs_per_s"]
P
}

# meta.csv keeps its values whole: a command line, a matrix path, --set
# and --only flags of more than 512 bytes (they were cut there).
t_meta_values_kept_whole() {
	local a b z only="" sets i
	a=$(printf 'a%.0s' $(seq 200)); b=$(printf 'b%.0s' $(seq 200))
	z=$(printf '0%.0s' $(seq 240))
	mkdir -p "$a/$b/$a"
	cp "$GOOD_DIR/matrix.yaml" "$a/$b/$a/m.yaml"
	for i in $(seq 30); do only="$only --only transport=unix"; done
	sets="--set count=${z}100 --set warmup=${z}5 --set timeout=${z}30s"
	# shellcheck disable=SC2086
	run_matrix run "$a/$b/$a/m.yaml" -o d -q --repeat 1 $sets $only; expect_rc 0
	[ "$(grep '^set,' d/meta.csv)" = "set,$sets" ] || die "set cut: $(grep ^set, d/meta.csv | wc -c) bytes"
	grep -qxF "matrix_file,$a/$b/$a/m.yaml" d/meta.csv || die "matrix_file cut: $(grep ^matrix_file d/meta.csv | wc -c)"
	grep -q "^command_line,.* -o d -q --repeat 1 --set .*--only transport=unix$" d/meta.csv ||
		die "command_line cut: $(grep ^command_line d/meta.csv | tail -c 80)"
	[ "$(grep '^only,' d/meta.csv)" = "only,${only# }" ] || die "only cut: $(grep ^only d/meta.csv | wc -c) bytes"
}
