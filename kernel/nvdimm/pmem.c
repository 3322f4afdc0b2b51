// SPDX-License-Identifier: GPL-2.0
/*
 * nd_pmem: a block device (/dev/pmemN) over a namespace's system-physical
 * address range, or over the BTT of a btt device that claimed one
 * (/dev/pmemNs, nd_btt.ko), or over the data area of a pfn device that
 * claimed one (fsdax: /dev/pmemN with struct pages behind it, registered
 * with the kernel's DAX core so that a filesystem mounted -o dax maps
 * the media directly).
 *
 * Writes use non-temporal stores (memcpy_flushcache) so that, once ordered
 * by nvdimm_flush(), they sit in the platform's persistence domain; a
 * flush request (REQ_PREFLUSH) and a FUA write both end in nvdimm_flush(),
 * and complete with an I/O error when it fails (virtio-pmem: the host
 * could not sync its file).  On a region of a provider that allows it
 * (e820, virtio-pmem), a raw namespace gets struct pages too (mode
 * "memory", as 6.1).
 * Reads use copy_mc_to_kernel(): a poisoned line ends the bio with an I/O
 * error instead of a machine-check crash.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/badblocks.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/dax.h>
#include <linux/memremap.h>
#include <linux/pfn_t.h>
#include <linux/uio.h>
#include "nd.h"

#ifdef LIBNVDIMM_TEST_BUILD
/*
 * The test build only (kernel/test/Kbuild.drivers defines it): nfit_test's
 * mock ranges are vmalloc memory, served to the DAX core one page at a
 * time by kernel/test/iomap.c.  The production build has no such hook.
 */
int nfit_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn);

/* 1: a mock range (one page valid), 0: a real one, <0: refused */
static int pmem_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn)
{
	return nfit_test_dax_page(phys, flags, pfn);
}

/* a mock range of nfit_test with memory behind it */
static bool pmem_test_dax_range(phys_addr_t start)
{
	return nfit_test_dax_page(start, 0, NULL) == 1;
}
#else
static int pmem_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn)
{
	return 0;
}

static bool pmem_test_dax_range(phys_addr_t start)
{
	return false;
}
#endif

/**
 * struct pmem_device - one attached namespace or pfn device
 * @phys_addr: system-physical address of the first byte of the disk
 * @size: bytes of the disk
 * @virt_addr: kernel mapping of @phys_addr
 * @disk: the block device
 * @nd_region: region to flush
 * @pgmap: pfn device: the struct pages of the namespace's range
 * @dax_dev: the disk's DAX device (mountable with dax only with struct
 *	pages: @pfn_flags has PFN_MAP)
 * @pfn_flags: what direct_access() tags the pfns it returns with
 * @bb: the bad sectors of the disk (sector 0 = @phys_addr), from the
 *	bus's bad ranges; /sys/block/pmemN/badblocks
 */
struct pmem_device {
	phys_addr_t phys_addr;
	size_t size;
	void *virt_addr;
	struct gendisk *disk;
	struct nd_region *nd_region;
	struct dev_pagemap pgmap;
	struct dax_device *dax_dev;
	u64 pfn_flags;
	struct badblocks bb;
};

/* does [@sector, +@len bytes) hold a known bad sector */
static bool pmem_is_bad(struct pmem_device *pmem, sector_t sector,
			unsigned int len)
{
	sector_t first_bad;
	int num_bad;

	if (!READ_ONCE(pmem->bb.count))
		return false;
	return badblocks_check(&pmem->bb, sector, DIV_ROUND_UP(len, SECTOR_SIZE),
			       &first_bad, &num_bad) != 0;
}

/*
 * Clear the poison of [@pmem_off, +@len) through the firmware before it
 * is written; the sectors it cleared leave @pmem->bb.  BLK_STS_IOERR
 * unless all of it was cleared (the write would land on poison).
 */
static blk_status_t pmem_clear_poison(struct pmem_device *pmem,
				      phys_addr_t pmem_off, unsigned int len)
{
	struct device *dev = disk_to_dev(pmem->disk);
	long cleared;

	cleared = nvdimm_clear_poison(dev, pmem->phys_addr + pmem_off, len);
	if (cleared > 0)
		badblocks_clear(&pmem->bb, pmem_off >> SECTOR_SHIFT,
				cleared >> SECTOR_SHIFT);
	if (cleared < (long)len) {
		dev_warn_ratelimited(dev, "could not clear poison in [%#llx, +%#x): %ld\n",
				     (u64)pmem_off, len, cleared);
		return BLK_STS_IOERR;
	}
	/* the lines may still be in the cache with their old poison */
	arch_invalidate_pmem(pmem->virt_addr + pmem_off, len);
	return BLK_STS_OK;
}

