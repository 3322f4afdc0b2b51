# nt-topology: the mock platform as the v4.2 document's "Example NVDIMM
# Platform" and the seed's NFIT describe it (docs/nfit_test.md): bus,
# DIMM, region and namespace names, handles, types, mappings, sizes; the
# fake physical addresses; and what Debian's ndctl 76.1 makes of it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_check_topology 0
nt_check_topology 1

# names: nfit_test alone on the platform, loaded once, as in the document
b0=$(nt_bus 0) b1=$(nt_bus 1)
expect_eq "nfit_test.0 is ndbus0, nfit_test.1 is ndbus1" "${b0##*/} ${b1##*/}" "ndbus0 ndbus1"
got=$(ls -d $b0/nmem* $b0/region* | sed 's,.*/,,' | tr '\n' ' ')
expect_eq "ndbus0 children" "$got" "nmem0 nmem1 nmem2 nmem3 region0 region1 region2 region3 region4 region5 "
got=$(ls -d $b1/nmem* $b1/region* | sed 's,.*/,,' | tr '\n' ' ')
expect_eq "ndbus1 children" "$got" "nmem4 region6 "
got=$(for r in 0 1 2 3 4 5; do echo -n "$(cat $b0/region$r/nfit/range_index)/$(cat $b0/region$r/modalias) "; done)
expect_eq "region0..5: SPA ranges and types (0,1 PMEM nd:t2; 2-5 BLK nd:t3)" "$got" \
	"1/nd:t2 2/nd:t2 7/nd:t3 8/nd:t3 9/nd:t3 10/nd:t3 "
got=$(for r in 2 3 4 5; do echo -n "$(cut -d, -f1 $b0/region$r/mapping0) "; done)
expect_eq "BLK region2..5 map DIMM nmem0..3" "$got" "nmem0 nmem1 nmem2 nmem3 "
for n in 0 1; do
	b=$(nt_bus $n)
	c=$(readlink -f /sys/class/nd/ndctl$n/device)
	expect_eq "ndctl$n -> ${b##*/}" "$c" "$b"
	expect_eq "ndbus$n/nfit/revision" "$(cat $b/nfit/revision)" 1
	expect_eq "ndbus$n/commands (ARS and the injection calls, docs/ars.md)" \
		"$(cat $b/commands)" "ars_cap ars_start ars_status clear_error cmd_call "
done

# the DIMMs of nfit_test.0 answer label commands and, as 6.1's mock, the
# health firmware (SMART natively and through cmd_call); nfit_test.1's
# answers none
c="smart smart_thresh flags get_size get_data set_data cmd_call "
got=$(for d in 0 1 2 3 4; do echo -n "$(cat /sys/bus/nd/devices/nmem$d/commands)|"; done)
expect_eq "nmem0..4 commands" "$got" "$c|$c|$c|$c||"
got=$(for d in 0 1 2 3 4; do echo -n "$(cat /sys/bus/nd/devices/nmem$d/state) "; done)
expect_eq "every DIMM is active (mapped by an enabled region)" "$got" "active active active active active "

# nfit_test.1: one io namespace that nd_pmem attached at once
ns=$b1/region6/namespace6.0
if [ -d $ns ]; then
	got="$(cat $ns/nstype) $(cat $ns/size) $(readlink $ns/driver | sed 's,.*/,,') $(nt_blockdev $ns)"
	expect_eq "namespace6.0: io namespace of the whole range, on nd_pmem" "$got" \
		"4 $NT_DIMM_SIZE nd_pmem pmem6"
	[ -b /dev/pmem6 ] && ok "/dev/pmem6 exists" || nok "/dev/pmem6 missing"
else
	nok "region6 has no namespace6.0: $(ls $b1/region6 | tr '\n' ' ')"
fi
# nfit_test.0's regions are label-backed (PMEM aliases BLK: nstype 5; BLK:
# nstype 6) and the labels are blank: each has just its idle seed
# namespaceR.0 (size 0, unbound), no namespace of any size
got=
for r in 0 1 2 3 4 5; do
	n=$b0/region$r/namespace$r.0
	got="$got$(ls -d $b0/region$r/namespace[0-9]* 2>/dev/null | sed 's,.*/,,' | tr '\n' ' ')$(cat $n/nstype $n/size 2>&1 | tr '\n' ' ')$([ -e $n/driver ] && echo bound)|"
done
expect_eq "region0..5: only the idle seed namespaceR.0 (name nstype size, unbound)" "$got" \
	"namespace0.0 5 0 |namespace1.0 5 0 |namespace2.0 6 0 |namespace3.0 6 0 |namespace4.0 6 0 |namespace5.0 6 0 |"

# mock addresses: inside the fake window, nowhere in /proc/iomem
bad=
for r in $b0/region0 $b0/region1 $b1/region6; do
	a=$(($(cat $r/resource)))
	if [ $a -lt $NT_PHYS_LO ] || [ $a -ge $NT_PHYS_HI ]; then
		bad="$bad ${r##*/}=$(cat $r/resource)"
	fi
done
[ -z "$bad" ] && ok "PMEM regions live at fake addresses in [2^52, 2^52 + 2^40)" ||
	nok "regions outside the mock window:$bad"
a=$(printf '%x' $(($(cat $b0/region0/resource))))
grep -qi "^ *$a" /proc/iomem && nok "mock range $a is in /proc/iomem" ||
	ok "mock ranges are not in /proc/iomem"
nt_debugfs
if [ -r $NT_IOMAP/ranges ]; then
	cp $NT_IOMAP/ranges $NVT_OUT/nt-ranges.txt
	got=$(awk '{ $1 = ""; print }' $NT_IOMAP/ranges | sort | uniq -c | awk '{ $1 = $1; print }' | tr '\n' ';')
	expect_eq "mock ranges published (nfit_test_iomap ranges)" "$got" \
		"3 PM range;4 block-window aperture;4 control registers;1 flush hints;"
else
	nok "no $NT_IOMAP/ranges"
fi

# Debian's ndctl 76.1
ndctl list -BDRN > $NVT_OUT/nt-list.json 2> /tmp/nt-list.err
got="$(grep -c '"provider":"nfit_test.[01]"' $NVT_OUT/nt-list.json) $(grep -c '"dev":"nmem' $NVT_OUT/nt-list.json)"
expect_eq "ndctl list -BDRN: buses nfit_test.0/.1, DIMMs 4 + 1" "$got" "2 5"
got="$(grep -c '"type":"pmem"' $NVT_OUT/nt-list.json) $(grep -c '"type":"blk"' $NVT_OUT/nt-list.json)"
expect_eq "ndctl list: 3 pmem regions, 4 blk regions" "$got" "3 4"
grep -q '"blockdev":"pmem6"' $NVT_OUT/nt-list.json && ok "ndctl list shows namespace6.0 as pmem6" ||
	nok "ndctl list has no pmem6: $(cat /tmp/nt-list.err)"
