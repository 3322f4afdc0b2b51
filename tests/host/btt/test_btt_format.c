// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of kernel/nvdimm/btt-format.c (media-formats.md section
 * 6 is the reference for every expected value; the layout numbers were
 * computed from its 6.5 rules by hand and by an independent script, and
 * the 6.5 worked example rows are reproduced literally).  Info blocks
 * are exact-size heap buffers built byte by byte (btt_builder.c), so ASan
 * catches any access past them; every validation checks that the block
 * was not modified and that an accepted arena keeps the invariants.
 * Output is TAP, closed by an "N passed, N failed" line.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <asm/byteorder.h>

#include "btt-format.h"
#include "label-format.h"
#include "btt_builder.h"
#include "lsa_builder.h"

static int checks_failed;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			checks_failed++;				\
			printf("#   %s:%d: CHECK(%s) failed\n",		\
			       __FILE__, __LINE__, #cond);		\
		}							\
	} while (0)

#define CHECK_INT(got, want)						\
	do {								\
		unsigned long long g_ = (unsigned long long)(got);	\
		unsigned long long w_ = (unsigned long long)(want);	\
		if (g_ != w_) {						\
			checks_failed++;				\
			printf("#   %s:%d: %s == %lld (%#llx), expected %lld (%#llx)\n", \
			       __FILE__, __LINE__, #got, (long long)g_, g_, \
			       (long long)w_, w_);			\
		}							\
	} while (0)

#define CHECK_VERDICT(got, want)					\
	do {								\
		enum btt_info_verdict g_ = (got), w_ = (want);		\
		if (g_ != w_) {						\
			checks_failed++;				\
			printf("#   %s:%d: %s == \"%s\", expected \"%s\"\n", \
			       __FILE__, __LINE__, #got,		\
			       btt_info_verdict_name(g_),		\
			       btt_info_verdict_name(w_));		\
		}							\
	} while (0)

#define U64_MAX_ (~0ULL)
#define U32_MAX_ 0xffffffffu

static const u8 ns_uuid[16] = {
	0x9a, 0x2c, 0x47, 0x1e, 0x00, 0x11, 0x4a, 0x5b,
	0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
};

