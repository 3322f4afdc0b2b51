// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of kernel/acpi/nfit/table.c on crafted tables.
 *
 * Every parse runs on an exact-size heap copy of the table so that
 * AddressSanitizer catches any read past the bytes handed over.
 * Output is TAP, closed by an "N passed, N failed" line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfit_builder.h"
#include "nfit_invariants.h"

struct tc {
	struct nfit_builder b;
	u8 *copy;
	u32 copy_len;
	struct nfit_sub *subs;
	unsigned int max_subs;
	struct nfit_table t;
	int rc;
	int nerr, ndbg;
	size_t loglen;
	char log[65536];
	char map[512];
};

static int checks_failed;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			checks_failed++;				\
			printf("#   %s:%d: CHECK(%s) failed\n",		\
			       __FILE__, __LINE__, #cond);		\
		}							\
	} while (0)

#define CHECK_INT(got, want)						\
	do {								\
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_) {						\
			checks_failed++;				\
			printf("#   %s:%d: %s == %lld, expected %lld\n", \
			       __FILE__, __LINE__, #got, g_, w_);	\
		}							\
	} while (0)

#define CHECK_STR(got, want)						\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (strcmp(g_, w_)) {					\
			checks_failed++;				\
			printf("#   %s:%d: %s == \"%s\", expected \"%s\"\n", \
			       __FILE__, __LINE__, #got, g_, w_);	\
		}							\
	} while (0)

#define CHECK_LOG(c, text)						\
	do {								\
		if (!strstr((c)->log, (text))) {			\
			checks_failed++;				\
			printf("#   %s:%d: log lacks \"%s\"\n",		\
			       __FILE__, __LINE__, (text));		\
		}							\
	} while (0)

static void test_log(void *ctx, bool error, const char *fmt, ...)
{
	struct tc *c = ctx;
	va_list ap;
	int n;

	if (error)
		c->nerr++;
	else
		c->ndbg++;
	if (c->loglen + 8 >= sizeof(c->log))
		return;
	n = snprintf(c->log + c->loglen, sizeof(c->log) - c->loglen, "%s",
		     error ? "E: " : "D: ");
	c->loglen += n;
	va_start(ap, fmt);
	n = vsnprintf(c->log + c->loglen, sizeof(c->log) - c->loglen, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->loglen += (size_t)n < sizeof(c->log) - c->loglen ?
			     (size_t)n : sizeof(c->log) - c->loglen - 1;
}

static void reset_parse(struct tc *c)
{
	free(c->copy);
	free(c->subs);
	c->copy = NULL;
	c->subs = NULL;
	c->nerr = 0;
	c->ndbg = 0;
	c->loglen = 0;
	c->log[0] = '\0';
}

/* Parse the first @len bytes of the builder (zero padded past its end). */
static int parse_n(struct tc *c, u32 len, bool with_log)
{
	const char *bad;

	reset_parse(c);
	c->copy_len = len;
	c->copy = malloc(len ? len : 1);
	memset(c->copy, 0, len);
	memcpy(c->copy, c->b.buf, len < c->b.len ? len : c->b.len);
	c->max_subs = nfit_table_max_subs(len);
	c->subs = calloc(c->max_subs + 1, sizeof(*c->subs));
	c->rc = nfit_table_parse(&c->t, len ? c->copy : NULL, len, c->subs,
				 c->max_subs, with_log ? test_log : NULL, c);
	bad = nfit_check_invariants(&c->t, c->rc, c->copy, len, c->max_subs);
	if (bad) {
		checks_failed++;
		printf("#   invariant violated: %s\n", bad);
	}
	return c->rc;
}

static int parse(struct tc *c)
{
	return parse_n(c, c->b.len, true);
}

/* "1" per usable entry, "0" per rejected one, in table order. */
static const char *usable_map(struct tc *c)
{
	unsigned int i;

	for (i = 0; i < c->t.nr_subs && i + 1 < sizeof(c->map); i++)
		c->map[i] = c->t.subs[i].usable ? '1' : '0';
	c->map[i] = '\0';
	return c->map;
}

/* The parsed copy's counterpart of a builder entry pointer. */
static const void *at(struct tc *c, const void *builder_ptr)
{
	return c->copy + ((const u8 *)builder_ptr - c->b.buf);
}

/* 1/0 for the usable flag of a builder entry, -1 if not listed. */
static int state(struct tc *c, const void *builder_ptr)
{
	const void *p = at(c, builder_ptr);
	unsigned int i;

	for (i = 0; i < c->t.nr_subs; i++)
		if ((const void *)c->t.subs[i].hdr == p)
			return c->t.subs[i].usable;
	return -1;
}

static struct acpi_table_nfit *hdr_of(struct tc *c)
{
	return (struct acpi_table_nfit *)c->b.buf;
}

/* ---- the canned tables ---- */

static void t_qemu_ok(struct tc *c)
{
	struct nb_qemu q;
	const struct acpi_nfit_memory_map *m;
	const struct acpi_nfit_capabilities *cap;
	unsigned int n = 0;
	u64 cookie;

	nb_build_qemu(&c->b, &q);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.nr_subs, 7);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->t.nr_unknown, 0);
	CHECK_INT(c->t.revision, 1);
	CHECK_INT(c->t.length, c->b.len);
	CHECK(c->t.nfit == (const void *)c->copy);
	CHECK_INT(c->nerr, 0);

	CHECK(nfit_spa_by_index(&c->t, 2) == at(c, q.spa[0]));
	CHECK(nfit_spa_by_index(&c->t, 4) == at(c, q.spa[1]));
	CHECK(!nfit_spa_by_index(&c->t, 3));
	CHECK(!nfit_spa_by_index(&c->t, 0));
	CHECK(nfit_dcr_by_index(&c->t, 3) == at(c, q.dcr[0]));
	CHECK(nfit_dcr_by_index(&c->t, 5) == at(c, q.dcr[1]));
	CHECK(!nfit_dcr_by_index(&c->t, 2));
	CHECK_INT(nfit_spa_kind(nfit_spa_by_index(&c->t, 2)), NFIT_SPA_PM);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 4), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 0), 0);
	CHECK_INT(nfit_dcr_windows(nfit_dcr_by_index(&c->t, 3)), 0);
	CHECK(!nfit_spa_location_cookie(nfit_spa_by_index(&c->t, 2),
					&cookie));
	CHECK(!nfit_bdw_by_dcr(&c->t, 3));
	CHECK(!nfit_flush_by_handle(&c->t, 1));
	CHECK(!nfit_idt_by_index(&c->t, 1));

	nfit_for_each_usable(&c->t, m, ACPI_NFIT_TYPE_MEMORY_MAP) {
		CHECK(m == at(c, q.memdev[n]));
		CHECK_INT(m->device_handle, NB_QEMU_HANDLE(n));
		n++;
	}
	CHECK_INT(n, 2);
	n = 0;
	nfit_for_each_usable(&c->t, cap, ACPI_NFIT_TYPE_CAPABILITIES) {
		CHECK_INT(cap->capabilities, 3);
		n++;
	}
	CHECK_INT(n, 1);
}

static void t_nfit_test0_ok(struct tc *c)
{
	const struct acpi_nfit_system_address *spa;
	const struct acpi_nfit_memory_map *m;
	struct nb_t0 t0;
	unsigned int i, n, sets = 0;

	nb_build_t0(&c->b, &t0);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.nr_subs, 10 + 14 + 4 + 4);
	CHECK_STR(usable_map(c), "11111111111111111111111111111111");
	CHECK_INT(c->nerr, 0);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 1), 2);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 4);
	for (i = 3; i <= 10; i++)
		CHECK_INT(nfit_spa_nr_memdevs(&c->t, i), 1);
	for (i = 0; i < NB_T0_DIMMS; i++) {
		const struct acpi_nfit_control_region *dcr;

		dcr = nfit_dcr_by_index(&c->t, 1 + i);
		CHECK(dcr == at(c, t0.dcr[i]));
		CHECK_INT(nfit_dcr_windows(dcr), 1);
		CHECK_INT(nfit_dcr_flags(dcr), 0);
		CHECK(nfit_bdw_by_dcr(&c->t, 1 + i) == at(c, t0.bdw[i]));
		CHECK_INT(nfit_spa_kind(nfit_spa_by_index(&c->t, 3 + i)),
			  NFIT_SPA_DCR);
		CHECK_INT(nfit_spa_kind(nfit_spa_by_index(&c->t, 7 + i)),
			  NFIT_SPA_BDW);
	}
	CHECK(!nfit_bdw_by_dcr(&c->t, 5));

	/* nested iteration: each PM set, its members */
	nfit_for_each_usable(&c->t, spa, ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
		if (nfit_spa_kind(spa) != NFIT_SPA_PM)
			continue;
		n = 0;
		nfit_for_each_usable(&c->t, m, ACPI_NFIT_TYPE_MEMORY_MAP)
			if (m->range_index == spa->range_index) {
				CHECK_INT(m->interleave_ways,
					  spa->range_index == 1 ? 2 : 4);
				n++;
			}
		CHECK_INT(n, spa->range_index == 1 ? 2 : 4);
		sets++;
	}
	CHECK_INT(sets, 2);
}

static void t_max_subs(struct tc *c)
{
	struct nb_qemu q;

	CHECK_INT(nfit_table_max_subs(0), 0);
	CHECK_INT(nfit_table_max_subs(40), 0);
	CHECK_INT(nfit_table_max_subs(43), 0);
	CHECK_INT(nfit_table_max_subs(44), 1);
	CHECK_INT(nfit_table_max_subs(0xffffffffU), (0xffffffffU - 40) / 4);

	nb_build_qemu(&c->b, &q);
	c->copy = malloc(c->b.len);
	memcpy(c->copy, c->b.buf, c->b.len);
	c->subs = calloc(7, sizeof(*c->subs));
	CHECK_INT(nfit_table_parse(&c->t, c->copy, c->b.len, c->subs, 6,
				   test_log, c), -ENOSPC);
	CHECK_INT(c->t.nr_subs, 0);
	CHECK(!c->t.nfit);
	CHECK(!nfit_spa_by_index(&c->t, 2));
	CHECK_INT(nfit_table_parse(&c->t, c->copy, c->b.len, c->subs, 7,
				   test_log, c), 0);
	CHECK_INT(c->t.nr_subs, 7);
}

