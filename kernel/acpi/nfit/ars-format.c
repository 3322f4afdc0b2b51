// SPDX-License-Identifier: GPL-2.0-only
/*
 * ARS Status output, read as hostile input (ars-format.h).  Every length,
 * count and address in it comes from firmware: the output length is held
 * against the bytes the firmware actually returned, the record count
 * against the output length, each record's end against wrapping and
 * against the range that was scrubbed, and the restart range against
 * that range too.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/overflow.h>
#include "ars-format.h"

static u16 ars_get16(const u8 *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u32 ars_get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 ars_get64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* [@a, +@alen) inside [@s, @e)?  @alen > 0, @a + @alen does not wrap */
static bool ars_inside(u64 a, u64 alen, u64 s, u64 e)
{
	return a >= s && a < e && alen <= e - a;
}

static int ars_record(const u8 *r, u64 start, u64 end,
		      struct nfit_ars_result *res, nfit_ars_record_fn record,
		      void *record_ctx, nfit_log_fn log, void *log_ctx)
{
	u32 handle = ars_get32(r);
	u64 addr = ars_get64(r + 8), len = ars_get64(r + 16), rend, lo, hi;

	if (!len || check_add_overflow(addr, len, &rend)) {
		log(log_ctx, true, "ARS: record [%#llx, +%#llx) %s: dropped\n",
		    (unsigned long long)addr, (unsigned long long)len,
		    len ? "wraps" : "is empty");
		res->dropped++;
		return 0;
	}
	lo = addr > start ? addr : start;
	hi = rend < end ? rend : end;
	if (lo >= hi) {
		log(log_ctx, true,
		    "ARS: record [%#llx, +%#llx) outside the scrubbed range [%#llx, %#llx): dropped\n",
		    (unsigned long long)addr, (unsigned long long)len,
		    (unsigned long long)start, (unsigned long long)end);
		res->dropped++;
		return 0;
	}
	if (lo != addr || hi != rend)
		log(log_ctx, true,
		    "ARS: record [%#llx, +%#llx) crosses the scrubbed range [%#llx, %#llx): clipped\n",
		    (unsigned long long)addr, (unsigned long long)len,
		    (unsigned long long)start, (unsigned long long)end);
	res->accepted++;
	if (hi > res->last_end)
		res->last_end = hi;
	return record ? record(record_ctx, handle, lo, hi - lo) : 0;
}

/**
 * nfit_ars_parse_status - check an ARS Status output and walk its records
 * @buf: the output as the firmware returned it
 * @filled: bytes of @buf the firmware filled
 * @start: start of the range the driver asked to scrub
 * @len: its length
 * @res: filled with what the output says (see struct nfit_ars_result)
 * @record: called for each usable record, clipped to the range; may be NULL
 * @record_ctx: its context
 * @log: message sink (@error true: a firmware defect worth a warning)
 * @log_ctx: its context
 *
 * Records are read only when the status is success and the extended
 * status says the scrub completed or stopped early.  Returns 0 (also
 * when the firmware reports a failure or a scrub in progress: see @res),
 * -EINVAL when the output cannot be read (too short, an output length
 * beyond what was returned, a range that wraps), -EPROTO when the
 * firmware asks for a restart outside the range, or what @record
 * returned when negative.
 */
int nfit_ars_parse_status(const void *buf, u32 filled, u64 start, u64 len,
			  struct nfit_ars_result *res,
			  nfit_ars_record_fn record, void *record_ctx,
			  nfit_log_fn log, void *log_ctx)
{
	const u8 *p = buf;
	u64 end, fit, rs_end;
	u32 status, out_len, i, n;
	int rc;

	memset(res, 0, sizeof(*res));
	if (!len || check_add_overflow(start, len, &end)) {
		log(log_ctx, true, "ARS: range [%#llx, +%#llx) wraps or is empty\n",
		    (unsigned long long)start, (unsigned long long)len);
		return -EINVAL;
	}
	if (filled < NFIT_ARS_OFF_ADDRESS) {
		log(log_ctx, true, "ARS: status output of %u bytes, need %u\n",
		    filled, NFIT_ARS_OFF_ADDRESS);
		return -EINVAL;
	}
	status = ars_get32(p + NFIT_ARS_OFF_STATUS);
	out_len = ars_get32(p + NFIT_ARS_OFF_OUT_LENGTH);
	res->status = status & 0xffff;
	res->ext = status >> 16;
	if (res->status != NFIT_DSM_ST_SUCCESS ||
	    (res->ext != NFIT_ARS_EXT_DONE && res->ext != NFIT_ARS_EXT_INTR))
		return 0;

	if (out_len < NFIT_ARS_STATUS_HDR || out_len > filled) {
		log(log_ctx, true,
		    "ARS: output length %u outside [%u, %u] (the bytes returned)\n",
		    out_len, NFIT_ARS_STATUS_HDR, filled);
		return -EINVAL;
	}
	res->address = ars_get64(p + NFIT_ARS_OFF_ADDRESS);
	res->length = ars_get64(p + NFIT_ARS_OFF_LENGTH);
	res->restart_address = ars_get64(p + NFIT_ARS_OFF_RESTART);
	res->restart_length = ars_get64(p + NFIT_ARS_OFF_RESTART_LEN);
	res->flags = ars_get16(p + NFIT_ARS_OFF_FLAGS);
	res->num_records = ars_get32(p + NFIT_ARS_OFF_NUM);
	if (res->address != start || res->length != len)
		log(log_ctx, false,
		    "ARS: firmware reports on [%#llx, +%#llx), asked [%#llx, +%#llx)\n",
		    (unsigned long long)res->address,
		    (unsigned long long)res->length,
		    (unsigned long long)start, (unsigned long long)len);

	fit = (out_len - NFIT_ARS_STATUS_HDR) / NFIT_ARS_RECORD_SIZE;
	n = res->num_records;
	if (n > fit) {
		log(log_ctx, true,
		    "ARS: %u records claimed, %llu fit in %u bytes: the rest dropped\n",
		    n, (unsigned long long)fit, out_len);
		res->dropped += n - (u32)fit;
		n = fit;
	}
	for (i = 0; i < n; i++) {
		rc = ars_record(p + NFIT_ARS_STATUS_HDR +
				(size_t)i * NFIT_ARS_RECORD_SIZE, start, end,
				res, record, record_ctx, log, log_ctx);
		if (rc < 0)
			return rc;
	}

	if (res->ext == NFIT_ARS_EXT_INTR) {
		if (!res->restart_length ||
		    check_add_overflow(res->restart_address,
				       res->restart_length, &rs_end) ||
		    !ars_inside(res->restart_address, res->restart_length,
				start, end)) {
			log(log_ctx, true,
			    "ARS: restart range [%#llx, +%#llx) not inside [%#llx, %#llx)\n",
			    (unsigned long long)res->restart_address,
			    (unsigned long long)res->restart_length,
			    (unsigned long long)start,
			    (unsigned long long)end);
			return -EPROTO;
		}
		res->restart = true;
	} else if (res->flags & NFIT_ARS_F_OVERFLOW) {
		/* records lost: go on after the last one kept */
		if (!res->last_end || res->last_end >= end) {
			log(log_ctx, true, "ARS: records overflowed, none to continue after\n");
			return 0;
		}
		res->restart = true;
		res->restart_address = res->last_end;
		res->restart_length = end - res->last_end;
	}
	return 0;
}
