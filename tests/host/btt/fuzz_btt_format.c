// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for kernel/nvdimm/btt-format.c.
 *
 * Input (gen_btt_corpus.c writes seeds of this shape):
 *   byte 0       options: bit 0 reseal the info block's checksum (so that
 *                mutations reach the checks behind it), bit 1 BTT start
 *                4096 (else 0), bit 2 namespace without uuid, bit 3 copy
 *                the namespace uuid into parent_uuid, bit 4 write the
 *                version that matches the start
 *   bytes 1-8    namespace size, little-endian
 *   bytes 9-16   arena offset the block was read at, little-endian
 *   bytes 17-32  namespace uuid
 *   then         the 4096-byte info block (zero-padded when short)
 *   then         flog lanes, each 64 bytes followed by a 4-byte map entry
 *
 * A valid block must give an arena that keeps bb_arena_invariant() (all
 * regions inside the arena and the namespace, in order and disjoint) and
 * that rebuilds to a block validating to the same arena.  The lanes go
 * through format detection, the newest-entry choice and the recovery
 * decision against that arena (or a 32 MiB one when the block is not
 * valid), whose results must stay inside the arena.  ASan and UBSan
 * catch any access outside the buffers and any undefined arithmetic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btt-format.h"
#include "btt_builder.h"
#include "lsa_builder.h"

#define HDR 33
#define CHUNK (BB_LANE_SIZE + 4)
#define MAX_LANES 64

#define INVARIANT(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "invariant violated: %s (line %d)\n", \
				#cond, __LINE__);			\
			abort();					\
		}							\
	} while (0)

static void check_lane(const struct btt_flog_lane *lane, u32 map_raw,
		       enum btt_flog_fmt fmt, const struct btt_arena *a)
{
	u32 second = btt_flog_second_slot(fmt), post;
	struct btt_flog_state st;
	struct btt_recovery rec;
	enum btt_map_state ms;
	u32 entry;

	INVARIANT(second == 1 || second == 2);
	if (btt_flog_lane_state(lane, fmt, &st))
		return;
	INVARIANT(st.newest_slot == 0 || st.newest_slot == second);
	INVARIANT(st.next_slot == 0 || st.next_slot == second);
	INVARIANT(st.newest_slot != st.next_slot);
	INVARIANT(st.newest.seq >= 1 && st.newest.seq <= 3);
	INVARIANT(st.next_seq == btt_seq_next(st.newest.seq));
	INVARIANT(btt_flog_newest(st.newest.seq, st.next_seq) == 1);

	memset(&rec, 0xa5, sizeof(rec));
	if (btt_flog_recover(&st.newest, map_raw, a, &rec)) {
		INVARIANT(st.newest.lba >= a->external_nlba ||
			  (st.newest.old_map & BTT_MAP_ABA_MASK) >=
			  a->internal_nlba ||
			  (st.newest.new_map & BTT_MAP_ABA_MASK) >=
			  a->internal_nlba);
		INVARIANT(rec.free_block == 0xa5a5a5a5);
		return;
	}
	INVARIANT(rec.lba == st.newest.lba && rec.lba < a->external_nlba);
	INVARIANT(rec.free_block < a->internal_nlba);
	INVARIANT(rec.free_block == (st.newest.old_map & BTT_MAP_ABA_MASK));
	INVARIANT(rec.zero_free ==
		  ((st.newest.old_map & BTT_MAP_FLAGS) == BTT_MAP_ERROR));
	ms = btt_map_decode(map_raw, rec.lba, &post);
	if (rec.set_map) {
		INVARIANT(btt_flog_reads_map(&st.newest));
		INVARIANT(post == rec.free_block);
		INVARIANT((rec.map_entry & BTT_MAP_FLAGS) == BTT_MAP_NORMAL);
		INVARIANT((rec.map_entry & BTT_MAP_ABA_MASK) <
			  a->internal_nlba);
		INVARIANT((rec.map_entry & BTT_MAP_ABA_MASK) != post);
	} else {
		INVARIANT(rec.map_entry == map_raw);
	}

	/* map entries round-trip through encode */
	if (ms != BTT_MAP_IDENTITY) {
		INVARIANT(!btt_map_encode(post, ms, &entry));
		INVARIANT(entry == map_raw);
	}
}

