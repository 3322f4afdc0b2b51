// SPDX-License-Identifier: GPL-2.0
/*
 * Region devices (regionN): a PMEM region is one system-physical address
 * range and the DIMM contributions (mappings) interleaved behind it.
 * Their sysfs ABI: docs/ABI/testing/sysfs-bus-nd (regionX).
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/memregion.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include "nd-core.h"

/**
 * to_nd_region - the region behind a regionN device
 * @dev: a regionN device
 */
struct nd_region *to_nd_region(struct device *dev)
{
	return container_of(dev, struct nd_region, dev);
}
EXPORT_SYMBOL_GPL(to_nd_region);

/**
 * nd_region_provider_data - the provider's pointer of a region
 * @nd_region: the region
 */
void *nd_region_provider_data(struct nd_region *nd_region)
{
	return nd_region->provider_data;
}
EXPORT_SYMBOL_GPL(nd_region_provider_data);

/**
 * nd_region_nstype - the namespace type a region hosts
 * @nd_region: the region
 *
 * A BLK region hosts BLK namespaces.  A PMEM region hosts label-described
 * (PMEM) namespaces when one of its DIMMs aliases PMEM with BLK (the v4.2
 * rule) or had a valid label index when it was last bound (the 6.1 rule,
 * NDD_LABELING), else one label-less (IO) namespace covering the whole
 * range.  Evaluated when the region binds, so a region enabled after its
 * DIMMs were rebound on new labels gets the new type.
 */
int nd_region_nstype(struct nd_region *nd_region)
{
	int i;

	if (is_nd_blk(nd_region))
		return ND_DEVICE_NAMESPACE_BLK;
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm *nvdimm = nd_region->mapping[i].nvdimm;

		if (test_bit(NDD_ALIASING, &nvdimm->desc.flags) ||
		    test_bit(NDD_LABEL_BACKED, &nvdimm->desc.flags) ||
		    test_bit(NDD_LABELING, &nvdimm->state))
			return ND_DEVICE_NAMESPACE_PMEM;
	}
	return ND_DEVICE_NAMESPACE_IO;
}

/*
 * Default namespace size granularity, as the 6.1 ABI reports it, for a
 * provider that does not choose one (nd_region_desc.align == 0).
 */
static unsigned long nd_region_default_align(struct nd_region *nd_region)
{
	unsigned long align = SZ_16M;
	u32 ways = max_t(u32, 1, nd_region->ndr_mappings);

	if (nd_region->res_size < SZ_16M)
		align = PAGE_SIZE;
	if (align % ways)
		align *= ways;
	return align;
}

static bool nd_region_has_flush_hints(struct nd_region *nd_region)
{
	int i;

	for (i = 0; i < nd_region->ndr_mappings; i++)
		if (nd_region->mapping[i].nvdimm->desc.num_flush)
			return true;
	return false;
}

/**
 * nvdimm_flush - make writes to a region's range durable
 * @nd_region: the region
 *
 * Orders preceding non-temporal stores, then either asks the provider
 * (a region with a flush hook, e.g. virtio-pmem: sleeps, so no caller
 * may hold a spinlock) or writes every DIMM's write-pending-queue
 * flush hint (when the platform has them; without them the platform's
 * ADR covers the memory controller queues).
 * Returns 0, or the provider's negative errno: the stores before the
 * call may not be durable.
 */
int nvdimm_flush(struct nd_region *nd_region)
{
	int i, rc;

	/* order the caller's non-temporal stores before the hint writes */
	wmb();
	if (nd_region->flush) {
		rc = nd_region->flush(nd_region);
		if (rc)
			dev_err_ratelimited(&nd_region->dev, "flush failed: %d\n",
					    rc);
		return rc;
	}
	if (!nd_region_has_flush_hints(nd_region))
		return 0;
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm *nvdimm = nd_region->mapping[i].nvdimm;

		if (nvdimm->desc.num_flush)
			writeq(1, nvdimm->desc.flush_wpq[0]);
	}
	/* the hint writes themselves must be posted before we return */
	wmb();
	return 0;
}
EXPORT_SYMBOL_GPL(nvdimm_flush);

/**
 * is_nvdimm_sync - whether stores to a region are durable without a call
 *	to the provider (a CPU cache flush and fence suffice)
 * @nd_region: the region
 *
 * False for ND_REGION_ASYNC regions: DAX mappings of them cannot honour
 * MAP_SYNC.
 */
