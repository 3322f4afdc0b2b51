#!/usr/bin/env python3
"""Line coverage of our kernel code from the debug-kernel tier.

usage: coverage.py [--obj DIR]... [--runs DIR] [--out DIR] [--gcov GCOV]

  --obj   Kbuild object tree of a profiled build (kernel/Makefile's OBJ or
          TEST_OBJ; default build/kbuild/debug), repeatable: holds the
          .gcno files next to the objects, and the sources (kernel/Makefile
          mirrors kernel/ there).  The trees mirror the same kernel/, so
          the counts of one source file from several builds (production
          and --wrap test build) are added up.
  --runs  guest output of the tier (default build/guest-out-debug): every
          BOOT/gcov/<absolute OBJ path>/.../*.gcda the guests copied out of
          /sys/kernel/debug/gcov is one run; runs are summed.  A guest
          sends them as BOOT/gcov.tar (tests/guest/lib.sh gcov_save), which
          is unpacked into BOOT/gcov/ first
  --out   report directory (default build/coverage), recreated:
            summary.txt       per source file and total, least covered first
            <path>.gcov       annotated source per file of kernel/, gcov's
                              text format ("#####" = never executed)
            runs.txt          which .gcda files were used

Each .gcda is read with `gcov --json-format --stdout` (Debian's gcc-12
gcov) against the .gcno of the same build; counts of all runs are added
per source line.  Sources outside the OBJ trees (kernel headers' inline
functions) are left out.  An object whose module never ran (.gcno without
any .gcda) counts as 0 %; a stale .gcno whose source left kernel/ is
skipped.  Only the Python standard library is used.
"""

import argparse
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shown(path):
    """path relative to the top directory when inside it"""
    path = os.path.abspath(path)
    return os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) \
        else path


def unpack_runs(runs):
    """BOOT/gcov.tar -> BOOT/gcov/: its regular .gcda files only, at
    relative paths without "..", replacing what an earlier run left."""
    for tf in sorted(glob.glob(os.path.join(runs, "*", "gcov.tar"))):
        dst = os.path.join(os.path.dirname(tf), "gcov")
        shutil.rmtree(dst, ignore_errors=True)
        with tarfile.open(tf) as t:
            for m in t.getmembers():
                name = os.path.normpath(m.name)
                if not m.isfile() or not name.endswith(".gcda") or \
                        name.startswith(("..", "/")):
                    continue
                os.makedirs(os.path.join(dst, os.path.dirname(name)),
                            exist_ok=True)
                with t.extractfile(m) as src, \
                        open(os.path.join(dst, name), "wb") as out:
                    shutil.copyfileobj(src, out)


def gcov_json(gcov, gcno, gcda):
    """gcov's JSON for one object; gcda may be None (never ran)."""
    with tempfile.TemporaryDirectory(prefix="nvcov-") as tmp:
        base = os.path.join(tmp, "o")
        shutil.copy(gcno, base + ".gcno")
        if gcda:
            shutil.copy(gcda, base + ".gcda")
        r = subprocess.run([gcov, "--json-format", "--stdout", base + ".gcno"],
                           cwd=tmp, capture_output=True)
        if r.returncode:
            sys.exit("coverage: %s %s failed: %s" %
                     (gcov, gcno, r.stderr.decode(errors="replace")))
        out = r.stdout
        if out[:2] == b"\x1f\x8b":
            out = gzip.decompress(out)
        docs = []
        for line in out.decode().splitlines():
            line = line.strip()
            if line:
                docs.append(json.loads(line))
        return docs