static const u8 btt_uuid[16] = {
	0xb0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

static u8 *info_new(void)
{
	u8 *b = calloc(1, BB_INFO_SIZE);

	if (!b)
		abort();
	return b;
}

/*
 * btt_info_check() on @buf for a namespace of @ns_size bytes with the BTT
 * at @start, read at @arena_off; checks that @buf is unchanged, that a
 * rejected block leaves @out alone and an accepted one obeys the
 * invariants.
 */
static enum btt_info_verdict check_at(const u8 *buf, u64 ns_size, u64 start,
				      const u8 *uuid, u64 arena_off,
				      struct btt_arena *out)
{
	struct btt_ns ns = { .size = ns_size, .start = start, .uuid = uuid };
	struct btt_arena a, poison;
	enum btt_info_verdict v;
	const char *why;
	u8 *copy = info_new();

	memcpy(copy, buf, BB_INFO_SIZE);
	memset(&a, 0x5c, sizeof(a));
	poison = a;
	v = btt_info_check((const struct btt_info *)copy, &ns, arena_off, &a);
	CHECK(!memcmp(copy, buf, BB_INFO_SIZE));
	if (v == BTT_INFO_VALID) {
		why = bb_arena_invariant(&a, ns_size, start, arena_off);
		if (why)
			printf("#   invariant broken: %s\n", why);
		CHECK(!why);
	} else {
		CHECK(!memcmp(&a, &poison, sizeof(a)));
	}
	if (out)
		*out = a;
	free(copy);
	return v;
}

static enum btt_info_verdict check(const u8 *buf, u64 ns_size, u64 start)
{
	return check_at(buf, ns_size, start, ns_uuid, 0, NULL);
}

/* one arena, every geometry field */
static void check_arena(const struct btt_arena *a, u64 off, u64 size,
			u32 lbasize, u32 internal_lbasize, u32 internal_nlba,
			u64 mapoff, u64 logoff, u64 info2off, u64 nextoff)
{
	CHECK_INT(a->off, off);
	CHECK_INT(a->size, size);
	CHECK_INT(a->external_lbasize, lbasize);
	CHECK_INT(a->internal_lbasize, internal_lbasize);
	CHECK_INT(a->internal_nlba, internal_nlba);
	CHECK_INT(a->external_nlba, internal_nlba - 256);
	CHECK_INT(a->nfree, 256);
	CHECK_INT(a->flags, 0);
	CHECK_INT(a->dataoff, 4096);
	CHECK_INT(a->mapoff, mapoff);
	CHECK_INT(a->logoff, logoff);
	CHECK_INT(a->info2off, info2off);
	CHECK_INT(a->nextoff, nextoff);
}

static void t_struct_layout(void)
{
	CHECK_INT(sizeof(struct btt_info), 4096);
	CHECK_INT(offsetof(struct btt_info, signature), 0);
	CHECK_INT(offsetof(struct btt_info, uuid), 16);
	CHECK_INT(offsetof(struct btt_info, parent_uuid), 32);
	CHECK_INT(offsetof(struct btt_info, flags), 48);
	CHECK_INT(offsetof(struct btt_info, version_major), 52);
	CHECK_INT(offsetof(struct btt_info, version_minor), 54);
	CHECK_INT(offsetof(struct btt_info, external_lbasize), 56);
	CHECK_INT(offsetof(struct btt_info, external_nlba), 60);
	CHECK_INT(offsetof(struct btt_info, internal_lbasize), 64);
	CHECK_INT(offsetof(struct btt_info, internal_nlba), 68);
	CHECK_INT(offsetof(struct btt_info, nfree), 72);
	CHECK_INT(offsetof(struct btt_info, infosize), 76);
	CHECK_INT(offsetof(struct btt_info, nextoff), 80);
	CHECK_INT(offsetof(struct btt_info, dataoff), 88);
	CHECK_INT(offsetof(struct btt_info, mapoff), 96);
	CHECK_INT(offsetof(struct btt_info, logoff), 104);
	CHECK_INT(offsetof(struct btt_info, info2off), 112);
	CHECK_INT(offsetof(struct btt_info, padding), 120);
	CHECK_INT(sizeof(((struct btt_info *)0)->padding), 3968);
	CHECK_INT(offsetof(struct btt_info, checksum), 4088);
	CHECK_INT(sizeof(struct btt_flog_slot), 16);
	CHECK_INT(offsetof(struct btt_flog_slot, old_map), 4);
	CHECK_INT(offsetof(struct btt_flog_slot, new_map), 8);
	CHECK_INT(offsetof(struct btt_flog_slot, seq), 12);
	CHECK_INT(sizeof(struct btt_flog_lane), 64);

	{
		static const u8 sig[BTT_SIG_LEN] = BTT_SIG;

		CHECK(!memcmp(sig, "BTT_ARENA_INFO\0\0", 16));
	}
	CHECK_INT(sizeof(BTT_SIG), 15);
	CHECK_INT(BTT_START_V11, 4096);
	CHECK_INT(BTT_START_V20, 0);
	CHECK_INT(BTT_V11_MAJOR, 1);
	CHECK_INT(BTT_V11_MINOR, 1);
	CHECK_INT(BTT_V20_MAJOR, 2);
	CHECK_INT(BTT_V20_MINOR, 0);
	CHECK_INT(IB_FLAG_ERROR, 1);
	CHECK_INT(BTT_MAP_ZERO, 0x80000000u);
	CHECK_INT(BTT_MAP_ERROR, 0x40000000u);
	CHECK_INT(BTT_MAP_NORMAL, 0xc0000000u);
	CHECK_INT(BTT_MAP_ABA_MASK, 0x3fffffffu);
	CHECK_INT(BTT_NFREE, 256);
	CHECK_INT(BTT_ARENA_MAX, 512 * GIB);
	CHECK_INT(BTT_ARENA_MIN, 16 * MIB);
}

static const struct {
	u32 lbasize, internal, sector;
} lbasizes[] = {
	{ 512, 512, 512 }, { 520, 576, 512 }, { 528, 576, 512 },
	{ 4096, 4096, 4096 }, { 4104, 4160, 4096 }, { 4160, 4160, 4096 },
	{ 4224, 4224, 4096 },
};

#define N_LBASIZES (sizeof(lbasizes) / sizeof(lbasizes[0]))

static void t_lbasizes(void)
{
	static const u32 bad[] = {
		0, 1, 64, 256, 511, 513, 519, 521, 576, 1024, 2048, 4095,
		4097, 4103, 4105, 4159, 4161, 4223, 4225, 8192, 65536,
		U32_MAX_,
	};
	struct btt_arena a;
	u64 nlba = 7, bytes = 7;
	unsigned int i;

	for (i = 0; i < N_LBASIZES; i++) {
		CHECK(btt_lbasize_supported(lbasizes[i].lbasize));
		CHECK_INT(btt_internal_lbasize(lbasizes[i].lbasize),
			  lbasizes[i].internal);
		CHECK_INT(btt_sector_size(lbasizes[i].lbasize),
			  lbasizes[i].sector);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(!btt_lbasize_supported(bad[i]));
		CHECK_INT(btt_internal_lbasize(bad[i]), 0);
		memset(&a, 0x77, sizeof(a));
		CHECK_INT(btt_arena_geometry(32 * MIB, bad[i], 0, &a), -EINVAL);
		CHECK_INT(a.off, 0x7777777777777777ull);
		CHECK_INT(btt_capacity(32 * MIB, bad[i], &nlba, &bytes),
			  -EINVAL);
		CHECK_INT(nlba, 7);
		CHECK_INT(bytes, 7);
	}
	CHECK_INT(btt_sector_size(4095), 512);
	CHECK_INT(btt_sector_size(4096), 4096);
}

static void t_version_and_rawsize(void)
{
	u16 major = 77, minor = 77;
	u64 raw = 5;

	CHECK_INT(btt_version(4096, &major, &minor), 0);
	CHECK_INT(major, 1);
	CHECK_INT(minor, 1);
	CHECK_INT(btt_version(0, &major, &minor), 0);
	CHECK_INT(major, 2);
	CHECK_INT(minor, 0);
	major = 77;
	minor = 77;
	CHECK_INT(btt_version(512, &major, &minor), -EINVAL);
	CHECK_INT(btt_version(8192, &major, &minor), -EINVAL);
	CHECK_INT(btt_version(4095, &major, &minor), -EINVAL);
	CHECK_INT(btt_version(U64_MAX_, &major, &minor), -EINVAL);
	CHECK_INT(major, 77);
	CHECK_INT(minor, 77);

	CHECK_INT(btt_rawsize(32 * MIB, 4096, &raw), 0);
	CHECK_INT(raw, 32 * MIB - 4096);
	CHECK_INT(btt_rawsize(32 * MIB, 0, &raw), 0);
	CHECK_INT(raw, 32 * MIB);
	CHECK_INT(btt_rawsize(4096, 4096, &raw), 0);
	CHECK_INT(raw, 0);
	CHECK_INT(btt_rawsize(U64_MAX_, 4096, &raw), 0);
	CHECK_INT(raw, U64_MAX_ - 4096);
	raw = 5;
	CHECK_INT(btt_rawsize(4095, 4096, &raw), -EINVAL);
	CHECK_INT(btt_rawsize(0, 4096, &raw), -EINVAL);
	CHECK_INT(btt_rawsize(32 * MIB, 512, &raw), -EINVAL);
	CHECK_INT(raw, 5);
}

/* media-formats 6.5 worked examples, row by row */
static void t_worked_examples(void)
{
	static const struct {
		u64 ns_size, start;
		u32 lbasize, internal_nlba, external_nlba;
		u64 mapoff, logoff, info2off, disk_bytes;
	} rows[] = {
		{ 32 * MIB, 4096, 512, 64964, 64708,
		  0x1fba000, 0x1ffa000, 0x1ffe000, 33130496 },
		{ 32 * MIB, 4096, 4096, 8176, 7920,
		  0x1ff2000, 0x1ffa000, 0x1ffe000, 32440320 },
		{ 32 * MIB, 0, 4096, 8177, 7921,
		  0x1ff3000, 0x1ffb000, 0x1fff000, 32444416 },
		{ 1 * GIB, 0, 512, 2080839, 2080583,
		  0x3f80b000, 0x3fffb000, 0x3ffff000, 1065258496 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct btt_arena a;
		u64 raw, nlba, bytes;

		CHECK_INT(btt_rawsize(rows[i].ns_size, rows[i].start, &raw), 0);
		CHECK_INT(btt_arena_count(raw), 1);
		CHECK_INT(btt_arena_geometry(raw, rows[i].lbasize, 0, &a), 0);
		CHECK_INT(a.internal_nlba, rows[i].internal_nlba);
		CHECK_INT(a.external_nlba, rows[i].external_nlba);
		CHECK_INT(a.mapoff, rows[i].mapoff);
		CHECK_INT(a.logoff, rows[i].logoff);
		CHECK_INT(a.info2off, rows[i].info2off);
		CHECK_INT(a.dataoff, 4096);
		CHECK_INT(a.nextoff, 0);
		CHECK_INT(a.off, 0);
		CHECK_INT(a.size, raw);
		CHECK_INT(a.size, a.info2off + 4096);
		CHECK_INT(a.nfree, 256);
		CHECK_INT(btt_capacity(raw, rows[i].lbasize, &nlba, &bytes), 0);
		CHECK_INT(nlba, rows[i].external_nlba);
		CHECK_INT(bytes, rows[i].disk_bytes);
	}
}

/* a 32 MiB v2.0 namespace (rawsize 32 MiB) in every sector size */
static void t_every_lbasize(void)
{
	static const struct {
		u32 internal_nlba;
		u64 mapoff, logoff, disk_bytes;
	} want[N_LBASIZES] = {
		{ 64972, 0x1fbb000, 0x1ffb000, 33134592 },
		{ 57803, 0x1fc2000, 0x1ffb000, 29464064 },
		{ 57803, 0x1fc2000, 0x1ffb000, 29464064 },
		{ 8177, 0x1ff3000, 0x1ffb000, 32444416 },
		{ 8051, 0x1ff3000, 0x1ffb000, 31928320 },
		{ 8051, 0x1ff3000, 0x1ffb000, 31928320 },
		{ 7929, 0x1ff3000, 0x1ffb000, 31428608 },
	};
	unsigned int i;

	for (i = 0; i < N_LBASIZES; i++) {
		struct btt_arena a;
		u64 nlba, bytes;

		CHECK_INT(btt_arena_geometry(32 * MIB, lbasizes[i].lbasize, 0,
					     &a), 0);
		check_arena(&a, 0, 32 * MIB, lbasizes[i].lbasize,
			    lbasizes[i].internal, want[i].internal_nlba,
			    want[i].mapoff, want[i].logoff, 0x1fff000, 0);
		CHECK_INT(btt_capacity(32 * MIB, lbasizes[i].lbasize, &nlba,
				       &bytes), 0);
		CHECK_INT(nlba, want[i].internal_nlba - 256);
		CHECK_INT(bytes, want[i].disk_bytes);
	}
}

static void t_rawsize_boundaries(void)
{
	struct btt_arena a, b;
	u64 nlba = 3, bytes = 3, raw;

	CHECK_INT(btt_arena_count(0), -ENOSPC);
	CHECK_INT(btt_arena_count(16 * MIB - 1), -ENOSPC);
	CHECK_INT(btt_arena_geometry(16 * MIB - 1, 512, 0, &a), -ENOSPC);
	CHECK_INT(btt_capacity(16 * MIB - 1, 512, &nlba, &bytes), -ENOSPC);
	CHECK_INT(btt_capacity(0, 4096, &nlba, &bytes), -ENOSPC);
	CHECK_INT(nlba, 3);
	CHECK_INT(bytes, 3);

	CHECK_INT(btt_arena_count(16 * MIB), 1);
	CHECK_INT(btt_arena_geometry(16 * MIB, 512, 0, &a), 0);
	check_arena(&a, 0, 16 * MIB, 512, 512, 32458, 0xfdb000, 0xffb000,
		    0xfff000, 0);
	CHECK_INT(btt_capacity(16 * MIB, 512, &nlba, &bytes), 0);
	CHECK_INT(bytes, 16487424);
	CHECK_INT(btt_arena_geometry(16 * MIB, 512, 1, &b), -ERANGE);

	/* a tail under 4 KiB is not used: same arena as 16 MiB */
	CHECK_INT(btt_arena_geometry(16 * MIB + 4095, 512, 0, &b), 0);
	CHECK(!memcmp(&a, &b, sizeof(a)));

	CHECK_INT(btt_arena_geometry(16 * MIB + 4096, 512, 0, &a), 0);
	check_arena(&a, 0, 16 * MIB + 4096, 512, 512, 32466, 0xfdc000,
		    0xffc000, 0x1000000, 0);
	CHECK_INT(btt_capacity(16 * MIB + 4096, 512, &nlba, &bytes), 0);
	CHECK_INT(bytes, 16491520);

	/* the namespace sizes these are for, per version (6.2) */
	CHECK_INT(btt_rawsize(16 * MIB + 4095, 4096, &raw), 0);
	CHECK_INT(btt_arena_count(raw), -ENOSPC);
	CHECK_INT(btt_rawsize(16 * MIB + 4096, 4096, &raw), 0);
	CHECK_INT(btt_arena_count(raw), 1);
	CHECK_INT(btt_rawsize(16 * MIB - 1, 0, &raw), 0);
	CHECK_INT(btt_arena_count(raw), -ENOSPC);
	CHECK_INT(btt_rawsize(16 * MIB, 0, &raw), 0);
	CHECK_INT(btt_arena_count(raw), 1);
}

/* the full 512 GiB arena, 512-byte sectors, at @off */
static void check_full_512(const struct btt_arena *a, u64 off, u64 nextoff)
{
	check_arena(a, off, 512 * GIB, 512, 512, 1065418188, 0x7f01fbb000,
		    0x7fffffb000, 0x7ffffff000, nextoff);
}

static void t_multi_arena(void)
{
	struct btt_arena a;
	u64 nlba, bytes;

	/* exactly one full arena */
	CHECK_INT(btt_arena_count(512 * GIB), 1);
	CHECK_INT(btt_arena_geometry(512 * GIB, 512, 0, &a), 0);
	check_full_512(&a, 0, 0);

	/* 512 GiB + 16 MiB: a second, smallest arena */
	CHECK_INT(btt_arena_count(512 * GIB + 16 * MIB), 2);
	CHECK_INT(btt_arena_geometry(512 * GIB + 16 * MIB, 512, 0, &a), 0);
	check_full_512(&a, 0, 512 * GIB);
	CHECK_INT(btt_arena_geometry(512 * GIB + 16 * MIB, 512, 1, &a), 0);
	check_arena(&a, 512 * GIB, 16 * MIB, 512, 512, 32458, 0xfdb000,
		    0xffb000, 0xfff000, 0);
	CHECK_INT(btt_arena_geometry(512 * GIB + 16 * MIB, 512, 2, &a),
		  -ERANGE);
	CHECK_INT(btt_capacity(512 * GIB + 16 * MIB, 512, &nlba, &bytes), 0);
	CHECK_INT(nlba, 1065417932ull + 32202);
	CHECK_INT(bytes, 545510468608ull);

	/* 4 KiB less: the tail is dropped, the first arena is the last */
	CHECK_INT(btt_arena_count(512 * GIB + 16 * MIB - 4096), 1);
	CHECK_INT(btt_arena_geometry(512 * GIB + 16 * MIB - 4096, 512, 0, &a),
		  0);
	check_full_512(&a, 0, 0);
	CHECK_INT(btt_arena_geometry(512 * GIB + 16 * MIB - 4096, 512, 1, &a),
		  -ERANGE);
	CHECK_INT(btt_capacity(512 * GIB + 16 * MIB - 4096, 512, &nlba,
			       &bytes), 0);
	CHECK_INT(bytes, 545493981184ull);

	/* 1 TiB + 8 MiB: two full arenas, 8 MiB unused */
	CHECK_INT(btt_arena_count(TIB + 8 * MIB), 2);
	CHECK_INT(btt_arena_geometry(TIB + 8 * MIB, 512, 0, &a), 0);
	check_full_512(&a, 0, 512 * GIB);
	CHECK_INT(btt_arena_geometry(TIB + 8 * MIB, 512, 1, &a), 0);
	check_full_512(&a, 512 * GIB, 0);
	CHECK_INT(btt_capacity(TIB + 8 * MIB, 512, &nlba, &bytes), 0);
	CHECK_INT(bytes, 1090987962368ull);

	/* 1.5 TiB: three */
	CHECK_INT(btt_arena_count(3 * TIB / 2), 3);
	CHECK_INT(btt_arena_geometry(3 * TIB / 2, 512, 1, &a), 0);
	check_full_512(&a, 512 * GIB, 512 * GIB);
	CHECK_INT(btt_arena_geometry(3 * TIB / 2, 512, 2, &a), 0);
	check_full_512(&a, TIB, 0);
	CHECK_INT(btt_capacity(3 * TIB / 2, 512, &nlba, &bytes), 0);
	CHECK_INT(bytes, 1636481943552ull);
	CHECK_INT(btt_arena_geometry(3 * TIB / 2, 4096, 2, &a), 0);
	check_arena(&a, TIB, 512 * GIB, 4096, 4096, 134086776, 0x7fe007b000,
		    0x7fffffb000, 0x7ffffff000, 0);
	CHECK_INT(btt_capacity(3 * TIB / 2, 4096, &nlba, &bytes), 0);
	CHECK_INT(nlba, 3 * 134086520ull);
	CHECK_INT(bytes, 1647655157760ull);

	/* the largest blocks in a full arena */
	CHECK_INT(btt_arena_geometry(512 * GIB, 4224, 0, &a), 0);
	check_arena(&a, 0, 512 * GIB, 4224, 4224, 130027385, 0x7fe0ff7000,
		    0x7fffffb000, 0x7ffffff000, 0);
	CHECK_INT(btt_capacity(512 * GIB, 4224, &nlba, &bytes), 0);
	CHECK_INT(bytes, 532591120384ull);
}

/* rawsize U64_MAX: 2^25 arenas, all sums exact, nothing wraps */
static void t_huge_rawsize(void)
{
	struct btt_arena a;
	u64 nlba, bytes;

	CHECK_INT(btt_arena_count(U64_MAX_), 33554432);
	CHECK_INT(btt_arena_geometry(U64_MAX_, 512, 0, &a), 0);
	check_full_512(&a, 0, 512 * GIB);
	CHECK_INT(btt_arena_geometry(U64_MAX_, 512, 33554430, &a), 0);
	check_full_512(&a, 0xffffff0000000000ull, 512 * GIB);
	CHECK_INT(btt_arena_geometry(U64_MAX_, 512, 33554431, &a), 0);
	check_arena(&a, 0xffffff8000000000ull, 0x7ffffff000ull, 512, 512,
		    1065418180, 545494114304ull, 549755789312ull,
		    549755805696ull, 0);
	CHECK_INT(btt_arena_geometry(U64_MAX_, 512, 33554432, &a), -ERANGE);
	CHECK_INT(btt_arena_geometry(U64_MAX_, 512, U32_MAX_, &a), -ERANGE);
	CHECK_INT(btt_arena_geometry(1 * GIB, 512, U32_MAX_, &a), -ERANGE);
	CHECK_INT(btt_capacity(U64_MAX_, 512, &nlba, &bytes), 0);
	CHECK_INT(nlba, 35749493550874616ull);
	CHECK_INT(bytes, 18303740698047803392ull);
	CHECK_INT(btt_capacity(U64_MAX_, 4224, &nlba, &bytes), 0);
	CHECK_INT(bytes, 17870792532728737792ull);
	/* 2^25 - 1 full arenas, with a tail just under 16 MiB or none */
	CHECK_INT(btt_arena_count(U64_MAX_ - 512 * GIB + 1), 33554431);
	CHECK_INT(btt_arena_count(U64_MAX_ - 512 * GIB + 16 * MIB), 33554431);
	CHECK_INT(btt_arena_count(U64_MAX_ - 512 * GIB + 16 * MIB + 1),
		  33554432);
}

/* a block as btt_info_build() writes it equals the builder's */
static void t_build_bytes(void)
{
	struct btt_arena a;
	struct bb_info d;
	u8 *want = info_new(), *got = info_new();

	CHECK_INT(btt_arena_geometry(32 * MIB - 4096, 512, 0, &a), 0);
	d = bb_std(4096, 512, 512, 64964, 0x1fba000, 0x1ffa000, 0x1ffe000, 0);
	memcpy(d.parent_uuid, ns_uuid, 16);
	bb_put_info(want, &d);
	memset(got, 0xee, BB_INFO_SIZE);
	CHECK_INT(btt_info_build((struct btt_info *)got, &a, btt_uuid,
				 ns_uuid, 4096), 0);
	CHECK(!memcmp(got, want, BB_INFO_SIZE));
	CHECK_INT(btt_info_checksum((struct btt_info *)got),
		  bb_checksum_field(want));

	/* v2.0, no parent, a later arena with nextoff */
	CHECK_INT(btt_arena_geometry(TIB + 16 * MIB, 4096, 1, &a), 0);
	d = bb_std(0, 4096, 4096, 134086776, 0x7fe007b000, 0x7fffffb000,
		   0x7ffffff000, 512 * GIB);
	bb_put_info(want, &d);
	memset(got, 0xee, BB_INFO_SIZE);
	CHECK_INT(btt_info_build((struct btt_info *)got, &a, btt_uuid, NULL,
				 0), 0);
	CHECK(!memcmp(got, want, BB_INFO_SIZE));

	/* no version for another start: block untouched */
	memset(got, 0xee, BB_INFO_SIZE);
	CHECK_INT(btt_info_build((struct btt_info *)got, &a, btt_uuid, NULL,
				 512), -EINVAL);
	CHECK_INT(got[0], 0xee);
	CHECK_INT(got[4095], 0xee);

	/* the error flag, resealed */
	a.flags = IB_FLAG_ERROR;
	CHECK_INT(btt_info_build((struct btt_info *)got, &a, btt_uuid, NULL,
				 0), 0);
	d.flags = 1;
	bb_put_info(want, &d);
	CHECK(!memcmp(got, want, BB_INFO_SIZE));
	free(want);
	free(got);
}

static void t_checksum(void)
{
	u8 *b = info_new(), *copy = info_new();
	u32 x = 2024;
	unsigned int round, i;

	for (round = 0; round < 64; round++) {
		for (i = 0; i < BB_INFO_SIZE; i++) {
			x = x * 1103515245 + 12345;
			b[i] = round & 1 ? x >> 16 : (round & 2 ? 0xff : 0);
		}
		memcpy(copy, b, BB_INFO_SIZE);
		lb_put64(copy + 4088, 0);
		CHECK_INT(btt_info_checksum((struct btt_info *)b),
			  lb_fletcher64(copy, BB_INFO_SIZE));
		/* the function ignores the field without touching it */
		CHECK(!memcmp(copy, b, 4088));
		btt_info_seal((struct btt_info *)b);
		CHECK_INT(lb_get64(b + 4088), lb_fletcher64(copy, BB_INFO_SIZE));
	}
	/* the same words through nd_fletcher64 with the field zeroed */
	CHECK_INT(btt_info_checksum((struct btt_info *)b),
		  nd_fletcher64(copy, BB_INFO_SIZE, true));
	free(b);
	free(copy);
}

/* build -> check for every arena of several BTTs, both versions */
static void roundtrip(u64 ns_size, u64 start, u32 lbasize,
		      const u8 *parent, const u8 *uuid)
{
	u8 *b = info_new();
	struct btt_arena a, got;
	u64 raw, off = 0;
	int n, i;

	CHECK_INT(btt_rawsize(ns_size, start, &raw), 0);
	n = btt_arena_count(raw);
	CHECK(n >= 1);
	for (i = 0; i < n; i++) {
		CHECK_INT(btt_arena_geometry(raw, lbasize, i, &a), 0);
		CHECK_INT(a.off, off);
		CHECK_INT(btt_info_build((struct btt_info *)b, &a, btt_uuid,
					 parent, start), 0);
		CHECK_VERDICT(check_at(b, ns_size, start, uuid, off, &got),
			      BTT_INFO_VALID);
		CHECK(!memcmp(&a, &got, sizeof(a)));
		/* discovery: the next arena is at off + nextoff */
		CHECK_INT(!got.nextoff, i == n - 1);
		off += got.nextoff;
	}
	free(b);
}

static void t_roundtrip(void)
{
	static const u64 sizes[] = {
		16 * MIB + 4096, 32 * MIB, 1 * GIB, 512 * GIB + 16 * MIB,
		512 * GIB + 16 * MIB + 4096, TIB + 8 * MIB, 3 * TIB / 2,
		3 * TIB / 2 + 123 * 4096 + 17,
	};
	unsigned int i, j;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < N_LBASIZES; j++) {
			roundtrip(sizes[i], 4096, lbasizes[j].lbasize,
				  ns_uuid, ns_uuid);
			roundtrip(sizes[i], 0, lbasizes[j].lbasize,
				  ns_uuid, ns_uuid);
		}
	/* zero parent: any namespace, with or without a uuid */
	roundtrip(32 * MIB, 4096, 512, NULL, ns_uuid);
	roundtrip(32 * MIB, 4096, 512, NULL, NULL);
	roundtrip(32 * MIB, 0, 4224, NULL, NULL);
}

/* the 32 MiB v1.1 512-byte arena of the first worked example */
static void base_block(u8 *b)
{
	struct bb_info d = bb_std(4096, 512, 512, 64964, 0x1fba000, 0x1ffa000,
				  0x1ffe000, 0);

	memcpy(d.parent_uuid, ns_uuid, 16);
	bb_put_info(b, &d);
}

static void t_identity_failures(void)
{
	u8 *b = info_new();
	u8 other[16];
	struct bb_info d;
	unsigned int i;

	base_block(b);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_VALID);

	/* signature: each byte, resealed (the checksum is not what fails) */
	for (i = 0; i < 16; i++) {
		base_block(b);
		b[i] ^= i < 14 ? 0x20 : 0x01;
		bb_reseal(b);
		CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_SIG);
	}
	memset(b, 0, BB_INFO_SIZE);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_SIG);

	/* checksum: a padding byte, the last checked byte, the field */
	base_block(b);
	b[2000] = 1;
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_CHECKSUM);
	base_block(b);
	b[4087] ^= 0x80;
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_CHECKSUM);
	base_block(b);
	b[4088] ^= 1;
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_CHECKSUM);
	base_block(b);
	b[4095] ^= 0x80;
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_CHECKSUM);
	base_block(b);
	lb_put64(b + 4088, 0);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_CHECKSUM);

	/* parent uuid: another namespace, or a namespace without uuid */
	base_block(b);
	memcpy(other, ns_uuid, 16);
	other[15] ^= 1;
	CHECK_VERDICT(check_at(b, 32 * MIB, 4096, other, 0, NULL),
		      BTT_INFO_BAD_PARENT);
	CHECK_VERDICT(check_at(b, 32 * MIB, 4096, NULL, 0, NULL),
		      BTT_INFO_BAD_PARENT);
	b[32] ^= 0x40;
	bb_reseal(b);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_PARENT);
	memset(b + 32, 0, 16);
	bb_reseal(b);
	CHECK_VERDICT(check_at(b, 32 * MIB, 4096, other, 0, NULL),
		      BTT_INFO_VALID);
	/* all zero but the last byte: not the null uuid */
	b[47] = 1;
	bb_reseal(b);
	CHECK_VERDICT(check_at(b, 32 * MIB, 4096, other, 0, NULL),
		      BTT_INFO_BAD_PARENT);
	CHECK_VERDICT(check_at(b, 32 * MIB, 4096, NULL, 0, NULL),
		      BTT_INFO_BAD_PARENT);
	b[47] = 0;
	bb_reseal(b);
	/* the BTT's own uuid is not compared to anything */
	memset(b + 16, 0, 16);
	bb_reseal(b);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_VALID);

	/* version against start: 1.1 only at 4096, 2.0 only at 0 */
	base_block(b);
	CHECK_VERDICT(check(b, 32 * MIB, 0), BTT_INFO_BAD_VERSION);
	CHECK_VERDICT(check(b, 32 * MIB, 512), BTT_INFO_BAD_VERSION);
	CHECK_VERDICT(check(b, 32 * MIB, 8192), BTT_INFO_BAD_VERSION);
	d = bb_std(0, 4096, 4096, 8177, 0x1ff3000, 0x1ffb000, 0x1fff000, 0);
	bb_put_info(b, &d);
	CHECK_VERDICT(check(b, 32 * MIB, 0), BTT_INFO_VALID);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_BAD_VERSION);
	{
		static const u16 bad[][2] = {
			{ 1, 0 }, { 2, 1 }, { 0, 1 }, { 0, 0 }, { 1, 2 },
			{ 3, 0 }, { 0x101, 1 }, { 1, 0x101 }, { 0xffff, 0xffff },
		};

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			base_block(b);
			lb_put16(b + 52, bad[i][0]);
			lb_put16(b + 54, bad[i][1]);
			bb_reseal(b);
			CHECK_VERDICT(check(b, 32 * MIB, 4096),
				      BTT_INFO_BAD_VERSION);
			CHECK_VERDICT(check(b, 32 * MIB, 0),
				      bad[i][0] == 2 && bad[i][1] == 0 ?
				      BTT_INFO_VALID : BTT_INFO_BAD_VERSION);
		}
	}

	/* the error flag alone does not invalidate; other flag bits neither */
	base_block(b);
	lb_put32(b + 48, IB_FLAG_ERROR);
	bb_reseal(b);
	{
		struct btt_arena a;

		CHECK_VERDICT(check_at(b, 32 * MIB, 4096, ns_uuid, 0, &a),
			      BTT_INFO_VALID);
		CHECK_INT(a.flags, IB_FLAG_ERROR);
		lb_put32(b + 48, 0xfffffffe);
		bb_reseal(b);
		CHECK_VERDICT(check_at(b, 32 * MIB, 4096, ns_uuid, 0, &a),
			      BTT_INFO_VALID);
		CHECK_INT(a.flags, 0xfffffffe);
	}
	/* non-zero padding is covered by the checksum only */
	base_block(b);
	memset(b + 120, 0xa5, 3968);
	bb_reseal(b);
	CHECK_VERDICT(check(b, 32 * MIB, 4096), BTT_INFO_VALID);
	free(b);
}

