// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of kernel/nvdimm/pfn-format.c (docs/pfn.md has the
 * rules).  Expected layouts are computed by hand in the comments; info
 * blocks are exact-size heap buffers written byte by byte with
 * labels/lsa_builder.c's stores and byte-wise Fletcher-64, so ASan
 * catches an access past them and the checksum is not the code's own.
 * Every validation checks that the block is unchanged and that a
 * rejected block leaves the layout alone.  TAP, closed by "N passed, N
 * failed".
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>

#include "pfn-format.h"
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

#define K4	4096ULL
#define M1	(1ULL << 20)
#define M2	(2ULL << 20)
#define G1	(1ULL << 30)
#define G4	(4ULL << 30)	/* a 1 GiB aligned namespace start */
#define TOP	(~0ULL)		/* 2^64 - 1 */
#define SB	4096

static const u8 ns_uuid[16] = {
	0x6e, 0x73, 0x2d, 0x75, 0x75, 0x69, 0x64, 0x01,
	0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
};

static const u8 other_uuid[16] = { 0x6f, 0x74, 0x68, 0x65, 0x72 };

static const u8 dev_uuid[16] = {
	0xd0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

/* an info block's fields, written as given */
struct pb {
	const char *sig;
	const u8 *parent;
	u32 flags;
	u16 major, minor;
	u64 dataoff, npfns;
	u32 mode, start_pad, end_trunc, align, page_size;
	u16 pss;
	u8 pad_byte;	/* written at the padding's first byte */
};

/* version 1.4, pfn, 32 MiB at G4 in pmem mode, align 2 MiB */
static struct pb pb_std(void)
{
	struct pb p = {
		.sig = PFN_SIG, .parent = ns_uuid, .major = 1, .minor = 4,
		.dataoff = M2, .npfns = 7680, .mode = PFN_MODE_PMEM,
		.align = M2, .page_size = 4096, .pss = 64,
	};
	return p;
}

static u8 *sb_new(void)
{
	u8 *b = calloc(1, SB);

	if (!b)
		abort();
	return b;
}

static void pb_seal(u8 *b)
{
	lb_put64(b + 4088, 0);
	lb_put64(b + 4088, lb_fletcher64(b, SB));
}

static u8 *pb_write(const struct pb *p)
{
	u8 *b = sb_new();

	memcpy(b, p->sig, strlen(p->sig));
	memcpy(b + 16, dev_uuid, 16);
	memcpy(b + 32, p->parent, 16);
	lb_put32(b + 48, p->flags);
	lb_put16(b + 52, p->major);
	lb_put16(b + 54, p->minor);
	lb_put64(b + 56, p->dataoff);
	lb_put64(b + 64, p->npfns);
	lb_put32(b + 72, p->mode);
	lb_put32(b + 76, p->start_pad);
	lb_put32(b + 80, p->end_trunc);
	lb_put32(b + 84, p->align);
	lb_put32(b + 88, p->page_size);
	lb_put16(b + 92, p->pss);
	b[94] = p->pad_byte;
	pb_seal(b);
	return b;
}

/*
 * pfn_sb_check() of @b for a namespace at @start of @size bytes (page
 * 4 KiB, compat 2 MiB); the block must stay unchanged and a rejection
 * must leave @out untouched and give a reason.
 */
static int check_ex(const u8 *b, bool dax, const u8 *parent, u64 start,
		    u64 size, u32 page_size, u32 compat, struct pfn_layout *out)
{
	struct pfn_layout l, poison;
	const char *why = NULL;
	u8 *copy = sb_new();
	int rc;

	memcpy(copy, b, SB);
	memset(&l, 0x5c, sizeof(l));
	poison = l;
	rc = pfn_sb_check((const struct nd_pfn_sb *)copy, dax, parent, start,
			  size, page_size, compat, &l, &why);
	CHECK(!memcmp(copy, b, SB));
	if (rc) {
		CHECK(!memcmp(&l, &poison, sizeof(l)));
		CHECK(why && *why);
	} else {
		CHECK(l.align && !(l.align & (l.align - 1)));
		CHECK((unsigned __int128)l.start_pad + l.dataoff +
		      (unsigned __int128)l.npfns * page_size + l.end_trunc <=
		      size);
	}
	if (out)
		*out = l;
	free(copy);
	return rc;
}

static int check_at(const u8 *b, bool dax, u64 start, u64 size,
		    struct pfn_layout *out)
{
	return check_ex(b, dax, ns_uuid, start, size, 4096, M2, out);
}

/* a block of @p checked as pfn at G4, 32 MiB */
static int check_pb(const struct pb *p)
{
	u8 *b = pb_write(p);
	int rc = check_at(b, false, G4, 32 * M1, NULL);

	free(b);
	return rc;
}

static void check_layout(const struct pfn_layout *l, u64 dataoff,
			 u64 npfns, u32 end_trunc, u32 align, u32 mode)
{
	CHECK_INT(l->dataoff, dataoff);
	CHECK_INT(l->npfns, npfns);
	CHECK_INT(l->start_pad, 0);
	CHECK_INT(l->end_trunc, end_trunc);
	CHECK_INT(l->align, align);
	CHECK_INT(l->mode, mode);
	CHECK_INT(l->page_size, 4096);
	CHECK_INT(l->page_struct_size, 64);
}

static bool layout_eq(const struct pfn_layout *a, const struct pfn_layout *b)
{
	return a->dataoff == b->dataoff && a->npfns == b->npfns &&
	       a->start_pad == b->start_pad && a->end_trunc == b->end_trunc &&
	       a->align == b->align && a->mode == b->mode &&
	       a->page_size == b->page_size &&
	       a->page_struct_size == b->page_struct_size;
}

static int compute(u64 start, u64 size, u32 mode, u32 align,
		   struct pfn_layout *l)
{
	memset(l, 0x5c, sizeof(*l));
	return pfn_layout_compute(start, size, mode, align, M2, 4096, l);
}

/*
 * compute, then build (pfn and dax) and check: the block must come back
 * as the same layout, and every byte of the block be what the format
 * says (checked against the independent builder).
 */
static void round_trip(u64 start, u64 size, const struct pfn_layout *l)
{
	struct nd_pfn_sb *sb = (struct nd_pfn_sb *)sb_new();
	struct pfn_layout back;
	struct pb p = pb_std();
	int dax;
	u8 *want;

	for (dax = 0; dax < 2; dax++) {
		pfn_sb_build(sb, dax, dev_uuid, ns_uuid, l);
		p.sig = dax ? DAX_SIG : PFN_SIG;
		p.dataoff = l->dataoff;
		p.npfns = l->npfns;
		p.mode = l->mode;
		p.end_trunc = l->end_trunc;
		p.align = l->align;
		want = pb_write(&p);
		CHECK(!memcmp(sb, want, SB));
		free(want);
		CHECK_INT(check_at((u8 *)sb, dax, start, size, &back), 0);
		CHECK(layout_eq(&back, l));
		/* and it is not the other kind's block */
		CHECK_INT(check_at((u8 *)sb, !dax, start, size, NULL),
			  -ENODEV);
	}
	free(sb);
}

static void test_compute_32m(void)
{
	struct pfn_layout l;

	/*
	 * 32 MiB at 4 GiB, pmem, align 2 MiB: npfns_guess = (32M - 8K) / 4K
	 * = 8190, memmap 8190 * 64 = 524160, 8192 + 524160 = 532352 -> 2 MiB;
	 * npfns = (32M - 2M) / 4K = 7680, end_trunc 0.
	 */
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, M2, 7680, 0, M2, PFN_MODE_PMEM);
	round_trip(G4, 32 * M1, &l);
	/* align 4 KiB: effective 2 MiB (compat), 4096 recorded */
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, 4096, &l), 0);
	check_layout(&l, M2, 7680, 0, 4096, PFN_MODE_PMEM);
	round_trip(G4, 32 * M1, &l);
	/* ram: 8192 -> 2 MiB, same numbers */
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_RAM, M2, &l), 0);
	check_layout(&l, M2, 7680, 0, M2, PFN_MODE_RAM);
	round_trip(G4, 32 * M1, &l);
	/* align 1 GiB: end 4G + 32M, end_trunc 32M = size: no room */
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, G1, &l), -ENXIO);
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_RAM, G1, &l), -ENXIO);
	/* at 4G + 2M: end_trunc 34M, more than the size */
	CHECK_INT(compute(G4 + M2, 32 * M1, PFN_MODE_PMEM, G1, &l), -ENXIO);
	CHECK_INT(compute(G4 + M2, 32 * M1, PFN_MODE_RAM, G1, &l), -ENXIO);
}

