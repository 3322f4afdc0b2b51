// SPDX-License-Identifier: GPL-2.0
/*
 * The nd bus type, its drivers, and the nvdimm_bus object (ndbusN) with
 * its control device ndctlN (/dev/ndctlN).  Their sysfs ABI:
 * docs/ABI/testing/sysfs-bus-nd.
 *
 * Teardown order matters for the control paths: nvdimm_bus_unregister()
 * first marks the bus dead under alive_lock (no command reaches the
 * provider afterwards), then removes the control device, then the
 * regions (which unbind their namespaces), then the DIMMs, then ndbusN.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include "nd-core.h"

struct class *nd_class;
static int nvdimm_bus_major;
static DEFINE_XARRAY_ALLOC(nvdimm_bus_xa);

/**
 * nd_device_type - the ND_DEVICE_* number of a device on the nd bus
 * @dev: a DIMM, region, namespace or btt device
 *
 * This is the N of the "nd:tN" modalias and what drivers match on.
 */
int nd_device_type(const struct device *dev)
{
	if (is_nvdimm(dev))
		return ND_DEVICE_DIMM;
	if (dev->type == &nd_pmem_device_type)
		return ND_DEVICE_REGION_PMEM;
	if (dev->type == &nd_blk_device_type)
		return ND_DEVICE_REGION_BLK;
	if (is_nd_namespace_io(dev))
		return ND_DEVICE_NAMESPACE_IO;
	if (is_nd_namespace_pmem(dev))
		return ND_DEVICE_NAMESPACE_PMEM;
	if (is_nd_namespace_blk(dev))
		return ND_DEVICE_NAMESPACE_BLK;
	/* btt and pfn bind to the namespace driver of their region's type */
	if (is_nd_btt(dev) || is_nd_pfn(dev))
		return nd_region_nstype(to_nd_region(dev->parent));
	if (is_nd_dax(dev))
		return ND_DEVICE_DAX_PMEM;
	return 0;
}

static int nvdimm_bus_match(struct device *dev, struct device_driver *drv)
{
	struct nd_device_driver *nd_drv = to_nd_device_driver(drv);
	int type = nd_device_type(dev);

	return type && test_bit(type, &nd_drv->type);
}

static int nvdimm_bus_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "MODALIAS=nd:t%d", nd_device_type(dev));
}

static int nvdimm_bus_probe(struct device *dev)
{
	struct nd_device_driver *nd_drv = to_nd_device_driver(dev->driver);
	int rc;

	rc = nd_drv->probe(dev);
	dev_dbg(dev, "%s probe: %d\n", dev->driver->name, rc);
	if (!rc)
		nd_namespace_probe_success(dev);
	return rc;
}

static void nvdimm_bus_remove(struct device *dev)
{
	struct nd_device_driver *nd_drv = to_nd_device_driver(dev->driver);

	if (nd_drv->remove)
		nd_drv->remove(dev);
	dev_dbg(dev, "%s removed\n", dev->driver->name);
}

struct bus_type nvdimm_bus_type = {
	.name = "nd",
	.match = nvdimm_bus_match,
	.uevent = nvdimm_bus_uevent,
	.probe = nvdimm_bus_probe,
	.remove = nvdimm_bus_remove,
};

/**
 * __nd_driver_register - register a driver on the nd bus
 * @nd_drv: driver with its type mask, probe and remove
 * @owner: module providing the driver
 * @mod_name: KBUILD_MODNAME of @owner
 *
 * Returns 0 or a negative errno.
 */
int __nd_driver_register(struct nd_device_driver *nd_drv, struct module *owner,
			 const char *mod_name)
{
	struct device_driver *drv = &nd_drv->drv;

	if (!nd_drv->type || !nd_drv->probe) {
		pr_err("libnvdimm: driver %s lacks a type mask or probe\n",
		       drv->name);
		return -EINVAL;
	}
	drv->bus = &nvdimm_bus_type;
	drv->owner = owner;
	drv->mod_name = mod_name;
	return driver_register(drv);
}
EXPORT_SYMBOL_GPL(__nd_driver_register);

/**
 * nd_driver_unregister - undo __nd_driver_register()
 * @nd_drv: the driver
 */
void nd_driver_unregister(struct nd_device_driver *nd_drv)
{
	driver_unregister(&nd_drv->drv);
}
EXPORT_SYMBOL_GPL(nd_driver_unregister);

/**
 * to_nvdimm_bus - the nvdimm_bus behind an ndbusN device
 * @dev: an ndbusN device
 */
struct nvdimm_bus *to_nvdimm_bus(struct device *dev)
{
	return container_of(dev, struct nvdimm_bus, dev);
}
EXPORT_SYMBOL_GPL(to_nvdimm_bus);

/**
 * to_nd_desc - the provider's descriptor of a bus
 * @nvdimm_bus: the bus
 */
struct nvdimm_bus_descriptor *to_nd_desc(struct nvdimm_bus *nvdimm_bus)
{
	return nvdimm_bus->nd_desc;
}
EXPORT_SYMBOL_GPL(to_nd_desc);

