// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of kernel/nvdimm/label-format.c on crafted label areas
 * (media-formats.md sections 1 to 3 are the reference for every expected
 * value).  Every area is an exact-size heap buffer so that ASan catches
 * any access past it; every validation also checks that the area was not
 * modified.  Output is TAP, closed by an "N passed, N failed" line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/byteorder.h>

#include "label-format.h"
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
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_) {						\
			checks_failed++;				\
			printf("#   %s:%d: %s == %lld (%#llx), expected %lld (%#llx)\n", \
			       __FILE__, __LINE__, #got, g_,		\
			       (unsigned long long)g_, w_,		\
			       (unsigned long long)w_);			\
		}							\
	} while (0)

#define K128 (128 * KIB)
#define K256 (256 * KIB)

static u8 *area_new(u32 size)
{
	u8 *a = calloc(1, size ? size : 1);

	if (!a)
		abort();
	return a;
}

/* nd_lsa_validate() on @area, checking that it leaves the bytes alone */
static int validate(struct nd_lsa *lsa, u8 *area, u32 size)
{
	u8 *copy = malloc(size ? size : 1);
	int rc;

	memcpy(copy, area, size);
	memset(lsa, 0x5c, sizeof(*lsa));
	lsa->area = area;
	lsa->size = size;
	rc = nd_lsa_validate(lsa);
	CHECK(!memcmp(copy, area, size));
	CHECK_INT(rc, lsa->cur);
	if (rc >= 0) {
		CHECK_INT(lsa->next, 1 - rc);
	} else {
		/* no layout is left behind from the caller's struct */
		CHECK_INT(lsa->next, -1);
		CHECK_INT(lsa->isize, 0);
		CHECK_INT(lsa->lsize, 0);
	}
	free(copy);
	return rc;
}

/*
 * validate + next_prepare + available_slots, as the kernel does at bind,
 * on a copy of @area (preparing the next block rewrites it in memory)
 */
static u32 bind_slots(const u8 *area, u32 size, enum nd_lsa_version fresh)
{
	u8 *copy = area_new(size);
	struct nd_lsa lsa;
	u32 n;

	memcpy(copy, area, size);
	validate(&lsa, copy, size);
	nd_lsa_next_prepare(&lsa);
	n = nd_lsa_available_slots(&lsa, fresh);
	free(copy);
	return n;
}

static void t_fletcher_vectors(void)
{
	static const u8 v1[8] = { 1, 0, 0, 0, 2, 0, 0, 0 };
	static const u8 v2[12] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				   0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	u8 *area = area_new(K128);

	CHECK_INT(nd_fletcher64(v1, sizeof(v1), true), 0x0000000400000003ull);
	CHECK_INT(nd_fletcher64(v2, sizeof(v2), true), 0xfffffffafffffffdull);
	/* native order is little-endian here; tails under 4 bytes ignored */
	CHECK_INT(nd_fletcher64(v1, sizeof(v1), false), 0x0000000400000003ull);
	CHECK_INT(nd_fletcher64(v1, 7, true), 0x0000000100000001ull);
	CHECK_INT(nd_fletcher64(v1, 0, true), 0);

	/* index block 1 of nmem1.bin, checksum field zeroed */
	lb_nmem1(area);
	CHECK_INT(lb_get64(area + 256 + 64), 0xfa63492bd8313e05ull);
	memset(area + 256 + 64, 0, 8);
	CHECK_INT(nd_fletcher64(area + 256, 256, true), 0xfa63492bd8313e05ull);
	free(area);
}

static void t_fletcher_matches_reference(void)
{
	u8 buf[4096];
	unsigned int i, len;
	u32 x = 12345;

	for (i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245 + 12345;
		buf[i] = x >> 16;
	}
	for (len = 0; len <= sizeof(buf); len += 61)
		CHECK_INT(nd_fletcher64(buf, len, true),
			  lb_fletcher64(buf, len));
}

static void t_struct_sizes(void)
{
	CHECK_INT(sizeof(struct nd_lsa_index), 72);
	CHECK_INT(sizeof(struct nd_lsa_label), 256);
	CHECK_INT(offsetof(struct nd_lsa_index, labelsize), 19);
	CHECK_INT(offsetof(struct nd_lsa_index, seq), 20);
	CHECK_INT(offsetof(struct nd_lsa_index, nslot), 56);
	CHECK_INT(offsetof(struct nd_lsa_index, checksum), 64);
	CHECK_INT(offsetof(struct nd_lsa_label, flags), 80);
	CHECK_INT(offsetof(struct nd_lsa_label, isetcookie), 88);
	CHECK_INT(offsetof(struct nd_lsa_label, slot), 120);
	CHECK_INT(offsetof(struct nd_lsa_label, type_guid), 128);
	CHECK_INT(offsetof(struct nd_lsa_label, abstraction_guid), 144);
	CHECK_INT(offsetof(struct nd_lsa_label, checksum), 248);
}

static void t_index_size_formulas(void)
{
	/* media-formats 2.3 table */
	CHECK_INT(nd_lsa_index_size_v4x(K128), 256);
	CHECK_INT(nd_lsa_nslot_v4x(K128), 1016);
	CHECK_INT(nd_lsa_index_size(K128, 128), 256);
	CHECK_INT(nd_lsa_nslot(K128, 128), 1020);
	CHECK_INT(nd_lsa_index_size(K128, 256), 256);
	CHECK_INT(nd_lsa_nslot(K128, 256), 510);
	CHECK_INT(nd_lsa_index_size_v4x(K256), 768);
	CHECK_INT(nd_lsa_nslot_v4x(K256), 2032);
	CHECK_INT(nd_lsa_index_size(K256, 128), 512);
	CHECK_INT(nd_lsa_nslot(K256, 128), 2040);
	CHECK_INT(nd_lsa_index_size(K256, 256), 256);
	CHECK_INT(nd_lsa_nslot(K256, 256), 1022);

	/* the smallest areas: two index blocks and two labels */
	CHECK_INT(nd_lsa_index_size(768, 128), 256);
	CHECK_INT(nd_lsa_nslot(768, 128), 2);
	CHECK_INT(nd_lsa_index_size(767, 128), 0);
	CHECK_INT(nd_lsa_nslot(767, 128), 0);
	CHECK_INT(nd_lsa_index_size(1023, 256), 0);
	CHECK_INT(nd_lsa_index_size(1024, 256), 256);
	CHECK_INT(nd_lsa_index_size(0, 128), 0);
	CHECK_INT(nd_lsa_index_size(K128, 0), 0);
	CHECK_INT(nd_lsa_index_size_v4x(66047), 0);
	CHECK_INT(nd_lsa_index_size_v4x(66048), 256);
	/* 4 GiB - 1: no overflow, the bitmap fits */
	CHECK_INT(nd_lsa_index_size(0xffffffffu, 128), 4194560);
	CHECK(nd_lsa_nslot(0xffffffffu, 128) > 33000000);
}

static void t_fresh_layout(void)
{
	u32 i, l, n;

	CHECK_INT(nd_lsa_fresh_layout(K128, ND_LSA_V11, &i, &l, &n), 0);
	CHECK(i == 256 && l == 128 && n == 1016);
	CHECK_INT(nd_lsa_fresh_layout(K128, ND_LSA_V12, &i, &l, &n), 0);
	CHECK(i == 256 && l == 256 && n == 510);
	CHECK_INT(nd_lsa_fresh_layout(K256, ND_LSA_V11, &i, &l, &n), 0);
	CHECK(i == 768 && l == 128 && n == 2032);
	CHECK_INT(nd_lsa_fresh_layout(K256, ND_LSA_V12, &i, &l, &n), 0);
	CHECK(i == 256 && l == 256 && n == 1022);
	/* too small for the v4.x formula: modern layout */
	CHECK_INT(nd_lsa_fresh_layout(32 * KIB, ND_LSA_V11, &i, &l, &n), 0);
	CHECK(i == 256 && l == 128 && n == 252);
	CHECK_INT(nd_lsa_fresh_layout(700, ND_LSA_V11, &i, &l, &n), -22);
	CHECK_INT(nd_lsa_fresh_layout(1000, ND_LSA_V12, &i, &l, &n), -22);
}

