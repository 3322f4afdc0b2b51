// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-namespace: verify (and with --repair restore) the BTT of a
 * sector-mode namespace through its raw block device.
 *
 * Every on-media rule comes from the kernel's own format code,
 * kernel/nvdimm/btt-format.c (built into ndctl by userspace/Makefile):
 * info block validity, arena geometry, flog padding format and sequence
 * numbers, map entries, the attach-time recovery of a lane.  This file
 * only reads the media, applies those rules and reports.  The checks are
 * the ones of shared docs media-formats.md 6.4, 6.8 and 6.11:
 *
 *  - the info block: version 1.1 at 4096, else 2.0 at 0; if neither is
 *    valid, a backup at the end of the first arena (or where the damaged
 *    block's own info2off says), copied back with --repair;
 *  - per arena: the backup info block equal to the primary (restored from
 *    it with --repair), no error flag, a flog whose lanes follow one
 *    padding format and carry a valid pair of sequence numbers with
 *    entries inside the arena, map entries inside the arena, and every
 *    internal block referenced exactly once by the map (after the
 *    recovery the kernel does on attach) or as a lane's free block.
 *
 * --repair writes nothing until the whole BTT has been checked: each
 * repair is queued (a copy of the bytes, where, and what it does) and
 * the queue is written in order only when no error that cannot be
 * repaired was found anywhere.  Otherwise the media is left byte for
 * byte as it was and the queued repairs are listed as not made (76.1
 * also leaves it untouched for log and map-range errors, but restores a
 * primary info block, and completes a logged map update, before it
 * finds a bitmap error; we do not).
 *
 * Exit status as ndctl 76.1's: 0 when clean (also when only the backup
 * info block differs: the kernel never reads it; unlike 76.1 also for a
 * logged write whose map update a crash lost, which attach completes, and
 * for BTTs with 520/528/4104-byte sectors), 256 - ENXIO (250) for a
 * BTT that is damaged or absent, 240 for an online namespace without
 * --force, 234 for --rewrite-log without --repair, 129 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <asm/byteorder.h>

#include "util.h"
#include "btt-format.h"

/* per kind of problem and arena, list this many, then count the rest */
#define LIST_MAX 8
#define MAP_CHUNK 65536		/* map entries read at a time */

static const struct cmd_help check_help = {
	"ndctl check-namespace <namespace> [<options>]",
	"    <namespace>           namespaceX.Y, or 'all'\n"
	"    -b, --bus <bus-id>    limit namespace to a bus with an id or provider of <bus-id>\n"
	"    -r, --region <region-id>\n"
	"                          limit namespace to a region with an id or name of <region-id>\n"
	"    -v, --verbose         emit extra debug messages to stderr\n"
	"    -R, --repair          perform metadata repairs\n"
	"    -L, --rewrite-log     regenerate the log\n"
	"    -f, --force           check namespace even if currently active\n"
	"    -h, --help            show this help\n",
};

struct check_opts {
	bool repair, rewrite_log, force;
};

/* a repair found by the check, written only when the whole BTT can be */
struct fix {
	u64 off;
	size_t len;
	void *buf;
	char *done;	/* reported when written */
	char *pending;	/* reported when not written */
};

/* one namespace's check */
struct bttc {
	const char *devname;
	int fd;
	bool repair, rewrite_log;
	struct btt_ns ns;
	u8 uuid[16];
	u64 rawsize;
	unsigned int problems;	/* errors: exit 250 */
	unsigned int repaired;
	struct fix *fixes;	/* --repair: queued in check order */
	unsigned int nfix, fix_cap;
};

static void vreport(struct bttc *c, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", c->devname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* a line about the BTT that is not an error of its own */
__attribute__((format(printf, 2, 3)))
static void report(struct bttc *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, fmt, ap);
	va_end(ap);
}

