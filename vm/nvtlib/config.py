# SPDX-License-Identifier: GPL-2.0-only
"""Paths, the kernel and VM configuration, and the small helpers every
part of the harness uses."""

import os
import re
import subprocess
import sys

# vm/nvtlib/config.py -> the top of the tree
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def read_mk(path):
    """{NAME: value} of the `NAME := value` lines of a generated make
    fragment (build/kernel.mk, upstream-mock.mk, peer-suite.mk); {} when
    it does not exist."""
    mk = {}
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"^\s*([A-Z_]+)\s*:?=\s*(.*?)\s*$", line)
            if m:
                mk[m.group(1)] = m.group(2)
    return mk


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
    UPSTREAM_MODULES_DIR         upstream's tools/testing/nvdimm build
                                 (set `upstream`; scripts/upstream-mock.sh
                                 writes it, or UPSTREAM_SKIP, into
                                 UPSTREAM_MK, default build/upstream-mock.mk)
    PEER_STAGE                   ndctl v76.1's test suite staged for the
                                 guest (boots running the test `peer`;
                                 scripts/peer-suite.sh writes it, or
                                 PEER_SKIP, into PEER_MK, default
                                 build/peer-suite.mk)
    NVT_LOGS, NVT_GUEST_OUT, NVT_VM   console logs, /out shares, images and
                                 backing files (default build/logs,
                                 build/guest-out, build/vm); a tier sets all
                                 three (make check-debug: build/*-debug)
    """

    def __init__(self):
        mk = read_mk(os.path.join(BUILD, "kernel.mk"))

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
        # upstream's own mock (the oracle of media-oracle): its modules,
        # the kernel they were built for, or why it could not be had
        um = read_mk(os.environ.get("UPSTREAM_MK") or
                     os.path.join(BUILD, "upstream-mock.mk"))
        self.upstream_dir = os.environ.get("UPSTREAM_MODULES_DIR") or \
            um.get("UPSTREAM_MODULES_DIR")
        self.upstream_kver = os.environ.get("UPSTREAM_KVER") or \
            um.get("UPSTREAM_KVER")
        self.upstream_skip = os.environ.get("UPSTREAM_SKIP") or \
            um.get("UPSTREAM_SKIP")
        # ndctl v76.1's own suite (make check-peer): its guest tree, or
        # why the source could not be had
        pm = read_mk(os.environ.get("PEER_MK") or
                     os.path.join(BUILD, "peer-suite.mk"))
        self.peer_stage = os.environ.get("PEER_STAGE") or pm.get("PEER_STAGE")
        self.peer_skip = os.environ.get("PEER_SKIP") or pm.get("PEER_SKIP")
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
        """Directory of our own .ko files for a module set (None: stock;
        `upstream`: upstream's test build, scripts/upstream-mock.sh)."""
        return {"stock": None, "ours": self.modules_dir,
                "test": self.test_modules_dir,
                "upstream": self.upstream_dir or ""}[mset]


def die(msg):
    print("nvt: error: " + msg, file=sys.stderr)
    sys.exit(2)


def say(msg):
    print(msg, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)

