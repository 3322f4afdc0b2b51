# reload: unload and reload the nd stack 10 times.  After unbinding
# ACPI0012 from nfit and unloading the bus provider no device is left on
# the nd bus, after unloading
# libnvdimm the bus is gone, and after each reload the same devices are
# back (and /dev/pmem* appear), every namespace in its mode (raw, sector,
# fsdax, devdax: after dax-mem, the dax boots cycle namespaces of every
# mode; a filesystem on a pmem disk is unmounted first).  Warnings are
# caught by the dmesg check.
. "$(dirname "$0")/lib.sh"

CYCLES=${NVT_RELOAD_CYCLES:-10}
nd_settle
# a filesystem on a pmem disk (the dax tests leave theirs mounted) holds
# the modules: unmounted, the namespaces stay as they are
for m in $(awk '$1 ~ "^/dev/pmem" { print $2 }' /proc/mounts); do
	umount $m && diag "unmounted $m" || nok "umount $m (before the cycles)"
done
# "uuid:mode:size" of every namespace with a size (mode: raw, safe,
# memory, dax; a label-less namespace has no uuid: its name), compared
# after every reload.  Names are not: a reload numbers the namespaces, btt,
# pfn and dax devices of a region from 0 again, while those made and
# destroyed before the cycles had moved the numbers on.
ns_modes() {
	local n u
	for n in /sys/bus/nd/devices/namespace*; do
		[ -d $n ] && [ "$(cat $n/size)" != 0 ] || continue
		u=$(cat $n/uuid 2>/dev/null)
		echo "${u:-${n##*/}}:$(cat $n/mode 2>/dev/null):$(cat $n/size)"
	done | sort | tr '\n' ' '
}
# nd devices of a reload with those numbers as N ("namespace1.N")
nd_kinds() {
	sed -E 's/^((namespace|btt|pfn|dax)[0-9]+)\.[0-9]+$/\1.N/' | sort | tr '\n' ' '
}
modes=$(ns_modes)
diag "namespaces: $modes"
before=$(ls /sys/bus/nd/devices | sort | tr '\n' ' ')
kinds=$(ls /sys/bus/nd/devices | nd_kinds)
npmem=$(pmem_count)
diag "devices: $before"
warn0=$(dmesg | grep -Ec "$NVT_DMESG_BAD")

# unbind ACPI0012 from nfit, unload all but libnvdimm (provider +
# drivers); libnvdimm goes separately
unload_providers() {
	local m pass
	provider_unbind 2>> /tmp/reload.err || echo "unbind of ACPI0012 from nfit failed" >> /tmp/reload.err
	for pass in 1 2 3; do
		nd_loaded
		for m in $ND_LOADED; do
			case $m in libnvdimm | nfit_test_iomap) continue ;; esac
			rmmod $m 2>> /tmp/reload.err
		done
	done
	# the test build's libnvdimm maps through nfit_test_iomap: both go
	# after the check below
	nd_loaded
	for m in $ND_LOADED; do
		case $m in libnvdimm | nfit_test_iomap) continue ;; esac
		echo "$m still loaded" >> /tmp/reload.err
		return 1
	done
	return 0
}

fail_unload='' fail_empty='' fail_gone='' fail_load='' fail_same='' fail_nodes='' fail_modes=''
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	: > /tmp/reload.err
	if ! unload_providers; then
		fail_unload="$fail_unload $i:$(cat /tmp/reload.err | tr '\n' ' ')"
		break
	fi
	left=$(ls /sys/bus/nd/devices 2>/dev/null | tr '\n' ' ')
	[ -z "$left" ] || fail_empty="$fail_empty $i:[$left]"
	if grep -q '^libnvdimm ' /proc/modules && ! rmmod libnvdimm 2>> /tmp/reload.err; then
		fail_unload="$fail_unload $i:libnvdimm $(cat /tmp/reload.err | tr '\n' ' ')"
		break
	fi
	if grep -q '^nfit_test_iomap ' /proc/modules && ! rmmod nfit_test_iomap 2>> /tmp/reload.err; then
		fail_unload="$fail_unload $i:nfit_test_iomap $(cat /tmp/reload.err | tr '\n' ' ')"
		break
	fi
	[ -e /sys/bus/nd ] && fail_gone="$fail_gone $i"
	nodes=$(ls /dev/pmem* /dev/nmem* /dev/ndctl* 2>/dev/null | tr '\n' ' ')
	[ -z "$nodes" ] || fail_nodes="$fail_nodes $i:[$nodes]"
	if ! platform_load > /tmp/reload.err 2>&1; then
		fail_load="$fail_load $i:$(cat /tmp/reload.err | tr '\n' ' ') pmem=$(pmem_count)"
		break
	fi
	nd_settle
	after=$(ls /sys/bus/nd/devices | sort | tr '\n' ' ')
	# the first reload against the kinds before, the others by name
	# against the first
	if [ $i = 1 ]; then
		first=$after
		[ "$(echo $after | tr ' ' '\n' | nd_kinds)" = "$kinds" ] ||
			fail_same="$fail_same $i:[$after]"
	else
		[ "$after" = "$first" ] || fail_same="$fail_same $i:[$after]"
	fi
	[ "$(ns_modes)" = "$modes" ] || fail_modes="$fail_modes $i:[$(ns_modes)]"
done
t1=$(cut -d' ' -f1 /proc/uptime)
diag "$i cycles in $t0 -> $t1 s"

if [ -z "$fail_unload" ]; then ok "$CYCLES x rmmod of the nd modules succeeded"
else nok "rmmod failed in cycle$fail_unload"; fi
if [ -z "$fail_empty" ]; then ok "/sys/bus/nd/devices empty after unloading the bus provider ($i cycles)"
else nok "devices left behind after unload:$fail_empty"; fi
if [ -z "$fail_gone$fail_nodes" ]; then ok "bus nd and /dev/{pmem,nmem,ndctl}* gone after rmmod libnvdimm ($i cycles)"
else nok "left after rmmod libnvdimm: bus in cycles [$fail_gone], nodes$fail_nodes"; fi
if [ -z "$fail_load" ]; then ok "modprobe $(platform_modules | tr ' ' '+') brought $npmem pmem devices back ($i cycles)"
else nok "reload failed in cycle$fail_load"; fi
if [ -z "$fail_same" ]; then ok "same nd devices after every reload ($(echo $before | wc -w) devices)"
else nok "devices differ after reload:$fail_same (before: $before)"; fi
if [ -z "$fail_modes" ]; then ok "every namespace back in its mode, size and uuid ($(echo $modes | wc -w) namespaces)"
else nok "namespaces differ after reload:$(echo $fail_modes | head -c 600) (before: $modes)"; fi
warn1=$(dmesg | grep -Ec "$NVT_DMESG_BAD")
if [ "$warn1" = "$warn0" ]; then ok "no kernel warning during the cycles"
else nok "$((warn1 - warn0)) new kernel warning line(s) during the cycles"
	dmesg | grep -E "$NVT_DMESG_BAD" | tail -n 10 | sed 's/^/#   /'
fi
