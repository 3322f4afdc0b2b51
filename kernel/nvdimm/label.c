// SPDX-License-Identifier: GPL-2.0
/*
 * Label storage of a bound DIMM: at bind the "nvdimm" driver reads the
 * whole label area through the DIMM's GET_CONFIG_DATA command into a
 * per-DIMM copy and finds its current and next index blocks
 * (label-format.c).  A DIMM whose area cannot be read is label-less: it
 * still binds, and nothing is ever written to it on that basis.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/bitmap.h>
#include <linux/sort.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include "nd-core.h"

/*
 * Largest label area the core caches.  Real DIMMs have 128 KiB (the
 * namespace label specification asks for at least that); firmware that
 * claims gigabytes is not believed.
 */
#define ND_LABEL_AREA_MAX SZ_16M

/* The layout a blank area gets: v1.1 where the DIMM aliases BLK (v4.2). */
static enum nd_lsa_version nvdimm_fresh_version(struct nvdimm *nvdimm)
{
	return test_bit(NDD_ALIASING, &nvdimm->desc.flags) ? ND_LSA_V11 :
							      ND_LSA_V12;
}

static void nvdimm_labels_report(struct nvdimm_drvdata *ndd)
{
	struct nd_lsa *lsa = &ndd->lsa;
	const struct nd_lsa_index *ix;
	int b;

	if (lsa->cur < 0) {
		/* a blank area is normal; a damaged index is worth a word */
		if (lsa->verdict[0] == ND_LSA_BAD_SIG &&
		    lsa->verdict[1] == ND_LSA_BAD_SIG)
			dev_dbg(ndd->dev, "label area of %u bytes has no index: label-less\n",
				lsa->size);
		else
			dev_warn(ndd->dev, "no valid label index (index0: %s; index1: %s): label-less, area left as it is\n",
				 nd_lsa_verdict_name(lsa->verdict[0]),
				 nd_lsa_verdict_name(lsa->verdict[1]));
		return;
	}

	ix = nd_lsa_index(lsa, lsa->cur);
	for (b = 0; b < 2; b++)
		if (lsa->verdict[b] != ND_LSA_VALID)
			dev_warn(ndd->dev, "label index%d invalid (%s): using index%d\n",
				 b, nd_lsa_verdict_name(lsa->verdict[b]),
				 lsa->cur);
	dev_dbg(ndd->dev, "label index%d current: v%u.%u, seq %u, %u slots of %u bytes, %u free\n",
		lsa->cur, le16_to_cpu(ix->major), le16_to_cpu(ix->minor),
		le32_to_cpu(ix->seq) & ND_LSA_SEQ_MASK,
		nd_lsa_index_nslot(ix), lsa->lsize, nd_lsa_nfree(ix));
}

static void nvdimm_drvdata_release(struct kref *kref)
{
	struct nvdimm_drvdata *ndd =
		container_of(kref, struct nvdimm_drvdata, kref);

	kvfree(ndd->data);
	kfree(ndd);
}

/**
 * nvdimm_drvdata_put - drop a reference on a DIMM's label state
 * @ndd: the label state, may be NULL
 */
void nvdimm_drvdata_put(struct nvdimm_drvdata *ndd)
{
	if (ndd)
		kref_put(&ndd->kref, nvdimm_drvdata_release);
}

/**
 * nd_mapping_ndd - the label state a region's mapping works on
 * @m: the mapping
 *
 * The state the enabled region holds, else that of the DIMM's current
 * bind; NULL when neither exists.  The bus' reconfig_lock is held and
 * keeps the result alive until it is dropped.
 */
struct nvdimm_drvdata *nd_mapping_ndd(struct nd_mapping *m)
{
	lockdep_assert_held(&walk_to_nvdimm_bus(&m->nvdimm->dev)->reconfig_lock);
	return m->ndd ? m->ndd : dev_get_drvdata(&m->nvdimm->dev);
}

/*
 * nvdimm_labels_load() body: fill @ndd from the DIMM, or leave it
 * label-less (no area data) saying why.  -EACCES when the firmware
 * refused the label data as locked: the DIMM must not bind (6.1).
 */
