# nt-ns-bad-input: bad input to namespace configuration (issue 5 §7), on
# nfit_test.0.  Every case is one TAP line that checks the error (the
# shell's text for the write's errno) AND that nothing changed: every
# region's available_size / max_available_extent / namespace_seed, every
# namespace's attributes and driver, and the bytes of all four label areas
# (snapshots before and after).  Policy and errnos: docs/namespaces.md.
#
# Base layout, configured through sysfs on a blank platform:
#   A    region0 (PMEM, DIMM 0,1)   16 MiB  DPA [0,8M) of DIMM 0, 1   bound to nd_pmem
#   P1   region1 (PMEM, DIMM 0..3)  32 MiB  DPA [16M,24M) of DIMM 0..3
#   B2a  region4 (BLK, DIMM 2)       8 MiB  DPA [0,8M)
#   B2b  region4 (BLK, DIMM 2)       8 MiB  DPA [8M,16M)
#   B3   region5 (BLK, DIMM 3)       4 MiB  DPA [0,4M)
#
# Then the label area damaged on purpose (regions disabled, bytes written
# with nd-label-ioctl, the DIMM rebound, regions enabled): one index block
# (the older, then the current one), both, a label in the wrong slot, two
# labels with overlapping DPA, labels beyond the DIMM / outside the
# mapping, SET_CONFIG_DATA failing during a size write (nfit_test fault
# knobs), and with v1.2 labels (ndctl init-labels -V 1.2) a label whose
# checksum is wrong.  Each: the damaged namespaces are left unclaimed, the
# others come up, the kernel log says so, nothing is written to the area
# until asked.
#
# The namespaces are configured, never enabled: a BLK one is bound to
# nd_blk once (its region's seed advances when it binds) and unbound, then
# nd_blk is unloaded until the end so that region re-enables leave them
# unbound and their attributes writable.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }

EINVAL="Invalid argument" ENOSPC="No space left on device"
ENXIO="No such device or address" EBUSY="Device or resource busy"
EIO="Input/output error"

lookup() {
	B=$(nt_bus 0) || return 1
	R0=/sys/bus/nd/devices/$(nt_region 0 1) && R1=/sys/bus/nd/devices/$(nt_region 0 2) &&
	RB0=/sys/bus/nd/devices/$(nt_region 0 7) && RB1=/sys/bus/nd/devices/$(nt_region 0 8) &&
	RB2=/sys/bus/nd/devices/$(nt_region 0 9) && RB3=/sys/bus/nd/devices/$(nt_region 0 10) &&
	D0=$(nt_dimm 0 0x0) && D1=$(nt_dimm 0 0x1) && D2=$(nt_dimm 0 0x100) &&
		D3=$(nt_dimm 0 0x101) || return 1
	DIMMS="$D0 $D1 $D2 $D3"
}
lookup || { nok "nfit_test.0: bus, regions or DIMMs not found"; exit 0; }
for d in $DIMMS; do nt_knobs_reset $d; done

regions_off() { nt_regions_unbind 0; }
regions_on() { nt_regions_bind 0; nd_settle; }
dimm_rebind() {
	echo $1 > /sys/bus/nd/drivers/nvdimm/unbind
	echo $1 > /sys/bus/nd/drivers/nvdimm/bind
	nd_settle
}
seed() { echo $1/$(cat $1/namespace_seed 2>/dev/null); }
ns_by_uuid() {	# REGION_DIR UUID
	local n
	for n in $1/namespace[0-9]*; do
		[ "$(cat $n/uuid 2>/dev/null)" = "$2" ] && { echo $n; return 0; }
	done
	return 1
}

