// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace devices (namespaceR.N) and their attributes.  An IO namespace
 * is label-less: it covers its region's whole range and exists as long as
 * the region is enabled.  PMEM and BLK namespaces are described by labels
 * (namespace_scan.c assembles them, dpa.c allocates their DPA and writes
 * their labels); they are configured through the attributes here,
 * documented in docs/ABI/testing/sysfs-bus-nd (namespaceX.Y).
 */
#include <linux/module.h>
#include <linux/async.h>
#include <linux/mm.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sort.h>
#include <linux/uuid.h>
#include <linux/workqueue.h>
#include "nd-core.h"

/* Claim classes a namespace may be reserved for (holder_class). */
static const char *const nd_claim_class_names[] = {
	[ND_CLAIM_NONE] = "",
	[ND_CLAIM_BTT] = "btt",
	[ND_CLAIM_PFN] = "pfn",
	[ND_CLAIM_DAX] = "dax",
	[ND_CLAIM_UNKNOWN] = "<unknown>",	/* as 6.1 shows it; never accepted */
};

/**
 * nd_region_read_only - whether a namespace's region is read-only
 * @ndns_dev: the namespace device
 */
bool nd_region_read_only(struct device *ndns_dev)
{
	return READ_ONCE(to_nd_region(ndns_dev->parent)->ro);
}
EXPORT_SYMBOL_GPL(nd_region_read_only);

/**
 * nd_namespace_maps_pages - whether a raw namespace is attached with
 *	struct pages (mode "memory": fsdax without a pfn device)
 * @ndns_dev: the namespace device
 *
 * Only on a region whose provider allows it (ND_REGION_PAGEMAP: the
 * e820 and virtio-pmem ranges, as 6.1), unless force_raw is set, and
 * never over a range that System RAM shares.  The caller holds the
 * namespace's device lock (force_raw changes under it).
 */
bool nd_namespace_maps_pages(struct device *ndns_dev)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);

	if (!nd_region_pagemap(to_nd_region(ndns_dev->parent)))
		return false;
	if (nsio->force_raw || !nsio->res_size)
		return false;
	return region_intersects(nsio->res_start, nsio->res_size,
				 IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
		REGION_MIXED;
}
EXPORT_SYMBOL_GPL(nd_namespace_maps_pages);

/**
 * nd_namespace_disk_name - block device name for a namespace
 * @ndns_dev: the namespace device
 * @name: output buffer
 * @len: size of @name
 *
 * "pmemR" for the region's first namespace, "pmemR.N" otherwise;
 * "ndblkR.N" for a BLK namespace (the v4.2 names).
 */
const char *nd_namespace_disk_name(struct device *ndns_dev, char *name,
				   size_t len)
{
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	int id = to_nd_namespace_io(ndns_dev)->id;

	if (is_nd_namespace_blk(ndns_dev))
		snprintf(name, len, "ndblk%d.%d", nd_region->id, id);
	else if (id == 0)
		snprintf(name, len, "pmem%d", nd_region->id);
	else
		snprintf(name, len, "pmem%d.%d", nd_region->id, id);
	return name;
}
EXPORT_SYMBOL_GPL(nd_namespace_disk_name);

static ssize_t nstype_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", nd_device_type(dev));
}
static DEVICE_ATTR_RO(nstype);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_nd_namespace_io(dev)->res_size);
}
static DEVICE_ATTR_RO(size);

static ssize_t resource_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%#llx\n", to_nd_namespace_io(dev)->res_start);
}
static DEVICE_ATTR_ADMIN_RO(resource);

static ssize_t holder_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);
	ssize_t rc;

	device_lock(dev);
	rc = sysfs_emit(buf, "%s\n", nsio->claim ? dev_name(nsio->claim) : "");
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_RO(holder);

static ssize_t holder_class_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  nd_claim_class_names[to_nd_namespace_io(dev)->claim_class]);
}

/*
 * Labels for a namespace whose attributes just changed from @old; on a
 * failed write the attributes go back to @old (the labels did already).
 */
static int nd_lbl_rewrite_or_restore(struct device *dev,
				     const struct nd_lbl_attrs *old)
{
	int rc = nd_namespace_labels_rewrite(dev, old);

	if (rc)
		nd_lbl_attrs_restore(dev, old);
	return rc;
}

