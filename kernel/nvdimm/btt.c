// SPDX-License-Identifier: GPL-2.0
/*
 * nd_btt: a Block Translation Table over a namespace (/dev/pmemNs).
 *
 * The BTT makes every sector write power-fail atomic on byte-addressable
 * media: a write goes to a free data block, then a flog entry and a map
 * entry publish it (shared docs, media-formats.md section 6).  All the
 * format arithmetic is btt-format.c; this file does the I/O around it.
 * nd_pmem binds btt devices and calls nvdimm_namespace_attach_btt()
 * from its probe; teardown is devm on the btt device.
 *
 * Every media store goes through nvdimm_write_bytes(), one call per
 * store: the flog entry as two 8-byte halves ({lba, old_map}, then
 * {new_map, seq}) and the map entry as one 4-byte store.  The test build
 * wraps that function to simulate a power cut, so no other path may
 * write the media.  Nothing is written while the region is read-only.
 *
 * Persistence order (shared docs, persistence-order.md): the stores are
 * non-temporal and may reach the media in any order until a fence, so
 * every store that a later one depends on is followed by btt_fence()
 * (nvdimm_flush()): a block write is data, fence, flog {lba, old_map},
 * fence, flog {new_map, seq}, fence, map entry, fence; a layout is
 * "no BTT", fence, map and flog, fence, info blocks, fence.  The test
 * build wraps nvdimm_flush() too: its power cuts reorder the stores of
 * one fence epoch (kernel/test/powercut.c).
 *
 * Sector sizes with integrity bytes (520, 528, 4104, 4160, 4224) export
 * 512- or 4096-byte sectors without blk_integrity: the extra bytes of a
 * data block are written as zeros and ignored on read.
 *
 * Locking:
 *
 * - An I/O lane (struct btt_io_lane) is taken for the whole of one block
 *   read or write: lane = CPU number % nlanes, where nlanes is at most
 *   the smallest nfree of the arenas.  The lock is taken even when every
 *   CPU has a lane of its own, so a task preempted or migrated between
 *   choosing the lane and locking it is still correct, and CPUs sharing a
 *   lane simply queue.  The lane lock protects, for every arena, that
 *   lane's free block, next flog slot and sequence number (struct
 *   btt_lane_state) and the lane's RTT slot.  Lane locks never nest.
 * - A map lock (struct btt.map_locks, chosen by the map entry's cache
 *   line) is taken inside a lane lock around every runtime map read and
 *   write; a writer holds it from reading the old entry through writing
 *   the flog entry and the new map entry, so two writes to one premap
 *   block are ordered and the map is never read torn.
 * - The read tracking table (struct btt_arena_state.rtt) is lock-free: a
 *   reader publishes the block it is about to read (WRITE_ONCE + full
 *   barrier), re-reads the map and retries when the map changed, and
 *   clears the slot with release semantics after the copy; a writer
 *   polls (acquire loads, yielding the CPU) until no slot names its free
 *   block before it overwrites that block.  A reader never waits for a
 *   writer's lane, so the wait always ends.
 * - Both locks are mutexes: a fence (nvdimm_flush()) sleeps on a region
 *   whose provider makes stores durable (virtio-pmem asks the host to
 *   sync its file), and the fences of a block write are taken with the
 *   locks held.  Bios are submitted in process context, so a block
 *   operation may sleep.
 * - struct btt.ro_lock (a mutex, called under the btt's device lock)
 *   serialises read-only transitions and the repairs recovery had to
 *   defer because the region was read-only at attach, or that a block
 *   write left when its map store failed after its flog entry landed
 *   (struct btt.fix_work retries those); while repairs are pending no
 *   bio write is admitted (@fixes_pending, release/acquire) and a lane
 *   with a repair of its own refuses writes.  A block write tests btt.ro
 *   once, under its lane lock; going read-only takes every lane lock
 *   once after setting it, so no write is left half done.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include "nd.h"
#include "btt-format.h"
#include "btt.h"

/* bytes per store while laying out a map or zeroing a range */
#define BTT_ZERO_CHUNK		(64 * 1024)

static_assert(offsetof(struct btt_flog_slot, new_map) == 8);

/* ------------------------------------------------------------------ */
/* media access                                                        */

static int btt_read(struct btt *btt, u64 off, void *buf, size_t len)
{
	return nvdimm_read_bytes(btt->ndns, off, buf, len);
}

/*
 * The only way this module writes the media.  Whether writing is allowed
 * (btt->ro) is decided once per operation by its caller, never per store:
 * a block write that started is finished (nvdimm_btt_set_ro() waits).
 */
static int btt_write(struct btt *btt, u64 off, const void *buf, size_t len)
{
	return nvdimm_write_bytes(btt->ndns, off, buf, len);
}

/*
 * Make every store before this one durable before any store after it
 * (shared docs, persistence-order.md): non-temporal stores may reach the
 * media in any order, so each store the next one depends on is fenced.
 * The test build wraps nvdimm_flush() to close a power-cut epoch here.
 */
static void btt_fence(struct btt *btt)
{
	nvdimm_flush(btt->nd_region);
}

static u64 btt_block_off(const struct btt_arena_state *a, u32 blk)
{
	return a->base + a->geo.dataoff + (u64)blk * a->geo.internal_lbasize;
}

static u64 btt_map_off(const struct btt_arena_state *a, u32 premap)
{
	return a->base + a->geo.mapoff + (u64)premap * BTT_MAP_ENTRY_SIZE;
}

static struct mutex *btt_map_lock(struct btt *btt, u32 premap)
{
	u64 line = (u64)premap * BTT_MAP_ENTRY_SIZE / L1_CACHE_BYTES;

	return &btt->map_locks[do_div(line, btt->nmaplocks)];
}

static int btt_map_get(struct btt *btt, const struct btt_arena_state *a,
		       u32 premap, u32 *raw)
{
	__le32 le;
	int rc;

	rc = btt_read(btt, btt_map_off(a, premap), &le, sizeof(le));
	if (!rc)
		*raw = le32_to_cpu(le);
	return rc;
}

/* one aligned 4-byte store: the map entry changes atomically */
static int btt_map_set(struct btt *btt, const struct btt_arena_state *a,
		       u32 premap, u32 raw)
{
	__le32 le = cpu_to_le32(raw);

	return btt_write(btt, btt_map_off(a, premap), &le, sizeof(le));
}

static u64 btt_flog_off(const struct btt_arena_state *a, u32 lane, u32 slot)
{
	return a->base + a->geo.logoff + (u64)lane * BTT_FLOG_LANE_SIZE +
	       slot * BTT_FLOG_SLOT_SIZE;
}

/*
 * A flog entry in two 8-byte halves, seq in the second: {lba, old_map}
 * is durable before the sequence number that makes the entry the
 * lane's newest, and the entry is durable before the caller's next store.
 * -EAGAIN: the first half failed, the entry is certainly not the newest.
 */
