// SPDX-License-Identifier: GPL-2.0
/*
 * libnvdimm module entry and helpers shared by every device type: the
 * common sysfs attributes (modalias, devtype, numa_node) and the parsers
 * that give every store the same tolerance for ndctl's writes (a trailing
 * newline and a terminating NUL inside the count).  Those conventions:
 * docs/ABI/README.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/numa.h>
#include "nd-core.h"

/**
 * nd_parse_bool - parse a boolean written by a user or by ndctl
 * @buf: the written bytes, NUL terminated by sysfs
 * @val: result
 *
 * Accepts what kstrtobool() accepts followed by an optional newline.
 * Returns 0 or -EINVAL.
 */
int nd_parse_bool(const char *buf, bool *val)
{
	char tmp[8];
	size_t len = strcspn(buf, "\n");

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	return kstrtobool(tmp, val);
}

/**
 * nd_size_select_show - print a list of sizes, the current one bracketed
 * @current_size: selected size, 0 when none is selected
 * @supported: zero-terminated list
 * @buf: sysfs page
 *
 * Every entry is followed by a space: ndctl only consumes tokens that are.
 */
ssize_t nd_size_select_show(unsigned long current_size,
			    const unsigned long *supported, char *buf)
{
	ssize_t len = 0;
	int i;

	for (i = 0; supported[i]; i++)
		len += sysfs_emit_at(buf, len,
				     supported[i] == current_size ? "[%lu] " : "%lu ",
				     supported[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/**
 * nd_device_init - first half of registering a device of the subsystem
 * @dev: the device, embedded in a zeroed object its type's release frees
 * @parent: its parent; the device holds a reference on it, which the
 *	type's release drops
 * @type: the device type
 * @on_bus: the device sits on the nd bus (DIMMs, regions, namespaces; not
 *	ndbusN, in the v4.2 model)
 *
 * From here on the object is freed only through put_device().  The caller
 * sets what is particular to it (groups, devt, NUMA node) before
 * nd_device_add().
 */
void nd_device_init(struct device *dev, struct device *parent,
		    const struct device_type *type, bool on_bus)
{
	device_initialize(dev);
	dev->parent = get_device(parent);
	dev->type = type;
	if (on_bus)
		dev->bus = &nvdimm_bus_type;
	set_dev_node(dev, dev_to_node(parent));
}

/**
 * nd_device_add - second half: name a device and add it
 * @dev: a device set up by nd_device_init()
 * @fmt: printf format of its name
 *
 * On failure the failure is logged on the parent and the device is put,
 * which frees its object.  Returns 0 or a negative errno.
 */
int nd_device_add(struct device *dev, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;
	int rc;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	rc = dev_set_name(dev, "%pV", &vaf);
	va_end(args);
	if (!rc)
		rc = device_add(dev);
	if (rc) {
		dev_err(dev->parent, "failed to register %s: %d\n",
			kobject_name(&dev->kobj) ?: "a device", rc);
		put_device(dev);
	}
	return rc;
}

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "nd:t%d\n", nd_device_type(dev));
}
static DEVICE_ATTR_RO(modalias);

static ssize_t devtype_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", dev->type->name);
}
static DEVICE_ATTR_RO(devtype);

static struct attribute *nd_device_attributes[] = {
	&dev_attr_modalias.attr,
	&dev_attr_devtype.attr,
	NULL,
};

const struct attribute_group nd_device_attribute_group = {
	.attrs = nd_device_attributes,
};

static ssize_t numa_node_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_node(dev));
}
static DEVICE_ATTR_RO(numa_node);

/* namespaces and their claim devices: the target node of their region */
static ssize_t target_node_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  nd_region_target_node(to_nd_region(dev->parent)));
}
static DEVICE_ATTR_RO(target_node);

static struct attribute *nd_numa_attributes[] = {
	&dev_attr_numa_node.attr,
	&dev_attr_target_node.attr,
	NULL,
};

static umode_t nd_numa_visible(struct kobject *kobj, struct attribute *a,
			       int n)
{
	struct device *dev = kobj_to_dev(kobj);

	if (a == &dev_attr_target_node.attr &&
	    !(dev->parent && is_nd_region(dev->parent)))
		return 0;
	return a->mode;
}

const struct attribute_group nd_numa_attribute_group = {
	.attrs = nd_numa_attributes,
	.is_visible = nd_numa_visible,
};

static int __init libnvdimm_init(void)
{
	int rc;

	rc = nvdimm_bus_init();
	if (rc)
		return rc;
	rc = nvdimm_devs_init();
	if (rc)
		goto err_devs;
	rc = nvdimm_driver_init();
	if (rc)
		goto err_dimm_driver;
	rc = nd_namespace_init();
	if (rc)
		goto err_namespace;
	rc = nd_claim_init();
	if (rc)
		goto err_claim;
	rc = nd_region_driver_init();
	if (rc)
		goto err_region_driver;
	return 0;

err_region_driver:
	nd_claim_exit();
err_claim:
	nd_namespace_exit();
err_namespace:
	nvdimm_driver_exit();
err_dimm_driver:
	nvdimm_devs_exit();
err_devs:
	nvdimm_bus_exit();
	return rc;
}

static void __exit libnvdimm_exit(void)
{
	nd_region_driver_exit();
	nd_claim_exit();
	nd_namespace_exit();
	nvdimm_driver_exit();
	nvdimm_devs_exit();
	nvdimm_bus_exit();
}

module_init(libnvdimm_init);
module_exit(libnvdimm_exit);
MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("libnvdimm: NVDIMM bus, DIMM, region and namespace core");
MODULE_AUTHOR("libnvdimm developers");
