#!/usr/bin/env python3
"""nvt: host side of the libnvdimm build-and-boot harness.

Sub-commands (normally called from the top-level Makefile):

  image  --set SET [--fio]          build build/vm/initrd-SET[-fio].img
  boot   --name N --set SET ...     boot one VM, stream its console, log it
  run    [--set SET] [--interactive]  boot, show the topology (or a shell)
  check  [--sets stock,ours]        run the boots of tests/guest/plan, print
                                    "N passed, N failed, N skipped"
  bench [--blk]                     fio on /dev/pmem0 and its BTT, ours vs stock;
                                    --blk: BLK vs PMEM namespaces on nfit_test

Everything it needs comes from build/kernel.mk (written by
scripts/fetch-kernel.sh); each of its variables can be overridden from the
environment (make passes them through), see Config below.  Only the Python
standard library is used.
"""

import argparse
import atexit
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, "build")
GUEST = os.path.join(TOP, "tests", "guest")

# where console logs and the guests' /out shares go (overridable so that
# another tier can keep its runs apart)
LOGS = os.environ.get("NVT_LOGS") or os.path.join(BUILD, "logs")
DEFAULT_GUEST_OUT = os.path.join(BUILD, "guest-out")
GUEST_OUT = os.environ.get("NVT_GUEST_OUT") or DEFAULT_GUEST_OUT
# initrd images, staging and NVDIMM backing files (a tier with another
# kernel must not boot, or overwrite, make check's images and backing files)
VM = os.environ.get("NVT_VM") or os.path.join(BUILD, "vm")

MiB = 1 << 20
KiB = 1 << 10

# ---------------------------------------------------------------- config ---


class Config:
    """Kernel, module sets and VM knobs.  Environment overrides kernel.mk.

    KVER, VMLINUZ, STOCK_MODDIR  kernel under test (a debug kernel is just
                                 other values for these three)
    VMLINUX                      uncompressed VMLINUZ (optional, boots faster)
    MODULES_DIR                  our production modules   (build/modules)
    TEST_MODULES_DIR             our test-build modules   (build/test-modules)
    NVT_TIMEOUT                  hard timeout of one boot, seconds (900)
    NVT_ACCEL                    tcg (default); kvm is opt-in only
    NVT_MEM, NVT_SMP             guest RAM and CPUs
    NVT_APPEND                   extra kernel command line
    NVT_QEMU_ARGS                extra QEMU arguments
    NVT_JOBS                     `check`: boot groups (same backing files,
                                 run in plan order) run this many at a time
                                 (default 1; 2 with NVT_SMP=1 doubles the
                                 throughput of a 2-core host: a guest's
                                 tests hardly use a second vCPU)
    NVT_LOGS, NVT_GUEST_OUT, NVT_VM   console logs, /out shares, images and
                                 backing files (default build/logs,
                                 build/guest-out, build/vm); a tier sets all
                                 three (make check-debug: build/*-debug)
    """

    def __init__(self):
        mk = {}
        path = os.path.join(BUILD, "kernel.mk")
        if os.path.exists(path):
            for line in open(path):
                m = re.match(r"^\s*([A-Z_]+)\s*:?=\s*(.*?)\s*$", line)
                if m:
                    mk[m.group(1)] = m.group(2)

        def get(key, default=None):
            v = os.environ.get(key)
            return v if v else mk.get(key, default)

        self.kver = get("KVER")
        self.vmlinuz = get("VMLINUZ")
        # the uncompressed vmlinux (PVH boot, faster under TCG) is used
        # unless VMLINUZ was overridden without also giving VMLINUX
        self.vmlinux = get("VMLINUX")
        if os.environ.get("VMLINUZ") and \
                os.environ.get("VMLINUZ") != mk.get("VMLINUZ") and \
                not os.environ.get("VMLINUX"):
            self.vmlinux = None
        self.kernel = self.vmlinux if self.vmlinux and \
            os.path.exists(self.vmlinux) else self.vmlinuz
        self.stock_moddir = get("STOCK_MODDIR")
        self.modules_dir = get("MODULES_DIR", os.path.join(BUILD, "modules"))
        self.test_modules_dir = get("TEST_MODULES_DIR",
                                    os.path.join(BUILD, "test-modules"))
        self.timeout = int(get("NVT_TIMEOUT", "900"))
        self.accel = get("NVT_ACCEL", "tcg")
        self.mem = get("NVT_MEM", "1G")
        self.smp = get("NVT_SMP", "2")
        self.append = get("NVT_APPEND", "")
        self.qemu_args = get("NVT_QEMU_ARGS", "").split()
        if not (self.kver and self.vmlinuz and self.stock_moddir):
            die("no kernel configured: run `make kernel` (build/kernel.mk)")
        if not os.path.exists(self.kernel):
            die("kernel image %s missing: run `make kernel`" % self.kernel)

    def module_dir_of(self, mset):
        """Directory of our own .ko files for a module set (None: stock)."""
        return {"stock": None, "ours": self.modules_dir,
                "test": self.test_modules_dir}[mset]


