# SPDX-License-Identifier: GPL-2.0-only
"""Platforms, NVDIMM backing files, the QEMU command line, and one boot:
its console streamed, logged and parsed as TAP."""

import glob
import os
import re
import subprocess
import time

from .acpi import AcpiTableError, acpi_tables
from .config import GUEST_OUT, KiB, LOGS, MiB, TOP, VM, run, say
from .image import Missing, fresh_dir, image


# -------------------------------------------------------------- platforms ---

# Each platform: NVDIMM devices (name, pmem size, label size) and whether the
# guest must load nfit_test.  QEMU carves the label area from the end of the
# memory backend, so the backing file is pmem size + label size.
# "legacy" (the providers without an NFIT): RAM the kernel command line
# marks persistent (memmap=SIZE!START: an e820 type-12 range, nd_e820; in
# the middle of the 1G guest, away from the kernel at 16M and the initrd
# QEMU loads at the top) and a virtio-pmem-pci device over a backing file
# (virtio_pmem: the "nvdimms" entry of kind "virtio", no label area).
PLATFORMS = {
    "qemu": {"nvdimms": [("nvdimm0", 512 * MiB, 0),
                         ("nvdimm1", 512 * MiB, 128 * KiB)]},
    "nfit_test": {"nvdimms": []},
    "legacy": {"nvdimms": [("vpmem0", 256 * MiB, None)],
               "append": "memmap=128M!256M"},
    # bad input for the same providers: a second legacy range that is
    # not page aligned (start 512M + 2K), and a virtio-pmem device of a
    # size that is a multiple of pages, not of sections or of 2M (QEMU
    # itself refuses a size of 0 or of a page fraction)
    "legacy-bad": {"nvdimms": [("vpmem0", 100 * MiB + 4 * KiB, None)],
                   "append": "memmap=128M!256M memmap=0x1001000!0x20000800"},
    # CXL persistent memory (issue 31, docs cxl-pmem.md): a q35 machine
    # with a CXL host bridge (pxb-cxl), two root ports (the second stays
    # empty: with one, 6.1 gives the host bridge a passthrough decoder
    # 7.2 cannot route, and the region's writes are lost) and a type-3
    # device with persistent memory and a label storage area, each a
    # file (entry: name, pmem size, ("cxl", LSA size)), behind a 4G fixed
    # memory window.  No region at boot: 6.1 does not assemble one, the
    # tests create it through sysfs (tests/guest/cxl.inc).
    "cxl": {"nvdimms": [("cxlmem0", 256 * MiB, ("cxl", 128 * KiB))]},
}


def is_cxl(entry):
    """A CXL type-3 device of PLATFORMS (its label field is a tuple)."""
    return isinstance(entry[3], tuple)


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
        if isinstance(label, tuple):
            # CXL: the pmem and the label storage area are two files
            lsa = os.path.join(d, name + "-lsa.img")
            for f, n in ((p, size), (lsa, label[1])):
                if fresh or not os.path.exists(f) or \
                        os.path.getsize(f) != n:
                    if os.path.exists(f):
                        os.unlink(f)
                    with open(f, "wb") as fh:
                        fh.truncate(n)
            files.append((name, p, size, ("cxl", lsa)))
            continue
        total = size + (label or 0)
        if fresh or not os.path.exists(p) or os.path.getsize(p) != total:
            if os.path.exists(p):
                os.unlink(p)
            with open(p, "wb") as f:
                f.truncate(total)       # sparse, reads as zeroes
        files.append((name, p, total, label))
    return files


def fsync_shim_env(backing, outdir):
    """The environment of a QEMU with a virtio-pmem device: vm/fsync-shim.c
    (built into build/vm/ when missing or older) preloaded, so that the
    guest sees and can fail the host's fsyncs of its backing file through
    its /out share (OUTDIR).  {} without virtio-pmem or /out."""
    vpmem = [b for b in backing if b[3] is None]
    if not vpmem or not outdir:
        return {}
    src = os.path.join(TOP, "vm", "fsync-shim.c")
    so = os.path.join(VM, "fsync-shim.so")
    if not os.path.exists(so) or \
            os.path.getmtime(so) < os.path.getmtime(src):
        os.makedirs(VM, exist_ok=True)
        run(["gcc", "-Wall", "-O2", "-shared", "-fPIC", "-o", so, src,
             "-ldl"])
    env = dict(os.environ)
    env.update({"LD_PRELOAD": so, "NVT_FSYNC_DIR": outdir,
                "NVT_FSYNC_MATCH": "/%s.img" % vpmem[0][0]})
    return env


