# nt-topo61: nfit_test loaded with topology=6.1 (docs/nfit_test.md,
# "The 6.1 topology"): Linux 6.1's mock platform, the one ndctl v76.1's
# test suite expects.  The facts checked come from 6.1's
# tools/testing/nvdimm/test/nfit.c; the three interleave-set cookies are
# the ones upstream's 6.1 mock shows (set upstream, region set_cookie).
# Then what the suite does with it: nfit_test.1's DIMMs take labels
# (sector-mode.sh), and v1.1 labels carrying the legacy cookie of the
# 4-way set (label-compat.sh's images) assemble a namespace.  Last, the
# default (v4.2) topology back, as every other test has it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

# the 4-way set's legacy cookie (6.1's altcookie: memcmp order of the
# region offsets 1<<16, 1<<24, 1<<32, 1<<40); label-compat.sh's images
# carry it
T61_ALTCOOKIE=0x0803f6d70100fefb

reload() {
	platform_unload > /tmp/t61.out 2>&1 || { cat /tmp/t61.out; return 1; }
	modprobe nfit_test "$@" > /tmp/t61.out 2>&1 || { cat /tmp/t61.out; return 1; }
	nd_settle
}

# nfit_test alone: as 6.1's, it loads nd_pmem and dax_pmem itself (the
# suite counts on nd_pmem binding the namespaces a region enable finds)
check "reload nfit_test (alone) with topology=6.1" reload topology=6.1
expect_eq "parameters/topology" "$(cat /sys/module/nfit_test/parameters/topology)" 6.1
got=$(for m in nd_pmem dax_pmem; do grep -q "^$m " /proc/modules && echo -n "$m "; done)
expect_eq "nfit_test with topology=6.1 loaded" "$got" "nd_pmem dax_pmem "

# nfit_test.0: v4.2's four DIMMs, with 6.1's control regions (the
# block-window one first: format 0x201; manufacturing fields valid:
# location 0x0a, 2016 as 0x07e0), the SMART firmware on by default
got=
for h in 0x0 0x1 0x100 0x101; do
	d=$(nt_dimm 0 $h) || { got="$got$h:missing|"; continue; }
	n=/sys/bus/nd/devices/$d
	got="$got$h:$(cat $n/nfit/phys_id) $(cat $n/nfit/format) $(cat $n/nfit/formats) $(cat $n/nfit/id) $(cat $n/nfit/flags)|"
done
expect_eq "nfit_test.0 DIMMs: phys_id format formats id flags" "$got" \
	"0x0:0x0 0x0201 1 cdab-0a-07e0-ffffffff smart_notify |0x1:0x1 0x0201 1 cdab-0a-07e0-feffffff smart_notify |0x100:0x2 0x0201 1 cdab-0a-07e0-fffeffff smart_notify |0x101:0x3 0x0201 1 cdab-0a-07e0-fefeffff smart_notify |"
b0=$(nt_bus 0)
expect_eq "nfit_test.0: four DIMMs (6.1 hot-adds a fifth; under upstream's mock here that fails)" \
	"$(ls -d $b0/nmem* | wc -l)" 4
d=$(nt_dimm 0 0x0)
expect_eq "nfit_test.0 DIMM commands (6.1's)" "$(cat /sys/bus/nd/devices/$d/commands)" \
	"smart smart_thresh get_size get_data set_data cmd_call "
# firmware update and activation as 6.1's mock always has them (without
# a knob): the bus's quiesce capability, every DIMM idle (firmware-update.sh)
got="$(cat $b0/firmware/capability 2> /dev/null) $(cat $b0/firmware/activate 2> /dev/null)"
for h in 0x0 0x1 0x100 0x101; do
	got="$got $(cat /sys/bus/nd/devices/$(nt_dimm 0 $h)/firmware/activate 2> /dev/null)"
done
expect_eq "nfit_test.0 firmware activation: capability, bus and DIMM states" "$got" \
	"quiesce idle idle idle idle idle"
# 6.1's mock firmware model: the image staged stays the "updated" (next)
# version after its activation, so ndctl lists activate_state beside it
# (firmware-update.sh counts the DIMMs idle after activate-firmware)
dd if=/dev/urandom of=/tmp/t61.fw bs=4096 count=4 2> /dev/null
d=$(nt_dimm 0 0x0)
ndctl update-firmware -f /tmp/t61.fw $d > /tmp/t61.out 2>&1 &&
	ndctl activate-firmware --force $(cat $b0/provider) > /tmp/t61.out 2>&1
