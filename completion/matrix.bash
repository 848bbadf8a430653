# bash completion for matrix(1).  Installed as
# share/bash-completion/completions/matrix; or `source` this file.
#
# The commands, each command's options and the keys of --set and --only
# are asked of matrix itself at completion time (`matrix --help`,
# `matrix CMD --help`, the known keys of `matrix plan --set`), so they
# never drift from the binary; the answers are kept for the shell's life.

_matrix_bin()
{
	local b=${COMP_WORDS[0]}
	[[ $b == */* && -x $b ]] || b=matrix
	printf '%s' "$b"
}

# The commands: the first word of each line under "commands:".
_matrix_commands()
{
	[[ -n ${_matrix_cache_commands-} ]] ||
		_matrix_cache_commands=$("$(_matrix_bin)" --help 2>/dev/null |
			awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
	printf '%s\n' "$_matrix_cache_commands"
}

# A command's options: every -x and --long-option of its --help's usage
# lines and option lines (those that begin with a dash).
_matrix_options()
{
	local cmd=$1 var=_matrix_cache_opts_$1
	[[ $cmd =~ ^[a-z]+$ ]] || return 0
	[[ -n ${!var-} ]] ||
		printf -v "$var" '%s' "$("$(_matrix_bin)" "$cmd" --help 2>/dev/null |
			awk '/^usage:/{u=1} u && /^$/{u=0} u || /^ +-/' | grep -oE '(^|[][ ,|])--?[a-z][a-z-]*' | sed 's/^[][ ,|]//' | sort -u)"
	printf '%s\n' "${!var}"
}

# The keys --set takes (repeat, warmup, timeout, the matrix: keys, the
# link keys), as matrix lists them when given one it does not know.
_matrix_set_keys()
{
	[[ -n ${_matrix_cache_keys-} ]] ||
		_matrix_cache_keys=$("$(_matrix_bin)" plan --set ,=1 2>&1 |
			sed -n 's/.*(known: \(.*\)).*/\1/p' | tr -d ' ' | tr ',' '\n')
	printf '%s\n' "$_matrix_cache_keys"
}

_matrix()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd="" i
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(_matrix_commands) --help --version" -- "$cur"))
		return 0
	fi

	case $prev in
	--set | --only)
		local keys
		keys=$(_matrix_set_keys)
		[[ $prev == --only ]] && keys=$(grep -vxE 'repeat|warmup|timeout' <<<"$keys")
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$(sed 's/$/=/' <<<"$keys")" -- "$cur"))
		return 0 ;;
	-o | --output | --resume | --baseline | --history)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0 ;;
	--export-json)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	--order)
		COMPREPLY=($(compgen -W "shuffled sequential" -- "$cur"))
		return 0 ;;
	-t | --transport)
		COMPREPLY=($(compgen -W "$("$(_matrix_bin)" transports 2>/dev/null |
			awk 'NR > 1 && /^[a-z]/{print $1}')" -- "$cur"))
		return 0 ;;
	-p | --pattern)
		COMPREPLY=($(compgen -W "pingpong echo stream" -- "$cur"))
		return 0 ;;
	--endpoint) COMPREPLY=($(compgen -W "tcp ipc" -- "$cur")); return 0 ;;
	--record) COMPREPLY=($(compgen -W "full totals" -- "$cur")); return 0 ;;
	--poll) COMPREPLY=($(compgen -W "block busy" -- "$cur")); return 0 ;;
	--wake) COMPREPLY=($(compgen -W "futex eventfd" -- "$cur")); return 0 ;;
	--nodelay) COMPREPLY=($(compgen -W "true false" -- "$cur")); return 0 ;;
	-r | --repeat | --seed | --threshold | --metric | --ratio | --compare | --shard)
		return 0 ;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_matrix_options "$cmd")" -- "$cur"))
		return 0
	fi
	case $cmd in
	run | plan)
		# matrix files, and folders to look into
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.yaml' -- "$cur") \
			$(compgen -f -X '!*.yml' -- "$cur")) ;;
	report | compare | history | merge)
		# run folders
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	worker)
		COMPREPLY=($(compgen -W "server client --hello" -- "$cur")) ;;
	esac
	return 0
}
complete -F _matrix matrix ./matrix
