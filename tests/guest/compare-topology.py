#!/usr/bin/env python3
"""Compare `ndctl list -BDRN` JSON of our modules with the oracle's.

usage: compare-topology.py ORACLE.json OURS.json    (prints TAP)

Only the fields of issue #2 are compared; objects are matched by "dev"
name, so listing order does not matter.  IGNORED lists fields that are
deliberately not compared, each with the reason (the lead fills it).
"""
import json
import sys

# object kind -> fields compared (issue #2)
FIELDS = {
    "bus": ["provider", "dev"],
    "dimm": ["dev", "id", "handle", "phys_id"],
    "region": ["dev", "type", "size", "mappings", "iset_id"],
    "mapping": ["dimm", "offset", "length", "position"],
    "namespace": ["dev", "mode", "size", "sector_size", "blockdev"],
}

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


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    docs = []
    for path in sys.argv[1:]:
        try:
            with open(path) as f:
                docs.append(json.load(f))
        except (OSError, ValueError) as e:
            print("not ok 1 - topology-compare: cannot read %s: %s"
                  % (path, e))
            return 1
    want, got = (flatten(d) for d in docs)
    n = 0
    fails = 0
    for key in sorted(set(want) | set(got)):
        kind, dev = key
        n += 1
        desc = "topology-compare: %s %s" % (kind, dev)
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
        for field in FIELDS[kind]:
            if field == "mappings":
                continue            # compared as mapping objects
            name = "%s.%s" % (kind, field)
            a, b = want[key].get(field), got[key].get(field)
            if name in IGNORED:
                if a != b:
                    ign.append(name)
                continue
            if a != b:
                diffs.append("%s: oracle %s, ours %s"
                             % (field, json.dumps(a), json.dumps(b)))
        if diffs:
            print("not ok %d - %s: %s" % (n, desc, "; ".join(diffs)))
            fails += 1
        else:
            extra = " (differs in ignored %s)" % ", ".join(ign) if ign else ""
            print("ok %d - %s%s" % (n, desc, extra))
    for name, reason in sorted(IGNORED.items()):
        print("# ignored %s: %s" % (name, reason))
    if n == 0:
        print("not ok 1 - topology-compare: oracle listing is empty")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
