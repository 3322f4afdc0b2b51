# pfn-nt: pfn and dax devices on nfit_test.1's 32 MiB label-less namespace
# (after btt-nt, which leaves it raw and its region read-only): the seeds
# and their attributes, bad input (each refused with its errno, nothing
# changed), a pfn configured through sysfs while the namespace is enabled,
# bound once it is not, its info block on the DIMM media field by field,
# I/O through /dev/pmemN at the data offset, a second claim refused, a
# block whose start_pad would carry its data past the namespace (refused;
# the same start_pad with the data up to the end works), a damaged info
# block (logged, the namespace stays raw, nothing written,
# a configured pfn refuses to overwrite it), autodetect at re-enable
# clearing the bad sectors of the memory map's area, a configuration that
# contradicts the media, and a dax device (the test build's device_dax
# maps the mock range).  Left raw and read-only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"

nd_settle
nt_debugfs
modprobe dax_pmem 2> /dev/null
b1=$(nt_bus 1)
r=$(ls -d $b1/region* 2> /dev/null | head -n 1)
ns=$(ls -d $r/namespace* 2> /dev/null | head -n 1)
if [ -z "$ns" ]; then
	nok "nfit_test.1 has no namespace"
	exit 0
fi
n=${ns##*/}
R=${r##*region}
echo 0 > $r/read_only
media=$NT_DBG/nfit_test.1/dimm0/media
bind=/sys/bus/nd/drivers/nd_pmem/bind
unbind=/sys/bus/nd/drivers/nd_pmem/unbind
DDC=/sys/kernel/debug/dynamic_debug/control
[ ! -e $DDC ] || echo 'file pfn_devs.c +p' > $DDC

# pfn_sb FIELD: a field of the info block on the media (namespace offset
# 4096 is media offset 4096 here), decimal
pfn_sb() {
	local off len
	case $1 in
	dataoff) off=56 len=8 ;; npfns) off=64 len=8 ;; mode) off=72 len=4 ;;
	start_pad) off=76 len=4 ;; end_trunc) off=80 len=4 ;;
	align) off=84 len=4 ;; page_size) off=88 len=4 ;;
	page_struct_size) off=92 len=2 ;; version) off=54 len=2 ;;
	esac
	dd if=$media bs=1 skip=$((4096 + off)) count=$len 2> /dev/null |
		od -An -t u$len | tr -d ' '
}
pfn_sig() {
	dd if=$media bs=1 skip=4096 count=15 2>/dev/null | tr -c 'A-Z_' '.'
}
# raw_put DD-ARGS...: dd onto the namespace itself (force_raw, bound, then
# unbound again); nfit_test's media file is read-only
raw_put() {
	local raw
	echo 1 > $ns/force_raw
	echo $n > $bind
	nd_settle
	raw=$(nt_blockdev $ns)
	dd of=/dev/$raw conv=notrunc oflag=direct "$@" 2> /dev/null
	sync
	echo $n > $unbind
	echo 0 > $ns/force_raw
}
meta_sum() {
	dd if=$media bs=4096 count=2 2> /dev/null | md5sum | cut -d' ' -f1
}
# sb_put FILE OFFSET BYTES VALUE: a little-endian field into a block file
sb_put() {
	local f=$1 off=$2 n=$3 v=$4 i=0 esc=
	while [ $i -lt $n ]; do
		esc="$esc\\$(printf '%03o' $(( (v >> (8 * i)) & 255 )))"
		i=$((i + 1))
	done
	printf "$esc" | dd of=$f bs=1 seek=$off conv=notrunc 2> /dev/null
}
# sb_seal FILE: the block's checksum (Fletcher-64 of its u32 words, the
# checksum field counted as zero) written at 4088
sb_seal() {
	local lo=0 hi=0 w
	sb_put $1 4088 8 0
	for w in $(od -An -v -t u4 $1); do
		lo=$(( (lo + w) & 0xffffffff ))
		hi=$(( (hi + lo) & 0xffffffff ))
	done
	sb_put $1 4088 4 $lo
	sb_put $1 4092 4 $hi
}
# pfn_media_seed: ps/pf = the pfn seed, configured as the media's block
# (uuid $U, mode pmem, align 4096) on the namespace
pfn_media_seed() {
	ps=$(cat $r/pfn_seed)
	pf=$r/$ps
	expect_eq "$ps: the media's uuid, mode pmem, align 4096, namespace $n" \
		"$(ns_w $pf/uuid $U) $(ns_w $pf/mode pmem) $(ns_w $pf/align 4096) $(ns_w $pf/namespace $n)" \
		"ok ok ok ok"
}
# pfn_within WHEN: no bound pfn device of the region has data past the
# end of the namespace (resource + size, and its disk's size)
pfn_within() {
	local d dk end bad= sz
	end=$(( $(cat $ns/resource) + $(cat $ns/size) ))
	for d in $r/pfn$R.*; do
		[ -e $d/driver ] || continue
		sz=$(cat $d/size)
		dk=$(ls $d/block 2> /dev/null | head -n 1)
		[ -z "$dk" ] || sz=$(( $(cat /sys/block/$dk/size) * 512 ))
		[ $(( $(cat $d/resource) + sz )) -le $end ] ||
			bad="$bad ${d##*/}: $(cat $d/resource) + $sz"
	done
	[ -z "$bad" ] && ok "$1: no pfn disk reaches past the namespace's end" ||
		nok "$1: data past the namespace's end $(printf '%#x' $end):$bad"
}

