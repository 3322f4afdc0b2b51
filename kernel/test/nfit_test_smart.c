// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test: the DIMM health firmware of the mock (6.1's ABI, Intel DSM
 * family; layouts in acpi/nfit/intel-smart.h).
 *
 * Every DIMM of a bus that offers them (nfit_test.c, module parameter
 * smart) keeps a SMART record and its alarm thresholds.  Through
 * ND_CMD_CALL it answers SMART (the record), SMART threshold (the
 * thresholds), set threshold, inject (media temperature, spares, fatal
 * health, unsafe shutdown, each also un-injected back to its default)
 * and enable latch system shutdown status.  After a set threshold or an
 * inject, a DIMM whose state trips an enabled alarm, or whose health is
 * not "non-critical", or that saw an unsafe shutdown, raises the health
 * notification (0x81) that firmware raises on a DIMM's ACPI device:
 * nfit.ko's acpi_nfit_dimm_notify() turns it into a sysfs notification
 * of nmemN/nfit/flags.
 *
 * The module parameter smart_dirty (NFIT handles) makes DIMMs come up
 * with a dirty shutdown state, as after an unsafe shutdown.
 *
 * The failure knobs of 6.1's mock: /sys/class/nfit_test_dimm/test_dimmN
 * (N: nfit_test.B's DIMM i is B * NT_MAX_DIMMS + i) has the DIMM's
 * handle, fail_cmd (bit F set: Intel function F, or native command F,
 * fails) and fail_cmd_code (what it returns: a negative errno, 0 for
 * -EIO).  A command failed by the knob changes nothing.
 */
#include <linux/device.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <uapi/linux/ndctl.h>
#include "nfit.h"
#include "nfit_test_smart.h"

/* 1/16 degree Celsius */
#define NT_CELSIUS(c)	((c) * 16)

static const struct nd_intel_smart nt_smart_default = {
	.flags = ND_INTEL_SMART_HEALTH_VALID | ND_INTEL_SMART_SPARES_VALID |
		ND_INTEL_SMART_ALARM_VALID | ND_INTEL_SMART_USED_VALID |
		ND_INTEL_SMART_SHUTDOWN_VALID |
		ND_INTEL_SMART_SHUTDOWN_COUNT_VALID |
		ND_INTEL_SMART_MTEMP_VALID | ND_INTEL_SMART_CTEMP_VALID,
	.health = ND_INTEL_SMART_NON_CRITICAL_HEALTH,
	.spares = 75,
	.life_used = 5,
	.alarm_flags = ND_INTEL_SMART_SPARE_TRIP | ND_INTEL_SMART_TEMP_TRIP,
	.media_temperature = NT_CELSIUS(23),
	.ctrl_temperature = NT_CELSIUS(25),
	.pmic_temperature = NT_CELSIUS(40),
	.shutdown_count = 42,
	.ait_status = 1,
};

static const struct nd_intel_smart_threshold nt_thresh_default = {
	.alarm_control = ND_INTEL_SMART_SPARE_TRIP | ND_INTEL_SMART_TEMP_TRIP,
	.spares = 5,
	.media_temperature = NT_CELSIUS(40),
	.ctrl_temperature = NT_CELSIUS(30),
};

/*
 * DIMMs that come up dirty: their SMART says from load on that the last
 * shutdown was unsafe, as if an unsafe shutdown had been injected before
 * the load (state dirty, count one more than the default).  What 6.1 makes
 * of a DIMM dirty at registration (flush_fail in nfit/flags) has no other
 * way to be tested: 6.1's own mock starts every DIMM clean.
 */
static unsigned int smart_dirty[NT_SMART_DIRTY_MAX];
static unsigned int nr_smart_dirty;
module_param_array(smart_dirty, uint, &nr_smart_dirty, 0444);
MODULE_PARM_DESC(smart_dirty, "NFIT handles of DIMMs whose SMART shutdown state is dirty from load on (count 43): their last shutdown was unsafe");

static bool nt_smart_dirty_at_load(u32 handle)
{
	unsigned int i;

	for (i = 0; i < nr_smart_dirty && i < ARRAY_SIZE(smart_dirty); i++)
		if (smart_dirty[i] == handle)
			return true;
	return false;
}

/**
 * nt_smart_init - a DIMM's health at bus probe: the defaults
 * @s: its state
 * @acpi_desc: its bus
 * @handle: its NFIT device handle
 */
void nt_smart_init(struct nt_smart *s, struct acpi_nfit_desc *acpi_desc,
		   u32 handle)
{
	BUILD_BUG_ON(sizeof(struct nd_intel_smart) != 4 + 128);
	BUILD_BUG_ON(sizeof(struct nd_intel_smart_threshold) != 4 + 8);
	BUILD_BUG_ON(sizeof(struct nd_intel_smart_set_threshold) != 7 + 4);
	BUILD_BUG_ON(sizeof(struct nd_intel_smart_inject) != 15 + 4);
	BUILD_BUG_ON(sizeof(struct nd_intel_lss) != 1 + 4);
	mutex_init(&s->lock);
	s->acpi_desc = acpi_desc;
	s->handle = handle;
	s->smart = nt_smart_default;
	s->thresh = nt_thresh_default;
	if (nt_smart_dirty_at_load(handle)) {
		s->smart.shutdown_state = 1;
		s->smart.shutdown_count++;
	}
}

/**
 * nt_smart_fail - does the fail_cmd knob fail this command?
 * @s: the DIMM
 * @dev: where to log
 * @func: the Intel function or native command number
 *
 * Returns 0, or the errno the command returns.
 */
int nt_smart_fail(struct nt_smart *s, struct device *dev, unsigned int func)
{
	int rc;

	if (func >= BITS_PER_LONG || !test_bit(func, &s->fail_cmd))
		return 0;
	rc = READ_ONCE(s->fail_cmd_code) ?: -EIO;
	dev_info_ratelimited(dev, "nfit_test: fail_cmd: function %u returns %d\n",
			     func, rc);
	return rc;
}

/* the state trips an enabled alarm or is unhealthy (s->lock held) */
static bool nt_smart_alarming(const struct nt_smart *s)
{
	const struct nd_intel_smart_threshold *t = &s->thresh;
	const struct nd_intel_smart *h = &s->smart;

	if ((t->alarm_control & ND_INTEL_SMART_SPARE_TRIP) &&
	    h->spares <= t->spares)
		return true;
	if ((t->alarm_control & ND_INTEL_SMART_TEMP_TRIP) &&
	    h->media_temperature >= t->media_temperature)
		return true;
	if ((t->alarm_control & ND_INTEL_SMART_CTEMP_TRIP) &&
	    h->ctrl_temperature >= t->ctrl_temperature)
		return true;
	return h->health != ND_INTEL_SMART_NON_CRITICAL_HEALTH ||
		h->shutdown_state;
}

static void nt_smart_inject(struct nt_smart *s,
			    const struct nd_intel_smart_inject *inj)
{
	struct nd_intel_smart *h = &s->smart;

	if (inj->flags & ND_INTEL_SMART_INJECT_MTEMP)
		h->media_temperature = inj->mtemp_enable ?
			inj->media_temperature :
			nt_smart_default.media_temperature;
	if (inj->flags & ND_INTEL_SMART_INJECT_SPARE)
		h->spares = inj->spare_enable ? inj->spares :
			nt_smart_default.spares;
	if (inj->flags & ND_INTEL_SMART_INJECT_FATAL)
		h->health = inj->fatal_enable ? ND_INTEL_SMART_FATAL_HEALTH :
			ND_INTEL_SMART_NON_CRITICAL_HEALTH;
	if (inj->flags & ND_INTEL_SMART_INJECT_SHUTDOWN) {
		h->shutdown_state = !!inj->unsafe_shutdown_enable;
		if (inj->unsafe_shutdown_enable)
			h->shutdown_count++;
	}
}

/* bytes of payload (input + output) each function needs */
static u32 nt_smart_len(unsigned int func)
{
	switch (func) {
	case ND_INTEL_SMART:
		return sizeof(struct nd_intel_smart);
	case ND_INTEL_SMART_THRESHOLD:
		return sizeof(struct nd_intel_smart_threshold);
	case ND_INTEL_SMART_SET_THRESHOLD:
		return sizeof(struct nd_intel_smart_set_threshold);
	case ND_INTEL_SMART_INJECT:
		return sizeof(struct nd_intel_smart_inject);
	case ND_INTEL_ENABLE_LSS_STATUS:
		return sizeof(struct nd_intel_lss);
	}
	return 0;
}

/**
 * nt_smart_call - answer an Intel health function
 * @s: the DIMM
 * @dev: where to log
 * @pkg: the package; its envelope was checked against the buffer
 *
 * Returns the output bytes left unfilled, -ENOTTY for a function that is
 * not a health function, -EINVAL for a payload of the wrong size (as 6.1's
 * mock: the inject payload must be exact, the others at least their size),
 * or what the fail_cmd knob says.
 */
int nt_smart_call(struct nt_smart *s, struct device *dev,
		  struct nd_cmd_pkg *pkg)
{
	unsigned int func = pkg->nd_command;
	u64 have = (u64)pkg->nd_size_in + pkg->nd_size_out;
	void *p = pkg->nd_payload;
	bool notify = false;
	u32 need, status = 0, out;
	int rc;

	if (pkg->nd_family != NVDIMM_FAMILY_INTEL || func >= BITS_PER_LONG ||
	    !(ND_INTEL_SMART_FUNCS & BIT(func)))
		return -ENOTTY;
	need = nt_smart_len(func);
	if (have < need || (func == ND_INTEL_SMART_INJECT && have != need)) {
		dev_dbg(dev, "nfit_test: Intel %u: %llu payload bytes, want %s%u\n",
			func, have, func == ND_INTEL_SMART_INJECT ? "" : ">= ",
			need);
		return -EINVAL;
	}
	rc = nt_smart_fail(s, dev, func);
	if (rc)
		return rc;

	mutex_lock(&s->lock);
	switch (func) {
	case ND_INTEL_SMART:
		memcpy(p, &s->smart, sizeof(s->smart));
		break;
	case ND_INTEL_SMART_THRESHOLD:
		memcpy(p, &s->thresh, sizeof(s->thresh));
		break;
	case ND_INTEL_SMART_SET_THRESHOLD: {
		const struct nd_intel_smart_set_threshold *in = p;

		s->thresh.alarm_control = in->alarm_control;
		s->thresh.spares = in->spares;
		s->thresh.media_temperature = in->media_temperature;
		s->thresh.ctrl_temperature = in->ctrl_temperature;
		notify = nt_smart_alarming(s);
		break;
	}
	case ND_INTEL_SMART_INJECT:
		nt_smart_inject(s, p);
		notify = nt_smart_alarming(s);
		break;
	case ND_INTEL_ENABLE_LSS_STATUS: {
		const struct nd_intel_lss *in = p;

		if (in->enable > 1) {
			dev_dbg(dev, "nfit_test: latch shutdown status: enable %u\n",
				in->enable);
			status = 3;	/* invalid input */
		} else {
			s->lss = in->enable;
		}
		break;
	}
	}
	if (notify)
		s->notified++;
	mutex_unlock(&s->lock);

	/* the status word: the first output word, or the payload's last */
	out = func <= ND_INTEL_SMART_THRESHOLD ? need : 4;
	if (func > ND_INTEL_SMART_THRESHOLD)
		memcpy(p + need - 4, &status, 4);
	else
		memcpy(p, &status, 4);
	pkg->nd_fw_size = out;
	dev_dbg(dev, "nfit_test: Intel %u: status %u%s\n", func, status,
		notify ? ", health notification" : "");
	if (notify)
		acpi_nfit_dimm_notify(s->acpi_desc, s->handle,
				      NFIT_NOTIFY_DIMM_HEALTH);
	return pkg->nd_size_out - min(out, pkg->nd_size_out);
}

/**
 * nt_smart_read - native ND_CMD_SMART: the SMART record after the status
 * @s: the DIMM
 * @buf: the output, status word first (the caller writes it)
 * @out_len: its length, at least sizeof(struct nd_intel_smart)
 *
 * Returns the output bytes left unfilled.
 */
u32 nt_smart_read(struct nt_smart *s, void *buf, u32 out_len)
{
	mutex_lock(&s->lock);
	memcpy(buf, &s->smart, sizeof(s->smart));
	mutex_unlock(&s->lock);
	return out_len - sizeof(s->smart);
}

/**
 * nt_smart_read_thresholds - native ND_CMD_SMART_THRESHOLD
 * @s: the DIMM
 * @buf: the output, status word first (the caller writes it)
 * @out_len: its length, at least sizeof(struct nd_intel_smart_threshold)
 *
 * Returns the output bytes left unfilled.
 */
u32 nt_smart_read_thresholds(struct nt_smart *s, void *buf, u32 out_len)
{
	mutex_lock(&s->lock);
	memcpy(buf, &s->thresh, sizeof(s->thresh));
	mutex_unlock(&s->lock);
	return out_len - sizeof(s->thresh);
}

/*
 * /sys/class/nfit_test_dimm/test_dimmN: one device per DIMM, whose
 * attribute groups come from each mocked family (this file's, and the
 * security firmware's lock_dimm); its drvdata is struct nt_dimm_knobs
 */

static struct class *nt_dimm_class;

static struct nt_smart *nt_knobs_smart(struct device *dev)
{
	struct nt_dimm_knobs *k = dev_get_drvdata(dev);

	return k->smart;
}

static ssize_t handle_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct nt_smart *s = nt_knobs_smart(dev);

	return sysfs_emit(buf, "%#x\n", s->handle);
}
static DEVICE_ATTR_RO(handle);

