#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""No stock consumer left behind (issue 27): every module of Debian's kernel
tree that needs libnvdimm, and so stops loading once the DKMS package puts
our libnvdimm first, must be

  shipped   a module of the same name in our production build: in
            kernel/Makefile's MODULES, in packaging/dkms.conf.in and built
            in MODULES_DIR (build/modules), or
  loading   able to load against ours: every symbol it takes from a module
            we replace is exported by ours with the same symbol version
            (CRC), the check the kernel makes at load time ("disagrees about
            version of symbol", "Unknown symbol"); the guest test
            prov-consumers loads these for real.

No exception: cxl_pmem, the last one (issue 31), is ours since the
package builds it (with the CXL headers of the kernel's own source).

The consumers are the modules whose modules.dep line (transitive) names
libnvdimm, plus every stock module of drivers/nvdimm/ and drivers/acpi/nfit/
whatever its symbols: those read libnvdimm's private structures (stock
nd_virtio reads struct nd_region's provider_data and imports no libnvdimm
symbol), so only our own build of them is safe; loading is not enough.

Prints TAP, then "stock-consumers: N passed, N failed, N skipped".

Environment: STOCK_MODDIR KDIR (default: build/kernel.mk), MODULES_DIR
(build/modules), CONSUMERS_OUT (default build/stock-consumers.txt: one
"name<TAB>verdict<TAB>symbols<TAB>why" line per consumer, verdict shipped,
loads, missing or layout, symbols the load prediction loads,
fails or "-" for shipped ones; the guest test prov-consumers checks the
prediction against the kernel).
"""

import lzma
import os
import re
import struct
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# stock directories whose modules use libnvdimm's private structures
LAYOUT_DIRS = ("kernel/drivers/nvdimm/", "kernel/drivers/acpi/nfit/")


def modname(path):
    return os.path.basename(path).split(".ko")[0].replace("-", "_")


def mk_get(name):
    try:
        for line in open(os.path.join(TOP, "build", "kernel.mk")):
            m = re.match(r"^%s := (.*)$" % name, line)
            if m:
                return m.group(1).strip()
    except OSError:
        pass
    return ""


# ------------------------------------------------------------------ ELF ---

def read_ko(path):
    data = open(path, "rb").read()
    if path.endswith(".xz"):
        data = lzma.decompress(data)
    return data


def elf_sections(data):
    """{name: (offset, size, index)} and the raw headers of a 64-bit LE
    relocatable object."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF object")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = hdrs[shstrndx][4]

    def cstr(off):
        return data[off:data.index(b"\0", off)].decode()
    secs = {}
    for i, h in enumerate(hdrs):
        secs[cstr(stroff + h[0])] = (h[4], h[5], i)
    return secs, hdrs


