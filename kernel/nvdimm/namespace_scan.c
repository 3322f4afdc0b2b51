// SPDX-License-Identifier: GPL-2.0
/*
 * Alias resolution at region enable: which labels become namespaces.
 *
 * Every live label of every DIMM of the region is read first.  Labels
 * whose DPA ranges overlap on a DIMM are conflicting: neither side is
 * trusted, both are reported and left unclaimed (their DPA stays
 * reserved, nothing is allocated over it).  Then:
 *
 * - PMEM (nstype 5): a uuid found on mapping 0's DIMM in a non-LOCAL
 *   label inside mapping 0 and carrying this set's cookie (or one inside
 *   the mapping with a wrong cookie, which is reported) becomes a
 *   namespace when every DIMM of the set holds exactly one label of it
 *   with the set's cookie (v1.1: cookie1 or the legacy altcookie; v1.2:
 *   cookie2 and the range type GUID), nlabel equal to the ways, a
 *   distinct position, and an extent inside its mapping at the same
 *   offset and of the same size as on the others.
 * - BLK (nstype 6): the LOCAL labels of the DIMM, grouped by uuid, each
 *   extent inside the BLK mapping.
 *
 * Namespaces come up as namespaceR.0, .1, ... in SPA order (BLK: first
 * DPA), followed by one empty namespace, the region's seed; while a DIMM
 * of the region is locked (NDD_LOCKED), none can enable, and the first
 * found is the seed instead, as 6.1's stays until it enables.
 */
#include <linux/device.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uuid.h>
#include "nd-core.h"

/* A live label copied out of a DIMM's cached area. */
struct nd_scan_label {
	struct nd_lsa_label l;		/* first lsize bytes valid */
	u32 slot;
	u32 lsize;
	bool v11;
	bool conflict;
	bool used;
};

struct nd_scan_dimm {
	struct nd_mapping *m;
	struct nvdimm *nvdimm;
	struct nd_scan_label *lab;
	u32 n, max;
	int state;
};

static int nd_scan_count_fn(const struct nd_lsa_label *l, u32 slot,
			    const struct nd_labels_info *info, void *arg)
{
	(*(u32 *)arg)++;
	return 0;
}

struct nd_scan_copy {
	struct nd_scan_dimm *d;
	struct device *dev;	/* the region, for messages */
};

static int nd_scan_copy_fn(const struct nd_lsa_label *l, u32 slot,
			   const struct nd_labels_info *info, void *arg)
{
	struct nd_scan_copy *c = arg;
	struct nd_scan_dimm *d = c->d;
	struct nd_scan_label *sl;

	if (!info->live) {
		dev_warn(c->dev, "%s slot %u: label of %pUb invalid (slot number or checksum): ignored\n",
			 dev_name(&d->nvdimm->dev), slot, l->uuid);
		return 0;
	}
	if (d->n == d->max)
		return 0;	/* the area changed under us: next scan */
	sl = &d->lab[d->n++];
	memcpy(&sl->l, l, info->lsize);
	sl->slot = slot;
	sl->lsize = info->lsize;
	sl->v11 = info->v11;
	return 0;
}

static struct nd_dpa_range nd_scan_range(const struct nd_scan_label *sl)
{
	return (struct nd_dpa_range){ le64_to_cpu(sl->l.dpa),
				      le64_to_cpu(sl->l.rawsize) };
}

/* Read the DIMM's live labels and mark the ones that overlap. */
static int nd_scan_dimm_read(struct nd_region *nd_region,
			     struct nd_scan_dimm *d)
{
	struct nd_scan_copy c = { .d = d, .dev = &nd_region->dev };
	u32 count = 0, i, j;

	d->state = nvdimm_labels_walk(d->m, nd_scan_count_fn, &count);
	if (d->state != ND_LABELS_VALID || !count)
		return 0;
	d->lab = kvcalloc(count, sizeof(*d->lab), GFP_KERNEL);
	if (!d->lab)
		return -ENOMEM;
	d->max = count;
	d->state = nvdimm_labels_walk(d->m, nd_scan_copy_fn, &c);