/* ---- table-level refusals ---- */

static void t_truncated(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	CHECK_INT(parse_n(c, c->b.len - 1, true), -EINVAL);
	CHECK_INT(c->t.nr_subs, 0);
	CHECK(!c->t.nfit);
	CHECK(!nfit_spa_by_index(&c->t, 2));
	CHECK_INT(c->nerr, 1);
	CHECK_LOG(c, "only");
}

static void t_every_truncation(struct tc *c)
{
	struct nb_t0 t0;
	u32 len, full;

	nb_build_t0(&c->b, &t0);
	full = c->b.len;
	for (len = 0; len < full; len++)
		CHECK_INT(parse_n(c, len, false), -EINVAL);
	CHECK_INT(parse_n(c, full, false), 0);
}

static void t_tiny_buffer(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	CHECK_INT(parse_n(c, sizeof(struct acpi_table_nfit) - 1, true),
		  -EINVAL);
	CHECK_LOG(c, "cannot hold the table header");
	CHECK_INT(parse_n(c, 0, true), -EINVAL);
}

static void t_header_len_short(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	hdr_of(c)->header.length = sizeof(struct acpi_table_nfit) - 1;
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "shorter than the header");
	CHECK_INT(c->t.nr_subs, 0);
	hdr_of(c)->header.length = 0;
	CHECK_INT(parse(c), -EINVAL);
}

static void t_empty_table(struct tc *c)
{
	unsigned int pos = 0;

	nb_init(&c->b);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.nr_subs, 0);
	CHECK_INT(c->t.length, sizeof(struct acpi_table_nfit));
	CHECK(!nfit_next(&c->t, ACPI_NFIT_TYPE_MEMORY_MAP, &pos));
	CHECK_INT(c->nerr, 0);
}

static void t_bad_signature(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	memcpy(hdr_of(c)->header.signature, "NFI", 4);
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "bad signature");
}

static void t_zero_length_sub(struct tc *c)
{
	struct acpi_nfit_header *h;

	nb_init(&c->b);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 2, NFIT_SPA_PM, NB_QEMU_BASE,
	       NB_QEMU_SIZE);
	h = nb_append(&c->b, ACPI_NFIT_TYPE_MEMORY_MAP, 4);
	h->length = 0;
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 3, 1, 0);
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "has length 0, table refused");
	CHECK_INT(c->t.nr_subs, 0);
}

static void t_sub_shorter_than_header(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[1]->header.length = 3;
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "has length 3");
}

static void t_sub_past_end(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.cap->header.length = 32;	/* 16 bytes are left */
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "runs past the table end");
	/* the same entry, with the buffer longer than the table */
	CHECK_INT(parse_n(c, c->b.len + 64, true), -EINVAL);

	/* one byte too long is enough */
	q.cap->header.length = 17;
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "at offset 0x198 (length 17) runs past the table end");
}

static void t_stray_bytes(struct tc *c)
{
	struct nb_qemu q;
	static const u8 junk[3] = { 1, 0, 0 };

	nb_build_qemu(&c->b, &q);
	nb_append_bytes(&c->b, junk, sizeof(junk));
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "3 stray bytes");
}

static void t_slack_after_table(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	CHECK_INT(parse_n(c, c->b.len + 100, true), 0);
	CHECK_INT(c->t.length, c->b.len);
	CHECK_STR(usable_map(c), "1111111");
}

static void t_bad_checksum(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	hdr_of(c)->header.checksum ^= 0x5a;
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 1);
	CHECK_LOG(c, "E: NFIT: checksum mismatch");
}

static void t_revision(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	hdr_of(c)->header.revision = 2;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.revision, 2);
}

/* ---- too-short entries ---- */

static void t_short_spa(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	nb_resize(&c->b, q.spa[0], 40);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	/* the SPA, then its map (which references a range now missing) */
	CHECK_STR(usable_map(c), "0011111");
	CHECK_LOG(c, "SPA range at offset 0x28: length 40, needs 56");
	CHECK_LOG(c, "references missing SPA range 2");
	CHECK(!nfit_spa_by_index(&c->t, 2));
	CHECK(nfit_spa_by_index(&c->t, 4));

	nb_build_qemu(&c->b, &q);
	nb_resize(&c->b, q.spa[0], NB_SPA_LEN_ACPI60 - 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "0011111");
}

static void t_spa_location_cookie(struct tc *c)
{
#ifdef ACPI_NFIT_LOCATION_COOKIE_VALID
	struct acpi_nfit_system_address *spa;
	u64 cookie = 0;

	nb_init(&c->b);
	spa = nb_spa(&c->b, sizeof(*spa), 1, NFIT_SPA_PM, NB_QEMU_BASE,
		     NB_QEMU_SIZE);
	spa->flags |= ACPI_NFIT_LOCATION_COOKIE_VALID;
	spa->location_cookie = 0x1122334455667788ULL;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK(nfit_spa_location_cookie(nfit_spa_by_index(&c->t, 1), &cookie));
	CHECK(cookie == 0x1122334455667788ULL);

	spa->flags &= ~ACPI_NFIT_LOCATION_COOKIE_VALID;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK(!nfit_spa_location_cookie(nfit_spa_by_index(&c->t, 1), &cookie));

	/* flagged, but the entry stops before the cookie */
	nb_init(&c->b);
	spa = nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, NFIT_SPA_PM, NB_QEMU_BASE,
		     NB_QEMU_SIZE);
	spa->flags |= ACPI_NFIT_LOCATION_COOKIE_VALID;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1");
	CHECK(!nfit_spa_location_cookie(nfit_spa_by_index(&c->t, 1), &cookie));
#else
	printf("# no location_cookie in these ACPICA headers\n");
#endif
}

static void t_short_memdev(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	nb_resize(&c->b, q.memdev[0], 40);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	/* a PM range no map references stays: nothing to check it against */
	CHECK_STR(usable_map(c), "1011111");
	CHECK_LOG(c, "memory device map at offset 0x60: length 40, needs 48");
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 0);
	CHECK_INT(c->nerr, 1);
}

static void t_short_dcr(struct tc *c)
{
	struct nb_qemu q;
	const struct acpi_nfit_control_region *dcr;

	/* ACPI's 32-byte form, no block windows: accepted */
	nb_build_qemu(&c->b, &q);
	nb_resize(&c->b, q.dcr[0], NB_DCR_LEN_SHORT);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 0);
	dcr = nfit_dcr_by_index(&c->t, 3);
	CHECK(dcr);
	CHECK_INT(nfit_dcr_windows(dcr), 0);
	CHECK_INT(nfit_dcr_flags(dcr), 0);

	/* short form that claims windows: kept, windows ignored, warned */
	nb_build_qemu(&c->b, &q);
	q.dcr[0]->windows = 2;
	q.dcr[0]->flags = ACPI_NFIT_CONTROL_BUFFERED;
	nb_resize(&c->b, q.dcr[0], 40);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 1);
	CHECK_LOG(c, "control region 3: 2 block windows but no window fields");
	dcr = nfit_dcr_by_index(&c->t, 3);
	CHECK_INT(nfit_dcr_windows(dcr), 0);
	CHECK_INT(nfit_dcr_flags(dcr), 0);

	/* last in the buffer: the absent fields are never read */
	nb_build_qemu(&c->b, &q);
	nb_dcr(&c->b, NB_DCR_LEN_SHORT, 9, 9, 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111111");
	dcr = nfit_dcr_by_index(&c->t, 9);
	CHECK(dcr && (const u8 *)dcr + 32 == c->copy + c->copy_len);
	CHECK_INT(nfit_dcr_windows(dcr), 0);
	CHECK_INT(nfit_dcr_flags(dcr), 0);

	/* below the short form: rejected, and so is the map using it */
	nb_build_qemu(&c->b, &q);
	nb_resize(&c->b, q.dcr[0], NB_DCR_LEN_SHORT - 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1001111");
	CHECK_LOG(c, "length 31, needs 32");
	CHECK_LOG(c, "references missing control region 3");

	/* full form with windows and flags */
	nb_build_qemu(&c->b, &q);
	q.dcr[1]->windows = 1;
	q.dcr[1]->flags = ACPI_NFIT_CONTROL_BUFFERED;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	dcr = nfit_dcr_by_index(&c->t, 5);
	CHECK_INT(nfit_dcr_windows(dcr), 1);
	CHECK_INT(nfit_dcr_flags(dcr), ACPI_NFIT_CONTROL_BUFFERED);
}

static void t_flush(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_flush_address *f;
	const struct acpi_nfit_flush_address *got;

	nb_build_qemu(&c->b, &q);
	f = nb_flush(&c->b, NB_QEMU_HANDLE(0), 2);
	nb_flush(&c->b, NB_QEMU_HANDLE(1), 0);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111111111");
	got = nfit_flush_by_handle(&c->t, NB_QEMU_HANDLE(0));
	CHECK(got == at(c, f));
	CHECK_INT(got->hint_count, 2);
	CHECK(nfit_flush_by_handle(&c->t, NB_QEMU_HANDLE(1)));
	CHECK(!nfit_flush_by_handle(&c->t, 7));

	/* two hints announced, room for one */
	nb_resize(&c->b, f, 16 + 8);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111111101");
	CHECK_LOG(c, "flush hint at offset 0x");
	CHECK_LOG(c, "length 24, needs 32");
	CHECK(!nfit_flush_by_handle(&c->t, NB_QEMU_HANDLE(0)));

	/* shorter than the fixed part */
	nb_build_qemu(&c->b, &q);
	f = nb_flush(&c->b, NB_QEMU_HANDLE(0), 0);
	nb_resize(&c->b, f, 12);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111110");
}

static void t_flush_dup(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_flush_address *f;

	nb_build_qemu(&c->b, &q);
	f = nb_flush(&c->b, NB_QEMU_HANDLE(0), 1);
	nb_flush(&c->b, NB_QEMU_HANDLE(0), 2);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111111110");
	CHECK(nfit_flush_by_handle(&c->t, NB_QEMU_HANDLE(0)) == at(c, f));
	CHECK_LOG(c, "duplicate device handle 0x1");
}

static void t_short_idt(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_interleave *idt;

	nb_build_qemu(&c->b, &q);
	idt = nb_idt(&c->b, 5, 3, 256);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111111");
	CHECK(nfit_idt_by_index(&c->t, 5) == at(c, idt));

	nb_resize(&c->b, idt, 16 + 8);	/* 3 lines announced, 2 present */
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111110");
	CHECK_LOG(c, "interleave table at offset 0x");
	CHECK_LOG(c, "length 24, needs 28");
	CHECK(!nfit_idt_by_index(&c->t, 5));

	/* a line count whose size does not fit in 32 bits */
	nb_build_qemu(&c->b, &q);
	idt = nb_idt(&c->b, 5, 1, 256);
	idt->line_count = 0xffffffffU;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111110");
	CHECK_LOG(c, "needs 17179869196");
}

static void t_idt_bad_geometry(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_interleave *idt;

	nb_build_qemu(&c->b, &q);
	idt = nb_idt(&c->b, 5, 0, 256);
	q.memdev[0]->interleave_index = 5;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "10111110");
	CHECK_LOG(c, "interleave table 5: 0 lines of 256 bytes");

	nb_build_qemu(&c->b, &q);
	idt = nb_idt(&c->b, 5, 2, 0);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111110");

	nb_build_qemu(&c->b, &q);
	nb_idt(&c->b, 0, 2, 256);
	idt = nb_idt(&c->b, 6, 2, 256);
	nb_idt(&c->b, 6, 4, 256);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111010");
	CHECK(nfit_idt_by_index(&c->t, 6) == at(c, idt));
	CHECK_LOG(c, "index 0 is reserved");
	CHECK_LOG(c, "interleave table 6 at offset");
}

