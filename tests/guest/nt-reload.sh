# nt-reload: 20 load/unload cycles of the test modules on the nfit_test
# platform.  After rmmod nfit_test nothing is left on the nd bus, after
# rmmod of the rest no module, bus, device node or mock range is left,
# every reload brings back the same devices, no warning is logged, and
# no memory is lost (160 MiB of mock media come and go every cycle).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

CYCLES=${NVT_NT_CYCLES:-20}
TEST_MODS="dax_pmem nd_pmem nd_blk nd_btt nfit_test_powercut nfit_test nfit libnvdimm nfit_test_iomap"
nd_settle
nt_debugfs
# btt, pfn and dax ids are not reused within a load (btt-nt and pfn-nt
# moved the seeds on): a reload numbers them from 0 again, so only their
# count is compared.  (dax_pmem, loaded by pfn-nt, goes in the first
# cycle: nothing loads it again.)
nd_devices() {
	ls /sys/bus/nd/devices | sed -E 's/^((btt|pfn|dax)[0-9]*)\.[0-9]+$/\1.N/' | sort | tr '\n' ' '
}
before=$(nd_devices)
diag "devices: $before"
warn0=$(dmesg | grep -Ec "$NVT_DMESG_BAD")

# "MemFree VmallocUsed SUnreclaim" in kB, caches dropped.  MemFree moves
# by tens of MiB between identical states (per-CPU page lists), but one
# cycle's media is 160 MiB; the label areas and mock registers are
# vmalloc'ed, VmallocUsed is exact to a few pages.
meminfo() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^(MemFree|VmallocUsed|SUnreclaim):/ { v[$1] = $2 }
		END { print v["MemFree:"], v["VmallocUsed:"], v["SUnreclaim:"] }' /proc/meminfo
}

fail_rmmod='' fail_left='' fail_gone='' fail_load='' fail_same=''
mem0=
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	if ! rmmod nfit_test 2> /tmp/ntr.err; then
		fail_rmmod="$fail_rmmod $i:nfit_test:$(cat /tmp/ntr.err)"
		break
	fi
	left=$(ls /sys/bus/nd/devices 2> /dev/null | tr '\n' ' ')
	[ -z "$left" ] || fail_left="$fail_left $i:[$left]"
	for m in $TEST_MODS; do
		grep -q "^$m " /proc/modules || continue
		rmmod $m 2> /tmp/ntr.err || fail_rmmod="$fail_rmmod $i:$m:$(cat /tmp/ntr.err)"
	done
	[ -n "$fail_rmmod" ] && break
	gone=$(ls -d /sys/bus/nd /sys/kernel/debug/nfit_test /sys/kernel/debug/nfit_test_iomap \
		/dev/pmem* /dev/nmem* /dev/ndctl* /sys/devices/platform/nfit_test.* 2> /dev/null | tr '\n' ' ')
	[ -z "$gone" ] || fail_gone="$fail_gone $i:[$gone]"
	# the first cycle warms up what module loading allocates once
	[ $i = 2 ] && mem0=$(meminfo)
	if ! platform_load > /tmp/ntr.err 2>&1; then
		fail_load="$fail_load $i:$(cat /tmp/ntr.err | tr '\n' ' ') pmem=$(pmem_count)"
		break
	fi
	nd_settle
	after=$(nd_devices)
	[ "$after" = "$before" ] || fail_same="$fail_same $i:[$after]"
done
t1=$(cut -d' ' -f1 /proc/uptime)
diag "$i cycles in $t0 -> $t1 s"

[ -z "$fail_rmmod" ] && ok "$CYCLES x rmmod of $TEST_MODS" || nok "rmmod failed:$fail_rmmod"
[ -z "$fail_left" ] && ok "/sys/bus/nd/devices empty after rmmod nfit_test ($i cycles)" ||
	nok "devices left after rmmod nfit_test:$fail_left"
[ -z "$fail_gone" ] && ok "no bus, node, platform device or debugfs left after rmmod of all ($i cycles)" ||
	nok "left after rmmod:$fail_gone"
[ -z "$fail_load" ] && ok "modprobe $(platform_modules | tr ' ' '+') brought everything back ($i cycles)" ||
	nok "reload failed:$fail_load"
[ -z "$fail_same" ] && ok "same $(echo $before | wc -w) nd devices after every reload" ||
	nok "devices differ after reload:$fail_same (before: $before)"

# memory: unload once more and compare with cycle 2's unloaded state
if [ -n "$mem0" ]; then
	for m in $TEST_MODS; do
		grep -q "^$m " /proc/modules && rmmod $m
	done
	mem1=$(meminfo)
	platform_load > /dev/null 2>&1 || nok "final reload failed"
	set -- $mem0 $mem1
	diag "modules unloaded, MemFree VmallocUsed SUnreclaim (kB): cycle 2: $mem0, after $i cycles: $mem1"
	lost=$((($1 - $4) / 1024)) vm=$(($5 - $2)) slab=$(($6 - $3))
	what="MemFree $((-lost)) MiB, VmallocUsed $vm kB, SUnreclaim $slab kB"
	[ $lost -lt 64 ] && [ $vm -lt 256 ] &&
		ok "no memory lost over $((i - 2)) cycles (changes: $what)" ||
		nok "memory lost over $((i - 2)) cycles: $what"
fi
warn1=$(dmesg | grep -Ec "$NVT_DMESG_BAD")
[ "$warn1" = "$warn0" ] && ok "no kernel warning during the cycles" || {
	nok "$((warn1 - warn0)) new kernel warning line(s) during the cycles"
	dmesg | grep -E "$NVT_DMESG_BAD" | tail -n 10 | sed 's/^/#   /'
}
