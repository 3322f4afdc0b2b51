# bench: fio on /dev/pmem0 (make bench; not part of make check).
# Writes "job value unit" lines to $NVT_OUT/bench.txt.
. /nvt/lib.sh

DEV=${NVT_BENCH_DEV:-/dev/pmem0}
RUNTIME=${NVT_BENCH_RUNTIME:-4}
: > $NVT_OUT/bench.txt
if ! command -v fio > /dev/null; then
	echo "# nvt: bench: fio missing from the image"
	exit 1
fi
engine=psync
echo "# nvt: bench: fio $(fio --version) on $DEV, ioengine=$engine, O_DIRECT, ${RUNTIME}s per job"
# name rw bs field: terse v3 fields: 7 read bw KiB/s, 8 read IOPS,
# 48 write bw KiB/s, 49 write IOPS
for job in "seq-read-1M read 1M 7 MiB/s" "seq-write-1M write 1M 48 MiB/s" \
	   "rand-read-4K randread 4K 8 IOPS" "rand-write-4K randwrite 4K 49 IOPS"; do
	set -- $job
	echo "# nvt: bench: $1"
	if ! fio --name=$1 --filename=$DEV --rw=$2 --bs=$3 --direct=1 \
		--ioengine=$engine --size=256M --runtime=$RUNTIME --time_based \
		--numjobs=1 --minimal > /tmp/fio.out 2> /tmp/fio.err; then
		echo "# nvt: bench: $1 failed: $(head -c 300 /tmp/fio.err)"
		continue
	fi
	v=$(awk -F';' -v f=$4 '{print $f}' /tmp/fio.out | head -n 1)
	[ "$5" = "MiB/s" ] && v=$(awk -v v=$v 'BEGIN{printf "%.1f", v/1024}')
	echo "$1 $v $5" >> $NVT_OUT/bench.txt
	echo "# nvt: bench: $1 $v $5"
done