static void t_short_smbios_cap(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_smbios *s;

	nb_build_qemu(&c->b, &q);
	nb_smbios(&c->b, 0);	/* 8 bytes: no data, fine */
	s = nb_smbios(&c->b, 0);
	nb_resize(&c->b, s, 6);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111111110");
	CHECK_LOG(c, "SMBIOS info at offset");

	nb_build_qemu(&c->b, &q);
	nb_resize(&c->b, q.cap, 12);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111110");
	CHECK_LOG(c, "platform capabilities at offset 0x198: length 12, needs 16");
}

/* ---- unknown types ---- */

static void t_unknown_type(struct tc *c)
{
	struct nb_qemu q;
	static const u8 ent[12] = { 0x42, 0x00, 12, 0x00, 0xde, 0xad };

	nb_build_qemu(&c->b, &q);
	nb_insert(&c->b, q.dcr[0], ent, sizeof(ent));
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.nr_subs, 7);
	CHECK_INT(c->t.nr_unknown, 1);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 0);
	CHECK_INT(c->ndbg, 1);
	CHECK_LOG(c, "D: NFIT: skipping subtable of unknown type 66");
	CHECK(nfit_dcr_by_index(&c->t, 3));
}

static void t_reserved_type(struct tc *c)
{
	struct nb_qemu q;
	static const u8 bare8[4] = { ACPI_NFIT_TYPE_RESERVED, 0, 4, 0 };
	static const u8 big[8] = { 0xff, 0xff, 8, 0, 1, 2, 3, 4 };

	nb_build_qemu(&c->b, &q);
	nb_insert(&c->b, q.spa[0], bare8, sizeof(bare8));
	nb_append_bytes(&c->b, big, sizeof(big));
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.nr_subs, 7);
	CHECK_INT(c->t.nr_unknown, 2);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 0);
	CHECK_LOG(c, "unknown type 8 at offset 0x28");
	CHECK_LOG(c, "unknown type 65535");
}

/* ---- SPA ranges ---- */

static void t_spa_overlap(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.spa[1]->address = NB_QEMU_BASE + NB_QEMU_SIZE / 2;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	/* the later range goes, and with it the map into it */
	CHECK_STR(usable_map(c), "1110011");
	CHECK_LOG(c, "SPA range 4 [0x144000000-0x14bffffff] overlaps SPA range 2");
	CHECK(nfit_spa_by_index(&c->t, 2));
	CHECK(!nfit_spa_by_index(&c->t, 4));

	/* one byte of overlap */
	nb_build_qemu(&c->b, &q);
	q.spa[1]->address = NB_QEMU_BASE + NB_QEMU_SIZE - 1;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1110011");

	/* contained in the earlier range */
	nb_build_qemu(&c->b, &q);
	q.spa[1]->address = NB_QEMU_BASE + 0x1000;
	q.spa[1]->length = 0x1000;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1110011");
}

static void t_spa_overlap_kinds(struct tc *c)
{
	struct nb_qemu q;

	/* volatile over PM: refused too */
	nb_build_qemu(&c->b, &q);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 9, NFIT_SPA_VOLATILE,
	       NB_QEMU_BASE + NB_QEMU_SIZE - 0x1000, 0x2000);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111110");

	/* a control region window inside a PM range is not checked */
	nb_build_qemu(&c->b, &q);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 9, NFIT_SPA_DCR, NB_QEMU_BASE, 12);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 10, NFIT_SPA_UNKNOWN, NB_QEMU_BASE,
	       0x1000);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111111111");
	CHECK_INT(nfit_spa_kind(nfit_spa_by_index(&c->t, 10)),
		  NFIT_SPA_UNKNOWN);

	/* two volatile ranges */
	nb_init(&c->b);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, NFIT_SPA_VOLATILE, 0x1000, 0x2000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 2, NFIT_SPA_VOLATILE, 0x2000, 0x1000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 3, NFIT_SPA_VOLATILE, 0x3000, 0x1000);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "101");
}

static void t_spa_dup_index(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.spa[1]->range_index = NB_QEMU_SPA(0);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	/* SPA 4 is gone, so map 1 (into 4) is too */
	CHECK_STR(usable_map(c), "1110011");
	CHECK(nfit_spa_by_index(&c->t, 2) == at(c, q.spa[0]));
	CHECK_LOG(c, "SPA range 2 at offset 0xe0: duplicate index");
	CHECK_LOG(c, "references missing SPA range 4");

	/* a duplicate of a rejected (empty) range is still a duplicate */
	nb_build_qemu(&c->b, &q);
	q.spa[0]->length = 0;
	q.spa[1]->range_index = NB_QEMU_SPA(0);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "0010011");
	CHECK(!nfit_spa_by_index(&c->t, 2));
}

static void t_spa_index_zero(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.spa[0]->range_index = 0;
	q.memdev[0]->range_index = 0;	/* now an unmapped DIMM: fine */
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "0111111");
	CHECK_LOG(c, "SPA range at offset 0x28: index 0 is reserved");
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 0), 0);
}

static void t_spa_zero_length(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.spa[0]->length = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "0011111");
	CHECK_LOG(c, "SPA range 2: zero length");
}

static void t_spa_overflow(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.spa[1]->address = 0xfffffffffffff000ULL;
	q.spa[1]->length = 0x2000;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1110011");
	CHECK_LOG(c, "SPA range 4: address 0xfffffffffffff000 + length 0x2000 overflows");

	/* ending at the very last byte is fine */
	q.spa[1]->length = 0x1000;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111");

	q.spa[1]->address = 1;
	q.spa[1]->length = ~0ULL;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1110011");
}

static void t_spa_kinds(struct tc *c)
{
	struct acpi_nfit_system_address spa;
	int k;

	(void)c;
	memset(&spa, 0, sizeof(spa));
	for (k = NFIT_SPA_UNKNOWN; k <= NFIT_SPA_PCD; k++) {
		nb_guid(spa.range_guid, k);
		CHECK_INT(nfit_spa_kind(&spa), k);
	}
	nb_guid(spa.range_guid, NFIT_SPA_PM);
	spa.range_guid[15] ^= 1;
	CHECK_INT(nfit_spa_kind(&spa), NFIT_SPA_UNKNOWN);
}

/* ---- control regions and block windows ---- */

static void t_dcr_dup_index(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.dcr[1]->region_index = NB_QEMU_DCR(0);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	/* map 1 loses its DCR 5; PM range 4 then has no map, and stays */
	CHECK_STR(usable_map(c), "1111001");
	CHECK(nfit_dcr_by_index(&c->t, 3) == at(c, q.dcr[0]));
	CHECK_LOG(c, "control region 3 at offset 0x148: duplicate index");

	nb_build_qemu(&c->b, &q);
	q.dcr[0]->region_index = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1001111");
	CHECK_LOG(c, "control region at offset 0x90: index 0 is reserved");
}

static void t_bdw_refs(struct tc *c)
{
	struct nb_t0 t0;

	nb_build_t0(&c->b, &t0);
	t0.bdw[3]->region_index = 9;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.bdw[3]), 0);
	CHECK_INT(state(c, t0.bdw[2]), 1);
	CHECK(!nfit_bdw_by_dcr(&c->t, 4));
	CHECK(!nfit_bdw_by_dcr(&c->t, 9));
	CHECK_LOG(c, "references missing control region 9");
	CHECK_INT(c->nerr, 1);

	nb_build_t0(&c->b, &t0);
	t0.bdw[3]->region_index = 3;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.bdw[3]), 0);
	CHECK(nfit_bdw_by_dcr(&c->t, 3) == at(c, t0.bdw[2]));
	CHECK_LOG(c, "second one for control region 3");

	/* a window whose control region was rejected */
	nb_build_t0(&c->b, &t0);
	t0.dcr[0]->region_index = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.bdw[0]), 0);
	CHECK_INT(state(c, t0.dcr[0]), 0);
}

