// SPDX-License-Identifier: GPL-2.0
/*
 * nd_blk: a block device (/dev/ndblkR.N) over a BLK namespace, and the
 * BTT (/dev/ndblkR.Ns, nd_btt.ko) of a btt device of a BLK region.
 *
 * Every byte moves through the DIMM's block windows: the core's byte
 * access (nvdimm_read_bytes() / nvdimm_write_bytes()) walks the
 * namespace's DPA extents and hands each piece to the provider's
 * aperture I/O under a lane.  A write is durable when it returns, so a
 * flush request has nothing left to drain beyond nvdimm_flush().
 *
 * Sector formats (the namespace's sector_size, v4.2's list): the disk's
 * logical block is 512 bytes for 512, 520 and 528, 4096 for 4096, 4104,
 * 4160 and 4224; the bytes beyond it are per-sector metadata, stored on
 * the media right after the sector's data, each sector taking lbasize
 * rounded up to 64 bytes (../shared/docs/blk-aperture.md §5).  The
 * metadata is the disk's integrity tuple (blk_integrity, the block
 * layer's built-in "nop" profile: tuple and tag size = metadata bytes),
 * so a kernel user of the integrity interface reads back what it wrote;
 * a bio without a payload writes zeros there.  Unlike v4.2, data is
 * always at its lbasize stride, with or without a payload.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/blkdev.h>
#include <linux/blk-integrity.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include "nd.h"

#define ND_BLK_LBA_ALIGN 64	/* a sector's data + metadata slot */

/**
 * struct nd_blk_device - one enabled BLK namespace
 * @ndns: the namespace
 * @nd_region: its region (flush)
 * @disk: the block device
 * @sector_size: logical block size (512 or 4096)
 * @meta: metadata bytes per sector (lbasize - @sector_size)
 * @stride: bytes a sector takes on the namespace (lbasize rounded up)
 */
struct nd_blk_device {
	struct device *ndns;
	struct nd_region *nd_region;
	struct gendisk *disk;
	u32 sector_size;
	u32 meta;
	u32 stride;
};

static const u32 nd_blk_lbasizes[] = { 512, 520, 528, 4096, 4104, 4160, 4224 };

static bool nd_blk_lbasize_ok(u64 lbasize)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nd_blk_lbasizes); i++)
		if (lbasize == nd_blk_lbasizes[i])
			return true;
	return false;
}

/* move @len metadata bytes between the bio's integrity payload and @buf */
static void nd_blk_meta_xfer(struct bio_integrity_payload *bip, void *buf,
			     unsigned int len, bool write)
{
	while (len && bip->bip_iter.bi_size) {
		struct bio_vec bv = bvec_iter_bvec(bip->bip_vec, bip->bip_iter);
		unsigned int n = min(len, bv.bv_len);
		void *p = bvec_kmap_local(&bv);

		if (write)
			memcpy(buf, p, n);
		else
			memcpy(p, buf, n);
		kunmap_local(p);
		bvec_iter_advance(bip->bip_vec, &bip->bip_iter, n);
		buf += n;
		len -= n;
	}
	/* a payload shorter than the data: the rest reads/writes as zeros */
	if (len && write)
		memset(buf, 0, len);
}

/*
 * One bio segment: whole sectors (dma alignment = sector size), data at
 * each sector's stride, metadata right behind it.
 */
static int nd_blk_do_bvec(struct nd_blk_device *blk, struct bio *bio,
			  struct bio_vec *bv, sector_t sector, bool write)
{
	struct bio_integrity_payload *bip = bio_integrity(bio);
	u64 lba = (sector << SECTOR_SHIFT) >> ilog2(blk->sector_size);
	void *mem = bvec_kmap_local(bv);
	u8 meta[128];	/* the largest metadata: 4224 - 4096 */
	unsigned int done;
	int rc = 0;

	if (!blk->meta) {
		u64 off = lba * blk->sector_size;

		rc = write ? nvdimm_write_bytes(blk->ndns, off, mem, bv->bv_len) :
			     nvdimm_read_bytes(blk->ndns, off, mem, bv->bv_len);
		kunmap_local(mem);
		return rc;
	}
	for (done = 0; done < bv->bv_len && !rc;
	     done += blk->sector_size, lba++) {
		u64 off = lba * blk->stride;

		if (write) {
			rc = nvdimm_write_bytes(blk->ndns, off, mem + done,
						blk->sector_size);
			if (rc)
				break;
			if (bip)
				nd_blk_meta_xfer(bip, meta, blk->meta, true);
			else
				memset(meta, 0, blk->meta);
			rc = nvdimm_write_bytes(blk->ndns, off + blk->sector_size,
						meta, blk->meta);
		} else {
			rc = nvdimm_read_bytes(blk->ndns, off, mem + done,
					       blk->sector_size);
			if (rc || !bip)
				continue;
			rc = nvdimm_read_bytes(blk->ndns, off + blk->sector_size,
					       meta, blk->meta);
			if (!rc)
				nd_blk_meta_xfer(bip, meta, blk->meta, false);
		}
	}
	kunmap_local(mem);
	return rc;
}

