# label-ns: PMEM namespaces assembled from labels (issue 5), across the
# stock/ours crossing on the DIMM with a label area (QEMU nmem1).
#
#   stock boot (A): init-labels (v1.1, or LN_VER), create-namespace -m raw of 64M
#       ("test-ns") and 32M ("test-ns2"), a pattern on each block device,
#       `ndctl list -RNu` -> $NVT_OUT/label-ns.json
#   ours boot (B, same backing files): the same namespaces come up from
#       the labels (uuid, size, name, mode raw), the patterns read back,
#       `ndctl list -RNu` -> $NVT_OUT/label-ns.json (compared on the host,
#       compare-label-ns.py); then the cookie of test-ns's label is
#       corrupted on the DIMM and DIMM + region rebound: test-ns is logged
#       and left unclaimed, test-ns2 still comes up with its data.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"

LN_VER=${LN_VER:-1.1}
OUTF=$NVT_OUT/label-ns.json
SEED1=5101
SEED2=5102

set -- $(label_dimm) || true
if [ -z "$1" ]; then
	nok "no DIMM with a label area (GET_CONFIG_SIZE)"
	exit 0
fi
dimm=$1
region=
for r in /sys/bus/nd/devices/region*; do
	case $(cat $r/mapping0 2>/dev/null) in
	$dimm,*) region=${r##*/} ;;
	esac
done
if [ -z "$region" ]; then
	nok "no region maps $dimm"
	exit 0
fi
rid=${region#region}
diag "$dimm in $region"

# ns_attr NAME ATTR: attribute of the namespace of $region whose alt_name is NAME
ns_dir() {
	local n
	for n in /sys/bus/nd/devices/namespace$rid.*; do
		[ "$(cat $n/alt_name 2>/dev/null)" = "$1" ] && { echo $n; return 0; }
	done
	return 1
}

ns_blockdev() {
	ls "$1/block" 2>/dev/null | head -n 1
}

rebind() {
	echo $dimm > /sys/bus/nd/drivers/nvdimm/unbind &&
		echo $dimm > /sys/bus/nd/drivers/nvdimm/bind
}

if [ "$NVT_SET" = stock ]; then
	ndctl disable-region all > /tmp/ln.out 2>&1 ||
		nok "ndctl disable-region all: $(cat /tmp/ln.out)"
	check "ndctl init-labels -f -V $LN_VER $dimm" ndctl init-labels -f -V $LN_VER $dimm
	check "ndctl enable-region all" ndctl enable-region all
	nd_settle
	check "create-namespace -r $region -m raw -s 64M -n test-ns" \
		sh -c "ndctl create-namespace -r $region -m raw -s 64M -n test-ns > /tmp/ln.1"
	check "create-namespace -r $region -m raw -s 32M -n test-ns2" \
		sh -c "ndctl create-namespace -r $region -m raw -s 32M -n test-ns2 > /tmp/ln.2"
	nd_settle
	for i in 1 2; do
		name=test-ns; [ $i = 2 ] && name=test-ns2
		n=$(ns_dir $name) || { nok "$name: no namespace with that alt_name"; continue; }
		b=$(ns_blockdev $n)
		if [ -n "$b" ] && nvt-pattern write /dev/$b 0 4M $((5100 + i)) > /tmp/ln.out 2>&1; then
			ok "$name (${n##*/}, $b): 4M pattern written"
		else
			nok "$name (${n##*/}): no block device or write failed: '$b' $(cat /tmp/ln.out)"
		fi
	done
	check "ndctl list -RNu" sh -c "ndctl list -RNu > $OUTF"
	ndctl read-labels -j $dimm 2>/dev/null | grep -q "\"minor\":${LN_VER#1.}" &&
		ok "labels are v$LN_VER" || nok "labels are not v$LN_VER"
	diag "$(tr -d '\n ' < $OUTF | head -c 600)"
	exit 0
fi

# --- ours: find what stock created ------------------------------------------
nd_settle
check "ndctl list -RNu" sh -c "ndctl list -RNu > $OUTF"
diag "$(tr -d '\n ' < $OUTF | head -c 600)"
expect_eq "$region: nstype" "$(cat /sys/bus/nd/devices/$region/nstype)" 5
uuid1=
for i in 1 2; do
	name=test-ns; size=67108864
	[ $i = 2 ] && { name=test-ns2; size=33554432; }
	n=$(ns_dir $name) || { nok "$name: not assembled from the labels"; continue; }
	got="$(cat $n/devtype) $(cat $n/nstype) $(cat $n/size) $(cat $n/mode) $(cat $n/dpa_extents)"
	expect_eq "$name (${n##*/}): devtype nstype size mode dpa_extents" "$got" \
		"nd_namespace_pmem 5 $size raw 1"
	u=$(cat $n/uuid)
	[ $i = 1 ] && uuid1=$u
	grep -q "\"uuid\":\"$u\"" $OUTF && grep -q "\"name\":\"$name\"" $OUTF &&
		ok "$name: ndctl list shows uuid $u and its name" ||
		nok "$name: ndctl list lacks uuid $u / name"
	b=$(ns_blockdev $n)
	if [ -n "$b" ] && nvt-pattern verify /dev/$b 0 4M $((5100 + i)) > /tmp/ln.out 2>&1; then
		ok "$name ($b): stock's pattern reads back"
	else
		nok "$name: no block device or pattern differs: '$b' $(cat /tmp/ln.out)"
	fi
done
seed=$(cat /sys/bus/nd/devices/$region/namespace_seed)
case $seed in
namespace$rid.*) ok "$region: namespace_seed $seed" ;;
*) nok "$region: namespace_seed '$seed'" ;;
esac
n=$(ns_dir test-ns)
if [ -n "$n" ]; then
	if sh -c "echo x > $n/alt_name" 2>/tmp/ln.err; then
		nok "alt_name write accepted without label updates"
	else
		ok "alt_name write refused: $(tail -n 1 /tmp/ln.err)"
	fi
	expect_eq "alt_name unchanged" "$(cat $n/alt_name)" test-ns