/* ---- memory device maps ---- */

static void t_memdev_missing_spa(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[0]->range_index = 9;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1011111");
	CHECK_LOG(c, "memory device map at offset 0x60 (handle 0x1): references missing SPA range 9");
	CHECK_INT(c->nerr, 1);
}

static void t_memdev_missing_dcr(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[1]->region_index = 7;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111011");
	CHECK_LOG(c, "(handle 0x2): references missing control region 7");

	nb_build_qemu(&c->b, &q);
	q.memdev[1]->region_index = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111011");
}

static void t_memdev_missing_idt(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[0]->interleave_index = 5;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1011111");
	CHECK_LOG(c, "references missing interleave table 5");

	nb_build_qemu(&c->b, &q);
	q.memdev[0]->interleave_index = 5;
	nb_idt(&c->b, 5, 1, 256);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111111");
	CHECK_INT(c->nerr, 0);
}

static void t_memdev_zero_ways(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[0]->interleave_ways = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1011111");
	CHECK_LOG(c, "zero interleave ways");
}

static void t_memdev_dup(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_memory_map *m;

	nb_build_qemu(&c->b, &q);
	m = nb_memdev(&c->b, NB_QEMU_HANDLE(0), NB_QEMU_SPA(0),
		      NB_QEMU_DCR(0), NB_QEMU_SIZE, 0, 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "11111110");
	CHECK_INT(state(c, m), 0);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, NB_QEMU_SPA(0)), 1);
	CHECK_LOG(c, "handle 0x1 already mapped to SPA range 2");

	/* same DIMM, another range: not a duplicate */
	nb_build_qemu(&c->b, &q);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 9, NFIT_SPA_PM, 0x500000000ULL,
	       0x1000);
	nb_memdev(&c->b, NB_QEMU_HANDLE(0), 9, NB_QEMU_DCR(0), 0x1000, 0, 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111111111");
}

static void t_memdev_unmapped(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[1]->range_index = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 4), 0);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 0), 0);
	CHECK_INT(c->nerr, 0);
}

/* ---- interleave sets ---- */

static void t_iset_ways_mismatch(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[0]->interleave_ways = 2;	/* 2-way, one member */
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "0011111");
	CHECK_LOG(c, "SPA range 2: interleave set incomplete (1 of 2 ways mapped)");
	CHECK(!nfit_spa_by_index(&c->t, 2));
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 0);
	/* the DIMM's control region stays for the driver */
	CHECK(nfit_dcr_by_index(&c->t, 3));
	CHECK_INT(c->nerr, 1);
}

static void t_iset_t0_mixed(struct tc *c)
{
	struct nb_t0 t0;
	int i;

	nb_build_t0(&c->b, &t0);
	t0.memdev_pm1[3]->interleave_ways = 2;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.spa_pm[1]), 0);
	for (i = 0; i < NB_T0_DIMMS; i++) {
		CHECK_INT(state(c, t0.memdev_pm1[i]), 0);
		CHECK_INT(state(c, t0.memdev_dcr[i]), 1);
		CHECK_INT(state(c, t0.memdev_bdw[i]), 1);
		CHECK_INT(state(c, t0.dcr[i]), 1);
	}
	CHECK_INT(state(c, t0.spa_pm[0]), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 1), 2);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 0);
	CHECK_STR(usable_map(c), "10111111111100001111111111111111");
	CHECK_LOG(c, "SPA range 2: interleave set incomplete (4 maps disagree on interleave ways)");
}

static void t_iset_t0_member_missing(struct tc *c)
{
	struct nb_t0 t0;

	nb_build_t0(&c->b, &t0);
	t0.memdev_pm1[2]->region_index = 9;	/* that map is rejected */
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "10111111111100001111111111111111");
	CHECK_LOG(c, "references missing control region 9");
	CHECK_LOG(c, "interleave set incomplete (3 of 4 ways mapped)");
}

static void t_iset_too_many(struct tc *c)
{
	struct nb_t0 t0;

	nb_build_t0(&c->b, &t0);
	/* DIMM 2 also claims a share of the 2-way set 1 */
	nb_memdev(&c->b, nb_t0_handle[2], 1, 3, NB_T0_DIMM_SIZE / 2, 0, 2);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.spa_pm[0]), 0);
	CHECK_INT(state(c, t0.memdev_pm0[0]), 0);
	CHECK_INT(state(c, t0.memdev_pm0[1]), 0);
	CHECK_INT(state(c, t0.spa_pm[1]), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 4);
	CHECK_LOG(c, "interleave set incomplete (3 of 2 ways mapped)");
}

/* ---- order, logging, robustness ---- */

static void t_any_order(struct tc *c)
{
	struct nb_qemu q;
	struct nfit_builder *fwd = malloc(sizeof(*fwd));
	const u8 *ents[7];
	int i;

	nb_build_qemu(fwd, &q);
	ents[0] = (u8 *)q.spa[0];
	ents[1] = (u8 *)q.memdev[0];
	ents[2] = (u8 *)q.dcr[0];
	ents[3] = (u8 *)q.spa[1];
	ents[4] = (u8 *)q.memdev[1];
	ents[5] = (u8 *)q.dcr[1];
	ents[6] = (u8 *)q.cap;
	nb_init(&c->b);
	for (i = 6; i >= 0; i--)
		nb_append_bytes(&c->b, ents[i],
				((const struct acpi_nfit_header *)ents[i])->length);
	nb_finish(&c->b);
	free(fwd);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 0);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 2), 1);
}

static void t_null_log(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.memdev[0]->interleave_ways = 2;
	q.spa[1]->length = 0;
	hdr_of(c)->header.checksum ^= 1;
	CHECK_INT(parse_n(c, c->b.len, false), 0);
	CHECK_STR(usable_map(c), "0010011");
	CHECK_INT(c->nerr + c->ndbg, 0);
	CHECK_INT(parse_n(c, c->b.len - 1, false), -EINVAL);
}

/* Every single-byte corruption of both canned tables, under ASan. */
static void t_byte_mutations(struct tc *c)
{
	static const u8 vals[] = { 0x00, 0x01, 0x04, 0x7f, 0x80, 0xff };
	struct nfit_builder *orig = malloc(sizeof(*orig));
	struct nb_t0 t0;
	struct nb_qemu q;
	int pass;
	u32 i, v;

	for (pass = 0; pass < 2; pass++) {
		if (pass)
			nb_build_t0(orig, &t0);
		else
			nb_build_qemu(orig, &q);
		for (i = 0; i < orig->len; i++) {
			for (v = 0; v < sizeof(vals); v++) {
				memcpy(&c->b, orig, sizeof(*orig));
				c->b.buf[i] = vals[v];
				parse_n(c, c->b.len, false);
			}
		}
	}
	free(orig);
}

/* ---- gaps the mutation audit named ---- */

/* The index of the parsed entry at builder pointer @p, or -1. */
static int sub_index(struct tc *c, const void *builder_ptr)
{
	const void *p = at(c, builder_ptr);
	unsigned int i;

	for (i = 0; i < c->t.nr_subs; i++)
		if ((const void *)c->t.subs[i].hdr == p)
			return (int)i;
	return -1;
}

/*
 * The invariants must refuse a result in which entry @builder_ptr (which
 * table.c rejected) were usable: they are what the fuzzer checks.
 */
static void check_invariants_refuse(struct tc *c, const void *builder_ptr,
				    const char *want)
{
	int i = sub_index(c, builder_ptr);
	const char *bad;

	CHECK(i >= 0);
	if (i < 0)
		return;
	CHECK_INT(c->t.subs[i].usable, 0);
	c->t.subs[i].usable = true;
	bad = nfit_check_invariants(&c->t, c->rc, c->copy, c->copy_len,
				    c->max_subs);
	c->t.subs[i].usable = false;
	CHECK(bad != NULL);
	if (bad)
		CHECK_STR(bad, want);
}

static void t_exact_fixed_part_with_count(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_interleave *idt;
	struct acpi_nfit_flush_address *f;

	/* 16 bytes, the fixed part only, but one line claimed */
	nb_build_qemu(&c->b, &q);
	idt = nb_idt(&c->b, 5, 0, 256);
	idt->line_count = 1;
	nb_finish(&c->b);
	CHECK_INT(idt->header.length, 16);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, idt), 0);
	CHECK(!nfit_idt_by_index(&c->t, 5));
	CHECK_LOG(c, "length 16, needs 20");
	check_invariants_refuse(c, idt, "too short entry usable");

	/* 16 bytes, one hint claimed */
	nb_build_qemu(&c->b, &q);
	f = nb_flush(&c->b, NB_QEMU_HANDLE(0), 0);
	f->hint_count = 1;
	nb_finish(&c->b);
	CHECK_INT(f->header.length, 16);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, f), 0);
	CHECK(!nfit_flush_by_handle(&c->t, NB_QEMU_HANDLE(0)));
	CHECK_LOG(c, "length 16, needs 24");
	check_invariants_refuse(c, f, "too short entry usable");

	/* with no count claimed, the fixed part alone is fine */
	idt->line_count = 0;
	f->hint_count = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, f), 1);
}

