# ns-hardening: sizes that overflow, on QEMU's labelled DIMM, run the same
# way on the stock modules and on ours (issue 10 defect 1): the stock
# kernel is the oracle for every errno and available_size here.
#
#   init-labels, two 16M raw namespaces (DPA [0,16M) and [16M,32M)), a
#   pattern on the second, which is then disabled
#   size writes on it that must fail with ENOSPC and change nothing
#   (available_size, max_available_extent, seed, sizes, label area
#   bytes): 0xffffffffff000000 (offset + size wraps in u64), the largest
#   multiple of 16M, available_size + what it holds + 16M
#   a third namespace then gets DPA [32M,48M): the second keeps its data
#   a label whose dpa + rawsize wraps (written with the regions off):
#   its namespace is left unclaimed, the kernel says why, and its DPA is
#   not handed out again
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/ns.inc"

ENOSPC="No space left on device"
ns_qemu_label_dimm || exit 0
M=$MiB
U0=4a4d0000-0000-4000-8000-000000000000
U1=4a4d0000-0000-4000-8000-000000000001
U2=4a4d0000-0000-4000-8000-000000000002

snap() {
	{
		grep -s . $R/available_size $R/max_available_extent $R/namespace_seed \
			$R/namespace[0-9]*/size $R/namespace[0-9]*/uuid
		ns_area $dimm /tmp/hd.area && md5sum < /tmp/hd.area
	} | sed "s,$R/,," > $1
}

# bad DESC NS VALUE: the size write fails with ENOSPC, nothing changed
bad() {
	local r
	snap /tmp/hd.before
	r=$(ns_w $2/size "$3")
	snap /tmp/hd.after
	if [ "$r" = "$ENOSPC" ] && cmp -s /tmp/hd.before /tmp/hd.after; then
		ok "$1: '$r', nothing changed"
	else
		nok "$1: got '$r' (want '$ENOSPC')"
		diff /tmp/hd.before /tmp/hd.after | grep '^[-+][^-+]' | head -n 8 | sed 's/^/#   /'
	fi
}

ndctl disable-region $region > /tmp/hd.out 2>&1
check "init-labels $dimm" ndctl init-labels -f $dimm
check "enable-region $region" ndctl enable-region $region
nd_settle
size=$(cat $R/size)
check "create-namespace 16M hard-0" ndctl create-namespace -r $region -m raw -s 16M -n hard-0 -u $U0
check "create-namespace 16M hard-1" ndctl create-namespace -r $region -m raw -s 16M -n hard-1 -u $U1
nd_settle
expect_eq "available_size after two 16M creates" "$(cat $R/available_size)" $((size - 32 * M))
expect_eq "max_available_extent after two 16M creates" "$(cat $R/max_available_extent)" $((size - 32 * M))
n1=$(ns_named hard-1) || { nok "hard-1 not found"; exit 0; }
b1=$(ls $n1/block 2>/dev/null)
check "hard-1 ($b1): pattern" nvt-pattern write /dev/$b1 0 16M 7101
check "disable-namespace ${n1##*/}" ndctl disable-namespace ${n1##*/}

avail=$(cat $R/available_size)
bad "size 0xffffffffff000000 (DPA offset + size wraps)" $n1 0xffffffffff000000
bad "size 0xffffffffff000000 (decimal)" $n1 18446744073692774400
bad "size 0xffffffffff000000 - 16M" $n1 0xfffffffffe000000
bad "size available_size + 16M held + 16M" $n1 $((avail + 32 * M))
expect_eq "hard-1 still 16M" "$(cat $n1/size)" $((16 * M))

check "enable-namespace ${n1##*/}" ndctl enable-namespace ${n1##*/}
check "create-namespace 16M hard-2" ndctl create-namespace -r $region -m raw -s 16M -n hard-2 -u $U2
nd_settle
ns_area $dimm /tmp/hd.area
got=$(ns_labels /tmp/hd.area | awk '{ print $1, $2, $8 }' | sed 's/[a-z]*=//g' | tr '\n' ';')
expect_eq "live labels: three 16M extents side by side" "$got" \
	"0 0x1000000 $U0;0x1000000 0x1000000 $U1;0x2000000 0x1000000 $U2;"
check "hard-1 ($b1): pattern intact" nvt-pattern verify /dev/$b1 0 16M 7101

# --- a label whose end wraps: ours only (what 6.1 does with it is not an
# answer to compare with: it may warn, which fails the stock boot) -------
if [ $NVT_SET = stock ]; then
	ndctl destroy-namespace -f all -r $region > /dev/null 2>&1
	exit 0
fi
ndctl disable-region $region > /tmp/hd.out 2>&1
ns_area $dimm /tmp/hd.area
slot=$(nvt-labels show /tmp/hd.area | awk -v u=uuid=$U1 '$1 == "label" && $3 == u { print $2 }')
nvt-labels set /tmp/hd.area $slot rawsize 0xffffffffff000000 > /tmp/hd.out 2>&1 &&
	nd-label-ioctl write /dev/$dimm /tmp/hd.area > /tmp/hd.out 2>&1 ||
	nok "patch the label of hard-1 (slot '$slot'): $(cat /tmp/hd.out)"
echo $dimm > /sys/bus/nd/drivers/nvdimm/unbind
echo $dimm > /sys/bus/nd/drivers/nvdimm/bind
ns_mark
check "enable-region $region (a label's end wraps)" ndctl enable-region $region
nd_settle
if ns_named hard-1 > /dev/null; then
	got=claimed
else
	got=unclaimed
fi
expect_eq "hard-1 (label end wraps) left unclaimed" $got unclaimed
ns_log_since | grep -q "$U1.*wraps" &&
	ok "kernel log: $(ns_log_since | grep "$U1.*wraps" | head -n 1 | sed 's/^\[[^]]*\] //')" ||
	nok "kernel log does not say the label of $U1 wraps"
# its DPA stays busy: everything above 16M, hard-2 included, is taken
expect_eq "available_size: nothing above the wrapping label is free" \
	"$(cat $R/available_size)" 0
ns_named hard-0 > /dev/null && ok "hard-0 (below it) still comes up" || nok "hard-0 lost"
# hard-2's DPA lies inside the wrapping range: an overlap, both unclaimed
ns_named hard-2 > /dev/null && nok "hard-2 claimed inside the wrapping range" ||
	ok "hard-2 (inside the wrapping range) left unclaimed"
ndctl destroy-namespace -f all -r $region > /dev/null 2>&1
true
