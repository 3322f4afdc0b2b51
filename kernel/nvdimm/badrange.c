// SPDX-License-Identifier: GPL-2.0
/*
 * Bad ranges: the system-physical ranges of a bus that its provider
 * learnt are poisoned (ARS records, a machine check, an injection), and
 * their projection into the badblocks lists of regions (regionN/badblocks)
 * and of the disks over namespaces (/sys/block/pmemN/badblocks).
 *
 * The bus keeps the ranges merged and sorted (struct nvdimm_bus.badranges,
 * under its badrange_lock, a mutex: adds come from process context).  A
 * provider adds or clears a batch, then calls nvdimm_bus_badrange_changed():
 * every region of the bus recomputes its list and its namespace drivers
 * are told (NVDIMM_REVALIDATE_POISON) to recompute theirs.  Badblocks
 * sectors are 512 bytes, counted from the start of the range that owns
 * the list; a partly bad sector is a bad sector.
 */
#include <linux/badblocks.h>
#include <linux/bits.h>
#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/range.h>
#include <linux/slab.h>
#include "nd-core.h"

/* sectors per badblocks_clear() call (it takes an int) */
#define BADRANGE_CLEAR_CHUNK	BIT_ULL(30)

/**
 * struct nd_badrange - one bad range of a bus
 * @list: entry in struct nvdimm_bus.badranges, sorted by @start
 * @start: first bad byte (system-physical)
 * @last: last bad byte (inclusive: a range may end at the top of memory)
 */
struct nd_badrange {
	struct list_head list;
	u64 start;
	u64 last;
};

/**
 * nvdimm_bus_add_badrange - record that [@addr, +@length) is poisoned
 * @nvdimm_bus: the bus whose regions the range may fall in
 * @addr: first bad byte, system-physical
 * @length: bytes
 *
 * Merged with the ranges it overlaps or touches.  Call
 * nvdimm_bus_badrange_changed() after a batch.  Process context.
 * Returns 0, -EINVAL for an empty or wrapping range, -ENOMEM.
 */
int nvdimm_bus_add_badrange(struct nvdimm_bus *nvdimm_bus, u64 addr,
			    u64 length)
{
	struct nd_badrange *new, *br, *tmp;
	u64 last;

	if (!length || check_add_overflow(addr, length - 1, &last)) {
		dev_dbg(&nvdimm_bus->dev, "bad range %#llx+%#llx: empty or wraps\n",
			addr, length);
		return -EINVAL;
	}
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->start = addr;
	new->last = last;

	mutex_lock(&nvdimm_bus->badrange_lock);
	list_for_each_entry_safe(br, tmp, &nvdimm_bus->badranges, list) {
		/* disjoint and not adjacent: keep (the +1s cannot wrap) */
		if ((br->last != U64_MAX && br->last + 1 < new->start) ||
		    (new->last != U64_MAX && new->last + 1 < br->start))
			continue;
		new->start = min(new->start, br->start);
		new->last = max(new->last, br->last);
		list_del(&br->list);
		kfree(br);
	}
	list_for_each_entry(br, &nvdimm_bus->badranges, list)
		if (br->start > new->start)
			break;
	list_add_tail(&new->list, &br->list);
	mutex_unlock(&nvdimm_bus->badrange_lock);
	dev_dbg(&nvdimm_bus->dev, "bad range [%#llx, %#llx]\n", addr, last);
	return 0;
}
EXPORT_SYMBOL_GPL(nvdimm_bus_add_badrange);

/**
 * nvdimm_bus_clear_badrange - record that [@addr, +@length) is good again
 * @nvdimm_bus: the bus
 * @addr: first cleared byte, system-physical
 * @length: bytes (0, or a wrapping range: nothing happens)
 *
 * Ranges are trimmed or split.  Call nvdimm_bus_badrange_changed() after
 * a batch.  Process context; the block I/O path may call it.
 */