static void t_short_then_valid_same_key(struct tc *c)
{
	struct nb_qemu q;
	struct acpi_nfit_interleave *idt_short, *idt;
	struct acpi_nfit_flush_address *f_short, *f;

	nb_build_qemu(&c->b, &q);
	idt_short = nb_idt(&c->b, 5, 0, 256);
	idt_short->line_count = 2;		/* needs 24 bytes, has 16 */
	idt = nb_idt(&c->b, 5, 2, 256);
	f_short = nb_flush(&c->b, NB_QEMU_HANDLE(0), 0);
	f_short->hint_count = 3;		/* needs 40 bytes, has 16 */
	f = nb_flush(&c->b, NB_QEMU_HANDLE(0), 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, idt_short), 0);
	CHECK_INT(state(c, idt), 1);
	CHECK(nfit_idt_by_index(&c->t, 5) == at(c, idt));
	CHECK_INT(state(c, f_short), 0);
	CHECK_INT(state(c, f), 1);
	CHECK(nfit_flush_by_handle(&c->t, NB_QEMU_HANDLE(0)) == at(c, f));
	CHECK(!strstr(c->log, "duplicate"));
	CHECK_INT(c->nerr, 2);
}

static void t_one_stray_byte(struct tc *c)
{
	struct nb_qemu q;
	static const u8 junk[1] = { 0 };

	nb_build_qemu(&c->b, &q);
	nb_append_bytes(&c->b, junk, sizeof(junk));
	nb_finish(&c->b);
	CHECK_INT(parse(c), -EINVAL);
	CHECK_LOG(c, "1 stray bytes");
	CHECK_INT(c->t.nr_subs, 0);
}

static void t_bdw_dcr_rejected(struct tc *c)
{
	struct nb_t0 t0;

	/* window and control region both say index 0: the DCR is refused */
	nb_build_t0(&c->b, &t0);
	t0.dcr[0]->region_index = 0;
	t0.bdw[0]->region_index = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.dcr[0]), 0);
	CHECK_INT(state(c, t0.bdw[0]), 0);
	CHECK(!nfit_bdw_by_dcr(&c->t, 0));
	CHECK_INT(state(c, t0.bdw[1]), 1);
	CHECK_LOG(c, "references missing control region 0");

	/* a window of a control region refused as too short */
	nb_build_t0(&c->b, &t0);
	t0.dcr[3]->header.length = NB_DCR_LEN_SHORT - 4;
	/* keep the table tiled: the 4 bytes become an unknown subtable */
	{
		u8 *tail = (u8 *)t0.dcr[3] + NB_DCR_LEN_SHORT - 4;
		u16 unk_type = 0x42, unk_len = NB_DCR_LEN_FULL -
						NB_DCR_LEN_SHORT + 4;

		memcpy(tail, &unk_type, 2);
		memcpy(tail + 2, &unk_len, 2);
	}
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, t0.dcr[3]), 0);
	CHECK_INT(state(c, t0.bdw[3]), 0);
	CHECK(!nfit_bdw_by_dcr(&c->t, 4));
	CHECK(nfit_bdw_by_dcr(&c->t, 3) == at(c, t0.bdw[2]));
}

static void t_spa_overlap_edges(struct tc *c)
{
	struct nb_qemu q;

	/* the later range's last byte is the earlier one's first */
	nb_build_qemu(&c->b, &q);
	q.spa[1]->address = NB_QEMU_BASE - NB_QEMU_SIZE + 1;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, q.spa[0]), 1);
	CHECK_INT(state(c, q.spa[1]), 0);
	CHECK_LOG(c, "overlaps SPA range 2");

	/* ... one byte lower, they only touch */
	q.spa[1]->address = NB_QEMU_BASE - NB_QEMU_SIZE;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, q.spa[1]), 1);

	/* an earlier non-memory range does not shadow a later PM range */
	nb_init(&c->b);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, NFIT_SPA_DCR, 0x1000, 0x2000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 2, NFIT_SPA_BDW, 0x1800, 0x1000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 3, NFIT_SPA_PM, 0x2000, 0x1000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 4, NFIT_SPA_VOLATILE, 0x1000, 0x800);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1111");
	CHECK_INT(c->nerr, 0);
}

static void t_iset_volatile_not_checked(struct tc *c)
{
	struct acpi_nfit_memory_map *m;

	/* a volatile range mapped by one DIMM that claims 2 ways stays */
	nb_init(&c->b);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, NFIT_SPA_VOLATILE, 0x100000000ULL,
	       0x10000000ULL);
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 1, 0x1234, 0);
	m = nb_memdev(&c->b, 1, 1, 1, 0x10000000ULL, 0, 2);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "111");
	CHECK_INT(state(c, m), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 1), 1);
	CHECK_INT(c->nerr, 0);
}


/* ---- block windows: nfit_blk_geom() ---- */

/*
 * One BLK DIMM (handle 1, control region 1): control range 1 of
 * @dcr_len bytes, aperture range 2 of @bdw_len bytes, the builder's
 * DCR (window_size 12, command 0, status 8) and BDW (1 window of 16 KiB,
 * 32 MiB).  Optional interleave tables for the two maps.
 */
struct blk_tab {
	struct acpi_nfit_system_address *spa_dcr, *spa_bdw;
	struct acpi_nfit_memory_map *m_dcr, *m_bdw;
	struct acpi_nfit_control_region *dcr;
	struct acpi_nfit_data_region *bdw;
	struct acpi_nfit_interleave *idt_dcr, *idt_bdw;
};

static void blk_build(struct tc *c, struct blk_tab *bt, u64 dcr_len,
		      u64 bdw_len, u32 idt_dcr_lines, u32 idt_bdw_lines,
		      u32 line_size)
{
	nb_init(&c->b);
	memset(bt, 0, sizeof(*bt));
	bt->spa_dcr = nb_spa(&c->b, sizeof(struct acpi_nfit_system_address),
			     1, NFIT_SPA_DCR, 0x300000000ULL, dcr_len);
	bt->spa_bdw = nb_spa(&c->b, sizeof(struct acpi_nfit_system_address),
			     2, NFIT_SPA_BDW, 0x400000000ULL, bdw_len);
	bt->m_dcr = nb_memdev(&c->b, 1, 1, 1, 0, 0, 1);
	bt->m_bdw = nb_memdev(&c->b, 1, 2, 1, 0, 0, 1);
	bt->dcr = nb_dcr(&c->b, NB_DCR_LEN_FULL, 1, 0x1234, 1);
	bt->bdw = nb_bdw(&c->b, 1, 32ULL << 20);
	if (idt_dcr_lines) {
		bt->idt_dcr = nb_idt(&c->b, 1, idt_dcr_lines, line_size);
		bt->m_dcr->interleave_index = 1;
	}
	if (idt_bdw_lines) {
		bt->idt_bdw = nb_idt(&c->b, 2, idt_bdw_lines, line_size);
		bt->m_bdw->interleave_index = 2;
	}
}

static void idt_set(struct acpi_nfit_interleave *idt, u32 i, u32 v)
{
	memcpy((u8 *)idt + offsetof(struct acpi_nfit_interleave, line_offset) +
	       i * 4, &v, 4);
}

/* finish, parse, run nfit_blk_geom() on the aperture map */
static int blk_geom(struct tc *c, struct blk_tab *bt, struct nfit_blk_geom *g)
{
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, bt->m_bdw), 1);
	if (state(c, bt->m_bdw) != 1)
		return -1000;
	return nfit_blk_geom(&c->t, at(c, bt->m_bdw), g, test_log, c);
}

static void t_blk_geom_t0(struct tc *c)
{
	struct nfit_blk_geom g;
	struct nb_t0 t0;
	int i;

	nb_build_t0(&c->b, &t0);
	CHECK_INT(parse(c), 0);
	for (i = 0; i < NB_T0_DIMMS; i++) {
		CHECK_INT(nfit_blk_geom(&c->t, at(c, t0.memdev_bdw[i]), &g,
					test_log, c), 0);
		CHECK_INT(g.handle, nb_t0_handle[i]);
		CHECK(g.dcr == at(c, t0.dcr[i]));
		CHECK(g.bdw == at(c, t0.bdw[i]));
		CHECK(g.spa_dcr == at(c, t0.spa_dcr[i]));
		CHECK(g.spa_bdw == at(c, t0.spa_bdw[i]));
		CHECK(g.memdev_dcr == at(c, t0.memdev_dcr[i]));
		CHECK(g.memdev_bdw == at(c, t0.memdev_bdw[i]));
		CHECK_INT(g.windows, 1);
		CHECK_INT(g.cmd_offset, 0);
		CHECK_INT(g.status_offset, 8);
		CHECK_INT(g.ctl_stride, 12);
		CHECK_INT(g.win_size, 16384);
		CHECK_INT(g.dpa_start, 0);
		CHECK_INT(g.dpa_size, NB_T0_DIMM_SIZE);
		CHECK_INT(g.ctl.line_size, 0);
		CHECK_INT(nfit_ileave_xlate(&g.ctl, 8), 8);
		CHECK_INT(nfit_ileave_xlate(&g.data, 100), 100);
		CHECK(nfit_ileave_run(&g.data, 100) == ~0ULL);
	}
	CHECK_INT(c->nerr, 0);
	/* a PM map is no block window */
	CHECK_INT(nfit_blk_geom(&c->t, at(c, t0.memdev_pm0[0]), &g, test_log,
				c), -ENODEV);
	CHECK_INT(c->nerr, 0);
}

static void t_blk_geom_offsets(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	/* region offsets apply once, window offsets once */
	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.m_dcr->region_offset = 0x200;
	bt.dcr->command_offset = 0x40;
	bt.dcr->status_offset = 0x80;
	bt.m_bdw->region_offset = 0x1000;
	bt.bdw->offset = 0x2000;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK_INT(nfit_ileave_xlate(&g.ctl, g.cmd_offset), 0x240);
	CHECK_INT(nfit_ileave_xlate(&g.ctl, g.status_offset), 0x280);
	CHECK_INT(nfit_ileave_xlate(&g.data, g.win_offset), 0x3000);
	CHECK_INT(nfit_ileave_xlate(&g.data, g.win_offset + 16383), 0x6fff);
	CHECK_INT(c->nerr, 0);

	/* one byte more of region offset: the window leaves the range */
	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.m_bdw->region_offset = 0x6000;
	bt.bdw->offset = 0x2000;
	bt.spa_bdw->length = 0x6000 + 0x2000 + 16384 - 1;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: 1 windows of 0x4000 bytes at offset 0x2000 do not fit block-data-window range 2");
	CHECK_INT(c->nerr, 1);
}

