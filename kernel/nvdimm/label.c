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
#include <linux/sizes.h>
#include "nd-core.h"

/*
 * Largest label area the core caches.  Real DIMMs have 128 KiB (the
 * namespace label specification asks for at least that); firmware that
 * claims gigabytes is not believed.
 */
#define ND_LABEL_AREA_MAX SZ_16M

static void nvdimm_labels_free(void *data)
{
	kvfree(data);
}

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

/**
 * nvdimm_labels_load - read and validate a DIMM's label area at bind
 * @nvdimm: the DIMM being bound to the "nvdimm" driver
 * @ndd: its driver data (zeroed, @ndd->dev set)
 *
 * Fills @ndd: the cached area and its index blocks, or nothing when the
 * DIMM has no label commands, the firmware cannot report or read the
 * area, or memory is short.  Those cases are logged and leave the DIMM
 * label-less; they never fail the bind.
 */
void nvdimm_labels_load(struct nvdimm *nvdimm, struct nvdimm_drvdata *ndd)
{
	struct device *dev = &nvdimm->dev;
	void *data;
	u32 size;
	int rc;

	ndd->lsa.cur = -1;
	ndd->lsa.next = -1;
	ndd->fresh = nvdimm_fresh_version(nvdimm);

	if (!test_bit(ND_CMD_GET_CONFIG_DATA, &nvdimm->desc.cmd_mask)) {
		dev_dbg(dev, "no label read command: label-less\n");
		return;
	}
	rc = nvdimm_config_limits(nvdimm);
	if (rc == -ENOTTY) {
		dev_dbg(dev, "no label size command: label-less\n");
		return;
	}
	if (rc) {
		dev_warn(dev, "label area size unavailable (%d): label-less\n",
			 rc);
		return;
	}
	size = nvdimm->cfg_size;
	if (size > ND_LABEL_AREA_MAX) {
		dev_warn(dev, "label area of %u bytes is implausible (max %u): label-less\n",
			 size, ND_LABEL_AREA_MAX);
		return;
	}

	data = kvzalloc(size, GFP_KERNEL);
	if (!data)
		return;	/* label-less; the allocator said why */
	rc = devm_add_action_or_reset(dev, nvdimm_labels_free, data);
	if (rc) {
		dev_warn(dev, "cannot keep the label area (%d): label-less\n",
			 rc);
		return;
	}
	rc = nvdimm_get_config_data(nvdimm, data, 0, size);
	if (rc) {
		dev_warn(dev, "label area unreadable (%d): label-less\n", rc);
		devm_release_action(dev, nvdimm_labels_free, data);
		return;
	}

	ndd->data = data;
	ndd->lsa.area = data;
	ndd->lsa.size = size;
	nd_lsa_validate(&ndd->lsa);
	nd_lsa_next_prepare(&ndd->lsa);
	nvdimm_labels_report(ndd);
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
 * no valid index.  Takes the DIMM's device lock.
 */
bool nvdimm_cookie_is_v11(struct nvdimm *nvdimm)
{
	struct device *dev = &nvdimm->dev;
	struct nvdimm_drvdata *ndd;
	bool v11 = true;

	device_lock(dev);
	ndd = dev->driver ? dev_get_drvdata(dev) : NULL;
	if (ndd && ndd->data)
		v11 = ndd->lsa.cur >= 0 &&
		      nd_lsa_index_is_v11(nd_lsa_index(&ndd->lsa,
						       ndd->lsa.cur));
	device_unlock(dev);
	return v11;
}