static int __nvdimm_labels_load(struct nvdimm *nvdimm,
				struct nvdimm_drvdata *ndd)
{
	struct device *dev = &nvdimm->dev;
	void *data;
	u32 size;
	int rc;

	ndd->lsa.cur = -1;
	ndd->lsa.next = -1;
	ndd->fresh = nvdimm_fresh_version(nvdimm);

	/* the firmware says again at every bind whether it is locked */
	clear_bit(NDD_LOCKED, &nvdimm->state);
	if (!test_bit(ND_CMD_GET_CONFIG_DATA, &nvdimm->desc.cmd_mask)) {
		dev_dbg(dev, "no label read command: label-less\n");
		return 0;
	}
	if (nvdimm_security_locked(nvdimm)) {
		dev_dbg(dev, "locked: label area not read\n");
		return 0;
	}
	rc = nvdimm_config_limits(nvdimm, true);
	if (rc == -EACCES) {
		/*
		 * 6.1's reading: the capacity is locked, the labels are not;
		 * they are read so the namespaces enumerate (none enables)
		 */
		dev_dbg(dev, "label size: capacity locked\n");
		set_bit(NDD_LOCKED, &nvdimm->state);
		rc = 0;
	}
	if (rc == -ENOTTY) {
		dev_dbg(dev, "no label size command: label-less\n");
		return 0;
	}
	if (rc) {
		dev_warn(dev, "label area size unavailable (%d): label-less\n",
			 rc);
		return 0;
	}
	size = nvdimm->cfg_size;
	if (size > ND_LABEL_AREA_MAX) {
		dev_warn(dev, "label area of %u bytes is implausible (max %u): label-less\n",
			 size, ND_LABEL_AREA_MAX);
		return 0;
	}

	data = kvzalloc(size, GFP_KERNEL);
	if (!data)
		return 0;	/* label-less; the allocator said why */
	rc = nvdimm_get_config_data(nvdimm, data, 0, size);
	if (rc == -EACCES) {
		dev_warn(dev, "label area locked: not binding\n");
		set_bit(NDD_LOCKED, &nvdimm->state);
		kvfree(data);
		return rc;
	}
	if (rc) {
		dev_warn(dev, "label area unreadable (%d): label-less\n", rc);
		kvfree(data);
		return 0;
	}

	ndd->data = data;
	ndd->lsa.area = data;
	ndd->lsa.size = size;
	nd_lsa_validate(&ndd->lsa);
	nd_lsa_next_prepare(&ndd->lsa);
	nvdimm_labels_report(ndd);
	return 0;
}

/**
 * nvdimm_labels_load - read and validate a DIMM's label area at bind
 * @nvdimm: the DIMM being bound to the "nvdimm" driver
 *
 * Returns new label state (one reference) holding the cached area and
 * its index blocks, or none when the DIMM has no label commands, the
 * firmware cannot report or read the area, or memory is short.  Those
 * cases are logged and leave the DIMM label-less.  Errors:
 * ERR_PTR(-ENOMEM) when the state itself cannot be allocated,
 * ERR_PTR(-EACCES) when the firmware refused the label data as locked
 * (NDD_LOCKED set).  A label size refused as locked sets NDD_LOCKED but
 * reads the area all the same, as 6.1 does.
 */
struct nvdimm_drvdata *nvdimm_labels_load(struct nvdimm *nvdimm)
{
	struct nvdimm_drvdata *ndd;
	int rc;

	ndd = kzalloc(sizeof(*ndd), GFP_KERNEL);
	if (!ndd)
		return ERR_PTR(-ENOMEM);
	kref_init(&ndd->kref);
	ndd->dev = &nvdimm->dev;
	rc = __nvdimm_labels_load(nvdimm, ndd);
	if (rc) {
		nvdimm_drvdata_put(ndd);
		return ERR_PTR(rc);
	}
	return ndd;
}

