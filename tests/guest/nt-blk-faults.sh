# nt-blk-faults: what the DIMM, its firmware or its NFIT can do wrong to
# BLK I/O, on nfit_test.0 (knobs: docs/nfit_test.md "Block windows"):
#   - a command completing with an error status (blk_fail): the request
#     fails with EIO and the media keeps its old bytes; a status with
#     only reserved bits set (0x8) is no error (the 0x80000037 mask)
#   - a poisoned media line (the poison knob): the read of its sector
#     fails EIO, the rest reads, a write does not clear it; where the
#     DIMM's lines are also a 1-way PMEM range (pm_1way) the failed
#     command's bytes become a bad range (regionN/badblocks), n-way: logged
#   - the DIMM-flags command failing: the BLK region does not enable, says
#     why, and enables once the firmware behaves, data intact
#   - bad block-window tables (blk_variant 3..10): that DIMM gets no BLK
#     region, one log line says why, the bus, the DIMM and the other
#     regions come up; odd but valid layouts (1: offsets, 2: 2-way
#     interleaved windows) carry data to the right DPA
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/blk.inc"

nd_settle
nt_debugfs
b0=$(nt_bus 0) || { nok "no nfit_test.0 bus"; exit 0; }
d=$(nt_dimm 0 0x101)
R=$b0/$(nt_region 0 10)
[ -n "$d" ] && [ -d $R ] || { nok "no DIMM 0x101 or its BLK region (range 10)"; exit 0; }
nt_blank_labels 0 $(nt_dimm 0 0x0) $(nt_dimm 0 0x1) $(nt_dimm 0 0x100) $d
nt_knobs_reset $d
echo 0 > $R/read_only
N=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((4 * MiB)) blk-faults) || exit 0
expect_eq "bind ${N##*/}" "$(ns_w $BLK_BIND ${N##*/})" ok
nd_settle
dev=/dev/$(nt_blockdev $N)
check "$dev: pattern 7701" nvt-pattern write $dev 0 4M 7701
dpa=$(blk_dpa $d blk-faults)
sum0=$(blk_media_sum $d $dpa $((4 * MiB)))

# --- error status ----------------------------------------------------------------
e0=$(nt_knob $d blk_errors)
nt_knob $d blk_fail 1
dd if=/dev/zero of=$dev bs=16K count=1 seek=16 oflag=direct 2> /tmp/bf.err &&
	nok "a write whose first command fails succeeded" ||
	expect_eq "a write whose block-window command fails: EIO" \
		"$(grep -o 'Input/output error' /tmp/bf.err | head -n 1)" "Input/output error"
expect_eq "$d: blk_errors counted it, blk_fail used up" \
	"$(($(nt_knob $d blk_errors) - e0)) $(nt_knob $d blk_fail)" "1 0"
expect_eq "$d's media unchanged by the failed write" "$(blk_media_sum $d $dpa $((4 * MiB)))" "$sum0"
nt_knob $d blk_fail 1
n=$(dd if=$dev bs=4K count=1 iflag=direct 2> /tmp/bf.err | wc -c)
expect_eq "a read whose command fails: no data, EIO" \
	"$n $(grep -o 'Input/output error' /tmp/bf.err | head -n 1)" "0 Input/output error"
nt_knob $d blk_fail_status 0x8
nt_knob $d blk_fail 2
check "a status of reserved bits only (0x8) is no error" nvt-pattern verify $dev 0 16K 7701
nt_knob $d blk_fail 0
nt_knob $d blk_fail_status 0x4
check "$dev: pattern intact after the faults" nvt-pattern verify $dev 0 4M 7701
dmesg | grep -q "$d: BLK write of .* status 0x4" && ok "the failed write is logged with its status" ||
	nok "no log line for the failed block-window write"

# --- poisoned media (the poison knob) ----------------------------------------------
# A read command over a poisoned line completes with the media-error
# status, as the DIMM reports an uncorrectable line: that sector fails
# EIO, its neighbours read as written; a write over it succeeds and does
# not clear the poison, the knob does.  Sector 2 (4096-byte sectors,
# a raw BLK namespace: DPA $dpa + 2 x 4096).
dd if=$dev of=/tmp/bp.s2 bs=4K skip=2 count=1 iflag=direct 2> /dev/null
dd if=$dev of=/tmp/bp.rest bs=4K skip=3 iflag=direct 2> /dev/null
r0=$(nt_knob $d poison_reads | awk '{ print $1 }')
e0=$(nt_knob $d blk_errors)
nt_knob $d poison "$((dpa + 2 * 4096 + 200)) 8"
ns_mark
n=$(dd if=$dev bs=4K skip=2 count=1 iflag=direct 2> /tmp/bf.err | wc -c)
expect_eq "poison at DPA $((dpa + 8192 + 192)): a read of sector 2 fails, EIO" \
	"$n $(grep -o 'Input/output error' /tmp/bf.err | head -n 1)" "0 Input/output error"