static void t_blk_geom_refusals(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	/* status register one byte past the control range */
	blk_build(c, &bt, 11, 0x4000, 0, 0, 0);
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: status register of window 0 (offset 0x8, 4 bytes) outside control range 1 (0xb bytes)");
	CHECK_INT(c->nerr, 1);

	/* command register: region offset pushes it out */
	blk_build(c, &bt, 0x1000, 0x4000, 0, 0, 0);
	bt.m_dcr->region_offset = 0xff9;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "command register of window 0 (offset 0, 8 bytes) outside control range 1");

	/* window size 0, and below one line */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->size = 0;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "block-data window size 0 (at least 64 bytes needed)");
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->size = 63;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->size = 64;
	CHECK_INT(blk_geom(c, &bt, &g), 0);

	/* window counts */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->windows = 0;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: 1 control windows, 0 block-data windows");
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.dcr->windows = 0;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "0 control windows, 1 block-data windows");

	/* windows do not fit the aperture range */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->offset = 64;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "do not fit block-data-window range 2 (0x4000 bytes)");

	/* DPA beyond what 48 bits of line number reach */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->start_address = (1ULL << 54) - 0x1000000;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "beyond what a block-window command addresses");
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->start_address = (1ULL << 54) - (32ULL << 20) + 64;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->start_address = (1ULL << 54) - (32ULL << 20);
	CHECK_INT(blk_geom(c, &bt, &g), 0);

	/* registers overlapping each other */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.dcr->status_offset = 4;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "command register (offset 0) and status register (offset 0x4) overlap");

	/* two windows whose registers overlap */
	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->window_size = 8;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "control window size 0x8 smaller than its registers (12 bytes)");

	/* no map into a control-register range */
	nb_init(&c->b);
	bt.spa_bdw = nb_spa(&c->b, sizeof(struct acpi_nfit_system_address), 2,
			    NFIT_SPA_BDW, 0x400000000ULL, 0x4000);
	bt.m_bdw = nb_memdev(&c->b, 1, 2, 1, 0, 0, 1);
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 1, 0x1234, 1);
	nb_bdw(&c->b, 1, 32ULL << 20);
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: no control-register range for control region 1");

	/* a short control region has no windows */
	nb_init(&c->b);
	nb_spa(&c->b, sizeof(struct acpi_nfit_system_address), 1, NFIT_SPA_DCR,
	       0x300000000ULL, 12);
	nb_spa(&c->b, sizeof(struct acpi_nfit_system_address), 2, NFIT_SPA_BDW,
	       0x400000000ULL, 0x4000);
	nb_memdev(&c->b, 1, 1, 1, 0, 0, 1);
	bt.m_bdw = nb_memdev(&c->b, 1, 2, 1, 0, 0, 1);
	nb_dcr(&c->b, NB_DCR_LEN_SHORT, 1, 0x1234, 1);
	nb_bdw(&c->b, 1, 32ULL << 20);
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "0 control windows, 1 block-data windows");

	/* capacity 0: no block windows, not an error */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->capacity = 0;
	CHECK_INT(blk_geom(c, &bt, &g), -ENODEV);
	CHECK_INT(c->nerr, 0);
}

static void t_blk_geom_windows_differ(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	/* the lower count is used, with a warning */
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.dcr->windows = 2;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK_INT(g.windows, 1);
	CHECK_LOG(c, "DIMM 0x1: 2 control windows but 1 block-data windows, using 1");
	CHECK_INT(c->nerr, 1);

	/* only the windows used must fit */
	blk_build(c, &bt, 0x2000, 0x8000, 0, 0, 0);
	bt.dcr->windows = 3;
	bt.bdw->windows = 2;
	bt.dcr->window_size = 0x1000;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK_INT(g.windows, 2);
	CHECK_INT(nfit_ileave_xlate(&g.ctl, g.status_offset + g.ctl_stride),
		  0x1008);
	/* ... each of them */
	blk_build(c, &bt, 0x1008, 0x8000, 0, 0, 0);
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->window_size = 0x1000;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "status register of window 1 (offset 0x1008, 4 bytes) outside control range 1");
}

static void t_blk_geom_overflow(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->offset = ~0ULL - 10;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->size = 1ULL << 63;
	bt.bdw->windows = 2;
	bt.dcr->windows = 2;
	bt.dcr->window_size = 16;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.m_bdw->region_offset = ~0ULL;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.m_dcr->region_offset = ~0ULL - 4;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.dcr->command_offset = ~0ULL - 3;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "register offsets 0xfffffffffffffffc/0x8 overflow");
	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->command_offset = 8;
	bt.dcr->status_offset = 0;
	bt.dcr->window_size = ~0ULL - 3;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "command register of window 1: offset overflows");
	blk_build(c, &bt, 0x1000, 0x4000, 0, 0, 0);
	bt.dcr->windows = 0xffff;
	bt.bdw->windows = 0xffff;
	bt.dcr->window_size = 1ULL << 60;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	blk_build(c, &bt, 12, 0x4000, 0, 0, 0);
	bt.bdw->start_address = ~0ULL - 0xfff;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	/* interleaved: a huge table size */
	blk_build(c, &bt, 12, 0x4000, 0, 1, 256);
	bt.m_bdw->interleave_ways = 0xffff;
	bt.m_bdw->region_offset = ~0ULL - 300;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
}

static void t_blk_geom_interleave(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	/*
	 * 2 ways, 256-byte lines, this DIMM's line at offset 1 of 2 (the
	 * builder's lines sit at i * 2): T(o) = 256 + o / 256 * 512 + o % 256
	 * for the aperture, T(o) = 256 + o for the registers of window 0.
	 */
	blk_build(c, &bt, 0x1000, 0x8000, 1, 1, 256);
	bt.m_dcr->interleave_ways = 2;
	bt.m_bdw->interleave_ways = 2;
	bt.m_dcr->region_offset = 256;
	bt.m_bdw->region_offset = 256;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK_INT(g.data.line_size, 256);
	CHECK_INT(g.data.table_size, 512);
	CHECK_INT(nfit_ileave_xlate(&g.ctl, 0), 256);
	CHECK_INT(nfit_ileave_xlate(&g.ctl, 8), 264);
	CHECK_INT(nfit_ileave_xlate(&g.data, 0), 256);
	CHECK_INT(nfit_ileave_xlate(&g.data, 255), 511);
	CHECK_INT(nfit_ileave_xlate(&g.data, 256), 768);
	CHECK_INT(nfit_ileave_xlate(&g.data, 16383), 0x7fff);
	CHECK_INT(nfit_ileave_run(&g.data, 250), 6);
	CHECK_INT(nfit_ileave_run(&g.data, 256), 256);
	CHECK_INT(c->nerr, 0);
	/* one byte less of range and the last line is out */
	blk_build(c, &bt, 0x1000, 0x7fff, 1, 1, 256);
	bt.m_dcr->interleave_ways = 2;
	bt.m_bdw->interleave_ways = 2;
	bt.m_dcr->region_offset = 256;
	bt.m_bdw->region_offset = 256;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);

	/* 3 lines per pass at offsets 0, 2, 4 (of 6), 64-byte lines */
	blk_build(c, &bt, 12, 0x10000, 0, 3, 64);
	bt.m_bdw->interleave_ways = 2;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK_INT(g.data.table_size, 384);
	CHECK_INT(nfit_ileave_xlate(&g.data, 0), 0);
	CHECK_INT(nfit_ileave_xlate(&g.data, 64), 128);
	CHECK_INT(nfit_ileave_xlate(&g.data, 130), 258);
	CHECK_INT(nfit_ileave_xlate(&g.data, 192), 384);
	CHECK_INT(nfit_ileave_xlate(&g.data, 16383), 255 / 3 * 384 + 64 * 0 +
		  63 + 0 * 0);

	/* registers across a line */
	blk_build(c, &bt, 0x1000, 0x4000, 1, 0, 4);
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: command register of window 0 (offset 0) crosses an interleave line of 4 bytes");
	blk_build(c, &bt, 0x1000, 0x4000, 1, 0, 8);
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	blk_build(c, &bt, 0x1000, 0x4000, 1, 0, 8);
	bt.dcr->status_offset = 0xc;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	blk_build(c, &bt, 0x1000, 0x4000, 1, 0, 8);
	bt.dcr->status_offset = 0xd;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "status register of window 0 (offset 0xd) crosses an interleave line of 8 bytes");

	/* the map's ways: 0 is refused by the walker already */
	blk_build(c, &bt, 0x1000, 0x4000, 0, 1, 256);
	bt.m_bdw->interleave_ways = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(state(c, bt.m_bdw), 0);
	CHECK_LOG(c, "zero interleave ways");
}

/* a little deterministic generator */
static u32 rnd_state = 12345;
static u32 rnd(u32 n)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return (rnd_state >> 8) % n;
}

/*
 * The aperture check is exact: for random tables, the windows fit a
 * range of exactly max(T(o)) + 1 bytes and not one byte less.
 */
