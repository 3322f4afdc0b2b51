// SPDX-License-Identifier: GPL-2.0-only
/*
 * nd_btt's debugfs: btt/bttR.N/arenaI/ with the file names and formats of
 * 6.1 (ndctl's btt-pad-compat test reads log_index_0 and log_index_1).
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include "nd.h"
#include "btt-format.h"
#include "btt.h"

/* debugfs: btt/, made at module load; NULL or an error pointer if not */
static struct dentry *btt_debugfs_root;

/* the arenas' offsets and state as 6.1's debugfs files show them */
static void btt_arena_dbg_fill(struct btt_arena_state *a)
{
	const struct btt_arena *g = &a->geo;
	struct btt_arena_dbg *d = &a->dbg;

	/* btt_info_check() placed every offset inside the BTT: no overflow */
	d->infooff = g->off;
	d->nextoff = g->nextoff ? g->off + g->nextoff : 0;
	d->size = g->nextoff ? g->nextoff : g->size;
	d->dataoff = g->off + g->dataoff;
	d->mapoff = g->off + g->mapoff;
	d->logoff = g->off + g->logoff;
	d->info2off = g->off + g->info2off;
	d->flags = g->flags | (a->error ? IB_FLAG_ERROR : 0);
	d->log_index[0] = 0;
	d->log_index[1] = btt_flog_second_slot(a->fmt);
}

static void btt_debugfs_remove(void *data)
{
	struct btt *btt = data;

	debugfs_remove_recursive(btt->debugfs_dir);
	btt->debugfs_dir = NULL;
}

/*
 * btt/bttR.N/arenaI/ in debugfs, the files of 6.1 (ndctl's
 * btt-pad-compat test reads log_index_0 and log_index_1).  Debugfs is
 * best effort: its errors are not the attach's.
 */
int btt_debugfs_add(struct btt *btt)
{
	struct nd_btt *nd_btt = btt->nd_btt;
	struct dentry *dir;
	char name[16];
	u32 i;

	if (IS_ERR_OR_NULL(btt_debugfs_root))
		return 0;
	dir = debugfs_create_dir(dev_name(btt->dev), btt_debugfs_root);
	if (IS_ERR(dir))
		return 0;
	btt->debugfs_dir = dir;
	for (i = 0; i < btt->narenas; i++) {
		struct btt_arena_state *a = &btt->arenas[i];
		struct dentry *d;

		btt_arena_dbg_fill(a);
		snprintf(name, sizeof(name), "arena%u", i);
		d = debugfs_create_dir(name, dir);
		debugfs_create_x64("size", 0444, d, &a->dbg.size);
		debugfs_create_x64("external_lba_start", 0444, d,
				   &a->first_lba);
		debugfs_create_x32("internal_nlba", 0444, d,
				   &a->geo.internal_nlba);
		debugfs_create_u32("internal_lbasize", 0444, d,
				   &a->geo.internal_lbasize);
		debugfs_create_x32("external_nlba", 0444, d,
				   &a->geo.external_nlba);
		debugfs_create_u32("external_lbasize", 0444, d,
				   &a->geo.external_lbasize);
		debugfs_create_u32("nfree", 0444, d, &a->geo.nfree);
		debugfs_create_u16("version_major", 0444, d,
				   &nd_btt->version_major);
		debugfs_create_u16("version_minor", 0444, d,
				   &nd_btt->version_minor);
		debugfs_create_x64("nextoff", 0444, d, &a->dbg.nextoff);
		debugfs_create_x64("infooff", 0444, d, &a->dbg.infooff);
		debugfs_create_x64("dataoff", 0444, d, &a->dbg.dataoff);
		debugfs_create_x64("mapoff", 0444, d, &a->dbg.mapoff);
		debugfs_create_x64("logoff", 0444, d, &a->dbg.logoff);
		debugfs_create_x64("info2off", 0444, d, &a->dbg.info2off);
		debugfs_create_x32("flags", 0444, d, &a->dbg.flags);
		debugfs_create_u32("log_index_0", 0444, d,
				   &a->dbg.log_index[0]);
		debugfs_create_u32("log_index_1", 0444, d,
				   &a->dbg.log_index[1]);
	}
	/* removed before the arenas are freed (devm runs in reverse) */
	return devm_add_action_or_reset(btt->dev, btt_debugfs_remove, btt);
}

void btt_debugfs_init(void)
{
	btt_debugfs_root = debugfs_create_dir("btt", NULL);
}

void btt_debugfs_exit(void)
{
	debugfs_remove_recursive(btt_debugfs_root);
}
