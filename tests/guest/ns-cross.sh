# ns-cross: namespaces created on our modules are found by the stock
# modules after a reboot (issue 5 §6, the direction label-ns does not
# cover).  QEMU's labelled DIMM (nmem1).
#
#   ours boot:  label area zeroed, then Debian's ndctl 76.1
#               `create-namespace -f -e namespaceN.0 -m raw` over the io
#               namespace of the label-less region (ndctl writes v1.2
#               indexes itself, "autolabel", and falls back to v1.1 if the
#               kernel's available_slots disagree), destroyed again; then 48M "cross-a" and 16M "cross-b" with
#               fixed uuids, a pattern on each block device;
#               `ndctl list -RNu` -> $NVT_OUT/ns-cross.json
#   stock boot (same backing files, must run before anything rewrites
#               nmem1's labels): both namespaces with their uuid, name,
#               size, mode raw, v1.2 labels, and the patterns read back
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/ns.inc"

OUTF=$NVT_OUT/ns-cross.json
UA=c5055000-0000-4000-8000-00000000000a
UB=c5055000-0000-4000-8000-00000000000b
UF=c5055000-0000-4000-8000-0000000000ff

ns_qemu_label_dimm || exit 0

ns_of() {	# UUID -> namespace dir
	local n
	for n in $R/namespace[0-9]*; do
		[ "$(cat $n/uuid 2>/dev/null)" = "$1" ] && { echo $n; return 0; }
	done
	return 1
}

NSES="$UA:cross-a:48:5201 $UB:cross-b:16:5202"

