/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * Block Translation Table (BTT): the on-media format.
 *
 * Pure-format code in the manner of label-format.h: no I/O, no locking, no
 * allocation, no state; every function works on values or on buffers the
 * caller passes.  It builds into the kernel and, through userspace/kshim
 * and tests/host/shim, into libndctl and the host tests and fuzzer (hence
 * the LGPL alternative).
 *
 * A BTT starts BTT_START_V11 (4096) bytes into its namespace for version
 * 1.1 and at 0 for version 2.0; the space behind the start ("rawsize") is
 * split into arenas of up to 512 GiB.  Inside an arena, from its start:
 * info block, data blocks, map, flog, backup info block, each on a 4 KiB
 * boundary.  All integers are little-endian.  The reference for every
 * rule here is docs/media-formats.md section 6 of the shared docs.
 */
#ifndef __ND_BTT_FORMAT_H__
#define __ND_BTT_FORMAT_H__

#include <linux/types.h>
#include <linux/compiler.h>

#define BTT_SIG_LEN		16
#define BTT_SIG			"BTT_ARENA_INFO"	/* two NULs follow */
#define BTT_INFO_SIZE		4096	/* info block, and infosize */
#define BTT_ALIGN		4096	/* placement unit inside an arena */
#define BTT_START_V11		4096	/* BTT start in the namespace, v1.1 */
#define BTT_START_V20		0	/* BTT start in the namespace, v2.0 */
#define BTT_V11_MAJOR		1
#define BTT_V11_MINOR		1
#define BTT_V20_MAJOR		2
#define BTT_V20_MINOR		0

#define BTT_ARENA_MAX		(512ULL << 30)	/* largest arena */
#define BTT_ARENA_MIN		(16ULL << 20)	/* smallest arena, and BTT */
#define BTT_NFREE		256	/* free blocks = log lanes, at creation */
#define BTT_LBASIZE_ALIGN	64	/* internal_lbasize granule */
#define BTT_MAP_ENTRY_SIZE	4

/* Info block flags. */
#define IB_FLAG_ERROR		0x1	/* arena in error state: no writes */
#define IB_FLAG_ERROR_MASK	0x1

/*
 * Map entry: bit 31 Z (zero/trimmed), bit 30 E (error), bits 29..0 the
 * postmap ABA.  Both clear: identity (initial); both set: normal.
 */
#define BTT_MAP_ZERO		0x80000000U
#define BTT_MAP_ERROR		0x40000000U
#define BTT_MAP_NORMAL		(BTT_MAP_ZERO | BTT_MAP_ERROR)
#define BTT_MAP_FLAGS		BTT_MAP_NORMAL
#define BTT_MAP_ABA_MASK	0x3fffffffU
#define BTT_MAX_INTERNAL_NLBA	(BTT_MAP_ABA_MASK + 1U)

/* Flog: nfree lanes of 64 bytes, four 16-byte slots, two of them live. */
#define BTT_FLOG_SLOT_SIZE	16
#define BTT_FLOG_LANE_SIZE	64
#define BTT_FLOG_SLOTS		4
#define BTT_FLOG_SEQ_MAX	3	/* sequence numbers 1, 2, 3; 0 unused */

/**
 * struct btt_info - an arena's info block (and its backup), 4096 bytes
 * @signature: BTT_SIG and two NULs
 * @uuid: BTT instance uuid, RFC 4122 byte order
 * @parent_uuid: uuid of the host namespace, all zero for io namespaces
 * @flags: IB_FLAG_*
 * @version_major: 1 (start 4096) or 2 (start 0)
 * @version_minor: 1 or 0
 * @external_lbasize: sector size as configured
 * @external_nlba: blocks exported by the arena (internal_nlba - nfree)
 * @internal_lbasize: external_lbasize rounded up to 64
 * @internal_nlba: data blocks in the arena
 * @nfree: free blocks, which is the number of flog lanes
 * @infosize: 4096
 * @nextoff: from this arena's start to the next arena's, 0 for the last
 * @dataoff: data area, relative to the arena start
 * @mapoff: map, relative to the arena start
 * @logoff: flog, relative to the arena start
 * @info2off: backup info block, relative to the arena start
 * @padding: zero
 * @checksum: Fletcher-64 of the 4096 bytes with this field zero
 */