def elf_symbols(data, secs, hdrs):
    """[(name, shndx, value)] of .symtab."""
    off, size, idx = secs[".symtab"]
    stroff = hdrs[hdrs[idx][6]][4]
    out = []
    for i in range(size // 24):
        st_name, _info, _other, shndx, value, _size = struct.unpack_from(
            "<IBBHQQ", data, off + i * 24)
        if st_name:
            e = data.index(b"\0", stroff + st_name)
            out.append((data[stroff + st_name:e].decode(), shndx, value))
    return out


def imports(path):
    """{symbol: crc} a module takes from others (its __versions table, the
    CRCs the kernel compares at load time; undefined symbols without an
    entry get None)."""
    data = read_ko(path)
    secs, hdrs = elf_sections(data)
    crcs = {}
    if "__versions" in secs:
        off, size, _ = secs["__versions"]
        for i in range(size // 64):
            crc, = struct.unpack_from("<Q", data, off + i * 64)
            raw = data[off + i * 64 + 8:off + i * 64 + 64]
            crcs[raw.split(b"\0", 1)[0].decode()] = crc & 0xffffffff
    out = {}
    for name, shndx, _ in elf_symbols(data, secs, hdrs):
        if shndx == 0:
            out[name] = crcs.get(name)
    return out


def exports(path):
    """{symbol: crc} a module exports (__crc_SYMBOL: its offset in
    __kcrctab[_gpl], the 32-bit CRC stored there)."""
    data = read_ko(path)
    secs, hdrs = elf_sections(data)
    out = {}
    for name, shndx, value in elf_symbols(data, secs, hdrs):
        if name.startswith("__crc_") and 0 < shndx < len(hdrs):
            off = hdrs[shndx][4] + value
            out[name[6:]], = struct.unpack_from("<I", data, off)
    return out


# ----------------------------------------------------------------- lists ---

def makefile_modules():
    text = open(os.path.join(TOP, "kernel", "Makefile")).read()
    text = text.replace("\\\n", " ")
    m = re.search(r"^MODULES\s*:?=(.*)$", text, re.M)
    return {modname(w) for w in m.group(1).split()} if m else set()


def dkms_modules():
    text = open(os.path.join(TOP, "packaging", "dkms.conf.in")).read()
    locs = dict(re.findall(r'^DEST_MODULE_LOCATION\[(\d+)\]="([^"]*)"',
                           text, re.M))
    return {n for i, n in re.findall(r'^BUILT_MODULE_NAME\[(\d+)\]="([^"]+)"',
                                     text, re.M)
            if locs.get(i) == "/updates/dkms"}


def read_moddep(moddir):
    deps = {}
    for line in open(os.path.join(moddir, "modules.dep")):
        if ":" in line:
            mod, rest = line.split(":", 1)
            deps[modname(mod)] = (mod, [modname(d) for d in rest.split()])
    return deps


def read_symvers(kdir):
    """{symbol: exporting module name} of the stock kernel (vmlinux's
    exports as 'vmlinux')."""
    out = {}
    for line in open(os.path.join(kdir, "Module.symvers")):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 3:
            out[f[1]] = modname(f[2])
    return out


# ------------------------------------------------------------------ test ---

class Tap:
    def __init__(self):
        self.n = self.passed = self.failed = self.skipped = 0

    def line(self, ok, desc, directive=None):
        self.n += 1
        if directive:
            self.skipped += 1
        elif ok:
            self.passed += 1
        else:
            self.failed += 1
        print("%s %d - consumers: %s%s" % ("ok" if ok else "not ok", self.n,
                                          desc, " # " + directive
                                          if directive else ""))

    def finish(self):
        print("stock-consumers: %d passed, %d failed%s" % (
            self.passed, self.failed,
            ", %d skipped" % self.skipped if self.skipped else ""))
        return 1 if self.failed else 0


def main():
    stock = os.environ.get("STOCK_MODDIR") or mk_get("STOCK_MODDIR")
    kdir = os.environ.get("KDIR") or mk_get("KDIR")
    ours_dir = os.environ.get("MODULES_DIR") or os.path.join(
        TOP, "build", "modules")
    out_path = os.environ.get("CONSUMERS_OUT") or os.path.join(
        TOP, "build", "stock-consumers.txt")
    tap = Tap()
    if not (stock and os.path.isfile(os.path.join(stock, "modules.dep"))
            and kdir and os.path.isfile(os.path.join(kdir, "Module.symvers"))):
        print("stock-consumers: no stock module tree or Module.symvers "
              "(STOCK_MODDIR=%s KDIR=%s): run make kernel" % (stock, kdir))
        return 1
    if not os.path.isfile(os.path.join(ours_dir, "libnvdimm.ko")):
        tap.line(True, "no %s/libnvdimm.ko" % os.path.relpath(ours_dir, TOP),
                 "SKIP run make modules first")
        return tap.finish()

    deps = read_moddep(stock)
    symvers = read_symvers(kdir)
    in_make, in_dkms = makefile_modules(), dkms_modules()
    built = {modname(f): os.path.join(ours_dir, f)
             for f in os.listdir(ours_dir) if f.endswith(".ko")}
    shipped = in_make & in_dkms & set(built)
    our_exports = {}
    for name in sorted(shipped):
        for sym, crc in exports(built[name]).items():
            our_exports[sym] = (crc, name)

    consumers = sorted(n for n, (rel, d) in deps.items()
                       if n != "libnvdimm" and ("libnvdimm" in d or
                                                rel.startswith(LAYOUT_DIRS)))
    print("# stock %s: %d modules need libnvdimm or live beside it: %s" % (
        os.path.basename(stock.rstrip("/")), len(consumers),
        " ".join(consumers)))
    print("# shipped by us (kernel/Makefile MODULES, dkms.conf, %s): %s" % (
        os.path.relpath(ours_dir, TOP), " ".join(sorted(shipped))))

    # libnvdimm itself first: without it nothing below means anything
    tap.line("libnvdimm" in shipped, "libnvdimm: shipped by us")

    verdict = {}

    def loads(name, seen=()):
        """(True, why) if stock module NAME loads against ours."""
        if name in verdict:
            return verdict[name]
        if name in shipped:
            return (True, "ours")
        if name not in deps:
            return (True, "built in")
        why, via = [], []
        nfrom = 0
        for sym, crc in sorted(imports(os.path.join(stock,
                                                    deps[name][0])).items()):
            owner = symvers.get(sym)
            if owner is None or owner == "vmlinux" or owner == name:
                continue
            if owner in shipped:
                nfrom += 1
                if sym not in our_exports:
                    why.append("Unknown symbol %s (stock %s exports it, "
                               "ours does not)" % (sym, owner))
                elif crc is not None and our_exports[sym][0] != crc:
                    why.append("disagrees about version of symbol %s (stock "
                               "0x%08x, our %s 0x%08x)" % (
                                   sym, crc, owner, our_exports[sym][0]))
            elif owner in consumers and owner not in seen:
                ok, w = loads(owner, seen + (name,))
                w = "needs %s, which does not load" % owner
                if not ok and w not in why:
                    why.append(w)
                elif ok and owner not in via:
                    via.append(owner)
        r = (not why, "; ".join(why) if why else
             ("%d symbol%s from our modules, same versions" % (
                 nfrom, "s" if nfrom != 1 else "") if nfrom else
              "imports no symbol of our modules") +
             ("; needs %s, which loads" % ", ".join(via) if via else ""))
        verdict[name] = r
        return r

    lines = []
    for name in consumers:
        rel = deps[name][0]
        if name in shipped:
            tap.line(True, "%s: shipped by us (%s)" % (
                name, os.path.relpath(built[name], TOP)))
            lines.append((name, "shipped", "-", ""))
            continue
        partly = [w for w, s in (("kernel/Makefile MODULES", in_make),
                                 ("packaging/dkms.conf.in", in_dkms),
                                 (os.path.relpath(ours_dir, TOP), built))
                  if name in s]
        have = " (only in %s)" % ", ".join(partly) if partly else ""
        ok, why = loads(name)
        if rel.startswith(LAYOUT_DIRS):
            tap.line(False, "%s: not shipped%s (stock %s uses libnvdimm's "
                     "private structures: only our build of it is safe; "
                     "symbols: %s)" % (name, have, rel, why))
            lines.append((name, "layout", "loads" if ok else "fails", why))
        else:
            tap.line(ok, "%s: %s%s" % (
                name, "not shipped%s, loads against ours: " % have if ok else
                "not shipped%s and does not load against ours: " % have, why))
            lines.append((name, "loads" if ok else "missing",
                          "loads" if ok else "fails", why))
    try:
        os.makedirs(os.path.dirname(out_path), exist_ok=True)
        with open(out_path, "w") as f:
            for line in lines:
                f.write("\t".join(line) + "\n")
    except OSError as e:
        print("# cannot write %s: %s" % (out_path, e))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
