// SPDX-License-Identifier: GPL-2.0
/*
 * Byte access to a namespace: what a personality (the BTT) uses for its
 * metadata and data, and what btt autodetect reads info blocks with.
 *
 * A PMEM or IO namespace's system-physical range is mapped write-back for
 * as long as the driver that asked holds it (devm on that device).  Writes
 * are non-temporal (memcpy_flushcache): once a write returns it is in the
 * platform's persistence domain on an ADR platform; a caller that must
 * also drain the memory controller's queues calls nvdimm_flush().  Reads
 * use copy_mc_to_kernel() so poison reads as -EIO, not a machine check.
 *
 * A BLK namespace has no system-physical range: its bytes run through
 * its DPA extents in order, and every access goes through the region's
 * block windows (nd_region_blk_io(), the provider's aperture I/O).  Its
 * writes are durable when they return; reads of failed media are -EIO.
 */
#include <linux/device.h>
#include <linux/io.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/blkdev.h>
#include "nd-core.h"

static void nd_nsio_unmap(void *data)
{
	struct nd_namespace_io *nsio = data;

	WRITE_ONCE(nsio->virt, NULL);
}

static void nd_nsblk_io_off(void *data)
{
	struct nd_namespace_blk *nsblk = data;

	WRITE_ONCE(nsblk->io_on, false);
}

static int nd_nsblk_bytes_enable(struct device *owner,
				 struct device *ndns_dev)
{
	struct nd_namespace_blk *nsblk = to_nd_namespace_blk(ndns_dev);
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);

	if (!nd_region->blk_enabled) {
		dev_err(owner, "%s: %s has no usable block windows\n",
			dev_name(ndns_dev), dev_name(&nd_region->dev));
		return -ENXIO;
	}
	if (READ_ONCE(nsblk->io_on)) {
		dev_dbg(owner, "%s: already enabled by another holder\n",
			dev_name(ndns_dev));
		return -EBUSY;
	}
	WRITE_ONCE(nsblk->io_on, true);
	return devm_add_action_or_reset(owner, nd_nsblk_io_off, nsblk);
}

/*
 * [@offset, +@size) of a BLK namespace through its extents, in order;
 * a transfer crossing an extent's end continues in the next one.
 */
static int nd_nsblk_rw(struct device *ndns_dev, u64 offset, void *buf,
		       size_t size, bool write)
{
	struct nd_namespace_blk *nsblk = to_nd_namespace_blk(ndns_dev);
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	u64 end, base = 0;
	u32 i;
	int rc;

	if (!READ_ONCE(nsblk->io_on)) {
		dev_dbg(ndns_dev, "byte access while not enabled\n");
		return -ENXIO;
	}
	if (check_add_overflow(offset, (u64)size, &end) ||
	    end > nsblk->lbl.nsio.res_size) {
		dev_dbg(ndns_dev, "access [%#llx, +%#zx) beyond %#llx bytes\n",
			offset, size, nsblk->lbl.nsio.res_size);
		return -ENXIO;
	}
	for (i = 0; i < nsblk->nr_extents && size; i++) {
		const struct nd_dpa_range *e = &nsblk->extents[i];
		size_t n;

		if (offset >= base + e->size) {
			base += e->size;
			continue;
		}
		n = min_t(u64, size, base + e->size - offset);
		rc = nd_region_blk_io(nd_region, e->start + (offset - base),
				      buf, n, write);
		if (rc)
			return rc;
		buf += n;
		offset += n;
		size -= n;
		base += e->size;
	}
	if (size) {
		dev_err(ndns_dev, "extents end before the namespace's %#llx bytes\n",
			nsblk->lbl.nsio.res_size);
		return -ENXIO;
	}
	return 0;
}

