// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the BTT fuzzer's seed corpus (fuzz_btt_format.c input format)
 * into the directory given as argument: the worked examples of
 * media-formats 6.5, the arenas of multi-arena BTTs, a tight arena,
 * error-flagged and parentless blocks, each followed by flog lanes in
 * both padding formats (fresh, mid-write, torn, corrupt) with map
 * entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btt-format.h"
#include "btt_builder.h"
#include "lsa_builder.h"

#define HDR 33

static u8 buf[HDR + BB_INFO_SIZE + 16 * (BB_LANE_SIZE + 4)];
static struct btt_info info __attribute__((aligned(8)));
static size_t len;

static const u8 ns_uuid[16] = {
	0x9a, 0x2c, 0x47, 0x1e, 0x00, 0x11, 0x4a, 0x5b,
	0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
};

static const u8 btt_uuid[16] = { 0xb0, 0x01, 0x02, 0x03 };

static void start_seed(u8 opts, u64 ns_size, u64 arena_off)
{
	memset(buf, 0, sizeof(buf));
	buf[0] = opts;
	lb_put64(buf + 1, ns_size);
	lb_put64(buf + 9, arena_off);
	memcpy(buf + 17, ns_uuid, 16);
	len = HDR + BB_INFO_SIZE;
}

/* a lane (slot, lba, old, new, seq) x 2, then the map entry */
static void lane(unsigned int s0, u32 lba0, u32 old0, u32 new0, u32 seq0,
		 unsigned int s1, u32 lba1, u32 old1, u32 new1, u32 seq1,
		 u32 map)
{
	u8 *l = buf + len;

	if (seq0)
		bb_put_slot(l, s0, lba0, old0, new0, seq0);
	if (seq1)
		bb_put_slot(l, s1, lba1, old1, new1, seq1);
	lb_put32(l + BB_LANE_SIZE, map);
	len += BB_LANE_SIZE + 4;
}

static void emit(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* info block of arena @idx of a fresh BTT on a namespace of @ns_size */
static struct btt_arena arena_seed(u8 opts, u64 ns_size, u32 lbasize,
				   u32 idx, u32 flags, bool parent)
{
	u64 start = opts & 2 ? 4096 : 0, raw = ns_size - start;
	struct btt_arena a;

	if (btt_arena_geometry(raw, lbasize, idx, &a)) {
		fprintf(stderr, "gen_btt_corpus: no arena %u in %llu\n", idx,
			raw);
		exit(1);
	}
	a.flags = flags;
	start_seed(opts, ns_size, a.off);
	/* built aligned (Fletcher-64 reads words), then placed */
	btt_info_build(&info, &a, btt_uuid, parent ? ns_uuid : NULL, start);
	memcpy(buf + HDR, &info, sizeof(info));
	return a;
}

/* lanes of a fresh flog, one mid-write, one torn, in format @s1 */
static void lanes(const struct btt_arena *a, unsigned int s1)
{
	u32 e = a->external_nlba;

	lane(0, 0, e, e, 1, s1, 0, 0, 0, 0, 0);
	lane(0, 1, e + 1, e + 1, 1, s1, 7, 7, e + 1, 2, 0);
	lane(0, 9, e + 2, 3, 3, s1, 8, 8, e + 2, 2, 0xc0000000u | 3);
	lane(0, 4, 4 | 0x40000000u, e + 3, 1, s1, 5, 5, 4, 3,
	     0x40000000u | 4);
	lane(0, 2, 2, 2, 2, s1, 2, 2, 2, 2, 0);
}

int main(int argc, char **argv)
{
	const char *dir = argv[1];
	struct btt_arena a;
	struct bb_info d;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}

	/* the 6.5 worked examples */
	a = arena_seed(0x02, 32 * MIB, 512, 0, 0, true);
	lanes(&a, 1);
	emit(dir, "ex-32m-v11-512");
	a = arena_seed(0x02, 32 * MIB, 4096, 0, 0, true);
	lanes(&a, 2);
	emit(dir, "ex-32m-v11-4096-oldlog");
	a = arena_seed(0x00, 32 * MIB, 4096, 0, 0, true);
	lanes(&a, 1);
	emit(dir, "ex-32m-v20-4096");
	a = arena_seed(0x00, 1 * GIB, 512, 0, 0, false);
	lanes(&a, 1);
	emit(dir, "ex-1g-v20-512-noparent");

	/* multi-arena: the first and the last arena */
	a = arena_seed(0x02, 4096 + 512 * GIB + 16 * MIB, 520, 0, 0, true);
	lanes(&a, 1);
	emit(dir, "multi-arena0-520");
	a = arena_seed(0x02, 4096 + 512 * GIB + 16 * MIB, 520, 1, 0, true);
	lanes(&a, 2);
	emit(dir, "multi-arena1-520");
	a = arena_seed(0x00, 3 * (512 * GIB), 4224, 2, 0, true);
	emit(dir, "multi-1.5t-last-4224");

	/* flags, io namespace, other sizes */
	a = arena_seed(0x02, 16 * MIB + 4096, 4104, 0, IB_FLAG_ERROR, true);
	lanes(&a, 1);
	emit(dir, "min-v11-4104-error");
	a = arena_seed(0x04, 16 * MIB, 528, 0, 0, false);
	emit(dir, "min-v20-528-io");
	a = arena_seed(0x02, 0xffffffffffffffffull, 4160, 33554431, 0, true);
	emit(dir, "u64max-last-4160");

	/* the tight arena of test_btt_format.c, by the builder */
	start_seed(0x03, 4096 + 0xa7000, 0);
	d = bb_std(4096, 512, 512, 1280, 0xa1000, 0xa2000, 0xa6000, 0);
	bb_put_info(buf + HDR, &d);
	emit(dir, "tight-v11");

	/* damaged: checksum resealed by the fuzzer, versions fixed by it */
	a = arena_seed(0x13, 32 * MIB, 512, 0, 0, true);
	lb_put64(buf + HDR + 96, 0xffffffffffff0000ull);
	emit(dir, "bad-mapoff-resealed");
	a = arena_seed(0x02, 32 * MIB, 512, 0, 0, true);
	buf[HDR + 2000] = 1;
	emit(dir, "bad-checksum");

	start_seed(0x00, 32 * MIB, 0);
	len = HDR + 16;
	emit(dir, "blank");
	return 0;
}