/**
 * nvdimm_cookie_is_v11 - whether the DIMM's labels use the v1.1 set cookie
 * @nvdimm: the first DIMM of a region's interleave set
 *
 * As 6.1 decides which cookie the region's set_cookie shows: the v1.1
 * cookie while the DIMM is not bound to the "nvdimm" driver, when it has
 * no label area data (no label commands, or unreadable: 6.1 keeps no
 * driver data then) and when its current index is version 1.1; the v1.2
 * cookie when the current index is any other version or the area holds
 * no valid index.  Takes the bus' reconfig_lock.
 */
bool nvdimm_cookie_is_v11(struct nvdimm *nvdimm)
{
	struct mutex *lock = &walk_to_nvdimm_bus(&nvdimm->dev)->reconfig_lock;
	struct nvdimm_drvdata *ndd;
	bool v11 = true;

	mutex_lock(lock);
	ndd = dev_get_drvdata(&nvdimm->dev);
	if (ndd && ndd->data)
		v11 = ndd->lsa.cur >= 0 &&
		      nd_lsa_index_is_v11(nd_lsa_index(&ndd->lsa,
						       ndd->lsa.cur));
	mutex_unlock(lock);
	return v11;
}

/* What a mapping's label area can do for the namespace code right now. */
static enum nd_labels_state nvdimm_labels_state(struct nd_mapping *m,
						struct nvdimm_drvdata **pndd)
{
	struct nvdimm_drvdata *ndd;

	*pndd = NULL;
	ndd = nd_mapping_ndd(m);
	if (!ndd || !ndd->data)
		return ND_LABELS_NONE;
	*pndd = ndd;
	if (ndd->lsa.cur >= 0)
		return ND_LABELS_VALID;
	if (ndd->lsa.verdict[0] == ND_LSA_BAD_SIG &&
	    ndd->lsa.verdict[1] == ND_LSA_BAD_SIG)
		return ND_LABELS_BLANK;
	return ND_LABELS_DAMAGED;
}

/**
 * nvdimm_labels_walk - visit the live labels of a DIMM's current index
 * @m: a mapping of the DIMM (the bus' reconfig_lock is held)
 * @fn: called for each live label; a non-zero return stops the walk
 * @arg: passed to @fn
 *
 * A live label is in a slot the current index marks used, with its slot
 * number (and, v1.2, checksum) right.  @fn gets whether the index is
 * version 1.1 (which interleave-set cookie applies) and the label size.
 * Returns the area's state (enum nd_labels_state: labels exist only in
 * ND_LABELS_VALID), or @fn's non-zero return as a negative errno.
 */
int nvdimm_labels_walk(struct nd_mapping *m,
		       int (*fn)(const struct nd_lsa_label *label, u32 slot,
				 const struct nd_labels_info *info, void *arg),
		       void *arg)
{
	struct nvdimm_drvdata *ndd;
	const struct nd_lsa_index *ix;
	struct nd_labels_info info;
	int state, rc = 0;
	u32 slot, nslot;

	state = nvdimm_labels_state(m, &ndd);
	if (state != ND_LABELS_VALID)
		return state;
	ix = nd_lsa_index(&ndd->lsa, ndd->lsa.cur);
	nslot = nd_lsa_index_nslot(ix);
	info.v11 = nd_lsa_index_is_v11(ix);
	info.lsize = ndd->lsa.lsize;
	for (slot = 0; slot < nslot && !rc; slot++) {
		if (nd_lsa_slot_is_free(ix, slot))
			continue;
		if (!nd_lsa_label_live(&ndd->lsa, slot)) {
			info.live = false;
			rc = fn(nd_lsa_label(&ndd->lsa, slot), slot, &info, arg);
			continue;
		}
		info.live = true;
		rc = fn(nd_lsa_label(&ndd->lsa, slot), slot, &info, arg);
	}
	return rc ? rc : state;
}

/* Write the whole of the next index block, then make it current. */
static int nvdimm_index_commit(struct nvdimm *nvdimm,
			       struct nvdimm_drvdata *ndd)
{
	struct nd_lsa *lsa = &ndd->lsa;
	int rc;

