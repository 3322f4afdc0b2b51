// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace-label layer: the one writer of namespace labels.  It
 * turns a namespace's state (uuid, name, sector size, claim class, DPA)
 * into label specifications and writes them through label.c's per-DIMM
 * transactions: PMEM sets in two passes with a rollback to the previous
 * labels, BLK namespaces in one transaction on their DIMM, rewrites after
 * an attribute change.  dpa.c decides where DPA goes and calls here to
 * record it; personalities (btt, pfn, dax) record their claim here.
 * Callers hold the bus' reconfig_lock.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/uuid.h>
#include "nd-core.h"
#include "btt-format.h"

static struct mutex *nd_reconfig_lock(struct device *dev)
{
	return &walk_to_nvdimm_bus(dev)->reconfig_lock;
}

/*
 * Claim class GUIDs (v1.2 abstraction_guid, media-formats §3.4): what a
 * class is written as.  A BTT written under v1.1 rules carries its own
 * GUID (nd_btt1_guid); both read back as class "btt".
 */
static const guid_t nd_claim_guids[] = {
	[ND_CLAIM_BTT] = GUID_INIT(0x18633bfc, 0x1735, 0x4217, 0x8a, 0xc9,
				   0x17, 0x23, 0x92, 0x82, 0xd3, 0xf8),
	[ND_CLAIM_PFN] = GUID_INIT(0x266400ba, 0xfb9f, 0x4677, 0xbc, 0xb0,
				   0x96, 0x8f, 0x11, 0xd0, 0xd2, 0x25),
	[ND_CLAIM_DAX] = GUID_INIT(0x97a86d9c, 0x3cdd, 0x4eda, 0x98, 0x6f,
				   0x50, 0x68, 0xb4, 0xf8, 0x00, 0x88),
};

static const guid_t nd_btt1_guid = GUID_INIT(0x8aed63a2, 0x29a2, 0x4c66, 0x8b,
					     0x12, 0xf0, 0x5d, 0x15, 0xd3,
					     0x92, 0x2a);

/*
 * A btt claim on a namespace whose DIMMs carry v1.1 labels is a BTT 1.1
 * (v1.1 labels cannot record a class); DIMMs with v1.2 labels, or none
 * yet (they get v1.2), make it a BTT 2.0, as 6.1 decides.  A DIMM
 * without label data means v1.1.  reconfig_lock held (mapping ndd).
 */
static bool nd_region_labels_v11(struct nd_namespace_lbl *lbl)
{
	struct nd_region *nd_region = to_nd_region(lbl->nsio.dev.parent);
	int i;

	for (i = 0; i < nd_region->ndr_mappings; i++) {
		struct nvdimm_drvdata *ndd = nd_region->mapping[i].ndd;

		if (!ndd || !ndd->data)
			return true;
		if (ndd->lsa.cur >= 0 &&
		    nd_lsa_index_is_v11(nd_lsa_index(&ndd->lsa, ndd->lsa.cur)))
			return true;
	}
	return false;
}

/**
 * nd_claim_class_of_guid - the claim class a label's abstraction GUID names
 * @guid: the GUID as read from a v1.2 label
 *
 * Returns ND_CLAIM_NONE for the null GUID, ND_CLAIM_UNKNOWN for a GUID no
 * personality of ours knows (kept and written back as it is).
 */
enum nd_claim_class nd_claim_class_of_guid(const guid_t *guid)
{
	int i;

	if (guid_is_null(guid))
		return ND_CLAIM_NONE;
	if (guid_equal(guid, &nd_btt1_guid))
		return ND_CLAIM_BTT;
	for (i = ND_CLAIM_BTT; i < ARRAY_SIZE(nd_claim_guids); i++)
		if (guid_equal(guid, &nd_claim_guids[i]))
			return i;
	return ND_CLAIM_UNKNOWN;
}

/**
 * nd_lbl_set_claim_class - reserve a label-backed namespace for a class
 * @lbl: the namespace (device lock and reconfig_lock held)
 * @cc: the class; its canonical GUID is what the next label write records
 */
