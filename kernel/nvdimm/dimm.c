// SPDX-License-Identifier: GPL-2.0
/*
 * The "nvdimm" driver: binds nmemN devices.  At bind it reads the DIMM's
 * label storage area and validates its index blocks (label.c).  A DIMM
 * without a readable area still binds, label-less: the firmware may
 * simply not store labels, and a failing one must not take the DIMM's
 * other functions (its regions, its command passthrough) with it.
 */
#include <linux/module.h>
#include <linux/device.h>
#include "nd-core.h"

struct nd_held_ctx {
	struct nvdimm *nvdimm;
	struct nvdimm_drvdata *ndd;
};

static int nd_held_fn(struct device *dev, void *data)
{
	struct nd_held_ctx *ctx = data;
	struct nd_region *nd_region;
	int i;

	if (!is_nd_region(dev))
		return 0;
	nd_region = to_nd_region(dev);
	for (i = 0; i < nd_region->ndr_mappings; i++)
		if (nd_region->mapping[i].nvdimm == ctx->nvdimm &&
		    nd_region->mapping[i].ndd) {
			ctx->ndd = nd_region->mapping[i].ndd;
			return 1;
		}
	return 0;
}

/*
 * The label state an enabled region still holds for @nvdimm (it stayed
 * enabled across an unbind of the DIMM), or NULL.  reconfig_lock held.
 */
static struct nvdimm_drvdata *nvdimm_held_ndd(struct nvdimm *nvdimm)
{
	struct nd_held_ctx ctx = { .nvdimm = nvdimm };

	device_for_each_child(nvdimm->dev.parent, &ctx, nd_held_fn);
	return ctx.ndd;
}

static int nvdimm_probe(struct device *dev)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	struct nvdimm_drvdata *ndd, *held;
	int rc;

	/*
	 * A locked DIMM: its key from the keyring, before the labels.  During
	 * an overwrite the DIMM binds (as in 6.1, where 76.1's sanitize-dimm
	 * --overwrite re-enables it at once) without reading its label area,
	 * which the overwrite clears: label-less, as it will be afterwards.
	 */
	rc = nvdimm_security_unlock(nvdimm);
	if (rc)
		dev_dbg(dev, "failed to unlock dimm: %d\n", rc);

	ndd = nvdimm_labels_load(nvdimm);
	if (IS_ERR(ndd))
		return PTR_ERR(ndd);

	mutex_lock(lock);
	/*
	 * A region that stayed enabled while the DIMM was unbound kept the
	 * DIMM's label state and may have written labels since: that state
	 * is the truth (the kernel is the only writer while a region is
	 * enabled: SET_CONFIG_DATA is refused), the area just read is dropped.
	 */
	held = nvdimm_held_ndd(nvdimm);
	if (held) {
		dev_dbg(dev, "label state kept by an enabled region reused\n");
		nvdimm_drvdata_put(ndd);
		kref_get(&held->kref);
		ndd = held;
	}
	dev_set_drvdata(dev, ndd);
	/* 6.1: a valid index makes the DIMM's regions label-backed */
	if (ndd->lsa.cur >= 0)
		set_bit(NDD_LABELING, &nvdimm->state);
	else
		clear_bit(NDD_LABELING, &nvdimm->state);
	mutex_unlock(lock);
	return 0;
}

/*
 * Unbind: once no label transaction runs (they hold reconfig_lock), the
 * DIMM's label state is unpublished; enabled regions keep their own
 * references, so a set written across several DIMMs is never cut.
 */
static void nvdimm_remove(struct device *dev)
{
	struct mutex *lock = &walk_to_nvdimm_bus(dev)->reconfig_lock;
	struct nvdimm_drvdata *ndd;

	mutex_lock(lock);
	ndd = dev_get_drvdata(dev);
	dev_set_drvdata(dev, NULL);
	mutex_unlock(lock);
	nvdimm_drvdata_put(ndd);
}

static struct nd_device_driver nvdimm_driver = {
	.probe = nvdimm_probe,
	.remove = nvdimm_remove,
	.drv = {
		.name = "nvdimm",
	},
	.type = ND_DRIVER_DIMM,
};

int __init nvdimm_driver_init(void)
{
	return nd_driver_register(&nvdimm_driver);
}

void nvdimm_driver_exit(void)
{
	nd_driver_unregister(&nvdimm_driver);
}

MODULE_ALIAS_ND_DEVICE(ND_DEVICE_DIMM);