# --- the idle seeds ----------------------------------------------------------
ps=$(cat $r/pfn_seed 2> /dev/null)
ds=$(cat $r/dax_seed 2> /dev/null)
case "$ps $ds" in
"pfn$R."*" dax$R."*) ok "${r##*/}: pfn_seed $ps, dax_seed $ds" ;;
*) nok "${r##*/}: pfn_seed '$ps', dax_seed '$ds'"; exit 0 ;;
esac
pf=$r/$ps
dx=$r/$ds
# x86-64 with huge pages (TCG's CPU has PSE): 4 KiB, 2 MiB, 1 GiB; 2 MiB
# default.  A kernel built without CONFIG_TRANSPARENT_HUGEPAGE (PREEMPT_RT:
# the rt-amd64 flavour) has no /sys/kernel/mm/transparent_hugepage and maps
# 4 KiB pages only: 4 KiB is then the only alignment, and the default.
if [ -d /sys/kernel/mm/transparent_hugepage ]; then
	thp=1 aligns="4096 2097152 1073741824" dalign=2097152
else
	thp= aligns=4096 dalign=4096
fi
expect_eq "$ps: idle state (uuid, mode, align, supported_alignments, namespace, modalias, size, resource)" \
	"$(ns_rd $pf/uuid) $(cat $pf/mode) $(cat $pf/align) $(cat $pf/supported_alignments) $(ns_rd $pf/namespace) $(cat $pf/modalias) $(ns_rd $pf/size) $(ns_rd $pf/resource)" \
	"- none $dalign $aligns  - nd:t4 err err"
expect_eq "$ds: idle state (mode, align, modalias, devtype)" \
	"$(cat $dx/mode) $(cat $dx/align) $(cat $dx/modalias) $(cat $dx/devtype)" \
	"none $dalign nd:t7 nd_dax"
expect_eq "$n: mode raw, no holder" "$(cat $ns/mode) $(ns_rd $ns/holder)" "raw -"

# --- bad input ---------------------------------------------------------------
before="$(ns_rd $pf/uuid) $(cat $pf/mode) $(cat $pf/align) $(ns_rd $pf/namespace)"
dmark
expect_eq "mode 'bogus'" "$(ns_w $pf/mode bogus)" "Invalid argument"
expect_eq "mode 'pmemx'" "$(ns_w $pf/mode pmemx)" "Invalid argument"
expect_eq "align 8192 (not a CPU mapping size)" "$(ns_w $pf/align 8192)" "Invalid argument"
expect_eq "align 2097152x" "$(ns_w $pf/align 2097152x)" "Invalid argument"
expect_eq "align 0" "$(ns_w $pf/align 0)" "Invalid argument"
expect_eq "align 2^64" "$(ns_w $pf/align 18446744073709551616)" "Invalid argument"
expect_eq "uuid 'bogus'" "$(ns_w $pf/uuid bogus)" "Invalid argument"
expect_eq "namespace namespace99.9" "$(ns_w $pf/namespace namespace99.9)" "No such device"
expect_eq "bind $ps unconfigured" "$(ns_w $bind $ps)" "No such device"
expect_eq "$ps unchanged by the refused writes" \
	"$(ns_rd $pf/uuid) $(cat $pf/mode) $(cat $pf/align) $(ns_rd $pf/namespace)" "$before"