bool is_nvdimm_sync(struct nd_region *nd_region)
{
	return !test_bit(ND_REGION_ASYNC, &nd_region->flags);
}
EXPORT_SYMBOL_GPL(is_nvdimm_sync);

/**
 * nvdimm_has_cache - whether stores to the region pass through CPU caches
 *	that are outside its persistence domain
 * @nd_region: the region
 *
 * True for a PMEM region unless its provider said the platform flushes
 * CPU caches on power loss (ND_REGION_PERSIST_CACHE): DAX writers of such
 * a region must flush what they store (the disk's dax/write_cache).
 */
int nvdimm_has_cache(struct nd_region *nd_region)
{
	return nd_region->dev.type == &nd_pmem_device_type &&
	       !test_bit(ND_REGION_PERSIST_CACHE, &nd_region->flags);
}
EXPORT_SYMBOL_GPL(nvdimm_has_cache);

/*
 * Whether a DIMM of @nd_region said its capacity is locked (NDD_LOCKED),
 * logged against @dev: nothing of the region may be enabled, as in 6.1.
 */
bool nd_region_dimm_locked(struct nd_region *nd_region, struct device *dev)
{
	bool locked = false;
	int i;

	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm *nvdimm = nd_region->mapping[i].nvdimm;

		if (test_bit(NDD_LOCKED, &nvdimm->state)) {
			dev_dbg(dev, "%s locked\n", dev_name(&nvdimm->dev));
			locked = true;
		}
	}
	return locked;
}

/**
 * nd_region_pagemap - whether the provider lets the core make struct pages
 *	for the region's range (ND_REGION_PAGEMAP)
 * @nd_region: the region
 */
bool nd_region_pagemap(struct nd_region *nd_region)
{
	return test_bit(ND_REGION_PAGEMAP, &nd_region->flags);
}
EXPORT_SYMBOL_GPL(nd_region_pagemap);

/* most bytes moved under one lane hold: bounds the time others spin */
#define ND_BLK_LANE_CHUNK SZ_64K

/**
 * nd_region_blk_io - move bytes through a BLK region's block windows
 * @nd_region: an enabled BLK region
 * @dpa: first DIMM physical address
 * @buf: source or destination
 * @len: bytes
 * @write: direction
 *
 * Takes the lane of the current CPU (CPUs share lanes when there are
 * more CPUs than windows) for at most ND_BLK_LANE_CHUNK bytes at a time
 * and hands each chunk to the provider.  Never sleeps: the lane is a
 * spinlock, distinct from any lock of a caller (the BTT's lanes are its
 * own), so BTT-on-BLK nests nothing.  Returns 0, -ENXIO when the region
 * has no usable windows or the range is outside its mapping, or the
 * provider's -EIO.
 */
int nd_region_blk_io(struct nd_region *nd_region, u64 dpa, void *buf,
		     size_t len, bool write)
{
	struct nd_mapping *m = &nd_region->mapping[0];
	u64 end;
	int rc = 0;

	if (!READ_ONCE(nd_region->blk_enabled))
		return -ENXIO;
	if (check_add_overflow(dpa, (u64)len, &end) || dpa < m->start ||
	    end > m->start + m->size) {
		dev_err_ratelimited(&nd_region->dev, "DPA [%#llx, +%#zx) outside [%#llx, +%#llx)\n",
				    dpa, len, m->start, m->size);
		return -ENXIO;
	}
	while (len && !rc) {
		size_t n = min_t(size_t, len, ND_BLK_LANE_CHUNK);
		unsigned int lane = raw_smp_processor_id() % nd_region->num_lanes;

		spin_lock(&nd_region->lanes[lane]);
		rc = nd_region->blk_ops->do_io(nd_region, lane, dpa, buf, n,
					       write);
		spin_unlock(&nd_region->lanes[lane]);
		dpa += n;
		buf += n;
		len -= n;
	}
	return rc;
}

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_nd_region(dev)->res_size);
}
static DEVICE_ATTR_RO(size);

static ssize_t mappings_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nd_region(dev)->ndr_mappings);
}
static DEVICE_ATTR_RO(mappings);

static ssize_t nstype_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", nd_region_nstype(to_nd_region(dev)));
}
static DEVICE_ATTR_RO(nstype);

