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

/* Claim class GUIDs (v1.2 abstraction_guid), media-formats §3.4. */
static const guid_t nd_claim_guids[] = {
	[ND_CLAIM_BTT] = GUID_INIT(0x18633bfc, 0x1735, 0x4217, 0x8a, 0xc9,
				   0x17, 0x23, 0x92, 0x82, 0xd3, 0xf8),
	[ND_CLAIM_PFN] = GUID_INIT(0x266400ba, 0xfb9f, 0x4677, 0xbc, 0xb0,
				   0x96, 0x8f, 0x11, 0xd0, 0xd2, 0x25),
	[ND_CLAIM_DAX] = GUID_INIT(0x97a86d9c, 0x3cdd, 0x4eda, 0x98, 0x6f,
				   0x50, 0x68, 0xb4, 0xf8, 0x00, 0x88),
};

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
static int nd_dimm_busy(struct nvdimm *nvdimm, const uuid_t *skip,
			bool local, struct nd_busy *b)
{
	u8 raw[16];

	if (skip)
		export_uuid(raw, skip);
	b->skip_uuid = skip ? raw : NULL;
	b->skip_local = local;
	return nvdimm_labels_walk(nvdimm, nd_busy_fn, b);
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
		rc = nd_dimm_busy(m->nvdimm, self, false, &b);
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
			u64 e = min(b.r[k].start + b.r[k].size,
				    m->start + m->size);

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
	rc = nd_dimm_busy(m->nvdimm, self, true, &b);
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

/**
 * nd_region_available - unallocated capacity of a region
 * @nd_region: the region
 * @avail: bytes a namespace of the region could still get
 * @max_extent: PMEM: the largest contiguous part of @avail; BLK: @avail
 *
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
	if (is_nd_blk(nd_region))
		n = nd_blk_free(nd_region, NULL, &free, NULL);
	else
		n = nd_pmem_free_offsets(nd_region, NULL, &free);
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

/* Fill the label of mapping @i of a PMEM namespace. */
static void nd_pmem_spec(struct nd_namespace_pmem *nspm, int i, u64 offset,
			 u64 size, u32 flags, u8 *raw_uuid,
			 struct nd_label_spec *spec)
{
	struct nd_region *nd_region = to_nd_region(nspm->lbl.nsio.dev.parent);
	struct nd_interleave_set *set = nd_region->nd_set;
	enum nd_claim_class cc = nspm->lbl.nsio.claim_class;

	export_uuid(raw_uuid, &nspm->lbl.uuid);
	*spec = (struct nd_label_spec){
		.uuid = raw_uuid,
		.name = nspm->lbl.alt_name,
		.flags = flags,
		.nlabel = nd_region->ndr_mappings,
		.position = i,
		.cookie_v11 = set->cookie1,
		.cookie_v12 = set->cookie2,
		.lbasize = nspm->lbl.lbasize,
		.dpa = nd_region->mapping[i].start + offset,
		.rawsize = size,
		.type_guid = &set->type_guid,
		.abstraction = cc != ND_CLAIM_NONE ? &nd_claim_guids[cc] : NULL,
	};
}

/*
 * Write a PMEM namespace's labels for extent [offset, offset + size) on
 * every DIMM (size 0: delete them).  Two passes, as 6.1: every DIMM gets
 * the label with UPDATING set, then without.
 */
static int nd_pmem_labels_write(struct nd_namespace_pmem *nspm, u64 offset,
				u64 size, bool fresh)
{
	struct nd_region *nd_region = to_nd_region(nspm->lbl.nsio.dev.parent);
	struct nd_label_spec spec;
	int i, pass, rc = 0;
	u8 raw[16];

	export_uuid(raw, &nspm->lbl.uuid);
	if (!size) {
		/* 6.1 commits a deletion even when there is nothing to delete */
		for (i = 0; i < nd_region->ndr_mappings && !rc; i++)
			rc = nvdimm_labels_replace(nd_region->mapping[i].nvdimm,
						   raw, false, NULL, 0,
						   ND_LABELS_COMMIT_EMPTY);
		return rc;
	}
	for (pass = 0; pass < 2 && !rc; pass++)
		for (i = 0; i < nd_region->ndr_mappings && !rc; i++) {
			nd_pmem_spec(nspm, i, offset, size,
				     pass ? 0 : ND_LSA_FLAG_UPDATING, raw,
				     &spec);
			rc = nvdimm_labels_replace(nd_region->mapping[i].nvdimm,
						   raw, false, &spec, 1,
						   fresh && !pass ?
						   ND_LABELS_KEEP_RESERVE : 0);
		}
	return rc;
}

/**
 * nd_lbl_attrs_save - snapshot what a namespace's labels record
 * @dev: a PMEM or BLK namespace
 * @a: the snapshot
 */
void nd_lbl_attrs_save(struct device *dev, struct nd_lbl_attrs *a)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);

	memcpy(a->alt_name, lbl->alt_name, sizeof(a->alt_name));
	a->lbasize = lbl->lbasize;
	a->claim_class = lbl->nsio.claim_class;
}

