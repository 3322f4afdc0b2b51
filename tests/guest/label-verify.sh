# label-verify: the label area written by label-write in the previous boot
# (same backing files) is still there.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"

set -- $(label_dimm) || true
if [ -z "$1" ]; then
	nok "no DIMM with a label area (GET_CONFIG_SIZE)"
	exit 0
fi
dimm=$1 size=$2
nvt-pattern gen $LABEL_SEED $size > /tmp/label.want
check "$dimm: GET_CONFIG_DATA whole area after reboot" \
	nd-label-ioctl read /dev/$dimm /tmp/label.got
check "$dimm: label pattern survived the power cycle" \
	label_cmp /tmp/label.want /tmp/label.got
