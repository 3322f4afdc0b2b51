# blk: enabled BLK namespaces (nstype 6, served by nd_blk) through both
# ndctl binaries on nfit_test, as doc-examples left the v4.2 document's
# picture: blk2.0 .. blk4.0 raw disks /dev/ndblkR.N, blk5.0 in sector mode
# (BTT0 of the Summary diagram, /dev/ndblk5.0s).  Listings, ours vs
# Debian's ndctl 76.1, and the fields v4.2-era userspace reads (blockdev,
# sector_size, mode, uuid, name, size); data written through the disks;
# disable-namespace / enable-namespace by each binary, crosswise; then
# destroy-namespace of enabled BLK namespaces: refused without -f, done
# with it, by each binary.  blk-create.sh continues from here.
#
# Debian's ndctl 76.1 still drives BLK namespaces: its libndctl resolves
# a BLK namespace's modalias nd:t6 to nd_blk with libkmod and binds it
# through sysfs like any namespace; it lists, enables, disables, creates
# and destroys them (checked below and in blk-create.sh).
# usage: sh blk.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

nfit_test0 "BLK namespaces"
[ -d /sys/bus/nd/drivers/nd_blk ] && ok "nd_blk is loaded" || nok "nd_blk is not loaded"

# --- listings ---------------------------------------------------------------
for opts in "-N -t blk" "-R -t blk" "-Ni -t blk" "-RNi -t blk -u" "-Ni -r region4" "-RN -t blk" "-RNi" "-Nv -t blk"; do
	list_parity blk$(echo "$opts" | tr -d ' ') $opts
done
L=$OUT/blk-N-tblk.ours.json
n=$(grep -c '"type":"blk"' $OUT/blk-R-tblk.ours.json)
expect_eq "ours: list -R -t blk shows region2..5" "$n" 4
# the picture, as listed by ours (enabled namespaces only: no -i)
# NS MODE SECTOR_SIZE BLOCKDEV SIZE UUID (uuid of the namespace, of the btt in sector mode)
bsz=$(attr /sys/bus/nd/devices/$(attr $B/region5/namespace5.0/holder)/size)
while read -r ns mode ss disk size uuid; do
	got="$(jns $L $ns mode) $(jns $L $ns sector_size) $(jns $L $ns blockdev) $(jns $L $ns size) $(jns $L $ns uuid) $(jns $L $ns name)"
	expect_eq "ours: list -N -t blk: $ns (mode, sector_size, blockdev, size, uuid, name)" \
		"$got" "$mode $ss $disk $size $uuid $ns"
	[ -b /dev/$disk ] || nok "/dev/$disk listed for $ns is not a block device"
done <<EOF
namespace2.0 raw 512 ndblk2.0 8388608 d0c42000-0000-4000-8000-000000000003
namespace3.0 raw 4096 ndblk3.0 8388608 d0c42000-0000-4000-8000-000000000004
namespace2.1 raw 520 ndblk2.1 8388608 d0c42000-0000-4000-8000-000000000005
namespace3.1 raw 528 ndblk3.1 8388608 d0c42000-0000-4000-8000-000000000006
namespace4.0 raw 4160 ndblk4.0 25165824 d0c42000-0000-4000-8000-000000000007
namespace5.0 sector 4096 ndblk5.0s ${bsz:-?} d0c42b77-0000-4000-8000-000000000000
EOF
expect_eq "ours: list -N -t blk: the six namespaces, no idle seed" \
	"$(grep -c '"dev":"namespace' $L)" 6
grep -q '"state":"disabled"' $L && nok "list -N (no -i) shows a disabled namespace"

# --- data through the disks -------------------------------------------------
for d in ndblk2.0 ndblk3.1 ndblk4.0 ndblk5.0s; do
	pat_write $d $d || nok "/dev/$d: write failed"
done
r=
for d in ndblk2.0 ndblk3.1 ndblk4.0 ndblk5.0s; do
	r="$r $(pat_check $d $d)"
done
expect_eq "64 KiB written through /dev/ndblk2.0 (512), ndblk3.1 (528), ndblk4.0 (4160), ndblk5.0s (BTT) read back" \
	"$r" " same same same same"