/* The class a holder_class write names, or -EINVAL ("<unknown>": shown only). */
static int nd_claim_class_parse(struct device *dev, const char *buf)
{
	size_t n = strcspn(buf, "\n");
	int i;

	for (i = 0; i < ND_CLAIM_UNKNOWN; i++)
		if (strlen(nd_claim_class_names[i]) == n &&
		    !strncmp(buf, nd_claim_class_names[i], n))
			return i;
	dev_dbg(dev, "holder_class: unknown class '%.*s'\n",
		(int)min_t(size_t, n, 16), buf);
	return -EINVAL;
}

static ssize_t nd_lbl_store(struct device *dev, const char *what,
			    int (*op)(struct device *dev, const char *buf,
				      size_t len),
			    const char *buf, size_t len);

/* v1.2 labels record the class (abstraction GUID): rewrite them */
static int nd_holder_class_op(struct device *dev, const char *buf, size_t len)
{
	struct nd_lbl_attrs old;
	int cc;

	cc = nd_claim_class_parse(dev, buf);
	if (cc < 0)
		return cc;
	nd_lbl_attrs_save(dev, &old);
	nd_lbl_set_claim_class(to_nd_namespace_lbl(dev), cc);
	return nd_lbl_rewrite_or_restore(dev, &old);
}

static ssize_t holder_class_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);
	int cc, rc = 0;

	if (!is_nd_namespace_io(dev))
		return nd_lbl_store(dev, "holder_class", nd_holder_class_op,
				    buf, len);
	cc = nd_claim_class_parse(dev, buf);
	if (cc < 0)
		return cc;
	device_lock(dev);
	if (dev->driver || nsio->claim) {
		dev_dbg(dev, "holder_class: namespace is in use\n");
		rc = -EBUSY;
	} else {
		nsio->claim_class = cc;
	}
	device_unlock(dev);
	return rc ? rc : len;
}
static DEVICE_ATTR_RW(holder_class);

static ssize_t mode_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct device *claim;
	ssize_t rc;

	const char *mode = "raw";

	/* the 6.1 words: ndctl reads memory as fsdax, dax as devdax */
	device_lock(dev);
	claim = to_nd_namespace_io(dev)->claim;
	if (claim && is_nd_btt(claim))
		mode = "safe";
	else if (claim && is_nd_pfn(claim))
		mode = "memory";
	else if (claim && is_nd_dax(claim))
		mode = "dax";
	else if (!claim && nd_namespace_maps_pages(dev))
		mode = "memory";
	rc = sysfs_emit(buf, "%s\n", mode);
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_RO(mode);

static ssize_t force_raw_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nd_namespace_io(dev)->force_raw);
}

static ssize_t force_raw_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	bool force_raw;
	int rc;

	rc = nd_parse_bool(buf, &force_raw);
	if (rc) {
		dev_dbg(dev, "force_raw: not a boolean\n");
		return rc;
	}
	device_lock(dev);
	to_nd_namespace_io(dev)->force_raw = force_raw;
	device_unlock(dev);
	return len;
}
static DEVICE_ATTR_RW(force_raw);

static struct attribute *nd_namespace_attributes[] = {
	&dev_attr_nstype.attr,
	&dev_attr_size.attr,
	&dev_attr_resource.attr,
	&dev_attr_holder.attr,
	&dev_attr_holder_class.attr,
	&dev_attr_mode.attr,
	&dev_attr_force_raw.attr,
	NULL,
};

static const struct attribute_group nd_namespace_attribute_group = {
	.attrs = nd_namespace_attributes,
};

static const struct attribute_group *nd_namespace_io_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_namespace_attribute_group,
	NULL,
};

static void nd_namespace_io_release(struct device *dev)
{
	put_device(dev->parent);
	kfree(to_nd_namespace_io(dev));
}

const struct device_type nd_namespace_io_device_type = {
	.name = "nd_namespace_io",
	.release = nd_namespace_io_release,
	.groups = nd_namespace_io_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_namespace_io_device_type);

/*
 * Label-backed namespaces are created under the bus' reconfig_lock (scan,
 * seed advance) but added to the device model from this domain, after
 * the lock is dropped: device_add() publishes attributes and probes, and
 * an attribute write on the new device takes its device lock, then
 * reconfig_lock.  nd_synchronize() waits for the adds in flight.
 */
static ASYNC_DOMAIN_EXCLUSIVE(nd_async_domain);

/**
 * nd_synchronize - wait for namespace registrations in flight
 *
 * Called by wait_probe (so that ndctl sees every namespace a region scan
 * or a seed advance created), before a region's namespaces are removed,
 * and at module exit.  Must not be called with reconfig_lock held.
 */
