#!/usr/bin/env python3
"""Build a fake libnvdimm sysfs tree (and /dev directory) for host tests.

usage: fakesys.py ROOT PLATFORM [--labels]
  ROOT      directory to create: ROOT/sys (sysfs) and ROOT/dev (device nodes)
  PLATFORM  qemu       two QEMU NVDIMMs under Debian 6.1's stock modules
                       (nmem0 without a label area, nmem1 with label-size=128K,
                       both regions label-less io namespaces, nstype 4)
            qemu-labelled  like qemu, but nmem1 carries a valid index and a
                       labelled region (nstype 5) with one raw namespace
            qemu-btt   like qemu-labelled, but namespace1.0 is in sector mode:
                       claimed by btt1.0 (enabled, disk pmem1s); its raw
                       block device stays listed as pmem1 for the
                       force_raw enable of check-namespace (nothing
                       creates block devices on a fake bind)
            qemu-shared  a label-less region1 interleaving nmem1 and nmem2
                       (disabled, as ndctl leaves it before labelling)
                       while nmem2 is also in region2, enabled: a DIMM
                       that cannot be labelled now (autolabel tests)
            qemu-dax   like qemu-labelled with fsdax and devdax namespaces as
                       the stock 6.1 modules leave them in a 512 MiB
                       region1: namespace1.0 fsdax (pfn1.0, memmap on the
                       device, disk pmem1), namespace1.1 devdax (dax1.0
                       bound to dax_pmem, its dax_region and the device-dax
                       instance dax1.1 below it, /dev/dax1.1),
                       namespace1.2 fsdax with the memmap in RAM (pfn1.1,
                       disk pmem1.2); idle seeds pfn1.2, dax1.1, btt1.0,
                       namespace1.3
            nfit_test  nfit_test.0 as DOC42 draws it (4 DIMMs, 2 PMEM
                       regions nstype 5, 4 BLK regions nstype 6) plus
                       nfit_test.1 (one label-less PMEM range)
            nfit_test-blk  nfit_test with BLK namespaces in every state:
                       namespace2.0 raw, enabled by nd_blk (ndblk2.0,
                       520-byte sectors); namespace3.0 in sector mode
                       (btt3.0 enabled by nd_blk, disk ndblk3.0s);
                       namespace4.0 configured, disabled; idle seeds
  --dev     also create ROOT/dev/nmemN as regular label-area files
            (ROOT/dev/nmemN.lsa) for the fake ioctl shim

File contents follow docs/sysfs-abi.md (6.1 formats).  Nothing here talks to
the running kernel.
"""
import os
import sys

ROOT = None


