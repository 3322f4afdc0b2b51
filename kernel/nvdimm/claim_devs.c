// SPDX-License-Identifier: GPL-2.0
/*
 * Devices that claim a namespace for a personality (btt, pfn, dax): their
 * life cycle and the attributes every personality has.
 *
 * A region has one idle seed per personality.  Userspace configures it
 * (uuid, namespace and the personality's own attributes) and binds it;
 * the namespace driver of the region type then attaches the
 * personality.  A namespace whose media already holds one is claimed by
 * a new device when the namespace is enabled (autodetect).  Writing an
 * empty namespace releases the claim and resets the device; an idle
 * device other than the seed then goes away.
 *
 * Locking, outermost first: the device's lock (attribute writes, probe),
 * the claimed namespace's device lock (nsio->claim changes only under
 * it, so a namespace probe or attribute write sees a stable claim), the
 * bus' reconfig_lock (seeds, cd->ndns for readers that hold only that
 * lock).  Devices are added from the namespace async domain, never under
 * reconfig_lock.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include "nd-core.h"

static struct workqueue_struct *nd_claim_wq;

static const struct nd_claim_kind *const nd_claim_kinds[ND_CLAIM_SLOTS] = {
	[ND_SLOT_BTT] = &nd_btt_kind,
	[ND_SLOT_PFN] = &nd_pfn_kind,
	[ND_SLOT_DAX] = &nd_dax_kind,
};

static struct mutex *nd_claim_reconfig_lock(struct device *dev)
{
	return &walk_to_nvdimm_bus(dev)->reconfig_lock;
}

/**
 * is_nd_claim_dev - whether @dev is a btt (or other claiming) device
 * @dev: a device on the nd bus
 */
bool is_nd_claim_dev(const struct device *dev)
{
	int i;

	for (i = 0; i < ND_CLAIM_SLOTS; i++)
		if (dev->type == nd_claim_kinds[i]->type)
			return true;
	return false;
}

/**
 * to_nd_claim_dev - the claiming device around @dev
 * @dev: a device for which is_nd_claim_dev() holds
 */
struct nd_claim_dev *to_nd_claim_dev(struct device *dev)
{
	return container_of(dev, struct nd_claim_dev, dev);
}

/**
 * nd_claim_dev_release - device_type.release of every personality
 * @dev: the device, its last reference gone
 */
void nd_claim_dev_release(struct device *dev)
{
	struct nd_claim_dev *cd = to_nd_claim_dev(dev);
	struct nd_region *nd_region = to_nd_region(dev->parent);

	WARN_ON(cd->ndns);
	ida_free(&nd_region->claim[cd->kind->slot].ida, cd->id);
	put_device(dev->parent);
	kfree(cd);	/* the personality's structure starts with it */
}

/*
 * Drop the claim on the namespace.  The device is unbound (its device
 * lock held by the caller, or it is unregistered and so can be neither
 * bound nor written to again).
 */
static void nd_claim_dev_release_claim(struct nd_claim_dev *cd)
{
	struct device *ndns = cd->ndns;
	struct mutex *lock = nd_claim_reconfig_lock(&cd->dev);

	if (!ndns)
		return;
	device_lock(ndns);
	to_nd_namespace_io(ndns)->claim = NULL;
	device_unlock(ndns);
	mutex_lock(lock);
	cd->ndns = NULL;
	mutex_unlock(lock);
	dev_dbg(&cd->dev, "released %s\n", dev_name(ndns));
	put_device(ndns);
}

static void nd_claim_dev_add_async(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	struct nd_claim_dev *cd = to_nd_claim_dev(dev);
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct nd_claim_seed *cs = &nd_region->claim[cd->kind->slot];
	struct mutex *lock = nd_claim_reconfig_lock(dev);
	int rc;

	/*
	 * Autodetect claims the namespace from inside its probe: wait until
	 * that probe (and the release of its mapping) is over, or the
	 * device's own probe would find the range still held.
	 */
	if (cd->ndns) {
		device_lock(cd->ndns);
		device_unlock(cd->ndns);
	}
	rc = device_add(dev);
	mutex_lock(lock);
	if (rc) {
		dev_err(&nd_region->dev, "failed to register %s: %d\n",
			dev_name(dev), rc);
		if (cs->seed == dev)
			cs->seed = NULL;
		cd->unregistered = true;
	} else {
		cd->added = true;
	}
	mutex_unlock(lock);
	if (rc) {
		nd_claim_dev_release_claim(cd);
		put_device(dev);	/* the registration's reference */
	}
	put_device(dev);		/* nd_async_add()'s */
}

