/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * Namespace label storage area (LSA): the on-media format.
 *
 * Pure-format code: everything works on a caller's copy of a DIMM's label
 * area, keeps no state of its own and allocates nothing, so that the same
 * source builds into libnvdimm.ko, into libndctl and ndctl (hence the
 * LGPL alternative), and into the host unit tests and fuzzer
 * (userspace/kshim stands in for the few kernel headers used here).
 *
 * Layout of an area of config_size bytes: index block 0 at offset 0,
 * index block 1 at offset I, then nslot label slots of L bytes each from
 * offset 2 * I.  I is a multiple of 256; L is 128 (v1.1 labels) or 256
 * (v1.2).  All integers are little-endian.  The reference for every rule
 * here is docs/media-formats.md (sections 1 to 3) of the shared docs.
 */
#ifndef __ND_LABEL_FORMAT_H__
#define __ND_LABEL_FORMAT_H__

#include <linux/types.h>

#define ND_LSA_SIG_LEN		16
#define ND_LSA_INDEX_ALIGN	256
#define ND_LSA_INDEX_HDR	72	/* header bytes before the bitmap */
#define ND_LSA_LABEL_V11	128	/* label slot size, v1.1 */
#define ND_LSA_LABEL_V12	256	/* label slot size, v1.2 */
#define ND_LSA_SEQ_MASK		3	/* sequence numbers live in bits 0-1 */

/* Label flags (struct nd_lsa_label.flags). */
#define ND_LSA_FLAG_ROLABEL	0x1
#define ND_LSA_FLAG_LOCAL	0x2
#define ND_LSA_FLAG_BTT		0x4
#define ND_LSA_FLAG_UPDATING	0x8

/**
 * struct nd_lsa_index - header of an index block; the bitmap follows
 * @sig: "NAMESPACE_INDEX" and a NUL
 * @flags: zero (v1.1 reads all four bytes as one le32)
 * @labelsize: v1.2: label size is 128 << labelsize (0 or 1)
 * @seq: sequence number in bits 0-1 (1, 2 or 3; 0 is invalid)
 * @myoff: offset of this block in the area
 * @mysize: size of this block as its writer saw it
 * @otheroff: offset of the other block
 * @labeloff: offset of label slot 0
 * @nslot: number of label slots
 * @major: 1
 * @minor: 1 or 2
 * @checksum: Fletcher-64 of the I bytes of the block, this field zero
 * @free: bit k (byte k / 8, bit k % 8) set: slot k is free
 */
struct nd_lsa_index {
	u8 sig[ND_LSA_SIG_LEN];
	u8 flags[3];
	u8 labelsize;
	__le32 seq;
	__le64 myoff;
	__le64 mysize;
	__le64 otheroff;
	__le64 labeloff;
	__le32 nslot;
	__le16 major;
	__le16 minor;
	__le64 checksum;
	u8 free[];
};

/**
 * struct nd_lsa_label - a namespace label (v1.1: first 128 bytes only)
 * @uuid: namespace uuid, RFC 4122 byte order
 * @name: alternate name, NUL padded
 * @flags: ND_LSA_FLAG_*
 * @nlabel: PMEM: DIMMs in the interleave set
 * @position: PMEM: this DIMM's position in the set
 * @isetcookie: PMEM: interleave-set cookie
 * @lbasize: sector size
 * @dpa: first DIMM physical address of the extent
 * @rawsize: bytes of the extent
 * @slot: the slot this label occupies
 * @align: v1.2: zero (v1.1: first byte of an unused le32)
 * @reserved: zero
 * @type_guid: v1.2: address-range type GUID of the region
 * @abstraction_guid: v1.2: claim class GUID
 * @reserved2: zero
 * @checksum: v1.2: Fletcher-64 of the 256 bytes, this field zero
 */
struct nd_lsa_label {
	u8 uuid[16];
	u8 name[64];
	__le32 flags;
	__le16 nlabel;
	__le16 position;
	__le64 isetcookie;
	__le64 lbasize;
	__le64 dpa;
	__le64 rawsize;
	__le32 slot;
	u8 align;
	u8 reserved[3];
	u8 type_guid[16];
	u8 abstraction_guid[16];
	u8 reserved2[88];
	__le64 checksum;
};

