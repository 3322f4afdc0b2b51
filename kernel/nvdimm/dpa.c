// SPDX-License-Identifier: GPL-2.0
/*
 * DPA allocation for PMEM and BLK namespaces, and the label writes that
 * record it.  A DIMM's live labels are the only record of what DPA is in
 * use (docs/namespaces.md): every function here reads them through
 * nvdimm_labels_walk() and changes them through nvdimm_labels_replace().
 * Callers hold the bus' reconfig_lock, which keeps the labels of all the
 * bus' DIMMs stable between reading them and writing new ones.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/uuid.h>
#include <linux/mm.h>
#include "nd-core.h"

/* BLK namespaces grow and shrink in pages (4.x: 4 KiB x 1 way). */
#define ND_BLK_GRANULE PAGE_SIZE

static struct mutex *nd_reconfig_lock(struct device *dev)
{
	return &walk_to_nvdimm_bus(dev)->reconfig_lock;
}

struct nd_busy {
	struct nd_dpa_range *r;
	u32 n, max;
	const u8 *skip_uuid;	/* the caller's own labels */
	bool skip_local;
};

static int nd_busy_fn(const struct nd_lsa_label *l, u32 slot,
		      const struct nd_labels_info *info, void *arg)
{
	struct nd_busy *b = arg;

	if (!info->live)
		return 0;
	if (b->skip_uuid && !memcmp(l->uuid, b->skip_uuid, 16) &&
	    !!(le32_to_cpu(l->flags) & ND_LSA_FLAG_LOCAL) == b->skip_local)
		return 0;
	if (b->n == b->max)
		return -ENOSPC;	/* cannot happen: max covers every slot */
	b->r[b->n++] = (struct nd_dpa_range){ le64_to_cpu(l->dpa),
					      le64_to_cpu(l->rawsize) };
	return 0;
}

/*
 * The DPA a DIMM's labels claim, minus the labels of (@skip, @local),
 * appended to @b.  Returns the DIMM's enum nd_labels_state or an errno.
 */
static int nd_dimm_busy(struct nd_mapping *m, const uuid_t *skip,
			bool local, struct nd_busy *b)
{
	u8 raw[16];

	if (skip)
		export_uuid(raw, skip);
	b->skip_uuid = skip ? raw : NULL;
	b->skip_local = local;
	return nvdimm_labels_walk(m, nd_busy_fn, b);
}

/* Room for every label of every DIMM of a region (slots are >= 128 B). */
static int nd_busy_alloc(struct nd_region *nd_region, struct nd_busy *b,
			 u32 extra)
{
	u32 i, max = extra;

	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm *nvdimm = nd_region->mapping[i].nvdimm;

		max += nvdimm->cfg_valid ? nvdimm->cfg_size / ND_LSA_LABEL_V11 :
					   0;
	}
	memset(b, 0, sizeof(*b));
	b->max = max + 1;
	b->r = kvcalloc(b->max, sizeof(*b->r), GFP_KERNEL);
	return b->r ? 0 : -ENOMEM;
}

/*
 * PMEM: the offsets (from the mapping start, in [0, per-DIMM size)) free
 * on every DIMM of the set, ignoring namespace @self's own labels.
 * Returns the number of free ranges in *@out (kvfree() it), or -ENXIO
 * when a DIMM's labels cannot be used, or another errno.
 */
static int nd_pmem_free_offsets(struct nd_region *nd_region,
				const uuid_t *self, struct nd_dpa_range **out)
{
	u64 span = nd_region->mapping[0].size;
	struct nd_dpa_range *free;
	struct nd_busy b;
	u32 i, k, n;
	int rc;

	rc = nd_busy_alloc(nd_region, &b, 0);
	if (rc)
		return rc;
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nd_mapping *m = &nd_region->mapping[i];
		u32 first = b.n;

		span = min(span, m->size);
		rc = nd_dimm_busy(m, self, false, &b);
		if (rc < 0)
			goto out;
		if (rc == ND_LABELS_NONE || rc == ND_LABELS_DAMAGED) {
			dev_dbg(&nd_region->dev, "%s: labels unusable: no allocatable DPA\n",
				dev_name(&m->nvdimm->dev));
			rc = -ENXIO;
			goto out;
		}
		/* clip to the mapping, make offsets */
		for (k = first; k < b.n; k++) {
			u64 s = max(b.r[k].start, m->start);
			u64 e = min(nd_dpa_end(&b.r[k]), m->start + m->size);

			if (e <= s)
				b.r[k].size = 0;
			else
				b.r[k] = (struct nd_dpa_range){ s - m->start,
								e - s };
		}
	}
	n = nd_dpa_normalize(b.r, b.n);
	free = kvcalloc(n + 1, sizeof(*free), GFP_KERNEL);
	if (!free) {
		rc = -ENOMEM;
		goto out;
	}
	rc = nd_dpa_free(b.r, n, 0, span, free, n + 1);
	*out = free;
