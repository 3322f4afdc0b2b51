# nt-firmware: firmware update and runtime activation (docs/firmware.md)
# on nfit_test, by Debian's ndctl 76.1 (update-firmware, activate-firmware,
# list -F) and through the sysfs ABI of 6.1 (ndbusN/firmware/activate and
# capability, nmemN/firmware/activate and result).  Written to run
# unchanged on upstream's own 6.1 mock (set `upstream`, boot
# media-upstream) and on ours (set `test`, nfit_test fw_update=1): the
# DIMMs are found by their dsm_mask (Intel functions 12-16, 29, 30),
# not by name.  Records (normalised: states, results, exit statuses,
# "changed" instead of versions): /out/nt-firmware.txt, compared by
# compare-nt-firmware.py.
#
# - an image updated on one DIMM: staged (next_version), armed by
#   default, disarm/arm, activated (--force: live): result success, the running version is the
#   staged one; then on two more DIMMs with --no-arm, armed by sysfs and
#   activated live: success there, the unarmed DIMM's result unchanged
# - quiesce (activate-firmware without --force, and sysfs): one
#   freeze/thaw cycle each, the /out share detached around it
#   (lib.sh nvt_out_detach); a second quiesce while busy: EBUSY, no freeze
# - bad input, each with its errno and the states unchanged: unknown
#   words written to both activate attributes (EINVAL), activation with
#   nothing armed (ENXIO), update-firmware with an empty and with an
#   oversized image
# - ours only (nvt-fw, the raw DSMs): the sequence rules and status codes
#   of nfit_test_fw.c (finish before start, send after finish, bad
#   offsets and sizes, holes, abort, query out of order), payloads too
#   small (EINVAL), the activation functions refused to userspace
#   (EOPNOTSUPP), the "live" capability (fw_live=1)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

