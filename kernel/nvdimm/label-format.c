// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * Namespace label storage area: checksums, index block geometry and
 * validation, the choice of the current index, the free bitmap, label
 * slots, and the in-memory index updates that precede a media write.
 *
 * Nothing here reads or writes outside [area, area + size) of the caller's
 * struct nd_lsa, whatever the area holds: every offset taken from media is
 * checked against the geometry before it is used.
 */
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/export.h>
#include <linux/build_bug.h>
#include <asm/byteorder.h>

#include "label-format.h"

static_assert(sizeof(struct nd_lsa_index) == ND_LSA_INDEX_HDR);
static_assert(sizeof(struct nd_lsa_label) == ND_LSA_LABEL_V12);
static_assert(offsetof(struct nd_lsa_label, type_guid) == ND_LSA_LABEL_V11);
static_assert(offsetof(struct nd_lsa_index, checksum) == 64);
static_assert(offsetof(struct nd_lsa_label, checksum) == 248);

static const u8 nd_lsa_sig[ND_LSA_SIG_LEN] = "NAMESPACE_INDEX";

/* Running Fletcher-64 state: a 32-bit sum of words, a 64-bit sum of sums. */
struct nd_f64 {
	u32 lo;
	u64 hi;
};

static void nd_f64_add(struct nd_f64 *f, const void *addr, size_t len,
		       bool le)
{
	const u32 *words = addr;
	size_t i;

	for (i = 0; i < len / sizeof(u32); i++) {
		f->lo += le ? le32_to_cpu((__force __le32)words[i]) : words[i];
		f->hi += f->lo;
	}
}

/* Words of value zero: the low sum stays, the high sum still advances. */
static void nd_f64_zeroes(struct nd_f64 *f, size_t len)
{
	f->hi += (u64)f->lo * (len / sizeof(u32));
}

static u64 nd_f64_result(const struct nd_f64 *f)
{
	return f->hi << 32 | f->lo;
}

/**
 * nd_fletcher64 - the Fletcher-64 checksum of labels, BTT and set cookies
 * @addr: buffer, 4-byte aligned
 * @len: bytes; a tail shorter than 4 bytes is ignored
 * @le: words are little-endian (labels, BTT) rather than native (cookies)
 *
 * A low 32-bit sum of the words and a high sum of the low sums; the result
 * is high << 32 | low.
 */
u64 nd_fletcher64(const void *addr, size_t len, bool le)
{
	struct nd_f64 f = { 0, 0 };

	nd_f64_add(&f, addr, len, le);
	return nd_f64_result(&f);
}
EXPORT_SYMBOL_GPL(nd_fletcher64);

/*
 * Checksum of a structure of @len bytes whose own 8-byte checksum field
 * sits at @at, taken as if that field were zero (the buffer is not
 * modified, so this works on const and shared copies).
 */
static u64 nd_lsa_sum_without(const void *addr, size_t len, size_t at)
{
	struct nd_f64 f = { 0, 0 };

	nd_f64_add(&f, addr, at, true);
	nd_f64_zeroes(&f, sizeof(__le64));
	nd_f64_add(&f, (const u8 *)addr + at + sizeof(__le64),
		   len - at - sizeof(__le64), true);
	return nd_f64_result(&f);
}

static u32 nd_lsa_round_up(u32 val, u32 align)
{
	return (val + align - 1) / align * align;
}

/**
 * nd_lsa_index_size_v4x - index block size by the v4.x kernels' formula
 * @config_size: label area size
 *
 * One byte of index per 129 bytes of area, in pairs of 256-byte units:
 * 256 for 128 KiB, 768 for 256 KiB.  0 for areas under 64.5 KiB, which
 * this formula cannot lay out.
 */
u32 nd_lsa_index_size_v4x(u32 config_size)
{
	return config_size / 129 / (2 * ND_LSA_INDEX_ALIGN) *
		ND_LSA_INDEX_ALIGN;
}

/**
 * nd_lsa_nslot_v4x - label slot count by the v4.x kernels' formula
 * @config_size: label area size
 *
 * 1016 for 128 KiB (so 1015 available slots once initialised).
 */
u32 nd_lsa_nslot_v4x(u32 config_size)
{
	return config_size / 129;
}

