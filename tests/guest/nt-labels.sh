# nt-labels: the label storage nfit_test emulates behind the DIMM
# commands (GET_CONFIG_SIZE / GET_CONFIG_DATA / SET_CONFIG_DATA, and the
# block-window DIMM_FLAGS): sizes, whole-area round trips on every DIMM
# without crosstalk, and the firmware's own bounds checks.  The kernel
# refuses bad requests before the firmware sees them (label-bounds runs
# those on this platform too), so the firmware's checks are reached by
# making it disagree with what the kernel cached at DIMM enable: a
# smaller config_size or max_xfer set through its debugfs knobs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/nfit_test.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }
dimms=
for h in 0x0 0x1 0x100 0x101; do
	dimms="$dimms $(nt_dimm 0 $h)"
done
nl=$(nt_dimm 1 0x0)

for d in $dimms; do
	expect_eq "$d GET_CONFIG_SIZE" "$(nd-label-ioctl size /dev/$d)" \
		"rc=0 err=0 status=0 config_size=$NT_LABEL_SIZE max_xfer=$NT_MAX_XFER"
	# the mock's block windows latch (nfit_test blk_flags: LATCH)
	expect_eq "$d DIMM_FLAGS" "$(nd-label-ioctl flags /dev/$d)" \
		"rc=0 err=0 status=0 flags=0x2"
done
expect_eq "$nl (nfit_test.1, no label commands) GET_CONFIG_SIZE" \
	"$(nd-label-ioctl size /dev/$nl)" "rc=-25 err=ENOTTY status=0 config_size=0 max_xfer=0"
got=$(nd-label-ioctl get /dev/$nl 0 256)
expect_eq "$nl GET_CONFIG_DATA" "$got" "rc=-25 err=ENOTTY status=0xa5a5a5a5"

