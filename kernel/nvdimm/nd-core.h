/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libnvdimm internal objects: the bus, DIMMs, regions and namespaces, and
 * the helpers the core's files share.  Nothing here is visible to providers.
 */
#ifndef __ND_CORE_H__
#define __ND_CORE_H__

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/atomic.h>
#include <linux/xarray.h>
#include "nd.h"
#include "label-format.h"

/*
 * Bus "0" of the nd bus type: ndbusN devices are not on the bus (the v4.2
 * model), only DIMMs, regions and namespaces are.
 */
extern struct bus_type nvdimm_bus_type;
extern struct class *nd_class;
extern const struct attribute_group nd_device_attribute_group;
extern const struct attribute_group nd_numa_attribute_group;

/**
 * struct nvdimm_bus - one NFIT (or mock NFIT) instance
 * @nd_desc: provider's descriptor; not to be touched once @alive is false
 *	(the provider may be gone)
 * @cmd_mask: copy of the provider's bus command mask
 * @dev: the ndbusN device, child of the provider's device
 * @id: N in ndbusN / ndctlN; also the minor of /dev/ndctlN
 * @ctl_dev: the ndctlN class device, NULL once torn down
 * @cmd_lock: serialises commands sent to the provider
 * @alive_lock: readers are command submitters; the writer is teardown,
 *	which clears @alive so no command reaches a provider that is gone
 * @alive: false once nvdimm_bus_unregister() started
 */
struct nvdimm_bus {
	struct nvdimm_bus_descriptor *nd_desc;
	unsigned long cmd_mask;
	struct device dev;
	int id;
	struct device *ctl_dev;
	struct mutex cmd_lock; /* one provider command at a time */
	struct rw_semaphore alive_lock;
	bool alive;
};

/**
 * struct nvdimm - one DIMM (nmemN)
 * @desc: copy of the provider's description
 * @dev: the nmemN device on the nd bus, /dev/nmemN
 * @id: N in nmemN; also the minor of /dev/nmemN
 * @busy: number of enabled regions mapping this DIMM
 * @alive: false once the bus is being torn down (under bus alive_lock)
 * @cfg_lock: protects @cfg_size / @cfg_xfer / @cfg_valid
 * @cfg_valid: @cfg_size and @cfg_xfer were read from the firmware
 * @cfg_size: label storage area size in bytes
 * @cfg_xfer: largest label transfer the firmware accepts
 * @state: NDD_LABELING and other facts the core learnt (atomic bitops);
 *	the provider's own flags are in @desc.flags
 */
struct nvdimm {
	struct nvdimm_desc desc;
	struct device dev;
	int id;
	atomic_t busy;
	bool alive;
	struct mutex cfg_lock; /* protects cfg_* */
	bool cfg_valid;
	u32 cfg_size;
	u32 cfg_xfer;
	unsigned long state;
};

/* nvdimm->state bits */
enum {
	/*
	 * The last bind of the "nvdimm" driver found a valid label index
	 * (6.1's meaning: the region's namespaces come from labels).  It is
	 * re-evaluated at every bind and kept across an unbind.
	 */
	NDD_LABELING = 0,
};

/**
 * struct nvdimm_drvdata - the "nvdimm" driver's data of a bound DIMM
 * @dev: the nmemN device
 * @data: copy of the whole label area read at bind; NULL when the DIMM
 *	has no readable label area (label-less).  Label writes through the
 *	ioctl do not update it: it is re-read at the next bind, which is
 *	what ndctl does after writing labels (unbind + bind of the DIMM).
 * @lsa: the format view of @data: layout, current and next index block
 * @fresh: layout the kernel gives this DIMM's area when it is blank
 *
 * Allocated with devm on the nmemN device: it lives from probe to the end
 * of unbind.  Readers outside the driver hold the DIMM's device lock.
 */
struct nvdimm_drvdata {
	struct device *dev;
	void *data;
	struct nd_lsa lsa;
	enum nd_lsa_version fresh;
};

/**
 * struct nd_mapping - a region's view of one DIMM contribution
 * @nvdimm: the DIMM (a reference is held)
 * @start: first DPA
 * @size: bytes
 * @position: interleave position
 */
struct nd_mapping {
	struct nvdimm *nvdimm;
	u64 start;
	u64 size;
	int position;
};

/**
 * struct nd_region - a PMEM (interleave set) or BLK region (regionN)
 * @dev: the regionN device on the nd bus
 * @id: N in regionN
 * @nd_set: interleave set identity, NULL when none
 * @provider_data: provider's pointer
 * @res_start: first system-physical address (PMEM)
 * @res_size: bytes
 * @numa_node: NUMA node
 * @target_node: memory target node
 * @ro: read_only attribute
 * @align: namespace size granularity (align attribute)
 * @ns_next: next namespace id to hand out in this region
 * @ns_seed: current namespace seed, NULL when none
 * @ndr_mappings: number of entries in @mapping
 * @mapping: DIMM contributions
 */
struct nd_region {
	struct device dev;
	int id;
	struct nd_interleave_set *nd_set;
	void *provider_data;
	u64 res_start;
	u64 res_size;
	int numa_node;
	int target_node;
	bool ro;
	unsigned long align;
	int ns_next;
	struct device *ns_seed;
	u16 ndr_mappings;
	struct nd_mapping mapping[];
};

extern const struct device_type nvdimm_device_type;
extern const struct device_type nd_pmem_device_type;
extern const struct device_type nd_blk_device_type;
extern const struct device_type nd_namespace_io_device_type;
extern const struct device_type nd_namespace_pmem_device_type;

int nd_device_type(const struct device *dev);
bool is_nvdimm(const struct device *dev);
bool is_nd_region(const struct device *dev);
bool is_nd_blk(struct nd_region *nd_region);
struct nvdimm_bus *walk_to_nvdimm_bus(struct device *dev);

/* core.c */
int nd_parse_bool(const char *buf, bool *val);
ssize_t nd_size_select_show(unsigned long current_size,
			    const unsigned long *supported, char *buf);

/* bus.c */
int __init nvdimm_bus_init(void);
void nvdimm_bus_exit(void);
long nd_cmd_submit(struct nvdimm_bus *nvdimm_bus, struct nvdimm *nvdimm,
		   unsigned int ioctl_cmd, void __user *arg, bool read_only);

/* dimm_devs.c */
int __init nvdimm_devs_init(void);
void nvdimm_devs_exit(void);
void nvdimm_unregister(struct nvdimm *nvdimm);

/* ioctl.c */
int nvdimm_config_limits(struct nvdimm *nvdimm);
int nvdimm_get_config_data(struct nvdimm *nvdimm, void *buf, u32 offset,
			   u32 len);

/* label.c */
void nvdimm_labels_load(struct nvdimm *nvdimm, struct nvdimm_drvdata *ndd);
bool nvdimm_cookie_is_v11(struct nvdimm *nvdimm);

/* dimm.c */
int __init nvdimm_driver_init(void);
void nvdimm_driver_exit(void);

/* region_devs.c, region.c */
int __init nd_region_driver_init(void);
void nd_region_driver_exit(void);
int nd_region_nstype(struct nd_region *nd_region);

/* namespace_devs.c */
struct device *nd_namespace_io_create(struct nd_region *nd_region);
int nd_namespace_pmem_scan(struct nd_region *nd_region);

#endif /* __ND_CORE_H__ */
