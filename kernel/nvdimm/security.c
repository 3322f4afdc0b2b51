// SPDX-License-Identifier: GPL-2.0
/*
 * DIMM passphrase security: the nmemN attributes "security" and "frozen"
 * of 6.1's ABI, the commands written to "security", the DIMM's key in
 * the kernel keyring, unlock at bind, and overwrite polling.
 *
 * A provider describes the operations with struct nvdimm_security_ops
 * (nvdimm_desc.sec_ops); the core keeps the state it last read (user and
 * master flags) and refreshes it after each operation.  Passphrases are
 * encrypted keys (key_type_encrypted) whose decrypted payload is exactly
 * NVDIMM_PASSPHRASE_LEN bytes: "update 0 <id>" and friends name them by
 * serial, the unlock at bind looks up "nvdimm:<dimm id>".  Anything else
 * (another key type, another payload size, no such key) is -ENOKEY, with
 * nothing sent to the DIMM.
 *
 * Written to "security" (6.1's grammar, one command, exact arguments):
 *   update <old keyid> <new keyid>        (old keyid 0: none was set)
 *   disable <keyid>
 *   freeze
 *   erase <keyid>
 *   overwrite <keyid>                     (keyid 0: no passphrase)
 *   master_update <old keyid> <new keyid>
 *   master_erase <keyid>
 * An unknown command or one with too few arguments is -EINVAL; words
 * past a command's arguments are ignored (6.1's parser).  A frozen DIMM
 * refuses all but "freeze" with -EIO, an overwrite in progress everything
 * with -EBUSY; erase and overwrite need the DIMM idle (no enabled region:
 * -EBUSY).  During an overwrite the DIMM binds without labels and its
 * regions do not enable (-EBUSY).
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/key.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/workqueue.h>
#include <linux/key-type.h>
#include <keys/encrypted-type.h>
#include "nd-core.h"

static bool key_revalidate = true;
module_param(key_revalidate, bool, 0444);
MODULE_PARM_DESC(key_revalidate, "Check the key of a DIMM found unlocked at bind; freeze it when that fails (default on)");

#define NVDIMM_OVERWRITE_POLL_MAX_MS 1000

/**
 * struct nd_security - a DIMM's security state in the core
 * @ops: the provider's operations
 * @lock: serialises the operations and the fields below
 * @flags: NVDIMM_SECURITY_* bits of the user passphrase, last read
 * @ext_flags: the same of the master passphrase
 * @overwrite: an overwrite runs; the DIMM's media and labels are unusable
 * @poll_ms: next overwrite poll interval
 * @dwork: the overwrite poll
 * @kn: the "security" attribute, notified when an overwrite ends
 * @nvdimm: the DIMM
 */
struct nd_security {
	const struct nvdimm_security_ops *ops;
	struct mutex lock; /* operations, the fields below */
	unsigned long flags;
	unsigned long ext_flags;
	bool overwrite;
	unsigned int poll_ms;
	struct delayed_work dwork;
	struct kernfs_node *kn;
	struct nvdimm *nvdimm;
};

static const struct nvdimm_key_data nvdimm_zero_key;

/* lockdep subclasses of a key's semaphore (nvdimm_key_check()) */
enum {
	NVDIMM_KEY_BASE,
	NVDIMM_KEY_NEW = SINGLE_DEPTH_NESTING,
};

/*
 * The test build (kernel/test/Kbuild.drivers) asks the DIMM at every show:
 * its mock can change the state behind the kernel's back (a reboot).
 */
#ifdef NVDIMM_SECURITY_TEST
static const bool nvdimm_sec_poll = true;
#else
static const bool nvdimm_sec_poll;
#endif

/* sec->lock held */
static void nvdimm_sec_refresh(struct nvdimm *nvdimm)
{
	struct nd_security *sec = nvdimm->sec;

	if (sec->overwrite) {
		/* indeterminate until the overwrite completes */
		sec->flags = BIT(NVDIMM_SECURITY_OVERWRITE);
		return;
	}
	sec->flags = sec->ops->get_flags(nvdimm, NVDIMM_USER);
	sec->ext_flags = sec->ops->get_flags(nvdimm, NVDIMM_MASTER);
}

