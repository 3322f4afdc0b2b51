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
#include <dlfcn.h>
#include <stdio.h>

struct ndctl_ctx;
struct ndctl_bus;
struct ndctl_dimm;

#define DIRTY_VERSION "LIBNDCTL_18"

int main(int argc, char **argv)
{
	int (*new_ctx)(struct ndctl_ctx **ctx);
	struct ndctl_ctx *(*unref)(struct ndctl_ctx *ctx);
	struct ndctl_bus *(*bus_first)(struct ndctl_ctx *ctx);
	struct ndctl_bus *(*bus_next)(struct ndctl_bus *bus);
	struct ndctl_dimm *(*dimm_first)(struct ndctl_bus *bus);
	struct ndctl_dimm *(*dimm_next)(struct ndctl_dimm *dimm);
	const char *(*dimm_name)(struct ndctl_dimm *dimm);
	long long (*dirty)(struct ndctl_dimm *dimm);
	struct ndctl_dimm *dimm;
	struct ndctl_bus *bus;
	struct ndctl_ctx *ctx;
	void *h;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
		return 2;
	}
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	*(void **)&new_ctx = dlsym(h, "ndctl_new");
	*(void **)&unref = dlsym(h, "ndctl_unref");
	*(void **)&bus_first = dlsym(h, "ndctl_bus_get_first");
	*(void **)&bus_next = dlsym(h, "ndctl_bus_get_next");
	*(void **)&dimm_first = dlsym(h, "ndctl_dimm_get_first");
	*(void **)&dimm_next = dlsym(h, "ndctl_dimm_get_next");
	*(void **)&dimm_name = dlsym(h, "ndctl_dimm_get_devname");
	*(void **)&dirty = dlvsym(h, "ndctl_dimm_get_dirty_shutdown",
				   DIRTY_VERSION);
	if (!new_ctx || !unref || !bus_first || !bus_next || !dimm_first ||
	    !dimm_next || !dimm_name) {
		fprintf(stderr, "%s: libndctl's enumeration missing\n", argv[1]);
		return 1;
	}
	if (!dirty) {
		fprintf(stderr, "%s: no ndctl_dimm_get_dirty_shutdown@%s\n",
			argv[1], DIRTY_VERSION);
		return 1;
	}
	if (new_ctx(&ctx)) {
		fprintf(stderr, "%s: ndctl_new failed\n", argv[1]);
		return 1;
	}
	for (bus = bus_first(ctx); bus; bus = bus_next(bus))
		for (dimm = dimm_first(bus); dimm; dimm = dimm_next(dimm))
			printf("%s %lld\n", dimm_name(dimm), dirty(dimm));
	unref(ctx);
	return 0;
}