void nd_synchronize(void)
{
	async_synchronize_full_domain(&nd_async_domain);
}

/**
 * nd_async_add - run a device add from the namespace domain
 * @fn: does the device_add() and drops the reference taken here
 * @dev: the device (a reference is taken for @fn)
 *
 * For btt devices, created under reconfig_lock like namespaces: the add
 * runs once the lock is dropped, and nd_synchronize() waits for it.
 */
void nd_async_add(async_func_t fn, struct device *dev)
{
	get_device(dev);
	async_schedule_dev_domain(fn, dev, &nd_async_domain);
}

static void nd_namespace_add_async(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	int rc;

	rc = device_add(dev);
	if (rc) {
		dev_err(&nd_region->dev, "failed to register %s: %d\n",
			dev_name(dev), rc);
		mutex_lock(lock);
		if (nd_region->ns_seed == dev)
			nd_region->ns_seed = NULL;
		to_nd_namespace_node(dev)->unregistered = true;
		mutex_unlock(lock);
		put_device(dev);	/* the registration's reference */
	} else {
		/* attributes published, probe done */
		mutex_lock(lock);
		to_nd_namespace_node(dev)->added = true;
		mutex_unlock(lock);
	}
	put_device(dev);		/* this work's */
}

/*
 * Initialise namespaceR.N (N = @nsio->id) of any type under its region.
 * On failure the device is put, which frees it through its type's
 * release.
 */
static int nd_namespace_init_dev(struct nd_region *nd_region,
				 struct nd_namespace_io *nsio,
				 const struct device_type *type)
{
	int rc;

	nd_device_init(&nsio->dev, &nd_region->dev, type, true);
	set_dev_node(&nsio->dev, nd_region->numa_node);
	if (nsio->id < 0) {
		rc = nsio->id;
		dev_err(&nd_region->dev, "no namespace id left: %d\n", rc);
		put_device(&nsio->dev);
		return rc;
	}
	rc = dev_set_name(&nsio->dev, "namespace%d.%d", nd_region->id,
			  nsio->id);
	if (rc) {
		dev_err(&nd_region->dev, "failed to name namespace: %d\n", rc);
		put_device(&nsio->dev);
	}
	return rc;
}

/**
 * nd_namespace_io_create - register the IO namespace of a region
 * @nd_region: an enabled region (its device lock is held)
 *
 * Returns the namespace device or an ERR_PTR.
 */
struct device *nd_namespace_io_create(struct nd_region *nd_region)
{
	struct nd_namespace_io *nsio;
	int rc;

	nsio = kzalloc(sizeof(*nsio), GFP_KERNEL);
	if (!nsio)
		return ERR_PTR(-ENOMEM);
	nsio->id = 0;	/* the region's only namespace, as 6.1 names it */
	nsio->res_start = nd_region->res_start;
	nsio->res_size = nd_region->res_size;

	/* no reconfig_lock here: added synchronously from the region's probe */
	nd_device_init(&nsio->dev, &nd_region->dev,
		       &nd_namespace_io_device_type, true);
	set_dev_node(&nsio->dev, nd_region->numa_node);
	rc = nd_device_add(&nsio->dev, "namespace%d.%d", nd_region->id,
			   nsio->id);
	return rc ? ERR_PTR(rc) : &nsio->dev;
}

/**
 * nd_namespace_common_probe - what a driver may use of a namespace
 * @ndns_dev: the namespace
 * @by: the device probing: @ndns_dev itself for raw use (nd_pmem on the
 *	namespace), or the btt/pfn/dax device that claimed it
 * @range: filled with the range to use: the system-physical range of an
 *	IO or PMEM namespace, [0, size) of a BLK namespace
 *
 * Called from a driver's probe, the device lock of @by held.  Raw use is
 * refused when a personality device claimed the namespace (-EBUSY); a
 * personality must be the namespace's claim (-EBUSY).  A
 * label-backed namespace needs a uuid (-ENODEV); any namespace must hold
 * at least a page (-ENXIO).  Returns 0 or that errno, with a dev_dbg
 * line (dev_info for a reserved namespace: users ask why it has no disk).
 */