static void t_blk_geom_interleave_exact(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;
	int iter;

	for (iter = 0; iter < 300; iter++) {
		u32 lines = 1 + rnd(5), ways = 1 + rnd(4);
		u32 line = 64 << rnd(3), i;
		u64 off, max = 0, o, base = rnd(4) * line + rnd(3);
		u16 windows = 1 + rnd(3);
		u64 size = 64 * (1 + rnd(40));
		u32 offs[5];

		for (i = 0; i < lines; i++)
			offs[i] = rnd(lines * ways);
		off = rnd(3) * 64 + rnd(2) * 7;
		/* brute force the highest offset any window byte lands at */
		for (o = off; o < off + windows * size; o++) {
			u64 l = o / line, t;

			t = base + (u64)offs[l % lines] * line +
				l / lines * lines * ways * line + o % line;
			if (t > max)
				max = t;
		}
		for (i = 0; i < 2; i++) {
			u32 k;

			blk_build(c, &bt, 0x1000, max + 1 - i, 0, lines, line);
			for (k = 0; k < lines; k++)
				idt_set(bt.idt_bdw, k, offs[k]);
			bt.m_bdw->interleave_ways = ways;
			bt.m_bdw->region_offset = base;
			bt.bdw->offset = off;
			bt.bdw->size = size;
			bt.bdw->windows = windows;
			bt.dcr->windows = windows;
			bt.dcr->window_size = 12;
			CHECK_INT(blk_geom(c, &bt, &g), i ? -EINVAL : 0);
			if (!i)
				CHECK_INT(nfit_ileave_xlate(&g.data, off),
					  base + (u64)offs[off / line % lines] *
					  line + off / line / lines * lines *
					  ways * line + off % line);
		}
		if (checks_failed) {
			printf("#   iteration %d: %u lines of %u, %u ways, base %llu, offset %llu, %u x %llu\n",
			       iter, lines, line, ways, (unsigned long long)base,
			       (unsigned long long)off, windows,
			       (unsigned long long)size);
			return;
		}
	}
}

/* ---- second mutation audit ---- */

/*
 * Memory device maps are keyed by (handle, range index) with the range
 * index's full 16 bits: handle 0 in range 0x100 and handle 1 unmapped
 * (range 0) are different keys, as are handle 1 in range 0x201 and
 * handle 3 in range 1.
 */
static void t_memdev_key_wide_range(struct tc *c)
{
	struct acpi_nfit_memory_map *m[5];
	int i;

	nb_init(&c->b);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 0x100, NFIT_SPA_PM, 0x100000000ULL,
	       0x1000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 0x201, NFIT_SPA_PM, 0x200000000ULL,
	       0x1000);
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, NFIT_SPA_PM, 0x300000000ULL,
	       0x1000);
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 1, 0x1234, 0);
	m[0] = nb_memdev(&c->b, 0, 0x100, 1, 0x1000, 0, 1);
	m[1] = nb_memdev(&c->b, 1, 0, 1, 0x1000, 0, 1);
	m[2] = nb_memdev(&c->b, 1, 0x201, 1, 0x1000, 0x1000, 1);
	m[3] = nb_memdev(&c->b, 3, 1, 1, 0x1000, 0, 1);
	/* and handle 0 in range 0x8000 against handle 1 unmapped */
	nb_spa(&c->b, NB_SPA_LEN_ACPI60, 0x8000, NFIT_SPA_PM, 0x400000000ULL,
	       0x1000);
	m[4] = nb_memdev(&c->b, 0, 0x8000, 1, 0x1000, 0x1000, 1);
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	for (i = 0; i < 5; i++)
		CHECK_INT(state(c, m[i]), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 0x8000), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 0x100), 1);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 0x201), 1);
	CHECK_INT(c->nerr, 0);
}

/* zero-length and wrapping ranges are refused whatever their kind */
static void t_spa_bad_extent_any_kind(struct tc *c)
{
	static const enum nfit_spa_kind kinds[] = {
		NFIT_SPA_DCR, NFIT_SPA_BDW, NFIT_SPA_VDISK, NFIT_SPA_PCD,
		NFIT_SPA_UNKNOWN,
	};
	unsigned int k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		nb_init(&c->b);
		nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, kinds[k], 0x1000, 0);
		nb_spa(&c->b, NB_SPA_LEN_ACPI60, 2, kinds[k],
		       0xfffffffffffff000ULL, 0x1001);
		nb_spa(&c->b, NB_SPA_LEN_ACPI60, 3, kinds[k],
		       0xfffffffffffff000ULL, 0x1000);
		nb_finish(&c->b);
		CHECK_INT(parse(c), 0);
		CHECK_STR(usable_map(c), "001");
		CHECK_LOG(c, "SPA range 1: zero length");
		CHECK_LOG(c, "SPA range 2: address 0xfffffffffffff000 + length 0x1001 overflows");
		CHECK_INT(c->nerr, 2);
	}
}

/*
 * Control regions are judged before the maps that reference them: a map
 * naming control region 0 finds no region (index 0 is refused), however
 * the table orders them.
 */
static void t_memdev_dcr_index_zero(struct tc *c)
{
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	q.dcr[0]->region_index = 0;
	q.memdev[0]->region_index = 0;
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_STR(usable_map(c), "1001111");
	CHECK_LOG(c, "control region at offset 0x90: index 0 is reserved");
	CHECK_LOG(c, "references missing control region 0");
	CHECK(!nfit_dcr_by_index(&c->t, 0));
}

/*
 * The checksum covers the table's own bytes, not the buffer's slack; a
 * 4-byte subtable (a bare header) may close the table; subtables of
 * reserved types take no room in the subtable array.
 */
static void t_table_edges(struct tc *c)
{
	static const u8 bare[4] = { ACPI_NFIT_TYPE_RESERVED, 0, 4, 0 };
	static const u8 slack[100] = { [0 ... 99] = 0x5a };
	struct nb_qemu q;

	nb_build_qemu(&c->b, &q);
	nb_finish(&c->b);
	nb_append_bytes(&c->b, slack, sizeof(slack));	/* not in the table */
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.length, c->b.len - sizeof(slack));
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 0);

	nb_build_qemu(&c->b, &q);
	nb_append_bytes(&c->b, bare, sizeof(bare));
	nb_finish(&c->b);
	CHECK_INT(parse(c), 0);
	CHECK_INT(c->t.nr_unknown, 1);
	CHECK_STR(usable_map(c), "1111111");
	CHECK_INT(c->nerr, 0);

	/* 7 known subtables and 2 reserved ones fit an array of 7 */
	nb_build_qemu(&c->b, &q);
	nb_insert(&c->b, q.spa[1], bare, sizeof(bare));
	nb_append_bytes(&c->b, bare, sizeof(bare));
	nb_finish(&c->b);
	reset_parse(c);
	c->copy = malloc(c->b.len);
	memcpy(c->copy, c->b.buf, c->b.len);
	c->subs = calloc(7, sizeof(*c->subs));
	CHECK_INT(nfit_table_parse(&c->t, c->copy, c->b.len, c->subs, 7,
				   test_log, c), 0);
	CHECK_INT(c->t.nr_subs, 7);
	CHECK_INT(c->t.nr_unknown, 2);
}

/*
 * An incomplete interleave set takes every one of its maps out of
 * service, the first subtable of the table included, and the walk over
 * the subtables stays inside the array (sized exactly here).
 */
static void t_iset_incomplete_first_entry(struct tc *c)
{
	struct acpi_nfit_memory_map *m;
	struct acpi_nfit_system_address *spa;

	nb_init(&c->b);
	m = nb_memdev(&c->b, 1, 1, 1, 0x1000, 0, 2);	/* 2 ways, alone */
	spa = nb_spa(&c->b, NB_SPA_LEN_ACPI60, 1, NFIT_SPA_PM,
		     0x100000000ULL, 0x1000);
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 1, 0x1234, 0);
	nb_finish(&c->b);
	reset_parse(c);
	c->copy = malloc(c->b.len);
	memcpy(c->copy, c->b.buf, c->b.len);
	c->subs = calloc(3, sizeof(*c->subs));
	CHECK_INT(nfit_table_parse(&c->t, c->copy, c->b.len, c->subs, 3,
				   test_log, c), 0);
	CHECK_INT(c->t.nr_subs, 3);
	CHECK_INT(state(c, m), 0);
	CHECK_INT(state(c, spa), 0);
	CHECK_INT(nfit_spa_nr_memdevs(&c->t, 1), 0);
	CHECK_LOG(c, "SPA range 1: interleave set incomplete (1 of 2 ways mapped)");
}

/*
 * The control-register map of a DIMM's block windows is the DIMM's own
 * and names the same control region as its aperture map.
 */
static void t_blk_geom_dcr_map_match(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	/* the control-register map belongs to another DIMM (handle 2) */
	blk_build(c, &bt, 0x1000, 0x4000, 0, 0, 0);
	bt.m_dcr->device_handle = 2;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: no control-register range for control region 1");

	/* it names control region 1, the windows are control region 2's */
	blk_build(c, &bt, 0x1000, 0x4000, 0, 0, 0);
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 2, 0x5678, 1);
	bt.bdw->region_index = 2;
	bt.m_bdw->region_index = 2;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "DIMM 0x1: no BLK region: no control-register range for control region 2");

	/* both name control region 2: fine */
	blk_build(c, &bt, 0x1000, 0x4000, 0, 0, 0);
	nb_dcr(&c->b, NB_DCR_LEN_FULL, 2, 0x5678, 1);
	bt.bdw->region_index = 2;
	bt.m_bdw->region_index = 2;
	bt.m_dcr->region_index = 2;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK(g.memdev_dcr == at(c, bt.m_dcr));
}

/*
 * The registers' span runs from the lower of the two: status at 0 and
 * command at 8 need 16 bytes of window; a 12-byte window would put
 * window 1's status register inside window 0's command register.
 */
static void t_blk_geom_status_first(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->command_offset = 8;
	bt.dcr->status_offset = 0;
	bt.dcr->window_size = 12;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "control window size 0xc smaller than its registers (16 bytes)");
	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->command_offset = 8;
	bt.dcr->status_offset = 0;
	bt.dcr->window_size = 16;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
}

/*
 * Register offsets against a control range covering the whole address
 * space (address 0, 2^64 - 1 bytes), where no later range check can
 * stand in for the overflow checks: a register must end below U64_MAX,
 * and a window's offset times the window size plus a register offset
 * must not wrap.
 */