static void test_compute_256m(void)
{
	struct pfn_layout l;

	/*
	 * 256 MiB, pmem: guess (256M - 8K) / 4K = 65534, 8192 + 65534 * 64 =
	 * 4202368 -> 6 MiB; npfns (256M - 6M) / 4K = 64000.
	 * ram: 2 MiB, npfns 254M / 4K = 65024.
	 */
	CHECK_INT(compute(G4, 256 * M1, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, 6 * M1, 64000, 0, M2, PFN_MODE_PMEM);
	round_trip(G4, 256 * M1, &l);
	CHECK_INT(compute(G4, 256 * M1, PFN_MODE_RAM, M2, &l), 0);
	check_layout(&l, M2, 65024, 0, M2, PFN_MODE_RAM);
	round_trip(G4, 256 * M1, &l);
}

static void test_compute_1g(void)
{
	struct pfn_layout l;

	/*
	 * 2 GiB at 4 GiB, align 1 GiB.  pmem: guess (2G - 8K) / 4K = 524286,
	 * 8192 + 524286 * 64 = 33562496 -> 1 GiB; npfns 1G / 4K = 262144.
	 * ram: 8192 -> 1 GiB as well.
	 */
	CHECK_INT(compute(G4, 2 * G1, PFN_MODE_PMEM, G1, &l), 0);
	check_layout(&l, G1, 262144, 0, G1, PFN_MODE_PMEM);
	round_trip(G4, 2 * G1, &l);
	CHECK_INT(compute(G4, 2 * G1, PFN_MODE_RAM, G1, &l), 0);
	check_layout(&l, G1, 262144, 0, G1, PFN_MODE_RAM);
	round_trip(G4, 2 * G1, &l);
	/*
	 * 2 GiB at 4G + 2M, align 1 GiB: end 6G + 2M, end_trunc 2M; pmem
	 * reserve 33562496 from 4G + 2M -> 5G, dataoff 1G - 2M; npfns
	 * (2G - (1G - 2M) - 2M) / 4K = 262144.
	 */
	CHECK_INT(compute(G4 + M2, 2 * G1, PFN_MODE_PMEM, G1, &l), 0);
	check_layout(&l, G1 - M2, 262144, M2, G1, PFN_MODE_PMEM);
	round_trip(G4 + M2, 2 * G1, &l);
}

static void test_compute_end_trunc(void)
{
	struct pfn_layout l;

	/*
	 * 33 MiB at 4G + 2M: end 4G + 35M, end_trunc 1M; guess
	 * (33M - 8K) / 4K = 8446, 8192 + 540544 = 548736 -> 4G + 4M, dataoff
	 * 2M; npfns (33M - 2M - 1M) / 4K = 7680.
	 */
	CHECK_INT(compute(G4 + M2, 33 * M1, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, M2, 7680, M1, M2, PFN_MODE_PMEM);
	round_trip(G4 + M2, 33 * M1, &l);
	/* one page under a 2 MiB multiple: end_trunc 2M - 4K */
	CHECK_INT(compute(G4, 32 * M1 - K4, PFN_MODE_RAM, M2, &l), 0);
	check_layout(&l, M2, 7168, M2 - K4, M2, PFN_MODE_RAM);
	round_trip(G4, 32 * M1 - K4, &l);
}

static void test_compute_reserve_boundary(void)
{
	struct pfn_layout l;

	/*
	 * The struct page reserve fills 2 MiB exactly when guess = 32640:
	 * size 32640 * 4K + 8K = 133701632.  Then dataoff 2M, end_trunc
	 * 133701632 - 63 * 2M = 1581056, npfns (133701632 - 2M - 1581056) /
	 * 4K = 31744.  One page more (guess 32641, reserve 2M + 64): dataoff
	 * 4M, end_trunc 1585152, npfns (133705728 - 4M - 1585152) / 4K =
	 * 31232.
	 */
	CHECK_INT(compute(G4, 133701632, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, M2, 31744, 1581056, M2, PFN_MODE_PMEM);
	round_trip(G4, 133701632, &l);
	CHECK_INT(compute(G4, 133705728, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, 4 * M1, 31232, 1585152, M2, PFN_MODE_PMEM);
	round_trip(G4, 133705728, &l);
	/* 128 MiB: guess 32766, reserve 2105216 -> 4M; npfns 124M / 4K */
	CHECK_INT(compute(G4, 128 * M1, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, 4 * M1, 31744, 0, M2, PFN_MODE_PMEM);
}

static void test_compute_small(void)
{
	struct pfn_layout l;

	/* 4 MiB: guess 1022, reserve 73600 -> 2M; npfns 2M / 4K = 512 */
	CHECK_INT(compute(G4, 4 * M1, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, M2, 512, 0, M2, PFN_MODE_PMEM);
	round_trip(G4, 4 * M1, &l);
	/* 2 MiB: the data would start at the end */
	CHECK_INT(compute(G4, M2, PFN_MODE_PMEM, M2, &l), -ENXIO);
	CHECK_INT(compute(G4, M2, PFN_MODE_RAM, M2, &l), -ENXIO);
	/* 4 MiB - 4K: end_trunc 2M - 4K leaves 2M, all reserve */
	CHECK_INT(compute(G4, 4 * M1 - K4, PFN_MODE_RAM, M2, &l), -ENXIO);
	/* below the 8 KiB reserve, and empty */
	CHECK_INT(compute(G4, 8192, PFN_MODE_RAM, M2, &l), -ENXIO);
	CHECK_INT(compute(G4, 8191, PFN_MODE_RAM, M2, &l), -ENXIO);
	CHECK_INT(compute(G4, 0, PFN_MODE_PMEM, M2, &l), -ENXIO);
	/* 2 MiB + 8 KiB at an odd 2 MiB: end_trunc 8K, data at 2M: none */
	CHECK_INT(compute(G4, M2 + 8192, PFN_MODE_RAM, M2, &l), -ENXIO);
}

static void test_compute_bad_args(void)
{
	struct pfn_layout l, poison;

	memset(&poison, 0x5c, sizeof(poison));
	/* start not a multiple of the 2 MiB compat alignment */
	CHECK_INT(compute(G4 + M1, 32 * M1, PFN_MODE_PMEM, M2, &l), -EINVAL);
	CHECK_INT(compute(G4 + K4, 32 * M1, PFN_MODE_RAM, M2, &l), -EINVAL);
	CHECK_INT(compute(G4 + M2 - 1, 32 * M1, PFN_MODE_RAM, M2, &l),
		  -EINVAL);
	CHECK(!memcmp(&l, &poison, sizeof(l)));
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_NONE, M2, &l), -EINVAL);
	CHECK_INT(compute(G4, 32 * M1, 3, M2, &l), -EINVAL);
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, 0, &l), -EINVAL);
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, 3 * M1, &l), -EINVAL);
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, 2048, &l), -EINVAL);
	CHECK(!memcmp(&l, &poison, sizeof(l)));
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, M2, 0, 4096,
				     &l), -EINVAL);
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, M2, 3 * M1,
				     4096, &l), -EINVAL);
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, M2, M2, 0,
				     &l), -EINVAL);
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, 4 * M1, M2,
				     4 * M1, &l), -EINVAL);
	/* a page size that is no power of two, below the compat alignment */
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, M2, M2, 3072,
				     &l), -EINVAL);
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, M2, M2, 12288,
				     &l), -EINVAL);
	/* a 64 KiB page kernel with 2 MiB compat works */
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, M2, M2,
				     65536, &l), 0);
	CHECK_INT(l.npfns, 480);
	CHECK_INT(l.page_size, 65536);
}

