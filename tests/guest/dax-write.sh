# dax-write: boot 1 of the DAX power-cycle test (issue 13; see dax.inc).
# With Debian's ndctl 76.1 (and daxctl, e2fsprogs, xfsprogs):
#   - the label-less DIMM's io namespace reconfigured to fsdax
#     (`create-namespace -f -e NS -m fsdax`: mode, map, default align,
#     usable size), ext4 on it mounted -o dax (mount options, STATX_ATTR_DAX),
#     files written through MAP_SYNC and plain mmap and through write(2),
#     read back through mmap and read(2)
#   - the labelled DIMM with v1.2 labels: a 64M devdax namespace, align 2M
#     (`ndctl list`, `daxctl list`, /dev/daxR.N mapped at the device's
#     alignment, written, read back; a 4 KiB mapping refused), a 336M
#     fsdax namespace with xfs (-m reflink=0) mounted -o dax, files; the
#     claim class of both in their labels
#   - controls, each showing that a check above can fail: MAP_SYNC refused
#     on tmpfs and on the ext4 mounted -o dax=never (STATX_ATTR_DAX clear
#     there), mount -o dax refused on a raw (pfn-less) namespace
# The record of the namespaces and the generation goes to the ext4 root.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/dax.inc"

GEN=1
E=/mnt/dax-ext4
X=/mnt/dax-xfs
mkdir -p $E $X /mnt/dax-raw

dax_regions || exit 0

# --- fsdax on the io namespace of the label-less DIMM, ext4 -o dax --------
io=$(dax_io_ns) || { nok "$LL_REGION has no io namespace"; exit 0; }
raw_blk=$(ls /sys/bus/nd/devices/$io/block 2>/dev/null)
if ndctl create-namespace -f -e $io -m fsdax > /tmp/c.json 2> /tmp/c.err; then
	ok "ndctl create-namespace -f -e $io -m fsdax ($LL_REGION, label-less $LL_DIMM)"
else
	nok "ndctl create-namespace -f -e $io -m fsdax failed"
	sed 's/^/#   /' /tmp/c.err
	exit 0
fi
nd_settle
ndctl list -N -n $io > $NVT_OUT/dax-io.json 2>&1
F=$NVT_OUT/dax-io.json
expect_eq "$io: ndctl list mode | map | align (76.1's default) | blockdev (as in raw mode)" \
	"$(jget mode $F) | $(jget map $F) | $(jget align $F) | $(jget blockdev $F)" \
	"fsdax | dev | $ALIGN_2M | $raw_blk"
expect_eq "$io: create-namespace printed what list says" \
	"$(dax_summary /tmp/c.json | sed 's/ size=[^ ]*//')" "$(dax_summary $F | sed 's/ size=[^ ]*//')"
IO_SIZE=$(jget size $F)
dax_size_ok "$IO_SIZE" $DAX_IO_RAW $ALIGN_2M &&
	ok "$io: usable size $IO_SIZE of $DAX_IO_RAW (struct pages on the device, align padding)" ||
	nok "$io: usable size '$IO_SIZE' out of bounds for $DAX_IO_RAW raw bytes, map=dev, align 2M"
blk=$(jget blockdev $F)
check "mkfs.ext4 -b 4096 /dev/$blk" mkfs.ext4 -q -F -b 4096 /dev/$blk
if mount -t ext4 -o dax /dev/$blk $E > /tmp/m.out 2>&1; then
	ok "mount -t ext4 -o dax /dev/$blk"
else
	nok "mount -t ext4 -o dax /dev/$blk: $(cat /tmp/m.out)"
	dmesg | tail -n 5 | sed 's/^/#   /'
	exit 0
fi
dax_is_dax_mount $E && ok "ext4 mount options: $(dax_mount_opts $E)" ||
	nok "ext4 mounted without dax: '$(dax_mount_opts $E)'"

# files: write, STATX_ATTR_DAX, read back through mmap and read(2)
files_check() {	# FS DIR
	local f out= off len k how
	if dax_files_do write $2 $GEN > /tmp/fw.out; then
		ok "$1: wrote $(echo "$DAX_FILES" | cut -d: -f1 | tr '\n' ' ')(MAP_SYNC, MAP_SHARED, write(2)), gen $GEN"
	else
		nok "$1: writing the files failed"; sed 's/^/#   /' /tmp/fw.out
	fi
	for f in $(echo "$DAX_FILES" | cut -d: -f1); do
		nvt-mmap statx $2/$f > /dev/null 2>&1 || out="$out $f($?)"
	done
	[ -z "$out" ] && ok "$1: STATX_ATTR_DAX set on every file" ||
		nok "$1: STATX_ATTR_DAX not set (nvt-mmap statx exit):$out"
	if dax_files_do verify $2 $GEN > /tmp/fv.out; then
		ok "$1: files read back through mmap"
	else
		nok "$1: read back through mmap differs"; sed 's/^/#   /' /tmp/fv.out
	fi
	# the MAP_SYNC file through read(2)
	IFS=: read -r f off len k how <<EOF
$(echo "$DAX_FILES" | head -n 1)
EOF
	nvt-mmap gen $off $len $(dax_seed $GEN $k) > /tmp/want.bin
	dd if=$2/$f bs=65536 skip=$off count=$len iflag=skip_bytes,count_bytes 2>/dev/null > /tmp/got.bin
	if cmp /tmp/want.bin /tmp/got.bin > /tmp/cmp.out 2>&1; then
		ok "$1: $f read back through read(2)"
	else
		nok "$1: $f through read(2) differs: $(cat /tmp/cmp.out)"
	fi
	rm -f /tmp/want.bin /tmp/got.bin
}
files_check ext4 $E

