# The tree shows the data flow: each folder is a layer that includes and
# calls only the layers below it (the Makefile's LAYERS, bottom first), the
# files of one folder never call each other in a circle, no folder holds
# more than a quarter of the product's lines, no C file is over 800 lines
# counted with its header and no function over 80.  These read the sources
# and the release build's objects (nm); they run nothing, and run once
# (tests/run.sh: ONCE).

# The layers, bottom first, from the Makefile (the one place they are named).
layers() {
	sed -n 's/^LAYERS *:= *//p' "$REPO/Makefile"
}

t_layers_are_the_flow() {
	# the stages of README "Where things live", bottom first: a reordering
	# or a folder dropped from the Makefile is a change of the plan
	[ "$(layers)" = "base transports workers plan launch cell runner reports gate cli" ] ||
		die "Makefile LAYERS is '$(layers)', not the flow's base transports workers plan launch cell runner reports gate cli"
	local d
	for d in $(layers); do
		ls "$REPO/$d"/*.c >/dev/null 2>&1 || die "layer $d/ has no C file"
	done
	# every product folder is a layer: a new folder of C files outside
	# LAYERS would be built by nothing and checked by nothing
	for d in "$REPO"/*/; do
		d=${d%/}; d=${d##*/}
		case " $(layers) bench tests matrices build " in *" $d "*) continue ;; esac
		! ls "$REPO/$d"/*.c >/dev/null 2>&1 || die "$d/ holds C files but is not in LAYERS"
	done
}

t_folders_include_only_layers_below() {
	local -A rank home
	local i=0 d f h bad=0 n=0
	for d in $(layers); do
		rank[$d]=$i
		i=$((i + 1))
		for f in "$REPO/$d"/*.h; do
			[ -e "$f" ] || continue
			# includes are found by name: a name in two folders is ambiguous
			[ -z "${home[${f##*/}]:-}" ] ||
				die "${f##*/} is in ${home[${f##*/}]}/ and in $d/: header names must be unique"
			home[${f##*/}]=$d
		done
	done
	[ "$i" -ge 10 ] || die "Makefile LAYERS lists $i folders: $(layers)"
	for d in $(layers); do
		for f in "$REPO/$d"/*.[ch]; do
			while read -r h; do
				n=$((n + 1))
				[ -n "${home[$h]:-}" ] || continue	# version.h, made by the build
				if [ "${rank[${home[$h]}]}" -gt "${rank[$d]}" ]; then
					echo "$d/${f##*/} includes ${home[$h]}/$h, a layer above it"
					bad=1
				fi
				# the reports read a run folder back: they need the bottom
				# layer only, never how the run was made
				if [ "$d" = reports ] && [ "${home[$h]}" != base ] && [ "${home[$h]}" != reports ]; then
					echo "reports/${f##*/} includes ${home[$h]}/$h: reports/ includes only base/"
					bad=1
				fi
			done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
		done
	done
	[ "$n" -gt 50 ] || die "only $n #include lines read: the check read nothing"
	[ "$bad" -eq 0 ] || die "a folder includes a layer above it (above)"
	# the matrix model's private header stays inside the model
	local users
	users=$(grep -lE '#include "matrix_(yaml|schema)\.h"' "$REPO"/*/*.[ch] | grep -v '/base/matrix[a-z_]*\.[ch]$' || true)
	[ -z "$users" ] || die "matrix_yaml.h and matrix_schema.h are private to base/matrix*.c: $users"
}

# The calls, as the linker sees them: which object defines each global
# symbol and which objects use it.  A call needs no #include to be a tie
# (a prototype can be written by hand), so the files' graph is read here.
t_no_call_up_and_no_circle_of_files() {
	local build=${BUILD_DIR:-$REPO/build/release}
	[ -d "$build" ] || die "no build folder $build"
	REPO=$REPO BUILD=$build LAYERS="$(layers)" python3 - <<'EOF' || die "calls against the layers (above)"
import os, subprocess, sys
repo, build, layers = os.environ["REPO"], os.environ["BUILD"], os.environ["LAYERS"].split()
rank = {d: i for i, d in enumerate(layers)}
defs, uses, nobj = {}, {}, 0
for d in layers:
    src = os.path.join(repo, d)
    for name in sorted(os.listdir(src)):
        if not name.endswith(".c"):
            continue
        obj = os.path.join(build, d, name[:-2] + ".o")
        if not os.path.exists(obj):
            sys.exit("%s: not built (make first)" % obj)
        nobj += 1
        node = d + "/" + name[:-2]
        out = subprocess.run(["nm", "-g", obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                uses.setdefault(node, set()).add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDRBCVW":
                defs[parts[2]] = node
if nobj < 80:
    sys.exit("only %d objects read: the check read nothing" % nobj)
edges = {}
bad = 0
for a, syms in uses.items():
    for s in syms:
        b = defs.get(s)
        if not b or b == a:
            continue
        da, db = a.split("/")[0], b.split("/")[0]
        if rank[db] > rank[da]:
            print("%s.c calls %s (%s.c), a layer above it" % (a, s, b))
            bad = 1
        if da == db:
            edges.setdefault(a, {}).setdefault(b, []).append(s)
# a circle of files inside one folder: depth-first, colours
state, stack = {}, []
def visit(n):
    global bad
    state[n] = 1
    stack.append(n)
    for m in sorted(edges.get(n, {})):
        if state.get(m) == 1:
            loop = stack[stack.index(m):] + [m]
            print("a circle of files: " + " -> ".join(x + ".c" for x in loop) + "  (" +
                  "; ".join("%s uses %s" % (x, ", ".join(sorted(edges[x][y])[:3]))
                            for x, y in zip(loop, loop[1:])) + ")")
            bad = 1
        elif not state.get(m):
            visit(m)
    stack.pop()
    state[n] = 2
for n in sorted(edges):
    if not state.get(n):
        visit(n)
sys.exit(bad)
EOF
}

t_no_folder_over_a_quarter_of_the_lines() {
	local d all=0 n bad=0
	local -A lines
	for d in $(layers); do
		n=$(cat "$REPO/$d"/*.[ch] | wc -l)
		lines[$d]=$n
		all=$((all + n))
	done
	[ "$all" -gt 20000 ] || die "only $all lines of product code found"
	for d in $(layers); do
		if [ $((lines[$d] * 4)) -gt "$all" ]; then
			echo "$d/: ${lines[$d]} of $all lines ($((lines[$d] * 100 / all))%)"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ] || die "a folder holds more than a quarter of the product's lines (above)"
}

t_no_c_file_over_800_lines_with_its_header() {
	local d f h n bad=0 count=0
	for d in $(layers); do
		for f in "$REPO/$d"/*.c; do
			count=$((count + 1))
			h=${f%.c}.h
			n=$(cat "$f" $([ -e "$h" ] && echo "$h") | wc -l)
			[ "$n" -le 800 ] || { echo "${f#$REPO/}: $n lines with its header"; bad=1; }
		done
	done
	[ "$count" -gt 80 ] || die "only $count files found"
	[ "$bad" -eq 0 ] || die "files over 800 lines (above)"
}

t_no_function_over_80_lines() {
	# a function's body runs from a "{" alone at the start of a line (the
	# house style) to the next "}" there; its name is the line before
	local d files=()
	for d in $(layers); do files+=("$REPO/$d"/*.c); done
	awk '
		FNR == 1 { start = 0 }
		/^[A-Za-z_].*\(/ { name = $0 }
		/^\{/ { start = FNR; fn = name; nfun++ }
		/^\}/ && start { if (FNR - start - 1 > 80) { printf "%s: %d lines: %s\n", FILENAME, FNR - start - 1, fn; bad = 1 }
				 start = 0 }
		END { if (nfun < 200) { print "only " nfun " functions found"; bad = 1 }; exit bad }
	' "${files[@]}" || die "functions over 80 lines (above)"
}

t_one_array_size() {
	local defs
	defs=$(grep -n 'define ARRAY_SIZE' "$REPO"/*/*.[ch] "$REPO"/tests/*/*.[ch] | grep -v '/base/arrays\.h:' || true)
	[ -z "$defs" ] || die "ARRAY_SIZE is defined in base/arrays.h alone: $defs"
	grep -q 'define ARRAY_SIZE' "$REPO/base/arrays.h" || die "base/arrays.h defines no ARRAY_SIZE"
}

# A pattern is asked, never named: its enum constant appears only in the
# vocabulary (base/vocab.[ch]), the pattern table (base/pattern.[ch]) and
# its own file in workers/ (PAT_ECHO in echo.c); everything else asks the
# table what the pattern is (pattern_info) or runs it through its ops.
t_pattern_constants_stay_home() {
	local d f c own bad=0 n=0
	for c in PINGPONG ECHO STREAM; do
		own=$(echo "$c" | tr 'A-Z' 'a-z')
		for d in $(layers); do
			for f in $(grep -lw "PAT_$c" "$REPO/$d"/*.[ch] 2>/dev/null); do
				n=$((n + 1))
				case "${f#$REPO/}" in
				base/vocab.[ch] | base/pattern.[ch] | "workers/$own.c") ;;
				*) echo "${f#$REPO/} names PAT_$c"; bad=1 ;;
				esac
			done
		done
		[ -e "$REPO/workers/$own.c" ] || die "no workers/$own.c for PAT_$c"
	done
	[ "$n" -ge 6 ] || die "only $n files name a pattern's constant: the check read nothing"
	[ "$bad" -eq 0 ] || die "a pattern's constant outside its file, the table and the vocabulary (above)"
}