static void nd_claim_dev_del_work(struct work_struct *work)
{
	struct nd_claim_dev *cd = container_of(work, struct nd_claim_dev,
					       del_work);
	struct device *dev = &cd->dev;
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct mutex *lock = nd_claim_reconfig_lock(dev);
	bool unregister;

	mutex_lock(lock);
	unregister = !cd->unregistered && !cd->ndns &&
		     nd_region->claim[cd->kind->slot].seed != dev;
	if (unregister)
		cd->unregistered = true;
	mutex_unlock(lock);
	if (unregister) {
		dev_dbg(dev, "released and idle: unregistering\n");
		device_unregister(dev);
	}
	put_device(dev);
}

/**
 * nd_claim_dev_alloc - a new, not yet added device of a personality
 * @nd_region: its region (the bus' reconfig_lock is held)
 * @kind: the personality
 *
 * Named <kind>R.N with the next free N.  The caller fills the
 * personality's fields, then calls nd_claim_dev_add().  Returns the
 * device or an ERR_PTR (-ENOMEM, or the naming's errno).
 */
struct nd_claim_dev *nd_claim_dev_alloc(struct nd_region *nd_region,
					const struct nd_claim_kind *kind)
{
	struct ida *ida = &nd_region->claim[kind->slot].ida;
	struct nd_claim_dev *cd;
	int id, rc;

	lockdep_assert_held(nd_claim_reconfig_lock(&nd_region->dev));
	cd = kzalloc(kind->size, GFP_KERNEL);
	if (!cd)
		return ERR_PTR(-ENOMEM);
	id = ida_alloc(ida, GFP_KERNEL);
	if (id < 0) {
		kfree(cd);
		return ERR_PTR(id);
	}
	cd->id = id;
	cd->kind = kind;
	kind->reset(cd);	/* the personality's defaults */
	INIT_WORK(&cd->del_work, nd_claim_dev_del_work);
	nd_device_init(&cd->dev, &nd_region->dev, kind->type, true);
	rc = dev_set_name(&cd->dev, "%s%d.%d", kind->name, nd_region->id, id);
	if (rc) {
		put_device(&cd->dev);
		return ERR_PTR(rc);
	}
	return cd;
}

/**
 * nd_claim_dev_add - publish a device from nd_claim_dev_alloc()
 * @cd: the device (the bus' reconfig_lock is held)
 * @ndns: the namespace it claims (autodetect: the namespace's device
 *	lock is held by its probe), or NULL
 *
 * Added from the async domain once the locks are dropped.
 */
void nd_claim_dev_add(struct nd_claim_dev *cd, struct device *ndns)
{
	if (ndns) {
		to_nd_namespace_io(ndns)->claim = &cd->dev;
		cd->ndns = get_device(ndns);
	}
	nd_async_add(nd_claim_dev_add_async, &cd->dev);
}

/* an idle seed of @kind for @nd_region (reconfig_lock held) */
static int nd_claim_seed_new(struct nd_region *nd_region,
			     const struct nd_claim_kind *kind)
{
	struct nd_claim_seed *cs = &nd_region->claim[kind->slot];
	struct nd_claim_dev *cd = nd_claim_dev_alloc(nd_region, kind);

	if (IS_ERR(cd)) {
		cs->seed = NULL;
		return PTR_ERR(cd);
	}
	cs->seed = &cd->dev;
	nd_claim_dev_add(cd, NULL);
	return 0;
}

/**
 * nd_region_claim_activate - let a probing region have claiming devices
 * @nd_region: the region, probing, before its namespaces are added
 *
 * From here on autodetect may create devices for the namespaces being
 * added (their probes run in the async domain, possibly before the seeds
 * exist); nd_region_claim_devs_unregister() ends it.
 */
