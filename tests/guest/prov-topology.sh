# prov-topology: the providers without an NFIT (platform "legacy": a
# memmap= range for nd_e820, a virtio-pmem-pci device for virtio_pmem).
# Saves `ndctl list -BRNi -v` and every readable attribute of the nd bus
# devices for the host-side comparison against the stock modules
# (compare-topology.py, compare-prov-sysfs.py).
. "$(dirname "$0")/lib.sh"

nd_settle
if ndctl list -BRN -v > $NVT_OUT/prov.json 2> /tmp/prov.err &&
	ndctl list -BRNi -v > $NVT_OUT/prov-all.json 2>> /tmp/prov.err; then
	ok "ndctl list -BRNi -v -> prov-all.json ($(wc -c < $NVT_OUT/prov-all.json) bytes)"
	sed 's/^/#   /' $NVT_OUT/prov-all.json
else
	nok "ndctl list -BRNi -v failed"
	sed 's/^/#   /' /tmp/prov.err
fi

# one bus per provider: e820 and virtio-pmem, each with one region
for p in e820 virtio-pmem; do
	n=0 r=0
	for c in /sys/class/nd/ndctl*; do
		[ "$(cat $c/device/provider 2>/dev/null)" = "$p" ] || continue
		n=$((n + 1))
		r=$(ls -d $c/device/region* 2>/dev/null | wc -l)
	done
	expect_eq "one bus of provider $p, with one region" "$n/$r" 1/1
done

# every attribute of every device on the nd bus, "device/attr value"
# (device names as listed; write-only and unreadable ones as "-")
: > $NVT_OUT/prov-sysfs.txt
for d in /sys/bus/nd/devices/*; do
	for f in $d/* $d/*/*; do
		[ -f "$f" ] || continue
		case "$f" in */uevent|*/modalias|*/power/*|*/driver_override) continue ;; esac
		v=$(head -c 512 "$f" 2>/dev/null | tr '\n' ' ') || v=-
		echo "${f#/sys/bus/nd/devices/} ${v:--}"
	done
done >> $NVT_OUT/prov-sysfs.txt
ok "attributes of $(ls /sys/bus/nd/devices | wc -l) nd devices -> prov-sysfs.txt"
sed 's/^/#   /' $NVT_OUT/prov-sysfs.txt
# iomem and the kernel's view of the two ranges
grep -i "persistent\|pmem\|virtio" /proc/iomem | sed 's/^/#   iomem /'
dmesg | grep -iE "e820|pmem|virtio" | grep -v "BIOS-e820: \[mem.*usable" | sed 's/^/#   dmesg /' | head -n 40
