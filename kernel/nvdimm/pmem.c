// SPDX-License-Identifier: GPL-2.0
/*
 * nd_pmem: a block device (/dev/pmemN) over a namespace's system-physical
 * address range, or over the BTT of a btt device that claimed one
 * (/dev/pmemNs, nd_btt.ko).
 *
 * Writes use non-temporal stores (memcpy_flushcache) so that, once ordered
 * by nvdimm_flush(), they sit in the platform's persistence domain; a
 * flush request (REQ_PREFLUSH) and a FUA write both end in nvdimm_flush().
 * Reads use copy_mc_to_kernel(): a poisoned line ends the bio with an I/O
 * error instead of a machine-check crash.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include "nd.h"

/**
 * struct pmem_device - one attached namespace
 * @phys_addr: first system-physical address
 * @size: bytes
 * @virt_addr: kernel mapping of the range
 * @disk: the block device
 * @nd_region: region to flush
 */
struct pmem_device {
	phys_addr_t phys_addr;
	size_t size;
	void *virt_addr;
	struct gendisk *disk;
	struct nd_region *nd_region;
};

static blk_status_t pmem_do_read(struct pmem_device *pmem, struct page *page,
				 unsigned int off, unsigned int len,
				 phys_addr_t pmem_off)
{
	void *mem = kmap_local_page(page);
	unsigned long rem;

	rem = copy_mc_to_kernel(mem + off, pmem->virt_addr + pmem_off, len);
	kunmap_local(mem);
	return rem ? BLK_STS_IOERR : BLK_STS_OK;
}

static void pmem_do_write(struct pmem_device *pmem, struct page *page,
			  unsigned int off, unsigned int len,
			  phys_addr_t pmem_off)
{
	void *mem = kmap_local_page(page);

	memcpy_flushcache(pmem->virt_addr + pmem_off, mem + off, len);
	kunmap_local(mem);
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

	if (bio->bi_opf & REQ_PREFLUSH)
		nvdimm_flush(pmem->nd_region);

	acct = blk_queue_io_stat(bio->bi_bdev->bd_disk->queue);
	if (acct)
		start = bio_start_io_acct(bio);
	bio_for_each_segment(bv, bio, iter) {
		phys_addr_t pmem_off = (phys_addr_t)iter.bi_sector << SECTOR_SHIFT;

		if (write) {
			pmem_do_write(pmem, bv.bv_page, bv.bv_offset,
				      bv.bv_len, pmem_off);
		} else {
			rc = pmem_do_read(pmem, bv.bv_page, bv.bv_offset,
					  bv.bv_len, pmem_off);
			if (rc)
				break;
		}
	}
	if (acct)
		bio_end_io_acct(bio, start);

	if (bio->bi_opf & REQ_FUA)
		nvdimm_flush(pmem->nd_region);

	bio->bi_status = rc;
	bio_endio(bio);
}

static const struct block_device_operations pmem_fops = {
	.owner = THIS_MODULE,
	.submit_bio = pmem_submit_bio,
};

static void pmem_release_disk(void *data)
{
	struct pmem_device *pmem = data;

	del_gendisk(pmem->disk);
	put_disk(pmem->disk);
}

static int pmem_attach_disk(struct device *dev, u64 start, u64 size)
{
	struct pmem_device *pmem;
	struct request_queue *q;
	struct gendisk *disk;
	char name[DISK_NAME_LEN];
	int rc;

	pmem = devm_kzalloc(dev, sizeof(*pmem), GFP_KERNEL);
	if (!pmem)
		return -ENOMEM;
	pmem->phys_addr = start;
	pmem->size = size;
	pmem->nd_region = to_nd_region(dev->parent);
	/* mapped by nd_pmem_probe() for autodetect, kept for the disk */
	pmem->virt_addr = to_nd_namespace_io(dev)->virt;

	disk = blk_alloc_disk(dev_to_node(dev));
	if (!disk)
		return -ENOMEM;
	pmem->disk = disk;
	q = disk->queue;
	blk_queue_write_cache(q, true, true);
	blk_queue_physical_block_size(q, PAGE_SIZE);
	blk_queue_logical_block_size(q, SECTOR_SIZE);
	blk_queue_max_hw_sectors(q, UINT_MAX);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);

	disk->fops = &pmem_fops;
	disk->private_data = pmem;
	strscpy(disk->disk_name, nd_namespace_disk_name(dev, name, sizeof(name)),
		DISK_NAME_LEN);
	set_capacity(disk, pmem->size >> SECTOR_SHIFT);
	set_disk_ro(disk, nd_region_read_only(dev));

	rc = device_add_disk(dev, disk, NULL);
	if (rc) {
		dev_err(dev, "could not add disk %s: %d\n", disk->disk_name, rc);
		put_disk(disk);
		return rc;
	}
	dev_set_drvdata(dev, pmem);
	return devm_add_action_or_reset(dev, pmem_release_disk, pmem);
}

static int nd_pmem_probe(struct device *dev)
{
	struct range range;
	int rc;

	/* a btt device of a PMEM or IO region: the BTT over its namespace */
	if (is_nd_btt(dev))
		return nvdimm_namespace_attach_btt(dev);
	if (!is_nd_namespace_io(dev) && !is_nd_namespace_pmem(dev))
		return -ENODEV;
	rc = nd_namespace_common_probe(dev, dev, &range);
	if (rc)
		return rc;
	rc = nd_namespace_probe_raw(dev);
	if (rc)
		return rc;
	return pmem_attach_disk(dev, range.start, range_len(&range));
}

static void nd_pmem_notify(struct device *dev, enum nvdimm_event event)
{
	struct pmem_device *pmem;

	if (event != NVDIMM_REVALIDATE_RO)
		return;
	if (is_nd_btt(dev)) {
		nd_btt_revalidate_ro(dev);
		return;
	}
	pmem = dev_get_drvdata(dev);
	if (pmem)
		set_disk_ro(pmem->disk, nd_region_read_only(dev));
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
MODULE_DESCRIPTION("nd_pmem: block device over persistent memory namespaces");
MODULE_AUTHOR("libnvdimm developers");
MODULE_ALIAS("pmem");
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_NAMESPACE_IO);
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_NAMESPACE_PMEM);
