#!/usr/bin/env python3
"""Sampling profiler of a TCG guest's kernel through QEMU's QMP socket.

    NVT_QEMU_ARGS="-qmp unix:/tmp/p.sock,server=on,wait=off" python3 vm/nvt.py boot ... &
    python3 vm/guest-prof.py --sock /tmp/p.sock --map KDIR/System.map \
        --log build/logs-debug/BOOT.log --out /tmp/BOOT.prof

Every 1/HZ s it stops the guest, reads the vCPU's registers (`info
registers`) and walks the kernel stack through the frame pointers (the
debug kernel has CONFIG_UNWINDER_FRAME_POINTER), then lets it run again.
Each sample is kernel (with its call chain), user (CPL 3) or idle (HLT).
With --log, samples are charged to the test whose marker ("# nvt: test
N of M: NAME", "# nvt: end-of-test checks", or a "# prof: NAME" line a
test may print) the console log shows last (the harness flushes the log
at each test marker).  Samples before the kernel runs in long mode (the
firmware) are counted as "no RIP".  The report gives, per test
and in total: the share of user, idle and kernel samples, the checker
families on the kernel stacks (KASAN, kmemleak, lockdep, debugobjects,
stack traces; inclusive: a sample counts for every family on its stack),
the hottest leaf functions and the hottest functions anywhere on the
stack.  Module code is "[module]" (its symbols are not in System.map).
Measurement only: the pauses slow the guest by a few per cent.
"""
import argparse
import bisect
import collections
import json
import re
import socket
import sys
import time

FAMILIES = [
    ("kasan", re.compile(r"^(__)?kasan_|^kasan|^check_memory_region|"
                         r"^__asan_|^qlist_|^quarantine_")),
    ("kmemleak", re.compile(r"kmemleak|^create_object|^delete_object|"
                            r"^scan_block|^scan_gray_list|^__find_and_get_object")),
    ("lockdep", re.compile(r"^lock_acquire|^lock_release|^__lock_acquire|"
                           r"^lock_is_held|^validate_chain|^check_prev_add|"
                           r"^lockdep_|^__lock_release|^mark_lock|"
                           r"^lock_acquired|^lock_contended|^look_up_lock_class|"
                           r"^register_lock_class|^check_noncircular|"
                           r"^trace_hardirqs|^lockdep_hardirqs")),
    ("debugobjects", re.compile(r"^debug_object|^__debug_object|"
                                r"^debug_check_no_obj")),
    ("stacktrace", re.compile(r"^stack_trace_save|^arch_stack_walk|"
                              r"^stack_depot_|^__stack_depot_|^unwind_")),
    ("ubsan", re.compile(r"^__ubsan_")),
    ("printk", re.compile(r"^vprintk|^printk|^console_unlock|"
                          r"^serial8250_|^_printk")),
    ("acpi-aml", re.compile(r"^acpi_ps_|^acpi_ex_|^acpi_ds_|^acpi_ut_")),
    ("fork-exec", re.compile(r"^kernel_clone|^copy_process|^do_execveat|"
                             r"^load_elf_binary|^do_exit|^exit_mmap|"
                             r"^dup_mm|^unmap_vmas|^__x64_sys_execve")),
    ("page-fault", re.compile(r"^exc_page_fault|^handle_mm_fault")),
    ("sysfs", re.compile(r"^kernfs_|^sysfs_")),
]


class Qmp:
    def __init__(self, path):
        for _ in range(600):
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("guest-prof: cannot connect to %s" % path)
        self.f = self.s.makefile("rw")
        self.f.readline()
        self.call("qmp_capabilities")

    def call(self, cmd, **args):
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        self.f.write(json.dumps(msg) + "\n")
        self.f.flush()
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError
            r = json.loads(line)
            if "return" in r:
                return r["return"]
            if "error" in r:
                raise RuntimeError(r["error"])

    def hmp(self, line):
        return self.call("human-monitor-command", **{"command-line": line})