# control: MAP_SYNC is refused where there is no DAX
nvt-mmap write /tmp/nodax 0 4096 1 --sync > /tmp/ns.out 2>&1
expect_eq "control: MAP_SYNC on tmpfs refused (nvt-mmap exit 3: EOPNOTSUPP)" "$?" 3

# --- the labelled DIMM: v1.2 labels, devdax 64M align 2M -------------------
if ndctl disable-region $L_REGION > /tmp/l.out 2>&1 && ndctl init-labels -f -V 1.2 $L_DIMM >> /tmp/l.out 2>&1 &&
		ndctl enable-region $L_REGION >> /tmp/l.out 2>&1; then
	ok "ndctl init-labels -V 1.2 $L_DIMM ($L_REGION disabled around it)"
else
	nok "labelling $L_DIMM failed"; sed 's/^/#   /' /tmp/l.out
fi
nd_settle
# make_ns NAME MODE SIZE RAW JSON [ARGS]: `ndctl create-namespace -r
# $L_REGION -m MODE -s SIZE -n NAME ARGS`, its `ndctl list` to JSON: mode,
# map, align, name as asked, the usable size in bounds; sets NS, NSIZE
make_ns() {
	local name=$1 mode=$2 size=$3 raw=$4 F=$5
	shift 5
	if ndctl create-namespace -r $L_REGION -m $mode -s $size -n $name "$@" > /tmp/c.json 2> /tmp/c.err; then
		ok "ndctl create-namespace -r $L_REGION -m $mode -s $size $*"
	else
		nok "ndctl create-namespace -m $mode -s $size $* failed"; sed 's/^/#   /' /tmp/c.err
	fi
	# devdax: nothing loads device_dax for /dev/daxR.N but us
	[ $mode = devdax ] && dax_coldplug || nd_settle
	NS=$(dax_named $name)
	ndctl list -N -n ${NS:-none} > $F 2>&1
	expect_eq "${NS:-$name}: ndctl list mode | map | align | name" \
		"$(jget mode $F) | $(jget map $F) | $(jget align $F) | $(jget name $F)" \
		"$mode | dev | $ALIGN_2M | $name"
	NSIZE=$(jget size $F)
	dax_size_ok "$NSIZE" $raw $ALIGN_2M && ok "${NS:-$name}: usable size $NSIZE of $raw" ||
		nok "${NS:-$name}: usable size '$NSIZE' out of bounds for $raw raw bytes, map=dev, align 2M"
}
make_ns nvt-devdax devdax 64M $DAX_DEVDAX_RAW $NVT_OUT/dax-devdax.json -a 2M
dd_ns=$NS DD_SIZE=$NSIZE
chr=$(jget chardev $NVT_OUT/dax-devdax.json)
daxctl list -d ${chr:-none} > $NVT_OUT/daxctl.json 2>&1
diag "daxctl list -d $chr: $(tr -d ' \n' < $NVT_OUT/daxctl.json)"
D=$NVT_OUT/daxctl.json
expect_eq "daxctl list: chardev | size (as ndctl's) | align | mode | state (enabled: none)" \
	"$(jget chardev $D) | $(jget size $D) | $(jget align $D) | $(jget mode $D) | $(jget state $D)" \
	"${chr:-?} | $DD_SIZE | $ALIGN_2M | devdax | "
if [ -n "$chr" ] && [ -c /dev/$chr ]; then
	ok "/dev/$chr is a character device"
	if dax_extents_do write /dev/$chr $DD_SIZE $GEN > /tmp/dw.out &&
			dax_extents_do verify /dev/$chr $DD_SIZE $GEN >> /tmp/dw.out; then
		ok "/dev/$chr: extents $DAX_EXTENTS written through mmap at the device's align, read back"
	else
		nok "/dev/$chr: extents"; sed 's/^/#   /' /tmp/dw.out
	fi
	# a mapping that is not a multiple of the device's align is refused
	nvt-mmap verify /dev/$chr 4096 4096 1 --exact > /tmp/ua.out 2>&1
	rc=$?
	expect_eq "/dev/$chr: a 4 KiB mapping (align 2M) refused: exit | errno" \
		"$rc | $(grep -o 'Invalid argument' /tmp/ua.out)" "2 | Invalid argument"
	diag "kernel: $(dmesg | grep 'unaligned vma' | tail -n 1)"