/*
 * A tight arena in which every region ends where the next begins:
 * info block, 1280 blocks of 512 bytes, a 4 KiB map (1024 entries), the
 * 16 KiB flog of 256 lanes, info2.  Its size is 0xa7000.
 */
#define T_INLBA 1280
#define T_DATA 0x1000ull
#define T_MAP 0xa1000ull
#define T_LOG 0xa2000ull
#define T_INFO2 0xa6000ull
#define T_SIZE 0xa7000ull

static struct bb_info tight(u64 start)
{
	return bb_std(start, 512, 512, T_INLBA, T_MAP, T_LOG, T_INFO2, 0);
}

/* the verdict for @d put in a block, namespace of @ns_size */
static enum btt_info_verdict verdict(const struct bb_info *d, u64 ns_size,
				     u64 start, u64 arena_off)
{
	u8 *b = info_new();
	enum btt_info_verdict v;

	bb_put_info(b, d);
	v = check_at(b, ns_size, start, NULL, arena_off, NULL);
	free(b);
	return v;
}

#define TIGHT_CASE(field, value, want)					\
	do {								\
		struct bb_info d_ = tight(start);			\
		d_.field = (value);					\
		CHECK_VERDICT(verdict(&d_, ns, start, 0), want);	\
	} while (0)

