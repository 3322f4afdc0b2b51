#!/usr/bin/env python3
"""Compare label-index.txt of our modules with the stock modules' (oracle).

usage: compare-label-index.py ORACLE.txt OURS.txt    (prints TAP)

Each line is "SCENARIO KEY VALUE" (tests/guest/label-index.sh).  Every
value must be equal, except the (scenario, key) pairs in KNOWN, which are
deliberate differences (each with its reason): there the stock value and
ours must both be exactly the ones listed, so a known difference that
changes on either side fails like any other.
"""
import sys

# (scenario, key) -> (stock value, our value, why ours differs from stock 6.1)
KNOWN = {
    ("corrupt1", "region.namespaces"): (
        "namespace1.0:nd_namespace_pmem:0,",
        "namespace1.0:nd_namespace_io:536870912,",
        "follows region.nstype: ours has the io namespace of a label-less "
        "region where stock keeps the seed namespaceN.0 (nd_namespace_pmem)"),
    ("corrupt1", "dimm.flags"): (
        "label_", "",
        "stock 6.1 never clears NDD_LABELING once set (until the module is "
        "reloaded); ours re-evaluates it at every DIMM bind, so a DIMM "
        "whose index is gone comes up label-less"),
    ("corrupt1", "region.nstype"): (
        "5", "4",
        "follows dimm.flags: label-less DIMM -> io region (4) on ours, "
        "stock keeps 5"),
}


def load(path):
    out = {}
    order = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) < 2:
                continue
            key = (parts[0], parts[1])
            out[key] = parts[2] if len(parts) > 2 else ""
            order.append(key)
    return out, order


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    try:
        want, order = load(sys.argv[1])
        got, gorder = load(sys.argv[2])
    except OSError as e:
        print("not ok 1 - label-index-compare: %s" % e)
        return 1
    keys = order + [k for k in gorder if k not in want]
    n = fails = 0
    for key in keys:
        n += 1
        desc = "label-index-compare: %s %s" % key
        if key not in got:
            print("not ok %d - %s: missing in ours" % (n, desc))
            fails += 1
        elif key not in want:
            print("not ok %d - %s: not in the oracle" % (n, desc))
            fails += 1
        elif want[key] == got[key]:
            print("ok %d - %s = %s" % (n, desc, got[key]))
        elif key in KNOWN and KNOWN[key][:2] == (want[key], got[key]):
            print("ok %d - %s: stock %s, ours %s (known difference)"
                  % (n, desc, want[key], got[key]))
        elif key in KNOWN:
            print("not ok %d - %s: stock %s, ours %s; the known difference "
                  "is stock %s, ours %s" % (n, desc, want[key], got[key],
                                            KNOWN[key][0], KNOWN[key][1]))
            fails += 1
        else:
            print("not ok %d - %s: stock %s, ours %s"
                  % (n, desc, want[key], got[key]))
            fails += 1
    for key, (_, _, reason) in sorted(KNOWN.items()):
        print("# known difference %s %s: %s" % (key[0], key[1], reason))
    if n == 0:
        print("not ok 1 - label-index-compare: oracle file is empty")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