static ssize_t fail_cmd_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct nt_smart *s = nt_knobs_smart(dev);

	return sysfs_emit(buf, "%#lx\n", READ_ONCE(s->fail_cmd));
}

static ssize_t fail_cmd_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t len)
{
	struct nt_smart *s = nt_knobs_smart(dev);
	unsigned long val;
	int rc;

	rc = kstrtoul(buf, 0, &val);
	if (rc) {
		dev_dbg(dev, "fail_cmd: not a number: %d\n", rc);
		return rc;
	}
	WRITE_ONCE(s->fail_cmd, val);
	return len;
}
static DEVICE_ATTR_RW(fail_cmd);

static ssize_t fail_cmd_code_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct nt_smart *s = nt_knobs_smart(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(s->fail_cmd_code));
}

static ssize_t fail_cmd_code_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t len)
{
	struct nt_smart *s = nt_knobs_smart(dev);
	int val, rc;

	rc = kstrtoint(buf, 0, &val);
	if (!rc && (val > 0 || val < -MAX_ERRNO))
		rc = -EINVAL;
	if (rc) {
		dev_dbg(dev, "fail_cmd_code: want 0 or a negative errno: %d\n",
			rc);
		return rc;
	}
	WRITE_ONCE(s->fail_cmd_code, val);
	return len;
}
static DEVICE_ATTR_RW(fail_cmd_code);

