// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test: the Address Range Scrub firmware of a mock bus
 * (docs/nfit_test.md, "ARS and error injection").
 *
 * Its media errors are the DIMMs' poison bitmaps, the same ones the
 * debugfs "poison" knob sets and that stop reads (nfit_test.c): a
 * poisoned DPA line is an error at the SPA its interleaved range maps it
 * to.  ARS Start snapshots the poisoned lines of the requested SPA range
 * as records (adjacent lines merged into one record, whatever DIMM they
 * are on; each record names the DIMM of its first line) and completes
 * ars_delay_ms later; ARS Status answers "in progress" until then.  When
 * more records exist than the ARS Status output holds (max_ars_out), the
 * scrub stops early with the restart range at the first record left out.
 * Clear Error clears the bits of whole clear_err_unit blocks; the
 * injection functions (bus ND_CMD_CALL, family NVDIMM_BUS_FAMILY_NFIT,
 * functions 7-9) set, clear and list them.  Bad input completes with
 * status 2 (invalid input parameters) and changes nothing.
 */
#include <linux/kernel.h>
#include <linux/device.h>
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/sizes.h>
#include <asm/unaligned.h>
#include "nfit.h"
#include "ars-format.h"
#include "nfit_test_ars.h"

/* bytes of an ARS Status output that one record takes, and the header */
#define NT_ARS_HDR	sizeof(struct nd_cmd_ars_status)
#define NT_ARS_REC	sizeof(struct nd_ars_record)

/**
 * nt_ars_init - defaults of a bus's ARS firmware
 * @a: the state, its ranges and poison pointers filled by the caller
 */
void nt_ars_init(struct nt_ars *a)
{
	mutex_init(&a->lock);
	a->delay_ms = 50;
	a->max_ars_out = 256;
	a->clear_unit = 256;
}

/* @len > 0: [@s, +@len) inside one range? */
static const struct nt_ars_range *nt_ars_range_of(struct nt_ars *a, u64 s,
						  u64 len)
{
	unsigned int i;

	for (i = 0; i < a->nr; i++) {
		const struct nt_ars_range *r = &a->r[i];

		if (s >= r->spa && s - r->spa < r->size &&
		    len <= r->size - (s - r->spa))
			return r;
	}
	return NULL;
}

/*
 * The DPA pieces of [@s, @e) (SPA) in range @r, one interleave line at
 * a time: @fn gets the member, the piece's SPA and DPA and its length;
 * false from it stops the walk (and is returned).
 */
typedef bool (*nt_piece_fn)(struct nt_ars *a, void *ctx,
			    const struct nt_ars_range *r, unsigned int m,
			    u64 spa, u64 dpa, u64 len);

static bool nt_ars_pieces(struct nt_ars *a, const struct nt_ars_range *r,
			  u64 s, u64 e, nt_piece_fn fn, void *ctx)
{
	u64 o, oe, run;

	s = max(s, r->spa);
	e = min(e, r->spa + r->size);
	for (o = s - r->spa, oe = e - r->spa; s < e && o < oe; o += run) {
		u64 line = o / a->ileave, in = o % a->ileave;
		u64 dpa = r->dpa + line / r->ways * a->ileave + in;

		run = min_t(u64, a->ileave - in, oe - o);
		if (!fn(a, ctx, r, line % r->ways, r->spa + o, dpa, run))
			return false;
	}
	return true;
}

/* a poisoned run found: SPA [@spa, +@len) on DIMM @handle */
typedef bool (*nt_bad_fn)(struct nt_ars *a, void *ctx, u64 spa, u64 len,
			  u32 handle);

struct nt_find {
	nt_bad_fn fn;
	void *ctx;
};

