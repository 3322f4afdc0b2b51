# bash completion for nvt-ndctl, the libnvdimm project's ndctl
# (installed as $(BASHCOMPDIR)/nvt-ndctl; bash-completion loads it the
# first time nvt-ndctl is completed, or source it).
#
# Subcommands and options come from the command's own help output
# ("nvt-ndctl --help", "nvt-ndctl COMMAND --help"), so they are always the
# ones the installed binary accepts; bus, region, DIMM and namespace names
# from sysfs (${NDCTL_SYSFS_ROOT:-/sys}, as the command itself reads it).

# _nvt_ndctl_devices KIND: the names of the devices of KIND (bus: ndbusN
# and its provider; region; dimm; namespace: configured ones, no seeds)
_nvt_ndctl_devices()
{
	local root=${NDCTL_SYSFS_ROOT:-/sys} ctl bus d v

	for ctl in "$root"/class/nd/ndctl*; do
		bus=$ctl/device
		[[ -d $bus ]] || continue
		case $1 in
		bus)
			echo "ndbus${ctl##*/ndctl}"
			v=
			read -r v 2> /dev/null < "$bus/provider"
			[[ -n $v ]] && echo "$v"
			;;
		region)
			for d in "$bus"/region[0-9]*; do
				[[ -d $d ]] && echo "${d##*/}"
			done
			;;
		dimm)
			for d in "$bus"/nmem[0-9]*; do
				[[ -d $d ]] && echo "${d##*/}"
			done
			;;
		namespace)
			for d in "$bus"/region[0-9]*/namespace[0-9]*; do
				v=0
				read -r v 2> /dev/null < "$d/size"
				[[ -d $d && $v != 0 ]] && echo "${d##*/}"
			done
			;;
		esac
	done
}

# _nvt_ndctl_commands CMD: the subcommands "CMD --help" lists
_nvt_ndctl_commands()
{
	local line in=

	while IFS= read -r line; do
		if [[ $line == *Commands:* ]]; then
			in=1
		elif [[ -n $in && $line =~ ^\ +([a-z][a-z-]*)\  ]]; then
			echo "${BASH_REMATCH[1]}"
		elif [[ -n $in && -z $line ]]; then
			break
		fi
	done < <("$1" --help 2> /dev/null)
}

# _nvt_ndctl_options CMD SUB: sets the caller's _nvt_opts (every option
# name), _nvt_argopts (those that take an argument) and _nvt_long (-x ->
# --long) from "CMD SUB --help"
_nvt_ndctl_options()
{
	local line re='^ *(-([A-Za-z0-9]), )?(--[a-z0-9-]+)( <)?'

	_nvt_opts=() _nvt_argopts=() _nvt_long=()
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		_nvt_opts+=(${BASH_REMATCH[2]:+-${BASH_REMATCH[2]}} "${BASH_REMATCH[3]}")
		[[ -n ${BASH_REMATCH[2]} ]] && _nvt_long[-${BASH_REMATCH[2]}]=${BASH_REMATCH[3]}
		[[ -n ${BASH_REMATCH[4]} ]] &&
			_nvt_argopts+=(${BASH_REMATCH[2]:+-${BASH_REMATCH[2]}} "${BASH_REMATCH[3]}")
	done < <("$1" "$2" --help 2> /dev/null)
}

# _nvt_ndctl_values SUB OPTION CUR: the values of a long option
_nvt_ndctl_values()
{
	local words=

	case $2 in
	--bus) words="$(_nvt_ndctl_devices bus) all" ;;
	--region) words="$(_nvt_ndctl_devices region) all" ;;
	--dimm) words="$(_nvt_ndctl_devices dimm) all" ;;
	--namespace|--reconfig) words="$(_nvt_ndctl_devices namespace) all" ;;
	--mode) words="raw sector fsdax devdax" ;;
	--type) words="pmem blk" ;;
	--map) words="dev mem" ;;
	--align) words="4K 2M 1G" ;;
	--sector-size) words="512 520 528 4096 4104 4160 4224" ;;
	--label-version) words="1.1 1.2" ;;
	--output|--input|--firmware|--config-file|--log)
		compopt -o filenames 2> /dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$3")
		return
		;;
	--key-path)
		compopt -o filenames 2> /dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$3")
		return
		;;
	esac
	[[ $2 == --reconfig ]] && words=${words% all}
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$3")
}

_nvt_ndctl()
{
	local cmd=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev= sub= opt= i w
	local -a _nvt_opts _nvt_argopts
	local -A _nvt_long

	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w != -* ]]; then
			sub=$w
			break
		fi
	done
	if [[ -z $sub ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W \
				"$(_nvt_ndctl_commands "$cmd") help version" -- "$cur")
		fi
		return 0
	fi
	if [[ $sub == help ]]; then
		((COMP_CWORD == i + 1)) && mapfile -t COMPREPLY < <(compgen -W \
			"$(_nvt_ndctl_commands "$cmd")" -- "$cur")
		return 0
	fi
	_nvt_ndctl_options "$cmd" "$sub"
	# the value of an option: "-b X", "--bus X", "--bus=X" (bash splits
	# at the "=" of COMP_WORDBREAKS) or, without that split, "--bus=X"
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
	elif [[ $cur == = && $prev == --* ]]; then
		opt=$prev
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $prev == -* && " ${_nvt_argopts[*]} " == *" $prev "* ]]; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		[[ $opt != --* ]] && opt=${_nvt_long[$opt]}
		_nvt_ndctl_values "$sub" "$opt" "$cur"
		return 0
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "${_nvt_opts[*]}" -- "$cur")
		return 0
	fi
	# the operands: namespaces, regions or DIMMs, by the command's name
	case $sub in
	list|create-namespace) return 0 ;;
	*-namespace) w="$(_nvt_ndctl_devices namespace) all" ;;
	inject-error) w="$(_nvt_ndctl_devices namespace)" ;;
	inject-smart) w="$(_nvt_ndctl_devices dimm)" ;;
	monitor) return 0 ;;
	clear-errors) w="$(_nvt_ndctl_devices namespace) all" ;;
	*-scrub|activate-firmware) w="$(_nvt_ndctl_devices bus) all" ;;
	*-region) w="$(_nvt_ndctl_devices region) all" ;;
	*-dimm|*-labels|*-passphrase|freeze-security|wait-overwrite|update-firmware)
		w="$(_nvt_ndctl_devices dimm) all" ;;
	*) return 0 ;;
	esac
	mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
	return 0
}

complete -F _nvt_ndctl nvt-ndctl
