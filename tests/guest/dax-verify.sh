# dax-verify: a later boot of the DAX power-cycle test (issue 13; see
# dax.inc), on the backing files dax-write (or a previous dax-verify) left.
#   - the namespaces come back as they were made: `ndctl list` mode, map,
#     align (and name) as dax-write asked for them; mode, map, uuid, size,
#     align as the record says dax-write's `ndctl list` printed them
#   - ext4 and xfs mount -o dax again (read-write), the files of the
#     record's generation read back through mmap, the device-dax extents
#     too
#   - bad input, each answer as Debian's stock 6.1 modules give it, and
#     nothing changed by it (errno as the shell prints it; the kernel only
#     logs these at debug level: the lines are shown as diagnostics):
#       mounted fsdax namespace: ndctl disable-namespace, destroy-namespace
#         -f and create-namespace -f -e -m raw refused (ndctl's exclusive
#         open: EBUSY); its active pfn device's namespace, align, mode,
#         uuid not writable (EBUSY); still mounted, data intact
#       idle pfn seed: align 12345, 0, 2M (not a number) refused (EINVAL),
#         align unchanged
#       idle pfn, dax and btt seeds given a namespace another device claims
#         (devdax, fsdax): EBUSY, the seed stays unattached
#       `ndctl create-namespace -m fsdax -s 8M`: refused by ndctl (16 MiB
#         minimum), region unchanged; the kernel refuses an 8 MiB raw
#         namespace to a pfn and a dax seed (ENXIO, "too small to host"),
#         its data intact
#       a pfn claim (mode pmem) with align 1G on a 16 MiB namespace (the
#         range cannot be mapped at that alignment): bind fails ENXIO
#         ("unable to satisfy requested alignment"), no info block written,
#         the namespace binds raw again with its data; at 2M it takes the
#         claim (control)
#   - then generation G+1 is written over every file and extent (in place)
#     and read back, and the record says G+1: a further boot verifies that
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/dax.inc"

E=/mnt/dax-ext4
X=/mnt/dax-xfs
mkdir -p $E $X
EBUSY="Device or resource busy"
EINVAL="Invalid argument"
ENXIO="No such device or address"
BASE=/sys/bus/nd/devices

dax_regions || exit 0
# without udev nothing loads dax_pmem / device_dax for the devdax namespace
dax_coldplug

# --- the namespaces as dax-write made them -------------------------------
io=$(dax_io_ns)
dd_ns=$(dax_named nvt-devdax)
x_ns=$(dax_named nvt-xfs)
ndctl list -N -n ${io:-none} > $NVT_OUT/dax-io.json 2>&1
ndctl list -N -n ${dd_ns:-none} > $NVT_OUT/dax-devdax.json 2>&1
ndctl list -N -n ${x_ns:-none} > $NVT_OUT/dax-xfs.json 2>&1
F=$NVT_OUT/dax-io.json
expect_eq "${io:-io namespace}: mode | map | align" \
	"$(jget mode $F) | $(jget map $F) | $(jget align $F)" "fsdax | dev | $ALIGN_2M"
F=$NVT_OUT/dax-devdax.json
expect_eq "${dd_ns:-nvt-devdax}: mode | map | align | name" \
	"$(jget mode $F) | $(jget map $F) | $(jget align $F) | $(jget name $F)" \
	"devdax | dev | $ALIGN_2M | nvt-devdax"
F=$NVT_OUT/dax-xfs.json
expect_eq "${x_ns:-nvt-xfs}: mode | map | align | name" \
	"$(jget mode $F) | $(jget map $F) | $(jget align $F) | $(jget name $F)" \
	"fsdax | dev | $ALIGN_2M | nvt-xfs"
blk=$(jget blockdev $NVT_OUT/dax-io.json)
xblk=$(jget blockdev $NVT_OUT/dax-xfs.json)
chr=$(jget chardev $NVT_OUT/dax-devdax.json)

if mount -t ext4 -o dax /dev/${blk:-none} $E > /tmp/m.out 2>&1; then
	ok "mount -t ext4 -o dax /dev/$blk (read-write)"
else
	nok "mount -t ext4 -o dax /dev/$blk: $(cat /tmp/m.out)"
	dmesg | tail -n 5 | sed 's/^/#   /'
	exit 0