void nd_region_claim_activate(struct nd_region *nd_region)
{
	struct mutex *lock = nd_claim_reconfig_lock(&nd_region->dev);
	int i;

	mutex_lock(lock);
	for (i = 0; i < ND_CLAIM_SLOTS; i++) {
		const struct nd_claim_kind *kind = nd_claim_kinds[i];

		nd_region->claim[i].active = !kind->wanted ||
					     kind->wanted(nd_region);
	}
	mutex_unlock(lock);
}

/**
 * nd_region_claim_seeds_create - give an enabled region its seeds
 * @nd_region: the region, probing, after nd_region_claim_activate()
 *
 * Returns 0 or -ENOMEM.
 */
int nd_region_claim_seeds_create(struct nd_region *nd_region)
{
	struct mutex *lock = nd_claim_reconfig_lock(&nd_region->dev);
	int i, rc = 0;

	mutex_lock(lock);
	for (i = 0; i < ND_CLAIM_SLOTS && !rc; i++)
		if (nd_region->claim[i].active)
			rc = nd_claim_seed_new(nd_region, nd_claim_kinds[i]);
	mutex_unlock(lock);
	return rc;
}

static int nd_claim_dev_unregister_one(struct device *dev, void *data)
{
	struct mutex *lock = data;
	struct nd_claim_dev *cd;
	bool unregister;

	if (!is_nd_claim_dev(dev))
		return 0;
	cd = to_nd_claim_dev(dev);
	mutex_lock(lock);
	unregister = !cd->unregistered;
	cd->unregistered = true;
	mutex_unlock(lock);
	if (unregister) {
		get_device(dev);
		device_unregister(dev);		/* unbinds: the disk goes */
		nd_claim_dev_release_claim(cd);
		put_device(dev);
	}
	return 0;
}

/**
 * nd_region_claim_devs_unregister - remove a region's claiming devices
 * @nd_region: a region being disabled (its device lock is held)
 *
 * Before its namespaces go: each holds its namespace.
 */
void nd_region_claim_devs_unregister(struct nd_region *nd_region)
{
	struct mutex *lock = nd_claim_reconfig_lock(&nd_region->dev);
	int i;

	mutex_lock(lock);
	for (i = 0; i < ND_CLAIM_SLOTS; i++) {
		nd_region->claim[i].active = false;
		nd_region->claim[i].seed = NULL;
	}
	mutex_unlock(lock);
	nd_synchronize();
	flush_workqueue(nd_claim_wq);
	device_for_each_child(&nd_region->dev, lock,
			      nd_claim_dev_unregister_one);
}

/**
 * nd_claim_dev_probe_success - a claiming device was just bound
 * @cd: the device (its device lock is held)
 *
 * Its seed advances when it was the seed, and so does the namespace
 * seed when the claimed namespace was that (v4.2 and 6.1 behaviour).
 */
void nd_claim_dev_probe_success(struct nd_claim_dev *cd)
{
	struct nd_region *nd_region = to_nd_region(cd->dev.parent);
	struct nd_claim_seed *cs = &nd_region->claim[cd->kind->slot];
	struct mutex *lock = nd_claim_reconfig_lock(&cd->dev);
	int rc;

	mutex_lock(lock);
	if (cs->active && cs->seed == &cd->dev) {
		rc = nd_claim_seed_new(nd_region, cd->kind);
		if (rc)
			dev_err(&nd_region->dev, "no new %s seed: %d\n",
				cd->kind->name, rc);
	}
	if (cd->ndns && !is_nd_namespace_io(cd->ndns))
		nd_region_advance_seed(nd_region, cd->ndns);
	mutex_unlock(lock);
}

/**
 * nd_claim_dev_attach_check - what every personality checks at attach
 * @cd: the device, probing (its device lock held), with a namespace
 * @range: set to the namespace's range
 *
 * The claim must hold (nd_namespace_common_probe()) and the namespace
 * must no longer be enabled: it may be claimed while enabled, but one
 * holder of the media at a time (-EBUSY).  Returns 0 or the errno.
 */