# A marker on the first sector of the label-less DIMM's pmem device says
# that the creating boot ran on these backing files ("ns-cross BOOT");
# the verifying boot clears it.  Without it (make check-stock, which
# skips the ours boot) the verification is skipped, not failed.
mark_dev=
for r in /sys/bus/nd/devices/region*; do
	case $(cat $r/mapping0 2>/dev/null) in
	$dimm,*|"") ;;
	*) mark_dev=/dev/$(ls -d $r/namespace*/block/* 2>/dev/null | head -n 1 | sed 's,.*/,,') ;;
	esac
done
MARK="ns-cross created by"

# the role follows the module set; NS_CROSS_ROLE=create|verify (kernel
# command line, NVT_APPEND) overrides it to try either half on one set
role=${NS_CROSS_ROLE:-verify}
[ -z "$NS_CROSS_ROLE" ] && [ "$NVT_SET" != stock ] && role=create
if [ $role = create ]; then
	# --- create on ours ------------------------------------------------------
	ndctl disable-region $region > /tmp/nc.out 2>&1 || nok "disable-region: $(cat /tmp/nc.out)"
	nd-label-ioctl write /dev/$dimm /dev/zero > /tmp/nc.out 2>&1 || nok "zero $dimm: $(cat /tmp/nc.out)"
	echo $dimm > /sys/bus/nd/drivers/nvdimm/unbind
	echo $dimm > /sys/bus/nd/drivers/nvdimm/bind
	ndctl enable-region $region > /tmp/nc.out 2>&1 || nok "enable-region: $(cat /tmp/nc.out)"
	nd_settle
	[ $NVT_SET = stock ] ||
		expect_eq "$region label-less before (nstype)" "$(cat $R/nstype)" 4
	# ndctl labels a label-less region when its io namespace is
	# reconfigured (create-namespace -f -e; with -s it refuses: "Legacy /
	# label-less namespaces do not support sub-dividing a region"): it
	# writes v1.2 indexes, checks the kernel's available_slots, enables
	# the region and configures its seed over the whole region; that
	# namespace is destroyed again
	io=$(ls -d $R/namespace[0-9]* 2>/dev/null | head -n 1)
	check "create-namespace -f -e ${io##*/} -m raw (reconfigure the io namespace: ndctl autolabel)" \
		ndctl create-namespace -f -e ${io##*/} -m raw -n cross-full -u $UF
	nd_settle
	ndctl read-labels -j $dimm > $NVT_OUT/ns-cross.autolabel.json 2>/dev/null
	expect_eq "autolabel: $region nstype | index blocks with minor 2 (ndctl did not fall back to v1.1)" \
		"$(cat $R/nstype) | $(grep -c '"minor":2' $NVT_OUT/ns-cross.autolabel.json)" "5 | 2"
	n=$(ns_of $UF)
	check "destroy-namespace -f ${n##*/} (cross-full)" ndctl destroy-namespace -f ${n##*/}
	for e in $NSES; do
		IFS=: read u name mib seed <<EOF
$e
EOF
		check "create-namespace -r $region -m raw -s ${mib}M -n $name -u $u" \
			ndctl create-namespace -r $region -m raw -s ${mib}M -n $name -u $u
		nd_settle
		n=$(ns_of $u)
		b=$(ls $n/block 2>/dev/null | head -n 1)
		if [ -n "$b" ] && nvt-pattern write /dev/$b 0 4M $seed > /tmp/nc.out 2>&1 &&
			nvt-pattern write /dev/$b -1M 1M $((seed + 50)) >> /tmp/nc.out 2>&1; then
			ok "$name (${n##*/}, /dev/$b): pattern written (first 4M, last 1M)"
		else
			nok "$name: no namespace / block device or write failed: '$n' '$b' $(cat /tmp/nc.out)"
		fi
	done
	ndctl list -RNu > $OUTF 2>&1
	ndctl read-labels -j $dimm > $NVT_OUT/ns-cross.labels.json 2>/dev/null
	grep -q '"minor":2' $NVT_OUT/ns-cross.labels.json &&
		ok "labels on $dimm are v1.2" ||
		nok "labels are not v1.2: $(tr -d ' \n' < $NVT_OUT/ns-cross.labels.json | head -c 300)"
	{ echo "$MARK $NVT_NAME ($NVT_SET)"; dd if=/dev/zero bs=448 count=1 2>/dev/null; } |
		dd of=$mark_dev bs=512 count=1 conv=sync 2>/dev/null && sync ||
		nok "cannot write the marker to '$mark_dev'"
	exit 0
fi

# --- find them on stock --------------------------------------------------------
from=$(dd if=$mark_dev bs=512 count=1 2>/dev/null | head -n 1 | tr -d '\000')
case $from in
"$MARK "*) diag "$from" ;;
*)	skip "namespaces created by the other module set" \
		"no '$MARK' marker on $mark_dev: the creating boot did not run on these backing files"
	exit 0 ;;
esac
dd if=/dev/zero of=$mark_dev bs=512 count=1 2>/dev/null
nd_settle
ndctl list -RNu > $OUTF 2>&1
ndctl read-labels -j $dimm > $NVT_OUT/ns-cross.labels.json 2>/dev/null
diag "$(tr -d '\n ' < $OUTF | head -c 600)"
expect_eq "$region nstype (labelled)" "$(cat $R/nstype)" 5
grep -q '"minor":2' $NVT_OUT/ns-cross.labels.json &&
	ok "v1.2 labels on $dimm" || nok "labels are not v1.2"
for e in $NSES; do
	IFS=: read u name mib seed <<EOF
$e
EOF
	n=$(ns_of $u)
	if [ -z "$n" ]; then
		nok "$name ($u): not found by the stock modules"
		continue
	fi
	expect_eq "$name (${n##*/}): uuid-matched namespace's size mode alt_name" \
		"$(cat $n/size) $(cat $n/mode) $(cat $n/alt_name)" "$((mib * MiB)) raw $name"
	grep -q "\"uuid\":\"$u\"" $OUTF && grep -q "\"name\":\"$name\"" $OUTF &&
		ok "$name: ndctl list shows its uuid and name" ||
		nok "$name: ndctl list lacks uuid $u / name $name"
	b=$(ls $n/block 2>/dev/null | head -n 1)
	if [ -n "$b" ] && nvt-pattern verify /dev/$b 0 4M $seed > /tmp/nc.out 2>&1 &&
		nvt-pattern verify /dev/$b -1M 1M $((seed + 50)) >> /tmp/nc.out 2>&1; then
		ok "$name (/dev/$b): the data written on our modules reads back"
	else
		nok "$name: no block device or data differs: '$b' $(cat /tmp/nc.out)"
	fi
done