static ssize_t set_cookie_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct nd_region *nd_region = to_nd_region(dev);
	u64 cookie;

	/* the cookie that labels on the first DIMM carry (see there) */
	cookie = nvdimm_cookie_is_v11(nd_region->mapping[0].nvdimm) ?
		 nd_region->nd_set->cookie1 : nd_region->nd_set->cookie2;
	return sysfs_emit(buf, "%#llx\n", cookie);
}
static DEVICE_ATTR_RO(set_cookie);

static ssize_t available_size_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	u64 avail, max_extent;
	int rc;

	rc = nd_region_available(to_nd_region(dev), &avail, &max_extent);
	if (rc)
		return rc;
	return sysfs_emit(buf, "%llu\n", avail);
}
static DEVICE_ATTR_RO(available_size);

static ssize_t max_available_extent_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	u64 avail, max_extent;
	int rc;

	rc = nd_region_available(to_nd_region(dev), &avail, &max_extent);
	if (rc)
		return rc;
	return sysfs_emit(buf, "%llu\n", max_extent);
}
static DEVICE_ATTR_RO(max_available_extent);

static int count_namespaces(struct device *dev, void *data)
{
	int *counts = data;

	if (!is_nd_namespace_io(dev) && !is_nd_namespace_pmem(dev) &&
	    !is_nd_namespace_blk(dev))
		return 0;
	counts[1]++;
	if (dev->driver)
		counts[0]++;
	return 0;
}

static ssize_t init_namespaces_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	int counts[2] = { 0, 0 };
	ssize_t rc;

	device_lock(dev);
	if (dev->driver) {
		device_for_each_child(dev, counts, count_namespaces);
		rc = sysfs_emit(buf, "%d/%d\n", counts[0], counts[1]);
	} else {
		rc = -ENXIO;
	}
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_RO(init_namespaces);

static ssize_t namespace_seed_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct nd_region *nd_region = to_nd_region(dev);
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	ssize_t rc;

	/*
	 * The seed named here exists in sysfs by the time it is read: wait
	 * for its add (a seed whose add fails is cleared, so this ends).
	 */
	mutex_lock(lock);
	while (nd_region->ns_seed && !is_nd_namespace_io(nd_region->ns_seed) &&
	       !to_nd_namespace_node(nd_region->ns_seed)->added) {
		mutex_unlock(lock);
		nd_synchronize();
		mutex_lock(lock);
	}
	if (nd_region->ns_seed)
		rc = sysfs_emit(buf, "%s\n", dev_name(nd_region->ns_seed));
	else
		rc = sysfs_emit(buf, "\n");
	mutex_unlock(lock);
	return rc;
}
static DEVICE_ATTR_RO(namespace_seed);

static ssize_t btt_seed_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return nd_region_claim_seed_show(to_nd_region(dev), ND_SLOT_BTT, buf);
}
static DEVICE_ATTR_RO(btt_seed);

static ssize_t pfn_seed_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return nd_region_claim_seed_show(to_nd_region(dev), ND_SLOT_PFN, buf);
}
static DEVICE_ATTR_RO(pfn_seed);

static ssize_t dax_seed_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return nd_region_claim_seed_show(to_nd_region(dev), ND_SLOT_DAX, buf);
}
static DEVICE_ATTR_RO(dax_seed);

static int revalidate_read_only(struct device *dev, void *data)
{
	struct nd_device_driver *nd_drv;

	device_lock(dev);
	if (dev->driver) {
		nd_drv = to_nd_device_driver(dev->driver);
		if (nd_drv->notify)
			nd_drv->notify(dev, NVDIMM_REVALIDATE_RO);
	}
	device_unlock(dev);
	return 0;
}

static ssize_t read_only_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nd_region(dev)->ro);
}

static ssize_t read_only_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	struct nd_region *nd_region = to_nd_region(dev);
	bool ro;
	int rc;

	rc = nd_parse_bool(buf, &ro);
	if (rc) {
		dev_dbg(dev, "read_only: not a boolean\n");
		return rc;
	}
	WRITE_ONCE(nd_region->ro, ro);
	device_for_each_child(dev, NULL, revalidate_read_only);
	return len;
}
static DEVICE_ATTR_RW(read_only);

static ssize_t align_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%#lx\n", to_nd_region(dev)->align);
}