out:
	kvfree(b.r);
	return rc;
}

struct nd_alias_ctx {
	struct nvdimm *nvdimm;
	struct nd_dpa_range *r;
	u32 n, max;
};

static int nd_alias_fn(struct device *dev, void *data)
{
	struct nd_alias_ctx *ctx = data;
	struct nd_region *nd_region;
	u32 i;

	if (!is_nd_region(dev))
		return 0;
	nd_region = to_nd_region(dev);
	if (is_nd_blk(nd_region))
		return 0;
	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nd_mapping *m = &nd_region->mapping[i];

		if (m->nvdimm != ctx->nvdimm)
			continue;
		if (ctx->n == ctx->max)
			return -ENOSPC;
		ctx->r[ctx->n++] = (struct nd_dpa_range){ m->start, m->size };
	}
	return 0;
}

/*
 * BLK: the free DPA of the region's DIMM inside its mapping, ignoring the
 * labels of @self; the ranges PMEM regions map on that DIMM go to
 * @aliased.  Returns the number of free ranges or a negative errno.
 */
static int nd_blk_free(struct nd_region *nd_region, const uuid_t *self,
		       struct nd_dpa_range **out, struct nd_alias_ctx *aliased)
{
	struct nd_mapping *m = &nd_region->mapping[0];
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nd_region->dev);
	struct nd_dpa_range *free;
	struct nd_busy b;
	u32 n;
	int rc;

	rc = nd_busy_alloc(nd_region, &b, 0);
	if (rc)
		return rc;
	rc = nd_dimm_busy(m, self, true, &b);
	if (rc < 0)
		goto out;
	if (rc == ND_LABELS_NONE || rc == ND_LABELS_DAMAGED) {
		dev_dbg(&nd_region->dev, "%s: labels unusable: no allocatable DPA\n",
			dev_name(&m->nvdimm->dev));
		rc = -ENXIO;
		goto out;
	}
	n = nd_dpa_normalize(b.r, b.n);
	free = kvcalloc(n + 1, sizeof(*free), GFP_KERNEL);
	if (!free) {
		rc = -ENOMEM;
		goto out;
	}
	rc = nd_dpa_free(b.r, n, m->start, m->start + m->size, free, n + 1);
	*out = free;
	if (aliased) {
		aliased->nvdimm = m->nvdimm;
		aliased->n = 0;
		aliased->max = 64;
		aliased->r = kcalloc(aliased->max, sizeof(*aliased->r),
				     GFP_KERNEL);
		if (!aliased->r ||
		    device_for_each_child(&nvdimm_bus->dev, aliased,
					  nd_alias_fn)) {
			kvfree(free);
			kfree(aliased->r);
			aliased->r = NULL;
			rc = -ENOMEM;
			goto out;
		}
		aliased->n = nd_dpa_normalize(aliased->r, aliased->n);
	}
out:
	kvfree(b.r);
	return rc;
}

/*
 * The unit a PMEM namespace's per-DIMM extent starts and grows in: the
 * region's align spread over its DIMMs (6.1's dpa_align()), at least a
 * page.  Offsets count from each mapping's start.
 */
static u64 nd_pmem_dpa_align(struct nd_region *nd_region)
{
	u32 ways = max_t(u32, 1, nd_region->ndr_mappings);

	return max_t(u64, nd_region->align / ways, PAGE_SIZE);
}

/**
 * nd_region_available - unallocated capacity of a region
 * @nd_region: the region
 * @avail: bytes a namespace of the region could still get
 * @max_extent: PMEM: the largest contiguous part of @avail; BLK: @avail
 *
 * PMEM free space counts in whole units of the region's align, as 6.1's
 * does, so that @max_extent is always a size a namespace can be given.
 * Regions with a DIMM that has no label area (or a damaged index) have
 * none.  A label-less (IO) region whose DIMMs have blank label areas
 * reports its free DPA, as 6.1 does: labels can be initialised there.
 * Takes the bus' reconfig_lock.  Returns 0 or -ENOMEM.
 */