struct btt_info {
	u8 signature[BTT_SIG_LEN];
	u8 uuid[16];
	u8 parent_uuid[16];
	__le32 flags;
	__le16 version_major;
	__le16 version_minor;
	__le32 external_lbasize;
	__le32 external_nlba;
	__le32 internal_lbasize;
	__le32 internal_nlba;
	__le32 nfree;
	__le32 infosize;
	__le64 nextoff;
	__le64 dataoff;
	__le64 mapoff;
	__le64 logoff;
	__le64 info2off;
	u8 padding[3968];
	__le64 checksum;
} __packed;

/**
 * struct btt_flog_slot - one 16-byte flog entry as on media
 * @lba: premap ABA the write was for
 * @old_map: postmap the map held before (may carry the map's E/Z bits)
 * @new_map: postmap block written
 * @seq: 1, 2 or 3; 0 = never written
 */
struct btt_flog_slot {
	__le32 lba;
	__le32 old_map;
	__le32 new_map;
	__le32 seq;
} __packed;

/**
 * struct btt_flog_lane - one lane (log group) of the flog, 64 bytes
 * @slot: two live slots (0 and 1, or 0 and 2 before Linux 4.15) and two
 *	all-zero padding slots
 */
struct btt_flog_lane {
	struct btt_flog_slot slot[BTT_FLOG_SLOTS];
} __packed;

/**
 * struct btt_flog_ent - a flog entry in CPU byte order
 * @lba: premap ABA
 * @old_map: previous postmap (raw, flags kept)
 * @new_map: new postmap (raw, flags kept)
 * @seq: sequence number
 */
struct btt_flog_ent {
	u32 lba;
	u32 old_map;
	u32 new_map;
	u32 seq;
};

/**
 * struct btt_arena - an arena's geometry, in CPU byte order
 * @off: arena start, relative to the BTT start
 * @size: bytes the arena occupies: info2off + 4096 (a created arena's
 *	size rounded down to 4 KiB)
 * @external_lbasize: as struct btt_info
 * @external_nlba: as struct btt_info
 * @internal_lbasize: as struct btt_info
 * @internal_nlba: as struct btt_info
 * @nfree: as struct btt_info
 * @flags: as struct btt_info (0 at creation)
 * @nextoff: as struct btt_info
 * @dataoff: as struct btt_info
 * @mapoff: as struct btt_info
 * @logoff: as struct btt_info
 * @info2off: as struct btt_info
 */
struct btt_arena {
	u64 off;
	u64 size;
	u32 external_lbasize;
	u32 external_nlba;
	u32 internal_lbasize;
	u32 internal_nlba;
	u32 nfree;
	u32 flags;
	u64 nextoff;
	u64 dataoff;
	u64 mapoff;
	u64 logoff;
	u64 info2off;
};

/**
 * struct btt_ns - the namespace an info block is checked against
 * @size: namespace size in bytes
 * @start: BTT start in the namespace: BTT_START_V11 or BTT_START_V20
 * @uuid: namespace uuid (16 bytes, uuid_t order), NULL when it has none
 *	(io namespaces): only an all-zero parent_uuid matches then
 */
struct btt_ns {
	u64 size;
	u64 start;
	const u8 *uuid;
};

/*
 * Why an info block is not valid, in the order btt_info_check() tests.
 * Up to BTT_INFO_BAD_VERSION the block is not (this namespace's) BTT: the
 * first arena failing there means there is no BTT.  From
 * BTT_INFO_BAD_ARENA_OFF on it is this namespace's BTT info block with
 * corrupt geometry: never lay out a fresh BTT over it.
 */
enum btt_info_verdict {
	BTT_INFO_VALID = 0,
	BTT_INFO_BAD_SIG,	/* signature bytes differ */
	BTT_INFO_BAD_CHECKSUM,	/* Fletcher-64 does not verify */
	BTT_INFO_BAD_PARENT,	/* parent_uuid neither zero nor ours */
	BTT_INFO_BAD_VERSION,	/* version does not match the start */
	BTT_INFO_BAD_ARENA_OFF,	/* arena start unaligned or past the end */
	BTT_INFO_BAD_INFOSIZE,	/* infosize is not 4096 */
	BTT_INFO_BAD_LBASIZE,	/* lbasize unsupported or internal < ext. */
	BTT_INFO_BAD_NFREE,	/* nfree is 0 */
	BTT_INFO_BAD_NLBA,	/* internal_nlba != external_nlba + nfree... */
	BTT_INFO_BAD_ALIGN,	/* an offset is not 4 KiB aligned */
	BTT_INFO_BAD_DATA,	/* data area overlaps the info block or map */
	BTT_INFO_BAD_MAP,	/* map too small for external_nlba */
	BTT_INFO_BAD_LOG,	/* flog too small for nfree lanes */
	BTT_INFO_BAD_INFO2,	/* backup info block outside the namespace */
	BTT_INFO_BAD_NEXTOFF,	/* nextoff neither 0 nor the arena's end */
	BTT_INFO_NR_VERDICTS,
};

