# Installed like a tool: the man pages agree with --help and with the
# keys the loader takes, make install puts every file where it belongs,
# the pages render, the bash and zsh completions complete, every column
# of a run folder is in matrix-run-folder(5), and make uninstall
# takes back exactly what install put there.

MAN1=$REPO/docs/man/matrix.1.scd
MAN5=$REPO/docs/man/matrix-file.5.scd

# The commands of `matrix --help`: the first word of each line under
# "commands:".
commands() {
	"$MATRIX_BIN" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}'
}

# The options `matrix CMD --help` prints: every -x and --long of its usage
# lines and of its option lines (those that begin with a dash); the same
# words the bash completion offers.
help_options() {
	"$MATRIX_BIN" "$1" --help | awk '/^usage:/{u=1} u && /^$/{u=0} u || /^ +-/' |
		grep -oE '(^|[][ ,|])--?[a-z][a-z-]*' | sed 's/^[][ ,|]//' | sort -u
}

# matrix(1)'s section of CMD: from "## matrix CMD" to the next heading.
man_section() {
	awk -v h="## matrix $1" '$0 == h {on=1; next} on && /^#/ {exit} on' "$MAN1"
}

# Every option --help prints is in the command's section of matrix(1), and
# every option that section names is one --help knows (as curl's
# docs/cmdline-opts are checked against its --help).
t_help_options_are_in_the_man_page_and_back() {
	local cmd opt sec help n=0
	for cmd in $(commands); do
		sec=$(man_section "$cmd")
		[ -n "$sec" ] || die "matrix(1) has no section '## matrix $cmd'"
		help=$("$MATRIX_BIN" "$cmd" --help)
		for opt in $(help_options "$cmd"); do
			grep -qF -- "*$opt*" <<<"$sec" ||
				die "matrix $cmd --help prints $opt; matrix(1)'s section '## matrix $cmd' lacks *$opt*"
			n=$((n + 1))
		done
		for opt in $(grep -oE -- '(^|[^a-z-])--?[a-z][a-z-]*' <<<"$sec" | grep -oE -- '--?[a-z][a-z-]*$' | sort -u); do
			grep -qE -- "(^|[^a-z-])$opt([^a-z-]|\$)" <<<"$help" ||
				die "matrix(1)'s section '## matrix $cmd' names $opt, which matrix $cmd --help does not"
		done
	done
	[ $n -ge 60 ] || die "only $n options checked"
	# and no section for a command that is not there
	for cmd in $(sed -n 's/^## matrix \([a-z]*\)$/\1/p' "$MAN1"); do
		commands | grep -qx "$cmd" || die "matrix(1) has a section for '$cmd', which matrix --help does not list"
	done
	grep -qF -- '*--version*' "$MAN1" || die "matrix(1) lacks --version"
}

# Every metric `matrix report --help` lists is in matrix(1)'s METRICS.
t_metrics_are_in_the_man_page() {
	local m sec
	sec=$(awk '/^# METRICS/{on=1; next} on && /^# /{exit} on' "$MAN1")
	for m in $("$MATRIX_BIN" report --help | awk '/^METRIC is/{on=1; next} on && /^  [a-z]/{print $1}'); do
		grep -qF "*$m*" <<<"$sec" || die "metric $m of matrix report --help is not in matrix(1)'s METRICS"
	done
}

# The keys the loader names as known, for a key it does not know: the
# file's top level, matrix:, report:, report: compare:, a ratio, a
# program, hosts:, topology:, topology: link:, repeat: and --set.
known_keys() {	# YAML after `name: x` and `matrix: {size: 1}`, or --set
	if [ "$1" = --set ]; then
		"$MATRIX_BIN" plan --set ,=1 2>&1
	else
		printf 'name: x\nmatrix: {size: 1}\n%s\n' "$1" >"$T/k.yaml"
		"$MATRIX_BIN" plan "$T/k.yaml" 2>&1
	fi | sed -n 's/.*(known: \(.*\)).*/\1/p' | tr -d ' ' | tr ',' '\n'
}

t_every_key_the_loader_takes_is_in_matrix_file_5() {
	local y k n=0 keys
	for y in 'zzzz: 1' 'report: {zzzz: 1}' 'report: {compare: {zzzz: 1}}' \
		'report: {ratios: [{zzzz: 1}]}' 'programs: {x: {zzzz: 1}}' 'hosts: {zzzz: 1}' \
		'topology: {zzzz: 1}' 'topology: {netns: true, link: {zzzz: 1}}' 'repeat: {zzzz: 1}' --set; do
		keys=$(known_keys "$y")
		[ -n "$keys" ] || die "no known keys for '$y'"
		for k in $keys; do
			grep -qF "*$k*" "$MAN5" || die "key '$k' (known for '$y') is not in matrix-file(5)"
			n=$((n + 1))
		done
	done
	# matrix: keys are a scalar-or-list each, and one more than --set's
	printf 'name: x\nmatrix: {zzzz: 1}\n' >"$T/k.yaml"
	for k in $("$MATRIX_BIN" plan "$T/k.yaml" 2>&1 | sed -n 's/.*(known: \(.*\)).*/\1/p' | tr -d ' ' | tr ',' ' '); do
		grep -qF "*$k*" "$MAN5" || die "matrix: key '$k' is not in matrix-file(5)"
		n=$((n + 1))
	done
	[ $n -ge 80 ] || die "only $n keys checked"
}