static void test_compute_huge(void)
{
	struct pfn_layout l;

	/* the end past 2^64 */
	CHECK_INT(compute(TOP - 4 * M1 + 1, 4 * M1, PFN_MODE_RAM, M2, &l),
		  -EINVAL);
	CHECK_INT(compute(M2, TOP, PFN_MODE_PMEM, M2, &l), -EINVAL);
	CHECK_INT(compute(TOP - M2 + 1, TOP, PFN_MODE_PMEM, M2, &l),
		  -EINVAL);
	/*
	 * 2^64 - 2M at 0, pmem: guess (2^64 - 2M - 8K) / 4K = 2^52 - 514,
	 * reserve 2^58 - 32896 + 8192 -> 2^58; npfns (2^64 - 2M - 2^58) /
	 * 4K = 2^52 - 2^46 - 512.
	 */
	CHECK_INT(compute(0, TOP - M2 + 1, PFN_MODE_PMEM, M2, &l), 0);
	check_layout(&l, 1ULL << 58, (1ULL << 52) - (1ULL << 46) - 512, 0,
		     M2, PFN_MODE_PMEM);
	round_trip(0, TOP - M2 + 1, &l);
	/*
	 * Ends at 2^64 - 1 with align 1 GiB: start 2^64 - 1G - 2M, size
	 * 1G + 2M - 1, end_trunc 1G - 1; the reserve (about 16.8 MiB) ends
	 * past the last boundary, rounding it up wraps: no room.
	 */
	CHECK_INT(compute(TOP - G1 - M2 + 1, G1 + M2 - 1, PFN_MODE_PMEM, G1,
			  &l), -ENXIO);
	/* ram there: dataoff 2M = size - end_trunc: no room */
	CHECK_INT(compute(TOP - G1 - M2 + 1, G1 + M2 - 1, PFN_MODE_RAM, G1,
			  &l), -ENXIO);
	/* page size 1 (a pathological caller): the memmap product wraps */
	CHECK_INT(pfn_layout_compute(0, TOP - 1, PFN_MODE_PMEM, 1, 1, 1, &l),
		  -ENXIO);
}

