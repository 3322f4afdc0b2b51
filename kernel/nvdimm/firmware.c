// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime firmware activation: the ndbusN/firmware/ and nmemN/firmware/
 * attributes of 6.1 (docs/ABI/testing/sysfs-bus-nvdimm, docs/firmware.md).
 *
 * The provider (nfit.ko's intel-firmware.c) knows the states; this file
 * only parses and prints them, picks how an activation runs, and gives
 * the errnos 6.1 gives:
 *
 *   ndbusN/firmware/capability  "quiesce" | "live"
 *   ndbusN/firmware/activate    "idle" | "armed" | "busy" | "overflow";
 *                               write "live" or "quiesce"
 *   nmemN/firmware/activate     "idle" | "armed" | "busy"; write "arm" or
 *                               "disarm"
 *   nmemN/firmware/result       "none" | "success" | "fail" |
 *                               "not_staged" | "need_reset"
 *
 * Both groups exist only when the bus's capability is "quiesce" or
 * "live" (and, for a DIMM, when its provider gave it activation ops).
 * A word other than those above is -EINVAL; activating a bus with
 * nothing armed is -ENXIO, while busy -EBUSY; a state the provider cannot
 * read shows as -ENXIO.  One mutex serialises every activation operation
 * of every bus: reads and writes are rare, and an activation must not
 * race an arm.  A quiesced activation takes it only inside the freeze
 * (nd_bus_fwa_quiesced()).
 */
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/suspend.h>
#include <linux/sysfs.h>
#include "nd-core.h"

static DEFINE_MUTEX(nd_fwa_lock);

static const struct nvdimm_bus_fw_ops *nd_bus_fw_ops(struct device *dev)
{
	return to_nvdimm_bus(dev)->nd_desc->fw_ops;
}

static enum nvdimm_fwa_capability nd_bus_fwa_cap(struct nvdimm_bus *nvdimm_bus)
{
	struct nvdimm_bus_descriptor *nd_desc = nvdimm_bus->nd_desc;

	if (!nd_desc->fw_ops)
		return NVDIMM_FWA_CAP_INVALID;
	return nd_desc->fw_ops->capability(nd_desc);
}

static ssize_t capability_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	enum nvdimm_fwa_capability cap;

	mutex_lock(&nd_fwa_lock);
	cap = nd_bus_fwa_cap(to_nvdimm_bus(dev));
	mutex_unlock(&nd_fwa_lock);
	switch (cap) {
	case NVDIMM_FWA_CAP_QUIESCE:
		return sysfs_emit(buf, "quiesce\n");
	case NVDIMM_FWA_CAP_LIVE:
		return sysfs_emit(buf, "live\n");
	default:
		return -EOPNOTSUPP;
	}
}
static DEVICE_ATTR_RO(capability);

static const char *const nd_fwa_state_names[] = {
	[NVDIMM_FWA_IDLE] = "idle",
	[NVDIMM_FWA_ARMED] = "armed",
	[NVDIMM_FWA_BUSY] = "busy",
	[NVDIMM_FWA_ARM_OVERFLOW] = "overflow",
};

static ssize_t bus_activate_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(dev);
	const struct nvdimm_bus_fw_ops *ops = nd_bus_fw_ops(dev);
	enum nvdimm_fwa_state state = NVDIMM_FWA_INVALID;

	if (!ops)
		return -EOPNOTSUPP;
	mutex_lock(&nd_fwa_lock);
	if (nd_bus_fwa_cap(nvdimm_bus) >= NVDIMM_FWA_CAP_QUIESCE)
		state = ops->state(nvdimm_bus->nd_desc);
	mutex_unlock(&nd_fwa_lock);
	if (state == NVDIMM_FWA_INVALID || state >= ARRAY_SIZE(nd_fwa_state_names))
		return -ENXIO;
	return sysfs_emit(buf, "%s\n", nd_fwa_state_names[state]);
}