static void check_flog(const u8 *p, size_t len, const struct btt_arena *a)
{
	static struct btt_flog_lane lanes[MAX_LANES];
	enum btt_flog_fmt fmt = BTT_FLOG_UNKNOWN, before;
	u32 maps[MAX_LANES];
	unsigned int n = 0, i;
	bool ok = true;

	while (len >= CHUNK && n < MAX_LANES) {
		memcpy(&lanes[n], p, BB_LANE_SIZE);
		maps[n] = lb_get32(p + BB_LANE_SIZE);
		p += CHUNK;
		len -= CHUNK;
		n++;
	}
	for (i = 0; i < n && ok; i++) {
		before = fmt;
		if (btt_flog_detect(&lanes[i], &fmt)) {
			INVARIANT(fmt == before);
			ok = false;
		}
		INVARIANT(before == BTT_FLOG_UNKNOWN || fmt == before);
	}
	for (i = 0; i < n; i++) {
		check_lane(&lanes[i], maps[i], fmt, a);
		check_lane(&lanes[i], maps[i], BTT_FLOG_02, a);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	/* aligned: Fletcher-64 reads the blocks as 32-bit words */
	static u8 info[BB_INFO_SIZE] __attribute__((aligned(8)));
	static u8 again[BB_INFO_SIZE] __attribute__((aligned(8)));
	static u8 copy[BB_INFO_SIZE];
	struct btt_arena a, b, fallback;
	enum btt_info_verdict v;
	struct btt_ns ns;
	u8 uuid[16], opts;
	u64 arena_off;
	size_t n;

	if (len < HDR || len > HDR + BB_INFO_SIZE + MAX_LANES * CHUNK)
		return 0;
	opts = data[0];
	ns.size = lb_get64(data + 1);
	arena_off = lb_get64(data + 9);
	memcpy(uuid, data + 17, 16);
	ns.start = opts & 2 ? BTT_START_V11 : BTT_START_V20;
	ns.uuid = opts & 4 ? NULL : uuid;

	memset(info, 0, sizeof(info));
	n = len - HDR < BB_INFO_SIZE ? len - HDR : BB_INFO_SIZE;
	memcpy(info, data + HDR, n);
	if (opts & 8)
		memcpy(info + 32, uuid, 16);
	if (opts & 16) {
		lb_put16(info + 52, ns.start ? 1 : 2);
		lb_put16(info + 54, ns.start ? 1 : 0);
	}
	if (opts & 1)
		bb_reseal(info);

	memcpy(copy, info, sizeof(info));
	memset(&a, 0x5c, sizeof(a));
	b = a;
	v = btt_info_check((const struct btt_info *)info, &ns, arena_off, &a);
	INVARIANT(!memcmp(copy, info, sizeof(info)));
	INVARIANT((unsigned int)v < BTT_INFO_NR_VERDICTS);
	INVARIANT(btt_info_verdict_name(v) != NULL);

	if (v != BTT_INFO_VALID) {
		INVARIANT(!memcmp(&a, &b, sizeof(a)));
		INVARIANT(!btt_arena_geometry(32 * MIB, 512, 0, &fallback));
		check_flog(data + HDR + n, len - HDR - n, &fallback);
		return 0;
	}

	{
		const char *why = bb_arena_invariant(&a, ns.size, ns.start,
						     arena_off);

		if (why)
			fprintf(stderr, "arena invariant: %s\n", why);
		INVARIANT(!why);
	}
	INVARIANT(btt_info_is_btt(v));
	INVARIANT(a.flags == lb_get32(info + 48));

	/* what the kernel would write back validates to the same arena */
	INVARIANT(!btt_info_build((struct btt_info *)again, &a, info + 16,
				  info + 32, ns.start));
	INVARIANT(!memcmp(again, info, 120));
	memset(&b, 0, sizeof(b));
	INVARIANT(btt_info_check((const struct btt_info *)again, &ns,
				 arena_off, &b) == BTT_INFO_VALID);
	INVARIANT(!memcmp(&a, &b, sizeof(a)));

	check_flog(data + HDR + n, len - HDR - n, &a);
	return 0;
}
