# bench: fio on /dev/pmem0, then on its BTT (make bench; not in check);
# on nfit_test (make bench-blk): a BLK namespace against a PMEM one of
# the same mock bus; on legacy (make bench-prov): the e820 and the
# virtio-pmem namespace (bench-prov.inc).  Writes "job value unit" lines
# to $NVT_OUT/bench.txt.
. "$(dirname "$0")/lib.sh"

DEV=${NVT_BENCH_DEV:-/dev/pmem0}
RUNTIME=${NVT_BENCH_RUNTIME:-4}
SIZE=256M
: > $NVT_OUT/bench.txt
if ! command -v fio > /dev/null; then
	echo "# nvt: bench: fio missing from the image"
	exit 1
fi
engine=psync
DIRECT=1
[ "$NVT_PLATFORM" = qemu ] || DEV="the $NVT_PLATFORM namespaces"
echo "# nvt: bench: fio $(fio --version) on $DEV, ioengine=$engine, O_DIRECT, ${RUNTIME}s per job"
# name rw bs field: terse v3 fields: 7 read bw KiB/s, 8 read IOPS,
# 48 write bw KiB/s, 49 write IOPS
# fio_jobs DEV PREFIX JOB...: each job "name rw bs field unit" on DEV,
# results as "PREFIXname value unit"
fio_jobs() {
	local dev=$1 pfx=$2 job v
	shift 2
	for job in "$@"; do
		set -- $job
		echo "# nvt: bench: $pfx$1 on $dev"
		if ! fio --name=$1 --filename=$dev --rw=$2 --bs=$3 --direct=$DIRECT \
			--ioengine=$engine --size=$SIZE --runtime=$RUNTIME --time_based \
			--numjobs=1 --minimal > /tmp/fio.out 2> /tmp/fio.err; then
			echo "# nvt: bench: $pfx$1 failed: $(head -c 300 /tmp/fio.err)"
			continue
		fi
		v=$(awk -F';' -v f=$4 '{print $f}' /tmp/fio.out | head -n 1)
		[ "$5" = "MiB/s" ] && v=$(awk -v v=$v 'BEGIN{printf "%.1f", v/1024}')
		echo "$pfx$1 $v $5" >> $NVT_OUT/bench.txt
		echo "# nvt: bench: $pfx$1 $v $5"
	done
}

JOBS4="seq-read-1M read 1M 7 MiB/s|seq-write-1M write 1M 48 MiB/s|rand-read-4K randread 4K 8 IOPS|rand-write-4K randwrite 4K 49 IOPS"

if [ "$NVT_PLATFORM" = legacy ]; then
	. "$(dirname "$0")/bench-prov.inc"
	exit 0
fi