static bool nt_ars_find_piece(struct nt_ars *a, void *ctx,
			      const struct nt_ars_range *r, unsigned int m,
			      u64 spa, u64 dpa, u64 len)
{
	struct nt_find *f = ctx;
	unsigned long *p = r->poison[m];
	unsigned long b = dpa / a->line, last = (dpa + len - 1) / a->line;

	for (b = find_next_bit(p, last + 1, b); b <= last;
	     b = find_next_bit(p, last + 1, b + 1)) {
		u64 bs = max_t(u64, (u64)b * a->line, dpa);
		u64 be = min_t(u64, (u64)(b + 1) * a->line, dpa + len);

		if (!f->fn(a, f->ctx, spa + (bs - dpa), be - bs, r->handle[m]))
			return false;
	}
	return true;
}

/* Poisoned runs of [@s, @e), in SPA order; the poison lock held. */
static void nt_ars_find(struct nt_ars *a, u64 s, u64 e, nt_bad_fn fn,
			void *ctx)
{
	struct nt_find f = { .fn = fn, .ctx = ctx };
	unsigned int i;

	lockdep_assert_held(a->poison_lock);
	for (i = 0; i < a->nr; i++)
		if (!nt_ars_pieces(a, &a->r[i], s, e, nt_ars_find_piece, &f))
			return;
}

struct nt_mark {
	bool set;
	long changed;
};

/* poison (or clear) the lines covering a piece */
static bool nt_ars_mark_piece(struct nt_ars *a, void *ctx,
			      const struct nt_ars_range *r, unsigned int m,
			      u64 spa, u64 dpa, u64 len)
{
	struct nt_mark *k = ctx;
	unsigned long b, last = (dpa + len - 1) / a->line;

	for (b = dpa / a->line; b <= last; b++)
		if (k->set ? !__test_and_set_bit(b, r->poison[m]) :
			     __test_and_clear_bit(b, r->poison[m]))
			k->changed++;
	return true;
}

/* Poison or clear the lines covering [@s, +@len) of range @r. */
static long nt_ars_mark(struct nt_ars *a, const struct nt_ars_range *r,
			u64 s, u64 len, bool set)
{
	struct nt_mark k = { .set = set };

	spin_lock(a->poison_lock);
	nt_ars_pieces(a, r, s, s + len, nt_ars_mark_piece, &k);
	if (set)
		atomic_long_add(k.changed, a->poisoned);
	else
		atomic_long_sub(k.changed, a->poisoned);
	spin_unlock(a->poison_lock);
	return k.changed;
}

/* scrub: merge adjacent runs into records, stop when they no longer fit */
struct nt_collect {
	u32 cap;
	u64 end;
};

static bool nt_ars_collect(struct nt_ars *a, void *ctx, u64 spa, u64 len,
			   u32 handle)
{
	struct nt_collect *c = ctx;
	struct nd_ars_record *last = a->nrec ? &a->rec[a->nrec - 1] : NULL;

	if (last && last->err_address + last->length == spa) {
		last->length += len;
		return true;
	}
	if (a->nrec >= c->cap) {
		a->ext = NFIT_ARS_EXT_INTR;
		a->restart_addr = spa;
		a->restart_len = c->end - spa;
		return false;
	}
	last = &a->rec[a->nrec++];
	last->handle = handle;
	last->reserved = 0;
	last->err_address = spa;
	last->length = len;
	return true;
}

static u32 nt_ars_cap_records(struct nt_ars *a)
{
	u32 out = READ_ONCE(a->max_ars_out);

	if (out <= NT_ARS_HDR)
		return 0;
	return min_t(u32, (out - NT_ARS_HDR) / NT_ARS_REC, NT_ARS_MAX_RECORDS);
}

/* input [@addr, +@len) usable as a scrub or injection range? */
static bool nt_ars_bad_range(u64 addr, u64 len)
{
	u64 end;

	return !len || check_add_overflow(addr, len, &end);
}

