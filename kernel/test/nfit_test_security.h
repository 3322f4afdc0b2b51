/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfit_test's passphrase-security firmware (nfit_test_security.c): the
 * Intel DSM v1.8 security functions of every nfit_test.0 DIMM, a state
 * machine per DIMM, and the test_dimmN devices whose lock_dimm knob locks
 * a DIMM as a reboot would.
 */
#ifndef __NFIT_TEST_SECURITY_H__
#define __NFIT_TEST_SECURITY_H__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/mutex.h>

struct device;

#define NT_SEC_PASS_LEN	32
#define NT_SEC_FUNCS	10	/* functions 19..28 */

/**
 * struct nt_sec - one DIMM's security firmware
 * @lock: the fields below
 * @state: NFIT_INTEL_SEC_STATE_* bits (ENABLED, LOCKED, FROZEN)
 * @ext_state: NFIT_INTEL_SEC_ESTATE_* bits (master passphrase set)
 * @pass: user passphrase, while ENABLED
 * @master: master passphrase, while the master is enabled
 * @overwrite_start: jiffies when the running overwrite started
 * @overwriting: an overwrite runs
 * @overwrite_ms: how long an overwrite takes, read while it runs
 *	(default 300 ms)
 * @erases: crypto erases and overwrites done (each changes the media)
 * @calls: calls per function (19 + index)
 * @fails: calls answered with a non-zero status, per function
 * @media: the DIMM's media (its DPA space), @media_len bytes
 * @media_len: see @media
 * @handle: the DIMM's NFIT handle
 */
struct nt_sec {
	struct mutex lock; /* the fields below */
	u8 state;
	u8 ext_state;
	u8 pass[NT_SEC_PASS_LEN];
	u8 master[NT_SEC_PASS_LEN];
	unsigned long overwrite_start;
	bool overwriting;
	u32 overwrite_ms;
	u32 erases;
	u64 calls[NT_SEC_FUNCS];
	u64 fails[NT_SEC_FUNCS];
	void *media;
	size_t media_len;
	u32 handle;
};

/* built with the kernel's CONFIG_NVDIMM_KEYS, as the core's security.c */
#if IS_ENABLED(CONFIG_NVDIMM_KEYS)
#define NT_SEC_FIRMWARE	1
extern const struct attribute_group nt_sec_group;
void nt_sec_dimm_init(struct nt_sec *sec, u32 handle, void *media,
		      size_t media_len);
int nt_sec_call(struct nt_sec *sec, struct device *dev, void *buf,
		unsigned int buf_len);
#else
#define NT_SEC_FIRMWARE	0
static inline void nt_sec_dimm_init(struct nt_sec *sec, u32 handle,
				    void *media, size_t media_len)
{
}

static inline int nt_sec_call(struct nt_sec *sec, struct device *dev,
			      void *buf, unsigned int buf_len)
{
	return -ENOTTY;
}
#endif

#endif /* __NFIT_TEST_SECURITY_H__ */