d0=${dimms# }
d0=${d0%% *}
got=$(nd-label-ioctl set /dev/$d0 0 256)
expect_eq "$d0 SET_CONFIG_DATA while its regions are enabled" "$got" "rc=-16 err=EBUSY status=0xa5a5a5a5"

nt_regions_unbind 0
got=$(for d in $dimms; do cat /sys/bus/nd/devices/$d/state; done | tr '\n' ' ')
expect_eq "regions of nfit_test.0 disabled: DIMMs idle" "$got" "idle idle idle idle "

# round trip: a different pattern on each DIMM, then read them all back
i=0
fail=
for d in $dimms; do
	i=$((i + 1))
	nvt-pattern gen $((700 + i)) $NT_LABEL_SIZE > /tmp/nt-label.$d
	nd-label-ioctl write /dev/$d /tmp/nt-label.$d > /tmp/nt.out 2>&1 ||
		fail="$fail $d write: $(cat /tmp/nt.out);"
done
for d in $dimms; do
	if ! nd-label-ioctl read /dev/$d /tmp/nt-back.$d > /tmp/nt.out 2>&1; then
		fail="$fail $d read: $(cat /tmp/nt.out);"
	elif ! label_cmp /tmp/nt-label.$d /tmp/nt-back.$d > /tmp/nt.out 2>&1; then
		fail="$fail $d: $(head -n 2 /tmp/nt.out | tr '\n' ' ');"
	fi
done
[ -z "$fail" ] && ok "128 KiB label areas written and read back on$dimms (distinct data each)" ||
	nok "label round trip:$fail"

# single transfers: odd offsets and lengths, the last byte
got="$(nd-label-ioctl set /dev/$d0 1 3) | $(nd-label-ioctl get /dev/$d0 $((NT_LABEL_SIZE - 1)) 1) | $(nd-label-ioctl set /dev/$d0 $((NT_LABEL_SIZE - NT_MAX_XFER)) $NT_MAX_XFER)"
expect_eq "$d0 set [1,+3), get the last byte, set the last max_xfer" "$got" \
	"rc=0 err=0 status=0 | rc=0 err=0 status=0 | rc=0 err=0 status=0"
nd-label-ioctl read /dev/$d0 /tmp/nt-back > /dev/null 2>&1
# nd-label-ioctl's raw set writes 0xa5 bytes
cp /tmp/nt-label.$d0 /tmp/nt-want
printf '\245\245\245' | dd of=/tmp/nt-want bs=1 seek=1 conv=notrunc 2> /dev/null
dd if=/dev/zero bs=$NT_MAX_XFER count=1 2> /dev/null | tr '\000' '\245' |
	dd of=/tmp/nt-want bs=$NT_MAX_XFER seek=$((NT_LABEL_SIZE / NT_MAX_XFER - 1)) conv=notrunc 2> /dev/null
check "$d0 label area holds exactly those writes" label_cmp /tmp/nt-want /tmp/nt-back

# The firmware's own checks, with status 3 (invalid input).  The kernel
# cached config_size 128 KiB and max_xfer 4 KiB at DIMM enable.
run() {	# desc dimm op off len want
	local got
	got=$(nd-label-ioctl $3 /dev/$2 $4 $5)
	echo "$1: $got" >> $NVT_OUT/nt-labels.txt
	expect_eq "$2 $1" "$got" "$6"
}
half=$((NT_LABEL_SIZE / 2))
nt_knob $d0 config_size $half
expect_eq "$d0 GET_CONFIG_SIZE reports the firmware's new size" \
	"$(nd-label-ioctl size /dev/$d0)" "rc=0 err=0 status=0 config_size=$half max_xfer=$NT_MAX_XFER"
run "firmware area 64K: get at 64K" $d0 get $half 256 "rc=256 err=0 status=0x3"
run "firmware area 64K: get straddling 64K (served to the end)" $d0 get $((half - 16)) 32 "rc=16 err=0 status=0"
run "firmware area 64K: get below 64K" $d0 get $((half - 256)) 256 "rc=0 err=0 status=0"
run "firmware area 64K: set at 64K" $d0 set $half 16 "rc=0 err=0 status=0x3"
run "firmware area 64K: set straddling 64K" $d0 set $((half - 16)) 32 "rc=0 err=0 status=0x3"
run "firmware area 64K: set below 64K" $d0 set $((half - 32)) 32 "rc=0 err=0 status=0"
nt_knob $d0 config_size $NT_LABEL_SIZE
nt_knob $d0 max_xfer 1024
run "firmware max_xfer 1K: get 2K" $d0 get 0 2048 "rc=2048 err=0 status=0x3"
run "firmware max_xfer 1K: set 2K" $d0 set 0 2048 "rc=0 err=0 status=0x3"
run "firmware max_xfer 1K: get 1K" $d0 get 0 1024 "rc=0 err=0 status=0"
nt_knob $d0 max_xfer $NT_MAX_XFER
nd-label-ioctl read /dev/$d0 /tmp/nt-back2 > /dev/null 2>&1
printf '\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245\245' |
	dd of=/tmp/nt-want bs=1 seek=$((half - 32)) conv=notrunc 2> /dev/null
check "$d0: refused writes changed nothing, accepted ones landed" label_cmp /tmp/nt-want /tmp/nt-back2
# kernel checks still come first: they use what was cached at enable
run "kernel bounds: get at 128K" $d0 get $NT_LABEL_SIZE 16 "rc=-22 err=EINVAL status=0xa5a5a5a5"
run "kernel bounds: set length 0" $d0 set 0 0 "rc=-22 err=EINVAL status=0xa5a5a5a5"
got=$(awk '$1 == "get_data" || $1 == "set_data" { print $1, ($2 > 0) }' $NT_DBG/$d0/stats | tr '\n' ' ')
expect_eq "$d0 firmware saw get_data and set_data calls" "$got" "get_data 1 set_data 1 "

nt_regions_bind 0
got=$(for d in $dimms; do cat /sys/bus/nd/devices/$d/state; done | tr '\n' ' ')
expect_eq "regions of nfit_test.0 enabled again: DIMMs active" "$got" "active active active active "