fi

# --- corrupt test-ns's label (isetcookie) on the DIMM -----------------------
if [ -z "$uuid1" ]; then
	nok "corrupt label: not run, test-ns was not assembled"
	exit 0
fi
ndctl disable-region $region > /tmp/ln.out 2>&1 ||
	nok "ndctl disable-region $region: $(cat /tmp/ln.out)"
check "read the label area" nd-label-ioctl read /dev/$dimm /tmp/ln.area
hex=$(echo $uuid1 | tr -d '-')
# every copy of the uuid (live and stale slots): overwrite its isetcookie
# (label offset 88) with a value no interleave set has
offs=$(od -An -v -tx1 /tmp/ln.area | tr -d ' \n' |
	awk -v h=$hex '{ s = $0; done = 0
		while ((i = index(s, h)) > 0) {
			p = done + i - 1
			if (p % 2 == 0) print p / 2
			s = substr(s, i + 1); done += i }
	}')
if [ -z "$offs" ]; then
	nok "uuid $uuid1 not found in the label area"
	exit 0
fi
for o in $offs; do
	printf '\001\002\003\004\005\006\007\010' |
		dd of=/tmp/ln.area bs=1 seek=$((o + 88)) conv=notrunc 2>/dev/null
done
diag "cookie byte patched at label offsets: $(echo $offs)"
check "write the label area back" nd-label-ioctl write /dev/$dimm /tmp/ln.area
check "rebind $dimm" rebind
dmesg -c > /dev/null
check "ndctl enable-region $region" ndctl enable-region $region
nd_settle
if ns_dir test-ns > /dev/null; then
	nok "test-ns assembled from a label with a bad cookie"
else
	ok "test-ns (bad cookie) left unclaimed"
fi
dmesg | grep -q "$uuid1" && ok "kernel log names $uuid1: $(dmesg | grep "$uuid1" | head -n 1 | sed 's/^\[[^]]*\] //')" ||
	nok "kernel log does not name $uuid1"
n=$(ns_dir test-ns2)
b=$(ns_blockdev "$n")
if [ -n "$n" ] && [ -n "$b" ] && nvt-pattern verify /dev/$b 0 4M 5102 > /tmp/ln.out 2>&1; then
	ok "test-ns2 (${n##*/}, $b) still comes up with its data"
else
	nok "test-ns2 after the corruption: '$n' '$b' $(cat /tmp/ln.out 2>/dev/null)"
fi
