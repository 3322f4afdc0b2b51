/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The security functions of the Intel DSM specification v1.8 (function
 * numbers, payloads, status codes and state bits), shared by nfit.ko
 * (intel-security.c) and nfit_test's mock firmware.
 */
#ifndef __NFIT_INTEL_SECURITY_H__
#define __NFIT_INTEL_SECURITY_H__

#include <linux/types.h>
#include <linux/bits.h>

#define NFIT_INTEL_GET_SECURITY_STATE		19
#define NFIT_INTEL_SET_PASSPHRASE		20
#define NFIT_INTEL_DISABLE_PASSPHRASE		21
#define NFIT_INTEL_UNLOCK_UNIT			22
#define NFIT_INTEL_FREEZE_LOCK			23
#define NFIT_INTEL_SECURE_ERASE			24
#define NFIT_INTEL_OVERWRITE			25
#define NFIT_INTEL_QUERY_OVERWRITE		26
#define NFIT_INTEL_SET_MASTER_PASSPHRASE	27
#define NFIT_INTEL_MASTER_SECURE_ERASE		28
#define NFIT_INTEL_SECURITY_FUNCS	GENMASK(NFIT_INTEL_MASTER_SECURE_ERASE, \
					NFIT_INTEL_GET_SECURITY_STATE)

#define NFIT_INTEL_PASSPHRASE_LEN	32

/* status codes */
#define NFIT_INTEL_STATUS_NOT_SUPPORTED		1
#define NFIT_INTEL_STATUS_RETRY			5
#define NFIT_INTEL_STATUS_NOT_READY		9
#define NFIT_INTEL_STATUS_INVALID_STATE		10
#define NFIT_INTEL_STATUS_INVALID_PASS		11
#define NFIT_INTEL_STATUS_OVERWRITE_UNSUPPORTED	0x10007
#define NFIT_INTEL_STATUS_OQUERY_INPROGRESS	0x10007
#define NFIT_INTEL_STATUS_OQUERY_SEQUENCE_ERR	0x20007

/* Get Security State: state */
#define NFIT_INTEL_SEC_STATE_ENABLED		0x02
#define NFIT_INTEL_SEC_STATE_LOCKED		0x04
#define NFIT_INTEL_SEC_STATE_FROZEN		0x08
#define NFIT_INTEL_SEC_STATE_PLIMIT		0x10
#define NFIT_INTEL_SEC_STATE_UNSUPPORTED	0x20
#define NFIT_INTEL_SEC_STATE_OVERWRITE		0x40
/* ... and extended_state: the master passphrase */
#define NFIT_INTEL_SEC_ESTATE_ENABLED		0x01
#define NFIT_INTEL_SEC_ESTATE_PLIMIT		0x02

/**
 * struct nfit_intel_sec_state - Get Security State's answer
 * @status: firmware status
 * @extended_state: NFIT_INTEL_SEC_ESTATE_* bits
 * @reserved: zero
 * @state: NFIT_INTEL_SEC_STATE_* bits
 * @reserved1: zero
 */
struct nfit_intel_sec_state {
	u32 status;
	u8 extended_state;
	u8 reserved[3];
	u8 state;
	u8 reserved1[3];
} __packed;

struct nfit_mem;
struct nvdimm_security_ops;
#if IS_ENABLED(CONFIG_NVDIMM_KEYS)
const struct nvdimm_security_ops *nfit_intel_security_ops_of(struct nfit_mem *nfit_mem);
#else
/* no keys in the kernel: no security (6.1 builds none either) */
static inline const struct nvdimm_security_ops *
nfit_intel_security_ops_of(struct nfit_mem *nfit_mem)
{
	return NULL;
}
#endif

#endif /* __NFIT_INTEL_SECURITY_H__ */
