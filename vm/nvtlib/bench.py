# SPDX-License-Identifier: GPL-2.0-only
"""make bench / bench-blk / bench-prov: fio in the guest, ours against
stock (or BLK against PMEM), as instruction-counted ratios."""

import os

from .config import GUEST_OUT, say
from .qemu import boot


BENCH_JOBS = ["seq-read-1M", "seq-write-1M", "rand-read-4K", "rand-write-4K",
              "btt-rand-read-4K", "btt-rand-write-4K",
              "fsdax-rand-read-4K", "fsdax-rand-write-4K",
              "dax-ext4-mmap-seq-read-1M", "dax-ext4-mmap-seq-write-1M",
              "dax-ext4-mmap-rand-read-4K", "dax-ext4-mmap-rand-write-4K",
              "devdax-seq-read-1M", "devdax-seq-write-1M",
              "devdax-rand-read-4K", "devdax-rand-write-4K"]

# make bench-prov: the namespace of each provider without an NFIT
# (tests/guest/bench-prov.inc): raw, sector (BTT) and fsdax
PROV_JOBS = ["%s-%s" % (p, j) for p in ("e820", "virtio")
             for j in BENCH_JOBS[:8]]
# the stock BTT on virtio-pmem sleeps in the virtio flush under its lane
# spinlock ("BUG: scheduling while atomic"): measured on ours only
PROV_STOCK_SKIPPED = ("virtio-btt-rand-read-4K", "virtio-btt-rand-write-4K")


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
    if args.prov:
        return bench_ours_stock(cfg, args, rounds, "legacy", "bench-prov",
                                PROV_JOBS, PROV_STOCK_SKIPPED)
    return bench_ours_stock(cfg, args, rounds, "qemu", "bench", BENCH_JOBS)


def bench_ours_stock(cfg, args, rounds, platform, prefix, jobs,
                     stock_skipped=()):
    """Boots PREFIX-ours and PREFIX-stock on PLATFORM, alternating which
    goes first; the table of ours/stock over JOBS (STOCK_SKIPPED: jobs
    the guest runs on ours only)."""
    res = {}
    for rnd in range(rounds):
        for mset in (["ours", "stock"] if rnd % 2 == 0 else ["stock", "ours"]):
            name = "%s-%s" % (prefix, mset)
            say("bench: round %d of %d: %s modules, platform %s" % (
                rnd + 1, rounds, mset, platform))
            r = boot(cfg, name, mset, platform, (), name, True, mode="bench",
                     fio=True, timeout=args.timeout)
            if r.problem:
                say("bench: %s: %s" % (mset, r.problem))
                continue
            read_bench(name, rnd, res, lambda job: (mset, job))
    return bench_table(res, "ours", "stock", jobs, rounds, stock_skipped)


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


def bench_table(res, a, b, jobs, rounds, b_skipped=()):
    """Print a/b per job (res keyed (a|b, job)): the medians over the
    rounds that have both, and each round's ratio; 0 when every job has
    figures (B_SKIPPED: jobs that have @a's alone, printed so)."""
    def median(v):
        v = sorted(v)
        n = len(v)
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2

    say("bench: %-28s %14s %14s %10s   (median of %d rounds)" %
        ("job", a, b, "%s/%s" % (a, b), rounds))
    ok = True
    for job in jobs:
        o, s = res.get((a, job), {}), res.get((b, job), {})
        if job in b_skipped and o and not s:
            say("bench: %-28s %14s %14s %10s   (%s: not run)" % (
                job, "%.0f %s" % (median([v[0] for v in o.values()]),
                                  next(iter(o.values()))[1]),
                "-", "-", b))
            continue
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