static void t_blk_geom_whole_space(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;
	int i;
	static const struct {
		u64 cmd, status;
		int rc;
	} at_top[] = {
		{ ~0ULL - 9, 0, 0 },
		{ ~0ULL - 8, 0, -EINVAL },
		{ 0, ~0ULL - 5, 0 },
		{ 0, ~0ULL - 4, -EINVAL },
	};

	for (i = 0; i < 4; i++) {
		blk_build(c, &bt, ~0ULL, 0x4000, 0, 0, 0);
		bt.spa_dcr->address = 0;
		bt.dcr->command_offset = at_top[i].cmd;
		bt.dcr->status_offset = at_top[i].status;
		CHECK_INT(blk_geom(c, &bt, &g), at_top[i].rc);
		if (at_top[i].rc)
			CHECK_LOG(c, "register offsets");
	}
	/* window 1's command register wraps, its status register does not */
	blk_build(c, &bt, ~0ULL, 0x8000, 0, 0, 0);
	bt.spa_dcr->address = 0;
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->command_offset = 16;
	bt.dcr->status_offset = 0;
	bt.dcr->window_size = ~0ULL - 11;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "command register of window 1: offset overflows");
	bt.dcr->window_size = ~0ULL - 31;	/* both fit: accepted */
	CHECK_INT(blk_geom(c, &bt, &g), 0);
}

/*
 * Register placement: a command register right behind the status
 * register does not overlap it; the registers' span runs from the lower
 * one, wherever the pair sits in the window.
 */
static void t_blk_geom_register_span(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	blk_build(c, &bt, 0x1000, 0x4000, 0, 0, 0);
	bt.dcr->status_offset = 0;
	bt.dcr->command_offset = 4;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	/* command 0x40, status 0x48: 12 bytes, windows 12 bytes apart */
	blk_build(c, &bt, 0x1000, 0x8000, 0, 0, 0);
	bt.dcr->windows = 2;
	bt.bdw->windows = 2;
	bt.dcr->command_offset = 0x40;
	bt.dcr->status_offset = 0x48;
	bt.dcr->window_size = 12;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	bt.dcr->window_size = 8;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "control window size 0x8 smaller than its registers (12 bytes)");
}

/*
 * The aperture check is exact even where every window byte lands on
 * range offset 0 (100 one-byte lines, all at offset 0 of a one-way
 * table): a one-byte range holds the window, an empty one would not.
 */
static void t_blk_geom_all_at_zero(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;
	u32 k;

	blk_build(c, &bt, 12, 1, 0, 100, 1);
	for (k = 0; k < 100; k++)
		idt_set(bt.idt_bdw, k, 0);
	bt.bdw->size = 64;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
	CHECK_INT(nfit_ileave_xlate(&g.data, 63), 0);
	idt_set(bt.idt_bdw, 63, 1);
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
}

/*
 * Interleaved windows far up the device offsets: the pass number times
 * the table size leaves 64 bits (2^55 lines of 256 bytes, a 512-byte
 * table), so the windows cannot be placed, even though the wrapped
 * offsets would land inside the range.
 */
static void t_blk_geom_pass_overflow(struct tc *c)
{
	struct nfit_blk_geom g;
	struct blk_tab bt;

	blk_build(c, &bt, 12, 0x10000, 0, 1, 256);
	bt.m_bdw->interleave_ways = 2;
	bt.bdw->offset = 1ULL << 63;
	CHECK_INT(blk_geom(c, &bt, &g), -EINVAL);
	CHECK_LOG(c, "do not fit block-data-window range 2");
	/* the same windows at offset 0 fit */
	blk_build(c, &bt, 12, 0x10000, 0, 1, 256);
	bt.m_bdw->interleave_ways = 2;
	CHECK_INT(blk_geom(c, &bt, &g), 0);
}

struct test {
	const char *name;
	void (*fn)(struct tc *c);
};

static const struct test tests[] = {
	{ "qemu-like table: 2 DIMMs, all usable, lookups", t_qemu_ok },
	{ "nfit_test.0 topology: 4 DIMMs, 2 interleave sets, DCR+BDW", t_nfit_test0_ok },
	{ "max_subs bound and -ENOSPC", t_max_subs },
	{ "truncated table (length > buffer) refused", t_truncated },
	{ "every truncation of nfit_test.0 refused", t_every_truncation },
	{ "buffer smaller than the table header refused", t_tiny_buffer },
	{ "header length shorter than the header refused", t_header_len_short },
	{ "table with no subtables", t_empty_table },
	{ "bad signature refused", t_bad_signature },
	{ "zero-length subtable refused", t_zero_length_sub },
	{ "subtable shorter than its header refused", t_sub_shorter_than_header },
	{ "subtable running past the end refused", t_sub_past_end },
	{ "stray bytes after the last subtable refused", t_stray_bytes },
	{ "buffer longer than the table", t_slack_after_table },
	{ "bad checksum: warning only", t_bad_checksum },
	{ "revision recorded", t_revision },
	{ "too-short SPA rejected, its map too", t_short_spa },
	{ "SPA location cookie only when present and valid", t_spa_location_cookie },
	{ "too-short memdev rejected", t_short_memdev },
	{ "short-form DCR accepted, too-short DCR rejected", t_short_dcr },
	{ "flush hints: lookup, too short for hint_count", t_flush },
	{ "flush hints: duplicate handle", t_flush_dup },
	{ "interleave table: too short for line_count", t_short_idt },
	{ "interleave table: zero lines/size, index 0, duplicate", t_idt_bad_geometry },
	{ "too-short SMBIOS and capabilities", t_short_smbios_cap },
	{ "unknown type 0x42 skipped", t_unknown_type },
	{ "reserved types skipped", t_reserved_type },
	{ "overlapping PM ranges: later rejected", t_spa_overlap },
	{ "overlap across volatile/PM only", t_spa_overlap_kinds },
	{ "duplicate SPA range index", t_spa_dup_index },
	{ "SPA range index 0", t_spa_index_zero },
	{ "SPA zero length", t_spa_zero_length },
	{ "SPA address + length overflow", t_spa_overflow },
	{ "SPA range type GUIDs", t_spa_kinds },
	{ "duplicate and zero DCR index", t_dcr_dup_index },
	{ "BDW without DCR, second BDW for a DCR", t_bdw_refs },
	{ "memdev referencing missing SPA", t_memdev_missing_spa },
	{ "memdev referencing missing DCR", t_memdev_missing_dcr },
	{ "memdev referencing missing interleave table", t_memdev_missing_idt },
	{ "memdev with zero interleave ways", t_memdev_zero_ways },
	{ "duplicate (handle, range) memdev", t_memdev_dup },
	{ "memdev with range index 0 (unmapped DIMM)", t_memdev_unmapped },
	{ "interleave ways mismatch: 2-way SPA, one memdev", t_iset_ways_mismatch },
	{ "nfit_test.0: members disagree on ways", t_iset_t0_mixed },
	{ "nfit_test.0: rejected member breaks the set", t_iset_t0_member_missing },
	{ "more members than ways", t_iset_too_many },
	{ "subtable order does not matter", t_any_order },
	{ "NULL log callback", t_null_log },
	{ "single-byte mutations keep the invariants", t_byte_mutations },
	{ "interleave table / flush hint of exactly the fixed part claiming one unusable", t_exact_fixed_part_with_count },
	{ "too-short entry, then a valid one with its key: valid one usable", t_short_then_valid_same_key },
	{ "one stray trailing byte refuses the table", t_one_stray_byte },
	{ "block window of a control region with index 0 or too short refused", t_bdw_dcr_rejected },
	{ "SPA overlap by the later range's last byte; non-memory ranges", t_spa_overlap_edges },
	{ "interleave set completeness only for PM ranges", t_iset_volatile_not_checked },
	{ "block windows: nfit_test.0's four DIMMs", t_blk_geom_t0 },
	{ "block windows: region and window offsets applied once", t_blk_geom_offsets },
	{ "block windows: refused geometries", t_blk_geom_refusals },
	{ "block windows: control and data window counts differ", t_blk_geom_windows_differ },
	{ "block windows: overflowing fields refused", t_blk_geom_overflow },
	{ "block windows: interleave translation and line crossing", t_blk_geom_interleave },
	{ "block windows: aperture range check is exact (random tables)", t_blk_geom_interleave_exact },
	{ "memdev key: the range index's full 16 bits", t_memdev_key_wide_range },
	{ "zero-length and wrapping ranges refused whatever their kind", t_spa_bad_extent_any_kind },
	{ "a map naming control region 0 finds none, whatever the order", t_memdev_dcr_index_zero },
	{ "checksum over the table only; a bare 4-byte last subtable; reserved types take no room", t_table_edges },
	{ "block windows: the control-register map is the DIMM's, for the same region", t_blk_geom_dcr_map_match },
	{ "block windows: register span from the lower register", t_blk_geom_status_first },
	{ "block windows: pass number x table size overflowing refused", t_blk_geom_pass_overflow },
	{ "incomplete set: every map out, the table's first entry too", t_iset_incomplete_first_entry },
	{ "block windows: register offsets in a control range of the whole space", t_blk_geom_whole_space },
	{ "block windows: adjacent registers; span from the lower one", t_blk_geom_register_span },
	{ "block windows: every byte at range offset 0 fits one byte", t_blk_geom_all_at_zero },
};

int main(void)
{
	unsigned int i, n = sizeof(tests) / sizeof(tests[0]);
	unsigned int passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%u\n", n);
	for (i = 0; i < n; i++) {
		struct tc *c = calloc(1, sizeof(*c));

		checks_failed = 0;
		tests[i].fn(c);
		if (checks_failed) {
			failed++;
			printf("not ok %u - %s\n", i + 1, tests[i].name);
			if (c->loglen) {
				char *line = strtok(c->log, "\n");

				for (; line; line = strtok(NULL, "\n"))
					printf("#   log: %s\n", line);
			}
		} else {
			passed++;
			printf("ok %u - %s\n", i + 1, tests[i].name);
		}
		reset_parse(c);
		free(c);
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