int nd_namespace_common_probe(struct device *ndns_dev, struct device *by,
			      struct range *range)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	bool lbl = is_nd_namespace_pmem(ndns_dev) ||
		   is_nd_namespace_blk(ndns_dev);

	if (!is_nd_namespace_io(ndns_dev) && !lbl)
		return -ENODEV;
	if (by == ndns_dev && nsio->claim) {
		dev_dbg(ndns_dev, "claimed by %s\n", dev_name(nsio->claim));
		return -EBUSY;
	}
	if (by != ndns_dev && nsio->claim != by) {
		dev_dbg(by, "%s is not claimed by this device\n",
			dev_name(ndns_dev));
		return -EBUSY;
	}
	if (lbl && !to_nd_namespace_lbl(ndns_dev)->has_uuid) {
		dev_dbg(ndns_dev, "no uuid: not configured\n");
		return -ENODEV;
	}
	if (nd_region_dimm_locked(to_nd_region(ndns_dev->parent), ndns_dev))
		return -EACCES;
	if (nsio->res_size < PAGE_SIZE) {
		dev_dbg(ndns_dev, "%llu bytes: too small to attach\n",
			nsio->res_size);
		return -ENXIO;
	}
	/*
	 * struct pages come in subsections: a range the provider lets us
	 * map (e820, virtio-pmem) must start and end on one, whichever
	 * personality attaches it (as 6.1; force_raw lifts it)
	 */
	if (nd_namespace_maps_pages(ndns_dev) &&
	    !IS_ALIGNED(nsio->res_start | nsio->res_size, SUBSECTION_SIZE)) {
		dev_err(ndns_dev, "[%#llx, +%#llx) not aligned to %lu bytes: cannot be mapped\n",
			nsio->res_start, nsio->res_size, SUBSECTION_SIZE);
		return -EOPNOTSUPP;
	}
	if (is_nd_namespace_blk(ndns_dev)) {
		range->start = 0;
		range->end = nsio->res_size - 1;
	} else {
		range->start = nsio->res_start;
		range->end = nsio->res_start + nsio->res_size - 1;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(nd_namespace_common_probe);

/**
 * nd_namespace_probe_raw - what a namespace driver does before it
 *	attaches a namespace raw
 * @ndns_dev: the namespace, probing (its device lock held), after
 *	nd_namespace_common_probe()
 *
 * Enables byte access for the probe (devm on @ndns_dev) and lets a
 * personality whose metadata is on the media claim the namespace
 * (nd_btt_probe(), nd_pfn_probe()).  When none does, the namespace is
 * attached raw whatever its holder_class, as 6.1 does: a sector
 * namespace whose info block is damaged or wiped must be reachable raw
 * for ndctl check-namespace and for its reconfiguration.
 *
 * Returns 0 when the driver may attach it raw; -ENXIO when a btt, pfn
 * or dax device claimed it (it comes back as that device); or the
 * errno of the byte access or the claim.
 */
int nd_namespace_probe_raw(struct device *ndns_dev)
{
	int rc;

	rc = nvdimm_namespace_bytes_enable(ndns_dev, ndns_dev);
	if (rc)
		return rc;
	rc = nd_btt_probe(ndns_dev);
	if (rc == -ENODEV)
		rc = nd_pfn_probe(ndns_dev, false);
	if (rc == -ENODEV)
		rc = nd_pfn_probe(ndns_dev, true);
	if (!rc)
		return -ENXIO;		/* back as the device that claimed it */
	if (rc != -ENODEV)
		return rc;
	if (to_nd_namespace_io(ndns_dev)->claim_class != ND_CLAIM_NONE)
		dev_dbg(ndns_dev, "holder_class %s, but no such metadata on the media: attached raw\n",
			nd_claim_class_names[to_nd_namespace_io(ndns_dev)->claim_class]);
	return 0;
}
EXPORT_SYMBOL_GPL(nd_namespace_probe_raw);

/*
 * Label-backed namespaces: PMEM (nstype 5) and BLK (nstype 6).  Attribute
 * writes take the namespace's device lock (a bound or claimed namespace
 * refuses them), then the bus' reconfig_lock, under which dpa.c allocates
 * DPA and rewrites labels.
 */

static struct workqueue_struct *nd_namespace_wq;

/*
 * Run @op on a label-backed namespace with the device lock and the bus'
 * reconfig_lock held; a bound or claimed namespace is left alone.
 */
static ssize_t nd_lbl_store(struct device *dev, const char *what,
			    int (*op)(struct device *dev, const char *buf,
				      size_t len),
			    const char *buf, size_t len)
{
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	int rc;

	device_lock(dev);
	if (dev->driver || to_nd_namespace_io(dev)->claim) {
		dev_dbg(dev, "%s: namespace is enabled or claimed: disable it first\n",
			what);
		rc = -EBUSY;
	} else {
		mutex_lock(lock);
		/* deleted, or going with its region: no label for it again */
		if (to_nd_namespace_node(dev)->unregistered) {
			dev_dbg(dev, "%s: namespace is being removed\n", what);
			rc = -ENXIO;
		} else {
			rc = op(dev, buf, len);
		}
		mutex_unlock(lock);
	}
	device_unlock(dev);
	return rc ? rc : len;
}

/* A new empty seed once @dev, the seed, is used (reconfig_lock held). */
void nd_region_advance_seed(struct nd_region *nd_region, struct device *dev)
{
	struct device *seed;

	lockdep_assert_held(&walk_to_nvdimm_bus(dev)->reconfig_lock);
	if (!nd_region->ns_active || nd_region->ns_seed != dev)
		return;
	if (is_nd_namespace_blk(dev))
		seed = nd_namespace_blk_create(nd_region, NULL);
	else
		seed = nd_namespace_pmem_create(nd_region, NULL);
	if (IS_ERR(seed)) {
		dev_err(&nd_region->dev, "no new namespace seed: %ld\n",
			PTR_ERR(seed));
		return;
	}
	nd_region->ns_seed = seed;
}

/**
 * nd_namespace_probe_success - a namespace was just bound to a driver
 * @dev: the namespace (its device lock is held)
 *
 * When it was its region's seed, the region gets a new empty one, as in
 * v4.2 and 6.1.  Called by the nd bus after a successful probe.
 */
void nd_namespace_probe_success(struct device *dev)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(dev);

	if (is_nd_claim_dev(dev)) {
		nd_claim_dev_probe_success(to_nd_claim_dev(dev));
		return;
	}
	if (!is_nd_namespace_pmem(dev) && !is_nd_namespace_blk(dev))
		return;
	mutex_lock(&nvdimm_bus->reconfig_lock);
	nd_region_advance_seed(to_nd_region(dev->parent), dev);
	mutex_unlock(&nvdimm_bus->reconfig_lock);
}

