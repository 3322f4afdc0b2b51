/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfit_test's firmware update and activation (nfit_test_fw.c): the Intel
 * DIMM functions 12-16 (an image store per DIMM), 29-30 (arm, state and
 * result) and the Intel bus family's functions 1-2 (activation).
 */
#ifndef __NFIT_TEST_FW_H__
#define __NFIT_TEST_FW_H__

#include <linux/types.h>

struct nt_fw;
struct device;
struct dentry;

struct nt_fw *nt_fw_create(struct device *dev, unsigned int nr_dimms,
			   bool live, bool keep_updated);
int nt_fw_dimm_call(struct nt_fw *fw, unsigned int idx, struct device *dev,
		    void *buf, unsigned int buf_len);
int nt_fw_bus_call(struct nt_fw *fw, struct device *dev, void *buf,
		   unsigned int buf_len);
void nt_fw_debugfs(struct nt_fw *fw, unsigned int idx, struct dentry *dir);

#endif /* __NFIT_TEST_FW_H__ */
