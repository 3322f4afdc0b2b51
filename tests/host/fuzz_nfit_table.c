// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for kernel/acpi/nfit/table.c: parses arbitrary bytes
 * (as given, then with the header's signature and length forced to fit
 * so that mutations reach the subtable checks), checks the result's
 * invariants and exercises every lookup.  Built with ASan+UBSan, so any
 * read outside the input aborts.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfit_invariants.h"

static void fuzz_log(void *ctx, bool error, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	(void)ctx;
	(void)error;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
}

static void run(const u8 *buf, u32 len, unsigned int max_subs)
{
	struct nfit_sub *subs = calloc(max_subs + 1, sizeof(*subs));
	struct nfit_table t;
	const char *bad;
	const void *p;
	unsigned int pos;
	u16 type;
	u64 cookie;
	int rc;

	rc = nfit_table_parse(&t, buf, len, subs, max_subs, fuzz_log, NULL);
	bad = nfit_check_invariants(&t, rc, buf, len, max_subs);
	if (bad) {
		fprintf(stderr, "invariant violated: %s (rc %d)\n", bad, rc);
		abort();
	}
	for (type = 0; type <= ACPI_NFIT_TYPE_RESERVED; type++) {
		pos = 0;
		while ((p = nfit_next(&t, type, &pos))) {
			if (type == ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
				(void)nfit_spa_kind(p);
				(void)nfit_spa_location_cookie(p, &cookie);
			} else if (type == ACPI_NFIT_TYPE_CONTROL_REGION) {
				(void)nfit_dcr_windows(p);
				(void)nfit_dcr_flags(p);
			}
		}
	}
	free(subs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_table_nfit *nfit;
	unsigned int max;
	u8 *fixed;

	if (size > 65536)
		return 0;
	max = nfit_table_max_subs((u32)size);
	run(data, (u32)size, max);
	run(data, (u32)size, max / 2);

	if (size < sizeof(*nfit))
		return 0;
	fixed = malloc(size);
	memcpy(fixed, data, size);
	nfit = (struct acpi_table_nfit *)fixed;
	memcpy(nfit->header.signature, "NFIT", 4);
	nfit->header.length = (u32)size;
	run(fixed, (u32)size, max);
	free(fixed);
	return 0;
}