int nd_region_available(struct nd_region *nd_region, u64 *avail,
			u64 *max_extent)
{
	struct mutex *lock = nd_reconfig_lock(&nd_region->dev);
	struct nd_dpa_range *free = NULL;
	u32 ways = nd_region->ndr_mappings;
	int n = 0;

	*avail = 0;
	*max_extent = 0;
	if (!ways)
		return 0;
	mutex_lock(lock);
	if (is_nd_blk(nd_region)) {
		n = nd_blk_free(nd_region, NULL, &free, NULL);
	} else {
		n = nd_pmem_free_offsets(nd_region, NULL, &free);
		if (n > 0)
			n = nd_dpa_align_trim(free, n, 0,
					      nd_pmem_dpa_align(nd_region));
	}
	mutex_unlock(lock);
	if (n == -ENOMEM)
		return n;
	if (n < 0)
		return 0;
	if (is_nd_blk(nd_region)) {
		*avail = nd_dpa_total(free, n);
		*max_extent = *avail;
	} else {
		*avail = nd_dpa_total(free, n) * ways;
		*max_extent = nd_dpa_largest(free, n) * ways;
	}
	kvfree(free);
	return 0;
}

/**
 * nd_pmem_resize - allocate, grow, shrink or free a PMEM namespace's DPA
 * @nspm: the namespace (device lock and reconfig_lock held, uuid set)
 * @size: new size in bytes
 *
 * Returns 0 with labels written and the namespace updated, or -EINVAL
 * (granularity), -ENOSPC (no room), -ENXIO (labels unusable) or a label
 * write error, with nothing changed.
 */
int nd_pmem_resize(struct nd_namespace_pmem *nspm, u64 size)
{
	struct device *dev = &nspm->lbl.nsio.dev;
	struct nd_region *nd_region = to_nd_region(dev->parent);
	u32 ways = nd_region->ndr_mappings, i;
	struct nd_dpa_range *free = NULL;
	u64 per_dimm, offset = nspm->dpa_offset;
	int n, rc;

	if (!ways || !nd_region->nd_set) {
		dev_dbg(dev, "size: the region has no interleave set\n");
		return -ENXIO;
	}
	if (size % nd_region->align || size % ways ||
	    (size / ways) % PAGE_SIZE) {
		dev_dbg(dev, "size: %#llx is not a multiple of the region's align %#lx\n",
			size, nd_region->align);
		return -EINVAL;
	}
	per_dimm = size / ways;
	if (size > nd_region->res_size) {
		dev_dbg(dev, "size: %#llx is more than the region's %#llx\n",
			size, nd_region->res_size);
		return -ENOSPC;
	}
	if (per_dimm == nspm->dpa_size)	/* same size: labels rewritten, as 6.1 */
		return nd_pmem_labels_update(nspm, offset, per_dimm, NULL);
	if (per_dimm) {
		n = nd_pmem_free_offsets(nd_region, &nspm->lbl.uuid, &free);
		if (n < 0)
			return n;
		if (!nspm->dpa_size) {
			/* a new extent starts on a whole unit of align */
			n = nd_dpa_align_trim(free, n, 0,
					      nd_pmem_dpa_align(nd_region));
			for (i = 0; i < n; i++)
				if (free[i].size >= per_dimm)
					break;
			if (i == n) {
				dev_dbg(dev, "size: no free range of %#llx per DIMM (%#llx available in the largest)\n",
					per_dimm, nd_dpa_largest(free, n));
				kvfree(free);
				return -ENOSPC;
			}
			offset = free[i].start;
		} else {
			/*
			 * Grow or shrink in place: the free range holding the
			 * extent (its own labels are not busy) must reach
			 * offset + per_dimm; compared without the sum, which
			 * a user's size could wrap.
			 */
			for (i = 0; i < n; i++)
				if (free[i].start <= offset &&
				    offset < nd_dpa_end(&free[i]))
					break;
			if (i == n ||
			    per_dimm > nd_dpa_end(&free[i]) - offset) {
				dev_dbg(dev, "size: cannot grow in place to %#llx per DIMM\n",
					per_dimm);
				kvfree(free);
				return -ENOSPC;
			}
		}
		kvfree(free);
	}
	rc = nd_pmem_labels_update(nspm, offset, per_dimm, NULL);
	if (rc)
		return rc;
	nspm->dpa_offset = per_dimm ? offset : 0;
	nspm->dpa_size = per_dimm;
	nspm->lbl.nsio.res_start = nd_region->res_start + nspm->dpa_offset * ways;
	nspm->lbl.nsio.res_size = size;
	dev_dbg(dev, "size %#llx: DPA offset %#llx, %#llx per DIMM\n", size,
		nspm->dpa_offset, per_dimm);
	return 0;
}