def load_map(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            a, t, n = line.split()[:3]
            if t in "tTwW":
                addrs.append(int(a, 16))
                names.append(n)
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sock", required=True)
    ap.add_argument("--map", required=True)
    ap.add_argument("--log")
    ap.add_argument("--out")
    ap.add_argument("--hz", type=float, default=20)
    ap.add_argument("--depth", type=int, default=32)
    a = ap.parse_args()
    addrs, names = load_map(a.map)
    text_lo = addrs[0]
    text_hi = addrs[-1] + 0x100000

    def sym(x):
        if text_lo <= x < text_hi:
            i = bisect.bisect_right(addrs, x) - 1
            return names[i] if i >= 0 else "?"
        if 0xffffffffa0000000 <= x < 0xffffffffff000000:
            return "[module]"
        return None

    q = Qmp(a.sock)
    samples = []          # (test, kind, [frames leaf first])
    test = "boot and setup"
    logf = open(a.log, errors="replace") if a.log else None
    mark = re.compile(r"# (?:nvt|prof): (?:test \d+ of \d+: (\S+)|(end-of-test checks|\S+))")
    reg = re.compile(r"([A-Z0-9]+)=([0-9a-f]+)")
    period = 1.0 / a.hz
    bad = 0
    last = time.time()
    try:
        while True:
            t0 = time.time()
            if logf:
                for line in logf:
                    m = mark.search(line)
                    if m:
                        test = m.group(1) or m.group(2)
                        if test == "boot":
                            test = "boot and setup"
            q.call("stop")
            try:
                r = q.hmp("info registers")
                regs = dict(reg.findall(r))
                if "RIP" not in regs:
                    bad += 1
                    if bad == 1:
                        print("guest-prof: no RIP in %r" % r[:300],
                              file=sys.stderr)
                elif regs.get("HLT") == "1":
                    samples.append((test, "idle", []))
                elif regs.get("CPL") == "3":
                    samples.append((test, "user", []))
                else:
                    rip = int(regs["RIP"], 16)
                    rbp = int(regs["RBP"], 16)
                    frames = [sym(rip) or "?"]
                    for _ in range(a.depth):
                        if rbp < 0xffff800000000000 or rbp & 7:
                            break
                        out = q.hmp("x /2gx 0x%x" % rbp)
                        v = re.findall(r"0x([0-9a-f]+)", out.split(":", 1)[-1])
                        if len(v) < 2:
                            break
                        nrbp, ret = int(v[0], 16), int(v[1], 16)
                        s = sym(ret - 1)
                        if s is None:
                            break
                        frames.append(s)
                        if nrbp <= rbp:
                            break
                        rbp = nrbp
                    samples.append((test, "kernel", frames))
            finally:
                q.call("cont")
            if a.out and time.time() - last > 30:
                last = time.time()
                with open(a.out + ".tmp", "w") as f:
                    report(samples, f)
            dt = time.time() - t0
            if dt < period:
                time.sleep(period - dt)
    except (EOFError, OSError, KeyboardInterrupt, json.JSONDecodeError):
        pass
    if bad:
        print("guest-prof: %d samples without RIP (firmware)" % bad,
              file=sys.stderr)
    report(samples, open(a.out, "w") if a.out else sys.stdout)


def report(samples, out):
    bytest = collections.OrderedDict()
    for s in samples:
        bytest.setdefault(s[0], []).append(s)
    for name, ss in [("ALL", samples)] + list(bytest.items()):
        n = len(ss)
        if not n:
            continue
        kinds = collections.Counter(s[1] for s in ss)
        fam = collections.Counter()
        leaf = collections.Counter()
        incl = collections.Counter()
        for _, kind, fr in ss:
            if kind != "kernel":
                continue
            leaf[fr[0]] += 1
            seen = set()
            for f in fr:
                if f not in seen:
                    incl[f] += 1
                    seen.add(f)
            for fname, rx in FAMILIES:
                if any(rx.search(f) for f in fr):
                    fam[fname] += 1
        pc = lambda c: "%.1f%%" % (100.0 * c / n)
        print("== %s: %d samples: kernel %s user %s idle %s" %
              (name, n, pc(kinds["kernel"]), pc(kinds["user"]),
               pc(kinds["idle"])), file=out)
        print("   families (inclusive): " + ", ".join(
            "%s %s" % (k, pc(v)) for k, v in fam.most_common()), file=out)
        if name != "ALL" and n < 200:
            continue
        print("   leaf: " + ", ".join(
            "%s %s" % (k, pc(v)) for k, v in leaf.most_common(25)), file=out)
        print("   inclusive: " + ", ".join(
            "%s %s" % (k, pc(v)) for k, v in incl.most_common(45)), file=out)


if __name__ == "__main__":
    main()
