# label-index: the kernel's reading of the label index on the DIMM with a
# label area (QEMU nmem1, 128 KiB), through Debian's ndctl and raw ioctls:
#
#   garbage     the pattern label-write left (no index)
#   blank       after `ndctl zero-labels`
#   init-v1.1   after `ndctl init-labels` (v1.1 is ndctl's default)
#   init-v1.2   after `ndctl init-labels -V 1.2`
#   corrupt0    index block 0 overwritten with garbage, DIMM rebound:
#               block 1 wins, nothing else changes
#   corrupt1    both blocks garbage, DIMM rebound: no valid index; the
#               area is read back unchanged (nothing overwritten)
#   reinit-v1.1 `ndctl init-labels -f` again
#   unbound     DIMM driver unbound (set_cookie falls back to v1.1)
#
# Each scenario's observable state (nmemN flags / available_slots, the
# region's nstype / set_cookie / namespaces) goes to $NVT_OUT/label-index.txt;
# the host compares our file with the stock modules' (compare-label-index.py).
# The checks here are the expectations on each set; where the stock 6.1
# modules behave differently on purpose they are recorded, not asserted
# (see the "stock" cases below).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"

OUTF=$NVT_OUT/label-index.txt
: > $OUTF

set -- $(label_dimm) || true
if [ -z "$1" ]; then
	nok "no DIMM with a label area (GET_CONFIG_SIZE)"
	exit 0
fi
dimm=$1
D=/sys/bus/nd/devices/$dimm

