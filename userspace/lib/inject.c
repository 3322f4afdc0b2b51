// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Media-error injection through the NFIT bus's error-injection functions:
 * ND_CMD_CALL packages of family NVDIMM_BUS_FAMILY_NFIT, functions
 * NFIT_CMD_ARS_INJECT_SET (7), _CLEAR (8) and _GET (9), offered when
 * ndbusN/nfit/dsm_mask has all three bits.
 *
 * A namespace's blocks are 512-byte sectors from the start of what the
 * namespace shows its user: the pfn or dax device's data for fsdax and
 * devdax, the namespace itself for raw mode.  A sector-mode namespace
 * is refused (EOPNOTSUPP, as ndctl 76.1: its man page says the offset
 * counts from the namespace, its library refuses).  Block B is the system-physical
 * address start + B * 512.  Without NDCTL_NS_INJECT_SATURATE only the
 * first clear_err_unit bytes of each block are injected (one command per
 * block); with it, each whole block.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* the NFIT bus family's functions (6.1 nfit.h; ACPI 6.2 §9.20.7) */
#define NFIT_CMD_ARS_INJECT_SET		7
#define NFIT_CMD_ARS_INJECT_CLEAR	8
#define NFIT_CMD_ARS_INJECT_GET		9
/* err_inj_options bit: the platform notifies the OS of the new error */
#define ND_ARS_ERR_INJ_OPT_NOTIFY	0
/* firmware status of an injection function */
#define ND_ARS_ERR_INJ_STATUS_NOT_SUPP	1
#define ND_ARS_ERR_INJ_STATUS_INVALID	2

#define NS_BLOCK 512ULL

/* function 7: input {base, length, options}, output {status} */
struct nd_ars_err_inj {
	__u64 base;
	__u64 length;
	__u8 options;
	__u32 status;
} __attribute__((packed));

/* function 8: input {base, length}, output {status} */
struct nd_ars_err_inj_clr {
	__u64 base;
	__u64 length;
	__u32 status;
} __attribute__((packed));

/* function 9: output {status, count, records} */
struct nd_ars_err_inj_stat {
	__u32 status;
	__u32 count;
	struct {
		__u64 base;
		__u64 length;
	} __attribute__((packed)) record[];
} __attribute__((packed));

struct ndctl_bb {
	unsigned long long block;
	unsigned long long count;
};

static struct ndctl_ctx *ns_ctx(struct ndctl_namespace *ndns)
{
	return ndns->region->bus->ctx;
}

static unsigned long long bus_dsm_mask(struct ndctl_bus *bus)
{
	unsigned long long mask;

	if (nd_read_ull(bus->ctx, bus->path, "nfit/dsm_mask", &mask))
		return 0;
	return mask;
}

/**
 * ndctl_bus_has_error_injection - does @bus offer the NFIT injection
 *	functions (set, clear and get)?
 * @bus: the bus
 */
NDCTL_EXPORT int ndctl_bus_has_error_injection(struct ndctl_bus *bus)
{
	const unsigned long long need = (1ULL << NFIT_CMD_ARS_INJECT_SET)
		| (1ULL << NFIT_CMD_ARS_INJECT_CLEAR)
		| (1ULL << NFIT_CMD_ARS_INJECT_GET);

	if (!bus || !bus->has_nfit)
		return 0;
	return (bus_dsm_mask(bus) & need) == need;
}

/* the system-physical range the namespace's blocks count from */
static int ns_bounds(struct ndctl_namespace *ndns, unsigned long long *start,
		unsigned long long *size)
{
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);

	/* 76.1: a BTT's sectors are not the namespace's: not supported */
	if (ndctl_namespace_get_btt(ndns)) {
		dbg(ns_ctx(ndns), "%s: sector mode: no injection", ndns->devname);
		return -EOPNOTSUPP;
	}
	if (pfn) {
		*start = ndctl_pfn_get_resource(pfn);
		*size = ndctl_pfn_get_size(pfn);
	} else if (dax) {
		*start = ndctl_dax_get_resource(dax);
		*size = ndctl_dax_get_size(dax);
	} else {
		*start = ndctl_namespace_get_resource(ndns);
		*size = ndctl_namespace_get_size(ndns);
	}
	if (*start == ULLONG_MAX || *size == ULLONG_MAX || !*size) {
		dbg(ns_ctx(ndns), "%s: no address range (is it enabled?)",
				ndns->devname);
		return -ENXIO;
	}
	return 0;
}