static int btt_flog_put(struct btt *btt, const struct btt_arena_state *a,
			u32 lane, u32 slot, const struct btt_flog_ent *ent)
{
	u64 off = btt_flog_off(a, lane, slot);
	struct btt_flog_slot s;
	int rc;

	btt_flog_encode(&s, ent);
	if (btt_write(btt, off, &s, 8))
		return -EAGAIN;
	btt_fence(btt);
	rc = btt_write(btt, off + 8, (u8 *)&s + 8, 8);
	btt_fence(btt);
	return rc;
}

/*
 * Writing the second half of a flog entry failed: did its sequence
 * number land (1), not (0), or can nobody tell (errno)?  A failed store
 * may or may not have reached the media (a block-window error says
 * nothing about the bytes), so the media is asked.
 */
static int btt_flog_landed(struct btt *btt, const struct btt_arena_state *a,
			   u32 lane, u32 slot, const struct btt_flog_ent *ent)
{
	struct btt_flog_slot want, got;
	int rc;

	btt_flog_encode(&want, ent);
	rc = btt_read(btt, btt_flog_off(a, lane, slot), &got, sizeof(got));
	if (rc)
		return rc;
	if (got.seq != want.seq)
		return 0;
	/* our seq with other fields: an entry that is neither */
	return memcmp(&got, &want, sizeof(got)) ? -EIO : 1;
}

