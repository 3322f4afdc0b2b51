// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * PFN / DAX info block format: the layout a fresh pfn or dax device gets,
 * building its info block, and validating one read from the media.  See
 * pfn-format.h and docs/pfn.md.
 *
 * Every number read from the media is range-checked before it takes part
 * in a sum or a product, and every such sum or product is checked for
 * overflow, so no info block can make the data area wrap around or leave
 * its namespace.
 */
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/export.h>
#include <linux/build_bug.h>
#include <linux/overflow.h>
#include <asm/byteorder.h>

#include "label-format.h"
#include "pfn-format.h"

static_assert(sizeof(struct nd_pfn_sb) == PFN_SB_SIZE);
static_assert(offsetof(struct nd_pfn_sb, flags) == 48);
static_assert(offsetof(struct nd_pfn_sb, version_major) == 52);
static_assert(offsetof(struct nd_pfn_sb, dataoff) == 56);
static_assert(offsetof(struct nd_pfn_sb, npfns) == 64);
static_assert(offsetof(struct nd_pfn_sb, mode) == 72);
static_assert(offsetof(struct nd_pfn_sb, start_pad) == 76);
static_assert(offsetof(struct nd_pfn_sb, end_trunc) == 80);
static_assert(offsetof(struct nd_pfn_sb, align) == 84);
static_assert(offsetof(struct nd_pfn_sb, page_size) == 88);
static_assert(offsetof(struct nd_pfn_sb, page_struct_size) == 92);
static_assert(offsetof(struct nd_pfn_sb, padding) == 94);
static_assert(offsetof(struct nd_pfn_sb, checksum) == 4088);
static_assert(sizeof(PFN_SIG) <= PFN_SIG_LEN && sizeof(DAX_SIG) <= PFN_SIG_LEN);

/* x86 page tables: a PMD maps 512 pages, a PUD 512 PMDs */
#define PFN_PMD_SHIFT	9
#define PFN_PUD_SHIFT	18

static const u8 pfn_sig[PFN_SIG_LEN] = PFN_SIG;
static const u8 dax_sig[PFN_SIG_LEN] = DAX_SIG;

static bool pfn_is_pow2(u64 v)
{
	return v && !(v & (v - 1));
}

/* the largest power of two not above @v (@v nonzero) */
static u64 pfn_pow2_floor(u64 v)
{
	u64 p = 1;

	while (p <= v / 2)
		p <<= 1;
	return p;
}

/* @v rounded up to @align (a power of two); false when that wraps */
static bool pfn_align_up(u64 v, u64 align, u64 *out)
{
	u64 t;

	if (check_add_overflow(v, align - 1, &t))
		return false;
	*out = t & ~(align - 1);
	return true;
}

/* page size and compat alignment: powers of two, compat at least a page */
static bool pfn_params_ok(u32 page_size, u32 compat_align)
{
	return pfn_is_pow2(page_size) && pfn_is_pow2(compat_align) &&
	       compat_align >= page_size;
}

/**
 * pfn_sb_checksum - the checksum an info block should carry
 * @sb: the block (4-byte aligned)
 *
 * Fletcher-64 (little-endian words) of the 4096 bytes with the checksum
 * field taken as zero, as for a BTT info block; @sb is not modified.
 *
 * Return: the checksum.
 */
u64 pfn_sb_checksum(const struct nd_pfn_sb *sb)
{
	u64 sum = nd_fletcher64(sb, offsetof(struct nd_pfn_sb, checksum), true);
	u32 low = sum;
	u32 high = (sum >> 32) + 2 * low;	/* the two zero words */

	return (u64)high << 32 | low;
}
EXPORT_SYMBOL_GPL(pfn_sb_checksum);

