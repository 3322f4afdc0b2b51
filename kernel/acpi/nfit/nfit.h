/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfit.ko: the ACPI NFIT bus provider.  One acpi_nfit_desc per ACPI0012
 * device; the NFIT is copied once at bind and every object below points
 * into that copy.
 */
#ifndef __NFIT_H__
#define __NFIT_H__

#include <linux/acpi.h>
#include <linux/list.h>
#include "libnvdimm.h"
#include "table.h"

/* _DSM function sets (UUIDs from the ACPI/Intel DSM specifications) */
#define NFIT_DSM_ROOT_GUID "2f10e7a4-9e91-11e4-89d3-123b93f75cba"
#define NFIT_DSM_INTEL_GUID "4309ac30-0d11-11e4-9191-0800200c9a66"
#define NFIT_DSM_REVISION 1

/* ndctl's family numbers (uapi NVDIMM_FAMILY_*) */
#define NFIT_FAMILY_INTEL 0
#define NFIT_FAMILY_NONE -1

/**
 * struct nfit_mem - one DIMM as the NFIT describes it
 * @list: entry in acpi_nfit_desc.dimms
 * @handle: NFIT device handle
 * @phys_id: SMBIOS handle
 * @dcr: its control region
 * @bdw: its block-data window, NULL when none
 * @flush: its flush hint table, NULL when none
 * @mem_flags: OR of the state flags of all its memdevs
 * @has_pm: one of its memdevs maps a PMEM range
 * @adev: its ACPI device (child of ACPI0012 with _ADR = handle), or NULL
 * @family: NFIT_FAMILY_INTEL when its _DSM speaks the Intel set
 * @dsm_mask: _DSM functions the firmware reports
 * @nvdimm: the libnvdimm DIMM
 */
struct nfit_mem {
	struct list_head list;
	u32 handle;
	u16 phys_id;
	const struct acpi_nfit_control_region *dcr;
	const struct acpi_nfit_data_region *bdw;
	const struct acpi_nfit_flush_address *flush;
	u16 mem_flags;
	bool has_pm;
	struct acpi_device *adev;
	int family;
	unsigned long dsm_mask;
	struct nvdimm *nvdimm;
};

/**
 * struct acpi_nfit_desc - one NFIT bus
 * @nd_desc: what libnvdimm sees
 * @dev: the ACPI0012 device
 * @adev: its ACPI node, NULL for a mock bus
 * @nvdimm_bus: the registered bus
 * @table: the parsed copy of the NFIT
 * @dimms: struct nfit_mem list
 * @bus_dsm_mask: root _DSM functions the firmware reports
 * @dimm_cmd_mask: when non-zero, the DIMM commands every DIMM of a bus
 *	without ACPI _DSM supports (a mock bus that answers them itself)
 * @pmem_align: when non-zero, the namespace size granularity per DIMM of
 *	every PMEM region: a region's initial align is this times its
 *	interleave ways (a mock bus of the v4.2 era: PAGE_SIZE).  0, as on
 *	ACPI firmware, keeps the core's default (6.1's)
 */
struct acpi_nfit_desc {
	struct nvdimm_bus_descriptor nd_desc;
	struct device *dev;
	struct acpi_device *adev;
	struct nvdimm_bus *nvdimm_bus;
	struct nfit_table table;
	struct list_head dimms;
	unsigned long bus_dsm_mask;
	unsigned long dimm_cmd_mask;
	unsigned long pmem_align;
};

static inline struct acpi_nfit_desc *to_acpi_nfit_desc(struct nvdimm_bus_descriptor *nd_desc)
{
	return container_of(nd_desc, struct acpi_nfit_desc, nd_desc);
}

int acpi_nfit_init(struct acpi_nfit_desc *acpi_desc, const void *nfit,
		   u32 len);

#endif /* __NFIT_H__ */