static int btt_zero_range(struct btt *btt, u64 off, u64 len, const void *zero)
{
	int rc;

	while (len) {
		size_t n = min_t(u64, len, BTT_ZERO_CHUNK);

		rc = btt_write(btt, off, zero, n);
		if (rc)
			return rc;
		off += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/* until no reader has @blk of @a published in its RTT slot */
static void btt_rtt_wait(struct btt *btt, struct btt_arena_state *a, u32 blk)
{
	u32 i;

	for (i = 0; i < btt->nlanes; i++)
		/* pairs with the reader's release: its copy is over */
		while (smp_load_acquire(&a->rtt[i]) == (blk | BTT_RTT_VALID))
			/* the reader may be preempted under its lane mutex */
			cond_resched();
}

/* ------------------------------------------------------------------ */
/* attach: discovery, layout, recovery                                 */

static void btt_ns_of(const struct btt *btt, u64 start, struct btt_ns *ns)
{
	ns->size = btt->ns_size;
	ns->start = start;
	ns->uuid = btt->has_parent ? btt->parent_uuid : NULL;
}

/*
 * Is arena 0's backup info block (the last 4 KiB of a fresh arena 0)
 * valid: 1, 0, or the read's errno, with *@at where it lies.
 */
static int btt_backup_valid(struct btt *btt, struct btt_info *info, u64 *at)
{
	struct btt_arena geo, found;
	struct btt_ns ns;
	int rc;

	*at = 0;
	btt_ns_of(btt, btt->start, &ns);
	if (btt_arena_geometry(btt->rawsize, btt->lbasize, 0, &geo))
		return 0;
	*at = btt->start + geo.info2off;
	rc = btt_read(btt, *at, info, sizeof(*info));
	if (rc)
		return rc;
	return btt_info_check(info, &ns, 0, &found) == BTT_INFO_VALID;
}

/*
 * Is there a valid info block of the other BTT version at its own start
 * (*@other): 1, 0, or the read's errno.
 */
static int btt_other_version_valid(struct btt *btt, struct btt_info *info,
				   u64 *other)
{
	struct btt_arena found;
	struct btt_ns ns;
	u64 rawsize;
	int rc;

	*other = btt->start == BTT_START_V11 ? BTT_START_V20 : BTT_START_V11;
	btt_ns_of(btt, *other, &ns);
	if (btt_rawsize(ns.size, *other, &rawsize) ||
	    btt_arena_count(rawsize) < 0)
		return 0;
	rc = btt_read(btt, *other, info, sizeof(*info));
	if (rc)
		return rc;
	return btt_info_check(info, &ns, 0, &found) == BTT_INFO_VALID;
}

/*
 * Arena 0's info block is not valid (@v): is there no BTT (return 1, a
 * fresh one may be laid out) or one we must not touch (-ENODEV)?
 *
 * An all-zero block is a BTT never laid out or deliberately destroyed
 * (ndctl wipes the first 8 KiB, §6.13), even when the old backup is still
 * there.  Anything else with a valid backup is a damaged BTT that ndctl
 * can repair; a block with our signature, checksum, parent and version
 * but bad geometry is a damaged BTT too.  A block that cannot be read
 * (poisoned media) is never taken for "no BTT": the answer is its errno.
 */
static int btt_no_first_arena(struct btt *btt, struct btt_info *info,
			      enum btt_info_verdict v)
{
	const char *ns = dev_name(btt->ndns);
	bool wiped = v == BTT_INFO_BAD_SIG &&
		     !memchr_inv(info, 0, sizeof(*info));
	u64 other, at;
	int rc;

	rc = wiped ? 0 : btt_backup_valid(btt, info, &at);
	if (rc < 0) {
		dev_err(btt->dev, "%s: primary info block at %llu %s, its backup at %llu unreadable (%d): not laying out a new BTT over it\n",
			ns, btt->start, btt_info_verdict_name(v), at, rc);
		return rc;
	}
	if (rc) {
		dev_err(btt->dev, "%s: primary info block corrupt (%s), backup valid: repair with ndctl check-namespace --repair\n",
			ns, btt_info_verdict_name(v));
		return -ENODEV;
	}
	if (btt_info_is_btt(v)) {
		dev_err(btt->dev, "%s: info block at %llu: %s: corrupt metadata, not laying out a new BTT over it\n",
			ns, btt->start, btt_info_verdict_name(v));
		return -ENODEV;
	}
	rc = btt_other_version_valid(btt, info, &other);
	if (rc < 0) {
		dev_err(btt->dev, "%s: no BTT at %llu (%s), and the info block of the other version at %llu is unreadable (%d): not laying out a new BTT over it\n",
			ns, btt->start, btt_info_verdict_name(v), other, rc);
		return rc;
	}
	if (rc) {
		dev_err(btt->dev, "%s: no BTT at %llu but a valid BTT %u.%u at %llu: not laying out a new BTT over it (destroy it first)\n",
			ns, btt->start, le16_to_cpu(info->version_major),
			le16_to_cpu(info->version_minor), other);
		return -ENODEV;
	}
	dev_dbg(btt->dev, "%s: no BTT at %llu: %s\n", ns, btt->start,
		btt_info_verdict_name(v));
	return 1;
}

/*
 * What a valid info block of arena @idx must also agree with: 0, an
 * errno, or 1 when arena 0 is this btt's own BTT with another sector size
 * (the owner reconfiguring it: a new one is laid out, see docs/btt.md).
 */
static int btt_check_arena(struct btt *btt, const struct btt_info *info,
			   const struct btt_arena *geo, u32 idx)
{
	const char *ns = dev_name(btt->ndns);
	struct nd_btt *nd_btt = btt->nd_btt;
	bool ours = !memcmp(info->uuid, nd_btt->cd.uuid.b, sizeof(info->uuid));

	if (geo->external_lbasize != btt->lbasize) {
		if (!idx && ours) {
			/*
			 * Only the btt's owner knows its uuid (an autodetected
			 * btt takes the media's sector size): v4.2 programs
			 * re-enable one btt uuid with each sector size in turn.
			 */
			dev_warn(btt->dev, "%s: the BTT there is this btt's (uuid %pUb) with %u-byte sectors, %u configured: laying out a new BTT, the old one's data is dropped\n",
				 ns, info->uuid, geo->external_lbasize,
				 btt->lbasize);
			return 1;
		}
		if (!idx) {
			dev_err(btt->dev, "%s: the BTT there has %u-byte sectors and uuid %pUb, %u and %pUb configured: not attached, media unchanged\n",
				ns, geo->external_lbasize, info->uuid,
				btt->lbasize, &nd_btt->cd.uuid);
			return -EINVAL;
		}
		dev_err(btt->dev, "%s: arena %u has %u-byte sectors, arena 0 %u: corrupt metadata\n",
			ns, idx, geo->external_lbasize, btt->lbasize);
		return -ENODEV;
	}
	if (!ours) {
		if (!idx) {
			dev_err(btt->dev, "%s: the BTT there has uuid %pUb, %pUb configured: not attached, media unchanged\n",
				ns, info->uuid, &nd_btt->cd.uuid);
			return -EINVAL;
		}
		dev_err(btt->dev, "%s: arena %u has uuid %pUb, not the BTT's %pUb: corrupt metadata\n",
			ns, idx, info->uuid, &nd_btt->cd.uuid);
		return -ENODEV;
	}
	if (geo->nfree > BTT_MAX_NFREE) {
		dev_err(btt->dev, "%s: arena %u has nfree %u, this driver supports up to %u\n",
			ns, idx, geo->nfree, BTT_MAX_NFREE);
		return -ENODEV;
	}
	if (geo->flags & IB_FLAG_ERROR)
		dev_warn(btt->dev, "%s: arena %u is in the error state (info block flags %#x): writes to it fail\n",
			 ns, idx, geo->flags);
	return 0;
}

static void btt_free_arenas(struct btt *btt)
{
	u32 i;

	for (i = 0; i < btt->narenas; i++) {
		kvfree(btt->arenas[i].lanes);
		kfree(btt->arenas[i].rtt);
	}
	kfree(btt->arenas);
	btt->arenas = NULL;
	btt->narenas = 0;
}

/*
 * Walk the arenas from the BTT start (§6.5 "Discovery").  Returns 0 with
 * btt->arenas filled, 1 when there is no BTT, or an errno.  Nothing is
 * written.
 */
static int btt_discover(struct btt *btt)
{
	const char *ns_name = dev_name(btt->ndns);
	struct btt_arena_state *arenas = NULL, *grown;
	u64 off = 0, nlba = 0, max_arenas;
	enum btt_info_verdict v;
	struct btt_info *info;
	struct btt_arena geo;
	u32 n = 0, cap = 0;
	struct btt_ns ns;
	int rc;

	btt_free_arenas(btt);
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	btt_ns_of(btt, btt->start, &ns);
	/* a laid-out arena is at least 16 MiB: more would be corruption */
	max_arenas = div64_u64(btt->rawsize, BTT_ARENA_MIN);

	for (;;) {
		rc = btt_read(btt, btt->start + off, info, sizeof(*info));
		if (rc) {
			dev_err(btt->dev, "%s: cannot read the info block of arena %u at %llu: %d\n",
				ns_name, n, btt->start + off, rc);
			goto out;
		}
		v = btt_info_check(info, &ns, off, &geo);
		if (v != BTT_INFO_VALID) {
			if (!n) {
				rc = btt_no_first_arena(btt, info, v);
			} else {
				dev_err(btt->dev, "%s: arena %u at %llu: %s: corrupt metadata\n",
					ns_name, n, btt->start + off,
					btt_info_verdict_name(v));
				rc = -ENODEV;
			}
			goto out;
		}
		rc = btt_check_arena(btt, info, &geo, n);
		if (rc)
			goto out;
		if (n == cap) {
			cap = cap ? 2 * cap : 4;
			grown = krealloc_array(arenas, cap, sizeof(*arenas),
					       GFP_KERNEL);
			if (!grown) {
				rc = -ENOMEM;
				goto out;
			}
			arenas = grown;
		}
		memset(&arenas[n], 0, sizeof(*arenas));
		arenas[n].geo = geo;
		arenas[n].base = btt->start + off;
		arenas[n].first_lba = nlba;
		arenas[n].error = geo.flags & IB_FLAG_ERROR;
		nlba += geo.external_nlba;
		n++;
		if (!geo.nextoff)
			break;
		if (n >= max_arenas) {
			dev_err(btt->dev, "%s: more than %llu arenas in %llu bytes: corrupt metadata\n",
				ns_name, max_arenas, btt->rawsize);
			rc = -ENODEV;
			goto out;
		}
		/* btt_info_check(): off + nextoff stays inside rawsize */
		off += geo.nextoff;
	}
	btt->arenas = arenas;
	btt->narenas = n;
	btt->nlba = nlba;
	arenas = NULL;
out:
	kfree(arenas);
	kfree(info);
	return rc;
}

/* lay out arena @idx of a fresh BTT (§6.13): map, flog, info2, info */
static int btt_format_arena(struct btt *btt, u32 idx, const void *zero,
			    struct btt_flog_lane *flog, struct btt_info *info)
{
	struct btt_arena g;
	u64 base, len;
	u32 l;
	int rc;

	rc = btt_arena_geometry(btt->rawsize, btt->lbasize, idx, &g);
	if (rc)
		return rc;
	base = btt->start + g.off;
	rc = btt_zero_range(btt, base + g.mapoff, g.logoff - g.mapoff, zero);
	if (rc)
		return rc;
	for (l = 0; l < g.nfree; l++) {
		rc = btt_flog_init_lane(&flog[l], l, &g);
		if (rc)
			return rc;
	}
	len = (u64)g.nfree * BTT_FLOG_LANE_SIZE;
	rc = btt_write(btt, base + g.logoff, flog, len);
	if (!rc)
		rc = btt_zero_range(btt, base + g.logoff + len,
				    g.info2off - g.logoff - len, zero);
	if (rc)
		return rc;
	rc = btt_info_build(info, &g, btt->nd_btt->cd.uuid.b,
			    btt->has_parent ? btt->parent_uuid : NULL,
			    btt->start);
	if (rc)
		return rc;
	/* the map and flog are durable before an info block describes them */
	btt_fence(btt);
	rc = btt_write(btt, base + g.info2off, info, sizeof(*info));
	if (!rc)
		rc = btt_write(btt, base, info, sizeof(*info));
	btt_fence(btt);
	return rc;
}

/*
 * A fresh BTT over the whole namespace.  Arena 0's primary info block is
 * zeroed first and written last (arenas from the last to the first), so
 * a layout cut short leaves "no BTT", which the next attach lays out
 * again.
 */
static int btt_format(struct btt *btt)
{
	struct btt_flog_lane *flog;
	struct btt_info *info;
	int count, i, rc;
	void *zero;

	count = btt_arena_count(btt->rawsize);
	if (count < 0)
		return count;
	zero = kvzalloc(BTT_ZERO_CHUNK, GFP_KERNEL);
	flog = kvcalloc(BTT_NFREE, sizeof(*flog), GFP_KERNEL);
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!zero || !flog || !info) {
		rc = -ENOMEM;
		goto out;
	}
	rc = btt_write(btt, btt->start, zero, BTT_INFO_SIZE);
	/* "no BTT" is durable before any arena is laid out */
	btt_fence(btt);
	for (i = count - 1; !rc && i >= 0; i--)
		rc = btt_format_arena(btt, i, zero, flog, info);
	if (rc)
		dev_err(btt->dev, "%s: laying out the BTT failed: %d\n",
			dev_name(btt->ndns), rc);
	else
		dev_info(btt->dev, "%s: laid out a new BTT %u.%u at %llu: %d arena(s), %u-byte sectors\n",
			 dev_name(btt->ndns), btt->nd_btt->version_major,
			 btt->nd_btt->version_minor, btt->start, count,
			 btt->lbasize);
out:
	kfree(info);
	kvfree(flog);
	kvfree(zero);
	return rc;
}

/* in-memory state for the discovered arenas */
static int btt_alloc_runtime(struct btt *btt)
{
	u32 minfree = U32_MAX, i;

	for (i = 0; i < btt->narenas; i++)
		minfree = min(minfree, btt->arenas[i].geo.nfree);
	btt->nlanes = min_t(u32, minfree, nr_cpu_ids);
	btt->nmaplocks = minfree;

	btt->io_lanes = kcalloc(btt->nlanes, sizeof(*btt->io_lanes),
				GFP_KERNEL);
	btt->map_locks = kcalloc(btt->nmaplocks, sizeof(*btt->map_locks),
				 GFP_KERNEL);
	btt->zero_block = kzalloc(btt->lbasize, GFP_KERNEL);
	if (!btt->io_lanes || !btt->map_locks || !btt->zero_block)
		return -ENOMEM;
	for (i = 0; i < btt->nlanes; i++)
		mutex_init(&btt->io_lanes[i].lock);
	for (i = 0; i < btt->nmaplocks; i++)
		mutex_init(&btt->map_locks[i]);
	if (btt->lbasize != btt->sector_size) {
		btt->bounce_stride = round_up(btt->lbasize, BTT_LBASIZE_ALIGN);
		btt->bounce = kvcalloc(btt->nlanes, btt->bounce_stride,
				       GFP_KERNEL);
		if (!btt->bounce)
			return -ENOMEM;
	}
	for (i = 0; i < btt->narenas; i++) {
		struct btt_arena_state *a = &btt->arenas[i];

		a->lanes = kvcalloc(a->geo.nfree, sizeof(*a->lanes),
				    GFP_KERNEL);
		a->rtt = kcalloc(btt->nlanes, sizeof(*a->rtt), GFP_KERNEL);
		if (!a->lanes || !a->rtt)
			return -ENOMEM;
	}
	return 0;
}

static int btt_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Rebuild the lanes of arena @idx from its flog (§6.7, §6.8) without
 * writing anything: repairs are recorded in the lane states.
 */
static int btt_recover_arena(struct btt *btt, u32 idx)
{
	struct btt_arena_state *a = &btt->arenas[idx];
	const char *ns = dev_name(btt->ndns);
	u32 nfree = a->geo.nfree, l, second;
	struct btt_flog_lane *flog;
	struct btt_flog_state st;
	struct btt_recovery rec;
	u32 *blocks;
	int rc;

	flog = kvcalloc(nfree, sizeof(*flog), GFP_KERNEL);
	blocks = kvcalloc(nfree, sizeof(*blocks), GFP_KERNEL);
	if (!flog || !blocks) {
		rc = -ENOMEM;
		goto out;
	}
	rc = btt_read(btt, a->base + a->geo.logoff, flog,
		      (size_t)nfree * sizeof(*flog));
	if (rc) {
		dev_err(btt->dev, "%s: arena %u: cannot read the flog: %d\n",
			ns, idx, rc);
		goto out;
	}

	a->fmt = BTT_FLOG_UNKNOWN;
	for (l = 0; l < nfree; l++) {
		if (btt_flog_detect(&flog[l], &a->fmt)) {
			dev_err(btt->dev, "%s: arena %u lane %u: flog slots in use match neither layout (0/1, 0/2) of the other lanes: corrupt flog\n",
				ns, idx, l);
			rc = -ENODEV;
			goto out;
		}
	}
	second = btt_flog_second_slot(a->fmt);

	for (l = 0; l < nfree; l++) {
		struct btt_lane_state *ls = &a->lanes[l];
		u32 raw = 0;

		if (btt_flog_lane_state(&flog[l], a->fmt, &st)) {
			dev_err(btt->dev, "%s: arena %u lane %u: flog sequence numbers %u (slot 0) and %u (slot %u) are not a valid pair: corrupt flog\n",
				ns, idx, l, le32_to_cpu(flog[l].slot[0].seq),
				le32_to_cpu(flog[l].slot[second].seq), second);
			rc = -ENODEV;
			goto out;
		}
		/* 6.1 reads the map only for a logged write (see there) */
		if (st.newest.lba < a->geo.external_nlba &&
		    btt_flog_reads_map(&st.newest)) {
			rc = btt_map_get(btt, a, st.newest.lba, &raw);
			if (rc) {
				dev_err(btt->dev, "%s: arena %u lane %u: cannot read map entry %u: %d\n",
					ns, idx, l, st.newest.lba, rc);
				goto out;
			}
		}
		if (btt_flog_recover(&st.newest, raw, &a->geo, &rec)) {
			dev_err(btt->dev, "%s: arena %u lane %u: flog entry out of range (lba %u, old %#x, new %#x; %u blocks): corrupt flog\n",
				ns, idx, l, st.newest.lba, st.newest.old_map,
				st.newest.new_map, a->geo.internal_nlba);
			rc = -ENODEV;
			goto out;
		}
		ls->block = rec.free_block;
		ls->slot = st.next_slot;
		ls->seq = st.next_seq;
		ls->fix = 0;
		if (rec.set_map) {
			ls->fix |= BTT_FIX_MAP;
			ls->fix_lba = rec.lba;
			ls->fix_entry = rec.map_entry;
		}
		if (rec.zero_free) {
			ls->fix |= BTT_FIX_ZERO;
			ls->bad = true;
		}
		if (ls->fix)
			btt->fixes_pending = true;
		blocks[l] = rec.free_block;
	}

	/* two lanes writing into one free block would corrupt data */
	sort(blocks, nfree, sizeof(*blocks), btt_cmp_u32, NULL);
	for (l = 1; l < nfree; l++) {
		if (blocks[l] == blocks[l - 1]) {
			dev_err(btt->dev, "%s: arena %u: two flog lanes name free block %u: corrupt flog\n",
				ns, idx, blocks[l]);
			rc = -ENODEV;
			goto out;
		}
	}
out:
	kvfree(blocks);
	kvfree(flog);
	return rc;
}

/* the repairs of lane @l of @a (its I/O lane locked, if it has one) */
static int btt_apply_lane_fixes(struct btt *btt, struct btt_arena_state *a,
				u32 l)
{
	struct btt_lane_state *ls = &a->lanes[l];
	struct mutex *ml; /* the fixed entry's map lock */
	int rc;

	if (ls->fix & BTT_FIX_MAP) {
		ml = btt_map_lock(btt, ls->fix_lba);
		mutex_lock(ml);
		rc = btt_map_set(btt, a, ls->fix_lba, ls->fix_entry);
		mutex_unlock(ml);
		if (rc)
			return rc;
		/* the map no longer names the lane's free block */
		btt_fence(btt);
		dev_dbg(btt->dev, "lane %u: finished the map update of block %u\n",
			l, ls->fix_lba);
		ls->fix &= ~BTT_FIX_MAP;
	}
	if (ls->fix & BTT_FIX_ZERO) {
		/* a reader may still have the old mapping */
		btt_rtt_wait(btt, a, ls->block);
		rc = btt_write(btt, btt_block_off(a, ls->block),
			       btt->zero_block, btt->lbasize);
		if (rc)
			return rc;
		btt_fence(btt);
		ls->fix &= ~BTT_FIX_ZERO;
	}
	return 0;
}

/*
 * Write the repairs recorded by recovery or by a block write that failed
 * after its flog entry: finish logged map updates, clear known-bad free
 * blocks.  Called with ro_lock held (or from attach) and the region
 * writable; bio writes are refused meanwhile (fixes_pending), and a
 * lane's repairs are made under its I/O lane lock so that a write
 * admitted before fixes_pending was set cannot interleave.
 */
static int btt_apply_fixes(struct btt *btt)
{
	u32 i, l;
	int rc;

	for (i = 0; i < btt->narenas; i++) {
		struct btt_arena_state *a = &btt->arenas[i];

		for (l = 0; l < a->geo.nfree; l++) {
			/* I/O lane l writes flog lane l; above nlanes: idle */
			struct mutex *io = &btt->io_lanes[l % btt->nlanes].lock;

			mutex_lock(io);
			rc = a->lanes[l].fix ? btt_apply_lane_fixes(btt, a, l) : 0;
			mutex_unlock(io);
			if (rc) {
				dev_err(btt->dev, "%s: arena %u lane %u: repair failed: %d\n",
					dev_name(btt->ndns), i, l, rc);
				return rc;
			}
		}
	}
	return 0;
}

static int btt_load(struct btt *btt)
{
	u32 i;
	int rc;

	rc = btt_discover(btt);
	if (rc > 0) {
		if (btt->ro) {
			dev_err(btt->dev, "%s: no BTT on the media and the region is read-only: cannot lay one out\n",
				dev_name(btt->ndns));
			return -ENXIO;
		}
		rc = btt_format(btt);
		if (rc)
			return rc;
		rc = btt_discover(btt);
		if (rc > 0) {
			dev_err(btt->dev, "%s: the BTT just laid out does not read back\n",
				dev_name(btt->ndns));
			return -EIO;
		}
	}
	if (rc)
		return rc;

	rc = btt_alloc_runtime(btt);
	if (rc)
		return rc;
	/* every lane of every arena is checked before anything is written */
	for (i = 0; i < btt->narenas; i++) {
		rc = btt_recover_arena(btt, i);
		if (rc)
			return rc;
	}
	if (!btt->fixes_pending)
		return 0;
	if (btt->ro) {
		dev_warn(btt->dev, "%s: interrupted writes to finish, but the region is read-only: deferred until it is writable\n",
			 dev_name(btt->ndns));
		return 0;
	}
	rc = btt_apply_fixes(btt);
	if (rc) {
		dev_err(btt->dev, "%s: finishing interrupted writes failed: %d\n",
			dev_name(btt->ndns), rc);
		return rc;
	}
	btt->fixes_pending = false;
	return 0;
}

/* ------------------------------------------------------------------ */
/* I/O                                                                 */

static struct btt_arena_state *btt_find_arena(struct btt *btt, u64 lba)
{
	u32 lo = 0, hi = btt->narenas;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		struct btt_arena_state *a = &btt->arenas[mid];

		if (lba < a->first_lba)
			hi = mid;
		else if (lba - a->first_lba >= a->geo.external_nlba)
			lo = mid + 1;
		else
			return a;
	}
	return NULL;
}