/*
 * The passphrase of key @id: an encrypted key of NVDIMM_PASSPHRASE_LEN
 * bytes the caller may search.  Returns the key with its semaphore held
 * for reading (nvdimm_key_put()), or NULL (logged).  @subclass: the
 * lockdep subclass of that semaphore, NVDIMM_KEY_NEW for the second key
 * an update holds beside the first (both are of the encrypted key type's
 * one lock class).
 */
static struct key *nvdimm_key_check(struct nvdimm *nvdimm, struct key *key,
				    const struct nvdimm_key_data **data,
				    int subclass)
{
	struct device *dev = &nvdimm->dev;
	struct encrypted_key_payload *epl;

	if (key->type != &key_type_encrypted) {
		dev_dbg(dev, "key %d: type %s, not encrypted\n",
			key_serial(key), key->type->name);
		key_put(key);
		return NULL;
	}
	down_read_nested(&key->sem, subclass);
	epl = dereference_key_locked(key);
	if (!epl || epl->decrypted_datalen != NVDIMM_PASSPHRASE_LEN) {
		dev_dbg(dev, "key %d: payload of %u bytes, not %u\n",
			key_serial(key), epl ? epl->decrypted_datalen : 0,
			NVDIMM_PASSPHRASE_LEN);
		up_read(&key->sem);
		key_put(key);
		return NULL;
	}
	*data = (const struct nvdimm_key_data *)epl->decrypted_data;
	return key;
}

static struct key *nvdimm_user_key(struct nvdimm *nvdimm, unsigned int id,
				   const struct nvdimm_key_data **data,
				   int subclass)
{
	key_ref_t ref;

	ref = lookup_user_key((key_serial_t)id, 0, KEY_NEED_SEARCH);
	if (IS_ERR(ref)) {
		dev_dbg(&nvdimm->dev, "key %u: not found (%ld)\n", id,
			PTR_ERR(ref));
		return NULL;
	}
	return nvdimm_key_check(nvdimm, key_ref_to_ptr(ref), data, subclass);
}

/* "nvdimm:<dimm id>" from the caller's keyrings, no upcall */
static struct key *nvdimm_named_key(struct nvdimm *nvdimm,
				    const struct nvdimm_key_data **data)
{
	char desc[NVDIMM_KEY_DESC_LEN + 16];
	struct key *key;

	if (!nvdimm->desc.dimm_id)
		return NULL;
	snprintf(desc, sizeof(desc), "nvdimm:%s", nvdimm->desc.dimm_id);
	key = request_key(&key_type_encrypted, desc, NULL);
	if (IS_ERR(key)) {
		dev_dbg(&nvdimm->dev, "request_key() found no key %s (%ld)\n",
			desc, PTR_ERR(key));
		return NULL;
	}
	return nvdimm_key_check(nvdimm, key, data, NVDIMM_KEY_BASE);
}

static void nvdimm_key_put(struct key *key)
{
	if (!key)
		return;
	up_read(&key->sem);
	key_put(key);
}

/*
 * Key @id's passphrase, the zero passphrase for id 0 when @zero_ok.
 * Returns 0 with *@key to put (NULL for the zero passphrase), or -ENOKEY.
 */
static int nvdimm_get_key(struct nvdimm *nvdimm, unsigned int id, bool zero_ok,
			  struct key **key, const struct nvdimm_key_data **data,
			  int subclass)
{
	*key = NULL;
	if (!id && zero_ok) {
		*data = &nvdimm_zero_key;
		return 0;
	}
	*key = nvdimm_user_key(nvdimm, id, data, subclass);
	return *key ? 0 : -ENOKEY;
}