/**
 * nd_lsa_index_size - index block size by the modern (6.1, ndctl) formula
 * @config_size: label area size
 * @lsize: label slot size, 128 or 256
 *
 * The header plus one bitmap bit for every label that would fit in the
 * whole area, rounded up to 256 bytes.  0 when two index blocks and two
 * labels do not fit in the area.
 */
u32 nd_lsa_index_size(u32 config_size, u32 lsize)
{
	u32 bits, isize;

	if (!lsize)
		return 0;
	bits = config_size / lsize;
	isize = nd_lsa_round_up(ND_LSA_INDEX_HDR + (bits + 7) / 8,
				ND_LSA_INDEX_ALIGN);
	if (2 * (u64)isize + 2 * (u64)lsize > config_size)
		return 0;
	return isize;
}

/**
 * nd_lsa_nslot - label slot count by the modern formula
 * @config_size: label area size
 * @lsize: label slot size, 128 or 256
 *
 * Every whole slot after the two index blocks; 0 when the area is too
 * small for the layout.
 */
u32 nd_lsa_nslot(u32 config_size, u32 lsize)
{
	u32 isize = nd_lsa_index_size(config_size, lsize);

	if (!isize)
		return 0;
	return (config_size - 2 * isize) / lsize;
}

/**
 * nd_lsa_fresh_layout - the layout the kernel gives a blank area
 * @config_size: label area size
 * @ver: ND_LSA_V11 (v4.x formula) or ND_LSA_V12 (modern formula)
 * @isize: index block size
 * @lsize: label slot size
 * @nslot: label slots
 *
 * v1.1 areas are laid out with the v4.x formula (what v4.2-era software
 * expects to find after the kernel initialised an area); areas too small
 * for it fall back to the modern formula.  Returns 0, or -EINVAL when the
 * area cannot hold two index blocks and two labels.
 */
int nd_lsa_fresh_layout(u32 config_size, enum nd_lsa_version ver,
			u32 *isize, u32 *lsize, u32 *nslot)
{
	u32 l = ver == ND_LSA_V12 ? ND_LSA_LABEL_V12 : ND_LSA_LABEL_V11;
	u32 i = 0, n = 0;

	if (ver == ND_LSA_V11) {
		i = nd_lsa_index_size_v4x(config_size);
		n = nd_lsa_nslot_v4x(config_size);
		if (i && ND_LSA_INDEX_HDR + (n + 7) / 8 > i)
			i = 0;	/* cannot happen for sane sizes; be sure */
	}
	if (!i) {
		i = nd_lsa_index_size(config_size, l);
		n = nd_lsa_nslot(config_size, l);
	}
	if (!i || n < 2)
		return -EINVAL;
	*isize = i;
	*lsize = l;
	*nslot = n;
	return 0;
}

/**
 * nd_lsa_seq_next - the sequence number that follows @seq
 * @seq: a sequence number; only bits 0-1 count
 *
 * 1 -> 2 -> 3 -> 1; 0 (invalid) stays 0.
 */
u32 nd_lsa_seq_next(u32 seq)
{
	seq &= ND_LSA_SEQ_MASK;
	return seq ? seq % 3 + 1 : 0;
}

/**
 * nd_lsa_best_seq - which of two valid index blocks is current
 * @seq0: sequence number of block 0
 * @seq1: sequence number of block 1
 *
 * Block 1 wins ties and when block 0's number is invalid; otherwise the
 * block whose number follows the other's wins.  Returns 0 or 1.
 */
int nd_lsa_best_seq(u32 seq0, u32 seq1)
{
	u32 a = seq0 & ND_LSA_SEQ_MASK, b = seq1 & ND_LSA_SEQ_MASK;

	if (!a || a == b)
		return 1;
	if (!b)
		return 0;
	return nd_lsa_seq_next(a) == b ? 1 : 0;
}

/**
 * nd_lsa_verdict_name - a validation verdict as text, for logs
 * @v: the verdict
 */
const char *nd_lsa_verdict_name(enum nd_lsa_verdict v)
{
	switch (v) {
	case ND_LSA_BAD_SIG:
		return "no index signature";
	case ND_LSA_BAD_LABELSIZE:
		return "label size does not match the version";
	case ND_LSA_BAD_CHECKSUM:
		return "bad checksum";
	case ND_LSA_BAD_SEQ:
		return "sequence number 0";
	case ND_LSA_BAD_OFFSETS:
		return "myoff/otheroff/labeloff do not match the layout";
	case ND_LSA_BAD_MYSIZE:
		return "mysize out of range";
	case ND_LSA_BAD_NSLOT:
		return "nslot does not fit the area";
	case ND_LSA_VALID:
		return "valid";
	}
	return "?";
}