static void t_seq_rules(void)
{
	/* successor: 0->0, 1->2, 2->3, 3->1, high bits ignored */
	CHECK_INT(nd_lsa_seq_next(0), 0);
	CHECK_INT(nd_lsa_seq_next(1), 2);
	CHECK_INT(nd_lsa_seq_next(2), 3);
	CHECK_INT(nd_lsa_seq_next(3), 1);
	CHECK_INT(nd_lsa_seq_next(0x7), 1);
	CHECK_INT(nd_lsa_seq_next(0x4), 0);

	/* media-formats 2.6, every pair */
	CHECK_INT(nd_lsa_best_seq(0, 0), 1);
	CHECK_INT(nd_lsa_best_seq(0, 2), 1);
	CHECK_INT(nd_lsa_best_seq(2, 0), 0);
	CHECK_INT(nd_lsa_best_seq(1, 1), 1);
	CHECK_INT(nd_lsa_best_seq(2, 2), 1);
	CHECK_INT(nd_lsa_best_seq(3, 3), 1);
	CHECK_INT(nd_lsa_best_seq(1, 2), 1);
	CHECK_INT(nd_lsa_best_seq(2, 3), 1);
	CHECK_INT(nd_lsa_best_seq(3, 1), 1);
	CHECK_INT(nd_lsa_best_seq(2, 1), 0);
	CHECK_INT(nd_lsa_best_seq(3, 2), 0);
	CHECK_INT(nd_lsa_best_seq(1, 3), 0);
	/* only the low two bits count */
	CHECK_INT(nd_lsa_best_seq(0x13, 0x21), 1);
	CHECK_INT(nd_lsa_best_seq(0x7, 0x6), 0);
	CHECK_INT(nd_lsa_best_seq(0x5, 0x1), 1);	/* a tie: 1 and 1 */
	CHECK_INT(nd_lsa_best_seq(0x4, 0x2), 1);	/* block 0 invalid */
	CHECK_INT(nd_lsa_best_seq(0x6, 0x3), 1);	/* 2 -> 3 */
}

static void t_nmem1_example(void)
{
	u8 *area = area_new(K128);
	const struct nd_lsa_label *l;
	struct nd_lsa lsa;
	u32 s;

	lb_nmem1(area);
	CHECK_INT(validate(&lsa, area, K128), 1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_SEQ);
	CHECK_INT(lsa.verdict[1], ND_LSA_VALID);
	CHECK_INT(lsa.isize, 256);
	CHECK_INT(lsa.lsize, 128);
	CHECK_INT(nd_lsa_index_nslot(nd_lsa_index(&lsa, 1)), 1016);
	CHECK(nd_lsa_index_is_v11(nd_lsa_index(&lsa, 1)));
	/* bitmap: first byte 0xfe, 1016 bits, then a zero byte */
	CHECK_INT(area[256 + 72], 0xfe);
	CHECK_INT(area[256 + 72 + 127], 0);
	CHECK_INT(nd_lsa_nfree(nd_lsa_index(&lsa, 1)), 1015);
	CHECK_INT(nd_lsa_first_free(nd_lsa_index(&lsa, 1)), 1);

	CHECK(nd_lsa_label_live(&lsa, 0));
	for (s = 1; s < 1016; s++)
		if (nd_lsa_label_live(&lsa, s))
			break;
	CHECK_INT(s, 1016);
	l = nd_lsa_label(&lsa, 0);
	CHECK_INT((u8 *)l - area, 0x200);
	CHECK_INT(l->uuid[0], 0x68);
	CHECK_INT(l->uuid[15], 0xd6);
	CHECK_INT(le32_to_cpu(l->flags), ND_LSA_FLAG_UPDATING);
	CHECK_INT(le16_to_cpu(l->nlabel), 4);
	CHECK_INT(le16_to_cpu(l->position), 0);
	CHECK_INT(le64_to_cpu(l->isetcookie), 0x0803f6d70100fefbull);
	CHECK_INT(le64_to_cpu(l->dpa), 0x1000000);
	CHECK_INT(le64_to_cpu(l->rawsize), 0x1000000);

	nd_lsa_next_prepare(&lsa);
	CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V12), 1014);
	free(area);
}

static void t_ndctl_v11_128k(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa;

	lb_ndctl_init(area, K128, 128);
	/* ndctl sets the padding bits up to 1024: only 1020 count */
	CHECK_INT(area[72 + 127], 0xff);
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(lsa.verdict[0], ND_LSA_VALID);
	CHECK_INT(lsa.verdict[1], ND_LSA_VALID);
	CHECK(lsa.isize == 256 && lsa.lsize == 128);
	CHECK(nd_lsa_index_is_v11(nd_lsa_index(&lsa, 0)));
	CHECK_INT(nd_lsa_nfree(nd_lsa_index(&lsa, 0)), 1020);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V12), 1019);
	free(area);
}

static void t_ndctl_v12_128k(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa;

	lb_ndctl_init(area, K128, 256);
	CHECK_INT(area[19], 1);		/* labelsize byte */
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK(lsa.isize == 256 && lsa.lsize == 256);
	CHECK(!nd_lsa_index_is_v11(nd_lsa_index(&lsa, 0)));
	CHECK_INT(bind_slots(area, K128, ND_LSA_V11), 509);
	free(area);
}

static void t_256k_layouts(void)
{
	u8 *area = area_new(K256);
	struct nd_lsa lsa;

	lb_ndctl_init(area, K256, 128);
	CHECK_INT(validate(&lsa, area, K256), 0);
	CHECK(lsa.isize == 512 && lsa.lsize == 128);
	CHECK_INT(bind_slots(area, K256, ND_LSA_V12), 2039);

	memset(area, 0, K256);
	lb_ndctl_init(area, K256, 256);
	CHECK_INT(validate(&lsa, area, K256), 0);
	CHECK(lsa.isize == 256 && lsa.lsize == 256);
	CHECK_INT(bind_slots(area, K256, ND_LSA_V12), 1021);

	/* v4.x kernels' layout: 768-byte blocks, 2032 slots; accepted too */
	memset(area, 0, K256);
	lb_v4x_init(area, K256);
	CHECK_INT(validate(&lsa, area, K256), 0);
	CHECK(lsa.isize == 768 && lsa.lsize == 128);
	CHECK_INT(bind_slots(area, K256, ND_LSA_V12), 2031);
	/* ... only with its own block size */
	CHECK_INT(nd_lsa_check_index(area, K256, 512, 128, 0),
		  ND_LSA_BAD_CHECKSUM);
	CHECK_INT(nd_lsa_check_index(area, K256, 768, 128, 0), ND_LSA_VALID);
	free(area);
}

static void t_one_block_corrupt(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa;
	u32 before;

	/* garbage over block 0 (what the guest test writes) */
	lb_ndctl_init(area, K128, 256);
	before = bind_slots(area, K128, ND_LSA_V12);
	memset(area, 0xa5, 256);
	CHECK_INT(validate(&lsa, area, K128), 1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_SIG);
	CHECK_INT(lsa.verdict[1], ND_LSA_VALID);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V12), before);

	/* one flipped bit in block 1's bitmap: block 0 wins */
	lb_ndctl_init(area, K128, 128);
	area[256 + 100] ^= 0x10;
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(lsa.verdict[1], ND_LSA_BAD_CHECKSUM);

	/* the current block (0, seq 3) broken: the older one takes over */
	lb_ndctl_init(area, K128, 128);
	lb_use_slot(area, 256, 0, 5);
	area[72 + 1] ^= 0x01;
	CHECK_INT(validate(&lsa, area, K128), 1);
	nd_lsa_next_prepare(&lsa);
	CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V12), 1019);
	free(area);
}

