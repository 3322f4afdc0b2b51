# nt-load-cycles: load/unload cycles of the test build on nfit_test, each
# unload with namespaces in every mode the mock platform holds (issue 14
# item 3): PMEM raw, sector (btt) and fsdax (pfn), BLK raw and sector, and
# nfit_test.1's label-less raw namespace.  (devdax needs system memory,
# which a mock range is not: dax_pmem refuses it, pfn-nt checks that; the
# dax-tq and dax-ours-2 boots unload with a devdax namespace on QEMU's
# NVDIMMs.)  The mock's media and label areas go with nfit_test, so every
# cycle makes its namespaces again.  NVT_LOAD_CYCLES cycles (default 5)
# of: nfit_test nd_pmem nd_blk nd_btt dax_pmem loaded, the namespaces made
# (uuid, mode, size as asked), a seeded block written to each and read
# back, every nd module unloaded, nothing of the bus and no device node
# left.  Afterwards the vmalloc'ed memory did not grow by a mock object, and (debug
# kernel) a kmemleak scan pair finds nothing.  MemFree and SUnreclaim per
# cycle are reported.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/stress.inc"

CYCLES=${NVT_LOAD_CYCLES:-5}
LOAD="nfit_test nd_pmem nd_blk nd_btt dax_pmem"
W=/tmp/lc
rm -rf $W
mkdir -p $W

# "MemFree SUnreclaim VmallocUsed" (kB) with the page cache dropped
mem_now() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk '$1 == "MemFree:" { f = $2 } $1 == "SUnreclaim:" { s = $2 }
		$1 == "VmallocUsed:" { v = $2 } END { print f, s, v }' /proc/meminfo
}

# load_all: the modules loaded, the platform's names looked up (nothing
# printed; returns 1 with the reason in $W/load)
load_all() {
	local m
	for m in $LOAD; do
		modprobe $m 2> $W/load || return 1
	done
	nd_settle
	P1=$(nt_region 0 1) && P2=$(nt_region 0 2) && B9=$(nt_region 0 9) &&
		B10=$(nt_region 0 10) && nt_bus 1 > /dev/null ||
		{ echo "nfit_test.0/1 regions not found" > $W/load; return 1; }
	# nfit_test.1's DIMM is not armed: its region comes up read-only
	for r in $(nt_bus 1)/region*; do echo 0 > $r/read_only; done
	ST_TABLE="sector:$P1:pmem:sector:32M:57e55000-1c00-4000-8000-000000000001
raw:$P2:pmem:raw:16M:57e55000-1c00-4000-8000-000000000002
fsdax:$P2:pmem:fsdax:16M:57e55000-1c00-4000-8000-000000000003
blk:$B9:blk:raw:4M:57e55000-1c00-4000-8000-000000000004
blks:$B10:blk:sector:17M:57e55000-1c00-4000-8000-000000000005"
}
ST_TAGS="sector raw fsdax blk blks io"
WANT=" sector:safe:pmems:$((32 * MiB)) raw:raw:pmem:$((16 * MiB)) fsdax:memory:pmem:$((16 * MiB)) blk:raw:ndblk:$((4 * MiB)) blks:safe:ndblks:$((17 * MiB)) io:raw:pmem:$((32 * MiB))"

# pattern_io SEED: a seeded 4 KiB block at 64 KiB of every namespace, read
# back; prints the tags where that failed
pattern_io() {
	local t d b
	for t in $ST_TAGS; do
		d=$(st_dir $t)
		b=$([ -n "$d" ] && bdev_of $d)
		{ [ -n "$b" ] && nvt-pattern wsync /dev/$b 65536 4096 $1 &&
			nvt-pattern verify /dev/$b 65536 4096 $1; } > /dev/null 2>&1 ||
			printf ' %s' $t
	done
}

# a clean start: nothing loaded
nd_settle
platform_unload > $W/unload 2>&1 || { nok "unload before the cycles: $(cat $W/unload)"; exit 0; }

