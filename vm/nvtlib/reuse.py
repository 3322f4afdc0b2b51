# SPDX-License-Identifier: GPL-2.0-only
"""`make check-changed`: a boot group (boots sharing backing files, run
in plan order) whose inputs are byte for byte those of its last run that
passed is not booted again; that run's results are reported instead.

A group's inputs, hashed by content: the kernel image and the QEMU knobs
(command line, memory, vCPUs), for each boot its name, module set,
platform, backing-file group and tests, the files of its module set
(stock modules from the kernel cache, ours from build/), the scripts its
tests run (each test's own script and every script it names, lib.sh and
the *.inc files), what every image holds besides the tests (vm/init, the
guest tools, our ndctl and libndctl, Debian's binaries) and the harness
code that makes the image and the command line.  One changed byte in any
of them boots the whole group again, from its first boot (a later boot
of a group continues the backing files the earlier ones left).

The record is LOGS/boot-cache.json, written by every `check` (make check
too) for the groups that passed; make check itself never reuses."""

import glob
import hashlib
import json
import os
import re

from .config import BUILD, GUEST, LOGS, TOP
from .image import DAX_BINS, KEY_BINS, module_set_files

CACHE = os.path.join(LOGS, "boot-cache.json")
# what the harness itself contributes to a boot: the image and the QEMU
# command line (not the report or the plan reader)
HARNESS = ["vm/init", "vm/fsync-shim.c", "vm/peer-journalctl",
           "vm/nvtlib/image.py", "vm/nvtlib/qemu.py",
           "vm/nvtlib/acpi.py", "vm/nvtlib/config.py"]
SCRIPT_RE = re.compile(r"([a-z0-9][a-z0-9-]*\.sh)\b")

_digests = {}


def digest(path):
    """sha256 of a file's content ("-" when it does not exist)."""
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _digests:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        _digests[key] = h.hexdigest()
    return _digests[key]


def _scripts_of(test):
    """The guest scripts test TEST runs: its own and, transitively, every
    tests/guest script one of them names."""
    if test.startswith("us-"):
        us = os.path.join(TOP, "tests", "userspace", "guest")
        return [os.path.join(us, test[3:] + ".sh"),
                os.path.join(us, "common.sh")]
    pending, seen = [os.path.join(GUEST, test + ".sh")], []
    while pending:
        p = pending.pop()
        if p in seen:
            continue
        seen.append(p)
        try:
            text = open(p, errors="replace").read()
        except OSError:
            continue
        for name in SCRIPT_RE.findall(text):
            q = os.path.join(GUEST, name)
            if os.path.exists(q) and q not in seen:
                pending.append(q)
    return sorted(seen)


def _common(cfg):
    """Inputs every boot has."""
    files = [os.path.join(TOP, f) for f in HARNESS]
    files += sorted(glob.glob(os.path.join(TOP, "vm", "acpi", "*.asl")))
    files += sorted(glob.glob(os.path.join(GUEST, "*.inc")))
    files.append(os.path.join(GUEST, "lib.sh"))
    files += sorted(glob.glob(os.path.join(BUILD, "guest-tools", "*")))
    files += [os.path.join(BUILD, "bin", "ndctl")]
    files += sorted(glob.glob(os.path.join(BUILD, "lib", "libndctl.so*")))
    files += ["/usr/bin/ndctl", "/bin/busybox"] + DAX_BINS + KEY_BINS
    knobs = [cfg.kernel, cfg.kver, cfg.accel, cfg.mem, cfg.smp, cfg.append,
             " ".join(cfg.qemu_args)]
    return knobs + ["%s %s" % (os.path.relpath(f, TOP), digest(f))
                    for f in files] + ["kernel " + digest(cfg.kernel)]


def _set_inputs(cfg, mset, memo):
    if mset not in memo:
        try:
            files, why = module_set_files(cfg, mset)
        except Exception as e:          # noqa: BLE001 (Missing: not reusable)
            files, why = None, str(e)
        if files is None:
            memo[mset] = None
        else:
            memo[mset] = ["%s %s" % (rel, digest(src)) for src, rel in files]
            if cfg.peer_stage:
                memo[mset].append("peer " + digest(os.path.join(
                    cfg.peer_stage, ".recipe")))
    return memo[mset]


def group_key(cfg, group, memo):
    """The hash of a group's inputs, None when one cannot be had (a module
    set missing, a boot that imports saved backing files)."""
    h = hashlib.sha256()
    if "common" not in memo:
        memo["common"] = _common(cfg)
    for line in memo["common"]:
        h.update(line.encode() + b"\n")
    for _, b in group:
        if b.get("import"):
            return None
        mods = _set_inputs(cfg, b["set"], memo)
        if mods is None:
            return None
        h.update(json.dumps([b["name"], b["set"], b["platform"], b["group"],
                             b["fresh"], b["tests"]]).encode())
        for line in mods:
            h.update(line.encode() + b"\n")
        for t in b["tests"]:
            for s in _scripts_of(t):
                h.update(("%s %s\n" % (os.path.relpath(s, TOP),
                                       digest(s))).encode())
    return h.hexdigest()


def load():
    try:
        with open(CACHE) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def reusable(record, key, group):
    """The recorded results of GROUP if its last run had inputs KEY,
    passed, and left its outputs (console logs, /out shares) in place."""
    e = record.get(group[0][1]["group"])
    if not e or e.get("key") != key or key is None:
        return None
    logs = {x["name"]: x.get("log") for x in e.get("boots", [])}
    for _, b in group:
        # the console log is the one that run left (not a later boot of
        # the same name by hand)
        if logs.get(b["name"]) != digest(os.path.join(LOGS,
                                                      b["name"] + ".log")):
            return None
    return e


def store(record, key, group, out):
    """Remember GROUP's run (OUT: check.run_group's result) when it passed."""
    name = group[0][1]["group"]
    bad = key is None or any(r is None or r.problem for _, _, r in out) or \
        any(s == "fail" for _, res, _ in out for _, s, _ in res)
    if bad:
        record.pop(name, None)
        return
    record[name] = {"key": key, "boots": [
        {"name": r.name, "results": res, "wall": r.wall, "cpu": r.cpu,
         "log": digest(os.path.join(LOGS, r.name + ".log"))}
        for _, res, r in out]}


def save(record):
    os.makedirs(LOGS, exist_ok=True)
    tmp = CACHE + ".tmp%d" % os.getpid()
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(tmp, CACHE)