void nvdimm_bus_clear_badrange(struct nvdimm_bus *nvdimm_bus, u64 addr,
			       u64 length)
{
	struct nd_badrange *br, *tmp, *tail;
	u64 last;

	if (!length || check_add_overflow(addr, length - 1, &last))
		return;
	/*
	 * A split needs one more entry: allocated before the lock, without
	 * I/O (nd_pmem's write path clears poison; reclaim must not recurse
	 * into it).  Without it the range is kept whole below.
	 */
	tail = kzalloc(sizeof(*tail), GFP_NOIO);

	mutex_lock(&nvdimm_bus->badrange_lock);
	list_for_each_entry_safe(br, tmp, &nvdimm_bus->badranges, list) {
		if (br->last < addr || br->start > last)
			continue;
		if (br->start >= addr && br->last <= last) {
			list_del(&br->list);
			kfree(br);
		} else if (br->start < addr && br->last > last) {
			if (!tail) {
				/* keep it whole: bad stays bad, never lost */
				dev_warn(&nvdimm_bus->dev, "bad range [%#llx, %#llx]: no memory to split it, kept\n",
					 br->start, br->last);
				continue;
			}
			tail->start = last + 1;
			tail->last = br->last;
			br->last = addr - 1;
			list_add(&tail->list, &br->list);
			tail = NULL;
		} else if (br->start < addr) {
			br->last = addr - 1;
		} else {
			br->start = last + 1;
		}
	}
	mutex_unlock(&nvdimm_bus->badrange_lock);
	kfree(tail);
	dev_dbg(&nvdimm_bus->dev, "cleared [%#llx, %#llx]\n", addr, last);
}
EXPORT_SYMBOL_GPL(nvdimm_bus_clear_badrange);

/* sectors [@first, +@count) of @bb: clear (chunked: badblocks takes ints) */
static void nd_bb_clear(struct badblocks *bb, u64 first, u64 count)
{
	while (count) {
		u64 n = min_t(u64, count, BADRANGE_CLEAR_CHUNK);

		badblocks_clear(bb, first, n);
		first += n;
		count -= n;
	}
}

/* ... set; false when the list is full */
static bool nd_bb_set(struct badblocks *bb, u64 first, u64 count)
{
	while (count) {
		int n = min_t(u64, count, BB_MAX_LEN);

		if (badblocks_set(bb, first, n, 1))
			return false;
		first += n;
		count -= n;
	}
	return true;
}

/**
 * nvdimm_badblocks_populate - the bus's bad ranges inside @range as
 *	512-byte sectors of @bb, counted from @range->start
 * @nd_region: the region @range belongs to (its bus is asked)
 * @bb: the list to fill: the sectors no bad range covers are cleared, after
 *	the bad ones are set (never a moment without a still-bad sector)
 * @range: system-physical range the list describes (a region, or a
 *	namespace's data area)
 */
void nvdimm_badblocks_populate(struct nd_region *nd_region,
			       struct badblocks *bb, const struct range *range)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nd_region->dev);
	u64 nsec = DIV_ROUND_UP_ULL(range_len(range), SECTOR_SIZE);
	struct nd_badrange *br;
	u64 good = 0;	/* first sector not yet known good or bad */

	if (!nvdimm_bus || range->end < range->start)
		return;
	mutex_lock(&nvdimm_bus->badrange_lock);
	/*
	 * The bad sectors are set first, then only the gaps between them
	 * cleared: a reader of @bb never sees a still-bad sector missing.
	 * The list is sorted and merged, so the sectors only grow.
	 */
	list_for_each_entry(br, &nvdimm_bus->badranges, list) {
		u64 s, e, first, last;

		if (br->last < range->start || br->start > range->end)
			continue;
		s = max_t(u64, br->start, range->start) - range->start;
		e = min_t(u64, br->last, range->end) - range->start;
		first = s >> SECTOR_SHIFT;
		last = e >> SECTOR_SHIFT;
		if (!nd_bb_set(bb, first, last - first + 1))
			dev_warn_ratelimited(&nd_region->dev, "badblocks list full: sectors from %llu not recorded\n",
					     first);
		if (first > good)
			nd_bb_clear(bb, good, first - good);
		good = max(good, last + 1);
	}
	if (nsec > good)
		nd_bb_clear(bb, good, nsec - good);
	mutex_unlock(&nvdimm_bus->badrange_lock);
}
EXPORT_SYMBOL_GPL(nvdimm_badblocks_populate);

static int nd_region_poison_notify(struct device *dev, void *data)
{
	struct nd_device_driver *nd_drv;

	device_lock(dev);
	if (dev->driver) {
		nd_drv = to_nd_device_driver(dev->driver);
		if (nd_drv->notify)
			nd_drv->notify(dev, NVDIMM_REVALIDATE_POISON);
	}
	device_unlock(dev);
	return 0;
}

