// SPDX-License-Identifier: GPL-2.0
/*
 * nfit.ko: Address Range Scrub (docs/ars.md).
 *
 * The bus commands ARS_CAP, ARS_START, ARS_STATUS and CLEAR_ERROR are the
 * root _DSM's functions 1-4 (core.c sends them; nfit_test answers them
 * itself).  A scrub walks every persistent-memory SPA range: ARS Cap, ARS
 * Start, ARS Status polled until the firmware is done (bounded by
 * ars_timeout), a new ARS Start at the restart range while the firmware
 * stopped early; each record becomes a bad range of the bus
 * (nvdimm_bus_add_badrange()), and at the end the regions and namespaces
 * are told (nvdimm_bus_badrange_changed()).  Every output is read as
 * hostile input (ars-format.c).
 *
 * A scrub runs in a work item: one at bus probe, one per write of "1" to
 * ndbusN/nfit/scrub, one per ACPI notification 0x81 (new uncorrectable
 * errors).  The work item is cancelled before the bus goes.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/sysfs.h>
#include <linux/kernfs.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <asm/unaligned.h>
#include "nfit.h"
#include "ars-format.h"

static unsigned int ars_timeout = 120;
module_param(ars_timeout, uint, 0644);
MODULE_PARM_DESC(ars_timeout, "Longest wait, in seconds, for one SPA range's Address Range Scrub (default 120)");

/* most bytes of ARS Status output accepted from firmware */
#define NFIT_ARS_MAX_OUT	SZ_1M
/* most ARS Start restarts per range: each must make progress anyway */
#define NFIT_ARS_MAX_RESTARTS	1024
/* polling interval of ARS Status: from 10 ms, doubling, at most 1 s */
#define NFIT_ARS_POLL_MIN	msecs_to_jiffies(10)
#define NFIT_ARS_POLL_MAX	HZ

static struct device *ars_dev(struct acpi_nfit_desc *acpi_desc)
{
	return acpi_desc->dev;
}

/**
 * nfit_bus_cmd_rc - the errno a bus command's firmware status means
 * @cmd: ND_CMD_ARS_CAP .. ND_CMD_CLEAR_ERROR
 * @buf: the envelope after the command
 * @len: its length
 *
 * ARS Cap: -ENOTTY when the range has no persistent-memory scrub,
 * -EIO on any other failure; ARS Start: -EBUSY while a scrub runs, -EIO
 * on failure; ARS Status: -EAGAIN while in progress, -EIO on failure;
 * Clear Error: -EIO on failure or when nothing was cleared.  0 otherwise
 * (and for a short envelope, which the caller checks itself).
 */
