#!/usr/bin/env python3
"""Compare two `ndctl list -RNu` dumps (label-ns.sh): stock vs ours.

usage: compare-label-ns.py STOCK.json OURS.json    (prints TAP)

Namespaces created by the stock modules must be found by ours after the
reboot, and nothing else: every namespace of either dump is matched by
uuid (by dev when it has none, the io namespace of the label-less DIMM)
and every field either side lists is compared (a namespace or a field on
one side only is a failure).  So is every field of every region
(available_size, max_available_extent, the seeds ndctl shows, ...),
matched by dev; the regions' namespace lists are the namespaces above.
"""
import json
import sys

CHILDREN = ("namespaces", "mappings")


def objects(doc, out):
    """{("region", dev) or ("namespace", uuid|dev): object} of a dump"""
    if isinstance(doc, dict):
        if "namespaces" in doc or doc.get("dev", "").startswith("region"):
            out[("region", doc.get("dev"))] = doc
        for k, v in doc.items():
            if k == "namespaces" and isinstance(v, list):
                for n in v:
                    if isinstance(n, dict):
                        out[("namespace", n.get("uuid") or n.get("dev"))] = n
            else:
                objects(v, out)
    elif isinstance(doc, list):
        for v in doc:
            objects(v, out)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    docs = []
    for path in sys.argv[1:]:
        try:
            with open(path) as f:
                docs.append(objects(json.load(f), {}))
        except (OSError, ValueError) as e:
            print("not ok 1 - label-ns-compare: %s: %s" % (path, e))
            return 1
    want, got = docs
    n = fails = 0
    if not any(k[0] == "namespace" for k in want):
        print("not ok 1 - label-ns-compare: no namespaces in the stock dump")
        n = fails = 1
    for key in sorted(set(want) | set(got), key=lambda k: (k[0] != "region", k)):
        n += 1
        w, g = want.get(key), got.get(key)
        name = (w or g).get("name")
        desc = "label-ns-compare: %s %s%s" % (
            key[0], (w or g).get("dev"), " (%s)" % name if name else "")
        if g is None or w is None:
            print("not ok %d - %s: %s only in %s" % (
                n, desc, key[1], "stock" if g is None else "ours"))
            fails += 1
            continue
        fields = sorted((set(w) | set(g)) - set(CHILDREN))
        diff = ["%s stock %r ours %r" % (k, w.get(k, "<none>"), g.get(k, "<none>"))
                for k in fields if k not in w or k not in g or w[k] != g[k]]
        if diff:
            print("not ok %d - %s: %s" % (n, desc, "; ".join(diff)))
            fails += 1
        else:
            print("ok %d - %s: %d fields equal (%s)" % (n, desc, len(fields), " ".join(
                "%s=%s" % (k, w.get(k)) for k in fields)))
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