/*
 * The one rule for a region's align, from a provider or a user: a
 * power of 2 per DIMM, a whole number of pages per DIMM, at most the
 * region's size.
 */
static bool nd_align_valid(unsigned long align, u32 ways, u64 size)
{
	return align && !(align % (PAGE_SIZE * ways)) &&
	       is_power_of_2(align / ways) && align <= size;
}

static ssize_t align_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct nd_region *nd_region = to_nd_region(dev);
	u32 ways = max_t(u32, 1, nd_region->ndr_mappings);
	unsigned long val;
	int rc;

	rc = kstrtoul(buf, 0, &val);
	if (rc) {
		dev_dbg(dev, "align: not a number\n");
		return rc;
	}
	if (!nd_align_valid(val, ways, nd_region->res_size)) {
		dev_dbg(dev, "align %#lx: must be a power of 2 per DIMM, a multiple of %lu, at most the region size\n",
			val, PAGE_SIZE * ways);
		return -EINVAL;
	}
	/*
	 * Allowed while enabled, as in 6.1: it only governs size writes that
	 * come after it, which read it under the same lock.
	 */
	mutex_lock(&walk_to_nvdimm_bus(dev)->reconfig_lock);
	nd_region->align = val;
	mutex_unlock(&walk_to_nvdimm_bus(dev)->reconfig_lock);
	return len;
}
static DEVICE_ATTR_RW(align);

static ssize_t resource_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%#llx\n", to_nd_region(dev)->res_start);
}
static DEVICE_ATTR_ADMIN_RO(resource);

static ssize_t deep_flush_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  nd_region_has_flush_hints(to_nd_region(dev)));
}

static ssize_t deep_flush_store(struct device *dev,
				struct device_attribute *attr, const char *buf,
				size_t len)
{
	bool flush;
	int rc;

	rc = nd_parse_bool(buf, &flush);
	if (rc)
		return rc;
	if (!flush) {
		dev_dbg(dev, "deep_flush: only 1 is meaningful\n");
		return -EINVAL;
	}
	nvdimm_flush(to_nd_region(dev));
	return len;
}
static DEVICE_ATTR_RW(deep_flush);

static ssize_t target_node_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nd_region(dev)->target_node);
}
static DEVICE_ATTR_RO(target_node);

/* where stores become durable, as the provider said (6.1's two words) */
static ssize_t persistence_domain_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	struct nd_region *nd_region = to_nd_region(dev);

	if (test_bit(ND_REGION_PERSIST_CACHE, &nd_region->flags))
		return sysfs_emit(buf, "cpu_cache\n");
	if (test_bit(ND_REGION_PERSIST_MEMCTRL, &nd_region->flags))
		return sysfs_emit(buf, "memory_controller\n");
	return sysfs_emit(buf, "\n");
}
static DEVICE_ATTR_RO(persistence_domain);

/* "sector count" lines, sectors of 512 bytes from the region's start */
static ssize_t region_badblocks_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct nd_region *nd_region = to_nd_region(dev);
	ssize_t rc;

	device_lock(dev);
	if (dev->driver && nd_region->bb_ready)
		rc = badblocks_show(&nd_region->bb, buf, 0);
	else
		rc = -ENXIO;	/* only while the region is enabled (6.1) */
	device_unlock(dev);
	return rc;
}

static struct device_attribute dev_attr_badblocks =
	__ATTR(badblocks, 0444, region_badblocks_show, NULL);

/**
 * nd_region_badblocks_refresh - recompute regionN/badblocks from the bus
 * @nd_region: a PMEM region (BLK regions have no range: nothing)
 */
void nd_region_badblocks_refresh(struct nd_region *nd_region)
{
	struct range range = {
		.start = nd_region->res_start,
		.end = nd_region->res_start + nd_region->res_size - 1,
	};

	if (!nd_region->bb_ready || !nd_region->res_size)
		return;
	nvdimm_badblocks_populate(nd_region, &nd_region->bb, &range);
}