static void nd_namespace_del_work(struct work_struct *work)
{
	struct nd_namespace_node *node =
		container_of(work, struct nd_namespace_node, del_work);
	struct nd_namespace_lbl *lbl = &node->pmem.lbl;
	struct device *dev = &lbl->nsio.dev;
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	bool unregister;

	mutex_lock(lock);
	/* still idle, not the seed, not already gone with its region */
	unregister = !node->unregistered && !lbl->nsio.res_size &&
		     !lbl->has_uuid && nd_region->ns_seed != dev;
	if (unregister)
		node->unregistered = true;
	mutex_unlock(lock);
	if (unregister) {
		dev_dbg(dev, "deleted: unregistering\n");
		device_unregister(dev);
	}
	put_device(dev);
}

/*
 * A namespace whose size went to 0 goes away, unless it is namespaceR.0
 * or the seed.  Not from inside its own sysfs write: from the workqueue.
 */
static void nd_namespace_schedule_delete(struct nd_region *nd_region,
					 struct device *dev)
{
	struct nd_namespace_node *node = to_nd_namespace_node(dev);

	if (node->pmem.lbl.nsio.id == 0 || nd_region->ns_seed == dev ||
	    node->unregistered)
		return;
	get_device(dev);
	if (!queue_work(nd_namespace_wq, &node->del_work))
		put_device(dev);
}

static int nd_size_op(struct device *dev, const char *buf, size_t len)
{
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);
	u64 val;
	int rc;

	rc = kstrtoull(buf, 0, &val);
	if (rc) {
		dev_dbg(dev, "size: '%.*s' is not a number\n",
			(int)min_t(size_t, strcspn(buf, "\n"), 32), buf);
		return rc;
	}
	if (!lbl->has_uuid) {
		dev_dbg(dev, "size: set the uuid first\n");
		return -ENXIO;
	}
	if (is_nd_namespace_blk(dev))
		rc = nd_blk_resize(to_nd_namespace_blk(dev), val);
	else
		rc = nd_pmem_resize(to_nd_namespace_pmem(dev), val);
	if (rc)
		return rc;
	if (!val) {
		/* deleted: labels are gone, the uuid is forgotten */
		lbl->has_uuid = false;
		uuid_copy(&lbl->uuid, &uuid_null);
		nd_namespace_schedule_delete(nd_region, dev);
	}
	return 0;
}

