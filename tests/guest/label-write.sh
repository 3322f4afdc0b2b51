# label-write: write a seeded pattern over the whole label area in max_xfer
# chunks, read it back, compare.  label-verify checks it after a reboot.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"

set -- $(label_dimm) || true
if [ -z "$1" ]; then
	nok "no DIMM with a label area (GET_CONFIG_SIZE)"
	exit 0
fi
dimm=$1 size=$2 xfer=$3
diag "$dimm: config_size=$size max_xfer=$xfer"
expect_eq "$dimm config_size is 128 KiB (label-size=128K)" "$size" 131072

nvt-pattern gen $LABEL_SEED $size > /tmp/label.want
if regions_disable; then
	ok "ndctl disable-region all"
else
	nok "ndctl disable-region all: $(cat /tmp/region.out)"
fi
check "$dimm: SET_CONFIG_DATA whole area in $xfer-byte chunks" \
	nd-label-ioctl write /dev/$dimm /tmp/label.want
check "$dimm: GET_CONFIG_DATA whole area" \
	nd-label-ioctl read /dev/$dimm /tmp/label.got
check "$dimm: label area reads back what was written" \
	label_cmp /tmp/label.want /tmp/label.got
if regions_enable; then
	ok "ndctl enable-region all, $(pmem_count) pmem devices back"
else
	nok "ndctl enable-region all: $(cat /tmp/region.out), $(pmem_count) pmem"
fi