static struct attribute *nd_region_attributes[] = {
	&dev_attr_size.attr,
	&dev_attr_align.attr,
	&dev_attr_nstype.attr,
	&dev_attr_mappings.attr,
	&dev_attr_set_cookie.attr,
	&dev_attr_available_size.attr,
	&dev_attr_max_available_extent.attr,
	&dev_attr_namespace_seed.attr,
	&dev_attr_btt_seed.attr,
	&dev_attr_pfn_seed.attr,
	&dev_attr_dax_seed.attr,
	&dev_attr_init_namespaces.attr,
	&dev_attr_read_only.attr,
	&dev_attr_resource.attr,
	&dev_attr_deep_flush.attr,
	&dev_attr_target_node.attr,
	&dev_attr_badblocks.attr,
	&dev_attr_persistence_domain.attr,
	NULL,
};

static umode_t nd_region_visible(struct kobject *kobj, struct attribute *a,
				 int n)
{
	struct device *dev = kobj_to_dev(kobj);
	struct nd_region *nd_region = to_nd_region(dev);

	if (a == &dev_attr_set_cookie.attr && !nd_region->nd_set)
		return 0;
	/* BLK regions have no system-physical range of their own */
	if (is_nd_blk(nd_region) &&
	    (a == &dev_attr_align.attr || a == &dev_attr_resource.attr ||
	     a == &dev_attr_badblocks.attr ||
	     a == &dev_attr_deep_flush.attr ||
	     a == &dev_attr_max_available_extent.attr ||
	     a == &dev_attr_pfn_seed.attr || a == &dev_attr_dax_seed.attr))
		return 0;
	if (a == &dev_attr_target_node.attr &&
	    nd_region->target_node == NUMA_NO_NODE)
		return 0;
	/* absent unless the provider named a domain (6.1) */
	if (a == &dev_attr_persistence_domain.attr &&
	    !(nd_region->flags & (BIT(ND_REGION_PERSIST_CACHE) |
				  BIT(ND_REGION_PERSIST_MEMCTRL))))
		return 0;
	/* no DIMMs (e820, virtio-pmem): nothing to allocate from, as 6.1 */
	if (a == &dev_attr_available_size.attr && !nd_region->ndr_mappings)
		return 0;
	if (a == &dev_attr_deep_flush.attr && !nd_region->ndr_mappings)
		return 0;
	if (a == &dev_attr_deep_flush.attr &&
	    !nd_region_has_flush_hints(nd_region))
		return 0444;
	return a->mode;
}

static const struct attribute_group nd_region_attribute_group = {
	.attrs = nd_region_attributes,
	.is_visible = nd_region_visible,
};

/* mappingN: "nmemX,dpa,length,position" (the 6.1 form; v47 reads 3 fields) */
static ssize_t mappingN(struct device *dev, char *buf, int n)
{
	struct nd_region *nd_region = to_nd_region(dev);
	struct nd_mapping *m;

	if (n >= nd_region->ndr_mappings)
		return -ENXIO;
	m = &nd_region->mapping[n];
	return sysfs_emit(buf, "%s,%llu,%llu,%d\n", dev_name(&m->nvdimm->dev),
			  m->start, m->size, m->position);
}

