/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host shim: ACPICA's table definitions (struct acpi_table_nfit and the
 * struct acpi_nfit_* subtables) straight from the kernel headers in
 * $(KHDR_COMMON)/include, with the few ACPICA basics they rely on.
 * <acpi/actbl.h> pulls in actbl1.h, actbl2.h and actbl3.h, so this works
 * whichever of them holds the NFIT in a given kernel release.
 */
#ifndef NFIT_SHIM_LINUX_ACPI_H
#define NFIT_SHIM_LINUX_ACPI_H

#include <linux/types.h>

#define ACPI_NAMESEG_SIZE	4
#define ACPI_NAME_SIZE		4
#define ACPI_OEM_ID_SIZE	6
#define ACPI_OEM_TABLE_ID_SIZE	8

typedef u64 acpi_physical_address;
typedef u16 acpi_owner_id;

#include <acpi/actbl.h>

#endif