/*
 * The data block @blk of @premap (map entry @raw) could not be read: set
 * the map entry's error flag (§6.2: E without Z), so that the block is
 * known bad from now on, across a power cycle too, until a write of
 * @premap replaces it (and btt_write_block() checks it before reusing
 * it).  Nothing when the region is read-only or the mapping changed
 * meanwhile.  The lane lock is held.
 */
static void btt_mark_bad(struct btt *btt, struct btt_arena_state *a,
			 u32 premap, u32 raw, u32 blk)
{
	struct mutex *ml = btt_map_lock(btt, premap);
	u32 now;
	int rc;

	/* nvdimm_btt_set_ro() waits for the lanes: ro cannot change here */
	if (READ_ONCE(btt->ro))
		return;
	mutex_lock(ml);
	rc = btt_map_get(btt, a, premap, &now);
	if (!rc && now == raw)
		rc = btt_map_set(btt, a, premap, blk | BTT_MAP_ERROR);
	mutex_unlock(ml);
	if (rc) {
		dev_warn_ratelimited(btt->dev, "block %u: media error, and its map entry could not be marked: %d\n",
				     premap, rc);
		return;
	}
	btt_fence(btt);
	if (now == raw)
		dev_warn_ratelimited(btt->dev, "block %u: media error in data block %u: marked bad until written\n",
				     premap, blk);
}

