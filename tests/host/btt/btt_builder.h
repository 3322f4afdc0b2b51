/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Crafts BTT info blocks and flog lanes byte by byte for the tests of
 * kernel/nvdimm/btt-format.c, independently of the code under test (the
 * byte stores and the Fletcher-64 of labels/lsa_builder.c), and states
 * the invariants every validated arena must satisfy (shared by the unit
 * tests and the fuzzer).
 */
#ifndef BTT_BUILDER_H
#define BTT_BUILDER_H

#include <linux/types.h>

#define BB_INFO_SIZE 4096
#define BB_LANE_SIZE 64
#define MIB (1ULL << 20)
#define GIB (1ULL << 30)
#define TIB (1ULL << 40)

/* Every field of an info block, written exactly as given. */
struct bb_info {
	char sig[16];		/* NUL padded */
	u8 uuid[16];
	u8 parent_uuid[16];
	u32 flags;
	u16 major, minor;
	u32 external_lbasize, external_nlba;
	u32 internal_lbasize, internal_nlba;
	u32 nfree, infosize;
	u64 nextoff, dataoff, mapoff, logoff, info2off;
};

/*
 * The standard fields of an arena as the kernel creates it: signature,
 * version for @start, nfree 256, infosize 4096, dataoff 4096 and the
 * given numbers; uuid 0xb0 0x01 ... 0x0f, parent uuid zero.
 */
struct bb_info bb_std(u64 start, u32 lbasize, u32 internal_lbasize,
		      u32 internal_nlba, u64 mapoff, u64 logoff, u64 info2off,
		      u64 nextoff);
/* write @d into the 4096 bytes at @buf, padding zero, and seal it */
void bb_put_info(u8 *buf, const struct bb_info *d);
/* recompute the checksum after an edit */
void bb_reseal(u8 *buf);
/* the checksum field */
u64 bb_checksum_field(const u8 *buf);

/* slot @slot (0..3) of the lane at @lane */
void bb_put_slot(u8 *lane, unsigned int slot, u32 lba, u32 old_map,
		 u32 new_map, u32 seq);

/*
 * The invariants of an arena btt_info_check() accepted for a namespace
 * of @ns_size bytes with the BTT at @start, read at @arena_off: all
 * regions inside the arena and the namespace, in order and disjoint,
 * nextoff consistent.  Returns NULL when they hold, else the first one
 * broken.
 */
struct btt_arena;
const char *bb_arena_invariant(const struct btt_arena *a, u64 ns_size,
			       u64 start, u64 arena_off);

#endif
