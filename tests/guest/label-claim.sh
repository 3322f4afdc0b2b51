# label-claim: sector namespaces (BTT) between the stock modules and ours
# on QEMU, both BTT versions, across three boots of one backing group
# (lc-stock, lc-ours, lc-stock2), with Debian's ndctl 76.1 throughout.
#
#   stock (first):  nvdimm1 gets v1.2 labels and a 64M "lc-sect" in
#                   sector mode (BTT2 claim GUID, BTT 2.0 at offset 0)
#                   with pattern 7201, and a raw 16M "lc-raw"; nvdimm0's
#                   label-less namespace becomes a sector namespace (BTT
#                   1.1 at 4096) with pattern 7211
#   ours:           both BTTs are found at enable (autodetect) with
#                   their data; pattern 7301 is written through lc-sect's
#                   BTT; the label keeps the BTT2 GUID through a release,
#                   an alt_name write ("lc-renamed") and a region
#                   re-enable; force_raw exposes the raw namespace; a new
#                   32M "lc-ours" in sector mode is made by ours (BTT
#                   2.0) with pattern 7321 and checked by Debian's
#                   check-namespace; nvdimm0's namespace is reconfigured
#                   by ours (a new BTT 1.1) with pattern 7331
#   stock (second): every pattern ours wrote is read back through the
#                   stock BTT driver
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"

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

# io_ns: nvdimm0's label-less namespace directory
io_ns() {
	local r
	for r in /sys/bus/nd/devices/region*; do
		[ "$(cat $r/nstype 2>/dev/null)" = 4 ] && [ -d $r/namespace${r##*region}.0 ] &&
			{ echo $r/namespace${r##*region}.0; return 0; }
	done
	return 1
}

# sector_disk NS_DIR: the block device of the btt holding it, or nothing
sector_disk() {
	local b
	b=$(btt_of $1) && btt_disk $b
}

# verify_sector WHAT NS_DIR OFF LEN SEED: the pattern through its BTT
verify_sector() {
	local d
	d=$(sector_disk $2)
	case $d in
	pmem*s) check "$1: pattern $5 through /dev/$d" nvt-pattern verify /dev/$d $3 $4 $5 ;;
	*) nok "$1: no sector block device (holder '$(ns_rd $2/holder)')" ;;
	esac
}

# write_sector WHAT NS_DIR OFF LEN SEED
write_sector() {
	local d
	d=$(sector_disk $2)
	case $d in
	pmem*s) check "$1: pattern $5 written through /dev/$d" nvt-pattern write /dev/$d $3 $4 $5 ;;
	*) nok "$1: no sector block device (holder '$(ns_rd $2/holder)')" ;;
	esac
}

# mode_of NAME: the "mode" ndctl 76.1 lists for the namespace named NAME
mode_of() {
	ndctl list -N 2>/dev/null | tr -d '\n ' | tr '{}' '\n\n' |
		grep "\"name\":\"$1\"" | sed -n 's/.*"mode":"\([^"]*\)".*/\1/p'
}

io=$(io_ns) || { nok "no label-less namespace (nvdimm0)"; exit 0; }

