/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfit_test's DIMM health firmware (nfit_test_smart.c): the Intel
 * family's SMART functions per DIMM, answered through ND_CMD_CALL, the
 * health notification they raise, and 6.1's per-DIMM command-failure
 * knobs (/sys/class/nfit_test_dimm/test_dimmN/{handle,fail_cmd,fail_cmd_code}).
 */
#ifndef __NFIT_TEST_SMART_H__
#define __NFIT_TEST_SMART_H__

#include <linux/types.h>
#include <linux/mutex.h>
#include "intel-smart.h"

/* handles the smart_dirty parameter takes (nfit_test.0 has 4 DIMMs) */
#define NT_SMART_DIRTY_MAX	8

struct acpi_nfit_desc;
struct nd_cmd_pkg;
struct dentry;
struct device;

/**
 * struct nt_smart - one mock DIMM's health
 * @acpi_desc: its bus (where the notification goes)
 * @handle: its NFIT device handle
 * @lock: the state below
 * @smart: what the SMART function answers (status word unused)
 * @thresh: what the threshold function answers (status word unused)
 * @lss: latch system shutdown status enabled
 * @notified: health notifications raised
 * @fail_cmd: commands that fail: bit N for Intel function N through
 *	ND_CMD_CALL, and for the native command ND_CMD_* N
 * @fail_cmd_code: what a failing command returns (a negative errno;
 *	0: -EIO)
 * @dev: its test_dimmN class device
 */
struct nt_smart {
	struct acpi_nfit_desc *acpi_desc;
	u32 handle;
	struct mutex lock; /* the state below */
	struct nd_intel_smart smart;
	struct nd_intel_smart_threshold thresh;
	bool lss;
	u64 notified;
	unsigned long fail_cmd;
	int fail_cmd_code;
	struct device *dev;
};

void nt_smart_init(struct nt_smart *s, struct acpi_nfit_desc *acpi_desc,
		   u32 handle);
int nt_smart_fail(struct nt_smart *s, struct device *dev, unsigned int func);
int nt_smart_call(struct nt_smart *s, struct device *dev,
		  struct nd_cmd_pkg *pkg);
u32 nt_smart_read(struct nt_smart *s, void *buf, u32 out_len);
u32 nt_smart_read_thresholds(struct nt_smart *s, void *buf, u32 out_len);
struct nt_sec;

/**
 * struct nt_dimm_knobs - drvdata of a DIMM's test_dimmN device
 * @smart: its health and failure knobs (nfit_test_smart.c)
 * @sec: its security firmware (nfit_test_security.c), NULL when it has none
 */
struct nt_dimm_knobs {
	struct nt_smart *smart;
	struct nt_sec *sec;
};

extern const struct attribute_group nt_smart_group;
int nt_smart_add_dev(struct nt_dimm_knobs *k, struct device *parent, int id,
		     const struct attribute_group **groups);
void nt_smart_debugfs(struct nt_smart *s, struct dentry *dir);
int nt_smart_class_init(void);
void nt_smart_class_exit(void);

#endif /* __NFIT_TEST_SMART_H__ */
