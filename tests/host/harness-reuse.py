#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of make check-changed's record (vm/nvtlib/reuse.py): which
edits boot a group again and which do not.  A scratch tree stands in for
the kernel, the module sets and the guest scripts; prints TAP and a
"N passed, N failed" line."""

import atexit
import os
import shutil
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
scratch = tempfile.mkdtemp(prefix="harness-reuse.")
atexit.register(shutil.rmtree, scratch, True)
os.environ["NVT_LOGS"] = os.path.join(scratch, "logs")
sys.path.insert(0, os.path.join(TOP, "vm"))

from nvtlib import reuse  # noqa: E402

npass = nfail = 0


def ok(cond, desc):
    global npass, nfail
    if cond:
        npass += 1
        print("ok %d - %s" % (npass + nfail, desc))
    else:
        nfail += 1
        print("not ok %d - %s" % (npass + nfail, desc))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    # a rewrite within the same clock tick must still be seen
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1000))


class Cfg:
    kver = "6.1.0-test"
    accel, mem, smp, append, qemu_args = "tcg", "1G", "1", "", []
    peer_stage = None

    def __init__(self):
        self.kernel = os.path.join(scratch, "vmlinux")


cfg = Cfg()
write(cfg.kernel, "kernel 1")
ko = {"ours": os.path.join(scratch, "mods", "nd_btt.ko"),
      "stock": os.path.join(scratch, "stock", "nd_btt.ko")}
write(ko["ours"], "ours 1")
write(ko["stock"], "stock 1")
# the module sets of the scratch tree: one module each
reuse.module_set_files = lambda c, mset: (
    [(ko[mset], "extra/nd_btt.ko")], None)
guest = os.path.join(scratch, "guest")
reuse.GUEST = guest
write(os.path.join(guest, "lib.sh"), "lib\n")
write(os.path.join(guest, "t-a.sh"), ". lib.sh\nsh helper-x.sh\n")
write(os.path.join(guest, "helper-x.sh"), "x\n")
write(os.path.join(guest, "t-b.sh"), "b\n")


def grp(mset, tests, name="g1"):
    return [(1, {"name": name + "-boot", "set": mset, "platform": "qemu",
                 "group": name, "fresh": True, "tests": tests})]


def key(g):
    return reuse.group_key(cfg, g, {})


ga = grp("ours", ["t-a"])
k0 = key(ga)
ok(k0 is not None and k0 == key(ga), "a group's key is stable")
write(os.path.join(guest, "t-b.sh"), "b changed\n")
ok(key(ga) == k0, "an edit of another test's script keeps the key")
write(os.path.join(guest, "t-a.sh"), ". lib.sh\nsh helper-x.sh\n# edit\n")
k1 = key(ga)
ok(k1 != k0, "an edit of the test's own script changes the key")
write(os.path.join(guest, "helper-x.sh"), "x changed\n")
k2 = key(ga)
ok(k2 != k1, "an edit of a script the test names changes the key")
write(os.path.join(guest, "lib.sh"), "lib changed\n")
k3 = key(ga)
ok(k3 != k2, "an edit of lib.sh changes the key")
gs = grp("stock", ["t-a"], "g2")
ks = key(gs)
write(ko["ours"], "ours 2")
k4 = key(ga)
ok(k4 != k3, "a rebuilt module of the group's set changes the key")
ok(key(gs) == ks, "a rebuilt module of another set keeps the key")
write(cfg.kernel, "kernel 2")
ok(key(ga) != k4, "another kernel changes the key")
k5 = key(ga)
ok(key(grp("ours", ["t-a", "t-b"])) != k5, "another test list changes the key")
imp = grp("ours", ["t-a"])
imp[0][1]["import"] = ("prev", "/nowhere")
ok(key(imp) is None, "a boot that imports saved backing files has no key")


class Res:
    def __init__(self, name, problem=None):
        self.name, self.problem = name, problem
        self.wall, self.cpu = 1.0, 1.0


log = os.path.join(os.environ["NVT_LOGS"], "g1-boot.log")
write(log, "console 1\n")
rec = {}
passed = [(1, [("g1-boot", "pass", "t-a: fine")], Res("g1-boot"))]
reuse.store(rec, k5, ga, passed)
ok(reuse.reusable(rec, k5, ga) is not None, "a passing run is reusable")
ok(reuse.reusable(rec, key(grp("ours", ["t-b"])), ga) is None,
   "not with other inputs")
reuse.save(rec)
ok(reuse.reusable(reuse.load(), k5, ga) is not None,
   "the record survives save and load")
write(log, "console of a later boot by hand\n")
ok(reuse.reusable(rec, k5, ga) is None,
   "not when the console log is another run's")
write(log, "console 1\n")
reuse.store(rec, k5, ga, [(1, [("g1-boot", "fail", "t-a: bad")],
                           Res("g1-boot"))])
ok(reuse.reusable(rec, k5, ga) is None, "a failing test is never reused")
reuse.store(rec, k5, ga, passed)
reuse.store(rec, k5, ga, [(1, [("g1-boot", "pass", "t-a")],
                           Res("g1-boot", "timed out"))])
ok(reuse.reusable(rec, k5, ga) is None, "nor a boot with a problem")
reuse.store(rec, k5, ga, [(1, [("g1-boot", "skip", "not booted")], None)])
ok(reuse.reusable(rec, k5, ga) is None, "nor a boot that was not booted")
print("reuse: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
