# prov-persist-verify: after the power cycle, the virtio-pmem namespace
# is still fsdax and its ext4 (mounted -o dax) has prov-persist-write's
# files, byte for byte.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prov.inc"

prov_modules

ns=$(prov_ns virtio-pmem)
[ -n "$ns" ] || { nok "no virtio-pmem namespace"; exit 0; }
ndctl list -n $ns > /tmp/p.json
expect_eq "virtio-pmem $ns: still fsdax after the power cycle" "$(jget mode /tmp/p.json)" fsdax
bd=$(jget blockdev /tmp/p.json)
M=/tmp/prov-mnt
mkdir -p $M
if mount -o dax /dev/$bd $M > /tmp/mnt.out 2>&1; then
	check "virtio-pmem ($bd): the mmap file read back" nvt-mmap verify $M/mmap 0 8M 27101
	check "virtio-pmem ($bd): the write(2) file read back" \
		sh -c "nvt-pattern gen 27102 3M > /tmp/w.bin && cmp /tmp/w.bin $M/write"
	umount $M
else
	nok "virtio-pmem ($bd): mount -o dax after the power cycle"
	sed 's/^/#   /' /tmp/mnt.out
fi
