/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * dimm-notify: an SSDT QEMU adds to the guest's firmware tables
 * (-acpitable) for the boots that run tests/guest/dimm-notify.sh, so that
 * the ACPI notifications firmware raises on NVDIMM devices reach the
 * nfit driver as they do on real machines: AML executing Notify() on
 * QEMU's own NVDIMM device objects (\_SB.NVDR.NVxx, _ADR = the NFIT
 * device handle: NV00 and NV01 are the platform's two DIMMs, NV02 and
 * NV03 empty slots without an NFIT entry).  QEMU 7.2 itself never sends
 * the health notification (0x81).
 *
 * Each trigger is a device of its own under \_SB (_HID "NVTN0081", an
 * ID no driver claims: an unbound platform device) whose _SUN performs
 * its notification.  Linux evaluates _SUN only when its sysfs attribute
 * is read (/sys/bus/acpi/devices/NVTN0081:NN/sun, the device whose
 * `path` is \_SB_.NTxx), so a guest test raises each notification at
 * the moment it chooses.  ACPICA queues the Notify to the handlers
 * installed on the target device (kacpi_notify, one at a time, in
 * order); without a handler it is dropped.
 */
DefinitionBlock ("", "SSDT", 2, "NVT", "DIMMNTFY", 0x00000001)
{
    External (\_SB.NVDR.NV00, DeviceObj)
    External (\_SB.NVDR.NV01, DeviceObj)
    External (\_SB.NVDR.NV02, DeviceObj)

    Scope (\_SB)
    {
        /* the DIMM health event (ACPI 6.x: 0x81 on an NVDIMM device) */
        Device (NTH0)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 0)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV00, 0x81)
                Return (0x81)
            }
        }

        Device (NTH1)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 1)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV01, 0x81)
                Return (0x81)
            }
        }

        /* an NVDIMM device whose handle (_ADR 3) no NFIT entry names */
        Device (NTH2)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 2)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV02, 0x81)
                Return (0x81)
            }
        }

        /* other device notification values on a DIMM */
        Device (NTV0)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 3)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV00, 0x80)
                Return (0x80)
            }
        }

        Device (NTV1)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 4)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV00, 0x82)
                Return (0x82)
            }
        }

        Device (NTV2)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 5)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV00, 0xFF)
                Return (0xFF)
            }
        }

        /* a burst: three health events on one DIMM at once */
        Device (NTB0)
        {
            Name (_HID, "NVTN0081")
            Name (_UID, 6)
            Method (_SUN, 0, Serialized)
            {
                Notify (\_SB.NVDR.NV00, 0x81)
                Notify (\_SB.NVDR.NV00, 0x81)
                Notify (\_SB.NVDR.NV00, 0x81)
                Return (0x83)
            }
        }
    }
}