static void test_checksum(void)
{
	struct pb p = pb_std();
	u8 *b = pb_write(&p);
	u64 want = lb_get64(b + 4088);

	CHECK_INT(pfn_sb_checksum((const struct nd_pfn_sb *)b), want);
	/* the stored field does not take part */
	lb_put64(b + 4088, 0x0123456789abcdefULL);
	CHECK_INT(pfn_sb_checksum((const struct nd_pfn_sb *)b), want);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -EINVAL);
	/* a flipped padding byte, resealed or not */
	lb_put64(b + 4088, want);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), 0);
	b[1000] ^= 1;
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -EINVAL);
	pb_seal(b);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), 0);
	/* the last word before the checksum counts too */
	b[4087] ^= 0x80;
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -EINVAL);
	/* a bad checksum of another namespace's block: checksum first */
	free(b);
	p.parent = other_uuid;
	b = pb_write(&p);
	b[4088] ^= 1;
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -EINVAL);
	free(b);
	/* all zero but the checksum: Fletcher of zeros is 0 */
	b = sb_new();
	CHECK_INT(pfn_sb_checksum((const struct nd_pfn_sb *)b), 0);
	/* two words 1 and 2: lo 3, hi 1 + 3 + 3 * 1020 more... by builder */
	lb_put32(b, 1);
	lb_put32(b + 4084, 2);
	CHECK_INT(pfn_sb_checksum((const struct nd_pfn_sb *)b),
		  lb_fletcher64(b, SB));
	free(b);
}

static void test_signature(void)
{
	struct pb p = pb_std();
	u8 *b = pb_write(&p);

	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), 0);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), -ENODEV);
	free(b);
	p.sig = DAX_SIG;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), 0);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -ENODEV);
	/* the NUL padding is part of the signature */
	b[15] = 'X';
	pb_seal(b);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), -ENODEV);
	free(b);
	/* a BTT info block, and a blank namespace */
	p.sig = "BTT_ARENA_INFO";
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -ENODEV);
	free(b);
	b = sb_new();
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -ENODEV);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), -ENODEV);
	free(b);
}

static void test_parent(void)
{
	struct pb p = pb_std();
	u8 *b;

	p.parent = other_uuid;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -ENXIO);
	/* even when the rest is invalid */
	free(b);
	p.mode = 7;
	p.npfns = 0;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -ENXIO);
	free(b);
	/* the last uuid byte counts */
	p = pb_std();
	b = pb_write(&p);
	b[47] ^= 1;
	pb_seal(b);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -ENXIO);
	free(b);
}

static void test_version_mode(void)
{
	struct pb p = pb_std();

	p.major = 0;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.major = 2;
	CHECK_INT(check_pb(&p), -EINVAL);
	p = pb_std();
	p.minor = 5;	/* a later minor reads as 4 */
	CHECK_INT(check_pb(&p), 0);
	p.minor = 0xffff;
	CHECK_INT(check_pb(&p), 0);
	p = pb_std();
	p.flags = 0xffffffff;	/* never looked at */
	p.pad_byte = 0xa5;
	CHECK_INT(check_pb(&p), 0);
	p = pb_std();
	p.mode = PFN_MODE_NONE;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.mode = 3;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.mode = PFN_MODE_RAM;
	CHECK_INT(check_pb(&p), 0);
}