static int nd_bus_poison_notify(struct device *dev, void *data)
{
	if (!is_nd_region(dev))
		return 0;
	nd_region_badblocks_refresh(to_nd_region(dev));
	/* the namespaces, btt, pfn and dax devices of the region */
	device_for_each_child(dev, NULL, nd_region_poison_notify);
	return 0;
}

/**
 * nvdimm_bus_badrange_changed - make regions and namespaces re-read the
 *	bus's bad ranges after a batch of adds or clears
 * @nvdimm_bus: the bus
 *
 * Process context; takes the device lock of each namespace-level device.
 */
void nvdimm_bus_badrange_changed(struct nvdimm_bus *nvdimm_bus)
{
	device_for_each_child(&nvdimm_bus->dev, NULL, nd_bus_poison_notify);
}
EXPORT_SYMBOL_GPL(nvdimm_bus_badrange_changed);

static int nd_region_cleared(struct device *dev, void *data)
{
	if (is_nd_region(dev))
		nd_region_badblocks_refresh(to_nd_region(dev));
	return 0;
}

/*
 * [@addr, +@length) was cleared by the firmware: forget it on the bus and
 * in the regions' lists.  The namespaces' lists are their drivers' (the
 * writer that cleared updates its own; the others at their next
 * revalidation): no device lock is taken, so the I/O path may call this.
 */
void nvdimm_bus_account_cleared(struct nvdimm_bus *nvdimm_bus, u64 addr,
				u64 length)
{
	if (!length)
		return;
	nvdimm_bus_clear_badrange(nvdimm_bus, addr, length);
	device_for_each_child(&nvdimm_bus->dev, NULL, nd_region_cleared);
}

/**
 * nvdimm_clear_poison - ask the firmware to clear poison in a range
 * @dev: a device of the bus (the namespace or disk owner)
 * @phys: system-physical start
 * @len: bytes
 *
 * ND_CMD_ARS_CAP gives the firmware's clear unit; a range not aligned to
 * it is left alone (0 cleared).  ND_CMD_CLEAR_ERROR then clears, and
 * what it cleared leaves the bus's bad ranges and the regions' lists.
 * May sleep.
 * Returns the bytes cleared (0 when none, or the bus cannot clear), or a
 * negative errno when the commands failed.
 */
long nvdimm_clear_poison(struct device *dev, phys_addr_t phys,
			 unsigned int len)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(dev);
	struct nd_cmd_clear_error clear = { };
	struct nd_cmd_ars_cap cap = { };
	int rc, cmd_rc = 0;
	u32 unit;

	if (!nvdimm_bus || !len ||
	    !test_bit(ND_CMD_ARS_CAP, &nvdimm_bus->cmd_mask) ||
	    !test_bit(ND_CMD_CLEAR_ERROR, &nvdimm_bus->cmd_mask))
		return 0;
	cap.address = phys;
	cap.length = len;
	rc = nvdimm_bus_cmd(nvdimm_bus, ND_CMD_ARS_CAP, &cap, sizeof(cap),
			    &cmd_rc);
	if (rc < 0 || cmd_rc < 0) {
		dev_dbg(dev, "clear poison [%#llx, +%#x): ars_cap %d/%d\n",
			(u64)phys, len, rc, cmd_rc);
		return rc < 0 ? rc : cmd_rc;
	}
	unit = cap.clear_err_unit;
	if (!unit || !is_power_of_2(unit) || !IS_ALIGNED(phys | len, unit))
		return 0;
	clear.address = phys;
	clear.length = len;
	rc = nvdimm_bus_cmd(nvdimm_bus, ND_CMD_CLEAR_ERROR, &clear,
			    sizeof(clear), &cmd_rc);
	if (rc < 0 || cmd_rc < 0) {
		dev_dbg(dev, "clear poison [%#llx, +%#x): clear_error %d/%d\n",
			(u64)phys, len, rc, cmd_rc);
		return rc < 0 ? rc : cmd_rc;
	}
	/* never more than asked: firmware's number is not trusted further */
	clear.cleared = min_t(u64, clear.cleared, len);
	nvdimm_bus_account_cleared(nvdimm_bus, phys, clear.cleared);
	return clear.cleared;
}
EXPORT_SYMBOL_GPL(nvdimm_clear_poison);

/* bus teardown: the ranges go with it */
void nvdimm_bus_badrange_free(struct nvdimm_bus *nvdimm_bus)
{
	struct nd_badrange *br, *tmp;

	list_for_each_entry_safe(br, tmp, &nvdimm_bus->badranges, list) {
		list_del(&br->list);
		kfree(br);
	}
}