static blk_status_t pmem_do_read(struct pmem_device *pmem, struct page *page,
				 unsigned int off, unsigned int len,
				 phys_addr_t pmem_off)
{
	void *mem;
	unsigned long rem;

	/* a known bad sector is not read: the media is not touched */
	if (pmem_is_bad(pmem, pmem_off >> SECTOR_SHIFT, len))
		return BLK_STS_IOERR;
	mem = kmap_local_page(page);
	rem = copy_mc_to_kernel(mem + off, pmem->virt_addr + pmem_off, len);
	kunmap_local(mem);
	if (!rem)
		return BLK_STS_OK;
	dev_warn_ratelimited(disk_to_dev(pmem->disk), "media error: read of [%#llx, +%#x) failed at byte %#llx\n",
			     (u64)pmem_off, len, (u64)pmem_off + len - rem);
	return BLK_STS_IOERR;
}

static blk_status_t pmem_do_write(struct pmem_device *pmem,
				  struct page *page, unsigned int off,
				  unsigned int len, phys_addr_t pmem_off)
{
	void *mem;

	/* whole sectors over known poison: cleared first, then written */
	if (pmem_is_bad(pmem, pmem_off >> SECTOR_SHIFT, len)) {
		blk_status_t rc = pmem_clear_poison(pmem, pmem_off, len);

		if (rc)
			return rc;
	}
	mem = kmap_local_page(page);
	memcpy_flushcache(pmem->virt_addr + pmem_off, mem + off, len);
	kunmap_local(mem);
	return BLK_STS_OK;
}

static void pmem_submit_bio(struct bio *bio)
{
	struct pmem_device *pmem = bio->bi_bdev->bd_disk->private_data;
	bool write = op_is_write(bio_op(bio));
	blk_status_t rc = BLK_STS_OK;
	unsigned long start = 0;
	struct bvec_iter iter;
	struct bio_vec bv;
	bool acct;

	/* the flush may sleep (a virtio request): bio context allows it */
	if ((bio->bi_opf & REQ_PREFLUSH) && nvdimm_flush(pmem->nd_region)) {
		bio->bi_status = BLK_STS_IOERR;
		bio_endio(bio);
		return;
	}

	acct = blk_queue_io_stat(bio->bi_bdev->bd_disk->queue);
	if (acct)
		start = bio_start_io_acct(bio);
	bio_for_each_segment(bv, bio, iter) {
		phys_addr_t pmem_off = (phys_addr_t)iter.bi_sector << SECTOR_SHIFT;

		if (write)
			rc = pmem_do_write(pmem, bv.bv_page, bv.bv_offset,
					   bv.bv_len, pmem_off);
		else
			rc = pmem_do_read(pmem, bv.bv_page, bv.bv_offset,
					  bv.bv_len, pmem_off);
		if (rc)
			break;
	}
	if (acct)
		bio_end_io_acct(bio, start);

	/* a FUA write is not done until its data is durable */
	if (!rc && (bio->bi_opf & REQ_FUA) && nvdimm_flush(pmem->nd_region))
		rc = BLK_STS_IOERR;

	bio->bi_status = rc;
	bio_endio(bio);
}

static const struct block_device_operations pmem_fops = {
	.owner = THIS_MODULE,
	.submit_bio = pmem_submit_bio,
};

/*
 * DAX operations (the 6.1 dax_operations a filesystem needs).  Offsets
 * are pages from the start of the disk.  A range holding a known bad
 * sector is refused (-EIO) unless the caller is recovering it
 * (DAX_RECOVERY_WRITE: only the good pages before the first bad one are
 * handed out, at least one page, which recovery_write() then clears).
 */
