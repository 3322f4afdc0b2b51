// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test_powercut.ko: a simulated power cut for the test build's BTT.
 *
 * nd_btt.ko of the test build is linked with --wrap=nvdimm_write_bytes
 * (test/Kbuild.drivers), so every store it makes to the media comes
 * here.  With cut_after = N, the first N stores reach the media and
 * every later one is dropped while the caller is told it succeeded: what
 * the media holds is what a power failure right after store N leaves.
 * A test arms the cut, writes, detaches the btt, disarms the cut and
 * attaches again from the media (tests/guest/btt-powercut.sh).
 *
 * Parameters (/sys/module/nfit_test_powercut/parameters/):
 *   cut_after  -1 (default): every store goes through; N >= 0: arm
 *   stores     stores seen since the last write to cut_after
 *   dropped    stores dropped since then
 *
 * A separate module so that it depends on libnvdimm only: the iomap
 * wrappers are a dependency of libnvdimm itself.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/device.h>
#include "../nvdimm/nd.h"
#include "nfit_test.h"

static DEFINE_SPINLOCK(powercut_lock);
static long cut_after = -1;
static unsigned long stores;
static unsigned long dropped;

static int cut_after_set(const char *val, const struct kernel_param *kp)
{
	long n;
	int rc;

	rc = kstrtol(val, 0, &n);
	if (rc || n < -1)
		return -EINVAL;
	spin_lock(&powercut_lock);
	cut_after = n;
	stores = 0;
	dropped = 0;
	spin_unlock(&powercut_lock);
	return 0;
}

static const struct kernel_param_ops cut_after_ops = {
	.set = cut_after_set,
	.get = param_get_long,
};
module_param_cb(cut_after, &cut_after_ops, &cut_after, 0644);
MODULE_PARM_DESC(cut_after, "stores let through before the power cut (-1: none)");
module_param(stores, ulong, 0444);
MODULE_PARM_DESC(stores, "media stores seen since cut_after was written");
module_param(dropped, ulong, 0444);
MODULE_PARM_DESC(dropped, "media stores dropped since cut_after was written");

/**
 * __wrap_nvdimm_write_bytes - nvdimm_write_bytes() as nd_btt.ko sees it
 * @ndns_dev: the namespace
 * @offset: namespace offset
 * @buf: source
 * @size: bytes
 *
 * Returns what nvdimm_write_bytes() returns, or 0 for a dropped store.
 */
int __wrap_nvdimm_write_bytes(struct device *ndns_dev, u64 offset,
			      const void *buf, size_t size)
{
	bool drop;

	spin_lock(&powercut_lock);
	stores++;
	drop = cut_after >= 0 && stores > cut_after;
	if (drop)
		dropped++;
	spin_unlock(&powercut_lock);
	if (drop)
		return 0;
	return nvdimm_write_bytes(ndns_dev, offset, buf, size);
}
EXPORT_SYMBOL_GPL(__wrap_nvdimm_write_bytes);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("nfit_test: simulated power cut for BTT media stores");
MODULE_AUTHOR("libnvdimm developers");
