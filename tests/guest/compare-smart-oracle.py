#!/usr/bin/env python3
"""Compare nt-smart's record on upstream's own 6.1 mock with ours.

usage: compare-smart-oracle.py UPSTREAM.txt OURS.txt    (prints TAP)

nt-smart.txt (tests/guest/nt-smart.sh): "KEY = VALUE" lines, what
Debian's ndctl 76.1 shows of one DIMM's health (list -H, inject-smart,
the fail_cmd knobs, monitor).  The rules are compare-media-oracle.py's
(every key on both sides with the same value, a skipped side one skipped
test); only the keys that differ by design are this file's.
"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "compare_media_oracle",
    os.path.join(os.path.dirname(os.path.abspath(__file__)),
                 "compare-media-oracle.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

# key -> reason id; the values differ between the mocks for that reason
base.REASONS = {
    "notify": "6.1's mock raises its health notification on its "
              "test_dimmN class device, whose driver data is not the "
              "DIMM's, so 6.1's nfit core drops it: nothing wakes ndctl "
              "monitor there; ours reaches nmemN/nfit/flags as an ACPI "
              "notification on a DIMM's device does",
    "commands": "6.1's mock DIMMs also offer the vendor-specific and "
                "effect-log commands (native ND_CMD_*), ours the label "
                "commands and the passthrough only",
}
base.DIFFERENT = {
    "monitor.woke": "notify",
    "monitor.before": "notify",
    "commands": "commands",
}

if __name__ == "__main__":
    sys.exit(base.main())
