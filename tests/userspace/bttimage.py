#!/usr/bin/env python3
"""Build and damage BTT images for the check-namespace host tests.

A namespace's raw block device is a regular file in the fake trees
(ROOT/dev/pmemN); this writes a BTT into it the way the kernel lays one
out (shared docs, media-formats.md section 6), independently of
kernel/nvdimm/btt-format.c, and then breaks it in chosen ways.

  bttimage.py make IMAGE SIZE [--start 4096|0] [--lbasize N] [--parent UUID]
                    [--arena BYTES] [--writes N] [--old-log]
      a fresh BTT in a SIZE-byte sparse file, then N writes through the
      lanes (map entries moved, flog entries with advancing sequence
      numbers); --arena splits the BTT into arenas of that size (the
      kernel uses 512 GiB), --old-log puts the second live flog slot at 2
  bttimage.py info IMAGE ARENA        print the arena's fields (key=value)
  bttimage.py break-info IMAGE ARENA  flip a byte in the primary info block
  bttimage.py break-info2 IMAGE ARENA flip a byte in the backup info block
  bttimage.py set-slot IMAGE ARENA LANE SLOT LBA OLD NEW SEQ
  bttimage.py set-seq IMAGE ARENA LANE SLOT SEQ   only the slot's seq
  bttimage.py get-slot IMAGE ARENA LANE SLOT  print lba old new seq
  bttimage.py set-map IMAGE ARENA LBA RAW
  bttimage.py get-map IMAGE ARENA LBA print the raw map entry
  bttimage.py set-flags IMAGE ARENA FLAGS  info and info2 flags, resealed

Numbers may be given in hex (0x...).  The BTT start is found from the
image (version 1.1 at 4096, else 2.0 at 0) for every command but make.
"""
import struct
import sys
import uuid as uuidmod

INFO = 4096
NFREE = 256
ARENA_MAX = 512 << 30
ARENA_MIN = 16 << 20
SIG = b"BTT_ARENA_INFO\0\0"
FMT = "<16s16s16sIHHIIIIIIQQQQQ"	# up to info2off, then padding, checksum


def num(s):
    return int(s, 0)


def fletcher64(b):
    lo = hi = 0
    for (w,) in struct.iter_unpack("<I", b):
        lo = (lo + w) & 0xffffffff
        hi = (hi + lo) & 0xffffffff
    return (hi << 32) | lo


def seal(blk):
    blk = bytearray(blk)
    blk[4088:4096] = bytes(8)
    blk[4088:4096] = struct.pack("<Q", fletcher64(bytes(blk)))
    return bytes(blk)


def pack_info(a, start, parent):
    major, minor = (1, 1) if start == 4096 else (2, 0)
    head = struct.pack(FMT, SIG, bytes(range(0xb0, 0xc0)), parent, a["flags"],
                       major, minor, a["external_lbasize"], a["external_nlba"],
                       a["internal_lbasize"], a["internal_nlba"], NFREE, INFO,
                       a["nextoff"], a["dataoff"], a["mapoff"], a["logoff"],
                       a["info2off"])
    return seal(head + bytes(INFO - len(head)))


def unpack_info(blk):
    f = struct.unpack_from(FMT, blk)
    keys = ("signature", "uuid", "parent_uuid", "flags", "version_major",
            "version_minor", "external_lbasize", "external_nlba",
            "internal_lbasize", "internal_nlba", "nfree", "infosize",
            "nextoff", "dataoff", "mapoff", "logoff", "info2off")
    return dict(zip(keys, f))


def arena_layout(size, lbasize):
    """the inside of an arena of SIZE bytes (media-formats 6.5)"""
    size = size // 4096 * 4096
    ilba = (lbasize + 63) // 64 * 64
    logsize = (NFREE * 64 + 4095) // 4096 * 4096
    avail = size - 2 * INFO - logsize
    inlba = (avail - 4096) // (ilba + 4)
    exnlba = inlba - NFREE
    mapsize = (exnlba * 4 + 4095) // 4096 * 4096
    datasize = avail - mapsize
    mapoff = INFO + datasize
    logoff = mapoff + mapsize
    return dict(flags=0, external_lbasize=lbasize, external_nlba=exnlba,
                internal_lbasize=ilba, internal_nlba=inlba, dataoff=INFO,
                mapoff=mapoff, logoff=logoff, info2off=logoff + logsize,
                size=size)


class Image:
    def __init__(self, path):
        self.path = path
        self.f = open(path, "r+b")

    def read(self, off, n):
        self.f.seek(off)
        return self.f.read(n)

    def write(self, off, b):
        self.f.seek(off)
        self.f.write(b)

    def start(self):
        for s in (4096, 0):
            b = self.read(s, INFO)
            if b[:16] == SIG and struct.unpack_from("<H", b, 52)[0] == (1 if s else 2):
                return s
        sys.exit("bttimage: no BTT info block signature at 4096 or 0")

    def arenas(self):
        """[(absolute arena start, info dict)], following nextoff"""
        s = self.start()
        off, out = s, []
        while True:
            a = unpack_info(self.read(off, INFO))
            out.append((off, a))
            if not a["nextoff"]:
                return out
            off += a["nextoff"]

    def arena(self, idx):
        return self.arenas()[idx]