/**
 * nvdimm_namespace_bytes_enable - map a namespace for byte access
 * @owner: device whose devm resources hold the mapping (the namespace
 *	itself while its driver probes, or the btt that claimed it)
 * @ndns_dev: an IO or PMEM namespace
 *
 * Called from @owner's probe (its device lock held); the mapping lasts
 * until @owner is unbound.  Only one holder at a time: the namespace and
 * its claim are never bound together.  A BLK namespace is not mapped:
 * its accesses go through the region's block windows, which must be
 * usable (-ENXIO otherwise).  Returns 0, -EBUSY when the range cannot be
 * reserved or another holder has it, or the mapping's errno.
 */
int nvdimm_namespace_bytes_enable(struct device *owner,
				  struct device *ndns_dev)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	phys_addr_t start = nsio->res_start;
	size_t size = nsio->res_size;
	void *virt;

	if (is_nd_namespace_blk(ndns_dev))
		return nd_nsblk_bytes_enable(owner, ndns_dev);
	if (!is_nd_namespace_io(ndns_dev) && !is_nd_namespace_pmem(ndns_dev)) {
		dev_dbg(owner, "%s: no byte access to this namespace type\n",
			dev_name(ndns_dev));
		return -EOPNOTSUPP;
	}
	if (READ_ONCE(nsio->virt)) {
		dev_dbg(owner, "%s: already mapped by another holder\n",
			dev_name(ndns_dev));
		return -EBUSY;
	}
	if (!devm_request_mem_region(owner, start, size, dev_name(ndns_dev))) {
		dev_warn(owner, "could not reserve %s [%pa, +%#zx)\n",
			 dev_name(ndns_dev), &start, size);
		return -EBUSY;
	}
	virt = devm_memremap(owner, start, size, MEMREMAP_WB);
	if (IS_ERR(virt)) {
		dev_err(owner, "could not map %s [%pa, +%#zx)\n",
			dev_name(ndns_dev), &start, size);
		return PTR_ERR(virt);
	}
	/* released before the unmap: devm actions run in reverse order */
	WRITE_ONCE(nsio->virt, virt);
	return devm_add_action_or_reset(owner, nd_nsio_unmap, nsio);
}
EXPORT_SYMBOL_GPL(nvdimm_namespace_bytes_enable);

/* [@offset, +@size) inside the mapped namespace, or NULL */
static void *nd_nsio_span(struct device *ndns_dev, u64 offset, size_t size)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	void *virt = READ_ONCE(nsio->virt);
	u64 end;

	if (!virt) {
		dev_dbg(ndns_dev, "byte access while not mapped\n");
		return NULL;
	}
	if (check_add_overflow(offset, (u64)size, &end) ||
	    end > nsio->res_size) {
		dev_dbg(ndns_dev, "access [%#llx, +%#zx) beyond %#llx bytes\n",
			offset, size, nsio->res_size);
		return NULL;
	}
	return virt + offset;
}

/*
 * Does [@offset, +@size) of a PMEM or IO namespace hold a sector its
 * region's badblocks list names (the bus learnt it is poisoned)?
 */
static bool nd_nsio_is_bad(struct device *ndns_dev, u64 offset, size_t size)
{
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	sector_t first_bad;
	int num_bad;
	u64 roff;

	if (!nd_region->bb_ready || !READ_ONCE(nd_region->bb.count) || !size)
		return false;
	/* inside the region: nd_nsio_span() checked the namespace bounds */
	roff = nsio->res_start - nd_region->res_start + offset;
	return badblocks_check(&nd_region->bb, roff >> SECTOR_SHIFT,
			       DIV_ROUND_UP((roff & (SECTOR_SIZE - 1)) + size,
					    SECTOR_SIZE),
			       &first_bad, &num_bad) != 0;
}

/**
 * nvdimm_read_bytes - read from a mapped namespace
 * @ndns_dev: the namespace (nvdimm_namespace_bytes_enable() done)
 * @offset: namespace offset
 * @buf: destination
 * @size: bytes
 *
 * Does not sleep.  Returns 0, -ENXIO when the span is outside the
 * namespace or the namespace is not mapped (or enabled, BLK), -EIO on
 * poisoned media (known bad sectors are not read at all) or a
 * block-window error status.
 */