static long pmem_dax_direct_access(struct dax_device *dax_dev, pgoff_t pgoff,
				   long nr_pages, enum dax_access_mode mode,
				   void **kaddr, pfn_t *pfn)
{
	struct pmem_device *pmem = dax_get_private(dax_dev);
	sector_t sector, first_bad;
	long avail;
	int num_bad, rc;
	u64 offset;

	/* in pages first: a huge @pgoff must not wrap into the disk */
	if (pgoff >= PHYS_PFN(pmem->size) || nr_pages <= 0)
		return -ERANGE;
	nr_pages = min_t(long, nr_pages, PHYS_PFN(pmem->size) - pgoff);
	offset = PFN_PHYS(pgoff);
	sector = offset >> SECTOR_SHIFT;
	avail = PHYS_PFN(pmem->size - offset);
	if (kaddr)
		*kaddr = pmem->virt_addr + offset;
	if (pfn)
		*pfn = phys_to_pfn_t(pmem->phys_addr + offset, pmem->pfn_flags);
	/* test build: a mock range's page, not contiguous with the next */
	rc = pmem_test_dax_page(pmem->phys_addr + offset, pmem->pfn_flags,
				pfn);
	if (rc < 0)
		return rc;
	if (rc) {
		avail = 1;
		nr_pages = 1;
	}
	if (!READ_ONCE(pmem->bb.count))
		return avail;
	/* badblocks counts sectors in an int */
	nr_pages = min_t(long, nr_pages, INT_MAX >> (PAGE_SHIFT - SECTOR_SHIFT));
	if (badblocks_check(&pmem->bb, sector, nr_pages << (PAGE_SHIFT - SECTOR_SHIFT),
			    &first_bad, &num_bad)) {
		if (mode != DAX_RECOVERY_WRITE)
			return -EIO;
		return max_t(long, 1, PHYS_PFN((first_bad - sector) << SECTOR_SHIFT));
	}
	/* known bad sectors elsewhere: vouch for the asked range only */
	return nr_pages;
}

static int pmem_dax_zero_page_range(struct dax_device *dax_dev, pgoff_t pgoff,
				    size_t nr_pages)
{
	struct pmem_device *pmem = dax_get_private(dax_dev);
	u64 offset;
	size_t i;

	if (pgoff >= PHYS_PFN(pmem->size) ||
	    nr_pages > PHYS_PFN(pmem->size) - pgoff)
		return -EIO;
	offset = PFN_PHYS(pgoff);
	for (i = 0; i < nr_pages; i++) {
		/* a zeroed page that was poisoned is cleared first */
		if (pmem_is_bad(pmem, (offset + PFN_PHYS(i)) >> SECTOR_SHIFT,
				PAGE_SIZE) &&
		    pmem_clear_poison(pmem, offset + PFN_PHYS(i), PAGE_SIZE))
			return -EIO;
		memcpy_flushcache(pmem->virt_addr + offset + PFN_PHYS(i),
				  page_address(ZERO_PAGE(0)), PAGE_SIZE);
	}
	return 0;
}

/*
 * Called by the DAX core for a write into a range direct_access()
 * refused as poisoned: whole pages of it are cleared through the
 * firmware, then written; anything else is not written (0).
 */
static size_t pmem_dax_recovery_write(struct dax_device *dax_dev,
				      pgoff_t pgoff, void *addr, size_t bytes,
				      struct iov_iter *iter)
{
	struct pmem_device *pmem = dax_get_private(dax_dev);
	u64 off = PFN_PHYS(pgoff);
	size_t len = PFN_PHYS(PFN_UP(bytes));

	if (off >= pmem->size || len > pmem->size - off)
		return 0;
	if (!pmem_is_bad(pmem, off >> SECTOR_SHIFT, len))
		return _copy_from_iter_flushcache(addr, bytes, iter);
	if (offset_in_page(addr) || !PAGE_ALIGNED(bytes)) {
		dev_dbg(disk_to_dev(pmem->disk), "recovery write of %zu bytes at %#llx: not whole pages\n",
			bytes, off);
		return 0;
	}
	if (pmem_clear_poison(pmem, off, len))
		return 0;
	return _copy_from_iter_flushcache(addr, bytes, iter);
}

static const struct dax_operations pmem_dax_ops = {
	.direct_access = pmem_dax_direct_access,
	.zero_page_range = pmem_dax_zero_page_range,
	.recovery_write = pmem_dax_recovery_write,
};

static void pmem_release_disk(void *data)
{
	struct pmem_device *pmem = data;

	if (pmem->dax_dev) {
		dax_remove_host(pmem->disk);
		kill_dax(pmem->dax_dev);
		put_dax(pmem->dax_dev);
	}
	del_gendisk(pmem->disk);
	put_disk(pmem->disk);
}

