// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test_powercut.ko: simulated power cuts for the test build's BTT.
 *
 * nd_btt.ko of the test build is linked with --wrap=nvdimm_write_bytes
 * and --wrap=nvdimm_flush (test/Kbuild.drivers), so every store it makes
 * to the media, and every fence it issues, comes here.  Two models:
 *
 * Program order (cut_after = N): the first N stores reach the media and
 * every later one is dropped while the caller is told it succeeded.
 *
 * Reordering (cut_epoch = E, cut_mask = M), as x86 persists
 * non-temporal stores (shared docs, persistence-order.md): a fence
 * (nvdimm_flush) closes an epoch; at a cut, everything before the
 * current epoch persisted, every store of the current epoch may or may
 * not have, each aligned 8-byte piece on its own, and nothing after it
 * did.  The stores of epoch E (counted from arming) are split into units
 * (one per aligned 8-byte piece; a store of more than four pieces into
 * four contiguous quarters: the BTT's checks see a wide store only as
 * whole or torn), numbered in store order; unit k persists when bit k of
 * M is set.  Every store still reaches the media at once, so the driver
 * reads back what it wrote, as a CPU does; what did not persist is kept
 * in an undo log, and writing 1 to "crash" puts the old bytes back (in
 * reverse order) and disarms: the media then holds what the power cut
 * left.  A dry run (cut_epoch = a large E) reports the epochs and units
 * in "trace" ("epoch:first_unit:units:bytes" per store).
 *
 * A test arms a cut, writes, crashes (reorder model), detaches the btt,
 * disarms and attaches again from the media (tests/guest/btt-powercut.sh,
 * tests/guest/tools/nvt-powercut.c).
 *
 * Parameters (/sys/module/nfit_test_powercut/parameters/):
 *   cut_after  -1 (default): every store goes through; N >= 0: arm
 *   cut_epoch  -1 (default): off; E >= 0: arm the reorder model
 *   cut_mask   units of epoch E that persist (bit k: unit k), before arming
 *   crash      write 1: undo what did not persist, disarm
 *   stores     stores seen since the last arming
 *   dropped    stores dropped (or undone) since then
 *   epochs     fences seen since arming (reorder model)
 *   trace      the stores since arming (reorder model)
 *   overflow   stores the undo log or the trace could not hold (a test
 *              must see 0)
 *   fail_store N >= 1: the Nth store from now fails with -EIO, once (a
 *              block-window error in the middle of a BTT write); 0: off
 *   fail_lands 1: that store's bytes reach the media anyway (a failure
 *              status after the write), 0: they do not
 *
 * A separate module so that it depends on libnvdimm only: the iomap
 * wrappers are a dependency of libnvdimm itself.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/align.h>
#include <linux/minmax.h>
#include "../nvdimm/nd.h"
#include "nfit_test.h"

/* stores the trace records: a test's armed write is a handful */
#define PC_TRACE_MAX	64
/* bytes the undo log may hold: a few data blocks and their metadata */
#define PC_UNDO_MAX	(256 * 1024)
/* units a wide store is split into */
#define PC_WIDE_UNITS	4

struct pc_undo {
	struct list_head list;
	struct device *ndns;
	u64 off;
	u32 len;
	u8 old[];
};

struct pc_trace {
	u32 epoch;
	u32 unit;
	u32 units;
	u32 bytes;
};

/* powercut_lock protects everything below */
static DEFINE_SPINLOCK(powercut_lock);
static long cut_after = -1;
static long cut_epoch = -1;
static unsigned long cut_mask;
static unsigned long stores;
static unsigned long dropped;
static unsigned long epochs;
static unsigned long overflow;
static unsigned long fail_store;
static bool fail_lands;
static u32 epoch_units;		/* units of the current epoch so far */
static LIST_HEAD(undo_log);	/* newest first */
static size_t undo_bytes;
static struct pc_trace trace[PC_TRACE_MAX];
static unsigned int ntrace;

static void pc_undo_free(void)
{
	struct pc_undo *u, *n;

	list_for_each_entry_safe(u, n, &undo_log, list) {
		list_del(&u->list);
		kfree(u);
	}
	undo_bytes = 0;
}

