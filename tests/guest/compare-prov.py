#!/usr/bin/env python3
"""Compare the record of a prov-* test on the stock modules with ours.

usage: compare-prov.py STOCK.txt OURS.txt    (prints TAP)

prov-modes.txt: one line per provider and step ("e820 sector mode=...
size=... blockdev=..."), the fields Debian's ndctl lists for the
namespace after each create-namespace, and MAP_SYNC's outcome; every
line must be equal.  prov-sysfs.txt (prov-topology.sh): every readable
attribute of every nd device, "path value"; equal except IGNORED.
"""
import re
import sys

# attribute paths (regular expressions) deliberately not compared
IGNORED = {
    # 6.1 puts the bus device ndbusN on the nd bus itself (with its
    # nd_bus driver), so /sys/bus/nd/devices lists it and its regions a
    # second time; ours has ndbusN only under /sys/class/nd and
    # /sys/devices (ndctl finds buses through the class): an older gap,
    # not of the providers
    r"^ndbus\d+/": "ndbusN on the nd bus (older gap, not of the providers)",
}


# prov-modes.txt lines (prefix) where ours deliberately differs
DIFFERENT = {
    # MAP_SYNC on virtio-pmem (raw memory mode and fsdax): the stock
    # modules granted it in some runs and refused it in others; a grant
    # promises durability the host has not given: ours always refuse,
    # prov-modes.sh asserts that (docs/providers.md)
    "virtio-pmem raw map_sync=": "MAP_SYNC on virtio-pmem: stock varies, ours refuse",
    "virtio-pmem fsdax map_sync=": "MAP_SYNC on virtio-pmem: stock varies, ours refuse",
    # cxl-bad.txt (issue 31; cxl-bad.sh asserts ours' lines): label
    # ioctls past the end of the area never reach a DIMM on ours (as on
    # NFIT DIMMs, label-bounds.sh): -EINVAL, a straddling read served up
    # to the end; 6.1 sends them and the device refuses (-ENXIO)
    "get straddling the end:": "out-of-range label ioctl: ours refuse it before the mailbox",
    "get at the end:": "out-of-range label ioctl: ours refuse it before the mailbox",
    "set at the end (region disabled):": "out-of-range label ioctl: ours refuse it before the mailbox",
    # ... and a damaged label index: ours refuse label writes until
    # `ndctl init-labels` (docs/namespaces.md); 6.1 initialises the area
    # again on the next namespace, dropping whatever it held
    "create-namespace on the corrupt area:": "damaged index: ours refuse writes, 6.1 re-initialises",
    "namespaces listed after:": "damaged index: ours refuse writes, 6.1 re-initialises",
    # ... and a CXL 2.0 label area (index v2.1, a region label of rawsize
    # 0): 6.1 cannot reserve the region label's empty DPA range and the
    # DIMM does not bind (no region, -ENOSPC); ours bind it, read its
    # labels as 6.1's EFI code would and refuse to write into it (-ENXIO,
    # docs/namespaces.md): the area's bytes after stay equal, compared
    "foreign: enable-region:": "CXL label area: 6.1's DIMM does not bind, ours binds and writes nothing",
    "foreign: dimm flags=": "CXL label area: 6.1's DIMM does not bind, ours binds and writes nothing",
    "foreign: create-namespace:": "CXL label area: 6.1's DIMM does not bind, ours binds and writes nothing",
}


def different(line):
    return any(line.startswith(p) for p in DIFFERENT)


def load(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def ignored(line):
    key = line.split(" ", 1)[0]
    return any(re.search(p, key) for p in IGNORED)


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    name = sys.argv[2].rsplit("/", 1)[-1]
    if name.endswith("sysfs.txt"):
        a = [l for l in a if not ignored(l)]
        b = [l for l in b if not ignored(l)]
    for p, why in DIFFERENT.items():
        got = [l for l in a + b if l.startswith(p)]
        if got:
            print("# deliberately different (%s): %s" % (why, got))
    a = [l for l in a if not different(l)]
    b = [l for l in b if not different(l)]
    n = fails = 0
    if not a:
        print("not ok 1 - %s: the stock record is empty" % name)
        print("1..1")
        return 1
    sa, sb = set(a), set(b)
    for line in a:
        n += 1
        if line in sb:
            print("ok %d - %s: %s" % (n, name, line))
        else:
            fails += 1
            key = line.split(" mode=")[0].split(" ", 1)[0]
            ours = [l for l in b if l.split(" ", 1)[0] == key and l not in sa]
            print("not ok %d - %s: stock '%s', ours %s" % (
                n, name, line, ours[:2] or "nothing"))
    for line in b:
        if line not in sa:
            n += 1
            fails += 1
            print("not ok %d - %s: only ours: '%s'" % (n, name, line))
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
