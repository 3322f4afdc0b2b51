# smart-qemu: QEMU's NVDIMMs (label DSM functions only) and DIMM health.
# Records, per DIMM, what Debian's ndctl 76.1 shows (commands, list -H,
# inject-smart's exit status) to /out/smart-qemu.txt, one line each; the
# host compares the record of the stock modules (oracle-1) with ours
# (ours-1): health must degrade as on stock (no health object, inject
# refused the same way).  Read-only for the DIMMs.
. "$(dirname "$0")/lib.sh"
OUTF=/tmp/smart-qemu.txt
: > $OUTF
n=0
for d in /sys/bus/nd/devices/nmem*; do
	[ -e "$d" ] || continue
	D=$(basename $d)
	n=$((n + 1))
	echo "$D commands = $(cat $d/commands)" >> $OUTF
	echo "$D family = $(cat $d/nfit/family 2> /dev/null || echo none)" >> $OUTF
	echo "$D list -H = $(ndctl list -H -d $D 2>&1 | tr -d ' \t\n' | sed 's/"id":"[^"]*",//')" >> $OUTF
	ndctl inject-smart -m 40 $D > /tmp/sq.out 2>&1
	echo "$D inject-smart rc = $?" >> $OUTF
	case $(ndctl list -H -d $D 2>&1) in
	*'"health"'*) nok "$D: list -H shows health on QEMU" ;;
	*) ok "$D: no health object (QEMU answers label functions only)" ;;
	esac
done
[ $n -gt 0 ] || nok "no DIMM"
[ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/smart-qemu.txt"
exit 0