static ssize_t lbl_size_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t len)
{
	return nd_lbl_store(dev, "size", nd_size_op, buf, len);
}

static struct device_attribute dev_attr_lbl_size =
	__ATTR(size, 0644, size_show, lbl_size_store);

static ssize_t pmem_resource_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);
	ssize_t rc;

	device_lock(dev);
	if (!nsio->res_size)
		rc = -ENXIO;
	else
		rc = sysfs_emit(buf, "%#llx\n", nsio->res_start);
	device_unlock(dev);
	return rc;
}

static struct device_attribute dev_attr_pmem_resource =
	__ATTR(resource, 0400, pmem_resource_show, NULL);

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);
	ssize_t rc;

	device_lock(dev);
	if (!lbl->has_uuid)
		rc = sysfs_emit(buf, "\n");
	else
		rc = sysfs_emit(buf, "%pUb\n", &lbl->uuid);
	device_unlock(dev);
	return rc;
}

static int nd_uuid_op(struct device *dev, const char *buf, size_t len)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);
	struct nd_region *nd_region = to_nd_region(dev->parent);
	size_t n = strcspn(buf, "\n");
	char text[UUID_STRING_LEN + 1];
	struct nd_lbl_attrs old;
	uuid_t uuid;
	int rc;

	if (n != UUID_STRING_LEN) {
		dev_dbg(dev, "uuid: %zu characters, a uuid has %d\n", n,
			UUID_STRING_LEN);
		return -EINVAL;
	}
	memcpy(text, buf, n);
	text[n] = '\0';
	rc = uuid_parse(text, &uuid);
	if (rc) {
		dev_dbg(dev, "uuid: '%s' is not a uuid\n", text);
		return rc;
	}
	/*
	 * The null uuid is a uuid like any other here, as in 6.1 (ndctl's
	 * btt-pad-compat.sh makes such a namespace for a pre-4.15 BTT,
	 * whose parent_uuid is null); ndctl counts the namespace as
	 * unconfigured.  One namespace of the bus at most, as any uuid.
	 */
	if (lbl->has_uuid && uuid_equal(&uuid, &lbl->uuid))
		return 0;
	if (nd_uuid_busy(nd_region, dev, &uuid)) {
		dev_dbg(dev, "uuid: %pUb is already in use on this bus\n",
			&uuid);
		return -EINVAL;	/* what 6.1 answers */
	}
	/*
	 * With DPA this renames the namespace (6.1 does, and ndctl's
	 * create-namespace -f -e reuses a namespace so): its labels are
	 * replaced by labels under the new uuid.  Without: 6.1 commits an
	 * empty label update (sequence numbers).
	 */
	nd_lbl_attrs_save(dev, &old);
	uuid_copy(&lbl->uuid, &uuid);
	lbl->has_uuid = true;
	rc = nd_namespace_labels_rewrite(dev, &old);
	if (rc)
		nd_lbl_attrs_restore(dev, &old);
	else if (old.has_uuid && lbl->nsio.res_size)
		dev_dbg(dev, "uuid: renamed from %pUb\n", &old.uuid);
	return rc;
}

static ssize_t uuid_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	return nd_lbl_store(dev, "uuid", nd_uuid_op, buf, len);
}
static DEVICE_ATTR_RW(uuid);

static ssize_t alt_name_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	ssize_t rc;

	device_lock(dev);
	rc = sysfs_emit(buf, "%s\n", to_nd_namespace_lbl(dev)->alt_name);
	device_unlock(dev);
	return rc;
}

static int nd_alt_name_op(struct device *dev, const char *buf, size_t len)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);
	struct nd_lbl_attrs old;
	char *name, *trimmed;

	name = kmemdup_nul(buf, len, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	trimmed = strim(name);
	if (strlen(trimmed) >= sizeof(lbl->alt_name)) {
		dev_dbg(dev, "alt_name: %zu characters, at most %zu fit a label\n",
			strlen(trimmed), sizeof(lbl->alt_name) - 1);
		kfree(name);
		return -EINVAL;
	}
	nd_lbl_attrs_save(dev, &old);
	strscpy_pad(lbl->alt_name, trimmed, sizeof(lbl->alt_name));
	kfree(name);
	return nd_lbl_rewrite_or_restore(dev, &old);
}

