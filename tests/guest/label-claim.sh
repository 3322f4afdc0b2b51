# label-claim: the claim class a v1.2 label records survives our label
# rewrites (issue 10 defect 3), across stock -> ours -> stock on QEMU's
# labelled DIMM (boots lc-stock, lc-ours, lc-stock2 of one backing group).
#
#   stock (first):  init-labels -V 1.2, create-namespace -m sector 64M
#                   "lc-sect" (BTT2 claim GUID, BTT at offset 0), a
#                   pattern through its /dev/pmemXs; a raw 16M "lc-raw"
#   ours:           the namespace comes up with holder_class "btt" and is
#                   not attached raw (no /dev/pmemX over the BTT); the
#                   label keeps the BTT2 GUID after an alt_name write
#                   ("lc-renamed") and a region re-enable; force_raw=1
#                   lets nd_pmem attach it, force_raw=0 again after
#   stock (second): "lc-renamed" is still a sector namespace with the
#                   pattern readable through its BTT
. /nvt/lib.sh
. /nvt/label.inc
. /nvt/ns.inc

ns_qemu_label_dimm || exit 0
# the BTT2 claim GUID 18633bfc-1735-4217-8ac9-17239282d3f8 as ndctl 76.1
# prints it (its first three fields in on-media byte order)
BTT2=fc3b6318-3517-1742-8ac9-17239282d3f8

# the abstraction GUIDs of the labels of lc-sect (or lc-renamed), as
# Debian's ndctl reads them
claim_guids() {
	ndctl read-labels -j $dimm 2>/dev/null | tr -d '\n ' | tr '{}' '\n\n' |
		grep -E '"name":"lc-(sect|renamed)"' |
		sed -n 's/.*"abstraction_guid":"\([^"]*\)".*/\1/p' | sort -u | tr '\n' ' '
}

if [ $NVT_SET = stock ] && ! ns_named lc-renamed > /dev/null; then
	ndctl disable-region $region > /tmp/lc.out 2>&1
	check "init-labels -V 1.2 $dimm" ndctl init-labels -f -V 1.2 $dimm
	check "enable-region $region" ndctl enable-region $region
	nd_settle
	check "create-namespace -m sector 64M lc-sect" \
		ndctl create-namespace -r $region -m sector -s 64M -n lc-sect
	# a raw one beside it: every boot of the group finds two /dev/pmem*
	# (setup), ours too, where the sector namespace has no disk
	check "create-namespace -m raw 16M lc-raw" \
		ndctl create-namespace -r $region -m raw -s 16M -n lc-raw
	nd_settle
	n=$(ns_named lc-sect) || { nok "lc-sect not found"; exit 0; }
	b=$(ls /sys/bus/nd/devices/btt*/block 2>/dev/null | head -n 1)
	case $b in
	pmem*s) check "$b: pattern" nvt-pattern write /dev/$b 0 4M 7201 ;;
	*) nok "no sector block device ('$b')" ;;
	esac
	expect_eq "label abstraction GUID" "$(claim_guids)" "$BTT2 "
	exit 0
fi

if [ $NVT_SET = stock ]; then
	nd_settle
	n=$(ns_named lc-renamed)
	ndctl list -N > /tmp/lc.json 2>&1
	grep -q '"name":"lc-renamed"' /tmp/lc.json && grep -q '"mode":"sector"' /tmp/lc.json &&
		ok "stock: lc-renamed is a sector namespace" ||
		nok "stock: lc-renamed not in sector mode: $(tr -d '\n ' < /tmp/lc.json | head -c 300)"
	b=$(ls /sys/bus/nd/devices/btt*/block 2>/dev/null | head -n 1)
	case $b in
	pmem*s) check "stock: $b: pattern through the BTT" nvt-pattern verify /dev/$b 0 4M 7201 ;;
	*) nok "stock: no sector block device ('$b')" ;;
	esac
	exit 0
fi

# --- ours -----------------------------------------------------------------
nd_settle
n=$(ns_named lc-sect) || { nok "lc-sect not assembled from the labels"; exit 0; }
expect_eq "${n##*/}: holder_class from the label" "$(cat $n/holder_class)" btt
expect_eq "${n##*/}: not attached raw (driver)" "$(ns_driver $n)" -
dmesg | grep -q "${n##*/}: reserved for a btt device" &&
	ok "kernel log says why it has no disk" || nok "no log line for the reserved namespace"
expect_eq "${n##*/}: alt_name write" "$(ns_w $n/alt_name lc-renamed)" ok
expect_eq "label abstraction GUID after the alt_name write" "$(claim_guids)" "$BTT2 "
check "disable-region $region" ndctl disable-region $region
check "enable-region $region" ndctl enable-region $region
nd_settle
n=$(ns_named lc-renamed) || { nok "lc-renamed not assembled after re-enable"; exit 0; }
expect_eq "${n##*/}: holder_class after re-enable" "$(cat $n/holder_class)" btt
expect_eq "${n##*/}: force_raw=1" "$(ns_w $n/force_raw 1)" ok
expect_eq "${n##*/}: bind with force_raw" "$(ns_w /sys/bus/nd/drivers/nd_pmem/bind ${n##*/})" ok
nd_settle
expect_eq "${n##*/}: attached raw with force_raw" "$(ns_driver $n)" nd_pmem
echo ${n##*/} > /sys/bus/nd/drivers/nd_pmem/unbind
expect_eq "${n##*/}: force_raw=0" "$(ns_w $n/force_raw 0)" ok
expect_eq "label abstraction GUID at the end" "$(claim_guids)" "$BTT2 "