static void nd_blk_submit_bio(struct bio *bio)
{
	struct nd_blk_device *blk = bio->bi_bdev->bd_disk->private_data;
	bool write = op_is_write(bio_op(bio));
	struct bvec_iter iter;
	struct bio_vec bv;
	int rc = 0;

	/* false: the payload could not be set up, the bio is already ended */
	if (!bio_integrity_prep(bio))
		return;
	if (bio->bi_opf & REQ_PREFLUSH)
		nvdimm_flush(blk->nd_region);
	bio_for_each_segment(bv, bio, iter) {
		rc = nd_blk_do_bvec(blk, bio, &bv, iter.bi_sector, write);
		if (rc) {
			dev_info_ratelimited(blk->ndns, "%s error %d at sector %llu\n",
					     write ? "write" : "read", rc,
					     (unsigned long long)iter.bi_sector);
			break;
		}
	}
	if (bio->bi_opf & REQ_FUA)
		nvdimm_flush(blk->nd_region);
	bio->bi_status = errno_to_blk_status(rc);
	bio_endio(bio);
}

static const struct block_device_operations nd_blk_fops = {
	.owner = THIS_MODULE,
	.submit_bio = nd_blk_submit_bio,
};

static void nd_blk_release_disk(void *data)
{
	struct nd_blk_device *blk = data;

	del_gendisk(blk->disk);
	put_disk(blk->disk);
}

static int nd_blk_attach_disk(struct device *dev, u64 lbasize)
{
	u64 nlba = div_u64(nvdimm_namespace_capacity(dev),
			   round_up((u32)lbasize, ND_BLK_LBA_ALIGN));
	struct nd_blk_device *blk;
	struct request_queue *q;
	struct gendisk *disk;
	char name[DISK_NAME_LEN];
	int rc;

	blk = devm_kzalloc(dev, sizeof(*blk), GFP_KERNEL);
	if (!blk)
		return -ENOMEM;
	blk->ndns = dev;
	blk->nd_region = to_nd_region(dev->parent);
	blk->sector_size = lbasize < 4096 ? 512 : 4096;
	blk->meta = lbasize - blk->sector_size;
	blk->stride = round_up((u32)lbasize, ND_BLK_LBA_ALIGN);

	disk = blk_alloc_disk(dev_to_node(dev));
	if (!disk)
		return -ENOMEM;
	blk->disk = disk;
	q = disk->queue;
	blk_queue_write_cache(q, true, true);
	blk_queue_logical_block_size(q, blk->sector_size);
	blk_queue_physical_block_size(q, blk->sector_size);
	/* every segment holds whole sectors (nd_blk_do_bvec()) */
	blk_queue_dma_alignment(q, blk->sector_size - 1);
	blk_queue_max_hw_sectors(q, UINT_MAX);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	disk->fops = &nd_blk_fops;
	disk->private_data = blk;
	strscpy(disk->disk_name, nd_namespace_disk_name(dev, name, sizeof(name)),
		DISK_NAME_LEN);
	set_disk_ro(disk, nd_region_read_only(dev));
	if (blk->meta && IS_ENABLED(CONFIG_BLK_DEV_INTEGRITY)) {
		/*
		 * After the logical block size, which sets the integrity
		 * interval; before the disk is added, so the first bio (the
		 * partition scan's) already carries a payload.
		 */
		struct blk_integrity bi = {
			.tuple_size = blk->meta,
			.tag_size = blk->meta,
		};

		blk_integrity_register(disk, &bi);
	}
	set_capacity(disk, nlba << (ilog2(blk->sector_size) - SECTOR_SHIFT));

	rc = device_add_disk(dev, disk, NULL);
	if (rc) {
		dev_err(dev, "could not add disk %s: %d\n", disk->disk_name, rc);
		put_disk(disk);
		return rc;
	}
	dev_set_drvdata(dev, blk);
	dev_dbg(dev, "%s: %llu sectors of %u bytes + %u metadata\n",
		disk->disk_name, nlba, blk->sector_size, blk->meta);
	return devm_add_action_or_reset(dev, nd_blk_release_disk, blk);
}

static int nd_blk_probe(struct device *dev)
{
	struct range range;
	u64 lbasize;
	int rc;

	/* a btt device of a BLK region: the BTT over its namespace */
	if (is_nd_btt(dev))
		return nvdimm_namespace_attach_btt(dev);
	if (!is_nd_namespace_blk(dev))
		return -ENODEV;
	rc = nd_namespace_common_probe(dev, dev, &range);
	if (rc)
		return rc;
	lbasize = to_nd_namespace_blk(dev)->lbl.lbasize;
	if (!nd_blk_lbasize_ok(lbasize)) {
		dev_dbg(dev, "sector_size %llu: not a BLK format\n", lbasize);
		return -ENXIO;
	}
	if (nvdimm_namespace_capacity(dev) < round_up((u32)lbasize,
						      ND_BLK_LBA_ALIGN)) {
		dev_dbg(dev, "smaller than one sector\n");
		return -ENXIO;
	}
	rc = nd_namespace_probe_raw(dev);
	if (rc)
		return rc;
	return nd_blk_attach_disk(dev, lbasize);
}

static void nd_blk_notify(struct device *dev, enum nvdimm_event event)
{
	struct nd_blk_device *blk;

	if (event != NVDIMM_REVALIDATE_RO)
		return;
	if (is_nd_btt(dev)) {
		nd_btt_revalidate_ro(dev);
		return;
	}
	blk = dev_get_drvdata(dev);
	if (blk)
		set_disk_ro(blk->disk, nd_region_read_only(dev));
}

static struct nd_device_driver nd_blk_driver = {
	.probe = nd_blk_probe,
	.notify = nd_blk_notify,
	.drv = {
		.name = "nd_blk",
	},
	.type = ND_DRIVER_NAMESPACE_BLK_MASK,
};

module_nd_driver(nd_blk_driver);

MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("nd_blk: block device over BLK namespaces (NVDIMM block windows)");
MODULE_AUTHOR("libnvdimm developers");
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_NAMESPACE_BLK);
