# cxl-verify: boot 2 of the CXL persistent-memory test (cxl.inc), same
# backing files.  The region is made again (6.1 assembles none; it comes
# out at the same address and DPA, with a new UUID) and the namespace of
# boot 1 comes back from the labels (its UUID, name, size) with its data.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cxl.inc"

if ! r=$(cxl_region_create) || ! cxl_nd_region $r; then
	nok "CXL pmem region made again through sysfs, its nd region"
	dmesg | tail -n 20 | sed 's/^/#   /'
	exit 0
fi
ok "CXL pmem region $r made again, nd region $r"
ndctl list -N -r $r > /tmp/n.json 2>&1
expect_eq "namespace of boot 1 found from the labels: uuid name size" \
	"$(jget uuid /tmp/n.json) $(jget name /tmp/n.json) $(jget size /tmp/n.json)" \
	"$CXL_NS_UUID $CXL_NS_NAME $((64 << 20))"
dev=$(jget blockdev /tmp/n.json)
expect_eq "/dev/$dev: boot 1's patterns after the power cycle" "$(cxl_patterns verify $dev)" ""
