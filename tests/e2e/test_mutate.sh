# make mutate's list (tests/mutate.py) follows the code: each mutation's
# FROM text is in its file exactly once, and the tests that must catch it
# exist.  make test runs this, not make mutate (minutes of rebuilds): code
# moved without its mutation fails here, where before the list drifted
# unseen.  These read the sources only and run once (tests/run.sh: ONCE).

t_every_mutation_is_in_the_code() {
	python3 "$REPO/tests/mutate.py" --check >check.out 2>&1 || die "$(cat check.out)"
	grep -qE '^mutate: [0-9]+ mutations, 0 problems$' check.out || die "$(cat check.out)"
}

# On a copy of the tree (but tests/run.sh, whose SAN_RE would read as a
# sanitizer report left in this test's folder): one mutation's text moved
# away (rewritten), one's standing twice, one whose only tests are gone:
# --check names each and fails.
t_the_check_finds_a_stale_mutation() {
	mkdir tree
	tar -C "$REPO" --exclude=./build --exclude=./.git --exclude=./results \
		--exclude=./tests/run.sh -cf - . | tar -C tree -xf - || die "no copy of the tree"
	python3 - <<'PY' >picked.txt || die "could not break the copy"
import os, sys
sys.path.insert(0, "tree/tests")
from mutate import MUTATIONS
moved, twice = MUTATIONS[0], MUTATIONS[1]
# one whose tests are a unit binary no other mutation names alone, in
# another file than the two
alone = next(m for m in MUTATIONS if m[4].startswith("unit:") and "|" not in m[4]
             and sum(o[4] == m[4] for o in MUTATIONS) == 1 and m[1] not in (moved[1], twice[1]))
def edit(path, f):
    p = os.path.join("tree", path)
    s = open(p).read()
    open(p, "w").write(f(s))
edit(moved[1], lambda s: s.replace(moved[2], moved[3]))
edit(twice[1], lambda s: s + "\n/* " + twice[2].replace("*/", "") + " */\n")
os.remove(os.path.join("tree/tests/unit", alone[4][len("unit:"):] + ".c"))
print(moved[0], moved[1])
print(twice[0], twice[1])
print(alone[0], alone[4])
PY
	local rc=0
	python3 tree/tests/mutate.py --check tree >check.out 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || die "--check on a broken copy: exit $rc: $(cat check.out)"
	local name path
	read -r name path < <(sed -n 1p picked.txt)
	grep -qxF "mutate: $name: its text is in $path 0 times, not once" check.out || die "moved: $(cat check.out)"
	read -r name path < <(sed -n 2p picked.txt)
	grep -qxF "mutate: $name: its text is in $path 2 times, not once" check.out || die "twice: $(cat check.out)"
	read -r name path < <(sed -n 3p picked.txt)
	grep -qxF "mutate: $name: $path names no test" check.out || die "no test: $(cat check.out)"
	grep -qE '^mutate: [0-9]+ mutations, 3 problems$' check.out || die "$(cat check.out)"
}
