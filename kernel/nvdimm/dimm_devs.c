// SPDX-License-Identifier: GPL-2.0
/*
 * DIMM devices: nmemN on the nd bus, with the control node /dev/nmemN
 * ("dimmctl" major, minor = N) that carries DIMM command ioctls.
 * ABI: docs/ABI/testing/sysfs-bus-nd (nmemX), dev-ndctl (/dev/nmemX).
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include "nd-core.h"

static int nvdimm_major;
static DEFINE_XARRAY_ALLOC(nvdimm_xa);

/**
 * to_nvdimm - the DIMM behind an nmemN device
 * @dev: an nmemN device
 */
struct nvdimm *to_nvdimm(struct device *dev)
{
	return container_of(dev, struct nvdimm, dev);
}
EXPORT_SYMBOL_GPL(to_nvdimm);

/**
 * nvdimm_provider_data - the provider's pointer given to nvdimm_create()
 * @nvdimm: the DIMM
 */
void *nvdimm_provider_data(struct nvdimm *nvdimm)
{
	return nvdimm->desc.provider_data;
}
EXPORT_SYMBOL_GPL(nvdimm_provider_data);

/**
 * nvdimm_name - the DIMM's device name (nmemN)
 * @nvdimm: the DIMM
 */
const char *nvdimm_name(struct nvdimm *nvdimm)
{
	return dev_name(&nvdimm->dev);
}
EXPORT_SYMBOL_GPL(nvdimm_name);

/**
 * nvdimm_dev - the nmemN device of a DIMM
 * @nvdimm: the DIMM
 */
struct device *nvdimm_dev(struct nvdimm *nvdimm)
{
	return &nvdimm->dev;
}
EXPORT_SYMBOL_GPL(nvdimm_dev);

static ssize_t commands_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	unsigned long mask = to_nvdimm(dev)->desc.cmd_mask;
	ssize_t len = 0;
	int cmd;

	/* uapi names, as bus.c's commands_show() */
	for_each_set_bit(cmd, &mask, BITS_PER_LONG)
		if (strcmp(nvdimm_cmd_name(cmd), "unknown"))
			len += sysfs_emit_at(buf, len, "%s ",
					     nvdimm_cmd_name(cmd));
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(commands);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);

	return sysfs_emit(buf, "%s\n",
			  atomic_read(&nvdimm->busy) ? "active" : "idle");
}
static DEVICE_ATTR_RO(state);

/*
 * "label " when the last bind found a valid label index, or the provider
 * says the DIMM is label-backed (NDD_LABEL_BACKED); nothing locks
 */
static ssize_t flags_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);

	bool label = test_bit(NDD_LABELING, &nvdimm->state) ||
		     test_bit(NDD_LABEL_BACKED, &nvdimm->desc.flags);

	return sysfs_emit(buf, "%s%s\n", label ? "label " : "",
			  test_bit(NDD_LOCKED, &nvdimm->state) ? "lock " : "");
}
static DEVICE_ATTR_RO(flags);

/*
 * Free label slots of the next index minus the reserve slot, or of the
 * layout a blank area would get; only while the "nvdimm" driver is bound
 * and the DIMM has a label area.
 */
static ssize_t available_slots_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	struct nvdimm_drvdata *ndd;
	ssize_t rc = -ENXIO;

	/* label state changes under reconfig_lock (nvdimm_drvdata) */
	mutex_lock(lock);
	ndd = dev_get_drvdata(dev);
	if (ndd && ndd->data)
		rc = sysfs_emit(buf, "%u\n",
				nd_lsa_available_slots(&ndd->lsa, ndd->fresh));
	mutex_unlock(lock);
	return rc;
}
static DEVICE_ATTR_RO(available_slots);

static struct attribute *nvdimm_attributes[] = {
	&dev_attr_commands.attr,
	&dev_attr_state.attr,
	&dev_attr_flags.attr,
	&dev_attr_available_slots.attr,
	NULL,
};

static const struct attribute_group nvdimm_attribute_group = {
	.attrs = nvdimm_attributes,
};

static const struct attribute_group *nvdimm_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nvdimm_attribute_group,
	&nvdimm_firmware_group,
#if IS_ENABLED(CONFIG_NVDIMM_KEYS)
	&nvdimm_security_attribute_group,
#endif
	NULL,
};

static void nvdimm_release(struct device *dev)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);

	put_device(dev->parent);
	nvdimm_security_free(nvdimm);
	kfree(nvdimm);
}

const struct device_type nvdimm_device_type = {
	.name = "nvdimm",
	.release = nvdimm_release,
	.groups = nvdimm_attribute_groups,
};