#define ND_REGION_MAPPING_ATTR(idx)					\
static ssize_t mapping##idx##_show(struct device *dev,			\
				   struct device_attribute *attr,	\
				   char *buf)				\
{									\
	return mappingN(dev, buf, idx);					\
}									\
static DEVICE_ATTR_RO(mapping##idx)

ND_REGION_MAPPING_ATTR(0);
ND_REGION_MAPPING_ATTR(1);
ND_REGION_MAPPING_ATTR(2);
ND_REGION_MAPPING_ATTR(3);
ND_REGION_MAPPING_ATTR(4);
ND_REGION_MAPPING_ATTR(5);
ND_REGION_MAPPING_ATTR(6);
ND_REGION_MAPPING_ATTR(7);
ND_REGION_MAPPING_ATTR(8);
ND_REGION_MAPPING_ATTR(9);
ND_REGION_MAPPING_ATTR(10);
ND_REGION_MAPPING_ATTR(11);
ND_REGION_MAPPING_ATTR(12);
ND_REGION_MAPPING_ATTR(13);
ND_REGION_MAPPING_ATTR(14);
ND_REGION_MAPPING_ATTR(15);
ND_REGION_MAPPING_ATTR(16);
ND_REGION_MAPPING_ATTR(17);
ND_REGION_MAPPING_ATTR(18);
ND_REGION_MAPPING_ATTR(19);
ND_REGION_MAPPING_ATTR(20);
ND_REGION_MAPPING_ATTR(21);
ND_REGION_MAPPING_ATTR(22);
ND_REGION_MAPPING_ATTR(23);
ND_REGION_MAPPING_ATTR(24);
ND_REGION_MAPPING_ATTR(25);
ND_REGION_MAPPING_ATTR(26);
ND_REGION_MAPPING_ATTR(27);
ND_REGION_MAPPING_ATTR(28);
ND_REGION_MAPPING_ATTR(29);
ND_REGION_MAPPING_ATTR(30);
ND_REGION_MAPPING_ATTR(31);

static struct attribute *nd_mapping_attributes[] = {
	&dev_attr_mapping0.attr, &dev_attr_mapping1.attr,
	&dev_attr_mapping2.attr, &dev_attr_mapping3.attr,
	&dev_attr_mapping4.attr, &dev_attr_mapping5.attr,
	&dev_attr_mapping6.attr, &dev_attr_mapping7.attr,
	&dev_attr_mapping8.attr, &dev_attr_mapping9.attr,
	&dev_attr_mapping10.attr, &dev_attr_mapping11.attr,
	&dev_attr_mapping12.attr, &dev_attr_mapping13.attr,
	&dev_attr_mapping14.attr, &dev_attr_mapping15.attr,
	&dev_attr_mapping16.attr, &dev_attr_mapping17.attr,
	&dev_attr_mapping18.attr, &dev_attr_mapping19.attr,
	&dev_attr_mapping20.attr, &dev_attr_mapping21.attr,
	&dev_attr_mapping22.attr, &dev_attr_mapping23.attr,
	&dev_attr_mapping24.attr, &dev_attr_mapping25.attr,
	&dev_attr_mapping26.attr, &dev_attr_mapping27.attr,
	&dev_attr_mapping28.attr, &dev_attr_mapping29.attr,
	&dev_attr_mapping30.attr, &dev_attr_mapping31.attr,
	NULL,
};

static umode_t nd_mapping_visible(struct kobject *kobj, struct attribute *a,
				  int n)
{
	struct nd_region *nd_region = to_nd_region(kobj_to_dev(kobj));

	return n < nd_region->ndr_mappings ? a->mode : 0;
}

static const struct attribute_group nd_mapping_attribute_group = {
	.attrs = nd_mapping_attributes,
	.is_visible = nd_mapping_visible,
};

static const struct attribute_group *nd_region_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_region_attribute_group,
	&nd_mapping_attribute_group,
	NULL,
};

static void nd_region_release(struct device *dev)
{
	struct nd_region *nd_region = to_nd_region(dev);
	int i;

	for (i = 0; i < nd_region->ndr_mappings; i++)
		put_device(&nd_region->mapping[i].nvdimm->dev);
	put_device(dev->parent);
	for (i = 0; i < ND_CLAIM_SLOTS; i++)
		ida_destroy(&nd_region->claim[i].ida);
	ida_destroy(&nd_region->ns_ida);
	/* a provider-chosen id (CXL) is the provider's to free */
	if (!test_bit(ND_REGION_CXL, &nd_region->flags))
		memregion_free(nd_region->id);
	if (nd_region->bb_ready)
		badblocks_exit(&nd_region->bb);
	kfree(nd_region->lanes);
	kfree(nd_region->nd_set);
	kfree(nd_region);
}

const struct device_type nd_pmem_device_type = {
	.name = "nd_pmem",
	.release = nd_region_release,
	.groups = nd_region_attribute_groups,
};

const struct device_type nd_blk_device_type = {
	.name = "nd_blk",
	.release = nd_region_release,
	.groups = nd_region_attribute_groups,
};

/*
 * What the provider describes must be usable as is: the core maps,
 * allocates and labels in pages, so every address range a region is
 * made of starts and ends on a page boundary (6.1 refuses misaligned
 * mappings the same way).
 */
static int nd_region_check_desc(struct nvdimm_bus *nvdimm_bus,
				struct nd_region_desc *desc, bool blk)
{
	const char *kind = blk ? "BLK" : "PMEM";
	struct device *dev = &nvdimm_bus->dev;
	u32 ways = max_t(u32, 1, desc->num_mappings);
	u64 size;
	int i;