/* most dax_devices pmem_alloc_dax() sets aside: async regions, sync ones */
#define PMEM_DAX_TRIES_ASYNC	32
#define PMEM_DAX_TRIES_SYNC	4

/*
 * alloc_dax() for @pmem.  6.1's dax core resets a dax_device's flags only
 * when its slab object is first constructed, so an allocation may come
 * back with the flags of a freed one, DAXDEV_SYNC among them (measured:
 * MAP_SYNC granted on virtio-pmem after an e820 fsdax disk went away,
 * on the stock modules too).  An asynchronous region must not get such
 * an object: it sets them aside (held, so the next allocation is another
 * object) until a clean one comes, and fails after PMEM_DAX_TRIES_ASYNC.
 * A synchronous region, which sets the flag anyway, prefers the stale
 * objects (a few tries), so that it does not turn clean ones stale: with
 * every reload of e820 and virtio-pmem the stale ones would otherwise
 * pile up at the head of the free list (measured: a probe failing after
 * 8 tries in the ninth reload cycle).  Set-aside objects are released
 * at the end, as they were.
 */
static struct dax_device *pmem_alloc_dax(struct device *dev,
					 struct pmem_device *pmem)
{
	bool want_sync = is_nvdimm_sync(pmem->nd_region);
	int tries = want_sync ? PMEM_DAX_TRIES_SYNC : PMEM_DAX_TRIES_ASYNC;
	struct dax_device *dax_dev, *aside[PMEM_DAX_TRIES_ASYNC];
	int i, n = 0;

	for (;;) {
		dax_dev = alloc_dax(pmem, &pmem_dax_ops);
		if (IS_ERR(dax_dev) || dax_synchronous(dax_dev) == want_sync)
			break;
		if (n == tries) {
			if (want_sync)
				break;	/* a clean one serves: the flag is set */
			dev_err(dev, "no DAX device without a stale synchronous flag after %d tries\n",
				n);
			kill_dax(dax_dev);
			put_dax(dax_dev);
			dax_dev = ERR_PTR(-EBUSY);
			break;
		}
		aside[n++] = dax_dev;
	}
	for (i = 0; i < n; i++) {
		kill_dax(aside[i]);
		put_dax(aside[i]);
	}
	if (n && !want_sync)
		dev_info(dev, "set aside %d DAX device(s) with a stale synchronous flag\n",
			 n);
	return dax_dev;
}

/* register @pmem's DAX device for @disk */
static int pmem_add_dax(struct device *dev, struct pmem_device *pmem,
			struct gendisk *disk)
{
	struct dax_device *dax_dev;
	int rc;

	dax_dev = pmem_alloc_dax(dev, pmem);
	if (IS_ERR(dax_dev))
		return PTR_ERR(dax_dev);
	set_dax_nocache(dax_dev);
	set_dax_nomc(dax_dev);
	/*
	 * MAP_SYNC works where a CPU cache flush makes stores durable (an
	 * NFIT region), not where the provider must be asked (virtio-pmem)
	 */
	if (is_nvdimm_sync(pmem->nd_region))
		set_dax_synchronous(dax_dev);
	rc = dax_add_host(dax_dev, disk);
	if (rc) {
		dev_err(dev, "could not register the DAX device: %d\n", rc);
		kill_dax(dax_dev);
		put_dax(dax_dev);
		return rc;
	}
	/* DAX writers flush CPU caches unless the platform does on power loss */
	dax_write_cache(dax_dev, nvdimm_has_cache(pmem->nd_region));
	pmem->dax_dev = dax_dev;
	return 0;
}

/* the bus's bad ranges inside the disk, as its sectors */
static void pmem_badblocks_populate(struct pmem_device *pmem)
{
	struct range range = {
		.start = pmem->phys_addr,
		.end = pmem->phys_addr + pmem->size - 1,
	};

	nvdimm_badblocks_populate(pmem->nd_region, &pmem->bb, &range);
}

/*
 * dax/write_cache: whether DAX writers must flush CPU caches to make their
 * stores durable.  Clearing it is the administrator's promise that the
 * platform flushes them (6.1's knob, no check possible).
 */
static ssize_t write_cache_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct pmem_device *pmem = dev_to_disk(dev)->private_data;

	return sysfs_emit(buf, "%d\n", dax_write_cache_enabled(pmem->dax_dev));
}