/**
 * nd_lsa_check_index - validate one index block for one layout
 * @area: the label area
 * @size: its length
 * @isize: index block size I of the layout tried
 * @lsize: label size L of the layout tried (128 or 256)
 * @which: block 0 (at offset 0) or block 1 (at offset @isize)
 *
 * Returns ND_LSA_VALID, or the first rule the block breaks.  A layout
 * that does not fit the area has no blocks (ND_LSA_BAD_SIG).
 */
enum nd_lsa_verdict nd_lsa_check_index(const u8 *area, u32 size, u32 isize,
				       u32 lsize, int which)
{
	const struct nd_lsa_index *ix;
	u32 version, lbytes, nslot;
	u64 mysize;

	if ((which != 0 && which != 1) || !isize ||
	    isize % ND_LSA_INDEX_ALIGN || 2 * (u64)isize > size ||
	    (lsize != ND_LSA_LABEL_V11 && lsize != ND_LSA_LABEL_V12))
		return ND_LSA_BAD_SIG;
	ix = (const struct nd_lsa_index *)(area + (size_t)which * isize);

	if (memcmp(ix->sig, nd_lsa_sig, ND_LSA_SIG_LEN))
		return ND_LSA_BAD_SIG;

	version = le16_to_cpu(ix->major) * 100 + le16_to_cpu(ix->minor);
	if (version >= 102) {
		if (ix->labelsize > 1)
			return ND_LSA_BAD_LABELSIZE;
		lbytes = ND_LSA_LABEL_V11 << ix->labelsize;
	} else {
		lbytes = ND_LSA_LABEL_V11;
	}
	if (lbytes != lsize)
		return ND_LSA_BAD_LABELSIZE;

	if (nd_lsa_sum_without(ix, isize, offsetof(struct nd_lsa_index,
						   checksum)) !=
	    le64_to_cpu(ix->checksum))
		return ND_LSA_BAD_CHECKSUM;

	if (!(le32_to_cpu(ix->seq) & ND_LSA_SEQ_MASK))
		return ND_LSA_BAD_SEQ;

	if (le64_to_cpu(ix->myoff) != (u64)which * isize ||
	    le64_to_cpu(ix->otheroff) != (u64)(1 - which) * isize ||
	    le64_to_cpu(ix->labeloff) != 2 * (u64)isize)
		return ND_LSA_BAD_OFFSETS;

	mysize = le64_to_cpu(ix->mysize);
	if (mysize < ND_LSA_INDEX_HDR || mysize > isize)
		return ND_LSA_BAD_MYSIZE;

	/* the slots must fit the area, and their bitmap this block */
	nslot = le32_to_cpu(ix->nslot);
	if ((u64)nslot * lsize + 2 * (u64)isize > size ||
	    ND_LSA_INDEX_HDR + ((u64)nslot + 7) / 8 > isize)
		return ND_LSA_BAD_NSLOT;

	return ND_LSA_VALID;
}

/**
 * nd_lsa_validate - find the current and next index blocks of an area
 * @lsa: @area and @size filled in; the rest is set here
 *
 * Layouts are tried in this order, the first with a valid block wins:
 * 128-byte labels with the modern index size, 128-byte labels with the
 * v4.x index size (when it differs), 256-byte labels.  With two valid
 * blocks the sequence numbers pick the current one (nd_lsa_best_seq()).
 * The area is not modified.  Returns the current block (0 or 1), or -1
 * with @lsa->cur and @lsa->next -1 when no block is valid.
 */