fi
case ",$(dax_mount_opts $E)," in
*,rw,*) dax_is_dax_mount $E && ok "ext4 mount options: $(dax_mount_opts $E)" ||
	nok "ext4 mounted without dax: '$(dax_mount_opts $E)'" ;;
*) nok "ext4 not mounted read-write: '$(dax_mount_opts $E)'" ;;
esac
if ! grep -q '^gen=[0-9]*$' $E/$DAX_REC 2>/dev/null; then
	nok "no record $DAX_REC at the root of the ext4 filesystem (did dax-write run on these backing files?)"
	umount $E
	exit 0
fi
cp $E/$DAX_REC $NVT_OUT/dax-state.prev
GEN=$(sed -n 's/^gen=//p' $E/$DAX_REC)
rec() { sed -n "s/^$1=//p" $E/$DAX_REC; }
diag "record: generation $GEN; $(tr '\n' ';' < $E/$DAX_REC)"
for w in io devdax xfs; do
	expect_eq "$w: ndctl list mode, map, uuid, size, align as at creation" \
		"$(dax_summary $NVT_OUT/dax-$w.json)" "$(rec $w)"
done

# --- the data of generation GEN --------------------------------------------
verify_all() {	# WHEN
	local out=/tmp/va.out
	: > $out
	dax_files_do verify $E $GEN >> $out || true
	[ -n "$(dax_mount_opts $X)" ] && { dax_files_do verify $X $GEN >> $out || true; }
	dax_extents_do verify /dev/${chr:-none} $DD_SIZE $GEN >> $out || true
	if [ -s $out ]; then
		nok "$1: data of generation $GEN differs"
		sed 's/^/#   /' $out | head -n 20
	else
		ok "$1: ext4${XOK:+, xfs} files and /dev/$chr extents of generation $GEN read back through mmap"
	fi
}
DD_SIZE=$(rec devdax | sed -n 's/.* size=\([0-9]*\).*/\1/p')
XOK=
if mount -t xfs -o dax /dev/${xblk:-none} $X > /tmp/m.out 2>&1; then
	XOK=1
	dax_is_dax_mount $X && ok "mount -t xfs -o dax /dev/$xblk: $(dax_mount_opts $X)" ||
		nok "xfs mounted without dax: '$(dax_mount_opts $X)'"
else
	nok "mount -t xfs -o dax /dev/$xblk: $(cat /tmp/m.out)"
	dmesg | tail -n 5 | sed 's/^/#   /'
fi
[ -c /dev/$chr ] && ok "/dev/$chr is there (devdax, after coldplug)" || nok "no /dev/$chr"
verify_all "after the power cycle"
out=
for f in $(echo "$DAX_FILES" | cut -d: -f1); do
	nvt-mmap statx $E/$f > /dev/null 2>&1 || out="$out ext4/$f($?)"
	[ -n "$XOK" ] && { nvt-mmap statx $X/$f > /dev/null 2>&1 || out="$out xfs/$f($?)"; }
done
[ -z "$out" ] && ok "STATX_ATTR_DAX set on every file" || nok "STATX_ATTR_DAX not set (exit):$out"

# --- bad input -------------------------------------------------------------
# the kernel says why only at debug level: show those lines
echo 'module libnvdimm +p' > /proc/dynamic_debug/control 2>/dev/null
MARK=$(dmesg | wc -l)

# (1) the mounted fsdax namespace: ndctl refuses to take it away ...
ndctl disable-namespace $io > /tmp/b.out 2>&1; rc1=$?
ndctl destroy-namespace -f $io >> /tmp/b.out 2>&1; rc2=$?
ndctl create-namespace -f -e $io -m raw >> /tmp/b.out 2>&1; rc3=$?
diag "ndctl: $(tr '\n' ' ' < /tmp/b.out)"
expect_eq "mounted $io: disable-namespace | destroy-namespace -f | create-namespace -f -e -m raw refused (exit != 0, EBUSY)" \
	"$([ $rc1 != 0 ] && echo refused) $(grep -c "$EBUSY" /tmp/b.out) | $([ $rc2 != 0 ] && echo refused) | $([ $rc3 != 0 ] && echo refused)" \
	"refused 3 | refused | refused"
