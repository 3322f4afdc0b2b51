# cxl-bad: bad input on the CXL DIMM (cxl.inc), after cxl-write (stock's
# boot) or cxl-verify (ours'): the region of the earlier test, or a new
# one.  Label commands the device refuses (Get/Set LSA past the end of its
# area: a failing mailbox command on 6.1), then a label area whose index
# blocks are corrupt (ndctl write-labels with the region disabled): the
# namespace is gone, the region offers its blank seed, and what a
# create-namespace does there.  Every outcome goes to cxl-bad.txt,
# compared line by line with stock's (compare-prov.py).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cxl.inc"

r=$(ls /sys/bus/nd/devices | grep '^region' | head -n 1)
if [ -z "$r" ]; then
	if ! r=$(cxl_region_create 2> /tmp/cr.err) || ! cxl_nd_region $r; then
		sed "s/^/#   /" /tmp/cr.err
		nok "a CXL pmem region for the bad input"
		exit 0
	fi
fi
dimm=$(ls /sys/bus/nd/devices | grep '^nmem' | head -n 1)
out=$NVT_OUT/cxl-bad.txt
: > $out
echo "config size: $(nd-label-ioctl size /dev/$dimm 2>&1)" >> $out
CS=$(nd-label-ioctl size /dev/$dimm 2>/dev/null | sed -n 's/.*config_size=\([0-9]*\).*/\1/p')
[ -n "$CS" ] || CS=131072
echo "get straddling the end: $(nd-label-ioctl get /dev/$dimm $((CS - 16)) 32 2>&1)" >> $out
echo "get at the end: $(nd-label-ioctl get /dev/$dimm $CS 16 2>&1)" >> $out
ndctl read-labels $dimm -o /tmp/lsa.bin 2>/dev/null
# both index blocks (the first 2 x 256 bytes of a 128K area): bytes flipped
{ head -c 16 /tmp/lsa.bin; head -c 496 /dev/urandom; tail -c +513 /tmp/lsa.bin; } > /tmp/bad.bin
ndctl disable-region $r > /dev/null 2>&1
echo "set at the end (region disabled): $(nd-label-ioctl set /dev/$dimm $CS 16 2>&1)" >> $out
echo "write-labels with the region disabled: $(ndctl write-labels $dimm -i /tmp/bad.bin 2>&1 | tail -n 1)" >> $out
ndctl disable-dimm $dimm > /dev/null 2>&1
echo "enable-dimm: $(ndctl enable-dimm $dimm 2>&1 | tail -n 1)" >> $out
echo "enable-region: $(ndctl enable-region $r 2>&1 | tail -n 1)" >> $out
echo "dimm flags: $(cat /sys/bus/nd/devices/$dimm/flags)" >> $out
echo "region nstype: $(cat /sys/bus/nd/devices/$r/nstype 2>&1)" >> $out
ndctl list -N -r $r > /tmp/n2.json 2>&1
echo "namespaces listed: $(grep -c '"dev"' /tmp/n2.json)" >> $out
echo "seed size: $(cat /sys/bus/nd/devices/$r/$(cat /sys/bus/nd/devices/$r/namespace_seed)/size 2>&1)" >> $out
ndctl create-namespace -r $r -m raw -s 32M > /tmp/ns2.json 2> /tmp/ns2.err
echo "create-namespace on the corrupt area: rc=$? $(tail -n 1 /tmp/ns2.err)" >> $out
ndctl list -N -r $r > /tmp/n3.json 2>&1
echo "namespaces listed after: $(grep -c '"dev"' /tmp/n3.json)" >> $out

# teardown in 6.1's order (regions, DIMMs, then the bus) and back: the
# nvdimm bridge unbound from cxl_pmem, then bound again; the CXL region,
# still committed, gets its nd region again (rmmod is no test of it: 6.1
# pins the provider module while nd devices are bound, ours do not)
nd_count() {
	echo "ndbus=$(ls /sys/class/nd 2>/dev/null | grep -c '^ndctl') nmem=$(ls /sys/bus/nd/devices | grep -c '^nmem') region=$(ls /sys/bus/nd/devices | grep -c '^region')"
}
D=/sys/bus/cxl/drivers/cxl_nvdimm_bridge
echo nvdimm-bridge0 > $D/unbind 2> /tmp/ub.err
i=0
while [ -e /sys/bus/nd/devices/$r ] && [ $i -lt 100 ]; do usleep 100000; i=$((i + 1)); done
echo "bridge unbound: $(cat /tmp/ub.err) $(nd_count)" >> $out
echo "bridge bound: $(echo nvdimm-bridge0 > $D/bind 2>&1; echo rc=$?)" >> $out
cxl_nd_region $r
echo "after the reload: $(nd_count) $r nstype=$(cat /sys/bus/nd/devices/$r/nstype 2>&1)" >> $out
if ! grep -q "^after the reload: ndbus=1 nmem=1 region=1" $out; then
	diag "after the reload: pmem0 driver=$(basename "$(readlink /sys/bus/cxl/devices/pmem0/driver)") pmem_region0 driver=$(basename "$(readlink /sys/bus/cxl/devices/pmem_region0/driver 2>/dev/null)")"
	dmesg | grep -E "cxl|nvdimm|nmem|ndbus|pmem" | tail -n 25 | sed 's/^/#   /'
fi
sed 's/^/#   /' $out
# what each step must have done (the lines are compared with stock's;
# where ours deliberately differ (compare-prov.py DIFFERENT), ours' are
# asserted here)
expect_eq "bridge unbound: the region, DIMM and bus gone" \
	"$(grep '^bridge unbound' $out)" "bridge unbound:  ndbus=0 nmem=0 region=0"
expect_eq "bridge bound again: the committed region back" \
	"$(grep '^after the reload' $out)" "after the reload: ndbus=1 nmem=1 region=1 $r nstype=5"
if [ "$NVT_SET" = stock ]; then
	diag "stock: the outcomes above are the oracle's record"
else
	expect_eq "get straddling the end: served up to the end, short" \
		"$(grep '^get straddling' $out)" "get straddling the end: rc=16 err=0 status=0"
	expect_eq "get at the end: refused before the mailbox" \
		"$(grep '^get at the end' $out | cut -d' ' -f5-6)" "rc=-22 err=EINVAL"
	expect_eq "set at the end: refused before the mailbox" \
		"$(grep '^set at the end' $out | cut -d' ' -f7-8)" "rc=-22 err=EINVAL"
	expect_eq "damaged index: no namespace written (ndctl init-labels first)" \
		"$(grep '^namespaces listed after' $out)" "namespaces listed after: 0"
	expect_eq "damaged index: the area's index blocks left as they were" \
		"$(ndctl read-labels $dimm -o /tmp/lsa2.bin 2>/dev/null; head -c 512 /tmp/lsa2.bin | md5sum)" \
		"$(head -c 512 /tmp/bad.bin | md5sum)"
fi
expect_eq "corrupt index: the old namespace is gone" "$(grep -c "$CXL_NS_UUID" /tmp/n2.json)" 0
expect_eq "corrupt index: the region enabled again" "$(ndctl list -R -r $r | grep -c "\"dev\":\"$r\"")" 1