/*
 * [@block, +@count) blocks -> system-physical [*addr, +*len), inside the
 * namespace; every product and sum checked.
 */
static int blocks_to_spa(struct ndctl_namespace *ndns, unsigned long long block,
		unsigned long long count, unsigned long long *addr,
		unsigned long long *len)
{
	unsigned long long start, size, off, end;
	int rc;

	rc = ns_bounds(ndns, &start, &size);
	if (rc)
		return rc;
	if (!count || __builtin_mul_overflow(block, NS_BLOCK, &off)
			|| __builtin_mul_overflow(count, NS_BLOCK, len)
			|| __builtin_add_overflow(off, *len, &end) || end > size
			|| __builtin_add_overflow(start, off, addr)) {
		dbg(ns_ctx(ndns), "%s: block %#llx, count %#llx are out of bounds",
				ndns->devname, block, count);
		return -EINVAL;
	}
	return 0;
}

static int inj_status_errno(unsigned int st)
{
	switch (st & ARS_STATUS_MASK) {
	case 0:
		return 0;
	case ND_ARS_ERR_INJ_STATUS_NOT_SUPP:
		return -EOPNOTSUPP;
	case ND_ARS_ERR_INJ_STATUS_INVALID:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static struct ndctl_cmd *inj_cmd_new(struct ndctl_bus *bus, unsigned int func,
		unsigned int in, unsigned int out)
{
	struct ndctl_cmd *cmd;
	struct nd_cmd_pkg *pkg;

	cmd = nd_bus_cmd_alloc(bus, ND_CMD_CALL, sizeof(*pkg) + in + out);
	if (!cmd)
		return NULL;
	pkg = cmd->buf;
	pkg->nd_family = NVDIMM_BUS_FAMILY_NFIT;
	pkg->nd_command = func;
	pkg->nd_size_in = in;
	pkg->nd_size_out = out;
	return cmd;
}

/* submit an injection package; the firmware status as an errno */
static int inj_submit(struct ndctl_namespace *ndns, struct ndctl_cmd *cmd)
{
	int rc = ndctl_cmd_submit(cmd);

	if (rc < 0) {
		dbg(ns_ctx(ndns), "%s: injection command failed: %s",
				ndns->devname, strerror(-rc));
		return rc;
	}
	return inj_status_errno(cmd->fw_status);
}

/* clear_err_unit of the namespace's range (ARS Cap) */
static int ns_clear_unit(struct ndctl_namespace *ndns, unsigned int *unit)
{
	struct ndctl_bus *bus = ndns->region->bus;
	unsigned long long start, size;
	struct ndctl_cmd *cap;
	int rc;

	rc = ns_bounds(ndns, &start, &size);
	if (rc)
		return rc;
	/* 76.1: no ARS Cap to ask is ENOTTY, as the kernel would answer */
	cap = ndctl_bus_cmd_new_ars_cap(bus, start, size);
	if (!cap)
		return -ENOTTY;
	rc = ndctl_cmd_submit(cap);
	if (rc >= 0 && (cap->fw_status & ARS_STATUS_MASK))
		rc = -EIO;
	if (rc >= 0) {
		*unit = ndctl_cmd_ars_cap_get_clear_unit(cap);
		rc = *unit ? 0 : -EIO;
	}
	if (rc < 0)
		dbg(ns_ctx(ndns), "%s: ars_cap failed: %s", ndns->devname,
				strerror(-rc));
	ndctl_cmd_unref(cap);
	return rc;
}

/* one set (inject) or clear (!inject) of [addr, +len) */
static int inj_one(struct ndctl_namespace *ndns, bool inject,
		unsigned long long addr, unsigned long long len, bool notify)
{
	struct ndctl_bus *bus = ndns->region->bus;
	struct ndctl_cmd *cmd;
	int rc;

	if (inject) {
		struct nd_ars_err_inj *set;

		cmd = inj_cmd_new(bus, NFIT_CMD_ARS_INJECT_SET,
				offsetof(struct nd_ars_err_inj, status),
				sizeof(set->status));
		if (!cmd)
			return -ENOMEM;
		set = (void *)((struct nd_cmd_pkg *)cmd->buf)->nd_payload;
		set->base = addr;
		set->length = len;
		if (notify)
			set->options = 1 << ND_ARS_ERR_INJ_OPT_NOTIFY;
	} else {
		struct nd_ars_err_inj_clr *clr;

		cmd = inj_cmd_new(bus, NFIT_CMD_ARS_INJECT_CLEAR,
				offsetof(struct nd_ars_err_inj_clr, status),
				sizeof(clr->status));
		if (!cmd)
			return -ENOMEM;
		clr = (void *)((struct nd_cmd_pkg *)cmd->buf)->nd_payload;
		clr->base = addr;
		clr->length = len;
	}
	dbg(ns_ctx(ndns), "%s: %s [%#llx, +%#llx)", ndns->devname,
			inject ? "inject" : "uninject", addr, len);
	rc = inj_submit(ndns, cmd);
	ndctl_cmd_unref(cmd);
	return rc;
}

static int inject_blocks(struct ndctl_namespace *ndns, bool inject,
		unsigned long long block, unsigned long long count,
		unsigned int flags)
{
	struct ndctl_bus *bus;
	unsigned long long addr, len, i;
	bool notify = flags & (1 << NDCTL_NS_INJECT_NOTIFY);
	unsigned int unit = 0;
	int rc;

	if (!ndns)
		return -EINVAL;
	bus = ndns->region->bus;
	if (!ndctl_bus_has_error_injection(bus)) {
		dbg(bus->ctx, "%s: no error injection", bus->devname);
		return -EOPNOTSUPP;
	}
	rc = blocks_to_spa(ndns, block, count, &addr, &len);
	if (rc)
		return rc;
	if (flags & (1 << NDCTL_NS_INJECT_SATURATE))
		return inj_one(ndns, inject, addr, len, notify);
	rc = ns_clear_unit(ndns, &unit);
	if (rc)
		return rc;
	for (i = 0; i < count; i++) {
		rc = inj_one(ndns, inject, addr + i * NS_BLOCK,
				unit < NS_BLOCK ? unit : NS_BLOCK, notify);
		if (rc) {
			err(bus->ctx, "%s: %s failed at block %#llx: %s",
					ndns->devname, inject ? "injection"
					: "un-injection", block + i, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/**
 * ndctl_namespace_inject_error2 - inject media errors into @count blocks
 * @ndns: the namespace
 * @block: first 512-byte block, from the start of the namespace's data
 * @count: blocks, at least one, all inside the namespace
 * @flags: 1 << NDCTL_NS_INJECT_NOTIFY (the platform tells the kernel),
 *	1 << NDCTL_NS_INJECT_SATURATE (whole blocks)
 *
 * Returns 0, -EOPNOTSUPP when the bus cannot inject, -EINVAL for a range
 * outside the namespace (nothing sent), or the first failure.
 */
NDCTL_EXPORT int ndctl_namespace_inject_error2(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count,
		unsigned int flags)
{
	return inject_blocks(ndns, true, block, count, flags);
}

/**
 * ndctl_namespace_inject_error - ndctl_namespace_inject_error2() with the
 *	notify flag from @notify
 * @ndns: the namespace
 * @block: first block
 * @count: blocks
 * @notify: ask the platform to notify the kernel
 */
NDCTL_EXPORT int ndctl_namespace_inject_error(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count, bool notify)
{
	return inject_blocks(ndns, true, block, count,
			notify ? 1 << NDCTL_NS_INJECT_NOTIFY : 0);
}

/**
 * ndctl_namespace_uninject_error2 - withdraw injected errors from blocks
 * @ndns: the namespace
 * @block: first block
 * @count: blocks
 * @flags: 1 << NDCTL_NS_INJECT_SATURATE: whole blocks
 *
 * The kernel's badblocks keep the ranges until they are written.
 */
NDCTL_EXPORT int ndctl_namespace_uninject_error2(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count,
		unsigned int flags)
{
	return inject_blocks(ndns, false, block, count,
			flags & ~(1U << NDCTL_NS_INJECT_NOTIFY));
}

/**
 * ndctl_namespace_uninject_error - ndctl_namespace_uninject_error2()
 *	without flags
 * @ndns: the namespace
 * @block: first block
 * @count: blocks
 */
NDCTL_EXPORT int ndctl_namespace_uninject_error(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count)
{
	return inject_blocks(ndns, false, block, count, 0);
}

static void clear_injected(struct ndctl_namespace *ndns)
{
	free(ndns->injected);
	ndns->injected = NULL;
	ndns->n_injected = 0;
}

/**
 * ndctl_namespace_injection_status - read the injected errors back
 * @ndns: the namespace
 *
 * Fills the list ndctl_namespace_bb_foreach() walks with the records of
 * the injection-status function that lie in the namespace, as the
 * blocks they touch from its start (a record reaching outside is
 * clipped to it; records in adjacent or the same blocks are joined, as
 * 76.1 lists the per-block clear_err_unit injections of one request).
 * Returns 0 or a negative errno.
 */
NDCTL_EXPORT int ndctl_namespace_injection_status(struct ndctl_namespace *ndns)
{
	unsigned long long start, size, end;
	struct nd_ars_err_inj_stat *st;
	struct ndctl_cmd *cap, *cmd;
	struct ndctl_bus *bus;
	unsigned int out, i, n;
	int rc;

	if (!ndns)
		return -EINVAL;
	bus = ndns->region->bus;
	clear_injected(ndns);
	if (!ndctl_bus_has_error_injection(bus))
		return -EOPNOTSUPP;
	rc = ns_bounds(ndns, &start, &size);
	if (rc)
		return rc;
	if (__builtin_add_overflow(start, size, &end))
		return -EINVAL;
	cap = ndctl_bus_cmd_new_ars_cap(bus, start, size);
	if (!cap)
		return -ENOTTY;
	rc = ndctl_cmd_submit(cap);
	out = ndctl_cmd_ars_cap_get_size(cap);
	ndctl_cmd_unref(cap);
	if (rc < 0)
		return rc;
	if (out < sizeof(*st))
		return -EIO;
	cmd = inj_cmd_new(bus, NFIT_CMD_ARS_INJECT_GET, 0, out);
	if (!cmd)
		return -ENOMEM;
	rc = inj_submit(ndns, cmd);
	if (rc)
		goto out;
	st = (void *)((struct nd_cmd_pkg *)cmd->buf)->nd_payload;
	/* the records the output holds, whatever the count says */
	n = (out - sizeof(*st)) / sizeof(st->record[0]);
	if (st->count < n)
		n = st->count;
	ndns->injected = calloc(n ? n : 1, sizeof(*ndns->injected));
	if (!ndns->injected) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		unsigned long long b = st->record[i].base;
		unsigned long long l = st->record[i].length, e, blk, bend;
		struct ndctl_bb *prev;

		if (__builtin_add_overflow(b, l, &e) || !l || e <= start
				|| b >= end) {
			dbg(ns_ctx(ndns), "%s: injected [%#llx, +%#llx) not in it",
					ndns->devname, b, l);
			continue;
		}
		if (b < start)
			b = start;
		if (e > end)
			e = end;
		/* the blocks it touches, joined to the previous entry's (76.1) */
		blk = (b - start) / NS_BLOCK;
		bend = (e - start + NS_BLOCK - 1) / NS_BLOCK;
		prev = ndns->n_injected ? &ndns->injected[ndns->n_injected - 1]
			: NULL;
		if (prev && blk >= prev->block && blk <= prev->block + prev->count) {
			if (bend > prev->block + prev->count)
				prev->count = bend - prev->block;
			continue;
		}
		ndns->injected[ndns->n_injected].block = blk;
		ndns->injected[ndns->n_injected].count = bend - blk;
		ndns->n_injected++;
	}
out:
	ndctl_cmd_unref(cmd);
	return rc;
}

/**
 * ndctl_namespace_injection_get_first_bb - first record of the last
 *	ndctl_namespace_injection_status()
 * @ndns: the namespace
 */
NDCTL_EXPORT struct ndctl_bb *ndctl_namespace_injection_get_first_bb(
		struct ndctl_namespace *ndns)
{
	if (!ndns || !ndns->n_injected)
		return NULL;
	return &ndns->injected[0];
}

/**
 * ndctl_namespace_injection_get_next_bb - the record after @bb
 * @ndns: the namespace
 * @bb: a record of its list
 */
NDCTL_EXPORT struct ndctl_bb *ndctl_namespace_injection_get_next_bb(
		struct ndctl_namespace *ndns, struct ndctl_bb *bb)
{
	size_t i;

	if (!ndns || !bb || bb < ndns->injected)
		return NULL;
	i = bb - ndns->injected + 1;
	return i < ndns->n_injected ? &ndns->injected[i] : NULL;
}

/**
 * ndctl_bb_get_block - first block of an injected range
 * @bb: the record
 */
NDCTL_EXPORT unsigned long long ndctl_bb_get_block(struct ndctl_bb *bb)
{
	return bb ? bb->block : ULLONG_MAX;
}

/**
 * ndctl_bb_get_count - blocks of an injected range
 * @bb: the record
 */
NDCTL_EXPORT unsigned long long ndctl_bb_get_count(struct ndctl_bb *bb)
{
	return bb ? bb->count : ULLONG_MAX;
}
