# nt-v42: the mock platform behaves like the v4.2 one (issue 10, defects 7
# and 9; DESIGN.md §7), and the core refuses a table it cannot use.
#
# 1. Namespace size granularity.  v4.2 had no region `align`: a PMEM
#    namespace's size had to be a multiple of 4 KiB x ways.  nfit_test.N's
#    regions start with that align (2-way region0 0x2000, 4-way region1
#    0x4000, 1-way region6 0x1000; QEMU's keep 6.1's 16 MiB, checked by
#    the topology boots).  On blank label areas, through sysfs: an 18 MiB
#    namespace on region0 and a 20 MiB one on region1 (uuid, size, bound
#    to nd_pmem, a pattern over the whole block device); sizes that are
#    not a multiple of 4 KiB x ways are refused with EINVAL and change
#    nothing (namespace, region sizes and seed, label area bytes); `align`
#    stays writable (16 MiB written: 8 MiB refused; written back: taken).
# 2. Unarmed DIMM.  nfit_test.1's memory device map says save, restore and
#    flush failed and the DIMM is not armed: nmemN/nfit/flags lists them,
#    ndctl shows them, the region starts read_only, its pmem disk is
#    read-only: a write is refused (EPERM) and leaves the media alone,
#    reads return the media; read_only 0 (as a user would) lets writes
#    through, read_only 1 refuses them again.
# 3. Misaligned table.  nfit_test's `misalign` knob makes nfit_test.1's
#    NFIT describe its mapping (DPA, size) or its range (address, length)
#    off a page boundary: the bus and DIMM come up, the region is refused
#    with an error naming the alignment; knob off, the region is back with
#    the same data.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }
EINVAL="Invalid argument"

R0=/sys/bus/nd/devices/$(nt_region 0 1) && R1=/sys/bus/nd/devices/$(nt_region 0 2) &&
	D0=$(nt_dimm 0 0x0) && D1=$(nt_dimm 0 0x1) && D2=$(nt_dimm 0 0x100) &&
	D3=$(nt_dimm 0 0x101) && B1=$(nt_bus 1) && R6=$B1/$(nt_region 1 1) &&
	NM=$(nt_dimm 1 0x0) || { nok "nfit_test: regions or DIMMs not found"; exit 0; }
DIMMS="$D0 $D1 $D2 $D3"

# --- 1. size granularity ------------------------------------------------------
expect_eq "initial align of ${R0##*/} (2-way) ${R1##*/} (4-way) ${R6##*/} (1-way): 4 KiB x ways" \
	"$(cat $R0/align) $(cat $R1/align) $(cat $R6/align)" "0x2000 0x4000 0x1000"

# blank label areas: whatever the tests before left there does not matter
# (and at the end: the tests after find seeds namespace0.0, namespace1.0)
blank_areas() {
	nt_blank_labels 0 $DIMMS
}
blank_areas

# v42_state REGION NS: what a refused size write must leave alone
v42_state() {
	echo "$(ns_state $2) | $(cat $1/available_size $1/max_available_extent $1/namespace_seed | tr '\n' ' ')"
	for d in $DIMMS; do
		ns_area $d /tmp/v42.area && echo "$d $(md5sum < /tmp/v42.area)"
	done
}

# refused DESC REGION NS VALUE: size VALUE fails with EINVAL, nothing moves
refused() {
	local r
	v42_state $2 $3 > /tmp/v42.before
	r=$(ns_w $3/size $4)
	v42_state $2 $3 > /tmp/v42.after
	if [ "$r" = "$EINVAL" ] && cmp -s /tmp/v42.before /tmp/v42.after; then
		ok "$1: '$r', nothing changed"
	else
		nok "$1: got '$r' (want '$EINVAL')"
		diff /tmp/v42.before /tmp/v42.after | sed 's/^/#   /'
	fi
}

