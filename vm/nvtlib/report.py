# SPDX-License-Identifier: GPL-2.0-only
"""Results of a `check` run: the host suites' summary lines folded in,
the host-side compares of two boots' outputs, and the final report
(failures, skips, boot times, "N passed, N failed, N skipped").

A result is (where, status, description), status pass/fail/skip."""

import os
import re
import subprocess
import sys
import time

from .config import DEFAULT_GUEST_OUT, GUEST, GUEST_OUT, LOGS, TOP, say
from .qemu import parse_tap

SUMMARY_RE = re.compile(r"^(?:\w+:\s*)?(\d+) passed, (\d+) failed"
                        r"(?:, (\d+) skipped)?\s*$")


def host_summary(path, failed, counts):
    """Fold the host suites' own "N passed, N failed" lines into counts
    (one such line per suite)."""
    text = open(path, errors="replace").read()
    found = [m for m in (SUMMARY_RE.match(l.strip()) for l in text.splitlines())
             if m]
    nfail = 0
    for m in found:
        counts["pass"] += int(m.group(1))
        counts["fail"] += int(m.group(2))
        counts["skip"] += int(m.group(3) or 0)
        nfail += int(m.group(2))
    if not found:
        if not failed:
            counts["pass"] += 1     # ran, passed, printed no summary
        return False
    return not (failed and not nfail)   # failed outside its tests: count it


def run_compares(compares, names, results):
    """Run the plan's host compares whose boots ran (NAMES) and append
    their TAP lines to RESULTS.

    A tier with its own NVT_GUEST_OUT (make check-debug) boots only some
    of the boots: the other side of a compare (the stock oracle) is the
    output the last `make check` left in build/guest-out/."""
    for c in compares:
        sides = (c["a"], c["b"])
        if not any(x in names for x in sides):
            continue
        if not all(x in names for x in sides) and \
                GUEST_OUT == DEFAULT_GUEST_OUT:
            continue
        fa, fb = [os.path.join(GUEST_OUT if x in names else
                               DEFAULT_GUEST_OUT, x, c["file"])
                  for x in sides]
        saved = [(x, f) for x, f in zip(sides, (fa, fb)) if x not in names]
        gone = [os.path.relpath(f, TOP) for x, f in saved
                if not os.path.exists(f)]
        if gone:
            results.append(("host", "skip", "compare %s %s vs %s # SKIP %s "
                            "not booted here and %s missing (run `make "
                            "check` first)" % (c["file"], c["a"], c["b"],
                                               saved[0][0], gone[0])))
            continue
        say("check: host compare %s %s vs %s%s" % (
            c["file"], c["a"], c["b"], "".join(
                " (%s: saved by make check at %s)" % (x, time.strftime(
                    "%H:%M %d %b", time.localtime(os.path.getmtime(f))))
                for x, f in saved)))
        r = subprocess.run([sys.executable, os.path.join(GUEST, c["script"]),
                            fa, fb], capture_output=True, text=True)
        got = False
        for line in (r.stdout + r.stderr).splitlines():
            t = parse_tap(line)
            if t:
                got = True
                results.append(("host", t[0], t[1]))
                say("  [host] " + line)
            elif line.strip():
                say("  [host] # " + line)
        if not got or (r.returncode and
                       not any(s == "fail" for _, s, _ in results)):
            results.append(("host", "fail", "%s exited %d" % (c["script"],
                                                              r.returncode)))


def final_report(results, counts, done, t0):
    """Print failures, skips and boot times, then the summary line; the
    exit status of `check` (1 on any failure or when nothing passed)."""
    npass = sum(1 for _, s, _ in results if s == "pass") + counts["pass"]
    nfail = sum(1 for _, s, _ in results if s == "fail") + counts["fail"]
    nskip = sum(1 for _, s, _ in results if s == "skip") + counts["skip"]
    if any(counts.values()):
        say("check: host unit tests: %(pass)d passed, %(fail)d failed, "
            "%(skip)d skipped (included below)" % counts)
    if nfail:
        say("check: failures (console logs: %s/<boot>.log):"
            % os.path.relpath(LOGS, TOP))
        for bname, s, desc in results:
            if s == "fail":
                say("  FAIL [%s] %s" % (bname, desc))
    if nskip:
        say("check: skipped:")
        for bname, s, desc in results:
            if s == "skip":
                say("  SKIP [%s] %s" % (bname, desc))
    if done:
        say("check: boot times (wall s / QEMU CPU s): " + ", ".join(
            "%s %.0f/%.0f" % (r.name, r.wall, r.cpu or 0)
            for r in done.values()))
    prof = [(r.name, t, w, c, q) for r in done.values() for t, w, c, q in
            r.profile()]
    if prof:
        # slowest first by the host's account of QEMU's CPU (the guest's
        # clock runs on when a loaded host does not run the vCPU)
        prof.sort(key=lambda x: -(x[4] if x[4] is not None else x[2]))
        path = os.path.join(LOGS, "test-times.txt")
        qs = lambda q: "%.1f" % q if q is not None else "-"  # noqa: E731
        try:
            with open(path, "w") as f:
                f.write("# boot test wall-s guest-cpu-s qemu-cpu-s (guest "
                        "clock; QEMU's CPU time on the host), slowest "
                        "first\n")
                for b, t, w, c, q in prof:
                    f.write("%s %s %.1f %.1f %s\n" % (b, t, w, c, qs(q)))
        except OSError:
            path = None
        say("check: slowest tests (wall s / guest CPU s / QEMU CPU s): " +
            ", ".join("%s/%s %.0f/%.0f/%s" % (b, t, w, c, qs(q))
                      for b, t, w, c, q in prof[:10]) +
            ("; all in %s" % os.path.relpath(path, TOP) if path else ""))
    firsts = [r.first_test for r in done.values() if r.first_test is not None]
    if firsts:
        say("check: boot-to-first-test %.1f s (min %.1f, max %.1f); "
            "guest boots took %.0f s of %.0f s (QEMU CPU %.0f s)"
            % (sum(firsts) / len(firsts), min(firsts), max(firsts),
               sum(r.wall for r in done.values()), time.time() - t0,
               sum(r.cpu or 0 for r in done.values())))
    line = "%d passed, %d failed" % (npass, nfail)
    if nskip:
        line += ", %d skipped" % nskip
    print(line, flush=True)
    return 1 if nfail or not npass else 0