/*
 * With nd_fwa_lock held: start the activation of an armed bus (also one
 * in overflow), else -EBUSY while an activation runs, -ENXIO otherwise.
 */
static int nd_bus_fwa_start(struct nvdimm_bus_descriptor *nd_desc,
			    bool activate)
{
	switch (nd_desc->fw_ops->state(nd_desc)) {
	case NVDIMM_FWA_ARMED:
	case NVDIMM_FWA_ARM_OVERFLOW:
		return activate ? nd_desc->fw_ops->activate(nd_desc) : 0;
	case NVDIMM_FWA_BUSY:
		return -EBUSY;
	default:
		return -ENXIO;
	}
}

/*
 * hibernate_quiet_exec()'s callback: the activation inside the freeze.
 * nd_fwa_lock is taken here and not held across the freeze: a task
 * asleep on it (reading a firmware attribute) could not be frozen, and
 * the freeze would fail after pm_freeze_timeout.  Frozen user tasks hold
 * no section of the lock, so it is had at once; the state is checked
 * again, as it may have changed before the freeze (a disarm).
 */
static int nd_bus_fwa_quiesced(void *data)
{
	struct nvdimm_bus_descriptor *nd_desc = data;
	int rc;

	mutex_lock(&nd_fwa_lock);
	rc = nd_bus_fwa_start(nd_desc, true);
	mutex_unlock(&nd_fwa_lock);
	return rc;
}

static ssize_t bus_activate_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(dev);
	struct nvdimm_bus_descriptor *nd_desc = nvdimm_bus->nd_desc;
	bool quiesce;
	int rc;

	if (!nd_desc->fw_ops)
		return -EOPNOTSUPP;
	if (sysfs_streq(buf, "live")) {
		quiesce = false;
	} else if (sysfs_streq(buf, "quiesce")) {
		quiesce = true;
	} else {
		dev_dbg(dev, "firmware activate: '%.*s' is neither live nor quiesce\n",
			(int)min_t(size_t, len, 16), buf);
		return -EINVAL;
	}

	/*
	 * live: at once.  quiesce: refused here when nothing is armed or an
	 * activation runs, before anything is frozen; otherwise every user
	 * task frozen and every device through its freeze callbacks (the
	 * hibernation "freeze" without an image) around the platform's
	 * quiet period.  Our nd devices have no PM callbacks: for them it
	 * means no new I/O from userspace.
	 */
	mutex_lock(&nd_fwa_lock);
	rc = nd_bus_fwa_start(nd_desc, !quiesce);
	mutex_unlock(&nd_fwa_lock);
	if (!rc && quiesce)
		rc = hibernate_quiet_exec(nd_bus_fwa_quiesced, nd_desc);
	if (rc)
		dev_dbg(dev, "firmware activate (%s): %d\n",
			quiesce ? "quiesce" : "live", rc);
	return rc ? rc : len;
}

static struct device_attribute dev_attr_bus_activate =
	__ATTR(activate, 0600, bus_activate_show, bus_activate_store);

static struct attribute *nd_bus_firmware_attrs[] = {
	&dev_attr_bus_activate.attr,
	&dev_attr_capability.attr,
	NULL,
};

static umode_t nd_bus_firmware_visible(struct kobject *kobj,
				       struct attribute *a, int n)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(kobj_to_dev(kobj));
	enum nvdimm_fwa_capability cap;

	mutex_lock(&nd_fwa_lock);
	cap = nd_bus_fwa_cap(nvdimm_bus);
	mutex_unlock(&nd_fwa_lock);
	return cap >= NVDIMM_FWA_CAP_QUIESCE ? a->mode : 0;
}

const struct attribute_group nvdimm_bus_firmware_group = {
	.name = "firmware",
	.attrs = nd_bus_firmware_attrs,
	.is_visible = nd_bus_firmware_visible,
};