int nd_lsa_validate(struct nd_lsa *lsa)
{
	struct {
		u32 isize;
		u32 lsize;
	} layouts[3];
	int n = 0, i, b;

	layouts[n].lsize = ND_LSA_LABEL_V11;
	layouts[n++].isize = nd_lsa_index_size(lsa->size, ND_LSA_LABEL_V11);
	if (nd_lsa_index_size_v4x(lsa->size) != layouts[0].isize) {
		layouts[n].lsize = ND_LSA_LABEL_V11;
		layouts[n++].isize = nd_lsa_index_size_v4x(lsa->size);
	}
	layouts[n].lsize = ND_LSA_LABEL_V12;
	layouts[n++].isize = nd_lsa_index_size(lsa->size, ND_LSA_LABEL_V12);

	lsa->cur = -1;
	lsa->next = -1;
	lsa->isize = 0;
	lsa->lsize = 0;
	lsa->verdict[0] = ND_LSA_BAD_SIG;
	lsa->verdict[1] = ND_LSA_BAD_SIG;
	for (i = 0; i < n; i++) {
		enum nd_lsa_verdict v[2];

		for (b = 0; b < 2; b++) {
			v[b] = nd_lsa_check_index(lsa->area, lsa->size,
						  layouts[i].isize,
						  layouts[i].lsize, b);
			if (v[b] > lsa->verdict[b])
				lsa->verdict[b] = v[b];
		}
		if (v[0] != ND_LSA_VALID && v[1] != ND_LSA_VALID)
			continue;

		/* the winning layout's verdicts are the ones that matter */
		lsa->verdict[0] = v[0];
		lsa->verdict[1] = v[1];
		lsa->isize = layouts[i].isize;
		lsa->lsize = layouts[i].lsize;
		if (v[0] == ND_LSA_VALID && v[1] == ND_LSA_VALID) {
			u32 seq0 = le32_to_cpu(nd_lsa_index(lsa, 0)->seq);
			u32 seq1 = le32_to_cpu(nd_lsa_index(lsa, 1)->seq);

			lsa->cur = nd_lsa_best_seq(seq0, seq1);
		} else {
			lsa->cur = v[0] == ND_LSA_VALID ? 0 : 1;
		}
		lsa->next = 1 - lsa->cur;
		return lsa->cur;
	}
	return -1;
}

/**
 * nd_lsa_index - index block 0 or 1 of an area whose layout is known
 * @lsa: the area, after nd_lsa_validate() found a layout or nd_lsa_init()
 * @which: 0 or 1
 */
struct nd_lsa_index *nd_lsa_index(const struct nd_lsa *lsa, int which)
{
	return (struct nd_lsa_index *)(lsa->area + (size_t)which * lsa->isize);
}

/**
 * nd_lsa_index_nslot - number of label slots an index block describes
 * @ix: a valid index block
 */
u32 nd_lsa_index_nslot(const struct nd_lsa_index *ix)
{
	return le32_to_cpu(ix->nslot);
}

/**
 * nd_lsa_index_is_v11 - whether an index block is exactly version 1.1
 * @ix: a valid index block
 *
 * Labels under a v1.1 index carry the v1.1 interleave-set cookie; every
 * other version the v1.2 cookie.
 */
bool nd_lsa_index_is_v11(const struct nd_lsa_index *ix)
{
	return le16_to_cpu(ix->major) == 1 && le16_to_cpu(ix->minor) == 1;
}

/**
 * nd_lsa_slot_is_free - whether a slot's bit is set in an index's bitmap
 * @ix: a valid index block
 * @slot: slot number, below the block's nslot
 */
bool nd_lsa_slot_is_free(const struct nd_lsa_index *ix, u32 slot)
{
	return ix->free[slot / 8] & (1U << (slot % 8));
}

/**
 * nd_lsa_slot_set_free - mark a slot free or in use in an index's bitmap
 * @ix: a valid index block (normally the next one, in memory)
 * @slot: slot number, below the block's nslot
 * @free: true: free; false: in use
 */
void nd_lsa_slot_set_free(struct nd_lsa_index *ix, u32 slot, bool free)
{
	if (free)
		ix->free[slot / 8] |= 1U << (slot % 8);
	else
		ix->free[slot / 8] &= ~(1U << (slot % 8));
}

/* set bits among the first @nslot of @ix's bitmap */
static u32 nd_lsa_count_free(const struct nd_lsa_index *ix, u32 nslot)
{
	u32 n = 0, i;

	for (i = 0; i < nslot; i++)
		n += nd_lsa_slot_is_free(ix, i);
	return n;
}

/**
 * nd_lsa_nfree - free slots of an index block
 * @ix: a valid index block
 *
 * Only the first nslot bits count: writers differ on the padding bits.
 */
