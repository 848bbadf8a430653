# The tree shows the data flow: each folder is a layer that includes only
# the layers below it (the Makefile's LAYERS, bottom first), no C file is
# over 800 lines and no function over 80.  These read the sources; they
# run nothing.

# The layers, bottom first, from the Makefile (the one place they are named).
layers() {
	sed -n 's/^LAYERS *:= *//p' "$REPO/Makefile"
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
	[ "$i" -ge 4 ] || die "Makefile LAYERS lists $i folders: $(layers)"
	for d in $(layers); do
		for f in "$REPO/$d"/*.[ch]; do
			while read -r h; do
				n=$((n + 1))
				[ -n "${home[$h]:-}" ] || continue	# version.h, made by the build
				if [ "${rank[${home[$h]}]}" -gt "${rank[$d]}" ]; then
					echo "$d/${f##*/} includes ${home[$h]}/$h, a layer above it"
					bad=1
				fi
			done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
		done
	done
	[ "$n" -gt 50 ] || die "only $n #include lines read: the check read nothing"
	[ "$bad" -eq 0 ] || die "a folder includes a layer above it (above)"
	# the commands are the top: of the runner, main.c and the cmd_*.c
	# files (the commands it dispatches to) alone call the reports
	local callers
	callers=$(grep -l -E '#include "(report|summary|markdown|gnuplot|stats|compare|history|json)\.h"' \
		"$REPO"/runner/*.[ch] | grep -v -E '/runner/(main\.c|cmd_[a-z_]+\.[ch])$' || true)
	[ -z "$callers" ] || die "only runner/main.c and runner/cmd_*.[ch] may include the reports: $callers"
	# and the commands' headers only the commands
	callers=$(grep -l -E '#include "cmd_[a-z_]+\.h"' "$REPO"/*/*.[ch] |
		grep -v -E '/runner/(main\.c|cmd_[a-z_]+\.[ch])$' || true)
	[ -z "$callers" ] || die "only runner/main.c and runner/cmd_*.[ch] may include a command's header: $callers"
	# the matrix model's private header stays inside the model
	local users
	users=$(grep -l '#include "matrix_load.h"' "$REPO"/*/*.[ch] | grep -v '/base/matrix[a-z_]*\.[ch]$' || true)
	[ -z "$users" ] || die "matrix_load.h is private to base/matrix*.c: $users"
}

t_no_c_file_over_800_lines() {
	local d f n bad=0 count=0
	for d in $(layers); do
		for f in "$REPO/$d"/*.[ch]; do
			count=$((count + 1))
			n=$(wc -l <"$f")
			[ "$n" -le 800 ] || { echo "${f#$REPO/}: $n lines"; bad=1; }
		done
	done
	[ "$count" -gt 20 ] || die "only $count files found"
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
