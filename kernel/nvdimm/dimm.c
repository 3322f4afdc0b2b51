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

static int nvdimm_probe(struct device *dev)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	struct nvdimm_drvdata *ndd;

	ndd = devm_kzalloc(dev, sizeof(*ndd), GFP_KERNEL);
	if (!ndd)
		return -ENOMEM;
	ndd->dev = dev;
	nvdimm_labels_load(nvdimm, ndd);
	dev_set_drvdata(dev, ndd);

	/* 6.1: a valid index makes the DIMM's regions label-backed */
	if (ndd->lsa.cur >= 0)
		set_bit(NDD_LABELING, &nvdimm->state);
	else
		clear_bit(NDD_LABELING, &nvdimm->state);
	return 0;
}

static struct nd_device_driver nvdimm_driver = {
	.probe = nvdimm_probe,
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
