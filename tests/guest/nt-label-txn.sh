# nt-label-txn: a label update that fails half way loses nothing.
#
# The kernel's label updates (kernel/nvdimm/label.c) write the new label
# slots, then the inactive index block (the commit point), per DIMM; a
# PMEM set is written in two passes over its DIMMs.  nfit_test's fault
# knobs make SET_CONFIG_DATA fail at chosen points: the first label slot
# write, the first index write, the second pass on the other DIMM, and a
# new namespace's first size write.  Each time the sysfs write must fail
# with the error, the namespace keep its attributes, the labels on media
# still describe the old state (checked after re-enabling the region, which
# reassembles the namespace from the labels), and the log say what
# happened.
. "$(dirname "$0")/lib.sh"
if [ "$NVT_PLATFORM" != nfit_test ]; then
	skip "label update faults" "needs nfit_test's fault knobs"
	exit 0
fi
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }
B=/sys/bus/nd/devices
d0=$(nt_dimm 0 0x0) && d1=$(nt_dimm 0 0x1) && r0=$(nt_region 0 1) || {
	nok "nfit_test.0 DIMMs 0x0, 0x1 and region of SPA range 1 expected"
	exit 0
}
nt_knobs_reset $d0
nt_knobs_reset $d1
UUID=5a3c1e7e-0c4b-4b8e-9a53-3f1d2b7c6a10
UUID2=7b0d3f2a-1e5c-4c9f-8b64-4a2e3c8d7b21
SZ=$((16 << 20))

seed() { cat $B/$r0/namespace_seed; }
# ns_by_uuid U: the namespace of region $r0 with that uuid
ns_by_uuid() {
	local n
	for n in $B/namespace${r0#region}.*; do
		[ "$(cat $n/uuid 2>/dev/null)" = "$1" ] && { echo ${n##*/}; return 0; }
	done
	return 1
}
state() {	# state NS: what a user sees of it
	echo "uuid=$(cat $B/$1/uuid) name=$(cat $B/$1/alt_name) size=$(cat $B/$1/size)"
}
# re-enable the region (namespaces reassembled from labels), then detach
# the namespaces that came up configured: writes need them disabled
reenable() {
	local n
	echo $r0 > /sys/bus/nd/drivers/nd_region/unbind
	echo $r0 > /sys/bus/nd/drivers/nd_region/bind
	nd_settle
	for n in $B/namespace${r0#region}.*; do
		[ -e $n/driver ] && echo ${n##*/} > $n/driver/unbind
	done
}
# fault DIMM SKIP: the next SET_CONFIG_DATA calls of DIMM fail after SKIP
fault() {
	nt_knob $1 fault_skip $2
	nt_knob $1 fault_count 1
	nt_knob $1 fail_cmds $NT_SET_DATA
}
# try DESC ATTR VALUE: the write must fail (any errno)
try_fail() {
	if echo "$3" > $B/$ns/$2 2> /tmp/txn.err; then
		nok "$1: the write succeeded"
	else
		ok "$1: the write fails ($(sed 's/.*: //' /tmp/txn.err))"
	fi
}

# a PMEM namespace on region0 (2 DIMMs)
ns=$(seed)
echo pm0 > $B/$ns/alt_name && echo $UUID > $B/$ns/uuid &&
	echo $SZ > $B/$ns/size ||
	{ nok "configuring $ns on $r0 failed"; exit 0; }
before=$(state $ns)
avail=$(cat $B/$r0/available_size)
diag "$ns: $before, $r0 available $avail"

dmesg -c > /dev/null
# 1: the first index write on DIMM 0 fails (its label slot went through)
fault $d0 1
try_fail "index write on $d0 fails" alt_name renamed
expect_eq "index write on $d0 fails: attributes unchanged" "$(state $ns)" "$before"
expect_eq "index write on $d0 fails: the fault was injected" \
	"$(nt_faults $d0 set_data | cut -d' ' -f2)" 1
check "index write on $d0 fails: logged, previous labels restored" \
	sh -c "dmesg | grep -q 'index.*write failed' && dmesg | grep -q 'previous labels restored'"
reenable
ns=$(ns_by_uuid $UUID)
expect_eq "index write on $d0 fails: labels still say the old state" \
	"$(state ${ns:-none} 2>/dev/null)" "$before"

# 2: the second pass on DIMM 1 fails (pass 1 committed on both DIMMs)
nt_knobs_reset $d0
fault $d1 2
try_fail "second pass on $d1 fails" alt_name renamed
expect_eq "second pass on $d1 fails: attributes unchanged" "$(state $ns)" "$before"
reenable
ns=$(ns_by_uuid $UUID)
expect_eq "second pass on $d1 fails: labels still say the old state" \
	"$(state ${ns:-none} 2>/dev/null)" "$before"

# 3: a namespace's first label (new namespace) fails on DIMM 1
nt_knobs_reset $d1
ns=$(seed)
s0=$ns
echo $UUID2 > $B/$ns/uuid
fault $d1 0
try_fail "first label of a new namespace fails on $d1" size $SZ
expect_eq "new namespace: still empty, still the seed" \
	"$(cat $B/$ns/size) $(seed)" "0 $s0"
expect_eq "new namespace: $r0 available_size unchanged" \
	"$(cat $B/$r0/available_size)" "$avail"
reenable
expect_eq "new namespace: no label of it left on media" \
	"$(ns_by_uuid $UUID2 || echo none)" none
expect_eq "new namespace: available_size unchanged after re-enable" \
	"$(cat $B/$r0/available_size)" "$avail"

# 4: with the firmware behaving again, the same writes work
nt_knobs_reset $d1
ns=$(ns_by_uuid $UUID)
check "after the faults: rename works" sh -c "echo renamed > $B/$ns/alt_name"
reenable
ns=$(ns_by_uuid $UUID)
expect_eq "after the faults: the rename is on media" "$(cat $B/${ns:-none}/alt_name 2>/dev/null)" renamed
check "clean up: size 0" sh -c "echo 0 > $B/$ns/size"
expect_eq "clean up: available_size back to the region size" \
	"$(cat $B/$r0/available_size)" "$(cat $B/$r0/size)"