rc=$?
check "update-firmware + activate-firmware --force on $d: exit $rc" [ $rc = 0 ]
i=0
while [ "$(cat /sys/bus/nd/devices/$d/firmware/activate)" != idle ] && [ $i -lt 50 ]; do
	usleep 100000; i=$((i + 1))
done
fw=$(ndctl list -DF -d $d | tr -d ' \n')
cur=$(echo "$fw" | sed -n 's/.*"current_version":\([0-9]*\).*/\1/p')
nxt=$(echo "$fw" | sed -n 's/.*"next_version":\([0-9]*\).*/\1/p')
expect_eq "$d after the activation: result, next_version kept (the running one), activate_state" \
	"$(cat /sys/bus/nd/devices/$d/firmware/result) $([ -n "$nxt" ] && [ "$nxt" = "$cur" ] && echo kept) $(echo "$fw" | grep -o '"activate_state":"[a-z]*"')" \
	'success kept "activate_state":"idle"'

# nfit_test.1: two DIMMs on node 1, byte-addressable (0x101), label areas;
# the first lost its data, the second maps no range
got=
for h in 0x10000 0x10001; do
	d=$(nt_dimm 1 $h) || { got="$got$h:missing|"; continue; }
	n=/sys/bus/nd/devices/$d
	got="$got$h:$(cat $n/nfit/phys_id) $(cat $n/nfit/format) $(cat $n/nfit/id) $(cat $n/nfit/flags)$(cat $n/commands)|"
done
expect_eq "nfit_test.1 DIMMs: phys_id format id flags commands" "$got" \
	"0x10000:0x0 0x0101 cdab-0a-07e0-fffffeff save_fail restore_fail flush_fail not_armed smart_event get_size get_data set_data |0x10001:0x0 0x0101 cdab-0a-07e0-fefffeff map_fail get_size get_data set_data |"
d=$(nt_dimm 1 0x10000)
expect_eq "nfit_test.1 DIMM 0x10000: label area size" \
	"$(nd-label-ioctl size /dev/$d 2>&1 | tr -d '\n')" "$(nd-label-ioctl size /dev/$(nt_dimm 0 0x0) 2>&1 | tr -d '\n')"
# a fresh 6.1 area holds its name and no index
nd-label-ioctl read /dev/$d /tmp/t61.area > /dev/null 2>&1
expect_eq "nfit_test.1 DIMM 0x10000: a fresh label area starts 'label0'" \
	"$(head -c 6 /tmp/t61.area 2>&1)" label0

# the PM regions: ways, size, align (nfit.ko's default), cookies
# (upstream's 6.1 mock shows the same set_cookie values)
region_facts() {
	local r=/sys/bus/nd/devices/$1
	echo "$(cat $r/mappings) $(cat $r/size) $(cat $r/align) $(cat $r/set_cookie) $(cat $r/read_only)"
}
r0=$(nt_region 0 1) r1=$(nt_region 0 2) r2=$(nt_region 1 1)
expect_eq "nfit_test.0 range 1 ($r0): ways size align set_cookie read_only" \
	"$(region_facts $r0)" "2 33554432 0x1000000 0x40e62f0cc00f58ac 0"
expect_eq "nfit_test.0 range 2 ($r1)" "$(region_facts $r1)" \
	"4 67108864 0x1000000 0xa76c6907811fae57 0"
expect_eq "nfit_test.1 range 1 ($r2): read-only (its DIMM is not armed)" \
	"$(region_facts $r2)" "1 33554432 0x1000000 0xe03b0a7be006abd6 1"

# sector-mode.sh: `ndctl init-labels -b nfit_test.1` initialises its DIMMs
ndctl disable-region -b nfit_test.1 all > /dev/null 2>&1
out=$(ndctl init-labels -f -b nfit_test.1 all 2>&1)
expect_eq "ndctl init-labels -f -b nfit_test.1 all" "$out" "initialized 2 nmems"
ndctl enable-region -b nfit_test.1 all > /dev/null 2>&1

# label-compat.sh: v1.1 labels with the legacy cookie of the 4-way set.
# Labels written by the kernel (cookie1), then the cookie patched to the
# legacy one on every DIMM, as label-compat.sh's images carry it.
dimms=$(for h in 0x0 0x1 0x100 0x101; do nt_dimm 0 $h; done)
ndctl disable-region -b nfit_test.0 all > /dev/null 2>&1
check "init-labels -V 1.1 on nfit_test.0" ndctl init-labels -f -V 1.1 -b nfit_test.0 all
ndctl enable-region -b nfit_test.0 all > /dev/null 2>&1
expect_eq "$r1 with v1.1 labels: set_cookie is the v1.1 cookie" \
	"$(cat /sys/bus/nd/devices/$r1/set_cookie)" 0xc0ffadb0100fefb