expect_eq "$d: poison_reads and blk_errors count it" \
	"$(($(nt_knob $d poison_reads | awk '{ print $1 }') - r0)) $(($(nt_knob $d blk_errors) - e0))" "1 1"
check "sectors 0-1 and 3-1023 read as written" sh -c \
	"nvt-pattern verify $dev 0 8K 7701 && dd if=$dev bs=4K skip=3 iflag=direct 2> /dev/null | cmp -s - /tmp/bp.rest"
ns_log_since | grep -q "block window .* hits poison at DPA $(printf %#x $((dpa + 8192 + 192))): media error" &&
	ok "nfit_test logs the poisoned read with its DPA" || nok "no nfit_test line for the poisoned read"
ns_log_since | grep -q "$d: BLK read of .* status 0x4" && ok "nfit.ko logs the failed read with its status" ||
	nok "no nfit.ko line for the failed read: $(ns_log_since | tail -n 2 | tr '\n' '|')"
head -c 4096 /dev/urandom > /tmp/bp.new
check "a write over the poisoned sector succeeds" dd if=/tmp/bp.new of=$dev bs=4K seek=2 count=1 oflag=direct
n=$(dd if=$dev bs=4K skip=2 count=1 iflag=direct 2> /dev/null | wc -c)
expect_eq "the poison stays after the write (read bytes, knob)" "$n $(nt_knob $d poison | tr '\n' ' ')" \
	"0 $(printf '%#x' $((dpa + 8192 + 192))) 0x40 "
nt_knob $d poison clear
check "cleared: sector 2 holds what was written over the poison" sh -c \
	"dd if=$dev bs=4K skip=2 count=1 iflag=direct 2> /dev/null | cmp -s - /tmp/bp.new"
dd if=/tmp/bp.s2 of=$dev bs=4K seek=2 count=1 oflag=direct 2> /dev/null
check "$dev: pattern intact after the poison" nvt-pattern verify $dev 0 4M 7701

# --- poison where the BLK lines are also a 4-way PMEM range -------------------------
# DIMM 0x101's DPA [16M, 32M) is also its part of the 4-way PMEM range 2
# (a 16M namespace fills [4M, 16M) first): a failed read there is logged
# with the range, not made a bad range (the lines are not one SPA range)
F=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((12 * MiB)) blk-fill) &&
	echo ${F##*/} > $BLK_BIND && nd_settle &&
	W=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((4 * MiB)) blk-nway) &&
	wdpa=$(blk_dpa $d blk-nway)
