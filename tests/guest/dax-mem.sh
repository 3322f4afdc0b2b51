# dax-mem: struct pages in RAM (ndctl -M mem, pfn/dax mode "ram") on the
# labelled DIMM, after dax-write (which leaves 112 MiB of its region free):
# a 32M fsdax namespace with ext4 mounted -o dax and a file written with
# MAP_SYNC, and a 32M devdax namespace mapped at its 2 MiB alignment; the
# data read back, both destroyed, the region's free space back.  With the
# struct pages in RAM only the 8 KiB reserve rounded up to the 2 MiB
# alignment precedes the data: 30 MiB usable of 32.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/dax.inc"

nd_settle
dax_regions || exit 0
avail0=$(cat /sys/bus/nd/devices/$L_REGION/available_size)
expect_eq "$L_REGION: 112 MiB free after dax-write" "$avail0" $((112 * MiB))
mkdir -p /mnt/dax-mem

# fsdax, map mem
F=$NVT_OUT/dax-mem-fsdax.json
if ndctl create-namespace -r $L_REGION -m fsdax -M mem -s 32M -n nvt-mem > /tmp/c.json 2> /tmp/c.err; then
	ok "ndctl create-namespace -r $L_REGION -m fsdax -M mem -s 32M"
else
	nok "create-namespace -M mem failed"; sed 's/^/#   /' /tmp/c.err
fi
nd_settle
NS=$(dax_named nvt-mem)
ndctl list -N -n ${NS:-none} > $F 2>&1
expect_eq "${NS:-nvt-mem}: mode | map | align | size (32M less the 2M-aligned reserve)" \
	"$(jget mode $F) | $(jget map $F) | $(jget align $F) | $(jget size $F)" \
	"fsdax | mem | $ALIGN_2M | $((30 * MiB))"
pf=$(cat /sys/bus/nd/devices/${NS:-none}/holder 2>/dev/null)
expect_eq "${pf:-pfn}: mode ram" "$(dax_rd /sys/bus/nd/devices/${pf:-none}/mode)" ram
bdev=$(jget blockdev $F)
SEED=$(dax_seed 1 41)
if [ -n "$bdev" ] && mkfs.ext4 -q -F -b 4096 /dev/$bdev > /tmp/m.err 2>&1 &&
		mount -t ext4 -o dax /dev/$bdev /mnt/dax-mem 2>> /tmp/m.err; then
	ok "ext4 on /dev/$bdev mounted -o dax"
	dax_is_dax_mount /mnt/dax-mem && ok "mount options say dax" ||
		nok "mount options: $(dax_mount_opts /mnt/dax-mem)"
	check "a 3 MiB file written with MAP_SYNC" nvt-mmap write /mnt/dax-mem/f 4096 3M $SEED --sync
	check "statx: the file is DAX" nvt-mmap statx /mnt/dax-mem/f
	umount /mnt/dax-mem
	mount -t ext4 -o dax /dev/$bdev /mnt/dax-mem &&
		check "the file read back after a remount" nvt-mmap verify /mnt/dax-mem/f 4096 3M $SEED
	umount /mnt/dax-mem
else
	nok "ext4 -o dax on '/dev/$bdev': $(tr '\n' ' ' < /tmp/m.err)"
fi

# devdax, map mem
D=$NVT_OUT/dax-mem-devdax.json
if ndctl create-namespace -r $L_REGION -m devdax -M mem -s 32M -a 2M -n nvt-memdax > /tmp/c.json 2> /tmp/c.err; then
	ok "ndctl create-namespace -r $L_REGION -m devdax -M mem -s 32M -a 2M"
else
	nok "create-namespace -m devdax -M mem failed"; sed 's/^/#   /' /tmp/c.err
fi
dax_coldplug
ND=$(dax_named nvt-memdax)
ndctl list -N -n ${ND:-none} > $D 2>&1
expect_eq "${ND:-nvt-memdax}: mode | map | align | size" \
	"$(jget mode $D) | $(jget map $D) | $(jget align $D) | $(jget size $D)" \
	"devdax | mem | $ALIGN_2M | $((30 * MiB))"
chr=$(jget chardev $D)
if [ -n "$chr" ] && [ -c /dev/$chr ]; then
	check "/dev/$chr: 4 MiB at 2 MiB written" nvt-mmap write /dev/$chr 2M 4M $((SEED + 1))
	check "/dev/$chr: read back" nvt-mmap verify /dev/$chr 2M 4M $((SEED + 1))
else
	nok "no character device '$chr' for ${ND:-nvt-memdax}"
fi

# gone again
for n in $ND $NS; do
	ndctl destroy-namespace -f $n > /tmp/d.out 2>&1 || nok "destroy-namespace -f $n: $(cat /tmp/d.out)"
done
nd_settle
expect_eq "$L_REGION: free space back" "$(cat /sys/bus/nd/devices/$L_REGION/available_size)" "$avail0"
