# bash completion for autoswappiness(8)                      -*- shell-script -*-
# Installed as share/bash-completion/completions/autoswappiness. The options are
# those of `autoswappiness --help` (tests/completion.sh checks that).

_autoswappiness()
{
	local cur prev i word status=0
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# -c FILE / --config FILE / --config=FILE: a file name. With '=' in
	# COMP_WORDBREAKS (the default) --config=FILE is three words.
	if [[ $prev == -c || $prev == --config ]]; then
		[[ $cur == = ]] && cur=
		_autoswappiness_files "$cur"
		return
	fi
	if [[ $prev == = ]] && ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == --config ]]; then
		_autoswappiness_files "$cur"
		return
	fi
	if [[ $cur == --config=* ]]; then
		# COMP_WORDBREAKS without '=': the word is the whole --config=FILE.
		_autoswappiness_files "${cur#--config=}"
		COMPREPLY=("${COMPREPLY[@]/#/--config=}")
		return
	fi

	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		case $word in
		status | --status) status=1 ;;
		esac
	done

	if ((status)); then
		# `autoswappiness status` takes --json and nothing else.
		for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
			[[ $word == --json ]] && return
		done
		mapfile -t COMPREPLY < <(compgen -W '--json' -- "$cur")
		return
	fi

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W '-c --config --once --explain --dry-run -n --check-config
			--foreground -v --verbose --version -h --help --status' -- "$cur")
	elif ((COMP_CWORD == 1)); then
		mapfile -t COMPREPLY < <(compgen -W 'status' -- "$cur")
	fi
}

# File names for -c: bash-completion's _filedir when it is loaded, else compgen.
_autoswappiness_files()
{
	if declare -F _filedir >/dev/null; then
		cur=$1
		_filedir
	else
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$1")
	fi
}

complete -F _autoswappiness autoswappiness
