// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test's passphrase-security firmware: the security functions of
 * the Intel DSM specification v1.8 (19 Get Security State .. 28 Master
 * Secure Erase) on every DIMM of nfit_test.0, answered through
 * ND_CMD_CALL like the rest of the mock firmware (nfit_test.c).
 *
 * Per DIMM: the user passphrase state (disabled; enabled and unlocked;
 * enabled and locked), frozen (until a reset: lock_dimm), an overwrite
 * in progress, and the master passphrase.  A call in the wrong state is
 * answered with status 10 (invalid state), a wrong passphrase with 11
 * (invalid passphrase), a malformed envelope with 3 (bad input); the
 * state is then untouched.  A secure erase fills the DIMM's media with a
 * new pattern (the data under the old media key is gone), an overwrite
 * zeroes it once it completes, overwrite_ms after it started (read while
 * it runs: a test ends a long overwrite by writing 0).
 *
 * /sys/devices/platform/nfit_test.0/nfit_test_dimm/test_dimmN (N: the
 * DIMM's index on the bus, as 6.1's mock and ndctl's tests have it):
 *   handle          the DIMM's NFIT handle
 *   lock_dimm       write 1: the DIMM restarts (frozen cleared) and, with
 *                   a passphrase set, comes back locked
 *   security_state  "<state> <ext_state> <erases> <overwriting>" (ours)
 *   overwrite_ms    how long an overwrite takes, also the running one (ours)
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <crypto/algapi.h>
#include <asm/unaligned.h>
#include <uapi/linux/ndctl.h>
#include "intel-security.h"
#include "nfit_test_security.h"
#include "nfit_test_smart.h"

#define NT_SEC_BAD_INPUT	3

/* input and output bytes of each function, from 19 on */
static const struct {
	u8 in;
	u8 out;
} nt_sec_len[NT_SEC_FUNCS] = {
	[0] = { 0, sizeof(struct nfit_intel_sec_state) },
	[1] = { 2 * NT_SEC_PASS_LEN, 4 },	/* set passphrase */
	[2] = { NT_SEC_PASS_LEN, 4 },		/* disable */
	[3] = { NT_SEC_PASS_LEN, 4 },		/* unlock */
	[4] = { 0, 4 },				/* freeze lock */
	[5] = { NT_SEC_PASS_LEN, 4 },		/* secure erase */
	[6] = { NT_SEC_PASS_LEN, 4 },		/* overwrite */
	[7] = { 0, 4 },				/* query overwrite */
	[8] = { 2 * NT_SEC_PASS_LEN, 4 },	/* set master passphrase */
	[9] = { NT_SEC_PASS_LEN, 4 },		/* master secure erase */
};

static bool nt_sec_match(const u8 *a, const u8 *b)
{
	return !crypto_memneq(a, b, NT_SEC_PASS_LEN);
}

/* the media key changed: what was written reads back as other bytes */
static void nt_sec_erase_media(struct nt_sec *sec)
{
	sec->erases++;
	memset(sec->media, 0xa5 ^ (u8)sec->erases, sec->media_len);
}

/* the user passphrase is gone (disabled, erased, overwritten) */
static void nt_sec_drop_user(struct nt_sec *sec)
{
	sec->state &= ~(NFIT_INTEL_SEC_STATE_ENABLED |
			NFIT_INTEL_SEC_STATE_LOCKED);
	memzero_explicit(sec->pass, sizeof(sec->pass));
}

/* an overwrite that ran its time: the media zeroed, the passphrase gone */
static void nt_sec_overwrite_done(struct nt_sec *sec)
{
	if (!sec->overwriting ||
	    time_before(jiffies, sec->overwrite_start +
			msecs_to_jiffies(READ_ONCE(sec->overwrite_ms))))
		return;
	sec->overwriting = false;
	sec->erases++;
	memset(sec->media, 0, sec->media_len);
	nt_sec_drop_user(sec);
}

/*
 * What a function needs (checked in this order): the state bits it
 * refuses (invalid state), the bits it requires (invalid state), and
 * which passphrase must match its first input: always, only while that
 * passphrase is set, or none.
 */
enum {
	NT_PASS_NONE,
	NT_PASS_USER,
	NT_PASS_USER_IF_SET,
	NT_PASS_MASTER,
	NT_PASS_MASTER_IF_SET,
};

static const struct {
	u8 refuse;
	u8 require;
	bool master_required;
	u8 pass;
} nt_sec_rules[NT_SEC_FUNCS] = {
	[1] = { NFIT_INTEL_SEC_STATE_LOCKED | NFIT_INTEL_SEC_STATE_FROZEN, 0,
		false, NT_PASS_USER_IF_SET },
	[2] = { NFIT_INTEL_SEC_STATE_LOCKED | NFIT_INTEL_SEC_STATE_FROZEN,
		NFIT_INTEL_SEC_STATE_ENABLED, false, NT_PASS_USER },
	[3] = { NFIT_INTEL_SEC_STATE_FROZEN, NFIT_INTEL_SEC_STATE_LOCKED,
		false, NT_PASS_USER },
	[5] = { NFIT_INTEL_SEC_STATE_LOCKED | NFIT_INTEL_SEC_STATE_FROZEN,
		NFIT_INTEL_SEC_STATE_ENABLED, false, NT_PASS_USER },
	[6] = { NFIT_INTEL_SEC_STATE_LOCKED | NFIT_INTEL_SEC_STATE_FROZEN, 0,
		false, NT_PASS_USER_IF_SET },
	[8] = { NFIT_INTEL_SEC_STATE_LOCKED | NFIT_INTEL_SEC_STATE_FROZEN, 0,
		false, NT_PASS_MASTER_IF_SET },
	[9] = { NFIT_INTEL_SEC_STATE_FROZEN, 0, true, NT_PASS_MASTER },
};

static u32 nt_sec_allowed(struct nt_sec *sec, unsigned int i, const u8 *in)
{
	bool user = sec->state & NFIT_INTEL_SEC_STATE_ENABLED;
	bool master = sec->ext_state & NFIT_INTEL_SEC_ESTATE_ENABLED;

	if ((sec->state & nt_sec_rules[i].refuse) ||
	    (sec->state & nt_sec_rules[i].require) != nt_sec_rules[i].require ||
	    (nt_sec_rules[i].master_required && !master))
		return NFIT_INTEL_STATUS_INVALID_STATE;
	switch (nt_sec_rules[i].pass) {
	case NT_PASS_USER_IF_SET:
		if (!user)
			break;
		fallthrough;
	case NT_PASS_USER:
		if (!nt_sec_match(sec->pass, in))
			return NFIT_INTEL_STATUS_INVALID_PASS;
		break;
	case NT_PASS_MASTER_IF_SET:
		if (!master)
			break;
		fallthrough;
	case NT_PASS_MASTER:
		if (!nt_sec_match(sec->master, in))
			return NFIT_INTEL_STATUS_INVALID_PASS;
		break;
	}
	return 0;
}

/* One function; sec->lock held.  Returns the status. */
static u32 nt_sec_run(struct nt_sec *sec, unsigned int func, const u8 *in,
		      u8 *out)
{
	struct nfit_intel_sec_state *st = (void *)out;
	u32 status;

	nt_sec_overwrite_done(sec);
	if (sec->overwriting && func != NFIT_INTEL_GET_SECURITY_STATE &&
	    func != NFIT_INTEL_QUERY_OVERWRITE)
		return NFIT_INTEL_STATUS_INVALID_STATE;
	status = nt_sec_allowed(sec, func - NFIT_INTEL_GET_SECURITY_STATE, in);
	if (status)
		return status;

	switch (func) {
	case NFIT_INTEL_GET_SECURITY_STATE:
		st->state = sec->state;
		if (sec->overwriting)
			st->state |= NFIT_INTEL_SEC_STATE_OVERWRITE;
		st->extended_state = sec->ext_state;
		break;
	case NFIT_INTEL_SET_PASSPHRASE:
		memcpy(sec->pass, in + NT_SEC_PASS_LEN, NT_SEC_PASS_LEN);
		sec->state |= NFIT_INTEL_SEC_STATE_ENABLED;
		break;
	case NFIT_INTEL_DISABLE_PASSPHRASE:
		nt_sec_drop_user(sec);
		break;
	case NFIT_INTEL_UNLOCK_UNIT:
		sec->state &= ~NFIT_INTEL_SEC_STATE_LOCKED;
		break;
	case NFIT_INTEL_FREEZE_LOCK:
		sec->state |= NFIT_INTEL_SEC_STATE_FROZEN;
		break;
	case NFIT_INTEL_SECURE_ERASE:
	case NFIT_INTEL_MASTER_SECURE_ERASE:
		nt_sec_erase_media(sec);
		nt_sec_drop_user(sec);
		break;
	case NFIT_INTEL_OVERWRITE:
		sec->overwriting = true;
		sec->overwrite_start = jiffies;
		break;
	case NFIT_INTEL_QUERY_OVERWRITE:
		if (sec->overwriting)
			return NFIT_INTEL_STATUS_OQUERY_INPROGRESS;
		if (!sec->erases)
			return NFIT_INTEL_STATUS_OQUERY_SEQUENCE_ERR;
		break;
	case NFIT_INTEL_SET_MASTER_PASSPHRASE:
		memcpy(sec->master, in + NT_SEC_PASS_LEN, NT_SEC_PASS_LEN);
		sec->ext_state |= NFIT_INTEL_SEC_ESTATE_ENABLED;
		break;
	}
	return 0;
}

/**
 * nt_sec_call - answer a security function of an ND_CMD_CALL package
 * @sec: the DIMM's security firmware, NULL when it has none
 * @dev: where to log (the nmemN device)
 * @buf: the package
 * @buf_len: its envelope
 *
 * Returns -ENOTTY when the package is not for this file (another family
 * or function, or a DIMM without security), -EINVAL for an envelope that
 * cannot hold the package, else the output bytes left unfilled.
 */
int nt_sec_call(struct nt_sec *sec, struct device *dev, void *buf,
		unsigned int buf_len)
{
	struct nd_cmd_pkg *pkg = buf;
	unsigned int func, i;
	u8 *out;
	u32 status, n;

	if (!sec || buf_len < sizeof(*pkg) ||
	    pkg->nd_family != NVDIMM_FAMILY_INTEL ||
	    pkg->nd_command < NFIT_INTEL_GET_SECURITY_STATE ||
	    pkg->nd_command > NFIT_INTEL_MASTER_SECURE_ERASE)
		return -ENOTTY;
	if ((u64)pkg->nd_size_in + pkg->nd_size_out > buf_len - sizeof(*pkg)) {
		dev_dbg(dev, "security call: envelope of %u bytes does not hold the package\n",
			buf_len);
		return -EINVAL;
	}
	func = pkg->nd_command;
	i = func - NFIT_INTEL_GET_SECURITY_STATE;
	out = pkg->nd_payload + pkg->nd_size_in;
	if (pkg->nd_size_out < sizeof(u32))
		return -EINVAL;
	memset(out, 0, pkg->nd_size_out);

	mutex_lock(&sec->lock);
	sec->calls[i]++;
	if (pkg->nd_size_in != nt_sec_len[i].in ||
	    pkg->nd_size_out < nt_sec_len[i].out) {
		dev_dbg(dev, "security function %u: %u/%u bytes in/out, wants %u/%u\n",
			func, pkg->nd_size_in, pkg->nd_size_out,
			nt_sec_len[i].in, nt_sec_len[i].out);
		status = NT_SEC_BAD_INPUT;
		n = sizeof(u32);
	} else {
		status = nt_sec_run(sec, func, pkg->nd_payload, out);
		n = nt_sec_len[i].out;
	}
	if (status) {
		sec->fails[i]++;
		n = sizeof(u32);
		dev_dbg(dev, "security function %u: status %#x (state %#x)\n",
			func, status, sec->state);
	}
	mutex_unlock(&sec->lock);
	put_unaligned(status, (u32 *)out);
	pkg->nd_fw_size = n;
	return pkg->nd_size_out - n;
}

/* the test_dimmN device's (nfit_test_smart.c creates it) */
static struct nt_sec *nt_sec_of(struct device *dev)
{
	struct nt_dimm_knobs *k = dev_get_drvdata(dev);

	return k->sec;
}

static ssize_t lock_dimm_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	struct nt_sec *sec = nt_sec_of(dev);
	bool v;

	if (kstrtobool(buf, &v) || !v) {
		dev_dbg(dev, "lock_dimm: write 1\n");
		return -EINVAL;
	}
	mutex_lock(&sec->lock);
	/* a reset: freeze lock ends, a set passphrase locks the media */
	sec->state &= ~NFIT_INTEL_SEC_STATE_FROZEN;
	if (sec->state & NFIT_INTEL_SEC_STATE_ENABLED)
		sec->state |= NFIT_INTEL_SEC_STATE_LOCKED;
	dev_dbg(dev, "reset: security state %#x\n", sec->state);
	mutex_unlock(&sec->lock);
	return len;
}
static DEVICE_ATTR_WO(lock_dimm);