static u32 nt_ars_cap(struct nt_ars *a, void *buf, unsigned int buf_len)
{
	struct nd_cmd_ars_cap *c = buf;

	a->caps++;
	if (nt_ars_bad_range(c->address, c->length)) {
		dev_dbg(a->dev, "ARS Cap [%#llx, +%#llx): invalid\n", c->address,
			c->length);
		a->refused++;
		return NFIT_DSM_ST_INVALID;
	}
	c->max_ars_out = READ_ONCE(a->max_ars_out);
	if (buf_len >= offsetofend(struct nd_cmd_ars_cap, clear_err_unit))
		c->clear_err_unit = READ_ONCE(a->clear_unit);
	return (ND_ARS_PERSISTENT | ND_ARS_VOLATILE) << 16;
}

static u32 nt_ars_start(struct nt_ars *a, void *buf, unsigned int buf_len)
{
	struct nd_cmd_ars_start *st = buf;
	struct nt_collect c;

	if (a->started && time_before(jiffies, a->deadline)) {
		dev_dbg(a->dev, "ARS Start while one runs: busy\n");
		a->busy++;
		return NFIT_ARS_START_BUSY;
	}
	if (nt_ars_bad_range(st->address, st->length) ||
	    !(st->type & ND_ARS_PERSISTENT)) {
		dev_dbg(a->dev, "ARS Start [%#llx, +%#llx) type %#x: invalid\n",
			st->address, st->length, st->type);
		a->refused++;
		return NFIT_DSM_ST_INVALID;
	}
	a->started = true;
	a->reported = false;
	a->addr = st->address;
	a->len = st->length;
	a->ext = NFIT_ARS_EXT_DONE;
	a->restart_addr = 0;
	a->restart_len = 0;
	a->nrec = 0;
	c.cap = nt_ars_cap_records(a);
	c.end = a->addr + a->len;
	spin_lock(a->poison_lock);
	nt_ars_find(a, a->addr, c.end, nt_ars_collect, &c);
	spin_unlock(a->poison_lock);
	a->deadline = jiffies + msecs_to_jiffies(READ_ONCE(a->delay_ms));
	a->starts++;
	if (buf_len >= offsetofend(struct nd_cmd_ars_start, scrub_time))
		st->scrub_time = 1;
	dev_dbg(a->dev, "ARS Start [%#llx, +%#llx): %u records%s\n", a->addr,
		a->len, a->nrec, a->ext ? ", stopped early" : "");
	return 0;
}

static void nt_ars_status(struct nt_ars *a, void *buf, unsigned int buf_len)
{
	struct nd_cmd_ars_status *s = buf;
	u32 n, fit = (buf_len - NT_ARS_HDR) / NT_ARS_REC;
	u32 corrupt = READ_ONCE(a->corrupt);

	a->statuses++;
	s->out_length = NT_ARS_HDR;
	if (!a->started) {
		s->status = NFIT_ARS_EXT_NONE << 16;
		return;
	}
	s->address = a->addr;
	s->length = a->len;
	s->type = ND_ARS_PERSISTENT;
	if (corrupt == NT_ARS_CORRUPT_BUSY ||
	    time_before(jiffies, a->deadline)) {
		s->status = NFIT_ARS_EXT_BUSY << 16;
		return;
	}
	n = min(a->nrec, fit);
	if (n < a->nrec)
		s->flags |= NFIT_ARS_F_OVERFLOW;
	memcpy(s->records, a->rec, n * NT_ARS_REC);
	s->status = (u32)a->ext << 16;
	s->restart_address = a->restart_addr;
	s->restart_length = a->restart_len;
	if (n < fit && (corrupt == NT_ARS_CORRUPT_OUTSIDE ||
			corrupt == NT_ARS_CORRUPT_WRAP)) {
		struct nd_ars_record *r = &s->records[n++];

		r->err_address = corrupt == NT_ARS_CORRUPT_WRAP ? U64_MAX - 63 :
			a->addr + a->len + SZ_4K;
		r->length = 128;
	}
	s->num_records = n;
	s->out_length = NT_ARS_HDR + n * NT_ARS_REC;
	switch (corrupt) {
	case NT_ARS_CORRUPT_NUM:
		s->num_records = U32_MAX;
		break;
	case NT_ARS_CORRUPT_OUT_LEN:
		s->out_length = buf_len + SZ_4K;
		break;
	case NT_ARS_CORRUPT_RESTART:
		s->status = NFIT_ARS_EXT_INTR << 16;
		s->restart_address = a->addr + a->len;
		s->restart_length = SZ_4K;
		break;
	}
	if (!a->reported) {
		a->reported = true;
		a->scrubs++;
	}
}