f_load='' f_make='' f_state='' f_io='' f_unload='' f_left='' m2=
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	load_all || { f_load="$f_load $i:$(cat $W/load)"; break; }
	st_sysfs $W || f_make="$f_make $i:[$(tr '\n' ' ' < $W/create.fail)]"
	s=$(st_state)
	[ "$s" = "$WANT" ] || f_state="$f_state $i:[$s]"
	s=$(pattern_io $((0x1c0000 + i)))
	[ -z "$s" ] || f_io="$f_io $i:[$s]"
	if ! platform_unload > $W/unload 2>&1; then
		f_unload="$f_unload $i:$(tr '\n' ' ' < $W/unload)"
		break
	fi
	left=$(ls -d /sys/bus/nd /dev/pmem* /dev/ndblk* /dev/nmem* /dev/ndctl* \
		/sys/devices/platform/nfit_test.* 2> /dev/null | tr '\n' ' ')
	[ -z "$left" ] || f_left="$f_left $i:[$left]"
	# after two cycles, what loading allocates once is allocated
	[ $i = 2 ] && m2=$(mem_now)
done
t1=$(cut -d' ' -f1 /proc/uptime)
diag "$i cycles in $t0 -> $t1 s"
expect_eq "cycles completed" $i $CYCLES
# verdict FAILURES OK-TEXT NOK-TEXT: ok when no cycle failed
verdict() {
	if [ -z "$1" ]; then
		ok "$2"
	else
		nok "$3:$(echo $1 | head -c 600)"
	fi
}
verdict "$f_load" "$i x modprobe $LOAD" "load failed"
verdict "$f_make$f_state" \
	"namespaces made in every mode after each of $i loads (tag:mode:block device kind:size)" \
	"namespaces not as asked (want:$WANT)"
verdict "$f_io" "a block written and read back on each, every cycle" "I/O failed"
verdict "$f_unload" "$i x every nd module unloaded with the namespaces enabled" "unload failed"
verdict "$f_left" "nothing of the bus, no device node left after each unload" "left after unload"

# memory: unloaded after the last cycle, against cycle 2's unloaded state
if [ -n "$m2" ] && [ $i -gt 2 ]; then
	mN=$(mem_now)
	set -- $m2 $mN
	n=$((i - 2))
	diag "unloaded: MemFree SUnreclaim VmallocUsed (kB) after cycle 2: $m2, after $i: $mN;" \
		"per cycle: MemFree $(( ($4 - $1) / n )) kB, SUnreclaim $(( ($5 - $2) / n )) kB, VmallocUsed $(( ($6 - $3) / n )) kB"
	# one cycle's smallest vmalloc'ed mock object is a 128 KiB label
	# area: the bound is half of that per cycle, plus 64 kB for vmap
	# areas freed lazily (module loading leaves a few kB per cycle, the
	# debug kernel ~10, Debian's ~2, but one interval measured 32 kB)
	[ $(($6 - $3)) -lt $((64 * n + 64)) ] &&
		ok "VmallocUsed grew less than 64 kB per cycle + 64 kB over $n cycles ($(($6 - $3)) kB)" ||
		nok "VmallocUsed grew by $(($6 - $3)) kB over $n cycles (bound $((64 * n + 64)) kB)"
fi

# back as the boot left it (the next tests expect the platform), then
# kmemleak: the objects of the cycles, with the modules loaded again
for m in $(platform_modules); do modprobe $m; done
nd_settle
if [ -e /sys/kernel/debug/kmemleak ]; then
	nd_syms_save
	# the cycles ended at $t1: their objects age while the modules reload
	kmemleak_check "after $i load cycles" kmemleak-cycles.txt $t1
else
	skip "kmemleak after the cycles" "no /sys/kernel/debug/kmemleak (not the debug kernel of make check-debug)"
fi
