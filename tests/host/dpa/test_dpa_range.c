// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of kernel/nvdimm/dpa-range.c: free space between busy
 * ranges and the BLK extent policy of docs/namespaces.md (space no PMEM
 * region maps first, then aliased space, lowest DPA first; shrink from
 * the top).  Crafted cases, then a randomized property check against a
 * byte map.  TAP, closed by an "N passed, N failed" line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "dpa-range.h"

static int passed, failed, checks_failed;

#define CHECK_INT(got, want)						\
	do {								\
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_) {						\
			checks_failed++;				\
			printf("#   %s:%d: %s == %lld, expected %lld\n",	\
			       __FILE__, __LINE__, #got, g_, w_);	\
		}							\
	} while (0)

static void tap(const char *desc)
{
	if (checks_failed) {
		failed++;
		printf("not ok %d - dpa: %s\n", passed + failed, desc);
	} else {
		passed++;
		printf("ok %d - dpa: %s\n", passed + failed, desc);
	}
	checks_failed = 0;
}

#define R(s, n) ((struct nd_dpa_range){ (s), (n) })
#define M (1ULL << 20)

static void test_normalize(void)
{
	struct nd_dpa_range r[] = { R(10, 5), R(0, 3), R(3, 2), R(12, 10),
				    R(40, 0), R(30, 1) };
	u32 n = nd_dpa_normalize(r, 6);

	CHECK_INT(n, 3);
	CHECK_INT(r[0].start, 0);
	CHECK_INT(r[0].size, 5);	/* [0,3) + touching [3,5) */
	CHECK_INT(r[1].start, 10);
	CHECK_INT(r[1].size, 12);	/* [10,15) overlaps [12,22) */
	CHECK_INT(r[2].start, 30);
	CHECK_INT(nd_dpa_normalize(r, 0), 0);
	tap("normalize sorts, merges overlapping and touching, drops empty");
}

static void test_free(void)
{
	struct nd_dpa_range busy[] = { R(0, 4), R(10, 2), R(20, 100) };
	struct nd_dpa_range out[4];
	u32 n;

	n = nd_dpa_free(busy, 3, 0, 30, out, 4);
	CHECK_INT(n, 2);
	CHECK_INT(out[0].start, 4);
	CHECK_INT(out[0].size, 6);
	CHECK_INT(out[1].start, 12);
	CHECK_INT(out[1].size, 8);
	n = nd_dpa_free(busy, 3, 2, 11, out, 4);	/* window inside */
	CHECK_INT(n, 1);
	CHECK_INT(out[0].start, 4);
	CHECK_INT(out[0].size, 6);
	n = nd_dpa_free(NULL, 0, 5, 9, out, 4);
	CHECK_INT(n, 1);
	CHECK_INT(out[0].size, 4);
	n = nd_dpa_free(busy, 3, 20, 30, out, 4);
	CHECK_INT(n, 0);
	CHECK_INT(nd_dpa_total(busy, 3), 106);
	CHECK_INT(nd_dpa_largest(busy, 3), 100);
	tap("free ranges of a window between busy ranges");
}

/* The v4.2 document's DIMM2: [0,16M) not aliased, region1 at [16M,32M). */
static void test_blk_doc_example(void)
{
	struct nd_dpa_range pm1 = R(16 * M, 8 * M);	/* pm1.0's extent */
	struct nd_dpa_range free[3], aliased[1] = { R(16 * M, 16 * M) };
	struct nd_dpa_range ext[8];
	u32 nfree;
	int n;

	nfree = nd_dpa_free(&pm1, 1, 0, 32 * M, free, 3);
	CHECK_INT(nfree, 2);
	n = nd_dpa_blk_grow(free, nfree, aliased, 1, 24 * M, ext, 0, 8);
	CHECK_INT(n, 2);
	CHECK_INT(ext[0].start, 0);
	CHECK_INT(ext[0].size, 16 * M);
	CHECK_INT(ext[1].start, 24 * M);
	CHECK_INT(ext[1].size, 8 * M);
	tap("blk4.0 of the v4.2 example: 16M not aliased + 8M of region1, two extents");
}

