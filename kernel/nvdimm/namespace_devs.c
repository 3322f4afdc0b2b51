// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace devices (namespaceR.N).  An IO namespace is label-less: it
 * covers its region's whole range and exists as long as the region is
 * enabled.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sort.h>
#include <linux/uuid.h>
#include "nd-core.h"

/* Claim classes a namespace may be reserved for (holder_class). */
static const char *const nd_claim_class_names[] = {
	[ND_CLAIM_NONE] = "",
	[ND_CLAIM_BTT] = "btt",
	[ND_CLAIM_PFN] = "pfn",
	[ND_CLAIM_DAX] = "dax",
};

/**
 * to_nd_namespace_io - the IO namespace behind a namespaceR.N device
 * @dev: an IO namespace device
 */
struct nd_namespace_io *to_nd_namespace_io(struct device *dev)
{
	return container_of(dev, struct nd_namespace_io, dev);
}
EXPORT_SYMBOL_GPL(to_nd_namespace_io);

/**
 * nd_region_read_only - whether a namespace's region is read-only
 * @ndns_dev: the namespace device
 */
bool nd_region_read_only(struct device *ndns_dev)
{
	return READ_ONCE(to_nd_region(ndns_dev->parent)->ro);
}
EXPORT_SYMBOL_GPL(nd_region_read_only);

/**
 * nd_namespace_disk_name - block device name for a namespace
 * @ndns_dev: the namespace device
 * @name: output buffer
 * @len: size of @name
 *
 * "pmemR" for the region's first namespace, "pmemR.N" otherwise.
 */
const char *nd_namespace_disk_name(struct device *ndns_dev, char *name,
				   size_t len)
{
	struct nd_region *nd_region = to_nd_region(ndns_dev->parent);
	int id = to_nd_namespace_io(ndns_dev)->id;

	if (id == 0)
		snprintf(name, len, "pmem%d", nd_region->id);
	else
		snprintf(name, len, "pmem%d.%d", nd_region->id, id);
	return name;
}
EXPORT_SYMBOL_GPL(nd_namespace_disk_name);

static ssize_t nstype_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", nd_device_type(dev));
}
static DEVICE_ATTR_RO(nstype);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_nd_namespace_io(dev)->res_size);
}
static DEVICE_ATTR_RO(size);

static ssize_t resource_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%#llx\n", to_nd_namespace_io(dev)->res_start);
}
static DEVICE_ATTR_ADMIN_RO(resource);

static ssize_t holder_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);
	ssize_t rc;

	device_lock(dev);
	rc = sysfs_emit(buf, "%s\n", nsio->claim ? dev_name(nsio->claim) : "");
	device_unlock(dev);
	return rc;
}
static DEVICE_ATTR_RO(holder);

static ssize_t holder_class_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  nd_claim_class_names[to_nd_namespace_io(dev)->claim_class]);
}

static ssize_t holder_class_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);
	size_t n = strcspn(buf, "\n");
	int i, rc = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(nd_claim_class_names); i++)
		if (strlen(nd_claim_class_names[i]) == n &&
		    !strncmp(buf, nd_claim_class_names[i], n))
			break;
	if (i == ARRAY_SIZE(nd_claim_class_names)) {
		dev_dbg(dev, "holder_class: unknown class '%.*s'\n",
			(int)min_t(size_t, n, 16), buf);
		return -EINVAL;
	}
	device_lock(dev);
	if (dev->driver || nsio->claim) {
		dev_dbg(dev, "holder_class: namespace is in use\n");
		rc = -EBUSY;
	} else {
		nsio->claim_class = i;
		rc = 0;
	}
	device_unlock(dev);
	return rc ? rc : len;
}
static DEVICE_ATTR_RW(holder_class);

static ssize_t mode_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	/* no personality (btt, pfn, dax) exists yet: always raw */
	return sysfs_emit(buf, "raw\n");
}
static DEVICE_ATTR_RO(mode);

static ssize_t force_raw_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nd_namespace_io(dev)->force_raw);
}

static ssize_t force_raw_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	bool force_raw;
	int rc;

	rc = nd_parse_bool(buf, &force_raw);
	if (rc) {
		dev_dbg(dev, "force_raw: not a boolean\n");
		return rc;
	}
	device_lock(dev);
	to_nd_namespace_io(dev)->force_raw = force_raw;
	device_unlock(dev);
	return len;
}
static DEVICE_ATTR_RW(force_raw);

static struct attribute *nd_namespace_attributes[] = {
	&dev_attr_nstype.attr,
	&dev_attr_size.attr,
	&dev_attr_resource.attr,
	&dev_attr_holder.attr,
	&dev_attr_holder_class.attr,
	&dev_attr_mode.attr,
	&dev_attr_force_raw.attr,
	NULL,
};