/* Decoded map entry. */
enum btt_map_state {
	BTT_MAP_IDENTITY,	/* 00: initial, postmap = premap */
	BTT_MAP_ERR,		/* E only: reads fail with -EIO */
	BTT_MAP_TRIMMED,	/* Z only: reads return zeros */
	BTT_MAP_MAPPED,		/* Z and E: normal, bits 29..0 */
};

/* Live flog slots, from the padding-format detection. */
enum btt_flog_fmt {
	BTT_FLOG_UNKNOWN,	/* no lane told yet: write as BTT_FLOG_01 */
	BTT_FLOG_01,		/* slots 0 and 1 live (Linux 4.15 and later) */
	BTT_FLOG_02,		/* slots 0 and 2 live (older kernels, v4.2) */
};

/**
 * struct btt_flog_state - a lane after attach: its newest entry and the
 *	position of its next write
 * @newest: the newest live entry
 * @newest_slot: its slot index in the lane (0 to 3)
 * @next_slot: slot index the next write goes to (the other live slot)
 * @next_seq: sequence number of the next write
 */
struct btt_flog_state {
	struct btt_flog_ent newest;
	u32 newest_slot;
	u32 next_slot;
	u32 next_seq;
};

/**
 * struct btt_recovery - what attach does for one lane (media-formats 6.8)
 * @free_block: postmap ABA (flags stripped) the lane writes next
 * @zero_free: the free block is known bad (old_map had E only): write
 *	zeros over it before it is reused
 * @set_map: the last write was logged but the map not updated: write
 *	@map_entry to map[@lba]
 * @lba: premap ABA of the newest entry
 * @map_entry: raw map entry to store when @set_map
 */
struct btt_recovery {
	u32 free_block;
	bool zero_free;
	bool set_map;
	u32 lba;
	u32 map_entry;
};

bool btt_lbasize_supported(u32 lbasize);
u32 btt_internal_lbasize(u32 lbasize);
u32 btt_sector_size(u32 lbasize);
int btt_version(u64 start, u16 *major, u16 *minor);
int btt_rawsize(u64 ns_size, u64 start, u64 *rawsize);

int btt_arena_count(u64 rawsize);
int btt_arena_geometry(u64 rawsize, u32 lbasize, u32 idx,
		       struct btt_arena *arena);
int btt_capacity(u64 rawsize, u32 lbasize, u64 *nlba, u64 *bytes);

u64 btt_info_checksum(const struct btt_info *info);
void btt_info_seal(struct btt_info *info);
int btt_info_build(struct btt_info *info, const struct btt_arena *arena,
		   const u8 *uuid, const u8 *parent_uuid, u64 start);
enum btt_info_verdict btt_info_check(const struct btt_info *info,
				     const struct btt_ns *ns, u64 arena_off,
				     struct btt_arena *arena);
bool btt_info_is_btt(enum btt_info_verdict v);
const char *btt_info_verdict_name(enum btt_info_verdict v);

enum btt_map_state btt_map_decode(u32 entry, u32 premap, u32 *postmap);
int btt_map_encode(u32 postmap, enum btt_map_state state, u32 *entry);

u32 btt_seq_next(u32 seq);
int btt_flog_newest(u32 seq0, u32 seq1);
void btt_flog_decode(const struct btt_flog_slot *slot,
		     struct btt_flog_ent *ent);
void btt_flog_encode(struct btt_flog_slot *slot,
		     const struct btt_flog_ent *ent);
int btt_flog_init_lane(struct btt_flog_lane *lane, u32 lane_nr,
		       const struct btt_arena *arena);
int btt_flog_detect(const struct btt_flog_lane *lane,
		    enum btt_flog_fmt *fmt);
u32 btt_flog_second_slot(enum btt_flog_fmt fmt);
int btt_flog_lane_state(const struct btt_flog_lane *lane,
			enum btt_flog_fmt fmt, struct btt_flog_state *st);
bool btt_flog_reads_map(const struct btt_flog_ent *newest);
int btt_flog_recover(const struct btt_flog_ent *newest, u32 map_raw,
		     const struct btt_arena *arena, struct btt_recovery *rec);

#endif /* __ND_BTT_FORMAT_H__ */
