// SPDX-License-Identifier: GPL-2.0
/*
 * btt devices (bttR.N): the sector-atomic personality of a namespace.
 *
 * A region has one idle btt seed.  Userspace configures it (uuid,
 * sector_size, namespace) and binds it; the namespace driver of the
 * region type (nd_pmem) then attaches the BTT through nd_btt.ko.  A
 * namespace whose media already holds a BTT is claimed by a new btt
 * device when the namespace is enabled (autodetect, nd_btt_probe()).
 *
 * Locking, outermost first: the btt's device lock (attribute writes,
 * probe), the claimed namespace's device lock (nsio->claim changes only
 * under it, so a namespace probe or attribute write sees a stable
 * claim), the bus' reconfig_lock (seeds, nd_btt->ndns for readers that
 * hold only that lock).  btt devices are added from the namespace async
 * domain, never under reconfig_lock.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include "nd-core.h"
#include "btt-format.h"

/**
 * struct nd_btt_node - a btt device with the core's state around it
 * @btt: what drivers see
 * @added: device_add() returned (reconfig_lock)
 * @unregistered: device_unregister() was called or is scheduled
 *	(reconfig_lock)
 * @del_work: unregisters a released, idle non-seed btt outside its own
 *	sysfs write
 */
struct nd_btt_node {
	struct nd_btt btt;
	bool added;
	bool unregistered;
	struct work_struct del_work;
};

static struct workqueue_struct *nd_btt_wq;

static struct nd_btt_node *to_nd_btt_node(struct device *dev)
{
	return container_of(to_nd_btt(dev), struct nd_btt_node, btt);
}

static struct mutex *nd_btt_reconfig_lock(struct device *dev)
{
	return &walk_to_nvdimm_bus(dev)->reconfig_lock;
}

/* sector sizes a btt offers (the v4.2 list), 0-terminated */
static const unsigned long nd_btt_lbasizes[] = {
	512, 520, 528, 4096, 4104, 4160, 4224, 0
};

static void nd_btt_release(struct device *dev)
{
	struct nd_btt *nd_btt = to_nd_btt(dev);
	struct nd_region *nd_region = to_nd_region(dev->parent);

	WARN_ON(nd_btt->ndns);
	ida_free(&nd_region->btt_ida, nd_btt->id);
	put_device(dev->parent);
	kfree(to_nd_btt_node(dev));
}

/*
 * Drop the claim on the namespace.  The btt is unbound (its device lock
 * held by the caller, or it is unregistered and so can be neither bound
 * nor written to again).
 */
static void nd_btt_release_claim(struct nd_btt *nd_btt)
{
	struct device *ndns = nd_btt->ndns;
	struct mutex *lock = nd_btt_reconfig_lock(&nd_btt->dev);

	if (!ndns)
		return;
	device_lock(ndns);
	to_nd_namespace_io(ndns)->claim = NULL;
	device_unlock(ndns);
	mutex_lock(lock);
	nd_btt->ndns = NULL;
	mutex_unlock(lock);
	dev_dbg(&nd_btt->dev, "released %s\n", dev_name(ndns));
	put_device(ndns);
}

static void nd_btt_add_async(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	struct nd_btt *nd_btt = to_nd_btt(dev);
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct mutex *lock = nd_btt_reconfig_lock(dev);
	int rc;

	/*
	 * Autodetect claims the namespace from inside its probe: wait until
	 * that probe (and the release of its mapping) is over, or the btt's
	 * own probe would find the range still held.
	 */
	if (nd_btt->ndns) {
		device_lock(nd_btt->ndns);
		device_unlock(nd_btt->ndns);
	}
	rc = device_add(dev);
	mutex_lock(lock);
	if (rc) {
		dev_err(&nd_region->dev, "failed to register %s: %d\n",
			dev_name(dev), rc);
		if (nd_region->btt_seed == dev)
			nd_region->btt_seed = NULL;
		to_nd_btt_node(dev)->unregistered = true;
	} else {
		to_nd_btt_node(dev)->added = true;
	}
	mutex_unlock(lock);
	if (rc) {
		nd_btt_release_claim(nd_btt);
		put_device(dev);	/* the registration's reference */
	}
	put_device(dev);		/* nd_async_add()'s */
}

static void nd_btt_del_work(struct work_struct *work)
{
	struct nd_btt_node *node = container_of(work, struct nd_btt_node,
						del_work);
	struct device *dev = &node->btt.dev;
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct mutex *lock = nd_btt_reconfig_lock(dev);
	bool unregister;

	mutex_lock(lock);
	unregister = !node->unregistered && !node->btt.ndns &&
		     nd_region->btt_seed != dev;
	if (unregister)
		node->unregistered = true;
	mutex_unlock(lock);
	if (unregister) {
		dev_dbg(dev, "released and idle: unregistering\n");
		device_unregister(dev);
	}
	put_device(dev);
}

