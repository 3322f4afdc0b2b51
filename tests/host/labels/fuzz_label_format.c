// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for kernel/nvdimm/label-format.c.
 *
 * Input: byte 0 = options (bit 0: recompute the checksum of every block
 * that carries the index signature, so that mutations reach the checks
 * after it; bit 1: recompute 256-byte label checksums), byte 1 = area
 * size (see fuzz_sizes; other values: the rest of the input is the whole
 * area), then the first bytes of the area (the rest is zero).
 *
 * After validation the invariants below must hold, then the next-index
 * update runs and its result must validate as the new current block.
 * Built with ASan+UBSan, so any access outside the area aborts.
 *
 * The area and its copy live in two buffers allocated once: a fresh
 * 128 or 256 KiB allocation per input is mmap()ed and unmapped by ASan's
 * allocator, and its page faults were three quarters of the run time.
 * The bytes past the area are poisoned by hand (ASan reports any access
 * to them as it would past a malloc()ed area); sizes that are not a
 * multiple of ASan's 8-byte granule, which hand poisoning cannot bound
 * exactly, still get an allocation of their own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/byteorder.h>
#include <sanitizer/asan_interface.h>

#include "label-format.h"
#include "lsa_builder.h"

static const u32 fuzz_sizes[] = {
	128 * 1024, 256 * 1024, 1024, 4096, 66048, 768, 2048,
};

#define INVARIANT(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "invariant violated: %s (line %d)\n", \
				#cond, __LINE__);			\
			abort();					\
		}							\
	} while (0)

#define AREA_MAX (1u << 20)	/* the largest area an input can ask for */

/*
 * A buffer of @size bytes for this input: @pool (allocated once) with
 * everything past @size poisoned, or a fresh allocation when @size is
 * not a multiple of 8.  Free with put_buf().
 */
static u8 *get_buf(u8 **pool, u32 size)
{
	if (size % 8 || !size)
		return malloc(size ? size : 1);
	if (!*pool) {
		*pool = malloc(AREA_MAX);
		if (!*pool)
			abort();
	}
	ASAN_UNPOISON_MEMORY_REGION(*pool, size);
	ASAN_POISON_MEMORY_REGION(*pool + size, AREA_MAX - size);
	return *pool;
}

static void put_buf(u8 *pool, u8 *buf)
{
	if (buf != pool)
		free(buf);
}

static u8 *area_pool, *copy_pool;

static void fix_checksums(u8 *area, u32 size, bool labels)
{
	u32 isizes[3] = {
		nd_lsa_index_size(size, 128),
		nd_lsa_index_size_v4x(size),
		nd_lsa_index_size(size, 256),
	};
	unsigned int i, b;
	u32 k;

	for (i = 0; i < 3; i++) {
		if (!isizes[i] || 2 * (u64)isizes[i] > size)
			continue;
		for (b = 0; b < 2; b++)
			if (!memcmp(area + b * isizes[i], "NAMESPACE_INDEX", 16))
				lb_reseal_index(area, isizes[i], b);
	}
	if (!labels || !isizes[2])
		return;
	for (k = 0; k < 64; k++) {
		u64 off = 2 * (u64)isizes[2] + (u64)k * 256;

		if (off + 256 > size)
			break;
		lb_put64(area + off + 248, 0);
		lb_put64(area + off + 248, lb_fletcher64(area + off, 256));
	}
}

