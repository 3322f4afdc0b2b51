#!/usr/bin/env python3
"""Compare the ndctl 76.1 session of ns-interop.sh: stock modules vs ours.

usage: compare-ns-interop.py STOCK/ns-interop.txt OURS/ns-interop.txt  (TAP)
       (or cxl-modes.txt: the dumps are in the directory named like the
       .txt, the same format; tests/guest/cxl-modes.sh)

ns-interop.txt has one line per step, "STEP rc=N nstype=.. available=..
seed=.. slots=.."; next to it, ns-interop/STEP.{out,labels.json,
list.json,dimms.json,area}.  For every step of the stock run, ours must
show the same: command exit code and output, `ndctl read-labels -j`,
`ndctl list -RNu -i`, `ndctl list -D`, region/DIMM values, and the same
bytes in the label area.  A label area that differs is decoded (index
blocks: seq, nslot, offsets, checksum, the in-use slots of the free
bitmap; label slots: every field and the v1.2 checksum) so the report
says which field of which slot differs.

Known differences (deliberate, see compare-label-index.py): stock 6.1
never clears NDD_LABELING once a DIMM had labels, so after zero-labels
(and on a blank area once labels were seen in that boot) its region stays
label-backed (nstype 5, a pmem seed namespace) where ours goes back to
label-less (nstype 4, the io namespace).  Only in that state, and only
at the steps "blank", "*-zero" and "*-zero-enabled", may the two differ,
and then exactly as KNOWN_TXT and KNOWN_LIST say (each value on both
sides): any other value, or one more or one fewer difference, fails.

Every file ns-interop.sh writes at a step must be there on both sides,
and a dump must not be empty (only `read-labels -j` of an area without
an index may be, on both sides).
"""
import json
import os
import struct
import sys

# the label-less state: ns-interop.txt keys -> (stock, ours)
KNOWN_TXT = {"nstype": ("5", "4")}
# ... and the json_diff() lines of `ndctl list -RNu -i` there: the region
# (ndctl shows no free capacity and no interleave-set cookie for an io
# region) and, while the region is enabled, its namespace: stock's idle
# pmem seed, our io namespace over the whole region with its disk
KNOWN_LIST_REGION = [
    '/regions[0]/available_size: stock "512.00 MiB (536.87 MB)", ours 0',
    '/regions[0]/max_available_extent: stock "512.00 MiB (536.87 MB)", ours 0',
    '/regions[0]/iset_id: only in stock ("0xba901c0012b4dd")',
]
KNOWN_LIST_SEED = [
    '/regions[0]/namespaces[0]/size: stock 0, ours "512.00 MiB (536.87 MB)"',
    '/regions[0]/namespaces[0]/uuid: only in stock '
    '("00000000-0000-0000-0000-000000000000")',
    '/regions[0]/namespaces[0]/state: only in stock ("disabled")',
    '/regions[0]/namespaces[0]/blockdev: only in ours ("pmem1")',
]


def known_list(step):
    """the list.json differences of the label-less state at STEP"""
    if step.endswith("-zero"):         # the region is disabled
        return KNOWN_LIST_REGION
    return KNOWN_LIST_REGION + KNOWN_LIST_SEED


def load_txt(path):
    steps, order = {}, []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            kv = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
            steps[parts[0]] = kv
            order.append(parts[0])
    return steps, order


def read(path, mode="r"):
    try:
        with open(path, mode) as f:
            return f.read()
    except OSError:
        return None


