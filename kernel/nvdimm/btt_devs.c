// SPDX-License-Identifier: GPL-2.0
/*
 * btt devices (bttR.N): the sector-atomic personality of a namespace.
 *
 * Their life cycle, seed, uuid and namespace are those of every
 * claiming device (claim_devs.c); here: the sector size, the size once
 * attached, and autodetect (nd_btt_probe()).  A btt binds to the
 * namespace driver of its region type (nd_pmem, nd_blk), which attaches
 * the BTT through nd_btt.ko.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include "nd-core.h"
#include "btt-format.h"

static_assert(offsetof(struct nd_btt, cd) == 0);

/* sector sizes a btt offers (the v4.2 list), 0-terminated */
static const unsigned long nd_btt_lbasizes[] = {
	512, 520, 528, 4096, 4104, 4160, 4224, 0
};

static void nd_btt_reset(struct nd_claim_dev *cd)
{
	to_nd_btt(&cd->dev)->lbasize = 0;
}

static int nd_btt_fits(struct nd_claim_dev *cd, struct device *ndns)
{
	u64 size = to_nd_namespace_io(ndns)->res_size, rawsize;

	if (btt_rawsize(size, nd_namespace_btt_start(ndns), &rawsize) ||
	    btt_arena_count(rawsize) < 0) {
		dev_dbg(&cd->dev, "namespace: %s holds %llu bytes, a BTT needs at least 16 MiB\n",
			dev_name(ndns), size);
		return -ENXIO;
	}
	return 0;
}

static ssize_t sector_size_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	ssize_t rc;

	device_lock(dev);
	rc = nd_size_select_show(to_nd_btt(dev)->lbasize, nd_btt_lbasizes,
				 buf);
	device_unlock(dev);
	return rc;
}

static int nd_btt_sector_size_op(struct nd_claim_dev *cd, const char *buf)
{
	unsigned long val;

	if (kstrtoul(buf, 0, &val) || !btt_lbasize_supported(val)) {
		dev_dbg(&cd->dev, "sector_size: '%.*s' is not one of the supported sizes\n",
			(int)min_t(size_t, strcspn(buf, "\n"), 16), buf);
		return -EINVAL;
	}
	to_nd_btt(&cd->dev)->lbasize = val;
	return 0;
}

static ssize_t sector_size_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	return nd_claim_dev_store(dev, "sector_size", nd_btt_sector_size_op,
				  buf, len);
}
static DEVICE_ATTR_RW(sector_size);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	ssize_t rc;

	device_lock(dev);
	if (dev->driver)
		rc = sysfs_emit(buf, "%llu\n", to_nd_btt(dev)->size);
	else
		rc = -ENXIO;
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_RO(size);

static ssize_t log_zero_flags_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "Y\n");
}
static DEVICE_ATTR_RO(log_zero_flags);

static struct attribute *nd_btt_attributes[] = {
	&dev_attr_sector_size.attr,
	&dev_attr_size.attr,
	&dev_attr_log_zero_flags.attr,
	NULL,
};

static const struct attribute_group nd_btt_attribute_group = {
	.attrs = nd_btt_attributes,
};

static const struct attribute_group *nd_btt_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_claim_attribute_group,
	&nd_btt_attribute_group,
	NULL,
};

const struct device_type nd_btt_device_type = {
	.name = "nd_btt",
	.release = nd_claim_dev_release,
	.groups = nd_btt_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_btt_device_type);

const struct nd_claim_kind nd_btt_kind = {
	.name = "btt",
	.type = &nd_btt_device_type,
	.class = ND_CLAIM_BTT,
	.slot = ND_SLOT_BTT,
	.size = sizeof(struct nd_btt),
	.reset = nd_btt_reset,
	.fits = nd_btt_fits,
};

/*
 * Autodetect: the info block a namespace's BTT would start with, or the
 * reason there is none.  Returns 0 with @info filled when it is valid.
 */
