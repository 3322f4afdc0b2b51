# media-dax: DAX over a known bad range (issue 28: "fsdax and devdax (6.1
# behaviour for each) tested with mmap faults"), on QEMU's NVDIMMs: DAX
# needs struct pages, which nfit_test's mock ranges have not (media-fs
# covers the block paths there).  The bad range comes from a software
# machine check (mce-inject "sw", as mce-badrange); QEMU's NFIT has no
# ARS functions, so nothing can clear it: what a rewrite does over
# uncleared poison is recorded too.  Stock is the oracle: every result
# goes to media-dax.txt (compare-prov.py between a stock and an ours or
# test boot).
# - fsdax (ext4 -o dax on the label-less DIMM's io namespace): a file's
#   first block (FIEMAP, plus the pfn device's data start) made bad: its
#   read(2) through DAX fails with EIO, an mmap load of it gets SIGBUS,
#   the next block reads and maps; a whole-block pwrite over it (DAX
#   recovery write, the clear impossible) and what reads say afterwards
# - devdax (the same namespace, align 2M): a bad line inside /dev/daxR.N
#   listed by the region; device-dax does not consult badblocks: a mapping
#   over it reads
# Leaves the namespace raw; nfit is unbound and bound again (on QEMU the
# only way to forget a bad range), so that nothing is left listed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/dax.inc"

OUT=$NVT_OUT/media-dax.txt
: > $OUT
M=/mnt/media-dax
mkdir -p $M
mountpoint -q /sys/kernel/debug 2>/dev/null || mount -t debugfs none /sys/kernel/debug
if ! modprobe mce_inject > /tmp/md.out 2>&1 || [ ! -d /sys/kernel/debug/mce-inject ]; then
	nok "mce-inject unavailable"
	sed 's/^/#   /' /tmp/md.out
	exit 0
fi
D=/sys/kernel/debug/mce-inject
# an uncorrected memory error (see mce-badrange.sh)
UNCORR=0xb40000000008009f
mce() {
	echo sw > $D/flags
	printf '0x%x\n' $1 > $D/addr
	echo $UNCORR > $D/status
	echo 4 > $D/bank
	sleep 1		# decoded by a work item
}
bbl() {
	local v
	v=$(tr '\n' ' ' < $1 2> /dev/null)
	echo "${v:-none}"
}
# rec KEY VALUE: one line of the oracle's record, also shown
rec() {
	echo "$1 $2" >> $OUT
	diag "$1: $2"
}

nd_settle
modprobe ext4 2> /dev/null
dax_regions || exit 0
io=$(dax_io_ns) || { nok "$LL_REGION has no io namespace"; exit 0; }
R=/sys/bus/nd/devices/$LL_REGION
expect_eq "$LL_REGION: no bad blocks at the start" "$(bbl $R/badblocks)" none

# --- fsdax ----------------------------------------------------------------------
if ! ndctl create-namespace -f -e $io -m fsdax > /tmp/md.json 2> /tmp/md.err; then
	nok "ndctl create-namespace -f -e $io -m fsdax: $(tr '\n' ' ' < /tmp/md.err)"
	exit 0
fi
nd_settle
blk=$(jget blockdev /tmp/md.json)
pfn=$(cat /sys/bus/nd/devices/$io/holder)
DSTART=$(($(cat /sys/bus/nd/devices/$pfn/resource)))
if mkfs.ext4 -q -F -b 4096 /dev/$blk > /tmp/md.out 2>&1 &&
   mount -t ext4 -o dax /dev/$blk $M 2>> /tmp/md.out; then
	ok "$io fsdax ($pfn, data at $(printf %#x $DSTART)): ext4 mounted -o dax on /dev/$blk"
else
	nok "mkfs/mount -o dax /dev/$blk: $(tr '\n' ' ' < /tmp/md.out)"
	exit 0
fi
dd if=/dev/zero bs=4096 count=16 2> /dev/null | tr '\0' 'A' > $M/f
sync
got=$(nvt-mfs fiemap $M/f)
phys=${got% *}
if [ $((phys % 4096)) != 0 ] || [ "${got#* }" -lt 8192 ] 2> /dev/null; then
	nok "FIEMAP of the file: '$got'"
