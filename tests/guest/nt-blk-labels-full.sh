# nt-blk-labels-full: a BLK label area filled to its last slot (issue 26
# item 15).  On nfit_test.0's BLK region of DIMM 0x0 (128 KiB label area,
# v1.1 labels), four BLK namespaces of 4 KiB are grown round-robin 4 KiB
# at a time: every grow adds one extent, so one label.  Each update must
# be taken, available_slots must drop by exactly one per update (it counts
# what a namespace can still take) until it reaches 0, and then:
#   - a grow that needs one more label is refused (ENOSPC), nothing changed
#   - the namespace updated last grows once more in place: its last
#     extent's label is replaced through the kernel's reserved slot
#   - the labels read back from the media (DIMM rebound) give the same
#     four namespaces; a fragmented one is bound by nd_blk, carries data
#   - three deleted, a 4 MiB namespace made of their holes binds and
#     carries data
# docs/namespaces.md, "Label slots".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/blk.inc"

blk_setup 0x0 7 || exit 0
S=$b0/$d/available_slots
K=4096

# a namespace bound once (the seed advances), then unbound: configurable
_rd s0 $S
ns_phase "$d: $s0 slots available on a blank area"
NSS=
for i in 1 2 3 4; do
	N=$(blk_create $R b1f00000-0000-4000-8000-00000000000$i 512 $K full$i) || exit 0
	echo ${N##*/} > $BLK_BIND
	nd_settle
	echo ${N##*/} > $BLK_UNBIND
	NSS="$NSS $N"
done
_rd s1 $S
expect_eq "four 4 KiB namespaces take four slots" "$s1" $((s0 - 4))

# --- round-robin growth until available_slots is 0 ---------------------------
ns_phase "grow loop"
updates=0 bad= fail= k=1 last=
while [ -z "$fail" ]; do
	k=$((k + 1))
	i=0
	for N in $NSS; do
		i=$((i + 1))
		_rd a $S
		[ "$a" = 0 ] && break 2
		if ! echo $((k * K)) > $N/size 2> /tmp/full.err; then
			_rd cur $N/size
			fail="${N##*/} from $(ns_hex $cur) to $(ns_hex $((k * K))): $(sed 's/.*: //' /tmp/full.err), available_slots $a"
			break
		fi
		updates=$((updates + 1))
		last=$N
		_rd b $S
		[ $((a - b)) = 1 ] || bad="$bad ${N##*/}@$k:$a->$b"
	done
done
ns_phase "grow loop done: $updates updates"
if [ -n "$fail" ]; then
	nok "grow $updates+1 refused: $fail"
	dmesg | grep -i 'label' | tail -n 3 | sed 's/^/#   /'
	exit 0
fi
ok "$updates grows taken, one label each, until available_slots is 0"
expect_eq "every grow took exactly one slot" "${bad:-none}" none
expect_eq "labels: 4 namespaces + $updates grows fill the $s0 available slots" \
	$((4 + updates)) $s0
_rd lsz $last/size
_rd lext $last/dpa_extents
diag "last updated: ${last##*/}, $(ns_hex $lsz) in $lext extents"

# --- at available_slots 0 -------------------------------------------------------
for N in $NSS; do
	[ $N = $last ] && continue
	_rd sz $N/size
	expect_eq "${N##*/}: a grow needing a new label is refused" \
		"$(ns_w $N/size $((sz + K)))" "No space left on device"
	expect_eq "${N##*/}: size and available_slots unchanged" \
		"$(ns_rd $N/size) $(ns_rd $S)" "$sz 0"
	break
done
expect_eq "${last##*/}: grows in place through the reserved slot" \
	"$(ns_w $last/size $((lsz + K)))" ok
expect_eq "${last##*/}: size, extents, available_slots" \
	"$(ns_rd $last/size) $(ns_rd $last/dpa_extents) $(ns_rd $S)" \
	"$((lsz + K)) $lext 0"
expect_eq "${last##*/}: shrinks back" "$(ns_w $last/size $lsz)" ok

# --- the labels on the media ------------------------------------------------------
want=
for N in $NSS; do
	want="$want $(ns_state $N)"
done
nt_regions_unbind 0
echo $d > /sys/bus/nd/drivers/nvdimm/unbind
echo $d > /sys/bus/nd/drivers/nvdimm/bind
nt_regions_bind 0
got=
for i in 1 2 3 4; do
	got="$got $(ns_state $(ns_named full$i))"
done
expect_eq "the four namespaces read back from the media" "$got" "$want"
expect_eq "available_slots read back" "$(ns_rd $S)" 0

# assembled from labels at region enable, so bound by nd_blk already
N=$(ns_named full1)
sz=$(ns_rd $N/size)
[ -e $N/driver ] || echo ${N##*/} > $BLK_BIND
nd_settle
expect_eq "${N##*/} ($(ns_rd $N/dpa_extents) extents): bound to nd_blk" \
	"$(ns_driver $N)" nd_blk
disk=$(nt_blockdev $N)
if [ -b "/dev/$disk" ]; then
	check "/dev/$disk: pattern 7801 written" nvt-pattern write /dev/$disk 0 $sz 7801
	check "/dev/$disk: pattern 7801 read back" nvt-pattern verify /dev/$disk 0 $sz 7801
	echo ${N##*/} > $BLK_UNBIND
else
	nok "${N##*/}: no block device"
fi

# --- a 4 MiB namespace in the holes of three -----------------------------------
for i in 1 2 3; do
	blk_delete $(ns_named full$i)
done
N=$(blk_create $R b1f00000-0000-4000-8000-000000000005 512 $((4 * MiB)) full5) || exit 0
diag "${N##*/}: 4 MiB in $(ns_rd $N/dpa_extents) extents, available_slots $(ns_rd $S)"
expect_eq "${N##*/} (4 MiB): bind to nd_blk" "$(ns_w $BLK_BIND ${N##*/})" ok
nd_settle
disk=$(nt_blockdev $N)
if [ -b "/dev/$disk" ]; then
	check "/dev/$disk: pattern 7802 written" nvt-pattern write /dev/$disk 0 4M 7802
	check "/dev/$disk: pattern 7802 read back" nvt-pattern verify /dev/$disk 0 4M 7802
else
	nok "${N##*/}: no block device"
fi
blk_delete $N
blk_delete $(ns_named full4)
ns_phase "done"
