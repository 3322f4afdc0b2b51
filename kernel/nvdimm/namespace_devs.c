// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace devices (namespaceR.N).  An IO namespace is label-less: it
 * covers its region's whole range and exists as long as the region is
 * enabled.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "nd-core.h"

/* Claim classes a namespace may be reserved for (holder_class). */
static const char *const nd_claim_class_names[] = {
	[ND_CLAIM_NONE] = "",
	[ND_CLAIM_BTT] = "btt",
	[ND_CLAIM_PFN] = "pfn",
	[ND_CLAIM_DAX] = "dax",
};

/**
 * to_nd_namespace_io - the IO namespace behind a namespaceR.N device
 * @dev: an IO namespace device
 */
struct nd_namespace_io *to_nd_namespace_io(struct device *dev)
{
	return container_of(dev, struct nd_namespace_io, dev);
}
EXPORT_SYMBOL_GPL(to_nd_namespace_io);

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
 * nd_namespace_disk_name - block device name for a namespace
 * @ndns_dev: the namespace device
 * @name: output buffer
 * @len: size of @name
 *
 * "pmemR" for the region's first namespace, "pmemR.N" otherwise.
 */
const char *nd_namespace_disk_name(struct device *ndns_dev, char *name,
				   size_t len)
{
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	int id = to_nd_namespace_io(ndns_dev)->id;

	if (id == 0)
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

static ssize_t holder_class_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);
	size_t n = strcspn(buf, "\n");
	int i, rc = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(nd_claim_class_names); i++)
		if (strlen(nd_claim_class_names[i]) == n &&
		    !strncmp(buf, nd_claim_class_names[i], n))
			break;
	if (i == ARRAY_SIZE(nd_claim_class_names)) {
		dev_dbg(dev, "holder_class: unknown class '%.*s'\n",
			(int)min_t(size_t, n, 16), buf);
		return -EINVAL;
	}
	device_lock(dev);
	if (dev->driver || nsio->claim) {
		dev_dbg(dev, "holder_class: namespace is in use\n");
		rc = -EBUSY;
	} else {
		nsio->claim_class = i;
		rc = 0;
	}
	device_unlock(dev);
	return rc ? rc : len;
}
static DEVICE_ATTR_RW(holder_class);

static ssize_t mode_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	/* no personality (btt, pfn, dax) exists yet: always raw */
	return sysfs_emit(buf, "raw\n");
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

/**
 * is_nd_namespace_io - whether a device is an IO namespace
 * @dev: any device
 */
bool is_nd_namespace_io(const struct device *dev)
{
	return dev->type == &nd_namespace_io_device_type;
}
EXPORT_SYMBOL_GPL(is_nd_namespace_io);

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
	nsio->id = nd_region->ns_next++;
	nsio->res_start = nd_region->res_start;
	nsio->res_size = nd_region->res_size;

	device_initialize(&nsio->dev);
	nsio->dev.parent = &nd_region->dev;
	get_device(&nd_region->dev);
	nsio->dev.bus = &nvdimm_bus_type;
	nsio->dev.type = &nd_namespace_io_device_type;
	set_dev_node(&nsio->dev, nd_region->numa_node);
	rc = dev_set_name(&nsio->dev, "namespace%d.%d", nd_region->id,
			  nsio->id);
	if (!rc)
		rc = device_add(&nsio->dev);
	if (rc) {
		dev_err(&nd_region->dev, "failed to register namespace: %d\n",
			rc);
		put_device(&nsio->dev);
		return ERR_PTR(rc);
	}
	return &nsio->dev;
}
