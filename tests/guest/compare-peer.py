#!/usr/bin/env python3
"""ndctl v76.1's own suite on our test build beside upstream's 6.1 mock.

usage: compare-peer.py UPSTREAM.txt OURS.txt    (prints TAP)

peer-results.txt (tests/guest/peer.sh): one line per test of the suite,
"NAME RESULT EXIT SECONDS", RESULT the suite's own PASS (exit 0), SKIP
(77) or FAIL.  UPSTREAM.txt comes from the boot on the module set
`upstream` (scripts/upstream-mock.sh), OURS.txt from our test build.

The criterion (issue 30): every test that passes on upstream's mock
passes on ours; such a test that does not is a failure ("not ok"),
every other test an "ok" that says both results.  Both sides must list
the same tests (the same /peer/tests.txt ran on both); a test missing on
one side, an empty or unreadable side is a failure.  A side whose boot
was skipped (its share holds SKIPPED: ndctl's source or upstream's
could not be had) gives one skipped test.

The table, "name: ours RESULT (s) | upstream RESULT (s)", and the
totals go to stdout as comments and to PEER_REPORT (default
build/logs/peer-report.txt).
"""
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def skipped(path):
    """The reason in the boot's SKIPPED marker beside PATH, or None."""
    m = os.path.join(os.path.dirname(path), "SKIPPED")
    return (open(m).read().strip() or "skipped") if os.path.exists(m) \
        else None


def read(path):
    """[(name, result, exit, seconds)] in file order, or an error string."""
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        return "cannot read %s: %s" % (path, e.strerror)
    out = []
    for n, line in enumerate(lines, 1):
        f = line.split()
        if not f:
            continue
        if len(f) != 4 or f[1] not in ("PASS", "SKIP", "FAIL"):
            return "%s:%d: cannot parse %r" % (path, n, line)
        try:
            out.append((f[0], f[1], int(f[2]), float(f[3])))
        except ValueError:
            return "%s:%d: cannot parse %r" % (path, n, line)
    if not out:
        return "%s lists no test" % path
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    up_path, ours_path = sys.argv[1], sys.argv[2]
    report = os.environ.get("PEER_REPORT") or \
        os.path.join(os.environ.get("NVT_LOGS") or
                     os.path.join(TOP, "build", "logs"), "peer-report.txt")
    why = skipped(ours_path) or skipped(up_path)
    if why:
        print("ok 1 - peer suite: ours vs upstream's mock # SKIP %s" % why)
        with open(report, "w") as f:
            f.write("peer suite not run: %s\n" % why)
        return 0
    up, ours = read(up_path), read(ours_path)
    bad = [x for x in (up, ours) if isinstance(x, str)]
    if bad:
        for i, b in enumerate(bad, 1):
            print("not ok %d - peer suite: %s" % (i, b))
        return 1
    u = {t[0]: t for t in up}
    o = {t[0]: t for t in ours}
    names = [t[0] for t in ours] + [t[0] for t in up if t[0] not in o]
    width = max(len(n) for n in names)
    rows, tap, regress = [], [], []
    tot = {"ours": {"PASS": 0, "SKIP": 0, "FAIL": 0, "s": 0.0},
           "upstream": {"PASS": 0, "SKIP": 0, "FAIL": 0, "s": 0.0}}
    for n in names:
        a, b = o.get(n), u.get(n)
        for side, t in (("ours", a), ("upstream", b)):
            if t:
                tot[side][t[1]] += 1
                tot[side]["s"] += t[3]
        cell = lambda t: "%s (%.0f s)" % (t[1], t[3]) if t else "missing"
        rows.append("%-*s  ours %-14s | upstream %s"
                    % (width + 1, n + ":", cell(a), cell(b)))
        if a is None or b is None:
            tap.append((False, "%s: %s on %s only" % (
                n, (a or b)[1], "ours" if a else "upstream")))
        elif b[1] == "PASS" and a[1] != "PASS":
            regress.append(n)
            tap.append((False, "%s: ours %s (exit %d), upstream's mock "
                        "PASS" % (n, a[1], a[2])))
        else:
            tap.append((True, "%s: ours %s, upstream's mock %s"
                        % (n, a[1], b[1])))
    text = ["ndctl v76.1 test suite (make check-peer): our test build "
            "vs upstream's 6.1 mock", ""] + rows + [""]
    for side in ("ours", "upstream"):
        t = tot[side]
        text.append("%-9s %d PASS, %d SKIP, %d FAIL; tests ran %.0f s"
                    % (side + ":", t["PASS"], t["SKIP"], t["FAIL"], t["s"]))
    text.append("passing on upstream's mock but not on ours: %d%s" % (
        len(regress), (" (" + " ".join(regress) + ")") if regress else ""))
    os.makedirs(os.path.dirname(report), exist_ok=True)
    with open(report, "w") as f:
        f.write("\n".join(text) + "\n")
    for line in text:
        print("# " + line if line else "#")
    for i, (good, desc) in enumerate(tap, 1):
        print("%s %d - peer %s" % ("ok" if good else "not ok", i, desc))
    return 1 if any(not g for g, _ in tap) else 0


if __name__ == "__main__":
    sys.exit(main())
