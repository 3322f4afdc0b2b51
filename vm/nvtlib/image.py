# SPDX-License-Identifier: GPL-2.0-only
"""The guest's initrd: Debian's busybox, ndctl, kmod and mkfs, the guest
tests and tools, and one module set (stock, ours or test) per image."""

import atexit
import glob
import os
import re
import shutil
import subprocess
import tempfile

from .config import BUILD, GUEST, TOP, VM, die, say


# ------------------------------------------------------------ module sets ---

# What the guest needs from Debian's module tree.  Dependencies are added
# from modules.dep, never the whole tree.  kmem: devdax onlined as system
# RAM (daxctl reconfigure-device --mode=system-ram, us-reconfig-safe)
STOCK_WANT = ["nfit", "libnvdimm", "nd_pmem", "nd_btt", "dax_pmem",
              "device_dax", "kmem", "nd_e820", "virtio_pmem",
              # software machine checks (mce-badrange)
              "mce_inject",
              # CXL (platform cxl; cxl_core and cxl_port are built in)
              "cxl_acpi", "cxl_pci", "cxl_mem", "cxl_pmem"]
INFRA_WANT = ["9p", "9pnet_virtio", "virtio_pci"]   # /out share
# mount -o dax (the DAX tests); crc32c: ext4's metadata_csum and xfs'
# CRCs ask the crypto API for "crc32c" (crc32c_intel needs SSE4.2, which
# TCG's default CPU lacks)
FS_WANT = ["ext4", "xfs", "crc32c_generic"]
# Stock modules that our build replaces (plus whatever build/modules holds).
REPLACED = {"libnvdimm", "nfit", "nd_pmem", "nd_btt"}


def modname(path):
    return os.path.basename(path).split(".ko")[0].replace("-", "_")


def read_moddep(moddir):
    """{name: (relpath, [dep names])} from modules.dep."""
    deps = {}
    for line in open(os.path.join(moddir, "modules.dep")):
        if ":" not in line:
            continue
        mod, rest = line.split(":", 1)
        deps[modname(mod)] = (mod, [modname(d) for d in rest.split()])
    return deps


def closure(deps, want):
    out, todo = set(), list(want)
    while todo:
        m = todo.pop()
        if m in out:
            continue
        if m not in deps:
            continue        # built in, or absent from this kernel
        out.add(m)
        todo.extend(deps[m][1])
    return out


def module_set_files(cfg, mset):
    """([(src, relpath-in-moddir)], missing-reason or None)."""
    deps = read_moddep(cfg.stock_moddir)
    names = closure(deps, STOCK_WANT + INFRA_WANT + FS_WANT)
    extra = []
    ourdir = cfg.module_dir_of(mset)
    if mset == "upstream":
        # upstream's tools/testing/nvdimm build: an oracle, never ours
        if cfg.upstream_skip:
            raise Missing(cfg.upstream_skip, skip=True)
        if not ourdir:
            return None, ("upstream's mock not built (run `make "
                          "upstream-mock`: build/upstream-mock.mk)")
        if cfg.upstream_kver != cfg.kver:
            return None, ("upstream's mock was built for %s, the kernel is "
                          "%s (run `make upstream-mock`)"
                          % (cfg.upstream_kver, cfg.kver))
    if ourdir is not None:
        extra = sorted(glob.glob(os.path.join(ourdir, "*.ko")))
        if not extra:
            shown = os.path.relpath(ourdir, TOP) \
                if os.path.abspath(ourdir).startswith(TOP + os.sep) else ourdir
            return None, "%s/*.ko missing (run `make modules`)" % shown
        drop = REPLACED | {modname(p) for p in extra}
        # drop replaced modules and every stock module that needs one
        changed = True
        while changed:
            changed = False
            for n in sorted(names):
                if n in drop or any(d in drop for d in deps[n][1]):
                    if n not in drop:
                        drop.add(n)
                    names.discard(n)
                    changed = True
    files = [(os.path.join(cfg.stock_moddir, deps[n][0]), deps[n][0])
             for n in sorted(names)]
    files += [(p, "extra/" + os.path.basename(p)) for p in extra]
    return files, None