# v42_ns REGION WAYS UUID MIB BAD...: a namespace of MIB on the region's
# seed, after each BAD size (bytes) was refused; bound, I/O over all of it
v42_ns() {
	local R=$1 ways=$2 u=$3 size=$(($4 * MiB)) N b avail bad
	shift 4
	avail=$(cat $R/available_size)
	N=$R/$(cat $R/namespace_seed)
	expect_eq "${R##*/}: uuid on the seed ${N##*/}" "$(ns_w $N/uuid $u)" ok
	for bad in "$@"; do
		refused "${R##*/} ($ways-way): size $bad, not a multiple of $((ways * 4)) KiB" $R $N $bad
	done
	expect_eq "${R##*/} ($ways-way): size $(($size / MiB)) MiB on ${N##*/}" "$(ns_w $N/size $size)" ok
	expect_eq "${N##*/}: size nstype dpa_extents uuid" "$(ns_state $N | cut -d' ' -f1-4)" \
		"$size 5 $ways $u"
	expect_eq "${R##*/}: available_size after the $(($size / MiB)) MiB namespace" \
		"$(cat $R/available_size)" $((avail - size))
	echo ${N##*/} > /sys/bus/nd/drivers/nd_pmem/bind 2> /tmp/v42.out
	nd_settle
	b=$(nt_blockdev $N)
	if [ -z "$b" ] || [ ! -b /dev/$b ]; then
		nok "${N##*/}: no block device (driver $(ns_driver $N)): $(cat /tmp/v42.out)"
		return
	fi
	expect_eq "/dev/$b (${N##*/}): size" "$(blockdev --getsize64 /dev/$b)" $size
	if nvt-pattern write /dev/$b 0 $size $ways > /tmp/v42.out 2>&1 &&
		nvt-pattern verify /dev/$b 0 $size $ways >> /tmp/v42.out 2>&1; then
		ok "/dev/$b: pattern written and verified over all $(($size / MiB)) MiB"
	else
		nok "/dev/$b I/O: $(tr '\n' ' ' < /tmp/v42.out)"
	fi
}
v42_ns $R0 2 4242a000-0000-4000-8000-000000000018 18 \
	$((18 * MiB + 4096)) 4096 $((18 * MiB + 2048))
v42_ns $R1 4 4242a000-0000-4000-8000-000000000020 20 \
	$((20 * MiB + 8192)) $((20 * MiB + 4096)) 8192

# align stays writable (6.1 ABI): 16 MiB makes 8 MiB a bad size, 0x2000 again
# makes it a good one
N=$R0/$(cat $R0/namespace_seed)
expect_eq "${R0##*/}/align 0x1000000 written" "$(ns_w $R0/align 0x1000000) $(cat $R0/align)" "ok 0x1000000"
expect_eq "${N##*/}: uuid" "$(ns_w $N/uuid 4242a000-0000-4000-8000-000000000008)" ok
refused "${R0##*/} with align 16 MiB: size 8 MiB" $R0 $N $((8 * MiB))
expect_eq "${R0##*/}/align 0x2000 written back" "$(ns_w $R0/align 0x2000) $(cat $R0/align)" "ok 0x2000"
expect_eq "${R0##*/} with align 8 KiB: size 8 MiB, then 0 (deleted)" \
	"$(ns_w $N/size $((8 * MiB))) $(ns_rd $N/size) $(ns_w $N/size 0)" "ok $((8 * MiB)) ok"
blank_areas

# --- 2. the unarmed DIMM of nfit_test.1 ---------------------------------------
expect_eq "$NM (nfit_test.1) nfit/flags" "$(cat $B1/$NM/nfit/flags)" \
	"save_fail restore_fail flush_fail not_armed "
got=$(ndctl list -D -d $NM 2> /dev/null | grep -o '"flag_[a-z_]*":true' | sort | tr '\n' ' ')
expect_eq "ndctl list -D -d $NM: the flags" "$got" \
	'"flag_failed_arm":true "flag_failed_flush":true "flag_failed_restore":true "flag_failed_save":true '
dmesg | grep -q "$NM: not armed: regions using it are read-only" &&
	ok "kernel log: $NM not armed, its regions read-only" ||
	nok "no 'not armed' line for $NM in the kernel log"

NS=$(ls -d $R6/namespace* 2> /dev/null | head -n 1)
dev=$(nt_blockdev $NS)
media=$NT_DBG/nfit_test.1/dimm0/media
if [ -z "$dev" ] || [ ! -b /dev/$dev ] || [ ! -r $media ]; then
	nok "nfit_test.1: no pmem block device ('$NS') or no $media"
	exit 0
fi
expect_eq "${R6##*/}/read_only and /sys/block/$dev/ro from the start" \
	"$(cat $R6/read_only) $(cat /sys/block/$dev/ro)" "1 1"

# ro_write DESC: a 4 KiB O_DIRECT write at 4 MiB must be refused and leave
# the media alone
ro_write() {
	local before out
	before=$(md5sum < $media)
	if out=$(dd if=/dev/urandom of=/dev/$dev bs=4096 count=1 seek=1024 oflag=direct 2>&1); then
		nok "$1: a write to /dev/$dev succeeded"
		return
	fi
	case $out in
	*"Operation not permitted"*) out=EPERM ;;
	*"Read-only file system"*) out=EROFS ;;
	*) nok "$1: write failed, but not as read-only: $out"; return ;;
	esac
	expect_eq "$1: write refused ($out), media unchanged" "$(md5sum < $media)" "$before"
}
# the device's bytes at OFF_MIB, 2 MiB of them, equal the media's (1-way: DPA = offset)
ro_read() {
	dd if=/dev/$dev of=/tmp/v42.dev bs=1M skip=$2 count=2 iflag=direct 2> /dev/null &&
		dd if=$media of=/tmp/v42.media bs=1M skip=$2 count=2 2> /dev/null
	check "$1: /dev/$dev reads what the media holds at $2 MiB" cmp /tmp/v42.dev /tmp/v42.media
}
ro_write "unarmed"
ro_read "unarmed" 4
echo 0 > $R6/read_only
expect_eq "${R6##*/}/read_only 0 written: /sys/block/$dev/ro" "$(cat /sys/block/$dev/ro)" 0
if nvt-pattern write /dev/$dev 4M 2M 4242 > /tmp/v42.out 2>&1 &&
	nvt-pattern verify /dev/$dev 4M 2M 4242 >> /tmp/v42.out 2>&1; then
	ok "read_only 0: /dev/$dev takes writes (2 MiB at 4 MiB)"
