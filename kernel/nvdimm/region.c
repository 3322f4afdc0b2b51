// SPDX-License-Identifier: GPL-2.0
/*
 * The "nd_region" driver: an enabled region marks its DIMMs active (their
 * label area is then off limits to userspace writes) and publishes its
 * namespaces; disabling it removes them again.
 */
#include <linux/module.h>
#include <linux/device.h>
#include "nd-core.h"

/*
 * Mark the DIMMs active and take hold of their label state, under the
 * lock that label writes from userspace (SET_CONFIG_DATA) check "active"
 * under and the kernel's own label transactions run under.  A DIMM that
 * did not bind because its label data is locked fails the region, as
 * 6.1 does (-ENXIO), before anything is taken.
 */
static int nd_region_activate(struct nd_region *nd_region)
{
	struct mutex *lock = &walk_to_nvdimm_bus(&nd_region->dev)->reconfig_lock;
	int i;

	mutex_lock(lock);
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm *nvdimm = nd_region->mapping[i].nvdimm;

		if (!dev_get_drvdata(&nvdimm->dev) &&
		    test_bit(NDD_LOCKED, &nvdimm->state)) {
			mutex_unlock(lock);
			dev_err(&nd_region->dev, "%s: is locked, failing probe\n",
				dev_name(&nvdimm->dev));
			return -ENXIO;
		}
	}
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nd_mapping *m = &nd_region->mapping[i];

		atomic_inc(&m->nvdimm->busy);
		m->ndd = dev_get_drvdata(&m->nvdimm->dev);
		if (m->ndd)
			kref_get(&m->ndd->kref);
	}
	mutex_unlock(lock);
	return 0;
}

static void nd_region_deactivate(struct nd_region *nd_region)
{
	struct mutex *lock = &walk_to_nvdimm_bus(&nd_region->dev)->reconfig_lock;
	int i;

	mutex_lock(lock);
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nd_mapping *m = &nd_region->mapping[i];

		nvdimm_drvdata_put(m->ndd);
		m->ndd = NULL;
		atomic_dec(&m->nvdimm->busy);
	}
	mutex_unlock(lock);
}

static int nd_region_probe(struct device *dev)
{
	struct nd_region *nd_region = to_nd_region(dev);
	struct device *ns;
	int i, rc = 0;

	/* without its flush hints a write could not be made durable */
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm *nvdimm = nd_region->mapping[i].nvdimm;

		if (test_bit(NDD_FLUSH_UNMAPPED, &nvdimm->desc.flags)) {
			dev_err(dev, "%s: flush hints not mapped, writes could not be made durable\n",
				dev_name(&nvdimm->dev));
			return -ENXIO;
		}
		if (nvdimm_security_overwriting(nvdimm)) {
			dev_dbg(dev, "%s: overwrite in progress, region not enabled\n",
				dev_name(&nvdimm->dev));
			return -EBUSY;
		}
		if (nvdimm_security_locked(nvdimm)) {
			dev_dbg(dev, "%s: locked, region not enabled\n",
				dev_name(&nvdimm->dev));
			return -EACCES;
		}
	}

	/* the windows first: a BLK namespace may bind as soon as it is added */
	if (nd_region->blk_ops && nd_region->blk_ops->enable) {
		rc = nd_region->blk_ops->enable(nd_region, dev);
		if (rc) {
			dev_err(dev, "block windows unusable: %d\n", rc);
			return rc;
		}
	}
	nd_region->blk_enabled = !!nd_region->blk_ops;
	/* what the bus learnt while the region was disabled */
	nd_region_badblocks_refresh(nd_region);
	rc = nd_region_activate(nd_region);
	if (rc) {
		nd_region->blk_enabled = false;
		return rc;
	}
	nd_region_claim_activate(nd_region);

	if (nd_region_nstype(nd_region) == ND_DEVICE_NAMESPACE_IO) {
		ns = nd_namespace_io_create(nd_region);
		if (IS_ERR(ns)) {
			rc = PTR_ERR(ns);
		} else {
			/* an IO region's seed is its only namespace */
			nd_region->ns_seed = ns;
		}
	} else {
		rc = nd_region_scan_namespaces(nd_region);
	}
	if (!rc)
		rc = nd_region_claim_seeds_create(nd_region);
	if (rc) {
		/* claiming devices (autodetect may have made some) first */
		nd_region_claim_devs_unregister(nd_region);
		nd_region_namespaces_unregister(nd_region);
		nd_region_deactivate(nd_region);
		nd_region->blk_enabled = false;
	}
	return rc;
}

static void nd_region_remove(struct device *dev)
{
	struct nd_region *nd_region = to_nd_region(dev);

	/* btt, pfn and dax devices first: each holds its namespace */
	nd_region_claim_devs_unregister(nd_region);
	nd_region_namespaces_unregister(nd_region);
	nd_region_deactivate(nd_region);
	/* the provider's mappings go with the region's devres after this */
	nd_region->blk_enabled = false;
}

static struct nd_device_driver nd_region_driver = {
	.probe = nd_region_probe,
	.remove = nd_region_remove,
	.drv = {
		.name = "nd_region",
	},
	.type = ND_DRIVER_REGION_PMEM | ND_DRIVER_REGION_BLK,
};

int __init nd_region_driver_init(void)
{
	return nd_driver_register(&nd_region_driver);
}

void nd_region_driver_exit(void)
{
	nd_driver_unregister(&nd_region_driver);
}

MODULE_ALIAS_ND_DEVICE(ND_DEVICE_REGION_PMEM);
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_REGION_BLK);
