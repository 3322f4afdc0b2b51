/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What drivers on the nd bus (nd_pmem, nd_blk, nd_btt) need from the core:
 * driver registration, namespace geometry and the region flush.
 */
#ifndef __ND_H__
#define __ND_H__

#include <linux/device.h>
#include <linux/range.h>
#include <linux/uuid.h>
#include <linux/workqueue.h>
#include "libnvdimm.h"
#include "dpa-range.h"

struct nd_claim_kind;

enum nd_claim_class {
	ND_CLAIM_NONE,
	ND_CLAIM_BTT,
	ND_CLAIM_PFN,
	ND_CLAIM_DAX,
	ND_CLAIM_UNKNOWN,	/* a v1.2 abstraction GUID we do not know */
};

/**
 * struct nd_namespace_io - a label-less namespace covering a whole region
 * @dev: namespaceR.N on the nd bus
 * @id: N in namespaceR.N
 * @res_start: first system-physical address
 * @res_size: bytes
 * @force_raw: skip personality (BTT/PFN) detection at bind
 * @claim: device (btt, pfn) that claimed this namespace, NULL when none
 * @claim_class: personality the namespace is reserved for (holder_class)
 * @virt: kernel mapping of the namespace's bytes while a driver holds it
 *	(nvdimm_namespace_bytes_enable()), NULL otherwise
 */
struct nd_namespace_io {
	struct device dev;
	int id;
	u64 res_start;
	u64 res_size;
	bool force_raw;
	struct device *claim;
	enum nd_claim_class claim_class;
	void *virt;
};

/**
 * struct nd_namespace_lbl - what label-backed namespaces (PMEM, BLK) share
 * @nsio: device, id, claim state, and the size in @nsio.res_size (PMEM:
 *	also the SPA start), so IO-namespace helpers work on all types
 * @uuid: namespace uuid
 * @has_uuid: false until a uuid is written (or read from labels)
 * @alt_name: name stored in the labels, NUL terminated
 * @lbasize: sector size, 0 when never set
 * @claim_guid: v1.2 abstraction GUID the labels record (null: none),
 *	read back at scan and written back unchanged until holder_class
 *	is written; @nsio.claim_class is the class it names
 *
 * Fields change under the device lock and the bus' reconfig_lock.
 */
struct nd_namespace_lbl {
	struct nd_namespace_io nsio;
	uuid_t uuid;
	bool has_uuid;
	char alt_name[64];
	u64 lbasize;
	guid_t claim_guid;
};

/**
 * struct nd_namespace_pmem - a label-described PMEM namespace (nstype 5)
 * @lbl: the label-backed namespace part
 * @dpa_offset: offset of the namespace's extent from each mapping's start
 *	(the same on every DIMM of the set)
 * @dpa_size: bytes of the extent on each DIMM, 0 when unallocated
 */
struct nd_namespace_pmem {
	struct nd_namespace_lbl lbl;
	u64 dpa_offset;
	u64 dpa_size;
};

/**
 * struct nd_namespace_blk - a BLK namespace (nstype 6): one DIMM's DPA
 * @lbl: the label-backed namespace part (@lbl.nsio.res_size: total size)
 * @nr_extents: entries in @extents
 * @extents: DPA ranges, ascending; the namespace's blocks run through
 *	them in that order
 * @io_on: byte access through the region's block windows is enabled
 *	(nvdimm_namespace_bytes_enable()); the extents cannot change then
 */
struct nd_namespace_blk {
	struct nd_namespace_lbl lbl;
	u32 nr_extents;
	struct nd_dpa_range *extents;
	bool io_on;
};

/* events a region passes down to the drivers of its children */
enum nvdimm_event {
	NVDIMM_REVALIDATE_RO,	/* the region's read_only setting changed */
	NVDIMM_REVALIDATE_POISON, /* the bus's bad ranges changed */
};

/**
 * struct nd_device_driver - a driver on the nd bus
 * @drv: the driver-core driver
 * @type: bitmask of ND_DEVICE_* numbers this driver binds
 * @probe: bind
 * @remove: unbind
 * @notify: region event, called with the device lock held, may be NULL
 */
struct nd_device_driver {
	struct device_driver drv;
	unsigned long type;
	int (*probe)(struct device *dev);
	void (*remove)(struct device *dev);
	void (*notify)(struct device *dev, enum nvdimm_event event);
};

