# nt-sysfs: the sysfs trees the v4.2 document lists for its example
# platform (nfit_test.0 / nfit_test.1), entry by entry, with the real ABI
# names where the document's are wrong (shared/docs/sysfs-abi.md: nstype
# not "type", nfit/range_index not "nfit/spa_index", btt<R>.<N> not
# "btt0", driver nd_pmem not "pmem", 6.1 disk names).  Every entry must
# exist: labels (available_slots, the label-backed seeds namespace0.0 and
# namespace2.0) and BTT seeds are part of the core now, so an absent one
# is a failure, not a skip.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

nd_settle
b0=$(nt_bus 0) b1=$(nt_bus 1)

# listing DIR ENTRY...: every entry exists in DIR
listing() {
	local dir=$1 e missing=
	shift
	for e in "$@"; do
		[ -e $dir/$e ] || [ -L $dir/$e ] || missing="$missing $e"
	done
	if [ -n "$missing" ]; then
		nok "${dir#/sys/devices/platform/}: missing$missing"
	else
		ok "${dir#/sys/devices/platform/}: $# entries of the document's listing"
	fi
}

# link DIR ENTRY TARGET_SUFFIX: DIR/ENTRY is a symlink resolving to .../TARGET_SUFFIX
link() {
	local got
	got=$(readlink -f $1/$2)
	case $got in
	*/$3) ok "${1##*/}/$2 -> .../$3" ;;
	*) nok "${1##*/}/$2 -> $got, want .../$3" ;;
	esac
}

# /sys/class/nd/ndctl0
listing /sys/class/nd/ndctl0 dev device subsystem
link /sys/class/nd/ndctl0 device nfit_test.0/ndbus0
link /sys/class/nd/ndctl0 subsystem class/nd
expect_eq "ndctl0/dev is /dev/ndctl0's" "$(cat /sys/class/nd/ndctl0/dev)" \
	"$(ls -l /dev/ndctl0 | awk '{ gsub(",", ":", $5); print $5 $6 }')"

# bus ("power" only on a kernel with CONFIG_PM, which has /sys/power)
pm=
[ -d /sys/power ] && pm=power
listing $b0 commands nd nfit nmem0 nmem1 nmem2 nmem3 $pm provider \
	region0 region1 region2 region3 region4 region5 uevent wait_probe
expect_eq "ndbus0/provider" "$(cat $b0/provider)" nfit_test.0
expect_eq "ndbus0/wait_probe" "$(cat $b0/wait_probe)" 1
[ -d $b0/nd/ndctl0 ] && ok "ndbus0/nd/ndctl0 (class glue directory)" || nok "no ndbus0/nd/ndctl0"

# DIMM
d=$b0/nmem0
listing $d available_slots commands dev devtype driver modalias nfit \
	nfit/device nfit/format nfit/handle nfit/phys_id nfit/rev_id \
	nfit/serial nfit/vendor state subsystem uevent
link $d driver bus/nd/drivers/nvdimm
link $d subsystem bus/nd
got="$(cat $d/devtype) $(cat $d/modalias) $(cat $d/state) $(cat $d/nfit/handle) $(cat $d/nfit/phys_id)"
expect_eq "nmem0: devtype modalias state handle phys_id" "$got" "nvdimm nd:t1 active 0x0 0x0"
expect_eq "nmem0/dev is /dev/nmem0's" "$(cat $d/dev)" \
	"$(ls -l /dev/nmem0 | awk '{ gsub(",", ":", $5); print $5 $6 }')"
# a blank 128 KiB label area (the platform is fresh): 131072 / (128 + 1/8)
# = 1016 slots, one of them kept for updates
expect_eq "nmem0/available_slots of a blank 128 KiB label area" \
	"$(cat $d/available_slots 2>&1)" 1015

# PMEM region (the document's region0; its namespace0.0 is checked below)
r=$b0/region0
listing $r available_size btt0.0 btt_seed devtype driver init_namespaces \
	mapping0 mapping1 mappings modalias namespace_seed \
	numa_node nfit nfit/range_index nstype set_cookie size subsystem uevent
