/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libnvdimm internal objects: the bus, DIMMs, regions and namespaces, and
 * the helpers the core's files share.  Nothing here is visible to providers.
 */
#ifndef __ND_CORE_H__
#define __ND_CORE_H__

#include <linux/badblocks.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/xarray.h>
#include <linux/workqueue.h>
#include <linux/async.h>
#include <linux/idr.h>
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
/* firmware.c: the firmware/ groups of ndbusN and nmemN */
extern const struct attribute_group nvdimm_bus_firmware_group;
extern const struct attribute_group nvdimm_firmware_group;

/**
 * struct nvdimm_bus - one NFIT (or mock NFIT) instance
 * @nd_desc: provider's descriptor; not to be touched once @alive is false
 *	(the provider may be gone)
 * @cmd_mask: copy of the provider's bus command mask
 * @dev: the ndbusN device, child of the provider's device
 * @id: N in ndbusN / ndctlN; also the minor of /dev/ndctlN
 * @cmd_lock: serialises commands sent to the provider
 * @reconfig_lock: serialises namespace configuration on the whole bus
 *	(attribute writes, DPA allocation, label updates, region scans and
 *	activation, DIMM label state publication, userspace label writes),
 *	so that regions sharing a DIMM never hand out the same DPA and a
 *	label transaction is never cut.  Taken after any device lock,
 *	before alive_lock; no device is added or probed under it.
 * @alive_lock: readers are command submitters; the writer is teardown,
 *	which clears @alive so no command reaches a provider that is gone
 * @alive: false once nvdimm_bus_unregister() started
 */
struct nvdimm_bus {
	struct nvdimm_bus_descriptor *nd_desc;
	unsigned long cmd_mask;
	struct device dev;
	int id;
	struct mutex cmd_lock; /* one provider command at a time */
	struct mutex reconfig_lock; /* namespace configuration, DPA allocation */
	struct rw_semaphore alive_lock;
	bool alive;
	struct mutex badrange_lock; /* @badranges (badrange.c) */
	struct list_head badranges;
};

/**
 * struct nvdimm - one DIMM (nmemN)
 * @desc: copy of the provider's description
 * @dev: the nmemN device on the nd bus, /dev/nmemN
 * @id: N in nmemN; also the minor of /dev/nmemN
 * @busy: number of enabled regions mapping this DIMM
 * @cfg_lock: protects @cfg_size / @cfg_xfer / @cfg_valid
 * @cfg_valid: @cfg_size and @cfg_xfer were read from the firmware
 * @cfg_size: label storage area size in bytes
 * @cfg_xfer: largest label transfer the firmware accepts
 * @state: NDD_LABELING and other facts the core learnt (atomic bitops);
 *	the provider's own flags are in @desc.flags
 * @sec: passphrase security (security.c), NULL when the DIMM has none
 */
struct nvdimm {
	struct nvdimm_desc desc;
	struct device dev;
	int id;
	atomic_t busy;
	struct mutex cfg_lock; /* protects cfg_* */
	bool cfg_valid;
	u32 cfg_size;
	u32 cfg_xfer;
	unsigned long state;
	struct nd_security *sec;
};

/* security.c: built with the kernel's CONFIG_NVDIMM_KEYS, as 6.1 */
#if IS_ENABLED(CONFIG_NVDIMM_KEYS)
extern const struct attribute_group nvdimm_security_attribute_group;
int nvdimm_security_init(struct nvdimm *nvdimm);
void nvdimm_security_added(struct nvdimm *nvdimm);
void nvdimm_security_exit(struct nvdimm *nvdimm);
void nvdimm_security_free(struct nvdimm *nvdimm);
int nvdimm_security_unlock(struct nvdimm *nvdimm);
bool nvdimm_security_locked(struct nvdimm *nvdimm);
bool nvdimm_security_overwriting(struct nvdimm *nvdimm);
#else
static inline int nvdimm_security_init(struct nvdimm *nvdimm)
{
	return 0;
}