static inline struct nd_device_driver *to_nd_device_driver(struct device_driver *drv)
{
	return container_of(drv, struct nd_device_driver, drv);
}

int __nd_driver_register(struct nd_device_driver *nd_drv, struct module *owner,
			 const char *mod_name);
#define nd_driver_register(driver) \
	__nd_driver_register(driver, THIS_MODULE, KBUILD_MODNAME)
void nd_driver_unregister(struct nd_device_driver *nd_drv);

#define module_nd_driver(driver) \
	module_driver(driver, nd_driver_register, nd_driver_unregister)

#define MODULE_ALIAS_ND_DEVICE(type) \
	MODULE_ALIAS("nd:t" __stringify(type) "*")

extern const struct device_type nd_namespace_io_device_type;
extern const struct device_type nd_namespace_pmem_device_type;
extern const struct device_type nd_namespace_blk_device_type;

static inline bool is_nd_namespace_io(const struct device *dev)
{
	return dev->type == &nd_namespace_io_device_type;
}

static inline bool is_nd_namespace_pmem(const struct device *dev)
{
	return dev->type == &nd_namespace_pmem_device_type;
}

static inline bool is_nd_namespace_blk(const struct device *dev)
{
	return dev->type == &nd_namespace_blk_device_type;
}

/* Every namespace type starts with struct nd_namespace_io. */
static inline struct nd_namespace_io *to_nd_namespace_io(struct device *dev)
{
	return container_of(dev, struct nd_namespace_io, dev);
}

/* PMEM and BLK namespaces only */
static inline struct nd_namespace_lbl *to_nd_namespace_lbl(struct device *dev)
{
	return container_of(to_nd_namespace_io(dev), struct nd_namespace_lbl,
			    nsio);
}

static inline struct nd_namespace_pmem *to_nd_namespace_pmem(struct device *dev)
{
	return container_of(to_nd_namespace_lbl(dev), struct nd_namespace_pmem,
			    lbl);
}

static inline struct nd_namespace_blk *to_nd_namespace_blk(struct device *dev)
{
	return container_of(to_nd_namespace_lbl(dev), struct nd_namespace_blk,
			    lbl);
}

/**
 * struct nd_claim_dev - what btt, pfn and dax devices share: a device
 *	that claims one namespace of its region for a personality
 * @dev: <kind>R.N on the nd bus, child of the region
 * @id: N in <kind>R.N
 * @ndns: the claimed namespace (its @claim is @dev), NULL when none
 * @uuid: the personality's uuid (its info block's)
 * @has_uuid: @uuid was written (or read from the media at autodetect)
 * @kind: the personality (core: claim_devs.c)
 * @added: device_add() returned (core, bus' reconfig_lock)
 * @unregistered: device_unregister() was called or is scheduled (core,
 *	bus' reconfig_lock)
 * @del_work: unregisters a released, idle non-seed device outside its
 *	own sysfs write (core)
 *
 * @ndns, @uuid and @has_uuid change under the device lock of @dev, never
 * while it is bound; @ndns also under the bus' reconfig_lock.
 */
struct nd_claim_dev {
	struct device dev;
	int id;
	struct device *ndns;
	uuid_t uuid;
	bool has_uuid;
	const struct nd_claim_kind *kind;
	bool added;
	bool unregistered;
	struct work_struct del_work;
};

/**
 * struct nd_btt - a btt device (bttR.N): a Block Translation Table over
 *	the namespace it claims
 * @cd: device, id, claimed namespace and uuid (the info block's @uuid)
 * @lbasize: external sector size, 0 when not selected
 * @initial_offset: namespace offset of the first arena: 4096 (BTT 1.1),
 *	0 (BTT 2.0, a v1.2-labelled namespace with holder_class btt)
 * @version_major: info block version written at format (1 or 2)
 * @version_minor: likewise (1 or 0)
 * @size: bytes the block device exports while attached, 0 otherwise
 * @btt: nd_btt.ko's state while attached
 *
 * @lbasize changes under the btt's device lock, never while it is bound.
 */
struct nd_btt {
	struct nd_claim_dev cd;
	u32 lbasize;
	u64 initial_offset;
	u16 version_major;
	u16 version_minor;
	u64 size;
	struct btt *btt;
};