	/* a range whose end wraps claims the rest of the DIMM: trust none */
	for (i = 0; i < d->n; i++) {
		u64 end;

		if (!check_add_overflow(le64_to_cpu(d->lab[i].l.dpa),
					le64_to_cpu(d->lab[i].l.rawsize), &end))
			continue;
		dev_warn(&nd_region->dev, "%s: label of %pUb (slot %u) claims DPA [%#llx, +%#llx), which wraps: left unclaimed\n",
			 dev_name(&d->nvdimm->dev), d->lab[i].l.uuid,
			 d->lab[i].slot, le64_to_cpu(d->lab[i].l.dpa),
			 le64_to_cpu(d->lab[i].l.rawsize));
		d->lab[i].conflict = true;
	}
	for (i = 0; i < d->n; i++)
		for (j = i + 1; j < d->n; j++) {
			struct nd_dpa_range a = nd_scan_range(&d->lab[i]);
			struct nd_dpa_range b = nd_scan_range(&d->lab[j]);

			if (!nd_dpa_overlap(&a, &b))
				continue;
			if (!d->lab[i].conflict || !d->lab[j].conflict)
				dev_warn(&nd_region->dev, "%s: labels of %pUb (slot %u) and %pUb (slot %u) claim overlapping DPA: both left unclaimed\n",
					 dev_name(&d->nvdimm->dev),
					 d->lab[i].l.uuid, d->lab[i].slot,
					 d->lab[j].l.uuid, d->lab[j].slot);
			d->lab[i].conflict = true;
			d->lab[j].conflict = true;
		}
	return 0;
}

/*
 * The claim class a label records: v1.2 labels (256 bytes) carry it as
 * their abstraction GUID, kept as read so that rewrites preserve it.
 */
static void nd_scan_claim(const struct nd_scan_label *sl,
			  struct nd_namespace_lbl *lbl)
{
	if (sl->lsize < ND_LSA_LABEL_V12)
		return;
	import_guid(&lbl->claim_guid, sl->l.abstraction_guid);
	lbl->nsio.claim_class = nd_claim_class_of_guid(&lbl->claim_guid);
}

static bool nd_label_local(const struct nd_scan_label *sl)
{
	return le32_to_cpu(sl->l.flags) & ND_LSA_FLAG_LOCAL;
}

static bool nd_pmem_cookie_ok(struct nd_region *nd_region,
			      const struct nd_scan_label *sl)
{
	struct nd_interleave_set *set = nd_region->nd_set;
	u64 isc = le64_to_cpu(sl->l.isetcookie);

	return isc && (isc == (sl->v11 ? set->cookie1 : set->cookie2) ||
		       isc == set->altcookie);
}

static bool nd_in_mapping(const struct nd_mapping *m, u64 dpa, u64 size)
{
	return size && dpa >= m->start && size <= m->size &&
	       dpa - m->start <= m->size - size;
}

/*
 * Check the labels of @uuid across all mappings (see the top of the
 * file).  Returns true and fills @ns when the set is complete and sound.
 */
static bool nd_pmem_assemble(struct nd_region *nd_region,
			     struct nd_scan_dimm *dimms, const u8 *uuid,
			     struct nd_namespace_pmem *ns)
{
	struct device *dev = &nd_region->dev;
	int ways = nd_region->ndr_mappings, i;
	const struct nd_scan_label *pos0 = NULL;
	unsigned long seen = 0;
	u64 rawsize = 0, offset = 0;