static inline void nvdimm_security_added(struct nvdimm *nvdimm)
{
}

static inline void nvdimm_security_exit(struct nvdimm *nvdimm)
{
}

static inline void nvdimm_security_free(struct nvdimm *nvdimm)
{
}

static inline int nvdimm_security_unlock(struct nvdimm *nvdimm)
{
	return 0;
}

static inline bool nvdimm_security_locked(struct nvdimm *nvdimm)
{
	return false;
}

static inline bool nvdimm_security_overwriting(struct nvdimm *nvdimm)
{
	return false;
}
#endif

/* nvdimm->state bits */
enum {
	/*
	 * The last bind of the "nvdimm" driver found a valid label index
	 * (6.1's meaning: the region's namespaces come from labels).  It is
	 * re-evaluated at every bind and kept across an unbind.
	 */
	NDD_LABELING = 0,
	/*
	 * The firmware answered a label command of the last bind with
	 * -EACCES (6.1's NDD_LOCKED): the DIMM's capacity is locked.  Its
	 * regions' namespaces enumerate but do not enable; a DIMM whose
	 * label data was refused does not bind, nor do its regions enable.
	 * Re-evaluated at every bind, kept across an unbind; flags "lock".
	 */
	NDD_LOCKED = 1,
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
 * @kref: the "nvdimm" driver holds one reference while the DIMM is bound,
 *	every enabled region mapping the DIMM one more (nd_mapping.ndd), so
 *	a DIMM unbound under an enabled region leaves the region's label
 *	state intact (as 6.1); a DIMM bound again while a region still holds
 *	its data gets that same data back, never a second copy
 *
 * Published (drvdata, nd_mapping.ndd), read and changed under the bus'
 * reconfig_lock only: that lock serialises every label transaction.
 */
struct nvdimm_drvdata {
	struct device *dev;
	void *data;
	struct nd_lsa lsa;
	enum nd_lsa_version fresh;
	struct kref kref;
};

/**
 * struct nd_mapping - a region's view of one DIMM contribution
 * @nvdimm: the DIMM (a reference is held)
 * @start: first DPA
 * @size: bytes
 * @position: interleave position
 * @ndd: the DIMM's label state while the region is enabled (a reference),
 *	NULL otherwise; set and cleared under the bus' reconfig_lock
 */
struct nd_mapping {
	struct nvdimm *nvdimm;
	u64 start;
	u64 size;
	int position;
	struct nvdimm_drvdata *ndd;
};

/* the personalities whose devices claim namespaces: claim_devs.c */
enum nd_claim_slot {
	ND_SLOT_BTT,
	ND_SLOT_PFN,
	ND_SLOT_DAX,
	ND_CLAIM_SLOTS,
};

/* a region's devices of one personality: see nd_region.claim */
struct nd_claim_seed {
	struct ida ida;
	struct device *seed;
	bool active;
};

/**
 * struct nd_claim_kind - one personality of namespace-claiming devices
 * @name: device name prefix and log word ("btt")
 * @type: device type of its devices
 * @class: the holder_class it may claim besides none
 * @slot: its entry in nd_region.claim
 * @size: bytes of the structure that starts with its nd_claim_dev
 * @reset: drop the personality's own configuration (namespace "" written)
 * @fits: 0 when the namespace is large enough, else -ENXIO with a log line
 * @wanted: whether a region of this type has such devices (NULL: all)
 */
struct nd_claim_kind {
	const char *name;
	const struct device_type *type;
	enum nd_claim_class class;
	enum nd_claim_slot slot;
	size_t size;
	void (*reset)(struct nd_claim_dev *cd);
	int (*fits)(struct nd_claim_dev *cd, struct device *ndns);
	bool (*wanted)(struct nd_region *nd_region);
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
 * @ns_ida: ids of the label-backed namespaces (N in namespaceR.N): the
 *	lowest free one for a new namespace, freed when its device is
 *	released, as 6.1 numbers them; the io namespace is always N = 0
 * @ns_seed: current namespace seed, NULL when none
 * @ns_active: the region is enabled and may get new namespaces (seeds);
 *	cleared first thing at disable.  @ns_seed and @ns_active change
 *	under the bus' reconfig_lock
 * @claim: per personality (enum nd_claim_slot): the ida of its device
 *	numbers, the idle seed (NULL when none) and whether the region is
 *	enabled and may get new devices of it; seed and active change under
 *	the bus' reconfig_lock
 * @blk_ops: BLK regions: the provider's block-window access, or NULL
 * @num_lanes: BLK regions: entries in @lanes
 * @lanes: BLK regions: one lock per block window; whoever holds lane k
 *	owns window k's registers and aperture (nd_region_blk_io())
 * @blk_enabled: BLK regions: @blk_ops->enable succeeded in the current
 *	probe; set before the namespaces are published and cleared after
 *	they are gone, so a namespace driver never sees it change
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
	struct ida ns_ida;
	struct device *ns_seed;
	bool ns_active;
	struct nd_claim_seed claim[ND_CLAIM_SLOTS];
	const struct nd_blk_ops *blk_ops;
	unsigned int num_lanes;
	spinlock_t *lanes;	/* per block window, see @lanes */
	bool blk_enabled;
	struct badblocks bb;		/* regionN/badblocks (badrange.c) */
	bool bb_ready;			/* @bb initialised */
	unsigned long flags;		/* ND_REGION_* of its descriptor */
	int (*flush)(struct nd_region *nd_region);
	u16 ndr_mappings;
	struct nd_mapping mapping[];
};

extern const struct device_type nvdimm_device_type;
extern const struct device_type nd_pmem_device_type;
extern const struct device_type nd_blk_device_type;

int nd_device_type(const struct device *dev);

static inline bool is_nvdimm(const struct device *dev)
{
	return dev->type == &nvdimm_device_type;
}

static inline bool is_nd_region(const struct device *dev)
{
	return dev->type == &nd_pmem_device_type ||
	       dev->type == &nd_blk_device_type;
}

static inline bool is_nd_blk(struct nd_region *nd_region)
{
	return nd_region->dev.type == &nd_blk_device_type;
}

struct nvdimm_bus *walk_to_nvdimm_bus(struct device *dev);
void nd_region_badblocks_refresh(struct nd_region *nd_region);
bool nd_region_dimm_locked(struct nd_region *nd_region, struct device *dev);
void nvdimm_bus_badrange_free(struct nvdimm_bus *nvdimm_bus);
void nvdimm_bus_account_cleared(struct nvdimm_bus *nvdimm_bus, u64 addr,
				u64 length);

/* namespace_devs.c, btt_devs.c: personality autodetect */
int nd_btt_probe(struct device *ndns_dev);
int nd_pfn_probe(struct device *ndns_dev, bool dax);
int nd_namespace_write_bytes(struct device *ndns_dev, u64 offset,
			     const void *buf, size_t size);

/* region_devs.c */
int nd_region_blk_io(struct nd_region *nd_region, u64 dpa, void *buf,
		     size_t len, bool write);

/* core.c */
void nd_device_init(struct device *dev, struct device *parent,
		    const struct device_type *type, bool on_bus);
__printf(2, 3) int nd_device_add(struct device *dev, const char *fmt, ...);
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
int nvdimm_config_limits(struct nvdimm *nvdimm, bool refresh);
int nvdimm_get_config_data(struct nvdimm *nvdimm, void *buf, u32 offset,
			   u32 len);
int nvdimm_set_config_data(struct nvdimm *nvdimm, u32 offset, const void *buf,
			   u32 len);

/* label.c */
struct nvdimm_drvdata *nvdimm_labels_load(struct nvdimm *nvdimm);
void nvdimm_drvdata_put(struct nvdimm_drvdata *ndd);
struct nvdimm_drvdata *nd_mapping_ndd(struct nd_mapping *m);
bool nvdimm_cookie_is_v11(struct nvdimm *nvdimm);

/* What a DIMM's label area offers (nvdimm_labels_walk()). */
enum nd_labels_state {
	ND_LABELS_NONE,		/* DIMM not enabled, or no label area */
	ND_LABELS_BLANK,	/* no index at all: initialised on first use */
	ND_LABELS_DAMAGED,	/* index present but invalid: hands off */
	ND_LABELS_VALID,	/* a current index and its labels */
};

/**
 * struct nd_labels_info - context of a label passed to a walker
 * @v11: the current index is version 1.1 (v1.1 interleave-set cookie)
 * @lsize: label slot size
 * @live: the slot is in use and the label valid (slot number, checksum)
 */
struct nd_labels_info {
	bool v11;
	u32 lsize;
	bool live;
};

/**
 * struct nd_label_spec - the content of one label to write
 * @uuid: namespace uuid (16 bytes)
 * @name: alternate name (at most 63 characters)
 * @flags: ND_LSA_FLAG_*
 * @nlabel: PMEM: DIMMs in the set; BLK: 0
 * @position: PMEM: this DIMM's position; BLK: 0
 * @cookie_v11: interleave-set cookie written under a v1.1 index
 * @cookie_v12: the one written under a v1.2 index
 * @lbasize: sector size
 * @dpa: first DPA of the extent
 * @rawsize: bytes of the extent
 * @type_guid: v1.2 labels: address-range type (NULL: zero)
 * @abstraction: v1.2 labels: claim class (NULL: zero)
 */
struct nd_label_spec {
	const u8 *uuid;
	const char *name;
	u32 flags;
	u16 nlabel;
	u16 position;
	u64 cookie_v11;
	u64 cookie_v12;
	u64 lbasize;
	u64 dpa;
	u64 rawsize;
	const guid_t *type_guid;
	const guid_t *abstraction;
};

int nvdimm_labels_walk(struct nd_mapping *m,
		       int (*fn)(const struct nd_lsa_label *label, u32 slot,
				 const struct nd_labels_info *info, void *arg),
		       void *arg);
#define ND_LABELS_COMMIT_EMPTY	BIT(1)
int nvdimm_labels_replace(struct nd_mapping *m, const u8 *uuid, bool local,
			  const struct nd_label_spec *spec, u32 n,
			  unsigned int flags);

/* dimm.c */
int __init nvdimm_driver_init(void);
void nvdimm_driver_exit(void);

/* region_devs.c, region.c */
int __init nd_region_driver_init(void);
void nd_region_driver_exit(void);
int nd_region_nstype(struct nd_region *nd_region);

/**
 * struct nd_namespace_node - a PMEM or BLK namespace with the core's
 *	private state around it (what drivers see is @pmem or @blk)
 * @unregistered: device_unregister() was called or is scheduled (under
 *	the bus' reconfig_lock)
 * @del_work: unregisters a deleted namespace outside its own sysfs write
 * @added: device_add() returned (attributes published, probe done); set
 *	under the bus' reconfig_lock
 * @pmem: a PMEM namespace
 * @blk: a BLK namespace (its @lbl is where @pmem's is: both come first)
 */
struct nd_namespace_node {
	bool unregistered;
	struct work_struct del_work;
	bool added;
	union {
		struct nd_namespace_pmem pmem;
		struct nd_namespace_blk blk;
	};
};

static inline struct nd_namespace_node *to_nd_namespace_node(struct device *dev)
{
	BUILD_BUG_ON(offsetof(struct nd_namespace_pmem, lbl) ||
		     offsetof(struct nd_namespace_blk, lbl));
	return container_of(to_nd_namespace_lbl(dev), struct nd_namespace_node,
			    pmem.lbl);
}

/* namespace_devs.c */
int __init nd_namespace_init(void);
void nd_namespace_exit(void);
struct device *nd_namespace_io_create(struct nd_region *nd_region);
struct device *nd_namespace_pmem_create(struct nd_region *nd_region,
					const struct nd_namespace_pmem *from);
struct device *nd_namespace_blk_create(struct nd_region *nd_region,
				       const struct nd_namespace_blk *from);
void nd_region_namespaces_unregister(struct nd_region *nd_region);
void nd_namespace_probe_success(struct device *dev);
void nd_region_advance_seed(struct nd_region *nd_region, struct device *dev);
void nd_synchronize(void);
void nd_async_add(async_func_t fn, struct device *dev);

/* claim_devs.c */
struct nd_claim_dev *nd_claim_dev_alloc(struct nd_region *nd_region,
					const struct nd_claim_kind *kind);
void nd_claim_dev_add(struct nd_claim_dev *cd, struct device *ndns);
void nd_region_claim_activate(struct nd_region *nd_region);
int nd_region_claim_seeds_create(struct nd_region *nd_region);
void nd_region_claim_devs_unregister(struct nd_region *nd_region);
void nd_claim_dev_probe_success(struct nd_claim_dev *cd);
ssize_t nd_region_claim_seed_show(struct nd_region *nd_region,
				  enum nd_claim_slot slot, char *buf);
ssize_t nd_claim_dev_store(struct device *dev, const char *what,
			   int (*op)(struct nd_claim_dev *cd, const char *buf),
			   const char *buf, size_t len);
void nd_claim_dev_release(struct device *dev);
bool is_nd_claim_dev(const struct device *dev);
struct nd_claim_dev *to_nd_claim_dev(struct device *dev);
extern const struct attribute_group nd_claim_attribute_group;
int __init nd_claim_init(void);
void nd_claim_exit(void);

/* btt_devs.c */
extern const struct nd_claim_kind nd_btt_kind;
extern const struct nd_claim_kind nd_pfn_kind;
extern const struct nd_claim_kind nd_dax_kind;

/* namespace_scan.c */
int nd_region_scan_namespaces(struct nd_region *nd_region);

/* dpa.c */
int nd_region_available(struct nd_region *nd_region, u64 *avail,
			u64 *max_extent);
int nd_pmem_resize(struct nd_namespace_pmem *nspm, u64 size);
int nd_blk_resize(struct nd_namespace_blk *nsblk, u64 size);

/* namespace_label.c */
/**
 * struct nd_lbl_attrs - the attributes of a namespace its labels record
 *	besides DPA (what a rewrite must be able to restore)
 * @uuid: the namespace's uuid (its labels' key)
 * @has_uuid: @uuid is set
 * @alt_name: name
 * @lbasize: sector size
 * @claim_class: the class @claim_guid names
 * @claim_guid: v1.2 abstraction GUID
 */
struct nd_lbl_attrs {
	uuid_t uuid;
	bool has_uuid;
	char alt_name[64];
	u64 lbasize;
	enum nd_claim_class claim_class;
	guid_t claim_guid;
};

void nd_lbl_attrs_save(struct device *dev, struct nd_lbl_attrs *a);
void nd_lbl_attrs_restore(struct device *dev, const struct nd_lbl_attrs *a);
int nd_namespace_labels_rewrite(struct device *dev,
				const struct nd_lbl_attrs *old);
bool nd_uuid_busy(struct nd_region *nd_region, struct device *self,
		  const uuid_t *uuid);
int nd_pmem_labels_update(struct nd_namespace_pmem *nspm, u64 offset,
			  u64 size, const struct nd_lbl_attrs *old);
int nd_blk_labels_write(struct nd_namespace_blk *nsblk,
			const struct nd_dpa_range *ext, u32 n,
			const uuid_t *prev);
enum nd_claim_class nd_claim_class_of_guid(const guid_t *guid);
void nd_lbl_set_claim_class(struct nd_namespace_lbl *lbl,
			    enum nd_claim_class cc);

#endif /* __ND_CORE_H__ */