extern const struct device_type nd_btt_device_type;

static inline bool is_nd_btt(const struct device *dev)
{
	return dev->type == &nd_btt_device_type;
}

static inline struct nd_btt *to_nd_btt(struct device *dev)
{
	return container_of(dev, struct nd_btt, cd.dev);
}

/**
 * struct nd_pfn - a pfn (pfnR.N, fsdax) or dax (daxR.N, devdax) device:
 *	struct pages for the namespace it claims, described by the info
 *	block at offset 4096 of that namespace
 * @cd: device, id, claimed namespace and uuid (the info block's @uuid)
 * @mode: where the struct pages live: PFN_MODE_RAM, PFN_MODE_PMEM (in
 *	the namespace, behind the info block), PFN_MODE_NONE when not chosen
 * @align: mapping alignment in bytes (one of the supported alignments)
 * @dataoff: while attached: the info block's dataoff (from the start of
 *	the mapped range, which is the namespace's plus @start_pad)
 * @start_pad: while attached: bytes skipped at the namespace start
 * @end_trunc: while attached: bytes unused at the namespace end
 * @npfns: while attached: data pages
 *
 * @mode and @align change under the device lock, never while it is
 * bound; the layout fields are written by its probe and read under the
 * device lock while it is bound.
 */
struct nd_pfn {
	struct nd_claim_dev cd;
	u32 mode;
	unsigned long align;
	u64 dataoff;
	u32 start_pad;
	u32 end_trunc;
	u64 npfns;
};

extern const struct device_type nd_pfn_device_type;
extern const struct device_type nd_dax_device_type;

static inline bool is_nd_pfn(const struct device *dev)
{
	return dev->type == &nd_pfn_device_type;
}

static inline bool is_nd_dax(const struct device *dev)
{
	return dev->type == &nd_dax_device_type;
}

static inline struct nd_pfn *to_nd_pfn(struct device *dev)
{
	return container_of(dev, struct nd_pfn, cd.dev);
}

struct dev_pagemap;
int nvdimm_setup_pfn(struct device *dev, struct dev_pagemap *pgmap);
bool nvdimm_range_is_pmem(struct nd_region *nd_region, u64 start, u64 size);
bool nd_region_pagemap(struct nd_region *nd_region);
int nd_region_target_node(struct nd_region *nd_region);

int nd_claim_dev_attach_check(struct nd_claim_dev *cd, struct range *range);
int nd_namespace_common_probe(struct device *ndns_dev, struct device *by,
			      struct range *range);
int nd_namespace_probe_raw(struct device *ndns_dev);
bool nd_region_read_only(struct device *ndns_dev);
bool nd_namespace_maps_pages(struct device *ndns_dev);
struct badblocks;
struct range;
void nvdimm_badblocks_populate(struct nd_region *nd_region,
			       struct badblocks *bb, const struct range *range);
long nvdimm_clear_poison(struct device *dev, phys_addr_t phys,
			 unsigned int len);
const char *nd_namespace_disk_name(struct device *ndns_dev, char *name,
				   size_t len);

/* Byte access to a namespace (the BTT's media), core: namespace_io.c */
int nvdimm_namespace_bytes_enable(struct device *owner,
				  struct device *ndns_dev);
int nvdimm_read_bytes(struct device *ndns_dev, u64 offset, void *buf,
		      size_t size);
int nvdimm_write_bytes(struct device *ndns_dev, u64 offset, const void *buf,
		       size_t size);
u64 nvdimm_namespace_capacity(struct device *ndns_dev);

/* btt devices, core: btt_devs.c */
u64 nd_namespace_btt_start(struct device *ndns_dev);

/* nd_btt.ko: the BTT block device, attached by the namespace driver */
int nvdimm_namespace_attach_btt(struct device *btt_dev);
void nvdimm_btt_set_ro(struct device *btt_dev, bool ro);

/* a namespace driver's REVALIDATE_RO for a btt device it bound */
static inline void nd_btt_revalidate_ro(struct device *btt_dev)
{
	struct nd_btt *nd_btt = to_nd_btt(btt_dev);

	if (nd_btt->btt)
		nvdimm_btt_set_ro(btt_dev, nd_region_read_only(nd_btt->cd.ndns));
}

#endif /* __ND_H__ */
