// SPDX-License-Identifier: GPL-2.0
/*
 * pfn devices (pfnR.N, fsdax) and dax devices (daxR.N, devdax): the
 * personalities that give a PMEM namespace struct pages, so that its
 * memory can be mapped directly (a DAX filesystem on /dev/pmemN, or the
 * device-dax character device /dev/daxR.N).
 *
 * Their life cycle, seed, uuid and namespace are those of every claiming
 * device (claim_devs.c).  Here: the mode (where the struct pages live)
 * and alignment, the info block at offset 4096 of the namespace
 * (pfn-format.c has its format), autodetect at namespace enable
 * (nd_pfn_probe()) and nvdimm_setup_pfn(), which the drivers call from
 * their probe: nd_pmem binds pfn devices, our dax_pmem binds dax devices
 * and hands the range to the device_dax driver.
 *
 * BLK regions have neither: their namespaces have no system-physical
 * range to map.
 */
#include <linux/badblocks.h>
#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pfn.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include "nd-core.h"
#include "pfn-format.h"

static_assert(offsetof(struct nd_pfn, cd) == 0);

/*
 * Alignments the CPU can map a range with, 0-terminated: a page, and a
 * PMD and a PUD when the CPU has huge pages (the 6.1 list).
 */
static void nd_pfn_alignments(unsigned long a[4])
{
	int n = 0;

	a[n++] = PAGE_SIZE;
	if (has_transparent_hugepage()) {
		a[n++] = PMD_SIZE;
		if (IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD))
			a[n++] = PUD_SIZE;
	}
	a[n] = 0;
}

/* a new device's alignment: a PMD when the CPU maps those (6.1's choice) */
static unsigned long nd_pfn_default_align(void)
{
	return has_transparent_hugepage() ? PMD_SIZE : PAGE_SIZE;
}

static bool nd_pfn_align_supported(unsigned long align)
{
	unsigned long a[4];
	int i;

	nd_pfn_alignments(a);
	for (i = 0; a[i]; i++)
		if (a[i] == align)
			return true;
	return false;
}

static void nd_pfn_reset(struct nd_claim_dev *cd)
{
	struct nd_pfn *nd_pfn = to_nd_pfn(&cd->dev);

	nd_pfn->mode = PFN_MODE_NONE;
	nd_pfn->align = nd_pfn_default_align();
}

static u32 nd_pfn_compat_align(void)
{
	return memremap_compat_align();
}

/*
 * A claim needs 16 MiB and room for the smallest layout: the reserve and
 * one page of data behind it, struct pages kept in RAM.
 */
static int nd_pfn_fits(struct nd_claim_dev *cd, struct device *ndns)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns);
	struct pfn_layout l;
	int rc;

	/* 6.1's floor for any personality */
	if (nsio->res_size < SZ_16M) {
		dev_dbg(&cd->dev, "namespace: %s holds %llu bytes: too small to host a %s (16 MiB at least)\n",
			dev_name(ndns), nsio->res_size, cd->kind->name);
		return -ENXIO;
	}

	rc = pfn_layout_compute(nsio->res_start, nsio->res_size, PFN_MODE_RAM,
				PAGE_SIZE, nd_pfn_compat_align(), PAGE_SIZE,
				&l);
	if (rc == -ENXIO)
		dev_dbg(&cd->dev, "namespace: %s holds %llu bytes: too small for a %s info block and data\n",
			dev_name(ndns), nsio->res_size, cd->kind->name);
	else if (rc)
		dev_dbg(&cd->dev, "namespace: %s at %#llx cannot be mapped in %u-byte sections\n",
			dev_name(ndns), nsio->res_start, nd_pfn_compat_align());
	return rc;
}

/* PMEM regions (and the region of an io namespace) only */
static bool nd_pfn_wanted(struct nd_region *nd_region)
{
	return !is_nd_blk(nd_region);
}

static ssize_t mode_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	static const char *const names[] = {
		[PFN_MODE_NONE] = "none",
		[PFN_MODE_RAM] = "ram",
		[PFN_MODE_PMEM] = "pmem",
	};
	u32 mode = READ_ONCE(to_nd_pfn(dev)->mode);

	return sysfs_emit(buf, "%s\n", mode < ARRAY_SIZE(names) ?
			  names[mode] : "none");
}