int nvdimm_read_bytes(struct device *ndns_dev, u64 offset, void *buf,
		      size_t size)
{
	void *src;

	if (is_nd_namespace_blk(ndns_dev))
		return nd_nsblk_rw(ndns_dev, offset, buf, size, false);
	src = nd_nsio_span(ndns_dev, offset, size);
	if (!src)
		return -ENXIO;
	if (nd_nsio_is_bad(ndns_dev, offset, size)) {
		dev_dbg(ndns_dev, "read of [%#llx, +%#zx): known bad sectors\n",
			offset, size);
		return -EIO;
	}
	if (copy_mc_to_kernel(buf, src, size)) {
		dev_dbg(ndns_dev, "media error reading [%#llx, +%#zx)\n",
			offset, size);
		return -EIO;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(nvdimm_read_bytes);

/**
 * nvdimm_write_bytes - write to a mapped namespace
 * @ndns_dev: the namespace (nvdimm_namespace_bytes_enable() done)
 * @offset: namespace offset
 * @buf: source
 * @size: bytes
 *
 * Non-temporal stores.  Stores of up to 8 bytes at an 8-byte aligned
 * offset are power-fail atomic, which is what the BTT's map and flog
 * updates rely on.  A span over known bad sectors is cleared through the
 * firmware first when it is whole sectors (this sleeps), else refused.
 * The test build wraps this function to drop every store after a chosen
 * one (a simulated power cut).  Returns 0, -ENXIO when the span is
 * outside the namespace or not mapped (or enabled, BLK), or -EIO for
 * poison that could not be cleared or a block-window error status.
 */
int nvdimm_write_bytes(struct device *ndns_dev, u64 offset, const void *buf,
		       size_t size)
{
	return nd_namespace_write_bytes(ndns_dev, offset, buf, size);
}
EXPORT_SYMBOL_GPL(nvdimm_write_bytes);

/**
 * nd_namespace_write_bytes - nvdimm_write_bytes() for the core itself
 * @ndns_dev: the namespace (nvdimm_namespace_bytes_enable() done)
 * @offset: namespace offset
 * @buf: source
 * @size: bytes
 *
 * The test build wraps references to nvdimm_write_bytes() in every
 * module, the core's included: the wrapper lives in a module that needs
 * the core, so the core's own writes (pfn info blocks) come here.
 */
int nd_namespace_write_bytes(struct device *ndns_dev, u64 offset,
			     const void *buf, size_t size)
{
	void *dst;

	if (is_nd_namespace_blk(ndns_dev))
		return nd_nsblk_rw(ndns_dev, offset, (void *)buf, size, true);
	dst = nd_nsio_span(ndns_dev, offset, size);
	if (!dst)
		return -ENXIO;
	if (nd_nsio_is_bad(ndns_dev, offset, size)) {
		struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
		long cleared = -EIO;

		if (IS_ALIGNED(offset | size, SECTOR_SIZE))
			cleared = nvdimm_clear_poison(ndns_dev,
						      nsio->res_start + offset,
						      size);
		if (cleared < (long)size) {
			dev_dbg(ndns_dev, "write of [%#llx, +%#zx): poison not cleared (%ld)\n",
				offset, size, cleared);
			return -EIO;
		}
		arch_invalidate_pmem(dst, size);
	}
	memcpy_flushcache(dst, buf, size);
	return 0;
}

/**
 * nvdimm_namespace_capacity - bytes of a namespace
 * @ndns_dev: any namespace
 */
u64 nvdimm_namespace_capacity(struct device *ndns_dev)
{
	return to_nd_namespace_io(ndns_dev)->res_size;
}
EXPORT_SYMBOL_GPL(nvdimm_namespace_capacity);