# make install DESTDIR PREFIX=/usr: every file where it belongs, the
# pages render without a warning, the completion completes; uninstall
# leaves nothing of ours and a file of someone else's alone.
t_make_install_then_uninstall() {
	local root=$T/root f page out
	command -v man >/dev/null || die "man missing: man-db is in TEST_DEB (make test-deps)"
	command -v scdoc >/dev/null || die "scdoc missing: it is in TEST_DEB (make test-deps)"
	mkdir -p "$root/usr/share/man/man1"
	echo theirs >"$root/usr/share/man/man1/other.1"
	make -s -C "$REPO" install INSTALL_BIN="$MATRIX_BIN" DESTDIR="$root" PREFIX=/usr >"$T/install.log" 2>&1 ||
		die "make install failed: $(cat "$T/install.log")"
	for f in bin/matrix share/man/man1/matrix.1 share/man/man5/matrix-file.5 \
		share/man/man5/matrix-run-folder.5 share/matrix/matrices/af_unix_vs_inet.yaml \
		share/matrix/matrices/nightly.yaml share/matrix/matrices/programs/echo_server.py \
		share/matrix/nightly.sh share/bash-completion/completions/matrix \
		share/zsh/site-functions/_matrix; do
		[ -f "$root/usr/$f" ] || die "make install did not install /usr/$f"
	done
	[ -x "$root/usr/bin/matrix" ] && [ -x "$root/usr/share/matrix/nightly.sh" ] || die "not executable"
	"$root/usr/bin/matrix" --version >/dev/null || die "the installed matrix does not run"
	for page in "$root"/usr/share/man/man*/matrix*; do
		out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >"$T/page.txt") ||
			die "man -l $page failed: $out"
		[ -z "$out" ] || die "man -l $page warns: $out"
		grep -q 'SEE ALSO' "$T/page.txt" || die "man -l $page: no SEE ALSO"
	done
	man -l "$root/usr/share/man/man1/matrix.1" 2>/dev/null | grep -q -- '--repeat N' ||
		die "matrix(1) rendered has no --repeat N"

	check_bash_completion "$root/usr"
	command -v zsh >/dev/null || die "zsh missing: it is in TEST_DEB (make test-deps)"
	zsh -n "$root/usr/share/zsh/site-functions/_matrix" || die "_matrix: zsh syntax"
	check_zsh_completion "$root/usr"

	make -s -C "$REPO" uninstall DESTDIR="$root" PREFIX=/usr >"$T/uninstall.log" 2>&1 ||
		die "make uninstall failed: $(cat "$T/uninstall.log")"
	out=$(cd "$root" && find . ! -type d ! -path ./usr/share/man/man1/other.1)
	[ -z "$out" ] || die "make uninstall left: $out"
	[ "$(cat "$root/usr/share/man/man1/other.1")" = theirs ] || die "uninstall removed a file not ours"
	[ ! -e "$root/usr/share/matrix" ] || die "make uninstall left /usr/share/matrix"
}