/* sec->lock held: what every operation but freeze needs */
static int nvdimm_sec_check(struct nvdimm *nvdimm)
{
	struct nd_security *sec = nvdimm->sec;

	if (test_bit(NVDIMM_SECURITY_FROZEN, &sec->flags)) {
		dev_dbg(&nvdimm->dev, "security frozen: %#lx\n", sec->flags);
		return -EIO;
	}
	if (sec->overwrite) {
		dev_dbg(&nvdimm->dev, "overwrite in progress\n");
		return -EBUSY;
	}
	return 0;
}

/*
 * Before an operation that sends passphrase @id: the provider has it
 * (@op true), the state allows it, the key fits.  Returns 0 with *@key to put
 * (nvdimm_key_put()), or the errno.  sec->lock held.
 */
static int nvdimm_sec_prepare(struct nvdimm *nvdimm, bool op,
			      unsigned int id, bool zero_ok, struct key **key,
			      const struct nvdimm_key_data **data)
{
	int rc;

	*key = NULL;
	if (!op)
		return -EOPNOTSUPP;
	rc = nvdimm_sec_check(nvdimm);
	if (rc)
		return rc;
	return nvdimm_get_key(nvdimm, id, zero_ok, key, data, NVDIMM_KEY_BASE);
}

static int nvdimm_sec_freeze(struct nvdimm *nvdimm)
{
	struct nd_security *sec = nvdimm->sec;
	int rc;

	if (!sec->ops->freeze)
		return -EOPNOTSUPP;
	if (sec->overwrite) {
		dev_dbg(&nvdimm->dev, "overwrite in progress\n");
		return -EBUSY;
	}
	rc = sec->ops->freeze(nvdimm);
	dev_dbg(&nvdimm->dev, "freeze: %d\n", rc);
	nvdimm_sec_refresh(nvdimm);
	return rc;
}

static int nvdimm_sec_update(struct nvdimm *nvdimm, unsigned int old_id,
			     unsigned int new_id,
			     enum nvdimm_passphrase_type ptype)
{
	const struct nvdimm_key_data *old, *new;
	struct nd_security *sec = nvdimm->sec;
	struct key *okey, *nkey;
	int rc;

	rc = nvdimm_sec_prepare(nvdimm, sec->ops->change_key, old_id, true,
				&okey, &old);
	if (rc)
		return rc;
	/* the same key twice: its semaphore is held already */
	if (okey && new_id == old_id) {
		nkey = NULL;
		new = old;
		rc = 0;
	} else {
		rc = nvdimm_get_key(nvdimm, new_id, false, &nkey, &new,
				    NVDIMM_KEY_NEW);
	}
	if (rc) {
		nvdimm_key_put(okey);
		return rc;
	}
	rc = sec->ops->change_key(nvdimm, old, new, ptype);
	dev_dbg(&nvdimm->dev, "%supdate %u -> %u: %d\n",
		ptype == NVDIMM_MASTER ? "master " : "", old_id, new_id, rc);
	nvdimm_key_put(nkey);
	nvdimm_key_put(okey);
	nvdimm_sec_refresh(nvdimm);
	return rc;
}

static int nvdimm_sec_disable(struct nvdimm *nvdimm, unsigned int id)
{
	const struct nvdimm_key_data *data;
	struct nd_security *sec = nvdimm->sec;
	struct key *key;
	int rc;

	rc = nvdimm_sec_prepare(nvdimm, sec->ops->disable, id, false, &key,
				&data);
	if (rc)
		return rc;
	rc = sec->ops->disable(nvdimm, data);
	dev_dbg(&nvdimm->dev, "disable %u: %d\n", id, rc);
	nvdimm_key_put(key);
	nvdimm_sec_refresh(nvdimm);
	return rc;
}

static int nvdimm_sec_erase(struct nvdimm *nvdimm, unsigned int id,
			    enum nvdimm_passphrase_type ptype)
{
	const struct nvdimm_key_data *data;
	struct nd_security *sec = nvdimm->sec;
	struct key *key;
	int rc;