static ssize_t write_cache_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	struct pmem_device *pmem = dev_to_disk(dev)->private_data;
	bool wc;
	int rc;

	rc = kstrtobool(buf, &wc);
	if (rc) {
		dev_dbg(dev, "dax/write_cache: not a boolean: %d\n", rc);
		return rc;
	}
	dax_write_cache(pmem->dax_dev, wc);
	return len;
}
static DEVICE_ATTR_RW(write_cache);

static struct attribute *pmem_dax_attrs[] = {
	&dev_attr_write_cache.attr,
	NULL,
};

static const struct attribute_group pmem_dax_group = {
	.name = "dax",
	.attrs = pmem_dax_attrs,
};

static const struct attribute_group *pmem_disk_groups[] = {
	&pmem_dax_group,
	NULL,
};

/*
 * @dev (a namespace or a pfn device) gets the disk; @ndns_dev names it.
 * @pmem is filled up to the range and mapping.
 */
static int pmem_attach_disk(struct device *dev, struct device *ndns_dev,
			    struct pmem_device *pmem)
{
	struct request_queue *q;
	struct gendisk *disk;
	char name[DISK_NAME_LEN];
	int rc;

	pmem->nd_region = to_nd_region(dev->parent);
	rc = devm_init_badblocks(dev, &pmem->bb);
	if (rc)
		return rc;
	pmem_badblocks_populate(pmem);
	disk = blk_alloc_disk(dev_to_node(dev));
	if (!disk)
		return -ENOMEM;
	pmem->disk = disk;
	/* /sys/block/pmemN/badblocks */
	disk->bb = &pmem->bb;
	q = disk->queue;
	blk_queue_write_cache(q, true, true);
	blk_queue_physical_block_size(q, PAGE_SIZE);
	blk_queue_logical_block_size(q, SECTOR_SIZE);
	blk_queue_max_hw_sectors(q, UINT_MAX);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	if (pmem->pfn_flags & PFN_MAP)
		blk_queue_flag_set(QUEUE_FLAG_DAX, q);

	disk->fops = &pmem_fops;
	disk->private_data = pmem;
	strscpy(disk->disk_name,
		nd_namespace_disk_name(ndns_dev, name, sizeof(name)),
		DISK_NAME_LEN);
	set_capacity(disk, pmem->size >> SECTOR_SHIFT);
	set_disk_ro(disk, nd_region_read_only(ndns_dev));

	/*
	 * Every pmem disk has a DAX device, as in 6.1 (its dax/write_cache);
	 * only one with struct pages (QUEUE_FLAG_DAX) can be mounted with dax
	 */
	rc = pmem_add_dax(dev, pmem, disk);
	if (rc) {
		put_disk(disk);
		return rc;
	}
	rc = device_add_disk(dev, disk, pmem_disk_groups);
	if (rc) {
		dev_err(dev, "could not add disk %s: %d\n", disk->disk_name, rc);
		if (pmem->dax_dev) {
			dax_remove_host(disk);
			kill_dax(pmem->dax_dev);
			put_dax(pmem->dax_dev);
		}
		put_disk(disk);
		return rc;
	}
	dev_set_drvdata(dev, pmem);
	return devm_add_action_or_reset(dev, pmem_release_disk, pmem);
}

/*
 * fsdax: a pfn device's namespace, its struct pages made by
 * devm_memremap_pages() (in the namespace or in RAM, as its info block
 * says), the disk over the data area behind them.
 */
