# SPDX-License-Identifier: GPL-2.0-only
"""ACPI tables of ours that QEMU adds to its firmware's (-acpitable) for
the boots whose tests need them: vm/acpi/NAME.asl compiled by iasl
(acpica-tools) into build/vm/acpi/NAME.aml."""

import fcntl
import os
import shutil
import subprocess
import tempfile

from .config import TOP, VM


# ACPI tables (vm/acpi/NAME.asl, compiled by iasl) that QEMU adds to the
# firmware's for the boots running a test of this map: the table's AML
# raises ACPI notifications on QEMU's NVDIMM device objects when the test
# asks (docs/dimm-health.md, "Notification")
TEST_ACPI_TABLES = {"dimm-notify": "dimm-notify"}


class AcpiTableError(Exception):
    pass


def acpi_tables(platform, tests):
    """The compiled tables (build/vm/acpi/NAME.aml, rebuilt when missing
    or older than their source) the TESTS of a boot on PLATFORM need:
    only QEMU's NVDIMM platform has the devices they name."""
    if platform != "qemu":
        return []
    out = []
    for name in sorted({TEST_ACPI_TABLES[t] for t in tests
                        if t in TEST_ACPI_TABLES}):
        src = os.path.join(TOP, "vm", "acpi", name + ".asl")
        d = os.path.join(VM, "acpi")
        aml = os.path.join(d, name + ".aml")
        os.makedirs(d, exist_ok=True)
        # boots start side by side (make check: two lanes): one compiles
        # under the lock, in a directory of its own, and renames the
        # result into place; the others find it fresh
        with open(os.path.join(d, name + ".lock"), "w") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            if not os.path.exists(aml) or \
                    os.path.getmtime(aml) < os.path.getmtime(src):
                tmp = tempfile.mkdtemp(prefix=name + ".", dir=d)
                try:
                    try:
                        p = subprocess.run(
                            ["iasl", "-p", os.path.join(tmp, name), src],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
                    except OSError as e:
                        raise AcpiTableError(
                            "iasl (acpica-tools, make deps): %s" % e)
                    built = os.path.join(tmp, name + ".aml")
                    if p.returncode or not os.path.exists(built):
                        raise AcpiTableError("iasl %s failed: %s" % (
                            os.path.relpath(src, TOP),
                            p.stdout.strip()[-400:]))
                    os.replace(built, aml)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
        out.append(aml)
    return out