/**
 * nvdimm_create - register a DIMM (nmemN and /dev/nmemN) on a bus
 * @nvdimm_bus: the bus
 * @desc: the DIMM's description; copied
 *
 * The DIMM lives until the bus is unregistered or the provider deletes
 * it (nvdimm_delete()).  Returns NULL on failure (logged).
 */
struct nvdimm *nvdimm_create(struct nvdimm_bus *nvdimm_bus,
			     const struct nvdimm_desc *desc)
{
	struct nvdimm *nvdimm;
	u32 id;
	int rc;

	nvdimm = kzalloc(sizeof(*nvdimm), GFP_KERNEL);
	if (!nvdimm)
		return NULL;
	/* the id is reserved now, the DIMM published once registered */
	rc = xa_alloc(&nvdimm_xa, &id, NULL, XA_LIMIT(0, MINORMASK),
		      GFP_KERNEL);
	if (rc) {
		dev_err(&nvdimm_bus->dev, "no DIMM id left: %d\n", rc);
		kfree(nvdimm);
		return NULL;
	}
	nvdimm->id = id;
	nvdimm->desc = *desc;
	mutex_init(&nvdimm->cfg_lock);
	atomic_set(&nvdimm->busy, 0);

	nd_device_init(&nvdimm->dev, &nvdimm_bus->dev, &nvdimm_device_type,
		       true);
	nvdimm->dev.groups = desc->groups;
	nvdimm->dev.devt = MKDEV(nvdimm_major, id);
	/* the security state decides which attributes the DIMM shows */
	rc = nvdimm_security_init(nvdimm);
	if (rc) {
		xa_erase(&nvdimm_xa, id);
		put_device(&nvdimm->dev);
		return NULL;
	}
	if (desc->probe)
		desc->probe(nvdimm);
	if (nd_device_add(&nvdimm->dev, "nmem%d", id)) {
		xa_erase(&nvdimm_xa, id);
		return NULL;
	}
	nvdimm_security_added(nvdimm);
	xa_store(&nvdimm_xa, id, nvdimm, GFP_KERNEL);
	return nvdimm;
}
EXPORT_SYMBOL_GPL(nvdimm_create);

/**
 * nvdimm_unregister - remove a DIMM (from nvdimm_bus_unregister())
 * @nvdimm: the DIMM
 *
 * The minor is released after device_del(), so a new DIMM cannot take the
 * name while the old one is still in sysfs, and before the last reference
 * is dropped, so nvdimm_open() never finds a DIMM being freed.
 */
void nvdimm_unregister(struct nvdimm *nvdimm)
{
	nvdimm_security_exit(nvdimm);
	device_del(&nvdimm->dev);
	xa_erase(&nvdimm_xa, nvdimm->id);
	put_device(&nvdimm->dev);
}

/**
 * nvdimm_delete - remove one DIMM before its bus goes
 * @nvdimm: a DIMM of nvdimm_create(), not deleted before
 *
 * For a provider whose DIMMs come and go while the bus stays (CXL): the
 * DIMM is unbound and unregistered, its minor released.  The provider
 * deletes the regions using it first (nvdimm_region_delete()); a region
 * still holding it keeps the object, not the device.  Process context.
 */
void nvdimm_delete(struct nvdimm *nvdimm)
{
	nvdimm_unregister(nvdimm);
}
EXPORT_SYMBOL_GPL(nvdimm_delete);

static int nvdimm_open(struct inode *inode, struct file *file)
{
	struct nvdimm *nvdimm;

	xa_lock(&nvdimm_xa);
	nvdimm = xa_load(&nvdimm_xa, iminor(inode));
	if (nvdimm)
		get_device(&nvdimm->dev);
	xa_unlock(&nvdimm_xa);
	if (!nvdimm)
		return -ENXIO;
	file->private_data = nvdimm;
	return 0;
}

static int nvdimm_release_file(struct inode *inode, struct file *file)
{
	struct nvdimm *nvdimm = file->private_data;

	put_device(&nvdimm->dev);
	return 0;
}

static long nvdimm_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct nvdimm *nvdimm = file->private_data;
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nvdimm->dev);
	bool ro = !(file->f_mode & FMODE_WRITE);

	return nd_cmd_submit(nvdimm_bus, nvdimm, cmd, (void __user *)arg, ro);
}

static const struct file_operations nvdimm_fops = {
	.owner = THIS_MODULE,
	.open = nvdimm_open,
	.release = nvdimm_release_file,
	.unlocked_ioctl = nvdimm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

int __init nvdimm_devs_init(void)
{
	int rc;

	rc = register_chrdev(0, "dimmctl", &nvdimm_fops);
	if (rc < 0)
		return rc;
	nvdimm_major = rc;
	return 0;
}

void nvdimm_devs_exit(void)
{
	unregister_chrdev(nvdimm_major, "dimmctl");
	WARN_ON(!xa_empty(&nvdimm_xa));
}