static int pmem_attach_pfn(struct device *dev)
{
	struct nd_pfn *nd_pfn = to_nd_pfn(dev);
	struct pmem_device *pmem;
	struct device *ndns;
	void *addr;
	u64 skip;
	int rc;

	pmem = devm_kzalloc(dev, sizeof(*pmem), GFP_KERNEL);
	if (!pmem)
		return -ENOMEM;
	rc = nvdimm_setup_pfn(dev, &pmem->pgmap);
	if (rc)
		return rc;
	ndns = nd_pfn->cd.ndns;
	if (!devm_request_mem_region(dev, pmem->pgmap.range.start,
				     range_len(&pmem->pgmap.range),
				     dev_name(ndns))) {
		dev_warn(dev, "could not reserve %s\n", dev_name(ndns));
		return -EBUSY;
	}
	pmem->pgmap.type = MEMORY_DEVICE_FS_DAX;
	addr = devm_memremap_pages(dev, &pmem->pgmap);
	if (IS_ERR(addr)) {
		dev_err(dev, "could not make struct pages for %s: %ld\n",
			dev_name(ndns), PTR_ERR(addr));
		return PTR_ERR(addr);
	}
	/*
	 * The mapping starts at the range; the disk is the data behind
	 * dataoff, to the range's end, as 6.1 sizes it: never the media's
	 * npfns (nvdimm_setup_pfn() checked that it fits).
	 */
	skip = nd_pfn->dataoff;
	pmem->phys_addr = pmem->pgmap.range.start + skip;
	pmem->size = range_len(&pmem->pgmap.range) - skip;
	pmem->virt_addr = addr + skip;
	/* a range the kernel has a memory map for can be mapped by users */
	if (nvdimm_range_is_pmem(to_nd_region(dev->parent),
				 pmem->pgmap.range.start,
				 range_len(&pmem->pgmap.range)) ||
	    pmem_test_dax_range(pmem->phys_addr))
		pmem->pfn_flags = PFN_DEV | PFN_MAP;
	else
		dev_info(dev, "%s is not system persistent memory: no DAX\n",
			 dev_name(ndns));
	return pmem_attach_disk(dev, ndns, pmem);
}

static int nd_pmem_probe(struct device *dev)
{
	struct pmem_device *pmem;
	struct range range;
	int rc;

	/* a btt device of a PMEM or IO region: the BTT over its namespace */
	if (is_nd_btt(dev))
		return nvdimm_namespace_attach_btt(dev);
	if (is_nd_pfn(dev))
		return pmem_attach_pfn(dev);
	if (!is_nd_namespace_io(dev) && !is_nd_namespace_pmem(dev))
		return -ENODEV;
	rc = nd_namespace_common_probe(dev, dev, &range);
	if (rc)
		return rc;
	rc = nd_namespace_probe_raw(dev);
	if (rc)
		return rc;
	pmem = devm_kzalloc(dev, sizeof(*pmem), GFP_KERNEL);
	if (!pmem)
		return -ENOMEM;
	pmem->phys_addr = range.start;
	pmem->size = range_len(&range);
	/* mapped by nd_namespace_probe_raw() for autodetect, kept */
	pmem->virt_addr = to_nd_namespace_io(dev)->virt;
	if (nd_namespace_maps_pages(dev)) {
		void *addr;

		/* struct pages in RAM for the whole range (no pfn device) */
		pmem->pgmap.range = range;
		pmem->pgmap.nr_range = 1;
		pmem->pgmap.type = MEMORY_DEVICE_FS_DAX;
		addr = devm_memremap_pages(dev, &pmem->pgmap);
		if (IS_ERR(addr)) {
			dev_err(dev, "could not make struct pages for [%#llx, %#llx]: %ld\n",
				range.start, range.end, PTR_ERR(addr));
			return PTR_ERR(addr);
		}
		pmem->virt_addr = addr;
		pmem->pfn_flags = PFN_DEV | PFN_MAP;
	}
	return pmem_attach_disk(dev, dev, pmem);
}

static void nd_pmem_notify(struct device *dev, enum nvdimm_event event)
{
	struct pmem_device *pmem;

	if (is_nd_btt(dev)) {
		if (event == NVDIMM_REVALIDATE_RO)
			nd_btt_revalidate_ro(dev);
		return;
	}
	pmem = dev_get_drvdata(dev);
	if (!pmem)
		return;
	if (event == NVDIMM_REVALIDATE_RO)
		set_disk_ro(pmem->disk, nd_region_read_only(dev));
	else if (event == NVDIMM_REVALIDATE_POISON)
		pmem_badblocks_populate(pmem);
}

static struct nd_device_driver nd_pmem_driver = {
	.probe = nd_pmem_probe,
	.notify = nd_pmem_notify,
	.drv = {
		.name = "nd_pmem",
	},
	.type = ND_DRIVER_NAMESPACE_IO | ND_DRIVER_NAMESPACE_PMEM,
};

module_nd_driver(nd_pmem_driver);

MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("nd_pmem: block device over persistent memory namespaces");
MODULE_AUTHOR("libnvdimm developers");
MODULE_ALIAS("pmem");
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_NAMESPACE_IO);
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_NAMESPACE_PMEM);