void nd_lbl_set_claim_class(struct nd_namespace_lbl *lbl,
			    enum nd_claim_class cc)
{
	lbl->nsio.claim_class = cc;
	if (cc == ND_CLAIM_NONE || cc >= ARRAY_SIZE(nd_claim_guids))
		guid_copy(&lbl->claim_guid, &guid_null);
	else if (cc == ND_CLAIM_BTT && nd_region_labels_v11(lbl))
		guid_copy(&lbl->claim_guid, &nd_btt1_guid);
	else
		guid_copy(&lbl->claim_guid, &nd_claim_guids[cc]);
}

/**
 * nd_namespace_btt_start - where a BTT on a namespace starts
 * @ndns_dev: any namespace
 *
 * 0 (BTT 2.0) when the namespace is reserved for a btt by the v1.2 claim
 * class GUID, 4096 (BTT 1.1) otherwise: io namespaces, v1.1 labels, no
 * claim class (media-formats §6.2).  Stable while the namespace is
 * claimed: its attributes cannot change then.
 */
u64 nd_namespace_btt_start(struct device *ndns_dev)
{
	struct nd_namespace_lbl *lbl;

	if (is_nd_namespace_io(ndns_dev))
		return BTT_START_V11;
	lbl = to_nd_namespace_lbl(ndns_dev);
	if (lbl->nsio.claim_class == ND_CLAIM_BTT &&
	    guid_equal(&lbl->claim_guid, &nd_claim_guids[ND_CLAIM_BTT]))
		return BTT_START_V20;
	return BTT_START_V11;
}
EXPORT_SYMBOL_GPL(nd_namespace_btt_start);

/* Fill the label of mapping @i of a PMEM namespace. */
static void nd_pmem_spec(struct nd_namespace_pmem *nspm, int i, u64 offset,
			 u64 size, u32 flags, u8 *raw_uuid,
			 struct nd_label_spec *spec)
{
	struct nd_region *nd_region = to_nd_region(nspm->lbl.nsio.dev.parent);
	struct nd_interleave_set *set = nd_region->nd_set;

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
		.abstraction = &nspm->lbl.claim_guid,
	};
}

/*
 * Write a PMEM namespace's labels for extent [offset, offset + size) on
 * every DIMM (size 0: delete them).  Two passes, as 6.1: every DIMM gets
 * the label with UPDATING set, then without.  @prev: the uuid the labels
 * carry now when the namespace is being renamed (the first pass replaces
 * those), NULL otherwise.
 */