u32 nd_lsa_nfree(const struct nd_lsa_index *ix)
{
	return nd_lsa_count_free(ix, nd_lsa_index_nslot(ix));
}

/**
 * nd_lsa_first_free - the lowest free slot of an index block
 * @ix: a valid index block
 *
 * Returns the slot number, or the block's nslot when every slot is used.
 */
u32 nd_lsa_first_free(const struct nd_lsa_index *ix)
{
	u32 nslot = nd_lsa_index_nslot(ix), i;

	for (i = 0; i < nslot; i++)
		if (nd_lsa_slot_is_free(ix, i))
			break;
	return i;
}

/**
 * nd_lsa_available_slots - the DIMM's available_slots value
 * @lsa: the area after nd_lsa_validate() and nd_lsa_next_prepare()
 * @fresh: layout the kernel would initialise a blank area with
 *
 * Free slots of the next index minus the one the kernel keeps in reserve:
 * the number of labels that namespaces, new or existing, can still add,
 * since no update may take the last free slot (nd_lsa_update_fits()).
 * Without a valid index: the slots of the layout @fresh would create,
 * minus one.  Never below zero.
 */
u32 nd_lsa_available_slots(const struct nd_lsa *lsa,
			   enum nd_lsa_version fresh)
{
	u32 isize, lsize, n;

	if (lsa->cur >= 0) {
		/*
		 * nslot is the current block's: the next block's header is
		 * rewritten only when it is sealed
		 */
		n = nd_lsa_index_nslot(nd_lsa_index(lsa, lsa->cur));
		n = nd_lsa_count_free(nd_lsa_index(lsa, lsa->next), n);
	} else if (nd_lsa_fresh_layout(lsa->size, fresh, &isize, &lsize,
				       &n)) {
		n = 0;
	}
	return n ? n - 1 : 0;
}

/**
 * nd_lsa_update_fits - whether a label update has the slots it needs
 * @nfree: free slots of the next index before the update
 * @nnew: labels the update writes; they go to free slots while the labels
 *	they supersede are still live (the index write is the commit)
 * @nfreed: live labels the commit frees
 *
 * An update that writes labels must find them room and must leave one
 * slot free after its commit: that reserve slot is what lets any
 * namespace replace a label of its own (a resize of its last extent, an
 * interleave set's next pass) when every other slot is taken.  So each
 * label an update adds costs one of nd_lsa_available_slots(), and a
 * replacement costs none.  An update that writes nothing (a deletion)
 * always fits.
 */
bool nd_lsa_update_fits(u32 nfree, u32 nnew, u32 nfreed)
{
	if (!nnew)
		return true;
	if (nnew > nfree)
		return false;
	/* nfree - nnew + nfreed >= 1, without a sum that could wrap */
	return nfree - nnew >= 1 || nfreed >= 1;
}

/**
 * nd_lsa_label_same - whether two labels say the same thing
 * @a: a label
 * @b: another
 * @lsize: label slot size (128 or 256)
 *
 * Equal in every byte a label of @lsize has, except the slot number and
 * (256-byte labels) the checksum, which depend on where it is stored: a
 * live label that is the same as a new one need not be written again.
 */
bool nd_lsa_label_same(const struct nd_lsa_label *a,
		       const struct nd_lsa_label *b, u32 lsize)
{
	const size_t slot = offsetof(struct nd_lsa_label, slot);
	const size_t after = slot + sizeof(a->slot);
	size_t end = lsize >= ND_LSA_LABEL_V12 ?
		offsetof(struct nd_lsa_label, checksum) : ND_LSA_LABEL_V11;

	return !memcmp(a, b, slot) &&
	       !memcmp((const u8 *)a + after, (const u8 *)b + after,
		       end - after);
}

/**
 * nd_lsa_label - label slot @slot of an area whose layout is known
 * @lsa: the area
 * @slot: slot number, below the current index's nslot
 */
struct nd_lsa_label *nd_lsa_label(const struct nd_lsa *lsa, u32 slot)
{
	return (struct nd_lsa_label *)(lsa->area + 2 * (size_t)lsa->isize +
				       (size_t)slot * lsa->lsize);
}

/**
 * nd_lsa_label_checksum - the checksum a 256-byte (v1.2) label must carry
 * @label: the label
 */
u64 nd_lsa_label_checksum(const struct nd_lsa_label *label)
{
	return nd_lsa_sum_without(label, sizeof(*label),
				  offsetof(struct nd_lsa_label, checksum));
}

