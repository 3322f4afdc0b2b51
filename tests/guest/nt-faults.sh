# nt-faults: nfit_test's fault injection on the label commands: the
# per-DIMM debugfs knobs (nfit_test/nmemX/: fail_cmds, fail_errno,
# fail_status, short_cmds, short_bytes, corrupt_cmds, corrupt_stride,
# corrupt_xor, fault_skip, fault_count) and the module parameters that
# arm faults before the DIMMs are enabled.  Whatever the firmware does,
# the DIMM stays usable, the fault is logged, nothing crashes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }
d=$(nt_dimm 0 0x1)
[ -n "$d" ] || { nok "no DIMM 0x1 on nfit_test.0"; exit 0; }
nt_knobs_reset $d
nt_regions_unbind 0
nvt-pattern gen 4711 $NT_LABEL_SIZE > /tmp/nf-want
nd-label-ioctl write /dev/$d /tmp/nf-want > /tmp/nf.out 2>&1 || nok "$d: label write: $(cat /tmp/nf.out)"
logged0=$(dmesg | grep -c "$d: nfit_test: injected")

# intact: the whole area reads back as written
intact() {
	nd-label-ioctl read /dev/$d /tmp/nf-got > /tmp/nf.out 2>&1 &&
		label_cmp /tmp/nf-want /tmp/nf-got
}

# failure: firmware status
nt_knob $d fail_cmds $NT_GET_DATA
expect_eq "$d get_data failing with firmware status 4" \
	"$(nd-label-ioctl get /dev/$d 0 256)" "rc=256 err=0 status=0x4"
nd-label-ioctl read /dev/$d /tmp/nf-got > /tmp/nf.out 2>&1 &&
	nok "$d: whole-area read succeeded while get_data fails" ||
	ok "$d: whole-area read reports the failure: $(cat /tmp/nf.out)"
dmesg | grep -q "$d: nfit_test: injected failure: get_data firmware status 0x4" &&
	ok "$d: failure logged" || nok "$d: no 'injected failure' in the kernel log"
[ -L /sys/bus/nd/devices/$d/driver ] && ok "$d still enabled" || nok "$d lost its driver"
nt_knob $d fail_status 6
expect_eq "$d get_data failing with firmware status 6" \
	"$(nd-label-ioctl get /dev/$d 0 256)" "rc=256 err=0 status=0x6"
nt_knob $d fail_status 4
# failure: the call itself fails
nt_knob $d fail_errno 5
expect_eq "$d get_data failing with -EIO" \
	"$(nd-label-ioctl get /dev/$d 0 256)" "rc=-5 err=EIO status=0xa5a5a5a5"
nt_knob $d fail_errno 0
nt_knob $d fail_cmds 0
check "$d: reads again after the failures, data intact" intact
# a failing write writes nothing
nt_knob $d fail_cmds $NT_SET_DATA
expect_eq "$d set_data failing with firmware status 4" \
	"$(nd-label-ioctl set /dev/$d 0 256)" "rc=0 err=0 status=0x4"
nt_knob $d fail_cmds 0
check "$d: the failed write changed nothing" intact
got=$(nt_faults $d get_data)
case $got in
*" 0") nok "$d stats: get_data '$got', no faults counted" ;;
*) ok "$d stats: get_data calls/faults $got" ;;
esac

# short transfers
nt_knob $d short_cmds $NT_GET_DATA
expect_eq "$d get_data 16 bytes short" "$(nd-label-ioctl get /dev/$d 0 256)" "rc=16 err=0 status=0"
nt_knob $d short_bytes 300
expect_eq "$d get_data short by more than it returns (status withheld too)" \
	"$(nd-label-ioctl get /dev/$d 0 256)" "rc=260 err=0 status=0"
nt_knob $d short_bytes 4
nt_knob $d short_cmds $((NT_GET_SIZE | NT_SET_DATA))
expect_eq "$d get_size 4 bytes short (max_xfer withheld)" \
	"$(nd-label-ioctl size /dev/$d)" "rc=4 err=0 status=0 config_size=$NT_LABEL_SIZE max_xfer=0"
expect_eq "$d set_data short (its status withheld)" \
	"$(nd-label-ioctl set /dev/$d 0 256)" "rc=4 err=0 status=0"
nt_knob $d short_cmds 0
nt_knob $d short_bytes 16
dmesg | grep -q "$d: nfit_test: injected short transfer: get_data withholds 16 bytes" &&
	ok "$d: short transfer logged" || nok "$d: no 'injected short transfer' in the kernel log"
# the short write landed anyway: put the pattern back
nd-label-ioctl write /dev/$d /tmp/nf-want > /dev/null 2>&1
check "$d: data intact after the short transfers" intact

# corruption: reads
nt_knob $d corrupt_cmds $NT_GET_DATA
nd-label-ioctl read /dev/$d /tmp/nf-got > /tmp/nf.out 2>&1 || nok "$d: corrupt read failed: $(cat /tmp/nf.out)"
cmp -l /tmp/nf-want /tmp/nf-got > /tmp/nf-diff 2> /dev/null
got="$(wc -l < /tmp/nf-diff) $(awk '($1 - 1) % 128 != 0' /tmp/nf-diff | wc -l)"
expect_eq "$d: corrupt get_data flips the byte at every 128th offset (1024 bytes, none elsewhere)" "$got" "1024 0"
nt_knob $d corrupt_stride 4096
nt_knob $d corrupt_xor 0x01
nd-label-ioctl read /dev/$d /tmp/nf-got > /dev/null 2>&1
expect_eq "$d: corrupt_stride 4096: 32 bytes differ" \
	"$(cmp -l /tmp/nf-want /tmp/nf-got 2> /dev/null | wc -l)" 32
