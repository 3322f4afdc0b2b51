#!/usr/bin/env python3
"""Compare the namespaces of two `ndctl list -RNu` dumps (label-ns.sh).

usage: compare-label-ns.py STOCK.json OURS.json    (prints TAP)

Namespaces created by the stock modules must be found by ours after the
reboot with the same dev, mode, size, uuid, name, sector_size and block
device.  Region-level fields are not compared: available_size and the
seed need label updates, which ours does not do yet.
"""
import json
import sys

KEYS = ("dev", "mode", "size", "uuid", "name", "sector_size", "blockdev")


def namespaces(doc, out):
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "namespaces" and isinstance(v, list):
                out.extend(n for n in v if isinstance(n, dict))
            else:
                namespaces(v, out)
    elif isinstance(doc, list):
        for v in doc:
            namespaces(v, out)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    try:
        with open(sys.argv[1]) as f:
            want = namespaces(json.load(f), [])
        with open(sys.argv[2]) as f:
            got = {n.get("uuid"): n for n in namespaces(json.load(f), [])}
    except (OSError, ValueError) as e:
        print("not ok 1 - label-ns-compare: %s" % e)
        return 1
    n = fails = 0
    for w in want:
        n += 1
        desc = "label-ns-compare: %s (%s)" % (w.get("dev"), w.get("name"))
        g = got.get(w.get("uuid"))
        if g is None:
            print("not ok %d - %s: uuid %s missing in ours" % (n, desc, w.get("uuid")))
            fails += 1
            continue
        diff = ["%s stock %r ours %r" % (k, w.get(k), g.get(k))
                for k in KEYS if w.get(k) != g.get(k)]
        if diff:
            print("not ok %d - %s: %s" % (n, desc, "; ".join(diff)))
            fails += 1
        else:
            print("ok %d - %s: %s" % (n, desc, " ".join(
                "%s=%s" % (k, w.get(k)) for k in KEYS)))
    if n == 0:
        print("not ok 1 - label-ns-compare: no namespaces in the stock dump")
        n = fails = 1
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