	for (i = 0; i < ways; i++) {
		struct nd_mapping *m = &nd_region->mapping[i];
		struct nd_scan_dimm *d = &dimms[i];
		const char *dimm = dev_name(&m->nvdimm->dev);
		struct nd_scan_label *sl = NULL;
		u64 dpa, size;
		u32 k, pos;

		for (k = 0; k < d->n; k++) {
			struct nd_scan_label *c = &d->lab[k];

			if (nd_label_local(c) || memcmp(c->l.uuid, uuid, 16))
				continue;
			/* the same uuid may name this set's extent only */
			if (!nd_pmem_cookie_ok(nd_region, c) &&
			    !nd_in_mapping(m, le64_to_cpu(c->l.dpa),
					   le64_to_cpu(c->l.rawsize)))
				continue;
			if (sl) {
				dev_warn(dev, "namespace %pUb: two labels on %s (slots %u, %u): left unclaimed\n",
					 uuid, dimm, sl->slot, c->slot);
				return false;
			}
			sl = c;
		}
		if (!sl) {
			dev_warn(dev, "namespace %pUb: no label on %s: incomplete set, left unclaimed\n",
				 uuid, dimm);
			return false;
		}
		if (sl->conflict)
			return false;	/* reported when read */
		if (!nd_pmem_cookie_ok(nd_region, sl)) {
			dev_warn(dev, "namespace %pUb: label on %s has interleave-set cookie %#llx, not this region's: left unclaimed\n",
				 uuid, dimm, le64_to_cpu(sl->l.isetcookie));
			return false;
		}
		if (sl->lsize >= ND_LSA_LABEL_V12 &&
		    memcmp(sl->l.type_guid, &nd_region->nd_set->type_guid,
			   sizeof(sl->l.type_guid))) {
			dev_warn(dev, "namespace %pUb: label on %s has another address-range type: left unclaimed\n",
				 uuid, dimm);
			return false;
		}
		pos = le16_to_cpu(sl->l.position);
		if (le16_to_cpu(sl->l.nlabel) != ways || pos >= ways ||
		    pos >= BITS_PER_LONG || (seen & BIT(pos))) {
			dev_warn(dev, "namespace %pUb: label on %s says position %u of %u in a %d-way set: left unclaimed\n",
				 uuid, dimm, pos, le16_to_cpu(sl->l.nlabel),
				 ways);
			return false;
		}
		seen |= BIT(pos);
		dpa = le64_to_cpu(sl->l.dpa);
		size = le64_to_cpu(sl->l.rawsize);
		if (!nd_in_mapping(m, dpa, size)) {
			dev_warn(dev, "namespace %pUb: label on %s covers DPA [%#llx, +%#llx), outside the mapping [%#llx, +%#llx): left unclaimed\n",
				 uuid, dimm, dpa, size, m->start, m->size);
			return false;
		}
		if (i == 0) {
			rawsize = size;
			offset = dpa - m->start;
		} else if (size != rawsize || dpa - m->start != offset) {
			dev_warn(dev, "namespace %pUb: label on %s disagrees on size or offset with %s: left unclaimed\n",
				 uuid, dimm,
				 dev_name(&nd_region->mapping[0].nvdimm->dev));
			return false;
		}
		if (pos == 0)
			pos0 = sl;
	}

	memset(ns, 0, sizeof(*ns));
	import_uuid(&ns->lbl.uuid, uuid);
	ns->lbl.has_uuid = true;
	memcpy(ns->lbl.alt_name, pos0->l.name, sizeof(ns->lbl.alt_name) - 1);
	ns->lbl.lbasize = le64_to_cpu(pos0->l.lbasize);
	nd_scan_claim(pos0, &ns->lbl);
	ns->dpa_offset = offset;
	ns->dpa_size = rawsize;
	ns->lbl.nsio.res_start = nd_region->res_start + offset * ways;
	ns->lbl.nsio.res_size = rawsize * ways;
	return true;
}

static int nd_pmem_cmp(const void *a, const void *b)
{
	const struct nd_namespace_pmem *x = a, *y = b;

	if (x->dpa_offset != y->dpa_offset)
		return x->dpa_offset < y->dpa_offset ? -1 : 1;
	return 0;
}

static int nd_scan_pmem(struct nd_region *nd_region, struct nd_scan_dimm *dimms,
			struct device **first)
{
	struct nd_scan_dimm *d0 = &dimms[0];
	struct nd_mapping *m0 = &nd_region->mapping[0];
	struct nd_namespace_pmem *found;
	u32 k, j, nfound = 0;
	int rc = 0;