int nfit_bus_cmd_rc(unsigned int cmd, const void *buf, unsigned int len)
{
	u32 status;

	switch (cmd) {
	case ND_CMD_ARS_CAP:
		if (len < offsetofend(struct nd_cmd_ars_cap, status))
			return 0;
		status = get_unaligned((const u32 *)(buf + 16));
		if ((status & 0xffff) == NFIT_DSM_ST_UNSUPPORTED)
			return -ENOTTY;
		if (status & 0xffff)
			return -EIO;
		if (!((status >> 16) & ND_ARS_PERSISTENT))
			return -ENOTTY;
		return 0;
	case ND_CMD_ARS_START:
		if (len < offsetofend(struct nd_cmd_ars_start, status))
			return 0;
		status = get_unaligned((const u32 *)(buf + 24)) & 0xffff;
		if (status == NFIT_ARS_START_BUSY)
			return -EBUSY;
		return status ? -EIO : 0;
	case ND_CMD_ARS_STATUS:
		if (len < 4)
			return 0;
		status = get_unaligned((const u32 *)buf);
		if (status & 0xffff)
			return -EIO;
		return (status >> 16) == NFIT_ARS_EXT_BUSY ? -EAGAIN : 0;
	case ND_CMD_CLEAR_ERROR:
		if (len < sizeof(struct nd_cmd_clear_error))
			return 0;
		status = get_unaligned((const u32 *)(buf + 16));
		if (status & 0xffff)
			return -EIO;
		if (!get_unaligned((const u64 *)(buf + 24)))
			return -EIO;
		return 0;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_GPL(nfit_bus_cmd_rc);

static bool nfit_ars_supported(unsigned long cmd_mask)
{
	unsigned long need = BIT(ND_CMD_ARS_CAP) | BIT(ND_CMD_ARS_START) |
		BIT(ND_CMD_ARS_STATUS);

	return (cmd_mask & need) == need;
}

/*
 * One bus command through the core (serialised with userspace's ioctls,
 * -ENXIO once the bus is going); < 0, or residual bytes.
 */
static int nfit_ars_cmd(struct acpi_nfit_desc *acpi_desc, unsigned int cmd,
			void *buf, unsigned int len)
{
	int cmd_rc = 0, rc;

	rc = nvdimm_bus_cmd(acpi_desc->nvdimm_bus, cmd, buf, len, &cmd_rc);
	if (rc < 0)
		dev_dbg(ars_dev(acpi_desc), "%s failed: %d\n",
			nvdimm_bus_cmd_name(cmd), rc);
	else if (rc > len)
		rc = -EIO;
	return rc;
}

/* false when cancelled: sleep @t or until the bus goes */
static bool nfit_ars_sleep(struct nfit_ars *ars, unsigned long t)
{
	return !wait_event_timeout(ars->wait, READ_ONCE(ars->cancel), t);
}

struct nfit_ars_ctx {
	struct acpi_nfit_desc *acpi_desc;
	unsigned int added;
};

static int nfit_ars_add(void *ctx, u32 handle, u64 addr, u64 len)
{
	struct nfit_ars_ctx *c = ctx;
	int rc;

	rc = nvdimm_bus_add_badrange(c->acpi_desc->nvdimm_bus, addr, len);
	if (rc)
		return rc;
	dev_dbg(ars_dev(c->acpi_desc), "ARS: bad range [%#llx, +%#llx) (DIMM %#x)\n",
		addr, len, handle);
	c->added++;
	return 0;
}

/*
 * ARS Cap of the range: 0 and the output size to use, -ENOTTY when the
 * range cannot be scrubbed, another errno on failure.
 */
static int nfit_ars_cap(struct acpi_nfit_desc *acpi_desc, u64 addr, u64 len,
			u32 *max_out)
{
	struct device *dev = ars_dev(acpi_desc);
	struct nd_cmd_ars_cap cap = { .address = addr, .length = len };
	u32 filled;
	int rc;

	rc = nfit_ars_cmd(acpi_desc, ND_CMD_ARS_CAP, &cap, sizeof(cap));
	if (rc < 0)
		return rc;
	/* output: status, max_ars_out, clear_err_unit, flags (16 bytes) */
	filled = rc < 16 ? 16 - rc : 0;
	if (filled < 8) {
		dev_warn(dev, "ARS Cap of [%#llx, +%#llx): %u bytes of output\n",
			 addr, len, filled);
		return -EIO;
	}
	rc = nfit_bus_cmd_rc(ND_CMD_ARS_CAP, &cap, sizeof(cap));
	if (rc) {
		dev_dbg(dev, "ARS Cap of [%#llx, +%#llx): status %#x: %d\n",
			addr, len, cap.status, rc);
		return rc;
	}
	if (cap.max_ars_out < NFIT_ARS_STATUS_HDR) {
		dev_warn(dev, "ARS Cap: max_ars_out %u below the %u-byte status header\n",
			 cap.max_ars_out, NFIT_ARS_STATUS_HDR);
		return -EIO;
	}
	*max_out = min_t(u32, cap.max_ars_out, NFIT_ARS_MAX_OUT);
	if (*max_out != cap.max_ars_out)
		dev_warn(dev, "ARS Cap: max_ars_out %u, using %u\n",
			 cap.max_ars_out, *max_out);
	if (filled >= 12)
		WRITE_ONCE(acpi_desc->ars.clear_err_unit, cap.clear_err_unit);
	return 0;
}

/* ARS Start, waiting while another scrub runs: 0 or an errno */
static int nfit_ars_start(struct acpi_nfit_desc *acpi_desc, u64 addr, u64 len,
			  unsigned long deadline)
{
	struct nfit_ars *ars = &acpi_desc->ars;
	unsigned long t = NFIT_ARS_POLL_MIN;
	struct nd_cmd_ars_start st;
	int rc;

	for (;;) {
		memset(&st, 0, sizeof(st));
		st.address = addr;
		st.length = len;
		st.type = ND_ARS_PERSISTENT;
		rc = nfit_ars_cmd(acpi_desc, ND_CMD_ARS_START, &st, sizeof(st));
		if (rc < 0)
			return rc;
		if (rc > 4) {
			dev_warn(ars_dev(acpi_desc), "ARS Start: no status returned\n");
			return -EIO;
		}
		rc = nfit_bus_cmd_rc(ND_CMD_ARS_START, &st, sizeof(st));
		if (rc != -EBUSY)
			break;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		if (!nfit_ars_sleep(ars, t))
			return -ECANCELED;
		t = min_t(unsigned long, 2 * t, NFIT_ARS_POLL_MAX);
	}
	if (rc)
		dev_warn(ars_dev(acpi_desc), "ARS Start of [%#llx, +%#llx): status %#x\n",
			 addr, len, st.status);
	return rc;
}

/* Scrub [@addr, +@len): 0, or an errno (records seen so far are kept). */
static int nfit_ars_range(struct acpi_nfit_desc *acpi_desc, u64 addr, u64 len,
			  struct nfit_ars_ctx *ctx)
{
	struct device *dev = ars_dev(acpi_desc);
	struct nfit_ars *ars = &acpi_desc->ars;
	unsigned long deadline, t;
	struct nfit_ars_result res;
	unsigned int restarts = 0;
	u32 max_out;
	void *buf;
	int rc;

	rc = nfit_ars_cap(acpi_desc, addr, len, &max_out);
	if (rc)
		return rc;
	buf = kvzalloc(max_out, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	deadline = jiffies + READ_ONCE(ars_timeout) * HZ;
restart:
	rc = nfit_ars_start(acpi_desc, addr, len, deadline);
	if (rc)
		goto out;
	t = NFIT_ARS_POLL_MIN;
	for (;;) {
		memset(buf, 0, max_out);
		rc = nfit_ars_cmd(acpi_desc, ND_CMD_ARS_STATUS, buf, max_out);
		if (rc < 0)
			goto out;
		rc = nfit_ars_parse_status(buf, max_out - rc, addr, len, &res,
					   nfit_ars_add, ctx, nfit_log, dev);
		if (rc)
			goto out;
		if (res.status) {
			dev_warn(dev, "ARS Status of [%#llx, +%#llx): status %#x\n",
				 addr, len, res.status);
			rc = -EIO;
			goto out;
		}
		if (res.ext != NFIT_ARS_EXT_BUSY)
			break;
		if (time_after(jiffies, deadline)) {
			dev_warn(dev, "ARS of [%#llx, +%#llx): no answer in %u s, given up\n",
				 addr, len, READ_ONCE(ars_timeout));
			rc = -ETIMEDOUT;
			goto out;
		}
		if (!nfit_ars_sleep(ars, t)) {
			rc = -ECANCELED;
			goto out;
		}
		t = min_t(unsigned long, 2 * t, NFIT_ARS_POLL_MAX);
	}
	if (res.ext == NFIT_ARS_EXT_NONE) {
		dev_warn(dev, "ARS of [%#llx, +%#llx): firmware says none ran\n",
			 addr, len);
		rc = -EIO;
		goto out;
	}
	if (res.dropped)
		dev_warn(dev, "ARS of [%#llx, +%#llx): %u of %u records dropped\n",
			 addr, len, res.dropped, res.num_records);
	if (res.restart) {
		/* inside [addr, +len) and not all of it: progress */
		if (res.restart_address == addr && res.restart_length == len) {
			dev_warn(dev, "ARS of [%#llx, +%#llx): restart at the same range, given up\n",
				 addr, len);
			rc = -EPROTO;
			goto out;
		}
		if (++restarts > NFIT_ARS_MAX_RESTARTS) {
			dev_warn(dev, "ARS: %u restarts, given up\n", restarts);
			rc = -EPROTO;
			goto out;
		}
		dev_dbg(dev, "ARS: restart at [%#llx, +%#llx)\n",
			res.restart_address, res.restart_length);
		addr = res.restart_address;
		len = res.restart_length;
		goto restart;
	}
	rc = 0;
out:
	kvfree(buf);
	return rc;
}

static void nfit_ars_work(struct work_struct *work)
{
	struct nfit_ars *ars = container_of(work, struct nfit_ars, work);
	struct acpi_nfit_desc *acpi_desc =
		container_of(ars, struct acpi_nfit_desc, ars);
	const struct acpi_nfit_system_address *spa;
	struct nfit_ars_ctx ctx = { .acpi_desc = acpi_desc };
	unsigned int ranges = 0, failed = 0;
	int rc;

	mutex_lock(&ars->lock);
	if (ars->cancel) {
		mutex_unlock(&ars->lock);
		return;
	}
	ars->running = true;
	ars->again = false;
	mutex_unlock(&ars->lock);

	nfit_for_each_usable(&acpi_desc->table, spa, ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
		if (nfit_spa_kind(spa) != NFIT_SPA_PM)
			continue;
		if (READ_ONCE(ars->cancel))
			break;
		rc = nfit_ars_range(acpi_desc, spa->address, spa->length, &ctx);
		if (rc == -ENOTTY || rc == -ECANCELED)
			continue;
		ranges++;
		if (rc) {
			failed++;
			dev_dbg(ars_dev(acpi_desc), "ARS of SPA range %d: %d\n",
				spa->range_index, rc);
		}
	}
	if (ctx.added && !READ_ONCE(ars->cancel))
		nvdimm_bus_badrange_changed(acpi_desc->nvdimm_bus);
	dev_dbg(ars_dev(acpi_desc), "ARS: %u ranges scrubbed, %u failed, %u records\n",
		ranges, failed, ctx.added);

	mutex_lock(&ars->lock);
	ars->running = false;
	ars->count++;
	ars->requested = ars->again && !ars->cancel;
	if (ars->requested)
		queue_work(system_long_wq, &ars->work);
	mutex_unlock(&ars->lock);
	if (ars->kn)
		sysfs_notify_dirent(ars->kn);
}

/**
 * acpi_nfit_ars_rescan - start a scrub of every persistent-memory range
 * @acpi_desc: the bus
 *
 * Returns 0 when one was queued, -EBUSY while one is queued or running
 * (6.1's answer to a second request), -ENOTTY when the bus has no ARS,
 * -ENXIO once the bus is going away.
 */
int acpi_nfit_ars_rescan(struct acpi_nfit_desc *acpi_desc)
{
	struct nfit_ars *ars = &acpi_desc->ars;
	int rc = 0;

	if (!nfit_ars_supported(acpi_desc->nd_desc.cmd_mask))
		return -ENOTTY;
	mutex_lock(&ars->lock);
	if (!ars->ready || ars->cancel) {
		rc = -ENXIO;
	} else if (ars->requested) {
		rc = -EBUSY;
	} else {
		ars->requested = true;
		queue_work(system_long_wq, &ars->work);
	}
	mutex_unlock(&ars->lock);
	dev_dbg(ars_dev(acpi_desc), "ARS rescan: %d\n", rc);
	return rc;
}
EXPORT_SYMBOL_GPL(acpi_nfit_ars_rescan);

/**
 * acpi_nfit_notify_event - an ACPI notification on the NFIT device
 * @acpi_desc: the bus
 * @event: the notification value
 *
 * NFIT_NOTIFY_UC_MEMORY_ERROR (0x81): the platform found new
 * uncorrectable errors; a scrub is queued, or, while one runs, another
 * after it.  Other values are logged and ignored.
 */
void acpi_nfit_notify_event(struct acpi_nfit_desc *acpi_desc, u32 event)
{
	struct nfit_ars *ars = &acpi_desc->ars;

	if (event != NFIT_NOTIFY_UC_MEMORY_ERROR) {
		dev_dbg(ars_dev(acpi_desc), "notification %#x ignored\n", event);
		return;
	}
	if (!nfit_ars_supported(acpi_desc->nd_desc.cmd_mask))
		return;
	mutex_lock(&ars->lock);
	if (ars->ready && !ars->cancel) {
		if (ars->running) {
			ars->again = true;
		} else if (!ars->requested) {
			ars->requested = true;
			queue_work(system_long_wq, &ars->work);
		}
	}
	mutex_unlock(&ars->lock);
	dev_dbg(ars_dev(acpi_desc), "notification %#x: scrub requested\n", event);
}
EXPORT_SYMBOL_GPL(acpi_nfit_notify_event);

/* sysfs: ndbusN/nfit/scrub and hw_error_scrub (6.1's formats) */

static struct acpi_nfit_desc *ars_desc_of(struct device *dev)
{
	return to_acpi_nfit_desc(to_nd_desc(to_nvdimm_bus(dev)));
}

static ssize_t scrub_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct nfit_ars *ars = &ars_desc_of(dev)->ars;
	unsigned int count;
	bool busy;

	mutex_lock(&ars->lock);
	count = ars->count;
	busy = (ars->requested || ars->running) && !ars->cancel;
	mutex_unlock(&ars->lock);
	return sysfs_emit(buf, "%u%s\n", count, busy ? "+" : "");
}

static ssize_t scrub_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t size)
{
	long val;
	int rc;

	rc = kstrtol(buf, 0, &val);
	if (rc || val != 1) {
		dev_dbg(dev, "scrub: only \"1\" starts one\n");
		return -EINVAL;
	}
	rc = acpi_nfit_ars_rescan(ars_desc_of(dev));
	return rc ? rc : size;
}
DEVICE_ATTR_RW(scrub);

static ssize_t hw_error_scrub_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(ars_desc_of(dev)->ars.hw_error_scrub));
}

