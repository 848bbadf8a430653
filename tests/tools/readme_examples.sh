#!/bin/bash
# readme_examples.sh [FILE...] | --check FILE...: the examples of the README
# and docs/*.md, from real runs of the matrix binary, so that they cannot go
# stale.
#
# Each example is a block of one of the files (README.md, docs/*.md)
# between `<!-- example:NAME -->` and `<!-- /example -->`, made by the function ex_NAME below: what a command
# printed, or an excerpt of the summary.md a run wrote.  Without --check
# (`make readme-examples`) every block is replaced by a fresh run's output.
# (The README's example images in reports/example/ are made by hand.)  With
# --check (tests/e2e/test_readme.sh) the runs are small and quick, and each
# block of the README must have the shape of the fresh one: the same lines
# once every number is N, every time's unit T, and the marks that vary
# from run to run (~ ‡ † ᵖ, a confidence ≥N%, a short window's note) are
# dropped.  A block in one and not the other fails
# too; each README given is checked against the same fresh blocks.
# MATRIX_BIN: the binary (default build/release/matrix).
set -eu

mode=write
if [ "${1:-}" = --check ]; then mode=check; shift; fi
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$repo/README.md" "$repo"/docs/*.md
M=${MATRIX_BIN:-$repo/build/release/matrix}
case $M in /*) ;; *) M=$PWD/$M ;; esac
[ -x "$M" ] || { echo "readme_examples: no binary $M (make matrix)" >&2; exit 2; }
work=$(mktemp -d /tmp/readme-examples.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR=$work/tmp
quick() { [ "$mode" = check ]; }

# the table that follows heading "### TITLE" in a summary.md (of section
# "## SECTION" when a third argument names one)
md_table() {
	awk -v h="### $2" -v sec="${3:+## $3}" '
		/^## / { insec = sec == "" || $0 == sec }
		insec && $0 == h { on = 1; next } on && /^\|/ { print; t = 1; next }
		on && t { exit }' "$1"
}

# `matrix plan` of a misspelt key: the message and its position
ex_plan_error() {
	mkdir -p "$work/pe"
	printf 'name: m\nmatrix:\n  transport: unix\n  size: 10\n  patern: echo\n' >"$work/pe/m.yaml"
	echo '    $ matrix run m.yaml'
	(cd "$work/pe" && "$M" run m.yaml 2>&1 >/dev/null | sed 's/^/    /') || true
}

# a small run as the console shows it: progress, the end, the folder
ex_run_console() {
	mkdir -p "$work/rc/matrices"
	cp "$repo/matrices/af_unix_vs_inet.yaml" "$work/rc/matrices/"
	local cmd="matrix run matrices/af_unix_vs_inet.yaml --set count=20000 --repeat 2 --order sequential"
	echo "    \$ $cmd"
	(cd "$work/rc" && "$M" ${cmd#matrix } 2>&1 | sed 's/^/    /')
}

# the source's table rebuilt: throughput and the median round trip
ex_af_summary() {
	local count=100000 repeat=7
	if quick; then count=3000; fi
	mkdir -p "$work/af/matrices"
	cp "$repo/matrices/af_unix_vs_inet.yaml" "$work/af/matrices/"
	(cd "$work/af" && "$M" run matrices/af_unix_vs_inet.yaml --set count=$count \
		--repeat $repeat -o run --quiet >/dev/null)
	echo "\`matrix run matrices/af_unix_vs_inet.yaml --set count=$count\`, from its summary.md:"
	echo
	echo "messages per second, pipelined (the source's pattern):"
	echo
	md_table "$work/af/run/summary.md" "messages per second" pipeline
	echo
	echo "messages per second, lockstep round trips:"
	echo
	md_table "$work/af/run/summary.md" "messages per second" echo
	echo
	echo "round-trip time, median (p50):"
	echo
	md_table "$work/af/run/summary.md" "round-trip time, median (p50)" echo
}

# programs of our own beside the builtin worker
ex_byo_summary() {
	local count=2000 repeat=7
	if quick; then count=200 repeat=2; fi
	(cd "$repo" && "$M" run matrices/byo_example.yaml --set count=$count --repeat $repeat \
		-o "$work/byo" --quiet >/dev/null) || [ -s "$work/byo/summary.md" ]
	md_table "$work/byo/summary.md" "round-trip time, mean"
}

# a regression verdict, from the hand-made folders of tests/data/compare
# (compare's verdicts are its results: on stdout)
ex_compare_line() {
	"$M" compare "$repo/tests/data/compare/base" "$repo/tests/data/compare/new" -o "$work/cmp" \
		2>/dev/null | head -1 | sed 's/^/    /'
}

# every command's usage lines, as its --help prints them: the synopsis
ex_synopsis() {
	local c
	for c in run merge plan report compare history transports worker; do
		"$M" "$c" --help 2>&1 | awk '/^usage:/ { on = 1 } on && /^$/ { exit }
			on { sub(/^usage: /, "       "); print "    " substr($0, 8) }'
	done
	echo '    matrix --help | COMMAND --help | --version'
}

names="plan_error run_console af_summary byo_summary compare_line synopsis"
for n in $names; do
	if [ "$n" = byo_summary ] && ! command -v socat >/dev/null; then
		[ "$mode" = check ] || { echo "readme_examples: byo_summary needs socat" >&2; exit 2; }
		echo "readme_examples: byo_summary skipped: no socat" >&2
		continue
	fi
	"ex_$n" >"$work/$n.block"
	[ -s "$work/$n.block" ] || { echo "readme_examples: $n made nothing" >&2; exit 2; }
done

python3 - "$mode" "$work" "$names" "$@" <<'PY'
import os, re, sys

mode, work, names, readmes = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
block_re = re.compile(r"(<!-- example:([a-z_]+) -->\n)(.*?)(<!-- /example -->)", re.S)

def shape(s):
    out = []
    for line in s.splitlines():
        if re.search(r"timed window .* under 100 ms|warning: a busy machine", line):
            continue    # notes that come and go with the machine's speed and load
        # a headline sentence names the winner, or no clear difference, as
        # the run found it: its shape is which two it compares, and where
        h = re.match(r"\s*(?:- )?(?:no clear difference between (\S+) and (\S+) in .*?|(\S+?)(?:'s)? .*? (?:of|than) (\S+?)(?:'s)?): (.*)$", line)
        if h and ("×" in line):
            a, b = (h.group(1), h.group(2)) if h.group(1) else (h.group(3), h.group(4))
            out.append("HEADLINE %s %s: %s" % (min(a, b), max(a, b), line.rsplit(": ", 1)[1]))
            continue
        line = re.sub(r"(, )?≥\d+%", "", line)
        line = re.sub(r"[~‡†ᵖ]", "", line)
        line = re.sub(r"\d+(\.\d+)?[kMG]?", "N", line)
        # a time's unit moves with the load: 900 µs one run, 1.2 ms the next
        line = re.sub(r"N (ns|µs|ms|s)\b", "N T", line)
        line = re.sub(r"(?<![A-Za-z])(ns|µs|ms)(?![A-Za-z])", "T", line)
        line = re.sub(r"\s+", " ", line).strip()
        out.append(line)
    return out

fresh = {}
for n in names:
    p = os.path.join(work, n + ".block")
    if os.path.exists(p):
        fresh[n] = open(p, encoding="utf-8").read()
def check(readme, text):
    found = {m.group(2) for m in block_re.finditer(text)}
    bad = 0
    for n in sorted(found - set(names)):
        print(f"readme_examples: {readme}: block {n} has no generator", file=sys.stderr)
        bad = 1
    if bad or mode == "write":
        return bad
    for m in block_re.finditer(text):
        n = m.group(2)
        if n not in fresh:
            continue
        have, want = shape(m.group(3)), shape(fresh[n])
        if have != want:
            bad = 1
            print(f"readme_examples: {readme}: block {n} is stale (make readme-examples):",
                  file=sys.stderr)
            for i in range(max(len(have), len(want))):
                a = have[i] if i < len(have) else "(none)"
                b = want[i] if i < len(want) else "(none)"
                if a != b:
                    print(f"  line {i + 1}: README: {a}\n  line {i + 1}: now:    {b}",
                          file=sys.stderr)
                    break
    return bad

# every generator's block is in one of the files at least (the README and
# docs/ share them out)
bad = 0
texts = {r: open(r, encoding="utf-8").read() for r in readmes}
everywhere = {m.group(2) for s in texts.values() for m in block_re.finditer(s)}
for n in names:
    if n not in everywhere:
        print(f"readme_examples: no <!-- example:{n} --> block in {' '.join(readmes)}",
              file=sys.stderr)
        bad = 1
for readme in readmes:
    text = texts[readme]
    if check(readme, text):
        bad = 1
    elif mode == "write":
        def put(m):
            return m.group(1) + fresh.get(m.group(2), m.group(3)) + m.group(4)
        tmp = readme + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(block_re.sub(put, text))
        os.replace(tmp, readme)
        print(f"readme_examples: {len(fresh)} blocks of {readme} regenerated")
sys.exit(bad)
PY