/**
 * to_nvdimm_bus_dev - the ndbusN device of a bus
 * @nvdimm_bus: the bus
 */
struct device *to_nvdimm_bus_dev(struct nvdimm_bus *nvdimm_bus)
{
	return &nvdimm_bus->dev;
}
EXPORT_SYMBOL_GPL(to_nvdimm_bus_dev);

static bool is_nvdimm_bus(const struct device *dev);

/**
 * walk_to_nvdimm_bus - find the bus a DIMM, region or namespace sits on
 * @dev: any device below an ndbusN device
 *
 * Returns NULL when @dev is not below a bus.
 */
struct nvdimm_bus *walk_to_nvdimm_bus(struct device *dev)
{
	for (; dev; dev = dev->parent)
		if (is_nvdimm_bus(dev))
			return to_nvdimm_bus(dev);
	return NULL;
}
EXPORT_SYMBOL_GPL(walk_to_nvdimm_bus);

/*
 * The names ndctl parses, from the uapi header (6.1 prints "unknown" for
 * a bit the uapi does not name; no provider sets one, and none is shown).
 */
static ssize_t commands_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	unsigned long mask = to_nvdimm_bus(dev)->cmd_mask;
	ssize_t len = 0;
	int cmd;

	for_each_set_bit(cmd, &mask, BITS_PER_LONG)
		if (strcmp(nvdimm_bus_cmd_name(cmd), "unknown"))
			len += sysfs_emit_at(buf, len, "%s ",
					     nvdimm_bus_cmd_name(cmd));
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(commands);

static ssize_t provider_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(dev);
	const char *name = nvdimm_bus->nd_desc->provider_name;

	if (!name)
		name = dev_name(dev->parent);
	return sysfs_emit(buf, "%s\n", name);
}
static DEVICE_ATTR_RO(provider);

/*
 * ndctl reads this before every scan to synchronise with the kernel: it
 * must only return once pending probes have finished.
 */
static ssize_t wait_probe_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	nd_synchronize();
	wait_for_device_probe();
	return sysfs_emit(buf, "1\n");
}
static DEVICE_ATTR_RO(wait_probe);

static struct attribute *nvdimm_bus_attributes[] = {
	&dev_attr_commands.attr,
	&dev_attr_provider.attr,
	&dev_attr_wait_probe.attr,
	NULL,
};

static const struct attribute_group nvdimm_bus_attribute_group = {
	.attrs = nvdimm_bus_attributes,
};

static const struct attribute_group *nvdimm_bus_attribute_groups[] = {
	&nvdimm_bus_attribute_group,
	&nvdimm_bus_firmware_group,
	NULL,
};

static void nvdimm_bus_release(struct device *dev)
{
	put_device(dev->parent);
	nvdimm_bus_badrange_free(to_nvdimm_bus(dev));
	kfree(to_nvdimm_bus(dev));
}

static const struct device_type nvdimm_bus_dev_type = {
	.name = "nvdimm_bus",
	.release = nvdimm_bus_release,
	.groups = nvdimm_bus_attribute_groups,
};

static bool is_nvdimm_bus(const struct device *dev)
{
	return dev->type == &nvdimm_bus_dev_type;
}

/**
 * nvdimm_bus_register - create ndbusN and its control device ndctlN
 * @parent: the provider's device (ACPI0012:00, nfit_test.N)
 * @desc: the provider's descriptor; must outlive the bus
 *
 * Returns the bus or NULL on failure (logged).
 */
struct nvdimm_bus *nvdimm_bus_register(struct device *parent,
				       struct nvdimm_bus_descriptor *desc)
{
	struct nvdimm_bus *nvdimm_bus;
	struct device *ctl;
	u32 id;
	int rc;

	nvdimm_bus = kzalloc(sizeof(*nvdimm_bus), GFP_KERNEL);
	if (!nvdimm_bus)
		return NULL;
	/* the id is reserved now, the bus published once registered */
	rc = xa_alloc(&nvdimm_bus_xa, &id, NULL, XA_LIMIT(0, MINORMASK),
		      GFP_KERNEL);
	if (rc) {
		kfree(nvdimm_bus);
		dev_err(parent, "no bus id left: %d\n", rc);
		return NULL;
	}
	nvdimm_bus->id = id;
	nvdimm_bus->nd_desc = desc;
	nvdimm_bus->cmd_mask = desc->cmd_mask;
	mutex_init(&nvdimm_bus->cmd_lock);
	mutex_init(&nvdimm_bus->reconfig_lock);
	init_rwsem(&nvdimm_bus->alive_lock);
	mutex_init(&nvdimm_bus->badrange_lock);
	INIT_LIST_HEAD(&nvdimm_bus->badranges);
	nvdimm_bus->alive = true;

