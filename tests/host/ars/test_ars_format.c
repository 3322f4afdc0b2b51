// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of kernel/acpi/nfit/ars-format.c: the ARS Status output
 * read as hostile firmware output.  Crafted outputs (every length, count,
 * address and restart range the firmware controls, at and beyond each
 * limit), then a randomized check: whatever the bytes, every record the
 * parser hands out lies inside the scrubbed range, no read goes past the
 * bytes returned (ASan), and a restart range it accepts is inside too.
 * TAP, closed by an "N passed, N failed" line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <errno.h>

#include "ars-format.h"

static int passed, failed, checks_failed;

#define CHECK_INT(got, want)						\
	do {								\
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_) {						\
			checks_failed++;				\
			printf("#   %s:%d: %s == %lld, expected %lld\n",	\
			       __FILE__, __LINE__, #got, g_, w_);	\
		}							\
	} while (0)

static void tap(const char *desc)
{
	if (checks_failed) {
		failed++;
		printf("not ok %d - ars: %s\n", passed + failed, desc);
	} else {
		passed++;
		printf("ok %d - ars: %s\n", passed + failed, desc);
	}
	checks_failed = 0;
}

static int warnings;
static int verbose;

static void logf_(void *ctx, bool error, const char *fmt, ...)
{
	va_list ap;

	if (error)
		warnings++;
	if (!verbose)
		return;
	va_start(ap, fmt);
	printf("#     %s", error ? "warn: " : "dbg: ");
	vprintf(fmt, ap);
	va_end(ap);
}

#define MAXREC 64
struct got {
	int n;
	u64 addr[MAXREC], len[MAXREC];
	u32 handle[MAXREC];
	int fail_at;	/* return -ENOMEM on this call (1-based), 0: never */
};

static int rec(void *ctx, u32 handle, u64 addr, u64 len)
{
	struct got *g = ctx;

	if (g->fail_at && g->n + 1 == g->fail_at)
		return -ENOMEM;
	if (g->n < MAXREC) {
		g->addr[g->n] = addr;
		g->len[g->n] = len;
		g->handle[g->n] = handle;
	}
	g->n++;
	return 0;
}

/* an ARS Status output being built */
static u8 out[4096];

static void put32(u32 off, u32 v) { memcpy(out + off, &v, 4); }
static void put64(u32 off, u64 v) { memcpy(out + off, &v, 8); }
static void put16(u32 off, u16 v) { memcpy(out + off, &v, 2); }

#define S 0x100000000ULL	/* scrubbed range: [S, S + L) */
#define L 0x4000000ULL

/* a complete output for [S, +L) with @n records (filled later) */
static u32 build(u16 ext, u32 n)
{
	u32 len = NFIT_ARS_STATUS_HDR + n * NFIT_ARS_RECORD_SIZE;

	memset(out, 0, sizeof(out));
	put32(NFIT_ARS_OFF_STATUS, (u32)ext << 16);
	put32(NFIT_ARS_OFF_OUT_LENGTH, len);
	put64(NFIT_ARS_OFF_ADDRESS, S);
	put64(NFIT_ARS_OFF_LENGTH, L);
	put16(NFIT_ARS_OFF_TYPE, 2);
	put32(NFIT_ARS_OFF_NUM, n);
	return len;
}

static void record(u32 i, u32 handle, u64 addr, u64 len)
{
	u32 o = NFIT_ARS_STATUS_HDR + i * NFIT_ARS_RECORD_SIZE;

	put32(o, handle);
	put64(o + 8, addr);
	put64(o + 16, len);
}

static int parse(u32 filled, struct nfit_ars_result *res, struct got *g)
{
	memset(g, 0, sizeof(*g));
	warnings = 0;
	return nfit_ars_parse_status(out, filled, S, L, res, rec, g, logf_,
				     NULL);
}

static void test_good(void)
{
	struct nfit_ars_result res;
	struct got g;
	u32 len = build(NFIT_ARS_EXT_DONE, 2);

	record(0, 7, S + 0x1000, 0x200);
	record(1, 8, S + L - 64, 64);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(g.n, 2);
	CHECK_INT(g.addr[0], S + 0x1000);
	CHECK_INT(g.len[0], 0x200);
	CHECK_INT(g.handle[0], 7);
	CHECK_INT(g.addr[1], S + L - 64);
	CHECK_INT(res.accepted, 2);
	CHECK_INT(res.dropped, 0);
	CHECK_INT(res.restart, 0);
	CHECK_INT(res.last_end, S + L);
	CHECK_INT(warnings, 0);
	tap("two records inside the range are handed out as they are");

	len = build(NFIT_ARS_EXT_DONE, 0);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(g.n, 0);
	CHECK_INT(res.ext, NFIT_ARS_EXT_DONE);
	tap("no records");
}