/* DIMMs */

static ssize_t dimm_activate_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	const struct nvdimm_fw_ops *ops = nvdimm->desc.fw_ops;
	enum nvdimm_fwa_state state;

	if (!ops)
		return -EOPNOTSUPP;
	mutex_lock(&nd_fwa_lock);
	state = ops->state(nvdimm);
	mutex_unlock(&nd_fwa_lock);
	if (state != NVDIMM_FWA_IDLE && state != NVDIMM_FWA_ARMED &&
	    state != NVDIMM_FWA_BUSY)
		return -ENXIO;
	return sysfs_emit(buf, "%s\n", nd_fwa_state_names[state]);
}

static ssize_t dimm_activate_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t len)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	const struct nvdimm_fw_ops *ops = nvdimm->desc.fw_ops;
	bool arm;
	int rc;

	if (!ops)
		return -EOPNOTSUPP;
	if (sysfs_streq(buf, "arm")) {
		arm = true;
	} else if (sysfs_streq(buf, "disarm")) {
		arm = false;
	} else {
		dev_dbg(dev, "firmware activate: '%.*s' is neither arm nor disarm\n",
			(int)min_t(size_t, len, 16), buf);
		return -EINVAL;
	}
	mutex_lock(&nd_fwa_lock);
	rc = ops->arm(nvdimm, arm);
	mutex_unlock(&nd_fwa_lock);
	if (rc)
		dev_dbg(dev, "firmware %s: %d\n", arm ? "arm" : "disarm", rc);
	return rc ? rc : len;
}

static struct device_attribute dev_attr_dimm_activate =
	__ATTR(activate, 0600, dimm_activate_show, dimm_activate_store);

static const char *const nd_fwa_result_names[] = {
	[NVDIMM_FWA_RESULT_NONE] = "none",
	[NVDIMM_FWA_RESULT_SUCCESS] = "success",
	[NVDIMM_FWA_RESULT_FAIL] = "fail",
	[NVDIMM_FWA_RESULT_NOTSTAGED] = "not_staged",
	[NVDIMM_FWA_RESULT_NEEDRESET] = "need_reset",
	[NVDIMM_FWA_RESULT_BUSY] = "busy",
};

static ssize_t result_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	const struct nvdimm_fw_ops *ops = nvdimm->desc.fw_ops;
	enum nvdimm_fwa_result result;

	if (!ops)
		return -EOPNOTSUPP;
	mutex_lock(&nd_fwa_lock);
	result = ops->result(nvdimm);
	mutex_unlock(&nd_fwa_lock);
	if (result == NVDIMM_FWA_RESULT_INVALID ||
	    result >= ARRAY_SIZE(nd_fwa_result_names))
		return -ENXIO;
	return sysfs_emit(buf, "%s\n", nd_fwa_result_names[result]);
}
static DEVICE_ATTR_ADMIN_RO(result);

static struct attribute *nd_dimm_firmware_attrs[] = {
	&dev_attr_dimm_activate.attr,
	&dev_attr_result.attr,
	NULL,
};

static umode_t nd_dimm_firmware_visible(struct kobject *kobj,
					struct attribute *a, int n)
{
	struct device *dev = kobj_to_dev(kobj);
	struct nvdimm *nvdimm = to_nvdimm(dev);
	enum nvdimm_fwa_capability cap;

	if (!nvdimm->desc.fw_ops)
		return 0;
	mutex_lock(&nd_fwa_lock);
	cap = nd_bus_fwa_cap(walk_to_nvdimm_bus(dev));
	mutex_unlock(&nd_fwa_lock);
	return cap >= NVDIMM_FWA_CAP_QUIESCE ? a->mode : 0;
}

const struct attribute_group nvdimm_firmware_group = {
	.name = "firmware",
	.attrs = nd_dimm_firmware_attrs,
	.is_visible = nd_dimm_firmware_visible,
};
