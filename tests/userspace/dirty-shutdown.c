// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl-dirty-shutdown: ndctl_dimm_get_dirty_shutdown() of every DIMM,
 * through a libndctl named on the command line (guest tool of
 * tests/guest/nt-smart.sh; built into build/guest-tools/).
 *
 *   ndctl-dirty-shutdown LIBRARY
 *	dlopen()s LIBRARY (ours: /opt/ours/lib/libndctl.so.1, Debian's
 *	76.1: libndctl.so.6), takes ndctl_dimm_get_dirty_shutdown at the
 *	symbol version 76.1 gives it (LIBNDCTL_18) and prints one
 *	"nmemN VALUE" line per DIMM of every bus, in the library's order.
 *
 * The program uses 76.1's names only, so that the same binary runs
 * against both libraries and their answers can be compared line by line.
 * Exit 0, 1 when the library or a symbol is missing (message on stderr),
 * 2 usage.
 */
#define _GNU_SOURCE
#include "dl-ndctl.h"

#define DIRTY_VERSION "LIBNDCTL_18"

int main(int argc, char **argv)
{
	long long (*dirty)(struct ndctl_dimm *dimm);
	struct ndctl_dimm *dimm;
	struct ndctl_bus *bus;
	struct ndctl_ctx *ctx;
	struct dl_ndctl l;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
		return 2;
	}
	if (dl_ndctl_open(&l, argv[1]))
		return 1;
	*(void **)&dirty = dlvsym(l.h, "ndctl_dimm_get_dirty_shutdown",
				   DIRTY_VERSION);
	if (!dirty) {
		fprintf(stderr, "%s: no ndctl_dimm_get_dirty_shutdown@%s\n",
			argv[1], DIRTY_VERSION);
		return 1;
	}
	if (l.new_ctx(&ctx)) {
		fprintf(stderr, "%s: ndctl_new failed\n", argv[1]);
		return 1;
	}
	dl_ndctl_foreach_dimm(&l, ctx, bus, dimm)
		printf("%s %lld\n", l.dimm_name(dimm), dirty(dimm));
	l.unref(ctx);
	return 0;
}