/*
 * Create bttR.N (reconfig_lock held); @ndns, when given, is claimed for
 * it with the sector size and uuid its media records (autodetect: the
 * namespace's device lock is held by its probe).  Added from the async
 * domain once the lock is dropped.
 */
static struct nd_btt *nd_btt_create(struct nd_region *nd_region,
				    struct device *ndns, u32 lbasize,
				    const u8 *uuid)
{
	struct nd_btt_node *node;
	struct nd_btt *nd_btt;
	int id, rc;

	lockdep_assert_held(nd_btt_reconfig_lock(&nd_region->dev));
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return ERR_PTR(-ENOMEM);
	id = ida_alloc(&nd_region->btt_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(node);
		return ERR_PTR(id);
	}
	nd_btt = &node->btt;
	nd_btt->id = id;
	INIT_WORK(&node->del_work, nd_btt_del_work);
	nd_device_init(&nd_btt->dev, &nd_region->dev, &nd_btt_device_type,
		       true);
	rc = dev_set_name(&nd_btt->dev, "btt%d.%d", nd_region->id, id);
	if (rc) {
		put_device(&nd_btt->dev);
		return ERR_PTR(rc);
	}
	if (ndns) {
		nd_btt->lbasize = lbasize;
		import_uuid(&nd_btt->uuid, uuid);
		nd_btt->has_uuid = true;
		to_nd_namespace_io(ndns)->claim = &nd_btt->dev;
		nd_btt->ndns = get_device(ndns);
	}
	nd_async_add(nd_btt_add_async, &nd_btt->dev);
	return nd_btt;
}

/**
 * nd_region_btt_seed_create - give an enabled region its btt seed
 * @nd_region: the region, probing
 *
 * Returns 0 or -ENOMEM.
 */
int nd_region_btt_seed_create(struct nd_region *nd_region)
{
	struct mutex *lock = nd_btt_reconfig_lock(&nd_region->dev);
	struct nd_btt *seed;
	int rc = 0;

	mutex_lock(lock);
	seed = nd_btt_create(nd_region, NULL, 0, NULL);
	if (IS_ERR(seed)) {
		rc = PTR_ERR(seed);
	} else {
		nd_region->btt_seed = &seed->dev;
		nd_region->btt_active = true;
	}
	mutex_unlock(lock);
	return rc;
}

static int nd_btt_unregister_one(struct device *dev, void *data)
{
	struct mutex *lock = data;
	struct nd_btt_node *node;
	bool unregister;

	if (!is_nd_btt(dev))
		return 0;
	node = to_nd_btt_node(dev);
	mutex_lock(lock);
	unregister = !node->unregistered;
	node->unregistered = true;
	mutex_unlock(lock);
	if (unregister) {
		get_device(dev);
		device_unregister(dev);		/* unbinds: the disk goes */
		nd_btt_release_claim(&node->btt);
		put_device(dev);
	}
	return 0;
}

/**
 * nd_btt_added - whether device_add() of a btt returned
 * @dev: the btt (the bus' reconfig_lock is held)
 */
bool nd_btt_added(struct device *dev)
{
	lockdep_assert_held(nd_btt_reconfig_lock(dev));
	return to_nd_btt_node(dev)->added;
}

/**
 * nd_region_btts_unregister - remove a region's btt devices
 * @nd_region: a region being disabled (its device lock is held)
 *
 * Before its namespaces go: a btt holds its namespace.
 */
void nd_region_btts_unregister(struct nd_region *nd_region)
{
	struct mutex *lock = nd_btt_reconfig_lock(&nd_region->dev);

	mutex_lock(lock);
	nd_region->btt_active = false;
	nd_region->btt_seed = NULL;
	mutex_unlock(lock);
	nd_synchronize();
	flush_workqueue(nd_btt_wq);
	device_for_each_child(&nd_region->dev, lock, nd_btt_unregister_one);
}

/**
 * nd_btt_probe_success - a btt was just bound
 * @nd_btt: the btt (its device lock is held)
 *
 * The seed advances when it was the seed, and so does the namespace seed
 * when the claimed namespace was that (v4.2 and 6.1 behaviour).
 */