static const struct attribute_group nd_namespace_attribute_group = {
	.attrs = nd_namespace_attributes,
};

static const struct attribute_group *nd_namespace_io_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_namespace_attribute_group,
	NULL,
};

static void nd_namespace_io_release(struct device *dev)
{
	put_device(dev->parent);
	kfree(to_nd_namespace_io(dev));
}

const struct device_type nd_namespace_io_device_type = {
	.name = "nd_namespace_io",
	.release = nd_namespace_io_release,
	.groups = nd_namespace_io_attribute_groups,
};

/**
 * is_nd_namespace_io - whether a device is an IO namespace
 * @dev: any device
 */
bool is_nd_namespace_io(const struct device *dev)
{
	return dev->type == &nd_namespace_io_device_type;
}
EXPORT_SYMBOL_GPL(is_nd_namespace_io);

/**
 * nd_namespace_io_create - register the IO namespace of a region
 * @nd_region: an enabled region (its device lock is held)
 *
 * Returns the namespace device or an ERR_PTR.
 */
struct device *nd_namespace_io_create(struct nd_region *nd_region)
{
	struct nd_namespace_io *nsio;
	int rc;

	nsio = kzalloc(sizeof(*nsio), GFP_KERNEL);
	if (!nsio)
		return ERR_PTR(-ENOMEM);
	nsio->id = nd_region->ns_next++;
	nsio->res_start = nd_region->res_start;
	nsio->res_size = nd_region->res_size;

	device_initialize(&nsio->dev);
	nsio->dev.parent = &nd_region->dev;
	get_device(&nd_region->dev);
	nsio->dev.bus = &nvdimm_bus_type;
	nsio->dev.type = &nd_namespace_io_device_type;
	set_dev_node(&nsio->dev, nd_region->numa_node);
	rc = dev_set_name(&nsio->dev, "namespace%d.%d", nd_region->id,
			  nsio->id);
	if (!rc)
		rc = device_add(&nsio->dev);
	if (rc) {
		dev_err(&nd_region->dev, "failed to register namespace: %d\n",
			rc);
		put_device(&nsio->dev);
		return ERR_PTR(rc);
	}
	return &nsio->dev;
}

/**
 * nd_namespace_res - the system-physical range of a namespace
 * @dev: an IO or PMEM namespace device
 * @start: first address
 * @size: bytes (0 for an unconfigured PMEM namespace)
 *
 * Returns 0, or -ENODEV when @dev is no namespace this helper knows.
 */
int nd_namespace_res(struct device *dev, u64 *start, u64 *size)
{
	struct nd_namespace_io *nsio;

	if (!is_nd_namespace_io(dev) && !is_nd_namespace_pmem(dev))
		return -ENODEV;
	nsio = to_nd_namespace_io(dev);
	*start = nsio->res_start;
	*size = nsio->res_size;
	return 0;
}
EXPORT_SYMBOL_GPL(nd_namespace_res);

/*
 * PMEM namespaces (nstype 5), assembled read-only from the DIMMs' labels
 * at region bind.  Configuration writes are refused until label updates
 * exist.
 */

/**
 * to_nd_namespace_pmem - the PMEM namespace behind a namespaceR.N device
 * @dev: a PMEM namespace device
 */
struct nd_namespace_pmem *to_nd_namespace_pmem(struct device *dev)
{
	return container_of(to_nd_namespace_io(dev), struct nd_namespace_pmem,
			    nsio);
}
EXPORT_SYMBOL_GPL(to_nd_namespace_pmem);

static int nd_pmem_label_update_refused(struct device *dev, const char *what)
{
	dev_dbg(dev, "%s: label updates are not implemented yet\n", what);
	return -EOPNOTSUPP;
}

static ssize_t pmem_size_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	return nd_pmem_label_update_refused(dev, "size");
}

static struct device_attribute dev_attr_pmem_size =
	__ATTR(size, 0644, size_show, pmem_size_store);

static ssize_t pmem_resource_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(dev);

	if (!nsio->res_size)
		return -ENXIO;
	return sysfs_emit(buf, "%#llx\n", nsio->res_start);
}

static struct device_attribute dev_attr_pmem_resource =
	__ATTR(resource, 0400, pmem_resource_show, NULL);

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct nd_namespace_pmem *nspm = to_nd_namespace_pmem(dev);

	if (!nspm->has_uuid)
		return sysfs_emit(buf, "\n");
	return sysfs_emit(buf, "%pUb\n", &nspm->uuid);
}