# ... and its active pfn device does not change under it
pfn=
for p in $BASE/pfn*; do
	[ "$(dax_rd $p/namespace)" = "$io" ] && [ -e $p/driver ] && pfn=${p##*/}
done
if [ -n "$pfn" ]; then
	expect_eq "active $pfn ($io mounted): namespace '' | align 4096 | mode ram | uuid (new) refused" \
		"$(cd $BASE/$pfn && dax_ws namespace= align=4096 mode=ram uuid=0dd0dd00-1300-4000-8000-000000000001)" \
		"$EBUSY | $EBUSY | $EBUSY | $EBUSY"
else
	nok "no enabled pfn device claims $io: $(ls $BASE | tr '\n' ' ')"
fi
ndctl list -N -n $io > /tmp/after.json 2>&1
expect_eq "$io still mounted -o dax | as at creation" \
	"$(dax_is_dax_mount $E && echo mounted) | $(dax_summary /tmp/after.json)" "mounted | $(rec io)"

# (2) the idle pfn seed of the labelled region: invalid align values
seed=$(dax_rd $BASE/$L_REGION/pfn_seed)
a0=$(dax_rd $BASE/$seed/align)
expect_eq "idle $seed: align 12345 | 0 | 2M (not a number) refused | align unchanged" \
	"$(cd $BASE/$seed && dax_ws align=12345 align=0 align=2M) | $(dax_rd $BASE/$seed/align)" \
	"$EINVAL | $EINVAL | $EINVAL | $a0"

# (3) idle seeds given a namespace that is claimed already
dseed=$(dax_rd $BASE/$L_REGION/dax_seed)
bseed=$(dax_rd $BASE/$L_REGION/btt_seed)
expect_eq "seeds given a claimed namespace: $seed<-$dd_ns (devdax) | $seed<-$x_ns (fsdax) | $dseed<-$x_ns | $bseed<-$dd_ns" \
	"$(cd $BASE && dax_ws $seed/namespace=$dd_ns $seed/namespace=$x_ns $dseed/namespace=$x_ns $bseed/namespace=$dd_ns)" \
	"$EBUSY | $EBUSY | $EBUSY | $EBUSY"
expect_eq "... the seeds stay unattached: $seed | $dseed | $bseed namespace" \
	"$(dax_rd $BASE/$seed/namespace) | $(dax_rd $BASE/$dseed/namespace) | $(dax_rd $BASE/$bseed/namespace)" "- | - | -"

# (4) too small: ndctl's 16 MiB minimum, then the kernel's for a claim
ralign=$(dax_rd $BASE/$L_REGION/align)
avail=$(dax_rd $BASE/$L_REGION/available_size)
expect_eq "$L_REGION align 4096 (so that an 8 MiB namespace fits)" "$(dax_w $BASE/$L_REGION/align 4096)" ok
ndctl create-namespace -r $L_REGION -m fsdax -s 8M > /tmp/b.out 2>&1; rc=$?
diag "ndctl: $(tr '\n' ' ' < /tmp/b.out)"
expect_eq "ndctl create-namespace -m fsdax -s 8M refused (16 MiB minimum) | $L_REGION available_size unchanged" \
	"$([ $rc != 0 ] && echo refused) $(grep -o "must be >= 16MiB" /tmp/b.out) | $(dax_rd $BASE/$L_REGION/available_size)" \
	"refused must be >= 16MiB | $avail"
# claim_raw NAME SIZE: a raw namespace with a pattern on its first MiB;
# sets cns (namespace), cblk (block device), cseed
claim_raw() {
	cns= cblk=
	if ndctl create-namespace -r $L_REGION -m raw -s $2 -n $1 > /tmp/c.json 2> /tmp/c.err; then
		cns=$(jget dev /tmp/c.json)
		cblk=$(jget blockdev /tmp/c.json)
	fi
	cseed=$(dax_seed $GEN 50)
	if [ -n "$cblk" ] && nvt-pattern write /dev/$cblk 0 1M $cseed > /tmp/c.err 2>&1; then
		ok "raw $2 namespace $cns (/dev/$cblk), a pattern on its first MiB"
		return 0
	fi
	nok "raw $2 namespace $1: $(cat /tmp/c.err)"
	return 1
}
# raw_intact WHAT: $cns is raw and bound, its pattern intact
raw_intact() {
	ndctl list -N -n $cns > /tmp/r.json 2>&1
	expect_eq "$1: $cns mode | bound to | pattern" \
		"$(jget mode /tmp/r.json) | $(readlink $BASE/$cns/driver | sed 's,.*/,,') | $(nvt-pattern verify /dev/$cblk 0 1M $cseed > /dev/null 2>&1 && echo intact)" \
		"raw | nd_pmem | intact"
}
raw_destroy() {
	ndctl destroy-namespace -f $cns > /tmp/d.out 2>&1 || nok "destroy-namespace -f $cns: $(cat /tmp/d.out)"
}
if claim_raw nvt-small 8M; then
	expect_eq "8 MiB $cns given to $seed | $dseed (too small to host)" \
		"$(cd $BASE && dax_ws $seed/namespace=$cns $dseed/namespace=$cns)" "$ENXIO | $ENXIO"
	expect_eq "... the seeds stay unattached" \
		"$(dax_rd $BASE/$seed/namespace) | $(dax_rd $BASE/$dseed/namespace)" "- | -"
	raw_intact "after the refused claims"
	raw_destroy
fi
expect_eq "$L_REGION align restored" "$(dax_w $BASE/$L_REGION/align $ralign)" ok

# (5) an alignment the range cannot be mapped at: 1 GiB on 16 MiB
if claim_raw nvt-align 16M; then
	ndctl disable-namespace $cns > /tmp/b.out 2>&1 || nok "disable-namespace $cns: $(cat /tmp/b.out)"
	# the same idle seed as in (2): no claim has succeeded since
	expect_eq "idle $seed: align 1073741824 | uuid | mode pmem | namespace $cns accepted" \
		"$(cd $BASE/$seed && dax_ws align=1073741824 uuid=0dd0dd00-1300-4000-8000-000000000002 mode=pmem namespace=$cns)" \
		"ok | ok | ok | ok"
	expect_eq "bind $seed (1 GiB alignment on 16 MiB) to nd_pmem refused | not bound" \
		"$(dax_w /sys/bus/nd/drivers/nd_pmem/bind $seed) | $([ -e $BASE/$seed/driver ] && echo bound)" "$ENXIO | "
	diag "kernel: $(dmesg | grep 'unable to satisfy' | tail -n 1)"
	expect_eq "$seed released: namespace '' | align back" \
		"$(cd $BASE/$seed && dax_ws namespace= align=$a0)" "ok | ok"
	ndctl enable-namespace $cns > /tmp/b.out 2>&1 || nok "enable-namespace $cns: $(cat /tmp/b.out)"
	nd_settle
	raw_intact "after the refused 1 GiB claim (no info block written)"
	# control: at 2 MiB the same namespace takes a pfn claim
	ndctl create-namespace -f -e $cns -m fsdax -a 2M > /tmp/c.json 2> /tmp/c.err
	expect_eq "control: ndctl create-namespace -f -e $cns -m fsdax -a 2M (exit | mode)" \
		"$? | $(jget mode /tmp/c.json)" "0 | fsdax"
	raw_destroy
fi

echo 'module libnvdimm -p' > /proc/dynamic_debug/control 2>/dev/null
dmesg | tail -n +$((MARK + 1)) |
	grep -E 'already (claimed|active)|too small to host|is active|not found under|result: -[0-9]+ wrote|unable|align' |
	sed 's/^/# kernel: /' | head -n 30
verify_all "after the bad input"

# --- generation GEN+1 ------------------------------------------------------
NEXT=$((GEN + 1))
out=/tmp/wn.out
: > $out
dax_files_do write $E $NEXT >> $out || true
[ -n "$XOK" ] && { dax_files_do write $X $NEXT >> $out || true; }
dax_extents_do write /dev/${chr:-none} $DD_SIZE $NEXT >> $out || true
if [ -s $out ]; then
	nok "writing generation $NEXT failed"; sed 's/^/#   /' $out | head -n 20
else
	GEN=$NEXT
	sed "s/^gen=.*/gen=$GEN/" $NVT_OUT/dax-state.prev > $E/$DAX_REC.tmp &&
		mv $E/$DAX_REC.tmp $E/$DAX_REC && sync
	cp $E/$DAX_REC $NVT_OUT/dax-state.txt
	expect_eq "record says generation" "$(sed -n 's/^gen=//p' $E/$DAX_REC)" $GEN
	verify_all "generation $GEN written in place"
fi
[ -n "$XOK" ] && check "umount xfs" umount $X
check "umount ext4" umount $E
sync