/* an error in the BTT (or reading it): the check fails */
__attribute__((format(printf, 2, 3)))
static void problem(struct bttc *c, const char *fmt, ...)
{
	va_list ap;

	c->problems++;
	va_start(ap, fmt);
	vreport(c, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static void dbg(struct bttc *c, const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	fprintf(stderr, "%s: ", c->devname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* whole-buffer I/O at an absolute offset of the raw device; writes flushed */
static int dev_io(struct bttc *c, void *buf, size_t len, u64 off, bool write)
{
	const char *what = write ? "write" : "read";
	size_t done = 0;

	while (done < len) {
		char *p = (char *)buf + done;
		ssize_t n = write ? pwrite(c->fd, p, len - done, (off_t)(off + done))
			: pread(c->fd, p, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int rc = n < 0 ? -errno : -EIO;

			problem(c, "cannot %s %zu bytes at %#llx: %s", what, len,
					off, strerror(-rc));
			return rc;
		}
		done += n;
	}
	if (write && fsync(c->fd) < 0) {
		int rc = -errno;

		problem(c, "cannot flush the write at %#llx: %s", off, strerror(-rc));
		return rc;
	}
	return 0;
}

static int dev_read(struct bttc *c, void *buf, size_t len, u64 off)
{
	return dev_io(c, buf, len, off, false);
}

static int dev_write(struct bttc *c, const void *buf, size_t len, u64 off)
{
	return dev_io(c, (void *)buf, len, off, true);
}

/*
 * Queue a write of @len bytes of @buf (copied) at @off with the two
 * lines that describe it: @done ("Restoring ...") once written, @pending
 * ("... needs to be restored") when it is not.
 */
static int queue_fix(struct bttc *c, const void *buf, size_t len, u64 off,
		const char *done, const char *pending)
{
	struct fix *f;

	if (c->nfix == c->fix_cap) {
		unsigned int cap = c->fix_cap ? 2 * c->fix_cap : 16;

		f = reallocarray(c->fixes, cap, sizeof(*f));
		if (!f)
			goto nomem;
		c->fixes = f;
		c->fix_cap = cap;
	}
	f = &c->fixes[c->nfix];
	f->off = off;
	f->len = len;
	f->buf = malloc(len);
	f->done = strdup(done);
	f->pending = strdup(pending);
	if (!f->buf || !f->done || !f->pending) {
		free(f->buf);
		free(f->done);
		free(f->pending);
		goto nomem;
	}
	memcpy(f->buf, buf, len);
	c->nfix++;
	return 0;
nomem:
	problem(c, "out of memory for a repair at %#llx", off);
	return -ENOMEM;
}

/*
 * The check is over: write the queued repairs in order when nothing that
 * cannot be repaired was found, else list them as not made.  A failed
 * write stops the rest (it is a problem of its own).
 */
static void apply_fixes(struct bttc *c)
{
	unsigned int i;
	bool write = !c->problems;

	for (i = 0; i < c->nfix; i++) {
		struct fix *f = &c->fixes[i];

		if (write && !dev_write(c, f->buf, f->len, f->off)) {
			report(c, "%s", f->done);
			c->repaired++;
			continue;
		}
		write = false;
		report(c, "%s: not repaired, nothing written", f->pending);
	}
}

static void free_fixes(struct bttc *c)
{
	unsigned int i;

	for (i = 0; i < c->nfix; i++) {
		free(c->fixes[i].buf);
		free(c->fixes[i].done);
		free(c->fixes[i].pending);
	}
	free(c->fixes);
	c->fixes = NULL;
	c->nfix = 0;
	c->fix_cap = 0;
}

/* the info block at absolute @abs, checked as arena @arena_off's */
static enum btt_info_verdict read_info(struct bttc *c, struct btt_info *info,
		u64 abs, u64 arena_off, struct btt_arena *arena)
{
	enum btt_info_verdict v;

	if (abs > c->ns.size || c->ns.size - abs < sizeof(*info))
		return BTT_INFO_BAD_ARENA_OFF;
	if (dev_read(c, info, sizeof(*info), abs))
		return BTT_INFO_BAD_SIG;	/* reported */
	v = btt_info_check(info, &c->ns, arena_off, arena);
	if (v != BTT_INFO_VALID)
		dbg(c, "info block at %#llx: %s", abs, btt_info_verdict_name(v));
	return v;
}

/*
 * Where the backup of the arena at @arena_off would be if the BTT was
 * laid out by the kernel: the last 4 KiB of a fresh arena of the space
 * left (at most 512 GiB); 0 when no arena fits there.
 */
static u64 backup_guess(struct bttc *c, u64 arena_off)
{
	struct btt_arena a;

	if (btt_arena_geometry(c->rawsize - arena_off, 4096, 0, &a))
		return 0;
	return c->ns.start + arena_off + a.info2off;
}

/*
 * The info block of the arena at @arena_off (relative to the BTT start)
 * failed: look for its backup and, with --repair, put it back.  Returns
 * 0 with @info and @arena filled from a valid backup (whether restored
 * or not), -ENOENT when there is none.
 */
static int recover_info(struct bttc *c, struct btt_info *info, u64 arena_off,
		struct btt_arena *arena, const struct btt_info *damaged)
{
	u64 cand[2], prim = c->ns.start + arena_off;
	char done[128], pending[128];
	unsigned int i;

	cand[0] = backup_guess(c, arena_off);
	cand[1] = 0;
	/* the damaged block may still say where its backup is */
	if (!memcmp(damaged->signature, BTT_SIG, sizeof(BTT_SIG))) {
		u64 off = le64_to_cpu(damaged->info2off);

		if (off && !(off % BTT_ALIGN) && off < c->ns.size - prim)
			cand[1] = prim + off;
	}
	for (i = 0; i < 2; i++) {
		if (!cand[i] || (i && cand[1] == cand[0]))
			continue;
		dbg(c, "looking for a backup info block at %#llx", cand[i]);
		if (read_info(c, info, cand[i], arena_off, arena) != BTT_INFO_VALID)
			continue;
		if (prim + arena->info2off != cand[i]) {
			dbg(c, "the block at %#llx is not its own arena's backup",
					cand[i]);
			continue;
		}
		if (!c->repair) {
			problem(c, "BTT info block at offset %#llx needs to be restored "
					"from the backup at %#llx: run with --repair",
					prim, cand[i]);
			return 0;
		}
		snprintf(done, sizeof(done), "Restoring BTT info block at offset "
				"%#llx from the backup at %#llx", prim, cand[i]);
		snprintf(pending, sizeof(pending), "BTT info block at offset %#llx needs "
				"to be restored from the backup at %#llx", prim, cand[i]);
		queue_fix(c, info, sizeof(*info), prim, done, pending);
		return 0;
	}
	return -ENOENT;
}

/* the first arena: v1.1 at 4096, then v2.0 at 0, then their backups */
static int find_btt(struct bttc *c, struct btt_info *info,
		struct btt_arena *arena)
{
	static const u64 starts[] = { BTT_START_V11, BTT_START_V20 };
	struct btt_info *damaged;
	unsigned int i;
	int rc = -ENOENT;

	for (i = 0; i < 2; i++) {
		c->ns.start = starts[i];
		if (btt_rawsize(c->ns.size, c->ns.start, &c->rawsize))
			continue;
		if (read_info(c, info, c->ns.start, 0, arena) == BTT_INFO_VALID)
			return 0;
	}
	damaged = malloc(sizeof(*damaged));
	if (!damaged)
		return -ENOMEM;
	for (i = 0; i < 2 && rc; i++) {
		c->ns.start = starts[i];
		if (btt_rawsize(c->ns.size, c->ns.start, &c->rawsize))
			continue;
		if (dev_read(c, damaged, sizeof(*damaged), c->ns.start))
			memset(damaged, 0, sizeof(*damaged));
		rc = recover_info(c, info, 0, arena, damaged);
	}
	free(damaged);
	return rc;
}

/* bit arrays over an arena's internal blocks */
static inline bool bit_test_set(unsigned long *map, u32 bit)
{
	unsigned long m = 1UL << (bit % (8 * sizeof(long)));
	unsigned long *w = &map[bit / (8 * sizeof(long))];
	bool was = *w & m;

	*w |= m;
	return was;
}

static inline bool bit_test(const unsigned long *map, u32 bit)
{
	return map[bit / (8 * sizeof(long))] >> (bit % (8 * sizeof(long))) & 1;
}

struct pending {	/* a map update the kernel completes on attach */
	u32 lba, entry;
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->lba < y->lba ? -1 : x->lba > y->lba;
}

struct arena_check {
	struct bttc *c;
	unsigned int idx;
	const struct btt_arena *a;
	u64 base;		/* absolute arena start */
	struct btt_flog_lane *log;
	u32 *free_blk;		/* per lane, UINT32_MAX when unknown */
	struct pending *pend;
	u32 npend;
	unsigned int errors;	/* problems in this arena */
};

/* flog: padding format, sequence numbers, entry ranges, free blocks */
static int check_flog(struct arena_check *ac)
{
	const struct btt_arena *a = ac->a;
	struct bttc *c = ac->c;
	enum btt_flog_fmt fmt = BTT_FLOG_UNKNOWN;
	size_t len = (size_t)a->nfree * sizeof(*ac->log);
	unsigned int listed = 0;
	u32 lane;
	int rc;

	ac->log = malloc(len);
	ac->free_blk = malloc((size_t)a->nfree * sizeof(u32));
	ac->pend = malloc((size_t)a->nfree * sizeof(*ac->pend));
	if (!ac->log || !ac->free_blk || !ac->pend) {
		problem(c, "arena %u: out of memory for %u log lanes", ac->idx, a->nfree);
		return -ENOMEM;
	}
	rc = dev_read(c, ac->log, len, ac->base + a->logoff);
	if (rc)
		return rc;
	for (lane = 0; lane < a->nfree; lane++)
		if (btt_flog_detect(&ac->log[lane], &fmt)) {
			problem(c, "arena %u: lane %u: log slots in use do not follow "
					"the padding format of the other lanes (slots 0 and %u)",
					ac->idx, lane, btt_flog_second_slot(fmt));
			ac->errors++;
			return 0;
		}
	dbg(c, "arena %u: log slots 0 and %u", ac->idx, btt_flog_second_slot(fmt));

	for (lane = 0; lane < a->nfree; lane++) {
		u32 live[2] = { 0, btt_flog_second_slot(fmt) };
		const struct btt_flog_lane *l = &ac->log[lane];
		char done[96], pending[96];
		struct btt_flog_state st;
		struct btt_recovery rec;
		bool bad = false;
		unsigned int i;
		u32 map_raw;

		ac->free_blk[lane] = UINT32_MAX;
		if (btt_flog_lane_state(l, fmt, &st)) {
			struct btt_flog_ent e0, e1;

			btt_flog_decode(&l->slot[live[0]], &e0);
			btt_flog_decode(&l->slot[live[1]], &e1);
			if (listed++ < LIST_MAX)
				problem(c, "arena %u: lane %u: log entries have sequence "
						"numbers %u and %u, not a valid pair%s",
						ac->idx, lane, e0.seq, e1.seq,
						e0.seq == e1.seq ? " (the same sequence number)" : "");
			else
				c->problems++;
			ac->errors++;
			continue;
		}
		for (i = 0; i < 2; i++) {
			struct btt_flog_ent e;

			btt_flog_decode(&l->slot[live[i]], &e);
			if (!e.seq)
				continue;	/* never written */
			if (e.lba < a->external_nlba &&
			    (e.old_map & BTT_MAP_ABA_MASK) < a->internal_nlba &&
			    (e.new_map & BTT_MAP_ABA_MASK) < a->internal_nlba)
				continue;
			bad = true;
			ac->errors++;
			if (listed++ >= LIST_MAX) {
				c->problems++;
				continue;
			}
			problem(c, "arena %u: lane %u: log entry in slot %u out of range: "
					"lba %u (external_nlba %u), old %u, new %u "
					"(internal_nlba %u)", ac->idx, lane, live[i], e.lba,
					a->external_nlba, e.old_map & BTT_MAP_ABA_MASK,
					e.new_map & BTT_MAP_ABA_MASK, a->internal_nlba);
		}
		if (bad)
			continue;
		rc = dev_read(c, &map_raw, sizeof(map_raw),
				ac->base + a->mapoff + (u64)st.newest.lba * 4);
		if (rc)
			return rc;
		if (btt_flog_recover(&st.newest, le32_to_cpu(map_raw), a, &rec))
			continue;	/* ranges checked above */
		ac->free_blk[lane] = rec.free_block;
		if (!rec.set_map)
			continue;
		/*
		 * A write logged before a crash whose map update was lost:
		 * not damage, the kernel makes the update on attach (and so
		 * does --repair); the references are checked as after it.
		 */
		ac->pend[ac->npend].lba = rec.lba;
		ac->pend[ac->npend++].entry = rec.map_entry;
		if (!c->repair) {
			report(c, "Arena %u: lane %u: map[%#x] needs to be updated to %#x "
					"(done on attach, or with --repair)", ac->idx, lane,
					rec.lba, rec.map_entry);
			continue;
		}
		map_raw = cpu_to_le32(rec.map_entry);
		snprintf(done, sizeof(done), "Arena %u: lane %u: map[%#x] updated to %#x",
				ac->idx, lane, rec.lba, rec.map_entry);
		snprintf(pending, sizeof(pending), "Arena %u: lane %u: map[%#x] needs to "
				"be updated to %#x", ac->idx, lane, rec.lba,
				rec.map_entry);
		rc = queue_fix(c, &map_raw, sizeof(map_raw),
				ac->base + a->mapoff + (u64)rec.lba * 4, done, pending);
		if (rc)
			return rc;
	}
	if (listed > LIST_MAX)
		report(c, "arena %u: ... %u more log lanes with errors", ac->idx,
				listed - LIST_MAX);
	return 0;
}

/* map ranges, then every internal block referenced exactly once */
static int check_map(struct arena_check *ac)
{
	const struct btt_arena *a = ac->a;
	struct bttc *c = ac->c;
	size_t words = (a->internal_nlba + 8 * sizeof(long) - 1) / (8 * sizeof(long));
	unsigned long *seen = calloc(words, sizeof(long));
	unsigned long *dup = calloc(words, sizeof(long));
	__le32 *chunk = malloc(MAP_CHUNK * sizeof(*chunk));
	unsigned int listed = 0, ndup = 0, nunref = 0;
	u32 lba = 0, p = 0, blk, lane;
	int rc = 0;

	if (!seen || !dup || !chunk) {
		problem(c, "arena %u: out of memory for %u blocks", ac->idx,
				a->internal_nlba);
		rc = -ENOMEM;
		goto out;
	}
	qsort(ac->pend, ac->npend, sizeof(*ac->pend), cmp_pending);
	while (lba < a->external_nlba) {
		u32 n = a->external_nlba - lba, i;

		if (n > MAP_CHUNK)
			n = MAP_CHUNK;
		rc = dev_read(c, chunk, n * sizeof(*chunk),
				ac->base + a->mapoff + (u64)lba * 4);
		if (rc)
			goto out;
		for (i = 0; i < n; i++, lba++) {
			u32 raw = le32_to_cpu(chunk[i]), post;

			while (p < ac->npend && ac->pend[p].lba == lba)
				raw = ac->pend[p++].entry;
			btt_map_decode(raw, lba, &post);
			if (post >= a->internal_nlba) {
				ac->errors++;
				if (listed++ < LIST_MAX)
					problem(c, "arena %u: map entry for lba %u (%#x) "
							"points to block %u, past internal_nlba %u",
							ac->idx, lba, raw, post, a->internal_nlba);
				else
					c->problems++;
				continue;
			}
			if (bit_test_set(seen, post))
				bit_test_set(dup, post);
		}
	}
	if (listed > LIST_MAX)
		report(c, "arena %u: ... %u more map entries out of range", ac->idx,
				listed - LIST_MAX);
	if (ac->errors) {
		dbg(c, "arena %u: block references not checked (errors above)",
				ac->idx);
		goto out;
	}
	for (lane = 0; lane < a->nfree; lane++)
		if (bit_test_set(seen, ac->free_blk[lane]))
			bit_test_set(dup, ac->free_blk[lane]);
	for (blk = 0; blk < a->internal_nlba; blk++) {
		if (bit_test(dup, blk)) {
			if (ndup++ < LIST_MAX)
				problem(c, "arena %u: block %u is referenced more than once",
						ac->idx, blk);
			else
				c->problems++;
		} else if (!bit_test(seen, blk)) {
			if (nunref++ < LIST_MAX)
				problem(c, "arena %u: block %u is not referenced by the "
						"map or the log", ac->idx, blk);
			else
				c->problems++;
		}
	}
	if (ndup > LIST_MAX)
		report(c, "arena %u: ... %u more blocks referenced more than once",
				ac->idx, ndup - LIST_MAX);
	if (nunref > LIST_MAX)
		report(c, "arena %u: ... %u more blocks not referenced", ac->idx,
				nunref - LIST_MAX);
	ac->errors += ndup + nunref;
out:
	free(seen);
	free(dup);
	free(chunk);
	return rc;
}

/* --rewrite-log: each lane as slot 0 = its newest entry with seq 1 */
static int rewrite_log(struct arena_check *ac)
{
	const struct btt_arena *a = ac->a;
	enum btt_flog_fmt fmt = BTT_FLOG_UNKNOWN;
	char done[96], pending[96];
	u32 lane;

	for (lane = 0; lane < a->nfree; lane++)
		btt_flog_detect(&ac->log[lane], &fmt);
	for (lane = 0; lane < a->nfree; lane++) {
		struct btt_flog_state st;

		if (btt_flog_lane_state(&ac->log[lane], fmt, &st))
			return -EINVAL;	/* not reached: checked clean */
		st.newest.seq = 1;
		memset(&ac->log[lane], 0, sizeof(ac->log[lane]));
		btt_flog_encode(&ac->log[lane].slot[0], &st.newest);
	}
	snprintf(done, sizeof(done), "arena %u: log rewritten (%u lanes, slots 0 and 1)",
			ac->idx, a->nfree);
	snprintf(pending, sizeof(pending), "arena %u: log needs to be rewritten (%u lanes)",
			ac->idx, a->nfree);
	return queue_fix(ac->c, ac->log, (size_t)a->nfree * sizeof(*ac->log),
			ac->base + a->logoff, done, pending);
}

static int check_arena(struct bttc *c, unsigned int idx,
		const struct btt_info *info, const struct btt_arena *a)
{
	struct arena_check ac = { .c = c, .idx = idx, .a = a,
		.base = c->ns.start + a->off };
	struct btt_info *info2 = malloc(sizeof(*info2));
	int rc;

	dbg(c, "checking arena %u at %#llx: %u of %u blocks of %u bytes exported, "
			"nfree %u", idx, ac.base, a->external_nlba, a->internal_nlba,
			a->internal_lbasize, a->nfree);
	if (!info2)
		return -ENOMEM;
	rc = dev_read(c, info2, sizeof(*info2), ac.base + a->info2off);
	if (!rc && memcmp(info, info2, sizeof(*info2))) {
		if (!c->repair) {
			/* 76.1: a warning, the kernel never reads it */
			report(c, "Arena %u: BTT info2 at offset %#llx needs to be "
					"restored: run with --repair", idx,
					ac.base + a->info2off);
		} else {
			char done[96], pending[96];

			snprintf(done, sizeof(done), "Arena %u: Restoring BTT info2 at "
					"offset %#llx", idx, ac.base + a->info2off);
			snprintf(pending, sizeof(pending), "Arena %u: BTT info2 at offset %#llx "
					"needs to be restored", idx, ac.base + a->info2off);
			rc = queue_fix(c, info, sizeof(*info), ac.base + a->info2off,
					done, pending);
		}
	}
	free(info2);
	if (rc)
		return rc;
	if (a->flags & IB_FLAG_ERROR_MASK) {
		problem(c, "arena %u: info block error flag is set", idx);
		ac.errors++;
	}
	rc = check_flog(&ac);
	if (!rc)
		rc = check_map(&ac);
	if (!rc && !ac.errors && c->rewrite_log)
		rc = rewrite_log(&ac);
	free(ac.log);
	free(ac.free_blk);
	free(ac.pend);
	return rc;
}

/* find and walk the arenas; 0, or -errno of a read failure */
static int check_btt(struct bttc *c)
{
	struct btt_info *info = malloc(sizeof(*info));
	struct btt_arena a;
	unsigned int idx = 0;
	u64 off = 0;
	int rc;

	if (!info)
		return -ENOMEM;
	rc = find_btt(c, info, &a);
	if (rc == -ENOENT) {
		report(c, "Unable to recover any BTT info blocks");
		fail("%s: no BTT found: this may not be a sector mode namespace",
				c->devname);
		free(info);
		return -ENXIO;
	}
	if (rc) {
		free(info);
		return rc;
	}
	dbg(c, "BTT version %u.%u at %#llx", le16_to_cpu(info->version_major),
			le16_to_cpu(info->version_minor), c->ns.start);
	for (;;) {
		rc = check_arena(c, idx, info, &a);
		if (rc || !a.nextoff)
			break;
		off += a.nextoff;
		idx++;
		if (read_info(c, info, c->ns.start + off, off, &a) != BTT_INFO_VALID) {
			struct btt_info *damaged = malloc(sizeof(*damaged));

			if (!damaged) {
				rc = -ENOMEM;
				break;
			}
			memcpy(damaged, info, sizeof(*damaged));
			rc = recover_info(c, info, off, &a, damaged);
			free(damaged);
			if (rc) {
				problem(c, "arena %u: no valid info block at %#llx or "
						"backup", idx, c->ns.start + off);
				rc = 0;
				break;
			}
		}
	}
	dbg(c, "%u arena%s checked", idx + 1, idx ? "s" : "");
	free(info);
	return rc;
}

/*
 * Take the namespace offline, bring it back raw (force_raw) for its BTT
 * to be read through the block device, check, and restore the previous
 * state: the btt is found again by the kernel when the namespace is
 * enabled normally.
 */
static int check_namespace(struct ndctl_namespace *ndns, const struct check_opts *o)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	bool active = ndctl_namespace_is_active(ndns);
	struct bttc c = { .devname = devname, .fd = -1, .repair = o->repair,
		.rewrite_log = o->rewrite_log };
	char path[PATH_MAX];
	uuid_t uu;
	int rc, rc2;

	if (active && !o->force) {
		fail("%s: check aborted, namespace online (--force disables it)",
				devname);
		return -EBUSY;
	}
	rc = namespace_release(ndns);
	if (rc)
		goto out_enable;
	c.fd = namespace_raw_open(ndns, (o->repair ? O_RDWR : O_RDONLY) | O_EXCL |
			O_CLOEXEC, path, sizeof(path));
	if (c.fd < 0) {
		rc = c.fd;
		fail("%s: cannot open the raw block device: %s", devname,
				strerror(-rc));
		goto out_enable;
	}
	c.ns.size = ndctl_namespace_get_size(ndns);
	ndctl_namespace_get_uuid(ndns, uu);
	if (!uuid_is_null(uu)) {
		memcpy(c.uuid, uu, sizeof(c.uuid));
		c.ns.uuid = c.uuid;
	}
	dbg(&c, "checking %s (%s, %llu bytes)", devname, path, c.ns.size);
	rc = check_btt(&c);
	if (!rc)
		apply_fixes(&c);
	else if (c.nfix)
		report(&c, "check stopped: %u repair%s not made, nothing written",
				c.nfix, c.nfix == 1 ? "" : "s");
	free_fixes(&c);
	if (!rc && c.problems) {
		fail("%s: the BTT has %u error%s%s", devname, c.problems,
				c.problems == 1 ? "" : "s",
				c.repair ? " that cannot be repaired: nothing written" : "");
		rc = -ENXIO;
	} else if (rc && rc != -ENXIO) {
		fail("%s: check failed: %s", devname, strerror(-rc));
	}
	rc2 = namespace_raw_close(ndns, c.fd);
	if (rc2 && !rc) {
		fail("%s: cannot take the raw namespace down: %s", devname,
				strerror(-rc2));
		rc = rc2;
	}
out_enable:
	/* back online as found; a BTT on it is claimed by a new btt */
	if (active) {
		rc2 = ndctl_namespace_enable(ndns);
		if (rc2 < 0 && !rc) {
			fail("%s: cannot re-enable: %s", devname, strerror(-rc2));
			rc = rc2;
		}
	}
	return rc;
}

int cmd_check_namespace(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "repair", no_argument, NULL, 'R' },
		{ "rewrite-log", no_argument, NULL, 'L' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bus_f = NULL, *region_f = NULL, *target;
	struct ndctl_namespace **list = NULL;
	struct check_opts o = { 0 };
	struct ndctl_ctx *ctx;
	int c, i, found = 0, checked = 0, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:r:vRLfh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': bus_f = optarg; break;
		case 'r': region_f = optarg; break;
		case 'v': verbose = 1; break;
		case 'R': o.repair = true; break;
		case 'L': o.rewrite_log = true; break;
		case 'f': o.force = true; break;
		case 'h': return print_help(&check_help, stdout);
		default: return print_help(&check_help, stderr);
		}
	}
	if (optind != argc - 1) {
		fail("specify a namespace to check, or \"all\" (see 'ndctl check-namespace --help')");
		return EXIT_USAGE;
	}
	target = argv[optind];
	if (o.rewrite_log && !o.repair) {
		fail("--rewrite-log also requires --repair");
		note("checked 0 namespaces");
		return -EINVAL;
	}
	if (cli_ctx_new(&ctx))
		return 1;
	found = collect_namespaces(ctx, bus_f, region_f, target, &list);
	if (found < 0) {
		fail("out of memory");
		ndctl_unref(ctx);
		return found;
	}
	for (i = 0; i < found; i++) {
		int r;

		/* "all": the configured ones; seeds hold nothing */
		if (!strcmp(target, "all") && !ndctl_namespace_is_configured(list[i]))
			continue;
		r = check_namespace(list[i], &o);
		if (!r)
			checked++;
		else if (!rc)
			rc = r;
	}
	free(list);
	ndctl_unref(ctx);
	if (!found && strcmp(target, "all")) {
		fail("namespace '%s' not found", target);
		rc = -ENXIO;
	}
	note("checked %d namespace%s", checked, checked == 1 ? "" : "s");
	return rc;
}
