/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nd_btt.ko private state: a BTT attached to a btt device.  The media
 * format and its arithmetic are btt-format.h; this is what the driver
 * keeps in memory between attach and detach.
 */
#ifndef __ND_BTT_H__
#define __ND_BTT_H__

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/cache.h>
#include <linux/workqueue.h>
#include "btt-format.h"

struct dentry;
struct gendisk;
struct nd_btt;
struct nd_region;

/*
 * Largest nfree this driver attaches (the kernel writes 256): it bounds
 * the flog read and the per-lane arrays an info block can ask for.
 */
#define BTT_MAX_NFREE		4096

/* pending attach-time repairs of a lane (struct btt_lane_state.fix) */
#define BTT_FIX_MAP		0x1	/* write fix_entry to map[fix_lba] */
#define BTT_FIX_ZERO		0x2	/* zero the lane's free block */

/* an RTT slot: bit 31 set = a reader is reading the block in bits 29..0 */
#define BTT_RTT_VALID		0x80000000U
#define BTT_RTT_INVALID		0

/**
 * struct btt_lane_state - one flog lane of an arena, in memory
 * @block: the lane's free block (postmap ABA, no flags)
 * @slot: flog slot (0 to 3) the lane's next entry goes to
 * @seq: sequence number of the lane's next entry
 * @fix: BTT_FIX_* repairs recovery found and has not yet written (the
 *	region was read-only at attach)
 * @fix_lba: premap ABA for BTT_FIX_MAP
 * @fix_entry: raw map entry for BTT_FIX_MAP
 * @bad: @block had a media error (its map entry carried the error flag):
 *	it is rewritten and read back before the lane writes data into it
 */
struct btt_lane_state {
	u32 block;
	u32 slot;
	u32 seq;
	u32 fix;
	u32 fix_lba;
	u32 fix_entry;
	bool bad;
};

/**
 * struct btt_arena_dbg - the values of an arena's debugfs directory
 *	(btt/bttR.N/arenaI/, the files of 6.1) that are not in its geometry
 * @size: bytes of the arena: nextoff, or info2off + 4096 for the last
 * @nextoff: offset of the next arena relative to the BTT start, 0 for
 *	the last
 * @infooff: the arena start relative to the BTT start
 * @dataoff: data area, relative to the BTT start
 * @mapoff: map, relative to the BTT start
 * @logoff: flog, relative to the BTT start
 * @info2off: backup info block, relative to the BTT start
 * @flags: info block flags at attach, IB_FLAG_ERROR once the arena
 *	refuses writes
 * @log_index: the two live flog slots of every lane (0 and 1, or 0 and
 *	2 for the older padding format: ndctl's btt-pad-compat test reads
 *	them)
 */
struct btt_arena_dbg {
	u64 size;
	u64 nextoff;
	u64 infooff;
	u64 dataoff;
	u64 mapoff;
	u64 logoff;
	u64 info2off;
	u32 flags;
	u32 log_index[2];
};

/**
 * struct btt_arena_state - an attached arena
 * @geo: its geometry as the info block records it (@geo.off relative to
 *	the BTT start)
 * @base: namespace offset of the arena start
 * @first_lba: first external LBA the arena serves
 * @fmt: the flog's padding format (which two slots are live)
 * @error: the info block has IB_FLAG_ERROR: writes fail with -EIO
 * @lanes: @geo.nfree lane states
 * @rtt: read tracking table, one slot per I/O lane (struct btt.nlanes)
 * @dbg: what debugfs shows beside @geo, @first_lba and the version
 */
struct btt_arena_state {
	struct btt_arena geo;
	u64 base;
	u64 first_lba;
	enum btt_flog_fmt fmt;
	bool error;
	struct btt_lane_state *lanes;
	u32 *rtt;
	struct btt_arena_dbg dbg;
};

/**
 * struct btt_io_lane - an I/O lane: one writer or reader at a time
 * @lock: held for a whole block read or write on this lane
 */
struct btt_io_lane {
	struct mutex lock; /* one block operation at a time */
} ____cacheline_aligned_in_smp;

/**
 * struct btt - an attached BTT (struct nd_btt.btt)
 * @nd_btt: the btt device's core state
 * @dev: the btt device (bttR.N), owner of every devm resource here
 * @ndns: the claimed namespace, mapped for byte access
 * @nd_region: the region, for nvdimm_flush()
 * @disk: the block device, NULL until added
 * @ns_size: bytes of the namespace
 * @start: namespace offset of the BTT (nd_btt->initial_offset)
 * @rawsize: bytes behind @start
 * @lbasize: external_lbasize of every arena
 * @sector_size: Linux logical block size (512 or 4096)
 * @lba_shift: log2(@sector_size / 512)
 * @nlba: external blocks over all arenas
 * @parent_uuid: the namespace's uuid (all zero for io namespaces)
 * @has_parent: @parent_uuid is set
 * @narenas: entries in @arenas
 * @arenas: the arenas in LBA order
 * @nlanes: I/O lanes: min(nr_cpu_ids, smallest nfree of the arenas)
 * @io_lanes: @nlanes lane locks
 * @nmaplocks: entries in @map_locks
 * @map_locks: serialise map entry reads and writes (and a writer's flog
 *	entry with its map update)
 * @bounce: @nlanes buffers of @bounce_stride bytes, for data blocks with
 *	integrity bytes (@lbasize > @sector_size), else NULL
 * @bounce_stride: bytes per lane in @bounce
 * @zero_block: @lbasize zero bytes, for clearing known-bad blocks
 * @ro_lock: serialises read-only transitions (and the deferred repairs)
 * @ro: the region is read-only: no media writes at all
 * @fixes_pending: some lane has a BTT_FIX_* not yet written; bio writes
 *	are refused until it is cleared
 * @fix_work: retries the repairs a block write left (its map store
 *	failed after its flog entry landed)
 * @debugfs_dir: btt/bttR.N in debugfs, NULL or an error pointer when
 *	there is none
 */
struct btt {
	struct nd_btt *nd_btt;
	struct device *dev;
	struct device *ndns;
	struct nd_region *nd_region;
	struct gendisk *disk;
	u64 ns_size;
	u64 start;
	u64 rawsize;
	u32 lbasize;
	u32 sector_size;
	u32 lba_shift;
	u64 nlba;
	u8 parent_uuid[16];
	bool has_parent;
	u32 narenas;
	struct btt_arena_state *arenas;
	u32 nlanes;
	struct btt_io_lane *io_lanes;
	u32 nmaplocks;
	struct mutex *map_locks; /* map entry access, by cache line */
	u8 *bounce;
	u32 bounce_stride;
	u8 *zero_block;
	struct mutex ro_lock; /* read-only transitions, deferred repairs */
	bool ro;
	bool fixes_pending;
	struct work_struct fix_work;
	struct dentry *debugfs_dir;
};

/* btt-debugfs.c: btt/bttR.N/arenaI/ as 6.1's (best effort: never fails) */
int btt_debugfs_add(struct btt *btt);
void btt_debugfs_init(void);
void btt_debugfs_exit(void);

#endif /* __ND_BTT_H__ */