static int nd_pfn_mode_op(struct nd_claim_dev *cd, const char *buf)
{
	size_t n = strcspn(buf, "\n");
	u32 mode;

	if (n == 4 && !strncmp(buf, "pmem", 4)) {
		mode = PFN_MODE_PMEM;
	} else if (n == 3 && !strncmp(buf, "ram", 3)) {
		mode = PFN_MODE_RAM;
	} else if (n == 4 && !strncmp(buf, "none", 4)) {
		mode = PFN_MODE_NONE;
	} else {
		dev_dbg(&cd->dev, "mode: '%.*s' is not pmem, ram or none\n",
			(int)min_t(size_t, n, 16), buf);
		return -EINVAL;
	}
	WRITE_ONCE(to_nd_pfn(&cd->dev)->mode, mode);
	return 0;
}

static ssize_t mode_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	return nd_claim_dev_store(dev, "mode", nd_pfn_mode_op, buf, len);
}
static DEVICE_ATTR_RW(mode);

static ssize_t align_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(to_nd_pfn(dev)->align));
}

static int nd_pfn_align_op(struct nd_claim_dev *cd, const char *buf)
{
	unsigned long val;

	if (kstrtoul(buf, 0, &val) || !nd_pfn_align_supported(val)) {
		dev_dbg(&cd->dev, "align: '%.*s' is not one of supported_alignments\n",
			(int)min_t(size_t, strcspn(buf, "\n"), 24), buf);
		return -EINVAL;
	}
	WRITE_ONCE(to_nd_pfn(&cd->dev)->align, val);
	return 0;
}

static ssize_t align_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	return nd_claim_dev_store(dev, "align", nd_pfn_align_op, buf, len);
}
static DEVICE_ATTR_RW(align);

static ssize_t supported_alignments_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	unsigned long a[4];

	nd_pfn_alignments(a);
	return nd_size_select_show(0, a, buf);
}
static DEVICE_ATTR_RO(supported_alignments);

/* first data byte: the mapped range starts start_pad into the namespace */
static u64 nd_pfn_data_start(struct nd_pfn *nd_pfn)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(nd_pfn->cd.ndns);

	return nsio->res_start + nd_pfn->start_pad + nd_pfn->dataoff;
}

static ssize_t resource_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	ssize_t rc;

	device_lock(dev);
	if (dev->driver)
		rc = sysfs_emit(buf, "%#llx\n",
				nd_pfn_data_start(to_nd_pfn(dev)));
	else
		rc = -ENXIO;
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_ADMIN_RO(resource);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct nd_pfn *nd_pfn = to_nd_pfn(dev);
	ssize_t rc;

	device_lock(dev);
	if (dev->driver)
		rc = sysfs_emit(buf, "%llu\n", nd_pfn->npfns << PAGE_SHIFT);
	else
		rc = -ENXIO;
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_RO(size);

static struct attribute *nd_pfn_attributes[] = {
	&dev_attr_mode.attr,
	&dev_attr_align.attr,
	&dev_attr_supported_alignments.attr,
	&dev_attr_resource.attr,
	&dev_attr_size.attr,
	NULL,
};

static const struct attribute_group nd_pfn_attribute_group = {
	.attrs = nd_pfn_attributes,
};

static const struct attribute_group *nd_pfn_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_claim_attribute_group,
	&nd_pfn_attribute_group,
	NULL,
};

const struct device_type nd_pfn_device_type = {
	.name = "nd_pfn",
	.release = nd_claim_dev_release,
	.groups = nd_pfn_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_pfn_device_type);

const struct device_type nd_dax_device_type = {
	.name = "nd_dax",
	.release = nd_claim_dev_release,
	.groups = nd_pfn_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_dax_device_type);

const struct nd_claim_kind nd_pfn_kind = {
	.name = "pfn",
	.type = &nd_pfn_device_type,
	.class = ND_CLAIM_PFN,
	.slot = ND_SLOT_PFN,
	.size = sizeof(struct nd_pfn),
	.reset = nd_pfn_reset,
	.fits = nd_pfn_fits,
	.wanted = nd_pfn_wanted,
};

const struct nd_claim_kind nd_dax_kind = {
	.name = "dax",
	.type = &nd_dax_device_type,
	.class = ND_CLAIM_DAX,
	.slot = ND_SLOT_DAX,
	.size = sizeof(struct nd_pfn),
	.reset = nd_pfn_reset,
	.fits = nd_pfn_fits,
	.wanted = nd_pfn_wanted,
};