	if (blk && desc->num_mappings != 1) {
		dev_err(dev, "BLK region with %u mappings (must be 1)\n",
			desc->num_mappings);
		return -EINVAL;
	}
	if (!blk && (!desc->res || !resource_size(desc->res))) {
		dev_err(dev, "PMEM region without an address range\n");
		return -EINVAL;
	}
	if (!blk && (desc->res->start | resource_size(desc->res)) % PAGE_SIZE) {
		dev_err(dev, "PMEM region %pr: start or size not %lu-byte aligned\n",
			desc->res, PAGE_SIZE);
		return -EINVAL;
	}
	if (blk && desc->blk_ops &&
	    (!desc->blk_ops->do_io || !desc->num_lanes ||
	     desc->num_lanes > ND_BLK_MAX_LANES)) {
		dev_err(dev, "BLK region: %u block windows (must be 1 to %d) or no do_io\n",
			desc->num_lanes, ND_BLK_MAX_LANES);
		return -EINVAL;
	}
	if (!blk && desc->blk_ops) {
		dev_err(dev, "PMEM region with block-window operations\n");
		return -EINVAL;
	}
	if (blk && (desc->flags || desc->flush)) {
		dev_err(dev, "BLK region with flags %#lx or a flush hook\n",
			desc->flags);
		return -EINVAL;
	}
	/* the hook is what makes an asynchronous region's stores durable */
	if (test_bit(ND_REGION_ASYNC, &desc->flags) != !!desc->flush) {
		dev_err(dev, "PMEM region %pr: a flush hook goes with ND_REGION_ASYNC, and only with it\n",
			desc->res);
		return -EINVAL;
	}
	if (desc->num_mappings > 32) {
		dev_err(dev, "PMEM region with %u mappings (max 32)\n",
			desc->num_mappings);
		return -EINVAL;
	}
	for (i = 0; i < desc->num_mappings; i++) {
		struct nd_mapping_desc *m = &desc->mapping[i];

		if (!m->nvdimm || !m->size ||
		    walk_to_nvdimm_bus(&m->nvdimm->dev) != nvdimm_bus) {
			dev_err(dev, "%s region: bad mapping %d\n", kind, i);
			return -EINVAL;
		}
		if ((m->start | m->size) % PAGE_SIZE) {
			dev_err(dev, "%s region: mapping %d (%s DPA %#llx, %#llx bytes) not %lu-byte aligned\n",
				kind, i, dev_name(&m->nvdimm->dev), m->start,
				m->size, PAGE_SIZE);
			return -EINVAL;
		}
	}
	size = blk ? desc->mapping[0].size : resource_size(desc->res);
	if (desc->align && !nd_align_valid(desc->align, ways, size)) {
		dev_err(dev, "%s region: align %#lx must be a power of 2 per DIMM, a multiple of %lu, at most the region size\n",
			kind, desc->align, PAGE_SIZE * ways);
		return -EINVAL;
	}
	return 0;
}