if [ -e $DDC ]; then
	dsince | grep -q "$ps: align: '8192' is not one of supported_alignments" &&
		ok "the refused align is logged" || nok "no log line for the refused align"
else
	skip "the refusals are logged (dev_dbg)" "no $DDC (CONFIG_DYNAMIC_DEBUG off)"
fi

# --- configured while the namespace is enabled, bound once it is not --------
U=$(cat /proc/sys/kernel/random/uuid)
expect_eq "$ps: uuid, mode pmem, align 4096, namespace $n while $n is enabled" \
	"$(ns_w $pf/uuid $U) $(ns_w $pf/mode pmem) $(ns_w $pf/align 4096) $(ns_w $pf/namespace $n)" "ok ok ok ok"
expect_eq "$n: holder $ps, mode memory, still bound" \
	"$(ns_rd $ns/holder) $(cat $ns/mode) $(ns_driver $ns)" "$ps memory nd_pmem"
expect_eq "bind $ps while $n is enabled" "$(ns_w $bind $ps)" "Device or resource busy"
expect_eq "$ds: namespace $n (claimed by $ps)" "$(ns_w $dx/namespace $n)" "Device or resource busy"
bs=$(btt_seed_dir $r)
expect_eq "${bs##*/}: namespace $n (claimed by $ps)" "$(ns_w $bs/namespace $n)" "Device or resource busy"
echo $n > $unbind
expect_eq "bind $ps" "$(ns_w $bind $ps)" ok
nd_settle
disk=$(ls $pf/block 2> /dev/null | head -n 1)
expect_eq "$ps: disk named as the namespace's" "$disk" "$(echo ${r##*/} | sed 's/region/pmem/')"
# 32 MiB, struct pages on the media: 8190 pages * 64 bytes + 8 KiB rounded
# up to 2 MiB (the memory map's section alignment) = data at 2 MiB, 30 MiB
nsres=$(cat $ns/resource)
expect_eq "$ps: size, resource, /dev/$disk bytes" \
	"$(cat $pf/size) $(cat $pf/resource) $(blockdev --getsize64 /dev/$disk 2>&1)" \
	"31457280 $(printf '%#x' $((nsres + 2097152))) 31457280"
expect_eq "info block: signature, version, dataoff, npfns, mode, start_pad, end_trunc, align, page_size, page_struct_size" \
	"$(pfn_sig) $(pfn_sb version) $(pfn_sb dataoff) $(pfn_sb npfns) $(pfn_sb mode) $(pfn_sb start_pad) $(pfn_sb end_trunc) $(pfn_sb align) $(pfn_sb page_size) $(pfn_sb page_struct_size)" \
	"NVDIMM_PFN_INFO 4 2097152 7680 2 0 0 4096 4096 64"
nseed=$(cat $r/pfn_seed)
[ -n "$nseed" ] && [ "$nseed" != "$ps" ] && ok "pfn_seed advanced to $nseed" ||
	nok "pfn_seed did not advance: '$nseed'"
expect_eq "writes to a bound pfn: mode, align, namespace ''" \
	"$(ns_w $pf/mode ram) $(ns_w $pf/align 2097152) $(ns_w $pf/namespace '')" \
	"Device or resource busy Device or resource busy Device or resource busy"
# the test build serves DAX from the mock's pages (nt-dax, docs/nfit_test.md)
expect_eq "/dev/$disk: DAX on a mock range in the test build (queue/dax)" "$(cat /sys/block/$disk/queue/dax 2>&1)" 1

# --- I/O at the data offset ----------------------------------------------------
nvt-pattern write /dev/$disk 0 1M 6101 > /dev/null 2>&1
nvt-pattern write /dev/$disk -4096 4096 6102 > /dev/null 2>&1
sync
check "/dev/$disk: patterns read back" nvt-pattern verify /dev/$disk 0 1M 6101
dd if=$media of=/tmp/pfn.m bs=4096 skip=512 count=256 2> /dev/null
nvt-pattern gen 6101 1M > /tmp/pfn.want
check "the first MiB of /dev/$disk is on the media at 2 MiB" cmp /tmp/pfn.m /tmp/pfn.want
dd if=$media of=/tmp/pfn.m bs=4096 skip=8191 count=1 2> /dev/null
nvt-pattern gen 6102 4096 > /tmp/pfn.want
check "the last page of /dev/$disk is the media's last page" cmp /tmp/pfn.m /tmp/pfn.want

