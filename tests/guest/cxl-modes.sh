# cxl-modes: the namespace modes on the CXL region (issue 31), after
# cxl-write (its raw namespace nvt-cxl is there), one Debian ndctl 76.1
# session run the same way on the stock modules and on ours:
#
#   start     the area cxl-write left (its raw namespace)
#   sector    create-namespace -m sector -s 32M -n nvt-cxl-btt -u U2
#   tmp       create-namespace -m raw -s 16M -n nvt-cxl-tmp -u U5
#   fsdax     create-namespace -m fsdax -s 64M -n nvt-cxl-fsdax -u U3
#   tmp-gone  destroy-namespace -f (nvt-cxl-tmp: its label freed, the
#             DPA it held taken by the next one)
#   devdax    create-namespace -m devdax -s 32M -n nvt-cxl-dax -u U4
#
# After each step, into $NVT_OUT/cxl-modes/: STEP.out, STEP.list.json
# (`ndctl list -RNu -i`), STEP.area (the label area through the label
# ioctls), and a line "STEP rc=.." in cxl-modes.txt;
# compare-ns-interop.py compares them with the
# stock boot's, the label area byte for byte (the uuids ndctl draws at
# random for the BTT, pfn and dax devices are replaced by their device
# names first).  Then data: patterns on the BTT's disk, ext4 mounted -o
# dax on the fsdax namespace with a file written through MAP_SYNC, a
# device-dax range written through mmap; cxl-verify finds all of it after
# the power cycle.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cxl.inc"

OUTD=$NVT_OUT/cxl-modes
OUTF=$NVT_OUT/cxl-modes.txt
mkdir -p $OUTD
: > $OUTF

r=$(ls /sys/bus/nd/devices | grep '^region' | head -n 1)
dimm=$(ls /sys/bus/nd/devices | grep '^nmem' | head -n 1)
if [ -z "$r" ] || [ -z "$dimm" ]; then
	nok "a CXL region and DIMM from cxl-write (region '$r', DIMM '$dimm')"
	exit 0
fi
R=/sys/bus/nd/devices/$r

# the random uuids of BTT, pfn and dax devices -> "uuid-of-DEV"
unrandom() {
	local f d u
	for d in /sys/bus/nd/devices/btt* /sys/bus/nd/devices/pfn* /sys/bus/nd/devices/dax*; do
		u=$(cat $d/uuid 2>/dev/null)
		[ -n "$u" ] || continue
		for f in "$@"; do
			[ -f "$f" ] && sed -i "s/$u/uuid-of-${d##*/}/g" "$f"
		done
	done
}

# step NAME CMD...: the command (its output in NAME.out), then the dumps
# and the line of NAME; returns the command's exit code
step() {
	local name=$1 rc
	shift
	"$@" > $OUTD/$name.out 2>&1
	rc=$?
	nd_settle
	ndctl list -RNu -i > $OUTD/$name.list.json 2>/dev/null
	nd-label-ioctl read /dev/$dimm $OUTD/$name.area > /tmp/cm.area 2>&1 || {
		rm -f $OUTD/$name.area
		nok "$name: label area of $dimm unreadable: $(cat /tmp/cm.area)"
	}
	unrandom $OUTD/$name.out $OUTD/$name.list.json
	echo "$name rc=$rc available=$(cat $R/available_size) seed=$(cat $R/namespace_seed 2>/dev/null) slots=$(cat /sys/bus/nd/devices/$dimm/available_slots 2>/dev/null)" >> $OUTF
	return $rc
}

step start true
for m in "sector 32M $CXL_BTT_NAME $CXL_BTT_UUID" \
	 "raw 16M nvt-cxl-tmp $CXL_TMP_UUID" \
	 "fsdax 64M $CXL_FSDAX_NAME $CXL_FSDAX_UUID" \
	 "destroy" \
	 "devdax 32M $CXL_DAX_NAME $CXL_DAX_UUID"; do
	set -- $m
	if [ $1 = destroy ]; then
		n=$(cxl_ns nvt-cxl-tmp)
		step tmp-gone ndctl destroy-namespace -f ${n:-none}
		expect_eq "destroy-namespace -f $n (nvt-cxl-tmp)" "$(tail -n 1 $OUTD/tmp-gone.out)" \
			"destroyed 1 namespace"
		continue
	fi
	step=$1
	[ $3 = nvt-cxl-tmp ] && step=tmp
	if step $step ndctl create-namespace -r $r -m $1 -s $2 -n $3 -u $4; then
		ok "create-namespace -r $r -m $1 -s $2 -n $3"
	else
		nok "create-namespace -r $r -m $1 -s $2 -n $3: $(tail -n 3 $OUTD/$step.out | tr '\n' ' ')"
		dmesg | tail -n 15 | sed 's/^/#   /'
	fi
done
cxl_coldplug
expect_eq "modes of the namespaces (by name)" "$(cxl_modes)" \
	"$CXL_NS_NAME:raw $CXL_BTT_NAME:sector $CXL_FSDAX_NAME:fsdax $CXL_DAX_NAME:devdax"

# data, found again by cxl-verify after the power cycle
cxl_mode_data write