/* the parent uuid an info block of @ndns_dev records (null for io) */
static void nd_pfn_parent_uuid(struct device *ndns_dev, u8 raw[16])
{
	if (is_nd_namespace_io(ndns_dev))
		memset(raw, 0, 16);
	else
		export_uuid(raw, &to_nd_namespace_lbl(ndns_dev)->uuid);
}

/*
 * Read and check the info block of a mapped namespace.  Returns
 * pfn_sb_check()'s verdict (or the read's errno) with @why set.
 */
static int nd_pfn_read_sb(struct device *ndns_dev, bool dax,
			  struct nd_pfn_sb *sb, struct pfn_layout *l,
			  const char **why)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	u8 parent[16];
	int rc;

	*why = "namespace too small";
	if (nsio->res_size < PFN_RESERVE)
		return -ENODEV;
	rc = nvdimm_read_bytes(ndns_dev, PFN_SB_OFFSET, sb, sizeof(*sb));
	if (rc) {
		*why = "unreadable";
		return rc;
	}
	nd_pfn_parent_uuid(ndns_dev, parent);
	return pfn_sb_check(sb, dax, parent, nsio->res_start, nsio->res_size,
			    PAGE_SIZE, nd_pfn_compat_align(), l, why);
}

/**
 * nd_pfn_probe - claim a namespace for a pfn or dax device when its
 *	media holds one
 * @ndns_dev: the namespace, probing raw (its device lock is held) and
 *	mapped with nvdimm_namespace_bytes_enable()
 * @dax: look for a dax (devdax) rather than a pfn (fsdax) info block
 *
 * As nd_btt_probe(): unless force_raw is set, the namespace is claimed
 * or reserved for another personality, a valid info block at offset
 * 4096 makes a new device with its uuid, mode and alignment that claims
 * the namespace.  A block with the right signature that is not valid is
 * logged and left alone: the namespace is attached raw (when nothing
 * reserves it), nothing is written.
 *
 * Returns 0 when a device claimed the namespace, -ENODEV when there is
 * no valid info block, -ENOMEM, or -ENXIO when the region is going away.
 */
int nd_pfn_probe(struct device *ndns_dev, bool dax)
{
	const struct nd_claim_kind *kind = dax ? &nd_dax_kind : &nd_pfn_kind;
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns_dev);
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	struct mutex *lock = &walk_to_nvdimm_bus(ndns_dev)->reconfig_lock;
	struct nd_claim_dev *cd;
	struct nd_pfn_sb *sb;
	struct nd_pfn *nd_pfn;
	struct pfn_layout l;
	const char *why;
	int rc;

	if (nsio->force_raw || nsio->claim || !kind->wanted(nd_region) ||
	    (nsio->claim_class != ND_CLAIM_NONE &&
	     nsio->claim_class != kind->class))
		return -ENODEV;
	sb = kmalloc(sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	rc = nd_pfn_read_sb(ndns_dev, dax, sb, &l, &why);
	if (rc == -EINVAL) {
		dev_warn(ndns_dev, "%s info block at %u: %s: not attached as %s (left as it is)\n",
			 kind->name, PFN_SB_OFFSET, why,
			 dax ? "devdax" : "fsdax");
		rc = -ENODEV;
	} else if (rc == -ENXIO) {
		dev_dbg(ndns_dev, "%s info block at %u: %s\n", kind->name,
			PFN_SB_OFFSET, why);
		rc = -ENODEV;
	} else if (rc && rc != -ENODEV) {
		dev_warn(ndns_dev, "cannot read a %s info block: %d\n",
			 kind->name, rc);
		rc = -ENODEV;
	}
	if (rc)
		goto out;
	mutex_lock(lock);
	cd = nd_region->claim[kind->slot].active ?
		nd_claim_dev_alloc(nd_region, kind) : ERR_PTR(-ENXIO);
	if (IS_ERR(cd)) {
		rc = PTR_ERR(cd);
	} else {
		nd_pfn = to_nd_pfn(&cd->dev);
		nd_pfn->mode = l.mode;
		nd_pfn->align = l.align;
		import_uuid(&cd->uuid, sb->uuid);
		cd->has_uuid = true;
		dev_info(ndns_dev, "%s info block %u.%u found: claimed by %s\n",
			 kind->name, le16_to_cpu(sb->version_major),
			 le16_to_cpu(sb->version_minor), dev_name(&cd->dev));
		nd_claim_dev_add(cd, ndns_dev);
	}
	mutex_unlock(lock);
out:
	kfree(sb);
	return rc;
}

