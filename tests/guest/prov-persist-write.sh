# prov-persist-write: before a power cycle of the guest, an ext4 mounted
# -o dax on the virtio-pmem namespace (fsdax, as prov-modes leaves it)
# gets a file written through mmap + msync and one through write(2) +
# fsync; prov-persist-verify finds both after the reboot (the backing
# file is the host's: only what the guest flushed is promised).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prov.inc"

prov_modules

ns=$(prov_ns virtio-pmem)
[ -n "$ns" ] || { nok "no virtio-pmem namespace"; exit 0; }
ndctl list -n $ns > /tmp/p.json
if [ "$(jget mode /tmp/p.json)" != fsdax ]; then
	ndctl create-namespace -f -e $ns -m fsdax > /tmp/cn.out 2>&1 && nd_settle
	ndctl list -n $ns > /tmp/p.json
fi
bd=$(jget blockdev /tmp/p.json)
M=/tmp/prov-mnt
mkdir -p $M
if mkfs.ext4 -q -F -b 4096 -L nvt-prov /dev/$bd > /tmp/mkfs.out 2>&1 &&
	mount -o dax /dev/$bd $M > /tmp/mnt.out 2>&1; then
	check "virtio-pmem ($bd): 8M through mmap + msync" nvt-mmap write $M/mmap 0 8M 27101
	check "virtio-pmem ($bd): 3M through write(2) + fsync" \
		sh -c "nvt-pattern gen 27102 3M > /tmp/w.bin && dd if=/tmp/w.bin of=$M/write bs=1M conv=fsync 2>/dev/null"
	umount $M
	ok "virtio-pmem ($bd): files written for the power cycle ($(ns_line $ns))"
else
	nok "virtio-pmem ($bd): mkfs.ext4 + mount -o dax"
	sed 's/^/#   /' /tmp/mkfs.out /tmp/mnt.out
fi
