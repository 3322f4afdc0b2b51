// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for kernel/nvdimm/pfn-format.c.
 *
 * Input (the committed seeds in pfn/corpus have this shape):
 *   byte 0       options: bit 0 reseal the block's checksum (so that
 *                mutations reach the checks behind it), bit 1 look for
 *                a dax block (else pfn), bit 2 copy the namespace uuid
 *                into parent_uuid, bit 3 write the signature asked for,
 *                bit 4 mode PMEM for the compute pass (else RAM)
 *   bytes 1-8    namespace start, little-endian
 *   bytes 9-16   namespace size, little-endian
 *   byte 17      log2 of the alignment for the compute pass
 *   then         the 4096-byte info block (zero-padded when short)
 *
 * pfn_sb_check() must never crash, and a layout it accepts lies inside
 * the namespace (checked in 128-bit arithmetic: the data, from start +
 * start_pad + dataoff, ends at start + size - end_trunc) and builds back
 * into a block that checks to the same layout.  pfn_layout_compute() on the
 * same namespace must give a layout that builds into a valid block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <asm/byteorder.h>

#include "pfn-format.h"

#define HDR 18
#define PAGE 4096u
#define COMPAT (2u << 20)

#define INVARIANT(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "invariant violated: %s (line %d)\n", \
				#cond, __LINE__);			\
			abort();					\
		}							\
	} while (0)

static const u8 ns_uuid[16] = { 0x6e, 0x73, 1, 2, 3, 4, 5, 6, 7, 8 };
static const u8 dev_uuid[16] = { 0xd0, 1, 2, 3 };

static u64 get64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool same(const struct pfn_layout *a, const struct pfn_layout *b)
{
	return a->dataoff == b->dataoff && a->npfns == b->npfns &&
	       a->start_pad == b->start_pad && a->end_trunc == b->end_trunc &&
	       a->align == b->align && a->mode == b->mode &&
	       a->page_size == b->page_size &&
	       a->page_struct_size == b->page_struct_size;
}

/* @l, accepted for [start, start + size), lies inside it */
static void inside(const struct pfn_layout *l, bool dax, u64 start, u64 size)
{
	unsigned __int128 end = (unsigned __int128)start + size;
	unsigned __int128 data = (unsigned __int128)start + l->start_pad +
		l->dataoff;
	unsigned __int128 data_end = data +
		(unsigned __int128)l->npfns * l->page_size;

	INVARIANT(end <= ~0ULL);
	/*
	 * the data, [start + start_pad + dataoff, + npfns pages), lies in
	 * [start, end - end_trunc): the mapped range behind dataoff, from
	 * which the disk and the DAX range are sized, holds it
	 */
	INVARIANT(data >= start && data_end > data);
	INVARIANT(data_end <= end - l->end_trunc);
	INVARIANT(l->mode == PFN_MODE_RAM || l->mode == PFN_MODE_PMEM);
	INVARIANT(l->page_size == PAGE);
	INVARIANT(l->npfns >= 1);
	INVARIANT(l->dataoff >= PFN_RESERVE && l->dataoff % PAGE == 0);
	INVARIANT((u64)l->start_pad + l->end_trunc < size);
	INVARIANT(l->align >= PAGE && !(l->align & (l->align - 1)));
	INVARIANT(l->align <= size);
	INVARIANT(((unsigned __int128)start + l->dataoff + l->start_pad) %
		  l->align == 0);
	INVARIANT(((unsigned __int128)start + l->start_pad) % COMPAT == 0);
	INVARIANT((end - l->end_trunc) % COMPAT == 0);
	if (l->mode == PFN_MODE_PMEM)
		INVARIANT(l->page_struct_size >= PFN_MAX_STRUCT_PAGE_SIZE);
	if (dax)
		INVARIANT(l->align == PAGE || l->align == PAGE << 9 ||
			  l->align == PAGE << 18);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nd_pfn_sb sb __attribute__((aligned(8)));
	static struct nd_pfn_sb again __attribute__((aligned(8)));
	struct pfn_layout l, back;
	const char *why = NULL;
	u64 start, nsize;
	bool dax;
	u8 opts;
	u32 align;
	int rc;

	if (size < HDR)
		return 0;
	opts = data[0];
	dax = opts & 2;
	start = get64(data + 1);
	nsize = get64(data + 9);
	align = 1u << (data[17] % 32);
	memset(&sb, 0, sizeof(sb));
	memcpy(&sb, data + HDR, size - HDR < sizeof(sb) ? size - HDR :
	       sizeof(sb));
	if (opts & 8)
		memcpy(sb.signature, dax ? DAX_SIG : PFN_SIG, PFN_SIG_LEN);
	if (opts & 4)
		memcpy(sb.parent_uuid, ns_uuid, 16);
	if (opts & 1)
		sb.checksum = cpu_to_le64(pfn_sb_checksum(&sb));

	memset(&l, 0xa5, sizeof(l));
	rc = pfn_sb_check(&sb, dax, ns_uuid, start, nsize, PAGE, COMPAT, &l,
			  &why);
	INVARIANT(rc == 0 || rc == -ENODEV || rc == -ENXIO || rc == -EINVAL);
	if (rc) {
		INVARIANT(why && *why);
		INVARIANT(l.dataoff == 0xa5a5a5a5a5a5a5a5ULL);
	} else {
		inside(&l, dax, start, nsize);
		pfn_sb_build(&again, dax, dev_uuid, ns_uuid, &l);
		INVARIANT(!pfn_sb_check(&again, dax, ns_uuid, start, nsize,
					PAGE, COMPAT, &back, &why));
		INVARIANT(same(&l, &back));
	}

	rc = pfn_layout_compute(start, nsize, opts & 16 ? PFN_MODE_PMEM :
				PFN_MODE_RAM, align, COMPAT, PAGE, &l);
	INVARIANT(rc == 0 || rc == -ENXIO || rc == -EINVAL);
	if (!rc) {
		INVARIANT(l.align == align && l.start_pad == 0);
		pfn_sb_build(&again, dax, dev_uuid, ns_uuid, &l);
		rc = pfn_sb_check(&again, dax, ns_uuid, start, nsize, PAGE,
				  COMPAT, &back, &why);
		/* dax takes only 4K, 2M and 1G alignments */
		if (dax && align != PAGE && align != PAGE << 9 &&
		    align != PAGE << 18) {
			INVARIANT(rc == -EINVAL);
		} else {
			if (rc)
				fprintf(stderr, "rejected: %s\n", why);
			INVARIANT(!rc && same(&l, &back));
			inside(&back, dax, start, nsize);
		}
	}
	return 0;
}