/**
 * pfn_layout_compute - the layout a new pfn/dax device gets
 * @start: physical address of the namespace
 * @size: namespace size in bytes
 * @mode: PFN_MODE_PMEM (struct pages on the device) or PFN_MODE_RAM
 * @align: alignment asked for (a power of two, at least @page_size); it
 *	is recorded as given
 * @compat_align: memremap_compat_align(): @start must be a multiple
 * @page_size: PAGE_SIZE
 * @l: filled on success
 *
 * The mapping is aligned to the larger of @align and @compat_align: the
 * tail past the last such boundary is cut off (end_trunc), and the data
 * starts at the first boundary behind the 8 KiB reserve and, in PMEM
 * mode, 64 bytes of struct page per page the namespace could hold.
 * start_pad is always 0.
 *
 * Return: 0; -EINVAL for an unknown @mode, a bad @align, @page_size or
 * @compat_align, a @start not a multiple of @compat_align or a namespace
 * past the end of the address space; -ENXIO when no data page fits.
 */
int pfn_layout_compute(u64 start, u64 size, u32 mode, u32 align,
		       u32 compat_align, u32 page_size, struct pfn_layout *l)
{
	u64 eff, end, end_trunc, guess, reserve, first, dataoff, room;

	if (!pfn_params_ok(page_size, compat_align) || !pfn_is_pow2(align) ||
	    align < page_size)
		return -EINVAL;
	if (start & (compat_align - 1))
		return -EINVAL;
	if (mode != PFN_MODE_PMEM && mode != PFN_MODE_RAM)
		return -EINVAL;
	if (check_add_overflow(start, size, &end))
		return -EINVAL;
	eff = align > compat_align ? align : compat_align;
	end_trunc = end & (eff - 1);
	if (size < PFN_RESERVE || end_trunc >= size)
		return -ENXIO;

	reserve = 0;
	if (mode == PFN_MODE_PMEM) {
		guess = (size - PFN_RESERVE) / page_size;
		if (check_mul_overflow(guess, (u64)PFN_MAX_STRUCT_PAGE_SIZE,
				       &reserve))
			return -ENXIO;
	}
	if (check_add_overflow(reserve, (u64)PFN_RESERVE, &reserve) ||
	    check_add_overflow(start, reserve, &first) ||
	    !pfn_align_up(first, eff, &first))
		return -ENXIO;
	dataoff = first - start;
	if (dataoff >= size - end_trunc)
		return -ENXIO;
	room = size - dataoff - end_trunc;

	l->dataoff = dataoff;
	l->npfns = room / page_size;
	l->start_pad = 0;
	l->end_trunc = end_trunc;
	l->align = align;
	l->mode = mode;
	l->page_size = page_size;
	l->page_struct_size = PFN_MAX_STRUCT_PAGE_SIZE;
	return 0;
}
EXPORT_SYMBOL_GPL(pfn_layout_compute);

/**
 * pfn_sb_build - a fresh info block
 * @sb: filled completely (padding zero), checksum included
 * @dax: DAX_SIG rather than PFN_SIG
 * @uuid: the pfn/dax device uuid, 16 bytes
 * @parent_uuid: the namespace uuid, 16 bytes
 * @l: the layout, from pfn_layout_compute()
 *
 * Version 1.4, flags 0.
 */
void pfn_sb_build(struct nd_pfn_sb *sb, bool dax, const u8 uuid[16],
		  const u8 parent_uuid[16], const struct pfn_layout *l)
{
	memset(sb, 0, sizeof(*sb));
	memcpy(sb->signature, dax ? dax_sig : pfn_sig, PFN_SIG_LEN);
	memcpy(sb->uuid, uuid, sizeof(sb->uuid));
	memcpy(sb->parent_uuid, parent_uuid, sizeof(sb->parent_uuid));
	sb->version_major = cpu_to_le16(PFN_VERSION_MAJOR);
	sb->version_minor = cpu_to_le16(PFN_VERSION_MINOR);
	sb->dataoff = cpu_to_le64(l->dataoff);
	sb->npfns = cpu_to_le64(l->npfns);
	sb->mode = cpu_to_le32(l->mode);
	sb->start_pad = cpu_to_le32(l->start_pad);
	sb->end_trunc = cpu_to_le32(l->end_trunc);
	sb->align = cpu_to_le32(l->align);
	sb->page_size = cpu_to_le32(l->page_size);
	sb->page_struct_size = cpu_to_le16(l->page_struct_size);
	sb->checksum = cpu_to_le64(pfn_sb_checksum(sb));
}
EXPORT_SYMBOL_GPL(pfn_sb_build);