/**
 * nd_lsa_label_seal - store the checksum of a label about to be written
 * @label: the label
 * @lsize: label slot size; 128-byte labels have no checksum
 */
void nd_lsa_label_seal(struct nd_lsa_label *label, u32 lsize)
{
	if (lsize == ND_LSA_LABEL_V12)
		label->checksum = cpu_to_le64(nd_lsa_label_checksum(label));
}

/**
 * nd_lsa_label_live - whether a slot holds a label to interpret
 * @lsa: a validated area
 * @slot: slot number
 *
 * True when the slot is in use in the current index, the label names its
 * own slot, and (256-byte labels) its checksum matches.  DPA alignment and
 * range are checked against the DIMM when namespaces are assembled.
 */
bool nd_lsa_label_live(const struct nd_lsa *lsa, u32 slot)
{
	const struct nd_lsa_index *ix;
	const struct nd_lsa_label *label;

	if (lsa->cur < 0)
		return false;
	ix = nd_lsa_index(lsa, lsa->cur);
	if (slot >= nd_lsa_index_nslot(ix) || nd_lsa_slot_is_free(ix, slot))
		return false;
	label = nd_lsa_label(lsa, slot);
	if (le32_to_cpu(label->slot) != slot)
		return false;
	if (lsa->lsize == ND_LSA_LABEL_V12 &&
	    nd_lsa_label_checksum(label) != le64_to_cpu(label->checksum))
		return false;
	return true;
}

/*
 * Write the header of block @which for the layout in @lsa, clear the
 * bitmap bits from @nslot to the end of the block, and seal it.
 */
static void nd_lsa_index_fill(struct nd_lsa *lsa, int which, u32 seq,
			      u32 nslot, u16 major, u16 minor, u8 labelsize)
{
	struct nd_lsa_index *ix = nd_lsa_index(lsa, which);
	u64 sum;

	memcpy(ix->sig, nd_lsa_sig, ND_LSA_SIG_LEN);
	memset(ix->flags, 0, sizeof(ix->flags));
	ix->labelsize = labelsize;
	ix->seq = cpu_to_le32(seq);
	ix->myoff = cpu_to_le64((u64)which * lsa->isize);
	ix->mysize = cpu_to_le64(lsa->isize);
	ix->otheroff = cpu_to_le64((u64)(1 - which) * lsa->isize);
	ix->labeloff = cpu_to_le64(2 * (u64)lsa->isize);
	ix->nslot = cpu_to_le32(nslot);
	ix->major = cpu_to_le16(major);
	ix->minor = cpu_to_le16(minor);

	/*
	 * The bitmap past nslot is left as it is: an index written by
	 * nd_lsa_init() has it clear, one copied from another writer's block
	 * keeps that writer's padding (ndctl sets it; 6.1 preserves it).
	 */
	sum = nd_lsa_sum_without(ix, lsa->isize,
				 offsetof(struct nd_lsa_index, checksum));
	ix->checksum = cpu_to_le64(sum);
}

/**
 * nd_lsa_init_layout - lay out two fresh index blocks of a given geometry
 * @lsa: @area and @size filled in
 * @isize: index block size, a multiple of 256 that holds the bitmap
 * @lsize: label slot size: 128 (version 1.1 index) or 256 (version 1.2)
 * @nslot: label slots, at least two, all of them inside the area
 *
 * Block 0 gets sequence number 3 and block 1 sequence number 2, every
 * slot free (bitmap bits past @nslot clear), so block 0 is current and
 * block 1 next; block 1 keeps its own number until nd_lsa_next_prepare()
 * copies block 0 over it (see nd_lsa_next_seal()).  Label slots are not
 * touched.  The caller writes both
 * blocks (2 * @isize bytes from the start of the area).
 *
 * Return: 0, or -EINVAL, leaving @lsa and the area alone, when the
 * geometry does not fit the area.
 */
