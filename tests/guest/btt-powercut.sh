# btt-powercut: power cuts enumerated over BTT writes (test build,
# nfit_test_powercut.ko): nfit_test.1's namespace gets a 4096-byte BTT
# and then a 512-byte one; nvt-powercut cuts after every media store of
# each of its write sequences (two lanes, overwrites, multi-block writes),
# re-attaches from the media and checks that every block holds one whole
# pattern and that the visible writes are exactly those whose flog entry
# was persisted.  PASSES_4K / PASSES_512 set how often (btt-soak: many).
# Then the reordering model (nvt-powercut -r, RPASSES_4K / RPASSES_512
# passes of about 95 states): within a fence epoch any subset of the
# stores persisted; and (4096 only) each store of a block write failing
# in turn, its bytes landed or lost (nvt-powercut -f); and read_only
# flipped 0/1 under writes on every CPU (nvt-powercut -R, RO_FLIPS).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"

: ${PASSES_4K:=2} ${PASSES_512:=1} ${RPASSES_4K:=2} ${RPASSES_512:=1}
rtotal=0
nd_settle
b1=$(nt_bus 1)
r=$(ls -d $b1/region* 2> /dev/null | head -n 1)
ns=$(ls -d $r/namespace* 2> /dev/null | head -n 1)
n=${ns##*/}
if [ -z "$ns" ] || [ ! -d /sys/module/nfit_test_powercut ]; then
	nok "no nfit_test.1 namespace or no nfit_test_powercut module"
	exit 0
fi
echo 0 > $r/read_only
bind=/sys/bus/nd/drivers/nd_pmem/bind
unbind=/sys/bus/nd/drivers/nd_pmem/unbind

# wipe_btt: zero the first 8 KiB of the namespace through its raw disk
wipe_btt() {
	echo 1 > $ns/force_raw
	echo $n > $bind
	nd_settle
	dd if=/dev/zero of=/dev/$(nt_blockdev $ns) bs=4096 count=2 conv=notrunc 2> /dev/null
	sync
	echo $n > $unbind
	echo 0 > $ns/force_raw
}

total=0
for cfg in 4096:$PASSES_4K 512:$PASSES_512; do
	ss=${cfg%%:*} passes=${cfg#*:}
	[ $passes -gt 0 ] || continue
	[ -e $ns/driver ] && echo $n > $unbind
	wipe_btt
	bt=$(btt_seed_dir $r)
	expect_eq "${bt##*/}: a $ss-byte btt on $n" \
		"$(ns_w $bt/uuid $(cat /proc/sys/kernel/random/uuid)) $(ns_w $bt/sector_size $ss) $(ns_w $bt/namespace $n) $(ns_w $bind ${bt##*/})" \
		"ok ok ok ok"
	nd_settle
	t0=$(date +%s)
	nvt-powercut $bt $passes > /tmp/pc.out 2>&1
	rc=$?
	t1=$(date +%s)
	grep '^#' /tmp/pc.out | head -n 40
	line=$(grep '^cuts:' /tmp/pc.out)
	cuts=$(echo "$line" | awk '{ print $2 }')
	if [ $rc = 0 ] && [ -n "$cuts" ] && [ $cuts -ge $((100 * passes)) ]; then
		ok "$ss-byte BTT: $line ($((t1 - t0)) s)"
	else
		nok "$ss-byte BTT: exit $rc, '$line' $(tail -n 3 /tmp/pc.out | tr '\n' '|')"
	fi
	total=$((total + ${cuts:-0}))
	# the reordering model: every subset of a fence epoch's stores
	rp=$(eval echo \$RPASSES_$( [ $ss = 4096 ] && echo 4K || echo 512 ))
	t0=$(date +%s)
	nvt-powercut -r $bt $rp > /tmp/pc.out 2>&1
	rc=$?
	t1=$(date +%s)
	grep '^#' /tmp/pc.out | head -n 40
	line=$(grep '^states:' /tmp/pc.out)
	states=$(echo "$line" | awk '{ print $2 }')
	if [ $rc = 0 ] && [ -n "$states" ] && [ $states -ge $((90 * rp)) ]; then
		ok "$ss-byte BTT, reordered power cuts: $line ($((t1 - t0)) s)"
	else
		nok "$ss-byte BTT, reordered power cuts: exit $rc, '$line' $(tail -n 3 /tmp/pc.out | tr '\n' '|')"
	fi
	rtotal=$((rtotal + ${states:-0}))
	if [ $ss = 4096 ]; then
		# stores failing in the middle of a block write
		nvt-powercut -f $bt 1 > /tmp/pc.out 2>&1
		rc=$?
		grep '^#' /tmp/pc.out
		line=$(grep '^fault cases:' /tmp/pc.out)
		if [ $rc = 0 ] && [ "$(echo "$line" | awk '{ print $3 }')" = 8 ]; then
			ok "$ss-byte BTT: a failed store leaves every write all or nothing: $line"
		else
			nok "$ss-byte BTT, failed stores: exit $rc, '$line' $(tail -n 3 /tmp/pc.out | tr '\n' '|')"
		fi
		# read_only flipped under writes on every CPU (the race needs
		# two or more: NVT_SMP=2)
		nvt-powercut -R $bt ${RO_FLIPS:-300} > /tmp/pc.out 2>&1
		rc=$?
		grep '^#' /tmp/pc.out
		line=$(grep '^read_only flips:' /tmp/pc.out)
		if [ $rc = 0 ] && [ -n "$line" ]; then
			ok "$ss-byte BTT: $line ($(nproc) CPUs)"
		else
			nok "$ss-byte BTT, read_only flips under writes: exit $rc, '$line' $(tail -n 3 /tmp/pc.out | tr '\n' '|')"
		fi
	fi
	btt_release $bt
done
diag "power cuts enumerated: $total in program order, $rtotal reordered"
# leave the namespace raw and its region read-only, as found
wipe_btt
echo $n > $bind
nd_settle
expect_eq "$n raw again after the power-cut runs" "$(ns_driver $ns) $(ns_rd $ns/holder)" "nd_pmem -"
echo 1 > $r/read_only