int nd_claim_dev_attach_check(struct nd_claim_dev *cd, struct range *range)
{
	int rc;

	rc = nd_namespace_common_probe(cd->ndns, &cd->dev, range);
	if (rc)
		return rc;
	if (READ_ONCE(cd->ndns->driver)) {
		dev_dbg(&cd->dev, "%s is still enabled: disable it first\n",
			dev_name(cd->ndns));
		return -EBUSY;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(nd_claim_dev_attach_check);

/**
 * nd_region_claim_seed_show - a region's <kind>_seed attribute
 * @nd_region: the region
 * @slot: the personality
 * @buf: sysfs buffer
 *
 * As namespace_seed: the device named is in sysfs already.
 */
ssize_t nd_region_claim_seed_show(struct nd_region *nd_region,
				  enum nd_claim_slot slot, char *buf)
{
	struct mutex *lock = nd_claim_reconfig_lock(&nd_region->dev);
	struct nd_claim_seed *cs = &nd_region->claim[slot];
	ssize_t rc;

	mutex_lock(lock);
	while (cs->seed && !to_nd_claim_dev(cs->seed)->added) {
		mutex_unlock(lock);
		nd_synchronize();
		mutex_lock(lock);
	}
	if (cs->seed)
		rc = sysfs_emit(buf, "%s\n", dev_name(cs->seed));
	else
		rc = sysfs_emit(buf, "\n");
	mutex_unlock(lock);
	return rc;
}

/**
 * nd_claim_dev_store - run an attribute write of a claiming device
 * @dev: the device
 * @what: the attribute, for the log
 * @op: the write; 0 or an errno
 * @buf: what was written
 * @len: its length
 *
 * Under the device lock, refused while it is bound (a bound device's
 * configuration is what its media says: -EBUSY) or being removed
 * (-ENXIO).  Returns @len or the errno.
 */
ssize_t nd_claim_dev_store(struct device *dev, const char *what,
			   int (*op)(struct nd_claim_dev *cd, const char *buf),
			   const char *buf, size_t len)
{
	struct nd_claim_dev *cd = to_nd_claim_dev(dev);
	int rc;

	device_lock(dev);
	if (dev->driver) {
		dev_dbg(dev, "%s: %s is enabled: disable it first\n", what,
			cd->kind->name);
		rc = -EBUSY;
	} else if (cd->unregistered) {
		dev_dbg(dev, "%s: %s is being removed\n", what, cd->kind->name);
		rc = -ENXIO;
	} else {
		rc = op(cd, buf);
	}
	device_unlock(dev);
	return rc ? rc : len;
}

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct nd_claim_dev *cd = to_nd_claim_dev(dev);
	ssize_t rc;

	device_lock(dev);
	if (cd->has_uuid)
		rc = sysfs_emit(buf, "%pUb\n", &cd->uuid);
	else
		rc = sysfs_emit(buf, "\n");
	device_unlock(dev);
	return rc;
}

static int nd_claim_uuid_op(struct nd_claim_dev *cd, const char *buf)
{
	size_t n = strcspn(buf, "\n");
	char text[UUID_STRING_LEN + 1];
	uuid_t uuid;

	if (n != UUID_STRING_LEN) {
		dev_dbg(&cd->dev, "uuid: %zu characters, a uuid has %d\n",
			n, UUID_STRING_LEN);
		return -EINVAL;
	}
	memcpy(text, buf, n);
	text[n] = '\0';
	if (uuid_parse(text, &uuid) || uuid_is_null(&uuid)) {
		dev_dbg(&cd->dev, "uuid: '%s' is not a usable uuid\n", text);
		return -EINVAL;
	}
	cd->uuid = uuid;
	cd->has_uuid = true;
	return 0;
}

static ssize_t uuid_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	return nd_claim_dev_store(dev, "uuid", nd_claim_uuid_op, buf, len);
}
static DEVICE_ATTR_RW(uuid);

static ssize_t namespace_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct nd_claim_dev *cd = to_nd_claim_dev(dev);
	ssize_t rc;

	device_lock(dev);
	rc = sysfs_emit(buf, "%s\n", cd->ndns ? dev_name(cd->ndns) : "");
	device_unlock(dev);
	return rc;
}