	nd_lsa_next_seal(lsa);
	rc = nvdimm_set_config_data(nvdimm, lsa->next * lsa->isize,
				    nd_lsa_index(lsa, lsa->next), lsa->isize);
	if (rc) {
		dev_err(&nvdimm->dev, "label index%d write failed (%d): index%d stays current\n",
			lsa->next, rc, lsa->cur);
		lsa->verdict[lsa->next] = ND_LSA_BAD_CHECKSUM;
		nd_lsa_next_prepare(lsa);
		return rc;
	}
	nd_lsa_switch(lsa);
	return 0;
}

/* A blank area gets both index blocks (no labels) before its first label. */
static int nvdimm_index_init(struct nvdimm *nvdimm, struct nvdimm_drvdata *ndd)
{
	struct nd_lsa *lsa = &ndd->lsa;
	int rc, b;

	rc = nd_lsa_init(lsa, ndd->fresh);
	if (rc) {
		dev_err(&nvdimm->dev, "label area of %u bytes too small for an index\n",
			lsa->size);
		goto undo;
	}
	/* block 1 (the older sequence number) first, then the current one */
	for (b = 1; b >= 0; b--) {
		rc = nvdimm_set_config_data(nvdimm, b * lsa->isize,
					    nd_lsa_index(lsa, b), lsa->isize);
		if (rc) {
			dev_err(&nvdimm->dev, "label index%d initialisation failed: %d\n",
				b, rc);
			goto undo;
		}
	}
	dev_info(&nvdimm->dev, "label area initialised: v1.%d, %u slots\n",
		 ndd->fresh == ND_LSA_V12 ? 2 : 1,
		 nd_lsa_index_nslot(nd_lsa_index(lsa, lsa->cur)));
	/*
	 * No nd_lsa_next_prepare(): block 1 stays as initialised, so the
	 * first commit numbers it 3, as 6.1 does (nd_lsa_next_seal()).
	 */
	return 0;
undo:
	/* forget the in-memory index: the area counts as blank again */
	lsa->cur = -1;
	lsa->next = -1;
	lsa->verdict[0] = ND_LSA_BAD_SIG;
	lsa->verdict[1] = ND_LSA_BAD_SIG;
	return rc ? rc : -ENXIO;
}

static void nvdimm_label_fill(struct nd_lsa_label *l, u32 lsize, bool v11,
			      const struct nd_label_spec *spec, u32 slot)
{
	memset(l, 0, lsize);
	memcpy(l->uuid, spec->uuid, sizeof(l->uuid));
	strscpy(l->name, spec->name, sizeof(l->name));
	l->flags = cpu_to_le32(spec->flags);
	l->nlabel = cpu_to_le16(spec->nlabel);
	l->position = cpu_to_le16(spec->position);
	l->isetcookie = cpu_to_le64(v11 ? spec->cookie_v11 : spec->cookie_v12);
	l->lbasize = cpu_to_le64(spec->lbasize);
	l->dpa = cpu_to_le64(spec->dpa);
	l->rawsize = cpu_to_le64(spec->rawsize);
	l->slot = cpu_to_le32(slot);
	if (lsize >= ND_LSA_LABEL_V12) {
		if (spec->type_guid)
			export_guid(l->type_guid, spec->type_guid);
		if (spec->abstraction)
			export_guid(l->abstraction_guid, spec->abstraction);
	}
	nd_lsa_label_seal(l, lsize);
}

static bool nvdimm_label_is_of(const struct nd_lsa_label *l, const u8 *uuid,
			       bool local)
{
	return !memcmp(l->uuid, uuid, sizeof(l->uuid)) &&
	       !!(le32_to_cpu(l->flags) & ND_LSA_FLAG_LOCAL) == local;
}

/* A live label of the namespace being updated: freed at commit unless kept. */
struct nvdimm_old_label {
	u64 dpa;
	u32 slot;
	bool keep;
};