else
	nok "read_only 0: /dev/$dev I/O: $(tr '\n' ' ' < /tmp/v42.out)"
fi
ro_read "read_only 0" 4
echo 1 > $R6/read_only
ro_write "read_only 1 again"

# --- 3. misaligned mapping or range in nfit_test.1's table ---------------------
PD=/sys/bus/platform/drivers/nfit_test
KNOB=/sys/module/nfit_test/parameters/misalign
rebind1() {
	echo nfit_test.1 > $PD/unbind && echo nfit_test.1 > $PD/bind
	nd_settle
}
sum_before=$(md5sum < $media)
for how in 1:DPA 2:mapping-size 3:range-address 4:range-length; do
	echo ${how%%:*} > $KNOB
	ns_mark
	rebind1
	b=$(nt_bus 1)
	got="$(ls -d $b/nmem* 2> /dev/null | wc -l) $(ls -d $b/region* 2> /dev/null | wc -l)"
	expect_eq "misaligned ${how#*:}: nfit_test.1 has its DIMM and no region" "$got" "1 0"
	ns_log_since > /tmp/v42.log
	if grep -q "not 4096-byte aligned" /tmp/v42.log && grep -q "no region" /tmp/v42.log; then
		ok "misaligned ${how#*:}: refused: $(grep -m 1 'not 4096-byte aligned' /tmp/v42.log | sed 's/^\[[^]]*\] //')"
	else
		nok "misaligned ${how#*:}: no alignment error in the kernel log"
		sed 's/^/#   /' /tmp/v42.log
	fi
done
echo 0 > $KNOB
rebind1
B1=$(nt_bus 1)
R6=$B1/$(nt_region 1 1)
NS=$(ls -d $R6/namespace* 2> /dev/null | head -n 1)
dev=$(nt_blockdev $NS)
expect_eq "misalign 0: region back, read-only, with a pmem disk" \
	"$(cat $R6/read_only 2>&1) $(cat /sys/block/$dev/ro 2>&1)" "1 1"
expect_eq "misalign 0: the media as it was" "$(md5sum < $media)" "$sum_before"
check "misalign 0: /dev/$dev still holds the 2 MiB written at 4 MiB" \
	nvt-pattern verify /dev/$dev 4M 2M 4242
