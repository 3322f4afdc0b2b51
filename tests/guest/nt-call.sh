# nt-call: the passthrough ioctl ND_IOCTL_CALL (struct nd_cmd_pkg).
# nfit_test.0's DIMMs offer it by default for their health firmware (as
# 6.1's mock, nt-smart); with smart=0 no DIMM offers it, the buses only
# for the injection functions (nt-ars).  nfit_test's test knob cmd_call=1
# (here with smart=0, so that no function is the health firmware's) makes
# nfit_test.0's DIMMs offer it and its bus answer the other functions,
# the mock firmware answering every function with call_len bytes (byte
# i = function + i) and nd_fw_size.
#
# - the answer comes back as the uapi says: the header as sent with the
#   firmware's nd_fw_size (even when it is larger than nd_size_out), the
#   input, the output bytes the firmware filled and no more (the envelope
#   ends at a guard page; output bytes not filled stay as they were); the
#   ioctl returns 0
# - what 6.1 keeps from userspace never reaches the firmware (the mock
#   counts every call): the Intel family's security (19-28) and firmware
#   activation (29, 30) functions and functions above 31, a label write
#   (function 6) while the DIMM is active, bus families other than NFIT,
#   unknown families, a read-only file, reserved words set
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }

# nt_call_ctx: d (nmem of handle 0x1), nl (nfit_test.1's DIMM), bus (/dev/ndctlN)
nt_call_ctx() {
	local b
	d=$(nt_dimm 0 0x1) nl=$(nt_dimm 1 0x0)
	b=$(nt_bus 0) && bus=/dev/ndctl${b##*ndbus}
	[ -n "$d" ] && [ -n "$nl" ] && [ -n "$b" ]
}
nt_call_ctx || { nok "no nfit_test.0 DIMM 0x1 / nfit_test.1 DIMM / bus"; exit 0; }

reload_nfit_test() {	# modprobe arguments
	rmmod nfit_test || return 1
	modprobe nfit_test "$@" || return 1
	nd_settle
	wait_pmem 1 30
	nt_call_ctx
}

# case DESC WANT DEV FAMILY FUNC IN OUT [ro|reserved]
case_() {
	local desc=$1 want=$2 out
	shift 2
	out=$(nd-label-ioctl call "$@" 2>&1)
	if [ "$out" = "$want" ]; then
		ok "$desc -> $out"
	else
		nok "$desc -> $out, want $want"
	fi
}
fwcalls() { nt_faults $d cmd_call | cut -d' ' -f1; }
ALL16='fw_size=3735928559 hdr=same in=same filled=0 kept=16'

# by default the health firmware's (6.1's mock); without it (smart=0)
# nothing offers it, the call is refused as unknown
SMART_CMDS="smart smart_thresh flags get_size get_data set_data cmd_call "
expect_eq "$d commands (default: the health firmware)" \
	"$(cat /sys/bus/nd/devices/$d/commands)" "$SMART_CMDS"
if ! reload_nfit_test smart=0; then
	nok "modprobe nfit_test smart=0"
	exit 0
fi
expect_eq "$d commands (smart=0, cmd_call off)" "$(cat /sys/bus/nd/devices/$d/commands)" \
	"flags get_size get_data set_data "
case_ "$d call, not offered" "rc=-25 err=ENOTTY $ALL16" /dev/$d 0 1 8 16
case_ "$bus call, not offered" "rc=-25 err=ENOTTY $ALL16" $bus 0 1 8 16

if ! reload_nfit_test smart=0 cmd_call=1; then
	nok "modprobe nfit_test smart=0 cmd_call=1"
	exit 0
fi
ok "modprobe nfit_test smart=0 cmd_call=1"
got="$(cat /sys/bus/nd/devices/$d/commands)|$(cat $(nt_bus 0)/commands)|$(cat /sys/bus/nd/devices/$nl/commands)"
expect_eq "$d, ndbus of nfit_test.0, $nl commands (cmd_call on)" "$got" \
	"flags get_size get_data set_data cmd_call |ars_cap ars_start ars_status clear_error cmd_call |"
expect_eq "$d active (its regions enabled)" "$(cat /sys/bus/nd/devices/$d/state)" active
dyn=/sys/kernel/debug/dynamic_debug/control
[ -w $dyn ] && echo 'module libnvdimm file ioctl.c +p' > $dyn 2> /dev/null

# the answer
n0=$(fwcalls)
case_ "Intel 1: 128-byte answer, 256 bytes of room" \
	"rc=0 err=0 fw_size=128 hdr=same in=same filled=128 kept=128" /dev/$d 0 1 8 256
case_ "Intel 1: 128-byte answer, 16 bytes of room (first 16 returned)" \
	"rc=0 err=0 fw_size=128 hdr=same in=same filled=16 kept=0" /dev/$d 0 1 8 16
case_ "Intel 1: exactly 128 bytes of room, no input" \
	"rc=0 err=0 fw_size=128 hdr=same in=same filled=128 kept=0" /dev/$d 0 1 0 128
nt_knob $d call_len 1048576
case_ "Intel 1: firmware says 1 MiB, 16 bytes of room" \
	"rc=0 err=0 fw_size=1048576 hdr=same in=same filled=16 kept=0" /dev/$d 0 1 8 16
nt_knob $d call_len 0
case_ "Intel 1: empty answer" \
	"rc=0 err=0 fw_size=0 hdr=same in=same filled=0 kept=64" /dev/$d 0 1 8 64
nt_knob $d call_len 128
case_ "Intel 13 (firmware update: 6.1 passes it)" \
	"rc=0 err=0 fw_size=128 hdr=same in=same filled=16 kept=0" /dev/$d 0 13 8 16
case_ "HPE1 19 (the deny list is the Intel family's)" \
	"rc=0 err=0 fw_size=128 hdr=same in=same filled=16 kept=0" /dev/$d 1 19 8 16
expect_eq "$d: the firmware saw those 7 calls" "$(($(fwcalls) - n0))" 7

# refused before the firmware
n0=$(fwcalls)
log0=$(dmesg | wc -l)
for f in 19 20 21 22 23 24 25 26 27 28 29 30 32 63 0xffffffffffffffff; do
	case_ "Intel $f refused" "rc=-95 err=EOPNOTSUPP $ALL16" /dev/$d 0 $f 8 16
done
case_ "family 6 (unknown) refused" "rc=-22 err=EINVAL $ALL16" /dev/$d 6 1 8 16
for fam in 0 1 2 3 4 5; do
	case_ "family $fam function 6 (label write) while active" \
		"rc=-16 err=EBUSY $ALL16" /dev/$d $fam 6 8 16
done
case_ "read-only file" "rc=-1 err=EPERM $ALL16" /dev/$d 0 1 8 16 ro
case_ "reserved word set" "rc=-22 err=EINVAL $ALL16" /dev/$d 0 1 8 16 reserved
expect_eq "$d: none of the refused calls reached the firmware" "$(($(fwcalls) - n0))" 0
if [ -w $dyn ]; then
	got=$(dmesg | tail -n +$((log0 + 1)) | grep -c "$d: call 0.2[0-9] refused (security or firmware activation): -95")
	expect_eq "$d: refusals logged (dev_dbg)" "$got" 10
else
	skip "refusals logged" "no dynamic debug"
fi

# the bus
b0=$(cat $NT_DBG/nfit_test.0/bus_calls)
case_ "$bus NFIT family, function 1" "rc=0 err=0 fw_size=128 hdr=same in=same filled=16 kept=0" $bus 0 1 8 16
case_ "$bus Intel bus family (firmware activation), function 1 refused" "rc=-95 err=EOPNOTSUPP $ALL16" $bus 1 1 8 16
case_ "$bus Intel bus family, function 2 refused" "rc=-95 err=EOPNOTSUPP $ALL16" $bus 1 2 8 16
case_ "$bus family 2 (unknown) refused" "rc=-22 err=EINVAL $ALL16" $bus 2 1 8 16
expect_eq "$bus: the firmware saw 1 call" "$(($(cat $NT_DBG/nfit_test.0/bus_calls) - b0))" 1

# label writes pass once the DIMM is idle
nt_regions_unbind 0
expect_eq "$d idle (regions disabled)" "$(cat /sys/bus/nd/devices/$d/state)" idle
n0=$(fwcalls)
case_ "Intel 6 while idle" "rc=0 err=0 fw_size=128 hdr=same in=same filled=16 kept=0" /dev/$d 0 6 8 16
case_ "HPE1 6 while idle" "rc=0 err=0 fw_size=128 hdr=same in=same filled=16 kept=0" /dev/$d 1 6 8 16
expect_eq "$d: both reached the firmware" "$(($(fwcalls) - n0))" 2
nt_regions_bind 0
[ -w $dyn ] && echo 'module libnvdimm file ioctl.c -p' > $dyn 2> /dev/null

reload_nfit_test && ok "nfit_test reloaded as by default" || nok "nfit_test reload failed"
expect_eq "$d commands (default again)" "$(cat /sys/bus/nd/devices/$d/commands)" \
	"$SMART_CMDS"
