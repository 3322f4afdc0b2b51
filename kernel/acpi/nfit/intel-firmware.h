/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel DSM family's firmware update and activation functions
 * (NVDIMM_FAMILY_INTEL DIMM functions, NVDIMM_BUS_FAMILY_INTEL root
 * functions): function numbers, payloads and status codes as the Intel
 * NVDIMM DSM specification and 6.1 define them (docs/firmware.md).
 * Payloads are as ndctl sends them in struct nd_cmd_pkg: input fields,
 * then output fields.
 */
#ifndef __NFIT_INTEL_FIRMWARE_H__
#define __NFIT_INTEL_FIRMWARE_H__

#include <linux/types.h>

/* DIMM functions */
#define NFIT_INTEL_FW_GET_INFO		12
#define NFIT_INTEL_FW_START_UPDATE	13
#define NFIT_INTEL_FW_SEND_DATA		14
#define NFIT_INTEL_FW_FINISH_UPDATE	15
#define NFIT_INTEL_FW_FINISH_QUERY	16
#define NFIT_INTEL_FWA_DIMMINFO		29
#define NFIT_INTEL_FWA_ARM		30
/* root (bus) functions of the Intel bus family */
#define NFIT_INTEL_BUS_FWA_BUSINFO	1
#define NFIT_INTEL_BUS_FWA_ACTIVATE	2

#define NFIT_INTEL_FW_UPDATE_FUNCS	(BIT(NFIT_INTEL_FW_GET_INFO) |	\
	BIT(NFIT_INTEL_FW_START_UPDATE) | BIT(NFIT_INTEL_FW_SEND_DATA) |	\
	BIT(NFIT_INTEL_FW_FINISH_UPDATE) | BIT(NFIT_INTEL_FW_FINISH_QUERY))
#define NFIT_INTEL_FWA_FUNCS	(BIT(NFIT_INTEL_FWA_DIMMINFO) |		\
				 BIT(NFIT_INTEL_FWA_ARM))
#define NFIT_INTEL_BUS_FWA_FUNCS (BIT(NFIT_INTEL_BUS_FWA_BUSINFO) |	\
				  BIT(NFIT_INTEL_BUS_FWA_ACTIVATE))

/* status: low 16 bits generic, 7 = see the function's extended status */
#define NFIT_INTEL_ST_INVALID_PARAM	3
#define NFIT_INTEL_ST_EXT(n)		(7 | (n) << 16)
/* start: an update is in progress; send/finish/query: wrong context */
#define NFIT_INTEL_ST_FW_BUSY_CTX	NFIT_INTEL_ST_EXT(1)
/* finish: already done; query: still verifying */
#define NFIT_INTEL_ST_FW_DONE_BUSY	NFIT_INTEL_ST_EXT(2)
/* finish/query: the image failed verification */
#define NFIT_INTEL_ST_FW_BAD		NFIT_INTEL_ST_EXT(3)
/* finish: aborted; query: out of sequence */
#define NFIT_INTEL_ST_FW_ABORT_SEQ	NFIT_INTEL_ST_EXT(4)

struct nfit_intel_fw_info {
	u32 status;
	u32 storage_size;
	u32 max_send_len;
	u32 query_interval;	/* microseconds */
	u32 max_query_time;	/* microseconds */
	u8 update_cap;
	u8 reserved[3];
	u32 fis_version;
	u64 run_version;
	u64 updated_version;
} __packed;

struct nfit_intel_fw_start {
	u32 status;
	u32 context;
} __packed;

/* input: context, offset, length, length bytes of data; output: u32 status */
struct nfit_intel_fw_send {
	u32 context;
	u32 offset;
	u32 length;
	u8 data[];
} __packed;

#define NFIT_INTEL_FW_FINISH	0
#define NFIT_INTEL_FW_ABORT	1
struct nfit_intel_fw_finish {
	u8 ctrl_flags;
	u8 reserved[3];
	u32 context;
	u32 status;
} __packed;

struct nfit_intel_fw_query {
	u32 context;
	u32 status;
	u64 updated_fw_rev;
} __packed;

/* activation */
#define NFIT_INTEL_FWA_IDLE		0
#define NFIT_INTEL_FWA_ARMED		1
#define NFIT_INTEL_FWA_BUSY		2

#define NFIT_INTEL_DIMM_FWA_NONE	0
#define NFIT_INTEL_DIMM_FWA_NOTSTAGED	1
#define NFIT_INTEL_DIMM_FWA_SUCCESS	2
#define NFIT_INTEL_DIMM_FWA_NEEDRESET	3
/* 4..7: media failed, aborted, not supported, error */
#define NFIT_INTEL_DIMM_FWA_ERROR	7

struct nfit_intel_fwa_dimminfo {
	u32 status;
	u16 result;
	u8 state;
	u8 reserved[7];
} __packed;

struct nfit_intel_fwa_arm {
	u8 arm;			/* 1 arm, 0 disarm */
	u32 status;
} __packed;

#define NFIT_INTEL_BUS_FWA_CAP_FWQUIESCE BIT(0)
#define NFIT_INTEL_BUS_FWA_CAP_OSQUIESCE BIT(1)
#define NFIT_INTEL_BUS_FWA_CAP_RESET	 BIT(2)

struct nfit_intel_bus_fwa_info {
	u32 status;
	u16 reserved;
	u8 state;
	u8 capability;
	u64 activate_tmo;	/* microseconds, all of them */
	u64 cpu_quiesce_tmo;
	u64 io_quiesce_tmo;
	u64 max_quiesce_tmo;
} __packed;

#define NFIT_INTEL_BUS_FWA_FORCE_IDLE	0
#define NFIT_INTEL_BUS_FWA_OS_IDLE	1
/* activate's function-specific status: 6 | reason << 16 */
#define NFIT_INTEL_BUS_FWA_ST(n)	(6 | (n) << 16)
#define NFIT_INTEL_BUS_FWA_ST_NOARM	NFIT_INTEL_BUS_FWA_ST(1)
#define NFIT_INTEL_BUS_FWA_ST_BUSY	NFIT_INTEL_BUS_FWA_ST(2)
#define NFIT_INTEL_BUS_FWA_ST_TMO	NFIT_INTEL_BUS_FWA_ST(4)

struct nfit_intel_bus_fwa_activate {
	u8 iodev_state;
	u32 status;
} __packed;

#endif /* __NFIT_INTEL_FIRMWARE_H__ */
