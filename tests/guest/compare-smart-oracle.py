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
    "fw_size": "6.1's mock leaves nd_fw_size as the caller sent it "
               "(nd-label-ioctl: 0xdeadbeef) on its Intel functions; ours "
               "says how many output bytes the firmware filled, as the "
               "ACPI path does",
    "dirty_stub": "6.1's mock overrides the kernel's read of the shutdown "
                  "count (acpi_nfit_test.c: every DIMM with a control "
                  "region gets dirty_shutdown 42, SMART or not); ours reads "
                  "the DIMM's SMART at registration, so a DIMM without the "
                  "SMART function has no nfit/dirty_shutdown, as on ACPI "
                  "firmware",
    "commands": "ours also offers flags (ND_CMD_DIMM_FLAGS, the block "
                "windows of v4.2's BLK DIMMs), which 6.1's mock does not",
}
base.DIFFERENT = {
    "commands": "commands",
    "call.smart": "fw_size",
    "call.lss-bad": "fw_size",
    "dirty.nosmart": "dirty_stub",
}

if __name__ == "__main__":
    sys.exit(base.main())