static void test_blk_prefers_unaliased(void)
{
	/* DIMM0: region0 [0,16M), region1 [16M,32M): all aliased */
	struct nd_dpa_range busy[] = { R(0, 8 * M), R(16 * M, 8 * M) };
	struct nd_dpa_range aliased[] = { R(0, 16 * M), R(16 * M, 16 * M) };
	struct nd_dpa_range free[3], ext[8];
	u32 nfree = nd_dpa_free(busy, 2, 0, 32 * M, free, 3);
	int n;

	n = nd_dpa_blk_grow(free, nfree, aliased, 2, 8 * M, ext, 0, 8);
	CHECK_INT(n, 1);
	CHECK_INT(ext[0].start, 8 * M);		/* region0's leftover first */
	/* a window beyond every PMEM mapping wins over lower aliased DPA */
	aliased[1].size = 8 * M;			/* region1 ends at 24M */
	n = nd_dpa_blk_grow(free, nfree, aliased, 2, 4 * M, ext, 0, 8);
	CHECK_INT(n, 1);
	CHECK_INT(ext[0].start, 24 * M);
	tap("blk growth: unaliased DPA first, then the lowest aliased");
}

static void test_blk_grow_merges_and_fails(void)
{
	struct nd_dpa_range free[] = { R(4 * M, 4 * M) };
	struct nd_dpa_range ext[4] = { R(0, 4 * M) };
	int n;

	n = nd_dpa_blk_grow(free, 1, NULL, 0, 2 * M, ext, 1, 4);
	CHECK_INT(n, 1);			/* [0,4M) + [4M,6M) merge */
	CHECK_INT(ext[0].size, 6 * M);
	n = nd_dpa_blk_grow(free, 1, NULL, 0, 5 * M, ext, 1, 4);
	CHECK_INT(n, -ENOSPC);
	CHECK_INT(ext[0].size, 6 * M);		/* the count was not changed */
	n = nd_dpa_blk_grow(free, 1, NULL, 0, 1 * M, ext, 1, 1);
	CHECK_INT(n, -ENOSPC);			/* no room for an extent */
	tap("blk growth merges touching extents, ENOSPC leaves the list alone");
}

static void test_shrink(void)
{
	struct nd_dpa_range ext[] = { R(0, 4 * M), R(8 * M, 2 * M),
				      R(20 * M, 1 * M) };
	u32 n;

	n = nd_dpa_shrink(ext, 3, 2 * M);
	CHECK_INT(n, 2);			/* top extent gone, next trimmed */
	CHECK_INT(ext[1].size, 1 * M);
	n = nd_dpa_shrink(ext, n, 5 * M);
	CHECK_INT(n, 0);
	/* more than the extents hold: all of them, and nothing before */
	ext[1] = R(0, 4 * M);
	ext[2] = R(8 * M, 2 * M);
	CHECK_INT(nd_dpa_shrink(&ext[1], 2, 7 * M), 0);
	CHECK_INT(ext[0].size, 0);
	CHECK_INT(nd_dpa_shrink(ext, 0, M), 0);
	tap("shrink gives back the highest extents first");
}