# snapshot of everything a bad write must leave alone
snap() {
	{
		grep -s . $B/region*/available_size $B/region*/max_available_extent \
			$B/region*/namespace_seed $B/region*/namespace[0-9]*/size \
			$B/region*/namespace[0-9]*/uuid $B/region*/namespace[0-9]*/alt_name \
			$B/region*/namespace[0-9]*/sector_size $B/region*/namespace[0-9]*/dpa_extents \
			$B/nmem*/available_slots
		ls -l $B/region*/namespace[0-9]*/driver 2>/dev/null | sed 's/.* \([^ ]*\) -> .*\//\1 -> /'
		if [ -z "$BAD_NOAREA" ]; then
			for d in $DIMMS; do ns_area $d /tmp/bad.area.$d || echo "$d unreadable"; done
			cd /tmp && md5sum bad.area.*; cd - > /dev/null
		fi
	} | sed "s,$B/,," > $1
}

# bad DESC FILE VALUE WANT: one write that must fail with WANT and change
# nothing (BAD_NOAREA=1: the label areas' bytes are left out, for writes
# that may leave bytes in free slots; the live labels are checked apart)
bad() {
	local r
	snap /tmp/bad.before
	r=$(ns_w $2 "$3")
	snap /tmp/bad.after
	if [ "$r" = "$4" ] && cmp -s /tmp/bad.before /tmp/bad.after; then
		ok "$1: '$4', nothing changed"
	else
		nok "$1: got '$r' (want '$4')$(cmp -s /tmp/bad.before /tmp/bad.after || echo ', state changed:')"
		diff /tmp/bad.before /tmp/bad.after | grep '^[-+][^-+]' | head -n 12 | sed 's/^/#   /'
	fi
}

# good DESC FILE VALUE: a write that must succeed
good() {
	local r
	r=$(ns_w $2 "$3")
	expect_eq "$1" "$r" ok
}

# --- base layout ----------------------------------------------------------------
U_A=bad00000-0000-4000-8000-00000000000a
U_P1=bad00000-0000-4000-8000-0000000000f1
U_B2a=bad00000-0000-4000-8000-0000000002a0
U_B2b=bad00000-0000-4000-8000-0000000002b0
U_B3=bad00000-0000-4000-8000-000000000030
# KEY REGION NSTYPE SIZE_MIB DPA_EXTENTS SECTOR_SIZE ALT_NAME
BASE="
A   R0  5 16 2 4096 bad-a
P1  R1  5 32 4 512  bad-p1
B2a RB2 6 8  1 4096 bad-b2a
B2b RB2 6 8  1 512  bad-b2b
B3  RB3 6 4  1 4096 bad-b3
"
NAME_B2b=bad-b2b

# blank label areas: this test does not depend on what ran before it
ns_phase "blank platform"
regions_off
for d in $DIMMS; do
	nd-label-ioctl write /dev/$d /dev/zero > /tmp/bad.out 2>&1 ||
		nok "zero $d's label area: $(cat /tmp/bad.out)"
	dimm_rebind $d
done
regions_on