# --- released: autodetect at re-enable -----------------------------------------
btt_release $pf
expect_eq "$n: no holder, mode raw after release" "$(ns_rd $ns/holder) $(cat $ns/mode)" "- raw"
# bad sectors in the memory map's area (namespace offset 1 MiB: between
# the info block and the data at 2 MiB), known to the region after a
# scrub: the attach clears them (zeroes written through Clear Error, as
# 6.1 does; ndctl's pfn-meta-errors.sh), the data is untouched
mm_bb() { v=$(tr '\n' ' ' < $r/badblocks); echo "${v:-none}"; }
mm_sec=$(( ($(cat $ns/resource) - $(cat $r/resource) + 1048576) / 512 ))
ndctl inject-error --block=2048 --count=8 $n > /tmp/pfn.inj 2>&1 ||
	nok "ndctl inject-error --block=2048 --count=8 $n: $(head -n 1 /tmp/pfn.inj)"
ndctl start-scrub nfit_test.1 > /dev/null 2>&1; ndctl wait-scrub nfit_test.1 > /dev/null 2>&1
expect_eq "${r##*/} badblocks: the memory map's sectors after inject + scrub" "$(mm_bb)" "$mm_sec 8 "
clears0=$(cat $NT_DBG/nfit_test.1/ars_clears 2> /dev/null || echo 0)
dmark
expect_eq "enable $n (a pfn info block on the media)" "$(ns_w $bind $n)" "No such device or address"
nd_settle
ap=$(btt_of $ns)
expect_eq "$n: claimed by a new pfn device, mode memory" \
	"$(basename "$ap" 2>/dev/null | cut -c1-3) $(cat $ns/mode)" "pfn memory"
expect_eq "${ap##*/}: uuid, mode, align from the media, bound to nd_pmem" \
	"$(ns_rd $ap/uuid) $(cat $ap/mode) $(cat $ap/align) $(ns_driver $ap)" "$U pmem 4096 nd_pmem"
check "/dev/$disk: data intact after autodetect" nvt-pattern verify /dev/$disk 0 1M 6101
expect_eq "${r##*/} badblocks after the attach: the memory map's cleared" "$(mm_bb)" none
expect_eq "the mock's poison map after it" "$(head -n 4 $NT_DBG/nfit_test.1/dimm0/poison | tr '\n' ' ')" ""
clears1=$(cat $NT_DBG/nfit_test.1/ars_clears 2> /dev/null || echo 0)
[ $((clears1 - clears0)) -ge 1 ] && ok "through the mock's Clear Error ($((clears1 - clears0)) calls)" ||
	nok "no Clear Error for the memory map ($clears0 -> $clears1)"
if [ -e $DDC ]; then
	dsince | grep -q "${ap##*/}: $n: memory map: bad sectors at \[0x100000, 0x101000), cleared" &&
		ok "the clearing is logged" || nok "no log line for the memory map's bad sectors"
fi
dsince | grep -q "$n: pfn info block 1.4 found: claimed by ${ap##*/}" &&
	ok "the autodetect is logged" || nok "no log line for the autodetect"

# --- a configuration the media contradicts --------------------------------------
btt_release $ap
ps=$(cat $r/pfn_seed)
pf=$r/$ps
sum=$(meta_sum)
if [ -z "$thp" ]; then
	skip "$ps: bind with an align the media contradicts" \
		"kernel without transparent huge pages: 4096, the media's, is the only align"
else
	expect_eq "$ps: uuid of the media, align 2 MiB, namespace $n" \
		"$(ns_w $pf/uuid $U) $(ns_w $pf/mode pmem) $(ns_w $pf/align 2097152) $(ns_w $pf/namespace $n)" "ok ok ok ok"
	dmark
	expect_eq "bind $ps (media says align 4096)" "$(ns_w $bind $ps)" "Operation not supported"
	expect_eq "info block untouched" "$(meta_sum)" "$sum"
	dsince | grep -q "$ps: $n: its info block has mode 2 align 4096, this device mode 2 align 2097152: not attached" &&
		ok "the mismatch is logged" || nok "no log line for the mismatch"
	btt_release $pf
