# nt-dax: fsdax and devdax on nfit_test's mock ranges (issue 30 item 2,
# issue 28's DAX media errors), written so that it runs unchanged on
# upstream's own 6.1 mock (module set `upstream`) and on our test build;
# compare-media-oracle.py compares the records (/out/nt-dax.txt, "KEY =
# VALUE", namespace-relative values only).
#
# The namespace: a PMEM namespace on a bus that offers ARS injection, on
# the region with the fewest DIMMs (ours: nfit_test.1's 32 MiB 1-way
# range; upstream: nfit_test.0's 2-way range, as media-oracle picks it).
# - fsdax (Debian's ndctl 76.1, -M dev): queue/dax, ext4 mounted -o dax,
#   a file written through mmap read back with read(2), STATX_ATTR_DAX,
#   MAP_SYNC granted (a synchronous NFIT region); ours: the mmap'ed bytes
#   are on the mock's media (debugfs nfit_test.1/dimm0/media)
# - media errors under DAX: the file's first 4 KiB block poisoned by
#   ndctl inject-error, found by the scrub: read(2) EIO, an mmap load
#   SIGBUS, the next block fine; a pwrite of the whole block (DAX
#   recovery write) clears it (ours: one more Clear Error in the mock's
#   ars_clears), then read(2) and mmap see the new data, badblocks empty
# - devdax (create-namespace -m devdax), recorded apart (nt-devdax.txt):
#   align 4K: /dev/daxR.N bound to device_dax (ours: the test build's,
#   from extra/), a pattern written and verified through mmap (ours: on
#   the media too), the last page mapped, a mapping past the end accepted
#   and its page beyond the end refused (SIGBUS), MAP_PRIVATE refused;
#   align 2M: mappings not on 2M refused, 4M written and verified through
#   mmap (ours: on the media, served page by page)
# Leaves the namespace raw, without poison.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