/**
 * nd_blk_resize - allocate, grow, shrink or free a BLK namespace's DPA
 * @nsblk: the namespace (device lock and reconfig_lock held, uuid set)
 * @size: new size in bytes
 *
 * Growing takes DPA no PMEM region maps first, then aliased DPA, lowest
 * first; shrinking gives back the highest extents first.  Returns 0 with
 * labels written, or -EINVAL, -ENOSPC, -ENXIO or a label write error with
 * nothing changed.
 */
int nd_blk_resize(struct nd_namespace_blk *nsblk, u64 size)
{
	struct device *dev = &nsblk->lbl.nsio.dev;
	struct nd_region *nd_region = to_nd_region(dev->parent);
	u64 cur = nsblk->lbl.nsio.res_size;
	struct nd_dpa_range *free = NULL, *ext = NULL;
	struct nd_alias_ctx aliased = {};
	u32 next = nsblk->nr_extents, max;
	int n, rc;

	if (size % ND_BLK_GRANULE) {
		dev_dbg(dev, "size: %#llx is not a multiple of %#lx\n", size,
			ND_BLK_GRANULE);
		return -EINVAL;
	}
	if (size == cur)
		return 0;
	if (size > nd_region->mapping[0].size) {
		dev_dbg(dev, "size: %#llx is more than the BLK range's %#llx\n",
			size, nd_region->mapping[0].size);
		return -ENOSPC;
	}
	n = nd_blk_free(nd_region, &nsblk->lbl.uuid, &free, &aliased);
	if (n < 0)
		return n;
	if (size > cur) {
		struct nd_dpa_range *busy, *avail;
		u32 nb, na = 0, room = n * (next + 1) + 1, k;

		/* the free space, minus what the namespace already has */
		busy = kcalloc(next + 1, sizeof(*busy), GFP_KERNEL);
		avail = kcalloc(room, sizeof(*avail), GFP_KERNEL);
		if (!busy || !avail) {
			kfree(busy);
			kfree(avail);
			rc = -ENOMEM;
			goto out;
		}
		memcpy(busy, nsblk->extents, next * sizeof(*busy));
		nb = nd_dpa_normalize(busy, next);
		for (k = 0; k < n; k++)
			na += nd_dpa_free(busy, nb, free[k].start,
					  free[k].start + free[k].size,
					  avail + na, room - na);
		kfree(busy);
		/* each free piece may split at every aliased range */
		max = next + na * (2 * aliased.n + 1) + 1;
		ext = kcalloc(max, sizeof(*ext), GFP_KERNEL);
		if (!ext) {
			kfree(avail);
			rc = -ENOMEM;
			goto out;
		}
		memcpy(ext, nsblk->extents, next * sizeof(*ext));
		rc = nd_dpa_blk_grow(avail, na, aliased.r, aliased.n,
				     size - cur, ext, next, max);
		kfree(avail);
		if (rc < 0) {
			dev_dbg(dev, "size: %#llx more bytes needed, %#llx free on %s\n",
				size - cur, nd_dpa_total(free, n),
				dev_name(&nd_region->mapping[0].nvdimm->dev));
			goto out_ext;
		}
		next = rc;
	} else {
		ext = kmemdup(nsblk->extents, next * sizeof(*ext), GFP_KERNEL);
		if (!ext) {
			rc = -ENOMEM;
			goto out;
		}
		next = nd_dpa_shrink(ext, next, cur - size);
	}
	rc = nd_blk_labels_write(nsblk, ext, next, NULL);
	if (rc == -ENOSPC) {
		/* the DIMM's line said how many slots; not a failure of ours */
		dev_dbg(dev, "size %#llx: no label slot for it\n", size);
		goto out_ext;
	}
	if (rc) {
		dev_warn(dev, "label update failed (%d): previous labels kept\n",
			 rc);
		goto out_ext;
	}
	kfree(nsblk->extents);
	nsblk->extents = next ? ext : NULL;
	if (!next)
		kfree(ext);
	nsblk->nr_extents = next;
	nsblk->lbl.nsio.res_size = size;
	dev_dbg(dev, "size %#llx in %u extent(s)\n", size, next);
	ext = NULL;
out_ext:
	kfree(ext);
out:
	kvfree(free);
	kfree(aliased.r);
	return rc;
}