static void t_both_corrupt(void)
{
	u8 *area = area_new(K128);
	u8 *copy = area_new(K128);
	struct nd_lsa lsa;

	lb_ndctl_init(area, K128, 256);
	memset(area, 0xa5, 512);
	memcpy(copy, area, K128);
	CHECK_INT(validate(&lsa, area, K128), -1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_SIG);
	CHECK_INT(lsa.verdict[1], ND_LSA_BAD_SIG);
	nd_lsa_next_prepare(&lsa);		/* no-op */
	CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V12), 509);
	CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V11), 1015);
	CHECK(!nd_lsa_label_live(&lsa, 0));
	CHECK(!memcmp(area, copy, K128));

	/* damaged differently: the verdicts say how far each block got */
	lb_ndctl_init(area, K128, 256);
	area[100] ^= 1;				/* block 0: checksum */
	lb_put32(area + 256 + 20, 4);		/* block 1: seq 0 ... */
	lb_reseal_index(area, 256, 1);		/* ... with a good checksum */
	CHECK_INT(validate(&lsa, area, K128), -1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_CHECKSUM);
	CHECK_INT(lsa.verdict[1], ND_LSA_BAD_SEQ);

	/* blank area */
	memset(area, 0, K128);
	CHECK_INT(validate(&lsa, area, K128), -1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_SIG);
	free(copy);
	free(area);
}

static void t_seq_choice_on_media(void)
{
	static const struct {
		u32 s0, s1;
		int cur;
	} cases[] = {
		{ 3, 2, 0 }, { 2, 3, 1 }, { 1, 3, 0 }, { 3, 1, 1 },
		{ 1, 2, 1 }, { 2, 1, 0 }, { 1, 1, 1 }, { 2, 2, 1 },
		{ 3, 3, 1 }, { 0x13, 0x2, 0 }, { 0xff, 0x101, 1 },
		{ 0x101, 0x1, 1 }, { 0x102, 0x1, 0 },
	};
	u8 *area = area_new(K128);
	struct lb_index ix;
	struct nd_lsa lsa;
	unsigned int i;
	int b;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (b = 0; b < 2; b++) {
			ix = lb_index_std(256, b, b ? cases[i].s1 : cases[i].s0,
					  510, 2, 1);
			lb_put_index(area, 256, b, &ix);
		}
		CHECK_INT(validate(&lsa, area, K128), cases[i].cur);
	}

	/* seq 4 (low bits 0) is invalid even with a good checksum */
	ix = lb_index_std(256, 0, 4, 510, 2, 1);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(validate(&lsa, area, K128), 1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_SEQ);
	free(area);
}

static void t_offsets_and_sizes(void)
{
	u8 *area = area_new(K128);
	struct lb_index ix;
	struct nd_lsa lsa;

	lb_ndctl_init(area, K128, 128);

	ix = lb_index_std(256, 0, 3, 1020, 1, 0);
	ix.myoff = 256;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_OFFSETS);

	ix = lb_index_std(256, 0, 3, 1020, 1, 0);
	ix.otheroff = 0;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_OFFSETS);

	ix = lb_index_std(256, 1, 2, 1020, 1, 0);
	ix.labeloff = 256;
	lb_put_index(area, 256, 1, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 1),
		  ND_LSA_BAD_OFFSETS);

	/* block 1's own header copied into block 0: myoff says 256 */
	lb_ndctl_init(area, K128, 128);
	memcpy(area, area + 256, 256);
	CHECK_INT(validate(&lsa, area, K128), 1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_OFFSETS);

	/* mysize below the header, above the block, at the bounds */
	ix = lb_index_std(256, 0, 3, 1020, 1, 0);
	ix.mysize = 71;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_MYSIZE);
	ix.mysize = 257;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_MYSIZE);
	ix.mysize = 72;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0), ND_LSA_VALID);

	/* geometry that does not fit the area, bad block numbers */
	CHECK_INT(nd_lsa_check_index(area, 400, 256, 128, 0), ND_LSA_BAD_SIG);
	CHECK_INT(nd_lsa_check_index(area, K128, 100, 128, 0), ND_LSA_BAD_SIG);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 64, 0), ND_LSA_BAD_SIG);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 2), ND_LSA_BAD_SIG);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, -1),
		  ND_LSA_BAD_SIG);
	free(area);
}

static void t_nslot_overflow(void)
{
	u8 *area = area_new(K128);
	struct lb_index ix;

	/* exactly fills the area: 1020 * 128 + 512 = 128 KiB */
	ix = lb_index_std(256, 0, 3, 1020, 1, 0);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0), ND_LSA_VALID);
	ix.nslot = 1021;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_NSLOT);
	/* would wrap a 32-bit product */
	ix.nslot = 0x02000001;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_NSLOT);
	ix.nslot = 0xffffffff;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_NSLOT);
	/* v1.2: 510 fits, 511 does not */
	ix = lb_index_std(256, 1, 2, 510, 2, 1);
	lb_put_index(area, 256, 1, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 1), ND_LSA_VALID);
	ix.nslot = 511;
	lb_put_index(area, 256, 1, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 1),
		  ND_LSA_BAD_NSLOT);
	/* nslot 0 is legal (6.1 accepts it); nothing is available */
	ix = lb_index_std(256, 0, 3, 0, 1, 0);
	lb_put_index(area, 256, 0, &ix);
	memset(area + 256, 0, 256);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V12), 0);
	free(area);
}

static void t_labelsize_rules(void)
{
	u8 *area = area_new(K128);
	struct lb_index ix;
	struct nd_lsa lsa;

	/* v1.2 with labelsize 2: neither layout */
	ix = lb_index_std(256, 0, 3, 510, 2, 2);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0),
		  ND_LSA_BAD_LABELSIZE);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 0),
		  ND_LSA_BAD_LABELSIZE);
	/* labelsize 0xff would be a huge shift */
	ix.labelsize = 0xff;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 0),
		  ND_LSA_BAD_LABELSIZE);
	/* v1.2 with labelsize 0: 128-byte labels */
	ix = lb_index_std(256, 0, 3, 1020, 2, 0);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0), ND_LSA_VALID);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 0),
		  ND_LSA_BAD_LABELSIZE);
	/* v1.1: the labelsize byte is part of flags and not looked at */
	ix = lb_index_std(256, 0, 3, 1020, 1, 1);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 0), ND_LSA_VALID);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 0),
		  ND_LSA_BAD_LABELSIZE);
	/* v2.0 counts as >= 1.2 */
	ix = lb_index_std(256, 0, 3, 510, 0, 1);
	ix.major = 2;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 256, 0), ND_LSA_VALID);

	/* v1.1 block 0 and v1.2 block 1: the 128-byte layout comes first */
	memset(area, 0, K128);
	ix = lb_index_std(256, 0, 2, 1020, 1, 0);
	lb_put_index(area, 256, 0, &ix);
	ix = lb_index_std(256, 1, 3, 510, 2, 1);
	lb_put_index(area, 256, 1, &ix);
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(lsa.lsize, 128);
	CHECK_INT(lsa.verdict[1], ND_LSA_BAD_LABELSIZE);
	free(area);
}