nt_knob $d corrupt_cmds 0
check "$d: stored data intact after corrupted reads" intact
# corruption: writes store damaged data
nt_knob $d corrupt_cmds $NT_SET_DATA
nd-label-ioctl write /dev/$d /tmp/nf-want > /dev/null 2>&1
nt_knob $d corrupt_cmds 0
nd-label-ioctl read /dev/$d /tmp/nf-got > /dev/null 2>&1
expect_eq "$d: corrupt set_data stores 32 damaged bytes" \
	"$(cmp -l /tmp/nf-want /tmp/nf-got 2> /dev/null | wc -l)" 32
nd-label-ioctl write /dev/$d /tmp/nf-want > /dev/null 2>&1
nt_knob $d corrupt_cmds $NT_FLAGS
expect_eq "$d corrupt flags" "$(nd-label-ioctl flags /dev/$d)" "rc=0 err=0 status=0 flags=0xffffffff"
nt_knobs_reset $d

# armed for one fault after two good calls, then disarmed
nt_knob $d fail_cmds $NT_GET_DATA
nt_knob $d fault_skip 2
nt_knob $d fault_count 1
got=
for i in 1 2 3 4; do
	got="$got$(nd-label-ioctl get /dev/$d 0 64 | cut -d' ' -f3) "
done
expect_eq "$d fault_skip 2, fault_count 1: four reads" "$got" "status=0 status=0 status=0x4 status=0 "
expect_eq "$d disarmed after its last fault" "$(($(nt_knob $d fail_cmds)))" 0
nt_knobs_reset $d
check "$d: data intact after all faults" intact
logged1=$(dmesg | grep -c "$d: nfit_test: injected")
[ $logged1 -gt $logged0 ] && ok "$d: $((logged1 - logged0)) injected faults logged" ||
	nok "$d: injected faults not logged"
nt_regions_bind 0
got=$(cat /sys/bus/nd/devices/$d/state)
expect_eq "$d active again with its regions" "$got" active

# Faults armed at load, before the DIMMs are enabled: DIMM 0's label
# reads fail, DIMM 1's get_size fails, DIMM 2's get_size reports max_xfer
# 0.  The DIMMs still come up (label-less where it matters), and the
# kernel says so for each of them (whatever its wording).
reload_nfit_test() {	# modprobe arguments
	rmmod nfit_test || return 1
	log0=$(dmesg | wc -l)
	modprobe nfit_test "$@" || return 1
	nd_settle
	wait_pmem 1 30
}
if reload_nfit_test fail_cmds=$NT_GET_DATA,$NT_GET_SIZE corrupt_cmds=0,0,$NT_GET_SIZE; then
	ok "modprobe nfit_test with faults armed at load"
	d0=$(nt_dimm 0 0x0) d1=$(nt_dimm 0 0x1) d2=$(nt_dimm 0 0x100)
	got=$(for x in $d0 $d1 $d2; do readlink /sys/bus/nd/devices/$x/driver | sed 's,.*/,,'; done | tr '\n' ' ')
	expect_eq "$d0 $d1 $d2 enabled despite the faults" "$got" "nvdimm nvdimm nvdimm "
	dmesg | tail -n +$((log0 + 1)) > /tmp/nf-dmesg
	logged() {
		local l
		l=$(grep "$1: " /tmp/nf-dmesg | grep -v 'nfit_test: injected' | head -n 1)
		[ -n "$l" ] && ok "$1: the kernel logged it: ${l#*] }" ||
			nok "$1: nothing in the kernel log about its failing firmware"
	}
	logged $d1
	logged $d2
	# the kernel reads the labels at DIMM enable: the failing read is
	# injected, logged, and the DIMM comes up label-less
	if grep -q "$d0: nfit_test: injected failure: get_data" /tmp/nf-dmesg; then
		ok "$d0: its label read at enable hit the injected get_data failure"
	else
		nok "$d0: no label read at DIMM enable (no injected get_data failure logged)"
	fi
	logged $d0
	expect_eq "$d0: label-less after its failed label read (flags | available_slots of the unread area)" \
		"$(cat /sys/bus/nd/devices/$d0/flags 2>/dev/null) | $(cat /sys/bus/nd/devices/$d0/available_slots 2>/dev/null || echo err)" " | err"
	got=$(for r in $(nt_bus 0)/region*; do [ -L $r/driver ] && echo y; done | wc -l)
	expect_eq "all 6 regions of nfit_test.0 enabled" "$got" 6
	expect_eq "$d1: label read while get_size fails" \
		"$(nd-label-ioctl get /dev/$d1 0 64)" "rc=-5 err=EIO status=0xa5a5a5a5"
	nt_debugfs
	nt_knob $d0 fail_cmds 0
	nt_knob $d1 fail_cmds 0
	nt_knob $d2 corrupt_cmds 0
	got="$(nd-label-ioctl get /dev/$d0 0 64) | $(nd-label-ioctl get /dev/$d1 0 64) | $(nd-label-ioctl get /dev/$d2 0 64)"
	expect_eq "$d0 $d1 $d2 serve label reads once the faults are gone" "$got" \
		"rc=0 err=0 status=0 | rc=0 err=0 status=0 | rc=0 err=0 status=0"
else
	nok "modprobe nfit_test with faults at load failed"
	dmesg | tail -n 20 | sed 's/^/#   /'
fi
reload_nfit_test && ok "nfit_test reloaded without faults" || nok "nfit_test reload failed"
# the reload's blank 128 KiB areas: 1016 slots, one kept for updates
d0=$(nt_dimm 0 0x0)
expect_eq "$d0 after the reload without faults: available_slots of a blank area" \
	"$(cat /sys/bus/nd/devices/$d0/available_slots 2>&1)" 1015