/* Randomized: the policy against a byte map of a small DIMM. */
#define SPAN 256
static void test_random(void)
{
	unsigned int seed = 42, round;
	int bad = 0;

	for (round = 0; round < 20000 && !bad; round++) {
		struct nd_dpa_range busy[8], aliased[3], free[16], ext[64];
		u8 map[SPAN] = { 0 }, ali[SPAN] = { 0 };
		u32 nb = rand_r(&seed) % 8, na = rand_r(&seed) % 4, nf, i, j;
		u64 want, freebytes = 0, freeun = 0, taken = 0, takenali = 0;
		int n;

		for (i = 0; i < nb; i++) {
			busy[i].start = rand_r(&seed) % SPAN;
			busy[i].size = rand_r(&seed) % (SPAN / 4);
			if (busy[i].start + busy[i].size > SPAN)
				busy[i].size = SPAN - busy[i].start;
		}
		for (i = 0; i < na; i++) {
			aliased[i].start = rand_r(&seed) % SPAN;
			aliased[i].size = rand_r(&seed) % (SPAN / 2) + 1;
			if (aliased[i].start + aliased[i].size > SPAN)
				aliased[i].size = SPAN - aliased[i].start;
			for (j = 0; j < aliased[i].size; j++)
				ali[aliased[i].start + j] = 1;
		}
		nb = nd_dpa_normalize(busy, nb);
		na = nd_dpa_normalize(aliased, na);
		for (i = 0; i < nb; i++)
			for (j = 0; j < busy[i].size; j++)
				map[busy[i].start + j] = 1;
		nf = nd_dpa_free(busy, nb, 0, SPAN, free, 16);
		for (i = 0; i < SPAN; i++)
			if (!map[i]) {
				freebytes++;
				freeun += !ali[i];
			}
		if (nd_dpa_total(free, nf) != freebytes)
			bad = 1;
		want = rand_r(&seed) % (SPAN + 1);
		n = nd_dpa_blk_grow(free, nf, aliased, na, want, ext, 0, 64);
		if (want > freebytes) {
			bad |= n != -ENOSPC;
			continue;
		}
		if (n < 0) {
			bad = 2;
			break;
		}
		for (i = 0; i < (u32)n; i++)
			for (j = 0; j < ext[i].size; j++) {
				u64 b = ext[i].start + j;

				if (b >= SPAN || map[b])
					bad = 3;	/* outside or busy */
				map[b] = 2;
				taken++;
				takenali += ali[b];
			}
		if (taken != want)
			bad = 4;
		if (takenali && taken - takenali != freeun)
			bad = 5;	/* aliased used before unaliased ran out */
		for (i = 1; i < (u32)n; i++)
			if (ext[i].start <= ext[i - 1].start + ext[i - 1].size)
				bad = 6;	/* not normalized */
	}
	if (bad)
		printf("#   round %u: violation %d\n", round, bad);
	CHECK_INT(bad, 0);
	tap("20000 random DIMMs: growth stays in free DPA, exact, unaliased first, normalized");
}

/* ranges from labels on media: start + size may wrap (issue 10 #1) */
static void test_wrapping_ranges(void)
{
	const u64 top = ~0ULL;
	struct nd_dpa_range wrap = R(16 * M, 0xffffffffff000000ULL);
	struct nd_dpa_range low = R(0, 16 * M), mid = R(20 * M, M);
	struct nd_dpa_range busy[2] = { low, wrap }, out[4];
	u32 n;

	CHECK_INT(nd_dpa_end(&wrap) == top, 1);
	CHECK_INT(nd_dpa_end(&mid), 21 * M);
	CHECK_INT(nd_dpa_overlap(&wrap, &mid), 1);
	CHECK_INT(nd_dpa_overlap(&mid, &wrap), 1);
	CHECK_INT(nd_dpa_overlap(&wrap, &low), 0);
	/* the wrapping label keeps everything above 16M busy */
	n = nd_dpa_normalize(busy, 2);
	CHECK_INT(n, 1);
	CHECK_INT(nd_dpa_end(&busy[0]) == top, 1);
	CHECK_INT(nd_dpa_free(busy, n, 0, 32 * M, out, 4), 0);
	busy[0] = mid;
	busy[1] = wrap;
	n = nd_dpa_normalize(busy, 2);
	CHECK_INT(n, 1);
	CHECK_INT(busy[0].start, 16 * M);
	CHECK_INT(nd_dpa_free(busy, n, 0, 32 * M, out, 4), 1);
	CHECK_INT(out[0].size, 16 * M);
	tap("a range whose end wraps is busy up to the top, never small");
}