static void t_label_slots(void)
{
	u8 *area = area_new(K128);
	struct lb_label l = { .uuid = { 1, 2, 3 }, .name = "ns", .nlabel = 1,
			      .dpa = 0x1000, .rawsize = 0x400000 };
	struct nd_lsa_label *p;
	struct nd_lsa lsa;
	u8 blk[256];

	/* v1.2: slots 0 and 3 in use */
	lb_ndctl_init(area, K128, 256);
	lb_use_slot(area, 256, 0, 0);
	lb_use_slot(area, 256, 0, 3);
	l.slot = 0;
	lb_put_label(area, 256, 256, 0, &l);
	l.slot = 3;
	lb_put_label(area, 256, 256, 3, &l);
	l.slot = 1;			/* written, but its slot is free */
	lb_put_label(area, 256, 256, 1, &l);
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK(nd_lsa_label_live(&lsa, 0));
	CHECK(!nd_lsa_label_live(&lsa, 1));
	CHECK(!nd_lsa_label_live(&lsa, 2));
	CHECK(nd_lsa_label_live(&lsa, 3));
	CHECK(!nd_lsa_label_live(&lsa, 510));
	CHECK(!nd_lsa_label_live(&lsa, 0xffffffff));
	CHECK_INT(nd_lsa_first_free(nd_lsa_index(&lsa, 0)), 1);
	CHECK_INT(nd_lsa_nfree(nd_lsa_index(&lsa, 0)), 508);

	/* bad checksum */
	area[512 + 3 * 256 + 40] ^= 0x20;
	CHECK(!nd_lsa_label_live(&lsa, 3));
	/* fixed by sealing */
	p = nd_lsa_label(&lsa, 3);
	CHECK((u8 *)p == area + 512 + 3 * 256);
	nd_lsa_label_seal(p, 256);
	CHECK(nd_lsa_label_live(&lsa, 3));
	memcpy(blk, p, 256);
	memset(blk + 248, 0, 8);
	CHECK_INT(le64_to_cpu(p->checksum), lb_fletcher64(blk, 256));
	/* a label naming another slot */
	p->slot = cpu_to_le32(4);
	nd_lsa_label_seal(p, 256);
	CHECK(!nd_lsa_label_live(&lsa, 3));

	/* v1.1: no checksum, any content with the right slot number */
	memset(area, 0, K128);
	lb_ndctl_init(area, K128, 128);
	lb_use_slot(area, 256, 0, 7);
	l.slot = 7;
	lb_put_label(area, 256, 128, 7, &l);
	area[512 + 7 * 128 + 40] ^= 0x20;
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK(nd_lsa_label_live(&lsa, 7));
	CHECK((u8 *)nd_lsa_label(&lsa, 7) == area + 512 + 7 * 128);
	memcpy(blk, area + 512 + 7 * 128, 256);
	nd_lsa_label_seal(nd_lsa_label(&lsa, 7), 128);	/* no-op */
	CHECK(!memcmp(blk, area + 512 + 7 * 128, 256));
	free(area);
}

static void check_fresh_block(const u8 *area, u32 isize, int which, u32 seq,
			      u32 nslot, u16 minor, u8 labelsize)
{
	const u8 *b = area + (size_t)which * isize;
	u8 blk[1024];
	u32 i;

	CHECK(!memcmp(b, "NAMESPACE_INDEX", 16));
	CHECK_INT(b[16] | b[17] | b[18], 0);
	CHECK_INT(b[19], labelsize);
	CHECK_INT(lb_get32(b + 20), seq);
	CHECK_INT(lb_get64(b + 24), (u64)which * isize);
	CHECK_INT(lb_get64(b + 32), isize);
	CHECK_INT(lb_get64(b + 40), (u64)(1 - which) * isize);
	CHECK_INT(lb_get64(b + 48), 2 * (u64)isize);
	CHECK_INT(lb_get32(b + 56), nslot);
	CHECK_INT(b[60] | b[61] << 8, 1);
	CHECK_INT(b[62] | b[63] << 8, minor);
	for (i = 0; i < (isize - 72) * 8; i++)
		if (!!(b[72 + i / 8] & (1 << (i % 8))) != (i < nslot))
			break;
	CHECK_INT(i, (isize - 72) * 8);
	memcpy(blk, b, isize);
	memset(blk + 64, 0, 8);
	CHECK_INT(lb_get64(b + 64), lb_fletcher64(blk, isize));
}

static void t_init_fresh(void)
{
	u8 *area = area_new(K256);
	struct nd_lsa lsa = { .area = area, .size = K128 };
	struct nd_lsa check;
	u32 i;

	/* v1.1, v4.x formula; label slots untouched */
	memset(area, 0x5a, K256);
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V11), 0);
	CHECK(lsa.cur == 0 && lsa.next == 1);
	CHECK(lsa.isize == 256 && lsa.lsize == 128);
	check_fresh_block(area, 256, 0, 3, 1016, 1, 0);
	check_fresh_block(area, 256, 1, 2, 1016, 1, 0);
	for (i = 512; i < K128; i++)
		if (area[i] != 0x5a)
			break;
	CHECK_INT(i, K128);
	CHECK_INT(validate(&check, area, K128), 0);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V11), 1015);

	/* v1.2, modern formula */
	memset(area, 0, K256);
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V12), 0);
	check_fresh_block(area, 256, 0, 3, 510, 2, 1);
	check_fresh_block(area, 256, 1, 2, 510, 2, 1);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V11), 509);

	/* 256 KiB: v4.x blocks of 768 bytes */
	lsa.size = K256;
	memset(area, 0, K256);
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V11), 0);
	check_fresh_block(area, 768, 0, 3, 2032, 1, 0);
	CHECK_INT(bind_slots(area, K256, ND_LSA_V11), 2031);
	memset(area, 0, K256);
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V12), 0);
	check_fresh_block(area, 256, 1, 2, 1022, 2, 1);
	CHECK_INT(bind_slots(area, K256, ND_LSA_V11), 1021);

	/* too small */
	lsa.size = 600;
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V11), -22);
	free(area);
}

/*
 * nd_lsa_init_layout(): the geometry libndctl's init-labels writes (the
 * modern formula for both label sizes, as ndctl has it) and the
 * geometries it must refuse without touching the area or @lsa.
 */
static void t_init_layout(void)
{
	static const struct {
		u32 isize, lsize, nslot;
	} bad[] = {
		{ 256, 200, 1020 },	/* label size */
		{ 256, 64, 1020 },	/* label size; would fit the area */
		{ 300, 128, 900 },	/* index not 256-aligned; would fit */
		{ 0, 128, 1020 },	/* no index */
		{ 300, 128, 1020 },	/* index not 256-aligned */
		{ 256, 128, 1 },	/* one slot */
		{ 256, 128, 1500 },	/* bitmap past the block (and area) */
		{ 512, 128, 1017 },	/* slots past the area by one */
		{ 256, 256, 511 },
		{ 0x80000000u, 128, 2 },	/* u32 overflow of 2 * isize */
	};
	u8 *area = area_new(K128), *copy = area_new(K128);
	struct nd_lsa lsa = { .area = area, .size = K128 };
	struct nd_lsa check;
	unsigned int i;

	/* libndctl's v1.1: modern formula, 1020 slots, padding bits clear */
	memset(area, 0x5a, K128);
	lsa.cur = -1;
	lsa.next = -1;
	lsa.verdict[0] = ND_LSA_BAD_SIG;
	lsa.verdict[1] = ND_LSA_BAD_CHECKSUM;
	CHECK_INT(nd_lsa_init_layout(&lsa, nd_lsa_index_size(K128, 128), 128,
				     nd_lsa_nslot(K128, 128)), 0);
	CHECK(lsa.cur == 0 && lsa.next == 1);
	CHECK(lsa.verdict[0] == ND_LSA_VALID &&
	      lsa.verdict[1] == ND_LSA_VALID);
	CHECK(lsa.isize == 256 && lsa.lsize == 128);
	check_fresh_block(area, 256, 0, 3, 1020, 1, 0);
	check_fresh_block(area, 256, 1, 2, 1020, 1, 0);
	CHECK_INT(area[512], 0x5a);
	CHECK_INT(validate(&check, area, K128), 0);
	CHECK(check.isize == 256 && check.lsize == 128);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V11), 1019);

	/* libndctl's v1.2: what nd_lsa_init(ND_LSA_V12) writes too */
	CHECK_INT(nd_lsa_init_layout(&lsa, 256, 256, 510), 0);
	check_fresh_block(area, 256, 0, 3, 510, 2, 1);
	check_fresh_block(area, 256, 1, 2, 510, 2, 1);
	memcpy(copy, area, K128);
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V12), 0);
	CHECK(!memcmp(copy, area, K128));

	/* a geometry that fills the area exactly */
	CHECK_INT(nd_lsa_init_layout(&lsa, 512, 128, 1016), 0);
	check_fresh_block(area, 512, 1, 2, 1016, 1, 0);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nd_lsa before;

		memset(area, 0x5a, K128);
		lsa.cur = -1;
		lsa.next = -1;
		lsa.isize = 4096;
		before = lsa;
		CHECK_INT(nd_lsa_init_layout(&lsa, bad[i].isize, bad[i].lsize,
					     bad[i].nslot), -22);
		CHECK(!memcmp(&before, &lsa, sizeof(lsa)));
		CHECK_INT(area[0], 0x5a);
		CHECK_INT(area[256], 0x5a);
	}
	free(copy);
	free(area);
}

