# media-fs: filesystems and a BTT over injected media errors (issue 28's
# oracle: "a filesystem on a namespace with injected errors behaves the
# same"), on nfit_test.1's 32 MiB namespace (1-way: namespace offset =
# DPA), errors injected by Debian's ndctl 76.1 and found by its
# start-scrub / wait-scrub (docs/media-errors.md "What is tested"):
# - mkfs: mke2fs 1.47 does not read /sys/block/pmemN/badblocks (its bad
#   blocks inode stays empty, the poisoned sectors stay listed); handed the
#   list (-l, 4 KiB blocks from sysfs) it owns the block, and a file that
#   fills the filesystem reads back without EIO; over a bad first block
#   mkfs.ext4 fails (EIO: sub-block writes read the block first),
#   mkfs.xfs (whole-block O_DIRECT writes) clears it and succeeds
# - ext4 and xfs (no DAX): a file's first block (FIEMAP) poisoned, its
#   read fails with EIO, buffered and O_DIRECT (without reading the media:
#   no copy_mc_to_kernel() on it), the next block reads; a
#   pwrite of the whole 4 KiB block (buffered + fsync on ext4, O_DIRECT on
#   xfs) clears it: Clear Error reached the mock, the poison and the
#   badblocks entry gone, the new data read back
# - DAX: nfit_test's ranges are not system memory (no struct pages): the
#   disk has no DAX, ext4 -o dax is refused; the DAX fault paths are
#   tested on QEMU's NVDIMMs (docs/media-errors.md)
# - a BTT (sector mode, 4 KiB) over it: an LBA's data block (found on the
#   media by its contents) poisoned through the injection DSM, scrubbed by
#   ndctl: the read fails with EIO, the map entry is marked, the
#   next read fails again, the neighbour reads; a rewrite of the LBA
#   succeeds and reads back, the next write on the lane clears the old
#   block (Clear Error reached the mock, region badblocks empty); the map
#   entry read from the media: error flag only, then normal
# Leaves the namespace raw, no poison, no bad ranges, the region read-only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }
B1=$(nt_bus 1) || { nok "no nfit_test.1 bus"; exit 0; }
C1=/dev/ndctl${B1##*ndbus}
A1=$NT_DBG/nfit_test.1
P=$A1/dimm0/poison
MEDIA=$A1/dimm0/media
r=$(ls -d $B1/region* 2> /dev/null | head -n 1)
ns=$(ls -d $r/namespace* 2> /dev/null | head -n 1)
[ -n "$ns" ] || { nok "nfit_test.1 has no namespace"; exit 0; }
n=${ns##*/}
NSR=$(($(cat $ns/resource)))
RR=$(($(cat $r/resource)))
echo 0 > $r/read_only
dev=$(nt_blockdev $ns)
[ -b /dev/$dev ] || { nok "$n has no block device"; exit 0; }
M=/mnt/mfs
mkdir -p $M
modprobe ext4 2> /dev/null
modprobe xfs 2> /dev/null

pv() {
	local v
	v=$(head -n 8 $1 | tr '\n' ' ')
	echo "${v:-none}"
}
bbl() {
	local v
	v=$(tr '\n' ' ' < $1)
	echo "${v:-none}"
}
cnt() { cat $A1/$1; }
# mc: copy_mc_to_kernel() calls on mock media so far (the test build's
# wrapper counts them): a read refused from badblocks makes none
mc() { awk '$1 == "copy_mc_to_kernel" { print $3 }' $NT_IOMAP/calls; }
flat() { tr -d ' \t\n'; }
# scrub: wait for a running scrub (an injection's notification), then one
# more by ndctl start-scrub / wait-scrub
scrub() {
	local i=0 v
	while v=$(cat $B1/nfit/scrub) && [ "${v%+}" != "$v" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ndctl start-scrub nfit_test.1 > /tmp/mfs.scrub 2>&1 &&
		ndctl wait-scrub nfit_test.1 >> /tmp/mfs.scrub 2>&1 ||
		diag "scrub: $(tr '\n' ' ' < /tmp/mfs.scrub)"
}
# inject BLOCK COUNT: ndctl inject-error on the namespace, then a scrub
inject() {
	ndctl inject-error --block=$1 --count=$2 $n > /tmp/mfs.inj 2>&1 ||
		nok "ndctl inject-error --block=$1 --count=$2 $n: $(head -n 2 /tmp/mfs.inj)"
	scrub
}
# zero_sectors S C: one O_DIRECT write of zeros over sectors [S, S+C) of
# the raw disk (clears them).  Not busybox dd: with bs under a page its
# buffer is malloc'ed, O_DIRECT refuses it (EINVAL) and dd retries
# through the page cache, which reads the whole 4 KiB block first: EIO
# when any sector of it is bad
zero_sectors() {
	local r
	r=$(nvt-mfs write /dev/$dev $(($1 * 512)) $(($2 * 512)) 0 -d)
	[ "$r" = ok ] || diag "write over $1+$2: $r"
}
drop() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

expect_eq "$n (/dev/$dev): raw, no poison, no bad blocks at the start" \
	"$(cat $ns/mode 2> /dev/null || echo raw) $(pv $P) $(bbl /sys/block/$dev/badblocks)" "raw none none"

# --- mkfs and the disk's badblocks ------------------------------------------------
# sector 40960 = 20 MiB, 4 KiB block 5120: no metadata of a 32 MiB ext4 there
inject 40960 8
expect_eq "injected 8 sectors at 40960: /sys/block/$dev/badblocks after the scrub" \
	"$(bbl /sys/block/$dev/badblocks)" "40960 8 "
if mkfs.ext4 -F -q -b 4096 /dev/$dev > /tmp/mfs.mkfs 2>&1; then
	ok "mkfs.ext4 on /dev/$dev with a bad range"
else
	nok "mkfs.ext4 on /dev/$dev: $(tr '\n' ' ' < /tmp/mfs.mkfs)"
fi
# observed: mke2fs 1.47 neither reads sysfs badblocks nor writes there
expect_eq "mke2fs does not read sysfs badblocks: bad blocks inode empty, the range still listed" \
	"$(nvt-mfs e2bb /dev/$dev) | $(bbl /sys/block/$dev/badblocks)" "none | 40960 8 "
awk '{ for (i = 0; i < $2; i++) print int(($1 + i) / 8) }' /sys/block/$dev/badblocks |
	sort -un > /tmp/mfs.bb
if mkfs.ext4 -F -q -b 4096 -l /tmp/mfs.bb /dev/$dev > /tmp/mfs.mkfs 2>&1; then
	ok "mkfs.ext4 -l (the sysfs list as 4 KiB blocks: $(tr '\n' ' ' < /tmp/mfs.bb))"
else
	nok "mkfs.ext4 -l: $(tr '\n' ' ' < /tmp/mfs.mkfs)"
fi
expect_eq "... its bad blocks inode owns block 5120" "$(nvt-mfs e2bb /dev/$dev)" 5120
if mount -t ext4 /dev/$dev $M 2> /tmp/mfs.mnt; then
	dd if=/dev/zero of=$M/fill bs=1M 2> /dev/null
	sync
	umount $M && mount -t ext4 /dev/$dev $M
	sz=$(stat -c %s $M/fill)
	if cat $M/fill > /dev/null 2> /tmp/mfs.cat; then
		ok "a file filling the filesystem ($sz bytes) reads back: the bad block never allocated"
	else
		nok "reading the filling file ($sz bytes): $(cat /tmp/mfs.cat)"
	fi
	umount $M
else
	nok "mount ext4: $(cat /tmp/mfs.mnt)"
fi
expect_eq "... the range still listed (nothing wrote it)" "$(bbl /sys/block/$dev/badblocks)" "40960 8 "
k0=$(cnt ars_clears)
zero_sectors 40960 8
expect_eq "an O_DIRECT write of the 4 KiB block: one Clear Error, poison and badblocks gone" \
	"$(($(cnt ars_clears) - k0)) $(pv $P) $(bbl /sys/block/$dev/badblocks)" "1 none none"

# --- mkfs over poison where it writes -----------------------------------------------
# the first 4 KiB block (sector 0, the ext4 superblock at 1024) and 4 KiB
# block 8 bad: mke2fs writes sector 0 and the superblock with sub-block
# writes through the page cache, which read the block first: it fails;
# its whole-block writes (block 8) clear.  mkfs.xfs writes whole blocks
# with O_DIRECT: it clears everything it writes and succeeds.
HAVE_XFS=
[ -x /usr/sbin/mkfs.xfs ] && grep -qw xfs /proc/filesystems && HAVE_XFS=1
inject 0 8
inject 64 8
k0=$(cnt ars_clears)
mkfs.ext4 -F -b 4096 /dev/$dev > /tmp/mfs.mkfs 2>&1
rc=$?
expect_eq "mkfs.ext4 over a bad first block: fails (exit | erasing sector 0 | writing the superblocks: EIO)" \
	"$rc | $(grep -c 'could not erase sector 0: Input/output error' /tmp/mfs.mkfs) | $(grep -c 'Input/output error while writing out and closing' /tmp/mfs.mkfs)" \
	"1 | 1 | 1"
k=$(($(cnt ars_clears) - k0))
expect_eq "... its whole-block writes cleared block 8 ($k Clear Errors), block 0 still listed" \
	"$([ $k -ge 1 ] && echo yes) $(bbl /sys/block/$dev/badblocks)" "yes 0 8 "
zero_sectors 0 8
if mkfs.ext4 -F -q -b 4096 /dev/$dev > /tmp/mfs.mkfs 2>&1 && mount -t ext4 /dev/$dev $M; then
	ok "after an O_DIRECT write of block 0: mkfs.ext4 succeeds, mounts"
	umount $M
else
	nok "mkfs.ext4 after clearing block 0: $(tr '\n' ' ' < /tmp/mfs.mkfs)"
fi
if [ -n "$HAVE_XFS" ]; then
	inject 0 8
	inject 64 8
	k0=$(cnt ars_clears)
	env TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 mkfs.xfs -f -q /dev/$dev > /tmp/mfs.mkfs 2>&1
	rc=$?
	k=$(($(cnt ars_clears) - k0))
	expect_eq "mkfs.xfs over the same: succeeds, its writes cleared both ($k Clear Errors), mounts" \
		"$rc $([ $k -ge 2 ] && echo yes) $(pv $P) $(bbl /sys/block/$dev/badblocks) $(mount -t xfs /dev/$dev $M && echo mounted && umount $M)" \
		"0 yes none none mounted"
fi

# --- a file's block on ext4 and xfs ---------------------------------------------------
# fs_case FS WRITE-FLAG: mkfs, a 64 KiB file of 0x41, its first block
# poisoned, read, rewritten with 0x42, read
fs_case() {
	local fs=$1 wflag=$2 mk got phys len blk k0
	case $fs in
	ext4) mk="mkfs.ext4 -F -q -b 4096" ;;
	# mkfs.xfs refuses under 300 MiB but for its test suite's variables
	xfs) mk="env TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 mkfs.xfs -f -q" ;;
	esac
	if ! $mk /dev/$dev > /tmp/mfs.mkfs 2>&1 ||
	   ! mount -t $fs /dev/$dev $M 2> /tmp/mfs.mnt; then
		nok "$fs: mkfs or mount: $(cat /tmp/mfs.mkfs /tmp/mfs.mnt | tr '\n' ' ')"
		return
	fi
	dd if=/dev/zero bs=4096 count=16 2> /dev/null | tr '\0' 'A' > $M/f
	sync
	got=$(nvt-mfs fiemap $M/f)
	phys=${got% *} len=${got#* }
	if [ $((phys % 4096)) != 0 ] || [ "$len" -lt 8192 ] 2> /dev/null; then
		nok "$fs: FIEMAP of the file: '$got'"
		umount $M
		return
	fi
	blk=$((phys / 512))
	umount $M
	inject $blk 8
	expect_eq "$fs: the file's first block (FIEMAP: sector $blk) injected, listed after the scrub" \
		"$(bbl /sys/block/$dev/badblocks)" "$blk 8 "
	mount -t $fs /dev/$dev $M
	got="$(nvt-mfs read $M/f 0 4096)"
	c0=$(mc)
	got="$got | $(nvt-mfs read $M/f 0 4096 -d)"
	c=$(($(mc) - c0))
	expect_eq "$fs: read of the poisoned block fails with EIO (buffered | O_DIRECT, the media untouched: $c media reads), the next block reads" \
		"$got $c | $(nvt-mfs read $M/f 4096 4096 -d)" "EIO | EIO 0 | ok 41"
	k0=$(cnt ars_clears)
	expect_eq "$fs: pwrite of the whole block ($([ -n "$wflag" ] && echo O_DIRECT || echo buffered + fsync))" \
		"$(nvt-mfs write $M/f 0 4096 0x42 $wflag)" ok
	k=$(($(cnt ars_clears) - k0))
	expect_eq "$fs: ... Clear Error reached the mock ($k), poison and badblocks entry gone" \
		"$([ $k -ge 1 ] && echo yes) $(pv $P) $(bbl /sys/block/$dev/badblocks)" "yes none none"
	drop
	expect_eq "$fs: the block reads the new data (buffered | O_DIRECT)" \
		"$(nvt-mfs read $M/f 0 4096) | $(nvt-mfs read $M/f 0 4096 -d)" "ok 42 | ok 42"
	umount $M
	expect_eq "$fs: still there after a remount" \
		"$(mount -t $fs /dev/$dev $M && nvt-mfs read $M/f 0 4096 -d; umount $M)" "ok 42"
}
fs_case ext4
if [ -n "$HAVE_XFS" ]; then
	fs_case xfs -d
else
	skip "xfs" "no mkfs.xfs or xfs module in the guest"
fi

# --- DAX --------------------------------------------------------------------------
mkfs.ext4 -F -q -b 4096 /dev/$dev > /dev/null 2>&1
dmark
if mount -t ext4 -o dax /dev/$dev $M 2> /dev/null; then
	nok "ext4 -o dax mounted on /dev/$dev (a mock range has no struct pages)"
	umount $M
else
	expect_eq "no DAX on a mock range: queue/dax 0, ext4 -o dax refused (logged)" \
		"$(cat /sys/block/$dev/queue/dax) $(dsince | grep -c 'DAX unsupported by block device')" "0 1"
fi

# --- a BTT over injected errors ---------------------------------------------------------
if ! ndctl create-namespace -f -e $n -m sector --sector-size=4096 > /tmp/mfs.ns 2> /tmp/mfs.err; then
	nok "ndctl create-namespace -e $n -m sector: $(tr '\n' ' ' < /tmp/mfs.err)"
else
	bd=$(jget blockdev /tmp/mfs.ns)
	ok "$n in sector mode (4096): /dev/$bd"
	mark() { printf "MFS-BTT-LBA-$1-$2" | dd of=/dev/$bd bs=4096 seek=$1 count=1 conv=sync oflag=direct 2> /dev/null; }
	rd() {
		dd if=/dev/$bd bs=4096 skip=$1 count=1 iflag=direct 2> /tmp/mfs.rd | head -c 20 | tr -c 'A-Z0-9a-z-' '.'
		grep -q 'Input/output error' /tmp/mfs.rd && echo EIO
	}
	for l in 6 7 8; do mark $l a; done
	# the arena's info block, its map and data area (btt-format.h): a map
	# entry as "FLAGS:MEDIA-OFFSET" (flags 3 normal, 1 error, 2 zero)
	le() { dd if=$MEDIA bs=1 skip=$1 count=$2 2> /dev/null | od -An -t u$2 | tr -d ' '; }
	arena=$(nvt-mfs find $MEDIA BTT_ARENA_INFO | head -n 1)
	ilba=$(le $((arena + 64)) 4) dataoff=$(le $((arena + 88)) 8) mapoff=$(le $((arena + 96)) 8)
	ment() {
		local e
		e=$(le $((arena + mapoff + 4 * $1)) 4)
		echo "$(((e >> 30) & 3)):$((arena + dataoff + (e & 0x3fffffff) * ilba))"
	}
	diag "arena at $arena: internal lbasize $ilba, map at +$mapoff, data at +$dataoff"
	off=$(nvt-mfs find $MEDIA MFS-BTT-LBA-7-a)
	case $off in
	''|*[!0-9]*)
		nok "LBA 7's data block not found on the media ($off)" ;;
	*)
		diag "LBA 7's data block at namespace offset $off (sector $((off / 512)))"
		expect_eq "inject 512 bytes at its start (ARS_INJECT_SET)" \
			"$(nvt-ars inject $C1 $((NSR + off)) 512)" "rc=0 fw_size=4 status=0"
		scrub
		expect_eq "$(basename $r)/badblocks after the scrub" \
			"$(bbl $r/badblocks)" "$(((NSR - RR + off) / 512)) 1 "
		dmark
		expect_eq "read of LBA 7: EIO, again EIO; LBA 6 reads" \
			"$(rd 7) | $(rd 7) | $(rd 6)" "EIO | EIO | MFS-BTT-LBA-6-a....."
		expect_eq "LBA 7's map entry (on the media): error flag only, still naming the bad block | logged once" \
			"$(ment 7) | $(dsince | grep -c "block 7: media error in data block")" "1:$off | 1"
		k0=$(cnt ars_clears)
		mark 7 b
		got=$(ment 7)
		expect_eq "LBA 7 rewritten: reads back, its map entry normal (Z and E) naming another block" \
			"$(rd 7) ${got%%:*} $([ "${got#*:}" != $off ] && echo moved)" "MFS-BTT-LBA-7-b..... 3 moved"
		mark 8 b
		k=$(($(cnt ars_clears) - k0))
		expect_eq "the next write on the lane reuses the old block: Clear Error reached the mock ($k), poison and region badblocks gone, LBA 8 reads" \
			"$([ $k -ge 1 ] && echo yes) $(pv $P) $(bbl $r/badblocks) $(rd 8)" \
			"yes none none MFS-BTT-LBA-8-b....."
		;;
	esac
	ndctl create-namespace -f -e $n -m raw > /tmp/mfs.ns 2> /tmp/mfs.err ||
		nok "back to raw: $(tr '\n' ' ' < /tmp/mfs.err)"
fi

# --- clean ----------------------------------------------------------------------------
echo clear > $P
dev=$(nt_blockdev $ns)
for s in $(awk '{ print $1 ":" $2 }' /sys/block/$dev/badblocks 2> /dev/null); do
	zero_sectors ${s%:*} ${s#*:}
done
expect_eq "the end: $n raw, no poison, no bad blocks" \
	"$(cat $ns/mode 2> /dev/null || echo raw) $(pv $P) $(bbl $r/badblocks)" "raw none none"
echo 1 > $r/read_only
