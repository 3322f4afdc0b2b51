#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mutation check of the host-tested kernel files (make mutate).

Each tests/host/mutants/*.txt lists semantic mutants of one source file.
Every mutant is applied, one at a time, to a scratch copy of the kernel
sources (the real tree is never written); the host unit tests that cover
that file are rebuilt from the copy (the host Makefile's NFIT_SRC,
LABEL_SRC and B point at it) and run.  A mutant is killed when a test
fails, crashes or times out, and survives when they all pass.

List format (one file per source):

    source: kernel/nvdimm/dpa-range.c
    tests: test_dpa_range            (binaries of tests/host/Makefile)
    # comment
    @@ ID short description
    equivalent: why it cannot change behaviour      (optional)
    <<<
    original lines, verbatim (tabs and all)
    ===
    replacement lines (none: the original is dropped)
    >>>

The original snippet must occur exactly once in the source, or the run
fails before anything is built (mutants do not rot silently).  A mutant
marked equivalent must survive: if a test kills it, the mark is wrong
and the run fails too.

Exit status: 0 when every non-equivalent mutant is killed and every
equivalent one survives, 1 otherwise, 2 for a bad list or a baseline
(unmutated) build or test failure.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
# the source dirs the host Makefile reads, as NFIT_SRC and LABEL_SRC
SRC_DIRS = {"NFIT_SRC": "kernel/acpi/nfit", "LABEL_SRC": "kernel/nvdimm"}


class ListError(Exception):
    pass


class Mutant:
    def __init__(self, mid, desc, lineno):
        self.id = mid
        self.desc = desc
        self.lineno = lineno
        self.equivalent = None
        self.orig = []
        self.repl = []


def parse_list(path):
    """Returns (source, tests, mutants) of one list file."""
    source, tests, mutants = None, [], []
    cur, part = None, None
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        where = "%s:%d" % (os.path.relpath(path, TOP), n)
        if part in ("orig", "repl"):
            if line == "===" and part == "orig":
                part = "repl"
            elif line == ">>>" and part == "repl":
                mutants.append(cur)
                cur, part = None, None
            elif line in ("<<<", "===", ">>>") or line.startswith("@@ "):
                raise ListError("%s: unexpected %r inside a snippet" %
                                (where, line))
            else:
                getattr(cur, part).append(line)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("source:"):
            source = line.split(":", 1)[1].strip()
        elif line.startswith("tests:"):
            tests = line.split(":", 1)[1].split()
        elif line.startswith("@@ "):
            if cur:
                raise ListError("%s: mutant %s has no <<< ... >>>" %
                                (where, cur.id))
            m = re.match(r"@@ (\S+)\s+(.*)$", line)
            if not m:
                raise ListError("%s: '@@ ID description' expected" % where)
            cur = Mutant(m.group(1), m.group(2).strip(), n)
        elif line.startswith("equivalent:") and cur:
            cur.equivalent = line.split(":", 1)[1].strip()
            if not cur.equivalent:
                raise ListError("%s: equivalent needs a reason" % where)
        elif line == "<<<" and cur:
            part = "orig"
        else:
            raise ListError("%s: cannot parse %r" % (where, line))
    if part or cur:
        raise ListError("%s: last mutant not closed with >>>" %
                        os.path.relpath(path, TOP))
    if not source or not tests:
        raise ListError("%s: needs 'source:' and 'tests:' lines" %
                        os.path.relpath(path, TOP))
    return source, tests, mutants


def check_list(path, source, mutants, text):
    """Every original snippet occurs exactly once; ids are unique."""
    errors, seen = [], set()
    rel = os.path.relpath(path, TOP)
    for m in mutants:
        if m.id in seen:
            errors.append("%s:%d: duplicate id %s" % (rel, m.lineno, m.id))
        seen.add(m.id)
        orig = "\n".join(m.orig)
        if not orig.strip():
            errors.append("%s:%d: %s: empty original" % (rel, m.lineno, m.id))
            continue
        count = text.count(orig)
        if count != 1:
            errors.append("%s:%d: %s: original occurs %d times in %s "
                          "(must be exactly once)" %
                          (rel, m.lineno, m.id, count, source))
        if m.orig == m.repl:
            errors.append("%s:%d: %s: replacement equals the original" %
                          (rel, m.lineno, m.id))
    return errors


class Run:
    """One source file's mutants, in their own scratch tree."""

    def __init__(self, path, source, tests, mutants, args):
        self.path, self.source, self.tests = path, source, tests
        self.mutants, self.args = mutants, args
        self.out = []
        self.results = []      # (mutant, status, detail)
        self.fatal = None

    def log(self, s):
        self.out.append(s)

    def setup(self):
        self.tmp = tempfile.mkdtemp(prefix="nd-mutate-")
        self.vars = {}
        for var, rel in SRC_DIRS.items():
            dst = os.path.join(self.tmp, os.path.basename(rel))
            os.makedirs(dst)
            for f in glob.glob(os.path.join(TOP, rel, "*.[ch]")):
                shutil.copy2(f, dst)
            self.vars[var] = dst
            if os.path.dirname(self.source) == rel:
                self.target = os.path.join(dst, os.path.basename(self.source))
        self.build = os.path.join(self.tmp, "build")
        with open(self.target) as f:
            self.pristine = f.read()

    def make(self):
        cmd = ["make", "-C", HERE, "--no-print-directory",
               "B=" + self.build] + \
              ["%s=%s" % kv for kv in self.vars.items()] + \
              [os.path.join(self.build, t) for t in self.tests]
        if self.args.khdr:
            cmd.append("KHDR_COMMON=" + self.args.khdr)
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        return p.returncode == 0, p.stdout

    def run_tests(self):
        """None when all pass, else what failed first."""
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=1")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        for t in self.tests:
            try:
                p = subprocess.run([os.path.join(self.build, t)],
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True,
                                   errors="replace", env=env,
                                   timeout=self.args.timeout)
            except subprocess.TimeoutExpired:
                return "%s: timed out after %ds" % (t, self.args.timeout)
            if p.returncode:
                bad = [l for l in p.stdout.split("\n")
                       if l.startswith("not ok") or "ERROR: " in l or
                       "runtime error" in l]
                return "%s: exit %d%s" % (t, p.returncode,
                                          ": " + bad[0] if bad else "")
        return None

    def write(self, text):
        with open(self.target, "w") as f:
            f.write(text)

    def go(self):
        try:
            self.setup()
            ok, out = self.make()
            if not ok:
                self.fatal = "baseline build failed:\n" + out
                return self
            bad = self.run_tests()
            if bad:
                self.fatal = "baseline tests fail: " + bad
                return self
            for m in self.mutants:
                orig, repl = "\n".join(m.orig), "\n".join(m.repl)
                if self.pristine.count(orig) != 1:
                    self.results.append((m, "snippet-gone",
                                         "original no longer occurs "
                                         "exactly once (source changed?)"))
                    continue
                self.write(self.pristine.replace(orig, repl, 1))
                ok, out = self.make()
                if not ok:
                    tail = "\n".join(out.strip().split("\n")[-6:])
                    self.results.append((m, "build-error", tail))
                    continue
                bad = self.run_tests()
                if bad:
                    status = "wrongly-equivalent" if m.equivalent \
                        else "killed"
                else:
                    status = "equivalent" if m.equivalent else "SURVIVED"
                self.results.append((m, status, bad or ""))
            self.write(self.pristine)
        finally:
            if getattr(self, "tmp", None) and not self.args.keep:
                shutil.rmtree(self.tmp, ignore_errors=True)
        return self


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lists", nargs="*",
                    help="list files or source names (default: all)")
    ap.add_argument("--id", action="append", default=[],
                    help="only these mutant ids (repeatable)")
    ap.add_argument("-j", "--jobs", type=int,
                    default=min(4, os.cpu_count() or 1),
                    help="source files mutated in parallel")
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per test binary (a hang counts as killed)")
    ap.add_argument("--khdr", default=os.environ.get("KHDR_COMMON", ""),
                    help="KHDR_COMMON for the host Makefile")
    ap.add_argument("--check", action="store_true",
                    help="only check that every snippet applies")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="say which test killed each mutant")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch trees (printed)")
    args = ap.parse_args()

    paths = sorted(glob.glob(os.path.join(HERE, "mutants", "*.txt")))
    if args.lists:
        def stem(x):
            return os.path.splitext(os.path.basename(x))[0]
        # a list file, its source ("dpa-range.c") or a prefix ("btt")
        paths = [p for p in paths
                 if any(stem(p) == stem(a) or stem(p).startswith(a)
                        for a in args.lists)]
        if not paths:
            sys.exit("mutate: no list matches %s" % " ".join(args.lists))

    runs, errors = [], []
    for p in paths:
        try:
            source, tests, mutants = parse_list(p)
        except ListError as e:
            errors.append(str(e))
            continue
        with open(os.path.join(TOP, source)) as f:
            text = f.read()
        errors += check_list(p, source, mutants, text)
        if args.id:
            mutants = [m for m in mutants if m.id in args.id]
        if mutants:
            runs.append(Run(p, source, tests, mutants, args))
    if errors:
        for e in errors:
            print("mutate: " + e, file=sys.stderr)
        print("mutate: FAILED: fix the mutant lists (%d problems)" %
              len(errors), file=sys.stderr)
        return 2
    if args.check:
        n = sum(len(r.mutants) for r in runs)
        print("mutate: %d mutants in %d lists apply" % (n, len(runs)))
        return 0

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        done = list(ex.map(lambda r: r.go(), runs))

    rc, tot = 0, {"n": 0, "killed": 0, "SURVIVED": 0, "equivalent": 0,
                  "other": 0}
    summary = []
    for r in done:
        print("mutate: %s (%d mutants; tests: %s)" %
              (r.source, len(r.mutants), " ".join(r.tests)))
        if r.fatal:
            print("mutate: %s: %s" % (r.source, r.fatal))
            rc = 2
            continue
        c = {"killed": 0, "SURVIVED": 0, "equivalent": 0, "other": 0}
        for m, status, detail in r.results:
            key = status if status in c else "other"
            c[key] += 1
            line = "  %-4s %-10s %s" % (m.id, status, m.desc)
            if status == "equivalent":
                line += "  [%s]" % m.equivalent
            if status in ("build-error", "wrongly-equivalent", "snippet-gone") or \
                    (args.verbose and detail):
                line += "\n         " + detail.replace("\n", "\n         ")
            print(line)
        n = len(r.results)
        summary.append("mutate: %s: %d mutants: %d killed, %d survived, "
                       "%d equivalent%s" %
                       (r.source, n, c["killed"], c["SURVIVED"],
                        c["equivalent"],
                        ", %d errors" % c["other"] if c["other"] else ""))
        tot["n"] += n
        for k in c:
            tot[k] += c[k]
        if c["SURVIVED"] or c["other"]:
            rc = max(rc, 1)
    for s in summary:
        print(s)
    print("mutate: total: %d mutants: %d killed, %d survived, "
          "%d equivalent%s" %
          (tot["n"], tot["killed"], tot["SURVIVED"], tot["equivalent"],
           ", %d errors (build failures or wrong equivalent marks)" %
           tot["other"] if tot["other"] else ""))
    if tot["n"] - tot["equivalent"] - tot["other"]:
        print("mutate: score %d/%d non-equivalent mutants killed" %
              (tot["killed"], tot["n"] - tot["equivalent"] - tot["other"]))
    return rc


if __name__ == "__main__":
    sys.exit(main())