static void t_next_update_cycle(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa = { .area = area, .size = K128 };
	struct nd_lsa check;
	struct nd_lsa_index *next;
	u32 seq_expect[] = { 1, 2, 3, 1, 2, 3, 1 };
	unsigned int round;
	u32 slot;

	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V12), 0);
	nd_lsa_next_prepare(&lsa);
	for (round = 0; round < 7; round++) {
		int old_cur = lsa.cur;

		next = nd_lsa_index(&lsa, lsa.next);
		slot = nd_lsa_first_free(next);
		CHECK_INT(slot, round);
		nd_lsa_slot_set_free(next, slot, false);
		CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V12),
			  508 - round);
		nd_lsa_next_seal(&lsa);
		CHECK_INT(lb_get32((u8 *)next + 20), seq_expect[round]);
		/* the media now has both blocks valid: the sealed one wins */
		CHECK_INT(validate(&check, area, K128), 1 - old_cur);
		CHECK(check.verdict[0] == ND_LSA_VALID &&
		      check.verdict[1] == ND_LSA_VALID);
		nd_lsa_switch(&lsa);
		CHECK_INT(lsa.cur, 1 - old_cur);
		CHECK(!memcmp(nd_lsa_index(&lsa, lsa.next)->free,
			      nd_lsa_index(&lsa, lsa.cur)->free, 256 - 72));
	}
	/* freeing a slot again */
	next = nd_lsa_index(&lsa, lsa.next);
	nd_lsa_slot_set_free(next, 3, true);
	nd_lsa_next_seal(&lsa);
	CHECK_INT(validate(&check, area, K128), lsa.next);
	CHECK_INT(nd_lsa_first_free(nd_lsa_index(&check, check.cur)), 3);

	/*
	 * sealing keeps the bitmap padding ndctl left set, as 6.1 does (the
	 * stock/ours label-area comparison of ns-interop showed it)
	 */
	lb_ndctl_init(area, K128, 128);
	CHECK_INT(validate(&lsa, area, K128), 0);
	nd_lsa_next_prepare(&lsa);
	CHECK_INT(area[256 + 72 + 127], 0xff);
	nd_lsa_next_seal(&lsa);
	CHECK_INT(area[256 + 72 + 127], 0xff);
	CHECK_INT(lb_get32(area + 256 + 20), 1);
	CHECK_INT(validate(&check, area, K128), 1);

	/* no valid index: prepare, seal and switch do nothing */
	memset(area, 0, K128);
	CHECK_INT(validate(&lsa, area, K128), -1);
	nd_lsa_next_prepare(&lsa);
	nd_lsa_next_seal(&lsa);
	nd_lsa_switch(&lsa);
	CHECK_INT(lsa.cur, -1);
	for (slot = 0; slot < K128; slot++)
		if (area[slot])
			break;
	CHECK_INT(slot, K128);
	free(area);
}

static void t_tiny_areas(void)
{
	u32 sizes[] = { 0, 1, 72, 255, 256, 511, 512, 767, 768, 1023, 1024,
			1025, 4096 };
	struct nd_lsa lsa;
	unsigned int i;
	u8 *area;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		area = area_new(sizes[i]);
		memset(area, 0xff, sizes[i]);
		CHECK_INT(validate(&lsa, area, sizes[i]), -1);
		free(area);
	}
	/* blank and too small for either fresh layout: nothing available */
	area = area_new(700);
	CHECK_INT(bind_slots(area, 700, ND_LSA_V11), 0);
	CHECK_INT(bind_slots(area, 700, ND_LSA_V12), 0);
	free(area);
	area = area_new(1000);
	CHECK_INT(bind_slots(area, 1000, ND_LSA_V12), 0);
	CHECK_INT(bind_slots(area, 1000, ND_LSA_V11), 2);	/* 3 modern slots */
	free(area);
	/* the smallest v1.1 area works end to end */
	area = area_new(768);
	lsa.area = area;
	lsa.size = 768;
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V11), 0);
	CHECK_INT(validate(&lsa, area, 768), 0);
	CHECK_INT(nd_lsa_index_nslot(nd_lsa_index(&lsa, 0)), 2);
	CHECK_INT(bind_slots(area, 768, ND_LSA_V11), 1);
	free(area);
}

static void t_verdict_names(void)
{
	int v;

	for (v = ND_LSA_BAD_SIG; v <= ND_LSA_VALID; v++)
		CHECK(nd_lsa_verdict_name(v) && *nd_lsa_verdict_name(v));
	CHECK(!strcmp(nd_lsa_verdict_name(ND_LSA_BAD_CHECKSUM),
		      "bad checksum"));
	/* out of range: a name still, never NULL */
	CHECK(nd_lsa_verdict_name(ND_LSA_VALID + 1) &&
	      !strcmp(nd_lsa_verdict_name(ND_LSA_VALID + 1), "?"));
	CHECK(nd_lsa_verdict_name(-1) && *nd_lsa_verdict_name(-1));
}

/* pseudo-random damage to valid areas: no crash, invariants hold */
static void t_random_damage(void)
{
	u32 sizes[] = { K128, K256, 2048, 66048 };
	u32 x = 4242;
	unsigned int round, k;
	struct nd_lsa lsa;

	for (round = 0; round < 400; round++) {
		u32 size = sizes[round % 4];
		u8 *area = area_new(size);
		u32 s;

		if (round % 3 == 0)
			lb_ndctl_init(area, size, 128);
		else if (round % 3 == 1 && size >= 2048)
			lb_ndctl_init(area, size, 256);
		else if (size >= 66048)
			lb_v4x_init(area, size);
		for (k = 0; k < 1 + round % 5; k++) {
			x = x * 1103515245 + 12345;
			area[(x >> 8) % 1024 % size] ^= 1 << (x % 8);
		}
		if (round & 1) {	/* keep the checksums right */
			lb_reseal_index(area, nd_lsa_index_size(size, 128), 0);
			lb_reseal_index(area, nd_lsa_index_size(size, 128), 1);
		}
		if (validate(&lsa, area, size) >= 0) {
			const struct nd_lsa_index *ix = nd_lsa_index(&lsa,
								     lsa.cur);

			CHECK_INT(nd_lsa_check_index(area, size, lsa.isize,
						     lsa.lsize, lsa.cur),
				  ND_LSA_VALID);
			CHECK(nd_lsa_nfree(ix) <= nd_lsa_index_nslot(ix));
			for (s = 0; s < nd_lsa_index_nslot(ix); s++)
				(void)nd_lsa_label_live(&lsa, s);
			nd_lsa_next_prepare(&lsa);
			CHECK(nd_lsa_available_slots(&lsa, ND_LSA_V12) <
			      nd_lsa_index_nslot(ix) + 1);
		}
		free(area);
	}
}

/*
 * The boundary area sizes where the bitmap fills the 256-byte block
 * exactly (188,416 bytes: 1472 bits, 72 + 184 = 256) and needs one more
 * byte (188,544 bytes: 1473 bits, 72 + 185 = 257 -> 512).
 */