else
	nok "no character device /dev/$chr for ${dd_ns:-nvt-devdax}"
fi

# --- xfs on a 336M fsdax namespace of the labelled DIMM --------------------
make_ns nvt-xfs fsdax 336M $DAX_XFS_RAW $NVT_OUT/dax-xfs.json
xblk=$(jget blockdev $NVT_OUT/dax-xfs.json)
check "mkfs.xfs -m reflink=0 /dev/$xblk" mkfs.xfs -q -f -m reflink=0 /dev/${xblk:-none}
if mount -t xfs -o dax /dev/${xblk:-none} $X > /tmp/m.out 2>&1; then
	ok "mount -t xfs -o dax /dev/$xblk"
	dax_is_dax_mount $X && ok "xfs mount options: $(dax_mount_opts $X)" ||
		nok "xfs mounted without dax: '$(dax_mount_opts $X)'"
	files_check xfs $X
else
	nok "mount -t xfs -o dax /dev/$xblk: $(cat /tmp/m.out)"
	dmesg | tail -n 5 | sed 's/^/#   /'
fi

# --- the claim class in the v1.2 labels ------------------------------------
ndctl read-labels -j $L_DIMM > $NVT_OUT/dax-labels.json 2>/dev/null
got=$(awk '
	/"name":/ { n = $0; sub(/.*"name":"/, "", n); sub(/".*/, "", n) }
	/"flags":/ { f = $0; sub(/.*"flags":/, "", f); sub(/,.*/, "", f) }
	/"abstraction_guid":/ { g = $0; sub(/.*"abstraction_guid":"/, "", g); sub(/".*/, "", g) }
	/^[ \t]*},?$/ { if (n != "" && f == "0") print n "=" g; n = f = g = "" }' $NVT_OUT/dax-labels.json | sort -u | tr '\n' ' ')
expect_eq "$L_DIMM labels: abstraction GUID (claim class) of nvt-devdax, nvt-xfs" \
	"$got" "nvt-devdax=$DAX_GUID nvt-xfs=$PFN_GUID "

# --- control: mount -o dax refused on a raw namespace (no pfn, no DAX) -----
if ndctl create-namespace -r $L_REGION -m raw -s 16M -n nvt-raw > /tmp/c.json 2> /tmp/c.err; then
	rblk=$(jget blockdev /tmp/c.json)
	mkfs.ext4 -q -F -b 4096 /dev/$rblk > /tmp/m.out 2>&1
	if mount -t ext4 -o dax /dev/$rblk /mnt/dax-raw >> /tmp/m.out 2>&1; then
		nok "control: mount -o dax of raw /dev/$rblk succeeded ($(dax_mount_opts /mnt/dax-raw))"
		umount /mnt/dax-raw
	else
		expect_eq "control: mount -t ext4 -o dax of raw /dev/$rblk refused" \
			"$(grep -o 'Invalid argument' /tmp/m.out)" "Invalid argument"
	fi
	diag "kernel: $(dmesg | grep 'DAX unsupported' | tail -n 1)"
	check "ndctl destroy-namespace -f $(jget dev /tmp/c.json) (nvt-raw)" \
		ndctl destroy-namespace -f $(jget dev /tmp/c.json)
else
	nok "control: create-namespace -m raw -s 16M failed: $(cat /tmp/c.err)"
fi

# --- the record, unmount, control: the ext4 without dax -------------------
{
	echo "gen=$GEN"
	echo "io=$(dax_summary $NVT_OUT/dax-io.json)"
	echo "devdax=$(dax_summary $NVT_OUT/dax-devdax.json)"
	echo "xfs=$(dax_summary $NVT_OUT/dax-xfs.json)"
} > $NVT_OUT/dax-state.txt
cp $NVT_OUT/dax-state.txt $E/$DAX_REC && sync
diag "record: $(tr '\n' ';' < $NVT_OUT/dax-state.txt)"
grep -q '^gen=' $E/$DAX_REC && ok "record written to the ext4 root ($DAX_REC)" ||
	nok "record not written to $E/$DAX_REC"
[ -n "$(dax_mount_opts $X)" ] && check "umount xfs" umount $X
check "umount ext4" umount $E
if mount -t ext4 -o dax=never /dev/$blk $E > /tmp/m.out 2>&1; then
	f=$(echo "$DAX_FILES" | head -n 1 | cut -d: -f1)
	nvt-mmap statx $E/$f > /dev/null 2>&1; st=$?
	nvt-mmap verify $E/$f 0 4096 1 --sync > /dev/null 2>&1; ms=$?
	expect_eq "control: ext4 mounted -o dax=never: STATX_ATTR_DAX clear | MAP_SYNC refused (exit codes)" \
		"$st | $ms" "1 | 3"
	umount $E
else
	nok "control: mount -o dax=never failed: $(cat /tmp/m.out)"
fi
sync
