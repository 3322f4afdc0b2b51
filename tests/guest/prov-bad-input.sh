# prov-bad-input: the providers without an NFIT given bad input by the
# platform ("legacy-bad"): a legacy range (memmap=) that is not page
# aligned is refused with a log line while the good one works; a
# virtio-pmem device of 100M + 4K (pages, not sections) gets a region of
# exactly its size whose namespace works raw and as fsdax and devdax
# (truncated to what the alignment allows).  Results go to
# prov-bad.txt for the comparison with the stock modules.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prov.inc"

prov_modules
OUT=$NVT_OUT/prov-bad.txt
: > $OUT
grep -i "persistent memory (legacy)" /proc/iomem | sed 's/^ *//' | sed 's/^/#   iomem /'
r=$(prov_region e820)
n=0
for c in /sys/class/nd/ndctl*; do
	[ "$(cat $c/device/provider 2>/dev/null)" = e820 ] || continue
	n=$(ls -d $c/device/region* 2>/dev/null | wc -l)
done
echo "e820 regions=$n" >> $OUT
for x in /sys/bus/nd/devices/region*; do
	echo "region ${x##*/} $(cat $x/resource 2>/dev/null) $(cat $x/size)" >> $OUT
done
if [ "$NVT_SET" != stock ]; then
	expect_eq "e820: the page-aligned range has a region, the unaligned one none" "$n" 1
	dmesg | grep -q "legacy pmem \[mem 0x20000800-.*no region" &&
		ok "e820: the unaligned range is named in the kernel log" ||
		nok "e820: no log line for the unaligned range"
	dmesg | grep "e820_pmem\|ndbus" | sed 's/^/#   /' | head -n 5
fi

ns=$(prov_ns virtio-pmem)
vr=$(prov_region virtio-pmem)
echo "virtio initial $(ns_line $ns)" >> $OUT
expect_eq "virtio-pmem $ns: a region of 100M + 4K" \
	"$(cat /sys/bus/nd/devices/$vr/size)" $((100 * MiB + 4096))
# not 2M aligned: struct pages cannot be made, so the namespace does not
# attach (6.1: "misaligned, unable to map"), and ndctl finds the size
# misaligned to the region's 16M align
[ -e /sys/bus/nd/devices/$ns/driver ]
expect_eq "virtio-pmem $ns (100M + 4K): not attached" "$?" 1
if [ "$NVT_SET" != stock ]; then
	dmesg | grep -q "$ns: .*not aligned to 2097152 bytes: cannot be mapped" &&
		ok "virtio-pmem $ns: the kernel log says why" ||
		nok "virtio-pmem $ns: no log line saying why it is not attached"
fi
ndctl create-namespace -f -e $ns -m fsdax > /tmp/cn.out 2>&1 &&
	nok "virtio-pmem $ns: ndctl create-namespace -m fsdax accepted" ||
	ok "virtio-pmem $ns: ndctl create-namespace -m fsdax refused"
echo "virtio fsdax: $(head -n 1 /tmp/cn.out)" >> $OUT
# force_raw: attached raw, without struct pages, data written and read
echo 1 > /sys/bus/nd/devices/$ns/force_raw
echo $ns > /sys/bus/nd/drivers/nd_pmem/bind 2>/dev/null
nd_settle
ndctl list -n $ns > /tmp/b.json
bd=$(jget blockdev /tmp/b.json)
echo "virtio force_raw $(ns_line $ns)" >> $OUT
check "virtio-pmem $ns force_raw: attached ($bd), the last 1M written (O_DSYNC) and read back" \
	sh -c "[ -n '$bd' ] && nvt-pattern wsync /dev/$bd -1M 1M 27500 && nvt-pattern verify /dev/$bd -1M 1M 27500"
sed 's/^/#   /' $OUT
