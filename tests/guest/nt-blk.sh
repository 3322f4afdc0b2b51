# nt-blk: BLK namespaces carry data through the DIMMs' block windows
# (nd_blk, nfit.ko's aperture I/O, nfit_test's register emulation).  On
# nfit_test.0 with blank label areas, DIMM 0x100's BLK region gets one
# namespace per sector format of v4.2 (512 520 528 4096 4104 4160 4224):
# each binds to nd_blk as /dev/ndblkR.N with the capacity and logical
# block size of its format and its metadata as the integrity tuple; a
# pattern written through it is read back, and found on the DIMM's media
# at the format's stride with zeroed metadata behind each sector; the
# block-window command counter proves the bytes crossed the aperture.
# The data survives an nd_blk rebind and a region disable/enable; the
# seed advances when it binds; I/O past the end and bad sector sizes are
# refused with nothing changed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/blk.inc"

nd_settle
nt_debugfs
b0=$(nt_bus 0) || { nok "no nfit_test.0 bus"; exit 0; }
d=$(nt_dimm 0 0x100)
rb=$(nt_region 0 9)
[ -n "$d" ] && [ -n "$rb" ] || { nok "no DIMM 0x100 or no BLK region (range 9)"; exit 0; }
R=$b0/$rb
[ -d /sys/bus/nd/drivers/nd_blk ] || { nok "nd_blk is not loaded"; exit 0; }
nt_blank_labels 0 $(nt_dimm 0 0x0) $(nt_dimm 0 0x1) $d $(nt_dimm 0 0x101)
[ -e $R/driver ] && ok "$rb (BLK, $d) enabled with block windows" ||
	{ nok "$rb did not enable: $(dmesg | grep "$rb" | tail -n 2 | tr '\n' '|')"; exit 0; }
echo 0 > $R/read_only

# --- one namespace per format ------------------------------------------------
SIZE=$((2 * MiB))
i=0
NSS=
for lba in 512 520 528 4096 4104 4160 4224; do
	i=$((i + 1))
	u=b1c00000-0000-4000-8000-00000000$(printf %04d $lba)
	seed=$(cat $R/namespace_seed)
	N=$(blk_create $R $u $lba $SIZE blk$lba) || continue
	expect_eq "${N##*/}: bind to nd_blk" "$(ns_w $BLK_BIND ${N##*/})" ok
	nd_settle
	disk=$(nt_blockdev $N)
	expect_eq "${N##*/}: block device name" "$disk" "ndblk${rb#region}.${N##*.}"
	[ -b /dev/$disk ] || { nok "/dev/$disk missing"; continue; }
	ss=$(blk_ss $lba) st=$(blk_stride $lba)
	want=$((SIZE / st * ss))
	expect_eq "/dev/$disk ($lba): bytes, logical block size" \
		"$(blockdev --getsize64 /dev/$disk 2>&1) $(blockdev --getss /dev/$disk 2>&1)" "$want $ss"
	meta=$((lba - ss))
	I=/sys/block/$disk/integrity
	if [ ! -d $I ]; then
		skip "/dev/$disk: integrity profile" "kernel without CONFIG_BLK_DEV_INTEGRITY"
	elif [ $meta -gt 0 ]; then
		expect_eq "/dev/$disk: integrity format, tag size, interval" \
			"$(cat $I/format 2>&1) $(cat $I/tag_size 2>&1) $(cat $I/protection_interval_bytes 2>&1)" \
			"nop $meta $ss"
	else
		expect_eq "/dev/$disk: no integrity profile" "$(cat $I/format 2>&1) $(cat $I/tag_size 2>&1)" "none 0"
	fi
	ns=$(cat $R/namespace_seed)
	[ "$ns" != "$seed" ] && ok "$rb: the seed advanced to $ns when $seed bound" ||
		nok "$rb: namespace_seed still $ns after $seed bound"
	NSS="$NSS $N:$lba:$((7000 + i))"
done

# write everything first, then read: the windows are shared by all
w0=$(nt_knob $d blk_writes 2>/dev/null || echo 0)
for e in $NSS; do
	IFS=: read N lba s <<EOF
$e
EOF
	disk=$(nt_blockdev $N)
	check "/dev/$disk: pattern $s written (whole disk, O_DIRECT sized)" \
		nvt-pattern write /dev/$disk 0 $(blockdev --getsize64 /dev/$disk) $s
done
w1=$(nt_knob $d blk_writes 2>/dev/null || echo 0)
[ $((w1 - w0)) -ge $((7 * SIZE / 16384)) ] &&
	ok "$d: $((w1 - w0)) block-window write commands for 7 x 2 MiB" ||
	nok "$d: block-window write commands $w0 -> $w1"
echo 3 > /proc/sys/vm/drop_caches