static ssize_t uuid_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	return nd_pmem_label_update_refused(dev, "uuid");
}
static DEVICE_ATTR_RW(uuid);

static ssize_t alt_name_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", to_nd_namespace_pmem(dev)->alt_name);
}

static ssize_t alt_name_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t len)
{
	return nd_pmem_label_update_refused(dev, "alt_name");
}
static DEVICE_ATTR_RW(alt_name);

static const unsigned long nd_pmem_sector_sizes[] = { 512, 4096, 0 };

static ssize_t sector_size_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return nd_size_select_show(to_nd_namespace_pmem(dev)->lbasize,
				   nd_pmem_sector_sizes, buf);
}

static ssize_t sector_size_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	return nd_pmem_label_update_refused(dev, "sector_size");
}
static DEVICE_ATTR_RW(sector_size);

static ssize_t dpa_extents_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nd_namespace_pmem(dev)->dpa_extents);
}
static DEVICE_ATTR_RO(dpa_extents);

static struct attribute *nd_namespace_pmem_attributes[] = {
	&dev_attr_nstype.attr,
	&dev_attr_pmem_size.attr,
	&dev_attr_pmem_resource.attr,
	&dev_attr_holder.attr,
	&dev_attr_holder_class.attr,
	&dev_attr_mode.attr,
	&dev_attr_force_raw.attr,
	&dev_attr_uuid.attr,
	&dev_attr_alt_name.attr,
	&dev_attr_sector_size.attr,
	&dev_attr_dpa_extents.attr,
	NULL,
};

static const struct attribute_group nd_namespace_pmem_attribute_group = {
	.attrs = nd_namespace_pmem_attributes,
};

static const struct attribute_group *nd_namespace_pmem_attribute_groups[] = {
	&nd_device_attribute_group,
	&nd_numa_attribute_group,
	&nd_namespace_pmem_attribute_group,
	NULL,
};

static void nd_namespace_pmem_release(struct device *dev)
{
	put_device(dev->parent);
	kfree(to_nd_namespace_pmem(dev));
}

const struct device_type nd_namespace_pmem_device_type = {
	.name = "nd_namespace_pmem",
	.release = nd_namespace_pmem_release,
	.groups = nd_namespace_pmem_attribute_groups,
};

/**
 * is_nd_namespace_pmem - whether a device is a PMEM namespace
 * @dev: any device
 */
bool is_nd_namespace_pmem(const struct device *dev)
{
	return dev->type == &nd_namespace_pmem_device_type;
}
EXPORT_SYMBOL_GPL(is_nd_namespace_pmem);

/* A live label copied out of a DIMM's cached area, with its verdicts. */
struct nd_pmem_cand {
	struct nd_lsa_label label;	/* first lsize bytes valid */
	bool cookie_ok;
	bool guid_ok;
};

/* The live labels of one mapping's DIMM. */
struct nd_pmem_labels {
	struct nd_pmem_cand *cand;
	u32 n;
};

/* One assembled namespace, before registration. */
struct nd_pmem_found {
	uuid_t uuid;
	char name[64];
	u64 lbasize;
	u64 start;
	u64 size;
};

/*
 * Copy the live PMEM labels of mapping @m's DIMM.  The DIMM's device lock
 * is held only while copying.  Slots in use that do not hold a live label
 * (wrong slot number, bad checksum) are reported.  Returns 0 or -ENOMEM;
 * a DIMM without a bound driver or a valid index gives no labels.
 */
static int nd_pmem_labels_collect(struct nd_region *nd_region,
				  struct nd_mapping *m,
				  struct nd_pmem_labels *out)
{
	struct nd_interleave_set *set = nd_region->nd_set;
	struct device *ddev = &m->nvdimm->dev;
	struct nvdimm_drvdata *ndd;
	const struct nd_lsa_index *ix;
	u32 nslot, slot;
	u64 cookie;
	int rc = 0;