def main():
    ap = argparse.ArgumentParser(prog="coverage")
    ap.add_argument("--obj", action="append", default=[])
    ap.add_argument("--runs", default=os.path.join(TOP, "build",
                                                   "guest-out-debug"))
    ap.add_argument("--out", default=os.path.join(TOP, "build", "coverage"))
    ap.add_argument("--gcov", default="gcov")
    ap.add_argument("--least", type=int, default=5)
    args = ap.parse_args()
    objs = [os.path.realpath(o) for o in args.obj or
            [os.path.join(TOP, "build", "kbuild", "debug")]]
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)

    unpack_runs(args.runs)
    counts = {}     # rel source path -> {line: count}
    srcof = {}      # rel source path -> a copy of it (in an OBJ tree)
    used = []
    nruns = 0
    for obj in objs:
        gcnos = sorted(g for g in glob.glob(os.path.join(obj, "**", "*.gcno"),
                                            recursive=True)
                       if os.path.exists(g[:-len(".gcno")] + ".c"))
        if not gcnos:
            print("coverage: no .gcno under %s: not built with GCOV_PROFILE=y "
                  "against a CONFIG_GCOV_KERNEL kernel" % obj)
            continue
        # BOOT/gcov/<obj without the leading slash>/rel.gcda
        runs = sorted(d for d in glob.glob(os.path.join(
            args.runs, "*", "gcov", obj.lstrip("/"))) if os.path.isdir(d))
        nruns += len(runs)
        for gcno in gcnos:
            rel_o = os.path.relpath(gcno, obj)[:-len(".gcno")]
            gcdas = [os.path.join(r, rel_o + ".gcda") for r in runs]
            gcdas = [g for g in gcdas if os.path.exists(g)] or [None]
            for gcda in gcdas:
                used.append("%s\t%s" % (gcno, gcda or "(never ran)"))
                for doc in gcov_json(args.gcov, gcno, gcda):
                    cwd = doc.get("current_working_directory", "")
                    for f in doc.get("files", []):
                        src = os.path.realpath(os.path.join(cwd, f["file"]))
                        if not src.startswith(obj + os.sep):
                            continue
                        rel = os.path.relpath(src, obj)
                        srcof.setdefault(rel, src)
                        lines = counts.setdefault(rel, {})
                        for ln in f.get("lines", []):
                            n = ln["line_number"]
                            lines[n] = lines.get(n, 0) + ln["count"]
    if not counts:
        return 1
    with open(os.path.join(args.out, "runs.txt"), "w") as f:
        f.write("# object\tgcda (one line per run)\n")
        f.write("\n".join(used) + "\n")

    rows = []
    for rel, lines in counts.items():
        total = len(lines)
        hit = sum(1 for c in lines.values() if c > 0)
        rows.append((rel, hit, total))
        # annotated source in gcov's text format
        src = srcof[rel]
        dst = os.path.join(args.out, rel + ".gcov")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, errors="replace") as s, open(dst, "w") as d:
            d.write("%9s:%5d:Source:kernel/%s\n" % ("-", 0, rel))
            d.write("%9s:%5d:Runs:%d\n" % ("-", 0, nruns))
            for i, text in enumerate(s, 1):
                c = lines.get(i)
                mark = "-" if c is None else ("#####" if c == 0 else str(c))
                d.write("%9s:%5d:%s" % (mark, i, text if text.endswith("\n")
                                         else text + "\n"))
    rows.sort(key=lambda r: (r[1] / r[2] if r[2] else 1.0, r[0]))
    hit = sum(r[1] for r in rows)
    total = sum(r[2] for r in rows)
    pct = 100.0 * hit / total if total else 0.0
    out = ["coverage: line coverage of kernel/ under the debug kernel "
           "(%d run(s) in %s)" % (nruns, shown(args.runs)),
           "coverage: %-34s %7s %7s %7s" % ("file (least covered first)",
                                             "lines", "hit", "cover")]
    for rel, h, t in rows:
        out.append("coverage: %-34s %7d %7d %6.1f%%" %
                   ("kernel/" + rel, t, h, 100.0 * h / t if t else 0.0))
    out.append("coverage: %-34s %7d %7d %6.1f%%" % ("TOTAL", total, hit, pct))
    least = ", ".join("kernel/%s %.1f%%" % (r[0], 100.0 * r[1] / r[2])
                      for r in rows[:args.least] if r[2])
    out.append("coverage: least covered: " + least)
    out.append("coverage: per-line reports in %s/<path>.gcov"
               % shown(args.out))
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out), flush=True)
    if not nruns:
        print("coverage: no .gcda from any guest under %s (did the boots "
              "reach the end of their tests?)" % args.runs)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