def w(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(value)


def link(path, target):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.unlink(path)
    os.symlink(target, path)


def rel(frm_dir, to):
    return os.path.relpath(to, frm_dir)


def sysdir(*p):
    return os.path.join(ROOT, "sys", *p)


def drivers(names):
    for d in names:
        w(sysdir("bus/nd/drivers", d, "bind"), "")
        w(sysdir("bus/nd/drivers", d, "unbind"), "")


def bind(devdir, driver):
    link(os.path.join(devdir, "driver"), rel(devdir, sysdir("bus/nd/drivers", driver)))


def make_bus(parent, busid, provider, major, nfit=True, commands="cmd_call "):
    bus = sysdir("devices", parent, "ndbus%d" % busid)
    w(os.path.join(bus, "commands"), commands + "\n")
    w(os.path.join(bus, "provider"), provider + "\n")
    w(os.path.join(bus, "wait_probe"), "1\n")
    if nfit:
        w(os.path.join(bus, "nfit/revision"), "1\n")
        w(os.path.join(bus, "nfit/dsm_mask"), "0x0\n")
    ctl = os.path.join(bus, "nd", "ndctl%d" % busid)
    w(os.path.join(ctl, "dev"), "%d:%d\n" % (major, busid))
    link(os.path.join(ctl, "device"), "../../../ndbus%d" % busid)
    link(sysdir("class/nd", "ndctl%d" % busid), rel(sysdir("class/nd"), ctl))
    link(sysdir("dev/char", "%d:%d" % (major, busid)), rel(sysdir("dev/char"), ctl))
    return bus


def make_dimm(bus, dimmid, major, handle, phys_id, vendor, device, rev, serial,
              commands, fmt="0x0101", uid=None, slots=None, active=True, flags=""):
    d = os.path.join(bus, "nmem%d" % dimmid)
    w(os.path.join(d, "dev"), "%d:%d\n" % (major, dimmid))
    w(os.path.join(d, "commands"), commands + "\n")
    w(os.path.join(d, "modalias"), "nd:t1\n")
    w(os.path.join(d, "devtype"), "nvdimm\n")
    w(os.path.join(d, "state"), "active\n" if active else "idle\n")
    w(os.path.join(d, "flags"), flags + "\n")
    w(os.path.join(d, "numa_node"), "0\n")
    if slots is not None:
        w(os.path.join(d, "available_slots"), "%d\n" % slots)
    n = os.path.join(d, "nfit")
    w(os.path.join(n, "handle"), "%#x\n" % handle)
    w(os.path.join(n, "phys_id"), "%#x\n" % phys_id)
    w(os.path.join(n, "vendor"), "0x%04x\n" % vendor)
    w(os.path.join(n, "device"), "0x%04x\n" % device)
    w(os.path.join(n, "rev_id"), "0x%04x\n" % rev)
    w(os.path.join(n, "serial"), "0x%08x\n" % serial)
    w(os.path.join(n, "format"), fmt + "\n")
    w(os.path.join(n, "flags"), "\n")
    w(os.path.join(n, "family"), "0\n")
    w(os.path.join(n, "id"), (uid or "%04x-%08x" % (vendor, serial)) + "\n")
    bind(d, "nvdimm")
    return d


def make_region(bus, rid, size, nstype, mappings, range_index=None, cookie=None,
                avail=0, align=0x1000000, blk=False, enabled=True, resource=None):
    r = os.path.join(bus, "region%d" % rid)
    w(os.path.join(r, "size"), "%d\n" % size)
    w(os.path.join(r, "align"), "%#x\n" % align)
    w(os.path.join(r, "available_size"), "%d\n" % avail)
    w(os.path.join(r, "max_available_extent"), "%d\n" % avail)
    w(os.path.join(r, "mappings"), "%d\n" % len(mappings))
    for i, (dimm, off, length, pos) in enumerate(mappings):
        w(os.path.join(r, "mapping%d" % i), "nmem%d,%d,%d,%d\n" % (dimm, off, length, pos))
    w(os.path.join(r, "nstype"), "%d\n" % nstype)
    w(os.path.join(r, "read_only"), "0\n")
    w(os.path.join(r, "modalias"), "nd:t%d\n" % (3 if blk else 2))
    w(os.path.join(r, "devtype"), ("nd_blk" if blk else "nd_pmem") + "\n")
    w(os.path.join(r, "numa_node"), "0\n")
    w(os.path.join(r, "init_namespaces"), "1/1\n")
    if resource is not None:
        w(os.path.join(r, "resource"), "%#x\n" % resource)
    if range_index is not None:
        w(os.path.join(r, "nfit/range_index"), "%d\n" % range_index)
    if cookie is not None:
        w(os.path.join(r, "set_cookie"), "%#x\n" % cookie)
    w(os.path.join(r, "namespace_seed"), "namespace%d.0\n" % rid)
    w(os.path.join(r, "btt_seed"), "btt%d.0\n" % rid)
    if not blk:
        w(os.path.join(r, "pfn_seed"), "pfn%d.0\n" % rid)
        w(os.path.join(r, "dax_seed"), "dax%d.0\n" % rid)
    if enabled:
        bind(r, "nd_region")
    # idle btt seed
    b = os.path.join(r, "btt%d.0" % rid)
    w(os.path.join(b, "uuid"), "\n")
    w(os.path.join(b, "sector_size"), "512 520 528 4096 4104 4160 4224 \n")
    w(os.path.join(b, "namespace"), "\n")
    w(os.path.join(b, "modalias"), "nd:t%d\n" % nstype)
    w(os.path.join(b, "devtype"), "nd_btt\n")
    w(os.path.join(b, "numa_node"), "0\n")
    if not blk:
        for kind in ("pfn", "dax"):
            pfn_dax_seed(r, rid, kind, 0, nstype)
    return r


def make_ns(region, rid, nid, nstype, size, uuid=None, name=None, sector=None,
            blockdev=None, resource=None, enabled=True, mode="raw"):
    n = os.path.join(region, "namespace%d.%d" % (rid, nid))
    w(os.path.join(n, "nstype"), "%d\n" % nstype)
    w(os.path.join(n, "size"), "%d\n" % size)
    w(os.path.join(n, "force_raw"), "0\n")
    w(os.path.join(n, "holder"), "\n")
    w(os.path.join(n, "holder_class"), "\n")
    w(os.path.join(n, "mode"), mode + "\n")
    w(os.path.join(n, "modalias"), "nd:t%d\n" % nstype)
    w(os.path.join(n, "devtype"), {4: "nd_namespace_io", 5: "nd_namespace_pmem",
                                   6: "nd_namespace_blk"}[nstype] + "\n")
    w(os.path.join(n, "numa_node"), "0\n")
    if resource is not None:
        w(os.path.join(n, "resource"), "%#x\n" % resource)
    if nstype in (5, 6):
        w(os.path.join(n, "uuid"), (uuid or "") + "\n")
        w(os.path.join(n, "alt_name"), (name or "") + "\n")
        w(os.path.join(n, "dpa_extents"), "%d\n" % (1 if size else 0))
        if sector is not None:
            w(os.path.join(n, "sector_size"), sector + "\n")
    if enabled:
        bind(n, "nd_blk" if nstype == 6 else "nd_pmem")
        if blockdev:
            os.makedirs(os.path.join(n, "block", blockdev), exist_ok=True)
            w(os.path.join(n, "block", blockdev, "size"), "%d\n" % (size // 512))
    return n


def qemu(labelled=False):
    drivers(["nd_bus", "nvdimm", "nd_region", "nd_pmem"])
    parent = "LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00"
    bus = make_bus(parent, 0, "ACPI.NFIT", 246)
    make_dimm(bus, 0, 245, 0x1, 0x0, 0x8680, 0x0100, 0x0100, 0x56341200,
              "cmd_call ")
    make_dimm(bus, 1, 245, 0x2, 0x1, 0x8680, 0x0100, 0x0100, 0x57341200,
              "get_size get_data set_data cmd_call ",
              slots=509 if labelled else None,
              flags="label " if labelled else "")
    r0 = make_region(bus, 0, 536870912, 4, [(0, 0, 536870912, 0)], range_index=1,
                     resource=0x140000000)
    make_ns(r0, 0, 0, 4, 536870912, blockdev="pmem0", resource=0x140000000)
    if not labelled:
        r1 = make_region(bus, 1, 536870912, 4, [(1, 0, 536870912, 0)], range_index=2,
                         resource=0x160000000)
        make_ns(r1, 1, 0, 4, 536870912, blockdev="pmem1", resource=0x160000000)
    else:
        r1 = make_region(bus, 1, 536870912, 5, [(1, 0, 536870912, 0)], range_index=2,
                         cookie=0x5f4f3a2b1c0d0e01, avail=268435456,
                         resource=0x160000000)
        make_ns(r1, 1, 0, 5, 268435456, uuid="2a3a9e55-6f29-4c4e-9d1f-0b7a2c5d8e11",
                name="data", sector="512 4096 ", blockdev="pmem1",
                resource=0x160000000)
        w(os.path.join(r1, "namespace_seed"), "namespace1.1\n")
        make_ns(r1, 1, 1, 5, 0, sector="512 4096 ", enabled=False)


def sizes_sel(v):
    """a btt's or BLK namespace's sector_size list with V selected"""
    return " ".join("[%s]" % x if x == str(v) else x
                    for x in BLK_SIZES.split()) + " "


BLK_SIZES = "512 520 528 4096 4104 4160 4224 "


def claim_by_btt(r, rid, n, uuid, lbasize, nbytes, nstype, disk, driver):
    """namespace directory N of region directory R (regionRID) claimed by
    bttRID.0 (uuid, LBASIZE, NBYTES usable), bound to DRIVER with DISK;
    the idle seed moves on to bttRID.1"""
    w(os.path.join(n, "mode"), "safe\n")
    w(os.path.join(n, "holder"), "btt%d.0\n" % rid)
    w(os.path.join(n, "holder_class"), "btt\n")
    b = os.path.join(r, "btt%d.0" % rid)
    os.rename(b, os.path.join(r, "btt%d.1" % rid))
    w(os.path.join(r, "btt_seed"), "btt%d.1\n" % rid)
    w(os.path.join(b, "uuid"), uuid + "\n")
    w(os.path.join(b, "sector_size"), sizes_sel(lbasize) + "\n")
    w(os.path.join(b, "namespace"), os.path.basename(n) + "\n")
    w(os.path.join(b, "size"), "%d\n" % nbytes)
    w(os.path.join(b, "modalias"), "nd:t%d\n" % nstype)
    w(os.path.join(b, "devtype"), "nd_btt\n")
    w(os.path.join(b, "numa_node"), "0\n")
    w(os.path.join(b, "block", disk, "size"), "%d\n" % (nbytes // 512))
    bind(b, driver)


def qemu_btt():
    qemu(labelled=True)
    drivers(["nd_btt"])
    bus = sysdir("devices", "LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00", "ndbus0")
    r1 = os.path.join(bus, "region1")
    n = os.path.join(r1, "namespace1.0")
    os.unlink(os.path.join(n, "driver"))
    claim_by_btt(r1, 1, n, "7b1e2d5a-3c4f-4a6b-8d9e-0f1a2b3c4d5e", 4096,
                 65272 * 4096, 5, "pmem1s", "nd_btt")


def qemu_shared():
    drivers(["nd_bus", "nvdimm", "nd_region", "nd_pmem"])
    bus = make_bus("LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00", 0, "ACPI.NFIT", 246)
    lcmds = "get_size get_data set_data cmd_call "
    make_dimm(bus, 0, 245, 0x1, 0x0, 0x8680, 0x0100, 0x0100, 0x56341200, "cmd_call ")
    make_dimm(bus, 1, 245, 0x2, 0x1, 0x8680, 0x0100, 0x0100, 0x57341200, lcmds,
              active=False)
    make_dimm(bus, 2, 245, 0x3, 0x2, 0x8680, 0x0100, 0x0100, 0x58341200, lcmds)
    M = 1 << 20
    r0 = make_region(bus, 0, 512 * M, 4, [(0, 0, 512 * M, 0)], range_index=1,
                     resource=0x140000000)
    make_ns(r0, 0, 0, 4, 512 * M, blockdev="pmem0", resource=0x140000000)
    r1 = make_region(bus, 1, 512 * M, 4, [(1, 0, 256 * M, 0), (2, 0, 256 * M, 1)],
                     range_index=2, resource=0x160000000, enabled=False)
    n1 = make_ns(r1, 1, 0, 4, 512 * M, resource=0x160000000, enabled=False)
    os.makedirs(os.path.join(n1, "block", "pmem1"), exist_ok=True)
    r2 = make_region(bus, 2, 256 * M, 4, [(2, 256 * M, 256 * M, 0)], range_index=3,
                     resource=0x180000000)
    make_ns(r2, 2, 0, 4, 256 * M, blockdev="pmem2", resource=0x180000000)


def pfn_dax_seed(r, rid, kind, nid, nstype):
    """an idle pfn or dax seed (kind "pfn"/"dax") in region directory R"""
    p = os.path.join(r, "%s%d.%d" % (kind, rid, nid))
    w(os.path.join(p, "uuid"), "\n")
    w(os.path.join(p, "mode"), "none\n")
    w(os.path.join(p, "align"), "2097152\n")
    w(os.path.join(p, "supported_alignments"), "4096 2097152 1073741824 \n")
    w(os.path.join(p, "namespace"), "\n")
    w(os.path.join(p, "modalias"), "nd:t%d\n" % (nstype if kind == "pfn" else 7))
    w(os.path.join(p, "devtype"), "nd_%s\n" % kind)
    w(os.path.join(p, "numa_node"), "0\n")
    w(os.path.join(p, "target_node"), "0\n")
    return p


def claim_by_pfn(r, rid, n, kind, nid, uuid, loc, align, start, nbytes, disk=None,
                 dax_major=252):
    """namespace directory N claimed by KIND (pfn/dax) RID.NID, enabled:
    pfn -> nd_pmem with DISK; dax -> dax_pmem with its dax_region and
    the device-dax instance daxRID.<namespace id> (6.1's dax bus layout)"""
    nsname = os.path.basename(n)
    nsid = int(nsname.split(".")[1])
    w(os.path.join(n, "mode"), ("memory" if kind == "pfn" else "dax") + "\n")
    w(os.path.join(n, "holder"), "%s%d.%d\n" % (kind, rid, nid))
    w(os.path.join(n, "holder_class"), kind + "\n")
    if os.path.lexists(os.path.join(n, "driver")):
        os.unlink(os.path.join(n, "driver"))
    p = pfn_dax_seed(r, rid, kind, nid, 5)
    w(os.path.join(p, "uuid"), uuid + "\n")
    w(os.path.join(p, "mode"), loc + "\n")
    w(os.path.join(p, "align"), "%d\n" % align)
    w(os.path.join(p, "namespace"), nsname + "\n")
    w(os.path.join(p, "resource"), "%#x\n" % start)
    w(os.path.join(p, "size"), "%d\n" % nbytes)
    if kind == "pfn":
        bind(p, "nd_pmem")
        w(os.path.join(p, "block", disk, "size"), "%d\n" % (nbytes // 512))
        return p
    bind(p, "dax_pmem")
    g = os.path.join(p, "dax_region")
    w(os.path.join(g, "id"), "%d\n" % rid)
    w(os.path.join(g, "size"), "%d\n" % nbytes)
    w(os.path.join(g, "align"), "%d\n" % align)
    w(os.path.join(g, "available_size"), "0\n")
    d = os.path.join(p, "dax%d.%d" % (rid, nsid))
    w(os.path.join(d, "dev"), "%d:%d\n" % (dax_major, nsid))
    w(os.path.join(d, "size"), "%d\n" % nbytes)
    w(os.path.join(d, "align"), "%d\n" % align)
    w(os.path.join(d, "resource"), "%#x\n" % start)
    w(os.path.join(d, "numa_node"), "0\n")
    w(os.path.join(d, "target_node"), "0\n")
    w(os.path.join(d, "modalias"), "dax:t0\n")
    w(os.path.join(d, "uevent"), "MAJOR=%d\nMINOR=%d\nDEVNAME=dax%d.%d\n"
      % (dax_major, nsid, rid, nsid))
    w(os.path.join(d, "mapping0", "start"), "%#x\n" % start)
    w(os.path.join(d, "mapping0", "end"), "%#x\n" % (start + nbytes - 1))
    w(os.path.join(d, "mapping0", "page_offset"), "0x0\n")
    w(sysdir("bus/dax/drivers/device_dax/bind"), "")
    link(os.path.join(d, "driver"), rel(d, sysdir("bus/dax/drivers/device_dax")))
    link(os.path.join(d, "subsystem"), rel(d, sysdir("bus/dax")))
    link(sysdir("bus/dax/devices", os.path.basename(d)), rel(sysdir("bus/dax/devices"), d))
    link(sysdir("dev/char", "%d:%d" % (dax_major, nsid)), rel(sysdir("dev/char"), d))
    # the /dev node libdaxctl (and ours) look for: a char device as root,
    # else a plain file (enough for ours)
    import stat
    node = os.path.join(ROOT, "dev", os.path.basename(d))
    try:
        os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(dax_major, nsid))
    except OSError:
        open(node, "w").close()
    return p


def qemu_dax():
    drivers(["nd_bus", "nvdimm", "nd_region", "nd_pmem", "dax_pmem"])
    bus = make_bus("LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00", 0, "ACPI.NFIT", 246)
    make_dimm(bus, 0, 245, 0x1, 0x0, 0x8680, 0x0100, 0x0100, 0x56341200, "cmd_call ")
    make_dimm(bus, 1, 245, 0x2, 0x1, 0x8680, 0x0100, 0x0100, 0x57341200,
              "get_size get_data set_data cmd_call ", slots=506, flags="label ")
    M = 1 << 20
    r0 = make_region(bus, 0, 512 * M, 4, [(0, 0, 512 * M, 0)], range_index=1,
                     resource=0x140000000)
    make_ns(r0, 0, 0, 4, 512 * M, blockdev="pmem0", resource=0x140000000)
    base = 0x160000000
    r1 = make_region(bus, 1, 512 * M, 5, [(1, 0, 512 * M, 0)], range_index=2,
                     cookie=0x5f4f3a2b1c0d0e01, avail=192 * M, resource=base)
    sel = "[512] 4096 "
    n0 = make_ns(r1, 1, 0, 5, 128 * M, uuid="3c0a5c1e-1111-4a6b-8d9e-0f1a2b3c4d50",
                 name="fs", sector=sel, resource=base, enabled=False)
    claim_by_pfn(r1, 1, n0, "pfn", 0, "8e5f6a7b-2222-4c3d-9e0f-1a2b3c4d5e61", "pmem",
                 2 * M, base + 4 * M, 124 * M, disk="pmem1")
    n1 = make_ns(r1, 1, 1, 5, 128 * M, uuid="3c0a5c1e-1111-4a6b-8d9e-0f1a2b3c4d51",
                 sector=sel, resource=base + 128 * M, enabled=False)
    claim_by_pfn(r1, 1, n1, "dax", 0, "9f6a7b8c-3333-4d4e-8f10-2b3c4d5e6f72", "pmem",
                 2 * M, base + 132 * M, 124 * M)
    n2 = make_ns(r1, 1, 2, 5, 64 * M, uuid="3c0a5c1e-1111-4a6b-8d9e-0f1a2b3c4d52",
                 name="ram", sector=sel, resource=base + 256 * M, enabled=False)
    claim_by_pfn(r1, 1, n2, "pfn", 1, "a07b8c9d-4444-4e5f-9a21-3c4d5e6f7a83", "ram",
                 4096, base + 256 * M + 8192, 64 * M - 8192, disk="pmem1.2")
    make_ns(r1, 1, 3, 5, 0, sector="512 4096 ", enabled=False)
    w(os.path.join(r1, "namespace_seed"), "namespace1.3\n")
    # the seeds moved on: pfn1.0 and pfn1.1, dax1.0 are in use
    w(os.path.join(r1, "pfn_seed"), "pfn1.2\n")
    w(os.path.join(r1, "dax_seed"), "dax1.1\n")
    pfn_dax_seed(r1, 1, "pfn", 2, 5)
    pfn_dax_seed(r1, 1, "dax", 1, 5)


def nfit_test():
    drivers(["nvdimm", "nd_region", "nd_pmem", "nd_blk"])
    bus = make_bus("platform/nfit_test.0", 0, "nfit_test.0", 247,
                   commands="ars_cap ars_start ars_status clear_error cmd_call ")
    handles = [0x0, 0x1, 0x100, 0x101]
    for i, h in enumerate(handles):
        make_dimm(bus, i, 248, h, i, 0xcdab, 0x0000, 0x0000,
                  (~h) & 0xffffffff,
                  "smart smart_thresh get_size get_data set_data vendor cmd_call ",
                  uid="cdab-0a-0000-%08x" % ((~h) & 0xffffffff), slots=1015)
    M = 1 << 20
    r0 = make_region(bus, 0, 32 * M, 5, [(0, 0, 16 * M, 0), (1, 0, 16 * M, 1)],
                     range_index=1, cookie=0x1234567890abcdef, avail=32 * M,
                     align=0x1000)
    make_ns(r0, 0, 0, 5, 0, enabled=False)
    r1 = make_region(bus, 1, 64 * M, 5, [(i, 16 * M, 16 * M, i) for i in range(4)],
                     range_index=2, cookie=0x0fedcba987654321, avail=64 * M,
                     align=0x1000)
    make_ns(r1, 1, 0, 5, 0, enabled=False)
    for i in range(4):
        rid = 2 + i
        r = make_region(bus, rid, 32 * M, 6, [(i, 0, 32 * M, 0)], blk=True,
                        range_index=0, avail=32 * M, align=0x1000)
        make_ns(r, rid, 0, 6, 0, sector=BLK_SIZES, enabled=False)
    bus1 = make_bus("platform/nfit_test.1", 1, "nfit_test.1", 247, commands="")
    r6 = make_region(bus1, 6, 32 * M, 4, [], range_index=1, align=0x1000)
    make_ns(r6, 6, 0, 4, 32 * M, blockdev="pmem6", resource=0x1000000000)


def nfit_test_blk():
    nfit_test()
    bus = sysdir("devices", "platform/nfit_test.0", "ndbus0")
    M = 1 << 20

    def region(rid, used):
        r = os.path.join(bus, "region%d" % rid)
        for f in ("available_size", "max_available_extent"):
            w(os.path.join(r, f), "%d\n" % (32 * M - used))
        w(os.path.join(r, "namespace_seed"), "namespace%d.1\n" % rid)
        make_ns(r, rid, 1, 6, 0, sector=BLK_SIZES, enabled=False)
        return r

    r2 = region(2, 8 * M)
    n = make_ns(r2, 2, 0, 6, 8 * M, uuid="b1c2d3e4-0000-4000-8000-000000000020",
                name="blk2.0", sector=sizes_sel(520), enabled=True)
    # a 520-byte format: 8 MiB / 576-byte stride, 512-byte logical blocks
    os.makedirs(os.path.join(n, "block", "ndblk2.0"), exist_ok=True)
    w(os.path.join(n, "block", "ndblk2.0", "size"), "%d\n" % (8 * M // 576))

    r3 = region(3, 24 * M)
    n = make_ns(r3, 3, 0, 6, 24 * M, uuid="b1c2d3e4-0000-4000-8000-000000000030",
                name="blk3.0", sector=sizes_sel(4096), enabled=False)
    claim_by_btt(r3, 3, n, "b1c2d3e4-0000-4000-8000-0000000003b7", 4096,
                 6032 * 4096, 6, "ndblk3.0s", "nd_blk")

    r4 = region(4, 4 * M)
    make_ns(r4, 4, 0, 6, 4 * M, uuid="b1c2d3e4-0000-4000-8000-000000000040",
            name="blk4.0", sector=sizes_sel(4160), enabled=False)


def many(count):
    """one labelled QEMU-style region carrying COUNT enabled namespaces"""
    drivers(["nd_bus", "nvdimm", "nd_region", "nd_pmem", "nd_btt"])
    bus = make_bus("LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00", 0, "ACPI.NFIT", 246)
    make_dimm(bus, 0, 245, 0x1, 0x0, 0x8680, 0x0100, 0x0100, 0x56341200,
              "get_size get_data set_data cmd_call ", slots=509 - count,
              flags="label ")
    size = 16 << 20
    total = size * (count + 1)
    r = make_region(bus, 0, total, 5, [(0, 0, total, 0)], range_index=1,
                    cookie=0x1122334455667788, avail=size, resource=0x140000000)
    for i in range(count):
        make_ns(r, 0, i, 5, size, uuid="00000000-0000-4000-8000-%012x" % (i + 1),
                name="ns%d" % i, sector="512 4096 ", blockdev="pmem0.%d" % i,
                resource=0x140000000 + i * size)
    make_ns(r, 0, count, 5, 0, sector="512 4096 ", enabled=False)
    w(os.path.join(r, "namespace_seed"), "namespace0.%d\n" % count)


def main():
    global ROOT
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    ROOT = os.path.abspath(sys.argv[1])
    plat = sys.argv[2]
    os.makedirs(sysdir(), exist_ok=True)
    os.makedirs(os.path.join(ROOT, "dev"), exist_ok=True)
    if plat == "qemu":
        qemu()
    elif plat == "qemu-labelled":
        qemu(labelled=True)
    elif plat == "qemu-btt":
        qemu_btt()
    elif plat == "qemu-dax":
        qemu_dax()
    elif plat == "qemu-shared":
        qemu_shared()
    elif plat == "nfit_test":
        nfit_test()
    elif plat == "nfit_test-blk":
        nfit_test_blk()
    elif plat.startswith("many"):
        many(int(plat[4:] or 128))
    else:
        print("unknown platform " + plat, file=sys.stderr)
        return 2
    if "--dev" in sys.argv[3:]:
        make_dev_nodes()
    return 0


def make_dev_nodes():
    """nmemN nodes as char 1:3 plus a 128 KiB nmemN.lsa image for DIMMs with
    label commands (served by fake_ioctl.c)"""
    import glob
    import stat
    for d in sorted(glob.glob(sysdir("devices", "**", "nmem[0-9]*"), recursive=True)):
        name = os.path.basename(d)
        w(os.path.join(d, "dev"), "1:3\n")
        node = os.path.join(ROOT, "dev", name)
        if not os.path.exists(node):
            os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        with open(os.path.join(d, "commands")) as f:
            if "get_size" in f.read():
                with open(node + ".lsa", "wb") as f:
                    f.truncate(128 * 1024)


if __name__ == "__main__":
    sys.exit(main())