	out->cand = NULL;
	out->n = 0;
	device_lock(ddev);
	ndd = ddev->driver ? dev_get_drvdata(ddev) : NULL;
	if (!ndd || !ndd->data || ndd->lsa.cur < 0)
		goto unlock;
	ix = nd_lsa_index(&ndd->lsa, ndd->lsa.cur);
	nslot = nd_lsa_index_nslot(ix);
	cookie = ndd->lsa.lsize == ND_LSA_LABEL_V11 ? set->cookie1 :
						      set->cookie2;
	out->cand = kvcalloc(nslot, sizeof(*out->cand), GFP_KERNEL);
	if (!out->cand) {
		rc = -ENOMEM;
		goto unlock;
	}
	for (slot = 0; slot < nslot; slot++) {
		const struct nd_lsa_label *l = nd_lsa_label(&ndd->lsa, slot);
		struct nd_pmem_cand *c;
		u64 isc;

		if (nd_lsa_slot_is_free(ix, slot))
			continue;
		if (!nd_lsa_label_live(&ndd->lsa, slot)) {
			dev_warn(&nd_region->dev, "%s slot %u: label of %pUb invalid (slot number or checksum): ignored\n",
				 dev_name(ddev), slot, l->uuid);
			continue;
		}
		if (le32_to_cpu(l->flags) & ND_LSA_FLAG_LOCAL)
			continue;	/* a BLK label */
		c = &out->cand[out->n++];
		memcpy(&c->label, l, ndd->lsa.lsize);
		isc = le64_to_cpu(l->isetcookie);
		c->cookie_ok = isc && (isc == cookie || isc == set->altcookie);
		c->guid_ok = ndd->lsa.lsize == ND_LSA_LABEL_V11 ||
			     !memcmp(l->type_guid, &set->type_guid,
				     sizeof(l->type_guid));
	}
unlock:
	device_unlock(ddev);
	return rc;
}

/*
 * Check the labels of @uuid across all mappings.  Returns true and fills
 * @f when every DIMM of the set holds exactly one acceptable label.
 */
static bool nd_pmem_assemble(struct nd_region *nd_region,
			     struct nd_pmem_labels *labels, const u8 *uuid,
			     struct nd_pmem_found *f)
{
	struct device *dev = &nd_region->dev;
	int ways = nd_region->ndr_mappings, i;
	const struct nd_lsa_label *pos0 = NULL;
	u64 rawsize = 0, offset = 0;

