# SPDX-License-Identifier: GPL-2.0-only
"""The plan (tests/guest/plan): its boots and host compares, boot lists
(tests/guest/plan-debug), which boots a run keeps, and the backing files
one boot leaves for the next boot of its group."""

import glob
import os
import re
import shutil
import time

from .config import BUILD, LOGS, TOP, VM, die, run, say
from .qemu import backing_dir


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


def read_boot_list(path):
    """A boot list (tests/guest/plan-debug): boot names of the plan, one
    per line, '#' comments; returns the names in file order."""
    names = []
    for line in open(path):
        names += line.split("#", 1)[0].split()
    return names


def saved_backing(name, vm=None):
    """Where `check` keeps a copy of a group's backing files as boot NAME
    left them (see select_boots)."""
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


def import_note(b):
    """The line `check` prints before a boot that starts from a saved copy."""
    return ("check: %s starts from the backing files %s left in the last "
            "`make check` (%s, saved %s)" % (
                b["name"], b["import"][0], os.path.relpath(b["import"][1], TOP),
                time.strftime("%H:%M %d %b", time.localtime(
                    os.path.getmtime(b["import"][1])))))


def select_boots(plan, sets, only, plan_path, list_path, results):
    """The boots of PLAN this run keeps (module SETS, boot list ONLY), in
    plan order, and {boot name: the next boot of its group}.

    Each kept boot gets b["import"]: a boot that continues the backing
    files of a boot this run leaves out (label-ns-ours after
    label-ns-stock, for a run of one set or of a boot list) starts from the
    copy a full `make check` saved of them (build/vm/backing-saved/<previous
    boot>/), as (previous boot, directory); without one it is skipped.
    Skips are appended to RESULTS as (boot, "skip", description)."""
    if only:
        known = {b["name"] for b in plan}
        for n in only:
            if n not in known:
                results.append(("plan", "skip", "boot %s # SKIP %s names "
                                "it, %s does not have it" % (
                                    n, os.path.relpath(list_path, TOP),
                                    os.path.relpath(plan_path, TOP))))
    # The boot before each one in its backing-file group, and after it.
    prev, nxt, last = {}, {}, {}
    for b in plan:
        p = last.get(b["group"])
        if p is not None and not b["fresh"]:
            prev[b["name"]] = p
            nxt[p["name"]] = b
        last[b["group"]] = b
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
    return kept, nxt


def boot_groups(boots):
    """The boots grouped by backing files, [(index, boot)] per group, the
    groups in plan order (a group's boots run one after another)."""
    groups = {}
    for i, b in enumerate(boots, 1):
        groups.setdefault(b["group"], []).append((i, b))
    return list(groups.values())


DONE_RE = re.compile(r"^# nvt: done rc=\d+ uptime=([\d.]+)", re.M)


def boot_estimate(b):
    """Seconds boot B is expected to take: its guest uptime at the end of
    its last run (its console log), else 10 s a test."""
    try:
        with open(os.path.join(LOGS, b["name"] + ".log"), errors="replace") as f:
            m = DONE_RE.search(f.read())
        if m:
            return float(m.group(1))
    except OSError:
        pass
    return 10.0 * (1 + len(b["tests"]))


def start_order(groups, only):
    """The order to start GROUPS in when several run at a time: a boot
    list gives it (its first boot of each group), otherwise the longest
    groups first (by boot_estimate), so that the last one to start is a
    short one."""
    if only:
        return sorted(groups, key=lambda g: min(
            only.index(b["name"]) for _, b in g))
    return sorted(groups, key=lambda g: -sum(boot_estimate(b) for _, b in g))