/*
 * The lane's free block had a media error: write it (zeros) and read it
 * back before data goes there, so that a write is never acknowledged
 * into a block that cannot be read.  -EIO while it still cannot be read:
 * the lane refuses writes until the media error is cleared.  The lane
 * lock is held.
 */
static int btt_clear_bad(struct btt *btt, struct btt_arena_state *a,
			 u32 lane)
{
	struct btt_lane_state *ls = &a->lanes[lane];
	u64 off = btt_block_off(a, ls->block);
	u8 probe[256];
	u32 done;
	int rc;

	btt_rtt_wait(btt, a, ls->block);
	rc = btt_write(btt, off, btt->zero_block, btt->lbasize);
	if (!rc)
		btt_fence(btt);
	for (done = 0; !rc && done < btt->lbasize; done += sizeof(probe))
		rc = btt_read(btt, off + done, probe,
			      min_t(u32, sizeof(probe), btt->lbasize - done));
	if (rc) {
		dev_err_ratelimited(btt->dev, "%s: free block %u of lane %u still has a media error (%d): writes on the lane fail until it is cleared\n",
				    dev_name(btt->ndns), ls->block, lane, rc);
		return -EIO;
	}
	ls->bad = false;
	return 0;
}

/* §6.10; the lane lock is held */
static int btt_read_block(struct btt *btt, struct btt_arena_state *a,
			  u32 lane, u32 premap, void *buf)
{
	struct mutex *ml = btt_map_lock(btt, premap);
	u32 raw, again, blk = 0;
	bool data_err = false;
	int rc;

	for (;;) {
		mutex_lock(ml);
		rc = btt_map_get(btt, a, premap, &raw);
		mutex_unlock(ml);
		if (rc)
			break;
		switch (btt_map_decode(raw, premap, &blk)) {
		case BTT_MAP_ERR:
			rc = -EIO;
			break;
		case BTT_MAP_TRIMMED:
			memset(buf, 0, btt->sector_size);
			rc = 1;
			break;
		default:
			if (blk >= a->geo.internal_nlba) {
				dev_err_ratelimited(btt->dev, "map entry %u (%#x) is beyond the arena's %u blocks\n",
						    premap, raw,
						    a->geo.internal_nlba);
				rc = -EIO;
			}
			break;
		}
		if (rc)
			break;
		/* tell writers, then make sure the block is still ours */
		WRITE_ONCE(a->rtt[lane], blk | BTT_RTT_VALID);
		/* RTT store before the map re-read; writers: map, then RTT */
		smp_mb();
		mutex_lock(ml);
		rc = btt_map_get(btt, a, premap, &again);
		mutex_unlock(ml);
		if (rc || again == raw)
			break;
	}
	if (!rc) {
		rc = btt_read(btt, btt_block_off(a, blk), buf,
			      btt->sector_size);
		data_err = rc == -EIO;
	}
	/* the copy is done before a writer may reuse the block */
	smp_store_release(&a->rtt[lane], BTT_RTT_INVALID);
	if (data_err)
		btt_mark_bad(btt, a, premap, raw, blk);
	return rc < 0 ? rc : 0;
}