# COMPREPLY of the installed bash completion for the words given (the
# last one the word being completed), run with the installed matrix first
# in PATH, in the folder $T.
complete_words() {
	local prefix=$1; shift
	(cd "$T" && PATH=$prefix/bin:$PATH bash -c '
		source "$1/share/bash-completion/completions/matrix"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_matrix; printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix" "$@")
}

check_bash_completion() {
	local prefix=$1 out
	out=$(complete_words "$prefix" matrix '')
	for w in run plan report compare history merge transports worker --help; do
		grep -qx -- "$w" <<<"$out" || die "matrix <TAB> lacks $w: $out"
	done
	out=$(complete_words "$prefix" matrix run --re)
	grep -qx -- --repeat <<<"$out" && grep -qx -- --resume <<<"$out" ||
		die "matrix run --re<TAB>: $out"
	grep -qx -- --json <<<"$(complete_words "$prefix" matrix plan --j)" || die "matrix plan --j<TAB>"
	out=$(complete_words "$prefix" matrix run m.yaml --set b)
	grep -qx busy_poll= <<<"$out" || die "--set b<TAB>: $out"
	out=$(complete_words "$prefix" matrix run --set re)
	grep -qx repeat= <<<"$out" || die "--set re<TAB>: $out"
	out=$(complete_words "$prefix" matrix run --only re)
	grep -qx repeat= <<<"$out" && die "--only re<TAB> offers repeat=, not a dimension"
	grep -qx record= <<<"$out" || die "--only re<TAB>: $out"
	mkdir -p "$T/runs/r1"
	: >"$T/mine.yaml"; : >"$T/notes.txt"
	out=$(complete_words "$prefix" matrix run '')
	grep -qx mine.yaml <<<"$out" || die "matrix run <TAB> lacks mine.yaml: $out"
	grep -qx notes.txt <<<"$out" && die "matrix run <TAB> offers notes.txt"
	out=$(complete_words "$prefix" matrix report runs/)
	grep -qx runs/r1 <<<"$out" || die "matrix report runs/<TAB>: $out"
	grep -qx tcp <<<"$(complete_words "$prefix" matrix worker -t t)" || die "worker -t t<TAB>"
}

# The zsh completion's answers, with zsh's completion builtins replaced by
# functions that print what they are given (no terminal, no compinit):
# WORDS... the command line, the last word the one being completed.
zsh_complete() {
	local prefix=$1; shift
	(cd "$T" && PATH=$prefix/bin:$PATH zsh -fc '
		compadd() { print -rl -- "$@"; }
		_describe() { print -rl -- "${(@P)4}"; }
		_files() { print -r -- "_files $*"; }
		_message() { :; }
		f=$1; shift
		eval "$(sed "\$d" "$f")"	# the file but its last line, which calls _matrix
		words=("$@"); CURRENT=$#; PREFIX=${words[-1]}
		_matrix' _ "$prefix/share/zsh/site-functions/_matrix" "$@")
}

check_zsh_completion() {
	local prefix=$1 out
	out=$(zsh_complete "$prefix" matrix '')
	grep -q '^run:run every cell' <<<"$out" && grep -qx -- --version <<<"$out" ||
		die "zsh: matrix <TAB>: $out"
	grep -qx -- --repeat <<<"$(zsh_complete "$prefix" matrix run --)" || die "zsh: matrix run --<TAB>"
	out=$(zsh_complete "$prefix" matrix run --only b)
	grep -qx busy_poll <<<"$out" || die "zsh: --only b<TAB>: $out"
	grep -qx repeat <<<"$out" && die "zsh: --only offers repeat"
	grep -qx repeat <<<"$(zsh_complete "$prefix" matrix run --set r)" || die "zsh: --set r<TAB>"
	grep -qF '_files -g *.(yaml|yml)' <<<"$(zsh_complete "$prefix" matrix run '')" || die "zsh: matrix run <TAB>"
	grep -qx zmq <<<"$(zsh_complete "$prefix" matrix worker -t '')" || die "zsh: worker -t <TAB>"
}

# Every column of the files a run, a report, compare and history write
# (and every key of meta.csv) is in matrix-run-folder(5); a dimension's
# column is a key of matrix: (matrix-file(5)), and summary.csv's
# per-metric columns are METRIC_n, _median, ... (the page names the
# suffixes).
t_run_folder_columns_are_in_matrix_run_folder_5() {
	local page=$REPO/docs/man/matrix-run-folder.5.scd dims f c n=0 metrics
	printf 'name: x\nmatrix: {zzzz: 1}\n' >"$T/k.yaml"
	dims=$("$MATRIX_BIN" plan "$T/k.yaml" 2>&1 | sed -n 's/.*(known: \(.*\)).*/\1/p' | tr -d ' ' | tr ',' '\n')
	metrics=$("$MATRIX_BIN" report --help | awk '/^METRIC is/{on=1; next} on && /^  [a-z]/{print $1}')
	MATRIX_CHARTS=svg "$MATRIX_BIN" run "$REPO/tests/data/tiny-run/matrix.yaml" -r 1 -q -o run >/dev/null ||
		die "the tiny run failed"
	"$MATRIX_BIN" compare "$REPO/tests/data/compare/base" "$REPO/tests/data/compare/new" -q -o cmp >/dev/null
	[ -s cmp/compare.csv ] || die "compare wrote no compare.csv"
	"$MATRIX_BIN" history "$REPO/tests/data/history" -q -o hist >/dev/null || die "history failed"
	for f in run/results.csv run/timeline.csv run/hist.csv run/summary.csv run/ratios.csv \
		cmp/compare.csv hist/history.csv; do
		for c in $(head -n 1 "$f" | tr ',' ' '); do
			grep -qx "$c" <<<"$dims" && continue
			if [ "${f#*/}" = summary.csv ]; then
				for m in $metrics; do
					case $c in "${m}_"*) c=_M_\\_${c#"${m}_"}; break ;; esac
				done
			fi
			grep -qF -- "*$c*" "$page" || grep -qF -- "$c" <<<"$(grep -F '_M_' "$page")" ||
				die "$f's column $c is not in matrix-run-folder(5)"
			n=$((n + 1))
		done
	done
	for c in $(tail -n +2 run/meta.csv | cut -d, -f1); do
		grep -qF -- "*$c*" "$page" || die "meta.csv's key $c is not in matrix-run-folder(5)"
		n=$((n + 1))
	done
	[ $n -ge 120 ] || die "only $n columns checked"
}