/**
 * nd_lbl_attrs_restore - put a snapshot back
 * @dev: the namespace it was taken of
 * @a: the snapshot
 */
void nd_lbl_attrs_restore(struct device *dev, const struct nd_lbl_attrs *a)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);

	memcpy(lbl->alt_name, a->alt_name, sizeof(lbl->alt_name));
	lbl->lbasize = a->lbasize;
	lbl->nsio.claim_class = a->claim_class;
}

/*
 * Labels for a PMEM namespace changing to (offset, size), its attributes
 * already changed from @old (NULL: unchanged).  A set is written DIMM by
 * DIMM, so a failure can leave the DIMMs disagreeing: the labels of the
 * state before (DPA of @nspm, attributes @old) are then written back.
 */
static int nd_pmem_labels_update(struct nd_namespace_pmem *nspm, u64 offset,
				 u64 size, const struct nd_lbl_attrs *old)
{
	struct device *dev = &nspm->lbl.nsio.dev;
	struct nd_lbl_attrs now;
	int rc, rc2;

	rc = nd_pmem_labels_write(nspm, offset, size, !nspm->dpa_size);
	if (!rc)
		return 0;
	if (!size && !nspm->dpa_size)
		return rc;	/* an empty deletion: no label was touched */
	nd_lbl_attrs_save(dev, &now);
	if (old)
		nd_lbl_attrs_restore(dev, old);
	rc2 = nd_pmem_labels_write(nspm, nspm->dpa_offset, nspm->dpa_size,
				   false);
	nd_lbl_attrs_restore(dev, &now);
	if (rc2)
		dev_err(dev, "label update failed (%d) and so did restoring the previous labels (%d): the set may be inconsistent until rewritten\n",
			rc, rc2);
	else
		dev_warn(dev, "label update failed (%d): previous labels restored\n",
			 rc);
	return rc;
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
	if (per_dimm == nspm->dpa_size)	/* same size: labels rewritten, as 6.1 */
		return nd_pmem_labels_update(nspm, offset, per_dimm, NULL);
	if (per_dimm) {
		n = nd_pmem_free_offsets(nd_region, &nspm->lbl.uuid, &free);
		if (n < 0)
			return n;
		if (!nspm->dpa_size) {
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
			/* grow or shrink in place */
			for (i = 0; i < n; i++)
				if (free[i].start <= offset &&
				    offset < free[i].start + free[i].size)
					break;
			if (i == n || offset + per_dimm >
				      free[i].start + free[i].size) {
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

static int nd_blk_labels_write(struct nd_namespace_blk *nsblk,
			       const struct nd_dpa_range *ext, u32 n,
			       bool fresh)
{
	struct nd_region *nd_region = to_nd_region(nsblk->lbl.nsio.dev.parent);
	enum nd_claim_class cc = nsblk->lbl.nsio.claim_class;
	struct nd_label_spec *spec = NULL;
	u8 raw[16];
	u32 i;
	int rc;

	export_uuid(raw, &nsblk->lbl.uuid);
	if (n) {
		spec = kcalloc(n, sizeof(*spec), GFP_KERNEL);
		if (!spec)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		spec[i] = (struct nd_label_spec){
			.uuid = raw,
			.name = nsblk->lbl.alt_name,
			.flags = ND_LSA_FLAG_LOCAL,
			.lbasize = nsblk->lbl.lbasize,
			.dpa = ext[i].start,
			.rawsize = ext[i].size,
			.abstraction = cc != ND_CLAIM_NONE ?
				&nd_claim_guids[cc] : NULL,
		};
	rc = nvdimm_labels_replace(nd_region->mapping[0].nvdimm, raw, true,
				   spec, n, fresh ? ND_LABELS_KEEP_RESERVE : 0);
	kfree(spec);
	return rc;
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
	rc = nd_blk_labels_write(nsblk, ext, next, !cur);
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

/**
 * nd_namespace_labels_rewrite - write a namespace's labels again
 * @dev: a PMEM or BLK namespace (device lock and reconfig_lock held)
 * @old: its attributes before the change (nd_lbl_attrs_save())
 *
 * After a change of uuid (no DPA yet), name, sector size or claim class.
 * A BLK namespace that holds no DPA has no labels: nothing to do.
 * Returns 0 or the label
 * write's error; the labels on media then describe @old again, and the
 * caller puts @old back in memory.
 */
int nd_namespace_labels_rewrite(struct device *dev,
				const struct nd_lbl_attrs *old)
{
	lockdep_assert_held(nd_reconfig_lock(dev));
	if (is_nd_namespace_blk(dev)) {
		struct nd_namespace_blk *nsblk = to_nd_namespace_blk(dev);

		if (!nsblk->nr_extents)
			return 0;
		/* one transaction on one DIMM: the old labels stay on failure */
		return nd_blk_labels_write(nsblk, nsblk->extents,
					   nsblk->nr_extents, false);
	}
	if (is_nd_namespace_pmem(dev)) {
		struct nd_namespace_pmem *nspm = to_nd_namespace_pmem(dev);

		/*
		 * No uuid: nothing to write.  A uuid but no DPA: 6.1 commits
		 * an (empty) deletion on every DIMM; matching it keeps the
		 * index sequence numbers equal to the stock modules'.
		 */
		if (!nspm->lbl.has_uuid)
			return 0;
		return nd_pmem_labels_update(nspm, nspm->dpa_offset,
					     nspm->dpa_size, old);
	}
	return 0;
}

struct nd_uuid_ctx {
	struct device *self;
	const uuid_t *uuid;
	u8 raw[16];
};

static int nd_uuid_label_fn(const struct nd_lsa_label *l, u32 slot,
			    const struct nd_labels_info *info, void *arg)
{
	struct nd_uuid_ctx *ctx = arg;

	return info->live && !memcmp(l->uuid, ctx->raw, 16) ? -EBUSY : 0;
}

static int nd_uuid_ns_fn(struct device *dev, void *data)
{
	struct nd_uuid_ctx *ctx = data;
	struct nd_namespace_lbl *lbl;

	if (dev == ctx->self ||
	    (!is_nd_namespace_pmem(dev) && !is_nd_namespace_blk(dev)))
		return 0;
	lbl = to_nd_namespace_lbl(dev);
	return lbl->has_uuid && uuid_equal(&lbl->uuid, ctx->uuid) ? -EBUSY : 0;
}

static int nd_uuid_region_fn(struct device *dev, void *data)
{
	struct nd_uuid_ctx *ctx = data;
	struct nd_region *nd_region;
	u32 i;

	if (!is_nd_region(dev))
		return 0;
	nd_region = to_nd_region(dev);
	if (device_for_each_child(dev, ctx, nd_uuid_ns_fn))
		return -EBUSY;
	for (i = 0; i < nd_region->ndr_mappings; i++)
		if (nvdimm_labels_walk(nd_region->mapping[i].nvdimm,
				       nd_uuid_label_fn, ctx) == -EBUSY)
			return -EBUSY;
	return 0;
}

/**
 * nd_uuid_busy - whether a uuid is taken on a region's bus
 * @nd_region: the region of the namespace asking
 * @self: that namespace (its own uuid does not count)
 * @uuid: the candidate
 *
 * Taken means another namespace of the bus has it, or a live label on
 * any DIMM of the bus carries it (a namespace left unclaimed, whose DPA
 * would otherwise merge with the new one's).  reconfig_lock held.
 */
bool nd_uuid_busy(struct nd_region *nd_region, struct device *self,
		  const uuid_t *uuid)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nd_region->dev);
	struct nd_uuid_ctx ctx = { .self = self, .uuid = uuid };

	lockdep_assert_held(&nvdimm_bus->reconfig_lock);
	export_uuid(ctx.raw, uuid);
	return device_for_each_child(&nvdimm_bus->dev, &ctx,
				     nd_uuid_region_fn) != 0;
}
