#!/usr/bin/env python3
"""Compare `ndctl list -BDRN` JSON of our modules with the oracle's.

usage: compare-topology.py ORACLE.json OURS.json    (prints TAP)

Every field either side produces is compared (a field on one side only
is a difference); objects are matched by "dev" name, so listing order
does not matter.  IGNORED lists fields that are deliberately not
compared, each with the reason (the lead fills it).

Beside each FILE.json the -i listing FILE-all.json (topology.sh writes
both: `ndctl list -BDRN` and `ndctl list -BDRNi`, which adds the idle
namespaces) is compared the same way; a missing one is a failure.
"""
import json
import os
import sys

# lists holding child objects: compared as objects of their own
CHILDREN = ("dimms", "regions", "mappings", "namespaces")

# "kind.field" -> reason it is not compared.  Start empty.
IGNORED = {
}


def buses(doc):
    if isinstance(doc, dict):
        # a single bus, or {"dimms":..} without -B
        return [doc]
    return list(doc or [])


def flatten(doc):
    """{(kind, key): {field: value}} of everything the listing holds."""
    out = {}
    for b in buses(doc):
        bkey = b.get("dev", "?")
        out[("bus", bkey)] = b
        for d in b.get("dimms", []):
            out[("dimm", d.get("dev"))] = d
        for r in b.get("regions", []):
            out[("region", r.get("dev"))] = r
            for m in r.get("mappings", []):
                out[("mapping", "%s/%s" % (r.get("dev"), m.get("dimm")))] = m
            for n in r.get("namespaces", []):
                out[("namespace", n.get("dev"))] = n
    return out


def load(path, n, label):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("not ok %d - topology-compare%s: cannot read %s: %s"
              % (n, label, path, e))
        return None


def compare(want, got, n, label):
    """TAP lines for every object of two flattened listings: (n, fails)"""
    fails = 0
    for key in sorted(set(want) | set(got)):
        kind, dev = key
        n += 1
        desc = "topology-compare%s: %s %s" % (label, kind, dev)
        if key not in got:
            print("not ok %d - %s: missing in ours" % (n, desc))
            fails += 1
            continue
        if key not in want:
            print("not ok %d - %s: not in the oracle" % (n, desc))
            fails += 1
            continue
        diffs = []
        ign = []
        fields = sorted((set(want[key]) | set(got[key])) - set(CHILDREN))
        for field in fields:
            name = "%s.%s" % (kind, field)
            a, b = want[key].get(field), got[key].get(field)
            if name in IGNORED:
                if a != b:
                    ign.append(name)
                continue
            if field not in got[key] or field not in want[key]:
                diffs.append("%s: only in %s" % (
                    field, "ours" if field in got[key] else "the oracle"))
            elif a != b:
                diffs.append("%s: oracle %s, ours %s"
                             % (field, json.dumps(a), json.dumps(b)))
        if diffs:
            print("not ok %d - %s: %s" % (n, desc, "; ".join(diffs)))
            fails += 1
        else:
            extra = " (differs in ignored %s)" % ", ".join(ign) if ign else ""
            print("ok %d - %s (%d fields)%s" % (n, desc, len(fields), extra))
    return n, fails


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    n = fails = 0
    pairs = [(sys.argv[1], sys.argv[2], "")]
    pairs.append(tuple(os.path.splitext(p)[0] + "-all.json"
                       for p in sys.argv[1:]) + (" -i",))
    for want_path, got_path, label in pairs:
        docs = []
        for path in (want_path, got_path):
            doc = load(path, n + 1, label)
            if doc is None:
                n += 1
                fails += 1
                break
            docs.append(doc)
        if len(docs) != 2:
            continue
        want, got = (flatten(d) for d in docs)
        if not want:
            n += 1
            fails += 1
            print("not ok %d - topology-compare%s: oracle listing is empty"
                  % (n, label))
            continue
        n, f = compare(want, got, n, label)
        fails += f
    for name, reason in sorted(IGNORED.items()):
        print("# ignored %s: %s" % (name, reason))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