fi

# --- a start_pad the bound must count (issue 26, item 1) --------------------------
# The kernel's block on the media (dataoff 2 MiB, 7680 pages: the namespace
# behind dataoff) with start_pad 2 MiB added and sealed again: its data
# would be [4 MiB, 34 MiB) of the 32 MiB namespace, 2 MiB past its end.
# Refused at enable and at bind, nothing written, no disk past the end;
# 7168 pages (exactly to the end) work, the data where start_pad puts it.
dd if=$media of=/tmp/pfn.good bs=4096 skip=1 count=1 2> /dev/null
cp /tmp/pfn.good /tmp/pfn.pad
sb_seal /tmp/pfn.pad
check "the script's checksum is the kernel's (its block sealed again unchanged)" \
	cmp /tmp/pfn.good /tmp/pfn.pad
sb_put /tmp/pfn.pad 76 4 2097152
sb_seal /tmp/pfn.pad
raw_put if=/tmp/pfn.pad bs=4096 seek=1 count=1
expect_eq "on the media: dataoff, npfns, start_pad, end_trunc" \
	"$(pfn_sb dataoff) $(pfn_sb npfns) $(pfn_sb start_pad) $(pfn_sb end_trunc)" \
	"2097152 7680 2097152 0"
sum=$(meta_sum)
dmark
expect_eq "enable $n (start_pad 2M, dataoff 2M, 7680 pages)" "$(ns_w $bind $n)" ok
nd_settle
expect_eq "$n: raw, no holder" "$(cat $ns/mode) $(ns_rd $ns/holder)" "raw -"
pfn_within "start_pad 2M, 7680 pages, at enable"
dsince | grep -q "$n: pfn info block at 4096: npfns zero or past the mapped range (start_pad, end_trunc counted): not attached as fsdax" &&
	ok "the refusal at enable is logged" ||
	{ nok "no log line for the refusal at enable"; dsince | tail -n 5 | sed 's/^/#   /'; }
ap=$(btt_of $ns)
[ -z "$ap" ] || btt_release $ap
[ ! -e $ns/driver ] || echo $n > $unbind
pfn_media_seed
dmark
expect_eq "bind $ps (start_pad 2M, dataoff 2M, 7680 pages)" "$(ns_w $bind $ps)" "Invalid argument"
nd_settle
pfn_within "start_pad 2M, 7680 pages, at bind"
expect_eq "info block not overwritten" "$(meta_sum)" "$sum"
dsince | grep -q "$ps: $n: info block at 4096 is damaged (npfns zero or past the mapped range (start_pad, end_trunc counted)): not overwritten" &&
	ok "the refusal at bind is logged" ||
	{ nok "no log line for the refusal at bind"; dsince | tail -n 5 | sed 's/^/#   /'; }
btt_release $pf
# exactly to the end: 7168 pages, the disk at 4 MiB
sb_put /tmp/pfn.pad 64 8 7168
sb_seal /tmp/pfn.pad
raw_put if=/tmp/pfn.pad bs=4096 seek=1 count=1
pfn_media_seed
expect_eq "bind $ps (start_pad 2M, dataoff 2M, 7168 pages)" "$(ns_w $bind $ps)" ok
nd_settle
disk=$(ls $pf/block 2> /dev/null | head -n 1)
expect_eq "$ps: size, resource, /dev/$disk bytes" \
	"$(ns_rd $pf/size) $(ns_rd $pf/resource) $(blockdev --getsize64 /dev/$disk 2>&1)" \
	"29360128 $(printf '%#x' $((nsres + 4194304))) 29360128"
pfn_within "start_pad 2M, 7168 pages"
nvt-pattern write /dev/$disk 0 4096 6103 > /dev/null 2>&1
nvt-pattern write /dev/$disk -4096 4096 6104 > /dev/null 2>&1
sync
dd if=$media of=/tmp/pfn.m bs=4096 skip=1024 count=1 2> /dev/null
nvt-pattern gen 6103 4096 > /tmp/pfn.want
check "the first page of /dev/$disk is the media's at 4 MiB" cmp /tmp/pfn.m /tmp/pfn.want
dd if=$media of=/tmp/pfn.m bs=4096 skip=8191 count=1 2> /dev/null
nvt-pattern gen 6104 4096 > /tmp/pfn.want
check "the last page of /dev/$disk is the media's last page" cmp /tmp/pfn.m /tmp/pfn.want
btt_release $pf
# the kernel's block back, for what follows
raw_put if=/tmp/pfn.good bs=4096 seek=1 count=1