def make(path, size, start=4096, lbasize=4096, parent=None, arena=ARENA_MAX,
         writes=0, old_log=False):
    with open(path, "wb") as f:
        f.truncate(size)
    img = Image(path)
    pu = uuidmod.UUID(parent).bytes if parent else bytes(16)
    raw = size - start
    off = 0
    second = 2 if old_log else 1
    arenas = []
    while raw - off >= ARENA_MIN:
        asize = min(arena, raw - off)
        a = arena_layout(asize, lbasize)
        left = raw - off - a["size"]
        a["nextoff"] = a["size"] if left >= ARENA_MIN else 0
        base = start + off
        arenas.append((base, a))
        # map all identity (zero), flog lanes initial: lane i owns block
        # external_nlba + i
        log = bytearray(NFREE * 64)
        for i in range(NFREE):
            blk = a["external_nlba"] + i
            struct.pack_into("<IIII", log, i * 64, i, blk, blk, 1)
        img.write(base + a["logoff"], bytes(log))
        info = pack_info(a, start, pu)
        img.write(base + a["info2off"], info)
        img.write(base, info)
        if not a["nextoff"]:
            break
        off += a["size"]
    # writes through the lanes, as the kernel's write path does them
    for base, a in arenas:
        mapv = {}
        lanes = []
        for i in range(NFREE):
            lanes.append(dict(free=a["external_nlba"] + i, seq=1, slot=0))
        x = 12345
        for w in range(writes):
            lane = lanes[w % NFREE]
            x = (x * 1103515245 + 12345) & 0x7fffffff
            premap = x % a["external_nlba"]
            cur = mapv.get(premap)
            old = premap if cur is None else cur & 0x3fffffff
            new = lane["free"]
            nslot = second if lane["slot"] == 0 else 0
            nseq = lane["seq"] % 3 + 1
            lo = base + a["logoff"] + (w % NFREE) * 64 + nslot * 16
            img.write(lo, struct.pack("<IIII", premap, old, new, nseq))
            mapv[premap] = new | 0xc0000000
            lane.update(free=old, seq=nseq, slot=nslot)
        for premap, raw_e in mapv.items():
            img.write(base + a["mapoff"] + premap * 4, struct.pack("<I", raw_e))


def flip(img, off):
    b = img.read(off, 1)
    img.write(off, bytes([b[0] ^ 0x40]))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, path = argv[1], argv[2]
    if cmd == "make":
        size = num(argv[3])
        opts = dict(start=4096, lbasize=4096, parent=None, arena=ARENA_MAX,
                    writes=0, old_log=False)
        rest = argv[4:]
        while rest:
            o = rest.pop(0)
            if o == "--old-log":
                opts["old_log"] = True
                continue
            v = rest.pop(0)
            key = o[2:]
            opts[key] = v if key == "parent" else num(v)
        make(path, size, **opts)
        return 0
    img = Image(path)
    base, a = img.arena(num(argv[3]))
    if cmd == "info":
        print("start=%d" % base)
        for k, v in a.items():
            if isinstance(v, int):
                print("%s=%d" % (k, v))
    elif cmd == "break-info":
        flip(img, base + 200)
    elif cmd == "break-info2":
        flip(img, base + a["info2off"] + 200)
    elif cmd == "set-slot":
        lane, slot, lba, old, new, seq = map(num, argv[4:10])
        img.write(base + a["logoff"] + lane * 64 + slot * 16,
                  struct.pack("<IIII", lba, old, new, seq))
    elif cmd == "set-seq":
        lane, slot, seq = map(num, argv[4:7])
        img.write(base + a["logoff"] + lane * 64 + slot * 16 + 12,
                  struct.pack("<I", seq))
    elif cmd == "get-slot":
        lane, slot = map(num, argv[4:6])
        print("%d %d %d %d" % struct.unpack(
            "<IIII", img.read(base + a["logoff"] + lane * 64 + slot * 16, 16)))
    elif cmd == "set-map":
        lba, raw = num(argv[4]), num(argv[5])
        img.write(base + a["mapoff"] + lba * 4, struct.pack("<I", raw))
    elif cmd == "get-map":
        print("%#x" % struct.unpack("<I", img.read(base + a["mapoff"] + num(argv[4]) * 4, 4))[0])
    elif cmd == "set-flags":
        for off in (base, base + a["info2off"]):
            b = bytearray(img.read(off, INFO))
            struct.pack_into("<I", b, 48, num(argv[4]))
            img.write(off, seal(bytes(b)))
    else:
        print("unknown command " + cmd, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