	nd_device_init(&nvdimm_bus->dev, parent, &nvdimm_bus_dev_type, false);
	nvdimm_bus->dev.groups = desc->attr_groups;
	if (nd_device_add(&nvdimm_bus->dev, "ndbus%d", id)) {
		xa_erase(&nvdimm_bus_xa, id);
		return NULL;
	}
	xa_store(&nvdimm_bus_xa, id, nvdimm_bus, GFP_KERNEL);

	ctl = device_create(nd_class, &nvdimm_bus->dev,
			    MKDEV(nvdimm_bus_major, nvdimm_bus->id), nvdimm_bus,
			    "ndctl%d", nvdimm_bus->id);
	if (IS_ERR(ctl)) {
		dev_err(&nvdimm_bus->dev, "failed to create ndctl%d: %ld\n",
			nvdimm_bus->id, PTR_ERR(ctl));
		device_del(&nvdimm_bus->dev);
		xa_erase(&nvdimm_bus_xa, id);
		put_device(&nvdimm_bus->dev);
		return NULL;
	}
	dev_dbg(&nvdimm_bus->dev, "registered for %s\n", dev_name(parent));
	return nvdimm_bus;
}
EXPORT_SYMBOL_GPL(nvdimm_bus_register);

static int region_unregister(struct device *dev, void *data)
{
	if (is_nd_region(dev))
		device_unregister(dev);
	return 0;
}

static int dimm_unregister(struct device *dev, void *data)
{
	if (is_nvdimm(dev))
		nvdimm_unregister(to_nvdimm(dev));
	return 0;
}

/**
 * nvdimm_bus_unregister - tear down a bus and everything below it
 * @nvdimm_bus: the bus returned by nvdimm_bus_register(), may be NULL
 */
void nvdimm_bus_unregister(struct nvdimm_bus *nvdimm_bus)
{
	int id;

	if (!nvdimm_bus)
		return;
	id = nvdimm_bus->id;

	/*
	 * No command may reach the provider once this returns.  A label
	 * transaction (sysfs writers, SET_CONFIG_DATA) holds reconfig_lock
	 * from its first write to its last: it finishes before the bus dies,
	 * and the next one fails before writing anything.
	 */
	mutex_lock(&nvdimm_bus->reconfig_lock);
	down_write(&nvdimm_bus->alive_lock);
	nvdimm_bus->alive = false;
	up_write(&nvdimm_bus->alive_lock);
	mutex_unlock(&nvdimm_bus->reconfig_lock);

	device_destroy(nd_class, MKDEV(nvdimm_bus_major, id));

	/* Regions first: they pin DIMMs and own the namespaces. */
	device_for_each_child(&nvdimm_bus->dev, NULL, region_unregister);
	device_for_each_child(&nvdimm_bus->dev, NULL, dimm_unregister);

	device_del(&nvdimm_bus->dev);
	xa_erase(&nvdimm_bus_xa, id);
	put_device(&nvdimm_bus->dev);
}
EXPORT_SYMBOL_GPL(nvdimm_bus_unregister);

static int nd_bus_open(struct inode *inode, struct file *file)
{
	struct nvdimm_bus *nvdimm_bus;

	xa_lock(&nvdimm_bus_xa);
	nvdimm_bus = xa_load(&nvdimm_bus_xa, iminor(inode));
	if (nvdimm_bus)
		get_device(&nvdimm_bus->dev);
	xa_unlock(&nvdimm_bus_xa);
	if (!nvdimm_bus)
		return -ENXIO;
	file->private_data = nvdimm_bus;
	return 0;
}

static int nd_bus_release(struct inode *inode, struct file *file)
{
	struct nvdimm_bus *nvdimm_bus = file->private_data;

	put_device(&nvdimm_bus->dev);
	return 0;
}

static long nd_bus_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct nvdimm_bus *nvdimm_bus = file->private_data;
	bool ro = !(file->f_mode & FMODE_WRITE);

	return nd_cmd_submit(nvdimm_bus, NULL, cmd, (void __user *)arg, ro);
}

static const struct file_operations nvdimm_bus_fops = {
	.owner = THIS_MODULE,
	.open = nd_bus_open,
	.release = nd_bus_release,
	.unlocked_ioctl = nd_bus_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

int __init nvdimm_bus_init(void)
{
	int rc;

	rc = bus_register(&nvdimm_bus_type);
	if (rc)
		return rc;
	rc = register_chrdev(0, "ndctl", &nvdimm_bus_fops);
	if (rc < 0)
		goto err_chrdev;
	nvdimm_bus_major = rc;

	nd_class = class_create(THIS_MODULE, "nd");
	if (IS_ERR(nd_class)) {
		rc = PTR_ERR(nd_class);
		goto err_class;
	}
	return 0;

err_class:
	unregister_chrdev(nvdimm_bus_major, "ndctl");
err_chrdev:
	bus_unregister(&nvdimm_bus_type);
	return rc;
}

void nvdimm_bus_exit(void)
{
	class_destroy(nd_class);
	unregister_chrdev(nvdimm_bus_major, "ndctl");
	bus_unregister(&nvdimm_bus_type);
	WARN_ON(!xa_empty(&nvdimm_bus_xa));
}