/* the fields as a reader of version 1.@minor sees them */
static void pfn_sb_decode(const struct nd_pfn_sb *sb, u32 page_size,
			  struct pfn_layout *l)
{
	u16 minor = le16_to_cpu(sb->version_minor);

	l->dataoff = le64_to_cpu(sb->dataoff);
	l->npfns = le64_to_cpu(sb->npfns);
	l->mode = le32_to_cpu(sb->mode);
	l->start_pad = 0;
	l->end_trunc = 0;
	l->align = 0;
	l->page_size = page_size;
	l->page_struct_size = PFN_MAX_STRUCT_PAGE_SIZE;
	if (minor >= 1) {
		l->start_pad = le32_to_cpu(sb->start_pad);
		l->end_trunc = le32_to_cpu(sb->end_trunc);
	}
	if (minor >= 2)
		l->align = le32_to_cpu(sb->align);
	if (minor >= 4) {
		l->page_size = le32_to_cpu(sb->page_size);
		l->page_struct_size = le16_to_cpu(sb->page_struct_size);
	}
}

/* is @align a mapping size a dax device can have: a page, PMD or PUD */
static bool pfn_dax_align_ok(u32 align, u32 page_size)
{
	return align == page_size ||
	       (u64)align == (u64)page_size << PFN_PMD_SHIFT ||
	       (u64)align == (u64)page_size << PFN_PUD_SHIFT;
}

/*
 * The fields of a block that is ours (signature, checksum, parent) against
 * the namespace [@start, @start + @size); the alignment is resolved into
 * @l->align on success.  Returns NULL or why the block is invalid.
 */
static const char *pfn_check_layout(struct pfn_layout *l, bool dax,
				    u64 start, u64 size, u32 page_size,
				    u32 compat_align)
{
	u64 align = l->align, end, cut, data, base, pages, room;

	if (check_add_overflow(start, size, &end))
		return "namespace past the end of the address space";
	if (l->mode != PFN_MODE_RAM && l->mode != PFN_MODE_PMEM)
		return "unknown mode";
	if (l->page_size != page_size)
		return "page size mismatch";
	if (l->mode == PFN_MODE_PMEM &&
	    l->page_struct_size < PFN_MAX_STRUCT_PAGE_SIZE)
		return "struct page size too small";
	if (l->dataoff < PFN_RESERVE || l->dataoff & (page_size - 1))
		return "data offset not page aligned or inside the reserve";
	if (!align) {
		align = pfn_pow2_floor(l->dataoff);
		if (align > PFN_ALIGN_MAX)
			align = PFN_ALIGN_MAX;
	}
	if (!pfn_is_pow2(align) || align < page_size)
		return "alignment not a power of two of at least a page";
	if (dax && !pfn_dax_align_ok(align, page_size))
		return "alignment not supported for dax";
	if (align > size)
		return "alignment exceeds the namespace";
	if (check_add_overflow((u64)l->start_pad, (u64)l->end_trunc, &cut) ||
	    cut >= size)
		return "start_pad and end_trunc exceed the namespace";
	if (l->dataoff >= size - cut)
		return "data offset beyond the namespace";
	if (check_add_overflow(start, l->dataoff, &data) ||
	    check_add_overflow(data, (u64)l->start_pad, &data) ||
	    data & (align - 1))
		return "data offset not aligned";
	if (check_add_overflow(start, (u64)l->start_pad, &base) ||
	    base & (compat_align - 1))
		return "mapping start misaligned";
	/* end - end_trunc cannot wrap: end_trunc < size */
	if ((end - l->end_trunc) & (compat_align - 1))
		return "mapping end misaligned";
	/*
	 * The mapped range is [start + start_pad, end - end_trunc); the data
	 * is its part behind dataoff, and that is what the disk and the DAX
	 * range are made of (as 6.1 sizes them).  npfns may not say more:
	 * that would reach past the namespace.  Fewer is accepted, as 6.1
	 * does (it ignores npfns): the data is still sized from the range,
	 * and refusing would take away a namespace the stock kernel attaches.
	 * room cannot wrap: dataoff < size - cut above.
	 */
	room = size - cut - l->dataoff;
	if (!l->npfns ||
	    check_mul_overflow(l->npfns, (u64)page_size, &pages) ||
	    pages > room)
		return "npfns zero or past the mapped range (start_pad, end_trunc counted)";
	l->align = align;
	return NULL;
}