static u32 nt_ars_clear(struct nt_ars *a, void *buf)
{
	struct nd_cmd_clear_error *c = buf;
	u32 unit = max_t(u32, READ_ONCE(a->clear_unit), 1);
	const struct nt_ars_range *r = NULL;
	long n;

	c->cleared = 0;
	if (!nt_ars_bad_range(c->address, c->length) &&
	    !(c->address % unit) && !(c->length % unit))
		r = nt_ars_range_of(a, c->address, c->length);
	if (!r) {
		dev_dbg(a->dev, "Clear Error [%#llx, +%#llx): invalid (unit %u, or outside)\n",
			c->address, c->length, unit);
		a->refused++;
		return NFIT_DSM_ST_INVALID;
	}
	n = nt_ars_mark(a, r, c->address, c->length, false);
	c->cleared = c->length;
	a->clears++;
	dev_dbg(a->dev, "Clear Error [%#llx, +%#llx): %ld lines cleared\n",
		c->address, c->length, n);
	return 0;
}

/**
 * nt_ars_ctl - a bus command of the ARS set
 * @a: the bus's ARS firmware
 * @cmd: ND_CMD_ARS_CAP .. ND_CMD_CLEAR_ERROR
 * @buf: the envelope (6.1 sizes; ARS Cap and Start also the shorter 4.2
 *	ones, whose status sits at the same offset)
 * @buf_len: its length
 * @cmd_rc: set to the errno the firmware status means (nfit_bus_cmd_rc())
 *
 * Returns 0 (the output filled), -ENOTTY for another command, -EINVAL for
 * an envelope too short to hold the command.
 */
int nt_ars_ctl(struct nt_ars *a, unsigned int cmd, void *buf,
	       unsigned int buf_len, int *cmd_rc)
{
	unsigned int need;
	u32 status;

	switch (cmd) {
	case ND_CMD_ARS_CAP:
		need = offsetofend(struct nd_cmd_ars_cap, max_ars_out);
		break;
	case ND_CMD_ARS_START:
		need = offsetofend(struct nd_cmd_ars_start, status);
		break;
	case ND_CMD_ARS_STATUS:
		need = NT_ARS_HDR;
		break;
	case ND_CMD_CLEAR_ERROR:
		need = sizeof(struct nd_cmd_clear_error);
		break;
	default:
		return -ENOTTY;
	}
	if (buf_len < need) {
		dev_dbg(a->dev, "%s: envelope of %u bytes, need %u\n",
			nvdimm_bus_cmd_name(cmd), buf_len, need);
		return -EINVAL;
	}

	mutex_lock(&a->lock);
	switch (cmd) {
	case ND_CMD_ARS_CAP:
		status = nt_ars_cap(a, buf, buf_len);
		put_unaligned(status, &((struct nd_cmd_ars_cap *)buf)->status);
		break;
	case ND_CMD_ARS_START:
		status = nt_ars_start(a, buf, buf_len);
		put_unaligned(status, &((struct nd_cmd_ars_start *)buf)->status);
		break;
	case ND_CMD_ARS_STATUS:
		memset(buf, 0, buf_len);
		nt_ars_status(a, buf, buf_len);
		break;
	default:
		status = nt_ars_clear(a, buf);
		put_unaligned(status, &((struct nd_cmd_clear_error *)buf)->status);
		break;
	}
	mutex_unlock(&a->lock);
	*cmd_rc = nfit_bus_cmd_rc(cmd, buf, buf_len);
	return 0;
}

/* injection status: the poisoned runs of every range, merged */
struct nt_inj_stat {
	struct nfit_cmd_ars_err_inj_stat *out;
	u32 room;
	u32 total;
	u64 last_end;
};