/*
 * The flog entry of a block write is on the media but its map entry is
 * not (the map store failed): the write is committed as far as a
 * power cycle goes, so the lane moves on as the flog says, and the map
 * update is left for btt_apply_fixes() (the work item, or the next
 * read-only to writable transition).  Until then no write is admitted:
 * the lane's new free block is still what the map names for @premap.
 */
static void btt_defer_map(struct btt *btt, struct btt_arena_state *a,
			  u32 lane, u32 premap, u32 entry)
{
	struct btt_lane_state *ls = &a->lanes[lane];

	ls->fix |= BTT_FIX_MAP;
	ls->fix_lba = premap;
	ls->fix_entry = entry;
	/* pairs with the acquire in btt_submit_bio() */
	smp_store_release(&btt->fixes_pending, true);
	schedule_work(&btt->fix_work);
}

/*
 * §6.9; the lane lock is held; @src holds btt->lbasize bytes.  All or
 * nothing: whatever store fails, the media and the lane state agree on
 * whether the write happened.  Stores: data, fence, flog entry (two
 * fenced halves), map entry, fence.  Each store is durable before the
 * one that depends on it, and the map entry before the next write of this
 * lane reuses the block it replaced.
 */
static int btt_write_block(struct btt *btt, struct btt_arena_state *a,
			   u32 lane, u32 premap, const void *src)
{
	struct btt_lane_state *ls = &a->lanes[lane];
	u32 new = ls->block, raw, old = 0;
	enum btt_map_state state = BTT_MAP_IDENTITY;
	struct btt_flog_ent ent;
	struct mutex *ml; /* @premap's map lock */
	int rc, landed;

	/* nvdimm_btt_set_ro() waits for this lane before it returns */
	if (READ_ONCE(btt->ro))
		return -EROFS;
	if (ls->fix) {
		/* a map update of this lane still to finish */
		schedule_work(&btt->fix_work);
		return -EIO;
	}
	if (READ_ONCE(a->error) || new >= a->geo.internal_nlba)
		return -EIO;
	if (ls->bad) {
		rc = btt_clear_bad(btt, a, lane);
		if (rc)
			return rc;
	}
	btt_rtt_wait(btt, a, new);
	/* not referenced by anything yet: a torn write here is invisible */
	rc = btt_write(btt, btt_block_off(a, new), src, btt->lbasize);
	if (rc)
		return rc;
	/* the data is durable before a flog entry names it */
	btt_fence(btt);

	ml = btt_map_lock(btt, premap);
	mutex_lock(ml);
	rc = btt_map_get(btt, a, premap, &raw);
	if (!rc) {
		state = btt_map_decode(raw, premap, &old);
		if (old >= a->geo.internal_nlba) {
			dev_err_ratelimited(btt->dev, "map entry %u (%#x) is beyond the arena's %u blocks\n",
					    premap, raw, a->geo.internal_nlba);
			rc = -EIO;
		}
	}
	if (rc) {
		mutex_unlock(ml);
		return rc;
	}
	ent.lba = premap;
	ent.old_map = state == BTT_MAP_ERR ? old | BTT_MAP_ERROR : old;
	ent.new_map = new;
	ent.seq = ls->seq;
	rc = btt_flog_put(btt, a, lane, ls->slot, &ent);
	if (rc == -EAGAIN) {
		/* the entry's seq was never written: nothing happened */
		mutex_unlock(ml);
		return -EIO;
	}
	landed = rc ? btt_flog_landed(btt, a, lane, ls->slot, &ent) : 1;
	if (landed < 0) {
		mutex_unlock(ml);
		/* nobody knows which block the lane owns: stop writing */
		WRITE_ONCE(a->error, true);
		WRITE_ONCE(a->dbg.flags, a->dbg.flags | IB_FLAG_ERROR);
		dev_err(btt->dev, "%s: write of block %u: flog entry store failed (%d) and cannot be read back (%d): arena refuses writes until re-attached\n",
			dev_name(btt->ndns), premap, rc, landed);
		return -EIO;
	}
	if (!landed) {
		mutex_unlock(ml);
		return rc;
	}
	/* committed: from here on the lane moves on, whatever fails */
	rc = btt_map_set(btt, a, premap, new | BTT_MAP_NORMAL);
	mutex_unlock(ml);
	ls->block = old;
	ls->slot = ls->slot ? 0 : btt_flog_second_slot(a->fmt);
	ls->seq = btt_seq_next(ls->seq);
	if (rc) {
		dev_err_ratelimited(btt->dev, "%s: map update of block %u failed (%d) after its flog entry: finishing it later, writes refused until then\n",
				    dev_name(btt->ndns), premap, rc);
		btt_defer_map(btt, a, lane, premap, new | BTT_MAP_NORMAL);
		return rc;
	}
	/* the map no longer names @old before this lane writes it again */
	btt_fence(btt);
	/*
	 * The block a media error was recorded for is the lane's free block
	 * now: not handed out again before it reads back (btt_clear_bad()).
	 */
	ls->bad = state == BTT_MAP_ERR;
	return 0;
}

