#!/usr/bin/env python3
"""nvt: host side of the libnvdimm build-and-boot harness.

Sub-commands (normally called from the top-level Makefile):

  image  --set SET [--fio]          build build/vm/initrd-SET[-fio].img
  boot   --name N --set SET ...     boot one VM, stream its console, log it
  run    [--set SET] [--interactive]  boot, show the topology (or a shell)
  check  [--sets stock,ours]        run the boots of tests/guest/plan, print
         [--changed]                "N passed, N failed, N skipped"; --changed:
                                    reuse the results of unchanged groups
  bench [--blk|--prov]              fio on /dev/pmem0 and its BTT, ours vs stock;
                                    --blk: BLK vs PMEM namespaces on nfit_test;
                                    --prov: the e820 and virtio-pmem namespaces

Everything it needs comes from build/kernel.mk (written by
scripts/fetch-kernel.sh); each of its variables can be overridden from the
environment (make passes them through), see Config below.  Only the Python
standard library is used.

The parts, one concern each, are in vm/nvtlib/: config (paths, the kernel,
VM knobs), image (initrd, module sets), qemu (platforms, backing files,
one boot), plan (the plan, boot lists, saved backing files), check (the
boots of a run), reuse (make check-changed), report (host summaries, compares, the final line),
bench (fio ratios).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nvtlib.bench import cmd_bench  # noqa: E402
from nvtlib.check import cmd_check  # noqa: E402
from nvtlib.config import GUEST, Config, die, say  # noqa: E402
from nvtlib.image import Missing, image  # noqa: E402
from nvtlib.qemu import PLATFORMS, boot  # noqa: E402


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
    if r.skipped:
        return 0
    fails = sum(1 for s, _ in r.tap if s == "fail")
    return 1 if r.problem or fails else 0



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
    p.add_argument("--changed", action="store_true",
                   help="boot only the groups whose inputs changed since "
                   "their last passing run (make check-changed)")
    p = sub.add_parser("bench")
    p.add_argument("--timeout", type=int)
    p.add_argument("--blk", action="store_true",
                   help="BLK against PMEM on nfit_test (make bench-blk)")
    p.add_argument("--prov", action="store_true",
                   help="the e820 and virtio-pmem namespaces of platform "
                   "legacy, ours vs stock (make bench-prov)")
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