static void test_align_trim(void)
{
	struct nd_dpa_range r[] = { R(4096, 32 * M - 4096), R(40 * M, 4 * M),
				    R(50 * M + 4096, 16 * M) };
	u32 n = nd_dpa_align_trim(r, 3, 0, 8 * M);

	CHECK_INT(n, 2);
	CHECK_INT(r[0].start, 8 * M);	/* after a 4 KiB BLK extent */
	CHECK_INT(r[0].size, 24 * M);
	CHECK_INT(r[1].start, 56 * M);	/* [40M,44M) holds no whole unit */
	CHECK_INT(r[1].size, 8 * M);
	r[0] = R(3 * M, 10 * M);
	CHECK_INT(nd_dpa_align_trim(r, 1, M, 4 * M), 1);
	CHECK_INT(r[0].start, 5 * M);	/* units count from the base */
	CHECK_INT(r[0].size, 8 * M);
	r[0] = R(~0ULL - 4 * M, 4 * M);
	CHECK_INT(nd_dpa_align_trim(r, 1, 0, 8 * M), 0);
	r[0] = R(5, 7);
	CHECK_INT(nd_dpa_align_trim(r, 1, 0, 1), 1);
	CHECK_INT(r[0].size, 7);
	/* a range already on whole units from the base stays whole */
	r[0] = R(8 * M, 16 * M);
	r[1] = R(5 * M, 4 * M);
	CHECK_INT(nd_dpa_align_trim(r, 2, M, 4 * M), 2);
	CHECK_INT(r[0].start, 9 * M);
	CHECK_INT(r[0].size, 12 * M);
	CHECK_INT(r[1].start, 5 * M);
	CHECK_INT(r[1].size, 4 * M);
	tap("free ranges trimmed to whole units of the region's align");
}

/* the boundary cases the mutation audit found untested */
static void test_free_boundaries(void)
{
	struct nd_dpa_range busy[] = { R(0, 4), R(10, 2), R(20, 10) };
	struct nd_dpa_range out[4];
	u32 n;

	/* busy [20, 30) ends exactly at the window end: no empty tail */
	memset(out, 0xa5, sizeof(out));
	n = nd_dpa_free(busy, 3, 0, 30, out, 4);
	CHECK_INT(n, 2);
	CHECK_INT(out[0].start, 4);
	CHECK_INT(out[0].size, 6);
	CHECK_INT(out[1].start, 12);
	CHECK_INT(out[1].size, 8);
	CHECK_INT(out[2].start, 0xa5a5a5a5a5a5a5a5ULL);	/* not written */
	/* the window starts where a busy range starts: no empty head */
	n = nd_dpa_free(busy, 3, 10, 16, out, 4);
	CHECK_INT(n, 1);
	CHECK_INT(out[0].start, 12);
	CHECK_INT(out[0].size, 4);
	/* room for one range: only the first gap, nothing written past */
	memset(out, 0xa5, sizeof(out));
	n = nd_dpa_free(busy, 3, 0, 40, out, 1);
	CHECK_INT(n, 1);
	CHECK_INT(out[0].start, 4);
	CHECK_INT(out[0].size, 6);
	CHECK_INT(out[1].start, 0xa5a5a5a5a5a5a5a5ULL);
	CHECK_INT(nd_dpa_free(busy, 3, 0, 40, out, 0), 0);
	tap("free: busy range ending at the window end, room bound");
}

