#!/usr/bin/env python3
"""Compare two `ndctl list` JSON outputs, ignoring array order.

usage: jsoncmp.py [--common] [--ignore KEY[,KEY...]] EXPECTED ACTUAL

Arrays of objects are matched by their "dev" (or "dimm") key, so the
readdir order ndctl 76.1 happens to print does not matter.  A single object
and a one-element array are treated alike (ndctl unwraps with -u).
--common  compare only keys present on both sides (report them as "only in")
--ignore  keys left out of the comparison everywhere
Exit 0 when equal; otherwise one line per difference and exit 1.
"""
import json
import sys


def norm(v):
    if isinstance(v, list) and len(v) == 1 and isinstance(v[0], dict) and "dev" in v[0]:
        return v[0]
    return v


def key_of(o):
    if isinstance(o, dict):
        return str(o.get("dev", o.get("dimm", o.get("provider", ""))))
    return json.dumps(o, sort_keys=True)


def compare(a, b, path, common, ignore, diffs, only):
    a, b = norm(a), norm(b)
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in ignore:
                continue
            p = path + "." + k
            if k not in a or k not in b:
                side = "expected" if k in a else "actual"
                only.append("%s only in %s" % (p, side))
                if not common:
                    diffs.append("%s: only in %s (%r)" % (p, side, a.get(k, b.get(k))))
                continue
            compare(a[k], b[k], p, common, ignore, diffs, only)
    elif isinstance(a, list) and isinstance(b, list):
        ma = {key_of(x): x for x in a}
        mb = {key_of(x): x for x in b}
        for k in sorted(set(ma) | set(mb)):
            p = "%s[%s]" % (path, k)
            if k not in ma or k not in mb:
                diffs.append("%s: only in %s" % (p, "expected" if k in ma else "actual"))
                continue
            compare(ma[k], mb[k], p, common, ignore, diffs, only)
    elif a != b:
        diffs.append("%s: expected %r, got %r" % (path, a, b))


def load(path):
    with open(path) as f:
        text = f.read().strip()
    return json.loads(text) if text else []


def main(argv):
    common = False
    ignore = set()
    args = []
    i = 1
    while i < len(argv):
        if argv[i] == "--common":
            common = True
        elif argv[i] == "--ignore":
            i += 1
            ignore |= set(argv[i].split(","))
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        a, b = load(args[0]), load(args[1])
    except (OSError, ValueError) as e:
        print("jsoncmp: %s" % e)
        return 1
    diffs, only = [], []
    compare(a, b, "$", common, ignore, diffs, only)
    for d in diffs:
        print(d)
    if common:
        for o in sorted(set(only)):
            print("# " + o)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