static bool nt_ars_inj_collect(struct nt_ars *a, void *ctx, u64 spa, u64 len,
			       u32 handle)
{
	struct nt_inj_stat *c = ctx;
	struct nfit_err_inj_stat_record *r;

	if (c->total && c->last_end == spa) {
		if (c->total <= c->room) {
			r = &c->out->record[c->total - 1];
			r->err_inj_stat_spa_range_length += len;
		}
	} else {
		if (c->total < c->room) {
			r = &c->out->record[c->total];
			r->err_inj_stat_spa_range_base = spa;
			r->err_inj_stat_spa_range_length = len;
		}
		c->total++;
	}
	c->last_end = spa + len;
	return true;
}

/*
 * The injection functions: set (7) and clear (8) poison the lines
 * covering the range, which must lie inside one persistent-memory range
 * and not wrap; get (9) lists the poisoned runs.  The answer is status
 * first, at the start of the output.
 */
static u32 nt_ars_inject(struct nt_ars *a, u64 func, void *in, u32 in_len,
			 void *out, u32 out_len, u32 *fw_size, bool *notify)
{
	const struct nfit_cmd_ars_err_inj *set = in;
	const struct nfit_cmd_ars_err_inj_clr *clr = in;
	const struct nt_ars_range *r = NULL;
	u64 base, len;
	long n;

	*fw_size = sizeof(u32);
	if (func == NFIT_CMD_ARS_INJECT_GET) {
		struct nt_inj_stat c = {
			.out = out,
			.room = (out_len - 8) / sizeof(c.out->record[0]),
		};
		unsigned int i;

		spin_lock(a->poison_lock);
		for (i = 0; i < a->nr; i++)
			nt_ars_find(a, a->r[i].spa, a->r[i].spa + a->r[i].size,
				    nt_ars_inj_collect, &c);
		spin_unlock(a->poison_lock);
		c.out->inj_err_rec_count = min(c.total, c.room);
		*fw_size = 8 + c.total * sizeof(c.out->record[0]);
		return 0;
	}
	if (func == NFIT_CMD_ARS_INJECT_SET) {
		base = set->err_inj_spa_range_base;
		len = set->err_inj_spa_range_length;
	} else {
		base = clr->err_inj_clr_spa_range_base;
		len = clr->err_inj_clr_spa_range_length;
	}
	if (!nt_ars_bad_range(base, len))
		r = nt_ars_range_of(a, base, len);
	if (!r) {
		dev_dbg(a->dev, "injection %llu of [%#llx, +%#llx): not inside a PM range\n",
			func, base, len);
		a->refused++;
		return NFIT_DSM_ST_INVALID;
	}
	n = nt_ars_mark(a, r, base, len, func == NFIT_CMD_ARS_INJECT_SET);
	if (func == NFIT_CMD_ARS_INJECT_SET) {
		a->injects++;
		*notify = set->err_inj_options & BIT(NFIT_ARS_INJ_OPT_NOTIFY);
	}
	/* ndctl injects block by block: thousands of calls */
	dev_info_ratelimited(a->dev, "nfit_test: %s [%#llx, +%#llx): %ld lines changed\n",
			     func == NFIT_CMD_ARS_INJECT_SET ? "error injected at" :
			     "injection cleared in", base, len, n);
	return 0;
}

/**
 * nt_ars_call - a bus ND_CMD_CALL of the NFIT family's injection set
 * @a: the bus's ARS firmware
 * @buf: the envelope, a struct nd_cmd_pkg (checked by the caller to hold
 *	nd_size_in + nd_size_out payload bytes)
 * @buf_len: its length
 *
 * Returns -ENOTTY for a function not in the set (the caller may answer
 * it otherwise), -EINVAL when the payload cannot hold the function's
 * input or its status, else the output bytes left unfilled (nd_fw_size
 * says how many the answer has).
 */