static void test_page_sizes(void)
{
	struct pb p = pb_std();

	p.page_size = 8192;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.page_size = 2048;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.page_size = 0;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.mode = PFN_MODE_RAM;
	p.page_size = 65536;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* struct page size: pmem needs 64 at least, ram does not care */
	p = pb_std();
	p.pss = 63;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.pss = 0;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.pss = 128;
	CHECK_INT(check_pb(&p), 0);
	p.pss = 64;
	CHECK_INT(check_pb(&p), 0);
	p.mode = PFN_MODE_RAM;
	p.pss = 0;
	CHECK_INT(check_pb(&p), 0);
}

static void test_bad_params(void)
{
	struct pb p = pb_std();
	u8 *b = pb_write(&p);

	CHECK_INT(check_ex(b, false, ns_uuid, G4, 32 * M1, 4096, 0, NULL),
		  -EINVAL);
	CHECK_INT(check_ex(b, false, ns_uuid, G4, 32 * M1, 4096, 3 * M1,
			   NULL), -EINVAL);
	CHECK_INT(check_ex(b, false, ns_uuid, G4, 32 * M1, 0, M2, NULL),
		  -EINVAL);
	CHECK_INT(check_ex(b, false, ns_uuid, G4, 32 * M1, 4 * M1, M2,
			   NULL), -EINVAL);
	/* a NULL why is fine */
	CHECK_INT(pfn_sb_check((const struct nd_pfn_sb *)b, true, ns_uuid,
			       G4, 32 * M1, 4096, M2, NULL, NULL), -ENODEV);
	free(b);
}

static void test_dataoff(void)
{
	struct pb p = pb_std();

	p.dataoff = 0;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.dataoff = 4096;
	p.align = 4096;
	p.npfns = 8191;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.dataoff = 8192;	/* the smallest a block can have */
	p.npfns = 8190;
	CHECK_INT(check_pb(&p), 0);
	p.dataoff = 8192 + 512;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* not on the 2 MiB the block records */
	p = pb_std();
	p.dataoff = M2 + K4;
	p.npfns = 7679;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.dataoff = 4 * M1;
	p.npfns = 7168;
	CHECK_INT(check_pb(&p), 0);
	/* at and past the end */
	p.dataoff = 32 * M1 - M2;
	p.npfns = 512;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 1;
	p.dataoff = 32 * M1;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.dataoff = 1ULL << 63;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.dataoff = TOP - M2 + 1;
	CHECK_INT(check_pb(&p), -EINVAL);
}

static void test_npfns(void)
{
	struct pb p = pb_std();

	p.npfns = 0;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.npfns = 7681;
	CHECK_INT(check_pb(&p), -EINVAL);
	/*
	 * fewer: accepted, as 6.1 (which ignores npfns).  The disk is
	 * sized from the mapped range either way.
	 */
	p.npfns = 7679;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 1;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 7680;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 1ULL << 52;	/* 2^52 pages of 4K: 2^64 bytes */
	CHECK_INT(check_pb(&p), -EINVAL);
	p.npfns = (1ULL << 52) - 512;	/* dataoff + that wraps */
	CHECK_INT(check_pb(&p), -EINVAL);
	p.npfns = (1ULL << 52) + 7680;	/* the bytes wrap to the room */
	CHECK_INT(check_pb(&p), -EINVAL);
	p.npfns = TOP;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* end_trunc is room too: 2M cut leaves 7168 pages */
	p = pb_std();
	p.end_trunc = M2;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.npfns = 7168;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 7169;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* npfns + end_trunc wraps */
	p.end_trunc = 0xffe00000;
	p.npfns = 7168;
	CHECK_INT(check_pb(&p), -EINVAL);
}

static void test_align(void)
{
	struct pfn_layout l;
	struct pb p = pb_std();
	u8 *b;

	p.align = 3 * M1;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.align = 2048;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.align = 4096;
	CHECK_INT(check_pb(&p), 0);
	/* 4 MiB: pfn takes any power of two the data is on, dax does not */
	p.align = 4 * M1;
	p.dataoff = 4 * M1;
	p.npfns = 7168;
	CHECK_INT(check_pb(&p), 0);
	p.sig = DAX_SIG;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), -EINVAL);
	free(b);
	/* dax: 4K, 2M, 1G */
	p.align = 4096;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 32 * M1, &l), 0);
	CHECK_INT(l.align, 4096);
	free(b);
	p.align = G1;
	p.dataoff = G1;
	p.npfns = G1 / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 2 * G1, &l), 0);
	CHECK_INT(l.align, G1);
	/* 1 GiB not on a 1 GiB boundary */
	CHECK_INT(check_at(b, true, G4 + M2, 2 * G1, NULL), -EINVAL);
	free(b);
	p.align = 2 * G1;
	p.dataoff = 2 * G1;
	p.npfns = 2 * G1 / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 4 * G1, NULL), -EINVAL);
	free(b);
	p.sig = PFN_SIG;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 4 * G1, NULL), 0);
	free(b);
	/*
	 * align above the namespace size, data on it: 32 MiB at 4G - 2M,
	 * dataoff 2M: data at 4G, a multiple of 64M.  Stock refuses.
	 */
	p = pb_std();
	p.align = 64 * M1;
	CHECK_INT(check_pb(&p), -EINVAL);
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4 - M2, 32 * M1, NULL), -EINVAL);
	free(b);
	p.npfns = (64 * M1 - M2) / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4 - M2, 64 * M1, NULL), 0);
	free(b);
	/* align 0 in a 1.4 block: derived as for old blocks */
	p = pb_std();
	p.align = 0;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, &l), 0);
	CHECK_INT(l.align, M2);
	free(b);
}