# Stock modules that need libnvdimm or live beside it (issue 27) and have
# no module of the same name in the image: staged outside the module tree
# (lib/stock-consumers/, where modprobe never finds them) for
# tests/guest/prov-consumers.sh, with the stock dependencies the image
# lacks, their modules.dep lines (deps), the names of the drivers/nvdimm/
# and drivers/acpi/nfit/ ones (layout) and the host's verdicts
# (predicted: tests/host/stock-consumers.py's build/stock-consumers.txt).
CONSUMER_DIRS = ("kernel/drivers/nvdimm/", "kernel/drivers/acpi/nfit/")


def stage_consumers(cfg, stage, files):
    deps = read_moddep(cfg.stock_moddir)
    have = {modname(rel) for _, rel in files}
    cons = sorted(n for n, (rel, d) in deps.items()
                  if n != "libnvdimm" and n not in have and
                  ("libnvdimm" in d or rel.startswith(CONSUMER_DIRS)))
    out = os.path.join(stage, "lib", "stock-consumers")
    os.makedirs(out, exist_ok=True)
    need = set()
    with open(os.path.join(out, "deps"), "w") as f:
        for n in cons:
            f.write("%s: %s\n" % (n, " ".join(deps[n][1])))
            need.add(n)
            need.update(d for d in deps[n][1] if d not in have)
    for n in sorted(need):
        stage_copy(stage, os.path.join(cfg.stock_moddir, deps[n][0]),
                   "lib/stock-consumers/%s.ko" % n)
    with open(os.path.join(out, "layout"), "w") as f:
        f.write("".join(n + "\n" for n in cons
                        if deps[n][0].startswith(CONSUMER_DIRS)))
    pred = os.path.join(BUILD, "stock-consumers.txt")
    if os.path.exists(pred):
        shutil.copy2(pred, os.path.join(out, "predicted"))
    return cons


# -------------------------------------------------------------- initramfs ---

KMOD_LINKS = ["modprobe", "insmod", "rmmod", "lsmod", "modinfo", "depmod"]
# Debian binaries of the DAX tests (scripts/install-deps.sh installs them)
DAX_BINS = ["/usr/bin/daxctl", "/usr/sbin/mke2fs", "/usr/sbin/mkfs.xfs"]
# Debian's keyutils: the master key of the security tests (nt-security)
KEY_BINS = ["/usr/bin/keyctl"]


def ldd_libs(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True)
    libs = []
    for line in out.stdout.splitlines():
        m = re.search(r"=>\s*(/\S+)", line) or \
            re.match(r"\s*(/\S+)\s+\(", line)
        if m:
            libs.append(m.group(1))
    if out.returncode != 0 and not libs:
        die("ldd %s failed: %s" % (binary, out.stderr.strip()))
    return libs


def stage_copy(stage, src, dst):
    """Copy src (dereferenced) to stage/dst."""
    d = os.path.join(stage, dst.lstrip("/"))
    os.makedirs(os.path.dirname(d), exist_ok=True)
    shutil.copy2(os.path.realpath(src), d)


def stage_bins(stage, bins):
    seen = set()
    for b in bins:
        stage_copy(stage, b, b)
        for lib in ldd_libs(b):
            if lib not in seen:
                seen.add(lib)
                stage_copy(stage, lib, lib)


def write_cpio(stage, out, gzip=False):
    """A newc cpio of STAGE; uncompressed unless GZIP: the kernel copies an
    uncompressed archive ~3 s faster than it inflates a gzip'd one under
    TCG (each boot pays it), the host page cache holds either."""
    tmp = "%s.tmp%d" % (out, os.getpid())
    with open(tmp, "wb") as f:
        find = subprocess.Popen("find . -mindepth 1 | LC_ALL=C sort",
                                shell=True, cwd=stage, stdout=subprocess.PIPE)
        cpio = subprocess.Popen(["cpio", "-o", "-H", "newc", "-R", "0:0",
                                 "--quiet"], cwd=stage, stdin=find.stdout,
                                stdout=subprocess.PIPE)
        gz = subprocess.Popen(["gzip", "-1", "-n"] if gzip else ["cat"],
                              stdin=cpio.stdout, stdout=f)
        find.stdout.close()
        cpio.stdout.close()
        if gz.wait() or cpio.wait() or find.wait():
            die("cpio of %s failed" % stage)
    os.replace(tmp, out)