/*
 * The info block a configured device attaches with: the one on the media
 * when it is this device's, else a new one written now.  Called with the
 * namespace mapped for byte access.
 */
static int nd_pfn_load_or_format(struct nd_pfn *nd_pfn, struct device *ndns,
				 struct pfn_layout *l)
{
	struct nd_claim_dev *cd = &nd_pfn->cd;
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns);
	bool dax = is_nd_dax(&cd->dev);
	struct device *dev = &cd->dev;
	struct nd_pfn_sb *sb;
	u8 raw_uuid[16], parent[16];
	const char *why;
	int rc;

	sb = kmalloc(sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	export_uuid(raw_uuid, &cd->uuid);
	rc = nd_pfn_read_sb(ndns, dax, sb, l, &why);
	if (!rc && !memcmp(sb->uuid, raw_uuid, 16)) {
		if (l->mode != nd_pfn->mode || l->align != nd_pfn->align) {
			dev_err(dev, "%s: its info block has mode %u align %u, this device mode %u align %lu: not attached\n",
				dev_name(ndns), l->mode, l->align,
				nd_pfn->mode, nd_pfn->align);
			rc = -EOPNOTSUPP;
		}
		goto out;
	}
	if (rc == -EINVAL) {
		/* ours but damaged: a user decides, not a bind */
		dev_err(dev, "%s: info block at %u is damaged (%s): not overwritten; zero the namespace's first 8 KiB to reuse it\n",
			dev_name(ndns), PFN_SB_OFFSET, why);
		goto out;
	}
	if (rc && rc != -ENODEV && rc != -ENXIO) {
		/* unreadable (poisoned media) is not "no info block" */
		dev_err(dev, "%s: info block at %u unreadable (%d): not overwritten\n",
			dev_name(ndns), PFN_SB_OFFSET, rc);
		goto out;
	}
	/* none, another namespace's, or another device's: a new one */
	if (nd_region_read_only(ndns)) {
		dev_err(dev, "%s: region is read-only: cannot write an info block\n",
			dev_name(ndns));
		rc = -ENXIO;
		goto out;
	}
	rc = pfn_layout_compute(nsio->res_start, nsio->res_size, nd_pfn->mode,
				nd_pfn->align, nd_pfn_compat_align(),
				PAGE_SIZE, l);
	if (rc == -ENXIO) {
		dev_err(dev, "%s: %llu bytes leave no data page behind the info block and struct pages (mode %u, align %lu)\n",
			dev_name(ndns), nsio->res_size, nd_pfn->mode,
			nd_pfn->align);
		goto out;
	}
	if (rc) {
		dev_err(dev, "%s: [%#llx, +%#llx) cannot be mapped with align %lu (sections of %u bytes)\n",
			dev_name(ndns), nsio->res_start, nsio->res_size,
			nd_pfn->align, nd_pfn_compat_align());
		goto out;
	}
	nd_pfn_parent_uuid(ndns, parent);
	pfn_sb_build(sb, dax, raw_uuid, parent, l);
	rc = nd_namespace_write_bytes(ndns, PFN_SB_OFFSET, sb, sizeof(*sb));
	if (!rc)
		rc = nvdimm_flush(to_nd_region(dev->parent));
	if (rc)
		dev_err(dev, "%s: writing the info block failed: %d\n",
			dev_name(ndns), rc);
	else
		dev_dbg(dev, "%s: new info block: dataoff %#llx, %llu pages, mode %u, align %u\n",
			dev_name(ndns), l->dataoff, l->npfns, l->mode, l->align);
out:
	kfree(sb);
	return rc;
}

/*
 * PFN_MODE_PMEM: the memory map is written into the namespace, between
 * the info block's reserve and the data, at every attach; its old content
 * is nothing to keep.  Bad sectors the bus knows of there would stop it
 * (or be consumed by it), so, as 6.1 does, they are cleared first: zeroes
 * written page by page over each bad run, through the firmware's Clear
 * Error (nd_namespace_write_bytes()).  Called with the namespace mapped
 * for byte access; a layout that does not fit the namespace is left to
 * nvdimm_setup_pfn()'s check.
 */