void nd_btt_probe_success(struct nd_btt *nd_btt)
{
	struct nd_region *nd_region = to_nd_region(nd_btt->dev.parent);
	struct mutex *lock = nd_btt_reconfig_lock(&nd_btt->dev);
	struct nd_btt *seed;

	mutex_lock(lock);
	if (nd_region->btt_active && nd_region->btt_seed == &nd_btt->dev) {
		seed = nd_btt_create(nd_region, NULL, 0, NULL);
		if (IS_ERR(seed)) {
			dev_err(&nd_region->dev, "no new btt seed: %ld\n",
				PTR_ERR(seed));
			nd_region->btt_seed = NULL;
		} else {
			nd_region->btt_seed = &seed->dev;
		}
	}
	if (nd_btt->ndns && !is_nd_namespace_io(nd_btt->ndns))
		nd_region_advance_seed(nd_region, nd_btt->ndns);
	mutex_unlock(lock);
}

/*
 * Attribute writes: under the btt's device lock, refused while it is
 * bound (a bound btt's configuration is what its media says).
 */
static ssize_t nd_btt_store(struct device *dev, const char *what,
			    int (*op)(struct nd_btt *nd_btt, const char *buf),
			    const char *buf, size_t len)
{
	int rc;

	device_lock(dev);
	if (dev->driver) {
		dev_dbg(dev, "%s: btt is enabled: disable it first\n", what);
		rc = -EBUSY;
	} else if (to_nd_btt_node(dev)->unregistered) {
		dev_dbg(dev, "%s: btt is being removed\n", what);
		rc = -ENXIO;
	} else {
		rc = op(to_nd_btt(dev), buf);
	}
	device_unlock(dev);
	return rc ? rc : len;
}

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct nd_btt *nd_btt = to_nd_btt(dev);
	ssize_t rc;

	device_lock(dev);
	if (nd_btt->has_uuid)
		rc = sysfs_emit(buf, "%pUb\n", &nd_btt->uuid);
	else
		rc = sysfs_emit(buf, "\n");
	device_unlock(dev);
	return rc;
}

static int nd_btt_uuid_op(struct nd_btt *nd_btt, const char *buf)
{
	size_t n = strcspn(buf, "\n");
	char text[UUID_STRING_LEN + 1];
	uuid_t uuid;

	if (n != UUID_STRING_LEN) {
		dev_dbg(&nd_btt->dev, "uuid: %zu characters, a uuid has %d\n",
			n, UUID_STRING_LEN);
		return -EINVAL;
	}
	memcpy(text, buf, n);
	text[n] = '\0';
	if (uuid_parse(text, &uuid) || uuid_is_null(&uuid)) {
		dev_dbg(&nd_btt->dev, "uuid: '%s' is not a usable uuid\n",
			text);
		return -EINVAL;
	}
	nd_btt->uuid = uuid;
	nd_btt->has_uuid = true;
	return 0;
}

static ssize_t uuid_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	return nd_btt_store(dev, "uuid", nd_btt_uuid_op, buf, len);
}
static DEVICE_ATTR_RW(uuid);

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

static int nd_btt_sector_size_op(struct nd_btt *nd_btt, const char *buf)
{
	unsigned long val;

	if (kstrtoul(buf, 0, &val) || !btt_lbasize_supported(val)) {
		dev_dbg(&nd_btt->dev, "sector_size: '%.*s' is not one of the supported sizes\n",
			(int)min_t(size_t, strcspn(buf, "\n"), 16), buf);
		return -EINVAL;
	}
	nd_btt->lbasize = val;
	return 0;
}

static ssize_t sector_size_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	return nd_btt_store(dev, "sector_size", nd_btt_sector_size_op, buf,
			    len);
}
static DEVICE_ATTR_RW(sector_size);

static ssize_t namespace_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct nd_btt *nd_btt = to_nd_btt(dev);
	ssize_t rc;

	device_lock(dev);
	rc = sysfs_emit(buf, "%s\n",
			nd_btt->ndns ? dev_name(nd_btt->ndns) : "");
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
static int nd_btt_claim(struct nd_btt *nd_btt, struct device *ndns)
{
	struct nd_namespace_io *nsio = to_nd_namespace_io(ndns);
	struct mutex *lock = nd_btt_reconfig_lock(&nd_btt->dev);
	struct device *dev = &nd_btt->dev;
	u64 rawsize;
	int rc = 0;

	/*
	 * An enabled namespace may be claimed (the v4.2 document's
	 * configure_btt() disables it afterwards): the claim stops it from
	 * binding again, and the btt cannot bind while it still is
	 * (nvdimm_namespace_attach_btt()).
	 */
	device_lock(ndns);
	if (nsio->claim) {
		dev_dbg(dev, "namespace: %s is already claimed by %s\n",
			dev_name(ndns), dev_name(nsio->claim));
		rc = -EBUSY;
	} else if (nsio->claim_class != ND_CLAIM_NONE &&
		   nsio->claim_class != ND_CLAIM_BTT) {
		dev_dbg(dev, "namespace: %s is reserved for another personality (holder_class)\n",
			dev_name(ndns));
		rc = -EBUSY;
	} else if (btt_rawsize(nsio->res_size, nd_namespace_btt_start(ndns),
			       &rawsize) || btt_arena_count(rawsize) < 0) {
		dev_dbg(dev, "namespace: %s holds %llu bytes, a BTT needs at least 16 MiB\n",
			dev_name(ndns), nsio->res_size);
		rc = -ENXIO;
	} else {
		nsio->claim = dev;
		mutex_lock(lock);
		nd_btt->ndns = ndns;
		mutex_unlock(lock);
	}
	device_unlock(ndns);
	return rc;
}