def stage_dir(what):
    """A private staging directory (concurrent harness runs must not share
    one); removed at exit unless NVT_KEEP_STAGE is set."""
    os.makedirs(VM, exist_ok=True)
    d = tempfile.mkdtemp(prefix="stage-%s." % what, dir=VM)
    if not os.environ.get("NVT_KEEP_STAGE"):
        atexit.register(shutil.rmtree, d, True)
    return d


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def build_base(cfg, out):
    stage = stage_dir("base")
    for d in ["proc", "sys", "dev", "tmp", "run", "out", "mnt", "root",
              "etc", "lib/modules", "usr/local/bin"]:
        os.makedirs(os.path.join(stage, d), exist_ok=True)
    busybox = shutil.which("busybox") or "/bin/busybox"
    if subprocess.run(["ldd", busybox], capture_output=True).returncode == 0:
        die("%s is not static: apt-get install busybox-static" % busybox)
    stage_copy(stage, busybox, "bin/busybox")
    applets = subprocess.run([busybox, "--list-full"], capture_output=True,
                             text=True, check=True).stdout.split()
    for a in applets:
        if os.path.basename(a) in KMOD_LINKS or a == "bin/busybox":
            continue
        p = os.path.join(stage, a)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if not os.path.lexists(p):
            os.symlink(os.path.relpath(os.path.join(stage, "bin/busybox"),
                                       os.path.dirname(p)), p)
    # kmod (libkmod is what ndctl uses too), Debian's ndctl and daxctl 76.1,
    # mke2fs and mkfs.xfs (the DAX tests; busybox's mke2fs stays in /sbin,
    # behind /usr/sbin in PATH)
    kmod = os.path.realpath(shutil.which("kmod") or "/bin/kmod")
    stage_bins(stage, ["/usr/bin/ndctl", kmod] + DAX_BINS + KEY_BINS)
    # where ndctl 76.1 keeps the DIMMs' key blobs (setup-passphrase)
    os.makedirs(os.path.join(stage, "etc/ndctl/keys"), exist_ok=True)
    os.symlink("mke2fs", os.path.join(stage, "usr/sbin/mkfs.ext4"))
    stage_copy(stage, "/etc/mke2fs.conf", "/etc/mke2fs.conf")
    if kmod != "/bin/kmod":
        stage_copy(stage, kmod, "/bin/kmod")
    for l in KMOD_LINKS:
        os.symlink("../bin/kmod", os.path.join(stage, "sbin", l))
    # guest side of the harness
    shutil.copy2(os.path.join(TOP, "vm", "init"), os.path.join(stage, "init"))
    os.chmod(os.path.join(stage, "init"), 0o755)
    shutil.copytree(GUEST, os.path.join(stage, "nvt"),
                    ignore=shutil.ignore_patterns("tools", "*.py", "plan",
                                                  "__pycache__"))
    for t in glob.glob(os.path.join(BUILD, "guest-tools", "*")):
        stage_copy(stage, t, "usr/local/bin/" + os.path.basename(t))
    # our libndctl + ndctl (userspace/), beside Debian's, and the guest
    # scripts of its tests; each us-NAME test runs tests/userspace/guest/NAME.sh
    ours = os.path.join(BUILD, "bin", "ndctl")
    if os.path.exists(ours):
        stage_copy(stage, ours, "opt/ours/bin/ndctl")
        for lib in glob.glob(os.path.join(BUILD, "lib", "libndctl.so*")):
            stage_copy(stage, lib, "opt/ours/lib/" + os.path.basename(lib))
    usg = os.path.join(TOP, "tests", "userspace", "guest")
    for sh in glob.glob(os.path.join(usg, "*.sh")):
        stage_copy(stage, sh, "nvt/us/" + os.path.basename(sh))
        if os.path.basename(sh) == "common.sh":
            continue
        name = os.path.basename(sh)[:-3]
        with open(os.path.join(stage, "nvt", "us-%s.sh" % name), "w") as f:
            f.write(". /nvt/lib.sh\n"
                    "sh /nvt/us/%s.sh /opt/ours/bin/ndctl /usr/bin/ndctl\n"
                    % name)
    with open(os.path.join(stage, "etc", "passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/sh\n")
    with open(os.path.join(stage, "etc", "group"), "w") as f:
        f.write("root:x:0:\n")
    write_cpio(stage, out)


def build_fio(cfg, out):
    stage = stage_dir("fio")
    stage_bins(stage, ["/usr/bin/fio"])
    write_cpio(stage, out, gzip=True)     # ~80 MB of libraries


def build_peer(cfg, out):
    """ndctl v76.1's test suite as scripts/peer-suite.sh staged it: /peer
    (its binaries, libraries, scripts, tests.txt, env) and the tools and
    shared libraries its scripts need that base.cpio lacks."""
    if cfg.peer_skip:
        raise Missing("ndctl's test suite: %s" % cfg.peer_skip, skip=True)
    if not cfg.peer_stage or \
            not os.path.exists(os.path.join(cfg.peer_stage, "peer",
                                            "tests.txt")):
        raise Missing("ndctl's test suite not built (run `make check-peer` "
                      "or scripts/peer-suite.sh: build/peer-suite.mk)")
    write_cpio(cfg.peer_stage, out)


def build_modules(cfg, mset, out):
    files, why = module_set_files(cfg, mset)
    if files is None:
        return why
    stage = stage_dir("mods-" + mset)
    mdir = os.path.join(stage, "lib", "modules", cfg.kver)
    for f in ["modules.order", "modules.builtin", "modules.builtin.modinfo"]:
        src = os.path.join(cfg.stock_moddir, f)
        if os.path.exists(src):
            stage_copy(stage, src, os.path.join(mdir, f)[len(stage):])
    for src, rel in files:
        stage_copy(stage, src, os.path.join(mdir, rel)[len(stage):])
    if mset != "stock":
        cons = stage_consumers(cfg, stage, files)
        say("image: %d stock consumers of libnvdimm not in set %s -> "
            "/lib/stock-consumers/ (prov-consumers)" % (len(cons), mset))
    r = subprocess.run(["depmod", "-b", stage, cfg.kver], capture_output=True,
                       text=True)
    if r.returncode:
        die("depmod for set %s failed: %s" % (mset, r.stderr))
    for line in r.stderr.splitlines():
        say("image: depmod(%s): %s" % (mset, line.replace(stage, "")))
    with open(os.path.join(VM, "modules-%s.txt" % mset), "w") as f:
        for src, rel in files:
            f.write("%s\t%s\n" % (rel, src))
    write_cpio(stage, out)
    return None


_images = {}


def image(cfg, mset, fio=False, peer=False):
    """Path of the initrd for a module set, or raise Missing.  PEER: with
    ndctl v76.1's test suite (peer.cpio, make check-peer)."""
    key = (mset, fio, peer)
    if key in _images:
        return _images[key]
    vm = VM
    os.makedirs(vm, exist_ok=True)
    base = os.path.join(vm, "base.cpio")
    if "base" not in _images:
        tools = os.path.join(BUILD, "guest-tools")
        if not glob.glob(os.path.join(tools, "*")):
            die("no guest tools in %s: run `make tools`" % tools)
        say("image: busybox + ndctl/daxctl 76.1 + kmod + mkfs + tests -> %s"
            % os.path.relpath(base, TOP))
        build_base(cfg, base)
        _images["base"] = base
    mods = os.path.join(vm, "mods-%s.cpio" % mset)
    if ("mods", mset) not in _images:
        say("image: module set '%s' (%s) -> %s"
            % (mset, cfg.kver, os.path.relpath(mods, TOP)))
        why = build_modules(cfg, mset, mods)
        if why:
            raise Missing(why)
        _images[("mods", mset)] = mods
    parts = [base, mods]
    if fio:
        fiog = os.path.join(vm, "fio.cpio.gz")
        if "fio" not in _images:
            say("image: fio + libraries -> %s" % os.path.relpath(fiog, TOP))
            build_fio(cfg, fiog)
            _images["fio"] = fiog
        parts.append(fiog)
    if peer:
        peerc = os.path.join(vm, "peer.cpio")
        if "peer" not in _images:
            say("image: ndctl v76.1's test suite -> %s"
                % os.path.relpath(peerc, TOP))
            build_peer(cfg, peerc)
            _images["peer"] = peerc
        parts.append(peerc)
    out = os.path.join(vm, "initrd-%s%s%s.img" % (
        mset, "-fio" if fio else "", "-peer" if peer else ""))
    tmp = "%s.tmp%d" % (out, os.getpid())
    with open(tmp, "wb") as f:
        for p in parts:
            with open(p, "rb") as src:
                shutil.copyfileobj(src, f)
    os.replace(tmp, out)
    _images[key] = out
    return out


class Missing(Exception):
    """A module set cannot be had.  SKIP: for a reason outside the
    project (upstream's source not available), reported as skipped."""

    def __init__(self, msg, skip=False):
        super().__init__(msg)
        self.skip = skip

