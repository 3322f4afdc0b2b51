# prov-consumers: every stock module that needs libnvdimm and that we do
# not ship, loaded against ours for real (issue 27, "no stock consumer left
# behind").  The image of set ours/test stages them outside the module
# tree, in /lib/stock-consumers/ (modprobe never finds them there), with
#   deps       "name: dep dep ..." (the stock modules.dep line, basenames,
#              in modules.dep's order: loaded right to left)
#   layout     names of the stock drivers/nvdimm/ and drivers/acpi/nfit/
#              modules among them (they read libnvdimm's private
#              structures: loading is not enough, only our build is safe)
#   predicted  the host's verdicts (tests/host/stock-consumers.py's
#              build/stock-consumers.txt: "name<TAB>verdict<TAB>loads|
#              fails|-<TAB>why", the third field its load prediction)
# Each is insmod'ed after its dependencies (ours through modprobe, stock
# ones from the same directory); the kernel's verdict comes from insmod's
# status and its log ("disagrees about version of symbol", "Unknown
# symbol").  An init that fails for want of hardware (-ENODEV: the EDAC
# drivers on QEMU) has linked: it loads.  Passes when every one loads,
# except the layout ones (never: only our build of them is safe; cxl_pmem
# is ours since issue 31, no exception); and the host's prediction must
# match what the kernel did.
. "$(dirname "$0")/lib.sh"

D=/lib/stock-consumers
if [ ! -f $D/deps ]; then
	skip "stock consumers" "no $D/deps in this image (set $NVT_SET)"
	exit 0
fi
if [ ! -s $D/deps ]; then
	ok "every stock module that needs libnvdimm is shipped by us (none staged)"
	exit 0
fi
modprobe libnvdimm 2>/dev/null
diag "libnvdimm $(cat /sys/module/libnvdimm/version 2>/dev/null || echo '(no version: stock)')"

loaded_here=
# load_one NAME: 0 if it is (now) loaded; the kernel's words in /tmp/cons.why
load_one() {
	local m=$1 rc
	[ -d /sys/module/$m ] && return 0
	if [ -f $D/$m.ko ]; then
		dmesg -c > /dev/null
		insmod $D/$m.ko > /tmp/cons.out 2>&1
		rc=$?
		dmesg | grep -E "^\[[ 0-9.]*\] $m: |disagrees|Unknown symbol" > /tmp/cons.why
		if [ $rc = 0 ]; then
			loaded_here="$m $loaded_here"
			return 0
		fi
		# linked, then its init found no device: symbols resolved
		if grep -q "No such device" /tmp/cons.out &&
			! grep -qE "disagrees|Unknown symbol" /tmp/cons.why; then
			echo "init: no such device (linked)" >> /tmp/cons.why
			return 0
		fi
		cat /tmp/cons.out >> /tmp/cons.why
		return 1
	fi
	modprobe $m > /tmp/cons.why 2>&1
}

while IFS=: read -r name deps; do
	[ -n "$name" ] || continue
	why=
	rev=
	for d in $deps; do rev="$d $rev"; done
	for d in $rev; do
		if ! load_one $d; then
			why="needs $d, which did not load: $(head -n 3 /tmp/cons.why | tr '\n' ' ')"
			break
		fi
	done
	if [ -z "$why" ] && load_one $name; then
		verdict=loads
		why=$(head -n 3 /tmp/cons.why | tr '\n' ' ')
	else
		verdict=missing
		[ -n "$why" ] || why=$(head -n 3 /tmp/cons.why | tr '\n' ' ')
	fi
	pred=$(awk -F'\t' -v m=$name '$1 == m { print $3 }' $D/predicted 2>/dev/null)
	echo "$name	$verdict	$why" >> $NVT_OUT/stock-consumers-guest.txt
	if grep -qx "$name" $D/layout 2>/dev/null; then
		nok "$name (stock, uses libnvdimm's private structures) is not shipped by us; the kernel: $verdict ${why:+($why)}"
	elif [ $verdict = loads ]; then
		ok "$name (stock) loads against ours ${why:+($why)}"
	else
		nok "$name (stock) does not load against ours: $why"
	fi
	# the host's prediction against the kernel
	case $pred in
	loads) expect_eq "$name: host's load prediction = kernel's" "$verdict" loads ;;
	fails) expect_eq "$name: host's load prediction = kernel's" "$verdict" missing ;;
	*) diag "$name: no host prediction (${pred:-none}: run make host-check before the image)" ;;
	esac
done < $D/deps

# unload what this test loaded (stock modules out of the way of the next test)
for m in $loaded_here; do
	rmmod $m 2>/dev/null
done
true
