# prov-mapsync: MAP_SYNC is never granted on virtio-pmem (an asynchronous
# region), however the kernel's DAX devices were allocated before.  6.1's
# dax core reuses a freed dax_device with its old flags: an e820 fsdax
# disk (synchronous) taken down right before the virtio-pmem one comes up
# can lend it DAXDEV_SYNC.  NVT_MAPSYNC_ROUNDS rounds (default 6; on 2 vCPUs, as make check boots,
# the stock modules granted it 3 times in 6) of: the
# e820 namespace through devdax, fsdax and raw (synchronous DAX devices
# made and freed), a second for RCU to free them, the virtio-pmem one
# reconfigured to fsdax at once, ext4 -o dax, a MAP_SYNC mapping tried.
# On the stock modules the grants are counted, not failed (their bug).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prov.inc"

prov_modules
ROUNDS=${NVT_MAPSYNC_ROUNDS:-6}
M=/tmp/prov-mnt
mkdir -p $M
e=$(prov_ns e820)
v=$(prov_ns virtio-pmem)
granted=0 refused=0 other=""
i=0
while [ $i -lt $ROUNDS ]; do
	i=$((i + 1))
	# synchronous DAX devices made and freed: devdax's, then fsdax's;
	# the freed objects reach the slab after an RCU grace period
	ndctl create-namespace -f -e $e -m devdax $(devdax_align) > /dev/null 2>&1
	ndctl create-namespace -f -e $e -m fsdax > /dev/null 2>&1
	ndctl create-namespace -f -e $e -m raw > /dev/null 2>&1
	sleep 1
	ndctl create-namespace -f -e $v -m fsdax > /tmp/cn.out 2>&1 || { other="$other create($i)"; continue; }
	nd_settle
	ndctl list -n $v > /tmp/v.json
	bd=$(jget blockdev /tmp/v.json)
	if mkfs.ext4 -q -F -b 4096 /dev/$bd > /dev/null 2>&1 && mount -o dax /dev/$bd $M 2>/dev/null; then
		nvt-mmap write $M/s 0 4096 $i --sync > /dev/null 2>&1
		case $? in
		0) granted=$((granted + 1)) ;;
		3) refused=$((refused + 1)) ;;
		*) other="$other mmap($i)" ;;
		esac
		umount $M
	else
		other="$other mount($i)"
	fi
done
diag "MAP_SYNC on virtio-pmem fsdax: $granted granted, $refused refused of $ROUNDS${other:+; failed:$other}"
# ours: how often the allocation came back with a stale flag (set aside)
diag "stale synchronous DAX devices set aside: $(dmesg | grep -c 'with a stale synchronous flag')"
if [ "$NVT_SET" = stock ]; then
	ok "stock: MAP_SYNC on virtio-pmem granted $granted of $ROUNDS times (6.1's stale DAX flags; not asserted)"
else
	expect_eq "MAP_SYNC on virtio-pmem refused every time (granted/refused/failed)" \
		"$granted/$refused/$other" "0/$ROUNDS/"
fi