static int btt_do_block(struct btt *btt, u64 lba, struct page *page,
			unsigned int off, bool write)
{
	struct btt_arena_state *a = btt_find_arena(btt, lba);
	struct btt_io_lane *io;
	u32 premap, lane;
	void *mem;
	int rc;

	if (!a)
		return -EIO;
	premap = lba - a->first_lba;
	mem = kmap_local_page(page);
	/* any CPU may use any lane: the lane lock makes it safe */
	lane = raw_smp_processor_id() % btt->nlanes;
	io = &btt->io_lanes[lane];
	mutex_lock(&io->lock);
	if (write) {
		const void *src = mem + off;

		if (btt->bounce) {
			u8 *b = btt->bounce + (size_t)lane * btt->bounce_stride;

			/* integrity bytes: zeros */
			memcpy(b, src, btt->sector_size);
			memset(b + btt->sector_size, 0,
			       btt->lbasize - btt->sector_size);
			src = b;
		}
		rc = btt_write_block(btt, a, lane, premap, src);
	} else {
		rc = btt_read_block(btt, a, lane, premap, mem + off);
	}
	mutex_unlock(&io->lock);
	kunmap_local(mem);
	if (!write && !rc)
		flush_dcache_page(page);
	return rc;
}

static int btt_do_segment(struct btt *btt, struct bio_vec *bv, sector_t sector,
			  bool write)
{
	u32 mask = (1U << btt->lba_shift) - 1;
	u64 lba = sector >> btt->lba_shift;
	unsigned int done;
	int rc;

	if (bv->bv_len % btt->sector_size || sector & mask) {
		dev_err_ratelimited(btt->dev, "unaligned bio segment: sector %llu, %u bytes\n",
				    (u64)sector, bv->bv_len);
		return -EIO;
	}
	for (done = 0; done < bv->bv_len; done += btt->sector_size, lba++) {
		rc = btt_do_block(btt, lba, bv->bv_page, bv->bv_offset + done,
				  write);
		if (rc) {
			dev_err_ratelimited(btt->dev, "%s of sector %llu failed: %d\n",
					    write ? "write" : "read", lba, rc);
			return rc;
		}
	}
	return 0;
}

static void btt_submit_bio(struct bio *bio)
{
	struct btt *btt = bio->bi_bdev->bd_disk->private_data;
	bool write = op_is_write(bio_op(bio));
	blk_status_t status = BLK_STS_OK;
	unsigned long start = 0;
	struct bvec_iter iter;
	struct bio_vec bv;
	bool acct, refuse;

	if (bio_op(bio) != REQ_OP_READ && bio_op(bio) != REQ_OP_WRITE) {
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	/* fixes_pending: acquire pairs with the release once repaired */
	refuse = READ_ONCE(btt->ro) || smp_load_acquire(&btt->fixes_pending);
	if (write && bio_sectors(bio) && refuse) {
		if (READ_ONCE(btt->ro)) {
			dev_err_ratelimited(btt->dev, "write refused: the region is read-only\n");
		} else {
			dev_err_ratelimited(btt->dev, "write refused: an interrupted write is not finished yet\n");
			schedule_work(&btt->fix_work);
		}
		bio->bi_status = BLK_STS_IOERR;
		bio_endio(bio);
		return;
	}
	if ((bio->bi_opf & REQ_PREFLUSH) && nvdimm_flush(btt->nd_region))
		status = BLK_STS_IOERR;

	acct = blk_queue_io_stat(bio->bi_bdev->bd_disk->queue);
	if (acct)
		start = bio_start_io_acct(bio);
	bio_for_each_segment(bv, bio, iter) {
		if (status)
			break;
		if (btt_do_segment(btt, &bv, iter.bi_sector, write))
			status = BLK_STS_IOERR;
	}
	if (acct)
		bio_end_io_acct(bio, start);

	if (!status && (bio->bi_opf & REQ_FUA) &&
	    nvdimm_flush(btt->nd_region))
		status = BLK_STS_IOERR;
	bio->bi_status = status;
	bio_endio(bio);
}

static const struct block_device_operations btt_fops = {
	.owner = THIS_MODULE,
	.submit_bio = btt_submit_bio,
};

/* ------------------------------------------------------------------ */
/* block device, attach and detach                                     */

/* retry the repairs a failed block write left, while writable */
static void btt_fix_work(struct work_struct *work)
{
	struct btt *btt = container_of(work, struct btt, fix_work);

	mutex_lock(&btt->ro_lock);
	if (!READ_ONCE(btt->ro) && btt->fixes_pending &&
	    !btt_apply_fixes(btt)) {
		/* the repairs land before writes resume */
		smp_store_release(&btt->fixes_pending, false);
		dev_info(btt->dev, "%s: interrupted writes finished, writes resume\n",
			 dev_name(btt->ndns));
	}
	mutex_unlock(&btt->ro_lock);
}

static void btt_release_disk(void *data)
{
	struct btt *btt = data;

	del_gendisk(btt->disk);
	put_disk(btt->disk);
	btt->disk = NULL;
	btt->nd_btt->size = 0;
	btt->nd_btt->btt = NULL;
}

static void btt_release_state(void *data)
{
	struct btt *btt = data;

	cancel_work_sync(&btt->fix_work);
	btt_free_arenas(btt);
	kvfree(btt->bounce);
	kfree(btt->zero_block);
	kfree(btt->map_locks);
	kfree(btt->io_lanes);
	mutex_destroy(&btt->ro_lock);
}

static int btt_attach_disk(struct btt *btt)
{
	char name[DISK_NAME_LEN - 1];
	struct request_queue *q;
	struct gendisk *disk;
	int rc;

	disk = blk_alloc_disk(dev_to_node(btt->dev));
	if (!disk)
		return -ENOMEM;
	q = disk->queue;
	blk_queue_logical_block_size(q, btt->sector_size);
	/* O_DIRECT buffers aligned to a block: no block spans two pages */
	blk_queue_dma_alignment(q, btt->sector_size - 1);
	blk_queue_max_hw_sectors(q, UINT_MAX);
	blk_queue_write_cache(q, true, true);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);

	disk->fops = &btt_fops;
	disk->private_data = btt;
	nd_namespace_disk_name(btt->ndns, name, sizeof(name));
	snprintf(disk->disk_name, DISK_NAME_LEN, "%ss", name);
	set_capacity(disk, btt->nlba << btt->lba_shift);
	set_disk_ro(disk, btt->ro);

	rc = device_add_disk(btt->dev, disk, NULL);
	if (rc) {
		dev_err(btt->dev, "could not add disk %s: %d\n",
			disk->disk_name, rc);
		put_disk(disk);
		return rc;
	}
	btt->disk = disk;
	btt->nd_btt->size = btt->nlba * btt->sector_size;
	btt->nd_btt->btt = btt;
	return devm_add_action_or_reset(btt->dev, btt_release_disk, btt);
}