static struct attribute *nt_smart_attrs[] = {
	&dev_attr_handle.attr,
	&dev_attr_fail_cmd.attr,
	&dev_attr_fail_cmd_code.attr,
	NULL,
};

const struct attribute_group nt_smart_group = {
	.attrs = nt_smart_attrs,
};

static void nt_smart_del_dev(void *data)
{
	device_unregister(data);
}

/**
 * nt_smart_add_dev - a DIMM's test_dimm@id device, gone with @parent
 * @k: its knobs (drvdata; @k->smart's handle is the device's)
 * @parent: its bus's platform device
 * @id: the N of test_dimmN
 * @groups: the attribute groups of every mocked family
 *
 * Returns 0 or a negative errno.
 */
int nt_smart_add_dev(struct nt_dimm_knobs *k, struct device *parent, int id,
		     const struct attribute_group **groups)
{
	struct device *dev;

	dev = device_create_with_groups(nt_dimm_class, parent, 0, k, groups,
					"test_dimm%d", id);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	k->smart->dev = dev;
	return devm_add_action_or_reset(parent, nt_smart_del_dev, dev);
}

/**
 * nt_smart_debugfs - the DIMM's health counters in its debugfs directory
 * @s: the DIMM
 * @dir: nfit_test/nfit_test.B/dimmI
 */
void nt_smart_debugfs(struct nt_smart *s, struct dentry *dir)
{
	debugfs_create_u64("health_notified", 0444, dir, &s->notified);
}

/**
 * nt_smart_class_init - register the nfit_test_dimm class (module init)
 *
 * Returns 0 or a negative errno.
 */
int nt_smart_class_init(void)
{
	nt_dimm_class = class_create(THIS_MODULE, "nfit_test_dimm");
	return PTR_ERR_OR_ZERO(nt_dimm_class);
}

/** nt_smart_class_exit - unregister the class (module exit) */
void nt_smart_class_exit(void)
{
	class_destroy(nt_dimm_class);
}
