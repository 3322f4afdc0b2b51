# label-fault: a DIMM whose label area cannot be read (or reads back
# damaged) when the "nvdimm" driver binds it comes up label-less: it
# binds, says why in the kernel log, shows no "label" flag, and nothing is
# written to its area; once the firmware behaves, a rebind finds the
# labels again.  Uses nfit_test's per-DIMM fault knobs (debugfs), so it
# runs on the nfit_test platform only.  nfit_test.0's DIMMs alias BLK
# (v4.2): their regions stay label-backed (nstype 5) throughout, and a
# blank area counts the slots of the v4.x layout (1016 - 1).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"

if [ "$NVT_PLATFORM" != nfit_test ]; then
	skip "label area faults at DIMM bind" "needs nfit_test's fault knobs"
	exit 0
fi
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }
d=$(nt_dimm 0 0x1)
[ -n "$d" ] || { nok "no DIMM 0x1 on nfit_test.0"; exit 0; }
D=/sys/bus/nd/devices/$d
r=$(nt_region 0 1)
nt_knobs_reset $d
nt_regions_unbind 0

attr() {
	local v
	v=$(cat "$1" 2>/dev/null) || { echo err; return; }
	echo "$v" | tr ' ' '_'
}

# flags, available_slots and driver of the DIMM, nstype of its region
state() {
	echo "flags=$(attr $D/flags) slots=$(attr $D/available_slots) driver=$(readlink $D/driver | sed 's,.*/,,') nstype=$(attr /sys/bus/nd/devices/$r/nstype)"
}

rebind() {
	echo $d > /sys/bus/nd/drivers/nvdimm/unbind
	echo $d > /sys/bus/nd/drivers/nvdimm/bind
	nd_settle
}

labelled="flags=label_ slots=1019 driver=nvdimm nstype=5"

# a blank area (v4.2 rule for aliasing DIMMs: the v4.x layout's slots)
check "$d: zero the label area" nd-label-ioctl write /dev/$d /dev/zero
rebind
expect_eq "$d blank label area" "$(state)" \
	"flags= slots=1015 driver=nvdimm nstype=5"

check "$d: ndctl init-labels -f" ndctl init-labels -f $d
nd_settle
expect_eq "$d after init-labels (v1.1, 1020 slots)" "$(state)" "$labelled"
check "$d: read the area" nd-label-ioctl read /dev/$d /tmp/lf.want

# fault KNOB VALUE... ; DESC ; WANT_STATE ; WANT_LOG
fault() {
	local desc=$1 want=$2 log=$3 got n0
	shift 3
	n0=$(dmesg | wc -l)
	while [ $# -ge 2 ]; do
		nt_knob $d $1 $2
		shift 2
	done
	rebind
	got=$(state)
	nt_knobs_reset $d
	expect_eq "$d bound while $desc" "$got" "$want"
	if dmesg | tail -n +$((n0 + 1)) | grep "$d: " | grep -v "nfit_test: injected" |
		grep -q "$log"; then
		ok "$d: $desc: logged '$log'"
	else
		nok "$d: $desc: no '$log' in the kernel log"
		dmesg | tail -n +$((n0 + 1)) | grep "$d" | head -n 5 | sed 's/^/#   /'
	fi
	nd-label-ioctl read /dev/$d /tmp/lf.got > /tmp/lf.out 2>&1 ||
		nok "$d: read after $desc: $(cat /tmp/lf.out)"
	check "$d: $desc: label area unchanged" label_cmp /tmp/lf.want /tmp/lf.got
	rebind
	expect_eq "$d labels back after the fault" "$(state)" "$labelled"
}

fault "get_data fails (firmware status 4)" \
	"flags= slots=err driver=nvdimm nstype=5" "label area unreadable" \
	fail_cmds $NT_GET_DATA
fault "get_data fails (-EIO from the call)" \
	"flags= slots=err driver=nvdimm nstype=5" "label area unreadable" \
	fail_cmds $NT_GET_DATA fail_errno 5
fault "get_data transfers short" \
	"flags= slots=err driver=nvdimm nstype=5" "label area unreadable" \
	short_cmds $NT_GET_DATA
fault "the 3rd get_data chunk fails" \
	"flags= slots=err driver=nvdimm nstype=5" "label area unreadable" \
	fail_cmds $NT_GET_DATA fault_skip 2 fault_count 1
# every 100th byte flipped: index0's signature, a byte inside index1
fault "get_data returns damaged bytes (index checksums break)" \
	"flags= slots=1015 driver=nvdimm nstype=5" "no valid label index" \
	corrupt_cmds $NT_GET_DATA corrupt_stride 100

nt_regions_bind 0
expect_eq "$d active again with its regions" "$(cat $D/state)" active