/**
 * nvdimm_namespace_attach_btt - attach the BTT of a btt device
 * @btt_dev: a btt device (bttR.N) probing by the namespace driver of its
 *	region's type (nd_pmem, nd_blk): its device lock is held
 *
 * Checks the claim (nd_namespace_common_probe()) and that the namespace
 * is no longer bound (-EBUSY: it may be claimed while enabled), picks the version and
 * offset the namespace's labels call for (nd_namespace_btt_start()),
 * enables byte access to the namespace (devm on @btt_dev), walks the arenas from
 * nd_btt->initial_offset and checks every info block; when the first one
 * is not a BTT (an all-zero block included) and the region is writable,
 * lays out a fresh BTT with nd_btt->lbasize and nd_btt->cd.uuid.  Then
 * rebuilds every flog lane, checking all lanes of all arenas before it
 * writes anything, finishes writes a power failure interrupted, and adds
 * the block device (namespace disk name + "s") with @btt_dev as parent.
 * On success nd_btt->btt and nd_btt->size are set; both are cleared, the
 * disk deleted and the state freed when @btt_dev is unbound.  A region
 * that is read-only makes a read-only disk and writes nothing (repairs
 * wait for nvdimm_btt_set_ro()).
 *
 * Return: 0; -ENODEV without a namespace or uuid, for an info block
 * that is damaged (its valid backup means ndctl check-namespace --repair
 * can restore it), a valid BTT of the other version at its start, or a
 * corrupt later arena or flog; -EINVAL for an unsupported sector size,
 * or when the media's BTT has another uuid than configured (nothing
 * written; the same uuid with another sector size is the owner
 * reconfiguring its BTT: a new one is laid out, logged); -ENXIO when the namespace is too small
 * for a 16 MiB arena or a new BTT would be needed on a read-only region;
 * -EIO when media I/O fails; -ENOMEM; or the mapping's or the disk's
 * errno.  On failure the media is left as it was, except a fresh layout.
 */
int nvdimm_namespace_attach_btt(struct device *btt_dev)
{
	struct nd_btt *nd_btt = to_nd_btt(btt_dev);
	struct device *ndns = nd_btt->cd.ndns;
	struct range range;
	struct btt *btt;
	u64 rawsize;
	int rc;

	if (!ndns || !nd_btt->cd.has_uuid || !nd_btt->lbasize) {
		dev_dbg(btt_dev, "needs a namespace, a uuid and a sector_size\n");
		return -ENODEV;
	}
	rc = nd_claim_dev_attach_check(&nd_btt->cd, &range);
	if (rc)
		return rc;
	nd_btt->initial_offset = nd_namespace_btt_start(ndns);
	rc = btt_version(nd_btt->initial_offset, &nd_btt->version_major,
			 &nd_btt->version_minor);
	if (rc)
		return rc;
	if (!btt_lbasize_supported(nd_btt->lbasize)) {
		dev_dbg(btt_dev, "sector size %u not supported\n",
			nd_btt->lbasize);
		return -EINVAL;
	}
	if (!nd_btt->cd.has_uuid) {
		dev_dbg(btt_dev, "no uuid set\n");
		return -ENODEV;
	}
	if (btt_rawsize(nvdimm_namespace_capacity(ndns),
			nd_btt->initial_offset, &rawsize) ||
	    btt_arena_count(rawsize) < 0) {
		dev_err(btt_dev, "%s: %llu bytes leave no 16 MiB arena behind offset %llu\n",
			dev_name(ndns), nvdimm_namespace_capacity(ndns),
			nd_btt->initial_offset);
		return -ENXIO;
	}
	rc = nvdimm_namespace_bytes_enable(btt_dev, ndns);
	if (rc)
		return rc;

	btt = devm_kzalloc(btt_dev, sizeof(*btt), GFP_KERNEL);
	if (!btt)
		return -ENOMEM;
	btt->nd_btt = nd_btt;
	btt->dev = btt_dev;
	btt->ndns = ndns;
	btt->nd_region = to_nd_region(btt_dev->parent);
	btt->ns_size = nvdimm_namespace_capacity(ndns);
	btt->start = nd_btt->initial_offset;
	btt->rawsize = rawsize;
	btt->lbasize = nd_btt->lbasize;
	btt->sector_size = btt_sector_size(btt->lbasize);
	btt->lba_shift = ilog2(btt->sector_size) - SECTOR_SHIFT;
	if (is_nd_namespace_pmem(ndns) || is_nd_namespace_blk(ndns)) {
		export_uuid(btt->parent_uuid, &to_nd_namespace_lbl(ndns)->uuid);
		btt->has_parent = true;
	}
	btt->ro = nd_region_read_only(ndns);
	mutex_init(&btt->ro_lock);
	INIT_WORK(&btt->fix_work, btt_fix_work);
	rc = devm_add_action_or_reset(btt_dev, btt_release_state, btt);
	if (rc)
		return rc;

	rc = btt_load(btt);
	if (rc)
		return rc;
	rc = btt_attach_disk(btt);
	if (rc)
		return rc;
	rc = btt_debugfs_add(btt);
	if (rc)
		return rc;
	dev_dbg(btt_dev, "%s: BTT %u.%u at %llu: %u arena(s), %llu sectors of %u bytes (%u-byte blocks), %u lanes%s\n",
		dev_name(ndns), nd_btt->version_major, nd_btt->version_minor,
		btt->start, btt->narenas, btt->nlba, btt->sector_size,
		btt->lbasize, btt->nlanes, btt->ro ? ", read-only" : "");
	return 0;
}
EXPORT_SYMBOL_GPL(nvdimm_namespace_attach_btt);

/**
 * nvdimm_btt_set_ro - follow the region's read_only setting
 * @btt_dev: an attached btt device (its device lock held: nd_pmem's
 *	notify); nothing happens when no BTT is attached
 * @ro: the region's new read_only value
 *
 * Read-only: waits for the block writes in flight to finish (each is
 * all or nothing), then no media write from here on and bio writes fail.
 * Writable again: repairs deferred at attach, or left by a block write
 * whose map update failed, are written first; should that fail the disk
 * stays read-only (logged).
 */
void nvdimm_btt_set_ro(struct device *btt_dev, bool ro)
{
	struct btt *btt = to_nd_btt(btt_dev)->btt;
	int rc;

	if (!btt)
		return;
	mutex_lock(&btt->ro_lock);
	if (ro) {
		u32 i;

		WRITE_ONCE(btt->ro, true);
		/*
		 * A block write tests ro once, under its lane lock, and then
		 * finishes: once every lane was free after the store above,
		 * no write is half done and none will start.
		 */
		for (i = 0; i < btt->nlanes; i++) {
			mutex_lock(&btt->io_lanes[i].lock);
			mutex_unlock(&btt->io_lanes[i].lock);
		}
	} else if (READ_ONCE(btt->ro)) {
		WRITE_ONCE(btt->ro, false);
		if (btt->fixes_pending) {
			rc = btt_apply_fixes(btt);
			if (rc) {
				WRITE_ONCE(btt->ro, true);
				ro = true;
				dev_err(btt_dev, "%s: finishing interrupted writes failed: %d: staying read-only\n",
					dev_name(btt->ndns), rc);
			} else {
				/* the repairs land before writes resume */
				smp_store_release(&btt->fixes_pending, false);
			}
		}
	}
	set_disk_ro(btt->disk, ro);
	mutex_unlock(&btt->ro_lock);
}
EXPORT_SYMBOL_GPL(nvdimm_btt_set_ro);

static int __init nd_btt_init(void)
{
	btt_debugfs_init();
	return 0;
}

static void __exit nd_btt_exit(void)
{
	btt_debugfs_exit();
}

module_init(nd_btt_init);
module_exit(nd_btt_exit);

MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("nd_btt: Block Translation Table, power-fail atomic sectors over NVDIMM namespaces");
MODULE_AUTHOR("libnvdimm developers");