# --- a damaged info block -------------------------------------------------------
# one byte of the padding: only the checksum tells
dd if=$media of=/tmp/pfn.ib bs=4096 skip=1 count=1 2> /dev/null
printf 'X' | dd of=/tmp/pfn.ib bs=1 seek=200 conv=notrunc 2> /dev/null
raw_put if=/tmp/pfn.ib bs=4096 seek=1 count=1
sum=$(meta_sum)
dmark
expect_eq "enable $n (damaged info block)" "$(ns_w $bind $n)" ok
nd_settle
expect_eq "$n: raw, bound, no holder" "$(cat $ns/mode) $(ns_driver $ns) $(ns_rd $ns/holder)" "raw nd_pmem -"
dsince | grep -q "$n: pfn info block at 4096: .*checksum.*: not attached as fsdax (left as it is)" &&
	ok "the damaged block is logged" || { nok "no log line for the damaged block"; dsince | tail -n 5 | sed 's/^/#   /'; }
echo $n > $unbind
expect_eq "info block untouched by the raw enable" "$(meta_sum)" "$sum"
ps=$(cat $r/pfn_seed)
pf=$r/$ps
expect_eq "$ps: a new uuid, mode pmem, namespace $n" \
	"$(ns_w $pf/uuid $(cat /proc/sys/kernel/random/uuid)) $(ns_w $pf/mode pmem) $(ns_w $pf/namespace $n)" "ok ok ok"
dmark
expect_eq "bind $ps (damaged info block)" "$(ns_w $bind $ps)" "Invalid argument"
expect_eq "info block not overwritten" "$(meta_sum)" "$sum"
dsince | grep -q "$ps: $n: info block at 4096 is damaged (.*): not overwritten" &&
	ok "the refusal is logged" || nok "no log line for the refusal"
btt_release $pf

# --- a dax device: the test build's device_dax maps the mock range ---------------
raw_put if=/dev/zero bs=4096 count=2
ds=$(cat $r/dax_seed)
dx=$r/$ds
expect_eq "$ds: uuid, mode pmem, namespace $n" \
	"$(ns_w $dx/uuid $(cat /proc/sys/kernel/random/uuid)) $(ns_w $dx/mode pmem) $(ns_w $dx/namespace $n)" "ok ok ok"
expect_eq "$n: mode dax while claimed by $ds" "$(cat $ns/mode)" "dax"
modprobe -q device_dax 2> /dev/null
if [ -d /sys/bus/nd/drivers/dax_pmem ]; then
	expect_eq "bind $ds to dax_pmem (a mock range, test build)" \
		"$(ns_w /sys/bus/nd/drivers/dax_pmem/bind $ds)" ok
	nd_settle
	expect_eq "info block: signature (dax), dataoff" "$(dd if=$media bs=1 skip=4096 count=15 2>/dev/null) $(pfn_sb dataoff)" \
		"NVDIMM_DAX_INFO 2097152"
	inst=$(cd $dx && ls -d dax[0-9]* 2> /dev/null | head -n 1)
	# 6.1's DEV_DAX needs THP: no device_dax without it (rt-amd64)
	[ -n "$thp" ] && drv=device_dax || drv=
	expect_eq "$ds: instance ${inst:-none} bound to ${drv:-no driver (no THP)}, size" \
		"$(basename "$(readlink /sys/bus/dax/devices/$inst/driver 2> /dev/null)") $(cat /sys/bus/dax/devices/$inst/size 2> /dev/null)" \
		"$drv 31457280"
else
	nok "dax_pmem is not loaded"
fi
btt_release $dx
# its info block would claim the namespace again at enable (autodetect)
raw_put if=/dev/zero bs=4096 count=2

# --- left raw and read-only --------------------------------------------------------
expect_eq "enable $n raw" "$(ns_w $bind $n)" ok
nd_settle
expect_eq "$n: raw, no holder" "$(cat $ns/mode) $(ns_rd $ns/holder)" "raw -"
echo 1 > $r/read_only
[ ! -e $DDC ] || echo 'file pfn_devs.c -p' > $DDC