static int nd_match_namespace_name(struct device *dev, void *data)
{
	const char *name = data;

	return (is_nd_namespace_io(dev) || is_nd_namespace_pmem(dev) ||
		is_nd_namespace_blk(dev)) && sysfs_streq(dev_name(dev), name);
}

/* Claim @ndns (found among the region's children, a reference held). */
static int nd_claim_dev_claim(struct nd_claim_dev *cd, struct device *ndns)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns);
	struct mutex *lock = nd_claim_reconfig_lock(&cd->dev);
	struct device *dev = &cd->dev;
	int rc = 0;

	/*
	 * An enabled namespace may be claimed (the v4.2 document's
	 * configure_btt() disables it afterwards): the claim stops it from
	 * binding again, and the personality cannot attach while it still
	 * is (nvdimm_namespace_bytes_enable() has one holder at a time).
	 */
	device_lock(ndns);
	if (nsio->claim) {
		dev_dbg(dev, "namespace: %s is already claimed by %s\n",
			dev_name(ndns), dev_name(nsio->claim));
		rc = -EBUSY;
	} else if (nsio->claim_class != ND_CLAIM_NONE &&
		   nsio->claim_class != cd->kind->class) {
		dev_dbg(dev, "namespace: %s is reserved for another personality (holder_class)\n",
			dev_name(ndns));
		rc = -EBUSY;
	} else {
		rc = cd->kind->fits(cd, ndns);
	}
	if (!rc) {
		nsio->claim = dev;
		mutex_lock(lock);
		cd->ndns = ndns;
		mutex_unlock(lock);
	}
	device_unlock(ndns);
	return rc;
}

static int nd_claim_namespace_op(struct nd_claim_dev *cd, const char *buf)
{
	struct nd_region *nd_region = to_nd_region(cd->dev.parent);
	size_t n = strcspn(buf, "\n");
	char name[32];
	struct device *ndns;
	int rc;

	if (!n) {
		/* release (if claimed) and reset, claimed or not */
		if (cd->ndns)
			nd_claim_dev_release_claim(cd);
		cd->has_uuid = false;
		uuid_copy(&cd->uuid, &uuid_null);
		cd->kind->reset(cd);
		/* an idle device other than the seed goes away */
		get_device(&cd->dev);
		if (!queue_work(nd_claim_wq, &cd->del_work))
			put_device(&cd->dev);
		return 0;
	}
	if (cd->ndns) {
		if (sysfs_streq(dev_name(cd->ndns), buf))
			return 0;
		dev_dbg(&cd->dev, "namespace: already claims %s: release it first\n",
			dev_name(cd->ndns));
		return -EBUSY;
	}
	if (n >= sizeof(name)) {
		dev_dbg(&cd->dev, "namespace: name too long\n");
		return -EINVAL;
	}
	memcpy(name, buf, n);
	name[n] = '\0';
	ndns = device_find_child(&nd_region->dev, name,
				 nd_match_namespace_name);
	if (!ndns) {
		dev_dbg(&cd->dev, "namespace: no namespace '%s' in %s\n",
			name, dev_name(&nd_region->dev));
		return -ENODEV;
	}
	rc = nd_claim_dev_claim(cd, ndns);
	if (rc)
		put_device(ndns);	/* kept as the claim's otherwise */
	return rc;
}

static ssize_t namespace_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	return nd_claim_dev_store(dev, "namespace", nd_claim_namespace_op,
				  buf, len);
}
static DEVICE_ATTR_RW(namespace);

static struct attribute *nd_claim_attributes[] = {
	&dev_attr_uuid.attr,
	&dev_attr_namespace.attr,
	NULL,
};

const struct attribute_group nd_claim_attribute_group = {
	.attrs = nd_claim_attributes,
};

int __init nd_claim_init(void)
{
	nd_claim_wq = alloc_workqueue("nd_claim", WQ_UNBOUND, 0);
	return nd_claim_wq ? 0 : -ENOMEM;
}

void nd_claim_exit(void)
{
	destroy_workqueue(nd_claim_wq);
}