OUTF=/tmp/nt-dax.txt
: > $OUTF
rec() { echo "$1 = $2" >> $OUTF; diag "$1: $2"; }
# want KEY VALUE EXPECTED: recorded, and checked here too
want() {
	echo "$1 = $2" >> $OUTF
	expect_eq "$1" "$2" "$3"
}
flush_out() { [ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/nt-dax.txt"; }
flat() { tr -d ' \t\n'; }
# upstream's own mock cannot take a DAX page fault on Debian's kernel:
# its pmem direct_access override hands out pfns of vmalloc'ed pages
# without PFN_DEV|PFN_MAP, and the fault path stops at the BUG_ON of
# __vm_insert_mixed (mm/memory.c:2292, seen with -M mem and -M dev;
# nvt-mmap is then stuck and the guest cannot shut down): there the
# steps that fault are recorded "not run" (compare-media-oracle.py
# names them) and checked on ours only
NOFAULT=
[ "$NVT_SET" = upstream ] && NOFAULT="upstream's mock cannot take DAX faults (fsdax: BUG in __vm_insert_mixed; devdax: oops in dax_set_mapping)"
# and its direct_access override answers -EIO over a bad block in every
# mode, DAX_RECOVERY_WRITE too, so a DAX write cannot clear poison there
# (6.1's pmem.c, which ours follows, maps the block for the recovery
# write): those steps are recorded as they come and checked on ours only
NORECOVERY=
[ "$NVT_SET" = upstream ] && NORECOVERY="upstream's mock refuses DAX_RECOVERY_WRITE (its direct_access override)"
want_rw() {
	if [ -n "$NORECOVERY" ] && [ "$2" != "$3" ]; then
		echo "$1 = $2" >> $OUTF
		skip "$1: $2" "$NORECOVERY"
		return 0
	fi
	want "$@"
}
# dax_fault KEY EXPECTED FUNCTION: a step that takes DAX page faults
dax_fault() {
	if [ -n "$NOFAULT" ]; then
		echo "$1 = not run" >> $OUTF
		skip "$1" "$NOFAULT"
		return 0
	fi
	want "$1" "$($3)" "$2"
}
M=/mnt/nt-dax
INJ=
mkdir -p $M
modprobe ext4 2> /dev/null
nd_settle

can_inject() {
	local m
	m=$(cat $1/nfit/dsm_mask 2> /dev/null) || return 1
	[ $((m >> 7 & 1)) = 1 ]
}
# pick: "NS REGION" of an enabled namespace on an injecting bus, the
# region with the fewest mappings first
pick() {
	local b r ns n best= bestn=99
	for b in /sys/class/nd/ndctl*/device; do
		can_inject $b || continue
		for r in $b/region*; do
			[ "$(cat $r/nstype 2> /dev/null)" = 4 ] || continue
			n=$(cat $r/mappings)
			for ns in $r/namespace*.*; do
				[ "$(cat $ns/size 2> /dev/null)" -gt 0 ] 2> /dev/null || continue
				[ -d $ns/block ] || continue
				[ $n -lt $bestn ] && { best="$ns $r"; bestn=$n; }
			done
		done
	done
	[ -n "$best" ] && echo $best
}
set -- $(pick)
if [ -z "$1" ]; then
	for b in /sys/class/nd/ndctl*/device; do
		can_inject $b || continue
		for r in $b/region*; do
			[ "$(cat $r/nstype 2> /dev/null)" = 4 ] || continue
			ndctl create-namespace -m raw -r ${r##*/} > /tmp/ntd.cr 2>&1 && break 2
		done
	done
	nd_settle
	set -- $(pick)
fi
if [ -z "$1" ]; then
	nok "no PMEM namespace on a bus with ARS injection"
	exit 0
fi
NSP=$1 REG=$2
NS=${NSP##*/} BUS=$(cd $REG/.. && pwd)
PROV=$(cat $BUS/provider)
NSOFF=$(($(cat $NSP/resource) - $(cat $REG/resource)))
echo 0 > $REG/read_only 2> /dev/null
# ours: the media of a 1-way region's only DIMM (DPA = region offset)
MEDIA=
if [ -d "$NT_DBG" ] || nt_debugfs 2> /dev/null; then
	A=$NT_DBG/$PROV
	[ "$(cat $REG/mappings)" = 1 ] && [ -r $A/dimm0/media ] && MEDIA=$A/dimm0/media
fi
ok "namespace $NS ($PROV ${REG##*/}, $(cat $REG/mappings) DIMMs, $(($(cat $NSP/size) >> 20)) MiB)${MEDIA:+, media $MEDIA}"

bbl() {
	local v
	v=$(tr '\n' ' ' < $1 2> /dev/null)
	echo "${v:-none}"
}
scrub_wait() {
	local i=0 v
	while v=$(cat $BUS/nfit/scrub) && [ "${v%+}" != "$v" ] && [ $i -lt 300 ]; do
		usleep 100000
		i=$((i + 1))
	done
}
scrub() {
	scrub_wait
	ndctl start-scrub $PROV > /dev/null 2>&1
	ndctl wait-scrub $PROV > /dev/null 2>&1
	scrub_wait
}
# media_has OFF LEN SEED: the mock's media at namespace offset OFF holds
# nvt-mmap's pattern of file offset 0..LEN (ours only)
media_has() {
	nvt-mmap gen 0 $2 $3 > /tmp/ntd.want
	dd if=$MEDIA bs=4096 skip=$((($1 + NSOFF) / 4096)) count=$(($2 / 4096)) 2> /dev/null > /tmp/ntd.got
	cmp -s /tmp/ntd.want /tmp/ntd.got && echo yes || echo no
}
ars_clears() { cat $NT_DBG/$PROV/ars_clears 2> /dev/null || echo 0; }
# the region is label-less (nstype IO): without --no-autolabel, Debian's
# ndctl first tries to label its DIMMs, which upstream's mock refuses (its
# DIMMs are in a second, enabled region: "failing autolabel") while ours
# (nfit_test.1's DIMM, in no other region) may allow it; this test is about
# DAX, so both stay label-less
NSC="ndctl create-namespace --no-autolabel"
finish() {
	umount $M 2> /dev/null
	$NSC -f -e $NS -m raw > /tmp/ntd.raw 2>&1 ||
		nok "back to raw: $(flat < /tmp/ntd.raw | cut -c1-200)"
	# only the blocks injected: 76.1 uninjects block by block (one DSM
	# each), the whole namespace took minutes under the debug kernel
	[ -n "$INJ" ] && ndctl inject-error --uninject --block=$INJ --count=8 $NS > /dev/null 2>&1
	scrub
	# a bad range a DAX write could not clear (upstream's mock) is cleared
	# by a write through the raw namespace's block device
	local d bs bc
	d=$(ls -d $NSP/block/* 2> /dev/null | head -n 1)
	[ -n "$d" ] && while read -r bs bc; do
		nvt-dio write /dev/${d##*/} $((bs * 512)) $((bc * 512)) > /dev/null
	done < $d/badblocks
	nd_settle
	flush_out
}

# --- fsdax ----------------------------------------------------------------------
if ! $NSC -f -e $NS -m fsdax -M dev > /tmp/ntd.json 2> /tmp/ntd.err; then
	rec "fsdax create" "failed: $(head -n 1 /tmp/ntd.err)"
	nok "ndctl create-namespace -f -e $NS -m fsdax -M dev: $(flat < /tmp/ntd.err | cut -c1-200)"
	finish
	exit 0
fi
nd_settle
rec "fsdax create" ok
blk=$(jget blockdev /tmp/ntd.json)
pfn=$(cat $NSP/holder 2> /dev/null)
DATAOFF=$(($(cat /sys/bus/nd/devices/$pfn/resource) - $(cat $NSP/resource)))
want "fsdax queue/dax" "$(cat /sys/block/$blk/queue/dax 2> /dev/null)" 1
if ! mkfs.ext4 -q -F -b 4096 /dev/$blk > /tmp/ntd.out 2>&1 ||
   ! mount -t ext4 -o dax /dev/$blk $M 2>> /tmp/ntd.out; then
	rec "fsdax ext4 -o dax" refused
	nok "ext4 -o dax on /dev/$blk ($pfn): $(flat < /tmp/ntd.out | cut -c1-200) $(dmesg | tail -n 3 | tr '\n' ' ')"
	finish
	exit 0
fi
rec "fsdax ext4 -o dax" mounted
ok "$NS fsdax ($pfn, data at +$(printf %#x $DATAOFF)): ext4 mounted -o dax on /dev/$blk"
S=4242
mmap_write_f() { nvt-mmap write $M/f 0 64K $S > /dev/null 2>&1 && echo ok || echo failed; }
# without faults, the same bytes by write(2), so the read-back still runs
[ -n "$NOFAULT" ] && nvt-mmap gen 0 64K $S > $M/f
dax_fault "fsdax mmap write 64K" ok mmap_write_f
sync
echo 3 > /proc/sys/vm/drop_caches
nvt-mmap gen 0 64K $S > /tmp/ntd.want
want "fsdax read(2) of the mmap-written file" "$(cmp -s /tmp/ntd.want $M/f && echo same || echo differs)" same
rec "fsdax file statx dax" "$(nvt-mmap statx $M/f 2>&1)"
map_sync() { nvt-mmap write $M/s 0 4096 7 --sync > /tmp/ntd.sync 2>&1; echo rc=$?; }
dax_fault "fsdax MAP_SYNC" rc=0 map_sync
if [ -n "$MEDIA" ]; then
	got=$(nvt-mfs fiemap $M/f)
	expect_eq "the mmap-written 64K is on the mock's media (fiemap $got, data at +$DATAOFF)" \
		"$(media_has $((DATAOFF + ${got% *})) 65536 $S)" yes
fi

# --- media errors under DAX -------------------------------------------------------
dd if=/dev/zero bs=4096 count=16 2> /dev/null | tr '\0' 'A' > $M/e
sync
got=$(nvt-mfs fiemap $M/e)
phys=${got% *}
if [ $((phys % 4096)) != 0 ] || [ "${got#* }" -lt 8192 ] 2> /dev/null; then
	nok "FIEMAP of the file: '$got'"
	finish
	exit 0
fi
s=$((phys / 512))
# ndctl inject-error --block counts 512-byte blocks of the namespace
# (its pfn device's data area for fsdax: the block device's sectors)
INJ=$s
ndctl inject-error --block=$s --count=8 $NS > /tmp/ntd.inj 2>&1 ||
	nok "ndctl inject-error --block=$s --count=8 $NS: $(flat < /tmp/ntd.inj | cut -c1-200)"
scrub
bb=$(bbl /sys/block/$blk/badblocks)
want "dax badblocks after inject + scrub" "$([ "$bb" = "$s 8 " ] && echo "the file's block" || echo "$bb (file at $s)")" "the file's block"
want "dax read(2) bad block | next" "$(nvt-mfs read $M/e 0 4096) | $(nvt-mfs read $M/e 4096 4096)" "EIO | ok 41"
mmap_bad() { echo "$(nvt-mfs mmap $M/e 0 4096) | $(nvt-mfs mmap $M/e 4096 4096)"; }
dax_fault "dax mmap bad block | next" "SIGBUS | ok 41" mmap_bad
k0=$(ars_clears)
want_rw "dax pwrite of the whole block" "$(nvt-mfs write $M/e 0 4096 0x42)" ok
k1=$(ars_clears)
want_rw "dax after pwrite: read(2)" "$(nvt-mfs read $M/e 0 4096)" "ok 42"
mmap_fixed() { nvt-mfs mmap $M/e 0 4096; }
dax_fault "dax after pwrite: mmap" "ok 42" mmap_fixed
want_rw "dax after pwrite: badblocks" "$(bbl /sys/block/$blk/badblocks)" none
if [ -n "$MEDIA" ]; then
	expect_eq "the recovery write went through the mock's Clear Error (ars_clears)" \
		"$((k1 - k0))" 1
	expect_eq "the mock's poison map empty after it" "$(head -n 4 $A/dimm0/poison | tr '\n' ' ')" ""
fi
want "dax after pwrite: next block read(2)" "$(nvt-mfs read $M/e 4096 4096)" "ok 41"
umount $M

# --- devdax ---------------------------------------------------------------------
# devdax records go to nt-devdax.txt (not compared: upstream's mock cannot
# take the faults); the refusals that need no fault run on both
OUTF0=$OUTF OUTF=/tmp/nt-devdax.txt
: > $OUTF
modprobe -q device_dax 2> /dev/null
# dd_bind: load the driver of every unbound dax instance (no udev here)
dd_bind() {
	local d
	for d in /sys/bus/dax/devices/*; do
		[ -e $d/driver ] && continue
		modprobe -q "$(cat $d/modalias)" 2> /dev/null
	done
	nd_settle
}
# dd_create ALIGN: the namespace as devdax at ALIGN; sets chr, DAXOFF, DSIZE
dd_create() {
	chr= DSIZE=0
	if ! $NSC -f -e $NS -m devdax -a $1 > /tmp/ntd.json 2> /tmp/ntd.err; then
		rec "devdax $1 create" "failed"
		nok "ndctl create-namespace -f -e $NS -m devdax -a $1: $(flat < /tmp/ntd.err | cut -c1-200)"
		return 1
	fi
	rec "devdax $1 create" ok
	dd_bind
	chr=$(jget chardev /tmp/ntd.json)
	local dax
	dax=$(cat $NSP/holder 2> /dev/null)
	DAXOFF=$(($(cat /sys/bus/nd/devices/$dax/resource 2> /dev/null) - $(cat $NSP/resource)))
	DSIZE=$(cat /sys/bus/dax/devices/$chr/size 2> /dev/null || echo 0)
	want "devdax $1 chardev" "$([ -c /dev/$chr ] && echo yes || echo "no ($chr)")" yes
	want "devdax $1 sysfs align" "$(cat /sys/bus/dax/devices/$chr/align 2> /dev/null)" \
		$(($(echo $1 | sed 's/K$/ * 1024/; s/M$/ * 1048576/')))
}
# nvt-mmap's result: ok, "refused: ERRNO" (mmap failed), SIGBUS at N, or
# its first line
dd_mm() {
	local out
	out=$(nvt-mmap "$@" 2>&1)
	case $? in
	0) echo ok ;;
	2) case $out in
	   *mmap*failed:*) echo "refused: ${out##*failed: }" ;;
	   *) echo "$out" | head -n 1 ;;
	   esac ;;
	4) echo "SIGBUS at +$(($(echo "$out" | sed -n 's/.*SIGBUS at offset //p') - $DSIZE))" ;;
	*) echo "$out" | head -n 1 ;;
	esac
}
# 6.1's DEV_DAX needs THP: no device_dax on a kernel without (rt-amd64)
NODEVDAX=
if [ ! -d /sys/kernel/mm/transparent_hugepage ]; then
	NODEVDAX="a kernel without transparent huge pages has no device_dax"
	skip "devdax on $NS" "$NODEVDAX"
fi
if [ "$NVT_SET" = test ] && [ -z "$NODEVDAX" ]; then
	# ndctl's own test suite takes only a device_dax from extra/
	want "device_dax from the test build" \
		"$(modinfo -n device_dax 2> /dev/null | grep -q /extra/ && echo yes || echo "no: $(modinfo -n device_dax 2>&1)")" yes
fi
if [ -z "$NODEVDAX" ] && dd_create 4K; then
	want "devdax 4K bound to" "$(basename "$(readlink /sys/bus/dax/devices/$chr/driver)")" device_dax
	dd_write() { nvt-mmap write /dev/$chr 0 1M 99 > /tmp/ntd.mm 2>&1 && echo ok || echo "failed: $(head -n 1 /tmp/ntd.mm)"; }
	dd_verify() { nvt-mmap verify /dev/$chr 0 1M 99 > /dev/null 2>&1 && echo ok || echo "failed"; }
	dax_fault "devdax mmap write 1M" ok dd_write
	dax_fault "devdax mmap verify 1M" ok dd_verify
	[ -n "$MEDIA" ] &&
		expect_eq "devdax: the 1M written through /dev/$chr is on the mock's media (data at +$DAXOFF)" \
			"$(media_has $DAXOFF 1048576 99)" yes
	# the last page of the device maps; a mapping past its end is
	# accepted (as 6.1's device_dax does) and its first page beyond the
	# end refused at the fault
	dd_last() { dd_mm write /dev/$chr $((DSIZE - 4096)) 4096 5; }
	dax_fault "devdax the last page" ok dd_last
	dd_past() { dd_mm write /dev/$chr $((DSIZE - 4096)) 8192 5 --past-end; }
	dax_fault "devdax a mapping past the end: the page beyond" "SIGBUS at +0" dd_past
	want "devdax MAP_PRIVATE" "$(dd_mm verify /dev/$chr 0 4096 99 --private)" "refused: Invalid argument"
fi
# at 2M: mappings must start and end on 2M (refused at mmap otherwise);
# ours maps the mock's vmalloc'ed range page by page, whatever the align
if [ -z "$NODEVDAX" ] && dd_create 2M; then
	want "devdax 2M: a 4K mapping" "$(dd_mm verify /dev/$chr 0 4096 1 --exact)" "refused: Invalid argument"
	# 6.1 checks the mapping's addresses, not its offset: the address
	# mmap picks for an offset that is not 2M aligned is 2M aligned only
	# by chance (dax_get_unmapped_area gives up on it), then the mapping
	# is made and its first fault refused (SIGBUS).  Unusable either way.
	r=$(dd_mm verify /dev/$chr 4096 2M 1 --exact)
	case $r in "SIGBUS at"*) diag "a 2M mapping at +4K: $r (its address was 2M aligned)"
		r="refused: Invalid argument" ;; esac
	want "devdax 2M: a 2M mapping at +4K" "$r" "refused: Invalid argument"
	dd_w2() { dd_mm write /dev/$chr 0 4M 77; }
	dd_v2() { dd_mm verify /dev/$chr 0 4M 77; }
	dax_fault "devdax 2M: mmap write 4M" ok dd_w2
	dax_fault "devdax 2M: mmap verify 4M" ok dd_v2
	[ -n "$MEDIA" ] &&
		expect_eq "devdax 2M: the 4M written through /dev/$chr is on the mock's media (data at +$DAXOFF)" \
			"$(media_has $DAXOFF 4194304 77)" yes
fi
[ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/nt-devdax.txt"
OUTF=$OUTF0
finish
expect_eq "the end: $NS raw, no bad blocks" \
	"$(ndctl list -n $NS 2>&1 | flat | sed -n 's/.*"mode":"\([^"]*\)".*/\1/p') $(bbl $REG/badblocks)" "raw none"
sed 's/^/#   /' $OUTF