static int nd_btt_read_info(struct device *ndns_dev, u64 start,
			    struct btt_info *info)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	enum btt_info_verdict v, v2;
	struct btt_arena arena;
	struct btt_ns ns;
	u8 raw_uuid[16];
	u64 rawsize;
	int rc;

	ns.size = nsio->res_size;
	ns.start = start;
	ns.uuid = NULL;
	if (!is_nd_namespace_io(ndns_dev)) {
		export_uuid(raw_uuid, &to_nd_namespace_lbl(ndns_dev)->uuid);
		ns.uuid = raw_uuid;
	}
	if (btt_rawsize(ns.size, start, &rawsize) ||
	    btt_arena_count(rawsize) < 0)
		return -ENODEV;		/* too small to hold a BTT */
	rc = nvdimm_read_bytes(ndns_dev, start, info, sizeof(*info));
	if (rc) {
		dev_warn(ndns_dev, "cannot read a BTT info block at %llu: %d\n",
			 start, rc);
		return -ENODEV;
	}
	v = btt_info_check(info, &ns, 0, &arena);
	if (v == BTT_INFO_VALID)
		return 0;
	if (v == BTT_INFO_BAD_SIG && !memchr_inv(info, 0, sizeof(*info)))
		return -ENODEV;		/* never formatted, or wiped */
	/*
	 * A corrupt or foreign block: say whether the backup could help
	 * (where arena 0's backup lies does not depend on the sector size).
	 */
	if (btt_arena_geometry(rawsize, 512, 0, &arena) ||
	    nvdimm_read_bytes(ndns_dev, start + arena.info2off, info,
			      sizeof(*info)))
		v2 = BTT_INFO_BAD_SIG;
	else
		v2 = btt_info_check(info, &ns, 0, &arena);
	if (v2 == BTT_INFO_VALID)
		dev_warn(ndns_dev, "BTT info block at %llu: %s, its backup is valid: not attached as a btt (ndctl check-namespace --repair restores it)\n",
			 start, btt_info_verdict_name(v));
	else if (v != BTT_INFO_BAD_SIG)
		dev_warn(ndns_dev, "BTT info block at %llu: %s: not attached as a btt\n",
			 start, btt_info_verdict_name(v));
	else
		dev_dbg(ndns_dev, "no BTT at %llu: %s\n", start,
			btt_info_verdict_name(v));
	return -ENODEV;
}

/**
 * nd_btt_probe - claim a namespace for a btt when its media holds one
 * @ndns_dev: the namespace, probing raw (its device lock is held) and
 *	mapped with nvdimm_namespace_bytes_enable()
 *
 * Unless force_raw is set or the namespace is reserved for another
 * personality, reads the info block where this namespace's BTT would
 * start (media-formats §6.2) and, when it is valid, creates a btt device
 * with the sector size and uuid it records and hands it the namespace.
 * The caller then fails its raw probe (-ENXIO); the btt is added and
 * attached once that probe is over.
 *
 * Returns 0 when a btt claimed the namespace, -ENODEV when there is no
 * valid BTT, -ENOMEM, or -ENXIO when the region is going away.
 */
int nd_btt_probe(struct device *ndns_dev)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	struct mutex *lock = &walk_to_nvdimm_bus(ndns_dev)->reconfig_lock;
	u64 start = nd_namespace_btt_start(ndns_dev);
	struct nd_claim_dev *cd;
	struct btt_info *info;
	struct nd_btt *nd_btt;
	int rc;

	if (nsio->force_raw || nsio->claim ||
	    (nsio->claim_class != ND_CLAIM_NONE &&
	     nsio->claim_class != ND_CLAIM_BTT))
		return -ENODEV;
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	rc = nd_btt_read_info(ndns_dev, start, info);
	if (rc)
		goto out;
	mutex_lock(lock);
	cd = nd_region->claim[ND_SLOT_BTT].active ?
		nd_claim_dev_alloc(nd_region, &nd_btt_kind) : ERR_PTR(-ENXIO);
	if (IS_ERR(cd)) {
		rc = PTR_ERR(cd);
	} else {
		nd_btt = to_nd_btt(&cd->dev);
		nd_btt->lbasize = le32_to_cpu(info->external_lbasize);
		import_uuid(&cd->uuid, info->uuid);
		cd->has_uuid = true;
		dev_info(ndns_dev, "BTT %u.%u found at %llu: claimed by %s\n",
			 le16_to_cpu(info->version_major),
			 le16_to_cpu(info->version_minor), start,
			 dev_name(&cd->dev));
		nd_claim_dev_add(cd, ndns_dev);
	}
	mutex_unlock(lock);
out:
	kfree(info);
	return rc;
}