	if (ptype == NVDIMM_MASTER && sec->ops->erase &&
	    !test_bit(NVDIMM_SECURITY_FROZEN, &sec->flags) &&
	    !test_bit(NVDIMM_SECURITY_UNLOCKED, &sec->ext_flags)) {
		dev_dbg(&nvdimm->dev, "master erase: no master passphrase set\n");
		return -EOPNOTSUPP;
	}
	rc = nvdimm_sec_prepare(nvdimm, sec->ops->erase, id, false, &key,
				&data);
	if (rc)
		return rc;
	rc = sec->ops->erase(nvdimm, data, ptype);
	dev_dbg(&nvdimm->dev, "%serase %u: %d\n",
		ptype == NVDIMM_MASTER ? "master " : "", id, rc);
	nvdimm_key_put(key);
	nvdimm_sec_refresh(nvdimm);
	return rc;
}

static void nvdimm_overwrite_poll(struct work_struct *work)
{
	struct nd_security *sec = container_of(to_delayed_work(work),
					       struct nd_security, dwork);
	struct nvdimm *nvdimm = sec->nvdimm;
	int rc;

	mutex_lock(&sec->lock);
	rc = sec->ops->query_overwrite(nvdimm);
	if (rc == -EBUSY) {
		sec->poll_ms = min(sec->poll_ms * 2,
				   NVDIMM_OVERWRITE_POLL_MAX_MS);
		schedule_delayed_work(&sec->dwork,
				      msecs_to_jiffies(sec->poll_ms));
		mutex_unlock(&sec->lock);
		return;
	}
	if (rc)
		dev_warn(&nvdimm->dev, "overwrite failed: %d\n", rc);
	else
		dev_dbg(&nvdimm->dev, "overwrite completed\n");
	sec->overwrite = false;
	nvdimm_sec_refresh(nvdimm);
	if (sec->kn)
		sysfs_notify_dirent(sec->kn);
	mutex_unlock(&sec->lock);
	put_device(&nvdimm->dev);
}

/* sec->lock held */
static int nvdimm_sec_overwrite(struct nvdimm *nvdimm, unsigned int id)
{
	const struct nvdimm_key_data *data;
	struct nd_security *sec = nvdimm->sec;
	struct key *key;
	int rc;

	rc = nvdimm_sec_prepare(nvdimm, sec->ops->overwrite &&
				sec->ops->query_overwrite, id, true, &key,
				&data);
	if (rc)
		return rc;
	rc = sec->ops->overwrite(nvdimm, data);
	dev_dbg(&nvdimm->dev, "overwrite %u: %d\n", id, rc);
	nvdimm_key_put(key);
	if (rc) {
		nvdimm_sec_refresh(nvdimm);
		return rc;
	}
	sec->overwrite = true;
	sec->poll_ms = 50;
	nvdimm_sec_refresh(nvdimm);
	get_device(&nvdimm->dev);
	schedule_delayed_work(&sec->dwork, msecs_to_jiffies(sec->poll_ms));
	return 0;
}

enum nvdimm_sec_cmd {
	SEC_FREEZE,
	SEC_DISABLE,
	SEC_UPDATE,
	SEC_ERASE,
	SEC_OVERWRITE,
	SEC_MASTER_UPDATE,
	SEC_MASTER_ERASE,
};

static const struct {
	const char *name;
	int words;
} nvdimm_sec_cmds[] = {
	[SEC_FREEZE] = { "freeze", 1 },
	[SEC_DISABLE] = { "disable", 2 },
	[SEC_UPDATE] = { "update", 3 },
	[SEC_ERASE] = { "erase", 2 },
	[SEC_OVERWRITE] = { "overwrite", 2 },
	[SEC_MASTER_UPDATE] = { "master_update", 3 },
	[SEC_MASTER_ERASE] = { "master_erase", 2 },
};

#define SEC_WORD_MAX 32

/*
 * The first 3 words of @buf (what follows is ignored, as 6.1 does), each
 * of at most SEC_WORD_MAX characters.  Returns how many, or -EINVAL.
 */