ndctl create-namespace -r $r1 -m raw -s 32M > /tmp/t61.ns 2>&1
ns=$(jget uuid /tmp/t61.ns)
[ -n "$ns" ] && ok "a 32 MiB namespace on $r1 ($ns)" ||
	nok "create-namespace on $r1: $(cat /tmp/t61.ns)"
# patch the cookie of every label of $ns to COOKIE, with ndctl's
# read-labels and write-labels as label-compat.sh writes its images (the
# bus's regions disabled: they keep the DIMMs busy)
patch_cookie() {
	local d slot rc=0
	ndctl disable-region -b nfit_test.0 all > /dev/null 2>&1
	for d in $dimms; do
		ndctl read-labels $d -o /tmp/t61.$d || { rc=1; break; }
		slot=$(nvt-labels show /tmp/t61.$d | awk -v u=$ns '$1 == "label" && $3 == "uuid=" u { print $2 }')
		[ -n "$slot" ] || { echo "$d: no label of $ns"; rc=1; break; }
		nvt-labels set /tmp/t61.$d $slot cookie $1 || { rc=1; break; }
		ndctl write-labels $d -i /tmp/t61.$d || { rc=1; break; }
	done
	ndctl enable-region -b nfit_test.0 all > /dev/null 2>&1
	nd_settle
	return $rc
}
found() {
	ndctl list -r $r1 -N 2> /dev/null | grep -c "\"uuid\":\"$ns\""
}
check "labels of $ns patched to the legacy cookie $T61_ALTCOOKIE" patch_cookie $T61_ALTCOOKIE
expect_eq "the namespace assembles from labels with the legacy cookie" "$(found)" 1
check "labels of $ns patched to a cookie of no set" patch_cookie 0x1234
expect_eq "a cookie of no set: no namespace" "$(found)" 0
check "labels of $ns back to the legacy cookie" patch_cookie $T61_ALTCOOKIE
expect_eq "the legacy cookie again: the namespace is back" "$(found)" 1

# a value it does not know is refused, the parameter is load-time only
platform_unload > /dev/null 2>&1
modprobe nfit_test topology=6.2 > /tmp/t61.out 2>&1 && nok "topology=6.2 loaded" ||
	ok "topology=6.2 refused: $(tail -n 1 /tmp/t61.out)"
dmesg | grep -q "nfit_test: topology '6.2' refused: v4.2 or 6.1" &&
	ok "the refusal is logged" || nok "no log line for topology=6.2"

# the platform capabilities structure (6.1's nfit reads it): where stores
# become durable, and with it whether DAX writers must flush CPU caches
# (dax/write_cache of nfit_test.1's raw io namespace disk); CPU-cache
# flushing implies the memory controller's
caps_reload() {
	reload platform_caps=$1 && modprobe nd_pmem && nd_settle &&
		wait_pmem $(platform_pmem) 30
}
caps_seen() {
	local r ns blk dom

	for r in $(nt_bus 1)/region*; do
		dom=$(cat $r/persistence_domain 2> /dev/null || echo absent)
		for ns in $r/namespace*; do
			for blk in $ns/block/*; do
				[ -e "$blk" ] || continue
				echo "$dom $(cat /sys/block/$(basename $blk)/dax/write_cache)"
			done
		done
	done
}
for c in "1 cpu_cache 0" "2 memory_controller 1" "3 cpu_cache 0" "0 absent 1"; do
	set -- $c
	check "the platform with platform_caps=$1" caps_reload $1
	expect_eq "platform_caps=$1: nfit_test.1's domain and disk write_cache" \
		"$(caps_seen)" "$2 $3"
done

# the default back: v4.2
check "the platform back with the default topology" platform_load
expect_eq "parameters/topology (default)" "$(cat /sys/module/nfit_test/parameters/topology)" v4.2
expect_eq "nfit_test.0: v4.2's DIMM 0x0 has format 0x201 and no manufacturing fields" \
	"$(cat /sys/bus/nd/devices/$(nt_dimm 0 0x0)/nfit/id)" "$(printf 'cdab-%08x' $((0xffffffff)))"