if [ $NVT_SET = stock ] && ! ns_named lc-renamed > /dev/null; then
	ndctl disable-region $region > /tmp/lc.out 2>&1
	check "init-labels -V 1.2 $dimm" ndctl init-labels -f -V 1.2 $dimm
	check "enable-region $region" ndctl enable-region $region
	nd_settle
	check "create-namespace -m sector 64M lc-sect" \
		ndctl create-namespace -r $region -m sector -s 64M -n lc-sect
	check "create-namespace -m raw 16M lc-raw" \
		ndctl create-namespace -r $region -m raw -s 16M -n lc-raw
	check "${io##*/}: reconfigured to sector mode (BTT 1.1)" \
		ndctl create-namespace -f -e ${io##*/} -m sector
	nd_settle
	n=$(ns_named lc-sect) || { nok "lc-sect not found"; exit 0; }
	write_sector "stock: lc-sect" $n 0 4M 7201
	write_sector "stock: ${io##*/}" $io 0 4M 7211
	expect_eq "label abstraction GUID" "$(claim_guids)" "$BTT2 "
	exit 0
fi

if [ $NVT_SET = stock ]; then
	nd_settle
	n=$(ns_named lc-renamed) || { nok "stock: lc-renamed not found"; exit 0; }
	expect_eq "stock: lc-renamed and lc-ours listed in sector mode" \
		"$(mode_of lc-renamed) $(mode_of lc-ours)" "sector sector"
	verify_sector "stock: lc-renamed (stock's BTT 2.0, ours wrote)" $n 4M 4M 7301
	verify_sector "stock: lc-renamed, stock's own pattern" $n 0 4M 7201
	verify_sector "stock: lc-ours (BTT 2.0 made by ours)" "$(ns_named lc-ours)" 0 4M 7321
	verify_sector "stock: ${io##*/} (BTT 1.1 made by ours)" $io 0 4M 7331
	exit 0
fi

# --- ours -----------------------------------------------------------------
nd_settle
n=$(ns_named lc-sect) || { nok "lc-sect not assembled from the labels"; exit 0; }
expect_eq "${n##*/}: holder_class from the label" "$(cat $n/holder_class)" btt
b=$(btt_of $n)
expect_eq "${n##*/}: claimed at enable, mode safe" "$(ns_driver $n) ${b:+btt} $(cat $n/mode)" "- btt safe"
dmesg | grep -q "${n##*/}: BTT 2.0 found at 0: claimed by" &&
	ok "BTT 2.0 autodetect logged" || nok "no autodetect log line for ${n##*/}"
verify_sector "lc-sect (stock's BTT 2.0)" $n 0 4M 7201
write_sector "lc-sect" $n 4M 4M 7301
verify_sector "${io##*/} (stock's BTT 1.1)" $io 0 4M 7211
expect_eq "lc-sect listed in sector mode by ndctl 76.1" "$(mode_of lc-sect)" sector

# release the btt: the namespace can be renamed, its labels keep the GUID
check "disable-namespace ${n##*/}" ndctl disable-namespace ${n##*/}
b=$(btt_of $n)
[ -n "$b" ] && echo > $b/namespace
expect_eq "${n##*/}: released" "$(ns_rd $n/holder)" -
expect_eq "${n##*/}: alt_name write" "$(ns_w $n/alt_name lc-renamed)" ok
expect_eq "label abstraction GUID after the alt_name write" "$(claim_guids)" "$BTT2 "
check "disable-region $region" ndctl disable-region $region
check "enable-region $region" ndctl enable-region $region
nd_settle
n=$(ns_named lc-renamed) || { nok "lc-renamed not assembled after re-enable"; exit 0; }
expect_eq "${n##*/}: holder_class after re-enable" "$(cat $n/holder_class)" btt
verify_sector "lc-renamed after re-enable" $n 4M 4M 7301
# force_raw: the raw namespace, BTT 2.0 info block at offset 0
b=$(btt_of $n)
echo ${b##*/} > /sys/bus/nd/drivers/nd_pmem/unbind
echo > $b/namespace
expect_eq "${n##*/}: force_raw=1" "$(ns_w $n/force_raw 1)" ok
expect_eq "${n##*/}: bind with force_raw" "$(ns_w /sys/bus/nd/drivers/nd_pmem/bind ${n##*/})" ok
nd_settle
expect_eq "${n##*/}: attached raw with force_raw" "$(ns_driver $n)" nd_pmem
expect_eq "${n##*/} raw: info block at 0" "$(btt_sig /dev/$(ls $n/block) 0)" "BTT_ARENA_INFO"
echo ${n##*/} > /sys/bus/nd/drivers/nd_pmem/unbind
expect_eq "${n##*/}: force_raw=0" "$(ns_w $n/force_raw 0)" ok
expect_eq "${n##*/}: bind without force_raw" "$(ns_w /sys/bus/nd/drivers/nd_pmem/bind ${n##*/})" "No such device or address"
nd_settle
verify_sector "lc-renamed after the raw round" $n 0 4M 7201
expect_eq "label abstraction GUID at the end" "$(claim_guids)" "$BTT2 "

# a BTT 2.0 made by ours through Debian's ndctl, checked by its check-namespace
check "create-namespace -m sector 32M lc-ours (ours)" \
	ndctl create-namespace -r $region -m sector -s 32M -n lc-ours
nd_settle
o=$(ns_named lc-ours)
write_sector "lc-ours" $o 0 4M 7321
check "disable-namespace ${o##*/}" ndctl disable-namespace ${o##*/}
check "ndctl check-namespace ${o##*/} (76.1 on our BTT 2.0)" ndctl check-namespace ${o##*/}
check "enable-namespace ${o##*/}" ndctl enable-namespace ${o##*/}
nd_settle
verify_sector "lc-ours after check-namespace" $o 0 4M 7321

# nvdimm0's namespace: a new BTT 1.1 made by ours
check "${io##*/}: reconfigured to sector mode by ours" \
	ndctl create-namespace -f -e ${io##*/} -m sector
nd_settle
write_sector "${io##*/} (our BTT 1.1)" $io 0 4M 7331
check "disable-namespace ${io##*/}" ndctl disable-namespace ${io##*/}
check "ndctl check-namespace ${io##*/} (76.1 on our BTT 1.1)" ndctl check-namespace ${io##*/}
check "enable-namespace ${io##*/}" ndctl enable-namespace ${io##*/}
nd_settle
verify_sector "${io##*/} after check-namespace" $io 0 4M 7331
