# nt-pmem-io: I/O on nfit_test.1's pmem device, through nd_pmem's mapping
# of the mock range; the bytes land in the DIMM's media at the DPA the
# NFIT says (debugfs nfit_test/nfit_test.1/dimm0/media).  And the flush
# hints of nfit_test.0 are the mock registers the region's deep_flush
# writes.  nfit_test.1's DIMM is not armed, so its region starts
# read-only (nt-v42 tests that): made writable here as a user would, by
# writing read_only 0, and left read-only again at the end.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_debugfs
b1=$(nt_bus 1)
ns=$(ls -d $b1/region*/namespace* 2> /dev/null | head -n 1)
dev=$(nt_blockdev $ns)
if [ -z "$dev" ] || [ ! -b /dev/$dev ]; then
	nok "nfit_test.1 has no pmem block device (namespace '$ns')"
	exit 0
fi
expect_eq "/dev/$dev size" "$(blockdev --getsize64 /dev/$dev)" $NT_DIMM_SIZE
r=$(dirname $ns)
expect_eq "${r##*/}/read_only 1 (unarmed DIMM), 0 written" \
	"$(cat $r/read_only) $(echo 0 > $r/read_only && cat $r/read_only /sys/block/$dev/ro | tr '\n' ' ')" "1 0 0 "

# extents: start, unaligned sector run, a page-crossing span, the end
fail=
i=0
for e in 0:1M 4608:7680 0x5ff000:0x3000 -512:512 0:32M; do
	i=$((i + 1))
	off=${e%%:*} len=${e#*:}
	nvt-pattern write /dev/$dev $off $len $((900 + i)) > /tmp/io.out 2>&1 ||
		fail="$fail write $e: $(cat /tmp/io.out);"
	nvt-pattern verify /dev/$dev $off $len $((900 + i)) > /tmp/io.out 2>&1 ||
		fail="$fail verify $e: $(cat /tmp/io.out);"
done
[ -z "$fail" ] && ok "/dev/$dev: patterns written and verified (5 extents up to the whole 32 MiB)" ||
	nok "/dev/$dev I/O:$fail"

# O_DIRECT and buffered paths agree; data survives dropping the caches
nvt-pattern write /dev/$dev 8M 2M 42 > /dev/null 2>&1
sync
echo 3 > /proc/sys/vm/drop_caches
check "/dev/$dev: 2 MiB read back after drop_caches" nvt-pattern verify /dev/$dev 8M 2M 42
dd if=/dev/$dev of=/tmp/io.direct bs=4096 skip=2048 count=512 iflag=direct 2> /dev/null
nvt-pattern gen 42 2M > /tmp/io.want
check "/dev/$dev: O_DIRECT read matches" cmp /tmp/io.direct /tmp/io.want

# the same bytes in the DIMM's media at DPA 8 MiB (1-way: DPA = offset)
media=$NT_DBG/nfit_test.1/dimm0/media
if [ -r $media ]; then
	dd if=$media of=/tmp/io.media bs=1M skip=8 count=2 2> /dev/null
	check "DIMM media at DPA 8 MiB holds what /dev/$dev wrote at 8 MiB" cmp /tmp/io.media /tmp/io.want
else
	nok "no $media"
fi

# read-only region: writes refused, reads fine
echo 1 > $r/read_only
if dd if=/dev/zero of=/dev/$dev bs=4096 count=1 seek=2048 oflag=direct 2> /dev/null; then
	nok "write to /dev/$dev succeeded with ${r##*/}/read_only 1"
else
	ok "write to /dev/$dev refused with ${r##*/}/read_only 1"
fi
echo 0 > $r/read_only
check "/dev/$dev still holds its data" nvt-pattern verify /dev/$dev 8M 2M 42
echo 1 > $r/read_only

# flush hints of nfit_test.0: deep_flush writes the hint of every DIMM
# of the region and of no other DIMM
b0=$(nt_bus 0)
for h in 0x0 0x1 0x100 0x101; do
	echo 0 > $NT_DBG/$(nt_dimm 0 $h)/flush_hint
done
r0=$(nt_region 0 1)
expect_eq "${r0}/deep_flush (flush hints present)" "$(cat $b0/$r0/deep_flush)" 1
echo 1 > $b0/$r0/deep_flush
got=$(for h in 0x0 0x1 0x100 0x101; do echo $(($(cat $NT_DBG/$(nt_dimm 0 $h)/flush_hint))); done | tr '\n' ' ')
expect_eq "deep_flush of ${r0} (DIMMs 0, 1) hit their flush hints only" "$got" "1 1 0 0 "
