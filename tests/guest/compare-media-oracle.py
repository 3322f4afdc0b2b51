#!/usr/bin/env python3
"""Compare media-oracle's record on upstream's own 6.1 mock with ours.

usage: compare-media-oracle.py UPSTREAM.txt OURS.txt    (prints TAP)

media-oracle.txt (tests/guest/media-oracle.sh): "KEY = VALUE" lines, the
results of Debian's ndctl 76.1 media-error commands (inject-error,
--status, --uninject, start-scrub, wait-scrub, list --media-errors),
reads and writes over bad sectors, bad input and an ext4 file, all
namespace-relative.  UPSTREAM.txt comes from the boot on the module set
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

# keys whose values differ between the mocks for a named reason (their
# topologies differ: upstream injects on nfit_test.0's 2-way range, ours
# on nfit_test.1's 1-way one; media-oracle.sh records only
# namespace-relative values, and in the runs so far every line was
# equal, so none is listed: a difference that appears is to be named
# here, key by key, with its reason, or fixed)
# nt-dax.txt: the steps that take DAX page faults run on ours only
# (nt-dax.sh records them "not run" on upstream's mock, whose DAX pfns
# hit a BUG_ON in the fault path of Debian's kernel); nt-dax.sh checks
# ours' values itself
DIFFERENT = {
    "fsdax mmap write 64K": "nofault",
    "fsdax MAP_SYNC": "nofault",
    "dax mmap bad block | next": "nofault",
    "dax after pwrite: mmap": "nofault",
    "dax pwrite of the whole block": "norecovery",
    "dax after pwrite: read(2)": "norecovery",
    "dax after pwrite: badblocks": "norecovery",
}
REASONS = {
    "nofault": "upstream's mock takes no DAX page fault on Debian's "
               "kernel (BUG_ON in __vm_insert_mixed); checked on ours "
               "in the guest",
    "norecovery": "upstream's mock's direct_access override answers EIO "
                  "to DAX_RECOVERY_WRITE (6.1's pmem.c maps the block); "
                  "checked on ours in the guest",
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
        elif k in DIFFERENT and DIFFERENT[k] == "nofault" and v != "not run":
            fails += 1
            print("not ok %d - %s: %s: upstream '%s', want 'not run' (%s)"
                  % (n, name, k, v, REASONS["nofault"]))
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
