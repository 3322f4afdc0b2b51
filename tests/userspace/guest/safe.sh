# safe: no ndctl command pulls a namespace's block device out from under
# an exclusive holder (a mounted filesystem holds it the same way).  While
# nvt-hold keeps /dev/pmemX open with O_EXCL, disable-namespace,
# disable-region, destroy-namespace -f and create-namespace -e -f of our
# ndctl and of Debian's 76.1 (the oracle) must each fail, and the namespace
# stays enabled with its first 64 KiB unchanged; once released, ours works.
# usage: sh safe.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

settle
ldimm=$(label_dimm)
lregion=$(region_of_dimm "$ldimm" 2>/dev/null)
region= ; ns= ; bdev=
# prefer a region without label commands: -e there cannot autolabel
for R in $(ls -d /sys/bus/nd/devices/region* | grep -v "/$lregion\$") \
		/sys/bus/nd/devices/$lregion; do
	for N in $R/namespace*; do
		[ -d $N/block ] || continue
		region=$(basename $R); ns=$(basename $N); bdev=$(ls $N/block | head -n 1)
		break 2
	done
done
[ -n "$bdev" ] || { skip "in-use checks" "no enabled namespace with a block device"; exit 0; }
NS=/sys/bus/nd/devices/$ns
diag "namespace $ns ($bdev) in $region"

dd if=/dev/urandom of=/tmp/pat bs=4096 count=16 2>/dev/null
dd if=/tmp/pat of=/dev/$bdev bs=4096 count=16 conv=fsync 2>/dev/null
want=$(md5sum < /tmp/pat)
sum64k() { dd if=/dev/$bdev bs=4096 count=16 2>/dev/null | md5sum; }
[ "$(sum64k)" = "$want" ] && ok "pattern written to /dev/$bdev" || nok "pattern not written"

rm -f /tmp/held
nvt-hold /dev/$bdev /tmp/held &
holder=$!
i=0
while [ ! -e /tmp/held ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -e /tmp/held ] && ok "/dev/$bdev held with O_EXCL (pid $holder)" \
	|| { nok "nvt-hold did not hold /dev/$bdev"; kill $holder; exit 1; }

refused() {	# refused NDCTL ARGS...: must fail and change nothing
	local who=ours
	[ "$1" = "$THEIRS" ] && who="Debian ndctl"
	"$@" > /tmp/s.out 2> /tmp/s.err
	local rc=$?
	settle
	# 76.1 refuses disable-region but exits 0 ("disabled 0 regions")
	if { [ $rc -ne 0 ] || [ "$who" != ours ]; } && [ -e $NS/driver ] && [ -b /dev/$bdev ] && [ "$(sum64k)" = "$want" ]; then
		ok "$who ${2}: refused (exit $rc), $ns enabled, data intact"
		diag "  $(head -n 3 /tmp/s.err | tr '\n' '|')"
	else
		nok "$who $2 ${3:-} ${4:-}: exit $rc, driver $([ -e $NS/driver ] && echo bound || echo unbound), sum $(sum64k)"
		sed 's/^/#   /' /tmp/s.err /tmp/s.out | head -n 10
		# put it back for the next check
		"$OURS" enable-region $region > /dev/null 2>&1
		"$OURS" enable-namespace $ns > /dev/null 2>&1
		settle
	fi
}
for nd in "$THEIRS" "$OURS"; do
	refused "$nd" disable-namespace $ns
	refused "$nd" disable-region $region
	refused "$nd" destroy-namespace -f $ns
	refused "$nd" create-namespace -e $ns -f -m raw
done

kill $holder; wait $holder 2>/dev/null
rm -f /tmp/held
ok "released /dev/$bdev"

# released: the same commands of ours do their work
"$OURS" disable-namespace $ns > /tmp/s.out 2>&1 && [ ! -e $NS/driver ] \
	&& ok "ours: disable-namespace $ns works once released" \
	|| { nok "ours: disable-namespace $ns after release"; sed 's/^/#   /' /tmp/s.out; }
"$OURS" enable-namespace $ns > /dev/null 2>&1; settle
[ "$(sum64k)" = "$want" ] && ok "re-enabled, data intact" || nok "data changed by disable/enable"
"$OURS" disable-region $region > /tmp/s.out 2>&1 && [ ! -e /sys/bus/nd/devices/$region/driver ] \
	&& ok "ours: disable-region $region works once released" \
	|| { nok "ours: disable-region $region after release"; sed 's/^/#   /' /tmp/s.out; }
"$OURS" enable-region $region > /dev/null 2>&1; settle
"$OURS" create-namespace -e $ns -f -m raw > /tmp/s.out 2>&1 && [ -e $NS/driver ] \
	&& ok "ours: create-namespace -e $ns -f works once released" \
	|| { nok "ours: create-namespace -e $ns after release"; sed 's/^/#   /' /tmp/s.out; }
"$OURS" destroy-namespace -f $ns > /tmp/s.out 2>&1 \
	&& ok "ours: destroy-namespace -f $ns works once released" \
	|| { nok "ours: destroy-namespace -f $ns after release"; sed 's/^/#   /' /tmp/s.out; }
"$OURS" enable-namespace $ns > /dev/null 2>&1; settle
[ -e $NS/driver ] && ok "$ns enabled again at the end" || nok "$ns left disabled"