static void test_pad_trunc(void)
{
	struct pfn_layout l;
	struct pb p = pb_std();
	u8 *b;

	/* a legacy start_pad of 2M: data at start + pad + dataoff */
	p.start_pad = M2;
	p.npfns = 7168;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, &l), 0);
	CHECK_INT(l.start_pad, M2);
	free(b);
	/* start_pad counts in the data alignment: 4G + 2M + 2M on 4M */
	p.align = 4 * M1;
	CHECK_INT(check_pb(&p), 0);
	p.dataoff = 4 * M1;
	p.npfns = 6656;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* the mapping start (start + start_pad) off the compat alignment */
	p.align = 4096;
	p.start_pad = 4096;
	p.npfns = 7167;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.start_pad = 0;
	p.npfns = 7168;
	CHECK_INT(check_pb(&p), 0);
	/* start itself off: 4G + 4K with a 4K pad still misaligned */
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4 + K4, 32 * M1, NULL), -EINVAL);
	free(b);
	/* the mapping end off the compat alignment */
	p = pb_std();
	p.end_trunc = 4096;
	p.npfns = 7000;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.end_trunc = M2;
	CHECK_INT(check_pb(&p), 0);	/* 7000 pages fit in 7168 */
	p.npfns = 7168;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 7169;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* a namespace end not on 2M: end_trunc must cut back to it */
	p.npfns = 7680;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 34 * M1 + K4, NULL), -EINVAL);
	CHECK_INT(check_at(b, false, G4, 34 * M1, NULL), 0);
	free(b);
	/* pad + trunc beyond the namespace, and wrapping in 32 bits */
	p = pb_std();
	p.start_pad = 16 * M1;
	p.end_trunc = 16 * M1;
	p.npfns = 1;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.start_pad = 0xffe00000;
	p.end_trunc = 0xffe00000;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.start_pad = 0;
	p.end_trunc = 32 * M1;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* data must start before start_pad + end_trunc eat the rest */
	p.start_pad = 14 * M1;
	p.end_trunc = 16 * M1;
	p.dataoff = M2;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.npfns = 512;
	CHECK_INT(check_pb(&p), -EINVAL);
	p.start_pad = 12 * M1;
	CHECK_INT(check_pb(&p), 0);
}

static void test_minor_versions(void)
{
	struct pfn_layout l;
	struct pb p = pb_std();
	u8 *b;
	int minor;

	/* garbage in the fields the minor does not have: ignored */
	for (minor = 0; minor <= 4; minor++) {
		p = pb_std();
		p.minor = minor;
		p.start_pad = minor < 1 ? 0x12345 : 0;
		p.end_trunc = minor < 1 ? 0x6789 : 0;
		p.align = minor < 2 ? 3 : M2;
		p.page_size = minor < 4 ? 12345 : 4096;
		p.pss = minor < 4 ? 1 : 64;
		b = pb_write(&p);
		CHECK_INT(check_at(b, false, G4, 32 * M1, &l), 0);
		check_layout(&l, M2, 7680, 0, M2, PFN_MODE_PMEM);
		free(b);
	}
	/* minor 1 has start_pad and end_trunc */
	p = pb_std();
	p.minor = 1;
	p.end_trunc = 4096;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* minor 2 has align */
	p = pb_std();
	p.minor = 2;
	p.align = 3;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* minor 3: page sizes still the reader's */
	p.minor = 3;
	p.align = M2;
	p.page_size = 0;
	p.pss = 0;
	CHECK_INT(check_pb(&p), 0);
	p.minor = 4;
	CHECK_INT(check_pb(&p), -EINVAL);
}

static void test_derived_align(void)
{
	struct pfn_layout l;
	struct pb p = pb_std();
	u8 *b;

	/*
	 * minor 1: align is the largest power of two not above dataoff.
	 * dataoff 6M -> 4M: at 4G, 4G + 6M is not on 4M (stock refuses);
	 * at 4G - 2M the data is at 4G + 4M, fine.
	 */
	p.minor = 1;
	p.dataoff = 6 * M1;
	p.npfns = (256 - 6) * M1 / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 256 * M1, NULL), -EINVAL);
	CHECK_INT(check_at(b, false, G4 - M2, 256 * M1, &l), 0);
	CHECK_INT(l.align, 4 * M1);
	/* 4M is no dax alignment */
	free(b);
	p.sig = DAX_SIG;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4 - M2, 256 * M1, NULL), -EINVAL);
	free(b);
	/* dataoff 2M + 8K -> 2M, data at 4G + 2M + 8K: not on it */
	p = pb_std();
	p.minor = 0;
	p.dataoff = M2 + 8192;
	p.npfns = (30 * M1 - 8192) / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, NULL), -EINVAL);
	CHECK_INT(check_at(b, false, G4 - M2 - 8192, 32 * M1, NULL), -EINVAL);
	free(b);
	/* exactly a power of two: dataoff 8M -> 8M */
	p.dataoff = 8 * M1;
	p.npfns = 24 * M1 / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, &l), 0);
	CHECK_INT(l.align, 8 * M1);
	/* 8M - 4K: 4M */
	free(b);
	p.dataoff = 8 * M1 - K4;
	p.npfns = (24 * M1 + K4) / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4 - 4 * M1 + K4, 32 * M1, &l),
		  -EINVAL);	/* start not on 2M */
	free(b);
	/* above 1 GiB: capped at 1 GiB (4G would not fit in 32 bits) */
	p.dataoff = G4;
	p.npfns = G4 / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 8 * G1, &l), 0);
	CHECK_INT(l.align, G1);
	CHECK_INT(check_at(b, false, G4 + G1, 8 * G1, &l), 0);
	CHECK_INT(l.align, G1);
	CHECK_INT(check_at(b, false, G4 + M2, 8 * G1, NULL), -EINVAL);
	free(b);
	p.dataoff = 3 * G1;
	p.npfns = 5 * G1 / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G1, 8 * G1, &l), 0);
	CHECK_INT(l.align, G1);
	free(b);
}