/* Label versions the kernel writes when it initialises a blank area. */
enum nd_lsa_version {
	ND_LSA_V11,	/* 128-byte labels, v4.x index size formula */
	ND_LSA_V12,	/* 256-byte labels, modern index size formula */
};

/*
 * Why an index block is not valid, in the order validation checks: a
 * block that fails later in this list got further.
 */
enum nd_lsa_verdict {
	ND_LSA_BAD_SIG,
	ND_LSA_BAD_LABELSIZE,
	ND_LSA_BAD_CHECKSUM,
	ND_LSA_BAD_SEQ,
	ND_LSA_BAD_OFFSETS,
	ND_LSA_BAD_MYSIZE,
	ND_LSA_BAD_NSLOT,
	ND_LSA_VALID,
};

/**
 * struct nd_lsa - a label storage area and what validation found in it
 * @area: the whole area (8-byte aligned), @size bytes
 * @size: config_size
 * @isize: index block size I of the layout found (or initialised)
 * @lsize: label slot size L of that layout
 * @cur: current index block (0 or 1), -1 when no block is valid
 * @next: the other block, -1 when no block is valid
 * @verdict: per block, how far validation got under the layout found, or
 *	(no valid block) the furthest it got under any layout tried
 */
struct nd_lsa {
	u8 *area;
	u32 size;
	u32 isize;
	u32 lsize;
	int cur;
	int next;
	enum nd_lsa_verdict verdict[2];
};

u64 nd_fletcher64(const void *addr, size_t len, bool le);

u32 nd_lsa_index_size_v4x(u32 config_size);
u32 nd_lsa_nslot_v4x(u32 config_size);
u32 nd_lsa_index_size(u32 config_size, u32 lsize);
u32 nd_lsa_nslot(u32 config_size, u32 lsize);
int nd_lsa_fresh_layout(u32 config_size, enum nd_lsa_version ver,
			u32 *isize, u32 *lsize, u32 *nslot);

u32 nd_lsa_seq_next(u32 seq);
int nd_lsa_best_seq(u32 seq0, u32 seq1);
const char *nd_lsa_verdict_name(enum nd_lsa_verdict v);

enum nd_lsa_verdict nd_lsa_check_index(const u8 *area, u32 size, u32 isize,
				       u32 lsize, int which);
int nd_lsa_validate(struct nd_lsa *lsa);

struct nd_lsa_index *nd_lsa_index(const struct nd_lsa *lsa, int which);
u32 nd_lsa_index_nslot(const struct nd_lsa_index *ix);
bool nd_lsa_index_is_v11(const struct nd_lsa_index *ix);
bool nd_lsa_slot_is_free(const struct nd_lsa_index *ix, u32 slot);
void nd_lsa_slot_set_free(struct nd_lsa_index *ix, u32 slot, bool free);
u32 nd_lsa_nfree(const struct nd_lsa_index *ix);
u32 nd_lsa_first_free(const struct nd_lsa_index *ix);
u32 nd_lsa_available_slots(const struct nd_lsa *lsa,
			   enum nd_lsa_version fresh);
bool nd_lsa_update_fits(u32 nfree, u32 nnew, u32 nfreed);

struct nd_lsa_label *nd_lsa_label(const struct nd_lsa *lsa, u32 slot);
u64 nd_lsa_label_checksum(const struct nd_lsa_label *label);
void nd_lsa_label_seal(struct nd_lsa_label *label, u32 lsize);
bool nd_lsa_label_same(const struct nd_lsa_label *a,
		       const struct nd_lsa_label *b, u32 lsize);
bool nd_lsa_label_live(const struct nd_lsa *lsa, u32 slot);

int nd_lsa_init_layout(struct nd_lsa *lsa, u32 isize, u32 lsize, u32 nslot);
int nd_lsa_init(struct nd_lsa *lsa, enum nd_lsa_version ver);
void nd_lsa_next_prepare(struct nd_lsa *lsa);
void nd_lsa_next_seal(struct nd_lsa *lsa);
void nd_lsa_switch(struct nd_lsa *lsa);

#endif /* __ND_LABEL_FORMAT_H__ */