	if (!nd_region->nd_set ||
	    (!nd_region->nd_set->cookie1 && !nd_region->nd_set->cookie2) ||
	    !d0->n)
		return 0;
	found = kcalloc(d0->n, sizeof(*found), GFP_KERNEL);
	if (!found)
		return -ENOMEM;

	for (k = 0; k < d0->n; k++) {
		struct nd_scan_label *sl = &d0->lab[k];
		struct nd_namespace_pmem *f = &found[nfound];
		bool inside = nd_in_mapping(m0, le64_to_cpu(sl->l.dpa),
					    le64_to_cpu(sl->l.rawsize));

		if (nd_label_local(sl) || sl->used)
			continue;
		/* another set's label on this DIMM is none of our business */
		if (!inside && !nd_pmem_cookie_ok(nd_region, sl))
			continue;
		for (j = k; j < d0->n; j++)
			if (!memcmp(d0->lab[j].l.uuid, sl->l.uuid, 16))
				d0->lab[j].used = true;
		if (!nd_pmem_assemble(nd_region, dimms, sl->l.uuid, f))
			continue;
		dev_dbg(&nd_region->dev, "namespace %pUb: %#llx bytes at %#llx from labels\n",
			&f->lbl.uuid, f->lbl.nsio.res_size,
			f->lbl.nsio.res_start);
		nfound++;
	}

	sort(found, nfound, sizeof(*found), nd_pmem_cmp, NULL);
	for (k = 0; k < nfound && !rc; k++) {
		struct device *dev = nd_namespace_pmem_create(nd_region,
							      &found[k]);

		if (IS_ERR(dev))
			rc = PTR_ERR(dev);
		else if (!*first)
			*first = dev;
	}
	kfree(found);
	return rc;
}