static void test_end_misaligned_huge(void)
{
	struct pb p = pb_std();
	u8 *b = pb_write(&p);

	/* a namespace ending at 2^64 - 1: the end check must not wrap */
	CHECK_INT(check_at(b, false, TOP - 32 * M1 + 1, 32 * M1, NULL),
		  -EINVAL);
	/* start + dataoff wraps */
	CHECK_INT(check_at(b, false, TOP - M1 + 1, 32 * M1, NULL), -EINVAL);
	free(b);
	/* ending exactly at 2^64: valid up to there? start + size wraps */
	p.end_trunc = M2;
	p.npfns = 7168;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, TOP - 32 * M1 + 1, 32 * M1, NULL),
		  -EINVAL);
	free(b);
}

/* the third mutation pass: edges the first two did not reach */
static void test_more_edges(void)
{
	struct nd_pfn_sb *sb = (struct nd_pfn_sb *)sb_new();
	struct pfn_layout l;
	struct pb p;
	const char *why = NULL;
	int i;
	u8 *b;

	/*
	 * The round-up to the alignment is exact: 1-byte pages, no compat
	 * alignment, a namespace at address 1, align 2, ram mode, 16 KiB:
	 * the data would start at 1 + 8K = 8193, rounded up to 8194, so
	 * dataoff 8193; the end 16385 is cut back by 1 to 16384; 8190 pages.
	 */
	CHECK_INT(pfn_layout_compute(1, 16384, PFN_MODE_RAM, 2, 1, 1, &l), 0);
	CHECK_INT(l.dataoff, 8193);
	CHECK_INT(l.end_trunc, 1);
	CHECK_INT(l.npfns, 8190);
	/* a start one byte off the 2 MiB compat alignment */
	CHECK_INT(compute(G4 + 1, 32 * M1, PFN_MODE_RAM, M2, &l), -EINVAL);
	/* ram mode on 4 KiB: the data right behind the 8 KiB reserve */
	CHECK_INT(pfn_layout_compute(G4, 32 * M1, PFN_MODE_RAM, 4096, 4096,
				     4096, &l), 0);
	CHECK_INT(l.dataoff, 8192);
	CHECK_INT(l.npfns, 8190);

	/* a built block is all written: nothing of the buffer's past shows */
	CHECK_INT(compute(G4, 32 * M1, PFN_MODE_PMEM, M2, &l), 0);
	memset(sb, 0xa5, SB);
	pfn_sb_build(sb, false, dev_uuid, ns_uuid, &l);
	p = pb_std();
	b = pb_write(&p);
	CHECK(!memcmp(sb, b, SB));
	free(b);
	/* ... start_pad included, when a layout has one */
	l.start_pad = 4096;
	pfn_sb_build(sb, false, dev_uuid, ns_uuid, &l);
	p.start_pad = 4096;
	b = pb_write(&p);
	CHECK(!memcmp(sb, b, SB));
	free(b);

	/* ram mode, align 4K: data 12 KiB in, an odd number of pages */
	p = pb_std();
	p.mode = PFN_MODE_RAM;
	p.align = 4096;
	p.dataoff = 12288;
	p.npfns = 8189;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, &l), 0);
	CHECK_INT(l.dataoff, 12288);
	free(b);

	/* end_trunc alone beyond the namespace; a mapping end 1 byte off */
	for (i = 0; i < 2; i++) {
		p = pb_std();
		p.end_trunc = i ? M2 - 1 : 33 * M1;
		p.npfns = i ? 7000 : 1;
		b = pb_write(&p);
		CHECK_INT(pfn_sb_check((const struct nd_pfn_sb *)b, false,
				       ns_uuid, G4, 32 * M1, 4096, M2, &l,
				       &why), -EINVAL);
		CHECK(why && !strcmp(why, i ? "mapping end misaligned" :
				     "start_pad and end_trunc exceed the namespace"));
		free(b);
	}
	free(sb);
}

/*
 * Issue 26, item 1: start_pad is part of the room the data needs.  The
 * data starts at start + start_pad + dataoff and ends npfns pages later;
 * it must end at or before start + size - end_trunc.
 */
