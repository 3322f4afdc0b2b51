# mce-badrange: a machine check in an NVDIMM range becomes a bad range
# (issue 28, nfit's MCE decode-chain notifier), on QEMU's NFIT, with the
# stock modules as the oracle.  Machine checks are logged in software by
# mce-inject ("sw": decoded, never raised): an uncorrected memory error
# (AMD bank 4 extended code 8, Intel MCACOD 0x9f: TCG's CPU is AMD's)
# at region0's start + 1M + 0x40 names sector 2048 of region0 and of
# pmem0 (the label-less DIMM's raw namespace); a read of it fails with
# EIO, sector 2047 reads; a write of it fails too, as QEMU's
# NFIT cannot clear poison (no ARS functions).  A corrected error in the
# range and an uncorrected one outside every NVDIMM range change
# nothing.  Results go to mce.txt for compare-prov.py.  Run last in its
# boot (the bad range lasts until nfit is unbound).
. "$(dirname "$0")/lib.sh"

OUT=$NVT_OUT/mce.txt
: > $OUT
mountpoint -q /sys/kernel/debug 2>/dev/null || mount -t debugfs none /sys/kernel/debug
if ! modprobe mce_inject > /tmp/mi.out 2>&1 || [ ! -d /sys/kernel/debug/mce-inject ]; then
	nok "mce-inject unavailable"
	sed 's/^/#   /' /tmp/mi.out
	exit 0
fi
D=/sys/kernel/debug/mce-inject
nd_settle
R=/sys/bus/nd/devices/region0
start=$(cat $R/resource)
bd=pmem0
[ -b /dev/$bd ] || { nok "no /dev/$bd"; exit 0; }
# MCi_STATUS: VAL (63) | UC (61) | EN (60) | ADDRV (58) | AMD extended
# code 8 (bits 16-20) | MCACOD 0x9f; hex strings (the shell's arithmetic
# is signed 64-bit)
UNCORR=0xb40000000008009f
CORR=0x940000000008009f

# inject ADDR STATUS: one software machine check
inject() {
	echo sw > $D/flags
	printf '0x%x\n' $1 > $D/addr
	echo $2 > $D/status
	echo 4 > $D/bank
	sleep 1		# decoded by a work item
}
state() {
	echo "$1 region=$(cat $R/badblocks | tr '\n' ' ') disk=$(cat /sys/block/$bd/badblocks | tr '\n' ' ')"
}

state before >> $OUT
inject $((start + 0x100040)) $UNCORR
state uncorrected-in-range >> $OUT
expect_eq "uncorrected error at region0+0x100040: pmem0 badblocks" \
	"$(cat /sys/block/$bd/badblocks | tr '\n' ' ')" "2048 1 "
expect_eq "uncorrected error at region0+0x100040: region0 badblocks" \
	"$(cat $R/badblocks | tr '\n' ' ')" "2048 1 "
# O_DIRECT from an aligned buffer (tools/nvt-dio.c; busybox dd's
# iflag=direct may read the whole page through the page cache)
r=$(nvt-dio read /dev/$bd $((2048 * 512)) 512)
echo "read-2048 $r" >> $OUT
expect_eq "read of sector 2048" "$r" EIO
r=$(nvt-dio read /dev/$bd $((2047 * 512)) 512)/$(nvt-dio read /dev/$bd $((2049 * 512)) 512)
echo "read-2047/2049 $r" >> $OUT
expect_eq "sectors 2047 and 2049 read" "$r" ok/ok
r=$(nvt-dio write /dev/$bd $((2048 * 512)) 512)
echo "write-2048 $r" >> $OUT
expect_eq "write of sector 2048 fails (QEMU's NFIT cannot clear poison)" "$r" EIO

inject $((start + 0x200000)) $CORR
state corrected-in-range >> $OUT
inject 0x1000 $UNCORR
state uncorrected-outside >> $OUT
expect_eq "a corrected error in range and an uncorrected one outside change nothing" \
	"$(cat /sys/block/$bd/badblocks | tr '\n' ' ')" "2048 1 "
sed 's/^/#   /' $OUT

# --- hw_error_scrub on an nfit_test bus (the test set: nfit_test beside
# QEMU's NVDIMMs): with it off a machine check only adds its line; with
# it on a scrub follows (the bus's scrub count grows by one), and the
# machine check's lines stay listed after it (6.1: a scrub adds ranges,
# only a clear removes them).  Not in mce.txt: the oracle has no mock.
if [ "$NVT_SET" = test ]; then
	. "$(dirname "$0")/nfit_test.inc"
	if ! modprobe nfit_test 2> /tmp/nt.out; then
		nok "modprobe nfit_test: $(cat /tmp/nt.out)"
		exit 0
	fi
	nd_settle
	B=$(nt_bus 1) && nr=$(ls -d $B/region* | head -n 1) || { nok "nfit_test.1 has no region"; exit 0; }
	rs=$(($(cat $nr/resource)))
	# scrubs BUS: the bus's scrub count once no scrub is queued or running
	scrubs() {
		local v i=0
		while v=$(cat $1/nfit/scrub) && [ "${v%+}" != "$v" ] && [ $i -lt 300 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		echo $v
	}
	c0=$(scrubs $B)
	expect_eq "nfit_test.1: hw_error_scrub off by default" "$(cat $B/nfit/hw_error_scrub)" 0
	inject $((rs + 0x1000)) $UNCORR
	expect_eq "hw_error_scrub 0: the machine check's line listed, no scrub" \
		"$(cat $nr/badblocks | tr '\n' ' ')/$(scrubs $B)" "8 1 /$c0"
	echo 1 > $B/nfit/hw_error_scrub
	inject $((rs + 0x2000)) $UNCORR
	expect_eq "hw_error_scrub 1: a scrub followed, both lines still listed after it" \
		"$(cat $nr/badblocks | tr '\n' ' ')/$(scrubs $B)" "8 1 16 1 /$((c0 + 1))"
	inject 0x1000 $UNCORR
	expect_eq "hw_error_scrub 1: a machine check outside every range scrubs nothing" \
		"$(cat $nr/badblocks | tr '\n' ' ')/$(scrubs $B)" "8 1 16 1 /$((c0 + 1))"
	echo 0 > $B/nfit/hw_error_scrub
	check "rmmod nfit_test" rmmod nfit_test
fi