ns_phase "base layout"
fail=
echo "$BASE" | while read key rk t mib ext ss name; do
	[ -n "$key" ] || continue
	eval R=\$$rk
	eval u=\$U_$key
	N=$(seed $R)
	for w in "alt_name $name" "uuid $u" "sector_size $ss" "size $((mib * MiB))"; do
		r=$(ns_w $N/${w%% *} "${w#* }")
		[ "$r" = ok ] || echo "$key ${N##*/} ${w%% *}: $r"
	done
	if [ $t = 6 ]; then
		r=$(ns_w /sys/bus/nd/drivers/nd_blk/bind ${N##*/})
		[ "$r" = ok ] || echo "$key ${N##*/} bind to nd_blk: $r"
		echo ${N##*/} > /sys/bus/nd/drivers/nd_blk/unbind
	fi
done > /tmp/bad.fail
rmmod nd_blk || echo "rmmod nd_blk failed" >> /tmp/bad.fail
[ -s /tmp/bad.fail ] && nok "base layout: $(tr '\n' ';' < /tmp/bad.fail)" ||
	ok "base layout: A P1 B2a B2b B3 configured through sysfs"
NA=$(ns_by_uuid $R0 $U_A)
echo ${NA##*/} > /sys/bus/nd/drivers/nd_pmem/bind 2>/dev/null
nd_settle
expect_eq "base layout: A (${NA##*/}) bound to nd_pmem" "$(ns_driver $NA)" nd_pmem
got="$(($(cat $R0/available_size) / MiB)) $(($(cat $R1/available_size) / MiB)) $(($(cat $RB0/available_size) / MiB)) $(($(cat $RB1/available_size) / MiB)) $(($(cat $RB2/available_size) / MiB)) $(($(cat $RB3/available_size) / MiB))"
expect_eq "base layout: available_size MiB of region0 1 (PMEM), BLK of DIMM 0 1 2 3" "$got" "16 32 16 16 8 20"

# expect_layout DESC [KEY=absent | KEY=NAME]...: the base namespaces found by
# uuid in their regions with their attributes (or absent)
expect_layout() {
	local desc=$1 key rk t mib ext ss name R N u want got
	shift
	echo "$BASE" | while read key rk t mib ext ss name; do
		[ -n "$key" ] || continue
		eval R=\$$rk
		eval u=\$U_$key
		[ $key = B2b ] && name=$NAME_B2b
		want="$((mib * MiB)) $t $ext $u $name $ss"
		for o in "$@"; do
			case $o in $key=absent) want=absent ;; $key=*) want="$((mib * MiB)) $t $ext $u ${o#*=} $ss" ;; esac
		done
		N=$(ns_by_uuid $R $u)
		if [ -n "$N" ]; then got=$(ns_state $N); else got=absent; fi
		expect_eq "$desc: $key ${N:+(${N##*/}) }size nstype dpa_extents uuid alt_name sector_size" "$got" "$want"
	done
}
expect_layout "base layout"
snap /tmp/bad.before
got="$(grep -c 'available_size' /tmp/bad.before) $(grep -c ' bad.area' /tmp/bad.before) $(grep -c ' -> nd_pmem' /tmp/bad.before)"
expect_eq "the state snapshot sees 6 regions' available_size, 4 label areas, A's driver" "$got" "6 4 1"

S0=$(seed $R0)
SB=$(seed $RB2)
diag "region0 seed ${S0##*/}, region4 (BLK of DIMM 2) seed ${SB##*/}, A = ${NA##*/}"

# --- sysfs input -------------------------------------------------------------------
ns_phase "sysfs input"
bad "uuid 'not-a-uuid' (region0 seed)" $S0/uuid not-a-uuid "$EINVAL"
bad "uuid of 35 characters (region0 seed)" $S0/uuid 12345678-1234-4234-8234-12345678901 "$EINVAL"
bad "uuid with a non-hex digit (region0 seed)" $S0/uuid 1234567g-1234-4234-8234-123456789012 "$EINVAL"
bad "uuid with a non-hex digit (BLK seed)" $SB/uuid 1234567g-1234-4234-8234-123456789012 "$EINVAL"
bad "size before uuid (region0 seed)" $S0/size $((16 * MiB)) "$ENXIO"
bad "size before uuid (BLK seed)" $SB/size $((4 * MiB)) "$ENXIO"
U_S0=bad00000-0000-4000-8000-0000000005e0
U_SB=bad00000-0000-4000-8000-0000000005eb
good "region0 seed takes a uuid" $S0/uuid $U_S0
good "BLK seed takes a uuid" $SB/uuid $U_SB
bad "size 4 KiB, not a multiple of region0's align 8 KiB (4 KiB x 2 ways)" $S0/size 4096 "$EINVAL"
bad "size 16 MiB + 4 KiB on region0" $S0/size $((16 * MiB + 4096)) "$EINVAL"
bad "size 6 KiB on a BLK region (4 KiB granularity)" $SB/size 6144 "$EINVAL"
bad "size 4 MiB + 512 on a BLK region" $SB/size $((4 * MiB + 512)) "$EINVAL"
bad "size 32 MiB > available 16 MiB (region0 seed)" $S0/size $((32 * MiB)) "$ENOSPC"
bad "size 12 MiB > available 8 MiB (BLK seed)" $SB/size $((12 * MiB)) "$ENOSPC"
NB2b=$(ns_by_uuid $RB2 $U_B2b)
bad "grow B2b to 16 MiB + 4 KiB > 8 held + 8 available" $NB2b/size $((16 * MiB + 4096)) "$ENOSPC"
bad "grow P1 to 96 MiB > region1's 64 MiB" $(ns_by_uuid $R1 $U_P1)/size $((96 * MiB)) "$ENOSPC"
L64=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
bad "alt_name of 64 characters (region0 seed)" $S0/alt_name $L64 "$EINVAL"
bad "alt_name of 64 characters (B2b, has labels)" $NB2b/alt_name $L64 "$EINVAL"
bad "alt_name of 100 characters (BLK seed)" $SB/alt_name ${L64}0123456789abcdef0123456789abcdef0123 "$EINVAL"
good "alt_name of 63 characters between blanks (region0 seed)" $S0/alt_name "  ${L64%?}  "
expect_eq "alt_name trimmed to its 63 characters" "$(cat $S0/alt_name)" "${L64%?}"
bad "sector_size 520 on PMEM (512 4096 only)" $S0/sector_size 520 "$EINVAL"
bad "sector_size 0 on PMEM" $S0/sector_size 0 "$EINVAL"
bad "sector_size 'abc' on PMEM" $S0/sector_size abc "$EINVAL"
bad "sector_size 1024 on BLK" $SB/sector_size 1024 "$EINVAL"
bad "sector_size 4097 on BLK" $SB/sector_size 4097 "$EINVAL"
bad "sector_size 8192 on B2b (has labels)" $NB2b/sector_size 8192 "$EINVAL"
bad "uuid of enabled A" $NA/uuid bad00000-0000-4000-8000-0000000000ff "$EBUSY"
bad "size of enabled A (grow)" $NA/size $((32 * MiB)) "$EBUSY"
bad "size 0 of enabled A" $NA/size 0 "$EBUSY"
bad "alt_name of enabled A" $NA/alt_name renamed "$EBUSY"
bad "sector_size of enabled A" $NA/sector_size 512 "$EBUSY"
bad "uuid of A on the region0 seed (same region)" $S0/uuid $U_A "$EINVAL"
bad "uuid of B2a on the region0 seed (another region)" $S0/uuid $U_B2a "$EINVAL"
bad "uuid of B2a on the BLK seed (same region)" $SB/uuid $U_B2a "$EINVAL"
bad "uuid of P1 on the BLK seed" $SB/uuid $U_P1 "$EINVAL"
# a namespace holding DPA is renamed, as 6.1 does: its labels follow
U_TMP=bad00000-0000-4000-8000-0000000000fe
good "uuid change of B2b while it holds DPA (a rename)" $NB2b/uuid $U_TMP
ns_area $D2 /tmp/bad.ren
expect_eq "B2b under its new uuid; live labels on DIMM 2 of the new uuid, of the old" \
	"$(ns_by_uuid $RB2 $U_TMP | sed 's,.*/,,') $(nvt-labels show /tmp/bad.ren | grep -c "^label .* uuid=$U_TMP ") $(nvt-labels show /tmp/bad.ren | grep -c "^label .* uuid=$U_B2b ")" \
	"${NB2b##*/} 1 0"
good "B2b renamed back" $NB2b/uuid $U_B2b
# the null uuid names a namespace like any uuid, as in 6.1 (ndctl's
# btt-pad-compat.sh makes one for a pre-4.15 BTT): P1 renamed to it, no
# second namespace may take it, its labels bring it back at region enable
U_NULL=00000000-0000-0000-0000-000000000000
good "uuid of P1: the null uuid (a rename)" $(ns_by_uuid $R1 $U_P1)/uuid $U_NULL
bad "the null uuid on the region0 seed while P1 has it" $S0/uuid $U_NULL "$EINVAL"
regions_off
regions_on
NP1=$(ns_by_uuid $R1 $U_NULL)
expect_eq "P1 assembled from its labels under the null uuid and enabled (size MiB, alt_name, driver)" \
	"${NP1:+$(($(cat $NP1/size) / MiB)) $(cat $NP1/alt_name) $(ns_driver $NP1)}" "32 bad-p1 nd_pmem"
[ -n "$NP1" ] && echo ${NP1##*/} > /sys/bus/nd/drivers/nd_pmem/unbind
good "P1 renamed back" ${NP1:-/nonexistent}/uuid $U_P1
expect_layout "after the bad writes"

# --- damaged label areas --------------------------------------------------------------
ns_phase "label areas"
# the last transaction on DIMM 2 renames B2b: the older index block still
# has the previous name
good "B2b renamed (a last transaction on DIMM 2)" $NB2b/alt_name bad-b2b-v2
NAME_B2b=bad-b2b-v2
# forget the seeds' uuids (bad writes left them set)
regions_off
for d in $DIMMS; do ns_area $d /tmp/bad.base.$d || nok "save $d's label area"; done
regions_on

# restore: the base areas back on every DIMM, DIMMs and regions rebound
restore() {
	local d
	for d in $DIMMS; do nt_knobs_reset $d; done
	regions_off
	for d in $DIMMS; do
		nd-label-ioctl write /dev/$d /tmp/bad.base.$d > /tmp/bad.out 2>&1 ||
			nok "restore $d: $(cat /tmp/bad.out)"
		dimm_rebind $d
	done
	regions_on
}

# damage DIMM CMD...: regions off, the DIMM's base area to /tmp/bad.dmg,
# CMD (run with "$F" = that file) edits it, it goes on the DIMM, the DIMM
# is rebound, regions on.  The log since then is in /tmp/bad.log.
damage() {
	local d=$1
	shift
	regions_off
	cp /tmp/bad.base.$d /tmp/bad.dmg
	F=/tmp/bad.dmg
	eval "$@"
	nd-label-ioctl write /dev/$d /tmp/bad.dmg > /tmp/bad.out 2>&1 ||
		nok "write damaged area to $d: $(cat /tmp/bad.out)"
	ns_mark
	dimm_rebind $d
	regions_on
	ns_log_since > /tmp/bad.log
}
# log_says DESC REGEX: a kernel line since the damage matching REGEX
# (extended, case-insensitive)
log_says() {
	local l
	l=$(grep -iE "$2" /tmp/bad.log | head -n 1 | sed 's/^\[[^]]*\] //')
	if [ -n "$l" ]; then
		ok "$1: kernel log: $l"
	else
		nok "$1: no kernel log line matching '$2'"
		sed 's/^/#   /' /tmp/bad.log | head -n 8
	fi
}
# area_same DESC DIMM: the DIMM's area is still what damage() wrote
area_same() {
	if ns_area $2 /tmp/bad.now && cmp -s /tmp/bad.dmg /tmp/bad.now; then
		ok "$1: $2's label area untouched"
	else
		nok "$1: $2's label area was written: $(cmp /tmp/bad.dmg /tmp/bad.now 2>&1 | head -n 1)"
	fi
}
# garble FILE OFF LEN: LEN bytes of 0x5a at OFF
garble() {
	dd if=/dev/zero bs=$3 count=1 2>/dev/null | tr '\000' 'Z' |
		dd of=$1 bs=1 seek=$2 conv=notrunc 2>/dev/null
}
# flip FILE OFF: invert the byte at OFF
flip() {
	local b
	b=$(od -An -tu1 -j$2 -N1 $1)
	printf "\\$(printf %o $((b ^ 255)))" | dd of=$1 bs=1 seek=$2 conv=notrunc 2>/dev/null
}
# slot_of FILE UUID: the slot of the (first) live label of UUID
slot_of() {
	nvt-labels show $1 | awk -v u="uuid=$2" '$1 == "label" && $3 == u { print $2; exit }'
}

# one index block: the older one is overwritten -- nothing changes
C="one index block (the older) garbage on $D2"
damage $D2 'garble $F $(nvt-labels other $F) 256'
expect_layout "$C"
log_says "$C" "$D2.*index"
area_same "$C" $D2
# the next update writes into the damaged block: both valid afterwards
NB2b=$(ns_by_uuid $RB2 $U_B2b)
good "$C: B2b renamed again" $NB2b/alt_name bad-b2b-v3
ns_area $D2 /tmp/bad.now
got=$(nvt-labels show /tmp/bad.now | awk '$1 == "index" { v = v $NF " " } $1 == "current" { c = $2 } END { print v "current " c }')
want_cur=$(( $(nvt-labels other /tmp/bad.dmg) / 256 ))
expect_eq "$C: the update rewrote the damaged block: both valid, it is current" "$got" "valid=1 valid=1 current $want_cur"
restore

# one index block: the current one -- the older wins: B2b's previous name
C="one index block (the current) garbage on $D2"
damage $D2 'garble $F $(nvt-labels current $F) 256'
expect_layout "$C" B2b=bad-b2b
log_says "$C" "$D2.*index"
area_same "$C" $D2
restore

# both index blocks invalid (signature intact, checksum broken): the DIMM
# has no labels, its index is damaged, nothing is written to it until
# ndctl init-labels
C="both index blocks with a bad checksum on $D2"
damage $D2 'flip $F 64; flip $F 320'
expect_layout "$C" B2a=absent B2b=absent P1=absent
log_says "$C" "$D2.*index"
N=$(seed $RB2)
good "$C: BLK seed of $D2 takes a uuid" $N/uuid bad00000-0000-4000-8000-0000000005ec
bad "$C: size on the BLK region of $D2" $N/size $((4 * MiB)) "$ENXIO"
N=$(seed $R1)
good "$C: region1 seed takes a uuid" $N/uuid bad00000-0000-4000-8000-0000000005ed
bad "$C: size on region1 (includes $D2)" $N/size $((16 * MiB)) "$ENXIO"
area_same "$C" $D2
restore
expect_layout "restored"

# both index blocks garbage without any signature: a blank area as
# docs/namespaces.md defines it ("no index signature at all"): label-less,
# and the first size write initialises it (v1.1: the DIMM aliases BLK)
C="both index blocks garbage, no signature, on $D2"
damage $D2 'garble $F 0 512'
expect_layout "$C" B2a=absent B2b=absent P1=absent
area_same "$C (at bind)" $D2
N=$(seed $RB2)
r="$(ns_w $N/uuid bad00000-0000-4000-8000-0000000005ec) $(ns_w $N/size $((4 * MiB)))"
ns_area $D2 /tmp/bad.now
got="$r $(nvt-labels show /tmp/bad.now | awk '$1 == "index" { printf "%s/%s/%s ", $9, $10, $NF }')$(ns_labels /tmp/bad.now | awk '{ print $1, $2 }' | tr '\n' ';')"
expect_eq "$C: uuid, size 4 MiB on its BLK region initialise the area (index nslot/ver/valid, live labels)" \
	"$got" "ok ok nslot=1016/ver=1.1/valid=1 nslot=1016/ver=1.1/valid=1 dpa=0 rawsize=0x400000;"
restore
expect_layout "restored"

# a label whose slot field is not its slot (B3 on DIMM 3): ignored
C="B3's label names the wrong slot on $D3"
damage $D3 's=$(slot_of $F $U_B3); nvt-labels set $F $s slot $((s + 1))'
expect_layout "$C" B3=absent
log_says "$C" "$D3.*slot"
expect_eq "$C: its DPA is free again: region5 available_size MiB" "$(($(cat $RB3/available_size) / MiB))" 24
restore

# two labels with overlapping DPA: B2b moved down onto B2a
C="B2b's label overlaps B2a's on $D2 (dpa 8M -> 4M)"
damage $D2 's=$(slot_of $F $U_B2b); nvt-labels set $F $s dpa $((4 * MiB))'
expect_layout "$C" B2a=absent B2b=absent
log_says "$C" "$D2.*overlap"
# both ranges stay reserved: free = 32 - [0,12M) - P1's [16M,24M) = 12 MiB
expect_eq "$C: overlapped DPA stays reserved: region4 available_size MiB" "$(($(cat $RB2/available_size) / MiB))" 12
N=$(seed $RB2)
good "$C: BLK seed takes a uuid" $N/uuid bad00000-0000-4000-8000-0000000005ee
bad "$C: 12 MiB + 4 KiB on the BLK region" $N/size $((12 * MiB + 4096)) "$ENOSPC"
good "$C: 12 MiB on the BLK region" $N/size $((12 * MiB))
ns_area $D2 /tmp/bad.now
got=$(ns_labels /tmp/bad.now | awk '{ print $1, $2, $8 }' | tr '\n' ';')
want="dpa=0 rawsize=0x800000 uuid=$U_B2a;dpa=0x400000 rawsize=0x800000 uuid=$U_B2b;dpa=0xc00000 rawsize=0x400000 uuid=bad00000-0000-4000-8000-0000000005ee;dpa=0x1000000 rawsize=0x800000 uuid=$U_P1;dpa=0x1800000 rawsize=0x800000 uuid=bad00000-0000-4000-8000-0000000005ee;"
expect_eq "$C: the new namespace got [12M,16M) + [24M,32M), the conflicting labels stay" "$got" "$want"
restore

# a label beyond the end of the DIMM (B3 at 32 MiB of a 32 MiB DIMM)
C="B3's label beyond the end of $D3 (dpa 32M)"
damage $D3 's=$(slot_of $F $U_B3); nvt-labels set $F $s dpa $((32 * MiB))'
expect_layout "$C" B3=absent
log_says "$C" "$U_B3.*($D3|outside|beyond)"
restore

# a PMEM label outside its mapping: A's label on DIMM 1 moved to [24M,32M)
# (on the DIMM, outside region0's DPA [0,16M), overlapping nothing)
C="A's label outside region0's mapping on $D1 (dpa 24M)"
damage $D1 's=$(slot_of $F $U_A); nvt-labels set $F $s dpa $((24 * MiB))'
expect_layout "$C" A=absent
log_says "$C" "$U_A.*$D1.*outside"
restore

# SET_CONFIG_DATA fails during a size write (firmware status 4)
C="SET_CONFIG_DATA fails on $D3"
N=$(seed $RB3)
good "$C: BLK seed of $D3 takes a uuid" $N/uuid bad00000-0000-4000-8000-0000000005ef
nt_knob $D3 fail_cmds $NT_SET_DATA
bad "$C: size 4 MiB on its BLK region" $N/size $((4 * MiB)) "$EIO"
nt_knob $D3 fail_cmds $NT_SET_DATA
nt_knob $D3 fault_skip 1
ns_area $D3 /tmp/bad.pre
BAD_NOAREA=1
bad "$C after one label write went through: size 4 MiB" $N/size $((4 * MiB)) "$EIO"
BAD_NOAREA=
ns_area $D3 /tmp/bad.now
expect_eq "$C: $D3's live labels unchanged" "$(ns_labels /tmp/bad.now)" "$(ns_labels /tmp/bad.pre)"
nt_knobs_reset $D3
C="SET_CONFIG_DATA fails on $D1"
N=$(seed $R0)
good "$C: region0 seed takes a uuid" $N/uuid bad00000-0000-4000-8000-0000000005f0
ns_area $D0 /tmp/bad.pre
nt_knob $D1 fail_cmds $NT_SET_DATA
BAD_NOAREA=1
bad "$C (region0's second DIMM; the first writes fine): size 16 MiB" $N/size $((16 * MiB)) "$EIO"
BAD_NOAREA=
ns_area $D0 /tmp/bad.now
expect_eq "$C: $D0's live labels unchanged" "$(ns_labels /tmp/bad.now)" "$(ns_labels /tmp/bad.pre)"
nt_knobs_reset $D1
regions_off
for d in $D0 $D1 $D3; do dimm_rebind $d; done
regions_on
C="SET_CONFIG_DATA failures"
expect_layout "$C: after a rebind"
got="$(ns_list $R0) $(cat $R0/namespace_seed) | $(ns_list $RB3) $(cat $RB3/namespace_seed)"
r0=${R0##*region} r5=${RB3##*region}
expect_eq "$C: after a rebind no other namespace on region0 | region5 (namespaces, seed)" "$got" \
	"namespace$r0.0 namespace$r0.1 namespace$r0.1 | namespace$r5.0 namespace$r5.1 namespace$r5.1"

# --- v1.2 labels: a label with a bad checksum --------------------------------------
ns_phase "v1.2"
regions_off
for d in $DIMMS; do
	nd-label-ioctl write /dev/$d /dev/zero > /dev/null 2>&1
	dimm_rebind $d
done
check "ndctl init-labels -f -V 1.2 $DIMMS" ndctl init-labels -f -V 1.2 $DIMMS
regions_on
U_Q0=bad00000-0000-4000-8000-0000000012a0
U_Q1=bad00000-0000-4000-8000-0000000012a1
for e in "$R0 $U_Q0 bad-q0 16" "$R1 $U_Q1 bad-q1 32"; do
	set -- $e
	N=$(seed $1)
	r="$(ns_w $N/uuid $2) $(ns_w $N/alt_name $3) $(ns_w $N/size $(($4 * MiB)))"
	expect_eq "v1.2: $3 on ${1##*/} (${N##*/}): uuid alt_name size" "$r" "ok ok ok"
done
ns_area $D1 /tmp/bad.v12
got=$(nvt-labels show /tmp/bad.v12 | awk '$1 == "index" { print $10, $11 } $1 == "label" { print $3, $NF }' | sort | tr '\n' ';')
expect_eq "v1.2: $D1 index v1.2 / 256-byte labels with good checksums" "$got" \
	"uuid=$U_Q0 csum=ok;uuid=$U_Q1 csum=ok;ver=1.2 lsize=256;ver=1.2 lsize=256;"
cp /tmp/bad.v12 /tmp/bad.base.$D1
C="v1.2: Q0's label on $D1 with a bad checksum"
damage $D1 's=$(slot_of $F $U_Q0); printf X | dd of=$F bs=1 seek=$((512 + s * 256 + 16)) conv=notrunc 2>/dev/null'
NQ=$(ns_by_uuid $R0 $U_Q0)
NQ1=$(ns_by_uuid $R1 $U_Q1)
expect_eq "$C: Q0 left unclaimed | Q1 still comes up (size uuid name)" \
	"${NQ:-absent} | $(ns_state $NQ1 | cut -d' ' -f1,4,5)" "absent | $((32 * MiB)) $U_Q1 bad-q1"
log_says "$C" "$D1.*(checksum|$U_Q0)"
# DIMM 0's Q0 label still reserves [0,8M); DIMM 1's is not a label any more
expect_eq "$C: region0 available_size MiB (DIMM 0's Q0 label still reserves its DPA)" \
	"$(($(cat $R0/available_size) / MiB))" 16
area_same "$C" $D1
modprobe nd_blk || nok "modprobe nd_blk"
ns_phase "done"