def json_diff(a, b, path="", out=None):
    out = [] if out is None else out
    if type(a) != type(b):
        out.append("%s: stock %s, ours %s" % (path or "/", short(a), short(b)))
    elif isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b:
                out.append("%s/%s: only in stock (%s)" % (path, k, short(a[k])))
            elif k not in a:
                out.append("%s/%s: only in ours (%s)" % (path, k, short(b[k])))
            else:
                json_diff(a[k], b[k], "%s/%s" % (path, k), out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append("%s: %d entries in stock, %d in ours" % (path or "/", len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            json_diff(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append("%s: stock %s, ours %s" % (path or "/", short(a), short(b)))
    return out


def short(v):
    s = json.dumps(v, separators=(",", ":"))
    return s if len(s) <= 80 else s[:77] + "..."


# --- the label area (media-formats.md §2-3) ---------------------------------

def index_size(area_size, lsize):
    t = area_size // lsize
    need = 72 + (t + 7) // 8
    return (need + 255) // 256 * 256


def fletcher64(buf, skip):
    lo, hi = 0, 0
    for i in range(0, len(buf) - 3, 4):
        w = 0 if skip <= i < skip + 8 else struct.unpack_from("<I", buf, i)[0]
        lo = (lo + w) & 0xffffffff
        hi = (hi + lo) & 0xffffffff
    return hi << 32 | lo


IDX = (("sig", 0, 16), ("flags", 16, 3), ("labelsize", 19, 1), ("seq", 20, 4),
       ("myoff", 24, 8), ("mysize", 32, 8), ("otheroff", 40, 8),
       ("labeloff", 48, 8), ("nslot", 56, 4), ("major", 60, 2),
       ("minor", 62, 2), ("checksum", 64, 8))
LBL = (("uuid", 0, 16), ("name", 16, 64), ("flags", 80, 4), ("nlabel", 84, 2),
       ("position", 86, 2), ("isetcookie", 88, 8), ("lbasize", 96, 8),
       ("dpa", 104, 8), ("rawsize", 112, 8), ("slot", 120, 4),
       ("align", 124, 1), ("reserved", 125, 3), ("type_guid", 128, 16),
       ("abstraction_guid", 144, 16), ("reserved2", 160, 88),
       ("checksum", 248, 8))


def field(buf, off, n):
    b = buf[off:off + n]
    if n in (1, 2, 4, 8):
        return int.from_bytes(b, "little")
    if all(32 <= c < 127 or c == 0 for c in b):
        return b.rstrip(b"\0").decode()
    return b.hex()


def layout(area):
    """(isize, lsize, nslot) from the first block with a signature."""
    for lsize in (128, 256):
        isize = index_size(len(area), lsize)
        for i in (0, 1):
            blk = area[i * isize:(i + 1) * isize]
            if blk[:16] != b"NAMESPACE_INDEX\0":
                continue
            major, minor = field(blk, 60, 2), field(blk, 62, 2)
            ls = 128 << blk[19] if major * 100 + minor >= 102 else 128
            if ls == lsize:
                return isize, lsize, field(blk, 56, 4)
    return 256, 128, 0


def area_diff(a, b):
    out = []
    if len(a) != len(b):
        return ["size: stock %d, ours %d" % (len(a), len(b))]
    isize, lsize, nslot = layout(a)
    for i in (0, 1):
        x, y = a[i * isize:(i + 1) * isize], b[i * isize:(i + 1) * isize]
        if x == y:
            continue
        for name, off, n in IDX:
            if x[off:off + n] != y[off:off + n]:
                out.append("index%d.%s: stock %s, ours %s"
                           % (i, name, field(x, off, n), field(y, off, n)))
        for blk, who in ((x, "stock"), (y, "ours")):
            if blk[:16] == b"NAMESPACE_INDEX\0" and \
                    fletcher64(blk, 64) != field(blk, 64, 8):
                out.append("index%d: %s's checksum does not verify" % (i, who))
        fx, fy = x[72:], y[72:]
        if fx != fy:
            n = max(nslot, 1)
            used = lambda f: [s for s in range(n) if not f[s // 8] >> (s % 8) & 1]
            ux, uy = used(fx), used(fy)
            if ux != uy:
                out.append("index%d in-use slots: stock %s, ours %s"
                           % (i, ux[:12], uy[:12]))
            else:
                k = next(j for j in range(len(fx)) if fx[j] != fy[j])
                out.append("index%d bitmap/padding byte %d (offset %d): stock %#x, ours %#x"
                           % (i, k, i * isize + 72 + k, fx[k], fy[k]))
    base = 2 * isize
    for s in range((len(a) - base) // lsize):
        x = a[base + s * lsize:base + (s + 1) * lsize]
        y = b[base + s * lsize:base + (s + 1) * lsize]
        if x == y:
            continue
        diffs = ["%s %s/%s" % (name, field(x, off, n), field(y, off, n))
                 for name, off, n in LBL if off + n <= lsize and
                 x[off:off + n] != y[off:off + n]]
        out.append("slot %d (offset %#x) stock/ours: %s"
                   % (s, base + s * lsize, "; ".join(diffs)))
    return out


def expected_files(step, stem="ns-interop"):
    """the dumps ns-interop.sh (cxl-modes.sh) writes at STEP (besides the
    .area; cxl-modes: no read-labels -j, the area's bytes say it all)"""
    if stem == "cxl-modes":
        return ["out", "list.json"]
    files = []
    if step != "blank" and not step.endswith("-zero-enabled"):
        files.append("out")             # run STEP CMD...
    files += ["labels.json", "list.json"]
    if step == "blank" or step.endswith(("-init", "-create2", "-zero-enabled")):
        files.append("dimms.json")
    return files


def has_index(area):
    """a block with the index signature in a label area (None: unread)"""
    if not area:
        return False
    for lsize in (128, 256):
        isize = index_size(len(area), lsize)
        if any(area[i * isize:i * isize + 16] == b"NAMESPACE_INDEX\0"
               for i in (0, 1)):
            return True
    return False


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    try:
        want, order = load_txt(sys.argv[1])
        got, _ = load_txt(sys.argv[2])
    except OSError as e:
        print("not ok 1 - ns-interop-compare: %s" % e)
        return 1
    # the dumps are in the directory named like the .txt (cxl-modes too)
    stem = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    dw = os.path.join(os.path.dirname(sys.argv[1]), stem)
    dg = os.path.join(os.path.dirname(sys.argv[2]), stem)
    n = fails = 0

    def tap(good, desc, detail=()):
        nonlocal n, fails
        n += 1
        if good:
            print("ok %d - %s-compare: %s" % (n, stem, desc))
        else:
            fails += 1
            print("not ok %d - %s-compare: %s" % (n, stem, desc))
            for d in list(detail)[:10]:
                print("#   %s" % d)

    for step in order:
        w = want[step]
        g = got.get(step)
        if g is None:
            tap(False, "%s: step missing in ours" % step)
            continue
        labelless = w.get("nstype") == "5" and g.get("nstype") == "4" and \
            (step == "blank" or step.endswith("-zero") or
             step.endswith("-zero-enabled"))
        diffs, known = [], []
        for k in list(w) + [k for k in g if k not in w]:
            if w.get(k) == g.get(k):
                continue
            d = "%s: stock %s, ours %s" % (k, w.get(k), g.get(k))
            if labelless and KNOWN_TXT.get(k) == (w.get(k), g.get(k)):
                known.append(d)
            else:
                diffs.append(d)
        tap(not diffs, "%s: rc nstype available seed slots%s" % (
            step, " (known: stock keeps NDD_LABELING: %s)" % "; ".join(known)
            if known else ""), diffs)
        aw = read(os.path.join(dw, step + ".area"), "rb")
        ag = read(os.path.join(dg, step + ".area"), "rb")
        for ext in expected_files(step, stem):
            a = read(os.path.join(dw, "%s.%s" % (step, ext)))
            b = read(os.path.join(dg, "%s.%s" % (step, ext)))
            desc = "%s: %s" % (step, ext)
            if a is None or b is None:
                tap(False, "%s: missing in %s" % (desc, " and ".join(
                    w for w, x in (("stock", a), ("ours", b)) if x is None)))
                continue
            if ext.endswith(".json"):
                # an empty dump is no answer: only read-labels of an area
                # without an index may be empty, on both sides
                empty = [w for w, x in (("stock", a), ("ours", b)) if not x.strip()]
                if empty:
                    no_index = ext == "labels.json" and len(empty) == 2 and \
                        not has_index(aw) and not has_index(ag)
                    tap(no_index, "%s: empty on %s%s" % (
                        desc, " and ".join(empty),
                        " (neither label area has an index)" if no_index else ""))
                    continue
                try:
                    ja = json.loads(a)
                    jb = json.loads(b)
                except ValueError as e:
                    tap(a == b, "%s (not JSON: %s)" % (desc, e),
                        ["stock: %s" % a[:200], "ours: %s" % b[:200]])
                    continue
                d = json_diff(ja, jb)
                if d and ext == "list.json" and labelless:
                    want_d = known_list(step)
                    tap(d == want_d, "%s differs as known (label-less on ours): %d "
                        "differences" % (desc, len(d)),
                        ["unexpected: %s" % x for x in d if x not in want_d] +
                        ["missing: %s" % x for x in want_d if x not in d])
                    continue
                tap(not d, desc, d)
            else:
                tap(a == b, desc, ["stock: %s" % a.strip()[:300],
                                   "ours:  %s" % b.strip()[:300]])
        a, b = aw, ag
        if a is None or b is None:
            tap(False, "%s: label area not read on %s" % (step, " and ".join(
                w for w, x in (("stock", a), ("ours", b)) if x is None)))
            continue
        tap(a == b, "%s: label area bytes (%d)" % (step, len(a)),
            area_diff(a, b) if a != b else ())
    if n == 0:
        print("not ok 1 - %s-compare: no steps in the stock run" % stem)
        n = fails = 1
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