static ssize_t hw_error_scrub_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t size)
{
	long val;

	if (kstrtol(buf, 0, &val) || (val != 0 && val != 1)) {
		dev_dbg(dev, "hw_error_scrub: 0 or 1\n");
		return -EINVAL;
	}
	WRITE_ONCE(ars_desc_of(dev)->ars.hw_error_scrub, val);
	return size;
}
DEVICE_ATTR_RW(hw_error_scrub);

/**
 * nfit_ars_hidden - the scrub attributes exist on buses with ARS only
 * @dev: the bus device
 * @a: the attribute
 *
 * Returns whether @a is one of them and the bus lacks ARS.
 */
bool nfit_ars_hidden(struct device *dev, struct attribute *a)
{
	if (a != &dev_attr_scrub.attr && a != &dev_attr_hw_error_scrub.attr)
		return false;
	return !nfit_ars_supported(to_nd_desc(to_nvdimm_bus(dev))->cmd_mask);
}

/**
 * nfit_ars_setup_cmds - the bus commands the root _DSM's functions give
 * @acpi_desc: the bus, ->bus_dsm_mask known
 *
 * ARS Cap/Start/Status and Clear Error are root _DSM functions 1-4 and
 * ND_CMD_* 1-4; the error-injection functions are reached through
 * ND_CMD_CALL, offered when the firmware has any of them.
 */
