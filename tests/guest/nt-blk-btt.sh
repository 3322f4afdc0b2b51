# nt-blk-btt: a BTT over a BLK namespace (its rw_bytes through the block
# windows): DIMM 0x0's BLK region (range 7, blank labels) gets a 20 MiB
# namespace claimed by the region's btt seed, bound by nd_blk as
# /dev/ndblkR.Ns; data written through it is read back, found again when
# the namespace is re-enabled (autodetect: a btt claims it at enable) and
# after the region is disabled and enabled; then the power cuts of
# btt-powercut run once over it (nvt-powercut, nfit_test_powercut), in
# program order and reordered within each fence epoch (-r).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"
. "$(dirname "$0")/blk.inc"

nd_settle
nt_debugfs
b0=$(nt_bus 0) || { nok "no nfit_test.0 bus"; exit 0; }
d=$(nt_dimm 0 0x0)
R=$b0/$(nt_region 0 7)
[ -n "$d" ] && [ -d $R ] || { nok "no DIMM 0x0 or no BLK region (range 7)"; exit 0; }
nt_blank_labels 0 $d $(nt_dimm 0 0x1) $(nt_dimm 0 0x100) $(nt_dimm 0 0x101)
echo 0 > $R/read_only

N=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((20 * MiB)) blk-btt) || exit 0
n=${N##*/}
bt=$(btt_seed_dir $R)
[ -n "$bt" ] || { nok "${R##*/}: no btt seed"; exit 0; }
u=$(cat /proc/sys/kernel/random/uuid)
expect_eq "${bt##*/}: uuid, sector_size 4096, namespace $n, bind (nd_blk)" \
	"$(ns_w $bt/uuid $u) $(ns_w $bt/sector_size 4096) $(ns_w $bt/namespace $n) $(ns_w $BLK_BIND ${bt##*/})" \
	"ok ok ok ok"
nd_settle
disk=$(btt_disk $bt)
expect_eq "${bt##*/}: block device, driver" "$disk $(ns_driver $bt)" "ndblk${R##*region}.${n##*.}s nd_blk"
[ -b /dev/$disk ] || { nok "/dev/$disk missing"; exit 0; }
expect_eq "$n: holder, mode" "$(cat $N/holder) $(cat $N/mode)" "${bt##*/} safe"
sz=$(blockdev --getsize64 /dev/$disk)
check "/dev/$disk: pattern 7601 over $sz bytes" nvt-pattern write /dev/$disk 0 $sz 7601
check "/dev/$disk: read back" nvt-pattern verify /dev/$disk 0 $sz 7601

# autodetect: released, the namespace finds its BTT when enabled
btt_release $bt
dmark
expect_eq "enable $n (a BTT on it)" "$(ns_w $BLK_BIND $n)" "No such device or address"
nd_settle
ab=$(btt_of $N)
if [ -n "$ab" ]; then
	ok "$n: claimed by ${ab##*/} at enable"
	check "/dev/$(btt_disk $ab): data after autodetect" nvt-pattern verify /dev/$(btt_disk $ab) 0 $sz 7601
else
	nok "$n: no btt claimed it at enable: $(dsince | grep -E "$n|btt" | tail -n 3 | tr '\n' '|')"
fi
echo 1 > $R/read_only
expect_eq "/sys/block/$(btt_disk $ab)/ro with ${R##*/} read_only 1" "$(cat /sys/block/$(btt_disk $ab)/ro 2>&1)" 1
echo 0 > $R/read_only
expect_eq "/sys/block/$(btt_disk $ab)/ro with read_only 0" "$(cat /sys/block/$(btt_disk $ab)/ro 2>&1)" 0
nt_regions_unbind 0
nt_regions_bind 0
ab=$(btt_of $N)
[ -n "$ab" ] && check "after a region disable/enable: /dev/$(btt_disk $ab) data" \
	nvt-pattern verify /dev/$(btt_disk $ab) 0 $sz 7601 ||
	nok "$n: no btt after the region came back"

# power cuts over the BLK BTT: every media store is an aperture write
if [ -n "$ab" ] && [ -d /sys/module/nfit_test_powercut ]; then
	t0=$(date +%s)
	nvt-powercut $ab 1 nd_blk > /tmp/pc.out 2>&1
	rc=$?
	line=$(grep '^cuts:' /tmp/pc.out)
	cuts=$(echo "$line" | awk '{ print $2 }')
	if [ $rc = 0 ] && [ -n "$cuts" ] && [ $cuts -ge 100 ]; then
		ok "BTT on BLK: $line ($(($(date +%s) - t0)) s)"
	else
		nok "BTT on BLK power cuts: exit $rc, '$line' $(tail -n 3 /tmp/pc.out | tr '\n' '|')"
	fi
	# and reordered within each fence epoch (docs/btt.md "Power cuts")
	t0=$(date +%s)
	nvt-powercut -r $ab 1 nd_blk > /tmp/pc.out 2>&1
	rc=$?
	line=$(grep '^states:' /tmp/pc.out)
	states=$(echo "$line" | awk '{ print $2 }')
	if [ $rc = 0 ] && [ -n "$states" ] && [ $states -ge 90 ]; then
		ok "BTT on BLK, reordered power cuts: $line ($(($(date +%s) - t0)) s)"
	else
		nok "BTT on BLK, reordered power cuts: exit $rc, '$line' $(tail -n 3 /tmp/pc.out | tr '\n' '|')"
	fi
else
	nok "no btt or no nfit_test_powercut for the BLK power cuts"
fi
[ -n "$ab" ] && btt_release $ab
blk_delete $N