static void t_index_size_boundaries(void)
{
	u32 i, l, n;

	CHECK_INT(nd_lsa_index_size(188416, 128), 256);
	CHECK_INT(nd_lsa_nslot(188416, 128), 1468);
	CHECK_INT(nd_lsa_index_size(188544, 128), 512);
	CHECK_INT(nd_lsa_nslot(188544, 128), 1465);
	CHECK_INT(nd_lsa_index_size(188415, 128), 256);	/* 1471 bits */
	/* the same bit counts with 256-byte labels */
	CHECK_INT(nd_lsa_index_size(1472 * 256, 256), 256);
	CHECK_INT(nd_lsa_index_size(1473 * 256, 256), 512);
	CHECK_INT(nd_lsa_fresh_layout(188544, ND_LSA_V12, &i, &l, &n), 0);
	CHECK(i == 256 && l == 256 && n == 734);

	/* the two boundary sizes as ndctl lays them out validate as such */
	{
		u8 *area = area_new(188544);
		struct nd_lsa lsa;

		lb_ndctl_init(area, 188416, 128);
		CHECK_INT(validate(&lsa, area, 188416), 0);
		CHECK(lsa.isize == 256 && lsa.lsize == 128);
		CHECK_INT(bind_slots(area, 188416, ND_LSA_V12), 1467);
		memset(area, 0, 188544);
		lb_ndctl_init(area, 188544, 128);
		CHECK_INT(validate(&lsa, area, 188544), 0);
		CHECK(lsa.isize == 512 && lsa.lsize == 128);
		CHECK_INT(bind_slots(area, 188544, ND_LSA_V12), 1464);
		free(area);
	}
}

/* nslot whose bitmap needs exactly one byte more than the block has */
static void t_nslot_bitmap_bound(void)
{
	u8 *area = area_new(K256);
	struct lb_index ix;
	struct nd_lsa lsa = { .area = area, .size = K256 };

	/* 1472 slots: 184 bitmap bytes, 72 + 184 = 256 fits */
	ix = lb_index_std(256, 0, 3, 1472, 1, 0);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K256, 256, 128, 0), ND_LSA_VALID);
	/* 1473 slots would need a 257th byte, though the slots fit */
	ix.nslot = 1473;
	ix.bitmap_bits = 1472;
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(nd_lsa_check_index(area, K256, 256, 128, 0),
		  ND_LSA_BAD_NSLOT);
	/* nd_lsa_init_layout() refuses that geometry too */
	CHECK_INT(nd_lsa_init_layout(&lsa, 256, 128, 1473), -22);
	CHECK_INT(nd_lsa_init_layout(&lsa, 256, 128, 1472), 0);
	CHECK_INT(nd_lsa_index_nslot(nd_lsa_index(&lsa, 0)), 1472);
	free(area);
}

/* a slot number equal to nslot is outside the label set */
static void t_slot_equal_nslot(void)
{
	u8 *area = area_new(K128);
	struct lb_label l = { .uuid = { 9 }, .name = "x", .nlabel = 1,
			      .dpa = 0x1000, .rawsize = 0x400000 };
	struct nd_lsa lsa;

	/*
	 * v4.x layout: 1016 slots, bit 1016 clear (in use), and room in
	 * the area for a 1017th label that names slot 1016
	 */
	lb_v4x_init(area, K128);
	l.slot = 1016;
	lb_put_label(area, 256, 128, 1016, &l);
	l.slot = 1015;
	lb_use_slot(area, 256, 0, 1015);
	lb_put_label(area, 256, 128, 1015, &l);
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(nd_lsa_index_nslot(nd_lsa_index(&lsa, 0)), 1016);
	CHECK(!nd_lsa_slot_is_free(nd_lsa_index(&lsa, 0), 1016));
	CHECK(nd_lsa_label_live(&lsa, 1015));
	CHECK(!nd_lsa_label_live(&lsa, 1016));
	CHECK(!nd_lsa_label_live(&lsa, 1017));
	free(area);
}

/*
 * An area valid in two layouts: the documented order decides.  Block 0
 * is a v4.x (768-byte, v1.1) block; inside its bitmap's padding sits a
 * valid v1.2 block 1 of the 256-byte layout.  The v4.x layout is tried
 * first, so block 0 of it is current.
 */
static void t_layout_order(void)
{
	u8 *area = area_new(K256);
	struct lb_index ix;
	struct nd_lsa lsa;

	ix = lb_index_std(768, 0, 3, 2032, 1, 0);
	ix.bitmap_bits = 0;
	lb_put_index(area, 768, 0, &ix);
	ix = lb_index_std(256, 1, 2, 1022, 2, 1);
	ix.bitmap_bits = 0;
	lb_put_index(area, 256, 1, &ix);
	lb_reseal_index(area, 768, 0);
	CHECK_INT(nd_lsa_check_index(area, K256, 768, 128, 0), ND_LSA_VALID);
	CHECK_INT(nd_lsa_check_index(area, K256, 256, 256, 1), ND_LSA_VALID);
	CHECK_INT(validate(&lsa, area, K256), 0);
	CHECK_INT(lsa.isize, 768);
	CHECK_INT(lsa.lsize, 128);
	CHECK_INT(lsa.verdict[0], ND_LSA_VALID);
	free(area);
}

/*
 * nd_lsa_check_index() called directly with a geometry of the caller's:
 * two blocks filling the area exactly fit; a slot count whose byte size
 * wraps 32 bits (2^25 slots of 128 bytes = 4 GiB) does not fit, even
 * with an index block big enough for its bitmap (the modern index size
 * of a 4 GiB - 1 area, 4,194,560 bytes).
 */
static void t_check_index_geometry(void)
{
	const u32 big = 4194560, bigarea = 2 * big + 128;
	u8 *area = area_new(512), *huge;
	struct lb_index ix;

	ix = lb_index_std(256, 0, 3, 0, 1, 0);
	lb_put_index(area, 256, 0, &ix);
	ix = lb_index_std(256, 1, 2, 0, 1, 0);
	lb_put_index(area, 256, 1, &ix);
	CHECK_INT(nd_lsa_check_index(area, 512, 256, 128, 0), ND_LSA_VALID);
	CHECK_INT(nd_lsa_check_index(area, 512, 256, 128, 1), ND_LSA_VALID);
	CHECK_INT(nd_lsa_check_index(area, 511, 256, 128, 0), ND_LSA_BAD_SIG);
	free(area);

	huge = area_new(bigarea);
	CHECK_INT(nd_lsa_index_size(0xffffffffu, 128), big);
	ix = lb_index_std(big, 0, 3, 1, 1, 0);
	lb_put_index(huge, big, 0, &ix);
	CHECK_INT(nd_lsa_check_index(huge, bigarea, big, 128, 0),
		  ND_LSA_VALID);
	ix.nslot = 1u << 25;
	ix.bitmap_bits = 0;
	lb_put_index(huge, big, 0, &ix);
	CHECK_INT(nd_lsa_check_index(huge, bigarea, big, 128, 0),
		  ND_LSA_BAD_NSLOT);
	ix.nslot = 1u << 24;		/* 256-byte labels: 4 GiB again */
	ix.minor = 2;
	ix.labelsize = 1;
	lb_put_index(huge, big, 0, &ix);
	CHECK_INT(nd_lsa_check_index(huge, bigarea, big, 256, 0),
		  ND_LSA_BAD_NSLOT);
	free(huge);
}

/*
 * The verdicts reported are the winning layout's, not the worst seen
 * over the layouts tried: a v1.2 area whose block 1 says labelsize 0
 * with sequence number 0 gets as far as the sequence check in the
 * 128-byte layout but stops at the label size in the 256-byte one.
 */
static void t_winning_layout_verdicts(void)
{
	u8 *area = area_new(K128);
	struct lb_index ix;
	struct nd_lsa lsa;

	lb_ndctl_init(area, K128, 256);
	ix = lb_index_std(256, 1, 4, 510, 2, 0);
	lb_put_index(area, 256, 1, &ix);
	CHECK_INT(nd_lsa_check_index(area, K128, 256, 128, 1), ND_LSA_BAD_SEQ);
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(lsa.lsize, 256);
	CHECK_INT(lsa.verdict[0], ND_LSA_VALID);
	CHECK_INT(lsa.verdict[1], ND_LSA_BAD_LABELSIZE);
	/* the same with the blocks' roles swapped */
	lb_ndctl_init(area, K128, 256);
	ix = lb_index_std(256, 0, 4, 510, 2, 0);
	lb_put_index(area, 256, 0, &ix);
	CHECK_INT(validate(&lsa, area, K128), 1);
	CHECK_INT(lsa.lsize, 256);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_LABELSIZE);
	CHECK_INT(lsa.verdict[1], ND_LSA_VALID);
	free(area);
}

