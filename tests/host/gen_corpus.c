// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the fuzzer's seed corpus, built with nfit_builder, into the
 * directory given as argument.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nfit_builder.h"

static struct nfit_builder b;

static void emit(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b.buf, 1, b.len, f) != b.len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct acpi_nfit_system_address *spa;
	struct nb_qemu q;
	struct nb_t0 t0;
	static const u8 unknown[8] = { 0x42, 0, 8, 0, 1, 2, 3, 4 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}

	nb_build_qemu(&b, &q);
	emit(argv[1], "qemu");

	nb_build_t0(&b, &t0);
	emit(argv[1], "nfit_test0");

	/* every subtable type, variable parts included */
	nb_build_qemu(&b, &q);
	q.memdev[0]->interleave_index = 1;
	nb_idt(&b, 1, 4, 256);
	nb_flush(&b, NB_QEMU_HANDLE(0), 3);
	nb_flush(&b, NB_QEMU_HANDLE(1), 1);
	nb_smbios(&b, 16);
	nb_append_bytes(&b, unknown, sizeof(unknown));
	nb_finish(&b);
	emit(argv[1], "all_types");

	/* short-form control regions and a full SPA with a cookie */
	nb_init(&b);
	spa = nb_spa(&b, sizeof(*spa), 1, NFIT_SPA_PM, 0x100000000ULL,
		     0x10000000ULL);
#ifdef ACPI_NFIT_LOCATION_COOKIE_VALID
	spa->flags |= ACPI_NFIT_LOCATION_COOKIE_VALID;
	spa->location_cookie = 42;
#else
	(void)spa;
#endif
	nb_memdev(&b, 1, 1, 1, 0x10000000ULL, 0, 1);
	nb_dcr(&b, NB_DCR_LEN_SHORT, 1, 7, 0);
	nb_spa(&b, NB_SPA_LEN_ACPI60, 2, NFIT_SPA_VOLATILE, 0x200000000ULL,
	       0x1000);
	nb_finish(&b);
	emit(argv[1], "short_forms");

	/* an incomplete interleave set */
	nb_build_qemu(&b, &q);
	q.memdev[1]->interleave_ways = 2;
	nb_finish(&b);
	emit(argv[1], "iset_incomplete");
	return 0;
}