static void test_start_pad_counted(void)
{
	struct pfn_layout l;
	struct pb p = pb_std();
	const char *why = NULL;
	u8 *b;

	/*
	 * 32 MiB at 4G, start_pad 2M, dataoff 2M, 7680 pages (the whole
	 * namespace behind a 2M dataoff: the most a check without start_pad
	 * allows): the data would be [4G + 4M, 4G + 34M), 2 MiB past the end.
	 */
	p.start_pad = M2;
	p.npfns = 7680;
	p.align = 4096;
	CHECK_INT(check_pb(&p), -EINVAL);
	b = pb_write(&p);
	CHECK_INT(pfn_sb_check((const struct nd_pfn_sb *)b, false, ns_uuid,
			       G4, 32 * M1, 4096, M2, &l, &why), -EINVAL);
	CHECK(why && !strcmp(why, "npfns zero or past the mapped range (start_pad, end_trunc counted)"));
	free(b);
	/* fewer pages than the mapped range holds: accepted, as 6.1 */
	p.npfns = 7167;
	b = pb_write(&p);
	CHECK_INT(pfn_sb_check((const struct nd_pfn_sb *)b, false, ns_uuid,
			       G4, 32 * M1, 4096, M2, &l, &why), 0);
	free(b);
	/* no pages at all: refused */
	p.npfns = 0;
	b = pb_write(&p);
	CHECK_INT(pfn_sb_check((const struct nd_pfn_sb *)b, false, ns_uuid,
			       G4, 32 * M1, 4096, M2, &l, &why), -EINVAL);
	CHECK(why && !strcmp(why, "npfns zero or past the mapped range (start_pad, end_trunc counted)"));
	free(b);
	/* exactly fitting: 32M - 2M - 2M = 28M = 7168 pages */
	p.npfns = 7168;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 32 * M1, &l), 0);
	CHECK_INT(l.start_pad, M2);
	CHECK_INT(l.npfns, 7168);
	free(b);
	/* one page more */
	p.npfns = 7169;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* with end_trunc as well: 32M - 2M - 2M - 2M = 26M = 6656 pages */
	p.end_trunc = M2;
	p.npfns = 6656;
	CHECK_INT(check_pb(&p), 0);
	p.npfns = 6657;
	CHECK_INT(check_pb(&p), -EINVAL);
	/* the same for a dax block (align 4K is a dax alignment) */
	p = pb_std();
	p.sig = DAX_SIG;
	p.start_pad = M2;
	p.align = 4096;
	p.npfns = 7680;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), -EINVAL);
	free(b);
	p.npfns = 7168;
	b = pb_write(&p);
	CHECK_INT(check_at(b, true, G4, 32 * M1, NULL), 0);
	free(b);

	/*
	 * An overflow-sized start_pad: 0xffe00000 (the largest on 2 MiB) on
	 * an 8 GiB namespace at 4G.  Without start_pad counted, dataoff 2M
	 * and 8G - 2M of data were accepted: the data would end 4 GiB - 2 MiB
	 * past the namespace.  What does fit: 8G - 0xffe00000 - 2M.
	 */
	p = pb_std();
	p.start_pad = 0xffe00000;
	p.align = 4096;
	p.npfns = (8 * G1 - M2) / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 8 * G1, NULL), -EINVAL);
	free(b);
	p.npfns = (8 * G1 - 0xffe00000ULL - M2) / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 8 * G1, &l), 0);
	CHECK_INT(l.npfns, (8 * G1 - 0xffe00000ULL - M2) / K4);
	free(b);
	p.npfns++;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, G4, 8 * G1, NULL), -EINVAL);
	free(b);
	/* the namespace ends at the top: start + start_pad + data wraps */
	p.npfns = (8 * G1 - M2) / K4;
	b = pb_write(&p);
	CHECK_INT(check_at(b, false, 0 - 8 * G1, 8 * G1, NULL), -EINVAL);
	CHECK_INT(check_at(b, false, 0 - 8 * G1 - M2, 8 * G1, NULL), -EINVAL);
	free(b);
	/* and start_pad alone larger than the namespace */
	p = pb_std();
	p.start_pad = 0xffe00000;
	p.align = 4096;
	p.npfns = 1;
	CHECK_INT(check_pb(&p), -EINVAL);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "compute: 32 MiB pmem/ram, align 4K/2M/1G", test_compute_32m },
	{ "compute: 256 MiB pmem and ram", test_compute_256m },
	{ "compute: 2 GiB, align 1 GiB", test_compute_1g },
	{ "compute: end_trunc", test_compute_end_trunc },
	{ "compute: struct page reserve at 2 MiB", test_compute_reserve_boundary },
	{ "compute: too small -> ENXIO", test_compute_small },
	{ "compute: bad arguments -> EINVAL", test_compute_bad_args },
	{ "compute: near 2^64", test_compute_huge },
	{ "check: checksum", test_checksum },
	{ "check: signature pfn/dax -> ENODEV", test_signature },
	{ "check: parent uuid -> ENXIO", test_parent },
	{ "check: version, flags, mode", test_version_mode },
	{ "check: page size, struct page size", test_page_sizes },
	{ "check: bad parameters", test_bad_params },
	{ "check: dataoff", test_dataoff },
	{ "check: npfns", test_npfns },
	{ "check: align", test_align },
	{ "check: start_pad, end_trunc", test_pad_trunc },
	{ "check: minor versions 0 to 4", test_minor_versions },
	{ "check: derived alignment", test_derived_align },
	{ "check: namespaces at the top", test_end_misaligned_huge },
	{ "compute/build/check: exact round-up, odd start, whole block, end reasons", test_more_edges },
	{ "check: start_pad counted in the room (issue 26)", test_start_pad_counted },
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
			printf("not ok %u - pfn: %s\n", i + 1, tests[i].name);
		} else {
			passed++;
			printf("ok %u - pfn: %s\n", i + 1, tests[i].name);
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