/*
 * Without a valid index no slot is live, whatever the area holds: here
 * block 0 is complete but for its checksum, marks slot 0 used, and the
 * bytes a label's slot field would occupy at the start of the area are 0.
 */
static void t_no_index_no_live_label(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa;

	lb_ndctl_init(area, K128, 128);
	lb_use_slot(area, 256, 0, 0);
	memset(area + 120, 0, 4);	/* slots 384-415 used */
	area[100] ^= 0x01;		/* both checksums wrong */
	area[256 + 100] ^= 0x01;
	CHECK_INT(validate(&lsa, area, K128), -1);
	CHECK_INT(lsa.verdict[0], ND_LSA_BAD_CHECKSUM);
	CHECK(!nd_lsa_label_live(&lsa, 0));
	CHECK(!nd_lsa_label_live(&lsa, 384));
	free(area);
}

/* setting a slot's bit to the state it has changes nothing */
static void t_slot_set_idempotent(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa_index *ix = (struct nd_lsa_index *)area;

	lb_ndctl_init(area, K128, 128);
	CHECK(nd_lsa_slot_is_free(ix, 9));
	nd_lsa_slot_set_free(ix, 9, true);
	CHECK(nd_lsa_slot_is_free(ix, 9));
	CHECK_INT(area[72 + 1], 0xff);
	nd_lsa_slot_set_free(ix, 9, false);
	CHECK(!nd_lsa_slot_is_free(ix, 9));
	nd_lsa_slot_set_free(ix, 9, false);
	CHECK(!nd_lsa_slot_is_free(ix, 9));
	CHECK_INT(area[72 + 1], 0xfd);
	nd_lsa_slot_set_free(ix, 9, true);
	CHECK_INT(area[72 + 1], 0xff);
	CHECK_INT(nd_lsa_nfree(ix), 1020);
	/* slot 100: bit 4 of bitmap byte 12 and of no other */
	nd_lsa_slot_set_free(ix, 100, false);
	CHECK_INT(area[72 + 12], 0xef);
	CHECK_INT(area[72 + 11] & area[72 + 13] & area[72 + 14], 0xff);
	CHECK_INT(nd_lsa_nfree(ix), 1019);
	CHECK(!nd_lsa_slot_is_free(ix, 100));
	nd_lsa_slot_set_free(ix, 100, true);
	CHECK_INT(area[72 + 12], 0xff);
	free(area);
}

/* every slot in use, padding bits clear: the first free slot is nslot */
static void t_first_free_full(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa_index *ix = (struct nd_lsa_index *)area;
	struct lb_index d;

	d = lb_index_std(256, 0, 3, 1016, 1, 0);
	d.bitmap_bits = 0;
	lb_put_index(area, 256, 0, &d);
	CHECK_INT(nd_lsa_first_free(ix), 1016);
	CHECK_INT(nd_lsa_nfree(ix), 0);
	nd_lsa_slot_set_free(ix, 1015, true);
	CHECK_INT(nd_lsa_first_free(ix), 1015);
	free(area);
}

/*
 * Label updates and the reserve slot (docs/namespaces.md, "Label
 * slots"): an update finds room for the labels it writes while the ones
 * they replace are live, and leaves one slot free after its commit.
 */
static void t_update_fits(void)
{
	static const struct {
		u32 nfree, nnew, nfreed;
		bool fits;
	} v[] = {
		{ 0, 0, 0, true },		/* a deletion always fits */
		{ 0, 0, 7, true },
		{ 0, 1, 1, false },		/* no slot to write into */
		{ 1, 1, 0, false },		/* would take the reserve */
		{ 1, 1, 1, true },		/* a replacement through it */
		{ 2, 1, 0, true },
		{ 2, 2, 0, false },
		{ 2, 2, 1, true },
		{ 2, 3, 9, false },		/* frees come only at commit */
		{ 5, 4, 0, true },
		{ 0xffffffffu, 0xffffffffu, 0, false },
		{ 0xffffffffu, 0xffffffffu, 1, true },
		{ 0xffffffffu, 1, 0xffffffffu, true },
	};
	struct nd_lsa lsa, check;
	struct nd_lsa_index *next;
	u8 *area = area_new(K128);
	u32 i, avail, added = 0, nslot;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (nd_lsa_update_fits(v[i].nfree, v[i].nnew, v[i].nfreed) !=
		    v[i].fits) {
			checks_failed++;
			printf("#   update_fits(%u, %u, %u) != %d\n", v[i].nfree,
			       v[i].nnew, v[i].nfreed, v[i].fits);
		}

	/*
	 * available_slots counts exactly the labels that can still be added
	 * one update at a time, and at 0 a replacement still fits
	 */
	lsa.area = area;
	lsa.size = K128;
	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V11), 0);
	nd_lsa_next_prepare(&lsa);
	avail = nd_lsa_available_slots(&lsa, ND_LSA_V11);
	CHECK_INT(avail, 1015);
	next = nd_lsa_index(&lsa, lsa.next);
	nslot = nd_lsa_index_nslot(next);
	while (nd_lsa_update_fits(nd_lsa_nfree(next), 1, 0) && added <= nslot) {
		nd_lsa_slot_set_free(next, nd_lsa_first_free(next), false);
		added++;
		CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V11),
			  avail - added);
	}
	CHECK_INT(added, avail);
	CHECK_INT(nd_lsa_available_slots(&lsa, ND_LSA_V11), 0);
	CHECK_INT(nd_lsa_nfree(next), 1);
	CHECK(nd_lsa_update_fits(nd_lsa_nfree(next), 1, 1));
	CHECK(!nd_lsa_update_fits(nd_lsa_nfree(next), 2, 1));
	CHECK(nd_lsa_update_fits(nd_lsa_nfree(next), 0, 1));
	/* sealed and read back, the count is the same */
	nd_lsa_next_seal(&lsa);
	nd_lsa_switch(&lsa);
	CHECK_INT(validate(&check, area, K128), lsa.cur);
	CHECK_INT(bind_slots(area, K128, ND_LSA_V11), 0);
	free(area);
}

/* what a label says, apart from where it is stored */
static void t_label_same(void)
{
	struct lb_label l = {
		.uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
		.name = "blk",
		.flags = 2,
		.lbasize = 512,
		.dpa = 0x3000,
		.rawsize = 0x1000,
	};
	u8 *area = area_new(K128);
	struct nd_lsa_label *a, *b;
	u32 lsize, off;

	for (lsize = 128; lsize <= 256; lsize += 128) {
		a = (struct nd_lsa_label *)(area + 512 + 3 * lsize);
		b = (struct nd_lsa_label *)(area + 512 + 9 * lsize);
		l.slot = 3;
		lb_put_label(area, 256, lsize, 3, &l);
		l.slot = 9;
		lb_put_label(area, 256, lsize, 9, &l);
		/* slot number (and, 256 bytes, checksum) differ: the same */
		CHECK(nd_lsa_label_same(a, b, lsize));
		CHECK(nd_lsa_label_same(b, a, lsize));
		/* any other byte of the label differs: not the same */
		for (off = 0; off < lsize; off++) {
			bool want = (off >= 120 && off < 124) ||
				    (lsize == 256 && off >= 248);

			((u8 *)b)[off] ^= 0x40;
			if (nd_lsa_label_same(a, b, lsize) != want) {
				checks_failed++;
				printf("#   lsize %u: byte %u flipped: same %d\n",
				       lsize, off, !want);
			}
			((u8 *)b)[off] ^= 0x40;
		}
		/* a 128-byte label: the bytes after it are not its own */
		if (lsize == 128) {
			u8 *p = area + 512 + 10 * 128;

			memcpy(p, b, 128);
			memset(p + 128, 0xee, 128);
			CHECK(nd_lsa_label_same(a, (struct nd_lsa_label *)p,
						128));
		}
	}
	free(area);
}

/*
 * Sealing the next block after the other one was found damaged: the
 * sealed block is valid again (its verdict says so), with 6.1's header:
 * flags zero even when the current block has some, mysize the block.
 */
