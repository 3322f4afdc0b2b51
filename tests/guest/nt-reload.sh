# nt-reload: 20 load/unload cycles of the test modules on the nfit_test
# platform.  After rmmod nfit_test nothing is left on the nd bus, after
# rmmod of the rest no module, bus, device node or mock range is left,
# every reload brings back the same devices, no warning is logged, and
# no memory is lost (160 MiB of mock media come and go every cycle).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

CYCLES=${NVT_NT_CYCLES:-20}
TEST_MODS="dax_pmem device_dax nd_pmem nd_blk nd_btt nfit_test_powercut nfit_test nfit libnvdimm nfit_test_iomap"
nd_settle
nt_debugfs
# btt, pfn and dax ids are not reused within a load (btt-nt and pfn-nt
# moved the seeds on): a reload numbers them from 0 again, so only their
# count is compared.  (dax_pmem and the test build's device_dax, which
# needs nfit_test_iomap, loaded by pfn-nt, go in the first cycle: nothing
# loads them again.)
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
#
# Memory is sampled with the modules unloaded after every cycle from the
# second on (the first warms up what loading allocates once).  A leak
# repeats every cycle, so each interval between two samples loses at
# least the leak: the loss per cycle is the smallest loss of any interval,
# which a one-off (a cache that grows once, the debug kernel's KASAN
# quarantine filling up) does not move.  Limits per cycle, each well
# below what a cycle allocates: MemFree 64 MiB (the media: 160 MiB),
# VmallocUsed 64 kB (one label area: 128 kB), SUnreclaim 64 kB (the nd
# devices, DIMM data and namespace labels of a cycle: several hundred kB).
LIM_FREE=65536 LIM_VM=64 LIM_SLAB=64
meminfo() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^(MemFree|VmallocUsed|SUnreclaim):/ { v[$1] = $2 }
		END { print v["MemFree:"], v["VmallocUsed:"], v["SUnreclaim:"] }' /proc/meminfo
}

fail_rmmod='' fail_left='' fail_gone='' fail_load='' fail_same=''
: > /tmp/ntr.mem
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
	[ $i -ge 2 ] && echo "$i $(meminfo)" >> /tmp/ntr.mem
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

# memory: unload once more for the last sample
for m in $TEST_MODS; do
	grep -q "^$m " /proc/modules && rmmod $m
done
[ -s /tmp/ntr.mem ] && echo "end $(meminfo)" >> /tmp/ntr.mem
platform_load > /dev/null 2>&1 || nok "final reload failed"
cp /tmp/ntr.mem $NVT_OUT/nt-reload-mem.txt
# per interval: kB lost (MemFree) or gained (VmallocUsed, SUnreclaim);
# the smallest of each over all intervals, and the totals
set -- $(awk 'NR > 1 { f = pf - $2; v = $3 - pv; s = $4 - ps
		if (n == 0 || f < mf) mf = f
		if (n == 0 || v < mv) mv = v
		if (n == 0 || s < ms) ms = s
		n++ }
	NR == 1 { f0 = $2; v0 = $3; s0 = $4 }
	{ pf = $2; pv = $3; ps = $4 }
	END { print n + 0, mf + 0, mv + 0, ms + 0, f0 - pf, pv - v0, ps - s0 }' /tmp/ntr.mem)
n=$1 mf=$2 mv=$3 ms=$4
diag "modules unloaded, cycle MemFree VmallocUsed SUnreclaim (kB): $(tr '\n' ';' < /tmp/ntr.mem)"
what="least change of a cycle: MemFree lost $mf kB, VmallocUsed grew $mv kB, SUnreclaim grew $ms kB; over all $n: MemFree lost $5 kB, VmallocUsed grew $6 kB, SUnreclaim grew $7 kB"
if [ $n -lt 1 ]; then
	nok "memory: no interval sampled ($i cycles, $(wc -l < /tmp/ntr.mem) samples)"
else
	[ $mf -lt $LIM_FREE ] &&
		ok "no MemFree lost per cycle over $n cycles (limit $LIM_FREE kB; $what)" ||
		nok "MemFree lost every cycle over $n cycles (limit $LIM_FREE kB): $what"
	# The debug kernel (kmemleak and KASAN, docs/debug-tier.md) keeps
	# freed slab objects in KASAN's quarantine (up to 1/32 of RAM) and
	# vmalloc shadow until a lazy purge: its SUnreclaim and VmallocUsed
	# grow for many cycles without a leak (3 cycles measured: +196 and
	# +804 kB of slab, kmemleak clean after the unload).  There
	# kmemleak, which names every unreferenced object, checks for leaks.
	if [ -e /sys/kernel/debug/kmemleak ]; then
		skip "no slab or vmalloc lost per cycle ($what)" \
			"debug kernel (kmemleak present): KASAN's quarantine holds freed objects, kmemleak checks leaks after the unload"
	elif [ $mv -lt $LIM_VM ] && [ $ms -lt $LIM_SLAB ]; then
		ok "no slab or vmalloc lost per cycle over $n cycles (limits VmallocUsed $LIM_VM, SUnreclaim $LIM_SLAB kB)"
	else
		nok "slab or vmalloc lost every cycle over $n cycles (limits VmallocUsed $LIM_VM, SUnreclaim $LIM_SLAB kB): $what"
	fi
fi
warn1=$(dmesg | grep -Ec "$NVT_DMESG_BAD")
[ "$warn1" = "$warn0" ] && ok "no kernel warning during the cycles" || {
	nok "$((warn1 - warn0)) new kernel warning line(s) during the cycles"
	dmesg | grep -E "$NVT_DMESG_BAD" | tail -n 10 | sed 's/^/#   /'
}