	for (i = 0; i < ways; i++) {
		struct nd_mapping *m = &nd_region->mapping[i];
		const char *dimm = dev_name(&m->nvdimm->dev);
		struct nd_pmem_cand *c = NULL;
		u64 dpa, size;
		u32 k;

		for (k = 0; k < labels[i].n; k++) {
			if (memcmp(labels[i].cand[k].label.uuid, uuid, 16))
				continue;
			if (c) {
				dev_warn(dev, "namespace %pUb: two labels on %s: left unclaimed\n",
					 uuid, dimm);
				return false;
			}
			c = &labels[i].cand[k];
		}
		if (!c) {
			dev_warn(dev, "namespace %pUb: no label on %s: incomplete set, left unclaimed\n",
				 uuid, dimm);
			return false;
		}
		if (!c->cookie_ok) {
			dev_warn(dev, "namespace %pUb: label on %s has interleave-set cookie %#llx, not this region's: left unclaimed\n",
				 uuid, dimm, le64_to_cpu(c->label.isetcookie));
			return false;
		}
		if (!c->guid_ok) {
			dev_warn(dev, "namespace %pUb: label on %s has another address-range type: left unclaimed\n",
				 uuid, dimm);
			return false;
		}
		if (le16_to_cpu(c->label.nlabel) != ways ||
		    le16_to_cpu(c->label.position) != m->position) {
			dev_warn(dev, "namespace %pUb: label on %s says position %u of %u, mapping is %d of %d: left unclaimed\n",
				 uuid, dimm, le16_to_cpu(c->label.position),
				 le16_to_cpu(c->label.nlabel), m->position,
				 ways);
			return false;
		}
		dpa = le64_to_cpu(c->label.dpa);
		size = le64_to_cpu(c->label.rawsize);
		if (!size || dpa < m->start || size > m->size ||
		    dpa - m->start > m->size - size) {
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
		if (m->position == 0)
			pos0 = &c->label;
	}
	if (!pos0)
		pos0 = &labels[0].cand[0].label;	/* not reached: positions checked */

	f->start = nd_region->res_start + offset * ways;
	f->size = rawsize * ways;
	if (offset * ways + f->size > nd_region->res_size) {
		dev_warn(dev, "namespace %pUb: extends beyond the region: left unclaimed\n",
			 uuid);
		return false;
	}
	import_uuid(&f->uuid, uuid);
	memcpy(f->name, pos0->name, sizeof(pos0->name));
	f->name[sizeof(f->name) - 1] = '\0';
	f->lbasize = le64_to_cpu(pos0->lbasize);
	return true;
}

static int nd_pmem_found_cmp(const void *a, const void *b)
{
	const struct nd_pmem_found *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static int nd_namespace_pmem_add(struct nd_region *nd_region,
				 const struct nd_pmem_found *f)
{
	struct nd_namespace_pmem *nspm;
	struct nd_namespace_io *nsio;
	int rc;

	nspm = kzalloc(sizeof(*nspm), GFP_KERNEL);
	if (!nspm)
		return -ENOMEM;
	nsio = &nspm->nsio;
	nsio->id = nd_region->ns_next++;
	if (f) {
		nsio->res_start = f->start;
		nsio->res_size = f->size;
		uuid_copy(&nspm->uuid, &f->uuid);
		nspm->has_uuid = true;
		memcpy(nspm->alt_name, f->name, sizeof(nspm->alt_name));
		nspm->lbasize = f->lbasize;
		nspm->dpa_extents = nd_region->ndr_mappings;
	} else {
		nsio->res_start = nd_region->res_start;
	}

	device_initialize(&nsio->dev);
	nsio->dev.parent = &nd_region->dev;
	get_device(&nd_region->dev);
	nsio->dev.bus = &nvdimm_bus_type;
	nsio->dev.type = &nd_namespace_pmem_device_type;
	set_dev_node(&nsio->dev, nd_region->numa_node);
	rc = dev_set_name(&nsio->dev, "namespace%d.%d", nd_region->id,
			  nsio->id);
	if (!rc)
		rc = device_add(&nsio->dev);
	if (rc) {
		dev_err(&nd_region->dev, "failed to register namespace: %d\n",
			rc);
		put_device(&nsio->dev);
		return rc;
	}
	if (!nd_region->ns_seed)
		nd_region->ns_seed = &nsio->dev;
	return 0;
}

/**
 * nd_namespace_pmem_scan - publish a labelled PMEM region's namespaces
 * @nd_region: an nstype-5 PMEM region being enabled (device lock held)
 *
 * Every uuid with a live label on mapping 0's DIMM is checked against all
 * the set's DIMMs (cookie, type GUID, nlabel, position, DPA inside the
 * mapping, one label per DIMM, equal size and offset); sets that pass
 * become namespaceR.0, .1, ... in SPA order, the others are logged and
 * left unclaimed.  Without any, a zero-size seed namespaceR.0 is
 * published.  Returns 0 or a negative errno.
 */
int nd_namespace_pmem_scan(struct nd_region *nd_region)
{
	int ways = nd_region->ndr_mappings, i, rc = 0;
	struct nd_pmem_labels *labels;
	struct nd_pmem_found *found = NULL;
	u32 nfound = 0, k, j;

	if (!ways || !nd_region->nd_set ||
	    (!nd_region->nd_set->cookie1 && !nd_region->nd_set->cookie2))
		return nd_namespace_pmem_add(nd_region, NULL);

	labels = kcalloc(ways, sizeof(*labels), GFP_KERNEL);
	if (!labels)
		return -ENOMEM;
	for (i = 0; i < ways && !rc; i++)
		rc = nd_pmem_labels_collect(nd_region, &nd_region->mapping[i],
					    &labels[i]);
	if (rc)
		goto out;
	if (labels[0].n) {
		found = kcalloc(labels[0].n, sizeof(*found), GFP_KERNEL);
		if (!found) {
			rc = -ENOMEM;
			goto out;
		}
	}

	for (k = 0; k < labels[0].n; k++) {
		const u8 *uuid = labels[0].cand[k].label.uuid;
		struct nd_pmem_found *f = &found[nfound];
		bool seen = false;

		for (j = 0; j < k && !seen; j++)
			seen = !memcmp(labels[0].cand[j].label.uuid, uuid, 16);
		if (seen)
			continue;	/* reported with the first label */
		if (!nd_pmem_assemble(nd_region, labels, uuid, f))
			continue;
		for (j = 0; j < nfound; j++)
			if (f->start < found[j].start + found[j].size &&
			    found[j].start < f->start + f->size)
				break;
		if (j < nfound) {
			dev_warn(&nd_region->dev, "namespace %pUb overlaps namespace %pUb: left unclaimed\n",
				 &f->uuid, &found[j].uuid);
			continue;
		}
		dev_dbg(&nd_region->dev, "namespace %pUb: %#llx bytes at %#llx from labels\n",
			&f->uuid, f->size, f->start);
		nfound++;
	}

	sort(found, nfound, sizeof(*found), nd_pmem_found_cmp, NULL);
	for (k = 0; k < nfound && !rc; k++)
		rc = nd_namespace_pmem_add(nd_region, &found[k]);
	if (!rc && !nfound)
		rc = nd_namespace_pmem_add(nd_region, NULL);
out:
	for (i = 0; i < ways; i++)
		kvfree(labels[i].cand);
	kfree(labels);
	kfree(found);
	return rc;
}
