// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the label fuzzer's seed corpus (fuzz_label_format.c input
 * format) into the directory given as argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsa_builder.h"

static u8 area[256 * 1024];

/* options, size selector, then the first @n bytes of the area */
static void emit(const char *dir, const char *name, u8 opts, u8 sel,
		 size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fputc(opts, f) == EOF || fputc(sel, f) == EOF ||
	    fwrite(area, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
	memset(area, 0, sizeof(area));
}

int main(int argc, char **argv)
{
	struct lb_label l = { .uuid = { 0xde, 0xad }, .name = "seed",
			      .nlabel = 1, .dpa = 0x1000000,
			      .rawsize = 0x1000000 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}

	lb_nmem1(area);
	emit(argv[1], "nmem1", 0, 0, 0x280);

	lb_ndctl_init(area, 128 * KIB, 128);
	emit(argv[1], "ndctl-v11-128k", 1, 0, 512);

	lb_ndctl_init(area, 128 * KIB, 256);
	lb_use_slot(area, 256, 0, 0);
	lb_put_label(area, 256, 256, 0, &l);
	emit(argv[1], "ndctl-v12-128k", 3, 0, 768);

	lb_ndctl_init(area, 256 * KIB, 128);
	emit(argv[1], "ndctl-v11-256k", 1, 1, 1024);

	lb_v4x_init(area, 256 * KIB);
	emit(argv[1], "v4x-256k", 1, 1, 1536);

	lb_ndctl_init(area, 1024, 128);
	emit(argv[1], "tiny-1k", 1, 2, 1024);

	lb_ndctl_init(area, 128 * KIB, 256);
	memset(area, 0xa5, 256);
	emit(argv[1], "block0-garbage", 0, 0, 512);

	emit(argv[1], "blank", 0, 0, 16);
	return 0;
}