int nt_ars_call(struct nt_ars *a, void *buf, unsigned int buf_len)
{
	struct nd_cmd_pkg *pkg = buf;
	u32 in_need, out_need, fw_size, status;
	bool notify = false;
	void *out;

	if (pkg->nd_family != NVDIMM_BUS_FAMILY_NFIT)
		return -ENOTTY;
	switch (pkg->nd_command) {
	case NFIT_CMD_ARS_INJECT_SET:
		in_need = offsetof(struct nfit_cmd_ars_err_inj, status);
		out_need = sizeof(u32);
		break;
	case NFIT_CMD_ARS_INJECT_CLEAR:
		in_need = offsetof(struct nfit_cmd_ars_err_inj_clr, status);
		out_need = sizeof(u32);
		break;
	case NFIT_CMD_ARS_INJECT_GET:
		in_need = 0;
		out_need = sizeof(struct nfit_cmd_ars_err_inj_stat);
		break;
	default:
		return -ENOTTY;
	}
	if (pkg->nd_size_in < in_need || pkg->nd_size_out < out_need) {
		dev_dbg(a->dev, "injection %llu: payload %u in / %u out, need %u / %u\n",
			pkg->nd_command, pkg->nd_size_in, pkg->nd_size_out,
			in_need, out_need);
		return -EINVAL;
	}
	out = pkg->nd_payload + pkg->nd_size_in;
	memset(out, 0, pkg->nd_size_out);
	mutex_lock(&a->lock);
	status = nt_ars_inject(a, pkg->nd_command, pkg->nd_payload,
			       pkg->nd_size_in, out, pkg->nd_size_out,
			       &fw_size, &notify);
	mutex_unlock(&a->lock);
	put_unaligned(status, (u32 *)out);
	pkg->nd_fw_size = fw_size;
	if (notify)
		acpi_nfit_notify_event(a->acpi_desc, NFIT_NOTIFY_UC_MEMORY_ERROR);
	return pkg->nd_size_out - min(fw_size, pkg->nd_size_out);
}

static int nt_ars_corrupt_set(void *data, u64 val)
{
	struct nt_ars *a = data;

	if (val >= NT_ARS_CORRUPT_NR)
		return -EINVAL;
	WRITE_ONCE(a->corrupt, val);
	return 0;
}

static int nt_ars_corrupt_get(void *data, u64 *val)
{
	*val = READ_ONCE(((struct nt_ars *)data)->corrupt);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(nt_ars_corrupt_fops, nt_ars_corrupt_get,
			 nt_ars_corrupt_set, "%llu\n");

/**
 * nt_ars_debugfs - the ARS knobs and counters in the bus's directory
 * @a: the bus's ARS firmware
 * @dir: nfit_test/nfit_test.N
 */
void nt_ars_debugfs(struct nt_ars *a, struct dentry *dir)
{
	static const struct {
		const char *name;
		size_t off;
	} counters[] = {
		{ "ars_caps", offsetof(struct nt_ars, caps) },
		{ "ars_starts", offsetof(struct nt_ars, starts) },
		{ "ars_busy", offsetof(struct nt_ars, busy) },
		{ "ars_statuses", offsetof(struct nt_ars, statuses) },
		{ "ars_scrubs", offsetof(struct nt_ars, scrubs) },
		{ "ars_clears", offsetof(struct nt_ars, clears) },
		{ "ars_injects", offsetof(struct nt_ars, injects) },
		{ "ars_refused", offsetof(struct nt_ars, refused) },
	};
	int i;

	debugfs_create_u32("ars_delay_ms", 0600, dir, &a->delay_ms);
	debugfs_create_u32("ars_max_out", 0600, dir, &a->max_ars_out);
	debugfs_create_u32("ars_clear_unit", 0600, dir, &a->clear_unit);
	debugfs_create_file_unsafe("ars_corrupt", 0600, dir, a,
				   &nt_ars_corrupt_fops);
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		debugfs_create_u64(counters[i].name, 0444, dir,
				   (u64 *)((u8 *)a + counters[i].off));
}