/**
 * pfn_sb_check - validate an info block read from the media
 * @sb: the 4096 bytes read at PFN_SB_OFFSET (4-byte aligned)
 * @dax: look for DAX_SIG rather than PFN_SIG
 * @parent_uuid: the namespace uuid, 16 bytes
 * @start: physical address of the namespace
 * @size: namespace size in bytes
 * @page_size: PAGE_SIZE
 * @compat_align: memremap_compat_align()
 * @l: filled with the resolved layout on success, untouched otherwise
 * @why: set to a short constant reason on failure (may be NULL)
 *
 * Fields a version 1.@minor block does not have read as the 6.1 kernel
 * reads them: start_pad and end_trunc 0 below minor 1; below minor 2 the
 * alignment is the largest power of two not above dataoff (capped at
 * 1 GiB); below minor 4 page size @page_size and struct page size 64.
 * flags and padding are not looked at.  @sb is not modified.
 *
 * Return: 0; -ENODEV when the signature is not the one asked for (no info
 * block of this kind); -ENXIO when the block belongs to another namespace
 * (parent uuid); -EINVAL when it is ours but invalid (checksum, version,
 * mode, sizes, alignment, or npfns other than the pages of the mapped
 * range behind dataoff, [start + start_pad + dataoff, start + size -
 * end_trunc)), or when the namespace would end past 2^64 - 1 or the
 * parameters are bad.
 */
int pfn_sb_check(const struct nd_pfn_sb *sb, bool dax,
		 const u8 parent_uuid[16], u64 start, u64 size,
		 u32 page_size, u32 compat_align, struct pfn_layout *l,
		 const char **why)
{
	const char *bad;
	struct pfn_layout d;
	int rc = -EINVAL;

	if (memcmp(sb->signature, dax ? dax_sig : pfn_sig, PFN_SIG_LEN)) {
		bad = "no info block signature";
		rc = -ENODEV;
	} else if (le64_to_cpu(sb->checksum) != pfn_sb_checksum(sb)) {
		bad = "info block checksum mismatch";
	} else if (memcmp(sb->parent_uuid, parent_uuid, 16)) {
		bad = "parent uuid is another namespace's";
		rc = -ENXIO;
	} else if (!pfn_params_ok(page_size, compat_align)) {
		bad = "bad page size or compat alignment";
	} else if (le16_to_cpu(sb->version_major) != PFN_VERSION_MAJOR) {
		bad = "unknown major version";
	} else {
		pfn_sb_decode(sb, page_size, &d);
		bad = pfn_check_layout(&d, dax, start, size, page_size,
				       compat_align);
		if (!bad) {
			*l = d;
			return 0;
		}
	}
	if (why)
		*why = bad;
	return rc;
}
EXPORT_SYMBOL_GPL(pfn_sb_check);