def qemu_cmd(cfg, initrd, platform, backing, append, outdir, interactive,
             logfile, tables=()):
    cxl = [b for b in backing if is_cxl(b)]
    if cxl:
        machine = "q35,nvdimm=on,cxl=on"
    elif any(b[3] is not None for b in backing):
        machine = "pc,nvdimm=on"
    else:
        machine = "pc"
    cmd = ["qemu-system-x86_64", "-accel", cfg.accel, "-smp", cfg.smp,
           "-machine", machine,
           "-m", "%s,slots=4,maxmem=8G" % cfg.mem,
           "-kernel", cfg.kernel, "-initrd", initrd, "-append", append,
           "-no-reboot", "-nic", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"] + \
        cfg.qemu_args
    if cxl:
        cmd += ["-device", "pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1",
                "-device", "cxl-rp,port=0,bus=cxl.1,id=root_port13,"
                "chassis=0,slot=2",
                "-device", "cxl-rp,port=1,bus=cxl.1,id=root_port14,"
                "chassis=0,slot=3"]
    for i, (name, path, size, label) in enumerate(backing):
        if is_cxl((name, path, size, label)):
            # QEMU 7.2: memdev= (persistent-memdev= came later); the
            # serial number feeds the interleave-set cookie
            cmd += ["-object", "memory-backend-file,id=cxl-mem%d,share=on,"
                    "mem-path=%s,size=%d" % (i, path, size),
                    "-object", "memory-backend-file,id=cxl-lsa%d,share=on,"
                    "mem-path=%s,size=%d" % (i, label[1],
                                             os.path.getsize(label[1])),
                    "-device", "cxl-type3,bus=root_port13,memdev=cxl-mem%d,"
                    "lsa=cxl-lsa%d,id=%s,sn=0x5eed%04x" % (i, i, name, i + 1)]
            continue
        cmd += ["-object", "memory-backend-file,id=mem%d,share=on,"
                "mem-path=%s,size=%d" % (i, path, size)]
        if label is None:
            cmd += ["-device", "virtio-pmem-pci,id=%s,memdev=mem%d"
                    % (name, i)]
        else:
            cmd += ["-device", "nvdimm,id=nv%d,memdev=mem%d%s" %
                    (i, i, ",label-size=%d" % label if label else "")]
    if cxl:
        cmd += ["-M", "cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G"]
    for t in tables:
        cmd += ["-acpitable", "file=%s" % t]
    if outdir:
        cmd += ["-fsdev", "local,id=out,path=%s,security_model=none" % outdir,
                "-device", "virtio-9p-pci,fsdev=out,mount_tag=out%s"
                % (",bus=pcie.0" if cxl else "")]
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

# the guest's clock on its test markers (vm/init's nvt_clock)
MARK_RE = re.compile(r"^# nvt: (?:test \d+ of \d+: (\S+)|(end-of-test checks)) "
                     r"\(uptime ([\d.]+) cpu ([\d.]+)\)")
DONE_CLOCK_RE = re.compile(r"^# nvt: done rc=\d+ uptime=([\d.]+) cpu=([\d.]+)")
TAP_RE = re.compile(r"^(not ok|ok)\b\s*(\d*)\s*(?:-\s*)?(.*)$")


class BootResult:
    def __init__(self, name):
        self.name = name
        self.tap = []           # (status, desc) status in pass/fail/skip
        self.problem = None     # boot-level failure text
        self.skipped = None     # why it was not booted (not a failure)
        self.first_test = None  # seconds from QEMU start
        self.wall = 0.0
        self.cpu = None         # CPU seconds QEMU used (user + system)
        self.guest_rc = None
        self.lines = []
        # (test, guest uptime s, guest busy CPU s, QEMU CPU s) at each
        # test's marker; the QEMU CPU is the host's account (what the
        # test cost whatever else the host runs), the guest's clock is
        # what the guest saw
        self.marks = []
        self.end_clock = None   # (uptime, cpu, QEMU CPU) at the done marker

    def profile(self):
        """(test, wall s, guest CPU s, QEMU CPU s) of each test of the
        boot: from its marker to the next one; "boot and setup" is
        everything before the first test, "end-of-test checks" the debug
        checks and the dmesg check after the last test."""
        out = []
        if self.marks:
            # QEMU's start to the first test: firmware, kernel, /init's
            # module loading (TAP test "setup")
            out.append(("boot and setup",) + self.marks[0][1:])
        ends = self.marks[1:] + ([("", ) + self.end_clock]
                                 if self.end_clock else [])
        for (t, u, c, q), (_, u2, c2, q2) in zip(self.marks, ends):
            out.append((t, u2 - u, c2 - c,
                        q2 - q if q is not None and q2 is not None else None))
        return out


def qemu_cpu(pid):
    """CPU seconds (user + system, all threads) the QEMU child of the
    `timeout` process PID has used so far; None when it cannot be read."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            kids = f.read().split()
        with open("/proc/%s/stat" % kids[0]) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # fields[0] is the state (field 3): utime, stime are fields 14, 15
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


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
        # the test `peer` runs ndctl v76.1's own suite (make check-peer)
        initrd = image(cfg, mset, fio=fio, peer="peer" in tests)
    except Missing as e:
        if e.skip:
            # no stale output of an earlier run for the compares: the
            # share holds only the reason (compare-*.py report a skip)
            outdir = fresh_dir(os.path.join(GUEST_OUT, name))
            with open(os.path.join(outdir, "SKIPPED"), "w") as f:
                f.write("module set '%s': %s\n" % (mset, e))
            res.skipped = "module set '%s': %s" % (mset, e)
            say("boot: %s SKIPPED: %s" % (name, res.skipped))
            return res
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
    # check, which panics the guest ("IO-APIC + timer doesn't work!");
    # rcu_cpu_stall_timeout=60 (Debian's is 21 s; the debug kernel's is
    # 60): a TCG vCPU the host starves for 20 s is not a stall of ours;
    # cryptomgr.notests, initcall_blacklist=crypto_kdf108_init and
    # ipv6.disable=1: Debian's kernel self-tests every crypto algorithm
    # it registers (kdf108 its own, unconditionally) and brings IPv6 up,
    # the slowest initcalls of a boot; the guests have no network and
    # test none of it (the debug kernel is built without both): ~0.6 s of
    # QEMU CPU per boot
    append = ("console=ttyS0 loglevel=4 panic=-1 no_timer_check "
              "rcupdate.rcu_cpu_stall_timeout=60 cryptomgr.notests "
              "initcall_blacklist=crypto_kdf108_init ipv6.disable=1 "
              "nvt.name=%s nvt.set=%s nvt.platform=%s nvt.mode=%s "
              "nvt.tests=%s" % (name, mset, platform, mode,
                                ",".join(tests) or "-"))
    if PLATFORMS[platform].get("append"):
        append += " " + PLATFORMS[platform]["append"]
    if cfg.append:
        append += " " + cfg.append
    try:
        tables = acpi_tables(platform, tests)
    except AcpiTableError as e:
        res.problem = str(e)
        return res
    cmd = qemu_cmd(cfg, initrd, platform, backing, append, outdir,
                   interactive, logfile, tables)
    with open(os.path.join(logs, name + ".cmd"), "w") as f:
        f.write(" ".join("'%s'" % c if " " in c else c for c in cmd) + "\n")
    env = fsync_shim_env(backing, outdir) or None
    timeout = timeout or cfg.timeout
    say("boot: %s (set %s, platform %s, %s) log %s"
        % (name, mset, platform, "interactive" if interactive else
           "%d tests" % len(tests) if mode == "test" else mode,
           os.path.relpath(logfile, TOP)))
    t0 = time.time()
    if interactive:
        say("boot: QEMU monitor/console multiplexed: Ctrl-A X quits, "
            "Ctrl-A C switches to the monitor")
        rc = subprocess.run(cmd, env=env).returncode
        res.wall = time.time() - t0
        res.guest_rc = (rc >> 1) - EXIT_BASE if rc & 1 else None
        return res

    full = ["timeout", "-k", "10", str(timeout)] + cmd
    done = False
    ndiag = 0
    with open(logfile, "wb") as log:
        p = subprocess.Popen(full, stdin=subprocess.DEVNULL, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for raw in p.stdout:
            log.write(raw)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            line = line.replace("\r", "")
            res.lines.append(line)
            if line.startswith("# nvt: test ") and res.first_test is None:
                res.first_test = time.time() - t0
                log.flush()
            m = MARK_RE.match(line)
            if m:
                res.marks.append((m.group(1) or "end-of-test checks",
                                  float(m.group(3)), float(m.group(4)),
                                  qemu_cpu(p.pid)))
                # the log is current at every test (vm/guest-prof.py
                # charges its samples to the test the log shows last)
                log.flush()
            if line.startswith("# nvt: done"):
                done = True
                m = DONE_CLOCK_RE.match(line)
                if m:
                    res.end_clock = (float(m.group(1)), float(m.group(2)),
                                     qemu_cpu(p.pid))
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