if [ "$NVT_PLATFORM" = nfit_test ]; then
	# 16 MiB through DIMM 0x100's block window (4096-byte sectors) and
	# 16 MiB of region0's 2-way interleave, both on blank labels
	. "$(dirname "$0")/nfit_test.inc"
	. "$(dirname "$0")/ns.inc"
	. "$(dirname "$0")/blk.inc"
	nd_settle
	b0=$(nt_bus 0)
	nt_blank_labels 0 $(nt_dimm 0 0x0) $(nt_dimm 0 0x1) $(nt_dimm 0 0x100) $(nt_dimm 0 0x101)
	SIZE=16M
	for e in blk:9:nd_blk pmem:1:nd_pmem; do
		k=${e%%:*} r=${e#*:} drv=${e##*:}
		r=${r%%:*}
		R=$b0/$(nt_region 0 $r)
		echo 0 > $R/read_only
		N=$(blk_create $R $(cat /proc/sys/kernel/random/uuid) 4096 $((16 * MiB)) bench-$k)
		echo ${N##*/} > /sys/bus/nd/drivers/$drv/bind
		nd_settle
		IFS='|'
		set -- $JOBS4
		unset IFS
		fio_jobs /dev/$(nt_blockdev $N) $k- "$@"
	done
	exit 0
fi

IFS='|'
set -- $JOBS4
unset IFS
fio_jobs $DEV "" "$@"

# the same namespace in sector mode (BTT 1.1, label-less), made by
# Debian's ndctl on either module set: 4 KiB random read and write
# /sys/block/pmemN/device is the namespace
ns=$(readlink -f /sys/block/${DEV#/dev/}/device 2> /dev/null)
ns=${ns##*/}
if [ -n "$ns" ] && ndctl create-namespace -f -e $ns -m sector -l 4096 > /tmp/btt.json 2> /tmp/btt.err; then
	bdev=/dev/$(sed -n 's/.*"blockdev":"\([^"]*\)".*/\1/p' /tmp/btt.json | head -n 1)
	if [ -b "$bdev" ]; then
		fio_jobs $bdev btt- "rand-read-4K randread 4K 8 IOPS" "rand-write-4K randwrite 4K 49 IOPS"
	else
		echo "# nvt: bench: no BTT block device in: $(tr -d '\n' < /tmp/btt.json)"
	fi
else
	echo "# nvt: bench: sector mode on '$ns' failed: $(head -c 300 /tmp/btt.err)"
fi

# fsdax on the same namespace (struct pages on the media, align 2 MiB):
# 4 KiB random read and write on its block device (against raw above),
# then fio's mmap engine on a file of an ext4 -o dax filesystem on it
if [ -n "$ns" ] && ndctl create-namespace -f -e $ns -m fsdax > /tmp/fsdax.json 2> /tmp/fsdax.err; then
	bdev=/dev/$(sed -n 's/.*"blockdev":"\([^"]*\)".*/\1/p' /tmp/fsdax.json | head -n 1)
	if [ -b "$bdev" ]; then
		fio_jobs $bdev fsdax- "rand-read-4K randread 4K 8 IOPS" "rand-write-4K randwrite 4K 49 IOPS"
		mkdir -p /mnt/bench
		if mkfs.ext4 -q -F -b 4096 $bdev && mount -t ext4 -o dax $bdev /mnt/bench; then
			engine=mmap DIRECT=0 SIZE=64M
			fio_jobs /mnt/bench/fio.dat dax-ext4-mmap- \
				"seq-read-1M read 1M 7 MiB/s" "seq-write-1M write 1M 48 MiB/s" \
				"rand-read-4K randread 4K 8 IOPS" "rand-write-4K randwrite 4K 49 IOPS"
			umount /mnt/bench
			engine=psync DIRECT=1 SIZE=256M
		else
			echo "# nvt: bench: ext4 -o dax on $bdev failed"
		fi
	else
		echo "# nvt: bench: no fsdax block device in: $(tr -d '\n' < /tmp/fsdax.json)"
	fi
else
	echo "# nvt: bench: fsdax mode on '$ns' failed: $(head -c 300 /tmp/fsdax.err)"
fi

# devdax on the same namespace: fio's dev-dax engine on /dev/daxR.N
modprobe dax_pmem 2> /dev/null
modprobe device_dax 2> /dev/null
if [ -n "$ns" ] && ndctl create-namespace -f -e $ns -m devdax > /tmp/devdax.json 2> /tmp/devdax.err; then
	nd_settle
	cdev=/dev/$(sed -n 's/.*"chardev":"\([^"]*\)".*/\1/p' /tmp/devdax.json | head -n 1)
	if [ -c "$cdev" ]; then
		engine=dev-dax DIRECT=0 SIZE=64M
		fio_jobs $cdev devdax- \
			"seq-read-1M read 1M 7 MiB/s" "seq-write-1M write 1M 48 MiB/s" \
			"rand-read-4K randread 4K 8 IOPS" "rand-write-4K randwrite 4K 49 IOPS"
		engine=psync DIRECT=1 SIZE=256M
	else
		echo "# nvt: bench: no devdax character device in: $(tr -d '\n' < /tmp/devdax.json)"
	fi
else
	echo "# nvt: bench: devdax mode on '$ns' failed: $(head -c 300 /tmp/devdax.err)"
fi