OUTF=/tmp/nt-firmware.txt
: > $OUTF
rec() { echo "$1 = $2" >> $OUTF; }
flush_out() { [ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/nt-firmware.txt"; }

reload() {	# modprobe arguments (ours only)
	rmmod nfit_test > /tmp/fw.unload 2>&1 || return 1
	modprobe nfit_test "$@" >> /tmp/fw.unload 2>&1 || return 1
	nd_settle
	wait_pmem 1 30
	nd_settle
}
if [ "$NVT_SET" != upstream ] && ! reload fw_update=1; then
	nok "reloading nfit_test fw_update=1: $(cat /tmp/fw.unload)"
	exit 0
fi

# fw_dimms: the nmemX that offer the whole firmware set (12-16, 29, 30),
# on the first bus that has such DIMMs
fw_dimms() {
	local b d m
	for b in /sys/class/nd/ndctl*/device; do
		[ -e $b/firmware/activate ] && break
	done
	for d in $b/nmem*; do
		m=$(cat $d/nfit/dsm_mask 2> /dev/null) || continue
		[ $((m >> 12 & 0x1f)) = 31 ] && [ $((m >> 29 & 3)) = 3 ] &&
			echo ${d##*/}
	done
}
set -- $(fw_dimms)
if [ $# -lt 3 ]; then
	nok "fewer than 3 DIMMs with the firmware functions: '$*'"
	exit 0
fi
D1=$1 D2=$2 D3=$3
BUSDIR=$(readlink -f /sys/bus/nd/devices/$D1/..)
BUS=$(cat $BUSDIR/provider)
diag "DIMMs $D1 $D2 $D3 on $BUS (${BUSDIR##*/})"
dimm_attr() { cat /sys/bus/nd/devices/$1/firmware/$2 2>&1; }
bus_attr() { cat $BUSDIR/firmware/$1 2>&1; }
fwjson() { ndctl list -DF -d $1 > /tmp/fw.json 2>&1; jget $2 /tmp/fw.json; }
# wsys FILE WORD: write, print 0 or the errno's name
wsys() {
	if echo "$2" > "$1" 2> /tmp/fw.err; then echo 0; else
		sed -n 's/.*\(Invalid argument\|No such device or address\|Device or resource busy\|Operation not supported\).*/\1/p' /tmp/fw.err |
		sed 's/Invalid argument/EINVAL/; s/No such device or address/ENXIO/; s/Device or resource busy/EBUSY/; s/Operation not supported/EOPNOTSUPP/'
	fi
}
# the bus is busy a moment after an activation (ours 0.5 s, upstream's
# mock 3 s); the DIMMs' results are the last activation's once it is idle
wait_idle() {
	local i=0
	while [ "$(bus_attr activate)" = busy ] && [ $i -lt 80 ]; do
		usleep 100000
		i=$((i + 1))
	done
}
states() { echo "$(bus_attr activate) $(dimm_attr $D1 activate) $(dimm_attr $D2 activate) $(dimm_attr $D3 activate)"; }

# --- the ABI as found ------------------------------------------------------------
cap=$(bus_attr capability)
rec capability "$cap"
expect_eq "$BUS: firmware/capability" "$cap" quiesce
expect_eq "bus and DIMMs idle at first" "$(states)" "idle idle idle idle"
expect_eq "$D1: firmware/result at first" "$(dimm_attr $D1 result)" none
rec "D1 can_update" "$(fwjson $D1 can_update)"
expect_eq "ndctl list -DF: $D1 can_update" "$(jget can_update /tmp/fw.json)" true
ndctl list -BF -b $BUS > /tmp/fw.bus 2>&1
rec activate_method "$(jget activate_method /tmp/fw.bus)"
expect_eq "ndctl list -BF: activate_method (quiesce -> suspend)" "$(jget activate_method /tmp/fw.bus)" suspend

# --- bad sysfs input first: errno, state unchanged -------------------------------
for w in bogus arm "" quiesce_ livex; do
	rc=$(wsys $BUSDIR/firmware/activate "$w")
	rec "bus activate '$w' while idle" "$rc"
	want=EINVAL
	[ "$w" = "" ] && want=EINVAL
	expect_eq "bus firmware/activate <- '$w' while idle" "$rc" $want
done
for w in live quiesce; do
	rc=$(wsys $BUSDIR/firmware/activate $w)
	rec "bus activate $w with nothing armed" "$rc"
	expect_eq "bus firmware/activate <- $w with nothing armed" "$rc" ENXIO
done
for w in bogus live armed "arm disarm"; do
	rc=$(wsys /sys/bus/nd/devices/$D1/firmware/activate "$w")
	rec "dimm activate '$w'" "$rc"
	expect_eq "$D1 firmware/activate <- '$w'" "$rc" EINVAL
done
expect_eq "states unchanged by the bad writes" "$(states)" "idle idle idle idle"
ndctl activate-firmware $BUS > /tmp/fw.out 2>&1
rc=$?
rec "activate-firmware with nothing armed: rc" $rc
check "ndctl activate-firmware with nothing armed fails" [ $rc -ne 0 ]
expect_eq "states unchanged" "$(states)" "idle idle idle idle"

# --- update one DIMM ---------------------------------------------------------------
ndctl wait-scrub $BUS > /dev/null 2>&1
dd if=/dev/urandom of=/tmp/fw.img bs=4096 count=24 2> /dev/null
run0=$(fwjson $D1 current_version)
ndctl update-firmware -f /tmp/fw.img $D1 > /tmp/fw.out 2>&1
rc=$?
rec "update-firmware D1: rc" $rc
check "ndctl update-firmware -f img $D1 ($(tail -n 1 /tmp/fw.out))" [ $rc = 0 ]
next=$(fwjson $D1 next_version)
rec "D1 staged" "$([ -n "$next" ] && [ "$next" != 0 ] && echo yes || echo no)"
check "$D1: a next_version is staged ($next)" [ -n "$next" -a "$next" != 0 ]
expect_eq "$D1 armed by default, and so the bus" "$(states)" "armed armed idle idle"
rec "after update: states" "$(states)"
ndctl update-firmware --disarm $D1 > /tmp/fw.out 2>&1
rec "disarm: rc" $?
expect_eq "update-firmware --disarm: idle again" "$(states)" "idle idle idle idle"
ndctl update-firmware --arm $D1 > /tmp/fw.out 2>&1
rec "arm: rc" $?
expect_eq "update-firmware --arm: armed" "$(states)" "armed armed idle idle"
# --force: live, not the default quiesce (a freeze/thaw cycle: below)
ndctl activate-firmware --force $BUS > /tmp/fw.out 2>&1
rc=$?
rec "activate-firmware --force: rc" $rc
check "ndctl activate-firmware --force $BUS ($(tr '\n' ' ' < /tmp/fw.out | cut -c1-120))" [ $rc = 0 ]
wait_idle
# upstream's mock answers "none" while busy, and 6.1 keeps that answer
# until the next activation: ndctl read it during the busy time
[ "$NVT_SET" != upstream ] &&
	expect_eq "$D1: firmware/result success" "$(dimm_attr $D1 result)" success
rec "D1 result" "$(dimm_attr $D1 result)"
rec "D2 result" "$(dimm_attr $D2 result)"
# upstream's mock keeps reporting running version 0 (compare-nt-firmware.py)
run1=$(fwjson $D1 current_version)
rec "D1 running version changed" "$([ "$run1" != "$run0" ] && echo yes || echo no)"
[ "$NVT_SET" != upstream ] && expect_eq "$D1: the staged version runs" "$run1" "$next"
expect_eq "all idle after the activation" "$(states)" "idle idle idle idle"

# --- two more DIMMs, armed by sysfs, activated live ---------------------------------
ndctl update-firmware --no-arm -f /tmp/fw.img $D2 > /tmp/fw.out 2>&1 && \
	ndctl update-firmware --no-arm -f /tmp/fw.img $D3 >> /tmp/fw.out 2>&1
rc=$?
rec "update-firmware --no-arm D2 D3: rc" $rc
check "update-firmware --no-arm on $D2 and $D3" [ $rc = 0 ]
expect_eq "--no-arm: nothing armed" "$(states)" "idle idle idle idle"
expect_eq "sysfs: arm $D2" "$(wsys /sys/bus/nd/devices/$D2/firmware/activate arm)" 0
expect_eq "sysfs: arm $D2 again (no change)" "$(wsys /sys/bus/nd/devices/$D2/firmware/activate arm)" 0
expect_eq "sysfs: disarm $D3 while idle (no change)" "$(wsys /sys/bus/nd/devices/$D3/firmware/activate disarm)" 0
expect_eq "sysfs: arm $D3" "$(wsys /sys/bus/nd/devices/$D3/firmware/activate arm)" 0
rec "two armed: states" "$(states)"
expect_eq "two armed" "$(states)" "armed idle armed armed"
expect_eq "sysfs: bus activate <- live" "$(wsys $BUSDIR/firmware/activate live)" 0
wait_idle
r="$(dimm_attr $D1 result) $(dimm_attr $D2 result) $(dimm_attr $D3 result)"
rec "results after the second activation" "$r"
expect_eq "results: $D1 took no part (none), $D2 and $D3 success" "$r" "none success success"

# --- arming a DIMM without a staged image: not_staged -----------------------------
expect_eq "sysfs: arm $D1 (nothing staged)" "$(wsys /sys/bus/nd/devices/$D1/firmware/activate arm)" 0
expect_eq "sysfs: bus activate <- live" "$(wsys $BUSDIR/firmware/activate live)" 0
wait_idle
rec "D1 result without a staged image" "$(dimm_attr $D1 result)"
expect_eq "$D1: firmware/result not_staged" "$(dimm_attr $D1 result)" not_staged

# --- quiesce: the activation inside a freeze/thaw cycle ---------------------------
# activate-firmware without --force writes "quiesce" (the capability's
# method "suspend"): 6.1 runs the activation inside hibernate_quiet_exec()
# (user tasks and freezable threads frozen, every device through its
# freeze and thaw callbacks).  The /out share would not survive the thaw
# (lib.sh nvt_out_attach): detached around each quiesce.  Evidence of
# the cycle: one "Freezing user space processes" in the kernel log per
# quiesced activation, none for a refused one.
nfreeze() { dmesg | grep -c 'Freezing user space processes *$'; }
dd if=/dev/urandom of=/tmp/fw.img2 bs=4096 count=8 2> /dev/null
ndctl update-firmware -f /tmp/fw.img2 $D1 > /tmp/fw.out 2>&1
rec "update-firmware D1 for quiesce: rc" $?
expect_eq "$D1 staged and armed for the quiesce" "$(states)" "armed armed idle idle"
fr0=$(nfreeze)
if [ ! -e /sys/power/disk ]; then
	# a kernel without CONFIG_HIBERNATION: 6.1's hibernate_quiet_exec()
	# is a stub returning ENOTSUPP (524), before any freeze; nothing
	# activated, D1 still armed.  Then live, for the tests below.
	ndctl activate-firmware $BUS > /tmp/fw.out 2>&1
	rc=$?
	expect_eq "no hibernation: activate-firmware (quiesce) fails, ENOTSUPP" \
		"$rc $(grep -c 'Unknown error 524' /tmp/fw.out)" "244 1"
	expect_eq "no hibernation: no freeze, $D1 still armed" \
		"$(($(nfreeze) - fr0)) $(states)" "0 armed armed idle idle"
	ndctl activate-firmware --force $BUS > /tmp/fw.out 2>&1
	wait_idle
	expect_eq "no hibernation: live activation after it" "$(states)" "idle idle idle idle"
	skip "quiesced activation" "kernel without CONFIG_HIBERNATION (/sys/power/disk absent)"
elif nvt_out_detach; then
	ndctl activate-firmware $BUS > /tmp/fw.out 2>&1
	rc=$?
	nvt_out_attach
	check "the /out share is back after the freeze" touch $NVT_OUT/.fw-quiesce
	rec "activate-firmware (quiesce): rc" $rc
	check "ndctl activate-firmware $BUS (quiesce) ($(tr '\n' ' ' < /tmp/fw.out | cut -c1-120))" [ $rc = 0 ]
	rec "freeze cycles of activate-firmware" $(($(nfreeze) - fr0))
	expect_eq "one freeze/thaw cycle" $(($(nfreeze) - fr0)) 1
	check "... and the tasks restarted" eval "dmesg | grep -q 'Restarting tasks .* done'"
	wait_idle
	rec "D1 result after quiesce" "$(dimm_attr $D1 result)"
	[ "$NVT_SET" != upstream ] &&
		expect_eq "$D1: firmware/result success after quiesce" "$(dimm_attr $D1 result)" success
	expect_eq "all idle after the quiesced activation" "$(states)" "idle idle idle idle"

	# sysfs: quiesce, and at once (the bus still busy) quiesce again:
	# EBUSY before any freeze; then D1 armed without a new image
	expect_eq "sysfs: arm $D1 again" "$(wsys /sys/bus/nd/devices/$D1/firmware/activate arm)" 0
	fr0=$(nfreeze)
	nvt_out_detach
	r1=0 r2=0
	echo quiesce > $BUSDIR/firmware/activate 2> /tmp/fw.err1 || r1=$(sed 's/.*: //' /tmp/fw.err1)
	echo quiesce > $BUSDIR/firmware/activate 2> /tmp/fw.err2 || r2=$(sed 's/.*: //' /tmp/fw.err2)
	s=$(bus_attr activate)
	nvt_out_attach
	rec "sysfs quiesce; quiesce at once; state" "$r1; $r2; $s"
	expect_eq "sysfs quiesce, then quiesce while busy: 0, EBUSY" "$r1; $r2; $s" \
		"0; Device or resource busy; busy"
	rec "freeze cycles of the two writes" $(($(nfreeze) - fr0))
	expect_eq "only the first write froze" $(($(nfreeze) - fr0)) 1
	wait_idle
	rec "D1 result after quiesce without an image" "$(dimm_attr $D1 result)"
	expect_eq "$D1: not_staged after the quiesce" "$(dimm_attr $D1 result)" not_staged

	# tasks reading the firmware attributes meanwhile: 6.1 holds no lock
	# of its own across the freeze, so they freeze like any other task
	# (a task asleep on a lock the freezing task holds cannot freeze:
	# the freeze would fail after pm_freeze_timeout, 2 s here)
	expect_eq "sysfs: arm $D1 for the readers' round" "$(wsys /sys/bus/nd/devices/$D1/firmware/activate arm)" 0
	tmo=$(cat /sys/power/pm_freeze_timeout)
	echo 2000 > /sys/power/pm_freeze_timeout
	pids=
	for i in 1 2 3; do
		# the shell's read: no fork, most of the time in sysfs reads
		(while :; do read x < $BUSDIR/firmware/activate
			read x < /sys/bus/nd/devices/$D2/firmware/activate
			read x < /sys/bus/nd/devices/$D3/firmware/result; done 2> /dev/null) &
		pids="$pids $!"
	done
	usleep 200000
	fr0=$(nfreeze)
	nvt_out_detach
	r=0
	echo quiesce > $BUSDIR/firmware/activate 2> /tmp/fw.err || r=$(sed 's/.*: //' /tmp/fw.err)
	kill $pids
	wait $pids 2> /dev/null
	nvt_out_attach
	echo $tmo > /sys/power/pm_freeze_timeout
	rec "quiesce with readers of the firmware attributes" "$r"
	expect_eq "quiesce while 3 tasks read the firmware attributes" "$r" 0
	expect_eq "... one freeze cycle, no task refused to freeze" \
		"$(($(nfreeze) - fr0)) $(dmesg | grep -c 'Freezing .* failed')" "1 0"
	wait_idle
	expect_eq "$D1: not_staged after the readers' round" "$(dimm_attr $D1 result)" not_staged
else
	nok "could not detach the /out share"
fi

# --- bad images through Debian's ndctl ---------------------------------------------
: > /tmp/fw.empty
ndctl update-firmware --no-arm -f /tmp/fw.empty $D1 > /tmp/fw.out 2>&1
rc=$?
rec "update-firmware empty image: fails" "$([ $rc != 0 ] && echo yes || echo no)"
check "update-firmware with an empty image fails" [ $rc != 0 ]
dd if=/dev/zero of=/tmp/fw.big bs=1M count=2 2> /dev/null
ndctl update-firmware --no-arm -f /tmp/fw.big $D1 > /tmp/fw.out 2>&1
rc=$?
rm -f /tmp/fw.big
rec "update-firmware 2 MiB image: fails" "$([ $rc != 0 ] && echo yes || echo no)"
check "update-firmware with an image over the storage fails" [ $rc != 0 ]
expect_eq "states unchanged by the bad images" "$(states)" "idle idle idle idle"
flush_out

[ "$NVT_SET" = upstream ] && exit 0

# --- ours: the raw DSMs (nvt-fw) -------------------------------------------------
dev=/dev/$D1
fw() { nvt-fw $dev "$@"; }
st() { fw "$@" | sed -n 's/.* status=\([^ ]*\).*/\1/p'; }
info0=$(fw info)
diag "$D1: $info0"
check "info answers (status 0, storage 256 KiB)" eval 'echo "$info0" | grep -q "^rc=0 err=0 status=0x0 storage=262144 "'

expect_eq "finish before start: context invalid" "$(st finish 12345)" 0x10007
expect_eq "query before start: context invalid" "$(st query 12345)" 0x10007
ctx=$(fw start | sed -n 's/.*context=//p')
check "start gives a context ($ctx)" [ -n "$ctx" ]
expect_eq "start while receiving: busy" "$(st start)" 0x10007
expect_eq "query while receiving: out of sequence" "$(st query $ctx)" 0x40007
expect_eq "send with another context" "$(st send $((ctx + 1)) 0 64)" 0x10007
expect_eq "send of length 0" "$(st send $ctx 0 0)" 0x3
expect_eq "send over max_send_len" "$(st send $ctx 0 16385)" 0x3
expect_eq "send past the store" "$(st send $ctx 262100 64)" 0x3
expect_eq "send whose offset + length wraps 32 bits" "$(st send $ctx 4294967295 64)" 0x3
expect_eq "send claiming more than it carries" "$(st send $ctx 0 128 64)" 0x3
expect_eq "payload too small: EINVAL" "$(fw short 13 | cut -d' ' -f1,2)" "rc=-22 err=EINVAL"
expect_eq "send [0, 32)" "$(st send $ctx 0 32)" 0x0
expect_eq "finish with 32 bytes (short of 64): bad image" "$(st finish $ctx)" 0x30007
expect_eq "send after finish" "$(st send $ctx 32 32)" 0x10007
ctx=$(fw start | sed -n 's/.*context=//p')
expect_eq "send [4096, +64) (a hole before it)" "$(st send $ctx 4096 64)" 0x0
expect_eq "finish with a hole: bad image" "$(st finish $ctx)" 0x30007
ctx=$(fw start | sed -n 's/.*context=//p')
expect_eq "send [0, 4096)" "$(st send $ctx 0 4096)" 0x0
expect_eq "abort" "$(st finish $ctx abort)" 0x40007
expect_eq "query after abort: out of sequence" "$(st query $ctx)" 0x40007
info1=$(fw info)
expect_eq "bad sequences changed nothing (info)" "$info1" "$info0"
ctx=$(fw start | sed -n 's/.*context=//p')
expect_eq "send [0, 8192)" "$(st send $ctx 0 8192)" 0x0
expect_eq "finish" "$(st finish $ctx)" 0x0
expect_eq "finish again: done" "$(st finish $ctx)" 0x20007
i=0
while [ "$(st query $ctx)" = 0x20007 ] && [ $i -lt 50 ]; do usleep 20000; i=$((i + 1)); done
q=$(fw query $ctx)
expect_eq "query: staged" "$(echo "$q" | sed -n 's/.* status=\([^ ]*\).*/\1/p')" 0x0
rev=$(echo "$q" | sed -n 's/.*rev=//p')
i=$(fw info)
expect_eq "info: next = the queried revision" "$(echo "$i" | sed -n "s/.*next=//p")" "$rev"
# what 6.1 keeps from userspace: the activation functions
out=$(nd-label-ioctl call $dev 0 29 0 16)
expect_eq "userspace ND_CMD_CALL of function 29" "$(echo "$out" | cut -d' ' -f2)" err=EOPNOTSUPP
b=/dev/ndctl${BUSDIR##*ndbus}
out=$(nd-label-ioctl call $b 1 1 0 40)
expect_eq "userspace bus call of the Intel family" "$(echo "$out" | cut -d' ' -f2)" err=EOPNOTSUPP

# --- ours: the live capability -------------------------------------------------------
if reload fw_update=1 fw_live=1; then
	set -- $(fw_dimms)
	D1=$1 D2=$2 D3=$3
	BUSDIR=$(readlink -f /sys/bus/nd/devices/$D1/..)
	expect_eq "fw_live=1: capability" "$(bus_attr capability)" live
	ndctl list -BF -b $(cat $BUSDIR/provider) > /tmp/fw.bus 2>&1
	expect_eq "ndctl list -BF: activate_method live" "$(jget activate_method /tmp/fw.bus)" live
	ndctl wait-scrub $(cat $BUSDIR/provider) > /dev/null 2>&1
	check "update-firmware (armed by default)" ndctl update-firmware -f /tmp/fw.img $D1
	check "activate-firmware (live by capability)" ndctl activate-firmware $(cat $BUSDIR/provider)
	wait_idle
	expect_eq "$D1: success" "$(dimm_attr $D1 result)" success
else
	nok "reload fw_update=1 fw_live=1: $(cat /tmp/fw.unload)"
fi

# leave nfit_test as the boot had it
reload && ok "nfit_test reloaded without fw_update" || nok "reload: $(cat /tmp/fw.unload)"
expect_eq "without fw_update: no firmware attributes (the groups are empty, as 6.1's)" \
	"$(ls /sys/class/nd/ndctl*/device/firmware/ /sys/bus/nd/devices/nmem*/firmware/ 2> /dev/null | grep -v -e '^/' -e '^$')" ""

# --- ours: our ndctl (/opt/ours/bin/ndctl) against Debian's, same mock -------------
# The same sequence by each client on a freshly loaded nfit_test
# fw_update=1: list -BF / -DF (the "firmware" objects, whitespace
# dropped), bad images (empty, over the storage, missing) with the states
# unchanged, update (armed by default), --disarm, --arm, activate-firmware
# --force (live), --dry-run, --no-arm on two DIMMs in one command,
# activation with nothing armed, --no-idle (restored after), an
# activation without --force (quiesce: /out detached), a DIMM that
# does not exist, neither image nor --arm.  Exit statuses must be equal.
OURS=/opt/ours/bin/ndctl
# fwobj CLIENT ARGS...: the "firmware" objects of a list, one line each
fwobj() {
	"$@" 2> /dev/null | tr -d ' \t\n' | grep -o '"firmware":{[^}]*}' | tr '\n' ' '
}
# sequence CLIENT OUTFILE
fw_sequence() {
	local C=$1 f=$2 rc
	: > $f
	r() { echo "$1 = $2" >> $f; }
	rcof() { rc=$?; echo "exit $rc"; echo "$C $1: exit $rc" >> /tmp/fw.codes; }
	set -- $(fw_dimms)
	D1=$1 D2=$2 D3=$3
	BUSDIR=$(readlink -f /sys/bus/nd/devices/$D1/..)
	BUS=$(cat $BUSDIR/provider)
	$C wait-scrub $BUS > /dev/null 2>&1
	r "list -BF" "$(fwobj $C list -BF -b $BUS)"
	r "list -DF D1" "$(fwobj $C list -DF -d $D1)"
	# sorted: the DIMM order of our list is not 76.1's (not this test's)
	r "list -DF all" "$(fwobj $C list -DF -b $BUS | tr ' ' '\n' | sort | tr '\n' ' ')"
	$C update-firmware --no-arm -f /tmp/fw.empty $D1 > /tmp/fw.o 2>&1
	r "empty image" "$(rcof empty)"
	dd if=/dev/zero of=/tmp/fw.big bs=1M count=2 2> /dev/null
	$C update-firmware --no-arm -f /tmp/fw.big $D1 > /tmp/fw.o 2>&1
	r "2 MiB image" "$(rcof big)"
	rm -f /tmp/fw.big
	$C update-firmware --no-arm -f /tmp/fw.missing $D1 > /tmp/fw.o 2>&1
	r "missing image" "$(rcof missing)"
	r "states after bad images" "$(states)"
	r "D1 after bad images" "$(fwobj $C list -DF -d $D1)"
	$C update-firmware -f /tmp/fw.img $D1 > /tmp/fw.o 2>&1
	r "update D1" "$(rcof update)"
	r "states after update" "$(states)"
	r "D1 after update" "$(fwobj $C list -DF -d $D1)"
	r "bus after update" "$(fwobj $C list -BF -b $BUS)"
	$C update-firmware --disarm $D1 > /tmp/fw.o 2>&1
	r "disarm" "$(rcof disarm)"
	r "states after disarm" "$(states)"
	$C update-firmware --arm $D1 > /tmp/fw.o 2>&1
	r "arm" "$(rcof arm)"
	r "states after arm" "$(states)"
	$C activate-firmware --dry-run --force $BUS > /tmp/fw.o 2>&1
	r "activate --dry-run" "$(rcof dry-run)"
	r "states after dry-run" "$(states)"
	$C activate-firmware --force $BUS > /tmp/fw.o 2>&1
	r "activate --force" "$(rcof activate)"
	wait_idle
	r "D1 result" "$(dimm_attr $D1 result)"
	r "states after activation" "$(states)"
	r "D1 after activation" "$(fwobj $C list -DF -d $D1)"
	$C update-firmware --no-arm -f /tmp/fw.img $D2 $D3 > /tmp/fw.o 2>&1
	r "update --no-arm D2 D3" "$(rcof no-arm)"
	r "states after --no-arm" "$(states)"
	r "D2 after --no-arm" "$(fwobj $C list -DF -d $D2)"
	$C activate-firmware --force $BUS > /tmp/fw.o 2>&1
	r "activate with nothing armed" "$(rcof nothing-armed)"
	r "states after activate with nothing armed" "$(states)"
	$C update-firmware --arm $D2 > /tmp/fw.o 2>&1
	$C activate-firmware --force --no-idle $BUS > /tmp/fw.o 2>&1
	r "activate --no-idle" "$(rcof no-idle)"
	wait_idle
	r "results after --no-idle" "$(dimm_attr $D1 result) $(dimm_attr $D2 result) $(dimm_attr $D3 result)"
	r "noidle restored" "$(cat $BUSDIR/nfit/firmware_activate_noidle 2>&1)"
	$C update-firmware --arm $D3 > /tmp/fw.o 2>&1
	nvt_out_detach
	$C activate-firmware $BUS > /tmp/fw.o 2>&1
	r "activate (quiesce)" "$(rcof quiesce)"
	nvt_out_attach
	wait_idle
	r "results after quiesce" "$(dimm_attr $D1 result) $(dimm_attr $D2 result) $(dimm_attr $D3 result)"
	$C update-firmware -f /tmp/fw.img nmem999 > /tmp/fw.o 2>&1
	r "no such DIMM" "$(rcof nosuch)"
	$C update-firmware $D1 > /tmp/fw.o 2>&1
	r "neither image nor arm" "$(rcof usage)"
	r "final states" "$(states)"
}
if [ -x $OURS ]; then
	: > /tmp/fw.empty
	: > /tmp/fw.codes
	for who in debian ours; do
		C=ndctl
		[ $who = ours ] && C=$OURS
		if reload fw_update=1; then
			fw_sequence $C /tmp/fw.seq.$who
		else
			nok "reload fw_update=1 for $who: $(cat /tmp/fw.unload)"
		fi
	done
	while IFS= read -r line; do diag "$line"; done < /tmp/fw.codes
	[ -d "$NVT_OUT" ] && cp /tmp/fw.seq.debian /tmp/fw.seq.ours "$NVT_OUT/" 2> /dev/null
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		key=${line%% = *}
		want=${line#* = }
		got=$(sed -n "${n}p" /tmp/fw.seq.ours)
		expect_eq "our ndctl = Debian's: $key" "${got#* = }" "$want"
		[ "${got%% = *}" = "$key" ] || nok "our sequence out of step at line $n: '$got'"
	done < /tmp/fw.seq.debian
	expect_eq "our ndctl: as many records as Debian's" "$(wc -l < /tmp/fw.seq.ours)" \
		"$(wc -l < /tmp/fw.seq.debian)"
	check "the sequence staged and activated (Debian's)" grep -q "^D1 result = success" /tmp/fw.seq.debian

	# ours only: a sequence error from the firmware, --verify, overflow
	# (still loaded with fw_update=1, all DIMMs idle)
	set -- $(fw_dimms)
	ctx=$(nvt-fw /dev/$1 start | sed -n 's/.*context=//p')
	$OURS update-firmware --no-arm -f /tmp/fw.img $1 > /tmp/fw.o 2>&1
	rc=$?
	expect_eq "ours: update while another update is open: exit 1" "$rc" 1
	check "ours: ... says so ($(head -n 1 /tmp/fw.o))" grep -q "start: an update is already in progress" /tmp/fw.o
	nvt-fw /dev/$1 finish $ctx abort > /dev/null
	info0=$(nvt-fw /dev/$1 info)
	$OURS update-firmware --no-arm --verify -f /tmp/fw.img $1 > /tmp/fw.o 2>&1
	expect_eq "ours: update --verify: exit 0 ($(tail -n 1 /tmp/fw.o))" "$?" 0
	check "ours: the staged version is in its JSON" grep -q "\"next_version\":" /tmp/fw.o
	dd if=/dev/zero of=/tmp/fw.small bs=32 count=1 2> /dev/null
	$OURS update-firmware --no-arm -f /tmp/fw.small $2 > /tmp/fw.o 2>&1
	expect_eq "ours: a 32-byte image the DIMM rejects: exit 1" "$?" 1
	check "ours: ... as a bad image at finish ($(head -n 1 /tmp/fw.o))" grep -q "finish: image failed verification" /tmp/fw.o
	rm -f /tmp/fw.small
	# four armed DIMMs overflow the mock's maximum: the fourth is undone
	if [ $# -ge 4 ]; then
		$OURS update-firmware --arm -b $(cat $BUSDIR/provider) all > /tmp/fw.o 2>&1
		expect_eq "ours: arm all: exit 1 (overflow)" "$?" 1
		check "ours: ... arm aborted, tripped overflow" grep -q "arm aborted, tripped overflow" /tmp/fw.o
		expect_eq "ours: the bus is not left in overflow" "$(bus_attr activate)" armed
		$OURS update-firmware --arm --force $4 > /tmp/fw.o 2>&1
		expect_eq "ours: arm --force keeps the overflowing arm" "$?:$(bus_attr activate)" 0:overflow
		$OURS update-firmware --disarm all > /tmp/fw.o 2>&1
		expect_eq "ours: disarm all" "$?:$(bus_attr activate)" 0:idle
	fi
	reload && ok "nfit_test reloaded without fw_update" || nok "reload: $(cat /tmp/fw.unload)"
else
	skip "our ndctl against Debian's" "no $OURS"
fi