static void t_seal_over_damaged_block(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa, check;

	lb_ndctl_init(area, K128, 128);
	area[16] = 0x11;		/* block 0's flags: not checked */
	area[17] = 0x22;
	area[18] = 0x33;
	lb_reseal_index(area, 256, 0);
	area[256 + 100] ^= 0x10;	/* block 1: bad checksum */
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(lsa.verdict[1], ND_LSA_BAD_CHECKSUM);
	nd_lsa_next_prepare(&lsa);
	nd_lsa_slot_set_free(nd_lsa_index(&lsa, 1), 0, false);
	nd_lsa_next_seal(&lsa);
	CHECK_INT(lsa.verdict[1], ND_LSA_VALID);
	CHECK_INT(area[256 + 16] | area[256 + 17] | area[256 + 18], 0);
	CHECK_INT(lb_get64(area + 256 + 32), 256);
	CHECK_INT(validate(&check, area, K128), 1);
	CHECK_INT(check.verdict[1], ND_LSA_VALID);
	free(area);
}

/*
 * The first commits on an area the kernel initialised, as 6.1 numbers
 * them (seen on a CXL label area): block 1 keeps its own 2 until the
 * first seal, which gives it 3 like block 0 (block 1 wins the tie), then
 * 1, 2, ... as usual.  The bytes stock leaves: 3/3, then 1/3, 1/2, 3/2.
 */
static void t_first_commits_after_init(void)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa = { .area = area, .size = K128 };
	struct nd_lsa check;
	u32 want[][2] = { { 3, 3 }, { 1, 3 }, { 1, 2 }, { 3, 2 } };
	unsigned int round;

	CHECK_INT(nd_lsa_init(&lsa, ND_LSA_V12), 0);
	CHECK_INT(lb_get32(area + 20), 3);
	CHECK_INT(lb_get32(area + 256 + 20), 2);
	for (round = 0; round < 4; round++) {
		int old_next = lsa.next;

		nd_lsa_slot_set_free(nd_lsa_index(&lsa, lsa.next), round, false);
		nd_lsa_next_seal(&lsa);
		CHECK_INT(lb_get32(area + 20), want[round][0]);
		CHECK_INT(lb_get32(area + 256 + 20), want[round][1]);
		/* what a reader finds on the media: the sealed block */
		CHECK_INT(validate(&check, area, K128), old_next);
		nd_lsa_switch(&lsa);
		CHECK_INT(lsa.cur, old_next);
	}
	free(area);
}

/*
 * An ndctl-initialised 128 KiB area of @lsize-byte labels whose two index
 * blocks are given version @major.@minor and labelsize byte @lbyte, then
 * one sealed update: the sealed block must say @want_minor (major 1) and
 * labelsize @want_lbyte, and be the current block on the media.
 */
static void seal_version_case(u32 lsize, u16 major, u16 minor, u8 lbyte,
			      u16 want_minor, u8 want_lbyte)
{
	u8 *area = area_new(K128);
	struct nd_lsa lsa;
	u8 *next;
	int b;

	lb_ndctl_init(area, K128, lsize);
	for (b = 0; b < 2; b++) {
		lb_put16(area + b * 256 + 60, major);
		lb_put16(area + b * 256 + 62, minor);
		area[b * 256 + 19] = lbyte;
		lb_reseal_index(area, 256, b);
	}
	CHECK_INT(validate(&lsa, area, K128), 0);
	CHECK_INT(lsa.lsize, lsize);
	nd_lsa_next_prepare(&lsa);
	nd_lsa_next_seal(&lsa);
	next = area + lsa.next * lsa.isize;
	CHECK_INT(next[60] | next[61] << 8, 1);
	CHECK_INT(next[62] | next[63] << 8, want_minor);
	CHECK_INT(next[19], want_lbyte);
	CHECK_INT(validate(&lsa, area, K128), 1);
	free(area);
}

/*
 * A sealed block carries the version 6.1 writes, whatever the area had:
 * a CXL 2.0 index (v2.1, 256-byte labels) becomes 1.2, a 1.2 header over
 * 128-byte labels 1.1 with labelsize 0, and so does a 1.1 header whose
 * (ignored) labelsize byte was 1.
 */
static void t_seal_version(void)
{
	seal_version_case(256, 2, 1, 1, 2, 1);	/* CXL 2.0's v2.1 */
	seal_version_case(128, 1, 2, 0, 1, 0);	/* 1.2 over 128-byte labels */
	seal_version_case(128, 1, 1, 1, 1, 0);	/* v1.1: a stray labelsize */
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "fletcher64 test vectors (media-formats 1.2)", t_fletcher_vectors },
	{ "fletcher64 equals a byte-wise reference", t_fletcher_matches_reference },
	{ "index and label struct layout (v1.1 128 B / v1.2 256 B)", t_struct_sizes },
	{ "index block size formulas: v4.x and modern, 128/256 KiB", t_index_size_formulas },
	{ "fresh layout: v1.1 v4.x formula, v1.2 modern, too small", t_fresh_layout },
	{ "sequence numbers: successor and current-block choice", t_seq_rules },
	{ "worked example nmem1.bin: index0 seq 0, index1 current, live label", t_nmem1_example },
	{ "ndctl init-labels v1.1 128 KiB: 1019 available, padding ignored", t_ndctl_v11_128k },
	{ "ndctl init-labels -V 1.2 128 KiB: 509 available", t_ndctl_v12_128k },
	{ "256 KiB areas: modern v1.1/v1.2 and v4.x layouts", t_256k_layouts },
	{ "one index block corrupt: the other wins, same slots", t_one_block_corrupt },
	{ "both index blocks corrupt: label-less, area untouched", t_both_corrupt },
	{ "sequence numbers on media pick the current block", t_seq_choice_on_media },
	{ "myoff/otheroff/labeloff and mysize mismatches", t_offsets_and_sizes },
	{ "nslot overflow and bounds", t_nslot_overflow },
	{ "labelsize rules by version", t_labelsize_rules },
	{ "label slots: live, free, bad checksum, wrong slot", t_label_slots },
	{ "fresh index blocks: v1.1 and v1.2, 128 and 256 KiB", t_init_fresh },
	{ "fresh index blocks of a given geometry, bad geometries refused", t_init_layout },
	{ "next index update: successor seq, checksum, switch", t_next_update_cycle },
	{ "tiny and odd-sized areas", t_tiny_areas },
	{ "verdict names", t_verdict_names },
	{ "random damage keeps the invariants", t_random_damage },
	{ "index size at the boundary areas 188,416 and 188,544 bytes", t_index_size_boundaries },
	{ "nslot whose bitmap needs one byte past the block refused", t_nslot_bitmap_bound },
	{ "label slot equal to nslot is not live", t_slot_equal_nslot },
	{ "area valid in two layouts: v4.x 128-byte layout before 256-byte", t_layout_order },
	{ "check_index: blocks filling the area; slot bytes wrapping 32 bits", t_check_index_geometry },
	{ "verdicts are the winning layout's, not the worst over layouts", t_winning_layout_verdicts },
	{ "no valid index: no live label, whatever the area holds", t_no_index_no_live_label },
	{ "slot bitmap: setting a bit to its state changes nothing", t_slot_set_idempotent },
	{ "sealing over a damaged next block: valid, flags zero", t_seal_over_damaged_block },
	{ "every slot used, padding clear: first free is nslot", t_first_free_full },
	{ "updates leave the reserve slot; available_slots counts additions", t_update_fits },
	{ "labels the same apart from slot and checksum", t_label_same },
	{ "first commits after init numbered as 6.1 (3/3, 1/3, 1/2, 3/2)", t_first_commits_after_init },
	{ "sealed blocks are 1.1 or 1.2 by label size, as 6.1 (CXL's 2.1 too)", t_seal_version },
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
			printf("not ok %u - labels: %s\n", i + 1, tests[i].name);
		} else {
			passed++;
			printf("ok %u - labels: %s\n", i + 1, tests[i].name);
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