static ssize_t alt_name_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t len)
{
	return nd_lbl_store(dev, "alt_name", nd_alt_name_op, buf, len);
}
static DEVICE_ATTR_RW(alt_name);

static const unsigned long nd_pmem_sector_sizes[] = { 512, 4096, 0 };
static const unsigned long nd_blk_sector_sizes[] = {
	512, 520, 528, 4096, 4104, 4160, 4224, 0
};

static const unsigned long *nd_sector_sizes(struct device *dev)
{
	return is_nd_namespace_blk(dev) ? nd_blk_sector_sizes :
					  nd_pmem_sector_sizes;
}

static ssize_t sector_size_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	ssize_t rc;

	device_lock(dev);
	rc = nd_size_select_show(to_nd_namespace_lbl(dev)->lbasize,
				 nd_sector_sizes(dev), buf);
	device_unlock(dev);
	return rc;
}

static int nd_sector_size_op(struct device *dev, const char *buf, size_t len)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);
	const unsigned long *sizes = nd_sector_sizes(dev);
	struct nd_lbl_attrs old;
	unsigned long val;
	int rc, i;

	rc = kstrtoul(buf, 0, &val);
	if (rc) {
		dev_dbg(dev, "sector_size: not a number\n");
		return rc;
	}
	for (i = 0; sizes[i]; i++)
		if (sizes[i] == val)
			break;
	if (!sizes[i]) {
		dev_dbg(dev, "sector_size: %lu is not one of the supported sizes\n",
			val);
		return -EINVAL;
	}
	nd_lbl_attrs_save(dev, &old);
	lbl->lbasize = val;
	return nd_lbl_rewrite_or_restore(dev, &old);
}

static ssize_t sector_size_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	return nd_lbl_store(dev, "sector_size", nd_sector_size_op, buf, len);
}
static DEVICE_ATTR_RW(sector_size);

static ssize_t dpa_extents_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	int n;

	device_lock(dev);
	if (is_nd_namespace_blk(dev))
		n = to_nd_namespace_blk(dev)->nr_extents;
	else
		n = to_nd_namespace_pmem(dev)->dpa_size ?
			to_nd_region(dev->parent)->ndr_mappings : 0;
	device_unlock(dev);
	return sysfs_emit(buf, "%d\n", n);
}
static DEVICE_ATTR_RO(dpa_extents);

static struct attribute *nd_namespace_lbl_attributes[] = {
	&dev_attr_nstype.attr,
	&dev_attr_lbl_size.attr,
	&dev_attr_pmem_resource.attr,
	&dev_attr_holder.attr,
	&dev_attr_holder_class.attr,
	&dev_attr_mode.attr,
	&dev_attr_force_raw.attr,
	&dev_attr_uuid.attr,
	&dev_attr_alt_name.attr,
	&dev_attr_sector_size.attr,
	&dev_attr_dpa_extents.attr,
	NULL,
};

static umode_t nd_namespace_lbl_visible(struct kobject *kobj,
					struct attribute *a, int n)
{
	struct device *dev = kobj_to_dev(kobj);

	/* a BLK namespace has no system-physical range */
	if (a == &dev_attr_pmem_resource.attr && is_nd_namespace_blk(dev))
		return 0;
	return a->mode;
}

static const struct attribute_group nd_namespace_lbl_attribute_group = {
	.attrs = nd_namespace_lbl_attributes,
	.is_visible = nd_namespace_lbl_visible,
};

static const struct attribute_group *nd_namespace_lbl_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_namespace_lbl_attribute_group,
	NULL,
};

/* the id of a label-backed namespace goes back to its region's ida */
static void nd_namespace_lbl_id_free(struct device *dev)
{
	int id = to_nd_namespace_lbl(dev)->nsio.id;

	if (id >= 0)
		ida_free(&to_nd_region(dev->parent)->ns_ida, id);
}

static void nd_namespace_pmem_release(struct device *dev)
{
	nd_namespace_lbl_id_free(dev);
	put_device(dev->parent);
	kfree(to_nd_namespace_node(dev));
}

static void nd_namespace_blk_release(struct device *dev)
{
	nd_namespace_lbl_id_free(dev);
	put_device(dev->parent);
	kfree(to_nd_namespace_blk(dev)->extents);
	kfree(to_nd_namespace_node(dev));
}

const struct device_type nd_namespace_pmem_device_type = {
	.name = "nd_namespace_pmem",
	.release = nd_namespace_pmem_release,
	.groups = nd_namespace_lbl_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_namespace_pmem_device_type);

