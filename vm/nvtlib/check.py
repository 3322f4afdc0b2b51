# SPDX-License-Identifier: GPL-2.0-only
"""`check`: the boots of the plan (or of a boot list), NVT_JOBS boot
groups at a time, then the host compares and the report."""

import concurrent.futures
import os
import time

from .config import say
from .image import Missing, image
from .plan import (boot_groups, import_note, read_boot_list, read_plan,
                   save_backing, select_boots, start_order)
from .qemu import PLATFORMS, boot
from .report import final_report, host_summary, run_compares
from . import reuse


def run_group(cfg, group, total, nxt, failed_steps, timeout):
    """Boot a group's boots in plan order: [(index, results, BootResult)].
    A boot whose first boot (same backing files) could not run is not
    booted; a boot followed by one of another module set saves the
    backing files it leaves (select_boots' imports)."""
    out, missing = [], False
    for i, b in group:
        res, r = [], None
        say("check: boot %d of %d: %s" % (i, total, b["name"]))
        if b["set"] == "ours" and "modules" in failed_steps:
            res.append((b["name"], "fail", "not booted: make modules failed"))
            missing = True
        elif missing:
            res.append((b["name"], "fail", "not booted: its first boot "
                        "(same backing files) could not run"))
        else:
            if b["import"]:
                say(import_note(b))
            r = boot(cfg, b["name"], b["set"], b["platform"], b["tests"],
                     b["group"], b["fresh"], timeout=timeout,
                     import_from=b["import"] and b["import"][1])
            n = nxt.get(b["name"])
            if n is not None and n["set"] != b["set"] and \
                    r.first_test is not None and \
                    PLATFORMS[b["platform"]]["nvdimms"]:
                save_backing(b["name"], b["group"])
            if r.skipped:
                # upstream's mock could not be had: the whole boot skips
                res.append((b["name"], "skip", "%s # SKIP not booted: %s"
                            % (" ".join(b["tests"]), r.skipped)))
                out.append((i, res, None))
                continue
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


def cmd_check(cfg, args):
    t0 = time.time()
    plan, compares = read_plan(args.plan)
    sets = args.sets.split(",") if args.sets else None
    only = read_boot_list(args.boots) if args.boots else None
    results = []
    boots, nxt = select_boots(plan, sets, only, args.plan, args.boots,
                              results)
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

    groups = boot_groups(boots)
    jobs = max(1, int(os.environ.get("NVT_JOBS") or 1))
    # make check-changed: groups whose inputs are those of their last
    # passing run are not booted (vm/nvtlib/reuse.py)
    record, memo = reuse.load(), {}
    keys = {id(g): reuse.group_key(cfg, g, memo) for g in groups}
    reused = []
    if getattr(args, "changed", False) and not failed_steps:
        for g in groups:
            e = reuse.reusable(record, keys[id(g)], g)
            if e:
                reused.append((g, e))
        skip = {id(g) for g, _ in reused}
        groups = [g for g in groups if id(g) not in skip]

    def one(group):
        out = run_group(cfg, group, len(boots), nxt, failed_steps,
                        args.timeout)
        reuse.store(record, keys[id(group)], group, out)
        return out

    if jobs == 1:
        outs = [one(g) for g in groups]
    else:
        for mset in sorted({b["set"] for b in boots}):
            try:
                # built once, before the threads start
                image(cfg, mset, peer=any("peer" in b["tests"] for b in boots
                                          if b["set"] == mset))
            except Missing:
                pass                # boot() reports it
        order = start_order(groups, only)
        say("check: %d boot groups, %d at a time" % (len(order), jobs))
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            outs = list(ex.map(one, order))
    reuse.save(record)
    if reused:
        nres = 0
        for g, e in reused:
            byname = {x["name"]: x for x in e["boots"]}
            for i, b in g:
                rs = [tuple(x) for x in byname[b["name"]]["results"]]
                nres += len(rs)
                outs.append([(i, rs, None)])
        say("check: %d of %d boot groups unchanged since their last passing "
            "run (%s): %d results reused, not booted (make check boots "
            "all)" % (len(reused), len(reused) + len(groups), ", ".join(
                g[0][1]["group"] for g, _ in reused), nres))
    done = {}
    for i, res, r in sorted((x for o in outs for x in o),
                            key=lambda x: x[0]):
        results.extend(res)
        if r is not None:
            done[r.name] = r
    run_compares(compares, [b["name"] for b in boots], results)
    return final_report(results, counts, done, t0)
