# nt-coexist: the test build on QEMU's NVDIMMs, then nfit_test beside
# them.  The wrappers pass real addresses through (the QEMU buses came up
# through them), the mock buses appear next to the real one, and QEMU's
# pmem devices, labels and ndctl listing keep working with both loaded
# and after nfit_test is gone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

if [ "$NVT_SET" != test ] || [ "$NVT_PLATFORM" != qemu ]; then
	skip "nfit_test beside QEMU's NVDIMMs" "needs the test module set on the qemu platform"
	exit 0
fi
nd_settle
nt_debugfs
qdevs=$(ls /sys/bus/nd/devices | sort | tr '\n' ' ')
qpmem=$(cd /dev && ls pmem* | tr '\n' ' ')
nq=$(pmem_count)
grep -q '^nfit_test_iomap ' /proc/modules && ok "the test build is loaded (nfit_test_iomap: $(grep '^nfit_test_iomap ' /proc/modules | awk '{ print $4 }'))" ||
	nok "nfit_test_iomap not loaded: not the test build?"

# calls COUNTER: "mock real" of one wrapper
calls() {
	awk -v w=$1 '$1 == w { print $3, $5 }' $NT_IOMAP/calls
}
bad=
for w in devm_memremap __devm_request_region insert_resource; do
	set -- $(calls $w)
	[ "$1" = 0 ] && [ "$2" -ge $nq ] || bad="$bad $w: mock $1 real $2;"
done
[ -z "$bad" ] && ok "QEMU's ranges went through the wrappers to the real functions: $(tr '\n' ';' < $NT_IOMAP/calls)" ||
	nok "wrapper calls before nfit_test:$bad"
real0="$(calls devm_memremap | cut -d' ' -f2) $(calls __devm_request_region | cut -d' ' -f2) $(calls insert_resource | cut -d' ' -f2) $(calls devm_ioremap | cut -d' ' -f2)"

# a pattern on every QEMU pmem device, checked again at each step below;
# what was there is put back at the end (persist-* use these devices)
CO_OFF=64 CO_LEN=4	# MiB
qverify() {	# step
	local p fail= i=0
	for p in $qpmem; do
		i=$((i + 1))
		nvt-pattern verify /dev/$p ${CO_OFF}M ${CO_LEN}M $((600 + i)) > /tmp/co.out 2>&1 ||
			fail="$fail $p: $(cat /tmp/co.out);"
	done
	[ -z "$fail" ] && ok "QEMU pmem ($qpmem) data intact $1" || nok "QEMU pmem $1:$fail"
}
i=0
for p in $qpmem; do
	i=$((i + 1))
	dd if=/dev/$p of=/tmp/co-save.$p bs=1M skip=$CO_OFF count=$CO_LEN 2> /dev/null
	nvt-pattern write /dev/$p ${CO_OFF}M ${CO_LEN}M $((600 + i)) > /dev/null 2>&1
done
qverify "before nfit_test"
# the listing before nfit_test: it must succeed and show QEMU's bus (a
# failing ndctl would otherwise compare equal with itself below)
if ndctl list -BRN > /tmp/co-before.json 2> /tmp/co-before.err &&
	grep -q '"provider":"ACPI.NFIT"' /tmp/co-before.json; then
	ok "ndctl list -BRN before nfit_test: the ACPI.NFIT bus"
else
	nok "ndctl list -BRN before nfit_test: $(head -c 300 /tmp/co-before.json /tmp/co-before.err)"
fi
iomem_before=$(grep -c 'Persistent Memory' /proc/iomem)

if ! modprobe nfit_test > /tmp/co.out 2>&1; then
	nok "modprobe nfit_test: $(cat /tmp/co.out)"
	exit 0
fi
nd_settle
if wait_pmem $((nq + 1)) 30; then
	ok "nfit_test loaded beside QEMU's NVDIMMs: $(pmem_count) pmem devices"
else
	nok "expected $((nq + 1)) pmem devices with nfit_test, found $(pmem_count)"
fi
nt_check_topology 0
nt_check_topology 1
ndctl list -BDRN > $NVT_OUT/nt-coexist.json 2> /tmp/co.err || nok "ndctl list -BDRN with nfit_test: $(cat /tmp/co.err)"
got=$(grep -o '"provider":"[^"]*"' $NVT_OUT/nt-coexist.json | sort | tr '\n' ' ')
expect_eq "ndctl list: three buses" "$got" \
	'"provider":"ACPI.NFIT" "provider":"nfit_test.0" "provider":"nfit_test.1" '
qverify "with nfit_test loaded"
# the mock pmem device works too (its DIMM is not armed: the region is
# read-only until a user says otherwise)
mns=$(ls -d $(nt_bus 1)/region*/namespace* | head -n 1)
mp=$(nt_blockdev $mns)
echo 0 > $(dirname $mns)/read_only
if [ -n "$mp" ] && nvt-pattern write /dev/$mp 0 4M 77 > /dev/null 2>&1 &&
	nvt-pattern verify /dev/$mp 0 4M 77 > /dev/null 2>&1; then
	ok "mock pmem /dev/$mp (read_only 0 written): 4 MiB written and verified"
else
	nok "mock pmem '$mp' I/O failed"
fi
qverify "after I/O on the mock device"
set -- $real0
got="$(calls devm_memremap) | $(calls __devm_request_region) | $(calls insert_resource) | $(calls devm_ioremap)"
# mock: nfit_test.1's PM range + nfit_test.0's 4 BLK apertures mapped;
# that range + 4 control + 4 aperture ranges claimed; 4 flush hints + 4
# control ranges ioremapped
expect_eq "mock ranges served by the mock, real ones unchanged (mock real, per wrapper)" "$got" \
	"5 $1 | 9 $2 | 3 $3 | 8 $4"
expect_eq "/proc/iomem: QEMU's ranges only" "$(grep -c 'Persistent Memory' /proc/iomem)" "$iomem_before"
# QEMU's label DIMM still answers through ACPI _DSM
ld=
for d in $(ls /sys/bus/nd/devices | grep nmem); do
	case $(readlink -f /sys/bus/nd/devices/$d) in */ACPI0012:*) ;; *) continue ;; esac
	nd-label-ioctl size /dev/$d 2> /dev/null | grep -q '^rc=0 ' && ld=$d
done
[ -n "$ld" ] && ok "QEMU DIMM $ld: $(nd-label-ioctl size /dev/$ld)" ||
	nok "no QEMU DIMM answers GET_CONFIG_SIZE with nfit_test loaded"

if rmmod nfit_test 2> /tmp/co.out; then
	ok "rmmod nfit_test"
else
	nok "rmmod nfit_test: $(cat /tmp/co.out)"
fi
nd_settle
expect_eq "QEMU's nd devices as before" "$(ls /sys/bus/nd/devices | sort | tr '\n' ' ')" "$qdevs"
expect_eq "QEMU's pmem devices as before" "$(cd /dev && ls pmem* | tr '\n' ' ')" "$qpmem"
qverify "after rmmod nfit_test"
if ndctl list -BRN > /tmp/co-after.json 2> /tmp/co-after.err; then
	check "ndctl list -BRN unchanged" cmp /tmp/co-before.json /tmp/co-after.json
else
	nok "ndctl list -BRN after rmmod nfit_test failed: $(cat /tmp/co-after.err)"
fi
for p in $qpmem; do
	dd if=/tmp/co-save.$p of=/dev/$p bs=1M seek=$CO_OFF conv=fsync 2> /dev/null ||
		nok "$p: could not restore its ${CO_LEN} MiB at ${CO_OFF} MiB"
done