def die(msg):
    print("nvt: error: " + msg, file=sys.stderr)
    sys.exit(2)


def say(msg):
    print(msg, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# ------------------------------------------------------------ module sets ---

# What the guest needs from Debian's module tree.  Dependencies are added
# from modules.dep, never the whole tree.
STOCK_WANT = ["nfit", "libnvdimm", "nd_pmem", "nd_btt", "dax_pmem",
              "device_dax"]
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


# -------------------------------------------------------------- initramfs ---

KMOD_LINKS = ["modprobe", "insmod", "rmmod", "lsmod", "modinfo", "depmod"]
# Debian binaries of the DAX tests (scripts/install-deps.sh installs them)
DAX_BINS = ["/usr/bin/daxctl", "/usr/sbin/mke2fs", "/usr/sbin/mkfs.xfs"]


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


def write_cpio(stage, out):
    tmp = "%s.tmp%d" % (out, os.getpid())
    with open(tmp, "wb") as f:
        find = subprocess.Popen("find . -mindepth 1 | LC_ALL=C sort",
                                shell=True, cwd=stage, stdout=subprocess.PIPE)
        cpio = subprocess.Popen(["cpio", "-o", "-H", "newc", "-R", "0:0",
                                 "--quiet"], cwd=stage, stdin=find.stdout,
                                stdout=subprocess.PIPE)
        gz = subprocess.Popen(["gzip", "-1", "-n"], stdin=cpio.stdout,
                              stdout=f)
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
    stage_bins(stage, ["/usr/bin/ndctl", kmod] + DAX_BINS)
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
    write_cpio(stage, out)


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


def image(cfg, mset, fio=False):
    """Path of the initrd for a module set, or raise Missing."""
    key = (mset, fio)
    if key in _images:
        return _images[key]
    vm = VM
    os.makedirs(vm, exist_ok=True)
    base = os.path.join(vm, "base.cpio.gz")
    if "base" not in _images:
        tools = os.path.join(BUILD, "guest-tools")
        if not glob.glob(os.path.join(tools, "*")):
            die("no guest tools in %s: run `make tools`" % tools)
        say("image: busybox + ndctl/daxctl 76.1 + kmod + mkfs + tests -> %s"
            % os.path.relpath(base, TOP))
        build_base(cfg, base)
        _images["base"] = base
    mods = os.path.join(vm, "mods-%s.cpio.gz" % mset)
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
    out = os.path.join(vm, "initrd-%s%s.img" % (mset, "-fio" if fio else ""))
    tmp = "%s.tmp%d" % (out, os.getpid())
    with open(tmp, "wb") as f:
        for p in parts:
            with open(p, "rb") as src:
                shutil.copyfileobj(src, f)
    os.replace(tmp, out)
    _images[key] = out
    return out


class Missing(Exception):
    pass


# -------------------------------------------------------------- platforms ---

# Each platform: NVDIMM devices (name, pmem size, label size) and whether the
# guest must load nfit_test.  QEMU carves the label area from the end of the
# memory backend, so the backing file is pmem size + label size.
PLATFORMS = {
    "qemu": {"nvdimms": [("nvdimm0", 512 * MiB, 0),
                         ("nvdimm1", 512 * MiB, 128 * KiB)]},
    "nfit_test": {"nvdimms": []},
}


def backing_dir(group):
    return os.path.join(VM, "backing", group)


def prepare_backing(platform, group, fresh, import_from=None):
    """The NVDIMM backing files of GROUP: zeroed when FRESH (or missing),
    else as the group's previous boot left them; IMPORT_FROM: a directory
    with a saved copy of them to start from instead."""
    d = backing_dir(group)
    os.makedirs(d, exist_ok=True)
    if import_from:
        for f in glob.glob(os.path.join(d, "*.img")):
            os.unlink(f)
        for f in sorted(glob.glob(os.path.join(import_from, "*.img"))):
            run(["cp", "--sparse=always", f, d])
    files = []
    for name, size, label in PLATFORMS[platform]["nvdimms"]:
        p = os.path.join(d, name + ".img")
        total = size + label
        if fresh or not os.path.exists(p) or os.path.getsize(p) != total:
            if os.path.exists(p):
                os.unlink(p)
            with open(p, "wb") as f:
                f.truncate(total)       # sparse, reads as zeroes
        files.append((name, p, total, label))
    return files


def qemu_cmd(cfg, initrd, platform, backing, append, outdir, interactive,
             logfile):
    cmd = ["qemu-system-x86_64", "-accel", cfg.accel, "-smp", cfg.smp,
           "-machine", "pc,nvdimm=on" if backing else "pc",
           "-m", "%s,slots=4,maxmem=8G" % cfg.mem,
           "-kernel", cfg.kernel, "-initrd", initrd, "-append", append,
           "-no-reboot", "-nic", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"] + \
        cfg.qemu_args
    for i, (name, path, size, label) in enumerate(backing):
        cmd += ["-object", "memory-backend-file,id=mem%d,share=on,"
                "mem-path=%s,size=%d" % (i, path, size),
                "-device", "nvdimm,id=nv%d,memdev=mem%d%s" %
                (i, i, ",label-size=%d" % label if label else "")]
    if outdir:
        cmd += ["-fsdev", "local,id=out,path=%s,security_model=none" % outdir,
                "-device", "virtio-9p-pci,fsdev=out,mount_tag=out"]
    if interactive:
        cmd += ["-display", "none",
                "-chardev", "stdio,id=con,mux=on,signal=off,logfile=%s"
                % logfile,
                "-serial", "chardev:con", "-mon", "chardev=con"]
    else:
        cmd += ["-display", "none", "-serial", "stdio", "-monitor", "none"]
    return cmd


# ----------------------------------------------------------------- boot ----

# The guest's nvt-exit writes EXIT_BASE + rc to isa-debug-exit, QEMU exits
# with ((EXIT_BASE + rc) << 1) | 1; anything else is QEMU's own status.
EXIT_BASE = 0x20

# kernel reports (tests/guest/lib.sh's NVT_DMESG_BAD, as console lines)
KERNEL_REPORT_RE = re.compile(
    r"\]\s+(?:[\w-]+: )?(WARNING:|BUG:|Oops|general protection fault|"
    r"UBSAN|kernel BUG|INFO: |ODEBUG:|DEBUG_LOCKS_WARN_ON|possible circular)")

TAP_RE = re.compile(r"^(not ok|ok)\b\s*(\d*)\s*(?:-\s*)?(.*)$")


class BootResult:
    def __init__(self, name):
        self.name = name
        self.tap = []           # (status, desc) status in pass/fail/skip
        self.problem = None     # boot-level failure text
        self.first_test = None  # seconds from QEMU start
        self.wall = 0.0
        self.cpu = None         # CPU seconds QEMU used (user + system)
        self.guest_rc = None
        self.lines = []


def parse_tap(line):
    m = TAP_RE.match(line)
    if not m:
        return None
    desc = m.group(3)
    if m.group(1) == "ok":
        if re.search(r"#\s*skip", desc, re.I):
            return ("skip", desc)
        return ("pass", desc)
    if re.search(r"#\s*todo", desc, re.I):
        return ("skip", desc)
    return ("fail", desc)


def boot(cfg, name, mset, platform="qemu", tests=(), backing_group=None,
         fresh=False, mode="test", interactive=False, timeout=None,
         fio=False, echo=True, import_from=None):
    """Boot one VM.  Returns a BootResult (never raises for guest trouble)."""
    res = BootResult(name)
    try:
        initrd = image(cfg, mset, fio=fio)
    except Missing as e:
        res.problem = "module set '%s': %s" % (mset, e)
        return res
    logs = LOGS
    os.makedirs(logs, exist_ok=True)
    logfile = os.path.join(logs, name + ".log")
    outdir = fresh_dir(os.path.join(GUEST_OUT, name))
    backing = prepare_backing(platform, backing_group or name, fresh,
                              import_from) \
        if PLATFORMS[platform]["nvdimms"] else []
    # no_timer_check: a loaded host can make TCG miss the IO-APIC timer
    # check, which panics the guest ("IO-APIC + timer doesn't work!")
    append = ("console=ttyS0 loglevel=4 panic=-1 no_timer_check "
              "nvt.name=%s nvt.set=%s nvt.platform=%s nvt.mode=%s "
              "nvt.tests=%s" % (name, mset, platform, mode,
                                ",".join(tests) or "-"))
    if cfg.append:
        append += " " + cfg.append
    cmd = qemu_cmd(cfg, initrd, platform, backing, append, outdir,
                   interactive, logfile)
    with open(os.path.join(logs, name + ".cmd"), "w") as f:
        f.write(" ".join("'%s'" % c if " " in c else c for c in cmd) + "\n")
    timeout = timeout or cfg.timeout
    say("boot: %s (set %s, platform %s, %s) log %s"
        % (name, mset, platform, "interactive" if interactive else
           "%d tests" % len(tests) if mode == "test" else mode,
           os.path.relpath(logfile, TOP)))
    t0 = time.time()
    if interactive:
        say("boot: QEMU monitor/console multiplexed: Ctrl-A X quits, "
            "Ctrl-A C switches to the monitor")
        rc = subprocess.run(cmd).returncode
        res.wall = time.time() - t0
        res.guest_rc = (rc >> 1) - EXIT_BASE if rc & 1 else None
        return res

    full = ["timeout", "-k", "10", str(timeout)] + cmd
    done = False
    ndiag = 0
    with open(logfile, "wb") as log:
        p = subprocess.Popen(full, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for raw in p.stdout:
            log.write(raw)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            line = line.replace("\r", "")
            res.lines.append(line)
            if line.startswith("# nvt: test ") and res.first_test is None:
                res.first_test = time.time() - t0
                log.flush()
            if line.startswith("# nvt: done"):
                done = True
            t = parse_tap(line)
            if t:
                res.tap.append(t)
                ndiag = 12 if t[0] == "fail" else 0
            elif line.startswith("#   ") and ndiag > 0:
                # indented diagnostics right after a failure
                ndiag -= 1
                if echo:
                    say("  [%s] %s" % (name, line))
                continue
            else:
                ndiag = 0
            if echo and (t or line.startswith("# nvt:")) and \
                    not line.startswith("# nvt: dmesg "):
                say("  [%s] %s" % (name, line))
        # wait4: the CPU time of timeout + QEMU (the work a boot needs,
        # whatever else the host is running; its wall time is not)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = rc = os.waitstatus_to_exitcode(status)
        res.cpu = ru.ru_utime + ru.ru_stime
    res.wall = time.time() - t0
    if rc in (124, 137):
        res.problem = "timed out after %d s (hard timeout)" % timeout
    elif rc & 1 and (rc >> 1) >= EXIT_BASE:
        res.guest_rc = (rc >> 1) - EXIT_BASE
        if not done:
            res.problem = "guest exited (%d) before the end of its tests" \
                % res.guest_rc
    else:
        tail = "; ".join(l for l in res.lines[-40:]
                         if re.search(r"Kernel panic|BUG:|Oops|"
                                      r"not syncing|qemu-system", l))[:300]
        res.problem = "QEMU exited %d without the guest's exit code " \
            "(QEMU error, panic or reboot?) %s" % (rc, tail)
    if res.problem is None and res.guest_rc and \
            not any(s == "fail" for s, _ in res.tap):
        res.problem = "guest exit code %d without a failing test" \
            % res.guest_rc
    if res.problem and not done:
        # the guest's dmesg check never ran: name the kernel's first report
        first = next((l for l in res.lines if KERNEL_REPORT_RE.search(l)),
                     None)
        if first:
            res.problem += "; first kernel report: " + first.strip()[:200]
    say("boot: %s finished in %.1f s (QEMU CPU %.0f s)%s%s" % (
        name, res.wall, res.cpu,
        ", first test after %.1f s" % res.first_test
        if res.first_test is not None else "",
        " -- " + res.problem if res.problem else ""))
    return res


# ----------------------------------------------------------------- plan ----

def read_plan(path):
    """Lines of tests/guest/plan, see the comment at its top."""
    boots, compares = [], []
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        kind = line[0]
        if kind == "boot" and len(line) >= 5:
            name, mset, platform, back = line[1:5]
            group, _, flag = back.partition(":")
            boots.append({"name": name, "set": mset, "platform": platform,
                          "group": group, "fresh": flag == "fresh",
                          "tests": line[5:]})
        elif kind == "compare" and len(line) == 5:
            compares.append({"script": line[1], "file": line[2],
                             "a": line[3], "b": line[4]})
        else:
            die("%s:%d: cannot parse" % (path, n))
    return boots, compares


SUMMARY_RE = re.compile(r"^(?:\w+:\s*)?(\d+) passed, (\d+) failed"
                        r"(?:, (\d+) skipped)?\s*$")


def host_summary(path, failed, counts):
    """Fold the host suites' own "N passed, N failed" lines into counts
    (one such line per suite)."""
    text = open(path, errors="replace").read()
    found = [m for m in (SUMMARY_RE.match(l.strip()) for l in text.splitlines())
             if m]
    nfail = 0
    for m in found:
        counts["pass"] += int(m.group(1))
        counts["fail"] += int(m.group(2))
        counts["skip"] += int(m.group(3) or 0)
        nfail += int(m.group(2))
    if not found:
        if not failed:
            counts["pass"] += 1     # ran, passed, printed no summary
        return False
    return not (failed and not nfail)   # failed outside its tests: count it


def read_boot_list(path):
    """A boot list (tests/guest/plan-debug): boot names of the plan, one
    per line, '#' comments; returns the names in file order."""
    names = []
    for line in open(path):
        names += line.split("#", 1)[0].split()
    return names


def saved_backing(name, vm=None):
    """Where `check` keeps a copy of a group's backing files as boot NAME
    left them (see cmd_check)."""
    return os.path.join(vm or VM, "backing-saved", name)


def save_backing(name, group):
    """Copy the backing files of GROUP (sparse) to saved_backing(NAME)."""
    src = backing_dir(group)
    dst = saved_backing(name)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    for f in sorted(glob.glob(os.path.join(src, "*.img"))):
        run(["cp", "--sparse=always", f, dst])
    say("check: saved the backing files %s left for the next boot of "
        "group %s -> %s" % (name, group, os.path.relpath(dst, TOP)))


def cmd_check(cfg, args):
    t0 = time.time()
    boots, compares = read_plan(args.plan)
    plan = list(boots)
    sets = args.sets.split(",") if args.sets else None
    only = read_boot_list(args.boots) if args.boots else None
    results = []        # (boot, status, desc)
    if only:
        known = {b["name"] for b in plan}
        for n in only:
            if n not in known:
                results.append(("plan", "skip", "boot %s # SKIP %s names "
                                "it, %s does not have it" % (n,
                                    os.path.relpath(args.boots, TOP),
                                    os.path.relpath(args.plan, TOP))))
    # The boot before each one in its backing-file group, and after it.
    prev, nxt, last = {}, {}, {}
    for b in plan:
        p = last.get(b["group"])
        if p is not None and not b["fresh"]:
            prev[b["name"]] = p
            nxt[p["name"]] = b
        last[b["group"]] = b
    # A boot that continues the backing files of a boot this run leaves out
    # (label-ns-ours after label-ns-stock, for a run of one set or of a
    # boot list) starts from the copy a full `make check` saved of them
    # (build/vm/backing-saved/<previous boot>/); without one it is skipped.
    kept = []
    for b in plan:
        if (sets and b["set"] not in sets) or (only and b["name"] not in only):
            continue
        p = prev.get(b["name"])
        b["import"] = None
        if p is not None and p["name"] not in {k["name"] for k in kept}:
            snap = saved_backing(p["name"], os.path.join(BUILD, "vm"))
            if glob.glob(os.path.join(snap, "*.img")):
                b["import"] = (p["name"], snap)
            else:
                results.append((b["name"], "skip", "%s # SKIP continues the "
                                "backing files of %s (set %s), not booted by "
                                "this run, and %s has no copy of them (run "
                                "`make check` first)" % (
                                    " ".join(b["tests"]), p["name"], p["set"],
                                    os.path.relpath(snap, TOP))))
                continue
        kept.append(b)
    boots = kept
    counts = {"pass": 0, "fail": 0, "skip": 0}   # from other runners
    failed_steps = args.failed_steps.split()
    summarized = False
    if args.host_log and os.path.exists(args.host_log):
        summarized = host_summary(args.host_log,
                                  "host-check" in failed_steps, counts)
    for step in failed_steps:
        if step == "host-check" and summarized:
            continue        # its own failures are already counted
        results.append(("build", "fail", "make %s failed (see above)" % step))
    done = {}
    firsts = []

    def run_group(group):
        """Boot a group's boots in plan order: [(index, results, r)]."""
        out, missing = [], False
        for i, b in group:
            res, r = [], None
            say("check: boot %d of %d: %s" % (i, len(boots), b["name"]))
            if b["set"] == "ours" and "modules" in failed_steps:
                res.append((b["name"], "fail", "not booted: make modules "
                            "failed"))
                missing = True
            elif missing:
                res.append((b["name"], "fail", "not booted: its first boot "
                            "(same backing files) could not run"))
            else:
                if b["import"]:
                    say("check: %s starts from the backing files %s left "
                        "in the last `make check` (%s, saved %s)" % (
                            b["name"], b["import"][0],
                            os.path.relpath(b["import"][1], TOP),
                            time.strftime("%H:%M %d %b", time.localtime(
                                os.path.getmtime(b["import"][1])))))
                r = boot(cfg, b["name"], b["set"], b["platform"], b["tests"],
                         b["group"], b["fresh"], timeout=args.timeout,
                         import_from=b["import"] and b["import"][1])
                n = nxt.get(b["name"])
                if n is not None and n["set"] != b["set"] and \
                        r.first_test is not None and \
                        PLATFORMS[b["platform"]]["nvdimms"]:
                    save_backing(b["name"], b["group"])
                for st, desc in r.tap:
                    res.append((b["name"], st, desc))
                if r.problem:
                    res.append((b["name"], "fail", r.problem))
                    if r.first_test is None and not r.tap:
                        missing = True
                ran = {d.split(":")[0] for _, d in r.tap}
                for t in b["tests"]:
                    if t not in ran and not r.problem:
                        res.append((b["name"], "fail",
                                    "%s: produced no TAP line" % t))
            out.append((i, res, r))
        return out

    groups = {}
    for i, b in enumerate(boots, 1):
        groups.setdefault(b["group"], []).append((i, b))
    jobs = max(1, int(os.environ.get("NVT_JOBS") or 1))
    if jobs == 1:
        outs = [run_group(g) for g in groups.values()]
    else:
        for mset in sorted({b["set"] for b in boots}):
            try:
                image(cfg, mset)    # built once, before the threads start
            except Missing:
                pass                # boot() reports it
        # the biggest groups first, so that the last one to start is a
        # short one: a boot list gives the order (its first boot of each
        # group), otherwise the number of tests estimates the length
        if only:
            order = sorted(groups.values(), key=lambda g: min(
                only.index(b["name"]) for _, b in g))
        else:
            order = sorted(groups.values(), key=lambda g: -sum(
                3 + len(b["tests"]) for _, b in g))
        say("check: %d boot groups, %d at a time" % (len(order), jobs))
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            outs = list(ex.map(run_group, order))
    for i, res, r in sorted((x for o in outs for x in o),
                            key=lambda x: x[0]):
        results.extend(res)
        if r is not None:
            done[r.name] = r
            if r.first_test is not None:
                firsts.append(r.first_test)
    names = [b["name"] for b in boots]
    for c in compares:
        sides = (c["a"], c["b"])
        if not any(x in names for x in sides):
            continue
        # A tier with its own NVT_GUEST_OUT (make check-debug) boots only
        # some of the boots: the other side of a compare (the stock oracle)
        # is the output the last `make check` left in build/guest-out/.
        if not all(x in names for x in sides) and \
                GUEST_OUT == DEFAULT_GUEST_OUT:
            continue
        fa, fb = [os.path.join(GUEST_OUT if x in names else
                               DEFAULT_GUEST_OUT, x, c["file"])
                  for x in sides]
        saved = [(x, f) for x, f in zip(sides, (fa, fb)) if x not in names]
        gone = [os.path.relpath(f, TOP) for x, f in saved
                if not os.path.exists(f)]
        if gone:
            results.append(("host", "skip", "compare %s %s vs %s # SKIP %s "
                            "not booted here and %s missing (run `make "
                            "check` first)" % (c["file"], c["a"], c["b"],
                                               saved[0][0], gone[0])))
            continue
        say("check: host compare %s %s vs %s%s" % (
            c["file"], c["a"], c["b"], "".join(
                " (%s: saved by make check at %s)" % (x, time.strftime(
                    "%H:%M %d %b", time.localtime(os.path.getmtime(f))))
                for x, f in saved)))
        r = subprocess.run([sys.executable, os.path.join(GUEST, c["script"]),
                            fa, fb], capture_output=True, text=True)
        name = "host"
        got = False
        for line in (r.stdout + r.stderr).splitlines():
            t = parse_tap(line)
            if t:
                got = True
                results.append((name, t[0], t[1]))
                say("  [host] " + line)
            elif line.strip():
                say("  [host] # " + line)
        if not got or (r.returncode and
                       not any(s == "fail" for _, s, _ in results)):
            results.append((name, "fail", "%s exited %d" % (c["script"],
                                                            r.returncode)))

    npass = sum(1 for _, s, _ in results if s == "pass") + counts["pass"]
    nfail = sum(1 for _, s, _ in results if s == "fail") + counts["fail"]
    nskip = sum(1 for _, s, _ in results if s == "skip") + counts["skip"]
    if any(counts.values()):
        say("check: host unit tests: %(pass)d passed, %(fail)d failed, "
            "%(skip)d skipped (included below)" % counts)
    if nfail:
        say("check: failures (console logs: %s/<boot>.log):"
            % os.path.relpath(LOGS, TOP))
        for bname, s, desc in results:
            if s == "fail":
                say("  FAIL [%s] %s" % (bname, desc))
    if nskip:
        say("check: skipped:")
        for bname, s, desc in results:
            if s == "skip":
                say("  SKIP [%s] %s" % (bname, desc))
    if firsts:
        say("check: boot-to-first-test %.1f s (min %.1f, max %.1f); "
            "guest boots took %.0f s of %.0f s (QEMU CPU %.0f s)"
            % (sum(firsts) / len(firsts), min(firsts), max(firsts),
               sum(r.wall for r in done.values()), time.time() - t0,
               sum(r.cpu or 0 for r in done.values())))
    line = "%d passed, %d failed" % (npass, nfail)
    if nskip:
        line += ", %d skipped" % nskip
    print(line, flush=True)
    return 1 if nfail or not npass else 0


def cmd_run(cfg, args):
    mset = args.set
    if mset == "ours":
        try:
            image(cfg, "ours")
        except Missing as e:
            say("run: our modules are not built (%s): booting Debian's "
                "stock modules instead (make run SET=stock to silence this)"
                % e)
            mset = "stock"
    if args.interactive:
        r = boot(cfg, "run-%s" % mset, mset, args.platform, (),
                 "run-" + mset, False, mode="shell", interactive=True)
        return 0
    r = boot(cfg, "run-%s" % mset, mset, args.platform, (),
             "run-" + mset, False, mode="run", echo=False,
             timeout=args.timeout)
    show = False
    for line in r.lines:
        if line.startswith("# nvt: show begin"):
            show = True
            continue
        if line.startswith("# nvt: show end"):
            show = False
        if show:
            print(line)
    if r.problem:
        say("run: " + r.problem)
        return 1
    return 0


def cmd_boot(cfg, args):
    tests = args.tests.split(",") if args.tests else []
    r = boot(cfg, args.name, args.set, args.platform, tests,
             args.backing or args.name, args.fresh, mode=args.mode,
             interactive=args.interactive, timeout=args.timeout,
             fio=args.fio)
    if r.problem:
        say("boot: " + r.problem)
    fails = sum(1 for s, _ in r.tap if s == "fail")
    return 1 if r.problem or fails else 0


# ---------------------------------------------------------------- bench ----

BENCH_JOBS = ["seq-read-1M", "seq-write-1M", "rand-read-4K", "rand-write-4K",
              "btt-rand-read-4K", "btt-rand-write-4K",
              "fsdax-rand-read-4K", "fsdax-rand-write-4K",
              "dax-ext4-mmap-seq-read-1M", "dax-ext4-mmap-seq-write-1M",
              "dax-ext4-mmap-rand-read-4K", "dax-ext4-mmap-rand-write-4K",
              "devdax-seq-read-1M", "devdax-seq-write-1M",
              "devdax-rand-read-4K", "devdax-rand-write-4K"]


def cmd_bench(cfg, args):
    """Alternate ours and stock boots for a few rounds; the figure per job
    is the median of the per-round ours/stock ratios.

    By default the guest runs with -icount shift=0,sleep=off: its clock
    advances one nanosecond per executed instruction, so fio's figures are
    bytes (or I/Os) per guest instruction and do not depend on how busy
    the host is (under plain TCG, wall-clock figures of two boots differed
    by up to 2x on a loaded host).  icount needs a single vCPU.
    NVT_BENCH_WALL=1 measures wall-clock time instead."""
    wall = os.environ.get("NVT_BENCH_WALL") == "1"
    rounds = max(1, int(os.environ.get("NVT_BENCH_ROUNDS",
                                       "3" if wall else "1")))
    if not wall:
        cfg.smp = "1"
        cfg.qemu_args = cfg.qemu_args + ["-icount", "shift=0,sleep=off"]
    say("bench: %s, %d round(s) per module set" % (
        "wall-clock time" if wall else
        "instruction-counted time (-icount shift=0: 1 ns per instruction)",
        rounds))
    if args.blk:
        return bench_blk(cfg, args, rounds)
    res = {}
    for rnd in range(rounds):
        for mset in (["ours", "stock"] if rnd % 2 == 0 else ["stock", "ours"]):
            name = "bench-%s" % mset
            say("bench: round %d of %d: %s modules" % (rnd + 1, rounds, mset))
            r = boot(cfg, name, mset, "qemu", (), name, True, mode="bench",
                     fio=True, timeout=args.timeout)
            if r.problem:
                say("bench: %s: %s" % (mset, r.problem))
                continue
            read_bench(name, rnd, res, lambda job: (mset, job))
    return bench_table(res, "ours", "stock", BENCH_JOBS, rounds)


def read_bench(name, rnd, res, key):
    """Add boot @name's bench.txt lines ("job value unit") to @res as
    res[key(job)][rnd] = (value, unit); key() returns None to skip."""
    path = os.path.join(GUEST_OUT, name, "bench.txt")
    if not os.path.exists(path):
        say("bench: %s: no results (%s)" % (name, path))
        return
    for line in open(path):
        f = line.split()
        if len(f) == 3 and key(f[0]):
            res.setdefault(key(f[0]), {})[rnd] = (float(f[1]), f[2])


def bench_table(res, a, b, jobs, rounds):
    """Print a/b per job (res keyed (a|b, job)): the medians over the
    rounds that have both, and each round's ratio; 0 when every job has
    figures."""
    def median(v):
        v = sorted(v)
        n = len(v)
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2

    say("bench: %-28s %14s %14s %10s   (median of %d rounds)" %
        ("job", a, b, "%s/%s" % (a, b), rounds))
    ok = True
    for job in jobs:
        o, s = res.get((a, job), {}), res.get((b, job), {})
        both = [r for r in o if r in s and s[r][0]]
        if not both:
            ok = False
            say("bench: %-28s %14s %14s %10s" % (job, "-", "-", "-"))
            continue
        unit = o[both[0]][1]
        ratios = [o[r][0] / s[r][0] for r in both]
        say("bench: %-28s %14s %14s %10.2f   rounds: %s" % (
            job, "%.0f %s" % (median([o[r][0] for r in both]), unit),
            "%.0f %s" % (median([s[r][0] for r in both]), unit),
            median(ratios), " ".join("%.2f" % x for x in ratios)))
    return 0 if ok else 1


def bench_blk(cfg, args, rounds):
    """BLK against PMEM on nfit_test (the test build): the same fio jobs
    on a 16 MiB BLK namespace (every byte through a block window) and a
    16 MiB PMEM namespace of the same mock bus, in one boot per round;
    the figure is the median blk/pmem ratio (the aperture costs a copy
    and three register accesses per command: reported, not a floor)."""
    res = {}
    for rnd in range(rounds):
        name = "bench-blk"
        say("bench: round %d of %d: BLK and PMEM on nfit_test" % (rnd + 1, rounds))
        r = boot(cfg, name, "test", "nfit_test", (), name, True, mode="bench",
                 fio=True, timeout=args.timeout)
        if r.problem:
            say("bench: %s" % r.problem)
            continue
        read_bench(name, rnd, res,
                   lambda f: tuple(f.split("-", 1)) if "-" in f else None)
    return bench_table(res, "blk", "pmem", BENCH_JOBS[:4], rounds)


# ----------------------------------------------------------------- main ----

def main():
    ap = argparse.ArgumentParser(prog="nvt")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("image")
    p.add_argument("--set", default="stock")
    p.add_argument("--fio", action="store_true")
    p = sub.add_parser("boot")
    p.add_argument("--name", required=True)
    p.add_argument("--set", default="stock")
    p.add_argument("--platform", default="qemu", choices=sorted(PLATFORMS))
    p.add_argument("--tests", default="")
    p.add_argument("--backing")
    p.add_argument("--fresh", action="store_true")
    p.add_argument("--mode", default="test",
                   choices=["test", "run", "shell", "bench"])
    p.add_argument("--interactive", action="store_true")
    p.add_argument("--fio", action="store_true")
    p.add_argument("--timeout", type=int)
    p = sub.add_parser("run")
    p.add_argument("--set", default="ours")
    p.add_argument("--platform", default="qemu", choices=sorted(PLATFORMS))
    p.add_argument("--interactive", action="store_true")
    p.add_argument("--timeout", type=int)
    p = sub.add_parser("check")
    p.add_argument("--plan", default=os.path.join(GUEST, "plan"))
    p.add_argument("--sets", default="")
    p.add_argument("--boots", help="only the boots this file names "
                   "(tests/guest/plan-debug)")
    p.add_argument("--timeout", type=int)
    p.add_argument("--failed-steps", default="")
    p.add_argument("--host-log")
    p = sub.add_parser("bench")
    p.add_argument("--timeout", type=int)
    p.add_argument("--blk", action="store_true",
                   help="BLK against PMEM on nfit_test (make bench-blk)")
    args = ap.parse_args()
    cfg = Config()
    if args.cmd == "image":
        try:
            say(image(cfg, args.set, fio=args.fio))
        except Missing as e:
            die(str(e))
        return 0
    return {"boot": cmd_boot, "run": cmd_run, "check": cmd_check,
            "bench": cmd_bench}[args.cmd](cfg, args)


if __name__ == "__main__":
    sys.exit(main())
