#!/usr/bin/env python3
"""Compare nt-firmware's record on upstream's own 6.1 mock with ours.

usage: compare-nt-firmware.py UPSTREAM.txt OURS.txt    (prints TAP)

nt-firmware.txt (tests/guest/nt-firmware.sh): "KEY = VALUE" lines, the
results of Debian's ndctl 76.1 update-firmware, activate-firmware and
list -F and of writes to the firmware/ sysfs attributes of 6.1 (states,
results, exit statuses and errnos; DIMMs as D1..D3, no names or
versions).  UPSTREAM.txt comes from the boot on the module set
`upstream` (tools/testing/nvdimm of Debian's linux-source-6.1, built by
scripts/upstream-mock.sh), OURS.txt from our test build.

Every key of either side must be on both sides with the same value,
except the keys of DIFFERENT, each with the reason the two mocks differ
there (topology or a mock feature, not the kernel code under test).  A
side whose boot was skipped (its share holds SKIPPED: upstream's source
could not be had) gives one skipped test; an empty or missing record
without that is a failure.
"""
import os
import sys

# keys whose values differ between the mocks for a named reason (a
# feature of upstream's mock, not of the kernel code under test)
DIFFERENT = {
    "D1 result": "busy-none",
    "D1 result after quiesce": "busy-none",
    "D1 running version changed": "run-version",
}
REASONS = {
    "busy-none": "upstream's mock reports the result 'none' during the 3 s "
    "the bus is busy after an activation, and 6.1's nfit caches that "
    "answer until the next activation; ndctl activate-firmware reads the "
    "results in that time.  Ours has the result at once (and the same "
    "results as upstream for activations read once idle: the keys "
    "'results after the second activation' and 'D1 result without a "
    "staged image')",
    "run-version": "upstream's mock reports running version 0 whatever "
    "was activated; ours runs the staged image's version",
}


def skipped(path):
    marker = os.path.join(os.path.dirname(path), "SKIPPED")
    if os.path.exists(marker):
        with open(marker) as f:
            return f.read().strip() or "skipped"
    return None


def load(path):
    """[(key, value)] in file order; None when unreadable."""
    try:
        with open(path) as f:
            lines = [l.rstrip("\n") for l in f if l.strip()]
    except OSError:
        return None
    out = []
    for l in lines:
        k, sep, v = l.partition(" = ")
        if not sep:
            k, v = l.rstrip(" ="), ""
        out.append((k, v.strip()))
    return out


def main():
    pa, pb = sys.argv[1], sys.argv[2]
    name = os.path.basename(pb)
    for p in (pa, pb):
        why = skipped(p)
        if why:
            print("ok 1 - %s: upstream mock vs ours # SKIP %s not booted: %s"
                  % (name, os.path.basename(os.path.dirname(p)), why))
            print("1..1")
            return 0
    a, b = load(pa), load(pb)
    for side, rec, p in (("upstream", a, pa), ("ours", b, pb)):
        if not rec:
            print("not ok 1 - %s: the %s record %s is %s" % (
                name, side, p, "missing" if rec is None else "empty"))
            print("1..1")
            return 1
    da, db = dict(a), dict(b)
    n = fails = 0
    for k, v in a:
        n += 1
        if k not in db:
            fails += 1
            print("not ok %d - %s: '%s' only on upstream's mock: '%s'"
                  % (n, name, k, v))
        elif k in DIFFERENT:
            print("ok %d - %s: %s: upstream '%s', ours '%s' (different "
                  "by design: %s)" % (n, name, k, v, db[k],
                                      REASONS[DIFFERENT[k]]))
        elif db[k] == v:
            print("ok %d - %s: %s: %s" % (n, name, k, v))
        else:
            fails += 1
            print("not ok %d - %s: %s: upstream '%s', ours '%s'"
                  % (n, name, k, v, db[k]))
    for k, v in b:
        if k not in da:
            n += 1
            fails += 1
            print("not ok %d - %s: '%s' only on ours: '%s'" % (n, name, k, v))
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