static void test_not_done(void)
{
	struct nfit_ars_result res;
	struct got g;

	build(NFIT_ARS_EXT_BUSY, 1);
	record(0, 0, S, 64);
	put32(NFIT_ARS_OFF_OUT_LENGTH, 8);
	CHECK_INT(parse(8, &res, &g), 0);
	CHECK_INT(res.ext, NFIT_ARS_EXT_BUSY);
	CHECK_INT(g.n, 0);
	tap("in progress: 8 bytes suffice, records not read");

	build(NFIT_ARS_EXT_NONE, 0);
	CHECK_INT(parse(8, &res, &g), 0);
	CHECK_INT(res.ext, NFIT_ARS_EXT_NONE);
	tap("no ARS performed");

	build(NFIT_ARS_EXT_DONE, 1);
	record(0, 0, S, 64);
	put32(NFIT_ARS_OFF_STATUS, NFIT_DSM_ST_HW_ERROR);
	CHECK_INT(parse(NFIT_ARS_STATUS_HDR + 24, &res, &g), 0);
	CHECK_INT(res.status, NFIT_DSM_ST_HW_ERROR);
	CHECK_INT(g.n, 0);
	tap("failure status: records not read");

	CHECK_INT(parse(7, &res, &g), -EINVAL);
	CHECK_INT(parse(0, &res, &g), -EINVAL);
	tap("fewer than 8 bytes returned: refused");
}

static void test_lengths(void)
{
	struct nfit_ars_result res;
	struct got g;
	u32 len = build(NFIT_ARS_EXT_DONE, 2);

	record(0, 0, S, 64);
	record(1, 0, S + 128, 64);
	CHECK_INT(parse(len - 1, &res, &g), -EINVAL);
	CHECK_INT(g.n, 0);
	CHECK_INT(warnings, 1);
	tap("output length beyond the bytes returned: refused, nothing read");

	put32(NFIT_ARS_OFF_OUT_LENGTH, 0xffffffff);
	CHECK_INT(parse(len, &res, &g), -EINVAL);
	tap("output length 4 GiB: refused");

	put32(NFIT_ARS_OFF_OUT_LENGTH, NFIT_ARS_STATUS_HDR - 1);
	CHECK_INT(parse(len, &res, &g), -EINVAL);
	tap("output length below the header: refused");

	put32(NFIT_ARS_OFF_OUT_LENGTH, NFIT_ARS_STATUS_HDR + 24);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(g.n, 1);
	CHECK_INT(res.dropped, 1);
	tap("2 records claimed, 1 fits the output length: 1 read, 1 dropped");

	put32(NFIT_ARS_OFF_OUT_LENGTH, len);
	put32(NFIT_ARS_OFF_NUM, 0xffffffff);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(g.n, 2);
	CHECK_INT(res.dropped, 0xffffffffU - 2);
	CHECK_INT(res.num_records, 0xffffffffU);
	tap("num_records 2^32-1: only what fits is read (no overflow of the product)");

	put32(NFIT_ARS_OFF_NUM, 0x0aaaaaab);	/* x 24 wraps 32 bits to 8 */
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(g.n, 2);
	tap("num_records whose size wraps 32 bits: only what fits is read");

	len = build(NFIT_ARS_EXT_DONE, 1);
	record(0, 0, S, 64);
	CHECK_INT(parse(len + 100, &res, &g), 0);
	CHECK_INT(g.n, 1);
	tap("more bytes returned than the output length: fine");
}

static void test_records(void)
{
	struct nfit_ars_result res;
	struct got g;
	u32 len = build(NFIT_ARS_EXT_DONE, 8);

	record(0, 0, S - 64, 64);		/* just below */
	record(1, 0, S + L, 64);		/* just above */
	record(2, 0, S + 64, 0);		/* empty */
	record(3, 0, 0xffffffffffffffc0ULL, 0x80);	/* wraps */
	record(4, 0, S + 64, 0xffffffffffffffffULL);	/* wraps */
	record(5, 0, S - 64, 128);		/* crosses the start */
	record(6, 0, S + L - 64, 128);		/* crosses the end */
	record(7, 0, 0, 0xffffffffffffffffULL);	/* covers everything */
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(res.dropped, 5);
	CHECK_INT(res.accepted, 3);
	CHECK_INT(g.n, 3);
	CHECK_INT(g.addr[0], S);
	CHECK_INT(g.len[0], 64);
	CHECK_INT(g.addr[1], S + L - 64);
	CHECK_INT(g.len[1], 64);
	CHECK_INT(g.addr[2], S);
	CHECK_INT(g.len[2], L);
	CHECK_INT(warnings, 8);
	tap("records outside, empty or wrapping dropped, crossing ones clipped, each warned");

	len = build(NFIT_ARS_EXT_DONE, 3);
	record(0, 0, S, 64);
	record(1, 0, S + 64, 64);
	record(2, 0, S + 128, 64);
	memset(&g, 0, sizeof(g));
	g.fail_at = 2;
	CHECK_INT(nfit_ars_parse_status(out, len, S, L, &res, rec, &g, logf_,
					NULL), -ENOMEM);
	CHECK_INT(g.n, 1);
	tap("a failing callback stops the walk with its errno");
}