/* a new arming: counters and logs start over (powercut_lock held) */
static void pc_reset(void)
{
	stores = 0;
	dropped = 0;
	epochs = 0;
	overflow = 0;
	epoch_units = 0;
	ntrace = 0;
	pc_undo_free();
}

/* arm one model (or neither, with -1): counters and logs start over */
static int pc_arm(const char *val, bool reorder)
{
	long n;
	int rc;

	rc = kstrtol(val, 0, &n);
	if (rc || n < -1)
		return -EINVAL;
	spin_lock(&powercut_lock);
	cut_after = reorder ? -1 : n;
	cut_epoch = reorder ? n : -1;
	pc_reset();
	spin_unlock(&powercut_lock);
	return 0;
}

static int cut_after_set(const char *val, const struct kernel_param *kp)
{
	return pc_arm(val, false);
}

static const struct kernel_param_ops cut_after_ops = {
	.set = cut_after_set,
	.get = param_get_long,
};
module_param_cb(cut_after, &cut_after_ops, &cut_after, 0644);
MODULE_PARM_DESC(cut_after, "stores let through before the power cut (-1: none)");

static int cut_epoch_set(const char *val, const struct kernel_param *kp)
{
	return pc_arm(val, true);
}

static const struct kernel_param_ops cut_epoch_ops = {
	.set = cut_epoch_set,
	.get = param_get_long,
};
module_param_cb(cut_epoch, &cut_epoch_ops, &cut_epoch, 0644);
MODULE_PARM_DESC(cut_epoch, "fence epoch of the reordering power cut (-1: none)");

module_param(cut_mask, ulong, 0644);
MODULE_PARM_DESC(cut_mask, "units of the cut epoch that persist (bit k: unit k)");
module_param(stores, ulong, 0444);
MODULE_PARM_DESC(stores, "media stores seen since the last arming");
module_param(dropped, ulong, 0444);
MODULE_PARM_DESC(dropped, "media stores dropped or undone since then");
module_param(epochs, ulong, 0444);
MODULE_PARM_DESC(epochs, "fences seen since cut_epoch was armed");
module_param(overflow, ulong, 0444);
MODULE_PARM_DESC(overflow, "stores the undo log or the trace could not hold");

module_param(fail_store, ulong, 0644);
MODULE_PARM_DESC(fail_store, "the Nth store from now fails with -EIO (0: off)");
module_param(fail_lands, bool, 0644);
MODULE_PARM_DESC(fail_lands, "the failing store's bytes reach the media");

static int trace_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int n = 0;

	spin_lock(&powercut_lock);
	for (i = 0; i < ntrace; i++)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s%u:%u:%u:%u",
			       i ? " " : "", trace[i].epoch, trace[i].unit,
			       trace[i].units, trace[i].bytes);
	spin_unlock(&powercut_lock);
	n += scnprintf(buf + n, PAGE_SIZE - n, "\n");
	return n;
}

static const struct kernel_param_ops trace_ops = {
	.get = trace_get,
};
module_param_cb(trace, &trace_ops, NULL, 0444);
MODULE_PARM_DESC(trace, "stores since arming: epoch:first_unit:units:bytes");

/* put back what did not persist, newest first; disarm */
static int crash_set(const char *val, const struct kernel_param *kp)
{
	struct pc_undo *u, *n;
	LIST_HEAD(log);
	int rc = 0, err;
	bool yes;

	if (kstrtobool(val, &yes) || !yes)
		return -EINVAL;
	spin_lock(&powercut_lock);
	if (cut_epoch < 0) {
		spin_unlock(&powercut_lock);
		return -EINVAL;
	}
	list_splice_init(&undo_log, &log);
	undo_bytes = 0;
	cut_epoch = -1;
	spin_unlock(&powercut_lock);

	/* the btt is still attached, idle: its namespace is mapped */
	list_for_each_entry_safe(u, n, &log, list) {
		err = nvdimm_write_bytes(u->ndns, u->off, u->old, u->len);
		if (err && !rc)
			rc = err;
		list_del(&u->list);
		kfree(u);
	}
	return rc;
}

static const struct kernel_param_ops crash_ops = {
	.set = crash_set,
};
module_param_cb(crash, &crash_ops, NULL, 0200);
MODULE_PARM_DESC(crash, "write 1: undo the stores that did not persist, disarm");

