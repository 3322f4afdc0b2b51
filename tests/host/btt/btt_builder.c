// SPDX-License-Identifier: GPL-2.0-only
/*
 * BTT info block and flog builder, and the arena invariants, for the host
 * tests (see btt_builder.h).  Byte stores and Fletcher-64 come from
 * labels/lsa_builder.c, which computes them one byte at a time.
 */
#include <string.h>

#include "btt-format.h"
#include "btt_builder.h"
#include "lsa_builder.h"

struct bb_info bb_std(u64 start, u32 lbasize, u32 internal_lbasize,
		      u32 internal_nlba, u64 mapoff, u64 logoff, u64 info2off,
		      u64 nextoff)
{
	struct bb_info d = {
		.sig = "BTT_ARENA_INFO",
		.uuid = { 0xb0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
			  0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
		.major = start ? 1 : 2,
		.minor = start ? 1 : 0,
		.external_lbasize = lbasize,
		.external_nlba = internal_nlba - 256,
		.internal_lbasize = internal_lbasize,
		.internal_nlba = internal_nlba,
		.nfree = 256,
		.infosize = 4096,
		.nextoff = nextoff,
		.dataoff = 4096,
		.mapoff = mapoff,
		.logoff = logoff,
		.info2off = info2off,
	};

	return d;
}

u64 bb_checksum_field(const u8 *buf)
{
	return lb_get64(buf + 4088);
}

void bb_reseal(u8 *buf)
{
	lb_put64(buf + 4088, 0);
	lb_put64(buf + 4088, lb_fletcher64(buf, BB_INFO_SIZE));
}

void bb_put_info(u8 *buf, const struct bb_info *d)
{
	memset(buf, 0, BB_INFO_SIZE);
	memcpy(buf, d->sig, 16);
	memcpy(buf + 16, d->uuid, 16);
	memcpy(buf + 32, d->parent_uuid, 16);
	lb_put32(buf + 48, d->flags);
	lb_put16(buf + 52, d->major);
	lb_put16(buf + 54, d->minor);
	lb_put32(buf + 56, d->external_lbasize);
	lb_put32(buf + 60, d->external_nlba);
	lb_put32(buf + 64, d->internal_lbasize);
	lb_put32(buf + 68, d->internal_nlba);
	lb_put32(buf + 72, d->nfree);
	lb_put32(buf + 76, d->infosize);
	lb_put64(buf + 80, d->nextoff);
	lb_put64(buf + 88, d->dataoff);
	lb_put64(buf + 96, d->mapoff);
	lb_put64(buf + 104, d->logoff);
	lb_put64(buf + 112, d->info2off);
	bb_reseal(buf);
}

void bb_put_slot(u8 *lane, unsigned int slot, u32 lba, u32 old_map,
		 u32 new_map, u32 seq)
{
	u8 *s = lane + 16 * slot;

	lb_put32(s, lba);
	lb_put32(s + 4, old_map);
	lb_put32(s + 8, new_map);
	lb_put32(s + 12, seq);
}

/* Region [off, off + len) as 128-bit numbers: nothing here can wrap. */
struct bb_region {
	unsigned __int128 start, end;
};

const char *bb_arena_invariant(const struct btt_arena *a, u64 ns_size,
			       u64 start, u64 arena_off)
{
	typedef unsigned __int128 u128;
	u128 base = (u128)start + arena_off;
	struct bb_region r[5] = {
		{ 0, 4096 },
		{ a->dataoff, a->dataoff + (u128)a->internal_nlba *
			      a->internal_lbasize },
		{ a->mapoff, a->mapoff + (u128)a->external_nlba * 4 },
		{ a->logoff, a->logoff + (u128)a->nfree * 64 },
		{ a->info2off, a->info2off + (u128)4096 },
	};
	unsigned int i, j;

	if (a->off != arena_off)
		return "arena off is where it was read";
	if (a->size != a->info2off + (u128)4096)
		return "arena size is info2off + 4096";
	if (start != 0 && start != 4096)
		return "start is 0 or 4096";
	if (base % 4096 || a->size % 4096)
		return "arena start and size 4 KiB aligned";
	if (base + a->size > ns_size)
		return "arena inside the namespace";
	if (a->internal_nlba != (u64)a->external_nlba + a->nfree ||
	    !a->nfree || !a->external_nlba)
		return "internal_nlba = external_nlba + nfree, both >= 1";
	if (a->internal_nlba > (1u << 30))
		return "internal_nlba addressable by a map entry";
	if (!btt_lbasize_supported(a->external_lbasize) ||
	    a->internal_lbasize < a->external_lbasize ||
	    a->internal_lbasize % 64)
		return "lbasizes";
	for (i = 0; i < 5; i++) {
		if (r[i].start % 4096)
			return "regions 4 KiB aligned";
		if (r[i].end <= r[i].start || r[i].end > a->size)
			return "regions non-empty and inside the arena";
		for (j = 0; j < i; j++)
			if (r[i].start < r[j].end && r[j].start < r[i].end)
				return "regions disjoint";
	}
	if (a->nextoff && (a->nextoff != a->size ||
			   base + a->nextoff + 16 * MIB > ns_size))
		return "nextoff is 0 or the end, with 16 MiB behind it";
	return NULL;
}