const struct device_type nd_namespace_blk_device_type = {
	.name = "nd_namespace_blk",
	.release = nd_namespace_blk_release,
	.groups = nd_namespace_lbl_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_namespace_blk_device_type);

/*
 * Register a label-backed namespace (reconfig_lock held): named now, added
 * from nd_async_domain once the lock is dropped.
 */
static struct device *nd_namespace_lbl_add(struct nd_region *nd_region,
					   struct nd_namespace_lbl *lbl,
					   const struct device_type *type)
{
	struct device *dev = &lbl->nsio.dev;
	int rc;

	lockdep_assert_held(&walk_to_nvdimm_bus(&nd_region->dev)->reconfig_lock);
	/* the lowest free id, as 6.1 (< 0: nd_namespace_init_dev() fails) */
	lbl->nsio.id = ida_alloc(&nd_region->ns_ida, GFP_KERNEL);
	INIT_WORK(&to_nd_namespace_node(dev)->del_work, nd_namespace_del_work);
	rc = nd_namespace_init_dev(nd_region, &lbl->nsio, type);
	if (rc)
		return ERR_PTR(rc);
	get_device(dev);
	async_schedule_dev_domain(nd_namespace_add_async, dev,
				  &nd_async_domain);
	return dev;
}

/**
 * nd_namespace_pmem_create - register a PMEM namespace of a region
 * @nd_region: a PMEM region (the bus' reconfig_lock is held)
 * @from: its configuration (assembled from labels), NULL for an empty seed
 *
 * Returns the namespace device or an ERR_PTR.
 */
struct device *nd_namespace_pmem_create(struct nd_region *nd_region,
					const struct nd_namespace_pmem *from)
{
	struct nd_namespace_node *node;
	struct nd_namespace_pmem *nspm;

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return ERR_PTR(-ENOMEM);
	nspm = &node->pmem;
	if (from)
		*nspm = *from;
	else
		nspm->lbl.nsio.res_start = nd_region->res_start;
	return nd_namespace_lbl_add(nd_region, &nspm->lbl,
				    &nd_namespace_pmem_device_type);
}

/**
 * nd_namespace_blk_create - register a BLK namespace of a region
 * @nd_region: a BLK region (the bus' reconfig_lock is held)
 * @from: its configuration (assembled from labels; its extent array is
 *	taken over), NULL for an empty seed
 *
 * Returns the namespace device or an ERR_PTR.
 */
struct device *nd_namespace_blk_create(struct nd_region *nd_region,
				       const struct nd_namespace_blk *from)
{
	struct nd_namespace_node *node;
	struct nd_namespace_blk *nsblk;

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node) {
		if (from)
			kfree(from->extents);
		return ERR_PTR(-ENOMEM);
	}
	nsblk = &node->blk;
	if (from)
		*nsblk = *from;
	return nd_namespace_lbl_add(nd_region, &nsblk->lbl,
				    &nd_namespace_blk_device_type);
}

static int nd_namespace_unregister_one(struct device *dev, void *data)
{
	struct mutex *lock = data;
	bool unregister = true;

	if (!is_nd_namespace_io(dev)) {
		struct nd_namespace_node *node = to_nd_namespace_node(dev);

		mutex_lock(lock);
		unregister = !node->unregistered;
		node->unregistered = true;
		mutex_unlock(lock);
	}
	if (unregister)
		device_unregister(dev);
	return 0;
}

/**
 * nd_region_namespaces_unregister - remove a region's namespaces
 * @nd_region: a region being disabled (its device lock is held)
 *
 * No new seed appears once this started.
 */
void nd_region_namespaces_unregister(struct nd_region *nd_region)
{
	struct mutex *lock = &walk_to_nvdimm_bus(&nd_region->dev)->reconfig_lock;

	mutex_lock(lock);
	nd_region->ns_active = false;
	nd_region->ns_seed = NULL;
	mutex_unlock(lock);
	/* no new namespace from now on; the ones in flight are added first */
	nd_synchronize();
	device_for_each_child(&nd_region->dev, lock,
			      nd_namespace_unregister_one);
}

int __init nd_namespace_init(void)
{
	nd_namespace_wq = alloc_workqueue("nd_namespace", WQ_UNBOUND, 0);
	return nd_namespace_wq ? 0 : -ENOMEM;
}

void nd_namespace_exit(void)
{
	nd_synchronize();
	destroy_workqueue(nd_namespace_wq);
}