int nd_lsa_init_layout(struct nd_lsa *lsa, u32 isize, u32 lsize, u32 nslot)
{
	u16 minor = lsize == ND_LSA_LABEL_V12 ? 2 : 1;
	u32 i;
	int b;

	if ((lsize != ND_LSA_LABEL_V11 && lsize != ND_LSA_LABEL_V12) ||
	    !isize || isize % ND_LSA_INDEX_ALIGN || nslot < 2 ||
	    ND_LSA_INDEX_HDR + ((u64)nslot + 7) / 8 > isize ||
	    2 * (u64)isize + (u64)nslot * lsize > lsa->size)
		return -EINVAL;
	lsa->isize = isize;
	lsa->lsize = lsize;
	for (b = 0; b < 2; b++) {
		struct nd_lsa_index *ix = nd_lsa_index(lsa, b);

		memset(ix, 0, isize);
		for (i = 0; i < nslot; i++)
			nd_lsa_slot_set_free(ix, i, true);
		nd_lsa_index_fill(lsa, b, b == 0 ? 3 : 2, nslot, 1, minor,
				  lsize >> 8);
		lsa->verdict[b] = ND_LSA_VALID;
	}
	lsa->cur = 0;
	lsa->next = 1;
	return 0;
}

/**
 * nd_lsa_init - lay out two fresh index blocks as the kernel does
 * @lsa: @area and @size filled in
 * @ver: ND_LSA_V11 or ND_LSA_V12 (see nd_lsa_fresh_layout())
 *
 * nd_lsa_init_layout() with the layout nd_lsa_fresh_layout() chooses.
 *
 * Return: 0, or -EINVAL when the area is too small.
 */
int nd_lsa_init(struct nd_lsa *lsa, enum nd_lsa_version ver)
{
	u32 isize, lsize, nslot;

	if (nd_lsa_fresh_layout(lsa->size, ver, &isize, &lsize, &nslot))
		return -EINVAL;
	return nd_lsa_init_layout(lsa, isize, lsize, nslot);
}

/**
 * nd_lsa_next_prepare - start the next index as a copy of the current one
 * @lsa: a validated area
 *
 * Copies the current block over the next one, in memory only (the copy's
 * header still names the current block's position until it is sealed);
 * edits to the label set are then made in the next block's bitmap
 * (nd_lsa_slot_set_free()) until nd_lsa_next_seal().  No-op without a
 * valid index.
 */
void nd_lsa_next_prepare(struct nd_lsa *lsa)
{
	if (lsa->cur < 0)
		return;
	memcpy(nd_lsa_index(lsa, lsa->next), nd_lsa_index(lsa, lsa->cur),
	       lsa->isize);
}

/**
 * nd_lsa_next_seal - make the next index block ready to be written
 * @lsa: a validated area whose next block was prepared and edited
 *
 * Writes the next block's header for its own position with the current
 * block's slot count, the version 6.1 writes (1.1 with 128-byte labels,
 * 1.2 with 256-byte ones, labelsize to match, whatever version the area
 * had), the successor of the sequence number the next block has in
 * memory, and its checksum.  Writing that block to media is the commit
 * point of a label update; nd_lsa_switch() then makes it current.
 *
 * After nd_lsa_next_prepare() the next block's number is the current
 * one's, so the sealed block follows the current block.  Right after
 * nd_lsa_init() (no prepare) it is block 1's own 2, so the first commit
 * on a freshly initialised area gives block 1 number 3, equal to block
 * 0's (which then loses the tie): 6.1 does exactly this, and the number
 * is part of the bytes stock leaves on the media.
 */
void nd_lsa_next_seal(struct nd_lsa *lsa)
{
	const struct nd_lsa_index *cur;
	u32 seq;

	if (lsa->cur < 0)
		return;
	cur = nd_lsa_index(lsa, lsa->cur);
	seq = le32_to_cpu(nd_lsa_index(lsa, lsa->next)->seq);
	nd_lsa_index_fill(lsa, lsa->next, nd_lsa_seq_next(seq),
			  nd_lsa_index_nslot(cur), 1,
			  lsa->lsize == ND_LSA_LABEL_V12 ? 2 : 1, lsa->lsize >> 8);
	lsa->verdict[lsa->next] = ND_LSA_VALID;
}

/**
 * nd_lsa_switch - the sealed next block was written: make it current
 * @lsa: the area
 *
 * Swaps the roles of the two blocks and prepares the new next block.
 */
void nd_lsa_switch(struct nd_lsa *lsa)
{
	if (lsa->cur < 0)
		return;
	lsa->cur = lsa->next;
	lsa->next = 1 - lsa->cur;
	nd_lsa_next_prepare(lsa);
}
