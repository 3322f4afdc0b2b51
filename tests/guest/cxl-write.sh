# cxl-write: boot 1 of the CXL persistent-memory test (issue 31, platform
# cxl; cxl.inc).  Before any region: the nd bus of the nvdimm bridge
# (provider "CXL") and a DIMM for the memory device, its label area read
# through Get LSA.  Then the region made through the CXL sysfs ABI
# becomes an nd region (persistence domain memory_controller) with a
# label-backed, empty namespace seed; Debian's ndctl makes a raw
# namespace on it (labels written through Set LSA), data goes on it, the
# listing goes to cxl-topology.json (compared with stock's).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cxl.inc"

ndctl list -B > /tmp/b.json 2>&1
expect_eq "nd bus of the nvdimm bridge, provider" "$(jget provider /tmp/b.json)" CXL
ndctl list -D > /tmp/d.json 2>&1
expect_eq "a DIMM for mem0 before any region" "$(grep -c '"dev":"nmem' /tmp/d.json)" 1
expect_eq "no nd region before a CXL region" "$(ls /sys/bus/nd/devices | grep -c '^region')" 0
dimm=$(ls /sys/bus/nd/devices | grep '^nmem' | head -n 1)
ndctl read-labels $dimm -o /tmp/lsa0.bin 2> /tmp/rl.err
expect_eq "$dimm: label area read through Get LSA (QEMU's 128K, blank)" \
	"$(wc -c < /tmp/lsa0.bin) $(tr -d '\000' < /tmp/lsa0.bin | wc -c)" "131072 0"

if ! r=$(cxl_region_create 2> /tmp/cr.err); then
	sed "s/^/#   /" /tmp/cr.err
	echo "#   $(ls $CXL | tr '\n' ' ')"
	for ep in $CXL/endpoint*; do
		echo "#   $ep: $(ls $ep | tr '\n' ' ') uport=$(readlink -f $ep/uport)"
		for d in $ep/decoder*; do echo "#   $d: $(cat $d/dpa_size $d/mode 2>&1 | tr '\n' ' ')"; done
	done
	nok "CXL pmem region through sysfs (create_pmem_region ... commit, bind)"
	dmesg | tail -n 20 | sed 's/^/#   /'
	exit 0
fi
ok "CXL pmem region $r through sysfs (create_pmem_region ... commit, bind)"
if ! cxl_nd_region $r; then
	nok "nd region $r for CXL region $r"
	ls /sys/bus/nd/devices | sed 's/^/#   /'
	dmesg | tail -n 20 | sed 's/^/#   /'
	exit 0
fi
ok "nd region $r for CXL region $r"
R=/sys/bus/nd/devices/$r
expect_eq "$r: size" "$(cat $R/size)" $CXL_SIZE
expect_eq "$r: persistence_domain" "$(cat $R/persistence_domain)" memory_controller
expect_eq "$r: nstype (label-backed on a blank area)" "$(cat $R/nstype)" 5
expect_eq "$r: mappings" "$(cat $R/mappings)" 1
expect_eq "$r: namespace seed size" "$(cat $R/$(cat $R/namespace_seed)/size)" 0

if ndctl create-namespace -r $r -m raw -s $CXL_NS_SIZE -n $CXL_NS_NAME \
	-u $CXL_NS_UUID > /tmp/ns.json 2> /tmp/ns.err; then
	ok "ndctl create-namespace -r $r -m raw -s $CXL_NS_SIZE"
else
	nok "ndctl create-namespace -r $r -m raw: $(cat /tmp/ns.err)"
	dmesg | tail -n 20 | sed 's/^/#   /'
	exit 0
fi
dev=$(jget blockdev /tmp/ns.json)
expect_eq "/dev/$dev: patterns written and read back" "$(cxl_patterns write $dev)" ""
ndctl read-labels $dimm -o /tmp/lsa.bin 2> /tmp/rl.err
expect_eq "$dimm: the index blocks in the label area (Set LSA wrote them)" \
	"$(head -c 16 /tmp/lsa.bin | tr -d '\000')" NAMESPACE_INDEX
ndctl list -BDRN > $NVT_OUT/cxl-topology.json 2>&1
ndctl list -BDRNi > $NVT_OUT/cxl-topology-all.json 2>&1
sed 's/^/#   /' $NVT_OUT/cxl-topology.json
sync
