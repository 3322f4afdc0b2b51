# smart-qemu: QEMU's NVDIMMs (label DSM functions only) and DIMM health.
# Records, per DIMM, what Debian's ndctl 76.1 shows (commands, list -H,
# inject-smart's exit status; security and frozen, the firmware/ group,
# list -DF, the exit statuses of freeze-security, remove-passphrase,
# update-firmware; per bus its firmware/ group, list -BF and
# activate-firmware's exit status) to /out/smart-qemu.txt, one line each; the
# host compares the record of the stock modules (oracle-1) with ours
# (ours-1): health must degrade as on stock (no health object, inject
# refused the same way).  Read-only for the DIMMs.
. "$(dirname "$0")/lib.sh"
OUTF=/tmp/smart-qemu.txt
: > $OUTF
n=0
dd if=/dev/urandom of=/tmp/sq.img bs=4096 count=4 2> /dev/null
for d in /sys/bus/nd/devices/nmem*; do
	[ -e "$d" ] || continue
	D=$(basename $d)
	n=$((n + 1))
	echo "$D commands = $(cat $d/commands)" >> $OUTF
	echo "$D family = $(cat $d/nfit/family 2> /dev/null || echo none)" >> $OUTF
	echo "$D list -H = $(ndctl list -H -d $D 2>&1 | tr -d ' \t\n' | sed 's/"id":"[^"]*",//')" >> $OUTF
	ndctl inject-smart -m 40 $D > /tmp/sq.out 2>&1
	echo "$D inject-smart rc = $?" >> $OUTF
	# security and firmware (issue 29): QEMU answers none of their
	# functions; what 76.1 sees, and its refusals (nothing is changed:
	# each fails before it could write)
	echo "$D security = $(cat $d/security 2>&1 | sed 's/^.*: //')" >> $OUTF
	echo "$D frozen = $(cat $d/frozen 2>&1 | sed 's/^.*: //')" >> $OUTF
	echo "$D firmware/ = $(ls $d/firmware 2>&1 | tr '\n' ' ')" >> $OUTF
	echo "$D list -DF = $(ndctl list -DF -d $D 2>&1 | tr -d ' \t\n' | sed 's/"id":"[^"]*",//')" >> $OUTF
	ndctl freeze-security $D > /tmp/sq.out 2>&1
	echo "$D freeze-security rc = $?" >> $OUTF
	ndctl remove-passphrase $D > /tmp/sq.out 2>&1
	echo "$D remove-passphrase rc = $?" >> $OUTF
	ndctl update-firmware --no-arm -f /tmp/sq.img $D > /tmp/sq.out 2>&1
	echo "$D update-firmware rc = $?" >> $OUTF
	ndctl update-firmware --arm $D > /tmp/sq.out 2>&1
	echo "$D update-firmware --arm rc = $?" >> $OUTF
	case $(ndctl list -H -d $D 2>&1) in
	*'"health"'*) nok "$D: list -H shows health on QEMU" ;;
	*) ok "$D: no health object (QEMU answers label functions only)" ;;
	esac
done
[ $n -gt 0 ] || nok "no DIMM"
for b in /sys/class/nd/ndctl*/device; do
	B=$(cat $b/provider)
	echo "$B firmware/ = $(ls $b/firmware 2>&1 | tr '\n' ' ')" >> $OUTF
	echo "$B list -BF = $(ndctl list -BF -b $B 2>&1 | tr -d ' \t\n')" >> $OUTF
	ndctl activate-firmware $B > /tmp/sq.out 2>&1
	echo "$B activate-firmware rc = $?" >> $OUTF
	check "$B: no firmware attributes (QEMU has no activation)" \
		test -z "$(ls $b/firmware 2> /dev/null)"
done
[ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/smart-qemu.txt"
exit 0
