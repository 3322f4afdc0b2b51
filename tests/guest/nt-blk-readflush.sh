# nt-blk-readflush: a block window's aperture is mapped write-back, so
# after a window moves to another DPA the CPU may still hold the lines it
# saw there before.  nfit_test's blk_stale knob makes the aperture behave
# so: a read command's lines stay hidden behind the old ones until the
# driver invalidates them (arch_invalidate_pmem(), READ_FLUSH), counted
# in blk_invalidates (docs/nfit_test.md "Block windows").  On DIMM 0x101's
# BLK region of nfit_test.0, with the knob on:
#   - a DIMM that does not report its flags (the flags command answers
#     ENOTTY) gets LATCH|READ_FLUSH: every read invalidates, data correct
#     (issue 26 #6: it got LATCH only, and reads returned stale lines);
#   - a DIMM that reports LATCH|READ_FLUSH: the same;
#   - a DIMM that reports LATCH alone is believed: no invalidation, and a
#     read returns the previous DPA's lines (the knob catches a missing
#     invalidation);
# and with the knob off, reads are right without invalidations.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/blk.inc"

blk_setup 0x101 10 || exit 0
[ -e $NT_DBG/$d/blk_stale ] || { nok "nfit_test has no blk_stale knob"; exit 0; }
nt_knobs_reset $d
nt_knob $d blk_stale 0
N=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((1 * MiB)) blk-rf) || exit 0
expect_eq "bind ${N##*/}" "$(ns_w $BLK_BIND ${N##*/})" ok
nd_settle
dev=/dev/$(nt_blockdev $N)
check "$dev: pattern 7801" nvt-pattern write $dev 0 1M 7801
nvt-pattern gen 7801 1M > /tmp/rf.want
dd if=/tmp/rf.want of=/tmp/rf.s3 bs=4K skip=3 count=1 2> /dev/null
dd if=/tmp/rf.want of=/tmp/rf.s7 bs=4K skip=7 count=1 2> /dev/null

# reenable FLAGS: the region again, its DIMM answering the flags command
# with FLAGS, or ENOTTY ("none"); the flags are read at enable
reenable() {
	echo ${R##*/} > $R/driver/unbind
	if [ $1 = none ]; then
		nt_knob $d fail_errno 25
		nt_knob $d fail_cmds 0x8
	else
		nt_knob $d fail_cmds 0
		nt_knob $d fail_errno 0
		nt_knob $d blk_flags $1
	fi
	expect_eq "enable ${R##*/}, flags command: $1" \
		"$(ns_w /sys/bus/nd/drivers/nd_region/bind ${R##*/})" ok
	nd_settle
	dev=/dev/$(nt_blockdev $N)
}

# stale_case STALE: on the enabled region, sector 3 written (the window's
# lines are now sector 3's), then sector 7 and the whole namespace read
# with O_DIRECT; prints "<sector 7: ok|s3|other> <whole: ok|bad>
# <invalidations>"
stale_case() {
	local i0 s7 all
	nt_knob $d blk_stale $1
	i0=$(nt_knob $d blk_invalidates)
	dd if=/tmp/rf.s3 of=$dev bs=4K seek=3 count=1 oflag=direct 2> /dev/null
	dd if=$dev of=/tmp/rf.got bs=4K skip=7 count=1 iflag=direct 2> /dev/null
	if cmp -s /tmp/rf.got /tmp/rf.s7; then
		s7=ok
	elif cmp -s /tmp/rf.got /tmp/rf.s3; then
		s7=s3
	else
		s7=other
	fi
	dd if=$dev of=/tmp/rf.all bs=64K count=16 iflag=direct 2> /dev/null
	cmp -s /tmp/rf.all /tmp/rf.want && all=ok || all=bad
	nt_knob $d blk_stale 0
	echo "$s7 $all $(($(nt_knob $d blk_invalidates) - i0))"
}

# expect_case FLAGS STALE WANT DESC: the region enabled with FLAGS, one
# stale_case STALE; WANT is "<sector 7> <whole> <invalidating|none>"
expect_case() {
	local got n
	reenable $1
	got=$(stale_case $2)
	n=${got##* }
	[ "$n" -gt 0 ] && n=invalidating || n=none
	expect_eq "flags $1, blk_stale $2: $4 ($got)" "${got% *} $n" "$3"
}

expect_case none 1 "ok ok invalidating" "not reported: LATCH|READ_FLUSH, reads right"
expect_case 0x3 1 "ok ok invalidating" "LATCH|READ_FLUSH reported: reads right"
expect_case 0x2 1 "s3 bad none" "LATCH alone believed: sector 7 reads sector 3's lines"
expect_case 0x2 0 "ok ok none" "coherent aperture: right without invalidations"

reenable 0x2
check "$dev: pattern intact" nvt-pattern verify $dev 0 1M 7801
blk_delete $N
nt_knobs_reset $d