static int nd_pmem_labels_write(struct nd_namespace_pmem *nspm, u64 offset,
				u64 size, const uuid_t *prev)
{
	struct nd_region *nd_region = to_nd_region(nspm->lbl.nsio.dev.parent);
	struct nd_label_spec spec;
	int i, pass, rc = 0;
	u8 raw[16], key[16];

	export_uuid(raw, &nspm->lbl.uuid);
	export_uuid(key, prev ? prev : &nspm->lbl.uuid);
	if (!size) {
		/* 6.1 commits a deletion even when there is nothing to delete */
		for (i = 0; i < nd_region->ndr_mappings && !rc; i++)
			rc = nvdimm_labels_replace(&nd_region->mapping[i],
						   raw, false, NULL, 0,
						   ND_LABELS_COMMIT_EMPTY);
		return rc;
	}
	for (pass = 0; pass < 2 && !rc; pass++)
		for (i = 0; i < nd_region->ndr_mappings && !rc; i++) {
			nd_pmem_spec(nspm, i, offset, size,
				     pass ? 0 : ND_LSA_FLAG_UPDATING, raw,
				     &spec);
			rc = nvdimm_labels_replace(&nd_region->mapping[i],
						   pass ? raw : key, false,
						   &spec, 1, 0);
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

	a->uuid = lbl->uuid;
	a->has_uuid = lbl->has_uuid;
	memcpy(a->alt_name, lbl->alt_name, sizeof(a->alt_name));
	a->lbasize = lbl->lbasize;
	a->claim_class = lbl->nsio.claim_class;
	guid_copy(&a->claim_guid, &lbl->claim_guid);
}

/**
 * nd_lbl_attrs_restore - put a snapshot back
 * @dev: the namespace it was taken of
 * @a: the snapshot
 */
void nd_lbl_attrs_restore(struct device *dev, const struct nd_lbl_attrs *a)
{
	struct nd_namespace_lbl *lbl = to_nd_namespace_lbl(dev);

	lbl->uuid = a->uuid;
	lbl->has_uuid = a->has_uuid;
	memcpy(lbl->alt_name, a->alt_name, sizeof(lbl->alt_name));
	lbl->lbasize = a->lbasize;
	lbl->nsio.claim_class = a->claim_class;
	guid_copy(&lbl->claim_guid, &a->claim_guid);
}

/*
 * Labels for a PMEM namespace changing to (offset, size), its attributes
 * already changed from @old (NULL: unchanged).  A set is written DIMM by
 * DIMM, so a failure can leave the DIMMs disagreeing: the labels of the
 * state before (DPA of @nspm, attributes @old) are then written back.
 */
int nd_pmem_labels_update(struct nd_namespace_pmem *nspm, u64 offset,
			  u64 size, const struct nd_lbl_attrs *old)
{
	struct device *dev = &nspm->lbl.nsio.dev;
	const uuid_t *prev = NULL;
	struct nd_lbl_attrs now;
	int rc, rc2;

	/* a rename: the labels written under the old uuid are replaced */
	if (old && old->has_uuid && nspm->dpa_size &&
	    !uuid_equal(&old->uuid, &nspm->lbl.uuid))
		prev = &old->uuid;
	rc = nd_pmem_labels_write(nspm, offset, size, prev);
	if (!rc)
		return 0;
	if (!size && !nspm->dpa_size)
		return rc;	/* an empty deletion: no label was touched */
	nd_lbl_attrs_save(dev, &now);
	if (old)
		nd_lbl_attrs_restore(dev, old);
	/* DIMMs the rename reached carry the new uuid: replace those */
	rc2 = nd_pmem_labels_write(nspm, nspm->dpa_offset, nspm->dpa_size,
				   prev ? &now.uuid : NULL);
	nd_lbl_attrs_restore(dev, &now);
	if (rc2)
		dev_err(dev, "label update failed (%d) and so did restoring the previous labels (%d): the set may be inconsistent until rewritten\n",
			rc, rc2);
	else
		dev_warn(dev, "label update failed (%d): previous labels restored\n",
			 rc);
	return rc;
}

/*
 * Write a BLK namespace's labels, one per extent of @ext (@n 0: delete
 * them), in one transaction on its DIMM.  Labels of extents that did not
 * change stay where they are: growing by a new extent costs one slot,
 * resizing the last extent in place none (nvdimm_labels_replace()).
 * @prev: the uuid the labels carry now when the namespace is being
 * renamed, NULL otherwise.
 */
int nd_blk_labels_write(struct nd_namespace_blk *nsblk,
			const struct nd_dpa_range *ext, u32 n,
			const uuid_t *prev)
{
	struct nd_region *nd_region = to_nd_region(nsblk->lbl.nsio.dev.parent);
	struct nd_label_spec *spec = NULL;
	u8 raw[16], key[16];
	u32 i;
	int rc;

	export_uuid(raw, &nsblk->lbl.uuid);
	export_uuid(key, prev ? prev : &nsblk->lbl.uuid);
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
			.abstraction = &nsblk->lbl.claim_guid,
		};
	rc = nvdimm_labels_replace(&nd_region->mapping[0], key, true,
				   spec, n, 0);
	kfree(spec);
	return rc;
}

/**
 * nd_namespace_labels_rewrite - write a namespace's labels again
 * @dev: a PMEM or BLK namespace (device lock and reconfig_lock held)
 * @old: its attributes before the change (nd_lbl_attrs_save())
 *
 * After a change of uuid, name, sector size or claim class.  A uuid
 * change of a namespace that holds DPA renames it, as 6.1 does: its
 * labels are replaced by labels under the new uuid.
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
					   nsblk->nr_extents,
					   old && old->has_uuid &&
					   !uuid_equal(&old->uuid,
						       &nsblk->lbl.uuid) ?
					   &old->uuid : NULL);
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
		if (nvdimm_labels_walk(&nd_region->mapping[i],
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
