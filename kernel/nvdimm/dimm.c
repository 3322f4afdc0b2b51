// SPDX-License-Identifier: GPL-2.0
/*
 * The "nvdimm" driver: binds nmemN devices.  At bind it learns the size of
 * the DIMM's label storage area; a DIMM whose firmware cannot report it
 * still binds (label-less), as the firmware may simply not store labels.
 */
#include <linux/module.h>
#include <linux/device.h>
#include "nd-core.h"

static int nvdimm_probe(struct device *dev)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	int rc;

	rc = nvdimm_config_limits(nvdimm);
	if (rc == -ENOTTY)
		dev_dbg(dev, "no label commands: label-less DIMM\n");
	else if (rc)
		dev_warn(dev, "label area unreadable (%d): label-less DIMM\n",
			 rc);
	else
		dev_dbg(dev, "label area %u bytes, transfers of %u\n",
			nvdimm->cfg_size, nvdimm->cfg_xfer);
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