else
	s=$((phys / 512))
	mce $((DSTART + phys + 0x40))
	expect_eq "a machine check in the file's first block (sector $s of /dev/$blk): listed" \
		"$(bbl /sys/block/$blk/badblocks)" "$s 1 "
	rec fsdax-read "$(nvt-mfs read $M/f 0 4096) | $(nvt-mfs read $M/f 4096 4096)"
	rec fsdax-mmap "$(nvt-mfs mmap $M/f 0 4096) | $(nvt-mfs mmap $M/f 4096 4096)"
	expect_eq "fsdax: read(2) of the bad block EIO, the next reads | an mmap load of it SIGBUS, the next maps" \
		"$(nvt-mfs read $M/f 0 4096) | $(nvt-mfs read $M/f 4096 4096) | $(nvt-mfs mmap $M/f 0 4096) | $(nvt-mfs mmap $M/f 4096 4096)" \
		"EIO | ok 41 | SIGBUS | ok 41"
	# a whole-page write over it: dax_direct_access refuses it, the DAX
	# core retries as a recovery write, which cannot clear on QEMU
	rec fsdax-pwrite "$(nvt-mfs write $M/f 0 4096 0x42)"
	rec fsdax-after "$(nvt-mfs read $M/f 0 4096) | $(nvt-mfs mmap $M/f 0 4096) | $(bbl /sys/block/$blk/badblocks)"
	rec fsdax-partial-pwrite "$(nvt-mfs write $M/f 512 512 0x43)"
fi
umount $M

# --- devdax ---------------------------------------------------------------------
# (Debian's rt kernel has no device-dax: CONFIG_DEV_DAX unset)
if ! modprobe -q device_dax 2> /dev/null; then
	skip "devdax over a bad line" "no device_dax module in this kernel"
elif ! ndctl create-namespace -f -e $io -m devdax > /tmp/md.json 2> /tmp/md.err; then
	nok "ndctl create-namespace -f -e $io -m devdax: $(tr '\n' ' ' < /tmp/md.err)"
else
	dax_coldplug
	chr=$(jget chardev /tmp/md.json)
	res=$(cat /sys/bus/dax/devices/$chr/resource 2> /dev/null)
	if [ ! -c /dev/$chr ] || [ -z "$res" ]; then
		nok "devdax: no /dev/$chr or resource '$res'"
	else
		rs=$(($(cat $R/resource)))
		mce $((res + 4 * MiB + 0x40))
		expect_eq "devdax: a machine check 4M into /dev/$chr: its sector listed by $LL_REGION" \
			"$(grep -c "^$(((res + 4 * MiB - rs) / 512)) 1$" $R/badblocks)" 1
		rec devdax-mmap "$(nvt-mfs mmap /dev/$chr $((4 * MiB)) $((2 * MiB)))"
		expect_eq "devdax: a 2M mapping over the bad line reads (device-dax does not consult badblocks)" \
			"$(nvt-mfs mmap /dev/$chr $((4 * MiB)) $((2 * MiB)))" "ok 00"
	fi
fi

# --- back to raw, the bad ranges forgotten -----------------------------------------
ndctl create-namespace -f -e $io -m raw > /tmp/md.json 2> /tmp/md.err ||
	nok "back to raw: $(tr '\n' ' ' < /tmp/md.err)"
acpi=$(ls -d /sys/bus/acpi/drivers/nfit/ACPI0012:* 2> /dev/null | head -n 1)
if [ -n "$acpi" ]; then
	echo ${acpi##*/} > /sys/bus/acpi/drivers/nfit/unbind
	echo ${acpi##*/} > /sys/bus/acpi/drivers/nfit/bind
	nd_settle
	wait_pmem 2 30
fi
dax_regions > /dev/null
R=/sys/bus/nd/devices/$LL_REGION
expect_eq "the end: nfit rebound, $io raw, $LL_REGION without bad blocks" \
	"$(cat /sys/bus/nd/devices/$(dax_io_ns)/mode) $(bbl $R/badblocks)" "raw none"
sed 's/^/#   /' $OUT