static int nvdimm_sec_words(const char *buf, size_t len,
			    char w[3][SEC_WORD_MAX + 1])
{
	int n = 0;
	size_t i = 0, k;

	while (i < len && n < 3) {
		while (i < len && isspace(buf[i]))
			i++;
		if (i >= len || !buf[i])
			break;
		for (k = 0; i < len && buf[i] && !isspace(buf[i]); i++, k++) {
			if (k == SEC_WORD_MAX)
				return -EINVAL;
			w[n][k] = buf[i];
		}
		w[n++][k] = 0;
	}
	return n;
}

static ssize_t nvdimm_sec_store(struct nvdimm *nvdimm, const char *buf,
				size_t len)
{
	struct device *dev = &nvdimm->dev;
	char w[3][SEC_WORD_MAX + 1];
	unsigned int key = 0, newkey = 0;
	int n, i, rc;

	n = nvdimm_sec_words(buf, len, w);
	if (n <= 0) {
		dev_dbg(dev, "security: no command, or too long\n");
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(nvdimm_sec_cmds); i++)
		if (!strcmp(w[0], nvdimm_sec_cmds[i].name))
			break;
	if (i == ARRAY_SIZE(nvdimm_sec_cmds) || n < nvdimm_sec_cmds[i].words) {
		dev_dbg(dev, "security: \"%s\" with %d arguments not understood\n",
			w[0], n - 1);
		return -EINVAL;
	}
	n = nvdimm_sec_cmds[i].words;
	rc = n > 1 ? kstrtouint(w[1], 0, &key) : 0;
	if (!rc && n > 2)
		rc = kstrtouint(w[2], 0, &newkey);
	if (rc) {
		dev_dbg(dev, "security %s: key id not a number\n", w[0]);
		return rc;
	}

	switch (i) {
	case SEC_FREEZE:
		return nvdimm_sec_freeze(nvdimm);
	case SEC_DISABLE:
		return nvdimm_sec_disable(nvdimm, key);
	case SEC_UPDATE:
		return nvdimm_sec_update(nvdimm, key, newkey, NVDIMM_USER);
	case SEC_MASTER_UPDATE:
		return nvdimm_sec_update(nvdimm, key, newkey, NVDIMM_MASTER);
	case SEC_ERASE:
	case SEC_MASTER_ERASE:
		if (atomic_read(&nvdimm->busy)) {
			dev_dbg(dev, "erase refused: a region using the DIMM is enabled\n");
			return -EBUSY;
		}
		return nvdimm_sec_erase(nvdimm, key, i == SEC_ERASE ?
					NVDIMM_USER : NVDIMM_MASTER);
	case SEC_OVERWRITE:
		/* a bound DIMM may be overwritten (6.1): it then has no labels */
		if (atomic_read(&nvdimm->busy)) {
			dev_dbg(dev, "overwrite refused: a region using the DIMM is enabled\n");
			return -EBUSY;
		}
		return nvdimm_sec_overwrite(nvdimm, key);
	}
	return -EINVAL;
}

static ssize_t security_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct nd_security *sec = to_nvdimm(dev)->sec;
	unsigned long flags;

	mutex_lock(&sec->lock);
	if (nvdimm_sec_poll)
		nvdimm_sec_refresh(to_nvdimm(dev));
	flags = sec->flags;
	mutex_unlock(&sec->lock);
	if (test_bit(NVDIMM_SECURITY_OVERWRITE, &flags))
		return sysfs_emit(buf, "overwrite\n");
	if (test_bit(NVDIMM_SECURITY_DISABLED, &flags))
		return sysfs_emit(buf, "disabled\n");
	if (test_bit(NVDIMM_SECURITY_UNLOCKED, &flags))
		return sysfs_emit(buf, "unlocked\n");
	if (test_bit(NVDIMM_SECURITY_LOCKED, &flags))
		return sysfs_emit(buf, "locked\n");
	return -ENOTTY;
}

