#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generated mutation pass over the host-tested kernel files (make mutate-gen).

Where mutate.py runs the hand-written lists of mutants/*.txt, this
generates mutants mechanically, line by line, for each list's source:
every relational operator (< <= > >= == !=) turned into its neighbours,
&& and || swapped, binary + - * / % replaced, each small integer constant
moved by one, each single-line if condition negated, each ! dropped,
each simple statement deleted and each returned value replaced by 0.
Comments, strings, log calls and static_asserts are left alone.  Every
mutant that compiles is run against the list's unit tests, as mutate.py
does (same scratch copies, same Makefile variables), and the survivors
are printed with their line.

A survivor is a lead, not a verdict: many are the same program (return
NULL for return 0) or equivalent for a reason the code guarantees.  The
others want a test, and a mutant in the file's list.  Takes about half
an hour for all files on two cores; not part of check or mutate.

    make -C tests/host mutate-gen [MUTATE_ARGS="dpa-range"]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import sys

import mutate

REL = {"<=": ["<", ">"], ">=": [">", "<"], "==": ["!="], "!=": ["=="],
       "<": ["<=", ">="], ">": [">=", "<="]}
AOR = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["/"]}
DECL = re.compile(r"^(return|u8|u16|u32|u64|int|bool|const|struct|enum|"
                  r"unsigned|static|size_t|char)\b")


def code_only(line):
    """@line with string/char literals and comments blanked out."""
    out, quote, i = list(line), None, 0
    while i < len(line):
        c = line[i]
        if quote:
            out[i] = " "
            if c == "\\" and i + 1 < len(line):
                out[i + 1] = " "
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote, out[i] = c, " "
        elif line.startswith("//", i) or line.startswith("/*", i):
            out[i:] = " " * (len(line) - i)
            break
        i += 1
    return "".join(out)


def generate(text):
    """(line index, new line, kind) for every mutant of @text."""
    lines, muts, in_comment = text.split("\n"), [], False
    for ln, line in enumerate(lines):
        s = line.strip()
        if in_comment:
            in_comment = "*/" not in s
            continue
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        if not s or s[0] in "*#\"" or s.startswith("//") or \
                s.startswith("static_assert") or "EXPORT_SYMBOL" in s or \
                "p->log" in s or s.startswith("log("):
            continue
        cp = code_only(line)

        def sub(m, alt, kind, group=0):
            muts.append((ln, line[:m.start(group)] + alt +
                         line[m.end(group):], kind))

        for m in re.finditer(r"<=|>=|==|!=|(?<![<>\-])<(?![<=])|"
                             r"(?<![<>\-])>(?![>=])", cp):
            for alt in REL[m.group(0)]:
                sub(m, alt, "%s -> %s" % (m.group(0), alt))
        for m in re.finditer(r"&&|\|\|", cp):
            sub(m, "||" if m.group(0) == "&&" else "&&", "&& <-> ||")
        for m in re.finditer(r" ([+\-*/%]) ", cp):
            for alt in AOR[m.group(1)]:
                sub(m, alt, "%s -> %s" % (m.group(1), alt), 1)
        for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", cp):
            v = int(m.group(1))
            if v <= 100000:
                for alt in ([v + 1, v - 1] if v else [1]):
                    sub(m, str(alt), "%d -> %d" % (v, alt))
        m = re.match(r"^(\s*(?:\} else )?if \()(.*)(\)\s*\{?)$", line)
        if m and m.group(2).count("(") == m.group(2).count(")"):
            muts.append((ln, m.group(1) + "!(" + m.group(2) + ")" +
                         m.group(3), "if negated"))
        for m in re.finditer(r"!(?=[\w(])", cp):
            sub(m, "", "! dropped")
        if s.endswith(";") and not DECL.match(s) and \
                s.count("(") == s.count(")") and not s.startswith("}"):
            muts.append((ln, "", "statement deleted"))
        m = re.match(r"^(\s*)return (.+);$", line)
        if m and m.group(2) != "0":
            muts.append((ln, m.group(1) + "return 0;", "return 0"))
    return lines, muts


def run_one(path, source, tests, args):
    run = mutate.Run(path, source, tests, [], args)
    res = []
    try:
        run.setup()
        ok, out = run.make()
        if not ok or run.run_tests():
            return source, None
        lines, muts = generate(run.pristine)
        for ln, new, kind in muts:
            mutated = list(lines)
            mutated[ln] = new
            run.write("\n".join(mutated))
            ok, _ = run.make()
            if not ok:
                res.append((ln, kind, "no-build", lines[ln], new))
                continue
            status = "killed" if run.run_tests() else "SURVIVED"
            res.append((ln, kind, status, lines[ln], new))
        run.write(run.pristine)
    finally:
        if getattr(run, "tmp", None):
            shutil.rmtree(run.tmp, ignore_errors=True)
    return source, res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lists", nargs="*",
                    help="list files or source names (default: all)")
    ap.add_argument("-j", "--jobs", type=int,
                    default=min(4, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--khdr", default=os.environ.get("KHDR_COMMON", ""))
    args = ap.parse_args()
    args.keep = False

    paths = sorted(glob.glob(os.path.join(mutate.HERE, "mutants", "*.txt")))
    if args.lists:
        paths = [p for p in paths if any(
            os.path.basename(p).startswith(os.path.splitext(
                os.path.basename(a))[0]) for a in args.lists)]
    jobs = []
    for p in paths:
        source, tests, _ = mutate.parse_list(p)
        jobs.append((os.path.join(mutate.TOP, source), source, tests))
    rc = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for source, res in ex.map(lambda j: run_one(*j, args), jobs):
            if res is None:
                print("mutate-gen: %s: baseline build or tests fail" % source)
                rc = 2
                continue
            count = {k: sum(1 for r in res if r[2] == k)
                     for k in ("killed", "SURVIVED", "no-build")}
            print("mutate-gen: %s: %d mutants: %d killed, %d survived, "
                  "%d do not build" % (source, len(res), count["killed"],
                                       count["SURVIVED"], count["no-build"]))
            for ln, kind, status, old, new in res:
                if status == "SURVIVED":
                    print("  %s:%d (%s)\n    - %s\n    + %s" %
                          (source, ln + 1, kind, old.strip(), new.strip()))
            sys.stdout.flush()
    return rc


if __name__ == "__main__":
    sys.exit(main())