static int nd_pfn_clear_memmap_poison(struct nd_pfn *nd_pfn, struct device *ndns,
				      const struct pfn_layout *l)
{
	struct nd_region *nd_region = to_nd_region(ndns->parent);
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns);
	void *zero = page_address(ZERO_PAGE(0));
	u64 off, end, roff;
	int rc;

	if (l->mode != PFN_MODE_PMEM || !nd_region->bb_ready)
		return 0;
	off = (u64)l->start_pad + PFN_RESERVE;
	if (check_add_overflow((u64)l->start_pad, l->dataoff, &end) ||
	    end > nsio->res_size || !IS_ALIGNED(off | end, PAGE_SIZE))
		return 0;
	roff = nsio->res_start - nd_region->res_start;
	while (off < end) {
		/* a badblocks_check() span counts sectors in an int */
		u64 span = min_t(u64, end - off, SZ_1G);
		sector_t first_bad;
		int num_bad;
		u64 bad, bad_end, e;

		if (!badblocks_check(&nd_region->bb, (roff + off) >> SECTOR_SHIFT,
				     span >> SECTOR_SHIFT, &first_bad, &num_bad)) {
			off += span;
			continue;
		}
		/* the run, in namespace offsets, clipped to [off, end) */
		bad = (u64)first_bad << SECTOR_SHIFT;
		bad_end = bad + ((u64)num_bad << SECTOR_SHIFT);
		bad = max(bad, roff + off) - roff;
		e = min(ALIGN(bad_end - roff, PAGE_SIZE), end);
		dev_dbg(&nd_pfn->cd.dev, "%s: memory map: bad sectors at [%#llx, %#llx), cleared\n",
			dev_name(ndns), bad, e);
		for (off = ALIGN_DOWN(bad, PAGE_SIZE); off < e; off += PAGE_SIZE) {
			rc = nd_namespace_write_bytes(ndns, off, zero, PAGE_SIZE);
			if (rc) {
				dev_err(&nd_pfn->cd.dev, "%s: bad sectors in the memory map at %#llx not cleared: %d\n",
					dev_name(ndns), off, rc);
				return rc;
			}
		}
	}
	return 0;
}

/**
 * nvdimm_setup_pfn - what a pfn or dax device's driver does first
 * @dev: a pfn or dax device, probing (its device lock held)
 * @pgmap: zeroed by the caller; filled for devm_memremap_pages() (range,
 *	and in PFN_MODE_PMEM the altmap that places the struct pages in the
 *	namespace); the caller sets its type
 *
 * Checks the configuration (a namespace, uuid and mode: -ENODEV) and the
 * claim, that the namespace is no longer enabled (-EBUSY), then reads
 * the info block.  This device's block is used as it is (a different
 * mode or alignment than configured: -EOPNOTSUPP); when there is none,
 * or one of another device or namespace, a new one is laid out and
 * written.  A damaged block of this kind is not overwritten (-EINVAL).
 * With the struct pages in the namespace (PFN_MODE_PMEM), the bad sectors
 * the region knows of in their area are cleared (zeroes written through
 * Clear Error; the error when that fails, nothing attached).
 * On success the device's layout fields are set and @pgmap's range is
 * the mapped range (the namespace less start_pad and end_trunc): the
 * data is its part from @nd_pfn->dataoff on, @nd_pfn->npfns pages to
 * its end (checked to agree with the info block; -EINVAL and a dev_err
 * when they do not).  The callers size the disk and the DAX range from
 * the range, never from the media.  The info block mapping is gone and
 * the caller requests what it maps (nd_pmem the namespace, dax_pmem the
 * metadata: device_dax requests the data itself).
 *
 * Return: 0 or a negative errno, with a log line.
 */