void nfit_ars_setup_cmds(struct acpi_nfit_desc *acpi_desc)
{
	unsigned long ars = BIT(ND_CMD_ARS_CAP) | BIT(ND_CMD_ARS_START) |
		BIT(ND_CMD_ARS_STATUS) | BIT(ND_CMD_CLEAR_ERROR);
	unsigned long inj = BIT(NFIT_CMD_ARS_INJECT_SET) |
		BIT(NFIT_CMD_ARS_INJECT_CLEAR) | BIT(NFIT_CMD_ARS_INJECT_GET);

	acpi_desc->nd_desc.cmd_mask |= acpi_desc->bus_dsm_mask & ars;
	if (acpi_desc->bus_dsm_mask & inj)
		acpi_desc->nd_desc.cmd_mask |= BIT(ND_CMD_CALL);
	mutex_init(&acpi_desc->ars.lock);
	init_waitqueue_head(&acpi_desc->ars.wait);
	INIT_WORK(&acpi_desc->ars.work, nfit_ars_work);
}

static void nfit_ars_teardown(void *data)
{
	struct acpi_nfit_desc *acpi_desc = data;
	struct nfit_ars *ars = &acpi_desc->ars;

	mutex_lock(&ars->lock);
	ars->cancel = true;
	mutex_unlock(&ars->lock);
	wake_up_all(&ars->wait);
	cancel_work_sync(&ars->work);
	sysfs_put(ars->kn);
	ars->kn = NULL;
}