link $r driver bus/nd/drivers/nd_region
link $r subsystem bus/nd
got="$(cat $r/devtype) $(cat $r/modalias) $(cat $r/nstype) $(cat $r/mappings) $(cat $r/size) $(cat $r/nfit/range_index)"
expect_eq "region0: devtype modalias nstype mappings size range_index" "$got" "nd_pmem nd:t2 5 2 33554432 1"
# the v1.2 interleave-set cookies (blank labels), worked out by hand from
# the mock's NFIT as docs/nfit_test.md gives it: per mapping
# {region_offset = position x 4 KiB, serial = ~handle, vendor 0xabcd,
# date 0, location 0, 31 reserved}, 32-bit Fletcher-64 over the records
# in region_offset order; region0 = DIMMs 0x0 0x1, region1 = 0x0 0x1
# 0x100 0x101
expect_eq "region0, region1 set_cookie (v1.2, from the documented NFIT)" \
	"$(cat $r/set_cookie 2>&1) $(cat $b0/region1/set_cookie 2>&1)" "0x14e1dc00016797 0x4fd9e000030d2e"
# BLK region (the document's region4)
r=$b0/region4
listing $r available_size devtype driver init_namespaces mapping0 mappings \
	modalias namespace_seed numa_node nfit/range_index nstype size subsystem uevent
got="$(cat $r/devtype) $(cat $r/modalias) $(cat $r/nstype) $(cat $r/mappings) $(cat $r/size) $(cat $r/nfit/range_index) $(cat $r/mapping0)"
expect_eq "region4: devtype modalias nstype mappings size range_index mapping0" "$got" \
	"nd_blk nd:t3 6 1 33554432 9 nmem2,0,33554432,0"
[ -e $r/set_cookie ] && nok "region4 (BLK) shows set_cookie" || ok "region4 (BLK) has no set_cookie"
# the io region of nfit_test.1 (the document's region6)
r=$b1/region6
listing $r devtype driver init_namespaces mapping0 mappings modalias \
	namespace6.0 namespace_seed numa_node nfit/range_index nstype size
got="$(cat $r/nstype) $(cat $r/init_namespaces) $(cat $r/namespace_seed)"
expect_eq "region6: nstype init_namespaces namespace_seed" "$got" "4 1/1 namespace6.0"

# namespaces: the io namespace (the document's namespace6.0)
ns=$b1/region6/namespace6.0
listing $ns block block/pmem6 devtype driver force_raw modalias numa_node \
	resource size subsystem nstype uevent
link $ns driver bus/nd/drivers/nd_pmem
got="$(cat $ns/devtype) $(cat $ns/modalias) $(cat $ns/nstype) $(cat $ns/force_raw) $(cat $ns/size)"
expect_eq "namespace6.0: devtype modalias nstype force_raw size" "$got" \
	"nd_namespace_io nd:t4 4 0 $NT_DIMM_SIZE"
expect_eq "namespace6.0/resource = region6/resource" "$(cat $ns/resource)" "$(cat $r/resource)"
# label-backed namespaces (the document's namespace0.0 and namespace2.0:
# the idle seeds of a blank platform)
for ns in $b0/region0/namespace0.0 $b0/region2/namespace2.0; do
	if [ -d $ns ]; then
		listing $ns alt_name devtype dpa_extents force_raw modalias numa_node \
			size subsystem nstype uevent uuid
	else
		nok "${ns#/sys/devices/platform/}: no such namespace: $(ls -d ${ns%/*}/namespace* 2>&1 | tr '\n' ' ')"
	fi
done
# btt seed (the document's btt0)
s=$(cat $b1/region6/btt_seed 2>&1)
expect_eq "region6/btt_seed (the document's btt0)" "$s" btt6.0
listing $b1/region6/btt6.0 namespace devtype modalias \
	numa_node sector_size subsystem uevent uuid
