# nt-blk-alias: the same DPA reached through the BLK aperture and through
# the PMEM interleave is the same byte of media.  On nfit_test.0 (blank
# labels), DIMM 0x100 is member 2 of PM range 2 (4-way, DPA [16M, 32M) of
# DIMMs 0x0 0x1 0x100 0x101, one 4 KiB line per DIMM in turn:
# docs/nfit_test.md) and has its own BLK region (range 9).  Labels never
# give a DPA to both at once, so each direction is one namespace written,
# deleted, then the other created over the same DPA and read:
#   BLK -> PMEM: a 32 MiB BLK namespace (4096-byte sectors, so namespace
#     offsets are linear) covers all of DIMM 0x100; its pattern is found
#     at every checked line of the PMEM namespace on range 2 that maps to
#     DIMM 0x100 (SPA line 4j+2 <-> DPA 16M + 4096 j)
#   PMEM -> BLK: the PMEM namespace's pattern is read back through a new
#     BLK namespace at the same DPA.
# The BLK namespace's DPA extents come from its labels, so the check
# holds whatever order the allocator picks.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/blk.inc"

nd_settle
nt_debugfs
b0=$(nt_bus 0) || { nok "no nfit_test.0 bus"; exit 0; }
d=$(nt_dimm 0 0x100)
RB=$b0/$(nt_region 0 9)
RP=$b0/$(nt_region 0 2)
[ -n "$d" ] && [ -d $RB ] && [ -d $RP ] || { nok "no DIMM 0x100, BLK range 9 or PM range 2"; exit 0; }
nt_blank_labels 0 $(nt_dimm 0 0x0) $(nt_dimm 0 0x1) $d $(nt_dimm 0 0x101)
echo 0 > $RB/read_only
echo 0 > $RP/read_only
MEMBER=2 WAYS=4 LINE=4096
# the checked lines j of DIMM 0x100's [16M, 32M): first, second, middle, last
JS="0 1 1000 4095"

# blk_offset_of DPA: the BLK namespace offset of DPA, from the extents in
# /tmp/alias.ext ("start size" per line, in namespace order)
blk_offset_of() {
	awk -v x=$1 '{ if (x >= $1 && x < $1 + $2) { print base + x - $1; found = 1; exit }
		base += $2 } END { if (!found) print -1 }' /tmp/alias.ext
}

# blk_ns NAME: a 32 MiB BLK namespace on DIMM 0x100, bound; its extents
# -> /tmp/alias.ext; prints its directory
blk_ns() {
	local N
	N=$(blk_create $RB $(cat /proc/sys/kernel/random/uuid) 4096 $((32 * MiB)) $1) || return 1
	[ "$(ns_w $BLK_BIND ${N##*/})" = ok ] || { nok "bind ${N##*/} to nd_blk"; return 1; }
	nd_settle
	ns_area $d /tmp/alias.area
	ns_labels /tmp/alias.area | sed -n "s/^dpa=\([^ ]*\) rawsize=\([^ ]*\) .* name=$1 .*/\1 \2/p" |
		while read a s; do echo $((a)) $((s)); done > /tmp/alias.ext
	echo $N
}

# pm_ns NAME: the whole of PM range 2 as one PMEM namespace, bound
pm_ns() {
	local N
	N=$(blk_create $RP $(cat /proc/sys/kernel/random/uuid) 4096 $((64 * MiB)) $1) || return 1
	[ "$(ns_w /sys/bus/nd/drivers/nd_pmem/bind ${N##*/})" = ok ] || { nok "bind ${N##*/} to nd_pmem"; return 1; }
	nd_settle
	echo $N
}

# --- BLK -> PMEM -----------------------------------------------------------------
NB=$(blk_ns alias-b) || exit 0
bdev=/dev/$(nt_blockdev $NB)
expect_eq "alias-b: extents cover 32 MiB of $d" "$(awk '{ n += $2 } END { print n }' /tmp/alias.ext)" $((32 * MiB))
check "alias-b: pattern 7501 through $bdev" nvt-pattern write $bdev 0 32M 7501
nvt-pattern gen 7501 32M > /tmp/alias.gen
blk_delete $NB
NP=$(pm_ns alias-p) || exit 0
pdev=/dev/$(nt_blockdev $NP)
bad=
for j in $JS; do
	o=$(blk_offset_of $((16 * MiB + j * LINE)))
	dd if=$pdev of=/tmp/alias.got bs=$LINE skip=$((j * WAYS + MEMBER)) count=1 iflag=direct 2> /dev/null
	dd if=/tmp/alias.gen of=/tmp/alias.want bs=$LINE skip=$((o / LINE)) count=1 2> /dev/null
	cmp -s /tmp/alias.got /tmp/alias.want || bad="$bad j=$j(blk off $o)"
done
[ -z "$bad" ] && ok "BLK writes on $d found through $pdev at SPA lines 4j+2 (j = $JS)" ||
	nok "BLK -> PMEM mismatch:$bad"
# a line of another DIMM must not hold DIMM 0x100's data
dd if=$pdev of=/tmp/alias.got bs=$LINE skip=$((MEMBER + 1)) count=1 iflag=direct 2> /dev/null
o=$(blk_offset_of $((16 * MiB)))
dd if=/tmp/alias.gen of=/tmp/alias.want bs=$LINE skip=$((o / LINE)) count=1 2> /dev/null
# (both lines read in full first: an empty read must not pass for "differs")
if [ "$(wc -c < /tmp/alias.got)" != $LINE ] || [ "$(wc -c < /tmp/alias.want)" != $LINE ]; then
	nok "SPA line 3: read $(wc -c < /tmp/alias.got) bytes through $pdev, $(wc -c < /tmp/alias.want) of the pattern, want $LINE each"
elif cmp -s /tmp/alias.got /tmp/alias.want; then
	nok "SPA line 3 (DIMM 0x101) holds DIMM 0x100's data"
else
	ok "SPA line 3 belongs to another DIMM"
fi

# --- PMEM -> BLK -----------------------------------------------------------------
check "alias-p: pattern 7502 through $pdev" nvt-pattern write $pdev 0 64M 7502
nvt-pattern gen 7502 64M > /tmp/alias.gen
blk_delete $NP
NB=$(blk_ns alias-b2) || exit 0
bdev=/dev/$(nt_blockdev $NB)
bad=
for j in $JS; do
	o=$(blk_offset_of $((16 * MiB + j * LINE)))
	[ $o -ge 0 ] || { bad="$bad j=$j(no extent)"; continue; }
	dd if=$bdev of=/tmp/alias.got bs=$LINE skip=$((o / LINE)) count=1 iflag=direct 2> /dev/null
	dd if=/tmp/alias.gen of=/tmp/alias.want bs=$LINE skip=$((j * WAYS + MEMBER)) count=1 2> /dev/null
	cmp -s /tmp/alias.got /tmp/alias.want || bad="$bad j=$j(blk off $o)"
done
[ -z "$bad" ] && ok "PMEM writes found through $bdev at DPA 16M + 4096 j (j = $JS)" ||
	nok "PMEM -> BLK mismatch:$bad"
blk_delete $NB
rm -f /tmp/alias.gen