static void test_overlap_largest(void)
{
	struct nd_dpa_range a = R(10, 5), b = R(15, 5), c = R(14, 5),
			    z = R(12, 0), sizes[] = { R(0, 3), R(10, 9),
						      R(30, 4) };

	CHECK_INT(nd_dpa_overlap(&a, &b), 0);	/* adjacent, both orders */
	CHECK_INT(nd_dpa_overlap(&b, &a), 0);
	CHECK_INT(nd_dpa_overlap(&a, &c), 1);	/* one shared byte: 14 */
	CHECK_INT(nd_dpa_overlap(&c, &a), 1);
	CHECK_INT(nd_dpa_overlap(&a, &a), 1);
	CHECK_INT(nd_dpa_overlap(&a, &z), 0);	/* zero size, inside a */
	CHECK_INT(nd_dpa_overlap(&z, &a), 0);
	CHECK_INT(nd_dpa_overlap(&z, &z), 0);
	CHECK_INT(nd_dpa_largest(sizes, 3), 9);	/* the largest is not last */
	CHECK_INT(nd_dpa_largest(sizes, 1), 3);
	CHECK_INT(nd_dpa_largest(sizes, 0), 0);
	tap("overlap: adjacent 0, one shared byte 1, zero size 0; largest");
}

static void test_align_trim_base(void)
{
	struct nd_dpa_range r[2];

	/* align 0 or 1 leaves the ranges alone, even below the base */
	r[0] = R(5, 7);
	CHECK_INT(nd_dpa_align_trim(r, 1, 10, 1), 1);
	CHECK_INT(r[0].start, 5);
	CHECK_INT(r[0].size, 7);
	CHECK_INT(nd_dpa_align_trim(r, 1, 10, 0), 1);
	/* with trimming, a range below the base is dropped, not wrapped */
	r[0] = R(2 * M, 4 * M);
	r[1] = R(12 * M, 8 * M);
	CHECK_INT(nd_dpa_align_trim(r, 2, 10 * M, 4 * M), 1);
	CHECK_INT(r[0].start, 14 * M);
	CHECK_INT(r[0].size, 4 * M);
	tap("align_trim: no trimming for align <= 1, ranges below base dropped");
}

/* the third mutation pass: edges the first two did not reach */
static void test_more_edges(void)
{
	struct nd_dpa_range r[8], ext[2] = { R(64 * M, M) };
	struct nd_dpa_range free[] = { R(0, 4 * M) }, ali[] = { R(0, 8 * M) };
	u32 n;

	/* a zero-size range left behind the compacted ones is dropped */
	r[0] = R(0, 3);
	r[1] = R(40, 0);
	CHECK_INT(nd_dpa_normalize(r, 2), 1);
	CHECK_INT(r[0].size, 3);
	/* descending input, sorted by the kernel's heapsort */
	for (n = 0; n < 8; n++)
		r[n] = R(70 - 10 * n, 5);
	CHECK_INT(nd_dpa_normalize(r, 8), 8);
	for (n = 0; n < 8; n++)
		CHECK_INT(r[n].start, 10 * n);
	/* align 2 trims; a range starting at the base is kept */
	r[0] = R(5, 8);
	CHECK_INT(nd_dpa_align_trim(r, 1, 0, 2), 1);
	CHECK_INT(r[0].start, 6);
	CHECK_INT(r[0].size, 6);
	r[0] = R(10 * M, 8 * M);
	CHECK_INT(nd_dpa_align_trim(r, 1, 10 * M, 4 * M), 1);
	CHECK_INT(r[0].start, 10 * M);
	CHECK_INT(r[0].size, 8 * M);
	/* only aliased space, and no room for another extent */
	CHECK_INT(nd_dpa_blk_grow(free, 1, ali, 1, M, ext, 1, 1), -ENOSPC);
	CHECK_INT(ext[0].start, 64 * M);
	CHECK_INT(nd_dpa_blk_grow(free, 1, ali, 1, M, ext, 1, 2), 2);
	CHECK_INT(ext[0].start, 0);
	CHECK_INT(ext[1].start, 64 * M);
	tap("normalize drops a trailing empty range, sorts; trim at align 2 and at the base; aliased ENOSPC");
}

int main(void)
{
	test_normalize();
	test_free();
	test_blk_doc_example();
	test_blk_prefers_unaliased();
	test_blk_grow_merges_and_fails();
	test_shrink();
	test_random();
	test_wrapping_ranges();
	test_align_trim();
	test_free_boundaries();
	test_overlap_largest();
	test_align_trim_base();
	test_more_edges();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