static ssize_t security_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t len)
{
	struct nvdimm *nvdimm = to_nvdimm(dev);
	ssize_t rc;

	/* the DIMM's binding (unlock at probe, overwrite) stays put */
	device_lock(dev);
	mutex_lock(&nvdimm->sec->lock);
	rc = nvdimm_sec_store(nvdimm, buf, len);
	mutex_unlock(&nvdimm->sec->lock);
	device_unlock(dev);
	return rc < 0 ? rc : len;
}
static DEVICE_ATTR_RW(security);

static ssize_t frozen_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct nd_security *sec = to_nvdimm(dev)->sec;
	bool frozen;

	mutex_lock(&sec->lock);
	if (nvdimm_sec_poll)
		nvdimm_sec_refresh(to_nvdimm(dev));
	frozen = test_bit(NVDIMM_SECURITY_FROZEN, &sec->flags);
	mutex_unlock(&sec->lock);
	return sysfs_emit(buf, "%d\n", frozen);
}
static DEVICE_ATTR_RO(frozen);

static struct attribute *nvdimm_security_attributes[] = {
	&dev_attr_security.attr,
	&dev_attr_frozen.attr,
	NULL,
};

/* as 6.1: absent on a DIMM without security (QEMU's, label DSMs only) */
static umode_t nvdimm_security_visible(struct kobject *kobj,
				       struct attribute *a, int n)
{
	struct nvdimm *nvdimm = to_nvdimm(kobj_to_dev(kobj));

	if (!nvdimm->sec || !nvdimm->sec->flags)
		return 0;
	return a->mode;
}

const struct attribute_group nvdimm_security_attribute_group = {
	.attrs = nvdimm_security_attributes,
	.is_visible = nvdimm_security_visible,
};

/**
 * nvdimm_security_init - a new DIMM's security state (nvdimm_create())
 * @nvdimm: the DIMM, initialised but not added
 *
 * Reads the state through the provider's ops before the attributes are
 * created (they exist only on a DIMM with security).  Returns 0 or
 * -ENOMEM.
 */
int nvdimm_security_init(struct nvdimm *nvdimm)
{
	struct nd_security *sec;

	if (!nvdimm->desc.sec_ops || !nvdimm->desc.sec_ops->get_flags)
		return 0;
	sec = kzalloc(sizeof(*sec), GFP_KERNEL);
	if (!sec)
		return -ENOMEM;
	sec->ops = nvdimm->desc.sec_ops;
	sec->nvdimm = nvdimm;
	mutex_init(&sec->lock);
	INIT_DELAYED_WORK(&sec->dwork, nvdimm_overwrite_poll);
	nvdimm->sec = sec;
	nvdimm_sec_refresh(nvdimm);
	dev_dbg(&nvdimm->dev, "security flags %#lx master %#lx\n", sec->flags,
		sec->ext_flags);
	return 0;
}

/**
 * nvdimm_security_added - the DIMM is in sysfs: find "security" to notify
 * @nvdimm: the DIMM
 */
void nvdimm_security_added(struct nvdimm *nvdimm)
{
	if (nvdimm->sec && nvdimm->sec->flags)
		nvdimm->sec->kn = sysfs_get_dirent(nvdimm->dev.kobj.sd,
						   "security");
}

/**
 * nvdimm_security_exit - the DIMM is going: no overwrite poll after this
 * @nvdimm: the DIMM (before device_del())
 */
void nvdimm_security_exit(struct nvdimm *nvdimm)
{
	struct nd_security *sec = nvdimm->sec;

	if (!sec)
		return;
	if (cancel_delayed_work_sync(&sec->dwork))
		put_device(&nvdimm->dev);
	if (sec->kn) {
		sysfs_put(sec->kn);
		sec->kn = NULL;
	}
}

/**
 * nvdimm_security_free - free what nvdimm_security_init() allocated
 * @nvdimm: the DIMM (its release)
 */
void nvdimm_security_free(struct nvdimm *nvdimm)
{
	kfree(nvdimm->sec);
}

/**
 * nvdimm_security_overwriting - an overwrite runs: no region may enable
 * @nvdimm: the DIMM
 */