/**
 * nfit_ars_init - the first scrub of a registered bus
 * @acpi_desc: the bus, registered with its regions
 *
 * Queues the scrub (probe does not wait for it) and adds the devres
 * action that cancels it: called after the bus's own teardown action was
 * added, so that it runs before the bus goes.  Returns 0 or -ENOMEM.
 */
int nfit_ars_init(struct acpi_nfit_desc *acpi_desc)
{
	struct nfit_ars *ars = &acpi_desc->ars;
	struct device *bus_dev = to_nvdimm_bus_dev(acpi_desc->nvdimm_bus);
	struct kernfs_node *nfit;
	int rc;

	if (!nfit_ars_supported(acpi_desc->nd_desc.cmd_mask))
		return 0;
	nfit = sysfs_get_dirent(bus_dev->kobj.sd, "nfit");
	if (nfit) {
		ars->kn = sysfs_get_dirent(nfit, "scrub");
		sysfs_put(nfit);
	}
	rc = devm_add_action_or_reset(acpi_desc->dev, nfit_ars_teardown,
				      acpi_desc);
	if (rc)
		return rc;
	mutex_lock(&ars->lock);
	ars->ready = true;
	ars->requested = true;
	queue_work(system_long_wq, &ars->work);
	mutex_unlock(&ars->lock);
	return 0;
}