static void t_geometry_tight(void)
{
	static const u64 starts[] = { 4096, 0 };
	const u64 huge = U64_MAX_ & ~4095ull;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		u64 start = starts[i], ns = start + T_SIZE;
		u64 top = (U64_MAX_ - start) & ~4095ull;
		struct bb_info d = tight(start);
		struct btt_arena a;
		u8 *b = info_new();

		bb_put_info(b, &d);
		CHECK_VERDICT(check_at(b, ns, start, NULL, 0, &a),
			      BTT_INFO_VALID);
		CHECK_INT(a.size, T_SIZE);
		CHECK_INT(a.external_nlba, T_INLBA - 256);
		free(b);

		/* namespace one byte short */
		CHECK_VERDICT(verdict(&d, ns - 1, start, 0), BTT_INFO_BAD_INFO2);
		CHECK_VERDICT(verdict(&d, ns - 4096, start, 0),
			      BTT_INFO_BAD_INFO2);
		CHECK_VERDICT(verdict(&d, start + 4095, start, 0),
			      BTT_INFO_BAD_ARENA_OFF);
		CHECK_VERDICT(verdict(&d, start ? 4095 : 0, start, 0),
			      BTT_INFO_BAD_ARENA_OFF);

		/* arena offsets */
		CHECK_VERDICT(verdict(&d, ns, start, 2048),
			      BTT_INFO_BAD_ARENA_OFF);
		CHECK_VERDICT(verdict(&d, ns, start, 4096), BTT_INFO_BAD_INFO2);
		CHECK_VERDICT(verdict(&d, ns, start, T_SIZE - 4096),
			      BTT_INFO_BAD_INFO2);
		CHECK_VERDICT(verdict(&d, ns, start, T_SIZE),
			      BTT_INFO_BAD_ARENA_OFF);
		CHECK_VERDICT(verdict(&d, ns, start, huge),
			      BTT_INFO_BAD_ARENA_OFF);
		CHECK_VERDICT(verdict(&d, ns + 512 * GIB, start, 512 * GIB),
			      BTT_INFO_VALID);
		CHECK_VERDICT(verdict(&d, ns + 512 * GIB - 4096, start,
				      512 * GIB), BTT_INFO_BAD_INFO2);
		/* the last arena of the largest namespace */
		CHECK_VERDICT(verdict(&d, U64_MAX_, start, top - T_SIZE),
			      BTT_INFO_VALID);
		CHECK_VERDICT(verdict(&d, U64_MAX_, start,
				      top - T_SIZE + 4096),
			      BTT_INFO_BAD_INFO2);

		TIGHT_CASE(infosize, 4095, BTT_INFO_BAD_INFOSIZE);
		TIGHT_CASE(infosize, 4097, BTT_INFO_BAD_INFOSIZE);
		TIGHT_CASE(infosize, 0, BTT_INFO_BAD_INFOSIZE);
		TIGHT_CASE(infosize, 8192, BTT_INFO_BAD_INFOSIZE);
		TIGHT_CASE(infosize, U32_MAX_, BTT_INFO_BAD_INFOSIZE);

		TIGHT_CASE(external_lbasize, 511, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(external_lbasize, 513, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(external_lbasize, 0, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(external_lbasize, 1024, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(external_lbasize, U32_MAX_, BTT_INFO_BAD_LBASIZE);
		/* 520 in 512-byte blocks: internal below external */
		TIGHT_CASE(external_lbasize, 520, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(internal_lbasize, 511, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(internal_lbasize, 448, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(internal_lbasize, 513, BTT_INFO_BAD_LBASIZE);
		TIGHT_CASE(internal_lbasize, 0, BTT_INFO_BAD_LBASIZE);
		/* a valid larger internal size: the data no longer fits */
		TIGHT_CASE(internal_lbasize, 576, BTT_INFO_BAD_DATA);
		TIGHT_CASE(internal_lbasize, 0xffffffc0, BTT_INFO_BAD_DATA);

		TIGHT_CASE(nfree, 0, BTT_INFO_BAD_NFREE);
		TIGHT_CASE(nfree, 255, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(nfree, 257, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(nfree, U32_MAX_, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(internal_nlba, T_INLBA + 1, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(internal_nlba, T_INLBA - 1, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(internal_nlba, 0, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(internal_nlba, U32_MAX_, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(external_nlba, T_INLBA - 255, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(external_nlba, T_INLBA - 257, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(external_nlba, U32_MAX_, BTT_INFO_BAD_NLBA);
		TIGHT_CASE(external_nlba, 0, BTT_INFO_BAD_NLBA);
		/* no external blocks even when internal_nlba agrees with nfree */
		{
			struct bb_info d0 = tight(start);

			d0.external_nlba = 0;
			d0.internal_nlba = d0.nfree;
			CHECK_VERDICT(verdict(&d0, ns, start, 0),
				      BTT_INFO_BAD_NLBA);
			/* external_nlba + nfree wrapping to internal_nlba */
			d0.external_nlba = U32_MAX_;
			d0.nfree = 1;
			d0.internal_nlba = 0;
			CHECK_VERDICT(verdict(&d0, ns, start, 0),
				      BTT_INFO_BAD_NLBA);
			d0.external_nlba = U32_MAX_ - 255;
			d0.nfree = 257;
			d0.internal_nlba = 1;
			CHECK_VERDICT(verdict(&d0, ns, start, 0),
				      BTT_INFO_BAD_NLBA);
		}
		TIGHT_CASE(dataoff, T_DATA + 1, BTT_INFO_BAD_ALIGN);
		TIGHT_CASE(mapoff, T_MAP + 512, BTT_INFO_BAD_ALIGN);
		TIGHT_CASE(logoff, T_LOG - 1, BTT_INFO_BAD_ALIGN);
		TIGHT_CASE(info2off, T_INFO2 + 2048, BTT_INFO_BAD_ALIGN);
		TIGHT_CASE(nextoff, T_SIZE + 1, BTT_INFO_BAD_ALIGN);
		TIGHT_CASE(nextoff, U64_MAX_, BTT_INFO_BAD_ALIGN);

		TIGHT_CASE(dataoff, T_DATA + 4096, BTT_INFO_BAD_DATA);
		TIGHT_CASE(dataoff, 0, BTT_INFO_BAD_DATA);
		TIGHT_CASE(dataoff, huge, BTT_INFO_BAD_DATA);
		TIGHT_CASE(mapoff, T_MAP - 4096, BTT_INFO_BAD_DATA);
		TIGHT_CASE(mapoff, 0, BTT_INFO_BAD_DATA);
		TIGHT_CASE(mapoff, T_MAP + 4096, BTT_INFO_BAD_MAP);
		TIGHT_CASE(mapoff, huge, BTT_INFO_BAD_MAP);
		TIGHT_CASE(logoff, T_LOG - 4096, BTT_INFO_BAD_MAP);
		TIGHT_CASE(logoff, 0, BTT_INFO_BAD_MAP);
		TIGHT_CASE(logoff, T_LOG + 4096, BTT_INFO_BAD_LOG);
		TIGHT_CASE(logoff, huge, BTT_INFO_BAD_LOG);
		TIGHT_CASE(info2off, T_INFO2 - 4096, BTT_INFO_BAD_LOG);
		TIGHT_CASE(info2off, 0, BTT_INFO_BAD_LOG);
		TIGHT_CASE(info2off, T_INFO2 + 4096, BTT_INFO_BAD_INFO2);
		TIGHT_CASE(info2off, huge, BTT_INFO_BAD_INFO2);
		TIGHT_CASE(info2off, huge - 4096, BTT_INFO_BAD_INFO2);

		/* nextoff: 0, or the arena's end with 16 MiB behind it */
		TIGHT_CASE(nextoff, T_SIZE, BTT_INFO_BAD_NEXTOFF);
		TIGHT_CASE(nextoff, T_SIZE - 4096, BTT_INFO_BAD_NEXTOFF);
		TIGHT_CASE(nextoff, T_SIZE + 4096, BTT_INFO_BAD_NEXTOFF);
		TIGHT_CASE(nextoff, 4096, BTT_INFO_BAD_NEXTOFF);
		TIGHT_CASE(nextoff, huge, BTT_INFO_BAD_NEXTOFF);
		d.nextoff = T_SIZE;
		CHECK_VERDICT(verdict(&d, ns + 16 * MIB, start, 0),
			      BTT_INFO_VALID);
		CHECK_VERDICT(verdict(&d, ns + 16 * MIB - 4096, start, 0),
			      BTT_INFO_BAD_NEXTOFF);
		/* a gap before the next arena, even with room behind it */
		d.nextoff = T_SIZE + 4096;
		CHECK_VERDICT(verdict(&d, ns + 32 * MIB, start, 0),
			      BTT_INFO_BAD_NEXTOFF);
		d.nextoff = 2 * T_SIZE;
		CHECK_VERDICT(verdict(&d, ns + 32 * MIB, start, 0),
			      BTT_INFO_BAD_NEXTOFF);
		d.nextoff = T_SIZE;
		CHECK_VERDICT(verdict(&d, U64_MAX_, start, top - T_SIZE),
			      BTT_INFO_BAD_NEXTOFF);
		CHECK_VERDICT(verdict(&d, U64_MAX_, start,
				      top - T_SIZE - 16 * MIB),
			      BTT_INFO_VALID);
	}
}

/* several fields at once, against the tight arena (start 4096) */
static void t_geometry_combined(void)
{
	const u64 start = 4096, ns = start + T_SIZE;
	struct bb_info d;

	/* one more block of each kind: the data area is full */
	d = tight(start);
	d.internal_nlba++;
	d.external_nlba++;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_DATA);

	/* a map one entry too small */
	d = tight(start);
	d.external_nlba = 1025;
	d.internal_nlba = 1025 + 256;
	d.mapoff += 4096;	/* past the bigger data area */
	d.logoff += 4096;
	d.info2off += 4096;
	CHECK_VERDICT(verdict(&d, ns + 4096, start, 0), BTT_INFO_BAD_MAP);
	d.internal_lbasize = 512;
	d.external_nlba = 1024;
	d.internal_nlba = 1024 + 256;
	CHECK_VERDICT(verdict(&d, ns + 4096, start, 0), BTT_INFO_VALID);

	/* a flog one lane too small: 257 lanes, the same block count */
	d = tight(start);
	d.external_nlba--;
	d.nfree++;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_LOG);
	/* a one-lane arena is fine */
	d = tight(start);
	d.internal_nlba = d.external_nlba + 1;
	d.nfree = 1;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_VALID);

	/* the largest addressable arena passes the count rule */
	d = tight(start);
	d.internal_nlba = 1u << 30;
	d.external_nlba = (1u << 30) - 256;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_DATA);
	d.internal_nlba++;
	d.external_nlba++;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_NLBA);
	d.internal_nlba = U32_MAX_;
	d.external_nlba = U32_MAX_ - 256;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_NLBA);

	/*
	 * Large regions and sums that wrap.  The largest data area (2^30
	 * blocks of 4 GiB - 64) fits below the top of the address space; a
	 * map behind it at the top wraps.
	 */
	d = tight(start);
	d.internal_lbasize = 0xffffffc0;
	d.internal_nlba = (1u << 30);
	d.external_nlba = (1u << 30) - 256;
	d.mapoff = U64_MAX_ & ~4095ull;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_MAP);
	d.mapoff = (1ull << 62) - (1ull << 36);
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_DATA);
	d.mapoff += 4096;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_MAP);
	d = tight(start);
	d.dataoff = 1ull << 63;
	d.mapoff = U64_MAX_ & ~4095ull;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_MAP);
	d.logoff = U64_MAX_ & ~4095ull;
	d.mapoff = (1ull << 63) + 0x100000;
	CHECK_VERDICT(verdict(&d, ns, start, 0), BTT_INFO_BAD_LOG);
	d.logoff = (1ull << 63) + 0x200000;
	d.info2off = U64_MAX_ & ~4095ull;
	CHECK_VERDICT(verdict(&d, U64_MAX_, start, 0), BTT_INFO_BAD_INFO2);
	d.info2off = (1ull << 63) + 0x300000;
	CHECK_VERDICT(verdict(&d, U64_MAX_, start, 0), BTT_INFO_VALID);
	CHECK_VERDICT(verdict(&d, (1ull << 63) + 0x300000 + 4096 + start,
			      start, 0), BTT_INFO_VALID);
	CHECK_VERDICT(verdict(&d, (1ull << 63) + 0x300000 + 4095 + start,
			      start, 0), BTT_INFO_BAD_INFO2);
	d.nextoff = (1ull << 63) + 0x301000;
	CHECK_VERDICT(verdict(&d, U64_MAX_, start, 0), BTT_INFO_VALID);
	CHECK_VERDICT(verdict(&d, U64_MAX_, start, (1ull << 63) - 0x1000000),
		      BTT_INFO_BAD_NEXTOFF);
}

/* a multi-arena BTT read back arena by arena, as discovery does */
static void t_geometry_multi(void)
{
	const u64 ns = 4096 + 512 * GIB + 16 * MIB;
	struct btt_arena a;
	struct bb_info d;
	u8 *b = info_new();

	d = bb_std(4096, 512, 512, 1065418188, 0x7f01fbb000, 0x7fffffb000,
		   0x7ffffff000, 512 * GIB);
	bb_put_info(b, &d);
	CHECK_VERDICT(check_at(b, ns, 4096, NULL, 0, &a), BTT_INFO_VALID);
	CHECK_INT(a.size, 512 * GIB);
	CHECK_VERDICT(check_at(b, ns - 4096, 4096, NULL, 0, NULL),
		      BTT_INFO_BAD_NEXTOFF);
	CHECK_VERDICT(check_at(b, ns, 4096, NULL, 4096, NULL),
		      BTT_INFO_BAD_NEXTOFF);
	CHECK_VERDICT(check_at(b, ns, 4096, NULL, 512 * GIB, NULL),
		      BTT_INFO_BAD_INFO2);

	d = bb_std(4096, 512, 512, 32458, 0xfdb000, 0xffb000, 0xfff000, 0);
	bb_put_info(b, &d);
	CHECK_VERDICT(check_at(b, ns, 4096, NULL, 512 * GIB, &a),
		      BTT_INFO_VALID);
	CHECK_INT(a.off, 512 * GIB);
	CHECK_INT(a.size, 16 * MIB);
	CHECK_VERDICT(check_at(b, ns - 1, 4096, NULL, 512 * GIB, NULL),
		      BTT_INFO_BAD_INFO2);
	CHECK_VERDICT(check_at(b, ns, 4096, NULL, 512 * GIB + 4096, NULL),
		      BTT_INFO_BAD_INFO2);
	free(b);
}

static void t_verdicts(void)
{
	unsigned int i, j;

	for (i = 0; i < BTT_INFO_NR_VERDICTS; i++) {
		const char *n = btt_info_verdict_name(i);

		CHECK(n && *n && strcmp(n, "unknown verdict"));
		for (j = 0; j < i; j++)
			CHECK(strcmp(n, btt_info_verdict_name(j)));
		CHECK_INT(btt_info_is_btt(i),
			  i == BTT_INFO_VALID || i >= BTT_INFO_BAD_ARENA_OFF);
	}
	CHECK(!strcmp(btt_info_verdict_name(BTT_INFO_NR_VERDICTS),
		      "unknown verdict"));
	CHECK(!strcmp(btt_info_verdict_name((enum btt_info_verdict)-1),
		      "unknown verdict"));
	CHECK(!btt_info_is_btt(BTT_INFO_NR_VERDICTS));
	CHECK(!btt_info_is_btt(BTT_INFO_BAD_VERSION));
	CHECK(btt_info_is_btt(BTT_INFO_BAD_NEXTOFF));
}

static void t_map_entries(void)
{
	static const struct {
		u32 entry, premap;
		enum btt_map_state state;
		u32 postmap;
	} dec[] = {
		{ 0x00000000, 0, BTT_MAP_IDENTITY, 0 },
		{ 0x00000000, 12345, BTT_MAP_IDENTITY, 12345 },
		{ 0x00000005, 9, BTT_MAP_IDENTITY, 9 },
		{ 0x3fffffff, 7, BTT_MAP_IDENTITY, 7 },
		{ 0x40000005, 9, BTT_MAP_ERR, 5 },
		{ 0x40000000, 9, BTT_MAP_ERR, 0 },
		{ 0x80000005, 9, BTT_MAP_TRIMMED, 5 },
		{ 0xbfffffff, 9, BTT_MAP_TRIMMED, 0x3fffffff },
		{ 0xc0000005, 9, BTT_MAP_MAPPED, 5 },
		{ 0xc0000000, 9, BTT_MAP_MAPPED, 0 },
		{ 0xffffffff, 9, BTT_MAP_MAPPED, 0x3fffffff },
	};
	static const struct {
		u32 postmap;
		enum btt_map_state state;
		int rc;
		u32 entry;
	} enc[] = {
		{ 5, BTT_MAP_MAPPED, 0, 0xc0000005 },
		{ 0, BTT_MAP_MAPPED, 0, 0xc0000000 },
		{ 0x3fffffff, BTT_MAP_MAPPED, 0, 0xffffffff },
		{ 5, BTT_MAP_ERR, 0, 0x40000005 },
		{ 5, BTT_MAP_TRIMMED, 0, 0x80000005 },
		{ 5, BTT_MAP_IDENTITY, 0, 0 },
		{ 0xffffffff, BTT_MAP_IDENTITY, 0, 0 },
		{ 0x40000000, BTT_MAP_MAPPED, -ERANGE, 0x5a5a5a5a },
		{ 0x40000000, BTT_MAP_ERR, -ERANGE, 0x5a5a5a5a },
		{ 0xffffffff, BTT_MAP_TRIMMED, -ERANGE, 0x5a5a5a5a },
		{ 5, (enum btt_map_state)4, -EINVAL, 0x5a5a5a5a },
		{ 5, (enum btt_map_state)-1, -EINVAL, 0x5a5a5a5a },
	};
	unsigned int i;

	for (i = 0; i < sizeof(dec) / sizeof(dec[0]); i++) {
		u32 post = 0xdeadbeef;

		CHECK_INT(btt_map_decode(dec[i].entry, dec[i].premap, &post),
			  dec[i].state);
		CHECK_INT(post, dec[i].postmap);
	}
	for (i = 0; i < sizeof(enc) / sizeof(enc[0]); i++) {
		u32 e = 0x5a5a5a5a, post;

		CHECK_INT(btt_map_encode(enc[i].postmap, enc[i].state, &e),
			  enc[i].rc);
		CHECK_INT(e, enc[i].entry);
		if (enc[i].rc || enc[i].state == BTT_MAP_IDENTITY)
			continue;
		CHECK_INT(btt_map_decode(e, 77, &post), enc[i].state);
		CHECK_INT(post, enc[i].postmap);
	}
}

static void t_seq_pairs(void)
{
	/* newest of (first live slot, second live slot); -1 invalid */
	static const int want[4][4] = {
		/* seq1:  0   1   2   3 */
		{ -1,  1,  1,  1 },	/* seq0 0 */
		{  0, -1,  1,  0 },	/* seq0 1 */
		{ -1,  0, -1,  1 },	/* seq0 2 */
		{ -1,  1,  0, -1 },	/* seq0 3 */
	};
	static const u32 next[] = { 1, 2, 3, 1, 0, 0 };
	unsigned int s0, s1;

	for (s0 = 0; s0 < 4; s0++)
		for (s1 = 0; s1 < 4; s1++) {
			int rc = btt_flog_newest(s0, s1);

			if (rc != (want[s0][s1] < 0 ? -EINVAL : want[s0][s1]))
				printf("#   seq pair (%u, %u)\n", s0, s1);
			CHECK_INT(rc, want[s0][s1] < 0 ? -EINVAL :
				  want[s0][s1]);
		}
	CHECK_INT(btt_flog_newest(4, 1), -EINVAL);
	CHECK_INT(btt_flog_newest(1, 4), -EINVAL);
	CHECK_INT(btt_flog_newest(0, 4), -EINVAL);
	CHECK_INT(btt_flog_newest(5, 0), -EINVAL);
	CHECK_INT(btt_flog_newest(U32_MAX_, 2), -EINVAL);
	CHECK_INT(btt_flog_newest(2, U32_MAX_), -EINVAL);
	CHECK_INT(btt_flog_newest(0x101, 2), -EINVAL);
	for (s0 = 0; s0 < 6; s0++)
		CHECK_INT(btt_seq_next(s0), next[s0]);
	CHECK_INT(btt_seq_next(U32_MAX_), 0);
}

static void t_flog_slots(void)
{
	u8 lane[64] = { 0 }, want[64] = { 0 };
	struct btt_flog_ent e = { 0x01020304, 0xc0000005, 0x40000006, 3 }, g;
	struct btt_flog_lane *l = (struct btt_flog_lane *)lane;
	struct btt_arena a;

	bb_put_slot(want, 1, 0x01020304, 0xc0000005, 0x40000006, 3);
	btt_flog_encode(&l->slot[1], &e);
	CHECK(!memcmp(lane, want, 64));
	btt_flog_decode(&l->slot[1], &g);
	CHECK(!memcmp(&e, &g, sizeof(e)));

	/* fresh lanes: slot 0 = {i, ext + i, ext + i, 1}, rest zero */
	CHECK_INT(btt_arena_geometry(32 * MIB - 4096, 512, 0, &a), 0);
	memset(lane, 0xff, 64);
	CHECK_INT(btt_flog_init_lane(l, 0, &a), 0);
	memset(want, 0, 64);
	bb_put_slot(want, 0, 0, 64708, 64708, 1);
	CHECK(!memcmp(lane, want, 64));
	memset(lane, 0xff, 64);
	CHECK_INT(btt_flog_init_lane(l, 255, &a), 0);
	memset(want, 0, 64);
	bb_put_slot(want, 0, 255, 64963, 64963, 1);
	CHECK(!memcmp(lane, want, 64));
	memset(lane, 0xff, 64);
	CHECK_INT(btt_flog_init_lane(l, 256, &a), -ERANGE);
	CHECK_INT(btt_flog_init_lane(l, U32_MAX_, &a), -ERANGE);
	a.external_nlba = U32_MAX_ - 10;
	CHECK_INT(btt_flog_init_lane(l, 20, &a), -ERANGE);
	a.external_nlba = a.internal_nlba - 10;
	CHECK_INT(btt_flog_init_lane(l, 9, &a), 0);
	memset(lane, 0xff, 64);
	CHECK_INT(btt_flog_init_lane(l, 10, &a), -ERANGE);
	CHECK_INT(lane[0], 0xff);
	CHECK_INT(lane[63], 0xff);
	/* lane nfree is not a lane, even where its block would exist */
	a.nfree = 4;
	CHECK_INT(btt_flog_init_lane(l, 3, &a), 0);
	memset(lane, 0xff, 64);
	CHECK_INT(btt_flog_init_lane(l, 4, &a), -ERANGE);
	CHECK_INT(lane[0], 0xff);
}

/* the detection of media-formats 6.7 over a sequence of lanes */
static void t_flog_detect(void)
{
	struct btt_flog_lane l;
	u8 *lane = (u8 *)&l;
	enum btt_flog_fmt fmt;

	/* all-zero and initial lanes say nothing */
	memset(lane, 0, 64);
	fmt = BTT_FLOG_UNKNOWN;
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	CHECK_INT(fmt, BTT_FLOG_UNKNOWN);
	bb_put_slot(lane, 0, 1, 100, 100, 1);
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	CHECK_INT(fmt, BTT_FLOG_UNKNOWN);
	memset(lane, 0, 64);
	bb_put_slot(lane, 3, 1, 100, 100, 1);
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	CHECK_INT(fmt, BTT_FLOG_UNKNOWN);
	CHECK_INT(btt_flog_second_slot(fmt), 1);

	/* 0 and 1: the new format; then a 0-and-2 lane is refused */
	memset(lane, 0, 64);
	bb_put_slot(lane, 0, 1, 100, 100, 1);
	bb_put_slot(lane, 1, 1, 100, 7, 2);
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	CHECK_INT(fmt, BTT_FLOG_01);
	CHECK_INT(btt_flog_second_slot(fmt), 1);
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	memset(lane, 0, 64);
	bb_put_slot(lane, 0, 1, 100, 100, 1);
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	CHECK_INT(fmt, BTT_FLOG_01);
	lane[2 * 16 + 15] = 0x80;	/* one byte makes a slot non-padding */
	CHECK_INT(btt_flog_detect(&l, &fmt), -EINVAL);
	CHECK_INT(fmt, BTT_FLOG_01);

	/* 0 and 2: the old format; then a 0-and-1 lane is refused */
	fmt = BTT_FLOG_UNKNOWN;
	CHECK_INT(btt_flog_detect(&l, &fmt), 0);
	CHECK_INT(fmt, BTT_FLOG_02);
	CHECK_INT(btt_flog_second_slot(fmt), 2);
	memset(lane, 0, 64);
	bb_put_slot(lane, 0, 1, 100, 100, 1);
	bb_put_slot(lane, 1, 1, 100, 7, 2);
	CHECK_INT(btt_flog_detect(&l, &fmt), -EINVAL);
	CHECK_INT(fmt, BTT_FLOG_02);

	/* other patterns, whatever came before */
	{
		static const unsigned int bad[] = {
			0x6, 0x9, 0xa, 0xc, 0x7, 0xb, 0xd, 0xe, 0xf,
		};
		unsigned int i, s;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			memset(lane, 0, 64);
			for (s = 0; s < 4; s++)
				if (bad[i] & (1u << s))
					bb_put_slot(lane, s, 0, 0, 0, 1);
			fmt = BTT_FLOG_UNKNOWN;
			CHECK_INT(btt_flog_detect(&l, &fmt), -EINVAL);
			CHECK_INT(fmt, BTT_FLOG_UNKNOWN);
		}
	}
}

/*
 * Lane states, and a lane driven through writes as the write path does
 * them (media-formats 6.9): the entry just written is always the newest.
 */
static void t_flog_lane_state(void)
{
	static const enum btt_flog_fmt fmts[] = {
		BTT_FLOG_UNKNOWN, BTT_FLOG_01, BTT_FLOG_02,
	};
	struct btt_flog_lane l;
	struct btt_flog_state st;
	struct btt_arena a;
	unsigned int f, w;

	CHECK_INT(btt_arena_geometry(32 * MIB, 4096, 0, &a), 0);
	for (f = 0; f < 3; f++) {
		u32 second = btt_flog_second_slot(fmts[f]);
		u32 seqs[6] = { 0 };

		CHECK_INT(btt_flog_init_lane(&l, 3, &a), 0);
		CHECK_INT(btt_flog_lane_state(&l, fmts[f], &st), 0);
		CHECK_INT(st.newest_slot, 0);
		CHECK_INT(st.next_slot, second);
		CHECK_INT(st.next_seq, 2);
		CHECK_INT(st.newest.lba, 3);
		CHECK_INT(st.newest.old_map, a.external_nlba + 3);
		CHECK_INT(st.newest.new_map, a.external_nlba + 3);

		for (w = 0; w < 6; w++) {
			struct btt_flog_ent e = {
				.lba = w, .old_map = w,
				.new_map = st.newest.old_map,
				.seq = st.next_seq,
			};
			u32 slot = st.next_slot;

			btt_flog_encode(&l.slot[slot], &e);
			seqs[w] = e.seq;
			CHECK_INT(btt_flog_lane_state(&l, fmts[f], &st), 0);
			CHECK_INT(st.newest_slot, slot);
			CHECK_INT(st.next_slot, slot ? 0 : second);
			CHECK_INT(st.newest.lba, w);
			CHECK_INT(st.newest.seq, seqs[w]);
		}
		/* 2 3 1 2 3 1 */
		CHECK_INT(seqs[0], 2);
		CHECK_INT(seqs[1], 3);
		CHECK_INT(seqs[2], 1);
		CHECK_INT(seqs[5], 1);
	}

	/* invalid pairs leave the state alone */
	memset(&l, 0, sizeof(l));
	memset(&st, 0x33, sizeof(st));
	CHECK_INT(btt_flog_lane_state(&l, BTT_FLOG_01, &st), -EINVAL);
	CHECK_INT(st.next_seq, 0x33333333);
	bb_put_slot((u8 *)&l, 0, 1, 2, 3, 2);
	bb_put_slot((u8 *)&l, 2, 1, 2, 3, 2);
	CHECK_INT(btt_flog_lane_state(&l, BTT_FLOG_02, &st), -EINVAL);
	/* the same lane read with the other format: slot 1 unused */
	CHECK_INT(btt_flog_lane_state(&l, BTT_FLOG_01, &st), -EINVAL);
	bb_put_slot((u8 *)&l, 0, 1, 2, 3, 1);
	CHECK_INT(btt_flog_lane_state(&l, BTT_FLOG_01, &st), 0);
	CHECK_INT(st.newest_slot, 0);
	CHECK_INT(st.next_slot, 1);
	CHECK_INT(st.next_seq, 2);
	CHECK_INT(btt_flog_lane_state(&l, BTT_FLOG_02, &st), 0);
	CHECK_INT(st.newest_slot, 2);
	CHECK_INT(st.next_slot, 0);
	CHECK_INT(st.next_seq, 3);
	/* a seq above 3 in a live slot */
	bb_put_slot((u8 *)&l, 0, 1, 2, 3, 5);
	CHECK_INT(btt_flog_lane_state(&l, BTT_FLOG_02, &st), -EINVAL);
}

static void t_flog_recover(void)
{
	struct btt_arena a;
	struct btt_recovery r;
	struct btt_flog_ent e;
	u32 ext, in;

	CHECK_INT(btt_arena_geometry(32 * MIB - 4096, 512, 0, &a), 0);
	ext = a.external_nlba;
	in = a.internal_nlba;

#define RECOVER(lba_, old_, new_, map_)					\
	do {								\
		e = (struct btt_flog_ent){ lba_, old_, new_, 2 };	\
		memset(&r, 0x44, sizeof(r));				\
		CHECK_INT(btt_flog_recover(&e, map_, &a, &r), 0);	\
		CHECK_INT(r.lba, lba_);					\
	} while (0)

	/* only a logged write (old != new, flags stripped) reads the map */
	e = (struct btt_flog_ent){ 7, ext + 7, ext + 7, 1 };
	CHECK(!btt_flog_reads_map(&e));
	e = (struct btt_flog_ent){ 5, 5 | 0x40000000u, 5, 2 };
	CHECK(!btt_flog_reads_map(&e));
	e = (struct btt_flog_ent){ 5, 5 | 0xc0000000u, 5 | 0x80000000u, 2 };
	CHECK(!btt_flog_reads_map(&e));
	e = (struct btt_flog_ent){ 5, 5, ext + 1, 2 };
	CHECK(btt_flog_reads_map(&e));
	e = (struct btt_flog_ent){ 5, 0xc0000000u | 900, 901, 2 };
	CHECK(btt_flog_reads_map(&e));

	/* a fresh lane: nothing to do, its reserve block is free */
	RECOVER(7, ext + 7, ext + 7, 0);
	CHECK_INT(r.free_block, ext + 7);
	CHECK(!r.set_map && !r.zero_free);
	CHECK_INT(r.map_entry, 0);

	/* logged, map still identity (= old): finish the map update */
	RECOVER(5, 5, ext + 1, 0);
	CHECK_INT(r.free_block, 5);
	CHECK(r.set_map && !r.zero_free);
	CHECK_INT(r.map_entry, (ext + 1) | 0xc0000000u);
	/* identity entries ignore their low bits */
	RECOVER(5, 5, ext + 1, 0x00000009);
	CHECK(r.set_map);
	/* logged over a mapped entry, map still old */
	RECOVER(5, 0xc0000000u | 900, 901, 0xc0000000u | 900);
	CHECK_INT(r.free_block, 900);
	CHECK(r.set_map && !r.zero_free);
	CHECK_INT(r.map_entry, 901 | 0xc0000000u);

	/* map already updated, or moved on by a later write */
	RECOVER(5, 5, ext + 1, (ext + 1) | 0xc0000000u);
	CHECK(!r.set_map);
	CHECK_INT(r.map_entry, (ext + 1) | 0xc0000000u);
	CHECK_INT(r.free_block, 5);
	RECOVER(5, 5, ext + 1, 100 | 0xc0000000u);
	CHECK(!r.set_map);
	RECOVER(5, 5, ext + 1, 0);
	CHECK(r.set_map);
	RECOVER(6, 5, ext + 1, 0);	/* map[6] is identity 6, not 5 */
	CHECK(!r.set_map);

	/* old block known bad (E only): zero it before reuse */
	RECOVER(5, 5 | 0x40000000u, ext + 1, 5 | 0x40000000u);
	CHECK_INT(r.free_block, 5);
	CHECK(r.zero_free && r.set_map);
	CHECK_INT(r.map_entry, (ext + 1) | 0xc0000000u);
	RECOVER(5, 5 | 0x40000000u, ext + 1, (ext + 1) | 0xc0000000u);
	CHECK(r.zero_free && !r.set_map);
	RECOVER(5, 5 | 0x80000000u, ext + 1, 5 | 0x80000000u);
	CHECK(!r.zero_free && r.set_map);
	RECOVER(5, 5 | 0xc0000000u, ext + 1, 0);
	CHECK(!r.zero_free && r.set_map);
	/* flags are stripped before old and new are compared */
	RECOVER(5, 5 | 0x40000000u, 5, 0);
	CHECK(!r.set_map && r.zero_free);
	CHECK_INT(r.free_block, 5);
	/* the map entry is not looked at when it is not needed */
	RECOVER(7, ext + 7, ext + 7, 0xc0000000u | (ext + 7));
	CHECK(!r.set_map);

	/* the edges of the arena */
	RECOVER(ext - 1, in - 1, in - 2, 0xc0000000u | (in - 1));
	CHECK(r.set_map);
	CHECK_INT(r.map_entry, 0xc0000000u | (in - 2));

	/* out-of-range entries are a corrupt flog: nothing filled in */
#define RECOVER_BAD(lba_, old_, new_)					\
	do {								\
		e = (struct btt_flog_ent){ lba_, old_, new_, 2 };	\
		memset(&r, 0x44, sizeof(r));				\
		CHECK_INT(btt_flog_recover(&e, 0, &a, &r), -EINVAL);	\
		CHECK_INT(r.free_block, 0x44444444);			\
	} while (0)
	RECOVER_BAD(ext, 5, 6);
	RECOVER_BAD(U32_MAX_, 5, 6);
	RECOVER_BAD(5, in, 6);
	RECOVER_BAD(5, 6, in);
	RECOVER_BAD(5, 0xc0000000u | in, 6);
	RECOVER_BAD(5, 6, 0x3fffffff);
#undef RECOVER
#undef RECOVER_BAD
}

/* random damage to valid blocks: verdicts in range, invariants kept */
static void t_random_damage(void)
{
	static const u64 sizes[] = { 32 * MIB, 1 * GIB, 512 * GIB + 16 * MIB };
	u8 *b = info_new();
	u32 x = 777;
	unsigned int round, k, valid = 0;

	for (round = 0; round < 3000; round++) {
		u64 ns = sizes[round % 3], start = round & 8 ? 4096 : 0, raw;
		struct btt_arena a;
		enum btt_info_verdict v;
		unsigned int n;

		CHECK_INT(btt_rawsize(ns, start, &raw), 0);
		CHECK_INT(btt_arena_geometry(raw, lbasizes[round % 7].lbasize,
					     0, &a), 0);
		CHECK_INT(btt_info_build((struct btt_info *)b, &a, btt_uuid,
					 ns_uuid, start), 0);
		x = x * 1103515245 + 12345;
		n = 1 + (x >> 16) % 6;
		for (k = 0; k < n; k++) {
			x = x * 1103515245 + 12345;
			/* mostly the header, sometimes anywhere */
			b[(x >> 8) % (k & 1 ? 4096 : 120)] ^= 1u << (x >> 28 & 7);
		}
		if (round & 1)
			bb_reseal(b);
		v = check_at(b, ns, start, ns_uuid, 0, NULL);
		CHECK(v < BTT_INFO_NR_VERDICTS);
		valid += v == BTT_INFO_VALID;
	}
	printf("#   %u of 3000 damaged blocks still valid\n", valid);
	free(b);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "info block, flog slot and lane layout; constants (6.3, 6.6, 6.7)", t_struct_layout },
	{ "supported lbasizes, internal lbasize, sector size", t_lbasizes },
	{ "version per start offset; rawsize", t_version_and_rawsize },
	{ "worked examples of 6.5, row by row", t_worked_examples },
	{ "32 MiB v2.0 in every sector size", t_every_lbasize },
	{ "rawsize boundaries: 16 MiB - 1, 16 MiB, 16 MiB + 4 KiB", t_rawsize_boundaries },
	{ "multi-arena layouts: 512 GiB + 16 MiB, - 4 KiB, 1 TiB + 8 MiB, 1.5 TiB", t_multi_arena },
	{ "rawsize U64_MAX: 2^25 arenas, exact sums", t_huge_rawsize },
	{ "info block build matches the byte-wise builder", t_build_bytes },
	{ "info block checksum equals byte-wise Fletcher-64", t_checksum },
	{ "build -> check round trip, every arena, both versions", t_roundtrip },
	{ "signature, checksum, parent uuid, version failures", t_identity_failures },
	{ "geometry: each field one step out of range, and overflowing", t_geometry_tight },
	{ "geometry: combined fields and wrapping sums", t_geometry_combined },
	{ "geometry: arenas of a multi-arena BTT", t_geometry_multi },
	{ "verdict names and classes", t_verdicts },
	{ "map entries: Z bit 31, E bit 30, identity, normal", t_map_entries },
	{ "flog sequence pairs 0..3 x 0..3 and successor", t_seq_pairs },
	{ "flog slots and fresh lanes", t_flog_slots },
	{ "flog padding format detection (0,1) / (0,2)", t_flog_detect },
	{ "flog lane state through a sequence of writes", t_flog_lane_state },
	{ "attach-time recovery decisions (6.8)", t_flog_recover },
	{ "random damage keeps the invariants", t_random_damage },
};

int main(void)
{
	unsigned int i, n = sizeof(tests) / sizeof(tests[0]);
	unsigned int passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%u\n", n);
	for (i = 0; i < n; i++) {
		checks_failed = 0;
		tests[i].fn();
		if (checks_failed) {
			failed++;
			printf("not ok %u - btt: %s\n", i + 1, tests[i].name);
		} else {
			passed++;
			printf("ok %u - btt: %s\n", i + 1, tests[i].name);
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
