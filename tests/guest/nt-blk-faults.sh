# nt-blk-faults: what the DIMM, its firmware or its NFIT can do wrong to
# BLK I/O, on nfit_test.0 (knobs: docs/nfit_test.md "Block windows"):
#   - a command completing with an error status (blk_fail): the request
#     fails with EIO and the media keeps its old bytes; a status with
#     only reserved bits set (0x8) is no error (the 0x80000037 mask)
#   - a poisoned media line (the poison knob): the read of its sector
#     fails EIO, the rest reads, a write does not clear it
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