static int nd_btt_namespace_op(struct nd_btt *nd_btt, const char *buf)
{
	struct nd_region *nd_region = to_nd_region(nd_btt->dev.parent);
	struct nd_btt_node *node = to_nd_btt_node(&nd_btt->dev);
	size_t n = strcspn(buf, "\n");
	char name[32];
	struct device *ndns;
	int rc;

	if (!n) {
		/* release (if claimed) and reset, as for a claimed btt */
		if (nd_btt->ndns)
			nd_btt_release_claim(nd_btt);
		nd_btt->has_uuid = false;
		uuid_copy(&nd_btt->uuid, &uuid_null);
		nd_btt->lbasize = 0;
		/* an idle btt other than the seed goes away */
		get_device(&nd_btt->dev);
		if (!queue_work(nd_btt_wq, &node->del_work))
			put_device(&nd_btt->dev);
		return 0;
	}
	if (nd_btt->ndns) {
		if (sysfs_streq(dev_name(nd_btt->ndns), buf))
			return 0;
		dev_dbg(&nd_btt->dev, "namespace: already claims %s: release it first\n",
			dev_name(nd_btt->ndns));
		return -EBUSY;
	}
	if (n >= sizeof(name)) {
		dev_dbg(&nd_btt->dev, "namespace: name too long\n");
		return -EINVAL;
	}
	memcpy(name, buf, n);
	name[n] = '\0';
	ndns = device_find_child(&nd_region->dev, name,
				 nd_match_namespace_name);
	if (!ndns) {
		dev_dbg(&nd_btt->dev, "namespace: no namespace '%.*s' in %s\n",
			(int)min_t(size_t, n, 32), buf,
			dev_name(&nd_region->dev));
		return -ENODEV;
	}
	rc = nd_btt_claim(nd_btt, ndns);
	if (rc)
		put_device(ndns);	/* kept as the claim's otherwise */
	return rc;
}

static ssize_t namespace_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	return nd_btt_store(dev, "namespace", nd_btt_namespace_op, buf, len);
}
static DEVICE_ATTR_RW(namespace);

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
	&dev_attr_uuid.attr,
	&dev_attr_sector_size.attr,
	&dev_attr_namespace.attr,
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
	&nd_btt_attribute_group,
	NULL,
};

const struct device_type nd_btt_device_type = {
	.name = "nd_btt",
	.release = nd_btt_release,
	.groups = nd_btt_attribute_groups,
};
EXPORT_SYMBOL_GPL(nd_btt_device_type);

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
	struct mutex *lock = nd_btt_reconfig_lock(ndns_dev);
	u64 start = nd_namespace_btt_start(ndns_dev);
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
	if (!nd_region->btt_active) {
		rc = -ENXIO;
	} else {
		nd_btt = nd_btt_create(nd_region, ndns_dev,
				       le32_to_cpu(info->external_lbasize),
				       info->uuid);
		if (IS_ERR(nd_btt)) {
			rc = PTR_ERR(nd_btt);
		} else {
			dev_info(ndns_dev, "BTT %u.%u found at %llu: claimed by %s\n",
				 le16_to_cpu(info->version_major),
				 le16_to_cpu(info->version_minor), start,
				 dev_name(&nd_btt->dev));
		}
	}
	mutex_unlock(lock);
out:
	kfree(info);
	return rc;
}

int __init nd_btt_init(void)
{
	nd_btt_wq = alloc_workqueue("nd_btt", WQ_UNBOUND, 0);
	return nd_btt_wq ? 0 : -ENOMEM;
}

void nd_btt_exit(void)
{
	destroy_workqueue(nd_btt_wq);
}
