// SPDX-License-Identifier: GPL-2.0
/*
 * Machine checks in NVDIMM ranges: the kernel's MCE decode chain reports
 * every logged machine check; an uncorrected memory error whose address
 * lies in a persistent-memory SPA range of a registered NFIT bus makes
 * that cache line a bad range of the bus, so that the regions' and disks'
 * badblocks name it before anyone reads it again.  Anything else (other
 * errors, corrected ones, addresses outside every NVDIMM range) changes
 * nothing.  With the bus's nfit/hw_error_scrub set, a scrub follows, to
 * find the neighbours of the line that failed (6.1's behaviour).
 */
#include <linux/cache.h>
#include <linux/device.h>
#include <linux/notifier.h>
#include <asm/mce.h>
#include "nfit.h"

static int nfit_mce_notify(struct notifier_block *nb, unsigned long val,
			   void *data)
{
	struct mce *mce = data;
	struct nvdimm_bus *nvdimm_bus;
	u64 addr;
	int rc;

	if (!mce || !mce_is_memory_error(mce) || mce_is_correctable(mce) ||
	    !(mce->status & MCI_STATUS_ADDRV))
		return NOTIFY_DONE;
	addr = ALIGN_DOWN(mce->addr, L1_CACHE_BYTES);
	nvdimm_bus = nfit_pm_bus_get(addr);
	if (!nvdimm_bus)
		return NOTIFY_DONE;
	if (!nvdimm_bus_add_badrange(nvdimm_bus, addr, L1_CACHE_BYTES)) {
		dev_info(to_nvdimm_bus_dev(nvdimm_bus), "machine check: memory error at %#llx, a bad range now\n",
			 addr);
		nvdimm_bus_badrange_changed(nvdimm_bus);
	}
	rc = nfit_pm_error_scrub(addr);
	if (rc != -EPERM)
		dev_dbg(to_nvdimm_bus_dev(nvdimm_bus), "machine check at %#llx: hw_error_scrub scrub: %d\n",
			addr, rc);
	put_device(to_nvdimm_bus_dev(nvdimm_bus));
	mce->kflags |= MCE_HANDLED_NFIT;
	return NOTIFY_OK;
}

static struct notifier_block nfit_mce_nb = {
	.notifier_call = nfit_mce_notify,
	.priority = MCE_PRIO_NFIT,
};

void nfit_mce_register(void)
{
	mce_register_decode_chain(&nfit_mce_nb);
}

void nfit_mce_unregister(void)
{
	mce_unregister_decode_chain(&nfit_mce_nb);
}
