/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Address Range Scrub: the root _DSM's ARS Status output, read as
 * hostile input.  Pure-format code like table.c: no state, no
 * allocation, so that the same source builds into nfit.ko and into the
 * host unit tests (tests/host/ars/).
 *
 * Layouts are the 6.1 uapi's (struct nd_cmd_ars_status and its
 * records), which are the ACPI 6.x root _DSM function 3 output.
 */
#ifndef __NFIT_ARS_FORMAT_H__
#define __NFIT_ARS_FORMAT_H__

#include <linux/types.h>
#include "table.h"

/* ARS Status output: fixed part, then 24-byte records */
#define NFIT_ARS_STATUS_HDR	48
#define NFIT_ARS_RECORD_SIZE	24
/* offsets in the output */
#define NFIT_ARS_OFF_STATUS	0
#define NFIT_ARS_OFF_OUT_LENGTH	4
#define NFIT_ARS_OFF_ADDRESS	8
#define NFIT_ARS_OFF_LENGTH	16
#define NFIT_ARS_OFF_RESTART	24
#define NFIT_ARS_OFF_RESTART_LEN 32
#define NFIT_ARS_OFF_TYPE	40
#define NFIT_ARS_OFF_FLAGS	42
#define NFIT_ARS_OFF_NUM	44

/* extended status (status >> 16) of ARS Status */
#define NFIT_ARS_EXT_DONE	0	/* complete, records valid */
#define NFIT_ARS_EXT_BUSY	1	/* in progress */
#define NFIT_ARS_EXT_NONE	2	/* no ARS performed since boot */
#define NFIT_ARS_EXT_INTR	3	/* stopped early: restart range valid */
/* ARS Status flags */
#define NFIT_ARS_F_OVERFLOW	0x1	/* records were lost */

/* ACPI root _DSM status codes (low 16 bits of every status word) */
#define NFIT_DSM_ST_SUCCESS	0
#define NFIT_DSM_ST_UNSUPPORTED	1
#define NFIT_DSM_ST_INVALID	2
#define NFIT_DSM_ST_HW_ERROR	3
#define NFIT_DSM_ST_RETRY	4
#define NFIT_DSM_ST_UNKNOWN	5
#define NFIT_DSM_ST_FUNC	6	/* function specific: ARS Start busy */
/* ARS Start's "ARS already in progress" (6.1's NFIT_ARS_START_BUSY) */
#define NFIT_ARS_START_BUSY	NFIT_DSM_ST_FUNC

/**
 * struct nfit_ars_result - what one ARS Status output says, checked
 * @status: low 16 bits of the status word
 * @ext: extended status (NFIT_ARS_EXT_*)
 * @flags: the flags field (NFIT_ARS_F_OVERFLOW)
 * @address: start of the range the firmware reports on
 * @length: its length
 * @restart_address: with @restart: where a new ARS Start must begin
 * @restart_length: with @restart: its length
 * @restart: @ext is NFIT_ARS_EXT_INTR (or the records overflowed) and
 *	the restart range is inside the scrubbed range and non-empty
 * @num_records: records the output claims
 * @accepted: records handed to the callback (possibly clipped)
 * @dropped: records refused (outside, empty, wrapping, or cut off)
 * @last_end: end of the highest accepted record, 0 when none
 */
struct nfit_ars_result {
	u16 status;
	u16 ext;
	u16 flags;
	u64 address;
	u64 length;
	u64 restart_address;
	u64 restart_length;
	bool restart;
	u32 num_records;
	u32 accepted;
	u32 dropped;
	u64 last_end;
};

/*
 * Record callback: a poisoned range [@addr, +@len), inside the scrubbed
 * range, @len > 0 and no wrap.  A negative return stops the walk and is
 * returned by nfit_ars_parse_status().
 */
typedef int (*nfit_ars_record_fn)(void *ctx, u32 handle, u64 addr, u64 len);

int nfit_ars_parse_status(const void *buf, u32 filled, u64 start, u64 len,
			  struct nfit_ars_result *res,
			  nfit_ars_record_fn record, void *record_ctx,
			  nfit_log_fn log, void *log_ctx);

#endif /* __NFIT_ARS_FORMAT_H__ */