static void test_restart(void)
{
	struct nfit_ars_result res;
	struct got g;
	u32 len = build(NFIT_ARS_EXT_INTR, 1);

	record(0, 0, S, 64);
	put64(NFIT_ARS_OFF_RESTART, S + 0x1000);
	put64(NFIT_ARS_OFF_RESTART_LEN, L - 0x1000);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(res.restart, 1);
	CHECK_INT(res.restart_address, S + 0x1000);
	CHECK_INT(res.restart_length, L - 0x1000);
	CHECK_INT(g.n, 1);
	tap("stopped early: records kept, restart range inside");

	put64(NFIT_ARS_OFF_RESTART_LEN, L);	/* runs past the end */
	CHECK_INT(parse(len, &res, &g), -EPROTO);
	CHECK_INT(res.restart, 0);
	tap("restart range past the end: refused");

	put64(NFIT_ARS_OFF_RESTART, S - 1);
	put64(NFIT_ARS_OFF_RESTART_LEN, 2);
	CHECK_INT(parse(len, &res, &g), -EPROTO);
	tap("restart range before the start: refused");

	put64(NFIT_ARS_OFF_RESTART, S + 64);
	put64(NFIT_ARS_OFF_RESTART_LEN, 0);
	CHECK_INT(parse(len, &res, &g), -EPROTO);
	tap("empty restart range: refused");

	put64(NFIT_ARS_OFF_RESTART, 0xfffffffffffff000ULL);
	put64(NFIT_ARS_OFF_RESTART_LEN, 0x2000);
	CHECK_INT(parse(len, &res, &g), -EPROTO);
	tap("wrapping restart range: refused");

	len = build(NFIT_ARS_EXT_DONE, 1);
	record(0, 0, S + 0x100, 64);
	put16(NFIT_ARS_OFF_FLAGS, NFIT_ARS_F_OVERFLOW);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(res.restart, 1);
	CHECK_INT(res.restart_address, S + 0x140);
	CHECK_INT(res.restart_length, L - 0x140);
	tap("overflow: go on after the last record");

	len = build(NFIT_ARS_EXT_DONE, 0);
	put16(NFIT_ARS_OFF_FLAGS, NFIT_ARS_F_OVERFLOW);
	CHECK_INT(parse(len, &res, &g), 0);
	CHECK_INT(res.restart, 0);
	tap("overflow without a record: nothing to continue after");
}

static void test_range(void)
{
	struct nfit_ars_result res;
	struct got g;
	u32 len = build(NFIT_ARS_EXT_DONE, 0);

	CHECK_INT(nfit_ars_parse_status(out, len, 0xfffffffffffff000ULL,
					0x2000, &res, rec, &g, logf_, NULL),
		  -EINVAL);
	CHECK_INT(nfit_ars_parse_status(out, len, S, 0, &res, rec, &g, logf_,
					NULL), -EINVAL);
	tap("a wrapping or empty scrub range is refused");
}

/* random bytes: every record handed out inside, no out-of-bounds read */
static void test_random(void)
{
	struct nfit_ars_result res;
	unsigned int seed = 1, i, k, bad = 0;
	struct got g;

	for (i = 0; i < 200000; i++) {
		u32 filled = rand_r(&seed) % 512, n;
		u8 *buf;
		int rc;

		buf = malloc(filled ? filled : 1);
		for (k = 0; k < filled; k++)
			buf[k] = rand_r(&seed);
		/* make the interesting paths likely */
		if (filled >= 48 && rand_r(&seed) % 2) {
			u32 st = (rand_r(&seed) % 4) << 16;
			u32 ol = rand_r(&seed) % 3 ? filled : (u32)rand_r(&seed);

			memcpy(buf, &st, 4);
			memcpy(buf + 4, &ol, 4);
			n = rand_r(&seed) % 24;
			memcpy(buf + 44, &n, 4);
			for (k = 48; k + 24 <= filled; k += 24) {
				u64 a = S + (rand_r(&seed) % 3 - 1) *
					(u64)(rand_r(&seed) % (2 * L));

				memcpy(buf + k + 8, &a, 8);
			}
		}
		memset(&g, 0, sizeof(g));
		rc = nfit_ars_parse_status(buf, filled, S, L, &res, rec, &g,
					   logf_, NULL);
		for (k = 0; k < (u32)g.n && k < MAXREC; k++)
			if (g.addr[k] < S || !g.len[k] ||
			    g.len[k] > S + L - g.addr[k])
				bad++;
		if (rc == 0 && res.restart &&
		    (res.restart_address < S || !res.restart_length ||
		     res.restart_length > S + L - res.restart_address))
			bad++;
		free(buf);
	}
	CHECK_INT(bad, 0);
	tap("200000 random outputs: records and restart ranges always inside");
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_good();
	test_not_done();
	test_lengths();
	test_records();
	test_restart();
	test_range();
	test_random();
	printf("# ars: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
