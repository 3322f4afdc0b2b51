#!/usr/bin/env python3
"""Compare nt-security's record on upstream's own 6.1 mock with ours.

usage: compare-security-oracle.py UPSTREAM.txt OURS.txt    (prints TAP)

nt-security.txt (tests/guest/nt-security.sh): "KEY = VALUE" lines, the
exit codes of Debian's ndctl 76.1 security commands (setup-passphrase,
update-passphrase, remove-passphrase, freeze-security, sanitize-dimm,
wait-overwrite, enable-dimm of a locked DIMM), the DIMM's security and
frozen attributes after each, and the errno of each bad write to
"security".  The rules are compare-media-oracle.py's (same loader and
report): every key on both sides with the same value, except DIFFERENT.
"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "compare_media_oracle",
    os.path.join(os.path.dirname(os.path.abspath(__file__)),
                 "compare-media-oracle.py"))
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)

# keys whose values differ for a named reason (a new difference is to be
# named here with its reason, or fixed)
_base.DIFFERENT = {
    # issue 29: "a region on a locked DIMM is not enabled"; 6.1 enables
    # the regions of a DIMM that stayed locked (its namespaces then fail)
    "unlock-wrong-key.regions-enabled": "locked-region",
    # upstream's mock after an overwrite: its security state reads fail
    # (the attribute is unreadable, wait-overwrite reports "not
    # supported"); ours completes the overwrite and reports "disabled"
    "overwrite.state": "upstream-overwrite",
    "overwrite.state-after": "upstream-overwrite",
    "wait-overwrite.rc": "upstream-overwrite",
    "wait-overwrite.state": "upstream-overwrite",
    "ow-enable-dimm.state": "upstream-overwrite",
    "end.state": "upstream-overwrite",
}
_base.REASONS = {
    "locked-region": "issue 29 keeps the regions of a locked DIMM disabled, "
                     "6.1 enables them",
    "upstream-overwrite": "upstream's mock answers no security call after "
                          "an overwrite; ours completes it (disabled)",
}

if __name__ == "__main__":
    sys.exit(_base.main())