static void check(u8 *area, u32 size)
{
	u8 *copy = get_buf(&copy_pool, size);
	const struct nd_lsa_index *cur;
	struct nd_lsa lsa = { .area = area, .size = size };
	struct nd_lsa again = { .area = area, .size = size };
	u32 nslot, nfree, first, s, avail;
	int rc, old_next;

	memcpy(copy, area, size);
	rc = nd_lsa_validate(&lsa);
	INVARIANT(!memcmp(copy, area, size));
	INVARIANT(rc == lsa.cur);
	INVARIANT(rc >= -1 && rc <= 1);

	if (rc < 0) {
		INVARIANT(lsa.next == -1);
		INVARIANT(lsa.verdict[0] != ND_LSA_VALID &&
			  lsa.verdict[1] != ND_LSA_VALID);
		avail = nd_lsa_available_slots(&lsa, ND_LSA_V12);
		INVARIANT(avail <= size / 256);
		INVARIANT(!nd_lsa_label_live(&lsa, 0));
		/* a fresh layout must validate */
		if (!nd_lsa_init(&lsa, size % 2 ? ND_LSA_V11 : ND_LSA_V12)) {
			INVARIANT(nd_lsa_validate(&again) == 0);
			INVARIANT(again.isize == lsa.isize &&
				  again.lsize == lsa.lsize);
		}
		put_buf(copy_pool, copy);
		return;
	}

	INVARIANT(lsa.next == 1 - rc);
	INVARIANT(lsa.verdict[rc] == ND_LSA_VALID);
	INVARIANT(lsa.isize && lsa.isize % ND_LSA_INDEX_ALIGN == 0);
	INVARIANT(lsa.lsize == 128 || lsa.lsize == 256);
	INVARIANT(nd_lsa_check_index(area, size, lsa.isize, lsa.lsize, rc) ==
		  ND_LSA_VALID);
	cur = nd_lsa_index(&lsa, rc);
	nslot = nd_lsa_index_nslot(cur);
	INVARIANT(2 * (u64)lsa.isize + (u64)nslot * lsa.lsize <= size);
	INVARIANT(72 + ((u64)nslot + 7) / 8 <= lsa.isize);
	if (lsa.verdict[lsa.next] == ND_LSA_VALID)
		INVARIANT(rc == nd_lsa_best_seq(
				le32_to_cpu(nd_lsa_index(&lsa, 0)->seq),
				le32_to_cpu(nd_lsa_index(&lsa, 1)->seq)));

	nfree = nd_lsa_nfree(cur);
	first = nd_lsa_first_free(cur);
	INVARIANT(nfree <= nslot && first <= nslot);
	INVARIANT((first == nslot) == (nfree == 0));
	if (first < nslot)
		INVARIANT(nd_lsa_slot_is_free(cur, first));
	for (s = 0; s < nslot + 4; s++)
		if (nd_lsa_label_live(&lsa, s))
			INVARIANT(s < nslot && !nd_lsa_slot_is_free(cur, s));

	/* the kernel's bind, then one label update */
	nd_lsa_next_prepare(&lsa);
	avail = nd_lsa_available_slots(&lsa, ND_LSA_V11);
	INVARIANT(avail == (nfree ? nfree - 1 : 0));
	if (first < nslot)
		nd_lsa_slot_set_free(nd_lsa_index(&lsa, lsa.next), first,
				     false);
	nd_lsa_next_seal(&lsa);
	old_next = lsa.next;
	INVARIANT(nd_lsa_validate(&again) == old_next);
	INVARIANT(again.isize == lsa.isize && again.lsize == lsa.lsize);
	nd_lsa_switch(&lsa);
	INVARIANT(lsa.cur == old_next);
	INVARIANT(nd_lsa_nfree(nd_lsa_index(&lsa, lsa.cur)) ==
		  nfree - (first < nslot));
	put_buf(copy_pool, copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	u32 size, n;
	u8 *area;

	if (len < 2 || len > (1u << 20))
		return 0;
	if (data[1] < sizeof(fuzz_sizes) / sizeof(fuzz_sizes[0]))
		size = fuzz_sizes[data[1]];
	else
		size = len - 2;
	area = get_buf(&area_pool, size);
	if (!area)
		return 0;
	memset(area, 0, size);
	n = len - 2 < size ? len - 2 : size;
	memcpy(area, data + 2, n);
	if (data[0] & 3)
		fix_checksums(area, size, data[0] & 2);
	check(area, size);
	put_buf(area_pool, area);
	return 0;
}