static int nd_range_cmp(const void *a, const void *b)
{
	const struct nd_dpa_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static int nd_blk_first_cmp(const void *a, const void *b)
{
	const struct nd_namespace_blk *x = a, *y = b;

	return nd_range_cmp(&x->extents[0], &y->extents[0]);
}

/* Assemble the BLK namespace of @uuid from the DIMM's LOCAL labels. */
static int nd_blk_assemble(struct nd_region *nd_region, struct nd_scan_dimm *d,
			   u32 first, struct nd_namespace_blk *ns)
{
	struct nd_mapping *m = &nd_region->mapping[0];
	const u8 *uuid = d->lab[first].l.uuid;
	bool bad = false;
	u32 k, n = 0;

	for (k = first; k < d->n; k++) {
		struct nd_scan_label *sl = &d->lab[k];

		if (!nd_label_local(sl) || memcmp(sl->l.uuid, uuid, 16))
			continue;
		sl->used = true;
		n++;
		if (sl->conflict) {
			bad = true;	/* reported when read */
		} else if (!nd_in_mapping(m, le64_to_cpu(sl->l.dpa),
					  le64_to_cpu(sl->l.rawsize))) {
			dev_warn(&nd_region->dev, "namespace %pUb: label in slot %u covers DPA [%#llx, +%#llx), outside %s's BLK range: left unclaimed\n",
				 uuid, sl->slot, le64_to_cpu(sl->l.dpa),
				 le64_to_cpu(sl->l.rawsize),
				 dev_name(&m->nvdimm->dev));
			bad = true;
		}
	}
	if (bad)
		return 0;
	memset(ns, 0, sizeof(*ns));
	ns->extents = kcalloc(n, sizeof(*ns->extents), GFP_KERNEL);
	if (!ns->extents)
		return -ENOMEM;
	for (k = first; k < d->n; k++) {
		struct nd_scan_label *sl = &d->lab[k];

		if (!nd_label_local(sl) || memcmp(sl->l.uuid, uuid, 16))
			continue;
		ns->extents[ns->nr_extents++] = nd_scan_range(sl);
		ns->lbl.nsio.res_size += le64_to_cpu(sl->l.rawsize);
	}
	sort(ns->extents, n, sizeof(*ns->extents), nd_range_cmp, NULL);
	import_uuid(&ns->lbl.uuid, uuid);
	ns->lbl.has_uuid = true;
	memcpy(ns->lbl.alt_name, d->lab[first].l.name,
	       sizeof(ns->lbl.alt_name) - 1);
	ns->lbl.lbasize = le64_to_cpu(d->lab[first].l.lbasize);
	nd_scan_claim(&d->lab[first], &ns->lbl);
	return 1;
}

static int nd_scan_blk(struct nd_region *nd_region, struct nd_scan_dimm *d,
		       struct device **first)
{
	struct nd_namespace_blk *found;
	u32 k, nfound = 0;
	int rc = 0;

	if (!d->n)
		return 0;
	found = kcalloc(d->n, sizeof(*found), GFP_KERNEL);
	if (!found)
		return -ENOMEM;
	for (k = 0; k < d->n && !rc; k++) {
		if (!nd_label_local(&d->lab[k]) || d->lab[k].used)
			continue;
		rc = nd_blk_assemble(nd_region, d, k, &found[nfound]);
		if (rc > 0) {
			nfound++;
			rc = 0;
		}
	}
	if (!rc)
		sort(found, nfound, sizeof(*found), nd_blk_first_cmp, NULL);
	for (k = 0; k < nfound; k++) {
		struct device *dev;

		if (rc) {
			kfree(found[k].extents);
			continue;
		}
		/* the namespace takes the extent array over */
		dev = nd_namespace_blk_create(nd_region, &found[k]);
		if (IS_ERR(dev))
			rc = PTR_ERR(dev);
		else if (!*first)
			*first = dev;
	}
	kfree(found);
	return rc;
}

/**
 * nd_region_scan_namespaces - publish a PMEM or BLK region's namespaces
 * @nd_region: a region of nstype 5 or 6 being enabled (device lock held)
 *
 * Assembles the namespaces its DIMMs' labels describe (see the top of
 * this file), then adds the empty seed (or, a DIMM locked, names the
 * first of them the seed), and opens the region for new seeds.  Takes
 * the bus' reconfig_lock.  Returns 0 or a negative errno (the caller
 * unregisters whatever was published).
 */
int nd_region_scan_namespaces(struct nd_region *nd_region)
{
	struct mutex *lock = &walk_to_nvdimm_bus(&nd_region->dev)->reconfig_lock;
	int ways = nd_region->ndr_mappings, i, rc = 0;
	struct device *seed, *first = NULL;
	struct nd_scan_dimm *dimms;

	dimms = kcalloc(max(ways, 1), sizeof(*dimms), GFP_KERNEL);
	if (!dimms)
		return -ENOMEM;
	mutex_lock(lock);
	for (i = 0; i < ways && !rc; i++) {
		dimms[i].m = &nd_region->mapping[i];
		dimms[i].nvdimm = nd_region->mapping[i].nvdimm;
		rc = nd_scan_dimm_read(nd_region, &dimms[i]);
	}
	if (!rc && ways) {
		if (is_nd_blk(nd_region))
			rc = nd_scan_blk(nd_region, &dimms[0], &first);
		else
			rc = nd_scan_pmem(nd_region, dimms, &first);
	}
	/*
	 * A DIMM whose capacity is locked: no namespace can enable, so, as
	 * in 6.1 (whose seed is the first namespace found until it enables),
	 * the first one stays the seed and no empty one is added.
	 */
	if (!rc && first && nd_region_dimm_locked(nd_region, &nd_region->dev)) {
		nd_region->ns_seed = first;
		nd_region->ns_active = true;
	} else if (!rc) {
		if (is_nd_blk(nd_region))
			seed = nd_namespace_blk_create(nd_region, NULL);
		else
			seed = nd_namespace_pmem_create(nd_region, NULL);
		if (IS_ERR(seed)) {
			rc = PTR_ERR(seed);
		} else {
			nd_region->ns_seed = seed;
			nd_region->ns_active = true;
		}
	}
	mutex_unlock(lock);
	for (i = 0; i < ways; i++)
		kvfree(dimms[i].lab);
	kfree(dimms);
	return rc;
}