verify_all() {	# DESC
	local e N lba s disk
	for e in $NSS; do
		IFS=: read N lba s <<EOF
$e
EOF
		disk=$(nt_blockdev $N)
		if [ -z "$disk" ]; then
			nok "$1: ${N##*/} has no block device"
			continue
		fi
		check "$1: /dev/$disk pattern $s" nvt-pattern verify /dev/$disk 0 \
			$(blockdev --getsize64 /dev/$disk) $s
	done
}
verify_all "read back"

# --- the media: data at the stride, zeroed metadata behind it -----------------
for e in $NSS; do
	IFS=: read N lba s <<EOF
$e
EOF
	disk=$(nt_blockdev $N)
	dpa=$(blk_dpa $d blk$lba)
	[ -n "$dpa" ] || { nok "blk$lba: no label with its DPA on $d"; continue; }
	ss=$(blk_ss $lba) st=$(blk_stride $lba)
	last=$(($(blockdev --getsize64 /dev/$disk) / ss - 1))
	bad=
	for k in 0 1 $last; do
		[ "$(blk_media_sum $d $((dpa + k * st)) $ss)" = "$(blk_dev_sum /dev/$disk $((k * ss)) $ss)" ] ||
			bad="$bad sector $k data;"
		[ $lba = $ss ] && continue
		[ "$(blk_zero_bytes $NT_DBG/$d/media $((dpa + k * st + ss)) $((lba - ss)))" = zero ] ||
			bad="$bad sector $k metadata;"
	done
	[ -z "$bad" ] && ok "blk$lba on $d's media at DPA $dpa: sectors 0 1 $last at stride $st, metadata zeroed" ||
		nok "blk$lba media layout (DPA $dpa, stride $st):$bad"
done

# --- persistence: nd_blk rebind, region disable/enable ------------------------
for e in $NSS; do
	N=${e%%:*}
	echo ${N##*/} > $BLK_UNBIND
	echo ${N##*/} > $BLK_BIND
done
nd_settle
verify_all "after an nd_blk rebind"
nt_regions_unbind 0
nt_regions_bind 0
verify_all "after the region was disabled and enabled"

# --- bad input ----------------------------------------------------------------
set -- $NSS
N=${1%%:*}
disk=$(nt_blockdev $N)
sz=$(blockdev --getsize64 /dev/$disk)
before=$(blk_dev_sum /dev/$disk 0 $sz)
dd if=/dev/zero of=/dev/$disk bs=512 seek=$((sz / 512)) count=1 oflag=direct 2> /dev/null &&
	nok "a write past the end of /dev/$disk succeeded" ||
	ok "a write past the end of /dev/$disk is refused"
n=$(dd if=/dev/$disk bs=512 skip=$((sz / 512)) count=1 iflag=direct 2> /dev/null | wc -c)
expect_eq "a read past the end of /dev/$disk returns nothing" "$n" 0
expect_eq "/dev/$disk unchanged by the refused write" "$(blk_dev_sum /dev/$disk 0 $sz)" "$before"
seed=$(cat $R/namespace_seed)
expect_eq "$seed: sector_size 4097, 0, 4096x refused" \
	"$(ns_w $R/$seed/sector_size 4097) $(ns_w $R/$seed/sector_size 0) $(ns_w $R/$seed/sector_size 4096x)" \
	"Invalid argument Invalid argument Invalid argument"
expect_eq "sector_size of a bound namespace cannot change" \
	"$(ns_w $N/sector_size 4096)" "Device or resource busy"
expect_eq "${N##*/}: a bound BLK namespace keeps its size" "$(ns_w $N/size $((4 * MiB)))" \
	"Device or resource busy"
verify_all "after the refused writes"

# --- read-only region, synchronous (FUA) writes -------------------------------
echo 1 > $R/read_only
expect_eq "/sys/block/$disk/ro with ${R##*/} read_only 1" "$(cat /sys/block/$disk/ro)" 1
dd if=/dev/zero of=/dev/$disk bs=512 count=1 oflag=direct 2> /dev/null &&
	nok "a write to read-only /dev/$disk succeeded" || ok "a write to read-only /dev/$disk is refused"
echo 0 > $R/read_only
expect_eq "/sys/block/$disk/ro with read_only 0" "$(cat /sys/block/$disk/ro)" 0
expect_eq "/dev/$disk unchanged by the refused write" "$(blk_dev_sum /dev/$disk 0 $sz)" "$before"
check "a synchronous (O_DIRECT|O_DSYNC: FUA) write of /dev/$disk" \
	nvt-pattern wsync /dev/$disk 12288 8192 7099
check "the synchronous write reads back" nvt-pattern verify /dev/$disk 12288 8192 7099

for e in $NSS; do
	blk_delete ${e%%:*}
done