static ssize_t security_state_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct nt_sec *sec = nt_sec_of(dev);
	ssize_t rc;

	mutex_lock(&sec->lock);
	nt_sec_overwrite_done(sec);
	rc = sysfs_emit(buf, "%#x %#x %u %d\n", sec->state, sec->ext_state,
			sec->erases, sec->overwriting);
	mutex_unlock(&sec->lock);
	return rc;
}
static DEVICE_ATTR_RO(security_state);

static ssize_t overwrite_ms_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(nt_sec_of(dev)->overwrite_ms));
}

static ssize_t overwrite_ms_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	u32 ms;

	if (kstrtou32(buf, 0, &ms) || ms > 60000) {
		dev_dbg(dev, "overwrite_ms: 0..60000\n");
		return -EINVAL;
	}
	WRITE_ONCE(nt_sec_of(dev)->overwrite_ms, ms);
	return len;
}
static DEVICE_ATTR_RW(overwrite_ms);

static struct attribute *nt_sec_attrs[] = {
	&dev_attr_lock_dimm.attr,
	&dev_attr_security_state.attr,
	&dev_attr_overwrite_ms.attr,
	NULL,
};

/* only on the DIMMs with security firmware */
static umode_t nt_sec_visible(struct kobject *kobj, struct attribute *a,
			      int n)
{
	return nt_sec_of(kobj_to_dev(kobj)) ? a->mode : 0;
}

const struct attribute_group nt_sec_group = {
	.attrs = nt_sec_attrs,
	.is_visible = nt_sec_visible,
};

/**
 * nt_sec_dimm_init - a DIMM's security firmware
 * @sec: zeroed state of the DIMM
 * @handle: its NFIT handle
 * @media: its media
 * @media_len: bytes of @media
 */
void nt_sec_dimm_init(struct nt_sec *sec, u32 handle, void *media,
		      size_t media_len)
{
	mutex_init(&sec->lock);
	sec->handle = handle;
	sec->media = media;
	sec->media_len = media_len;
	sec->overwrite_ms = 300;
	/* as 6.1's mock: a master passphrase is set, all zeros */
	sec->ext_state = NFIT_INTEL_SEC_ESTATE_ENABLED;
}