int nvdimm_setup_pfn(struct device *dev, struct dev_pagemap *pgmap)
{
	struct nd_pfn *nd_pfn = to_nd_pfn(dev);
	struct device *ndns = nd_pfn->cd.ndns;
	struct nd_namespace_io *nsio;
	struct pfn_layout l;
	struct range range;
	u64 first, last, data_bytes;
	void *group;
	int rc;

	if (!ndns || !nd_pfn->cd.has_uuid || nd_pfn->mode == PFN_MODE_NONE) {
		dev_dbg(dev, "needs a namespace, a uuid and a mode\n");
		return -ENODEV;
	}
	rc = nd_claim_dev_attach_check(&nd_pfn->cd, &range);
	if (rc)
		return rc;
	nsio = to_nd_namespace_io(ndns);

	/* the info block mapping goes before the data is mapped */
	group = devres_open_group(dev, NULL, GFP_KERNEL);
	if (!group)
		return -ENOMEM;
	rc = nvdimm_namespace_bytes_enable(dev, ndns);
	if (!rc)
		rc = nd_pfn_load_or_format(nd_pfn, ndns, &l);
	if (!rc)
		rc = nd_pfn_clear_memmap_poison(nd_pfn, ndns, &l);
	devres_release_group(dev, group);
	if (rc)
		return rc;

	/*
	 * The mapped range [first, last] is the namespace less start_pad and
	 * end_trunc; the data is its part from dataoff on, and that, not the
	 * media's npfns, is what the disk and the DAX range are made of (as
	 * 6.1 does).  pfn_sb_check() and pfn_layout_compute() only give
	 * layouts whose npfns fits in it; this is checked again here, with
	 * every sum, so that a layout that says otherwise can never size
	 * anything.
	 */
	if (!nsio->res_size ||
	    check_add_overflow(nsio->res_start, (u64)l.start_pad, &first) ||
	    check_add_overflow(nsio->res_start, nsio->res_size - 1, &last) ||
	    check_sub_overflow(last, (u64)l.end_trunc, &last) ||
	    last < first || l.dataoff > last - first ||
	    (last - first + 1 - l.dataoff) & (PAGE_SIZE - 1) ||
	    (last - first + 1 - l.dataoff) >> PAGE_SHIFT < l.npfns) {
		dev_err(dev, "%s: info block says %llu pages at %#llx into [%#llx, +%#llx) less start_pad %u and end_trunc %u: more than the mapped range's data, not attached\n",
			dev_name(ndns), l.npfns, l.dataoff, nsio->res_start,
			nsio->res_size, l.start_pad, l.end_trunc);
		return -EINVAL;
	}
	data_bytes = last - first + 1 - l.dataoff;

	nd_pfn->dataoff = l.dataoff;
	nd_pfn->start_pad = l.start_pad;
	nd_pfn->end_trunc = l.end_trunc;
	nd_pfn->npfns = data_bytes >> PAGE_SHIFT;

	pgmap->range.start = first;
	pgmap->range.end = last;
	pgmap->nr_range = 1;
	if (l.mode == PFN_MODE_PMEM) {
		u64 base = pgmap->range.start;
		unsigned long base_pfn = SUBSECTION_ALIGN_DOWN(PHYS_PFN(base));

		/*
		 * The vmemmap of the range is carved from the namespace:
		 * past the reserve (counted from the subsection the range
		 * starts in), up to the data.
		 */
		struct vmem_altmap altmap = {
			.base_pfn = base_pfn,
			.end_pfn = PHYS_PFN(pgmap->range.end),
			.reserve = PHYS_PFN(PFN_RESERVE) +
				   (PHYS_PFN(base) - base_pfn),
			.free = PHYS_PFN(l.dataoff - PFN_RESERVE),
		};

		/* its limits are const: set once, as a whole */
		memcpy(&pgmap->altmap, &altmap, sizeof(altmap));
		pgmap->flags |= PGMAP_ALTMAP_VALID;
	}
	dev_dbg(dev, "%s: data at %#llx, %llu pages, struct pages in %s\n",
		dev_name(ndns), nd_pfn_data_start(nd_pfn), l.npfns,
		l.mode == PFN_MODE_PMEM ? "the namespace" : "RAM");
	return 0;
}
EXPORT_SYMBOL_GPL(nvdimm_setup_pfn);

/**
 * nvdimm_range_is_pmem - whether [@start, +@size) of a region is memory
 *	the kernel can make struct pages for
 * @nd_region: the region the range belongs to
 * @start: physical address
 * @size: bytes
 *
 * True for a region whose provider says so (ND_REGION_PAGEMAP: e820's
 * legacy ranges, virtio-pmem's device memory) and for a range iomem
 * lists as persistent memory (an NFIT SPA range).  nfit_test's mock
 * ranges are neither.
 */
bool nvdimm_range_is_pmem(struct nd_region *nd_region, u64 start, u64 size)
{
	if (test_bit(ND_REGION_PAGEMAP, &nd_region->flags))
		return true;
	return region_intersects(start, size, IORESOURCE_MEM,
				 IORES_DESC_PERSISTENT_MEMORY) ==
		REGION_INTERSECTS;
}
EXPORT_SYMBOL_GPL(nvdimm_range_is_pmem);
