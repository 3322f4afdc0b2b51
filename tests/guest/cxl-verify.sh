# cxl-verify: boot 2 of the CXL persistent-memory test (cxl.inc), same
# backing files.  The region is made again (6.1 assembles none; it comes
# out at the same address and DPA, with a new UUID) and the namespace of
# boot 1 comes back from the labels (its UUID, name, size) with its data,
# and so do cxl-modes' sector, fsdax and devdax namespaces.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cxl.inc"

if ! r=$(cxl_region_create) || ! cxl_nd_region $r; then
	nok "CXL pmem region made again through sysfs, its nd region"
	dmesg | tail -n 20 | sed 's/^/#   /'
	exit 0
fi
ok "CXL pmem region $r made again, nd region $r"
expect_eq "namespace of boot 1 found from the labels: uuid name size" \
	"$(cxl_nsget $CXL_NS_NAME uuid) $(cxl_nsget $CXL_NS_NAME name) $(cxl_nsget $CXL_NS_NAME size)" \
	"$CXL_NS_UUID $CXL_NS_NAME $((64 << 20))"
dev=$(cxl_nsget $CXL_NS_NAME blockdev)
expect_eq "/dev/$dev: boot 1's patterns after the power cycle" "$(cxl_patterns verify $dev)" ""
# cxl-modes' namespaces: back in their modes (labels, then the BTT, pfn
# and dax info blocks on the media), with their data
cxl_coldplug
expect_eq "modes of the namespaces after the power cycle (by name)" "$(cxl_modes)" \
	"$CXL_NS_NAME:raw $CXL_BTT_NAME:sector $CXL_FSDAX_NAME:fsdax $CXL_DAX_NAME:devdax"
cxl_mode_data verify
