/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxl_pmem is two translation units that never see each other's headers:
 *
 *   pmem.c  the CXL side: the drivers of the CXL core's nvdimm-bridge,
 *           nvdimm and pmem-region devices, compiled against the core's
 *           private headers of Debian's linux-source-6.1 (cxl.h includes
 *           the kernel's <linux/libnvdimm.h>, whose structures the
 *           built-in core was compiled with);
 *   nd.c    the libnvdimm side: our bus, DIMMs and regions, compiled
 *           against our "libnvdimm.h" (same function names, other
 *           structures: the two cannot meet in one file).
 *
 * This header is all they share: plain types, and libnvdimm's objects as
 * opaque pointers.
 */
#ifndef __CXL_ND_H__
#define __CXL_ND_H__

#include <linux/types.h>

struct device;
struct nvdimm_bus;
struct nvdimm;
struct nd_region;

/**
 * struct cxl_nd_mapping - one memory device's part of a pmem region
 * @nvdimm: its DIMM (cxl_nd_dimm_add())
 * @dpa: first device physical address of the part
 * @size: length of the part in bytes
 * @serial: the device's serial number (the interleave-set cookie)
 */
struct cxl_nd_mapping {
	struct nvdimm *nvdimm;
	u64 dpa;
	u64 size;
	u64 serial;
};

/**
 * struct cxl_nd_region - a committed CXL pmem region, for libnvdimm
 * @res: the host physical range, already in iomem_resource
 * @id: the CXL region's id (a memregion id): the nd region is regionN
 * @numa_node: node of the range
 * @target_node: memory target node of the range
 * @provider_data: the cxl_pmem_region, for nd_region_provider_data()
 * @nr: number of entries in @map (interleave ways)
 * @map: the devices' parts, in interleave position order
 */
struct cxl_nd_region {
	struct resource *res;
	int id;
	int numa_node;
	int target_node;
	void *provider_data;
	int nr;
	const struct cxl_nd_mapping *map;
};

/* nd.c: libnvdimm's side */
struct nvdimm_bus *cxl_nd_bus_add(struct device *parent);
void cxl_nd_bus_del(struct nvdimm_bus *bus);
struct nvdimm *cxl_nd_dimm_add(struct nvdimm_bus *bus, void *cxl_nvd);
void cxl_nd_dimm_del(struct nvdimm *nvdimm);
struct nd_region *cxl_nd_region_add(struct nvdimm_bus *bus,
				    const struct cxl_nd_region *r);
void cxl_nd_region_del(struct nd_region *nd_region);

/*
 * pmem.c: the label storage area of the memory device behind a DIMM's
 * provider data (its cxl_nvdimm), through the mailbox.  Each returns 0
 * or a negative errno (a failed mailbox command: the core's errno).
 */
void cxl_nd_lsa_geometry(void *cxl_nvd, u32 *size, u32 *max_xfer);
int cxl_nd_lsa_read(void *cxl_nvd, u32 offset, void *buf, u32 len);
int cxl_nd_lsa_write(void *cxl_nvd, u32 offset, const void *buf, u32 len);

#endif /* __CXL_ND_H__ */