/* keep the media's bytes of [@off, +@len) to put back at the crash */
static void pc_undo_add(struct device *ndns, u64 off, u32 len)
{
	struct pc_undo *u;

	if (undo_bytes + len > PC_UNDO_MAX) {
		overflow++;
		return;
	}
	u = kmalloc(struct_size(u, old, len), GFP_ATOMIC);
	if (!u) {
		overflow++;
		return;
	}
	if (nvdimm_read_bytes(ndns, off, u->old, len)) {
		kfree(u);
		overflow++;
		return;
	}
	u->ndns = ndns;
	u->off = off;
	u->len = len;
	list_add(&u->list, &undo_log);
	undo_bytes += len;
}

/*
 * Reorder model, powercut_lock held: decide which units of the store
 * [@off, +@size) persist and log the others.
 */
static void pc_reorder_store(struct device *ndns, u64 off, size_t size)
{
	u64 first = ALIGN_DOWN(off, 8), end = off + size;
	u32 pieces = (ALIGN(end, 8) - first) / 8;
	u32 units = min_t(u32, pieces, PC_WIDE_UNITS), k;
	bool undone = false;

	if (ntrace < PC_TRACE_MAX)
		trace[ntrace++] = (struct pc_trace){ epochs, epoch_units,
						     units, size };
	else
		overflow++;
	for (k = 0; k < units; k++) {
		/* unit k: pieces [k * pieces / units, (k + 1) * pieces / units) */
		u64 lo = first + 8ULL * (k * pieces / units);
		u64 hi = first + 8ULL * ((k + 1) * pieces / units);
		u32 unit = epoch_units + k;
		bool persists;

		if (epochs < (unsigned long)cut_epoch)
			persists = true;
		else if (epochs > (unsigned long)cut_epoch)
			persists = false;
		else
			persists = unit < BITS_PER_LONG &&
				   (cut_mask & BIT(unit));
		if (persists)
			continue;
		lo = max(lo, off);
		hi = min(hi, end);
		pc_undo_add(ndns, lo, hi - lo);
		undone = true;
	}
	epoch_units += units;
	if (undone)
		dropped++;
}

/**
 * __wrap_nvdimm_write_bytes - nvdimm_write_bytes() as nd_btt.ko sees it
 * @ndns_dev: the namespace
 * @offset: namespace offset
 * @buf: source
 * @size: bytes
 *
 * Returns what nvdimm_write_bytes() returns, 0 for a dropped store, or
 * -EIO for the store fail_store picked.
 */
int __wrap_nvdimm_write_bytes(struct device *ndns_dev, u64 offset,
			      const void *buf, size_t size)
{
	bool drop = false, fail = false;
	int rc;

	spin_lock(&powercut_lock);
	stores++;
	if (fail_store && !--fail_store) {
		fail = true;
		drop = !fail_lands;
	}
	if (cut_epoch >= 0 && size) {
		pc_reorder_store(ndns_dev, offset, size);
	} else if (cut_after >= 0 && stores > cut_after) {
		drop = true;
		dropped++;
	}
	spin_unlock(&powercut_lock);
	rc = drop ? 0 : nvdimm_write_bytes(ndns_dev, offset, buf, size);
	return fail ? -EIO : rc;
}
EXPORT_SYMBOL_GPL(__wrap_nvdimm_write_bytes);

/**
 * __wrap_nvdimm_flush - nvdimm_flush() as nd_btt.ko sees it
 * @nd_region: the region
 *
 * A fence: closes the reorder model's current epoch.
 */
int __wrap_nvdimm_flush(struct nd_region *nd_region)
{
	spin_lock(&powercut_lock);
	if (cut_epoch >= 0) {
		epochs++;
		epoch_units = 0;
	}
	spin_unlock(&powercut_lock);
	return nvdimm_flush(nd_region);
}
EXPORT_SYMBOL_GPL(__wrap_nvdimm_flush);

static void __exit powercut_exit(void)
{
	spin_lock(&powercut_lock);
	pc_undo_free();
	spin_unlock(&powercut_lock);
}
module_exit(powercut_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("nfit_test: simulated power cuts for BTT media stores");
MODULE_AUTHOR("libnvdimm developers");