# the region whose first mapping is this DIMM, and one that is not
region=
other=
for r in /sys/bus/nd/devices/region*; do
	case $(cat $r/mapping0 2>/dev/null) in
	$dimm,*) region=${r##*/} ;;
	*) other=${r##*/} ;;
	esac
done
if [ -z "$region" ]; then
	nok "no region maps $dimm"
	exit 0
fi
R=/sys/bus/nd/devices/$region
rid=${region#region}
diag "$dimm in $region; label-less DIMM's region: ${other:-none}"

# attribute value, or "err" when reading it fails
attr() {
	local v
	v=$(cat "$1" 2>/dev/null) || { echo err; return; }
	echo "$v" | tr ' ' '_'
}

namespaces() {
	local n out=
	for n in /sys/bus/nd/devices/namespace$rid.*; do
		[ -e "$n" ] || continue
		out="$out${n##*/}:$(cat $n/devtype):$(cat $n/size),"
	done
	echo "${out:-none}"
}

# record SCENARIO: the state after it, to the shared file
record() {
	nd_settle
	{
		echo "$1 dimm.flags $(attr $D/flags)"
		echo "$1 dimm.available_slots $(attr $D/available_slots)"
		echo "$1 region.nstype $(attr $R/nstype)"
		echo "$1 region.set_cookie $(attr $R/set_cookie)"
		echo "$1 region.namespaces $(namespaces)"
		[ -n "$other" ] &&
			echo "$1 other.set_cookie $(attr /sys/bus/nd/devices/$other/set_cookie)"
	} >> $OUTF
}

# value SCENARIO KEY: what record wrote
value() {
	sed -n "s/^$1 $2 //p" $OUTF
}

disable() {
	ndctl disable-region all > /tmp/li.out 2>&1 ||
		nok "$1: ndctl disable-region all: $(cat /tmp/li.out)"
}

enable() {
	ndctl enable-region all > /tmp/li.out 2>&1 ||
		nok "$1: ndctl enable-region all: $(cat /tmp/li.out)"
	nd_settle
}

rebind() {
	echo $dimm > /sys/bus/nd/drivers/nvdimm/unbind &&
		echo $dimm > /sys/bus/nd/drivers/nvdimm/bind
}

# expect SCENARIO KEY WANT
expect() {
	expect_eq "$1: $dimm/$region $2" "$(value $1 $2)" "$3"
}

# the three facts of a labelled DIMM: flags, slots, nstype
labelled() {
	expect $1 dimm.flags label_
	expect $1 dimm.available_slots $2
	expect $1 region.nstype 5
}

# the cookies the region must show, from the firmware's NFIT (label.inc),
# never read back from the kernel: v1.1 labels select V11, anything else V12
set -- $(nfit_cookies "$(cat $R/nfit/range_index 2>/dev/null)")
V11=$1 V12=$2
if [ -z "$V12" ]; then
	nok "no interleave-set cookies from /sys/firmware/acpi/tables/NFIT for $region (range_index '$(cat $R/nfit/range_index 2>&1)')"
	V11=none V12=none
elif [ "$V11" = "$V12" ]; then
	nok "the NFIT's v1.1 and v1.2 cookies of $region are the same ($V11): a cookie mix-up would pass"
else
	diag "$region cookies from the NFIT: v1.1 $V11, v1.2 $V12"
fi

# --- garbage (label-write's pattern, or whatever a fresh boot has) ------
record garbage
expect garbage dimm.flags ""
expect garbage region.nstype 4
expect garbage dimm.available_slots 509
expect garbage region.set_cookie "$V12"

# --- blank --------------------------------------------------------------
disable blank
check "blank: ndctl zero-labels $dimm" ndctl zero-labels $dimm
enable blank
record blank
expect blank dimm.flags ""
expect blank dimm.available_slots 509
expect blank region.nstype 4
expect blank region.set_cookie "$V12"

# --- v1.1 ---------------------------------------------------------------
disable init-v1.1
check "init-v1.1: ndctl init-labels -f $dimm" ndctl init-labels -f $dimm
enable init-v1.1
record init-v1.1
labelled init-v1.1 1019
expect init-v1.1 region.set_cookie "$V11"
check "init-v1.1: ndctl read-labels -j $dimm" \
	sh -c "ndctl read-labels -j $dimm > $NVT_OUT/read-labels-v11.json"
echo "init-v1.1 read-labels.md5 $(md5sum < $NVT_OUT/read-labels-v11.json | cut -c1-32)" >> $OUTF

# --- v1.2 ---------------------------------------------------------------
disable init-v1.2
check "init-v1.2: ndctl init-labels -f -V 1.2 $dimm" \
	ndctl init-labels -f -V 1.2 $dimm
enable init-v1.2
record init-v1.2
labelled init-v1.2 509
expect init-v1.2 region.set_cookie "$V12"
check "init-v1.2: ndctl read-labels -j $dimm" \
	sh -c "ndctl read-labels -j $dimm > $NVT_OUT/read-labels-v12.json"
echo "init-v1.2 read-labels.md5 $(md5sum < $NVT_OUT/read-labels-v12.json | cut -c1-32)" >> $OUTF
grep -q '"nslot":510' $NVT_OUT/read-labels-v12.json &&
	ok "init-v1.2: read-labels shows 510 slots" ||
	nok "init-v1.2: read-labels: $(head -c 300 $NVT_OUT/read-labels-v12.json)"

# --- index block 0 corrupt: block 1 (seq 2) takes over ------------------
disable corrupt0
expect_eq "corrupt0: garbage over index block 0 (SET_CONFIG_DATA)" \
	"$(nd-label-ioctl set /dev/$dimm 0 256)" "rc=0 err=0 status=0"
check "corrupt0: rebind $dimm" rebind
enable corrupt0
record corrupt0
labelled corrupt0 509
expect corrupt0 region.set_cookie "$V12"
check "corrupt0: ndctl read-labels -j $dimm" \
	sh -c "ndctl read-labels -j $dimm > $NVT_OUT/read-labels-corrupt0.json"
echo "corrupt0 read-labels.md5 $(md5sum < $NVT_OUT/read-labels-corrupt0.json | cut -c1-32)" >> $OUTF

# --- both blocks corrupt: no valid index, and nothing is written -----------
disable corrupt1
expect_eq "corrupt1: garbage over index block 1 (SET_CONFIG_DATA)" \
	"$(nd-label-ioctl set /dev/$dimm 256 256)" "rc=0 err=0 status=0"
check "corrupt1: read the area" nd-label-ioctl read /dev/$dimm /tmp/li.before
check "corrupt1: rebind $dimm" rebind
enable corrupt1
record corrupt1
if [ $NVT_SET = stock ]; then
	# 6.1 never clears NDD_LABELING once set: the region stays
	# label-backed (recorded for the host comparison, not asserted)
	diag "stock corrupt1: flags '$(value corrupt1 dimm.flags)' nstype $(value corrupt1 region.nstype)"
else
	expect corrupt1 dimm.flags ""
	expect corrupt1 region.nstype 4
	expect corrupt1 dimm.available_slots 509
	expect corrupt1 region.set_cookie "$V12"
	case $(value corrupt1 region.namespaces) in
	namespace$rid.0:nd_namespace_io:*) ok "corrupt1: io namespace back ($(value corrupt1 region.namespaces))" ;;
	*) nok "corrupt1: namespaces $(value corrupt1 region.namespaces), want the io namespace" ;;
	esac
	if wait_pmem $(platform_pmem) 10; then
		ok "corrupt1: $(pmem_count) pmem devices"
	else
		nok "corrupt1: $(pmem_count) pmem devices, want $(platform_pmem)"
	fi
fi
check "corrupt1: read the area again" nd-label-ioctl read /dev/$dimm /tmp/li.after
check "corrupt1: label area unchanged after bind and region enable" \
	label_cmp /tmp/li.before /tmp/li.after
dmesg | grep "$dimm" | grep -i "label" | tail -n 3 | sed 's/^/# dmesg: /'

# --- initialise again -----------------------------------------------------
disable reinit-v1.1
check "reinit-v1.1: ndctl init-labels -f $dimm" ndctl init-labels -f $dimm
enable reinit-v1.1
record reinit-v1.1
labelled reinit-v1.1 1019
expect reinit-v1.1 region.set_cookie "$V11"

# --- DIMM driver unbound ----------------------------------------------------
disable unbound
echo $dimm > /sys/bus/nd/drivers/nvdimm/unbind
record unbound
expect unbound dimm.available_slots err
expect unbound region.set_cookie "$V11"
echo $dimm > /sys/bus/nd/drivers/nvdimm/bind
enable unbound

diag "recorded $(wc -l < $OUTF) values in label-index.txt"