# --- disable-namespace / enable-namespace -----------------------------------
# state NS: who serves it and its disk ("nd_blk ndblk2.0"; "- -" when off)
state() {
	local h disk
	h=$(attr /sys/bus/nd/devices/$1/holder)
	disk=$(ns_disk $1)
	[ -n "$disk" ] && [ -b /dev/$disk ] || disk=-
	echo "$(ns_driver ${h:-$1}) $disk"
}
# toggle BIN VERB NS WANT_STATE
toggle() {
	local bin=$1 verb=$2 ns=$3 want=$4 who
	[ "$bin" = "$OURS" ] && who=ours || who="Debian ndctl"
	"$bin" $verb $ns > /tmp/t.out 2>&1
	rc=$?
	if [ $rc = 0 ] && [ "$(state $ns)" = "$want" ] && ! grep -qi error /tmp/t.out \
			&& grep -q "${verb%-namespace}d 1 namespace" /tmp/t.out; then
		ok "$who: $verb $ns: exit 0, now '$want'"
	else
		nok "$who: $verb $ns: exit $rc, state '$(state $ns)', want '$want'"
		sed 's/^/#   /' /tmp/t.out | head -n 10
	fi
}
for ns in namespace2.0 namespace5.0; do
	on=$(state $ns)
	case $ns in
	namespace2.0) expect_eq "$ns served by nd_blk as a raw disk" "$on" "nd_blk ndblk2.0" ;;
	*) expect_eq "$ns served by its btt (bound to nd_blk)" "$on" "nd_blk ndblk5.0s" ;;
	esac
	disk=${on#* }
	toggle "$OURS" disable-namespace $ns "- -"
	# (a failing list must not pass for "not listed")
	"$OURS" list -N -b nfit_test.0 > /tmp/l.json 2> /dev/null; lrc=$?
	"$OURS" list -Ni -n $ns > /tmp/li.json 2> /dev/null
	if [ $lrc = 0 ] && ! grep -q "\"dev\":\"$ns\"" /tmp/l.json && grep -q '"state":"disabled"' /tmp/li.json; then
		ok "ours: $ns disabled: not in list -N, '\"state\":\"disabled\"' in list -Ni"
	else
		nok "ours: $ns disabled but listed as active (list -N exit $lrc)"; sed 's/^/#   /' /tmp/li.json
	fi
	toggle "$THEIRS" enable-namespace $ns "$on"
	expect_eq "/dev/$disk after Debian's enable: the data" "$(pat_check $disk $disk)" same
	toggle "$THEIRS" disable-namespace $ns "- -"
	toggle "$OURS" enable-namespace $ns "$on"
	expect_eq "/dev/$disk after our enable: the data" "$(pat_check $disk $disk)" same
done
# how 76.1 binds it: libkmod resolves the modalias, then a driver bind
"$THEIRS" disable-namespace namespace4.0 > /dev/null 2>&1
"$THEIRS" enable-namespace -v namespace4.0 > /tmp/t.out 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "alias: nd:t6 module: nd_blk" /tmp/t.out \
		&& [ "$(state namespace4.0)" = "nd_blk ndblk4.0" ]; then
	ok "Debian ndctl: enable-namespace -v namespace4.0 resolves nd:t6 to nd_blk, bound"
else
	nok "Debian ndctl: enable-namespace -v namespace4.0: exit $rc, state '$(state namespace4.0)'"
	grep -v __sysfs /tmp/t.out | tail -n 5 | sed 's/^/#   /'
fi
expect_eq "/dev/ndblk4.0 after Debian's enable: the data" "$(pat_check ndblk4.0 ndblk4.0)" same
# an idle seed cannot be enabled by either
seed=$(attr $B/region2/namespace_seed)
for who in ours theirs; do
	[ $who = ours ] && bin=$OURS || bin=$THEIRS
	"$bin" enable-namespace $seed > /tmp/t.out 2>&1
	rc=$?
	if [ $rc != 0 ] && [ "$(ns_driver $seed)" = - ] && [ "$(attr $B/region2/namespace_seed)" = $seed ]; then
		ok "$who: enable-namespace of the idle seed $seed fails (exit $rc), nothing bound"
	else
		nok "$who: enable-namespace $seed (idle seed): exit $rc, driver $(ns_driver $seed)"
		sed 's/^/#   /' /tmp/t.out
	fi
done

# --- destroy-namespace of enabled BLK namespaces ----------------------------
# destroy BIN NS REGION BYTES: refused without -f (nothing changes), done
# with -f: the disk gone, the region's available_size grows by BYTES
destroy() {
	local bin=$1 ns=$2 r=$3 bytes=$4 who a0 s0 rc
	[ "$bin" = "$OURS" ] && who=ours || who="Debian ndctl"
	a0=$(avail $r) s0=$(state $ns)
	"$bin" destroy-namespace $ns > /tmp/d.out 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -q -- "--force" /tmp/d.out && [ "$(state $ns)" = "$s0" ] \
			&& [ "$(avail $r)" = "$a0" ]; then
		ok "$who: destroy-namespace $ns (enabled, no -f) refused, exit $rc: $(grep -i -m 1 'error\|active' /tmp/d.out | sed 's/^ *//')"
	else
		nok "$who: destroy-namespace $ns without -f: exit $rc, state '$(state $ns)' (was '$s0')"
		sed 's/^/#   /' /tmp/d.out
	fi
	"$bin" destroy-namespace -f $ns > /tmp/d.out 2>&1
	rc=$?
	# (a failing list must not pass for "name gone")
	"$OURS" list -N -b nfit_test.0 > /tmp/dl.json 2> /dev/null; lrc=$?
	if [ $rc = 0 ] && [ ! -b /dev/${s0#* } ] && [ "$(avail $r)" = $((a0 + bytes)) ] \
			&& [ $lrc = 0 ] && ! grep -q "\"name\":\"$ns\"" /tmp/dl.json; then
		ok "$who: destroy-namespace -f $ns: /dev/${s0#* } gone, region$r available_size +$((bytes / MiB)) MiB, name gone"
	else
		nok "$who: destroy-namespace -f $ns: exit $rc, /dev/${s0#* } $([ -b /dev/${s0#* } ] && echo present || echo gone), available $a0 -> $(avail $r), list -N exit $lrc"
		sed 's/^/#   /' /tmp/d.out
	fi
}
destroy "$OURS" namespace2.1 2 $((8 * MiB))
destroy "$THEIRS" namespace3.1 3 $((8 * MiB))
destroy "$OURS" namespace5.0 5 $((24 * MiB))
destroy "$THEIRS" namespace4.0 4 $((24 * MiB))
list_parity blk-after-destroy -RNi -t blk