bool nvdimm_security_overwriting(struct nvdimm *nvdimm)
{
	bool rc;

	if (!nvdimm->sec)
		return false;
	mutex_lock(&nvdimm->sec->lock);
	rc = nvdimm->sec->overwrite;
	mutex_unlock(&nvdimm->sec->lock);
	return rc;
}

/*
 * A DIMM found unlocked (the pre-OS unlocked it, or it was unlocked
 * before an unbind): the key must still be the DIMM's, checked by
 * setting the passphrase to itself; without it the security state is
 * managed elsewhere and is frozen here, as 6.1 does.  sec->lock held.
 */
static int nvdimm_sec_revalidate(struct nvdimm *nvdimm)
{
	struct nd_security *sec = nvdimm->sec;
	const struct nvdimm_key_data *data;
	struct key *key;
	int rc = -ENOKEY;

	if (!key_revalidate || !sec->ops->change_key)
		return 0;
	key = nvdimm_named_key(nvdimm, &data);
	if (key) {
		rc = sec->ops->change_key(nvdimm, data, data, NVDIMM_USER);
		nvdimm_key_put(key);
	}
	if (!rc)
		return 0;
	dev_dbg(&nvdimm->dev, "key revalidation failed (%d): freezing security\n",
		rc);
	return nvdimm_sec_freeze(nvdimm);
}

/**
 * nvdimm_security_unlock - unlock a locked DIMM at bind, before its labels
 * @nvdimm: the DIMM being bound (device lock held)
 *
 * Looks up the encrypted key "nvdimm:<dimm id>" in the caller's keyrings
 * and sends its passphrase to the DIMM.  Returns 0 when the DIMM is
 * usable (no security, unlocked now), or a negative errno (-ENOKEY: no
 * fitting key; -EINVAL: the DIMM refused the passphrase; -EBUSY: an
 * overwrite runs) with the DIMM left as it was, locked: its label area
 * is not read and its regions are not enabled.
 */
int nvdimm_security_unlock(struct nvdimm *nvdimm)
{
	struct nd_security *sec = nvdimm->sec;
	const struct nvdimm_key_data *data;
	struct key *key;
	int rc;

	if (!sec)
		return 0;
	mutex_lock(&sec->lock);
	if (sec->overwrite) {
		rc = -EBUSY;
		goto out;
	}
	nvdimm_sec_refresh(nvdimm);
	if (!test_bit(NVDIMM_SECURITY_LOCKED, &sec->flags)) {
		rc = 0;
		if (test_bit(NVDIMM_SECURITY_UNLOCKED, &sec->flags) &&
		    !test_bit(NVDIMM_SECURITY_FROZEN, &sec->flags))
			nvdimm_sec_revalidate(nvdimm);
		goto out;
	}
	rc = -EOPNOTSUPP;
	if (!sec->ops->unlock)
		goto out;
	rc = -ENOKEY;
	key = nvdimm_named_key(nvdimm, &data);
	if (!key)
		goto out;
	rc = sec->ops->unlock(nvdimm, data);
	dev_dbg(&nvdimm->dev, "key: %d unlock: %s\n", key_serial(key),
		rc ? "fail" : "success");
	nvdimm_key_put(key);
	nvdimm_sec_refresh(nvdimm);
	if (!rc && test_bit(NVDIMM_SECURITY_LOCKED, &sec->flags))
		rc = -EIO;
out:
	mutex_unlock(&sec->lock);
	return rc;
}

/**
 * nvdimm_security_locked - the DIMM's media is locked
 * @nvdimm: the DIMM
 */
bool nvdimm_security_locked(struct nvdimm *nvdimm)
{
	bool rc;

	if (!nvdimm->sec)
		return false;
	mutex_lock(&nvdimm->sec->lock);
	rc = test_bit(NVDIMM_SECURITY_LOCKED, &nvdimm->sec->flags) ||
		nvdimm->sec->overwrite;
	mutex_unlock(&nvdimm->sec->lock);
	return rc;
}