if [ -n "$W" ] && [ $((wdpa)) -ge $((16 * MiB)) ]; then
	echo ${W##*/} > $BLK_BIND
	nd_settle
	wdev=/dev/$(nt_blockdev $W)
	nt_knob $d poison "$((wdpa + 8192 + 200)) 8"
	ns_mark
	n=$(dd if=$wdev bs=4K skip=2 count=1 iflag=direct 2> /dev/null | wc -c)
	sleep 1
	expect_eq "4-way: a read of sector 2 over poison fails" "$n" 0
	ns_log_since | grep -q "$d: BLK read error: DPA $(printf %#x $((wdpa + 8192)))+0x1000 is in the 4-way PMEM range 2: logged only" &&
		ok "4-way: the aliased PMEM range is named, logged only" ||
		nok "no 4-way line: $(ns_log_since | tail -n 3 | tr '\n' '|')"
	expect_eq "4-way: no bad blocks in nfit_test.0's regions" "$(cat $b0/region*/badblocks 2> /dev/null)" ""
	nt_knob $d poison clear
else
	nok "no 4 MiB BLK namespace at DPA 16M (got ${wdpa:-none})"
fi
[ -n "$W" ] && blk_delete $W
[ -n "$F" ] && blk_delete $F

# --- the flags command fails ----------------------------------------------------------
echo ${R##*/} > $R/driver/unbind
nt_knob $d fail_cmds 0x8
ns_mark
expect_eq "enable ${R##*/} while $d's flags command fails" \
	"$(ns_w /sys/bus/nd/drivers/nd_region/bind ${R##*/})" "No such device or address"
ns_log_since | grep -q "cannot read the block-window flags" && ok "the failed enable says why" ||
	nok "no log line for the failed enable: $(ns_log_since | tail -n 2 | tr '\n' '|')"
[ -e $R/driver ] && nok "${R##*/} enabled without flags" || ok "${R##*/} stays disabled"
nt_knob $d fail_cmds 0
expect_eq "enable ${R##*/} once the firmware answers" "$(ns_w /sys/bus/nd/drivers/nd_region/bind ${R##*/})" ok
nd_settle
dev=/dev/$(nt_blockdev $N)
check "$dev: data after the region came back" nvt-pattern verify $dev 0 4M 7701
blk_delete $N

# --- bad and odd tables ------------------------------------------------------------
PD=/sys/bus/platform/drivers/nfit_test
P=/sys/module/nfit_test/parameters/blk_variant
# rebind_variant V: nfit_test.0 again with DIMM 0x101 (the fourth) at V
rebind_variant() {
	echo nfit_test.0 > $PD/unbind
	echo 0,0,0,$1 > $P
	echo nfit_test.0 > $PD/bind
	nd_settle
	b0=$(nt_bus 0)
}
for v in "3 status register of window 0" "4 do not fit block-data-window range" \
	 "5 block-data window size 0x0" "6 1 control windows, 0 block-data windows" \
	 "8 crosses an interleave line" "9 beyond what a block-window command addresses" \
	 "10 zero interleave ways"; do
	set -- $v
	ns_mark
	rebind_variant $1
	shift
	nblk=$(for r in $b0/region*; do [ "$(cat $r/nstype 2>/dev/null)" = 6 ] && echo $r; done | wc -l)
	got="$(nt_region 0 10 > /dev/null && echo region || echo none) $nblk $(ls -d $b0/nmem* | wc -l) $(ls -d $b0/region* | wc -l)"
	expect_eq "blk_variant $v: DIMM 0x101's BLK region, BLK regions, DIMMs, regions" "$got" "none 3 4 5"
	ns_log_since | grep -q "$*" && ok "blk_variant $v: logged" ||
		nok "blk_variant $v: no '$*' line: $(ns_log_since | grep -i nfit | tail -n 2 | tr '\n' '|')"
done
for v in 1 2 7; do
	rebind_variant $v
	R=$b0/$(nt_region 0 10)
	d=$(nt_dimm 0 0x101)
	if [ ! -e $R/driver ]; then
		nok "blk_variant $v: no enabled BLK region for DIMM 0x101"
		continue
	fi
	echo 0 > $R/read_only
	N=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((4 * MiB)) blk-v$v) || continue
	echo ${N##*/} > $BLK_BIND
	nd_settle
	dev=/dev/$(nt_blockdev $N)
	check "blk_variant $v: pattern through $dev" nvt-pattern write $dev 0 4M $((7710 + v))
	dpa=$(blk_dpa $d blk-v$v)
	expect_eq "blk_variant $v: the data at its DPA on $d's media" \
		"$(blk_media_sum $d $dpa $((4 * MiB)))" "$(blk_dev_sum $dev 0 $((4 * MiB)))"
	blk_delete $N
done
rebind_variant 0

# --- a poisoned line under BLK, aliased by a 1-way PMEM range (pm_1way) ------------
# The failed read's lines are also bytes of a PMEM region when the DIMM
# maps them 1-way there: nfit.ko makes them a bad range of the bus, so
# the PMEM region's badblocks names them (n-way: logged only, above).
# The report is the failed command's lines: sector 2's 4096 bytes.
P1=/sys/module/nfit_test/parameters/pm_1way
echo nfit_test.0 > $PD/unbind
if ! echo 1 > $P1 2> /dev/null; then
	nok "nfit_test has no pm_1way knob"
	echo nfit_test.0 > $PD/bind
	nd_settle
	exit 0
fi
echo nfit_test.0 > $PD/bind
blk_setup 0x101 10 || exit 0
pr=$b0/$(nt_region 0 2)
expect_eq "pm_1way: PM range 2 is 1-way on $d (mappings, size)" \
	"$(cat $pr/mappings 2> /dev/null) $(cat $pr/size 2> /dev/null)" "1 $((16 * MiB))"
# BLK DPA comes from outside PMEM first: a 16M namespace fills [0, 16M)
F=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((16 * MiB)) blk-fill) || exit 0
echo ${F##*/} > $BLK_BIND
nd_settle
N=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((4 * MiB)) blk-1way) || exit 0
echo ${N##*/} > $BLK_BIND
nd_settle
dev=/dev/$(nt_blockdev $N)
check "$dev: pattern 7720" nvt-pattern write $dev 0 4M 7720
dpa=$(blk_dpa $d blk-1way)
if [ -z "$dpa" ] || [ $((dpa)) -lt $((16 * MiB)) ] || [ $((dpa)) -gt $((28 * MiB)) ]; then
	nok "the BLK namespace (DPA ${dpa:-?}) is not inside the 1-way range [16M, 32M)"
else
	off=$((dpa - 16 * MiB + 8192))	# sector 2's bytes in the PMEM region
	spa=$(($(cat $pr/resource) + off))
	expect_eq "${pr##*/}: no bad blocks before" "$(cat $pr/badblocks)" ""
	nt_knob $d poison "$((dpa + 8192 + 200)) 8"
	ns_mark
	n=$(dd if=$dev bs=4K skip=2 count=1 iflag=direct 2> /tmp/bf.err | wc -c)
	expect_eq "1-way: a read of sector 2 over poison fails, EIO" \
		"$n $(grep -o 'Input/output error' /tmp/bf.err | head -n 1)" "0 Input/output error"
	# the report runs in a work item: give it a moment
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -n "$(cat $pr/badblocks)" ] && break
		sleep 0.5
	done
	expect_eq "${pr##*/}/badblocks: the failed command's 4096 bytes (sector, count)" \
		"$(cat $pr/badblocks | tr '\n' ' ')" "$((off / 512)) 8 "
	ns_log_since | grep -q "$d: BLK read of 4096 bytes at DPA $(printf %#x $((dpa + 8192))).* status 0x4" &&
		ok "nfit.ko logs the failed read with its DPA and length" ||
		nok "no nfit.ko line for the failed read: $(ns_log_since | tail -n 3 | tr '\n' '|')"
	ns_log_since | grep -q "$d: BLK read error: DPA $(printf %#x $((dpa + 8192)))+0x1000 is bad range $(printf %#x $spa)+0x1000 of PMEM range 2" &&
		ok "nfit.ko logs the bad range it added" ||
		nok "no bad-range line: $(ns_log_since | tail -n 3 | tr '\n' '|')"
	check "1-way: the other sectors read as written" sh -c \
		"nvt-pattern verify $dev 0 8K 7720 && dd if=$dev bs=4K skip=3 count=1 iflag=direct 2> /dev/null | wc -c | grep -qx 4096"
	nt_knob $d poison clear
	head -c 4096 /dev/urandom > /tmp/bp.new
	check "cleared: a write of sector 2 succeeds" dd if=/tmp/bp.new of=$dev bs=4K seek=2 count=1 oflag=direct
	check "cleared: sector 2 reads what was written" sh -c \
		"dd if=$dev bs=4K skip=2 count=1 iflag=direct 2> /dev/null | cmp -s - /tmp/bp.new"
fi
blk_delete $N
blk_delete $F
# the bad range stays on the bus (only a clear through PMEM drops it): a
# raw PMEM namespace over the range learns it in its disk's badblocks
if [ -n "$off" ]; then
	ndctl create-namespace -r ${pr##*/} -m raw -s 16M > /tmp/bf.ns 2>&1
	pdev=$(sed -n 's/.*"blockdev":"\([^"]*\)".*/\1/p' /tmp/bf.ns | head -n 1)
	expect_eq "a PMEM namespace over the range: /sys/block/${pdev:-?}/badblocks" \
		"$(cat /sys/block/${pdev:-none}/badblocks 2> /dev/null | tr '\n' ' ')" "$((off / 512)) 8 "
	ndctl destroy-namespace -f all -r ${pr##*/} > /dev/null 2>&1
fi
echo nfit_test.0 > $PD/unbind
echo 0 > $P1
echo nfit_test.0 > $PD/bind
nd_settle