static int nvdimm_old_label_cmp(const void *a, const void *b)
{
	const struct nvdimm_old_label *x = a, *y = b;

	if (x->dpa != y->dpa)
		return x->dpa < y->dpa ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * Mark the old label that says exactly what @spec would (any slot) to be
 * kept; @old is sorted by DPA.  Returns whether there was one.
 */
static bool nvdimm_label_carry(struct nd_lsa *lsa, bool v11,
			       const struct nd_label_spec *spec,
			       struct nvdimm_old_label *old, u32 nold,
			       struct nd_lsa_label *tmp)
{
	u32 lo = 0, hi = nold, i;

	while (lo < hi) {	/* the first old label at or above spec->dpa */
		u32 mid = lo + (hi - lo) / 2;

		if (old[mid].dpa < spec->dpa)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < nold && old[i].dpa == spec->dpa; i++) {
		if (old[i].keep)
			continue;
		nvdimm_label_fill(tmp, lsa->lsize, v11, spec, old[i].slot);
		if (nd_lsa_label_same(tmp, nd_lsa_label(lsa, old[i].slot),
				      lsa->lsize)) {
			old[i].keep = true;
			return true;
		}
	}
	return false;
}

/**
 * nvdimm_labels_replace - replace a namespace's labels on one DIMM
 * @m: a mapping of the DIMM (the bus' reconfig_lock is held)
 * @uuid: the namespace's uuid
 * @local: BLK labels (LOCAL flag set) rather than PMEM ones
 * @spec: the new labels; may be NULL when @n is 0 (delete)
 * @n: number of new labels
 * @flags: ND_LABELS_COMMIT_EMPTY: commit (write the index) even when
 *	nothing changes, as 6.1 does for every attribute write on a PMEM
 *	namespace that has a uuid but no DPA
 *
 * One transaction (docs/namespaces.md, "Label updates"): a live label of
 * the namespace that already says what one of @spec says stays where it
 * is; the other new labels go to the lowest free slots of the next index
 * block, the slots of the namespace's other live labels are freed in it,
 * and writing that block is the commit point.  The update must leave one
 * slot free (nd_lsa_update_fits()).  A blank area is given both index
 * blocks first; a damaged one (no valid index, but not blank) is
 * refused, nothing is written.  Deleting (@n 0) from an area without a
 * valid index is a no-op, and so is an update that changes no label.
 * Returns 0, -ENXIO (DIMM not enabled, no label area, damaged index),
 * -ENOSPC (slots), -ENOMEM, or the label write's error; on error the
 * current index on media and in memory is the one before the call.
 */
int nvdimm_labels_replace(struct nd_mapping *m, const u8 *uuid, bool local,
			  const struct nd_label_spec *spec, u32 n,
			  unsigned int flags)
{
	struct nvdimm *nvdimm = m->nvdimm;
	struct device *ddev = &nvdimm->dev;
	struct nvdimm_old_label *old = NULL;
	struct nd_lsa_label *tmp = NULL;
	struct nvdimm_drvdata *ndd;
	struct nd_lsa_index *cur, *next;
	u32 nslot, slot, i, nfree, nold = 0, nnew = 0, victims;
	unsigned long *carried = NULL;
	struct nd_lsa *lsa;
	bool v11;
	int rc = 0;

	switch (nvdimm_labels_state(m, &ndd)) {
	case ND_LABELS_NONE:
		dev_dbg(ddev, "label update: DIMM not enabled or without a label area\n");
		return -ENXIO;
	case ND_LABELS_DAMAGED:
		if (!n)
			return 0;	/* nothing to delete */
		dev_err(ddev, "label update refused: the label index is damaged (both blocks invalid); reinitialise it (ndctl init-labels) first\n");
		return -ENXIO;
	case ND_LABELS_BLANK:
		if (!n)
			return 0;	/* nothing to delete */
		rc = nvdimm_index_init(nvdimm, ndd);
		if (rc)
			return rc;
		break;
	case ND_LABELS_VALID:
		/*
		 * An index of another major version (CXL 2.0 label areas are
		 * v2.1) holds labels of a layout we do not write: read as 6.1
		 * reads it, never mixed with ours; nothing to delete there.
		 */
		if (le16_to_cpu(nd_lsa_index(&ndd->lsa, ndd->lsa.cur)->major) != 1) {
			if (!n)
				return 0;
			dev_err(ddev, "label update refused: the label index is version %u.%u, not EFI's 1.x (CXL labels?); reinitialise it (ndctl init-labels) first\n",
				le16_to_cpu(nd_lsa_index(&ndd->lsa, ndd->lsa.cur)->major),
				le16_to_cpu(nd_lsa_index(&ndd->lsa, ndd->lsa.cur)->minor));
			return -ENXIO;
		}
		break;
	}
	lsa = &ndd->lsa;
	cur = nd_lsa_index(lsa, lsa->cur);
	next = nd_lsa_index(lsa, lsa->next);
	nslot = nd_lsa_index_nslot(cur);
	v11 = nd_lsa_index_is_v11(cur);

	for (slot = 0; slot < nslot; slot++)
		if (!nd_lsa_slot_is_free(cur, slot) &&
		    nd_lsa_label_live(lsa, slot) &&
		    nvdimm_label_is_of(nd_lsa_label(lsa, slot), uuid, local))
			nold++;
	if (nold) {
		old = kvcalloc(nold, sizeof(*old), GFP_KERNEL);
		if (!old)
			return -ENOMEM;
		i = 0;
		for (slot = 0; slot < nslot && i < nold; slot++) {
			struct nd_lsa_label *l = nd_lsa_label(lsa, slot);

			if (!nd_lsa_slot_is_free(cur, slot) &&
			    nd_lsa_label_live(lsa, slot) &&
			    nvdimm_label_is_of(l, uuid, local))
				old[i++] = (struct nvdimm_old_label){
					.dpa = le64_to_cpu(l->dpa),
					.slot = slot,
				};
		}
		sort(old, nold, sizeof(*old), nvdimm_old_label_cmp, NULL);
	}
	if (n) {
		carried = bitmap_zalloc(n, GFP_KERNEL);
		tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);
		if (!carried || !tmp) {
			rc = -ENOMEM;
			goto out;
		}
	}
	/* what is already on the media stays where it is */
	for (i = 0; i < n; i++) {
		if (nvdimm_label_carry(lsa, v11, &spec[i], old, nold, tmp))
			__set_bit(i, carried);
		else
			nnew++;
	}
	victims = nold - (n - nnew);
	if (!nnew && !victims && !(flags & ND_LABELS_COMMIT_EMPTY))
		goto out;
	nfree = nd_lsa_nfree(next);
	if (!nd_lsa_update_fits(nfree, nnew, victims)) {
		dev_info(ddev, "label area full: %u new label(s), %u replaced, %u slot(s) free and one of them stays in reserve\n",
			 nnew, victims, nfree);
		rc = -ENOSPC;
		goto out;
	}

	/* new labels into free slots of the next index (not yet committed) */
	for (i = 0; i < n; i++) {
		struct nd_lsa_label *l;

		if (test_bit(i, carried))
			continue;
		slot = nd_lsa_first_free(next);
		l = nd_lsa_label(lsa, slot);
		nvdimm_label_fill(l, lsa->lsize, v11, &spec[i], slot);
		rc = nvdimm_set_config_data(nvdimm, (u8 *)l - (u8 *)lsa->area,
					    l, lsa->lsize);
		if (rc) {
			dev_err(ddev, "label slot %u write failed (%d): labels unchanged\n",
				slot, rc);
			nd_lsa_next_prepare(lsa);
			goto out;
		}
		nd_lsa_slot_set_free(next, slot, false);
	}
	/* the superseded labels: still live in cur, free in next */
	for (i = 0; i < nold; i++)
		if (!old[i].keep)
			nd_lsa_slot_set_free(next, old[i].slot, true);
	rc = nvdimm_index_commit(nvdimm, ndd);
	if (!rc)
		dev_dbg(ddev, "labels of %pUb: %u written, %u kept, %u freed, index%d current\n",
			uuid, nnew, n - nnew, victims, lsa->cur);
out:
	kfree(tmp);
	bitmap_free(carried);
	kvfree(old);
	return rc;
}