static struct nd_region *nd_region_create(struct nvdimm_bus *nvdimm_bus,
					  struct nd_region_desc *desc,
					  const struct device_type *type)
{
	bool blk = type == &nd_blk_device_type;
	struct nd_region *nd_region;
	int i, id;

	if (nd_region_check_desc(nvdimm_bus, desc, blk))
		return NULL;

	nd_region = kzalloc(struct_size(nd_region, mapping, desc->num_mappings),
			    GFP_KERNEL);
	if (!nd_region)
		return NULL;
	if (desc->nd_set && desc->num_mappings && !blk) {
		nd_region->nd_set = kmemdup(desc->nd_set,
					    sizeof(*desc->nd_set), GFP_KERNEL);
		if (!nd_region->nd_set) {
			kfree(nd_region);
			return NULL;
		}
	}
	if (desc->blk_ops) {
		nd_region->lanes = kcalloc(desc->num_lanes,
					   sizeof(*nd_region->lanes), GFP_KERNEL);
		if (!nd_region->lanes) {
			kfree(nd_region->nd_set);
			kfree(nd_region);
			return NULL;
		}
		for (i = 0; i < desc->num_lanes; i++)
			spin_lock_init(&nd_region->lanes[i]);
		nd_region->blk_ops = desc->blk_ops;
		nd_region->num_lanes = desc->num_lanes;
	}
	/*
	 * Region ids come from the kernel's memregion ids, as 6.1's: the CXL
	 * core takes its region ids from the same pool, so an nd region of a
	 * CXL region (ND_REGION_CXL: the provider passes that id) and any
	 * other region never share a name on the nd bus.
	 */
	if (test_bit(ND_REGION_CXL, &desc->flags))
		id = desc->memregion;
	else
		id = memregion_alloc(GFP_KERNEL);
	if (id < 0) {
		kfree(nd_region->lanes);
		kfree(nd_region->nd_set);
		kfree(nd_region);
		return NULL;
	}
	nd_region->id = id;
	for (i = 0; i < ND_CLAIM_SLOTS; i++)
		ida_init(&nd_region->claim[i].ida);
	ida_init(&nd_region->ns_ida);
	if (blk) {
		nd_region->res_size = desc->mapping[0].size;
	} else {
		nd_region->res_start = desc->res->start;
		nd_region->res_size = resource_size(desc->res);
	}
	nd_region->provider_data = desc->provider_data;
	nd_region->numa_node = desc->numa_node;
	nd_region->target_node = desc->target_node;
	nd_region->flags = desc->flags;
	nd_region->flush = desc->flush;
	nd_region->ndr_mappings = desc->num_mappings;
	for (i = 0; i < desc->num_mappings; i++) {
		struct nd_mapping_desc *m = &desc->mapping[i];

		get_device(&m->nvdimm->dev);
		nd_region->mapping[i].nvdimm = m->nvdimm;
		nd_region->mapping[i].start = m->start;
		nd_region->mapping[i].size = m->size;
		nd_region->mapping[i].position = m->position;
		if (test_bit(NDD_UNARMED, &m->nvdimm->desc.flags))
			nd_region->ro = true;
	}
	nd_region->align = desc->align ?: nd_region_default_align(nd_region);
	/* a PMEM region's list; without it, the attribute reads ENXIO */
	if (!blk && !badblocks_init(&nd_region->bb, 1))
		nd_region->bb_ready = true;

	nd_device_init(&nd_region->dev, &nvdimm_bus->dev, type, true);
	nd_region->dev.groups = desc->attr_groups;
	set_dev_node(&nd_region->dev, desc->numa_node);
	if (nd_device_add(&nd_region->dev, "region%d", id))
		return NULL;
	return nd_region;
}

/**
 * nvdimm_pmem_region_create - register a PMEM region on a bus
 * @nvdimm_bus: the bus
 * @desc: the region's description; @desc->nd_set is copied
 *
 * The region lives until the bus is unregistered or the provider
 * deletes it (nvdimm_region_delete()).  Returns NULL on failure (logged).
 */
struct nd_region *nvdimm_pmem_region_create(struct nvdimm_bus *nvdimm_bus,
					    struct nd_region_desc *desc)
{
	return nd_region_create(nvdimm_bus, desc, &nd_pmem_device_type);
}
EXPORT_SYMBOL_GPL(nvdimm_pmem_region_create);

/**
 * nvdimm_blk_region_create - register a BLK (aperture) region on a bus
 * @nvdimm_bus: the bus
 * @desc: the region's description: exactly one mapping, the DPA range of
 *	the DIMM its block windows reach; no address range
 *
 * The region lives until the bus is unregistered.  Returns NULL on
 * failure (logged).
 */
struct nd_region *nvdimm_blk_region_create(struct nvdimm_bus *nvdimm_bus,
					   struct nd_region_desc *desc)
{
	return nd_region_create(nvdimm_bus, desc, &nd_blk_device_type);
}
EXPORT_SYMBOL_GPL(nvdimm_blk_region_create);

/**
 * nvdimm_region_delete - remove one region before its bus goes
 * @nd_region: a region of nvdimm_pmem_region_create() or
 *	nvdimm_blk_region_create(), not deleted before
 *
 * For a provider whose regions come and go while the bus stays (CXL):
 * the region is unbound (its namespaces, btt, pfn and dax devices go
 * first) and unregistered; its DIMMs stay.  Process context; the
 * caller holds no lock of the bus.
 */
void nvdimm_region_delete(struct nd_region *nd_region)
{
	device_unregister(&nd_region->dev);
}
EXPORT_SYMBOL_GPL(nvdimm_region_delete);

/**
 * nd_region_target_node - NUMA node the region's memory would be online in
 * @nd_region: the region
 *
 * NUMA_NO_NODE when the firmware names none.
 */
int nd_region_target_node(struct nd_region *nd_region)
{
	return nd_region->target_node;
}
EXPORT_SYMBOL_GPL(nd_region_target_node);
